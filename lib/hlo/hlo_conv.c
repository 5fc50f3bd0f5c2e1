// SPDX-License-Identifier: MIT
/*
 * stablehlo.convolution geometry: dimension numbers in the pretty
 * ([b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]) and generic
 * (#stablehlo.conv<...>) forms, window attributes of both forms, group
 * counts; every size checked against the declared result type.
 */
#include <errno.h>
#include <string.h>

#include "hlo_conv.h"
#include "hlo_ctx.h"
#include "hlo_type.h"

static int dims_of(const struct hlo_attr *l, int *b, int *f, int *sp, int rank,
		   const char *bn, const char *fn)
{
	int seen = 0, nb = 0, nf = 0;

	if (!l || l->kind != AV_LIST || l->n != rank)
		return -1;
	for (int k = 0; k < rank; k++) {
		const struct hlo_attr *it = l->items[k];

		/* b and f once each: a missing one would alias a spatial dimension */
		if (it->kind == AV_IDENT && !strcmp(it->s, bn) && !nb++) {
			*b = k;
		} else if (it->kind == AV_IDENT && !strcmp(it->s, fn) && !nf++) {
			*f = k;
		} else if (it->kind == AV_INT && it->i >= 0 && it->i < rank - 2) {
			if (seen & (1 << it->i))
				return -1;
			seen |= 1 << it->i;
			sp[it->i] = k;
		} else {
			return -1;
		}
	}
	return seen == (1 << (rank - 2)) - 1 && nb == 1 && nf == 1 ? 0 : -1;
}

/* @n integers of @a into @out (room for @max), or @dflt each when absent. */
static int ints_or(const struct hlo_attr *a, int64_t *out, int max, int n, int64_t dflt)
{
	if (!a) {
		for (int i = 0; i < n; i++)
			out[i] = dflt;
		return 0;
	}
	return hlo_attr_ints(a, out, max) == n ? 0 : -1;
}

static const struct hlo_attr *dict_get(const struct hlo_attr *d, const char *k)
{
	for (int i = 0; d && d->kind == AV_DICT && i < d->n; i++)
		if (!strcmp(d->items[i]->key, k))
			return d->items[i];
	return NULL;
}

int hlo_conv_geom(struct e1npu_hlo *h, const struct hlo_op *op,
		  const struct hlo_type *lt, const struct hlo_type *rt,
		  const struct hlo_type *ot, struct hlo_conv *g)
{
	const struct hlo_attr *dn = hlo_attr_get(op, "dim_numbers");
	const struct hlo_attr *win = hlo_attr_get(op, "window");
	const struct hlo_attr *a;
	int64_t pad[2 * HLO_MAX_RANK], rev[HLO_MAX_RANK];
	int rank = lt->rank;

	memset(g, 0, sizeof(*g));
	if (!dn)
		dn = hlo_attr_get(op, "dimension_numbers");
	if (rank < 2 || rt->rank != rank || ot->rank != rank || !dn || dn->kind != AV_ARROW ||
	    dn->n != 3)
		return hlo_errf(h, -EINVAL, "%s (line %d): dimension numbers [..]x[..]->[..] of rank %d expected",
				op->name, op->line, rank);
	g->ns = rank - 2;
	if (dims_of(dn->items[0], &g->lb, &g->lf, g->ls, rank, "b", "f") ||
	    dims_of(dn->items[1], &g->ri, &g->ro, g->rs, rank, "i", "o") ||
	    dims_of(dn->items[2], &g->ob, &g->of, g->os, rank, "b", "f"))
		return hlo_errf(h, -EINVAL, "%s (line %d): bad dimension numbers", op->name,
				op->line);
	if (ints_or(win ? dict_get(win, "stride") : hlo_attr_get(op, "window_strides"),
		    g->stride, HLO_MAX_RANK, g->ns, 1) ||
	    ints_or(win ? dict_get(win, "lhs_dilate") : hlo_attr_get(op, "lhs_dilation"),
		    g->ldil, HLO_MAX_RANK, g->ns, 1) ||
	    ints_or(win ? dict_get(win, "rhs_dilate") : hlo_attr_get(op, "rhs_dilation"),
		    g->rdil, HLO_MAX_RANK, g->ns, 1) ||
	    ints_or(win ? dict_get(win, "pad") : hlo_attr_get(op, "padding"), pad,
		    2 * HLO_MAX_RANK, 2 * g->ns, 0) ||
	    ints_or(win ? dict_get(win, "reverse") : hlo_attr_get(op, "window_reversal"),
		    rev, HLO_MAX_RANK, g->ns, 0))
		return hlo_errf(h, -EINVAL, "%s (line %d): window attributes must have %d entries",
				op->name, op->line, g->ns);
	a = hlo_attr_get(op, "feature_group_count");
	g->fgc = a && a->kind == AV_INT ? a->i : 1;
	a = hlo_attr_get(op, "batch_group_count");
	g->bgc = a && a->kind == AV_INT ? a->i : 1;
	/* bounded before rin * fgc and n % bgc below */
	if (g->fgc < 1 || g->fgc > HLO_MAX_ELEMS || g->bgc < 1 || g->bgc > HLO_MAX_ELEMS)
		return hlo_errf(h, -EINVAL, "%s (line %d): feature/batch group counts (%lld, %lld) out of range",
				op->name, op->line, (long long)g->fgc, (long long)g->bgc);
	for (int s = 0; s < g->ns; s++) {
		if (rev[s])
			return hlo_errf(h, -ENOTSUP, "%s (line %d): window reversal not supported",
					op->name, op->line);
		g->padlo[s] = pad[2 * s];
		g->padhi[s] = pad[2 * s + 1];
		g->in_sp[s] = lt->dims[g->ls[s]];
		g->k_sp[s] = rt->dims[g->rs[s]];
		if (g->stride[s] < 1 || g->ldil[s] < 1 || g->rdil[s] < 1 || g->k_sp[s] < 1 ||
		    g->stride[s] > HLO_MAX_ELEMS || g->ldil[s] > HLO_MAX_ELEMS ||
		    g->rdil[s] > HLO_MAX_ELEMS || g->padlo[s] < -(int64_t)HLO_MAX_ELEMS ||
		    g->padlo[s] > HLO_MAX_ELEMS || g->padhi[s] < -(int64_t)HLO_MAX_ELEMS ||
		    g->padhi[s] > HLO_MAX_ELEMS)
			return hlo_errf(h, -EINVAL, "%s (line %d): bad window in dimension %d",
					op->name, op->line, s);
		{
			int64_t din = g->in_sp[s] ? (g->in_sp[s] - 1) * g->ldil[s] + 1 : 0;
			int64_t padded = din + g->padlo[s] + g->padhi[s];
			int64_t dk = (g->k_sp[s] - 1) * g->rdil[s] + 1;
			int64_t want = padded < dk ? 0 : (padded - dk) / g->stride[s] + 1;

			if (want != ot->dims[g->os[s]])
				return hlo_errf(h, -EINVAL, "%s (line %d): spatial dimension %d is %lld, the result says %lld",
						op->name, op->line, s, (long long)want,
						(long long)ot->dims[g->os[s]]);
			g->out_sp[s] = want;
		}
	}
	{
		int64_t n = lt->dims[g->lb], inf = lt->dims[g->lf];
		int64_t rin = rt->dims[g->ri], rout = rt->dims[g->ro];

		if (g->fgc < 1 || g->bgc < 1 || (g->fgc > 1 && g->bgc > 1) || inf % g->fgc ||
		    rin * g->fgc != inf || rout % g->fgc || rout % g->bgc || n % g->bgc ||
		    ot->dims[g->ob] != n / g->bgc || ot->dims[g->of] != rout)
			return hlo_errf(h, -EINVAL, "%s (line %d): feature/batch groups (%lld, %lld) do not fit the shapes",
					op->name, op->line, (long long)g->fgc, (long long)g->bgc);
		g->ifg = rin;
		g->ofg = rout / (g->fgc * g->bgc);
		g->out_batch = n / g->bgc;
		g->out_feat = rout;
	}
	g->npos = 1;
	g->nwin = 1;
	for (int s = 0; s < g->ns; s++) {
		g->npos *= g->out_sp[s];
		g->nwin *= g->k_sp[s];
	}
	if (!g->ofg && g->out_feat)
		return hlo_errf(h, -EINVAL, "%s (line %d): no output features per group",
				op->name, op->line);
	return 0;
}

void hlo_conv_pos(const struct hlo_conv *g, int64_t p, int64_t *os)
{
	for (int s = g->ns - 1; s >= 0; s--) {
		os[s] = g->out_sp[s] ? p % g->out_sp[s] : 0;
		p = g->out_sp[s] ? p / g->out_sp[s] : 0;
	}
}

void hlo_conv_win(const struct hlo_conv *g, int64_t w, int64_t *ws)
{
	for (int s = g->ns - 1; s >= 0; s--) {
		ws[s] = w % g->k_sp[s];
		w /= g->k_sp[s];
	}
}

int hlo_conv_src(const struct hlo_conv *g, const int64_t *os, const int64_t *ws,
		 const int64_t *lst, int64_t *src)
{
	int64_t off = 0;

	for (int s = 0; s < g->ns; s++) {
		int64_t x = os[s] * g->stride[s] + ws[s] * g->rdil[s] - g->padlo[s];

		if (x < 0 || x % g->ldil[s] || x / g->ldil[s] >= g->in_sp[s])
			return 1;
		off += x / g->ldil[s] * lst[g->ls[s]];
	}
	*src = off;
	return 0;
}
