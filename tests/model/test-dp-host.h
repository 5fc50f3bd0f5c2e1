/* SPDX-License-Identifier: (GPL-2.0-only OR MIT) */
/*
 * A small test host for the datapath tests (tests/model/test-dp*.c): a flat
 * DRAM buffer behind the model's host map callback, an interrupt recorder,
 * and MMIO helpers that go through the model's public API only, exactly as
 * a real host would. Expected values are never computed with model code.
 */
#ifndef __TEST_DP_HOST_H__
#define __TEST_DP_HOST_H__

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "e1_model.h"

#define DRAM_BASE	0x80000000ULL
#define DRAM_SIZE	0x4000U

/* Offsets in the model's flat space. */
#define DP(off)		(E1_WIN_DATAPATH * E1_WIN_SIZE + (off))

struct dp_host {
	struct e1_model m;
	u8 dram[DRAM_SIZE];
	unsigned int irq_rises;
	unsigned int irq_falls;
	bool irq_level;
	unsigned int maps;		/* map callbacks seen */
	/* Register snapshot taken from inside the first map callback. */
	bool snap_taken;
	u32 snap_ctrl;
	u32 snap_desc_status;
};

static inline void *dp_host_map(void *ctx, u64 addr, u64 len, bool write)
{
	struct dp_host *h = ctx;

	(void)write;
	h->maps++;
	if (!h->snap_taken) {
		/* What software would see if it read the block mid-command. */
		h->snap_taken = true;
		h->snap_ctrl = e1_model_read(&h->m, DP(E1_DP_CTRL_STATUS));
		h->snap_desc_status = e1_model_read(&h->m, DP(E1_DP_DESC_STATUS));
	}
	if (addr < DRAM_BASE || len > DRAM_SIZE || addr - DRAM_BASE > DRAM_SIZE - len)
		return NULL;
	return &h->dram[addr - DRAM_BASE];
}

static inline void dp_host_irq(void *ctx, unsigned int line, bool level)
{
	struct dp_host *h = ctx;

	if (line != E1_IRQ_DATAPATH)
		return;
	if (level)
		h->irq_rises++;
	else
		h->irq_falls++;
	h->irq_level = level;
}

/* A host on the reference instance, with the datapath timing given. */
static inline struct dp_host *dp_host_new_timing(u32 mem_latency, u32 timeout)
{
	struct dp_host *h = calloc(1, sizeof(*h));
	struct e1_model_config cfg;
	struct e1_model_host host = {
		.map = dp_host_map,
		.irq = dp_host_irq,
	};

	assert_non_null(h);
	host.ctx = h;
	e1_model_default_config(&cfg);
	if (mem_latency || timeout) {
		cfg.timing.dp_mem_latency = mem_latency;
		cfg.timing.dp_timeout = timeout;
	}
	e1_model_init(&h->m, &cfg, &host);
	return h;
}

static inline struct dp_host *dp_host_new(void)
{
	return dp_host_new_timing(0, 0);
}

static inline int dp_setup(void **state)
{
	*state = dp_host_new();
	return 0;
}

static inline int dp_teardown(void **state)
{
	free(*state);
	return 0;
}

static inline u32 rd(struct dp_host *h, u32 off)
{
	return e1_model_read(&h->m, DP(off));
}

static inline void wr(struct dp_host *h, u32 off, u32 val)
{
	e1_model_write(&h->m, DP(off), val);
}

/* Program a direct command, start it and return CTRL_STATUS. */
static inline u32 dp_cmd(struct dp_host *h, u32 op, u32 a, u32 b, u32 acc)
{
	wr(h, E1_DP_OP_A, a);
	wr(h, E1_DP_OP_B, b);
	wr(h, E1_DP_ACC, acc);
	wr(h, E1_DP_OPCODE, op);
	wr(h, E1_DP_CTRL_STATUS, E1_DP_CTRL_START);
	return rd(h, E1_DP_CTRL_STATUS);
}

#define ST_DONE		E1_DP_STATUS_DONE
#define ST_ERR		(E1_DP_STATUS_DONE | E1_DP_STATUS_ERROR)

/* Scratchpad byte access through the SCRATCH words, as software does it. */
static inline void scratch_fill(struct dp_host *h, const u8 *bytes)
{
	unsigned int i;

	for (i = 0; i < E1_DP_SCRATCH_WORDS; i++)
		wr(h, E1_DP_SCRATCH(i), (u32)bytes[4 * i] | (u32)bytes[4 * i + 1] << 8 |
		   (u32)bytes[4 * i + 2] << 16 | (u32)bytes[4 * i + 3] << 24);
}

static inline void scratch_dump(struct dp_host *h, u8 *bytes)
{
	unsigned int i;

	for (i = 0; i < E1_DP_SCRATCH_WORDS; i++) {
		u32 w = rd(h, E1_DP_SCRATCH(i));

		bytes[4 * i] = (u8)w;
		bytes[4 * i + 1] = (u8)(w >> 8);
		bytes[4 * i + 2] = (u8)(w >> 16);
		bytes[4 * i + 3] = (u8)(w >> 24);
	}
}

static inline u32 le32(const u8 *p)
{
	return (u32)p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 | (u32)p[3] << 24;
}

static inline void put32(u8 *p, u32 v)
{
	p[0] = (u8)v;
	p[1] = (u8)(v >> 8);
	p[2] = (u8)(v >> 16);
	p[3] = (u8)(v >> 24);
}

/* Deterministic PRNG for the randomized sweeps (xorshift32). */
static inline u32 rnd(u32 *s)
{
	u32 x = *s;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*s = x;
	return x;
}

/* All perf counters, read through MMIO. */
struct perf {
	u32 unsupported, cycles, macs, ops, errors, desc_cycles;
	u32 bytes_rd, bytes_wr, beats_rd, beats_wr, stall, scratch, thermal;
};

static inline void perf_read(struct dp_host *h, struct perf *p)
{
	p->unsupported = rd(h, E1_DP_PERF_UNSUPPORTED_OPS);
	p->cycles = rd(h, E1_DP_PERF_CYCLES);
	p->macs = rd(h, E1_DP_PERF_MACS);
	p->ops = rd(h, E1_DP_PERF_OPS);
	p->errors = rd(h, E1_DP_PERF_ERRORS);
	p->desc_cycles = rd(h, E1_DP_DESC_TIMEOUT_COUNT);
	p->bytes_rd = rd(h, E1_DP_DESC_BYTES_READ);
	p->bytes_wr = rd(h, E1_DP_DESC_BYTES_WRITTEN);
	p->beats_rd = rd(h, E1_DP_DESC_READ_BEATS);
	p->beats_wr = rd(h, E1_DP_DESC_WRITE_BEATS);
	p->stall = rd(h, E1_DP_PERF_STALL_CYCLES);
	p->scratch = rd(h, E1_DP_PERF_SCRATCH_BYTES);
	p->thermal = rd(h, E1_DP_PERF_THERMAL_THROTTLE);
}

#endif /* __TEST_DP_HOST_H__ */
