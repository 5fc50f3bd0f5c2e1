/* SPDX-License-Identifier: MIT */
/*
 * SPLIT, SPLIT_V, UNPACK (one tensor cut along an axis into parts) and
 * PACK (parts joined along a new axis) of uint8/int8 tensors, as TFLite
 * 2.2's split.cc, split_v.cc, unpack.cc and pack.cc: the stored values
 * moved, no rescale. Both are "outer" runs of per-part byte blocks.
 */
#ifndef E1NPU_TFLITE_SPLIT_H
#define E1NPU_TFLITE_SPLIT_H

#include <stddef.h>
#include <stdint.h>

/* Most parts of one SPLIT/SPLIT_V/UNPACK/PACK (outputs or inputs). */
#define TFL_SPLIT_MAX	64

struct tfl_split {
	uint32_t n;
	size_t outer;			/* elements before the axis */
	size_t part[TFL_SPLIT_MAX];	/* each part's elements from the axis on */
};

/*
 * Cut along @axis of @dims/@ndims into @n parts of @sizes[k] (summing to
 * dims[axis]); UNPACK is n = dims[axis] parts of 1. 0 or -EINVAL.
 */
int tfl_split_prepare(struct tfl_split *s, const int32_t *dims, uint32_t ndims,
		      uint32_t axis, uint32_t n, const int32_t *sizes);

/* Split: @in cut into @out[0..n-1]. Join (PACK): @in[0..n-1] into @out. */
void tfl_split_run(const struct tfl_split *s, const uint8_t *in, uint8_t *const *out);
void tfl_join_run(const struct tfl_split *s, const uint8_t *const *in, uint8_t *out);

#endif
