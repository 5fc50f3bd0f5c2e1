// SPDX-License-Identifier: MIT
/*
 * e1npu-hlo: run StableHLO modules (textual MLIR) through libe1npu: every
 * argument-less function (each section of a split file), its checks, its
 * results, and the partition report. Documentation/hlo.md.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <e1npu/e1npu.h>
#include <e1npu/e1npu_hlo.h>

#include "cli.h"
#include "device.h"
#include "errout.h"
#include "npy.h"
#include "progress-timer.h"
#include "trace-opt.h"
#include "values.h"

#define MAX_INPUTS 64
/* Results of at most this many elements are printed in the text output. */
#define PRINT_MAX_ELEMS 64
/* ... and in the JSON output. */
#define JSON_MAX_ELEMS (1u << 20)


struct args {
	const char *file, *device, *trace;
	const char *inputs[MAX_INPUTS];
	const char *outputs[MAX_INPUTS];
	int ninputs, noutputs;
	unsigned int tol, max_work_mi;
	bool report, json, cpu_only;
};

static void usage(FILE *f)
{
	fprintf(f,
"Usage: e1npu-hlo run [options] FILE.mlir\n"
"Run a StableHLO module on the e1 NPU: every function without arguments\n"
"(every section of a \"// -----\" split file), one line per check.\n\n"
"  --report               print the partition report (engine, reason, API,\n"
"                         command-buffer batch, arena plan per op)\n"
"  --json                 machine-readable output\n"
"  --quant-tolerance=N    accept N LSB between the NPU's fixed-point\n"
"                         requantization and the specification (default 0)\n"
"  --device SPEC          sim (in-process model), /dev/accel/accelN or auto\n"
"                         (default: $E1NPU_DEVICE, else auto)\n"
"  --cpu-only             every op on the CPU references (not with --device)\n"
"  --input NAME=FILE.npy  bind an argument of public @main (repeatable; every\n"
"                         argument must be bound)\n"
"  --output NAME=FILE.npy write result NAME (\"main\" or \"main#1\": function\n"
"                         and result index) to a .npy file (repeatable)\n"
"  --max-work=MI          the work cap: the run's CPU work, in Mi steps (2^20\n"
"                         each), 1 to 4194304 (default: $E1NPU_HLO_MAX_WORK,\n"
"                         else 4096 = 2^32 steps)\n"
"  --trace FILE           a timeline trace of the run (Chrome trace-event\n"
"                         JSON: host spans, device spans per engine) to FILE;\n"
"                         takes precedence over $E1NPU_TRACE\n"
"  -h, --help             this help\n"
"  -V, --version          version\n\n"
"Results of up to 64 elements are printed (all of them in --json).\n"
"Exit status: 0 when every check passed, 1 when a check failed or an op\n"
"could not run, 2 on bad usage or input (a module that does not load, an\n"
"unbound argument, nothing to run, a bad environment variable).\n");
}

static void die_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die_usage(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "e1npu-hlo: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'e1npu-hlo --help'.\n");
	exit(EXIT_USAGE);
}

static unsigned long parse_num(const char *opt, const char *s, unsigned long min,
			       unsigned long max, const char *unit)
{
	char *e;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &e, 10);
	if (*s < '0' || *s > '9' || *e || errno || v < min || v > max)
		die_usage("%s: '%s' is not a number of %s in %lu..%lu", opt, s, unit, min, max);
	return v;
}

static void parse_args(int argc, char **argv, struct args *a)
{
	static const struct option opts[] = {
		{ "report", no_argument, NULL, 'r' },
		{ "json", no_argument, NULL, 'j' },
		{ "quant-tolerance", required_argument, NULL, 't' },
		{ "device", required_argument, NULL, 'd' },
		{ "cpu-only", no_argument, NULL, 'c' },
		{ "input", required_argument, NULL, 'i' },
		{ "output", required_argument, NULL, 'o' },
		{ "max-work", required_argument, NULL, 'w' },
		{ "trace", required_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(a, 0, sizeof(*a));
	while ((c = getopt_long(argc, argv, "hV", opts, NULL)) != -1) {
		switch (c) {
		case 'r': a->report = true; break;
		case 'j': a->json = true; break;
		case 'c': a->cpu_only = true; break;
		case 'd':
			if (a->device)
				die_usage("--device given twice ('%s' and '%s')", a->device, optarg);
			a->device = optarg;
			break;
		case 't':
			a->tol = (unsigned int)parse_num("--quant-tolerance", optarg, 0, 255, "LSBs");
			break;
		case 'T':
			if (a->trace)
				die_usage("--trace given twice ('%s' and '%s')", a->trace, optarg);
			a->trace = optarg;
			break;
		case 'w':
			a->max_work_mi = (unsigned int)parse_num("--max-work", optarg, 1, 1ul << 22,
								 "Mi steps");
			break;
		case 'o':
			if (a->noutputs >= MAX_INPUTS)
				die_usage("more than %d --output", MAX_INPUTS);
			if (!strchr(optarg, '=') || optarg[0] == '=' || !strchr(optarg, '=')[1])
				die_usage("--output '%s': expected NAME=FILE.npy", optarg);
			a->outputs[a->noutputs++] = optarg;
			break;
		case 'i':
			if (a->ninputs >= MAX_INPUTS)
				die_usage("more than %d --input", MAX_INPUTS);
			if (!strchr(optarg, '='))
				die_usage("--input '%s': expected NAME=FILE.npy", optarg);
			a->inputs[a->ninputs++] = optarg;
			break;
		case 'h': exit(cli_help_or_version(false, usage));
		case 'V': exit(cli_help_or_version(true, usage));
		default:
			/* getopt said what was wrong; no --json errors at this stage */
			exit(cli_bad_option(false));
		}
	}
	if (a->cpu_only && a->device)
		die_usage("--cpu-only runs without a device: not with --device '%s'", a->device);
	if (optind >= argc)
		die_usage("missing command (run)");
	if (strcmp(argv[optind], "run"))
		die_usage("unknown command '%s'", argv[optind]);
	if (optind + 1 >= argc)
		die_usage("missing FILE.mlir");
	if (optind + 2 < argc)
		die_usage("unexpected argument '%s'", argv[optind + 2]);
	a->file = argv[optind + 1];
}

struct printer {
	const struct args *a;
	int n;
};

static void on_check(void *arg, const struct e1npu_hlo_check *c)
{
	struct printer *p = arg;

	progress_timer_check();
	if (p->a->json) {
		printf("%s{\"section\": %u, \"line\": %u, \"func\": ", p->n ? ", " : "",
		       c->section, c->line);
		cls_json_str(c->func);
		printf(", \"check\": ");
		cls_json_str(c->kind);
		printf(", \"passed\": %s, \"message\": ", c->passed ? "true" : "false");
		cls_json_str(c->msg);
		printf("}");
	} else {
		printf("%s  %s:%u  @%s  %s  %s\n", c->passed ? "PASS" : "FAIL", p->a->file,
		       c->line, c->func, c->kind, c->msg);
	}
	p->n++;
}

static const char *ran_name(uint32_t e)
{
	return e ? e1npu_engine_name(e) : "-";
}

static void report_text(const struct e1npu_hlo *h)
{
	size_t nf = e1npu_hlo_num_funcs(h), no = e1npu_hlo_num_ops(h), oi = 0;

	printf("partition report\n");
	for (size_t i = 0; i < nf; i++) {
		struct e1npu_hlo_func_info fi;

		if (e1npu_hlo_get_func(h, i, &fi))
			continue;
		printf("@%s (section %u, line %u): %u ops, %u command-buffer batch%s, arena peak %llu B (slots %llu B)\n",
		       fi.name, fi.section, fi.line, fi.num_ops, fi.num_batches,
		       fi.num_batches == 1 ? "" : "es", (unsigned long long)fi.arena_peak,
		       (unsigned long long)fi.arena_total);
		printf("  %-5s %-8s %-28s %-6s %-9s %-5s %-6s %-15s %-28s %s\n", "line", "result",
		       "op", "engine", "ran", "batch", "hw_ops", "arena off+size", "api", "why");
		for (uint32_t k = 0; k < fi.num_ops && oi < no; k++, oi++) {
			struct e1npu_hlo_op_info o;
			char batch[16], arena[40];

			if (e1npu_hlo_get_op(h, oi, &o))
				continue;
			snprintf(batch, sizeof(batch), o.batch >= 0 ? "%d" : "-", o.batch);
			if (o.arena_size)
				snprintf(arena, sizeof(arena), "%llu+%llu",
					 (unsigned long long)o.arena_offset,
					 (unsigned long long)o.arena_size);
			else
				snprintf(arena, sizeof(arena), "-");
			printf("  %-5u %-8s %-28s %-6s %-9s %-5s %-6u %-15s %-28s %s", o.line,
			       o.result[0] ? o.result : "-", o.op, e1npu_hlo_engine_name(o.engine),
			       ran_name(o.ran_engine), batch, o.hw_ops, arena, o.api, o.why);
			if (o.lsb_diff)
				printf(" [requantization: %u element%s differ by up to %u LSB from the float decomposition]",
				       o.lsb_diff_count, o.lsb_diff_count == 1 ? "" : "s", o.lsb_diff);
			printf("\n");
		}
	}
}

/* The batches of one function's ops: index, results, APIs, hardware ops. */
static void json_batches(const struct e1npu_hlo_op_info *o, uint32_t n, uint32_t nb)
{
	printf(", \"command_buffer_batches\": [");
	for (uint32_t b = 0; b < nb; b++) {
		uint32_t hw = 0;
		int first = 1;

		printf("%s{\"index\": %u, \"ops\": [", b ? ", " : "", b);
		for (uint32_t k = 0; k < n; k++)
			if (o[k].batch == (int32_t)b) {
				printf("%s", first ? "" : ", ");
				cls_json_str(o[k].result);
				first = 0;
				hw += o[k].hw_ops;
			}
		printf("], \"apis\": [");
		first = 1;
		for (uint32_t k = 0; k < n; k++)
			if (o[k].batch == (int32_t)b) {
				printf("%s", first ? "" : ", ");
				cls_json_str(o[k].api);
				first = 0;
			}
		printf("], \"hw_ops\": %u}", hw);
	}
	printf("]");
}

static void report_json(const struct e1npu_hlo *h)
{
	size_t nf = e1npu_hlo_num_funcs(h), no = e1npu_hlo_num_ops(h), oi = 0;

	printf(", \"functions\": [");
	for (size_t i = 0; i < nf; i++) {
		struct e1npu_hlo_func_info fi;
		struct e1npu_hlo_op_info *ops;
		uint32_t n = 0;

		if (e1npu_hlo_get_func(h, i, &fi))
			continue;
		ops = calloc(fi.num_ops + 1, sizeof(*ops));
		if (!ops)
			return;
		for (uint32_t k = 0; k < fi.num_ops && oi < no; k++, oi++)
			if (!e1npu_hlo_get_op(h, oi, &ops[n]))
				n++;
		printf("%s{\"name\": ", i ? ", " : "");
		cls_json_str(fi.name);
		printf(", \"section\": %u, \"line\": %u, \"num_batches\": %u",
		       fi.section, fi.line, fi.num_batches);
		json_batches(ops, n, fi.num_batches);
		printf(", \"tensor_arena_plan\": {\"peak_bytes\": %llu, \"slot_bytes\": %llu, "
		       "\"alignment\": 16}, \"ops\": [", (unsigned long long)fi.arena_peak,
		       (unsigned long long)fi.arena_total);
		for (uint32_t k = 0; k < n; k++) {
			const struct e1npu_hlo_op_info *o = &ops[k];

			printf("%s{\"line\": %u, \"result\": ", k ? ", " : "", o->line);
			cls_json_str(o->result);
			printf(", \"op\": ");
			cls_json_str(o->op);
			printf(", \"engine\": \"%s\", \"ran_engine\": \"%s\", \"batch\": %d, "
			       "\"hw_ops\": %u, \"lsb_diff\": %u, \"lsb_diff_count\": %u, "
			       "\"arena_offset\": %llu, \"arena_size\": %llu, \"api\": ",
			       e1npu_hlo_engine_name(o->engine), ran_name(o->ran_engine), o->batch,
			       o->hw_ops, o->lsb_diff, o->lsb_diff_count,
			       (unsigned long long)o->arena_offset, (unsigned long long)o->arena_size);
			cls_json_str(o->api);
			printf(", \"why\": ");
			cls_json_str(o->why);
			printf("}");
		}
		printf("]}");
		free(ops);
	}
	printf("]");
}

static int bind_inputs(struct e1npu_hlo *h, const struct args *a, char *err, size_t len)
{
	for (int i = 0; i < a->ninputs; i++) {
		char name[128];
		const char *eq = strchr(a->inputs[i], '=');
		size_t nl = (size_t)(eq - a->inputs[i]);
		struct npy n;
		int ret;

		if (nl >= sizeof(name) || !nl) {
			snprintf(err, len, "--input '%s': bad name", a->inputs[i]);
			return -EINVAL;
		}
		memcpy(name, a->inputs[i], nl);
		name[nl] = 0;
		ret = npy_read(eq + 1, &n, err, len);
		if (ret)
			return ret;
		ret = e1npu_hlo_set_input(h, name[0] == '%' ? name + 1 : name, n.dtype, n.rank,
					  n.dims, n.data, n.size);
		npy_free(&n);
		if (ret) {
			snprintf(err, len, "--input %s: %s", name, e1npu_hlo_last_error(h));
			return ret;
		}
	}
	return 0;
}

/* Open the device: its name for the output; auto without an NPU says so. */
static int open_device(const struct args *a, struct e1npu_device **dev, char *name,
		       size_t len)
{
	if (a->cpu_only) {
		snprintf(name, len, "cpu");
		return 0;
	}
	/* no JSON yet: a device that does not open is a stderr line only */
	return cls_open_device(a->device, false, dev, name, len);
}

/* The output NAME ("main", "main#1") is: index, or -1 with a message. */
static long find_output(const struct e1npu_hlo *h, const char *name, size_t nl)
{
	size_t n = e1npu_hlo_num_outputs(h);

	for (size_t i = 0; i < n; i++) {
		struct e1npu_hlo_output o;
		const char *hash;

		if (e1npu_hlo_get_output(h, i, &o, NULL, 0))
			continue;
		hash = strchr(o.name, '#');
		if ((strlen(o.name) == nl && !strncmp(o.name, name, nl)) ||
		    (o.index == 0 && hash && (size_t)(hash - o.name) == nl &&
		     !strncmp(o.name, name, nl)))
			return (long)i;
	}
	return -1;
}

/* --output NAME=FILE.npy: each named result written, checked. */
static int write_outputs(const struct e1npu_hlo *h, const struct args *a)
{
	for (int k = 0; k < a->noutputs; k++) {
		const char *eq = strchr(a->outputs[k], '=');
		size_t nl = (size_t)(eq - a->outputs[k]);
		long i = find_output(h, a->outputs[k], nl);
		struct e1npu_hlo_output o;
		char err[512];
		void *data;
		int ret;

		if (i < 0) {
			size_t n = e1npu_hlo_num_outputs(h);

			fprintf(stderr, "e1npu-hlo: %s: --output %.*s: no such result (", a->file,
				(int)nl, a->outputs[k]);
			for (size_t j = 0; j < n; j++)
				if (!e1npu_hlo_get_output(h, j, &o, NULL, 0))
					fprintf(stderr, "%s%s", j ? ", " : "results: ", o.name);
			fprintf(stderr, "%s)\n", n ? "" : "the module returned nothing");
			return EXIT_USAGE;
		}
		e1npu_hlo_get_output(h, (size_t)i, &o, NULL, 0);
		data = malloc(o.bytes ? o.bytes : 1);
		if (!data || e1npu_hlo_get_output(h, (size_t)i, &o, data, o.bytes)) {
			free(data);
			fprintf(stderr, "e1npu-hlo: --output %s: out of memory\n", o.name);
			return EXIT_RUN;
		}
		ret = npy_write(eq + 1, o.dtype, o.rank, o.dims, data, o.bytes, err, sizeof(err));
		free(data);
		if (ret) {
			fprintf(stderr, "e1npu-hlo: --output %s: %s\n", o.name, err);
			return EXIT_RUN;
		}
	}
	return EXIT_OK;
}

/* The results: small ones printed (all in --json, up to JSON_MAX_ELEMS). */
static void print_outputs(const struct e1npu_hlo *h, const struct args *a)
{
	size_t n = e1npu_hlo_num_outputs(h);

	if (a->json)
		printf(", \"outputs\": [");
	for (size_t i = 0; i < n; i++) {
		struct e1npu_hlo_output o;
		size_t lim = a->json ? JSON_MAX_ELEMS : PRINT_MAX_ELEMS;
		uint8_t *data = NULL;

		if (e1npu_hlo_get_output(h, i, &o, NULL, 0))
			continue;
		if (o.elements <= lim) {
			data = malloc(o.bytes ? o.bytes : 1);
			if (data && e1npu_hlo_get_output(h, i, &o, data, o.bytes)) {
				free(data);
				data = NULL;
			}
		}
		if (a->json) {
			printf("%s{\"name\": ", i ? ", " : "");
			cls_json_str(o.name);
			printf(", \"type\": ");
			cls_json_str(o.type);
			printf(", \"dtype\": \"%s\", \"shape\": [", o.dtype);
			for (uint32_t d = 0; d < o.rank; d++)
				printf("%s%llu", d ? ", " : "", (unsigned long long)o.dims[d]);
			printf("], \"values\": ");
			if (data)
				values_print(stdout, &o, data, true);
			else
				printf("null");
			printf("}");
		} else if (data) {
			printf("result @%s %s = ", o.name, o.type);
			values_print(stdout, &o, data, false);
			printf("\n");
		} else {
			printf("result @%s %s: %llu elements (--output %s=FILE.npy writes them)\n",
			       o.name, o.type, (unsigned long long)o.elements, o.name);
		}
		free(data);
	}
	if (a->json)
		printf("]");
}

int main(int argc, char **argv)
{
	struct args a;
	struct e1npu_device *dev = NULL;
	struct e1npu_hlo_options opt;
	struct e1npu_hlo *h = NULL;
	struct printer pr;
	char err[640], devname[64];
	uint32_t passed = 0, failed = 0;
	int ret, status;

	cls_set_prog("e1npu-hlo");
	parse_args(argc, argv, &a);
	if (e1npu_env_check(err, sizeof(err))) {
		fprintf(stderr, "e1npu-hlo: %s\n", err);
		return EXIT_USAGE;
	}
	memset(&opt, 0, sizeof(opt));
	opt.quant_tolerance = a.tol;
	opt.cpu_only = a.cpu_only;
	opt.max_work_mi = a.max_work_mi;
	if (cli_trace_start(false, a.trace))
		return EXIT_USAGE;
	if (open_device(&a, &dev, devname, sizeof(devname)))
		return cli_trace_finish(false, a.trace, EXIT_RUN);
	ret = e1npu_hlo_load_file(dev, a.file, &opt, &h, err, sizeof(err));
	e1npu_device_close(dev);
	if (ret) {
		if (a.json) {
			printf("{\"file\": ");
			cls_json_str(a.file);
			printf(", \"error\": ");
			cls_json_str(err);
			printf("}\n");
		}
		fprintf(stderr, "e1npu-hlo: %s\n", err);
		cls_close_stdout();
		return cli_trace_finish(false, a.trace, EXIT_USAGE);
	}
	ret = bind_inputs(h, &a, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "e1npu-hlo: %s\n", err);
		e1npu_hlo_free(h);
		return cli_trace_finish(false, a.trace, EXIT_USAGE);
	}
	pr.a = &a;
	pr.n = 0;
	if (a.json) {
		printf("{\"file\": ");
		cls_json_str(a.file);
		printf(", \"device\": ");
		cls_json_str(devname);
		printf(", \"checks\": [");
	}
	progress_timer_start();
	ret = e1npu_hlo_run(h, on_check, &pr, &passed, &failed);
	progress_timer_end();
	if (a.json) {
		printf("], \"passed\": %u, \"failed\": %u", passed, failed);
		if (ret) {
			printf(", \"error\": ");
			cls_json_str(e1npu_hlo_last_error(h));
		}
		print_outputs(h, &a);
		if (a.report)
			report_json(h);
		printf("}\n");
	} else if (ret != -ENODATA) {	/* nothing ran: no "0 passed" */
		print_outputs(h, &a);
		printf("checks: %u passed, %u failed (device %s)\n", passed, failed, devname);
		if (a.report)
			report_text(h);
	}
	/* once, on stderr, with the file: the library's message has the line */
	if (ret)
		fprintf(stderr, "e1npu-hlo: %s: %s%s\n", a.file, e1npu_hlo_last_error(h),
			ret == -E2BIG ? " (e1npu-hlo --max-work=MI)" :
			strstr(e1npu_hlo_last_error(h), "not bound") ?
			" (e1npu-hlo --input NAME=FILE.npy)" : "");
	status = ret == -ENODATA ? EXIT_USAGE : ret || failed ? EXIT_RUN : EXIT_OK;
	if (!ret) {
		int w = write_outputs(h, &a);

		if (w)
			status = w;
	}
	e1npu_hlo_free(h);
	status = cli_trace_finish(false, a.trace, status);
	if (cls_close_stdout())
		return EXIT_RUN;
	return status;
}
