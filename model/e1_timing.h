/* SPDX-License-Identifier: (GPL-2.0-only OR MIT) */
/*
 * Every parameter of the device model's cycle-approximate timing, in one
 * place. Formulas: Documentation/device-model.md.
 */
#ifndef __E1_TIMING_H__
#define __E1_TIMING_H__

#include "e1_model_shim.h"

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
};

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

/* Fill @t with the reference parameters. */
void e1_timing_default(struct e1_timing *t);

/*
 * Wrapper engine cycles of one MATMUL of [m x k] by [k x n] on a rows x cols
 * systolic array, without the descriptor fetch: tiles of rows x cols outputs
 * streaming K plus fill/drain per tile, DMA double-buffered against compute
 * (max of the two per scratchpad pass) plus the non-overlapped first load.
 */
u64 e1_timing_matmul_cycles(const struct e1_timing *t, u32 rows, u32 cols,
			    u32 m, u32 n, u32 k);

/*
 * Wrapper engine cycles of one CONV2D_S8 without the descriptor fetch:
 * @in_h x @in_w x @c_in input (the tile with its halo), @ksz square kernel,
 * @out_h x @out_w x @c_out output. The lowering layer's cost model calls
 * this too, so both always charge the same.
 */
u64 e1_timing_conv_cycles(const struct e1_timing *t, u32 rows, u32 cols,
			  u32 in_h, u32 in_w, u32 c_in, u32 c_out, u32 ksz,
			  u32 out_h, u32 out_w);

/* Bandwidth-bound work (RELU, MAXPOOL): @bytes moved through the DMA. */
u64 e1_timing_stream_cycles(const struct e1_timing *t, u32 bytes);

#endif /* __E1_TIMING_H__ */
