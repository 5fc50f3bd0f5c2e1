/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Platform data the e1npu_sim module hands to e1npu.ko. A real board has no
 * platform data: the driver maps its "wrapper" and "datapath" MMIO windows
 * itself. The simulator has no MMIO, so it gives the driver register maps
 * over the device model instead; everything above register access is the
 * same code on both.
 */
#ifndef __E1NPU_PDATA_H__
#define __E1NPU_PDATA_H__

#include <linux/types.h>

struct regmap;

/* Platform device name the driver binds to besides the DT compatible. */
#define E1NPU_SIM_DEVICE_NAME	"e1npu-sim"

/* Interrupt resource names, as in the device-tree binding. */
#define E1NPU_IRQ_NAME_NPU	"npu"
#define E1NPU_IRQ_NAME_FALLBACK	"fallback"
#define E1NPU_IRQ_NAME_DATAPATH	"datapath"

/**
 * typedef e1npu_guard_range_fn - buffer @i of a job, for the guard hook
 * @job: the job passed to &e1npu_platform_data.guard_job
 * @i: 0 .. nr - 1
 * @start: device address of the buffer
 * @len: its size in bytes
 */
typedef void (*e1npu_guard_range_fn)(const void *job, u32 i, u64 *start,
				     u64 *len);

/**
 * struct e1npu_platform_data - register access supplied by a simulator
 * @wrapper: regmap over the v0 wrapper window, or NULL when absent
 * @datapath: regmap over the datapath window, or NULL when absent
 * @guard_job: test only, may be NULL: before the driver hands a job to the
 *	engine, it reports the @nr buffers the job may touch (@range(@job, i)
 *	gives buffer i) for the job of @engine (enum drm_e1npu_engine) whose
 *	descriptors are in ring slots [@first, @first + @count) (datapath:
 *	slot 0, count 1). Called from run_job: it must not sleep or enter
 *	reclaim. The simulator checks every memory access of the device
 *	against these buffers.
 * @guard_ctx: passed back to @guard_job
 */
struct e1npu_platform_data {
	struct regmap *wrapper;
	struct regmap *datapath;
	void (*guard_job)(void *ctx, u32 engine, u32 first, u32 count, u32 nr,
			  e1npu_guard_range_fn range, const void *job);
	void *guard_ctx;
};

#endif /* __E1NPU_PDATA_H__ */
