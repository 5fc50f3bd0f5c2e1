/* SPDX-License-Identifier: MIT */
/*
 * SPACE_TO_BATCH_ND and BATCH_TO_SPACE_ND of a 4-D uint8/int8 tensor
 * (NHWC, a [2] block shape, [2, 2] paddings / crops), as TFLite 2.2's
 * reference kernels: space to batch moves each block offset's pixels into
 * a batch of its own, its padding the output's zero point; batch to space
 * is the inverse, the crops cut off. The stored values moved, no rescale.
 */
#ifndef E1NPU_TFLITE_SPACE_BATCH_H
#define E1NPU_TFLITE_SPACE_BATCH_H

#include <stdbool.h>
#include <stdint.h>

struct tfl_space_batch {
	bool to_batch;			/* SPACE_TO_BATCH_ND */
	int32_t in[4], out[4];
	int32_t bh, bw, top, left;	/* block, leading padding / crop */
	uint8_t pad;			/* the output zero point's byte */
};

/*
 * @in: the input shape; @block: [2]; @pc: [2][2] paddings (to batch) or
 * crops (to space), each at least 0. Fills @out_dims. 0 or -EINVAL.
 */
int tfl_space_batch_prepare(struct tfl_space_batch *s, bool to_batch, const int32_t *in,
			    const int32_t *block, const int32_t *pc, int32_t zero_point,
			    int32_t *out_dims);

void tfl_space_batch_run(const struct tfl_space_batch *s, const uint8_t *in, uint8_t *out);

#endif
