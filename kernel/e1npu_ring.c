// SPDX-License-Identifier: GPL-2.0-only
/*
 * e1 NPU wrapper ring: the descriptor ring the driver owns, retirement,
 * the CPU-fallback contract, hard errors, timeout recovery and removal
 * (programming, reset and wedging are e1npu_hwctl.c).
 *
 * Every command is one 64-byte descriptor. A job owns the ring while it
 * runs (its scheduler credits are the ring's, see e1npu_sched.c): innocent
 * jobs never sit in the hardware queue behind one that hangs. Jobs retire
 * as DESC_TAIL passes them, in the hard interrupt handler for a plain
 * completion, in its thread when an error needs handling.
 */
#include <linux/bitfield.h>
#include <linux/dma-fence.h>
#include <linux/interrupt.h>
#include <drm/drm_drv.h>
#include <drm/drm_gem.h>
#include <drm/drm_print.h>

#include "e1npu_device.h"
#include "e1npu_job.h"
#include "e1npu_job_helpers.h"
#include "e1npu_ring.h"

static void e1npu_ring_write_desc(struct e1npu_device *edev, u32 slot,
				  const u32 desc[E1_V0_DESC_WORDS])
{
	__le32 *d = edev->ring_vaddr + (size_t)slot * E1_V0_DESC_SIZE;
	unsigned int w;

	for (w = 0; w < E1_V0_DESC_WORDS; w++)
		d[w] = cpu_to_le32(desc[w]);
}

/**
 * e1npu_ring_push() - write a job's descriptors and ring the doorbell
 * @edev: the device; ring_lock held
 * @job: the job, its descriptors encoded
 */
void e1npu_ring_push(struct e1npu_device *edev, struct e1npu_job *job)
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
void e1npu_ring_retire_locked(struct e1npu_device *edev)
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

void e1npu_ring_retire(struct e1npu_device *edev)
{
	spin_lock_irq(&edev->retire_lock);
	e1npu_ring_retire_locked(edev);
	spin_unlock_irq(&edev->retire_lock);
}

/* Take every job out of the ring's list (the hard handler's view). */
void e1npu_ring_take_all(struct e1npu_device *edev, struct list_head *jobs)
{
	spin_lock_irq(&edev->retire_lock);
	list_splice_init(&edev->inflight, jobs);
	spin_unlock_irq(&edev->retire_lock);
}

/*
 * Reset the wrapper after a hard error. An engine runs one job at a time
 * (a credit limit of 1, e1npu_sched.c) and that job, @failed, is already
 * out of the ring: nothing queued behind it is in the ring to re-issue.
 */
static void e1npu_ring_reset(struct e1npu_device *edev,
			     struct e1npu_job *failed)
{
	LIST_HEAD(none);

	atomic64_inc(&edev->resets);
	if (e1npu_hw_reset(edev))
		e1npu_wedge(edev, &none, failed);
}

/* The cause of a hard error, for the kernel log. */
static const char *e1npu_ring_err_name(u32 code)
{
	switch (code) {
	case E1_V0_ERR_WINDOW:
		return "tensor outside the tensor window";
	case E1_V0_ERR_BUS:
		return "bus error";
	case E1_V0_ERR_OVERFLOW:
		return "descriptor queue overflow";
	default:
		return "hardware error";
	}
}

/*
 * Hard error (window, bus, overflow): fail the job in the ring (the one
 * job its engine runs) at the faulting descriptor, and reset the engine.
 */
static void e1npu_ring_hard_error(struct e1npu_device *edev, u32 idx, u32 code)
{
	u32 mask = edev->ring_len - 1, pos = 0;
	struct e1npu_job *job;
	u64 addr;

	addr = (u64)e1npu_wr_read(edev, E1_V0_ERR_FAULT_ADDR_HI) << 32 |
	       e1npu_wr_read(edev, E1_V0_ERR_FAULT_ADDR_LO);
	atomic64_inc(&edev->hard_errors);
	spin_lock_irq(&edev->retire_lock);
	job = list_first_entry_or_null(&edev->inflight, struct e1npu_job, node);
	/*
	 * An overflow latches DESC_HEAD, a slot past the job: it stopped
	 * after the commands DESC_TAIL retired (e1npu_ring_service()).
	 */
	if (job && !e1npu_ring_holds(job->first, job->op_count, idx, mask, &pos))
		pos = (edev->ring_tail - job->first) & mask;
	if (job)
		list_del_init(&job->node);
	spin_unlock_irq(&edev->retire_lock);
	drm_dbg(&edev->drm, "wrapper error 0x%02x at slot %u addr 0x%llx\n",
		code, idx, addr);
	if (job)
		e1npu_job_warn(job, "%s (error 0x%02x) at command %u, address 0x%llx: engine reset\n",
			       e1npu_ring_err_name(code), code, pos, addr);
	else
		dev_warn_ratelimited(edev->drm.dev,
				     "wrapper: %s (error 0x%02x) at slot %u with no job in it: engine reset\n",
				     e1npu_ring_err_name(code), code, idx);
	e1npu_ring_reset(edev, job);
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
void e1npu_ring_service(struct e1npu_device *edev)
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

/**
 * e1npu_ring_timeout() - recover from a wrapper job that ran too long
 * @edev: the device; ring_lock held, the scheduler's queue stopped
 * @bad: the job
 *
 * Flush and wait for the engine to go idle (pulsing the reset line where
 * the binding has one), then fail @bad with -ETIMEDOUT (fail_index = the
 * commands it retired). @bad owned the ring, so no other job was in it.
 * If the engine does not go idle the device is wedged. A job that
 * finished meanwhile (a lost interrupt) is only retired.
 */
void e1npu_ring_timeout(struct e1npu_device *edev, struct e1npu_job *bad)
{
	u32 pos = 0, st;
	bool done, own_bad;
	LIST_HEAD(none);

	lockdep_assert_held(&edev->ring_lock);
	if (edev->unplugged || edev->wedged)
		return;
	/*
	 * Retire, decide and take @bad out of the ring in one retire_lock
	 * section: the hard handler completes jobs under that lock, so @bad
	 * is either completely done (signalled) or still in the ring, and
	 * once taken it is ours alone.
	 */
	spin_lock_irq(&edev->retire_lock);
	e1npu_ring_retire_locked(edev);
	done = bad->hw_fence_init && dma_fence_is_signaled(bad->hw_fence);
	own_bad = !done && !list_empty(&bad->node);
	if (own_bad) {
		pos = (edev->ring_tail - bad->first) & (edev->ring_len - 1);
		list_del_init(&bad->node);
	}
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
		e1npu_job_warn(bad, "finished, but its interrupt was lost: retired at the %u ms timeout\n",
			       e1npu_timeout_ms);
		return;
	}
	atomic64_inc(&edev->resets);
	/* A hung engine may not stop at a flush; its reset line does. */
	e1npu_hw_reset_pulse(edev);
	if (e1npu_hw_reset(edev))
		e1npu_wedge(edev, &none, own_bad ? bad : NULL);
	e1npu_job_warn(bad, "timed out after %u ms at command %u of %u: engine reset%s\n",
		       e1npu_timeout_ms, pos, bad->op_count,
		       edev->wedged ? ", device wedged" : "");
	if (own_bad)
		e1npu_job_complete(bad, -ETIMEDOUT, 0, pos, pos);
}

/**
 * e1npu_ring_fini() - stop the wrapper at removal
 * @edev: the device, unplugged
 * @powered: the device is resumed (its registers can be accessed)
 *
 * Masks and flushes the wrapper, waits until it is idle (else the device is
 * wedged and the buffers of the jobs in the ring stay allocated), then
 * fails every job still in the ring with -ENODEV so its fences signal; the
 * registers are not touched again. Without @powered (resuming it failed)
 * no register is touched at all: nothing shows the engine idle, so the
 * jobs' buffers stay allocated as for a wedge.
 */
void e1npu_ring_fini(struct e1npu_device *edev, bool powered)
{
	struct e1npu_job *job, *tmp;
	bool fence_cookie;
	LIST_HEAD(jobs);

	/*
	 * Signals fences under ring_lock, as the IRQ thread and run_job do:
	 * the same order (signalling section, then the lock), no allocation.
	 */
	fence_cookie = dma_fence_begin_signalling();
	mutex_lock(&edev->ring_lock);
	edev->unplugged = true;
	if (edev->wrap && !powered) {
		e1npu_ring_take_all(edev, &jobs);
		if (!list_empty(&jobs))
			e1npu_wedge(edev, &jobs, NULL);
	} else if (edev->wrap) {
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
	dma_fence_end_signalling(fence_cookie);
}
