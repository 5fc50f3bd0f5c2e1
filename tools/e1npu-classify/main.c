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

#include "errout.h"
#include "image.h"
#include "resize.h"
#include "plan.h"

#define CLASSIFY_VERSION E1NPU_VERSION	/* the top Makefile's */

struct args {
	const char *model, *image, *labels, *device, *raw_out;
	unsigned int top, repeat;
	double crop;
	int cpu, json, layers, plan;
};

static void usage(FILE *f)
{
	fprintf(f,
"Usage: e1npu-classify -m MODEL.tflite -i IMAGE [options]\n"
"Classify an image with a quantized TFLite model on the e1 NPU.\n\n"
"  -m, --model FILE     quantized .tflite model (uint8 or int8)\n"
"  -i, --image FILE     PNG, JPEG or 24-bit uncompressed BMP; resized as\n"
"                       tf.image.resize (bilinear, float32) to the model's input\n"
"  -l, --labels FILE    one label per line, line N = class N\n"
"  -n, --top N          print the N best classes (default 5)\n"
"  -d, --device SPEC    sim, /dev/accel/accelN (default: $E1NPU_DEVICE or auto)\n"
"      --cpu            run the naive CPU reference kernels instead of the NPU\n"
"      --layers         print the per-layer table (engine, why, cycles)\n"
"      --json           machine-readable output\n"
"      --raw-output F   write the output tensor's bytes to F\n"
"      --crop F         keep the central fraction F of the image first\n"
"                       (0.875 = Inception preprocessing), default 1 (whole)\n"
"      --repeat N       invoke N times (timing), default 1\n"
"      --plan           print the tensor arena plan (offsets, roles, shapes,\n"
"                       dtypes, total bytes) and exit; -i not needed\n"
"  -h, --help           this help\n"
"  -V, --version        version\n");
}

static char **read_labels(const char *path, unsigned int *count)
{
	FILE *f = fopen(path, "r");
	char line[512], **v = NULL;
	unsigned int n = 0, cap = 0;

	*count = 0;
	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\r\n")] = 0;
		if (n == cap) {
			char **nv = realloc(v, (cap = cap ? 2 * cap : 1024) * sizeof(*v));

			if (!nv)
				break;
			v = nv;
		}
		v[n] = strdup(line);
		if (!v[n])
			break;
		n++;
	}
	fclose(f);
	*count = n;
	return v;
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

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "model", required_argument, NULL, 'm' },
		{ "image", required_argument, NULL, 'i' },
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
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct args a = { .top = 5, .repeat = 1, .crop = 1.0 };
	struct e1npu_tflite_options topt = { 0 };
	struct e1npu_tflite_tensor_info ii, oi;
	struct e1npu_device *dev = NULL;
	struct e1npu_tflite *t = NULL;
	struct image img = { 0 };
	char err[512], **labels = NULL, *end;
	unsigned int nlabels = 0, ncls, *order = NULL;
	uint32_t nlayers = 0;
	uint8_t *in = NULL, *out = NULL;
	float *rs = NULL;
	uint64_t t0, total_ns;
	int c, ret, status = 1;

	a.json = cls_json_requested(argc, argv);
	while ((c = getopt_long(argc, argv, "m:i:l:n:d:hV", lopts, NULL)) != -1) {
		switch (c) {
		case 'm': a.model = optarg; break;
		case 'i': a.image = optarg; break;
		case 'l': a.labels = optarg; break;
		case 'd': a.device = optarg; break;
		case 'c': a.cpu = 1; break;
		case 'L': a.layers = 1; break;
		case 'j': a.json = 1; break;
		case 'r': a.raw_out = optarg; break;
		case 'P': a.plan = 1; break;
		case 'C':
			a.crop = strtod(optarg, &end);
			if (*end || !*optarg || !(a.crop > 0.05 && a.crop <= 1.0)) {
				cls_error(a.json, "bad crop fraction '%s'", optarg);
				return 2;
			}
			break;
		case 'n':
		case 'R': {
			unsigned long v = strtoul(optarg, &end, 10);

			if (*end || !*optarg || v < 1 || v > 100000) {
				cls_error(a.json, "bad number '%s'", optarg);
				return 2;
			}
			if (c == 'n')
				a.top = (unsigned int)v;
			else
				a.repeat = (unsigned int)v;
			break;
		}
		case 'h': usage(stdout); return 0;
		case 'V': printf("e1npu-classify %s\n", CLASSIFY_VERSION); return 0;
		default:
			/* getopt said what was wrong on stderr */
			if (a.json)
				cls_error(true, "invalid option; try 'e1npu-classify --help'");
			else
				usage(stderr);
			return 2;
		}
	}
	if (a.plan && optind == argc && a.model) {
		status = cls_print_plan(a.model, a.device, a.cpu, a.json);
		return cls_close_stdout() ? 1 : status;
	}
	if (optind != argc || !a.model || !a.image) {
		if (optind != argc)
			cls_error(a.json, "unexpected argument '%s'", argv[optind]);
		usage(stderr);
		return 2;
	}
	if (a.labels) {
		labels = read_labels(a.labels, &nlabels);
		if (!labels) {
			cls_error(a.json, "%s: %s", a.labels, strerror(errno));
			return 1;
		}
	}
	ret = image_load(a.image, &img, err, sizeof(err));
	if (ret) {
		cls_file_error(a.json, a.image, err);
		ret = 0;	/* said */
		goto out;
	}
	if (a.cpu) {
		topt.path = E1NPU_TFLITE_PATH_REFERENCE;
	} else {
		ret = e1npu_device_open(a.device, &dev);
		if (ret) {
			cls_error(a.json, "cannot open device %s: %s",
				  a.device ? a.device : "(auto)", e1npu_strerror(ret));
			ret = 0;	/* said */
			goto out;
		}
	}
	ret = e1npu_tflite_load_file(dev, a.model, &topt, &t, err, sizeof(err));
	if (ret) {
		cls_file_error(a.json, a.model, err);
		ret = 0;	/* said */
		goto out;
	}
	if ((ret = e1npu_tflite_input_info(t, 0, &ii)) ||
	    (ret = e1npu_tflite_output_info(t, 0, &oi)))
		goto out;
	e1npu_tflite_get_counts(t, NULL, NULL, &nlayers);
	if (ii.ndims != 4 || ii.dims[0] != 1 || ii.dims[3] != 3) {
		cls_error(a.json, "model input is not [1,H,W,3]");
		goto out;
	}
	if (a.crop < 1.0) {
		ret = image_center_crop(&img, a.crop);
		if (ret)
			goto out;
	}
	in = malloc(ii.bytes);
	out = malloc(oi.bytes);
	rs = calloc(ii.bytes, sizeof(*rs));
	ncls = (unsigned int)oi.bytes;
	order = calloc(ncls, sizeof(*order));
	if (!in || !out || !rs || !order)
		goto out;
	ret = resize_bilinear_f32(&img, ii.dims[2], ii.dims[1], rs);
	if (ret)
		goto out;
	/* uint8: the resized values cast; int8: shifted by -128 then cast
	 * (TFLite's label_image). */
	resize_to_input(rs, ii.bytes, ii.dtype == E1NPU_DTYPE_INT8, in);
	ret = e1npu_tflite_set_input(t, 0, in, ii.bytes);
	if (ret)
		goto fail_msg;
	t0 = now_ns();
	for (unsigned int r = 0; r < a.repeat; r++) {
		ret = e1npu_tflite_invoke(t);
		if (ret)
			goto fail_msg;
	}
	total_ns = (now_ns() - t0) / a.repeat;
	ret = e1npu_tflite_get_output(t, 0, out, oi.bytes);
	if (ret)
		goto out;
	if (a.raw_out) {
		FILE *f = fopen(a.raw_out, "wb");

		if (!f || fwrite(out, 1, oi.bytes, f) != oi.bytes) {
			cls_error(a.json, "%s: write failed", a.raw_out);
			if (f)
				fclose(f);
			goto out;
		}
		fclose(f);
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
	status = 0;
	goto print;
fail_msg:
	cls_error(a.json, "%s", e1npu_tflite_last_error(t));
	ret = 0;	/* said */
	goto out;
print:
	{
	uint64_t cyc = 0, dpc = 0, macs = 0, hw = 0, fb = 0;
	const char *path = a.cpu ? "reference" : "npu";

	for (uint32_t i = 0; i < nlayers; i++) {
		struct e1npu_tflite_layer l;

		e1npu_tflite_get_layer(t, i, &l);
		cyc += l.report.wrapper_cycles;
		dpc += l.report.dp_cycles;
		macs += l.report.macs;
		hw += l.report.hw_ops;
		fb += l.report.hw_ops_fallback;
	}
	if (a.json) {
		printf("{\"model\":");
		cls_json_str(a.model);
		printf(",\"image\":");
		cls_json_str(a.image);
		printf(",\"path\":\"%s\",\"input\":[%u,%u,%u,%u],\"layers_count\":%u,"
		       "\"host_ms\":%.3f,\"wrapper_cycles\":%llu,\"dp_cycles\":%llu,"
		       "\"macs\":%llu,\"hw_ops\":%llu,\"hw_ops_fallback\":%llu,\"top\":[",
		       path, ii.dims[0], ii.dims[1], ii.dims[2], ii.dims[3], nlayers,
		       total_ns / 1e6, (unsigned long long)cyc,
		       (unsigned long long)dpc, (unsigned long long)macs,
		       (unsigned long long)hw, (unsigned long long)fb);
	} else {
		printf("model %s: input %ux%ux%u %s, %u layers, path %s, %.1f ms/inference\n",
		       a.model, ii.dims[1], ii.dims[2], ii.dims[3],
		       ii.dtype == E1NPU_DTYPE_INT8 ? "int8" : "uint8", nlayers,
		       path, total_ns / 1e6);
	}
	for (unsigned int i = 0; i < a.top && i < ncls; i++) {
		unsigned int k = order[i];
		int q = oi.dtype == E1NPU_DTYPE_INT8 ? (int8_t)out[k] : out[k];
		double score = oi.scale * (q - oi.zero_point);
		const char *name = k < nlabels ? labels[k] : "?";

		if (a.json) {
			printf("%s{\"rank\":%u,\"index\":%u,\"label\":", i ? "," : "", i + 1, k);
			cls_json_str(name);
			printf(",\"score\":%.6f,\"q\":%d}", score, q);
		} else {
			printf("%2u  %.5f  %4u  %s\n", i + 1, score, k, name);
		}
	}
	if (a.json)
		printf("]");
	if (a.layers) {
		if (a.json)
			printf(",\"layers\":[");
		else
			printf("\n%-5s %-18s %-22s %-8s %10s %10s %6s %8s  %s\n", "layer", "op",
			       "shape", "engine", "macs", "cycles", "descs", "ms", "why");
		for (uint32_t i = 0; i < nlayers; i++) {
			struct e1npu_tflite_layer l;

			e1npu_tflite_get_layer(t, i, &l);
			if (a.json) {
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
		if (a.json)
			printf("]");
		else
			printf("total: %llu MACs, %llu modelled cycles (ideal %llu = MACs/256, utilization %.1f%%), "
			       "%llu hardware ops, %llu CPU fallbacks\n",
			       (unsigned long long)macs, (unsigned long long)(cyc + dpc),
			       (unsigned long long)(macs / 256),
			       cyc + dpc ? 100.0 * (double)(macs / 256) / (double)(cyc + dpc) : 0.0,
			       (unsigned long long)hw, (unsigned long long)fb);
	}
	if (a.json)
		printf("}\n");
	}
out:
	if (status && ret)
		cls_error(a.json, "failed: %s", e1npu_strerror(ret));
	free(order);
	free(in);
	free(out);
	image_free(&img);
	free(rs);
	e1npu_tflite_free(t);
	e1npu_device_close(dev);
	for (unsigned int i = 0; i < nlabels; i++)
		free(labels[i]);
	free(labels);
	if (cls_close_stdout())
		status = 1;
	return status;
}
