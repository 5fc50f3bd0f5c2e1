/* SPDX-License-Identifier: MIT */
/*
 * Quantized SUB (uint8, int8, broadcasting) as TFLite 2.2's sub.cc: ADD's
 * rescaling (left shift 20, each input over twice the larger input scale,
 * e1q_add_rescale), the scaled second input subtracted from the first
 * (Documentation/quantization.md, "SUB").
 */
#ifndef E1NPU_TFLITE_SUB_H
#define E1NPU_TFLITE_SUB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <e1npu/e1npu_ops.h>

#include "quant.h"
#include "tflite_bcast.h"

struct tfl_sub {
	bool uint8;
	int32_t sign;		/* -1: SUB; +1: broadcasting ADD (add.cc's same arithmetic) */
	int32_t za, zb, zo, lo, hi;
	struct e1q_add_rescale rs;
};

/* @act: enum e1npu_act. 0, or -EINVAL when a multiplier is out of range. */
int tfl_sub_prepare(struct tfl_sub *s, bool uint8, uint32_t act,
		    struct e1npu_qparams qa, struct e1npu_qparams qb,
		    struct e1npu_qparams qo);

/* Broadcasting ADD (BroadcastAdd4DSlow): SUB's prepare, the second input added. */
int tfl_add_prepare(struct tfl_sub *s, bool uint8, uint32_t act,
		    struct e1npu_qparams qa, struct e1npu_qparams qb,
		    struct e1npu_qparams qo);

void tfl_sub_run(const struct tfl_sub *s, const struct tfl_bcast *bc, const void *a,
		 const void *b, void *out);

#endif
