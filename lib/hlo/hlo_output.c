// SPDX-License-Identifier: MIT
/*
 * The results of a run (e1npu_hlo_num_outputs(), e1npu_hlo_get_output()):
 * what each function run on its own returned, kept until the next run, in
 * the byte layout e1npu_hlo_set_input() takes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hlo.h"
#include "hlo_output.h"
#include "hlo_type.h"
#include "internal.h"

void hlo_outputs_clear(struct e1npu_hlo *h)
{
	for (int i = 0; i < h->nfuncs; i++) {
		struct hlo_func *f = h->funcs[i];

		if (!f->out)
			continue;
		for (int r = 0; r < f->nres; r++)
			hlo_tensor_free(&f->out[r]);
		free(f->out);
		f->out = NULL;
	}
}

/* The @i-th output: function @fi, result @ri. */
static int find(const struct e1npu_hlo *h, size_t i, int *fi, int *ri)
{
	for (int k = 0; k < h->nfuncs; k++) {
		const struct hlo_func *f = h->funcs[k];

		if (!f->out)
			continue;
		if (i < (size_t)f->nres) {
			*fi = k;
			*ri = (int)i;
			return 0;
		}
		i -= (size_t)f->nres;
	}
	return -1;
}

E1NPU_API size_t e1npu_hlo_num_outputs(const struct e1npu_hlo *h)
{
	size_t n = 0;

	for (int k = 0; h && k < h->nfuncs; k++)
		if (h->funcs[k]->out)
			n += (size_t)h->funcs[k]->nres;
	return n;
}

static void dtype_name(const struct hlo_type *t, char *buf, size_t len)
{
	switch (t->ek) {
	case EK_BOOL: snprintf(buf, len, "i1"); break;
	case EK_SINT: snprintf(buf, len, "i%u", t->bits); break;
	case EK_UINT: snprintf(buf, len, "ui%u", t->bits); break;
	case EK_F16: snprintf(buf, len, "f16"); break;
	case EK_BF16: snprintf(buf, len, "bf16"); break;
	case EK_F32: snprintf(buf, len, "f32"); break;
	default: snprintf(buf, len, "f64"); break;
	}
}

/* An f16 value (already rounded to f16) as its bits. */
static uint16_t f16_bits(double x)
{
	float f = (float)x;
	uint32_t u, sign, e, m;

	memcpy(&u, &f, sizeof(u));
	sign = (u >> 16) & 0x8000u;
	e = (u >> 23) & 0xffu;
	m = u & 0x7fffffu;
	if (e == 0xff)				/* inf, nan */
		return (uint16_t)(sign | 0x7c00u | (m ? 0x200u : 0));
	if (e == 0 && m == 0)
		return (uint16_t)sign;
	if ((int)e - 127 < -14) {		/* subnormal: m x 2^-24 */
		int sh = -14 - ((int)e - 127);

		return (uint16_t)(sign | ((m | 0x800000u) >> (13 + sh)));
	}
	return (uint16_t)(sign | (((e - 127 + 15) & 0x1fu) << 10) | (m >> 13));
}

static uint64_t value_bits(const struct hlo_type *t, union hv v)
{
	float f;
	uint32_t w;
	uint64_t u;

	switch (t->ek) {
	case EK_F16:
		return f16_bits(v.f);
	case EK_BF16:
		f = (float)v.f;
		memcpy(&w, &f, sizeof(w));
		return w >> 16;
	case EK_F32:
		f = (float)v.f;
		memcpy(&w, &f, sizeof(w));
		return w;
	case EK_F64:
		memcpy(&u, &v.f, sizeof(u));
		return u;
	default:
		return (uint64_t)v.i;
	}
}

E1NPU_API int e1npu_hlo_get_output(const struct e1npu_hlo *h, size_t i,
				   struct e1npu_hlo_output *info, void *data, size_t size)
{
	const struct hlo_tensor *t;
	const struct hlo_func *f;
	struct e1npu_hlo_output o;
	size_t eb;
	int fi, ri;

	if (!h || !info || (size && !data) || find(h, i, &fi, &ri))
		return -EINVAL;
	f = h->funcs[fi];
	t = &f->out[ri];
	memset(&o, 0, sizeof(o));
	o.func = (uint32_t)fi;
	o.index = (uint32_t)ri;
	o.rank = t->t.rank;
	for (uint32_t d = 0; d < o.rank; d++)
		o.dims[d] = (uint64_t)t->t.dims[d];
	o.elements = (uint64_t)t->n;
	eb = hlo_elem_bytes(&t->t);
	o.bytes = o.elements * eb;
	snprintf(o.name, sizeof(o.name), "%s#%d", f->name, ri);
	dtype_name(&t->t, o.dtype, sizeof(o.dtype));
	hlo_type_str(&t->t, o.type, sizeof(o.type));
	*info = o;
	if (!data)
		return 0;
	if (size != o.bytes)
		return -EINVAL;
	for (int64_t k = 0; k < t->n; k++) {
		uint64_t u = value_bits(&t->t, t->v[k]);

		for (size_t b = 0; b < eb; b++)
			((uint8_t *)data)[(size_t)k * eb + b] = (uint8_t)(u >> (8 * b));
	}
	return 0;
}
