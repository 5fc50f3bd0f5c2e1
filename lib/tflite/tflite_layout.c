// SPDX-License-Identifier: MIT
/* TRANSPOSE and SLICE as strided copies (tflite_layout.h). */
#include <errno.h>
#include <stdbool.h>

#include "tflite_layout.h"

/* Row-major strides of @dims, written to @st. */
static void strides(const int32_t *dims, uint32_t ndims, size_t *st)
{
	size_t s = 1;

	for (uint32_t d = ndims; d-- > 0;) {
		st[d] = s;
		s *= (size_t)dims[d];
	}
}

/* The leading 4 - ndims axes of size 1. */
static void init(struct tfl_layout *x)
{
	for (int d = 0; d < 4; d++) {
		x->out[d] = 1;
		x->stride[d] = 0;
	}
	x->offset = 0;
}

int tfl_transpose_prepare(struct tfl_layout *x, const int32_t *dims, uint32_t ndims,
			  const int32_t *perm, int32_t *out_dims)
{
	size_t st[4];
	bool seen[4] = { false, false, false, false };
	uint32_t lead = 4 - ndims;

	if (ndims > 4)
		return -EINVAL;
	init(x);
	strides(dims, ndims, st);
	for (uint32_t k = 0; k < ndims; k++) {
		if (perm[k] < 0 || (uint32_t)perm[k] >= ndims || seen[perm[k]])
			return -EINVAL;
		seen[perm[k]] = true;
		out_dims[k] = x->out[lead + k] = dims[perm[k]];
		x->stride[lead + k] = st[perm[k]];
	}
	return 0;
}

int tfl_slice_prepare(struct tfl_layout *x, const int32_t *dims, uint32_t ndims,
		      const int32_t *begin, const int32_t *size, int32_t *out_dims)
{
	size_t st[4];
	uint32_t lead = 4 - ndims;

	if (ndims > 4)
		return -EINVAL;
	init(x);
	strides(dims, ndims, st);
	for (uint32_t k = 0; k < ndims; k++) {
		int64_t n = size[k] == -1 ? (int64_t)dims[k] - begin[k] : size[k];

		if (begin[k] < 0 || n < 0 || (int64_t)begin[k] + n > dims[k])
			return -EINVAL;
		out_dims[k] = x->out[lead + k] = (int32_t)n;
		x->stride[lead + k] = st[k];
		x->offset += (size_t)begin[k] * st[k];
	}
	return 0;
}

void tfl_layout_run(const struct tfl_layout *x, const uint8_t *in, uint8_t *out)
{
	for (int32_t a = 0; a < x->out[0]; a++)
	for (int32_t b = 0; b < x->out[1]; b++)
	for (int32_t c = 0; c < x->out[2]; c++) {
		const uint8_t *src = in + x->offset + a * x->stride[0] + b * x->stride[1] +
				     c * x->stride[2];

		for (int32_t d = 0; d < x->out[3]; d++)
			*out++ = src[(size_t)d * x->stride[3]];
	}
}
