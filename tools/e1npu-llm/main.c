// SPDX-License-Identifier: MIT
/*
 * e1npu-llm: generate text with a llama2.c checkpoint on the e1 NPU (int8
 * path, libe1npu's lowering layer) or on the CPU in float32 (--float).
 * Streams the text, then one statistics line; --json prints one object
 * instead. Documentation/llm.md.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <e1npu/e1npu.h>
#include <e1npu/e1npu_llm.h>

#include "cli.h"
#include "device.h"
#include "errout.h"
#include "trace-opt.h"

#define MODEL_CLOCK_HZ	1e9	/* the device model's engine clock (e1_timing.h) */

struct args {
	const char *model, *tok, *prompt, *device, *trace;
	unsigned long steps, group;
	double temperature, top_p;
	unsigned long long seed;
	int use_float, json, steps_set, force_set, batch, ops_set;
	unsigned int force, ops_e1, ops_host;
};

static void usage(FILE *f)
{
	fprintf(f,
"Usage: e1npu-llm -m MODEL -z TOKENIZER [-p PROMPT] [-n N] [--temperature T]\n"
"                 [--top-p P] [--seed S] [--group G] [--engine E] [--batch]\n"
"                 [--ops-on SPEC] [--float] [--device D]\n"
"                 [--trace FILE] [--json]\n"
"Generate text with a llama2.c checkpoint (Llama architecture, float32\n"
"weights): int8 weights and activations with the matmuls on the e1 NPU\n"
"(default), or the float32 reference path on the CPU (--float).\n\n"
"  -m, --model FILE      llama2.c checkpoint (.bin)\n"
"  -z, --tokenizer FILE  llama2.c tokenizer (.bin)\n"
"  -p, --prompt TEXT     prompt (default: empty, generation starts at BOS)\n"
"  -n, --steps N         forward passes, prompt included, as llama2.c's -n:\n"
"                        1 to seq_len (default 256, capped at seq_len)\n"
"      --temperature T   0 greedy (default), else sampling at T\n"
"      --top-p P         nucleus sampling mass in [0, 1] (default 0.9)\n"
"      --seed S          sampler seed, a positive integer (default 1)\n"
"      --group G         int8 quantization group size, 1 to 4096 (default 32)\n"
"      --engine E        int8 matmuls on auto (default: the library's choice),\n"
"                        wrapper, datapath or cpu\n"
"      --batch           int8 groups as a batch matmul, one slice (job) per\n"
"                        group, not block-diagonal rows of one matmul\n"
"      --ops-on SPEC     int8 path: where RMSNorm, RoPE, attention, softmax and\n"
"                        SwiGLU run: e1 (all through the e1 lowerings), host\n"
"                        (all in float32 on the host), default, or a list\n"
"                        OP=e1|host,... of rmsnorm, rope, attention, softmax,\n"
"                        swiglu (the others: default)\n"
"      --float           the float32 reference path on the CPU\n"
"  -d, --device SPEC     sim, /dev/accel/accelN (default: $E1NPU_DEVICE or auto)\n"
"      --trace FILE      a timeline trace (Chrome trace-event JSON) to FILE\n"
"      --json            one JSON object: ids, text, statistics, placement\n"
"  -h, --help            this help\n"
"  -V, --version         version\n\n"
"Exit status: 0 success, 1 the run failed, 2 bad usage or input (options,\n"
"model, tokenizer, environment).\n");
}

static int parse_num(bool json, const char *opt, const char *v, double lo,
		     double hi, double *out)
{
	char *end;
	double d;

	errno = 0;
	d = strtod(v, &end);
	if (errno || end == v || *end || !(d >= lo && d <= hi)) {
		cls_error(json, "%s '%s': expected a number from %g to %g", opt, v, lo, hi);
		return EXIT_USAGE;
	}
	*out = d;
	return 0;
}

static int parse_int(bool json, const char *opt, const char *v, unsigned long long lo,
		     unsigned long long hi, unsigned long long *out)
{
	char *end;
	unsigned long long u;

	errno = 0;
	if (*v == '-' || *v == '+') {
		cls_error(json, "%s '%s': expected a whole number from %llu to %llu", opt, v, lo, hi);
		return EXIT_USAGE;
	}
	u = strtoull(v, &end, 10);
	if (errno || end == v || *end || u < lo || u > hi) {
		cls_error(json, "%s '%s': expected a whole number from %llu to %llu", opt, v, lo, hi);
		return EXIT_USAGE;
	}
	*out = u;
	return 0;
}

static const struct {
	const char *name;
	unsigned int bit;
} op_bits[] = {
	{ "rmsnorm", E1NPU_LLM_OPS_RMSNORM }, { "rope", E1NPU_LLM_OPS_ROPE },
	{ "attention", E1NPU_LLM_OPS_ATTENTION }, { "softmax", E1NPU_LLM_OPS_SOFTMAX },
	{ "swiglu", E1NPU_LLM_OPS_SWIGLU },
};

/* --ops-on: e1, host, default, or OP=e1|host,... */
static int parse_ops(bool json, const char *v, struct args *a)
{
	char buf[256], *save = NULL, *item;

	a->ops_e1 = a->ops_host = 0;
	if (!strcmp(v, "e1") || !strcmp(v, "host") || !strcmp(v, "default")) {
		if (*v == 'e')
			a->ops_e1 = E1NPU_LLM_OPS_ALL;
		else if (*v == 'h')
			a->ops_host = E1NPU_LLM_OPS_ALL;
		return 0;
	}
	if (strlen(v) >= sizeof(buf) || !*v)
		goto bad;
	strcpy(buf, v);
	for (item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(item, '=');
		unsigned int bit = 0;

		if (!eq)
			goto bad;
		*eq = '\0';
		for (size_t i = 0; i < sizeof(op_bits) / sizeof(op_bits[0]); i++)
			if (!strcmp(item, op_bits[i].name))
				bit = op_bits[i].bit;
		if (!bit) {
			cls_error(json, "--ops-on '%s': unknown op '%s': expected rmsnorm, rope, attention, softmax or swiglu",
				  v, item);
			return EXIT_USAGE;
		}
		if ((a->ops_e1 | a->ops_host) & bit) {
			cls_error(json, "--ops-on '%s': op '%s' given twice", v, item);
			return EXIT_USAGE;
		}
		if (!strcmp(eq + 1, "e1"))
			a->ops_e1 |= bit;
		else if (!strcmp(eq + 1, "host"))
			a->ops_host |= bit;
		else {
			cls_error(json, "--ops-on '%s': op '%s' placed on '%s': expected e1 or host", v, item, eq + 1);
			return EXIT_USAGE;
		}
	}
	return 0;
bad:
	cls_error(json, "--ops-on '%s': expected e1, host, default or OP=e1|host,... (OP: rmsnorm, rope, attention, softmax, swiglu)",
		  v);
	return EXIT_USAGE;
}

static int parse_args(int argc, char **argv, struct args *a)
{
	static const struct option lopts[] = {
		{ "model", required_argument, NULL, 'm' },
		{ "tokenizer", required_argument, NULL, 'z' },
		{ "prompt", required_argument, NULL, 'p' },
		{ "steps", required_argument, NULL, 'n' },
		{ "temperature", required_argument, NULL, 'T' },
		{ "top-p", required_argument, NULL, 'P' },
		{ "seed", required_argument, NULL, 'S' },
		{ "group", required_argument, NULL, 'G' },
		{ "float", no_argument, NULL, 'F' },
		{ "engine", required_argument, NULL, 'E' },
		{ "batch", no_argument, NULL, 'R' },
		{ "ops-on", required_argument, NULL, 'O' },
		{ "device", required_argument, NULL, 'd' },
		{ "trace", required_argument, NULL, 't' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	bool json = a->json;
	unsigned long long u;
	int c, r;

	while ((c = getopt_long(argc, argv, "m:z:p:n:d:hV", lopts, NULL)) != -1) {
		switch (c) {
		case 'm': if ((r = cli_set_once(json, "-m/--model", &a->model, optarg))) return r; break;
		case 'z': if ((r = cli_set_once(json, "-z/--tokenizer", &a->tok, optarg))) return r; break;
		case 'p': if ((r = cli_set_once(json, "-p/--prompt", &a->prompt, optarg))) return r; break;
		case 'd': if ((r = cli_set_once(json, "-d/--device", &a->device, optarg))) return r; break;
		case 't': if ((r = cli_set_once(json, "--trace", &a->trace, optarg))) return r; break;
		case 'n':
			if ((r = parse_int(json, "-n/--steps", optarg, 1, 1u << 20, &u)))
				return r;
			a->steps = (unsigned long)u;
			a->steps_set = 1;
			break;
		case 'T':
			if ((r = parse_num(json, "--temperature", optarg, 0, 100, &a->temperature)))
				return r;
			break;
		case 'P':
			if ((r = parse_num(json, "--top-p", optarg, 0, 1, &a->top_p)))
				return r;
			break;
		case 'S':
			if ((r = parse_int(json, "--seed", optarg, 1, ~0ull, &a->seed)))
				return r;
			break;
		case 'G':
			if ((r = parse_int(json, "--group", optarg, 1, 4096, &u)))
				return r;
			a->group = (unsigned long)u;
			break;
		case 'F': a->use_float = 1; break;
		case 'O':
			if (a->ops_set) {
				cls_error(json, "--ops-on given twice");
				return EXIT_USAGE;
			}
			if ((r = parse_ops(json, optarg, a)))
				return r;
			a->ops_set = 1;
			break;
		case 'R': a->batch = 1; break;
		case 'E':
			if (!strcmp(optarg, "auto"))
				a->force = E1NPU_OPS_FORCE_AUTO;
			else if (!strcmp(optarg, "wrapper"))
				a->force = E1NPU_OPS_FORCE_WRAPPER;
			else if (!strcmp(optarg, "datapath"))
				a->force = E1NPU_OPS_FORCE_DATAPATH;
			else if (!strcmp(optarg, "cpu"))
				a->force = E1NPU_OPS_FORCE_CPU;
			else {
				cls_error(json, "--engine '%s': expected auto, wrapper, datapath or cpu", optarg);
				return EXIT_USAGE;
			}
			a->force_set = 1;
			break;
		case 'j': break;
		case 'h': exit(cli_help_or_version(false, usage));
		case 'V': exit(cli_help_or_version(true, usage));
		default: return cli_bad_option(json);
		}
	}
	if (optind < argc) {
		cls_error(json, "unexpected argument '%s'", argv[optind]);
		return EXIT_USAGE;
	}
	if (!a->model || !a->tok) {
		cls_error(json, "%s is required", !a->model ? "-m/--model" : "-z/--tokenizer");
		return EXIT_USAGE;
	}
	if (a->use_float && a->device) {
		cls_error(json, "--float runs on the CPU: not with -d/--device");
		return EXIT_USAGE;
	}
	if (a->use_float && (a->group || a->force_set || a->batch || a->ops_set)) {
		cls_error(json, "%s is for the int8 path: not with --float",
			  a->group ? "--group" : a->batch ? "--batch" : a->ops_set ? "--ops-on" : "--engine");
		return EXIT_USAGE;
	}
	return 0;
}

static void json_ids(const char *name, const int32_t *ids, size_t n)
{
	printf("\"%s\": [", name);
	for (size_t i = 0; i < n; i++)
		printf("%s%d", i ? ", " : "", ids[i]);
	printf("]");
}

/* Appends @s to the growing text buffer. */
static int text_add(char **buf, size_t *len, size_t *cap, const char *s)
{
	size_t n = strlen(s);

	if (*len + n + 1 > *cap) {
		size_t nc = (*cap ? *cap * 2 : 256) + n;
		char *nb = realloc(*buf, nc);

		if (!nb)
			return -ENOMEM;
		*buf = nb;
		*cap = nc;
	}
	memcpy(*buf + *len, s, n + 1);
	*len += n;
	return 0;
}

static int printable(const char *s)
{
	/* llama2.c's safe printing: single bytes that are not printable or space are dropped */
	if (!s[0])
		return 0;
	if (!s[1]) {
		unsigned char b = (unsigned char)s[0];

		return (b >= 0x20 && b != 0x7f) || b == '\n' || b == '\t' || b >= 0x80;
	}
	return 1;
}

int main(int argc, char **argv)
{
	struct args a = { .top_p = 0.9, .seed = 1 };
	struct e1npu_llm_options opt = { 0 };
	struct e1npu_device *dev = NULL;
	struct e1npu_llm_config cfg;
	struct e1npu_llm_stats st;
	struct e1npu_llm *l = NULL;
	char err[512], devname[64] = "cpu";
	int32_t *prompt = NULL, *gen = NULL;
	size_t np = 0, ng = 0, tlen = 0, tcap = 0;
	char *text = NULL;
	const float *logits;
	int status = EXIT_RUN, r;
	int32_t tok, prev;

	cls_set_prog("e1npu-llm");
	a.json = cls_json_requested(argc, argv);
	if ((r = parse_args(argc, argv, &a)))
		return r;
	if ((r = e1npu_env_check(err, sizeof(err)))) {
		cls_error(a.json, "%s", err);
		return EXIT_USAGE;
	}
	if (!a.use_float && cls_open_device(a.device, a.json, &dev, devname, sizeof(devname)))
		return EXIT_USAGE;
	opt.path = a.use_float ? E1NPU_LLM_PATH_FLOAT : E1NPU_LLM_PATH_INT8;
	opt.group_size = (uint32_t)a.group;
	opt.force = a.force;
	opt.mm_mode = a.batch ? E1NPU_LLM_MM_BATCH : E1NPU_LLM_MM_ROWS;
	opt.ops_e1 = a.ops_e1;
	opt.ops_host = a.ops_host;
	r = e1npu_llm_load_file(dev, a.model, a.tok, &opt, &l, err, sizeof(err));
	e1npu_device_close(dev);
	if (r) {
		cls_error(a.json, "%s", err);
		return EXIT_USAGE;
	}
	e1npu_llm_get_config(l, &cfg);
	if (!a.steps_set || a.steps > cfg.seq_len)
		a.steps = a.steps_set ? cfg.seq_len : (cfg.seq_len < 256 ? cfg.seq_len : 256);
	if (e1npu_llm_set_sampler(l, (float)a.temperature, (float)a.top_p, a.seed)) {
		cls_error(a.json, "%s", e1npu_llm_last_error(l));
		status = EXIT_USAGE;
		goto out;
	}
	{
		const char *p = a.prompt ? a.prompt : "";
		size_t max = strlen(p) + 4;

		prompt = malloc(max * sizeof(*prompt));
		gen = malloc((a.steps + 1) * sizeof(*gen));
		if (!prompt || !gen) {
			cls_error(a.json, "out of memory");
			goto out;
		}
		if (e1npu_llm_encode(l, p, 1, 0, prompt, max, &np)) {
			cls_error(a.json, "prompt: %s", e1npu_llm_last_error(l));
			status = EXIT_USAGE;
			goto out;
		}
	}
	if (np > a.steps) {
		cls_error(a.json, "prompt of %zu tokens is longer than -n/--steps %lu", np, a.steps);
		status = EXIT_USAGE;
		goto out;
	}
	if ((r = cli_trace_start(a.json, a.trace)))
		goto out_status;
	if (e1npu_llm_prefill(l, prompt, np, &logits)) {
		cls_error(a.json, "prefill: %s", e1npu_llm_last_error(l));
		goto out_trace;
	}
	prev = prompt[np - 1];
	/* the prompt's own text after BOS, as llama2.c prints it */
	for (size_t i = 1; i < np; i++) {
		const char *s;

		e1npu_llm_decode(l, prompt[i - 1], prompt[i], &s);
		if (printable(s)) {
			if (!a.json) {
				fputs(s, stdout);
				fflush(stdout);
			}
			if (text_add(&text, &tlen, &tcap, s))
				goto out_trace;
		}
	}
	for (size_t pos = np - 1; pos < a.steps; pos++) {
		const char *s;

		if (e1npu_llm_sample(l, logits, &tok))
			goto out_trace;
		if (tok == 1)	/* BOS ends the sequence */
			break;
		gen[ng++] = tok;
		e1npu_llm_decode(l, prev, tok, &s);
		if (printable(s)) {
			if (!a.json) {
				fputs(s, stdout);
				fflush(stdout);
			}
			if (text_add(&text, &tlen, &tcap, s))
				goto out_trace;
		}
		prev = tok;
		if (pos + 1 < a.steps && e1npu_llm_step(l, tok, &logits)) {
			cls_error(a.json, "step %zu: %s", pos, e1npu_llm_last_error(l));
			goto out_trace;
		}
	}
	status = EXIT_OK;
out_trace:
	status = cli_trace_finish(a.json, a.trace, status);
out_status:
	if (r)
		status = r;
	if (status == EXIT_OK) {
		double pms, dtps, mtps = 0;
		char place[512] = "";
		size_t pl = 0;

		e1npu_llm_get_stats(l, &st);
		pms = (double)st.prefill_ns / 1e6;
		dtps = st.decode_ns ? (double)st.decode_tokens * 1e9 / (double)st.decode_ns : 0;
		if (st.global_cycles && st.decode_tokens)
			mtps = (double)st.decode_tokens * MODEL_CLOCK_HZ /
			       (double)(st.global_cycles - st.prefill_global_cycles);
		for (uint32_t i = 0; i < e1npu_llm_num_ops(l); i++) {
			struct e1npu_llm_op op;

			e1npu_llm_get_op(l, i, &op);
			if (op.calls && pl < sizeof(place) - 1)
				pl += (size_t)snprintf(place + pl, sizeof(place) - pl, "%s%s=%s",
						       pl ? "," : "", op.name,
						       e1npu_engine_name(op.engine));
		}
		if (a.json) {
			printf("{\"device\": ");
			cls_json_str(devname);
			printf(", \"path\": \"%s\", ", a.use_float ? "float32" : "int8");
			json_ids("prompt_ids", prompt, np);
			printf(", ");
			json_ids("generated_ids", gen, ng);
			printf(", \"text\": ");
			cls_json_str(text ? text : "");
			printf(", \"stats\": {\"prompt_tokens\": %zu, \"generated_tokens\": %zu, "
			       "\"prefill_ms\": %.3f, \"decode_tok_s\": %.1f, \"modelled_tok_s\": %.1f, "
			       "\"jobs\": %llu, \"jobs_per_decode_token\": %.2f, \"matmuls\": %llu, "
			       "\"weight_bytes_per_token\": %llu}, \"ops\": [",
			       np, ng, pms, dtps, mtps, (unsigned long long)st.jobs,
			       st.decode_tokens ? (double)(st.jobs - st.prefill_jobs) / (double)st.decode_tokens : 0.0,
			       (unsigned long long)st.matmuls, (unsigned long long)st.weight_bytes);
			for (uint32_t i = 0, first = 1; i < e1npu_llm_num_ops(l); i++) {
				struct e1npu_llm_op op;

				e1npu_llm_get_op(l, i, &op);
				if (!op.calls)
					continue;
				printf("%s{\"name\": \"%s\", \"engine\": \"%s\", \"reason\": \"%s\", "
				       "\"calls\": %llu, \"jobs\": %llu, \"macs\": %llu, \"why\": ",
				       first ? "" : ", ", op.name, e1npu_engine_name(op.engine),
				       e1npu_ops_reason_name(op.reason), (unsigned long long)op.calls,
				       (unsigned long long)op.jobs, (unsigned long long)op.macs);
				cls_json_str(op.why);
				printf("}");
				first = 0;
			}
			printf("]}\n");
		} else {
			printf("\n");
			printf("e1npu-llm: %s on %s: prompt %zu tokens, prefill %.2f ms, decode %.1f tok/s (%zu tokens), "
				"modelled %.0f tok/s, %.1f jobs/token, placement %s\n",
				a.use_float ? "float32" : "int8", devname, np, pms, dtps, ng, mtps,
				st.decode_tokens ? (double)(st.jobs - st.prefill_jobs) / (double)st.decode_tokens : 0.0,
				place);
		}
	}
out:
	free(prompt);
	free(gen);
	free(text);
	e1npu_llm_free(l);
	if (cls_close_stdout() && status == EXIT_OK)
		status = EXIT_RUN;
	return status;
}
