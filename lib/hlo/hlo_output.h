/* SPDX-License-Identifier: MIT */
/* The results kept from a run (hlo_output.c). */
#ifndef __E1NPU_HLO_OUTPUT_H__
#define __E1NPU_HLO_OUTPUT_H__

#include "hlo.h"

/* Drop the results kept from the last run. */
void hlo_outputs_clear(struct e1npu_hlo *h);

#endif /* __E1NPU_HLO_OUTPUT_H__ */
