/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * e1npu_sim buffer-ownership guard (test only): every memory access the
 * device model makes must lie in a buffer of the job that issued it.
 */
#ifndef __E1NPU_SIM_GUARD_H__
#define __E1NPU_SIM_GUARD_H__

#include <linux/types.h>

#include "e1npu_pdata.h"

struct e1_model;
struct e1sim_guard;

struct e1sim_guard *e1sim_guard_create(void);
void e1sim_guard_destroy(struct e1sim_guard *g);
void e1sim_guard_set(void *ctx, u32 engine, u32 first, u32 count, u32 nr,
		     e1npu_guard_range_fn range, const void *job);
void e1sim_guard_check(struct e1sim_guard *g, const struct e1_model *m,
		       bool datapath, u64 addr, u64 len, bool write);

#endif /* __E1NPU_SIM_GUARD_H__ */
