// SPDX-License-Identifier: MIT
/* REDUCE_MAX, REDUCE_MIN, SUM (tflite_reduce.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "quant.h"
#include "tflite_reduce.h"

int tfl_reduce_prepare(struct tfl_reduce *r, enum tfl_reduce_kind kind, bool is_int8,
		       const int32_t *dims, uint32_t ndims, const int32_t *axes, uint32_t naxes,
		       bool keep_dims, int32_t *out_dims, uint32_t *out_ndims, int32_t *bad)
{
	bool red[TFL_MAX_DIMS] = { false };
	size_t stride = 1;
	uint32_t n = 0;

	for (uint32_t k = 0; k < naxes; k++) {
		int64_t a = axes[k] < 0 ? (int64_t)axes[k] + ndims : axes[k];

		if (a < 0 || a >= ndims) {
			*bad = axes[k];
			return -EINVAL;
		}
		red[a] = true;
	}
	memset(r, 0, sizeof(*r));
	r->kind = kind;
	r->is_int8 = is_int8;
	r->ndims = ndims;
	r->nin = 1;
	for (uint32_t d = 0; d < ndims; d++) {
		r->dims[d] = dims[d];
		r->nin *= (size_t)dims[d];
		if (!red[d] || keep_dims)
			out_dims[n++] = red[d] ? 1 : dims[d];
	}
	*out_ndims = n;
	for (uint32_t d = ndims; d-- > 0;) {
		r->ostride[d] = red[d] ? 0 : stride;
		if (!red[d])
			stride *= (size_t)dims[d];
	}
	r->nout = stride;
	return 0;
}

int tfl_reduce_rescale(struct tfl_reduce *r, float s_in, int32_t zp_in, float s_out,
		       int32_t zp_out)
{
	/* 2.2's count of summed elements is an int32 (the load keeps the arena under 1 GiB) */
	int32_t n = (int32_t)(r->nout ? r->nin / r->nout : 0);

	r->scale = s_in / s_out;
	/* (-zp) * scale * n + 0.5, each step in float as 2.2 writes it (2.14: no 0.5) */
	r->bias = (float)-zp_in * r->scale * (float)n;
	if (r->kind != TFL_REDUCE_SUM_2_14)
		r->bias += 0.5f;
	r->zp_out = zp_out;
	r->acc = calloc(r->nout ? r->nout : 1, sizeof(*r->acc));
	return r->acc ? 0 : -ENOMEM;
}

void tfl_reduce_free(struct tfl_reduce *r)
{
	free(r->acc);
	r->acc = NULL;
}

static int32_t val(const struct tfl_reduce *r, uint8_t b)
{
	return r->is_int8 ? (int32_t)(int8_t)b : (int32_t)b;
}

/* (int32) of a float as x86's conversion gives it: out of range and NaN are INT32_MIN. */
static int32_t to_i32(float f)
{
	return f >= -2147483648.0f && f < 2147483648.0f ? (int32_t)f : INT32_MIN;
}

void tfl_reduce_run(const struct tfl_reduce *r, const uint8_t *in, uint8_t *out)
{
	int32_t idx[TFL_MAX_DIMS] = { 0 };
	size_t o = 0;

	for (size_t i = 0; i < r->nout; i++) {
		if (r->kind == TFL_REDUCE_SUM_RESCALE || r->kind == TFL_REDUCE_SUM_2_14)
			r->acc[i] = 0;
		else if (r->kind == TFL_REDUCE_SUM_WRAP)
			out[i] = 0;
		else if (r->kind == TFL_REDUCE_MAX)	/* the type's lowest */
			out[i] = r->is_int8 ? 0x80 : 0x00;
		else					/* its highest */
			out[i] = r->is_int8 ? 0x7f : 0xff;
	}
	for (size_t i = 0; i < r->nin; i++) {
		int32_t v = val(r, in[i]), cur = val(r, out[o]);

		switch (r->kind) {
		case TFL_REDUCE_MAX:
			if (v > cur)
				out[o] = in[i];
			break;
		case TFL_REDUCE_MIN:
			if (v < cur)
				out[o] = in[i];
			break;
		case TFL_REDUCE_SUM_WRAP:
			out[o] = (uint8_t)(out[o] + in[i]);
			break;
		case TFL_REDUCE_SUM_RESCALE:
		case TFL_REDUCE_SUM_2_14:
			r->acc[o] += (uint32_t)v;
			break;
		}
		/* next input index; the output index follows the kept axes */
		for (uint32_t d = r->ndims; d-- > 0;) {
			o += r->ostride[d];
			if (++idx[d] < r->dims[d])
				break;
			o -= r->ostride[d] * (size_t)r->dims[d];
			idx[d] = 0;
		}
	}
	if (r->kind != TFL_REDUCE_SUM_RESCALE && r->kind != TFL_REDUCE_SUM_2_14)
		return;
	for (size_t i = 0; i < r->nout; i++) {
		float f = roundf((float)(int32_t)r->acc[i] * r->scale + r->bias);
		int32_t v = e1q_wrap_add(to_i32(f), r->zp_out);

		if (r->kind == TFL_REDUCE_SUM_2_14)	/* 2.14 clamps to the type */
			v = e1q_clamp(v, r->is_int8 ? -128 : 0, r->is_int8 ? 127 : 255);
		out[i] = (uint8_t)v;
	}
}
