/* SPDX-License-Identifier: (GPL-2.0-only OR MIT) */
/*
 * Interfaces between the model core (e1_model.c) and its two engines
 * (e1_v0.c, e1_dp.c). Not for hosts: they use e1_model.h only.
 */
#ifndef __E1_INTERNAL_H__
#define __E1_INTERNAL_H__

#include "e1_model.h"

/*
 * Map a bus range for the engine, applying injected faults first, then the
 * host's map. Returns E1_MEM_OK with *ptr set, or the bus's answer.
 */
enum e1_mem_status e1_model_mem_map(struct e1_model *m, u64 addr, u64 len,
				    bool write, void **ptr);

/*
 * The same, also returning in *@fault the first faulting bus address when
 * the answer is not E1_MEM_OK (the first byte inside an injected fault
 * range, or @addr when the host cannot map the range).
 */
enum e1_mem_status e1_model_mem_map_fault(struct e1_model *m, u64 addr,
					  u64 len, bool write, void **ptr,
					  u64 *fault);

/* Recompute every interrupt line and tell the host about changes. */
void e1_model_irq_update(struct e1_model *m);

/* v0 wrapper engine (e1_v0.c). */
void e1_v0_reset(struct e1_model *m);
u32 e1_v0_read(struct e1_model *m, u32 off);
void e1_v0_write(struct e1_model *m, u32 off, u32 val);
unsigned int e1_v0_run(struct e1_model *m, unsigned int max);
bool e1_v0_pending(const struct e1_model *m);
enum e1_step e1_v0_step_begin(struct e1_model *m);
void e1_v0_step_compute(struct e1_model *m);
bool e1_v0_step_end(struct e1_model *m);
u64 e1_v0_step_cycles(const struct e1_model *m);
bool e1_v0_irq_npu(const struct e1_model *m);
bool e1_v0_irq_fallback(const struct e1_model *m);

/* datapath engine (e1_dp.c). */
void e1_dp_reset(struct e1_model *m);
u32 e1_dp_read(struct e1_model *m, u32 off);
void e1_dp_write(struct e1_model *m, u32 off, u32 val);
bool e1_dp_irq(const struct e1_model *m);

#endif /* __E1_INTERNAL_H__ */
