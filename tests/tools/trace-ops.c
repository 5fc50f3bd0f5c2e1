// SPDX-License-Identifier: MIT
/*
 * tests/tools/trace-test.sh's workload for both engines: lowering-layer
 * matmuls on the in-process model, a small one (datapath GEMM) and a big
 * one (systolic wrapper), traced to argv[1] through lib/trace.c's
 * e1npu_trace_open(); prints the perf counters' deltas over the traced
 * work ("wrapper N dp M wrapper_macs A dp_macs B bytes C") for
 * trace-check.py to compare with the spans.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <e1npu/e1npu.h>
#include <e1npu/e1npu_ops.h>

#include "trace.h"

int main(int argc, char **argv)
{
	static int8_t a[64 * 64], b[64 * 64];
	static int32_t c[64 * 64];
	struct e1npu_device *dev = NULL;
	struct e1npu_ops *ops = NULL;
	struct e1npu_perf p0, p1;
	char err[512];
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
	e1npu_device_read_perf(dev, &p1);
	if (ret || e1npu_trace_close(err, sizeof(err))) {
		fprintf(stderr, "trace-ops: %s\n", ret ? e1npu_ops_last_error(ops) : err);
		return 1;
	}
	printf("wrapper %llu dp %llu wrapper_macs %llu dp_macs %llu bytes %llu\n",
	       (unsigned long long)(p1.wrapper_cycles - p0.wrapper_cycles),
	       (unsigned long long)(p1.dp_cycles - p0.dp_cycles),
	       (unsigned long long)(p1.wrapper_macs - p0.wrapper_macs),
	       (unsigned long long)(p1.dp_macs - p0.dp_macs),
	       (unsigned long long)(p1.bytes_in + p1.bytes_out - p0.bytes_in - p0.bytes_out));
	e1npu_ops_free(ops);
	e1npu_device_close(dev);
	return 0;
}
