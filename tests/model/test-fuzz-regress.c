// SPDX-License-Identifier: MIT
/*
 * Regression tests of device-model bugs found by the libFuzzer harnesses
 * (tests/fuzz/, Documentation/fuzzing.md). Each test replays the minimised
 * fuzzer input as plain register traffic.
 */
#include "model-tests-helpers.h"

/*
 * fuzz-model-mmio, regress-ring-len-shrunk-below-tail: 64 descriptors
 * retired in a 128-slot ring (tail = 64), DESC_RING_LEN rewritten to 4 and
 * one descriptor committed. The wrapper fetched slot 64, 4 KiB past
 * DESC_BASE, outside its 4-slot ring. It must fetch nothing outside
 * [DESC_BASE, DESC_BASE + 64 * len) and latch a hard queue error instead.
 */
static void test_ring_len_shrunk_below_tail(void **state)
{
	struct th *h = th_new(NULL, 128);
	u32 w[E1_V0_DESC_WORDS], i, st;
	u64 ring = th_ring_addr(h);

	(void)state;
	th_desc_nop(w, E1_V0_OP_NOP);
	for (i = 0; i < 64; i++)
		th_put_desc(h, i, w);
	th_wr(h, E1_V0_DESC_DOORBELL, 64);
	assert_int_equal(th_run(h), 64);
	assert_int_equal(th_rd(h, E1_V0_DESC_TAIL), 64);

	th_wr(h, E1_V0_DESC_RING_LEN, 4);
	th_wr(h, E1_V0_DESC_DOORBELL, 1);
	th_clear_log(h);
	th_run(h);

	for (i = 0; i < h->nmaps; i++)
		assert_true(h->maps[i].addr >= ring &&
			    h->maps[i].addr + h->maps[i].len <= ring + 4 * E1_V0_DESC_SIZE);
	st = th_status(h);
	assert_true(st & E1_V0_STATUS_ERROR);
	assert_int_equal(th_err_code(h), E1_V0_ERR_OVERFLOW);
	assert_true(th_rd(h, E1_V0_IRQ_STATUS) & E1_V0_IRQ_QUEUE_OVERFLOW);
	assert_false(st & E1_V0_STATUS_BUSY);

	/* A flush recovers the ring in its new length. */
	th_wr(h, E1_V0_CTRL, E1_V0_CTRL_ENABLE | E1_V0_CTRL_FLUSH);
	th_wr(h, E1_V0_IRQ_STATUS, E1_V0_IRQ_ALL);
	th_put_desc(h, 0, w);
	th_wr(h, E1_V0_DESC_DOORBELL, 1);
	assert_int_equal(th_run(h), 1);
	assert_int_equal(th_err_code(h), 0);
	th_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ring_len_shrunk_below_tail),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
