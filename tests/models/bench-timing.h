/* SPDX-License-Identifier: MIT */
/*
 * bench-timing: whole networks under each Gemmini-following timing change
 * of the device model (E1NPU_SIM_TIMING), cumulatively.
 */
#ifndef BENCH_TIMING_H
#define BENCH_TIMING_H

/*
 * For each of the @n model files in @paths, run one inference on a fresh
 * "sim" device per cumulative setting (0 = the first pin's charges, then
 * each change added in turn up to the default) and print one line per
 * setting: model, setting, cycles, utilization, change vs the previous.
 * Returns 0, or -1 when a model failed to load or run under some setting.
 */
int bench_timing(int n, char **paths);

#endif
