// SPDX-License-Identifier: MIT
/* Broadcast walks of two operands (tflite_bcast.h). */
#include <errno.h>

#include "tflite_bcast.h"

/* @d (rank @n) extended to 4-D, leading 1s. */
static void ext4(const int32_t *d, uint32_t n, int32_t *e)
{
	for (uint32_t k = 0; k < 4; k++)
		e[k] = k < 4 - n ? 1 : d[k - (4 - n)];
}

/* Row-major strides of @e, 0 on an axis of size 1 that the output widens. */
static void bstrides(const int32_t *e, const int32_t *o, size_t *st)
{
	size_t s = 1;

	for (int k = 3; k >= 0; k--) {
		st[k] = e[k] == 1 && o[k] != 1 ? 0 : s;
		s *= (size_t)e[k];
	}
}

int tfl_bcast_prepare(struct tfl_bcast *bc, const int32_t *da, uint32_t na,
		      const int32_t *db, uint32_t nb, const int32_t *dout, uint32_t nout)
{
	int32_t a[4], b[4];

	if (na > 4 || nb > 4 || nout != (na > nb ? na : nb))
		return -EINVAL;
	ext4(da, na, a);
	ext4(db, nb, b);
	ext4(dout, nout, bc->out);
	for (int k = 0; k < 4; k++) {
		int32_t want = a[k] == 1 ? b[k] : a[k];

		if ((a[k] != 1 && b[k] != 1 && a[k] != b[k]) || bc->out[k] != want)
			return -EINVAL;
	}
	bstrides(a, bc->out, bc->sa);
	bstrides(b, bc->out, bc->sb);
	return 0;
}

void tfl_bcast_for_each(const struct tfl_bcast *bc,
			void (*fn)(void *ctx, size_t ia, size_t ib, size_t io), void *ctx)
{
	size_t io = 0;

	for (int32_t i = 0; i < bc->out[0]; i++)
	for (int32_t j = 0; j < bc->out[1]; j++)
	for (int32_t k = 0; k < bc->out[2]; k++)
	for (int32_t l = 0; l < bc->out[3]; l++) {
		size_t ia = i * bc->sa[0] + j * bc->sa[1] + k * bc->sa[2] + l * bc->sa[3];
		size_t ib = i * bc->sb[0] + j * bc->sb[1] + k * bc->sb[2] + l * bc->sb[3];

		fn(ctx, ia, ib, io++);
	}
}
