/* SPDX-License-Identifier: MIT */
/*
 * The input every bench-models table runs on (a fixed hash of the byte
 * index, so every table and run sees the same bytes), and the modelled
 * cycles of one layer.
 */
#ifndef BENCH_INPUT_H
#define BENCH_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <e1npu/e1npu_tflite.h>

/* @n bytes of the bench input (malloc'ed; NULL when out of memory). */
static inline uint8_t *bench_input(size_t n)
{
	uint8_t *in = malloc(n ? n : 1);

	for (size_t k = 0; in && k < n; k++)
		in[k] = (uint8_t)(k * 2654435761u >> 24);
	return in;
}

/* Wrapper + datapath cycles of one layer's report. */
static inline uint64_t bench_layer_cycles(const struct e1npu_tflite_layer *l)
{
	return l->report.wrapper_cycles + l->report.dp_cycles;
}

#endif /* BENCH_INPUT_H */
