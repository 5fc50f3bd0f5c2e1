/* SPDX-License-Identifier: MIT */
/* Per-run latency as classify_image and inference_runner print it. */
#ifndef __E1NPU_TOOL_COMMON_LATENCY_H__
#define __E1NPU_TOOL_COMMON_LATENCY_H__

#include <stdint.h>

/*
 * struct latency - the first run (warm-up: allocation, first touch) apart,
 * then min/median/max of the others (n - 1 of them; all 0 when n is 1).
 */
struct latency {
	double first_ms, min_ms, median_ms, max_ms, mean_ms;
	unsigned int runs;	/* after the first */
};

/* latency_of() - from @n per-run times in ns (sorted in place). */
void latency_of(uint64_t *ns, unsigned int n, struct latency *l);

#endif
