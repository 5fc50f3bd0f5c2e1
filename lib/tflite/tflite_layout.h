/* SPDX-License-Identifier: MIT */
/*
 * TRANSPOSE, SLICE and STRIDED_SLICE of 8-bit tensors of rank <= 4: they
 * copy the stored values (no rescale, as TFLite 2.2's transpose.cc,
 * slice.cc and strided_slice.cc), each output element from one input
 * element, as a strided 4-D walk (strides may be negative).
 */
#ifndef E1NPU_TFLITE_LAYOUT_H
#define E1NPU_TFLITE_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

struct tfl_layout {
	int32_t out[4];		/* output shape, extended to 4-D */
	ptrdiff_t stride[4];	/* input elements per step of each output axis */
	size_t offset;		/* input element of output element 0 */
};

/*
 * TRANSPOSE: output axis k is input axis perm[k]. Fills @out_dims.
 * 0, or -EINVAL for a perm that is not a permutation of 0 .. ndims - 1.
 */
int tfl_transpose_prepare(struct tfl_layout *x, const int32_t *dims, uint32_t ndims,
			  const int32_t *perm, int32_t *out_dims);

/*
 * SLICE: @begin and @size per axis (size -1: to the end). Fills
 * @out_dims. 0, or -EINVAL for a slice outside the input.
 */
int tfl_slice_prepare(struct tfl_layout *x, const int32_t *dims, uint32_t ndims,
		      const int32_t *begin, const int32_t *size, int32_t *out_dims);

/*
 * STRIDED_SLICE as strided_slice_logic.h's StartForAxis / StopForAxis:
 * @begin, @end, @strides per axis, the begin, end and shrink-axis masks
 * (ellipsis and new-axis masks are refused by the caller). Fills
 * @out_dims without the shrunk axes and sets *@out_ndims. 0, or -EINVAL
 * (a zero stride or an empty result).
 */
int tfl_strided_slice_prepare(struct tfl_layout *x, const int32_t *dims, uint32_t ndims,
			      const int32_t *begin, const int32_t *end,
			      const int32_t *strides, int32_t begin_mask,
			      int32_t end_mask, int32_t shrink_mask, int32_t *out_dims,
			      uint32_t *out_ndims);

void tfl_layout_run(const struct tfl_layout *x, const uint8_t *in, uint8_t *out);

#endif
