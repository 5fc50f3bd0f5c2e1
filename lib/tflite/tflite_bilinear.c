// SPDX-License-Identifier: MIT
/* RESIZE_BILINEAR (tflite_bilinear.h): TFLite 2.2's float arithmetic. */
#include <errno.h>
#include <math.h>
#include <stddef.h>

#include "tflite_bilinear.h"

int tfl_bilinear_prepare(struct tfl_bilinear *b, bool int8, const int32_t *in,
			 int32_t oh, int32_t ow, bool align_corners, bool half_pixel)
{
	if (in[0] < 1 || in[1] < 1 || in[2] < 1 || in[3] < 1 || oh < 1 || ow < 1)
		return -EINVAL;
	b->n = in[0];
	b->ih = in[1];
	b->iw = in[2];
	b->c = in[3];
	b->oh = oh;
	b->ow = ow;
	b->hs = (align_corners && oh > 1) ? (float)(in[1] - 1) / (float)(oh - 1) :
					    (float)in[1] / (float)oh;
	b->ws = (align_corners && ow > 1) ? (float)(in[2] - 1) / (float)(ow - 1) :
					    (float)in[2] / (float)ow;
	b->half = half_pixel;
	b->int8 = int8;
	return 0;
}

/* The source coordinate of output @v and its clamped floor and ceiling. */
static void source(int32_t v, float scale, bool half, int32_t size, float *pos,
		   int32_t *lo, int32_t *hi)
{
	float f, c;

	*pos = half ? ((float)v + 0.5f) * scale - 0.5f : (float)v * scale;
	f = floorf(*pos);
	c = ceilf(*pos);
	*lo = (int32_t)f > 0 ? (int32_t)f : 0;
	*hi = (int32_t)c < size - 1 ? (int32_t)c : size - 1;
}

/* static_cast<T>(float): truncation (the sums stay within a step of the range). */
static int32_t trunc_i32(float v)
{
	return v >= 2147483520.0f ? INT32_MAX : v <= -2147483648.0f ? INT32_MIN : (int32_t)v;
}

static float ld(const struct tfl_bilinear *b, const void *p, size_t i)
{
	return b->int8 ? (float)((const int8_t *)p)[i] : (float)((const uint8_t *)p)[i];
}

void tfl_bilinear_run(const struct tfl_bilinear *b, const void *in, void *out)
{
	size_t o = 0, c = (size_t)b->c;

	for (int32_t n = 0; n < b->n; n++)
	for (int32_t y = 0; y < b->oh; y++) {
		float fy;
		int32_t y0, y1;

		source(y, b->hs, b->half, b->ih, &fy, &y0, &y1);
		for (int32_t x = 0; x < b->ow; x++) {
			float fx, dy = fy - (float)y0, dx;
			int32_t x0, x1;
			size_t row0 = ((size_t)n * (size_t)b->ih + (size_t)y0) * (size_t)b->iw;
			size_t row1 = ((size_t)n * (size_t)b->ih + (size_t)y1) * (size_t)b->iw;
			size_t p00, p01, p10, p11;

			source(x, b->ws, b->half, b->iw, &fx, &x0, &x1);
			dx = fx - (float)x0;
			p00 = (row0 + (size_t)x0) * c;
			p01 = (row0 + (size_t)x1) * c;
			p10 = (row1 + (size_t)x0) * c;
			p11 = (row1 + (size_t)x1) * c;
			for (size_t k = 0; k < c; k++, o++) {
				float v;

				if (b->int8) {
					/* reference_ops: (x * wy) * wx, y-major */
					v = ld(b, in, p00 + k) * (1 - dy) * (1 - dx) +
					    ld(b, in, p10 + k) * dy * (1 - dx) +
					    ld(b, in, p01 + k) * (1 - dy) * dx +
					    ld(b, in, p11 + k) * dy * dx;
					((int8_t *)out)[o] = (int8_t)trunc_i32(v);
				} else {
					/* optimized: x * (wy * wx), x-major */
					float w00 = (1 - dy) * (1 - dx), w01 = (1 - dy) * dx;
					float w10 = dy * (1 - dx), w11 = dy * dx;

					v = ld(b, in, p00 + k) * w00 + ld(b, in, p01 + k) * w01 +
					    ld(b, in, p10 + k) * w10 + ld(b, in, p11 + k) * w11;
					((uint8_t *)out)[o] = (uint8_t)trunc_i32(v);
				}
			}
		}
	}
}
