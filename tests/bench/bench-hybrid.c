// SPDX-License-Identifier: MIT
/*
 * bench-hybrid: does splitting a layer between the two engines pay?
 * (issue 14, section 3; Documentation/device-model.md, "Engine
 * concurrency").
 *
 * For MobileNetV2-shaped int8 layers (depthwise 3x3 stride 1 SAME, and a
 * 1x1 pointwise) and a transformer block's matmuls (lib/ops/xformer.c:
 * QKV projection, per-head scores Q K^T and context P V, the FFN; the
 * softmax runs on the host in every case and is not engine work), every
 * cost is measured on the in-process model through libe1npu, never
 * estimated:
 *
 * - wrapper-only: the layer on the wrapper (the library's own lowering:
 *   e1npu_conv for convolutions, e1npu_ops_matmul_s8 forced to the
 *   wrapper for matmuls), its PERF_CYCLES;
 * - datapath-only: the same work as datapath GEMM tiles
 *   (e1npu_ops_matmul_s8 forced to the datapath; a depthwise channel is
 *   the GEMM [H*W][9] x [9][1] of its host-im2col'd patches), the
 *   datapath's PERF_CYCLES;
 * - best split: the work is cut along an independent axis (channels for
 *   depthwise, output rows otherwise); for each datapath share j = 1, 2,
 *   ... the wrapper's part and the datapath's part are each run and
 *   measured, and the split's makespan is max(wrapper part, datapath
 *   part), which is what the library achieves for independent jobs
 *   (tests/lib/test-concurrency.c checks makespan == max on the model's
 *   global clock). The search stops when the datapath part alone is no
 *   faster than the best makespan found.
 *
 * Host work (im2col, requantization, softmax) is not engine time and is
 * not counted on either side.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <e1npu/e1npu.h>
#include <e1npu/e1npu_ops.h>

#include "sim.h"
#include "e1_model.h"

struct env {
	struct e1npu_device *dev;
	struct e1npu_ops *ops;
	/*
	 * Table B: charge each datapath register access the host makes
	 * (direct mode) at the model's own cost of one AXI-Lite beat.
	 */
	uint64_t mmio_cost;
};

static void die(const char *what, int ret)
{
	fprintf(stderr, "bench-hybrid: %s: %s\n", what, e1npu_strerror(ret));
	exit(1);
}

static void fill(void *p, size_t n, uint32_t seed)
{
	uint8_t *b = p;

	for (size_t i = 0; i < n; i++) {
		seed ^= seed << 13;
		seed ^= seed >> 17;
		seed ^= seed << 5;
		b[i] = (uint8_t)seed;
	}
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die("malloc", -ENOMEM);
	return p;
}

struct cyc {
	uint64_t w, d;
};

static void perf(struct env *e, struct e1npu_perf *p)
{
	int ret = e1npu_device_read_perf(e->dev, p);

	if (ret)
		die("read_perf", ret);
}

static void delta(const struct e1npu_perf *p0, const struct e1npu_perf *p1,
		  struct cyc *c)
{
	/* PERF_CYCLES registers are 32-bit: a delta is taken modulo 2^32. */
	c->w = (uint32_t)(p1->wrapper_cycles - p0->wrapper_cycles);
	c->d = (uint32_t)(p1->dp_cycles - p0->dp_cycles);
}

/* Cycles of an m x n x k int8 matmul on @force's engine. */
static uint64_t matmul_cycles(struct env *e, enum e1npu_ops_force force,
			      uint32_t m, uint32_t n, uint32_t k)
{
	struct e1npu_perf p0, p1;
	struct cyc c;
	int8_t *a, *b;
	int32_t *out;
	uint64_t mmio;
	int ret;

	if (!m)
		return 0;
	a = xmalloc((size_t)m * k);
	b = xmalloc((size_t)k * n);
	out = xmalloc((size_t)m * n * sizeof(*out));
	fill(a, (size_t)m * k, 11);
	fill(b, (size_t)k * n, 12);
	ret = e1npu_ops_set_force(e->ops, force);
	if (ret)
		die("set_force", ret);
	perf(e, &p0);
	mmio = e1npu_sim_dp_mmio(e->dev);
	ret = e1npu_ops_matmul_s8(e->ops, m, n, k, a, k, b, n, out, n, NULL);
	if (ret)
		die("matmul", ret);
	perf(e, &p1);
	mmio = e1npu_sim_dp_mmio(e->dev) - mmio;
	e1npu_ops_set_force(e->ops, E1NPU_OPS_FORCE_AUTO);
	delta(&p0, &p1, &c);
	free(a);
	free(b);
	free(out);
	if (force == E1NPU_OPS_FORCE_WRAPPER && (c.d || !c.w))
		die("matmul did not run on the wrapper alone", -EIO);
	if (force == E1NPU_OPS_FORCE_DATAPATH && (c.w || !c.d))
		die("matmul did not run on the datapath alone", -EIO);
	return force == E1NPU_OPS_FORCE_WRAPPER ? c.w : c.d + mmio * e->mmio_cost;
}

/* Wrapper cycles of a kh x kw int8 conv (depthwise when @dw), SAME, stride 1. */
static uint64_t conv_cycles(struct env *e, bool dw, uint32_t h, uint32_t w,
			    uint32_t cin, uint32_t cout, uint32_t ks)
{
	struct e1npu_conv_params p;
	struct e1npu_perf p0, p1;
	struct e1npu_conv *cv;
	struct cyc c;
	size_t nw, nout;
	float *scales;
	int32_t *bias;
	uint8_t *in, *wt, *out;
	int ret;

	if (!h || !cin || !cout)
		return 0;
	memset(&p, 0, sizeof(p));
	p.kind = dw ? E1NPU_OPS_DEPTHWISE_CONV2D : E1NPU_OPS_CONV2D;
	p.dtype = E1NPU_DTYPE_INT8;
	p.in_h = h;
	p.in_w = w;
	p.c_in = cin;
	p.c_out = cout;
	p.kh = p.kw = ks;
	p.stride_h = p.stride_w = 1;
	p.dil_h = p.dil_w = 1;
	p.padding = E1NPU_PAD_SAME;
	p.depth_multiplier = dw ? 1 : 0;
	p.input.scale = 0.05f;
	p.output.scale = 0.9f;
	nw = (size_t)ks * ks * (dw ? 1 : cin) * cout;
	nout = (size_t)h * w * cout;
	scales = xmalloc(cout * sizeof(*scales));
	bias = xmalloc(cout * sizeof(*bias));
	for (uint32_t i = 0; i < cout; i++) {
		scales[i] = 0.01f + 0.001f * (float)(i % 50);
		bias[i] = (int32_t)(i * 37 % 2001) - 1000;
	}
	p.weight_scales = scales;
	p.num_weight_scales = cout;
	in = xmalloc((size_t)h * w * cin);
	wt = xmalloc(nw);
	out = xmalloc(nout);
	fill(in, (size_t)h * w * cin, 21);
	fill(wt, nw, 22);
	ret = e1npu_conv_new(e->ops, &p, wt, bias, &cv);
	if (ret)
		die("conv_new", ret);
	perf(e, &p0);
	ret = e1npu_conv_run(cv, in, out, NULL);
	if (ret)
		die("conv_run", ret);
	perf(e, &p1);
	delta(&p0, &p1, &c);
	e1npu_conv_free(cv);
	free(scales);
	free(bias);
	free(in);
	free(wt);
	free(out);
	if (c.d || !c.w)
		die("conv did not run on the wrapper alone", -EIO);
	return c.w;
}

/*
 * A layer cut along an axis of @units units: @wcost(units on the wrapper),
 * @dcost(units on the datapath).
 */
struct layer {
	const char *name;
	uint32_t units;
	const char *unit;
	uint64_t (*wcost)(struct env *e, const struct layer *l, uint32_t units);
	uint64_t (*dcost)(struct env *e, const struct layer *l, uint32_t units);
	uint32_t h, w, c, n, k;	/* shape, meaning per kind */
	uint64_t dw_channel;	/* depthwise: one channel on the datapath */
	uint64_t dw_channel_cost;	/* ... measured with this mmio_cost */
};

/* Depthwise: units are channels. */
static uint64_t dw_w(struct env *e, const struct layer *l, uint32_t ch)
{
	return conv_cycles(e, true, l->h, l->w, ch, ch, 3);
}

static uint64_t dw_d(struct env *e, const struct layer *l, uint32_t ch)
{
	struct layer *ml = (struct layer *)l;

	/* Every channel is the same [H*W][9] x [9][1] GEMM: measured once. */
	if (!ml->dw_channel || ml->dw_channel_cost != e->mmio_cost) {
		ml->dw_channel_cost = e->mmio_cost;
		ml->dw_channel = matmul_cycles(e, E1NPU_OPS_FORCE_DATAPATH,
					       l->h * l->w, 1, 9);
	}
	return (uint64_t)ch * ml->dw_channel;
}

/* Pointwise 1x1: units are image rows of w pixels. */
static uint64_t pw_w(struct env *e, const struct layer *l, uint32_t rows)
{
	return conv_cycles(e, false, rows, l->w, l->c, l->n, 1);
}

static uint64_t pw_d(struct env *e, const struct layer *l, uint32_t rows)
{
	return matmul_cycles(e, E1NPU_OPS_FORCE_DATAPATH, rows * l->w, l->n, l->c);
}

/* Matmul [units][k] x [k][n]: units are rows; @c = independent copies (heads). */
static uint64_t mm_w(struct env *e, const struct layer *l, uint32_t rows)
{
	return (uint64_t)l->c * matmul_cycles(e, E1NPU_OPS_FORCE_WRAPPER, rows, l->n, l->k);
}

static uint64_t mm_d(struct env *e, const struct layer *l, uint32_t rows)
{
	return (uint64_t)l->c * matmul_cycles(e, E1NPU_OPS_FORCE_DATAPATH, rows, l->n, l->k);
}

static void bench_layer(struct env *e, struct layer *l)
{
	uint64_t w_only = l->wcost(e, l, l->units), d_only, best = w_only;
	uint32_t best_j = 0, j;

	for (j = 1; j <= l->units; j++) {
		uint64_t d = l->dcost(e, l, j), wpart, ms;

		if (d >= best)
			break;
		wpart = l->wcost(e, l, l->units - j);
		ms = wpart > d ? wpart : d;
		if (ms < best) {
			best = ms;
			best_j = j;
		}
	}
	d_only = l->dcost(e, l, l->units);
	printf("%-26s %12llu %13llu %7u/%-6u %12llu %7.2f%%\n", l->name,
	       (unsigned long long)w_only, (unsigned long long)d_only,
	       l->units - best_j, best_j, (unsigned long long)best,
	       100.0 * (double)(w_only - best) / (double)w_only);
	printf("%-26s (split unit: %s; datapath %.1fx the wrapper's cycles)\n", "",
	       l->unit, (double)d_only / (double)w_only);
	fflush(stdout);
}

int main(void)
{
	/* t = 64 tokens, d = 256, 4 heads of 64, FFN 1024 (4 d). */
	enum { T = 64, D = 256, H = 4, DH = D / H, F = 4 * D };
	struct layer layers[] = {
		{ "dw 3x3 112x112x32", 32, "channel", dw_w, dw_d, 112, 112, 0, 0, 0, 0, 0 },
		{ "dw 3x3 56x56x144", 144, "channel", dw_w, dw_d, 56, 56, 0, 0, 0, 0, 0 },
		{ "dw 3x3 14x14x576", 576, "channel", dw_w, dw_d, 14, 14, 0, 0, 0, 0, 0 },
		{ "dw 3x3 7x7x960", 960, "channel", dw_w, dw_d, 7, 7, 0, 0, 0, 0, 0 },
		{ "pw 1x1 56x56x24->144", 56, "image row", pw_w, pw_d, 56, 56, 24, 144, 0, 0, 0 },
		{ "xf QKV 64x256 x 256x768", T, "token row", mm_w, mm_d, 0, 0, 1, 3 * D, D, 0, 0 },
		{ "xf QK^T 4 heads 64x64x64", T, "token row", mm_w, mm_d, 0, 0, H, T, DH, 0, 0 },
		{ "xf PV 4 heads 64x64x64", T, "token row", mm_w, mm_d, 0, 0, H, DH, T, 0, 0 },
		{ "xf FFN up 64x256x1024", T, "token row", mm_w, mm_d, 0, 0, 1, F, D, 0, 0 },
		{ "xf FFN down 64x1024x256", T, "token row", mm_w, mm_d, 0, 0, 1, D, F, 0, 0 },
	};
	struct env e;
	int ret;

	ret = e1npu_device_open("sim", &e.dev);
	if (ret)
		die("device_open sim", ret);
	ret = e1npu_ops_new(e.dev, &e.ops);
	if (ret)
		die("ops_new", ret);
	printf("bench-hybrid: best split of each layer between the wrapper and the datapath\n");
	printf("(modelled cycles measured on the in-process model; makespan = max of the parts;\n");
	printf(" the xf softmax runs on the host and is not engine work)\n");
	for (int b = 0; b < 2; b++) {
		e.mmio_cost = b ? e1npu_sim_model(e.dev)->cfg.timing.dp_mem_latency + 1 : 0;
		if (!b)
			printf("\nA. the model as it is: the datapath's PERF_CYCLES (one cycle per MAC;\n"
			       "   the host's register accesses that stage operands cost nothing)\n");
		else
			printf("\nB. the same, each datapath register access of a job charged %llu cycles\n"
			       "   (the model's AXI-Lite beat, dp_mem_latency + 1)\n",
			       (unsigned long long)e.mmio_cost);
		printf("%-26s %12s %13s %14s %12s %8s\n", "layer", "wrapper-only",
		       "datapath-only", "split (w/dp)", "makespan", "gain");
		for (size_t i = 0; i < sizeof(layers) / sizeof(layers[0]); i++)
			bench_layer(&e, &layers[i]);
	}
	e1npu_ops_free(e.ops);
	e1npu_device_close(e.dev);
	return 0;
}
