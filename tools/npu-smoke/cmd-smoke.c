// SPDX-License-Identifier: MIT
/*
 * npu-smoke smoke: every hardware operation on the device against the CPU
 * reference (e1npu_op_desc_run_cpu(), the contract's bit-exact reference),
 * with where each ran, then every lowered operation (cmd-smoke-lowered.c).
 * Output checksums (FNV-1a 64 of the output bytes) let a run on the kernel
 * driver be compared bit for bit with a run on the in-process model
 * (tests/lib/guest-smoke.sh).
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "tools-common.h"
#include "smoke-lowered.h"
#include "smoke-cmd.h"

#define BUF_SIZE	(1u << 20)

struct smoke_ctx {
	struct e1npu_device *dev;
	struct e1npu_buffer *a, *b, *c, *r;
	uint8_t *pa, *pb, *pc, *pr;
};

struct smoke_case {
	const char *name;
	/* Fill inputs and @d (output in @out); returns output bytes. */
	size_t (*build)(struct smoke_ctx *s, const struct smoke_case *c,
			struct e1npu_op_desc *d, struct e1npu_buffer *out);
	uint32_t p[10];
};

static uint32_t rng(uint32_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 17;
	*x ^= *x << 5;
	return *x;
}

static void fill(uint8_t *p, size_t n, uint32_t seed)
{
	size_t i;

	seed = seed * 2654435761u + 1;
	for (i = 0; i < n; i++)
		p[i] = (uint8_t)rng(&seed);
}

static uint32_t al16(uint32_t v)
{
	return (v + 15) & ~15u;
}

static struct e1npu_tensor T(struct e1npu_buffer *b, uint64_t off, uint32_t stride)
{
	struct e1npu_tensor t;

	memset(&t, 0, sizeof(t));
	t.buf = b;
	t.offset = off;
	t.stride = stride;
	return t;
}

static size_t b_none(struct smoke_ctx *s, const struct smoke_case *c,
		     struct e1npu_op_desc *d, struct e1npu_buffer *out)
{
	(void)s;
	(void)out;
	if (c->p[0] == 1)
		e1npu_op_desc_barrier(d);
	else if (c->p[0] == 2)
		e1npu_op_desc_fallback(d);
	else
		e1npu_op_desc_nop(d);
	return 0;
}

/* p: m, n, k, relu */
static size_t b_matmul(struct smoke_ctx *s, const struct smoke_case *c,
		       struct e1npu_op_desc *d, struct e1npu_buffer *out)
{
	uint32_t m = c->p[0], n = c->p[1], k = c->p[2];
	uint32_t sa = al16(k), sb = al16(n), sc = al16(4 * n);

	fill(s->pa, (size_t)m * sa, m * 7 + k);
	fill(s->pb, (size_t)k * sb, n * 5 + k);
	e1npu_op_desc_matmul(d, T(s->a, 0, sa), T(s->b, 0, sb), T(out, 0, sc),
			     m, n, k, c->p[3] ? E1NPU_OP_FLAG_RELU : 0);
	return (size_t)m * sc;
}

/* p: h, w, cin, cout, k, stride, pad, dilation, relu */
static size_t b_conv(struct smoke_ctx *s, const struct smoke_case *c,
		     struct e1npu_op_desc *d, struct e1npu_buffer *out)
{
	uint32_t h = c->p[0], w = c->p[1], ci = c->p[2], co = c->p[3];
	uint32_t k = c->p[4], st = c->p[5], pad = c->p[6], dil = c->p[7];
	uint32_t eff = (k - 1) * dil + 1;
	uint32_t oh = (h + 2 * pad - eff) / st + 1, ow = (w + 2 * pad - eff) / st + 1;
	uint32_t sa = al16(w * ci), sb = al16(co), sc = al16(4 * ow * co);

	fill(s->pa, (size_t)h * sa, h * 3 + ci);
	fill(s->pb, (size_t)k * k * ci * sb, co * 11 + k);
	e1npu_op_desc_conv2d(d, T(s->a, 0, sa), T(s->b, 0, sb), T(out, 0, sc),
			     h, w, ci, co, k, oh, ow, st, st, pad, pad, dil,
			     c->p[8] ? E1NPU_OP_FLAG_RELU : 0);
	return (size_t)oh * sc;
}

/* p: h, w, c, window, stride */
static size_t b_pool(struct smoke_ctx *s, const struct smoke_case *c,
		     struct e1npu_op_desc *d, struct e1npu_buffer *out)
{
	uint32_t h = c->p[0], w = c->p[1], ch = c->p[2], win = c->p[3], st = c->p[4];
	uint32_t oh = (h - win) / st + 1, ow = (w - win) / st + 1;
	uint32_t sa = al16(w * ch), sc = al16(ow * ch);

	fill(s->pa, (size_t)h * sa, h + win);
	e1npu_op_desc_maxpool(d, T(s->a, 0, sa), T(out, 0, sc), h, w, ch, win, st);
	return (size_t)oh * sc;
}

/* p: rows, bytes */
static size_t b_relu(struct smoke_ctx *s, const struct smoke_case *c,
		     struct e1npu_op_desc *d, struct e1npu_buffer *out)
{
	uint32_t sa = al16(c->p[1]);

	fill(s->pa, (size_t)c->p[0] * sa, 42);
	e1npu_op_desc_relu(d, T(s->a, 0, sa), T(out, 0, sa), c->p[0], c->p[1]);
	return (size_t)c->p[0] * sa;
}

static void put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

/* Operands the datapath accepts for each scalar opcode (no fail-closed). */
static void scalar_operands(uint32_t op, uint32_t *x, uint32_t *a, uint32_t *b,
			    uint32_t *acc, bool ternary)
{
	static const uint8_t pos[][2] = { { 0, 1 }, { 2, 3 }, { 1, 3 }, { 3, 0 } };
	unsigned int i;

	*a = rng(x);
	*b = rng(x);
	*acc = rng(x);
	switch (op) {
	case 12:	/* SDOT4_S4_2_4: A[31:16] = 0, ACC[31:8] = 0, p0 != p1, p2 != p3 */
		*a &= 0xffff;
		i = rng(x) & 3;
		*acc = (uint32_t)(pos[i][0] | pos[i][1] << 2);
		i = rng(x) & 3;
		*acc |= (uint32_t)(pos[i][0] << 4 | pos[i][1] << 6);
		break;
	case 13:
		if (ternary) {	/* no 0b11 lanes */
			for (i = 0; i < 16; i++) {
				if (((*a >> (2 * i)) & 3) == 3)
					*a &= ~(1u << (2 * i));
				if (((*b >> (2 * i)) & 3) == 3)
					*b &= ~(1u << (2 * i));
			}
		}
		break;
	case 14:	/* no NaN lanes (S.1111.111) */
		for (i = 0; i < 4; i++) {
			if (((*a >> (8 * i)) & 0x7f) == 0x7f)
				*a &= ~(1u << (8 * i));
			if (((*b >> (8 * i)) & 0x7f) == 0x7f)
				*b &= ~(1u << (8 * i));
		}
		break;
	case 15:	/* delta <= 0 */
		*a = (uint32_t)(-(int32_t)(rng(x) % 20)) & 0xff;
		break;
	default:
		break;
	}
}

/* p: dp opcode, count, ternary */
static size_t b_scalar(struct smoke_ctx *s, const struct smoke_case *c,
		       struct e1npu_op_desc *d, struct e1npu_buffer *out)
{
	uint32_t x = 0x1234567u + c->p[0] * 977, i, a, b, acc;

	for (i = 0; i < c->p[1]; i++) {
		scalar_operands(c->p[0], &x, &a, &b, &acc, c->p[2]);
		put32(s->pa + 12 * i, a);
		put32(s->pa + 12 * i + 4, b);
		put32(s->pa + 12 * i + 8, acc);
	}
	e1npu_op_desc_dp_scalar(d, T(s->a, 0, 0), T(out, 0, 0), c->p[0], c->p[1],
				c->p[2] ? E1NPU_OP_FLAG_TERNARY : 0);
	return 8u * c->p[1];
}

/* p: int4, m, n, k */
static size_t b_dpgemm(struct smoke_ctx *s, const struct smoke_case *c,
		       struct e1npu_op_desc *d, struct e1npu_buffer *out)
{
	fill(s->pa, 64, 17 + c->p[0]);
	fill(s->pb, 64, 29 + c->p[0]);
	e1npu_op_desc_dp_gemm(d, (int)c->p[0], T(s->a, 0, c->p[3]), T(s->b, 0, c->p[2]),
			      T(out, 0, 4 * c->p[2]), c->p[1], c->p[2], c->p[3]);
	return (size_t)4 * c->p[1] * c->p[2];
}

static size_t b_vrelu(struct smoke_ctx *s, const struct smoke_case *c,
		      struct e1npu_op_desc *d, struct e1npu_buffer *out)
{
	fill(s->pa, 64, 99);
	e1npu_op_desc_dp_vrelu(d, T(s->a, 0, 0), T(out, 0, 0), c->p[0]);
	return c->p[0];
}

static const struct smoke_case cases[] = {
	{ "nop", b_none, { 0 } },
	{ "barrier", b_none, { 1 } },
	{ "matmul 64x64x64", b_matmul, { 64, 64, 64, 0 } },
	{ "matmul 100x37x200", b_matmul, { 100, 37, 200, 0 } },
	{ "matmul+relu 33x17x50", b_matmul, { 33, 17, 50, 1 } },
	{ "conv2d 1x1 16x16x8->16", b_conv, { 16, 16, 8, 16, 1, 1, 0, 1, 0 } },
	{ "conv2d 3x3 s1 p1 16x16x8->8", b_conv, { 16, 16, 8, 8, 3, 1, 1, 1, 0 } },
	{ "conv2d 3x3 s2 p1 17x17x4->8", b_conv, { 17, 17, 4, 8, 3, 2, 1, 1, 0 } },
	{ "conv2d 5x5 s1 p2 12x12x3->4", b_conv, { 12, 12, 3, 4, 5, 1, 2, 1, 0 } },
	{ "conv2d+relu 5x5 s2 p2 15x15x4->6", b_conv, { 15, 15, 4, 6, 5, 2, 2, 1, 1 } },
	{ "conv2d 3x3 d2 p2 14x14x4->4", b_conv, { 14, 14, 4, 4, 3, 1, 2, 2, 0 } },
	{ "maxpool 2x2 s2 16x16x8", b_pool, { 16, 16, 8, 2, 2 } },
	{ "maxpool 3x3 s1 11x9x5", b_pool, { 11, 9, 5, 3, 1 } },
	{ "relu 32x100", b_relu, { 32, 100 } },
	{ "dp add", b_scalar, { 0, 16, 0 } },
	{ "dp sub", b_scalar, { 1, 16, 0 } },
	{ "dp mul_lo", b_scalar, { 2, 16, 0 } },
	{ "dp mac_s16", b_scalar, { 3, 16, 0 } },
	{ "dp dot4_s8", b_scalar, { 4, 16, 0 } },
	{ "dp max_u32", b_scalar, { 5, 16, 0 } },
	{ "dp min_u32", b_scalar, { 6, 16, 0 } },
	{ "dp dot8_s4", b_scalar, { 7, 16, 0 } },
	{ "dp relu4_s8", b_scalar, { 10, 16, 0 } },
	{ "dp sdot4_s4_2_4", b_scalar, { 12, 16, 0 } },
	{ "dp dot16_s2", b_scalar, { 13, 16, 0 } },
	{ "dp dot16_s2 ternary", b_scalar, { 13, 16, 1 } },
	{ "dp dot4_fp8_e4m3", b_scalar, { 14, 16, 0 } },
	{ "dp exp2_neg_q0_8", b_scalar, { 15, 16, 0 } },
	{ "dp gemm_s8 3x3x7", b_dpgemm, { 0, 3, 3, 7 } },
	{ "dp gemm_s4 3x3x7", b_dpgemm, { 1, 3, 3, 7 } },
	{ "dp vrelu_s8 64", b_vrelu, { 64 } },
	{ "fallback (cpu)", b_none, { 2 } },
};

#define N_CASES	(sizeof(cases) / sizeof(cases[0]))

struct result {
	const char *op;
	const char *engine;
	bool pass;
	int error;
	uint32_t hw_err_code;
	uint64_t checksum;
	char reason[128];
};

static void run_case(struct smoke_ctx *s, const struct smoke_case *c,
		     struct result *r)
{
	struct e1npu_op_outcome out;
	struct e1npu_op_desc d, dr;
	struct e1npu_cmdbuf *cb = NULL;
	size_t n;
	int ret;

	memset(r, 0, sizeof(*r));
	memset(s->pc, 0, BUF_SIZE);
	memset(s->pr, 0, BUF_SIZE);
	n = c->build(s, c, &d, s->c);
	dr = d;
	if (dr.c.buf)
		dr.c.buf = s->r;
	r->op = e1npu_opcode_name(d.opcode);
	r->engine = "none";
	ret = e1npu_cmdbuf_new(s->dev, &cb);
	if (!ret)
		ret = e1npu_cmdbuf_add_op(cb, &d);
	if (ret < 0) {
		snprintf(r->reason, sizeof(r->reason), "%s", e1npu_device_last_error(s->dev));
		r->error = ret;
		e1npu_cmdbuf_free(cb);
		return;
	}
	ret = e1npu_cmdbuf_run(cb);
	e1npu_cmdbuf_get_outcome(cb, 0, &out);
	e1npu_cmdbuf_free(cb);
	r->engine = e1npu_engine_name(out.engine);
	r->error = out.error;
	r->hw_err_code = out.hw_err_code;
	snprintf(r->reason, sizeof(r->reason), "%s", out.reason);
	r->checksum = smoke_fnv1a(SMOKE_FNV_INIT, s->pc, n);
	if (ret || out.status != E1NPU_OP_STATUS_DONE)
		return;
	ret = e1npu_op_desc_run_cpu(&dr);
	if (ret) {
		snprintf(r->reason, sizeof(r->reason), "CPU reference: %s",
			 e1npu_device_last_error(s->dev));
		return;
	}
	if (memcmp(s->pc, s->pr, n)) {
		snprintf(r->reason, sizeof(r->reason), "output differs from the CPU reference");
		return;
	}
	/* The FALLBACK op must be rejected by the hardware and run on the CPU. */
	if (d.opcode == E1NPU_OP_FALLBACK && out.engine != E1NPU_ENGINE_CPU) {
		snprintf(r->reason, sizeof(r->reason), "FALLBACK did not run on the CPU");
		return;
	}
	r->pass = true;
}

/* The hardware part; its four 1 MiB buffers are freed before the lowered
 * part, whose staging arena shares the driver's tensor memory. */
static unsigned int run_hw(struct e1npu_device *dev, const struct common_opts *o,
			   unsigned int total, struct result *res)
{
	struct smoke_ctx s;
	unsigned int i, fails = 0;

	memset(&s, 0, sizeof(s));
	s.dev = dev;
	if (e1npu_buffer_alloc(s.dev, BUF_SIZE, &s.a) ||
	    e1npu_buffer_alloc(s.dev, BUF_SIZE, &s.b) ||
	    e1npu_buffer_alloc(s.dev, BUF_SIZE, &s.c) ||
	    e1npu_buffer_alloc(s.dev, BUF_SIZE, &s.r) ||
	    e1npu_buffer_map(s.a, (void **)&s.pa) ||
	    e1npu_buffer_map(s.b, (void **)&s.pb) ||
	    e1npu_buffer_map(s.c, (void **)&s.pc) ||
	    e1npu_buffer_map(s.r, (void **)&s.pr))
		die("smoke: %s", e1npu_device_last_error(s.dev));
	for (i = 0; i < N_CASES; i++) {
		progress(o, i + 1, total, cases[i].name);
		run_case(&s, &cases[i], &res[i]);
		fails += !res[i].pass;
	}
	e1npu_buffer_free(s.a);
	e1npu_buffer_free(s.b);
	e1npu_buffer_free(s.c);
	e1npu_buffer_free(s.r);
	return fails;
}

static void print_hw(const struct common_opts *o, const struct result *r,
		     unsigned int i, bool last)
{
	if (o->json) {
		/* One op per line: tests/lib/guest-smoke.sh compares lines. */
		printf("{\"name\":");
		json_str(stdout, cases[i].name);
		printf(",\"part\":\"hw\",\"op\":\"%s\",\"engine\":\"%s\",\"result\":\"%s\","
		       "\"error\":%d,\"hw_err_code\":%u,\"checksum\":\"%016llx\",\"reason\":",
		       r->op, r->engine, r->pass ? "pass" : "FAIL", r->error,
		       r->hw_err_code, (unsigned long long)r->checksum);
		json_str(stdout, r->reason);
		printf("}%s\n", last ? "" : ",");
		return;
	}
	if (!i)
		printf("%-34s %-12s %-9s %-6s %-16s %s\n", "HARDWARE OPERATION", "OPCODE",
		       "RAN ON", "RESULT", "CHECKSUM", "NOTE");
	printf("%-34s %-12s %-9s %-6s %016llx %s\n", cases[i].name, r->op, r->engine,
	       r->pass ? "pass" : "FAIL", (unsigned long long)r->checksum, r->reason);
}

static void print_help(void)
{
	printf("Usage: %s [OPTIONS] smoke [--hw-only | --lowered-only]\n\n"
	       "Run every hardware operation on the device, then every operation of\n"
	       "the lowering layer (e1npu_ops.h), and compare each with its CPU\n"
	       "reference. Prints a table (or JSON with output checksums).\n\n"
	       "  --hw-only       only the hardware operations\n"
	       "  --lowered-only  only the lowered operations\n",
	       prog_name);
}

enum { OPT_HW_ONLY = 0x100, OPT_LOWERED_ONLY };

struct smoke_cfg {
	bool hw, lowered;
};

static int handle(int c, const char *arg, void *ctx)
{
	struct smoke_cfg *cfg = ctx;

	(void)arg;
	if (c == OPT_HW_ONLY)
		cfg->lowered = false;
	else if (c == OPT_LOWERED_ONLY)
		cfg->hw = false;
	else
		return -1;
	if (!cfg->hw && !cfg->lowered)
		die_usage("smoke: --hw-only and --lowered-only exclude each other");
	return 0;
}

int cmd_smoke(int argc, char **argv, struct common_opts *o)
{
	static const struct option opts[] = {
		{ "hw-only", no_argument, NULL, OPT_HW_ONLY },
		{ "lowered-only", no_argument, NULL, OPT_LOWERED_ONLY },
		{ NULL, 0, NULL, 0 },
	};
	struct smoke_cfg cfg = { true, true };
	struct e1npu_device_info info;
	struct e1npu_device *dev;
	struct lowered_result *lres;
	struct result *res;
	unsigned int i, nh, nl, total, fails = 0;
	double t0, t1, ms;

	no_operands(argc, argv,
		    parse_common(argc, argv, o, "", opts, handle, &cfg, print_help));
	dev = open_device_or_die(o);
	e1npu_device_get_info(dev, &info);
	nh = cfg.hw ? (unsigned int)N_CASES : 0;
	nl = cfg.lowered ? (unsigned int)lowered_count() : 0;
	total = nh + nl;
	res = calloc(N_CASES, sizeof(*res));
	lres = calloc(lowered_count(), sizeof(*lres));
	if (!res || !lres)
		die("smoke: out of memory");
	t0 = now_us();
	if (nh)
		fails += run_hw(dev, o, total, res);
	t1 = now_us();
	if (nl)
		fails += smoke_run_lowered(dev, o, nh, total, lres);
	ms = (now_us() - t0) / 1e3;
	progress_done(o);

	if (o->json) {
		printf("{\"device\":");
		json_str(stdout, info.path);
		printf(",\"backend\":\"%s\",\"ops\":[\n",
		       info.backend == E1NPU_BACKEND_SIM ? "sim" : "kernel");
	} else {
		printf("npu-smoke: %s (%s backend)\n", info.path,
		       info.backend == E1NPU_BACKEND_SIM ? "sim" : "kernel");
	}
	for (i = 0; i < nh; i++)
		print_hw(o, &res[i], i, i + 1 == total);
	for (i = 0; i < nl; i++)
		smoke_print_lowered(o, i, &lres[i], nh + i + 1 == total);
	if (o->json)
		printf("],\"passed\":%u,\"failed\":%u,\"elapsed_ms\":%.1f,\"hw_ms\":%.1f,"
		       "\"lowered_ms\":%.1f}\n", total - fails, fails, ms, (t1 - t0) / 1e3,
		       ms - (t1 - t0) / 1e3);
	else
		printf("%u/%u passed (%u hardware, %u lowered) in %.1f ms\n", total - fails,
		       total, nh, nl, ms);
	free(res);
	free(lres);
	e1npu_device_close(dev);
	return fails ? EXIT_FAILURE : EXIT_SUCCESS;
}
