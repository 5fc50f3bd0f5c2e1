// SPDX-License-Identifier: MIT
/*
 * Pooling, ReLU, quantized ADD and softmax.
 *  - MAX_POOL_2D: wrapper MAXPOOL_S8 (VALID; SAME is staged with -128
 *    borders, neutral for max; uint8 moves to int8 by flipping the top bit,
 *    which preserves order), activation clamp on the host.
 *  - AVERAGE_POOL_2D, ADD, SOFTMAX: no hardware form (the NPU has no
 *    divider and no per-element rescale): CPU, TFLite arithmetic.
 *  - RELU: wrapper RELU_S8 for big tensors, datapath VRELU_S8 (64 bytes per
 *    command) for small ones.
 *  - softmax_exp2: EXP2_NEG_Q0_8 on the datapath, max/sum/division on host.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "e1npu_hw.h"
#include "ops_plan.h"
#include "qcommon.h"
#include "reserved.h"
#include "select.h"

static bool pool_ok(const struct e1npu_pool_params *p)
{
	size_t bytes;

	return p && qc_reserved_zero(p->reserved, sizeof(p->reserved) / sizeof(p->reserved[0])) &&
	       qc_dtype_ok(p->dtype) && p->in_h && p->in_w && p->channels &&
	       ops_size_mul3(&bytes, p->in_h, p->in_w, p->channels) &&
	       qc_zp_ok(p->dtype, p->q.zero_point) && p->q.scale > 0 &&
	       p->filter_h && p->filter_w && p->stride_h && p->stride_w &&
	       (p->padding == E1NPU_PAD_SAME || p->padding == E1NPU_PAD_VALID) &&
	       p->act <= E1NPU_ACT_RELU_N1_TO_1;
}

E1NPU_API int e1npu_ops_pool_output_size(const struct e1npu_pool_params *p,
					 uint32_t *out_h, uint32_t *out_w)
{
	uint32_t pt, pl;

	if (!pool_ok(p) || !out_h || !out_w)
		return -EINVAL;
	ops_axis_geometry(p->padding, p->in_h, p->filter_h, p->stride_h, 1, out_h, &pt);
	ops_axis_geometry(p->padding, p->in_w, p->filter_w, p->stride_w, 1, out_w, &pl);
	return *out_h && *out_w ? 0 : -EINVAL;
}

static void pool_cpu(const struct e1npu_pool_params *p, const void *in,
		     void *out, bool avg, uint32_t oh, uint32_t ow, uint32_t pt,
		     uint32_t pl, int32_t lo, int32_t hi)
{
	const uint8_t *u = in;
	const int8_t *s = in;

	for (uint32_t oy = 0; oy < oh; oy++)
	for (uint32_t ox = 0; ox < ow; ox++) {
		int64_t y0 = (int64_t)oy * p->stride_h - pt, x0 = (int64_t)ox * p->stride_w - pl;
		int64_t y1 = y0 + p->filter_h, x1 = x0 + p->filter_w;

		y0 = y0 < 0 ? 0 : y0;
		x0 = x0 < 0 ? 0 : x0;
		y1 = y1 > p->in_h ? p->in_h : y1;
		x1 = x1 > p->in_w ? p->in_w : x1;
		for (uint32_t c = 0; c < p->channels; c++) {
			/*
			 * int64: a window of more than 2^31 / 255 taps (the
			 * filter is unbounded) passes INT32_MAX; the mean fits.
			 */
			int64_t acc = avg ? 0 : -1000, cnt = (y1 - y0) * (x1 - x0);

			for (int64_t y = y0; y < y1; y++)
				for (int64_t x = x0; x < x1; x++) {
					size_t i = ((size_t)y * p->in_w + (size_t)x) * p->channels + c;
					int32_t v = p->dtype == E1NPU_DTYPE_UINT8 ? u[i] : s[i];

					if (avg)
						acc += v;
					else
						acc = v > acc ? v : acc;
				}
			if (avg)
				acc = acc > 0 ? (acc + cnt / 2) / cnt : (acc - cnt / 2) / cnt;
			qc_store(p->dtype, out, ((size_t)oy * ow + ox) * p->channels + c,
				 e1q_clamp(acc, lo, hi));
		}
	}
}

E1NPU_API int e1npu_ops_maxpool(struct e1npu_ops *ops,
				const struct e1npu_pool_params *p,
				const void *in, void *out,
				struct e1npu_ops_report *rep)
{
	struct e1npu_ops_report local;
	uint32_t oh, ow, pt, pl;
	uint64_t ph, pw;
	struct ops_choice ch;
	int32_t lo, hi;
	bool hw;
	int ret;

	if (p && (ret = OPS_RESERVED(ops, "e1npu_pool_params", p->reserved)))
		return ret;
	if (OPS_BAD(ops, !ops) || OPS_BAD(ops, !in) || OPS_BAD(ops, !out) ||
	    OPS_BAD(ops, e1npu_ops_pool_output_size(p, &oh, &ow)))
		return -EINVAL;
	if (!rep)
		rep = &local;
	ops_rep_begin(rep, E1NPU_OPS_MAXPOOL, 0);
	ops_axis_geometry(p->padding, p->in_h, p->filter_h, p->stride_h, 1, &oh, &pt);
	ops_axis_geometry(p->padding, p->in_w, p->filter_w, p->stride_w, 1, &ow, &pl);
	qc_range(p->dtype, p->act, p->q.scale, p->q.zero_point, &lo, &hi);
	/* padded input the VALID hardware pool reads */
	ph = (uint64_t)(oh - 1) * p->stride_h + p->filter_h;
	pw = (uint64_t)(ow - 1) * p->stride_w + p->filter_w;
	hw = p->filter_h == p->filter_w && (p->filter_h == 2 || p->filter_h == 3) &&
	     p->stride_h == p->stride_w && p->stride_h <= 2 && ph <= 256 && pw <= 256;
	ch = sel_maxpool(ops, hw);
	if (ch.engine == E1NPU_ENGINE_CPU) {
		int64_t t = ops_now_ns();

		ops_report_set(rep, ch.engine, ch.reason, "%s%s",
			       sel_reason_text(ch.reason),
			       hw ? "" : ": window/stride/size outside MAXPOOL_S8 (2x2/3x3, stride 1/2, 256)");
		pool_cpu(p, in, out, false, oh, ow, pt, pl, lo, hi);
		rep->host_ns += (uint64_t)(ops_now_ns() - t);
		return 0;
	}
	ops_report_set(rep, ch.engine, ch.reason,
		       "MAXPOOL_S8 %ux%u stride %u on the wrapper, channels in blocks of 512%s",
		       p->filter_h, p->filter_w, p->stride_h,
		       p->padding == E1NPU_PAD_SAME ? ", SAME borders staged as -128" : "");
	{
		struct ops_plan pl_;
		uint32_t nb = (p->channels + 511) / 512;
		size_t *ioff = calloc(nb, sizeof(size_t)), *ooff = calloc(nb, sizeof(size_t));
		uint8_t *ar;

		if (!ioff || !ooff) {
			free(ioff);
			free(ooff);
			return ops_error(ops, -ENOMEM, "%s: out of memory", __func__);
		}
		ops_plan_init(&pl_, ops, rep, E1NPU_OPS_MAXPOOL);
		for (uint32_t b = 0; b < nb; b++) {
			uint32_t cb = p->channels - b * 512 < 512 ? p->channels - b * 512 : 512;

			ioff[b] = ops_plan_alloc(&pl_, (size_t)ph * ops_align_up((size_t)pw * cb, OPS_ALIGN));
			ooff[b] = ops_plan_alloc(&pl_, (size_t)oh * ops_align_up((size_t)ow * cb, OPS_ALIGN));
		}
		ret = ops_plan_arena(&pl_, &ar);
		for (uint32_t b = 0; !ret && b < nb; b++) {
			uint32_t c0 = b * 512, cb = p->channels - c0 < 512 ? p->channels - c0 : 512;
			uint32_t is = (uint32_t)ops_align_up((size_t)pw * cb, OPS_ALIGN);
			uint32_t os = (uint32_t)ops_align_up((size_t)ow * cb, OPS_ALIGN);
			uint8_t flip = p->dtype == E1NPU_DTYPE_UINT8 ? 0x80 : 0;
			struct e1npu_op_desc d;

			memset(ar + ioff[b], 0x80, (size_t)ph * is);	/* -128 */
			for (uint32_t y = 0; y < p->in_h && y + pt < ph; y++)
				for (uint32_t x = 0; x < p->in_w && x + pl < pw; x++) {
					const uint8_t *src = (const uint8_t *)in +
						((size_t)y * p->in_w + x) * p->channels + c0;
					uint8_t *dst = ar + ioff[b] + (size_t)(y + pt) * is +
						       (size_t)(x + pl) * cb;

					for (uint32_t c = 0; c < cb; c++)
						dst[c] = src[c] ^ flip;
				}
			e1npu_op_desc_maxpool(&d, ops_t(ioff[b], is), ops_t(ooff[b], os),
					      ph, pw, cb, p->filter_h, p->stride_h);
			ret = ops_plan_add(&pl_, &d);
		}
		if (!ret)
			ret = ops_plan_run(&pl_);
		if (!ret) {
			int64_t t = ops_now_ns();

			for (uint32_t b = 0; b < nb; b++) {
				uint32_t c0 = b * 512, cb = p->channels - c0 < 512 ? p->channels - c0 : 512;
				uint32_t os = (uint32_t)ops_align_up((size_t)ow * cb, OPS_ALIGN);

				for (uint32_t y = 0; y < oh; y++)
					for (uint32_t x = 0; x < ow; x++)
						for (uint32_t c = 0; c < cb; c++) {
							int32_t v = (int8_t)ar[ooff[b] + (size_t)y * os + (size_t)x * cb + c];

							if (p->dtype == E1NPU_DTYPE_UINT8)
								v += 128;
							qc_store(p->dtype, out,
								 ((size_t)y * ow + x) * p->channels + c0 + c,
								 e1q_clamp(v, lo, hi));
						}
			}
			rep->host_ns += (uint64_t)(ops_now_ns() - t);
		}
		ops_plan_fini(&pl_);
		free(ioff);
		free(ooff);
	}
	ops_rep_fallback(rep);
	return ret;
}

E1NPU_API int e1npu_ops_avgpool(struct e1npu_ops *ops,
				const struct e1npu_pool_params *p,
				const void *in, void *out,
				struct e1npu_ops_report *rep)
{
	struct e1npu_ops_report local;
	uint32_t oh, ow, pt, pl;
	struct ops_choice ch;
	int32_t lo, hi;
	int64_t t;
	int ret;

	if (p && (ret = OPS_RESERVED(ops, "e1npu_pool_params", p->reserved)))
		return ret;
	if (OPS_BAD(ops, !ops) || OPS_BAD(ops, !in) || OPS_BAD(ops, !out) ||
	    OPS_BAD(ops, e1npu_ops_pool_output_size(p, &oh, &ow)))
		return -EINVAL;
	if (!rep)
		rep = &local;
	ops_rep_begin(rep, E1NPU_OPS_AVGPOOL, 0);
	ops_axis_geometry(p->padding, p->in_h, p->filter_h, p->stride_h, 1, &oh, &pt);
	ops_axis_geometry(p->padding, p->in_w, p->filter_w, p->stride_w, 1, &ow, &pl);
	qc_range(p->dtype, p->act, p->q.scale, p->q.zero_point, &lo, &hi);
	ch = sel_cpu(ops);
	ops_report_set(rep, ch.engine, ch.reason,
		       "%s: " OPS_WHY_AVGPOOL,
		       sel_reason_text(ch.reason));
	t = ops_now_ns();
	pool_cpu(p, in, out, true, oh, ow, pt, pl, lo, hi);
	rep->host_ns += (uint64_t)(ops_now_ns() - t);
	return 0;
}

E1NPU_API int e1npu_ops_relu_s8(struct e1npu_ops *ops, size_t count,
				const int8_t *in, int8_t *out,
				struct e1npu_ops_report *rep)
{
	struct e1npu_ops_report local;
	struct ops_choice ch;
	struct ops_plan pl;
	uint8_t *ar;
	size_t io, oo;
	int ret;

	if (OPS_BAD(ops, !ops) || OPS_BAD(ops, !in) || OPS_BAD(ops, !out) ||
	    OPS_BAD(ops, !count) || OPS_BAD(ops, count > PTRDIFF_MAX))
		return -EINVAL;
	if (!rep)
		rep = &local;
	ops_rep_begin(rep, E1NPU_OPS_RELU, 0);
	ch = sel_relu(ops, count);
	if (ch.engine == E1NPU_ENGINE_WRAPPER &&
	    count > (size_t)E1_V0_MAX_RELU_MN * E1_V0_MAX_RELU_MN * 64)
		ch = sel_cpu(ops);
	ops_report_set(rep, ch.engine, ch.reason, "%s: %zu bytes (wrapper RELU from %u, datapath VRELU up to %u)",
		       sel_reason_text(ch.reason), count, SEL_RELU_WRAPPER_MIN, 64u * 255u);
	if (ch.engine == E1NPU_ENGINE_CPU) {
		for (size_t i = 0; i < count; i++)
			out[i] = in[i] < 0 ? 0 : in[i];
		return 0;
	}
	ops_plan_init(&pl, ops, rep, E1NPU_OPS_RELU);
	io = ops_plan_alloc(&pl, count);
	oo = ops_plan_alloc(&pl, count);
	ret = ops_plan_arena(&pl, &ar);
	if (!ret)
		memcpy(ar + io, in, count);
	for (size_t off = 0; !ret && off < count;) {
		struct e1npu_op_desc d;
		size_t left = count - off;

		if (ch.engine == E1NPU_ENGINE_DATAPATH) {
			uint32_t n = left < 64 ? (uint32_t)left : 64;

			e1npu_op_desc_dp_vrelu(&d, ops_t(io + off, 0), ops_t(oo + off, 0), n);
			off += n;
		} else {
			/* rows of 1024 bytes (16-aligned), then the tail row */
			uint32_t rows = left >= 1024 ? (uint32_t)(left / 1024) : 1;
			uint32_t n = left >= 1024 ? 1024 : (uint32_t)left;

			if (rows > 1024)
				rows = 1024;
			e1npu_op_desc_relu(&d, ops_t(io + off, 1024), ops_t(oo + off, 1024),
					   rows, n);
			off += (size_t)rows * n;
		}
		ret = ops_plan_add(&pl, &d);
	}
	if (!ret)
		ret = ops_plan_run(&pl);
	if (!ret)
		memcpy(out, ar + oo, count);
	ops_plan_fini(&pl);
	ops_rep_fallback(rep);
	return ret;
}

/*
 * The rescaled operand of TFLite's quantized ADD for each of the 256 byte
 * values (indexed by the byte, int8 or uint8): it depends on the byte
 * alone, so a table gives it exactly.
 */
static void add_table(uint32_t dtype, int32_t zp, int32_t m, int shift, int32_t *tab)
{
	for (int i = 0; i < 256; i++) {
		int32_t v = (dtype == E1NPU_DTYPE_UINT8 ? i : (int8_t)(uint8_t)i) - zp;

		tab[i] = e1q_mul_by_qm_smaller_than_one(v * (1 << E1Q_ADD_LEFT_SHIFT), m, shift);
	}
}

/*
 * out = clamp(zp_out + rescale(ta[a] + tb[b])): the output rescale (shift
 * <= 0, sums far inside int32) is e1q_requant, done by e1q_requant_bytes
 * on chunks of sums.
 */
static void add_bytes(uint32_t dtype, size_t count, const uint8_t *a, int32_t za,
		      const uint8_t *b, int32_t zb, const struct e1q_add_rescale *rs,
		      int32_t zo, int32_t lo, int32_t hi, uint8_t *out)
{
	int32_t ta[256], tb[256], mult[256], sum[256];
	int shift[256];

	add_table(dtype, za, rs->ma, rs->sa, ta);
	add_table(dtype, zb, rs->mb, rs->sb, tb);
	for (int i = 0; i < 256; i++) {
		mult[i] = rs->mo;
		shift[i] = rs->so;
	}
	for (size_t i0 = 0; i0 < count; i0 += 256) {
		uint32_t k = count - i0 < 256 ? (uint32_t)(count - i0) : 256;

		for (uint32_t i = 0; i < k; i++)
			sum[i] = ta[a[i0 + i]] + tb[b[i0 + i]];
		e1q_requant_bytes(sum, mult, shift, zo, lo, hi, k, out + i0);
	}
}

E1NPU_API int e1npu_ops_add(struct e1npu_ops *ops, uint32_t dtype, size_t count,
			    const void *a, const struct e1npu_qparams *qa,
			    const void *b, const struct e1npu_qparams *qb,
			    void *out, const struct e1npu_qparams *qout,
			    uint32_t act, struct e1npu_ops_report *rep)
{
	struct e1npu_ops_report local;
	struct e1q_add_rescale rs;
	int32_t lo, hi;
	struct ops_choice ch;
	int64_t t;

	if (OPS_BAD(ops, !ops) || OPS_BAD(ops, !a) || OPS_BAD(ops, !b) || OPS_BAD(ops, !out) ||
	    OPS_BAD(ops, !qa) || OPS_BAD(ops, !qb) || OPS_BAD(ops, !qout) ||
	    OPS_BAD(ops, !qc_dtype_ok(dtype)) || OPS_BAD(ops, !(qa->scale > 0)) ||
	    OPS_BAD(ops, !(qb->scale > 0)) || OPS_BAD(ops, !(qout->scale > 0)) ||
	    OPS_BAD(ops, !qc_zp_ok(dtype, qa->zero_point)) ||
	    OPS_BAD(ops, !qc_zp_ok(dtype, qb->zero_point)) ||
	    OPS_BAD(ops, !qc_zp_ok(dtype, qout->zero_point)) ||
	    OPS_BAD(ops, count > PTRDIFF_MAX) || OPS_BAD(ops, act > E1NPU_ACT_RELU_N1_TO_1))
		return -EINVAL;
	if (!rep)
		rep = &local;
	ops_rep_begin(rep, E1NPU_OPS_ADD, 0);
	ch = sel_cpu(ops);
	ops_report_set(rep, ch.engine, ch.reason,
		       "%s: " OPS_WHY_ADD,
		       sel_reason_text(ch.reason));
	t = ops_now_ns();
	if (e1q_add_rescale(qa->scale, qb->scale, qout->scale, &rs))
		return ops_error(ops, -ERANGE,
				 "e1npu_ops_add: scales a %g, b %g, out %g: a rescale multiplier is out of range",
				 (double)qa->scale, (double)qb->scale, (double)qout->scale);
	qc_range(dtype, act, qout->scale, qout->zero_point, &lo, &hi);
	add_bytes(dtype, count, a, qa->zero_point, b, qb->zero_point, &rs,
		  qout->zero_point, lo, hi, out);
	rep->host_ns += (uint64_t)(ops_now_ns() - t);
	return 0;
}

/* TFLite's exp(beta * scale * d) of a softmax input difference d <= 0, Q0.31. */
static int32_t sm_exp(int32_t d, int32_t mult, int lshift)
{
	return e1q_exp_on_negative_values(e1q_mul_by_qm_greater_than_one(d, mult, lshift), 5);
}

E1NPU_API int e1npu_ops_softmax(struct e1npu_ops *ops, uint32_t dtype,
				uint32_t rows, uint32_t depth, const void *in,
				float input_scale, float beta, void *out,
				struct e1npu_ops_report *rep)
{
	struct e1npu_ops_report local;
	struct ops_choice ch;
	int32_t mult, diff_min, tmin, etab[256];
	bool use_tab;
	int lshift;
	int64_t t;
	size_t n;

	/*
	 * The sum of exps is TFLite's Q12.19: at most 4095 terms of 1.0 fit
	 * an int32 (more would overflow, undefined in TFLite too).
	 */
	if (OPS_BAD(ops, !ops) || OPS_BAD(ops, !in) || OPS_BAD(ops, !out) || OPS_BAD(ops, !rows) ||
	    OPS_BAD(ops, !depth) || OPS_BAD(ops, depth > 4095) ||
	    OPS_BAD(ops, !qc_dtype_ok(dtype)) || OPS_BAD(ops, !(input_scale > 0)) ||
	    OPS_BAD(ops, !(beta > 0)) || OPS_BAD(ops, !ops_size_mul(&n, rows, depth)))
		return -EINVAL;
	if (!rep)
		rep = &local;
	ops_rep_begin(rep, E1NPU_OPS_SOFTMAX, 0);
	ch = sel_cpu(ops);
	ops_report_set(rep, ch.engine, ch.reason,
		       "%s: " OPS_WHY_SOFTMAX,
		       sel_reason_text(ch.reason));
	t = ops_now_ns();
	if (OPS_BAD(ops, e1q_softmax_prepare((double)beta, (double)input_scale, &mult, &lshift, &diff_min)))
		return -EINVAL;
	tmin = dtype == E1NPU_DTYPE_UINT8 ? 0 : -128;
	/*
	 * d = x - max is one of the 256 values -255..0: with more elements
	 * than that, each exp comes from a table of the same function of d
	 * (the same bits), filled once per call.
	 */
	use_tab = n >= 128;
	for (int32_t k = 0; use_tab && k < 256; k++)
		etab[k] = -k >= diff_min ? sm_exp(-k, mult, lshift) : 0;
	for (uint32_t r = 0; r < rows; r++) {
		const uint8_t *u = (const uint8_t *)in + (size_t)r * depth;
		const int8_t *s = (const int8_t *)in + (size_t)r * depth;
		int32_t maxv = tmin, sum = 0, recip;
		int nbits;

#define V(c) (dtype == E1NPU_DTYPE_UINT8 ? (int32_t)u[c] : (int32_t)s[c])
		for (uint32_t c = 0; c < depth; c++)
			maxv = V(c) > maxv ? V(c) : maxv;
		for (uint32_t c = 0; c < depth; c++) {
			int32_t d = V(c) - maxv;

			if (d >= diff_min)
				sum += e1q_rdivpot(use_tab ? etab[-d] : sm_exp(d, mult, lshift), 12);
		}
		recip = e1q_get_reciprocal(sum, 12, &nbits);
		for (uint32_t c = 0; c < depth; c++) {
			int32_t d = V(c) - maxv, o = tmin;

			if (d >= diff_min) {
				int32_t e = use_tab ? etab[-d] : sm_exp(d, mult, lshift);

				o = e1q_clamp((int64_t)e1q_rdivpot(e1q_srdhm(recip, e), nbits + 23) + tmin,
					      tmin, tmin + 255);
			}
			qc_store(dtype, out, (size_t)r * depth + c, o);
		}
#undef V
	}
	rep->host_ns += (uint64_t)(ops_now_ns() - t);
	return 0;
}

E1NPU_API int e1npu_ops_softmax_exp2_s8(struct e1npu_ops *ops, uint32_t rows,
					uint32_t depth, const int8_t *in,
					const uint8_t *mask, uint8_t *out,
					struct e1npu_ops_report *rep)
{
	struct e1npu_ops_report local;
	size_t n = (size_t)rows * depth, io = 0, oo = 0;
	struct ops_choice ch;
	struct ops_plan pl;
	int32_t *maxv;
	uint32_t *ex;
	uint8_t *ar = NULL;
	int ret = 0;

	if (OPS_BAD(ops, !ops) || OPS_BAD(ops, !in) || OPS_BAD(ops, !out) || OPS_BAD(ops, !rows) ||
	    OPS_BAD(ops, !depth) || OPS_BAD(ops, !ops_size_mul(&n, rows, depth)) ||
	    OPS_BAD(ops, !ops_size_mul(&io, n, 12)))
		return -EINVAL;
	io = 0;
	if (!rep)
		rep = &local;
	ops_rep_begin(rep, E1NPU_OPS_SOFTMAX_EXP2, 0);
	maxv = malloc(rows * sizeof(*maxv));
	ex = calloc(n, sizeof(*ex));
	if (!maxv || !ex) {
		free(maxv);
		free(ex);
		return ops_error(ops, -ENOMEM, "%s: out of memory", __func__);
	}
	for (uint32_t r = 0; r < rows; r++) {
		maxv[r] = INT32_MIN;
		for (uint32_t c = 0; c < depth; c++)
			if (!mask || mask[(size_t)r * depth + c])
				maxv[r] = in[(size_t)r * depth + c] > maxv[r] ?
					  in[(size_t)r * depth + c] : maxv[r];
	}
	ch = sel_dp_scalar(ops, n);
	ops_report_set(rep, ch.engine, ch.reason,
		       "%s: %zu EXP2_NEG_Q0_8 commands; row max, sum and division on the host",
		       sel_reason_text(ch.reason), n);
	ops_plan_init(&pl, ops, rep, E1NPU_OPS_SOFTMAX_EXP2);
	if (ch.engine == E1NPU_ENGINE_DATAPATH) {
		io = ops_plan_alloc(&pl, n * 12);
		oo = ops_plan_alloc(&pl, n * 8);
		ret = ops_plan_arena(&pl, &ar);
		for (size_t i = 0; !ret && i < n; i++) {
			uint32_t rec[3] = { 0x80, 0, 0 };	/* -128: 2^-128 = 0 */

			/* a fully masked row has no max (INT32_MIN): all masked */
			if (maxv[i / depth] != INT32_MIN && (!mask || mask[i])) {
				int32_t d = in[i] - maxv[i / depth];

				rec[0] = (uint32_t)(uint8_t)(int8_t)(d < -128 ? -128 : d);
			}
			memcpy(ar + io + i * 12, rec, 12);
		}
		for (size_t i = 0; !ret && i < n; i += 4096) {
			struct e1npu_op_desc d;
			uint32_t cnt = n - i < 4096 ? (uint32_t)(n - i) : 4096;

			e1npu_op_desc_dp_scalar(&d, ops_t(io + i * 12, 0), ops_t(oo + i * 8, 0),
						E1_DP_OP_EXP2_NEG_Q0_8, cnt, 0);
			ret = ops_plan_add(&pl, &d);
		}
		if (!ret)
			ret = ops_plan_run(&pl);
		for (size_t i = 0; !ret && i < n; i++)
			memcpy(&ex[i], ar + oo + i * 8, 4);
	} else {
		for (size_t i = 0; i < n; i++) {
			int32_t d;

			if ((mask && !mask[i]) || maxv[i / depth] == INT32_MIN) {
				ex[i] = 0;
				continue;
			}
			d = in[i] - maxv[i / depth];
			ex[i] = d < -8 ? 0 : 256u >> -d;
		}
	}
	ops_plan_fini(&pl);
	if (!ret) {
		int64_t t = ops_now_ns();

		for (uint32_t r = 0; r < rows; r++) {
			uint32_t sum = 0;

			for (uint32_t c = 0; c < depth; c++)
				if (!mask || mask[(size_t)r * depth + c])
					sum += ex[(size_t)r * depth + c];
			for (uint32_t c = 0; c < depth; c++) {
				size_t i = (size_t)r * depth + c;
				uint32_t q;

				if ((mask && !mask[i]) || !sum) {
					out[i] = 0;
					continue;
				}
				q = (256 * ex[i] + sum / 2) / sum;
				out[i] = (uint8_t)(q > 255 ? 255 : q);
			}
		}
		rep->host_ns += (uint64_t)(ops_now_ns() - t);
	}
	ops_rep_fallback(rep);
	free(maxv);
	free(ex);
	return ret;
}
