// SPDX-License-Identifier: MIT
/*
 * Engine concurrency (Documentation/libe1npu.md, "Engine concurrency"): a
 * command buffer with work for both engines submits independent jobs
 * together, so on the model's global clock they overlap and the makespan
 * (struct e1npu_perf.global_cycles) is the longer of the two; a job that
 * reads what another writes (or overwrites what it reads) runs after it,
 * and the makespan is the sum.
 *
 * Hand-computed: a 16x16x16 MATMUL_S8 costs 32 (descriptor fetch) + 128
 * cycles under the first pin's timing (E1NPU_SIM_TIMING=0;
 * Documentation/device-model.md, "Numbers"). The datapath's cost
 * of a job is measured alone first, from its own PERF_CYCLES; the tests
 * then check the makespan is max(W, D) or W + D of those. Results are
 * checked on every backend (in the QEMU guests the two engines of the
 * real driver run overlapping jobs); the makespan on the model only.
 */
#include "lib-test.h"
#include "backend.h"

#define W_CYCLES	(32 + 128)	/* one 16x16x16 MATMUL_S8 */

struct fx {
	struct e1npu_device *dev;
	struct e1npu_buffer *a, *b, *c;	/* matmul: a[16][16] x b[16][16] -> c */
	struct e1npu_buffer *x, *y, *z;	/* dp gemms: x[3][7] x y[7][3] -> z */
	int8_t *pa, *pb, *px, *py;
	int32_t *pc, *pz;
};

static void fx_open(struct fx *f)
{
	memset(f, 0, sizeof(*f));
	/* the first pin's timing: the hand-computed W_CYCLES (sim only) */
	setenv("E1NPU_SIM_TIMING", "0", 1);
	f->dev = t_open();
	unsetenv("E1NPU_SIM_TIMING");
	f->pa = t_buf(f->dev, 256, &f->a);
	f->pb = t_buf(f->dev, 256, &f->b);
	f->pc = t_buf(f->dev, 1024, &f->c);
	f->px = t_buf(f->dev, 64 * 21, &f->x);
	f->py = t_buf(f->dev, 64 * 21, &f->y);
	f->pz = t_buf(f->dev, 64 * 36, &f->z);
	t_fill(f->pa, 256, 1);
	t_fill(f->pb, 256, 2);
	t_fill(f->px, 64 * 21, 3);
	t_fill(f->py, 64 * 21, 4);
}

static void fx_close(struct fx *f)
{
	e1npu_buffer_free(f->a);
	e1npu_buffer_free(f->b);
	e1npu_buffer_free(f->c);
	e1npu_buffer_free(f->x);
	e1npu_buffer_free(f->y);
	e1npu_buffer_free(f->z);
	e1npu_device_close(f->dev);
}

static void add_matmul(struct fx *f, struct e1npu_cmdbuf *cb)
{
	struct e1npu_op_desc d;

	e1npu_op_desc_matmul(&d, t_tensor(f->a, 0, 16), t_tensor(f->b, 0, 16),
			     t_tensor(f->c, 0, 64), 16, 16, 16, 0);
	assert_true(e1npu_cmdbuf_add_op(cb, &d) >= 0);
}

/* Datapath GEMM @i of 3x3x7: a from @a at @a_off (stride 7), y, z tile i. */
static void add_dp(struct fx *f, struct e1npu_cmdbuf *cb, unsigned int i,
		   struct e1npu_buffer *a, uint64_t a_off)
{
	struct e1npu_op_desc d;

	e1npu_op_desc_dp_gemm(&d, 0, t_tensor(a, a_off, 7),
			      t_tensor(f->y, 21 * i, 3), t_tensor(f->z, 36 * i, 12),
			      3, 3, 7);
	assert_true(e1npu_cmdbuf_add_op(cb, &d) >= 0);
}

static void check_matmul(const struct fx *f)
{
	for (int i = 0; i < 16; i++)
		for (int j = 0; j < 16; j++) {
			int32_t s = 0;

			for (int k = 0; k < 16; k++)
				s += f->pa[i * 16 + k] * f->pb[k * 16 + j];
			assert_int_equal(f->pc[i * 16 + j], s);
		}
}

/* Tile @i computed from a[3][7] at @pa (stride 7). */
static void check_dp(const struct fx *f, unsigned int i, const int8_t *pa)
{
	for (int r = 0; r < 3; r++)
		for (int c = 0; c < 3; c++) {
			int32_t s = 0;

			for (int k = 0; k < 7; k++)
				s += pa[r * 7 + k] * f->py[21 * i + k * 3 + c];
			assert_int_equal(f->pz[9 * i + r * 3 + c], s);
		}
}

struct delta {
	uint64_t w, d, global;
	bool timed;	/* the makespan is known (in-process model) */
};

static void run(struct fx *f, struct e1npu_cmdbuf *cb, struct delta *dl)
{
	struct e1npu_perf p0, p1;

	assert_int_equal(e1npu_device_read_perf(f->dev, &p0), 0);
	assert_int_equal(e1npu_cmdbuf_run(cb), 0);
	assert_int_equal(e1npu_device_read_perf(f->dev, &p1), 0);
	dl->w = p1.wrapper_cycles - p0.wrapper_cycles;
	dl->d = p1.dp_cycles - p0.dp_cycles;
	dl->global = p1.global_cycles - p0.global_cycles;
	/* Only the model has one clock for both engines. */
	dl->timed = t_on_sim();
}

/* Jobs the last dp_alone() command buffer needed. */
static unsigned int dp_jobs;

/* The datapath cost of @n tiles, alone (nothing else on the clock). */
static uint64_t dp_alone(struct fx *f, unsigned int n)
{
	struct e1npu_cmdbuf *cb;
	struct delta dl;

	assert_int_equal(e1npu_cmdbuf_new(f->dev, &cb), 0);
	for (unsigned int i = 0; i < n; i++)
		add_dp(f, cb, i, f->x, 21 * i);
	run(f, cb, &dl);
	if (dl.timed) {
		assert_int_equal(dl.w, 0);
		assert_int_equal(dl.global, dl.d);
	}
	dp_jobs = e1npu_cmdbuf_get_num_jobs(cb);
	e1npu_cmdbuf_free(cb);
	return dl.d;
}

static void independent_case(unsigned int ntiles)
{
	struct e1npu_cmdbuf *cb;
	struct fx f;
	struct delta dl;
	uint64_t d;

	fx_open(&f);
	d = dp_alone(&f, ntiles);
	memset(f.pz, 0, 64 * 36);
	assert_int_equal(e1npu_cmdbuf_new(f.dev, &cb), 0);
	add_matmul(&f, cb);
	for (unsigned int i = 0; i < ntiles; i++)
		add_dp(&f, cb, i, f.x, 21 * i);
	run(&f, cb, &dl);
	if (dl.timed) {
		print_message("independent: %u tiles: W %llu D %llu makespan %llu\n",
			      ntiles, (unsigned long long)dl.w,
			      (unsigned long long)dl.d, (unsigned long long)dl.global);
		assert_int_equal(dl.w, W_CYCLES);
		assert_int_equal(dl.d, d);
		assert_int_equal(dl.global, W_CYCLES > d ? W_CYCLES : d);
	}
	/* The matmul's job, then the datapath's as alone. */
	assert_int_equal(e1npu_cmdbuf_get_num_jobs(cb), 1 + dp_jobs);
	check_matmul(&f);
	for (unsigned int i = 0; i < ntiles; i++)
		check_dp(&f, i, f.px + 21 * i);
	e1npu_cmdbuf_free(cb);
	fx_close(&f);
}

/* One tile is shorter than the matmul, 40 longer: max() picks each side. */
static void test_independent_overlap(void **state)
{
	struct fx f;
	uint64_t d1, d40;

	(void)state;
	fx_open(&f);
	d1 = dp_alone(&f, 1);
	d40 = dp_alone(&f, 40);
	fx_close(&f);
	if (t_on_sim()) {
		assert_true(d1 < W_CYCLES);
		assert_true(d40 > W_CYCLES);
	}
	independent_case(1);
	independent_case(40);
}

/* The datapath reads the matmul's output: read after write, W + D. */
static void test_raw_dependency_serialises(void **state)
{
	struct e1npu_cmdbuf *cb;
	struct fx f;
	struct delta dl;
	uint64_t d;

	(void)state;
	fx_open(&f);
	d = dp_alone(&f, 1);
	assert_int_equal(e1npu_cmdbuf_new(f.dev, &cb), 0);
	add_matmul(&f, cb);
	add_dp(&f, cb, 0, f.c, 0);	/* a = the first 21 bytes of c */
	run(&f, cb, &dl);
	if (dl.timed) {
		assert_int_equal(dl.w, W_CYCLES);
		assert_int_equal(dl.d, d);
		assert_int_equal(dl.global, W_CYCLES + d);
	}
	check_matmul(&f);
	check_dp(&f, 0, (const int8_t *)f.pc);
	assert_int_equal(e1npu_cmdbuf_get_num_jobs(cb), 2);
	e1npu_cmdbuf_free(cb);
	fx_close(&f);
}

/* The datapath overwrites the matmul's input: write after read, W + D. */
static void test_war_dependency_serialises(void **state)
{
	struct e1npu_cmdbuf *cb;
	struct e1npu_op_desc op;
	struct fx f;
	struct delta dl;
	uint64_t d;
	int8_t a0[256];

	(void)state;
	fx_open(&f);
	d = dp_alone(&f, 1);
	memcpy(a0, f.pa, sizeof(a0));
	assert_int_equal(e1npu_cmdbuf_new(f.dev, &cb), 0);
	add_matmul(&f, cb);
	/* z = x * y written over a's first 36 bytes */
	e1npu_op_desc_dp_gemm(&op, 0, t_tensor(f.x, 0, 7), t_tensor(f.y, 0, 3),
			      t_tensor(f.a, 0, 12), 3, 3, 7);
	assert_true(e1npu_cmdbuf_add_op(cb, &op) >= 0);
	run(&f, cb, &dl);
	if (dl.timed)
		assert_int_equal(dl.global, W_CYCLES + d);
	/* The matmul saw the old a. */
	memcpy(f.pa, a0, sizeof(a0));
	check_matmul(&f);
	e1npu_cmdbuf_free(cb);
	fx_close(&f);
}

/*
 * Wrapper, datapath, wrapper (all independent): the second matmul waits
 * for the first (same engine) but not for the datapath.
 */
static void test_pipeline_of_three(void **state)
{
	struct e1npu_cmdbuf *cb;
	struct e1npu_op_desc op;
	struct fx f;
	struct delta dl;
	uint64_t d;

	(void)state;
	fx_open(&f);
	d = dp_alone(&f, 40);
	if (t_on_sim())
		assert_true(d > 2 * W_CYCLES);
	assert_int_equal(e1npu_cmdbuf_new(f.dev, &cb), 0);
	add_matmul(&f, cb);
	for (unsigned int i = 0; i < 40; i++)
		add_dp(&f, cb, i, f.x, 21 * i);
	/* c2 = a * b again, into the second half of c */
	e1npu_op_desc_matmul(&op, t_tensor(f.a, 0, 16), t_tensor(f.b, 0, 16),
			     t_tensor(f.c, 0, 64), 16, 16, 16, 0);
	assert_true(e1npu_cmdbuf_add_op(cb, &op) >= 0);
	run(&f, cb, &dl);
	if (dl.timed) {
		assert_int_equal(dl.w, 2 * W_CYCLES);
		assert_int_equal(dl.global, d);
	}
	check_matmul(&f);
	for (unsigned int i = 0; i < 40; i++)
		check_dp(&f, i, f.px + 21 * i);
	e1npu_cmdbuf_free(cb);
	fx_close(&f);
}

/*
 * Without the systolic engine the wrapper rejects the matmuls (CPU
 * fallback) while the independent datapath job is in flight: every result
 * is still right, the outcomes say where each ran.
 */
static void test_fallback_with_overlap(void **state)
{
	struct e1npu_op_outcome o;
	struct e1npu_cmdbuf *cb;
	struct fx f;
	struct delta dl;

	(void)state;
	t_skip_unless_sim("E1NPU_SIM_GEMMINI is a knob of the in-process model");
	setenv("E1NPU_SIM_GEMMINI", "0", 1);
	fx_open(&f);
	unsetenv("E1NPU_SIM_GEMMINI");
	assert_int_equal(e1npu_cmdbuf_new(f.dev, &cb), 0);
	add_matmul(&f, cb);
	add_matmul(&f, cb);
	for (unsigned int i = 0; i < 3; i++)
		add_dp(&f, cb, i, f.x, 21 * i);
	add_dp(&f, cb, 3, f.c, 0);	/* reads the (CPU's) matmul output */
	run(&f, cb, &dl);
	check_matmul(&f);
	for (unsigned int i = 0; i < 3; i++)
		check_dp(&f, i, f.px + 21 * i);
	check_dp(&f, 3, (const int8_t *)f.pc);
	for (unsigned int i = 0; i < 6; i++) {
		assert_int_equal(e1npu_cmdbuf_get_outcome(cb, i, &o), 0);
		assert_int_equal(o.status, E1NPU_OP_STATUS_DONE);
		assert_int_equal(o.engine, i < 2 ? E1NPU_ENGINE_CPU : E1NPU_ENGINE_DATAPATH);
	}
	e1npu_cmdbuf_free(cb);
	fx_close(&f);
}

/* Submit @d alone to the backend, with @ndeps dependencies. */
static uint32_t be_submit(struct fx *f, const struct e1npu_op_desc *d,
			  uint32_t engine, const uint32_t *deps, uint32_t ndeps)
{
	struct e1npu_buffer *bufs[E1NPU_T_COUNT];
	struct e1npu_hw_op op;
	uint32_t id = 0;

	assert_int_equal(e1npu_op_validate(f->dev, 0, d, &op, bufs), 0);
	assert_int_equal(f->dev->be->submit(f->dev, &op, 1, engine, deps, ndeps, &id), 0);
	return id;
}

static void be_finish(struct fx *f, uint32_t id)
{
	struct e1npu_hw_result res;

	assert_int_equal(f->dev->be->wait(f->dev, id, -1), 0);
	assert_int_equal(f->dev->be->job_result(f->dev, id, &res), 0);
	assert_int_equal(res.state, E1NPU_HWJOB_DONE);
}

/*
 * The backends' job dependencies (sim: job ids on the global clock; DRM:
 * syncobjs): a datapath job depending on a wrapper job, both submitted
 * before either is waited for, runs after it (it reads its output), and
 * the makespan is the sum; without the dependency, and reading other
 * data, the two overlap.
 */
static void test_backend_dependency(void **state)
{
	struct e1npu_op_desc mm, dp;
	struct e1npu_perf p0, p1;
	uint32_t ja, jb;
	struct fx f;
	uint64_t d;

	(void)state;
	fx_open(&f);
	d = dp_alone(&f, 1);
	e1npu_op_desc_matmul(&mm, t_tensor(f.a, 0, 16), t_tensor(f.b, 0, 16),
			     t_tensor(f.c, 0, 64), 16, 16, 16, 0);
	e1npu_op_desc_dp_gemm(&dp, 0, t_tensor(f.c, 0, 7), t_tensor(f.y, 0, 3),
			      t_tensor(f.z, 0, 12), 3, 3, 7);
	assert_int_equal(e1npu_device_read_perf(f.dev, &p0), 0);
	ja = be_submit(&f, &mm, DRM_E1NPU_ENGINE_WRAPPER, NULL, 0);
	jb = be_submit(&f, &dp, DRM_E1NPU_ENGINE_DATAPATH, &ja, 1);
	be_finish(&f, jb);
	be_finish(&f, ja);
	assert_int_equal(e1npu_device_read_perf(f.dev, &p1), 0);
	check_matmul(&f);
	check_dp(&f, 0, (const int8_t *)f.pc);
	if (t_on_sim())
		assert_int_equal(p1.global_cycles - p0.global_cycles, W_CYCLES + d);

	/* Independent, no dependency: they overlap. */
	e1npu_op_desc_dp_gemm(&dp, 0, t_tensor(f.x, 0, 7), t_tensor(f.y, 0, 3),
			      t_tensor(f.z, 0, 12), 3, 3, 7);
	assert_int_equal(e1npu_device_read_perf(f.dev, &p0), 0);
	ja = be_submit(&f, &mm, DRM_E1NPU_ENGINE_WRAPPER, NULL, 0);
	jb = be_submit(&f, &dp, DRM_E1NPU_ENGINE_DATAPATH, NULL, 0);
	be_finish(&f, ja);
	be_finish(&f, jb);
	assert_int_equal(e1npu_device_read_perf(f.dev, &p1), 0);
	check_dp(&f, 0, f.px);
	if (t_on_sim())
		assert_int_equal(p1.global_cycles - p0.global_cycles,
				 W_CYCLES > d ? W_CYCLES : d);
	fx_close(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_independent_overlap),
		cmocka_unit_test(test_raw_dependency_serialises),
		cmocka_unit_test(test_war_dependency_serialises),
		cmocka_unit_test(test_pipeline_of_three),
		cmocka_unit_test(test_fallback_with_overlap),
		cmocka_unit_test(test_backend_dependency),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
