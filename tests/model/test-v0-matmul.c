// SPDX-License-Identifier: (GPL-2.0-only OR MIT)
/*
 * v0 wrapper: MATMUL_S8 / MATMUL_S8_RELU against a naive reference, odd
 * shapes, padded strides, fused ReLU, the exact bytes each job touches.
 */
#include <stdlib.h>

#include "model-tests-helpers.h"

/* Naive reference, independent of the model's kernel. */
static void ref_matmul(const s8 *a, u32 as, const s8 *b, u32 bs, s32 *c,
		       u32 m, u32 n, u32 k, bool relu)
{
	u32 i, j, x;

	for (i = 0; i < m; i++)
		for (j = 0; j < n; j++) {
			s32 s = 0;

			for (x = 0; x < k; x++)
				s += (s32)a[i * as + x] * (s32)b[x * bs + j];
			c[i * n + j] = relu && s < 0 ? 0 : s;
		}
}

static s32 rd_s32(const u8 *p)
{
	return (s32)((u32)p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 | (u32)p[3] << 24);
}

static void run_matmul(u32 m, u32 n, u32 k, u32 pad, u32 op, u32 extra_flags,
		       u32 seed)
{
	struct th *h = th_new(NULL, 16);
	u32 as = th_round16(k) + pad, bs = th_round16(n) + pad;
	u32 cs = th_round16(4 * n) + pad;
	u64 a = th_alloc(h, (u64)m * as), b = th_alloc(h, (u64)k * bs);
	u64 c = th_alloc(h, (u64)m * cs);
	s32 *ref = calloc((size_t)m * n, sizeof(*ref));
	bool relu = op == E1_V0_OP_MATMUL_S8_RELU ||
		    (extra_flags & E1_V0_FLAG_RELU_FUSE);
	struct th_tensor t[3] = {
		{ a, m, k, as, false }, { b, k, n, bs, false },
		{ c, m, 4 * n, cs, true },
	};
	u32 w[E1_V0_DESC_WORDS], i, j;
	u64 macs;

	assert_non_null(ref);
	th_fill_rand(&seed, th_ptr(h, a), (size_t)m * as);
	th_fill_rand(&seed, th_ptr(h, b), (size_t)k * bs);
	/* Gaps between output rows must stay untouched. */
	memset(th_ptr(h, c), 0x5a, (size_t)m * cs);
	ref_matmul(th_ptr(h, a), as, th_ptr(h, b), bs, ref, m, n, k, relu);

	th_desc_matmul(w, op, m, n, k, a, as, b, bs, c, cs);
	w[E1_V0_DW_OP] |= extra_flags | E1_V0_FLAG_IRQ_ON_COMPLETE;
	w[E1_V0_DW_TAG] = 0xC0DE0000u | m;
	th_clear_log(h);
	th_submit(h, w);
	assert_true(th_status(h) & E1_V0_STATUS_BUSY);
	assert_int_equal(th_run(h), 1);

	for (i = 0; i < m; i++) {
		const u8 *row = (const u8 *)th_ptr(h, c) + (size_t)i * cs;

		for (j = 0; j < n; j++)
			if (rd_s32(row + 4 * j) != ref[i * n + j])
				fail_msg("C[%u][%u] = %d, want %d (%ux%ux%u)", i, j,
					 rd_s32(row + 4 * j), ref[i * n + j], m, n, k);
		for (j = 4 * n; j < cs; j++)
			assert_int_equal(row[j], 0x5a);
	}
	th_assert_touched_exactly(h, t, 3);

	assert_int_equal(th_rd(h, E1_V0_COMPLETION_TAG), 0xC0DE0000u | m);
	assert_int_equal(th_rd(h, E1_V0_DESC_TAIL), 1);
	assert_true(th_status(h) & E1_V0_STATUS_QUEUE_EMPTY);
	assert_false(th_status(h) & E1_V0_STATUS_BUSY);
	assert_true(th_status(h) & E1_V0_STATUS_DONE);
	assert_int_equal(th_rd(h, E1_V0_IRQ_STATUS), E1_V0_IRQ_DONE);
	assert_true(h->line[E1_IRQ_NPU]);
	macs = (u64)th_rd(h, E1_V0_PERF_MACS_HI) << 32 | th_rd(h, E1_V0_PERF_MACS_LO);
	assert_int_equal(macs, (u64)m * n * k);
	assert_true(th_rd(h, E1_V0_PERF_CYCLES) > 0);
	free(ref);
	th_free(h);
}

static void test_matmul_small(void **state)
{
	(void)state;
	run_matmul(1, 1, 1, 0, E1_V0_OP_MATMUL_S8, 0, 1);
	run_matmul(4, 4, 4, 0, E1_V0_OP_MATMUL_S8, 0, 2);
	run_matmul(16, 16, 16, 0, E1_V0_OP_MATMUL_S8, 0, 3);
}

static void test_matmul_odd_shapes(void **state)
{
	static const u32 shapes[][3] = {
		{ 3, 5, 7 }, { 17, 33, 65 }, { 1, 100, 3 }, { 100, 1, 200 },
		{ 5, 67, 513 }, { 70, 70, 1 }, { 31, 129, 600 },
	};
	u32 i;

	(void)state;
	for (i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++)
		run_matmul(shapes[i][0], shapes[i][1], shapes[i][2], 0,
			   E1_V0_OP_MATMUL_S8, 0, 100 + i);
}

static void test_matmul_padded_strides(void **state)
{
	(void)state;
	run_matmul(9, 13, 21, 16, E1_V0_OP_MATMUL_S8, 0, 7);
	run_matmul(33, 20, 40, 48, E1_V0_OP_MATMUL_S8, 0, 8);
}

static void test_matmul_relu(void **state)
{
	(void)state;
	run_matmul(19, 23, 29, 0, E1_V0_OP_MATMUL_S8_RELU, 0, 9);
	run_matmul(19, 23, 29, 16, E1_V0_OP_MATMUL_S8, E1_V0_FLAG_RELU_FUSE, 10);
	run_matmul(8, 8, 8, 0, E1_V0_OP_MATMUL_S8_RELU, E1_V0_FLAG_RELU_FUSE, 11);
}

static void test_matmul_envelope_max(void **state)
{
	(void)state;
	/* The largest K, with every extreme value: -128 * -128 * 1024. */
	run_matmul(24, 40, 1024, 0, E1_V0_OP_MATMUL_S8, 0, 12);
	run_matmul(1024, 20, 30, 0, E1_V0_OP_MATMUL_S8, 0, 13);
	run_matmul(20, 1024, 30, 0, E1_V0_OP_MATMUL_S8, 0, 14);
}

static void test_matmul_extremes(void **state)
{
	struct th *h = th_new(NULL, 4);
	u32 m = 3, n = 5, k = 1024, w[E1_V0_DESC_WORDS], i, j;
	u32 as = k, bs = 16, cs = 32;
	u64 a = th_alloc(h, m * as), b = th_alloc(h, k * bs), c = th_alloc(h, m * cs);
	s8 *pa = th_ptr(h, a), *pb = th_ptr(h, b);
	const u8 *pc = th_ptr(h, c);

	(void)state;
	memset(pa, 0x80, m * as);	/* -128 */
	memset(pb, 0x80, k * bs);
	for (j = 0; j < k; j++)
		pb[j * bs + 1] = 127;
	th_desc_matmul(w, E1_V0_OP_MATMUL_S8, m, n, k, a, as, b, bs, c, cs);
	th_submit(h, w);
	assert_int_equal(th_run(h), 1);
	for (i = 0; i < m; i++) {
		assert_int_equal(rd_s32(pc + i * cs), 1024 * 128 * 128);
		assert_int_equal(rd_s32(pc + i * cs + 4), -1024 * 128 * 127);
	}
	th_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_matmul_small),
		cmocka_unit_test(test_matmul_odd_shapes),
		cmocka_unit_test(test_matmul_padded_strides),
		cmocka_unit_test(test_matmul_relu),
		cmocka_unit_test(test_matmul_envelope_max),
		cmocka_unit_test(test_matmul_extremes),
	};

	return cmocka_run_group_tests_name("v0-matmul", tests, NULL, NULL);
}
