// SPDX-License-Identifier: MIT
/* TRANSPOSE and SLICE as strided copies (tflite_layout.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include "tflite_layout.h"

/* Row-major strides of @dims, written to @st. */
static void strides(const int32_t *dims, uint32_t ndims, ptrdiff_t *st)
{
	ptrdiff_t s = 1;

	for (uint32_t d = ndims; d-- > 0;) {
		st[d] = s;
		s *= dims[d];
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
	ptrdiff_t st[4];
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
	ptrdiff_t st[4];
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
		x->offset += (size_t)begin[k] * (size_t)st[k];
	}
	return 0;
}

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

int tfl_strided_slice_prepare(struct tfl_layout *x, const int32_t *dims, uint32_t ndims,
			      const int32_t *begin, const int32_t *end,
			      const int32_t *strides_, int32_t begin_mask,
			      int32_t end_mask, int32_t shrink_mask, int32_t *out_dims,
			      uint32_t *out_ndims)
{
	ptrdiff_t st[4];
	uint32_t lead = 4 - ndims, n = 0;

	if (ndims > 4)
		return -EINVAL;
	init(x);
	strides(dims, ndims, st);
	for (uint32_t k = 0; k < ndims; k++) {
		int64_t size = dims[k], s = strides_[k], start = begin[k], stop = end[k], cnt;
		bool shrink = shrink_mask & (1 << k);

		if (!s)
			return -EINVAL;
		/* StartForAxis: the mask, negative indices, clamp to [0, size - 1] */
		if (begin_mask & (1 << k))
			start = s > 0 ? INT32_MIN : INT32_MAX;
		if (start < 0)
			start += size;
		start = clamp64(start, 0, size - 1);
		/* StopForAxis: shrink gives one element, then the mask, clamp by direction */
		if (shrink)
			stop = start + 1;
		if (end_mask & (1 << k))
			stop = s > 0 ? INT32_MAX : INT32_MIN;
		if (stop < 0)
			stop += size;
		stop = s > 0 ? clamp64(stop, 0, size) : clamp64(stop, -1, size - 1);
		/* the loop's element count: from start while (s > 0 ? i < stop : i > stop) */
		cnt = s > 0 ? (stop > start ? (stop - start + s - 1) / s : 0) :
			      (start > stop ? (start - stop - s - 1) / -s : 0);
		if (!cnt)
			return -EINVAL;
		x->out[lead + k] = (int32_t)cnt;
		x->stride[lead + k] = (ptrdiff_t)s * st[k];
		x->offset += (size_t)start * (size_t)st[k];
		if (!shrink)
			out_dims[n++] = (int32_t)cnt;
	}
	*out_ndims = n;
	return 0;
}

void tfl_layout_run(const struct tfl_layout *x, const uint8_t *in, uint8_t *out)
{
	for (int32_t a = 0; a < x->out[0]; a++)
	for (int32_t b = 0; b < x->out[1]; b++)
	for (int32_t c = 0; c < x->out[2]; c++) {
		/* the index whole before the pointer: no pointer outside the input */
		ptrdiff_t base = (ptrdiff_t)x->offset + a * x->stride[0] + b * x->stride[1] +
				 c * x->stride[2];

		for (int32_t d = 0; d < x->out[3]; d++)
			*out++ = in[base + d * x->stride[3]];
	}
}
