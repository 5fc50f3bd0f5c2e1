// SPDX-License-Identifier: MIT
/* SPLIT, SPLIT_V, UNPACK, PACK (tflite_split.h): byte blocks, any 8-bit type. */
#include <errno.h>
#include <string.h>

#include "tflite_split.h"

int tfl_split_prepare(struct tfl_split *s, const int32_t *dims, uint32_t ndims,
		      uint32_t axis, uint32_t n, const int32_t *sizes)
{
	size_t inner = 1;
	int64_t sum = 0;

	if (axis >= ndims || !n || n > TFL_SPLIT_MAX)
		return -EINVAL;
	s->n = n;
	s->outer = 1;
	for (uint32_t d = 0; d < axis; d++)
		s->outer *= (size_t)dims[d];
	for (uint32_t d = axis + 1; d < ndims; d++)
		inner *= (size_t)dims[d];
	for (uint32_t k = 0; k < n; k++) {
		if (sizes[k] < 0)
			return -EINVAL;
		sum += sizes[k];
		s->part[k] = (size_t)sizes[k] * inner;
	}
	return sum == dims[axis] ? 0 : -EINVAL;
}

void tfl_split_run(const struct tfl_split *s, const uint8_t *in, uint8_t *const *out)
{
	for (size_t o = 0; o < s->outer; o++)
		for (uint32_t k = 0; k < s->n; k++) {
			memcpy(out[k] + o * s->part[k], in, s->part[k]);
			in += s->part[k];
		}
}

void tfl_join_run(const struct tfl_split *s, const uint8_t *const *in, uint8_t *out)
{
	for (size_t o = 0; o < s->outer; o++)
		for (uint32_t k = 0; k < s->n; k++) {
			memcpy(out, in[k] + o * s->part[k], s->part[k]);
			out += s->part[k];
		}
}
