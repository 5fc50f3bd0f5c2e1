/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * e1 NPU jobs: what the SUBMIT path (e1npu_submit.c), the scheduler
 * backend (e1npu_sched.c), the wrapper ring (e1npu_ring.c), the datapath
 * (e1npu_dp.c) and a job's completion (e1npu_job.c) share.
 */
#ifndef __E1NPU_JOB_H__
#define __E1NPU_JOB_H__

#include <linux/atomic.h>
#include <linux/dev_printk.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <drm/gpu_scheduler.h>

#include "e1npu_opcheck.h"

struct dma_fence;
struct drm_device;
struct drm_file;
struct drm_gem_object;
struct e1npu_client;
struct e1npu_device;
struct e1npu_engine;
struct e1npu_job_handle;
struct e1npu_perfmon;

/**
 * struct e1npu_file - per-open-file state
 * @edev: the device
 * @entity: one scheduler entity per engine, valid when @entity_ok
 * @entity_ok: the entity of that engine was initialised
 * @submit_lock: serialises arm + push on this file's entities
 * @perfmons: perfmon id -> struct e1npu_perfmon
 * @client: accounting shared with the file's jobs and buffers (fdinfo,
 *	arena quota)
 */
struct e1npu_file {
	struct e1npu_device *edev;
	struct drm_sched_entity entity[2];
	bool entity_ok[2];
	/* Serialises drm_sched_job_arm() and push on this file's entities. */
	struct mutex submit_lock;
	struct xarray perfmons;
	struct e1npu_client *client;
};

/**
 * struct e1npu_job - one job of one engine
 * @base: the scheduler job
 * @edev: the device
 * @engine: enum drm_e1npu_engine
 * @op_count: commands
 * @ops: the decoded, validated commands (the datapath executes them)
 * @desc: wrapper: the descriptors written into the ring, addresses filled
 * @dp_ptr: datapath: CPU addresses of tensors a, b, c per command
 * @bos: the buffers the job's relocations name, referenced
 * @bo_write: per buffer: the job writes it
 * @bo_count: entries of @bos
 * @status_bo: buffer of the status record, referenced, or NULL
 * @status: CPU address of the status record in @status_bo
 * @perfmon: perfmon the job counts in, referenced, or NULL
 * @perf_start: counters of the job's engine when it started (@perfmon)
 * @hw_fence: signalled when the engine is done with the job
 * @hw_fence_init: @hw_fence was initialised by run_job
 * @out_syncs: syncobjs to signal; @out_chains the timeline links
 * @out_chains: preallocated chain nodes for timeline points (or NULL)
 * @out_points: the points of @out_syncs, 0 for a binary syncobj
 * @out_count: entries of @out_syncs
 * @node: in edev->inflight while the job's descriptors are in the ring
 * @dp_work: runs a datapath job outside the scheduler's run_job
 * @first: ring slot of the job's first descriptor
 * @failed: the outcome below is final (fallback or error seen)
 * @error: negative errno when @failed
 * @err_code: hardware code when @failed
 * @fail_index: failing command when @failed
 * @client: the submitting file's accounting (fdinfo busy time)
 * @client_id: the submitting file's DRM client id (fdinfo drm-client-id),
 *	for the kernel log
 * @pid: the submitting process (thread group id), for the kernel log
 * @start_ns: ktime (ns) run_job handed the job to its engine, 0 before
 * @pm_ref: the job holds a runtime-PM reference on the device
 * @retired: counted in &e1npu_device.jobs_retired (set once)
 */
struct e1npu_job {
	struct drm_sched_job base;
	struct e1npu_device *edev;
	u32 engine;
	u32 op_count;
	struct e1npu_hw_op *ops;
	u32 (*desc)[E1_V0_DESC_WORDS];
	u8 *(*dp_ptr)[E1NPU_T_COUNT];
	struct drm_gem_object **bos;
	bool *bo_write;
	u32 bo_count;
	struct drm_gem_object *status_bo;
	struct drm_e1npu_job_status *status;
	struct e1npu_perfmon *perfmon;
	u64 perf_start[E1NPU_PERF_NUM];
	struct dma_fence *hw_fence;
	bool hw_fence_init;
	struct drm_syncobj **out_syncs;
	struct dma_fence_chain **out_chains;
	u64 *out_points;
	u32 out_count;
	struct list_head node;
	struct work_struct dp_work;
	u32 first;
	bool failed;
	int error;
	u32 err_code;
	u32 fail_index;
	struct e1npu_client *client;
	u64 client_id;
	pid_t pid;
	u64 start_ns;
	bool pm_ref;
	atomic_t retired;
};

#define to_e1npu_job(j)	container_of(j, struct e1npu_job, base)

/*
 * A job's failure in the kernel log, at warning level and ratelimited:
 * its engine, the client (drm-client-id of fdinfo) and process that
 * submitted it, and @fmt, the cause.
 */
#define e1npu_job_warn(job, fmt, ...)					\
	do {								\
		const struct e1npu_job *__j = (job);			\
									\
		dev_warn_ratelimited(__j->edev->drm.dev,		\
				     "%s job of client %llu (pid %d): " fmt, \
				     __j->engine == DRM_E1NPU_ENGINE_WRAPPER ? \
				     "wrapper" : "datapath",		\
				     __j->client_id, __j->pid, ##__VA_ARGS__); \
	} while (0)

/* e1npu_job.c */
void e1npu_job_complete(struct e1npu_job *job, int error, u32 err_code,
			u32 fail_index, u32 ops_done);
void e1npu_job_cleanup(struct e1npu_job *job);
struct e1npu_engine *e1npu_job_engine(struct e1npu_job *job);

/* e1npu_sched.c */
int e1npu_job_init(struct e1npu_device *edev);
void e1npu_job_fini(struct e1npu_device *edev, bool powered);
int e1npu_job_open(struct e1npu_file *efile);
void e1npu_job_close(struct e1npu_file *efile);

/**
 * struct e1npu_job_ctx - SUBMIT state of one job that does not outlive the ioctl
 * @job: the job being created
 * @file: the submitting file
 * @handles: the handles the job's relocations named so far, resolved
 * @handle_count: entries of @handles
 */
struct e1npu_job_ctx {
	struct e1npu_job *job;
	struct drm_file *file;
	struct e1npu_job_handle *handles;
	u32 handle_count;
};

/* e1npu_cmdstream.c */
int e1npu_cmdstream_copy(struct e1npu_job_ctx *jc,
			 const struct drm_e1npu_submit *args,
			 const struct drm_e1npu_job *uj, u32 index);

/* e1npu_submit.c */
int e1npu_ioctl_submit(struct drm_device *ddev, void *data,
		       struct drm_file *file);

/* e1npu_dp.c */
void e1npu_dp_job_queue(struct e1npu_job *job);
void e1npu_dp_job_flush(struct e1npu_job *job);
int e1npu_dp_init(struct e1npu_device *edev);

/* e1npu_irq.c */
int e1npu_job_irq_get(struct e1npu_device *edev);
int e1npu_job_irq_init(struct e1npu_device *edev);

#endif /* __E1NPU_JOB_H__ */
