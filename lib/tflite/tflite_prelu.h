/* SPDX-License-Identifier: MIT */
/*
 * uint8 PRELU with a broadcast alpha, as TFLite 2.2's activations.cc
 * (BroadcastPrelu4DSlow): an input at or above its zero point is copied
 * unchanged (whatever the scales), one below it becomes
 * clamp(zp_out + MBQMSmallerThanOneExp((x - zp_in)(a - zp_a), m, e)) with
 * m, e = QuantizeMultiplierSmallerThanOneExp(s_in * s_a / s_out in float).
 * TFLite 2.14 (reference_ops::BroadcastPrelu4DSlow, Prelu) rescales the
 * other side too: zp_out + MultiplyByQuantizedMultiplier(x - zp_in, m1,
 * e1), m1, e1 = QuantizeMultiplier(s_in / s_out in float), and takes any
 * multiplier QuantizeMultiplier forms.
 */
#ifndef E1NPU_TFLITE_PRELU_H
#define E1NPU_TFLITE_PRELU_H

#include <stdbool.h>
#include <stdint.h>

#include <e1npu/e1npu_ops.h>

#include "tflite_bcast.h"

struct tfl_prelu {
	bool tfl214;		/* TFLite 2.14's arithmetic */
	int32_t zp_in, zp_alpha, zp_out;
	int32_t mult;		/* below the zero point */
	int shift;
	int32_t mult1;		/* 2.14: at or above it */
	int shift1;
};

/*
 * 0, or -ERANGE when s_in * s_a / s_out is not in (0, 1) (2.2 aborts
 * there; @tfl214: when a multiplier is not representable).
 */
int tfl_prelu_prepare(struct tfl_prelu *p, bool tfl214, struct e1npu_qparams qi,
		      struct e1npu_qparams qa, struct e1npu_qparams qo);

void tfl_prelu_run(const struct tfl_prelu *p, const struct tfl_bcast *bc, const uint8_t *in,
		   const uint8_t *alpha, uint8_t *out);

#endif
