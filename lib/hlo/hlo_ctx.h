/* SPDX-License-Identifier: MIT */
/* The run context every layer reports to: errors and the work budget (hlo_ctx.c). */
#ifndef __E1NPU_HLO_CTX_H__
#define __E1NPU_HLO_CTX_H__

#include "hlo.h"

int hlo_errf(struct e1npu_hlo *h, int ret, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Charge @steps of CPU work of @op to the run: 0, or -E2BIG past its budget. */
int hlo_work(struct e1npu_hlo *h, const struct hlo_op *op, uint64_t steps);

#endif /* __E1NPU_HLO_CTX_H__ */
