// SPDX-License-Identifier: (GPL-2.0-only OR MIT)
/*
 * v0 wrapper: every err_code raised by exactly its condition, in the
 * contract's order; the TENSOR_MEM window; bus errors (injected, no
 * response, unmapped); the CPU-fallback contract with cpu_fallback_select
 * 0 and 1; hang and dropped-interrupt injection; malformed descriptors.
 */
#include "model-tests-helpers.h"

#define CTRL_ON (E1_V0_CTRL_ENABLE | E1_V0_CTRL_IRQ_ENABLE)

/* A valid 8x8x8 matmul in fresh buffers. */
struct mm {
	u64 a, b, c;
	u32 w[E1_V0_DESC_WORDS];
};

static void mm_setup(struct th *h, struct mm *x)
{
	u32 seed = 5;

	x->a = th_alloc(h, 8 * 16);
	x->b = th_alloc(h, 8 * 16);
	x->c = th_alloc(h, 8 * 32);
	th_fill_rand(&seed, th_ptr(h, x->a), 8 * 16);
	th_fill_rand(&seed, th_ptr(h, x->b), 8 * 16);
	memset(th_ptr(h, x->c), 0x77, 8 * 32);
	th_desc_matmul(x->w, E1_V0_OP_MATMUL_S8, 8, 8, 8, x->a, 16, x->b, 16, x->c, 32);
	x->w[E1_V0_DW_TAG] = 0xabcd;
}

static bool c_untouched(struct th *h, const struct mm *x)
{
	const u8 *p = th_ptr(h, x->c);
	int i;

	for (i = 0; i < 8 * 32; i++)
		if (p[i] != 0x77)
			return false;
	return true;
}

/* Submit @w alone, run, expect @code with IRQ bits @irq. */
static void expect_err(struct th *h, const u32 *w, u32 code, u32 irq)
{
	u32 fb = th_rd(h, E1_V0_PERF_FALLBACKS);
	u32 idx = th_submit(h, w);

	assert_int_equal(th_run(h), 0);
	if (th_err_code(h) != code)
		fail_msg("err_code 0x%02x, want 0x%02x (op 0x%08x)", th_err_code(h),
			 code, w[0]);
	assert_true(th_status(h) & E1_V0_STATUS_ERROR);
	assert_false(th_status(h) & E1_V0_STATUS_BUSY);
	assert_int_equal(th_q_level(h), 1);
	assert_int_equal(th_rd(h, E1_V0_IRQ_STATUS), E1_V0_IRQ_ERROR | irq);
	assert_int_equal(th_rd(h, E1_V0_ERR_DESC_INDEX), idx);
	assert_int_equal(th_rd(h, E1_V0_PERF_FALLBACKS),
			 fb + (code <= E1_V0_ERR_ALIGN ? 1 : 0));
	assert_true(h->line[E1_IRQ_NPU]);
	/* Recover for the next case. */
	th_wr(h, E1_V0_IRQ_STATUS, E1_V0_IRQ_ALL);
	th_wr(h, E1_V0_CTRL, CTRL_ON | E1_V0_CTRL_FLUSH);
	assert_int_equal(th_status(h), E1_V0_STATUS_QUEUE_EMPTY);
	assert_false(h->line[E1_IRQ_NPU]);
}

#define UNSUP (E1_V0_IRQ_UNSUPPORTED_OP)
#define BUSERR (E1_V0_IRQ_BUS_ERROR)

static void test_err_unknown_opcode(void **state)
{
	/*
	 * OP is word 0's low half (the seed: OP, FLAGS in the "hi 16"), so
	 * 0x0110, 0x1000 and 0xFF00 are unknown opcodes, not MATMUL/NOP with
	 * reserved bits.
	 */
	static const u32 ops[] = {
		0x01, 0x12, 0x22, 0x31, 0x41, 0x80, 0xFD, 0xFF, 0x0110, 0x1000, 0xFF00,
	};
	struct th *h = th_new(NULL, 4);
	struct mm x;
	u32 w[E1_V0_DESC_WORDS], i;

	(void)state;
	mm_setup(h, &x);
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		memcpy(w, x.w, sizeof(w));
		w[0] = (w[0] & ~E1_V0_DESC_OP) | ops[i];
		/* Opcode first: these also carry a bad flag. */
		w[0] |= E1_BIT(25);
		expect_err(h, w, E1_V0_ERR_UNKNOWN_OP, UNSUP);
	}
	assert_true(c_untouched(h, &x));
	th_free(h);
}

static void test_err_no_gemmini(void **state)
{
	static const u32 ops[] = {
		E1_V0_OP_MATMUL_S8, E1_V0_OP_MATMUL_S8_RELU, E1_V0_OP_CONV2D_S8,
		E1_V0_OP_CONV2D_S8_RELU, E1_V0_OP_RELU, E1_V0_OP_MAXPOOL_S8,
	};
	struct e1_model_config cfg;
	struct th *h;
	struct mm x;
	u32 w[E1_V0_DESC_WORDS], i;

	(void)state;
	e1_model_default_config(&cfg);
	cfg.gemmini_present = false;
	h = th_new(&cfg, 4);
	mm_setup(h, &x);
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		memcpy(w, x.w, sizeof(w));
		w[0] = (w[0] & ~E1_V0_DESC_OP) | ops[i];
		expect_err(h, w, E1_V0_ERR_UNKNOWN_OP, UNSUP);
	}
	/* NOP and BARRIER still retire. */
	th_desc_nop(w, E1_V0_OP_NOP);
	th_submit(h, w);
	th_desc_nop(w, E1_V0_OP_BARRIER);
	th_submit(h, w);
	assert_int_equal(th_run(h), 2);
	th_free(h);
}

static void test_err_flags(void **state)
{
	struct th *h = th_new(NULL, 4);
	struct mm x;
	u32 w[E1_V0_DESC_WORDS];

	(void)state;
	mm_setup(h, &x);
	/* Reserved FLAGS bits, with a bad shape behind them. */
	memcpy(w, x.w, sizeof(w));
	w[0] |= E1_BIT(20);
	w[E1_V0_DW_SHAPE_M] = 0;
	expect_err(h, w, E1_V0_ERR_FLAGS, UNSUP);
	memcpy(w, x.w, sizeof(w));
	w[0] |= E1_BIT(31);
	expect_err(h, w, E1_V0_ERR_FLAGS, UNSUP);
	/* signed_input clear on an op that reads tensors. */
	memcpy(w, x.w, sizeof(w));
	w[0] &= ~E1_V0_FLAG_SIGNED_INPUT;
	expect_err(h, w, E1_V0_ERR_FLAGS, UNSUP);
	/* relu_fuse outside MATMUL/CONV2D. */
	th_desc_nop(w, E1_V0_OP_NOP);
	w[0] |= E1_V0_FLAG_RELU_FUSE;
	expect_err(h, w, E1_V0_ERR_FLAGS, UNSUP);
	memcpy(w, x.w, sizeof(w));
	w[0] = E1_V0_OP_RELU | E1_V0_FLAG_SIGNED_INPUT | E1_V0_FLAG_RELU_FUSE;
	w[E1_V0_DW_SHAPE_K] = 0;
	expect_err(h, w, E1_V0_ERR_FLAGS, UNSUP);
	/* MBZ parameter words of a matmul. */
	memcpy(w, x.w, sizeof(w));
	w[E1_V0_DW_CONV_PARAMS] = 1;
	expect_err(h, w, E1_V0_ERR_FLAGS, UNSUP);
	memcpy(w, x.w, sizeof(w));
	w[E1_V0_DW_POOL_PARAMS] = 0x100;
	expect_err(h, w, E1_V0_ERR_FLAGS, UNSUP);
	/* Reserved CONV_PARAMS bits of a conv, POOL_PARAMS of a pool. */
	memcpy(w, x.w, sizeof(w));
	w[0] = E1_V0_OP_CONV2D_S8 | E1_V0_FLAG_SIGNED_INPUT;
	w[E1_V0_DW_CONV_PARAMS] = 0x11111 | E1_BIT(20);
	expect_err(h, w, E1_V0_ERR_FLAGS, UNSUP);
	memcpy(w, x.w, sizeof(w));
	w[0] = E1_V0_OP_MAXPOOL_S8 | E1_V0_FLAG_SIGNED_INPUT;
	w[E1_V0_DW_POOL_PARAMS] = 0x122 | E1_BIT(12);
	expect_err(h, w, E1_V0_ERR_FLAGS, UNSUP);
	/* NOP/BARRIER without signed_input are fine; the barrier flag too. */
	th_desc_nop(w, E1_V0_OP_NOP);
	w[0] |= E1_V0_FLAG_BARRIER | E1_V0_FLAG_IRQ_ON_COMPLETE;
	th_submit(h, w);
	assert_int_equal(th_run(h), 1);
	assert_true(c_untouched(h, &x));
	th_free(h);
}

static void set_conv(u32 *w, u32 in_h, u32 in_w, u32 c_in, u32 c_out, u32 k,
		     u32 cp, u32 out_h, u32 out_w)
{
	w[0] = E1_V0_OP_CONV2D_S8 | E1_V0_FLAG_SIGNED_INPUT;
	w[E1_V0_DW_SHAPE_M] = in_h | in_w << 16;
	w[E1_V0_DW_SHAPE_N] = c_in | c_out << 16;
	w[E1_V0_DW_SHAPE_K] = k;
	w[E1_V0_DW_CONV_PARAMS] = cp;
	w[E1_V0_DW_POOL_PARAMS] = out_h | out_w << 16;
	w[E1_V0_DW_A_STRIDE] = 16 * ((in_w * c_in + 15) / 16);
	w[E1_V0_DW_B_STRIDE] = 16 * ((c_out + 15) / 16);
	w[E1_V0_DW_C_STRIDE] = 16 * ((out_w * c_out * 4 + 15) / 16);
}

static void test_err_shape(void **state)
{
	/* conv params: stride_h, stride_w, pad_h, pad_w, dilation */
	const u32 cp11 = 0x10011;
	struct th *h = th_new(NULL, 4);
	struct mm x;
	u32 w[E1_V0_DESC_WORDS];

	(void)state;
	mm_setup(h, &x);
#define MM_BAD(field, val) do { \
		memcpy(w, x.w, sizeof(w)); \
		w[field] = (val); \
		w[E1_V0_DW_A_LO] |= 8; /* misaligned too: shape comes first */ \
		expect_err(h, w, E1_V0_ERR_SHAPE, UNSUP); \
	} while (0)
	MM_BAD(E1_V0_DW_SHAPE_M, 0);
	MM_BAD(E1_V0_DW_SHAPE_N, 0);
	MM_BAD(E1_V0_DW_SHAPE_K, 0);
	MM_BAD(E1_V0_DW_SHAPE_M, 1025);
	MM_BAD(E1_V0_DW_SHAPE_N, 1025);
	MM_BAD(E1_V0_DW_SHAPE_K, 1025);
	MM_BAD(E1_V0_DW_SHAPE_K, 0xffffffff);
	/* Strides shorter than a row. */
	MM_BAD(E1_V0_DW_A_STRIDE, 0);
	MM_BAD(E1_V0_DW_B_STRIDE, 0);
	MM_BAD(E1_V0_DW_C_STRIDE, 16);	/* 8 int32 = 32 bytes */
#undef MM_BAD

#define CONV_BAD(...) do { \
		memcpy(w, x.w, sizeof(w)); \
		set_conv(w, __VA_ARGS__); \
		expect_err(h, w, E1_V0_ERR_SHAPE, UNSUP); \
	} while (0)
	CONV_BAD(8, 8, 4, 4, 2, cp11, 7, 7);		/* kernel 2 */
	CONV_BAD(8, 8, 4, 4, 7, cp11, 2, 2);		/* kernel 7 */
	CONV_BAD(8, 8, 4, 4, 3, 0x10013, 6, 3);	/* stride 3 */
	CONV_BAD(8, 8, 4, 4, 3, 0x10001, 6, 6);	/* stride_w 0 */
	CONV_BAD(8, 8, 4, 4, 3, 0x00011, 6, 6);	/* dilation 0 */
	CONV_BAD(257, 8, 1, 1, 1, cp11, 1, 1);		/* in_h */
	CONV_BAD(8, 8, 513, 4, 1, cp11, 8, 8);		/* c_in */
	CONV_BAD(8, 8, 4, 0, 1, cp11, 8, 8);		/* c_out */
	CONV_BAD(8, 8, 4, 4, 3, cp11, 0, 6);		/* out_h 0 */
	CONV_BAD(8, 8, 4, 4, 1, cp11, 9, 8);		/* window below the image */
	CONV_BAD(8, 8, 4, 4, 1, 0x10111, 8, 9);	/* pad_h does not help W */
#undef CONV_BAD
	/* The geometry rule's edge is accepted: pad_h 1 lets out_h be 9. */
	memcpy(w, x.w, sizeof(w));
	set_conv(w, 8, 8, 1, 1, 1, 0x10111, 9, 8);
	w[E1_V0_DW_A_LO] = (u32)x.a;
	w[E1_V0_DW_C_LO] = (u32)th_alloc(h, 9 * 32);
	th_submit(h, w);
	assert_int_equal(th_run(h), 1);

#define POOL_BAD(in, c, pp, k) do { \
		memcpy(w, x.w, sizeof(w)); \
		w[0] = E1_V0_OP_MAXPOOL_S8 | E1_V0_FLAG_SIGNED_INPUT; \
		w[E1_V0_DW_SHAPE_M] = (in); \
		w[E1_V0_DW_SHAPE_N] = (c); \
		w[E1_V0_DW_SHAPE_K] = (k); \
		w[E1_V0_DW_POOL_PARAMS] = (pp); \
		expect_err(h, w, E1_V0_ERR_SHAPE, UNSUP); \
	} while (0)
	POOL_BAD(4 | 4 << 16, 1, 0x132, 0);	/* 2x3 window */
	POOL_BAD(4 | 4 << 16, 1, 0x144, 0);	/* 4x4 window */
	POOL_BAD(4 | 4 << 16, 1, 0x311, 0);	/* 1x1 window */
	POOL_BAD(4 | 4 << 16, 1, 0x322, 0);	/* stride 3 */
	POOL_BAD(2 | 4 << 16, 1, 0x133, 0);	/* in_h < window */
	POOL_BAD(4 | 4 << 16, 1 | 1 << 16, 0x122, 0);	/* c_out set */
	POOL_BAD(4 | 4 << 16, 1, 0x122, 3);	/* SHAPE_K set */
	POOL_BAD(4 | 4 << 16, 0, 0x122, 0);	/* no channels */
#undef POOL_BAD
	/* RELU envelope and its MBZ SHAPE_K. */
	memcpy(w, x.w, sizeof(w));
	w[0] = E1_V0_OP_RELU | E1_V0_FLAG_SIGNED_INPUT;
	w[E1_V0_DW_SHAPE_N] = 1025;
	expect_err(h, w, E1_V0_ERR_SHAPE, UNSUP);
	w[E1_V0_DW_SHAPE_N] = 8;
	w[E1_V0_DW_SHAPE_K] = 1;
	expect_err(h, w, E1_V0_ERR_SHAPE, UNSUP);
	assert_true(c_untouched(h, &x));
	th_free(h);
}

static void test_err_align(void **state)
{
	static const int fields[] = {
		E1_V0_DW_A_LO, E1_V0_DW_B_LO, E1_V0_DW_C_LO,
		E1_V0_DW_A_STRIDE, E1_V0_DW_B_STRIDE, E1_V0_DW_C_STRIDE,
	};
	struct th *h = th_new(NULL, 4);
	struct mm x;
	u32 w[E1_V0_DESC_WORDS], i;

	(void)state;
	mm_setup(h, &x);
	for (i = 0; i < 6; i++) {
		memcpy(w, x.w, sizeof(w));
		w[fields[i]] += 4;
		/* Outside the window too: alignment comes first. */
		w[E1_V0_DW_C_HI] = 0x10;
		expect_err(h, w, E1_V0_ERR_ALIGN, UNSUP);
	}
	/* B of a RELU is not used, so not checked. */
	memcpy(w, x.w, sizeof(w));
	w[0] = E1_V0_OP_RELU | E1_V0_FLAG_SIGNED_INPUT;
	w[E1_V0_DW_SHAPE_K] = 0;
	w[E1_V0_DW_B_LO] = 3;
	w[E1_V0_DW_B_STRIDE] = 5;
	th_submit(h, w);
	assert_int_equal(th_run(h), 1);
	th_free(h);
}

static void test_err_window(void **state)
{
	struct th *h = th_new(NULL, 4);
	struct mm x;
	u32 w[E1_V0_DESC_WORDS];
	u64 wb, we;

	(void)state;
	mm_setup(h, &x);
	/* Fence TENSOR_MEM to exactly A, B and C (allocated back to back). */
	wb = x.a;
	we = x.c + 8 * 32;
	th_wr(h, E1_V0_TENSOR_MEM_BASE_LO, (u32)wb);
	th_wr(h, E1_V0_TENSOR_MEM_BASE_HI, (u32)(wb >> 32));
	th_wr(h, E1_V0_TENSOR_MEM_LEN, (u32)(we - wb));
	th_submit(h, x.w);
	assert_int_equal(th_run(h), 1);
	memset(th_ptr(h, x.c), 0x77, 8 * 32);

	/* C one row further: its last row sticks out by 32 bytes. */
	memcpy(w, x.w, sizeof(w));
	w[E1_V0_DW_C_LO] += 32;
	/* An injected bus error on C too: the window is checked first. */
	assert_int_equal(e1_model_inject_fault(h->m, x.c, we + 64, E1_MEM_ERROR), 0);
	th_clear_log(h);
	expect_err(h, w, E1_V0_ERR_WINDOW, BUSERR);
	e1_model_clear_faults(h->m);
	/* Nothing was mapped for the blocked descriptor but its fetch. */
	{
		struct th_tensor none[1] = { { 0 } };

		th_assert_touched_exactly(h, none, 0);
	}
	/* Re-run to read ERR_FAULT_ADDR before the flush. */
	th_submit(h, w);
	th_run(h);
	assert_int_equal(th_rd(h, E1_V0_ERR_FAULT_ADDR_LO), (u32)we);
	assert_int_equal(th_rd(h, E1_V0_ERR_FAULT_ADDR_HI), (u32)(we >> 32));
	th_wr(h, E1_V0_IRQ_STATUS, E1_V0_IRQ_ALL);
	th_wr(h, E1_V0_CTRL, CTRL_ON | E1_V0_CTRL_FLUSH);
	assert_int_equal(th_rd(h, E1_V0_ERR_FAULT_ADDR_LO), 0);

	/* A below the window: the fault is A's first byte. */
	memcpy(w, x.w, sizeof(w));
	w[E1_V0_DW_A_LO] -= 64;
	th_submit(h, w);
	th_run(h);
	assert_int_equal(th_err_code(h), E1_V0_ERR_WINDOW);
	assert_int_equal(th_rd(h, E1_V0_ERR_FAULT_ADDR_LO), (u32)(x.a - 64));
	th_wr(h, E1_V0_CTRL, CTRL_ON | E1_V0_CTRL_FLUSH);

	/* A padded stride jumps past the end; the fault is the row start. */
	memcpy(w, x.w, sizeof(w));
	w[E1_V0_DW_B_STRIDE] = 0x1000;
	th_submit(h, w);
	th_run(h);
	assert_int_equal(th_err_code(h), E1_V0_ERR_WINDOW);
	assert_int_equal(th_rd(h, E1_V0_ERR_FAULT_ADDR_LO), (u32)(x.b + 0x1000));
	th_wr(h, E1_V0_CTRL, CTRL_ON | E1_V0_CTRL_FLUSH);

	/* Zero-length window blocks everything; output untouched. */
	th_wr(h, E1_V0_TENSOR_MEM_LEN, 0);
	expect_err(h, x.w, E1_V0_ERR_WINDOW, BUSERR);
	/* Hard error: clearing IRQ_STATUS does not resume. */
	th_submit(h, x.w);
	th_run(h);
	th_wr(h, E1_V0_IRQ_STATUS, E1_V0_IRQ_ALL);
	assert_int_equal(th_run(h), 0);
	assert_int_equal(th_q_level(h), 1);
	assert_false(th_status(h) & E1_V0_STATUS_BUSY);
	assert_true(c_untouched(h, &x));
	th_free(h);
}

static void test_err_bus(void **state)
{
	struct th *h = th_new(NULL, 4);
	struct mm x;
	u32 w[E1_V0_DESC_WORDS], cyc;

	(void)state;
	mm_setup(h, &x);
	/* Gaps between rows are not touched: a fault there is harmless. */
	assert_int_equal(e1_model_inject_fault(h->m, x.b + 40, x.b + 47, E1_MEM_ERROR), 0);
	th_submit(h, x.w);
	assert_int_equal(th_run(h), 1);
	memset(th_ptr(h, x.c), 0x77, 8 * 32);
	e1_model_clear_faults(h->m);
	/* Injected error in the middle of B: the first faulting byte. */
	assert_int_equal(e1_model_inject_fault(h->m, x.b + 36, x.b + 60, E1_MEM_ERROR), 0);
	th_submit(h, x.w);
	th_run(h);
	assert_int_equal(th_err_code(h), E1_V0_ERR_BUS);
	assert_int_equal(th_rd(h, E1_V0_IRQ_STATUS), E1_V0_IRQ_ERROR | BUSERR);
	assert_int_equal(th_rd(h, E1_V0_ERR_FAULT_ADDR_LO), (u32)(x.b + 36));
	assert_int_equal(th_rd(h, E1_V0_ERR_FAULT_ADDR_HI), (u32)(x.b >> 32));
	assert_int_equal(th_rd(h, E1_V0_PERF_FALLBACKS), 0);
	assert_true(c_untouched(h, &x));
	/*
	 * ERR_FAULT_ADDR is the "bus address of last bus_error": a later
	 * error without bus_error (a doorbell overflow) leaves it alone.
	 */
	th_wr(h, E1_V0_DESC_DOORBELL, 4);
	assert_int_equal(th_err_code(h), E1_V0_ERR_OVERFLOW);
	assert_int_equal(th_rd(h, E1_V0_ERR_FAULT_ADDR_LO), (u32)(x.b + 36));
	/* Hard: the IRQ clear alone does not resume. */
	th_wr(h, E1_V0_IRQ_STATUS, E1_V0_IRQ_ALL);
	assert_int_equal(th_run(h), 0);
	th_wr(h, E1_V0_CTRL, CTRL_ON | E1_V0_CTRL_FLUSH);
	e1_model_clear_faults(h->m);
	th_submit(h, x.w);
	assert_int_equal(th_run(h), 1);

	/* No response: a bus error after the timeout. */
	cyc = th_rd(h, E1_V0_PERF_CYCLES);
	assert_int_equal(e1_model_inject_fault(h->m, x.c, x.c, E1_MEM_NORESP), 0);
	expect_err(h, x.w, E1_V0_ERR_BUS, BUSERR);
	assert_true(th_rd(h, E1_V0_PERF_CYCLES) - cyc >=
		    E1_TIMING_V0_BUS_TIMEOUT + E1_TIMING_DESC_FETCH);
	e1_model_clear_faults(h->m);

	/* Unmapped memory (the host map returns NULL), inside the window. */
	th_wr(h, E1_V0_TENSOR_MEM_LEN, 0xffffffff);
	memcpy(w, x.w, sizeof(w));
	w[E1_V0_DW_B_LO] = (u32)(TH_DRAM_BASE + TH_DRAM_SIZE);
	w[E1_V0_DW_B_HI] = (u32)((TH_DRAM_BASE + TH_DRAM_SIZE) >> 32);
	th_submit(h, w);
	th_run(h);
	assert_int_equal(th_err_code(h), E1_V0_ERR_BUS);
	assert_int_equal(th_rd(h, E1_V0_ERR_FAULT_ADDR_LO), (u32)(TH_DRAM_BASE + TH_DRAM_SIZE));
	th_wr(h, E1_V0_CTRL, CTRL_ON | E1_V0_CTRL_FLUSH);

	/* A fault on the descriptor fetch: ERR_FAULT_ADDR is the slot. */
	assert_int_equal(e1_model_inject_fault(h->m, th_ring_addr(h) + 64 + 8,
					       th_ring_addr(h) + 64 + 8, E1_MEM_ERROR), 0);
	th_desc_nop(w, E1_V0_OP_NOP);
	th_submit(h, w);
	th_submit(h, w);
	assert_int_equal(th_run(h), 1);
	assert_int_equal(th_err_code(h), E1_V0_ERR_BUS);
	assert_int_equal(th_rd(h, E1_V0_ERR_DESC_INDEX), 1);
	assert_int_equal(th_rd(h, E1_V0_ERR_FAULT_ADDR_LO), (u32)(th_ring_addr(h) + 64));
	assert_int_equal(th_q_level(h), 1);
	/* Fault ranges: four slots, then -1; bad ranges refused. */
	assert_int_equal(e1_model_inject_fault(h->m, 1, 0, E1_MEM_ERROR), -1);
	assert_int_equal(e1_model_inject_fault(h->m, 0, 0, E1_MEM_OK), -1);
	assert_int_equal(e1_model_inject_fault(h->m, 0, 0, E1_MEM_ERROR), 0);
	assert_int_equal(e1_model_inject_fault(h->m, 0, 0, E1_MEM_ERROR), 0);
	assert_int_equal(e1_model_inject_fault(h->m, 0, 0, E1_MEM_ERROR), 0);
	assert_int_equal(e1_model_inject_fault(h->m, 0, 0, E1_MEM_ERROR), -1);
	th_free(h);
}

/* A bus error mid-op on the output: error, nothing retired. */
static void test_err_order_window_before_bus(void **state)
{
	struct th *h = th_new(NULL, 4);
	struct mm x;
	u32 w[E1_V0_DESC_WORDS];

	(void)state;
	mm_setup(h, &x);
	memcpy(w, x.w, sizeof(w));
	w[E1_V0_DW_A_HI] = 1;	/* outside the window and unmapped */
	expect_err(h, w, E1_V0_ERR_WINDOW, BUSERR);
	th_free(h);
}

static void fallback_setup(struct th *h, struct mm *x, bool cpu)
{
	u32 w[E1_V0_DESC_WORDS];

	mm_setup(h, x);
	th_wr(h, E1_V0_CTRL, CTRL_ON | (cpu ? E1_V0_CTRL_CPU_FALLBACK : 0));
	/* NOP, FALLBACK (tag 0xfb), MATMUL */
	th_desc_nop(w, E1_V0_OP_NOP);
	w[E1_V0_DW_TAG] = 1;
	th_put_desc(h, 0, w);
	th_desc_nop(w, E1_V0_OP_FALLBACK);
	w[E1_V0_DW_TAG] = 0xfb;
	th_put_desc(h, 1, w);
	th_put_desc(h, 2, x->w);
	th_wr(h, E1_V0_DESC_DOORBELL, 3);
	assert_int_equal(th_run(h), 1);
	/* Stalled visibly: busy == 0 && q_level > 0 && error == 1. */
	assert_false(th_status(h) & E1_V0_STATUS_BUSY);
	assert_int_equal(th_q_level(h), 2);
	assert_true(th_status(h) & E1_V0_STATUS_ERROR);
	assert_int_equal(th_err_code(h), E1_V0_ERR_UNKNOWN_OP);
	assert_int_equal(th_rd(h, E1_V0_ERR_DESC_INDEX), 1);
	assert_int_equal(th_rd(h, E1_V0_IRQ_STATUS),
			 E1_V0_IRQ_ERROR | E1_V0_IRQ_UNSUPPORTED_OP);
	assert_int_equal(th_rd(h, E1_V0_PERF_FALLBACKS), 1);
	assert_int_equal(th_rd(h, E1_V0_COMPLETION_TAG), 1);
	assert_false(e1_model_pending(h->m));
	assert_int_equal(th_run(h), 0);
}

static void test_fallback_cpu_select_1(void **state)
{
	struct th *h = th_new(NULL, 4);
	struct mm x;

	(void)state;
	fallback_setup(h, &x, true);
	assert_true(h->line[E1_IRQ_FALLBACK]);
	assert_true(h->line[E1_IRQ_NPU]);
	/* A wrong tail value is ignored. */
	th_wr(h, E1_V0_DESC_TAIL, 3);
	assert_int_equal(th_rd(h, E1_V0_DESC_TAIL), 1);
	/* The driver: clear unsupported_op | error, write tail = index + 1. */
	th_wr(h, E1_V0_IRQ_STATUS, E1_V0_IRQ_UNSUPPORTED_OP | E1_V0_IRQ_ERROR);
	assert_false(h->line[E1_IRQ_FALLBACK]);
	assert_false(h->line[E1_IRQ_NPU]);
	assert_false(th_status(h) & E1_V0_STATUS_ERROR);
	/* The clear alone does not retry the descriptor. */
	assert_false(th_status(h) & E1_V0_STATUS_BUSY);
	assert_int_equal(th_run(h), 0);
	assert_int_equal(th_rd(h, E1_V0_PERF_FALLBACKS), 1);
	th_wr(h, E1_V0_DESC_TAIL, 2);
	assert_int_equal(th_rd(h, E1_V0_DESC_TAIL), 2);
	assert_int_equal(th_rd(h, E1_V0_COMPLETION_TAG), 0xfb);
	/* A second write does not retire anything else. */
	th_wr(h, E1_V0_DESC_TAIL, 3);
	assert_int_equal(th_rd(h, E1_V0_DESC_TAIL), 2);
	/* The ring resumes with the matmul. */
	assert_true(th_status(h) & E1_V0_STATUS_BUSY);
	assert_int_equal(th_run(h), 1);
	assert_int_equal(th_rd(h, E1_V0_COMPLETION_TAG), 0xabcd);
	assert_false(c_untouched(h, &x));
	assert_int_equal(th_rd(h, E1_V0_PERF_FALLBACKS), 1);

	/*
	 * Tail written before the IRQ clear works too: the retire is taken,
	 * the ring restarts once the error is dismissed.
	 */
	{
		u32 w[E1_V0_DESC_WORDS];

		th_desc_nop(w, 0x99);
		w[E1_V0_DW_TAG] = 0x99;
		th_submit(h, w);
		th_desc_nop(w, E1_V0_OP_NOP);
		w[E1_V0_DW_TAG] = 0x42;
		th_submit(h, w);
		th_run(h);
		assert_int_equal(th_rd(h, E1_V0_ERR_DESC_INDEX), 3);
		th_wr(h, E1_V0_DESC_TAIL, 0);
		assert_int_equal(th_rd(h, E1_V0_COMPLETION_TAG), 0x99);
		assert_int_equal(th_q_level(h), 1);
		assert_false(th_status(h) & E1_V0_STATUS_BUSY);
		assert_int_equal(th_run(h), 0);
		th_wr(h, E1_V0_IRQ_STATUS, E1_V0_IRQ_ALL);
		assert_false(h->line[E1_IRQ_FALLBACK]);
		assert_int_equal(th_run(h), 1);
		assert_int_equal(th_rd(h, E1_V0_COMPLETION_TAG), 0x42);
		assert_int_equal(th_rd(h, E1_V0_PERF_FALLBACKS), 2);
	}
	th_free(h);
}

static void test_fallback_cpu_select_0(void **state)
{
	struct th *h = th_new(NULL, 4);
	struct mm x;

	(void)state;
	fallback_setup(h, &x, false);
	assert_false(h->line[E1_IRQ_FALLBACK]);
	assert_true(h->line[E1_IRQ_NPU]);
	/* DESC_TAIL is read-only without cpu_fallback_select. */
	th_wr(h, E1_V0_DESC_TAIL, 2);
	assert_int_equal(th_rd(h, E1_V0_DESC_TAIL), 1);
	/*
	 * A hard failure: "the ring stalls until software issues
	 * CTRL.flush". Clearing the error dismisses it, retries nothing.
	 */
	th_wr(h, E1_V0_IRQ_STATUS, E1_V0_IRQ_ERROR);
	assert_false(th_status(h) & E1_V0_STATUS_ERROR);
	assert_false(th_status(h) & E1_V0_STATUS_BUSY);
	assert_int_equal(th_run(h), 0);
	assert_int_equal(th_rd(h, E1_V0_PERF_FALLBACKS), 1);
	assert_int_equal(th_rd(h, E1_V0_ERR_DESC_INDEX), 1);
	assert_int_equal(th_q_level(h), 2);
	th_wr(h, E1_V0_CTRL, CTRL_ON | E1_V0_CTRL_FLUSH);
	assert_int_equal(th_status(h), E1_V0_STATUS_QUEUE_EMPTY);
	/* Flush leaves IRQ_STATUS and perf counters alone. */
	assert_int_equal(th_rd(h, E1_V0_IRQ_STATUS), E1_V0_IRQ_UNSUPPORTED_OP);
	assert_int_equal(th_rd(h, E1_V0_PERF_FALLBACKS), 1);
	assert_true(c_untouched(h, &x));
	/* Resubmitted after the flush, the matmul runs. */
	th_wr(h, E1_V0_IRQ_STATUS, E1_V0_IRQ_ALL);
	th_submit(h, x.w);
	assert_int_equal(th_run(h), 1);
	assert_int_equal(th_status(h), E1_V0_STATUS_QUEUE_EMPTY);
	assert_false(c_untouched(h, &x));
	th_free(h);
}

static void test_hang(void **state)
{
	struct th *h = th_new(NULL, 4);
	struct mm x;

	(void)state;
	mm_setup(h, &x);
	e1_model_inject_hang(h->m, true);
	th_submit(h, x.w);
	assert_false(e1_model_pending(h->m));
	assert_int_equal(th_run(h), 0);
	assert_int_equal(th_run(h), 0);
	assert_true(th_status(h) & E1_V0_STATUS_BUSY);
	assert_int_equal(th_rd(h, E1_V0_DESC_TAIL), 0);
	assert_true(c_untouched(h, &x));
	/* Flush ends the hang. */
	th_wr(h, E1_V0_CTRL, CTRL_ON | E1_V0_CTRL_FLUSH);
	assert_int_equal(th_status(h), E1_V0_STATUS_QUEUE_EMPTY);
	th_submit(h, x.w);
	assert_int_equal(th_run(h), 1);
	th_free(h);
}

static void test_drop_irq(void **state)
{
	struct th *h = th_new(NULL, 4);
	u32 w[E1_V0_DESC_WORDS];

	(void)state;
	th_desc_nop(w, E1_V0_OP_NOP);
	w[0] |= E1_V0_FLAG_IRQ_ON_COMPLETE;
	e1_model_inject_drop_irq(h->m, 1);
	th_submit(h, w);
	th_run(h);
	/* The level is in the registers, the host saw no edge. */
	assert_true(th_rd(h, E1_V0_IRQ_STATUS) & E1_V0_IRQ_DONE);
	assert_int_equal(h->nedges, 0);
	assert_false(h->line[E1_IRQ_NPU]);
	/* More MMIO does not replay the lost edge. */
	th_wr(h, E1_V0_IRQ_MASK, E1_V0_IRQ_ALL);
	assert_int_equal(h->nedges, 0);
	/* The clear's falling edge is not reported either. */
	th_wr(h, E1_V0_IRQ_STATUS, E1_V0_IRQ_DONE);
	assert_int_equal(h->nedges, 0);
	/* The next edge is delivered. */
	th_submit(h, w);
	th_run(h);
	assert_int_equal(h->nedges, 1);
	assert_true(h->line[E1_IRQ_NPU]);
	th_wr(h, E1_V0_IRQ_STATUS, E1_V0_IRQ_DONE);
	assert_int_equal(h->nedges, 2);
	assert_false(h->line[E1_IRQ_NPU]);
	th_free(h);
}

/* Random descriptors: never a crash, always retire or a defined error. */
static void test_malformed_fuzz(void **state)
{
	struct th *h = th_new(NULL, 16);
	u32 seed = 0x1234567, w[E1_V0_DESC_WORDS], i, j;
	u64 buf = th_alloc(h, 1 << 20);
	static const u32 ops[] = { 0x00, 0x10, 0x11, 0x20, 0x21, 0x30, 0x40, 0xfe, 0xff, 0x55 };

	(void)state;
	th_wr(h, E1_V0_CTRL, CTRL_ON | E1_V0_CTRL_CPU_FALLBACK);
	for (i = 0; i < 3000; i++) {
		for (j = 0; j < E1_V0_DESC_WORDS; j++)
			w[j] = th_rand(&seed);
		w[0] = ops[th_rand(&seed) % 10] | (th_rand(&seed) % 4 ? E1_V0_FLAG_SIGNED_INPUT : 0) |
		       (th_rand(&seed) % 8 ? 0 : th_rand(&seed));
		/* Mostly small shapes so some pass validation. */
		if (th_rand(&seed) % 2) {
			w[1] = (th_rand(&seed) % 9) | (th_rand(&seed) % 9) << 16;
			w[2] = (th_rand(&seed) % 9) | (th_rand(&seed) % 9) << 16;
			w[3] = th_rand(&seed) % 6;
			w[13] = th_rand(&seed) & 0x3ffff;
			w[14] = th_rand(&seed) % 2 ? th_rand(&seed) & 0xfff :
				(th_rand(&seed) % 9) | (th_rand(&seed) % 9) << 16;
			for (j = 10; j <= 12; j++)
				w[j] = (th_rand(&seed) % 64) * 16;
			for (j = 4; j <= 8; j += 2) {
				w[j] = (u32)buf + (th_rand(&seed) % 0x1000) * 16;
				w[j + 1] = th_rand(&seed) % 16 ? (u32)(buf >> 32) : 7;
			}
		}
		th_submit(h, w);
		th_run(h);
		if (th_status(h) & E1_V0_STATUS_ERROR) {
			u32 code = th_err_code(h);

			assert_true(code >= E1_V0_ERR_UNKNOWN_OP && code <= E1_V0_ERR_BUS);
			assert_false(th_status(h) & E1_V0_STATUS_BUSY);
			if (code <= E1_V0_ERR_ALIGN && th_rand(&seed) % 2) {
				th_wr(h, E1_V0_IRQ_STATUS, E1_V0_IRQ_ALL);
				th_wr(h, E1_V0_DESC_TAIL, (th_rd(h, E1_V0_DESC_TAIL) + 1) & 15);
			} else {
				th_wr(h, E1_V0_IRQ_STATUS, E1_V0_IRQ_ALL);
				th_wr(h, E1_V0_CTRL, CTRL_ON | E1_V0_CTRL_CPU_FALLBACK |
				      E1_V0_CTRL_FLUSH);
			}
		}
		assert_int_equal(th_q_level(h), 0);
	}
	th_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_err_unknown_opcode),
		cmocka_unit_test(test_err_no_gemmini),
		cmocka_unit_test(test_err_flags),
		cmocka_unit_test(test_err_shape),
		cmocka_unit_test(test_err_align),
		cmocka_unit_test(test_err_window),
		cmocka_unit_test(test_err_bus),
		cmocka_unit_test(test_err_order_window_before_bus),
		cmocka_unit_test(test_fallback_cpu_select_1),
		cmocka_unit_test(test_fallback_cpu_select_0),
		cmocka_unit_test(test_hang),
		cmocka_unit_test(test_drop_irq),
		cmocka_unit_test(test_malformed_fuzz),
	};

	return cmocka_run_group_tests_name("v0-errors", tests, NULL, NULL);
}
