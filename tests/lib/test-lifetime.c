// SPDX-License-Identifier: MIT
/*
 * The lifetime model (Documentation/libe1npu.md, "Lifetime"): a command
 * buffer keeps the buffers it names, every object keeps its device, a
 * lowering context keeps its device, e1npu_fc keeps its context; frees
 * and closes in any order are safe, and whatever is still alive keeps
 * working. Run under ASan+UBSan (use after free) and LeakSanitizer (the
 * last reference really frees) by check-lib.
 *
 * Expected values are computed here: relu of a known pattern, a naive
 * int8 matmul.
 */
#include <time.h>

#include <e1npu/e1npu_ops.h>

#include "lib-test.h"
#include "sim.h"
#include "e1_model.h"

#define RELU_ROWS	4
#define RELU_W		16
#define RELU_BYTES	(RELU_ROWS * RELU_W)
#define MM		4	/* ops matmul: 4x4x8 */
#define MK		8

static int8_t pat(unsigned int i)
{
	return (int8_t)(i * 37u - 100u);
}

static void fill_a(int8_t *pa)
{
	for (unsigned int i = 0; i < RELU_BYTES; i++)
		pa[i] = pat(i);
}

static void expect_relu(const int8_t *pc)
{
	for (unsigned int i = 0; i < RELU_BYTES; i++) {
		int8_t v = pat(i);

		if (pc[i] != (v > 0 ? v : 0))
			fail_msg("c[%u] = %d, want relu(%d)", i, pc[i], v);
	}
}

/* A command buffer with one relu a -> c. */
static struct e1npu_cmdbuf *relu_cb(struct e1npu_device *dev,
				    struct e1npu_buffer *a,
				    struct e1npu_buffer *c)
{
	struct e1npu_cmdbuf *cb;
	struct e1npu_op_desc d;

	assert_int_equal(e1npu_cmdbuf_new(dev, &cb), 0);
	e1npu_op_desc_relu(&d, t_tensor(a, 0, RELU_W), t_tensor(c, 0, RELU_W),
			   RELU_ROWS, RELU_W);
	assert_int_equal(e1npu_cmdbuf_add_op(cb, &d), 0);
	return cb;
}

/*
 * A buffer allocated after the user freed @a: on the sim it would get
 * a's block were a really freed; scribble over it.
 */
static struct e1npu_buffer *scribble(struct e1npu_device *dev)
{
	struct e1npu_buffer *x;
	void *p = t_buf(dev, 4096, &x);

	memset(p, 0x81, 4096);	/* -127: relu would give 0 */
	return x;
}

/* A fresh input, relu into @c, checked. */
static void relu_run_check(struct e1npu_device *dev, struct e1npu_buffer *c)
{
	struct e1npu_buffer *a;
	struct e1npu_cmdbuf *cb;
	void *pc;

	fill_a(t_buf(dev, 4096, &a));
	assert_int_equal(e1npu_buffer_map(c, &pc), 0);
	memset(pc, 0x7f, RELU_BYTES);
	cb = relu_cb(dev, a, c);
	assert_int_equal(e1npu_cmdbuf_run(cb), 0);
	expect_relu(pc);
	e1npu_cmdbuf_free(cb);
	e1npu_buffer_free(a);
}

/* Bug 3, first order: add_op, free the input, run. */
static void test_free_before_run(void **state)
{
	struct e1npu_device *dev = t_open();
	struct e1npu_buffer *a, *c, *x;
	struct e1npu_cmdbuf *cb;
	int8_t *pc;

	(void)state;
	fill_a(t_buf(dev, 4096, &a));
	pc = t_buf(dev, 4096, &c);
	cb = relu_cb(dev, a, c);
	e1npu_buffer_free(a);
	x = scribble(dev);
	assert_int_equal(e1npu_cmdbuf_run(cb), 0);
	expect_relu(pc);
	e1npu_buffer_free(x);
	e1npu_cmdbuf_free(cb);
	e1npu_buffer_free(c);
	e1npu_device_close(dev);
}

/* Bug 3, second order: run + wait, free the input, resubmit. */
static void test_free_then_resubmit(void **state)
{
	struct e1npu_device *dev = t_open();
	struct e1npu_buffer *a, *c, *x;
	struct e1npu_cmdbuf *cb;
	int8_t *pc;

	(void)state;
	fill_a(t_buf(dev, 4096, &a));
	pc = t_buf(dev, 4096, &c);
	cb = relu_cb(dev, a, c);
	assert_int_equal(e1npu_cmdbuf_run(cb), 0);
	expect_relu(pc);
	e1npu_buffer_free(a);
	x = scribble(dev);
	memset(pc, 0x7f, RELU_BYTES);
	assert_int_equal(e1npu_cmdbuf_submit(cb), 0);
	assert_int_equal(e1npu_cmdbuf_wait(cb, -1), 0);
	expect_relu(pc);
	/* Output freed too: the command buffer still runs into it. */
	e1npu_buffer_free(c);
	assert_int_equal(e1npu_cmdbuf_run(cb), 0);
	/* Reset drops the references: a and c go back to the arena. */
	assert_int_equal(e1npu_cmdbuf_reset(cb), 0);
	e1npu_buffer_free(x);
	if (t_on_sim())
		assert_int_equal(e1npu_sim_free_blocks(dev), 1);
	e1npu_cmdbuf_free(cb);
	e1npu_device_close(dev);
}

static void mm_inputs(int8_t *a, int8_t *b)
{
	for (unsigned int i = 0; i < MM * MK; i++) {
		a[i] = (int8_t)(i * 7u + 3u);
		b[i] = (int8_t)(i * 11u - 50u);
	}
}

/* One 4x4x8 matmul through the lowering context, checked naively. */
static void ops_matmul_check(struct e1npu_ops *ops)
{
	int8_t a[MM * MK], b[MK * MM];
	int32_t c[MM * MM];

	mm_inputs(a, b);
	memset(c, 0x5a, sizeof(c));
	assert_int_equal(e1npu_ops_matmul_s8(ops, MM, MM, MK, a, MK, b, MM, c,
					     MM, NULL), 0);
	for (unsigned int i = 0; i < MM; i++)
		for (unsigned int j = 0; j < MM; j++) {
			int32_t s = 0;

			for (unsigned int k = 0; k < MK; k++)
				s += a[i * MK + k] * b[k * MM + j];
			assert_int_equal(c[i * MM + j], s);
		}
}

/* Bug 4: ops_new, a matmul, close the device, then free the context. */
static void test_ops_outlives_device(void **state)
{
	struct e1npu_device *dev = t_open();
	struct e1npu_ops *ops;

	(void)state;
	assert_int_equal(e1npu_ops_new(dev, &ops), 0);
	ops_matmul_check(ops);
	e1npu_device_close(dev);
	e1npu_ops_free(ops);

	/* The context holds the device open: it still runs. */
	dev = t_open();
	assert_int_equal(e1npu_ops_new(dev, &ops), 0);
	e1npu_device_close(dev);
	ops_matmul_check(ops);
	e1npu_ops_free(ops);
}

/* An e1npu_fc holds its context, which holds the device. */
static void test_fc_outlives_context(void **state)
{
	struct e1npu_device *dev = t_open();
	struct e1npu_fc_params p;
	struct e1npu_ops *ops, *cpu;
	struct e1npu_fc *fc, *fc_cpu;
	float ws = 0.02f;
	int8_t w[8 * 16], in[2 * 16], out[2 * 8], want[2 * 8];

	(void)state;
	memset(&p, 0, sizeof(p));
	p.dtype = E1NPU_DTYPE_INT8;
	p.k = 16;
	p.n = 8;
	p.input.scale = 0.05f;
	p.output.scale = 0.1f;
	p.weight_scales = &ws;
	p.num_weight_scales = 1;
	for (unsigned int i = 0; i < sizeof(w); i++)
		w[i] = (int8_t)(i * 13u - 60u);
	for (unsigned int i = 0; i < sizeof(in); i++)
		in[i] = (int8_t)(i * 5u - 40u);
	/* The same layer on a CPU-only context gives the expected bytes. */
	assert_int_equal(e1npu_ops_new(NULL, &cpu), 0);
	assert_int_equal(e1npu_fc_new(cpu, &p, w, NULL, &fc_cpu), 0);
	assert_int_equal(e1npu_fc_run(fc_cpu, 2, in, want, NULL), 0);

	assert_int_equal(e1npu_ops_new(dev, &ops), 0);
	assert_int_equal(e1npu_fc_new(ops, &p, w, NULL, &fc), 0);
	e1npu_ops_free(ops);
	e1npu_device_close(dev);
	memset(out, 0, sizeof(out));
	assert_int_equal(e1npu_fc_run(fc, 2, in, out, NULL), 0);
	assert_memory_equal(out, want, sizeof(out));
	e1npu_fc_free(fc);
	e1npu_ops_free(cpu);
	e1npu_fc_free(fc_cpu);
}

/*
 * Every order of {device close, buffers free, command buffer free, ops
 * free}, with the command buffer idle, submitted (not waited) or run;
 * after each step whatever is still the user's keeps working.
 */
enum { O_DEV, O_BUF, O_CB, O_OPS, O_N };
enum { CB_FILLED, CB_SUBMITTED, CB_RAN, CB_VARIANTS };

struct world {
	struct e1npu_device *dev;
	struct e1npu_buffer *a, *c;
	int8_t *pa, *pc;
	struct e1npu_cmdbuf *cb;
	struct e1npu_ops *ops;
	bool live[O_N];
	int variant;
};

static void world_init(struct world *w, int variant)
{
	memset(w, 0, sizeof(*w));
	w->variant = variant;
	w->dev = t_open();
	w->pa = t_buf(w->dev, 4096, &w->a);
	fill_a(w->pa);
	w->pc = t_buf(w->dev, 4096, &w->c);
	w->cb = relu_cb(w->dev, w->a, w->c);
	assert_int_equal(e1npu_ops_new(w->dev, &w->ops), 0);
	ops_matmul_check(w->ops);
	if (variant == CB_SUBMITTED)
		assert_int_equal(e1npu_cmdbuf_submit(w->cb), 0);
	if (variant == CB_RAN) {
		assert_int_equal(e1npu_cmdbuf_run(w->cb), 0);
		expect_relu(w->pc);
	}
	for (int i = 0; i < O_N; i++)
		w->live[i] = true;
}

static void world_drop(struct world *w, int obj)
{
	switch (obj) {
	case O_DEV:
		e1npu_device_close(w->dev);
		break;
	case O_BUF:
		e1npu_buffer_free(w->a);
		e1npu_buffer_free(w->c);
		break;
	case O_CB:
		e1npu_cmdbuf_free(w->cb);
		break;
	case O_OPS:
		e1npu_ops_free(w->ops);
		break;
	}
	w->live[obj] = false;
}

/* Use what the user still owns. */
static void world_use(struct world *w)
{
	if (w->live[O_DEV]) {
		struct e1npu_device_info info;
		struct e1npu_buffer *x;

		assert_int_equal(e1npu_device_get_info(w->dev, &info), 0);
		t_buf(w->dev, 100, &x);
		e1npu_buffer_free(x);
	}
	if (w->live[O_BUF]) {
		for (unsigned int i = 0; i < RELU_BYTES; i++)
			assert_int_equal(w->pa[i], pat(i));
		if (w->variant == CB_RAN)
			expect_relu(w->pc);
	}
	if (w->live[O_CB] && w->variant == CB_RAN) {
		if (w->live[O_BUF])
			memset(w->pc, 0x7f, RELU_BYTES);
		assert_int_equal(e1npu_cmdbuf_run(w->cb), 0);
		if (w->live[O_BUF])
			expect_relu(w->pc);
	}
	if (w->live[O_OPS])
		ops_matmul_check(w->ops);
}

static bool next_perm(int *p, int n)
{
	int i = n - 2, j = n - 1, t;

	while (i >= 0 && p[i] >= p[i + 1])
		i--;
	if (i < 0)
		return false;
	while (p[j] <= p[i])
		j--;
	t = p[i];
	p[i] = p[j];
	p[j] = t;
	for (i++, j = n - 1; i < j; i++, j--) {
		t = p[i];
		p[i] = p[j];
		p[j] = t;
	}
	return true;
}

static void test_every_order(void **state)
{
	unsigned int orders = 0;

	(void)state;
	for (int v = 0; v < CB_VARIANTS; v++) {
		int perm[O_N] = { 0, 1, 2, 3 };

		do {
			struct world w;

			world_init(&w, v);
			for (int s = 0; s < O_N; s++) {
				world_drop(&w, perm[s]);
				world_use(&w);
			}
			orders++;
		} while (next_perm(perm, O_N));
	}
	assert_int_equal(orders, 24 * CB_VARIANTS);
}

/*
 * Free of a submitted command buffer whose job never completes on its own
 * returns after the bounded wait (10 s), not after the job's timeout.
 */
static void test_free_submitted_hung(void **state)
{
	struct e1npu_device *dev;
	struct e1npu_buffer *a, *c;
	struct e1npu_cmdbuf *cb;
	struct e1npu_op_desc d;
	int64_t t0, dt;
	struct timespec ts;

	(void)state;
	t_skip_unless_sim("hang injection into the model");
	setenv("E1NPU_SIM_HANG_MS", "30000", 1);
	dev = t_open();
	unsetenv("E1NPU_SIM_HANG_MS");
	fill_a(t_buf(dev, 4096, &a));
	t_buf(dev, 4096, &c);
	cb = relu_cb(dev, a, c);
	e1npu_op_desc_nop(&d);
	assert_int_equal(e1npu_cmdbuf_add_op(cb, &d), 1);
	e1_model_inject_hang(e1npu_sim_model(dev), true);
	assert_int_equal(e1npu_cmdbuf_submit(cb), 0);
	e1npu_buffer_free(a);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	t0 = ts.tv_sec * 1000000000LL + ts.tv_nsec;
	e1npu_cmdbuf_free(cb);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	dt = ts.tv_sec * 1000000000LL + ts.tv_nsec - t0;
	print_message("cmdbuf_free of a hung job returned after %lld ms\n",
		      (long long)(dt / 1000000));
	assert_true(dt < 20 * 1000000000LL);
	/* The abandoned job is reset by the next submission. */
	relu_run_check(dev, c);
	e1npu_device_close(dev);
	e1npu_buffer_free(c);	/* the last reference: the device closes */
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_free_before_run),
		cmocka_unit_test(test_free_then_resubmit),
		cmocka_unit_test(test_ops_outlives_device),
		cmocka_unit_test(test_fc_outlives_context),
		cmocka_unit_test(test_every_order),
		cmocka_unit_test(test_free_submitted_hung),
	};

	if (argc > 1)
		cmocka_set_test_filter(argv[1]);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
