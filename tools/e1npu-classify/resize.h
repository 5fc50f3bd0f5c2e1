/* SPDX-License-Identifier: MIT */
/*
 * e1npu-classify's preprocessing, as a TensorFlow / TFLite pipeline does
 * it: tf.image.resize bilinear (ResizeBilinear, half_pixel_centers=True)
 * in float32, then a C cast (truncation toward zero) to the model's input
 * type. Documentation/tflite.md, "Preprocessing".
 */
#ifndef __E1NPU_CLASSIFY_RESIZE_H__
#define __E1NPU_CLASSIFY_RESIZE_H__

#include <stddef.h>
#include <stdint.h>

#include "image.h"

/*
 * resize_bilinear_f32() - @in resized to @w x @h RGB floats in @out
 * (@w * @h * 3 of them), computed as TensorFlow's CPU ResizeBilinear with
 * half_pixel_centers: scale = (float)in / (float)out; src = ((float)dst +
 * 0.5f) * scale - 0.5f; lower = max(floor(src), 0), upper = min(ceil(src),
 * in - 1), t = src - floor(src); top = tl + (tr - tl) * tx, bottom
 * likewise, value = top + (bottom - top) * ty, every step rounded to
 * float32. Return: 0, -EINVAL (empty image or size).
 */
int resize_bilinear_f32(const struct image *in, uint32_t w, uint32_t h, float *out);

/*
 * resize_to_input() - the model's input bytes from resized floats:
 * uint8 = (uint8_t)v, int8 = (int8_t)(v - 128.0f) (TFLite's label_image,
 * tf.cast: truncation toward zero), saturated to the type's range.
 */
void resize_to_input(const float *v, size_t n, int is_int8, uint8_t *out);

#endif
