/* SPDX-License-Identifier: (GPL-2.0-only OR MIT) */
/*
 * e1 NPU device model: the functional INT8 GEMM kernel behind MATMUL_S8 and
 * CONV2D_S8 (im2col). Portable C, cache-blocked, written so that compilers
 * vectorize it (int8 widened to int16 while packing, int16 pairs
 * multiplied-added into int32: pmaddwd on x86). No allocation: the caller
 * provides the packing workspace. Bit-exact: int32 accumulation, the
 * envelope cannot overflow it.
 */
#ifndef __E1_MATMUL_H__
#define __E1_MATMUL_H__

#include "e1_model_shim.h"

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && \
	!defined(__KERNEL__) && !defined(E1_MM_NO_CLONES)
#define E1_MM_X86 1
/*
 * User space only: let the loader pick an AVX2 or AVX-512 build of the
 * micro-kernel at run time. The source stays portable C and the default
 * clone is the baseline build (other architectures build only that).
 */
#define E1_MM_CLONES __attribute__((target_clones("default", "avx2", "arch=icelake-server", \
						    "arch=x86-64-v4")))
#else
#define E1_MM_CLONES
#endif

#define E1_MM_KB	512	/* K slice packed at once */
#define E1_MM_NB	16	/* B panel columns (stays in L1) */
#define E1_MM_MC	128	/* A block rows (stays in L2) */
#define E1_MM_MR	4	/* micro-kernel rows */
#define E1_MM_NR	4	/* micro-kernel columns */

/* The int8 (VNNI) path: direct A rows, whole K in one slice. */
#define E1_MM8_KB	1024	/* K slice */
#define E1_MM8_NB	32	/* B panel columns (32 KiB, stays in L1) */
#define E1_MM8_MMAX	1024	/* most rows it takes (row sums kept) */

#define E1_MM_A2_MR	4	/* the AVX2 path's tile: rows */
#define E1_MM_A2_NR	16	/* and columns */

/* The blocked AVX-512 VNNI path (e1_mm_vnni.c): K slice, A block, tile rows. */
#define MMV_KB	1024
#define MMV_MC	128
#define MMV_MR	8

/* Block-diagonal convolutions (e1_v0.c, exec_conv_diag): columns, taps. */
#define E1_MM_DIAG_N	512
#define E1_MM_DIAG_TAPS	25
#define E1_MM_DIAG_KMAX	5	/* kernel rows */
#define E1_MM_DIAG_E	(56 * 1024)	/* expanded input rows, int16 */

/* Packing workspace: about 165 KiB, shared by all paths. */
struct e1_mm_ws {
	union {
		struct {
			s16 b[E1_MM_NB * E1_MM_KB];	/* panel, column-major */
			s16 a[E1_MM_MC * E1_MM_KB];	/* MC rows of the K slice */
			u8 *crow[E1_MM_MC];		/* their C rows (c_row once) */
			s8 a8[E1_MM_KB];		/* one row from load_a */
			s32 t[E1_MM_A2_MR * E1_MM_A2_NR];	/* the AVX2 path's tile */
		} w16;
		struct {
			s8 a[MMV_MC * MMV_KB];		/* MC rows of the K slice, +128 */
			s8 b[32 * MMV_KB];		/* two panels, [k / 4][16][4] */
			s32 csum[32];			/* 128 * sum of each column */
			s32 t[MMV_MR * 32];		/* one tile's sums */
			u8 *crow[MMV_MC];		/* the A rows' C rows (NULL: padding) */
		} wv;
		struct {
			u8 b[E1_MM8_NB * E1_MM8_KB];	/* panel, column-major, +128 */
			s32 rsum[E1_MM8_MMAX];		/* 128 * sum of each A row */
		} w8;
		struct {
			u16 run[3 * E1_MM_DIAG_N];	/* column runs: j0, len, src */
			s32 acc[E1_MM_DIAG_N];		/* one pixel's sums */
			s16 w[E1_MM_DIAG_TAPS * E1_MM_DIAG_N];	/* [tap][column] */
			s32 tag[E1_MM_DIAG_KMAX];	/* input row in each slot */
			u16 src[E1_MM_DIAG_N];		/* each column's input channel */
			u32 ns;				/* column stride: c_out, 16 below */
			u8 tap_nz[E1_MM_DIAG_TAPS];	/* a tap with a nonzero weight */
			bool v4;			/* the VNNI path (e1_diag_vnni.c) */
			u32 nx;				/* its expanded pixels per row */
			u8 src16[16];			/* src[0..15] as a byte shuffle */
			/*
			 * its weights, [kernel row][4 taps][column][4] (before:
			 * the scan's [tap][column] bytes)
			 */
			s8 w4[E1_MM_DIAG_KMAX * 2 * E1_MM_DIAG_N * 4];
			/* [slot][x][column] int16, or the VNNI path's E4 rows */
			s16 e[E1_MM_DIAG_E];
		} diag;
	};
};

struct e1_mm_job;

/*
 * Write A[i][k0 .. k0 + kb), each byte XORed with @bias (0, or 0x80 for
 * the VNNI path's a + 128 as u8), into @dst.
 */
typedef void (*e1_mm_load_a_fn)(const struct e1_mm_job *job, u32 i, u32 k0,
				u32 kb, u8 bias, s8 *dst);
/* The same for rows [i0, i0 + n), each @ds bytes after the last. */
typedef void (*e1_mm_load_rows_fn)(const struct e1_mm_job *job, u32 i0, u32 n, u32 k0,
				   u32 kb, u8 bias, s8 *dst, u32 ds);
/* Host pointer to output row i: n little-endian int32. */
typedef u8 *(*e1_mm_c_row_fn)(const struct e1_mm_job *job, u32 i);
/* The same for rows [i0, i0 + n), into @out. */
typedef void (*e1_mm_c_rows_fn)(const struct e1_mm_job *job, u32 i0, u32 n, u8 **out);

/**
 * struct e1_mm_job - one C = A * B with int8 inputs and int32 outputs.
 * @m: rows of A and C.
 * @n: columns of B and C.
 * @k: the contraction.
 * @b_rows: k pointers to rows of n int8 weights.
 * @a_rows: m pointers to rows of k int8 inputs, or NULL to use @load_a.
 * @load_a: fetches (and for a convolution, gathers) slices of A rows.
 * @load_a_rows: optional, the same for a block of rows in one call.
 * @c_row: locates output rows.
 * @c_rows: optional, the same for a block of rows in one call.
 * @relu: clamp the results at zero.
 * @int16_only: never take the int8 (VNNI) path (for tests).
 * @portable: only the plain C int16 path, no x86 fast path (for tests: the
 *	reference the fast paths are compared with).
 * @stop: optional, called between blocks of at most ~1M MACs; true
 *	abandons the product with C partly written (a flushed engine).
 * @priv: for the callbacks.
 */
struct e1_mm_job {
	u32 m, n, k;
	const s8 *const *b_rows;
	const s8 *const *a_rows;
	e1_mm_load_a_fn load_a;
	e1_mm_load_rows_fn load_a_rows;
	e1_mm_c_row_fn c_row;
	e1_mm_c_rows_fn c_rows;
	bool relu;
	bool int16_only;
	bool portable;
	bool (*stop)(const struct e1_mm_job *job);
	const void *priv;
};

void e1_mm_run(const struct e1_mm_job *job, struct e1_mm_ws *ws);
#ifdef E1_MM_X86
/* Internal: the AVX-512 VNNI path e1_mm_run takes on CPUs that have it. */
void e1_mm_run_vnni(const struct e1_mm_job *job, struct e1_mm_ws *ws);
/* Whether this CPU has AVX-512 VNNI (and BW, VL). */
bool e1_mm_have_vnni(void);
#endif

#endif /* __E1_MATMUL_H__ */
