// SPDX-License-Identifier: GPL-2.0-only
/* e1 NPU debugfs: register dump and ring state, under the accel minor. */
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <drm/drm_debugfs.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>

#include "e1npu_device.h"

static int e1npu_debugfs_regs(struct seq_file *m, void *data)
{
	struct drm_debugfs_entry *entry = m->private;
	struct e1npu_device *edev = to_e1npu_device(entry->dev);
	u32 off;
	int idx, ret;

	if (!drm_dev_enter(&edev->drm, &idx))
		return -ENODEV;
	ret = e1npu_pm_get(edev);
	if (ret) {
		drm_dev_exit(idx);
		return ret;
	}
	if (edev->wrap) {
		seq_puts(m, "wrapper:\n");
		for (off = 0; off <= E1_V0_REG_LAST; off += 4)
			seq_printf(m, "  0x%03x: 0x%08x\n", off,
				   e1npu_wr_read_relaxed(edev, off));
	}
	if (edev->dp) {
		seq_puts(m, "datapath:\n");
		for (off = 0; off <= E1_DP_REG_LAST; off += 4)
			seq_printf(m, "  0x%03x: 0x%08x\n", off,
				   e1npu_dp_read(edev, off));
	}
	e1npu_pm_put(edev);
	drm_dev_exit(idx);
	return 0;
}

static int e1npu_debugfs_ring(struct seq_file *m, void *data)
{
	struct drm_debugfs_entry *entry = m->private;
	struct e1npu_device *edev = to_e1npu_device(entry->dev);
	struct list_head *pos;
	unsigned int n = 0;
	u32 tail;

	if (!edev->wrap) {
		seq_puts(m, "no wrapper\n");
		return 0;
	}
	mutex_lock(&edev->ring_lock);
	spin_lock_irq(&edev->retire_lock);
	list_for_each(pos, &edev->inflight)
		n++;
	tail = edev->ring_tail;
	spin_unlock_irq(&edev->retire_lock);
	seq_printf(m, "ring_len %u head %u tail %u inflight_jobs %u\n",
		   edev->ring_len, edev->ring_head, tail, n);
	seq_printf(m, "ring_dma %pad arena_dma %pad arena_size %llu\n",
		   &edev->ring_dma, &edev->arena_dma, edev->arena_size);
	seq_printf(m, "resets %lld fallbacks %lld hard_errors %lld\n",
		   atomic64_read(&edev->resets), atomic64_read(&edev->fallbacks),
		   atomic64_read(&edev->hard_errors));
	mutex_unlock(&edev->ring_lock);
	return 0;
}

static const struct drm_debugfs_info e1npu_debugfs_list[] = {
	{ "regs", e1npu_debugfs_regs, 0 },
	{ "ring", e1npu_debugfs_ring, 0 },
};

/**
 * e1npu_debugfs_init() - the device's debugfs files
 * @edev: the device, before drm_dev_register()
 *
 * The DRM core never calls &drm_driver.debugfs_init for an accel minor,
 * so the driver adds its files to the device's debugfs directory
 * (/sys/kernel/debug/accel/<device>/) itself, as ivpu does; the core
 * removes them with the device.
 */
void e1npu_debugfs_init(struct e1npu_device *edev)
{
	drm_debugfs_add_files(&edev->drm, e1npu_debugfs_list,
			      ARRAY_SIZE(e1npu_debugfs_list));
	/*
	 * Fault injection for the SUBMIT's all-or-nothing rule: write 1 + the
	 * index of a job of the next SUBMIT; its dependencies fail with
	 * -ENOMEM (once). The device's directory exists from drm_dev_init().
	 */
	debugfs_create_u32("fail_submit_deps", 0600, edev->drm.debugfs_root,
			   &edev->fail_submit_deps);
}
