/* SPDX-License-Identifier: MIT */
/* e1npu-hlo: a result's values as text or JSON, nested by its shape. */
#ifndef __E1NPU_HLO_VALUES_H__
#define __E1NPU_HLO_VALUES_H__

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <e1npu/e1npu_hlo.h>

/*
 * values_print() - @data (e1npu_hlo_get_output()'s bytes of @o) as nested
 * lists, "[[7, -5], [-8, 11]]"; in @json, non-finite floats are strings.
 */
void values_print(FILE *f, const struct e1npu_hlo_output *o, const uint8_t *data, bool json);

#endif
