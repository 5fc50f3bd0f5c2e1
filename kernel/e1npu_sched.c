// SPDX-License-Identifier: GPL-2.0-only
/*
 * e1 NPU scheduler backend: one drm_sched per engine, a job's life from
 * run_job to free_job, timeout recovery and the per-file entities (a
 * job's completion and release are e1npu_job.c).
 *
 * Each engine runs one job at a time (a credit limit of 1): a job owns
 * the wrapper ring or the datapath while it runs, so no innocent job ever
 * sits in the hardware queue behind one that hangs, and a perfmon counts
 * exactly its job's work.
 */
#include <linux/dma-fence.h>
#include <linux/ktime.h>
#include <linux/wait_bit.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_managed.h>
#include <drm/drm_print.h>

#include "e1npu_device.h"
#include "e1npu_job.h"
#include "e1npu_perfmon.h"
#include "e1npu_ring.h"

static const char *e1npu_fence_driver_name(struct dma_fence *fence)
{
	return E1NPU_DRIVER_NAME;
}

static const char *e1npu_fence_timeline_name(struct dma_fence *fence)
{
	return "e1npu-engine";
}

static const struct dma_fence_ops e1npu_fence_ops = {
	.get_driver_name = e1npu_fence_driver_name,
	.get_timeline_name = e1npu_fence_timeline_name,
};

static struct dma_fence *e1npu_job_run(struct drm_sched_job *sched_job)
{
	struct e1npu_job *job = to_e1npu_job(sched_job);
	struct e1npu_device *edev = job->edev;
	bool fence_cookie;
	int error;

	/* The job's fences signal only if this returns: no allocation. */
	fence_cookie = dma_fence_begin_signalling();
	/* run_job runs once per job: nothing is ever resubmitted. */
	dma_fence_init(job->hw_fence, &e1npu_fence_ops, &edev->fence_lock,
		       edev->fence_context + job->engine,
		       atomic64_inc_return(&edev->seqno));
	job->hw_fence_init = true;

	/* The file's entity was killed: the job never reaches the engine. */
	error = sched_job->s_fence->finished.error;
	if (error) {
		e1npu_job_complete(job, error, 0, 0, 0);
		goto out;
	}

	job->start_ns = ktime_get_ns();
	if (job->engine == DRM_E1NPU_ENGINE_DATAPATH) {
		e1npu_dp_job_queue(job);
		goto out;
	}

	mutex_lock(&edev->ring_lock);
	if (edev->unplugged) {
		e1npu_job_complete(job, -ENODEV, 0, 0, 0);
	} else if (edev->wedged) {
		e1npu_job_complete(job, -EIO, 0, 0, 0);
	} else {
		e1npu_perfmon_job_start(job);
		e1npu_ring_push(edev, job);
	}
	mutex_unlock(&edev->ring_lock);
out:
	dma_fence_end_signalling(fence_cookie);
	return dma_fence_get(job->hw_fence);
}

/*
 * The job did not finish in time. With the scheduler's queue stopped (no
 * job reaches run_job meanwhile) the engine is recovered and the job gets
 * its outcome (-ETIMEDOUT, or what it finished with if its interrupt was
 * only lost; a datapath job's register traffic is bounded and is waited
 * for). drm_sched_stop() then finds its hardware fence signalled and
 * frees it as a finished job; no other job was on the engine (credit
 * limit 1), so drm_sched_start() cancels nothing.
 */
static enum drm_gpu_sched_stat e1npu_job_timedout(struct drm_sched_job *sched_job)
{
	struct e1npu_job *job = to_e1npu_job(sched_job);
	struct e1npu_device *edev = job->edev;
	struct drm_gpu_scheduler *sched = sched_job->sched;
	bool fence_cookie;

	drm_sched_wqueue_stop(sched);
	if (job->engine == DRM_E1NPU_ENGINE_WRAPPER) {
		/* the recovery signals the job's fence: no allocation in it */
		fence_cookie = dma_fence_begin_signalling();
		mutex_lock(&edev->ring_lock);
		e1npu_ring_timeout(edev, job);
		mutex_unlock(&edev->ring_lock);
		dma_fence_end_signalling(fence_cookie);
	} else {
		/* its work item signals (and is annotated) */
		e1npu_job_warn(job, "timed out after %u ms: waiting for its commands to end\n",
			       e1npu_timeout_ms);
		e1npu_dp_job_flush(job);
	}
	drm_sched_stop(sched, sched_job);
	drm_sched_start(sched, 0);
	return DRM_GPU_SCHED_STAT_RESET;
}

static void e1npu_job_free(struct drm_sched_job *sched_job)
{
	struct e1npu_job *job = to_e1npu_job(sched_job);

	drm_sched_job_cleanup(sched_job);
	e1npu_job_cleanup(job);
}

static const struct drm_sched_backend_ops e1npu_sched_ops = {
	.run_job = e1npu_job_run,
	.timedout_job = e1npu_job_timedout,
	.free_job = e1npu_job_free,
};

static void e1npu_engine_wq_release(struct drm_device *ddev, void *data)
{
	destroy_workqueue(data);
}

/*
 * The DRM device is released: every file is closed, so every entity is
 * destroyed (drm_sched_entity_destroy() dereferences the scheduler's run
 * queues, which drm_sched_fini() frees) and every job has run or failed.
 * Let the scheduler free the jobs whose fences signaled, then tear it down.
 * Runs before e1npu_engine_wq_release() (drmm actions run in reverse).
 */
static void e1npu_engine_release(struct drm_device *ddev, void *data)
{
	struct e1npu_engine *eng = data;

	drain_workqueue(eng->wq);
	drm_sched_fini(&eng->sched);
	eng->present = false;
}

/* One job on the engine at a time: see the comment at the top. */
static int e1npu_engine_init(struct e1npu_device *edev,
			     struct e1npu_engine *eng, const char *name)
{
	struct drm_sched_init_args args = {
		.ops = &e1npu_sched_ops,
		.num_rqs = DRM_SCHED_PRIORITY_COUNT,
		.credit_limit = 1,
		.hang_limit = 0,
		.timeout = msecs_to_jiffies(e1npu_timeout_ms),
		.timeout_wq = edev->timeout_wq,
		.name = name,
		.dev = edev->drm.dev,
	};

	int ret;

	eng->wq = alloc_ordered_workqueue("%s", WQ_MEM_RECLAIM, name);
	if (!eng->wq)
		return -ENOMEM;
	/* Files may outlive removal: the queue goes with the DRM device. */
	ret = drmm_add_action_or_reset(&edev->drm, e1npu_engine_wq_release,
				       eng->wq);
	if (ret) {
		eng->wq = NULL;
		return ret;
	}
	args.submit_wq = eng->wq;
	ret = drm_sched_init(&eng->sched, &args);
	if (ret)
		return ret;
	eng->present = true;
	/* Open files keep using the scheduler after removal: see above. */
	return drmm_add_action_or_reset(&edev->drm, e1npu_engine_release, eng);
}

/*
 * Runs first at release (registered last). A job killed with its file's
 * entity (drm_sched_entity_kill()) is freed from the system workqueue,
 * possibly after the last close; it still puts its buffers (arena, mm)
 * and runs this module's code. Wait for every job to be freed.
 */
static void e1npu_job_release(struct drm_device *ddev, void *data)
{
	struct e1npu_device *edev = to_e1npu_device(ddev);

	wait_var_event(&edev->jobs_alive, !atomic_read(&edev->jobs_alive));
	cancel_work_sync(&edev->wedged_work);
	/* The arena goes with the device: the pinned ranges go back first. */
	e1npu_hw_pinned_release(edev);
}

/**
 * e1npu_job_init() - create a scheduler per present engine
 * @edev: the device
 *
 * Return: 0 or a negative errno.
 */
int e1npu_job_init(struct e1npu_device *edev)
{
	int ret;

	e1npu_hw_init(edev);
	edev->fence_context = dma_fence_context_alloc(2);
	/*
	 * Both engines' timeout handlers may pulse the NPU's one reset line:
	 * an ordered queue runs them one at a time. Released after the
	 * schedulers (drmm actions run in reverse).
	 */
	edev->timeout_wq = alloc_ordered_workqueue("e1npu-timeout", WQ_MEM_RECLAIM);
	if (!edev->timeout_wq)
		return -ENOMEM;
	ret = drmm_add_action_or_reset(&edev->drm, e1npu_engine_wq_release,
				       edev->timeout_wq);
	if (ret)
		return ret;
	if (edev->wrap) {
		ret = e1npu_engine_init(edev, &edev->wrapper, "e1npu-wrapper");
		if (ret)
			return ret;
	}
	if (edev->dp) {
		ret = e1npu_dp_init(edev);
		if (ret)
			return ret;
		ret = e1npu_engine_init(edev, &edev->datapath, "e1npu-datapath");
		if (ret)
			return ret;
	}
	return drmm_add_action_or_reset(&edev->drm, e1npu_job_release, NULL);
}

/**
 * e1npu_job_fini() - stop the hardware side of the engines at removal
 * @edev: the device, already unplugged (or never registered)
 * @powered: the device is resumed; false: its registers are left alone
 *
 * The schedulers keep running for the files still open: jobs that reach
 * run_job from now on fail with -ENODEV. They are torn down when the DRM
 * device is released (e1npu_engine_release()), after the last close.
 */
void e1npu_job_fini(struct e1npu_device *edev, bool powered)
{
	e1npu_ring_fini(edev, powered);
}

/**
 * e1npu_job_open() - per-file entities
 * @efile: the new file
 *
 * Return: 0 or a negative errno.
 */
int e1npu_job_open(struct e1npu_file *efile)
{
	struct e1npu_device *edev = efile->edev;
	struct e1npu_engine *engs[2] = { &edev->wrapper, &edev->datapath };
	struct drm_gpu_scheduler *sched;
	int e, ret;

	mutex_init(&efile->submit_lock);
	e1npu_perfmon_open(efile);
	for (e = 0; e < 2; e++) {
		if (!engs[e]->present)
			continue;
		sched = &engs[e]->sched;
		ret = drm_sched_entity_init(&efile->entity[e],
					    DRM_SCHED_PRIORITY_NORMAL, &sched,
					    1, NULL);
		if (ret) {
			e1npu_job_close(efile);
			return ret;
		}
		efile->entity_ok[e] = true;
	}
	return 0;
}

/**
 * e1npu_job_close() - tear down a file's entities and perfmons
 * @efile: the file
 */
void e1npu_job_close(struct e1npu_file *efile)
{
	int e;

	for (e = 0; e < 2; e++) {
		if (efile->entity_ok[e])
			drm_sched_entity_destroy(&efile->entity[e]);
		efile->entity_ok[e] = false;
	}
	e1npu_perfmon_close(efile);
	mutex_destroy(&efile->submit_lock);
}
