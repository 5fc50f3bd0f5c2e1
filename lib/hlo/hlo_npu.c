// SPDX-License-Identifier: MIT
/*
 * NPU placement of StableHLO ops and their execution through the lowering
 * layer (e1npu_ops.h). int8 (or int4) dot_general/dot run as one
 * e1npu_ops_matmul_s8 (e1npu_ops_matmul_lowp S4) per batch; convolution as
 * the same GEMM over a host im2col per (batch, group). Zero points are
 * folded on the host; a quantized result is requantized in fixed point
 * (TFLite's multiplier and shift); everything else stays on the CPU.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hlo.h"
#include "hlo_ctx.h"
#include "hlo_conv.h"
#include "hlo_dot.h"
#include "hlo_e1.h"
#include "hlo_npu.h"
#include "hlo_type.h"
#include "quant.h"

/* Users of each value: count and the single user (or -1). */
static void users(const struct hlo_func *f, int v, int *count, int *only)
{
	*count = 0;
	*only = -1;
	for (int o = 0; o < f->nops; o++)
		for (int k = 0; k < f->ops[o].nopnd; k++)
			if (f->ops[o].opnd[k] == v) {
				(*count)++;
				*only = o;
			}
}

/* Storage bits of an NPU operand: 8 or 4, 0 when it has no int8 form. */
static int int8_src(const struct hlo_func *f, int v, int *via_convert)
{
	const struct hlo_type *t = &f->vt[v];
	int d = f->vdef[v];

	*via_convert = -1;
	if (t->ek == EK_SINT && (t->bits == 8 || t->bits == 4 || t->bits == 2) &&
	    (!t->quant || (t->qmin >= -128 && t->qmax <= 127)))
		return t->bits;
	/* a generic "stablehlo.convert"() may have no operand */
	if (d >= 0 && f->ops[d].kind == HOP_CONVERT && f->ops[d].nopnd == 1 && !t->quant &&
	    t->ek == EK_SINT && t->bits >= 16) {
		const struct hlo_type *s = &f->vt[f->ops[d].opnd[0]];

		if (s->ek == EK_SINT && !s->quant && (s->bits == 8 || s->bits == 4 || s->bits == 2)) {
			*via_convert = d;
			return s->bits;
		}
	}
	return 0;
}

static void set_why(struct hlo_op *op, int engine, const char *api, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#include <stdarg.h>
static void set_why(struct hlo_op *op, int engine, const char *api, const char *fmt, ...)
{
	va_list ap;

	op->engine = engine;
	op->api = api;
	va_start(ap, fmt);
	vsnprintf(op->why, sizeof(op->why), fmt, ap);
	va_end(ap);
}

/* Length of the contraction, or -1 for an op the CPU reference will refuse. */
static int64_t contract_len(struct e1npu_hlo *h, const struct hlo_func *f,
			    const struct hlo_op *op)
{
	const struct hlo_type *lt = &f->vt[op->opnd[0]], *rt = &f->vt[op->opnd[1]];
	char save[sizeof(h->err)];
	struct hlo_dot g;
	int64_t k = 1;
	int bad;

	if (op->kind == HOP_CONV) {
		/* window taps x input features per group: at most the whole kernel */
		for (int d = 0; d < rt->rank; d++)
			k *= rt->dims[d];
		return k;
	}
	memcpy(save, h->err, sizeof(save));
	bad = hlo_dot_geom(h, op, lt, rt, op->nres == 1 ? &op->rt[0] : NULL, &g);
	memcpy(h->err, save, sizeof(save)); /* a bad dot fails when it runs */
	return bad ? -1 : g.k;
}

/*
 * Per-axis weights fold on the host per output column: the axis must be
 * the kernel's output features (conv) or the rhs's only free dimension
 * (dot), which is the result's last.
 */
static int rhs_axis_is_output(struct e1npu_hlo *h, const struct hlo_func *f,
			      const struct hlo_op *op)
{
	const struct hlo_type *lt = &f->vt[op->opnd[0]], *rt = &f->vt[op->opnd[1]];
	char save[sizeof(h->err)];
	int ok;

	memcpy(save, h->err, sizeof(save));
	if (op->kind == HOP_CONV) {
		struct hlo_conv g;

		ok = hlo_conv_geom(h, op, lt, rt, &op->rt[0], &g) == 0 && rt->qaxis == g.ro;
	} else {
		struct hlo_dot g;

		ok = hlo_dot_geom(h, op, lt, rt, &op->rt[0], &g) == 0 && g.nrf == 1 &&
		     g.rf[0] == rt->qaxis;
	}
	memcpy(h->err, save, sizeof(save)); /* a bad op fails when it runs */
	return ok;
}

static void place_contraction(struct e1npu_hlo *h, struct hlo_func *f, int oi)
{
	struct hlo_op *op = &f->ops[oi];
	const struct hlo_type *ot = op->nres == 1 ? &op->rt[0] : NULL;
	int cl, cr, bl, br;
	int64_t k;

	set_why(op, E1NPU_HLO_ENGINE_CPU, "cpu", "CPU reference");
	if (op->nopnd != 2 || !ot)
		return;
	bl = int8_src(f, op->opnd[0], &cl);
	br = int8_src(f, op->opnd[1], &cr);
	if (hlo_is_float(ot) || hlo_is_float(&f->vt[op->opnd[0]])) {
		set_why(op, E1NPU_HLO_ENGINE_CPU, "cpu", "float %s: the NPU has no float GEMM form here",
			op->name + 10);
		return;
	}
	if (!bl || !br) {
		set_why(op, E1NPU_HLO_ENGINE_CPU, "cpu",
			"operands are not int8/int4 (nor converted from them)");
		return;
	}
	if (f->vt[op->opnd[0]].quant != f->vt[op->opnd[1]].quant ||
	    f->vt[op->opnd[0]].quant != ot->quant) {
		set_why(op, E1NPU_HLO_ENGINE_CPU, "cpu", "mixed quantized and integer types");
		return;
	}
	if (f->vt[op->opnd[0]].quant && f->vt[op->opnd[0]].qaxis >= 0) {
		set_why(op, E1NPU_HLO_ENGINE_CPU, "cpu", "per-axis quantized lhs");
		return;
	}
	if (f->vt[op->opnd[1]].quant && f->vt[op->opnd[1]].qaxis >= 0 &&
	    !rhs_axis_is_output(h, f, op)) {
		set_why(op, E1NPU_HLO_ENGINE_CPU, "cpu",
			"per-axis rhs quantized along a dimension that is not the output features");
		return;
	}
	k = contract_len(h, f, op);
	if (k < 0) {
		set_why(op, E1NPU_HLO_ENGINE_CPU, "cpu",
			"geometry does not fit the operands (the CPU reference reports it)");
		return;
	}
	if (k > 65536) {
		set_why(op, E1NPU_HLO_ENGINE_CPU, "cpu",
			"contraction of %lld: int32 accumulation could overflow", (long long)k);
		return;
	}
	if (h->opt.cpu_only) {
		set_why(op, E1NPU_HLO_ENGINE_CPU, "cpu", "CPU-only run (cpu_only option)");
		return;
	}
	/* the narrowest form both operands fit: int2, int4, else int8 */
	op->npu_kind = (bl == 2 && br == 2) ? E1NPU_OPS_MATMUL_S2 :
		       (bl <= 4 && br <= 4) ? E1NPU_OPS_MATMUL_S4 : E1NPU_OPS_MATMUL_S8;
	set_why(op, E1NPU_HLO_ENGINE_NPU,
		op->npu_kind == E1NPU_OPS_MATMUL_S2 ? (op->kind == HOP_CONV ?
			"e1npu_ops_matmul_lowp(S2,im2col)" : "e1npu_ops_matmul_lowp(S2)") :
		op->npu_kind == E1NPU_OPS_MATMUL_S4 ? (op->kind == HOP_CONV ?
			"e1npu_ops_matmul_lowp(S4,im2col)" : "e1npu_ops_matmul_lowp(S4)") :
		op->kind == HOP_CONV ? "e1npu_ops_matmul_s8(im2col)" : "e1npu_ops_matmul_s8",
		"%s%s x %s%s%s", bl == 2 ? "int2" : bl == 4 ? "int4" : "int8",
		cl >= 0 ? " (converted)" : "", br == 2 ? "int2" : br == 4 ? "int4" : "int8",
		cr >= 0 ? " (converted)" : "",
		ot->quant ? ", quantized: zero points folded on the host" : "");
	/* an int8 -> wider convert only feeding NPU ops is not materialized */
	for (int s = 0; s < 2; s++) {
		int cv = s ? cr : cl, n, only;

		if (cv < 0)
			continue;
		users(f, f->ops[cv].res, &n, &only);
		if (n == 1 && only == oi) {
			f->ops[cv].fused_into = oi;
			set_why(&f->ops[cv], E1NPU_HLO_ENGINE_FUSED, "-",
				"the NPU op at line %d reads its int%d operand", op->line,
				f->vt[f->ops[cv].opnd[0]].bits);
		}
	}
	/* a requantizing uniform_quantize of the result */
	if (ot->quant) {
		int n, only;

		users(f, op->res, &n, &only);
		/* same shape: the requantization reads both types' axes at one index */
		if (n == 1 && f->ops[only].kind == HOP_UQUANT && f->ops[only].nres == 1 &&
		    f->ops[only].nopnd == 1 && f->ops[only].rt[0].quant &&
		    hlo_same_shape(&f->ops[only].rt[0], ot)) {
			op->fuse_requant = only;
			f->ops[only].fused_into = oi;
			set_why(&f->ops[only], E1NPU_HLO_ENGINE_FUSED, "-",
				"requantization of line %d in fixed point on the host", op->line);
		}
	}
}

void hlo_place(struct e1npu_hlo *h, struct hlo_func *f)
{
	for (int i = 0; i < f->nops; i++) {
		struct hlo_op *op = &f->ops[i];

		switch (op->kind) {
		case HOP_CONSTANT:
			set_why(op, E1NPU_HLO_ENGINE_NONE, "-", "literal");
			break;
		case HOP_CALL: case HOP_RETURN:
			set_why(op, E1NPU_HLO_ENGINE_NONE, "-", "control");
			break;
		case HOP_CHECK_EQ: case HOP_CHECK_EQ_CONST: case HOP_CHECK_ALMOST:
		case HOP_CHECK_ALMOST_CONST: case HOP_CHECK_CLOSE: case HOP_CUSTOM_CALL:
			set_why(op, E1NPU_HLO_ENGINE_NONE, "-", "check");
			break;
		default:
			set_why(op, E1NPU_HLO_ENGINE_CPU, "cpu", "no NPU form in the lowering layer");
			break;
		}
	}
	for (int i = 0; i < f->nops; i++) {
		struct hlo_op *op = &f->ops[i];
		int k = op->kind;

		if (k == HOP_DOT_GENERAL || k == HOP_DOT || k == HOP_CONV)
			place_contraction(h, f, i);
		if (k == HOP_E1) {
			if (h->opt.cpu_only)
				set_why(op, E1NPU_HLO_ENGINE_CPU, "cpu", "CPU-only run (cpu_only option)");
			else
				set_why(op, E1NPU_HLO_ENGINE_NPU, hlo_e1_api(op->callee),
					"the seed's %s record", op->callee + 3);
		}
	}
}

/* ---------------------------------------------------------------------- */
/* Execution                                                                */
/* ---------------------------------------------------------------------- */

struct gemm_acc {
	struct e1npu_hlo *h;
	struct hlo_op *op;
	int64_t *acc;		/* [result elements], exact (q - za)(q - zb) sums */
	int64_t za;
	const struct hlo_type *rt;	/* rhs type (zero points) */
	struct e1npu_ops_report sum;
	uint32_t best_ops;
};

/* C[m][n] = sum_k (A - za)(B - zb[n]) through the lowering layer. */
static int gemm(struct gemm_acc *g, uint32_t m, uint32_t n, uint32_t k, const int8_t *a,
		const int8_t *b, const int64_t *zb, int32_t *c)
{
	struct e1npu_ops_report rep;
	int ret;

	memset(&rep, 0, sizeof(rep));
	if (g->op->npu_kind != E1NPU_OPS_MATMUL_S8)
		ret = e1npu_ops_matmul_lowp(g->h->ops, (uint32_t)g->op->npu_kind, m, n, k, a, b, c,
					    &rep);
	else
		ret = e1npu_ops_matmul_s8(g->h->ops, m, n, k, a, k, b, n, c, n, &rep);
	if (ret)
		return hlo_errf(g->h, ret, "%s (line %d): %s failed: %s", g->op->name,
				g->op->line, g->op->api, e1npu_strerror(ret));
	g->sum.hw_ops_wrapper += rep.hw_ops_wrapper;
	g->sum.hw_ops_datapath += rep.hw_ops_datapath;
	g->sum.hw_ops += rep.hw_ops;
	if (rep.hw_ops >= g->best_ops) {
		g->best_ops = rep.hw_ops;
		g->sum.engine = rep.engine;
		memcpy(g->sum.why, rep.why, sizeof(rep.why));
	}
	/* zero-point fold */
	if (g->za || zb) {
		for (uint32_t i = 0; i < m; i++) {
			int64_t rs = 0;

			for (uint32_t x = 0; x < k; x++)
				rs += a[(size_t)i * k + x];
			for (uint32_t j = 0; j < n; j++) {
				int64_t cs = 0, z = zb ? zb[j] : 0;

				if (g->za)
					for (uint32_t x = 0; x < k; x++)
						cs += b[(size_t)x * n + j];
				c[(size_t)i * n + j] = (int32_t)((int64_t)c[(size_t)i * n + j] -
					z * rs - g->za * cs + (int64_t)k * g->za * z);
			}
		}
	}
	return 0;
}

/* Offset of @flat, a row-major index over dimensions @dims of @t. */
static int64_t dims_offset(const struct hlo_type *t, const int64_t *st, const int *dims,
			   int n, int64_t flat)
{
	int64_t off = 0;

	for (int q = n - 1; q >= 0; q--) {
		off += (flat % t->dims[dims[q]]) * st[dims[q]];
		flat /= t->dims[dims[q]];
	}
	return off;
}

/*
 * The host's im2col and weight staging of an NPU contraction is CPU work
 * like the reference's: charged to the run's budget (hlo_work) before it
 * is allocated, so a hostile shape fails with -E2BIG rather than asking
 * for terabytes. @a_reps stagings of M x K, @b_reps of K x N.
 */
static int npu_stage_work(struct gemm_acc *g, int64_t m, int64_t n, int64_t k,
			  int64_t a_reps, int64_t b_reps)
{
	uint64_t a, b, steps;

	if (__builtin_mul_overflow((uint64_t)m, (uint64_t)k, &a) ||
	    __builtin_mul_overflow(a, (uint64_t)a_reps, &a) ||
	    __builtin_mul_overflow((uint64_t)k, (uint64_t)n, &b) ||
	    __builtin_mul_overflow(b, (uint64_t)b_reps, &b) ||
	    __builtin_add_overflow(a, b, &steps))
		steps = UINT64_MAX;
	return hlo_work(g->h, g->op, steps);
}

static int npu_dot(struct gemm_acc *g, const struct hlo_tensor *l, const struct hlo_tensor *r,
		   const struct hlo_type *ot)
{
	struct hlo_dot d;
	int64_t lst[HLO_MAX_RANK], rst[HLO_MAX_RANK];
	int64_t m, n, k;
	int8_t *a = NULL, *b = NULL;
	int32_t *c = NULL;
	int64_t *zb = NULL;
	int ret = hlo_dot_geom(g->h, g->op, &l->t, &r->t, ot, &d);

	if (ret)
		return ret;
	m = d.m;
	n = d.n;
	k = d.k;
	if (!d.batch || !m || !n || !k)
		return 0; /* an empty result, or a sum over nothing */
	{
		int64_t s = 1;

		for (int i = l->t.rank - 1; i >= 0; i--)
			lst[i] = s, s *= l->t.dims[i];
		s = 1;
		for (int i = r->t.rank - 1; i >= 0; i--)
			rst[i] = s, s *= r->t.dims[i];
	}
	ret = npu_stage_work(g, m, n, k, d.batch, d.batch);
	if (ret)
		return ret;
	a = malloc((size_t)(m * k));
	b = malloc((size_t)(k * n));
	c = malloc(sizeof(*c) * (size_t)(m * n));
	if (r->t.quant) {
		zb = calloc((size_t)n, sizeof(*zb));
		if (zb)
			for (int64_t j = 0; j < n; j++) {
				int64_t ch = 0;

				if (r->t.qaxis >= 0) { /* the axis must be a free rhs dim */
					int64_t rem = j;

					for (int q = d.nrf - 1; q >= 0; q--) {
						int64_t idx = rem % r->t.dims[d.rf[q]];

						rem /= r->t.dims[d.rf[q]];
						if (d.rf[q] == r->t.qaxis)
							ch = idx;
					}
				}
				zb[j] = r->t.zp[ch];
			}
	}
	if (!a || !b || !c || (r->t.quant && !zb)) {
		ret = -ENOMEM;
		goto out;
	}
	for (int64_t bi = 0; bi < d.batch; bi++) {
		int64_t lbase = 0, rbase = 0, rem = bi;

		for (int q = d.nb - 1; q >= 0; q--) {
			int64_t idx = rem % l->t.dims[d.lb[q]];

			rem /= l->t.dims[d.lb[q]];
			lbase += idx * lst[d.lb[q]];
			rbase += idx * rst[d.rb[q]];
		}
		for (int64_t i = 0; i < m; i++)
			for (int64_t x = 0; x < k; x++)
				a[i * k + x] = (int8_t)l->v[lbase +
					dims_offset(&l->t, lst, d.lf, d.nlf, i) +
					dims_offset(&l->t, lst, d.lc, d.nc, x)].i;
		for (int64_t x = 0; x < k; x++)
			for (int64_t j = 0; j < n; j++)
				b[x * n + j] = (int8_t)r->v[rbase +
					dims_offset(&r->t, rst, d.rf, d.nrf, j) +
					dims_offset(&r->t, rst, d.rc, d.nc, x)].i;
		ret = gemm(g, (uint32_t)m, (uint32_t)n, (uint32_t)k, a, b, zb, c);
		if (ret)
			goto out;
		for (int64_t i = 0; i < m * n; i++)
			g->acc[bi * m * n + i] = c[i];
	}
out:
	free(a);
	free(b);
	free(c);
	free(zb);
	return ret;
}

static int npu_conv(struct gemm_acc *g, const struct hlo_tensor *l, const struct hlo_tensor *r,
		    const struct hlo_type *ot)
{
	struct hlo_conv cg;
	int64_t lst[HLO_MAX_RANK], rst[HLO_MAX_RANK], ost[HLO_MAX_RANK];
	int64_t groups, k, m, n;
	int8_t *a = NULL, *b = NULL;
	int32_t *c = NULL;
	int64_t *zb = NULL;
	int ret = hlo_conv_geom(g->h, g->op, &l->t, &r->t, ot, &cg);

	if (ret)
		return ret;
	{
		int64_t s = 1;

		for (int d = l->t.rank - 1; d >= 0; d--)
			lst[d] = s, s *= l->t.dims[d];
		s = 1;
		for (int d = r->t.rank - 1; d >= 0; d--)
			rst[d] = s, s *= r->t.dims[d];
		s = 1;
		for (int d = ot->rank - 1; d >= 0; d--)
			ost[d] = s, s *= ot->dims[d];
	}
	groups = cg.fgc * cg.bgc;
	k = cg.nwin * cg.ifg;
	m = cg.npos;
	n = cg.ofg;
	if (!m || !n || !k || !cg.out_batch)
		return 0;
	ret = npu_stage_work(g, m, n, k, groups * cg.out_batch, groups);
	if (ret)
		return ret;
	a = malloc((size_t)(m * k));
	b = malloc((size_t)(k * n));
	c = malloc(sizeof(*c) * (size_t)(m * n));
	zb = calloc((size_t)n, sizeof(*zb));
	if (!a || !b || !c || !zb) {
		ret = -ENOMEM;
		goto out;
	}
	for (int64_t grp = 0; grp < groups; grp++) {
		int64_t oc0 = grp * cg.ofg, if0 = cg.fgc > 1 ? grp * cg.ifg : 0;

		/* weights [window x in-features][out-features of the group] */
		for (int64_t w = 0; w < cg.nwin; w++) {
			int64_t ws[HLO_MAX_RANK], ko = 0;

			hlo_conv_win(&cg, w, ws);
			for (int s = 0; s < cg.ns; s++)
				ko += ws[s] * rst[cg.rs[s]];
			for (int64_t ic = 0; ic < cg.ifg; ic++)
				for (int64_t j = 0; j < n; j++)
					b[(w * cg.ifg + ic) * n + j] = (int8_t)r->v[ko + ic * rst[cg.ri] +
						(oc0 + j) * rst[cg.ro]].i;
		}
		for (int64_t j = 0; j < n; j++)
			zb[j] = r->t.quant ? r->t.zp[r->t.qaxis == cg.ro ? oc0 + j : 0] : 0;
		for (int64_t bi = 0; bi < cg.out_batch; bi++) {
			int64_t lbatch = cg.bgc > 1 ? grp * cg.out_batch + bi : bi;
			int8_t pad = (int8_t)g->za; /* (za - za) = 0: padding adds nothing */

			for (int64_t p = 0; p < m; p++) {
				int64_t os[HLO_MAX_RANK];

				hlo_conv_pos(&cg, p, os);
				for (int64_t w = 0; w < cg.nwin; w++) {
					int64_t ws[HLO_MAX_RANK], src;
					int hole;

					hlo_conv_win(&cg, w, ws);
					hole = hlo_conv_src(&cg, os, ws, lst, &src);
					src += lbatch * lst[cg.lb];
					for (int64_t ic = 0; ic < cg.ifg; ic++)
						a[p * k + w * cg.ifg + ic] = hole ? pad :
							(int8_t)l->v[src + (if0 + ic) * lst[cg.lf]].i;
				}
			}
			ret = gemm(g, (uint32_t)m, (uint32_t)n, (uint32_t)k, a, b,
				   r->t.quant ? zb : NULL, c);
			if (ret)
				goto out;
			for (int64_t p = 0; p < m; p++) {
				int64_t os[HLO_MAX_RANK], dst = bi * ost[cg.ob];

				hlo_conv_pos(&cg, p, os);
				for (int s = 0; s < cg.ns; s++)
					dst += os[s] * ost[cg.os[s]];
				for (int64_t j = 0; j < n; j++)
					g->acc[dst + (oc0 + j) * ost[cg.of]] = c[p * n + j];
			}
		}
	}
out:
	free(a);
	free(b);
	free(c);
	free(zb);
	return ret;
}

/* Fixed-point requantization of exact sums to @qt: TFLite's multiplier. */
static int requant(struct e1npu_hlo *h, const struct hlo_op *op, const int64_t *acc,
		   double in_scale_a, const struct hlo_type *bt, const struct hlo_type *qt,
		   const int *bch, struct hlo_tensor *out)
{
	int64_t idx[HLO_MAX_RANK];

	for (int64_t i = 0; i < out->n; i++) {
		int64_t rem = i, ch = 0, bc = 0;
		int32_t mult;
		int shift;
		double ratio;
		int64_t q;

		for (int d = qt->rank - 1; d >= 0; d--) {
			idx[d] = rem % qt->dims[d];
			rem /= qt->dims[d];
		}
		if (qt->qaxis >= 0)
			ch = idx[qt->qaxis];
		if (bt->qaxis >= 0 && bch[0] >= 0)
			bc = idx[bch[0]];
		ratio = in_scale_a * bt->scale[bc] / qt->scale[ch];
		if (e1q_quantize_multiplier(ratio, &mult, &shift))
			return hlo_errf(h, -EINVAL, "%s (line %d): scale ratio %g has no fixed-point multiplier",
					op->name, op->line, ratio);
		if (acc[i] < INT32_MIN || acc[i] > INT32_MAX)
			return hlo_errf(h, -ERANGE, "%s (line %d): accumulator %lld passes int32",
					op->name, op->line, (long long)acc[i]);
		q = (int64_t)e1q_mul_by_qm((int32_t)acc[i], mult, shift) + qt->zp[ch];
		out->v[i].i = q < qt->qmin ? qt->qmin : q > qt->qmax ? qt->qmax : q;
	}
	return 0;
}

int hlo_npu_run(struct e1npu_hlo *h, struct hlo_func *f, int oi, struct hlo_tensor *vals,
		struct hlo_tensor *out)
{
	struct hlo_op *op = &f->ops[oi];
	struct gemm_acc g;
	const struct hlo_tensor *src[2];
	const struct hlo_type *ot;
	int ret;

	if (op->kind == HOP_E1) {
		struct hlo_tensor in[3];

		if (op->nopnd < 2 || op->nopnd > 3)
			return hlo_errf(h, -EINVAL, "@%s (line %d): two or three operands expected",
					op->callee, op->line);
		for (int i = 0; i < op->nopnd; i++) {
			in[i] = vals[op->opnd[i]];
			if (!in[i].v)
				return hlo_errf(h, -EINVAL, "@%s (line %d): operand not computed",
						op->callee, op->line);
		}
		return hlo_e1_npu(h, op, in, out);
	}
	/* a dot/convolution has one result (an @e1 call may have none) */
	if (op->nres != 1)
		return hlo_errf(h, -EINVAL, "%s (line %d): one result expected, not %d",
				op->name, op->line, op->nres);
	ot = &op->rt[0];
	for (int s = 0; s < 2; s++) {
		int v = op->opnd[s], d = f->vdef[v];

		if (d >= 0 && f->ops[d].fused_into == oi)
			v = f->ops[d].opnd[0];
		src[s] = &vals[v];
		if (!src[s]->v)
			return hlo_errf(h, -EINVAL, "%s (line %d): operand not computed", op->name,
					op->line);
	}
	memset(&g, 0, sizeof(g));
	g.h = h;
	g.op = op;
	g.za = src[0]->t.quant ? src[0]->t.zp[0] : 0;
	g.rt = &src[1]->t;
	g.acc = calloc((size_t)(out->n ? out->n : 1), sizeof(*g.acc));
	if (!g.acc)
		return -ENOMEM;
	ret = op->kind == HOP_CONV ? npu_conv(&g, src[0], src[1], ot) :
				     npu_dot(&g, src[0], src[1], ot);
	if (ret)
		goto out;
	op->ran_engine = g.sum.engine;
	op->hw_ops = g.sum.hw_ops;
	op->hw_wr = g.sum.hw_ops_wrapper;
	op->hw_dp = g.sum.hw_ops_datapath;
	if (!ot->quant) {
		for (int64_t i = 0; i < out->n; i++)
			out->v[i].i = hlo_wrap(ot, g.acc[i]);
	} else {
		/* the rhs channel axis of the result (per-axis weights) */
		int bch = -1;

		if (src[1]->t.qaxis >= 0) {
			if (op->kind == HOP_CONV) {
				struct hlo_conv cg;

				if (hlo_conv_geom(h, op, &src[0]->t, &src[1]->t, ot, &cg) == 0 &&
				    src[1]->t.qaxis == cg.ro)
					bch = cg.of;
			} else {
				bch = ot->rank - 1;
			}
			if (bch < 0) {
				ret = hlo_errf(h, -ENOTSUP, "%s (line %d): per-axis rhs quantization must be on the output features",
					       op->name, op->line);
				goto out;
			}
		}
		ret = requant(h, op, g.acc, src[0]->t.scale[0], &src[1]->t, ot, &bch, out);
	}
out:
	free(g.acc);
	return ret;
}

/* Requantize an NPU op's exact result into a fused uniform_quantize's type. */
int hlo_npu_requant_fused(struct e1npu_hlo *h, const struct hlo_op *op,
			  const struct hlo_tensor *acc_q, struct hlo_tensor *out);

int hlo_npu_requant_fused(struct e1npu_hlo *h, const struct hlo_op *op,
			  const struct hlo_tensor *acc_q, struct hlo_tensor *out)
{
	const struct hlo_type *it = &acc_q->t, *qt = &out->t;
	int64_t idx[HLO_MAX_RANK];

	if (!it->quant || !qt->quant || !hlo_same_shape(it, qt))
		return hlo_errf(h, -EINVAL, "%s (line %d): quantized to quantized of the same shape expected",
				op->name, op->line);
	for (int64_t i = 0; i < out->n; i++) {
		int64_t rem = i, ci = 0, co = 0, q;
		int32_t mult;
		int shift;
		double ratio;

		for (int d = qt->rank - 1; d >= 0; d--) {
			idx[d] = rem % qt->dims[d];
			rem /= qt->dims[d];
		}
		if (it->qaxis >= 0)
			ci = idx[it->qaxis];
		if (qt->qaxis >= 0)
			co = idx[qt->qaxis];
		/* (q - z_in) s_in / s_out + z_out, the multiplier in fixed point */
		ratio = it->scale[ci] / qt->scale[co];
		if (e1q_quantize_multiplier(ratio, &mult, &shift))
			return hlo_errf(h, -EINVAL, "%s (line %d): scale ratio %g has no fixed-point multiplier",
					op->name, op->line, ratio);
		q = acc_q->v[i].i - it->zp[ci];
		if (q < INT32_MIN || q > INT32_MAX)
			return hlo_errf(h, -ERANGE, "%s (line %d): value %lld passes int32",
					op->name, op->line, (long long)q);
		q = (int64_t)e1q_mul_by_qm((int32_t)q, mult, shift) + qt->zp[co];
		out->v[i].i = q < qt->qmin ? qt->qmin : q > qt->qmax ? qt->qmax : q;
	}
	return 0;
}
