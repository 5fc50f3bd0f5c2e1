// SPDX-License-Identifier: MIT
/*
 * The comparison npu-smoke smoke's verdicts rest on, and the output
 * checksum; small and separate so tests/tools/test-smoke-check.c can prove
 * a wrong reference is caught.
 */
#include <stdio.h>
#include <string.h>

#include "smoke-lowered.h"

uint64_t smoke_fnv1a(uint64_t h, const void *p, size_t n)
{
	const uint8_t *b = p;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= b[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

static size_t elem_size(enum smoke_elem type)
{
	return type == SMOKE_S32 ? 4 : 1;
}

static long long elem(const void *p, size_t i, enum smoke_elem type)
{
	int32_t v;

	switch (type) {
	case SMOKE_S8:
		return ((const int8_t *)p)[i];
	case SMOKE_U8:
		return ((const uint8_t *)p)[i];
	default:
		memcpy(&v, (const uint8_t *)p + 4 * i, 4);
		return v;
	}
}

bool smoke_compare(const void *got, const void *want, size_t n,
		   enum smoke_elem type, char *msg, size_t len)
{
	size_t es = elem_size(type), i, first = 0, bad = 0;

	/* memcmp first: the common, passing case costs one pass. */
	if (!n || !memcmp(got, want, n * es))
		return true;
	for (i = 0; i < n; i++) {
		if (!memcmp((const uint8_t *)got + i * es,
			    (const uint8_t *)want + i * es, es))
			continue;
		if (!bad++)
			first = i;
	}
	if (msg && len)
		snprintf(msg, len, "element %zu of %zu: got %lld, expected %lld (%zu differ)",
			 first, n, elem(got, first, type), elem(want, first, type), bad);
	return false;
}

const char *smoke_reason_name(uint32_t reason)
{
	return e1npu_ops_reason_name(reason);	/* the library's names */
}
