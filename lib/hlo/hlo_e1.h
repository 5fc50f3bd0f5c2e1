/* SPDX-License-Identifier: MIT */
/* The seed's records, custom_call @e1.<name> (hlo_e1.c). */
#ifndef __E1NPU_HLO_E1_H__
#define __E1NPU_HLO_E1_H__

#include "hlo.h"

int hlo_e1_known(const char *target);
const char *hlo_e1_api(const char *target);
int hlo_e1_eval(struct e1npu_hlo *h, const struct hlo_op *op, struct hlo_tensor *in,
		struct hlo_tensor *out);
int hlo_e1_npu(struct e1npu_hlo *h, struct hlo_op *op, struct hlo_tensor *in,
	       struct hlo_tensor *out);

#endif /* __E1NPU_HLO_E1_H__ */
