// SPDX-License-Identifier: GPL-2.0-only
/*
 * e1 NPU hardware control: programming the wrapper, flush and reset, the
 * datapath's idle state, the reset-line pulse, suspend and resume, and the
 * wedged state (an engine that never went idle after a flush). The ring
 * itself is e1npu_ring.c, datapath jobs e1npu_dp.c.
 */
#include <linux/delay.h>
#include <linux/interrupt.h>
#include <linux/iopoll.h>
#include <linux/moduleparam.h>
#include <linux/reset.h>
#include <linux/slab.h>
#include <drm/drm_drv.h>
#include <drm/drm_gem.h>
#include <drm/drm_print.h>

#include "e1npu_device.h"
#include "e1npu_job.h"
#include "e1npu_perfmon.h"
#include "e1npu_ring.h"

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
int e1npu_hw_flush(struct e1npu_device *edev)
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
void e1npu_wedge(struct e1npu_device *edev, struct list_head *jobs,
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
 * Tell userspace the device needs recovery: the DRM core's wedged uevent,
 * WEDGED=rebind on the accel node (Documentation/gpu/drm-uapi.rst, "Device
 * Wedging"); rebinding the driver is what clears the state. A work item,
 * because the wedge is found on fence-signalling paths (IRQ thread, timeout
 * handler) where the uevent's GFP_KERNEL allocations must not run.
 */
static void e1npu_wedged_work(struct work_struct *work)
{
	struct e1npu_device *edev = container_of(work, struct e1npu_device,
						 wedged_work);
	int idx;

	/* Not after unplug: the accel node is gone from sysfs then. */
	if (!drm_dev_enter(&edev->drm, &idx))
		return;
	drm_dev_wedged_event(&edev->drm, DRM_WEDGE_RECOVERY_REBIND, NULL);
	drm_dev_exit(idx);
}

/**
 * e1npu_hw_init() - the hardware control's software state
 * @edev: the device
 */
void e1npu_hw_init(struct e1npu_device *edev)
{
	INIT_LIST_HEAD(&edev->pinned);
	INIT_WORK(&edev->wedged_work, e1npu_wedged_work);
}

/**
 * e1npu_dp_idle() - datapath idle: descriptor mode off, done/error clear
 * @edev: the device, datapath present
 */
void e1npu_dp_idle(struct e1npu_device *edev)
{
	e1npu_dp_write(edev, E1_DP_CMD_PARAM, 0);
	e1npu_dp_write(edev, E1_DP_CTRL_STATUS, E1_DP_STATUS_DONE);
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
	return 0;
}

/**
 * e1npu_hw_reset_line() - assert, then release, the block's reset line
 * @edev: the device, powered, with a reset line
 *
 * The bare pulse: probe uses it before anything runs; later pulses go
 * through e1npu_hw_reset_pulse().
 *
 * Return: 0 or the reset controller's negative errno.
 */
int e1npu_hw_reset_line(struct e1npu_device *edev)
{
	int ret;

	ret = reset_control_assert(edev->rst);
	if (ret)
		return ret;
	udelay(1);
	return reset_control_deassert(edev->rst);
}

/**
 * e1npu_hw_reset_pulse() - pulse the block's reset line, if it has one
 * @edev: the device, powered
 *
 * The perf counters are folded into the software totals first (the pulse
 * clears them); the datapath is reset between two commands (dp_lock).
 *
 * Return: true when the line was pulsed.
 */
bool e1npu_hw_reset_pulse(struct e1npu_device *edev)
{
	int ret;

	if (!edev->rst)
		return false;
	mutex_lock(&edev->dp_lock);
	mutex_lock(&edev->perf_lock);
	e1npu_perf_save(edev);
	ret = e1npu_hw_reset_line(edev);
	mutex_unlock(&edev->perf_lock);
	mutex_unlock(&edev->dp_lock);
	if (ret) {
		dev_err(edev->drm.dev, "reset line pulse failed (%d)\n", ret);
		return false;
	}
	return true;
}

/**
 * e1npu_hw_pinned_release() - give back the buffers a wedge pinned
 * @edev: the device, being released
 */
void e1npu_hw_pinned_release(struct e1npu_device *edev)
{
	struct e1npu_pin *pin, *tmp;
	u32 i;

	list_for_each_entry_safe(pin, tmp, &edev->pinned, node) {
		for (i = 0; i < pin->count; i++)
			drm_gem_object_put(pin->objs[i]);
		list_del(&pin->node);
		kfree(pin);
	}
}
