// SPDX-License-Identifier: MIT
/* DEPTH_TO_SPACE, SPACE_TO_DEPTH (tflite_depth_space.h). */
#include <errno.h>
#include <string.h>

#include "tflite_depth_space.h"

int tfl_depth_space_prepare(struct tfl_depth_space *s, bool to_space, const int32_t *in,
			    int32_t block, size_t esize, int32_t *out_dims)
{
	int64_t bb;

	if (block < 1)
		return -EINVAL;
	bb = (int64_t)block * block;
	if (to_space) {
		if (in[3] % bb || (int64_t)in[1] * block > INT32_MAX ||
		    (int64_t)in[2] * block > INT32_MAX)
			return -EINVAL;
		out_dims[0] = in[0];
		out_dims[1] = in[1] * block;
		out_dims[2] = in[2] * block;
		out_dims[3] = (int32_t)(in[3] / bb);
	} else {
		if (in[1] % block || in[2] % block || (int64_t)in[3] * bb > INT32_MAX)
			return -EINVAL;
		out_dims[0] = in[0];
		out_dims[1] = in[1] / block;
		out_dims[2] = in[2] / block;
		out_dims[3] = (int32_t)(in[3] * bb);
	}
	s->to_space = to_space;
	s->n = in[0];
	s->h = to_space ? out_dims[1] : in[1];
	s->w = to_space ? out_dims[2] : in[2];
	s->c = to_space ? out_dims[3] : in[3];
	s->block = block;
	s->esize = esize;
	return 0;
}

/*
 * One walk over the spatial side: pixel (y, x)'s C channels sit in the
 * depth side's pixel (y / block, x / block) at block offset (y % block,
 * x % block). The direction only says which side is read.
 */
void tfl_depth_space_run(const struct tfl_depth_space *s, const uint8_t *in, uint8_t *out)
{
	size_t row = (size_t)s->c * s->esize;
	size_t dw = (size_t)(s->w / s->block), dh = (size_t)(s->h / s->block);
	size_t dc = row * (size_t)s->block * (size_t)s->block;

	for (size_t b = 0; b < (size_t)s->n; b++)
		for (size_t y = 0; y < (size_t)s->h; y++)
			for (size_t x = 0; x < (size_t)s->w; x++) {
				size_t sp = ((b * (size_t)s->h + y) * (size_t)s->w + x) * row;
				size_t off = (y % (size_t)s->block) * (size_t)s->block +
					     x % (size_t)s->block;
				size_t dp = ((b * dh + y / (size_t)s->block) * dw +
					     x / (size_t)s->block) * dc + off * row;

				if (s->to_space)
					memcpy(out + sp, in + dp, row);
				else
					memcpy(out + dp, in + sp, row);
			}
}
