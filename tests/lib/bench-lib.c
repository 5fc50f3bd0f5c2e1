// SPDX-License-Identifier: MIT
/*
 * bench-lib: libe1npu's own overhead on the in-process backend.
 *
 * Submit+wait round trips of a NOP job and of a 64x64x64 int8 matmul, split
 * into model time (wall time inside the device model: e1_model_run and the
 * datapath routine, measured by the sim backend) and library overhead (the
 * rest: validation, job building, descriptor encoding, completion and
 * outcome handling), plus batched throughput in operations per second.
 * Target: at most 5 us of library overhead per job.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <e1npu/e1npu.h>
#include "sim.h"

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void die(const char *what, struct e1npu_device *dev)
{
	fprintf(stderr, "bench-lib: %s: %s\n", what, e1npu_device_last_error(dev));
	exit(1);
}

/* Mean total and model ns per run of @cb over @iters runs. */
static void rt(struct e1npu_device *dev, struct e1npu_cmdbuf *cb, int iters,
	       double *total, double *model)
{
	double t0, m0;
	int i;

	for (i = 0; i < iters / 10; i++)	/* warm up */
		if (e1npu_cmdbuf_run(cb))
			die("run", dev);
	m0 = (double)e1npu_sim_model_ns(dev);
	t0 = now_ns();
	for (i = 0; i < iters; i++)
		if (e1npu_cmdbuf_run(cb))
			die("run", dev);
	*total = (now_ns() - t0) / iters;
	*model = ((double)e1npu_sim_model_ns(dev) - m0) / iters;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 20000;
	struct e1npu_buffer *a, *b, *c;
	struct e1npu_cmdbuf *nop, *mm, *batch, *dpb;
	struct e1npu_tensor ta, tb, tc;
	struct e1npu_device *dev;
	struct e1npu_op_desc d;
	double tot, mod, ops_s, t0;
	int i, ok = 1;

	if (iters < 10)
		iters = 10;
	if (e1npu_device_open("sim", &dev))
		return 1;
	if (e1npu_buffer_alloc(dev, 4096, &a) || e1npu_buffer_alloc(dev, 4096, &b) ||
	    e1npu_buffer_alloc(dev, 16384, &c) || e1npu_cmdbuf_new(dev, &nop) ||
	    e1npu_cmdbuf_new(dev, &mm) || e1npu_cmdbuf_new(dev, &batch) ||
	    e1npu_cmdbuf_new(dev, &dpb))
		die("setup", dev);
	e1npu_op_desc_nop(&d);
	if (e1npu_cmdbuf_add_op(nop, &d) < 0)
		die("nop", dev);
	for (i = 0; i < 1020; i++)
		if (e1npu_cmdbuf_add_op(batch, &d) < 0)
			die("batch", dev);
	memset(&ta, 0, sizeof(ta));
	tb = tc = ta;
	ta.buf = a; ta.stride = 64;
	tb.buf = b; tb.stride = 64;
	tc.buf = c; tc.stride = 256;
	e1npu_op_desc_matmul(&d, ta, tb, tc, 64, 64, 64, 0);
	if (e1npu_cmdbuf_add_op(mm, &d) < 0)
		die("matmul", dev);
	ta.stride = 7; tb.stride = 3; tc.stride = 12;
	e1npu_op_desc_dp_gemm(&d, 0, ta, tb, tc, 3, 3, 7);
	for (i = 0; i < 700; i++)
		if (e1npu_cmdbuf_add_op(dpb, &d) < 0)
			die("dp batch", dev);

	printf("bench-lib: libe1npu %s, in-process backend, %d iterations\n",
	       e1npu_api_version(), iters);
	rt(dev, nop, iters, &tot, &mod);
	printf("  nop job submit+wait:             %8.2f us = library %6.2f us + model %6.2f us\n",
	       tot / 1e3, (tot - mod) / 1e3, mod / 1e3);
	ok &= (tot - mod) <= 5000;
	rt(dev, mm, iters / 10, &tot, &mod);
	printf("  matmul 64x64x64 submit+wait:     %8.2f us = library %6.2f us + model %6.2f us\n",
	       tot / 1e3, (tot - mod) / 1e3, mod / 1e3);
	ok &= (tot - mod) <= 5000;

	t0 = now_ns();
	for (i = 0; i < iters / 100 + 1; i++)
		if (e1npu_cmdbuf_run(batch))
			die("batch", dev);
	ops_s = 1020.0 * (iters / 100 + 1) / ((now_ns() - t0) / 1e9);
	printf("  batched nops (1020 ops, 4 jobs): %10.0f ops/s\n", ops_s);
	t0 = now_ns();
	for (i = 0; i < iters / 100 + 1; i++)
		if (e1npu_cmdbuf_run(dpb))
			die("dp batch", dev);
	ops_s = 700.0 * (iters / 100 + 1) / ((now_ns() - t0) / 1e9);
	printf("  batched dp gemm 3x3x7 (700 ops, 100 jobs): %10.0f ops/s\n", ops_s);
	printf("  library overhead target <= 5 us per job: %s\n", ok ? "met" : "MISSED");
	e1npu_cmdbuf_free(nop);
	e1npu_cmdbuf_free(mm);
	e1npu_cmdbuf_free(batch);
	e1npu_cmdbuf_free(dpb);
	e1npu_buffer_free(a);
	e1npu_buffer_free(b);
	e1npu_buffer_free(c);
	e1npu_device_close(dev);
	return 0;
}
