// SPDX-License-Identifier: MIT
/*
 * DQ -> Slice -> Q and DQ -> Resize (nearest, integer scales) -> Q with
 * one constant per-tensor scale and zero point on both sides: each output
 * element is one input element, so the group is the selection of the
 * 8-bit values (ORT's CPU EP drops such Q/DQ pairs: its `drop` rules
 * name Slice and Resize). On the host.
 *
 * Resize's source index per dimension, for output index x and scale s:
 * half_pixel (and pytorch_half_pixel, output > 1) (x + 0.5) / s - 0.5,
 * asymmetric x / s; then the nearest mode (round_prefer_floor/ceil,
 * floor, ceil) and clamping to the input. With an integer s, a tie
 * (k + 0.5) is exact in float32 when it occurs (asymmetric, even s) and
 * half_pixel never gives one, so computing it in double is ORT's result.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ep.h"
#include "ep_graph.h"

enum { CT_HALF, CT_PYTORCH, CT_ASYM };
enum { NM_FLOOR_TIE, NM_CEIL_TIE, NM_FLOOR, NM_CEIL };

static const char *slice_args(const OrtValueInfo *const *in, size_t ni, struct xk *x)
{
	int n[4] = { 0, 0, -1, -1 };
	const char *why;

	if (ni < 3 || !in[1] || !in[2])
		return "Slice without starts/ends inputs (opset < 10)";
	for (size_t i = 1; i < ni && i < 5; i++)
		if (in[i] && (why = xk_ints(in[i], x->sl[i - 1], &n[i - 1])))
			return why;
	if (n[1] != n[0] || (n[2] >= 0 && n[2] != n[0]) || (n[3] >= 0 && n[3] != n[0]))
		return "Slice starts/ends/axes/steps of different lengths";
	x->nsl = n[0];
	for (int i = 0; i < x->nsl; i++) {
		if (n[2] < 0)
			x->sl[2][i] = i;
		if (n[3] < 0)
			x->sl[3][i] = 1;
		if (x->sl[3][i] == 0)
			return "Slice step 0";
	}
	return NULL;
}

static const char *resize_args(const OrtNode *n, const OrtValueInfo *const *in, size_t ni,
			       struct xk *x)
{
	char s[40];
	struct operand sc;
	const char *why = NULL;

	if (!attr_str(n, "mode", s, sizeof(s)))
		strcpy(s, "nearest");
	if (strcmp(s, "nearest"))
		return "Resize not nearest (ORT's 8-bit linear/cubic arithmetic not reproduced)";
	if (attr_int(n, "antialias", 0) || attr_ints(n, "axes", x->v, 8))
		return "Resize with antialias or axes";
	x->sl[1][0] = CT_HALF;
	if (attr_str(n, "coordinate_transformation_mode", s, sizeof(s)) && strcmp(s, "half_pixel")) {
		if (!strcmp(s, "pytorch_half_pixel"))
			x->sl[1][0] = CT_PYTORCH;
		else if (!strcmp(s, "asymmetric"))
			x->sl[1][0] = CT_ASYM;
		else
			return "Resize coordinate_transformation_mode other than half_pixel, pytorch_half_pixel, asymmetric";
	}
	x->sl[1][1] = NM_FLOOR_TIE;
	if (attr_str(n, "nearest_mode", s, sizeof(s)) && strcmp(s, "round_prefer_floor")) {
		if (!strcmp(s, "round_prefer_ceil"))
			x->sl[1][1] = NM_CEIL_TIE;
		else if (!strcmp(s, "floor"))
			x->sl[1][1] = NM_FLOOR;
		else if (!strcmp(s, "ceil"))
			x->sl[1][1] = NM_CEIL;
		else
			return "unknown Resize nearest_mode";
	}
	/* opset >= 11: X, roi, scales, sizes; no sizes */
	if (ni < 3 || !in[2] || (ni > 3 && in[3]))
		return "Resize without constant scales (sizes, or opset 10)";
	if (!load_const(in[2], &sc))
		return "Resize scales not a constant initializer";
	if (sc.dtype != ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT || sc.rank != 1 || !sc.count ||
	    sc.count > 8) {
		why = "Resize scales not float [rank <= 8]";
	} else {
		x->nsl = (int)sc.count;
		for (size_t i = 0; i < sc.count && !why; i++) {
			float f = ((float *)sc.data)[i];

			if (!(f >= 1.0f && f <= 64.0f) || f != floorf(f))
				why = "Resize scale not an integer from 1 to 64";
			x->sl[0][i] = (int64_t)f;
		}
	}
	free(sc.data);
	return why;
}

void sel_match(const OrtNode *n, struct match *m, enum xk_op op)
{
	const OrtValueInfo *in[5];
	struct xk_ends e;
	struct xk *x;
	size_t ni;

	memset(&e, 0, sizeof(e));
	if (!ok(ort->Node_GetNumInputs(n, &ni)) || ni > 5 || !(ni = node_inputs(n, in, 5)) ||
	    !in[0]) {
		m->why = "inputs";
		return;
	}
	if (!(x = xk_head_equal(n, in[0], m, op, &e)))
		goto out;
	m->why = op == XK_SLICE ? slice_args(in, ni, x) : resize_args(n, in, ni, x);
	if (!m->why)
		m->why = xk_claim_unary(m, x, e.src, e.dq, n, e.q);
out:
	qp_free(&e.y);
}

static OrtStatus *bad(const struct kern *k, const char *what, long long v)
{
	return st(ORT_INVALID_ARGUMENT, "e1npu: %s: %s (%lld)", k->name, what, v);
}

/* per dimension: first source index and step (Slice) */
static OrtStatus *slice_plan(const struct kern *k, const int64_t *d, size_t r, int64_t *od,
			     int64_t *first, int64_t *step)
{
	const struct xk *x = k->xk;
	bool seen[8] = { false };

	for (size_t i = 0; i < r; i++)
		od[i] = d[i], first[i] = 0, step[i] = 1;
	for (int j = 0; j < x->nsl; j++) {
		int64_t a = x->sl[2][j] < 0 ? x->sl[2][j] + (int64_t)r : x->sl[2][j];
		int64_t st1 = x->sl[3][j], s0 = x->sl[0][j], e0 = x->sl[1][j], dim, len;

		if (a < 0 || a >= (int64_t)r || seen[a])
			return bad(k, "Slice axis out of range or repeated", (long long)x->sl[2][j]);
		seen[a] = true;
		dim = d[a];
		if (s0 < 0)
			s0 += dim;
		if (e0 < 0)
			e0 += dim;
		if (st1 > 0) {
			s0 = s0 < 0 ? 0 : s0 > dim ? dim : s0;
			e0 = e0 < 0 ? 0 : e0 > dim ? dim : e0;
			len = e0 > s0 ? 1 + (e0 - s0 - 1) / st1 : 0;
		} else {
			s0 = s0 < 0 ? 0 : s0 > dim - 1 ? dim - 1 : s0;
			e0 = e0 < -1 ? -1 : e0 > dim - 1 ? dim - 1 : e0;
			if (st1 == INT64_MIN)
				st1 = -INT64_MAX;	/* the same single element */
			len = s0 > e0 ? 1 + (s0 - e0 - 1) / -st1 : 0;
		}
		od[a] = len, first[a] = s0, step[a] = st1;
	}
	return NULL;
}

/* Resize's source index along one dimension */
static int64_t nearest_src(const struct xk *x, int64_t o, int64_t s, int64_t in, int64_t out)
{
	double f, fl;
	int64_t i;

	if (x->sl[1][0] == CT_ASYM)
		f = (double)o / (double)s;
	else if (x->sl[1][0] == CT_PYTORCH && out <= 1)
		f = 0.0;
	else
		f = ((double)o + 0.5) / (double)s - 0.5;
	fl = floor(f);
	switch (x->sl[1][1]) {
	case NM_FLOOR:
		i = (int64_t)fl;
		break;
	case NM_CEIL:
		i = (int64_t)ceil(f);
		break;
	case NM_CEIL_TIE:
		i = f - fl == 0.5 ? (int64_t)fl + 1 : (int64_t)floor(f + 0.5);
		break;
	default:
		i = f - fl == 0.5 ? (int64_t)fl : (int64_t)floor(f + 0.5);
		break;
	}
	return i < 0 ? 0 : i >= in ? in - 1 : i;
}

OrtStatus *sel_run(struct kern *k, OrtKernelContext *ctx)
{
	const struct xk *x = k->xk;
	const uint8_t *p;
	int64_t d[8], od[8], first[8], step[8], ist[8], idx[8] = { 0 }, n = 1, *map[8] = { 0 };
	size_t r;
	uint8_t *y;
	OrtStatus *s;

	if ((s = get_in(ctx, (struct operand *)&x->in[0], (const void **)&p, d, &r)))
		return s;
	if (x->op == XK_SLICE) {
		if ((s = slice_plan(k, d, r, od, first, step)))
			return s;
	} else {
		if ((size_t)x->nsl != r)
			return bad(k, "Resize scales' count differs from the input's rank", (long long)r);
		for (size_t i = 0; i < r; i++)
			od[i] = d[i] * x->sl[0][i];
	}
	for (size_t i = r; i-- > 0;) {
		ist[i] = i + 1 < r ? ist[i + 1] * d[i + 1] : 1;
		n *= od[i];
	}
	if ((s = kout(k, ctx, od, r, (void **)&y)))
		return s;
	if (!n)
		return NULL;
	for (size_t i = 0; i < r; i++) {	/* source offset per output index */
		map[i] = malloc((size_t)od[i] * sizeof(int64_t));
		if (!map[i]) {
			s = st(ORT_FAIL, "e1npu: out of memory");
			goto out;
		}
		for (int64_t o = 0; o < od[i]; o++)
			map[i][o] = ist[i] * (x->op == XK_SLICE ? first[i] + o * step[i] :
					      nearest_src(x, o, x->sl[0][i], d[i], od[i]));
	}
	for (int64_t o = 0; o < n; o++) {
		int64_t off = 0;

		for (size_t i = 0; i < r; i++)
			off += map[i][idx[i]];
		y[o] = p[off];
		for (size_t i = r; i-- > 0;) {
			if (++idx[i] < od[i])
				break;
			idx[i] = 0;
		}
	}
out:
	for (size_t i = 0; i < r; i++)
		free(map[i]);
	return s;
}
