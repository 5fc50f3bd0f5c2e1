// SPDX-License-Identifier: (GPL-2.0-only OR MIT)
/*
 * e1 NPU device model: cycle-approximate timing of the v0 wrapper engine.
 * Integer only; every parameter comes from struct e1_timing. The formulas
 * are explained, with numbers, in Documentation/device-model.md.
 */
#include "e1_timing.h"

void e1_timing_default(struct e1_timing *t)
{
	memset(t, 0, sizeof(*t));
	t->clock_mhz = E1_TIMING_CLOCK_MHZ;
	t->desc_fetch_cycles = E1_TIMING_DESC_FETCH;
	t->dma_bytes_per_cycle = E1_TIMING_DMA_BYTES_PER_CYCLE;
	t->fill_drain_cycles = E1_TIMING_FILL_DRAIN;
	t->scratchpad_bytes = E1_TIMING_SCRATCHPAD_BYTES;
	t->barrier_cycles = E1_TIMING_BARRIER;
	t->dp_mem_latency = E1_TIMING_DP_MEM_LATENCY;
	t->dp_timeout = E1_TIMING_DP_TIMEOUT;
	t->v0_bus_timeout = E1_TIMING_V0_BUS_TIMEOUT;
	t->gemmini = E1_TIMING_GEMMINI;
	t->acc_bytes = E1_TIMING_ACC_BYTES;
	t->dram_latency = E1_TIMING_DRAM_LATENCY;
}

static u32 div_up(u32 a, u32 b)
{
	return a / b + (a % b ? 1 : 0);
}

static u64 div_up64(u64 a, u64 b)
{
	return a / b + (a % b ? 1 : 0);
}

static u32 bw_of(const struct e1_timing *t)
{
	return t->dma_bytes_per_cycle ? t->dma_bytes_per_cycle : 1;
}

u64 e1_timing_hidden_store(const struct e1_timing *t, u64 prev_store,
			   const struct e1_timing_cost *c)
{
	if (!(t->gemmini & E1_TIMING_G_STORE_OV))
		return 0;
	return prev_store < c->idle ? prev_store : c->idle;
}

u64 e1_timing_stream_cycles(const struct e1_timing *t, u32 bytes)
{
	return div_up(bytes, bw_of(t));
}

/* One GEMM as the wrapper runs it; @a_total = A bytes of one M x K sweep. */
struct gemm {
	const struct e1_timing *t;
	u32 rows, cols, fd;
	u32 m, n, k;
	u64 a_total;
	u64 lat;	/* DRAM latency of an exposed transfer */
};

static bool has(const struct gemm *g, u32 flag)
{
	return g->t->gemmini & flag;
}

/* A bytes of an mb x kc slice: the im2col's, or their share of @a_total. */
static u64 a_bytes(const struct gemm *g, u32 mb, u32 kc)
{
	u64 im2col = (u64)g->m * g->k, slice = (u64)mb * kc;

	if (g->a_total >= im2col)
		return slice;
	return div_up64(g->a_total * slice, im2col);
}

/*
 * Array cycles of one pass (an mb x nb block over a kc slice of K).
 * Output-stationary (the first pin): one rows x cols output tile at a time,
 * kc cycles of streaming plus fill/drain per tile. Weight-stationary
 * (G_WS, Gemmini's loop_ws/loop_conv_ws): each rows x cols weight tile is
 * preloaded (rows cycles, hidden under the previous tile's stream by the
 * PEs' double-buffered weights) and the block's mb rows stream through it;
 * the array fills and drains once per pass.
 */
static u64 compute_cycles(const struct gemm *g, u32 mb, u32 nb, u32 kc)
{
	if (has(g, E1_TIMING_G_WS))
		return (u64)div_up(nb, g->cols) * div_up(kc, g->rows) *
		       (mb > g->rows ? mb : g->rows) + g->fd;
	return (u64)div_up(mb, g->rows) * div_up(nb, g->cols) * (kc + g->fd);
}

/*
 * One pass: DMA (the A and B slices in, the block's outputs out when
 * @store) double-buffered against compute, so the pass costs the max; the
 * cycles the load DMA waits for the array go to @idle.
 */
static u64 pass_cycles(const struct gemm *g, u32 mb, u32 nb, u32 kc,
		       bool store, u64 credit, u64 *idle)
{
	u64 compute = compute_cycles(g, mb, nb, kc);
	u64 bytes = a_bytes(g, mb, kc) + (u64)kc * nb +
		    (store ? (u64)mb * nb * 4 : 0);
	u64 dma;

	bytes = bytes > credit ? bytes - credit : 0;
	dma = div_up64(bytes, bw_of(g->t));

	if (compute > dma) {
		*idle += compute - dma;
		return compute;
	}
	return dma;
}

/*
 * One mb x nb block over all of K in slices of kb. The last block of the
 * op (@final, G_STORE) cannot hide its store under a next block: it is
 * charged after the block.
 */
static u64 block_cycles(const struct gemm *g, u32 mb, u32 nb, u32 kb,
			bool final, u64 credit, u64 *idle, u64 *store)
{
	u64 c = 0;
	u32 k0;

	for (k0 = 0; k0 < g->k; k0 += kb) {
		u32 kc = g->k - k0 < kb ? g->k - k0 : kb;
		bool last = k0 + kc == g->k;

		c += pass_cycles(g, mb, nb, kc, last && !final,
				 k0 ? 0 : credit, idle);
	}
	if (final) {
		*store = div_up64((u64)mb * nb * 4, bw_of(g->t)) + g->lat;
		c += *store;
	}
	return c;
}

/*
 * G_ACC: a block's int32 outputs must fit half the accumulator (Gemmini
 * double-buffers it, as tiled_matmul_auto's ACC_ROWS / 2): shrink the
 * larger side by whole tiles until they do.
 */
static void fit_acc(const struct gemm *g, u32 *bm, u32 *bn)
{
	u64 outs = g->t->acc_bytes / 8;

	if (!has(g, E1_TIMING_G_ACC) || !g->t->acc_bytes)
		return;
	while ((u64)*bm * *bn > outs) {
		if (*bm > g->rows && (*bm >= *bn || *bn <= g->cols))
			*bm = (*bm - 1) / g->rows * g->rows;
		else if (*bn > g->cols)
			*bn = (*bn - 1) / g->cols * g->cols;
		else
			break;
	}
}

static void gemm_cost(struct gemm *g, struct e1_timing_cost *c)
{
	const struct e1_timing *t = g->t;
	u32 rows = g->rows, cols = g->cols, m = g->m, n = g->n, k = g->k;
	u32 half = t->scratchpad_bytes / 2;
	u32 bm, bn, kb, mcls[2][2], ncls[2][2];
	u64 credit;
	bool store = has(g, E1_TIMING_G_STORE);
	int i, j;

	memset(c, 0, sizeof(*c));
	if (!rows || !cols || !m || !n || !k)
		return;
	g->fd = t->fill_drain_cycles ? t->fill_drain_cycles : rows + cols;
	g->lat = has(g, E1_TIMING_G_LATENCY) ? t->dram_latency : 0;
	if (half < rows + cols)
		half = rows + cols;
	/* Biggest square-ish block of whole tiles whose A and B slices fit. */
	if ((u64)k * (rows + cols) <= half) {
		u32 s = half / (k * (rows + cols));

		kb = k;
		bm = s * rows;
		bn = s * cols;
		if (bm > div_up(m, rows) * rows)
			bm = div_up(m, rows) * rows;
		if (bn > div_up(n, cols) * cols)
			bn = div_up(n, cols) * cols;
	} else {
		bm = rows;
		bn = cols;
		kb = half / (rows + cols);
	}
	if (bm > m)
		bm = m;
	if (bn > n)
		bn = n;
	if (kb > k)
		kb = k;
	fit_acc(g, &bm, &bn);

	/* Full blocks and the remainder, per dimension: {size, count}. */
	mcls[0][0] = bm;
	mcls[0][1] = m / bm;
	mcls[1][0] = m % bm;
	mcls[1][1] = m % bm ? 1 : 0;
	ncls[0][0] = bn;
	ncls[0][1] = n / bn;
	ncls[1][0] = n % bn;
	ncls[1][1] = n % bn ? 1 : 0;

	/* The first slices are loaded before anything can overlap them. */
	c->first_a = a_bytes(g, bm, kb);
	c->first_b = (u64)kb * bn;
	c->first = div_up64(c->first_a + c->first_b, bw_of(t)) + g->lat;
	c->total = c->first;
	/* G_PIPE: the first pass does not move its slices again. */
	credit = has(g, E1_TIMING_G_PIPE) ? c->first_a + c->first_b : 0;
	for (i = 0; i < 2; i++) {
		for (j = 0; j < 2; j++) {
			u64 count = (u64)mcls[i][1] * ncls[j][1], idle = 0;
			bool last = i == (mcls[1][1] ? 1 : 0) &&
				    j == (ncls[1][1] ? 1 : 0);

			if (!count)
				continue;
			if (credit) {
				/* The op's first block: class (0, 0). */
				count--;
				c->total += block_cycles(g, mcls[i][0], ncls[j][0], kb,
							 store && last && !count,
							 credit, &c->idle, &c->store);
				credit = 0;
			}
			if (store && last && count) {
				count--;
				c->total += block_cycles(g, mcls[i][0], ncls[j][0],
							 kb, true, 0, &c->idle, &c->store);
			}
			if (!count)
				continue;
			c->total += count * block_cycles(g, mcls[i][0], ncls[j][0],
							 kb, false, 0, &idle, NULL);
			c->idle += count * idle;
		}
	}
}

void e1_timing_matmul_cost(const struct e1_timing *t, u32 rows, u32 cols,
			   u32 m, u32 n, u32 k, struct e1_timing_cost *c)
{
	struct gemm g = {
		.t = t, .rows = rows, .cols = cols, .m = m, .n = n, .k = k,
		.a_total = (u64)m * k,
	};

	gemm_cost(&g, c);
}

u64 e1_timing_matmul_cycles(const struct e1_timing *t, u32 rows, u32 cols,
			    u32 m, u32 n, u32 k)
{
	struct e1_timing_cost c;

	e1_timing_matmul_cost(t, rows, cols, m, n, k, &c);
	return c.total;
}

/*
 * The im2col GEMM: [out_h*out_w x k*k*c_in] by [.. x c_out]. Its A side is
 * the im2col'd activations (the first pin) or, with G_RAW_INPUT, the raw
 * input tile, which Gemmini moves in once and expands on chip (never more
 * than the im2col: a strided 1x1 skips pixels).
 */
void e1_timing_conv_cost(const struct e1_timing *t, u32 rows, u32 cols,
			 u32 in_h, u32 in_w, u32 c_in, u32 c_out, u32 ksz,
			 u32 out_h, u32 out_w, struct e1_timing_cost *c)
{
	struct gemm g = {
		.t = t, .rows = rows, .cols = cols, .m = out_h * out_w,
		.n = c_out, .k = ksz * ksz * c_in,
	};
	u64 raw = (u64)in_h * in_w * c_in;

	g.a_total = (u64)g.m * g.k;
	if ((t->gemmini & E1_TIMING_G_RAW_INPUT) && raw < g.a_total)
		g.a_total = raw;
	gemm_cost(&g, c);
}

u64 e1_timing_conv_cycles(const struct e1_timing *t, u32 rows, u32 cols,
			  u32 in_h, u32 in_w, u32 c_in, u32 c_out, u32 ksz,
			  u32 out_h, u32 out_w)
{
	struct e1_timing_cost c;

	e1_timing_conv_cost(t, rows, cols, in_h, in_w, c_in, c_out, ksz,
			    out_h, out_w, &c);
	return c.total;
}
