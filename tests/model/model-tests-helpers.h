/* SPDX-License-Identifier: (GPL-2.0-only OR MIT) */
/*
 * Test host for the device model's v0 wrapper tests: a flat simulated DRAM,
 * a log of every map() call and every interrupt edge, ring helpers and a
 * deterministic PRNG. Not a stable interface.
 */
#ifndef __MODEL_TESTS_HELPERS_H__
#define __MODEL_TESTS_HELPERS_H__

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "e1_model.h"

#define TH_DRAM_BASE	0x80000000ULL
#define TH_DRAM_SIZE	(16u << 20)
#define TH_RING_BYTES	(E1_V0_RING_LEN_MAX * E1_V0_DESC_SIZE)
#define TH_MAX_MAPS	(1u << 16)
#define TH_MAX_EDGES	1024

struct th_map {
	u64 addr;
	u64 len;
	bool write;
};

struct th_edge {
	unsigned int line;
	bool level;
};

struct th {
	struct e1_model *m;
	u8 *dram;
	u64 brk;		/* bump allocator, bus address */
	u32 ring_len;
	struct th_map *maps;
	unsigned int nmaps;
	unsigned int maps_lost;
	struct th_edge edges[TH_MAX_EDGES];
	unsigned int nedges;
	bool line[E1_IRQ_COUNT];
};

/* A strided tensor as the test computes it, for touch checks. */
struct th_tensor {
	u64 addr;
	u32 rows;
	u32 row_bytes;
	u32 stride;
	bool write;
};

/* New host + model (default config, or @cfg), ring of @ring_len at DRAM base,
 * TENSOR_MEM = all of DRAM after the ring, CTRL = enable | irq_enable.
 */
struct th *th_new(const struct e1_model_config *cfg, u32 ring_len);
void th_free(struct th *h);
/* Re-initialise the model (power-on state, no register written). */
void th_reinit(struct th *h, const struct e1_model_config *cfg);

u32 th_rd(struct th *h, u32 off);
void th_wr(struct th *h, u32 off, u32 val);
u32 th_status(struct th *h);
u32 th_err_code(struct th *h);
u32 th_q_level(struct th *h);

/* Tensor memory: 64-byte aligned bump allocation inside DRAM, zeroed. */
u64 th_alloc(struct th *h, u64 size);
void *th_ptr(struct th *h, u64 addr);
u64 th_ring_addr(const struct th *h);

/* Write descriptor words at ring slot @idx. */
void th_put_desc(struct th *h, u32 idx, const u32 *w);
/* Put @w at DESC_HEAD, ring the doorbell with head + 1; returns the slot. */
u32 th_submit(struct th *h, const u32 *w);
unsigned int th_run(struct th *h);
void th_clear_log(struct th *h);

/* Descriptor builders. */
void th_desc_matmul(u32 *w, u32 op, u32 m, u32 n, u32 k, u64 a, u32 as, u64 b,
		    u32 bs, u64 c, u32 cs);
void th_desc_nop(u32 *w, u32 op);

/*
 * Every tensor-side map() call since th_clear_log() (calls inside the ring
 * are descriptor fetches and are skipped) touches only bytes of @t, in the
 * right direction, and every byte of every @t is mapped.
 */
void th_assert_touched_exactly(struct th *h, const struct th_tensor *t, int n);

/* Deterministic PRNG (xorshift32). */
u32 th_rand(u32 *state);
void th_fill_rand(u32 *state, s8 *p, size_t n);

u32 th_round16(u32 v);

#endif /* __MODEL_TESTS_HELPERS_H__ */
