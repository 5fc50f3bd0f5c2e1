/* SPDX-License-Identifier: MIT */
/*
 * Geometry of stablehlo.convolution (dimension numbers, window, groups),
 * shared by the CPU reference and the NPU im2col lowering.
 */
#ifndef __E1NPU_HLO_CONV_H__
#define __E1NPU_HLO_CONV_H__

#include "hlo.h"

struct hlo_conv {
	int ns;				/* spatial dimensions */
	int lb, lf, ls[HLO_MAX_RANK];	/* lhs batch, feature, spatial */
	int ri, ro, rs[HLO_MAX_RANK];	/* rhs in/out feature, spatial */
	int ob, of, os[HLO_MAX_RANK];	/* result */
	int64_t stride[HLO_MAX_RANK], padlo[HLO_MAX_RANK], padhi[HLO_MAX_RANK];
	int64_t ldil[HLO_MAX_RANK], rdil[HLO_MAX_RANK];
	int64_t in_sp[HLO_MAX_RANK], k_sp[HLO_MAX_RANK], out_sp[HLO_MAX_RANK];
	int64_t fgc, bgc;		/* feature / batch group counts */
	int64_t ifg;			/* input features per group */
	int64_t ofg;			/* output features per group */
	int64_t out_batch, out_feat;
	int64_t npos, nwin;		/* output positions, window taps */
};

int hlo_conv_geom(struct e1npu_hlo *h, const struct hlo_op *op,
		  const struct hlo_type *lt, const struct hlo_type *rt,
		  const struct hlo_type *ot, struct hlo_conv *g);
void hlo_conv_pos(const struct hlo_conv *g, int64_t p, int64_t *os);
void hlo_conv_win(const struct hlo_conv *g, int64_t w, int64_t *ws);
/* 1 when the tap reads padding or a dilation hole, else *src is its offset. */
int hlo_conv_src(const struct hlo_conv *g, const int64_t *os, const int64_t *ws,
		 const int64_t *lst, int64_t *src);

#endif /* __E1NPU_HLO_CONV_H__ */
