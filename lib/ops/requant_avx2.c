// SPDX-License-Identifier: MIT
/*
 * e1q_requant_bytes (gemmlowp rounding) in AVX2 intrinsics, eight outputs
 * at a time; quant.c calls it when the CPU has AVX2. It computes exactly
 * e1q_requant (tests/ops/test-quant.c compares the two on every run):
 *
 * - SaturatingRoundingDoublingHighMul: (a*m + nudge) / 2^31 truncated
 *   toward zero equals floor((a*m + 2^30) / 2^31) for either sign of a*m
 *   (for a*m < 0, the truncation adds 2^31 - 1 to a*m + 1 - 2^30), so one
 *   64-bit add and a shift do it; its low 32 bits are bits 31..62, which a
 *   logical shift gives as well as an arithmetic one. The one product past
 *   int32, INT32_MIN * INT32_MIN, gives 0x80000000 there and is flipped to
 *   INT32_MAX.
 * - RoundingDivideByPOT with per-lane shifts (vpsravd), as in quant.h.
 */
#include "quant.h"

#if E1Q_X86

#include <immintrin.h>
#include <stdatomic.h>
#include <string.h>

#define E1Q_AVX2 __attribute__((target("avx2")))

/* Bits 31..62 of a * m + 2^30 per int32 lane, INT32_MIN^2 saturated. */
E1Q_AVX2 static inline __m256i srdhm8(__m256i a, __m256i m)
{
	const __m256i nudge = _mm256_set1_epi64x(1LL << 30);
	const __m256i min = _mm256_set1_epi32(INT32_MIN);
	/* even lanes, then the odd ones moved down (vpmuldq reads low halves) */
	__m256i ev = _mm256_add_epi64(_mm256_mul_epi32(a, m), nudge);
	__m256i od = _mm256_add_epi64(_mm256_mul_epi32(_mm256_srli_epi64(a, 32),
						       _mm256_srli_epi64(m, 32)), nudge);
	__m256i v = _mm256_blend_epi32(_mm256_srli_epi64(ev, 31),
				       _mm256_slli_epi64(od, 1), 0xaa);
	__m256i sat = _mm256_and_si256(_mm256_cmpeq_epi32(a, min), _mm256_cmpeq_epi32(m, min));

	return _mm256_xor_si256(v, sat);
}

/* x / 2^right, ties away from zero; right in 0..31 per lane. */
E1Q_AVX2 static inline __m256i rdivpot8(__m256i x, __m256i right)
{
	const __m256i zero = _mm256_setzero_si256();
	__m256i mask = _mm256_sub_epi32(_mm256_sllv_epi32(_mm256_set1_epi32(1), right),
					_mm256_set1_epi32(1));
	__m256i rem = _mm256_and_si256(x, mask);
	/* compares give -1 where true: subtracting them adds 1 */
	__m256i thr = _mm256_sub_epi32(_mm256_srai_epi32(mask, 1), _mm256_cmpgt_epi32(zero, x));

	return _mm256_sub_epi32(_mm256_srav_epi32(x, right), _mm256_cmpgt_epi32(rem, thr));
}

/* e1q_requant of eight lanes, clamped to [lo, hi]. */
E1Q_AVX2 static inline __m256i requant8(__m256i acc, __m256i m, __m256i sh,
					__m256i zp, __m256i lo, __m256i hi)
{
	const __m256i zero = _mm256_setzero_si256();
	__m256i left = _mm256_max_epi32(sh, zero);
	__m256i right = _mm256_min_epi32(_mm256_max_epi32(_mm256_sub_epi32(zero, sh), zero),
					 _mm256_set1_epi32(31));
	__m256i v = srdhm8(_mm256_sllv_epi32(acc, left), m);

	v = _mm256_add_epi32(rdivpot8(v, right), zp);
	return _mm256_min_epi32(_mm256_max_epi32(v, lo), hi);
}

/* The low byte of each lane, in order, as 8 bytes. */
E1Q_AVX2 static inline void store_bytes8(uint8_t *out, __m256i v)
{
	const __m256i pick = _mm256_setr_epi8(0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1,
					      -1, -1, -1, -1, 0, 4, 8, 12, -1, -1, -1, -1,
					      -1, -1, -1, -1, -1, -1, -1, -1);
	__m256i b = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(v, pick),
						_mm256_setr_epi32(0, 4, 1, 1, 1, 1, 1, 1));

	_mm_storel_epi64((__m128i *)out, _mm256_castsi256_si128(b));
}

E1Q_AVX2 static inline __m256i ld8(const void *p)
{
	return _mm256_loadu_si256((const __m256i *)p);
}

E1Q_AVX2
void e1q_requant_bytes_avx2(const int32_t *acc, const int32_t *mult, const int *shift,
			    int32_t zp, int32_t lo, int32_t hi, uint32_t n, uint8_t *out)
{
	const __m256i vzp = _mm256_set1_epi32(zp), vlo = _mm256_set1_epi32(lo);
	const __m256i vhi = _mm256_set1_epi32(hi);
	uint32_t i = 0;

	for (; i + 8 <= n; i += 8)
		store_bytes8(out + i, requant8(ld8(acc + i), ld8(mult + i), ld8(shift + i),
					       vzp, vlo, vhi));
	if (i < n) {
		/* the tail through the same lanes, padded with zeros */
		int32_t a[8] = { 0 }, m[8] = { 0 };
		int s[8] = { 0 };
		uint8_t o[8];

		memcpy(a, acc + i, (n - i) * sizeof(*a));
		memcpy(m, mult + i, (n - i) * sizeof(*m));
		memcpy(s, shift + i, (n - i) * sizeof(*s));
		store_bytes8(o, requant8(ld8(a), ld8(m), ld8(s), vzp, vlo, vhi));
		memcpy(out + i, o, n - i);
	}
}

/* acc + fold - corr - zw * sx (sx may be NULL), wrapping, for lanes i.. */
E1Q_AVX2 static inline __m256i fold8(const int32_t *acc, const int32_t *fold, __m256i corr,
				     const int32_t *sx, __m256i zw)
{
	__m256i v = _mm256_sub_epi32(_mm256_add_epi32(ld8(acc), ld8(fold)), corr);

	return sx ? _mm256_sub_epi32(v, _mm256_mullo_epi32(zw, ld8(sx))) : v;
}

E1Q_AVX2
void e1q_requant_bytes_fold_avx2(const int32_t *acc, const int32_t *fold, int32_t corr,
				 const int32_t *sx, int32_t zw, const int32_t *mult,
				 const int *shift, int32_t zp, int32_t lo, int32_t hi,
				 uint32_t n, uint8_t *out)
{
	const __m256i vzp = _mm256_set1_epi32(zp), vlo = _mm256_set1_epi32(lo);
	const __m256i vhi = _mm256_set1_epi32(hi), vcorr = _mm256_set1_epi32(corr);
	const __m256i vzw = _mm256_set1_epi32(zw);
	uint32_t i = 0;

	for (; i + 8 <= n; i += 8)
		store_bytes8(out + i, requant8(fold8(acc + i, fold + i, vcorr, sx ? sx + i : NULL, vzw),
					       ld8(mult + i), ld8(shift + i), vzp, vlo, vhi));
	if (i < n) {
		int32_t a[8] = { 0 }, f[8] = { 0 }, x[8] = { 0 }, m[8] = { 0 };
		int s[8] = { 0 };
		uint8_t o[8];

		memcpy(a, acc + i, (n - i) * sizeof(*a));
		memcpy(f, fold + i, (n - i) * sizeof(*f));
		if (sx)
			memcpy(x, sx + i, (n - i) * sizeof(*x));
		memcpy(m, mult + i, (n - i) * sizeof(*m));
		memcpy(s, shift + i, (n - i) * sizeof(*s));
		store_bytes8(o, requant8(fold8(a, f, vcorr, sx ? x : NULL, vzw), ld8(m), ld8(s),
					 vzp, vlo, vhi));
		memcpy(out + i, o, n - i);
	}
}

/* Asked once (per-pixel callers): 0 unknown, 1 no, 2 yes; relaxed atomics
 * since every thread computes the same answer. */
bool e1q_have_avx2(void)
{
	static _Atomic int have;
	int h = atomic_load_explicit(&have, memory_order_relaxed);

	if (!h) {
		__builtin_cpu_init();
		h = __builtin_cpu_supports("avx2") ? 2 : 1;
		atomic_store_explicit(&have, h, memory_order_relaxed);
	}
	return h == 2;
}

#endif /* E1Q_X86 */
