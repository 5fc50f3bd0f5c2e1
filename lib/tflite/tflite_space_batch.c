// SPDX-License-Identifier: MIT
/* SPACE_TO_BATCH_ND, BATCH_TO_SPACE_ND (tflite_space_batch.h). */
#include <errno.h>
#include <string.h>

#include "tflite_space_batch.h"

int tfl_space_batch_prepare(struct tfl_space_batch *s, bool to_batch, const int32_t *in,
			    const int32_t *block, const int32_t *pc, int32_t zero_point,
			    int32_t *out_dims)
{
	int64_t bs, h, w;

	if (block[0] < 1 || block[1] < 1 || pc[0] < 0 || pc[1] < 0 || pc[2] < 0 || pc[3] < 0)
		return -EINVAL;
	bs = (int64_t)block[0] * block[1];
	if (to_batch) {
		h = (int64_t)in[1] + pc[0] + pc[1];
		w = (int64_t)in[2] + pc[2] + pc[3];
		if (h % block[0] || w % block[1] || bs * in[0] > INT32_MAX)
			return -EINVAL;
		out_dims[0] = (int32_t)(bs * in[0]);
		out_dims[1] = (int32_t)(h / block[0]);
		out_dims[2] = (int32_t)(w / block[1]);
	} else {
		h = (int64_t)in[1] * block[0] - pc[0] - pc[1];
		w = (int64_t)in[2] * block[1] - pc[2] - pc[3];
		if (in[0] % bs || h < 0 || w < 0 || h > INT32_MAX || w > INT32_MAX)
			return -EINVAL;
		out_dims[0] = (int32_t)(in[0] / bs);
		out_dims[1] = (int32_t)h;
		out_dims[2] = (int32_t)w;
	}
	out_dims[3] = in[3];
	s->to_batch = to_batch;
	memcpy(s->in, in, sizeof(s->in));
	memcpy(s->out, out_dims, sizeof(s->out));
	s->bh = block[0];
	s->bw = block[1];
	s->top = pc[0];
	s->left = pc[2];
	s->pad = (uint8_t)zero_point;
	return 0;
}

static size_t at(const int32_t *d, int32_t b, int32_t y, int32_t x)
{
	return (((size_t)b * (size_t)d[1] + (size_t)y) * (size_t)d[2] + (size_t)x) * (size_t)d[3];
}

/* Output batch ob reads input batch ob % in_batch at block offset ob / in_batch. */
static void to_batch(const struct tfl_space_batch *s, const uint8_t *in, uint8_t *out)
{
	size_t c = (size_t)s->out[3];

	for (int32_t ob = 0; ob < s->out[0]; ob++) {
		int32_t ib = ob % s->in[0], off = ob / s->in[0];
		int32_t sy = off / s->bw, sx = off % s->bw;

		for (int32_t y = 0; y < s->out[1]; y++)
			for (int32_t x = 0; x < s->out[2]; x++) {
				int64_t iy = (int64_t)y * s->bh + sy - s->top;
				int64_t ix = (int64_t)x * s->bw + sx - s->left;
				uint8_t *o = out + at(s->out, ob, y, x);

				if (iy < 0 || iy >= s->in[1] || ix < 0 || ix >= s->in[2])
					memset(o, s->pad, c);
				else
					memcpy(o, in + at(s->in, ib, (int32_t)iy, (int32_t)ix), c);
			}
	}
}

/* Input batch ib goes to output batch ib % out_batch at block offset ib / out_batch. */
static void to_space(const struct tfl_space_batch *s, const uint8_t *in, uint8_t *out)
{
	size_t c = (size_t)s->in[3];

	for (int32_t ib = 0; ib < s->in[0]; ib++) {
		int32_t ob = ib % s->out[0], off = ib / s->out[0];
		int32_t sy = off / s->bw, sx = off % s->bw;

		for (int32_t y = 0; y < s->in[1]; y++) {
			int64_t oy = (int64_t)y * s->bh + sy - s->top;

			if (oy < 0 || oy >= s->out[1])
				continue;
			for (int32_t x = 0; x < s->in[2]; x++) {
				int64_t ox = (int64_t)x * s->bw + sx - s->left;

				if (ox >= 0 && ox < s->out[2])
					memcpy(out + at(s->out, ob, (int32_t)oy, (int32_t)ox),
					       in + at(s->in, ib, y, x), c);
			}
		}
	}
}

void tfl_space_batch_run(const struct tfl_space_batch *s, const uint8_t *in, uint8_t *out)
{
	if (s->to_batch)
		to_batch(s, in, out);
	else
		to_space(s, in, out);
}
