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
 */
#ifndef E1NPU_TFLITE_BILINEAR_H
#define E1NPU_TFLITE_BILINEAR_H

#include <stdbool.h>
#include <stdint.h>

struct tfl_bilinear {
	int32_t n, ih, iw, oh, ow, c;
	float hs, ws;
	bool half, int8;
};

/* 0 or -EINVAL (an empty shape). */
int tfl_bilinear_prepare(struct tfl_bilinear *b, bool int8, const int32_t *in,
			 int32_t oh, int32_t ow, bool align_corners, bool half_pixel);

void tfl_bilinear_run(const struct tfl_bilinear *b, const void *in, void *out);

#endif
