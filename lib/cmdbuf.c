// SPDX-License-Identifier: MIT
/*
 * Command buffers: validated operations, split into jobs per engine and
 * ring limit, submitted one job at a time (a job that falls back must be
 * finished on the CPU before anything after it runs), per-op outcomes.
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
	uint64_t bytes_in;
	uint64_t bytes_out;
};

struct e1npu_cmdbuf {
	struct e1npu_device *dev;
	struct drm_e1npu_op *ops;
	struct cb_meta *meta;
	struct e1npu_op_outcome *out;
	unsigned int n, cap;
	enum cb_state state;
	unsigned int next;	/* first op without an outcome */
	bool inflight;		/* job [job_start, job_start + job_len) */
	unsigned int job_start, job_len;
	uint32_t job_id;
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
	struct drm_e1npu_job_result res;

	if (cb->inflight &&
	    !dev->be->wait(dev, cb->job_id, e1npu_now_ns() + CB_FREE_WAIT_NS))
		dev->be->job_result(dev, cb->job_id, &res);
	cb->inflight = false;
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
	cb->inflight = false;
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
	struct drm_e1npu_op op;
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
	if (!e1npu_op_extents(&op, ext, NULL))
		for (t = 0; t < E1NPU_T_COUNT; t++) {
			if (!ext[t].used)
				continue;
			if (ext[t].write)
				meta->bytes_out += ext[t].end - ext[t].start;
			else
				meta->bytes_in += ext[t].end - ext[t].start;
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

/* Submit the next job starting at cb->next; CPU-only ops run inline. */
static int cb_start_job(struct e1npu_cmdbuf *cb)
{
	struct e1npu_device *dev = cb->dev;
	unsigned int i = cb->next, len, max;
	uint32_t engine;
	int ret;

	while (i < cb->n && cb->meta[i].cpu_only) {
		snprintf(cb->out[i].reason, sizeof(cb->out[i].reason),
			 "%s engine not present",
			 e1npu_engine_name(pub_engine(cb->meta[i].engine)));
		op_run_cpu(cb, i);
		if (cb->failed)
			return 0;
		cb->next = ++i;
	}
	if (i >= cb->n)
		return 0;

	engine = cb->meta[i].engine;
	max = dev->lim.max_ops_per_job;
	if (engine == DRM_E1NPU_ENGINE_DATAPATH && dev->lim.datapath_slots &&
	    dev->lim.datapath_slots < max)
		max = dev->lim.datapath_slots;
	for (len = 1; i + len < cb->n && len < max; len++)
		if (cb->meta[i + len].engine != engine ||
		    cb->meta[i + len].cpu_only)
			break;

	ret = dev->be->submit(dev, &cb->ops[i], len, engine, &cb->job_id);
	if (ret) {
		char why[96];

		snprintf(why, sizeof(why), "submit failed: %s", e1npu_strerror(ret));
		op_fail_rest(cb, i, ret, why);
		return ret;
	}
	for (unsigned int j = i; j < i + len; j++)
		cb->out[j].job = cb->njobs;
	cb->njobs++;
	dev->stats.jobs++;
	cb->inflight = true;
	cb->job_start = i;
	cb->job_len = len;
	return 0;
}

/* The in-flight job finished: record outcomes, fall back, move on. */
static void cb_finish_job(struct e1npu_cmdbuf *cb,
			  const struct drm_e1npu_job_result *res)
{
	unsigned int s = cb->job_start, i, done;
	enum e1npu_engine eng = pub_engine(cb->meta[s].engine);

	cb->inflight = false;
	if (res->state == DRM_E1NPU_JOB_DONE) {
		for (i = s; i < s + cb->job_len; i++)
			op_done(cb, i, eng);
		cb->next = s + cb->job_len;
		return;
	}
	done = res->fail_index < cb->job_len ? res->fail_index : cb->job_len - 1;
	for (i = s; i < s + done; i++)
		op_done(cb, i, eng);
	i = s + done;
	cb->out[i].error = res->error;
	cb->out[i].hw_err_code = res->err_code;
	e1npu_hw_reason(cb->out[i].reason, sizeof(cb->out[i].reason),
			cb->meta[i].engine, res->error, res->err_code);
	if (res->error == -EOPNOTSUPP) {
		/* The fallback contract: the CPU runs it, the rest resubmits. */
		op_run_cpu(cb, i);
		if (!cb->failed)
			cb->next = i + 1;
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
	cb->inflight = false;
	cb->state = CB_SUBMITTED;
	ret = cb_start_job(cb);
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
	struct drm_e1npu_job_result res;
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

	while (cb->next < cb->n) {
		if (!cb->inflight) {
			cb_start_job(cb);
			if (!cb->inflight)
				continue;	/* CPU-only ops ran, or failure */
		}
		ret = dev->be->wait(dev, cb->job_id, deadline);
		if (ret == -ETIME)
			return e1npu_set_error(dev, -ETIME,
					       "cmdbuf_wait: timed out (job %u of ops %u..%u)",
					       cb->njobs - 1, cb->job_start,
					       cb->job_start + cb->job_len - 1);
		if (!ret)
			ret = dev->be->job_result(dev, cb->job_id, &res);
		if (ret) {
			char why[96];

			cb->inflight = false;
			snprintf(why, sizeof(why), "waiting for the job failed: %s",
				 e1npu_strerror(ret));
			op_fail_rest(cb, cb->job_start, ret, why);
			break;
		}
		cb_finish_job(cb, &res);
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
