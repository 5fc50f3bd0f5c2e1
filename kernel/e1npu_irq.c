// SPDX-License-Identifier: GPL-2.0-only
/*
 * e1 NPU interrupts: the wrapper's "npu" and "fallback" lines and the
 * datapath's line, looked up before the hardware is touched.
 */
#include <linux/dma-fence.h>
#include <linux/interrupt.h>
#include <linux/platform_device.h>
#include <drm/drm_print.h>

#include "e1npu_device.h"
#include "e1npu_job.h"
#include "e1npu_ring.h"

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

/* Signals the fences of the jobs the wrapper finished or failed. */
static irqreturn_t e1npu_irq_thread(int irq, void *arg)
{
	struct e1npu_device *edev = arg;
	bool fence_cookie = dma_fence_begin_signalling();

	mutex_lock(&edev->ring_lock);
	if (!edev->unplugged)
		e1npu_ring_service(edev);
	mutex_unlock(&edev->ring_lock);
	dma_fence_end_signalling(fence_cookie);
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
	return 0;
}

/**
 * e1npu_job_irq_init() - request the interrupts e1npu_job_irq_get() found
 * @edev: the device
 *
 * The datapath's line is not used: its direct-mode commands complete in a
 * few cycles and are polled.
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
	return 0;
}
