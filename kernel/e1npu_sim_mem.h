/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * e1npu_sim: device memory other than the direct map (e1npu_sim_mem.c):
 * a toy IOMMU (fake_iommu=1) and a DT reserved region (of_node=PATH).
 */
#ifndef __E1NPU_SIM_MEM_H__
#define __E1NPU_SIM_MEM_H__

#include <linux/types.h>

struct device;
struct device_node;

int e1sim_mem_init(const char *of_path, bool fake_iommu,
		   struct device_node **np);
void e1sim_mem_attach(struct device *dev);
void *e1sim_mem_map(u64 addr, u64 last, bool *handled);
void e1sim_mem_fini(void);

#endif /* __E1NPU_SIM_MEM_H__ */
