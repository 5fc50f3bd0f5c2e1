// SPDX-License-Identifier: MIT
/*
 * Transformer pieces, composed from the lowered primitives:
 *  - every GEMM (QK, AV, projections, MLP) goes through the raw int8 matmul
 *    and its engine selection (systolic / datapath 3x3x7 / CPU);
 *  - transcendental and packed-lane element work goes to the datapath's
 *    scalar batches: EXP2_NEG_Q0_8 (softmax, SiLU, QuickGELU), DOT4_S8
 *    (RMSNorm sums of squares, RoPE rotations, 4 lanes per command);
 *  - byte-wise adds, requantization, masks, reciprocals and the KV-cache
 *    copy stay on the host: the datapath's ADD is one element per command,
 *    slower than the host loop it would replace.
 * Semantics: include/e1npu/e1npu_ops.h; references: lib/ref/ref_xformer.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "e1npu_hw.h"
#include "ops_internal.h"
#include "reserved.h"
#include "quant.h"
#include "select.h"

static int8_t sat8(int64_t v)
{
	return (int8_t)(v < -128 ? -128 : v > 127 ? 127 : v);
}

static int64_t fshift(int64_t v, unsigned int s)
{
	int64_t d = (int64_t)1 << s;

	return v >= 0 ? v / d : -((-v + d - 1) / d);
}

/*
 * A requantization the fixed-point scheme can run: shift within
 * [-E1Q_SHIFT_MAX, E1Q_SHIFT_MAX] (e1q_mul_by_qm shifts an int32 by it)
 * and an int8 zero point (added before the clamp).
 */
static bool rq_ok(const struct e1npu_requant *rq)
{
	return rq && !rq->reserved && rq->shift >= -E1Q_SHIFT_MAX && rq->shift <= E1Q_SHIFT_MAX &&
	       rq->zero_point >= -128 && rq->zero_point <= 127;
}

/* a * b * c * d elements of @esize bytes fit one object. */
static bool fits(size_t a, size_t b, size_t c, size_t d, size_t esize)
{
	size_t r;

	return ops_size_mul3(&r, a, b, c) && ops_size_mul3(&r, r, d, esize);
}

static int8_t rq8(int32_t acc, const struct e1npu_requant *rq)
{
	return (int8_t)e1q_requant(acc, rq->multiplier, rq->shift, rq->zero_point,
				   -128, 127);
}

static void rep_add(struct e1npu_ops_report *d, const struct e1npu_ops_report *s)
{
	d->hw_ops += s->hw_ops;
	d->hw_ops_wrapper += s->hw_ops_wrapper;
	d->hw_ops_datapath += s->hw_ops_datapath;
	d->hw_ops_fallback += s->hw_ops_fallback;
	d->jobs += s->jobs;
	d->wrapper_cycles += s->wrapper_cycles;
	d->dp_cycles += s->dp_cycles;
	d->lower_ns += s->lower_ns;
	d->host_ns += s->host_ns;
}

/* Composite: the engine that ran most hardware operations. */
static void rep_composite(struct e1npu_ops_report *rep, const char *stages)
{
	uint32_t e = E1NPU_ENGINE_CPU, why = E1NPU_OPS_WHY_NO_HW_OP;

	if (rep->hw_ops_wrapper) {
		e = E1NPU_ENGINE_WRAPPER;
		why = E1NPU_OPS_WHY_BIG_GEMM;
	} else if (rep->hw_ops_datapath) {
		e = E1NPU_ENGINE_DATAPATH;
		why = E1NPU_OPS_WHY_SMALL_GEMM;
	}
	ops_report_set(rep, e, why, "%s (hw ops: %u wrapper, %u datapath, %u fallback)",
		       stages, rep->hw_ops_wrapper, rep->hw_ops_datapath,
		       rep->hw_ops_fallback);
}

/* Run @count records on the datapath when selected, else compute on host. */
static int scalars(struct e1npu_ops *ops, struct e1npu_ops_report *rep,
		   uint32_t opcode, const uint32_t *rec, size_t count,
		   uint32_t *res, const char *what)
{
	struct ops_choice ch = sel_dp_scalar(ops, count);

	ops_report_set(rep, ch.engine, ch.reason, "%s: %zu %s commands",
		       sel_reason_text(ch.reason), count, what);
	if (ch.engine == E1NPU_ENGINE_DATAPATH)
		return ops_dp_scalars(ops, rep, opcode, 0, rec, count, res);
	for (size_t i = 0; i < count; i++) {
		uint32_t a = rec[3 * i], b = rec[3 * i + 1], r = 0;

		if (opcode == E1_DP_OP_EXP2_NEG_Q0_8) {
			int8_t d = (int8_t)a;

			r = d < -8 ? 0 : 256u >> -d;
		} else {	/* DOT4_S8 */
			for (int l = 0; l < 4; l++)
				r += (uint32_t)((int8_t)(a >> (8 * l)) * (int8_t)(b >> (8 * l)));
		}
		res[i] = r;
	}
	return 0;
}

E1NPU_API int e1npu_requant_from_scale(double scale, int32_t zero_point,
				       struct e1npu_requant *rq)
{
	int shift;

	if (!rq || !(scale > 0))
		return -EINVAL;
	memset(rq, 0, sizeof(*rq));
	if (e1q_quantize_multiplier(scale, &rq->multiplier, &shift))
		return -EINVAL;
	rq->shift = shift;
	rq->zero_point = zero_point;
	return 0;
}

static const char *const add_why =
	"byte-wise saturating add: the datapath ADD moves a 12-byte record and an 8-byte result per element, slower than the host";

E1NPU_API int e1npu_ops_bias_add_s8(struct e1npu_ops *ops, uint32_t rows,
				    uint32_t n, const int8_t *x,
				    const int8_t *bias, int8_t *out,
				    struct e1npu_ops_report *rep)
{
	struct e1npu_ops_report local;
	int64_t t;

	if (OPS_BAD(ops, !ops) || OPS_BAD(ops, !x) || OPS_BAD(ops, !bias) || OPS_BAD(ops, !out) ||
	    OPS_BAD(ops, !rows) || OPS_BAD(ops, !n) || OPS_BAD(ops, !fits(rows, n, 1, 1, 1)))
		return -EINVAL;
	if (!rep)
		rep = &local;
	ops_rep_begin(rep, E1NPU_OPS_BIAS_ADD, 0);
	ops_report_set(rep, E1NPU_ENGINE_CPU, E1NPU_OPS_WHY_TOO_SMALL, "%s", add_why);
	t = ops_now_ns();
	for (uint32_t r = 0; r < rows; r++)
		for (uint32_t j = 0; j < n; j++)
			out[(size_t)r * n + j] = sat8(x[(size_t)r * n + j] + bias[j]);
	rep->host_ns += (uint64_t)(ops_now_ns() - t);
	return 0;
}

E1NPU_API int e1npu_ops_residual_add_s8(struct e1npu_ops *ops, size_t count,
					const int8_t *a, const int8_t *b,
					int8_t *out, struct e1npu_ops_report *rep)
{
	struct e1npu_ops_report local;
	int64_t t;

	if (OPS_BAD(ops, !ops) || OPS_BAD(ops, !a) || OPS_BAD(ops, !b) || OPS_BAD(ops, !out) ||
	    OPS_BAD(ops, !count) || OPS_BAD(ops, count > PTRDIFF_MAX))
		return -EINVAL;
	if (!rep)
		rep = &local;
	ops_rep_begin(rep, E1NPU_OPS_RESIDUAL_ADD, 0);
	ops_report_set(rep, E1NPU_ENGINE_CPU, E1NPU_OPS_WHY_TOO_SMALL, "%s", add_why);
	t = ops_now_ns();
	for (size_t i = 0; i < count; i++)
		out[i] = sat8(a[i] + b[i]);
	rep->host_ns += (uint64_t)(ops_now_ns() - t);
	return 0;
}

static int gated(struct e1npu_ops *ops, uint32_t kind, size_t count,
		 const int8_t *in, int8_t *out, struct e1npu_ops_report *rep)
{
	struct e1npu_ops_report local;
	uint32_t *rec, *res;
	int32_t *tt;
	int ret;

	if (OPS_BAD(ops, !ops) || OPS_BAD(ops, !in) || OPS_BAD(ops, !out) ||
	    OPS_BAD(ops, !count) || OPS_BAD(ops, count > PTRDIFF_MAX))
		return -EINVAL;
	if (!rep)
		rep = &local;
	ops_rep_begin(rep, kind, 0);
	rec = calloc(count * 3, 4);
	res = calloc(count, 4);
	tt = calloc(count, 4);
	if (!rec || !res || !tt) {
		ret = ops_error(ops, -ENOMEM, "%s: out of memory", __func__);
		goto out;
	}
	for (size_t i = 0; i < count; i++) {
		int32_t t = kind == E1NPU_OPS_QUICK_GELU ? (int32_t)fshift((int64_t)in[i] * 109, 6)
							 : in[i];
		int32_t d = t <= 0 ? t : -t;

		tt[i] = t;
		rec[3 * i] = (uint32_t)(uint8_t)(int8_t)(d < -128 ? -128 : d);
	}
	ret = scalars(ops, rep, E1_DP_OP_EXP2_NEG_Q0_8, rec, count, res, "EXP2_NEG_Q0_8");
	if (!ret) {
		int64_t t0 = ops_now_ns();

		for (size_t i = 0; i < count; i++) {
			int32_t sig = tt[i] <= 0 ? (int32_t)res[i] / 2 : 256 - (int32_t)res[i] / 2;

			out[i] = sat8(fshift((int64_t)in[i] * sig + 128, 8));
		}
		rep->host_ns += (uint64_t)(ops_now_ns() - t0);
		if (rep->hw_ops && rep->hw_ops_fallback == rep->hw_ops) {
			rep->engine = E1NPU_ENGINE_CPU;
			rep->reason = E1NPU_OPS_WHY_FALLBACK;
		}
	}
out:
	free(rec);
	free(res);
	free(tt);
	return ret;
}

E1NPU_API int e1npu_ops_silu_s8(struct e1npu_ops *ops, size_t count,
				const int8_t *in, int8_t *out,
				struct e1npu_ops_report *rep)
{
	return gated(ops, E1NPU_OPS_SILU, count, in, out, rep);
}

E1NPU_API int e1npu_ops_quick_gelu_s8(struct e1npu_ops *ops, size_t count,
				      const int8_t *in, int8_t *out,
				      struct e1npu_ops_report *rep)
{
	return gated(ops, E1NPU_OPS_QUICK_GELU, count, in, out, rep);
}

static uint32_t pack4(const int8_t *v, uint32_t n)
{
	uint32_t w = 0;

	for (uint32_t l = 0; l < n && l < 4; l++)
		w |= (uint32_t)(uint8_t)v[l] << (8 * l);
	return w;
}

static uint64_t isqrt64(uint64_t v)
{
	uint64_t r = 0, b = (uint64_t)1 << 62;

	while (b > v)
		b >>= 2;
	while (b) {
		if (v >= r + b) {
			v -= r + b;
			r = (r >> 1) + b;
		} else {
			r >>= 1;
		}
		b >>= 2;
	}
	return r;
}

E1NPU_API int e1npu_ops_rmsnorm_s8(struct e1npu_ops *ops, uint32_t rows,
				   uint32_t d, const int8_t *x,
				   const int8_t *gamma, uint32_t gamma_frac,
				   uint32_t out_frac, int8_t *out,
				   struct e1npu_ops_report *rep)
{
	struct e1npu_ops_report local;
	uint32_t cd = (uint32_t)(((uint64_t)d + 3) / 4), *rec, *res;
	size_t cnt = (size_t)rows * cd;
	int ret;

	if (OPS_BAD(ops, !ops) || OPS_BAD(ops, !x) || OPS_BAD(ops, !gamma) || OPS_BAD(ops, !out) ||
	    OPS_BAD(ops, !rows) || OPS_BAD(ops, !d) || OPS_BAD(ops, gamma_frac > 14) ||
	    OPS_BAD(ops, out_frac > 14) || OPS_BAD(ops, !fits(rows, cd, 12, 1, 1)) ||
	    OPS_BAD(ops, !fits(rows, d, 1, 1, 1)))
		return -EINVAL;
	if (!rep)
		rep = &local;
	ops_rep_begin(rep, E1NPU_OPS_RMSNORM, (uint64_t)rows * d);
	rec = calloc(cnt * 3, 4);
	res = calloc(cnt, 4);
	if (!rec || !res) {
		free(rec);
		free(res);
		return ops_error(ops, -ENOMEM, "%s: out of memory", __func__);
	}
	for (uint32_t r = 0; r < rows; r++)
		for (uint32_t c = 0; c < cd; c++) {
			uint32_t w = pack4(x + (size_t)r * d + 4 * c, d - 4 * c);

			rec[((size_t)r * cd + c) * 3] = w;
			rec[((size_t)r * cd + c) * 3 + 1] = w;
		}
	ret = scalars(ops, rep, E1_DP_OP_DOT4_S8, rec, cnt, res, "DOT4_S8 sum-of-squares");
	if (!ret) {
		int64_t t0 = ops_now_ns();
		unsigned int s = 16 + gamma_frac;

		for (uint32_t r = 0; r < rows; r++) {
			uint64_t ss = 0, root;
			int64_t inv;

			for (uint32_t c = 0; c < cd; c++)
				ss += res[(size_t)r * cd + c];
			root = isqrt64(ss / d);
			inv = 65536 / (int64_t)(root ? root : 1);
			for (uint32_t j = 0; j < d; j++) {
				int64_t v = (int64_t)x[(size_t)r * d + j] * gamma[j] * inv *
					    ((int64_t)1 << out_frac);

				out[(size_t)r * d + j] = sat8(fshift(v + ((int64_t)1 << (s - 1)), s));
			}
		}
		rep->host_ns += (uint64_t)(ops_now_ns() - t0);
	}
	free(rec);
	free(res);
	return ret;
}

E1NPU_API int e1npu_ops_rope_s8(struct e1npu_ops *ops, uint32_t rows, uint32_t d,
				const int8_t *x, const int8_t *cs, const int8_t *sn,
				int8_t *out, struct e1npu_ops_report *rep)
{
	struct e1npu_ops_report local;
	size_t cnt = (size_t)rows * d;
	uint32_t *rec, *res;
	int ret;

	if (OPS_BAD(ops, !ops) || OPS_BAD(ops, !x) || OPS_BAD(ops, !cs) || OPS_BAD(ops, !sn) ||
	    OPS_BAD(ops, !out) || OPS_BAD(ops, !rows) || OPS_BAD(ops, !d) || OPS_BAD(ops, d % 2) ||
	    OPS_BAD(ops, !fits(rows, d, 12, 1, 1)))
		return -EINVAL;
	for (size_t i = 0; i < (size_t)rows * d / 2; i++)
		if (cs[i] == -128 || sn[i] == -128)
			return ops_error(ops, -ERANGE, "%s: %s[%zu] = -128 is outside the Q0.7 range [-127, 127]",
					 __func__, cs[i] == -128 ? "cos" : "sin", i);
	if (!rep)
		rep = &local;
	ops_rep_begin(rep, E1NPU_OPS_ROPE, cnt * 2);
	rec = calloc(cnt * 3, 4);
	res = calloc(cnt, 4);
	if (!rec || !res) {
		free(rec);
		free(res);
		return ops_error(ops, -ENOMEM, "%s: out of memory", __func__);
	}
	for (uint32_t r = 0; r < rows; r++)
		for (uint32_t i = 0; i < d / 2; i++) {
			size_t o = (size_t)r * d + 2 * i;
			int8_t c = cs[(size_t)r * (d / 2) + i], s = sn[(size_t)r * (d / 2) + i];
			int8_t b0[2] = { c, (int8_t)-s }, b1[2] = { s, c };
			uint32_t a = pack4(x + o, 2);

			rec[3 * o] = a;
			rec[3 * o + 1] = pack4(b0, 2);
			rec[3 * (o + 1)] = a;
			rec[3 * (o + 1) + 1] = pack4(b1, 2);
		}
	ret = scalars(ops, rep, E1_DP_OP_DOT4_S8, rec, cnt, res, "DOT4_S8 rotations");
	for (size_t i = 0; !ret && i < cnt; i++)
		out[i] = sat8(fshift((int64_t)(int32_t)res[i] + 64, 7));
	free(rec);
	free(res);
	return ret;
}

/* One GEMM on the selected engine, reported into @rep. */
static int gemm(struct e1npu_ops *ops, uint32_t m, uint32_t n, uint32_t k,
		const int8_t *a, size_t lda, const int8_t *b, size_t ldb,
		int32_t *c, struct e1npu_ops_report *rep)
{
	struct ops_choice ch = sel_gemm(ops, m, n, k);
	struct e1npu_ops_report sub;

	memset(&sub, 0, sizeof(sub));
	sub.kind = rep->kind;
	if (ops_matmul_s8_engine(ops, ch.engine, m, n, k, a, lda, b, ldb, c, n, &sub))
		return -EIO;
	rep_add(rep, &sub);
	return 0;
}

E1NPU_API int e1npu_ops_attention_qk_s8(struct e1npu_ops *ops, uint32_t batch,
					uint32_t heads, uint32_t tq, uint32_t tk,
					uint32_t dim, const int8_t *q,
					const int8_t *k, int32_t *scores,
					struct e1npu_ops_report *rep)
{
	struct e1npu_ops_report local;
	int8_t *kt;
	int ret = 0;

	if (OPS_BAD(ops, !ops) || OPS_BAD(ops, !q) || OPS_BAD(ops, !k) || OPS_BAD(ops, !scores) ||
	    OPS_BAD(ops, !batch) || OPS_BAD(ops, !heads) || OPS_BAD(ops, !tq) ||
	    OPS_BAD(ops, !tk) || OPS_BAD(ops, !dim) ||
	    OPS_BAD(ops, !fits(batch, heads, tq, dim, 1)) ||
	    OPS_BAD(ops, !fits(batch, heads, tk, dim, 1)) ||
	    OPS_BAD(ops, !fits(batch, heads, tq, tk, sizeof(int32_t))))
		return -EINVAL;
	if (!rep)
		rep = &local;
	ops_rep_begin(rep, E1NPU_OPS_ATTENTION_QK, (uint64_t)batch * heads * tq * tk * dim);
	kt = malloc((size_t)dim * tk);
	if (!kt)
		return ops_error(ops, -ENOMEM, "%s: out of memory", __func__);
	for (size_t s = 0; !ret && s < (size_t)batch * heads; s++) {
		const int8_t *ks = k + (size_t)s * tk * dim;

		for (uint32_t j = 0; j < tk; j++)
			for (uint32_t x = 0; x < dim; x++)
				kt[(size_t)x * tk + j] = ks[(size_t)j * dim + x];
		ret = gemm(ops, tq, tk, dim, q + (size_t)s * tq * dim, dim, kt, tk,
			   scores + (size_t)s * tq * tk, rep);
	}
	free(kt);
	rep_composite(rep, "QK^T per head as GEMMs (keys transposed on the host)");
	return ret;
}

E1NPU_API int e1npu_ops_attention_av_s8(struct e1npu_ops *ops, uint32_t batch,
					uint32_t heads, uint32_t tq, uint32_t tk,
					uint32_t dim, const uint8_t *p,
					const int8_t *v, int8_t *out,
					struct e1npu_ops_report *rep)
{
	struct e1npu_ops_report local;
	int8_t *p7;
	int32_t *acc;
	int ret = 0;

	if (OPS_BAD(ops, !ops) || OPS_BAD(ops, !p) || OPS_BAD(ops, !v) || OPS_BAD(ops, !out) ||
	    OPS_BAD(ops, !batch) || OPS_BAD(ops, !heads) || OPS_BAD(ops, !tq) ||
	    OPS_BAD(ops, !tk) || OPS_BAD(ops, !dim) ||
	    OPS_BAD(ops, !fits(batch, heads, tq, tk, 1)) ||
	    OPS_BAD(ops, !fits(batch, heads, tk, dim, 1)) ||
	    OPS_BAD(ops, !fits(batch, heads, tq, dim, sizeof(int32_t))))
		return -EINVAL;
	if (!rep)
		rep = &local;
	ops_rep_begin(rep, E1NPU_OPS_ATTENTION_AV, (uint64_t)batch * heads * tq * tk * dim);
	p7 = malloc((size_t)tq * tk);
	acc = malloc((size_t)tq * dim * 4);
	if (!p7 || !acc) {
		free(p7);
		free(acc);
		return ops_error(ops, -ENOMEM, "%s: out of memory", __func__);
	}
	for (size_t s = 0; !ret && s < (size_t)batch * heads; s++) {
		for (size_t i = 0; i < (size_t)tq * tk; i++) {
			uint32_t v7 = (p[(size_t)s * tq * tk + i] + 1u) >> 1;

			p7[i] = (int8_t)(v7 > 127 ? 127 : v7);
		}
		ret = gemm(ops, tq, dim, tk, p7, tk, v + (size_t)s * tk * dim, dim, acc, rep);
		for (size_t i = 0; !ret && i < (size_t)tq * dim; i++)
			out[(size_t)s * tq * dim + i] = sat8(fshift((int64_t)acc[i] + 64, 7));
	}
	free(p7);
	free(acc);
	rep_composite(rep, "P(Q0.7) x V per head as GEMMs, context >> 7 on the host");
	return ret;
}

static bool visible(uint32_t mask, uint32_t window, uint32_t tq, uint32_t tk,
		    uint32_t i, uint32_t j)
{
	int64_t pos = (int64_t)tk - tq + i;

	if (mask == E1NPU_MASK_NONE)
		return true;
	if ((int64_t)j > pos)
		return false;
	return mask != E1NPU_MASK_SLIDING || (int64_t)j > pos - (int64_t)window;
}

E1NPU_API int e1npu_ops_attention_s8(struct e1npu_ops *ops,
				     const struct e1npu_attention_params *p,
				     const int8_t *q, const int8_t *k,
				     const int8_t *v, int8_t *out,
				     struct e1npu_ops_report *rep)
{
	struct e1npu_ops_report local, sub;
	size_t rows, n;
	int32_t *sc = NULL;
	int8_t *lg = NULL, *tmp = NULL;
	uint8_t *mk = NULL, *pr = NULL;
	int ret;

	if (p && ((ret = OPS_RESERVED(ops, "e1npu_attention_params", p->reserved)) ||
		  (ret = ops_requant_reserved(ops, "e1npu_attention_params.qk", &p->qk))))
		return ret;
	if (OPS_BAD(ops, !ops) || OPS_BAD(ops, !p) || OPS_BAD(ops, !q) || OPS_BAD(ops, !k) ||
	    OPS_BAD(ops, !v) || OPS_BAD(ops, !out) || OPS_BAD(ops, !p->batch) ||
	    OPS_BAD(ops, !p->heads) || OPS_BAD(ops, !p->tq) || OPS_BAD(ops, !p->tk) ||
	    OPS_BAD(ops, !p->dim) || OPS_BAD(ops, p->mask > E1NPU_MASK_SLIDING) ||
	    OPS_BAD(ops, (p->mask == E1NPU_MASK_SLIDING && !p->window)) ||
	    OPS_BAD(ops, p->softmax > E1NPU_SOFTMAX_EXACT) ||
	    OPS_BAD(ops, (p->softmax == E1NPU_SOFTMAX_EXACT && (!(p->logit_scale > 0) || !(p->beta > 0)))) ||
	    OPS_BAD(ops, !rq_ok(&p->qk)) ||
	    OPS_BAD(ops, !fits(p->batch, p->heads, p->tq, p->tk, sizeof(int32_t))) ||
	    OPS_BAD(ops, !fits(p->batch, p->heads, p->tq, p->dim, 1)) ||
	    OPS_BAD(ops, !fits(p->batch, p->heads, p->tk, p->dim, 1)))
		return -EINVAL;
	if (!rep)
		rep = &local;
	ops_rep_begin(rep, E1NPU_OPS_ATTENTION,
		  2ULL * p->batch * p->heads * p->tq * p->tk * p->dim);
	rows = (size_t)p->batch * p->heads * p->tq;
	n = rows * p->tk;
	sc = malloc(n * 4);
	lg = malloc(n);
	mk = malloc(n);
	pr = calloc(n, 1);
	tmp = malloc(p->tk);
	if (!sc || !lg || !mk || !pr || !tmp) {
		ret = ops_error(ops, -ENOMEM, "%s: out of memory", __func__);
		goto out;
	}
	ret = e1npu_ops_attention_qk_s8(ops, p->batch, p->heads, p->tq, p->tk, p->dim,
					q, k, sc, &sub);
	if (ret)
		goto out;
	rep_add(rep, &sub);
	{
		int64_t t0 = ops_now_ns();

		for (size_t r = 0; r < rows; r++)
			for (uint32_t j = 0; j < p->tk; j++) {
				lg[r * p->tk + j] = rq8(sc[r * p->tk + j], &p->qk);
				mk[r * p->tk + j] = visible(p->mask, p->window, p->tq, p->tk,
							    (uint32_t)(r % p->tq), j);
			}
		rep->host_ns += (uint64_t)(ops_now_ns() - t0);
	}
	if (p->softmax == E1NPU_SOFTMAX_EXP2) {
		ret = e1npu_ops_softmax_exp2_s8(ops, (uint32_t)rows, p->tk, lg, mk, pr, &sub);
		if (ret)
			goto out;
		rep_add(rep, &sub);
	} else {
		for (size_t r = 0; r < rows; r++) {
			int64_t lo = -1, hi = -1;

			for (uint32_t j = 0; j < p->tk; j++)
				if (mk[r * p->tk + j]) {
					lo = lo < 0 ? j : lo;
					hi = j;
				}
			if (lo < 0)
				continue;
			ret = e1npu_ops_softmax(ops, E1NPU_DTYPE_INT8, 1, (uint32_t)(hi - lo + 1),
						lg + r * p->tk + lo, p->logit_scale, p->beta,
						tmp, &sub);
			if (ret)
				goto out;
			rep_add(rep, &sub);
			for (int64_t j = lo; j <= hi; j++)
				pr[r * p->tk + (size_t)j] = (uint8_t)(tmp[j - lo] + 128);
		}
	}
	ret = e1npu_ops_attention_av_s8(ops, p->batch, p->heads, p->tq, p->tk, p->dim,
					pr, v, out, &sub);
	if (!ret)
		rep_add(rep, &sub);
	rep_composite(rep, p->softmax == E1NPU_SOFTMAX_EXP2 ?
		      "QK GEMMs, requant + mask on host, EXP2 softmax on the datapath, AV GEMMs" :
		      "QK GEMMs, requant + mask on host, TFLite softmax on the CPU, AV GEMMs");
out:
	free(sc);
	free(lg);
	free(mk);
	free(pr);
	free(tmp);
	return ret;
}

E1NPU_API int e1npu_ops_qkv_projection_s8(struct e1npu_ops *ops, uint32_t t,
					  uint32_t dm, const int8_t *x,
					  const int8_t *w,
					  const struct e1npu_requant *rq_q,
					  const struct e1npu_requant *rq_k,
					  const struct e1npu_requant *rq_v,
					  int8_t *q, int8_t *k, int8_t *v,
					  struct e1npu_ops_report *rep)
{
	const struct e1npu_requant *rq[3] = { rq_q, rq_k, rq_v };
	int8_t *o[3] = { q, k, v };
	struct e1npu_ops_report local;
	int32_t *acc;
	int ret;

	if ((ret = ops_requant_reserved(ops, "rq_q", rq_q)) ||
	    (ret = ops_requant_reserved(ops, "rq_k", rq_k)) ||
	    (ret = ops_requant_reserved(ops, "rq_v", rq_v)))
		return ret;
	if (OPS_BAD(ops, !ops) || OPS_BAD(ops, !x) || OPS_BAD(ops, !w) ||
	    OPS_BAD(ops, !rq_ok(rq_q)) || OPS_BAD(ops, !rq_ok(rq_k)) ||
	    OPS_BAD(ops, !rq_ok(rq_v)) || OPS_BAD(ops, !q) || OPS_BAD(ops, !k) ||
	    OPS_BAD(ops, !v) || OPS_BAD(ops, !t) || OPS_BAD(ops, !dm) ||
	    OPS_BAD(ops, dm > UINT32_MAX / 3) || OPS_BAD(ops, !fits(t, dm, 3, 1, 4)) ||
	    OPS_BAD(ops, !fits(dm, dm, 3, 1, 1)))
		return -EINVAL;
	if (!rep)
		rep = &local;
	ops_rep_begin(rep, E1NPU_OPS_QKV_PROJECTION, 3ULL * t * dm * dm);
	acc = malloc((size_t)t * 3 * dm * 4);
	if (!acc)
		return ops_error(ops, -ENOMEM, "%s: out of memory", __func__);
	ret = gemm(ops, t, 3 * dm, dm, x, dm, w, 3 * dm, acc, rep);
	for (uint32_t i = 0; !ret && i < t; i++)
		for (uint32_t j = 0; j < 3 * dm; j++)
			o[j / dm][(size_t)i * dm + j % dm] = rq8(acc[(size_t)i * 3 * dm + j], rq[j / dm]);
	free(acc);
	rep_composite(rep, "one packed [Q|K|V] GEMM, sliced and requantized on the host");
	return ret;
}

E1NPU_API int e1npu_ops_kv_cache_append_s8(struct e1npu_ops *ops, uint32_t batch,
					   uint32_t heads, uint32_t cap,
					   uint32_t dim, int8_t *kcache,
					   int8_t *vcache, uint32_t *lens,
					   uint32_t tnew, const int8_t *knew,
					   const int8_t *vnew,
					   struct e1npu_ops_report *rep)
{
	struct e1npu_ops_report local;

	if (OPS_BAD(ops, !ops) || OPS_BAD(ops, !kcache) || OPS_BAD(ops, !vcache) ||
	    OPS_BAD(ops, !lens) || OPS_BAD(ops, !knew) || OPS_BAD(ops, !vnew) ||
	    OPS_BAD(ops, !batch) || OPS_BAD(ops, !heads) || OPS_BAD(ops, !cap) ||
	    OPS_BAD(ops, !dim) || OPS_BAD(ops, !tnew) ||
	    OPS_BAD(ops, !fits(batch, heads, cap, dim, 1)) ||
	    OPS_BAD(ops, !fits(batch, heads, tnew, dim, 1)))
		return -EINVAL;
	for (size_t s = 0; s < (size_t)batch * heads; s++)
		if (lens[s] > cap || tnew > cap - lens[s])
			return -ENOSPC;
	if (!rep)
		rep = &local;
	ops_rep_begin(rep, E1NPU_OPS_KV_CACHE_APPEND, 0);
	ops_report_set(rep, E1NPU_ENGINE_CPU, E1NPU_OPS_WHY_NO_HW_OP,
		       "a copy into the caches: no compute (the document's OP_ADD(x, 0) per byte would only slow it)");
	for (size_t s = 0; s < (size_t)batch * heads; s++) {
		size_t dst = ((size_t)s * cap + lens[s]) * dim, src = (size_t)s * tnew * dim;

		memcpy(kcache + dst, knew + src, (size_t)tnew * dim);
		memcpy(vcache + dst, vnew + src, (size_t)tnew * dim);
		lens[s] += tnew;
	}
	return 0;
}

E1NPU_API int e1npu_ops_decode_attention_s8(struct e1npu_ops *ops,
					    const struct e1npu_attention_params *p,
					    uint32_t cap, int8_t *kcache,
					    int8_t *vcache, uint32_t *lens,
					    uint32_t tnew, const int8_t *q,
					    const int8_t *knew, const int8_t *vnew,
					    int8_t *out, struct e1npu_ops_report *rep)
{
	struct e1npu_ops_report local, sub;
	struct e1npu_attention_params ap;
	int ret;

	if (OPS_BAD(ops, !ops) || OPS_BAD(ops, !p) || OPS_BAD(ops, !q) || OPS_BAD(ops, !out))
		return -EINVAL;
	if (!rep)
		rep = &local;
	ops_rep_begin(rep, E1NPU_OPS_DECODE_ATTENTION, 0);
	ret = e1npu_ops_kv_cache_append_s8(ops, p->batch, p->heads, cap, p->dim, kcache,
					   vcache, lens, tnew, knew, vnew, &sub);
	if (ret)
		return ret;
	rep_add(rep, &sub);
	for (size_t s = 0; !ret && s < (size_t)p->batch * p->heads; s++) {
		ap = *p;
		ap.batch = ap.heads = 1;
		ap.tq = tnew;
		ap.tk = lens[s];
		if (ap.mask == E1NPU_MASK_NONE)
			ap.mask = E1NPU_MASK_CAUSAL;
		ret = e1npu_ops_attention_s8(ops, &ap, q + (size_t)s * tnew * p->dim,
					     kcache + (size_t)s * cap * p->dim,
					     vcache + (size_t)s * cap * p->dim,
					     out + (size_t)s * tnew * p->dim, &sub);
		if (!ret) {
			rep_add(rep, &sub);
			rep->macs += sub.macs;
		}
	}
	rep_composite(rep, "KV append on the host, then attention per head over its cache");
	return ret;
}

E1NPU_API int e1npu_ops_mlp_relu_s8(struct e1npu_ops *ops, uint32_t t,
				    uint32_t dm, uint32_t dh, const int8_t *x,
				    const int8_t *w1, const int8_t *w2,
				    const struct e1npu_requant *rqh,
				    const struct e1npu_requant *rqo, int8_t *out,
				    struct e1npu_ops_report *rep)
{
	struct e1npu_ops_report local;
	int32_t *acc;
	int8_t *h;
	int ret;

	if ((ret = ops_requant_reserved(ops, "rq_hidden", rqh)) ||
	    (ret = ops_requant_reserved(ops, "rq_out", rqo)))
		return ret;
	if (OPS_BAD(ops, !ops) || OPS_BAD(ops, !x) || OPS_BAD(ops, !w1) || OPS_BAD(ops, !w2) ||
	    OPS_BAD(ops, !rq_ok(rqh)) || OPS_BAD(ops, !rq_ok(rqo)) || OPS_BAD(ops, !out) ||
	    OPS_BAD(ops, !t) || OPS_BAD(ops, !dm) || OPS_BAD(ops, !dh) ||
	    OPS_BAD(ops, !fits(t, dm > dh ? dm : dh, 1, 1, 4)) ||
	    OPS_BAD(ops, !fits(dm, dh, 1, 1, 1)))
		return -EINVAL;
	if (!rep)
		rep = &local;
	ops_rep_begin(rep, E1NPU_OPS_MLP_RELU, 2ULL * t * dm * dh);
	acc = malloc((size_t)t * (dm > dh ? dm : dh) * 4);
	h = malloc((size_t)t * dh);
	if (!acc || !h) {
		free(acc);
		free(h);
		return ops_error(ops, -ENOMEM, "%s: out of memory", __func__);
	}
	ret = gemm(ops, t, dh, dm, x, dm, w1, dh, acc, rep);
	for (size_t i = 0; !ret && i < (size_t)t * dh; i++) {
		int8_t v = rq8(acc[i], rqh);

		h[i] = v < 0 ? 0 : v;	/* ReLU fused into the requantization */
	}
	if (!ret)
		ret = gemm(ops, t, dm, dh, h, dh, w2, dm, acc, rep);
	for (size_t i = 0; !ret && i < (size_t)t * dm; i++)
		out[i] = rq8(acc[i], rqo);
	free(acc);
	free(h);
	rep_composite(rep, "up GEMM, requant + ReLU on the host, down GEMM");
	return ret;
}

E1NPU_API int e1npu_ops_swiglu_s8(struct e1npu_ops *ops, uint32_t t,
				  uint32_t dm, uint32_t dh, const int8_t *x,
				  const int8_t *wu, const int8_t *wg,
				  const int8_t *wd,
				  const struct e1npu_requant *rqh,
				  uint32_t gate_shift,
				  const struct e1npu_requant *rqo, int8_t *out,
				  struct e1npu_ops_report *rep)
{
	struct e1npu_ops_report local, sub;
	int8_t *wcat = NULL, *u = NULL, *g = NULL, *sg = NULL;
	int32_t *acc = NULL;
	int ret;

	if ((ret = ops_requant_reserved(ops, "rq_hidden", rqh)) ||
	    (ret = ops_requant_reserved(ops, "rq_out", rqo)))
		return ret;
	ret = -ENOMEM;
	if (OPS_BAD(ops, !ops) || OPS_BAD(ops, !x) || OPS_BAD(ops, !wu) || OPS_BAD(ops, !wg) ||
	    OPS_BAD(ops, !wd) || OPS_BAD(ops, !rq_ok(rqh)) || OPS_BAD(ops, !rq_ok(rqo)) ||
	    OPS_BAD(ops, !out) || OPS_BAD(ops, !t) || OPS_BAD(ops, !dm) || OPS_BAD(ops, !dh) ||
	    OPS_BAD(ops, gate_shift > 16) || OPS_BAD(ops, dh > UINT32_MAX / 2) ||
	    OPS_BAD(ops, !fits(t, 2, dm > dh ? dm : dh, 1, 4)) ||
	    OPS_BAD(ops, !fits(dm, 2, dh, 1, 1)))
		return -EINVAL;
	if (!rep)
		rep = &local;
	ops_rep_begin(rep, E1NPU_OPS_SWIGLU, 3ULL * t * dm * dh);
	wcat = malloc((size_t)dm * 2 * dh);
	acc = malloc((size_t)t * 2 * (dm > dh ? dm : dh) * 4);
	u = malloc((size_t)t * dh);
	g = malloc((size_t)t * dh);
	sg = malloc((size_t)t * dh);
	if (!wcat || !acc || !u || !g || !sg)
		goto out;
	for (uint32_t c = 0; c < dm; c++) {
		memcpy(wcat + (size_t)c * 2 * dh, wu + (size_t)c * dh, dh);
		memcpy(wcat + (size_t)c * 2 * dh + dh, wg + (size_t)c * dh, dh);
	}
	/* up and gate projections in one GEMM: x [t][dm] x [wu | wg] */
	ret = gemm(ops, t, 2 * dh, dm, x, dm, wcat, 2 * dh, acc, rep);
	if (ret)
		goto out;
	for (uint32_t i = 0; i < t; i++)
		for (uint32_t j = 0; j < dh; j++) {
			u[(size_t)i * dh + j] = rq8(acc[(size_t)i * 2 * dh + j], rqh);
			g[(size_t)i * dh + j] = rq8(acc[(size_t)i * 2 * dh + dh + j], rqh);
		}
	ret = e1npu_ops_silu_s8(ops, (size_t)t * dh, g, sg, &sub);
	if (ret)
		goto out;
	rep_add(rep, &sub);
	for (size_t i = 0; i < (size_t)t * dh; i++)
		u[i] = sat8(fshift((int64_t)u[i] * sg[i] +
				   (gate_shift ? (int64_t)1 << (gate_shift - 1) : 0), gate_shift));
	ret = gemm(ops, t, dm, dh, u, dh, wd, dm, acc, rep);
	for (size_t i = 0; !ret && i < (size_t)t * dm; i++)
		out[i] = rq8(acc[i], rqo);
	rep_composite(rep, "[up|gate] GEMM, SiLU EXP2 on the datapath, gate product on the host, down GEMM");
out:
	free(wcat);
	free(acc);
	free(u);
	free(g);
	free(sg);
	return ret;
}

E1NPU_API int e1npu_ops_transformer_block_s8(struct e1npu_ops *ops, uint32_t t,
					     uint32_t d, uint32_t dh,
					     const int8_t *x, const uint8_t *p,
					     const int8_t *v, const int8_t *bias,
					     const int8_t *w1, const int8_t *w2,
					     const struct e1npu_requant *rqh,
					     const struct e1npu_requant *rqo,
					     int8_t *out, struct e1npu_ops_report *rep)
{
	struct e1npu_ops_report local, sub;
	size_t td = (size_t)t * d;
	int8_t *ctx, *r, *m;
	int ret;

	if ((ret = ops_requant_reserved(ops, "rq_hidden", rqh)) ||
	    (ret = ops_requant_reserved(ops, "rq_out", rqo)))
		return ret;
	ret = -ENOMEM;
	if (OPS_BAD(ops, !ops) || OPS_BAD(ops, !x) || OPS_BAD(ops, !p) || OPS_BAD(ops, !v) ||
	    OPS_BAD(ops, !bias) || OPS_BAD(ops, !w1) || OPS_BAD(ops, !w2) || OPS_BAD(ops, !rqh) ||
	    OPS_BAD(ops, !rqo) || OPS_BAD(ops, !out) || OPS_BAD(ops, !t) || OPS_BAD(ops, !d) ||
	    OPS_BAD(ops, !dh) || OPS_BAD(ops, !fits(t, t, 1, 1, 1)) ||
	    OPS_BAD(ops, !fits(t, d, 1, 1, 4)) || OPS_BAD(ops, !fits(t, dh, 1, 1, 4)) ||
	    OPS_BAD(ops, !fits(d, dh, 1, 1, 1)))
		return -EINVAL;
	ctx = malloc(td);
	r = malloc(td);
	m = malloc(td);
	if (!rep)
		rep = &local;
	ops_rep_begin(rep, E1NPU_OPS_TRANSFORMER_BLOCK, (uint64_t)t * t * d + 2ULL * t * d * dh);
	if (!ctx || !r || !m)
		goto out;
	ret = e1npu_ops_attention_av_s8(ops, 1, 1, t, t, d, p, v, ctx, &sub);
	if (!ret) {
		rep_add(rep, &sub);
		ret = e1npu_ops_bias_add_s8(ops, t, d, ctx, bias, ctx, &sub);
	}
	if (!ret) {
		rep_add(rep, &sub);
		ret = e1npu_ops_residual_add_s8(ops, td, x, ctx, r, &sub);
	}
	if (!ret) {
		rep_add(rep, &sub);
		ret = e1npu_ops_mlp_relu_s8(ops, t, d, dh, r, w1, w2, rqh, rqo, m, &sub);
	}
	if (!ret) {
		rep_add(rep, &sub);
		ret = e1npu_ops_residual_add_s8(ops, td, r, m, out, &sub);
	}
	if (!ret)
		rep_add(rep, &sub);
	rep_composite(rep, "AV, bias, residual, MLP(ReLU), residual");
out:
	free(ctx);
	free(r);
	free(m);
	return ret;
}

E1NPU_API int e1npu_ops_decoder_block_s8(struct e1npu_ops *ops,
					 const struct e1npu_decoder_params *p,
					 const int8_t *x, int8_t *out,
					 struct e1npu_ops_report *rep)
{
	struct e1npu_ops_report local, sub;
	struct e1npu_attention_params ap;
	uint32_t t, d, H, hd;
	size_t td;
	int8_t *b[12] = { NULL };
	int ret = -ENOMEM;

	if (p && ((ret = OPS_RESERVED(ops, "e1npu_decoder_params", p->reserved)) ||
		  (ret = ops_requant_reserved(ops, "e1npu_decoder_params.rq_q", &p->rq_q)) ||
		  (ret = ops_requant_reserved(ops, "e1npu_decoder_params.rq_k", &p->rq_k)) ||
		  (ret = ops_requant_reserved(ops, "e1npu_decoder_params.rq_v", &p->rq_v)) ||
		  (ret = ops_requant_reserved(ops, "e1npu_decoder_params.rq_qk", &p->rq_qk)) ||
		  (ret = ops_requant_reserved(ops, "e1npu_decoder_params.rq_hidden", &p->rq_hidden)) ||
		  (ret = ops_requant_reserved(ops, "e1npu_decoder_params.rq_out", &p->rq_out))))
		return ret;
	if (OPS_BAD(ops, !ops) || OPS_BAD(ops, !p) || OPS_BAD(ops, !x) || OPS_BAD(ops, !out) ||
	    OPS_BAD(ops, !p->t) || OPS_BAD(ops, !p->d) || OPS_BAD(ops, !p->dh) ||
	    OPS_BAD(ops, !p->heads) || OPS_BAD(ops, p->d % p->heads) ||
	    OPS_BAD(ops, (p->d / p->heads) % 2) || OPS_BAD(ops, !fits(p->t, p->d, 3, 1, 4)) ||
	    OPS_BAD(ops, !fits(p->t, p->t, p->heads, 1, 4)) ||
	    OPS_BAD(ops, !fits(p->d, p->d, 3, 1, 1)) ||
	    OPS_BAD(ops, !fits(p->t, p->dh, 2, 1, 4)) ||
	    OPS_BAD(ops, !fits(p->d, p->dh, 2, 1, 1)))
		return -EINVAL;
	t = p->t;
	d = p->d;
	H = p->heads;
	hd = d / H;
	td = (size_t)t * d;
	if (!rep)
		rep = &local;
	ops_rep_begin(rep, E1NPU_OPS_DECODER_BLOCK,
		  3ULL * t * d * d + 2ULL * t * t * d + 3ULL * t * d * p->dh);
	for (int i = 0; i < 12; i++)
		if (!(b[i] = malloc(td)))
			goto out;
	/* b: 0 n1, 1 q, 2 k, 3 v, 4 qh, 5 kh, 6 vh, 7 ch, 8 ctx, 9 r, 10 n2, 11 m */
#define STEP(call) do { ret = (call); if (ret) goto out; rep_add(rep, &sub); } while (0)
	STEP(e1npu_ops_rmsnorm_s8(ops, t, d, x, p->g1, p->gamma_frac, p->norm_frac, b[0], &sub));
	STEP(e1npu_ops_qkv_projection_s8(ops, t, d, b[0], p->wqkv, &p->rq_q, &p->rq_k,
					 &p->rq_v, b[1], b[2], b[3], &sub));
	for (uint32_t h = 0; h < H; h++)
		for (uint32_t i = 0; i < t; i++) {
			memcpy(b[4] + ((size_t)h * t + i) * hd, b[1] + (size_t)i * d + h * hd, hd);
			memcpy(b[5] + ((size_t)h * t + i) * hd, b[2] + (size_t)i * d + h * hd, hd);
			memcpy(b[6] + ((size_t)h * t + i) * hd, b[3] + (size_t)i * d + h * hd, hd);
		}
	for (uint32_t h = 0; h < H; h++) {
		STEP(e1npu_ops_rope_s8(ops, t, hd, b[4] + (size_t)h * t * hd, p->cos, p->sin,
				       b[4] + (size_t)h * t * hd, &sub));
		STEP(e1npu_ops_rope_s8(ops, t, hd, b[5] + (size_t)h * t * hd, p->cos, p->sin,
				       b[5] + (size_t)h * t * hd, &sub));
	}
	memset(&ap, 0, sizeof(ap));
	ap.batch = 1;
	ap.heads = H;
	ap.tq = ap.tk = t;
	ap.dim = hd;
	ap.mask = p->mask;
	ap.window = p->window;
	ap.softmax = E1NPU_SOFTMAX_EXP2;
	ap.qk = p->rq_qk;
	STEP(e1npu_ops_attention_s8(ops, &ap, b[4], b[5], b[6], b[7], &sub));
	for (uint32_t h = 0; h < H; h++)
		for (uint32_t i = 0; i < t; i++)
			memcpy(b[8] + (size_t)i * d + h * hd, b[7] + ((size_t)h * t + i) * hd, hd);
	STEP(e1npu_ops_bias_add_s8(ops, t, d, b[8], p->bias, b[8], &sub));
	STEP(e1npu_ops_residual_add_s8(ops, td, x, b[8], b[9], &sub));
	STEP(e1npu_ops_rmsnorm_s8(ops, t, d, b[9], p->g2, p->gamma_frac, p->norm_frac, b[10], &sub));
	STEP(e1npu_ops_swiglu_s8(ops, t, d, p->dh, b[10], p->wu, p->wg, p->wd, &p->rq_hidden,
				 p->gate_shift, &p->rq_out, b[11], &sub));
	STEP(e1npu_ops_residual_add_s8(ops, td, b[9], b[11], out, &sub));
#undef STEP
	rep_composite(rep, "RMSNorm, QKV, RoPE, attention, bias, residual, RMSNorm, SwiGLU, residual");
out:
	for (int i = 0; i < 12; i++)
		free(b[i]);
	return ret;
}
