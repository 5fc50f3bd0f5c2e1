// SPDX-License-Identifier: MIT
/*
 * The QDQ groups of 8-bit data movement (Documentation/onnxruntime.md):
 * DQ -> Reshape/Flatten/Squeeze/Unsqueeze/Transpose -> Q and DQ x n ->
 * Concat -> Q with one constant per-tensor scale and zero point on every
 * side, and DQ -> Relu -> Q with equal parameters. ORT's CPU EP drops
 * such Q/DQ pairs (Reshape ...) or fuses them into com.microsoft
 * QLinearConcat, which copies an input whose parameters equal the
 * output's (and maps any other through a requantization table, here
 * too): either way it moves the 8-bit values, and so does this.
 * Q(DQ(q)) = q needs the scale's products with |q - zp| <= 255 to stay
 * normal and finite (checked), so the result is the same whether or not
 * ORT's transformer fused the group.
 *
 * DQ -> LeakyRelu -> Q is here too: QLinearLeakyRelu's 256-entry table
 * is Concat's requantization table with the activation in it.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ep.h"
#include "ep_graph.h"

/*
 * QLinearConcat's table for an input whose parameters differ from the
 * output's (ORT's QlinearBuildLookupTable, MLAS's QuantizeLinear on
 * x86-64): for each byte, f = sx * (q - zx) in float32, then f / sy,
 * clamped to [qmin - zy, qmax - zy], rounded half to even, + zy.
 */
static uint8_t *requant_table(float sx, int32_t zx, float sy, int32_t zy, int dt, bool leaky,
			      float alpha)
{
	bool s8 = dt == ONNX_TENSOR_ELEMENT_DATA_TYPE_INT8;
	float lo = (float)((s8 ? -128 : 0) - zy), hi = (float)((s8 ? 127 : 255) - zy);
	uint8_t *t = malloc(256);

	if (!t)
		return NULL;
	for (int i = 0; i < 256; i++) {
		int32_t q = s8 ? (int8_t)i : i;
		float f = sx * (float)(q - zx), v;

		if (leaky && !(f >= 0.0f))	/* QLinearLeakyRelu's transform */
			f = alpha * f;
		v = f / sy;

		v = v > lo ? v : lo;	/* maxps, minps: NaN gives the bound */
		v = v < hi ? v : hi;
		t[i] = (uint8_t)((int32_t)nearbyintf(v) + zy);
	}
	return t;
}

static const char *const_ints(const OrtValueInfo *v, struct xk *x)
{
	return xk_ints(v, x->v, &x->nv);
}

void mv_match(const OrtNode *n, struct match *m, enum xk_op op)
{
	const OrtValueInfo *in[3];
	struct xk_ends e;
	struct xk *x;
	size_t ni = node_inputs(n, in, 3);
	int c;

	memset(&e, 0, sizeof(e));
	if (ni < 1 || !in[0]) {
		m->why = "missing input";
		return;
	}
	if (!(x = xk_head_equal(n, in[0], m, op, &e)))
		goto out;
	x->zp[0] = e.y.zp[0];
	switch (op) {
	case XK_RESHAPE:
		if (ni < 2 || !in[1])
			m->why = "no shape";
		else
			m->why = const_ints(in[1], x);
		x->allowzero = attr_int(n, "allowzero", 0) != 0;
		break;
	case XK_FLATTEN:
		x->axis = attr_int(n, "axis", 1);
		break;
	case XK_SQUEEZE:
	case XK_UNSQUEEZE:
		if (ni > 1 && in[1]) {
			m->why = const_ints(in[1], x);
		} else if ((c = attr_ints(n, "axes", x->v, 8)) > 0) {
			x->nv = c;
		} else if (c < 0) {
			m->why = "more than 8 axes";
		}
		if (!m->why && op == XK_UNSQUEEZE && x->nv < 1)
			m->why = "Unsqueeze without axes";
		break;
	case XK_TRANSPOSE:
		c = attr_ints(n, "perm", x->v, 8);
		if (c < 0)
			m->why = "perm of more than 8 axes";
		x->nv = c > 0 ? c : -1;
		break;
	default:
		break;
	}
	if (!m->why)
		m->why = xk_claim_unary(m, x, e.src, e.dq, n, e.q);
out:
	qp_free(&e.y);
}

void mv_match_concat(const OrtNode *n, struct match *m)
{
	const OrtValueInfo *in[XK_MAXIN], *srcs[XK_MAXIN];
	const OrtNode *dqs[XK_MAXIN], *q;
	struct qp y;
	struct xk *x;
	size_t ni;
	int dt = 0;

	memset(&y, 0, sizeof(y));
	if (!ok(ort->Node_GetNumInputs(n, &ni)) || ni > XK_MAXIN) {
		m->why = "more than 16 inputs";
		return;
	}
	ni = node_inputs(n, in, XK_MAXIN);
	if ((m->why = xk_q_after(node_output0(n), &q, &dt, &y)) ||
	    (m->why = xk_scale_guard(y.s[0])))
		goto out;
	if (ni < 1) {
		m->why = "no inputs";
		goto out;
	}
	if (!(x = xk_new(m, XK_CONCAT, dt))) {
		m->why = "out of memory";
		goto out;
	}
	for (size_t i = 0; i < ni; i++) {
		float s;
		int32_t zp;

		if (!in[i]) {
			m->why = "missing input";
			goto out;
		}
		if ((m->why = xk_dq_params(in[i], &srcs[i], dt, &dqs[i], &s, &zp)))
			goto out;
		/* equal parameters: a copy (QLinearConcat's too), else its table */
		if (memcmp(&s, &y.s[0], sizeof(float)) || zp != y.zp[0]) {
			x->lut[i] = requant_table(s, zp, y.s[0], y.zp[0], dt, false, 0.0f);
			if (!x->lut[i]) {
				m->why = "out of memory";
				goto out;
			}
		}
	}
	x->axis = attr_int(n, "axis", INT64_MIN);
	if (x->axis == INT64_MIN) {
		m->why = "no axis";
		goto out;
	}
	for (size_t i = 0; i < ni; i++) {
		if ((m->why = xk_input(x, srcs[i])))
			goto out;
		m->nodes[m->nn++] = dqs[i];
	}
	m->nodes[m->nn++] = n;
	m->nodes[m->nn++] = q;
	snprintf(m->k.op, sizeof(m->k.op), "DQ->Concat->Q");
out:
	qp_free(&y);
}

/* DQ -> LeakyRelu -> Q: ORT's QLinearLeakyRelu, a table built the same way */
void mv_match_leaky(const OrtNode *n, struct match *m)
{
	const OrtValueInfo *in[1], *src;
	const OrtNode *dq, *q;
	struct qp y;
	struct xk *x;
	float s;
	int32_t zp;
	int dt = 0;

	memset(&y, 0, sizeof(y));
	if (node_inputs(n, in, 1) != 1 || !in[0]) {
		m->why = "inputs";
		return;
	}
	if ((m->why = xk_q_after(node_output0(n), &q, &dt, &y)) ||
	    (m->why = xk_dq_params(in[0], &src, dt, &dq, &s, &zp)))
		goto out;
	if (!(x = xk_new(m, XK_LEAKYRELU, dt))) {
		m->why = "out of memory";
		goto out;
	}
	x->lut[0] = requant_table(s, zp, y.s[0], y.zp[0], dt, true, attr_float(n, "alpha", 0.01f));
	if (!x->lut[0]) {
		m->why = "out of memory";
		goto out;
	}
	m->why = xk_claim_unary(m, x, src, dq, n, q);
out:
	qp_free(&y);
}

/* ------------------------------------------------------------------ */
/* Run time                                                             */

static OrtStatus *bad_shape(const struct kern *k, const char *what, long long v)
{
	return st(ORT_INVALID_ARGUMENT, "e1npu: %s: %s (%lld)", k->name, what, v);
}

/* the output shape of a reshape-like op on input dims @d[@r] */
static OrtStatus *move_shape(const struct kern *k, const int64_t *d, size_t r, int64_t *od,
			     size_t *orank)
{
	const struct xk *x = k->xk;
	int64_t cnt = 1, known = 1, a;
	int infer = -1;
	size_t j = 0;
	bool mark[8] = { false };

	for (size_t i = 0; i < r; i++)
		cnt *= d[i];
	switch (x->op) {
	case XK_RESHAPE:
		for (int i = 0; i < x->nv; i++) {
			od[i] = x->v[i];
			if (x->v[i] == 0 && !x->allowzero) {
				if ((size_t)i >= r)
					return bad_shape(k, "shape 0 beyond the input's rank", i);
				od[i] = d[i];
			} else if (x->v[i] == -1) {
				if (infer >= 0)
					return bad_shape(k, "two -1 in the shape", i);
				infer = i;
				continue;
			} else if (x->v[i] < 0) {
				return bad_shape(k, "negative shape value", (long long)x->v[i]);
			}
			known *= od[i];
		}
		if (infer >= 0)
			od[infer] = known ? cnt / known : 0;
		*orank = (size_t)x->nv;
		break;
	case XK_FLATTEN:
		a = x->axis < 0 ? x->axis + (int64_t)r : x->axis;
		if (a < 0 || a > (int64_t)r)
			return bad_shape(k, "Flatten axis", (long long)x->axis);
		od[0] = 1;
		for (int64_t i = 0; i < a; i++)
			od[0] *= d[i];
		od[1] = od[0] ? cnt / od[0] : 0;
		if (!od[0]) {
			od[1] = 1;
			for (size_t i = (size_t)a; i < r; i++)
				od[1] *= d[i];
		}
		*orank = 2;
		break;
	case XK_SQUEEZE:
		for (int i = 0; i < x->nv; i++) {
			a = x->v[i] < 0 ? x->v[i] + (int64_t)r : x->v[i];
			if (a < 0 || a >= (int64_t)r || d[a] != 1)
				return bad_shape(k, "Squeeze axis not of size 1", (long long)x->v[i]);
			mark[a] = true;
		}
		for (size_t i = 0; i < r; i++)
			if (!(x->nv <= 0 ? d[i] == 1 : mark[i]))
				od[j++] = d[i];
		*orank = j;
		break;
	case XK_UNSQUEEZE:
		*orank = r + (size_t)x->nv;
		if (*orank > 8)
			return bad_shape(k, "Unsqueeze to rank", (long long)*orank);
		for (int i = 0; i < x->nv; i++) {
			a = x->v[i] < 0 ? x->v[i] + (int64_t)*orank : x->v[i];
			if (a < 0 || a >= (int64_t)*orank || mark[a])
				return bad_shape(k, "Unsqueeze axis", (long long)x->v[i]);
			mark[a] = true;
		}
		for (size_t i = 0; i < *orank; i++)
			od[i] = mark[i] ? 1 : d[j++];
		break;
	default:
		return bad_shape(k, "not a reshape", x->op);
	}
	known = 1;
	for (size_t i = 0; i < *orank; i++)
		known *= od[i];
	if (known != cnt)
		return bad_shape(k, "output shape's element count differs from the input's", (long long)known);
	return NULL;
}

static OrtStatus *out8(struct kern *k, OrtKernelContext *ctx, const int64_t *od, size_t r,
			uint8_t **y)
{
	return kout(k, ctx, od, r, (void **)y);
}

static OrtStatus *run_transpose(struct kern *k, OrtKernelContext *ctx, const uint8_t *p,
				const int64_t *d, size_t r)
{
	const struct xk *x = k->xk;
	int64_t perm[8], od[8], ist[8], idx[8] = { 0 }, n = 1;
	bool seen[8] = { false };
	uint8_t *y;
	OrtStatus *s;
	size_t off = 0;

	if (x->nv >= 0 && (size_t)x->nv != r)
		return bad_shape(k, "perm's length differs from the input's rank", (long long)r);
	for (size_t i = 0; i < r; i++) {
		perm[i] = x->nv < 0 ? (int64_t)(r - 1 - i) : x->v[i];
		if (perm[i] < 0 || perm[i] >= (int64_t)r || seen[perm[i]])
			return bad_shape(k, "perm not a permutation", (long long)perm[i]);
		seen[perm[i]] = true;
		od[i] = d[perm[i]];
		n *= od[i];
	}
	if ((s = out8(k, ctx, od, r, &y)))
		return s;
	/* input strides, in output axis order */
	for (size_t i = 0; i < r; i++) {
		int64_t st1 = 1;

		for (size_t j = (size_t)perm[i] + 1; j < r; j++)
			st1 *= d[j];
		ist[i] = st1;
	}
	for (int64_t o = 0; o < n; o++) {
		y[o] = p[off];
		for (size_t i = r; i-- > 0;) {	/* odometer over the output */
			off += (size_t)ist[i];
			if (++idx[i] < od[i])
				break;
			off -= (size_t)(ist[i] * od[i]);
			idx[i] = 0;
		}
	}
	return NULL;
}

static OrtStatus *run_concat(struct kern *k, OrtKernelContext *ctx)
{
	const struct xk *x = k->xk;
	const void *p[XK_MAXIN];
	int64_t d[XK_MAXIN][8], od[8], a, outer = 1, inner = 1;
	size_t r[XK_MAXIN];
	uint8_t *y;
	OrtStatus *s;

	for (size_t i = 0; i < x->nin; i++)
		if ((s = get_in(ctx, (struct operand *)&x->in[i], &p[i], d[i], &r[i])))
			return s;
	a = x->axis < 0 ? x->axis + (int64_t)r[0] : x->axis;
	if (a < 0 || a >= (int64_t)r[0])
		return bad_shape(k, "Concat axis", (long long)x->axis);
	memcpy(od, d[0], r[0] * sizeof(int64_t));
	for (size_t i = 1; i < x->nin; i++) {
		if (r[i] != r[0])
			return bad_shape(k, "Concat inputs of different ranks", (long long)r[i]);
		for (size_t j = 0; j < r[0]; j++)
			if ((int64_t)j != a && d[i][j] != d[0][j])
				return bad_shape(k, "Concat inputs' dimension differs", (long long)j);
		od[a] += d[i][a];
	}
	if ((s = out8(k, ctx, od, r[0], &y)))
		return s;
	for (int64_t j = 0; j < a; j++)
		outer *= od[j];
	for (size_t j = (size_t)a + 1; j < r[0]; j++)
		inner *= od[j];
	for (int64_t o = 0; o < outer; o++)
		for (size_t i = 0; i < x->nin; i++) {
			size_t len = (size_t)(d[i][a] * inner);

			const uint8_t *src = (const uint8_t *)p[i] + (size_t)o * len;

			if (x->lut[i])
				for (size_t j = 0; j < len; j++)
					y[j] = x->lut[i][src[j]];
			else if (len)
				memcpy(y, src, len);
			y += len;
		}
	return NULL;
}

/* the groups of this file at run time (ep_groups.c dispatches) */
OrtStatus *mv_run(struct kern *k, OrtKernelContext *ctx)
{
	struct xk *x = k->xk;
	const void *p;
	int64_t d[8], od[8], n = 1;
	size_t r, orank = 0;
	uint8_t *y;
	OrtStatus *s;

	if (x->op == XK_CONCAT)
		return run_concat(k, ctx);
	if ((s = get_in(ctx, &x->in[0], &p, d, &r)))
		return s;
	for (size_t i = 0; i < r; i++)
		n *= d[i];
	if (x->op == XK_TRANSPOSE)
		return run_transpose(k, ctx, p, d, r);
	if (x->op == XK_LEAKYRELU) {
		if ((s = out8(k, ctx, d, r, &y)))
			return s;
		for (int64_t i = 0; i < n; i++)
			y[i] = x->lut[0][((const uint8_t *)p)[i]];
		return NULL;
	}
	if (x->op == XK_RELU) {
		/* Q(Relu(DQ(q))) = max(q, zp) with equal parameters */
		if ((s = out8(k, ctx, d, r, &y)))
			return s;
		for (int64_t i = 0; i < n; i++) {
			int v = x->dt == ONNX_TENSOR_ELEMENT_DATA_TYPE_INT8 ? ((const int8_t *)p)[i] :
									     ((const uint8_t *)p)[i];

			y[i] = (uint8_t)(v > x->zp[0] ? v : x->zp[0]);
		}
		return NULL;
	}
	if ((s = move_shape(k, d, r, od, &orank)) || (s = out8(k, ctx, od, orank, &y)))
		return s;
	if (n)
		memcpy(y, p, (size_t)n);
	return NULL;
}
