// SPDX-License-Identifier: MIT
/*
 * e1npu-proof stress PROCS JOBS SEED: PROCS processes at once, each
 * submitting JOBS jobs that alternate between the wrapper (MATMUL_S8 with
 * and without fused ReLU, RELU_S8, MAXPOOL_S8) and the datapath
 * (DP_GEMM_S8, DP_VRELU_S8, DP_SCALAR ADD), up to E1P_DEPTH jobs in flight
 * per process, each output compared in full with the CPU reference
 * (e1t_ref.c) and the bytes around the tensor with their sentinel.
 * One result per process: "stress-pN" (and "stress" for the whole run).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "e1p.h"
#include "e1npu_hw.h"

#define E1P_DEPTH	8
#define E1P_BUF		4096
#define E1P_SENTINEL	0x5a

struct slot {
	struct e1t_bo a, b, c;
	struct e1t_job job;
	uint32_t engine;
	char what[48];
	uint8_t want[E1P_BUF];
};

/* Build job @j of engine @eng into @s; returns the op (ops in @op). */
static void make_wrapper(struct slot *s, uint32_t align, uint32_t *rng,
			 struct e1npu_hw_op *op)
{
	uint32_t kind = e1t_rand(rng) % 4;
	uint32_t m = 1 + e1t_rand(rng) % 16, n = 1 + e1t_rand(rng) % 16;
	uint32_t k = 1 + e1t_rand(rng) % 16;
	uint32_t as, bs, cs;

	memset(op, 0, sizeof(*op));
	if (kind <= 1) {	/* MATMUL_S8, with fused ReLU when 1 */
		as = e1t_align(k, align);
		bs = e1t_align(n, align);
		cs = e1t_align(4 * n, align);
		e1t_ref_matmul((int8_t *)s->a.map, as, (int8_t *)s->b.map, bs,
			       (int32_t *)s->want, cs / 4, m, n, k, kind == 1);
		op->opcode = E1NPU_HWOP_MATMUL_S8;
		op->flags = kind == 1 ? E1NPU_HWOP_FLAG_RELU : 0;
		op->m = m;
		op->n = n;
		op->k = k;
		op->a = e1t_t(&s->a, 0, as);
		op->b = e1t_t(&s->b, 0, bs);
		op->c = e1t_t(&s->c, 0, cs);
		snprintf(s->what, sizeof(s->what), "matmul%s %ux%ux%u",
			 kind ? "+relu" : "", m, n, k);
	} else if (kind == 2) {	/* RELU_S8 */
		as = e1t_align(n, align);
		e1t_ref_relu((int8_t *)s->a.map, as, (int8_t *)s->want, as, m, n);
		op->opcode = E1NPU_HWOP_RELU_S8;
		op->m = m;
		op->n = n;
		op->a = e1t_t(&s->a, 0, as);
		op->c = e1t_t(&s->c, 0, as);
		snprintf(s->what, sizeof(s->what), "relu %ux%u", m, n);
	} else {		/* MAXPOOL_S8, 2x2 window, stride 2, 4 channels */
		uint32_t h = 2 + 2 * (e1t_rand(rng) % 4), w = 2 + 2 * (e1t_rand(rng) % 4);

		as = e1t_align(w * 4, align);
		cs = e1t_align(w / 2 * 4, align);
		e1t_ref_maxpool((int8_t *)s->a.map, as, h, w, 4, 2, 2,
				(int8_t *)s->want, cs);
		op->opcode = E1NPU_HWOP_MAXPOOL_S8;
		op->m = h;
		op->n = w;
		op->c_in = 4;
		op->k = 2;
		op->stride_h = 2;
		op->a = e1t_t(&s->a, 0, as);
		op->c = e1t_t(&s->c, 0, cs);
		snprintf(s->what, sizeof(s->what), "maxpool %ux%ux4", h, w);
	}
}

static void make_datapath(struct slot *s, uint32_t *rng,
			  struct e1npu_hw_op *op)
{
	uint32_t kind = e1t_rand(rng) % 3, i, j, l;

	memset(op, 0, sizeof(*op));
	if (kind == 0) {	/* DP_GEMM_S8 tile */
		uint32_t m = 1 + e1t_rand(rng) % 3, n = 1 + e1t_rand(rng) % 3;
		uint32_t k = 1 + e1t_rand(rng) % 7;

		for (i = 0; i < m; i++)
			for (j = 0; j < n; j++) {
				int32_t acc = 0;

				for (l = 0; l < k; l++)
					acc += (int8_t)s->a.map[i * 8 + l] *
					       (int8_t)s->b.map[l * 4 + j];
				memcpy(s->want + i * 16 + 4 * j, &acc, 4);
			}
		op->opcode = E1NPU_HWOP_DP_GEMM_S8;
		op->m = m;
		op->n = n;
		op->k = k;
		op->a = e1t_t(&s->a, 0, 8);
		op->b = e1t_t(&s->b, 0, 4);
		op->c = e1t_t(&s->c, 0, 16);
		snprintf(s->what, sizeof(s->what), "dp-gemm %ux%ux%u", m, n, k);
	} else if (kind == 1) {	/* DP_VRELU_S8 */
		uint32_t n = 1 + e1t_rand(rng) % 64;

		e1t_ref_relu((int8_t *)s->a.map, 0, (int8_t *)s->want, 0, 1, n);
		op->opcode = E1NPU_HWOP_DP_VRELU_S8;
		op->n = n;
		op->a = e1t_t(&s->a, 0, 0);
		op->c = e1t_t(&s->c, 0, 0);
		snprintf(s->what, sizeof(s->what), "dp-vrelu %u", n);
	} else {		/* DP_SCALAR ADD: {a, b, acc} -> {a + b, 0} */
		uint32_t cnt = 1 + e1t_rand(rng) % 8, rec[3], out[2];

		for (i = 0; i < cnt; i++) {
			memcpy(rec, s->a.map + 12 * i, 12);
			out[0] = rec[0] + rec[1];
			out[1] = 0;
			memcpy(s->want + 8 * i, out, 8);
		}
		op->opcode = E1NPU_HWOP_DP_SCALAR;
		op->m = cnt;
		op->k = E1_DP_OP_ADD;
		op->a = e1t_t(&s->a, 0, 0);
		op->c = e1t_t(&s->c, 0, 0);
		snprintf(s->what, sizeof(s->what), "dp-scalar-add x%u", cnt);
	}
}

/* Wait for every slot in flight and compare; returns failures. */
static int drain(struct e1t_dev *d, struct slot *slots, uint32_t n,
		 const char *name)
{
	struct e1t_result r;
	uint32_t i;
	int ret, bad = 0;

	for (i = 0; i < n; i++) {
		struct slot *s = &slots[i];

		ret = e1t_job_wait(d, &s->job, E1T_JOB_TIMEOUT_MS, &r);
		if (ret || r.state != DRM_E1NPU_JOB_STATE_DONE || r.error ||
		    r.cmds_done != 1) {
			e1t_log("%s: %s: wait %d state %u error %d cmds_done %u",
				name, s->what, ret, r.state, r.error, r.cmds_done);
			bad++;
			continue;
		}
		if (memcmp(s->c.map, s->want, E1P_BUF)) {
			for (ret = 0; ret < E1P_BUF && s->c.map[ret] == s->want[ret]; ret++)
				;
			e1t_log("%s: %s (%s): byte %d is 0x%02x, want 0x%02x",
				name, s->what, s->engine ? "datapath" : "wrapper",
				ret, s->c.map[ret], s->want[ret]);
			bad++;
		}
	}
	return bad;
}

static int stress_proc(unsigned int p, uint32_t jobs, uint32_t seed)
{
	struct slot *slots = calloc(E1P_DEPTH, sizeof(*slots));
	uint32_t rng = seed * 2654435761u + p + 1, j, n = 0, done = 0;
	struct e1npu_hw_op op;
	bool dp;
	struct e1t_dev d;
	char name[32];
	int ret, bad = 0;

	snprintf(name, sizeof(name), "stress-p%u", p);
	if (!slots || e1t_open(&d)) {
		e1t_fail(name, "open %s", e1t_dev_path());
		return 1;
	}
	dp = d.info.engines & (1u << DRM_E1NPU_ENGINE_DATAPATH);
	for (j = 0; j < E1P_DEPTH; j++) {
		if (e1t_bo_new(&d, E1P_BUF, &slots[j].a) ||
		    e1t_bo_new(&d, E1P_BUF, &slots[j].b) ||
		    e1t_bo_new(&d, E1P_BUF, &slots[j].c)) {
			e1t_fail(name, "buffers/syncobjs");
			return 1;
		}
	}
	for (j = 0; j < jobs; j++) {
		struct slot *s = &slots[n];

		e1t_fill_s8(s->a.map, E1P_BUF, &rng);
		e1t_fill_s8(s->b.map, E1P_BUF, &rng);
		memset(s->c.map, E1P_SENTINEL, E1P_BUF);
		memset(s->want, E1P_SENTINEL, E1P_BUF);
		s->engine = dp && (j & 1) ? DRM_E1NPU_ENGINE_DATAPATH :
					    DRM_E1NPU_ENGINE_WRAPPER;
		if (s->engine == DRM_E1NPU_ENGINE_DATAPATH)
			make_datapath(s, &rng, &op);
		else
			make_wrapper(s, d.info.align, &rng, &op);
		ret = e1t_submit(&d, s->engine, &op, 1, &s->job);
		if (ret) {
			e1t_log("%s: job %u %s: SUBMIT %s", name, j, s->what,
				strerror(-ret));
			bad++;
			continue;
		}
		if (++n == E1P_DEPTH) {
			bad += drain(&d, slots, n, name);
			done += n;
			n = 0;
		}
	}
	if (n) {
		bad += drain(&d, slots, n, name);
		done += n;
	}
	e1t_close(&d);
	if (bad)
		e1t_fail(name, "%d of %u jobs wrong", bad, jobs);
	else
		e1t_pass(name);
	e1t_log("%s: %u jobs verified (%s)", name, done,
		dp ? "wrapper + datapath" : "wrapper");
	return bad ? 1 : 0;
}

int e1p_stress(int argc, char **argv)
{
	unsigned int procs, p, failed = 0;
	uint32_t jobs, seed;
	uint64_t t0;
	int st;

	if (argc < 3)
		return 2;
	procs = strtoul(argv[0], NULL, 0);
	jobs = strtoul(argv[1], NULL, 0);
	seed = strtoul(argv[2], NULL, 0);
	t0 = e1t_now_ns();
	for (p = 0; p < procs; p++) {
		pid_t pid = fork();

		if (pid == 0)
			_exit(stress_proc(p, jobs, seed));
		if (pid < 0)
			failed++;
	}
	while (wait(&st) > 0)
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			failed++;
	e1t_log("stress: %u processes x %u jobs in %.1f s (seed %u)", procs,
		jobs, (e1t_now_ns() - t0) / 1e9, seed);
	if (failed)
		e1t_fail("stress", "%u of %u processes failed", failed, procs);
	else
		e1t_pass("stress");
	return failed ? 1 : 0;
}
