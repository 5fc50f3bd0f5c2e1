// SPDX-License-Identifier: MIT
/*
 * bench-host: host time per inference, ours and the TFLite references
 * (bench-host.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench-host.h"

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int run_ours(void *ctx)
{
	return e1npu_tflite_invoke(ctx);
}

static int run_ref(void *ctx)
{
	return btfl_invoke(ctx);
}

/*
 * One run of @run(@ctx): its wall ms into @wall, the process CPU ms (all
 * threads: less disturbed than wall time on a busy host) kept in @cpu
 * when less. 0, or -1 when the run failed.
 */
static int sample(int (*run)(void *), void *ctx, double *wall, double *cpu)
{
	uint64_t t0 = clock_ns(CLOCK_MONOTONIC);
	uint64_t c0 = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	int ret = run(ctx);
	double c = (double)(clock_ns(CLOCK_PROCESS_CPUTIME_ID) - c0) / 1e6;

	*wall = (double)(clock_ns(CLOCK_MONOTONIC) - t0) / 1e6;
	if (c < *cpu)
		*cpu = c;
	return ret ? -1 : 0;
}

/* min and median of the @reps wall samples @v (sorted in place) */
static void summarize(double *v, int reps, struct bench_time *bt)
{
	qsort(v, (size_t)reps, sizeof(*v), cmp_double);
	bt->min = v[0];
	bt->med = reps % 2 ? v[reps / 2] : (v[reps / 2 - 1] + v[reps / 2]) / 2;
}

/* Load reference @k on @path with input @in and warm it up; 0 or -1 with why. */
static int ref_load(const struct bench_ref *ref, int k, const char *path,
		    const uint8_t *in, size_t n, struct bench_host *h)
{
	if (btfl_load(ref->b, path, in, n, h->why[k], sizeof(h->why[k])))
		return -1;
	if (btfl_invoke(ref->b)) {
		snprintf(h->why[k], sizeof(h->why[k]), "TfLiteInterpreterInvoke failed");
		return -1;
	}
	return 0;
}

/*
 * The runs are interleaved, ours then each reference, @reps rounds, so a
 * burst of load on a shared host falls on all of them alike.
 */
void bench_host_time(struct e1npu_tflite *t, const struct bench_ref *refs,
		     const char *path, const uint8_t *in, size_t n, int reps,
		     struct bench_host *h)
{
	struct e1npu_tflite_tensor_info oi;
	double *v = calloc((size_t)reps * (BENCH_NREF + 1), sizeof(double));
	int live[BENCH_NREF] = { 0 };
	uint8_t *o1, *o2;

	e1npu_tflite_output_info(t, 0, &oi);
	o1 = malloc(oi.bytes ? oi.bytes : 1);
	o2 = malloc(oi.bytes ? oi.bytes : 1);
	if (!v || !o1 || !o2) {
		printf("%-30s host timing: out of memory\n", h->name);
		goto out;
	}
	h->ours.cpu = 1e30;
	for (int k = 0; k < BENCH_NREF; k++) {
		h->ref[k].cpu = 1e30;
		h->ref_st[k] = refs[k].b ? -1 : 0;
		live[k] = refs[k].b && !ref_load(&refs[k], k, path, in, n, h);
	}
	for (int r = 0; r < reps; r++) {
		if (sample(run_ours, t, &v[r], &h->ours.cpu)) {
			printf("%-30s host timing failed: %s\n", h->name, e1npu_tflite_last_error(t));
			goto out;
		}
		for (int k = 0; k < BENCH_NREF; k++)
			if (live[k] && sample(run_ref, refs[k].b, &v[(size_t)(k + 1) * (size_t)reps + (size_t)r],
					      &h->ref[k].cpu)) {
				snprintf(h->why[k], sizeof(h->why[k]), "TfLiteInterpreterInvoke failed");
				live[k] = 0;
			}
	}
	h->timed = 1;
	summarize(v, reps, &h->ours);
	e1npu_tflite_get_output(t, 0, o1, oi.bytes);
	for (int k = 0; k < BENCH_NREF; k++) {
		if (!live[k])
			continue;
		summarize(v + (size_t)(k + 1) * (size_t)reps, reps, &h->ref[k]);
		h->ref_st[k] = 1;
		h->same[k] = !btfl_output(refs[k].b, o2, oi.bytes) && !memcmp(o1, o2, oi.bytes);
	}
out:
	for (int k = 0; k < BENCH_NREF; k++)
		if (refs[k].b)
			btfl_unload(refs[k].b);
	free(v);
	free(o1);
	free(o2);
}

/* @v with @prec decimals, or "-" when @ok is 0 */
static const char *cell(char *buf, size_t len, int ok, int prec, double v)
{
	if (!ok)
		return "-";
	snprintf(buf, len, "%.*f", prec, v);
	return buf;
}

static const char *verdict(const struct bench_host *h, int k)
{
	if (h->ref_st[k] > 0)
		return h->same[k] ? "identical" : "DIFFER";
	return h->ref_st[k] ? "failed" : "n/a";
}

static void row(const struct bench_host *h)
{
	const struct bench_time *o = &h->ours, *a = &h->ref[BENCH_REF_22],
		*b = &h->ref[BENCH_REF_214];
	int ha = h->ref_st[BENCH_REF_22] > 0, hb = h->ref_st[BENCH_REF_214] > 0;
	char c[11][24];

	printf("%-30s %8.2f %8.2f %8s %8s %9s %9s %8.2f %8s %7s %9s %9s %9s %7s %7s %-9s %s\n",
	       h->name, o->min, o->med,
	       cell(c[0], sizeof(c[0]), ha, 2, a->min),
	       cell(c[1], sizeof(c[1]), ha, 2, a->med),
	       cell(c[2], sizeof(c[2]), ha, 3, o->min / a->min),
	       cell(c[3], sizeof(c[3]), ha, 3, o->med / a->med),
	       o->cpu,
	       cell(c[4], sizeof(c[4]), ha, 2, a->cpu),
	       cell(c[5], sizeof(c[5]), ha, 3, o->cpu / a->cpu),
	       cell(c[6], sizeof(c[6]), hb, 2, b->min),
	       cell(c[7], sizeof(c[7]), hb, 2, b->med),
	       cell(c[8], sizeof(c[8]), hb, 2, b->cpu),
	       cell(c[9], sizeof(c[9]), hb, 3, o->med / b->med),
	       cell(c[10], sizeof(c[10]), hb, 3, o->cpu / b->cpu),
	       verdict(h, BENCH_REF_22), verdict(h, BENCH_REF_214));
}

void bench_host_table(const struct bench_ref *refs, const struct bench_host *h,
		      int n, int reps)
{
	printf("host time per inference, ms over %d runs, one thread, one process\n", reps);
	for (int k = 0; k < BENCH_NREF; k++)
		printf("  TFLite %-5s %s%s\n", refs[k].label, refs[k].b ? "" : "n/a: ",
		       refs[k].b ? refs[k].so : refs[k].why);
	printf("%-30s %8s %8s %8s %8s %9s %9s %8s %8s %7s %9s %9s %9s %7s %7s %-9s %s\n",
	       "model", "ours_min", "ours_med", "tfl_min", "tfl_med", "ratio_min",
	       "ratio_med", "ours_cpu", "tfl_cpu", "r_cpu", "tfl14_min", "tfl14_med",
	       "tfl14_cpu", "r14_med", "r14_cpu", "out_2.2", "out_2.14");
	for (int i = 0; i < n; i++)
		if (h[i].timed)
			row(&h[i]);
	for (int i = 0; i < n; i++)
		for (int k = 0; k < BENCH_NREF; k++)
			if (h[i].timed && h[i].ref_st[k] < 0)
				printf("  %s: TFLite %s failed: %s\n", h[i].name,
				       refs[k].label, h[i].why[k]);
	printf("wall ms (min, median); ratio_* = ours / TFLite 2.2, r14_* = ours / TFLite 2.14\n"
	       "(lower is faster); *_cpu = least process CPU ms of one inference, r_cpu and\n"
	       "r14_cpu their ratios (steadier than wall time on a busy host); out_*: output 0\n"
	       "of that TFLite and ours byte for byte on this input; - and n/a: not measured.\n");
}
