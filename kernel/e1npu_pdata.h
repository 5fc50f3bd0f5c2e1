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

struct regmap;

/* Platform device name the driver binds to besides the DT compatible. */
#define E1NPU_SIM_DEVICE_NAME	"e1npu-sim"

/* Interrupt resource names, as in the device-tree binding. */
#define E1NPU_IRQ_NAME_NPU	"npu"
#define E1NPU_IRQ_NAME_FALLBACK	"fallback"
#define E1NPU_IRQ_NAME_DATAPATH	"datapath"

/**
 * struct e1npu_platform_data - register access supplied by a simulator
 * @wrapper: regmap over the v0 wrapper window, or NULL when absent
 * @datapath: regmap over the datapath window, or NULL when absent
 */
struct e1npu_platform_data {
	struct regmap *wrapper;
	struct regmap *datapath;
};

#endif /* __E1NPU_PDATA_H__ */
