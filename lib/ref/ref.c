// SPDX-License-Identifier: MIT
/*
 * Naive references (see ref.h). Each mirrors the TFLite reference kernel
 * loop for loop: reference_ops::FullyConnected, reference_integer_ops::
 * ConvPerChannel / DepthwiseConvPerChannel, reference_ops::Conv (uint8),
 * AveragePool, MaxPool, Add and Softmax.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "quant.h"

void ref_matmul_s32(uint32_t m, uint32_t n, uint32_t k, const int8_t *a,
		    size_t lda, const int8_t *b, size_t ldb, int32_t *c,
		    size_t ldc)
{
	for (uint32_t i = 0; i < m; i++)
		for (uint32_t j = 0; j < n; j++) {
			int64_t acc = 0;

			for (uint32_t x = 0; x < k; x++)
				acc += (int32_t)a[i * lda + x] * b[x * ldb + j];
			c[i * ldc + j] = (int32_t)(uint32_t)(uint64_t)acc;
		}
}

static int32_t ld(uint32_t dtype, const void *p, size_t i)
{
	return dtype == E1NPU_DTYPE_UINT8 ? ((const uint8_t *)p)[i]
					  : ((const int8_t *)p)[i];
}

static void st(uint32_t dtype, void *p, size_t i, int32_t v)
{
	if (dtype == E1NPU_DTYPE_UINT8)
		((uint8_t *)p)[i] = (uint8_t)v;
	else
		((int8_t *)p)[i] = (int8_t)v;
}

static void qrange(uint32_t dtype, int32_t *lo, int32_t *hi)
{
	*lo = dtype == E1NPU_DTYPE_UINT8 ? 0 : -128;
	*hi = dtype == E1NPU_DTYPE_UINT8 ? 255 : 127;
}

/*
 * The multiplier of output channel @c, as TFLite computes it: -EINVAL
 * when in * w / out is not representable (2^31 or more, NaN), whose
 * shift e1q_mul_by_qm could not apply.
 */
static int chan_mult(bool fc, uint32_t dtype, struct e1npu_qparams in,
		     const float *wscales, uint32_t nscales,
		     struct e1npu_qparams out, uint32_t c, int32_t *mult, int *shift)
{
	bool fp = e1q_conv_float_product(fc, dtype == E1NPU_DTYPE_UINT8, nscales);
	double real = e1q_conv_scale(fp, in.scale, wscales[nscales == 1 ? 0 : c],
				     out.scale);

	return e1q_quantize_multiplier(real, mult, shift);
}

/* Every output channel's multiplier representable (before any output). */
static int chan_mults_ok(bool fc, uint32_t dtype, struct e1npu_qparams in,
			 const float *wscales, uint32_t nscales,
			 struct e1npu_qparams out, uint32_t n)
{
	int32_t mult;
	int shift;

	for (uint32_t c = 0; c < n; c++)
		if (chan_mult(fc, dtype, in, wscales, nscales, out, c, &mult, &shift))
			return -EINVAL;
	return 0;
}

int ref_fc(const struct e1npu_fc_params *p, const void *weights,
	   const int32_t *bias, uint32_t rows, const void *in, void *out)
{
	int32_t lo, hi;

	if (chan_mults_ok(true, p->dtype, p->input, p->weight_scales,
			  p->num_weight_scales, p->output, p->n))
		return -EINVAL;
	qrange(p->dtype, &lo, &hi);
	e1q_activation_range((enum e1q_act)p->act, p->output.scale,
			     p->output.zero_point, lo, hi, &lo, &hi);
	for (uint32_t r = 0; r < rows; r++)
		for (uint32_t o = 0; o < p->n; o++) {
			int32_t acc = 0, mult;
			int shift;

			for (uint32_t x = 0; x < p->k; x++) {
				int32_t iv = ld(p->dtype, in, (size_t)r * p->k + x);
				int32_t wv = ld(p->dtype, weights, (size_t)o * p->k + x);

				/* int32 wrap-around, never signed overflow */
				acc = e1q_wrap_add(acc, (iv - p->input.zero_point) *
						   (wv - p->weight_zero_point));
			}
			if (bias)
				acc = e1q_wrap_add(acc, bias[o]);
			chan_mult(true, p->dtype, p->input, p->weight_scales,
				  p->num_weight_scales, p->output, o, &mult, &shift);
			st(p->dtype, out, (size_t)r * p->n + o,
			   e1q_requant_for(p->rounding)(acc, mult, shift, p->output.zero_point, lo, hi));
		}
	return 0;
}

void ref_conv_geometry(uint32_t padding, uint32_t in, uint32_t filter,
		       uint32_t stride, uint32_t dil, uint32_t *out,
		       uint32_t *pad)
{
	int64_t eff = (int64_t)(filter - 1) * dil + 1;
	int64_t o, total;

	if (padding == E1NPU_PAD_SAME)
		o = ((int64_t)in + stride - 1) / stride;
	else
		o = ((int64_t)in - eff + stride) / stride;
	if (o < 0)
		o = 0;
	total = (o - 1) * stride + eff - in;
	*out = (uint32_t)o;
	*pad = total > 0 ? (uint32_t)(total / 2) : 0;
}

int ref_conv(const struct e1npu_conv_params *p, const void *weights,
	     const int32_t *bias, const void *in, void *out)
{
	uint32_t oh, ow, pt, pl, groups, cin_g, cout_g;
	int32_t lo, hi;
	bool dw = p->kind == E1NPU_OPS_DEPTHWISE_CONV2D;

	if (chan_mults_ok(false, p->dtype, p->input, p->weight_scales,
			  p->num_weight_scales, p->output, p->c_out))
		return -EINVAL;
	ref_conv_geometry(p->padding, p->in_h, p->kh, p->stride_h, p->dil_h, &oh, &pt);
	ref_conv_geometry(p->padding, p->in_w, p->kw, p->stride_w, p->dil_w, &ow, &pl);
	groups = p->kind == E1NPU_OPS_GROUPED_CONV2D ? p->groups : 1;
	cin_g = p->c_in / groups;
	cout_g = p->c_out / groups;
	qrange(p->dtype, &lo, &hi);
	e1q_activation_range((enum e1q_act)p->act, p->output.scale,
			     p->output.zero_point, lo, hi, &lo, &hi);
	for (uint32_t oy = 0; oy < oh; oy++)
	for (uint32_t ox = 0; ox < ow; ox++)
	for (uint32_t oc = 0; oc < p->c_out; oc++) {
		int32_t acc = 0, mult;
		int shift;

		for (uint32_t ky = 0; ky < p->kh; ky++)
		for (uint32_t kx = 0; kx < p->kw; kx++) {
			int64_t iy = (int64_t)oy * p->stride_h - pt + (int64_t)ky * p->dil_h;
			int64_t ix = (int64_t)ox * p->stride_w - pl + (int64_t)kx * p->dil_w;

			/* TFLite skips taps outside the image (= pad with zp). */
			if (iy < 0 || ix < 0 || iy >= p->in_h || ix >= p->in_w)
				continue;
			if (dw) {
				uint32_t ic = oc / p->depth_multiplier;
				int32_t iv = ld(p->dtype, in, ((size_t)iy * p->in_w + ix) * p->c_in + ic);
				int32_t wv = ld(p->dtype, weights,
						((size_t)ky * p->kw + kx) * p->c_out + oc);

				acc = e1q_wrap_add(acc, (iv - p->input.zero_point) *
						   (wv - p->weight_zero_point));
				continue;
			}
			for (uint32_t ci = 0; ci < cin_g; ci++) {
				uint32_t g = oc / cout_g;
				uint32_t ic = g * cin_g + ci;
				int32_t iv = ld(p->dtype, in, ((size_t)iy * p->in_w + ix) * p->c_in + ic);
				int32_t wv = ld(p->dtype, weights,
						(((size_t)ky * p->kw + kx) * cin_g + ci) * p->c_out + oc);

				/* int32 wrap-around, never signed overflow */
				acc = e1q_wrap_add(acc, (iv - p->input.zero_point) *
						   (wv - p->weight_zero_point));
			}
		}
		if (bias)
			acc = e1q_wrap_add(acc, bias[oc]);
		chan_mult(false, p->dtype, p->input, p->weight_scales,
			  p->num_weight_scales, p->output, oc, &mult, &shift);
		st(p->dtype, out, ((size_t)oy * ow + ox) * p->c_out + oc,
		   e1q_requant_for(p->rounding)(acc, mult, shift, p->output.zero_point, lo, hi));
	}
	return 0;
}

static int pool(const struct e1npu_pool_params *p, const void *in, void *out,
		bool avg)
{
	uint32_t oh, ow, pt, pl;
	int32_t lo, hi;

	ref_conv_geometry(p->padding, p->in_h, p->filter_h, p->stride_h, 1, &oh, &pt);
	ref_conv_geometry(p->padding, p->in_w, p->filter_w, p->stride_w, 1, &ow, &pl);
	qrange(p->dtype, &lo, &hi);
	e1q_activation_range((enum e1q_act)p->act, p->q.scale, p->q.zero_point,
			     lo, hi, &lo, &hi);
	for (uint32_t oy = 0; oy < oh; oy++)
	for (uint32_t ox = 0; ox < ow; ox++)
	for (uint32_t c = 0; c < p->channels; c++) {
		/* int64: the mean of a window of any size (TFLite's int32 would overflow) */
		int64_t acc = avg ? 0 : INT32_MIN, count = 0;
		int64_t y0 = (int64_t)oy * p->stride_h - pt;
		int64_t x0 = (int64_t)ox * p->stride_w - pl;
		/* the window clipped to the image, as TFLite's reference: a
		 * filter of 2^29 taps over a 4x4 image visits 16 */
		int64_t ky0 = y0 < 0 ? -y0 : 0, kx0 = x0 < 0 ? -x0 : 0;
		int64_t ky1 = (int64_t)p->in_h - y0, kx1 = (int64_t)p->in_w - x0;

		if (ky1 > p->filter_h)
			ky1 = p->filter_h;
		if (kx1 > p->filter_w)
			kx1 = p->filter_w;
		for (int64_t ky = ky0; ky < ky1; ky++)
		for (int64_t kx = kx0; kx < kx1; kx++) {
			int64_t iy = y0 + ky, ix = x0 + kx;
			int32_t v;

			v = ld(p->dtype, in, ((size_t)iy * p->in_w + (size_t)ix) * p->channels + c);
			if (avg)
				acc += v;
			else if (v > acc)
				acc = v;
			count++;
		}
		if (!count)
			return -EINVAL;
		if (avg)
			acc = acc > 0 ? (acc + count / 2) / count
				      : (acc - count / 2) / count;
		acc = acc < lo ? lo : acc > hi ? hi : acc;
		st(p->dtype, out, ((size_t)oy * ow + ox) * p->channels + c, (int32_t)acc);
	}
	return 0;
}

int ref_maxpool(const struct e1npu_pool_params *p, const void *in, void *out)
{
	return pool(p, in, out, false);
}

int ref_avgpool(const struct e1npu_pool_params *p, const void *in, void *out)
{
	return pool(p, in, out, true);
}

int ref_add(uint32_t dtype, size_t count, const void *a,
	    const struct e1npu_qparams *qa, const void *b,
	    const struct e1npu_qparams *qb, void *out,
	    const struct e1npu_qparams *qout, uint32_t act)
{
	const int left_shift = E1Q_ADD_LEFT_SHIFT;
	struct e1q_add_rescale rs;
	int32_t m1, m2, mo, lo, hi;
	int s1, s2, so;

	/* TFLite 2.2's formulas, float steps included (quantization.md) */
	if (e1q_add_rescale(qa->scale, qb->scale, qout->scale, &rs))
		return -ERANGE;	/* as e1npu_ops_add */
	m1 = rs.ma, s1 = rs.sa, m2 = rs.mb, s2 = rs.sb, mo = rs.mo, so = rs.so;
	qrange(dtype, &lo, &hi);
	e1q_activation_range((enum e1q_act)act, qout->scale, qout->zero_point,
			     lo, hi, &lo, &hi);
	for (size_t i = 0; i < count; i++) {
		int32_t v1 = ld(dtype, a, i) - qa->zero_point;
		int32_t v2 = ld(dtype, b, i) - qb->zero_point;
		int32_t x1 = e1q_mul_by_qm_smaller_than_one(v1 * (1 << left_shift), m1, s1);
		int32_t x2 = e1q_mul_by_qm_smaller_than_one(v2 * (1 << left_shift), m2, s2);
		int32_t r = e1q_mul_by_qm_smaller_than_one(x1 + x2, mo, so) +
			    qout->zero_point;

		st(dtype, out, i, r < lo ? lo : r > hi ? hi : r);
	}
	return 0;
}

int ref_softmax(uint32_t dtype, uint32_t rows, uint32_t depth,
		const void *in, float input_scale, float beta, void *out)
{
	int32_t mult, diff_min, tmin;
	int lshift;

	if (e1q_softmax_prepare((double)beta, (double)input_scale, &mult, &lshift,
				&diff_min))
		return -EINVAL;
	tmin = dtype == E1NPU_DTYPE_UINT8 ? 0 : -128;
	for (uint32_t r = 0; r < rows; r++) {
		int32_t maxv = tmin, sum = 0, recip;
		int nbits;

		for (uint32_t c = 0; c < depth; c++) {
			int32_t v = ld(dtype, in, (size_t)r * depth + c);

			maxv = v > maxv ? v : maxv;
		}
		for (uint32_t c = 0; c < depth; c++) {
			int32_t d = ld(dtype, in, (size_t)r * depth + c) - maxv;

			if (d >= diff_min) {
				int32_t s = e1q_mul_by_qm_greater_than_one(d, mult, lshift);

				/* Rescale<12>(exp) is RoundingDivideByPOT(., 12) */
				sum += e1q_rdivpot(e1q_exp_on_negative_values(s, 5), 12);
			}
		}
		recip = e1q_get_reciprocal(sum, 12, &nbits);
		for (uint32_t c = 0; c < depth; c++) {
			int32_t d = ld(dtype, in, (size_t)r * depth + c) - maxv;
			int32_t o = tmin;

			if (d >= diff_min) {
				int32_t s = e1q_mul_by_qm_greater_than_one(d, mult, lshift);
				int32_t e = e1q_exp_on_negative_values(s, 5);

				o = e1q_rdivpot(e1q_srdhm(recip, e), nbits + 31 - 8) + tmin;
				o = o > tmin + 255 ? tmin + 255 : o < tmin ? tmin : o;
			}
			st(dtype, out, (size_t)r * depth + c, o);
		}
	}
	return 0;
}

void ref_softmax_exp2_s8(uint32_t rows, uint32_t depth, const int8_t *in,
			 const uint8_t *mask, uint8_t *out)
{
	for (uint32_t r = 0; r < rows; r++) {
		int32_t maxv = INT32_MIN;
		uint32_t sum = 0;

		for (uint32_t c = 0; c < depth; c++)
			if (!mask || mask[r * depth + c])
				maxv = in[r * depth + c] > maxv ? in[r * depth + c] : maxv;
		for (uint32_t c = 0; c < depth; c++) {
			int32_t d = in[r * depth + c] - maxv;

			if (mask && !mask[r * depth + c])
				continue;
			sum += d < -8 ? 0 : 256u >> -d;
		}
		for (uint32_t c = 0; c < depth; c++) {
			int32_t d = in[r * depth + c] - maxv;
			uint32_t e, q;

			if ((mask && !mask[r * depth + c]) || !sum) {
				out[r * depth + c] = 0;
				continue;
			}
			e = d < -8 ? 0 : 256u >> -d;
			q = (256 * e + sum / 2) / sum;	/* round half up */
			out[r * depth + c] = (uint8_t)(q > 255 ? 255 : q);
		}
	}
}

/* FP8 E4M3 by its definition: (-1)^s (1 + m/8) 2^(e-7), subnormal m/8 2^-6. */
static bool ref_fp8(uint8_t v, int32_t *q)
{
	int e = (v >> 3) & 15, m = v & 7;
	double mag;

	if (e == 15 && m == 7)
		return false;
	mag = e ? ldexp(1.0 + m / 8.0, e - 7) : ldexp(m / 8.0, -6);
	/* Q8.8 with the magnitude truncated (the contract's decoder) */
	*q = (int32_t)(mag * 256.0);
	if (v & 0x80)
		*q = -*q;
	return true;
}

int ref_matmul_fp8(uint32_t m, uint32_t n, uint32_t k, const uint8_t *a,
		   const uint8_t *b, int32_t *c)
{
	for (uint32_t i = 0; i < m; i++)
		for (uint32_t j = 0; j < n; j++) {
			int64_t acc = 0;

			for (uint32_t x = 0; x < k; x++) {
				int32_t qa, qb;
				int64_t p;

				if (!ref_fp8(a[(size_t)i * k + x], &qa) ||
				    !ref_fp8(b[(size_t)x * n + j], &qb))
					return -EINVAL;
				p = (int64_t)qa * qb;
				/* floor division by 256 */
				acc += p >= 0 ? p / 256 : -((-p + 255) / 256);
			}
			c[(size_t)i * n + j] = (int32_t)(uint32_t)(uint64_t)acc;
		}
	return 0;
}

static int ref_half(bool bf16, uint16_t h, int32_t *q)
{
	double v, r;

	if (bf16) {
		uint32_t bits = (uint32_t)h << 16;
		float f;

		memcpy(&f, &bits, sizeof(f));
		if (((h >> 7) & 255) == 255 || (((h >> 7) & 255) == 0 && (h & 127)))
			return -ERANGE;
		v = f;
	} else {
		int e = (h >> 10) & 31, mm = h & 1023;

		if (e == 31 || (e == 0 && mm))
			return -ERANGE;
		v = e ? ldexp(1.0 + mm / 1024.0, e - 15) : 0.0;
		if (h & 0x8000)
			v = -v;
	}
	r = e1q_round(v * 256.0);
	if (r > 32639 || r < -32639)
		return -ERANGE;
	*q = (int32_t)r;
	return 0;
}

int ref_matmul_f16(bool bf16, uint32_t m, uint32_t n, uint32_t k,
		   const uint16_t *a, const uint16_t *b, int32_t *c)
{
	for (uint32_t i = 0; i < m; i++)
		for (uint32_t j = 0; j < n; j++) {
			int64_t acc = 0, r;

			for (uint32_t x = 0; x < k; x++) {
				int32_t qa, qb;

				if (ref_half(bf16, a[(size_t)i * k + x], &qa) ||
				    ref_half(bf16, b[(size_t)x * n + j], &qb))
					return -ERANGE;
				acc += (int64_t)qa * qb;
			}
			/* round half up: floor((acc + 128) / 256) */
			r = acc + 128 >= 0 ? (acc + 128) / 256 : -((-(acc + 128) + 255) / 256);
			c[(size_t)i * n + j] = r > INT32_MAX ? INT32_MAX :
					       r < INT32_MIN ? INT32_MIN : (int32_t)r;
		}
	return 0;
}

void ref_matmul_gs_s4(uint32_t m, uint32_t n, uint32_t k, uint32_t group,
		      const int8_t *a, const int8_t *w, const int16_t *scales,
		      int32_t *c)
{
	for (uint32_t i = 0; i < m; i++)
		for (uint32_t j = 0; j < n; j++) {
			int64_t acc = 0;

			for (uint32_t g = 0; g < k / group; g++) {
				int64_t dot = 0;

				for (uint32_t x = g * group; x < (g + 1) * group; x++)
					dot += a[(size_t)i * k + x] * w[(size_t)x * n + j];
				acc += dot * scales[(size_t)g * n + j];
			}
			c[(size_t)i * n + j] = (int32_t)(uint32_t)(uint64_t)acc;
		}
}
