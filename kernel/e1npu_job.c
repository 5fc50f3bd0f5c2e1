// SPDX-License-Identifier: GPL-2.0-only
/*
 * e1 NPU job outcome and release: completion (status record, perfmon,
 * fdinfo busy time, hardware fence) and the final put of everything a job
 * holds. Below the scheduler backend (e1npu_sched.c), the wrapper ring
 * (e1npu_ring.c) and the datapath (e1npu_dp.c), which all complete jobs.
 */
#include <linux/dma-fence.h>
#include <linux/dma-fence-chain.h>
#include <linux/ktime.h>
#include <linux/slab.h>
#include <linux/wait_bit.h>
#include <drm/drm_gem.h>
#include <drm/drm_syncobj.h>

#include "e1npu_device.h"
#include "e1npu_job.h"
#include "e1npu_perfmon.h"

/**
 * e1npu_job_engine() - the engine a job runs on
 * @job: the job
 *
 * Return: the engine's scheduler and counters.
 */
struct e1npu_engine *e1npu_job_engine(struct e1npu_job *job)
{
	return job->engine == DRM_E1NPU_ENGINE_WRAPPER ? &job->edev->wrapper :
							 &job->edev->datapath;
}

/*
 * fdinfo busy time: from when the job reached the engine, or when the
 * engine finished the job before it if that is later (jobs queued in the
 * ring run one after the other), until now.
 */
static void e1npu_job_account(struct e1npu_job *job, struct e1npu_engine *eng)
{
	u64 now, prev, start;

	/* A job that never reached the engine did not end its work. */
	if (!job->start_ns)
		return;
	now = ktime_get_ns();
	prev = atomic64_xchg(&eng->last_end_ns, now);
	start = max(job->start_ns, prev);
	if (now > start)
		atomic64_add(now - start, &job->client->busy_ns[job->engine]);
}

/* The job's status record, written before its fence signals. */
static void e1npu_job_write_status(struct e1npu_job *job, u32 ops_done)
{
	struct drm_e1npu_job_status st = {
		.state = DRM_E1NPU_JOB_STATE_DONE,
		.cmds_done = ops_done,
	};

	if (!job->status)
		return;
	if (job->failed) {
		st.state = DRM_E1NPU_JOB_STATE_FAILED;
		st.error = job->error;
		st.cmds_done = job->fail_index;
		st.fail_index = job->fail_index;
		st.err_code = job->err_code;
	}
	memcpy(job->status, &st, sizeof(st));
}

/**
 * e1npu_job_complete() - record a job's outcome and signal its hardware fence
 * @job: the job
 * @error: 0 or a negative errno; a failure recorded earlier (fallback) wins
 * @err_code: the hardware's code for @error
 * @fail_index: the failing command for @error
 * @ops_done: the commands that completed, without @error
 *
 * May run in hard interrupt context.
 */
void e1npu_job_complete(struct e1npu_job *job, int error, u32 err_code,
			u32 fail_index, u32 ops_done)
{
	struct e1npu_engine *eng = e1npu_job_engine(job);

	/* Before the fence: BO_CREATE then waits for the free. */
	if (!atomic_xchg(&job->retired, 1))
		atomic_inc(&job->edev->jobs_retired);
	if (!job->failed && error) {
		job->failed = true;
		job->error = error;
		job->err_code = err_code;
		job->fail_index = fail_index;
	}
	e1npu_job_write_status(job, ops_done);
	e1npu_perfmon_job_end(job);
	e1npu_job_account(job, eng);
	if (job->failed) {
		atomic64_inc(&eng->jobs_failed);
		dma_fence_set_error(job->hw_fence, job->error);
	} else {
		atomic64_inc(&eng->jobs_completed);
	}
	dma_fence_signal(job->hw_fence);
}

/**
 * e1npu_job_cleanup() - drop everything a job holds and free it
 * @job: the job, out of the scheduler's hands (or never given to it)
 */
void e1npu_job_cleanup(struct e1npu_job *job)
{
	struct e1npu_device *edev = job->edev;
	u32 i;

	if (job->hw_fence) {
		if (job->hw_fence_init)
			dma_fence_put(job->hw_fence);
		else
			kfree(job->hw_fence);
	}
	for (i = 0; i < job->bo_count; i++)
		drm_gem_object_put(job->bos[i]);
	if (job->status_bo)
		drm_gem_object_put(job->status_bo);
	for (i = 0; i < job->out_count; i++) {
		if (job->out_syncs[i])
			drm_syncobj_put(job->out_syncs[i]);
		dma_fence_chain_free(job->out_chains[i]);
	}
	e1npu_perfmon_put(job->perfmon);
	e1npu_client_put(job->client);
	if (job->pm_ref)
		e1npu_pm_put(edev);
	/* Its buffers' arena space is back (unless still referenced). */
	if (atomic_read(&job->retired)) {
		atomic_dec(&edev->jobs_retired);
		wake_up_var(&edev->jobs_retired);
	}
	kvfree(job);
	/* The device may be released once this reaches 0: edev not touched. */
	if (atomic_dec_and_test(&edev->jobs_alive))
		wake_up_var(&edev->jobs_alive);
}
