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
 *   libtensorflowlite_c.so) and TFLite 2.14 (--tflite14, Debian's
 *   libtensorflow-lite.so.2.14.1), one thread each, in this process on the
 *   same input, their ratios, and whether each one's output 0 is
 *   byte-identical to ours (bench-host.c).
 * usage: bench-models [--reps N] [--tflite SO | --no-tflite WHY]
 *                     [--tflite14 SO | --no-tflite14 WHY] MODEL.tflite...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <e1npu/e1npu.h>
#include <e1npu/e1npu_tflite.h>

#include "bench-host.h"
#include "bench-input.h"
#include "bench-kinds.h"
#include "bench-layers.h"
#include "bench-tflite.h"
#include "bench-timing.h"
#include "e1_model.h"

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

#define USAGE "usage: bench-models [--reps 1..1000] [--tflite SO | --no-tflite WHY]\n" \
	"                    [--tflite14 SO | --no-tflite14 WHY] MODEL.tflite...\n"

/*
 * The options before the models into @reps and @refs; the index of the
 * first model, or -1 after a message naming the bad option or value
 * (0 for --help).
 */
/*
 * The model at PATH, loaded on DEV, and the bench's input for its first
 * input tensor (*BYTES of them, freed by the caller): 0, or -1 with nothing
 * held.
 */
static int model_input(struct e1npu_device *dev, const char *path,
		       struct e1npu_tflite **t, uint8_t **in, size_t *bytes)
{
	struct e1npu_tflite_tensor_info ii;

	if (e1npu_tflite_load_file(dev, path, NULL, t, NULL, 0))
		return -1;
	e1npu_tflite_input_info(*t, 0, &ii);
	*in = bench_input(ii.bytes);
	if (!*in) {
		e1npu_tflite_free(*t);
		return -1;
	}
	*bytes = ii.bytes;
	return 0;
}

static int parse_args(int argc, char **argv, int *reps, struct bench_ref *refs)
{
	int i = 1;

	for (; i < argc && !strncmp(argv[i], "--", 2); i += 2) {
		const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		struct bench_ref *r = strstr(o, "14") ? &refs[BENCH_REF_214] : &refs[BENCH_REF_22];
		char *end;
		long n;

		if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
			fputs(USAGE, stdout);
			return 0;
		}
		if (strcmp(o, "--reps") && strcmp(o, "--tflite") && strcmp(o, "--no-tflite") &&
		    strcmp(o, "--tflite14") && strcmp(o, "--no-tflite14")) {
			fprintf(stderr, "bench-models: unknown option '%s'\n" USAGE, o);
			return -1;
		}
		if (!v || !*v) {
			fprintf(stderr, "bench-models: %s needs a value\n" USAGE, o);
			return -1;
		}
		if (!strcmp(o, "--reps")) {
			n = strtol(v, &end, 10);
			if (*end || end == v || n < 1 || n > 1000) {
				fprintf(stderr, "bench-models: --reps '%s': not a whole number in 1..1000\n", v);
				return -1;
			}
			*reps = (int)n;
		} else if (!strncmp(o, "--no-", 5)) {
			r->why = v;
			r->so = NULL;
		} else {
			r->so = v;
		}
	}
	if (i >= argc) {
		fprintf(stderr, "bench-models: no MODEL.tflite given\n" USAGE);
		return -1;
	}
	return i;
}

/* dlopen each reference given; a missing one keeps its reason. */
static void open_refs(struct bench_ref *refs, char why[][256])
{
	for (int k = 0; k < BENCH_NREF; k++) {
		if (!refs[k].so)
			continue;
		refs[k].b = btfl_open(refs[k].so, why[k], sizeof(why[k]));
		if (!refs[k].b)
			refs[k].why = why[k];
	}
}

int main(int argc, char **argv)
{
	struct bench_ref refs[BENCH_NREF] = {
		[BENCH_REF_22] = { .label = "2.2", .why = "no --tflite given" },
		[BENCH_REF_214] = { .label = "2.14", .why = "no --tflite14 given" },
	};
	char why[BENCH_NREF][256];
	struct e1_model_config cfg;
	struct e1npu_device *dev;
	struct bench_host *res;
	int reps = 5, first, ret;
	double hz;

	first = parse_args(argc, argv, &reps, refs);
	if (first <= 0)
		return first ? 2 : 0;
	res = calloc((size_t)argc, sizeof(*res));
	ret = e1npu_device_open("sim", &dev);
	if (ret || !res) {
		fprintf(stderr, "bench-models: device sim: %s\n", e1npu_strerror(ret));
		return 1;
	}
	open_refs(refs, why);
	e1_model_default_config(&cfg);
	hz = cfg.timing.clock_mhz * 1e6;
	printf("bench-models: whole networks on device sim (modelled cycles at %u MHz; ideal = MACs/256)\n\n",
	       cfg.timing.clock_mhz);
	printf("%-30s %6s %11s %11s %10s %10s %6s %6s %9s %5s %8s %8s\n", "model", "layers",
	       "MACs", "cycles", "makespan", "ideal", "util", "hwops", "fallback", "host",
	       "npu_ms", "obs_TOPS");
	for (int i = first; i < argc; i++) {
		struct bench_host *r = &res[i];
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
		bench_host_time(t, refs, argv[i], in, ii.bytes, reps, r);
		free(in);
		e1npu_tflite_free(t);
	}
	printf("\ncycles = the engines' cycles summed over layers; makespan = the model's\n"
	       "global clock over the invoke (engines overlapping where the library\n"
	       "submits independent jobs; equal to cycles when nothing overlaps).\n");
	printf("host = layers run on the host CPU (no hardware form: average pool, softmax,\n"
	       "add, reshape, quantize, mean); fallback = hardware ops rejected to the CPU;\n"
	       "npu_ms = cycles / clock; obs_TOPS = MACs * 2 / (cycles / hz) / 1e12.\n\n");

	printf("layer kinds, default timing (cycles = wrapper + datapath; share = of the model's layer cycles)\n");
	printf("%-30s %-14s %11s %10s %7s %7s %6s\n", "model", "kind", "MACs", "cycles", "util",
	       "share", "hwops");
	for (int i = first; i < argc; i++) {
		struct e1npu_tflite *t;
		uint8_t *in;
		size_t bytes;

		if (!res[i].timed || model_input(dev, argv[i], &t, &in, &bytes))
			continue;
		if (!e1npu_tflite_set_input(t, 0, in, bytes) && !e1npu_tflite_invoke(t))
			bench_kinds(t, res[i].name);
		free(in);
		e1npu_tflite_free(t);
	}
	printf("\n");

	printf("convolution lowering per layer, first pin's timing (E1NPU_SIM_TIMING=0; MACs/256 = ideal)\n");
	for (int i = first; i < argc; i++) {
		struct e1npu_tflite *t;
		uint8_t *in;
		size_t bytes;

		if (!res[i].timed || model_input(dev, argv[i], &t, &in, &bytes))
			continue;
		e1npu_tflite_free(t);
		bench_layers(argv[i], res[i].name, in, bytes);
		free(in);
	}

	printf("tensor arena (bytes): planned peak vs lower bound (largest sum of live tensors)\n");
	printf("%-30s %7s %12s %12s %12s %7s %7s\n", "model", "tensors", "unplanned",
	       "lower_bound", "planned", "ratio", "saving");
	for (int i = first; i < argc; i++) {
		struct e1npu_tflite *t;

		if (!res[i].timed ||
		    e1npu_tflite_load_file(dev, argv[i], NULL, &t, NULL, 0))
			continue;
		arena_row(res[i].name, t);
		e1npu_tflite_free(t);
	}
	printf("ratio = planned / lower bound; saving = unplanned / planned.\n\n");

	bench_host_table(refs, res + first, argc - first, reps);
	for (int k = 0; k < BENCH_NREF; k++)
		btfl_close(refs[k].b);
	free(res);
	e1npu_device_close(dev);
	return bench_timing(argc - first, argv + first) ? 1 : 0;
}
