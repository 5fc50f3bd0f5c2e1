/* SPDX-License-Identifier: MIT */
/*
 * The one internal interface between the library core and its backends:
 * the kernel driver through libdrm (backend-drm.c) and the in-process
 * device model (backend-sim.c). Everything speaks kernel UAPI structures,
 * so both backends see exactly the same jobs.
 */
#ifndef __E1NPU_BACKEND_H__
#define __E1NPU_BACKEND_H__

#include "internal.h"

/**
 * struct e1npu_backend_funcs - a backend: its name and what it implements
 * @name: "kernel" or "sim".
 * @open: open @path (NULL for the sim), fill dev->priv and dev->lim.
 * @close: release everything.
 * @bo_create: allocate @size bytes (rounded up to a page): *@handle, and
 *	the allocated size in *@bo_size.
 * @bo_free: free a buffer (@map is its mapping or NULL).
 * @bo_map: map a buffer for the CPU.
 * @submit: queue one job of @count ops for @engine; *@job_id. It starts
 *	only after the @ndeps jobs in @deps (ids from this backend) completed;
 *	a job the backend no longer tracks (its result was read) counts as
 *	completed.
 * @wait: wait until job @job_id finished or @deadline_ns (CLOCK_MONOTONIC
 *	absolute, < 0 forever) passed: 0 or -ETIME.
 * @job_result: the job's outcome, read once (a pending job stays).
 * @read_perf: hardware counters into @perf (library counters are added by
 *	the core); the sim also fills @global_cycles.
 */
struct e1npu_backend_funcs {
	const char *name;
	int (*open)(struct e1npu_device *dev, const char *path);
	void (*close)(struct e1npu_device *dev);
	int (*bo_create)(struct e1npu_device *dev, uint64_t size,
			 uint32_t *handle, uint64_t *bo_size);
	void (*bo_free)(struct e1npu_device *dev, uint32_t handle, void *map,
			uint64_t bo_size);
	int (*bo_map)(struct e1npu_device *dev, uint32_t handle,
		      uint64_t bo_size, void **ptr);
	int (*submit)(struct e1npu_device *dev, const struct e1npu_hw_op *ops,
		      uint32_t count, uint32_t engine, const uint32_t *deps,
		      uint32_t ndeps, uint32_t *job_id);
	int (*wait)(struct e1npu_device *dev, uint32_t job_id,
		    int64_t deadline_ns);
	int (*job_result)(struct e1npu_device *dev, uint32_t job_id,
			  struct e1npu_hw_result *res);
	int (*read_perf)(struct e1npu_device *dev, struct e1npu_perf *perf);
};

extern const struct e1npu_backend_funcs e1npu_backend_sim;
extern const struct e1npu_backend_funcs e1npu_backend_kernel;

/*
 * Auto-detection for the kernel backend: first accel node driven by e1npu
 * into @path. 0, or -ENODEV when there is none.
 */
int e1npu_kernel_find_node(char *path, size_t len);

#endif /* __E1NPU_BACKEND_H__ */
