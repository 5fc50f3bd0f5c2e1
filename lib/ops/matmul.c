// SPDX-License-Identifier: MIT
/*
 * Raw integer matmuls: tiling onto MATMUL_S8 (systolic, 1024^3 envelope,
 * split-K accumulated on the host in int32) or onto the datapath's 3x3x7
 * GEMM tile, or the CPU; low-precision integer matmuls on the same paths.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "e1npu_hw.h"
#include "ops_internal.h"
#include "select.h"

#define MM_MAX		1024u	/* E1_V0_MAX_MATMUL_MN / _K */

static uint32_t div_up(uint32_t a, uint32_t b)
{
	return (uint32_t)(((uint64_t)a + b - 1) / b);
}

static void cpu_matmul(uint32_t m, uint32_t n, uint32_t k, const int8_t *a,
		       size_t lda, const int8_t *b, size_t ldb, int32_t *c,
		       size_t ldc)
{
	/* i-k-j order: streams rows of b; int32 wrap like the hardware. */
	for (uint32_t i = 0; i < m; i++) {
		uint32_t *ci = (uint32_t *)(c + i * ldc);

		memset(ci, 0, n * sizeof(*ci));
		for (uint32_t x = 0; x < k; x++) {
			int32_t av = a[i * lda + x];
			const int8_t *bx = b + x * ldb;

			if (!av)
				continue;
			for (uint32_t j = 0; j < n; j++)
				ci[j] += (uint32_t)(av * bx[j]);
		}
	}
}

/* Systolic: tiles of up to 1024^3, one partial C region per K chunk. */
static int mm_wrapper(struct e1npu_ops *ops, struct e1npu_ops_report *rep,
		      uint32_t m, uint32_t n, uint32_t k, const int8_t *a,
		      size_t lda, const int8_t *b, size_t ldb, int32_t *c,
		      size_t ldc)
{
	struct ops_plan pl;
	size_t sa = ops_align_up(k, OPS_ALIGN);
	size_t sb = ops_align_up(n, OPS_ALIGN);
	size_t sc = ops_align_up((size_t)n * 4, OPS_ALIGN);
	uint32_t nk = div_up(k, MM_MAX);
	size_t oa, ob, oc;
	uint8_t *ar;
	int ret;

	/* staged rows are addressed by 32-bit descriptor strides */
	if (sa > UINT32_MAX || sb > UINT32_MAX || sc > UINT32_MAX)
		return ops_error(ops, -ENOMEM, "%s: out of memory", __func__);
	ops_plan_init(&pl, ops, rep, E1NPU_OPS_MATMUL_S8);
	oa = ops_plan_alloc(&pl, (size_t)m * sa);
	ob = ops_plan_alloc(&pl, (size_t)k * sb);
	if (!ops_size_mul3(&oc, nk, m, sc)) {
		ops_plan_fini(&pl);
		return ops_error(ops, -ENOMEM, "%s: out of memory", __func__);
	}
	oc = ops_plan_alloc(&pl, oc);
	ret = ops_plan_arena(&pl, &ar);
	if (ret)
		goto out;
	for (uint32_t i = 0; i < m; i++)
		memcpy(ar + oa + (size_t)i * sa, a + i * lda, k);
	for (uint32_t x = 0; x < k; x++)
		memcpy(ar + ob + (size_t)x * sb, b + x * ldb, n);

	for (uint32_t kc = 0; kc < nk; kc++)
	for (uint32_t i0 = 0; i0 < m; i0 += MM_MAX)
	for (uint32_t j0 = 0; j0 < n; j0 += MM_MAX) {
		uint32_t k0 = kc * MM_MAX;
		uint32_t mt = m - i0 < MM_MAX ? m - i0 : MM_MAX;
		uint32_t nt = n - j0 < MM_MAX ? n - j0 : MM_MAX;
		uint32_t kt = k - k0 < MM_MAX ? k - k0 : MM_MAX;
		struct e1npu_op_desc d;

		e1npu_op_desc_matmul(&d,
			ops_t(oa + (size_t)i0 * sa + k0, (uint32_t)sa),
			ops_t(ob + (size_t)k0 * sb + j0, (uint32_t)sb),
			ops_t(oc + ((size_t)kc * m + i0) * sc + (size_t)j0 * 4, (uint32_t)sc),
			mt, nt, kt, 0);
		ret = ops_plan_add(&pl, &d);
		if (ret)
			goto out;
	}
	ret = ops_plan_run(&pl);
	if (ret)
		goto out;
	{
		int64_t t = ops_now_ns();

		for (uint32_t i = 0; i < m; i++)
			for (uint32_t j = 0; j < n; j++) {
				uint32_t acc = 0;

				for (uint32_t kc = 0; kc < nk; kc++) {
					int32_t v;

					memcpy(&v, ar + oc + ((size_t)kc * m + i) * sc + (size_t)j * 4, 4);
					acc += (uint32_t)v;
				}
				c[i * ldc + j] = (int32_t)acc;
			}
		if (rep)
			rep->host_ns += (uint64_t)(ops_now_ns() - t);
	}
out:
	ops_plan_fini(&pl);
	return ret;
}

/*
 * Datapath: 3x3x7 tiles addressed in place (datapath A/B offsets need no
 * alignment), each writing its own 3x3 int32 slot; the host sums the K
 * tiles.
 */
static int mm_datapath(struct e1npu_ops *ops, struct e1npu_ops_report *rep,
		       uint32_t m, uint32_t n, uint32_t k, const int8_t *a,
		       size_t lda, const int8_t *b, size_t ldb, int32_t *c,
		       size_t ldc)
{
	const uint32_t TM = E1_DP_GEMM_MAX_M, TN = E1_DP_GEMM_MAX_N, TK = E1_DP_GEMM_MAX_K;
	uint32_t gm = div_up(m, TM), gn = div_up(n, TN), gk = div_up(k, TK);
	size_t tiles = (size_t)gm * gn * gk, oa, ob, oc;
	struct ops_plan pl;
	uint8_t *ar;
	int ret;

	ops_plan_init(&pl, ops, rep, E1NPU_OPS_MATMUL_S8);
	oa = ops_plan_alloc(&pl, (size_t)m * k);
	ob = ops_plan_alloc(&pl, (size_t)k * n);
	oc = ops_plan_alloc(&pl, tiles * 48);
	ret = ops_plan_arena(&pl, &ar);
	if (ret)
		goto out;
	for (uint32_t i = 0; i < m; i++)
		memcpy(ar + oa + (size_t)i * k, a + i * lda, k);
	for (uint32_t x = 0; x < k; x++)
		memcpy(ar + ob + (size_t)x * n, b + x * ldb, n);
	for (size_t t = 0; t < tiles; t++) {
		uint32_t ti = (uint32_t)(t / ((size_t)gn * gk));
		uint32_t tj = (uint32_t)(t / gk % gn);
		uint32_t tk = (uint32_t)(t % gk);
		uint32_t i0 = ti * TM, j0 = tj * TN, k0 = tk * TK;
		struct e1npu_op_desc d;

		e1npu_op_desc_dp_gemm(&d, 0,
			ops_t(oa + (size_t)i0 * k + k0, k),
			ops_t(ob + (size_t)k0 * n + j0, n),
			ops_t(oc + t * 48, 12),
			m - i0 < TM ? m - i0 : TM, n - j0 < TN ? n - j0 : TN,
			k - k0 < TK ? k - k0 : TK);
		ret = ops_plan_add(&pl, &d);
		if (ret)
			goto out;
	}
	ret = ops_plan_run(&pl);
	if (ret)
		goto out;
	{
		int64_t t0 = ops_now_ns();

		for (uint32_t i = 0; i < m; i++)
			for (uint32_t j = 0; j < n; j++) {
				size_t base = ((size_t)(i / TM) * gn + j / TN) * gk;
				uint32_t acc = 0;

				for (uint32_t tk = 0; tk < gk; tk++) {
					int32_t v;

					memcpy(&v, ar + oc + (base + tk) * 48 +
					       (i % TM) * 12 + (j % TN) * 4, 4);
					acc += (uint32_t)v;
				}
				c[i * ldc + j] = (int32_t)acc;
			}
		if (rep)
			rep->host_ns += (uint64_t)(ops_now_ns() - t0);
	}
out:
	ops_plan_fini(&pl);
	return ret;
}

int ops_matmul_s8_engine(struct e1npu_ops *ops, uint32_t engine, uint32_t m,
			 uint32_t n, uint32_t k, const int8_t *a, size_t lda,
			 const int8_t *b, size_t ldb, int32_t *c, size_t ldc,
			 struct e1npu_ops_report *rep)
{
	if (engine == E1NPU_ENGINE_WRAPPER)
		return mm_wrapper(ops, rep, m, n, k, a, lda, b, ldb, c, ldc);
	if (engine == E1NPU_ENGINE_DATAPATH)
		return mm_datapath(ops, rep, m, n, k, a, lda, b, ldb, c, ldc);
	{
		int64_t t = ops_now_ns();

		cpu_matmul(m, n, k, a, lda, b, ldb, c, ldc);
		if (rep)
			rep->host_ns += (uint64_t)(ops_now_ns() - t);
	}
	return 0;
}

static void mm_report(struct e1npu_ops_report *rep, uint32_t kind,
		      struct ops_choice ch, uint32_t m, uint32_t n, uint32_t k)
{
	if (!rep)
		return;
	memset(rep, 0, sizeof(*rep));
	rep->kind = kind;
	rep->macs = (uint64_t)m * n * k;
	ops_report_set(rep, ch.engine, ch.reason,
		       "%s: %ux%ux%u = %llu MACs (systolic from %u per dim or %u MACs, datapath up to %u MACs)",
		       sel_reason_text(ch.reason), m, n, k,
		       (unsigned long long)rep->macs, SEL_T_BIG, SEL_BIG_MACS,
		       SEL_DP_MAX_MACS);
}

static void mm_fix_fallback(struct e1npu_ops_report *rep)
{
	if (rep && rep->hw_ops && rep->hw_ops_fallback == rep->hw_ops) {
		rep->engine = E1NPU_ENGINE_CPU;
		rep->reason = E1NPU_OPS_WHY_FALLBACK;
	}
}

E1NPU_API int e1npu_ops_matmul_s8(struct e1npu_ops *ops, uint32_t m,
				  uint32_t n, uint32_t k, const int8_t *a,
				  size_t lda, const int8_t *b, size_t ldb,
				  int32_t *c, size_t ldc,
				  struct e1npu_ops_report *rep)
{
	struct e1npu_ops_report local;
	struct ops_choice ch;
	int ret;

	size_t sa, sb, sc;

	if (OPS_BAD(ops, !ops) || OPS_BAD(ops, !a) || OPS_BAD(ops, !b) || OPS_BAD(ops, !c) ||
	    OPS_BAD(ops, !m) || OPS_BAD(ops, !n) || OPS_BAD(ops, !k) ||
	    OPS_BAD(ops, !ops_mat_span(&sa, m, k, lda, 1)) ||
	    OPS_BAD(ops, !ops_mat_span(&sb, k, n, ldb, 1)) ||
	    OPS_BAD(ops, !ops_mat_span(&sc, m, n, ldc, sizeof(int32_t))))
		return -EINVAL;
	if (!rep)
		rep = &local;
	ch = sel_gemm(ops, m, n, k);
	mm_report(rep, E1NPU_OPS_MATMUL_S8, ch, m, n, k);
	ret = ops_matmul_s8_engine(ops, ch.engine, m, n, k, a, lda, b, ldb, c,
				   ldc, rep);
	mm_fix_fallback(rep);
	return ret;
}

E1NPU_API int e1npu_ops_batch_matmul_s8(struct e1npu_ops *ops, uint32_t batch,
					uint32_t heads, uint32_t m, uint32_t n,
					uint32_t k, const int8_t *a,
					const int8_t *b, int32_t *c,
					struct e1npu_ops_report *rep)
{
	struct e1npu_ops_report local, one;
	struct ops_choice ch;
	int ret = 0;

	size_t sa, sb, sc;

	if (OPS_BAD(ops, !ops) || OPS_BAD(ops, !a) || OPS_BAD(ops, !b) || OPS_BAD(ops, !c) ||
	    OPS_BAD(ops, !batch) || OPS_BAD(ops, !heads) || OPS_BAD(ops, !m) || OPS_BAD(ops, !n) ||
	    OPS_BAD(ops, !k) || OPS_BAD(ops, !ops_size_mul3(&sa, (size_t)batch * heads, m, k)) ||
	    OPS_BAD(ops, !ops_size_mul3(&sb, (size_t)batch * heads, k, n)) ||
	    OPS_BAD(ops, !ops_size_mul3(&sc, sa / k, n, sizeof(int32_t))))
		return -EINVAL;
	if (!rep)
		rep = &local;
	ch = sel_gemm(ops, m, n, k);
	mm_report(rep, E1NPU_OPS_BATCH_MATMUL, ch, m, n, k);
	rep->macs *= (uint64_t)batch * heads;
	for (uint64_t s = 0; !ret && s < (uint64_t)batch * heads; s++) {
		memset(&one, 0, sizeof(one));
		one.kind = E1NPU_OPS_BATCH_MATMUL;
		ret = ops_matmul_s8_engine(ops, ch.engine, m, n, k,
					   a + s * m * k, k, b + s * k * n, n,
					   c + s * m * n, n, &one);
		rep->hw_ops += one.hw_ops;
		rep->hw_ops_wrapper += one.hw_ops_wrapper;
		rep->hw_ops_datapath += one.hw_ops_datapath;
		rep->hw_ops_fallback += one.hw_ops_fallback;
		rep->jobs += one.jobs;
		rep->wrapper_cycles += one.wrapper_cycles;
		rep->dp_cycles += one.dp_cycles;
		rep->lower_ns += one.lower_ns;
		rep->host_ns += one.host_ns;
	}
	mm_fix_fallback(rep);
	return ret;
}
