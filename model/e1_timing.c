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
}

static u32 div_up(u32 a, u32 b)
{
	return a / b + (a % b ? 1 : 0);
}

static u32 bw_of(const struct e1_timing *t)
{
	return t->dma_bytes_per_cycle ? t->dma_bytes_per_cycle : 1;
}

u64 e1_timing_stream_cycles(const struct e1_timing *t, u32 bytes)
{
	return div_up(bytes, bw_of(t));
}

/*
 * One scratchpad pass: an mb x nb block of outputs over a kc slice of K.
 * Compute: one rows x cols tile at a time, kc cycles of streaming plus the
 * fill/drain of the array. DMA: the A and B slices in, the outputs out after
 * the last slice. Double buffering overlaps them: the pass costs the max.
 */
static u64 pass_cycles(const struct e1_timing *t, u32 rows, u32 cols, u32 fd,
		       u32 mb, u32 nb, u32 kc, bool last)
{
	u64 compute = (u64)div_up(mb, rows) * div_up(nb, cols) * (kc + fd);
	u32 bytes = mb * kc + kc * nb + (last ? mb * nb * 4 : 0);
	u64 dma = div_up(bytes, bw_of(t));

	return compute > dma ? compute : dma;
}

u64 e1_timing_matmul_cycles(const struct e1_timing *t, u32 rows, u32 cols,
			    u32 m, u32 n, u32 k)
{
	u32 half = t->scratchpad_bytes / 2;
	u32 fd = t->fill_drain_cycles ? t->fill_drain_cycles : rows + cols;
	u32 bm, bn, kb, mcls[2][2], ncls[2][2];
	u64 total;
	int i, j;

	if (!rows || !cols || !m || !n || !k)
		return 0;
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
	total = e1_timing_stream_cycles(t, bm * kb + kb * bn);
	for (i = 0; i < 2; i++) {
		for (j = 0; j < 2; j++) {
			u64 count = (u64)mcls[i][1] * ncls[j][1];
			u64 per = 0;
			u32 k0;

			if (!count)
				continue;
			for (k0 = 0; k0 < k; k0 += kb) {
				u32 kc = k - k0 < kb ? k - k0 : kb;

				per += pass_cycles(t, rows, cols, fd, mcls[i][0],
						   ncls[j][0], kc, k0 + kc == k);
			}
			total += count * per;
		}
	}
	return total;
}

u64 e1_timing_conv_cycles(const struct e1_timing *t, u32 rows, u32 cols,
			  u32 in_h, u32 in_w, u32 c_in, u32 c_out, u32 ksz,
			  u32 out_h, u32 out_w)
{
	(void)in_h;
	(void)in_w;
	/* charged as the im2col matmul: [out_h*out_w x k*k*c_in] by [.. x c_out] */
	return e1_timing_matmul_cycles(t, rows, cols, out_h * out_w, c_out,
				       ksz * ksz * c_in);
}
