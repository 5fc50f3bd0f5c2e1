// SPDX-License-Identifier: MIT
/*
 * e1q_requant_bytes and e1q_requant_bytes_fold (gemmlowp rounding) in
 * AVX-512 intrinsics, sixteen outputs at a time, the tail under a mask;
 * quant.c calls them when the CPU has AVX-512 BW. The arithmetic is that
 * of requant_avx2.c (see there), lane for lane; tests/ops/test-quant.c
 * compares both with e1q_requant on every run.
 */
#include "quant.h"

#if E1Q_X86

#include <immintrin.h>
#include <stdatomic.h>

#define E1Q_AVX512 __attribute__((target("avx512f,avx512bw")))

/* Bits 31..62 of a * m + 2^30 per int32 lane, INT32_MIN^2 saturated. */
E1Q_AVX512 static inline __m512i srdhm16(__m512i a, __m512i m)
{
	const __m512i nudge = _mm512_set1_epi64(1LL << 30);
	const __m512i min = _mm512_set1_epi32(INT32_MIN);
	__m512i ev = _mm512_add_epi64(_mm512_mul_epi32(a, m), nudge);
	__m512i od = _mm512_add_epi64(_mm512_mul_epi32(_mm512_srli_epi64(a, 32),
						       _mm512_srli_epi64(m, 32)), nudge);
	__m512i v = _mm512_mask_blend_epi32(0xaaaa, _mm512_srli_epi64(ev, 31),
					    _mm512_slli_epi64(od, 1));
	__mmask16 sat = _mm512_cmpeq_epi32_mask(a, min) & _mm512_cmpeq_epi32_mask(m, min);

	return _mm512_mask_mov_epi32(v, sat, _mm512_set1_epi32(INT32_MAX));
}

/* x / 2^right, ties away from zero; right in 0..31 per lane. */
E1Q_AVX512 static inline __m512i rdivpot16(__m512i x, __m512i right)
{
	const __m512i one = _mm512_set1_epi32(1);
	__m512i mask = _mm512_sub_epi32(_mm512_sllv_epi32(one, right), one);
	__m512i rem = _mm512_and_si512(x, mask);
	__mmask16 neg = _mm512_cmplt_epi32_mask(x, _mm512_setzero_si512());
	__m512i thr = _mm512_mask_add_epi32(_mm512_srai_epi32(mask, 1), neg,
					    _mm512_srai_epi32(mask, 1), one);
	__m512i q = _mm512_srav_epi32(x, right);

	return _mm512_mask_add_epi32(q, _mm512_cmpgt_epi32_mask(rem, thr), q, one);
}

/* e1q_requant of sixteen lanes, clamped to [lo, hi], low bytes stored. */
E1Q_AVX512 static inline void requant16(__m512i acc, __m512i m, __m512i sh, __m512i zp,
					__m512i lo, __m512i hi, __mmask16 k, uint8_t *out)
{
	const __m512i zero = _mm512_setzero_si512();
	__m512i left = _mm512_max_epi32(sh, zero);
	__m512i right = _mm512_min_epi32(_mm512_max_epi32(_mm512_sub_epi32(zero, sh), zero),
					 _mm512_set1_epi32(31));
	__m512i v = srdhm16(_mm512_sllv_epi32(acc, left), m);

	v = _mm512_add_epi32(rdivpot16(v, right), zp);
	v = _mm512_min_epi32(_mm512_max_epi32(v, lo), hi);
	_mm512_mask_cvtepi32_storeu_epi8(out, k, v);
}

E1Q_AVX512 static inline __mmask16 lanes(uint32_t left)
{
	return left >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << left) - 1);
}

E1Q_AVX512
void e1q_requant_bytes_avx512(const int32_t *acc, const int32_t *mult, const int *shift,
			      int32_t zp, int32_t lo, int32_t hi, uint32_t n, uint8_t *out)
{
	const __m512i vzp = _mm512_set1_epi32(zp), vlo = _mm512_set1_epi32(lo);
	const __m512i vhi = _mm512_set1_epi32(hi);

	for (uint32_t i = 0; i < n; i += 16) {
		__mmask16 k = lanes(n - i);

		requant16(_mm512_maskz_loadu_epi32(k, acc + i), _mm512_maskz_loadu_epi32(k, mult + i),
			  _mm512_maskz_loadu_epi32(k, shift + i), vzp, vlo, vhi, k, out + i);
	}
}

/* e1q_requant_bytes_fold_avx512's loop, inlined where it runs per pixel. */
E1Q_AVX512 static inline void fold_row(const int32_t *acc, const int32_t *fold, __m512i vcorr,
				       const int32_t *sx, __m512i vzw, const int32_t *mult,
				       const int *shift, __m512i vzp, __m512i vlo, __m512i vhi,
				       uint32_t n, uint8_t *out)
{
	for (uint32_t i = 0; i < n; i += 16) {
		__mmask16 k = lanes(n - i);
		/* acc + fold - corr - zw * sx, wrapping */
		__m512i v = _mm512_sub_epi32(_mm512_add_epi32(_mm512_maskz_loadu_epi32(k, acc + i),
							      _mm512_maskz_loadu_epi32(k, fold + i)),
					     vcorr);

		if (sx)
			v = _mm512_sub_epi32(v, _mm512_mullo_epi32(vzw,
								  _mm512_maskz_loadu_epi32(k, sx + i)));
		requant16(v, _mm512_maskz_loadu_epi32(k, mult + i),
			  _mm512_maskz_loadu_epi32(k, shift + i), vzp, vlo, vhi, k, out + i);
	}
}

E1Q_AVX512
void e1q_requant_bytes_fold_avx512(const int32_t *acc, const int32_t *fold, int32_t corr,
				   const int32_t *sx, int32_t zw, const int32_t *mult,
				   const int *shift, int32_t zp, int32_t lo, int32_t hi,
				   uint32_t n, uint8_t *out)
{
	fold_row(acc, fold, _mm512_set1_epi32(corr), sx, _mm512_set1_epi32(zw), mult, shift,
		 _mm512_set1_epi32(zp), _mm512_set1_epi32(lo), _mm512_set1_epi32(hi), n, out);
}

/*
 * Pixels of up to 16 channels that divide 16 (1, 2, 4, 8) with one window
 * sum per channel: 16 / c pixels per vector, the parameters tiled.
 */
E1Q_AVX512
static void fold_pixels_tiled(const int32_t *acc, const int32_t *sx, const struct e1q_fold *f,
			      size_t npx, uint8_t *out)
{
	int32_t tf[16], tm[16], ts[16];
	const size_t n = npx * f->c;

	for (uint32_t i = 0; i < 16; i++) {
		tf[i] = f->fold[i % f->c];
		tm[i] = f->mult[i % f->c];
		ts[i] = f->shift[i % f->c];
	}
	const __m512i vf = _mm512_loadu_si512(tf), vm = _mm512_loadu_si512(tm);
	const __m512i vs = _mm512_loadu_si512(ts), vzw = _mm512_set1_epi32(f->zw);
	const __m512i vzp = _mm512_set1_epi32(f->zp), vlo = _mm512_set1_epi32(f->lo);
	const __m512i vhi = _mm512_set1_epi32(f->hi);

	for (size_t i = 0; i < n; i += 16) {
		__mmask16 k = lanes((uint32_t)(n - i < 16 ? n - i : 16));
		__m512i v = _mm512_add_epi32(_mm512_maskz_loadu_epi32(k, acc + i), vf);

		if (sx)
			v = _mm512_sub_epi32(v, _mm512_mullo_epi32(vzw,
								  _mm512_maskz_loadu_epi32(k, sx + i)));
		requant16(v, vm, vs, vzp, vlo, vhi, k, out + i);
	}
}

E1Q_AVX512
void e1q_requant_fold_pixels_avx512(const int32_t *acc, const int32_t *sx,
				    const struct e1q_fold *f, size_t npx, uint8_t *out)
{
	if (f->c <= 16 && 16 % f->c == 0 && !(sx && f->sx_px)) {
		fold_pixels_tiled(acc, sx, f, npx, out);
		return;
	}
	const __m512i vzw = _mm512_set1_epi32(f->zw), vzp = _mm512_set1_epi32(f->zp);
	const __m512i vlo = _mm512_set1_epi32(f->lo), vhi = _mm512_set1_epi32(f->hi);

	for (size_t px = 0; px < npx; px++, acc += f->c, out += f->c) {
		int32_t corr = sx && f->sx_px ? (int32_t)((uint32_t)f->zw * (uint32_t)sx[px]) : 0;

		fold_row(acc, f->fold, _mm512_set1_epi32(corr),
			 sx && !f->sx_px ? sx + px * f->c : NULL, vzw, f->mult, f->shift, vzp, vlo,
			 vhi, f->c, out);
	}
}

/* Asked once: 0 unknown, 1 no, 2 yes (relaxed atomics, as e1q_have_avx2). */
bool e1q_have_avx512(void)
{
	static _Atomic int have;
	int h = atomic_load_explicit(&have, memory_order_relaxed);

	if (!h) {
		__builtin_cpu_init();
		h = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") ?
			2 : 1;
		atomic_store_explicit(&have, h, memory_order_relaxed);
	}
	return h == 2;
}

#endif /* E1Q_X86 */
