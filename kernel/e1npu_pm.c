// SPDX-License-Identifier: GPL-2.0-only
/*
 * e1 NPU clocks, reset line and runtime PM. All optional in the binding:
 * without them (QEMU's virt board) runtime PM still tracks use, so the
 * device reads "suspended" in sysfs when idle. The device is resumed while
 * a job exists (from SUBMIT until the job is freed) and around register
 * reads from sysfs and debugfs; it autosuspends after E1NPU_AUTOSUSPEND_MS
 * idle.
 */
#include <linux/clk.h>
#include <linux/platform_device.h>
#include <linux/pm_runtime.h>
#include <linux/reset.h>

#include "e1npu_device.h"
#include "e1npu_ring.h"

#define E1NPU_AUTOSUSPEND_MS	50

static int e1npu_power_on(struct e1npu_device *edev)
{
	int ret;

	ret = clk_bulk_prepare_enable(edev->num_clks, edev->clks);
	edev->clocks_on = !ret;
	return ret;
}

static void e1npu_power_off(struct e1npu_device *edev)
{
	clk_bulk_disable_unprepare(edev->num_clks, edev->clks);
	edev->clocks_on = false;
}

/*
 * The NPU's clock rate, for perf/busy_us: the "core" clock, else the only
 * or first clock; 0 when the node names none (busy_us is then unknown).
 */
static unsigned long e1npu_core_clock_rate(struct e1npu_device *edev)
{
	int i;

	for (i = 0; i < edev->num_clks; i++)
		if (edev->clks[i].id && !strcmp(edev->clks[i].id, "core"))
			return clk_get_rate(edev->clks[i].clk);
	return edev->num_clks ? clk_get_rate(edev->clks[0].clk) : 0;
}

/*
 * devm action, the last of e1npu_pm_init()'s to run: runtime PM is
 * disabled by then (devm_pm_runtime_set_active_enabled()'s actions run
 * first), so nothing powers the device on again.
 */
static void e1npu_pm_power_down(void *data)
{
	struct e1npu_device *edev = data;

	if (edev->clocks_on)
		e1npu_power_off(edev);
}

/* devm action: probe's usage reference, when probe failed holding it. */
static void e1npu_pm_drop_probe_ref(void *data)
{
	struct e1npu_device *edev = data;

	if (edev->pm_probe_ref) {
		pm_runtime_put_noidle(edev->drm.dev);
		edev->pm_probe_ref = false;
	}
}

/**
 * e1npu_pm_init() - clocks on, reset pulsed, runtime PM enabled and held
 * @edev: the device
 *
 * Leaves the device powered and out of reset with a usage reference that
 * e1npu_pm_probe_done() drops at the end of probe. Everything is undone by
 * devm actions: the probe reference, runtime PM (disabled, status
 * suspended), then the clocks.
 *
 * Return: 0 or a negative errno (-EPROBE_DEFER from clocks and resets).
 */
int e1npu_pm_init(struct e1npu_device *edev)
{
	struct device *dev = edev->drm.dev;
	int ret;

	ret = devm_clk_bulk_get_all(dev, &edev->clks);
	if (ret < 0)
		return dev_err_probe(dev, ret, "clocks\n");
	edev->num_clks = ret;
	edev->clock_hz = e1npu_core_clock_rate(edev);
	edev->rst = devm_reset_control_get_optional_exclusive(dev, NULL);
	if (IS_ERR(edev->rst))
		return dev_err_probe(dev, PTR_ERR(edev->rst), "reset\n");

	ret = e1npu_power_on(edev);
	if (ret)
		return dev_err_probe(dev, ret, "enabling clocks\n");
	ret = devm_add_action_or_reset(dev, e1npu_pm_power_down, edev);
	if (ret)
		return ret;
	/* A clean block: pulse the reset line (no-op without one). */
	ret = edev->rst ? e1npu_hw_reset_line(edev) : 0;
	if (ret)
		return dev_err_probe(dev, ret, "reset pulse\n");

	pm_runtime_set_autosuspend_delay(dev, E1NPU_AUTOSUSPEND_MS);
	pm_runtime_use_autosuspend(dev);
	/* held from before runtime PM is enabled until probe is done */
	pm_runtime_get_noresume(dev);
	edev->pm_probe_ref = true;
	ret = devm_add_action_or_reset(dev, e1npu_pm_drop_probe_ref, edev);
	if (ret)
		return ret;
	return devm_pm_runtime_set_active_enabled(dev);
}

/**
 * e1npu_pm_probe_done() - drop probe's usage reference: idle may suspend
 * @edev: the device, registered
 */
void e1npu_pm_probe_done(struct e1npu_device *edev)
{
	edev->pm_probe_ref = false;
	pm_runtime_mark_last_busy(edev->drm.dev);
	pm_runtime_put_autosuspend(edev->drm.dev);
}

/**
 * e1npu_pm_get() - resume the device and hold it resumed
 * @edev: the device
 *
 * Return: 0 or a negative errno (nothing held then).
 */
int e1npu_pm_get(struct e1npu_device *edev)
{
	return pm_runtime_resume_and_get(edev->drm.dev);
}

/**
 * e1npu_pm_put() - release e1npu_pm_get(); may be called in atomic context
 * @edev: the device
 */
void e1npu_pm_put(struct e1npu_device *edev)
{
	pm_runtime_mark_last_busy(edev->drm.dev);
	pm_runtime_put_autosuspend(edev->drm.dev);
}

/*
 * Only an idle device powers down (after a -EBUSY the PM core tries again
 * one autosuspend delay later): e1npu_hw_suspend() checks the wrapper,
 * silences its interrupt lines and waits for any handler still running,
 * which would otherwise read registers of an unclocked block.
 */
static int e1npu_rpm_suspend(struct device *dev)
{
	struct e1npu_device *edev = dev_get_drvdata(dev);
	int ret;

	ret = e1npu_hw_suspend(edev);
	if (ret) {
		/* A fresh last_busy: the PM core schedules another attempt. */
		pm_runtime_mark_last_busy(dev);
		return ret;
	}
	e1npu_power_off(edev);
	return 0;
}

/*
 * Clocks back on, then the whole NPU from scratch, whatever a power
 * domain kept: the reset line if the binding has one, the wrapper flushed,
 * waited for and its ring programmed again (it is empty: no job holds the
 * device while it is suspended), the datapath idle.
 */
static int e1npu_rpm_resume(struct device *dev)
{
	struct e1npu_device *edev = dev_get_drvdata(dev);
	int ret;

	ret = e1npu_power_on(edev);
	if (ret)
		return ret;
	e1npu_hw_reset_pulse(edev);
	e1npu_hw_resume(edev);
	return 0;
}

const struct dev_pm_ops e1npu_pm_ops = {
	RUNTIME_PM_OPS(e1npu_rpm_suspend, e1npu_rpm_resume, NULL)
};
