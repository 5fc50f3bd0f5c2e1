// SPDX-License-Identifier: MIT
/* RESIZE_BILINEAR (tflite_bilinear.h): TFLite 2.2's float arithmetic, 2.14's. */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "tflite_bilinear.h"

/* ResizeBilinearInteger's scale: in / out in 10 fractional bits, rounded. */
static int32_t scale10(int32_t in, int32_t out, bool align)
{
	if (align && out > 1)
		return (int32_t)((((int64_t)in - 1) * 1024 + (out - 1) / 2) / (out - 1));
	return (int32_t)(((int64_t)in * 1024 + out / 2) / out);
}

int tfl_bilinear_prepare(struct tfl_bilinear *b, bool tfl214, bool int8, const int32_t *in,
			 int32_t oh, int32_t ow, bool align_corners, bool half_pixel)
{
	if (in[0] < 1 || in[1] < 1 || in[2] < 1 || in[3] < 1 || oh < 1 || ow < 1)
		return -EINVAL;
	b->tfl214 = tfl214;
	b->hs10 = scale10(in[1], oh, align_corners);
	b->ws10 = scale10(in[2], ow, align_corners);
	/* TFLite's int32 products (value * scale, input * 2^10): kept in range */
	if (tfl214 && int8 && ((int64_t)b->hs10 * oh >= INT32_MAX / 2 ||
			       (int64_t)b->ws10 * ow >= INT32_MAX / 2 ||
			       (int64_t)in[1] * 1024 >= INT32_MAX || (int64_t)in[2] * 1024 >= INT32_MAX))
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

/* ResizeBilinearInteger's source position of output @v (10 fractional bits). */
static void source10(int32_t v, int32_t s10, bool half, int32_t size, int32_t *pos,
		     int32_t *lo, int32_t *hi)
{
	*pos = half ? v * s10 + s10 / 2 - 512 : v * s10;
	/* C division truncates, as TFLite's does */
	*lo = *pos / 1024 > 0 ? *pos / 1024 : 0;
	*hi = (*pos + 1023) / 1024 < size - 1 ? (*pos + 1023) / 1024 : size - 1;
}

/* TFLite 2.14's int8 kernel, ResizeBilinearInteger. */
static void run_integer(const struct tfl_bilinear *b, const int8_t *in, int8_t *out)
{
	size_t o = 0, c = (size_t)b->c;

	for (int32_t n = 0; n < b->n; n++)
	for (int32_t y = 0; y < b->oh; y++) {
		int32_t fy, y0, y1;

		source10(y, b->hs10, b->half, b->ih, &fy, &y0, &y1);
		for (int32_t x = 0; x < b->ow; x++) {
			int32_t fx, x0, x1;
			size_t row0 = ((size_t)n * (size_t)b->ih + (size_t)y0) * (size_t)b->iw;
			size_t row1 = ((size_t)n * (size_t)b->ih + (size_t)y1) * (size_t)b->iw;
			int64_t dy, dx;

			source10(x, b->ws10, b->half, b->iw, &fx, &x0, &x1);
			dy = fy - 1024 * y0;
			dx = fx - 1024 * x0;
			for (size_t k = 0; k < c; k++, o++) {
				int64_t v = in[(row0 + (size_t)x0) * c + k] * (1024 - dy) * (1024 - dx) +
					    in[(row1 + (size_t)x0) * c + k] * dy * (1024 - dx) +
					    in[(row0 + (size_t)x1) * c + k] * (1024 - dy) * dx +
					    in[(row1 + (size_t)x1) * c + k] * dy * dx;

				/* half away from zero, then truncated: C's division */
				v += v > 0 ? 1 << 19 : -(1 << 19);
				out[o] = (int8_t)(v / (1 << 20));
			}
		}
	}
}

void tfl_bilinear_run(const struct tfl_bilinear *b, const void *in, void *out)
{
	/* 2.14 adds 0.5 to uint8's float sum before the truncation */
	float round = b->tfl214 ? 0.5f : 0.0f;
	size_t o = 0, c = (size_t)b->c;

	if (b->tfl214 && b->int8) {
		run_integer(b, in, out);
		return;
	}
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
					    ld(b, in, p10 + k) * w10 + ld(b, in, p11 + k) * w11 + round;
					((uint8_t *)out)[o] = (uint8_t)trunc_i32(v);
				}
			}
		}
	}
}
