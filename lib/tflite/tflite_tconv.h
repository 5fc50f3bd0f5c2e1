/* SPDX-License-Identifier: MIT */
/*
 * TRANSPOSE_CONV of uint8 (per-tensor weights) and int8 (per-channel
 * weights) tensors, as TFLite 2.2's reference kernels (transpose_conv.cc,
 * reference_ops / reference_integer_ops TransposeConv): every input pixel
 * scatters (x - zp_in) * (w - zp_w) into an int32 scratch at
 * (y * stride - pad + fy, x * stride - pad + fx), then each sum is
 * requantized: clamp(zp_out + MBQM(acc, mult[c], shift[c])) to the type's
 * range (no fused activation, no bias in 2.2). The padding is the one a
 * convolution from the output shape to the input would have (2.2 derives
 * it from the output's height and width alone).
 */
#ifndef E1NPU_TFLITE_TCONV_H
#define E1NPU_TFLITE_TCONV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tfl_tconv {
	int32_t in[4], out[4];		/* NHWC */
	int32_t fh, fw;			/* filter [out_c, fh, fw, in_c] */
	int32_t stride_h, stride_w, pad_h, pad_w;
	int32_t zp_in, zp_w, zp_out;	/* int8: zp_w is 0 */
	bool is_int8;
	uint8_t *w;			/* a copy of the filter */
	int32_t *mult;			/* per output channel */
	int *shift;
	int32_t *acc;			/* the scratch, one int32 an output element */
};

/*
 * TFLite's ComputePaddingHeightWidth from the output size @out_size:
 * SAME or VALID (@same), the filter and the stride; the leading padding.
 */
int32_t tfl_tconv_padding(bool same, int32_t out_size, int32_t filter, int32_t stride);

/*
 * Allocate @s's buffers: @w (out_c x fh x fw x in_c bytes) copied, the
 * multipliers left for the caller to fill. 0 or -ENOMEM (-EINVAL: the
 * scratch, 4 bytes an output element, would pass 256 MiB).
 */
int tfl_tconv_alloc(struct tfl_tconv *s, const uint8_t *w);

void tfl_tconv_free(struct tfl_tconv *s);

void tfl_tconv_run(const struct tfl_tconv *s, const uint8_t *in, uint8_t *out);

#endif
