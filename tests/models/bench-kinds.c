// SPDX-License-Identifier: MIT
/*
 * bench-kinds (bench-kinds.h): cycles and utilization per layer kind.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench-input.h"
#include "bench-kinds.h"

enum kind { K_DW, K_PW, K_CONV, K_OTHER, K_N };

static const char *const kind_name[K_N] = { "depthwise", "pointwise 1x1", "conv kxk", "other" };

/*
 * The kind of a layer with MACs: a CONV_2D is pointwise when its MACs are
 * one per output and input channel (shape "HxWxC->HxWxC'").
 */
static enum kind kind_of(const struct e1npu_tflite_layer *l)
{
	unsigned int ih, iw, ic, oh, ow, oc;

	if (!strcmp(l->op, "DEPTHWISE_CONV_2D"))
		return K_DW;
	if (strcmp(l->op, "CONV_2D"))
		return K_OTHER;
	if (sscanf(l->shape, "%ux%ux%u->%ux%ux%u", &ih, &iw, &ic, &oh, &ow, &oc) == 6 &&
	    l->report.macs == (uint64_t)oh * ow * oc * ic)
		return K_PW;
	return K_CONV;
}

static double util(uint64_t macs, uint64_t cyc)
{
	return cyc ? 100.0 * (double)(macs / 256) / (double)cyc : 0.0;
}

void bench_kinds(const struct e1npu_tflite *t, const char *name)
{
	uint64_t macs[K_N] = { 0 }, cyc[K_N] = { 0 }, ops[K_N] = { 0 }, all = 0;
	const char *v = getenv("BENCH_MODELS_LAYERS");
	int verbose = v && *v == '1';
	uint32_t nl = 0;

	e1npu_tflite_get_counts(t, NULL, NULL, &nl);
	for (uint32_t l = 0; l < nl; l++) {
		struct e1npu_tflite_layer ly;
		enum kind k;

		e1npu_tflite_get_layer(t, l, &ly);
		if (!ly.report.macs)
			continue;
		k = kind_of(&ly);
		macs[k] += ly.report.macs;
		cyc[k] += bench_layer_cycles(&ly);
		ops[k] += ly.report.hw_ops;
		all += bench_layer_cycles(&ly);
		if (verbose)
			printf("  %-28s %3u %-18s %-24s %10llu %6.1f%% %4llu  %.90s\n", name, l,
			       ly.op, ly.shape, (unsigned long long)bench_layer_cycles(&ly),
			       util(ly.report.macs, bench_layer_cycles(&ly)),
			       (unsigned long long)ly.report.hw_ops, ly.report.why);
	}
	for (int k = 0; k < K_N; k++) {
		if (!macs[k])
			continue;
		printf("%-30s %-14s %11llu %10llu %6.1f%% %6.1f%% %6llu\n", name, kind_name[k],
		       (unsigned long long)macs[k], (unsigned long long)cyc[k], util(macs[k], cyc[k]),
		       all ? 100.0 * (double)cyc[k] / (double)all : 0.0, (unsigned long long)ops[k]);
	}
}
