// SPDX-License-Identifier: MIT
/*
 * Bilinear resize in float32, as TensorFlow computes it (see resize.h).
 * Every operation must round to float32 on its own: no wider evaluation
 * (FLT_EVAL_METHOD 0) and no fused multiply-add (riscv64 has one; the
 * build passes -ffp-contract=off for this file, tests/models/models.mk).
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "resize.h"

#if FLT_EVAL_METHOD != 0
#error "resize.c needs float arithmetic evaluated in float (FLT_EVAL_METHOD 0)"
#endif

struct lerp_idx {
	uint32_t lo, hi;	/* source indices */
	float t;		/* weight of hi */
};

static void lerp_weights(uint32_t out_n, uint32_t in_n, struct lerp_idx *v)
{
	const float scale = (float)in_n / (float)out_n;

	for (uint32_t i = 0; i < out_n; i++) {
		const float src = ((float)i + 0.5f) * scale - 0.5f;
		const float fl = floorf(src), ce = ceilf(src);

		v[i].lo = fl < 0.0f ? 0 : (uint32_t)fl;
		if (v[i].lo > in_n - 1)
			v[i].lo = in_n - 1;
		v[i].hi = ce < 0.0f ? 0 : ce > (float)(in_n - 1) ? in_n - 1 : (uint32_t)ce;
		v[i].t = src - fl;
	}
}

static float lerp2(float tl, float tr, float bl, float br, float tx, float ty)
{
	const float top = tl + (tr - tl) * tx;
	const float bottom = bl + (br - bl) * tx;

	return top + (bottom - top) * ty;
}

int resize_bilinear_f32(const struct image *in, uint32_t w, uint32_t h, float *out)
{
	struct lerp_idx *xs, *ys;

	if (!in->w || !in->h || !in->rgb || !w || !h)
		return -EINVAL;
	xs = calloc(w, sizeof(*xs));
	ys = calloc(h, sizeof(*ys));
	if (!xs || !ys) {
		free(xs);
		free(ys);
		return -ENOMEM;
	}
	lerp_weights(w, in->w, xs);
	lerp_weights(h, in->h, ys);
	for (uint32_t y = 0; y < h; y++) {
		const uint8_t *r0 = in->rgb + (size_t)ys[y].lo * in->w * 3;
		const uint8_t *r1 = in->rgb + (size_t)ys[y].hi * in->w * 3;

		for (uint32_t x = 0; x < w; x++) {
			const size_t l = (size_t)xs[x].lo * 3, u = (size_t)xs[x].hi * 3;
			float *o = out + ((size_t)y * w + x) * 3;

			for (int c = 0; c < 3; c++)
				o[c] = lerp2(r0[l + c], r0[u + c], r1[l + c], r1[u + c],
					     xs[x].t, ys[y].t);
		}
	}
	free(xs);
	free(ys);
	return 0;
}

void resize_to_input(const float *v, size_t n, int is_int8, uint8_t *out)
{
	for (size_t i = 0; i < n; i++) {
		float f = is_int8 ? v[i] - 128.0f : v[i];
		const float lo = is_int8 ? -128.0f : 0.0f, hi = is_int8 ? 127.0f : 255.0f;

		/* a lerp of bytes stays within them; saturate anyway (a cast
		 * of an out-of-range float is undefined) */
		if (!(f >= lo))
			f = lo;
		if (f > hi)
			f = hi;
		out[i] = is_int8 ? (uint8_t)(int8_t)f : (uint8_t)f;
	}
}
