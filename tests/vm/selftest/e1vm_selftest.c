// SPDX-License-Identifier: GPL-2.0-only
/*
 * e1vm_selftest - proves the QEMU test harness end to end.
 *
 * Registers a platform device and a minimal DRM accel driver on it, so the
 * guest sees /dev/accel/accelN, the DRM dependency closure (drm.ko and what
 * it needs) is computed and loaded, and debugfs works. It does nothing
 * else. With warn=1 it emits a WARN() at load so the harness can prove that
 * its dmesg check catches kernel warnings; fault=leak|uaf|lockdep|ubsan
 * commits that bug at load, to prove the debug kernel's tools (kmemleak,
 * KASAN, lockdep, UBSAN) fail the run.
 */

#include <linux/debugfs.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/platform_device.h>
#include <linux/seq_file.h>

#include <drm/drm_accel.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_ioctl.h>

static bool warn;
module_param(warn, bool, 0444);
MODULE_PARM_DESC(warn, "emit a WARN() at load (tests the harness's dmesg check)");

static char *fault = "";
module_param(fault, charp, 0444);
MODULE_PARM_DESC(fault, "commit a bug at load: leak, uaf, lockdep, ubsan (tests the debug kernel's checks)");

static DEFINE_MUTEX(e1vm_lock_a);
static DEFINE_MUTEX(e1vm_lock_b);

/* The bugs of fault=: each one of the debug kernel's tools must report. */
static noinline void e1vm_fault(void)
{
	char *p;

	if (!strcmp(fault, "leak")) {
		p = kmalloc(96, GFP_KERNEL);
		pr_info("e1vm_selftest: leaking %p on purpose\n", p);
		p = NULL;
	} else if (!strcmp(fault, "uaf")) {
		p = kmalloc(96, GFP_KERNEL);
		if (!p)
			return;
		kfree(p);
		pr_info("e1vm_selftest: use after free: %d\n", READ_ONCE(p[8]));
	} else if (!strcmp(fault, "lockdep")) {
		mutex_lock(&e1vm_lock_a);
		mutex_lock(&e1vm_lock_b);
		mutex_unlock(&e1vm_lock_b);
		mutex_unlock(&e1vm_lock_a);
		mutex_lock(&e1vm_lock_b);
		mutex_lock(&e1vm_lock_a);
		mutex_unlock(&e1vm_lock_a);
		mutex_unlock(&e1vm_lock_b);
	} else if (!strcmp(fault, "ubsan")) {
		/* 1 << 40 on an int, the shift known only at run time */
		pr_info("e1vm_selftest: shift: %d\n", 1 << (8 * strlen(fault)));
	}
}

struct e1vm_dev {
	struct drm_device drm;
};

DEFINE_DRM_ACCEL_FOPS(e1vm_fops);

static const struct drm_driver e1vm_drm_driver = {
	.driver_features = DRIVER_COMPUTE_ACCEL,
	.fops = &e1vm_fops,
	.name = "e1vm_selftest",
	.desc = "e1 NPU VM harness self-test",
	.major = 1,
	.minor = 0,
};

static struct platform_device *e1vm_pdev;
static struct dentry *e1vm_debugfs;

static int e1vm_ping_show(struct seq_file *m, void *unused)
{
	seq_puts(m, "pong\n");
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(e1vm_ping);

static int e1vm_probe(struct platform_device *pdev)
{
	struct e1vm_dev *edev;

	edev = devm_drm_dev_alloc(&pdev->dev, &e1vm_drm_driver,
				  struct e1vm_dev, drm);
	if (IS_ERR(edev))
		return PTR_ERR(edev);
	platform_set_drvdata(pdev, edev);
	return drm_dev_register(&edev->drm, 0);
}

static void e1vm_remove(struct platform_device *pdev)
{
	struct e1vm_dev *edev = platform_get_drvdata(pdev);

	drm_dev_unregister(&edev->drm);
}

static struct platform_driver e1vm_driver = {
	.probe = e1vm_probe,
	.remove = e1vm_remove,
	.driver = {
		.name = "e1vm_selftest",
	},
};

static int __init e1vm_init(void)
{
	int ret;

	ret = platform_driver_register(&e1vm_driver);
	if (ret)
		return ret;
	e1vm_pdev = platform_device_register_simple("e1vm_selftest",
						    PLATFORM_DEVID_NONE,
						    NULL, 0);
	if (IS_ERR(e1vm_pdev)) {
		platform_driver_unregister(&e1vm_driver);
		return PTR_ERR(e1vm_pdev);
	}
	e1vm_debugfs = debugfs_create_dir("e1vm_selftest", NULL);
	debugfs_create_file("ping", 0444, e1vm_debugfs, NULL, &e1vm_ping_fops);
	WARN(warn, "e1vm_selftest: warning requested by warn=1\n");
	e1vm_fault();
	pr_info("e1vm_selftest: loaded\n");
	return 0;
}

static void __exit e1vm_exit(void)
{
	debugfs_remove_recursive(e1vm_debugfs);
	platform_device_unregister(e1vm_pdev);
	platform_driver_unregister(&e1vm_driver);
	pr_info("e1vm_selftest: unloaded\n");
}

module_init(e1vm_init);
module_exit(e1vm_exit);

MODULE_DESCRIPTION("e1 NPU QEMU harness self-test (minimal DRM accel device)");
MODULE_LICENSE("GPL");
