/* SPDX-License-Identifier: MIT */
/*
 * RESIZE_NEAREST_NEIGHBOR of a [1, H, W, C] uint8/int8 tensor as TFLite
 * 2.2's kernel: the stored values copied (no rescale), each output row and
 * column from floor(o * in / out), in float: 2.2's kernel does so
 * whatever align_corners and half_pixel_centers say.
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

/* 0, -EINVAL (bad sizes) or -ENOMEM. */
int tfl_resize_prepare(struct tfl_resize *r, uint32_t ih, uint32_t iw, uint32_t oh,
		       uint32_t ow, uint32_t c);

void tfl_resize_run(const struct tfl_resize *r, const uint8_t *in, uint8_t *out);

void tfl_resize_free(struct tfl_resize *r);

#endif
