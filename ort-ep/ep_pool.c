// SPDX-License-Identifier: MIT
/*
 * DQ -> AveragePool / GlobalAveragePool -> Q: ORT's CPU EP fuses them
 * into com.microsoft QLinearAveragePool / QLinearGlobalAveragePool. This
 * reproduces their x86-64 arithmetic on the host (e1's average pool is
 * TFLite's, with another rounding):
 *
 *   global (GlobalAveragePool; AveragePool whose window is the whole
 *   image, no padding), MLAS: acc = sum(q) - zx * S in int32 (S the
 *   image size), scale = sx / (sy * (float)S), float(acc) * scale
 *   clamped to [qmin - zy, qmax - zy], rounded half to even, + zy; ORT
 *   refuses S >= 2^24 or a scale outside [2^-32, 256) (so does this);
 *   AveragePool otherwise (ORT's own loop): each value dequantized
 *   sx * (q - zx) in float32, summed in float32 row by row over the
 *   window clipped to the image, divided by the count (the window's
 *   size with count_include_pad, else the clipped one), then
 *   nearbyintf(v / sy + zy) clamped to the type.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ep.h"
#include "ep_graph.h"

void pool_match(const OrtNode *n, struct match *m, enum xk_op op)
{
	const OrtValueInfo *in[1], *src;
	const OrtNode *dq, *q;
	struct qp y;
	float as = 0;
	int32_t azp = 0;
	struct xk *x;
	int64_t v[8];
	int dt = 0, c;
	char ap[32];

	memset(&y, 0, sizeof(y));
	if (node_inputs(n, in, 1) != 1 || !in[0]) {
		m->why = "inputs";
		return;
	}
	if ((m->why = xk_q_after(node_output0(n), &q, &dt, &y)))
		goto out;
	if ((m->why = xk_dq_params(in[0], &src, dt, &dq, &as, &azp)))
		goto out;
	if (!(x = xk_new(m, op, dt))) {
		m->why = "out of memory";
		goto out;
	}
	x->s[0] = as;
	x->zp[0] = azp;
	x->ys = y.s[0];
	x->yzp = y.zp[0];
	if (op == XK_AVGPOOL) {
		/* sl[0]: kernel h, w; sl[1]: strides; sl[2]: pads t, l, b, r */
		c = attr_ints(n, "kernel_shape", x->sl[0], 8);
		if (c != 2 || x->sl[0][0] < 1 || x->sl[0][1] < 1 || x->sl[0][0] > 64 ||
		    x->sl[0][1] > 64) {
			m->why = "AveragePool not 2-D (kernel_shape)";
			goto out;
		}
		x->sl[1][0] = x->sl[1][1] = 1;
		c = attr_ints(n, "strides", v, 8);
		if (c < 0 || (c && (c != 2 || v[0] < 1 || v[1] < 1))) {
			m->why = "AveragePool strides";
			goto out;
		}
		if (c)
			x->sl[1][0] = v[0], x->sl[1][1] = v[1];
		c = attr_ints(n, "pads", x->sl[2], 8);
		if (c < 0 || (c && c != 4)) {
			m->why = "AveragePool pads";
			goto out;
		}
		for (int i = 0; i < 4; i++)
			if (x->sl[2][i] < 0 || x->sl[2][i] >= x->sl[0][i % 2]) {
				m->why = "AveragePool pads negative or not smaller than the window";
				goto out;
			}
		c = attr_ints(n, "dilations", v, 8);
		for (int i = 0; i < c; i++)
			if (v[i] != 1) {
				m->why = "AveragePool dilations";
				goto out;
			}
		if (c < 0 || attr_int(n, "ceil_mode", 0) ||
		    (attr_str(n, "auto_pad", ap, sizeof(ap)) && strcmp(ap, "NOTSET") &&
		     strcmp(ap, "VALID"))) {
			m->why = "AveragePool ceil_mode or auto_pad SAME";
			goto out;
		}
		if (attr_str(n, "auto_pad", ap, sizeof(ap)) && !strcmp(ap, "VALID"))
			memset(x->sl[2], 0, sizeof(x->sl[2]));
		x->allowzero = attr_int(n, "count_include_pad", 0) != 0;
	}
	m->why = xk_claim_unary(m, x, src, dq, n, q);
out:
	qp_free(&y);
}

static OrtStatus *run_global(struct kern *k, const uint8_t *p, uint8_t *y, size_t nc, size_t S)
{
	const struct xk *x = k->xk;
	bool s8 = x->dt == ONNX_TENSOR_ELEMENT_DATA_TYPE_INT8;
	float lo = (float)((s8 ? -128 : 0) - x->yzp), hi = (float)((s8 ? 127 : 255) - x->yzp);
	float scale = x->s[0] / (x->ys * (float)(int)S);

	if (S >= 0x1000000 || !(scale >= 0x1.0p-32f && scale < 256.0f))
		return st(ORT_INVALID_ARGUMENT,
			  "e1npu: %s: average pool of %zu values at scale %g: out of QLinearGlobalAveragePool's range (ORT refuses it too)",
			  k->name, S, (double)scale);
	for (size_t c = 0; c < nc; c++) {
		/* int32 sums wrap in MLAS's vectors: the same in uint32 here */
		uint32_t acc = (uint32_t)-x->zp[0] * (uint32_t)S;
		float f;

		for (size_t i = 0; i < S; i++)
			acc += (uint32_t)(s8 ? (int8_t)p[c * S + i] : p[c * S + i]);
		f = (float)(int32_t)acc * scale;
		f = f > lo ? f : lo;
		f = f < hi ? f : hi;
		y[c] = (uint8_t)((int32_t)nearbyintf(f) + x->yzp);
	}
	return NULL;
}

OrtStatus *pool_run(struct kern *k, OrtKernelContext *ctx)
{
	const struct xk *x = k->xk;
	const uint8_t *p;
	int64_t d[8], od[8], kh, kw, sh, sw, pt, pl, pb, pr, H, W, OH, OW;
	size_t r, S = 1, nc;
	bool s8 = x->dt == ONNX_TENSOR_ELEMENT_DATA_TYPE_INT8;
	int32_t qmin = s8 ? -128 : 0, qmax = s8 ? 127 : 255;
	uint8_t *y;
	float deq[256];
	OrtStatus *s;

	if ((s = get_in(ctx, (struct operand *)&x->in[0], (const void **)&p, d, &r)))
		return s;
	if (r < 3 || (x->op == XK_AVGPOOL && r != 4))
		return st(ORT_INVALID_ARGUMENT, "e1npu: %s: input rank %zu", k->name, r);
	nc = (size_t)(d[0] * d[1]);
	for (size_t i = 2; i < r; i++)
		S *= (size_t)d[i];
	if (x->op == XK_GLOBALAVGPOOL) {
		od[0] = d[0], od[1] = d[1];
		for (size_t i = 2; i < r; i++)
			od[i] = 1;
		if ((s = kout(k, ctx, od, r, (void **)&y)))
			return s;
		return nc && S ? run_global(k, p, y, nc, S) : NULL;
	}
	kh = x->sl[0][0], kw = x->sl[0][1], sh = x->sl[1][0], sw = x->sl[1][1];
	pt = x->sl[2][0], pl = x->sl[2][1], pb = x->sl[2][2], pr = x->sl[2][3];
	H = d[2], W = d[3];
	OH = (H + pt + pb - kh) / sh + 1;
	OW = (W + pl + pr - kw) / sw + 1;
	if (H + pt + pb < kh || W + pl + pr < kw)
		return st(ORT_INVALID_ARGUMENT, "e1npu: %s: input %lldx%lld smaller than the window",
			  k->name, (long long)H, (long long)W);
	od[0] = d[0], od[1] = d[1], od[2] = OH, od[3] = OW;
	if ((s = kout(k, ctx, od, 4, (void **)&y)))
		return s;
	if (!nc || !S)
		return NULL;
	/* the window is the whole image, no padding: ORT's global path */
	if (kh == H && kw == W && !pt && !pl && !pb && !pr)
		return run_global(k, p, y, nc, S);
	for (int i = 0; i < 256; i++) {
		int32_t q = s8 ? (int8_t)i : i;

		deq[i] = x->s[0] * (float)(q - x->zp[0]);
	}
	for (size_t c = 0; c < nc; c++) {
		const uint8_t *xc = p + c * S;

		for (int64_t ph = 0; ph < OH; ph++) {
			int64_t hs = ph * sh - pt, he = hs + kh < H ? hs + kh : H;

			hs = hs > 0 ? hs : 0;
			for (int64_t pw = 0; pw < OW; pw++) {
				int64_t ws = pw * sw - pl, we = ws + kw < W ? ws + kw : W;
				int64_t cnt;
				float sum = 0.0f, v;
				int32_t q;

				ws = ws > 0 ? ws : 0;
				for (int64_t h = hs; h < he; h++)
					for (int64_t w = ws; w < we; w++)
						sum += deq[xc[h * W + w]];
				cnt = x->allowzero ? kh * kw : (he - hs) * (we - ws);
				sum /= (float)cnt;
				v = sum / x->ys;
				v = v + (float)x->yzp;
				/* out of int32 (cvttss2si): INT32_MIN, then the clamp */
				q = v > -2147483648.0f && v < 2147483648.0f ? (int32_t)nearbyintf(v) :
									    INT32_MIN;
				q = q < qmin ? qmin : q > qmax ? qmax : q;
				y[(c * (size_t)OH + (size_t)ph) * (size_t)OW + (size_t)pw] = (uint8_t)q;
			}
		}
	}
	return NULL;
}
