// SPDX-License-Identifier: (GPL-2.0-only OR MIT)
/*
 * Datapath model: register file, CTRL_STATUS, interrupt, every scalar
 * opcode (hand-worked examples plus randomized sweeps against naive
 * references written here), fail-closed paths and the scalar perf counters.
 */
#include "test-dp-host.h"

/* ------------------------------------------------------------------ */
/* Naive references, independent of the model.                         */
/* ------------------------------------------------------------------ */

/* Signed value of the @bits-wide lane @i of @w (lanes low first). */
static int64_t lane(u32 w, unsigned int bits, unsigned int i)
{
	int64_t v = (w >> (bits * i)) & ((1U << bits) - 1);

	return v >= (1 << (bits - 1)) ? v - (1 << bits) : v;
}

/* Expected RESULT for the plain dot opcodes: sum of lane products + ACC. */
static u32 ref_dot(u32 a, u32 b, u32 acc, unsigned int bits)
{
	int64_t s = (int32_t)acc;
	unsigned int i;

	for (i = 0; i < 32 / bits; i++)
		s += lane(a, bits, i) * lane(b, bits, i);
	return (u32)(uint64_t)s;
}

/* 2^n in floating point, by repeated multiplication (no libm). */
static double pow2(int n)
{
	double r = 1.0;

	for (; n > 0; n--)
		r *= 2.0;
	for (; n < 0; n++)
		r /= 2.0;
	return r;
}

/* Floor of a double that fits in int64 (no libm). */
static int64_t floor_d(double x)
{
	int64_t t = (int64_t)x;	/* truncates toward zero */

	return (double)t > x ? t - 1 : t;
}

/*
 * E4M3 decoded in floating point (value = (1 + m/8) * 2^(e-7), subnormal
 * m/8 * 2^-6), then magnitude * 256 truncated to an integer; false on NaN.
 */
static bool ref_fp8(u32 v, double *q)
{
	unsigned int s = v >> 7 & 1, e = v >> 3 & 15, mnt = v & 7;
	double val;

	if (e == 15 && mnt == 7)
		return false;
	if (e == 0)
		val = mnt / 8.0 * pow2(-6);
	else
		val = (1.0 + mnt / 8.0) * pow2((int)e - 7);
	*q = (double)(int64_t)(val * 256.0) * (s ? -1.0 : 1.0);
	return true;
}

static bool ref_fp8_dot(u32 a, u32 b, u32 acc, u32 *res)
{
	int64_t s = (int32_t)acc;
	unsigned int i;
	double qa, qb;

	for (i = 0; i < 4; i++) {
		if (!ref_fp8(a >> (8 * i) & 0xff, &qa) || !ref_fp8(b >> (8 * i) & 0xff, &qb))
			return false;
		s += floor_d(qa * qb / 256.0);
	}
	*res = (u32)(uint64_t)s;
	return true;
}

static u32 sext_hi(u32 r)
{
	return (int32_t)r < 0 ? 0xffffffffU : 0;
}

/* Run one scalar command and check RESULT, RESULT_HI and success. */
static void expect(struct dp_host *h, u32 op, u32 a, u32 b, u32 acc, u32 res, u32 hi)
{
	u32 st = dp_cmd(h, op, a, b, acc);

	if (st != ST_DONE || rd(h, E1_DP_RESULT) != res || rd(h, E1_DP_RESULT_HI) != hi)
		print_error("op %u a %08x b %08x acc %08x: st %x res %08x/%08x want %08x/%08x\n",
			    op, a, b, acc, st, rd(h, E1_DP_RESULT), rd(h, E1_DP_RESULT_HI),
			    res, hi);
	assert_int_equal(st, ST_DONE);
	assert_int_equal(rd(h, E1_DP_RESULT), res);
	assert_int_equal(rd(h, E1_DP_RESULT_HI), hi);
}

/* Run a command that must fail closed: RESULT/RESULT_HI untouched. */
static void expect_fail(struct dp_host *h, u32 op, u32 a, u32 b, u32 acc)
{
	u32 r0, h0, e0, u0, o0;

	/* Leave a known result behind first: 0x11111111 + 0x22222222. */
	assert_int_equal(dp_cmd(h, E1_DP_OP_ADD, 0x11111111, 0x22222222, 0), ST_DONE);
	wr(h, E1_DP_CTRL_STATUS, E1_DP_STATUS_DONE);
	r0 = rd(h, E1_DP_RESULT);
	h0 = rd(h, E1_DP_RESULT_HI);
	e0 = rd(h, E1_DP_PERF_ERRORS);
	u0 = rd(h, E1_DP_PERF_UNSUPPORTED_OPS);
	o0 = rd(h, E1_DP_PERF_OPS);
	assert_int_equal(dp_cmd(h, op, a, b, acc), ST_ERR);
	assert_int_equal(rd(h, E1_DP_RESULT), r0);
	assert_int_equal(rd(h, E1_DP_RESULT_HI), h0);
	assert_int_equal(rd(h, E1_DP_PERF_ERRORS), e0 + 1);
	assert_int_equal(rd(h, E1_DP_PERF_UNSUPPORTED_OPS), u0 + 1);
	assert_int_equal(rd(h, E1_DP_PERF_OPS), o0);
	wr(h, E1_DP_CTRL_STATUS, E1_DP_STATUS_DONE);
	assert_int_equal(rd(h, E1_DP_CTRL_STATUS), 0);
}

/* ------------------------------------------------------------------ */
/* Registers                                                            */
/* ------------------------------------------------------------------ */

static void test_reset_values(void **state)
{
	struct dp_host *h = *state;
	u32 off;

	/* "E1DP" */
	assert_int_equal(rd(h, E1_DP_ID), 0x45314450);
	/* DESC_STATUS[0] reports the empty ring (head == tail == 0). */
	assert_int_equal(rd(h, E1_DP_DESC_STATUS), E1_DP_DS_EMPTY);
	for (off = 0; off < E1_WIN_SIZE; off += 4)
		if (off != E1_DP_ID && off != E1_DP_DESC_STATUS)
			assert_int_equal(rd(h, off), 0);
	assert_false(h->irq_level);
}

static void test_rw_registers(void **state)
{
	struct dp_host *h = *state;

	/* OPCODE keeps the low 4 bits only. */
	wr(h, E1_DP_OPCODE, 0xfffffff3);
	assert_int_equal(rd(h, E1_DP_OPCODE), 0x3);
	wr(h, E1_DP_OPCODE, 0x1c);
	assert_int_equal(rd(h, E1_DP_OPCODE), 0xc);

	wr(h, E1_DP_OP_A, 0xdeadbeef);
	wr(h, E1_DP_OP_B, 0x01234567);
	wr(h, E1_DP_ACC, 0x89abcdef);
	assert_int_equal(rd(h, E1_DP_OP_A), 0xdeadbeef);
	assert_int_equal(rd(h, E1_DP_OP_B), 0x01234567);
	assert_int_equal(rd(h, E1_DP_ACC), 0x89abcdef);

	/*
	 * Configuration registers keep their implemented fields only:
	 * GEMM_CFG  M[1:0] N[9:8] K[18:16] LEN[5:0]   = 0x0007033f
	 * GEMM_BASE A/SRC[5:0] B/DST[13:8] C[21:16]    = 0x003f3f3f
	 * GEMM_STRIDE A[3:0] B[11:8] C[19:16]          = 0x000f0f0f
	 * CMD_PARAM bits 1:0; DESC_HEAD/TAIL bits 2:0.
	 */
	wr(h, E1_DP_GEMM_CFG, 0xffffffff);
	wr(h, E1_DP_GEMM_BASE, 0xffffffff);
	wr(h, E1_DP_GEMM_STRIDE, 0xffffffff);
	wr(h, E1_DP_CMD_PARAM, 0xffffffff);
	wr(h, E1_DP_DESC_HEAD, 0xffffffff);
	wr(h, E1_DP_DESC_TAIL, 0xfffffffd);
	wr(h, E1_DP_DESC_BASE, 0xfedcba98);
	assert_int_equal(rd(h, E1_DP_GEMM_CFG), 0x0007033f);
	assert_int_equal(rd(h, E1_DP_GEMM_BASE), 0x003f3f3f);
	assert_int_equal(rd(h, E1_DP_GEMM_STRIDE), 0x000f0f0f);
	assert_int_equal(rd(h, E1_DP_CMD_PARAM), 0x3);
	assert_int_equal(rd(h, E1_DP_DESC_HEAD), 7);
	assert_int_equal(rd(h, E1_DP_DESC_TAIL), 5);
	assert_int_equal(rd(h, E1_DP_DESC_BASE), 0xfedcba98);
}

static void test_scratch_rw(void **state)
{
	struct dp_host *h = *state;
	unsigned int i;

	for (i = 0; i < 16; i++)
		wr(h, 0x80 + 4 * i, 0x01010101U * i ^ 0xa5a5a5a5U);
	for (i = 0; i < 16; i++)
		assert_int_equal(rd(h, 0x80 + 4 * i), 0x01010101U * i ^ 0xa5a5a5a5U);
	/* 0xc0 is past the scratchpad: reserved. */
	wr(h, 0xc0, 0x12345678);
	assert_int_equal(rd(h, 0xc0), 0);
}

static void test_ro_and_reserved(void **state)
{
	struct dp_host *h = *state;
	static const u32 ro[] = {
		E1_DP_RESULT, E1_DP_RESULT_HI, E1_DP_PERF_UNSUPPORTED_OPS,
		E1_DP_DESC_STATUS, E1_DP_PERF_CYCLES, E1_DP_PERF_MACS, E1_DP_PERF_OPS,
		E1_DP_DESC_TIMEOUT_COUNT, E1_DP_DESC_BYTES_READ, E1_DP_DESC_BYTES_WRITTEN,
		E1_DP_DESC_READ_BEATS, E1_DP_DESC_WRITE_BEATS, E1_DP_PERF_STALL_CYCLES,
		E1_DP_PERF_SCRATCH_BYTES,
	};
	static const u32 rsvd[] = { 0x34, 0x38, 0x3c, 0xc0, 0x100, 0x800, 0xffc };
	unsigned int i;

	for (i = 0; i < sizeof(ro) / sizeof(ro[0]); i++) {
		wr(h, ro[i], 0xffffffff);
		/* DESC_STATUS keeps its live empty bit. */
		assert_int_equal(rd(h, ro[i]),
				 ro[i] == E1_DP_DESC_STATUS ? E1_DP_DS_EMPTY : 0);
	}
	wr(h, E1_DP_ID, 0);
	assert_int_equal(rd(h, E1_DP_ID), 0x45314450);
	for (i = 0; i < sizeof(rsvd) / sizeof(rsvd[0]); i++) {
		wr(h, rsvd[i], 0xffffffff);
		assert_int_equal(rd(h, rsvd[i]), 0);
	}
	/* RO really ignores writes also when non-zero. */
	assert_int_equal(dp_cmd(h, E1_DP_OP_ADD, 5, 6, 0), ST_DONE);
	wr(h, E1_DP_RESULT, 0);
	assert_int_equal(rd(h, E1_DP_RESULT), 11);
	wr(h, E1_DP_PERF_OPS, 0);
	assert_int_equal(rd(h, E1_DP_PERF_OPS), 1);
	/* CTRL_STATUS status bits are not writable. */
	wr(h, E1_DP_CTRL_STATUS, 0);
	assert_int_equal(rd(h, E1_DP_CTRL_STATUS), ST_DONE);
	wr(h, E1_DP_CTRL_STATUS, E1_DP_STATUS_ERROR);
	assert_int_equal(rd(h, E1_DP_CTRL_STATUS), ST_DONE);
}

static void test_ctrl_status_and_irq(void **state)
{
	struct dp_host *h = *state;

	/* Command done: done set, busy clear, interrupt line rises. */
	assert_int_equal(dp_cmd(h, E1_DP_OP_ADD, 1, 2, 0), ST_DONE);
	assert_true(h->irq_level);
	assert_int_equal(h->irq_rises, 1);

	/* Start while done is set: accepted, line stays high (no new edge). */
	assert_int_equal(dp_cmd(h, E1_DP_OP_ADD, 3, 4, 0), ST_DONE);
	assert_int_equal(rd(h, E1_DP_RESULT), 7);
	assert_int_equal(h->irq_rises, 1);

	/* Bit 1 clears done; the line falls. */
	wr(h, E1_DP_CTRL_STATUS, E1_DP_STATUS_DONE);
	assert_int_equal(rd(h, E1_DP_CTRL_STATUS), 0);
	assert_false(h->irq_level);
	assert_int_equal(h->irq_falls, 1);

	/* Error: done|error, and the line rises again. */
	wr(h, E1_DP_OPCODE, E1_DP_OP_EXP2_NEG_Q0_8);
	wr(h, E1_DP_OP_A, 1);
	wr(h, E1_DP_CTRL_STATUS, E1_DP_CTRL_START);
	assert_int_equal(rd(h, E1_DP_CTRL_STATUS), ST_ERR);
	assert_true(h->irq_level);
	assert_int_equal(h->irq_rises, 2);

	/* A good start while error is set clears the error first. */
	assert_int_equal(dp_cmd(h, E1_DP_OP_SUB, 10, 4, 0), ST_DONE);
	assert_int_equal(rd(h, E1_DP_RESULT), 6);

	/* Clear and start in one write: the new command's status remains. */
	wr(h, E1_DP_OP_A, 0xffffffff);
	wr(h, E1_DP_OP_B, 1);
	wr(h, E1_DP_OPCODE, E1_DP_OP_ADD);
	wr(h, E1_DP_CTRL_STATUS, E1_DP_STATUS_DONE | E1_DP_CTRL_START);
	assert_int_equal(rd(h, E1_DP_CTRL_STATUS), ST_DONE);
	assert_int_equal(rd(h, E1_DP_RESULT), 0);

	/* Writing 0 changes nothing. */
	wr(h, E1_DP_CTRL_STATUS, 0);
	assert_int_equal(rd(h, E1_DP_CTRL_STATUS), ST_DONE);
	wr(h, E1_DP_CTRL_STATUS, E1_DP_STATUS_DONE);
	assert_false(h->irq_level);
	assert_int_equal(h->irq_falls, 2);
}

/* ------------------------------------------------------------------ */
/* Opcodes: hand-worked examples                                        */
/* ------------------------------------------------------------------ */

static void test_add_sub(void **state)
{
	struct dp_host *h = *state;

	/* 0xffffffff + 2 = 0x1_00000001 -> 1 (mod 2^32); RESULT_HI 0. */
	expect(h, E1_DP_OP_ADD, 0xffffffff, 2, 0xdead, 1, 0);
	/* 0x7fffffff + 1 = 0x80000000: no sign extension for ADD. */
	expect(h, E1_DP_OP_ADD, 0x7fffffff, 1, 0, 0x80000000, 0);
	/* 1 - 2 = -1 = 0xffffffff; RESULT_HI still 0. */
	expect(h, E1_DP_OP_SUB, 1, 2, 0, 0xffffffff, 0);
	/* 1000 - 1 = 999; ACC ignored. */
	expect(h, E1_DP_OP_SUB, 1000, 1, 77, 999, 0);
}

static void test_mul_lo(void **state)
{
	struct dp_host *h = *state;

	/* 0xffffffff^2 = 0xfffffffe_00000001. */
	expect(h, E1_DP_OP_MUL_LO, 0xffffffff, 0xffffffff, 0, 0x00000001, 0xfffffffe);
	/* 0x12345678 * 0x10 = 0x1_23456780. */
	expect(h, E1_DP_OP_MUL_LO, 0x12345678, 0x10, 0, 0x23456780, 0x1);
	/* 65536 * 65536 = 0x1_00000000. */
	expect(h, E1_DP_OP_MUL_LO, 0x10000, 0x10000, 0, 0, 1);
	/* Unsigned: 0x80000000 * 2 = 0x1_00000000, not negative. */
	expect(h, E1_DP_OP_MUL_LO, 0x80000000, 2, 0, 0, 1);
	expect(h, E1_DP_OP_MUL_LO, 7, 6, 0, 42, 0);
}

static void test_mac_s16(void **state)
{
	struct dp_host *h = *state;

	/* A[15:0] = 0xfffe = -2, B[15:0] = 3: -6 + 10 = 4; high halves ignored. */
	expect(h, E1_DP_OP_MAC_S16, 0x1234fffe, 0xabcd0003, 10, 4, 0);
	/* -6 + 0 = -6 = 0xfffffffa, RESULT_HI = sign extension. */
	expect(h, E1_DP_OP_MAC_S16, 0xfffe, 3, 0, 0xfffffffa, 0xffffffff);
	/* -32768 * -32768 = 0x40000000; + 0x7fffffff wraps to 0xbfffffff. */
	expect(h, E1_DP_OP_MAC_S16, 0x8000, 0x8000, 0x7fffffff, 0xbfffffff, 0xffffffff);
	/* 32767 * -32768 = -1073709056 = 0xc0008000; + ACC -1 = 0xc0007fff. */
	expect(h, E1_DP_OP_MAC_S16, 0x7fff, 0x8000, 0xffffffff, 0xc0007fff, 0xffffffff);
}

static void test_dot4_s8(void **state)
{
	struct dp_host *h = *state;

	/*
	 * A bytes low first [1, -2, 3, -4] = 0xfc03fe01,
	 * B bytes [5, 6, -7, 8] = 0x08f90605:
	 * 1*5 + (-2)*6 + 3*(-7) + (-4)*8 = 5 - 12 - 21 - 32 = -60; + 100 = 40.
	 */
	expect(h, E1_DP_OP_DOT4_S8, 0xfc03fe01, 0x08f90605, 100, 40, 0);
	/* Same with ACC 0: -60 = 0xffffffc4. */
	expect(h, E1_DP_OP_DOT4_S8, 0xfc03fe01, 0x08f90605, 0, 0xffffffc4, 0xffffffff);
	/* 4 * (-128)(-128) = 65536. */
	expect(h, E1_DP_OP_DOT4_S8, 0x80808080, 0x80808080, 0, 65536, 0);
	/* Lane order: only byte 0 of A non-zero (2), only byte 0 of B (3). */
	expect(h, E1_DP_OP_DOT4_S8, 0x00000002, 0x00000003, 0, 6, 0);
	expect(h, E1_DP_OP_DOT4_S8, 0x02000000, 0x00000003, 0, 0, 0);
}

static void test_max_min(void **state)
{
	struct dp_host *h = *state;

	/* Unsigned compare: 0x80000000 > 1. */
	expect(h, E1_DP_OP_MAX_U32, 0x80000000, 1, 0, 0x80000000, 0);
	expect(h, E1_DP_OP_MIN_U32, 0x80000000, 1, 0, 1, 0);
	expect(h, E1_DP_OP_MAX_U32, 5, 5, 0, 5, 0);
	expect(h, E1_DP_OP_MIN_U32, 0, 0xffffffff, 0, 0, 0);
	expect(h, E1_DP_OP_MAX_U32, 0, 0xffffffff, 0, 0xffffffff, 0);
}

static void test_dot8_s4(void **state)
{
	struct dp_host *h = *state;

	/*
	 * A nibbles low first [1, 2, 3, 4, 5, 6, 7, -8] = 0x87654321,
	 * B all 1 = 0x11111111: 1+2+3+4+5+6+7-8 = 20; ACC -20 -> 0.
	 */
	expect(h, E1_DP_OP_DOT8_S4, 0x87654321, 0x11111111, (u32)-20, 0, 0);
	/* B all -1 (0xf): -20 = 0xffffffec. */
	expect(h, E1_DP_OP_DOT8_S4, 0x87654321, 0xffffffff, 0, 0xffffffec, 0xffffffff);
	/* 8 * (-8)(-8) = 512. */
	expect(h, E1_DP_OP_DOT8_S4, 0x88888888, 0x88888888, 0, 512, 0);
	/* Nibble 0 is bits [3:0]: A = 0x3 (3), B = 0x5 (5) -> 15. */
	expect(h, E1_DP_OP_DOT8_S4, 0x3, 0x5, 0, 15, 0);
}

static void test_relu4_s8(void **state)
{
	struct dp_host *h = *state;

	/* Lanes low first [0x7f, 0x01, 0xff (-1), 0x80 (-128)] -> [0x7f, 1, 0, 0]. */
	expect(h, E1_DP_OP_RELU4_S8, 0x80ff017f, 0xffffffff, 0xffffffff, 0x0000017f, 0);
	/* [0, -1, 0x40, 0x81 (-127)] -> [0, 0, 0x40, 0]. */
	expect(h, E1_DP_OP_RELU4_S8, 0x8140ff00, 0, 0, 0x00400000, 0);
	expect(h, E1_DP_OP_RELU4_S8, 0x7f7f7f7f, 0, 0, 0x7f7f7f7f, 0);
	expect(h, E1_DP_OP_RELU4_S8, 0x80808080, 0, 0, 0, 0);
}

static void test_sdot4(void **state)
{
	struct dp_host *h = *state;

	/*
	 * Weights w0..w3 = [1, -2, 3, -1] in A[15:0], low nibble first:
	 * 0x1, 0xe, 0x3, 0xf -> A = 0xf3e1.
	 * Activations a0..a7 = [1, 2, 3, 4, 5, 6, 7, -8] -> B = 0x87654321.
	 * Positions p0 = 0, p1 = 3 (group 0), p2 = 1, p3 = 2 (group 1):
	 * ACC = p0 | p1 << 2 | p2 << 4 | p3 << 6 = 0 | 0xc | 0x10 | 0x80 = 0x9c.
	 * Result = 1*a0 + (-2)*a3 + 3*a5 + (-1)*a6 = 1 - 8 + 18 - 7 = 4.
	 * ACC is metadata, not added.
	 */
	expect(h, E1_DP_OP_SDOT4_S4_2_4, 0xf3e1, 0x87654321, 0x9c, 4, 0);
	/*
	 * Same weights, p0 = 1, p1 = 0, p2 = 3, p3 = 0:
	 * ACC = 1 | 0 << 2 | 3 << 4 | 0 << 6 = 0x31.
	 * 1*a1 + (-2)*a0 + 3*a7 + (-1)*a4 = 2 - 2 - 24 - 5 = -29 = 0xffffffe3.
	 */
	expect(h, E1_DP_OP_SDOT4_S4_2_4, 0xf3e1, 0x87654321, 0x31, 0xffffffe3, 0xffffffff);
}

static void test_sdot4_fail_closed(void **state)
{
	struct dp_host *h = *state;

	/* p0 == p1 == 2: ACC = 2 | 2 << 2 | 0 << 4 | 1 << 6 = 0x4a. */
	expect_fail(h, E1_DP_OP_SDOT4_S4_2_4, 0x1111, 0x11111111, 0x4a);
	/* p2 == p3 == 3: ACC = 0 | 1 << 2 | 3 << 4 | 3 << 6 = 0xf4. */
	expect_fail(h, E1_DP_OP_SDOT4_S4_2_4, 0x1111, 0x11111111, 0xf4);
	/* OP_A[31:16] non-zero (valid ACC 0x9c). */
	expect_fail(h, E1_DP_OP_SDOT4_S4_2_4, 0x10000 | 0xf3e1, 0x87654321, 0x9c);
	expect_fail(h, E1_DP_OP_SDOT4_S4_2_4, 0x80000000 | 0xf3e1, 0x87654321, 0x9c);
	/* ACC[31:8] non-zero. */
	expect_fail(h, E1_DP_OP_SDOT4_S4_2_4, 0xf3e1, 0x87654321, 0x100 | 0x9c);
	expect_fail(h, E1_DP_OP_SDOT4_S4_2_4, 0xf3e1, 0x87654321, 0x80000000 | 0x9c);
}

static void test_dot16_s2(void **state)
{
	struct dp_host *h = *state;

	/* Two's complement: 01 = +1, 10 = -2, 11 = -1. 16 * (1 * -2) = -32. */
	expect(h, E1_DP_OP_DOT16_S2, 0x55555555, 0xaaaaaaaa, 0, 0xffffffe0, 0xffffffff);
	/* 16 * (-1 * -1) = 16; + ACC 4 = 20. */
	expect(h, E1_DP_OP_DOT16_S2, 0xffffffff, 0xffffffff, 4, 20, 0);
	/* 16 * (-2 * -2) = 64. */
	expect(h, E1_DP_OP_DOT16_S2, 0xaaaaaaaa, 0xaaaaaaaa, 0, 64, 0);
	/* Lane 0 is bits [1:0]: A = 0b01 (+1), B = 0b10 (-2) -> -2. */
	expect(h, E1_DP_OP_DOT16_S2, 0x1, 0x2, 0, 0xfffffffe, 0xffffffff);
	/* Lane 15 only: A = 0b01 << 30, B = 0b11 << 30: 1 * -1 = -1. */
	expect(h, E1_DP_OP_DOT16_S2, 0x40000000, 0xc0000000, 0, 0xffffffff, 0xffffffff);

	/* Ternary: 00 = 0, 01 = +1, 10 = -1. */
	wr(h, E1_DP_CMD_PARAM, E1_DP_CMD_TERNARY);
	/* 16 * (1 * -1) = -16. */
	expect(h, E1_DP_OP_DOT16_S2, 0x55555555, 0xaaaaaaaa, 0, 0xfffffff0, 0xffffffff);
	/* 16 * (-1 * -1) = 16 (vs 64 in two's complement); + 100 = 116. */
	expect(h, E1_DP_OP_DOT16_S2, 0xaaaaaaaa, 0xaaaaaaaa, 100, 116, 0);
	/* Lanes [+1, -1, 0, +1] * [-1, -1, +1, +1]: -1 + 1 + 0 + 1 = 1.
	 * A = 01 | 10 << 2 | 00 << 4 | 01 << 6 = 0x49,
	 * B = 10 | 10 << 2 | 01 << 4 | 01 << 6 = 0x5a.
	 */
	expect(h, E1_DP_OP_DOT16_S2, 0x49, 0x5a, 0, 1, 0);
	/* Ternary is sticky: the next command still decodes ternary. */
	expect(h, E1_DP_OP_DOT16_S2, 0x49, 0x5a, 0, 1, 0);
	/* Other opcodes ignore CMD_PARAM[1]. */
	expect(h, E1_DP_OP_DOT8_S4, 0x87654321, 0x11111111, 0, 20, 0);
	wr(h, E1_DP_CMD_PARAM, 0);
	/* Back to two's complement: 0x49 = [1, -2, 0, 1], 0x5a = [-2, -2, 1, 1]:
	 * -2 + 4 + 0 + 1 = 3.
	 */
	expect(h, E1_DP_OP_DOT16_S2, 0x49, 0x5a, 0, 3, 0);
}

static void test_dot16_ternary_reserved(void **state)
{
	struct dp_host *h = *state;

	wr(h, E1_DP_CMD_PARAM, E1_DP_CMD_TERNARY);
	/* 0b11 in lane 0 of A. */
	expect_fail(h, E1_DP_OP_DOT16_S2, 0x3, 0x1, 0);
	/* 0b11 in lane 15 of B. */
	expect_fail(h, E1_DP_OP_DOT16_S2, 0x1, 0xc0000000, 0);
	/* Lanes with a zero partner still fail closed. */
	expect_fail(h, E1_DP_OP_DOT16_S2, 0x0, 0xffffffff, 0);
	wr(h, E1_DP_CMD_PARAM, 0);
	/* Two's complement accepts 0b11 (= -1): 1 * -1 = -1. */
	expect(h, E1_DP_OP_DOT16_S2, 0x1, 0x3, 0, 0xffffffff, 0xffffffff);
}

static void test_fp8(void **state)
{
	struct dp_host *h = *state;

	/*
	 * E4M3 bytes (sign, exp bias 7, 3 mantissa bits), Q8.8 = value * 256:
	 * 0x38 = +1.0 (256), 0x40 = +2.0 (512), 0x44 = 1.5 * 2 = 3.0 (768),
	 * 0xb8 = -1.0 (-256), 0x7e = 1.75 * 2^8 = 448.0 (114688), 0 = 0.
	 * A = [1.0, 2.0, -1.0, 0] = 0x00b84038
	 * B = [2.0, 3.0, 1.0, 448] = 0x7e384440
	 * 2 + 6 - 1 + 0 = 7.0 = 1792; ACC 0.5 (128) -> 1920.
	 */
	expect(h, E1_DP_OP_DOT4_FP8_E4M3, 0x00b84038, 0x7e384440, 128, 1920, 0);
	/* 4 * 448 * 448 = 802816.0 = 205520896 = 0x0c400000 in Q8.8. */
	expect(h, E1_DP_OP_DOT4_FP8_E4M3, 0x7e7e7e7e, 0x7e7e7e7e, 0, 0x0c400000, 0);
	/* -448 * 448 * 4 = -205520896 = 0xf3c00000. */
	expect(h, E1_DP_OP_DOT4_FP8_E4M3, 0xfefefefe, 0x7e7e7e7e, 0, 0xf3c00000, 0xffffffff);
	/*
	 * Subnormals and e = 1 with truncation:
	 * 0x07 = 7/8 * 2^-6 = 0.013671875 -> * 256 = 3.5 -> 3
	 * 0x08 = 2^-6 -> 4;  0x0f = 1.875 * 2^-6 -> 7.5 -> 7;  0x01 -> 0.5 -> 0.
	 * (3 * 4) >> 8 = 0;  (0x38: 256) * 3 >> 8 = 3;  256 * 7 >> 8 = 7;
	 * 0x01 * 1.0: 0 * 256 = 0.  A = [0x07, 0x07, 0x0f, 0x01] = 0x010f0707,
	 * B = [0x08, 0x38, 0x38, 0x38] = 0x38383808 -> 0 + 3 + 7 + 0 = 10.
	 */
	expect(h, E1_DP_OP_DOT4_FP8_E4M3, 0x010f0707, 0x38383808, 0, 10, 0);
	/*
	 * Products floor: 0x87 = -3, 0x08 = 4: -12 / 256 = -0.047 -> floor -1.
	 * The same magnitudes positive give 0.
	 */
	expect(h, E1_DP_OP_DOT4_FP8_E4M3, 0x87, 0x08, 0, 0xffffffff, 0xffffffff);
	expect(h, E1_DP_OP_DOT4_FP8_E4M3, 0x07, 0x08, 0, 0, 0);
	/* -3 * -4 = 12 -> 0. */
	expect(h, E1_DP_OP_DOT4_FP8_E4M3, 0x87, 0x88, 0, 0, 0);
	/* 0x78 = 256.0 (e = 15, m = 0, not NaN) * 1.0 = 65536; 0x80 = -0 -> 0. */
	expect(h, E1_DP_OP_DOT4_FP8_E4M3, 0x78, 0x38, 0, 65536, 0);
	expect(h, E1_DP_OP_DOT4_FP8_E4M3, 0x80, 0x38, 0, 0, 0);
	/* 1.125 (0x39: 288) * 1.125 = 1.265625 -> (288 * 288) >> 8 = 324. */
	expect(h, E1_DP_OP_DOT4_FP8_E4M3, 0x39, 0x39, 0, 324, 0);
}

static void test_fp8_nan(void **state)
{
	struct dp_host *h = *state;
	unsigned int i;

	for (i = 0; i < 4; i++) {
		/* +NaN 0x7f and -NaN 0xff in lane i of A, then of B. */
		u32 pos = (0x38383838 & ~(0xffU << 8 * i)) | 0x7fU << 8 * i;
		u32 neg = (0x38383838 & ~(0xffU << 8 * i)) | 0xffU << 8 * i;

		expect_fail(h, E1_DP_OP_DOT4_FP8_E4M3, pos, 0x38383838, 0);
		expect_fail(h, E1_DP_OP_DOT4_FP8_E4M3, 0x38383838, neg, 0);
	}
	/* NaN against a zero lane still fails. */
	expect_fail(h, E1_DP_OP_DOT4_FP8_E4M3, 0x7f, 0, 0);
}

static void test_exp2(void **state)
{
	struct dp_host *h = *state;

	/* 2^0 = 1.0 = 256 in Q0.8. */
	expect(h, E1_DP_OP_EXP2_NEG_Q0_8, 0, 0, 0, 256, 0);
	/* delta -1 (0xff): 128;  -3: 32;  -8: 1;  -9: 0;  -128 (0x80): 0. */
	expect(h, E1_DP_OP_EXP2_NEG_Q0_8, 0xff, 0, 0, 128, 0);
	expect(h, E1_DP_OP_EXP2_NEG_Q0_8, 0xfd, 0, 0, 32, 0);
	expect(h, E1_DP_OP_EXP2_NEG_Q0_8, 0xf8, 0, 0, 1, 0);
	expect(h, E1_DP_OP_EXP2_NEG_Q0_8, 0xf7, 0, 0, 0, 0);
	expect(h, E1_DP_OP_EXP2_NEG_Q0_8, 0x80, 0, 0, 0, 0);
	/* Only OP_A[7:0] is the delta: 0xffffff00 is delta 0. */
	expect(h, E1_DP_OP_EXP2_NEG_Q0_8, 0xffffff00, 0x1234, 0x5678, 256, 0);
	/* delta > 0 fails closed: 1, 127. */
	expect_fail(h, E1_DP_OP_EXP2_NEG_Q0_8, 1, 0, 0);
	expect_fail(h, E1_DP_OP_EXP2_NEG_Q0_8, 0x7f, 0, 0);
	expect_fail(h, E1_DP_OP_EXP2_NEG_Q0_8, 0xffffff01, 0, 0);
}

/* ------------------------------------------------------------------ */
/* Randomized sweeps against the naive references                      */
/* ------------------------------------------------------------------ */

#define SWEEP 4000

static void test_sweep_int(void **state)
{
	struct dp_host *h = *state;
	u32 seed = 0x12345678;
	unsigned int n;

	for (n = 0; n < SWEEP; n++) {
		u32 a = rnd(&seed), b = rnd(&seed), acc = rnd(&seed), r;
		uint64_t p = (uint64_t)a * b;
		int64_t mac = (int64_t)(int16_t)(a & 0xffff) * (int16_t)(b & 0xffff) +
			      (int32_t)acc;

		expect(h, E1_DP_OP_ADD, a, b, acc, (u32)((uint64_t)a + b), 0);
		expect(h, E1_DP_OP_SUB, a, b, acc, (u32)((uint64_t)a - b), 0);
		expect(h, E1_DP_OP_MUL_LO, a, b, acc, (u32)p, (u32)(p >> 32));
		expect(h, E1_DP_OP_MAX_U32, a, b, acc, a > b ? a : b, 0);
		expect(h, E1_DP_OP_MIN_U32, a, b, acc, a > b ? b : a, 0);
		r = (u32)(uint64_t)mac;
		expect(h, E1_DP_OP_MAC_S16, a, b, acc, r, sext_hi(r));
		r = ref_dot(a, b, acc, 8);
		expect(h, E1_DP_OP_DOT4_S8, a, b, acc, r, sext_hi(r));
		r = ref_dot(a, b, acc, 4);
		expect(h, E1_DP_OP_DOT8_S4, a, b, acc, r, sext_hi(r));
		r = ref_dot(a, b, acc, 2);
		expect(h, E1_DP_OP_DOT16_S2, a, b, acc, r, sext_hi(r));
		r = 0;
		for (unsigned int i = 0; i < 4; i++)
			if (lane(a, 8, i) > 0)
				r |= (a >> (8 * i) & 0xff) << (8 * i);
		expect(h, E1_DP_OP_RELU4_S8, a, b, acc, r, 0);
	}
}

static void test_sweep_ternary(void **state)
{
	struct dp_host *h = *state;
	static const int tern[4] = { 0, 1, -1, 99 };
	u32 seed = 0xcafef00d;
	unsigned int n, i, bad = 0;

	wr(h, E1_DP_CMD_PARAM, E1_DP_CMD_TERNARY);
	for (n = 0; n < SWEEP; n++) {
		u32 a = rnd(&seed), b = rnd(&seed), acc = rnd(&seed);
		int64_t s = (int32_t)acc;
		bool ok = true;

		/* Mostly valid operands: clear the high bit of 0b11 lanes. */
		if (n % 4) {
			for (i = 0; i < 16; i++) {
				if ((a >> 2 * i & 3) == 3)
					a &= ~(2U << 2 * i);
				if ((b >> 2 * i & 3) == 3)
					b &= ~(1U << 2 * i);
			}
		}
		for (i = 0; i < 16; i++) {
			int x = tern[a >> 2 * i & 3], y = tern[b >> 2 * i & 3];

			if (x == 99 || y == 99)
				ok = false;
			s += x * y;
		}
		if (ok) {
			expect(h, E1_DP_OP_DOT16_S2, a, b, acc, (u32)(uint64_t)s,
			       sext_hi((u32)(uint64_t)s));
		} else {
			expect_fail(h, E1_DP_OP_DOT16_S2, a, b, acc);
			bad++;
		}
	}
	assert_true(bad > 0 && bad < SWEEP);
}

static void test_sweep_sdot4(void **state)
{
	struct dp_host *h = *state;
	u32 seed = 0x0badc0de;
	unsigned int n, i, bad = 0;

	for (n = 0; n < SWEEP; n++) {
		u32 a = rnd(&seed) & 0xffff, b = rnd(&seed), acc = rnd(&seed) & 0xff;
		unsigned int p[4];
		int64_t s = 0;

		if (n % 8 == 1)
			a |= rnd(&seed) << 16 | 0x10000;
		if (n % 8 == 2)
			acc |= rnd(&seed) << 8 | 0x100;
		for (i = 0; i < 4; i++)
			p[i] = acc >> 2 * i & 3;
		if (a > 0xffff || acc > 0xff || p[0] == p[1] || p[2] == p[3]) {
			expect_fail(h, E1_DP_OP_SDOT4_S4_2_4, a, b, acc);
			bad++;
			continue;
		}
		s = lane(a, 4, 0) * lane(b, 4, p[0]) + lane(a, 4, 1) * lane(b, 4, p[1]) +
		    lane(a, 4, 2) * lane(b, 4, 4 + p[2]) + lane(a, 4, 3) * lane(b, 4, 4 + p[3]);
		expect(h, E1_DP_OP_SDOT4_S4_2_4, a, b, acc, (u32)(uint64_t)s,
		       sext_hi((u32)(uint64_t)s));
	}
	assert_true(bad > 0 && bad < SWEEP);
}

static void test_sweep_fp8(void **state)
{
	struct dp_host *h = *state;
	u32 seed = 0xfeedbeef;
	unsigned int n, bad = 0;

	for (n = 0; n < SWEEP; n++) {
		u32 a = rnd(&seed), b = rnd(&seed), acc = rnd(&seed) >> (n % 24), r;

		if (ref_fp8_dot(a, b, acc, &r)) {
			expect(h, E1_DP_OP_DOT4_FP8_E4M3, a, b, acc, r, sext_hi(r));
		} else {
			expect_fail(h, E1_DP_OP_DOT4_FP8_E4M3, a, b, acc);
			bad++;
		}
	}
	assert_true(bad > 0 && bad < SWEEP / 4);
}

static void test_sweep_exp2(void **state)
{
	struct dp_host *h = *state;
	unsigned int v;

	for (v = 0; v < 256; v++) {
		int delta = v < 128 ? (int)v : (int)v - 256;
		u32 q = 256;
		int i;

		if (delta > 0) {
			expect_fail(h, E1_DP_OP_EXP2_NEG_Q0_8, 0xabcd0000 | v, 0, 0);
			continue;
		}
		for (i = 0; i < -delta; i++)
			q /= 2;
		expect(h, E1_DP_OP_EXP2_NEG_Q0_8, 0xabcd0000 | v, 0, 0, q, 0);
	}
}

/* ------------------------------------------------------------------ */
/* Perf counters of scalar work                                         */
/* ------------------------------------------------------------------ */

static void test_perf_scalar(void **state)
{
	struct dp_host *h = *state;
	static const struct {
		u32 op;
		u32 macs;
	} ops[] = {
		/* "signed INT8 MAC operations issued": DOT4_S8 only. */
		{ E1_DP_OP_ADD, 0 }, { E1_DP_OP_SUB, 0 }, { E1_DP_OP_MUL_LO, 0 },
		{ E1_DP_OP_MAC_S16, 0 }, { E1_DP_OP_DOT4_S8, 4 }, { E1_DP_OP_MAX_U32, 0 },
		{ E1_DP_OP_MIN_U32, 0 }, { E1_DP_OP_DOT8_S4, 0 }, { E1_DP_OP_RELU4_S8, 0 },
		{ E1_DP_OP_DOT16_S2, 0 }, { E1_DP_OP_DOT4_FP8_E4M3, 0 },
		{ E1_DP_OP_EXP2_NEG_Q0_8, 0 },
	};
	struct perf p;
	unsigned int i;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		u32 macs0 = rd(h, E1_DP_PERF_MACS);

		assert_int_equal(dp_cmd(h, ops[i].op, 0, 0, 0), ST_DONE);
		assert_int_equal(rd(h, E1_DP_PERF_MACS) - macs0, ops[i].macs);
	}
	/* SDOT4 with valid metadata (p0 = 0, p1 = 1, p2 = 0, p3 = 1: 0x44). */
	assert_int_equal(dp_cmd(h, E1_DP_OP_SDOT4_S4_2_4, 0, 0, 0x44), ST_DONE);
	perf_read(h, &p);
	/* 13 ops; MACs: DOT4_S8's 4 (SDOT4 is INT4); one cycle each. */
	assert_int_equal(p.ops, 13);
	assert_int_equal(p.macs, 4);
	assert_int_equal(p.cycles, 13);
	assert_int_equal(p.errors, 0);
	assert_int_equal(p.unsupported, 0);
	/* Nothing touched memory. */
	assert_int_equal(p.desc_cycles | p.bytes_rd | p.bytes_wr | p.beats_rd | p.beats_wr |
			 p.stall | p.scratch, 0);
	assert_int_equal(h->maps, 0);

	/* A rejected command: one decode cycle, an error, an unsupported op. */
	assert_int_equal(dp_cmd(h, E1_DP_OP_EXP2_NEG_Q0_8, 5, 0, 0), ST_ERR);
	perf_read(h, &p);
	assert_int_equal(p.ops, 13);
	assert_int_equal(p.macs, 4);
	assert_int_equal(p.cycles, 14);
	assert_int_equal(p.errors, 1);
	assert_int_equal(p.unsupported, 1);

	/* Thermal: every write increments, whatever the value. */
	wr(h, E1_DP_PERF_THERMAL_THROTTLE, 0);
	wr(h, E1_DP_PERF_THERMAL_THROTTLE, 0xffffffff);
	wr(h, E1_DP_PERF_THERMAL_THROTTLE, 1);
	assert_int_equal(rd(h, E1_DP_PERF_THERMAL_THROTTLE), 3);

	/* PERF_ERRORS write without bit 0 changes nothing. */
	wr(h, E1_DP_PERF_ERRORS, 0xfffffffe);
	perf_read(h, &p);
	assert_int_equal(p.errors, 1);
	assert_int_equal(p.ops, 13);

	/* Bit 0 clears every perf counter, and nothing else. */
	wr(h, E1_DP_PERF_ERRORS, 1);
	perf_read(h, &p);
	assert_int_equal(p.unsupported | p.cycles | p.macs | p.ops | p.errors | p.desc_cycles |
			 p.bytes_rd | p.bytes_wr | p.beats_rd | p.beats_wr | p.stall | p.scratch |
			 p.thermal, 0);
	assert_int_equal(rd(h, E1_DP_CTRL_STATUS), ST_ERR);
	assert_int_equal(rd(h, E1_DP_OPCODE), E1_DP_OP_EXP2_NEG_Q0_8);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_reset_values, dp_setup, dp_teardown),
		cmocka_unit_test_setup_teardown(test_rw_registers, dp_setup, dp_teardown),
		cmocka_unit_test_setup_teardown(test_scratch_rw, dp_setup, dp_teardown),
		cmocka_unit_test_setup_teardown(test_ro_and_reserved, dp_setup, dp_teardown),
		cmocka_unit_test_setup_teardown(test_ctrl_status_and_irq, dp_setup, dp_teardown),
		cmocka_unit_test_setup_teardown(test_add_sub, dp_setup, dp_teardown),
		cmocka_unit_test_setup_teardown(test_mul_lo, dp_setup, dp_teardown),
		cmocka_unit_test_setup_teardown(test_mac_s16, dp_setup, dp_teardown),
		cmocka_unit_test_setup_teardown(test_dot4_s8, dp_setup, dp_teardown),
		cmocka_unit_test_setup_teardown(test_max_min, dp_setup, dp_teardown),
		cmocka_unit_test_setup_teardown(test_dot8_s4, dp_setup, dp_teardown),
		cmocka_unit_test_setup_teardown(test_relu4_s8, dp_setup, dp_teardown),
		cmocka_unit_test_setup_teardown(test_sdot4, dp_setup, dp_teardown),
		cmocka_unit_test_setup_teardown(test_sdot4_fail_closed, dp_setup, dp_teardown),
		cmocka_unit_test_setup_teardown(test_dot16_s2, dp_setup, dp_teardown),
		cmocka_unit_test_setup_teardown(test_dot16_ternary_reserved, dp_setup, dp_teardown),
		cmocka_unit_test_setup_teardown(test_fp8, dp_setup, dp_teardown),
		cmocka_unit_test_setup_teardown(test_fp8_nan, dp_setup, dp_teardown),
		cmocka_unit_test_setup_teardown(test_exp2, dp_setup, dp_teardown),
		cmocka_unit_test_setup_teardown(test_sweep_int, dp_setup, dp_teardown),
		cmocka_unit_test_setup_teardown(test_sweep_ternary, dp_setup, dp_teardown),
		cmocka_unit_test_setup_teardown(test_sweep_sdot4, dp_setup, dp_teardown),
		cmocka_unit_test_setup_teardown(test_sweep_fp8, dp_setup, dp_teardown),
		cmocka_unit_test_setup_teardown(test_sweep_exp2, dp_setup, dp_teardown),
		cmocka_unit_test_setup_teardown(test_perf_scalar, dp_setup, dp_teardown),
	};

	return cmocka_run_group_tests_name("datapath-scalar", tests, NULL, NULL);
}
