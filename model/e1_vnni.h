/* SPDX-License-Identifier: (GPL-2.0-only OR MIT) */
/*
 * e1 NPU device model: what the AVX-512 VNNI paths share (e1_mm_vnni.c,
 * e1_diag_vnni.c); x86-64 user space with GCC only (E1_MM_X86).
 */
#ifndef __E1_VNNI_H__
#define __E1_VNNI_H__

#include "e1_matmul.h"

#ifdef E1_MM_X86
#include <immintrin.h>

#define E1_VNNI_TARGET __attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni")))

/*
 * @acc plus the u8 x s8 dot products of @a and @b, four per lane
 * (vpdpbusd). A one-line asm: GCC 12 does not keep the intrinsic's
 * accumulator in its register and copies every accumulator twice per
 * step (the 512^3 GEMM ran at 264 GMAC/s that way, 350 with the asm).
 */
E1_VNNI_TARGET
static inline __m512i e1_vnni_dp(__m512i acc, __m512i a, __m512i b)
{
	__asm__("vpdpbusd %2, %1, %0" : "+v"(acc) : "v"(a), "v"(b));
	return acc;
}
#endif

#endif /* __E1_VNNI_H__ */
