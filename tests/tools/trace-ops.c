// SPDX-License-Identifier: MIT
/*
 * tests/tools/trace-test.sh's workload for both engines: lowering-layer
 * matmuls on the in-process model, a small one (datapath GEMM) and a big
 * one (systolic wrapper), traced to argv[1] through lib/trace.c's
 * e1npu_trace_open(); then two command buffers with work for both engines
 * in one run, traced with e1npu_trace_hw(): a matmul and a datapath GEMM
 * that share no byte (they overlap on the model's clock) and the same with
 * the GEMM reading the matmul's output (it runs after it). Prints the perf
 * counters' deltas over all the traced work ("wrapper N dp M wrapper_macs
 * A dp_macs B bytes C") for trace-check.py to compare with the spans, then
 * one line per mixed run, "mixed DEP G0 W D" (the global clock before it,
 * its wrapper and datapath cycles), for the test to find its spans.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <e1npu/e1npu.h>
#include <e1npu/e1npu_ops.h>

#include "trace.h"

/* 16x16x16 matmul a x b -> c, then a 3x3x7 datapath GEMM whose left
 * operand is x, or (@dep) the matmul's output c: one run. */
static int mixed_run(struct e1npu_device *dev, int dep, char *line, size_t len)
{
	struct e1npu_buffer *a = NULL, *b = NULL, *c = NULL, *x = NULL, *y = NULL, *z = NULL;
	struct e1npu_cmdbuf *cb = NULL;
	struct e1npu_trace_run r = { .kind = E1NPU_OPS_MATMUL_S8 };
	struct e1npu_tensor ta = { 0 }, tb = { 0 }, tc = { 0 }, tx = { 0 }, ty = { 0 }, tz = { 0 };
	struct e1npu_op_desc d;
	int ret;

	ret = e1npu_buffer_alloc(dev, 256, &a);
	if (!ret)
		ret = e1npu_buffer_alloc(dev, 256, &b);
	if (!ret)
		ret = e1npu_buffer_alloc(dev, 1024, &c);
	if (!ret)
		ret = e1npu_buffer_alloc(dev, 64, &x);
	if (!ret)
		ret = e1npu_buffer_alloc(dev, 64, &y);
	if (!ret)
		ret = e1npu_buffer_alloc(dev, 64, &z);
	if (!ret)
		ret = e1npu_cmdbuf_new(dev, &cb);
	if (ret)
		goto out;
	ta.buf = a, ta.stride = 16;
	tb.buf = b, tb.stride = 16;
	tc.buf = c, tc.stride = 64;
	tx.buf = dep ? c : x, tx.stride = dep ? 64 : 7;
	ty.buf = y, ty.stride = 3;
	tz.buf = z, tz.stride = 12;
	e1npu_op_desc_matmul(&d, ta, tb, tc, 16, 16, 16, 0);
	ret = e1npu_cmdbuf_add_op(cb, &d);
	e1npu_op_desc_dp_gemm(&d, 0, tx, ty, tz, 3, 3, 7);
	if (ret >= 0)
		ret = e1npu_cmdbuf_add_op(cb, &d);
	if (ret < 0)
		goto out;
	r.t_lower = r.t_submit = e1npu_trace_now_ns();
	e1npu_device_read_perf(dev, &r.p0);
	ret = e1npu_cmdbuf_run(cb);
	r.t_wait = r.t_done = e1npu_trace_now_ns();
	e1npu_device_read_perf(dev, &r.p1);
	if (!ret)
		e1npu_trace_hw(&r, cb, 2);
	snprintf(line, len, "mixed %d %llu %llu %llu\n", dep,
		 (unsigned long long)r.p0.global_cycles,
		 (unsigned long long)(r.p1.wrapper_cycles - r.p0.wrapper_cycles),
		 (unsigned long long)(r.p1.dp_cycles - r.p0.dp_cycles));
out:
	e1npu_cmdbuf_free(cb);
	e1npu_buffer_free(a);
	e1npu_buffer_free(b);
	e1npu_buffer_free(c);
	e1npu_buffer_free(x);
	e1npu_buffer_free(y);
	e1npu_buffer_free(z);
	return ret < 0 ? ret : 0;
}

int main(int argc, char **argv)
{
	static int8_t a[64 * 64], b[64 * 64];
	static int32_t c[64 * 64];
	struct e1npu_device *dev = NULL;
	struct e1npu_ops *ops = NULL;
	struct e1npu_perf p0, p1;
	char err[512], mixed[2][96];
	int ret;

	if (argc != 2) {
		fprintf(stderr, "usage: trace-ops TRACE.json\n");
		return 2;
	}
	for (int i = 0; i < 64 * 64; i++) {
		a[i] = (int8_t)(i * 7 % 23 - 11);
		b[i] = (int8_t)(i * 5 % 19 - 9);
	}
	ret = e1npu_device_open("sim", &dev);
	if (!ret)
		ret = e1npu_ops_new(dev, &ops);
	if (!ret)
		ret = e1npu_trace_open(argv[1], err, sizeof(err));
	if (ret) {
		fprintf(stderr, "trace-ops: %s\n", e1npu_strerror(ret));
		return 1;
	}
	e1npu_device_read_perf(dev, &p0);
	ret = e1npu_ops_matmul_s8(ops, 3, 3, 7, a, 7, b, 3, c, 3, NULL);	/* datapath */
	if (!ret)
		ret = e1npu_ops_matmul_s8(ops, 64, 64, 64, a, 64, b, 64, c, 64, NULL);
	if (!ret)
		ret = e1npu_ops_matmul_s8(ops, 2, 5, 6, a, 6, b, 5, c, 5, NULL);
	for (int dep = 0; dep < 2 && !ret; dep++)
		ret = mixed_run(dev, dep, mixed[dep], sizeof(mixed[dep]));
	e1npu_device_read_perf(dev, &p1);
	if (ret || e1npu_trace_close(err, sizeof(err))) {
		fprintf(stderr, "trace-ops: %s\n", ret ? (e1npu_ops_last_error(ops)[0] ?
			e1npu_ops_last_error(ops) : e1npu_strerror(ret)) : err);
		return 1;
	}
	printf("wrapper %llu dp %llu wrapper_macs %llu dp_macs %llu bytes %llu\n",
	       (unsigned long long)(p1.wrapper_cycles - p0.wrapper_cycles),
	       (unsigned long long)(p1.dp_cycles - p0.dp_cycles),
	       (unsigned long long)(p1.wrapper_macs - p0.wrapper_macs),
	       (unsigned long long)(p1.dp_macs - p0.dp_macs),
	       (unsigned long long)(p1.bytes_in + p1.bytes_out - p0.bytes_in - p0.bytes_out));
	printf("%s%s", mixed[0], mixed[1]);
	e1npu_ops_free(ops);
	e1npu_device_close(dev);
	return 0;
}
