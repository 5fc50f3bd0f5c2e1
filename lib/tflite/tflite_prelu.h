/* SPDX-License-Identifier: MIT */
/*
 * uint8 PRELU with a broadcast alpha, as TFLite 2.2's activations.cc
 * (BroadcastPrelu4DSlow): an input at or above its zero point is copied
 * unchanged (whatever the scales), one below it becomes
 * clamp(zp_out + MBQMSmallerThanOneExp((x - zp_in)(a - zp_a), m, e)) with
 * m, e = QuantizeMultiplierSmallerThanOneExp(s_in * s_a / s_out in float).
 */
#ifndef E1NPU_TFLITE_PRELU_H
#define E1NPU_TFLITE_PRELU_H

#include <stdint.h>

#include <e1npu/e1npu_ops.h>

#include "tflite_bcast.h"

struct tfl_prelu {
	int32_t zp_in, zp_alpha, zp_out;
	int32_t mult;
	int shift;
};

/* 0, or -ERANGE when s_in * s_a / s_out is not in (0, 1) (2.2 aborts there). */
int tfl_prelu_prepare(struct tfl_prelu *p, struct e1npu_qparams qi, struct e1npu_qparams qa,
		      struct e1npu_qparams qo);

void tfl_prelu_run(const struct tfl_prelu *p, const struct tfl_bcast *bc, const uint8_t *in,
		   const uint8_t *alpha, uint8_t *out);

#endif
