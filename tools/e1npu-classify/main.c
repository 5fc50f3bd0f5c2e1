// SPDX-License-Identifier: MIT
/*
 * e1npu-classify: classify an image (BMP, PNG, JPEG) with a quantized TFLite model on
 * the e1 NPU (libe1npu's TFLite interpreter, include/e1npu/e1npu_tflite.h).
 * Documentation/tflite.md.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <e1npu/e1npu.h>
#include <e1npu/e1npu_tflite.h>

#include "cli.h"
#include "device.h"
#include "errout.h"
#include "files.h"
#include "image.h"
#include "labels.h"
#include "layers.h"
#include "latency.h"
#include "plan.h"
#include "progress.h"
#include "resize.h"
#include "trace-opt.h"


#define TOP_MAX		100000u
#define REPEAT_MAX	100000u


struct args {
	const char *model, *image, *tensor, *labels, *device, *raw_out, *trace;
	unsigned int top, repeat;
	double crop;
	int cpu, json, layers, plan;
};

static void usage(FILE *f)
{
	fprintf(f,
"Usage: e1npu-classify -m MODEL.tflite (-i IMAGE | --input-tensor FILE) [options]\n"
"       e1npu-classify -m MODEL.tflite --plan [--json]\n"
"Classify an image with a quantized TFLite model on the e1 NPU.\n\n"
"  -m, --model FILE     quantized .tflite model (uint8 or int8)\n"
"  -i, --image FILE     PNG, JPEG or 24-bit uncompressed BMP; resized as\n"
"                       tf.image.resize (bilinear, float32) to the model's input\n"
"      --input-tensor F the input tensor's raw bytes instead of an image (its\n"
"                       size must be the tensor's: H x W x 3 bytes)\n"
"  -l, --labels FILE    one label per line, line N = class N; a file one line\n"
"                       short (no \"background\" line) starts at class 1\n"
"  -n, --top N          print the N best classes, 1 to 100000 (default 5)\n"
"  -d, --device SPEC    sim, /dev/accel/accelN (default: $E1NPU_DEVICE or auto)\n"
"      --cpu            run the naive CPU reference kernels instead of the NPU\n"
"                       (no device: not with -d)\n"
"      --layers         print the per-layer table (engine, why, cycles)\n"
"      --json           machine-readable output\n"
"      --raw-output F   write the output tensor's bytes to F\n"
"      --crop F         keep the central fraction F of the image first, above\n"
"                       0.05 and at most 1 (0.875 = Inception preprocessing);\n"
"                       default 1 (whole)\n"
"      --repeat N       invoke N times, 1 to 100000 (default 1): the first run's\n"
"                       latency, then min/median/max of the others\n"
"      --plan           print the tensor arena plan (offsets, roles, shapes,\n"
"                       dtypes, total bytes) and exit; not with -i\n"
"      --trace FILE     a timeline trace of the run (Chrome trace-event JSON:\n"
"                       host spans, device spans per engine) to FILE; takes\n"
"                       precedence over $E1NPU_TRACE\n"
"  -h, --help           this help\n"
"  -V, --version        version\n\n"
"Exit status: 0 success, 1 the run failed (device, inference, output),\n"
"2 bad usage or input (options, model, image, labels, environment).\n");
}

/* A whole number in [1, @max] for option @opt, else a message and 2. */
static int parse_count(bool json, const char *opt, const char *s, unsigned int max,
		       unsigned int *v)
{
	char *end;
	unsigned long x;

	errno = 0;
	x = strtoul(s, &end, 10);
	if (errno || *end || !*s || *s == '-' || *s == '+' || x < 1 || x > max) {
		cls_error(json, "%s: '%s' is not a whole number from 1 to %u", opt, s, max);
		return EXIT_USAGE;
	}
	*v = (unsigned int)x;
	return 0;
}

/* The same option twice would silently keep the last one. */
static int parse_args(int argc, char **argv, struct args *a)
{
	static const struct option lopts[] = {
		{ "model", required_argument, NULL, 'm' },
		{ "image", required_argument, NULL, 'i' },
		{ "input-tensor", required_argument, NULL, 'T' },
		{ "labels", required_argument, NULL, 'l' },
		{ "top", required_argument, NULL, 'n' },
		{ "device", required_argument, NULL, 'd' },
		{ "cpu", no_argument, NULL, 'c' },
		{ "layers", no_argument, NULL, 'L' },
		{ "json", no_argument, NULL, 'j' },
		{ "raw-output", required_argument, NULL, 'r' },
		{ "repeat", required_argument, NULL, 'R' },
		{ "crop", required_argument, NULL, 'C' },
		{ "plan", no_argument, NULL, 'P' },
		{ "trace", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	bool json = a->json;
	int c, r = 0;
	char *end;

	while (!r && (c = getopt_long(argc, argv, "m:i:l:n:d:hV", lopts, NULL)) != -1) {
		switch (c) {
		case 'm': r = cli_set_once(json, "-m/--model", &a->model, optarg); break;
		case 'i': r = cli_set_once(json, "-i/--image", &a->image, optarg); break;
		case 'T': r = cli_set_once(json, "--input-tensor", &a->tensor, optarg); break;
		case 'l': r = cli_set_once(json, "-l/--labels", &a->labels, optarg); break;
		case 'd': r = cli_set_once(json, "-d/--device", &a->device, optarg); break;
		case 'r': r = cli_set_once(json, "--raw-output", &a->raw_out, optarg); break;
		case 't': r = cli_set_once(json, "--trace", &a->trace, optarg); break;
		case 'c': a->cpu = 1; break;
		case 'L': a->layers = 1; break;
		case 'j': a->json = 1; break;
		case 'P': a->plan = 1; break;
		case 'C':
			errno = 0;
			a->crop = strtod(optarg, &end);
			if (errno || *end || !*optarg || !(a->crop > 0.05 && a->crop <= 1.0)) {
				cls_error(json, "--crop: '%s' is not a fraction above 0.05 and at most 1",
					  optarg);
				r = EXIT_USAGE;
			}
			break;
		case 'n': r = parse_count(json, "-n/--top", optarg, TOP_MAX, &a->top); break;
		case 'R': r = parse_count(json, "--repeat", optarg, REPEAT_MAX, &a->repeat); break;
		case 'h': exit(cli_help_or_version(false, usage));
		case 'V': exit(cli_help_or_version(true, usage));
		default:
			/* getopt said what was wrong on stderr */
			return cli_bad_option(json);
		}
	}
	if (r)
		return r;
	if (optind != argc) {
		cls_error(json, "unexpected argument '%s'", argv[optind]);
		return EXIT_USAGE;
	}
	if (a->cpu && a->device) {
		cls_error(json, "--cpu runs without a device: not with -d/--device '%s'", a->device);
		return EXIT_USAGE;
	}
	if (a->image && a->tensor) {
		cls_error(json, "-i/--image and --input-tensor are two inputs: give one");
		return EXIT_USAGE;
	}
	if (a->plan && (a->image || a->tensor || a->raw_out || a->labels || a->layers ||
			a->repeat != 1 || a->trace)) {
		cls_error(json, "--plan prints the model's arena plan and runs nothing: not with %s",
			  a->image ? "-i/--image" : a->tensor ? "--input-tensor" :
			  a->raw_out ? "--raw-output" : a->labels ? "-l/--labels" :
			  a->layers ? "--layers" : a->trace ? "--trace" : "--repeat");
		return EXIT_USAGE;
	}
	if (!a->model || (!a->plan && !a->image && !a->tensor)) {
		cls_error(json, "missing %s; try 'e1npu-classify --help'",
			  !a->model ? "-m MODEL.tflite" : "-i IMAGE (or --input-tensor FILE)");
		return EXIT_USAGE;
	}
	return 0;
}

struct rank {
	int q;
	unsigned int idx;
};

static int rank_cmp(const void *pa, const void *pb)
{
	const struct rank *x = pa, *y = pb;

	if (x->q != y->q)
		return x->q > y->q ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The input tensor's bytes: an image resized, or a raw file of its size. */
static int make_input(const struct args *a, const struct e1npu_tflite_tensor_info *ii,
		      uint8_t *in)
{
	char err[512];
	int ret;

	if (a->tensor) {
		void *data;
		size_t size;

		if (cls_read_file(a->tensor, &data, &size, err, sizeof(err))) {
			cls_error(a->json, "--input-tensor %s", err);
			return EXIT_USAGE;
		}
		if (size != ii->bytes) {
			cls_error(a->json, "--input-tensor %s is %zu bytes, the model's input "
				  "tensor [%u,%u,%u,%u] %s is %zu bytes", a->tensor, size,
				  ii->dims[0], ii->dims[1], ii->dims[2], ii->dims[3],
				  ii->dtype == E1NPU_DTYPE_INT8 ? "int8" : "uint8", ii->bytes);
			free(data);
			return EXIT_USAGE;
		}
		memcpy(in, data, size);
		free(data);
		return 0;
	}
	{
		struct image img = { 0 };
		float *rs = NULL;

		ret = image_load(a->image, &img, err, sizeof(err));
		if (ret) {
			cls_file_error(a->json, a->image, err);
			return EXIT_USAGE;
		}
		if (a->crop < 1.0)
			ret = image_center_crop(&img, a->crop);
		if (!ret) {
			rs = calloc(ii->bytes, sizeof(*rs));
			ret = rs ? resize_bilinear_f32(&img, ii->dims[2], ii->dims[1], rs) : -ENOMEM;
		}
		/* uint8: the resized values cast; int8: shifted by -128 then cast
		 * (TFLite's label_image). */
		if (!ret)
			resize_to_input(rs, ii->bytes, ii->dtype == E1NPU_DTYPE_INT8, in);
		free(rs);
		image_free(&img);
		if (ret) {
			cls_error(a->json, "%s: %s", a->image, e1npu_strerror(ret));
			return EXIT_RUN;
		}
	}
	return 0;
}

/* -l: read and match the class count; no -l: say how to get names. */
static int load_labels(const struct args *a, unsigned int ncls, struct labels *lb)
{
	char err[512], note[512];

	if (!a->labels)
		return 0;	/* said with the results (labels_hint) */
	if (labels_load(a->labels, lb, err, sizeof(err)) ||
	    labels_match(lb, a->labels, ncls, note, sizeof(note), err, sizeof(err))) {
		cls_error(a->json, "%s", err);
		return EXIT_USAGE;
	}
	if (note[0])
		fprintf(stderr, "e1npu-classify: %s\n", note);
	return 0;
}

/* No -l: the results show indices; say how to get names (after them). */
static void labels_hint(const struct args *a)
{
	if (!a->labels && !a->json)
		fprintf(stderr, "e1npu-classify: no labels: classes are shown by index; "
			"-l FILE names them (imagenet_labels.txt beside the ImageNet "
			"models, ../shared/models/ next to a checkout)\n");
}

/* --repeat: every run timed apart (the first one is the warm-up). */
static int invoke_runs(struct e1npu_tflite *t, unsigned int n, uint64_t *ns)
{
	int ret = 0;

	progress_start();
	for (unsigned int r = 0; r < n && !ret; r++) {
		uint64_t t0 = now_ns();

		if (n > 1)
			progress_step(r + 1, n, "invoke");
		ret = e1npu_tflite_invoke(t);
		ns[r] = now_ns() - t0;
	}
	progress_end();
	return ret;
}

static void print_layers(const struct args *a, struct e1npu_tflite *t, uint32_t nlayers,
			 const struct layer_totals *tot)
{
	if (a->json)
		printf(",\"layers\":[");
	else
		printf("\n%-5s %-18s %-22s %-8s %10s %10s %6s %8s  %s\n", "layer", "op",
		       "shape", "engine", "macs", "cycles", "descs", "ms", "why");
	for (uint32_t i = 0; i < nlayers; i++) {
		struct e1npu_tflite_layer l;

		e1npu_tflite_get_layer(t, i, &l);
		if (a->json) {
			printf("%s{\"layer\":%u,\"op\":\"%s\",\"shape\":\"%s\",\"engine\":\"%s\","
			       "\"macs\":%llu,\"wrapper_cycles\":%llu,\"dp_cycles\":%llu,"
			       "\"hw_ops\":%u,\"fallback\":%u,\"ms\":%.3f,\"why\":",
			       i ? "," : "", i, l.op, l.shape,
			       e1npu_engine_name(l.report.engine),
			       (unsigned long long)l.report.macs,
			       (unsigned long long)l.report.wrapper_cycles,
			       (unsigned long long)l.report.dp_cycles, l.report.hw_ops,
			       l.report.hw_ops_fallback, l.wall_ns / 1e6);
			cls_json_str(l.report.why);
			printf("}");
		} else {
			printf("%-5u %-18s %-22s %-8s %10llu %10llu %6u %8.3f  %s\n", i, l.op,
			       l.shape, e1npu_engine_name(l.report.engine),
			       (unsigned long long)l.report.macs,
			       (unsigned long long)(l.report.wrapper_cycles + l.report.dp_cycles),
			       l.report.hw_ops, l.wall_ns / 1e6, l.report.why);
		}
	}
	if (a->json)
		printf("]");
	else
		printf("total: %llu MACs, %llu modelled cycles (ideal %llu = MACs/256, utilization %.1f%%), "
		       "%llu hardware ops, %llu CPU fallbacks\n",
		       (unsigned long long)tot->macs,
		       (unsigned long long)(tot->wrapper_cycles + tot->dp_cycles),
		       (unsigned long long)(tot->macs / 256),
		       tot->wrapper_cycles + tot->dp_cycles ?
		       100.0 * (double)(tot->macs / 256) /
		       (double)(tot->wrapper_cycles + tot->dp_cycles) : 0.0,
		       (unsigned long long)tot->hw_ops, (unsigned long long)tot->hw_ops_fallback);
}

static void print_result(const struct args *a, struct e1npu_tflite *t, const char *devname,
			 const struct e1npu_tflite_tensor_info *ii,
			 const struct e1npu_tflite_tensor_info *oi, uint32_t nlayers,
			 const uint8_t *out, const unsigned int *order, unsigned int ncls,
			 const struct labels *lb, const struct latency *lat)
{
	const char *path = a->cpu ? "reference" : "npu";
	struct layer_totals tot;

	layer_totals_of(t, nlayers, &tot);
	if (a->json) {
		printf("{\"model\":");
		cls_json_str(a->model);
		printf(",\"%s\":", a->tensor ? "input_tensor" : "image");
		cls_json_str(a->tensor ? a->tensor : a->image);
		printf(",\"device\":");
		cls_json_str(devname);
		printf(",\"path\":\"%s\",\"input\":[%u,%u,%u,%u],\"layers_count\":%u,"
		       "\"host_ms\":%.3f,\"latency_ms\":{\"first\":%.3f,\"runs\":%u,"
		       "\"min\":%.3f,\"median\":%.3f,\"max\":%.3f},"
		       "\"wrapper_cycles\":%llu,\"dp_cycles\":%llu,"
		       "\"macs\":%llu,\"hw_ops\":%llu,\"hw_ops_fallback\":%llu,\"top\":[",
		       path, ii->dims[0], ii->dims[1], ii->dims[2], ii->dims[3], nlayers,
		       lat->mean_ms, lat->first_ms, lat->runs, lat->min_ms, lat->median_ms,
		       lat->max_ms, (unsigned long long)tot.wrapper_cycles,
		       (unsigned long long)tot.dp_cycles, (unsigned long long)tot.macs,
		       (unsigned long long)tot.hw_ops, (unsigned long long)tot.hw_ops_fallback);
	} else {
		printf("model %s: input %ux%ux%u %s, %u layers, device %s, path %s, %.1f ms/inference\n",
		       a->model, ii->dims[1], ii->dims[2], ii->dims[3],
		       ii->dtype == E1NPU_DTYPE_INT8 ? "int8" : "uint8", nlayers,
		       devname, path, lat->mean_ms);
		if (lat->runs)
			printf("latency: first run %.3f ms, then %u runs: min %.3f, median %.3f, max %.3f ms\n",
			       lat->first_ms, lat->runs, lat->min_ms, lat->median_ms, lat->max_ms);
	}
	for (unsigned int i = 0; i < a->top && i < ncls; i++) {
		unsigned int k = order[i];
		int q = oi->dtype == E1NPU_DTYPE_INT8 ? (int8_t)out[k] : out[k];
		double score = oi->scale * (q - oi->zero_point);
		const char *name = labels_name(lb, k);

		if (a->json) {
			printf("%s{\"rank\":%u,\"index\":%u,\"label\":", i ? "," : "", i + 1, k);
			if (name)
				cls_json_str(name);
			else
				printf("null");
			printf(",\"score\":%.6f,\"q\":%d}", score, q);
		} else {
			printf("%2u  %.5f  %4u  %s\n", i + 1, score, k, name ? name : "?");
		}
	}
	if (a->json)
		printf("]");
	if (a->layers)
		print_layers(a, t, nlayers, &tot);
	if (a->json)
		printf("}\n");
}

int main(int argc, char **argv)
{
	struct args a = { .top = 5, .repeat = 1, .crop = 1.0 };
	struct e1npu_tflite_options topt = { 0 };
	struct e1npu_tflite_tensor_info ii, oi;
	struct e1npu_device *dev = NULL;
	struct e1npu_tflite *t = NULL;
	struct labels lb = { 0 };
	struct latency lat;
	char err[512], devname[64] = "cpu";
	unsigned int ncls, *order = NULL;
	uint32_t nlayers = 0;
	uint8_t *in = NULL, *out = NULL;
	uint64_t *ns = NULL;
	int ret, status;

	cls_set_prog("e1npu-classify");
	a.json = cls_json_requested(argc, argv);
	status = parse_args(argc, argv, &a);
	if (!status && e1npu_env_check(err, sizeof(err))) {
		cls_error(a.json, "%s", err);
		status = EXIT_USAGE;
	}
	if (status) {
		cls_close_stdout();
		return status;
	}
	if (a.plan) {
		status = cls_print_plan(a.model, a.device, a.cpu, a.json);
		return cls_close_stdout() ? EXIT_RUN : status;
	}
	status = cli_trace_start(a.json, a.trace);
	if (status) {
		cls_close_stdout();
		return status;
	}
	status = EXIT_RUN;
	if (a.cpu)
		topt.path = E1NPU_TFLITE_PATH_REFERENCE;
	else if (cls_open_device(a.device, a.json, &dev, devname, sizeof(devname)))
		goto out;
	ret = e1npu_tflite_load_file(dev, a.model, &topt, &t, err, sizeof(err));
	if (ret) {
		cls_file_error(a.json, a.model, err);
		status = EXIT_USAGE;
		goto out;
	}
	if ((ret = e1npu_tflite_input_info(t, 0, &ii)) ||
	    (ret = e1npu_tflite_output_info(t, 0, &oi))) {
		cls_error(a.json, "%s: %s", a.model, e1npu_tflite_last_error(t));
		status = EXIT_USAGE;
		goto out;
	}
	e1npu_tflite_get_counts(t, NULL, NULL, &nlayers);
	if (ii.ndims != 4 || ii.dims[0] != 1 || ii.dims[3] != 3) {
		cls_error(a.json, "%s: model input is not [1,H,W,3]", a.model);
		status = EXIT_USAGE;
		goto out;
	}
	if (ii.dtype == E1NPU_DTYPE_FLOAT32 || oi.dtype == E1NPU_DTYPE_FLOAT32) {
		cls_error(a.json, "%s: model %s is float32: e1npu-classify takes uint8/int8 "
			  "image inputs and scores (e1npu-tflite run takes float32 tensors)", a.model,
			  ii.dtype == E1NPU_DTYPE_FLOAT32 ? "input" : "output");
		status = EXIT_USAGE;
		goto out;
	}
	if (oi.dtype != E1NPU_DTYPE_UINT8 && oi.dtype != E1NPU_DTYPE_INT8) {
		cls_error(a.json, "%s: model output 0 is not uint8/int8 class scores", a.model);
		status = EXIT_USAGE;
		goto out;
	}
	ncls = (unsigned int)oi.bytes;
	if ((status = load_labels(&a, ncls, &lb)))
		goto out;
	status = EXIT_RUN;
	in = malloc(ii.bytes);
	out = malloc(oi.bytes);
	order = calloc(ncls, sizeof(*order));
	ns = calloc(a.repeat, sizeof(*ns));
	if (!in || !out || !order || !ns) {
		cls_error(a.json, "out of memory");
		goto out;
	}
	if ((status = make_input(&a, &ii, in)))
		goto out;
	status = EXIT_RUN;
	ret = e1npu_tflite_set_input(t, 0, in, ii.bytes);
	if (!ret)
		ret = invoke_runs(t, a.repeat, ns);
	if (!ret)
		ret = e1npu_tflite_get_output(t, 0, out, oi.bytes);
	if (ret) {
		const char *why = e1npu_tflite_last_error(t);

		cls_error(a.json, "%s: %s", a.model, why && *why ? why : e1npu_strerror(ret));
		goto out;
	}
	latency_of(ns, a.repeat, &lat);
	if (a.raw_out && cls_write_file(a.raw_out, out, oi.bytes, err, sizeof(err))) {
		cls_error(a.json, "--raw-output %s", err);
		goto out;
	}
	/* Rank the classes: score descending, ties by lower index. */
	{
		struct rank *rk = calloc(ncls, sizeof(*rk));

		if (!rk)
			goto out;
		for (unsigned int i = 0; i < ncls; i++) {
			rk[i].q = oi.dtype == E1NPU_DTYPE_INT8 ? (int8_t)out[i] : out[i];
			rk[i].idx = i;
		}
		qsort(rk, ncls, sizeof(*rk), rank_cmp);
		for (unsigned int i = 0; i < ncls; i++)
			order[i] = rk[i].idx;
		free(rk);
	}
	print_result(&a, t, devname, &ii, &oi, nlayers, out, order, ncls, &lb, &lat);
	labels_hint(&a);
	status = EXIT_OK;
out:
	free(ns);
	free(order);
	free(in);
	free(out);
	e1npu_tflite_free(t);
	e1npu_device_close(dev);
	labels_free(&lb);
	status = cli_trace_finish(a.json, a.trace, status);
	if (cls_close_stdout())
		status = EXIT_RUN;
	return status;
}
