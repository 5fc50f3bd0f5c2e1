// SPDX-License-Identifier: (GPL-2.0-only OR MIT)
/*
 * The model's global clock (Documentation/device-model.md, "Engine
 * concurrency"): both engines on one timeline, work starting at the later
 * of the engine's busy end and its gate, the makespan. Expected values
 * are hand-computed under the first pin's timing (gemmini = 0): a 16x16x16
 * MATMUL costs 32 (fetch) + 128 cycles (test-v0-timing.c), a direct 1x1x7
 * datapath GEMM costs 7 (M*N*K).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "model-tests-helpers.h"

#define MM_CYCLES	(32 + 128)
#define DP_GEMM_CYCLES	7

/* A test host under the first pin's timing (the hand-computed charges). */
static struct th *th_first_pin(void)
{
	struct e1_model_config cfg;

	e1_model_default_config(&cfg);
	cfg.timing.gemmini = 0;
	return th_new(&cfg, 4);
}

static void wrapper_matmul(struct th *h)
{
	u64 a = th_alloc(h, 256), b = th_alloc(h, 256), c = th_alloc(h, 1024);
	u32 w[E1_V0_DESC_WORDS];

	th_desc_matmul(w, E1_V0_OP_MATMUL_S8, 16, 16, 16, a, 16, b, 16, c, 64);
	th_submit(h, w);
	assert_int_equal(th_run(h), 1);
}

/* @n direct GEMMs of 1x1x7 on the datapath, through MMIO only. */
static void dp_gemms(struct th *h, unsigned int n)
{
	u32 dp = E1_WIN_DATAPATH * E1_WIN_SIZE;

	e1_model_write(h->m, dp + E1_DP_GEMM_CFG, 1 | 1 << 8 | 7 << 16);
	e1_model_write(h->m, dp + E1_DP_GEMM_BASE, 0 | 8 << 8 | 16 << 16);
	e1_model_write(h->m, dp + E1_DP_GEMM_STRIDE, 0 | 1 << 8 | 0 << 16);
	e1_model_write(h->m, dp + E1_DP_OPCODE, E1_DP_OP_GEMM_S8);
	while (n--)
		e1_model_write(h->m, dp + E1_DP_CTRL_STATUS, E1_DP_CTRL_START);
}

static void test_independent_overlap(void **state)
{
	struct th *h = th_first_pin();

	(void)state;
	assert_int_equal(e1_model_makespan(h->m), 0);
	wrapper_matmul(h);
	dp_gemms(h, 10);
	/* Both gated at 0: they overlap, the makespan is the longer one. */
	assert_int_equal(e1_model_clock_busy_until(h->m, E1_ENGINE_WRAPPER), MM_CYCLES);
	assert_int_equal(e1_model_clock_busy_until(h->m, E1_ENGINE_DATAPATH),
			 10 * DP_GEMM_CYCLES);
	assert_int_equal(e1_model_makespan(h->m), MM_CYCLES);
	assert_int_equal(e1_model_clock_busy(h->m, E1_ENGINE_WRAPPER), MM_CYCLES);
	assert_int_equal(e1_model_clock_busy(h->m, E1_ENGINE_DATAPATH), 10 * DP_GEMM_CYCLES);
	/* The per-engine counters are unchanged by the clock. */
	assert_int_equal(th_rd(h, E1_V0_PERF_CYCLES), MM_CYCLES);
	assert_int_equal(e1_model_read(h->m, E1_WIN_DATAPATH * E1_WIN_SIZE + E1_DP_PERF_CYCLES),
			 10 * DP_GEMM_CYCLES);
	th_free(h);
}

static void test_dependent_serialises(void **state)
{
	struct th *h = th_first_pin();
	u64 end;

	(void)state;
	wrapper_matmul(h);
	/* The datapath reads the wrapper's output: gate it at its end. */
	end = e1_model_clock_busy_until(h->m, E1_ENGINE_WRAPPER);
	e1_model_clock_gate(h->m, E1_ENGINE_DATAPATH, end);
	dp_gemms(h, 10);
	assert_int_equal(e1_model_makespan(h->m), MM_CYCLES + 10 * DP_GEMM_CYCLES);
	/* Busy cycles are work only, not the wait. */
	assert_int_equal(e1_model_clock_busy(h->m, E1_ENGINE_DATAPATH), 10 * DP_GEMM_CYCLES);
	th_free(h);
}

static void test_gate_rules(void **state)
{
	struct th *h = th_first_pin();
	u32 dp = E1_WIN_DATAPATH * E1_WIN_SIZE;

	(void)state;
	dp_gemms(h, 2);
	/* A gate in the past never rewinds a busy engine. */
	e1_model_clock_gate(h->m, E1_ENGINE_DATAPATH, 0);
	dp_gemms(h, 1);
	assert_int_equal(e1_model_clock_busy_until(h->m, E1_ENGINE_DATAPATH),
			 3 * DP_GEMM_CYCLES);
	/* A gate after the engine's end leaves it idle until then. */
	e1_model_clock_gate(h->m, E1_ENGINE_WRAPPER, 1000);
	assert_int_equal(e1_model_makespan(h->m), 3 * DP_GEMM_CYCLES);	/* no work yet */
	wrapper_matmul(h);
	assert_int_equal(e1_model_makespan(h->m), 1000 + MM_CYCLES);
	assert_int_equal(e1_model_clock_busy(h->m, E1_ENGINE_WRAPPER), MM_CYCLES);
	/* Clearing the datapath counters does not move its clock. */
	e1_model_write(h->m, dp + E1_DP_PERF_ERRORS, 1);
	assert_int_equal(e1_model_read(h->m, dp + E1_DP_PERF_CYCLES), 0);
	dp_gemms(h, 1);
	assert_int_equal(e1_model_clock_busy_until(h->m, E1_ENGINE_DATAPATH),
			 4 * DP_GEMM_CYCLES);
	assert_int_equal(e1_model_clock_busy(h->m, E1_ENGINE_DATAPATH), 4 * DP_GEMM_CYCLES);
	/* Engines out of range: ignored, 0. */
	e1_model_clock_gate(h->m, E1_ENGINE_COUNT, 5);
	assert_int_equal(e1_model_clock_busy_until(h->m, E1_ENGINE_COUNT), 0);
	assert_int_equal(e1_model_clock_busy(h->m, 99), 0);
	th_free(h);
}

/* The split-execution path (the QEMU device's) advances the clock too. */
static void test_step_path(void **state)
{
	struct th *h = th_first_pin();
	u64 a = th_alloc(h, 256), b = th_alloc(h, 256), c = th_alloc(h, 1024);
	u32 w[E1_V0_DESC_WORDS];

	(void)state;
	e1_model_clock_gate(h->m, E1_ENGINE_WRAPPER, 40);
	th_desc_matmul(w, E1_V0_OP_MATMUL_S8, 16, 16, 16, a, 16, b, 16, c, 64);
	th_submit(h, w);
	assert_int_equal(e1_model_step_begin(h->m), E1_STEP_COMPUTE);
	e1_model_step_compute(h->m);
	assert_true(e1_model_step_end(h->m));
	assert_int_equal(e1_model_makespan(h->m), 40 + MM_CYCLES);
	th_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_independent_overlap),
		cmocka_unit_test(test_dependent_serialises),
		cmocka_unit_test(test_gate_rules),
		cmocka_unit_test(test_step_path),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
