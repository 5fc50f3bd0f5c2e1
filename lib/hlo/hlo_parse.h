/* SPDX-License-Identifier: MIT */
/* The MLIR text parser (hlo_parse.c). */
#ifndef __E1NPU_HLO_PARSE_H__
#define __E1NPU_HLO_PARSE_H__

#include "hlo.h"

int hlo_parse(struct e1npu_hlo *h, const char *text, size_t len);
int hlo_parse_elem_type(const char *s, struct hlo_type *t);

#endif /* __E1NPU_HLO_PARSE_H__ */
