// SPDX-License-Identifier: MIT
/* TRANSPOSE_CONV as a stride-1 convolution of the stuffed input (tflite_tconv_lower.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tflite_tconv_lower.h"

int tfl_tconv_lower_prepare(struct tfl_tconv_lower *lw, const struct tfl_tconv *s)
{
	size_t ic = (size_t)s->in[3], oc = (size_t)s->out[3];
	size_t kh = (size_t)s->fh, kw = (size_t)s->fw, n, nw = oc * kh * kw * ic;

	memset(lw, 0, sizeof(*lw));
	/* the VALID output of a stride-1 k-tall filter is the tconv's own */
	if ((int64_t)s->out[1] + s->fh - 1 > INT32_MAX / 2 ||
	    (int64_t)s->out[2] + s->fw - 1 > INT32_MAX / 2)
		return -E2BIG;
	lw->sh = s->out[1] + s->fh - 1;
	lw->sw = s->out[2] + s->fw - 1;
	n = (size_t)lw->sh * (size_t)lw->sw;
	if (n > ((size_t)64 << 20) / (ic ? ic : 1))
		return -E2BIG;
	n *= ic;
	lw->stuffed = malloc(n ? n : 1);
	lw->hwio = malloc(nw ? nw : 1);
	if (!lw->stuffed || !lw->hwio) {
		tfl_tconv_lower_free(lw);
		return -ENOMEM;
	}
	/* HWIO[y][x][c][o] = OHWI[o][kh - 1 - y][kw - 1 - x][c] */
	for (size_t o = 0; o < oc; o++)
		for (size_t y = 0; y < kh; y++)
			for (size_t x = 0; x < kw; x++)
				for (size_t c = 0; c < ic; c++)
					lw->hwio[((y * kw + x) * ic + c) * oc + o] =
						s->w[((o * kh + (kh - 1 - y)) * kw + (kw - 1 - x)) *
						     ic + c];
	return 0;
}

void tfl_tconv_lower_free(struct tfl_tconv_lower *lw)
{
	free(lw->stuffed);
	free(lw->hwio);
	lw->stuffed = NULL;
	lw->hwio = NULL;
}

/*
 * Stuffed row m holds input row i where m + pad - (kh - 1) = i * stride
 * (the correlation's offset of output row 0), else the zero point.
 */
static int64_t source(int64_t m, int32_t pad, int32_t k, int32_t stride, int32_t n)
{
	int64_t j = m + pad - (k - 1);

	if (j < 0 || j % stride || j / stride >= n)
		return -1;
	return j / stride;
}

void tfl_tconv_lower_stuff(const struct tfl_tconv_lower *lw, const struct tfl_tconv *s,
			   const uint8_t *in)
{
	size_t ic = (size_t)s->in[3];
	uint8_t zp = (uint8_t)s->zp_in;

	for (int32_t m = 0; m < lw->sh; m++) {
		int64_t iy = source(m, s->pad_h, s->fh, s->stride_h, s->in[1]);
		uint8_t *row = lw->stuffed + (size_t)m * (size_t)lw->sw * ic;

		if (iy < 0) {
			memset(row, zp, (size_t)lw->sw * ic);
			continue;
		}
		for (int32_t q = 0; q < lw->sw; q++) {
			int64_t ix = source(q, s->pad_w, s->fw, s->stride_w, s->in[2]);

			if (ix < 0)
				memset(row + (size_t)q * ic, zp, ic);
			else
				memcpy(row + (size_t)q * ic,
				       in + ((size_t)iy * (size_t)s->in[2] + (size_t)ix) * ic, ic);
		}
	}
}
