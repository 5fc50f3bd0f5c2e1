// SPDX-License-Identifier: MIT
/*
 * npu-smoke bench: submit+wait latency (p50/p99) of a NOP job and of a
 * 64x64x64 int8 matmul, MACs, modelled cycles, utilization of the systolic
 * array, bytes moved, and batched NOP throughput; with --matmul N, an
 * NxNxN int8 matmul's wall time against its modelled cycles at the
 * device's clock (on the virtual board: how closely the device keeps its
 * timing model on QEMU's virtual clock).
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "tools-common.h"

struct bench_cfg {
	unsigned long iters;
	unsigned long matmul;
	unsigned long clock_mhz;
};

/* Round trips per measurement: the times are kept (8 MB at most). */
#define ITERS_MAX 1000000ul
/* Rows of the big matmul per descriptor: its int32 output block. */
#define BIG_ROWS 256

static void print_help(void)
{
	printf("Usage: %s [OPTIONS] bench [-n N] [--matmul N [--clock-mhz F]]\n\n"
	       "  -n, --iterations=N  round trips per measurement, 1 to 1000000\n"
	       "                      (default 200)\n"
	       "  -m, --matmul=N      also time an NxNxN int8 matmul (1 <= N <= the device's\n"
	       "                      max_matmul_mn and max_matmul_k; %d-row descriptors\n"
	       "                      into one reused output block) against its modelled\n"
	       "                      cycles\n"
	       "  -f, --clock-mhz=F   the NPU clock the modelled cycles are timed at, 1 to\n"
	       "                      100000 (default 100, the driver's and the virtual\n"
	       "                      board's)\n",
	       prog_name, BIG_ROWS);
}

static int handle(int c, const char *arg, void *ctx)
{
	struct bench_cfg *cfg = ctx;

	switch (c) {
	case 'n':
		cfg->iters = parse_uint_or_die("bench -n/--iterations", arg, 1, ITERS_MAX);
		return 0;
	case 'm':
		cfg->matmul = parse_uint_or_die("bench -m/--matmul", arg, 1, 65536);
		return 0;
	case 'f':
		cfg->clock_mhz = parse_uint_or_die("bench -f/--clock-mhz", arg, 1, 100000);
		return 0;
	}
	return -1;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct lat {
	double p50, p99, mean;
};

/* Where a measurement is: step @step of @steps, "what i/iters". */
struct where {
	const struct common_opts *o;
	unsigned int step, steps;
	const char *what;
};

static void measure(struct e1npu_cmdbuf *cb, unsigned long iters, double *t,
		    struct lat *l, struct e1npu_device *dev, const struct where *w)
{
	unsigned long i;
	double sum = 0, shown = 0;

	for (i = 0; i < iters; i++) {
		double t0 = now_us();

		/* the progress line moves at least every 0.2 s */
		if (t0 - shown > 200000) {
			char what[96];

			snprintf(what, sizeof(what), "%s %lu/%lu", w->what, i, iters);
			progress(w->o, w->step, w->steps, what);
			shown = t0;
		}
		if (e1npu_cmdbuf_run(cb))
			die("bench: %s", e1npu_device_last_error(dev));
		t[i] = now_us() - t0;
		sum += t[i];
	}
	qsort(t, iters, sizeof(*t), cmp_double);
	l->p50 = t[iters / 2];
	l->p99 = t[(iters * 99) / 100 < iters ? (iters * 99) / 100 : iters - 1];
	l->mean = sum / iters;
}

/* One NxNxN matmul: its wall time (best of 3) and modelled cycles. */
struct big {
	double us;
	uint64_t cycles, macs;
	unsigned int descs;
};

static void bench_big(struct e1npu_device *dev, const struct e1npu_device_info *info,
		      unsigned long n, struct big *r)
{
	struct e1npu_buffer *a, *b, *c;
	struct e1npu_tensor ta, tb, tc;
	struct e1npu_perf p0, p1;
	struct e1npu_op_desc d;
	struct e1npu_cmdbuf *cb;
	unsigned long r0, rows;
	unsigned int i;
	double t0, t;

	if (n > info->max_matmul_mn || n > info->max_matmul_k)
		die("--matmul %lu: the device's limits are M, N <= %u and K <= %u",
		    n, info->max_matmul_mn, info->max_matmul_k);
	if (info->align > 1 && n % info->align)
		die("--matmul %lu: the row strides must be multiples of the device's alignment, %u bytes",
		    n, info->align);
	rows = n < BIG_ROWS ? n : BIG_ROWS;
	if (e1npu_buffer_alloc(dev, n * n, &a) || e1npu_buffer_alloc(dev, n * n, &b) ||
	    e1npu_buffer_alloc(dev, rows * n * 4, &c) || e1npu_cmdbuf_new(dev, &cb))
		die("bench --matmul %lu: %s", n, e1npu_device_last_error(dev));
	memset(&ta, 0, sizeof(ta));
	tb = tc = ta;
	ta.buf = a;
	ta.stride = n;
	tb.buf = b;
	tb.stride = n;
	tc.buf = c;
	tc.stride = n * 4;
	r->descs = 0;
	for (r0 = 0; r0 < n; r0 += rows) {
		ta.offset = r0 * n;
		e1npu_op_desc_matmul(&d, ta, tb, tc, r0 + rows <= n ? rows : n - r0,
				     n, n, 0);
		if (e1npu_cmdbuf_add_op(cb, &d) < 0)
			die("bench --matmul %lu: %s", n, e1npu_device_last_error(dev));
		r->descs++;
	}
	r->us = 0;
	for (i = 0; i < 3; i++) {
		e1npu_device_read_perf(dev, &p0);
		t0 = now_us();
		if (e1npu_cmdbuf_run(cb))
			die("bench --matmul %lu: %s", n, e1npu_device_last_error(dev));
		t = now_us() - t0;
		e1npu_device_read_perf(dev, &p1);
		if (!i || t < r->us)
			r->us = t;
	}
	r->cycles = p1.wrapper_cycles - p0.wrapper_cycles;
	r->macs = p1.wrapper_macs - p0.wrapper_macs;
	e1npu_cmdbuf_free(cb);
	e1npu_buffer_free(a);
	e1npu_buffer_free(b);
	e1npu_buffer_free(c);
}

int cmd_bench(int argc, char **argv, struct common_opts *o)
{
	static const struct option extra[] = {
		{ "iterations", required_argument, NULL, 'n' },
		{ "matmul", required_argument, NULL, 'm' },
		{ "clock-mhz", required_argument, NULL, 'f' },
		{ NULL, 0, NULL, 0 },
	};
	struct bench_cfg cfg = { 200, 0, 100 };
	struct big big = { 0 };
	struct e1npu_device_info info;
	struct e1npu_buffer *a, *b, *c;
	struct e1npu_perf p0, p1;
	struct e1npu_device *dev;
	struct e1npu_cmdbuf *nop, *mm, *batch;
	struct e1npu_tensor ta, tb, tc;
	struct e1npu_op_desc d;
	struct lat lnop, lmm;
	double *t, t0, batch_s, util;
	uint64_t macs, cycles, bytes;
	unsigned int i, nbatch = 1000, steps;
	struct where w1, w2;

	no_operands(argc, argv,
		    parse_common(argc, argv, o, "n:m:f:", extra, handle, &cfg, print_help));
	dev = open_device_or_die(o);
	e1npu_device_get_info(dev, &info);
	t = calloc(cfg.iters, sizeof(*t));
	if (!t)
		die("bench: out of memory");
	if (e1npu_buffer_alloc(dev, 4096, &a) || e1npu_buffer_alloc(dev, 4096, &b) ||
	    e1npu_buffer_alloc(dev, 16384, &c) || e1npu_cmdbuf_new(dev, &nop) ||
	    e1npu_cmdbuf_new(dev, &mm) || e1npu_cmdbuf_new(dev, &batch))
		die("bench: %s", e1npu_device_last_error(dev));
	e1npu_op_desc_nop(&d);
	if (e1npu_cmdbuf_add_op(nop, &d) < 0)
		die("bench: %s", e1npu_device_last_error(dev));
	for (i = 0; i < nbatch; i++)
		if (e1npu_cmdbuf_add_op(batch, &d) < 0)
			die("bench: %s", e1npu_device_last_error(dev));
	memset(&ta, 0, sizeof(ta));
	tb = tc = ta;
	ta.buf = a;
	ta.stride = 64;
	tb.buf = b;
	tb.stride = 64;
	tc.buf = c;
	tc.stride = 256;
	e1npu_op_desc_matmul(&d, ta, tb, tc, 64, 64, 64, 0);
	if (e1npu_cmdbuf_add_op(mm, &d) < 0)
		die("bench: %s", e1npu_device_last_error(dev));

	steps = cfg.matmul ? 4 : 3;
	w1 = (struct where){ o, 1, steps, "nop round trips" };
	measure(nop, cfg.iters, t, &lnop, dev, &w1);
	w2 = (struct where){ o, 2, steps, "matmul 64x64x64 round trips" };
	e1npu_device_read_perf(dev, &p0);
	measure(mm, cfg.iters, t, &lmm, dev, &w2);
	e1npu_device_read_perf(dev, &p1);
	t0 = now_us();
	for (i = 0; i < 10; i++) {
		char what[64];

		snprintf(what, sizeof(what), "batched nops %u/10", i);
		progress(o, 3, steps, what);
		if (e1npu_cmdbuf_run(batch))
			die("bench: %s", e1npu_device_last_error(dev));
	}
	batch_s = (now_us() - t0) / 1e6;
	if (cfg.matmul) {
		progress(o, 4, steps, "big matmul");
		bench_big(dev, &info, cfg.matmul, &big);
	}
	progress_done(o);

	macs = (p1.wrapper_macs - p0.wrapper_macs) / cfg.iters;
	cycles = (p1.wrapper_cycles - p0.wrapper_cycles) / cfg.iters;
	bytes = (p1.bytes_in + p1.bytes_out - p0.bytes_in - p0.bytes_out) / cfg.iters;
	util = cycles && info.array_rows ?
	       100.0 * (double)macs / ((double)cycles * info.array_rows * info.array_cols) : 0;
	if (o->json) {
		printf("{\"device\":");
		json_str(stdout, device_name(dev));
		printf(",\"iterations\":%lu,\"nop_us\":{\"p50\":%.2f,\"p99\":%.2f,\"mean\":%.2f},"
		       "\"matmul64_us\":{\"p50\":%.2f,\"p99\":%.2f,\"mean\":%.2f},"
		       "\"matmul64_macs\":%llu,\"matmul64_cycles\":%llu,"
		       "\"matmul64_ideal_cycles\":%llu,\"utilization_pct\":%.1f,"
		       "\"matmul64_bytes\":%llu,\"batched_nop_ops_per_s\":%.0f",
		       cfg.iters, lnop.p50, lnop.p99, lnop.mean, lmm.p50, lmm.p99,
		       lmm.mean, (unsigned long long)macs, (unsigned long long)cycles,
		       (unsigned long long)(info.array_rows ? macs / (info.array_rows * info.array_cols) : 0),
		       util, (unsigned long long)bytes, 10.0 * nbatch / batch_s);
		if (cfg.matmul)
			printf(",\"matmul\":{\"n\":%lu,\"descriptors\":%u,\"wall_us\":%.1f,"
			       "\"macs\":%llu,\"cycles\":%llu,\"clock_mhz\":%lu,"
			       "\"modelled_us\":%.1f}",
			       cfg.matmul, big.descs, big.us, (unsigned long long)big.macs,
			       (unsigned long long)big.cycles, cfg.clock_mhz,
			       (double)big.cycles / cfg.clock_mhz);
		printf("}\n");
	} else {
		printf("npu-smoke bench: %s, %lu iterations\n", device_name(dev), cfg.iters);
		printf("nop job submit+wait:        p50 %8.2f us  p99 %8.2f us\n",
		       lnop.p50, lnop.p99);
		printf("matmul 64x64x64 submit+wait: p50 %8.2f us  p99 %8.2f us\n",
		       lmm.p50, lmm.p99);
		printf("matmul 64x64x64: %llu MACs, %llu modelled cycles (ideal %llu), utilization %.1f%%, %llu bytes moved\n",
		       (unsigned long long)macs, (unsigned long long)cycles,
		       (unsigned long long)(info.array_rows ? macs / (info.array_rows * info.array_cols) : 0),
		       util, (unsigned long long)bytes);
		printf("batched nops (%u per command buffer): %.0f ops/s\n", nbatch,
		       10.0 * nbatch / batch_s);
		if (cfg.matmul)
			printf("matmul %lux%lux%lu (%u descriptors): %.1f us wall (best of 3), "
			       "%llu MACs, %llu modelled cycles = %.1f us at %lu MHz, "
			       "wall/modelled %.2f\n",
			       cfg.matmul, cfg.matmul, cfg.matmul, big.descs, big.us,
			       (unsigned long long)big.macs, (unsigned long long)big.cycles,
			       (double)big.cycles / cfg.clock_mhz, cfg.clock_mhz,
			       big.cycles ? big.us * cfg.clock_mhz / (double)big.cycles : 0);
	}
	free(t);
	/* Each object holds the device open. */
	e1npu_cmdbuf_free(nop);
	e1npu_cmdbuf_free(mm);
	e1npu_cmdbuf_free(batch);
	e1npu_buffer_free(a);
	e1npu_buffer_free(b);
	e1npu_buffer_free(c);
	e1npu_device_close(dev);
	return EXIT_SUCCESS;
}
