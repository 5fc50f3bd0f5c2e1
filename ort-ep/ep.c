// SPDX-License-Identifier: MIT
/*
 * libe1npu_ort_ep.so: an ONNX Runtime (1.23) plugin execution provider for
 * the e1 NPU, on libe1npu (Documentation/onnxruntime.md).
 *
 * It claims quantized matrix products whose result it can make equal to
 * ONNX Runtime's CPU EP byte for byte: QLinearMatMul, QLinearConv,
 * MatMulInteger, ConvInteger, and the QDQ groups ORT's CPU EP fuses into
 * QLinearMatMul / QLinearConv / QGemm (DQ->MatMul->Q, DQ->Conv->Q,
 * DQ->Gemm->Q, with a Relu ORT drops), and DQ->MaxPool->Q with equal
 * parameters (e1npu_ops_maxpool on the 8-bit values). The int32
 * accumulation runs on e1 (e1npu_ops_matmul_s8: raw int8 x int8 -> int32,
 * zero points folded exactly on the host); the requantization runs on the
 * host as ORT's MLAS does it (float32 scale x_scale * w_scale / y_scale,
 * float(acc) * scale, clamp, round half to even, + zero point). The
 * other QDQ groups are matched and run by ep_move.c (8-bit data movement:
 * Reshape ..., Concat, Relu), ep_select.c (Slice, Resize nearest),
 * ep_eltwise.c (QLinearAdd/QLinearMul as MLAS computes them),
 * ep_softmax.c (QLinearSoftmax) and ep_pool.c (QLinear(Global)AveragePool);
 * groups joined by a tensor are one partition (ep_part.c). Anything
 * else, or anything unexpected, stays on the CPU EP with its reason.
 * Compiled models (EPContext nodes) are ep_context.c's.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <onnxruntime_c_api.h>

#include <e1npu/e1npu.h>
#include <e1npu/e1npu_ops.h>

#include "ep.h"
#include "ep_graph.h"

/* ------------------------------------------------------------------ */
/* Matching: fills a kernel (without run-time indices) or gives a reason */

static const char *conv_attrs(const OrtNode *n, struct kern *k, const int64_t *wdims, size_t wrank)
{
	int64_t v[8];
	char pad[32];
	int c;

	if (wrank != 4)
		return "not a 2-D convolution (or weight rank unknown)";
	for (int i = 0; i < 4; i++)
		if (wdims[i] <= 0)
			return "weight shape not static";
	k->group = attr_int(n, "group", 1);
	if (k->group < 1 || wdims[0] <= 0 || wdims[0] % k->group)
		return "bad group";
	k->kh = wdims[2];
	k->kw = wdims[3];
	c = attr_ints(n, "kernel_shape", v, 8);
	if (c < 0 || (c && (c != 2 || v[0] != k->kh || v[1] != k->kw)))
		return "kernel_shape mismatch";
	k->sh = k->sw = k->dh = k->dw = 1;
	k->pt = k->pl = k->pb = k->pr = 0;
	c = attr_ints(n, "strides", v, 8);
	if (c < 0 || (c && c != 2))
		return "bad strides";
	if (c)
		k->sh = v[0], k->sw = v[1];
	c = attr_ints(n, "dilations", v, 8);
	if (c < 0 || (c && c != 2))
		return "bad dilations";
	if (c)
		k->dh = v[0], k->dw = v[1];
	c = attr_ints(n, "pads", v, 8);
	if (c < 0 || (c && c != 4))
		return "bad pads";
	if (c)
		k->pt = v[0], k->pl = v[1], k->pb = v[2], k->pr = v[3];
	k->autopad = 0;
	if (attr_str(n, "auto_pad", pad, sizeof(pad)) && strcmp(pad, "NOTSET")) {
		if (!strcmp(pad, "VALID"))
			k->pt = k->pl = k->pb = k->pr = 0;
		else if ((k->dh > 1 || k->dw > 1) && strncmp(pad, "SAME", 4) == 0)
			return "auto_pad SAME_* with dilation (ORT's CPU EP refuses it too)";
		else if (!strcmp(pad, "SAME_UPPER"))
			k->autopad = 1;
		else if (!strcmp(pad, "SAME_LOWER"))
			k->autopad = 2;
		else
			return "unknown auto_pad";
	}
	if (k->sh < 1 || k->sw < 1 || k->dh < 1 || k->dw < 1 || k->pt < 0 || k->pl < 0 ||
	    k->pb < 0 || k->pr < 0 || k->kh < 1 || k->kw < 1 || k->kh > 64 || k->kw > 64)
		return "unsupported stride/dilation/pad/kernel";
	return NULL;
}

static void set_rt(struct kern *k, const struct qp *x, const struct qp *w, const struct qp *y)
{
	k->rtv[0] = x->sv;
	k->rtv[1] = x->zv;
	k->rtv[2] = w->sv;
	k->rtv[3] = w->zv;
	k->rtv[4] = y->sv;
	k->rtv[5] = y->zv;
}

/* w: per-channel allowed for conv (axis 0, n = M) */
static const char *set_w(struct kern *k, struct qp *wq, size_t n)
{
	k->nw = wq->n;
	if (wq->n != 1 && wq->n != n)
		return "weight scale count mismatch";
	for (size_t i = 1; i < wq->n; i++)
		if (wq->zp[i] != wq->zp[0])
			return "per-channel weight zero points that differ (ORT's CPU EP refuses them too)";
	k->ws = wq->s;
	k->wzp = wq->zp;
	wq->s = NULL;
	wq->zp = NULL;
	return NULL;
}

static bool int_type_ok(int xdt, int wdt)
{
	/* ORT CPU's kernels: u8 x u8, u8 x s8, s8 x s8 */
	return is8(xdt) && is8(wdt) &&
	       !(xdt == ONNX_TENSOR_ELEMENT_DATA_TYPE_INT8 &&
		 wdt == ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT8);
}

static const char *check_matmul_shapes(const OrtValueInfo *xv, const OrtValueInfo *wv)
{
	int64_t xd[8], wd[8];
	size_t xr, wr;

	vi_type(xv, xd, &xr);
	vi_type(wv, wd, &wr);
	if (xr == (size_t)-1 || wr == (size_t)-1)
		return "rank unknown";
	if (xr < 2 || wr < 2 || (wr != 2 && wr != xr))
		return "only A [..., M, K] x B [K, N] or batched B of A's rank";
	if (xd[xr - 1] > 0 && wd[wr - 2] > 0 && xd[xr - 1] != wd[wr - 2])
		return "K mismatch";
	for (size_t i = 0; wr > 2 && i + 2 < wr; i++)
		if (xd[i] <= 0 || xd[i] != wd[i])
			return "batch dimensions not static and equal (no broadcasting)";
	if (wd[wr - 2] > 32768)
		return "K too large for exact int32";
	return NULL;
}

static int64_t wdims_of(const OrtValueInfo *wv, int64_t *d)
{
	size_t r;

	vi_type(wv, d, &r);
	return (int64_t)r;
}

/* QLinearMatMul / QLinearConv / MatMulInteger / ConvInteger alone */
static void match_qlinear(const OrtNode *n, struct match *m)
{
	const char *op = node_op(n);
	const OrtValueInfo *in[10];
	size_t ni = node_inputs(n, in, 10);
	struct kern *k = &m->k;
	struct qp xq, wq, yq;
	bool conv = strstr(op, "Conv") != NULL;
	int64_t wd[8];
	size_t wr;

	memset(&xq, 0, sizeof(xq));
	memset(&wq, 0, sizeof(wq));
	memset(&yq, 0, sizeof(yq));
	m->nodes[0] = n;
	m->nn = 1;
	snprintf(k->op, sizeof(k->op), "%s", op);
	k->kind = conv ? K_CONV : K_MATMUL;
	k->requant = !strncmp(op, "QLinear", 7);
	if (k->requant) {
		if (ni < 8 || !in[0] || !in[3] || !in[1] || !in[4] || !in[6]) {
			m->why = "missing inputs";
			return;
		}
		m->xv = in[0];
		m->wv = in[3];
	} else {
		if (ni < 2 || !in[0] || !in[1]) {
			m->why = "missing inputs";
			return;
		}
		m->xv = in[0];
		m->wv = in[1];
	}
	k->xdt = vi_type(m->xv, NULL, NULL);
	k->wdt = vi_type(m->wv, NULL, NULL);
	if (!int_type_ok(k->xdt, k->wdt)) {
		m->why = "types other than u8xu8, u8xs8, s8xs8";
		return;
	}
	wr = (size_t)wdims_of(m->wv, wd);
	if (conv) {
		if ((m->why = conv_attrs(n, k, wd, wr)))
			return;
	} else if ((m->why = check_matmul_shapes(m->xv, m->wv))) {
		return;
	}
	if (k->requant) {
		k->ydt = vi_type(node_output0(n), NULL, NULL);
		if (k->ydt != k->xdt) {
			m->why = "output type differs from input type";
			return;
		}
		if ((m->why = qp_read(in[1], in[2], k->xdt, 0, &xq)) ||
		    (m->why = qp_read(in[4], in[5], k->wdt, conv ? (size_t)wd[0] : 0, &wq)) ||
		    (m->why = qp_read(in[6], in[7], k->ydt, 0, &yq)))
			goto out;
		set_rt(k, &xq, &wq, &yq);
		k->xs = xq.s[0];
		k->xzp = xq.zp[0];
		k->ys = yq.s[0];
		k->yzp = yq.zp[0];
		if ((m->why = set_w(k, &wq, conv ? (size_t)wd[0] : 1)))
			goto out;
		if (conv && ni > 8 && in[8]) {
			if (!load_const(in[8], &k->bias) ||
			    k->bias.dtype != ONNX_TENSOR_ELEMENT_DATA_TYPE_INT32 ||
			    k->bias.count != (size_t)wd[0]) {
				m->why = "bias not a constant int32 [M]";
				goto out;
			}
		}
	} else {
		struct operand z;

		k->ydt = ONNX_TENSOR_ELEMENT_DATA_TYPE_INT32;
		k->nw = 1;
		k->wzp = calloc(1, sizeof(*k->wzp));
		if (!k->wzp) {
			m->why = "out of memory";
			return;
		}
		if (ni > 2 && in[2] && rt_scalar(in[2], k->xdt)) {
			k->rtv[1] = in[2];
		} else if (ni > 2 && in[2]) {
			if (!load_const(in[2], &z) || z.count != 1 || z.dtype != k->xdt) {
				free(z.data);
				m->why = "input zero point not a constant scalar";
				return;
			}
			k->xzp = k->xdt == ONNX_TENSOR_ELEMENT_DATA_TYPE_INT8 ?
				*(int8_t *)z.data : *(uint8_t *)z.data;
			free(z.data);
		}
		if (ni > 3 && in[3] && rt_scalar(in[3], k->wdt)) {
			k->rtv[3] = in[3];
		} else if (ni > 3 && in[3]) {
			if (!load_const(in[3], &z) || z.count != 1 || z.dtype != k->wdt) {
				free(z.data);
				m->why = "weight zero point not a constant scalar";
				return;
			}
			k->wzp[0] = k->wdt == ONNX_TENSOR_ELEMENT_DATA_TYPE_INT8 ?
				*(int8_t *)z.data : *(uint8_t *)z.data;
			free(z.data);
		}
	}
	if ((m->why = take_operand(m->wv, &k->w, false)))
		goto out;
	if ((m->why = take_operand(m->xv, &k->x, false)))
		goto out;
	m->why = sat_guard(k);
out:
	qp_free(&xq);
	qp_free(&wq);
	qp_free(&yq);
}

/* DQ -> MatMul/Conv -> Q */
static void match_qdq(const OrtNode *n, struct match *m)
{
	const char *op = node_op(n);
	const OrtValueInfo *in[3], *xsrc, *xs, *xz, *wsrc, *wsv, *wz, *out, *qin[3];
	const OrtValueInfo *bsrc = NULL, *bs, *bz;
	const OrtNode *dqx, *dqw, *dqb = NULL, *q, *relu = NULL;
	struct kern *k = &m->k;
	struct qp xq, wq, yq;
	bool conv = !strcmp(op, "Conv"), gemm = !strcmp(op, "Gemm");
	size_t ni = node_inputs(n, in, 3), nq, gn = 0, nch;
	int64_t transb = 0;
	int64_t wd[8];
	size_t wr;

	memset(&xq, 0, sizeof(xq));
	memset(&wq, 0, sizeof(wq));
	memset(&yq, 0, sizeof(yq));
	if (ni < 2 || !in[0] || !in[1]) {
		m->why = "missing inputs";
		return;
	}
	dqx = dq_of(in[0], &xsrc, &xs, &xz);
	dqw = dq_of(in[1], &wsrc, &wsv, &wz);
	if (!dqx || !dqw) {
		m->why = "float (inputs not from single-use DequantizeLinear)";
		return;
	}
	if ((conv || gemm) && ni > 2 && in[2]) {
		dqb = dq_of(in[2], &bsrc, &bs, &bz);
		if (!dqb) {
			m->why = "float bias";
			return;
		}
	}
	out = node_output0(n);
	q = only_consumer(out);
	if (q && (!strcmp(node_op(q), "Relu") || !strcmp(node_op(q), "Clip")) &&
	    node_onnx_domain(q)) {
		/* ORT's Relu/ClipQuantFusion drops a Relu or Clip the Q's
		 * saturation covers (checked below: xk_act_dropped) */
		relu = q;
		q = only_consumer(node_output0(relu));
	}
	if (!q || strcmp(node_op(q), "QuantizeLinear") || !node_onnx_domain(q)) {
		m->why = "output not to a single QuantizeLinear";
		return;
	}
	nq = node_inputs(q, qin, 3);
	if (nq < 2 || !qin[1] || attr_int(q, "block_size", 0) != 0 ||
	    attr_int(q, "saturate", 1) != 1) {
		m->why = "QuantizeLinear form not handled";
		return;
	}
	m->nodes[m->nn++] = dqx;
	m->nodes[m->nn++] = dqw;
	if (dqb)
		m->nodes[m->nn++] = dqb;
	m->nodes[m->nn++] = n;
	if (relu)
		m->nodes[m->nn++] = relu;
	m->nodes[m->nn++] = q;
	snprintf(k->op, sizeof(k->op), "DQ->%s%s%s->Q", op, relu ? "->" : "", relu ? node_op(relu) : "");
	k->kind = conv ? K_CONV : K_MATMUL;
	k->requant = true;
	m->xv = xsrc;
	m->wv = wsrc;
	k->xdt = vi_type(xsrc, NULL, NULL);
	k->wdt = vi_type(wsrc, NULL, NULL);
	k->ydt = vi_type(node_output0(q), NULL, NULL);
	if (!int_type_ok(k->xdt, k->wdt) || k->ydt != k->xdt) {
		m->why = "types other than u8xu8, u8xs8, s8xs8 with output of the input's type";
		return;
	}
	wr = (size_t)wdims_of(wsrc, wd);
	if (conv) {
		if ((m->why = conv_attrs(n, k, wd, wr)))
			return;
	} else if (gemm) {
		/* ORT fuses it into com.microsoft QGemm: int32 C added to the
		 * accumulator, scale (alpha * a_scale * b_scale[n]) / y_scale
		 * (alpha 1 here), MLAS's requantization */
		int64_t xd[8];
		size_t xr;

		transb = attr_int(n, "transB", 0);
		vi_type(xsrc, xd, &xr);
		if (attr_float(n, "alpha", 1.0f) != 1.0f || attr_float(n, "beta", 1.0f) != 1.0f ||
		    attr_int(n, "transA", 0) != 0 || (transb != 0 && transb != 1)) {
			m->why = "Gemm with alpha/beta other than 1 or transA";
			return;
		}
		if (xr != 2 || wr != 2 || wd[0] <= 0 || wd[1] <= 0 || !vi_const(wsrc)) {
			m->why = "Gemm shapes not A [M, K] x constant B";
			return;
		}
		gn = (size_t)(transb ? wd[0] : wd[1]);
		if ((xd[1] > 0 && xd[1] != (transb ? wd[1] : wd[0])) || (transb ? wd[1] : wd[0]) > 32768) {
			m->why = "Gemm K mismatch or too large";
			return;
		}
	} else if ((m->why = check_matmul_shapes(xsrc, wsrc))) {
		return;
	}
	nch = conv ? (size_t)wd[0] : gemm ? gn : 0;
	if ((m->why = qp_read(xs, xz, k->xdt, 0, &xq)) ||
	    (m->why = qp_read(wsv, wz, k->wdt, nch, &wq)) ||
	    (m->why = qp_read(qin[1], nq > 2 ? qin[2] : NULL, k->ydt, 0, &yq)))
		goto out;
	if (relu && (m->why = xk_act_dropped(relu, q, k->ydt)))
		goto out;
	if (conv && wq.n > 1 && attr_int(dqw, "axis", 1) != 0) {
		m->why = "per-channel weight scale not on axis 0";
		goto out;
	}
	if (gemm && wq.n > 1 && attr_int(dqw, "axis", 1) != (transb ? 0 : 1)) {
		m->why = "per-channel weight scale not along N";
		goto out;
	}
	set_rt(k, &xq, &wq, &yq);
	k->xs = xq.s[0];
	k->xzp = xq.zp[0];
	k->ys = yq.s[0];
	k->yzp = yq.zp[0];
	if ((m->why = set_w(k, &wq, nch ? nch : 1)))
		goto out;
	if (dqb && (!load_const(bsrc, &k->bias) ||
		    k->bias.dtype != ONNX_TENSOR_ELEMENT_DATA_TYPE_INT32 ||
		    k->bias.count != nch || (gemm && k->bias.rank != 1))) {
		m->why = "bias not a constant int32 [channels]";
		goto out;
	}
	if ((m->why = take_operand(wsrc, &k->w, false)))
		goto out;
	if (gemm && transb) {
		/* B [N, K] -> [K, N] once */
		size_t K = (size_t)wd[1], N = gn;
		uint8_t *t = malloc(K * N + 1), *src = k->w.data;

		if (!t) {
			m->why = "out of memory";
			goto out;
		}
		for (size_t i = 0; i < N; i++)
			for (size_t j = 0; j < K; j++)
				t[j * N + i] = src[i * K + j];
		free(k->w.data);
		k->w.data = t;
		k->w.dims[0] = (int64_t)K;
		k->w.dims[1] = (int64_t)N;
	}
	if ((m->why = take_operand(xsrc, &k->x, false)))
		goto out;
	m->why = sat_guard(k);
out:
	qp_free(&xq);
	qp_free(&wq);
	qp_free(&yq);
}

/*
 * DQ -> MaxPool -> Q with the same (constant, per-tensor) scale and zero
 * point on both sides: the maximum commutes with the monotonic
 * dequantization, and Q(DQ(q)) = q, so the result is MaxPool of the 8-bit
 * values (what ORT's CPU EP runs once it drops such Q/DQ pairs).
 */
static void match_maxpool(const OrtNode *n, struct match *m)
{
	const OrtValueInfo *in[1], *src, *sv, *zv, *qin[3], *outs[2];
	const OrtNode *dq, *q;
	struct kern *k = &m->k;
	struct qp a, b;
	int64_t v[8], d[8];
	size_t r, no = 0, nq;
	int c;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	if (node_inputs(n, in, 1) < 1 || !in[0]) {
		m->why = "missing input";
		return;
	}
	if (!ok(ort->Node_GetNumOutputs(n, &no)) || no != 1) {
		m->why = "Indices output";
		return;
	}
	dq = dq_of(in[0], &src, &sv, &zv);
	if (!dq) {
		m->why = "float (input not from a single-use DequantizeLinear)";
		return;
	}
	outs[0] = node_output0(n);
	q = only_consumer(outs[0]);
	if (!q || strcmp(node_op(q), "QuantizeLinear") || !node_onnx_domain(q)) {
		m->why = "output not to a single QuantizeLinear";
		return;
	}
	nq = node_inputs(q, qin, 3);
	k->xdt = vi_type(src, d, &r);
	k->ydt = vi_type(node_output0(q), NULL, NULL);
	if (!is8(k->xdt) || k->xdt != k->ydt || nq < 2 || r != 4) {
		m->why = "not an 8-bit 2-D pool with output of the input's type";
		return;
	}
	if (vi_const(src)) {
		m->why = "constant input";
		return;
	}
	if ((m->why = qp_read(sv, zv, k->xdt, 0, &a)) ||
	    (m->why = qp_read(qin[1], nq > 2 ? qin[2] : NULL, k->ydt, 0, &b)))
		goto out;
	if (a.sv || a.zv || b.sv || b.zv || memcmp(&a.s[0], &b.s[0], sizeof(float)) ||
	    a.zp[0] != b.zp[0]) {
		m->why = "DequantizeLinear and QuantizeLinear parameters differ (or are not constant)";
		goto out;
	}
	c = attr_ints(n, "kernel_shape", v, 8);
	if (c != 2 || v[0] < 1 || v[1] < 1 || v[0] > 64 || v[1] > 64) {
		m->why = "not a 2-D kernel";
		goto out;
	}
	k->kh = v[0], k->kw = v[1];
	k->sh = k->sw = 1;
	c = attr_ints(n, "strides", v, 8);
	if (c < 0 || (c && c != 2) || (c && (v[0] < 1 || v[1] < 1))) {
		m->why = "bad strides";
		goto out;
	}
	if (c)
		k->sh = v[0], k->sw = v[1];
	c = attr_ints(n, "pads", v, 8);
	for (int i = 0; i < c; i++)
		if (v[i]) {
			m->why = "explicit padding";
			goto out;
		}
	c = attr_ints(n, "dilations", v, 8);
	for (int i = 0; i < c; i++)
		if (v[i] != 1) {
			m->why = "dilation";
			goto out;
		}
	{
		char ap[32];

		if (attr_int(n, "ceil_mode", 0) || attr_int(n, "storage_order", 0) ||
		    (attr_str(n, "auto_pad", ap, sizeof(ap)) && strcmp(ap, "NOTSET") &&
		     strcmp(ap, "VALID"))) {
			m->why = "ceil_mode, storage_order or auto_pad SAME";
			goto out;
		}
	}
	m->nodes[m->nn++] = dq;
	m->nodes[m->nn++] = n;
	m->nodes[m->nn++] = q;
	snprintf(k->op, sizeof(k->op), "DQ->MaxPool->Q");
	k->kind = K_MAXPOOL;
	k->xs = a.s[0];
	k->xzp = a.zp[0];
	m->xv = src;
	m->why = take_operand(src, &k->x, false);
out:
	qp_free(&a);
	qp_free(&b);
}

static bool anchor_op(const char *op)
{
	return !strcmp(op, "QLinearMatMul") || !strcmp(op, "QLinearConv") ||
	       !strcmp(op, "MatMulInteger") || !strcmp(op, "ConvInteger") ||
	       !strcmp(op, "MatMul") || !strcmp(op, "Conv") || !strcmp(op, "MaxPool") ||
	       !strcmp(op, "Gemm") || xk_anchor(op);
}

static void match_node(const OrtNode *n, struct match *m)
{
	const char *op = node_op(n);

	memset(m, 0, sizeof(*m));
#if !defined(__x86_64__) && !(defined(__riscv) && __riscv_xlen == 64)
	/* ORT's MLAS requantizes with fixed point on arm64: only x86-64's
	 * float path (matched here) and riscv64's portable kernels (the same
	 * float requantization; checked on the board) are verified */
	m->why = "only verified against ORT's x86-64 and riscv64 MLAS";
	return;
#endif
	if (!node_onnx_domain(n)) {
		m->why = "not in the ONNX domain";
		return;
	}
	if (!strcmp(op, "QLinearMatMul") || !strcmp(op, "QLinearConv") ||
	    !strcmp(op, "MatMulInteger") || !strcmp(op, "ConvInteger"))
		match_qlinear(n, m);
	else if (!strcmp(op, "MatMul") || !strcmp(op, "Conv") || !strcmp(op, "Gemm"))
		match_qdq(n, m);
	else if (!strcmp(op, "MaxPool"))
		match_maxpool(n, m);
	else if (xk_anchor(op))
		xk_match(n, m);
	else
		m->why = "no e1 kernel matching ORT's CPU EP byte for byte";
	if (m->why)
		m->nn = 0;
}

/* ------------------------------------------------------------------ */
/* GetCapability                                                        */

struct reason {
	char op[40];
	char why[120];
	unsigned count;
};

static const char *ORT_API_CALL ep_get_name(const OrtEp *this_ptr)
{
	(void)this_ptr;
	return EP_NAME;
}

static bool in_list(const OrtNode *const *l, size_t n, const OrtNode *x)
{
	for (size_t i = 0; i < n; i++)
		if (l[i] == x)
			return true;
	return false;
}

static OrtStatus *ORT_API_CALL ep_get_capability(OrtEp *this_ptr, const OrtGraph *graph,
						  OrtEpGraphSupportInfo *info)
{
	struct e1_ep *ep = (struct e1_ep *)this_ptr;
	size_t nn = 0, claimed = 0, parts = 0, nr = 0;
	const OrtNode **nodes = NULL, **taken = NULL, **gnodes = NULL, **fuse = NULL;
	struct grp *g = NULL;
	size_t ng = 0, ngn = 0;
	struct reason *rs = NULL;
	struct match m;
	OrtNodeFusionOptions fo;
	OrtStatus *ret = NULL;

	if (!ok(ort->Graph_GetNumNodes(graph, &nn)) || !nn)
		return NULL;
	nodes = calloc(nn, sizeof(*nodes));
	taken = calloc(nn, sizeof(*taken));
	rs = calloc(nn, sizeof(*rs));
	gnodes = calloc(nn, sizeof(*gnodes));
	fuse = calloc(nn, sizeof(*fuse));
	g = calloc(nn, sizeof(*g));
	if (!nodes || !taken || !rs || !gnodes || !fuse || !g ||
	    !ok(ort->Graph_GetNodes(graph, nodes, nn)))
		goto out;
	memset(&fo, 0, sizeof(fo));
	fo.ort_version_supported = ORT_API_VERSION;
	fo.drop_constant_initializers = true;
	/*
	 * A compiled model's EPContext nodes of this EP: each its own
	 * partition, loaded by Compile without the source graph. A blob that
	 * does not load here (another library version or format, another
	 * device, corrupted) fails the session with the reason: the CPU EP
	 * cannot run an EPContext node either.
	 */
	for (size_t i = 0; i < nn; i++) {
		OrtStatus *s;

		if (!ctx_is_ours(nodes[i]))
			continue;
		if (ep->ctx_enable) {
			ret = st(ORT_INVALID_ARGUMENT,
				 "e1npu: ep.context_enable=1 on a model that is already compiled (EPContext node '%s'): compile the original model",
				 node_name(nodes[i]));
			goto out;
		}
		if ((s = ctx_check(ep, nodes[i]))) {
			ret = s;
			goto out;
		}
		if (!ok(epapi->EpGraphSupportInfo_AddNodesToFuse(info, &nodes[i], 1, &fo)))
			continue;
		taken[claimed++] = nodes[i];
		parts++;
		if (ep->log >= LOG_VERBOSE)
			fprintf(stderr, "e1npu: claim EPContext '%s': compiled partition loaded, not compiled again\n",
				node_name(nodes[i]));
	}
	for (size_t i = 0; i < nn; i++) {
		bool clash = false;

		if (in_list(taken, claimed, nodes[i]) || in_list(gnodes, ngn, nodes[i]) ||
		    ctx_is_ep_context(nodes[i]))
			continue;
		match_node(nodes[i], &m);
		for (size_t j = 0; j < m.nn; j++)
			clash |= in_list(taken, claimed, m.nodes[j]) || in_list(gnodes, ngn, m.nodes[j]);
		if (m.nn && !clash) {
			/* a group; fused below, merged with its neighbours */
			g[ng].nodes = &gnodes[ngn];
			g[ng].nn = m.nn;
			g[ng].host = m.k.kind == K_XK;
			for (size_t j = 0; j < m.nn; j++)
				gnodes[ngn++] = m.nodes[j];
			ng++;
			if (ep->log >= LOG_VERBOSE) {
				const char *nm = NULL;

				(void)ok(ort->Node_GetName(nodes[i], &nm));
				fprintf(stderr, "e1npu: claim %s '%s' (%zu nodes): %s\n",
					m.k.op, nm ? nm : "", m.nn,
					m.k.kind == K_XK ? xk_desc(&m.k) :
					m.k.kind == K_MAXPOOL ?
					"8-bit max pool on e1 (e1npu_ops_maxpool), NCHW<->NHWC on the host" :
					"int32 accumulation on e1 (e1npu_ops_matmul_s8), requantization on the host as ORT's MLAS");
			}
		}
		kern_free(&m.k);
	}
	/* groups joined by a tensor: one partition (not in compiled models,
	 * whose records hold one kernel) */
	for (size_t i = 0; i < ng; i++)
		g[i].root = (int)i;
	if (!ep->ctx_enable)
		part_merge(g, ng, nodes, nn);
	for (size_t r = 0; r < ng; r++) {
		size_t cnt = 0;

		if (grp_root(g, (int)r) != (int)r)
			continue;
		for (size_t i = 0; i < ng; i++)
			if (grp_root(g, (int)i) == (int)r)
				for (size_t j = 0; j < g[i].nn; j++)
					fuse[cnt++] = g[i].nodes[j];
		if (cnt && ok(epapi->EpGraphSupportInfo_AddNodesToFuse(info, fuse, cnt, &fo))) {
			for (size_t j = 0; j < cnt; j++)
				taken[claimed++] = fuse[j];
			parts++;
			continue;
		}
		/* ORT refused the merged set: each group alone, as before */
		for (size_t i = 0; i < ng; i++)
			if (grp_root(g, (int)i) == (int)r && g[i].nn < cnt &&
			    ok(epapi->EpGraphSupportInfo_AddNodesToFuse(info, g[i].nodes, g[i].nn, &fo))) {
				for (size_t j = 0; j < g[i].nn; j++)
					taken[claimed++] = g[i].nodes[j];
				parts++;
			}
	}
	/* what is left, and why */
	for (size_t i = 0; i < nn; i++) {
		const char *op = node_op(nodes[i]), *why;
		size_t r;

		if (in_list(taken, claimed, nodes[i]))
			continue;
		match_node(nodes[i], &m);
		why = m.why ? m.why : "overlaps a claimed group";
		if (!strcmp(op, "QuantizeLinear") || !strcmp(op, "DequantizeLinear"))
			why = "not part of a claimed QDQ group";
		if (ctx_is_ep_context(nodes[i]))
			why = "another EP's compiled partition";
		kern_free(&m.k);
		for (r = 0; r < nr; r++)
			if (!strcmp(rs[r].op, op) && !strcmp(rs[r].why, why))
				break;
		if (r == nr) {
			snprintf(rs[r].op, sizeof(rs[r].op), "%s", op);
			snprintf(rs[r].why, sizeof(rs[r].why), "%s", why);
			nr++;
		}
		rs[r].count++;
	}
	if (ep->log >= LOG_SUMMARY) {
		size_t ngc = 0, nhost = 0;

		for (size_t i = 0; i < ng; i++)
			if (in_list(taken, claimed, g[i].nodes[0])) {
				ngc++;
				nhost += g[i].host;
			}
		fprintf(stderr, "e1npu: %s: claimed %zu of %zu nodes in %zu partitions", ep->devname,
			claimed, nn, parts);
		if (ngc)
			fprintf(stderr, " (%zu groups, %zu computed on the host: no e1 operation matches ORT's arithmetic)",
				ngc, nhost);
		fprintf(stderr, "; left:");
		for (size_t r = 0; r < nr; r++)
			fprintf(stderr, "%s %s x%u (%s)", r ? ";" : "", rs[r].op, rs[r].count, rs[r].why);
		fprintf(stderr, "%s\n", nr ? "" : " nothing");
	}
out:
	free(nodes);
	free(taken);
	free(rs);
	free(gnodes);
	free(fuse);
	free(g);
	return ret;
}

/* ------------------------------------------------------------------ */
/* Compute                                                              */

static inline int32_t requant(int64_t acc, float scale, int32_t zp, int32_t lo, int32_t hi)
{
	/* MLAS (MlasRequantizeOutput): float(int32) * scale, clamp to
	 * [lo - zp, hi - zp], round half to even, + zp */
	float f = (float)(int32_t)acc * scale;
	float mn = (float)(lo - zp), mx = (float)(hi - zp);

	if (f < mn)
		f = mn;
	if (f > mx)
		f = mx;
	return (int32_t)nearbyintf(f) + zp;
}

static inline int32_t ld8(const void *p, size_t i, int dt)
{
	return dt == ONNX_TENSOR_ELEMENT_DATA_TYPE_INT8 ? ((const int8_t *)p)[i] :
							  ((const uint8_t *)p)[i];
}

/*
 * C[m][n] = sum_k (a[m][k] - za) (b[k][n] - zb[n]) exactly, with the
 * int8 x int8 -> int32 product on e1: a' = a - oa, b' = b - ob (oa/ob
 * 128 for uint8, 0 for int8) are int8; the zero points fold on the host.
 * @a8, @b8: already shifted to int8. @ca = oa - za, @cb[n] = ob - zb[n].
 */
/* A product's A or C block at most (a device buffer holds up to 256 MiB) */
#define QMATMUL_BLOCK_BYTES	(32u << 20)

static int qmatmul(struct e1_ep *ep, struct kern *k, uint32_t M, uint32_t N, uint32_t K,
		   const int8_t *a8, const int8_t *b8, int32_t ca, const int32_t *cb,
		   int64_t *acc)
{
	int32_t *c = malloc((size_t)M * N * sizeof(*c) + 1);
	int64_t *cs = calloc(N + 1, sizeof(*cs));
	struct e1npu_ops_report rep;
	size_t per_row = K > (size_t)N * 4 ? K : (size_t)N * 4 + 1;
	uint32_t rows = (uint32_t)((QMATMUL_BLOCK_BYTES / per_row) ? QMATMUL_BLOCK_BYTES / per_row : 1);
	int ret = 0;

	if (!c || !cs) {
		free(c);
		free(cs);
		return -ENOMEM;
	}
	memset(&rep, 0, sizeof(rep));
	/* in row blocks whose A and C stay far below a device buffer's limit */
	for (uint32_t r0 = 0; r0 < M; r0 += rows) {
		uint32_t n = M - r0 < rows ? M - r0 : rows;

		ret = e1npu_ops_matmul_s8(ep->ops, n, N, K, a8 + (size_t)r0 * K, K, b8, N,
					  c + (size_t)r0 * N, N, &rep);
		if (ret) {
			free(c);
			free(cs);
			return ret;
		}
	}
	if (!k->runs++ || ep->log >= LOG_VERBOSE + 1)
		snprintf(k->why, sizeof(k->why), "%s: %s (%s) %s", e1npu_ops_kind_name(rep.kind),
			 rep.engine == E1NPU_ENGINE_CPU ? "cpu" : "e1",
			 e1npu_ops_reason_name(rep.reason), rep.why);
	for (uint32_t kk = 0; kk < K; kk++)
		for (uint32_t n = 0; n < N; n++)
			cs[n] += b8[(size_t)kk * N + n];
	for (uint32_t m = 0; m < M; m++) {
		int64_t rsum = 0;

		for (uint32_t kk = 0; kk < K; kk++)
			rsum += a8[(size_t)m * K + kk];
		for (uint32_t n = 0; n < N; n++)
			acc[(size_t)m * N + n] = (int64_t)c[(size_t)m * N + n] + cb[n] * rsum +
						 ca * cs[n] + (int64_t)K * ca * cb[n];
	}
	free(c);
	free(cs);
	return 0;
}

static float out_scale(const struct kern *k, size_t ch)
{
	/* ORT: output_scales[i] = (x_scale * w_scale[i] / y_scale), float */
	volatile float t = k->xs * k->ws[k->nw == 1 ? 0 : ch];

	return t / k->ys;
}

static void store(struct kern *k, void *y, size_t idx, int64_t acc, size_t ch)
{
	if (!k->requant) {
		((int32_t *)y)[idx] = (int32_t)acc;
		return;
	}
	if (k->bias.data)
		acc = (int32_t)((int32_t)acc + ((int32_t *)k->bias.data)[ch]);
	if (k->ydt == ONNX_TENSOR_ELEMENT_DATA_TYPE_INT8)
		((int8_t *)y)[idx] = (int8_t)requant(acc, out_scale(k, ch), k->yzp, -128, 127);
	else
		((uint8_t *)y)[idx] = (uint8_t)requant(acc, out_scale(k, ch), k->yzp, 0, 255);
}

static int8_t to8(int32_t v, int dt)
{
	return (int8_t)(dt == ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT8 ? v - 128 : v);
}

static OrtStatus *run_matmul(struct kern *k, OrtKernelContext *ctx)
{
	const void *a, *b;
	int64_t ad[8], bd[8], yd[8];
	size_t ar, br;
	OrtStatus *s;
	void *y;
	int8_t *a8 = NULL, *b8 = NULL;
	int64_t *acc = NULL;
	int32_t *cbv = NULL;
	int32_t oa = k->xdt == ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT8 ? 128 : 0;
	int32_t ob = k->wdt == ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT8 ? 128 : 0;
	size_t M, N, K, rows = 1, nb;
	int ret;

	if ((s = get_in(ctx, &k->x, &a, ad, &ar)) || (s = get_in(ctx, &k->w, &b, bd, &br)))
		return s;
	if (ar < 2 || br < 2 || (br != 2 && br != ar) || ad[ar - 1] != bd[br - 2])
		return st(ORT_INVALID_ARGUMENT, "e1npu: %s: shapes", k->name);
	for (size_t i = 0; br > 2 && i + 2 < br; i++)
		if (ad[i] != bd[i])
			return st(ORT_INVALID_ARGUMENT, "e1npu: %s: batch shapes", k->name);
	K = (size_t)bd[br - 2];
	N = (size_t)bd[br - 1];
	if ((k->nw != 1 && k->nw != N) || (k->bias.data && k->bias.count != N))
		return st(ORT_INVALID_ARGUMENT, "e1npu: %s: %zu output columns, %zu scales, %zu biases",
			  k->name, N, k->nw, k->bias.data ? k->bias.count : 0);
	for (size_t i = 0; i + 1 < ar; i++)
		rows *= (size_t)ad[i];
	/* B [K, N]: one product of all rows; batched B: one per batch */
	nb = 1;
	for (size_t i = 0; br > 2 && i + 2 < br; i++)
		nb *= (size_t)bd[i];
	M = rows / (nb ? nb : 1);
	memcpy(yd, ad, ar * sizeof(*yd));
	yd[ar - 1] = (int64_t)N;
	if ((s = kout(k, ctx, yd, ar, (void **)&y)))
		return s;
	if (!M || !N || !nb)
		return NULL;
	a8 = malloc(M * K + 1);
	b8 = malloc(K * N + 1);
	acc = malloc(M * N * sizeof(*acc) + 1);
	cbv = malloc(N * sizeof(*cbv) + 1);
	if (!a8 || !b8 || !acc || !cbv) {
		s = st(ORT_FAIL, "e1npu: out of memory");
		goto out;
	}
	for (size_t n = 0; n < N; n++)
		cbv[n] = ob - k->wzp[0];
	for (size_t bi = 0; bi < nb; bi++) {
		for (size_t i = 0; i < M * K; i++)
			a8[i] = to8(ld8(a, bi * M * K + i, k->xdt), k->xdt);
		for (size_t i = 0; i < K * N; i++)
			b8[i] = to8(ld8(b, bi * K * N + i, k->wdt), k->wdt);
		ret = qmatmul(k->ep, k, (uint32_t)M, (uint32_t)N, (uint32_t)K, a8, b8, oa - k->xzp, cbv, acc);
		if (ret) {
			s = st(ORT_FAIL, "e1npu: %s: e1npu_ops_matmul_s8: %s", k->name,
			       e1npu_ops_last_error(k->ep->ops));
			goto out;
		}
		for (size_t i = 0; i < M * N; i++)
			store(k, y, bi * M * N + i, acc[i], i % N);
	}
out:
	free(a8);
	free(b8);
	free(acc);
	free(cbv);
	return s;
}

static OrtStatus *run_conv(struct kern *k, OrtKernelContext *ctx)
{
	const void *x, *w;
	int64_t xd[8], wd[8], yd[4];
	size_t xr, wr;
	OrtStatus *s;
	void *y;
	int8_t *a8 = NULL, *b8 = NULL;
	int64_t *acc = NULL;
	int32_t *cb = NULL;
	size_t Nb, C, H, W, M, G, Cg, Mg, OH, OW, K, P;
	int32_t oa = k->xdt == ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT8 ? 128 : 0;
	int32_t ob = k->wdt == ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT8 ? 128 : 0;
	int8_t padv;
	size_t ysz = k->requant ? 1 : 4;

	if ((s = get_in(ctx, &k->x, &x, xd, &xr)) || (s = get_in(ctx, &k->w, &w, wd, &wr)))
		return s;
	if (xr != 4 || wr != 4)
		return st(ORT_INVALID_ARGUMENT, "e1npu: %s: not 2-D", k->name);
	Nb = (size_t)xd[0], C = (size_t)xd[1], H = (size_t)xd[2], W = (size_t)xd[3];
	M = (size_t)wd[0];
	G = (size_t)k->group;
	Cg = (size_t)wd[1];
	if (Cg * G != C || M % G)
		return st(ORT_INVALID_ARGUMENT, "e1npu: %s: channels", k->name);
	if (wd[2] != k->kh || wd[3] != k->kw || (k->nw != 1 && k->nw != M) ||
	    (k->bias.data && k->bias.count != M))
		return st(ORT_INVALID_ARGUMENT, "e1npu: %s: weights %lldx%lld for a %lldx%lld kernel, %zu scales, %zu biases for %zu channels",
			  k->name, (long long)wd[2], (long long)wd[3], (long long)k->kh,
			  (long long)k->kw, k->nw, k->bias.data ? k->bias.count : 0, M);
	Mg = M / G;
	if (k->autopad) {
		/* ONNX (and ORT): out = ceil(in / stride), the total padding
		 * split evenly, the odd one at the end (UPPER) or start (LOWER) */
		int64_t in[2] = { (int64_t)H, (int64_t)W }, st2[2] = { k->sh, k->sw };
		int64_t ks[2] = { (k->kh - 1) * k->dh + 1, (k->kw - 1) * k->dw + 1 };
		int64_t *b0[2] = { &k->pt, &k->pl }, *b1[2] = { &k->pb, &k->pr };

		for (int i = 0; i < 2; i++) {
			int64_t o = (in[i] + st2[i] - 1) / st2[i];
			int64_t t = (o - 1) * st2[i] + ks[i] - in[i];

			if (t < 0)
				t = 0;
			*b0[i] = k->autopad == 1 ? t / 2 : t - t / 2;
			*b1[i] = t - *b0[i];
		}
	}
	{
		int64_t eh = (int64_t)H + k->pt + k->pb - ((k->kh - 1) * k->dh + 1);
		int64_t ew = (int64_t)W + k->pl + k->pr - ((k->kw - 1) * k->dw + 1);

		if (eh < 0 || ew < 0)
			return st(ORT_INVALID_ARGUMENT, "e1npu: %s: kernel larger than input", k->name);
		OH = (size_t)(eh / k->sh + 1);
		OW = (size_t)(ew / k->sw + 1);
	}
	yd[0] = (int64_t)Nb, yd[1] = (int64_t)M, yd[2] = (int64_t)OH, yd[3] = (int64_t)OW;
	if ((s = kout(k, ctx, yd, 4, (void **)&y)))
		return s;
	K = Cg * (size_t)(k->kh * k->kw);
	P = OH * OW;
	if (!Nb || !M || !P)
		return NULL;
	a8 = malloc(P * K + 1);
	b8 = malloc(K * Mg + 1);
	acc = malloc(P * Mg * sizeof(*acc) + 1);
	cb = malloc(Mg * sizeof(*cb) + 1);
	if (!a8 || !b8 || !acc || !cb) {
		s = st(ORT_FAIL, "e1npu: out of memory");
		goto out;
	}
	padv = (int8_t)(k->xzp - oa);
	for (size_t g = 0; g < G; g++) {
		for (size_t m = 0; m < Mg; m++) {
			size_t mm = g * Mg + m;

			cb[m] = ob - k->wzp[k->nw == 1 ? 0 : mm];
			for (size_t kk = 0; kk < K; kk++)
				b8[kk * Mg + m] = to8(ld8(w, mm * K + kk, k->wdt), k->wdt);
		}
		for (size_t b = 0; b < Nb; b++) {
			int ret;

			for (size_t oh = 0; oh < OH; oh++)
				for (size_t ow = 0; ow < OW; ow++) {
					int8_t *row = a8 + (oh * OW + ow) * K;
					size_t kk = 0;

					for (size_t c = 0; c < Cg; c++) {
						size_t cc = g * Cg + c;

						for (int64_t i = 0; i < k->kh; i++)
							for (int64_t j = 0; j < k->kw; j++, kk++) {
								int64_t ih = (int64_t)oh * k->sh - k->pt + i * k->dh;
								int64_t iw = (int64_t)ow * k->sw - k->pl + j * k->dw;

								if (ih < 0 || iw < 0 || ih >= (int64_t)H || iw >= (int64_t)W)
									row[kk] = padv;
								else
									row[kk] = to8(ld8(x, ((b * C + cc) * H + (size_t)ih) * W + (size_t)iw, k->xdt), k->xdt);
							}
					}
				}
			ret = qmatmul(k->ep, k, (uint32_t)P, (uint32_t)Mg, (uint32_t)K, a8, b8,
				      oa - k->xzp, cb, acc);
			if (ret) {
				s = st(ORT_FAIL, "e1npu: %s: e1npu_ops_matmul_s8: %s", k->name,
				       e1npu_ops_last_error(k->ep->ops));
				goto out;
			}
			for (size_t m = 0; m < Mg; m++) {
				size_t mm = g * Mg + m;

				for (size_t p = 0; p < P; p++)
					store(k, y, (b * M + mm) * P + p, acc[p * Mg + m], mm);
			}
		}
	}
	(void)ysz;
out:
	free(a8);
	free(b8);
	free(acc);
	free(cb);
	return s;
}

/*
 * MaxPool on an input smaller than the window in a dimension: ORT's
 * output size is (in - kernel) / stride + 1 in int64 (truncated toward
 * zero: 1 when the stride exceeds the shortfall, 0 or an error else), and
 * each window is clipped to the input. On the host: the shape is
 * degenerate (one output row or column at most in that dimension).
 */
static OrtStatus *maxpool_clipped(struct kern *k, OrtKernelContext *ctx, const void *x,
				  const int64_t *xd)
{
	int64_t oh = (xd[2] - k->kh) / k->sh + 1, ow = (xd[3] - k->kw) / k->sw + 1, yd[4];
	bool s8 = k->xdt == ONNX_TENSOR_ELEMENT_DATA_TYPE_INT8;
	uint8_t *y;
	OrtStatus *s;

	if (oh < 0 || ow < 0)
		return st(ORT_INVALID_ARGUMENT, "e1npu: %s: input %lldx%lld smaller than the %lldx%lld window",
			  k->name, (long long)xd[2], (long long)xd[3], (long long)k->kh,
			  (long long)k->kw);
	yd[0] = xd[0], yd[1] = xd[1], yd[2] = oh, yd[3] = ow;
	if ((s = kout(k, ctx, yd, 4, (void **)&y)))
		return s;
	for (int64_t p = 0; p < xd[0] * xd[1]; p++)
		for (int64_t i = 0; i < oh; i++)
			for (int64_t j = 0; j < ow; j++) {
				int best = INT32_MIN;

				for (int64_t r = i * k->sh; r < i * k->sh + k->kh && r < xd[2]; r++)
					for (int64_t c = j * k->sw; c < j * k->sw + k->kw && c < xd[3]; c++) {
						size_t at = (size_t)((p * xd[2] + r) * xd[3] + c);
						int v = s8 ? ((const int8_t *)x)[at] : ((const uint8_t *)x)[at];

						best = v > best ? v : best;
					}
				y[(p * oh + i) * ow + j] = (uint8_t)best;
			}
	snprintf(k->why, sizeof(k->why), "max pool: cpu (input smaller than the window: clipped, as ORT)");
	return NULL;
}

static OrtStatus *run_maxpool(struct kern *k, OrtKernelContext *ctx)
{
	const void *x;
	int64_t xd[8], yd[4];
	size_t xr, N, C, H, W, OH, OW;
	OrtStatus *s;
	uint8_t *in = NULL, *out = NULL, *y;
	struct e1npu_pool_params p;
	struct e1npu_ops_report rep;
	uint32_t oh = 0, ow = 0;
	int ret;

	if ((s = get_in(ctx, &k->x, &x, xd, &xr)))
		return s;
	if (xr != 4)
		return st(ORT_INVALID_ARGUMENT, "e1npu: %s: shape", k->name);
	if (xd[2] < k->kh || xd[3] < k->kw)
		return maxpool_clipped(k, ctx, x, xd);
	N = (size_t)xd[0], C = (size_t)xd[1], H = (size_t)xd[2], W = (size_t)xd[3];
	memset(&p, 0, sizeof(p));
	p.dtype = k->xdt == ONNX_TENSOR_ELEMENT_DATA_TYPE_INT8 ? E1NPU_DTYPE_INT8 : E1NPU_DTYPE_UINT8;
	p.in_h = (uint32_t)H, p.in_w = (uint32_t)W, p.channels = (uint32_t)C;
	p.filter_h = (uint32_t)k->kh, p.filter_w = (uint32_t)k->kw;
	p.stride_h = (uint32_t)k->sh, p.stride_w = (uint32_t)k->sw;
	p.padding = E1NPU_PAD_VALID;
	p.q.scale = k->xs;
	p.q.zero_point = k->xzp;
	p.act = E1NPU_ACT_NONE;
	if (e1npu_ops_pool_output_size(&p, &oh, &ow))
		return st(ORT_INVALID_ARGUMENT, "e1npu: %s: pool size", k->name);
	OH = oh, OW = ow;
	yd[0] = (int64_t)N, yd[1] = (int64_t)C, yd[2] = (int64_t)OH, yd[3] = (int64_t)OW;
	if ((s = kout(k, ctx, yd, 4, (void **)&y)))
		return s;
	in = malloc(H * W * C + 1);
	out = malloc(OH * OW * C + 1);
	if (!in || !out) {
		s = st(ORT_FAIL, "e1npu: out of memory");
		goto done;
	}
	for (size_t b = 0; b < N; b++) {
		const uint8_t *xb = (const uint8_t *)x + b * C * H * W;

		/* NCHW -> NHWC (bytes: int8 and uint8 alike) */
		for (size_t c = 0; c < C; c++)
			for (size_t i = 0; i < H * W; i++)
				in[i * C + c] = xb[c * H * W + i];
		memset(&rep, 0, sizeof(rep));
		ret = e1npu_ops_maxpool(k->ep->ops, &p, in, out, &rep);
		if (ret) {
			s = st(ORT_FAIL, "e1npu: %s: e1npu_ops_maxpool: %s", k->name,
			       e1npu_ops_last_error(k->ep->ops));
			goto done;
		}
		if (!k->runs++)
			snprintf(k->why, sizeof(k->why), "%s: %s (%s) %s",
				 e1npu_ops_kind_name(rep.kind),
				 rep.engine == E1NPU_ENGINE_CPU ? "cpu" : "e1",
				 e1npu_ops_reason_name(rep.reason), rep.why);
		for (size_t c = 0; c < C; c++)
			for (size_t i = 0; i < OH * OW; i++)
				y[(b * C + c) * OH * OW + i] = out[i * C + c];
	}
done:
	free(in);
	free(out);
	return s;
}

static OrtStatus *ORT_API_CALL ci_create_state(OrtNodeComputeInfo *this_ptr,
					       OrtNodeComputeContext *cc, void **state)
{
	(void)cc;
	*state = this_ptr;
	return NULL;
}

/* one kernel (the caller holds the EP's lock) */
static OrtStatus *kern_run(struct kern *k, OrtKernelContext *ctx)
{
	struct kern kl;
	OrtStatus *s = NULL;
	float ws1 = 0;
	int32_t wz1 = 0;
	bool first;

	kl = *k;
	for (int i = 0; i < 6 && !s; i++) {
		const OrtValue *v = NULL;
		const void *p = NULL;
		int dt = i < 2 ? k->xdt : i < 4 ? k->wdt : k->ydt;
		int32_t zi;

		if (k->rt[i] < 0)
			continue;
		if ((s = ort->KernelContext_GetInput(ctx, (size_t)k->rt[i], &v)) ||
		    (s = ort->GetTensorData(v, &p)))
			break;
		if (!p) {
			s = st(ORT_FAIL, "e1npu: %s: quantization parameter missing", k->name);
			break;
		}
		zi = dt == ONNX_TENSOR_ELEMENT_DATA_TYPE_INT8 ? *(const int8_t *)p : *(const uint8_t *)p;
		switch (i) {
		case 0: kl.xs = *(const float *)p; break;
		case 1: kl.xzp = zi; break;
		case 2: ws1 = *(const float *)p; kl.ws = &ws1; kl.nw = 1; break;
		case 3: wz1 = zi; kl.wzp = &wz1; kl.nw = 1; break;
		case 4: kl.ys = *(const float *)p; break;
		case 5: kl.yzp = zi; break;
		}
	}
	if ((k->rt[2] >= 0) != (k->rt[3] >= 0) && !s) {
		/* one of the pair run-time: the other is per-tensor (checked) */
		if (k->rt[2] >= 0) {
			wz1 = k->wzp[0];
			kl.wzp = &wz1;
		} else {
			ws1 = k->ws ? k->ws[0] : 0;
			kl.ws = &ws1;
		}
	}
	if (s)
		return s;
	s = k->kind == K_XK ? xk_run(&kl, ctx) :
	    k->kind == K_CONV ? run_conv(&kl, ctx) :
	    k->kind == K_MAXPOOL ? run_maxpool(&kl, ctx) : run_matmul(&kl, ctx);
	k->runs = kl.runs;
	first = !k->computes++;
	if (first && !s && k->ep->log >= LOG_VERBOSE)
		fprintf(stderr, "e1npu: %s %s: %s (%llu calls)\n", k->op, k->name, kl.why,
			(unsigned long long)kl.runs);
	return s;
}

static OrtStatus *ORT_API_CALL ci_compute(OrtNodeComputeInfo *this_ptr, void *state,
					  OrtKernelContext *ctx)
{
	struct kern *k = (struct kern *)this_ptr;
	OrtStatus *s;

	(void)state;
	pthread_mutex_lock(&k->ep->lock);
	s = k->next ? part_run(k, ctx, kern_run) : kern_run(k, ctx);
	pthread_mutex_unlock(&k->ep->lock);
	return s;
}

static void ORT_API_CALL ci_release_state(OrtNodeComputeInfo *this_ptr, void *state)
{
	(void)this_ptr;
	(void)state;
}

static const struct part_ops part_ops = { anchor_op, match_node };

static OrtStatus *ORT_API_CALL ep_compile(OrtEp *this_ptr, const OrtGraph **graphs,
					  const OrtNode **fused, size_t count,
					  OrtNodeComputeInfo **infos, OrtNode **ctx_nodes)
{
	struct e1_ep *ep = (struct e1_ep *)this_ptr;

	for (size_t i = 0; i < count; i++) {
		infos[i] = NULL;
		if (ctx_nodes)
			ctx_nodes[i] = NULL;
	}
	for (size_t i = 0; i < count; i++) {
		size_t nn = 0;
		const OrtNode *one[1];
		struct kern *k;
		OrtStatus *s;

		if (!ok(ort->Graph_GetNumNodes(graphs[i], &nn)) || !nn)
			return st(ORT_FAIL, "e1npu: compile: cannot read partition %zu", i);
		if (nn == 1 && ok(ort->Graph_GetNodes(graphs[i], one, 1)) && ctx_is_ours(one[0])) {
			/* a compiled partition: its kernel from the blob */
			k = calloc(1, sizeof(*k));
			if (!k)
				return st(ORT_FAIL, "e1npu: out of memory");
			if ((s = ctx_load(ep, one[0], fused[i], k))) {
				free(k);
				return s;
			}
			snprintf(k->name, sizeof(k->name), "%s", node_name(fused[i]));
			goto ready;
		}
		/* the partition's groups, one kernel each, chained in order */
		if ((s = part_compile(ep, graphs[i], fused[i], &k, &part_ops)))
			return s;
		if (ep->ctx_enable && ctx_nodes) {
			if (k->next) {
				kern_chain_free(k);
				return st(ORT_FAIL, "e1npu: EPContext: a partition of several groups");
			}
			if ((s = ctx_save(ep, k, fused[i], &ctx_nodes[i]))) {
				kern_free(k);
				free(k);
				return s;
			}
		}
ready:
		k->info.ort_version_supported = ORT_API_VERSION;
		k->info.CreateState = ci_create_state;
		k->info.Compute = ci_compute;
		k->info.ReleaseState = ci_release_state;
		infos[i] = &k->info;
	}
	return NULL;
}

static const char *ORT_API_CALL ep_compat_info(OrtEp *this_ptr, const OrtGraph *graph)
{
	(void)this_ptr;
	(void)graph;
	return ctx_compat_info();
}

static void ORT_API_CALL ep_release_infos(OrtEp *this_ptr, OrtNodeComputeInfo **infos, size_t n)
{
	(void)this_ptr;
	for (size_t i = 0; i < n; i++)
		if (infos[i])
			kern_chain_free((struct kern *)infos[i]);
}

/* ------------------------------------------------------------------ */
/* Factory                                                              */

static const char *ORT_API_CALL f_get_name(const OrtEpFactory *f)
{
	(void)f;
	return EP_NAME;
}

static const char *ORT_API_CALL f_get_vendor(const OrtEpFactory *f)
{
	(void)f;
	return EP_VENDOR;
}

static uint32_t ORT_API_CALL f_get_vendor_id(const OrtEpFactory *f)
{
	(void)f;
	return 0xe1;
}

static const char *ORT_API_CALL f_get_version(const OrtEpFactory *f)
{
	(void)f;
	return EP_VERSION;
}

static OrtStatus *ORT_API_CALL f_get_supported(OrtEpFactory *this_ptr,
					       const OrtHardwareDevice *const *devices, size_t ndev,
					       OrtEpDevice **out, size_t max, size_t *nout)
{
	struct e1_factory *f = (struct e1_factory *)this_ptr;

	*nout = 0;
	if (!f->devpath[0])
		return NULL;	/* no e1 device: offer nothing */
	for (size_t i = 0; i < ndev && *nout < max; i++) {
		OrtKeyValuePairs *meta = NULL;
		OrtEpDevice *d = NULL;
		OrtStatus *s;

		/* e1 is not a device ORT enumerates: it sits beside the host
		 * CPU, whose memory it shares (no allocator, no copies) */
		if (ort->HardwareDevice_Type(devices[i]) != OrtHardwareDeviceType_CPU)
			continue;
		ort->CreateKeyValuePairs(&meta);
		ort->AddKeyValuePair(meta, "e1npu.device", f->devpath);
		ort->AddKeyValuePair(meta, "e1npu.backend",
				     f->backend == E1NPU_BACKEND_SIM ? "model" : "driver");
		ort->AddKeyValuePair(meta, "e1npu.description", f->devdesc);
		s = epapi->CreateEpDevice(this_ptr, devices[i], meta, NULL, &d);
		ort->ReleaseKeyValuePairs(meta);
		if (s)
			return s;
		out[(*nout)++] = d;
		break;
	}
	return NULL;
}

static const char *cfg(const OrtSessionOptions *so, const char *key, char *buf, size_t len)
{
	static const char *const prefixes[] = { "ep." EP_NAME ".", "ep.E1NPU.", "" };

	for (size_t i = 0; i < sizeof(prefixes) / sizeof(*prefixes); i++) {
		char k[128];
		size_t n = len;
		int has = 0;

		snprintf(k, sizeof(k), "%s%s", prefixes[i], key);
		if (!*prefixes[i])
			break;
		if (!ok(ort->HasSessionConfigEntry(so, k, &has)) || !has)
			continue;
		if (ok(ort->GetSessionConfigEntry(so, k, buf, &n)))
			return buf;
	}
	return NULL;
}

static void ORT_API_CALL f_release_ep(OrtEpFactory *f, OrtEp *e)
{
	struct e1_ep *ep = (struct e1_ep *)e;

	(void)f;
	if (!ep)
		return;
	e1npu_ops_free(ep->ops);
	e1npu_device_close(ep->dev);
	pthread_mutex_destroy(&ep->lock);
	free(ep);
}

static OrtStatus *ORT_API_CALL f_create_ep(OrtEpFactory *this_ptr,
					   const OrtHardwareDevice *const *devices,
					   const OrtKeyValuePairs *const *meta, size_t ndev,
					   const OrtSessionOptions *so, const OrtLogger *logger,
					   OrtEp **out)
{
	struct e1_factory *f = (struct e1_factory *)this_ptr;
	struct e1_ep *ep;
	char buf[256];
	const char *v, *env;
	struct e1npu_device_info di;
	int ret;

	(void)devices;
	(void)meta;
	(void)logger;
	*out = NULL;
	if (ndev != 1)
		return st(ORT_INVALID_ARGUMENT, "e1npu: one device expected, got %zu", ndev);
	ep = calloc(1, sizeof(*ep));
	if (!ep)
		return st(ORT_FAIL, "e1npu: out of memory");
	ep->f = f;
	pthread_mutex_init(&ep->lock, NULL);
	ep->log = LOG_QUIET;
	env = getenv("E1NPU_ORT_LOG");
	v = cfg(so, "log_level", buf, sizeof(buf));
	if (!v && env && *env) {
		v = env;
		if (strcmp(v, "quiet") && strcmp(v, "summary") && strcmp(v, "verbose") &&
		    strcmp(v, "0") && strcmp(v, "1") && strcmp(v, "2")) {
			OrtStatus *s = st(ORT_INVALID_ARGUMENT,
					  "e1npu: environment variable E1NPU_ORT_LOG='%s': expected 'quiet', 'summary', 'verbose', 0, 1 or 2", v);
			free(ep);
			return s;
		}
	}
	if (v) {
		if (!strcmp(v, "quiet") || !strcmp(v, "0"))
			ep->log = LOG_QUIET;
		else if (!strcmp(v, "summary") || !strcmp(v, "1"))
			ep->log = LOG_SUMMARY;
		else if (!strcmp(v, "verbose") || !strcmp(v, "2"))
			ep->log = LOG_VERBOSE;
		else {
			OrtStatus *s = st(ORT_INVALID_ARGUMENT,
					  "e1npu: log_level '%s' invalid (quiet|summary|verbose or 0|1|2)", v);
			free(ep);
			return s;
		}
	}
	v = cfg(so, "summary", buf, sizeof(buf));
	if (v) {
		if (!strcmp(v, "1") || !strcmp(v, "true")) {
			if (ep->log < LOG_SUMMARY)
				ep->log = LOG_SUMMARY;
		} else if (strcmp(v, "0") && strcmp(v, "false")) {
			OrtStatus *s = st(ORT_INVALID_ARGUMENT, "e1npu: summary '%s' invalid (0|1)", v);

			free(ep);
			return s;
		}
	}
	v = cfg(so, "cache_dir", buf, sizeof(buf));
	if (v && *v) {
		struct stat sb;

		if (stat(v, &sb) || !S_ISDIR(sb.st_mode)) {
			OrtStatus *s = st(ORT_INVALID_ARGUMENT,
					  "e1npu: cache_dir '%s' is not a directory", v);
			free(ep);
			return s;
		}
		snprintf(ep->cache_dir, sizeof(ep->cache_dir), "%s", v);
	}
	/* ORT's own session option: save the compiled partitions as EPContext nodes */
	{
		int has = 0;
		size_t n = sizeof(buf);

		if (ok(ort->HasSessionConfigEntry(so, "ep.context_enable", &has)) && has &&
		    ok(ort->GetSessionConfigEntry(so, "ep.context_enable", buf, &n)))
			ep->ctx_enable = !strcmp(buf, "1");
	}
	v = cfg(so, "device", buf, sizeof(buf));
	ret = e1npu_device_open(v && *v ? v : NULL, &ep->dev);
	if (ret) {
		OrtStatus *s = st(ORT_INVALID_ARGUMENT, "e1npu: device '%s': %s (%s)",
				  v ? v : "auto", strerror(-ret), e1npu_device_last_error(NULL));
		free(ep);
		return s;
	}
	ret = e1npu_ops_new(ep->dev, &ep->ops);
	if (ret) {
		OrtStatus *s = st(ORT_FAIL, "e1npu: e1npu_ops_new: %s", e1npu_ops_last_error(NULL));

		e1npu_device_close(ep->dev);
		free(ep);
		return s;
	}
	memset(&di, 0, sizeof(di));
	e1npu_device_get_info(ep->dev, &di);
	snprintf(ep->devname, sizeof(ep->devname), "%s",
		 di.backend == E1NPU_BACKEND_SIM ? "e1 in-process device model" : di.path);
	ep->base.ort_version_supported = ORT_API_VERSION;
	ep->base.GetName = ep_get_name;
	ep->base.GetCapability = ep_get_capability;
	ep->base.Compile = ep_compile;
	ep->base.ReleaseNodeComputeInfos = ep_release_infos;
	ep->base.GetCompiledModelCompatibilityInfo = ep_compat_info;
	*out = &ep->base;
	return NULL;
}

/*
 * A compiled model's compatibility string (ctx_compat_info() when it was
 * compiled): another artifact format or library version cannot load its
 * blobs. The device is checked per blob when the session loads them.
 */
static OrtStatus *ORT_API_CALL f_validate(OrtEpFactory *f, const OrtHardwareDevice *const *d,
					  size_t n, const char *info, OrtCompiledModelCompatibility *c)
{
	(void)f;
	(void)d;
	(void)n;
	if (!info || !*info)
		*c = OrtCompiledModelCompatibility_EP_NOT_APPLICABLE;
	else if (!strcmp(info, ctx_compat_info()))
		*c = OrtCompiledModelCompatibility_EP_SUPPORTED_OPTIMAL;
	else
		*c = OrtCompiledModelCompatibility_EP_UNSUPPORTED;
	return NULL;
}

static OrtStatus *ORT_API_CALL f_create_alloc(OrtEpFactory *f, const OrtMemoryInfo *mi,
					      const OrtKeyValuePairs *opts, OrtAllocator **a)
{
	(void)f;
	(void)mi;
	(void)opts;
	*a = NULL;
	return NULL;
}

static void ORT_API_CALL f_release_alloc(OrtEpFactory *f, OrtAllocator *a)
{
	(void)f;
	(void)a;
}

static OrtStatus *ORT_API_CALL f_create_dt(OrtEpFactory *f, OrtDataTransferImpl **dt)
{
	(void)f;
	*dt = NULL;
	return NULL;
}

static bool ORT_API_CALL f_stream_aware(const OrtEpFactory *f)
{
	(void)f;
	return false;
}

static OrtStatus *ORT_API_CALL f_create_stream(OrtEpFactory *f, const OrtMemoryDevice *md,
					       const OrtKeyValuePairs *opts, OrtSyncStreamImpl **s)
{
	(void)f;
	(void)md;
	(void)opts;
	*s = NULL;
	return NULL;
}

EXPORT OrtStatus *CreateEpFactories(const char *registered_name, const OrtApiBase *base,
				    const OrtLogger *logger, OrtEpFactory **factories,
				    size_t max, size_t *num);
EXPORT OrtStatus *ReleaseEpFactory(OrtEpFactory *factory);

EXPORT OrtStatus *CreateEpFactories(const char *registered_name, const OrtApiBase *base,
				    const OrtLogger *logger, OrtEpFactory **factories,
				    size_t max, size_t *num)
{
	struct e1_factory *f;
	struct e1npu_device *dev = NULL;
	struct e1npu_device_info di;

	(void)registered_name;
	(void)logger;
	*num = 0;
	ort = base->GetApi(ORT_API_VERSION);
	if (!ort)
		return NULL;	/* an older ORT: nothing to offer (cannot even make a status) */
	epapi = ort->GetEpApi();
	if (max < 1)
		return st(ORT_INVALID_ARGUMENT, "e1npu: no room for a factory");
	f = calloc(1, sizeof(*f));
	if (!f)
		return st(ORT_FAIL, "e1npu: out of memory");
	if (!e1npu_device_open(NULL, &dev)) {
		memset(&di, 0, sizeof(di));
		if (!e1npu_device_get_info(dev, &di)) {
			f->backend = (int)di.backend;
			snprintf(f->devpath, sizeof(f->devpath), "%s", di.path[0] ? di.path : "sim");
			snprintf(f->devdesc, sizeof(f->devdesc), "%s",
				 di.backend == E1NPU_BACKEND_SIM ?
				 "e1 NPU, in-process device model (libe1npu)" :
				 "e1 NPU, e1npu driver node");
		}
		e1npu_device_close(dev);
	}
	f->base.ort_version_supported = ORT_API_VERSION;
	f->base.GetName = f_get_name;
	f->base.GetVendor = f_get_vendor;
	f->base.GetSupportedDevices = f_get_supported;
	f->base.CreateEp = f_create_ep;
	f->base.ReleaseEp = f_release_ep;
	f->base.GetVendorId = f_get_vendor_id;
	f->base.GetVersion = f_get_version;
	f->base.ValidateCompiledModelCompatibilityInfo = f_validate;
	f->base.CreateAllocator = f_create_alloc;
	f->base.ReleaseAllocator = f_release_alloc;
	f->base.CreateDataTransfer = f_create_dt;
	f->base.IsStreamAware = f_stream_aware;
	f->base.CreateSyncStreamForDevice = f_create_stream;
	factories[0] = &f->base;
	*num = 1;
	return NULL;
}

EXPORT OrtStatus *ReleaseEpFactory(OrtEpFactory *factory)
{
	free(factory);
	return NULL;
}
