// SPDX-License-Identifier: MIT
/*
 * Low-precision matmuls.
 *  - INT4, INT2, ternary, sparse 2:4 INT4: every value is exact in int8, so
 *    big ones run on the systolic array as int8 (sparse weights
 *    decompressed once); small ones use the datapath's packed opcodes:
 *    GEMM_S4 tiles, DOT16_S2 (two's complement or ternary lanes),
 *    SDOT4_S4_2_4 with the 2:4 metadata; the host sums the partial dots.
 *  - FP8 E4M3: the per-product Q8.8 floor only DOT4_FP8_E4M3 computes:
 *    datapath (4 lanes per command) or the CPU.
 *  - FP16/BF16 via Q8.8: exact sum of products, computed as int8 GEMMs on
 *    the byte halves (q = 256 h + l, l in [-128, 127]): two GEMMs of
 *    [h | l] x [hB lB] recombined in int64 on the host, one rounding.
 *  - Group-scaled INT4: one int8 GEMM per K group, scales applied on host.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "e1npu_hw.h"
#include "hw_exec.h"
#include "lowp.h"
#include "ops_internal.h"
#include "select.h"

/* The values in_range() accepts, for messages. */
static const char *range_text(uint32_t kind)
{
	return kind == E1NPU_OPS_MATMUL_S2 ? "[-2, 1]" :
	       kind == E1NPU_OPS_MATMUL_TERNARY ? "{-1, 0, 1}" : "[-8, 7]";
}

static bool in_range(uint32_t kind, int8_t v)
{
	switch (kind) {
	case E1NPU_OPS_MATMUL_S4:
	case E1NPU_OPS_MATMUL_SPARSE_S4:
		return v >= -8 && v <= 7;
	case E1NPU_OPS_MATMUL_S2:
		return v >= -2 && v <= 1;
	case E1NPU_OPS_MATMUL_TERNARY:
		return v >= -1 && v <= 1;
	default:
		return false;
	}
}

/* INT4 on the datapath: GEMM_S4 tiles, each operand tile packed alone. */
static int s4_datapath(struct e1npu_ops *ops, struct e1npu_ops_report *rep,
		       uint32_t m, uint32_t n, uint32_t k, const int8_t *a,
		       const int8_t *b, int32_t *c)
{
	const uint32_t TM = 3, TN = 3, TK = 7;
	uint32_t gm = (m + TM - 1) / TM, gn = (n + TN - 1) / TN, gk = (k + TK - 1) / TK;
	size_t tiles = (size_t)gm * gn * gk;
	struct ops_plan pl;
	size_t base;
	uint8_t *ar;
	int ret;

	/* slot: A 3 rows x 8 nibbles (12 B), B 7 rows x 4 nibbles (14 B), C 36 B */
	ops_plan_init(&pl, ops, rep, rep->kind);
	base = ops_plan_alloc(&pl, tiles * 64);
	ret = ops_plan_arena(&pl, &ar);
	for (size_t t = 0; !ret && t < tiles; t++) {
		uint32_t i0 = (uint32_t)(t / ((size_t)gn * gk)) * TM;
		uint32_t j0 = (uint32_t)(t / gk % gn) * TN, k0 = (uint32_t)(t % gk) * TK;
		uint32_t mt = m - i0 < TM ? m - i0 : TM, nt = n - j0 < TN ? n - j0 : TN;
		uint32_t kt = k - k0 < TK ? k - k0 : TK;
		uint8_t *s = ar + base + t * 64;
		struct e1npu_op_desc d;

		memset(s, 0, 28);
		for (uint32_t i = 0; i < mt; i++)
			for (uint32_t x = 0; x < kt; x++) {
				uint32_t idx = i * 8 + x;

				s[idx / 2] |= (uint8_t)((a[(size_t)(i0 + i) * k + k0 + x] & 15) << (idx & 1 ? 4 : 0));
			}
		for (uint32_t x = 0; x < kt; x++)
			for (uint32_t j = 0; j < nt; j++) {
				uint32_t idx = x * 4 + j;

				s[12 + idx / 2] |= (uint8_t)((b[(size_t)(k0 + x) * n + j0 + j] & 15) << (idx & 1 ? 4 : 0));
			}
		e1npu_op_desc_dp_gemm(&d, 1, ops_t(base + t * 64, 8),
				      ops_t(base + t * 64 + 12, 4),
				      ops_t(base + t * 64 + 28, 12), mt, nt, kt);
		ret = ops_plan_add(&pl, &d);
	}
	if (!ret)
		ret = ops_plan_run(&pl);
	if (!ret) {
		memset(c, 0, (size_t)m * n * 4);
		for (size_t t = 0; t < tiles; t++) {
			uint32_t i0 = (uint32_t)(t / ((size_t)gn * gk)) * TM;
			uint32_t j0 = (uint32_t)(t / gk % gn) * TN;

			for (uint32_t i = i0; i < m && i < i0 + TM; i++)
				for (uint32_t j = j0; j < n && j < j0 + TN; j++) {
					int32_t v;

					memcpy(&v, ar + base + t * 64 + 28 + (i - i0) * 12 + (j - j0) * 4, 4);
					c[(size_t)i * n + j] = (int32_t)((uint32_t)c[(size_t)i * n + j] + (uint32_t)v);
				}
		}
	}
	ops_plan_fini(&pl);
	return ret;
}

/* INT2 / ternary on the datapath: DOT16_S2, 16 lanes of K per command. */
static int s2_datapath(struct e1npu_ops *ops, struct e1npu_ops_report *rep,
		       bool ternary, uint32_t m, uint32_t n, uint32_t k,
		       const int8_t *a, const int8_t *b, int32_t *c)
{
	uint32_t ck = (k + 15) / 16;
	size_t cnt = (size_t)m * n * ck;
	uint32_t *rec = calloc(cnt * 3, 4), *res = malloc(cnt * 4);
	int ret;

	if (!rec || !res) {
		free(rec);
		free(res);
		return ops_error(ops, -ENOMEM, "%s: out of memory", __func__);
	}
	for (uint32_t i = 0; i < m; i++)
		for (uint32_t j = 0; j < n; j++)
			for (uint32_t q = 0; q < ck; q++) {
				uint32_t *r = rec + (((size_t)i * n + j) * ck + q) * 3;

				for (uint32_t l = 0; l < 16 && q * 16 + l < k; l++) {
					int8_t av = a[(size_t)i * k + q * 16 + l];
					int8_t bv = b[(size_t)(q * 16 + l) * n + j];

					r[0] |= (ternary ? lowp_ternary_bits(av) : lowp_s2_bits(av)) << (2 * l);
					r[1] |= (ternary ? lowp_ternary_bits(bv) : lowp_s2_bits(bv)) << (2 * l);
				}
			}
	ret = ops_dp_scalars(ops, rep, E1_DP_OP_DOT16_S2, ternary ? E1NPU_OP_FLAG_TERNARY : 0,
			 rec, cnt, res);
	for (size_t o = 0; !ret && o < (size_t)m * n; o++) {
		uint32_t acc = 0;

		for (uint32_t q = 0; q < ck; q++)
			acc += res[o * ck + q];
		c[o] = (int32_t)acc;
	}
	free(rec);
	free(res);
	return ret;
}

/* Sparse 2:4 INT4 on the datapath: SDOT4_S4_2_4, 8 K per command. */
static int sparse_datapath(struct e1npu_ops *ops, struct e1npu_ops_report *rep,
			   uint32_t m, uint32_t n, uint32_t k, const int8_t *a,
			   const int8_t *b, int32_t *c)
{
	uint32_t ck = (k + 7) / 8;
	size_t cnt = (size_t)m * n * ck;
	uint32_t *rec = calloc(cnt * 3, 4), *res = malloc(cnt * 4);
	int ret;

	if (!rec || !res) {
		free(rec);
		free(res);
		return ops_error(ops, -ENOMEM, "%s: out of memory", __func__);
	}
	for (uint32_t j = 0; j < n; j++)
		for (uint32_t q = 0; q < ck; q++) {
			uint32_t wbits = 0, meta = 0;

			/* two groups of four K: pick the (up to) two non-zeros */
			for (uint32_t g = 0; g < 2; g++) {
				uint32_t pos[2] = { 0, 1 }, np = 0;
				int8_t wv[2] = { 0, 0 };

				for (uint32_t l = 0; l < 4; l++) {
					uint32_t x = q * 8 + g * 4 + l;
					int8_t v = x < k ? b[(size_t)x * n + j] : 0;

					if (v && np < 2) {
						pos[np] = l;
						wv[np++] = v;
					}
				}
				/* positions must differ: a zero weight takes a free lane */
				if (np == 0) {
					pos[0] = 0;
					pos[1] = 1;
				} else if (np == 1) {
					pos[1] = pos[0] == 0 ? 1 : 0;
				}
				wbits |= ((uint32_t)(wv[0] & 15) | (uint32_t)(wv[1] & 15) << 4) << (8 * g);
				meta |= (pos[0] | pos[1] << 2) << (4 * g);
			}
			for (uint32_t i = 0; i < m; i++) {
				uint32_t *r = rec + (((size_t)i * n + j) * ck + q) * 3;
				uint32_t act = 0;

				for (uint32_t l = 0; l < 8 && q * 8 + l < k; l++)
					act |= (uint32_t)(a[(size_t)i * k + q * 8 + l] & 15) << (4 * l);
				r[0] = wbits;
				r[1] = act;
				r[2] = meta;
			}
		}
	ret = ops_dp_scalars(ops, rep, E1_DP_OP_SDOT4_S4_2_4, 0, rec, cnt, res);
	for (size_t o = 0; !ret && o < (size_t)m * n; o++) {
		uint32_t acc = 0;

		for (uint32_t q = 0; q < ck; q++)
			acc += res[o * ck + q];
		c[o] = (int32_t)acc;
	}
	free(rec);
	free(res);
	return ret;
}

E1NPU_API int e1npu_ops_matmul_lowp(struct e1npu_ops *ops, uint32_t kind,
				    uint32_t m, uint32_t n, uint32_t k,
				    const int8_t *a, const int8_t *b, int32_t *c,
				    struct e1npu_ops_report *rep)
{
	struct e1npu_ops_report local;
	struct ops_choice ch;
	uint32_t akind;
	int ret;

	if (OPS_BAD(ops, !ops) || OPS_BAD(ops, !a) || OPS_BAD(ops, !b) || OPS_BAD(ops, !c) ||
	    OPS_BAD(ops, !ops_mm_dims_ok(m, n, k, 1)) || OPS_BAD(ops, !m) || OPS_BAD(ops, !n) ||
	    OPS_BAD(ops, !k) ||
	    OPS_BAD(ops, (kind != E1NPU_OPS_MATMUL_S4 && kind != E1NPU_OPS_MATMUL_S2 && kind != E1NPU_OPS_MATMUL_TERNARY && kind != E1NPU_OPS_MATMUL_SPARSE_S4)))
		return -EINVAL;
	akind = kind == E1NPU_OPS_MATMUL_SPARSE_S4 ? E1NPU_OPS_MATMUL_S4 : kind;
	for (size_t i = 0; i < (size_t)m * k; i++)
		if (!in_range(akind, a[i]))
			return ops_error(ops, -ERANGE, "%s: a[%zu] (row %zu, column %zu) = %d is outside %s's range %s",
					 __func__, i, i / k, i % k, a[i],
					 e1npu_ops_kind_name(kind), range_text(akind));
	for (size_t i = 0; i < (size_t)k * n; i++)
		if (!in_range(kind, b[i]))
			return ops_error(ops, -ERANGE, "%s: b[%zu] (row %zu, column %zu) = %d is outside %s's range %s",
					 __func__, i, i / n, i % n, b[i],
					 e1npu_ops_kind_name(kind), range_text(kind));
	if (kind == E1NPU_OPS_MATMUL_SPARSE_S4)
		for (uint32_t j = 0; j < n; j++)
			for (uint32_t g = 0; g < k; g += 4) {
				int nz = 0;

				for (uint32_t l = g; l < g + 4 && l < k; l++)
					nz += b[(size_t)l * n + j] != 0;
				if (OPS_BAD(ops, nz > 2))
					return -EINVAL;
			}
	if (!rep)
		rep = &local;
	ops_rep_begin(rep, kind, (uint64_t)m * n * k);
	ch = sel_gemm(ops, m, n, k);
	if (ch.engine == E1NPU_ENGINE_DATAPATH && kind != E1NPU_OPS_MATMUL_S4 &&
	    (uint64_t)m * n * k / (kind == E1NPU_OPS_MATMUL_SPARSE_S4 ? 8 : 16) > SEL_DP_SCALAR_MAX)
		ch = sel_cpu(ops);
	ops_report_set(rep, ch.engine, ch.reason, "%s: %ux%ux%u; %s",
		       sel_reason_text(ch.reason), m, n, k,
		       ch.engine == E1NPU_ENGINE_WRAPPER ?
		       "values exact in int8, run as MATMUL_S8" :
		       ch.engine == E1NPU_ENGINE_DATAPATH ?
		       (kind == E1NPU_OPS_MATMUL_S4 ? "GEMM_S4 3x3x7 tiles" :
			kind == E1NPU_OPS_MATMUL_SPARSE_S4 ? "SDOT4_S4_2_4, 8 K per command" :
			"DOT16_S2, 16 K per command") : "CPU kernel");
	if (ch.engine == E1NPU_ENGINE_DATAPATH) {
		if (kind == E1NPU_OPS_MATMUL_S4)
			ret = s4_datapath(ops, rep, m, n, k, a, b, c);
		else if (kind == E1NPU_OPS_MATMUL_SPARSE_S4)
			ret = sparse_datapath(ops, rep, m, n, k, a, b, c);
		else
			ret = s2_datapath(ops, rep, kind == E1NPU_OPS_MATMUL_TERNARY,
					  m, n, k, a, b, c);
	} else {
		ret = ops_matmul_s8_engine(ops, ch.engine, m, n, k, a, k, b, n, c, n, rep);
	}
	ops_rep_fallback(rep);
	return ret;
}

E1NPU_API int e1npu_ops_matmul_fp8(struct e1npu_ops *ops, uint32_t m,
				   uint32_t n, uint32_t k, const uint8_t *a,
				   const uint8_t *b, int32_t *c,
				   struct e1npu_ops_report *rep)
{
	struct e1npu_ops_report local;
	struct ops_choice ch;
	uint32_t ck = (k + 3) / 4;
	int32_t q;
	int ret = 0;

	if (OPS_BAD(ops, !ops) || OPS_BAD(ops, !a) || OPS_BAD(ops, !b) || OPS_BAD(ops, !c) ||
	    OPS_BAD(ops, !m) || OPS_BAD(ops, !n) || OPS_BAD(ops, !k) ||
	    OPS_BAD(ops, !ops_mm_dims_ok(m, n, k, 1)))
		return -EINVAL;
	for (size_t i = 0; i < (size_t)m * k; i++)
		if (OPS_BAD(ops, !e1npu_fp8_e4m3_q88(a[i], &q)))
			return -EINVAL;
	for (size_t i = 0; i < (size_t)k * n; i++)
		if (OPS_BAD(ops, !e1npu_fp8_e4m3_q88(b[i], &q)))
			return -EINVAL;
	if (!rep)
		rep = &local;
	ops_rep_begin(rep, E1NPU_OPS_MATMUL_FP8, (uint64_t)m * n * k);
	ch = sel_dp_scalar(ops, (uint64_t)m * n * ck);
	ops_report_set(rep, ch.engine, ch.reason,
		       "%s: DOT4_FP8_E4M3, 4 K per command (the per-product Q8.8 floor has no systolic form)",
		       sel_reason_text(ch.reason));
	if (ch.engine == E1NPU_ENGINE_DATAPATH) {
		size_t cnt = (size_t)m * n * ck;
		uint32_t *rec = calloc(cnt * 3, 4), *res = malloc(cnt * 4);

		if (!rec || !res) {
			free(rec);
			free(res);
			return ops_error(ops, -ENOMEM, "%s: out of memory", __func__);
		}
		for (uint32_t i = 0; i < m; i++)
			for (uint32_t j = 0; j < n; j++)
				for (uint32_t qd = 0; qd < ck; qd++) {
					uint32_t *r = rec + (((size_t)i * n + j) * ck + qd) * 3;

					for (uint32_t l = 0; l < 4 && qd * 4 + l < k; l++) {
						r[0] |= (uint32_t)a[(size_t)i * k + qd * 4 + l] << (8 * l);
						r[1] |= (uint32_t)b[(size_t)(qd * 4 + l) * n + j] << (8 * l);
					}
				}
		ret = ops_dp_scalars(ops, rep, E1_DP_OP_DOT4_FP8_E4M3, 0, rec, cnt, res);
		for (size_t o = 0; !ret && o < (size_t)m * n; o++) {
			uint32_t acc = 0;

			for (uint32_t qd = 0; qd < ck; qd++)
				acc += res[o * ck + qd];
			c[o] = (int32_t)acc;
		}
		free(rec);
		free(res);
	} else {
		int64_t t = ops_now_ns();

		for (uint32_t i = 0; i < m; i++)
			for (uint32_t j = 0; j < n; j++) {
				uint32_t acc = 0;

				for (uint32_t x = 0; x < k; x++) {
					int32_t qa, qb;

					e1npu_fp8_e4m3_q88(a[(size_t)i * k + x], &qa);
					e1npu_fp8_e4m3_q88(b[(size_t)x * n + j], &qb);
					acc += (uint32_t)(int32_t)(((int64_t)qa * qb) >> 8);
				}
				c[(size_t)i * n + j] = (int32_t)acc;
			}
		rep->host_ns += (uint64_t)(ops_now_ns() - t);
	}
	ops_rep_fallback(rep);
	return ret;
}

E1NPU_API int e1npu_ops_matmul_f16(struct e1npu_ops *ops, uint32_t kind,
				   uint32_t m, uint32_t n, uint32_t k,
				   const uint16_t *a, const uint16_t *b, int32_t *c,
				   struct e1npu_ops_report *rep)
{
	struct e1npu_ops_report local;
	int (*conv)(uint16_t, int32_t *);
	struct ops_choice ch;
	int8_t *ah, *al, *bb;
	int32_t *ch_, *cl_;
	int64_t t;
	int ret;

	if (OPS_BAD(ops, !ops) || OPS_BAD(ops, !a) || OPS_BAD(ops, !b) || OPS_BAD(ops, !c) ||
	    OPS_BAD(ops, !m) || OPS_BAD(ops, !n) || OPS_BAD(ops, !k) ||
	    OPS_BAD(ops, !ops_mm_dims_ok(m, n, k, 2)) ||
	    OPS_BAD(ops, (kind != E1NPU_OPS_MATMUL_FP16 && kind != E1NPU_OPS_MATMUL_BF16)))
		return -EINVAL;
	if (!rep)
		rep = &local;
	ops_rep_begin(rep, kind, (uint64_t)m * n * k);
	conv = kind == E1NPU_OPS_MATMUL_FP16 ? lowp_fp16_to_q88 : lowp_bf16_to_q88;
	t = ops_now_ns();
	ah = malloc((size_t)m * k);
	al = malloc((size_t)m * k);
	bb = malloc((size_t)k * n * 2);
	ch_ = malloc((size_t)m * n * 2 * 4);
	cl_ = malloc((size_t)m * n * 2 * 4);
	if (!ah || !al || !bb || !ch_ || !cl_) {
		ret = ops_error(ops, -ENOMEM, "%s: out of memory", __func__);
		goto out;
	}
	/* q = 256 h + l with l in [-128, 127]: h, l exact int8 */
	for (size_t i = 0; i < (size_t)m * k; i++) {
		int32_t q;

		ret = conv(a[i], &q);
		if (ret)
			goto out;
		al[i] = (int8_t)(((q + 128) & 255) - 128);
		ah[i] = (int8_t)((q - al[i]) / 256);
	}
	for (uint32_t x = 0; x < k; x++)
		for (uint32_t j = 0; j < n; j++) {
			int32_t q;
			int8_t l;

			ret = conv(b[(size_t)x * n + j], &q);
			if (ret)
				goto out;
			l = (int8_t)(((q + 128) & 255) - 128);
			bb[(size_t)x * 2 * n + j] = (int8_t)((q - l) / 256);
			bb[(size_t)x * 2 * n + n + j] = l;
		}
	rep->lower_ns += (uint64_t)(ops_now_ns() - t);
	ch = sel_gemm(ops, m, 2 * n, k);
	ops_report_set(rep, ch.engine, ch.reason,
		       "%s: Q8.8 byte halves as two %ux%ux%u int8 GEMMs, exact int64 recombination",
		       sel_reason_text(ch.reason), m, 2 * n, k);
	ret = ops_matmul_s8_engine(ops, ch.engine, m, 2 * n, k, ah, k, bb, 2 * n, ch_, 2 * n, rep);
	if (!ret)
		ret = ops_matmul_s8_engine(ops, ch.engine, m, 2 * n, k, al, k, bb, 2 * n, cl_,
					   2 * n, rep);
	if (!ret) {
		t = ops_now_ns();
		for (uint32_t i = 0; i < m; i++)
			for (uint32_t j = 0; j < n; j++) {
				size_t o = (size_t)i * 2 * n;
				int64_t p = 65536LL * ch_[o + j] +
					    256LL * ((int64_t)ch_[o + n + j] + cl_[o + j]) +
					    cl_[o + n + j];
				int64_t r = (p + 128) >> 8;

				c[(size_t)i * n + j] = r > INT32_MAX ? INT32_MAX :
						       r < INT32_MIN ? INT32_MIN : (int32_t)r;
			}
		rep->host_ns += (uint64_t)(ops_now_ns() - t);
	}
	ops_rep_fallback(rep);
out:
	free(ah);
	free(al);
	free(bb);
	free(ch_);
	free(cl_);
	return ret;
}

E1NPU_API int e1npu_ops_matmul_gs_s4(struct e1npu_ops *ops, uint32_t m,
				     uint32_t n, uint32_t k, uint32_t group,
				     const int8_t *a, const int8_t *w,
				     const int16_t *scales, int32_t *c,
				     struct e1npu_ops_report *rep)
{
	struct e1npu_ops_report local;
	struct ops_choice ch;
	uint32_t ng;
	int32_t *part = NULL;
	int ret = 0;

	if (OPS_BAD(ops, !ops) || OPS_BAD(ops, !a) || OPS_BAD(ops, !w) || OPS_BAD(ops, !scales) ||
	    OPS_BAD(ops, !c) || OPS_BAD(ops, !m) || OPS_BAD(ops, !n) || OPS_BAD(ops, !k) ||
	    OPS_BAD(ops, !group) || OPS_BAD(ops, k % group) ||
	    OPS_BAD(ops, !ops_mm_dims_ok(m, n, k, 2)))
		return -EINVAL;
	for (size_t i = 0; i < (size_t)k * n; i++)
		if (w[i] < -8 || w[i] > 7)
			return ops_error(ops, -ERANGE, "%s: w[%zu] (row %zu, column %zu) = %d is outside int4's range [-8, 7]",
					 __func__, i, i / n, i % n, w[i]);
	if (!rep)
		rep = &local;
	ops_rep_begin(rep, E1NPU_OPS_MATMUL_GS_S4, (uint64_t)m * n * k);
	ng = k / group;
	ch = sel_gemm(ops, m, n, group);
	ops_report_set(rep, ch.engine, ch.reason,
		       "%s: %u group GEMMs of %ux%ux%u, Q8.8 group scales applied on the host",
		       sel_reason_text(ch.reason), ng, m, n, group);
	part = malloc((size_t)m * n * 4);
	if (!part)
		return ops_error(ops, -ENOMEM, "%s: out of memory", __func__);
	memset(c, 0, (size_t)m * n * 4);
	for (uint32_t g = 0; !ret && g < ng; g++) {
		ret = ops_matmul_s8_engine(ops, ch.engine, m, n, group, a + (size_t)g * group, k,
					   w + (size_t)g * group * n, n, part, n, rep);
		for (size_t o = 0; !ret && o < (size_t)m * n; o++)
			c[o] = (int32_t)((uint32_t)c[o] +
					 (uint32_t)part[o] * (uint32_t)(int32_t)scales[(size_t)g * n + o % n]);
	}
	free(part);
	ops_rep_fallback(rep);
	return ret;
}
