// SPDX-License-Identifier: MIT
/*
 * Hostile input (issue 11): each test is a reproducer of one bug an
 * independent tester found, and fails (wrong return, or a sanitizer report
 * under the ASan+UBSan build) without its fix. Expected values are worked
 * out here from the documented semantics, not read back from the library.
 */
#include <limits.h>
#include <stdint.h>

#include "ops-test.h"
#include "quant.h"
#include "ref.h"

static struct e1npu_conv_params conv_base(void)
{
	static const float ws = 0.5f;
	struct e1npu_conv_params p;

	memset(&p, 0, sizeof(p));
	p.kind = E1NPU_OPS_CONV2D;
	p.dtype = E1NPU_DTYPE_INT8;
	p.in_h = p.in_w = 4;
	p.c_in = p.c_out = 1;
	p.kh = p.kw = 1;
	p.stride_h = p.stride_w = 1;
	p.dil_h = p.dil_w = 1;
	p.padding = E1NPU_PAD_SAME;
	p.input.scale = 0.5f;
	p.output.scale = 1.0f;
	p.weight_scales = &ws;
	p.num_weight_scales = 1;
	return p;
}

static int conv_new_rc(struct e1npu_ops *ops, const struct e1npu_conv_params *p)
{
	static const int8_t w[1024];
	struct e1npu_conv *cv = NULL;
	int ret = e1npu_conv_new(ops, p, w, NULL, &cv);

	e1npu_conv_free(cv);
	return ret;
}

/* Bug 1: kh * kw = 2^32 wrapped to 0 and passed the <= 256 check. */
static void test_conv_kernel_wrap(void **state)
{
	struct ops_env *e = *state;
	struct e1npu_conv_params p = conv_base();

	p.kh = p.kw = 65536;
	assert_int_equal(conv_new_rc(e->ops, &p), -EINVAL);
	p.kh = 0x10000;
	p.kw = 0x10001;		/* product 2^32 + 2^16: wraps to 65536 */
	assert_int_equal(conv_new_rc(e->ops, &p), -EINVAL);
	/* the limit itself still holds: 256 taps yes, 257 no */
	p.in_h = p.in_w = 16;
	p.kh = 16;
	p.kw = 16;
	p.padding = E1NPU_PAD_VALID;
	assert_int_equal(conv_new_rc(e->ops, &p), 0);
	p.kh = 257;
	p.kw = 1;
	p.in_h = 300;
	assert_int_equal(conv_new_rc(e->ops, &p), -EINVAL);
}

/* Bug 2: c_in * depth_multiplier wrapped to c_out: division by zero. */
static void test_depthwise_multiplier_wrap(void **state)
{
	struct ops_env *e = *state;
	struct e1npu_conv_params p = conv_base();

	p.kind = E1NPU_OPS_DEPTHWISE_CONV2D;
	p.c_in = 3;
	p.depth_multiplier = 0x55555556;	/* 3 * dm = 2^32 + 2 */
	p.c_out = 2;
	assert_int_equal(conv_new_rc(e->ops, &p), -EINVAL);
	p.depth_multiplier = 2;
	p.c_out = 6;
	p.num_weight_scales = 1;
	assert_int_equal(conv_new_rc(e->ops, &p), 0);
}

/* Bug 5: scales and betas the fixed-point scheme cannot represent. */
static void test_extreme_quantization(void **state)
{
	struct ops_env *e = *state;
	struct e1npu_conv_params p = conv_base();
	static const float huge = 1e30f;
	struct e1npu_requant rq;
	int8_t in[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, o8[8];
	int32_t m;
	int s;

	/* in 0.5 * w 1e30 / out 1: shift 100 */
	p.weight_scales = &huge;
	assert_int_equal(conv_new_rc(e->ops, &p), -EINVAL);
	/* beta * scale * 2^26 = 6.7e-5 < 1: no left shift exists */
	assert_int_equal(e1npu_ops_softmax(e->ops, E1NPU_DTYPE_INT8, 1, 8, in,
					   1e-6f, 1e-6f, o8, NULL), -EINVAL);
	/* the boundary: 2^-26 * 2 = 2^-25, times 2^26 = 2 > 1 works */
	assert_int_equal(e1npu_ops_softmax(e->ops, E1NPU_DTYPE_INT8, 1, 8, in,
					   1.0f / 33554432.0f, 1.0f, o8, NULL), 0);
	/* real multipliers of 2^31 and up have no int32 left shift */
	assert_int_equal(e1q_quantize_multiplier(2147483648.0, &m, &s), -EINVAL);
	assert_int_equal(e1q_quantize_multiplier(2147483647.0, &m, &s), 0);
	assert_int_equal(s, 31);
	assert_int_equal(e1npu_requant_from_scale(1e30, 0, &rq), -EINVAL);
	/* a caller-made requant: shift 100, INT32_MIN, zero point 1000 */
	{
		int8_t x[4] = { 1 }, w1[4] = { 1 }, w2[4] = { 1 }, out[4];
		struct e1npu_requant ok, bad;

		assert_int_equal(e1npu_requant_from_scale(0.5, 0, &ok), 0);
		bad = ok;
		bad.shift = 100;
		assert_int_equal(e1npu_ops_mlp_relu_s8(e->ops, 1, 2, 2, x, w1, w2, &ok,
						       &bad, out, NULL), -EINVAL);
		bad.shift = INT32_MIN;
		assert_int_equal(e1npu_ops_mlp_relu_s8(e->ops, 1, 2, 2, x, w1, w2, &bad,
						       &ok, out, NULL), -EINVAL);
		bad = ok;
		bad.zero_point = 1000;
		assert_int_equal(e1npu_ops_mlp_relu_s8(e->ops, 1, 2, 2, x, w1, w2, &ok,
						       &bad, out, NULL), -EINVAL);
		assert_int_equal(e1npu_ops_mlp_relu_s8(e->ops, 1, 2, 2, x, w1, w2, &ok,
						       &ok, out, NULL), 0);
	}
}

/* Also seen: reserved members and zero points outside the element type. */
static void test_conv_reserved_zero_points(void **state)
{
	struct ops_env *e = *state;
	struct e1npu_conv_params p = conv_base();
	struct e1npu_qparams q = { 0.5f, 200 }, q0 = { 0.5f, 0 };
	int8_t a[4] = { 0 }, out[4];

	p.reserved[6] = 1;
	assert_int_equal(conv_new_rc(e->ops, &p), -EINVAL);
	p = conv_base();
	p.rounding = E1NPU_ROUNDING_RUY_SINGLE + 1;	/* not an enum e1npu_rounding */
	assert_int_equal(conv_new_rc(e->ops, &p), -EINVAL);
	p = conv_base();
	p.input.zero_point = 128;		/* not an int8 */
	assert_int_equal(conv_new_rc(e->ops, &p), -EINVAL);
	p = conv_base();
	p.output.zero_point = -129;
	assert_int_equal(conv_new_rc(e->ops, &p), -EINVAL);
	p = conv_base();
	p.dtype = E1NPU_DTYPE_UINT8;
	p.weight_zero_point = 256;
	assert_int_equal(conv_new_rc(e->ops, &p), -EINVAL);
	p.weight_zero_point = 255;
	p.input.zero_point = 0;
	assert_int_equal(conv_new_rc(e->ops, &p), 0);
	/* add: va = a - zp would overflow int32 after << 20 */
	q.zero_point = INT32_MIN;
	assert_int_equal(e1npu_ops_add(e->ops, E1NPU_DTYPE_INT8, 4, a, &q, a, &q0,
				       out, &q0, 0, NULL), -EINVAL);
	assert_int_equal(e1npu_ops_add(e->ops, E1NPU_DTYPE_INT8, 4, a, &q0, a, &q0,
				       out, &q0, 0, NULL), 0);
}

/*
 * Bug 6: a fully masked row has no maximum. Defined result
 * (Documentation/lowering.md): every output of the row is 0.
 */
static void test_softmax_fully_masked(void **state)
{
	struct ops_env *e = *state;
	int8_t in[16] = { 5, -3, 7, 0, 1, 2, 3, 4, 10, 9, 8, 7, 6, 5, 4, 3 };
	uint8_t mask[16] = { 0 }, out[16];
	enum e1npu_ops_force f[] = { E1NPU_OPS_FORCE_CPU, E1NPU_OPS_FORCE_DATAPATH };

	t_skip_group(e);
	/* second row: only x = 10 and x = 8 visible: e = 256, 64; sum 320 */
	mask[8] = mask[10] = 1;
	for (size_t i = 0; i < 2; i++) {
		memset(out, 0xee, sizeof(out));
		assert_int_equal(e1npu_ops_set_force(e->ops, f[i]), 0);
		assert_int_equal(e1npu_ops_softmax_exp2_s8(e->ops, 2, 8, in, mask, out,
							   NULL), 0);
		for (int c = 0; c < 8; c++)
			assert_int_equal(out[c], 0);
		assert_int_equal(out[8], (256 * 256 + 160) / 320);	/* 205 */
		assert_int_equal(out[10], (256 * 64 + 160) / 320);	/* 51 */
		assert_int_equal(out[9] + out[11] + out[15], 0);
	}
	assert_int_equal(e1npu_ops_set_force(e->ops, E1NPU_OPS_FORCE_AUTO), 0);
}

/* Bug 6: causal attention with tq > tk: the first tq - tk queries see no key. */
static void test_attention_causal_tq_gt_tk(void **state)
{
	struct ops_env *e = *state;
	enum { TQ = 4, TK = 2, D = 2 };
	int8_t q[TQ * D] = { 1, 0, 1, 0, 1, 0, 1, 0 };
	int8_t k[TK * D] = { 3, 0, 1, 0 };	/* scores q.k = 3, 1 */
	int8_t v[TK * D] = { 100, -50, 20, 60 };
	int8_t out[TQ * D];
	struct e1npu_attention_params p;
	int32_t want[2][D];

	t_skip_group(e);
	memset(&p, 0, sizeof(p));
	p.batch = p.heads = 1;
	p.tq = TQ;
	p.tk = TK;
	p.dim = D;
	p.mask = E1NPU_MASK_CAUSAL;
	p.softmax = E1NPU_SOFTMAX_EXP2;
	/* multiplier 2^30, shift 1: the identity requantization */
	p.qk.multiplier = 1 << 30;
	p.qk.shift = 1;
	/*
	 * Query i sees keys j <= tk - tq + i = i - 2. Row 2: key 0 alone,
	 * p = 255 (saturated), p7 = 127. Row 3: logits 3, 1: e = 256, 64,
	 * p = 205, 51; p7 = 103, 26. out = sat8((sum p7 v + 64) >> 7).
	 */
	for (int d = 0; d < D; d++) {
		want[0][d] = (127 * v[d] + 64) >> 7;
		want[1][d] = (103 * v[d] + 26 * v[D + d] + 64) >> 7;
	}
	memset(out, 0x55, sizeof(out));
	assert_int_equal(e1npu_ops_attention_s8(e->ops, &p, q, k, v, out, NULL), 0);
	for (int d = 0; d < D; d++) {
		assert_int_equal(out[0 * D + d], 0);
		assert_int_equal(out[1 * D + d], 0);
		assert_int_equal(out[2 * D + d], want[0][d]);
		assert_int_equal(out[3 * D + d], want[1][d]);
	}
}

/* Bug 7: sizes and strides whose products wrap. */
static void test_matmul_huge_shapes(void **state)
{
	struct ops_env *e = *state;
	int8_t a[64] = { 0 }, b[64] = { 0 };
	int32_t c[64];
	const uint32_t big = 0xffffffffu;

	assert_int_equal(e1npu_ops_matmul_s8(e->ops, big, big, big, a, big, b, big,
					     c, big, NULL), -EINVAL);
	assert_int_equal(e1npu_ops_matmul_s8(e->ops, 2, 2, 2, a, SIZE_MAX, b,
					     SIZE_MAX, c, SIZE_MAX, NULL), -EINVAL);
	/* each stride alone */
	assert_int_equal(e1npu_ops_matmul_s8(e->ops, 2, 2, 2, a, SIZE_MAX / 2, b, 2,
					     c, 2, NULL), -EINVAL);
	assert_int_equal(e1npu_ops_matmul_s8(e->ops, 2, 2, 2, a, 2, b, 2, c,
					     SIZE_MAX / 4, NULL), -EINVAL);
	/* rows shorter than the matrix */
	assert_int_equal(e1npu_ops_matmul_s8(e->ops, 2, 2, 3, a, 2, b, 2, c, 2, NULL),
			 -EINVAL);
	assert_int_equal(e1npu_ops_matmul_s8(e->ops, 2, 3, 2, a, 2, b, 2, c, 3, NULL),
			 -EINVAL);
	assert_int_equal(e1npu_ops_matmul_s8(e->ops, 2, 3, 2, a, 2, b, 3, c, 2, NULL),
			 -EINVAL);
	assert_int_equal(e1npu_ops_batch_matmul_s8(e->ops, big, big, big, 1, 1, a, b,
						   c, NULL), -EINVAL);
	assert_int_equal(e1npu_ops_matmul_lowp(e->ops, E1NPU_OPS_MATMUL_S4, big, 1,
					       big, a, b, c, NULL), -EINVAL);
	assert_int_equal(e1npu_ops_attention_qk_s8(e->ops, big, big, 1, 1, 1, a, b,
						   c, NULL), -EINVAL);
	{
		int8_t kc[8] = { 0 }, vc[8] = { 0 };
		uint32_t lens[1] = { 0 };

		assert_int_equal(e1npu_ops_kv_cache_append_s8(e->ops, big, big, 1, 1,
							      kc, vc, lens, 1, a, b,
							      NULL), -EINVAL);
	}
}

/* Bug 7: legal strides still compute the documented product. */
static void test_matmul_strided(void **state)
{
	struct ops_env *e = *state;
	enum { M = 3, N = 5, K = 4, LDA = 7, LDB = 6, LDC = 9 };
	int8_t a[M * LDA], b[K * LDB];
	int32_t c[M * LDC];
	uint64_t seed = 11;

	t_skip_group(e);
	t_fill_s8(a, sizeof(a), -128, 127, &seed);
	t_fill_s8(b, sizeof(b), -128, 127, &seed);
	for (size_t i = 0; i < M * LDC; i++)
		c[i] = 0x5a5a5a5a;
	assert_int_equal(e1npu_ops_matmul_s8(e->ops, M, N, K, a, LDA, b, LDB, c,
					     LDC, NULL), 0);
	for (int i = 0; i < M; i++)
		for (int j = 0; j < LDC; j++) {
			int32_t s = 0;

			if (j >= N) {	/* the gaps are the caller's */
				assert_int_equal(c[i * LDC + j], 0x5a5a5a5a);
				continue;
			}
			for (int x = 0; x < K; x++)
				s += a[i * LDA + x] * b[x * LDB + j];
			assert_int_equal(c[i * LDC + j], s);
		}
}

/* Bug 8: -INT_MIN is undefined; other errnos have names. */
static void test_strerror(void **state)
{
	(void)state;
	assert_string_equal(e1npu_strerror(INT_MIN), "unknown error");
	assert_string_equal(e1npu_strerror(INT_MAX), "unknown error");
	assert_string_equal(e1npu_strerror(-EINVAL), "invalid argument");
	assert_non_null(strstr(e1npu_strerror(-EISDIR), "directory"));
}

/*
 * Also seen: a 16-byte buffer accepted an operation writing 4096 bytes (the
 * page-rounded size). Operations may touch only the requested size.
 */
static void test_buffer_requested_size(void **state)
{
	struct ops_env *e = *state;
	struct e1npu_buffer *a, *c;
	struct e1npu_cmdbuf *cb;
	struct e1npu_op_desc d;
	struct e1npu_tensor ta = { NULL, 0, 16, 0 }, tc = { NULL, 0, 16, 0 };

	t_skip_group(e);
	assert_int_equal(e1npu_buffer_alloc(e->dev, 16, &a), 0);
	assert_int_equal(e1npu_buffer_alloc(e->dev, 16, &c), 0);
	assert_int_equal(e1npu_buffer_get_size(c), 16);
	assert_int_equal(e1npu_cmdbuf_new(e->dev, &cb), 0);
	ta.buf = a;
	tc.buf = c;
	e1npu_op_desc_relu(&d, ta, tc, 1, 16);
	assert_int_equal(e1npu_cmdbuf_add_op(cb, &d), 0);
	/* 2 rows of 16: 32 bytes, inside the page, outside the buffer */
	e1npu_op_desc_relu(&d, ta, tc, 2, 16);
	assert_int_equal(e1npu_cmdbuf_add_op(cb, &d), -EOVERFLOW);
	e1npu_op_desc_relu(&d, ta, tc, 256, 16);
	assert_int_equal(e1npu_cmdbuf_add_op(cb, &d), -EOVERFLOW);
	assert_int_equal(e1npu_cmdbuf_get_num_ops(cb), 1);
	e1npu_cmdbuf_free(cb);
	e1npu_buffer_free(a);
	e1npu_buffer_free(c);
}

/*
 * F25: a dilation near 2^32 made the MATMUL form's patch length wrap, so a
 * zero-byte weight staging passed its size check and was overrun. A dilated
 * kernel past INT32_MAX is now -EINVAL; the widest one accepted runs, and
 * equals the TFLite oracle (only the centre tap lands in the image).
 */
static void test_conv_huge_dilation(void **state)
{
	struct ops_env *e = *state;
	struct e1npu_conv_params p = conv_base();
	static float ws[4] = { 0.5f, 0.25f, 0.125f, 0.5f };
	int8_t in[8 * 8 * 3], w[3 * 3 * 3 * 4], out[8 * 8 * 4], want[8 * 8 * 4];
	int32_t bias[4] = { 100, -100, 7, 0 };
	struct e1npu_conv *cv = NULL;

	for (size_t i = 0; i < sizeof(in); i++)
		in[i] = (int8_t)(i * 37 + 11);
	for (size_t i = 0; i < sizeof(w); i++)
		w[i] = (int8_t)(i * 53 - 7);
	p.in_h = p.in_w = 8;
	p.c_in = 3;
	p.c_out = 4;
	p.kh = p.kw = 3;
	p.input.zero_point = -128;
	p.weight_scales = ws;
	p.num_weight_scales = 4;
	p.dil_h = p.dil_w = 0xffffffffu;	/* the fuzzer's input */
	assert_int_equal(e1npu_conv_new(e->ops, &p, w, bias, &cv), -EINVAL);
	assert_null(cv);
	assert_non_null(strstr(e1npu_ops_last_error(e->ops), "dil_h 4294967295"));
	p.dil_h = 0x40000000u;			/* 2 * dil + 1 = 2^31 + 1 */
	p.dil_w = 1;
	assert_int_equal(e1npu_conv_new(e->ops, &p, w, bias, &cv), -EINVAL);
	p.dil_h = p.dil_w = 0x3fffffffu;	/* 2^31 - 1: the widest */
	assert_int_equal(e1npu_conv_new(e->ops, &p, w, bias, &cv), 0);
	assert_int_equal(ref_conv(&p, w, bias, in, want), 0);
	memset(out, 0x5a, sizeof(out));
	assert_int_equal(e1npu_conv_run(cv, in, out, NULL), 0);
	assert_memory_equal(out, want, sizeof(out));
	e1npu_conv_free(cv);
}

/* Found by fuzz-api-ops (Documentation/fuzzing.md F3, F4, F5, F7). */
static void test_fuzz_findings(void **state)
{
	struct ops_env *e = *state;
	static int8_t in[4096], out8[4096], want[4096];
	struct e1npu_pool_params pp;
	uint32_t nan_bits = 0x7fc00000;

	/* F3: TFLite's Q12.19 sum holds 4095 terms of 1.0 */
	assert_int_equal(e1npu_ops_softmax(e->ops, E1NPU_DTYPE_INT8, 1, 4096, in,
					   1.0f, 1.0f, out8, NULL), -EINVAL);
	assert_int_equal(e1npu_ops_softmax(e->ops, E1NPU_DTYPE_INT8, 1, 4095, in,
					   1.0f, 1.0f, out8, NULL), 0);
	/* the same bytes as the naive TFLite oracle (lib/ref) */
	for (int i = 0; i < 4095; i++)
		in[i] = (int8_t)(i * 7);
	assert_int_equal(e1npu_ops_softmax(e->ops, E1NPU_DTYPE_INT8, 1, 4095, in,
					   0.05f, 1.0f, out8, NULL), 0);
	assert_int_equal(ref_softmax(E1NPU_DTYPE_INT8, 1, 4095, in, 0.05f, 1.0f,
				     want), 0);
	assert_memory_equal(out8, want, 4095);
	/* F4: no object is larger than PTRDIFF_MAX */
	assert_int_equal(e1npu_ops_relu_s8(e->ops, (size_t)PTRDIFF_MAX + 1, in, out8,
					   NULL), -EINVAL);
	assert_int_equal(e1npu_ops_residual_add_s8(e->ops, SIZE_MAX, in, in, out8,
						   NULL), -EINVAL);
	/* F5: (d + 3) / 4 wrapped to 0 in 32 bits, so rows * d went unchecked */
	assert_int_equal(e1npu_ops_rmsnorm_s8(e->ops, 0x80000000u, 0xfffffffdu, in,
					      in, 0, 0, out8, NULL), -EINVAL);
	/* F7: a NaN pool scale reached the activation range */
	memset(&pp, 0, sizeof(pp));
	pp.dtype = E1NPU_DTYPE_INT8;
	pp.in_h = pp.in_w = 2;
	pp.channels = 1;
	pp.filter_h = pp.filter_w = 2;
	pp.stride_h = pp.stride_w = 1;
	pp.padding = E1NPU_PAD_VALID;
	pp.act = E1NPU_ACT_RELU6;
	memcpy(&pp.q.scale, &nan_bits, sizeof(pp.q.scale));
	assert_int_equal(e1npu_ops_maxpool(e->ops, &pp, in, out8, NULL), -EINVAL);
	pp.q.scale = 0.5f;
	assert_int_equal(e1npu_ops_maxpool(e->ops, &pp, in, out8, NULL), 0);
}

/*
 * F40: conv accumulations in int32 overflowed (undefined) instead of
 * wrapping like the hardware's int32 accumulators: the CPU kernel's
 * per-tap sums, the gather of several 512-channel hardware blocks into one
 * accumulator, and the border fold of the uint8 correction (zw * sx).
 */
static void test_conv_int32_wrap(void **state)
{
	struct ops_env *e = *state;
	struct e1npu_conv_params p = conv_base();
	static const float one = 1.0f;
	const uint32_t cin = 6144, cin8 = 8192;
	struct e1npu_ops_report rep;
	struct e1npu_conv *cv = NULL;
	uint8_t out[25], want[25];
	void *in, *w;

	t_skip_group(e);
	in = malloc((size_t)5 * 5 * cin8);
	w = malloc((size_t)5 * 5 * cin8);
	assert_non_null(in);
	assert_non_null(w);
	/*
	 * int8, 5x5 VALID over 5x5 x 6144 channels, every x and w -128: the
	 * one output sums 25 * 6144 * 2^14 = 2516582400, which wraps to
	 * -1778384896 = -106 * 2^24; scale 1 * 1 / 2^24 gives exactly -106
	 * (an unwrapped sum would clamp to 127).
	 */
	memset(in, 0x80, (size_t)5 * 5 * cin);
	memset(w, 0x80, (size_t)5 * 5 * cin);
	p.in_h = p.in_w = 5;
	p.c_in = cin;
	p.kh = p.kw = 5;
	p.padding = E1NPU_PAD_VALID;
	p.input.scale = 1.0f;
	p.output.scale = 16777216.0f;
	p.weight_scales = &one;
	assert_int_equal(e1npu_conv_new(e->ops, &p, w, NULL, &cv), 0);
	memset(out, 0, sizeof(out));
	assert_int_equal(e1npu_conv_run(cv, in, out, &rep), 0);
	assert_int_equal((int8_t)out[0], -106);
	/* on a device: 12 CONV2D_S8 blocks of 512 channels, gathered */
	if (e->dev)
		assert_int_equal(rep.hw_ops, 12);
	e1npu_conv_free(cv);
	cv = NULL;
	/*
	 * The case below is host arithmetic (the border fold of cv_finish,
	 * also run by the CPU group and the in-process device); on the kernel
	 * backend its 16 blocks of 512 channels failed once with -EIO in the
	 * debug guest (KASAN under TCG, a loaded host) and passed on the run
	 * before: a job past the driver's 2 s timeout is the likely cause
	 * (the reset is only drm_dbg).
	 */
	if (e->dev && !t_on_sim()) {
		print_message("note: uint8 border-fold case on the CPU and in-process groups only (%s: job time)\n",
			      t_spec());
		free(in);
		free(w);
		return;
	}

	/*
	 * uint8, 5x5 SAME over 5x5 x 8192: x - zx = -128, w - zw = 255 (zw'
	 * -128), so a border pixel with 20 valid taps has |zw' * sx| =
	 * 128 * 20 * 8192 * 128 > 2^31. Expected: the lib/ref TFLite oracle
	 * (int32 wrap-around).
	 */
	memset(in, 0, (size_t)5 * 5 * cin8);
	memset(w, 0xff, (size_t)5 * 5 * cin8);
	p.dtype = E1NPU_DTYPE_UINT8;
	p.c_in = cin8;
	p.padding = E1NPU_PAD_SAME;
	p.input.zero_point = 128;
	p.weight_zero_point = 0;
	p.output.zero_point = 128;
	assert_int_equal(e1npu_conv_new(e->ops, &p, w, NULL, &cv), 0);
	assert_int_equal(ref_conv(&p, w, NULL, in, want), 0);
	memset(out, 0x5a, sizeof(out));
	assert_int_equal(e1npu_conv_run(cv, in, out, NULL), 0);
	assert_memory_equal(out, want, sizeof(out));
	/* hand-worked: pixel (1, 2) is 20 * 8192 * -32640 = -5347737600, wraps
	 * to -1052770304; / 2^24 = -62.75, rounds to -63; + 128 = 65 */
	assert_int_equal(want[1 * 5 + 2], 65);
	e1npu_conv_free(cv);
	free(in);
	free(w);
}

/*
 * F41: fully connected summed the k inputs (zero-point fold) and the k
 * weights of a column in int32, undefined past k = 2^24 of -128s.
 */
static void test_fc_int32_wrap(void **state)
{
	struct ops_env *e = *state;
	static const float one = 1.0f;
	const uint32_t k = (1u << 24) + (1u << 20);
	struct e1npu_fc_params p;
	struct e1npu_fc *fc = NULL;
	uint8_t *x, *w, out = 0;

	t_skip_group(e);
	x = calloc(k, 1);
	w = calloc(k, 1);
	assert_non_null(x);
	assert_non_null(w);
	memset(&p, 0, sizeof(p));
	p.dtype = E1NPU_DTYPE_UINT8;
	p.k = k;
	p.n = 1;
	p.input.scale = 1.0f;
	p.input.zero_point = 128;	/* x - zx = -128 */
	p.weight_zero_point = 1;	/* w - zw = -1 */
	p.output.scale = 16777216.0f;
	p.output.zero_point = 128;
	p.weight_scales = &one;
	p.num_weight_scales = 1;
	assert_int_equal(e1npu_fc_new(e->ops, &p, w, NULL, &fc), 0);
	/* 128 k = 2^31 + 2^27 wraps to -2^31 + 2^27 = -120 * 2^24: out 8 */
	assert_int_equal(e1npu_fc_run(fc, 1, x, &out, NULL), 0);
	assert_int_equal(out, 8);
	e1npu_fc_free(fc);
	free(x);
	free(w);
}

/*
 * F42: AVERAGE_POOL summed its window in int32: 4096 x 2057 taps of 255
 * pass INT32_MAX (undefined; wrapped, the mean came out 0, not 255).
 */
static void test_avgpool_big_window(void **state)
{
	struct ops_env *e = *state;
	struct e1npu_pool_params pp;
	uint8_t *in, out = 0, want = 0;

	t_skip_group(e);
	memset(&pp, 0, sizeof(pp));
	pp.dtype = E1NPU_DTYPE_UINT8;
	pp.in_h = pp.filter_h = 4096;
	pp.in_w = pp.filter_w = 2057;
	pp.channels = 1;
	pp.stride_h = pp.stride_w = 1;
	pp.padding = E1NPU_PAD_VALID;
	pp.q.scale = 1.0f;
	in = malloc((size_t)4096 * 2057);
	assert_non_null(in);
	memset(in, 255, (size_t)4096 * 2057);
	assert_int_equal(e1npu_ops_avgpool(e->ops, &pp, in, &out, NULL), 0);
	assert_int_equal(out, 255);
	assert_int_equal(ref_avgpool(&pp, in, &want), 0);
	assert_int_equal(want, 255);
	free(in);
}

int main(void)
{
	const struct CMUnitTest cpu[] = {
		cmocka_unit_test(test_conv_kernel_wrap),
		cmocka_unit_test(test_depthwise_multiplier_wrap),
		cmocka_unit_test(test_extreme_quantization),
		cmocka_unit_test(test_conv_reserved_zero_points),
		cmocka_unit_test(test_softmax_fully_masked),
		cmocka_unit_test(test_attention_causal_tq_gt_tk),
		cmocka_unit_test(test_matmul_huge_shapes),
		cmocka_unit_test(test_matmul_strided),
		cmocka_unit_test(test_strerror),
		cmocka_unit_test(test_fuzz_findings),
		cmocka_unit_test(test_conv_huge_dilation),
		cmocka_unit_test(test_conv_int32_wrap),
		cmocka_unit_test(test_fc_int32_wrap),
		cmocka_unit_test(test_avgpool_big_window),
	};
	const struct CMUnitTest sim[] = {
		cmocka_unit_test(test_softmax_fully_masked),
		cmocka_unit_test(test_attention_causal_tq_gt_tk),
		cmocka_unit_test(test_matmul_huge_shapes),
		cmocka_unit_test(test_matmul_strided),
		cmocka_unit_test(test_buffer_requested_size),
		cmocka_unit_test(test_conv_huge_dilation),
		cmocka_unit_test(test_conv_int32_wrap),
		cmocka_unit_test(test_avgpool_big_window),
	};
	int fails;

	fails = cmocka_run_group_tests_name("ops-hostile-cpu", cpu, t_setup_cpu,
					    t_teardown);
	fails += cmocka_run_group_tests_name("ops-hostile-sim", sim, t_setup_sim,
					     t_teardown);
	return fails;
}
