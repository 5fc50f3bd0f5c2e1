/* SPDX-License-Identifier: MIT */
/*
 * bench-kinds: one network's modelled cycles and utilization per layer
 * kind (depthwise, pointwise 1x1, other convolutions, the rest) under the
 * device's own timing (the default charges), so a lowering change shows
 * where it gained. BENCH_MODELS_LAYERS=1 also prints every layer.
 */
#ifndef BENCH_KINDS_H
#define BENCH_KINDS_H

#include <e1npu/e1npu_tflite.h>

/* Print @t's per-kind rows (it must have been invoked) under @name. */
void bench_kinds(const struct e1npu_tflite *t, const char *name);

#endif /* BENCH_KINDS_H */
