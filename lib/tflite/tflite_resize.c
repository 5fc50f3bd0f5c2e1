// SPDX-License-Identifier: MIT
/* TFLite 2.2's and 2.14's RESIZE_NEAREST_NEIGHBOR (tflite_resize.h). */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "tflite_resize.h"

/* The 16.16 fixed point of TFLite's optimized uint8 kernel (tflite_resize.h). */
static int32_t nearest_fixed(uint32_t o, uint32_t in, uint32_t out)
{
	/* int32 in TFLite (which overflows from 32768 rows on) */
	int64_t fs = (int64_t)(((uint64_t)in << 16) / out) + 1;
	int32_t v = (int32_t)(((int64_t)o * fs) >> 16);

	return v < (int32_t)in - 1 ? v : (int32_t)in - 1;
}

/*
 * TFLite 2.2's source row (column) for output row @o: floor(o * in / out),
 * the scale a float quotient, at most in - 1, on int8; its uint8 kernel's
 * fixed point on uint8. 2.2 applies them whatever align_corners and
 * half_pixel_centers say (checked against it: rounding with the aligned
 * scale differs on 45-78 of 72-189 bytes; resize-u8-up-fixed-align).
 */
static int32_t nearest(uint32_t o, uint32_t in, uint32_t out, unsigned int flags)
{
	float scale;
	int32_t v;

	if (flags & TFL_RESIZE_UINT8)
		return nearest_fixed(o, in, out);
	scale = (float)in / (float)out;
	v = (int32_t)floorf((float)o * scale);
	return v < (int32_t)in - 1 ? v : (int32_t)in - 1;
}

/* TFLite 2.14's source row (column) for output row @o (tflite_resize.h). */
static int32_t nearest_2_14(uint32_t o, uint32_t in, uint32_t out, unsigned int flags)
{
	bool align = flags & TFL_RESIZE_ALIGN, half = flags & TFL_RESIZE_HALF;
	float scale, pos;
	int32_t v;

	if ((flags & TFL_RESIZE_UINT8) && !align && !half)
		return nearest_fixed(o, in, out);
	scale = align && out > 1 ? (float)(in - 1) / (float)(out - 1) : (float)in / (float)out;
	pos = ((float)o + (half ? 0.5f : 0.0f)) * scale;
	v = align ? (int32_t)roundf(pos) : (int32_t)floorf(pos);
	v = v < (int32_t)in - 1 ? v : (int32_t)in - 1;
	return half && v < 0 ? 0 : v;
}

int tfl_resize_prepare(struct tfl_resize *r, uint32_t ih, uint32_t iw, uint32_t oh,
		       uint32_t ow, uint32_t c, unsigned int flags)
{
	bool t214 = flags & TFL_RESIZE_2_14;

	memset(r, 0, sizeof(*r));
	if (!ih || !iw || !oh || !ow || !c || oh > TFL_RESIZE_MAX || ow > TFL_RESIZE_MAX)
		return -EINVAL;
	r->ys = malloc(oh * sizeof(*r->ys));
	r->xs = malloc(ow * sizeof(*r->xs));
	if (!r->ys || !r->xs) {
		tfl_resize_free(r);
		return -ENOMEM;
	}
	r->ih = ih;
	r->iw = iw;
	r->oh = oh;
	r->ow = ow;
	r->c = c;
	for (uint32_t y = 0; y < oh; y++)
		r->ys[y] = t214 ? nearest_2_14(y, ih, oh, flags) : nearest(y, ih, oh, flags);
	for (uint32_t x = 0; x < ow; x++)
		r->xs[x] = t214 ? nearest_2_14(x, iw, ow, flags) : nearest(x, iw, ow, flags);
	return 0;
}

void tfl_resize_run(const struct tfl_resize *r, const uint8_t *in, uint8_t *out)
{
	for (uint32_t y = 0; y < r->oh; y++)
		for (uint32_t x = 0; x < r->ow; x++) {
			memcpy(out, in + ((size_t)r->ys[y] * r->iw + (size_t)r->xs[x]) * r->c, r->c);
			out += r->c;
		}
}

void tfl_resize_free(struct tfl_resize *r)
{
	free(r->ys);
	free(r->xs);
	r->ys = r->xs = NULL;
}
