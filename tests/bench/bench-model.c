// SPDX-License-Identifier: (GPL-2.0-only OR MIT)
/*
 * bench-model: the device model's functional INT8 matmul throughput (a
 * MATMUL_S8 descriptor through the wrapper ring, end to end) against
 * oneDNN's dnnl_gemm_s8s8s32 on one thread, plus the timing model's
 * cycles, the ideal MACs / (rows * cols) and the utilization. Numbers are
 * printed, nothing is asserted but that both agree bit for bit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <dnnl.h>

#include "e1_model.h"

#define BASE	0x100000000ULL
#define REPS	5

struct host {
	u8 *mem;
	u64 size;
};

static void *map(void *ctx, u64 addr, u64 len, bool write)
{
	struct host *h = ctx;

	(void)write;
	if (addr < BASE || len > h->size || addr - BASE > h->size - len)
		return NULL;
	return h->mem + (addr - BASE);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void wr(struct e1_model *m, u32 off, u32 v)
{
	e1_model_write(m, E1_WIN_WRAPPER * E1_WIN_SIZE + off, v);
}

/* CPU time of this thread: steadier than wall time on a busy host. */
static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Rows 0, 7, 14, ... of C against the exact int32 product: 0 if equal. */
static int exact_rows(const s8 *a, const s8 *b, const s32 *c, u32 n)
{
	u32 i, j, k;

	for (i = 0; i < n; i += 7)
		for (j = 0; j < n; j++) {
			s32 s = 0;

			for (k = 0; k < n; k++)
				s += (s32)a[(size_t)i * n + k] * b[(size_t)k * n + j];
			if (s != c[(size_t)i * n + j])
				return 1;
		}
	return 0;
}

static u32 rd(struct e1_model *m, u32 off)
{
	return e1_model_read(m, E1_WIN_WRAPPER * E1_WIN_SIZE + off);
}

static void put32(u8 *p, u32 v)
{
	p[0] = (u8)v;
	p[1] = (u8)(v >> 8);
	p[2] = (u8)(v >> 16);
	p[3] = (u8)(v >> 24);
}

int main(void)
{
	static const u32 sizes[] = { 256, 512, 1024 };
	struct e1_model_config cfg;
	struct e1_model_host mh;
	struct e1_model *m = calloc(1, sizeof(*m));
	struct host h;
	u32 seed = 12345, i;
	int bad = 0;

	setenv("OMP_NUM_THREADS", "1", 0);
	h.size = 64 + 3 * 1024 * 1024 + 4 * 1024 * 1024 + 4096;
	h.mem = aligned_alloc(4096, h.size);
	if (!m || !h.mem)
		return 1;
	memset(h.mem, 0, h.size);
	e1_model_default_config(&cfg);
	mh.map = map;
	mh.irq = NULL;
	mh.ctx = &h;
	e1_model_init(m, &cfg, &mh);
	wr(m, E1_V0_DESC_BASE_LO, (u32)BASE);
	wr(m, E1_V0_DESC_BASE_HI, (u32)(BASE >> 32));
	wr(m, E1_V0_DESC_RING_LEN, 2);
	wr(m, E1_V0_TENSOR_MEM_BASE_LO, (u32)BASE);
	wr(m, E1_V0_TENSOR_MEM_BASE_HI, (u32)(BASE >> 32));
	wr(m, E1_V0_TENSOR_MEM_LEN, (u32)h.size);
	wr(m, E1_V0_CTRL, E1_V0_CTRL_ENABLE);

	printf("bench-model: INT8 GEMM C[MxN] = A[MxK] * B[KxN], int32 out, 1 thread, best of %d\n",
	       REPS);
	printf("%6s %12s %12s %7s %8s | %12s %12s %7s\n", "size", "model GMAC/s",
	       "oneDNN GMAC/s", "ratio", "r_cpu", "model cycles", "ideal cycles", "util");
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		u32 n = sizes[i], r, j;
		u64 a = BASE + 4096, b = a + 1024 * 1024, c = b + 1024 * 1024;
		u8 *pa = h.mem + (a - BASE), *pb = h.mem + (b - BASE);
		s32 *pc = (s32 *)(h.mem + (c - BASE));
		s32 *ref = malloc((size_t)n * n * sizeof(*ref));
		double t_model = 1e30, t_dnnl = 1e30, c_model = 1e30, c_dnnl = 1e30, c0, macs = (double)n * n * n;
		u64 cyc0, cyc = 0, ideal = (u64)n * n * n / (cfg.rows * cfg.cols);
		u8 *d = h.mem;

		if (!ref)
			return 1;
		for (j = 0; j < 2 * 1024 * 1024; j++) {
			seed ^= seed << 13;
			seed ^= seed >> 17;
			seed ^= seed << 5;
			pa[j] = (u8)(seed >> 24);
		}
		for (r = 0; r < REPS; r++) {
			double t0, t1;
			u32 head = rd(m, E1_V0_DESC_HEAD);

			memset(d + 64 * head, 0, 64);
			put32(d + 64 * head, E1_V0_OP_MATMUL_S8 | E1_V0_FLAG_SIGNED_INPUT);
			put32(d + 64 * head + 4 * E1_V0_DW_SHAPE_M, n);
			put32(d + 64 * head + 4 * E1_V0_DW_SHAPE_N, n);
			put32(d + 64 * head + 4 * E1_V0_DW_SHAPE_K, n);
			put32(d + 64 * head + 4 * E1_V0_DW_A_LO, (u32)a);
			put32(d + 64 * head + 4 * E1_V0_DW_A_HI, (u32)(a >> 32));
			put32(d + 64 * head + 4 * E1_V0_DW_B_LO, (u32)b);
			put32(d + 64 * head + 4 * E1_V0_DW_B_HI, (u32)(b >> 32));
			put32(d + 64 * head + 4 * E1_V0_DW_C_LO, (u32)c);
			put32(d + 64 * head + 4 * E1_V0_DW_C_HI, (u32)(c >> 32));
			put32(d + 64 * head + 4 * E1_V0_DW_A_STRIDE, n);
			put32(d + 64 * head + 4 * E1_V0_DW_B_STRIDE, n);
			put32(d + 64 * head + 4 * E1_V0_DW_C_STRIDE, 4 * n);
			wr(m, E1_V0_DESC_DOORBELL, (head + 1) & 1);
			cyc0 = e1_model_cycles(m);
			c0 = cpu_now();
			t0 = now();
			if (e1_model_run(m) != 1) {
				fprintf(stderr, "bench-model: model error 0x%x\n",
					rd(m, E1_V0_STATUS));
				return 1;
			}
			t1 = now();
			if (cpu_now() - c0 < c_model)
				c_model = cpu_now() - c0;
			cyc = e1_model_cycles(m) - cyc0;
			if (t1 - t0 < t_model)
				t_model = t1 - t0;

			c0 = cpu_now();
			t0 = now();
			if (dnnl_gemm_s8s8s32('N', 'N', 'F', n, n, n, 1.0f, (const int8_t *)pa,
					      n, 0, (const int8_t *)pb, n, 0, 0.0f, ref, n,
					      (const int32_t[]){ 0 }) != dnnl_success) {
				fprintf(stderr, "bench-model: dnnl_gemm_s8s8s32 failed\n");
				return 1;
			}
			t1 = now();
			if (cpu_now() - c0 < c_dnnl)
				c_dnnl = cpu_now() - c0;
			if (t1 - t0 < t_dnnl)
				t_dnnl = t1 - t0;
		}
		/*
		 * The model must be exact. oneDNN's s8s8 GEMM without VNNI
		 * (vpmaddubsw, int16 saturation) can differ on full-range
		 * random data: reported, not fatal.
		 */
		if (exact_rows((const s8 *)pa, (const s8 *)pb, pc, n)) {
			fprintf(stderr, "bench-model: %u^3: the model is not exact\n", n);
			bad = 1;
		}
		if (memcmp(pc, ref, (size_t)n * n * sizeof(*ref)))
			fprintf(stderr, "bench-model: %u^3: oneDNN %s\n", n,
				exact_rows((const s8 *)pa, (const s8 *)pb, ref, n) ?
				"is not exact on this data (int16 saturation?)" :
				"and the model disagree");
		printf("%4u^3 %12.2f %12.2f %6.2fx %7.2fx | %12llu %12llu %6.1f%%\n", n,
		       macs / t_model * 1e-9, macs / t_dnnl * 1e-9, t_dnnl / t_model,
		       c_dnnl / c_model, (unsigned long long)cyc, (unsigned long long)ideal,
		       100.0 * ideal / cyc);
		free(ref);
	}
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
	__builtin_cpu_init();
	printf("model kernel: %s\n", __builtin_cpu_supports("avx512vnni") &&
	       __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") ?
	       "int8 path (AVX-512 VNNI vpdpbusd)" :
	       __builtin_cpu_supports("avx2") ? "AVX2 path (4x16 vpmaddwd tiles)" :
	       "portable int16 path (pmaddwd)");
#endif
	printf("ratio = model speed / oneDNN's from the least wall time; r_cpu the same from the\n"
	       "least thread CPU time (steadier on a busy host)\n");
	printf("model cycles: descriptor fetch + timing model at %u MHz (Documentation/device-model.md)\n",
	       cfg.timing.clock_mhz);
	free(h.mem);
	free(m);
	return bad;
}
