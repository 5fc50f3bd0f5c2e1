/* SPDX-License-Identifier: MIT */
/*
 * Where a prepared lowering object will run and what it will cost, without
 * running it (e1npu-tflite report, lib/tflite/tflite_report.c): the same
 * engine selection and the same modelled cycles as e1npu_conv_run() picks
 * from. Internal to the build: not in libe1npu.sym.
 */
#ifndef __E1NPU_OPS_PLAN_H__
#define __E1NPU_OPS_PLAN_H__

#include <stdbool.h>
#include <stdint.h>

#include <e1npu/e1npu_ops.h>

/*
 * ops_conv_plan() - @rep's kind, engine, reason, why, macs and
 * wrapper_cycles (the modelled cycles of the chosen form: patch-Toeplitz
 * MATMULs or CONV2D_S8 blocks; 0 on the CPU) for one run of @conv.
 */
int ops_conv_plan(const struct e1npu_conv *conv, struct e1npu_ops_report *rep);

/*
 * ops_plan_choice() - the engine and reason of the selection policy for
 * the operations without a prepared object: @kind E1NPU_OPS_FULLY_CONNECTED
 * (@m x @n x @k GEMM), E1NPU_OPS_MAXPOOL (@hw: the geometry fits
 * MAXPOOL_S8), or any other kind (no hardware form: the CPU). The words
 * of the reason go to @rep->why.
 */
void ops_plan_choice(const struct e1npu_ops *ops, uint32_t kind, uint32_t m,
		     uint32_t n, uint32_t k, bool hw, struct e1npu_ops_report *rep);

/*
 * Why the host computes the operations without a hardware form: the words
 * after the selection reason in e1npu_ops_avgpool/add/softmax's report, and
 * in the plan's (tflite_report.c), one text for both.
 */
#define OPS_WHY_AVGPOOL "rounded division by the valid-tap count (TFLite), no hardware divider"
#define OPS_WHY_ADD \
	"each input is rescaled by its own fixed-point multiplier (the datapath ADD has no rescale)"
#define OPS_WHY_SOFTMAX \
	"TFLite's fixed-point exp and reciprocal (EXP2_NEG_Q0_8 is only 2^-n, not exact)"

#endif /* __E1NPU_OPS_PLAN_H__ */
