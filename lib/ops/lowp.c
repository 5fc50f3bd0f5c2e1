// SPDX-License-Identifier: MIT
#include <errno.h>

#include "e1npu_hw.h"
#include "lowp.h"

bool lowp_fp8_to_q88(uint8_t v, int32_t *q)
{
	uint32_t e = (v >> 3) & 15, m = v & 7;
	int32_t mag;

	if ((v & 0x7f) == 0x7f)
		return false;
	if (e == 0)
		mag = (int32_t)(m >> 1);
	else if (e == 1)
		mag = (int32_t)((8 + m) >> 1);
	else
		mag = (int32_t)((8 + m) << (e - 2));
	*q = v & 0x80 ? -mag : mag;
	return true;
}

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

static int32_t s4(uint32_t w, int i)
{
	int v = (w >> (4 * i)) & 15;

	return v >= 8 ? v - 16 : v;
}

static bool lane2(uint32_t w, int i, bool ternary, int32_t *v)
{
	uint32_t b = (w >> (2 * i)) & 3;

	if (ternary) {
		if (b == 3)
			return false;
		*v = b == 0 ? 0 : b == 1 ? 1 : -1;
	} else {
		*v = b >= 2 ? (int32_t)b - 4 : (int32_t)b;
	}
	return true;
}

bool lowp_dp_scalar(uint32_t op, uint32_t a, uint32_t b, uint32_t acc,
		    bool ternary, uint32_t *result, uint32_t *result_hi)
{
	uint32_t r = 0;
	bool sext = true;
	int i;

	switch (op) {
	case E1_DP_OP_ADD:
		r = a + b;
		sext = false;
		break;
	case E1_DP_OP_SUB:
		r = a - b;
		sext = false;
		break;
	case E1_DP_OP_MUL_LO: {
		uint64_t p = (uint64_t)a * b;

		*result = (uint32_t)p;
		*result_hi = (uint32_t)(p >> 32);
		return true;
	}
	case E1_DP_OP_MAC_S16:
		r = (uint32_t)((int32_t)(int16_t)a * (int16_t)b) + acc;
		break;
	case E1_DP_OP_DOT4_S8:
		r = acc;
		for (i = 0; i < 4; i++)
			r += (uint32_t)((int8_t)(a >> (8 * i)) * (int8_t)(b >> (8 * i)));
		break;
	case E1_DP_OP_MAX_U32:
		r = a > b ? a : b;
		sext = false;
		break;
	case E1_DP_OP_MIN_U32:
		r = a < b ? a : b;
		sext = false;
		break;
	case E1_DP_OP_DOT8_S4:
		r = acc;
		for (i = 0; i < 8; i++)
			r += (uint32_t)(s4(a, i) * s4(b, i));
		break;
	case E1_DP_OP_RELU4_S8:
		for (i = 0; i < 4; i++) {
			int8_t v = (int8_t)(a >> (8 * i));

			r |= (uint32_t)(uint8_t)(v < 0 ? 0 : v) << (8 * i);
		}
		sext = false;
		break;
	case E1_DP_OP_SDOT4_S4_2_4: {
		uint32_t p[4];

		if (a >> 16 || acc >> 8)
			return false;
		for (i = 0; i < 4; i++)
			p[i] = (acc >> (2 * i)) & 3;
		if (p[0] == p[1] || p[2] == p[3])
			return false;
		r = (uint32_t)(s4(a, 0) * s4(b, (int)p[0]) + s4(a, 1) * s4(b, (int)p[1]) +
			       s4(a, 2) * s4(b, 4 + (int)p[2]) + s4(a, 3) * s4(b, 4 + (int)p[3]));
		break;
	}
	case E1_DP_OP_DOT16_S2:
		r = acc;
		for (i = 0; i < 16; i++) {
			int32_t x, y;

			if (!lane2(a, i, ternary, &x) || !lane2(b, i, ternary, &y))
				return false;
			r += (uint32_t)(x * y);
		}
		break;
	case E1_DP_OP_DOT4_FP8_E4M3:
		r = acc;
		for (i = 0; i < 4; i++) {
			int32_t x, y;

			if (!lowp_fp8_to_q88((uint8_t)(a >> (8 * i)), &x) ||
			    !lowp_fp8_to_q88((uint8_t)(b >> (8 * i)), &y))
				return false;
			/* floor of the exact product, arithmetic shift */
			r += (uint32_t)(int32_t)(((int64_t)x * y) >> 8);
		}
		break;
	case E1_DP_OP_EXP2_NEG_Q0_8: {
		int8_t d = (int8_t)a;

		if (d > 0)
			return false;
		r = d < -8 ? 0 : 256u >> -d;
		sext = false;
		break;
	}
	default:
		return false;
	}
	*result = r;
	*result_hi = sext ? ((int32_t)r < 0 ? 0xffffffffu : 0) : 0;
	return true;
}
