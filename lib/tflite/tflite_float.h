/* SPDX-License-Identifier: MIT */
/*
 * The float32 boundary of a quantized model, as TFLite 2.2's kernels
 * compute it: DEQUANTIZE (uint8/int8 -> float32: (float)(double scale x
 * (q - zp)), dequantize.cc), QUANTIZE from float32 (-> uint8/int8:
 * clamp((int32)round(x / (double)scale) + zp), quantize.cc's
 * AffineQuantize) and ABS on float32 (TFLite 2.2's ABS has no 8-bit form).
 * Documentation/quantization.md, "DEQUANTIZE, QUANTIZE from float32".
 */
#ifndef E1NPU_TFLITE_FLOAT_H
#define E1NPU_TFLITE_FLOAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <e1npu/e1npu_ops.h>

struct tfl_float {
	bool uint8;		/* the 8-bit side's type */
	size_t count;
	struct e1npu_qparams q;	/* the 8-bit side's quantization */
};

void tfl_dequantize_run(const struct tfl_float *f, const void *in, float *out);

/*
 * Values whose quotient is beyond int32 (TFLite: an undefined cast) or
 * NaN saturate: +/-inf and huge values to the type's ends, NaN to zp.
 */
void tfl_quantize_float_run(const struct tfl_float *f, const float *in, void *out);

void tfl_abs_float_run(size_t count, const float *in, float *out);

#endif
