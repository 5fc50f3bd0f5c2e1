/* SPDX-License-Identifier: GPL-2.0-only */
/* e1 NPU perf counters and per-job performance monitors (e1npu_perfmon.c). */
#ifndef __E1NPU_PERFMON_H__
#define __E1NPU_PERFMON_H__

#include <linux/types.h>

struct drm_device;
struct drm_file;
struct e1npu_device;
struct e1npu_file;
struct e1npu_job;
struct e1npu_perfmon;

u64 e1npu_perf_hw(struct e1npu_device *edev, unsigned int i);
void e1npu_perf_save(struct e1npu_device *edev);

struct e1npu_perfmon *e1npu_perfmon_find(struct e1npu_file *efile, u32 id);
void e1npu_perfmon_put(struct e1npu_perfmon *pm);
void e1npu_perfmon_job_start(struct e1npu_job *job);
void e1npu_perfmon_job_end(struct e1npu_job *job);
void e1npu_perfmon_open(struct e1npu_file *efile);
void e1npu_perfmon_close(struct e1npu_file *efile);

int e1npu_ioctl_perfmon_create(struct drm_device *ddev, void *data,
			       struct drm_file *file);
int e1npu_ioctl_perfmon_destroy(struct drm_device *ddev, void *data,
				struct drm_file *file);
int e1npu_ioctl_perfmon_get_values(struct drm_device *ddev, void *data,
				   struct drm_file *file);

#endif /* __E1NPU_PERFMON_H__ */
