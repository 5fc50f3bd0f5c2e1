// SPDX-License-Identifier: (GPL-2.0-only OR MIT)
/*
 * e1_model_run_budget(): a host retires a bounded number of descriptors per
 * call (e.g. one per lock hold) and the ring state in between is exactly
 * that of a half-drained queue.
 */
#include "model-tests-helpers.h"

static void put_nops(struct th *h, unsigned int n)
{
	u32 w[E1_V0_DESC_WORDS];
	unsigned int i;

	for (i = 0; i < n; i++) {
		memset(w, 0, sizeof(w));
		w[E1_V0_DW_OP] = E1_V0_OP_NOP;
		w[E1_V0_DW_TAG] = 0x100 + i;
		th_put_desc(h, i, w);
	}
	th_wr(h, E1_V0_DESC_DOORBELL, n);
}

static void budget_retires_at_most_max(void **state)
{
	struct th *h = th_new(NULL, 16);

	(void)state;
	put_nops(h, 5);
	assert_int_equal(e1_model_run_budget(h->m, 0), 0);
	assert_int_equal(th_rd(h, E1_V0_DESC_TAIL), 0);

	assert_int_equal(e1_model_run_budget(h->m, 2), 2);
	assert_int_equal(th_rd(h, E1_V0_DESC_TAIL), 2);
	assert_int_equal(th_q_level(h), 3);
	assert_int_equal(th_rd(h, E1_V0_COMPLETION_TAG), 0x101);
	assert_true(e1_model_pending(h->m));
	assert_true(th_status(h) & E1_V0_STATUS_BUSY);

	assert_int_equal(e1_model_run_budget(h->m, 1), 1);
	assert_int_equal(th_rd(h, E1_V0_COMPLETION_TAG), 0x102);

	/* A budget larger than the queue stops when it is empty. */
	assert_int_equal(e1_model_run_budget(h->m, 100), 2);
	assert_int_equal(th_rd(h, E1_V0_DESC_TAIL), 5);
	assert_int_equal(th_rd(h, E1_V0_COMPLETION_TAG), 0x104);
	assert_false(e1_model_pending(h->m));
	assert_true(th_status(h) & E1_V0_STATUS_QUEUE_EMPTY);
	th_free(h);
}

static void budget_matches_unbounded_run(void **state)
{
	struct th *a = th_new(NULL, 8), *b = th_new(NULL, 8);
	unsigned int n = 0;

	(void)state;
	put_nops(a, 7);
	put_nops(b, 7);
	assert_int_equal(e1_model_run(a->m), 7);
	while (e1_model_pending(b->m))
		n += e1_model_run_budget(b->m, 1);
	assert_int_equal(n, 7);
	assert_int_equal(th_rd(a, E1_V0_PERF_CYCLES), th_rd(b, E1_V0_PERF_CYCLES));
	assert_int_equal(th_rd(a, E1_V0_DESC_TAIL), th_rd(b, E1_V0_DESC_TAIL));
	th_free(a);
	th_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(budget_retires_at_most_max),
		cmocka_unit_test(budget_matches_unbounded_run),
	};

	return cmocka_run_group_tests_name("v0_budget", tests, NULL, NULL);
}
