// SPDX-License-Identifier: MIT
/*
 * The QDQ groups of 8-bit data movement (Documentation/onnxruntime.md):
 * DQ -> Reshape/Flatten/Squeeze/Unsqueeze/Transpose -> Q and DQ x n ->
 * Concat -> Q with one constant per-tensor scale and zero point on every
 * side, and DQ -> Relu -> Q with equal parameters. ORT's CPU EP drops
 * such Q/DQ pairs (Reshape ...) or fuses them into com.microsoft
 * QLinearConcat, which copies an input whose parameters equal the
 * output's: either way it moves the 8-bit values, and so does this.
 * Q(DQ(q)) = q needs the scale's products with |q - zp| <= 255 to stay
 * normal and finite (checked), so the result is the same whether or not
 * ORT's transformer fused the group.
 *
 * Also the K_XK kernel's frame (binding, dispatch, freeing) that
 * ep_eltwise.c's QLinearAdd/QLinearMul share. Moving bytes runs on the
 * host: e1 has no data-movement operation.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ep.h"
#include "ep_graph.h"

static const struct {
	const char *op;
	enum xk_op x;
} xk_ops[] = {
	{ "Reshape", XK_RESHAPE }, { "Flatten", XK_FLATTEN }, { "Squeeze", XK_SQUEEZE },
	{ "Unsqueeze", XK_UNSQUEEZE }, { "Transpose", XK_TRANSPOSE }, { "Concat", XK_CONCAT },
	{ "Relu", XK_RELU }, { "Add", XK_ADD }, { "Mul", XK_MUL }, { "Slice", XK_SLICE },
	{ "Resize", XK_RESIZE }, { "Softmax", XK_SOFTMAX }, { "AveragePool", XK_AVGPOOL },
	{ "GlobalAveragePool", XK_GLOBALAVGPOOL }, { "LeakyRelu", XK_LEAKYRELU },
};

bool xk_op(const char *op)
{
	for (size_t i = 0; i < sizeof(xk_ops) / sizeof(xk_ops[0]); i++)
		if (!strcmp(op, xk_ops[i].op))
			return true;
	return false;
}

void xk_free(struct xk *x)
{
	if (!x)
		return;
	for (size_t i = 0; i < XK_MAXIN; i++) {
		free(x->in[i].data);
		free(x->names[i]);
		free(x->lut[i]);
	}
	free(x);
}

/* an operand of @x: a constant copied, or a run-time input named (bound at Compile) */
const char *xk_input(struct xk *x, const OrtValueInfo *v)
{
	struct operand *o;

	if (x->nin >= XK_MAXIN)
		return "more than 16 inputs";
	o = &x->in[x->nin];
	if (vi_const(v)) {
		if (!load_const(v, o))
			return "cannot read initializer";
		x->nin++;
		return NULL;
	}
	memset(o, 0, sizeof(*o));
	o->runtime_idx = -2;
	o->dtype = vi_type(v, o->dims, &o->rank);
	x->names[x->nin] = strdup(vi_name(v));
	if (!x->names[x->nin])
		return "out of memory";
	x->nin++;
	return NULL;
}

/*
 * The QuantizeLinear that alone consumes @v: its output type in *@dt, its
 * (constant, per-tensor) parameters in @q. NULL or the reason.
 */
const char *xk_q_after(const OrtValueInfo *v, const OrtNode **qn, int *dt, struct qp *q)
{
	const OrtNode *n = only_consumer(v);
	const OrtValueInfo *qin[3];
	size_t nq;
	const char *why;

	*qn = NULL;
	if (!n || strcmp(node_op(n), "QuantizeLinear") || !node_onnx_domain(n))
		return "output not to a single QuantizeLinear";
	nq = node_inputs(n, qin, 3);
	if (nq < 2 || !qin[1] || attr_int(n, "block_size", 0) != 0 ||
	    attr_int(n, "saturate", 1) != 1)
		return "QuantizeLinear form not handled";
	*dt = vi_type(node_output0(n), NULL, NULL);
	if (!is8(*dt))
		return "QuantizeLinear not to int8/uint8";
	if ((why = qp_read(qin[1], nq > 2 ? qin[2] : NULL, *dt, 0, q)))
		return why;
	if (q->sv || q->zv)
		return "run-time QuantizeLinear parameters";
	*qn = n;
	return NULL;
}

/* Q(DQ(q)) = q: |q - zp| * s stays a normal, finite float */
const char *xk_scale_guard(float s)
{
	return s < FLT_MIN || s > 1e30f ?
	       "scale so small or large that Q(DQ(q)) is not q (ORT's result depends on its fusion)" :
	       NULL;
}

/* DQ @v's source, type and parameters: equal to @y's, constant per-tensor */
/* DQ @v's run-time source of type @dt and its constant per-tensor parameters */
static const char *dq_params(const OrtValueInfo *v, const OrtValueInfo **src, int dt,
			     const OrtNode **dq, float *s, int32_t *zp)
{
	const OrtValueInfo *sv, *zv;
	struct qp a;
	const char *why;

	*dq = dq_of(v, src, &sv, &zv);
	if (!*dq)
		return "float (input not from a single-use DequantizeLinear)";
	if (vi_type(*src, NULL, NULL) != dt)
		return "DequantizeLinear input not of the QuantizeLinear's type";
	if (vi_const(*src))
		return "constant input";
	if ((why = qp_read(sv, zv, dt, 0, &a)))
		return why;
	if (a.sv || a.zv)
		why = "run-time DequantizeLinear parameters";
	*s = a.s[0];
	*zp = a.zp[0];
	qp_free(&a);
	return why;
}

const char *xk_dq_equal(const OrtValueInfo *v, const OrtValueInfo **src, int dt,
			const struct qp *y, const OrtNode **dq)
{
	const char *why;
	float s;
	int32_t zp;

	if ((why = dq_params(v, src, dt, dq, &s, &zp)))
		return why;
	return !memcmp(&s, &y->s[0], sizeof(float)) && zp == y->zp[0] ? NULL :
	       "DequantizeLinear and QuantizeLinear parameters differ: ORT requantizes";
}

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

struct xk *xk_new(struct match *m, enum xk_op op, int dt)
{
	struct xk *x = calloc(1, sizeof(*x));

	if (!x)
		return NULL;
	x->op = op;
	x->dt = dt;
	x->nv = -1;
	m->k.kind = K_XK;
	m->k.requant = false;
	m->k.xdt = m->k.ydt = dt;
	m->k.xk = x;
	return x;
}

/* a constant int64 [n <= 8] input (shape, axes, starts ...) into @v, its count in *@n */
const char *xk_ints(const OrtValueInfo *v, int64_t *out, int *n)
{
	const OrtValue *val = NULL;
	OrtTensorTypeAndShapeInfo *tsi = NULL;
	ONNXTensorElementDataType et;
	size_t cnt = 0, r = 0;
	const void *p = NULL;
	const char *why = "shape/axes/indices not int64 [n <= 8]";

	if (!vi_const(v) || !ok(ort->ValueInfo_GetInitializerValue(v, &val)) || !val ||
	    !ok(ort->GetTensorTypeAndShape(val, &tsi)))
		return "shape/axes/indices input not a constant initializer";
	if (ok(ort->GetTensorElementType(tsi, &et)) && et == ONNX_TENSOR_ELEMENT_DATA_TYPE_INT64 &&
	    ok(ort->GetTensorShapeElementCount(tsi, &cnt)) && ok(ort->GetDimensionsCount(tsi, &r)) &&
	    r == 1 && cnt <= 8 && ok(ort->GetTensorData(val, &p)) && (p || !cnt)) {
		if (cnt)
			memcpy(out, p, cnt * sizeof(int64_t));
		*n = (int)cnt;
		why = NULL;
	}
	ort->ReleaseTensorTypeAndShapeInfo(tsi);
	return why;
}

static const char *const_ints(const OrtValueInfo *v, struct xk *x)
{
	return xk_ints(v, x->v, &x->nv);
}

static void match_move(const OrtNode *n, struct match *m, enum xk_op op)
{
	const OrtValueInfo *in[3], *src;
	const OrtNode *dq, *q;
	struct qp y;
	struct xk *x;
	size_t ni = node_inputs(n, in, 3);
	int dt = 0, c;

	memset(&y, 0, sizeof(y));
	if (ni < 1 || !in[0]) {
		m->why = "missing input";
		return;
	}
	if ((m->why = xk_q_after(node_output0(n), &q, &dt, &y)) ||
	    (m->why = xk_scale_guard(y.s[0])) ||
	    (m->why = xk_dq_equal(in[0], &src, dt, &y, &dq)))
		goto out;
	if (!(x = xk_new(m, op, dt))) {
		m->why = "out of memory";
		goto out;
	}
	x->zp[0] = y.zp[0];
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
	if (m->why || (m->why = xk_input(x, src)))
		goto out;
	m->nodes[m->nn++] = dq;
	m->nodes[m->nn++] = n;
	m->nodes[m->nn++] = q;
	snprintf(m->k.op, sizeof(m->k.op), "DQ->%s->Q", node_op(n));
out:
	qp_free(&y);
}

static void match_concat(const OrtNode *n, struct match *m)
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
		if ((m->why = dq_params(in[i], &srcs[i], dt, &dqs[i], &s, &zp)))
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
static void match_leaky(const OrtNode *n, struct match *m)
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
	    (m->why = dq_params(in[0], &src, dt, &dq, &s, &zp)))
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
	if ((m->why = xk_input(x, src)))
		goto out;
	m->nodes[m->nn++] = dq;
	m->nodes[m->nn++] = n;
	m->nodes[m->nn++] = q;
	snprintf(m->k.op, sizeof(m->k.op), "DQ->LeakyRelu->Q");
out:
	qp_free(&y);
}

void xk_match(const OrtNode *n, struct match *m)
{
	const char *op = node_op(n);

	for (size_t i = 0; i < sizeof(xk_ops) / sizeof(xk_ops[0]); i++) {
		if (strcmp(op, xk_ops[i].op))
			continue;
		if (xk_ops[i].x == XK_CONCAT)
			match_concat(n, m);
		else if (xk_ops[i].x == XK_ADD || xk_ops[i].x == XK_MUL)
			ew_match(n, m, xk_ops[i].x);
		else if (xk_ops[i].x == XK_SLICE || xk_ops[i].x == XK_RESIZE)
			sel_match(n, m, xk_ops[i].x);
		else if (xk_ops[i].x == XK_SOFTMAX)
			sm_match(n, m);
		else if (xk_ops[i].x == XK_LEAKYRELU)
			match_leaky(n, m);
		else if (xk_ops[i].x == XK_AVGPOOL || xk_ops[i].x == XK_GLOBALAVGPOOL)
			pool_match(n, m, xk_ops[i].x);
		else
			match_move(n, m, xk_ops[i].x);
		return;
	}
	m->why = "no e1 kernel matching ORT's CPU EP byte for byte";
}

const char *xk_desc(const struct kern *k)
{
	if (k->xk && (k->xk->op == XK_ADD || k->xk->op == XK_MUL))
		return "on the host as MLAS's QLinearAdd/QLinearMul (float32, e1 has no such arithmetic)";
	if (k->xk && k->xk->op == XK_SOFTMAX)
		return "on the host as ORT's QLinearSoftmax (its exp table and float32 sums)";
	if (k->xk && (k->xk->op == XK_AVGPOOL || k->xk->op == XK_GLOBALAVGPOOL))
		return "on the host as ORT's QLinearAveragePool/QLinearGlobalAveragePool";
	if (k->xk && k->xk->op == XK_LEAKYRELU)
		return "QLinearLeakyRelu's table, on the host";
	if (k->xk && k->xk->op == XK_CONCAT)
		return "8-bit copies, or QLinearConcat's requantization table, on the host";
	return "8-bit data movement on the host, as ORT's CPU EP once it drops the Q/DQ";
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

OrtStatus *xk_run(struct kern *k, OrtKernelContext *ctx)
{
	struct xk *x = k->xk;
	const void *p;
	int64_t d[8], od[8], n = 1;
	size_t r, orank = 0;
	uint8_t *y;
	OrtStatus *s;

	if (!k->runs++)
		snprintf(k->why, sizeof(k->why), "%s", xk_desc(k));
	if (x->op == XK_CONCAT)
		return run_concat(k, ctx);
	if (x->op == XK_ADD || x->op == XK_MUL)
		return ew_run(k, ctx);
	if (x->op == XK_SLICE || x->op == XK_RESIZE)
		return sel_run(k, ctx);
	if (x->op == XK_SOFTMAX)
		return sm_run(k, ctx);
	if (x->op == XK_AVGPOOL || x->op == XK_GLOBALAVGPOOL)
		return pool_run(k, ctx);
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

/* ------------------------------------------------------------------ */
/* Relu/Clip before a QuantizeLinear                                    */

/* a constant float scalar input (Clip's min/max); absent: @def */
static bool clip_bound(const OrtValueInfo *v, float def, float *out)
{
	struct operand o;
	bool good;

	*out = def;
	if (!v)
		return true;
	if (!load_const(v, &o))
		return false;
	good = o.dtype == ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT && o.count == 1 && o.rank == 0;
	if (good)
		*out = *(float *)o.data;
	free(o.data);
	return good;
}

/*
 * NULL when ORT's optimizer removes @act (a Relu or Clip whose only
 * consumer is the QuantizeLinear @q, of output type @dt) before fusing
 * the group, else why not. ReluQuantFusion: Q has a constant zero point
 * input equal to the type's lowest value. ClipQuantFusion: Q's scale
 * and zero point are constant scalars (rank 0) and, in float32, with
 * lower = s * (qmin - zp), upper = s * (qmax - zp):
 * min - lower <= FLT_EPSILON and upper - max <= FLT_EPSILON (the
 * saturation then is the clip, within an epsilon).
 */
const char *xk_act_dropped(const OrtNode *act, const OrtNode *q, int dt)
{
	const OrtValueInfo *qin[3], *ain[3];
	size_t nq = node_inputs(q, qin, 3), na = node_inputs(act, ain, 3), r;
	bool s8 = dt == ONNX_TENSOR_ELEMENT_DATA_TYPE_INT8;
	int32_t qmin = s8 ? -128 : 0, qmax = s8 ? 127 : 255;
	struct operand s, z;
	int32_t zp;
	float lo, hi, lower, upper;
	int64_t d[8];

	if (nq != 3 || !qin[2] || !vi_const(qin[2]))
		return "Relu/Clip before a QuantizeLinear without a constant zero point input (ORT keeps it: float)";
	if (!load_const(qin[2], &z))
		return "cannot read the QuantizeLinear zero point";
	zp = z.count != 1 || z.dtype != dt ? INT32_MIN : s8 ? *(int8_t *)z.data : *(uint8_t *)z.data;
	r = z.rank;
	free(z.data);
	if (zp == INT32_MIN)
		return "QuantizeLinear zero point not a scalar of its type";
	if (!strcmp(node_op(act), "Relu"))
		return zp == qmin ? NULL :
		       "Relu before a QuantizeLinear whose zero point is not the lowest value (ORT keeps it: float)";
	/* Clip (opset >= 11: min/max inputs) */
	if (attr_ints(act, "min", d, 1) || na < 1 || r != 0 ||
	    vi_type(qin[1], NULL, &r) != ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT || r != 0 ||
	    !load_const(qin[1], &s))
		return "Clip before a QuantizeLinear without rank-0 constant parameters (ORT keeps it: float)";
	lower = *(float *)s.data * (float)(qmin - zp);
	upper = *(float *)s.data * (float)(qmax - zp);
	free(s.data);
	if (!clip_bound(na > 1 ? ain[1] : NULL, -FLT_MAX, &lo) ||
	    !clip_bound(na > 2 ? ain[2] : NULL, FLT_MAX, &hi))
		return "Clip bounds not constant float scalars";
	if (FLT_EPSILON < lo - lower || FLT_EPSILON < upper - hi)
		return "Clip narrower than the QuantizeLinear's range (ORT keeps it: float)";
	return NULL;
}
