// SPDX-License-Identifier: GPL-2.0-only
/*
 * e1 NPU perf counters: the hardware's (e1npu_perf_hw()), carried across
 * reset-line pulses (e1npu_perf_save()), and per-job performance monitors.
 * A perfmon is a set of the hardware's counters owned by one file. An
 * engine runs one job at a time (a scheduler credit limit of 1,
 * e1npu_sched.c), so what the engine's counters advance by between a job's
 * start and its completion is that job's own work, and is added to the
 * values of the perfmon it names. The sysfs perf/ group keeps the
 * device-wide totals.
 */
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>
#include <linux/xarray.h>
#include <drm/drm_file.h>
#include <drm/drm_print.h>

#include "e1npu_device.h"
#include "e1npu_job.h"
#include "e1npu_perfmon.h"

/* The hardware perf counters, by enum drm_e1npu_perf_counter. */
static const struct {
	bool dp;
	u16 lo;
	u16 hi;		/* 0: a 32-bit counter */
} e1npu_perf_regs[E1NPU_PERF_NUM] = {
	[DRM_E1NPU_PERF_WRAPPER_CYCLES] = { false, E1_V0_PERF_CYCLES, 0 },
	[DRM_E1NPU_PERF_WRAPPER_MACS] = { false, E1_V0_PERF_MACS_LO, E1_V0_PERF_MACS_HI },
	[DRM_E1NPU_PERF_WRAPPER_FALLBACKS] = { false, E1_V0_PERF_FALLBACKS, 0 },
	[DRM_E1NPU_PERF_DP_CYCLES] = { true, E1_DP_PERF_CYCLES, 0 },
	[DRM_E1NPU_PERF_DP_MACS] = { true, E1_DP_PERF_MACS, 0 },
	[DRM_E1NPU_PERF_DP_OPS] = { true, E1_DP_PERF_OPS, 0 },
	[DRM_E1NPU_PERF_DP_ERRORS] = { true, E1_DP_PERF_ERRORS, 0 },
	[DRM_E1NPU_PERF_DP_UNSUPPORTED_OPS] = { true, E1_DP_PERF_UNSUPPORTED_OPS, 0 },
	[DRM_E1NPU_PERF_DP_SCRATCH_BYTES] = { true, E1_DP_PERF_SCRATCH_BYTES, 0 },
};

/**
 * e1npu_perf_hw() - a perf counter as the hardware holds it
 * @edev: the device, powered
 * @i: enum drm_e1npu_perf_counter
 *
 * Return: the counter, 0 when its window is absent.
 */
u64 e1npu_perf_hw(struct e1npu_device *edev, unsigned int i)
{
	u16 lo = e1npu_perf_regs[i].lo, hi = e1npu_perf_regs[i].hi;

	if (e1npu_perf_regs[i].dp)
		return edev->dp ? e1npu_dp_read(edev, lo) : 0;
	if (!edev->wrap)
		return 0;
	if (!hi)
		return e1npu_wr_read_relaxed(edev, lo);
	return (u64)e1npu_wr_read_relaxed(edev, hi) << 32 |
	       e1npu_wr_read_relaxed(edev, lo);
}

/**
 * e1npu_perf_save() - fold the hardware counters into the software totals
 * @edev: the device, powered, perf_lock held
 *
 * Called right before a reset line clears them, so that what perf/ reports
 * (total + hardware) runs on across the reset.
 */
void e1npu_perf_save(struct e1npu_device *edev)
{
	unsigned int i;

	lockdep_assert_held(&edev->perf_lock);
	for (i = 0; i < E1NPU_PERF_NUM; i++)
		edev->perf_base[i] += e1npu_perf_hw(edev, i);
}

/**
 * struct e1npu_perfmon - counters a file counts its jobs in
 * @ref: one for the file's xarray, one per job naming it
 * @lock: guards @values (updated from the completion interrupt)
 * @ncounters: entries of @counters and @values
 * @counters: enum drm_e1npu_perf_counter per value
 * @values: sums over the jobs that completed
 */
struct e1npu_perfmon {
	struct kref ref;
	/* Guards values; taken in hard interrupt context. */
	spinlock_t lock;
	u32 ncounters;
	u8 counters[DRM_E1NPU_MAX_PERF_COUNTERS];
	u64 values[DRM_E1NPU_MAX_PERF_COUNTERS];
};

static void e1npu_perfmon_release(struct kref *ref)
{
	kfree(container_of(ref, struct e1npu_perfmon, ref));
}

/**
 * e1npu_perfmon_put() - drop a reference
 * @pm: the perfmon, or NULL
 */
void e1npu_perfmon_put(struct e1npu_perfmon *pm)
{
	if (pm)
		kref_put(&pm->ref, e1npu_perfmon_release);
}

/**
 * e1npu_perfmon_find() - a file's perfmon, referenced
 * @efile: the file
 * @id: perfmon id
 *
 * Return: the perfmon, or NULL for an unknown id.
 */
struct e1npu_perfmon *e1npu_perfmon_find(struct e1npu_file *efile, u32 id)
{
	struct e1npu_perfmon *pm;

	xa_lock(&efile->perfmons);
	pm = xa_load(&efile->perfmons, id);
	if (pm)
		kref_get(&pm->ref);
	xa_unlock(&efile->perfmons);
	return pm;
}

/* The counters of the job's engine (the others do not move for it). */
static bool e1npu_perf_of_engine(unsigned int i, u32 engine)
{
	bool dp = i >= DRM_E1NPU_PERF_DP_CYCLES;

	return dp == (engine == DRM_E1NPU_ENGINE_DATAPATH);
}

/**
 * e1npu_perfmon_job_start() - snapshot the counters as a job starts
 * @job: the job; its engine is idle and owned by it
 */
void e1npu_perfmon_job_start(struct e1npu_job *job)
{
	unsigned int i;

	if (!job->perfmon)
		return;
	for (i = 0; i < E1NPU_PERF_NUM; i++)
		if (e1npu_perf_of_engine(i, job->engine))
			job->perf_start[i] = e1npu_perf_hw(job->edev, i);
}

/**
 * e1npu_perfmon_job_end() - add what a job counted to its perfmon
 * @job: the job, finished (may run in hard interrupt context)
 *
 * A reset-line pulse during the job clears the counters: what they hold
 * then is what the job counted since.
 */
void e1npu_perfmon_job_end(struct e1npu_job *job)
{
	struct e1npu_perfmon *pm = job->perfmon;
	u64 delta[E1NPU_PERF_NUM] = { 0 };
	unsigned long flags;
	unsigned int i;

	if (!pm || !job->start_ns)
		return;
	for (i = 0; i < E1NPU_PERF_NUM; i++) {
		u64 now;

		if (!e1npu_perf_of_engine(i, job->engine))
			continue;
		now = e1npu_perf_hw(job->edev, i);
		delta[i] = now >= job->perf_start[i] ? now - job->perf_start[i] :
						       now;
	}
	spin_lock_irqsave(&pm->lock, flags);
	for (i = 0; i < pm->ncounters; i++)
		pm->values[i] += delta[pm->counters[i]];
	spin_unlock_irqrestore(&pm->lock, flags);
}

/**
 * e1npu_perfmon_open() - a new file has no perfmons
 * @efile: the file
 */
void e1npu_perfmon_open(struct e1npu_file *efile)
{
	xa_init_flags(&efile->perfmons, XA_FLAGS_ALLOC1);
}

/**
 * e1npu_perfmon_close() - drop the file's perfmons (jobs keep theirs)
 * @efile: the file
 */
void e1npu_perfmon_close(struct e1npu_file *efile)
{
	struct e1npu_perfmon *pm;
	unsigned long id;

	xa_for_each(&efile->perfmons, id, pm)
		e1npu_perfmon_put(pm);
	xa_destroy(&efile->perfmons);
}

/**
 * e1npu_ioctl_perfmon_create() - DRM_IOCTL_E1NPU_PERFMON_CREATE
 * @ddev: DRM device
 * @data: struct drm_e1npu_perfmon_create
 * @file: the caller
 *
 * Return: 0, -EINVAL for a counter count out of range or an unknown
 * counter, -ENOMEM.
 */
int e1npu_ioctl_perfmon_create(struct drm_device *ddev, void *data,
			       struct drm_file *file)
{
	struct e1npu_file *efile = file->driver_priv;
	struct drm_e1npu_perfmon_create *args = data;
	struct e1npu_perfmon *pm;
	u32 i, id;
	int ret;

	if (!args->ncounters || args->ncounters > DRM_E1NPU_MAX_PERF_COUNTERS) {
		drm_dbg(ddev, "perfmon: ncounters %u (1..%u)\n",
			args->ncounters, DRM_E1NPU_MAX_PERF_COUNTERS);
		return -EINVAL;
	}
	for (i = 0; i < DRM_E1NPU_MAX_PERF_COUNTERS; i++) {
		if (i < args->ncounters &&
		    args->counters[i] >= E1NPU_PERF_NUM) {
			drm_dbg(ddev, "perfmon: counters[%u] %u unknown\n", i,
				args->counters[i]);
			return -EINVAL;
		}
		if (i >= args->ncounters && args->counters[i]) {
			drm_dbg(ddev, "perfmon: counters[%u] past ncounters is not 0\n",
				i);
			return -EINVAL;
		}
	}
	pm = kzalloc_obj(*pm, GFP_KERNEL_ACCOUNT);
	if (!pm)
		return -ENOMEM;
	kref_init(&pm->ref);
	spin_lock_init(&pm->lock);
	pm->ncounters = args->ncounters;
	memcpy(pm->counters, args->counters, args->ncounters);
	ret = xa_alloc(&efile->perfmons, &id, pm, XA_LIMIT(1, INT_MAX),
		       GFP_KERNEL_ACCOUNT);
	if (ret) {
		kfree(pm);
		return ret;
	}
	args->id = id;
	return 0;
}

/**
 * e1npu_ioctl_perfmon_destroy() - DRM_IOCTL_E1NPU_PERFMON_DESTROY
 * @ddev: DRM device
 * @data: struct drm_e1npu_perfmon_destroy
 * @file: the caller
 *
 * Return: 0, -EINVAL for a non-zero pad, -ENOENT for an unknown id.
 */
int e1npu_ioctl_perfmon_destroy(struct drm_device *ddev, void *data,
				struct drm_file *file)
{
	struct e1npu_file *efile = file->driver_priv;
	struct drm_e1npu_perfmon_destroy *args = data;
	struct e1npu_perfmon *pm;

	if (args->pad)
		return -EINVAL;
	pm = xa_erase(&efile->perfmons, args->id);
	if (!pm)
		return -ENOENT;
	e1npu_perfmon_put(pm);
	return 0;
}

/**
 * e1npu_ioctl_perfmon_get_values() - DRM_IOCTL_E1NPU_PERFMON_GET_VALUES
 * @ddev: DRM device
 * @data: struct drm_e1npu_perfmon_get_values
 * @file: the caller
 *
 * Return: 0, -EINVAL for unknown flags, -ENOENT for an unknown id,
 * -EFAULT.
 */
int e1npu_ioctl_perfmon_get_values(struct drm_device *ddev, void *data,
				   struct drm_file *file)
{
	struct e1npu_file *efile = file->driver_priv;
	struct drm_e1npu_perfmon_get_values *args = data;
	u64 values[DRM_E1NPU_MAX_PERF_COUNTERS];
	struct e1npu_perfmon *pm;
	unsigned long flags;
	u32 n;
	int ret = 0;

	if (args->flags & ~DRM_E1NPU_PERFMON_RESET)
		return -EINVAL;
	pm = e1npu_perfmon_find(efile, args->id);
	if (!pm)
		return -ENOENT;
	n = pm->ncounters;
	spin_lock_irqsave(&pm->lock, flags);
	memcpy(values, pm->values, n * sizeof(values[0]));
	if (args->flags & DRM_E1NPU_PERFMON_RESET)
		memset(pm->values, 0, sizeof(pm->values));
	spin_unlock_irqrestore(&pm->lock, flags);
	if (copy_to_user(u64_to_user_ptr(args->values_ptr), values,
			 n * sizeof(values[0])))
		ret = -EFAULT;
	e1npu_perfmon_put(pm);
	return ret;
}
