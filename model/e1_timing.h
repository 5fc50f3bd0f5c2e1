/* SPDX-License-Identifier: (GPL-2.0-only OR MIT) */
/*
 * Every parameter of the device model's cycle-approximate timing, in one
 * place. Formulas: Documentation/device-model.md.
 */
#ifndef __E1_TIMING_H__
#define __E1_TIMING_H__

#include "e1_model_shim.h"
#include "e1npu_hw.h"

struct e1_timing {
	u32 clock_mhz;		/* engine clock, for cycles -> time */
	/* v0 wrapper / systolic engine */
	u32 desc_fetch_cycles;	/* fetch + decode of one 64-byte descriptor */
	u32 dma_bytes_per_cycle; /* tensor DMA bandwidth */
	u32 fill_drain_cycles;	/* extra per array tile: 0 = rows + cols */
	u32 scratchpad_bytes;	/* on-chip A/B staging, for DMA reuse */
	u32 barrier_cycles;	/* drain cost of a barrier */
	/* datapath */
	u32 dp_mem_latency;	/* cycles one AXI-Lite read/write beat waits */
	u32 dp_timeout;		/* cycles before a missing response times out */
	/* v0 wrapper, added after the first pin (append only) */
	u32 v0_bus_timeout;	/* cycles before a missing response times out */
	/* v0 wrapper, Gemmini-following charges (append only) */
	u32 gemmini;		/* E1_TIMING_G_* behaviours; 0 = the first pin */
	u32 acc_bytes;		/* accumulator, bounds an output block (G_ACC) */
	u32 dram_latency;	/* cycles of an exposed DRAM transfer (G_LATENCY) */
};

/*
 * Charges that follow Gemmini (Documentation/device-model.md, "Sources of
 * the charges"), each switchable: 0 reproduces the first pin's charges.
 */
#define E1_TIMING_G_RAW_INPUT	E1_BIT(0) /* CONV2D DMA: raw input bytes */
#define E1_TIMING_G_WS		E1_BIT(1) /* weight-stationary streaming */
#define E1_TIMING_G_OVERLAP	E1_BIT(2) /* first load under previous op */
#define E1_TIMING_G_ACC		E1_BIT(3) /* output block fits half the acc */
#define E1_TIMING_G_LATENCY	E1_BIT(4) /* DRAM latency, exposed transfers */
#define E1_TIMING_G_STORE	E1_BIT(5) /* last block's store is exposed */
#define E1_TIMING_G_PIPE	E1_BIT(6) /* first slices not moved twice */
#define E1_TIMING_G_STORE_OV	E1_BIT(7) /* last store under next op */
#define E1_TIMING_G_ALL		0xffu
/*
 * Not a charge but an analysis (never the default): overlap across jobs
 * as if the ring never ran dry between them, the host's work in between
 * (requantizing one layer's int32 for the next) taking no time.
 */
#define E1_TIMING_G_XJOB	E1_BIT(8)
#define E1_TIMING_G_ANY		0x1ffu	/* every bit E1NPU_SIM_TIMING takes */

/* Reference values of every parameter (e1_timing_default() uses them). */
#define E1_TIMING_CLOCK_MHZ		1000
#define E1_TIMING_DESC_FETCH		32
#define E1_TIMING_DMA_BYTES_PER_CYCLE	16
#define E1_TIMING_FILL_DRAIN		0	/* rows + cols */
#define E1_TIMING_SCRATCHPAD_BYTES	(256 * 1024)
#define E1_TIMING_BARRIER		64
#define E1_TIMING_DP_MEM_LATENCY	4
#define E1_TIMING_DP_TIMEOUT		1024
#define E1_TIMING_V0_BUS_TIMEOUT	1024
#define E1_TIMING_GEMMINI		E1_TIMING_G_ALL
#define E1_TIMING_ACC_BYTES		(64 * 1024)
#define E1_TIMING_DRAM_LATENCY		64

/* Fill @t with the reference parameters. */
void e1_timing_default(struct e1_timing *t);

/*
 * The parts of one MATMUL or CONV2D charge the wrapper needs to overlap a
 * descriptor's first load with the previous one's execution (G_OVERLAP).
 * @total: the cycles of the op alone (what the *_cycles functions return);
 * @first_a, @first_b: the first load's A (activation) and B (weight) bytes;
 * @first: its cycles (bytes / bw, + DRAM latency with G_LATENCY);
 * @idle: cycles in which the load DMA waits for the array (compute-bound
 *	passes), which the next descriptor's first load may use;
 * @store: the exposed last store's cycles (G_STORE, latency included),
 *	which may run under the next descriptor's @idle (G_STORE_OV).
 */
struct e1_timing_cost {
	u64 total;
	u64 first_a;
	u64 first_b;
	u64 first;
	u64 idle;
	u64 store;
};

/*
 * Wrapper engine cycles of one MATMUL of [m x k] by [k x n] on a rows x cols
 * systolic array, without the descriptor fetch: blocks of outputs that fit
 * half the scratchpad (and, with G_ACC, half the accumulator), the array
 * streaming K per output tile plus fill/drain per tile (G_WS: streaming the
 * block's rows per weight tile, fill/drain once per pass), DMA
 * double-buffered against compute (max of the two per pass) plus the
 * non-overlapped first load (and, with G_STORE, the last store).
 */
u64 e1_timing_matmul_cycles(const struct e1_timing *t, u32 rows, u32 cols,
			    u32 m, u32 n, u32 k);
void e1_timing_matmul_cost(const struct e1_timing *t, u32 rows, u32 cols,
			   u32 m, u32 n, u32 k, struct e1_timing_cost *c);

/*
 * Wrapper engine cycles of one CONV2D_S8 without the descriptor fetch:
 * @in_h x @in_w x @c_in input (the tile with its halo), @ksz square kernel,
 * @out_h x @out_w x @c_out output. The lowering layer's cost model calls
 * this too, so both always charge the same. The im2col GEMM's charge; with
 * G_RAW_INPUT its A side moves min(raw input, im2col) bytes.
 */
u64 e1_timing_conv_cycles(const struct e1_timing *t, u32 rows, u32 cols,
			  u32 in_h, u32 in_w, u32 c_in, u32 c_out, u32 ksz,
			  u32 out_h, u32 out_w);
void e1_timing_conv_cost(const struct e1_timing *t, u32 rows, u32 cols,
			 u32 in_h, u32 in_w, u32 c_in, u32 c_out, u32 ksz,
			 u32 out_h, u32 out_w, struct e1_timing_cost *c);

/*
 * G_STORE_OV: the cycles of the previous descriptor's exposed last store
 * (@prev_store) that run under the idle DMA of the next one (@c), when the
 * timing overlaps them; the caller decides whether they may (same run of
 * the ring, no barrier, no shared bytes). The next descriptor's own next
 * first load gets only @c->idle minus these.
 */
u64 e1_timing_hidden_store(const struct e1_timing *t, u64 prev_store,
			   const struct e1_timing_cost *c);

/* Bandwidth-bound work (RELU, MAXPOOL): @bytes moved through the DMA. */
u64 e1_timing_stream_cycles(const struct e1_timing *t, u32 bytes);

#endif /* __E1_TIMING_H__ */
