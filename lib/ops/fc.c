// SPDX-License-Identifier: MIT
/*
 * TFLite FULLY_CONNECTED: weights converted to int8 and transposed to the
 * [k][n] matrix MATMUL_S8 reads once at preparation, with their column sums
 * and the requantization multipliers; each call runs the raw int8 GEMM on
 * the selected engine and folds the zero points on the host:
 *   sum (x - zx)(w - zw) = sum x'w' - zw' sum x' - zx' sum w' + k zx' zw'
 * in the int8 domain (x' = x - 128 for uint8, zx' likewise).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "qcommon.h"
#include "reserved.h"
#include "select.h"

struct e1npu_fc {
	struct e1npu_ops *ops;
	bool ops_held;		/* a reference on ops, taken on success */
	struct e1npu_fc_params p;
	int8_t *w;		/* [k][n] int8 */
	int32_t *fold;		/* bias - zx' colsum + k zx' zw', per n */
	int32_t *mult;
	int *shift;
	int32_t zx, zw;		/* int8-domain zero points */
	int32_t lo, hi;
};

int qc_multipliers(bool fc, uint32_t dtype, struct e1npu_qparams in,
		   const float *wscales, uint32_t nscales,
		   struct e1npu_qparams out, uint32_t n, int32_t *mult, int *shift)
{
	bool fp = e1q_conv_float_product(fc, dtype == E1NPU_DTYPE_UINT8, nscales);

	for (uint32_t c = 0; c < n; c++) {
		float ws = wscales[nscales == 1 ? 0 : c];
		int ret = e1q_quantize_multiplier(e1q_conv_scale(fp, in.scale, ws, out.scale),
						  &mult[c], &shift[c]);
		if (ret)
			return ret;
	}
	return 0;
}

E1NPU_API int e1npu_fc_new(struct e1npu_ops *ops,
			   const struct e1npu_fc_params *p,
			   const void *weights, const int32_t *bias,
			   struct e1npu_fc **fcp)
{
	struct e1npu_fc *fc;
	int32_t sh;
	int ret;

	size_t bytes;

	if (p && (ret = OPS_RESERVED(ops, "e1npu_fc_params", p->reserved)))
		return ret;
	if (OPS_BAD(ops, !ops) || OPS_BAD(ops, !p) || OPS_BAD(ops, !weights) ||
	    OPS_BAD(ops, !fcp) || OPS_BAD(ops, !qc_dtype_ok(p->dtype)) || OPS_BAD(ops, !p->k) ||
	    OPS_BAD(ops, !ops_size_mul(&bytes, p->k, p->n)) ||
	    OPS_BAD(ops, !qc_zp_ok(p->dtype, p->input.zero_point)) ||
	    OPS_BAD(ops, !qc_zp_ok(p->dtype, p->output.zero_point)) ||
	    OPS_BAD(ops, !qc_zp_ok(p->dtype, p->weight_zero_point)) || OPS_BAD(ops, !p->n) ||
	    OPS_BAD(ops, !p->weight_scales) ||
	    OPS_BAD(ops, (p->num_weight_scales != 1 && p->num_weight_scales != p->n)) ||
	    OPS_BAD(ops, !(p->output.scale > 0)) || OPS_BAD(ops, !(p->input.scale > 0)) ||
	    OPS_BAD(ops, p->act > E1NPU_ACT_RELU_N1_TO_1) ||
	    OPS_BAD(ops, p->rounding > E1NPU_ROUNDING_RUY_SINGLE))
		return -EINVAL;
	*fcp = NULL;
	fc = calloc(1, sizeof(*fc));
	if (!fc)
		return ops_error(ops, -ENOMEM, "%s: out of memory", __func__);
	fc->ops = ops;
	fc->p = *p;
	fc->p.weight_scales = NULL;
	fc->w = malloc((size_t)p->k * p->n);
	fc->fold = calloc(p->n, sizeof(int32_t));
	fc->mult = calloc(p->n, sizeof(int32_t));
	fc->shift = calloc(p->n, sizeof(int));
	if (!fc->w || !fc->fold || !fc->mult || !fc->shift) {
		e1npu_fc_free(fc);
		return ops_error(ops, -ENOMEM, "%s: out of memory", __func__);
	}
	sh = qc_shift(p->dtype);
	fc->zx = p->input.zero_point - sh;
	fc->zw = p->weight_zero_point - sh;
	for (uint32_t o = 0; o < p->n; o++) {
		/* uint32: k int8 values pass INT32_MAX from k > 2^24 (wrap) */
		uint32_t colsum = 0;

		for (uint32_t x = 0; x < p->k; x++) {
			int32_t v = p->dtype == E1NPU_DTYPE_UINT8 ?
				((const uint8_t *)weights)[(size_t)o * p->k + x] - 128 :
				((const int8_t *)weights)[(size_t)o * p->k + x];

			fc->w[(size_t)x * p->n + o] = (int8_t)v;
			colsum += (uint32_t)v;
		}
		fc->fold[o] = e1q_wrap32((int64_t)(bias ? bias[o] : 0) -
					 (int64_t)fc->zx * (int32_t)colsum +
					 (int64_t)p->k * fc->zx * fc->zw);
	}
	ret = qc_multipliers(true, p->dtype, p->input, p->weight_scales,
			     p->num_weight_scales, p->output, p->n, fc->mult, fc->shift);
	if (ret) {
		e1npu_fc_free(fc);
		return ret;
	}
	qc_range(p->dtype, p->act, p->output.scale, p->output.zero_point,
		 &fc->lo, &fc->hi);
	ops_get(ops);		/* the context lives as long as the fc */
	fc->ops_held = true;
	*fcp = fc;
	return 0;
}

E1NPU_API void e1npu_fc_free(struct e1npu_fc *fc)
{
	if (!fc)
		return;
	free(fc->w);
	free(fc->fold);
	free(fc->mult);
	free(fc->shift);
	if (fc->ops_held)
		ops_put(fc->ops);
	free(fc);
}

E1NPU_API int e1npu_fc_run(struct e1npu_fc *fc, uint32_t rows, const void *in,
			   void *out, struct e1npu_ops_report *rep)
{
	struct e1npu_ops_report local;
	const struct e1npu_fc_params *p;
	struct ops_choice ch;
	int8_t *a;
	int32_t *acc;
	size_t bytes;
	int64_t t;
	int ret;

	if (OPS_BAD((fc ? fc->ops : NULL), !fc) || OPS_BAD((fc ? fc->ops : NULL), !in) ||
	    OPS_BAD((fc ? fc->ops : NULL), !out) || OPS_BAD((fc ? fc->ops : NULL), !rows) ||
	    OPS_BAD((fc ? fc->ops : NULL), !ops_size_mul(&bytes, rows, fc->p.k)) ||
	    OPS_BAD((fc ? fc->ops : NULL), !ops_size_mul3(&bytes, rows, fc->p.n, sizeof(int32_t))))
		return -EINVAL;
	p = &fc->p;
	if (!rep)
		rep = &local;
	memset(rep, 0, sizeof(*rep));
	rep->kind = E1NPU_OPS_FULLY_CONNECTED;
	rep->macs = (uint64_t)rows * p->n * p->k;
	t = ops_now_ns();
	a = malloc((size_t)rows * p->k);
	acc = malloc((size_t)rows * p->n * sizeof(int32_t));
	if (!a || !acc) {
		free(a);
		free(acc);
		return ops_error((fc ? fc->ops : NULL), -ENOMEM, "%s: out of memory", __func__);
	}
	qc_to_s8(p->dtype, in, a, (size_t)rows * p->k);
	rep->lower_ns += (uint64_t)(ops_now_ns() - t);
	ch = sel_gemm(fc->ops, rows, p->n, p->k);
	ops_report_set(rep, ch.engine, ch.reason,
		       "%s: %ux%ux%u GEMM; zero points folded and requantized on the CPU",
		       sel_reason_text(ch.reason), rows, p->n, p->k);
	ret = ops_matmul_s8_engine(fc->ops, ch.engine, rows, p->n, p->k, a,
				   p->k, fc->w, p->n, acc, p->n, rep);
	if (!ret) {
		t = ops_now_ns();
		for (uint32_t r = 0; r < rows; r++) {
			uint32_t rs = 0;	/* wraps, as colsum */

			if (fc->zw)
				for (uint32_t x = 0; x < p->k; x++)
					rs += (uint32_t)a[(size_t)r * p->k + x];
			for (uint32_t o = 0; o < p->n; o++) {
				int32_t v = e1q_wrap32((int64_t)acc[(size_t)r * p->n + o] -
						       (int64_t)fc->zw * (int32_t)rs +
						       fc->fold[o]);

				qc_store(p->dtype, out, (size_t)r * p->n + o,
					 e1q_requant_for(p->rounding)(v,
						     fc->mult[o], fc->shift[o],
						     p->output.zero_point, fc->lo,
						     fc->hi));
			}
		}
		rep->host_ns += (uint64_t)(ops_now_ns() - t);
		if (rep->hw_ops && rep->hw_ops_fallback == rep->hw_ops) {
			rep->engine = E1NPU_ENGINE_CPU;
			rep->reason = E1NPU_OPS_WHY_FALLBACK;
		}
	}
	free(a);
	free(acc);
	return ret;
}
