// SPDX-License-Identifier: GPL-2.0-only
/*
 * e1 NPU perf counters in sysfs, on the platform device (see
 * Documentation/ABI/testing/sysfs-driver-e1npu). Hardware counters read 0
 * when their engine is absent or the device is gone.
 */
#include <linux/device.h>
#include <linux/math64.h>
#include <linux/sysfs.h>
#include <drm/drm_drv.h>

#include "e1npu_device.h"

static struct e1npu_device *e1npu_sysfs_edev(struct device *dev)
{
	return dev_get_drvdata(dev);
}

/* Read a hardware register, 0 when the window is absent or unplugged. */
static u64 e1npu_sysfs_reg(struct e1npu_device *edev, bool dp, u32 off)
{
	u64 v = 0;
	int idx;

	if (!drm_dev_enter(&edev->drm, &idx))
		return 0;
	/* The registers are clocked only while the device is resumed. */
	if (!e1npu_pm_get(edev)) {
		if (dp && edev->dp)
			v = e1npu_dp_read(edev, off);
		else if (!dp && edev->wrap)
			v = e1npu_wr_read_relaxed(edev, off);
		e1npu_pm_put(edev);
	}
	drm_dev_exit(idx);
	return v;
}

#define E1NPU_REG_ATTR(name, dp, off)					\
static ssize_t name##_show(struct device *dev,				\
			   struct device_attribute *attr, char *buf)	\
{									\
	return sysfs_emit(buf, "%llu\n",				\
			  e1npu_sysfs_reg(e1npu_sysfs_edev(dev), dp, off)); \
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

E1NPU_REG_ATTR(cycles, false, E1_V0_PERF_CYCLES);
E1NPU_REG_ATTR(fallbacks, false, E1_V0_PERF_FALLBACKS);
E1NPU_CNT_ATTR(jobs_completed, wrapper.jobs_completed);
E1NPU_CNT_ATTR(jobs_failed, wrapper.jobs_failed);
E1NPU_CNT_ATTR(resets, resets);
E1NPU_CNT_ATTR(driver_fallbacks, fallbacks);
E1NPU_CNT_ATTR(hard_errors, hard_errors);
E1NPU_REG_ATTR(dp_cycles, true, E1_DP_PERF_CYCLES);
E1NPU_REG_ATTR(dp_macs, true, E1_DP_PERF_MACS);
E1NPU_REG_ATTR(dp_ops, true, E1_DP_PERF_OPS);
E1NPU_REG_ATTR(dp_errors, true, E1_DP_PERF_ERRORS);
E1NPU_REG_ATTR(dp_unsupported_ops, true, E1_DP_PERF_UNSUPPORTED_OPS);
E1NPU_REG_ATTR(dp_scratch_bytes, true, E1_DP_PERF_SCRATCH_BYTES);
E1NPU_CNT_ATTR(dp_jobs_completed, datapath.jobs_completed);
E1NPU_CNT_ATTR(dp_jobs_failed, datapath.jobs_failed);

static ssize_t macs_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	struct e1npu_device *edev = e1npu_sysfs_edev(dev);
	u64 lo, hi;

	hi = e1npu_sysfs_reg(edev, false, E1_V0_PERF_MACS_HI);
	lo = e1npu_sysfs_reg(edev, false, E1_V0_PERF_MACS_LO);
	return sysfs_emit(buf, "%llu\n", hi << 32 | lo);
}
static DEVICE_ATTR_RO(macs);

static u64 e1npu_cycles_to_us(u64 cycles)
{
	u32 mhz = READ_ONCE(e1npu_clock_mhz);

	return mhz ? div_u64(cycles, mhz) : 0;
}

static ssize_t busy_us_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	u64 c = e1npu_sysfs_reg(e1npu_sysfs_edev(dev), false, E1_V0_PERF_CYCLES);

	return sysfs_emit(buf, "%llu\n", e1npu_cycles_to_us(c));
}
static DEVICE_ATTR_RO(busy_us);

static ssize_t dp_busy_us_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	u64 c = e1npu_sysfs_reg(e1npu_sysfs_edev(dev), true, E1_DP_PERF_CYCLES);

	return sysfs_emit(buf, "%llu\n", e1npu_cycles_to_us(c));
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
