// SPDX-License-Identifier: (GPL-2.0-only OR MIT)
/*
 * v0 wrapper timing model: hand-computed cycles for small cases, the
 * utilization of a 1024^3 matmul (timing function only), PERF_CYCLES; the
 * first pin's charges (gemmini = 0) and each Gemmini-following change
 * alone, then all of them (the default).
 */
#include "model-tests-helpers.h"

/* The default parameters with only the @g behaviours. */
static struct e1_timing tm_g(u32 g)
{
	struct e1_timing t;

	e1_timing_default(&t);
	t.gemmini = g;
	return t;
}

/* The first pin's charges. */
static struct e1_timing tm(void)
{
	return tm_g(0);
}

/* A model whose timing has only the @g behaviours. */
static struct th *th_g(u32 g)
{
	struct e1_model_config cfg;

	e1_model_default_config(&cfg);
	cfg.timing.gemmini = g;
	return th_new(&cfg, 8);
}

static void test_defaults(void **state)
{
	struct e1_timing t;

	(void)state;
	e1_timing_default(&t);
	assert_int_equal(t.gemmini, E1_TIMING_G_ALL);
	assert_int_equal(t.acc_bytes, 64 * 1024);
	assert_int_equal(t.dram_latency, 64);
	assert_int_equal(t.desc_fetch_cycles, 32);
	assert_int_equal(t.dma_bytes_per_cycle, 16);
	assert_int_equal(t.fill_drain_cycles, 0);
	assert_int_equal(t.scratchpad_bytes, 256 * 1024);
	assert_int_equal(t.barrier_cycles, 64);
}

static void test_matmul_16_hand(void **state)
{
	struct e1_timing t = tm();

	(void)state;
	/*
	 * 16x16x16 on 16x16: one block, one tile. First load (256 + 256) / 16
	 * = 32; the pass: compute 16 + fill/drain 32 = 48, DMA (256 + 256 +
	 * 1024) / 16 = 96, max 96. Total 128.
	 */
	assert_int_equal(e1_timing_matmul_cycles(&t, 16, 16, 16, 16, 16), 128);
	/*
	 * 64x64x256: k * 32 = 8192 <= 128 KiB: s = 16, block clamps to
	 * 64 x 64. First load (16384 + 16384) / 16 = 2048; pass compute 16
	 * tiles * (256 + 32) = 4608, DMA (16384 + 16384 + 16384) / 16 = 3072.
	 * Total 2048 + 4608 = 6656.
	 */
	assert_int_equal(e1_timing_matmul_cycles(&t, 16, 16, 64, 64, 256), 6656);
	/* 1x1x1: first load 1, pass max(1 + 32, 1) = 33. */
	assert_int_equal(e1_timing_matmul_cycles(&t, 16, 16, 1, 1, 1), 34);
	/* Degenerate inputs. */
	assert_int_equal(e1_timing_matmul_cycles(&t, 16, 16, 0, 1, 1), 0);
	/* Bandwidth-bound: ceil(100 / 16) = 7. */
	assert_int_equal(e1_timing_stream_cycles(&t, 100), 7);
}

static void test_k_split(void **state)
{
	struct e1_timing t = tm();
	u64 c;

	(void)state;
	/*
	 * 16x16xK with K = 8192: K * 32 = 256 KiB > 128 KiB, so K is cut in
	 * slices of 131072 / 32 = 4096: first load (65536 + 65536) / 16 = 8192;
	 * two passes of compute 4096 + 32 = 4128 vs DMA 8192 (+ 64 for the
	 * output on the last): 8192 + 8256. Total 24640.
	 */
	c = e1_timing_matmul_cycles(&t, 16, 16, 16, 16, 8192);
	assert_int_equal(c, 24640);
}

static void test_utilization(void **state)
{
	struct e1_timing t = tm();
	u64 ideal = (1ULL << 30) / 256;
	u64 c = e1_timing_matmul_cycles(&t, 16, 16, 1024, 1024, 1024);
	u64 tiny = e1_timing_matmul_cycles(&t, 16, 16, 16, 16, 16);

	(void)state;
	/* utilization = ideal / cycles >= 0.9, in integers. */
	assert_true(c >= ideal);
	assert_true(ideal * 10 >= c * 9);
	/* Documented number: 4333568 cycles, 96.8 %. */
	assert_int_equal(c, 4333568);
	/* Tiny shapes are overhead-bound: 16 ideal cycles vs 128. */
	assert_true(16 * 4 < tiny);
	/* More columns, fewer cycles. */
	assert_true(e1_timing_matmul_cycles(&t, 32, 32, 1024, 1024, 1024) < c);
}

static void test_perf_cycles_of_a_job(void **state)
{
	struct th *h = th_g(0);
	u64 a = th_alloc(h, 256), b = th_alloc(h, 256), c = th_alloc(h, 1024);
	u32 w[E1_V0_DESC_WORDS];

	(void)state;
	th_desc_matmul(w, E1_V0_OP_MATMUL_S8, 16, 16, 16, a, 16, b, 16, c, 64);
	th_submit(h, w);
	th_run(h);
	assert_int_equal(th_rd(h, E1_V0_PERF_CYCLES), 32 + 128);
	assert_int_equal(e1_model_cycles(h->m), 32 + 128);
	/* A failing descriptor costs its fetch. */
	w[0] = 0x77;
	th_submit(h, w);
	th_run(h);
	assert_int_equal(th_rd(h, E1_V0_PERF_CYCLES), 32 + 128 + 32);
	/* Nothing passes while the engine is idle. */
	th_wr(h, E1_V0_CTRL, E1_V0_CTRL_ENABLE | E1_V0_CTRL_FLUSH);
	th_run(h);
	assert_int_equal(th_rd(h, E1_V0_PERF_CYCLES), 32 + 128 + 32);
	th_free(h);
}

/*
 * PERF_CYCLES of one CONV2D job under the @g behaviours: 8x8x1 input,
 * 3x3 kernel, 4 output channels, stride 1, no padding: 6x6 outputs, the
 * im2col GEMM is M = 36, N = 4, K = 9.
 */
static u32 conv_job_cycles(u32 g)
{
	struct th *h = th_g(g);
	u64 a = th_alloc(h, 8 * 16), b = th_alloc(h, 9 * 16), c = th_alloc(h, 6 * 96);
	u32 w[E1_V0_DESC_WORDS], cycles;

	memset(w, 0, sizeof(w));
	w[0] = E1_V0_OP_CONV2D_S8 | E1_V0_FLAG_SIGNED_INPUT;
	w[E1_V0_DW_SHAPE_M] = 8 | 8 << 16;
	w[E1_V0_DW_SHAPE_N] = 1 | 4 << 16;
	w[E1_V0_DW_SHAPE_K] = 3;
	w[E1_V0_DW_A_LO] = (u32)a;
	w[E1_V0_DW_A_HI] = (u32)(a >> 32);
	w[E1_V0_DW_B_LO] = (u32)b;
	w[E1_V0_DW_B_HI] = (u32)(b >> 32);
	w[E1_V0_DW_C_LO] = (u32)c;
	w[E1_V0_DW_C_HI] = (u32)(c >> 32);
	w[E1_V0_DW_A_STRIDE] = 16;
	w[E1_V0_DW_B_STRIDE] = 16;
	w[E1_V0_DW_C_STRIDE] = 96;
	w[E1_V0_DW_CONV_PARAMS] = 0x10011;
	w[E1_V0_DW_POOL_PARAMS] = 6 | 6 << 16;
	th_submit(h, w);
	assert_int_equal(th_run(h), 1);
	assert_int_equal(th_rd(h, E1_V0_PERF_MACS_LO), 36 * 4 * 9);
	cycles = th_rd(h, E1_V0_PERF_CYCLES);
	th_free(h);
	return cycles;
}

static void test_conv_uses_im2col_dims(void **state)
{
	struct e1_timing t = tm();

	(void)state;
	assert_int_equal(conv_job_cycles(0),
			 32 + e1_timing_matmul_cycles(&t, 16, 16, 36, 4, 9));
}

/*
 * G_RAW_INPUT: Gemmini moves the raw input tile in and im2cols on chip, so
 * the A side of a CONV2D moves min(raw input, im2col) bytes.
 */
static void test_g_raw_input(void **state)
{
	struct e1_timing t0 = tm(), t = tm_g(E1_TIMING_G_RAW_INPUT);

	(void)state;
	/*
	 * 10x10x16 input, 3x3, 16 outputs channels, 8x8 outputs: M = 64,
	 * N = 16, K = 144; K * 32 = 4608, s = 28: one 64 x 16 block, whole K.
	 * First pin: first load (64 * 144 + 144 * 16) / 16 = (9216 + 2304) /
	 * 16 = 720; the pass: compute 4 tiles * (144 + 32) = 704, DMA (9216 +
	 * 2304 + 4096) / 16 = 976: 1696.
	 */
	assert_int_equal(e1_timing_conv_cycles(&t0, 16, 16, 10, 10, 16, 16, 3, 8, 8),
			 1696);
	/*
	 * Raw input 10 * 10 * 16 = 1600 bytes instead of 9216: first load
	 * (1600 + 2304) / 16 = 244; the pass: DMA (1600 + 2304 + 4096) / 16
	 * = 500 < compute 704: 948.
	 */
	assert_int_equal(e1_timing_conv_cycles(&t, 16, 16, 10, 10, 16, 16, 3, 8, 8),
			 948);
	/*
	 * A strided 1x1 (8x8x16 in, 4x4 out) reads fewer bytes im2col'd (256)
	 * than raw (1024): the charge stays the im2col's.
	 */
	assert_int_equal(e1_timing_conv_cycles(&t, 16, 16, 8, 8, 16, 16, 1, 4, 4),
			 e1_timing_conv_cycles(&t0, 16, 16, 8, 8, 16, 16, 1, 4, 4));
	/*
	 * The descriptor: 8x8x1 raw = 64 bytes vs the im2col's 36 * 9 = 324.
	 * M = 36, N = 4, K = 9, one 36 x 4 block. First pin: first load
	 * ceil((324 + 36) / 16) = 23, pass max(3 tiles * (9 + 32) = 123,
	 * ceil((324 + 36 + 576) / 16) = 59) = 123: 146, + fetch 32 = 178.
	 * Raw: first load ceil((64 + 36) / 16) = 7, pass max(123,
	 * ceil(676 / 16) = 43) = 123: 130, + 32 = 162.
	 */
	assert_int_equal(conv_job_cycles(0), 178);
	assert_int_equal(conv_job_cycles(E1_TIMING_G_RAW_INPUT), 162);
	/* A MATMUL is unchanged. */
	assert_int_equal(e1_timing_matmul_cycles(&t, 16, 16, 64, 64, 256), 6656);
}

/*
 * G_WS: weight-stationary streaming (Gemmini's loop_ws / loop_conv_ws):
 * per rows x cols weight tile max(mb, rows) cycles, fill/drain once per
 * pass instead of once per output tile.
 */
static void test_g_ws(void **state)
{
	struct e1_timing t = tm_g(E1_TIMING_G_WS);
	u64 ideal = (1ULL << 30) / 256, c;

	(void)state;
	/*
	 * 64x64x256 (first pin 6656): one 64 x 64 block, first load 2048;
	 * compute 4 column tiles * 16 K tiles * 64 rows + 32 = 4128 (was 16
	 * output tiles * (256 + 32) = 4608), DMA 3072: 2048 + 4128 = 6176.
	 */
	assert_int_equal(e1_timing_matmul_cycles(&t, 16, 16, 64, 64, 256), 6176);
	/*
	 * 1x1x1 (first pin 34): first load 1; a 16-row weight tile takes 16
	 * cycles to preload even for one streamed row: max(1, 16) + 32 = 48.
	 */
	assert_int_equal(e1_timing_matmul_cycles(&t, 16, 16, 1, 1, 1), 49);
	/*
	 * 1024^3 (first pin 4333568): 256 passes of 64 x 64 over the whole K:
	 * max(4 * 64 * 64 + 32, 9216) = 16416, + first load 8192 = 4210688,
	 * 99.6 % of MACs / 256.
	 */
	c = e1_timing_matmul_cycles(&t, 16, 16, 1024, 1024, 1024);
	assert_int_equal(c, 4210688);
	assert_true(ideal * 1000 >= c * 996);
}

/*
 * G_OVERLAP: the first load of a descriptor runs under the previous
 * MATMUL/CONV2D's compute (Gemmini's decoupled load and execute queues),
 * up to the cycles that op's load DMA was idle, except for inputs that
 * overlap the previous output, across a barrier, or after the ring ran dry.
 */
static void test_g_overlap(void **state)
{
	u32 w[E1_V0_DESC_WORDS], mode, base;

	(void)state;
	/*
	 * A 64x64x256 MATMUL (6656 cycles, compute-bound: its pass computes
	 * 4608 cycles against 3072 of DMA, 1536 idle), then a 16x16x16
	 * (128 alone, first load (256 + 256) / 16 = 32 of it), each + 32 fetch.
	 */
	for (mode = 0; mode < 5; mode++) {
		struct th *h = th_g(mode ? E1_TIMING_G_OVERLAP : 0);
		u64 a = th_alloc(h, 64 * 256), b = th_alloc(h, 256 * 64);
		u64 c = th_alloc(h, 64 * 256), a2 = th_alloc(h, 256);
		u64 b2 = th_alloc(h, 256), c2 = th_alloc(h, 1024);

		th_desc_matmul(w, E1_V0_OP_MATMUL_S8, 64, 64, 256, a, 256, b, 64,
			       c, 256);
		th_submit(h, w);
		if (mode == 4) {
			/* Drained in between: nothing to overlap with. */
			assert_int_equal(th_run(h), 1);
		}
		/* mode 2: A of the second is the first one's output. */
		th_desc_matmul(w, E1_V0_OP_MATMUL_S8, 16, 16, 16,
			       mode == 2 ? c : a2, 16, b2, 16, c2, 64);
		if (mode == 3)
			w[E1_V0_DW_OP] |= E1_V0_FLAG_BARRIER;
		th_submit(h, w);
		th_run(h);
		base = 32 + 6656 + 32 + (mode == 3 ? 64 : 0);
		switch (mode) {
		case 0:	/* first pin: 128 */
		case 3:	/* barrier: 128 (+ its 64 drain) */
		case 4:	/* separate runs: 128 */
			assert_int_equal(th_rd(h, E1_V0_PERF_CYCLES), base + 128);
			break;
		case 1:	/* independent: the 32-cycle first load hidden */
			assert_int_equal(th_rd(h, E1_V0_PERF_CYCLES), base + 96);
			break;
		case 2:	/* only B's 256 bytes, 16 cycles, hidden */
			assert_int_equal(th_rd(h, E1_V0_PERF_CYCLES), base + 112);
			break;
		}
		th_free(h);
	}
}

/*
 * G_ACC: a block's int32 outputs fit half the 64 KiB accumulator (8192
 * outputs; Gemmini double-buffers it: tiled_matmul_auto's ACC_ROWS / 2).
 */
static void test_g_acc(void **state)
{
	struct e1_timing t0 = tm(), t = tm_g(E1_TIMING_G_ACC);

	(void)state;
	/*
	 * 16x1024x16: s = 131072 / (16 * 32) = 256, one 16 x 1024 block
	 * (16384 outputs). First pin: first load (256 + 16384) / 16 = 1040,
	 * pass max(64 tiles * 48 = 3072, (256 + 16384 + 65536) / 16 = 5136):
	 * 6176.
	 */
	assert_int_equal(e1_timing_matmul_cycles(&t0, 16, 16, 16, 1024, 16), 6176);
	/*
	 * G_ACC: bn shrinks to 512 (16 * 512 = 8192): first load (256 +
	 * 8192) / 16 = 528, two passes of max(32 * 48 = 1536, (256 + 8192 +
	 * 32768) / 16 = 2576): 528 + 5152 = 5680.
	 */
	assert_int_equal(e1_timing_matmul_cycles(&t, 16, 16, 16, 1024, 16), 5680);
	/* 64 x 64 blocks (4096 outputs) fit: 1024^3 is unchanged. */
	assert_int_equal(e1_timing_matmul_cycles(&t, 16, 16, 1024, 1024, 1024),
			 4333568);
	/* An accumulator of 0 bytes means no limit. */
	t.acc_bytes = 0;
	assert_int_equal(e1_timing_matmul_cycles(&t, 16, 16, 16, 1024, 16), 6176);
}

/* G_LATENCY: each exposed DRAM transfer (here the first load) waits. */
static void test_g_latency(void **state)
{
	struct e1_timing t = tm_g(E1_TIMING_G_LATENCY);

	(void)state;
	/* 16x16x16: 128 + 64 on the first load. */
	assert_int_equal(e1_timing_matmul_cycles(&t, 16, 16, 16, 16, 16), 192);
	t.dram_latency = 100;
	assert_int_equal(e1_timing_matmul_cycles(&t, 16, 16, 16, 16, 16), 228);
}

/* G_STORE: the last block's store runs after it (nothing to hide under). */
static void test_g_store(void **state)
{
	struct e1_timing t = tm_g(E1_TIMING_G_STORE);

	(void)state;
	/*
	 * 16x16x16: first load 32; the pass without its store max(48, 32) =
	 * 48; the store 1024 / 16 = 64 after it: 144 (first pin 128).
	 */
	assert_int_equal(e1_timing_matmul_cycles(&t, 16, 16, 16, 16, 16), 144);
	/*
	 * K = 8192 is DMA-bound either way: first load 8192, two passes of
	 * 8192 without stores, the 64-cycle store after: 24640, as the
	 * first pin (which put the store in the last pass's DMA).
	 */
	assert_int_equal(e1_timing_matmul_cycles(&t, 16, 16, 16, 16, 8192), 24640);
}

/*
 * G_PIPE: a pass's DMA brings the next pass's slices, so the first pass
 * does not move the first slices (already loaded before it) again.
 */
static void test_g_pipe(void **state)
{
	struct e1_timing t = tm_g(E1_TIMING_G_PIPE);

	(void)state;
	/*
	 * 16x16x16: first load (256 + 256) / 16 = 32; the pass computes 48
	 * while its DMA stores 1024 / 16 = 64 (the loads are done): 96. The
	 * first pin, 128, charged the 32 cycles of loads twice.
	 */
	assert_int_equal(e1_timing_matmul_cycles(&t, 16, 16, 16, 16, 16), 96);
	/*
	 * K = 8192 in two slices of 4096: first load 8192; the first pass
	 * computes 4096 + 32 with no DMA of its own; the second moves its
	 * slices and the store, (131072 + 1024) / 16 = 8256: 20576 (first
	 * pin 24640).
	 */
	assert_int_equal(e1_timing_matmul_cycles(&t, 16, 16, 16, 16, 8192), 20576);
	/* Compute-bound: nothing changes (64x64x256 as the first pin). */
	assert_int_equal(e1_timing_matmul_cycles(&t, 16, 16, 64, 64, 256), 6656);
}

/*
 * G_STORE_OV: a descriptor's exposed last store leaves while the next
 * one computes, in that one's idle DMA cycles; not when the next reads or
 * writes the output, across a barrier, or after the ring ran dry.
 */
static void test_g_store_ov(void **state)
{
	u32 w[E1_V0_DESC_WORDS], mode, base;

	(void)state;
	/*
	 * With G_STORE: a 16x16x16 MATMUL (first load 32, pass max(48, 32) =
	 * 48, store 64: 144), then a 64x64x256 (first load 2048, pass
	 * max(4608, 2048) = 4608, 2560 of it idle, store 1024: 7680), each
	 * + 32 fetch. The first one's 64-cycle store fits the second's idle.
	 */
	for (mode = 0; mode < 5; mode++) {
		struct th *h = th_g(E1_TIMING_G_STORE | (mode ? E1_TIMING_G_STORE_OV : 0));
		u64 a = th_alloc(h, 256), b = th_alloc(h, 256), c = th_alloc(h, 64 * 256);
		u64 a2 = th_alloc(h, 64 * 256), b2 = th_alloc(h, 256 * 64);
		u64 c2 = th_alloc(h, 64 * 256);

		th_desc_matmul(w, E1_V0_OP_MATMUL_S8, 16, 16, 16, a, 16, b, 16, c, 64);
		th_submit(h, w);
		if (mode == 4)
			assert_int_equal(th_run(h), 1);
		/* mode 2: A of the second starts at the first one's output. */
		th_desc_matmul(w, E1_V0_OP_MATMUL_S8, 64, 64, 256,
			       mode == 2 ? c : a2, 256, b2, 64, c2, 256);
		if (mode == 3)
			w[E1_V0_DW_OP] |= E1_V0_FLAG_BARRIER;
		th_submit(h, w);
		th_run(h);
		base = 32 + 144 + 32 + 7680 + (mode == 3 ? 64 : 0);
		assert_int_equal(th_rd(h, E1_V0_PERF_CYCLES), base - (mode == 1 ? 64 : 0));
		th_free(h);
	}
}

/*
 * G_XJOB (an analysis): the two descriptors of test_g_store_ov in two
 * jobs, the ring dry in between; the first one's 64-cycle store still
 * hides in the second's idle, and with G_OVERLAP the second's first load
 * (2048 + 64 latency) in what is left of the first's idle (16).
 */
static void test_g_xjob(void **state)
{
	u32 w[E1_V0_DESC_WORDS], mode;

	(void)state;
	for (mode = 0; mode < 3; mode++) {
		u32 g = E1_TIMING_G_STORE | E1_TIMING_G_STORE_OV |
			(mode ? E1_TIMING_G_XJOB : 0) | (mode == 2 ? E1_TIMING_G_OVERLAP : 0);
		struct th *h = th_g(g);
		u64 a = th_alloc(h, 256), b = th_alloc(h, 256), c = th_alloc(h, 64 * 256);
		u64 a2 = th_alloc(h, 64 * 256), b2 = th_alloc(h, 256 * 64);
		u64 c2 = th_alloc(h, 64 * 256);
		u32 want = 32 + 144 + 32 + 7680;

		th_desc_matmul(w, E1_V0_OP_MATMUL_S8, 16, 16, 16, a, 16, b, 16, c, 64);
		th_submit(h, w);
		assert_int_equal(th_run(h), 1);
		th_desc_matmul(w, E1_V0_OP_MATMUL_S8, 64, 64, 256, a2, 256, b2, 64, c2, 256);
		th_submit(h, w);
		th_run(h);
		if (mode)
			want -= 64;
		if (mode == 2)
			want -= 16;
		assert_int_equal(th_rd(h, E1_V0_PERF_CYCLES), want);
		th_free(h);
	}
}

/*
 * G_OVERLAP with G_STORE_OV: the idle cycles the previous store used are
 * not there for the next first load.
 */
static void test_g_store_ov_shares_idle(void **state)
{
	struct th *h = th_g(E1_TIMING_G_OVERLAP | E1_TIMING_G_STORE | E1_TIMING_G_STORE_OV);
	u64 a = th_alloc(h, 256), b = th_alloc(h, 256), c = th_alloc(h, 1024);
	u64 a2 = th_alloc(h, 64 * 256), b2 = th_alloc(h, 256 * 64);
	u64 c2 = th_alloc(h, 64 * 256), c3 = th_alloc(h, 1024);
	u32 w[E1_V0_DESC_WORDS];

	(void)state;
	/*
	 * 16^3 (144, idle 48 - 32 = 16, store 64): 32 + 144 = 176.
	 * 64x64x256 (7680, idle 2560, store 1024): its first load hides 16
	 * (the idle before it), the 64-cycle store before it hides in its
	 * idle: 32 + 7680 - 80 = 7632; 2560 - 64 = 2496 idle left.
	 * 16^3 again: its 32-cycle first load hides in those 2496, 16 of the
	 * 1024-cycle store before it in its own idle: 32 + 144 - 48 = 128.
	 */
	th_desc_matmul(w, E1_V0_OP_MATMUL_S8, 16, 16, 16, a, 16, b, 16, c, 64);
	th_submit(h, w);
	th_desc_matmul(w, E1_V0_OP_MATMUL_S8, 64, 64, 256, a2, 256, b2, 64, c2, 256);
	th_submit(h, w);
	th_desc_matmul(w, E1_V0_OP_MATMUL_S8, 16, 16, 16, a, 16, b, 16, c3, 64);
	th_submit(h, w);
	th_run(h);
	assert_int_equal(th_rd(h, E1_V0_PERF_CYCLES), 176 + 7632 + 128);
	th_free(h);
}

/* All of them: the default. */
static void test_g_all(void **state)
{
	struct e1_timing t;
	struct th *h = th_new(NULL, 8);
	u64 a = th_alloc(h, 256), b = th_alloc(h, 256), c = th_alloc(h, 1024);
	u32 w[E1_V0_DESC_WORDS];

	(void)state;
	e1_timing_default(&t);
	/*
	 * 16x16x16: first load 32 + 64 latency; the pass (WS) 1 * 1 * 16 +
	 * 32 = 48 against 32 of DMA; the store 64 + 64 latency: 272.
	 */
	assert_int_equal(e1_timing_matmul_cycles(&t, 16, 16, 16, 16, 16), 272);
	/*
	 * 1024^3: first load 8192 + 64; 256 passes of 16416 (WS); the last
	 * store 16384 / 16 + 64 = 1088: 4211840, 99.6 %.
	 */
	assert_int_equal(e1_timing_matmul_cycles(&t, 16, 16, 1024, 1024, 1024),
			 4211840);
	/* The model charges the same, + the fetch. */
	th_desc_matmul(w, E1_V0_OP_MATMUL_S8, 16, 16, 16, a, 16, b, 16, c, 64);
	th_submit(h, w);
	th_run(h);
	assert_int_equal(th_rd(h, E1_V0_PERF_CYCLES), 32 + 272);
	th_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_matmul_16_hand),
		cmocka_unit_test(test_k_split),
		cmocka_unit_test(test_utilization),
		cmocka_unit_test(test_perf_cycles_of_a_job),
		cmocka_unit_test(test_conv_uses_im2col_dims),
		cmocka_unit_test(test_g_raw_input),
		cmocka_unit_test(test_g_ws),
		cmocka_unit_test(test_g_overlap),
		cmocka_unit_test(test_g_acc),
		cmocka_unit_test(test_g_latency),
		cmocka_unit_test(test_g_store),
		cmocka_unit_test(test_g_pipe),
		cmocka_unit_test(test_g_store_ov),
		cmocka_unit_test(test_g_store_ov_shares_idle),
		cmocka_unit_test(test_g_xjob),
		cmocka_unit_test(test_g_all),
	};

	return cmocka_run_group_tests_name("v0-timing", tests, NULL, NULL);
}
