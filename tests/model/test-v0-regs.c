// SPDX-License-Identifier: (GPL-2.0-only OR MIT)
/*
 * v0 wrapper: reset values, register access types, the ring (doorbell,
 * q_level, full/empty, wrap-around, overflow, flush, enable).
 */
#include "model-tests-helpers.h"

static const u32 ro_regs[] = {
	E1_V0_ID, E1_V0_CAPS, E1_V0_STATUS, E1_V0_DESC_TAIL, E1_V0_PERF_CYCLES,
	E1_V0_PERF_MACS_LO, E1_V0_PERF_MACS_HI, E1_V0_PERF_FALLBACKS,
	E1_V0_ERR_DESC_INDEX, E1_V0_ERR_FAULT_ADDR_LO, E1_V0_ERR_FAULT_ADDR_HI,
	E1_V0_COMPLETION_TAG,
};

static void test_reset_values(void **state)
{
	struct th *h = th_new(NULL, 4);
	u32 off;

	(void)state;
	th_reinit(h, NULL);
	assert_int_equal(th_rd(h, E1_V0_ID), 0x4E505530);
	assert_int_equal(th_rd(h, E1_V0_CAPS),
			 E1_V0_CAPS_GEMMINI | E1_V0_CAPS_INT8 | E1_V0_CAPS_INT32_ACCUM |
			 E1_V0_CAPS_RELU | (16 << 8) | (16 << 16));
	assert_int_equal(th_status(h), E1_V0_STATUS_QUEUE_EMPTY);
	for (off = E1_V0_CTRL; off < E1_WIN_SIZE; off += 4)
		if (off != E1_V0_STATUS)
			assert_int_equal(th_rd(h, off), 0);
	for (off = 0; off < E1_IRQ_COUNT; off++)
		assert_false(h->line[off]);
	th_free(h);
}

static void test_caps_config(void **state)
{
	struct e1_model_config cfg;
	struct th *h = th_new(NULL, 4);

	(void)state;
	e1_model_default_config(&cfg);
	cfg.gemmini_present = false;
	cfg.rows = 8;
	cfg.cols = 32;
	th_reinit(h, &cfg);
	assert_int_equal(th_rd(h, E1_V0_CAPS), E1_V0_CAPS_INT8 | E1_V0_CAPS_INT32_ACCUM |
			 E1_V0_CAPS_RELU | (8 << 8) | (32 << 16));
	/* Absent windows read 0 and ignore writes. */
	cfg.wrapper_present = false;
	th_reinit(h, &cfg);
	assert_int_equal(th_rd(h, E1_V0_ID), 0);
	th_wr(h, E1_V0_CTRL, 1);
	assert_int_equal(th_rd(h, E1_V0_CTRL), 0);
	assert_int_equal(e1_model_run(h->m), 0);
	cfg.wrapper_present = true;
	cfg.datapath_present = false;
	th_reinit(h, &cfg);
	assert_int_equal(e1_model_read(h->m, E1_WIN_DATAPATH * E1_WIN_SIZE + E1_DP_ID), 0);
	assert_int_equal(th_rd(h, E1_V0_ID), E1_V0_ID_VALUE);
	/* Beyond both windows. */
	assert_int_equal(e1_model_read(h->m, 2 * E1_WIN_SIZE), 0);
	th_free(h);
}

static void test_ro_ignore_writes(void **state)
{
	struct th *h = th_new(NULL, 4);
	u32 before[sizeof(ro_regs) / sizeof(ro_regs[0])], i;

	(void)state;
	for (i = 0; i < sizeof(ro_regs) / sizeof(ro_regs[0]); i++)
		before[i] = th_rd(h, ro_regs[i]);
	for (i = 0; i < sizeof(ro_regs) / sizeof(ro_regs[0]); i++)
		th_wr(h, ro_regs[i], 0xA5A5A5A5);
	for (i = 0; i < sizeof(ro_regs) / sizeof(ro_regs[0]); i++)
		assert_int_equal(th_rd(h, ro_regs[i]), before[i]);
	th_free(h);
}

static void test_rw_registers(void **state)
{
	static const u32 rw[] = {
		E1_V0_DESC_BASE_LO, E1_V0_DESC_BASE_HI, E1_V0_DESC_RING_LEN,
		E1_V0_TENSOR_MEM_BASE_LO, E1_V0_TENSOR_MEM_BASE_HI,
		E1_V0_TENSOR_MEM_LEN,
	};
	struct th *h = th_new(NULL, 4);
	u32 i;

	(void)state;
	th_reinit(h, NULL);
	for (i = 0; i < sizeof(rw) / sizeof(rw[0]); i++) {
		th_wr(h, rw[i], 0x12345640 + i);
		assert_int_equal(th_rd(h, rw[i]), 0x12345640 + i);
	}
	/* CTRL: four bits, flush self-clears. */
	th_wr(h, E1_V0_CTRL, 0xffffffff);
	assert_int_equal(th_rd(h, E1_V0_CTRL), E1_V0_CTRL_ENABLE |
			 E1_V0_CTRL_IRQ_ENABLE | E1_V0_CTRL_CPU_FALLBACK);
	th_wr(h, E1_V0_IRQ_MASK, 0xffffffff);
	assert_int_equal(th_rd(h, E1_V0_IRQ_MASK), E1_V0_IRQ_ALL);
	/* DESC_HEAD stores without starting anything. */
	th_wr(h, E1_V0_DESC_RING_LEN, 8);
	th_wr(h, E1_V0_DESC_HEAD, 3);
	assert_int_equal(th_rd(h, E1_V0_DESC_HEAD), 3);
	assert_int_equal(th_q_level(h), 3);
	assert_false(th_status(h) & E1_V0_STATUS_BUSY);
	assert_false(e1_model_pending(h->m));
	assert_int_equal(e1_model_run(h->m), 0);
	/* WO: the doorbell reads 0. */
	th_wr(h, E1_V0_DESC_DOORBELL, 3);
	assert_int_equal(th_rd(h, E1_V0_DESC_DOORBELL), 0);
	th_free(h);
}

static void test_reserved_offsets(void **state)
{
	struct th *h = th_new(NULL, 4);
	u32 off;

	(void)state;
	for (off = E1_V0_REG_LAST + 4; off < E1_WIN_SIZE; off += 4) {
		th_wr(h, off, 0xffffffff);
		assert_int_equal(th_rd(h, off), 0);
	}
	th_wr(h, 0x03C, 0xffffffff);
	assert_int_equal(th_rd(h, 0x03C), 0);
	/* Unaligned accesses read 0 and are ignored. */
	assert_int_equal(th_rd(h, E1_V0_ID + 1), 0);
	th_wr(h, E1_V0_CTRL + 2, 0);
	assert_int_equal(th_rd(h, E1_V0_CTRL), E1_V0_CTRL_ENABLE | E1_V0_CTRL_IRQ_ENABLE);
	assert_int_equal(th_status(h), E1_V0_STATUS_QUEUE_EMPTY);
	th_free(h);
}

static void test_rw1c_irq_status(void **state)
{
	struct th *h = th_new(NULL, 4);
	u32 w[E1_V0_DESC_WORDS];

	(void)state;
	th_desc_nop(w, E1_V0_OP_NOP);
	w[E1_V0_DW_OP] |= E1_V0_FLAG_IRQ_ON_COMPLETE;
	th_submit(h, w);
	th_run(h);
	assert_int_equal(th_rd(h, E1_V0_IRQ_STATUS), E1_V0_IRQ_DONE);
	assert_true(th_status(h) & E1_V0_STATUS_DONE);
	assert_true(h->line[E1_IRQ_NPU]);
	th_wr(h, E1_V0_IRQ_STATUS, 0);
	th_wr(h, E1_V0_IRQ_STATUS, ~E1_V0_IRQ_DONE);
	assert_int_equal(th_rd(h, E1_V0_IRQ_STATUS), E1_V0_IRQ_DONE);
	th_wr(h, E1_V0_IRQ_STATUS, E1_V0_IRQ_DONE);
	assert_int_equal(th_rd(h, E1_V0_IRQ_STATUS), 0);
	assert_false(th_status(h) & E1_V0_STATUS_DONE);
	assert_false(h->line[E1_IRQ_NPU]);
	th_free(h);
}

static void test_done_needs_mask_and_flag(void **state)
{
	struct th *h = th_new(NULL, 4);
	u32 w[E1_V0_DESC_WORDS];

	(void)state;
	th_desc_nop(w, E1_V0_OP_NOP);
	th_submit(h, w);	/* no irq_on_complete */
	th_run(h);
	assert_int_equal(th_rd(h, E1_V0_IRQ_STATUS), 0);
	th_wr(h, E1_V0_IRQ_MASK, 0);
	w[E1_V0_DW_OP] |= E1_V0_FLAG_IRQ_ON_COMPLETE;
	th_submit(h, w);	/* mask off */
	th_run(h);
	assert_int_equal(th_rd(h, E1_V0_IRQ_STATUS), 0);
	assert_false(th_status(h) & E1_V0_STATUS_DONE);
	/* irq_enable gates the line, not the status. */
	th_wr(h, E1_V0_IRQ_MASK, E1_V0_IRQ_ALL);
	th_wr(h, E1_V0_CTRL, E1_V0_CTRL_ENABLE);
	th_submit(h, w);
	th_run(h);
	assert_int_equal(th_rd(h, E1_V0_IRQ_STATUS), E1_V0_IRQ_DONE);
	assert_false(h->line[E1_IRQ_NPU]);
	th_wr(h, E1_V0_CTRL, E1_V0_CTRL_ENABLE | E1_V0_CTRL_IRQ_ENABLE);
	assert_true(h->line[E1_IRQ_NPU]);
	/* Masking drops the level. */
	th_wr(h, E1_V0_IRQ_MASK, 0);
	assert_false(h->line[E1_IRQ_NPU]);
	th_free(h);
}

static void test_queue_levels(void **state)
{
	struct th *h = th_new(NULL, 8);
	u32 w[E1_V0_DESC_WORDS], i;

	(void)state;
	th_desc_nop(w, E1_V0_OP_NOP);
	for (i = 0; i < 7; i++)
		th_put_desc(h, i, w);
	th_wr(h, E1_V0_DESC_DOORBELL, 3);
	assert_int_equal(th_q_level(h), 3);
	assert_true(th_status(h) & E1_V0_STATUS_BUSY);
	assert_false(th_status(h) & (E1_V0_STATUS_QUEUE_EMPTY | E1_V0_STATUS_QUEUE_FULL));
	th_wr(h, E1_V0_DESC_DOORBELL, 7);
	assert_int_equal(th_q_level(h), 7);
	assert_true(th_status(h) & E1_V0_STATUS_QUEUE_FULL);
	assert_true(e1_model_pending(h->m));
	assert_int_equal(th_run(h), 7);
	assert_int_equal(th_rd(h, E1_V0_DESC_TAIL), 7);
	assert_int_equal(th_status(h), E1_V0_STATUS_QUEUE_EMPTY);
	assert_false(e1_model_pending(h->m));
	th_free(h);
}

static void test_wraparound_600(void **state)
{
	struct th *h = th_new(NULL, 256);
	u32 w[E1_V0_DESC_WORDS], sent = 0, done = 0, head = 0;

	(void)state;
	th_desc_nop(w, E1_V0_OP_NOP);
	while (done < 600) {
		u32 batch = 600 - sent < 200 ? 600 - sent : 200;
		u32 i;

		for (i = 0; i < batch; i++) {
			w[E1_V0_DW_TAG] = sent + i;
			th_put_desc(h, (head + i) & 255, w);
		}
		head = (head + batch) & 255;
		th_wr(h, E1_V0_DESC_DOORBELL, head);
		assert_int_equal(th_q_level(h), batch);
		sent += batch;
		assert_int_equal(th_run(h), batch);
		done += batch;
		assert_int_equal(th_rd(h, E1_V0_DESC_TAIL), head);
		assert_int_equal(th_rd(h, E1_V0_COMPLETION_TAG), done - 1);
	}
	assert_int_equal(th_rd(h, E1_V0_DESC_TAIL), 600 & 255);
	assert_int_equal(th_rd(h, E1_V0_PERF_CYCLES), 600 * E1_TIMING_DESC_FETCH);
	th_free(h);
}

static void test_fill_ring_255(void **state)
{
	struct th *h = th_new(NULL, 256);
	u32 w[E1_V0_DESC_WORDS], i, round;

	(void)state;
	th_desc_nop(w, E1_V0_OP_NOP);
	for (i = 0; i < 256; i++)
		th_put_desc(h, i, w);
	for (round = 1; round <= 3; round++) {
		u32 head = th_rd(h, E1_V0_DESC_HEAD);

		th_wr(h, E1_V0_DESC_DOORBELL, (head + 255) & 255);
		assert_int_equal(th_q_level(h), 255);
		assert_true(th_status(h) & E1_V0_STATUS_QUEUE_FULL);
		assert_int_equal(th_run(h), 255);
	}
	assert_int_equal(th_rd(h, E1_V0_DESC_TAIL), (3 * 255) & 255);
	th_free(h);
}

static void expect_overflow(struct th *h, u32 head_before)
{
	assert_true(th_status(h) & E1_V0_STATUS_ERROR);
	assert_int_equal(th_err_code(h), E1_V0_ERR_OVERFLOW);
	assert_true(th_rd(h, E1_V0_IRQ_STATUS) & E1_V0_IRQ_QUEUE_OVERFLOW);
	assert_true(th_rd(h, E1_V0_IRQ_STATUS) & E1_V0_IRQ_ERROR);
	assert_int_equal(th_rd(h, E1_V0_DESC_HEAD), head_before);
	assert_true(h->line[E1_IRQ_NPU]);
}

static void test_queue_overflow(void **state)
{
	struct th *h = th_new(NULL, 8);
	u32 w[E1_V0_DESC_WORDS], i;

	(void)state;
	th_desc_nop(w, E1_V0_OP_NOP);
	for (i = 0; i < 8; i++)
		th_put_desc(h, i, w);
	th_wr(h, E1_V0_DESC_DOORBELL, 5);
	/* 5 pending, 2 free: committing 3 more overflows. */
	th_wr(h, E1_V0_DESC_DOORBELL, 0);
	expect_overflow(h, 5);
	assert_int_equal(th_q_level(h), 5);
	/* Hard error: the ring is stalled, clearing the IRQ is not enough. */
	assert_int_equal(th_run(h), 0);
	assert_false(th_status(h) & E1_V0_STATUS_BUSY);
	th_wr(h, E1_V0_IRQ_STATUS, E1_V0_IRQ_ALL);
	assert_false(th_status(h) & E1_V0_STATUS_ERROR);
	assert_int_equal(th_run(h), 0);
	assert_int_equal(th_q_level(h), 5);
	/* Flush recovers. */
	th_wr(h, E1_V0_CTRL, E1_V0_CTRL_ENABLE | E1_V0_CTRL_IRQ_ENABLE | E1_V0_CTRL_FLUSH);
	assert_int_equal(th_status(h), E1_V0_STATUS_QUEUE_EMPTY);
	assert_int_equal(th_rd(h, E1_V0_DESC_HEAD), 0);
	assert_int_equal(th_rd(h, E1_V0_DESC_TAIL), 0);
	assert_int_equal(th_rd(h, E1_V0_CTRL), E1_V0_CTRL_ENABLE | E1_V0_CTRL_IRQ_ENABLE);
	th_wr(h, E1_V0_DESC_DOORBELL, 2);
	assert_int_equal(th_run(h), 2);

	/* A doorbell value outside the ring. */
	th_wr(h, E1_V0_DESC_DOORBELL, 8);
	expect_overflow(h, 2);
	th_free(h);
}

static void test_ring_config_checked_at_doorbell(void **state)
{
	static const u32 bad_len[] = { 0, 1, 3, 6, 512, 0x80000000 };
	struct th *h = th_new(NULL, 8);
	u32 i;

	(void)state;
	for (i = 0; i < sizeof(bad_len) / sizeof(bad_len[0]); i++) {
		th_wr(h, E1_V0_DESC_RING_LEN, bad_len[i]);
		th_wr(h, E1_V0_DESC_DOORBELL, 1);
		assert_int_equal(th_err_code(h), E1_V0_ERR_OVERFLOW);
		assert_true(th_rd(h, E1_V0_IRQ_STATUS) & E1_V0_IRQ_QUEUE_OVERFLOW);
		assert_int_equal(th_rd(h, E1_V0_DESC_HEAD), 0);
		th_wr(h, E1_V0_IRQ_STATUS, E1_V0_IRQ_ALL);
		th_wr(h, E1_V0_CTRL, E1_V0_CTRL_ENABLE | E1_V0_CTRL_FLUSH);
	}
	th_wr(h, E1_V0_DESC_RING_LEN, 2);
	th_wr(h, E1_V0_DESC_BASE_LO, (u32)TH_DRAM_BASE + 32);
	th_wr(h, E1_V0_DESC_DOORBELL, 1);
	assert_int_equal(th_err_code(h), E1_V0_ERR_ALIGN);
	assert_int_equal(th_rd(h, E1_V0_IRQ_STATUS), E1_V0_IRQ_ERROR);
	assert_int_equal(th_q_level(h), 0);
	th_free(h);
}

static void test_enable_gates_execution(void **state)
{
	struct th *h = th_new(NULL, 4);
	u32 w[E1_V0_DESC_WORDS];

	(void)state;
	th_wr(h, E1_V0_CTRL, E1_V0_CTRL_IRQ_ENABLE);
	th_desc_nop(w, E1_V0_OP_NOP);
	th_submit(h, w);
	assert_int_equal(th_rd(h, E1_V0_DESC_HEAD), 1);
	assert_false(e1_model_pending(h->m));
	assert_int_equal(th_run(h), 0);
	assert_int_equal(th_q_level(h), 1);
	th_wr(h, E1_V0_CTRL, E1_V0_CTRL_ENABLE);
	assert_true(e1_model_pending(h->m));
	assert_int_equal(th_run(h), 1);
	th_free(h);
}

static void test_doorbell_only_commits(void **state)
{
	struct th *h = th_new(NULL, 4);
	u32 w[E1_V0_DESC_WORDS];

	(void)state;
	th_desc_nop(w, E1_V0_OP_NOP);
	th_submit(h, w);
	/* Nothing ran inside the MMIO write. */
	assert_int_equal(th_rd(h, E1_V0_DESC_TAIL), 0);
	assert_int_equal(th_rd(h, E1_V0_PERF_CYCLES), 0);
	assert_int_equal(th_run(h), 1);
	th_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reset_values),
		cmocka_unit_test(test_caps_config),
		cmocka_unit_test(test_ro_ignore_writes),
		cmocka_unit_test(test_rw_registers),
		cmocka_unit_test(test_reserved_offsets),
		cmocka_unit_test(test_rw1c_irq_status),
		cmocka_unit_test(test_done_needs_mask_and_flag),
		cmocka_unit_test(test_queue_levels),
		cmocka_unit_test(test_wraparound_600),
		cmocka_unit_test(test_fill_ring_255),
		cmocka_unit_test(test_queue_overflow),
		cmocka_unit_test(test_ring_config_checked_at_doorbell),
		cmocka_unit_test(test_enable_gates_execution),
		cmocka_unit_test(test_doorbell_only_commits),
	};

	return cmocka_run_group_tests_name("v0-regs", tests, NULL, NULL);
}
