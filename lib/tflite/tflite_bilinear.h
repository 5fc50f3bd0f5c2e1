/* SPDX-License-Identifier: MIT */
/*
 * RESIZE_BILINEAR of a [N, H, W, C] uint8/int8 tensor, as TFLite 2.2's
 * built-in kernels compute it, in single-precision float: the source
 * position y * scale (half_pixel_centers: (y + 0.5) * scale - 0.5), scale
 * H / H' (align_corners: (H - 1) / (H' - 1)), its floor and ceiling
 * clamped to the image, the four neighbours weighted and the sum
 * truncated toward zero. uint8 runs 2.2's default optimized kernel
 * (ResizeBilinearGenericSmallChannel: weights multiplied first, terms in
 * x-major order), int8 the reference one (each term multiplied left to
 * right, y-major order): the float roundings differ, so both are kept.
 *
 * TFLite 2.14: uint8 the same optimized kernel with 0.5 added before the
 * truncation (its 8x half-pixel special case, ResizeBilinear888Uint8,
 * gives the same bytes: there every weight is a multiple of 1/16 and the
 * float sum exact); int8 ResizeBilinearInteger: scales and positions in
 * 10 fractional bits (scale rounded, half-pixel offset scale / 2 - 512),
 * the four products summed in int64 and divided by 2^20 rounding half
 * away from zero.
 */
#ifndef E1NPU_TFLITE_BILINEAR_H
#define E1NPU_TFLITE_BILINEAR_H

#include <stdbool.h>
#include <stdint.h>

struct tfl_bilinear {
	int32_t n, ih, iw, oh, ow, c;
	float hs, ws;
	bool half, int8, tfl214;
	int32_t hs10, ws10;	/* 2.14 int8: the scales in 10 fractional bits */
};

/* 0 or -EINVAL (an empty shape, or 2.14's int32 positions overflow). */
int tfl_bilinear_prepare(struct tfl_bilinear *b, bool tfl214, bool int8, const int32_t *in,
			 int32_t oh, int32_t ow, bool align_corners, bool half_pixel);

void tfl_bilinear_run(const struct tfl_bilinear *b, const void *in, void *out);

#endif
