/* SPDX-License-Identifier: MIT */
/*
 * Low-precision number formats the lowering encodes
 * (Documentation/hardware-contract.md 3.2-3.5): packing of INT4/INT2/
 * ternary lanes, FP16/BF16 -> Q8.8.
 */
#ifndef __E1NPU_OPS_LOWP_H__
#define __E1NPU_OPS_LOWP_H__

#include <stdbool.h>
#include <stdint.h>

/* FP8 E4M3 decode and the scalar opcodes: lib/hw_exec.h, the executor's. */

/* FP16 / BF16 bits -> signed Q8.8, round half away from zero. -ERANGE for
 * NaN, Inf, subnormal or |x| >= 127.5; 0 otherwise. */
int lowp_fp16_to_q88(uint16_t h, int32_t *q);
int lowp_bf16_to_q88(uint16_t h, int32_t *q);

/* 2-bit lane encodings. */
static inline uint32_t lowp_s2_bits(int8_t v)
{
	return (uint32_t)v & 3u;		/* two's complement [-2, 1] */
}

static inline uint32_t lowp_ternary_bits(int8_t v)
{
	return v == 0 ? 0u : v > 0 ? 1u : 2u;	/* 00 0, 01 +1, 10 -1 */
}

#endif /* __E1NPU_OPS_LOWP_H__ */
