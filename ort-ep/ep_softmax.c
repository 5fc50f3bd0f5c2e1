// SPDX-License-Identifier: MIT
/*
 * DQ -> Softmax -> Q: ORT's CPU EP fuses it into com.microsoft
 * QLinearSoftmax, whose result is its own approximation (not the float
 * softmax quantized): this reproduces ORT's algorithm, on the host.
 *
 *   table (x scale sx, reduction length D): b = log(FLT_MAX / D) (float
 *   division, float log: the overload ORT's call resolves to; the double
 *   log differs in 1 of 200 random cases, logf in none of 800), b =
 *   max(0, b - 5) / sx in double; entry i (0..255) =
 *   (float)exp((i - 255 + b) * sx) in double, stored at byte i (uint8)
 *   or i - 128 (int8).
 *   per row: the maximum m; uint8: t = table + 255 - m, index x; int8:
 *   index (uint8)(127 - m + x); sum = float sum of t[x] in order;
 *   y = nearbyintf((t[x] * floorf(1 / sy)) / sum) + zy, above 255: 255
 *   (int8: then truncated to 8 bits, as ORT's cast).
 *
 * The input zero point does not enter (softmax is shift-invariant), the
 * output scale only as floor(1 / sy). Opset < 13 reduces over all
 * dimensions from the axis, opset 13 along the axis alone.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ep.h"
#include "ep_graph.h"

void sm_match(const OrtNode *n, struct match *m)
{
	const OrtValueInfo *in[1], *src;
	const OrtNode *dq, *q;
	struct qp y;
	float as = 0;
	int32_t azp = 0;
	struct xk *x;
	int dt = 0, opset = 0;

	memset(&y, 0, sizeof(y));
	if ((m->why = xk_cpu_why(XK_SOFTMAX)))
		return;
	if (node_inputs(n, in, 1) != 1 || !in[0]) {
		m->why = "inputs";
		return;
	}
	if (!ok(ort->Node_GetSinceVersion(n, &opset)) || opset < 1) {
		m->why = "Softmax opset unknown";
		return;
	}
	if ((m->why = xk_q_after(node_output0(n), &q, &dt, &y)))
		goto out;
	if ((m->why = xk_dq_params(in[0], &src, dt, &dq, &as, &azp)))
		goto out;
	if (!(floorf(1.0f / y.s[0]) >= 1.0f && floorf(1.0f / y.s[0]) <= 65536.0f)) {
		m->why = "output scale outside [1/65536, 1]";
		goto out;
	}
	if (!(x = xk_new(m, XK_SOFTMAX, dt))) {
		m->why = "out of memory";
		goto out;
	}
	x->s[0] = as;
	x->ys = y.s[0];
	x->yzp = y.zp[0];
	x->nv = opset;
	x->axis = attr_int(n, "axis", opset < 13 ? 1 : -1);
	m->why = xk_claim_unary(m, x, src, dq, n, q);
out:
	qp_free(&y);
}

/*
 * ORT's casts of nearbyintf(t * floor(1/sy) / sum), which overflows to
 * inf when floor(1/sy) > ~148 D (the largest entry is FLT_MAX / (D e^5)):
 * x86-64 code converts to uint32 through a 64-bit cvttss2si (out of
 * range: 2^63, low half 0) and to int32 with a 32-bit one (INT32_MIN).
 */
static uint32_t cvt_u32(float r)
{
	return r >= 0.0f && r < 0x1.0p63f ? (uint32_t)(uint64_t)r : 0;
}

static uint32_t cvt_i32(float r)
{
	return r >= -0x1.0p31f && r < 0x1.0p31f ? (uint32_t)(int32_t)r : 0x80000000u;
}

static void sm_table(float *t, float sx, size_t d, bool s8)
{
	double b = logf(FLT_MAX / (float)d);

	b = (0.0 < b - 5.0 ? b - 5.0 : 0.0) / (double)sx;
	for (int i = 0; i < 256; i++) {
		double e = exp(((double)i - 255 + b) * (double)sx);

		t[(uint8_t)(s8 ? i - 128 : i)] = (float)e;
	}
}

OrtStatus *sm_run(struct kern *k, OrtKernelContext *ctx)
{
	const struct xk *x = k->xk;
	const uint8_t *p;
	int64_t d[8], a;
	size_t r, outer = 1, len = 1, inner = 1;
	bool s8 = x->dt == ONNX_TENSOR_ELEMENT_DATA_TYPE_INT8;
	float t[256], ysf = floorf(1.0f / x->ys);
	uint8_t *y;
	OrtStatus *s;

	if ((s = get_in(ctx, (struct operand *)&x->in[0], (const void **)&p, d, &r)))
		return s;
	if ((s = kout(k, ctx, d, r, (void **)&y)))
		return s;
	a = x->axis < 0 ? x->axis + (int64_t)r : x->axis;
	if (a < 0 || a >= (int64_t)(r ? r : 1))
		return st(ORT_INVALID_ARGUMENT, "e1npu: %s: Softmax axis %lld for rank %zu", k->name,
			  (long long)x->axis, r);
	for (size_t i = 0; i < r; i++) {
		if ((int64_t)i < a)
			outer *= (size_t)d[i];
		else if ((int64_t)i == a || x->nv < 13)
			len *= (size_t)d[i];
		else
			inner *= (size_t)d[i];
	}
	if (!outer || !len || !inner)
		return NULL;
	sm_table(t, x->s[0], len, s8);
	for (size_t o = 0; o < outer; o++)
		for (size_t in = 0; in < inner; in++) {
			const uint8_t *row = p + o * len * inner + in;
			uint8_t *yr = y + o * len * inner + in;
			const float *base = t;
			int mx = -1000, adj = 0;
			float sum = 0.0f;

			for (size_t j = 0; j < len; j++) {
				int v = s8 ? (int8_t)row[j * inner] : row[j * inner];

				mx = v > mx ? v : mx;
			}
			if (s8)
				adj = 127 - mx;
			else
				base = t + 255 - mx;
			for (size_t j = 0; j < len; j++)
				sum += base[(uint8_t)(adj + (s8 ? (int8_t)row[j * inner] : row[j * inner]))];
			for (size_t j = 0; j < len; j++) {
				float vt = base[(uint8_t)(adj + (s8 ? (int8_t)row[j * inner] : row[j * inner]))];
				float prod = vt * ysf, rq = nearbyintf(prod / sum);
				/* uint32 (u8) or int32 (s8) arithmetic, wrapping */
				uint32_t vq = (s8 ? cvt_i32(rq) : cvt_u32(rq)) + (uint32_t)x->yzp;

				yr[j * inner] = (s8 ? (int32_t)vq > 255 : vq > 255) ? (uint8_t)255 : (uint8_t)vq;
			}
		}
	return NULL;
}
