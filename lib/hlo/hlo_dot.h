/* SPDX-License-Identifier: MIT */
/*
 * Geometry of stablehlo.dot_general and stablehlo.dot: dimension numbers
 * read and checked once against the operand and result types, shared by
 * the CPU reference, the NPU placement and the NPU GEMM lowering.
 */
#ifndef __E1NPU_HLO_DOT_H__
#define __E1NPU_HLO_DOT_H__

#include "hlo.h"

struct hlo_dot {
	int nb, nc;			/* batching / contracting pairs */
	int nlf, nrf;			/* free (result) dimensions per side */
	int lb[HLO_MAX_RANK], rb[HLO_MAX_RANK];
	int lc[HLO_MAX_RANK], rc[HLO_MAX_RANK];
	int lf[HLO_MAX_RANK], rf[HLO_MAX_RANK];
	int64_t batch, m, n, k;		/* products of each group's sizes */
};

/*
 * Fill @g for @op over lhs @lt and rhs @rt; @ot (may be NULL) is checked
 * to be the result shape. 0, or -EINVAL with the reason in @h's error.
 */
int hlo_dot_geom(struct e1npu_hlo *h, const struct hlo_op *op,
		 const struct hlo_type *lt, const struct hlo_type *rt,
		 const struct hlo_type *ot, struct hlo_dot *g);

#endif /* __E1NPU_HLO_DOT_H__ */
