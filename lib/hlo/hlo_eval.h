/* SPDX-License-Identifier: MIT */
/* The CPU evaluator (hlo_eval.c). */
#ifndef __E1NPU_HLO_EVAL_H__
#define __E1NPU_HLO_EVAL_H__

#include "hlo.h"

/* One op on the CPU; @in are the operands, @out the results. */
int hlo_eval_op(struct e1npu_hlo *h, const struct hlo_op *op,
		struct hlo_tensor *in, struct hlo_tensor *out);
int64_t hlo_quantize_value(const struct hlo_type *t, int64_t ch, double x);
double hlo_dequant(const struct hlo_type *t, int64_t ch, int64_t q);

#endif /* __E1NPU_HLO_EVAL_H__ */
