/* SPDX-License-Identifier: MIT */
/*
 * Broadcasting of two operands of rank <= 4 against their output (numpy's
 * rule, aligned on the last axis, as TFLite's Broadcast*4DSlow kernels):
 * the elementwise MUL, SUB, MAXIMUM and MINIMUM walk the output and read
 * each operand at its broadcast index.
 */
#ifndef E1NPU_TFLITE_BCAST_H
#define E1NPU_TFLITE_BCAST_H

#include <stddef.h>
#include <stdint.h>

struct tfl_bcast {
	int32_t out[4];		/* output shape, extended to 4-D */
	size_t sa[4], sb[4];	/* operand strides per output axis, 0 where broadcast */
};

/* 0, or -EINVAL when a dimension is neither equal nor 1, or the output differs. */
int tfl_bcast_prepare(struct tfl_bcast *bc, const int32_t *da, uint32_t na,
		      const int32_t *db, uint32_t nb, const int32_t *dout, uint32_t nout);

/* @fn(@ctx, index in a, index in b, index in the output), in output order. */
void tfl_bcast_for_each(const struct tfl_bcast *bc,
			void (*fn)(void *ctx, size_t ia, size_t ib, size_t io), void *ctx);

#endif
