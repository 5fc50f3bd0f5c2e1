// SPDX-License-Identifier: MIT
/*
 * EPContext models (Documentation/onnxruntime.md "Compiled models"): a
 * session with ep.context_enable=1 saves each compiled partition as a
 * com.microsoft EPContext node whose ep_cache_context attribute embeds the
 * partition's kernel (struct kern) in libe1npu's artifact container (kind
 * TFLITE_ART_KIND_ORT, lib/tflite/tflite_artifact.h: magic, format and
 * library version, the device's capabilities, SHA-256 and checksum). A
 * later session loads it without matching or copying the source graph; a
 * blob of another format or library version, for another device, or
 * corrupted is refused with the reason, never run.
 *
 * The kernel record (the artifact's model section), little-endian:
 *   u32 kind, requant, has_ws, has_wzp, nw; i32 xdt, wdt, ydt, xzp, yzp,
 *   autopad; f32 xs, ys; i64 group, kh, kw, sh, sw, dh, dw, pt, pl, pb, pr;
 *   str op; f32 ws[nw] (has_ws); i32 wzp[nw] (has_wzp);
 *   3 operands (x, w, bias): i32 dtype; u32 rank; i64 dims[rank];
 *     u64 count; u8 has_data; count elements (has_data);
 *   8 str: the fused node's input names of x, w and the six run-time
 *     scales/zero points ("" when constant or absent);
 *   kind K_XK (the groups of ep_move.c ... ep_pool.c) then: u32 op, dt,
 *     nin; nin x (operand, str input name); i64 v[8]; i32 nv; i64 axis;
 *     u32 allowzero; i64 sl[4][8]; i32 nsl; f32 s[2], ys; i32 zp[2], yzp;
 *     u32 fma; nin x (u32 has_table, 256 bytes when it has).
 * A str is u32 bytes + bytes (no NUL). Everything is bounds-checked and
 * the kernel checked as the matcher would have built it (kern_valid()).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ep.h"
#include "ep_graph.h"
#include "tflite_artifact.h"

#define CTX_OP		"EPContext"
#define CTX_DOMAIN	"com.microsoft"
#define CTX_ATTR	"ep_cache_context"
#define NAME_LEN	512	/* an input name's bytes, with the NUL */

/* ---- writing ---------------------------------------------------------- */

struct wbuf {
	uint8_t *p;
	size_t n, cap;
	bool bad;
};

static void w_bytes(struct wbuf *b, const void *d, size_t n)
{
	if (b->bad)
		return;
	if (n > b->cap - b->n) {
		size_t cap = b->cap ? b->cap : 256;
		uint8_t *p;

		while (cap - b->n < n) {
			if (cap > SIZE_MAX / 2) {
				b->bad = true;
				return;
			}
			cap *= 2;
		}
		p = realloc(b->p, cap);
		if (!p) {
			b->bad = true;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	if (n)
		memcpy(b->p + b->n, d, n);
	b->n += n;
}

static void w32(struct wbuf *b, uint32_t v)
{
	uint8_t x[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };

	w_bytes(b, x, 4);
}

static void w64(struct wbuf *b, uint64_t v)
{
	w32(b, (uint32_t)v);
	w32(b, (uint32_t)(v >> 32));
}

static void wf(struct wbuf *b, float f)
{
	uint32_t v;

	memcpy(&v, &f, 4);
	w32(b, v);
}

static void wstr(struct wbuf *b, const char *s)
{
	size_t n = strlen(s);

	w32(b, (uint32_t)n);
	w_bytes(b, s, n);
}

/* elements are stored little-endian, as x86-64 and riscv64 hold them */
static void w_operand(struct wbuf *b, const struct operand *o)
{
	w32(b, (uint32_t)o->dtype);
	w32(b, (uint32_t)o->rank);
	for (size_t i = 0; i < o->rank; i++)
		w64(b, (uint64_t)o->dims[i]);
	w64(b, o->count);
	w_bytes(b, (const uint8_t[]){ o->data ? 1 : 0 }, 1);
	if (o->data)
		w_bytes(b, o->data, o->count * dt_size(o->dtype));
}

static const char *in_name(const OrtNode *fused, int idx)
{
	const OrtValueInfo *in[64];
	size_t n = node_inputs(fused, in, 64);

	return idx >= 0 && (size_t)idx < n && in[idx] ? vi_name(in[idx]) : "";
}

static void w_kern(struct wbuf *b, const struct kern *k, const OrtNode *fused)
{
	const int64_t a[] = { k->group, k->kh, k->kw, k->sh, k->sw, k->dh, k->dw,
			      k->pt, k->pl, k->pb, k->pr };

	w32(b, (uint32_t)k->kind);
	w32(b, k->requant);
	w32(b, k->ws != NULL);
	w32(b, k->wzp != NULL);
	w32(b, (uint32_t)k->nw);
	w32(b, (uint32_t)k->xdt);
	w32(b, (uint32_t)k->wdt);
	w32(b, (uint32_t)k->ydt);
	w32(b, (uint32_t)k->xzp);
	w32(b, (uint32_t)k->yzp);
	w32(b, (uint32_t)k->autopad);
	wf(b, k->xs);
	wf(b, k->ys);
	for (size_t i = 0; i < sizeof(a) / sizeof(a[0]); i++)
		w64(b, (uint64_t)a[i]);
	wstr(b, k->op);
	for (size_t i = 0; k->ws && i < k->nw; i++)
		wf(b, k->ws[i]);
	for (size_t i = 0; k->wzp && i < k->nw; i++)
		w32(b, (uint32_t)k->wzp[i]);
	w_operand(b, &k->x);
	w_operand(b, &k->w);
	w_operand(b, &k->bias);
	wstr(b, k->kind == K_XK ? "" : in_name(fused, k->x.runtime_idx));
	wstr(b, k->kind == K_XK ? "" : in_name(fused, k->w.runtime_idx));
	for (int r = 0; r < 6; r++)
		wstr(b, in_name(fused, k->rt[r]));
	if (k->kind == K_XK && k->xk) {
		const struct xk *x = k->xk;

		w32(b, (uint32_t)x->op);
		w32(b, (uint32_t)x->dt);
		w32(b, (uint32_t)x->nin);
		for (size_t i = 0; i < x->nin; i++) {
			w_operand(b, &x->in[i]);
			wstr(b, x->in[i].data ? "" : in_name(fused, x->in[i].runtime_idx));
		}
		for (int i = 0; i < 8; i++)
			w64(b, (uint64_t)x->v[i]);
		w32(b, (uint32_t)x->nv);
		w64(b, (uint64_t)x->axis);
		w32(b, x->allowzero);
		for (int i = 0; i < 4; i++)
			for (int j = 0; j < 8; j++)
				w64(b, (uint64_t)x->sl[i][j]);
		w32(b, (uint32_t)x->nsl);
		wf(b, x->s[0]);
		wf(b, x->s[1]);
		wf(b, x->ys);
		w32(b, (uint32_t)x->zp[0]);
		w32(b, (uint32_t)x->zp[1]);
		w32(b, (uint32_t)x->yzp);
		w32(b, x->fma);
		for (size_t i = 0; i < x->nin; i++) {
			w32(b, x->lut[i] != NULL);
			if (x->lut[i])
				w_bytes(b, x->lut[i], 256);
		}
	}
}

/* ---- reading ---------------------------------------------------------- */

struct rbuf {
	const uint8_t *p;
	size_t n, at;
	const char *bad;	/* the first problem */
};

static const uint8_t *r_take(struct rbuf *b, size_t n, const char *what)
{
	const uint8_t *p;

	if (b->bad)
		return NULL;
	if (n > b->n - b->at) {
		b->bad = what;
		return NULL;
	}
	p = b->p + b->at;
	b->at += n;
	return p;
}

static uint32_t r32(struct rbuf *b, const char *what)
{
	const uint8_t *p = r_take(b, 4, what);

	return p ? (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
		   (uint32_t)p[3] << 24 : 0;
}

static uint64_t r64(struct rbuf *b, const char *what)
{
	uint64_t lo = r32(b, what);

	return lo | (uint64_t)r32(b, what) << 32;
}

static float rf(struct rbuf *b, const char *what)
{
	uint32_t v = r32(b, what);
	float f;

	memcpy(&f, &v, 4);
	return f;
}

/* a str into @out (@len bytes with the NUL); too long is an error */
static void rstr(struct rbuf *b, char *out, size_t len, const char *what)
{
	uint32_t n = r32(b, what);
	const uint8_t *p;

	out[0] = 0;
	if (b->bad)
		return;
	if (n >= len || memchr(b->p + b->at, 0, n > b->n - b->at ? 0 : n)) {
		b->bad = what;
		return;
	}
	p = r_take(b, n, what);
	if (p) {
		memcpy(out, p, n);
		out[n] = 0;
	}
}

static void r_operand(struct rbuf *b, struct operand *o, const char *what)
{
	uint64_t count, cnt = 1;
	size_t es;
	const uint8_t *p;

	memset(o, 0, sizeof(*o));
	o->runtime_idx = -1;
	o->dtype = (int)r32(b, what);
	o->rank = r32(b, what);
	if (b->bad)
		return;
	if (o->rank > 8) {
		b->bad = what;
		return;
	}
	for (size_t i = 0; i < o->rank; i++) {
		o->dims[i] = (int64_t)r64(b, what);
		if (o->dims[i] < 0 || (o->dims[i] && cnt > UINT64_MAX / (uint64_t)o->dims[i]))
			cnt = UINT64_MAX;	/* dynamic or absurd: no data allowed */
		else
			cnt *= (uint64_t)o->dims[i];
	}
	count = r64(b, what);
	p = r_take(b, 1, what);
	if (!p || !*p) {
		o->count = (size_t)count;
		return;
	}
	es = dt_size(o->dtype);
	/* constant data: a known type and exactly the shape's elements */
	if (!es || count != cnt || count > (b->n - b->at) / es) {
		b->bad = what;
		return;
	}
	o->count = (size_t)count;
	o->data = malloc(o->count * es + 1);
	if (!o->data) {
		b->bad = "out of memory";
		return;
	}
	memcpy(o->data, r_take(b, o->count * es, what), o->count * es);
}

static bool is8dt(int dt)
{
	return dt == ONNX_TENSOR_ELEMENT_DATA_TYPE_INT8 || dt == ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT8;
}

static const char *xk_valid(const struct kern *k);

/*
 * kern_valid() - NULL when @k is a kernel the matcher could have built
 * (the invariants ep.c's compute relies on), else what is wrong.
 */
static const char *kern_valid(const struct kern *k)
{
	const int64_t *wd = k->w.dims, lim = 1 << 20;
	bool pool = k->kind == K_MAXPOOL;
	int64_t nch = -1;

	if (k->kind == K_XK)
		return xk_valid(k);
	if (k->kind != K_MATMUL && k->kind != K_CONV && !pool)
		return "unknown kernel kind";
	if (!is8dt(k->xdt) || (!pool && !is8dt(k->wdt)))
		return "operand types";
	if (pool ? k->ydt != k->xdt || k->requant :
	    k->requant ? !is8dt(k->ydt) : k->ydt != ONNX_TENSOR_ELEMENT_DATA_TYPE_INT32)
		return "output type";
	if (k->xzp < -128 || k->xzp > 255 || k->yzp < -128 || k->yzp > 255)
		return "zero points";
	if ((k->x.data && k->x.dtype != k->xdt) || (k->w.data && k->w.dtype != k->wdt))
		return "operand types against the kernel's";
	if (pool)
		return k->kh < 1 || k->kw < 1 || k->sh < 1 || k->sw < 1 || k->kh > lim ||
		       k->kw > lim || k->sh > lim || k->sw > lim || k->w.data || k->bias.data ?
		       "pool window or stride" : NULL;
	if (k->w.data)
		nch = k->kind == K_CONV ? (k->w.rank == 4 ? wd[0] : -2) :
		      (k->w.rank >= 2 ? wd[k->w.rank - 1] : -2);
	if (nch == -2)
		return "weight rank";
	if (!k->nw || k->nw > (1u << 24) || (k->nw > 1 && (int64_t)k->nw != nch))
		return "per-channel scales do not match the weights' output channels";
	if (!k->wzp && k->rt[3] < 0)
		return "weight zero point missing";
	if (k->requant && !k->ws && k->rt[2] < 0)
		return "weight scale missing";
	if (k->bias.data && (k->bias.dtype != ONNX_TENSOR_ELEMENT_DATA_TYPE_INT32 ||
			     (nch >= 0 && (int64_t)k->bias.count != nch)))
		return "bias";
	if (k->kind == K_CONV) {
		if (k->kh < 1 || k->kw < 1 || k->sh < 1 || k->sw < 1 || k->dh < 1 ||
		    k->dw < 1 || k->kh > lim || k->kw > lim || k->sh > lim || k->sw > lim ||
		    k->dh > lim || k->dw > lim || k->pt < 0 || k->pl < 0 || k->pb < 0 ||
		    k->pr < 0 || k->pt > lim || k->pl > lim || k->pb > lim || k->pr > lim ||
		    k->autopad < 0 || k->autopad > 2)
			return "kernel, stride, dilation or padding";
		if (k->group < 1 || k->group > lim)
			return "group";
		if (k->w.data && (wd[2] != k->kh || wd[3] != k->kw || wd[0] % k->group))
			return "weight shape against the kernel size and group";
	}
	return NULL;
}

/* the K_XK section (its run-time inputs by name, bound at load) */
static void r_xk(struct rbuf *b, struct kern *k)
{
	struct xk *x = calloc(1, sizeof(*x));
	char name[NAME_LEN];

	if (!x) {
		b->bad = "out of memory";
		return;
	}
	k->xk = x;
	x->op = (enum xk_op)r32(b, "group header");
	x->dt = (int)r32(b, "group header");
	x->nin = r32(b, "group header");
	if (b->bad || !x->nin || x->nin > XK_MAXIN) {
		x->nin = 0;
		b->bad = b->bad ? b->bad : "group input count";
		return;
	}
	for (size_t i = 0; i < x->nin && !b->bad; i++) {
		r_operand(b, &x->in[i], "group operand");
		rstr(b, name, sizeof(name), "group input name");
		if (!b->bad && name[0] && !(x->names[i] = strdup(name)))
			b->bad = "out of memory";
	}
	for (int i = 0; i < 8; i++)
		x->v[i] = (int64_t)r64(b, "group attributes");
	x->nv = (int)r32(b, "group attributes");
	x->axis = (int64_t)r64(b, "group attributes");
	x->allowzero = r32(b, "group attributes") != 0;
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 8; j++)
			x->sl[i][j] = (int64_t)r64(b, "group attributes");
	x->nsl = (int)r32(b, "group attributes");
	x->s[0] = rf(b, "group parameters");
	x->s[1] = rf(b, "group parameters");
	x->ys = rf(b, "group parameters");
	x->zp[0] = (int32_t)r32(b, "group parameters");
	x->zp[1] = (int32_t)r32(b, "group parameters");
	x->yzp = (int32_t)r32(b, "group parameters");
	x->fma = r32(b, "group parameters") != 0;
	for (size_t i = 0; i < x->nin && !b->bad; i++) {
		const uint8_t *t;

		if (!r32(b, "group table"))
			continue;
		t = r_take(b, 256, "group table");
		if (t && !(x->lut[i] = malloc(256)))
			b->bad = "out of memory";
		else if (t)
			memcpy(x->lut[i], t, 256);
	}
}

static bool pos_finite(float f)
{
	return f > 0.0f && f <= 3.4e38f;
}

/* the invariants ep_move.c ... ep_pool.c's compute relies on */
static const char *xk_valid(const struct kern *k)
{
	const struct xk *x = k->xk;
	bool tables_ok = true;

	if (!x || x->op < XK_RESHAPE || x->op > XK_LEAKYRELU)
		return "unknown group";
	if (!is8dt(x->dt) || k->xdt != x->dt || k->ydt != x->dt)
		return "group type";
	if (x->nin < 1 || (x->op != XK_CONCAT && x->nin != (x->op == XK_ADD || x->op == XK_MUL ? 2u : 1u)))
		return "group input count";
	for (size_t i = 0; i < x->nin; i++) {
		if (x->in[i].data ? x->in[i].dtype != x->dt : !x->names[i])
			return "group operand neither an input nor constant of the group's type";
		tables_ok &= !x->lut[i] || x->op == XK_CONCAT || (x->op == XK_LEAKYRELU && i == 0);
	}
	if (!tables_ok || (x->op == XK_LEAKYRELU && !x->lut[0]))
		return "group tables";
	/* nv: a count, or Softmax's opset */
	if (x->nv < -1 || (x->op != XK_SOFTMAX && x->nv > 8) || x->nsl < 0 || x->nsl > 8)
		return "group attribute counts";
	if (x->zp[0] < -128 || x->zp[0] > 255 || x->zp[1] < -128 || x->zp[1] > 255 ||
	    x->yzp < -128 || x->yzp > 255)
		return "group zero points";
	switch (x->op) {
	case XK_RESHAPE:
		return x->nv < 0 ? "Reshape without a shape" : NULL;
	case XK_UNSQUEEZE:
		return x->nv < 1 ? "Unsqueeze without axes" : NULL;
	case XK_SLICE:
		for (int i = 0; i < x->nsl; i++)
			if (!x->sl[3][i])
				return "Slice step 0";
		return NULL;
	case XK_RESIZE:
		if (x->nsl < 1 || x->sl[1][0] < 0 || x->sl[1][0] > 2 || x->sl[1][1] < 0 ||
		    x->sl[1][1] > 3)
			return "Resize modes";
		for (int i = 0; i < x->nsl; i++)
			if (x->sl[0][i] < 1 || x->sl[0][i] > 64)
				return "Resize scales";
		return NULL;
	case XK_ADD:
	case XK_MUL:
		if (!pos_finite(x->s[0]) || !pos_finite(x->s[1]) || !pos_finite(x->ys))
			return "group scales";
		return xk_cpu_why(x->op);
	case XK_SOFTMAX:
		if (xk_cpu_why(x->op))
			return xk_cpu_why(x->op);
		if (!pos_finite(x->s[0]) || !pos_finite(x->ys) || !(floorf(1.0f / x->ys) >= 1.0f) ||
		    floorf(1.0f / x->ys) > 65536.0f || x->nv < 1 || x->nv > 1000)
			return "Softmax parameters";
		return NULL;
	case XK_AVGPOOL:
		if (x->sl[0][0] < 1 || x->sl[0][0] > 64 || x->sl[0][1] < 1 || x->sl[0][1] > 64 ||
		    x->sl[1][0] < 1 || x->sl[1][1] < 1 || x->sl[1][0] > (1 << 20) ||
		    x->sl[1][1] > (1 << 20))
			return "AveragePool window or strides";
		for (int i = 0; i < 4; i++)
			if (x->sl[2][i] < 0 || x->sl[2][i] >= x->sl[0][i % 2])
				return "AveragePool pads";
		/* fall through */
	case XK_GLOBALAVGPOOL:
		return !pos_finite(x->s[0]) || !pos_finite(x->ys) ? "group scales" : NULL;
	default:
		return NULL;
	}
}

static void r_kern(struct rbuf *b, struct kern *k, char (*names)[NAME_LEN])
{
	int64_t *a[] = { &k->group, &k->kh, &k->kw, &k->sh, &k->sw, &k->dh, &k->dw,
			 &k->pt, &k->pl, &k->pb, &k->pr };
	uint32_t has_ws, has_wzp;

	memset(k, 0, sizeof(*k));
	k->x.runtime_idx = k->w.runtime_idx = k->bias.runtime_idx = -1;
	for (int r = 0; r < 6; r++)
		k->rt[r] = -1;
	k->kind = (enum kkind)r32(b, "header");
	k->requant = r32(b, "header") != 0;
	has_ws = r32(b, "header");
	has_wzp = r32(b, "header");
	k->nw = r32(b, "header");
	k->xdt = (int)r32(b, "header");
	k->wdt = (int)r32(b, "header");
	k->ydt = (int)r32(b, "header");
	k->xzp = (int32_t)r32(b, "header");
	k->yzp = (int32_t)r32(b, "header");
	k->autopad = (int)r32(b, "header");
	k->xs = rf(b, "header");
	k->ys = rf(b, "header");
	for (size_t i = 0; i < sizeof(a) / sizeof(a[0]); i++)
		*a[i] = (int64_t)r64(b, "attributes");
	rstr(b, k->op, sizeof(k->op), "operator name");
	if (b->bad)
		return;
	if (k->nw > (b->n - b->at) / 4) {
		b->bad = "scales";
		return;
	}
	if (has_ws) {
		k->ws = malloc(k->nw * sizeof(*k->ws) + 1);
		if (!k->ws) {
			b->bad = "out of memory";
			return;
		}
		for (size_t i = 0; i < k->nw; i++)
			k->ws[i] = rf(b, "scales");
	}
	if (has_wzp) {
		k->wzp = malloc(k->nw * sizeof(*k->wzp) + 1);
		if (!k->wzp) {
			b->bad = "out of memory";
			return;
		}
		for (size_t i = 0; i < k->nw; i++)
			k->wzp[i] = (int32_t)r32(b, "zero points");
	}
	r_operand(b, &k->x, "input operand");
	r_operand(b, &k->w, "weight operand");
	r_operand(b, &k->bias, "bias operand");
	for (int i = 0; i < 8; i++)
		rstr(b, names[i], NAME_LEN, "input names");
	if (!b->bad && k->kind == K_XK)
		r_xk(b, k);
	if (!b->bad && b->at != b->n)
		b->bad = "trailing bytes";
}

/* ---- the EPContext node ----------------------------------------------- */

static bool attr_string(const OrtNode *n, const char *name, void **out, size_t *len)
{
	const OrtOpAttr *a = NULL;
	OrtOpAttrType t;
	size_t need = 0;
	char probe;
	void *p;
	OrtStatus *s;

	*out = NULL;
	*len = 0;
	if (!ok(ort->Node_GetAttributeByName(n, name, &a)) || !a ||
	    !ok(ort->OpAttr_GetType(a, &t)) || t != ORT_OP_ATTR_STRING)
		return false;
	/* the first call reports the size (an error when it does not fit) */
	s = ort->ReadOpAttr(a, ORT_OP_ATTR_STRING, &probe, 0, &need);
	if (s)
		ort->ReleaseStatus(s);
	p = malloc(need + 1);
	if (!p)
		return false;
	if (need && !ok(ort->ReadOpAttr(a, ORT_OP_ATTR_STRING, p, need, &need))) {
		free(p);
		return false;
	}
	((char *)p)[need] = 0;
	*out = p;
	*len = need;
	return true;
}

bool ctx_is_ep_context(const OrtNode *n)
{
	const char *d = NULL;

	return !strcmp(node_op(n), CTX_OP) && ok(ort->Node_GetDomain(n, &d)) && d &&
	       !strcmp(d, CTX_DOMAIN);
}

bool ctx_is_ours(const OrtNode *n)
{
	void *src;
	size_t len;
	bool ours;

	if (!ctx_is_ep_context(n) || !attr_string(n, "source", &src, &len))
		return false;
	ours = len == strlen(EP_NAME) && !memcmp(src, EP_NAME, len);
	free(src);
	return ours;
}

static int64_t attr_i(const OrtNode *n, const char *name, int64_t def)
{
	const OrtOpAttr *a = NULL;
	int64_t v = def;
	size_t got = 0;

	if (!ok(ort->Node_GetAttributeByName(n, name, &a)) || !a ||
	    !ok(ort->ReadOpAttr(a, ORT_OP_ATTR_INT, &v, sizeof(v), &got)))
		return def;
	return v;
}

/* The kernel in @n's blob, checked; NULL or the refusal (an ORT status). */
static OrtStatus *ctx_parse(struct e1_ep *ep, const OrtNode *n, struct kern *k,
			    char (*names)[NAME_LEN])
{
	const char *nm = NULL;
	struct tflite_art a;
	struct tflite_art_caps caps;
	struct rbuf b;
	char err[256];
	void *blob;
	size_t len;
	OrtStatus *s = NULL;

	(void)ok(ort->Node_GetName(n, &nm));
	nm = nm ? nm : "";
	if (attr_i(n, "embed_mode", 1) != 1)
		return st(ORT_NOT_IMPLEMENTED,
			  "e1npu: EPContext node '%s': embed_mode %lld: only embedded blobs (embed_mode 1) are read",
			  nm, (long long)attr_i(n, "embed_mode", 1));
	if (!attr_string(n, CTX_ATTR, &blob, &len))
		return st(ORT_INVALID_GRAPH, "e1npu: EPContext node '%s': no %s string attribute",
			  nm, CTX_ATTR);
	if (tflite_art_parse(blob, len, TFLITE_ART_KIND_ORT, e1npu_api_version(), &a, err,
			     sizeof(err))) {
		s = st(ORT_INVALID_GRAPH, "e1npu: EPContext node '%s' refused: %s", nm, err);
		goto out;
	}
	tflite_art_caps_of(ep->dev, &caps);
	if (tflite_art_check_caps(&a, &caps, err, sizeof(err))) {
		s = st(ORT_INVALID_GRAPH, "e1npu: EPContext node '%s' refused: %s", nm, err);
		goto out;
	}
	memset(&b, 0, sizeof(b));
	b.p = a.model;
	b.n = a.model_size;
	r_kern(&b, k, names);
	if (!b.bad)
		b.bad = kern_valid(k);
	if (b.bad) {
		s = st(ORT_INVALID_GRAPH, "e1npu: EPContext node '%s' refused: its kernel record: %s",
		       nm, b.bad);
		kern_free(k);
	}
out:
	free(blob);
	return s;
}

OrtStatus *ctx_check(struct e1_ep *ep, const OrtNode *n)
{
	char (*names)[NAME_LEN] = malloc(8 * NAME_LEN);
	struct kern k;
	OrtStatus *s;

	if (!names)
		return st(ORT_FAIL, "e1npu: out of memory");
	s = ctx_parse(ep, n, &k, names);
	if (!s)
		kern_free(&k);
	free(names);
	return s;
}

OrtStatus *ctx_load(struct e1_ep *ep, const OrtNode *n, const OrtNode *fused, struct kern *k)
{
	char (*names)[NAME_LEN] = malloc(8 * NAME_LEN);
	int *idx[8] = { &k->x.runtime_idx, &k->w.runtime_idx, &k->rt[0], &k->rt[1],
			&k->rt[2], &k->rt[3], &k->rt[4], &k->rt[5] };
	const char *why;
	OrtStatus *s;
	bool pool;

	if (!names)
		return st(ORT_FAIL, "e1npu: out of memory");
	s = ctx_parse(ep, n, k, names);
	if (s) {
		free(names);
		return s;
	}
	for (int i = 0; i < 8; i++) {
		*idx[i] = -1;
		if (!names[i][0])
			continue;
		*idx[i] = fused_input(fused, names[i]);
		if (*idx[i] < 0) {
			s = st(ORT_INVALID_GRAPH,
			       "e1npu: EPContext node refused: its input '%s' is not an input of the node",
			       names[i]);
			kern_free(k);
			free(names);
			return s;
		}
	}
	free(names);
	if (k->kind == K_XK) {
		struct xk *x = k->xk;

		for (size_t i = 0; i < x->nin; i++) {
			if (x->in[i].data)
				continue;
			x->in[i].runtime_idx = fused_input(fused, x->names[i]);
			if (x->in[i].runtime_idx < 0) {
				s = st(ORT_INVALID_GRAPH,
				       "e1npu: EPContext node refused: its input '%s' is not an input of the node",
				       x->names[i]);
				kern_free(k);
				return s;
			}
		}
		k->ep = ep;
		return NULL;
	}
	pool = k->kind == K_MAXPOOL;
	if (!pool && (why = sat_guard(k))) {
		/* compiled where ORT's u8 x s8 product is exact (VNNI), not here */
		kern_free(k);
		return st(ORT_INVALID_GRAPH,
			  "e1npu: EPContext node refused: on this CPU %s: compile the original model here",
			  why);
	}
	if ((k->x.runtime_idx < 0) == !k->x.data ||
	    (!pool && (k->w.runtime_idx < 0) == !k->w.data)) {
		kern_free(k);
		return st(ORT_INVALID_GRAPH,
			  "e1npu: EPContext node refused: an operand is neither an input nor constant");
	}
	k->ep = ep;
	return NULL;
}

OrtStatus *ctx_save(struct e1_ep *ep, const struct kern *k, const OrtNode *fused,
		    OrtNode **out)
{
	const OrtModelEditorApi *ed = ort->GetModelEditorApi();
	const OrtValueInfo *in[64], *outs[8];
	const char *inn[64], *outn[8], *fname = NULL, *lib = e1npu_api_version();
	size_t nin = node_inputs(fused, in, 64), nout = 0, n = 0;
	struct wbuf b = { 0 };
	void *blob = NULL;
	size_t blen = 0;
	int64_t one = 1;
	OrtOpAttr *at[6] = { 0 };
	OrtStatus *s = NULL;
	int ret;

	*out = NULL;
	if (!ed)
		return st(ORT_NOT_IMPLEMENTED, "e1npu: this ONNX Runtime has no model editor API");
	if (!ok(ort->Node_GetNumInputs(fused, &n)) || n > 64 || n != nin)
		return st(ORT_FAIL, "e1npu: EPContext: the fused node's %zu inputs (at most 64)", n);
	if (!ok(ort->Node_GetNumOutputs(fused, &nout)) || nout > 8 ||
	    !ok(ort->Node_GetOutputs(fused, outs, nout)))
		return st(ORT_FAIL, "e1npu: EPContext: cannot read the fused node's outputs");
	for (size_t i = 0; i < nin; i++)
		inn[i] = vi_name(in[i]);
	for (size_t i = 0; i < nout; i++)
		outn[i] = vi_name(outs[i]);
	(void)ok(ort->Node_GetName(fused, &fname));
	fname = fname ? fname : "";
	w_kern(&b, k, fused);
	if (b.bad) {
		free(b.p);
		return st(ORT_FAIL, "e1npu: EPContext: out of memory");
	}
	ret = tflite_art_wrap(TFLITE_ART_KIND_ORT, ep->dev, b.p, b.n, &blob, &blen);
	free(b.p);
	if (ret || blen > INT_MAX) {
		free(blob);
		return st(ORT_FAIL, "e1npu: EPContext of '%s': %s", fname,
			  ret ? strerror(-ret) : "more than 2 GiB");
	}
	if ((s = ort->CreateOpAttr("main_context", &one, 1, ORT_OP_ATTR_INT, &at[0])) ||
	    (s = ort->CreateOpAttr("embed_mode", &one, 1, ORT_OP_ATTR_INT, &at[1])) ||
	    (s = ort->CreateOpAttr(CTX_ATTR, blob, (int)blen, ORT_OP_ATTR_STRING, &at[2])) ||
	    (s = ort->CreateOpAttr("ep_sdk_version", lib, (int)strlen(lib), ORT_OP_ATTR_STRING,
				   &at[3])) ||
	    (s = ort->CreateOpAttr("partition_name", fname, (int)strlen(fname),
				   ORT_OP_ATTR_STRING, &at[4])) ||
	    (s = ort->CreateOpAttr("source", EP_NAME, (int)strlen(EP_NAME), ORT_OP_ATTR_STRING,
				   &at[5])))
		goto out;
	s = ed->CreateNode(CTX_OP, CTX_DOMAIN, fname, inn, nin, outn, nout, at, 6, out);
out:
	for (int i = 0; i < 6; i++)
		if (at[i])
			ort->ReleaseOpAttr(at[i]);
	free(blob);
	return s;
}

/* "e1npu;artifact=F;libe1npu=V": what the compiled model needs of this EP */
const char *ctx_compat_info(void)
{
	static char buf[96];

	snprintf(buf, sizeof(buf), "%s;artifact=%u;libe1npu=%s", EP_NAME, TFLITE_ART_FORMAT,
		 e1npu_api_version());
	return buf;
}
