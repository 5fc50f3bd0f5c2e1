// SPDX-License-Identifier: MIT
/* GATHER (tflite_gather.h): byte blocks, any 8-bit type. */
#include <errno.h>
#include <string.h>

#include "tflite_gather.h"

int tfl_gather_prepare(struct tfl_gather *g, const int32_t *dims, uint32_t ndims,
		       uint32_t axis, size_t count, bool idx64)
{
	if (axis >= ndims)
		return -EINVAL;
	g->outer = g->inner = 1;
	for (uint32_t d = 0; d < axis; d++)
		g->outer *= (size_t)dims[d];
	for (uint32_t d = axis + 1; d < ndims; d++)
		g->inner *= (size_t)dims[d];
	g->along = (size_t)dims[axis];
	g->count = count;
	g->idx64 = idx64;
	return 0;
}

static int64_t index_at(const struct tfl_gather *g, const void *idx, size_t i)
{
	if (g->idx64) {
		int64_t v;

		memcpy(&v, (const uint8_t *)idx + 8 * i, 8);
		return v;
	} else {
		int32_t v;

		memcpy(&v, (const uint8_t *)idx + 4 * i, 4);
		return v;
	}
}

int tfl_gather_check(const struct tfl_gather *g, const void *idx, int64_t *bad, size_t *pos)
{
	for (size_t i = 0; i < g->count; i++) {
		int64_t v = index_at(g, idx, i);

		if (v < 0 || (uint64_t)v >= g->along) {
			*bad = v;
			*pos = i;
			return -EINVAL;
		}
	}
	return 0;
}

int tfl_gather_run(const struct tfl_gather *g, const uint8_t *params, const void *idx,
		   uint8_t *out, int64_t *bad, size_t *pos)
{
	if (tfl_gather_check(g, idx, bad, pos))
		return -EINVAL;
	for (size_t o = 0; o < g->outer; o++)
		for (size_t i = 0; i < g->count; i++) {
			size_t src = (o * g->along + (size_t)index_at(g, idx, i)) * g->inner;

			memcpy(out, params + src, g->inner);
			out += g->inner;
		}
	return 0;
}
