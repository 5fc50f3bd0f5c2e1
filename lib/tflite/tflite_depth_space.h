/* SPDX-License-Identifier: MIT */
/*
 * DEPTH_TO_SPACE and SPACE_TO_DEPTH of a 4-D NHWC tensor, as TFLite 2.2's
 * depth_to_space.cc / space_to_depth.cc: a block_size x block_size block
 * of pixels is one pixel's channels, offset (dy, dx) at channels
 * (dy * block + dx) * C .. + C - 1 (C: the channels of the spatial side).
 * The stored values moved, no rescale (2.2 checks no quantization).
 */
#ifndef E1NPU_TFLITE_DEPTH_SPACE_H
#define E1NPU_TFLITE_DEPTH_SPACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tfl_depth_space {
	bool to_space;			/* DEPTH_TO_SPACE */
	int32_t n, h, w, c;		/* the spatial side's shape (NHWC) */
	int32_t block;
	size_t esize;			/* bytes an element */
};

/*
 * @in: the input shape (4-D); @block: the options' block_size. Fills
 * @out_dims. 0, or -EINVAL if @block is below 1, does not divide the
 * input's channels (to space) or height and width (to depth), or the
 * output is too large.
 */
int tfl_depth_space_prepare(struct tfl_depth_space *s, bool to_space, const int32_t *in,
			    int32_t block, size_t esize, int32_t *out_dims);

void tfl_depth_space_run(const struct tfl_depth_space *s, const uint8_t *in, uint8_t *out);

#endif
