/* SPDX-License-Identifier: MIT */
/*
 * ARG_MAX / ARG_MIN of a uint8/int8 tensor along one axis, as TFLite 2.2's
 * arg_min_max.cc: the stored values compared (no dequantization), the
 * first index of the largest (smallest) value wins a tie, the index
 * written as int32 or int64.
 */
#ifndef E1NPU_TFLITE_ARGMAX_H
#define E1NPU_TFLITE_ARGMAX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tfl_argmax {
	size_t outer, along, inner;	/* elements before, at, after the axis */
	bool min, in_signed, out64;
};

/* @dims/@ndims: the input shape; @axis in [0, ndims). 0 or -EINVAL. */
int tfl_argmax_prepare(struct tfl_argmax *a, const int32_t *dims, uint32_t ndims,
		       uint32_t axis, bool min, bool in_signed, bool out64);

void tfl_argmax_run(const struct tfl_argmax *a, const void *in, void *out);

#endif
