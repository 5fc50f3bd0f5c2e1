// SPDX-License-Identifier: (GPL-2.0-only OR MIT)
/*
 * e1 NPU device model: the datapath engine, the e1_npu.sv small-op block.
 *
 * Sixteen opcodes (scalar, packed-lane, FP8, EXP2, scratchpad GEMM and
 * VRELU), the 64-byte scratchpad, the 8-slot descriptor mode and the perf
 * counters, exactly as Documentation/hardware-contract.md section 3 says.
 * Every command, direct or descriptor, runs to completion inside the MMIO
 * write of CTRL_STATUS.start. Decisions the contract leaves open are listed
 * in Documentation/device-model.md, "Datapath".
 *
 * Its only surroundings are its bus (e1_bus.h): memory for the descriptor
 * engine, the interrupt update after a start, the timing parameters.
 * Freestanding: integer arithmetic only, no allocation, small frames.
 */
#include "e1_dp.h"

/* Implemented bits of the RW configuration registers; the rest read 0. */
#define DP_GEMM_CFG_BITS	(E1_DP_GEMM_CFG_M | E1_DP_GEMM_CFG_N | E1_DP_GEMM_CFG_K | \
				 E1_DP_VRELU_LEN)
#define DP_GEMM_BASE_BITS	(E1_DP_GEMM_BASE_A | E1_DP_GEMM_BASE_B | E1_DP_GEMM_BASE_C | \
				 E1_DP_VRELU_SRC | E1_DP_VRELU_DST)
#define DP_GEMM_STRIDE_BITS	(E1_DP_GEMM_STRIDE_A | E1_DP_GEMM_STRIDE_B | E1_DP_GEMM_STRIDE_C)
#define DP_CMD_PARAM_BITS	(E1_DP_CMD_DESC_MODE | E1_DP_CMD_TERNARY)

/* Cost of a command the datapath rejects: one decode cycle. */
#define DP_REJECT_CYCLES	1
/* One AXI-Lite data beat moves one 32-bit word. */
#define DP_BEAT_BYTES		4

/* FP8 E4M3 lane: sign [7], exponent [6:3] (bias 7), mantissa [2:0]. */
#define FP8_SIGN		0x80U
#define FP8_EXP_SHIFT		3
#define FP8_EXP_MASK		0xfU
#define FP8_MANT_MASK		0x7U

/* What a start latched: the registers a command (or a batch) uses. */
struct dp_launch {
	u32 cfg;
	u32 base;
	u32 stride;
	bool ternary;
	bool desc;	/* running under the descriptor engine */
};

/* One command's opcode and operands. */
struct dp_cmd {
	u32 opcode;
	u32 a;
	u32 b;
	u32 acc;
};

/* Sign-extend the low @bits (1..16) of @v. */
static s32 dp_sext(u32 v, unsigned int bits)
{
	u32 sign = 1U << (bits - 1);

	v &= (sign << 1) - 1;
	return (s32)(v ^ sign) - (s32)sign;
}

static u32 dp_get_le32(const u8 *p)
{
	return (u32)p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 | (u32)p[3] << 24;
}

static void dp_put_le32(u8 *p, u32 v)
{
	p[0] = (u8)v;
	p[1] = (u8)(v >> 8);
	p[2] = (u8)(v >> 16);
	p[3] = (u8)(v >> 24);
}

static void dp_tick(struct e1_dp *dp, const struct dp_launch *l, u32 cycles)
{
	dp->perf.cycles += cycles;
	dp->cycles += cycles;
	if (l->desc)
		dp->perf.desc_timeout_count += cycles;
}

/*
 * FP8 E4M3 to signed Q8.8 (contract 3.4). Returns false for NaN. Normal:
 * (8 + m) << (e - 2), or >> 1 for e == 1; subnormal: m >> 1; the magnitude
 * is truncated, then the sign applied.
 */
static bool dp_fp8_to_q88(u32 lane, s32 *q)
{
	u32 e = (lane >> FP8_EXP_SHIFT) & FP8_EXP_MASK;
	u32 mant = lane & FP8_MANT_MASK;
	u32 mag;

	if (e == FP8_EXP_MASK && mant == FP8_MANT_MASK)
		return false;
	if (e == 0)
		mag = mant >> 1;
	else if (e == 1)
		mag = (8 + mant) >> 1;
	else
		mag = (8 + mant) << (e - 2);
	*q = (lane & FP8_SIGN) ? -(s32)mag : (s32)mag;
	return true;
}

/* floor(p / 256): no right shift of a negative value, no 64-bit division. */
static s64 dp_floor_q8(s64 p)
{
	if (p >= 0)
		return (s64)((u64)p >> 8);
	return -(s64)(((u64)-p + 255) >> 8);
}

/* DOT16_S2 lane decode; false for the reserved ternary encoding 0b11. */
static bool dp_s2_lane(u32 bits, bool ternary, s32 *v)
{
	if (!ternary) {
		*v = dp_sext(bits, 2);
		return true;
	}
	switch (bits) {
	case 0:
		*v = 0;
		return true;
	case 1:
		*v = 1;
		return true;
	case 2:
		*v = -1;
		return true;
	default:
		return false;
	}
}

/*
 * Scalar opcodes. Returns false when the command fails closed; RESULT is
 * then not written. @hi: MUL_LO's high word, the sign extension of the
 * signed-sum opcodes, 0 for the rest. @macs: PERF_MACS counts "signed INT8
 * MAC operations issued", so only DOT4_S8's four lanes count here.
 */
static bool dp_scalar(const struct dp_launch *l, const struct dp_cmd *c,
		      u32 *res, u32 *hi, u32 *macs)
{
	u32 sum = c->acc;
	unsigned int i;
	s32 x, y;

	*hi = 0;
	*macs = 0;
	switch (c->opcode) {
	case E1_DP_OP_ADD:
		*res = c->a + c->b;
		return true;
	case E1_DP_OP_SUB:
		*res = c->a - c->b;
		return true;
	case E1_DP_OP_MUL_LO: {
		u64 p = (u64)c->a * c->b;

		*res = (u32)p;
		*hi = (u32)(p >> 32);
		return true;
	}
	case E1_DP_OP_MAX_U32:
		*res = c->a > c->b ? c->a : c->b;
		return true;
	case E1_DP_OP_MIN_U32:
		*res = c->a < c->b ? c->a : c->b;
		return true;
	case E1_DP_OP_RELU4_S8:
		*res = 0;
		for (i = 0; i < 4; i++) {
			u32 lane = (c->a >> (8 * i)) & 0xffU;

			if (!(lane & 0x80U))
				*res |= lane << (8 * i);
		}
		return true;
	case E1_DP_OP_EXP2_NEG_Q0_8: {
		s32 delta = dp_sext(c->a, 8);

		if (delta > 0)
			return false;
		*res = -delta > 8 ? 0 : 256U >> -delta;
		return true;
	}
	case E1_DP_OP_MAC_S16:
		sum += (u32)(dp_sext(c->a, 16) * dp_sext(c->b, 16));
		break;
	case E1_DP_OP_DOT4_S8:
		for (i = 0; i < 4; i++)
			sum += (u32)(dp_sext(c->a >> (8 * i), 8) * dp_sext(c->b >> (8 * i), 8));
		*macs = 4;
		break;
	case E1_DP_OP_DOT8_S4:
		for (i = 0; i < 8; i++)
			sum += (u32)(dp_sext(c->a >> (4 * i), 4) * dp_sext(c->b >> (4 * i), 4));
		break;
	case E1_DP_OP_DOT16_S2:
		for (i = 0; i < 16; i++) {
			if (!dp_s2_lane((c->a >> (2 * i)) & 3U, l->ternary, &x) ||
			    !dp_s2_lane((c->b >> (2 * i)) & 3U, l->ternary, &y))
				return false;
			sum += (u32)(x * y);
		}
		break;
	case E1_DP_OP_SDOT4_S4_2_4: {
		u32 p[4];

		if (c->a >> 16 || c->acc >> 8)
			return false;
		for (i = 0; i < 4; i++)
			p[i] = (c->acc >> (2 * i)) & 3U;
		if (p[0] == p[1] || p[2] == p[3])
			return false;
		/* ACC is metadata here, not an addend. */
		sum = 0;
		for (i = 0; i < 4; i++) {
			u32 lane = (i < 2 ? 0 : 4) + p[i];

			sum += (u32)(dp_sext(c->a >> (4 * i), 4) * dp_sext(c->b >> (4 * lane), 4));
		}
		break;
	}
	case E1_DP_OP_DOT4_FP8_E4M3: {
		s32 qa[4], qb[4];

		for (i = 0; i < 4; i++)
			if (!dp_fp8_to_q88((c->a >> (8 * i)) & 0xffU, &qa[i]) ||
			    !dp_fp8_to_q88((c->b >> (8 * i)) & 0xffU, &qb[i]))
				return false;
		for (i = 0; i < 4; i++)
			sum += (u32)dp_floor_q8((s64)qa[i] * qb[i]);
		break;
	}
	default:
		return false;	/* GEMM and VRELU are not scalar */
	}
	/* Signed sums: RESULT_HI is the sign extension. */
	*res = sum;
	if (sum & 0x80000000U)
		*hi = 0xffffffffU;
	return true;
}

/* Element @n of a GEMM operand: a byte, or a nibble (low first) for INT4. */
static s32 dp_gemm_elem(const struct e1_dp *dp, u32 n, bool s4)
{
	if (!s4)
		return dp_sext(dp->scratch[n], 8);
	return dp_sext(dp->scratch[n / 2] >> (n & 1 ? 4 : 0), 4);
}

/* GEMM_S8 / GEMM_S4 on the scratchpad (contract 3.6). */
static bool dp_gemm(struct e1_dp *dp, const struct dp_launch *l, bool s4, u32 *macs)
{
	u32 mm = E1_FIELD_GET(E1_DP_GEMM_CFG_M, l->cfg);
	u32 nn = E1_FIELD_GET(E1_DP_GEMM_CFG_N, l->cfg);
	u32 kk = E1_FIELD_GET(E1_DP_GEMM_CFG_K, l->cfg);
	u32 ab = E1_FIELD_GET(E1_DP_GEMM_BASE_A, l->base);
	u32 bb = E1_FIELD_GET(E1_DP_GEMM_BASE_B, l->base);
	u32 cb = E1_FIELD_GET(E1_DP_GEMM_BASE_C, l->base);
	u32 as = E1_FIELD_GET(E1_DP_GEMM_STRIDE_A, l->stride);
	u32 bs = E1_FIELD_GET(E1_DP_GEMM_STRIDE_B, l->stride);
	u32 cs = E1_FIELD_GET(E1_DP_GEMM_STRIDE_C, l->stride);
	/* Elements the scratchpad holds: bytes, or nibbles for INT4. */
	u32 cap = s4 ? 2 * E1_DP_SCRATCH_BYTES : E1_DP_SCRATCH_BYTES;
	s32 c[E1_DP_GEMM_MAX_M][E1_DP_GEMM_MAX_N];
	u32 i, j, k;

	if (!mm || !nn || !kk || mm > E1_DP_GEMM_MAX_M || nn > E1_DP_GEMM_MAX_N ||
	    kk > E1_DP_GEMM_MAX_K)
		return false;
	/* Last element of A (row mm-1, col kk-1), of B (row kk-1, col nn-1). */
	if (ab + (mm - 1) * as + (kk - 1) >= cap)
		return false;
	if (bb + (kk - 1) * bs + (nn - 1) >= cap)
		return false;
	if (cb % 4 || cs % 4 || cb + (mm - 1) * cs + 4 * nn > E1_DP_SCRATCH_BYTES)
		return false;

	/* All inputs are read before any output is written. */
	for (i = 0; i < mm; i++) {
		for (j = 0; j < nn; j++) {
			u32 acc = 0;

			for (k = 0; k < kk; k++)
				acc += (u32)(dp_gemm_elem(dp, ab + i * as + k, s4) *
					     dp_gemm_elem(dp, bb + k * bs + j, s4));
			c[i][j] = (s32)acc;
		}
	}
	for (i = 0; i < mm; i++)
		for (j = 0; j < nn; j++)
			dp_put_le32(&dp->scratch[cb + i * cs + 4 * j], (u32)c[i][j]);

	/* Signed INT8 MACs only: GEMM_S4's INT4 MACs are not counted. */
	*macs = s4 ? 0 : mm * nn * kk;
	if (s4)
		dp->perf.scratch_bytes += (mm * kk + 1) / 2 + (kk * nn + 1) / 2;
	else
		dp->perf.scratch_bytes += mm * kk + kk * nn;
	dp->perf.scratch_bytes += 4 * mm * nn;
	dp_tick(dp, l, mm * nn * kk);
	return true;
}

/* VRELU_S8 on the scratchpad: LEN 0 means 64; overlaps see old values. */
static bool dp_vrelu(struct e1_dp *dp, const struct dp_launch *l)
{
	u32 len = E1_FIELD_GET(E1_DP_VRELU_LEN, l->cfg);
	u32 src = E1_FIELD_GET(E1_DP_VRELU_SRC, l->base);
	u32 dst = E1_FIELD_GET(E1_DP_VRELU_DST, l->base);
	u8 tmp[E1_DP_SCRATCH_BYTES];
	u32 i;

	if (!len)
		len = E1_DP_SCRATCH_BYTES;
	if (src + len > E1_DP_SCRATCH_BYTES || dst + len > E1_DP_SCRATCH_BYTES)
		return false;
	memcpy(tmp, &dp->scratch[src], len);
	for (i = 0; i < len; i++)
		dp->scratch[dst + i] = (tmp[i] & 0x80U) ? 0 : tmp[i];
	dp->perf.scratch_bytes += 2 * len;
	dp_tick(dp, l, len);
	return true;
}

/*
 * Execute one command with the launch's configuration. Accepted: counts the
 * op, its MACs and cycles. Rejected (fails closed): counts
 * PERF_UNSUPPORTED_OPS and one decode cycle, changes nothing else; the
 * caller raises the error and counts PERF_ERRORS.
 */
static bool dp_exec(struct e1_dp *dp, const struct dp_launch *l, const struct dp_cmd *c)
{
	u32 res = 0, hi = 0, macs = 0;
	bool ok;

	switch (c->opcode) {
	case E1_DP_OP_GEMM_S8:
	case E1_DP_OP_GEMM_S4:
		ok = dp_gemm(dp, l, c->opcode == E1_DP_OP_GEMM_S4, &macs);
		break;
	case E1_DP_OP_VRELU_S8:
		ok = dp_vrelu(dp, l);
		break;
	default:
		ok = dp_scalar(l, c, &res, &hi, &macs);
		if (ok) {
			dp->result = res;
			dp->result_hi = hi;
			dp_tick(dp, l, 1);
		}
		break;
	}
	if (!ok) {
		dp->perf.unsupported_ops++;
		dp_tick(dp, l, DP_REJECT_CYCLES);
		return false;
	}
	dp->perf.ops++;
	dp->perf.macs += macs;
	return true;
}

/*
 * One 32-bit beat of the descriptor engine's AXI-Lite master. Waits
 * dp_mem_latency cycles for the response (dp_timeout when none comes), then
 * one cycle to move the data if the response is OKAY.
 */
static enum e1_mem_status dp_beat(struct e1_dp *dp, const struct dp_launch *l,
				  u64 addr, bool write, u8 *buf)
{
	const struct e1_timing *t = dp->bus->timing;
	enum e1_mem_status st;
	void *p = NULL;
	u64 fault;
	u32 wait;

	st = e1_bus_map(dp->bus, addr, DP_BEAT_BYTES, write, &p, &fault);
	wait = st == E1_MEM_NORESP ? t->dp_timeout : t->dp_mem_latency;
	dp->perf.stall_cycles += wait;
	dp_tick(dp, l, wait);
	if (st != E1_MEM_OK)
		return st;
	if (!p)
		return E1_MEM_ERROR;
	dp_tick(dp, l, 1);
	if (write) {
		memcpy(p, buf, DP_BEAT_BYTES);
		dp->perf.desc_bytes_written += DP_BEAT_BYTES;
		dp->perf.desc_write_beats++;
	} else {
		memcpy(buf, p, DP_BEAT_BYTES);
		dp->perf.desc_bytes_read += DP_BEAT_BYTES;
		dp->perf.desc_read_beats++;
	}
	return E1_MEM_OK;
}

static bool dp_is_gemm(u32 op)
{
	return op == E1_DP_OP_GEMM_S8 || op == E1_DP_OP_GEMM_S4;
}

/* Stream word-1 bytes into the scratchpad; all or nothing. 0 or a DS bit. */
static u32 dp_stream(struct e1_dp *dp, const struct dp_launch *l, u32 w0, u32 src)
{
	u32 off = E1_FIELD_GET(E1_DP_DW0_SCRATCH_OFF, w0);
	u32 count = E1_FIELD_GET(E1_DP_DW0_BYTE_COUNT, w0);
	u8 stage[E1_DP_SCRATCH_BYTES];
	enum e1_mem_status st;
	u32 i;

	for (i = 0; i < count; i += DP_BEAT_BYTES) {
		st = dp_beat(dp, l, (u64)src + i, false, &stage[i]);
		if (st == E1_MEM_NORESP)
			return E1_DP_DS_TIMEOUT;
		if (st != E1_MEM_OK)
			return E1_DP_DS_STREAM_ERR;
	}
	memcpy(&dp->scratch[off], stage, count);
	dp->perf.scratch_bytes += count;
	return 0;
}

/* Write the M x N int32 tile at C_BASE, row-compacted, to @dst. */
static u32 dp_writeback(struct e1_dp *dp, const struct dp_launch *l, u32 dst)
{
	u32 mm = E1_FIELD_GET(E1_DP_GEMM_CFG_M, l->cfg);
	u32 nn = E1_FIELD_GET(E1_DP_GEMM_CFG_N, l->cfg);
	u32 cb = E1_FIELD_GET(E1_DP_GEMM_BASE_C, l->base);
	u32 cs = E1_FIELD_GET(E1_DP_GEMM_STRIDE_C, l->stride);
	enum e1_mem_status st;
	u32 i, j;

	for (i = 0; i < mm; i++) {
		for (j = 0; j < nn; j++) {
			u64 addr = (u64)dst + 4 * (i * nn + j);

			st = dp_beat(dp, l, addr, true, &dp->scratch[cb + i * cs + 4 * j]);
			if (st == E1_MEM_NORESP)
				return E1_DP_DS_TIMEOUT;
			if (st != E1_MEM_OK)
				return E1_DP_DS_BAD_WRITEBACK;
			dp->perf.scratch_bytes += DP_BEAT_BYTES;
		}
	}
	return 0;
}

/* Fetch, check, stream, execute and write back the descriptor in @slot. */
static u32 dp_run_desc(struct e1_dp *dp, const struct dp_launch *l, u32 slot)
{
	u64 addr = (u64)dp->desc_base + (u64)slot * E1_DP_DESC_SIZE;
	u8 raw[E1_DP_DESC_SIZE];
	enum e1_mem_status st;
	struct dp_cmd c;
	u32 w[E1_DP_DESC_WORDS];
	u32 i, fail, op, off, count;

	for (i = 0; i < E1_DP_DESC_WORDS; i++) {
		st = dp_beat(dp, l, addr + 4 * i, false, &raw[4 * i]);
		if (st == E1_MEM_NORESP)
			return E1_DP_DS_TIMEOUT;
		if (st != E1_MEM_OK)
			return E1_DP_DS_FETCH_ERR;
		w[i] = dp_get_le32(&raw[4 * i]);
	}
	if (!(w[0] & E1_DP_DW0_OWNER))
		return E1_DP_DS_NO_OWNER;

	op = E1_FIELD_GET(E1_DP_DW0_OPCODE, w[0]);
	off = E1_FIELD_GET(E1_DP_DW0_SCRATCH_OFF, w[0]);
	count = E1_FIELD_GET(E1_DP_DW0_BYTE_COUNT, w[0]);
	if (w[0] & E1_DP_DW0_STREAM) {
		if (!dp_is_gemm(op) && op != E1_DP_OP_VRELU_S8)
			return E1_DP_DS_STREAM_ERR;
		if (!count || count % 4 || off % 4 || w[1] % 4 || off + count > E1_DP_SCRATCH_BYTES)
			return E1_DP_DS_STREAM_ERR;
	}
	/* The writeback master only serves streamed GEMM (datapath seed). */
	if ((w[0] & E1_DP_DW0_WRITEBACK) &&
	    (!dp_is_gemm(op) || !(w[0] & E1_DP_DW0_STREAM) || w[2] % 4))
		return E1_DP_DS_BAD_WRITEBACK;

	if (w[0] & E1_DP_DW0_STREAM) {
		fail = dp_stream(dp, l, w[0], w[1]);
		if (fail)
			return fail;
	}

	c.opcode = op;
	c.a = w[1];
	c.b = w[2];
	c.acc = w[3];
	if (!dp_exec(dp, l, &c))
		return E1_DP_DS_ERROR;

	if (w[0] & E1_DP_DW0_WRITEBACK)
		return dp_writeback(dp, l, w[2]);
	return 0;
}

/* Descriptor mode (contract 3.7): run DESC_TAIL..DESC_HEAD. */
static bool dp_run_ring(struct e1_dp *dp, const struct dp_launch *l)
{
	u32 fail = 0, slot = dp->desc_tail;

	dp->desc_status = E1_DP_DS_BUSY;
	if (dp->desc_base % 4) {
		fail = E1_DP_DS_ERROR;
	} else if (dp->desc_tail == dp->desc_head) {
		fail = E1_DP_DS_ERROR;	/* DESC_STATUS.empty is live, see read */
	} else {
		u32 last = slot;

		while (dp->desc_tail != dp->desc_head) {
			slot = dp->desc_tail;
			fail = dp_run_desc(dp, l, slot);
			if (fail)
				break;
			last = slot;
			dp->desc_tail = (slot + 1) & E1_DP_DESC_IDX_MASK;
		}
		if (!fail)
			slot = last;
	}

	if (fail)
		dp->desc_status = fail | E1_DP_DS_ERROR;
	else
		dp->desc_status = E1_DP_DS_DONE;
	dp->desc_status |= E1_FIELD_PREP(E1_DP_DS_INDEX, slot);
	return !fail;
}

static void dp_start(struct e1_dp *dp)
{
	struct dp_launch l;
	bool ok;

	/* A start while done or error is set first clears both. */
	dp->status = E1_DP_STATUS_BUSY;
	dp->desc_status = 0;

	l.cfg = dp->gemm_cfg;
	l.base = dp->gemm_base;
	l.stride = dp->gemm_stride;
	l.ternary = dp->cmd_param & E1_DP_CMD_TERNARY;
	l.desc = dp->cmd_param & E1_DP_CMD_DESC_MODE;

	if (l.desc) {
		ok = dp_run_ring(dp, &l);
	} else {
		struct dp_cmd c = {
			.opcode = dp->opcode,
			.a = dp->op_a,
			.b = dp->op_b,
			.acc = dp->acc,
		};

		ok = dp_exec(dp, &l, &c);
	}

	dp->status = E1_DP_STATUS_DONE;
	if (!ok) {
		dp->status |= E1_DP_STATUS_ERROR;
		dp->perf.errors++;
	}
}

void e1_dp_reset(struct e1_dp *dp, const struct e1_bus *bus)
{
	memset(dp, 0, sizeof(*dp));
	dp->bus = bus;
}

static bool dp_is_scratch(u32 off, u32 *idx)
{
	if (off < E1_DP_SCRATCH(0) || off > E1_DP_SCRATCH(E1_DP_SCRATCH_WORDS - 1) || off % 4)
		return false;
	*idx = (off - E1_DP_SCRATCH(0)) / 4;
	return true;
}

u32 e1_dp_read(const struct e1_dp *dp, u32 off)
{
	u32 idx;

	if (dp_is_scratch(off, &idx))
		return dp_get_le32(&dp->scratch[4 * idx]);

	switch (off) {
	case E1_DP_CTRL_STATUS:
		return dp->status;
	case E1_DP_OPCODE:
		return dp->opcode;
	case E1_DP_OP_A:
		return dp->op_a;
	case E1_DP_OP_B:
		return dp->op_b;
	case E1_DP_ACC:
		return dp->acc;
	case E1_DP_RESULT:
		return dp->result;
	case E1_DP_RESULT_HI:
		return dp->result_hi;
	case E1_DP_ID:
		return E1_DP_ID_VALUE;
	case E1_DP_GEMM_CFG:
		return dp->gemm_cfg;
	case E1_DP_GEMM_BASE:
		return dp->gemm_base;
	case E1_DP_GEMM_STRIDE:
		return dp->gemm_stride;
	case E1_DP_PERF_UNSUPPORTED_OPS:
		return dp->perf.unsupported_ops;
	case E1_DP_CMD_PARAM:
		return dp->cmd_param;
	case E1_DP_DESC_BASE:
		return dp->desc_base;
	case E1_DP_DESC_HEAD:
		return dp->desc_head;
	case E1_DP_DESC_TAIL:
		return dp->desc_tail;
	case E1_DP_DESC_STATUS:
		/* [0] reports empty: head == tail now, whatever ran last. */
		return dp->desc_status |
		       (dp->desc_head == dp->desc_tail ? E1_DP_DS_EMPTY : 0);
	case E1_DP_PERF_CYCLES:
		return dp->perf.cycles;
	case E1_DP_PERF_MACS:
		return dp->perf.macs;
	case E1_DP_PERF_OPS:
		return dp->perf.ops;
	case E1_DP_PERF_ERRORS:
		return dp->perf.errors;
	case E1_DP_DESC_TIMEOUT_COUNT:
		return dp->perf.desc_timeout_count;
	case E1_DP_DESC_BYTES_READ:
		return dp->perf.desc_bytes_read;
	case E1_DP_DESC_BYTES_WRITTEN:
		return dp->perf.desc_bytes_written;
	case E1_DP_DESC_READ_BEATS:
		return dp->perf.desc_read_beats;
	case E1_DP_DESC_WRITE_BEATS:
		return dp->perf.desc_write_beats;
	case E1_DP_PERF_STALL_CYCLES:
		return dp->perf.stall_cycles;
	case E1_DP_PERF_SCRATCH_BYTES:
		return dp->perf.scratch_bytes;
	case E1_DP_PERF_THERMAL_THROTTLE:
		return dp->perf.thermal_throttle;
	default:
		return 0;	/* reserved */
	}
}

void e1_dp_write(struct e1_dp *dp, u32 off, u32 val)
{
	u32 idx;

	/*
	 * Commands run inside the start write, so the engine is only busy
	 * when a host touches the registers from its memory callback. The
	 * operands are latched then; only a new start is refused.
	 */
	if (dp_is_scratch(off, &idx)) {
		dp_put_le32(&dp->scratch[4 * idx], val);
		return;
	}

	switch (off) {
	case E1_DP_CTRL_STATUS:
		if (dp->status & E1_DP_STATUS_BUSY)
			break;
		if (val & E1_DP_STATUS_DONE)
			dp->status &= ~(E1_DP_STATUS_DONE | E1_DP_STATUS_ERROR);
		if (val & E1_DP_CTRL_START)
			dp_start(dp);
		e1_bus_irq_update(dp->bus);
		break;
	case E1_DP_OPCODE:
		dp->opcode = val & E1_DP_OPCODE_MASK;
		break;
	case E1_DP_OP_A:
		dp->op_a = val;
		break;
	case E1_DP_OP_B:
		dp->op_b = val;
		break;
	case E1_DP_ACC:
		dp->acc = val;
		break;
	case E1_DP_GEMM_CFG:
		dp->gemm_cfg = val & DP_GEMM_CFG_BITS;
		break;
	case E1_DP_GEMM_BASE:
		dp->gemm_base = val & DP_GEMM_BASE_BITS;
		break;
	case E1_DP_GEMM_STRIDE:
		dp->gemm_stride = val & DP_GEMM_STRIDE_BITS;
		break;
	case E1_DP_CMD_PARAM:
		dp->cmd_param = val & DP_CMD_PARAM_BITS;
		break;
	case E1_DP_DESC_BASE:
		dp->desc_base = val;
		break;
	case E1_DP_DESC_HEAD:
		dp->desc_head = val & E1_DP_DESC_IDX_MASK;
		break;
	case E1_DP_DESC_TAIL:
		dp->desc_tail = val & E1_DP_DESC_IDX_MASK;
		break;
	case E1_DP_PERF_ERRORS:
		if (val & E1_DP_PERF_CLEAR)
			memset(&dp->perf, 0, sizeof(dp->perf));
		break;
	case E1_DP_PERF_THERMAL_THROTTLE:
		dp->perf.thermal_throttle++;
		break;
	default:
		break;	/* RO and reserved: ignored */
	}
}

bool e1_dp_irq(const struct e1_dp *dp)
{
	return dp->status & E1_DP_STATUS_DONE;
}
