// SPDX-License-Identifier: MIT
/*
 * The tools' layer totals (layers.h): e1npu-classify and e1npu-tflite
 * print the same sums, so they add them up the same way.
 */
#include <string.h>

#include <e1npu/e1npu_tflite.h>

#include "layers.h"

void layer_totals_of(const struct e1npu_tflite *t, uint32_t n, struct layer_totals *tot)
{
	memset(tot, 0, sizeof(*tot));
	for (uint32_t i = 0; i < n; i++) {
		struct e1npu_tflite_layer l;

		e1npu_tflite_get_layer(t, i, &l);
		tot->wrapper_cycles += l.report.wrapper_cycles;
		tot->dp_cycles += l.report.dp_cycles;
		tot->macs += l.report.macs;
		tot->hw_ops += l.report.hw_ops;
		tot->hw_ops_fallback += l.report.hw_ops_fallback;
	}
}
