// SPDX-License-Identifier: MIT
/* TFLite 2.2's quantized CONCATENATION (tflite_concat.h). */
#include <errno.h>
#include <string.h>

#include "quant.h"
#include "tflite_concat.h"

int tfl_concat_prepare(struct tfl_concat *c, bool uint8, uint32_t n, size_t outer,
		       const size_t *inner, const struct e1npu_qparams *qi,
		       struct e1npu_qparams qo)
{
	/* ConcatenationWithScaling: 1.f / output_scale, then a float product */
	float inv = 1.0f / qo.scale;

	if (n > TFL_CONCAT_MAX || !(qo.scale > 0))
		return -EINVAL;
	c->n = n;
	c->outer = outer;
	c->zo = qo.zero_point;
	for (uint32_t k = 0; k < n; k++) {
		c->inner[k] = inner[k];
		c->copy[k] = qi[k].zero_point == qo.zero_point && qi[k].scale == qo.scale;
		if (!c->copy[k] && !uint8)
			return -ENOTSUP;
		c->scale[k] = qi[k].scale * inv;
		c->bias[k] = (float)-qi[k].zero_point * c->scale[k];
	}
	return 0;
}

void tfl_concat_run(const struct tfl_concat *c, const uint8_t *const *in, uint8_t *out)
{
	for (size_t o = 0; o < c->outer; o++)
		for (uint32_t k = 0; k < c->n; k++) {
			const uint8_t *src = in[k] + o * c->inner[k];

			if (c->copy[k]) {
				memcpy(out, src, c->inner[k]);
			} else {
				for (size_t j = 0; j < c->inner[k]; j++) {
					float f = (float)src[j] * c->scale[k] + c->bias[k];
					int64_t v = (int64_t)e1q_sat_i32(e1q_round((double)f)) + c->zo;

					out[j] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
				}
			}
			out += c->inner[k];
		}
}
