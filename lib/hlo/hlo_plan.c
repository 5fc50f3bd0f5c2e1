// SPDX-License-Identifier: MIT
/*
 * The partition report's command-buffer batches and tensor arena plan
 * (the datapath document's command_buffer_batches / tensor_arena_plan).
 */
#include <stdlib.h>
#include <string.h>

#include "hlo.h"
#include "hlo_plan.h"
#include "hlo_type.h"

/* Ring limits a batch of NPU ops must fit (Documentation/hlo.md). */
#define BATCH_MAX_WRAPPER	255u
#define BATCH_MAX_DATAPATH	7u
#define ARENA_ALIGN		16u

/*
 * Consecutive NPU ops share a batch until one would pass 255 wrapper or 7
 * datapath operations; a CPU op ends the batch. Before a run an NPU op
 * counts as one wrapper operation; after it, as what it submitted.
 */
void hlo_plan_batches(struct hlo_func *f)
{
	uint32_t wr = 0, dp = 0;
	int cur = -1, open = 0;

	for (int i = 0; i < f->nops; i++) {
		struct hlo_op *op = &f->ops[i];
		uint32_t w = op->hw_ops ? op->hw_wr : 1, d = op->hw_ops ? op->hw_dp : 0;

		op->batch = -1;
		if (op->engine == E1NPU_HLO_ENGINE_CPU) {
			open = 0;
			continue;
		}
		if (op->engine != E1NPU_HLO_ENGINE_NPU)
			continue;
		if (!open || wr + w > BATCH_MAX_WRAPPER || dp + d > BATCH_MAX_DATAPATH) {
			cur++;
			open = 1;
			wr = dp = 0;
		}
		wr += w;
		dp += d;
		op->batch = cur;
	}
	f->nbatches = cur + 1;
}

struct slot {
	uint64_t off, size;
	int last;
};

static uint64_t align_up(uint64_t x)
{
	return (x + ARENA_ALIGN - 1) & ~(uint64_t)(ARENA_ALIGN - 1);
}

/*
 * Every materialized result gets a 16-byte aligned slot, first fit among
 * the slots live at its definition; a slot is free after its value's last
 * use (values returned live to the end).
 */
void hlo_plan_arena(struct hlo_func *f)
{
	struct slot *live = calloc((size_t)f->nops + 1, sizeof(*live));
	int nlive = 0;

	f->arena_peak = 0;
	f->arena_total = 0;
	if (!live)
		return;
	for (int i = 0; i < f->nops; i++) {
		struct hlo_op *op = &f->ops[i];
		int64_t n;
		uint64_t size, off = 0;
		int last = i;

		op->arena_off = op->arena_size = 0;
		/* free slots whose value died before this op */
		for (int k = 0; k < nlive;)
			if (live[k].last < i)
				live[k] = live[--nlive];
			else
				k++;
		if (op->nres != 1 || op->engine == E1NPU_HLO_ENGINE_FUSED ||
		    op->kind == HOP_CALL || op->kind == HOP_CUSTOM_CALL)
			continue;
		n = hlo_nelems(&op->rt[0]);
		if (n <= 0)
			continue;
		size = align_up((uint64_t)n * hlo_elem_bytes(&op->rt[0]));
		for (int o = i + 1; o < f->nops; o++)
			for (int k = 0; k < f->ops[o].nopnd; k++)
				if (f->ops[o].opnd[k] == op->res)
					last = f->ops[o].kind == HOP_RETURN ? f->nops : o;
		/* first fit: lowest offset not overlapping a live slot */
		for (int again = 1; again;) {
			again = 0;
			for (int k = 0; k < nlive; k++)
				if (off < live[k].off + live[k].size && live[k].off < off + size) {
					off = live[k].off + live[k].size;
					again = 1;
				}
		}
		live[nlive].off = off;
		live[nlive].size = size;
		live[nlive].last = last;
		nlive++;
		op->arena_off = off;
		op->arena_size = size;
		f->arena_total += size;
		if (off + size > f->arena_peak)
			f->arena_peak = off + size;
	}
	free(live);
}
