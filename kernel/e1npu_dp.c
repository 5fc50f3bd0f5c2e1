// SPDX-License-Identifier: GPL-2.0-only
/*
 * e1 NPU datapath jobs. The datapath has no DMA for its operands: each
 * command is driven in direct mode through e1npu_dp_exec() (shared with
 * libe1npu's in-process backend), from the buffers the job's relocations
 * name. That register traffic (a job holds at most datapath_slots
 * commands of up to 4096 scalar records each) runs in a work item of its
 * own ordered queue, not in the scheduler's run_job, and signals the
 * job's hardware fence when it is done.
 */
#include <linux/dma-fence.h>
#include <linux/iopoll.h>
#include <linux/sched.h>
#include <linux/workqueue.h>
#include <drm/drm_drv.h>
#include <drm/drm_managed.h>

#include "e1npu_device.h"
#include "e1npu_job.h"
#include "e1npu_perfmon.h"

/* Longest a direct-mode datapath command may take (it needs a few cycles). */
#define E1NPU_DP_TIMEOUT_US		1000

static u32 e1npu_dp_io_read(void *ctx, u32 off)
{
	return e1npu_dp_read(ctx, off);
}

static void e1npu_dp_io_write(void *ctx, u32 off, u32 v)
{
	e1npu_dp_write(ctx, off, v);
}

/* A started command: done or error within E1NPU_DP_TIMEOUT_US, else hung. */
static int e1npu_dp_io_wait(void *ctx, u32 *status)
{
	struct e1npu_device *edev = ctx;
	u32 st;
	int ret;

	ret = readl_relaxed_poll_timeout(edev->dp + E1_DP_CTRL_STATUS, st,
					 !(st & E1_DP_STATUS_BUSY) &&
					 (st & (E1_DP_STATUS_DONE |
						E1_DP_STATUS_ERROR)),
					 2, E1NPU_DP_TIMEOUT_US);
	*status = st;
	return ret;
}

static void e1npu_dp_io_yield(void *ctx)
{
	cond_resched();
}

static void e1npu_dp_job_work(struct work_struct *work)
{
	struct e1npu_job *job = container_of(work, struct e1npu_job, dp_work);
	struct e1npu_device *edev = job->edev;
	const struct e1npu_dp_io io = {
		.read = e1npu_dp_io_read,
		.write = e1npu_dp_io_write,
		.wait = e1npu_dp_io_wait,
		.yield = e1npu_dp_io_yield,
		.ctx = edev,
	};
	bool fence_cookie;
	u32 i, st;
	int ret, idx;

	/* Everything here leads to the job's fence: no allocation. */
	fence_cookie = dma_fence_begin_signalling();
	if (!drm_dev_enter(&edev->drm, &idx)) {
		e1npu_job_complete(job, -ENODEV, 0, 0, 0);
		goto out;
	}
	e1npu_perfmon_job_start(job);
	for (i = 0; i < job->op_count; i++) {
		cond_resched();
		/*
		 * Each command programs every register it uses: a reset line
		 * pulse may fall between two, not inside one.
		 */
		mutex_lock(&edev->dp_lock);
		ret = e1npu_dp_exec(&io, &job->ops[i], job->dp_ptr[i][E1NPU_T_A],
				    job->dp_ptr[i][E1NPU_T_B],
				    job->dp_ptr[i][E1NPU_T_C], &st);
		mutex_unlock(&edev->dp_lock);
		if (ret) {
			e1npu_job_warn(job, "command %u of %u failed: %s (status 0x%08x)\n",
				       i, job->op_count,
				       ret == -ETIMEDOUT ? "never completed" :
				       "datapath error", st);
			e1npu_job_complete(job, ret, st, i, i);
			goto out_dev_exit;
		}
	}
	e1npu_job_complete(job, 0, 0, 0, job->op_count);
out_dev_exit:
	drm_dev_exit(idx);
out:
	dma_fence_end_signalling(fence_cookie);
}

/**
 * e1npu_dp_job_queue() - run a datapath job (from run_job)
 * @job: the job, its hardware fence initialised
 */
void e1npu_dp_job_queue(struct e1npu_job *job)
{
	INIT_WORK(&job->dp_work, e1npu_dp_job_work);
	queue_work(job->edev->datapath.exec_wq, &job->dp_work);
}

/**
 * e1npu_dp_job_flush() - wait until a queued datapath job has run
 * @job: the job
 */
void e1npu_dp_job_flush(struct e1npu_job *job)
{
	flush_work(&job->dp_work);
}

static void e1npu_dp_wq_release(struct drm_device *ddev, void *data)
{
	destroy_workqueue(data);
}

/**
 * e1npu_dp_init() - the datapath's execution queue
 * @edev: the device, datapath present
 *
 * Return: 0 or a negative errno.
 */
int e1npu_dp_init(struct e1npu_device *edev)
{
	struct workqueue_struct *wq;

	wq = alloc_ordered_workqueue("e1npu-dp-exec", WQ_MEM_RECLAIM);
	if (!wq)
		return -ENOMEM;
	edev->datapath.exec_wq = wq;
	/* Open files may outlive removal: the queue goes with the device. */
	return drmm_add_action_or_reset(&edev->drm, e1npu_dp_wq_release, wq);
}
