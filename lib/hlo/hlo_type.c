// SPDX-License-Identifier: MIT
/*
 * Element types, tensors and dense literals of the StableHLO importer; the
 * module's memory pool. Floats are held as doubles rounded to their type
 * after every op (f16/bf16 round to nearest even on the bits), integers as
 * int64 wrapped to their width: StableHLO's exact integer semantics.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hlo.h"
#include "hlo_type.h"

struct hlo_pool {
	struct hlo_pool *next;
	size_t used, size;
	_Alignas(16) unsigned char data[];
};

#define POOL_BLOCK	(64u * 1024u)

void *hlo_alloc(struct e1npu_hlo *h, size_t size)
{
	struct hlo_pool *p = h->pool;

	size = (size + 15) & ~(size_t)15;
	if (!p || p->size - p->used < size) {
		size_t bs = size > POOL_BLOCK ? size : POOL_BLOCK;

		p = malloc(sizeof(*p) + bs);
		if (!p)
			return NULL;
		p->next = h->pool;
		p->used = 0;
		p->size = bs;
		h->pool = p;
	}
	p->used += size;
	return p->data + p->used - size;
}

void hlo_pool_free(struct e1npu_hlo *h)
{
	while (h->pool) {
		struct hlo_pool *n = h->pool->next;

		free(h->pool);
		h->pool = n;
	}
}

/* Elements of @t, or -1 above HLO_MAX_ELEMS. */
int64_t hlo_nelems(const struct hlo_type *t)
{
	int64_t n = 1;

	for (int i = 0; i < t->rank; i++) {
		if (t->dims[i] < 0)
			return -1;
		if (t->dims[i] && n > (int64_t)HLO_MAX_ELEMS / t->dims[i])
			return -1;
		n *= t->dims[i];
	}
	return n;
}

int hlo_is_float(const struct hlo_type *t)
{
	return t->ek >= EK_F16 && !t->quant;
}

size_t hlo_elem_bytes(const struct hlo_type *t)
{
	return t->bits <= 8 ? 1 : (size_t)t->bits / 8;
}

int hlo_same_shape(const struct hlo_type *a, const struct hlo_type *b)
{
	if (a->rank != b->rank)
		return 0;
	for (int i = 0; i < a->rank; i++)
		if (a->dims[i] != b->dims[i])
			return 0;
	return 1;
}

/* Same shape and element type, quantization parameters included. */
int hlo_same_type(const struct hlo_type *a, const struct hlo_type *b)
{
	if (!hlo_same_shape(a, b) || a->ek != b->ek || a->bits != b->bits ||
	    a->quant != b->quant)
		return 0;
	if (!a->quant)
		return 1;
	if (a->qaxis != b->qaxis || a->nq != b->nq || a->qmin != b->qmin || a->qmax != b->qmax)
		return 0;
	for (uint32_t i = 0; i < a->nq; i++)
		if (a->scale[i] != b->scale[i] || a->zp[i] != b->zp[i])
			return 0;
	return 1;
}

/* Round to a binary format with @mant significant bits and exponent floor. */
static double round_bin(double x, int mant, int emin_q, double maxv)
{
	int e;
	double q, r;

	if (x != x || x == 0 || isinf(x))
		return x;
	frexp(x, &e);
	e -= mant;
	if (e < emin_q)
		e = emin_q;
	q = ldexp(1.0, e);
	r = nearbyint(x / q) * q;
	if (fabs(r) > maxv)
		return r > 0 ? INFINITY : -INFINITY;
	return r;
}

double hlo_round(const struct hlo_type *t, double x)
{
	switch (t->ek) {
	case EK_F32:
		return (double)(float)x;
	case EK_F16:
		return round_bin(x, 11, -24, 65504.0);
	case EK_BF16:
		return round_bin(x, 8, -133, ldexp(255.0, 120));
	default:
		return x;
	}
}

int64_t hlo_wrap(const struct hlo_type *t, int64_t x)
{
	unsigned b = t->bits;

	if (t->ek == EK_BOOL)
		return x & 1;
	if (b >= 64)
		return x;
	if (t->ek == EK_UINT)
		return (int64_t)((uint64_t)x & ((1ull << b) - 1));
	return (int64_t)((uint64_t)x << (64 - b)) >> (64 - b);
}

double hlo_half_to_double(uint16_t h)
{
	int e = (h >> 10) & 31, m = h & 1023;
	double v;

	if (e == 31)
		v = m ? NAN : INFINITY;
	else if (e == 0)
		v = ldexp(m, -24);
	else
		v = ldexp(m + 1024, e - 25);
	return (h & 0x8000) ? -v : v;
}

double hlo_bf16_to_double(uint16_t h)
{
	uint32_t u = (uint32_t)h << 16;
	float f;

	memcpy(&f, &u, sizeof(f));
	return f;
}

static double bits_to_double(const struct hlo_type *t, uint64_t bits)
{
	if (t->ek == EK_F16)
		return hlo_half_to_double((uint16_t)bits);
	if (t->ek == EK_BF16)
		return hlo_bf16_to_double((uint16_t)bits);
	if (t->ek == EK_F32) {
		uint32_t u = (uint32_t)bits;
		float f;

		memcpy(&f, &u, sizeof(f));
		return f;
	}
	{
		double d;

		memcpy(&d, &bits, sizeof(d));
		return d;
	}
}

void hlo_type_str(const struct hlo_type *t, char *buf, size_t len)
{
	size_t o = 0;
	const char *pre = t->ek == EK_UINT ? "ui" : "i";

	o += (size_t)snprintf(buf + o, len - o, "tensor<");
	for (int i = 0; i < t->rank && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%lldx", (long long)t->dims[i]);
	if (o >= len)
		return;
	if (t->quant)
		snprintf(buf + o, len - o, "!quant.uniform<%s%u>>", t->ek == EK_UINT ? "u" : "i",
			 t->bits);
	else if (t->ek == EK_F16 || t->ek == EK_BF16 || t->ek == EK_F32 || t->ek == EK_F64)
		snprintf(buf + o, len - o, "%sf%u>", t->ek == EK_BF16 ? "b" : "", t->bits);
	else
		snprintf(buf + o, len - o, "%s%u>", t->ek == EK_BOOL ? "i" : pre, t->bits);
}

int hlo_tensor_new(const struct hlo_type *t, struct hlo_tensor *out)
{
	int64_t n = hlo_nelems(t);

	if (n < 0)
		return -ENOMEM;
	out->t = *t;
	out->n = n;
	out->v = calloc((size_t)(n ? n : 1), sizeof(*out->v));
	return out->v ? 0 : -ENOMEM;
}

void hlo_tensor_free(struct hlo_tensor *t)
{
	free(t->v);
	t->v = NULL;
}

/* Materialize a dense literal with type @t (splats broadcast). */
int hlo_tensor_from_lit(const struct hlo_attr *lit, const struct hlo_type *t,
			struct hlo_tensor *out, char *err, size_t errlen)
{
	int64_t n = hlo_nelems(t);
	int ret = hlo_tensor_new(t, out);

	if (ret)
		return ret;
	if (lit->blob) {
		size_t eb = hlo_elem_bytes(t);
		int splat = lit->bloblen == eb;

		if (!splat && lit->bloblen != eb * (size_t)n) {
			snprintf(err, errlen, "hex literal of %zu bytes for %lld elements of %zu bytes",
				 lit->bloblen, (long long)n, eb);
			hlo_tensor_free(out);
			return -EINVAL;
		}
		for (int64_t i = 0; i < n; i++) {
			const uint8_t *p = lit->blob + (splat ? 0 : (size_t)i * eb);
			uint64_t u = 0;

			for (size_t k = 0; k < eb; k++)
				u |= (uint64_t)p[k] << (8 * k);
			if (hlo_is_float(t))
				out->v[i].f = bits_to_double(t, u);
			else
				out->v[i].i = hlo_wrap(t, (int64_t)u);
		}
		return 0;
	}
	if (lit->nlit != 1 && lit->nlit != n) {
		snprintf(err, errlen, "literal of %lld elements for a type of %lld",
			 (long long)lit->nlit, (long long)n);
		hlo_tensor_free(out);
		return -EINVAL;
	}
	for (int64_t i = 0; i < n; i++) {
		const struct hlo_lit *l = &lit->lit[lit->nlit == 1 ? 0 : i];

		if (hlo_is_float(t)) {
			out->v[i].f = l->is_hex ? bits_to_double(t, l->bits) :
				      hlo_round(t, l->f);
		} else {
			if (l->is_float) {
				snprintf(err, errlen, "float literal %g for an integer type", l->f);
				hlo_tensor_free(out);
				return -EINVAL;
			}
			out->v[i].i = hlo_wrap(t, l->i);
		}
	}
	return 0;
}

const struct hlo_attr *hlo_attr_get(const struct hlo_op *op, const char *key)
{
	for (int i = 0; op->attrs && i < op->attrs->n; i++)
		if (op->attrs->items[i]->key && !strcmp(op->attrs->items[i]->key, key))
			return op->attrs->items[i];
	return NULL;
}

/* Integers of a list / array / dense attribute; -1 when not one. */
int hlo_attr_ints(const struct hlo_attr *a, int64_t *out, int max)
{
	int n = 0;

	if (!a)
		return -1;
	if (a->kind == AV_INT) {
		if (max < 1)
			return -1;
		out[0] = a->i;
		return 1;
	}
	if (a->kind == AV_DENSE) {
		if (a->blob || a->nlit > max)
			return -1;
		for (int64_t i = 0; i < a->nlit; i++) {
			if (a->lit[i].is_float)
				return -1;
			out[n++] = a->lit[i].i;
		}
		/* a splat of a typed dense: repeat to the type's size */
		if (a->nlit == 1 && a->has_type) {
			int64_t tn = hlo_nelems(&a->type);

			if (tn < 0 || tn > max)
				return -1;
			for (; n < tn; n++)
				out[n] = out[0];
		}
		return n;
	}
	if (a->kind != AV_LIST)
		return -1;
	for (int i = 0; i < a->n; i++) {
		const struct hlo_attr *it = a->items[i];

		if (it->kind == AV_LIST) { /* [[1, 1], [0, 0]] flattened */
			for (int k = 0; k < it->n; k++) {
				if (n >= max || it->items[k]->kind != AV_INT)
					return -1;
				out[n++] = it->items[k]->i;
			}
			continue;
		}
		if (n >= max || it->kind != AV_INT)
			return -1;
		out[n++] = it->i;
	}
	return n;
}

int hlo_op_has_flag(const struct hlo_op *op, const char *flag)
{
	for (int i = 0; i < op->nflags; i++)
		if (!strcmp(op->flags[i], flag))
			return 1;
	return 0;
}
