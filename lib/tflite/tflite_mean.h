/* SPDX-License-Identifier: MIT */
/*
 * Quantized MEAN over H and W of a [1, H, W, C] tensor, in the form TFLite
 * 2.2's built-in kernel picks (reduce.cc EvalMean): each form rounds
 * differently, so each is kept (Documentation/quantization.md, "MEAN").
 */
#ifndef E1NPU_TFLITE_MEAN_H
#define E1NPU_TFLITE_MEAN_H

#include <stdbool.h>
#include <stdint.h>

#include <e1npu/e1npu_ops.h>

enum tfl_mean_form {
	TFL_MEAN_INT8_4D,	/* int8, keep_dims: reference_integer_ops::Mean */
	/* uint8, keep_dims: the legacy uint8 Mean (2.14: int8 too, its
	 * optimized_integer_ops::Mean, and the bias's in_zp * in / out
	 * rounded, not truncated) */
	TFL_MEAN_UINT8_4D,
	TFL_MEAN_SAME_QUANT,	/* same scale and zero point: sum / n */
	TFL_MEAN_FLOAT,		/* otherwise: QuantizedMeanOrSum, in float */
	/* TFLite 2.14, keep_dims false: reference QuantizedMeanOrSum, in
	 * integers (in/out multiplier folded with 1/n) */
	TFL_MEAN_INT_2_14,
};

struct tfl_mean {
	enum tfl_mean_form form;
	bool uint8;
	uint32_t h, w, c;
	int32_t in_zp, out_zp, lo, hi;
	int32_t mult, bias;
	int shift;
	float scale, fbias;
};

/*
 * 0, or -EINVAL when a multiplier is not representable. @tfl214: the
 * forms of TFLite 2.14 (enum e1npu_tflite_ref), else 2.2's.
 */
int tfl_mean_prepare(struct tfl_mean *m, bool tfl214, bool uint8, bool keep_dims,
		     uint32_t h, uint32_t w, uint32_t c,
		     struct e1npu_qparams qi, struct e1npu_qparams qo);

void tfl_mean_run(const struct tfl_mean *m, const void *in, void *out);

#endif
