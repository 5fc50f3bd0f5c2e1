// SPDX-License-Identifier: GPL-2.0-only
/*
 * e1 NPU jobs: copy and validate submissions, one drm_sched per engine,
 * the wrapper descriptor ring, interrupts, CPU fallback and recovery.
 *
 * Wrapper: every operation is one 64-byte descriptor; a job takes as many
 * scheduler credits as it has operations and the scheduler's credit limit
 * is the ring's usable slots, so the ring never overflows. run_job copies
 * the job's pre-encoded descriptors into the ring and rings the doorbell;
 * jobs retire as DESC_TAIL passes them, in the hard interrupt handler for
 * a plain completion, in its thread when an error needs handling.
 *
 * Datapath: run_job drives each operation in direct mode through
 * e1npu_dp_exec() (shared with libe1npu) and signals the job at once.
 */
#include <linux/bitfield.h>
#include <linux/dma-fence.h>
#include <linux/dma-mapping.h>
#include <linux/dma-resv.h>
#include <linux/interrupt.h>
#include <linux/iopoll.h>
#include <linux/kobject.h>
#include <linux/ktime.h>
#include <linux/moduleparam.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/uaccess.h>
#include <linux/wait_bit.h>
#include <linux/workqueue.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_managed.h>
#include <drm/drm_print.h>
#include <drm/drm_syncobj.h>

#include "e1npu_device.h"
#include "e1npu_gem.h"
#include "e1npu_job.h"
#include "e1npu_job_helpers.h"

/* Most syncobjs one job may wait for. */
#define E1NPU_MAX_IN_SYNCS		64
/* Datapath scheduler credits: jobs queued at once. */
#define E1NPU_DP_CREDITS		16
/* Longest a direct-mode datapath command may take (it needs a few cycles). */
#define E1NPU_DP_TIMEOUT_US		1000
/* Jobs per submit whose bookkeeping arrays live on the stack. */
#define E1NPU_SUBMIT_SMALL		4

unsigned int e1npu_flush_timeout_ms = 1000;
module_param_named(flush_timeout_ms, e1npu_flush_timeout_ms, uint, 0644);
MODULE_PARM_DESC(flush_timeout_ms,
		 "How long the wrapper may stay busy after CTRL.flush before the device is declared wedged (default 1000)");

/**
 * struct e1npu_pin - buffers a wedged device may still write
 * @node: in &e1npu_device.pinned
 * @count: entries of @objs
 * @objs: referenced until the device is released
 */
struct e1npu_pin {
	struct list_head node;
	u32 count;
	struct drm_gem_object *objs[] __counted_by(count);
};

/**
 * struct e1npu_result - the outcome of a job, shared by the job and its file
 * @ref: one for the file's xarray, one for the job
 * @lock: guards the fields below
 * @state: enum e1npu_hw_job_state
 * @error: 0 or negative errno
 * @err_code: wrapper err_code or datapath CTRL_STATUS
 * @fail_index: first failing operation
 * @ops_done: operations completed
 */
struct e1npu_result {
	struct kref ref;
	/* Guards the outcome fields. */
	spinlock_t lock;
	u32 state;
	s32 error;
	u32 err_code;
	u32 fail_index;
	u32 ops_done;
};

/**
 * struct e1npu_job - one job of one engine
 * @base: the scheduler job
 * @edev: the device
 * @engine: enum drm_e1npu_engine
 * @op_count: operations
 * @ops: the validated operations (datapath execution needs them)
 * @desc: pre-encoded wrapper descriptors, one per operation
 * @dp_ptr: datapath: CPU addresses of tensors a, b, c per operation
 * @bos: the buffers the job uses, referenced
 * @bo_write: per buffer: the job writes it
 * @bo_count: entries of @bos
 * @handles: the handles the job names and their index in @bos
 * @handle_count: entries of @handles
 * @hw_fence: signaled when the engine is done with the job
 * @hw_fence_init: @hw_fence was initialised by run_job
 * @result: the outcome, shared with the file
 * @out_sync: syncobj to signal, or NULL
 * @node: in edev->inflight while the job's descriptors are in the ring
 * @first: ring slot of the job's first descriptor
 * @failed: the outcome below is final (fallback or error seen)
 * @error: negative errno when @failed
 * @err_code: hardware code when @failed
 * @fail_index: failing operation when @failed
 * @client: the submitting file's accounting (fdinfo busy time)
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
	struct e1npu_job_handle *handles;
	u32 handle_count;
	struct dma_fence *hw_fence;
	bool hw_fence_init;
	struct e1npu_result *result;
	struct drm_syncobj *out_sync;
	struct list_head node;
	u32 first;
	bool failed;
	int error;
	u32 err_code;
	u32 fail_index;
	struct e1npu_client *client;
	u64 start_ns;
	bool pm_ref;
	atomic_t retired;
};

#define to_e1npu_job(j)	container_of(j, struct e1npu_job, base)

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

static void e1npu_result_release(struct kref *ref)
{
	kfree(container_of(ref, struct e1npu_result, ref));
}

static void e1npu_result_put(struct e1npu_result *res)
{
	kref_put(&res->ref, e1npu_result_release);
}

static struct e1npu_engine *e1npu_job_engine(struct e1npu_job *job)
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

/*
 * Record the outcome and signal the hardware fence. @ops_done counts the
 * operations that completed; a failure recorded earlier (fallback) wins.
 */
static void e1npu_job_complete(struct e1npu_job *job, int error, u32 err_code,
			       u32 fail_index, u32 ops_done)
{
	struct e1npu_engine *eng = e1npu_job_engine(job);
	struct e1npu_result *res = job->result;
	unsigned long flags;

	/* Before the outcome is visible: BO_CREATE then waits for the free. */
	if (!atomic_xchg(&job->retired, 1))
		atomic_inc(&job->edev->jobs_retired);
	if (!job->failed && error) {
		job->failed = true;
		job->error = error;
		job->err_code = err_code;
		job->fail_index = fail_index;
	}
	spin_lock_irqsave(&res->lock, flags);
	if (job->failed) {
		res->state = E1NPU_HWJOB_FAILED;
		res->error = job->error;
		res->err_code = job->err_code;
		res->fail_index = job->fail_index;
		res->ops_done = job->fail_index;
	} else {
		res->state = E1NPU_HWJOB_DONE;
		res->ops_done = ops_done;
	}
	spin_unlock_irqrestore(&res->lock, flags);

	e1npu_job_account(job, eng);
	if (job->failed) {
		atomic64_inc(&eng->jobs_failed);
		dma_fence_set_error(job->hw_fence, job->error);
	} else {
		atomic64_inc(&eng->jobs_completed);
	}
	dma_fence_signal(job->hw_fence);
}

/* ---------------------------------------------------------------------- */
/* The wrapper ring                                                       */
/* ---------------------------------------------------------------------- */

static void e1npu_ring_write_desc(struct e1npu_device *edev, u32 slot,
				  const u32 desc[E1_V0_DESC_WORDS])
{
	__le32 *d = edev->ring_vaddr + (size_t)slot * E1_V0_DESC_SIZE;
	unsigned int w;

	for (w = 0; w < E1_V0_DESC_WORDS; w++)
		d[w] = cpu_to_le32(desc[w]);
}

/**
 * e1npu_hw_ring_program() - program ring, window, interrupts and CTRL
 * @edev: the device, wrapper present
 *
 * Runs with CTRL.cpu_fallback_select set: unsupported descriptors raise the
 * fallback line and wait for the driver.
 */
void e1npu_hw_ring_program(struct e1npu_device *edev)
{
	/* Configuration only: no memory the engine reads is involved. */
	e1npu_wr_write_relaxed(edev, E1_V0_DESC_BASE_LO,
			       lower_32_bits(edev->ring_dma));
	e1npu_wr_write_relaxed(edev, E1_V0_DESC_BASE_HI,
			       upper_32_bits(edev->ring_dma));
	e1npu_wr_write_relaxed(edev, E1_V0_DESC_RING_LEN, edev->ring_len);
	e1npu_wr_write_relaxed(edev, E1_V0_TENSOR_MEM_BASE_LO,
			       lower_32_bits(edev->arena_dma));
	e1npu_wr_write_relaxed(edev, E1_V0_TENSOR_MEM_BASE_HI,
			       upper_32_bits(edev->arena_dma));
	e1npu_wr_write_relaxed(edev, E1_V0_TENSOR_MEM_LEN,
			       (u32)edev->arena_size);
	e1npu_wr_write_relaxed(edev, E1_V0_IRQ_MASK, edev->irq_mask);
	e1npu_wr_write_relaxed(edev, E1_V0_CTRL, E1_V0_CTRL_ENABLE |
			       E1_V0_CTRL_IRQ_ENABLE | E1_V0_CTRL_CPU_FALLBACK);
}

/*
 * CTRL.flush, then wait until STATUS.busy reads 0: a flush stops fetching,
 * but the descriptor in execution may still be writing its outputs. Only
 * then may the fences of its job signal (and its buffers be reused).
 */
static int e1npu_hw_flush(struct e1npu_device *edev)
{
	u32 st;
	int ret;

	e1npu_wr_write_relaxed(edev, E1_V0_CTRL, E1_V0_CTRL_FLUSH);
	/*
	 * Ordered reads: fences signal after the read that saw the engine
	 * idle, and what their waiters read of its outputs must not be read
	 * before it.
	 */
	ret = readl_poll_timeout(edev->wrap + E1_V0_STATUS, st,
				 !(st & E1_V0_STATUS_BUSY), 1000,
				 (u64)e1npu_flush_timeout_ms * 1000);
	if (ret)
		drm_err(&edev->drm,
			"wrapper still busy %u ms after a flush (STATUS 0x%08x)\n",
			e1npu_flush_timeout_ms, st);
	return ret;
}

/**
 * e1npu_hw_reset() - flush the wrapper and program it from scratch
 * @edev: the device, wrapper present; ring_lock held or not yet shared
 *
 * Return: 0, or -ETIMEDOUT when the engine did not go idle after the flush
 * (nothing is programmed then: the caller wedges the device).
 */
int e1npu_hw_reset(struct e1npu_device *edev)
{
	int ret;

	ret = e1npu_hw_flush(edev);
	if (ret)
		return ret;
	e1npu_wr_write_relaxed(edev, E1_V0_IRQ_STATUS, E1_V0_IRQ_ALL);
	edev->ring_head = 0;
	spin_lock_irq(&edev->retire_lock);
	edev->ring_tail = 0;
	spin_unlock_irq(&edev->retire_lock);
	e1npu_hw_ring_program(edev);
	return 0;
}

/* Keep @job's buffers allocated for as long as the device exists. */
static void e1npu_job_pin(struct e1npu_device *edev, struct e1npu_job *job)
{
	struct e1npu_pin *pin;
	u32 i;

	/* A fence-signalling path (timeout, IRQ thread): no reclaim. */
	pin = kzalloc(struct_size(pin, objs, job->bo_count),
		      GFP_NOWAIT | __GFP_NOWARN);
	for (i = 0; i < job->bo_count; i++) {
		/* Without a record the references are leaked: still safe. */
		drm_gem_object_get(job->bos[i]);
		if (pin)
			pin->objs[i] = job->bos[i];
	}
	if (pin) {
		pin->count = job->bo_count;
		list_add_tail(&pin->node, &edev->pinned);
	}
}

/*
 * The wrapper did not go idle after a flush: it may still write the
 * buffers of @jobs (and of @extra). Refuse all further work and never let
 * those buffers be freed and handed out again while the device exists.
 */
static void e1npu_wedge(struct e1npu_device *edev, struct list_head *jobs,
			struct e1npu_job *extra)
{
	struct e1npu_job *job;

	lockdep_assert_held(&edev->ring_lock);
	if (!edev->wedged) {
		drm_err(&edev->drm,
			"device wedged: submissions fail with -EIO until it is rebound\n");
		schedule_work(&edev->wedged_work);
	}
	WRITE_ONCE(edev->wedged, true);
	list_for_each_entry(job, jobs, node)
		e1npu_job_pin(edev, job);
	if (extra)
		e1npu_job_pin(edev, extra);
}

/*
 * Tell userspace the device needs recovery: a uevent on the accel node with
 * WEDGED=rebind, the key and value the DRM core's drm_dev_wedged_event()
 * sends for DRM_WEDGE_RECOVERY_REBIND (Documentation/gpu/drm-uapi.rst,
 * "Device Wedging"); rebinding the driver is what clears the state.
 * drm_dev_wedged_event() itself is not used: Debian's 6.12 does not have
 * it, and where it exists it sends on the primary minor, which an
 * accel-only device does not have (dev->primary is NULL). Switch to it
 * once it handles accel devices. A work item, because the wedge is found
 * on fence-signalling paths (IRQ thread, timeout handler) where the
 * uevent's GFP_KERNEL allocations must not run.
 */
static char *e1npu_wedged_envp[] = { "WEDGED=rebind", NULL };

static void e1npu_wedged_work(struct work_struct *work)
{
	struct e1npu_device *edev = container_of(work, struct e1npu_device,
						 wedged_work);
	int idx;

	/* Not after unplug: the accel node is gone from sysfs then. */
	if (!drm_dev_enter(&edev->drm, &idx))
		return;
	kobject_uevent_env(&edev->drm.accel->kdev->kobj, KOBJ_CHANGE,
			   e1npu_wedged_envp);
	drm_dev_exit(idx);
}

/**
 * e1npu_hw_resume() - the engines from scratch after a power-up
 * @edev: the device, powered (and its reset line pulsed, if it has one)
 *
 * The wrapper is flushed, waited for and its ring programmed; the ring is
 * empty (no job holds the device while it is suspended). A wrapper that
 * stays busy wedges the device. The datapath is left idle.
 */
void e1npu_hw_resume(struct e1npu_device *edev)
{
	LIST_HEAD(none);

	if (edev->dp)
		e1npu_dp_idle(edev);
	if (!edev->wrap)
		return;
	mutex_lock(&edev->ring_lock);
	drm_WARN_ON_ONCE(&edev->drm, !list_empty(&edev->inflight));
	if (!edev->unplugged && !edev->wedged && e1npu_hw_reset(edev))
		e1npu_wedge(edev, &none, NULL);
	mutex_unlock(&edev->ring_lock);
}

/**
 * e1npu_hw_suspend() - quiesce the engines before a power-down
 * @edev: the device
 *
 * Only an idle wrapper (no job in the ring, nothing queued or executing)
 * is quiesced: its interrupt lines are silenced (CTRL and IRQ_MASK 0;
 * resume programs both again), then every handler still running on any
 * line is waited for. A wedged or removed device's registers are left
 * alone.
 *
 * Return: 0, or -EBUSY when the wrapper is not idle.
 */
int e1npu_hw_suspend(struct e1npu_device *edev)
{
	int ret = 0;
	u32 st;

	if (edev->wrap) {
		mutex_lock(&edev->ring_lock);
		if (!list_empty(&edev->inflight)) {
			ret = -EBUSY;
		} else if (!edev->unplugged && !edev->wedged) {
			st = e1npu_wr_read_relaxed(edev, E1_V0_STATUS);
			if ((st & E1_V0_STATUS_BUSY) ||
			    !(st & E1_V0_STATUS_QUEUE_EMPTY)) {
				ret = -EBUSY;
			} else {
				e1npu_wr_write_relaxed(edev, E1_V0_IRQ_MASK, 0);
				e1npu_wr_write_relaxed(edev, E1_V0_CTRL, 0);
				/* Reads after the writes: they have landed. */
				e1npu_wr_read_relaxed(edev, E1_V0_CTRL);
			}
		}
		mutex_unlock(&edev->ring_lock);
		if (ret)
			return ret;
	}
	if (edev->irq_npu >= 0)
		synchronize_irq(edev->irq_npu);
	if (edev->irq_fallback >= 0)
		synchronize_irq(edev->irq_fallback);
	if (edev->irq_dp >= 0)
		synchronize_irq(edev->irq_dp);
	return 0;
}

static void e1npu_ring_push(struct e1npu_device *edev, struct e1npu_job *job)
{
	u32 mask = edev->ring_len - 1, slot = edev->ring_head, i;

	lockdep_assert_held(&edev->ring_lock);
	job->first = slot;
	for (i = 0; i < job->op_count; i++) {
		e1npu_ring_write_desc(edev, slot, job->desc[i]);
		slot = (slot + 1) & mask;
	}
	edev->ring_head = slot;
	/* Before the doorbell: the hard handler may retire it at once. */
	spin_lock_irq(&edev->retire_lock);
	list_add_tail(&job->node, &edev->inflight);
	spin_unlock_irq(&edev->retire_lock);
	/*
	 * The engine fetches the descriptors written above (plain stores to
	 * the coherent ring) once it sees the doorbell. The doorbell is a
	 * writel(), not writel_relaxed(): writel() orders every earlier
	 * write to memory before the MMIO write (a wmb() ahead of the store,
	 * "fence w,o" on RISC-V), so no separate barrier is needed and the
	 * engine cannot fetch a slot before its contents are in memory. A
	 * relaxed write could reach the device first.
	 */
	e1npu_wr_write(edev, E1_V0_DESC_DOORBELL, slot);
}

/*
 * Retire the jobs DESC_TAIL has passed and signal their fences. Runs in
 * the hard IRQ handler too (e1npu_irq_npu()), hence retire_lock, not
 * ring_lock: DESC_TAIL only ever moves past retired descriptors, so this
 * is right in any hardware state but one, a flushed ring (DESC_TAIL reads
 * 0). Every path that flushes takes the jobs out of @inflight first, under
 * retire_lock, and resets @ring_tail before it pushes any again.
 */
static void e1npu_ring_retire_locked(struct e1npu_device *edev)
{
	u32 mask = edev->ring_len - 1, tail, avail;
	struct e1npu_job *job;

	lockdep_assert_held(&edev->retire_lock);
	/*
	 * Ordered read: the jobs it retires signal their fences, after which
	 * their outputs are read; those reads must not pass this one.
	 */
	tail = e1npu_wr_read(edev, E1_V0_DESC_TAIL) & mask;
	avail = e1npu_ring_dist(edev->ring_tail, tail, mask);
	while (avail) {
		u32 done, left, step;

		job = list_first_entry_or_null(&edev->inflight,
					       struct e1npu_job, node);
		if (!job)
			break;
		done = e1npu_ring_dist(job->first, edev->ring_tail, mask);
		left = job->op_count - done;
		step = min(left, avail);
		edev->ring_tail = (edev->ring_tail + step) & mask;
		avail -= step;
		if (step == left) {
			list_del_init(&job->node);
			e1npu_job_complete(job, 0, 0, 0, job->op_count);
		}
	}
}

static void e1npu_ring_retire(struct e1npu_device *edev)
{
	spin_lock_irq(&edev->retire_lock);
	e1npu_ring_retire_locked(edev);
	spin_unlock_irq(&edev->retire_lock);
}

/* Take every job out of the ring's list (the hard handler's view). */
static void e1npu_ring_take_all(struct e1npu_device *edev,
				struct list_head *jobs)
{
	spin_lock_irq(&edev->retire_lock);
	list_splice_init(&edev->inflight, jobs);
	spin_unlock_irq(&edev->retire_lock);
}

/*
 * Flush the engine and re-issue every job still in flight from its first
 * descriptor: the ring stalled before reaching them.
 */
static void e1npu_ring_reissue(struct e1npu_device *edev,
			       struct e1npu_job *failed)
{
	struct e1npu_job *job, *tmp;
	LIST_HEAD(jobs);

	e1npu_ring_take_all(edev, &jobs);
	atomic64_inc(&edev->resets);
	if (e1npu_hw_reset(edev))
		e1npu_wedge(edev, &jobs, failed);
	list_for_each_entry_safe(job, tmp, &jobs, node) {
		list_del_init(&job->node);
		if (edev->wedged)
			e1npu_job_complete(job, -EIO, 0, 0, 0);
		else
			e1npu_ring_push(edev, job);
	}
}

static struct e1npu_job *e1npu_ring_owner(struct e1npu_device *edev, u32 idx,
					  u32 *pos)
{
	u32 mask = edev->ring_len - 1;
	struct e1npu_job *job;

	lockdep_assert_held(&edev->retire_lock);
	list_for_each_entry(job, &edev->inflight, node)
		if (e1npu_ring_holds(job->first, job->op_count, idx, mask, pos))
			return job;
	return NULL;
}

/*
 * Hard error (window, bus, overflow): fail the job owning the faulting
 * descriptor, flush, and re-issue the jobs queued behind it.
 */
static void e1npu_ring_hard_error(struct e1npu_device *edev, u32 idx, u32 code)
{
	struct e1npu_job *job;
	u32 pos = 0;
	u64 addr;

	addr = (u64)e1npu_wr_read(edev, E1_V0_ERR_FAULT_ADDR_HI) << 32 |
	       e1npu_wr_read(edev, E1_V0_ERR_FAULT_ADDR_LO);
	atomic64_inc(&edev->hard_errors);
	spin_lock_irq(&edev->retire_lock);
	job = e1npu_ring_owner(edev, idx, &pos);
	if (!job) {
		/*
		 * No job owns the slot (an overflow latched at DESC_HEAD):
		 * the ring stopped in the oldest job, after the operations
		 * DESC_TAIL retired (e1npu_ring_service() retired them).
		 */
		job = list_first_entry_or_null(&edev->inflight,
					       struct e1npu_job, node);
		if (job)
			pos = (edev->ring_tail - job->first) &
			      (edev->ring_len - 1);
	}
	if (job)
		list_del_init(&job->node);
	spin_unlock_irq(&edev->retire_lock);
	drm_dbg(&edev->drm, "wrapper error 0x%02x at slot %u addr 0x%llx\n",
		code, idx, addr);
	e1npu_ring_reissue(edev, job);
	if (job)
		e1npu_job_complete(job, code == E1_V0_ERR_OVERFLOW ? -EIO : -EFAULT,
				   code, pos, pos);
}

/*
 * CPU-fallback contract: the engine stalled on descriptor @idx. Record the
 * failure, turn the rest of the job (including @idx) into NOPs keeping
 * irq_on_complete on its last, clear unsupported_op|error and retire @idx
 * through DESC_TAIL so the ring resumes with the next job.
 */
static bool e1npu_ring_fallback(struct e1npu_device *edev, u32 idx, u32 code)
{
	u32 mask = edev->ring_len - 1, pos, i;
	struct e1npu_job *job;

	/*
	 * retire_lock throughout: once DESC_TAIL moves, the hard handler may
	 * retire the job's NOPs on another CPU, and must see its outcome.
	 */
	spin_lock_irq(&edev->retire_lock);
	job = list_first_entry_or_null(&edev->inflight, struct e1npu_job, node);
	pos = job ? (idx - job->first) & mask : 0;
	if (!job || pos >= job->op_count) {
		spin_unlock_irq(&edev->retire_lock);
		return false;
	}

	if (!job->failed) {
		job->failed = true;
		job->error = -EOPNOTSUPP;
		job->err_code = code;
		job->fail_index = pos;
	}
	for (i = pos; i < job->op_count; i++) {
		e1npu_desc_make_nop(job->desc[i], i == job->op_count - 1);
		e1npu_ring_write_desc(edev, (job->first + i) & mask,
				      job->desc[i]);
	}
	atomic64_inc(&edev->fallbacks);
	/*
	 * Ordered writes, as the doorbell: the engine fetches the rewritten
	 * NOPs once the stall ends (at the IRQ_STATUS clear or at the tail
	 * write), so the ring stores must reach memory first.
	 */
	e1npu_wr_write(edev, E1_V0_IRQ_STATUS,
		       E1_V0_IRQ_UNSUPPORTED_OP | E1_V0_IRQ_ERROR);
	e1npu_wr_write(edev, E1_V0_DESC_TAIL, (idx + 1) & mask);
	spin_unlock_irq(&edev->retire_lock);
	return true;
}

/* Retire, then handle a stalled engine, until nothing is left to do. */
static void e1npu_ring_service(struct e1npu_device *edev)
{
	u32 status, code, idx;
	unsigned int loops;

	lockdep_assert_held(&edev->ring_lock);
	for (loops = 0; loops <= edev->ring_len; loops++) {
		e1npu_ring_retire(edev);
		status = e1npu_wr_read(edev, E1_V0_STATUS);
		if (!(status & E1_V0_STATUS_ERROR))
			return;
		code = FIELD_GET(E1_V0_STATUS_ERR_CODE, status);
		idx = e1npu_wr_read(edev, E1_V0_ERR_DESC_INDEX) &
		      (edev->ring_len - 1);
		if (code >= E1_V0_ERR_UNKNOWN_OP && code <= E1_V0_ERR_ALIGN &&
		    e1npu_ring_fallback(edev, idx, code))
			continue;
		e1npu_ring_hard_error(edev, idx, code);
	}
}

/*
 * The wrapper's main line. A completion alone (IRQ_STATUS.done, nothing
 * else) is handled here: the jobs DESC_TAIL passed are retired and their
 * fences signalled at once, without waking the thread (one scheduling hop
 * less per job). Anything else (an error, a fallback without its own
 * line) needs the ring lock and wakes the thread, which retires too.
 */
static irqreturn_t e1npu_irq_npu(int irq, void *arg)
{
	struct e1npu_device *edev = arg;
	u32 st;

	st = e1npu_wr_read_relaxed(edev, E1_V0_IRQ_STATUS) & edev->irq_mask;
	if (!st)
		return IRQ_NONE;
	/* unsupported_op is cleared by the thread, after the NOP rewrite. */
	e1npu_wr_write_relaxed(edev, E1_V0_IRQ_STATUS,
			       st & ~E1_V0_IRQ_UNSUPPORTED_OP);
	if (st != E1_V0_IRQ_DONE)
		return IRQ_WAKE_THREAD;
	/* An error latched since rises the line again with its own bits. */
	spin_lock(&edev->retire_lock);
	e1npu_ring_retire_locked(edev);
	spin_unlock(&edev->retire_lock);
	return IRQ_HANDLED;
}

static irqreturn_t e1npu_irq_fallback(int irq, void *arg)
{
	struct e1npu_device *edev = arg;

	if (!(e1npu_wr_read_relaxed(edev, E1_V0_IRQ_STATUS) &
	      E1_V0_IRQ_UNSUPPORTED_OP))
		return IRQ_NONE;
	return IRQ_WAKE_THREAD;
}

static irqreturn_t e1npu_irq_thread(int irq, void *arg)
{
	struct e1npu_device *edev = arg;

	mutex_lock(&edev->ring_lock);
	if (!edev->unplugged)
		e1npu_ring_service(edev);
	mutex_unlock(&edev->ring_lock);
	return IRQ_HANDLED;
}

static irqreturn_t e1npu_irq_datapath(int irq, void *arg)
{
	struct e1npu_device *edev = arg;

	/* Direct mode is polled; drop a stray done level. */
	if (!(e1npu_dp_read(edev, E1_DP_CTRL_STATUS) &
	      (E1_DP_STATUS_DONE | E1_DP_STATUS_ERROR)))
		return IRQ_NONE;
	e1npu_dp_write(edev, E1_DP_CTRL_STATUS, E1_DP_STATUS_DONE);
	return IRQ_HANDLED;
}

/**
 * e1npu_job_irq_get() - look the interrupts up
 * @edev: the device, its windows mapped
 *
 * Called before the hardware is touched: a line whose controller has not
 * probed yet defers the probe (-EPROBE_DEFER), and a deferred probe must
 * not have accessed a register. "npu" is required with the wrapper;
 * without a "fallback" line the unsupported_op bit is routed to "npu".
 *
 * Return: 0 or a negative errno.
 */
int e1npu_job_irq_get(struct e1npu_device *edev)
{
	struct platform_device *pdev = to_platform_device(edev->drm.dev);

	edev->irq_npu = -ENXIO;
	edev->irq_fallback = -ENXIO;
	edev->irq_dp = -ENXIO;
	if (edev->wrap) {
		edev->irq_mask = E1_V0_IRQ_DONE | E1_V0_IRQ_BUS_ERROR |
				 E1_V0_IRQ_QUEUE_OVERFLOW;
		edev->irq_npu = platform_get_irq_byname(pdev, E1NPU_IRQ_NAME_NPU);
		if (edev->irq_npu < 0)
			return edev->irq_npu;
		edev->irq_fallback =
			platform_get_irq_byname_optional(pdev,
							 E1NPU_IRQ_NAME_FALLBACK);
		/* Absent is -ENXIO; anything else (-EPROBE_DEFER) is fatal. */
		if (edev->irq_fallback < 0 && edev->irq_fallback != -ENXIO)
			return edev->irq_fallback;
		if (edev->irq_fallback < 0)
			edev->irq_mask |= E1_V0_IRQ_UNSUPPORTED_OP;
	}
	if (edev->dp) {
		edev->irq_dp =
			platform_get_irq_byname_optional(pdev,
							 E1NPU_IRQ_NAME_DATAPATH);
		if (edev->irq_dp < 0 && edev->irq_dp != -ENXIO)
			return edev->irq_dp;
	}
	return 0;
}

/**
 * e1npu_job_irq_init() - request the interrupts e1npu_job_irq_get() found
 * @edev: the device
 *
 * "datapath" is requested but left disabled: direct-mode commands complete
 * in a few cycles and are polled.
 *
 * Return: 0 or a negative errno.
 */
int e1npu_job_irq_init(struct e1npu_device *edev)
{
	struct device *dev = edev->drm.dev;
	int ret;

	if (edev->irq_npu >= 0) {
		ret = devm_request_threaded_irq(dev, edev->irq_npu, e1npu_irq_npu,
						e1npu_irq_thread, IRQF_ONESHOT,
						"e1npu-npu", edev);
		if (ret)
			return ret;
		if (edev->irq_fallback >= 0) {
			ret = devm_request_threaded_irq(dev, edev->irq_fallback,
							e1npu_irq_fallback,
							e1npu_irq_thread,
							IRQF_ONESHOT,
							"e1npu-fallback", edev);
			if (ret)
				return ret;
		}
	}
	if (edev->irq_dp >= 0) {
		ret = devm_request_irq(dev, edev->irq_dp, e1npu_irq_datapath,
				       IRQF_NO_AUTOEN, "e1npu-datapath", edev);
		if (ret)
			return ret;
	}
	return 0;
}

/* ---------------------------------------------------------------------- */
/* Datapath                                                               */
/* ---------------------------------------------------------------------- */

/**
 * e1npu_dp_idle() - datapath idle: descriptor mode off, done/error clear
 * @edev: the device, datapath present
 */
void e1npu_dp_idle(struct e1npu_device *edev)
{
	e1npu_dp_write(edev, E1_DP_CMD_PARAM, 0);
	e1npu_dp_write(edev, E1_DP_CTRL_STATUS, E1_DP_STATUS_DONE);
}

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

static void e1npu_dp_job_run(struct e1npu_job *job)
{
	struct e1npu_device *edev = job->edev;
	const struct e1npu_dp_io io = {
		.read = e1npu_dp_io_read,
		.write = e1npu_dp_io_write,
		.wait = e1npu_dp_io_wait,
		.yield = e1npu_dp_io_yield,
		.ctx = edev,
	};
	u32 i, st;
	int ret, idx;

	if (!drm_dev_enter(&edev->drm, &idx)) {
		e1npu_job_complete(job, -ENODEV, 0, 0, 0);
		return;
	}
	for (i = 0; i < job->op_count; i++) {
		/* run_job is a work item: up to 255 ops of 4096 records. */
		cond_resched();
		/*
		 * Each operation programs every register it uses: a reset
		 * line pulse may fall between two, not inside one.
		 */
		mutex_lock(&edev->dp_lock);
		ret = e1npu_dp_exec(&io, &job->ops[i], job->dp_ptr[i][E1NPU_T_A],
				    job->dp_ptr[i][E1NPU_T_B],
				    job->dp_ptr[i][E1NPU_T_C], &st);
		mutex_unlock(&edev->dp_lock);
		if (ret) {
			e1npu_job_complete(job, ret, st, i, i);
			goto out_dev_exit;
		}
	}
	e1npu_job_complete(job, 0, 0, 0, job->op_count);
out_dev_exit:
	drm_dev_exit(idx);
}

/* ---------------------------------------------------------------------- */
/* drm_sched backend                                                      */
/* ---------------------------------------------------------------------- */

static struct dma_fence *e1npu_job_run(struct drm_sched_job *sched_job)
{
	struct e1npu_job *job = to_e1npu_job(sched_job);
	struct e1npu_device *edev = job->edev;
	int error;

	if (!job->hw_fence_init) {
		dma_fence_init(job->hw_fence, &e1npu_fence_ops,
			       &edev->fence_lock,
			       edev->fence_context + job->engine,
			       atomic64_inc_return(&edev->seqno));
		job->hw_fence_init = true;
	}
	/* Re-run after a reset of a job that already has its outcome. */
	if (dma_fence_is_signaled(job->hw_fence))
		return dma_fence_get(job->hw_fence);

	error = sched_job->s_fence->finished.error;
	if (error) {
		e1npu_job_complete(job, error, 0, 0, 0);
		return dma_fence_get(job->hw_fence);
	}

	job->start_ns = ktime_get_ns();
	if (job->engine == DRM_E1NPU_ENGINE_DATAPATH) {
		e1npu_dp_job_run(job);
		return dma_fence_get(job->hw_fence);
	}

	mutex_lock(&edev->ring_lock);
	if (edev->unplugged)
		e1npu_job_complete(job, -ENODEV, 0, 0, 0);
	else if (edev->wedged)
		e1npu_job_complete(job, -EIO, 0, 0, 0);
	else
		e1npu_ring_push(edev, job);
	mutex_unlock(&edev->ring_lock);
	return dma_fence_get(job->hw_fence);
}

/*
 * Timeout of @bad: flush and wait for the engine to go idle, then fail
 * @bad with -ETIMEDOUT (fail_index = the operations it retired) and every
 * other job in the ring with -ECANCELED: they were queued behind @bad and
 * had not started (userspace resubmits them; the UAPI documents it). If
 * the engine does not go idle the device is wedged and they fail with -EIO.
 */
static void e1npu_ring_timeout(struct e1npu_device *edev,
			       struct e1npu_job *bad)
{
	struct e1npu_job *j, *tmp;
	LIST_HEAD(jobs);
	u32 pos = 0, st;
	bool done, own_bad;

	lockdep_assert_held(&edev->ring_lock);
	if (edev->unplugged || edev->wedged)
		return;
	/*
	 * Retire, decide and take the ring's jobs in one retire_lock section:
	 * the hard handler completes jobs under that lock, so @bad is either
	 * completely done (signalled) or still in the ring, and once taken the
	 * jobs are ours alone.
	 */
	spin_lock_irq(&edev->retire_lock);
	e1npu_ring_retire_locked(edev);
	done = bad->hw_fence_init && dma_fence_is_signaled(bad->hw_fence);
	own_bad = !done && !list_empty(&bad->node);
	if (own_bad)
		pos = (edev->ring_tail - bad->first) & (edev->ring_len - 1);
	if (!done)
		list_splice_init(&edev->inflight, &jobs);
	spin_unlock_irq(&edev->retire_lock);
	if (done) {
		/*
		 * Nothing hung: its interrupt was lost (or raced the timer).
		 * Ack as the hard handler would, so that the line can rise
		 * again for the next job, and service the ring.
		 */
		st = e1npu_wr_read_relaxed(edev, E1_V0_IRQ_STATUS) &
		     edev->irq_mask & ~E1_V0_IRQ_UNSUPPORTED_OP;
		if (st)
			e1npu_wr_write_relaxed(edev, E1_V0_IRQ_STATUS, st);
		e1npu_ring_service(edev);
		return;
	}
	atomic64_inc(&edev->resets);
	/*
	 * A hung engine may not stop at a flush; its reset line (where the
	 * binding has one) stops it for certain. Both engines are reset: the
	 * datapath between two operations (dp_lock).
	 */
	e1npu_pm_reset_pulse(edev);
	if (e1npu_hw_reset(edev))
		e1npu_wedge(edev, &jobs, NULL);
	if (own_bad) {
		drm_dbg(&edev->drm, "job timed out at op %u, reset\n", pos);
		e1npu_job_complete(bad, -ETIMEDOUT, 0, pos, pos);
	}
	list_for_each_entry_safe(j, tmp, &jobs, node) {
		list_del_init(&j->node);
		if (j != bad)
			e1npu_job_complete(j, edev->wedged ? -EIO : -ECANCELED,
					   0, 0, 0);
	}
}

/*
 * drm_sched_stop() detached every unfinished job from its hardware fence,
 * and drm_sched_start() finishes a detached job with -ECANCELED. Recovery
 * gave each job in the ring its own outcome: hand the hardware fences
 * back so that each scheduler fence carries that outcome (-ETIMEDOUT for
 * the guilty job, 0 for one that retired meanwhile). The scheduler is
 * stopped, so its pending list is stable.
 */
static void e1npu_sched_relink(struct drm_gpu_scheduler *sched)
{
	struct drm_sched_job *s_job;

	list_for_each_entry(s_job, &sched->pending_list, list) {
		struct e1npu_job *job = to_e1npu_job(s_job);

		if (!s_job->s_fence->parent && job->hw_fence_init)
			s_job->s_fence->parent = dma_fence_get(job->hw_fence);
	}
}

/*
 * The oldest job did not finish in time: stop the scheduler, recover the
 * engine (e1npu_ring_timeout()), restart. Nothing is re-run by the kernel
 * (drm_sched_resubmit_jobs() is deprecated): jobs not yet handed to the
 * engine run normally after the restart.
 */
static enum drm_gpu_sched_stat e1npu_job_timedout(struct drm_sched_job *sched_job)
{
	struct e1npu_job *job = to_e1npu_job(sched_job);
	struct e1npu_device *edev = job->edev;
	struct drm_gpu_scheduler *sched = sched_job->sched;

	drm_sched_stop(sched, sched_job);
	if (job->engine == DRM_E1NPU_ENGINE_WRAPPER) {
		mutex_lock(&edev->ring_lock);
		e1npu_ring_timeout(edev, job);
		mutex_unlock(&edev->ring_lock);
	}
	e1npu_sched_relink(sched);
	drm_sched_start(sched);
	return DRM_GPU_SCHED_STAT_NOMINAL;
}

static void e1npu_job_cleanup(struct e1npu_job *job)
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
	if (job->out_sync)
		drm_syncobj_put(job->out_sync);
	if (job->result)
		e1npu_result_put(job->result);
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

static int e1npu_engine_init(struct e1npu_device *edev,
			     struct e1npu_engine *eng, const char *name,
			     u32 credits)
{
	struct drm_sched_init_args args = {
		.ops = &e1npu_sched_ops,
		.num_rqs = DRM_SCHED_PRIORITY_COUNT,
		.credit_limit = credits,
		.hang_limit = 0,
		.timeout = msecs_to_jiffies(e1npu_timeout_ms),
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
	struct e1npu_pin *pin, *tmp;
	u32 i;

	wait_var_event(&edev->jobs_alive, !atomic_read(&edev->jobs_alive));
	cancel_work_sync(&edev->wedged_work);
	/* The arena goes with the device: the pinned ranges go back first. */
	list_for_each_entry_safe(pin, tmp, &edev->pinned, node) {
		for (i = 0; i < pin->count; i++)
			drm_gem_object_put(pin->objs[i]);
		list_del(&pin->node);
		kfree(pin);
	}
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

	INIT_LIST_HEAD(&edev->pinned);
	INIT_WORK(&edev->wedged_work, e1npu_wedged_work);
	edev->fence_context = dma_fence_context_alloc(2);
	if (edev->wrap) {
		ret = e1npu_engine_init(edev, &edev->wrapper, "e1npu-wrapper",
					edev->ring_len - 1);
		if (ret)
			return ret;
	}
	if (edev->dp) {
		ret = e1npu_engine_init(edev, &edev->datapath, "e1npu-datapath",
					E1NPU_DP_CREDITS);
		if (ret)
			return ret;
	}
	return drmm_add_action_or_reset(&edev->drm, e1npu_job_release, NULL);
}

/**
 * e1npu_job_fini() - stop the hardware side of the engines at removal
 * @edev: the device, already unplugged (or never registered)
 *
 * Masks and flushes the wrapper, waits until it is idle (else the device is
 * wedged and the buffers of the jobs in the ring stay allocated), then
 * fails every job still in the ring with -ENODEV so its fences signal; the
 * registers are not touched again. The schedulers keep running for the
 * files still open: jobs that reach run_job from now on fail with -ENODEV.
 * They are torn down when the DRM device is released
 * (e1npu_engine_release()), after the last close.
 */
void e1npu_job_fini(struct e1npu_device *edev)
{
	struct e1npu_job *job, *tmp;
	LIST_HEAD(jobs);

	mutex_lock(&edev->ring_lock);
	edev->unplugged = true;
	if (edev->wrap) {
		e1npu_wr_write(edev, E1_V0_IRQ_MASK, 0);
		/* What finished, finished; the rest is ours before the flush. */
		e1npu_ring_retire(edev);
		e1npu_ring_take_all(edev, &jobs);
		/* Fences signal below: only once the engine is idle. */
		if (e1npu_hw_flush(edev))
			e1npu_wedge(edev, &jobs, NULL);
	}
	list_for_each_entry_safe(job, tmp, &jobs, node) {
		list_del_init(&job->node);
		e1npu_job_complete(job, -ENODEV, 0, 0, 0);
	}
	mutex_unlock(&edev->ring_lock);
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
	xa_init_flags(&efile->results, XA_FLAGS_ALLOC1);
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
 * e1npu_job_close() - tear down a file's entities and unread results
 * @efile: the file
 */
void e1npu_job_close(struct e1npu_file *efile)
{
	struct e1npu_result *res;
	unsigned long id;
	int e;

	for (e = 0; e < 2; e++) {
		if (efile->entity_ok[e])
			drm_sched_entity_destroy(&efile->entity[e]);
		efile->entity_ok[e] = false;
	}
	xa_for_each(&efile->results, id, res)
		e1npu_result_put(res);
	xa_destroy(&efile->results);
	mutex_destroy(&efile->submit_lock);
}

/* ---------------------------------------------------------------------- */
/* SUBMIT                                                                 */
/* ---------------------------------------------------------------------- */

/*
 * The buffer of @handle, referenced once in the job: its index in job->bos.
 * A handle is resolved once per job, so the buffer whose size
 * e1npu_op_check() validated is the one the job uses even if the file
 * closes and reuses the handle meanwhile. Two handles of one object share
 * an entry (its reservation is locked once).
 */
static int e1npu_job_bo_index(struct e1npu_job *job, struct drm_file *file,
			      u32 handle)
{
	struct drm_gem_object *obj;
	int known;
	u32 i;

	known = e1npu_job_handle_find(job->handles, job->handle_count, handle);
	if (known >= 0)
		return known;
	obj = drm_gem_object_lookup(file, handle);
	if (!obj)
		return -ENOENT;
	i = e1npu_bo_find(job->bos, job->bo_count, obj);
	if (i < job->bo_count)
		drm_gem_object_put(obj);
	else
		job->bos[job->bo_count++] = obj;
	job->handles[job->handle_count].handle = handle;
	job->handles[job->handle_count].index = i;
	job->handle_count++;
	return i;
}

struct e1npu_lookup_ctx {
	struct e1npu_job *job;
	struct drm_file *file;
};

static int e1npu_job_lookup(void *ctx, u32 handle, u64 *size)
{
	struct e1npu_lookup_ctx *lc = ctx;
	int b;

	b = e1npu_job_bo_index(lc->job, lc->file, handle);
	if (b < 0)
		return b;
	*size = lc->job->bos[b]->size;
	return 0;
}

static int e1npu_job_prepare_ops(struct e1npu_job *job, struct drm_file *file)
{
	struct e1npu_device *edev = job->edev;
	u64 seq = atomic64_read(&edev->seqno);
	u32 i, t;
	int ret;

	for (i = 0; i < job->op_count; i++) {
		const struct e1npu_hw_op *op = &job->ops[i];
		struct e1npu_extent ext[E1NPU_T_COUNT];
		u64 addr[E1NPU_T_COUNT] = { 0 };
		struct e1npu_op_err err = { 0 };

		ret = e1npu_op_extents(op, ext, &err);
		if (ret)
			return ret;
		for (t = 0; t < E1NPU_T_COUNT; t++) {
			const struct e1npu_hw_tensor *tn =
				t == E1NPU_T_A ? &op->a :
				t == E1NPU_T_B ? &op->b : &op->c;
			struct e1npu_bo *bo;
			int b;

			if (!ext[t].used)
				continue;
			b = e1npu_job_bo_index(job, file, tn->handle);
			if (b < 0)
				return b;
			job->bo_write[b] |= ext[t].write;
			bo = to_e1npu_bo(job->bos[b]);
			addr[t] = bo->dma + tn->offset;
			if (job->dp_ptr)
				job->dp_ptr[i][t] = bo->vaddr + tn->offset;
		}
		if (job->engine != DRM_E1NPU_ENGINE_WRAPPER)
			continue;
		ret = e1npu_op_encode(op, addr, (u32)(seq << 8) | (i & 0xff),
				      job->desc[i]);
		if (ret)
			return ret;
		if (i == job->op_count - 1)
			e1npu_desc_set_irq(job->desc[i]);
	}
	return 0;
}

/* Copy one job and its operations from userspace and validate them. */
/*
 * One allocation holds the job and its per-operation arrays: a submit is
 * on the latency path, and every allocation there costs (more so under
 * slub_debug). @op_count is at most max_ops_per_job (<= 255); the sizes
 * are still computed with overflow-saturating helpers.
 */
static struct e1npu_job *e1npu_job_alloc(u32 engine, u32 op_count)
{
	size_t slots = size_mul(op_count, E1NPU_T_COUNT);
	size_t ops_off, bos_off, eng_off, handles_off, write_off, size;
	struct e1npu_job *job;
	size_t eng_size = engine == DRM_E1NPU_ENGINE_WRAPPER ?
			  sizeof(*job->desc) : sizeof(*job->dp_ptr);
	u8 *p;

	/* Arrays in decreasing alignment: no padding between them. */
	ops_off = ALIGN(sizeof(*job), __alignof__(struct e1npu_hw_op));
	bos_off = size_add(ops_off, size_mul(op_count, sizeof(*job->ops)));
	eng_off = size_add(bos_off, size_mul(slots, sizeof(*job->bos)));
	handles_off = size_add(eng_off, size_mul(op_count, eng_size));
	write_off = size_add(handles_off,
			     size_mul(slots, sizeof(*job->handles)));
	size = size_add(write_off, size_mul(slots, sizeof(*job->bo_write)));
	p = kvzalloc(size, GFP_KERNEL_ACCOUNT);
	if (!p)
		return NULL;
	job = (struct e1npu_job *)p;
	job->engine = engine;
	job->op_count = op_count;
	job->ops = (struct e1npu_hw_op *)(p + ops_off);
	job->bos = (struct drm_gem_object **)(p + bos_off);
	if (engine == DRM_E1NPU_ENGINE_WRAPPER)
		job->desc = (u32 (*)[E1_V0_DESC_WORDS])(p + eng_off);
	else
		job->dp_ptr = (u8 *(*)[E1NPU_T_COUNT])(p + eng_off);
	job->handles = (struct e1npu_job_handle *)(p + handles_off);
	job->bo_write = (bool *)(p + write_off);
	return job;
}

static int e1npu_job_create(struct e1npu_file *efile, struct drm_file *file,
			    const struct drm_e1npu_submit *args, u32 index,
			    struct e1npu_job **out)
{
	struct e1npu_device *edev = efile->edev;
	struct e1npu_lookup_ctx lc = { .file = file };
	struct drm_device *ddev = &edev->drm;
	struct drm_e1npu_job ujob;
	struct e1npu_result *res;
	struct e1npu_job *job;
	u32 i, id;
	int ret;

	ret = copy_struct_from_user(&ujob, sizeof(ujob),
				    u64_to_user_ptr(args->jobs +
						    (u64)index * args->job_size),
				    args->job_size);
	if (ret)
		return ret == -E2BIG ? -EINVAL : ret;
	if (ujob.flags || ujob.engine > DRM_E1NPU_ENGINE_DATAPATH) {
		drm_dbg(ddev, "job %u: flags 0x%x engine %u\n", index,
			ujob.flags, ujob.engine);
		return -EINVAL;
	}
	if (!(edev->lim.engines & BIT(ujob.engine)))
		return -ENODEV;
	if (!ujob.op_count || ujob.op_count > edev->lim.max_ops_per_job ||
	    ujob.in_sync_count > E1NPU_MAX_IN_SYNCS) {
		drm_dbg(ddev, "job %u: op_count %u in_sync_count %u\n", index,
			ujob.op_count, ujob.in_sync_count);
		return -EINVAL;
	}

	job = e1npu_job_alloc(ujob.engine, ujob.op_count);
	if (!job)
		return -ENOMEM;
	job->edev = edev;
	atomic_inc(&edev->jobs_alive);
	job->client = e1npu_client_get(efile->client);
	/* The device stays resumed while the job exists (until free_job). */
	ret = e1npu_pm_get(edev);
	if (ret)
		goto err_cleanup;
	job->pm_ref = true;
	INIT_LIST_HEAD(&job->node);
	lc.job = job;
	job->hw_fence = kzalloc(sizeof(*job->hw_fence), GFP_KERNEL_ACCOUNT);
	if (!job->hw_fence) {
		ret = -ENOMEM;
		goto err_cleanup;
	}

	for (i = 0; i < job->op_count; i++) {
		struct e1npu_op_err err = { 0 };

		ret = copy_struct_from_user(&job->ops[i], sizeof(job->ops[i]),
					    u64_to_user_ptr(ujob.ops +
							    (u64)i * args->op_size),
					    args->op_size);
		if (ret) {
			ret = ret == -E2BIG ? -EINVAL : ret;
			goto err_cleanup;
		}
		ret = e1npu_op_check(&job->ops[i], job->engine, &edev->lim,
				     e1npu_job_lookup, &lc, &err);
		if (ret) {
			drm_dbg(ddev, "job %u op %u: %s=%llu: %s (%d)\n", index,
				i, err.field, err.value, err.reason, ret);
			goto err_cleanup;
		}
	}

	ret = e1npu_job_prepare_ops(job, file);
	if (ret)
		goto err_cleanup;

	/* Wrapper: one credit per ring slot. Datapath: one per job. */
	ret = drm_sched_job_init(&job->base, &efile->entity[job->engine],
				 job->engine == DRM_E1NPU_ENGINE_WRAPPER ?
				 job->op_count : 1, NULL, file->client_id);
	if (ret)
		goto err_cleanup;

	for (i = 0; i < ujob.in_sync_count; i++) {
		u32 handle;

		if (copy_from_user(&handle, u64_to_user_ptr(ujob.in_syncs +
							    4ULL * i), 4)) {
			ret = -EFAULT;
			goto err_sched_cleanup;
		}
		ret = drm_sched_job_add_syncobj_dependency(&job->base, file,
							   handle, 0);
		if (ret)
			goto err_sched_cleanup;
	}
	if (ujob.out_sync) {
		job->out_sync = drm_syncobj_find(file, ujob.out_sync);
		if (!job->out_sync) {
			ret = -ENOENT;
			goto err_sched_cleanup;
		}
	}

	/* Results are kept until read: a file may hold only so many. */
	if (atomic_inc_return(&efile->result_count) > READ_ONCE(e1npu_max_results)) {
		atomic_dec(&efile->result_count);
		drm_dbg(ddev, "job %u: %u unread job results, the most a file keeps (max_results) (-EBUSY)\n",
			index, READ_ONCE(e1npu_max_results));
		ret = -EBUSY;
		goto err_sched_cleanup;
	}
	res = kzalloc(sizeof(*res), GFP_KERNEL_ACCOUNT);
	if (!res) {
		atomic_dec(&efile->result_count);
		ret = -ENOMEM;
		goto err_sched_cleanup;
	}
	kref_init(&res->ref);
	spin_lock_init(&res->lock);
	res->state = E1NPU_HWJOB_PENDING;
	ret = xa_alloc_cyclic(&efile->results, &id, res, XA_LIMIT(1, INT_MAX),
			      &efile->next_id, GFP_KERNEL_ACCOUNT);
	if (ret < 0) {
		atomic_dec(&efile->result_count);
		kfree(res);
		goto err_sched_cleanup;
	}
	kref_get(&res->ref);
	job->result = res;
	*out = job;
	return id;

err_sched_cleanup:
	drm_sched_job_cleanup(&job->base);
err_cleanup:
	e1npu_job_cleanup(job);
	return ret;
}

static void e1npu_job_drop(struct e1npu_file *efile, struct e1npu_job *job,
			   u32 id)
{
	struct e1npu_result *res = xa_erase(&efile->results, id);

	if (res) {
		atomic_dec(&efile->result_count);
		e1npu_result_put(res);
	}
	drm_sched_job_cleanup(&job->base);
	e1npu_job_cleanup(job);
}

/*
 * The buffers of every job of one SUBMIT, each once and referenced, with
 * the number of jobs using it. They are locked together and their fence
 * slots reserved before the first job is queued, so that nothing after a
 * push can fail on a signal (-ERESTARTSYS would restart the ioctl and
 * queue the jobs before it twice) or on a reservation.
 */
struct e1npu_submit_bos {
	struct drm_gem_object **objs;
	u32 *uses;
	u32 count;
	struct ww_acquire_ctx ctx;
};

static void e1npu_submit_bos_put(struct e1npu_submit_bos *sb)
{
	u32 i;

	for (i = 0; i < sb->count; i++)
		drm_gem_object_put(sb->objs[i]);
	kvfree(sb->objs);
}

/* Collect, lock and reserve; on error nothing is left locked. */
static int e1npu_submit_bos_lock(struct e1npu_submit_bos *sb,
				 struct e1npu_job **jobs, u32 n)
{
	u32 total = 0, i, b, k = 0;
	int ret;

	memset(sb, 0, sizeof(*sb));
	for (i = 0; i < n; i++)
		total += jobs[i]->bo_count;
	/* One allocation: the objects, then their use counts. */
	sb->objs = kvcalloc(total, sizeof(*sb->objs) + sizeof(*sb->uses),
			    GFP_KERNEL);
	if (!sb->objs)
		return -ENOMEM;
	sb->uses = (u32 *)(sb->objs + total);
	for (i = 0; i < n; i++)
		for (b = 0; b < jobs[i]->bo_count; b++)
			sb->objs[k++] = jobs[i]->bos[b];
	/* A job names each object once: duplicates are other jobs. */
	sort(sb->objs, total, sizeof(*sb->objs), e1npu_obj_cmp, NULL);
	for (i = 0; i < total; i++) {
		if (sb->count && sb->objs[sb->count - 1] == sb->objs[i]) {
			sb->uses[sb->count - 1]++;
			continue;
		}
		drm_gem_object_get(sb->objs[i]);
		sb->objs[sb->count] = sb->objs[i];
		sb->uses[sb->count++] = 1;
	}

	ret = drm_gem_lock_reservations(sb->objs, sb->count, &sb->ctx);
	if (ret)
		goto err_put;
	for (i = 0; i < sb->count; i++) {
		ret = dma_resv_reserve_fences(sb->objs[i]->resv, sb->uses[i]);
		if (ret)
			goto err_unlock;
	}
	return 0;

err_unlock:
	drm_gem_unlock_reservations(sb->objs, sb->count, &sb->ctx);
err_put:
	e1npu_submit_bos_put(sb);
	return ret;
}

static void e1npu_submit_bos_unlock(struct e1npu_submit_bos *sb)
{
	drm_gem_unlock_reservations(sb->objs, sb->count, &sb->ctx);
	e1npu_submit_bos_put(sb);
}

/*
 * Implicit sync of one job, its buffers locked: depend on their fences,
 * including those of the jobs of the same SUBMIT queued before it.
 */
static int e1npu_job_add_deps(struct e1npu_job *job)
{
	u32 i;
	int ret;

	for (i = 0; i < job->bo_count; i++) {
		ret = drm_sched_job_add_implicit_dependencies(&job->base,
							      job->bos[i],
							      job->bo_write[i]);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Arm, publish the job's fence on its buffers (locked, slots reserved) and
 * out_sync, then push. Once pushed the job belongs to the scheduler: it
 * may run, complete and be freed (free_job) before
 * drm_sched_entity_push_job() returns (a datapath job completes inside
 * run_job), so nothing of @job is touched after the push.
 */
static void e1npu_job_push(struct e1npu_file *efile, struct e1npu_job *job)
{
	struct dma_fence *fence;
	u32 i;

	mutex_lock(&efile->submit_lock);
	drm_sched_job_arm(&job->base);
	fence = &job->base.s_fence->finished;
	for (i = 0; i < job->bo_count; i++)
		dma_resv_add_fence(job->bos[i]->resv, fence,
				   job->bo_write[i] ? DMA_RESV_USAGE_WRITE :
						      DMA_RESV_USAGE_READ);
	if (job->out_sync)
		drm_syncobj_replace_fence(job->out_sync, fence);
	/* The job is the scheduler's (free_job) from here on. */
	drm_sched_entity_push_job(&job->base);
	mutex_unlock(&efile->submit_lock);
}

/**
 * e1npu_ioctl_submit() - DRM_IOCTL_E1NPU_SUBMIT
 * @ddev: DRM device
 * @data: struct drm_e1npu_submit
 * @file: the caller
 *
 * Every job and operation is copied and validated before any job is
 * queued; on a validation error nothing runs. Job ids are written back to
 * each job's @job_id.
 *
 * Return: 0 or a negative errno (see the UAPI DOC "e1npu submission
 * errors").
 */
int e1npu_ioctl_submit(struct drm_device *ddev, void *data,
		       struct drm_file *file)
{
	struct e1npu_file *efile = file->driver_priv;
	struct drm_e1npu_submit *args = data;
	struct e1npu_job *jobs_small[E1NPU_SUBMIT_SMALL], **jobs = jobs_small;
	u32 ids_small[E1NPU_SUBMIT_SMALL], *ids = ids_small, i, n = 0;
	struct e1npu_submit_bos sb;
	int ret = 0, idx;

	/* Struct sizes may grow (zero tails), but not beyond a page. */
	if (!e1npu_submit_header_ok(args)) {
		drm_dbg(ddev, "submit: pad %u job_count %u job_size %u op_size %u: bad header (-EINVAL)\n",
			args->pad, args->job_count, args->job_size,
			args->op_size);
		return -EINVAL;
	}
	/* The engine may still write memory: no more work (until rebind). */
	if (READ_ONCE(efile->edev->wedged))
		return -EIO;
	if (!drm_dev_enter(ddev, &idx))
		return -ENODEV;

	/* Most submits carry one job: no allocation for the arrays then. */
	if (args->job_count > E1NPU_SUBMIT_SMALL) {
		jobs = kcalloc(args->job_count, sizeof(*jobs), GFP_KERNEL);
		ids = kcalloc(args->job_count, sizeof(*ids), GFP_KERNEL);
		if (!jobs || !ids) {
			ret = -ENOMEM;
			goto out_free;
		}
	}
	for (n = 0; n < args->job_count; n++) {
		ret = e1npu_job_create(efile, file, args, n, &jobs[n]);
		if (ret < 0)
			goto out_drop;
		ids[n] = ret;
		ret = 0;
	}
	ret = e1npu_submit_bos_lock(&sb, jobs, n);
	if (ret)
		goto out_drop;
	for (i = 0; i < n; i++) {
		ret = e1npu_job_add_deps(jobs[i]);
		if (ret) {
			/*
			 * -ENOMEM with the caller being killed: the jobs
			 * before i were queued; drop the rest.
			 */
			for (; i < n; i++)
				e1npu_job_drop(efile, jobs[i], ids[i]);
			break;
		}
		e1npu_job_push(efile, jobs[i]);
	}
	e1npu_submit_bos_unlock(&sb);
	if (ret) {
		n = 0;
		goto out_free;
	}
	for (i = 0; i < n; i++) {
		u64 uptr = args->jobs + (u64)i * args->job_size +
			   offsetof(struct drm_e1npu_job, job_id);

		if (copy_to_user(u64_to_user_ptr(uptr), &ids[i], sizeof(u32)))
			ret = -EFAULT;
	}
	n = 0;
	goto out_free;

out_drop:
	for (i = 0; i < n; i++)
		e1npu_job_drop(efile, jobs[i], ids[i]);
out_free:
	if (ids != ids_small)
		kfree(ids);
	if (jobs != jobs_small)
		kfree(jobs);
	drm_dev_exit(idx);
	return ret;
}

/**
 * e1npu_ioctl_job_result() - DRM_IOCTL_E1NPU_JOB_RESULT
 * @ddev: DRM device
 * @data: struct e1npu_hw_result
 * @file: the caller
 *
 * A finished job's outcome is returned once and forgotten; a pending job
 * reports E1NPU_HWJOB_PENDING and stays.
 *
 * Return: 0, or -ENOENT for an unknown or already read job id.
 */
int e1npu_ioctl_job_result(struct drm_device *ddev, void *data,
			   struct drm_file *file)
{
	struct e1npu_file *efile = file->driver_priv;
	struct e1npu_hw_result *args = data;
	struct e1npu_result *res;
	unsigned long flags;

	xa_lock(&efile->results);
	res = xa_load(&efile->results, args->job_id);
	if (!res) {
		xa_unlock(&efile->results);
		return -ENOENT;
	}
	spin_lock_irqsave(&res->lock, flags);
	args->state = res->state;
	args->error = res->error;
	args->err_code = res->err_code;
	args->fail_index = res->fail_index;
	args->ops_done = res->ops_done;
	spin_unlock_irqrestore(&res->lock, flags);
	if (args->state != E1NPU_HWJOB_PENDING) {
		__xa_erase(&efile->results, args->job_id);
		atomic_dec(&efile->result_count);
	} else {
		res = NULL;
	}
	xa_unlock(&efile->results);
	if (res)
		e1npu_result_put(res);
	return 0;
}
