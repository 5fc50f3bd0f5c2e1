// SPDX-License-Identifier: MIT
#include <errno.h>

#include "lowp.h"

static int to_q88(int neg, int exp2, uint32_t mant, int mant_bits, int32_t *q)
{
	/* value = mant * 2^(exp2 - mant_bits); q = round(value * 256) */
	int sh = exp2 - mant_bits + 8;
	uint64_t mag;

	if (sh >= 0) {
		if (sh > 20)
			return -ERANGE;
		mag = (uint64_t)mant << sh;
	} else if (-sh >= 40) {
		mag = 0;
	} else {
		mag = ((uint64_t)mant + (1ULL << (-sh - 1))) >> -sh;
	}
	if (mag > 32639)	/* |x| >= 127.5 after rounding */
		return -ERANGE;
	*q = neg ? -(int32_t)mag : (int32_t)mag;
	return 0;
}

int lowp_fp16_to_q88(uint16_t h, int32_t *q)
{
	int e = (h >> 10) & 31;
	uint32_t m = h & 1023;

	if (e == 31 || (e == 0 && m))
		return -ERANGE;
	if (e == 0) {
		*q = 0;
		return 0;
	}
	return to_q88(h >> 15, e - 15, 1024 + m, 10, q);
}

int lowp_bf16_to_q88(uint16_t h, int32_t *q)
{
	int e = (h >> 7) & 255;
	uint32_t m = h & 127;

	if (e == 255 || (e == 0 && m))
		return -ERANGE;
	if (e == 0) {
		*q = 0;
		return 0;
	}
	return to_q88(h >> 15, e - 127, 128 + m, 7, q);
}
