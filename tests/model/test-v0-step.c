// SPDX-License-Identifier: (GPL-2.0-only OR MIT)
/*
 * Split execution (e1_model_step_begin/compute/end): what the QEMU device
 * relies on to compute outside its register lock. The engine
 * reads busy from begin to end, even after a flush; a flush during the
 * computation stops it before it writes and the descriptor is not
 * retired; the yield hook runs during long computations.
 */
#include "model-tests-helpers.h"

struct mmbufs {
	u64 a, b, c;
	u32 m, n, k, as, bs, cs;
};

static void mm_setup(struct th *h, struct mmbufs *x, u32 m, u32 n, u32 k,
		     u32 seed)
{
	u32 w[E1_V0_DESC_WORDS];

	x->m = m;
	x->n = n;
	x->k = k;
	x->as = th_round16(k);
	x->bs = th_round16(n);
	x->cs = th_round16(4 * n);
	x->a = th_alloc(h, (u64)m * x->as);
	x->b = th_alloc(h, (u64)k * x->bs);
	x->c = th_alloc(h, (u64)m * x->cs);
	th_fill_rand(&seed, th_ptr(h, x->a), (size_t)m * x->as);
	th_fill_rand(&seed, th_ptr(h, x->b), (size_t)k * x->bs);
	memset(th_ptr(h, x->c), 0x5a, (size_t)m * x->cs);
	th_desc_matmul(w, E1_V0_OP_MATMUL_S8, m, n, k, x->a, x->as, x->b, x->bs,
		       x->c, x->cs);
	w[E1_V0_DW_OP] |= E1_V0_FLAG_IRQ_ON_COMPLETE;
	w[E1_V0_DW_TAG] = 0x57e90000u | m;
	th_submit(h, w);
}

/* C[i][j] of the reference product */
static s32 ref_c(struct th *h, const struct mmbufs *x, u32 i, u32 j)
{
	const s8 *a = th_ptr(h, x->a), *b = th_ptr(h, x->b);
	s32 s = 0;
	u32 t;

	for (t = 0; t < x->k; t++)
		s += (s32)a[i * x->as + t] * (s32)b[t * x->bs + j];
	return s;
}

static s32 got_c(struct th *h, const struct mmbufs *x, u32 i, u32 j)
{
	const u8 *p = (const u8 *)th_ptr(h, x->c) + (size_t)i * x->cs + 4 * j;

	return (s32)((u32)p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 | (u32)p[3] << 24);
}

static void step_runs_like_run(void **state)
{
	struct th *h = th_new(NULL, 16);
	struct mmbufs x;
	u32 i, j;

	(void)state;
	assert_int_equal(e1_model_step_begin(h->m), E1_STEP_IDLE);
	mm_setup(h, &x, 20, 24, 36, 1);
	assert_int_equal(e1_model_step_begin(h->m), E1_STEP_COMPUTE);
	/* between begin and end: busy, not retired, a second begin idles */
	assert_true(th_status(h) & E1_V0_STATUS_BUSY);
	assert_int_equal(th_rd(h, E1_V0_DESC_TAIL), 0);
	assert_int_equal(e1_model_step_begin(h->m), E1_STEP_IDLE);
	assert_int_equal(e1_model_run(h->m), 0);
	e1_model_step_compute(h->m);
	assert_int_equal(th_rd(h, E1_V0_DESC_TAIL), 0);
	assert_true(e1_model_step_end(h->m));
	assert_int_equal(th_rd(h, E1_V0_DESC_TAIL), 1);
	assert_false(th_status(h) & E1_V0_STATUS_BUSY);
	assert_true(th_status(h) & E1_V0_STATUS_DONE);
	assert_int_equal(th_rd(h, E1_V0_COMPLETION_TAG), 0x57e90000u | 20);
	assert_true(h->line[E1_IRQ_NPU]);
	for (i = 0; i < x.m; i++)
		for (j = 0; j < x.n; j++)
			assert_int_equal(got_c(h, &x, i, j), ref_c(h, &x, i, j));
	th_free(h);
}

static void flush_during_compute_drains(void **state)
{
	struct th *h = th_new(NULL, 16);
	struct mmbufs x;
	const u8 *c;
	size_t i;

	(void)state;
	mm_setup(h, &x, 64, 64, 64, 2);
	assert_int_equal(e1_model_step_begin(h->m), E1_STEP_COMPUTE);
	th_wr(h, E1_V0_CTRL, E1_V0_CTRL_FLUSH);
	/* the ring is reset, but the descriptor in execution still runs */
	assert_int_equal(th_rd(h, E1_V0_DESC_HEAD), 0);
	assert_true(th_status(h) & E1_V0_STATUS_BUSY);
	e1_model_step_compute(h->m);
	assert_true(th_status(h) & E1_V0_STATUS_BUSY);
	/* stopped at its first block: nothing written */
	c = th_ptr(h, x.c);
	for (i = 0; i < (size_t)x.m * x.cs; i++)
		assert_int_equal(c[i], 0x5a);
	assert_false(e1_model_step_end(h->m));
	assert_false(th_status(h) & E1_V0_STATUS_BUSY);
	assert_false(th_status(h) & E1_V0_STATUS_DONE);
	assert_int_equal(th_rd(h, E1_V0_DESC_TAIL), 0);
	assert_int_equal(th_rd(h, E1_V0_IRQ_STATUS), 0);
	assert_int_equal(th_rd(h, E1_V0_COMPLETION_TAG), 0);
	th_free(h);
}

static unsigned int yields;

static void count_yield(void *ctx)
{
	(void)ctx;
	yields++;
}

static void long_compute_yields(void **state)
{
	struct th *h = th_new(NULL, 16);
	struct mmbufs x;

	(void)state;
	e1_model_set_yield(h->m, count_yield);
	yields = 0;
	mm_setup(h, &x, 256, 256, 512, 3);
	assert_int_equal(e1_model_step_begin(h->m), E1_STEP_COMPUTE);
	e1_model_step_compute(h->m);
	assert_true(e1_model_step_end(h->m));
	/* 32M MACs: at least one call per 1M-MAC block */
	assert_true(yields >= 16);
	assert_int_equal(got_c(h, &x, 255, 255), ref_c(h, &x, 255, 255));
	th_free(h);
}

static void bad_descriptor_latches_at_begin(void **state)
{
	struct th *h = th_new(NULL, 16);
	u32 w[E1_V0_DESC_WORDS];

	(void)state;
	/* a MATMUL outside TENSOR_MEM: window error, nothing to compute */
	th_desc_matmul(w, E1_V0_OP_MATMUL_S8, 4, 4, 4, 1ull << 40, 16,
		       1ull << 40, 16, 1ull << 40, 16);
	th_submit(h, w);
	assert_int_equal(e1_model_step_begin(h->m), E1_STEP_DONE);
	assert_true(th_status(h) & E1_V0_STATUS_ERROR);
	assert_int_equal(th_err_code(h), E1_V0_ERR_WINDOW);
	assert_false(th_status(h) & E1_V0_STATUS_BUSY);
	assert_true(h->line[E1_IRQ_NPU]);
	th_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(step_runs_like_run),
		cmocka_unit_test(flush_during_compute_drains),
		cmocka_unit_test(long_compute_yields),
		cmocka_unit_test(bad_descriptor_latches_at_begin),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
