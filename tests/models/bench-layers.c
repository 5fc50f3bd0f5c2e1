// SPDX-License-Identifier: MIT
/*
 * bench-layers (bench-layers.h): one network invoked twice on the same
 * device model, once per convolution lowering, layer by layer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <e1npu/e1npu_tflite.h>

#include "bench-input.h"
#include "bench-layers.h"

struct run {
	struct e1npu_tflite *t;
	uint8_t *out;
	size_t out_bytes;
};

/* Load and invoke @path with E1NPU_OPS_LOWERING=@mode (NULL: unset). */
static int run_once(struct e1npu_device *dev, const char *path, const char *mode,
		    const uint8_t *in, size_t n, struct run *r)
{
	struct e1npu_tflite_tensor_info oi;
	char err[256];
	int ret;

	if (mode)
		setenv("E1NPU_OPS_LOWERING", mode, 1);
	else
		unsetenv("E1NPU_OPS_LOWERING");
	ret = e1npu_tflite_load_file(dev, path, NULL, &r->t, err, sizeof(err));
	unsetenv("E1NPU_OPS_LOWERING");
	if (ret) {
		printf("  load (%s) failed: %s\n", mode ? mode : "auto", err);
		return -1;
	}
	if (e1npu_tflite_set_input(r->t, 0, in, n) || e1npu_tflite_invoke(r->t) ||
	    e1npu_tflite_output_info(r->t, 0, &oi)) {
		printf("  invoke (%s) failed: %s\n", mode ? mode : "auto",
		       e1npu_tflite_last_error(r->t));
		return -1;
	}
	r->out_bytes = oi.bytes;
	r->out = malloc(oi.bytes);
	if (!r->out || e1npu_tflite_get_output(r->t, 0, r->out, oi.bytes))
		return -1;
	return 0;
}

static double util(uint64_t macs, uint64_t cyc)
{
	return cyc ? 100.0 * (double)(macs / 256) / (double)cyc : 0.0;
}

/* The form in a few words: "MATMUL 4x8 g1 K60" or "CONV2D". */
static void form_of(const char *why, char *buf, size_t len)
{
	const char *m = strstr(why, "patch-Toeplitz MATMULs (");
	const char *pk = strstr(why, "patch-Toeplitz CONV2Ds (");
	const char *k = m ? strstr(m, ", K ") : pk ? strstr(pk, ", K ") : NULL;
	unsigned int bh, bw, gs;

	if (k && m && sscanf(m, "patch-Toeplitz MATMULs (%ux%u outputs x %u", &bh, &bw, &gs) == 3)
		snprintf(buf, len, "MATMUL %ux%u g%u K%lu", bh, bw, gs, strtoul(k + 4, NULL, 10));
	else if (k && pk && sscanf(pk, "patch-Toeplitz CONV2Ds (%ux%u outputs x %u", &bh, &bw, &gs) == 3)
		snprintf(buf, len, "PACKED %ux%u g%u K%lu", bh, bw, gs, strtoul(k + 4, NULL, 10));
	else if (strstr(why, "conv blocks"))
		snprintf(buf, len, "CONV2D");
	else
		snprintf(buf, len, "-");
}

int bench_layers(const char *path, const char *name, const uint8_t *in, size_t n)
{
	struct run a = { 0 }, b = { 0 };
	uint64_t tot_a = 0, tot_b = 0, macs = 0;
	struct e1npu_device *dev = NULL;
	uint32_t nl = 0;
	int ret = -1;

	printf("%s: per layer, first lowering -> per-layer choice\n", name);
	/* today's charges on the device, and so in the lowering's cost model */
	setenv("E1NPU_SIM_TIMING", "0", 1);
	ret = e1npu_device_open("sim", &dev);
	unsetenv("E1NPU_SIM_TIMING");
	if (ret) {
		printf("  device sim (E1NPU_SIM_TIMING=0): %s\n", e1npu_strerror(ret));
		return -1;
	}
	ret = -1;
	if (run_once(dev, path, "first", in, n, &a) || run_once(dev, path, NULL, in, n, &b))
		goto out;
	e1npu_tflite_get_counts(b.t, NULL, NULL, &nl);
	printf("  %-5s %-18s %-22s %11s %9s %9s %6s %6s %s\n", "layer", "op", "shape", "MACs",
	       "before", "after", "u_bef", "u_aft", "form (after)");
	for (uint32_t l = 0; l < nl; l++) {
		struct e1npu_tflite_layer la, lb;
		char form[48];

		e1npu_tflite_get_layer(a.t, l, &la);
		e1npu_tflite_get_layer(b.t, l, &lb);
		tot_a += bench_layer_cycles(&la);
		tot_b += bench_layer_cycles(&lb);
		macs += lb.report.macs;
		if (!lb.report.macs)
			continue;
		form_of(lb.report.why, form, sizeof(form));
		printf("  %-5u %-18s %-22s %11llu %9llu %9llu %5.1f%% %5.1f%% %s\n", l, lb.op,
		       lb.shape, (unsigned long long)lb.report.macs,
		       (unsigned long long)bench_layer_cycles(&la), (unsigned long long)bench_layer_cycles(&lb),
		       util(lb.report.macs, bench_layer_cycles(&la)), util(lb.report.macs, bench_layer_cycles(&lb)), form);
	}
	printf("  total: %llu -> %llu cycles (%.1f%% -> %.1f%% of 256 MAC/cycle, %.2fx); outputs %s\n\n",
	       (unsigned long long)tot_a, (unsigned long long)tot_b, util(macs, tot_a),
	       util(macs, tot_b), tot_b ? (double)tot_a / (double)tot_b : 0.0,
	       a.out_bytes == b.out_bytes && !memcmp(a.out, b.out, a.out_bytes) ?
	       "identical" : "DIFFER");
	ret = 0;
out:
	e1npu_tflite_free(a.t);
	e1npu_tflite_free(b.t);
	free(a.out);
	free(b.out);
	e1npu_device_close(dev);
	return ret;
}
