// SPDX-License-Identifier: MIT
/*
 * bench-timing: the network cycles of each timing change, cumulatively
 * (Documentation/device-model.md, "Sources of the charges"). Each setting
 * opens its own sim device, because the device reads E1NPU_SIM_TIMING when
 * it opens.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <e1npu/e1npu.h>
#include <e1npu/e1npu_tflite.h>

#include "bench-input.h"
#include "bench-timing.h"
#include "e1_timing.h"

static const struct {
	const char *name;
	unsigned int add;	/* the change this setting adds */
} steps[] = {
	{ "first pin (0)", 0 },
	{ "+raw_input", E1_TIMING_G_RAW_INPUT },
	{ "+ws", E1_TIMING_G_WS },
	{ "+overlap", E1_TIMING_G_OVERLAP },
	{ "+acc", E1_TIMING_G_ACC },
	{ "+latency", E1_TIMING_G_LATENCY },
	{ "+store", E1_TIMING_G_STORE },
	{ "+pipe", E1_TIMING_G_PIPE },
	{ "+store_ov (default)", E1_TIMING_G_STORE_OV },
	/* an analysis, not a charge: the ring kept fed from layer to layer */
	{ "+xjob (analysis)", E1_TIMING_G_XJOB },
};

/* Cycles (wrapper + datapath) and MACs of one inference under @mask. */
static int run_one(const char *path, unsigned int mask, uint64_t *cyc,
		   uint64_t *macs, char *err, size_t errlen)
{
	struct e1npu_tflite_tensor_info ii;
	struct e1npu_device *dev;
	struct e1npu_tflite *t;
	char v[16];
	uint8_t *in;
	uint32_t nl;
	int ret;

	snprintf(v, sizeof(v), "%u", mask);
	if (setenv("E1NPU_SIM_TIMING", v, 1))
		return -1;
	ret = e1npu_device_open("sim", &dev);
	if (ret) {
		snprintf(err, errlen, "device sim: %s", e1npu_strerror(ret));
		return -1;
	}
	ret = e1npu_tflite_load_file(dev, path, NULL, &t, err, errlen);
	if (ret) {
		e1npu_device_close(dev);
		return -1;
	}
	e1npu_tflite_input_info(t, 0, &ii);
	e1npu_tflite_get_counts(t, NULL, NULL, &nl);
	in = bench_input(ii.bytes);	/* the same input as the main table */
	ret = !in || e1npu_tflite_set_input(t, 0, in, ii.bytes) ||
	      e1npu_tflite_invoke(t);
	if (ret) {
		snprintf(err, errlen, "invoke: %s", e1npu_tflite_last_error(t));
	} else {
		*cyc = *macs = 0;
		for (uint32_t l = 0; l < nl; l++) {
			struct e1npu_tflite_layer ly;

			e1npu_tflite_get_layer(t, l, &ly);
			*cyc += bench_layer_cycles(&ly);
			*macs += ly.report.macs;
		}
	}
	free(in);
	e1npu_tflite_free(t);
	e1npu_device_close(dev);
	return ret ? -1 : 0;
}

int bench_timing(int n, char **paths)
{
	const char *old = getenv("E1NPU_SIM_TIMING");
	char *saved = old ? strdup(old) : NULL;
	int fail = 0;

	printf("\ntiming changes, cumulative (E1NPU_SIM_TIMING; Documentation/device-model.md):\n");
	printf("%-30s %-20s %5s %11s %6s %11s %8s\n", "model", "setting", "mask",
	       "cycles", "util", "delta", "delta%");
	for (int i = 0; i < n; i++) {
		const char *b = strrchr(paths[i], '/');
		uint64_t prev = 0;
		unsigned int mask = 0;
		int len;

		b = b ? b + 1 : paths[i];
		len = (int)strlen(b);
		if (len > 7 && !strcmp(b + len - 7, ".tflite"))
			len -= 7;
		for (size_t s = 0; s < sizeof(steps) / sizeof(steps[0]); s++) {
			uint64_t cyc = 0, macs = 0;
			char err[256] = "";

			mask |= steps[s].add;
			if (run_one(paths[i], mask, &cyc, &macs, err, sizeof(err))) {
				printf("%-30.*s %-20s %#5x failed: %s\n", len, b,
				       steps[s].name, mask, err);
				fail = 1;
				break;
			}
			printf("%-30.*s %-20s %#5x %11llu %5.1f%% %+11lld %+7.1f%%\n",
			       len, b, steps[s].name, mask, (unsigned long long)cyc,
			       cyc ? 100.0 * (double)(macs / 256) / (double)cyc : 0.0,
			       s ? (long long)(cyc - prev) : 0LL,
			       s && prev ? 100.0 * ((double)cyc - (double)prev) / (double)prev : 0.0);
			prev = cyc;
		}
	}
	printf("util = MACs / 256 / cycles; delta = cycles vs the line above.\n");
	if (saved)
		setenv("E1NPU_SIM_TIMING", saved, 1);
	else
		unsetenv("E1NPU_SIM_TIMING");
	free(saved);
	return fail ? -1 : 0;
}
