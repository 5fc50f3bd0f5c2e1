// SPDX-License-Identifier: MIT
/*
 * Lowering benchmark: modelled NPU cycles (the device model's perf counters
 * through libe1npu) against the ideal MACs / 256 of the 16x16 systolic
 * array, descriptors, and host time spent lowering, for a 1024^3 matmul and
 * the convolution layers of MobileNet v1 0.25 128 and v2 1.0 224.
 *
 * Usage: bench-lowering [device]   (default "sim")
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <e1npu/e1npu.h>
#include <e1npu/e1npu_ops.h>

struct layer {
	const char *name;
	uint32_t kind, h, w, cin, cout, k, s;
};

#define PW(n, h, ci, co)	{ n, E1NPU_OPS_CONV2D, h, h, ci, co, 1, 1 }
#define CV(n, h, ci, co, s)	{ n, E1NPU_OPS_CONV2D, h, h, ci, co, 3, s }
#define DW(n, h, c, s)		{ n, E1NPU_OPS_DEPTHWISE_CONV2D, h, h, c, c, 3, s }

static const struct layer v1[] = {
	CV("v1 conv0 3x3/2", 128, 3, 8, 2),
	DW("v1 dw1 3x3/1", 64, 8, 1),	PW("v1 pw1", 64, 8, 16),
	DW("v1 dw2 3x3/2", 64, 16, 2),	PW("v1 pw2", 32, 16, 32),
	DW("v1 dw3 3x3/1", 32, 32, 1),	PW("v1 pw3", 32, 32, 32),
	DW("v1 dw4 3x3/2", 32, 32, 2),	PW("v1 pw4", 16, 32, 64),
	DW("v1 dw5 3x3/1", 16, 64, 1),	PW("v1 pw5", 16, 64, 64),
	DW("v1 dw6 3x3/2", 16, 64, 2),	PW("v1 pw6", 8, 64, 128),
	DW("v1 dw7-11 3x3/1", 8, 128, 1), PW("v1 pw7-11", 8, 128, 128),
	DW("v1 dw12 3x3/2", 8, 128, 2),	PW("v1 pw12", 4, 128, 256),
	DW("v1 dw13 3x3/1", 4, 256, 1),	PW("v1 pw13", 4, 256, 256),
};

static const struct layer v2[] = {
	CV("v2 conv0 3x3/2", 224, 3, 32, 2),
	DW("v2 b0 dw 3x3/1", 112, 32, 1),	PW("v2 b0 project", 112, 32, 16),
	PW("v2 b1 expand", 112, 16, 96),	DW("v2 b1 dw 3x3/2", 112, 96, 2),
	PW("v2 b1 project", 56, 96, 24),
	PW("v2 b2 expand", 56, 24, 144),	DW("v2 b2 dw 3x3/1", 56, 144, 1),
	PW("v2 b2 project", 56, 144, 24),	DW("v2 b3 dw 3x3/2", 56, 144, 2),
	PW("v2 b3 project", 28, 144, 32),
	PW("v2 b4 expand", 28, 32, 192),	DW("v2 b4 dw 3x3/1", 28, 192, 1),
	PW("v2 b4 project", 28, 192, 32),	DW("v2 b6 dw 3x3/2", 28, 192, 2),
	PW("v2 b6 project", 14, 192, 64),
	PW("v2 b7 expand", 14, 64, 384),	DW("v2 b7 dw 3x3/1", 14, 384, 1),
	PW("v2 b7 project", 14, 384, 64),	PW("v2 b10 project", 14, 384, 96),
	PW("v2 b11 expand", 14, 96, 576),	DW("v2 b11 dw 3x3/1", 14, 576, 1),
	PW("v2 b11 project", 14, 576, 96),	DW("v2 b13 dw 3x3/2", 14, 576, 2),
	PW("v2 b13 project", 7, 576, 160),
	PW("v2 b14 expand", 7, 160, 960),	DW("v2 b14 dw 3x3/1", 7, 960, 1),
	PW("v2 b14 project", 7, 960, 160),	PW("v2 b16 project", 7, 960, 320),
	PW("v2 conv_last 1x1", 7, 320, 1280),
};

static uint64_t seed = 1;

static uint32_t rnd(void)
{
	seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)(seed >> 33);
}

static void print_row(const char *name, const char *shape,
		      const struct e1npu_ops_report *r)
{
	double ideal = (double)r->macs / 256.0;
	double util = r->wrapper_cycles ? 100.0 * ideal / (double)r->wrapper_cycles : 0;

	printf("%-20s %-22s %-8s %12llu %12llu %10.0f %6.1f%% %6u %9.3f %9.3f\n",
	       name, shape, e1npu_engine_name(r->engine),
	       (unsigned long long)r->macs, (unsigned long long)r->wrapper_cycles,
	       ideal, util, r->hw_ops, (double)r->lower_ns / 1e6,
	       (double)r->host_ns / 1e6);
}

static int bench_layers(struct e1npu_ops *ops, const struct layer *l, size_t n,
			uint64_t *tot_macs, uint64_t *tot_cyc)
{
	for (size_t i = 0; i < n; i++) {
		struct e1npu_conv_params p;
		struct e1npu_ops_report rep;
		struct e1npu_conv *cv;
		uint32_t oh, ow;
		float *sc;
		int32_t *bias;
		int8_t *in, *w, *out;
		size_t nw;
		char shape[64];
		int ret;

		memset(&p, 0, sizeof(p));
		p.kind = l[i].kind;
		p.dtype = E1NPU_DTYPE_INT8;
		p.in_h = l[i].h;
		p.in_w = l[i].w;
		p.c_in = l[i].cin;
		p.c_out = l[i].cout;
		p.kh = p.kw = l[i].k;
		p.stride_h = p.stride_w = l[i].s;
		p.dil_h = p.dil_w = 1;
		p.padding = E1NPU_PAD_SAME;
		p.depth_multiplier = 1;
		p.input.scale = 0.02f;
		p.input.zero_point = -3;
		p.output.scale = 0.05f;
		p.act = E1NPU_ACT_RELU6;
		nw = (size_t)p.kh * p.kw * (p.kind == E1NPU_OPS_DEPTHWISE_CONV2D ? 1 : p.c_in) * p.c_out;
		sc = malloc(p.c_out * sizeof(float));
		bias = calloc(p.c_out, sizeof(int32_t));
		w = malloc(nw);
		in = malloc((size_t)p.in_h * p.in_w * p.c_in);
		for (uint32_t c = 0; c < p.c_out; c++)
			sc[c] = 0.001f * (float)(1 + rnd() % 9);
		for (size_t j = 0; j < nw; j++)
			w[j] = (int8_t)rnd();
		for (size_t j = 0; j < (size_t)p.in_h * p.in_w * p.c_in; j++)
			in[j] = (int8_t)rnd();
		p.weight_scales = sc;
		p.num_weight_scales = p.c_out;
		ret = e1npu_conv_new(ops, &p, w, bias, &cv);
		if (ret) {
			fprintf(stderr, "bench-lowering: %s: conv_new: %d\n", l[i].name, ret);
			return 1;
		}
		e1npu_conv_get_output_size(cv, &oh, &ow);
		out = malloc((size_t)oh * ow * p.c_out);
		ret = e1npu_conv_run(cv, in, out, &rep);
		if (ret) {
			fprintf(stderr, "bench-lowering: %s: run: %d\n", l[i].name, ret);
			return 1;
		}
		snprintf(shape, sizeof(shape), "%ux%ux%u->%ux%ux%u", p.in_h, p.in_w,
			 p.c_in, oh, ow, p.c_out);
		print_row(l[i].name, shape, &rep);
		*tot_macs += rep.macs;
		*tot_cyc += rep.wrapper_cycles;
		e1npu_conv_free(cv);
		free(sc);
		free(bias);
		free(w);
		free(in);
		free(out);
	}
	return 0;
}

static void header(void)
{
	printf("%-20s %-22s %-8s %12s %12s %10s %7s %6s %9s %9s\n", "op", "shape",
	       "engine", "MACs", "cycles", "ideal", "util", "descs", "lower ms",
	       "host ms");
}

int main(int argc, char **argv)
{
	const char *spec = argc > 1 ? argv[1] : "sim";
	struct e1npu_ops_report rep;
	struct e1npu_device *dev;
	struct e1npu_ops *ops;
	uint64_t macs = 0, cyc = 0;
	int8_t *a, *b;
	int32_t *c;
	int ret;

	ret = e1npu_device_open(spec, &dev);
	if (ret) {
		fprintf(stderr, "bench-lowering: open %s: %s\n", spec, e1npu_strerror(ret));
		return 1;
	}
	if (e1npu_ops_new(dev, &ops))
		return 1;
	a = malloc(1024 * 1024);
	b = malloc(1024 * 1024);
	c = malloc(1024 * 1024 * 4);
	for (size_t i = 0; i < 1024 * 1024; i++) {
		a[i] = (int8_t)rnd();
		b[i] = (int8_t)rnd();
	}
	printf("bench-lowering: modelled cycles vs ideal MACs/256 (16x16 systolic), device %s\n\n", spec);
	header();
	ret = e1npu_ops_matmul_s8(ops, 1024, 1024, 1024, a, 1024, b, 1024, c, 1024, &rep);
	if (ret) {
		fprintf(stderr, "bench-lowering: matmul: %d\n", ret);
		return 1;
	}
	print_row("matmul_s8", "1024x1024x1024", &rep);
	printf("\nMobileNet v1 0.25 128 (int8, SAME, ReLU6)\n");
	header();
	if (bench_layers(ops, v1, sizeof(v1) / sizeof(v1[0]), &macs, &cyc))
		return 1;
	printf("%-20s %-22s %-8s %12llu %12llu %10.0f %6.1f%%\n", "v1 total", "", "",
	       (unsigned long long)macs, (unsigned long long)cyc, macs / 256.0,
	       cyc ? 100.0 * macs / 256.0 / cyc : 0);
	macs = cyc = 0;
	printf("\nMobileNet v2 1.0 224 (int8, SAME, ReLU6)\n");
	header();
	if (bench_layers(ops, v2, sizeof(v2) / sizeof(v2[0]), &macs, &cyc))
		return 1;
	printf("%-20s %-22s %-8s %12llu %12llu %10.0f %6.1f%%\n", "v2 total", "", "",
	       (unsigned long long)macs, (unsigned long long)cyc, macs / 256.0,
	       cyc ? 100.0 * macs / 256.0 / cyc : 0);
	/* transformer pieces: systolic + datapath cycles, host share */
	printf("\nTransformer pieces (int8; wrapper and datapath cycles)\n");
	printf("%-20s %-22s %-8s %12s %12s %12s %6s %9s %9s\n", "op", "shape", "engine",
	       "MACs", "wr cycles", "dp cycles", "descs", "lower ms", "host ms");
	{
		struct e1npu_attention_params ap;
		struct e1npu_decoder_params dp;
		struct e1npu_requant r1, r2;
		int8_t *o = malloc(1 << 20);

		memset(&ap, 0, sizeof(ap));
		ap.batch = 1;
		ap.heads = 8;
		ap.tq = ap.tk = 128;
		ap.dim = 64;
		ap.mask = E1NPU_MASK_CAUSAL;
		ap.softmax = E1NPU_SOFTMAX_EXP2;
		e1npu_requant_from_scale(1.0 / 4096, 0, &ap.qk);
		if (e1npu_ops_attention_s8(ops, &ap, a, a + 65536, a + 131072, o, &rep) == 0)
			printf("%-20s %-22s %-8s %12llu %12llu %12llu %6u %9.3f %9.3f\n",
			       "attention causal", "8h x 128 x 128 x 64", e1npu_engine_name(rep.engine),
			       (unsigned long long)rep.macs, (unsigned long long)rep.wrapper_cycles,
			       (unsigned long long)rep.dp_cycles, rep.hw_ops,
			       (double)rep.lower_ns / 1e6, (double)rep.host_ns / 1e6);
		memset(&dp, 0, sizeof(dp));
		e1npu_requant_from_scale(1.0 / 2048, 0, &r1);
		e1npu_requant_from_scale(1.0 / 4096, 0, &r2);
		dp.t = 64;
		dp.d = 256;
		dp.dh = 512;
		dp.heads = 4;
		dp.gamma_frac = 6;
		dp.norm_frac = 5;
		dp.g1 = dp.g2 = a;
		dp.wqkv = b;
		dp.rq_q = dp.rq_k = dp.rq_v = dp.rq_qk = dp.rq_hidden = r1;
		dp.rq_out = r2;
		dp.cos = dp.sin = b + 300000;
		dp.mask = E1NPU_MASK_CAUSAL;
		dp.bias = a;
		dp.wu = b + 200000;
		dp.wg = b + 400000;
		dp.wd = b + 600000;
		dp.gate_shift = 7;
		for (int i = 0; i < 64 * 32; i++)	/* RoPE tables within [-127, 127] */
			if (((int8_t *)b)[300000 + i] == -128)
				((int8_t *)b)[300000 + i] = -127;
		if (e1npu_ops_decoder_block_s8(ops, &dp, a + 300000, o, &rep) == 0)
			printf("%-20s %-22s %-8s %12llu %12llu %12llu %6u %9.3f %9.3f\n",
			       "decoder block", "t64 d256 dh512 4 heads", e1npu_engine_name(rep.engine),
			       (unsigned long long)rep.macs, (unsigned long long)rep.wrapper_cycles,
			       (unsigned long long)rep.dp_cycles, rep.hw_ops,
			       (double)rep.lower_ns / 1e6, (double)rep.host_ns / 1e6);
		free(o);
	}
	free(a);
	free(b);
	free(c);
	e1npu_ops_free(ops);
	e1npu_device_close(dev);
	return 0;
}
