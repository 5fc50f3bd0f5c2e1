// SPDX-License-Identifier: MIT
/*
 * What the matchers of the QDQ groups (ep_move.c ... ep_pool.c) share:
 * the QuantizeLinear after a node and the DequantizeLinear before one,
 * with their constant per-tensor parameters; a group's kernel state
 * (struct xk) and its operands; constant int64 inputs; and whether ORT's
 * optimizer removes a Relu/Clip before a QuantizeLinear.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ep.h"
#include "ep_graph.h"

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

/* DQ @v's run-time source of type @dt and its constant per-tensor parameters */
const char *xk_dq_params(const OrtValueInfo *v, const OrtValueInfo **src, int dt,
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

	if ((why = xk_dq_params(v, src, dt, dq, &s, &zp)))
		return why;
	return !memcmp(&s, &y->s[0], sizeof(float)) && zp == y->zp[0] ? NULL :
	       "DequantizeLinear and QuantizeLinear parameters differ: ORT requantizes";
}

/* the head of an equal-parameter group DQ -> @n -> Q: see ep_graph.h */
struct xk *xk_head_equal(const OrtNode *n, const OrtValueInfo *in0, struct match *m, enum xk_op op,
			 struct xk_ends *e)
{
	struct xk *x;

	if ((m->why = xk_q_after(node_output0(n), &e->q, &e->dt, &e->y)) ||
	    (m->why = xk_scale_guard(e->y.s[0])) ||
	    (m->why = xk_dq_equal(in0, &e->src, e->dt, &e->y, &e->dq)))
		return NULL;
	if (!(x = xk_new(m, op, e->dt)))
		m->why = "out of memory";
	return x;
}

/* a one-operand group's claim: see ep_graph.h */
const char *xk_claim_unary(struct match *m, struct xk *x, const OrtValueInfo *src,
			   const OrtNode *dq, const OrtNode *n, const OrtNode *q)
{
	const char *why = xk_input(x, src);

	if (why)
		return why;
	m->nodes[m->nn++] = dq;
	m->nodes[m->nn++] = n;
	m->nodes[m->nn++] = q;
	snprintf(m->k.op, sizeof(m->k.op), "DQ->%s->Q", node_op(n));
	return NULL;
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
