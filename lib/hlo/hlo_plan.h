/* SPDX-License-Identifier: MIT */
/* Batches and the arena of a function's NPU ops (hlo_plan.c). */
#ifndef __E1NPU_HLO_PLAN_H__
#define __E1NPU_HLO_PLAN_H__

#include "hlo.h"

void hlo_plan_batches(struct hlo_func *f);
void hlo_plan_arena(struct hlo_func *f);

#endif /* __E1NPU_HLO_PLAN_H__ */
