// SPDX-License-Identifier: MIT
/*
 * CPU reference of the StableHLO ops the importer runs: exact integer
 * semantics (int64 wrapped to the type), IEEE floats rounded to their type
 * after every step, and quantized ops by the specification's
 * dequantize -> float op -> quantize decomposition.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hlo.h"
#include "hlo_ctx.h"
#include "hlo_conv.h"
#include "hlo_dot.h"
#include "hlo_e1.h"
#include "hlo_eval.h"
#include "hlo_type.h"

#define EV_ERR(h, ...) hlo_errf(h, -EINVAL, __VA_ARGS__)

static void strides(const struct hlo_type *t, int64_t *st)
{
	int64_t s = 1;

	for (int i = t->rank - 1; i >= 0; i--) {
		st[i] = s;
		s *= t->dims[i];
	}
}

static void unravel(const struct hlo_type *t, int64_t lin, int64_t *idx)
{
	for (int i = t->rank - 1; i >= 0; i--) {
		int64_t d = t->dims[i] ? t->dims[i] : 1;

		idx[i] = lin % d;
		lin /= d;
	}
}

/* The value as a double (integers, booleans and unsigned included). */
static double as_f(const struct hlo_type *t, union hv v)
{
	if (hlo_is_float(t))
		return v.f;
	if (t->ek == EK_UINT && t->bits == 64)
		return (double)(uint64_t)v.i;
	return (double)v.i;
}

static int64_t ch_of(const struct hlo_type *t, const int64_t *idx)
{
	return t->qaxis >= 0 ? idx[t->qaxis] : 0;
}

/* dequantize: (q - zp) * scale in the expressed type (f32). */
double hlo_dequant(const struct hlo_type *t, int64_t ch, int64_t q)
{
	float d = (float)(q - t->zp[ch]);

	return (double)(float)(d * (float)t->scale[ch]);
}

/* quantize: clamp(round_even(x / scale + zp)) in f32. */
int64_t hlo_quantize_value(const struct hlo_type *t, int64_t ch, double x)
{
	float s = (float)x / (float)t->scale[ch];
	float r;

	s = s + (float)t->zp[ch];
	r = nearbyintf(s);
	if (r != r)
		r = 0;
	/* clamp in int64: (float)qmax may round above qmax (i32 storage) */
	if (r <= (float)t->qmin)
		return t->qmin;
	if (r >= (float)t->qmax)
		return t->qmax;
	return (int64_t)r;
}

/* Tensor of floats (f32) holding the dequantized values of @in. */
static int dequant_tensor(const struct hlo_tensor *in, struct hlo_tensor *out)
{
	struct hlo_type ft = in->t;
	int64_t idx[HLO_MAX_RANK];

	ft.quant = 0;
	ft.ek = EK_F32;
	ft.bits = 32;
	ft.qaxis = -1;
	if (hlo_tensor_new(&ft, out))
		return -ENOMEM;
	for (int64_t i = 0; i < in->n; i++) {
		unravel(&in->t, i, idx);
		out->v[i].f = hlo_dequant(&in->t, ch_of(&in->t, idx), in->v[i].i);
	}
	return 0;
}

static void quant_into(const struct hlo_tensor *f, struct hlo_tensor *out)
{
	int64_t idx[HLO_MAX_RANK];

	for (int64_t i = 0; i < out->n; i++) {
		unravel(&out->t, i, idx);
		out->v[i].i = hlo_quantize_value(&out->t, ch_of(&out->t, idx), f->v[i].f);
	}
}

static double fmaxs(double a, double b)
{
	if (a != a || b != b)
		return NAN;
	if (a == 0 && b == 0)
		return signbit(a) ? b : a;
	return a > b ? a : b;
}

static double fmins(double a, double b)
{
	if (a != a || b != b)
		return NAN;
	if (a == 0 && b == 0)
		return signbit(a) ? a : b;
	return a < b ? a : b;
}

static union hv binop(int kind, const struct hlo_type *t, union hv a, union hv b)
{
	union hv r;
	int u = t->ek == EK_UINT || t->ek == EK_BOOL;

	if (hlo_is_float(t)) {
		double x = a.f, y = b.f;

		switch (kind) {
		case HOP_ADD: r.f = x + y; break;
		case HOP_SUB: r.f = x - y; break;
		case HOP_MUL: r.f = x * y; break;
		case HOP_DIV: r.f = x / y; break;
		case HOP_MAX: r.f = fmaxs(x, y); break;
		default: r.f = fmins(x, y); break;
		}
		r.f = hlo_round(t, r.f);
		return r;
	}
	/* the spec's booleans: add is logical or, multiply logical and */
	if (t->ek == EK_BOOL && (kind == HOP_ADD || kind == HOP_MUL)) {
		r.i = kind == HOP_ADD ? (a.i | b.i) & 1 : a.i & b.i & 1;
		return r;
	}
	switch (kind) {
	case HOP_ADD: r.i = (int64_t)((uint64_t)a.i + (uint64_t)b.i); break;
	case HOP_SUB: r.i = (int64_t)((uint64_t)a.i - (uint64_t)b.i); break;
	case HOP_MUL: r.i = (int64_t)((uint64_t)a.i * (uint64_t)b.i); break;
	case HOP_AND: r.i = a.i & b.i; break;
	case HOP_OR: r.i = a.i | b.i; break;
	case HOP_DIV:
		if (b.i == 0)
			r.i = -1; /* all bits set */
		else if (u)
			r.i = (int64_t)((uint64_t)a.i / (uint64_t)b.i);
		else if (b.i == -1)
			r.i = (int64_t)(0 - (uint64_t)a.i); /* INT_MIN / -1 wraps */
		else
			r.i = a.i / b.i;
		break;
	case HOP_MAX:
		r.i = u ? ((uint64_t)a.i > (uint64_t)b.i ? a.i : b.i) : (a.i > b.i ? a.i : b.i);
		break;
	default:
		r.i = u ? ((uint64_t)a.i < (uint64_t)b.i ? a.i : b.i) : (a.i < b.i ? a.i : b.i);
		break;
	}
	r.i = hlo_wrap(t, r.i);
	return r;
}

static int need(struct e1npu_hlo *h, const struct hlo_op *op, int nopnd, int nres)
{
	if (op->nopnd != nopnd || op->nres != nres)
		return EV_ERR(h, "%s (line %d): %d operands and %d results expected",
			      op->name, op->line, nopnd, nres);
	return 0;
}

static int same_shape(struct e1npu_hlo *h, const struct hlo_op *op,
		      const struct hlo_type *a, const struct hlo_type *b)
{
	if (!hlo_same_shape(a, b))
		return EV_ERR(h, "%s (line %d): operand shapes differ", op->name, op->line);
	return 0;
}

/*
 * Ops that move values (reshape, slice, pad, reduce, ...) copy them as they
 * are: the result's element type must be the operand's, or a value would
 * pass its type's range (an i64 read as i8 by a later op).
 */
static int same_elem(struct e1npu_hlo *h, const struct hlo_op *op, int i,
		     const struct hlo_type *a, const struct hlo_type *o)
{
	char ta[96], to[96];

	if (a->ek == o->ek && a->bits == o->bits)
		return 0;
	hlo_type_str(a, ta, sizeof(ta));
	hlo_type_str(o, to, sizeof(to));
	return EV_ERR(h, "%s (line %d): operand %d of type %s for a result of type %s (element types differ)",
		      op->name, op->line, i, ta, to);
}

/* Elementwise ops on a quantized type: dequantize, op in f32, quantize. */
static int eval_quant_elementwise(struct e1npu_hlo *h, const struct hlo_op *op,
				  struct hlo_tensor *in, struct hlo_tensor *out)
{
	struct hlo_tensor f[3], r;
	struct hlo_op fop = *op;
	int ret = 0;

	memset(f, 0, sizeof(f));
	memset(&r, 0, sizeof(r));

	if (op->nopnd > 3)
		return EV_ERR(h, "%s (line %d): too many operands", op->name, op->line);
	/* the float result is quantized or kept: it cannot land in integers */
	if (!out->t.quant && !hlo_is_float(&out->t))
		return EV_ERR(h, "%s (line %d): quantized operands need a quantized or float result",
			      op->name, op->line);
	for (int i = 0; i < op->nopnd; i++)
		if (!in[i].t.quant && !hlo_is_float(&in[i].t))
			return EV_ERR(h, "%s (line %d): operand %d mixes an integer with quantized types",
				      op->name, op->line, i);
	for (int i = 0; i < op->nopnd && i < 3; i++) {
		if (in[i].t.quant)
			ret = dequant_tensor(&in[i], &f[i]);
		else
			f[i] = in[i], f[i].v = NULL;
		if (ret)
			goto out;
		if (!in[i].t.quant) { /* float operand: copy */
			ret = hlo_tensor_new(&in[i].t, &f[i]);
			if (ret)
				goto out;
			memcpy(f[i].v, in[i].v, sizeof(*f[i].v) * (size_t)in[i].n);
		}
	}
	{
		struct hlo_type rt = out->t;

		rt.quant = 0;
		rt.ek = EK_F32;
		rt.bits = 32;
		rt.qaxis = -1;
		fop.rt = &rt;
		ret = hlo_tensor_new(&rt, &r);
		if (ret)
			goto out;
		ret = hlo_eval_op(h, &fop, f, &r);
		if (ret)
			goto out;
		if (out->t.quant)
			quant_into(&r, out);
		else
			memcpy(out->v, r.v, sizeof(*r.v) * (size_t)r.n);
	}
out:
	for (int i = 0; i < 3; i++)
		hlo_tensor_free(&f[i]);
	hlo_tensor_free(&r);
	return ret;
}

static int eval_convert(const struct hlo_tensor *a, struct hlo_tensor *o)
{
	for (int64_t i = 0; i < o->n; i++) {
		union hv v = a->v[i];

		if (hlo_is_float(&o->t)) {
			o->v[i].f = hlo_round(&o->t, as_f(&a->t, v));
		} else if (o->t.ek == EK_BOOL) {
			o->v[i].i = hlo_is_float(&a->t) ? v.f != 0 : v.i != 0;
		} else if (hlo_is_float(&a->t)) {
			double x = trunc(v.f);
			int u = o->t.ek == EK_UINT;
			/* 2^bits (2^(bits-1) signed) is exact where 2^64 - 1 is not */
			double lo = u ? 0 : -ldexp(1.0, o->t.bits - 1);
			double end = ldexp(1.0, u ? o->t.bits : o->t.bits - 1);

			if (x != x)
				x = 0;
			if (x >= end) /* saturate to the largest value */
				o->v[i].i = u ? hlo_wrap(&o->t, -1) :
					(int64_t)(((uint64_t)1 << (o->t.bits - 1)) - 1);
			else if (x <= lo)
				o->v[i].i = (int64_t)lo;
			else if (u && x >= 9223372036854775808.0)
				o->v[i].i = (int64_t)(uint64_t)x;
			else
				o->v[i].i = (int64_t)x;
		} else {
			o->v[i].i = hlo_wrap(&o->t, v.i);
		}
	}
	return 0;
}

static int cmp_type_is(const struct hlo_op *op, const char *type)
{
	const struct hlo_attr *a = hlo_attr_get(op, "compare_type");

	return a && a->s && !strcmp(a->s, type);
}

/*
 * The spec's constraint on comparison_type: SIGNED for signed integers,
 * UNSIGNED for unsigned ones and i1, FLOAT or TOTALORDER for floats (a
 * SIGNED compare of ui16 would otherwise be run unsigned, silently).
 */
static int cmp_type_ok(const struct hlo_op *op, const struct hlo_type *t)
{
	static const char *const types[] = { "SIGNED", "UNSIGNED", "FLOAT", "TOTALORDER" };
	int want = hlo_is_float(t) ? 2 : t->ek == EK_SINT ? 0 : 1;

	for (int k = 0; k < 4; k++)
		if (hlo_op_has_flag(op, types[k]) || cmp_type_is(op, types[k]))
			if (k != want && !(want == 2 && k == 3))
				return 0;
	return 1;
}

static int cmp_dir(const struct hlo_op *op)
{
	static const char *const dirs[] = { "EQ", "NE", "GE", "GT", "LE", "LT" };
	const struct hlo_attr *a = hlo_attr_get(op, "comparison_direction");

	for (int d = 0; d < 6; d++)
		if (hlo_op_has_flag(op, dirs[d]) || (a && a->s && !strcmp(a->s, dirs[d])))
			return d;
	return -1;
}

/*
 * IEEE 754 totalOrder as an unsigned key: -NaN < -inf < ... < -0 < +0 <
 * ... < +inf < +NaN. Negative values' bits are flipped (larger magnitude,
 * smaller key), positive ones get the sign bit set.
 */
static uint64_t total_key(double x)
{
	uint64_t b;

	memcpy(&b, &x, sizeof(b));
	return b >> 63 ? ~b : b | (1ull << 63);
}

static int eval_compare(struct e1npu_hlo *h, const struct hlo_op *op,
			struct hlo_tensor *in, struct hlo_tensor *o)
{
	int d = cmp_dir(op);
	/* comparison_type: FLOAT (IEEE: NaN unordered) unless TOTALORDER */
	int total = hlo_op_has_flag(op, "TOTALORDER") || cmp_type_is(op, "TOTALORDER");
	const struct hlo_type *t = &in[0].t;
	int u = t->ek == EK_UINT || t->ek == EK_BOOL;

	if (d < 0)
		return EV_ERR(h, "%s (line %d): no comparison direction", op->name, op->line);
	if (!cmp_type_ok(op, t))
		return EV_ERR(h, "%s (line %d): comparison type does not fit the element type (SIGNED: signed integers, UNSIGNED: unsigned and i1, FLOAT or TOTALORDER: floats)",
			      op->name, op->line);
	for (int64_t i = 0; i < o->n; i++) {
		int lt, eq, un = 0;

		if (hlo_is_float(t) && total) {
			uint64_t a = total_key(in[0].v[i].f), b = total_key(in[1].v[i].f);

			lt = a < b;
			eq = a == b;
		} else if (hlo_is_float(t)) {
			double a = in[0].v[i].f, b = in[1].v[i].f;

			un = a != a || b != b;
			lt = a < b;
			eq = a == b;
		} else if (u) {
			lt = (uint64_t)in[0].v[i].i < (uint64_t)in[1].v[i].i;
			eq = in[0].v[i].i == in[1].v[i].i;
		} else {
			lt = in[0].v[i].i < in[1].v[i].i;
			eq = in[0].v[i].i == in[1].v[i].i;
		}
		switch (d) {
		case 0: o->v[i].i = eq; break;
		case 1: o->v[i].i = !eq || un; break;
		case 2: o->v[i].i = !un && !lt; break;
		case 3: o->v[i].i = !un && !lt && !eq; break;
		case 4: o->v[i].i = lt || eq; break;
		default: o->v[i].i = lt; break;
		}
	}
	return 0;
}

static const struct hlo_attr *attr2(const struct hlo_op *op, const char *a, const char *b)
{
	const struct hlo_attr *x = hlo_attr_get(op, a);

	return x ? x : b ? hlo_attr_get(op, b) : NULL;
}

static int eval_transpose(struct e1npu_hlo *h, const struct hlo_op *op,
			  const struct hlo_tensor *a, struct hlo_tensor *o)
{
	int64_t perm[HLO_MAX_RANK], st[HLO_MAX_RANK], idx[HLO_MAX_RANK];
	int n = hlo_attr_ints(attr2(op, "dims", "permutation"), perm, HLO_MAX_RANK);

	if (n != a->t.rank || o->t.rank != n)
		return EV_ERR(h, "%s (line %d): permutation of %d for rank %d", op->name,
			      op->line, n, a->t.rank);
	for (int i = 0; i < n; i++) {
		int seen = 0;

		for (int k = 0; k < n; k++)
			seen += perm[k] == i;
		/* every index once, so perm[i] is in range before it is used */
		if (seen != 1)
			return EV_ERR(h, "%s (line %d): dims are not a permutation of 0..%d",
				      op->name, op->line, n - 1);
	}
	for (int i = 0; i < n; i++) {
		if (o->t.dims[i] != a->t.dims[perm[i]])
			return EV_ERR(h, "%s (line %d): dims are not a permutation matching the result",
				      op->name, op->line);
	}
	strides(&a->t, st);
	for (int64_t i = 0; i < o->n; i++) {
		int64_t src = 0;

		unravel(&o->t, i, idx);
		for (int k = 0; k < n; k++)
			src += idx[k] * st[perm[k]];
		o->v[i] = a->v[src];
	}
	return 0;
}

static int eval_broadcast(struct e1npu_hlo *h, const struct hlo_op *op,
			  const struct hlo_tensor *a, struct hlo_tensor *o)
{
	int64_t dims[HLO_MAX_RANK], st[HLO_MAX_RANK], idx[HLO_MAX_RANK];
	int n = hlo_attr_ints(attr2(op, "dims", "broadcast_dimensions"), dims, HLO_MAX_RANK);

	if (a->t.rank == 0 && n < 0)
		n = 0;
	if (n != a->t.rank)
		return EV_ERR(h, "%s (line %d): %d broadcast dimensions for rank %d",
			      op->name, op->line, n, a->t.rank);
	for (int i = 0; i < n; i++)
		if (dims[i] < 0 || dims[i] >= o->t.rank ||
		    (a->t.dims[i] != 1 && a->t.dims[i] != o->t.dims[dims[i]]))
			return EV_ERR(h, "%s (line %d): dimension %d cannot broadcast",
				      op->name, op->line, i);
	strides(&a->t, st);
	for (int64_t i = 0; i < o->n; i++) {
		int64_t src = 0;

		unravel(&o->t, i, idx);
		for (int k = 0; k < n; k++)
			src += (a->t.dims[k] == 1 ? 0 : idx[dims[k]]) * st[k];
		o->v[i] = a->v[src];
	}
	return 0;
}

static int eval_slice(struct e1npu_hlo *h, const struct hlo_op *op,
		      const struct hlo_tensor *a, struct hlo_tensor *o)
{
	int64_t lo[HLO_MAX_RANK], hi[HLO_MAX_RANK], sd[HLO_MAX_RANK];
	int64_t st[HLO_MAX_RANK], idx[HLO_MAX_RANK];
	const struct hlo_attr *r = hlo_attr_get(op, "__slice");
	int r_ = a->t.rank;

	if (r) {
		if (r->n != r_)
			return EV_ERR(h, "%s (line %d): %d ranges for rank %d", op->name,
				      op->line, r->n, r_);
		for (int i = 0; i < r_; i++) {
			const struct hlo_attr *it = r->items[i];

			if (it->kind != AV_RANGE || it->n < 2)
				return EV_ERR(h, "%s (line %d): bad range", op->name, op->line);
			lo[i] = it->items[0]->i;
			hi[i] = it->items[1]->i;
			sd[i] = it->n > 2 ? it->items[2]->i : 1;
		}
	} else {
		int n1 = hlo_attr_ints(attr2(op, "start_indices", "starts"), lo, HLO_MAX_RANK);
		int n2 = hlo_attr_ints(attr2(op, "limit_indices", "limits"), hi, HLO_MAX_RANK);
		int n3 = hlo_attr_ints(hlo_attr_get(op, "strides"), sd, HLO_MAX_RANK);

		if (n3 < 0)
			for (n3 = 0; n3 < r_; n3++)
				sd[n3] = 1;
		if (n1 != r_ || n2 != r_ || n3 != r_)
			return EV_ERR(h, "%s (line %d): start/limit/strides do not match rank %d",
				      op->name, op->line, r_);
	}
	for (int i = 0; i < r_; i++) {
		if (sd[i] < 1 || sd[i] > HLO_MAX_ELEMS || lo[i] < 0 || hi[i] < lo[i] ||
		    hi[i] > a->t.dims[i] ||
		    o->t.dims[i] != (hi[i] - lo[i] + sd[i] - 1) / sd[i])
			return EV_ERR(h, "%s (line %d): slice of dimension %d does not match",
				      op->name, op->line, i);
	}
	strides(&a->t, st);
	for (int64_t i = 0; i < o->n; i++) {
		int64_t src = 0;

		unravel(&o->t, i, idx);
		for (int k = 0; k < r_; k++)
			src += (lo[k] + idx[k] * sd[k]) * st[k];
		o->v[i] = a->v[src];
	}
	return 0;
}

static int eval_concat(struct e1npu_hlo *h, const struct hlo_op *op,
		       const struct hlo_tensor *in, struct hlo_tensor *o)
{
	int64_t dim, idx[HLO_MAX_RANK], st[HLO_MAX_RANK];
	int64_t total = 0;

	if (hlo_attr_ints(attr2(op, "dim", "dimension"), &dim, 1) != 1 || dim < 0 ||
	    dim >= o->t.rank)
		return EV_ERR(h, "%s (line %d): bad dimension", op->name, op->line);
	for (int i = 0; i < op->nopnd; i++) {
		int ret = same_elem(h, op, i, &in[i].t, &o->t);

		if (ret)
			return ret;
		if (in[i].t.rank != o->t.rank)
			return EV_ERR(h, "%s (line %d): rank mismatch", op->name, op->line);
		for (int k = 0; k < o->t.rank; k++)
			if (k != dim && in[i].t.dims[k] != o->t.dims[k])
				return EV_ERR(h, "%s (line %d): shape mismatch", op->name, op->line);
		total += in[i].t.dims[dim];
	}
	if (total != o->t.dims[dim])
		return EV_ERR(h, "%s (line %d): sizes add to %lld, result has %lld", op->name,
			      op->line, (long long)total, (long long)o->t.dims[dim]);
	for (int64_t i = 0; i < o->n; i++) {
		int64_t off = 0, src = 0;
		int k = 0;

		unravel(&o->t, i, idx);
		while (idx[dim] - off >= in[k].t.dims[dim])
			off += in[k++].t.dims[dim];
		idx[dim] -= off;
		strides(&in[k].t, st);
		for (int j = 0; j < o->t.rank; j++)
			src += idx[j] * st[j];
		o->v[i] = in[k].v[src];
	}
	return 0;
}

static int eval_pad(struct e1npu_hlo *h, const struct hlo_op *op,
		    const struct hlo_tensor *in, struct hlo_tensor *o)
{
	int64_t lo[HLO_MAX_RANK], hi[HLO_MAX_RANK], it[HLO_MAX_RANK];
	int64_t st[HLO_MAX_RANK], idx[HLO_MAX_RANK];
	int r = in[0].t.rank;
	int n1 = hlo_attr_ints(attr2(op, "low", "edge_padding_low"), lo, HLO_MAX_RANK);
	int n2 = hlo_attr_ints(attr2(op, "high", "edge_padding_high"), hi, HLO_MAX_RANK);
	int n3 = hlo_attr_ints(attr2(op, "interior", "interior_padding"), it, HLO_MAX_RANK);

	if (same_elem(h, op, 0, &in[0].t, &o->t) || same_elem(h, op, 1, &in[1].t, &o->t))
		return -EINVAL;
	if (n1 != r || n2 != r || n3 != r || in[1].t.rank != 0)
		return EV_ERR(h, "%s (line %d): low/high/interior must match rank %d",
			      op->name, op->line, r);
	for (int k = 0; k < r; k++) {
		int64_t d = in[0].t.dims[k], want;

		if (it[k] < 0 || it[k] > HLO_MAX_ELEMS || lo[k] < -(int64_t)HLO_MAX_ELEMS ||
		    lo[k] > HLO_MAX_ELEMS || hi[k] < -(int64_t)HLO_MAX_ELEMS ||
		    hi[k] > HLO_MAX_ELEMS)
			return EV_ERR(h, "%s (line %d): padding of dimension %d out of range",
				      op->name, op->line, k);
		want = lo[k] + hi[k] + (d ? d + (d - 1) * it[k] : 0);
		if (want != o->t.dims[k])
			return EV_ERR(h, "%s (line %d): padded dimension %d is %lld, result has %lld",
				      op->name, op->line, k, (long long)want,
				      (long long)o->t.dims[k]);
	}
	strides(&in[0].t, st);
	for (int64_t i = 0; i < o->n; i++) {
		int64_t src = 0;
		int ok = 1;

		unravel(&o->t, i, idx);
		for (int k = 0; k < r && ok; k++) {
			int64_t x = idx[k] - lo[k];

			if (x < 0 || x % (it[k] + 1) || x / (it[k] + 1) >= in[0].t.dims[k])
				ok = 0;
			else
				src += x / (it[k] + 1) * st[k];
		}
		o->v[i] = ok ? in[0].v[src] : in[1].v[0];
	}
	return 0;
}

static int eval_iota(struct e1npu_hlo *h, const struct hlo_op *op, struct hlo_tensor *o)
{
	int64_t dim, idx[HLO_MAX_RANK];

	if (hlo_attr_ints(attr2(op, "dim", "iota_dimension"), &dim, 1) != 1 || dim < 0 ||
	    dim >= o->t.rank)
		return EV_ERR(h, "%s (line %d): bad iota dimension", op->name, op->line);
	for (int64_t i = 0; i < o->n; i++) {
		unravel(&o->t, i, idx);
		if (hlo_is_float(&o->t))
			o->v[i].f = hlo_round(&o->t, (double)idx[dim]);
		else
			o->v[i].i = hlo_wrap(&o->t, idx[dim]);
	}
	return 0;
}

static int eval_reduce(struct e1npu_hlo *h, const struct hlo_op *op,
		       const struct hlo_tensor *in, struct hlo_tensor *o)
{
	int64_t dims[HLO_MAX_RANK], idx[HLO_MAX_RANK], st[HLO_MAX_RANK];
	int red[HLO_MAX_RANK] = { 0 };
	int n = hlo_attr_ints(attr2(op, "dimensions", NULL), dims, HLO_MAX_RANK);
	const struct hlo_type *t = &in[0].t;
	int r = 0;

	if (op->nopnd != 2 || op->nres != 1)
		return hlo_errf(h, -ENOTSUP, "%s (line %d): only single-input reduce is supported",
				op->name, op->line);
	if (same_elem(h, op, 0, &in[0].t, &o->t) || same_elem(h, op, 1, &in[1].t, &o->t))
		return -EINVAL;
	if (n < 0 || in[1].t.rank != 0)
		return EV_ERR(h, "%s (line %d): bad dimensions", op->name, op->line);
	for (int i = 0; i < n; i++) {
		if (dims[i] < 0 || dims[i] >= t->rank)
			return EV_ERR(h, "%s (line %d): dimension out of range", op->name, op->line);
		red[dims[i]] = 1;
	}
	for (int k = 0; k < t->rank; k++) {
		if (red[k])
			continue;
		if (r >= o->t.rank || o->t.dims[r] != t->dims[k])
			return EV_ERR(h, "%s (line %d): result shape does not match", op->name,
				      op->line);
		r++;
	}
	if (r != o->t.rank)
		return EV_ERR(h, "%s (line %d): result rank", op->name, op->line);
	for (int64_t i = 0; i < o->n; i++)
		o->v[i] = in[1].v[0];
	strides(&o->t, st);
	for (int64_t i = 0; i < in[0].n; i++) {
		int64_t dst = 0;
		int q = 0;

		unravel(t, i, idx);
		for (int k = 0; k < t->rank; k++)
			if (!red[k])
				dst += idx[k] * st[q++];
		o->v[dst] = binop(op->reducer, &o->t, o->v[dst], in[0].v[i]);
	}
	return 0;
}

static int eval_reduce_window(struct e1npu_hlo *h, const struct hlo_op *op,
			      const struct hlo_tensor *in, struct hlo_tensor *o)
{
	int64_t wd[HLO_MAX_RANK], ws[HLO_MAX_RANK], bd[HLO_MAX_RANK], wdl[HLO_MAX_RANK];
	int64_t pad[2 * HLO_MAX_RANK], idx[HLO_MAX_RANK], st[HLO_MAX_RANK];
	const struct hlo_type *t = &in[0].t;
	int r = t->rank;

	if (op->nopnd != 2 || op->nres != 1)
		return hlo_errf(h, -ENOTSUP, "%s (line %d): only single-input reduce_window is supported",
				op->name, op->line);
	if (same_elem(h, op, 0, &in[0].t, &o->t) || same_elem(h, op, 1, &in[1].t, &o->t))
		return -EINVAL;
	if (hlo_attr_ints(hlo_attr_get(op, "window_dimensions"), wd, HLO_MAX_RANK) != r ||
	    in[1].t.rank != 0)
		return EV_ERR(h, "%s (line %d): window_dimensions must match rank %d", op->name,
			      op->line, r);
	for (int k = 0; k < r; k++) {
		ws[k] = bd[k] = wdl[k] = 1;
		pad[2 * k] = pad[2 * k + 1] = 0;
	}
	if (hlo_attr_get(op, "window_strides") &&
	    hlo_attr_ints(hlo_attr_get(op, "window_strides"), ws, HLO_MAX_RANK) != r)
		return EV_ERR(h, "%s (line %d): window_strides", op->name, op->line);
	if (hlo_attr_get(op, "base_dilations") &&
	    hlo_attr_ints(hlo_attr_get(op, "base_dilations"), bd, HLO_MAX_RANK) != r)
		return EV_ERR(h, "%s (line %d): base_dilations", op->name, op->line);
	if (hlo_attr_get(op, "window_dilations") &&
	    hlo_attr_ints(hlo_attr_get(op, "window_dilations"), wdl, HLO_MAX_RANK) != r)
		return EV_ERR(h, "%s (line %d): window_dilations", op->name, op->line);
	if (hlo_attr_get(op, "padding") &&
	    hlo_attr_ints(hlo_attr_get(op, "padding"), pad, 2 * HLO_MAX_RANK) != 2 * r)
		return EV_ERR(h, "%s (line %d): padding", op->name, op->line);
	/* all in range before the window arithmetic (no overflow, no / 0) */
	for (int k = 0; k < r; k++) {
		if (wd[k] < 1 || ws[k] < 1 || bd[k] < 1 || wdl[k] < 1 ||
		    wd[k] > HLO_MAX_ELEMS || ws[k] > HLO_MAX_ELEMS || bd[k] > HLO_MAX_ELEMS ||
		    wdl[k] > HLO_MAX_ELEMS || pad[2 * k] < -(int64_t)HLO_MAX_ELEMS ||
		    pad[2 * k] > HLO_MAX_ELEMS || pad[2 * k + 1] < -(int64_t)HLO_MAX_ELEMS ||
		    pad[2 * k + 1] > HLO_MAX_ELEMS)
			return EV_ERR(h, "%s (line %d): window attribute of dimension %d out of range (size %lld, stride %lld, dilations %lld and %lld, padding %lld:%lld)",
				      op->name, op->line, k, (long long)wd[k], (long long)ws[k],
				      (long long)bd[k], (long long)wdl[k], (long long)pad[2 * k],
				      (long long)pad[2 * k + 1]);
	}
	for (int k = 0; k < r; k++) {
		int64_t dil = t->dims[k] ? (t->dims[k] - 1) * bd[k] + 1 : 0;
		int64_t padded = dil + pad[2 * k] + pad[2 * k + 1];
		int64_t win = (wd[k] - 1) * wdl[k] + 1;
		int64_t want = padded < win ? 0 : (padded - win) / ws[k] + 1;

		if (want != o->t.dims[k])
			return EV_ERR(h, "%s (line %d): window gives %lld in dimension %d, result has %lld",
				      op->name, op->line, (long long)want, k,
				      (long long)o->t.dims[k]);
	}
	{
		int64_t wn = 1;

		for (int k = 0; k < r; k++) {
			wn *= wd[k];
			if (wn > HLO_MAX_WORK || (wn && o->n > HLO_MAX_WORK / wn))
				return hlo_errf(h, -ENOTSUP, "%s (line %d): more than %llu window steps",
						op->name, op->line, (unsigned long long)HLO_MAX_WORK);
		}
		if (hlo_work(h, op, (uint64_t)o->n * (uint64_t)wn))
			return -E2BIG;
	}
	strides(t, st);
	for (int64_t i = 0; i < o->n; i++) {
		int64_t oi[HLO_MAX_RANK], wn = 1;
		union hv acc = in[1].v[0];

		unravel(&o->t, i, oi);
		for (int k = 0; k < r; k++)
			wn *= wd[k];
		for (int64_t w = 0; w < wn; w++) {
			int64_t rem = w, src = 0;
			int ok = 1;

			for (int k = r - 1; k >= 0; k--) {
				idx[k] = rem % wd[k];
				rem /= wd[k];
			}
			for (int k = 0; k < r && ok; k++) {
				int64_t x = oi[k] * ws[k] + idx[k] * wdl[k] - pad[2 * k];

				if (x < 0 || x % bd[k] || x / bd[k] >= t->dims[k])
					ok = 0;
				else
					src += x / bd[k] * st[k];
			}
			/* padding and base-dilation holes hold the init value */
			acc = binop(op->reducer, &o->t, acc, ok ? in[0].v[src] : in[1].v[0]);
		}
		o->v[i] = acc;
	}
	return 0;
}

static int eval_dot(struct e1npu_hlo *h, const struct hlo_op *op,
		    const struct hlo_tensor *in, struct hlo_tensor *o)
{
	struct hlo_dot g;
	int64_t lst[HLO_MAX_RANK], rst[HLO_MAX_RANK], oi[HLO_MAX_RANK], ci[HLO_MAX_RANK];
	const struct hlo_type *lt = &in[0].t, *rt = &in[1].t;
	int fl = hlo_is_float(&o->t);
	int ret = hlo_dot_geom(h, op, lt, rt, &o->t, &g);

	if (ret)
		return ret;
	if (g.k && o->n > HLO_MAX_WORK / g.k)
		return hlo_errf(h, -ENOTSUP, "%s (line %d): more than %llu multiply-adds",
				op->name, op->line, (unsigned long long)HLO_MAX_WORK);
	if (hlo_work(h, op, (uint64_t)o->n * (uint64_t)g.k))
		return -E2BIG;
	strides(lt, lst);
	strides(rt, rst);
	for (int64_t i = 0; i < o->n; i++) {
		int64_t lbase = 0, rbase = 0, acc = 0;
		double facc = 0;

		unravel(&o->t, i, oi);
		for (int k = 0; k < g.nb; k++) {
			lbase += oi[k] * lst[g.lb[k]];
			rbase += oi[k] * rst[g.rb[k]];
		}
		for (int k = 0; k < g.nlf; k++)
			lbase += oi[g.nb + k] * lst[g.lf[k]];
		for (int k = 0; k < g.nrf; k++)
			rbase += oi[g.nb + g.nlf + k] * rst[g.rf[k]];
		for (int64_t c = 0; c < g.k; c++) {
			int64_t rem = c, lo = lbase, ro = rbase;

			for (int k = g.nc - 1; k >= 0; k--) {
				ci[k] = rem % lt->dims[g.lc[k]];
				rem /= lt->dims[g.lc[k]];
				lo += ci[k] * lst[g.lc[k]];
				ro += ci[k] * rst[g.rc[k]];
			}
			if (fl)
				facc = hlo_round(&o->t, facc + hlo_round(&o->t,
					as_f(lt, in[0].v[lo]) * as_f(rt, in[1].v[ro])));
			else
				acc = (int64_t)((uint64_t)acc +
						(uint64_t)in[0].v[lo].i * (uint64_t)in[1].v[ro].i);
		}
		if (fl)
			o->v[i].f = facc;
		else
			o->v[i].i = hlo_wrap(&o->t, acc);
	}
	return 0;
}

static int eval_conv(struct e1npu_hlo *h, const struct hlo_op *op,
		     const struct hlo_tensor *in, struct hlo_tensor *o)
{
	struct hlo_conv g;
	int64_t lst[HLO_MAX_RANK], rst[HLO_MAX_RANK], ost[HLO_MAX_RANK];
	int fl = hlo_is_float(&o->t);
	int ret = hlo_conv_geom(h, op, &in[0].t, &in[1].t, &o->t, &g);

	if (ret)
		return ret;
	if (g.nwin && g.ifg && o->n > HLO_MAX_WORK / (g.nwin * g.ifg))
		return hlo_errf(h, -ENOTSUP, "%s (line %d): more than %llu multiply-adds",
				op->name, op->line, (unsigned long long)HLO_MAX_WORK);
	if (hlo_work(h, op, (uint64_t)o->n * (uint64_t)(g.nwin * g.ifg)))
		return -E2BIG;
	strides(&in[0].t, lst);
	strides(&in[1].t, rst);
	strides(&o->t, ost);
	for (int64_t b = 0; b < g.out_batch; b++)
	for (int64_t oc = 0; oc < g.out_feat; oc++)
	for (int64_t p = 0; p < g.npos; p++) {
		int64_t os[HLO_MAX_RANK], dst = b * ost[g.ob] + oc * ost[g.of];
		int64_t grp = oc / g.ofg;
		int64_t lbatch = g.bgc > 1 ? grp * g.out_batch + b : b;
		int64_t if0 = g.fgc > 1 ? grp * g.ifg : 0;
		int64_t acc = 0;
		double facc = 0;

		hlo_conv_pos(&g, p, os);
		for (int s = 0; s < g.ns; s++)
			dst += os[s] * ost[g.os[s]];
		for (int64_t w = 0; w < g.nwin; w++) {
			int64_t ws[HLO_MAX_RANK], src;

			hlo_conv_win(&g, w, ws);
			if (hlo_conv_src(&g, os, ws, lst, &src))
				continue; /* padding: zero (no contribution) */
			src += lbatch * lst[g.lb];
			for (int64_t ic = 0; ic < g.ifg; ic++) {
				int64_t ko = oc * rst[g.ro] + ic * rst[g.ri];
				union hv a = in[0].v[src + (if0 + ic) * lst[g.lf]];

				for (int s = 0; s < g.ns; s++)
					ko += ws[s] * rst[g.rs[s]];
				if (fl)
					facc = hlo_round(&o->t, facc + hlo_round(&o->t,
						as_f(&in[0].t, a) * as_f(&in[1].t, in[1].v[ko])));
				else
					acc = (int64_t)((uint64_t)acc +
							(uint64_t)a.i * (uint64_t)in[1].v[ko].i);
			}
		}
		if (fl)
			o->v[dst].f = facc;
		else
			o->v[dst].i = hlo_wrap(&o->t, acc);
	}
	return 0;
}

/* dot/conv with quantized operands: dequantize, float op, quantize. */
static int eval_quant_contraction(struct e1npu_hlo *h, const struct hlo_op *op,
				  struct hlo_tensor *in, struct hlo_tensor *out)
{
	return eval_quant_elementwise(h, op, in, out);
}

/*
 * Elementwise ops the spec does not define for i1 (subtract, divide,
 * negate: integer, floating-point and complex types only; exponential:
 * floating-point and complex) or for floats (and, or): an error naming
 * the op, not arithmetic on 0 and 1 or on the bits.
 */
static int bool_undefined(struct e1npu_hlo *h, const struct hlo_op *op,
			  const struct hlo_tensor *in)
{
	/* and / or: boolean and integer types only (a float "and" was min) */
	if (op->nopnd >= 1 && hlo_is_float(&in[0].t) &&
	    (op->kind == HOP_AND || op->kind == HOP_OR))
		return hlo_errf(h, -EINVAL, "%s (line %d): not defined for floating-point operands",
				op->name, op->line);
	if (op->nopnd < 1 || in[0].t.ek != EK_BOOL)
		return 0;
	switch (op->kind) {
	case HOP_SUB: case HOP_DIV: case HOP_NEG: case HOP_EXP:
		return hlo_errf(h, -EINVAL, "%s (line %d): not defined for i1 (boolean) operands",
				op->name, op->line);
	default:
		return 0;
	}
}

int hlo_eval_op(struct e1npu_hlo *h, const struct hlo_op *op, struct hlo_tensor *in,
		struct hlo_tensor *out)
{
	struct hlo_tensor *o = out;
	int anyq = 0, r0;

	for (int i = 0; i < op->nopnd; i++)
		anyq |= in[i].t.quant;
	if (op->nres >= 1)
		anyq |= out[0].t.quant;
	if (!anyq && (r0 = bool_undefined(h, op, in)))
		return r0;
	switch (op->kind) {
	case HOP_ADD: case HOP_SUB: case HOP_MUL: case HOP_DIV: case HOP_MAX:
	case HOP_MIN: case HOP_AND: case HOP_OR: {
		int r = need(h, op, 2, 1);

		if (r || (r = same_shape(h, op, &in[0].t, &in[1].t)) ||
		    (r = same_shape(h, op, &in[0].t, &o->t)))
			return r;
		if (anyq)
			return eval_quant_elementwise(h, op, in, out);
		for (int64_t i = 0; i < o->n; i++)
			o->v[i] = binop(op->kind, &o->t, in[0].v[i], in[1].v[i]);
		return 0;
	}
	case HOP_NEG: case HOP_EXP: {
		int r = need(h, op, 1, 1);

		if (r || (r = same_shape(h, op, &in[0].t, &o->t)))
			return r;
		if (anyq)
			return eval_quant_elementwise(h, op, in, out);
		for (int64_t i = 0; i < o->n; i++) {
			if (hlo_is_float(&o->t))
				o->v[i].f = hlo_round(&o->t, op->kind == HOP_NEG ? -in[0].v[i].f :
						      exp(in[0].v[i].f));
			else if (op->kind == HOP_NEG)
				o->v[i].i = hlo_wrap(&o->t, (int64_t)(0 - (uint64_t)in[0].v[i].i));
			else
				return hlo_errf(h, -EINVAL, "%s (line %d): exponential of integers",
						op->name, op->line);
		}
		return 0;
	}
	case HOP_CONVERT: {
		int r = need(h, op, 1, 1);

		if (r || (r = same_shape(h, op, &in[0].t, &o->t)))
			return r;
		if (anyq)
			return hlo_errf(h, -EINVAL, "%s (line %d): convert of quantized types (use uniform_quantize)",
					op->name, op->line);
		return eval_convert(&in[0], o);
	}
	case HOP_UQUANT: case HOP_UDEQUANT: {
		int r = need(h, op, 1, 1);
		struct hlo_tensor f = { 0 };

		if (r || (r = same_shape(h, op, &in[0].t, &o->t)))
			return r;
		if (op->kind == HOP_UDEQUANT) {
			if (!in[0].t.quant || !hlo_is_float(&o->t))
				return EV_ERR(h, "%s (line %d): quantized to float expected",
					      op->name, op->line);
			r = dequant_tensor(&in[0], &f);
			if (r)
				return r;
			for (int64_t i = 0; i < o->n; i++)
				o->v[i].f = hlo_round(&o->t, f.v[i].f);
			hlo_tensor_free(&f);
			return 0;
		}
		if (!o->t.quant)
			return EV_ERR(h, "%s (line %d): result must be quantized", op->name, op->line);
		if (in[0].t.quant) {
			r = dequant_tensor(&in[0], &f);
			if (r)
				return r;
		} else {
			if (!hlo_is_float(&in[0].t))
				return EV_ERR(h, "%s (line %d): float or quantized operand expected",
					      op->name, op->line);
			f = in[0];
			f.v = NULL;
			r = hlo_tensor_new(&in[0].t, &f);
			if (r)
				return r;
			for (int64_t i = 0; i < f.n; i++)
				f.v[i].f = (double)(float)in[0].v[i].f;
		}
		quant_into(&f, o);
		hlo_tensor_free(&f);
		return 0;
	}
	case HOP_CLAMP: {
		int r = need(h, op, 3, 1);

		if (r)
			return r;
		if ((in[0].t.rank && !hlo_same_shape(&in[0].t, &in[1].t)) ||
		    (in[2].t.rank && !hlo_same_shape(&in[2].t, &in[1].t)) ||
		    !hlo_same_shape(&in[1].t, &o->t))
			return EV_ERR(h, "%s (line %d): shapes", op->name, op->line);
		if (anyq)
			return hlo_errf(h, -ENOTSUP, "%s (line %d): quantized clamp not supported",
					op->name, op->line);
		for (int64_t i = 0; i < o->n; i++) {
			union hv lo = in[0].v[in[0].t.rank ? i : 0];
			union hv hi = in[2].v[in[2].t.rank ? i : 0];

			o->v[i] = binop(HOP_MIN, &o->t, binop(HOP_MAX, &o->t, in[1].v[i], lo), hi);
		}
		return 0;
	}
	case HOP_SELECT: {
		int r = need(h, op, 3, 1);

		if (r)
			return r;
		if ((in[0].t.rank && !hlo_same_shape(&in[0].t, &o->t)) ||
		    !hlo_same_shape(&in[1].t, &o->t) || !hlo_same_shape(&in[2].t, &o->t) ||
		    in[0].t.ek != EK_BOOL)
			return EV_ERR(h, "%s (line %d): shapes or predicate type", op->name, op->line);
		if (same_elem(h, op, 1, &in[1].t, &o->t) || same_elem(h, op, 2, &in[2].t, &o->t))
			return -EINVAL;
		for (int64_t i = 0; i < o->n; i++)
			o->v[i] = in[0].v[in[0].t.rank ? i : 0].i ? in[1].v[i] : in[2].v[i];
		return 0;
	}
	case HOP_COMPARE: {
		int r = need(h, op, 2, 1);

		if (r || (r = same_shape(h, op, &in[0].t, &in[1].t)) ||
		    (r = same_shape(h, op, &in[0].t, &o->t)))
			return r;
		if (anyq)
			return hlo_errf(h, -ENOTSUP, "%s (line %d): quantized compare not supported",
					op->name, op->line);
		return eval_compare(h, op, in, o);
	}
	case HOP_RESHAPE: {
		int r = need(h, op, 1, 1);

		if (r || (r = same_elem(h, op, 0, &in[0].t, &o->t)))
			return r;
		if (in[0].n != o->n)
			return EV_ERR(h, "%s (line %d): %lld elements into %lld", op->name, op->line,
				      (long long)in[0].n, (long long)o->n);
		memcpy(o->v, in[0].v, sizeof(*o->v) * (size_t)o->n);
		return 0;
	}
	case HOP_TRANSPOSE:
		return need(h, op, 1, 1) || same_elem(h, op, 0, &in[0].t, &o->t) ? -EINVAL :
		       eval_transpose(h, op, &in[0], o);
	case HOP_BROADCAST:
		return need(h, op, 1, 1) || same_elem(h, op, 0, &in[0].t, &o->t) ? -EINVAL :
		       eval_broadcast(h, op, &in[0], o);
	case HOP_SLICE:
		return need(h, op, 1, 1) || same_elem(h, op, 0, &in[0].t, &o->t) ? -EINVAL :
		       eval_slice(h, op, &in[0], o);
	case HOP_CONCAT:
		if (op->nopnd < 1 || op->nres != 1)
			return EV_ERR(h, "%s (line %d): operands", op->name, op->line);
		return eval_concat(h, op, in, o);
	case HOP_PAD:
		return need(h, op, 2, 1) ? -EINVAL : eval_pad(h, op, in, o);
	case HOP_IOTA:
		return need(h, op, 0, 1) ? -EINVAL : eval_iota(h, op, o);
	case HOP_REDUCE:
		return eval_reduce(h, op, in, o);
	case HOP_REDUCE_WINDOW:
		return eval_reduce_window(h, op, in, o);
	case HOP_DOT_GENERAL: case HOP_DOT: case HOP_CONV: {
		int r = need(h, op, 2, 1);

		if (r)
			return r;
		if (anyq)
			return eval_quant_contraction(h, op, in, out);
		if (hlo_is_float(&in[0].t) != hlo_is_float(&o->t) ||
		    hlo_is_float(&in[1].t) != hlo_is_float(&o->t))
			return EV_ERR(h, "%s (line %d): mixed float and integer types", op->name,
				      op->line);
		return op->kind == HOP_CONV ? eval_conv(h, op, in, o) : eval_dot(h, op, in, o);
	}
	case HOP_E1:
		return hlo_e1_eval(h, op, in, o);
	default:
		return hlo_errf(h, -ENOTSUP, "%s (line %d): no CPU evaluation", op->name, op->line);
	}
}
