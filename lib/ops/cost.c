// SPDX-License-Identifier: MIT
/*
 * The lowering layer's cost model (cost.h): the device model's formulas
 * over the device's timing parameters.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "cost.h"

static const struct e1_timing *ops_timing(const struct e1npu_ops *ops,
					  struct e1_timing *def)
{
	if (ops->dev)
		return &ops->dev->timing;
	e1_timing_default(def);		/* CPU-only context: reference values */
	return def;
}

static uint32_t dim_or(uint32_t v, uint32_t def)
{
	return v ? v : def;
}

static uint64_t min64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/*
 * One descriptor of charge @c after @seq's last (as model/e1_v0.c overlaps
 * them): its first load under that one's idle DMA (G_OVERLAP), that one's
 * last store under its own (G_STORE_OV).
 */
static void seq_one(const struct e1_timing *t, struct ops_cost_seq *seq,
		    const struct e1_timing_cost *c)
{
	bool ov = t->gemmini & E1_TIMING_G_OVERLAP;
	uint64_t hid_load = ov && seq->idle && c->first ? min64(c->first, seq->idle) : 0;
	uint64_t hid_store = e1_timing_hidden_store(t, seq->store, c);

	seq->total += t->desc_fetch_cycles + c->total - hid_load - hid_store;
	seq->idle = c->idle - hid_store;
	seq->store = c->store;
}

struct seq_one_arg {
	const struct e1_timing *t;
	const struct e1_timing_cost *c;
};

static void seq_one_step(void *arg, struct ops_cost_seq *seq)
{
	const struct seq_one_arg *a = arg;

	seq_one(a->t, seq, a->c);
}

/* Append @count descriptors of charge @c. */
static void seq_add(const struct e1_timing *t, struct ops_cost_seq *seq,
		    const struct e1_timing_cost *c, uint64_t count)
{
	struct seq_one_arg a = { t, c };

	ops_cost_seq_repeat(seq, count, seq_one_step, &a);
}

void ops_cost_seq_matmul(const struct e1npu_ops *ops, struct ops_cost_seq *seq,
			 uint32_t m, uint32_t n, uint32_t k, uint64_t count)
{
	struct e1_timing def;
	const struct e1_timing *t = ops_timing(ops, &def);
	struct e1_timing_cost c;

	e1_timing_matmul_cost(t, dim_or(ops->info.array_rows, 16),
			      dim_or(ops->info.array_cols, 16), m, n, k, &c);
	seq_add(t, seq, &c, count);
}

void ops_cost_seq_conv(const struct e1npu_ops *ops, struct ops_cost_seq *seq,
		       uint32_t in_h, uint32_t in_w, uint32_t c_in, uint32_t c_out,
		       uint32_t ksz, uint32_t out_h, uint32_t out_w)
{
	struct e1_timing def;
	const struct e1_timing *t = ops_timing(ops, &def);
	struct e1_timing_cost c;

	e1_timing_conv_cost(t, dim_or(ops->info.array_rows, 16),
			    dim_or(ops->info.array_cols, 16), in_h, in_w, c_in, c_out,
			    ksz, out_h, out_w, &c);
	seq_add(t, seq, &c, 1);
}

int ops_lowering_from_env(enum ops_lowering *out)
{
	const char *v = getenv("E1NPU_OPS_LOWERING");

	*out = OPS_LOWERING_AUTO;
	if (!v || !*v || !strcmp(v, "auto"))
		return 0;
	if (!strcmp(v, "conv2d")) {
		*out = OPS_LOWERING_CONV2D;
		return 0;
	}
	if (!strcmp(v, "matmul")) {
		*out = OPS_LOWERING_MATMUL;
		return 0;
	}
	if (!strcmp(v, "packed")) {
		*out = OPS_LOWERING_PACKED;
		return 0;
	}
	if (!strcmp(v, "first")) {
		*out = OPS_LOWERING_FIRST;
		return 0;
	}
	return -EINVAL;
}

/*
 * The state a copy leaves (idle, store) depends only on the copy itself
 * and on the store before it, which from the second copy on is the copy's
 * own: so the third and every later copy start from the same state.
 */
void ops_cost_seq_repeat(struct ops_cost_seq *seq, uint64_t count,
			 void (*step)(void *arg, struct ops_cost_seq *seq), void *arg)
{
	uint64_t i, add = 0;

	for (i = 0; i < count && i < 3; i++) {
		uint64_t before = seq->total;

		step(arg, seq);
		add = seq->total - before;
	}
	if (count > 3)
		seq->total += (count - 3) * add;
}
