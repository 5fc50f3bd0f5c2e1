// SPDX-License-Identifier: (GPL-2.0-only OR MIT)
/*
 * v0 wrapper: the CPU-fallback contract driven the way a driver on real
 * hardware drives it. The engine runs after *every* MMIO write (as on
 * hardware, or the QEMU device, it may run between any two register
 * writes), and the driver does not rewrite the failing descriptor: it
 * follows the seed's steps a-d (read the descriptor at ERR_DESC_INDEX, run
 * it on the CPU, clear IRQ_STATUS.unsupported_op | error, write DESC_TAIL).
 * A correct driver must see the descriptor counted once, no error after it
 * retired, and the ring resume with the next descriptor.
 */
#include "model-tests-helpers.h"

#define CTRL_FB (E1_V0_CTRL_ENABLE | E1_V0_CTRL_IRQ_ENABLE | E1_V0_CTRL_CPU_FALLBACK)
#define DIM 8

/* A register write followed by an engine run, as hardware may do. */
static void wr_run(struct th *h, u32 off, u32 val)
{
	th_wr(h, off, val);
	e1_model_run(h->m);
}

struct job {
	u64 a, b, c1, c2;
	s32 want[DIM * DIM];
};

/* Two identical 8x8x8 MATMULs around a FALLBACK, then a NOP with an IRQ. */
static void job_setup(struct th *h, struct job *j)
{
	u32 seed = 77, w[E1_V0_DESC_WORDS];
	const s8 *a, *b;
	int i, jj, k;

	j->a = th_alloc(h, DIM * 16);
	j->b = th_alloc(h, DIM * 16);
	j->c1 = th_alloc(h, DIM * DIM * 4);
	j->c2 = th_alloc(h, DIM * DIM * 4);
	th_fill_rand(&seed, th_ptr(h, j->a), DIM * 16);
	th_fill_rand(&seed, th_ptr(h, j->b), DIM * 16);
	memset(th_ptr(h, j->c2), 0x77, DIM * DIM * 4);
	a = th_ptr(h, j->a);
	b = th_ptr(h, j->b);
	for (i = 0; i < DIM; i++)
		for (jj = 0; jj < DIM; jj++) {
			s32 acc = 0;

			for (k = 0; k < DIM; k++)
				acc += a[i * 16 + k] * b[k * 16 + jj];
			j->want[i * DIM + jj] = acc;
		}

	th_desc_matmul(w, E1_V0_OP_MATMUL_S8, DIM, DIM, DIM, j->a, 16, j->b, 16,
		       j->c1, DIM * 4);
	w[E1_V0_DW_TAG] = 1;
	th_put_desc(h, 0, w);
	th_desc_nop(w, E1_V0_OP_FALLBACK);
	w[E1_V0_DW_TAG] = 0xfb;
	th_put_desc(h, 1, w);
	th_desc_matmul(w, E1_V0_OP_MATMUL_S8, DIM, DIM, DIM, j->a, 16, j->b, 16,
		       j->c2, DIM * 4);
	w[E1_V0_DW_TAG] = 3;
	th_put_desc(h, 2, w);
	th_desc_nop(w, E1_V0_OP_NOP);
	w[0] |= E1_V0_FLAG_IRQ_ON_COMPLETE;
	w[E1_V0_DW_TAG] = 4;
	th_put_desc(h, 3, w);
}

static void start(struct th *h, u32 ctrl)
{
	wr_run(h, E1_V0_CTRL, ctrl);
	wr_run(h, E1_V0_IRQ_MASK, E1_V0_IRQ_ALL);
	wr_run(h, E1_V0_DESC_DOORBELL, 4);
	/* Stalled on slot 1, visibly. */
	assert_int_equal(th_rd(h, E1_V0_DESC_TAIL), 1);
	assert_int_equal(th_q_level(h), 3);
	assert_false(th_status(h) & E1_V0_STATUS_BUSY);
	assert_true(th_status(h) & E1_V0_STATUS_ERROR);
	assert_int_equal(th_err_code(h), E1_V0_ERR_UNKNOWN_OP);
	assert_int_equal(th_rd(h, E1_V0_ERR_DESC_INDEX), 1);
	assert_int_equal(th_rd(h, E1_V0_PERF_FALLBACKS), 1);
}

/* The driver reads the descriptor the wrapper refused (step a). */
static void driver_reads_desc(struct th *h)
{
	const u32 *d = th_ptr(h, th_ring_addr(h) + E1_V0_DESC_SIZE *
			      th_rd(h, E1_V0_ERR_DESC_INDEX));

	assert_int_equal(d[0] & E1_V0_DESC_OP, E1_V0_OP_FALLBACK);
	assert_int_equal(d[E1_V0_DW_TAG], 0xfb);
}

/* Steps c then d, the seed's order: counted once, no spurious error. */
static void test_fallback_documented_order(void **state)
{
	struct th *h = th_new(NULL, 8);
	struct job j;

	(void)state;
	job_setup(h, &j);
	start(h, CTRL_FB);
	assert_true(h->line[E1_IRQ_FALLBACK]);
	driver_reads_desc(h);

	/* c: clear. The engine runs, but must not retry the descriptor. */
	wr_run(h, E1_V0_IRQ_STATUS, E1_V0_IRQ_UNSUPPORTED_OP | E1_V0_IRQ_ERROR);
	assert_int_equal(th_rd(h, E1_V0_PERF_FALLBACKS), 1);
	assert_false(th_status(h) & E1_V0_STATUS_ERROR);
	assert_false(th_status(h) & E1_V0_STATUS_BUSY);
	assert_int_equal(th_rd(h, E1_V0_IRQ_STATUS), 0);
	assert_int_equal(th_rd(h, E1_V0_DESC_TAIL), 1);
	assert_false(h->line[E1_IRQ_FALLBACK]);
	/* Its output is still untouched: nothing behind the stall ran. */
	assert_int_equal(*(u32 *)th_ptr(h, j.c2), 0x77777777);

	/* d: retire; the ring resumes and drains. */
	wr_run(h, E1_V0_DESC_TAIL, 2);
	assert_int_equal(th_rd(h, E1_V0_DESC_TAIL), 4);
	assert_int_equal(th_q_level(h), 0);
	assert_int_equal(th_rd(h, E1_V0_PERF_FALLBACKS), 1);
	assert_false(th_status(h) & E1_V0_STATUS_ERROR);
	assert_int_equal(th_err_code(h), 0);
	assert_int_equal(th_rd(h, E1_V0_IRQ_STATUS), E1_V0_IRQ_DONE);
	assert_int_equal(th_rd(h, E1_V0_COMPLETION_TAG), 4);
	assert_false(h->line[E1_IRQ_FALLBACK]);
	assert_memory_equal(th_ptr(h, j.c1), j.want, sizeof(j.want));
	assert_memory_equal(th_ptr(h, j.c2), j.want, sizeof(j.want));
	th_free(h);
}

/*
 * Steps d then c: the retire alone does not restart the ring while
 * STATUS.error is still latched (so nothing can overwrite the error the
 * driver is handling); the clear does.
 */
static void test_fallback_tail_before_clear(void **state)
{
	struct th *h = th_new(NULL, 8);
	struct job j;

	(void)state;
	job_setup(h, &j);
	start(h, CTRL_FB);
	wr_run(h, E1_V0_DESC_TAIL, 2);
	assert_int_equal(th_rd(h, E1_V0_DESC_TAIL), 2);
	assert_int_equal(th_rd(h, E1_V0_COMPLETION_TAG), 0xfb);
	assert_true(th_status(h) & E1_V0_STATUS_ERROR);
	assert_false(th_status(h) & E1_V0_STATUS_BUSY);
	assert_int_equal(*(u32 *)th_ptr(h, j.c2), 0x77777777);
	wr_run(h, E1_V0_IRQ_STATUS, E1_V0_IRQ_UNSUPPORTED_OP | E1_V0_IRQ_ERROR);
	assert_int_equal(th_rd(h, E1_V0_DESC_TAIL), 4);
	assert_int_equal(th_rd(h, E1_V0_PERF_FALLBACKS), 1);
	assert_false(th_status(h) & E1_V0_STATUS_ERROR);
	assert_int_equal(th_rd(h, E1_V0_IRQ_STATUS), E1_V0_IRQ_DONE);
	assert_memory_equal(th_ptr(h, j.c2), j.want, sizeof(j.want));
	th_free(h);
}

/*
 * cpu_fallback_select == 0: "the ring stalls until software issues
 * CTRL.flush". Clearing IRQ_STATUS dismisses the error but retries
 * nothing, even after the descriptor was patched; DESC_TAIL stays RO, also
 * when the mode is switched on after the failure; flush recovers.
 */
static void test_no_fallback_stalls_until_flush(void **state)
{
	struct th *h = th_new(NULL, 8);
	u32 w[E1_V0_DESC_WORDS];
	struct job j;

	(void)state;
	job_setup(h, &j);
	start(h, E1_V0_CTRL_ENABLE | E1_V0_CTRL_IRQ_ENABLE);
	assert_false(h->line[E1_IRQ_FALLBACK]);
	assert_true(h->line[E1_IRQ_NPU]);

	wr_run(h, E1_V0_IRQ_STATUS, E1_V0_IRQ_ALL);
	assert_false(th_status(h) & E1_V0_STATUS_ERROR);
	assert_false(h->line[E1_IRQ_NPU]);
	assert_int_equal(th_rd(h, E1_V0_PERF_FALLBACKS), 1);
	assert_int_equal(th_rd(h, E1_V0_DESC_TAIL), 1);
	assert_int_equal(th_q_level(h), 3);
	assert_false(th_status(h) & E1_V0_STATUS_BUSY);
	assert_false(e1_model_pending(h->m));

	/* Patching the descriptor does not restart the ring either. */
	th_desc_nop(w, E1_V0_OP_NOP);
	th_put_desc(h, 1, w);
	wr_run(h, E1_V0_IRQ_STATUS, E1_V0_IRQ_ALL);
	assert_int_equal(th_rd(h, E1_V0_DESC_TAIL), 1);
	wr_run(h, E1_V0_DESC_TAIL, 2);
	assert_int_equal(th_rd(h, E1_V0_DESC_TAIL), 1);
	/* Switching the mode on later does not make it a CPU-retirable stall. */
	wr_run(h, E1_V0_CTRL, CTRL_FB);
	wr_run(h, E1_V0_DESC_TAIL, 2);
	assert_int_equal(th_rd(h, E1_V0_DESC_TAIL), 1);
	assert_int_equal(th_q_level(h), 3);
	assert_int_equal(*(u32 *)th_ptr(h, j.c2), 0x77777777);

	/* Flush: empty, ERR_* reset, and the ring works again. */
	wr_run(h, E1_V0_CTRL, CTRL_FB | E1_V0_CTRL_FLUSH);
	assert_int_equal(th_status(h), E1_V0_STATUS_QUEUE_EMPTY);
	assert_int_equal(th_rd(h, E1_V0_ERR_DESC_INDEX), 0);
	th_desc_matmul(w, E1_V0_OP_MATMUL_S8, DIM, DIM, DIM, j.a, 16, j.b, 16,
		       j.c2, DIM * 4);
	th_put_desc(h, 0, w);
	wr_run(h, E1_V0_DESC_DOORBELL, 1);
	assert_int_equal(th_q_level(h), 0);
	assert_int_equal(th_err_code(h), 0);
	assert_memory_equal(th_ptr(h, j.c2), j.want, sizeof(j.want));
	th_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fallback_documented_order),
		cmocka_unit_test(test_fallback_tail_before_clear),
		cmocka_unit_test(test_no_fallback_stalls_until_flush),
	};

	return cmocka_run_group_tests_name("v0-fallback", tests, NULL, NULL);
}
