/* SPDX-License-Identifier: MIT */
/*
 * bench-layers: per layer, the first lowering (E1NPU_OPS_LOWERING=first)
 * against today's (per-layer choice by modelled cycles) under the timing
 * model the lowering work was measured against (E1NPU_SIM_TIMING=0, the
 * first pin's charges), on one input, with the outputs compared.
 */
#ifndef BENCH_LAYERS_H
#define BENCH_LAYERS_H

#include <stddef.h>
#include <stdint.h>

#include <e1npu/e1npu.h>

/* Print the per-layer table of @path; 0, or -1 with a line printed. */
int bench_layers(const char *path, const char *name, const uint8_t *in, size_t n);

#endif /* BENCH_LAYERS_H */
