/* SPDX-License-Identifier: MIT */
/*
 * Quantized MUL (uint8, int8, broadcasting) as TFLite 2.2's mul.cc: the
 * product of the zero-point-free inputs requantized by in1 * in2 / out,
 * a multiplier formed in single precision (Documentation/quantization.md,
 * "MUL").
 */
#ifndef E1NPU_TFLITE_MUL_H
#define E1NPU_TFLITE_MUL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <e1npu/e1npu_ops.h>

#include "tflite_bcast.h"

struct tfl_mul {
	bool uint8;
	int32_t za, zb, zo, lo, hi, mult;
	int shift;
};

/* @act: enum e1npu_act. 0 or -EINVAL (no multiplier for the scales). */
int tfl_mul_prepare(struct tfl_mul *m, bool uint8, uint32_t act,
		    struct e1npu_qparams qa, struct e1npu_qparams qb,
		    struct e1npu_qparams qo);

void tfl_mul_run(const struct tfl_mul *m, const struct tfl_bcast *bc, const void *a,
		 const void *b, void *out);

#endif
