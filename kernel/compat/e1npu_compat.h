/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * e1npu's compat layer, force-included before every file of the driver
 * by Kbuild.compat: the newest kernel's API on an older kernel. Each
 * mapping is on only when Kbuild.compat's probe of the kernel's headers
 * found the older form. Not part of the upstream series.
 */
#ifndef __E1NPU_COMPAT_H__
#define __E1NPU_COMPAT_H__

#include <linux/module.h>
#include <drm/gpu_scheduler.h>
#include <drm/drm_print.h>

#ifdef E1NPU_COMPAT_SCHED_START_VOID
/* before 6.13 the jobs a restart cancels got no error */
static inline void e1npu_compat_sched_start(struct drm_gpu_scheduler *sched,
					    int err)
{
	WARN_ON(err);
	drm_sched_start(sched);
}

#define drm_sched_start(sched, err)	e1npu_compat_sched_start(sched, err)
#endif

#ifdef E1NPU_COMPAT_SCHED_STAT_NOMINAL
#define DRM_GPU_SCHED_STAT_RESET	DRM_GPU_SCHED_STAT_NOMINAL
#endif

#ifdef E1NPU_COMPAT_IMPORT_NS_TOKEN
/* before 6.13 the namespace was a token, stringified by the macro */
#undef MODULE_IMPORT_NS
#define MODULE_IMPORT_NS(ns)		MODULE_INFO(import_ns, ns)
#endif

#ifdef E1NPU_COMPAT_NO_WEDGED_EVENT
#include <linux/kobject.h>
#include <drm/drm_device.h>
#include <drm/drm_file.h>

/* before 6.14: the uevent drm_dev_wedged_event() sends, rebind only */
#define DRM_WEDGE_RECOVERY_REBIND	BIT(1)

struct drm_wedge_task_info;

static inline int drm_dev_wedged_event(struct drm_device *dev,
				       unsigned long method,
				       struct drm_wedge_task_info *info)
{
	struct drm_minor *minor = dev->accel ? dev->accel : dev->primary;
	char *envp[2];

	if (WARN_ON(method != DRM_WEDGE_RECOVERY_REBIND))
		return -EINVAL;
	envp[0] = "WEDGED=rebind";
	envp[1] = NULL;
	drm_info(dev, "device wedged, needs recovery\n");
	return kobject_uevent_env(&minor->kdev->kobj, KOBJ_CHANGE, envp);
}
#endif

#endif /* __E1NPU_COMPAT_H__ */
