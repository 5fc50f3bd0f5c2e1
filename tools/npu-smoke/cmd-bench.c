// SPDX-License-Identifier: MIT
/*
 * npu-smoke bench: submit+wait latency (p50/p99) of a NOP job and of a
 * 64x64x64 int8 matmul, MACs, modelled cycles, utilization of the systolic
 * array, bytes moved, and batched NOP throughput.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "tools-common.h"

struct bench_cfg {
	unsigned long iters;
};

static void print_help(void)
{
	printf("Usage: %s [OPTIONS] bench [-n N]\n\n"
	       "  -n, --iterations=N  round trips per measurement (default 200)\n",
	       prog_name);
}

static int handle(int c, const char *arg, void *ctx)
{
	struct bench_cfg *cfg = ctx;

	if (c != 'n')
		return -1;
	cfg->iters = parse_uint_or_die("iteration count", arg, 1000000);
	if (!cfg->iters)
		die("iteration count must be at least 1");
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct lat {
	double p50, p99, mean;
};

static void measure(struct e1npu_cmdbuf *cb, unsigned long iters, double *t,
		    struct lat *l, struct e1npu_device *dev)
{
	unsigned long i;
	double sum = 0;

	for (i = 0; i < iters; i++) {
		double t0 = now_us();

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

int cmd_bench(int argc, char **argv, struct common_opts *o)
{
	static const struct option extra[] = {
		{ "iterations", required_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 },
	};
	struct bench_cfg cfg = { 200 };
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
	unsigned int i, nbatch = 1000;

	no_operands(argc, argv,
		    parse_common(argc, argv, o, "n:", extra, handle, &cfg, print_help));
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

	progress(o, 1, 3, "nop round trips");
	measure(nop, cfg.iters, t, &lnop, dev);
	progress(o, 2, 3, "matmul 64x64x64 round trips");
	e1npu_device_read_perf(dev, &p0);
	measure(mm, cfg.iters, t, &lmm, dev);
	e1npu_device_read_perf(dev, &p1);
	progress(o, 3, 3, "batched nops");
	t0 = now_us();
	for (i = 0; i < 10; i++)
		if (e1npu_cmdbuf_run(batch))
			die("bench: %s", e1npu_device_last_error(dev));
	batch_s = (now_us() - t0) / 1e6;
	progress_done(o);

	macs = (p1.wrapper_macs - p0.wrapper_macs) / cfg.iters;
	cycles = (p1.wrapper_cycles - p0.wrapper_cycles) / cfg.iters;
	bytes = (p1.bytes_in + p1.bytes_out - p0.bytes_in - p0.bytes_out) / cfg.iters;
	util = cycles && info.array_rows ?
	       100.0 * (double)macs / ((double)cycles * info.array_rows * info.array_cols) : 0;
	if (o->json) {
		printf("{\"device\":");
		json_str(stdout, info.path);
		printf(",\"iterations\":%lu,\"nop_us\":{\"p50\":%.2f,\"p99\":%.2f,\"mean\":%.2f},"
		       "\"matmul64_us\":{\"p50\":%.2f,\"p99\":%.2f,\"mean\":%.2f},"
		       "\"matmul64_macs\":%llu,\"matmul64_cycles\":%llu,"
		       "\"matmul64_ideal_cycles\":%llu,\"utilization_pct\":%.1f,"
		       "\"matmul64_bytes\":%llu,\"batched_nop_ops_per_s\":%.0f}\n",
		       cfg.iters, lnop.p50, lnop.p99, lnop.mean, lmm.p50, lmm.p99,
		       lmm.mean, (unsigned long long)macs, (unsigned long long)cycles,
		       (unsigned long long)(info.array_rows ? macs / (info.array_rows * info.array_cols) : 0),
		       util, (unsigned long long)bytes, 10.0 * nbatch / batch_s);
	} else {
		printf("npu-smoke bench: %s, %lu iterations\n", info.path, cfg.iters);
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
