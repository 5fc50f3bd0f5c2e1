// SPDX-License-Identifier: MIT
/*
 * stablehlo.dot_general / stablehlo.dot geometry. Dimension numbers come in
 * the pretty form (batching_dims = [0] x [0], contracting_dims = [2] x [1])
 * or the generic one (#stablehlo.dot<lhs_batching_dimensions = ...>); every
 * index is range-checked, used once per side, paired with a dimension of
 * the same size, and the result type must be batch x lhs free x rhs free.
 */
#include <errno.h>
#include <string.h>

#include "hlo_dot.h"
#include "hlo_ctx.h"
#include "hlo_type.h"

#define DOT_ERR(h, op, fmt, ...) \
	hlo_errf(h, -EINVAL, "%s (line %d): " fmt, (op)->name, (op)->line, ##__VA_ARGS__)

/* The four lists of dimension numbers as written; -1 when malformed. */
static int read_dims(const struct hlo_op *op, int64_t v[4][HLO_MAX_RANK], int n[4])
{
	static const char *const key[4] = {
		"lhs_batching_dimensions", "rhs_batching_dimensions",
		"lhs_contracting_dimensions", "rhs_contracting_dimensions",
	};
	const struct hlo_attr *d = hlo_attr_get(op, "dot_dimension_numbers");
	const struct hlo_attr *b = hlo_attr_get(op, "batching_dims");
	const struct hlo_attr *c = hlo_attr_get(op, "contracting_dims");

	memset(n, 0, 4 * sizeof(*n));
	if (d) {
		if (d->kind != AV_DICT)
			return -1;
		for (int i = 0; i < d->n; i++) {
			int w;

			for (w = 0; w < 4; w++)
				if (d->items[i]->key && !strcmp(d->items[i]->key, key[w]))
					break;
			if (w == 4)
				return -1;	/* an unknown entry */
			n[w] = hlo_attr_ints(d->items[i], v[w], HLO_MAX_RANK);
			if (n[w] < 0)
				return -1;
		}
		return 0;
	}
	if (b) {
		if (b->kind != AV_PAIR || b->n != 2)
			return -1;
		n[0] = hlo_attr_ints(b->items[0], v[0], HLO_MAX_RANK);
		n[1] = hlo_attr_ints(b->items[1], v[1], HLO_MAX_RANK);
	}
	if (!c || c->kind != AV_PAIR || c->n != 2)
		return -1;
	n[2] = hlo_attr_ints(c->items[0], v[2], HLO_MAX_RANK);
	n[3] = hlo_attr_ints(c->items[1], v[3], HLO_MAX_RANK);
	return (n[0] < 0 || n[1] < 0 || n[2] < 0 || n[3] < 0) ? -1 : 0;
}

/* Product of @x into *@acc; -1 past HLO_MAX_WORK (no tensor is that big). */
static int mul_into(int64_t *acc, int64_t x)
{
	if (x < 0 || (x && *acc > HLO_MAX_WORK / x))
		return -1;
	*acc *= x;
	return 0;
}

int hlo_dot_geom(struct e1npu_hlo *h, const struct hlo_op *op,
		 const struct hlo_type *lt, const struct hlo_type *rt,
		 const struct hlo_type *ot, struct hlo_dot *g)
{
	int64_t v[4][HLO_MAX_RANK];
	int n[4], used_l[HLO_MAX_RANK] = { 0 }, used_r[HLO_MAX_RANK] = { 0 };

	memset(g, 0, sizeof(*g));
	if (op->kind == HOP_DOT) {
		/* vector/matrix dot: lhs's last dimension with rhs's first */
		if (lt->rank < 1 || lt->rank > 2 || rt->rank < 1 || rt->rank > 2)
			return DOT_ERR(h, op, "operands of rank %d and %d, 1 or 2 expected",
				       lt->rank, rt->rank);
		n[0] = n[1] = 0;
		n[2] = n[3] = 1;
		v[2][0] = lt->rank - 1;
		v[3][0] = 0;
	} else if (read_dims(op, v, n)) {
		return DOT_ERR(h, op, "bad dimension numbers");
	}
	if (n[0] != n[1] || n[2] != n[3])
		return DOT_ERR(h, op, "%d lhs and %d rhs %s dimensions",
			       n[0] != n[1] ? n[0] : n[2], n[0] != n[1] ? n[1] : n[3],
			       n[0] != n[1] ? "batching" : "contracting");
	g->nb = n[0];
	g->nc = n[2];
	g->batch = g->m = g->n = g->k = 1;
	for (int pass = 0; pass < 2; pass++) {
		const int64_t *li = v[pass * 2], *ri = v[pass * 2 + 1];
		int *gl = pass ? g->lc : g->lb, *gr = pass ? g->rc : g->rb;
		const char *what = pass ? "contracting" : "batching";

		for (int i = 0; i < n[pass * 2]; i++) {
			if (li[i] < 0 || li[i] >= lt->rank || ri[i] < 0 || ri[i] >= rt->rank)
				return DOT_ERR(h, op, "%s dimension pair %d (%lld, %lld) outside ranks %d and %d",
					       what, i, (long long)li[i],
					       (long long)ri[i], lt->rank, rt->rank);
			if (used_l[li[i]]++ || used_r[ri[i]]++)
				return DOT_ERR(h, op, "%s dimension pair %d (%lld, %lld) names a dimension twice",
					       what, i, (long long)li[i],
					       (long long)ri[i]);
			if (lt->dims[li[i]] != rt->dims[ri[i]])
				return DOT_ERR(h, op, "%s dimension pair %d: sizes %lld and %lld differ",
					       what, i,
					       (long long)lt->dims[li[i]], (long long)rt->dims[ri[i]]);
			gl[i] = (int)li[i];
			gr[i] = (int)ri[i];
			if (mul_into(pass ? &g->k : &g->batch, lt->dims[li[i]]))
				return DOT_ERR(h, op, "more than %lld elements in a group of dimensions",
					       (long long)HLO_MAX_WORK);
		}
	}
	/* the dimensions left on each side are the result's, lhs's first */
	for (int side = 0; side < 2; side++) {
		const struct hlo_type *t = side ? rt : lt;
		const int *used = side ? used_r : used_l;
		int *free_dims = side ? g->rf : g->lf, *nfree = side ? &g->nrf : &g->nlf;

		for (int d = 0; d < t->rank; d++) {
			if (used[d])
				continue;
			free_dims[(*nfree)++] = d;
			if (mul_into(side ? &g->n : &g->m, t->dims[d]))
				return DOT_ERR(h, op, "more than %lld elements in a group of dimensions",
					       (long long)HLO_MAX_WORK);
		}
	}
	if (!ot)
		return 0;
	if (ot->rank != g->nb + g->nlf + g->nrf)
		return DOT_ERR(h, op, "result rank %d, expected %d",
			       ot->rank, g->nb + g->nlf + g->nrf);
	for (int i = 0; i < ot->rank; i++) {
		int64_t want = i < g->nb ? lt->dims[g->lb[i]] :
			       i < g->nb + g->nlf ? lt->dims[g->lf[i - g->nb]] :
			       rt->dims[g->rf[i - g->nb - g->nlf]];

		if (ot->dims[i] != want)
			return DOT_ERR(h, op, "result dimension %d is %lld, expected %lld",
				       i, (long long)ot->dims[i],
				       (long long)want);
	}
	return 0;
}
