// SPDX-License-Identifier: GPL-2.0-only
/*
 * e1 NPU perf counters in sysfs, on the platform device (see
 * Documentation/ABI/testing/sysfs-driver-e1npu). Hardware counters read 0
 * when their engine is absent or the device is gone, and run on across
 * the resets of a reset line (e1npu_perf_save() in e1npu_perfmon.c).
 */
#include <linux/device.h>
#include <linux/math64.h>
#include <linux/sysfs.h>
#include <linux/time64.h>
#include <drm/drm_drv.h>

#include "e1npu_device.h"
#include "e1npu_perfmon.h"

static struct e1npu_device *e1npu_sysfs_edev(struct device *dev)
{
	return dev_get_drvdata(dev);
}

/* Counter @i: total before the last reset + hardware; 0 when unplugged. */
static u64 e1npu_sysfs_perf(struct e1npu_device *edev, unsigned int i)
{
	u64 v = 0;
	int idx;

	if (!drm_dev_enter(&edev->drm, &idx))
		return 0;
	/* The registers are clocked only while the device is resumed. */
	if (!e1npu_pm_get(edev)) {
		mutex_lock(&edev->perf_lock);
		v = edev->perf_base[i] + e1npu_perf_hw(edev, i);
		mutex_unlock(&edev->perf_lock);
		e1npu_pm_put(edev);
	}
	drm_dev_exit(idx);
	return v;
}

#define E1NPU_REG_ATTR(name, i)						\
static ssize_t name##_show(struct device *dev,				\
			   struct device_attribute *attr, char *buf)	\
{									\
	return sysfs_emit(buf, "%llu\n",				\
			  e1npu_sysfs_perf(e1npu_sysfs_edev(dev), i));	\
}									\
static DEVICE_ATTR_RO(name)

static s64 e1npu_sysfs_cnt(struct device *dev, size_t off)
{
	return atomic64_read((atomic64_t *)((char *)e1npu_sysfs_edev(dev) + off));
}

#define E1NPU_CNT_ATTR(name, field)					\
static ssize_t name##_show(struct device *dev,				\
			   struct device_attribute *attr, char *buf)	\
{									\
	return sysfs_emit(buf, "%lld\n", e1npu_sysfs_cnt(dev,		\
			  offsetof(struct e1npu_device, field)));	\
}									\
static DEVICE_ATTR_RO(name)

E1NPU_REG_ATTR(cycles, DRM_E1NPU_PERF_WRAPPER_CYCLES);
E1NPU_REG_ATTR(macs, DRM_E1NPU_PERF_WRAPPER_MACS);
E1NPU_REG_ATTR(fallbacks, DRM_E1NPU_PERF_WRAPPER_FALLBACKS);
E1NPU_CNT_ATTR(jobs_completed, wrapper.jobs_completed);
E1NPU_CNT_ATTR(jobs_failed, wrapper.jobs_failed);
E1NPU_CNT_ATTR(resets, resets);
E1NPU_CNT_ATTR(driver_fallbacks, fallbacks);
E1NPU_CNT_ATTR(hard_errors, hard_errors);
E1NPU_REG_ATTR(dp_cycles, DRM_E1NPU_PERF_DP_CYCLES);
E1NPU_REG_ATTR(dp_macs, DRM_E1NPU_PERF_DP_MACS);
E1NPU_REG_ATTR(dp_ops, DRM_E1NPU_PERF_DP_OPS);
E1NPU_REG_ATTR(dp_errors, DRM_E1NPU_PERF_DP_ERRORS);
E1NPU_REG_ATTR(dp_unsupported_ops, DRM_E1NPU_PERF_DP_UNSUPPORTED_OPS);
E1NPU_REG_ATTR(dp_scratch_bytes, DRM_E1NPU_PERF_DP_SCRATCH_BYTES);
E1NPU_CNT_ATTR(dp_jobs_completed, datapath.jobs_completed);
E1NPU_CNT_ATTR(dp_jobs_failed, datapath.jobs_failed);

/* Cycles of the core clock in microseconds; -ENODATA without a clock. */
static ssize_t e1npu_emit_us(struct e1npu_device *edev, char *buf, u64 cycles)
{
	if (!edev->clock_hz)
		return -ENODATA;
	return sysfs_emit(buf, "%llu\n",
			  mul_u64_u64_div_u64(cycles, USEC_PER_SEC,
					      edev->clock_hz));
}

static ssize_t busy_us_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct e1npu_device *edev = e1npu_sysfs_edev(dev);

	return e1npu_emit_us(edev, buf, e1npu_sysfs_perf(edev, DRM_E1NPU_PERF_WRAPPER_CYCLES));
}
static DEVICE_ATTR_RO(busy_us);

static ssize_t dp_busy_us_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	struct e1npu_device *edev = e1npu_sysfs_edev(dev);

	return e1npu_emit_us(edev, buf,
			     e1npu_sysfs_perf(edev, DRM_E1NPU_PERF_DP_CYCLES));
}
static DEVICE_ATTR_RO(dp_busy_us);

static struct attribute *e1npu_sysfs_attrs[] = {
	&dev_attr_cycles.attr,
	&dev_attr_macs.attr,
	&dev_attr_fallbacks.attr,
	&dev_attr_busy_us.attr,
	&dev_attr_jobs_completed.attr,
	&dev_attr_jobs_failed.attr,
	&dev_attr_resets.attr,
	&dev_attr_driver_fallbacks.attr,
	&dev_attr_hard_errors.attr,
	&dev_attr_dp_cycles.attr,
	&dev_attr_dp_macs.attr,
	&dev_attr_dp_ops.attr,
	&dev_attr_dp_errors.attr,
	&dev_attr_dp_unsupported_ops.attr,
	&dev_attr_dp_scratch_bytes.attr,
	&dev_attr_dp_busy_us.attr,
	&dev_attr_dp_jobs_completed.attr,
	&dev_attr_dp_jobs_failed.attr,
	NULL,
};

static const struct attribute_group e1npu_sysfs_group = {
	.name = "perf",
	.attrs = e1npu_sysfs_attrs,
};

const struct attribute_group *e1npu_sysfs_groups[] = {
	&e1npu_sysfs_group,
	NULL,
};
