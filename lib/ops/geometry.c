// SPDX-License-Identifier: MIT
/*
 * Output size and leading padding of one spatial axis of a window
 * operation (convolution, pooling), as TFLite/TensorFlow define SAME and
 * VALID. The lowering's own copy: lib/ref/ is the tests' oracle and is not
 * used by the library's arithmetic.
 */
#include "ops_internal.h"

void ops_axis_geometry(uint32_t padding, uint32_t in, uint32_t filter,
		       uint32_t stride, uint32_t dil, uint32_t *out,
		       uint32_t *pad_before)
{
	/* The window's extent once dilated: taps are dil apart. */
	int64_t span = 1 + (int64_t)dil * ((int64_t)filter - 1);
	int64_t n, overhang;

	n = padding == E1NPU_PAD_SAME ?
	    ((int64_t)in + stride - 1) / stride :	/* ceil(in / stride) */
	    ((int64_t)in - span) / stride + 1;	/* windows that fit */
	if (n < 0 || (padding != E1NPU_PAD_SAME && (int64_t)in < span))
		n = 0;
	/* SAME pads the overhang of the last window, the smaller half first. */
	overhang = (n - 1) * (int64_t)stride + span - (int64_t)in;
	*out = (uint32_t)n;
	*pad_before = overhang > 0 ? (uint32_t)(overhang / 2) : 0;
}
