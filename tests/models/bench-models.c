// SPDX-License-Identifier: MIT
/*
 * bench-models: whole quantized networks on the in-process NPU model.
 * Per model:
 * - modelled NPU cycles (wrapper + datapath perf deltas summed over
 *   layers), ideal cycles (MACs / 256, the 16x16 array), utilization,
 *   hardware operations, CPU fallbacks, layers run on the host, the
 *   modelled clock and observed_tops = MACs * 2 / (cycles / hz) / 1e12
 *   (the datapath document's report);
 * - the tensor arena: planned peak vs the lower bound (largest sum of
 *   simultaneously live tensors) and one buffer per tensor;
 * - host time per inference (wall: min and median of --reps; CPU
 *   time of the process: min), and the same for real TFLite 2.2 (--tflite
 *   libtensorflowlite_c.so, one thread) on the same input, their ratios,
 *   and whether the outputs are byte-identical.
 * usage: bench-models [--reps N] [--tflite SO | --no-tflite WHY] MODEL.tflite...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <e1npu/e1npu.h>
#include <e1npu/e1npu_tflite.h>

#include "bench-input.h"
#include "bench-layers.h"
#include "bench-tflite.h"
#include "bench-timing.h"
#include "e1_model.h"

struct result {
	char name[64];
	double ours_min, ours_med, tfl_min, tfl_med;	/* ms */
	double ours_cpu, tfl_cpu;	/* ms of process CPU time, minimum */
	int tfl;	/* 1: measured, 0: unavailable, -1: failed */
	int same;	/* outputs byte-identical */
	char why[200];
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* CPU time of the process (all threads): less disturbed than wall time on a busy host */
static uint64_t cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* min and median of @n samples (sorted in place) */
static void stats(double *v, int n, double *min, double *med)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	*min = v[0];
	*med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void base_name(const char *path, char *out, size_t len)
{
	const char *b = strrchr(path, '/');
	size_t n;

	snprintf(out, len, "%s", b ? b + 1 : path);
	n = strlen(out);
	if (n > 7 && !strcmp(out + n - 7, ".tflite"))
		out[n - 7] = 0;
}

static void arena_row(const char *name, const struct e1npu_tflite *t)
{
	struct e1npu_tflite_arena a;

	e1npu_tflite_get_arena(t, &a);
	printf("%-30s %7u %12llu %12llu %12llu %7.4f %7.2f\n", name, a.num_tensors,
	       (unsigned long long)a.unplanned_bytes, (unsigned long long)a.lower_bound,
	       (unsigned long long)a.total_bytes,
	       a.lower_bound ? (double)a.total_bytes / (double)a.lower_bound : 0.0,
	       a.total_bytes ? (double)a.unplanned_bytes / (double)a.total_bytes : 0.0);
}

/* Time @reps invokes of ours and of TFLite on the same input. */
static void time_model(struct e1npu_tflite *t, struct btfl *b, const char *path,
		       const uint8_t *in, size_t n, int reps, struct result *r)
{
	struct e1npu_tflite_tensor_info oi;
	double *v = calloc((size_t)reps, sizeof(double));
	uint8_t *o1, *o2;

	e1npu_tflite_output_info(t, 0, &oi);
	o1 = malloc(oi.bytes);
	o2 = malloc(oi.bytes);
	if (!v || !o1 || !o2) {
		r->tfl = -1;
		snprintf(r->why, sizeof(r->why), "out of memory");
		goto out;
	}
	r->ours_cpu = r->tfl_cpu = 1e30;
	for (int k = 0; k < reps; k++) {
		uint64_t t0 = now_ns(), c0 = cpu_ns();

		e1npu_tflite_invoke(t);
		v[k] = (double)(now_ns() - t0) / 1e6;
		if ((double)(cpu_ns() - c0) / 1e6 < r->ours_cpu)
			r->ours_cpu = (double)(cpu_ns() - c0) / 1e6;
	}
	stats(v, reps, &r->ours_min, &r->ours_med);
	e1npu_tflite_get_output(t, 0, o1, oi.bytes);
	if (!b)
		goto out;
	if (btfl_load(b, path, in, n, r->why, sizeof(r->why)) || btfl_invoke(b)) {
		r->tfl = -1;
		goto out;
	}
	for (int k = 0; k < reps; k++) {
		uint64_t t0 = now_ns(), c0 = cpu_ns();

		btfl_invoke(b);
		v[k] = (double)(now_ns() - t0) / 1e6;
		if ((double)(cpu_ns() - c0) / 1e6 < r->tfl_cpu)
			r->tfl_cpu = (double)(cpu_ns() - c0) / 1e6;
	}
	stats(v, reps, &r->tfl_min, &r->tfl_med);
	r->tfl = 1;
	r->same = !btfl_output(b, o2, oi.bytes) && !memcmp(o1, o2, oi.bytes);
	btfl_unload(b);
out:
	free(v);
	free(o1);
	free(o2);
}

int main(int argc, char **argv)
{
	struct e1_model_config cfg;
	struct e1npu_device *dev;
	struct result *res;
	struct btfl *b = NULL;
	const char *so = NULL, *notfl = "no --tflite given";
	char why[256] = "";
	int reps = 5, first = 1, ret;
	double hz;

	while (first < argc && !strncmp(argv[first], "--", 2)) {
		if (!strcmp(argv[first], "--reps") && first + 1 < argc) {
			reps = atoi(argv[first + 1]);
		} else if (!strcmp(argv[first], "--tflite") && first + 1 < argc) {
			so = argv[first + 1];
		} else if (!strcmp(argv[first], "--no-tflite") && first + 1 < argc) {
			notfl = argv[first + 1];
		} else {
			fprintf(stderr, "bench-models: unknown option %s\n", argv[first]);
			return 2;
		}
		first += 2;
	}
	if (first >= argc || reps < 1 || reps > 1000) {
		fprintf(stderr, "usage: bench-models [--reps 1..1000] [--tflite SO | --no-tflite WHY] MODEL.tflite...\n");
		return 2;
	}
	res = calloc((size_t)argc, sizeof(*res));
	ret = e1npu_device_open("sim", &dev);
	if (ret || !res) {
		fprintf(stderr, "bench-models: device sim: %s\n", e1npu_strerror(ret));
		return 1;
	}
	if (so) {
		b = btfl_open(so, why, sizeof(why));
		if (!b)
			notfl = why;
	}
	e1_model_default_config(&cfg);
	hz = cfg.timing.clock_mhz * 1e6;
	printf("bench-models: whole networks on device sim (modelled cycles at %u MHz; ideal = MACs/256)\n\n",
	       cfg.timing.clock_mhz);
	printf("%-30s %6s %11s %11s %10s %10s %6s %6s %9s %5s %8s %8s\n", "model", "layers",
	       "MACs", "cycles", "makespan", "ideal", "util", "hwops", "fallback", "host",
	       "npu_ms", "obs_TOPS");
	for (int i = first; i < argc; i++) {
		struct result *r = &res[i];
		struct e1npu_tflite_tensor_info ii;
		struct e1npu_tflite *t;
		char err[256];
		uint64_t cyc = 0, macs = 0, hw = 0, fb = 0;
		struct e1npu_perf p0, p1;
		uint32_t nl, host = 0;
		uint8_t *in;

		base_name(argv[i], r->name, sizeof(r->name));
		ret = e1npu_tflite_load_file(dev, argv[i], NULL, &t, err, sizeof(err));
		if (ret) {
			printf("%-30s load failed: %s\n", r->name, err);
			r->tfl = -2;
			continue;
		}
		e1npu_tflite_input_info(t, 0, &ii);
		e1npu_tflite_get_counts(t, NULL, NULL, &nl);
		in = bench_input(ii.bytes);
		memset(&p0, 0, sizeof(p0));
		memset(&p1, 0, sizeof(p1));
		e1npu_device_read_perf(dev, &p0);
		if (!in || e1npu_tflite_set_input(t, 0, in, ii.bytes) ||
		    e1npu_tflite_invoke(t)) {	/* also the warm-up */
			printf("%-30s invoke failed: %s\n", r->name, e1npu_tflite_last_error(t));
			r->tfl = -2;
			free(in);
			e1npu_tflite_free(t);
			continue;
		}
		e1npu_device_read_perf(dev, &p1);
		for (uint32_t l = 0; l < nl; l++) {
			struct e1npu_tflite_layer ly;

			e1npu_tflite_get_layer(t, l, &ly);
			cyc += bench_layer_cycles(&ly);
			macs += ly.report.macs;
			hw += ly.report.hw_ops;
			fb += ly.report.hw_ops_fallback;
			host += ly.report.engine == E1NPU_ENGINE_CPU;
		}
		printf("%-30s %6u %11llu %11llu %10llu %10llu %5.1f%% %6llu %9llu %5u %8.3f %8.4f\n",
		       r->name, nl, (unsigned long long)macs, (unsigned long long)cyc,
		       (unsigned long long)(p1.global_cycles - p0.global_cycles),
		       (unsigned long long)(macs / 256),
		       cyc ? 100.0 * (double)(macs / 256) / (double)cyc : 0.0,
		       (unsigned long long)hw, (unsigned long long)fb, host,
		       (double)cyc / hz * 1e3,
		       cyc ? (double)macs * 2 / ((double)cyc / hz) / 1e12 : 0.0);
		time_model(t, b, argv[i], in, ii.bytes, reps, r);
		free(in);
		e1npu_tflite_free(t);
	}
	printf("\ncycles = the engines' cycles summed over layers; makespan = the model's\n"
	       "global clock over the invoke (engines overlapping where the library\n"
	       "submits independent jobs; equal to cycles when nothing overlaps).\n");
	printf("host = layers run on the host CPU (no hardware form: average pool, softmax,\n"
	       "add, reshape, quantize, mean); fallback = hardware ops rejected to the CPU;\n"
	       "npu_ms = cycles / clock; obs_TOPS = MACs * 2 / (cycles / hz) / 1e12.\n\n");

	printf("convolution lowering per layer, first pin's timing (E1NPU_SIM_TIMING=0; MACs/256 = ideal)\n");
	for (int i = first; i < argc; i++) {
		struct e1npu_tflite_tensor_info ii;
		struct e1npu_tflite *t;
		uint8_t *in;

		if (res[i].tfl == -2 ||
		    e1npu_tflite_load_file(dev, argv[i], NULL, &t, NULL, 0))
			continue;
		e1npu_tflite_input_info(t, 0, &ii);
		e1npu_tflite_free(t);
		in = bench_input(ii.bytes);
		if (in)
			bench_layers(argv[i], res[i].name, in, ii.bytes);
		free(in);
	}

	printf("tensor arena (bytes): planned peak vs lower bound (largest sum of live tensors)\n");
	printf("%-30s %7s %12s %12s %12s %7s %7s\n", "model", "tensors", "unplanned",
	       "lower_bound", "planned", "ratio", "saving");
	for (int i = first; i < argc; i++) {
		struct e1npu_tflite *t;

		if (res[i].tfl == -2 ||
		    e1npu_tflite_load_file(dev, argv[i], NULL, &t, NULL, 0))
			continue;
		arena_row(res[i].name, t);
		e1npu_tflite_free(t);
	}
	printf("ratio = planned / lower bound; saving = unplanned / planned.\n\n");

	printf("host time per inference, ms over %d runs, one thread (TFLite 2.2: %s)\n", reps,
	       b ? so : notfl);
	printf("%-30s %8s %8s %8s %8s %9s %9s %8s %8s %7s %s\n", "model", "ours_min",
	       "ours_med", "tfl_min", "tfl_med", "ratio_min", "ratio_med", "ours_cpu",
	       "tfl_cpu", "r_cpu", "outputs");
	for (int i = first; i < argc; i++) {
		struct result *r = &res[i];

		if (r->tfl == -2)
			continue;
		if (r->tfl == 1)
			printf("%-30s %8.2f %8.2f %8.2f %8.2f %9.3f %9.3f %8.2f %8.2f %7.3f %s\n",
			       r->name, r->ours_min, r->ours_med, r->tfl_min, r->tfl_med,
			       r->ours_min / r->tfl_min, r->ours_med / r->tfl_med,
			       r->ours_cpu, r->tfl_cpu, r->ours_cpu / r->tfl_cpu,
			       r->same ? "identical" : "DIFFER");
		else
			printf("%-30s %8.2f %8.2f %8s %8s %9s %9s %8.2f %8s %7s TFLite %s: %s\n",
			       r->name, r->ours_min, r->ours_med, "-", "-", "-", "-", r->ours_cpu, "-", "-",
			       r->tfl ? "failed" : "skipped", r->tfl ? r->why : notfl);
	}
	printf("wall ms (min, median); ratio = ours / TFLite of the minimum and of the median\n"
	       "(lower is faster); *_cpu = least process CPU ms of one inference, r_cpu their\n"
	       "ratio (steadier than wall time on a busy host); outputs: output 0 of both\n"
	       "byte for byte on this input.\n");
	btfl_close(b);
	free(res);
	e1npu_device_close(dev);
	return bench_timing(argc - first, argv + first) ? 1 : 0;
}
