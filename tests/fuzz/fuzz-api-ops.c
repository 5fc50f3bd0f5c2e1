// SPDX-License-Identifier: MIT
/*
 * libFuzzer harness of libe1npu's public lowering API (e1npu_ops.h): one
 * call of one entry point per input, with fuzzed parameters and shapes,
 * on the in-process device (a 16 MiB arena) or a CPU-only context, under
 * any engine override.
 *
 * The harness sizes every caller buffer from the header's documented
 * layout, computed independently in 128 bits:
 *  - all sizes fit a small host block: exact-size heap blocks (ASan sees
 *    any byte the library touches outside them), the call runs;
 *  - a size passes PTRDIFF_MAX (no object can be that big), or a
 *    documented precondition fails (a stride shorter than its row, conv
 *    kh * kw > 256, depthwise c_out != c_in * depth_multiplier, ...):
 *    the call gets 16-byte guard blocks and MUST fail;
 *  - otherwise (valid but too big to back, or too slow) the call is skipped.
 *
 * Properties (Documentation/fuzzing.md): A1 every call returns 0 or a
 * negative errno; A2 no crash, no ASan/UBSan report, no leak; A3 a call the
 * header says is invalid returns an error; A4 conv and pool output sizes
 * agree with TFLite's geometry computed here.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>

#include "fuzz-common.h"

#include <e1npu/e1npu.h>
#include <e1npu/e1npu_ops.h>

typedef unsigned __int128 u128;

#define HOST_MAX	(1u << 18)	/* largest host-backed buffer */
#define WORK_MAX	(1u << 18)	/* MACs (or elements x taps) per call */
#define NBUF		16
#define GUARD		16

static struct e1npu_device *g_dev;
static struct e1npu_ops *g_ops[2];	/* [0] sim device, [1] CPU only */
static bool g_verbose;

/* ---- input decoding --------------------------------------------------- */

/* Interesting 32-bit values: powers of two and their neighbours. */
static uint32_t special32(uint8_t b)
{
	uint32_t p = 1u << (b & 31);

	switch ((b >> 5) & 3) {
	case 0:
		return p;
	case 1:
		return p - 1;
	case 2:
		return p + 1;
	default:
		return 0u - p;
	}
}

/*
 * A multiplicand that makes a 32-bit product with a small factor wrap:
 * ceil(2^32 * j / k), k in [2, 17] (k * it = 2^32 * j + a small rest).
 */
static uint32_t wrap32(uint8_t b)
{
	uint32_t k = 2 + (b & 15), j = 1 + (uint32_t)(b >> 4) % (k - 1);

	return (uint32_t)((((uint64_t)1 << 32) * j + k - 1) / k);
}

/* A size: mostly in [0, max], sometimes special, wrapping or raw. */
static uint32_t fz_dim(struct fz *f, uint32_t max)
{
	uint8_t b = fz_u8(f);

	if (b < 0xd0)
		return b % (max + 1);
	if (b < 0xe0)
		return special32(fz_u8(f));
	if (b < 0xf0)
		return wrap32(fz_u8(f));
	return fz_u32(f);
}

/* A stride: the row length plus a little, or special/raw 64 bits. */
static size_t fz_ld(struct fz *f, size_t row)
{
	uint8_t b = fz_u8(f);

	if (b < 0xd0)
		return row + b % 5 - (b % 7 == 6 && row ? 1 : 0);
	if (b < 0xe0)
		return (size_t)special32(fz_u8(f)) << (b & 1 ? 32 : 0);
	if (b < 0xf0)
		return SIZE_MAX - (b & 7);
	return fz_u64(f);
}

static float fz_scale(struct fz *f)
{
	static const float tab[] = {
		1.0f / 256, 1.0f / 128, 0.5f, 1.0f, 0.0235294f, 0.1f, 2.0f,
		0.001f, 0.05f, 0.25f, 3.0f, 0.0078125f,
	};
	uint8_t b = fz_u8(f);
	uint32_t bits;
	float v;

	if (b < 0xd0)
		return tab[b % (sizeof(tab) / sizeof(tab[0]))];
	bits = fz_u32(f);
	memcpy(&v, &bits, sizeof(v));
	return v;
}

static int32_t fz_zp(struct fz *f, uint32_t dtype)
{
	uint8_t b = fz_u8(f);

	if (b < 0xd0)
		return (int32_t)fz_u8(f) - (dtype == E1NPU_DTYPE_UINT8 ? 0 : 128);
	if (b < 0xe0)
		return (int32_t)special32(fz_u8(f));
	return (int32_t)fz_u32(f);
}

static uint32_t fz_dtype(struct fz *f)
{
	uint8_t b = fz_u8(f);

	return b < 0xf0 ? 1 + (b & 1) : b;
}

static struct e1npu_qparams fz_q(struct fz *f, uint32_t dtype)
{
	struct e1npu_qparams q;

	q.scale = fz_scale(f);
	q.zero_point = fz_zp(f, dtype);
	return q;
}

static void fz_rq(struct fz *f, struct e1npu_requant *rq)
{
	uint8_t b = fz_u8(f);

	memset(rq, 0, sizeof(*rq));
	if (b < 0xd0) {
		if (e1npu_requant_from_scale((double)fz_scale(f), 0, rq))
			rq->multiplier = 1 << 30;
		rq->zero_point = (int8_t)fz_u8(f);
		return;
	}
	rq->multiplier = (int32_t)fz_u32(f);
	rq->shift = (int32_t)(b < 0xe8 ? (int8_t)fz_u8(f) : (int32_t)fz_u32(f));
	rq->zero_point = fz_zp(f, E1NPU_DTYPE_INT8);
}

/* ---- buffers ------------------------------------------------------------ */

struct call {
	const char *name;
	u128 need[NBUF];
	uint8_t *p[NBUF];
	unsigned int nb;
	u128 work;
	bool reject;		/* the header says: must fail */
	struct fz *f;
};

static u128 mul(u128 a, u128 b)
{
	/* saturate far above PTRDIFF_MAX: 128 bits never wrap here */
	if (a && b > ((u128)1 << 126) / a)
		return (u128)1 << 126;
	return a * b;
}

static u128 mul3(u128 a, u128 b, u128 c)
{
	return mul(mul(a, b), c);
}

/* Bytes of a strided matrix: (rows - 1) * ld + cols elements. */
static u128 span(u128 rows, u128 cols, u128 ld, u128 es)
{
	return rows ? mul(mul(rows - 1, ld) + cols, es) : 0;
}

static unsigned int need(struct call *c, u128 bytes)
{
	c->need[c->nb] = bytes;
	return c->nb++;
}

/*
 * Back every buffer: false when the call is to be skipped. Content comes
 * from the rest of the input, then a pattern.
 */
static bool back(struct call *c)
{
	bool big = false;

	for (unsigned int i = 0; i < c->nb; i++) {
		if (c->need[i] > (u128)PTRDIFF_MAX)
			c->reject = true;
		if (c->need[i] > HOST_MAX)
			big = true;
	}
	if (!c->reject && (big || c->work > WORK_MAX))
		return false;
	for (unsigned int i = 0; i < c->nb; i++) {
		size_t n = c->reject ? GUARD : (size_t)c->need[i];

		c->p[i] = malloc(n ? n : 1);
		if (!c->p[i])
			fz_fail("%s: host malloc %zu", c->name, n);
		for (size_t j = 0; j < n; j++)
			c->p[i][j] = c->f->n ? fz_u8(c->f) : (uint8_t)(j * 37 + i);
	}
	return true;
}

static void release(struct call *c)
{
	for (unsigned int i = 0; i < c->nb; i++) {
		free(c->p[i]);
		c->p[i] = NULL;	/* a skipped call leaves them unset */
	}
	c->nb = 0;
}

/* A1 and A3. */
static void verdict(struct call *c, int ret)
{
	if (g_verbose)
		fprintf(stderr, "%s: %d%s\n", c->name, ret, c->reject ? " (must fail)" : "");
	if (ret > 0 || ret < -4095)
		fz_fail("%s returned %d: not 0 or a negative errno", c->name, ret);
	if (c->reject && ret == 0)
		fz_fail("%s accepted parameters the header says are invalid", c->name);
}

/* TFLite's output size along one axis (dil >= 1, stride >= 1). */
static u128 out_len(uint32_t padding, uint32_t in, uint32_t k, uint32_t stride,
		    uint32_t dil)
{
	u128 eff = (u128)(k - 1) * dil + 1;

	if (padding == E1NPU_PAD_SAME)
		return ((u128)in + stride - 1) / stride;
	return in >= eff ? ((u128)in - eff) / stride + 1 : 0;
}

/* ---- entry points ------------------------------------------------------- */

#define B(i)	((void *)c->p[i])

static void f_matmul_s8(struct e1npu_ops *ops, struct call *c, struct fz *f)
{
	uint32_t m = fz_dim(f, 40), n = fz_dim(f, 40), k = fz_dim(f, 40);
	size_t lda = fz_ld(f, k), ldb = fz_ld(f, n), ldc = fz_ld(f, n);
	unsigned int a, b, cc;

	c->name = "matmul_s8";
	a = need(c, span(m, k, lda, 1));
	b = need(c, span(k, n, ldb, 1));
	cc = need(c, span(m, n, ldc, 4));
	c->reject = m && n && k && (lda < k || ldb < n || ldc < n);
	c->work = (u128)m * n * k;
	if (back(c))
		verdict(c, e1npu_ops_matmul_s8(ops, m, n, k, B(a), lda, B(b), ldb,
					       B(cc), ldc, NULL));
}

static void f_matmul_lowp(struct e1npu_ops *ops, struct call *c, struct fz *f)
{
	static const uint32_t kinds[] = { E1NPU_OPS_MATMUL_S4, E1NPU_OPS_MATMUL_S2,
		E1NPU_OPS_MATMUL_TERNARY, E1NPU_OPS_MATMUL_SPARSE_S4, 0 };
	uint8_t sel = fz_u8(f);
	uint32_t kind = sel < 0xf0 ? kinds[sel % 5] : fz_u32(f);
	uint32_t m = fz_dim(f, 24), n = fz_dim(f, 24), k = fz_dim(f, 24);
	bool clamp = fz_u8(f) & 1;
	unsigned int a, b, cc;

	c->name = "matmul_lowp";
	a = need(c, mul(m, k));
	b = need(c, mul(k, n));
	cc = need(c, mul3(m, n, 4));
	c->work = (u128)m * n * k;
	if (!back(c))
		return;
	if (clamp && !c->reject)	/* mostly in range: reach the GEMM */
		for (unsigned int i = 0; i < 2; i++)
			for (size_t j = 0; j < (size_t)c->need[i]; j++)
				c->p[i][j] = (uint8_t)((int8_t)c->p[i][j] % 2);
	verdict(c, e1npu_ops_matmul_lowp(ops, kind, m, n, k, B(a), B(b), B(cc), NULL));
}

static void f_matmul_fp8(struct e1npu_ops *ops, struct call *c, struct fz *f)
{
	uint32_t m = fz_dim(f, 24), n = fz_dim(f, 24), k = fz_dim(f, 24);
	unsigned int a, b, cc;

	c->name = "matmul_fp8";
	a = need(c, mul(m, k));
	b = need(c, mul(k, n));
	cc = need(c, mul3(m, n, 4));
	c->work = (u128)m * n * k;
	if (back(c))
		verdict(c, e1npu_ops_matmul_fp8(ops, m, n, k, B(a), B(b), B(cc), NULL));
}

static void f_matmul_f16(struct e1npu_ops *ops, struct call *c, struct fz *f)
{
	uint8_t sel = fz_u8(f);
	uint32_t kind = sel < 0xf0 ? (sel & 1 ? E1NPU_OPS_MATMUL_BF16 :
				      E1NPU_OPS_MATMUL_FP16) : fz_u32(f);
	uint32_t m = fz_dim(f, 24), n = fz_dim(f, 24), k = fz_dim(f, 24);
	unsigned int a, b, cc;

	c->name = "matmul_f16";
	a = need(c, mul3(m, k, 2));
	b = need(c, mul3(k, n, 2));
	cc = need(c, mul3(m, n, 4));
	c->work = (u128)m * n * k;
	if (!back(c))
		return;
	/* small normal values, mostly: a mid-range exponent */
	if (!c->reject && (sel & 2))
		for (unsigned int i = 0; i < 2; i++)
			for (size_t j = 1; j < (size_t)c->need[i]; j += 2)
				c->p[i][j] = (uint8_t)((c->p[i][j] & 0x83) | 0x3c);
	verdict(c, e1npu_ops_matmul_f16(ops, kind, m, n, k, B(a), B(b), B(cc), NULL));
}

static void f_matmul_gs(struct e1npu_ops *ops, struct call *c, struct fz *f)
{
	uint32_t m = fz_dim(f, 24), n = fz_dim(f, 24), k = fz_dim(f, 32);
	uint32_t group = fz_dim(f, 16);
	unsigned int a, w, s, cc;

	c->name = "matmul_gs_s4";
	a = need(c, mul(m, k));
	w = need(c, mul(k, n));
	s = need(c, group ? mul3(k / group, n, 2) : 0);
	cc = need(c, mul3(m, n, 4));
	c->work = (u128)m * n * k;
	if (!back(c))
		return;
	if (!c->reject)
		for (size_t j = 0; j < (size_t)c->need[w]; j++)
			c->p[w][j] = (uint8_t)((int8_t)c->p[w][j] % 8);
	verdict(c, e1npu_ops_matmul_gs_s4(ops, m, n, k, group, B(a), B(w), B(s), B(cc),
					  NULL));
}

static void f_batch_matmul(struct e1npu_ops *ops, struct call *c, struct fz *f)
{
	uint32_t bt = fz_dim(f, 4), h = fz_dim(f, 4), m = fz_dim(f, 16);
	uint32_t n = fz_dim(f, 16), k = fz_dim(f, 16);
	u128 s = (u128)bt * h;
	unsigned int a, b, cc;

	c->name = "batch_matmul_s8";
	a = need(c, mul3(s, m, k));
	b = need(c, mul3(s, k, n));
	cc = need(c, mul(mul3(s, m, n), 4));
	c->work = mul3(s, (u128)m * n, k);
	if (back(c))
		verdict(c, e1npu_ops_batch_matmul_s8(ops, bt, h, m, n, k, B(a), B(b),
						     B(cc), NULL));
}

static void f_fc(struct e1npu_ops *ops, struct call *c, struct fz *f)
{
	struct e1npu_fc_params p;
	struct e1npu_fc *fc = NULL;
	uint32_t rows;
	unsigned int w, bias, sc;
	bool with_bias;
	int ret;

	memset(&p, 0, sizeof(p));
	p.dtype = fz_dtype(f);
	p.k = fz_dim(f, 40);
	p.n = fz_dim(f, 40);
	p.input = fz_q(f, p.dtype);
	p.output = fz_q(f, p.dtype);
	p.weight_zero_point = fz_zp(f, p.dtype);
	p.num_weight_scales = fz_u8(f) & 1 ? p.n : fz_u8(f) < 0xf0 ? 1 : fz_u32(f);
	p.act = fz_u8(f) % 5;
	with_bias = fz_u8(f) & 1;
	rows = fz_dim(f, 8);
	c->name = "fc_new";
	w = need(c, mul(p.n, p.k));
	bias = need(c, mul(p.n, 4));
	sc = need(c, mul(p.num_weight_scales, 4));
	c->work = mul3(rows, p.n, p.k);
	if (!back(c))
		return;
	if (!c->reject)
		for (uint32_t i = 0; i < p.num_weight_scales; i++) {
			float v = fz_scale(f);

			memcpy(c->p[sc] + 4 * (size_t)i, &v, 4);
		}
	p.weight_scales = B(sc);
	ret = e1npu_fc_new(ops, &p, B(w), with_bias ? B(bias) : NULL, &fc);
	verdict(c, ret);
	release(c);
	if (ret)
		return;
	c->name = "fc_run";
	c->reject = false;
	need(c, mul(rows, p.k));
	need(c, mul(rows, p.n));
	if (back(c))
		verdict(c, e1npu_fc_run(fc, rows, B(0), B(1), NULL));
	e1npu_fc_free(fc);
}

static void f_conv(struct e1npu_ops *ops, struct call *c, struct fz *f)
{
	struct e1npu_conv_params p;
	struct e1npu_conv *cv = NULL;
	uint32_t oh = 0, ow = 0, cin_g = 1, sel;
	u128 eh, ew, taps, wbytes;
	unsigned int w, bias, sc;
	bool with_bias;
	int ret;

	memset(&p, 0, sizeof(p));
	sel = fz_u8(f);
	p.kind = sel < 0xf0 ? E1NPU_OPS_CONV2D + sel % 3 : fz_u32(f);
	p.dtype = fz_dtype(f);
	p.in_h = fz_dim(f, 12);
	p.in_w = fz_dim(f, 12);
	p.c_in = fz_dim(f, 12);
	p.c_out = fz_dim(f, 20);
	p.kh = fz_dim(f, 6);
	p.kw = fz_dim(f, 6);
	p.stride_h = fz_dim(f, 3);
	p.stride_w = fz_dim(f, 3);
	p.dil_h = fz_dim(f, 2);
	p.dil_w = fz_dim(f, 2);
	p.padding = fz_u8(f) % 3;
	p.groups = fz_dim(f, 4);
	p.depth_multiplier = fz_dim(f, 3);
	/* as a caller computes it, in 32 bits (which may wrap) */
	if (fz_u8(f) & 1)
		p.c_out = p.c_in * p.depth_multiplier;
	p.input = fz_q(f, p.dtype);
	p.output = fz_q(f, p.dtype);
	p.weight_zero_point = fz_zp(f, p.dtype);
	sel = fz_u8(f);
	p.num_weight_scales = sel & 1 ? p.c_out : sel < 0xf0 ? 1 : fz_u32(f);
	p.act = fz_u8(f) % 5;
	p.rounding = fz_u8(f) % 4;	/* 3: not an enum e1npu_rounding */
	if (fz_u8(f) == 0xff)
		p.reserved[fz_u8(f) % 7] = fz_u32(f);
	with_bias = fz_u8(f) & 1;

	/* the header's rules (e1npu_ops.h, lowering.md "Hostile shapes") */
	taps = (u128)p.kh * p.kw;
	if (p.kind == E1NPU_OPS_GROUPED_CONV2D && p.groups &&
	    !(p.c_in % p.groups) && !(p.c_out % p.groups))
		cin_g = p.c_in / p.groups;
	else if (p.kind == E1NPU_OPS_CONV2D)
		cin_g = p.c_in;
	c->reject = taps > 256 ||
		    (u128)(p.kh - 1) * p.dil_h + 1 > INT32_MAX ||
		    (u128)(p.kw - 1) * p.dil_w + 1 > INT32_MAX ||
		    (p.kind == E1NPU_OPS_DEPTHWISE_CONV2D &&
		     (u128)p.c_in * p.depth_multiplier != p.c_out) ||
		    (p.kind == E1NPU_OPS_GROUPED_CONV2D && p.groups &&
		     (p.c_in % p.groups || p.c_out % p.groups)) ||
		    p.rounding > E1NPU_ROUNDING_RUY_SINGLE ||
		    (p.reserved[0] | p.reserved[1] | p.reserved[2] | p.reserved[3] |
		     p.reserved[4] | p.reserved[5] | p.reserved[6]);
	wbytes = mul3(taps, cin_g, p.c_out);
	c->name = "conv_new";
	w = need(c, wbytes);
	bias = need(c, mul(p.c_out, 4));
	sc = need(c, mul(p.num_weight_scales, 4));
	eh = p.stride_h && p.dil_h && p.kh ? out_len(p.padding, p.in_h, p.kh, p.stride_h, p.dil_h) : 0;
	ew = p.stride_w && p.dil_w && p.kw ? out_len(p.padding, p.in_w, p.kw, p.stride_w, p.dil_w) : 0;
	c->work = mul(mul3(eh, ew, p.c_out), mul(taps, cin_g));
	if (!back(c))
		return;
	if (!c->reject)
		for (uint32_t i = 0; i < p.num_weight_scales; i++) {
			float v = fz_scale(f);

			memcpy(c->p[sc] + 4 * (size_t)i, &v, 4);
		}
	p.weight_scales = B(sc);
	ret = e1npu_conv_new(ops, &p, B(w), with_bias ? B(bias) : NULL, &cv);
	verdict(c, ret);
	release(c);
	if (ret)
		return;
	/* A4 */
	if (e1npu_conv_get_output_size(cv, &oh, &ow) || oh != eh || ow != ew)
		fz_fail("conv output %ux%u, TFLite's geometry %llux%llu", oh, ow,
			(unsigned long long)eh, (unsigned long long)ew);
	c->name = "conv_run";
	c->reject = false;
	need(c, mul3(p.in_h, p.in_w, p.c_in));
	need(c, mul3(eh, ew, p.c_out));
	if (back(c))
		verdict(c, e1npu_conv_run(cv, B(0), B(1), NULL));
	e1npu_conv_free(cv);
}

static void f_pool(struct e1npu_ops *ops, struct call *c, struct fz *f)
{
	struct e1npu_pool_params p;
	bool avg = fz_u8(f) & 1;
	uint32_t oh = 0, ow = 0;
	u128 eh = 0, ew = 0;
	int ret;

	memset(&p, 0, sizeof(p));
	p.dtype = fz_dtype(f);
	p.in_h = fz_dim(f, 20);
	p.in_w = fz_dim(f, 20);
	p.channels = fz_dim(f, 40);
	p.filter_h = fz_dim(f, 4);
	p.filter_w = fz_dim(f, 4);
	p.stride_h = fz_dim(f, 3);
	p.stride_w = fz_dim(f, 3);
	p.padding = fz_u8(f) % 3;
	p.q = fz_q(f, p.dtype);
	p.act = fz_u8(f) % 5;
	if (p.stride_h && p.filter_h)
		eh = out_len(p.padding, p.in_h, p.filter_h, p.stride_h, 1);
	if (p.stride_w && p.filter_w)
		ew = out_len(p.padding, p.in_w, p.filter_w, p.stride_w, 1);
	ret = e1npu_ops_pool_output_size(&p, &oh, &ow);
	if (!ret && (oh != eh || ow != ew))	/* A4 */
		fz_fail("pool output %ux%u, TFLite's geometry %llux%llu", oh, ow,
			(unsigned long long)eh, (unsigned long long)ew);
	c->name = avg ? "avgpool" : "maxpool";
	need(c, mul3(p.in_h, p.in_w, p.channels));
	need(c, mul3(eh, ew, p.channels));
	c->work = mul(mul3(eh, ew, p.channels), (u128)p.filter_h * p.filter_w);
	if (back(c))
		verdict(c, (avg ? e1npu_ops_avgpool : e1npu_ops_maxpool)(ops, &p, B(0),
									B(1), NULL));
}

static size_t fz_count(struct fz *f)
{
	uint8_t b = fz_u8(f);

	if (b < 0xd0)
		return (size_t)b * (b & 1 ? 37 : 1);
	if (b < 0xf0)
		return SIZE_MAX >> (b & 63);
	return fz_u64(f);
}

static void f_elementwise(struct e1npu_ops *ops, struct call *c, struct fz *f)
{
	uint8_t which = fz_u8(f) % 5;
	size_t n = fz_count(f);
	bool inplace = fz_u8(f) & 1;
	unsigned int a, b, o;
	int ret;

	c->name = "elementwise";
	a = need(c, n);
	b = need(c, n);
	o = need(c, n);
	c->work = n;
	if (!back(c))
		return;
	if (inplace)
		o = a;
	switch (which) {
	case 0:
		c->name = "relu_s8";
		ret = e1npu_ops_relu_s8(ops, n, B(a), B(o), NULL);
		break;
	case 1:
		c->name = "residual_add_s8";
		ret = e1npu_ops_residual_add_s8(ops, n, B(a), B(b), B(o), NULL);
		break;
	case 2:
		c->name = "silu_s8";
		ret = e1npu_ops_silu_s8(ops, n, B(a), B(o), NULL);
		break;
	case 3:
		c->name = "quick_gelu_s8";
		ret = e1npu_ops_quick_gelu_s8(ops, n, B(a), B(o), NULL);
		break;
	default: {
		uint32_t dtype = fz_dtype(f);
		struct e1npu_qparams qa = fz_q(f, dtype), qb = fz_q(f, dtype);
		struct e1npu_qparams qo = fz_q(f, dtype);

		c->name = "add";
		ret = e1npu_ops_add(ops, dtype, n, B(a), &qa, B(b), &qb, B(o), &qo,
				    fz_u8(f) % 5, NULL);
		break;
	}
	}
	verdict(c, ret);
}

static void f_softmax(struct e1npu_ops *ops, struct call *c, struct fz *f)
{
	uint8_t which = fz_u8(f);
	uint32_t rows = fz_dim(f, 8), depth = fz_dim(f, 40);
	unsigned int in, out, mask;

	c->name = which & 1 ? "softmax_exp2_s8" : "softmax";
	in = need(c, mul(rows, depth));
	out = need(c, mul(rows, depth));
	mask = need(c, mul(rows, depth));
	c->work = (u128)rows * depth;
	if (!back(c))
		return;
	if (which & 1) {
		/* masks: mostly sparse, so whole rows end up masked */
		if (!c->reject)
			for (size_t j = 0; j < (size_t)c->need[mask]; j++)
				c->p[mask][j] = c->p[mask][j] < 0x40;
		verdict(c, e1npu_ops_softmax_exp2_s8(ops, rows, depth, B(in),
						     which & 2 ? B(mask) : NULL, B(out),
						     NULL));
	} else {
		uint32_t dtype = fz_dtype(f);
		float scale = fz_scale(f), beta = fz_scale(f);

		verdict(c, e1npu_ops_softmax(ops, dtype, rows, depth, B(in), scale,
					     beta, B(out), NULL));
	}
}

static void f_norms(struct e1npu_ops *ops, struct call *c, struct fz *f)
{
	uint8_t which = fz_u8(f) % 3;
	uint32_t rows = fz_dim(f, 8), d = fz_dim(f, 40);
	unsigned int x, g, o;

	if (which == 0) {
		uint32_t gf = fz_dim(f, 16), of = fz_dim(f, 16);

		c->name = "rmsnorm_s8";
		x = need(c, mul(rows, d));
		g = need(c, d);
		o = need(c, mul(rows, d));
		c->work = (u128)rows * d;
		if (back(c))
			verdict(c, e1npu_ops_rmsnorm_s8(ops, rows, d, B(x), B(g), gf, of,
							B(o), NULL));
	} else if (which == 1) {
		unsigned int cs, sn;

		c->name = "rope_s8";
		x = need(c, mul(rows, d));
		cs = need(c, mul(rows, d / 2));
		sn = need(c, mul(rows, d / 2));
		o = need(c, mul(rows, d));
		c->work = (u128)rows * d;
		if (back(c))
			verdict(c, e1npu_ops_rope_s8(ops, rows, d, B(x), B(cs), B(sn),
						     B(o), NULL));
	} else {
		c->name = "bias_add_s8";
		x = need(c, mul(rows, d));
		g = need(c, d);
		o = need(c, mul(rows, d));
		c->work = (u128)rows * d;
		if (back(c))
			verdict(c, e1npu_ops_bias_add_s8(ops, rows, d, B(x), B(g), B(o),
							 NULL));
	}
}

static void f_attention_parts(struct e1npu_ops *ops, struct call *c, struct fz *f)
{
	bool av = fz_u8(f) & 1;
	uint32_t bt = fz_dim(f, 2), h = fz_dim(f, 3), tq = fz_dim(f, 12);
	uint32_t tk = fz_dim(f, 12), dim = fz_dim(f, 16);
	u128 s = (u128)bt * h;

	c->name = av ? "attention_av_s8" : "attention_qk_s8";
	if (av) {
		need(c, mul3(s, tq, tk));
		need(c, mul3(s, tk, dim));
		need(c, mul3(s, tq, dim));
	} else {
		need(c, mul3(s, tq, dim));
		need(c, mul3(s, tk, dim));
		need(c, mul(mul3(s, tq, tk), 4));
	}
	c->work = mul(mul3(s, tq, tk), dim);
	if (!back(c))
		return;
	if (av)
		verdict(c, e1npu_ops_attention_av_s8(ops, bt, h, tq, tk, dim, B(0), B(1),
						     B(2), NULL));
	else
		verdict(c, e1npu_ops_attention_qk_s8(ops, bt, h, tq, tk, dim, B(0), B(1),
						     B(2), NULL));
}

static void fz_attn(struct fz *f, struct e1npu_attention_params *p)
{
	memset(p, 0, sizeof(*p));
	p->batch = fz_dim(f, 2);
	p->heads = fz_dim(f, 3);
	p->tq = fz_dim(f, 10);
	p->tk = fz_dim(f, 10);
	p->dim = fz_dim(f, 12);
	p->mask = fz_u8(f) % 4;
	p->window = fz_dim(f, 6);
	p->softmax = fz_u8(f) % 3;
	fz_rq(f, &p->qk);
	p->logit_scale = fz_scale(f);
	p->beta = fz_scale(f);
}

static void f_attention(struct e1npu_ops *ops, struct call *c, struct fz *f)
{
	struct e1npu_attention_params p;
	u128 s;

	fz_attn(f, &p);
	s = (u128)p.batch * p.heads;
	c->name = "attention_s8";
	need(c, mul3(s, p.tq, p.dim));
	need(c, mul3(s, p.tk, p.dim));
	need(c, mul3(s, p.tk, p.dim));
	need(c, mul3(s, p.tq, p.dim));
	c->work = mul(mul3(s, p.tq, p.tk), p.dim);
	if (back(c))
		verdict(c, e1npu_ops_attention_s8(ops, &p, B(0), B(1), B(2), B(3), NULL));
}

static void f_kv(struct e1npu_ops *ops, struct call *c, struct fz *f)
{
	bool decode = fz_u8(f) & 1;
	struct e1npu_attention_params p;
	uint32_t cap, tnew;
	unsigned int kc, vc, lens, kn, vn, q, o;
	u128 s;

	fz_attn(f, &p);
	cap = fz_dim(f, 16);
	tnew = fz_dim(f, 6);
	s = (u128)p.batch * p.heads;
	c->name = decode ? "decode_attention_s8" : "kv_cache_append_s8";
	kc = need(c, mul3(s, cap, p.dim));
	vc = need(c, mul3(s, cap, p.dim));
	lens = need(c, mul(s, 4));
	kn = need(c, mul3(s, tnew, p.dim));
	vn = need(c, mul3(s, tnew, p.dim));
	q = need(c, mul3(s, tnew, p.dim));
	o = need(c, mul3(s, tnew, p.dim));
	c->work = mul(mul3(s, tnew, (u128)cap + tnew), p.dim);
	if (!back(c))
		return;
	if (!c->reject)	/* lengths mostly within the capacity */
		for (size_t j = 0; j < (size_t)s; j++) {
			uint32_t l;

			memcpy(&l, c->p[lens] + 4 * j, 4);
			if (!(l & 0x80000000u))
				l %= (uint64_t)cap + 1;
			memcpy(c->p[lens] + 4 * j, &l, 4);
		}
	if (decode)
		verdict(c, e1npu_ops_decode_attention_s8(ops, &p, cap, B(kc), B(vc),
							 B(lens), tnew, B(q), B(kn),
							 B(vn), B(o), NULL));
	else
		verdict(c, e1npu_ops_kv_cache_append_s8(ops, p.batch, p.heads, cap,
							p.dim, B(kc), B(vc), B(lens),
							tnew, B(kn), B(vn), NULL));
}

static void f_projections(struct e1npu_ops *ops, struct call *c, struct fz *f)
{
	uint8_t which = fz_u8(f) % 3;
	uint32_t t = fz_dim(f, 8), dm = fz_dim(f, 24), dh = fz_dim(f, 24);
	struct e1npu_requant r1, r2, r3;

	fz_rq(f, &r1);
	fz_rq(f, &r2);
	fz_rq(f, &r3);
	if (which == 0) {
		c->name = "qkv_projection_s8";
		need(c, mul(t, dm));
		need(c, mul3(dm, dm, 3));
		need(c, mul(t, dm));
		need(c, mul(t, dm));
		need(c, mul(t, dm));
		c->work = mul3(t, dm, (u128)dm * 3);
		if (back(c))
			verdict(c, e1npu_ops_qkv_projection_s8(ops, t, dm, B(0), B(1), &r1,
							       &r2, &r3, B(2), B(3), B(4),
							       NULL));
	} else if (which == 1) {
		c->name = "mlp_relu_s8";
		need(c, mul(t, dm));
		need(c, mul(dm, dh));
		need(c, mul(dh, dm));
		need(c, mul(t, dm));
		c->work = mul3(t, dm, (u128)dh * 2);
		if (back(c))
			verdict(c, e1npu_ops_mlp_relu_s8(ops, t, dm, dh, B(0), B(1), B(2),
							 &r1, &r2, B(3), NULL));
	} else {
		uint32_t gs = fz_dim(f, 18);

		c->name = "swiglu_s8";
		need(c, mul(t, dm));
		need(c, mul(dm, dh));
		need(c, mul(dm, dh));
		need(c, mul(dh, dm));
		need(c, mul(t, dm));
		c->work = mul3(t, dm, (u128)dh * 3);
		if (back(c))
			verdict(c, e1npu_ops_swiglu_s8(ops, t, dm, dh, B(0), B(1), B(2),
						       B(3), &r1, gs, &r2, B(4), NULL));
	}
}

static void f_blocks(struct e1npu_ops *ops, struct call *c, struct fz *f)
{
	bool decoder = fz_u8(f) & 1;
	uint32_t t = fz_dim(f, 6), d = fz_dim(f, 16), dh = fz_dim(f, 16);

	if (!decoder) {
		struct e1npu_requant r1, r2;

		fz_rq(f, &r1);
		fz_rq(f, &r2);
		c->name = "transformer_block_s8";
		need(c, mul(t, d));		/* x */
		need(c, mul(t, t));		/* p */
		need(c, mul(t, d));		/* v */
		need(c, d);			/* bias */
		need(c, mul(d, dh));		/* w1 */
		need(c, mul(dh, d));		/* w2 */
		need(c, mul(t, d));		/* out */
		c->work = mul3(t, d, (u128)t + 2 * (u128)dh);
		if (back(c))
			verdict(c, e1npu_ops_transformer_block_s8(ops, t, d, dh, B(0), B(1),
								  B(2), B(3), B(4), B(5),
								  &r1, &r2, B(6), NULL));
	} else {
		struct e1npu_decoder_params p;
		uint32_t half;

		memset(&p, 0, sizeof(p));
		p.t = t;
		p.d = d;
		p.dh = dh;
		p.heads = fz_dim(f, 4);
		p.gamma_frac = fz_dim(f, 16);
		p.norm_frac = fz_dim(f, 16);
		fz_rq(f, &p.rq_q);
		fz_rq(f, &p.rq_k);
		fz_rq(f, &p.rq_v);
		fz_rq(f, &p.rq_qk);
		fz_rq(f, &p.rq_hidden);
		fz_rq(f, &p.rq_out);
		p.mask = fz_u8(f) % 4;
		p.window = fz_dim(f, 6);
		p.gate_shift = fz_dim(f, 18);
		half = p.heads ? d / p.heads / 2 : 0;
		c->name = "decoder_block_s8";
		need(c, mul(t, d));		/* 0 x */
		need(c, mul(t, d));		/* 1 out */
		need(c, d);			/* 2 g1 */
		need(c, d);			/* 3 g2 */
		need(c, mul3(d, d, 3));		/* 4 wqkv */
		need(c, mul(t, half));		/* 5 cos */
		need(c, mul(t, half));		/* 6 sin */
		need(c, d);			/* 7 bias */
		need(c, mul(d, dh));		/* 8 wu */
		need(c, mul(d, dh));		/* 9 wg */
		need(c, mul(dh, d));		/* 10 wd */
		c->work = mul3(t, d, 3 * (u128)d + 2 * (u128)t + 3 * (u128)dh);
		if (!back(c))
			return;
		p.g1 = B(2);
		p.g2 = B(3);
		p.wqkv = B(4);
		p.cos = B(5);
		p.sin = B(6);
		p.bias = B(7);
		p.wu = B(8);
		p.wg = B(9);
		p.wd = B(10);
		verdict(c, e1npu_ops_decoder_block_s8(ops, &p, B(0), B(1), NULL));
	}
}

static void f_misc(struct e1npu_ops *ops, struct call *c, struct fz *f)
{
	struct e1npu_ops_support rows[4];
	struct e1npu_requant rq;
	size_t count = 0;
	uint32_t bits = fz_u32(f);
	float v;

	c->name = "support_table";
	verdict(c, e1npu_ops_support_table(ops, fz_u8(f) & 1 ? rows : NULL,
					   fz_u8(f) % 5, &count));
	memcpy(&v, &bits, sizeof(v));
	c->name = "requant_from_scale";
	verdict(c, e1npu_requant_from_scale((double)v, fz_zp(f, E1NPU_DTYPE_INT8), &rq));
	if (!e1npu_ops_kind_name(fz_u32(f)))
		fz_fail("e1npu_ops_kind_name returned NULL");
	if (!e1npu_strerror((int)fz_u32(f)))
		fz_fail("e1npu_strerror returned NULL");
}

typedef void (*entry_fn)(struct e1npu_ops *, struct call *, struct fz *);

static const entry_fn entries[] = {
	f_matmul_s8, f_matmul_lowp, f_matmul_fp8, f_matmul_f16, f_matmul_gs,
	f_batch_matmul, f_fc, f_conv, f_pool, f_elementwise, f_softmax, f_norms,
	f_attention_parts, f_attention, f_kv, f_projections, f_blocks, f_misc,
};

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* a small arena: staging past it must be -ENOMEM, not a crash */
	setenv("E1NPU_SIM_ARENA_MB", "16", 1);
	g_verbose = getenv("FUZZ_VERBOSE") != NULL;
	if (e1npu_device_open("sim", &g_dev) || e1npu_ops_new(g_dev, &g_ops[0]) ||
	    e1npu_ops_new(NULL, &g_ops[1]))
		fz_fail("cannot set up the sim device and contexts");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz f = { data, size };
	uint8_t hdr = fz_u8(&f);
	struct e1npu_ops *ops = g_ops[hdr & 1];
	struct call c;

	memset(&c, 0, sizeof(c));
	c.f = &f;
	if (e1npu_ops_set_force(ops, (enum e1npu_ops_force)((hdr >> 1) & 3)))
		fz_fail("set_force(%u) failed", (hdr >> 1) & 3);
	entries[fz_u8(&f) % (sizeof(entries) / sizeof(entries[0]))](ops, &c, &f);
	release(&c);
	e1npu_ops_set_force(ops, E1NPU_OPS_FORCE_AUTO);
	return 0;
}
