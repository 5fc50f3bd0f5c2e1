// SPDX-License-Identifier: MIT
/*
 * e1npu system tests of UAPI v2's completion side:
 *
 * sync     a timeline out-sync point signals and can be waited (a later
 *          point cannot); a job's status record reads QUEUED while it
 *          waits for an in-sync point the test holds back, then DONE with
 *          every command counted; jobs chained through timeline points
 *          (wrapper -> wrapper, wrapper -> datapath) wait for each other
 *          and compute the CPU reference of the chain; an in-sync on a
 *          signalled binary syncobj runs at once; an in-sync point above
 *          2^32 is waited for as such (not as its low 32 bits, a point
 *          already signalled); a SUBMIT whose second job's dependencies
 *          fail (-ENOMEM, debugfs fail_submit_deps) queues nothing, not
 *          even its first job; a datapath job of one SUBMIT waits for the
 *          wrapper job before it that writes its input. The jobs wait for
 *          a job made slow through the device's exec-delay-ms (QMP).
 * perfmon  PERFMON_CREATE/GET_VALUES/DESTROY: a matmul's MACs are counted
 *          exactly (M*N*K, the hardware contract's PERF_MACS), jobs without
 *          the perfmon are not, RESET zeroes, a 0xFF descriptor counts one
 *          fallback, a datapath GEMM_S8 tile its M*N*K; bad arguments.
 *
 * Expected outputs come from the CPU references of e1t_ref.c.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "e1t.h"
#include "e1npu_hw.h"

#define SENTINEL 0xa5

/* ---- sync ---------------------------------------------------------------- */

/* a RELU_S8 of @rows rows of 64 bytes, from @a at row @row to @c */
static void relu_op(struct e1npu_hw_op *op, const struct e1t_bo *a,
		    const struct e1t_bo *c, uint32_t row, uint32_t rows)
{
	memset(op, 0, sizeof(*op));
	op->opcode = E1NPU_HWOP_RELU_S8;
	op->m = rows;
	op->n = 64;
	op->a = e1t_t(a, 64ull * row, 64);
	op->c = e1t_t(c, 64ull * row, 64);
}

/*
 * The gate: an in-sync point must exist when a job names it (an
 * unsubmitted point is -EINVAL), so later jobs wait for a job that is
 * slow on purpose: the device takes gate_ms[try] per wrapper descriptor
 * (its exec-delay-ms), inside the driver's 2 s job timeout; the delay
 * goes back to 0 once the test has looked at the waiting jobs. A look
 * counts only if the gate was still running after it (gate_running): on
 * a slow guest (the debug kernel on a busy host) the gate may end first,
 * and the test runs again with a longer gate.
 */
static const char *const gate_ms[] = { "700", "1500" };
#define GATE_TRIES	(sizeof(gate_ms) / sizeof(gate_ms[0]))
#define E1T_AGAIN	1	/* inconclusive: nothing reported, run again */

static int gate_start(struct e1t_dev *d, const struct e1npu_hw_op *op,
		      unsigned int try, struct e1t_job *job)
{
	int ret = e1t_dev_set("exec-delay-ms", gate_ms[try]);

	if (ret)
		return ret;
	ret = e1t_submit(d, DRM_E1NPU_ENGINE_WRAPPER, op, 1, job);
	if (ret)
		e1t_dev_set("exec-delay-ms", "0");
	return ret;
}

static void gate_end(void)
{
	e1t_dev_set("exec-delay-ms", "0");
}

/* the gate job's point is still unsignalled */
static bool gate_running(struct e1t_dev *d, const struct e1t_job *gj)
{
	return e1t_timeline_wait(d, &d->timeline, &gj->point, 1, 0, 0) == -ETIME;
}

/* the gate ended before the look: say so, and whether to run again */
static int gate_too_short(const char *name, unsigned int try)
{
	if (try + 1 < GATE_TRIES) {
		e1t_log("%s: the %s ms gate ended before the look; again with %s ms",
			name, gate_ms[try], gate_ms[try + 1]);
		return E1T_AGAIN;
	}
	e1t_fail(name, "the %s ms gate ended before the waiting job could be looked at (guest too slow)",
		 gate_ms[try]);
	return 0;
}

static bool all_are(const uint8_t *p, size_t n, uint8_t v)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] != v)
			return false;
	return true;
}

static void t_timeline_out(struct e1t_dev *d)
{
	const char *name = "sync-timeline-out-point";
	struct e1t_bo a = { 0 }, c = { 0 };
	struct drm_e1npu_sync out;
	struct e1t_submit_args args;
	struct e1npu_hw_op op;
	struct e1t_result r;
	struct e1t_job job;
	uint32_t tl = 0, seed = 3;
	uint64_t pt = 5, later = 6, got = 0;
	uint8_t want[64 * 8];
	int ret;

	if (e1t_bo_new(d, 4096, &a) || e1t_bo_new(d, 4096, &c) ||
	    e1t_syncobj_create(d, &tl, false)) {
		e1t_fail(name, "buffers/syncobj");
		goto out;
	}
	e1t_fill_s8(a.map, 4096, &seed);
	memset(c.map, SENTINEL, 4096);
	e1t_ref_relu((int8_t *)a.map, 64, (int8_t *)want, 64, 8, 64);
	relu_op(&op, &a, &c, 0, 8);
	memset(&out, 0, sizeof(out));
	out.handle = tl;
	out.point = pt;
	memset(&args, 0, sizeof(args));
	args.engine = DRM_E1NPU_ENGINE_WRAPPER;
	args.ops = &op;
	args.nops = 1;
	args.out_syncs = &out;
	args.out_sync_count = 1;
	ret = e1t_submit_ex(d, &args, &job);
	if (ret) {
		e1t_fail(name, "submit: %s", strerror(-ret));
		goto out;
	}
	/* the test's own timeline, point 5: signalled when the job is done */
	ret = e1t_timeline_wait(d, &tl, &pt, 1, 0, E1T_JOB_TIMEOUT_MS);
	if (ret) {
		e1t_fail(name, "TIMELINE_WAIT for point 5: %s", strerror(-ret));
		goto out;
	}
	/* the job's output is there once the point signalled */
	if (!e1t_expect_bytes(name, c.map, want, sizeof(want)))
		goto out;
	if (!all_are(c.map + sizeof(want), 4096 - sizeof(want), SENTINEL)) {
		e1t_fail(name, "bytes past the output written");
		goto out;
	}
	ret = e1t_timeline_query(d, tl, &got);
	if (ret || got != pt) {
		e1t_fail(name, "SYNCOBJ_QUERY: %d, point %llu, want 5", ret,
			 (unsigned long long)got);
		goto out;
	}
	/* point 6 was never asked for: it does not signal */
	ret = e1t_timeline_wait(d, &tl, &later, 1,
				DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT, 100);
	if (ret != -ETIME) {
		e1t_fail(name, "TIMELINE_WAIT for point 6: %d, want -ETIME", ret);
		goto out;
	}
	ret = e1t_job_wait(d, &job, E1T_JOB_TIMEOUT_MS, &r);
	if (ret || r.state != DRM_E1NPU_JOB_STATE_DONE || r.cmds_done != 1)
		e1t_fail(name, "helper's wait %d: state %u error %d cmds_done %u",
			 ret, r.state, r.error, r.cmds_done);
	else
		e1t_pass(name);
out:
	if (tl)
		e1t_syncobj_destroy(d, tl);
	e1t_bo_free(d, &a);
	e1t_bo_free(d, &c);
}

/*
 * A job of two RELU commands held back by an in-sync on the point of a
 * slow job (the gate): QUEUED (nothing done, nothing written, its own
 * point unsignalled) while the gate runs, DONE with cmds_done 2 after.
 */
static int status_once(struct e1t_dev *d, unsigned int try)
{
	const char *name = "sync-status-queued-then-done";
	struct e1t_bo a = { 0 }, c = { 0 }, g = { 0 };
	struct drm_e1npu_job_status st;
	struct e1t_submit_args args;
	struct drm_e1npu_sync in;
	struct e1npu_hw_op ops[2], gop;
	struct e1t_result r;
	struct e1t_job job = { 0 }, gj = { 0 };
	uint32_t seed = 4;
	uint8_t want[64 * 16];
	bool gated = false, untouched;
	int ret, rc = 0;

	if (e1t_bo_new(d, 4096, &a) || e1t_bo_new(d, 4096, &c) ||
	    e1t_bo_new(d, 4096, &g)) {
		e1t_fail(name, "buffers");
		goto out;
	}
	e1t_fill_s8(a.map, 4096, &seed);
	memset(c.map, SENTINEL, 4096);
	e1t_ref_relu((int8_t *)a.map, 64, (int8_t *)want, 64, 16, 64);
	relu_op(&ops[0], &a, &c, 0, 8);
	relu_op(&ops[1], &a, &c, 8, 8);
	relu_op(&gop, &a, &g, 0, 1);
	ret = gate_start(d, &gop, try, &gj);
	if (ret) {
		e1t_fail(name, "the gate job: %s", strerror(-ret));
		goto out;
	}
	gated = true;
	memset(&in, 0, sizeof(in));
	in.handle = d->timeline;
	in.point = gj.point;
	memset(&args, 0, sizeof(args));
	args.engine = DRM_E1NPU_ENGINE_WRAPPER;
	args.ops = ops;
	args.nops = 2;
	args.in_syncs = &in;
	args.in_sync_count = 1;
	ret = e1t_submit_ex(d, &args, &job);
	if (ret) {
		e1t_fail(name, "submit behind the gate: %s", strerror(-ret));
		goto out_gate;
	}
	e1t_sleep_ms(250);
	e1t_job_status(d, &job, &st);
	untouched = all_are(c.map, 4096, SENTINEL);
	ret = e1t_timeline_wait(d, &d->timeline, &job.point, 1, 0, 0);
	if (!gate_running(d, &gj)) {
		rc = gate_too_short(name, try);
		goto out_gate;
	}
	gate_end();
	gated = false;
	if (st.state != DRM_E1NPU_JOB_STATE_QUEUED || st.cmds_done || st.error ||
	    st.fail_index || st.err_code || st.pad) {
		e1t_fail(name, "held back: record state %u error %d cmds_done %u fail_index %u err_code 0x%x pad 0x%x, want QUEUED and zeros",
			 st.state, st.error, st.cmds_done, st.fail_index,
			 st.err_code, st.pad);
		goto out_gate;
	}
	if (ret != -ETIME) {
		e1t_fail(name, "the job's point signalled before its in-sync: %d", ret);
		goto out_gate;
	}
	if (!untouched) {
		e1t_fail(name, "the output was written before the in-sync signalled");
		goto out_gate;
	}
	ret = e1t_job_wait(d, &job, E1T_JOB_TIMEOUT_MS, &r);
	if (ret)
		e1t_fail(name, "wait: %s", strerror(-ret));
	else if (r.state != DRM_E1NPU_JOB_STATE_DONE || r.error ||
		 r.fence_error || r.cmds_done != 2)
		e1t_fail(name, "state %u error %d fence %d cmds_done %u, want DONE/0/0/2",
			 r.state, r.error, r.fence_error, r.cmds_done);
	else if (!e1t_expect_bytes(name, c.map, want, sizeof(want)))
		; /* reported */
	else if (!all_are(c.map + sizeof(want), 4096 - sizeof(want), SENTINEL))
		e1t_fail(name, "bytes past the output written");
	else
		e1t_pass(name);
out_gate:
	if (gated)
		gate_end();
	if (gj.point)
		e1t_job_wait(d, &gj, E1T_JOB_TIMEOUT_MS, &r);
	if (job.point)
		e1t_job_wait(d, &job, E1T_JOB_TIMEOUT_MS, &r);
out:
	e1t_bo_free(d, &a);
	e1t_bo_free(d, &c);
	e1t_bo_free(d, &g);
	return rc;
}

static void t_status_queued_done(struct e1t_dev *d)
{
	unsigned int try;

	for (try = 0; try < GATE_TRIES; try++)
		if (status_once(d, try) != E1T_AGAIN)
			break;
}

/*
 * Job A (wrapper MATMUL_S8 M x 3 x K into c) is slow on purpose (the
 * gate); job B waits for A's timeline point and reads A's output: on the
 * wrapper a RELU_S8 over its bytes, on the datapath (when present) one
 * DP_SCALAR ADD per 12 bytes of c (a row of three int32 is one {op_a,
 * op_b, acc} record: c0 + c1). B must not run before A: on the datapath
 * nothing else would hold it back, so its output keeps its sentinel until
 * A is done, then holds the CPU's chain.
 */
static int chain_once(struct e1t_dev *d, bool dp, unsigned int try)
{
	const char *name = dp ? "sync-chain-wrapper-to-datapath" :
				"sync-chain-wrapper-to-wrapper";
	enum { M = 12, N = 3, K = 20, AS = 32, BS = 16, CS = 16 };
	struct e1t_bo a = { 0 }, b = { 0 }, c = { 0 }, o = { 0 };
	struct drm_e1npu_job_status st;
	struct e1t_submit_args args;
	struct drm_e1npu_sync in;
	struct e1npu_hw_op opa, opb;
	struct e1t_job ja = { 0 }, jb = { 0 };
	struct e1t_result r;
	uint32_t seed = dp ? 5 : 6, i;
	int32_t cref[M * CS / 4];
	uint8_t want[4096];
	bool gated = false, untouched;
	int ret, rc = 0;

	if (e1t_bo_new(d, 4096, &a) || e1t_bo_new(d, 4096, &b) ||
	    e1t_bo_new(d, 4096, &c) || e1t_bo_new(d, 4096, &o)) {
		e1t_fail(name, "buffers");
		goto out;
	}
	e1t_fill_s8(a.map, 4096, &seed);
	e1t_fill_s8(b.map, 4096, &seed);
	memset(c.map, SENTINEL, 4096);
	memset(o.map, SENTINEL, 4096);
	memset(want, SENTINEL, sizeof(want));
	memset(cref, SENTINEL, sizeof(cref));
	e1t_ref_matmul((int8_t *)a.map, AS, (int8_t *)b.map, BS, cref, CS / 4,
		       M, N, K, false);
	memset(&opa, 0, sizeof(opa));
	opa.opcode = E1NPU_HWOP_MATMUL_S8;
	opa.m = M;
	opa.n = N;
	opa.k = K;
	opa.a = e1t_t(&a, 0, AS);
	opa.b = e1t_t(&b, 0, BS);
	opa.c = e1t_t(&c, 0, CS);
	memset(&opb, 0, sizeof(opb));
	if (dp) {
		/* four 12-byte records from the start of c, as c's bytes
		 * lie in memory (rows 16 bytes apart, the gaps untouched):
		 * words 3i, 3i + 1 of that image */
		for (i = 0; i < 4; i++) {
			const int32_t *rec = cref + 3 * i;
			uint32_t res[2];

			res[0] = (uint32_t)rec[0] + (uint32_t)rec[1];
			res[1] = 0;
			memcpy(want + 8 * i, res, 8);
		}
		opb.opcode = E1NPU_HWOP_DP_SCALAR;
		opb.m = 4;
		opb.k = E1_DP_OP_ADD;
		opb.a = e1t_t(&c, 0, 0);
		opb.c = e1t_t(&o, 0, 0);
	} else {
		e1t_ref_relu((int8_t *)cref, CS, (int8_t *)want, CS, M, 4 * N);
		opb.opcode = E1NPU_HWOP_RELU_S8;
		opb.m = M;
		opb.n = 4 * N;
		opb.a = e1t_t(&c, 0, CS);
		opb.c = e1t_t(&o, 0, CS);
	}
	ret = gate_start(d, &opa, try, &ja);
	if (ret) {
		e1t_fail(name, "submit A: %s", strerror(-ret));
		goto out;
	}
	gated = true;
	/* B waits for A's point of the helper's timeline */
	memset(&in, 0, sizeof(in));
	in.handle = d->timeline;
	in.point = ja.point;
	memset(&args, 0, sizeof(args));
	args.engine = dp ? DRM_E1NPU_ENGINE_DATAPATH : DRM_E1NPU_ENGINE_WRAPPER;
	args.ops = &opb;
	args.nops = 1;
	args.in_syncs = &in;
	args.in_sync_count = 1;
	ret = e1t_submit_ex(d, &args, &jb);
	if (ret) {
		e1t_fail(name, "submit B: %s", strerror(-ret));
		goto out_gate;
	}
	e1t_sleep_ms(250);
	e1t_job_status(d, &jb, &st);
	untouched = all_are(o.map, 4096, SENTINEL);
	if (!gate_running(d, &ja)) {
		rc = gate_too_short(name, try);
		goto out_gate;
	}
	gate_end();
	gated = false;
	if (st.state != DRM_E1NPU_JOB_STATE_QUEUED || !untouched) {
		e1t_fail(name, "while A ran: B's record state %u, B's output %s",
			 st.state, untouched ? "untouched" : "written");
		goto out_gate;
	}
	ret = e1t_job_wait(d, &jb, E1T_JOB_TIMEOUT_MS, &r);
	if (ret || r.state != DRM_E1NPU_JOB_STATE_DONE) {
		e1t_fail(name, "B: wait %d state %u error %d", ret, r.state, r.error);
		goto out_gate;
	}
	ret = e1t_job_wait(d, &ja, E1T_JOB_TIMEOUT_MS, &r);
	if (ret || r.state != DRM_E1NPU_JOB_STATE_DONE) {
		e1t_fail(name, "A: wait %d state %u error %d", ret, r.state, r.error);
		goto out;
	}
	if (e1t_expect_i32(name, (const int32_t *)c.map, cref, M * CS / 4) &&
	    e1t_expect_bytes(name, o.map, want, sizeof(want)))
		e1t_pass(name);
	goto out;
out_gate:
	if (gated)
		gate_end();
	if (ja.point)
		e1t_job_wait(d, &ja, E1T_JOB_TIMEOUT_MS, &r);
	if (jb.point)
		e1t_job_wait(d, &jb, E1T_JOB_TIMEOUT_MS, &r);
out:
	e1t_bo_free(d, &a);
	e1t_bo_free(d, &b);
	e1t_bo_free(d, &c);
	e1t_bo_free(d, &o);
	return rc;
}

static void t_chain(struct e1t_dev *d, bool dp)
{
	unsigned int try;

	for (try = 0; try < GATE_TRIES; try++)
		if (chain_once(d, dp, try) != E1T_AGAIN)
			break;
}

/* an in-sync on a signalled binary syncobj (point 0) does not hold a job */
static void t_binary_in(struct e1t_dev *d)
{
	const char *name = "sync-binary-in-signalled";
	struct e1t_bo a = { 0 }, c = { 0 };
	struct e1t_submit_args args;
	struct drm_e1npu_sync in;
	struct e1npu_hw_op op;
	struct e1t_result r;
	struct e1t_job job;
	uint32_t s = 0, seed = 7;
	uint8_t want[64 * 4];
	int ret;

	if (e1t_bo_new(d, 4096, &a) || e1t_bo_new(d, 4096, &c) ||
	    e1t_syncobj_create(d, &s, true)) {
		e1t_fail(name, "buffers/syncobj");
		goto out;
	}
	e1t_fill_s8(a.map, 4096, &seed);
	e1t_ref_relu((int8_t *)a.map, 64, (int8_t *)want, 64, 4, 64);
	relu_op(&op, &a, &c, 0, 4);
	memset(&in, 0, sizeof(in));
	in.handle = s;
	memset(&args, 0, sizeof(args));
	args.engine = DRM_E1NPU_ENGINE_WRAPPER;
	args.ops = &op;
	args.nops = 1;
	args.in_syncs = &in;
	args.in_sync_count = 1;
	ret = e1t_submit_ex(d, &args, &job);
	if (!ret)
		ret = e1t_job_wait(d, &job, 10000, &r);
	if (ret || r.state != DRM_E1NPU_JOB_STATE_DONE)
		e1t_fail(name, "ret %d state %u error %d", ret, r.state, r.error);
	else if (e1t_expect_bytes(name, c.map, want, sizeof(want)))
		e1t_pass(name);
out:
	if (s)
		e1t_syncobj_destroy(d, s);
	e1t_bo_free(d, &a);
	e1t_bo_free(d, &c);
}

/* DP_SCALAR ADD of @recs 12-byte records of @a into @o */
static void dp_add_op(struct e1npu_hw_op *op, const struct e1t_bo *a,
		      const struct e1t_bo *o, uint32_t recs)
{
	memset(op, 0, sizeof(*op));
	op->opcode = E1NPU_HWOP_DP_SCALAR;
	op->m = recs;
	op->k = E1_DP_OP_ADD;
	op->a = e1t_t(a, 0, 0);
	op->c = e1t_t(o, 0, 0);
}

/* what dp_add_op() writes from the bytes @in: {op_a + op_b, 0} per record,
 * the rest of the 4096 bytes of @want SENTINEL */
static void dp_add_ref(const uint8_t *in, uint32_t recs, uint8_t *want)
{
	uint32_t i, w[3], res[2];

	memset(want, SENTINEL, 4096);
	for (i = 0; i < recs; i++) {
		memcpy(w, in + 12 * i, sizeof(w));
		res[0] = w[0] + w[1];
		res[1] = 0;
		memcpy(want + 8 * i, res, sizeof(res));
	}
}

/*
 * Timeline points are 64-bit. Point 1 of the test's timeline is signalled
 * from the CPU; point 2^32 + 1 is the out-sync of a job made slow (the
 * gate). A datapath job waiting for 2^32 + 1 must stay QUEUED, its output
 * untouched, while the gate runs on the wrapper (nothing else holds it
 * back: a kernel that truncated the point to 32 bits waits for point 1,
 * signalled, and runs it at once), then run.
 */
static int in_point_64_once(struct e1t_dev *d, unsigned int try)
{
	const char *name = "sync-in-point-64bit";
	const uint64_t far = (1ull << 32) + 1;
	struct e1t_bo a = { 0 }, g = { 0 }, o = { 0 };
	struct drm_e1npu_job_status st;
	struct e1t_submit_args args;
	struct drm_e1npu_sync gout, in;
	struct e1npu_hw_op gop, op;
	struct e1t_job gj = { 0 }, job = { 0 };
	struct e1t_result r;
	uint32_t tl = 0, seed = 9;
	uint64_t got = 0;
	uint8_t want[4096];
	bool gated = false, running, untouched;
	int ret, again = 0;

	if (e1t_bo_new(d, 4096, &a) || e1t_bo_new(d, 4096, &g) ||
	    e1t_bo_new(d, 4096, &o) || e1t_syncobj_create(d, &tl, false)) {
		e1t_fail(name, "buffers/syncobj");
		goto out;
	}
	e1t_fill_s8(a.map, 4096, &seed);
	memset(o.map, SENTINEL, 4096);
	dp_add_ref(a.map, 4, want);
	ret = e1t_timeline_signal(d, tl, 1);
	if (ret) {
		e1t_fail(name, "signal point 1: %s", strerror(-ret));
		goto out;
	}
	/* the gate: a slow wrapper job that signals point 2^32 + 1 */
	relu_op(&gop, &a, &g, 0, 1);
	ret = e1t_dev_set("exec-delay-ms", gate_ms[try]);
	if (ret) {
		e1t_fail(name, "set exec-delay-ms: %s", strerror(-ret));
		goto out;
	}
	gated = true;
	memset(&gout, 0, sizeof(gout));
	gout.handle = tl;
	gout.point = far;
	memset(&args, 0, sizeof(args));
	args.engine = DRM_E1NPU_ENGINE_WRAPPER;
	args.ops = &gop;
	args.nops = 1;
	args.out_syncs = &gout;
	args.out_sync_count = 1;
	ret = e1t_submit_ex(d, &args, &gj);
	if (ret) {
		e1t_fail(name, "the gate job: %s", strerror(-ret));
		goto out_gate;
	}
	/* the datapath job waits for point 2^32 + 1 */
	dp_add_op(&op, &a, &o, 4);
	memset(&in, 0, sizeof(in));
	in.handle = tl;
	in.point = far;
	memset(&args, 0, sizeof(args));
	args.engine = DRM_E1NPU_ENGINE_DATAPATH;
	args.ops = &op;
	args.nops = 1;
	args.in_syncs = &in;
	args.in_sync_count = 1;
	ret = e1t_submit_ex(d, &args, &job);
	if (ret) {
		e1t_fail(name, "submit waiting for point 2^32 + 1: %s",
			 strerror(-ret));
		goto out_gate;
	}
	e1t_sleep_ms(250);
	/* the look: record, point and output, all before the gate's check */
	e1t_job_status(d, &job, &st);
	ret = e1t_timeline_wait(d, &d->timeline, &job.point, 1, 0, 0);
	untouched = all_are(o.map, 4096, SENTINEL);
	running = gate_running(d, &gj);
	gate_end();
	gated = false;
	if (!running) {
		again = gate_too_short(name, try);
		goto out_gate;
	}
	if (st.state != DRM_E1NPU_JOB_STATE_QUEUED || ret != -ETIME || !untouched) {
		e1t_fail(name, "while point 2^32 + 1 was pending: record state %u, out point %s, output %s: the job did not wait for it (point 1?)",
			 st.state, ret == -ETIME ? "pending" : "signalled",
			 untouched ? "untouched" : "written");
		goto out_gate;
	}
	ret = e1t_job_wait(d, &job, E1T_JOB_TIMEOUT_MS, &r);
	if (ret || r.state != DRM_E1NPU_JOB_STATE_DONE || r.error) {
		e1t_fail(name, "after the gate: wait %d state %u error %d",
			 ret, r.state, r.error);
		goto out_gate;
	}
	ret = e1t_timeline_query(d, tl, &got);
	if (ret || got != far)
		e1t_fail(name, "timeline at %llu (%d), want 2^32 + 1",
			 (unsigned long long)got, ret);
	else if (e1t_expect_bytes(name, o.map, want, sizeof(want)))
		e1t_pass(name);
out_gate:
	if (gated)
		gate_end();
	if (gj.point)
		e1t_job_wait(d, &gj, E1T_JOB_TIMEOUT_MS, &r);
	if (job.point)
		e1t_job_wait(d, &job, E1T_JOB_TIMEOUT_MS, &r);
out:
	if (tl)
		e1t_syncobj_destroy(d, tl);
	e1t_bo_free(d, &a);
	e1t_bo_free(d, &g);
	e1t_bo_free(d, &o);
	return again;
}

static void t_in_point_64(struct e1t_dev *d)
{
	unsigned int try;

	for (try = 0; try < GATE_TRIES; try++)
		if (in_point_64_once(d, try) != E1T_AGAIN)
			break;
}

/* One untracked job of one op signalling @point of timeline @tl. */
struct raw_job {
	struct drm_e1npu_job j;
	struct drm_e1npu_sync out;
	void *cmds;
	struct drm_e1npu_reloc *relocs;
};

static int raw_job_init(struct raw_job *rj, uint32_t engine,
			const struct e1npu_hw_op *op, uint32_t tl,
			uint64_t point)
{
	uint32_t nrel = 0;
	int ret;

	memset(rj, 0, sizeof(*rj));
	ret = e1t_encode(engine, op, 1, &rj->cmds, &rj->relocs, &nrel);
	if (ret)
		return ret;
	rj->out.handle = tl;
	rj->out.point = point;
	rj->j.engine = engine;
	rj->j.cmds = (uintptr_t)rj->cmds;
	rj->j.cmd_count = 1;
	rj->j.relocs = (uintptr_t)rj->relocs;
	rj->j.reloc_count = nrel;
	rj->j.out_syncs = (uintptr_t)&rj->out;
	rj->j.out_sync_count = 1;
	return 0;
}

static void raw_job_fini(struct raw_job *rj)
{
	free(rj->cmds);
	free(rj->relocs);
}

/* debugfs fail_submit_deps of the device at @dev_path */
static int fail_deps_path(const char *dev_path, char *buf, size_t len)
{
	char link[PATH_MAX], target[PATH_MAX];
	const char *base;
	ssize_t n;
	int ret;

	ret = e1t_dev_sysfs(dev_path, link, sizeof(link));
	if (ret)
		return ret;
	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0)
		return -errno;
	target[n] = 0;
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	if ((size_t)snprintf(buf, len, "/sys/kernel/debug/accel/%.200s/fail_submit_deps",
			     base) >= len)
		return -ENAMETOOLONG;
	return access(buf, W_OK) ? -errno : 0;
}

/*
 * All or nothing: a SUBMIT of two wrapper jobs whose second job's
 * dependencies fail with -ENOMEM (fault injection: debugfs
 * fail_submit_deps = 2) returns -ENOMEM and queues nothing: the first
 * job's out point is never submitted (a wait for its submission times
 * out), its output stays untouched. The same SUBMIT then runs whole.
 */
static void t_all_or_nothing(struct e1t_dev *d)
{
	const char *name = "sync-submit-all-or-nothing";
	struct e1t_bo a = { 0 }, c = { 0 };
	struct raw_job rj[2] = { 0 };
	struct drm_e1npu_job jobs[2];
	struct e1npu_hw_op op[2];
	char knob[PATH_MAX], val[16];
	uint32_t tl = 0, seed = 10;
	uint64_t pt1 = 1, pt2 = 2, got = 5;
	uint8_t want[64 * 16];
	int ret, i;

	ret = fail_deps_path(e1t_dev_path(), knob, sizeof(knob));
	if (ret) {
		e1t_fail(name, "debugfs fail_submit_deps of %s: %s",
			 e1t_dev_path(), strerror(-ret));
		return;
	}
	if (e1t_bo_new(d, 4096, &a) || e1t_bo_new(d, 4096, &c) ||
	    e1t_syncobj_create(d, &tl, false)) {
		e1t_fail(name, "buffers/syncobj");
		goto out;
	}
	e1t_fill_s8(a.map, 4096, &seed);
	memset(c.map, SENTINEL, 4096);
	e1t_ref_relu((int8_t *)a.map, 64, (int8_t *)want, 64, 16, 64);
	for (i = 0; i < 2; i++) {
		relu_op(&op[i], &a, &c, 8 * i, 8);
		ret = raw_job_init(&rj[i], DRM_E1NPU_ENGINE_WRAPPER, &op[i],
				   tl, i + 1);
		if (ret) {
			e1t_fail(name, "encode: %s", strerror(-ret));
			goto out;
		}
		jobs[i] = rj[i].j;
	}
	ret = e1t_write_file(knob, "2");
	if (ret) {
		e1t_fail(name, "write %s: %s", knob, strerror(-ret));
		goto out;
	}
	ret = e1t_submit_jobs(d, jobs, 2, 0, 0, 0);
	if (ret != -ENOMEM) {
		e1t_write_file(knob, "0");
		e1t_fail(name, "SUBMIT with job 1's dependencies failing: %d, want -ENOMEM",
			 ret);
		goto out;
	}
	if (e1t_read_file(knob, val, sizeof(val)) || strcmp(val, "0")) {
		e1t_write_file(knob, "0");
		e1t_fail(name, "fail_submit_deps still armed (%s)", val);
		goto out;
	}
	/* job 0 must not have been queued: point 1 never gets a fence */
	ret = e1t_timeline_wait(d, &tl, &pt1, 1,
				DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT, 1000);
	e1t_timeline_query(d, tl, &got);
	if (ret != -ETIME || got != 0 || !all_are(c.map, 4096, SENTINEL)) {
		e1t_fail(name, "after the failed SUBMIT: wait for point 1 %d (want -ETIME), timeline at %llu, output %s: job 0 was queued",
			 ret, (unsigned long long)got,
			 all_are(c.map, 4096, SENTINEL) ? "untouched" : "written");
		e1t_timeline_wait(d, &tl, &pt1, 1, 0, E1T_JOB_TIMEOUT_MS);
		goto out;
	}
	ret = e1t_submit_jobs(d, jobs, 2, 0, 0, 0);
	if (!ret)
		ret = e1t_timeline_wait(d, &tl, &pt2, 1, 0, E1T_JOB_TIMEOUT_MS);
	if (ret)
		e1t_fail(name, "the same SUBMIT without the fault: %s",
			 strerror(-ret));
	else if (e1t_expect_bytes(name, c.map, want, sizeof(want)))
		e1t_pass(name);
out:
	for (i = 0; i < 2; i++)
		raw_job_fini(&rj[i]);
	if (tl)
		e1t_syncobj_destroy(d, tl);
	e1t_bo_free(d, &a);
	e1t_bo_free(d, &c);
}

/*
 * Implicit sync inside one SUBMIT: job 0 (wrapper, slow: the gate) writes
 * c, job 1 (datapath) reads c. Job 1 must wait for job 0 although nothing
 * else holds it back on its own engine: its out point stays pending and
 * its output untouched while job 0 runs, then it computes from job 0's
 * output.
 */
static int intra_order_once(struct e1t_dev *d, unsigned int try)
{
	const char *name = "sync-submit-intra-wrapper-to-datapath";
	struct e1t_bo a = { 0 }, c = { 0 }, o = { 0 };
	struct raw_job rj[2] = { 0 };
	struct drm_e1npu_job jobs[2];
	struct e1npu_hw_op op[2];
	uint32_t tl = 0, seed = 12;
	uint64_t pt1 = 1, pt2 = 2;
	uint8_t relu[64 * 16], want[4096];
	bool gated = false, running, untouched;
	int ret, i, again = 0;

	if (e1t_bo_new(d, 4096, &a) || e1t_bo_new(d, 4096, &c) ||
	    e1t_bo_new(d, 4096, &o) || e1t_syncobj_create(d, &tl, false)) {
		e1t_fail(name, "buffers/syncobj");
		goto out;
	}
	e1t_fill_s8(a.map, 4096, &seed);
	memset(c.map, SENTINEL, 4096);
	memset(o.map, SENTINEL, 4096);
	e1t_ref_relu((int8_t *)a.map, 64, (int8_t *)relu, 64, 16, 64);
	dp_add_ref(relu, 4, want);
	relu_op(&op[0], &a, &c, 0, 16);
	dp_add_op(&op[1], &c, &o, 4);
	for (i = 0; i < 2; i++) {
		ret = raw_job_init(&rj[i], i ? DRM_E1NPU_ENGINE_DATAPATH :
				   DRM_E1NPU_ENGINE_WRAPPER, &op[i], tl, i + 1);
		if (ret) {
			e1t_fail(name, "encode: %s", strerror(-ret));
			goto out;
		}
		jobs[i] = rj[i].j;
	}
	ret = e1t_dev_set("exec-delay-ms", gate_ms[try]);
	if (ret) {
		e1t_fail(name, "set exec-delay-ms: %s", strerror(-ret));
		goto out;
	}
	gated = true;
	ret = e1t_submit_jobs(d, jobs, 2, 0, 0, 0);
	if (ret) {
		e1t_fail(name, "submit: %s", strerror(-ret));
		goto out;
	}
	e1t_sleep_ms(250);
	/* the look (job 1's point and output), then job 0 still running */
	ret = e1t_timeline_wait(d, &tl, &pt2, 1, 0, 0);
	untouched = all_are(o.map, 4096, SENTINEL);
	running = e1t_timeline_wait(d, &tl, &pt1, 1, 0, 0) == -ETIME;
	gate_end();
	gated = false;
	if (!running) {
		again = gate_too_short(name, try);
		e1t_timeline_wait(d, &tl, &pt2, 1, 0, E1T_JOB_TIMEOUT_MS);
		goto out;
	}
	if (ret != -ETIME || !untouched) {
		e1t_fail(name, "while job 0 ran: job 1's point %s (%d), its output %s",
			 ret ? "pending" : "signalled", ret,
			 untouched ? "untouched" : "written");
		e1t_timeline_wait(d, &tl, &pt2, 1, 0, E1T_JOB_TIMEOUT_MS);
		goto out;
	}
	ret = e1t_timeline_wait(d, &tl, &pt2, 1, 0, E1T_JOB_TIMEOUT_MS);
	if (ret)
		e1t_fail(name, "wait for job 1: %s", strerror(-ret));
	else if (e1t_expect_bytes(name, c.map, relu, sizeof(relu)) &&
		 e1t_expect_bytes(name, o.map, want, sizeof(want)))
		e1t_pass(name);
out:
	if (gated)
		gate_end();
	for (i = 0; i < 2; i++)
		raw_job_fini(&rj[i]);
	if (tl)
		e1t_syncobj_destroy(d, tl);
	e1t_bo_free(d, &a);
	e1t_bo_free(d, &c);
	e1t_bo_free(d, &o);
	return again;
}

static void t_intra_order(struct e1t_dev *d)
{
	unsigned int try;

	for (try = 0; try < GATE_TRIES; try++)
		if (intra_order_once(d, try) != E1T_AGAIN)
			break;
}

int e1t_group_sync(void)
{
	struct e1t_dev d;
	int ret;

	ret = e1t_open(&d);
	if (ret) {
		e1t_fail("sync-open", "%s: %s", e1t_dev_path(), strerror(-ret));
		return 1;
	}
	t_timeline_out(&d);
	t_status_queued_done(&d);
	t_chain(&d, false);
	if (d.info.engines & (1u << DRM_E1NPU_ENGINE_DATAPATH))
		t_chain(&d, true);
	else
		e1t_skip("sync-chain-wrapper-to-datapath", "no datapath engine");
	t_binary_in(&d);
	if (d.info.engines & (1u << DRM_E1NPU_ENGINE_DATAPATH)) {
		t_in_point_64(&d);
		t_intra_order(&d);
	} else {
		e1t_skip("sync-in-point-64bit", "no datapath engine");
		e1t_skip("sync-submit-intra-wrapper-to-datapath",
			 "no datapath engine");
	}
	t_all_or_nothing(&d);
	e1t_close(&d);
	return e1t_failures;
}

/* ---- perfmon -------------------------------------------------------------- */

static int pm_create(struct e1t_dev *d, const uint8_t *counters, uint32_t n,
		     uint32_t *id)
{
	struct drm_e1npu_perfmon_create c;
	int ret;

	memset(&c, 0, sizeof(c));
	c.ncounters = n;
	memcpy(c.counters, counters, n < DRM_E1NPU_MAX_PERF_COUNTERS ? n :
	       DRM_E1NPU_MAX_PERF_COUNTERS);
	ret = e1t_ioctl(d->fd, DRM_IOCTL_E1NPU_PERFMON_CREATE, &c);
	*id = ret ? 0 : c.id;
	return ret;
}

static int pm_get(struct e1t_dev *d, uint32_t id, uint32_t flags,
		  uint64_t *values)
{
	struct drm_e1npu_perfmon_get_values g;

	memset(&g, 0, sizeof(g));
	g.id = id;
	g.flags = flags;
	g.values_ptr = (uintptr_t)values;
	return e1t_ioctl(d->fd, DRM_IOCTL_E1NPU_PERFMON_GET_VALUES, &g);
}

static int pm_destroy(struct e1t_dev *d, uint32_t id)
{
	struct drm_e1npu_perfmon_destroy x;

	memset(&x, 0, sizeof(x));
	x.id = id;
	return e1t_ioctl(d->fd, DRM_IOCTL_E1NPU_PERFMON_DESTROY, &x);
}

/* run @ops counted in perfmon @pm (0: none); 0 or as e1t_run() */
static int pm_run(struct e1t_dev *d, uint32_t engine,
		  const struct e1npu_hw_op *ops, uint32_t n, uint32_t pm,
		  struct e1t_result *r)
{
	struct e1t_submit_args args;
	struct e1t_job job;
	int ret;

	memset(&args, 0, sizeof(args));
	args.engine = engine;
	args.ops = ops;
	args.nops = n;
	args.perfmon_id = pm;
	ret = e1t_submit_ex(d, &args, &job);
	if (!ret)
		ret = e1t_job_wait(d, &job, E1T_JOB_TIMEOUT_MS, r);
	if (ret)
		return ret;
	return r->state == DRM_E1NPU_JOB_STATE_DONE ? 0 : 1;
}

static void mm_op(struct e1npu_hw_op *op, const struct e1t_bo *a,
		  const struct e1t_bo *b, const struct e1t_bo *c, uint32_t m,
		  uint32_t n, uint32_t k)
{
	memset(op, 0, sizeof(*op));
	op->opcode = E1NPU_HWOP_MATMUL_S8;
	op->m = m;
	op->n = n;
	op->k = k;
	op->a = e1t_t(a, 0, e1t_align(k, 16));
	op->b = e1t_t(b, 0, e1t_align(n, 16));
	op->c = e1t_t(c, 0, e1t_align(4 * n, 16));
}

static void expect_ret(const char *name, int ret, int want)
{
	if (ret != want)
		e1t_fail(name, "returned %d, want %d", ret, want);
	else
		e1t_pass(name);
}

int e1t_group_perfmon(void)
{
	static const uint8_t wc[3] = {
		DRM_E1NPU_PERF_WRAPPER_MACS, DRM_E1NPU_PERF_WRAPPER_CYCLES,
		DRM_E1NPU_PERF_WRAPPER_FALLBACKS,
	};
	const char *name = "perfmon-matmul-macs";
	struct e1t_bo a = { 0 }, b = { 0 }, c = { 0 };
	struct e1t_dev d, other;
	struct e1npu_hw_op op;
	struct e1t_result r;
	uint64_t v[DRM_E1NPU_MAX_PERF_COUNTERS];
	uint64_t macs1 = 5ull * 12 * 40, macs2 = 16ull * 16 * 16;
	uint32_t pm = 0, pm2 = 0, seed = 8;
	uint8_t many[DRM_E1NPU_MAX_PERF_COUNTERS + 1];
	int ret;

	ret = e1t_open(&d);
	if (ret) {
		e1t_fail("perfmon-open", "%s: %s", e1t_dev_path(), strerror(-ret));
		return 1;
	}
	if (!(d.info.engines & (1u << DRM_E1NPU_ENGINE_WRAPPER)) ||
	    !(d.info.wrapper_caps & E1_V0_CAPS_GEMMINI)) {
		e1t_skip("perfmon", "no wrapper with Gemmini");
		e1t_close(&d);
		return 0;
	}
	if (e1t_bo_new(&d, 4096, &a) || e1t_bo_new(&d, 4096, &b) ||
	    e1t_bo_new(&d, 4096, &c)) {
		e1t_fail(name, "buffers");
		goto out;
	}
	e1t_fill_s8(a.map, 4096, &seed);
	e1t_fill_s8(b.map, 4096, &seed);
	ret = pm_create(&d, wc, 3, &pm);
	if (ret || !pm) {
		e1t_fail(name, "PERFMON_CREATE: %d id %u", ret, pm);
		goto out;
	}
	memset(v, 0xff, sizeof(v));
	ret = pm_get(&d, pm, 0, v);
	if (ret || v[0] || v[1] || v[2]) {
		e1t_fail(name, "a new perfmon: %d, values %llu %llu %llu, want zeros",
			 ret, (unsigned long long)v[0], (unsigned long long)v[1],
			 (unsigned long long)v[2]);
		goto out;
	}
	/* one matmul counted: exactly M*N*K MACs, some cycles, no fallback */
	mm_op(&op, &a, &b, &c, 5, 12, 40);
	ret = pm_run(&d, DRM_E1NPU_ENGINE_WRAPPER, &op, 1, pm, &r);
	if (!ret)
		ret = pm_get(&d, pm, 0, v);
	if (ret) {
		e1t_fail(name, "job/GET_VALUES: %d state %u error %d", ret, r.state,
			 r.error);
		goto out;
	}
	e1t_log("%s: 5x12x40: macs %llu cycles %llu fallbacks %llu", name,
		(unsigned long long)v[0], (unsigned long long)v[1],
		(unsigned long long)v[2]);
	if (v[0] != macs1 || !v[1] || v[2])
		e1t_fail(name, "macs %llu (want %llu), cycles %llu (want > 0), fallbacks %llu (want 0)",
			 (unsigned long long)v[0], (unsigned long long)macs1,
			 (unsigned long long)v[1], (unsigned long long)v[2]);
	else
		e1t_pass(name);

	/* a job without the perfmon adds nothing; another with it adds */
	mm_op(&op, &a, &b, &c, 16, 16, 16);
	ret = pm_run(&d, DRM_E1NPU_ENGINE_WRAPPER, &op, 1, 0, &r);
	if (!ret)
		ret = pm_get(&d, pm, 0, v);
	if (ret || v[0] != macs1)
		e1t_fail("perfmon-other-job-not-counted", "ret %d macs %llu, want %llu",
			 ret, (unsigned long long)v[0], (unsigned long long)macs1);
	else
		e1t_pass("perfmon-other-job-not-counted");
	ret = pm_run(&d, DRM_E1NPU_ENGINE_WRAPPER, &op, 1, pm, &r);
	if (!ret)
		ret = pm_get(&d, pm, 0, v);
	if (ret || v[0] != macs1 + macs2)
		e1t_fail("perfmon-accumulates", "ret %d macs %llu, want %llu", ret,
			 (unsigned long long)v[0],
			 (unsigned long long)(macs1 + macs2));
	else
		e1t_pass("perfmon-accumulates");

	/* RESET: this read returns the values, the next one zeros */
	ret = pm_get(&d, pm, DRM_E1NPU_PERFMON_RESET, v);
	if (ret || v[0] != macs1 + macs2) {
		e1t_fail("perfmon-reset", "GET_VALUES|RESET: %d macs %llu, want %llu",
			 ret, (unsigned long long)v[0],
			 (unsigned long long)(macs1 + macs2));
	} else {
		memset(v, 0xff, sizeof(v));
		ret = pm_get(&d, pm, 0, v);
		if (ret || v[0] || v[1] || v[2])
			e1t_fail("perfmon-reset", "after RESET: %d values %llu %llu %llu, want zeros",
				 ret, (unsigned long long)v[0],
				 (unsigned long long)v[1], (unsigned long long)v[2]);
		else
			e1t_pass("perfmon-reset");
	}

	/* a NOP counts no MACs */
	memset(&op, 0, sizeof(op));
	op.opcode = E1NPU_HWOP_NOP;
	ret = pm_run(&d, DRM_E1NPU_ENGINE_WRAPPER, &op, 1, pm, &r);
	if (!ret)
		ret = pm_get(&d, pm, DRM_E1NPU_PERFMON_RESET, v);
	if (ret || v[0] || v[2])
		e1t_fail("perfmon-nop", "ret %d macs %llu fallbacks %llu, want 0, 0",
			 ret, (unsigned long long)v[0], (unsigned long long)v[2]);
	else
		e1t_pass("perfmon-nop");

	/* a datapath GEMM_S8 tile: M*N*K datapath MACs (contract 3.x) */
	if (d.info.engines & (1u << DRM_E1NPU_ENGINE_DATAPATH)) {
		static const uint8_t dc[1] = { DRM_E1NPU_PERF_DP_MACS };

		ret = pm_create(&d, dc, 1, &pm2);
		memset(&op, 0, sizeof(op));
		op.opcode = E1NPU_HWOP_DP_GEMM_S8;
		op.m = 3;
		op.n = 2;
		op.k = 7;
		op.a = e1t_t(&a, 0, 8);
		op.b = e1t_t(&b, 0, 4);
		op.c = e1t_t(&c, 0, 16);
		if (!ret)
			ret = pm_run(&d, DRM_E1NPU_ENGINE_DATAPATH, &op, 1, pm2, &r);
		if (!ret)
			ret = pm_get(&d, pm2, 0, v);
		if (ret || v[0] != 3 * 2 * 7)
			e1t_fail("perfmon-dp-gemm-macs", "ret %d dp macs %llu, want 42",
				 ret, (unsigned long long)v[0]);
		else
			e1t_pass("perfmon-dp-gemm-macs");
		if (pm2)
			pm_destroy(&d, pm2);
		pm2 = 0;
	}

	/* argument checks */
	memset(many, DRM_E1NPU_PERF_WRAPPER_MACS, sizeof(many));
	expect_ret("perfmon-create-0-counters", pm_create(&d, many, 0, &pm2),
		   -EINVAL);
	expect_ret("perfmon-create-17-counters",
		   pm_create(&d, many, DRM_E1NPU_MAX_PERF_COUNTERS + 1, &pm2),
		   -EINVAL);
	many[0] = E1T_PERF_NUM;
	expect_ret("perfmon-create-unknown-counter", pm_create(&d, many, 1, &pm2),
		   -EINVAL);
	expect_ret("perfmon-get-unknown-flags", pm_get(&d, pm, 1u << 1, v),
		   -EINVAL);
	expect_ret("perfmon-get-unknown-id", pm_get(&d, pm + 1000, 0, v),
		   -ENOENT);
	{
		struct drm_e1npu_perfmon_destroy x = { .id = pm, .pad = 1 };

		expect_ret("perfmon-destroy-pad",
			   e1t_ioctl(d.fd, DRM_IOCTL_E1NPU_PERFMON_DESTROY, &x),
			   -EINVAL);
	}
	/* perfmons belong to their file */
	if (!e1t_open(&other)) {
		expect_ret("perfmon-other-file",
			   pm_get(&other, pm, 0, v), -ENOENT);
		e1t_close(&other);
	}
	/* destroyed: gone */
	ret = pm_destroy(&d, pm);
	if (ret) {
		e1t_fail("perfmon-destroy", "DESTROY: %d", ret);
	} else {
		expect_ret("perfmon-destroy", pm_get(&d, pm, 0, v), -ENOENT);
		expect_ret("perfmon-destroy-twice", pm_destroy(&d, pm), -ENOENT);
		mm_op(&op, &a, &b, &c, 5, 12, 40);
		expect_ret("perfmon-submit-destroyed",
			   pm_run(&d, DRM_E1NPU_ENGINE_WRAPPER, &op, 1, pm, &r),
			   -ENOENT);
	}
	pm = 0;
out:
	if (pm)
		pm_destroy(&d, pm);
	e1t_bo_free(&d, &a);
	e1t_bo_free(&d, &b);
	e1t_bo_free(&d, &c);
	e1t_close(&d);
	return e1t_failures;
}
