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
};

/* Fill @t with the reference parameters. */
void e1_timing_default(struct e1_timing *t);

#endif /* __E1_TIMING_H__ */
