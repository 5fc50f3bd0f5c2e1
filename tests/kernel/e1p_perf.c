// SPDX-License-Identifier: MIT
/*
 * e1npu-proof perf ITERATIONS: latency of SUBMIT + wait (the job's
 * timeline out-sync point through DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT) of a
 * one-NOP wrapper job (one v0 NOP descriptor, no relocation), as a
 * ratio to a DRM_IOCTL_VERSION round trip (the cheapest DRM ioctl: the
 * floor of a syscall into the DRM core). Medians of ITERATIONS each.
 * The SUBMIT ioctl alone and the wait alone are printed too: they show
 * where the time goes. Then the cost of a command buffer against jobs:
 * one job of E1P_BATCH NOP descriptors against E1P_BATCH one-NOP jobs
 * (each its own SUBMIT, the last one waited for). The figures are
 * printed; the results "perf-nop-submit" and "perf-batch" fail only when
 * a job fails. Last, the same NOP job's path phase by phase, from the
 * kernel's trace events (e1p_trace.c: "perf-breakdown").
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e1p.h"
#include "e1npu_hw.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

uint64_t e1p_median(uint64_t *v, unsigned int n)
{
	qsort(v, n, sizeof(*v), cmp_u64);
	return v[n / 2];
}

#define E1P_BATCH	32

/*
 * NJOBS jobs of CMDS NOP descriptors each (one SUBMIT per job), until the
 * last one's point signals: its time in *T, and the last job's outcome
 * checked (done, all CMDS commands).
 */
static int e1p_jobs_timed(struct e1t_dev *d, const uint32_t *nops,
			  uint32_t cmds, unsigned int njobs, uint64_t *t)
{
	struct e1t_job job;
	struct e1t_result r;
	unsigned int j;
	uint64_t t0;
	int ret = 0;

	t0 = e1t_now_ns();
	for (j = 0; j < njobs && !ret; j++)
		ret = e1t_submit_cmds(d, DRM_E1NPU_ENGINE_WRAPPER, nops, cmds,
				      NULL, 0, &job);
	if (!ret)
		ret = e1t_timeline_wait(d, &d->timeline, &job.point, 1, 0,
					E1T_JOB_TIMEOUT_MS);
	*t = e1t_now_ns() - t0;
	if (!ret)
		ret = e1t_job_wait(d, &job, E1T_JOB_TIMEOUT_MS, &r);
	if (!ret && (r.state != DRM_E1NPU_JOB_STATE_DONE || r.cmds_done != cmds))
		ret = -EIO;
	return ret;
}

/*
 * One round of the batch comparison: the time of one job of E1P_BATCH
 * NOPs and of E1P_BATCH one-NOP jobs, each until the last point signals.
 */
static int e1p_batch_round(struct e1t_dev *d, const uint32_t *nops,
			   uint64_t *t_buf, uint64_t *t_jobs)
{
	int ret = e1p_jobs_timed(d, nops, E1P_BATCH, 1, t_buf);

	return ret ? ret : e1p_jobs_timed(d, nops, 1, E1P_BATCH, t_jobs);
}

/* the batch comparison, ROUNDS rounds after one warm-up */
static int e1p_batch(struct e1t_dev *d, unsigned int rounds)
{
	uint32_t nops[E1P_BATCH][E1_V0_DESC_WORDS];
	uint64_t *tb = calloc(rounds, sizeof(*tb));
	uint64_t *tj = calloc(rounds, sizeof(*tj));
	uint64_t mb, mj, w1, w2;
	unsigned int i;
	int ret = 0;

	if (!tb || !tj) {
		free(tb);
		free(tj);
		return -ENOMEM;
	}
	memset(nops, 0, sizeof(nops));
	for (i = 0; i < E1P_BATCH; i++)
		nops[i][E1_V0_DW_OP] = E1_V0_OP_NOP;
	ret = e1p_batch_round(d, &nops[0][0], &w1, &w2);
	for (i = 0; i < rounds && !ret; i++)
		ret = e1p_batch_round(d, &nops[0][0], &tb[i], &tj[i]);
	if (!ret) {
		mb = e1p_median(tb, rounds);
		mj = e1p_median(tj, rounds);
		printf("E1VM-PERF: batch-%u: one %u-descriptor job %llu ns (%llu ns per descriptor); %u one-descriptor jobs %llu ns (%llu ns per job, %.1fx the descriptor), %u rounds\n",
		       E1P_BATCH, E1P_BATCH, (unsigned long long)mb,
		       (unsigned long long)(mb / E1P_BATCH), E1P_BATCH,
		       (unsigned long long)mj,
		       (unsigned long long)(mj / E1P_BATCH),
		       mb ? (double)mj / mb : 0.0, rounds);
	}
	free(tb);
	free(tj);
	return ret;
}

int e1p_perf(int argc, char **argv)
{
	unsigned int n = argc > 0 ? strtoul(argv[0], NULL, 0) : 1000, i;
	uint64_t *tv = calloc(n, sizeof(*tv)), *ts = calloc(n, sizeof(*ts));
	uint64_t *tsub = calloc(n, sizeof(*tsub)), t1;
	struct e1t_result r;
	uint32_t nop[E1_V0_DESC_WORDS];
	struct drm_version ver;
	struct e1t_job job;
	struct e1t_dev d;
	uint64_t t0, mv, ms;
	int ret = 0;

	if (!n || !tv || !ts || !tsub || e1t_open(&d) || e1t_jobs_init(&d)) {
		e1t_fail("perf-nop-submit", "setup on %s", e1t_dev_path());
		return 1;
	}
	memset(nop, 0, sizeof(nop));
	nop[E1_V0_DW_OP] = E1_V0_OP_NOP;
	for (i = 0; i < n + n / 10; i++) {
		memset(&ver, 0, sizeof(ver));
		t0 = e1t_now_ns();
		ret = e1t_ioctl(d.fd, DRM_IOCTL_VERSION, &ver);
		if (i >= n / 10)
			tv[i - n / 10] = e1t_now_ns() - t0;
		if (ret)
			break;

		t0 = e1t_now_ns();
		ret = e1t_submit_cmds(&d, DRM_E1NPU_ENGINE_WRAPPER, nop, 1, NULL,
				      0, &job);
		t1 = e1t_now_ns();
		if (!ret)
			ret = e1t_timeline_wait(&d, &d.timeline, &job.point, 1, 0,
						E1T_JOB_TIMEOUT_MS);
		if (i >= n / 10) {
			ts[i - n / 10] = e1t_now_ns() - t0;
			tsub[i - n / 10] = t1 - t0;
		}
		if (ret)
			break;
		/* the outcome (not timed): the status record and the fence */
		ret = e1t_job_wait(&d, &job, E1T_JOB_TIMEOUT_MS, &r);
		if (!ret && (r.state != DRM_E1NPU_JOB_STATE_DONE || r.cmds_done != 1))
			ret = -EIO;
		if (ret)
			break;
	}
	if (ret) {
		e1t_fail("perf-nop-submit", "iteration %u: %s", i, strerror(-ret));
		return 1;
	}
	mv = e1p_median(tv, n);
	ms = e1p_median(ts, n);
	printf("E1VM-PERF: nop-submit-wait %llu ns (the SUBMIT ioctl alone %llu ns), drm-version %llu ns, ratio %.1f (target <= 5, %s, %u iterations)\n",
	       (unsigned long long)ms, (unsigned long long)e1p_median(tsub, n),
	       (unsigned long long)mv, mv ? (double)ms / mv : 0.0,
	       ms <= 5 * mv ? "met" : "NOT met", n);
	e1t_pass("perf-nop-submit");
	ret = e1p_batch(&d, n / 20 ? n / 20 : 1);
	if (ret)
		e1t_fail("perf-batch", "%s", strerror(-ret));
	else
		e1t_pass("perf-batch");
	e1p_trace_breakdown(&d, n / 10 < 20 ? 20 : n / 10 > 200 ? 200 : n / 10);
	e1t_close(&d);
	free(tv);
	free(ts);
	free(tsub);
	return 0;
}
