// SPDX-License-Identifier: MIT
/*
 * Command buffers: validated operations, split into jobs per engine and
 * ring limit, per-op outcomes. At most one job per engine is in flight; a
 * job for the other engine is submitted while one runs only when none of
 * its operations touches bytes the running job writes, or writes bytes it
 * reads (Documentation/libe1npu.md, "Engine concurrency"). Dependent work
 * waits for its producer: a job that falls back must be finished on the
 * CPU before anything that reads it runs.
 * A command buffer holds its device and every buffer its operations name,
 * from add_op until reset or free, so it can be resubmitted whatever the
 * caller freed meanwhile.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"

/* Most operations one command buffer may hold. */
#define CB_MAX_OPS	(1u << 20)

/*
 * e1npu_cmdbuf_free() of a submitted command buffer waits this long for
 * the job in flight: 5x the driver's default job timeout (timeout_ms
 * 2000), after which the driver resets the engine and completes the job.
 */
#define CB_FREE_WAIT_NS	(10 * 1000000000LL)

enum cb_state {
	CB_IDLE = 0,		/* being filled */
	CB_SUBMITTED,		/* jobs in flight or to be submitted */
	CB_DONE,		/* every op has an outcome */
};

struct cb_meta {
	struct e1npu_buffer *buf[E1NPU_T_COUNT];
	uint32_t engine;	/* enum drm_e1npu_engine */
	bool cpu_only;		/* its engine is absent: run on the CPU */
	bool ext_ok;		/* @ext is valid (else: conflicts with all) */
	bool inflight;		/* in a submitted job not finished yet */
	struct e1npu_extent ext[E1NPU_T_COUNT];
	uint64_t bytes_in;
	uint64_t bytes_out;
};

/* A submitted job: operations [start, start + len) on @engine. */
struct cb_job {
	unsigned int start, len;
	uint32_t id;
	uint32_t engine;
};

/* Jobs in flight: one per engine. */
#define CB_INFLIGHT	2

struct e1npu_cmdbuf {
	struct e1npu_device *dev;
	struct e1npu_hw_op *ops;
	struct cb_meta *meta;
	struct e1npu_op_outcome *out;
	unsigned int n, cap;
	enum cb_state state;
	unsigned int next;	/* first op without an outcome */
	struct cb_job fl[CB_INFLIGHT];	/* in flight, oldest first */
	unsigned int nfl;
	unsigned int njobs;
	bool failed;
};

E1NPU_API int e1npu_cmdbuf_new(struct e1npu_device *dev,
			       struct e1npu_cmdbuf **cbp)
{
	struct e1npu_cmdbuf *cb;

	if (!dev)
		return -EINVAL;
	if (!cbp)
		return e1npu_set_error(dev, -EINVAL, "cmdbuf_new: NULL cbp");
	cb = calloc(1, sizeof(*cb));
	if (!cb)
		return e1npu_set_error(dev, -ENOMEM, "cmdbuf_new: out of memory");
	cb->dev = dev;
	e1npu_device_get(dev);
	*cbp = cb;
	return 0;
}

/* Drop the references the operations hold on their buffers. */
static void cb_release_buffers(struct e1npu_cmdbuf *cb)
{
	unsigned int i, t;

	for (i = 0; i < cb->n; i++)
		for (t = 0; t < E1NPU_T_COUNT; t++)
			if (cb->meta[i].buf[t])
				e1npu_buffer_put(cb->meta[i].buf[t]);
}

/*
 * Free of a submitted command buffer: operations not started yet never
 * run; the job in flight is waited for (bounded) and its result read, so
 * the backend forgets it. Should the wait time out, the kernel's job
 * still holds its own references on the buffers' memory.
 */
static void cb_abandon(struct e1npu_cmdbuf *cb)
{
	struct e1npu_device *dev = cb->dev;
	struct e1npu_hw_result res;
	unsigned int i;

	for (i = 0; i < cb->nfl; i++)
		if (!dev->be->wait(dev, cb->fl[i].id, e1npu_now_ns() + CB_FREE_WAIT_NS))
			dev->be->job_result(dev, cb->fl[i].id, &res);
	cb->nfl = 0;
	cb->state = CB_DONE;
}

E1NPU_API void e1npu_cmdbuf_free(struct e1npu_cmdbuf *cb)
{
	struct e1npu_device *dev;

	if (!cb)
		return;
	dev = cb->dev;
	if (cb->state == CB_SUBMITTED)
		cb_abandon(cb);
	cb_release_buffers(cb);
	free(cb->ops);
	free(cb->meta);
	free(cb->out);
	free(cb);
	e1npu_device_put(dev);
}

E1NPU_API int e1npu_cmdbuf_reset(struct e1npu_cmdbuf *cb)
{
	if (!cb)
		return -EINVAL;
	if (cb->state == CB_SUBMITTED)
		return e1npu_set_error(cb->dev, -EBUSY,
				       "cmdbuf_reset: submitted and not waited for");
	cb_release_buffers(cb);
	cb->n = 0;
	cb->state = CB_IDLE;
	cb->next = 0;
	cb->njobs = 0;
	cb->failed = false;
	cb->nfl = 0;
	return 0;
}

static int cb_grow(struct e1npu_cmdbuf *cb)
{
	unsigned int cap = cb->cap ? cb->cap * 2 : 16;
	void *p;

	p = realloc(cb->ops, cap * sizeof(*cb->ops));
	if (!p)
		return -ENOMEM;
	cb->ops = p;
	p = realloc(cb->meta, cap * sizeof(*cb->meta));
	if (!p)
		return -ENOMEM;
	cb->meta = p;
	p = realloc(cb->out, cap * sizeof(*cb->out));
	if (!p)
		return -ENOMEM;
	cb->out = p;
	cb->cap = cap;
	return 0;
}

/* e1npu_op_check() lookup: the handles of the operation being added. */
E1NPU_API int e1npu_cmdbuf_add_op(struct e1npu_cmdbuf *cb,
				  const struct e1npu_op_desc *d)
{
	struct e1npu_extent ext[E1NPU_T_COUNT];
	struct e1npu_buffer *bufs[E1NPU_T_COUNT];
	struct e1npu_device *dev;
	struct e1npu_hw_op op;
	struct cb_meta *meta;
	unsigned int idx, t;
	uint32_t engine;
	int ret;

	if (!cb)
		return -EINVAL;
	dev = cb->dev;
	idx = cb->n;
	if (!d)
		return e1npu_set_error(dev, -EINVAL, "op %u: NULL description", idx);
	if (cb->state != CB_IDLE)
		return e1npu_set_error(dev, -EBUSY,
				       "op %u: command buffer already submitted (reset it first)",
				       idx);
	if (cb->n >= CB_MAX_OPS)
		return e1npu_set_error(dev, -E2BIG, "op %u: more than %u operations",
				       idx, CB_MAX_OPS);

	ret = e1npu_op_validate(dev, idx, d, &op, bufs);
	if (ret)
		return ret;
	engine = (uint32_t)e1npu_op_engine(op.opcode);

	if (cb->n == cb->cap && cb_grow(cb))
		return e1npu_set_error(dev, -ENOMEM, "op %u: out of memory", idx);
	cb->ops[idx] = op;
	meta = &cb->meta[idx];
	memset(meta, 0, sizeof(*meta));
	for (t = 0; t < E1NPU_T_COUNT; t++) {
		meta->buf[t] = bufs[t];
		if (bufs[t])
			e1npu_buffer_get(bufs[t]);
	}
	meta->engine = engine;
	meta->cpu_only = !(dev->lim.engines & (1u << engine));
	if (!e1npu_op_extents(&op, ext, NULL)) {
		meta->ext_ok = true;
		memcpy(meta->ext, ext, sizeof(ext));
		for (t = 0; t < E1NPU_T_COUNT; t++) {
			if (!ext[t].used)
				continue;
			if (ext[t].write)
				meta->bytes_out += ext[t].end - ext[t].start;
			else
				meta->bytes_in += ext[t].end - ext[t].start;
		}
	}
	memset(&cb->out[idx], 0, sizeof(cb->out[idx]));
	cb->n++;
	return (int)idx;
}

E1NPU_API unsigned int e1npu_cmdbuf_get_num_ops(const struct e1npu_cmdbuf *cb)
{
	return cb ? cb->n : 0;
}

E1NPU_API unsigned int e1npu_cmdbuf_get_num_jobs(const struct e1npu_cmdbuf *cb)
{
	return cb ? cb->njobs : 0;
}

E1NPU_API int e1npu_cmdbuf_get_outcome(const struct e1npu_cmdbuf *cb,
				       unsigned int index,
				       struct e1npu_op_outcome *out)
{
	if (!cb || !out)
		return -EINVAL;
	if (index >= cb->n)
		return -ERANGE;
	*out = cb->out[index];
	return 0;
}

int e1npu_cmdbuf_op_bytes(const struct e1npu_cmdbuf *cb, unsigned int index,
			  uint64_t *in, uint64_t *out)
{
	if (!cb || index >= cb->n)
		return -ERANGE;
	*in = cb->meta[index].bytes_in;
	*out = cb->meta[index].bytes_out;
	return 0;
}

static void op_done(struct e1npu_cmdbuf *cb, unsigned int i,
		    enum e1npu_engine engine)
{
	struct e1npu_device *dev = cb->dev;

	cb->out[i].status = E1NPU_OP_STATUS_DONE;
	cb->out[i].engine = engine;
	if (engine == E1NPU_ENGINE_CPU)
		dev->stats.ops_cpu++;
	else
		dev->stats.ops_hw++;
	dev->stats.bytes_in += cb->meta[i].bytes_in;
	dev->stats.bytes_out += cb->meta[i].bytes_out;
}

static void op_fail_rest(struct e1npu_cmdbuf *cb, unsigned int i, int error,
			 const char *reason)
{
	struct e1npu_op_outcome *o = &cb->out[i];

	o->status = E1NPU_OP_STATUS_FAILED;
	o->error = error;
	if (reason && !o->reason[0])
		snprintf(o->reason, sizeof(o->reason), "%s", reason);
	for (i++; i < cb->n; i++) {
		/* Independent work that already ran (or runs) keeps its outcome. */
		if (cb->out[i].status || cb->meta[i].inflight)
			continue;
		cb->out[i].status = E1NPU_OP_STATUS_CANCELED;
		cb->out[i].error = -ECANCELED;
		snprintf(cb->out[i].reason, sizeof(cb->out[i].reason),
			 "canceled: an earlier operation failed");
	}
	cb->failed = true;
	cb->next = cb->n;
	e1npu_set_error(cb->dev, -EIO, "op %u (%s): %s", (unsigned int)(o - cb->out),
			e1npu_uapi_op_name(cb->ops[o - cb->out].opcode),
			o->reason);
}

/* Run op @i on the CPU (the one executor, cpu_exec.c). */
static void op_run_cpu(struct e1npu_cmdbuf *cb, unsigned int i)
{
	int ret = e1npu_cpu_exec(&cb->ops[i], cb->meta[i].buf);

	if (ret && ret != -EDOM) {
		op_fail_rest(cb, i, ret, "CPU fallback: cannot map a tensor");
		return;
	}
	if (ret) {
		struct e1npu_op_outcome *o = &cb->out[i];
		size_t used = strnlen(o->reason, sizeof(o->reason));

		snprintf(o->reason + used, sizeof(o->reason) - used, "%s",
			 used ? "; CPU rejects it too" : "CPU reference rejects the operands");
		op_fail_rest(cb, i, cb->out[i].error ? cb->out[i].error : -EINVAL, NULL);
		return;
	}
	op_done(cb, i, E1NPU_ENGINE_CPU);
}

static enum e1npu_engine pub_engine(uint32_t drm_engine)
{
	return drm_engine == DRM_E1NPU_ENGINE_DATAPATH ? E1NPU_ENGINE_DATAPATH :
	       E1NPU_ENGINE_WRAPPER;
}

/* True when ops @a and @b touch common bytes and one of them writes them. */
static bool ops_conflict(const struct cb_meta *a, const struct cb_meta *b)
{
	unsigned int s, t;

	if (!a->ext_ok || !b->ext_ok)
		return true;
	for (s = 0; s < E1NPU_T_COUNT; s++)
		for (t = 0; t < E1NPU_T_COUNT; t++) {
			const struct e1npu_extent *x = &a->ext[s], *y = &b->ext[t];

			if (!x->used || !y->used || a->buf[s] != b->buf[t] ||
			    !(x->write || y->write))
				continue;
			if (x->start < y->end && y->start < x->end)
				return true;
		}
	return false;
}

/* Op @i may run while every in-flight job runs: no data dependency. */
static bool op_independent(const struct e1npu_cmdbuf *cb, unsigned int i)
{
	unsigned int f, j;

	for (f = 0; f < cb->nfl; f++)
		for (j = cb->fl[f].start; j < cb->fl[f].start + cb->fl[f].len; j++)
			if (ops_conflict(&cb->meta[i], &cb->meta[j]))
				return false;
	return true;
}

static bool op_pending(const struct e1npu_cmdbuf *cb, unsigned int i)
{
	return !cb->out[i].status && !cb->meta[i].inflight;
}

/*
 * Submit what may run now: the first operation without an outcome that is
 * not in flight starts a job when its engine has none in flight and, if
 * the other engine has one, the job is cut before its first operation
 * that depends on that one. CPU-only operations run inline once nothing is
 * in flight. Returns 0 or the submit error (the rest is failed then).
 */
static int cb_fill(struct e1npu_cmdbuf *cb)
{
	struct e1npu_device *dev = cb->dev;
	unsigned int i, len, max, f;
	struct cb_job *job;
	uint32_t engine;
	int ret;

	while (!cb->failed && cb->nfl < CB_INFLIGHT) {
		while (cb->next < cb->n && cb->out[cb->next].status)
			cb->next++;
		for (i = cb->next; i < cb->n && !op_pending(cb, i); i++)
			;
		if (i >= cb->n)
			return 0;
		if (cb->meta[i].cpu_only) {
			if (cb->nfl)
				return 0;
			snprintf(cb->out[i].reason, sizeof(cb->out[i].reason),
				 "%s engine not present",
				 e1npu_engine_name(pub_engine(cb->meta[i].engine)));
			op_run_cpu(cb, i);
			continue;
		}
		engine = cb->meta[i].engine;
		for (f = 0; f < cb->nfl; f++)
			if (cb->fl[f].engine == engine)
				return 0;
		max = dev->lim.max_ops_per_job;
		if (engine == DRM_E1NPU_ENGINE_DATAPATH && dev->lim.datapath_slots &&
		    dev->lim.datapath_slots < max)
			max = dev->lim.datapath_slots;
		for (len = 0; i + len < cb->n && len < max; len++) {
			unsigned int j = i + len;

			if (cb->meta[j].engine != engine || cb->meta[j].cpu_only ||
			    !op_pending(cb, j) || (cb->nfl && !op_independent(cb, j)))
				break;
		}
		if (!len)
			return 0;

		job = &cb->fl[cb->nfl];
		ret = dev->be->submit(dev, &cb->ops[i], len, engine, NULL, 0, &job->id);
		if (ret) {
			char why[96];

			snprintf(why, sizeof(why), "submit failed: %s", e1npu_strerror(ret));
			op_fail_rest(cb, i, ret, why);
			return ret;
		}
		job->start = i;
		job->len = len;
		job->engine = engine;
		cb->nfl++;
		for (unsigned int j = i; j < i + len; j++) {
			cb->out[j].job = cb->njobs;
			cb->meta[j].inflight = true;
		}
		cb->njobs++;
		dev->stats.jobs++;
	}
	return 0;
}

/* Job @job finished: record outcomes, fall back, move on. */
static void cb_finish_job(struct e1npu_cmdbuf *cb, const struct cb_job *job,
			  const struct e1npu_hw_result *res)
{
	unsigned int s = job->start, i, done;
	enum e1npu_engine eng = pub_engine(job->engine);

	for (i = s; i < s + job->len; i++)
		cb->meta[i].inflight = false;
	if (res->state == E1NPU_HWJOB_DONE) {
		for (i = s; i < s + job->len; i++)
			op_done(cb, i, eng);
		return;
	}
	done = res->fail_index < job->len ? res->fail_index : job->len - 1;
	for (i = s; i < s + done; i++)
		op_done(cb, i, eng);
	i = s + done;
	cb->out[i].error = res->error;
	cb->out[i].hw_err_code = res->err_code;
	e1npu_hw_reason(cb->out[i].reason, sizeof(cb->out[i].reason),
			job->engine, res->error, res->err_code);
	if (res->error == -EOPNOTSUPP && !cb->failed) {
		/*
		 * The fallback contract: the CPU runs it; the rest of the job
		 * has no outcome and is submitted again by cb_fill().
		 */
		op_run_cpu(cb, i);
		return;
	}
	op_fail_rest(cb, i, res->error ? res->error : -EIO, NULL);
}

static int cb_complete(struct e1npu_cmdbuf *cb)
{
	cb->state = CB_DONE;
	return cb->failed ? -EIO : 0;
}

E1NPU_API int e1npu_cmdbuf_submit(struct e1npu_cmdbuf *cb)
{
	struct e1npu_device *dev;
	unsigned int i;
	int ret;

	if (!cb)
		return -EINVAL;
	dev = cb->dev;
	if (cb->state == CB_SUBMITTED)
		return e1npu_set_error(dev, -EBUSY,
				       "cmdbuf_submit: already submitted");
	if (!cb->n)
		return e1npu_set_error(dev, -ENODATA,
				       "cmdbuf_submit: no operations");
	/* Resubmitting a finished command buffer runs it again. */
	for (i = 0; i < cb->n; i++)
		memset(&cb->out[i], 0, sizeof(cb->out[i]));
	cb->next = 0;
	cb->njobs = 0;
	cb->failed = false;
	cb->nfl = 0;
	cb->state = CB_SUBMITTED;
	ret = cb_fill(cb);
	if (ret && cb->njobs == 0) {
		/* Nothing ran: back to idle, the caller may fix and retry. */
		for (i = 0; i < cb->n; i++)
			memset(&cb->out[i], 0, sizeof(cb->out[i]));
		cb->failed = false;
		cb->state = CB_IDLE;
		return e1npu_set_error(dev, ret, "cmdbuf_submit: %s",
				       e1npu_strerror(ret));
	}
	return 0;
}

E1NPU_API int e1npu_cmdbuf_wait(struct e1npu_cmdbuf *cb, int64_t timeout_ns)
{
	struct e1npu_device *dev;
	struct e1npu_hw_result res;
	int64_t deadline;
	int ret;

	if (!cb)
		return -EINVAL;
	dev = cb->dev;
	if (cb->state == CB_DONE)
		return cb->failed ? -EIO : 0;
	if (cb->state != CB_SUBMITTED)
		return e1npu_set_error(dev, -EINVAL, "cmdbuf_wait: not submitted");
	deadline = timeout_ns < 0 ? -1 : e1npu_now_ns() + timeout_ns;

	for (;;) {
		struct cb_job job;

		cb_fill(cb);
		if (!cb->nfl)
			break;	/* every op has an outcome, or failure drained */
		job = cb->fl[0];
		ret = dev->be->wait(dev, job.id, deadline);
		if (ret == -ETIME)
			return e1npu_set_error(dev, -ETIME,
					       "cmdbuf_wait: timed out (job %u of ops %u..%u)",
					       cb->out[job.start].job, job.start,
					       job.start + job.len - 1);
		if (!ret)
			ret = dev->be->job_result(dev, job.id, &res);
		memmove(&cb->fl[0], &cb->fl[1], (cb->nfl - 1) * sizeof(cb->fl[0]));
		cb->nfl--;
		if (ret) {
			char why[96];

			for (unsigned int i = job.start; i < job.start + job.len; i++)
				cb->meta[i].inflight = false;
			snprintf(why, sizeof(why), "waiting for the job failed: %s",
				 e1npu_strerror(ret));
			op_fail_rest(cb, job.start, ret, why);
			continue;
		}
		cb_finish_job(cb, &job, &res);
	}
	return cb_complete(cb);
}

E1NPU_API int e1npu_cmdbuf_run(struct e1npu_cmdbuf *cb)
{
	int ret = e1npu_cmdbuf_submit(cb);

	if (ret)
		return ret;
	return e1npu_cmdbuf_wait(cb, -1);
}
