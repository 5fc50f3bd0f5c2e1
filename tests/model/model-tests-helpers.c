// SPDX-License-Identifier: (GPL-2.0-only OR MIT)
/*
 * Test host for the device model's v0 wrapper tests.
 */
#include <stdlib.h>
#include <string.h>

#include "model-tests-helpers.h"

static void *th_map_cb(void *ctx, u64 addr, u64 len, bool write)
{
	struct th *h = ctx;

	if (h->nmaps < TH_MAX_MAPS) {
		h->maps[h->nmaps].addr = addr;
		h->maps[h->nmaps].len = len;
		h->maps[h->nmaps].write = write;
		h->nmaps++;
	} else {
		h->maps_lost++;
	}
	if (addr < TH_DRAM_BASE || len > TH_DRAM_SIZE ||
	    addr - TH_DRAM_BASE > TH_DRAM_SIZE - len)
		return NULL;
	return h->dram + (addr - TH_DRAM_BASE);
}

static void th_irq_cb(void *ctx, unsigned int line, bool level)
{
	struct th *h = ctx;

	assert_true(line < E1_IRQ_COUNT);
	/* Edges only: a callback never repeats the current level. */
	assert_true(h->line[line] != level);
	h->line[line] = level;
	if (h->nedges < TH_MAX_EDGES) {
		h->edges[h->nedges].line = line;
		h->edges[h->nedges].level = level;
		h->nedges++;
	}
}

struct th *th_new(const struct e1_model_config *cfg, u32 ring_len)
{
	struct e1_model_config def;
	struct e1_model_host host;
	struct th *h = calloc(1, sizeof(*h));

	assert_non_null(h);
	h->m = calloc(1, sizeof(*h->m));
	h->dram = calloc(1, TH_DRAM_SIZE);
	h->maps = calloc(TH_MAX_MAPS, sizeof(*h->maps));
	assert_non_null(h->m);
	assert_non_null(h->dram);
	assert_non_null(h->maps);
	if (!cfg) {
		e1_model_default_config(&def);
		cfg = &def;
	}
	host.map = th_map_cb;
	host.irq = th_irq_cb;
	host.ctx = h;
	e1_model_init(h->m, cfg, &host);
	h->brk = TH_DRAM_BASE + TH_RING_BYTES;
	h->ring_len = ring_len;
	th_wr(h, E1_V0_DESC_BASE_LO, (u32)TH_DRAM_BASE);
	th_wr(h, E1_V0_DESC_BASE_HI, (u32)(TH_DRAM_BASE >> 32));
	th_wr(h, E1_V0_DESC_RING_LEN, ring_len);
	th_wr(h, E1_V0_TENSOR_MEM_BASE_LO, (u32)(TH_DRAM_BASE + TH_RING_BYTES));
	th_wr(h, E1_V0_TENSOR_MEM_BASE_HI, (u32)((TH_DRAM_BASE + TH_RING_BYTES) >> 32));
	th_wr(h, E1_V0_TENSOR_MEM_LEN, TH_DRAM_SIZE - TH_RING_BYTES);
	th_wr(h, E1_V0_IRQ_MASK, E1_V0_IRQ_ALL);
	th_wr(h, E1_V0_CTRL, E1_V0_CTRL_ENABLE | E1_V0_CTRL_IRQ_ENABLE);
	return h;
}

void th_reinit(struct th *h, const struct e1_model_config *cfg)
{
	struct e1_model_config def;
	struct e1_model_host host = { th_map_cb, th_irq_cb, h };

	if (!cfg) {
		e1_model_default_config(&def);
		cfg = &def;
	}
	e1_model_init(h->m, cfg, &host);
	memset(h->line, 0, sizeof(h->line));
	h->nedges = 0;
}

void th_free(struct th *h)
{
	free(h->maps);
	free(h->dram);
	free(h->m);
	free(h);
}

u32 th_rd(struct th *h, u32 off)
{
	return e1_model_read(h->m, E1_WIN_WRAPPER * E1_WIN_SIZE + off);
}

void th_wr(struct th *h, u32 off, u32 val)
{
	e1_model_write(h->m, E1_WIN_WRAPPER * E1_WIN_SIZE + off, val);
}

u32 th_status(struct th *h)
{
	return th_rd(h, E1_V0_STATUS);
}

u32 th_err_code(struct th *h)
{
	return E1_FIELD_GET(E1_V0_STATUS_ERR_CODE, th_status(h));
}

u32 th_q_level(struct th *h)
{
	return E1_FIELD_GET(E1_V0_STATUS_Q_LEVEL, th_status(h));
}

u64 th_alloc(struct th *h, u64 size)
{
	u64 a = (h->brk + 63) & ~63ULL;

	assert_true(a + size <= TH_DRAM_BASE + TH_DRAM_SIZE);
	h->brk = a + size;
	memset(th_ptr(h, a), 0, size);
	return a;
}

void *th_ptr(struct th *h, u64 addr)
{
	return h->dram + (addr - TH_DRAM_BASE);
}

u64 th_ring_addr(const struct th *h)
{
	(void)h;
	return TH_DRAM_BASE;
}

void th_put_desc(struct th *h, u32 idx, const u32 *w)
{
	u8 *p = h->dram + (size_t)idx * E1_V0_DESC_SIZE;
	int i;

	for (i = 0; i < E1_V0_DESC_WORDS; i++) {
		p[4 * i] = (u8)w[i];
		p[4 * i + 1] = (u8)(w[i] >> 8);
		p[4 * i + 2] = (u8)(w[i] >> 16);
		p[4 * i + 3] = (u8)(w[i] >> 24);
	}
}

u32 th_submit(struct th *h, const u32 *w)
{
	u32 idx = th_rd(h, E1_V0_DESC_HEAD);

	th_put_desc(h, idx, w);
	th_wr(h, E1_V0_DESC_DOORBELL, (idx + 1) & (h->ring_len - 1));
	return idx;
}

unsigned int th_run(struct th *h)
{
	return e1_model_run(h->m);
}

void th_clear_log(struct th *h)
{
	h->nmaps = 0;
	h->maps_lost = 0;
}

void th_desc_matmul(u32 *w, u32 op, u32 m, u32 n, u32 k, u64 a, u32 as, u64 b,
		    u32 bs, u64 c, u32 cs)
{
	memset(w, 0, E1_V0_DESC_WORDS * sizeof(*w));
	w[E1_V0_DW_OP] = op | E1_V0_FLAG_SIGNED_INPUT;
	w[E1_V0_DW_SHAPE_M] = m;
	w[E1_V0_DW_SHAPE_N] = n;
	w[E1_V0_DW_SHAPE_K] = k;
	w[E1_V0_DW_A_LO] = (u32)a;
	w[E1_V0_DW_A_HI] = (u32)(a >> 32);
	w[E1_V0_DW_B_LO] = (u32)b;
	w[E1_V0_DW_B_HI] = (u32)(b >> 32);
	w[E1_V0_DW_C_LO] = (u32)c;
	w[E1_V0_DW_C_HI] = (u32)(c >> 32);
	w[E1_V0_DW_A_STRIDE] = as;
	w[E1_V0_DW_B_STRIDE] = bs;
	w[E1_V0_DW_C_STRIDE] = cs;
}

void th_desc_nop(u32 *w, u32 op)
{
	memset(w, 0, E1_V0_DESC_WORDS * sizeof(*w));
	w[E1_V0_DW_OP] = op;
}

static void mark(u8 *mask, u64 lo, u64 len, u8 bit)
{
	u64 i;

	assert_true(lo >= TH_DRAM_BASE + TH_RING_BYTES);
	assert_true(lo + len <= TH_DRAM_BASE + TH_DRAM_SIZE);
	for (i = 0; i < len; i++)
		mask[lo - TH_DRAM_BASE + i] |= bit;
}

void th_assert_touched_exactly(struct th *h, const struct th_tensor *t, int n)
{
	u8 *got = calloc(1, TH_DRAM_SIZE), *want = calloc(1, TH_DRAM_SIZE);
	unsigned int i;
	int j;
	u32 r;

	assert_non_null(got);
	assert_non_null(want);
	assert_int_equal(h->maps_lost, 0);
	for (i = 0; i < h->nmaps; i++) {
		const struct th_map *mp = &h->maps[i];

		if (mp->addr >= TH_DRAM_BASE && mp->addr < TH_DRAM_BASE + TH_RING_BYTES) {
			/* A descriptor fetch: one whole slot, read only. */
			assert_false(mp->write);
			assert_int_equal(mp->len, E1_V0_DESC_SIZE);
			continue;
		}
		mark(got, mp->addr, mp->len, mp->write ? 2 : 1);
	}
	for (j = 0; j < n; j++)
		for (r = 0; r < t[j].rows; r++)
			mark(want, t[j].addr + (u64)r * t[j].stride, t[j].row_bytes,
			     t[j].write ? 2 : 1);
	assert_memory_equal(got, want, TH_DRAM_SIZE);
	free(got);
	free(want);
}

u32 th_rand(u32 *state)
{
	u32 x = *state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*state = x;
	return x;
}

void th_fill_rand(u32 *state, s8 *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (s8)(th_rand(state) >> 24);
}

u32 th_round16(u32 v)
{
	return (v + 15) & ~15u;
}
