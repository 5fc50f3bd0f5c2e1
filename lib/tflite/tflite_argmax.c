// SPDX-License-Identifier: MIT
/* ARG_MAX / ARG_MIN (tflite_argmax.h). */
#include <errno.h>
#include <string.h>

#include "tflite_argmax.h"

int tfl_argmax_prepare(struct tfl_argmax *a, const int32_t *dims, uint32_t ndims,
		       uint32_t axis, bool min, bool in_signed, bool out64)
{
	if (axis >= ndims || dims[axis] < 1)
		return -EINVAL;
	a->outer = a->inner = 1;
	for (uint32_t d = 0; d < axis; d++)
		a->outer *= (size_t)dims[d];
	for (uint32_t d = axis + 1; d < ndims; d++)
		a->inner *= (size_t)dims[d];
	a->along = (size_t)dims[axis];
	a->min = min;
	a->in_signed = in_signed;
	a->out64 = out64;
	return 0;
}

static int32_t ld(const struct tfl_argmax *a, const void *in, size_t i)
{
	return a->in_signed ? ((const int8_t *)in)[i] : ((const uint8_t *)in)[i];
}

void tfl_argmax_run(const struct tfl_argmax *a, const void *in, void *out)
{
	size_t o = 0;

	for (size_t u = 0; u < a->outer; u++) {
		for (size_t v = 0; v < a->inner; v++, o++) {
			size_t base = u * a->along * a->inner + v, best_i = 0;
			int32_t best = ld(a, in, base);

			/* strictly better only: the first index wins a tie */
			for (size_t i = 1; i < a->along; i++) {
				int32_t x = ld(a, in, base + i * a->inner);

				if (a->min ? x < best : x > best) {
					best = x;
					best_i = i;
				}
			}
			if (a->out64) {
				int64_t w = (int64_t)best_i;

				memcpy((uint8_t *)out + 8 * o, &w, 8);
			} else {
				int32_t w = (int32_t)best_i;

				memcpy((uint8_t *)out + 4 * o, &w, 4);
			}
		}
	}
}
