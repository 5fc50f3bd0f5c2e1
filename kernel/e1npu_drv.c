// SPDX-License-Identifier: GPL-2.0-only
/*
 * e1 NPU DRM accel driver: probe, removal, the ioctl table and the small
 * ioctls. Buffers live in e1npu_gem.c, jobs in e1npu_submit.c,
 * e1npu_sched.c and e1npu_job.c (see e1npu_job.h), the shared
 * submission rules in e1npu_opcheck.c.
 */
#include <linux/bitfield.h>
#include <linux/dma-mapping.h>
#include <linux/mod_devicetable.h>
#include <linux/module.h>
#include <linux/of.h>
#include <linux/platform_device.h>
#include <linux/pm_runtime.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <drm/drm_accel.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_ioctl.h>
#include <drm/drm_managed.h>
#include <drm/drm_print.h>
#include <drm/e1npu_accel.h>

#include "e1npu_device.h"
#include "e1npu_gem.h"
#include "e1npu_job.h"
#include "e1npu_perfmon.h"
#include "e1npu_ring.h"

unsigned int e1npu_arena_size_param = 4 << 20;
module_param_named(arena_size, e1npu_arena_size_param, uint, 0444);
MODULE_PARM_DESC(arena_size,
		 "Tensor arena bytes when no memory-region is given (default 4 MiB)");

unsigned int e1npu_timeout_ms = 2000;
module_param_named(timeout_ms, e1npu_timeout_ms, uint, 0444);
MODULE_PARM_DESC(timeout_ms, "Job timeout before an engine reset, ms (default 2000)");

unsigned int e1npu_ring_len_param = E1_V0_RING_LEN_MAX;
module_param_named(ring_len, e1npu_ring_len_param, uint, 0444);
MODULE_PARM_DESC(ring_len, "Wrapper descriptor ring length, power of two 2..256 (default 256)");

unsigned long e1npu_file_quota;
module_param_named(file_quota, e1npu_file_quota, ulong, 0644);
MODULE_PARM_DESC(file_quota,
		 "Arena bytes the buffers of one file may take, 0 = the whole arena; BO_CREATE fails with -ENOSPC beyond (default 0)");

unsigned long e1npu_host_file_max = 16 << 20;
module_param_named(host_file_max, e1npu_host_file_max, ulong, 0644);
MODULE_PARM_DESC(host_file_max,
		 "Bytes of DRM_E1NPU_BO_HOST buffers one file may hold; BO_CREATE fails with -ENOSPC beyond (default 16 MiB)");

unsigned long e1npu_host_dev_max = 256 << 20;
module_param_named(host_dev_max, e1npu_host_dev_max, ulong, 0644);
MODULE_PARM_DESC(host_dev_max,
		 "Bytes of DRM_E1NPU_BO_HOST buffers all files of a device may hold; BO_CREATE fails with -ENOSPC beyond (default 256 MiB)");

/* Largest DEV_QUERY buffer: the zero-filled tail stays bounded. */
#define E1NPU_DEV_QUERY_MAX	PAGE_SIZE

static int e1npu_ioctl_dev_query(struct drm_device *ddev, void *data,
				 struct drm_file *file)
{
	struct e1npu_device *edev = to_e1npu_device(ddev);
	struct drm_e1npu_dev_query *args = data;
	struct drm_e1npu_dev_info info;
	void __user *uptr = u64_to_user_ptr(args->pointer);
	size_t len;

	if (args->type != DRM_E1NPU_DEV_QUERY_INFO) {
		drm_dbg(ddev, "dev_query: type %u\n", args->type);
		return -EINVAL;
	}
	if (!args->pointer) {
		args->size = sizeof(info);
		return 0;
	}
	if (args->size > E1NPU_DEV_QUERY_MAX) {
		drm_dbg(ddev, "dev_query: size %u above %lu\n", args->size,
			E1NPU_DEV_QUERY_MAX);
		return -EINVAL;
	}
	e1npu_limits_to_dev_info(&edev->lim, &info);
	len = min_t(size_t, args->size, sizeof(info));
	if (copy_to_user(uptr, &info, len))
		return -EFAULT;
	if (args->size > sizeof(info) &&
	    clear_user(uptr + sizeof(info), args->size - sizeof(info)))
		return -EFAULT;
	args->size = len;
	return 0;
}

static int e1npu_open(struct drm_device *ddev, struct drm_file *file)
{
	struct e1npu_device *edev = to_e1npu_device(ddev);
	struct e1npu_file *efile;
	int ret;

	efile = kzalloc_obj(*efile, GFP_KERNEL_ACCOUNT);
	if (!efile)
		return -ENOMEM;
	efile->edev = edev;
	efile->client = e1npu_client_alloc();
	if (!efile->client) {
		kfree(efile);
		return -ENOMEM;
	}
	ret = e1npu_job_open(efile);
	if (ret) {
		e1npu_client_put(efile->client);
		kfree(efile);
		return ret;
	}
	file->driver_priv = efile;
	return 0;
}

static void e1npu_postclose(struct drm_device *ddev, struct drm_file *file)
{
	struct e1npu_file *efile = file->driver_priv;

	e1npu_job_close(efile);
	e1npu_client_put(efile->client);
	kfree(efile);
}

#define E1NPU_IOCTL(n, func, flags) \
	DRM_IOCTL_DEF_DRV(E1NPU_##n, e1npu_ioctl_##func, flags)

static const struct drm_ioctl_desc e1npu_drm_ioctls[] = {
	E1NPU_IOCTL(DEV_QUERY, dev_query, 0),
	E1NPU_IOCTL(BO_CREATE, bo_create, 0),
	E1NPU_IOCTL(BO_MMAP_OFFSET, bo_mmap_offset, 0),
	E1NPU_IOCTL(BO_WAIT, bo_wait, 0),
	E1NPU_IOCTL(SUBMIT, submit, 0),
	E1NPU_IOCTL(PERFMON_CREATE, perfmon_create, 0),
	E1NPU_IOCTL(PERFMON_DESTROY, perfmon_destroy, 0),
	E1NPU_IOCTL(PERFMON_GET_VALUES, perfmon_get_values, 0),
};

static const struct file_operations e1npu_drm_fops = {
	.owner = THIS_MODULE,
	DRM_ACCEL_FOPS,
	.show_fdinfo = drm_show_fdinfo,
};

static const struct drm_driver e1npu_drm_driver = {
	.driver_features = DRIVER_COMPUTE_ACCEL | DRIVER_GEM | DRIVER_SYNCOBJ |
			   DRIVER_SYNCOBJ_TIMELINE,
	.open = e1npu_open,
	.postclose = e1npu_postclose,
	.ioctls = e1npu_drm_ioctls,
	.num_ioctls = ARRAY_SIZE(e1npu_drm_ioctls),
	.fops = &e1npu_drm_fops,
	.show_fdinfo = e1npu_show_fdinfo,
	.name = E1NPU_DRIVER_NAME,
	.desc = "e1 NPU accelerator",
	.major = E1NPU_DRIVER_MAJOR,
	.minor = E1NPU_DRIVER_MINOR,
};

/*
 * Map the named register windows; either may be absent, not both. The
 * windows are the device's alone: requested (devm_ioremap_resource()), so
 * a second driver or a resource overlap fails the probe.
 */
static void __iomem *e1npu_probe_window(struct platform_device *pdev,
					const char *name)
{
	if (!platform_get_resource_byname(pdev, IORESOURCE_MEM, name))
		return NULL;
	return devm_platform_ioremap_resource_byname(pdev, name);
}

static int e1npu_probe_regs(struct e1npu_device *edev,
			    struct platform_device *pdev)
{
	edev->wrap = e1npu_probe_window(pdev, E1NPU_WIN_NAME_WRAPPER);
	if (IS_ERR(edev->wrap))
		return PTR_ERR(edev->wrap);
	edev->dp = e1npu_probe_window(pdev, E1NPU_WIN_NAME_DATAPATH);
	if (IS_ERR(edev->dp))
		return PTR_ERR(edev->dp);
	if (!edev->wrap && !edev->dp)
		return dev_err_probe(&pdev->dev, -ENODEV,
				     "neither a \"%s\" nor a \"%s\" register window\n",
				     E1NPU_WIN_NAME_WRAPPER,
				     E1NPU_WIN_NAME_DATAPATH);
	return 0;
}

/*
 * Identify, reset, and identify again: a block that does not come back
 * from reset with its ID and a sane CAPS is not driven. Nothing is written
 * before the first ID matched.
 */
static int e1npu_probe_hw(struct e1npu_device *edev)
{
	struct device *dev = edev->drm.dev;
	u32 id = 0, caps = 0, dp_id = 0;

	if (edev->wrap) {
		id = e1npu_wr_read(edev, E1_V0_ID);
		if (id != E1_V0_ID_VALUE)
			return dev_err_probe(dev, -ENODEV,
					     "wrapper ID 0x%08x, expected 0x%08x\n",
					     id, E1_V0_ID_VALUE);
		e1npu_wr_write(edev, E1_V0_IRQ_MASK, 0);
		e1npu_wr_write(edev, E1_V0_CTRL, E1_V0_CTRL_FLUSH);
		id = e1npu_wr_read(edev, E1_V0_ID);
		caps = e1npu_wr_read(edev, E1_V0_CAPS);
		if (id != E1_V0_ID_VALUE)
			return dev_err_probe(dev, -EIO,
					     "wrapper ID 0x%08x after reset, expected 0x%08x\n",
					     id, E1_V0_ID_VALUE);
		if (!FIELD_GET(E1_V0_CAPS_ROWS, caps) ||
		    !FIELD_GET(E1_V0_CAPS_COLS, caps))
			return dev_err_probe(dev, -EIO,
					     "wrapper CAPS 0x%08x after reset: no rows or columns\n",
					     caps);
	}
	if (edev->dp) {
		dp_id = e1npu_dp_read(edev, E1_DP_ID);
		if (dp_id != E1_DP_ID_VALUE)
			return dev_err_probe(dev, -ENODEV,
					     "datapath ID 0x%08x, expected 0x%08x\n",
					     dp_id, E1_DP_ID_VALUE);
		/* Idle, done/error clear, perf counters zeroed. */
		e1npu_dp_idle(edev);
		e1npu_dp_write(edev, E1_DP_PERF_ERRORS, E1_DP_PERF_CLEAR);
		dp_id = e1npu_dp_read(edev, E1_DP_ID);
		if (dp_id != E1_DP_ID_VALUE)
			return dev_err_probe(dev, -EIO,
					     "datapath ID 0x%08x after reset, expected 0x%08x\n",
					     dp_id, E1_DP_ID_VALUE);
	}
	e1npu_limits_init(&edev->lim, !!edev->wrap, id, caps, !!edev->dp, dp_id,
			  edev->wrap ? edev->ring_len : 0, edev->arena_size);
	dev_info(dev, "e1 NPU: wrapper %s (caps 0x%08x), datapath %s, arena %llu KiB\n",
		 edev->wrap ? "yes" : "no", caps, edev->dp ? "yes" : "no",
		 edev->arena_size >> 10);
	return 0;
}

static int e1npu_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct e1npu_device *edev;
	int ret;

	edev = devm_drm_dev_alloc(dev, &e1npu_drm_driver, struct e1npu_device,
				  drm);
	if (IS_ERR(edev))
		return PTR_ERR(edev);
	platform_set_drvdata(pdev, edev);
	INIT_LIST_HEAD(&edev->inflight);
	spin_lock_init(&edev->retire_lock);
	spin_lock_init(&edev->fence_lock);
	ret = drmm_mutex_init(&edev->drm, &edev->ring_lock);
	if (ret)
		return ret;
	ret = drmm_mutex_init(&edev->drm, &edev->mm_lock);
	if (ret)
		return ret;
	ret = drmm_mutex_init(&edev->drm, &edev->dp_lock);
	if (ret)
		return ret;
	ret = drmm_mutex_init(&edev->drm, &edev->perf_lock);
	if (ret)
		return ret;

	ret = e1npu_probe_regs(edev, pdev);
	if (ret)
		return ret;
	ret = e1npu_job_irq_get(edev);
	if (ret)
		return dev_err_probe(dev, ret, "interrupts\n");

	/* Clocks on and reset pulsed before any register is read. */
	ret = e1npu_pm_init(edev);
	if (ret)
		return ret;

	/*
	 * The NPU's address width, not the CPU's: the ring and the arena
	 * must lie where its master can reach them. Set before any DMA
	 * memory is allocated or a memory-region attached.
	 */
	ret = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(E1NPU_DMA_BITS));
	if (ret)
		return dev_err_probe(dev, ret, "no usable %u-bit DMA mask\n",
				     E1NPU_DMA_BITS);

	if (edev->wrap) {
		edev->ring_len = e1npu_ring_len_param;
		if (edev->ring_len < E1_V0_RING_LEN_MIN ||
		    edev->ring_len > E1_V0_RING_LEN_MAX ||
		    !is_power_of_2(edev->ring_len))
			return dev_err_probe(dev, -EINVAL, "ring_len %u\n",
					     edev->ring_len);
		/* Coherent allocations are page aligned: 64 bytes hold. */
		edev->ring_vaddr = dmam_alloc_coherent(dev, (size_t)edev->ring_len *
						       E1_V0_DESC_SIZE,
						       &edev->ring_dma,
						       GFP_KERNEL);
		if (!edev->ring_vaddr)
			return -ENOMEM;
	}

	ret = e1npu_gem_arena_init(edev);
	if (ret)
		return dev_err_probe(dev, ret, "tensor arena of %u bytes\n",
				     e1npu_arena_size_param);

	ret = e1npu_probe_hw(edev);
	if (ret)
		return ret;

	ret = e1npu_job_irq_init(edev);
	if (ret)
		return dev_err_probe(dev, ret, "interrupts\n");

	if (edev->wrap) {
		mutex_lock(&edev->ring_lock);
		ret = e1npu_hw_reset(edev);
		mutex_unlock(&edev->ring_lock);
		/* Busy after a flush, before any job: not a usable engine. */
		if (ret)
			return dev_err_probe(dev, ret,
					     "wrapper still busy after its reset\n");
	}

	ret = e1npu_job_init(edev);
	if (ret)
		goto err_hw_stop;

	e1npu_debugfs_init(edev);
	ret = drm_dev_register(&edev->drm, 0);
	if (ret)
		goto err_job_fini;
	e1npu_pm_probe_done(edev);
	return 0;

err_job_fini:
	e1npu_job_fini(edev, true);
err_hw_stop:
	if (edev->wrap) {
		e1npu_wr_write(edev, E1_V0_IRQ_MASK, 0);
		e1npu_wr_write(edev, E1_V0_CTRL, E1_V0_CTRL_FLUSH);
	}
	return ret;
}

static void e1npu_remove(struct platform_device *pdev)
{
	struct e1npu_device *edev = platform_get_drvdata(pdev);
	int pm;

	drm_dev_unplug(&edev->drm);
	/*
	 * job_fini masks and flushes: the registers must be clocked. If the
	 * device cannot be resumed it touches none of them.
	 */
	pm = e1npu_pm_get(edev);
	if (pm)
		drm_warn(&edev->drm, "resume at removal failed (%d): engines not flushed\n", pm);
	e1npu_job_fini(edev, !pm);
	if (!pm)
		pm_runtime_put_noidle(&pdev->dev);
}

static const struct of_device_id e1npu_of_match[] = {
	{ .compatible = "eliza,e1-npu" },
	{ }
};
MODULE_DEVICE_TABLE(of, e1npu_of_match);

static struct platform_driver e1npu_platform_driver = {
	.probe = e1npu_probe,
	.remove = e1npu_remove,
	.driver = {
		.name = E1NPU_DRIVER_NAME,
		.of_match_table = e1npu_of_match,
		.dev_groups = e1npu_sysfs_groups,
		.pm = pm_ptr(&e1npu_pm_ops),
	},
};
module_platform_driver(e1npu_platform_driver);

MODULE_AUTHOR("e1 NPU team");
MODULE_DESCRIPTION("DRM accel driver for the e1 NPU");
MODULE_LICENSE("GPL");
