/* SPDX-License-Identifier: MIT */
/*
 * RESIZE_NEAREST_NEIGHBOR of a [1, H, W, C] uint8/int8 tensor as TFLite
 * 2.2's kernel: the stored values copied (no rescale), each output row and
 * column from floor(o * in / out), in float on int8, in the 16.16 fixed
 * point below on uint8 (its optimized kernel): 2.2's kernels do so
 * whatever align_corners and half_pixel_centers say.
 *
 * TFLite 2.14 reads them: with either, or on int8, its reference
 * GetNearestNeighbor (scale (in - 1) / (out - 1) with align_corners,
 * source (o + 0.5) * scale with half_pixel_centers, rounded half away
 * with align_corners, else floored, clamped to the image); on uint8
 * without them its optimized kernel's 16.16 fixed point,
 * (o * ((in << 16) / out + 1)) >> 16, which parts from the float floor
 * (e.g. 2 rows to 82: row 41 reads row 1, the float floor row 0;
 * resize-u8-up-fixed).
 */
#ifndef E1NPU_TFLITE_RESIZE_H
#define E1NPU_TFLITE_RESIZE_H

#include <stddef.h>
#include <stdint.h>

#define TFL_RESIZE_MAX	4096	/* output rows or columns */

struct tfl_resize {
	uint32_t ih, iw, oh, ow, c;
	int32_t *ys, *xs;	/* source row per output row, column per column */
};

/* @flags of tfl_resize_prepare */
#define TFL_RESIZE_2_14		1u	/* TFLite 2.14's arithmetic, else 2.2's */
#define TFL_RESIZE_UINT8	2u	/* a uint8 tensor (2.14's optimized kernel) */
#define TFL_RESIZE_ALIGN	4u	/* align_corners */
#define TFL_RESIZE_HALF		8u	/* half_pixel_centers */

/* 0, -EINVAL (bad sizes) or -ENOMEM. */
int tfl_resize_prepare(struct tfl_resize *r, uint32_t ih, uint32_t iw, uint32_t oh,
		       uint32_t ow, uint32_t c, unsigned int flags);

void tfl_resize_run(const struct tfl_resize *r, const uint8_t *in, uint8_t *out);

void tfl_resize_free(struct tfl_resize *r);

#endif
