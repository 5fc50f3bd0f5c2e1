/* SPDX-License-Identifier: MIT */
/*
 * GATHER of a uint8/int8 tensor by int32/int64 indices along one axis, as
 * TFLite 2.2's gather.cc (reference Gather): for every position before
 * the axis and every index, the block after the axis copied. TFLite 2.2
 * reads out of bounds on a bad index; here every index is checked first
 * and a bad one is an error that writes nothing.
 */
#ifndef E1NPU_TFLITE_GATHER_H
#define E1NPU_TFLITE_GATHER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tfl_gather {
	size_t outer, along, count, inner;	/* count: number of indices */
	bool idx64;
};

/* @dims/@ndims: the params shape; @axis in [0, ndims). 0 or -EINVAL. */
int tfl_gather_prepare(struct tfl_gather *g, const int32_t *dims, uint32_t ndims,
		       uint32_t axis, size_t count, bool idx64);

/* 0, or -EINVAL with the first index out of range in @bad, its position in @pos. */
int tfl_gather_check(const struct tfl_gather *g, const void *idx, int64_t *bad, size_t *pos);

/*
 * 0, or -EINVAL with the first bad index in @bad and its position in
 * @pos (nothing written).
 */
int tfl_gather_run(const struct tfl_gather *g, const uint8_t *params, const void *idx,
		   uint8_t *out, int64_t *bad, size_t *pos);

#endif
