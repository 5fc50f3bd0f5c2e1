// SPDX-License-Identifier: MIT
/*
 * e1npu-tflite: run any model libe1npu's TFLite interpreter runs on raw
 * (or .npy) tensors, report where each operator will run without running
 * it, and compare the NPU path with the CPU reference path layer by layer.
 * Documentation/tflite.md, section "e1npu-tflite".
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <e1npu/e1npu.h>
#include <e1npu/e1npu_tflite.h>

#include "compare.h"
#include "internal.h"
#include "cli.h"
#include "device.h"
#include "errout.h"
#include "files.h"
#include "layers.h"
#include "latency.h"
#include "npy.h"
#include "progress.h"
#include "tflite_artifact.h"
#include "tflite_part.h"
#include "tflite_report.h"
#include "trace.h"
#include "trace-opt.h"

#define RUNS_MAX 100000u
#define MAX_FILES 64


struct args {
	const char *cmd, *model, *device, *dump, *trace;
	const char *in[MAX_FILES], *out[MAX_FILES];
	unsigned int nin, nout, runs;
	int cpu, json;
};

static void usage(FILE *f)
{
	fprintf(f,
"Usage: e1npu-tflite run MODEL --input-tensor FILE... [--output FILE...] [-n N]\n"
"                    [--device D | --cpu] [--trace FILE] [--json]\n"
"       e1npu-tflite report MODEL [--device D] [--json]\n"
"       e1npu-tflite compile MODEL --output FILE [--device D] [--json]\n"
"       e1npu-tflite diff MODEL --input-tensor FILE... [--dump DIR] [--device D]\n"
"                    [--trace FILE] [--json]\n"
"Run a quantized TFLite model on the e1 NPU, report where its operators run,\n"
"compare the NPU path with the CPU reference path layer by layer, or compile\n"
"it into an artifact for one device: the lowering the library chose, its\n"
"packed weights, the arena plan and the model, which run loads in place of\n"
"MODEL without searching the lowering or packing the weights again.\n\n"
"  -i, --input-tensor F  one model input, in order (repeat for each): raw bytes,\n"
"                        or a .npy file of the input's type and element count\n"
"  -o, --output F        one model output, in order (repeat): raw bytes, or\n"
"                        .npy (with the tensor's shape) when F ends in .npy;\n"
"                        compile: the artifact\n"
"  -n, --runs N          invoke N times, 1 to 100000 (default 1): the first\n"
"                        run's latency, then min/median/max of the others\n"
"  -d, --device SPEC     sim, /dev/accel/accelN (default: $E1NPU_DEVICE or auto)\n"
"      --cpu             run: the naive CPU reference kernels (not with -d)\n"
"      --dump DIR        diff: every layer's output on both paths as DIR/\n"
"                        layerNNN-OP.npu.npy and .ref.npy\n"
"      --trace FILE      run, diff: a timeline trace (Chrome trace-event JSON:\n"
"                        host spans, device spans per engine) to FILE\n"
"      --json            machine-readable output\n"
"  -h, --help            this help\n"
"  -V, --version         version\n\n"
"Exit status: 0 success (diff: the paths agree), 1 the run failed (diff: the\n"
"paths differ), 2 bad usage or input (options, model, tensors, environment).\n");
}

static int parse_args(int argc, char **argv, struct args *a)
{
	static const struct option lopts[] = {
		{ "input-tensor", required_argument, NULL, 'i' },
		{ "output", required_argument, NULL, 'o' },
		{ "runs", required_argument, NULL, 'n' },
		{ "device", required_argument, NULL, 'd' },
		{ "cpu", no_argument, NULL, 'c' },
		{ "dump", required_argument, NULL, 'D' },
		{ "trace", required_argument, NULL, 't' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	bool json = a->json;
	char *end;
	int c;

	while ((c = getopt_long(argc, argv, "+i:o:n:d:hV", lopts, NULL)) != -1) {
		switch (c) {
		case 'i':
		case 'o':
			if ((c == 'i' ? a->nin : a->nout) >= MAX_FILES) {
				cls_error(json, "%s: at most %d files", c == 'i' ?
					  "--input-tensor" : "--output", MAX_FILES);
				return EXIT_USAGE;
			}
			if (c == 'i')
				a->in[a->nin++] = optarg;
			else
				a->out[a->nout++] = optarg;
			break;
		case 'n': {
			unsigned long x;

			errno = 0;
			x = strtoul(optarg, &end, 10);
			if (errno || *end || !*optarg || *optarg == '-' || *optarg == '+' ||
			    x < 1 || x > RUNS_MAX) {
				cls_error(json, "-n/--runs: '%s' is not a whole number from 1 to %u",
					  optarg, RUNS_MAX);
				return EXIT_USAGE;
			}
			a->runs = (unsigned int)x;
			break;
		}
		case 'd':
			if (cli_set_once(json, "-d/--device", &a->device, optarg))
				return EXIT_USAGE;
			break;
		case 'c': a->cpu = 1; break;
		case 'D':
			if (cli_set_once(json, "--dump", &a->dump, optarg))
				return EXIT_USAGE;
			break;
		case 't':
			if (cli_set_once(json, "--trace", &a->trace, optarg))
				return EXIT_USAGE;
			break;
		case 'j': a->json = 1; break;
		case 'h': exit(cli_help_or_version(false, usage));
		case 'V': exit(cli_help_or_version(true, usage));
		default:
			return cli_bad_option(json);
		}
		/* options and operands in any order: GNU-style, by hand */
	}
	return 0;
}

/* Options before and after the operands (COMMAND MODEL). */
static int parse_cmdline(int argc, char **argv, struct args *a)
{
	const char *ops[2];
	unsigned int nops = 0;
	int r;

	optind = 1;
	while (optind < argc) {
		if ((r = parse_args(argc, argv, a)))
			return r;
		if (optind >= argc)
			break;
		if (!strcmp(argv[optind - 1], "--") || nops >= 2) {
			cls_error(a->json, "unexpected argument '%s'", argv[optind]);
			return EXIT_USAGE;
		}
		ops[nops++] = argv[optind++];
	}
	if (nops < 1) {
		cls_error(a->json, "missing command (run, report, diff or compile); try 'e1npu-tflite --help'");
		return EXIT_USAGE;
	}
	a->cmd = ops[0];
	if (strcmp(a->cmd, "run") && strcmp(a->cmd, "report") && strcmp(a->cmd, "diff") &&
	    strcmp(a->cmd, "compile")) {
		cls_error(a->json, "unknown command '%s' (run, report, diff or compile)", a->cmd);
		return EXIT_USAGE;
	}
	if (nops < 2) {
		cls_error(a->json, "%s: missing MODEL.tflite", a->cmd);
		return EXIT_USAGE;
	}
	a->model = ops[1];
	if (a->cpu && a->device) {
		cls_error(a->json, "--cpu runs without a device: not with -d/--device '%s'", a->device);
		return EXIT_USAGE;
	}
	if (!strcmp(a->cmd, "compile")) {
		if (a->nin || a->cpu || a->runs != 1 || a->dump || a->trace || a->nout != 1) {
			cls_error(a->json, "compile: %s", a->nout != 1 ?
				  "give the artifact's file once with -o/--output" :
				  "it runs nothing: only -o/--output, -d/--device and --json");
			return EXIT_USAGE;
		}
		return 0;
	}
	if (strcmp(a->cmd, "run") && (a->cpu || a->nout || a->runs != 1)) {
		cls_error(a->json, "%s: %s is an option of run", a->cmd,
			  a->cpu ? "--cpu" : a->nout ? "--output" : "-n/--runs");
		return EXIT_USAGE;
	}
	if (strcmp(a->cmd, "diff") && a->dump) {
		cls_error(a->json, "%s: --dump is an option of diff", a->cmd);
		return EXIT_USAGE;
	}
	if (!strcmp(a->cmd, "report") && a->trace) {
		cls_error(a->json, "report runs nothing: not with --trace");
		return EXIT_USAGE;
	}
	if (!strcmp(a->cmd, "report") && a->nin) {
		cls_error(a->json, "report runs nothing: not with --input-tensor");
		return EXIT_USAGE;
	}
	if (strcmp(a->cmd, "report") && !a->nin) {
		cls_error(a->json, "%s: missing --input-tensor FILE", a->cmd);
		return EXIT_USAGE;
	}
	return 0;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

static const char *type_word(uint32_t dtype)
{
	return dtype == E1NPU_DTYPE_INT8 ? "int8" : dtype == E1NPU_DTYPE_FLOAT32 ? "float32" :
	       dtype == E1NPU_DTYPE_INT32 ? "int32" : dtype == E1NPU_DTYPE_INT64 ? "int64" :
	       "uint8";
}

/* The .npy element type (npy.h's spelling) of an enum e1npu_dtype. */
static const char *npy_word(uint32_t dtype)
{
	return dtype == E1NPU_DTYPE_INT8 ? "i8" : dtype == E1NPU_DTYPE_FLOAT32 ? "f32" :
	       dtype == E1NPU_DTYPE_INT32 ? "i32" : dtype == E1NPU_DTYPE_INT64 ? "i64" : "ui8";
}

/* The enum e1npu_dtype of a TFLite tensor type (uint8, int8, float32, int32, int64). */
static uint32_t dtype_of_tfl(uint32_t type)
{
	return type == TFL_TYPE_INT8 ? E1NPU_DTYPE_INT8 :
	       type == TFL_TYPE_FLOAT32 ? E1NPU_DTYPE_FLOAT32 :
	       type == TFL_TYPE_INT32 ? E1NPU_DTYPE_INT32 :
	       type == TFL_TYPE_INT64 ? E1NPU_DTYPE_INT64 : E1NPU_DTYPE_UINT8;
}

static void dims_str(const uint32_t *dims, uint32_t n, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = 0;
	for (uint32_t d = 0; d < n && o + 12 < len; d++)
		o += (size_t)snprintf(buf + o, len - o, "%s%u", d ? "," : "", dims[d]);
}

/*
 * Input @k's bytes from @path: raw (its size must be the tensor's), or
 * .npy (element type and count the tensor's). Errors name the file, the
 * tensor, the expected and the actual bytes.
 */
static int read_input(bool json, const char *path, uint32_t k,
		      const struct e1npu_tflite_tensor_info *ii, void **data)
{
	char err[512], shape[96];
	size_t size;

	dims_str(ii->dims, ii->ndims, shape, sizeof(shape));
	*data = NULL;
	if (ends_with(path, ".npy")) {
		struct npy n;
		const char *want = npy_word(ii->dtype);

		if (npy_read(path, &n, err, sizeof(err))) {
			cls_error(json, "--input-tensor %s", err);
			return EXIT_USAGE;
		}
		if (strcmp(n.dtype, want) || n.size != ii->bytes) {
			cls_error(json, "--input-tensor %s: %s of %zu bytes, model input %u "
				  "(tensor '%s', [%s] %s) is %zu bytes of %s", path, n.dtype,
				  n.size, k, ii->name, shape, type_word(ii->dtype), ii->bytes, want);
			npy_free(&n);
			return EXIT_USAGE;
		}
		*data = n.data;
		return 0;
	}
	if (cls_read_file(path, data, &size, err, sizeof(err))) {
		cls_error(json, "--input-tensor %s", err);
		return EXIT_USAGE;
	}
	if (size != ii->bytes) {
		cls_error(json, "--input-tensor %s is %zu bytes, model input %u (tensor '%s', "
			  "[%s] %s) is %zu bytes", path, size, k, ii->name, shape,
			  type_word(ii->dtype), ii->bytes);
		free(*data);
		*data = NULL;
		return EXIT_USAGE;
	}
	return 0;
}

static int write_tensor(const char *path, uint32_t dtype, uint32_t ndims,
			const uint32_t *dims, const void *data, size_t size,
			char *err, size_t errlen)
{
	uint64_t d[NPY_MAX_RANK];

	if (!ends_with(path, ".npy"))
		return cls_write_file(path, data, size, err, errlen);
	for (uint32_t i = 0; i < ndims && i < NPY_MAX_RANK; i++)
		d[i] = dims[i];
	return npy_write(path, npy_word(dtype),
			 ndims > NPY_MAX_RANK ? NPY_MAX_RANK : ndims, d, data, size,
			 err, errlen);
}

/* ---------------------------------------------------------------- run */

static int cmd_run(const struct args *a)
{
	struct e1npu_tflite_options topt = { 0 };
	struct e1npu_tflite_tensor_info info;
	struct e1npu_device *dev = NULL;
	struct e1npu_tflite *t = NULL;
	uint32_t nin = 0, nout = 0, nlayers = 0;
	uint64_t *ns = NULL;
	struct layer_totals tot;
	char err[512], devname[64] = "cpu";
	struct e1npu_perf p0 = { 0 }, p1 = { 0 };
	struct latency lat;
	void *buf = NULL, *file = NULL;
	size_t fsize = 0;
	uint64_t load_ns;
	bool art;
	int ret, status = EXIT_RUN;

	if (cls_read_file(a->model, &file, &fsize, err, sizeof(err))) {
		cls_error(a->json, "%s", err);
		return EXIT_USAGE;
	}
	art = tflite_art_is(file, fsize);
	if (a->cpu)
		topt.path = E1NPU_TFLITE_PATH_REFERENCE;
	else if (cls_open_device(a->device, a->json, &dev, devname, sizeof(devname))) {
		free(file);
		return EXIT_RUN;
	}
	/* a .tflite or an artifact (e1npu_tflite_compile): the library tells */
	load_ns = now_ns();
	ret = e1npu_tflite_load_memory(dev, file, fsize, &topt, &t, err, sizeof(err));
	load_ns = now_ns() - load_ns;
	if (ret) {
		cls_error(a->json, "%s: %s", a->model, err);
		status = EXIT_USAGE;
		goto out;
	}
	e1npu_tflite_get_counts(t, &nin, &nout, &nlayers);
	if (a->nin != nin || (a->nout && a->nout != nout)) {
		cls_error(a->json, "%s has %u input%s and %u output%s: got %u --input-tensor%s%s",
			  a->model, nin, nin == 1 ? "" : "s", nout, nout == 1 ? "" : "s",
			  a->nin, a->nout ? " and --output " : "", "");
		status = EXIT_USAGE;
		goto out;
	}
	for (uint32_t k = 0; k < nin; k++) {
		e1npu_tflite_input_info(t, k, &info);
		if ((status = read_input(a->json, a->in[k], k, &info, &buf)))
			goto out;
		ret = e1npu_tflite_set_input(t, k, buf, info.bytes);
		free(buf);
		buf = NULL;
		if (ret) {
			cls_error(a->json, "%s: %s", a->model, e1npu_tflite_last_error(t));
			status = EXIT_USAGE;
			goto out;
		}
	}
	status = EXIT_RUN;
	if (dev)
		e1npu_device_read_perf(dev, &p0);
	ns = calloc(a->runs, sizeof(*ns));
	if (!ns) {
		cls_error(a->json, "out of memory");
		goto out;
	}
	progress_start();
	for (unsigned int r = 0; r < a->runs && !ret; r++) {
		uint64_t t0 = now_ns();

		if (a->runs > 1)
			progress_step(r + 1, a->runs, "invoke");
		ret = e1npu_tflite_invoke(t);
		ns[r] = now_ns() - t0;
	}
	progress_end();
	if (dev)
		e1npu_device_read_perf(dev, &p1);
	if (ret) {
		cls_error(a->json, "%s: %s", a->model, e1npu_tflite_last_error(t));
		goto out;
	}
	latency_of(ns, a->runs, &lat);
	layer_totals_of(t, nlayers, &tot);
	if (a->json) {
		printf("{\"model\":");
		cls_json_str(a->model);
		printf(",\"device\":");
		cls_json_str(devname);
		printf(",\"artifact\":%s,\"load_ms\":%.3f", art ? "true" : "false",
		       (double)load_ns / 1e6);
		printf(",\"path\":\"%s\",\"layers\":%u,\"macs\":%llu,\"wrapper_cycles\":%llu,"
		       "\"dp_cycles\":%llu,\"perf\":{\"wrapper_cycles\":%llu,\"dp_cycles\":%llu,"
		       "\"wrapper_macs\":%llu,\"dp_macs\":%llu,\"bytes\":%llu},"
		       "\"latency_ms\":{\"first\":%.3f,\"runs\":%u,"
		       "\"min\":%.3f,\"median\":%.3f,\"max\":%.3f},\"outputs\":[",
		       a->cpu ? "reference" : "npu", nlayers, (unsigned long long)tot.macs,
		       (unsigned long long)tot.wrapper_cycles, (unsigned long long)tot.dp_cycles,
		       (unsigned long long)(p1.wrapper_cycles - p0.wrapper_cycles),
		       (unsigned long long)(p1.dp_cycles - p0.dp_cycles),
		       (unsigned long long)(p1.wrapper_macs - p0.wrapper_macs),
		       (unsigned long long)(p1.dp_macs - p0.dp_macs),
		       (unsigned long long)(p1.bytes_in + p1.bytes_out - p0.bytes_in - p0.bytes_out),
		       lat.first_ms,
		       lat.runs, lat.min_ms, lat.median_ms, lat.max_ms);
	} else {
		printf("%s %s: %u inputs, %u outputs, %u layers, device %s, path %s\n",
		       art ? "artifact" : "model", a->model, nin, nout, nlayers, devname,
		       a->cpu ? "reference" : "npu");
		printf("load: %.3f ms\n", (double)load_ns / 1e6);
		printf("latency: first run %.3f ms", lat.first_ms);
		if (lat.runs)
			printf(", then %u runs: min %.3f, median %.3f, max %.3f ms",
			       lat.runs, lat.min_ms, lat.median_ms, lat.max_ms);
		printf("\nmodelled: %llu MACs, %llu wrapper + %llu datapath cycles\n",
		       (unsigned long long)tot.macs, (unsigned long long)tot.wrapper_cycles,
		       (unsigned long long)tot.dp_cycles);
	}
	for (uint32_t k = 0; k < nout; k++) {
		char shape[96];

		e1npu_tflite_output_info(t, k, &info);
		dims_str(info.dims, info.ndims, shape, sizeof(shape));
		buf = malloc(info.bytes ? info.bytes : 1);
		if (!buf || e1npu_tflite_get_output(t, k, buf, info.bytes)) {
			cls_error(a->json, "output %u: %s", k, buf ? "cannot read" : "out of memory");
			goto out;
		}
		if (k < a->nout && write_tensor(a->out[k], info.dtype, info.ndims, info.dims,
						buf, info.bytes, err, sizeof(err))) {
			if (a->json)
				printf("]}\n");
			cls_error(a->json, "--output %s", err);
			goto out;
		}
		if (a->json) {
			printf("%s{\"index\":%u,\"name\":", k ? "," : "", k);
			cls_json_str(info.name);
			printf(",\"shape\":[%s],\"dtype\":\"%s\",\"bytes\":%zu,\"scale\":%g,"
			       "\"zero_point\":%d,\"file\":", shape, type_word(info.dtype),
			       info.bytes, (double)info.scale, info.zero_point);
			if (k < a->nout)
				cls_json_str(a->out[k]);
			else
				printf("null");
			printf("}");
		} else {
			printf("output %u '%s': [%s] %s, %zu bytes%s%s\n", k, info.name, shape,
			       type_word(info.dtype), info.bytes, k < a->nout ? " -> " : "",
			       k < a->nout ? a->out[k] : "");
		}
		free(buf);
		buf = NULL;
	}
	if (a->json)
		printf("]}\n");
	status = EXIT_OK;
out:
	free(buf);
	free(ns);
	e1npu_tflite_free(t);
	e1npu_device_close(dev);
	free(file);
	return status;
}

/* -------------------------------------------------------------- report */

static int load_model(const struct args *a, void **file, size_t *size, struct tfl_model *m)
{
	char err[512];

	if (cls_read_file(a->model, file, size, err, sizeof(err))) {
		cls_error(a->json, "%s", err);
		return EXIT_USAGE;
	}
	if (tfl_parse(*file, *size, m, err, sizeof(err))) {
		cls_file_error(a->json, a->model, err);
		free(*file);
		*file = NULL;
		return EXIT_USAGE;
	}
	return 0;
}

static void shape_of(const struct tflite_op_plan *p, bool json, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = 0;
	for (uint32_t d = 0; d < p->out_ndims && o + 12 < len; d++)
		o += (size_t)snprintf(buf + o, len - o, "%s%d", d ? (json ? "," : "x") : "",
				      p->out_dims[d]);
}

static int cmd_report(const struct args *a)
{
	struct e1npu_device *dev = NULL;
	struct e1npu_ops *ctx = NULL;
	struct e1npu_tflite *t = NULL;
	struct tflite_op_plan *plan = NULL;
	struct tfl_model m = { 0 };
	struct e1npu_tflite_arena ar = { 0 };
	uint64_t macs = 0, cycles = 0, nplace[4] = { 0 };
	uint32_t nparts = 0;
	char err[512], arena_err[512] = "", devname[64] = "cpu";
	void *file = NULL;
	size_t size = 0;
	int ret, status;

	if ((status = load_model(a, &file, &size, &m)))
		return status;
	status = EXIT_RUN;
	if (cls_open_device(a->device, a->json, &dev, devname, sizeof(devname)))
		goto out;
	ret = e1npu_ops_new(dev, &ctx);
	if (ret) {
		cls_error(a->json, "e1npu_ops_new: %s", e1npu_ops_last_error(NULL));
		goto out;
	}
	plan = calloc(m.num_operators ? m.num_operators : 1, sizeof(*plan));
	if (!plan) {
		cls_error(a->json, "out of memory");
		goto out;
	}
	ret = tflite_plan_ops(ctx, &m, plan, &nparts, err, sizeof(err));
	if (ret) {
		cls_file_error(a->json, a->model, err[0] ? err : e1npu_strerror(ret));
		status = EXIT_USAGE;
		goto out;
	}
	/* the arena plan: only for a model the whole interpreter loads */
	if (e1npu_tflite_load_memory(dev, file, size, NULL, &t, arena_err, sizeof(arena_err)))
		t = NULL;
	else
		e1npu_tflite_get_arena(t, &ar);
	for (uint32_t i = 0; i < m.num_operators; i++) {
		macs += plan[i].rep.macs;
		cycles += plan[i].rep.wrapper_cycles + plan[i].rep.dp_cycles;
		nplace[plan[i].place < 4 ? plan[i].place : 3]++;
	}
	if (a->json) {
		printf("{\"model\":");
		cls_json_str(a->model);
		printf(",\"device\":");
		cls_json_str(devname);
		printf(",\"operators\":[");
	} else {
		printf("model %s: %u operators, %u tensors, device %s\n", a->model,
		       m.num_operators, m.num_tensors, devname);
		printf("%-3s %-20s %-14s %-8s %4s %10s %10s  %s\n", "op", "builtin",
		       "output", "place", "part", "macs", "cycles", "reason");
	}
	for (uint32_t i = 0; i < m.num_operators; i++) {
		const struct tflite_op_plan *p = &plan[i];
		uint64_t cyc = p->rep.wrapper_cycles + p->rep.dp_cycles;
		char shape[96], cs[24];

		shape_of(p, a->json, shape, sizeof(shape));
		if (a->json) {
			printf("%s{\"index\":%u,\"builtin\":\"%s\",\"builtin_code\":%d,"
			       "\"output_shape\":[%s],\"place\":\"%s\",\"engine\":\"%s\","
			       "\"reason\":\"%s\",\"partition\":%d,\"macs\":%llu,",
			       i ? "," : "", p->index, p->name, p->builtin, shape,
			       tflite_place_name(p->place),
			       p->place == TFLITE_PLACE_REFUSED ? "none" :
			       e1npu_engine_name(p->rep.engine),
			       p->place == TFLITE_PLACE_REFUSED ? "refused" :
			       e1npu_ops_reason_name(p->rep.reason), p->partition,
			       (unsigned long long)p->rep.macs);
			if (p->cycles_known)
				printf("\"modelled_cycles\":%llu", (unsigned long long)cyc);
			else
				printf("\"modelled_cycles\":null");
			printf(",\"why\":");
			cls_json_str(p->rep.why);
			printf("}");
		} else {
			if (p->cycles_known)
				snprintf(cs, sizeof(cs), "%llu", (unsigned long long)cyc);
			else
				snprintf(cs, sizeof(cs), "-");
			if (p->partition >= 0)
				printf("%-3u %-20s %-14s %-8s %4d %10llu %10s  %s\n", i, p->name, shape,
				       tflite_place_name(p->place), p->partition,
				       (unsigned long long)p->rep.macs, cs, p->rep.why);
			else
				printf("%-3u %-20s %-14s %-8s %4s %10llu %10s  %s\n", i, p->name, shape,
				       tflite_place_name(p->place), "-",
				       (unsigned long long)p->rep.macs, cs, p->rep.why);
		}
	}
	if (a->json) {
		printf("],\"totals\":{\"operators\":%u,\"macs\":%llu,\"modelled_cycles\":%llu,"
		       "\"wrapper\":%llu,\"datapath\":%llu,\"host\":%llu,\"refused\":%llu},"
		       "\"partitions\":%u,\"arena\":", m.num_operators,
		       (unsigned long long)macs, (unsigned long long)cycles,
		       (unsigned long long)nplace[0], (unsigned long long)nplace[1],
		       (unsigned long long)nplace[2], (unsigned long long)nplace[3], nparts);
		if (t)
			printf("{\"total_bytes\":%llu,\"lower_bound_bytes\":%llu,"
			       "\"unplanned_bytes\":%llu,\"alignment_bytes\":%u,\"tensors\":%u}}\n",
			       (unsigned long long)ar.total_bytes,
			       (unsigned long long)ar.lower_bound,
			       (unsigned long long)ar.unplanned_bytes, ar.alignment, ar.num_tensors);
		else {
			printf("{\"error\":");
			cls_json_str(arena_err);
			printf("}}\n");
		}
	} else {
		printf("total: %u operators (%llu wrapper, %llu datapath, %llu host, %llu refused) "
		       "in %u partition%s, %llu MACs, %llu modelled cycles (conv lowerings)\n",
		       m.num_operators, (unsigned long long)nplace[0],
		       (unsigned long long)nplace[1], (unsigned long long)nplace[2],
		       (unsigned long long)nplace[3], nparts, nparts == 1 ? "" : "s",
		       (unsigned long long)macs, (unsigned long long)cycles);
		if (t)
			printf("arena: %llu bytes for %u tensors (lower bound %llu, one buffer per "
			       "tensor %llu), offsets aligned to %u\n",
			       (unsigned long long)ar.total_bytes, ar.num_tensors,
			       (unsigned long long)ar.lower_bound,
			       (unsigned long long)ar.unplanned_bytes, ar.alignment);
		else
			printf("arena: not planned: %s\n", arena_err);
	}
	status = EXIT_OK;
out:
	e1npu_tflite_free(t);
	free(plan);
	e1npu_ops_free(ctx);
	e1npu_device_close(dev);
	tfl_model_free(&m);
	free(file);
	return status;
}

/* ---------------------------------------------------------------- diff */

/* Storage for every activation tensor: one buffer each, nothing reused. */
static int alloc_tensors(const struct tfl_model *m, void **bufs)
{
	for (uint32_t i = 0; i < m->num_tensors; i++) {
		const struct tfl_tensor *x = &m->tensors[i];
		size_t n = tfl_tensor_count(x) * tfl_type_size(x->type);

		if (x->data || !n)
			continue;
		if (n > ((size_t)1 << 30) || !(bufs[i] = calloc(1, n)))
			return -ENOMEM;
	}
	return 0;
}

static void free_tensors(const struct tfl_model *m, void **bufs)
{
	for (uint32_t i = 0; bufs && i < m->num_tensors; i++)
		free(bufs[i]);
	free(bufs);
}

static int dump_layer(const char *dir, uint32_t i, const char *op, const char *path,
		      const struct tfl_tensor *x, const void *data, size_t bytes,
		      char *err, size_t errlen)
{
	uint32_t dims[TFL_MAX_DIMS];
	char name[4096];

	for (uint32_t d = 0; d < x->ndims; d++)
		dims[d] = (uint32_t)x->dims[d];
	snprintf(name, sizeof(name), "%s/layer%03u-%s.%s.npy", dir, i, op, path);
	return write_tensor(name, dtype_of_tfl(x->type),
			    x->ndims, dims, data, bytes, err, errlen);
}

static int cmd_diff(const struct args *a)
{
	struct e1npu_device *dev = NULL;
	struct e1npu_ops *ctx = NULL;
	struct e1npu_tflite **tn = NULL, **tr = NULL;
	struct tfl_model m = { 0 };
	void **bn = NULL, **br = NULL, *file = NULL;
	uint32_t *ops = NULL;
	size_t size = 0;
	char err[512], devname[64] = "cpu";
	long first = -1, perturb = -1;
	uint64_t total_differ = 0;
	unsigned int pv;
	int ret, status;

	if ((status = load_model(a, &file, &size, &m)))
		return status;
	status = EXIT_USAGE;
	if (a->nin != m.num_inputs) {
		cls_error(a->json, "%s has %u input%s: got %u --input-tensor", a->model,
			  m.num_inputs, m.num_inputs == 1 ? "" : "s", a->nin);
		goto out;
	}
	ops = calloc(m.num_operators ? m.num_operators : 1, sizeof(*ops));
	tn = calloc(m.num_operators ? m.num_operators : 1, sizeof(*tn));
	tr = calloc(m.num_operators ? m.num_operators : 1, sizeof(*tr));
	bn = calloc(m.num_tensors ? m.num_tensors : 1, sizeof(*bn));
	br = calloc(m.num_tensors ? m.num_tensors : 1, sizeof(*br));
	if (!ops || !tn || !tr || !bn || !br || alloc_tensors(&m, bn) || alloc_tensors(&m, br)) {
		cls_error(a->json, "out of memory");
		status = EXIT_RUN;
		goto out;
	}
	for (uint32_t i = 0; i < m.num_operators; i++) {
		if (e1npu_tflite_part_check(&m, i, err, sizeof(err))) {
			cls_file_error(a->json, a->model, err);
			goto out;
		}
		ops[i] = i;
	}
	for (uint32_t k = 0; k < m.num_inputs; k++) {
		const struct tfl_tensor *x = &m.tensors[m.inputs[k]];
		struct e1npu_tflite_tensor_info ii = { 0 };
		void *data;

		snprintf(ii.name, sizeof(ii.name), "%s", x->name);
		ii.dtype = dtype_of_tfl(x->type);
		ii.ndims = x->ndims;
		for (uint32_t d = 0; d < x->ndims; d++)
			ii.dims[d] = (uint32_t)x->dims[d];
		ii.bytes = tfl_tensor_count(x) * tfl_type_size(x->type);
		if (!bn[m.inputs[k]]) {
			cls_error(a->json, "%s: model input %u has no storage", a->model, k);
			goto out;
		}
		if ((status = read_input(a->json, a->in[k], k, &ii, &data)))
			goto out;
		memcpy(bn[m.inputs[k]], data, ii.bytes);
		memcpy(br[m.inputs[k]], data, ii.bytes);
		free(data);
	}
	status = EXIT_RUN;
	if (cls_open_device(a->device, a->json, &dev, devname, sizeof(devname)))
		goto out;
	if ((ret = e1npu_ops_new(dev, &ctx))) {
		cls_error(a->json, "e1npu_ops_new: %s", e1npu_ops_last_error(NULL));
		goto out;
	}
	/* one partial interpreter per layer and path: run in step, so the
	 * test hook's perturbation reaches the later layers of the NPU path */
	if (getenv("E1NPU_TFLITE_DIFF_PERTURB") && *getenv("E1NPU_TFLITE_DIFF_PERTURB") &&
	    !e1npu_env_get("E1NPU_TFLITE_DIFF_PERTURB", &pv, NULL, 0))
		perturb = (long)pv;
	for (uint32_t i = 0; i < m.num_operators; i++) {
		if (e1npu_tflite_part_new(ctx, &m, &ops[i], 1, &tn[i], err, sizeof(err)) ||
		    e1npu_tflite_part_new(NULL, &m, &ops[i], 1, &tr[i], err, sizeof(err))) {
			cls_file_error(a->json, a->model, err);
			status = EXIT_USAGE;
			goto out;
		}
	}
	for (uint32_t i = 0; i < m.num_operators; i++) {
		int32_t o = m.operators[i].outputs[0];

		if (e1npu_tflite_part_invoke(tn[i], bn)) {
			cls_error(a->json, "%s: NPU path: %s", a->model, e1npu_tflite_last_error(tn[i]));
			goto out;
		}
		if (e1npu_tflite_part_invoke(tr[i], br)) {
			cls_error(a->json, "%s: reference path: %s", a->model,
				  e1npu_tflite_last_error(tr[i]));
			goto out;
		}
		if (perturb == (long)i)
			((uint8_t *)bn[o])[0] ^= 1;	/* one quantized step */
	}
	if (a->dump && mkdir(a->dump, 0777) && errno != EEXIST) {
		cls_error(a->json, "--dump %s: %s", a->dump, strerror(errno));
		goto out;
	}
	if (a->json) {
		printf("{\"model\":");
		cls_json_str(a->model);
		printf(",\"device\":");
		cls_json_str(devname);
		printf(",\"buckets\":[");
		for (unsigned int b = 0; b < CMP_BUCKETS; b++)
			printf("%s\"%s\"", b ? "," : "", cmp_bucket_name(b));
		printf("],\"layers\":[");
	} else {
		printf("model %s: NPU path (device %s) against the CPU reference path, %u layers\n",
		       a->model, devname, m.num_operators);
		printf("%-5s %-18s %-14s %-8s %8s %8s %7s  histogram |npu-ref| steps",
		       "layer", "op", "output", "engine", "bytes", "differ", "maxabs");
		for (unsigned int b = 0; b < CMP_BUCKETS; b++)
			printf(" %s", cmp_bucket_name(b));
		printf("\n");
	}
	for (uint32_t i = 0; i < m.num_operators; i++) {
		const struct tfl_operator *op = &m.operators[i];
		int32_t o = op->outputs[0];
		const struct tfl_tensor *x = &m.tensors[o];
		size_t bytes = tfl_tensor_count(x) * tfl_type_size(x->type);
		struct e1npu_tflite_layer l;
		struct cmp_result r;
		char shape[96];
		size_t so = 0;

		e1npu_tflite_get_layer(tn[i], 0, &l);
		shape[0] = 0;
		for (uint32_t d = 0; d < x->ndims && so + 12 < sizeof(shape); d++)
			so += (size_t)snprintf(shape + so, sizeof(shape) - so, "%s%d",
					       d ? (a->json ? "," : "x") : "", x->dims[d]);
		cmp_tensors(bn[o], br[o], bytes, x->type == TFL_TYPE_INT8, &r);
		total_differ += r.differ;
		if (r.differ && first < 0)
			first = (long)i;
		if (a->dump &&
		    (dump_layer(a->dump, i, l.op, "npu", x, bn[o], bytes, err, sizeof(err)) ||
		     dump_layer(a->dump, i, l.op, "ref", x, br[o], bytes, err, sizeof(err)))) {
			if (a->json)
				printf("]}\n");
			cls_error(a->json, "--dump %s", err);
			goto out;
		}
		if (a->json) {
			printf("%s{\"layer\":%u,\"op\":\"%s\",\"output_shape\":[%s],\"engine\":\"%s\","
			       "\"bytes\":%zu,\"differ\":%zu,\"max_abs\":%d,\"histogram\":[",
			       i ? "," : "", i, l.op, shape, e1npu_engine_name(l.report.engine),
			       bytes, r.differ, r.max_abs);
			for (unsigned int b = 0; b < CMP_BUCKETS; b++)
				printf("%s%zu", b ? "," : "", r.hist[b]);
			printf("]}");
		} else {
			printf("%-5u %-18s %-14s %-8s %8zu %8zu %7d  ", i, l.op, shape,
			       e1npu_engine_name(l.report.engine), bytes, r.differ, r.max_abs);
			for (unsigned int b = 0; b < CMP_BUCKETS; b++)
				printf("%s%zu", b ? "/" : "", r.hist[b]);
			printf("\n");
		}
	}
	if (a->json) {
		printf("],\"differing_bytes\":%llu,\"first_differing_layer\":",
		       (unsigned long long)total_differ);
		if (first >= 0)
			printf("%ld", first);
		else
			printf("null");
		printf(",\"dump\":");
		if (a->dump)
			cls_json_str(a->dump);
		else
			printf("null");
		printf("}\n");
	} else if (first >= 0) {
		printf("the paths part at layer %ld (%s): %llu differing bytes in all\n", first,
		       tfl_builtin_name(m.operators[first].builtin),
		       (unsigned long long)total_differ);
	} else {
		printf("the paths agree on every layer (0 differing bytes)\n");
	}
	if (a->dump && !a->json)
		printf("dumped %u layers x 2 paths to %s/\n", m.num_operators, a->dump);
	status = first >= 0 ? EXIT_RUN : EXIT_OK;
out:
	for (uint32_t i = 0; tn && tr && i < m.num_operators; i++) {
		e1npu_tflite_free(tn[i]);
		e1npu_tflite_free(tr[i]);
	}
	free(tn);
	free(tr);
	e1npu_ops_free(ctx);
	e1npu_device_close(dev);
	free_tensors(&m, bn);
	free_tensors(&m, br);
	free(ops);
	tfl_model_free(&m);
	free(file);
	return status;
}

/* ------------------------------------------------------------- compile */

static int cmd_compile(const struct args *a)
{
	struct e1npu_device *dev = NULL;
	struct e1npu_tflite *t = NULL;
	struct tflite_art art;
	uint32_t nlayers = 0;
	char err[512], devname[64] = "cpu", hex[65];
	void *file = NULL, *out = NULL;
	size_t size = 0, osize = 0;
	int status = EXIT_USAGE;

	if (cls_read_file(a->model, &file, &size, err, sizeof(err))) {
		cls_error(a->json, "%s", err);
		return EXIT_USAGE;
	}
	if (tflite_art_is(file, size)) {
		cls_error(a->json, "%s: already a compiled model: compile the .tflite", a->model);
		goto out;
	}
	status = EXIT_RUN;
	if (cls_open_device(a->device, a->json, &dev, devname, sizeof(devname)))
		goto out;
	/* the library compiles what its load computed (lib/tflite/tflite_artifact.c) */
	if (e1npu_tflite_load_memory(dev, file, size, NULL, &t, err, sizeof(err)) ||
	    e1npu_tflite_compile(t, &out, &osize, err, sizeof(err)) ||
	    tflite_art_parse(out, osize, TFLITE_ART_KIND_MODEL, e1npu_api_version(), &art,
			     err, sizeof(err))) {
		cls_error(a->json, "%s: %s", a->model, err);
		status = EXIT_USAGE;
		goto out;
	}
	if (cls_write_file(a->out[0], out, osize, err, sizeof(err))) {
		cls_error(a->json, "--output %s", err);
		goto out;
	}
	e1npu_tflite_get_counts(t, NULL, NULL, &nlayers);
	for (int i = 0; i < 32; i++)
		snprintf(hex + 2 * i, 3, "%02x", art.sha256[i]);
	if (a->json) {
		printf("{\"model\":");
		cls_json_str(a->model);
		printf(",\"artifact\":");
		cls_json_str(a->out[0]);
		printf(",\"bytes\":%zu,\"model_bytes\":%zu,\"format_version\":%u,"
		       "\"library_version\":\"%s\",\"model_sha256\":\"%s\",\"operators\":%u,"
		       "\"arena_tensors\":%u,\"device\":", osize, art.model_size,
		       TFLITE_ART_FORMAT, art.lib_version, hex, nlayers, art.narena);
		cls_json_str(devname);
		printf(",\"capabilities\":{\"engines\":%u,\"wrapper_caps\":%u,"
		       "\"gemmini_present\":%u,\"array_rows\":%u,\"array_cols\":%u}}\n",
		       art.caps.engines, art.caps.wrapper_caps, art.caps.gemmini_present,
		       art.caps.array_rows, art.caps.array_cols);
	} else {
		printf("compiled %s (sha256 %s, %u operators) for device %s (engines 0x%x, "
		       "array %ux%u) into %s: %zu bytes, format %u, libe1npu %s\n", a->model, hex,
		       nlayers, devname, art.caps.engines, art.caps.array_rows,
		       art.caps.array_cols, a->out[0], osize, TFLITE_ART_FORMAT, art.lib_version);
	}
	status = EXIT_OK;
out:
	free(out);
	e1npu_tflite_free(t);
	e1npu_device_close(dev);
	free(file);
	return status;
}

int main(int argc, char **argv)
{
	struct args a = { .runs = 1 };
	char err[512];
	int status;

	cls_set_prog("e1npu-tflite");
	a.json = cls_json_requested(argc, argv);
	status = parse_cmdline(argc, argv, &a);
	if (!status && e1npu_env_check(err, sizeof(err))) {
		cls_error(a.json, "%s", err);
		status = EXIT_USAGE;
	}
	if (!status && (status = cli_trace_start(a.json, a.trace)))
		a.trace = NULL;
	if (!status) {
		if (!strcmp(a.cmd, "run"))
			status = cmd_run(&a);
		else if (!strcmp(a.cmd, "report"))
			status = cmd_report(&a);
		else if (!strcmp(a.cmd, "compile"))
			status = cmd_compile(&a);
		else
			status = cmd_diff(&a);
	}
	/* checked through fclose: a full disk is an error naming the file;
	 * bad input leaves it as it was */
	status = cli_trace_finish(a.json, a.trace, status);
	if (cls_close_stdout())
		status = EXIT_RUN;
	return status;
}
