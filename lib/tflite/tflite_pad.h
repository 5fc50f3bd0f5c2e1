/* SPDX-License-Identifier: MIT */
/*
 * PAD of a uint8/int8 tensor of rank <= 4 (TFLite 2.2's pad.cc): the
 * input copied into the output at the leading paddings, every other
 * element the output's zero point (a real 0).
 */
#ifndef E1NPU_TFLITE_PAD_H
#define E1NPU_TFLITE_PAD_H

#include <stdint.h>

struct tfl_pad {
	int32_t in[4], out[4], before[4];	/* shapes extended to 4-D */
	uint8_t value;				/* the zero point's byte */
};

/*
 * @dims/@ndims: the input shape; @pads: [ndims][2] (before, after), each
 * at least 0. Fills the 4-D form and @out_dims. 0 or -EINVAL.
 */
int tfl_pad_prepare(struct tfl_pad *p, const int32_t *dims, uint32_t ndims,
		    const int32_t *pads, int32_t zero_point, int32_t *out_dims);

void tfl_pad_run(const struct tfl_pad *p, const uint8_t *in, uint8_t *out);

#endif
