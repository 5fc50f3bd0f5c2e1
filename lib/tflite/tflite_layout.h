/* SPDX-License-Identifier: MIT */
/*
 * TRANSPOSE and SLICE of 8-bit tensors of rank <= 4: both copy the stored
 * values (no rescale, as TFLite 2.2's transpose.cc and slice.cc), each
 * output element from one input element, as a strided 4-D walk.
 */
#ifndef E1NPU_TFLITE_LAYOUT_H
#define E1NPU_TFLITE_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

struct tfl_layout {
	int32_t out[4];		/* output shape, extended to 4-D */
	size_t stride[4];	/* input elements per step of each output axis */
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

void tfl_layout_run(const struct tfl_layout *x, const uint8_t *in, uint8_t *out);

#endif
