// SPDX-License-Identifier: MIT
/*
 * DQ -> Add/Mul -> Q: ORT's CPU EP fuses the group into com.microsoft
 * QLinearAdd / QLinearMul, computed by MLAS in float32. This reproduces
 * MLAS's x86-64 arithmetic exactly, on the host (e1's elementwise ADD is
 * TFLite's fixed-point one, not this):
 *
 *   QLinearAdd, AVX2+FMA kernel (chosen by MLAS when the CPU has both):
 *     rA = sA / sC, rB = sB / sC, fixed = zC - fma(rA, zA, rB * zB) (the
 *     compiler contracted MLAS's scalar rA * zA + rB * zB: measured, every
 *     (a, b) pair of 80 random parameter sets),
 *     c = fma(a, rA, fma(b, rB, fixed)) -- the same where B is MLAS's
 *     scalar operand (its fixed + b * rB is contracted too: measured)
 *   QLinearAdd, SSE2 kernel (CPUs without AVX2+FMA): not verified, so
 *     not claimed there
 *   QLinearMul (SSE2 on every x86-64): r = (sA * sB) / sC,
 *     c = float((a - zA) * (b - zB)) * r + zC
 *
 * then round half to even (cvtps2dq: out of range is INT32_MIN), saturate
 * to int16, then to the 8-bit type. a, b are the raw 8-bit values.
 * A Relu or Clip before the Q is part of the group where ORT's
 * optimizer drops it (xk_act_dropped).
 * Broadcasting as ORT's loop does it: it hands MLAS spans of the
 * innermost output dimension; an operand broadcast along it is MLAS's
 * scalar B (input 0 then swaps roles with input 1: A is the span).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ep.h"
#include "ep_graph.h"

/* a DQ input: its source and constant per-tensor parameters of type @dt */
static const char *ew_operand(const OrtValueInfo *v, int dt, const OrtValueInfo **src,
			      const OrtNode **dq, float *s, int32_t *zp)
{
	const OrtValueInfo *sv, *zv;
	struct qp q;
	const char *why;

	*dq = dq_of(v, src, &sv, &zv);
	if (!*dq)
		return "float (inputs not from single-use DequantizeLinear)";
	if (vi_type(*src, NULL, NULL) != dt)
		return "inputs and output not of one 8-bit type";
	if ((why = qp_read(sv, zv, dt, 0, &q)))
		return why;
	if (q.sv || q.zv)
		why = "run-time DequantizeLinear parameters";
	*s = q.s[0];
	*zp = q.zp[0];
	qp_free(&q);
	return why;
}

/* shapes that cannot broadcast (when known): ORT refuses them too */
static const char *broadcastable(const OrtValueInfo *a, const OrtValueInfo *b)
{
	int64_t da[8], db[8];
	size_t ra, rb;

	vi_type(a, da, &ra);
	vi_type(b, db, &rb);
	if (ra == (size_t)-1 || rb == (size_t)-1)
		return NULL;	/* checked at run time */
	for (size_t i = 1; i <= ra && i <= rb; i++) {
		int64_t x = da[ra - i], y = db[rb - i];

		if (x > 1 && y > 1 && x != y)
			return "operand shapes do not broadcast";
	}
	return NULL;
}

void ew_match(const OrtNode *n, struct match *m, enum xk_op op)
{
	const OrtValueInfo *in[3], *src[2];
	const OrtNode *dq[2], *q, *act = only_consumer(node_output0(n));
	const OrtValueInfo *ov = node_output0(n);
	struct qp y;
	struct xk *x;
	int dt = 0;

	memset(&y, 0, sizeof(y));
	if (node_inputs(n, in, 3) != 2 || !in[0] || !in[1]) {
		m->why = "not two inputs";
		return;
	}
	if (act && (!strcmp(node_op(act), "Relu") || !strcmp(node_op(act), "Clip")) &&
	    node_onnx_domain(act))
		ov = node_output0(act);	/* dropped by ORT when the Q covers it */
	else
		act = NULL;
	if ((m->why = xk_q_after(ov, &q, &dt, &y)) ||
	    (act && (m->why = xk_act_dropped(act, q, dt))))
		goto out;
	x = calloc(1, sizeof(*x));
	if (!x) {
		m->why = "out of memory";
		goto out;
	}
	x->op = op;
	x->dt = dt;
	x->ys = y.s[0];
	x->yzp = y.zp[0];
	x->fma = ew_cpu_ok();
	m->why = xk_cpu_why(op);
	m->k.kind = K_XK;
	m->k.xdt = m->k.ydt = dt;
	m->k.xk = x;
	for (int i = 0; i < 2 && !m->why; i++)
		m->why = ew_operand(in[i], dt, &src[i], &dq[i], &x->s[i], &x->zp[i]);
	if (m->why || (m->why = broadcastable(src[0], src[1])))
		goto out;
	if (vi_const(src[0]) && vi_const(src[1])) {
		m->why = "both operands constant";
		goto out;
	}
	if ((m->why = xk_input(x, src[0])) || (m->why = xk_input(x, src[1])))
		goto out;
	m->nodes[m->nn++] = dq[0];
	m->nodes[m->nn++] = dq[1];
	m->nodes[m->nn++] = n;
	if (act)
		m->nodes[m->nn++] = act;
	m->nodes[m->nn++] = q;
	snprintf(m->k.op, sizeof(m->k.op), "DQ->%s%s%s->Q", node_op(n), act ? "->" : "",
		 act ? node_op(act) : "");
out:
	qp_free(&y);
}

/* cvtps2dq (round half to even; NaN or out of range: INT32_MIN), then
 * packssdw (int16) and packuswb/packsswb (the 8-bit type) */
static uint8_t pack8(float v, bool s8)
{
	int32_t r = !(v > -2147483648.0f && v < 2147483648.0f) ? INT32_MIN : (int32_t)nearbyintf(v);

	r = r < -32768 ? -32768 : r > 32767 ? 32767 : r;
	if (s8)
		return (uint8_t)(int8_t)(r < -128 ? -128 : r > 127 ? 127 : r);
	return (uint8_t)(r < 0 ? 0 : r > 255 ? 255 : r);
}

/* the output shape of numpy broadcasting, and each operand's strides in it */
static OrtStatus *bcast(const struct kern *k, const int64_t d[2][8], const size_t r[2],
			int64_t *od, size_t *orank, int64_t st_[2][8])
{
	size_t R = r[0] > r[1] ? r[0] : r[1];

	for (size_t i = 0; i < R; i++) {
		int64_t a = i + r[0] >= R ? d[0][i + r[0] - R] : 1;
		int64_t b = i + r[1] >= R ? d[1][i + r[1] - R] : 1;

		if (a != b && a != 1 && b != 1)
			return st(ORT_INVALID_ARGUMENT, "e1npu: %s: shapes do not broadcast (dimension %zu: %lld and %lld)",
				  k->name, i, (long long)a, (long long)b);
		od[i] = a == 1 ? b : a;
		st_[0][i] = a == 1 ? 0 : 1;
		st_[1][i] = b == 1 ? 0 : 1;
	}
	for (int j = 0; j < 2; j++) {	/* element strides (0: broadcast) */
		int64_t m = 1;

		for (size_t i = R; i-- > 0;) {
			int64_t dim = i + r[j] >= R ? d[j][i + r[j] - R] : 1;

			st_[j][i] = st_[j][i] ? m : 0;
			m *= dim;
		}
	}
	*orank = R;
	return NULL;
}

static inline float ld(const void *p, int64_t i, bool s8)
{
	return (float)(s8 ? ((const int8_t *)p)[i] : ((const uint8_t *)p)[i]);
}

/* the next output element: the two operands' offsets move on */
static void odometer(size_t R, const int64_t *od, int64_t str[2][8], int64_t *idx, int64_t *off)
{
	for (size_t i = R; i-- > 0;) {
		off[0] += str[0][i];
		off[1] += str[1][i];
		if (++idx[i] < od[i])
			break;
		off[0] -= str[0][i] * od[i];
		off[1] -= str[1][i] * od[i];
		idx[i] = 0;
	}
}

OrtStatus *ew_run(struct kern *k, OrtKernelContext *ctx)
{
	const struct xk *x = k->xk;
	const void *p[2];
	int64_t d[2][8], od[8], str[2][8], idx[8] = { 0 }, n = 1, off[2] = { 0, 0 };
	size_t r[2], R = 0;
	bool s8 = x->dt == ONNX_TENSOR_ELEMENT_DATA_TYPE_INT8;
	int scal = -1;		/* the operand MLAS gets as a scalar (ORT's span) */
	uint8_t *y;
	OrtStatus *s;

	for (int i = 0; i < 2; i++)
		if ((s = get_in(ctx, (struct operand *)&x->in[i], &p[i], d[i], &r[i])))
			return s;
	if ((s = bcast(k, d, r, od, &R, str)))
		return s;
	for (size_t i = 0; i < R; i++)
		n *= od[i];
	if ((s = kout(k, ctx, od, R, (void **)&y)))
		return s;
	/*
	 * ORT's broadcast loop hands MLAS spans of the innermost output
	 * dimension of size > 1 (merged): an operand broadcast there is a
	 * scalar for MLAS (input 0 is checked first); one element: input 0.
	 */
	for (size_t i = R; i-- > 0 && scal < 0;)
		if (od[i] > 1)
			scal = !str[0][i] ? 0 : !str[1][i] ? 1 : 2;
	if (scal < 0)
		scal = 0;
	if (x->op == XK_ADD) {
		/* MLAS's A is the span operand, B the scalar one (swapped when
		 * input 0 is the scalar) */
		int ia = scal == 0 ? 1 : 0, ib = 1 - ia;
		float ra = x->s[ia] / x->ys, rb = x->s[ib] / x->ys, tb = rb * (float)x->zp[ib];
		float fixed = (float)x->yzp - fmaf(ra, (float)x->zp[ia], tb);

		for (int64_t o = 0; o < n; o++) {
			float a = ld(p[ia], off[ia], s8), b = ld(p[ib], off[ib], s8);

			y[o] = pack8(scal == 2 ? fmaf(a, ra, fmaf(b, rb, fixed)) :
				     fmaf(a, ra, fmaf(b, rb, fixed)), s8);
			odometer(R, od, str, idx, off);
		}
	} else {
		/* exact product, commutative ratio: one formula for every path */
		float ab = x->s[0] * x->s[1], ratio = ab / x->ys, zc = (float)x->yzp;

		for (int64_t o = 0; o < n; o++) {
			int32_t a = (int32_t)ld(p[0], off[0], s8), b = (int32_t)ld(p[1], off[1], s8);
			float t = (float)((a - x->zp[0]) * (b - x->zp[1])) * ratio;

			y[o] = pack8(t + zc, s8);
			odometer(R, od, str, idx, off);
		}
	}
	return NULL;
}
