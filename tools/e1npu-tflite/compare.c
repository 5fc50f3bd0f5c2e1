// SPDX-License-Identifier: MIT
/* e1npu-tflite diff: per-layer comparison (compare.h). */
#include <stdlib.h>
#include <string.h>

#include "compare.h"

const char *cmp_bucket_name(unsigned int b)
{
	static const char *const names[CMP_BUCKETS] = {
		"0", "1", "2", "3-4", "5-8", "9-16", "17+"
	};

	return b < CMP_BUCKETS ? names[b] : "?";
}

static unsigned int bucket_of(int32_t d)
{
	if (d <= 2)
		return (unsigned int)d;
	if (d <= 4)
		return 3;
	if (d <= 8)
		return 4;
	if (d <= 16)
		return 5;
	return 6;
}

void cmp_tensors(const void *a, const void *b, size_t n, int is_signed,
		 struct cmp_result *r)
{
	const uint8_t *x = a, *y = b;

	memset(r, 0, sizeof(*r));
	r->count = n;
	r->first = n;
	for (size_t i = 0; i < n; i++) {
		int32_t u = is_signed ? (int8_t)x[i] : x[i];
		int32_t v = is_signed ? (int8_t)y[i] : y[i];
		int32_t d = abs(u - v);

		r->hist[bucket_of(d)]++;
		if (!d)
			continue;
		if (r->first == n)
			r->first = i;
		r->differ++;
		if (d > r->max_abs)
			r->max_abs = d;
	}
}
