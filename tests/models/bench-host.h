/* SPDX-License-Identifier: MIT */
/*
 * bench-host: host time per inference of libe1npu's interpreter on the
 * in-process model and of the real TFLite libraries beside it (TFLite 2.2
 * and 2.14, bench-tflite.h, one thread each) on the same input, in the
 * same process, with output 0 compared byte for byte; and its table.
 */
#ifndef BENCH_HOST_H
#define BENCH_HOST_H

#include <stddef.h>
#include <stdint.h>

#include <e1npu/e1npu_tflite.h>

#include "bench-tflite.h"

enum { BENCH_REF_22, BENCH_REF_214, BENCH_NREF };

/* One TFLite library: loaded (b), or why it is not (why). */
struct bench_ref {
	const char *label;	/* "2.2" */
	const char *so;		/* the path given */
	struct btfl *b;		/* NULL: unavailable */
	const char *why;	/* when b is NULL */
};

struct bench_time {
	double min, med, cpu;	/* wall ms min, median; process CPU ms min */
};

struct bench_host {
	char name[64];
	int timed;		/* 0: the model failed to load or run (no row) */
	struct bench_time ours;
	struct bench_time ref[BENCH_NREF];
	int ref_st[BENCH_NREF];	/* 1 measured, 0 unavailable, -1 failed */
	int same[BENCH_NREF];	/* output 0 byte-identical to ours */
	char why[BENCH_NREF][200];
};

/*
 * @reps invokes of @t (input already set to @in, @n bytes, and invoked
 * once) and of each available reference on @path with the same input
 * (loaded and invoked once first), interleaved: one of each per round.
 */
void bench_host_time(struct e1npu_tflite *t, const struct bench_ref *refs,
		     const char *path, const uint8_t *in, size_t n, int reps,
		     struct bench_host *h);

/* The table of the @n entries of @h (those with timed set). */
void bench_host_table(const struct bench_ref *refs, const struct bench_host *h,
		      int n, int reps);

#endif /* BENCH_HOST_H */
