// SPDX-License-Identifier: MIT
/*
 * Naive references of the transformer pieces, written straight from the
 * semantics stated in include/e1npu/e1npu_ops.h. The composite blocks are
 * compositions of these naive pieces.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "quant.h"
#include "ref.h"

static int8_t sat8(int64_t v)
{
	return (int8_t)(v < -128 ? -128 : v > 127 ? 127 : v);
}

static int64_t floor_shift(int64_t v, unsigned int s)
{
	/* floor(v / 2^s) */
	int64_t d = (int64_t)1 << s;

	return v >= 0 ? v / d : -((-v + d - 1) / d);
}

int8_t ref_requant(int32_t acc, const struct e1npu_requant *rq)
{
	return (int8_t)e1q_requant(acc, rq->multiplier, rq->shift, rq->zero_point,
				   -128, 127);
}

void ref_bias_add(uint32_t rows, uint32_t n, const int8_t *x,
		  const int8_t *bias, int8_t *out)
{
	for (uint32_t r = 0; r < rows; r++)
		for (uint32_t j = 0; j < n; j++)
			out[(size_t)r * n + j] = sat8(x[(size_t)r * n + j] + bias[j]);
}

void ref_residual_add(size_t count, const int8_t *a, const int8_t *b, int8_t *out)
{
	for (size_t i = 0; i < count; i++)
		out[i] = sat8(a[i] + b[i]);
}

int32_t ref_sig_q8(int32_t t)
{
	int32_t e;

	if (t <= 0) {
		e = t < -8 ? 0 : 256 >> -t;
		return e / 2;
	}
	e = t > 8 ? 0 : 256 >> t;
	return 256 - e / 2;
}

void ref_silu(size_t count, const int8_t *in, int8_t *out)
{
	for (size_t i = 0; i < count; i++)
		out[i] = sat8(floor_shift((int64_t)in[i] * ref_sig_q8(in[i]) + 128, 8));
}

void ref_quick_gelu(size_t count, const int8_t *in, int8_t *out)
{
	for (size_t i = 0; i < count; i++) {
		int32_t t = (int32_t)floor_shift((int64_t)in[i] * 109, 6);

		out[i] = sat8(floor_shift((int64_t)in[i] * ref_sig_q8(t) + 128, 8));
	}
}

void ref_rmsnorm(uint32_t rows, uint32_t d, const int8_t *x, const int8_t *g,
		 uint32_t gf, uint32_t of, int8_t *out)
{
	for (uint32_t r = 0; r < rows; r++) {
		int64_t ss = 0, inv, mean;
		int64_t root = 0;

		for (uint32_t j = 0; j < d; j++)
			ss += x[(size_t)r * d + j] * x[(size_t)r * d + j];
		mean = ss / d;
		while ((root + 1) * (root + 1) <= mean)
			root++;
		if (!root)
			root = 1;
		inv = 65536 / root;
		for (uint32_t j = 0; j < d; j++) {
			int64_t v = (int64_t)x[(size_t)r * d + j] * g[j] * inv * ((int64_t)1 << of);
			unsigned int s = 16 + gf;

			out[(size_t)r * d + j] = sat8(floor_shift(v + ((int64_t)1 << (s - 1)), s));
		}
	}
}

void ref_rope(uint32_t rows, uint32_t d, const int8_t *x, const int8_t *c,
	      const int8_t *s, int8_t *out)
{
	for (uint32_t r = 0; r < rows; r++)
		for (uint32_t i = 0; i < d / 2; i++) {
			int32_t x0 = x[(size_t)r * d + 2 * i], x1 = x[(size_t)r * d + 2 * i + 1];
			int32_t cc = c[(size_t)r * (d / 2) + i], ss = s[(size_t)r * (d / 2) + i];

			out[(size_t)r * d + 2 * i] = sat8(floor_shift(x0 * cc - x1 * ss + 64, 7));
			out[(size_t)r * d + 2 * i + 1] = sat8(floor_shift(x0 * ss + x1 * cc + 64, 7));
		}
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

int ref_attention(const struct e1npu_attention_params *p, const int8_t *q,
		  const int8_t *k, const int8_t *v, int8_t *out)
{
	uint32_t tq = p->tq, tk = p->tk, dim = p->dim;
	int8_t *lg = calloc(1, tk);
	uint8_t *pr = calloc(1, tk), *mk = calloc(1, tk);
	int8_t *tmp = calloc(1, tk);

	if (!lg || !pr || !mk || !tmp) {
		free(lg);
		free(pr);
		free(mk);
		free(tmp);
		return -ENOMEM;
	}
	for (uint32_t s = 0; s < p->batch * p->heads; s++) {
		const int8_t *qs = q + (size_t)s * tq * dim, *ks = k + (size_t)s * tk * dim;
		const int8_t *vs = v + (size_t)s * tk * dim;

		for (uint32_t i = 0; i < tq; i++) {
			int32_t lo = -1, hi = -1;

			for (uint32_t j = 0; j < tk; j++) {
				int32_t acc = 0;

				for (uint32_t x = 0; x < dim; x++)
					acc += qs[(size_t)i * dim + x] * ks[(size_t)j * dim + x];
				lg[j] = ref_requant(acc, &p->qk);
				mk[j] = visible(p->mask, p->window, tq, tk, i, j);
				if (mk[j]) {
					if (lo < 0)
						lo = (int32_t)j;
					hi = (int32_t)j;
				}
			}
			memset(pr, 0, tk);
			if (p->softmax == E1NPU_SOFTMAX_EXP2) {
				ref_softmax_exp2_s8(1, tk, lg, mk, pr);
			} else if (lo >= 0) {
				ref_softmax(E1NPU_DTYPE_INT8, 1, (uint32_t)(hi - lo + 1), lg + lo,
					    p->logit_scale, p->beta, tmp);
				for (int32_t j = lo; j <= hi; j++)
					pr[j] = (uint8_t)(tmp[j - lo] + 128);
			}
			for (uint32_t x = 0; x < dim; x++) {
				int64_t acc = 0;

				for (uint32_t j = 0; j < tk; j++) {
					int32_t p7 = (pr[j] + 1) >> 1;

					acc += (p7 > 127 ? 127 : p7) * vs[(size_t)j * dim + x];
				}
				out[((size_t)s * tq + i) * dim + x] = sat8(floor_shift(acc + 64, 7));
			}
		}
	}
	free(lg);
	free(pr);
	free(mk);
	free(tmp);
	return 0;
}

void ref_qkv(uint32_t t, uint32_t dm, const int8_t *x, const int8_t *w,
	     const struct e1npu_requant *rq[3], int8_t *out[3])
{
	for (uint32_t i = 0; i < t; i++)
		for (uint32_t j = 0; j < 3 * dm; j++) {
			int32_t acc = 0;

			for (uint32_t c = 0; c < dm; c++)
				acc += x[(size_t)i * dm + c] * w[(size_t)c * 3 * dm + j];
			out[j / dm][(size_t)i * dm + j % dm] = ref_requant(acc, rq[j / dm]);
		}
}

void ref_mlp(uint32_t t, uint32_t dm, uint32_t dh, const int8_t *x,
	     const int8_t *w1, const int8_t *w2, const struct e1npu_requant *rqh,
	     const struct e1npu_requant *rqo, int8_t *out)
{
	int8_t *h = calloc(1, (size_t)t * dh);

	for (uint32_t i = 0; i < t; i++)
		for (uint32_t j = 0; j < dh; j++) {
			int32_t acc = 0;

			for (uint32_t c = 0; c < dm; c++)
				acc += x[(size_t)i * dm + c] * w1[(size_t)c * dh + j];
			h[(size_t)i * dh + j] = ref_requant(acc, rqh);
			if (h[(size_t)i * dh + j] < 0)
				h[(size_t)i * dh + j] = 0;
		}
	for (uint32_t i = 0; i < t; i++)
		for (uint32_t j = 0; j < dm; j++) {
			int32_t acc = 0;

			for (uint32_t c = 0; c < dh; c++)
				acc += h[(size_t)i * dh + c] * w2[(size_t)c * dm + j];
			out[(size_t)i * dm + j] = ref_requant(acc, rqo);
		}
	free(h);
}

void ref_swiglu(uint32_t t, uint32_t dm, uint32_t dh, const int8_t *x,
		const int8_t *wu, const int8_t *wg, const int8_t *wd,
		const struct e1npu_requant *rqh, uint32_t gs,
		const struct e1npu_requant *rqo, int8_t *out)
{
	int8_t *h = calloc(1, (size_t)t * dh);

	for (uint32_t i = 0; i < t; i++)
		for (uint32_t j = 0; j < dh; j++) {
			int32_t au = 0, ag = 0;
			int8_t u, g, sg;

			for (uint32_t c = 0; c < dm; c++) {
				au += x[(size_t)i * dm + c] * wu[(size_t)c * dh + j];
				ag += x[(size_t)i * dm + c] * wg[(size_t)c * dh + j];
			}
			u = ref_requant(au, rqh);
			g = ref_requant(ag, rqh);
			ref_silu(1, &g, &sg);
			h[(size_t)i * dh + j] = sat8(floor_shift((int64_t)u * sg +
						 (gs ? (int64_t)1 << (gs - 1) : 0), gs));
		}
	for (uint32_t i = 0; i < t; i++)
		for (uint32_t j = 0; j < dm; j++) {
			int32_t acc = 0;

			for (uint32_t c = 0; c < dh; c++)
				acc += h[(size_t)i * dh + c] * wd[(size_t)c * dm + j];
			out[(size_t)i * dm + j] = ref_requant(acc, rqo);
		}
	free(h);
}

void ref_transformer_block(uint32_t t, uint32_t d, uint32_t dh,
			   const int8_t *x, const uint8_t *p, const int8_t *v,
			   const int8_t *bias, const int8_t *w1, const int8_t *w2,
			   const struct e1npu_requant *rqh,
			   const struct e1npu_requant *rqo, int8_t *out)
{
	int8_t *ctx = calloc(1, (size_t)t * d), *r = calloc(1, (size_t)t * d);
	int8_t *m = calloc(1, (size_t)t * d);

	for (uint32_t i = 0; i < t; i++)
		for (uint32_t x2 = 0; x2 < d; x2++) {
			int64_t acc = 0;

			for (uint32_t j = 0; j < t; j++) {
				int32_t p7 = (p[(size_t)i * t + j] + 1) >> 1;

				acc += (p7 > 127 ? 127 : p7) * v[(size_t)j * d + x2];
			}
			ctx[(size_t)i * d + x2] = sat8(floor_shift(acc + 64, 7));
		}
	ref_bias_add(t, d, ctx, bias, ctx);
	ref_residual_add((size_t)t * d, x, ctx, r);
	ref_mlp(t, d, dh, r, w1, w2, rqh, rqo, m);
	ref_residual_add((size_t)t * d, r, m, out);
	free(ctx);
	free(r);
	free(m);
}

int ref_decoder_block(const struct e1npu_decoder_params *p, const int8_t *x,
		      int8_t *out)
{
	uint32_t t = p->t, d = p->d, H = p->heads, hd = d / H;
	size_t td = (size_t)t * d;
	int8_t *n1 = calloc(1, td), *q = calloc(1, td), *k = calloc(1, td), *v = calloc(1, td);
	int8_t *qh = calloc(1, td), *kh = calloc(1, td), *vh = calloc(1, td), *ch = calloc(1, td);
	int8_t *ctx = calloc(1, td), *r = calloc(1, td), *n2 = calloc(1, td), *m = calloc(1, td);
	const struct e1npu_requant *rq[3] = { &p->rq_q, &p->rq_k, &p->rq_v };
	int8_t *o3[3] = { q, k, v };
	struct e1npu_attention_params ap;

	ref_rmsnorm(t, d, x, p->g1, p->gamma_frac, p->norm_frac, n1);
	ref_qkv(t, d, n1, p->wqkv, rq, o3);
	/* head-major, RoPE per head on its own columns */
	for (uint32_t h = 0; h < H; h++)
		for (uint32_t i = 0; i < t; i++) {
			memcpy(qh + ((size_t)h * t + i) * hd, q + (size_t)i * d + h * hd, hd);
			memcpy(kh + ((size_t)h * t + i) * hd, k + (size_t)i * d + h * hd, hd);
			memcpy(vh + ((size_t)h * t + i) * hd, v + (size_t)i * d + h * hd, hd);
		}
	for (uint32_t h = 0; h < H; h++) {
		ref_rope(t, hd, qh + (size_t)h * t * hd, p->cos, p->sin, qh + (size_t)h * t * hd);
		ref_rope(t, hd, kh + (size_t)h * t * hd, p->cos, p->sin, kh + (size_t)h * t * hd);
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
	ref_attention(&ap, qh, kh, vh, ch);
	for (uint32_t h = 0; h < H; h++)
		for (uint32_t i = 0; i < t; i++)
			memcpy(ctx + (size_t)i * d + h * hd, ch + ((size_t)h * t + i) * hd, hd);
	ref_bias_add(t, d, ctx, p->bias, ctx);
	ref_residual_add(td, x, ctx, r);
	ref_rmsnorm(t, d, r, p->g2, p->gamma_frac, p->norm_frac, n2);
	ref_swiglu(t, d, p->dh, n2, p->wu, p->wg, p->wd, &p->rq_hidden, p->gate_shift,
		   &p->rq_out, m);
	ref_residual_add(td, r, m, out);
	free(n1); free(q); free(k); free(v); free(qh); free(kh); free(vh);
	free(ch); free(ctx); free(r); free(n2); free(m);
	return 0;
}
