// SPDX-License-Identifier: MIT
/* TRANSPOSE_CONV (tflite_tconv.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "quant.h"
#include "tflite_tconv.h"

int32_t tfl_tconv_padding(bool same, int32_t out_size, int32_t filter, int32_t stride)
{
	/* the size a convolution of the output would give, then its padding */
	int64_t conv = same ? ((int64_t)out_size + stride - 1) / stride :
			      ((int64_t)out_size - filter + stride) / stride;
	int64_t total = (conv - 1) * stride + filter - out_size;

	return total > 0 ? (int32_t)(total / 2) : 0;
}

static size_t count4(const int32_t *d)
{
	return (size_t)d[0] * (size_t)d[1] * (size_t)d[2] * (size_t)d[3];
}

int tfl_tconv_alloc(struct tfl_tconv *s, const uint8_t *w)
{
	size_t nw = (size_t)s->out[3] * (size_t)s->fh * (size_t)s->fw * (size_t)s->in[3];
	size_t no = count4(s->out);

	if (no > ((size_t)1 << 26))	/* a 256 MiB scratch at most */
		return -EINVAL;
	s->w = malloc(nw ? nw : 1);
	s->mult = calloc((size_t)s->out[3] + 1, sizeof(*s->mult));
	s->shift = calloc((size_t)s->out[3] + 1, sizeof(*s->shift));
	s->acc = malloc((no ? no : 1) * sizeof(*s->acc));
	if (!s->w || !s->mult || !s->shift || !s->acc)
		return -ENOMEM;
	memcpy(s->w, w, nw);
	return 0;
}

void tfl_tconv_free(struct tfl_tconv *s)
{
	free(s->w);
	free(s->mult);
	free(s->shift);
	free(s->acc);
	s->w = NULL;
	s->mult = NULL;
	s->shift = NULL;
	s->acc = NULL;
}

static int32_t stored(const uint8_t *p, bool is_int8)
{
	return is_int8 ? (int32_t)(int8_t)*p : (int32_t)*p;
}

/* One input pixel's channels into the scratch (int32 wrapping as TFLite's). */
static void scatter(const struct tfl_tconv *s, const uint8_t *px, size_t b, int64_t oy0,
		    int64_t ox0)
{
	size_t ic = (size_t)s->in[3], oc = (size_t)s->out[3];

	for (int32_t fy = 0; fy < s->fh; fy++) {
		int64_t oy = oy0 + fy;

		if (oy < 0 || oy >= s->out[1])
			continue;
		for (int32_t fx = 0; fx < s->fw; fx++) {
			int64_t ox = ox0 + fx;
			uint32_t *acc;

			if (ox < 0 || ox >= s->out[2])
				continue;
			acc = (uint32_t *)s->acc +
			      ((b * (size_t)s->out[1] + (size_t)oy) * (size_t)s->out[2] +
			       (size_t)ox) * oc;
			for (size_t o = 0; o < oc; o++) {
				const uint8_t *wp = s->w +
					((o * (size_t)s->fh + (size_t)fy) * (size_t)s->fw +
					 (size_t)fx) * ic;
				uint32_t sum = acc[o];

				for (size_t c = 0; c < ic; c++)
					sum += (uint32_t)((stored(px + c, s->is_int8) - s->zp_in) *
							  (stored(wp + c, s->is_int8) - s->zp_w));
				acc[o] = sum;
			}
		}
	}
}

void tfl_tconv_run(const struct tfl_tconv *s, const uint8_t *in, uint8_t *out)
{
	size_t no = count4(s->out), oc = (size_t)s->out[3];
	int32_t lo = s->is_int8 ? -128 : 0, hi = s->is_int8 ? 127 : 255;

	memset(s->acc, 0, no * sizeof(*s->acc));
	for (size_t b = 0; b < (size_t)s->in[0]; b++)
		for (int32_t y = 0; y < s->in[1]; y++)
			for (int32_t x = 0; x < s->in[2]; x++)
				scatter(s, in + ((b * (size_t)s->in[1] + (size_t)y) *
						 (size_t)s->in[2] + (size_t)x) * (size_t)s->in[3],
					b, (int64_t)y * s->stride_h - s->pad_h,
					(int64_t)x * s->stride_w - s->pad_w);
	for (size_t i = 0; i < no; i++) {
		size_t c = i % oc;
		int64_t v = (int64_t)s->zp_out + e1q_mul_by_qm(s->acc[i], s->mult[c], s->shift[c]);

		v = v < lo ? lo : v > hi ? hi : v;
		out[i] = s->is_int8 ? (uint8_t)(int8_t)v : (uint8_t)v;
	}
}
