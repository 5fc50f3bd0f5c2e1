/* SPDX-License-Identifier: MIT */
/* NPU placement and execution (hlo_npu.c). */
#ifndef __E1NPU_HLO_NPU_H__
#define __E1NPU_HLO_NPU_H__

#include "hlo.h"

void hlo_place(struct e1npu_hlo *h, struct hlo_func *f);
int hlo_npu_run(struct e1npu_hlo *h, struct hlo_func *f, int oi,
		struct hlo_tensor *vals, struct hlo_tensor *out);
int hlo_npu_requant_fused(struct e1npu_hlo *h, const struct hlo_op *op,
			  const struct hlo_tensor *acc_q, struct hlo_tensor *out);

#endif /* __E1NPU_HLO_NPU_H__ */
