// SPDX-License-Identifier: MIT
/*
 * Every hardware operation through libe1npu on the device under test
 * (lib-test.h: in-process backend or E1NPU_DEVICE's kernel node), against
 * naive references written here; CPU fallback; job splitting; timeouts on
 * a hung engine and bus errors (fault injection: in-process only); perf
 * counters (the driver's are per device, so deltas are compared). On the
 * kernel backend the engine-shape tests run when the device has that
 * shape: the QEMU board's NPU with gemmini-present=0, or the datapath-only
 * node of the split device tree (tests/kernel/run-guest.sh and
 * run-guest-split.sh run them one by one through guest-lib-tests.sh).
 */
#include <stdio.h>
#include <time.h>

#include "lib-test.h"
#include "sim.h"
#include "e1_model.h"

struct fix {
	struct e1npu_device *dev;
	struct e1npu_buffer *a, *b, *c;
	uint8_t *pa, *pb, *pc;
	struct e1npu_cmdbuf *cb;
};

static void fix_init(struct fix *f, size_t sa, size_t sb, size_t sc)
{
	memset(f, 0, sizeof(*f));
	f->dev = t_open();
	f->pa = t_buf(f->dev, sa, &f->a);
	f->pb = t_buf(f->dev, sb, &f->b);
	f->pc = t_buf(f->dev, sc, &f->c);
	assert_int_equal(e1npu_cmdbuf_new(f->dev, &f->cb), 0);
}

/*
 * On the kernel backend the environment cannot shape the device: run when
 * the driver's device has no wrapper (@wrapper false) or a wrapper without
 * Gemmini (@wrapper true), skip with @why otherwise.
 */
#define skip_unless_shape(wrapper, why) do {					\
	struct e1npu_device *d_ = t_open();					\
	struct e1npu_device_info i_;						\
	bool ok_;								\
										\
	assert_int_equal(e1npu_device_get_info(d_, &i_), 0);			\
	e1npu_device_close(d_);							\
	ok_ = (wrapper) ? (i_.engines & E1NPU_ENGINE_BIT(E1NPU_ENGINE_WRAPPER)) && \
			  !i_.gemmini_present :					\
			  !(i_.engines & E1NPU_ENGINE_BIT(E1NPU_ENGINE_WRAPPER)); \
	if (!ok_) {								\
		print_message("[  SKIP    ] %s on %s: %s\n", __func__,		\
			      t_spec(), why);					\
		skip();								\
	}									\
} while (0)

/* Any order is safe; this one is the usual: users first, device last. */
static void fix_fini(struct fix *f)
{
	e1npu_cmdbuf_free(f->cb);
	e1npu_buffer_free(f->a);
	e1npu_buffer_free(f->b);
	e1npu_buffer_free(f->c);
	e1npu_device_close(f->dev);
}

static void expect_outcome(struct e1npu_cmdbuf *cb, unsigned int i,
			   uint32_t status, uint32_t engine)
{
	struct e1npu_op_outcome o;

	assert_int_equal(e1npu_cmdbuf_get_outcome(cb, i, &o), 0);
	if (o.status != status || o.engine != engine)
		fail_msg("op %u: status %u engine %u (want %u %u), reason '%s'",
			 i, o.status, o.engine, status, engine, o.reason);
}

static void run_ok(struct fix *f, const struct e1npu_op_desc *d,
		   uint32_t engine)
{
	assert_int_equal(e1npu_cmdbuf_reset(f->cb), 0);
	if (e1npu_cmdbuf_add_op(f->cb, d) != 0)
		fail_msg("add_op: %s", e1npu_device_last_error(f->dev));
	assert_int_equal(e1npu_cmdbuf_run(f->cb), 0);
	expect_outcome(f->cb, 0, E1NPU_OP_STATUS_DONE, engine);
}

/* C = A x B (+relu), naive, against the device result. */
static void check_matmul(struct fix *f, uint32_t m, uint32_t n, uint32_t k,
			 uint32_t sa, uint32_t sb, uint32_t sc, bool relu)
{
	uint32_t i, j, x;

	for (i = 0; i < m; i++)
		for (j = 0; j < n; j++) {
			int32_t want = 0;

			for (x = 0; x < k; x++)
				want += (int8_t)f->pa[i * sa + x] *
					(int8_t)f->pb[x * sb + j];
			if (relu && want < 0)
				want = 0;
			if (t_rd32(f->pc + i * sc + 4 * j) != want)
				fail_msg("C[%u][%u] = %d, want %d", i, j,
					 t_rd32(f->pc + i * sc + 4 * j), want);
		}
}

static void test_matmul(void **state)
{
	static const uint32_t shapes[][3] = {
		{ 1, 1, 1 }, { 16, 16, 16 }, { 17, 33, 9 }, { 64, 64, 64 },
		{ 3, 100, 250 }, { 130, 7, 31 },
	};
	struct fix f;
	size_t s;

	(void)state;
	fix_init(&f, 1 << 20, 1 << 20, 1 << 20);
	for (s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++) {
		uint32_t m = shapes[s][0], n = shapes[s][1], k = shapes[s][2];
		uint32_t sa = t_align16(k), sb = t_align16(n) + 16, sc = t_align16(4 * n);
		struct e1npu_op_desc d;
		int relu;

		t_fill(f.pa, (size_t)m * sa, 11 + (uint32_t)s);
		t_fill(f.pb, (size_t)k * sb, 77 + (uint32_t)s);
		for (relu = 0; relu < 2; relu++) {
			memset(f.pc, 0x5a, (size_t)m * sc);
			e1npu_op_desc_matmul(&d, t_tensor(f.a, 0, sa), t_tensor(f.b, 0, sb),
					     t_tensor(f.c, 0, sc), m, n, k,
					     relu ? E1NPU_OP_FLAG_RELU : 0);
			run_ok(&f, &d, E1NPU_ENGINE_WRAPPER);
			check_matmul(&f, m, n, k, sa, sb, sc, relu);
		}
	}
	fix_fini(&f);
}

struct conv_case {
	uint32_t h, w, cin, cout, ks, stride, pad, dil;
};

static void test_conv2d(void **state)
{
	static const struct conv_case cases[] = {
		{ 8, 8, 3, 4, 1, 1, 0, 1 },
		{ 9, 7, 5, 6, 3, 1, 1, 1 },
		{ 12, 12, 4, 3, 3, 2, 1, 1 },
		{ 11, 13, 2, 5, 5, 1, 2, 1 },
		{ 16, 16, 3, 2, 5, 2, 2, 1 },
		{ 14, 14, 2, 3, 3, 1, 2, 2 },
	};
	struct fix f;
	size_t s;

	(void)state;
	fix_init(&f, 1 << 20, 1 << 20, 1 << 20);
	for (s = 0; s < sizeof(cases) / sizeof(cases[0]); s++) {
		const struct conv_case *c = &cases[s];
		uint32_t eff = (c->ks - 1) * c->dil + 1;
		uint32_t oh = (c->h + 2 * c->pad - eff) / c->stride + 1;
		uint32_t ow = (c->w + 2 * c->pad - eff) / c->stride + 1;
		uint32_t sa = t_align16(c->w * c->cin), sb = t_align16(c->cout);
		uint32_t sc = t_align16(4 * ow * c->cout);
		uint32_t y, x, co, kh, kw, ci;
		struct e1npu_op_desc d;

		t_fill(f.pa, (size_t)c->h * sa, 5 + (uint32_t)s);
		t_fill(f.pb, (size_t)c->ks * c->ks * c->cin * sb, 9 + (uint32_t)s);
		memset(f.pc, 0x33, (size_t)oh * sc);
		e1npu_op_desc_conv2d(&d, t_tensor(f.a, 0, sa), t_tensor(f.b, 0, sb),
				     t_tensor(f.c, 0, sc), c->h, c->w, c->cin,
				     c->cout, c->ks, oh, ow, c->stride, c->stride,
				     c->pad, c->pad, c->dil, s & 1 ? E1NPU_OP_FLAG_RELU : 0);
		run_ok(&f, &d, E1NPU_ENGINE_WRAPPER);
		for (y = 0; y < oh; y++)
			for (x = 0; x < ow; x++)
				for (co = 0; co < c->cout; co++) {
					int32_t want = 0;

					for (kh = 0; kh < c->ks; kh++)
						for (kw = 0; kw < c->ks; kw++) {
							int iy = (int)(y * c->stride + kh * c->dil) - (int)c->pad;
							int ix = (int)(x * c->stride + kw * c->dil) - (int)c->pad;

							if (iy < 0 || ix < 0 || iy >= (int)c->h || ix >= (int)c->w)
								continue;
							for (ci = 0; ci < c->cin; ci++)
								want += (int8_t)f.pa[iy * sa + ix * c->cin + ci] *
									(int8_t)f.pb[((kh * c->ks + kw) * c->cin + ci) * sb + co];
						}
					if ((s & 1) && want < 0)
						want = 0;
					assert_int_equal(t_rd32(f.pc + y * sc + 4 * (x * c->cout + co)), want);
				}
	}
	fix_fini(&f);
}

static void test_relu_maxpool(void **state)
{
	struct e1npu_op_desc d;
	uint32_t i, j, y, x, ch, win, st;
	struct fix f;

	(void)state;
	fix_init(&f, 1 << 16, 4096, 1 << 16);
	t_fill(f.pa, 1 << 16, 3);
	e1npu_op_desc_relu(&d, t_tensor(f.a, 0, 48), t_tensor(f.c, 16, 64), 20, 40);
	run_ok(&f, &d, E1NPU_ENGINE_WRAPPER);
	for (i = 0; i < 20; i++)
		for (j = 0; j < 40; j++) {
			int8_t v = (int8_t)f.pa[i * 48 + j];

			assert_int_equal((int8_t)f.pc[16 + i * 64 + j], v < 0 ? 0 : v);
		}
	for (win = 2; win <= 3; win++)
		for (st = 1; st <= 2; st++) {
			uint32_t h = 11, w = 9, c = 5;
			uint32_t oh = (h - win) / st + 1, ow = (w - win) / st + 1;
			uint32_t sa = t_align16(w * c), sc = t_align16(ow * c);

			e1npu_op_desc_maxpool(&d, t_tensor(f.a, 0, sa), t_tensor(f.c, 0, sc),
					      h, w, c, win, st);
			run_ok(&f, &d, E1NPU_ENGINE_WRAPPER);
			for (y = 0; y < oh; y++)
				for (x = 0; x < ow; x++)
					for (ch = 0; ch < c; ch++) {
						int8_t best = -128;
						uint32_t a, b;

						for (a = 0; a < win; a++)
							for (b = 0; b < win; b++) {
								int8_t v = (int8_t)f.pa[(y * st + a) * sa +
											(x * st + b) * c + ch];
								if (v > best)
									best = v;
							}
						assert_int_equal((int8_t)f.pc[y * sc + x * c + ch], best);
					}
		}
	fix_fini(&f);
}

static void put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

/* Independent expected values of a few scalar commands per opcode. */
struct scalar_case {
	uint32_t op, a, b, acc, flags, result, result_hi;
};

static void test_dp_scalar(void **state)
{
	static const struct scalar_case cases[] = {
		{ 0, 0xffffffffu, 2, 0, 0, 1, 0 },		/* ADD wraps */
		{ 1, 1, 2, 0, 0, 0xffffffffu, 0 },		/* SUB */
		{ 2, 0x10000u, 0x10001u, 0, 0, 0x10000u, 1 },	/* MUL_LO */
		{ 3, 0xffff, 3, 10, 0, 7, 0 },			/* MAC_S16: -1*3+10 */
		{ 3, 0x8000, 2, 0, 0, 0xffff0000u, 0xffffffffu },
		{ 4, 0x01020304u, 0xff010203u, 5, 0, 5 + 3*4 + 2*3 + 1*2 - 1, 0 },	/* DOT4 */
		{ 5, 3, 0xfffffff0u, 0, 0, 0xfffffff0u, 0 },	/* MAX_U32 */
		{ 6, 3, 0xfffffff0u, 0, 0, 3, 0 },		/* MIN_U32 */
		{ 7, 0x000000f1u, 0x00000071u, 0, 0, (uint32_t)(1*1 + (-1)*7), 0xffffffffu },	/* DOT8_S4 */
		{ 10, 0x80ff7f01u, 0, 0, 0, 0x00007f01u, 0 },	/* RELU4 */
		{ 12, 0x1111, 0x76543210u, 0x0e4, 0, 0 + 1 + 6 + 7, 0 },	/* SDOT4: p=0,1,2,3 */
		{ 13, 0x5, 0x5, 0, 0, 2, 0 },			/* DOT16_S2: 1*1 + 1*1 */
		/* ternary: a lane0 = 0b10 (-1), b lane0 = 0b10 (-1), b lane1 = +1 x a lane1 = 0 */
		{ 13, 0x2, 0x6, 0, E1NPU_OP_FLAG_TERNARY, 1, 0 },
		{ 14, 0x38, 0x38, 0, 0, 256, 0 },		/* FP8 1.0*1.0 */
		{ 15, 0xfe, 0, 0, 0, 64, 0 },			/* EXP2 -2 */
		{ 15, 0xf0, 0, 0, 0, 0, 0 },			/* EXP2 -16 */
	};
	size_t n = sizeof(cases) / sizeof(cases[0]), i;
	struct e1npu_op_desc d;
	struct fix f;

	(void)state;
	fix_init(&f, 4096, 4096, 4096);
	for (i = 0; i < n; i++) {
		const struct scalar_case *c = &cases[i];
		uint32_t want = c->result, want_hi = c->result_hi;
		put32(f.pa, c->a);
		put32(f.pa + 4, c->b);
		put32(f.pa + 8, c->acc);
		e1npu_op_desc_dp_scalar(&d, t_tensor(f.a, 0, 0), t_tensor(f.c, 0, 0),
					c->op, 1, c->flags);
		run_ok(&f, &d, E1NPU_ENGINE_DATAPATH);
		if ((uint32_t)t_rd32(f.pc) != want || (uint32_t)t_rd32(f.pc + 4) != want_hi)
			fail_msg("case %zu op %u: %08x:%08x want %08x:%08x", i, c->op,
				 t_rd32(f.pc + 4), t_rd32(f.pc), want_hi, want);
	}
	fix_fini(&f);
}

static void test_dp_gemm_vrelu(void **state)
{
	struct e1npu_op_desc d;
	uint32_t m, n, k, i, j, x;
	struct fix f;

	(void)state;
	fix_init(&f, 4096, 4096, 4096);
	t_fill(f.pa, 4096, 21);
	t_fill(f.pb, 4096, 22);
	for (m = 1; m <= 3; m++)
		for (n = 1; n <= 3; n++)
			for (k = 1; k <= 7; k += 3) {
				int s4;

				for (s4 = 0; s4 < 2; s4++) {
					e1npu_op_desc_dp_gemm(&d, s4, t_tensor(f.a, 0, 9),
							      t_tensor(f.b, 0, 5),
							      t_tensor(f.c, 0, 16), m, n, k);
					run_ok(&f, &d, E1NPU_ENGINE_DATAPATH);
					for (i = 0; i < m; i++)
						for (j = 0; j < n; j++) {
							int32_t want = 0;

							for (x = 0; x < k; x++) {
								int32_t av, bv;

								if (s4) {
									uint32_t ia = i * 9 + x, ib = x * 5 + j;
									uint8_t ba = f.pa[ia / 2], bb = f.pb[ib / 2];

									av = (int8_t)(uint8_t)((ia & 1 ? ba >> 4 : ba & 15) << 4) >> 4;
									bv = (int8_t)(uint8_t)((ib & 1 ? bb >> 4 : bb & 15) << 4) >> 4;
								} else {
									av = (int8_t)f.pa[i * 9 + x];
									bv = (int8_t)f.pb[x * 5 + j];
								}
								want += av * bv;
							}
							assert_int_equal(t_rd32(f.pc + i * 16 + 4 * j), want);
						}
				}
			}
	e1npu_op_desc_dp_vrelu(&d, t_tensor(f.a, 0, 0), t_tensor(f.c, 64, 0), 64);
	run_ok(&f, &d, E1NPU_ENGINE_DATAPATH);
	for (i = 0; i < 64; i++) {
		int8_t v = (int8_t)f.pa[i];

		assert_int_equal((int8_t)f.pc[64 + i], v < 0 ? 0 : v);
	}
	/* int8 data needs no word alignment: odd offsets in and out. */
	memset(f.pc, 0x55, 256);
	e1npu_op_desc_dp_vrelu(&d, t_tensor(f.a, 3, 0), t_tensor(f.c, 133, 0), 17);
	run_ok(&f, &d, E1NPU_ENGINE_DATAPATH);
	for (i = 0; i < 17; i++) {
		int8_t v = (int8_t)f.pa[3 + i];

		assert_int_equal((int8_t)f.pc[133 + i], v < 0 ? 0 : v);
	}
	assert_int_equal(f.pc[132], 0x55);
	assert_int_equal(f.pc[150], 0x55);
	fix_fini(&f);
}

/* FALLBACK in the middle of a job: the CPU runs it, the rest resubmits. */
static void test_fallback(void **state)
{
	struct e1npu_op_outcome o;
	struct e1npu_op_desc d;
	struct e1npu_perf p0, p;
	struct fix f;
	uint32_t i;

	(void)state;
	fix_init(&f, 4096, 4096, 4096);
	assert_int_equal(e1npu_device_read_perf(f.dev, &p0), 0);
	t_fill(f.pa, 4096, 1);
	e1npu_op_desc_nop(&d);
	assert_int_equal(e1npu_cmdbuf_add_op(f.cb, &d), 0);
	e1npu_op_desc_fallback(&d);
	assert_int_equal(e1npu_cmdbuf_add_op(f.cb, &d), 1);
	e1npu_op_desc_relu(&d, t_tensor(f.a, 0, 16), t_tensor(f.c, 0, 16), 4, 16);
	assert_int_equal(e1npu_cmdbuf_add_op(f.cb, &d), 2);
	assert_int_equal(e1npu_cmdbuf_run(f.cb), 0);
	expect_outcome(f.cb, 0, E1NPU_OP_STATUS_DONE, E1NPU_ENGINE_WRAPPER);
	expect_outcome(f.cb, 1, E1NPU_OP_STATUS_DONE, E1NPU_ENGINE_CPU);
	expect_outcome(f.cb, 2, E1NPU_OP_STATUS_DONE, E1NPU_ENGINE_WRAPPER);
	assert_int_equal(e1npu_cmdbuf_get_outcome(f.cb, 1, &o), 0);
	assert_int_equal(o.error, -EOPNOTSUPP);
	assert_int_equal(o.hw_err_code, 0x01);
	assert_non_null(strstr(o.reason, "hardware rejected: err_code 0x01 unknown opcode"));
	assert_int_equal(e1npu_cmdbuf_get_num_jobs(f.cb), 2);
	for (i = 0; i < 64; i++)
		assert_int_equal((int8_t)f.pc[i], (int8_t)f.pa[i] < 0 ? 0 : (int8_t)f.pa[i]);
	assert_int_equal(e1npu_device_read_perf(f.dev, &p), 0);
	assert_true(p.wrapper_fallbacks - p0.wrapper_fallbacks == 1);
	assert_true(p.ops_cpu == 1 && p.ops_hw == 2 && p.jobs == 2);
	fix_fini(&f);
}

/* Without Gemmini every matmul falls back; results stay bit-exact. */
static void test_fallback_no_gemmini(void **state)
{
	struct e1npu_op_outcome o;
	struct e1npu_op_desc d;
	struct fix f;

	(void)state;
	if (!t_on_sim())
		skip_unless_shape(true, "needs a wrapper without Gemmini (the virtual board with gemmini-present off)");
	setenv("E1NPU_SIM_GEMMINI", "0", 1);
	fix_init(&f, 1 << 16, 1 << 16, 1 << 16);
	unsetenv("E1NPU_SIM_GEMMINI");
	t_fill(f.pa, 1 << 16, 8);
	t_fill(f.pb, 1 << 16, 9);
	e1npu_op_desc_matmul(&d, t_tensor(f.a, 0, 48), t_tensor(f.b, 0, 32),
			     t_tensor(f.c, 0, 128), 20, 30, 40, E1NPU_OP_FLAG_RELU);
	assert_int_equal(e1npu_cmdbuf_add_op(f.cb, &d), 0);
	assert_int_equal(e1npu_cmdbuf_add_op(f.cb, &d), 1);
	assert_int_equal(e1npu_cmdbuf_run(f.cb), 0);
	expect_outcome(f.cb, 0, E1NPU_OP_STATUS_DONE, E1NPU_ENGINE_CPU);
	expect_outcome(f.cb, 1, E1NPU_OP_STATUS_DONE, E1NPU_ENGINE_CPU);
	assert_int_equal(e1npu_cmdbuf_get_outcome(f.cb, 1, &o), 0);
	assert_int_equal(o.hw_err_code, 1);
	check_matmul(&f, 20, 30, 40, 48, 32, 128, true);
	fix_fini(&f);
}

/* Wrapper absent: wrapper ops run on the CPU, datapath still on hardware. */
static void test_engine_absent(void **state)
{
	struct e1npu_op_outcome o;
	struct e1npu_op_desc d;
	struct fix f;

	(void)state;
	if (!t_on_sim())
		skip_unless_shape(false, "needs a device without wrapper (the virtual board's split device tree, datapath node)");
	setenv("E1NPU_SIM_ENGINES", "2", 1);
	fix_init(&f, 4096, 4096, 4096);
	unsetenv("E1NPU_SIM_ENGINES");
	t_fill(f.pa, 4096, 4);
	e1npu_op_desc_relu(&d, t_tensor(f.a, 0, 16), t_tensor(f.c, 0, 16), 2, 16);
	assert_int_equal(e1npu_cmdbuf_add_op(f.cb, &d), 0);
	e1npu_op_desc_dp_vrelu(&d, t_tensor(f.a, 64, 0), t_tensor(f.c, 64, 0), 32);
	assert_int_equal(e1npu_cmdbuf_add_op(f.cb, &d), 1);
	assert_int_equal(e1npu_cmdbuf_run(f.cb), 0);
	expect_outcome(f.cb, 0, E1NPU_OP_STATUS_DONE, E1NPU_ENGINE_CPU);
	expect_outcome(f.cb, 1, E1NPU_OP_STATUS_DONE, E1NPU_ENGINE_DATAPATH);
	assert_int_equal(e1npu_cmdbuf_get_outcome(f.cb, 0, &o), 0);
	assert_string_equal(o.reason, "wrapper engine not present");
	fix_fini(&f);
}

/* 600 ops split at 255 per wrapper job, 7 per datapath job, in order. */
static void test_split(void **state)
{
	struct e1npu_op_desc d;
	struct e1npu_perf p0, p;
	struct fix f;
	unsigned int i;

	(void)state;
	fix_init(&f, 4096, 4096, 4096);
	assert_int_equal(e1npu_device_read_perf(f.dev, &p0), 0);
	e1npu_op_desc_nop(&d);
	for (i = 0; i < 600; i++)
		assert_int_equal(e1npu_cmdbuf_add_op(f.cb, &d), (int)i);
	assert_int_equal(e1npu_cmdbuf_run(f.cb), 0);
	assert_int_equal(e1npu_cmdbuf_get_num_jobs(f.cb), 3);	/* 255+255+90 */
	for (i = 0; i < 600; i++)
		expect_outcome(f.cb, i, E1NPU_OP_STATUS_DONE, E1NPU_ENGINE_WRAPPER);

	/* 20 datapath ADDs, each adding its index: 7 + 7 + 6. */
	assert_int_equal(e1npu_cmdbuf_reset(f.cb), 0);
	for (i = 0; i < 20; i++) {
		put32(f.pa + 12 * i, i);
		put32(f.pa + 12 * i + 4, 1000);
		put32(f.pa + 12 * i + 8, 0);
		e1npu_op_desc_dp_scalar(&d, t_tensor(f.a, 12 * i, 0),
					t_tensor(f.c, 8 * i, 0), 0, 1, 0);
		assert_int_equal(e1npu_cmdbuf_add_op(f.cb, &d), (int)i);
	}
	assert_int_equal(e1npu_cmdbuf_run(f.cb), 0);
	assert_int_equal(e1npu_cmdbuf_get_num_jobs(f.cb), 3);
	for (i = 0; i < 20; i++)
		assert_int_equal(t_rd32(f.pc + 8 * i), 1000 + (int)i);

	/* Alternating engines: one job per run of one engine. */
	assert_int_equal(e1npu_cmdbuf_reset(f.cb), 0);
	for (i = 0; i < 6; i++) {
		if (i & 1)
			e1npu_op_desc_dp_scalar(&d, t_tensor(f.a, 0, 0),
						t_tensor(f.c, 0, 0), 0, 1, 0);
		else
			e1npu_op_desc_nop(&d);
		assert_int_equal(e1npu_cmdbuf_add_op(f.cb, &d), (int)i);
	}
	assert_int_equal(e1npu_cmdbuf_run(f.cb), 0);
	assert_int_equal(e1npu_cmdbuf_get_num_jobs(f.cb), 6);
	assert_int_equal(e1npu_device_read_perf(f.dev, &p), 0);
	assert_true(p.jobs == 12 && p.ops_hw == 626 && p.dp_ops - p0.dp_ops == 23);
	fix_fini(&f);
}

/* A hung engine: wait times out, then the reset fails the job. */
static void test_timeout_hang(void **state)
{
	struct e1npu_op_outcome o;
	struct e1npu_op_desc d;
	struct fix f;
	int ret;

	(void)state;
	t_skip_unless_sim("hang injection into the model (e1npu-systest fault-hang covers the driver)");
	setenv("E1NPU_SIM_HANG_MS", "50", 1);
	fix_init(&f, 4096, 4096, 4096);
	unsetenv("E1NPU_SIM_HANG_MS");
	e1_model_inject_hang(e1npu_sim_model(f.dev), true);
	e1npu_op_desc_nop(&d);
	assert_int_equal(e1npu_cmdbuf_add_op(f.cb, &d), 0);
	assert_int_equal(e1npu_cmdbuf_add_op(f.cb, &d), 1);
	assert_int_equal(e1npu_cmdbuf_submit(f.cb), 0);
	assert_int_equal(e1npu_cmdbuf_wait(f.cb, 0), -ETIME);
	assert_int_equal(e1npu_cmdbuf_wait(f.cb, 5 * 1000000), -ETIME);
	assert_non_null(strstr(e1npu_device_last_error(f.dev), "timed out"));
	ret = e1npu_cmdbuf_wait(f.cb, -1);
	assert_int_equal(ret, -EIO);
	assert_int_equal(e1npu_cmdbuf_get_outcome(f.cb, 0, &o), 0);
	assert_int_equal(o.status, E1NPU_OP_STATUS_FAILED);
	assert_int_equal(o.error, -ETIMEDOUT);
	expect_outcome(f.cb, 1, E1NPU_OP_STATUS_CANCELED, E1NPU_ENGINE_NONE);
	/* The reset (flush) ended the hang: the device works again. */
	assert_int_equal(e1npu_cmdbuf_run(f.cb), 0);
	expect_outcome(f.cb, 1, E1NPU_OP_STATUS_DONE, E1NPU_ENGINE_WRAPPER);
	fix_fini(&f);
}

/* A bus error is a hard failure: FAILED -EFAULT, the rest canceled. */
static void test_bus_error(void **state)
{
	struct e1npu_op_outcome o;
	struct e1npu_op_desc d;
	struct fix f;

	(void)state;
	t_skip_unless_sim("bus-error injection into the model (e1npu-systest fault-bus covers the driver)");
	fix_init(&f, 4096, 4096, 4096);
	/* Any address of the arena: the whole tensor window faults. */
	e1_model_inject_fault(e1npu_sim_model(f.dev), 0, ~0ull >> 1, E1_MEM_ERROR);
	e1npu_op_desc_relu(&d, t_tensor(f.a, 0, 16), t_tensor(f.c, 0, 16), 1, 16);
	assert_int_equal(e1npu_cmdbuf_add_op(f.cb, &d), 0);
	assert_int_equal(e1npu_cmdbuf_add_op(f.cb, &d), 1);
	assert_int_equal(e1npu_cmdbuf_run(f.cb), -EIO);
	assert_int_equal(e1npu_cmdbuf_get_outcome(f.cb, 0, &o), 0);
	assert_int_equal(o.status, E1NPU_OP_STATUS_FAILED);
	assert_int_equal(o.error, -EFAULT);
	assert_non_null(strstr(o.reason, "hardware failed"));
	expect_outcome(f.cb, 1, E1NPU_OP_STATUS_CANCELED, E1NPU_ENGINE_NONE);
	e1_model_clear_faults(e1npu_sim_model(f.dev));
	assert_int_equal(e1npu_cmdbuf_run(f.cb), 0);
	fix_fini(&f);
}

static void test_perf(void **state)
{
	struct e1npu_op_desc d;
	struct e1npu_perf p0, p1;
	struct fix f;

	(void)state;
	fix_init(&f, 1 << 16, 1 << 16, 1 << 16);
	assert_int_equal(e1npu_device_read_perf(f.dev, &p0), 0);
	e1npu_op_desc_matmul(&d, t_tensor(f.a, 0, 64), t_tensor(f.b, 0, 64),
			     t_tensor(f.c, 0, 256), 64, 64, 64, 0);
	assert_int_equal(e1npu_cmdbuf_add_op(f.cb, &d), 0);
	e1npu_op_desc_dp_gemm(&d, 0, t_tensor(f.a, 0, 7), t_tensor(f.b, 0, 3),
			      t_tensor(f.c, 0, 12), 3, 3, 7);
	assert_int_equal(e1npu_cmdbuf_add_op(f.cb, &d), 1);
	assert_int_equal(e1npu_cmdbuf_run(f.cb), 0);
	assert_int_equal(e1npu_device_read_perf(f.dev, &p1), 0);
	assert_true(p1.wrapper_macs - p0.wrapper_macs == 64ull * 64 * 64);
	assert_true(p1.wrapper_cycles > p0.wrapper_cycles);
	assert_true(p1.dp_macs - p0.dp_macs == 3 * 3 * 7);
	assert_true(p1.dp_ops - p0.dp_ops == 1);
	assert_true(p1.ops_hw == 2 && p1.jobs == 2);
	/* bytes: a, b 64x64 in, c 64 rows of 256 out; dp a 3x7, b 7x3 in, c 3x12 out */
	assert_true(p1.bytes_in == 64 * 64 * 2 + 21 + 21);
	assert_true(p1.bytes_out == 64 * 256 + 36);
	fix_fini(&f);
}

/* Wrapper cycles of one 64x64x64 MATMUL job under E1NPU_SIM_TIMING=@v. */
static uint64_t matmul64_cycles(const char *v)
{
	struct e1npu_op_desc d;
	struct e1npu_perf p0, p1;
	struct fix f;

	if (v)
		setenv("E1NPU_SIM_TIMING", v, 1);
	fix_init(&f, 1 << 16, 1 << 16, 1 << 16);
	unsetenv("E1NPU_SIM_TIMING");
	assert_int_equal(e1npu_device_read_perf(f.dev, &p0), 0);
	e1npu_op_desc_matmul(&d, t_tensor(f.a, 0, 64), t_tensor(f.b, 0, 64),
			     t_tensor(f.c, 0, 256), 64, 64, 64, 0);
	assert_int_equal(e1npu_cmdbuf_add_op(f.cb, &d), 0);
	assert_int_equal(e1npu_cmdbuf_run(f.cb), 0);
	assert_int_equal(e1npu_device_read_perf(f.dev, &p1), 0);
	fix_fini(&f);
	return p1.wrapper_cycles - p0.wrapper_cycles;
}

/*
 * E1NPU_SIM_TIMING picks the model's timing charges (device-model.md):
 * 64x64x64 is one 64 x 64 block (s = 131072 / (64 * 32) = 64, clamped).
 */
static void test_sim_timing_knob(void **state)
{
	struct e1npu_device *d;

	(void)state;
	t_skip_unless_sim("E1NPU_SIM_TIMING shapes the in-process model");
	/*
	 * 0, the first pin: fetch 32 + first load (4096 + 4096) / 16 = 512 +
	 * the pass max(16 tiles * (64 + 32) = 1536, (4096 + 4096 + 16384) /
	 * 16 = 1536) = 2080.
	 */
	assert_int_equal(matmul64_cycles("0"), 2080);
	/*
	 * Default (all): fetch 32 + first load 512 + 64 latency + the pass
	 * (weight-stationary) max(4 * 4 * 64 + 32 = 1056, 8192 / 16 = 512)
	 * + the last store 16384 / 16 + 64 = 1088: 2752.
	 */
	assert_int_equal(matmul64_cycles(NULL), 2752);
	assert_int_equal(matmul64_cycles("0xff"), 2752);
	/*
	 * The six charges before G_PIPE and G_STORE_OV: the same here, the
	 * pass is compute-bound (G_PIPE only removes DMA it would wait for)
	 * and one descriptor has no next to hide its store under.
	 */
	assert_int_equal(matmul64_cycles("0x3f"), 2752);
	/* G_XJOB (0x100, an analysis) changes nothing within one job. */
	assert_int_equal(matmul64_cycles("0x1ff"), 2752);
	/* Out of range or not a number: the open fails, no silent default. */
	setenv("E1NPU_SIM_TIMING", "512", 1);
	assert_int_equal(e1npu_device_open("sim", &d), -EINVAL);
	setenv("E1NPU_SIM_TIMING", "abc", 1);
	assert_int_equal(e1npu_device_open("sim", &d), -EINVAL);
	unsetenv("E1NPU_SIM_TIMING");
}

/* Allocation churn: the first-fit allocator coalesces back to one block. */
static void test_allocator(void **state)
{
	struct e1npu_device *dev = t_open();
	struct e1npu_buffer *b[32], *all;
	size_t total = 0;
	unsigned int i;

	(void)state;
	for (i = 0; i < 32; i++) {
		assert_int_equal(e1npu_buffer_alloc(dev, 1000 + 4096 * (i % 5), &b[i]), 0);
		total += 4096 * (1 + i % 5);
	}
	for (i = 0; i < 32; i += 2)
		e1npu_buffer_free(b[i]);
	for (i = 1; i < 32; i += 2)
		e1npu_buffer_free(b[i]);
	if (t_on_sim())
		assert_int_equal(e1npu_sim_free_blocks(dev), 1);
	/* the freed space is one piece again (sim: exactly one free block) */
	assert_int_equal(e1npu_buffer_alloc(dev, total, &all), 0);
	e1npu_buffer_free(all);
	e1npu_device_close(dev);
}

/* argv[1]: a cmocka test filter ("test_fallback_no_gemmini", "test_*"). */
int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_matmul),
		cmocka_unit_test(test_conv2d),
		cmocka_unit_test(test_relu_maxpool),
		cmocka_unit_test(test_dp_scalar),
		cmocka_unit_test(test_dp_gemm_vrelu),
		cmocka_unit_test(test_fallback),
		cmocka_unit_test(test_fallback_no_gemmini),
		cmocka_unit_test(test_engine_absent),
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_timeout_hang),
		cmocka_unit_test(test_bus_error),
		cmocka_unit_test(test_perf),
		cmocka_unit_test(test_sim_timing_knob),
		cmocka_unit_test(test_allocator),
	};

	if (argc > 1)
		cmocka_set_test_filter(argv[1]);
	return cmocka_run_group_tests_name("libe1npu-ops", tests, NULL, NULL);
}
