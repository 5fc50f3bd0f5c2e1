// SPDX-License-Identifier: (GPL-2.0-only OR MIT)
/*
 * Datapath model: the scratchpad commands GEMM_S8, GEMM_S4 and VRELU_S8.
 * Hand-worked tiles, every bound at its limit and one past, overlap rules,
 * randomized sweeps against a naive reference that enumerates every touched
 * element, and the perf counters of each.
 */
#include "test-dp-host.h"

/*
 * Register encodings written out by hand (contract 3.6):
 * GEMM_CFG    = M | N << 8 | K << 16          (VRELU: LEN in [5:0])
 * GEMM_BASE   = A | B << 8 | C << 16          (VRELU: SRC | DST << 8)
 * GEMM_STRIDE = A | B << 8 | C << 16
 */
#define CFG(m, n, k)		((u32)(m) | (u32)(n) << 8 | (u32)(k) << 16)
#define TRIPLE(a, b, c)		((u32)(a) | (u32)(b) << 8 | (u32)(c) << 16)

struct gemm {
	bool s4;
	u32 m, n, k, ab, bb, cb, as, bs, cs;
};

static u32 gemm_start(struct dp_host *h, const struct gemm *g)
{
	wr(h, E1_DP_GEMM_CFG, CFG(g->m, g->n, g->k));
	wr(h, E1_DP_GEMM_BASE, TRIPLE(g->ab, g->bb, g->cb));
	wr(h, E1_DP_GEMM_STRIDE, TRIPLE(g->as, g->bs, g->cs));
	wr(h, E1_DP_OPCODE, g->s4 ? E1_DP_OP_GEMM_S4 : E1_DP_OP_GEMM_S8);
	wr(h, E1_DP_CTRL_STATUS, E1_DP_CTRL_START);
	return rd(h, E1_DP_CTRL_STATUS);
}

/* Naive element read: INT8 byte, or INT4 nibble n (low nibble when even). */
static int ref_elem(const u8 *s, u32 n, bool s4)
{
	int v;

	if (!s4)
		return (int8_t)s[n];
	v = (n % 2 == 0) ? (s[n / 2] & 0xf) : (s[n / 2] >> 4);
	return v >= 8 ? v - 16 : v;
}

/*
 * Reference GEMM: validity by enumerating every element and byte the
 * command touches, then the result into @out (a copy of @in).
 */
static bool ref_gemm(const struct gemm *g, const u8 *in, u8 *out)
{
	u32 cap = g->s4 ? 128 : 64, i, j, k;
	int32_t c[4][4];

	memcpy(out, in, 64);
	if (g->m == 0 || g->n == 0 || g->k == 0)
		return false;
	for (i = 0; i < g->m; i++)
		for (k = 0; k < g->k; k++)
			if (g->ab + i * g->as + k >= cap)
				return false;
	for (k = 0; k < g->k; k++)
		for (j = 0; j < g->n; j++)
			if (g->bb + k * g->bs + j >= cap)
				return false;
	if (g->cb % 4 != 0 || g->cs % 4 != 0)
		return false;
	for (i = 0; i < g->m; i++)
		for (j = 0; j < g->n; j++)
			if (g->cb + i * g->cs + 4 * j + 3 >= 64)
				return false;
	for (i = 0; i < g->m; i++) {
		for (j = 0; j < g->n; j++) {
			int64_t s = 0;

			for (k = 0; k < g->k; k++)
				s += ref_elem(in, g->ab + i * g->as + k, g->s4) *
				     ref_elem(in, g->bb + k * g->bs + j, g->s4);
			c[i][j] = (int32_t)s;
		}
	}
	for (i = 0; i < g->m; i++)
		for (j = 0; j < g->n; j++)
			put32(&out[g->cb + i * g->cs + 4 * j], (u32)c[i][j]);
	return true;
}

/* Expect the command to fail closed: scratch and counters as stated. */
static void expect_gemm_fail(struct dp_host *h, const struct gemm *g)
{
	u8 before[64], after[64];
	struct perf p0, p1;

	scratch_dump(h, before);
	perf_read(h, &p0);
	assert_int_equal(gemm_start(h, g), ST_ERR);
	perf_read(h, &p1);
	scratch_dump(h, after);
	assert_memory_equal(before, after, 64);
	assert_int_equal(p1.errors, p0.errors + 1);
	assert_int_equal(p1.unsupported, p0.unsupported + 1);
	assert_int_equal(p1.ops, p0.ops);
	assert_int_equal(p1.macs, p0.macs);
	assert_int_equal(p1.scratch, p0.scratch);
	assert_int_equal(p1.cycles, p0.cycles + 1);
	wr(h, E1_DP_CTRL_STATUS, E1_DP_STATUS_DONE);
}

/* Expect success and the reference's scratch contents. */
static void expect_gemm_ok(struct dp_host *h, const struct gemm *g)
{
	u8 before[64], after[64], want[64];

	scratch_dump(h, before);
	assert_true(ref_gemm(g, before, want));
	assert_int_equal(gemm_start(h, g), ST_DONE);
	scratch_dump(h, after);
	assert_memory_equal(after, want, 64);
	wr(h, E1_DP_CTRL_STATUS, E1_DP_STATUS_DONE);
}

static void test_gemm_s8_example(void **state)
{
	struct dp_host *h = *state;
	u8 s[64] = { 0 }, out[64];
	struct gemm g = { .s4 = false, .m = 2, .n = 2, .k = 3,
			  .ab = 0, .as = 3, .bb = 8, .bs = 2, .cb = 16, .cs = 8 };
	struct perf p;
	unsigned int i;

	/* A = [[1, 2, 3], [4, 5, -6]] at byte 0, stride 3. */
	static const u8 a[6] = { 1, 2, 3, 4, 5, (u8)-6 };
	/* B = [[7, 8], [9, 10], [11, -12]] at byte 8, stride 2. */
	static const u8 b[6] = { 7, 8, 9, 10, 11, (u8)-12 };

	memcpy(&s[0], a, 6);
	memcpy(&s[8], b, 6);
	for (i = 40; i < 64; i++)
		s[i] = (u8)(0xa0 + i);	/* must survive */
	scratch_fill(h, s);
	assert_int_equal(dp_cmd(h, E1_DP_OP_ADD, 40, 2, 0), ST_DONE);	/* RESULT = 42 */
	assert_int_equal(gemm_start(h, &g), ST_DONE);
	scratch_dump(h, out);
	/*
	 * C[0][0] = 1*7 + 2*9 + 3*11    = 7 + 18 + 33   = 58
	 * C[0][1] = 1*8 + 2*10 + 3*-12  = 8 + 20 - 36   = -8
	 * C[1][0] = 4*7 + 5*9 + -6*11   = 28 + 45 - 66  = 7
	 * C[1][1] = 4*8 + 5*10 + -6*-12 = 32 + 50 + 72  = 154
	 * at bytes 16, 20 (row 0) and 24, 28 (row 1).
	 */
	assert_int_equal(le32(&out[16]), 58);
	assert_int_equal(le32(&out[20]), (u32)-8);
	assert_int_equal(le32(&out[24]), 7);
	assert_int_equal(le32(&out[28]), 154);
	assert_memory_equal(out, s, 16);
	assert_memory_equal(&out[32], &s[32], 32);
	/* RESULT and RESULT_HI are not written by scratchpad commands. */
	assert_int_equal(rd(h, E1_DP_RESULT), 42);
	assert_int_equal(rd(h, E1_DP_RESULT_HI), 0);

	perf_read(h, &p);
	/* ADD + GEMM; MACs 2*2*3 = 12; cycles 1 + 12; scratch 6 + 6 + 16 = 28. */
	assert_int_equal(p.ops, 2);
	assert_int_equal(p.macs, 12);
	assert_int_equal(p.cycles, 13);
	assert_int_equal(p.scratch, 28);
	assert_int_equal(p.errors, 0);
}

static void test_gemm_s8_extremes(void **state)
{
	struct dp_host *h = *state;
	u8 s[64], out[64];
	struct gemm g = { .s4 = false, .m = 1, .n = 1, .k = 7,
			  .ab = 0, .as = 0, .bb = 8, .bs = 1, .cb = 16, .cs = 0 };

	/* 7 * (-128 * -128) = 114688 = 0x1c000. */
	memset(s, 0x80, sizeof(s));
	scratch_fill(h, s);
	assert_int_equal(gemm_start(h, &g), ST_DONE);
	scratch_dump(h, out);
	assert_int_equal(le32(&out[16]), 114688);
	/* 7 * (-128 * 127) = -113792. */
	memset(&s[8], 0x7f, 7);
	scratch_fill(h, s);
	assert_int_equal(gemm_start(h, &g), ST_DONE);
	scratch_dump(h, out);
	assert_int_equal(le32(&out[16]), (u32)-113792);
}

static void test_gemm_s4_example(void **state)
{
	struct dp_host *h = *state;
	u8 s[64] = { 0 }, out[64];
	struct gemm g = { .s4 = true, .m = 2, .n = 3, .k = 3,
			  .ab = 0, .as = 3, .bb = 16, .bs = 3, .cb = 32, .cs = 12 };
	struct perf p;

	/*
	 * A = [[1, -2, 3], [-4, 5, -6]]: elements 0..5 = 1, e, 3, c, 5, a
	 * (nibble n is the low nibble of byte n/2 when n is even):
	 * byte 0 = 0xe1, byte 1 = 0xc3, byte 2 = 0xa5.
	 */
	s[0] = 0xe1;
	s[1] = 0xc3;
	s[2] = 0xa5;
	/*
	 * B = [[1, 1, 1], [2, 0, -1], [-8, 7, 0]] at element 16 (byte 8),
	 * stride 3: elements 16..24 = 1, 1, 1, 2, 0, f, 8, 7, 0:
	 * byte 8 = 0x11, 9 = 0x21, 10 = 0xf0, 11 = 0x78, 12 = 0x00.
	 */
	s[8] = 0x11;
	s[9] = 0x21;
	s[10] = 0xf0;
	s[11] = 0x78;
	s[12] = 0x00;
	s[60] = 0x5a;
	scratch_fill(h, s);
	assert_int_equal(gemm_start(h, &g), ST_DONE);
	scratch_dump(h, out);
	/*
	 * C[0][0] = 1*1 + -2*2 + 3*-8  = 1 - 4 - 24 = -27
	 * C[0][1] = 1*1 + -2*0 + 3*7   = 22
	 * C[0][2] = 1*1 + -2*-1 + 3*0  = 3
	 * C[1][0] = -4*1 + 5*2 + -6*-8 = -4 + 10 + 48 = 54
	 * C[1][1] = -4*1 + 5*0 + -6*7  = -46
	 * C[1][2] = -4*1 + 5*-1 + -6*0 = -9
	 * C at byte 32, row stride 12.
	 */
	assert_int_equal(le32(&out[32]), (u32)-27);
	assert_int_equal(le32(&out[36]), 22);
	assert_int_equal(le32(&out[40]), 3);
	assert_int_equal(le32(&out[44]), 54);
	assert_int_equal(le32(&out[48]), (u32)-46);
	assert_int_equal(le32(&out[52]), (u32)-9);
	assert_memory_equal(out, s, 32);
	assert_int_equal(out[60], 0x5a);

	perf_read(h, &p);
	/*
	 * 2*3*3 = 18 INT4 MACs, not in PERF_MACS (signed INT8 only); scratch
	 * ceil(6/2) + ceil(9/2) + 4*6 = 3 + 5 + 24 = 32.
	 */
	assert_int_equal(p.ops, 1);
	assert_int_equal(p.macs, 0);
	assert_int_equal(p.cycles, 18);
	assert_int_equal(p.scratch, 32);
}

static void test_gemm_s4_odd_base(void **state)
{
	struct dp_host *h = *state;
	u8 s[64] = { 0 }, out[64];
	struct gemm g = { .s4 = true, .m = 1, .n = 1, .k = 2,
			  .ab = 1, .as = 0, .bb = 5, .bs = 1, .cb = 8, .cs = 0 };

	/*
	 * A elements 1, 2 = high nibble of byte 0, low nibble of byte 1:
	 * byte 0 = 0x7f (elem 0 = -1, elem 1 = 7), byte 1 = 0x0d (elem 2 = -3).
	 * B elements 5, 6 = high of byte 2, low of byte 3:
	 * byte 2 = 0x20 (elem 5 = 2), byte 3 = 0x08 (elem 6 = -8).
	 * C = 7*2 + -3*-8 = 14 + 24 = 38.
	 */
	s[0] = 0x7f;
	s[1] = 0x0d;
	s[2] = 0x20;
	s[3] = 0x08;
	scratch_fill(h, s);
	assert_int_equal(gemm_start(h, &g), ST_DONE);
	scratch_dump(h, out);
	assert_int_equal(le32(&out[8]), 38);
}

static void test_gemm_zero_dims(void **state)
{
	struct dp_host *h = *state;
	struct gemm g = { .m = 1, .n = 1, .k = 1, .cb = 32 };
	int s4;

	for (s4 = 0; s4 < 2; s4++) {
		g.s4 = s4;
		g.m = 0;
		expect_gemm_fail(h, &g);
		g.m = 1;
		g.n = 0;
		expect_gemm_fail(h, &g);
		g.n = 1;
		g.k = 0;
		expect_gemm_fail(h, &g);
		g.k = 1;
		expect_gemm_ok(h, &g);
	}
}

static void test_gemm_s8_bounds(void **state)
{
	struct dp_host *h = *state;
	u8 s[64];
	unsigned int i;
	struct gemm g;

	for (i = 0; i < 64; i++)
		s[i] = (u8)(i * 37 + 11);
	scratch_fill(h, s);

	/* Largest tile: M = 3, N = 3, K = 7 (field maxima). */
	g = (struct gemm){ .m = 3, .n = 3, .k = 7, .ab = 0, .as = 7, .bb = 21, .bs = 3,
			   .cb = 28, .cs = 12 };
	expect_gemm_ok(h, &g);

	/* A: last byte ab + (m-1)*as + k-1. ab = 63, k = 1: 63 ok. */
	g = (struct gemm){ .m = 1, .n = 1, .k = 1, .ab = 63, .bb = 0, .cb = 0 };
	expect_gemm_ok(h, &g);
	/* ab = 61, k = 3: 63 ok; ab = 62: 64, one past. */
	g = (struct gemm){ .m = 1, .n = 1, .k = 3, .ab = 61, .bb = 0, .bs = 1, .cb = 0 };
	expect_gemm_ok(h, &g);
	g.ab = 62;
	expect_gemm_fail(h, &g);
	/* A stride 15, m = 3: 33 + 30 = 63 ok; 34 + 30 = 64 fails. */
	g = (struct gemm){ .m = 3, .n = 1, .k = 1, .ab = 33, .as = 15, .bb = 0, .cb = 0,
			   .cs = 4 };
	expect_gemm_ok(h, &g);
	g.ab = 34;
	expect_gemm_fail(h, &g);
	/* A: k = 7, m = 3, as = 15: ab + 30 + 6 = 63 -> ab = 27 ok, 28 fails. */
	g = (struct gemm){ .m = 3, .n = 1, .k = 7, .ab = 27, .as = 15, .bb = 0, .bs = 1,
			   .cb = 0, .cs = 4 };
	expect_gemm_ok(h, &g);
	g.ab = 28;
	expect_gemm_fail(h, &g);

	/* B: last byte bb + (k-1)*bs + n-1. k = 7, bs = 8, n = 3: bb + 50. */
	g = (struct gemm){ .m = 1, .n = 3, .k = 7, .ab = 0, .as = 0, .bb = 13, .bs = 8,
			   .cb = 0 };
	expect_gemm_ok(h, &g);
	g.bb = 14;
	expect_gemm_fail(h, &g);
	/* B stride 15, k = 5, n = 1: bb + 60; bb = 3 ok, 4 fails. */
	g = (struct gemm){ .m = 1, .n = 1, .k = 5, .bb = 3, .bs = 15, .cb = 0 };
	expect_gemm_ok(h, &g);
	g.bb = 4;
	expect_gemm_fail(h, &g);
	/* B base 63 with n = 1, k = 1 ok; n = 2 one past. */
	g = (struct gemm){ .m = 1, .n = 1, .k = 1, .bb = 63, .cb = 0 };
	expect_gemm_ok(h, &g);
	g.n = 2;
	expect_gemm_fail(h, &g);
}

static void test_gemm_c_bounds(void **state)
{
	struct dp_host *h = *state;
	struct gemm g;
	int s4;

	for (s4 = 0; s4 < 2; s4++) {
		/* C: cb + (m-1)*cs + 4n <= 64. m = 3, n = 3, cs = 12: cb <= 28. */
		g = (struct gemm){ .s4 = s4, .m = 3, .n = 3, .k = 1, .cb = 28, .cs = 12 };
		expect_gemm_ok(h, &g);
		g.cb = 32;
		expect_gemm_fail(h, &g);
		/* cb = 60 holds one int32; n = 2 is one past. */
		g = (struct gemm){ .s4 = s4, .m = 1, .n = 1, .k = 1, .cb = 60 };
		expect_gemm_ok(h, &g);
		g.n = 2;
		expect_gemm_fail(h, &g);
		/* Alignment: C_BASE and C_STRIDE multiples of 4. */
		g = (struct gemm){ .s4 = s4, .m = 1, .n = 1, .k = 1, .cb = 1 };
		expect_gemm_fail(h, &g);
		g.cb = 2;
		expect_gemm_fail(h, &g);
		g.cb = 3;
		expect_gemm_fail(h, &g);
		g.cb = 4;
		expect_gemm_ok(h, &g);
		/* Stride misalignment counts even with m = 1. */
		g = (struct gemm){ .s4 = s4, .m = 1, .n = 1, .k = 1, .cb = 0, .cs = 13 };
		expect_gemm_fail(h, &g);
		g.cs = 15;
		expect_gemm_fail(h, &g);
		g.cs = 12;
		expect_gemm_ok(h, &g);
		/* cs = 12, m = 3, cb = 36: 36 + 24 + 4 = 64 ok with n = 1; cb 40 past. */
		g = (struct gemm){ .s4 = s4, .m = 3, .n = 1, .k = 1, .cb = 36, .cs = 12 };
		expect_gemm_ok(h, &g);
		g.cb = 40;
		expect_gemm_fail(h, &g);
	}
}

static void test_gemm_s4_bounds(void **state)
{
	struct dp_host *h = *state;
	u8 s[64];
	unsigned int i;
	struct gemm g;

	for (i = 0; i < 64; i++)
		s[i] = (u8)(i * 53 + 7);
	scratch_fill(h, s);
	/*
	 * INT4 bases and strides count elements, 128 nibbles in all. The
	 * farthest A element any encoding reaches is 63 + 2*15 + 6 = 99, so A
	 * always fits; the same tile fails as GEMM_S8 (byte 99 > 63).
	 */
	g = (struct gemm){ .s4 = true, .m = 3, .n = 1, .k = 7, .ab = 63, .as = 15,
			   .bb = 63, .bs = 6, .cb = 0, .cs = 4 };
	expect_gemm_ok(h, &g);
	g.s4 = false;
	expect_gemm_fail(h, &g);
	/*
	 * B reaches bb + (k-1)*bs + n-1 = bb + 6*15 + 2 = bb + 92 with k = 7,
	 * bs = 15, n = 3: element 127 at bb = 35 (ok), 128 at bb = 36 (past).
	 */
	g = (struct gemm){ .s4 = true, .m = 1, .n = 3, .k = 7, .ab = 0, .bb = 35, .bs = 15,
			   .cb = 0 };
	expect_gemm_ok(h, &g);
	g.bb = 36;
	expect_gemm_fail(h, &g);
	/* bb = 63, bs = 10, k = 7, n = 3: 63 + 60 + 2 = 125 ok; bs = 11: 131. */
	g = (struct gemm){ .s4 = true, .m = 1, .n = 3, .k = 7, .ab = 0, .bb = 63, .bs = 10,
			   .cb = 0 };
	expect_gemm_ok(h, &g);
	g.bs = 11;
	expect_gemm_fail(h, &g);
}

static void test_gemm_overlap(void **state)
{
	struct dp_host *h = *state;
	u8 s[64] = { 0 }, out[64];
	struct gemm g = { .m = 2, .n = 1, .k = 4, .ab = 0, .as = 4, .bb = 8, .bs = 1,
			  .cb = 4, .cs = 4 };

	/*
	 * A = [[1, 1, 1, 1], [2, 2, 2, 2]] at 0 (rows at 0 and 4), B = [1, 1, 1, 1]
	 * (a column) at 8. C row 0 lands on A row 1 (bytes 4..7), C row 1 on B
	 * (8..11). Inputs are read before any output is written:
	 * C = [1+1+1+1, 2+2+2+2] = [4, 8].
	 */
	memset(&s[0], 1, 4);
	memset(&s[4], 2, 4);
	memset(&s[8], 1, 4);
	scratch_fill(h, s);
	assert_int_equal(gemm_start(h, &g), ST_DONE);
	scratch_dump(h, out);
	assert_int_equal(le32(&out[4]), 4);
	assert_int_equal(le32(&out[8]), 8);
	assert_int_equal(le32(&out[0]), 0x01010101);

	/* C_STRIDE 0: rows written in order, the last row wins (documented). */
	memset(s, 0, sizeof(s));
	memset(&s[0], 1, 4);
	memset(&s[4], 2, 4);
	memset(&s[8], 1, 4);
	scratch_fill(h, s);
	g.cb = 32;
	g.cs = 0;
	assert_int_equal(gemm_start(h, &g), ST_DONE);
	scratch_dump(h, out);
	assert_int_equal(le32(&out[32]), 8);
}

static void test_gemm_sweep(void **state)
{
	struct dp_host *h = *state;
	u32 seed = 0x600df00d;
	unsigned int n, good = 0, bad = 0;
	u8 s[64], want[64], out[64];

	for (n = 0; n < 6000; n++) {
		struct gemm g;
		struct perf p0, p1;
		bool ok;
		unsigned int i;

		for (i = 0; i < 64; i++)
			s[i] = (u8)rnd(&seed);
		scratch_fill(h, s);
		g.s4 = rnd(&seed) & 1;
		g.m = rnd(&seed) % 4;
		g.n = rnd(&seed) % 4;
		g.k = rnd(&seed) % 8;
		g.ab = rnd(&seed) % 64;
		g.bb = rnd(&seed) % 64;
		g.cb = rnd(&seed) % 64;
		g.as = rnd(&seed) % 16;
		g.bs = rnd(&seed) % 16;
		g.cs = rnd(&seed) % 16;
		/* Bias towards valid commands: small bases, aligned C. */
		if (n % 2) {
			g.ab %= 24;
			g.bb %= 24;
			g.cb &= ~3U;
			g.cs &= ~3U;
			if (g.m == 0)
				g.m = 1;
			if (g.n == 0)
				g.n = 1;
			if (g.k == 0)
				g.k = 1;
		}
		ok = ref_gemm(&g, s, want);
		perf_read(h, &p0);
		assert_int_equal(gemm_start(h, &g), ok ? ST_DONE : ST_ERR);
		perf_read(h, &p1);
		scratch_dump(h, out);
		assert_memory_equal(out, want, 64);
		if (ok) {
			u32 ins = g.s4 ? (g.m * g.k + 1) / 2 + (g.k * g.n + 1) / 2 :
					 g.m * g.k + g.k * g.n;

			assert_int_equal(p1.macs - p0.macs, g.s4 ? 0 : g.m * g.n * g.k);
			assert_int_equal(p1.cycles - p0.cycles, g.m * g.n * g.k);
			assert_int_equal(p1.scratch - p0.scratch, ins + 4 * g.m * g.n);
			assert_int_equal(p1.ops - p0.ops, 1);
			good++;
		} else {
			assert_int_equal(p1.errors - p0.errors, 1);
			assert_int_equal(p1.unsupported - p0.unsupported, 1);
			bad++;
		}
	}
	assert_true(good > 1000 && bad > 1000);
}

/* ------------------------------------------------------------------ */
/* VRELU_S8                                                             */
/* ------------------------------------------------------------------ */

static u32 vrelu_start(struct dp_host *h, u32 len_field, u32 src, u32 dst)
{
	wr(h, E1_DP_GEMM_CFG, len_field);
	wr(h, E1_DP_GEMM_BASE, src | dst << 8);
	wr(h, E1_DP_OPCODE, E1_DP_OP_VRELU_S8);
	wr(h, E1_DP_CTRL_STATUS, E1_DP_CTRL_START);
	return rd(h, E1_DP_CTRL_STATUS);
}

/* Reference: len 0 means 64; copy from a snapshot so overlaps see old data. */
static bool ref_vrelu(const u8 *in, u8 *out, u32 len, u32 src, u32 dst)
{
	u32 i;

	memcpy(out, in, 64);
	if (len == 0)
		len = 64;
	for (i = 0; i < len; i++)
		if (src + i >= 64 || dst + i >= 64)
			return false;
	for (i = 0; i < len; i++)
		out[dst + i] = (int8_t)in[src + i] > 0 ? in[src + i] : 0;
	return true;
}

static void vrelu_check(struct dp_host *h, const u8 *s, u32 len, u32 src, u32 dst)
{
	u8 want[64], out[64];
	struct perf p0, p1;
	bool ok;

	scratch_fill(h, s);
	ok = ref_vrelu(s, want, len, src, dst);
	perf_read(h, &p0);
	assert_int_equal(vrelu_start(h, len, src, dst), ok ? ST_DONE : ST_ERR);
	perf_read(h, &p1);
	scratch_dump(h, out);
	assert_memory_equal(out, want, 64);
	if (ok) {
		u32 l = len ? len : 64;

		/* LEN cycles, 2*LEN scratch bytes, no MACs. */
		assert_int_equal(p1.cycles - p0.cycles, l);
		assert_int_equal(p1.scratch - p0.scratch, 2 * l);
		assert_int_equal(p1.macs - p0.macs, 0);
		assert_int_equal(p1.ops - p0.ops, 1);
	} else {
		assert_int_equal(p1.errors - p0.errors, 1);
		assert_int_equal(p1.unsupported - p0.unsupported, 1);
		assert_int_equal(p1.scratch - p0.scratch, 0);
		assert_int_equal(p1.cycles - p0.cycles, 1);
	}
	wr(h, E1_DP_CTRL_STATUS, E1_DP_STATUS_DONE);
}

static void test_vrelu_examples(void **state)
{
	struct dp_host *h = *state;
	u8 s[64], out[64];
	unsigned int i;

	for (i = 0; i < 64; i++)
		s[i] = (u8)(i * 9 - 100);	/* a mix of signs */

	/* LEN 1 in place at byte 5: s[5] = 5*9 - 100 = -55 -> 0. */
	scratch_fill(h, s);
	assert_int_equal(vrelu_start(h, 1, 5, 5), ST_DONE);
	scratch_dump(h, out);
	assert_int_equal(out[5], 0);
	assert_int_equal(out[4], s[4]);
	assert_int_equal(out[6], s[6]);
	/* LEN 1 copy: s[20] = 80 -> byte 0. */
	assert_int_equal(vrelu_start(h, 1, 20, 0), ST_DONE);
	scratch_dump(h, out);
	assert_int_equal(out[0], 80);

	/* Hand-picked bytes: [-128, -1, 0, 1, 127] -> [0, 0, 0, 1, 127]. */
	memset(s, 0x55, sizeof(s));
	s[10] = 0x80;
	s[11] = 0xff;
	s[12] = 0x00;
	s[13] = 0x01;
	s[14] = 0x7f;
	scratch_fill(h, s);
	assert_int_equal(vrelu_start(h, 5, 10, 40), ST_DONE);
	scratch_dump(h, out);
	assert_int_equal(out[40], 0);
	assert_int_equal(out[41], 0);
	assert_int_equal(out[42], 0);
	assert_int_equal(out[43], 1);
	assert_int_equal(out[44], 127);
	assert_int_equal(out[45], 0x55);
	assert_int_equal(out[10], 0x80);	/* copy leaves the source */
}

static void test_vrelu_lengths(void **state)
{
	struct dp_host *h = *state;
	u8 s[64];
	unsigned int i;

	for (i = 0; i < 64; i++)
		s[i] = (u8)(i * 29 + 3);
	/* LEN 1, 63, and 64 via LEN = 0, in place. */
	vrelu_check(h, s, 1, 0, 0);
	vrelu_check(h, s, 1, 63, 63);
	vrelu_check(h, s, 63, 0, 0);
	vrelu_check(h, s, 63, 1, 1);
	vrelu_check(h, s, 63, 1, 0);
	vrelu_check(h, s, 63, 0, 1);
	vrelu_check(h, s, 0, 0, 0);
	/* Overflow: SRC + LEN = 65, DST + LEN = 65, LEN 64 off base 1. */
	vrelu_check(h, s, 63, 2, 0);
	vrelu_check(h, s, 63, 0, 2);
	vrelu_check(h, s, 0, 1, 0);
	vrelu_check(h, s, 0, 0, 1);
	vrelu_check(h, s, 1, 63, 62);
	vrelu_check(h, s, 2, 63, 0);
	vrelu_check(h, s, 2, 0, 63);
	/* SRC + LEN = 64 exactly is the limit. */
	vrelu_check(h, s, 32, 32, 0);
	vrelu_check(h, s, 32, 0, 32);
	vrelu_check(h, s, 33, 32, 0);
	vrelu_check(h, s, 33, 0, 32);
}

static void test_vrelu_overlap(void **state)
{
	struct dp_host *h = *state;
	u8 s[64], out[64];
	unsigned int i;

	/* s[i] = i - 8: bytes 0..7 negative, 8 zero, then positive. */
	for (i = 0; i < 64; i++)
		s[i] = (u8)((int)i - 8);
	/*
	 * Forward overlap: SRC 0, DST 1, LEN 16. Pre-command values:
	 * out[1 + i] = relu(s[i]) = max(i - 8, 0), so out[9] = 0, out[10] = 1,
	 * ..., out[16] = 7. A byte-serial in-place copy would smear zeros.
	 */
	scratch_fill(h, s);
	assert_int_equal(vrelu_start(h, 16, 0, 1), ST_DONE);
	scratch_dump(h, out);
	assert_int_equal(out[0], s[0]);
	for (i = 0; i < 16; i++)
		assert_int_equal(out[1 + i], i >= 8 ? i - 8 : 0);
	assert_int_equal(out[17], s[17]);
	vrelu_check(h, s, 16, 0, 1);
	vrelu_check(h, s, 16, 1, 0);
	vrelu_check(h, s, 40, 10, 20);
	vrelu_check(h, s, 40, 20, 10);
}

static void test_vrelu_sweep(void **state)
{
	struct dp_host *h = *state;
	u32 seed = 0x7e1a7e1a;
	u8 s[64];
	unsigned int n, i;

	for (n = 0; n < 3000; n++) {
		for (i = 0; i < 64; i++)
			s[i] = (u8)rnd(&seed);
		vrelu_check(h, s, rnd(&seed) % 64, rnd(&seed) % 64, rnd(&seed) % 64);
	}
}

/* Reserved bits of GEMM_CFG/BASE do not leak into the command. */
static void test_vrelu_ignores_gemm_fields(void **state)
{
	struct dp_host *h = *state;
	u8 s[64], out[64];
	unsigned int i;

	for (i = 0; i < 64; i++)
		s[i] = (u8)(0x80 | i);	/* all negative */
	scratch_fill(h, s);
	/* K = 7 in [18:16] and C = 63 in [21:16] must not matter to VRELU. */
	wr(h, E1_DP_GEMM_CFG, 4 | 7 << 16);
	wr(h, E1_DP_GEMM_BASE, 8 | 8 << 8 | 63 << 16);
	wr(h, E1_DP_OPCODE, E1_DP_OP_VRELU_S8);
	wr(h, E1_DP_CTRL_STATUS, E1_DP_CTRL_START);
	assert_int_equal(rd(h, E1_DP_CTRL_STATUS), ST_DONE);
	scratch_dump(h, out);
	for (i = 0; i < 64; i++)
		assert_int_equal(out[i], i >= 8 && i < 12 ? 0 : s[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_gemm_s8_example, dp_setup, dp_teardown),
		cmocka_unit_test_setup_teardown(test_gemm_s8_extremes, dp_setup, dp_teardown),
		cmocka_unit_test_setup_teardown(test_gemm_s4_example, dp_setup, dp_teardown),
		cmocka_unit_test_setup_teardown(test_gemm_s4_odd_base, dp_setup, dp_teardown),
		cmocka_unit_test_setup_teardown(test_gemm_zero_dims, dp_setup, dp_teardown),
		cmocka_unit_test_setup_teardown(test_gemm_s8_bounds, dp_setup, dp_teardown),
		cmocka_unit_test_setup_teardown(test_gemm_c_bounds, dp_setup, dp_teardown),
		cmocka_unit_test_setup_teardown(test_gemm_s4_bounds, dp_setup, dp_teardown),
		cmocka_unit_test_setup_teardown(test_gemm_overlap, dp_setup, dp_teardown),
		cmocka_unit_test_setup_teardown(test_gemm_sweep, dp_setup, dp_teardown),
		cmocka_unit_test_setup_teardown(test_vrelu_examples, dp_setup, dp_teardown),
		cmocka_unit_test_setup_teardown(test_vrelu_lengths, dp_setup, dp_teardown),
		cmocka_unit_test_setup_teardown(test_vrelu_overlap, dp_setup, dp_teardown),
		cmocka_unit_test_setup_teardown(test_vrelu_sweep, dp_setup, dp_teardown),
		cmocka_unit_test_setup_teardown(test_vrelu_ignores_gemm_fields, dp_setup,
						dp_teardown),
	};

	return cmocka_run_group_tests_name("datapath-scratchpad", tests, NULL, NULL);
}
