// SPDX-License-Identifier: (GPL-2.0-only OR MIT)
/*
 * The GEMM kernel (e1_matmul.c) called directly against a naive triple loop:
 * every edge-tile shape, padded strides, several K slices with C
 * accumulation, ReLU, extreme values, on each path the host can take (the
 * int8/VNNI paths, blocked or row by row, with direct A rows and through
 * load_a or load_a_rows; the int16 AVX2 path with direct A rows and through
 * load_a; the portable C path).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "e1_matmul.h"

enum mode {
	MODE_ROWS, MODE_ROWS_INT16, MODE_LOAD_A, MODE_C_ROWS, MODE_C_LOAD_A, MODE_LOAD_A8,
	MODE_LOAD_ROWS, NMODES
};

#define MAXM	130
#define MAXN	130
#define MAXK	2100
#define PAD	7	/* extra bytes per row of A, B and C (strides) */

struct ctx {
	const s8 *a;
	u32 as;
	u8 *c;
	u32 cs;
};

static s8 *buf_a, *buf_b;
static s32 *ref;
static u8 *buf_c;
static struct e1_mm_ws *ws;
static const s8 *a_rows[MAXM], *b_rows[MAXK];

static void load_a(const struct e1_mm_job *job, u32 i, u32 k0, u32 kb, u8 bias, s8 *dst)
{
	const struct ctx *x = job->priv;
	u32 k;

	for (k = 0; k < kb; k++)
		dst[k] = (s8)((u8)x->a[(size_t)i * x->as + k0 + k] ^ bias);
}

static void load_a_rows(const struct e1_mm_job *job, u32 i0, u32 n, u32 k0, u32 kb, u8 bias,
			s8 *dst, u32 ds)
{
	u32 r;

	for (r = 0; r < n; r++)
		load_a(job, i0 + r, k0, kb, bias, dst + (size_t)r * ds);
}

static u8 *c_row(const struct e1_mm_job *job, u32 i)
{
	const struct ctx *x = job->priv;

	return x->c + (size_t)i * x->cs;
}

static void c_rows(const struct e1_mm_job *job, u32 i0, u32 n, u8 **out)
{
	u32 r;

	for (r = 0; r < n; r++)
		out[r] = c_row(job, i0 + r);
}

static u32 rnd(void)
{
	static u32 s = 0x1234567;

	s ^= s << 13;
	s ^= s >> 17;
	s ^= s << 5;
	return s;
}

/* fill: 0 random, 1 all -128, 2 A -128 and B 127, 3 A 127 and B -128 */
static void fill(u32 m, u32 k, u32 as, u32 bs, int how)
{
	u32 i;

	for (i = 0; i < m * as; i++)
		buf_a[i] = how == 0 ? (s8)rnd() : how == 3 ? 127 : -128;
	for (i = 0; i < k * bs; i++)
		buf_b[i] = how == 0 ? (s8)rnd() : how == 2 ? 127 : -128;
	if (how == 0 && m * as > 3) {
		/* a few extremes among the random values */
		buf_a[0] = -128;
		buf_a[m * as - 1] = 127;
		buf_b[0] = -128;
		buf_b[k * bs - 1] = -128;
	}
}

static void check(u32 m, u32 n, u32 k, u32 as, u32 bs, bool relu, enum mode mode)
{
	struct ctx x = { .a = buf_a, .as = as, .c = buf_c, .cs = 4 * n + PAD };
	struct e1_mm_job job = {
		.m = m, .n = n, .k = k,
		.b_rows = b_rows,
		.a_rows = mode == MODE_LOAD_A || mode == MODE_C_LOAD_A || mode == MODE_LOAD_A8 ||
			  mode == MODE_LOAD_ROWS ? NULL : a_rows,
		.load_a = load_a,
		.load_a_rows = mode == MODE_LOAD_ROWS ? load_a_rows : NULL,
		.c_rows = mode == MODE_LOAD_ROWS ? c_rows : NULL,
		.c_row = c_row,
		.relu = relu,
		.int16_only = mode != MODE_ROWS && mode != MODE_LOAD_A8 && mode != MODE_LOAD_ROWS,
		.portable = mode == MODE_C_ROWS || mode == MODE_C_LOAD_A,
		.priv = &x,
	};
	u32 i, j, kk;

	for (i = 0; i < m; i++)
		a_rows[i] = buf_a + (size_t)i * as;
	for (kk = 0; kk < k; kk++)
		b_rows[kk] = buf_b + (size_t)kk * bs;
	for (i = 0; i < m; i++)
		for (j = 0; j < n; j++) {
			s32 s = 0;

			for (kk = 0; kk < k; kk++)
				s += (s32)buf_a[(size_t)i * as + kk] *
				     (s32)buf_b[(size_t)kk * bs + j];
			ref[i * n + j] = relu && s < 0 ? 0 : s;
		}
	memset(buf_c, 0xab, (size_t)m * x.cs);
	e1_mm_run(&job, ws);
	for (i = 0; i < m; i++) {
		const u8 *row = buf_c + (size_t)i * x.cs;
		s32 v;

		for (j = 0; j < n; j++) {
			memcpy(&v, row + 4 * j, 4);
			if (v != ref[i * n + j])
				fail_msg("mode %d m %u n %u k %u relu %d: C[%u][%u] = %d, want %d",
					 mode, m, n, k, relu, i, j, v, ref[i * n + j]);
		}
		/* the padding after each C row is untouched */
		for (j = 4 * n; j < x.cs; j++)
			assert_int_equal(row[j], 0xab);
	}
}

static void test_shapes(void **state)
{
	static const u32 dims[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 16, 17, 31, 32, 33,
				    63, 64, 65, 70 };
	static const u32 ks[] = { 1, 2, 3, 4, 5, 7, 16, 31, 33, 63, 64, 65, 70, 129 };
	u32 a, b, c, nd = sizeof(dims) / sizeof(dims[0]), nk = sizeof(ks) / sizeof(ks[0]);
	int mode;

	(void)state;
	for (a = 0; a < nd; a++)
		for (b = 0; b < nd; b++)
			for (c = 0; c < nk; c += 1 + (a + b) % 3) {
				u32 m = dims[a], n = dims[b], k = ks[c];

				fill(m, k, k + (a & 1) * PAD, n + (b & 1) * PAD, 0);
				for (mode = 0; mode < NMODES; mode++)
					check(m, n, k, k + (a & 1) * PAD, n + (b & 1) * PAD,
					      (a + b + c + mode) % 4 == 0, mode);
			}
}

/* Every m, n, k in 1..70 once each (k cycling), padded strides. */
static void test_all_small(void **state)
{
	u32 d;
	int mode;

	(void)state;
	for (d = 1; d <= 70; d++) {
		u32 m = d, n = 71 - d, k = (d * 37) % 70 + 1;

		fill(m, k, k + 3, n + 5, 0);
		for (mode = 0; mode < NMODES; mode++)
			check(m, n, k, k + 3, n + 5, d % 5 == 0, mode);
	}
}

/* K over both slice sizes (512 int16, 1024 int8): C accumulates, ReLU last. */
static void test_k_slices(void **state)
{
	static const u32 ks[] = { 511, 512, 513, 1023, 1024, 1025, 1100, 2047, 2100 };
	u32 i;
	int mode;

	(void)state;
	for (i = 0; i < sizeof(ks) / sizeof(ks[0]); i++) {
		fill(13, ks[i], ks[i], 37, 0);
		for (mode = 0; mode < NMODES; mode++) {
			check(13, 37, ks[i], ks[i], 37, false, mode);
			check(13, 37, ks[i], ks[i], 37, true, mode);
		}
	}
}

/* Extreme values: the largest sums of either sign, nothing saturates. */
static void test_extremes(void **state)
{
	static const u32 ks[] = { 1, 2, 64, 1023, 1024, 2100 };
	u32 i;
	int how, mode;

	(void)state;
	for (how = 1; how <= 3; how++)
		for (i = 0; i < sizeof(ks) / sizeof(ks[0]); i++) {
			fill(9, ks[i], ks[i], 33, how);
			for (mode = 0; mode < NMODES; mode++)
				check(9, 33, ks[i], ks[i], 33, how == 2 && mode % 2 == 1, mode);
		}
}

/* Big M and N: several A blocks and B panels, edge tiles in both. */
static void test_blocks(void **state)
{
	int mode;

	(void)state;
	fill(MAXM, 67, 67, MAXN, 0);
	for (mode = 0; mode < NMODES; mode++)
		check(MAXM, MAXN, 67, 67, MAXN, mode % 3 == 2, mode);
	fill(129, 300, 300, 35, 0);
	for (mode = 0; mode < NMODES; mode++)
		check(129, 35, 300, 300, 35, false, mode);
}

/*
 * Each fast path the host can take (the VNNI paths where the CPU has
 * AVX-512 VNNI, the int16 AVX2 path; direct rows and load_a) against the
 * portable C path, byte for byte over the whole C buffer (stride padding
 * included), on random shapes: odd and even sizes around every tile edge
 * (8 x 16 VNNI and 4 x 16 AVX2 tiles, 4 x 4 C tiles, 128-row A blocks, 512-
 * and 1024-deep K slices), with and without ReLU, random and extreme values.
 */
static void run_into(u32 m, u32 n, u32 k, u32 as, u32 cs, bool relu, bool rows,
		     int path, u8 *c)
{
	struct ctx x = { .a = buf_a, .as = as, .c = c, .cs = cs };
	struct e1_mm_job job = {
		.m = m, .n = n, .k = k,
		.b_rows = b_rows,
		.a_rows = rows ? a_rows : NULL,
		.load_a = load_a,
		.load_a_rows = rows ? NULL : load_a_rows,
		.c_rows = rows ? NULL : c_rows,
		.c_row = c_row,
		.relu = relu,
		.portable = path == 0,
		.int16_only = path == 2,
		.priv = &x,
	};

	memset(c, 0x5a, (size_t)m * cs);
	e1_mm_run(&job, ws);
}

static void test_fast_vs_c(void **state)
{
	static const u32 edge[] = { 1, 5, 6, 7, 8, 9, 11, 12, 13, 15, 16, 17, 31, 33, 125,
				    126, 127, 128, 129 };
	const u32 nedge = sizeof(edge) / sizeof(edge[0]);
	u8 *c0 = malloc((size_t)MAXM * (4 * MAXN + PAD));
	u8 *c1 = malloc((size_t)MAXM * (4 * MAXN + PAD));
	u32 t, i;

	(void)state;
	assert_non_null(c0);
	assert_non_null(c1);
	for (t = 0; t < 300; t++) {
		u32 m = t < nedge ? edge[t] : rnd() % MAXM + 1;
		u32 n = t < nedge ? edge[nedge - 1 - t] : rnd() % MAXN + 1;
		u32 k = t % 7 == 0 ? 500 + rnd() % 40 : t % 11 == 0 ? 1000 + rnd() % 60 :
			rnd() % 200 + 1;
		u32 as = k + rnd() % 3, bs = n + rnd() % 5, cs = 4 * n + rnd() % PAD;
		bool relu = rnd() & 1;
		int how = t % 13 == 0 ? 1 + (int)(t / 13 % 3) : 0;
		int rows, path;

		fill(m, k, as, bs, how);
		for (i = 0; i < m; i++)
			a_rows[i] = buf_a + (size_t)i * as;
		for (i = 0; i < k; i++)
			b_rows[i] = buf_b + (size_t)i * bs;
		for (rows = 0; rows < 2; rows++) {
			run_into(m, n, k, as, cs, relu, rows, 0, c0);
			for (path = 1; path <= 2; path++) {
				run_into(m, n, k, as, cs, relu, rows, path, c1);
				if (memcmp(c0, c1, (size_t)m * cs))
					fail_msg("fast path %d != C: m %u n %u k %u relu %d rows %d",
						 path, m, n, k, relu, rows);
			}
		}
	}
	free(c0);
	free(c1);
}

static int setup(void **state)
{
	(void)state;
	buf_a = malloc((size_t)MAXM * (MAXK + PAD));
	buf_b = malloc((size_t)MAXK * (MAXN + PAD));
	ref = malloc((size_t)MAXM * MAXN * sizeof(*ref));
	buf_c = malloc((size_t)MAXM * (4 * MAXN + PAD));
	ws = malloc(sizeof(*ws));
	return buf_a && buf_b && ref && buf_c && ws ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	free(buf_a);
	free(buf_b);
	free(ref);
	free(buf_c);
	free(ws);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shapes),
		cmocka_unit_test(test_all_small),
		cmocka_unit_test(test_k_slices),
		cmocka_unit_test(test_extremes),
		cmocka_unit_test(test_blocks),
		cmocka_unit_test(test_fast_vs_c),
	};

	return cmocka_run_group_tests_name("matmul-kernel", tests, setup, teardown);
}
