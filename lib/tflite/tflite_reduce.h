/* SPDX-License-Identifier: MIT */
/*
 * REDUCE_MAX, REDUCE_MIN and SUM of a uint8/int8 tensor over any set of
 * axes, as TFLite 2.2's reduce.cc: max/min compare the stored values (no
 * rescale); SUM with the input's scale and zero point on the output adds
 * the stored values in the 8-bit type itself (2.2's generic reducer: they
 * wrap modulo 256), otherwise QuantizedMeanOrSum's float form,
 * (T)((int32)roundf(sum * s + b) + zp_out) with s = s_in / s_out and
 * b = -zp_in * s * n + 0.5 in float, no clamp (Documentation/quantization.md).
 * TFLite 2.14's SUM takes optimized_ops::QuantizedMeanOrSum whatever the
 * quantization: clamp((int32)roundf(sum * s + b) + zp_out) with
 * b = -zp_in * s * n (no 0.5).
 */
#ifndef E1NPU_TFLITE_REDUCE_H
#define E1NPU_TFLITE_REDUCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tflite_reader.h"

enum tfl_reduce_kind {
	TFL_REDUCE_MAX,
	TFL_REDUCE_MIN,
	TFL_REDUCE_SUM_WRAP,		/* same quantization: 8-bit sum */
	TFL_REDUCE_SUM_RESCALE,		/* QuantizedMeanOrSum(compute_sum) */
	TFL_REDUCE_SUM_2_14,		/* TFLite 2.14's, clamped */
};

struct tfl_reduce {
	enum tfl_reduce_kind kind;
	bool is_int8;
	uint32_t ndims;
	int32_t dims[TFL_MAX_DIMS];
	size_t ostride[TFL_MAX_DIMS];	/* output stride per input axis, 0: reduced */
	size_t nin, nout;
	float scale, bias;
	int32_t zp_out;
	uint32_t *acc;			/* SUM_RESCALE, SUM_2_14: the int32 sums */
};

/*
 * Resolve @axes (@naxes of them, negative from the end, repeats allowed)
 * against the input's @dims / @ndims and fill the output shape
 * (@keep_dims: reduced axes as 1, else dropped). 0, or -EINVAL with
 * *@bad the first axis out of [-ndims, ndims).
 */
int tfl_reduce_prepare(struct tfl_reduce *r, enum tfl_reduce_kind kind, bool is_int8,
		       const int32_t *dims, uint32_t ndims, const int32_t *axes, uint32_t naxes,
		       bool keep_dims, int32_t *out_dims, uint32_t *out_ndims, int32_t *bad);

/* SUM_RESCALE, SUM_2_14: the scales, zero points and the sums' buffer. 0 or -ENOMEM. */
int tfl_reduce_rescale(struct tfl_reduce *r, float s_in, int32_t zp_in, float s_out,
		       int32_t zp_out);

void tfl_reduce_free(struct tfl_reduce *r);

void tfl_reduce_run(const struct tfl_reduce *r, const uint8_t *in, uint8_t *out);

#endif
