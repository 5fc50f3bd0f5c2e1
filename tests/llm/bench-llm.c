// SPDX-License-Identifier: MIT
/*
 * Language-model benchmark (make bench-llm): per checkpoint given, the
 * int8 path on the in-process device model (groups as block-diagonal rows
 * of one matmul, the default; as a batch matmul on the systolic wrapper,
 * and with the library's engine choice) and the float32 path on the CPU:
 *   - modelled prefill and decode tokens/s: tokens over the device's
 *     makespan (global cycles) at the model's 1 GHz clock;
 *   - the weight-streaming floor: DMA bandwidth (16 bytes/cycle at 1 GHz)
 *     over the int8 weight bytes (and scales) one token reads;
 *   - jobs and matmul calls per decode token;
 *   - host wall ms/token of the int8 path (the in-process model computes
 *     the matmuls on the host) and of the float32 path, and the process's
 *     CPU ms/token (wall time is noisy on a shared machine);
 *   - the placements of the non-matmul ops (host: "int8 rows"; each op
 *     alone on e1; all but SwiGLU; all on e1): the int8 runs are teacher-forced on the float32 run's greedy
 *     tokens, and print their top-1 agreement with it over the 17 positions
 *     (the prompt's last, then each decode step) and the largest logit gap.
 * Usage: bench-llm NAME=CHECKPOINT... (token ids are synthetic: no tokenizer).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <e1npu/e1npu.h>
#include <e1npu/e1npu_llm.h>

#define CLOCK_HZ	1e9	/* model/e1_timing.h E1_TIMING_CLOCK_MHZ */
#define DMA_BPC		16.0	/* model/e1_timing.h E1_TIMING_DMA_BYTES_PER_CYCLE */
#define PREFILL		32
#define DECODE		16

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* The float32 run's greedy tokens and logits, DECODE + 1 positions. */
static int32_t ref_tok[DECODE + 1];
static float *ref_logits;

static void compare(const float *lg, uint32_t v, int i, uint32_t *agree, double *gap)
{
	uint32_t b = 0;

	for (uint32_t j = 1; j < v; j++)
		if (lg[j] > lg[b])
			b = j;
	if (!ref_logits) {
		ref_tok[i] = (int32_t)b;
		return;
	}
	*agree += (int32_t)b == ref_tok[i];
	for (uint32_t j = 0; j < v; j++) {
		double d = lg[j] - ref_logits[(size_t)i * v + j];

		*gap = d > *gap ? d : -d > *gap ? -d : *gap;
	}
}

static int run(const char *name, const char *path, uint32_t lpath, uint32_t force,
	       uint32_t mode, uint32_t ops_e1, const char *label)
{
	struct e1npu_llm_options o = { .path = lpath, .force = force, .mm_mode = mode,
				       .ops_e1 = ops_e1, .ops_host = E1NPU_LLM_OPS_ALL & ~ops_e1 };
	uint32_t agree = 0;
	double gap = 0;
	float *keep = NULL;
	struct e1npu_device *dev = NULL;
	struct e1npu_llm_config c;
	struct e1npu_llm_stats st;
	struct e1npu_llm *l = NULL;
	int32_t ids[PREFILL], tok = 5;
	const float *lg;
	char err[512];
	double t0, t1, c0, c1;
	int ret;

	if (lpath == E1NPU_LLM_PATH_INT8 && e1npu_device_open("sim", &dev))
		return 1;
	t0 = now_ms();
	ret = e1npu_llm_load_file(dev, path, NULL, &o, &l, err, sizeof(err));
	t1 = now_ms();
	e1npu_device_close(dev);
	if (ret) {
		fprintf(stderr, "bench-llm: %s\n", err);
		return 1;
	}
	e1npu_llm_get_config(l, &c);
	for (int i = 0; i < PREFILL; i++)
		ids[i] = (int32_t)((7u * (unsigned)i + 3u) % c.vocab_size);
	if (e1npu_llm_prefill(l, ids, PREFILL, &lg))
		goto fail;
	if (lpath == E1NPU_LLM_PATH_FLOAT) {
		free(ref_logits);
		ref_logits = NULL;
		keep = malloc((size_t)(DECODE + 1) * c.vocab_size * sizeof(float));
		if (!keep)
			goto fail;
	}
	c0 = cpu_ms();
	for (int i = 0; i <= DECODE; i++) {
		compare(lg, c.vocab_size, i, &agree, &gap);
		if (keep)
			memcpy(keep + (size_t)i * c.vocab_size, lg, c.vocab_size * sizeof(float));
		tok = ref_tok[i];
		if (i < DECODE && e1npu_llm_step(l, tok, &lg))
			goto fail;
	}
	c1 = cpu_ms();
	if (keep)
		ref_logits = keep;
	e1npu_llm_get_stats(l, &st);
	if (lpath == E1NPU_LLM_PATH_INT8) {
		double dcyc = (double)(st.global_cycles - st.prefill_global_cycles);
		double floor_tps = DMA_BPC * CLOCK_HZ / (double)st.weight_bytes;

		printf("%-12s %-16s load %7.1f ms | prefill %2u tok: modelled %9.0f tok/s, %6.2f ms host | "
		       "decode: modelled %8.0f tok/s, floor %8.0f tok/s (%.0f%%), %5.1f jobs/tok, %llu matmuls/tok, "
		       "%.3f ms/tok host (%.3f CPU) | %llu weight bytes/tok | top-1 vs float32 %u/%d, max |logit gap| %.3f\n",
		       name, label, t1 - t0, PREFILL,
		       (double)st.prefill_tokens * CLOCK_HZ / (double)st.prefill_global_cycles,
		       (double)st.prefill_ns / 1e6,
		       (double)st.decode_tokens * CLOCK_HZ / dcyc, floor_tps,
		       100.0 * ((double)st.decode_tokens * CLOCK_HZ / dcyc) / floor_tps,
		       (double)(st.jobs - st.prefill_jobs) / (double)st.decode_tokens,
		       (unsigned long long)(st.matmuls / (st.decode_tokens + (st.prefill_tokens + 15) / 16)),
		       (double)st.decode_ns / 1e6 / (double)st.decode_tokens, (c1 - c0) / DECODE,
		       (unsigned long long)st.weight_bytes, agree, DECODE + 1, gap);
	} else {
		printf("%-12s %-16s load %7.1f ms | prefill %2u tok: %6.2f ms host | decode: %.3f ms/tok host (%.3f CPU) | "
		       "%llu weight bytes/tok\n",
		       name, label, t1 - t0, PREFILL, (double)st.prefill_ns / 1e6,
		       (double)st.decode_ns / 1e6 / (double)st.decode_tokens, (c1 - c0) / DECODE,
		       (unsigned long long)st.weight_bytes);
	}
	e1npu_llm_free(l);
	return 0;
fail:
	fprintf(stderr, "bench-llm: %s: %s\n", name, e1npu_llm_last_error(l));
	free(keep);
	e1npu_llm_free(l);
	return 1;
}

/* Placements of the non-matmul ops measured (rows form, auto engine). */
static const struct {
	uint32_t e1;
	const char *label;
} places[] = {
	{ E1NPU_LLM_OPS_RMSNORM, "e1 rmsnorm" },
	{ E1NPU_LLM_OPS_ROPE, "e1 rope" },
	{ E1NPU_LLM_OPS_ATTENTION, "e1 attention" },
	{ E1NPU_LLM_OPS_SOFTMAX, "e1 softmax" },
	{ E1NPU_LLM_OPS_SWIGLU, "e1 swiglu" },
	{ E1NPU_LLM_OPS_ALL & ~E1NPU_LLM_OPS_SWIGLU, "e1 4 (no swiglu)" },
	{ E1NPU_LLM_OPS_ALL, "e1 all" },
};

int main(int argc, char **argv)
{
	int rc = 0;

	printf("bench-llm: %d prefill tokens (chunks of 16), %d greedy decode tokens; device: in-process model, 1 GHz, DMA 16 B/cycle\n",
	       PREFILL, DECODE);
	for (int i = 1; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		char name[64];

		if (!eq) {
			fprintf(stderr, "bench-llm: expected NAME=CHECKPOINT, got '%s'\n", argv[i]);
			return 2;
		}
		snprintf(name, sizeof(name), "%.*s", (int)(eq - argv[i]), argv[i]);
		rc |= run(name, eq + 1, E1NPU_LLM_PATH_FLOAT, 0, 0, 0, "float32 cpu");
		rc |= run(name, eq + 1, E1NPU_LLM_PATH_INT8, E1NPU_OPS_FORCE_AUTO, E1NPU_LLM_MM_ROWS,
			  E1NPU_LLM_OPS_DEFAULT_E1, "int8 rows");
		rc |= run(name, eq + 1, E1NPU_LLM_PATH_INT8, E1NPU_OPS_FORCE_WRAPPER, E1NPU_LLM_MM_BATCH,
			  E1NPU_LLM_OPS_DEFAULT_E1, "int8 batch wr");
		if (!getenv("BENCH_LLM_NO_AUTO"))
			rc |= run(name, eq + 1, E1NPU_LLM_PATH_INT8, E1NPU_OPS_FORCE_AUTO,
				  E1NPU_LLM_MM_BATCH, E1NPU_LLM_OPS_DEFAULT_E1, "int8 batch au");
		for (size_t p = 0; p < sizeof(places) / sizeof(places[0]); p++)
			rc |= run(name, eq + 1, E1NPU_LLM_PATH_INT8, E1NPU_OPS_FORCE_AUTO,
				  E1NPU_LLM_MM_ROWS, places[p].e1, places[p].label);
	}
	free(ref_logits);
	return rc;
}
