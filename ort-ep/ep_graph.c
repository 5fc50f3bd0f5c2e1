// SPDX-License-Identifier: MIT
/*
 * Graph helpers of the e1 ONNX Runtime EP's matchers (ep_graph.h): value
 * types and constants, attributes, producers and consumers, and the
 * quantization parameters of DequantizeLinear/QuantizeLinear nodes.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ep.h"
#include "ep_graph.h"

bool node_onnx_domain(const OrtNode *n)
{
	const char *d = NULL;

	if (!ok(ort->Node_GetDomain(n, &d)))
		return false;
	return !d || !*d || !strcmp(d, "ai.onnx");
}

const OrtValueInfo *node_output0(const OrtNode *n)
{
	size_t k = 0;
	const OrtValueInfo *o[4] = { 0 };

	if (!ok(ort->Node_GetNumOutputs(n, &k)) || k < 1 || k > 4)
		return NULL;
	if (!ok(ort->Node_GetOutputs(n, o, k)))
		return NULL;
	return o[0];
}

/* element type and rank (-1 when unknown) of a value */
int vi_type(const OrtValueInfo *v, int64_t *dims, size_t *rank)
{
	const OrtTypeInfo *ti = NULL;
	const OrtTensorTypeAndShapeInfo *tsi = NULL;
	ONNXTensorElementDataType et;
	size_t r = 0;

	if (rank)
		*rank = (size_t)-1;
	if (!v || !ok(ort->GetValueInfoTypeInfo(v, &ti)) || !ti)
		return -1;
	if (!ok(ort->CastTypeInfoToTensorInfo(ti, &tsi)) || !tsi)
		return -1;
	if (!ok(ort->GetTensorElementType(tsi, &et)))
		return -1;
	if (rank && ok(ort->GetDimensionsCount(tsi, &r)) && r <= 8) {
		int64_t d[8];

		if (ok(ort->GetDimensions(tsi, d, r))) {
			*rank = r;
			if (dims)
				memcpy(dims, d, r * sizeof(*d));
		}
	}
	return (int)et;
}

bool vi_const(const OrtValueInfo *v)
{
	bool c = false;

	return v && ok(ort->ValueInfo_IsConstantInitializer(v, &c)) && c;
}

bool is8(int dt)
{
	return dt == ONNX_TENSOR_ELEMENT_DATA_TYPE_INT8 ||
	       dt == ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT8;
}

/* Copy a constant initializer (known element types only). */
bool load_const(const OrtValueInfo *v, struct operand *o)
{
	const OrtValue *val = NULL;
	OrtTensorTypeAndShapeInfo *tsi = NULL;
	ONNXTensorElementDataType et;
	const void *p = NULL;
	size_t cnt = 0, r = 0, es;
	bool good = false;

	memset(o, 0, sizeof(*o));
	o->runtime_idx = -1;
	if (!vi_const(v) || !ok(ort->ValueInfo_GetInitializerValue(v, &val)) || !val)
		return false;
	if (!ok(ort->GetTensorTypeAndShape(val, &tsi)))
		return false;
	if (!ok(ort->GetTensorElementType(tsi, &et)) ||
	    !ok(ort->GetTensorShapeElementCount(tsi, &cnt)) ||
	    !ok(ort->GetDimensionsCount(tsi, &r)) || r > 8 ||
	    !ok(ort->GetDimensions(tsi, o->dims, r)))
		goto out;
	es = dt_size((int)et);
	if (!es || !ok(ort->GetTensorData(val, &p)) || (!p && cnt))
		goto out;
	o->data = malloc(cnt * es + 1);
	if (!o->data)
		goto out;
	if (cnt)
		memcpy(o->data, p, cnt * es);
	o->dtype = (int)et;
	o->count = cnt;
	o->rank = r;
	good = true;
out:
	ort->ReleaseTensorTypeAndShapeInfo(tsi);
	return good;
}

int64_t attr_int(const OrtNode *n, const char *name, int64_t def)
{
	const OrtOpAttr *a = NULL;
	int64_t v = def;
	size_t out = 0;

	if (!ok(ort->Node_GetAttributeByName(n, name, &a)) || !a)
		return def;
	if (!ok(ort->ReadOpAttr(a, ORT_OP_ATTR_INT, &v, sizeof(v), &out)))
		return def;
	return v;
}

float attr_float(const OrtNode *n, const char *name, float def)
{
	const OrtOpAttr *a = NULL;
	float v = def;
	size_t out = 0;

	if (!ok(ort->Node_GetAttributeByName(n, name, &a)) || !a)
		return def;
	if (!ok(ort->ReadOpAttr(a, ORT_OP_ATTR_FLOAT, &v, sizeof(v), &out)))
		return def;
	return v;
}

/* ints attribute: count (0 when absent, -1 when malformed/too long) */
int attr_ints(const OrtNode *n, const char *name, int64_t *v, int max)
{
	const OrtOpAttr *a = NULL;
	size_t out = 0;

	if (!ok(ort->Node_GetAttributeByName(n, name, &a)) || !a)
		return 0;
	if (!ok(ort->ReadOpAttr(a, ORT_OP_ATTR_INTS, v, max * sizeof(*v), &out)))
		return -1;
	if (out % sizeof(*v) || out / sizeof(*v) > (size_t)max)
		return -1;
	return (int)(out / sizeof(*v));
}

bool attr_str(const OrtNode *n, const char *name, char *buf, size_t len)
{
	const OrtOpAttr *a = NULL;
	size_t out = 0;

	buf[0] = 0;
	if (!ok(ort->Node_GetAttributeByName(n, name, &a)) || !a)
		return false;
	if (!ok(ort->ReadOpAttr(a, ORT_OP_ATTR_STRING, buf, len - 1, &out)) || out >= len)
		return false;
	buf[out] = 0;
	return true;
}

/* the producing node of @v (NULL for graph inputs/initializers) */
const OrtNode *producer(const OrtValueInfo *v)
{
	const OrtNode *p = NULL;
	size_t idx = 0;

	if (!v || !ok(ort->ValueInfo_GetValueProducer(v, &p, &idx)))
		return NULL;
	return p;
}

bool single_use(const OrtValueInfo *v)
{
	size_t n = 0;
	bool go = true;

	if (!v || !ok(ort->ValueInfo_GetValueNumConsumers(v, &n)) || n != 1)
		return false;
	if (!ok(ort->ValueInfo_IsGraphOutput(v, &go)) || go)
		return false;
	return true;
}

const OrtNode *only_consumer(const OrtValueInfo *v)
{
	const OrtNode *c[1] = { NULL };
	int64_t idx[1];

	if (!single_use(v))
		return NULL;
	if (!ok(ort->ValueInfo_GetValueConsumers(v, c, idx, 1)))
		return NULL;
	return c[0];
}

/* a run-time scalar of type @dt: rank 0 or [1] */
bool rt_scalar(const OrtValueInfo *v, int dt)
{
	int64_t d[8];
	size_t r;

	if (vi_const(v) || vi_type(v, d, &r) != dt)
		return false;
	return r == 0 || (r == 1 && d[0] == 1);
}

void qp_free(struct qp *q)
{
	free(q->s);
	free(q->zp);
	memset(q, 0, sizeof(*q));
}

/*
 * Read a scale (float, constant) and an optional zero point (constant, of
 * @dt): per-tensor unless @allow_n. Returns a reason or NULL.
 */
const char *qp_read(const OrtValueInfo *sv, const OrtValueInfo *zv,
			   int dt, size_t allow_n, struct qp *q)
{
	struct operand s, z;

	memset(q, 0, sizeof(*q));
	q->dt = dt;
	if (rt_scalar(sv, ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT)) {
		/* a run-time per-tensor scale (read at every run) */
		q->n = 1;
		q->s = calloc(1, sizeof(*q->s));
		q->zp = calloc(1, sizeof(*q->zp));
		q->sv = sv;
		if (!q->s || !q->zp) {
			qp_free(q);
			return "out of memory";
		}
		q->s[0] = 1.0f;
		if (zv && rt_scalar(zv, dt)) {
			q->zv = zv;
		} else if (zv) {
			if (!load_const(zv, &z) || z.dtype != dt || z.count != 1) {
				free(z.data);
				qp_free(q);
				return "zero point neither a scalar input nor a constant scalar";
			}
			q->zp[0] = dt == ONNX_TENSOR_ELEMENT_DATA_TYPE_INT8 ?
				*(int8_t *)z.data : *(uint8_t *)z.data;
			free(z.data);
		}
		return NULL;
	}
	if (!load_const(sv, &s))
		return "scale neither a constant initializer nor a float scalar";
	if (s.dtype != ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT) {
		free(s.data);
		return "scale not float32";
	}
	if (s.count != 1 && (!allow_n || s.count != allow_n || s.rank != 1)) {
		free(s.data);
		return allow_n ? "scale neither per-tensor nor per-channel" : "per-channel scale";
	}
	q->n = s.count;
	q->s = s.data;
	q->zp = calloc(q->n, sizeof(*q->zp));
	if (!q->zp) {
		qp_free(q);
		return "out of memory";
	}
	if (zv) {
		if (rt_scalar(zv, dt) && q->n == 1) {
			q->zv = zv;
		} else if (!load_const(zv, &z)) {
			qp_free(q);
			return "zero point not a constant initializer";
		}
		if (!q->zv) {
		if (z.dtype != dt || (z.count != q->n && z.count != 1)) {
			free(z.data);
			qp_free(q);
			return "zero point type/size mismatch";
		}
		for (size_t i = 0; i < q->n; i++) {
			size_t j = z.count == 1 ? 0 : i;

			q->zp[i] = dt == ONNX_TENSOR_ELEMENT_DATA_TYPE_INT8 ?
				((int8_t *)z.data)[j] : ((uint8_t *)z.data)[j];
		}
		free(z.data);
		}
	}
	for (size_t i = 0; i < q->n; i++)
		if (!isfinite(q->s[i]) || q->s[i] <= 0.0f) {
			qp_free(q);
			return "scale not positive finite";
		}
	return NULL;
}

/* a DequantizeLinear producing @v for one consumer, its qparams in @q */
const OrtNode *dq_of(const OrtValueInfo *v, const OrtValueInfo **src,
			    const OrtValueInfo **sv, const OrtValueInfo **zv)
{
	const OrtNode *p = producer(v);
	const OrtValueInfo *in[3];
	size_t ni;

	if (!p || strcmp(node_op(p), "DequantizeLinear") || !node_onnx_domain(p))
		return NULL;
	if (!single_use(v))
		return NULL;
	ni = node_inputs(p, in, 3);
	if (ni < 2 || !in[0] || !in[1])
		return NULL;
	if (attr_int(p, "block_size", 0) != 0)
		return NULL;
	*src = in[0];
	*sv = in[1];
	*zv = ni > 2 ? in[2] : NULL;
	return p;
}

/* fill k->x/k->w operands: constant data or run-time */
const char *take_operand(const OrtValueInfo *v, struct operand *o, bool need_const)
{
	memset(o, 0, sizeof(*o));
	o->runtime_idx = -1;
	if (vi_const(v))
		return load_const(v, o) ? NULL : "cannot read initializer";
	if (need_const)
		return "weights not constant";
	o->runtime_idx = -2;	/* resolved at Compile */
	o->dtype = vi_type(v, o->dims, &o->rank);
	return NULL;
}
