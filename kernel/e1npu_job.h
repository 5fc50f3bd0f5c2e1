/* SPDX-License-Identifier: GPL-2.0-only */
/* e1 NPU jobs: submission, scheduling, interrupts and recovery. */
#ifndef __E1NPU_JOB_H__
#define __E1NPU_JOB_H__

#include <linux/atomic.h>
#include <linux/mutex.h>
#include <linux/xarray.h>
#include <drm/gpu_scheduler.h>

struct drm_device;
struct drm_file;
struct e1npu_device;

/**
 * struct e1npu_file - per-open-file state
 * @edev: the device
 * @entity: one scheduler entity per engine, valid when @entity_ok
 * @entity_ok: the entity of that engine was initialised
 * @submit_lock: serialises arm + push on this file's entities
 * @results: job id -> struct e1npu_result, until read or close
 * @next_id: cyclic allocation hint for @results
 * @result_count: entries of @results (capped by the max_results parameter)
 * @client: accounting shared with the file's jobs and buffers (fdinfo,
 *	arena quota)
 */
struct e1npu_file {
	struct e1npu_device *edev;
	struct drm_sched_entity entity[2];
	bool entity_ok[2];
	/* Serialises drm_sched_job_arm() and push on this file's entities. */
	struct mutex submit_lock;
	struct xarray results;
	u32 next_id;
	atomic_t result_count;
	struct e1npu_client *client;
};

int e1npu_job_init(struct e1npu_device *edev);
void e1npu_job_fini(struct e1npu_device *edev);
int e1npu_job_open(struct e1npu_file *efile);
void e1npu_job_close(struct e1npu_file *efile);
int e1npu_job_irq_get(struct e1npu_device *edev);
int e1npu_job_irq_init(struct e1npu_device *edev);

int e1npu_ioctl_submit(struct drm_device *ddev, void *data,
		       struct drm_file *file);
int e1npu_ioctl_job_result(struct drm_device *ddev, void *data,
			   struct drm_file *file);

#endif /* __E1NPU_JOB_H__ */
