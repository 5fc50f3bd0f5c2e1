/* SPDX-License-Identifier: MIT */
/*
 * TRANSPOSE_CONV lowered onto the e1 convolution: the input spread out
 * with stride - 1 zero-point rows/columns between pixels and the padding
 * of the full correlation around them ("stuffed"), then a stride-1 VALID
 * convolution with the filter turned 180 degrees (OHWI -> flipped HWIO).
 * A stuffed element is the input zero point, so its products are 0 and
 * every int32 sum is the scatter's (tflite_tconv.c); the requantization is
 * the convolution's, which TFLite 2.2 forms the same way for both ops.
 */
#ifndef E1NPU_TFLITE_TCONV_LOWER_H
#define E1NPU_TFLITE_TCONV_LOWER_H

#include <stddef.h>
#include <stdint.h>

#include "tflite_tconv.h"

struct tfl_tconv_lower {
	int32_t sh, sw;			/* the stuffed input's height and width */
	uint8_t *stuffed;		/* sh x sw x in_c bytes */
	uint8_t *hwio;			/* the flipped filter */
};

/*
 * From @s (batch 1) and its OHWI filter: the stuffed size, its buffer and
 * the flipped HWIO filter. 0, -ENOMEM, or -E2BIG when the stuffed input
 * would pass 64 MiB (the layer stays on the host).
 */
int tfl_tconv_lower_prepare(struct tfl_tconv_lower *lw, const struct tfl_tconv *s);

void tfl_tconv_lower_free(struct tfl_tconv_lower *lw);

/* @in (the layer's input) into lw->stuffed. */
void tfl_tconv_lower_stuff(const struct tfl_tconv_lower *lw, const struct tfl_tconv *s,
			   const uint8_t *in);

#endif
