// SPDX-License-Identifier: (GPL-2.0-only OR MIT)
/*
 * Datapath model: descriptor mode (contract 3.7). Batches, 3-bit index
 * wrap, owner bit, stream_to_scratch, GEMM writeback into the host's DRAM,
 * every DESC_STATUS bit, injected read errors and missing responses, and the
 * descriptor perf counters after each case.
 */
#include "test-dp-host.h"

/* Timing of this file's host: every beat waits LAT cycles, TMO to time out. */
#define LAT	3
#define TMO	50

#define RING	(DRAM_BASE + 0x100)	/* DESC_BASE */
#define SRC	(DRAM_BASE + 0x800)	/* stream sources */
#define DST	(DRAM_BASE + 0x1000)	/* writeback targets */

/*
 * Descriptor word 0, encoded by hand: opcode [3:0], stream_to_scratch [8],
 * scratch_offset [21:16], byte_count [29:24], writeback [30], owner [31].
 */
#define OWN		0x80000000U
#define WB		0x40000000U
#define STREAM(off, cnt)	(0x100U | (u32)(off) << 16 | (u32)(cnt) << 24)

/* DESC_STATUS bits, by hand: index in [11:9]. */
#define DS_EMPTY	0x001U
#define DS_DONE		0x002U
#define DS_ERROR	0x004U
#define DS_TIMEOUT	0x008U
#define DS_FETCH	0x010U
#define DS_STREAM	0x020U
#define DS_NO_OWNER	0x040U
#define DS_BAD_WB	0x080U
#define DS_BUSY		0x100U
#define DS_IDX(i)	((u32)(i) << 9)

#define CFG(m, n, k)		((u32)(m) | (u32)(n) << 8 | (u32)(k) << 16)
#define TRIPLE(a, b, c)		((u32)(a) | (u32)(b) << 8 | (u32)(c) << 16)

static int desc_setup(void **state)
{
	*state = dp_host_new_timing(LAT, TMO);
	return 0;
}

static u8 *dram(struct dp_host *h, u64 addr)
{
	return &h->dram[addr - DRAM_BASE];
}

static void put_desc(struct dp_host *h, unsigned int slot, u32 w0, u32 w1, u32 w2, u32 w3)
{
	u8 *p = dram(h, RING + 16 * slot);

	put32(p, w0);
	put32(p + 4, w1);
	put32(p + 8, w2);
	put32(p + 12, w3);
}

/* Run the ring from @tail to @head; returns CTRL_STATUS. */
static u32 ring_run(struct dp_host *h, u32 tail, u32 head)
{
	wr(h, E1_DP_CMD_PARAM, E1_DP_CMD_DESC_MODE);
	wr(h, E1_DP_DESC_BASE, (u32)RING);
	wr(h, E1_DP_DESC_TAIL, tail);
	wr(h, E1_DP_DESC_HEAD, head);
	wr(h, E1_DP_CTRL_STATUS, E1_DP_CTRL_START);
	return rd(h, E1_DP_CTRL_STATUS);
}

static void restart(struct dp_host *h)
{
	wr(h, E1_DP_CTRL_STATUS, E1_DP_CTRL_START);
}

/*
 * Expected counter deltas from beats: @ok accepted read beats, @okw
 * accepted write beats, @err beats answered with an error, @noresp beats
 * that timed out, plus @exec execution cycles.
 */
static void expect_beats(const struct perf *p0, const struct perf *p1, u32 ok, u32 okw,
			 u32 err, u32 noresp, u32 exec)
{
	u32 stall = (ok + okw + err) * LAT + noresp * TMO;
	u32 cycles = stall + ok + okw + exec;

	assert_int_equal(p1->beats_rd - p0->beats_rd, ok);
	assert_int_equal(p1->bytes_rd - p0->bytes_rd, 4 * ok);
	assert_int_equal(p1->beats_wr - p0->beats_wr, okw);
	assert_int_equal(p1->bytes_wr - p0->bytes_wr, 4 * okw);
	assert_int_equal(p1->stall - p0->stall, stall);
	assert_int_equal(p1->cycles - p0->cycles, cycles);
	assert_int_equal(p1->desc_cycles - p0->desc_cycles, cycles);
}

/* ------------------------------------------------------------------ */

static void test_batch_of_seven_scalars(void **state)
{
	struct dp_host *h = *state;
	struct perf p0, p1;

	/*
	 * Slots 0..6, the most a 3-bit ring holds; PERF_OPS proves each ran.
	 * PERF_MACS counts signed INT8 MACs only: DOT4_S8's 4.
	 */
	put_desc(h, 0, OWN | E1_DP_OP_ADD, 1, 2, 0);
	put_desc(h, 1, OWN | E1_DP_OP_MAC_S16, 3, 4, 5);
	put_desc(h, 2, OWN | E1_DP_OP_DOT4_S8, 0x01010101, 0x01010101, 0);
	put_desc(h, 3, OWN | E1_DP_OP_DOT8_S4, 0x11111111, 0x11111111, 0);
	put_desc(h, 4, OWN | E1_DP_OP_DOT16_S2, 0x55555555, 0x55555555, 0);
	put_desc(h, 5, OWN | E1_DP_OP_DOT4_FP8_E4M3, 0x38, 0x38, 0);
	/* Last: MUL_LO 0x10000 * 0x30000 = 0x3_00000000 -> RESULT 0, HI 3. */
	put_desc(h, 6, OWN | E1_DP_OP_MUL_LO, 0x10000, 0x30000, 0);
	put_desc(h, 7, 0, 0, 0, 0);	/* not in the batch, no owner */

	wr(h, E1_DP_OP_A, 0xaaaa);
	wr(h, E1_DP_OPCODE, E1_DP_OP_SUB);
	perf_read(h, &p0);
	assert_int_equal(ring_run(h, 0, 7), ST_DONE);
	perf_read(h, &p1);
	assert_int_equal(rd(h, E1_DP_DESC_STATUS), DS_EMPTY | DS_DONE | DS_IDX(6));
	assert_int_equal(rd(h, E1_DP_DESC_TAIL), 7);
	assert_int_equal(rd(h, E1_DP_DESC_HEAD), 7);
	assert_int_equal(rd(h, E1_DP_RESULT), 0);
	assert_int_equal(rd(h, E1_DP_RESULT_HI), 3);
	/* The direct-command registers are not touched by descriptors. */
	assert_int_equal(rd(h, E1_DP_OP_A), 0xaaaa);
	assert_int_equal(rd(h, E1_DP_OPCODE), E1_DP_OP_SUB);
	assert_int_equal(p1.ops - p0.ops, 7);
	assert_int_equal(p1.macs - p0.macs, 4);
	assert_int_equal(p1.errors, 0);
	/* 7 descriptors * 4 beats; 7 scalar cycles. */
	expect_beats(&p0, &p1, 28, 0, 0, 0, 7);
	assert_int_equal(p1.scratch - p0.scratch, 0);
	/* One map per beat; one interrupt edge for the batch. */
	assert_int_equal(h->maps, 28);
	assert_int_equal(h->irq_rises, 1);
	assert_true(h->irq_level);
}

static void test_busy_seen_while_running(void **state)
{
	struct dp_host *h = *state;

	put_desc(h, 0, OWN | E1_DP_OP_ADD, 1, 2, 0);
	assert_int_equal(ring_run(h, 0, 1), ST_DONE);
	/* The host's map callback read the registers during the first fetch. */
	assert_true(h->snap_taken);
	assert_int_equal(h->snap_ctrl, E1_DP_STATUS_BUSY);
	assert_int_equal(h->snap_desc_status, DS_BUSY);
	/* A start from inside the callback would have been refused: done once. */
	assert_int_equal(rd(h, E1_DP_DESC_STATUS), DS_EMPTY | DS_DONE | DS_IDX(0));
}

static void test_index_wrap(void **state)
{
	struct dp_host *h = *state;
	unsigned int i;

	/* Slot i: ADD i + 100. */
	for (i = 0; i < 8; i++)
		put_desc(h, i, OWN | E1_DP_OP_ADD, i, 100, 0);
	/* Tail 5, head 4: 7 entries 5, 6, 7, 0, 1, 2, 3 -> last is slot 3. */
	put_desc(h, 4, 0, 0, 0, 0);	/* would fail if fetched */
	assert_int_equal(ring_run(h, 5, 4), ST_DONE);
	assert_int_equal(rd(h, E1_DP_DESC_STATUS), DS_EMPTY | DS_DONE | DS_IDX(3));
	assert_int_equal(rd(h, E1_DP_DESC_TAIL), 4);
	assert_int_equal(rd(h, E1_DP_RESULT), 103);
	assert_int_equal(rd(h, E1_DP_PERF_OPS), 7);

	/* Tail 7, head 1: slots 7 and 0 -> ends on slot 0, tail 1. */
	put_desc(h, 4, OWN | E1_DP_OP_ADD, 4, 100, 0);
	put_desc(h, 1, 0, 0, 0, 0);
	assert_int_equal(ring_run(h, 7, 1), ST_DONE);
	assert_int_equal(rd(h, E1_DP_DESC_STATUS), DS_EMPTY | DS_DONE | DS_IDX(0));
	assert_int_equal(rd(h, E1_DP_DESC_TAIL), 1);
	assert_int_equal(rd(h, E1_DP_RESULT), 100);
	assert_int_equal(rd(h, E1_DP_PERF_OPS), 9);

	/* Software continues: head 4 from tail 2 (after setting it). */
	put_desc(h, 1, OWN | E1_DP_OP_ADD, 1, 100, 0);
	assert_int_equal(ring_run(h, 2, 4), ST_DONE);
	assert_int_equal(rd(h, E1_DP_DESC_STATUS), DS_EMPTY | DS_DONE | DS_IDX(3));
	assert_int_equal(rd(h, E1_DP_DESC_TAIL), 4);
	assert_int_equal(rd(h, E1_DP_PERF_OPS), 11);

	/* Tail 4, head 3: 7 entries including slot 7 -> 0 wrap. */
	assert_int_equal(ring_run(h, 4, 3), ST_DONE);
	assert_int_equal(rd(h, E1_DP_DESC_STATUS), DS_EMPTY | DS_DONE | DS_IDX(2));
	assert_int_equal(rd(h, E1_DP_RESULT), 102);
	assert_int_equal(rd(h, E1_DP_PERF_OPS), 18);

	/* A fault in slot 7 reports index 7 (DESC_STATUS[11:9] all ones). */
	put_desc(h, 7, E1_DP_OP_ADD, 0, 0, 0);
	assert_int_equal(ring_run(h, 6, 1), ST_ERR);
	assert_int_equal(rd(h, E1_DP_DESC_STATUS), DS_NO_OWNER | DS_ERROR | 0xe00);
	assert_int_equal(rd(h, E1_DP_DESC_TAIL), 7);
	assert_int_equal(rd(h, E1_DP_RESULT), 106);
}

static void test_empty_and_misaligned(void **state)
{
	struct dp_host *h = *state;
	struct perf p;

	/* head == tail: empty, fails closed without touching memory. */
	assert_int_equal(ring_run(h, 3, 3), ST_ERR);
	assert_int_equal(rd(h, E1_DP_DESC_STATUS), DS_EMPTY | DS_ERROR | DS_IDX(3));
	assert_int_equal(h->maps, 0);
	perf_read(h, &p);
	assert_int_equal(p.errors, 1);
	assert_int_equal(p.unsupported, 0);
	assert_int_equal(p.ops, 0);
	assert_int_equal(p.cycles, 0);
	assert_true(h->irq_level);

	/* DESC_BASE not 4-byte aligned: error, nothing fetched. */
	put_desc(h, 0, OWN | E1_DP_OP_ADD, 1, 1, 0);
	wr(h, E1_DP_CMD_PARAM, E1_DP_CMD_DESC_MODE);
	wr(h, E1_DP_DESC_TAIL, 0);
	wr(h, E1_DP_DESC_HEAD, 1);
	wr(h, E1_DP_DESC_BASE, (u32)RING + 2);
	restart(h);
	assert_int_equal(rd(h, E1_DP_CTRL_STATUS), ST_ERR);
	assert_int_equal(rd(h, E1_DP_DESC_STATUS), DS_ERROR | DS_IDX(0));
	assert_int_equal(rd(h, E1_DP_DESC_TAIL), 0);
	assert_int_equal(h->maps, 0);
	assert_int_equal(rd(h, E1_DP_PERF_ERRORS), 2);
	/* Misaligned and empty: alignment is checked first. */
	wr(h, E1_DP_DESC_HEAD, 0);
	wr(h, E1_DP_DESC_BASE, (u32)RING + 1);
	restart(h);
	/* [0] is live: head == tail reports empty whatever failed. */
	assert_int_equal(rd(h, E1_DP_DESC_STATUS), DS_EMPTY | DS_ERROR | DS_IDX(0));
	/* Aligned to 4 but not 16 is fine. */
	memmove(dram(h, RING + 4), dram(h, RING), 16);
	wr(h, E1_DP_DESC_BASE, (u32)RING + 4);
	wr(h, E1_DP_DESC_HEAD, 1);
	restart(h);
	assert_int_equal(rd(h, E1_DP_CTRL_STATUS), ST_DONE);
	assert_int_equal(rd(h, E1_DP_DESC_STATUS), DS_EMPTY | DS_DONE | DS_IDX(0));
	assert_int_equal(rd(h, E1_DP_RESULT), 2);
	assert_int_equal(rd(h, E1_DP_PERF_ERRORS), 3);
}

static void test_no_owner(void **state)
{
	struct dp_host *h = *state;
	struct perf p0, p1;

	put_desc(h, 0, OWN | E1_DP_OP_ADD, 1, 1, 0);
	put_desc(h, 1, E1_DP_OP_ADD, 2, 2, 0);	/* owner missing */
	put_desc(h, 2, OWN | E1_DP_OP_ADD, 3, 3, 0);
	perf_read(h, &p0);
	assert_int_equal(ring_run(h, 0, 3), ST_ERR);
	perf_read(h, &p1);
	assert_int_equal(rd(h, E1_DP_DESC_STATUS), DS_NO_OWNER | DS_ERROR | DS_IDX(1));
	assert_int_equal(rd(h, E1_DP_DESC_TAIL), 1);
	assert_int_equal(rd(h, E1_DP_RESULT), 2);
	assert_int_equal(p1.ops - p0.ops, 1);
	assert_int_equal(p1.errors - p0.errors, 1);
	assert_int_equal(p1.unsupported - p0.unsupported, 0);
	/* Slot 0 fetched and run, slot 1 fetched and refused. */
	expect_beats(&p0, &p1, 8, 0, 0, 0, 1);

	/* Software sets the owner and restarts from DESC_TAIL = 1. */
	put_desc(h, 1, OWN | E1_DP_OP_ADD, 2, 2, 0);
	restart(h);
	assert_int_equal(rd(h, E1_DP_CTRL_STATUS), ST_DONE);
	assert_int_equal(rd(h, E1_DP_DESC_STATUS), DS_EMPTY | DS_DONE | DS_IDX(2));
	assert_int_equal(rd(h, E1_DP_DESC_TAIL), 3);
	assert_int_equal(rd(h, E1_DP_RESULT), 6);
	assert_int_equal(rd(h, E1_DP_PERF_OPS), 3);
}

/* The streamed GEMM of the next tests: A, B streamed, C written back. */
static void setup_stream_gemm(struct dp_host *h, u32 cs)
{
	/*
	 * M = N = K = 2. A = [[1, 2], [3, 4]] at scratch 0 (stride 2),
	 * B = [[5, 6], [7, 8]] at scratch 4 (stride 2), C at 16 (stride cs).
	 * The stream brings the 8 bytes 1..8 from SRC into scratch 0..7.
	 */
	static const u8 src[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };

	memcpy(dram(h, SRC), src, sizeof(src));
	wr(h, E1_DP_GEMM_CFG, CFG(2, 2, 2));
	wr(h, E1_DP_GEMM_BASE, TRIPLE(0, 4, 16));
	wr(h, E1_DP_GEMM_STRIDE, TRIPLE(2, 2, cs));
}

static void test_stream_gemm_writeback(void **state)
{
	struct dp_host *h = *state;
	struct perf p0, p1;
	u8 s[64];

	setup_stream_gemm(h, 12);
	memset(dram(h, DST), 0xee, 32);
	put_desc(h, 0, OWN | WB | STREAM(0, 8) | E1_DP_OP_GEMM_S8, (u32)SRC, (u32)DST, 0);
	perf_read(h, &p0);
	assert_int_equal(ring_run(h, 0, 1), ST_DONE);
	perf_read(h, &p1);
	assert_int_equal(rd(h, E1_DP_DESC_STATUS), DS_EMPTY | DS_DONE | DS_IDX(0));
	/*
	 * C = [[1*5 + 2*7, 1*6 + 2*8], [3*5 + 4*7, 3*6 + 4*8]] = [[19, 22], [43, 50]]
	 * in scratch rows 16 and 28 (stride 12), and row-compacted (8 bytes per
	 * row) in DRAM at DST.
	 */
	scratch_dump(h, s);
	assert_int_equal(s[0], 1);
	assert_int_equal(s[7], 8);
	assert_int_equal(le32(&s[16]), 19);
	assert_int_equal(le32(&s[20]), 22);
	assert_int_equal(le32(&s[28]), 43);
	assert_int_equal(le32(&s[32]), 50);
	assert_int_equal(le32(dram(h, DST)), 19);
	assert_int_equal(le32(dram(h, DST + 4)), 22);
	assert_int_equal(le32(dram(h, DST + 8)), 43);
	assert_int_equal(le32(dram(h, DST + 12)), 50);
	assert_int_equal(le32(dram(h, DST + 16)), 0xeeeeeeee);
	/*
	 * Beats: 4 fetch + 2 stream reads, 4 writeback writes; 8 GEMM cycles.
	 * Scratch: stream 8 + GEMM (4 + 4 + 16) + writeback 16 = 48.
	 */
	expect_beats(&p0, &p1, 6, 4, 0, 0, 8);
	assert_int_equal(p1.scratch - p0.scratch, 48);
	assert_int_equal(p1.macs - p0.macs, 8);
	assert_int_equal(p1.ops - p0.ops, 1);
}

static void test_gemm_batch_shares_config(void **state)
{
	struct dp_host *h = *state;
	static const u8 src2[8] = { 1, 0, 0, 1, 2, 3, 4, 5 };
	u8 s[E1_DP_SCRATCH_BYTES];
	u8 *d;

	/* Two streamed GEMMs, same global GEMM_CFG/BASE/STRIDE. */
	setup_stream_gemm(h, 8);
	memcpy(dram(h, SRC + 64), src2, 8);
	put_desc(h, 6, OWN | WB | STREAM(0, 8) | E1_DP_OP_GEMM_S8, (u32)SRC, (u32)DST, 0);
	put_desc(h, 7, OWN | WB | STREAM(0, 8) | E1_DP_OP_GEMM_S8, (u32)SRC + 64,
		 (u32)DST + 64, 0);
	/*
	 * A GEMM_S8 without streaming recomputes from what is in scratch; it
	 * may not write back (the writeback master serves streamed GEMM only).
	 */
	put_desc(h, 0, OWN | E1_DP_OP_GEMM_S8, 0, (u32)DST + 128, 0);
	memset(dram(h, DST + 128), 0xee, 16);
	assert_int_equal(ring_run(h, 6, 1), ST_DONE);
	assert_int_equal(rd(h, E1_DP_DESC_STATUS), DS_EMPTY | DS_DONE | DS_IDX(0));
	d = dram(h, DST);
	assert_int_equal(le32(d), 19);
	assert_int_equal(le32(d + 12), 50);
	/* Identity A times B = [[2, 3], [4, 5]]. */
	assert_int_equal(le32(d + 64), 2);
	assert_int_equal(le32(d + 68), 3);
	assert_int_equal(le32(d + 72), 4);
	assert_int_equal(le32(d + 76), 5);
	/* The third ran on the same scratch (C at 16 does not overlap A, B). */
	scratch_dump(h, s);
	assert_int_equal(le32(&s[16]), 2);
	assert_int_equal(le32(&s[20]), 3);
	assert_int_equal(le32(&s[24]), 4);
	assert_int_equal(le32(&s[28]), 5);
	assert_int_equal(le32(d + 128), 0xeeeeeeee);
	assert_int_equal(rd(h, E1_DP_DESC_BYTES_WRITTEN), 32);
	assert_int_equal(rd(h, E1_DP_DESC_WRITE_BEATS), 8);
}

static void test_stream_vrelu_and_s4(void **state)
{
	struct dp_host *h = *state;
	static const u8 src[12] = { 0x80, 0xff, 0, 1, 0x7f, 0x90, 2, 3, 0xf0, 0x10, 4, 0x81 };
	u8 s[64];
	struct perf p0, p1;

	/* Stream 12 bytes to scratch 20, VRELU 12 in place there. */
	memcpy(dram(h, SRC), src, 12);
	wr(h, E1_DP_GEMM_CFG, 12);
	wr(h, E1_DP_GEMM_BASE, 20 | 20 << 8);
	put_desc(h, 0, OWN | STREAM(20, 12) | E1_DP_OP_VRELU_S8, (u32)SRC, 0, 0);
	perf_read(h, &p0);
	assert_int_equal(ring_run(h, 0, 1), ST_DONE);
	perf_read(h, &p1);
	scratch_dump(h, s);
	/* relu: [0, 0, 0, 1, 0x7f, 0, 2, 3, 0, 0x10, 4, 0]. */
	assert_int_equal(le32(&s[20]), 0x01000000);
	assert_int_equal(le32(&s[24]), 0x0302007f);
	assert_int_equal(le32(&s[28]), 0x00041000);
	/* 4 fetch + 3 stream beats; VRELU 12 cycles; scratch 12 + 24. */
	expect_beats(&p0, &p1, 7, 0, 0, 0, 12);
	assert_int_equal(p1.scratch - p0.scratch, 36);

	/*
	 * GEMM_S4 with writeback: M = 1, N = 1, K = 4, A elements 0..3,
	 * B elements 8..11 (byte 4..5). Streamed bytes: 0x21, 0x43, 0, 0,
	 * 0x11, 0xff, 0, 0: A = [1, 2, 3, 4], B = [1, 1, -1, -1]:
	 * 1 + 2 - 3 - 4 = -4.
	 */
	dram(h, SRC)[0] = 0x21;
	dram(h, SRC)[1] = 0x43;
	dram(h, SRC)[2] = 0;
	dram(h, SRC)[3] = 0;
	dram(h, SRC)[4] = 0x11;
	dram(h, SRC)[5] = 0xff;
	dram(h, SRC)[6] = 0;
	dram(h, SRC)[7] = 0;
	wr(h, E1_DP_GEMM_CFG, CFG(1, 1, 4));
	wr(h, E1_DP_GEMM_BASE, TRIPLE(0, 8, 32));
	wr(h, E1_DP_GEMM_STRIDE, TRIPLE(0, 1, 0));
	put_desc(h, 1, OWN | WB | STREAM(0, 8) | E1_DP_OP_GEMM_S4, (u32)SRC, (u32)DST + 4, 0);
	assert_int_equal(ring_run(h, 1, 2), ST_DONE);
	assert_int_equal(le32(dram(h, DST + 4)), (u32)-4);
}

/* A descriptor that must be refused with @bits at slot 0; nothing runs. */
static void expect_refused(struct dp_host *h, u32 w0, u32 w1, u32 w2, u32 bits)
{
	struct perf p0, p1;
	u8 before[64], after[64];

	scratch_dump(h, before);
	put_desc(h, 0, w0, w1, w2, 0);
	perf_read(h, &p0);
	assert_int_equal(ring_run(h, 0, 1), ST_ERR);
	perf_read(h, &p1);
	scratch_dump(h, after);
	assert_int_equal(rd(h, E1_DP_DESC_STATUS), bits | DS_ERROR | DS_IDX(0));
	assert_int_equal(rd(h, E1_DP_DESC_TAIL), 0);
	assert_memory_equal(before, after, 64);
	assert_int_equal(p1.ops - p0.ops, 0);
	assert_int_equal(p1.errors - p0.errors, 1);
	assert_int_equal(p1.unsupported - p0.unsupported, 0);
	/* Only the descriptor itself was read. */
	expect_beats(&p0, &p1, 4, 0, 0, 0, 0);
}

static void test_stream_config_errors(void **state)
{
	struct dp_host *h = *state;
	u32 gemm = OWN | E1_DP_OP_GEMM_S8;

	setup_stream_gemm(h, 8);
	/* Count 0, count not a multiple of 4 (6), offset 2, source + 2. */
	expect_refused(h, gemm | STREAM(0, 0), (u32)SRC, 0, DS_STREAM);
	expect_refused(h, gemm | STREAM(0, 6), (u32)SRC, 0, DS_STREAM);
	expect_refused(h, gemm | STREAM(2, 8), (u32)SRC, 0, DS_STREAM);
	expect_refused(h, gemm | STREAM(0, 8), (u32)SRC + 2, 0, DS_STREAM);
	/* offset + count: 4 + 60 = 64 ok; 8 + 60 = 68 past. */
	expect_refused(h, gemm | STREAM(8, 60), (u32)SRC, 0, DS_STREAM);
	expect_refused(h, gemm | STREAM(60, 8), (u32)SRC, 0, DS_STREAM);
	/* Streaming into a scalar opcode. */
	expect_refused(h, OWN | STREAM(0, 8) | E1_DP_OP_ADD, (u32)SRC, 0, DS_STREAM);
	expect_refused(h, OWN | STREAM(0, 8) | E1_DP_OP_DOT4_S8, (u32)SRC, 0, DS_STREAM);

	put_desc(h, 0, gemm | STREAM(4, 60), (u32)SRC, 0, 0);
	assert_int_equal(ring_run(h, 0, 1), ST_DONE);
	assert_int_equal(rd(h, E1_DP_DESC_STATUS), DS_EMPTY | DS_DONE | DS_IDX(0));
}

static void test_bad_writeback(void **state)
{
	struct dp_host *h = *state;

	setup_stream_gemm(h, 8);
	/* Scalar, VRELU writeback; unaligned destination. */
	expect_refused(h, OWN | WB | E1_DP_OP_ADD, 1, (u32)DST, DS_BAD_WB);
	expect_refused(h, OWN | WB | E1_DP_OP_VRELU_S8, 0, (u32)DST, DS_BAD_WB);
	expect_refused(h, OWN | WB | STREAM(0, 8) | E1_DP_OP_VRELU_S8, (u32)SRC, (u32)DST,
		       DS_BAD_WB);
	expect_refused(h, OWN | WB | STREAM(0, 8) | E1_DP_OP_GEMM_S8, (u32)SRC, (u32)DST + 2,
		       DS_BAD_WB);
	expect_refused(h, OWN | WB | STREAM(0, 8) | E1_DP_OP_GEMM_S4, (u32)SRC, (u32)DST + 1,
		       DS_BAD_WB);
	/*
	 * GEMM without streaming, aligned destination: the seed's writeback
	 * master "only serves the streamed GEMM case".
	 */
	expect_refused(h, OWN | WB | E1_DP_OP_GEMM_S8, 0, (u32)DST, DS_BAD_WB);
	expect_refused(h, OWN | WB | E1_DP_OP_GEMM_S4, 0, (u32)DST, DS_BAD_WB);
	/* Stream problems are reported before writeback problems. */
	expect_refused(h, OWN | WB | STREAM(0, 6) | E1_DP_OP_GEMM_S8, (u32)SRC, (u32)DST + 2,
		       DS_STREAM);
}

static void test_write_error_response(void **state)
{
	struct dp_host *h = *state;
	struct perf p0, p1;

	/* Writeback target outside the host's DRAM: the write gets an error. */
	setup_stream_gemm(h, 8);
	put_desc(h, 0, OWN | WB | STREAM(0, 8) | E1_DP_OP_GEMM_S8, (u32)SRC, 0x1000, 0);
	perf_read(h, &p0);
	assert_int_equal(ring_run(h, 0, 1), ST_ERR);
	perf_read(h, &p1);
	assert_int_equal(rd(h, E1_DP_DESC_STATUS), DS_BAD_WB | DS_ERROR | DS_IDX(0));
	assert_int_equal(rd(h, E1_DP_DESC_TAIL), 0);
	/* The GEMM itself ran (scratch has C) before the first write failed. */
	assert_int_equal(p1.ops - p0.ops, 1);
	expect_beats(&p0, &p1, 6, 0, 1, 0, 8);

	/* Error response on the third writeback beat: two are in DRAM. */
	memset(dram(h, DST), 0, 16);
	e1_model_inject_fault(&h->m, DST + 8, DST + 11, E1_MEM_ERROR);
	put_desc(h, 0, OWN | WB | STREAM(0, 8) | E1_DP_OP_GEMM_S8, (u32)SRC, (u32)DST, 0);
	perf_read(h, &p0);
	restart(h);
	perf_read(h, &p1);
	assert_int_equal(rd(h, E1_DP_DESC_STATUS), DS_BAD_WB | DS_ERROR | DS_IDX(0));
	assert_int_equal(le32(dram(h, DST)), 19);
	assert_int_equal(le32(dram(h, DST + 4)), 22);
	assert_int_equal(le32(dram(h, DST + 8)), 0);
	expect_beats(&p0, &p1, 6, 2, 1, 0, 8);
	assert_int_equal(p1.errors - p0.errors, 1);
}

static void test_fetch_error(void **state)
{
	struct dp_host *h = *state;
	struct perf p0, p1;

	put_desc(h, 0, OWN | E1_DP_OP_ADD, 1, 1, 0);
	put_desc(h, 1, OWN | E1_DP_OP_ADD, 2, 2, 0);
	put_desc(h, 2, OWN | E1_DP_OP_ADD, 3, 3, 0);
	/* Word 2 of slot 1 answers with a bus error. */
	assert_int_equal(e1_model_inject_fault(&h->m, RING + 16 + 8, RING + 16 + 11,
					       E1_MEM_ERROR), 0);
	perf_read(h, &p0);
	assert_int_equal(ring_run(h, 0, 3), ST_ERR);
	perf_read(h, &p1);
	assert_int_equal(rd(h, E1_DP_DESC_STATUS), DS_FETCH | DS_ERROR | DS_IDX(1));
	assert_int_equal(rd(h, E1_DP_DESC_TAIL), 1);
	assert_int_equal(rd(h, E1_DP_RESULT), 2);
	/* Slot 0: 4 beats; slot 1: 2 accepted, 1 error. */
	expect_beats(&p0, &p1, 6, 0, 1, 0, 1);
	assert_int_equal(p1.errors - p0.errors, 1);

	/* Cleared fault: restart resumes at slot 1. */
	e1_model_clear_faults(&h->m);
	restart(h);
	assert_int_equal(rd(h, E1_DP_DESC_STATUS), DS_EMPTY | DS_DONE | DS_IDX(2));
	assert_int_equal(rd(h, E1_DP_RESULT), 6);

	/* A ring outside the host's DRAM is a fetch error at the first beat. */
	wr(h, E1_DP_CMD_PARAM, E1_DP_CMD_DESC_MODE);
	wr(h, E1_DP_DESC_BASE, 0x100);
	wr(h, E1_DP_DESC_TAIL, 0);
	wr(h, E1_DP_DESC_HEAD, 1);
	restart(h);
	assert_int_equal(rd(h, E1_DP_CTRL_STATUS), ST_ERR);
	assert_int_equal(rd(h, E1_DP_DESC_STATUS), DS_FETCH | DS_ERROR | DS_IDX(0));
}

static void test_stream_read_error(void **state)
{
	struct dp_host *h = *state;
	struct perf p0, p1;
	u8 before[64], after[64];

	setup_stream_gemm(h, 8);
	scratch_dump(h, before);
	/* Second stream word errors: stream_err, scratch untouched. */
	e1_model_inject_fault(&h->m, SRC + 4, SRC + 7, E1_MEM_ERROR);
	put_desc(h, 0, OWN | WB | STREAM(0, 8) | E1_DP_OP_GEMM_S8, (u32)SRC, (u32)DST, 0);
	perf_read(h, &p0);
	assert_int_equal(ring_run(h, 0, 1), ST_ERR);
	perf_read(h, &p1);
	scratch_dump(h, after);
	assert_int_equal(rd(h, E1_DP_DESC_STATUS), DS_STREAM | DS_ERROR | DS_IDX(0));
	assert_memory_equal(before, after, 64);
	assert_int_equal(p1.ops - p0.ops, 0);
	assert_int_equal(p1.scratch - p0.scratch, 0);
	/* 4 fetch + 1 stream accepted, 1 error. */
	expect_beats(&p0, &p1, 5, 0, 1, 0, 0);
}

static void test_timeouts(void **state)
{
	struct dp_host *h = *state;
	struct perf p0, p1;

	/* No response to slot 0's word 0. */
	put_desc(h, 0, OWN | E1_DP_OP_ADD, 1, 1, 0);
	e1_model_inject_fault(&h->m, RING, RING + 3, E1_MEM_NORESP);
	perf_read(h, &p0);
	assert_int_equal(ring_run(h, 0, 1), ST_ERR);
	perf_read(h, &p1);
	assert_int_equal(rd(h, E1_DP_DESC_STATUS), DS_TIMEOUT | DS_ERROR | DS_IDX(0));
	assert_int_equal(rd(h, E1_DP_DESC_TAIL), 0);
	expect_beats(&p0, &p1, 0, 0, 0, 1, 0);
	assert_int_equal(p1.stall - p0.stall, TMO);
	assert_int_equal(p1.errors - p0.errors, 1);
	e1_model_clear_faults(&h->m);

	/* No response to the stream's second word. */
	setup_stream_gemm(h, 8);
	e1_model_inject_fault(&h->m, SRC + 4, SRC + 7, E1_MEM_NORESP);
	put_desc(h, 0, OWN | WB | STREAM(0, 8) | E1_DP_OP_GEMM_S8, (u32)SRC, (u32)DST, 0);
	perf_read(h, &p0);
	restart(h);
	perf_read(h, &p1);
	assert_int_equal(rd(h, E1_DP_DESC_STATUS), DS_TIMEOUT | DS_ERROR | DS_IDX(0));
	expect_beats(&p0, &p1, 5, 0, 0, 1, 0);
	e1_model_clear_faults(&h->m);

	/* No write response on the last writeback beat. */
	e1_model_inject_fault(&h->m, DST + 12, DST + 15, E1_MEM_NORESP);
	perf_read(h, &p0);
	restart(h);
	perf_read(h, &p1);
	assert_int_equal(rd(h, E1_DP_DESC_STATUS), DS_TIMEOUT | DS_ERROR | DS_IDX(0));
	expect_beats(&p0, &p1, 6, 3, 0, 1, 8);
	e1_model_clear_faults(&h->m);

	/* DESC_STATUS is cleared at the next start; a good run reports done. */
	restart(h);
	assert_int_equal(rd(h, E1_DP_CTRL_STATUS), ST_DONE);
	assert_int_equal(rd(h, E1_DP_DESC_STATUS), DS_EMPTY | DS_DONE | DS_IDX(0));
	assert_int_equal(rd(h, E1_DP_DESC_TIMEOUT_COUNT), rd(h, E1_DP_PERF_CYCLES));
}

static void test_command_error_in_batch(void **state)
{
	struct dp_host *h = *state;
	struct perf p0, p1;

	/* GEMM with K = 0 at slot 2 of 3: a command error. */
	wr(h, E1_DP_GEMM_CFG, CFG(1, 1, 0));
	put_desc(h, 1, OWN | E1_DP_OP_ADD, 5, 5, 0);
	put_desc(h, 2, OWN | E1_DP_OP_GEMM_S8, 0, 0, 0);
	put_desc(h, 3, OWN | E1_DP_OP_ADD, 7, 7, 0);
	perf_read(h, &p0);
	assert_int_equal(ring_run(h, 1, 4), ST_ERR);
	perf_read(h, &p1);
	assert_int_equal(rd(h, E1_DP_DESC_STATUS), DS_ERROR | DS_IDX(2));
	assert_int_equal(rd(h, E1_DP_DESC_TAIL), 2);
	assert_int_equal(rd(h, E1_DP_RESULT), 10);
	/* PERF_ERRORS once for the batch; the command counts as unsupported. */
	assert_int_equal(p1.errors - p0.errors, 1);
	assert_int_equal(p1.unsupported - p0.unsupported, 1);
	assert_int_equal(p1.ops - p0.ops, 1);
	/* 8 beats; ADD 1 cycle + 1 reject cycle. */
	expect_beats(&p0, &p1, 8, 0, 0, 0, 2);

	/* Fixing the config and restarting runs 2 and 3. */
	wr(h, E1_DP_GEMM_CFG, CFG(1, 1, 1));
	wr(h, E1_DP_GEMM_BASE, TRIPLE(0, 0, 32));
	restart(h);
	assert_int_equal(rd(h, E1_DP_DESC_STATUS), DS_EMPTY | DS_DONE | DS_IDX(3));
	assert_int_equal(rd(h, E1_DP_RESULT), 14);
}

static void test_ternary_via_descriptor(void **state)
{
	struct dp_host *h = *state;

	/* Ternary [+1] * [-1] in lane 0 (0b01, 0b10): -1; two's would be -2. */
	put_desc(h, 0, OWN | E1_DP_OP_DOT16_S2, 0x1, 0x2, 0);
	wr(h, E1_DP_CMD_PARAM, E1_DP_CMD_DESC_MODE | E1_DP_CMD_TERNARY);
	wr(h, E1_DP_DESC_BASE, (u32)RING);
	wr(h, E1_DP_DESC_TAIL, 0);
	wr(h, E1_DP_DESC_HEAD, 1);
	restart(h);
	assert_int_equal(rd(h, E1_DP_CTRL_STATUS), ST_DONE);
	assert_int_equal(rd(h, E1_DP_RESULT), 0xffffffff);
	/* Reserved 0b11: command error inside the batch. */
	put_desc(h, 1, OWN | E1_DP_OP_DOT16_S2, 0x3, 0x1, 0);
	wr(h, E1_DP_DESC_HEAD, 2);
	restart(h);
	assert_int_equal(rd(h, E1_DP_CTRL_STATUS), ST_ERR);
	assert_int_equal(rd(h, E1_DP_DESC_STATUS), DS_ERROR | DS_IDX(1));
	assert_int_equal(rd(h, E1_DP_RESULT), 0xffffffff);
	/* Two's complement accepts it: 0b11 (-1) * 0b01 (+1) = -1. */
	wr(h, E1_DP_CMD_PARAM, E1_DP_CMD_DESC_MODE);
	restart(h);
	assert_int_equal(rd(h, E1_DP_DESC_STATUS), DS_EMPTY | DS_DONE | DS_IDX(1));
	assert_int_equal(rd(h, E1_DP_RESULT), 0xffffffff);
}

static void test_direct_start_clears_desc_status(void **state)
{
	struct dp_host *h = *state;

	assert_int_equal(ring_run(h, 2, 2), ST_ERR);
	assert_int_equal(rd(h, E1_DP_DESC_STATUS), DS_EMPTY | DS_ERROR | DS_IDX(2));
	/* Clear done/error: DESC_STATUS stays until the next start. */
	wr(h, E1_DP_CTRL_STATUS, E1_DP_STATUS_DONE);
	assert_int_equal(rd(h, E1_DP_DESC_STATUS), DS_EMPTY | DS_ERROR | DS_IDX(2));
	assert_false(h->irq_level);
	wr(h, E1_DP_CMD_PARAM, 0);
	assert_int_equal(dp_cmd(h, E1_DP_OP_ADD, 1, 1, 0), ST_DONE);
	/* Only the live empty bit is left (head == tail == 2). */
	assert_int_equal(rd(h, E1_DP_DESC_STATUS), DS_EMPTY);
	assert_int_equal(h->irq_rises, 2);
}

/*
 * The seed: "DESC_STATUS[0] reports empty". It follows head == tail: set
 * after a batch drains (not only when a start found the ring empty), clear
 * while entries are pending or a fault keeps the tail behind the head.
 */
static void test_empty_follows_ring(void **state)
{
	struct dp_host *h = *state;

	wr(h, E1_DP_DESC_TAIL, 5);
	wr(h, E1_DP_DESC_HEAD, 5);
	assert_int_equal(rd(h, E1_DP_DESC_STATUS), DS_EMPTY);
	put_desc(h, 5, OWN | E1_DP_OP_ADD, 2, 3, 0);
	put_desc(h, 6, OWN | E1_DP_OP_ADD, 4, 5, 0);
	wr(h, E1_DP_DESC_HEAD, 7);
	assert_int_equal(rd(h, E1_DP_DESC_STATUS), 0);
	assert_int_equal(ring_run(h, 5, 7), ST_DONE);
	assert_int_equal(rd(h, E1_DP_DESC_TAIL), 7);
	assert_int_equal(rd(h, E1_DP_RESULT), 9);
	assert_int_equal(rd(h, E1_DP_DESC_STATUS), DS_EMPTY | DS_DONE | DS_IDX(6));
	/* A fault leaves the tail on the slot: not empty. */
	put_desc(h, 7, E1_DP_OP_ADD, 1, 1, 0);
	wr(h, E1_DP_DESC_HEAD, 0);
	restart(h);
	assert_int_equal(rd(h, E1_DP_DESC_STATUS), DS_NO_OWNER | DS_ERROR | DS_IDX(7));
	/* Software retires it by hand: empty again, the rest unchanged. */
	wr(h, E1_DP_DESC_TAIL, 0);
	assert_int_equal(rd(h, E1_DP_DESC_STATUS),
			 DS_EMPTY | DS_NO_OWNER | DS_ERROR | DS_IDX(7));
}

static void test_desc_perf_clear(void **state)
{
	struct dp_host *h = *state;
	struct perf p;

	setup_stream_gemm(h, 8);
	put_desc(h, 0, OWN | WB | STREAM(0, 8) | E1_DP_OP_GEMM_S8, (u32)SRC, (u32)DST, 0);
	assert_int_equal(ring_run(h, 0, 1), ST_DONE);
	perf_read(h, &p);
	assert_true(p.bytes_rd && p.bytes_wr && p.beats_rd && p.beats_wr && p.stall &&
		    p.scratch && p.desc_cycles && p.cycles && p.macs && p.ops);
	wr(h, E1_DP_PERF_ERRORS, E1_DP_PERF_CLEAR);
	perf_read(h, &p);
	assert_int_equal(p.unsupported | p.cycles | p.macs | p.ops | p.errors | p.desc_cycles |
			 p.bytes_rd | p.bytes_wr | p.beats_rd | p.beats_wr | p.stall | p.scratch |
			 p.thermal, 0);
	/* Descriptor state is not a counter. */
	assert_int_equal(rd(h, E1_DP_DESC_STATUS), DS_EMPTY | DS_DONE | DS_IDX(0));
	assert_int_equal(rd(h, E1_DP_DESC_TAIL), 1);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, desc_setup, dp_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_batch_of_seven_scalars),
		T(test_busy_seen_while_running),
		T(test_index_wrap),
		T(test_empty_and_misaligned),
		T(test_no_owner),
		T(test_stream_gemm_writeback),
		T(test_gemm_batch_shares_config),
		T(test_stream_vrelu_and_s4),
		T(test_stream_config_errors),
		T(test_bad_writeback),
		T(test_write_error_response),
		T(test_fetch_error),
		T(test_stream_read_error),
		T(test_timeouts),
		T(test_command_error_in_batch),
		T(test_ternary_via_descriptor),
		T(test_direct_start_clears_desc_status),
		T(test_desc_perf_clear),
		T(test_empty_follows_ring),
	};

	return cmocka_run_group_tests_name("datapath-descriptor", tests, NULL, NULL);
}
