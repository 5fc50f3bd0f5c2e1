// SPDX-License-Identifier: MIT
/* PAD (tflite_pad.h): byte copies, whatever the 8-bit type. */
#include <errno.h>
#include <string.h>

#include "tflite_pad.h"

int tfl_pad_prepare(struct tfl_pad *p, const int32_t *dims, uint32_t ndims,
		    const int32_t *pads, int32_t zero_point, int32_t *out_dims)
{
	uint32_t lead = 4 - ndims;

	if (ndims > 4)
		return -EINVAL;
	for (uint32_t d = 0; d < 4; d++) {
		p->in[d] = p->out[d] = 1;
		p->before[d] = 0;
	}
	for (uint32_t d = 0; d < ndims; d++) {
		int64_t o = (int64_t)dims[d] + pads[2 * d] + pads[2 * d + 1];

		if (pads[2 * d] < 0 || pads[2 * d + 1] < 0 || o > INT32_MAX / 2)
			return -EINVAL;
		p->in[lead + d] = dims[d];
		p->out[lead + d] = (int32_t)o;
		p->before[lead + d] = pads[2 * d];
		out_dims[d] = (int32_t)o;
	}
	p->value = (uint8_t)zero_point;
	return 0;
}

void tfl_pad_run(const struct tfl_pad *p, const uint8_t *in, uint8_t *out)
{
	size_t o = 0;

	for (int32_t a = 0; a < p->out[0]; a++)
	for (int32_t b = 0; b < p->out[1]; b++)
	for (int32_t c = 0; c < p->out[2]; c++) {
		int32_t ia = a - p->before[0], ib = b - p->before[1], ic = c - p->before[2];
		int32_t w = p->out[3], iw = p->in[3], bw = p->before[3];

		if (ia < 0 || ib < 0 || ic < 0 || ia >= p->in[0] || ib >= p->in[1] ||
		    ic >= p->in[2]) {
			memset(out + o, p->value, (size_t)w);
		} else {
			size_t src = (((size_t)ia * p->in[1] + ib) * p->in[2] + ic) * iw;

			memset(out + o, p->value, (size_t)bw);
			memcpy(out + o + bw, in + src, (size_t)iw);
			memset(out + o + bw + iw, p->value, (size_t)(w - bw - iw));
		}
		o += (size_t)w;
	}
}
