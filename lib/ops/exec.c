// SPDX-License-Identifier: MIT
/*
 * The lowering context and the execution of lowered plans: one staging
 * buffer per context, one command buffer, perf counters read around each
 * run so every call reports its modelled cycles. The context holds its
 * device through its command buffer, and is held by the e1npu_fc and
 * e1npu_conv objects made from it.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cost.h"
#include "internal.h"
#include "ops_internal.h"
#include "select.h"
#include "trace.h"

int64_t ops_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

E1NPU_API int e1npu_ops_new(struct e1npu_device *dev, struct e1npu_ops **opsp)
{
	struct e1npu_ops *ops;
	int ret;

	ops_new_error("%s", "");
	if (!opsp) {
		ops_new_error("e1npu_ops_new: invalid argument: opsp is NULL");
		return -EINVAL;
	}
	*opsp = NULL;
	ops = calloc(1, sizeof(*ops));
	if (!ops) {
		ops_new_error("e1npu_ops_new: out of memory");
		return -ENOMEM;
	}
	ops->dev = dev;
	ops->refs = 1;		/* the caller's */
	{
		enum ops_lowering low;

		if (ops_lowering_from_env(&low)) {
			char err[200];
			unsigned int dummy;

			/* no context to hold it: e1npu_ops_last_error(NULL) */
			e1npu_env_get("E1NPU_OPS_LOWERING", &dummy, err, sizeof(err));
			ops_new_error("e1npu_ops_new: %s", err);
			free(ops);
			return -EINVAL;
		}
		ops->lowering = low;
	}
	if (dev) {
		ret = e1npu_device_get_info(dev, &ops->info);
		if (ret) {
			ops_new_error("e1npu_ops_new: device: %s", e1npu_strerror(ret));
			free(ops);
			return ret;
		}
		ops->wrapper_gemm = (ops->info.engines &
				     E1NPU_ENGINE_BIT(E1NPU_ENGINE_WRAPPER)) &&
				    ops->info.gemmini_present;
		ops->wrapper = !!(ops->info.engines &
				  E1NPU_ENGINE_BIT(E1NPU_ENGINE_WRAPPER));
		ops->datapath = !!(ops->info.engines &
				   E1NPU_ENGINE_BIT(E1NPU_ENGINE_DATAPATH));
		ret = e1npu_cmdbuf_new(dev, &ops->cb);
		if (ret) {
			ops_new_error("e1npu_ops_new: device: %s", e1npu_device_last_error(dev)[0] ?
				      e1npu_device_last_error(dev) : e1npu_strerror(ret));
			free(ops);
			return ret;
		}
	}
	*opsp = ops;
	return 0;
}

void ops_get(struct e1npu_ops *ops)
{
	ops->refs++;
}

void ops_put(struct e1npu_ops *ops)
{
	if (--ops->refs)
		return;
	if (ops->dev) {
		e1npu_cmdbuf_free(ops->cb);
		e1npu_buffer_free(ops->buf);
	} else {
		free(ops->arena);
	}
	free(ops->scratch);
	free(ops);
}

void *ops_scratch(struct e1npu_ops *ops, size_t bytes)
{
	if (bytes > ops->scratch_size) {
		/* grow by half again, so a growing sequence reallocates rarely */
		size_t sz = bytes + bytes / 2;
		void *p;

		if (sz < bytes || posix_memalign(&p, 64, sz))
			return NULL;
		free(ops->scratch);
		ops->scratch = p;
		ops->scratch_size = sz;
	}
	return ops->scratch;
}

/* Drops the caller's reference; e1npu_fc/e1npu_conv objects keep it. */
E1NPU_API void e1npu_ops_free(struct e1npu_ops *ops)
{
	if (ops)
		ops_put(ops);
}

E1NPU_API int e1npu_ops_set_force(struct e1npu_ops *ops,
				  enum e1npu_ops_force force)
{
	if (OPS_BAD(ops, !ops) || OPS_BAD(ops, (unsigned int)force > E1NPU_OPS_FORCE_CPU))
		return -EINVAL;
	ops->force = force;
	return 0;
}

void ops_report_set(struct e1npu_ops_report *rep, uint32_t engine,
		    uint32_t reason, const char *fmt, ...)
{
	va_list ap;

	if (!rep)
		return;
	rep->engine = engine;
	rep->reason = reason;
	va_start(ap, fmt);
	vsnprintf(rep->why, sizeof(rep->why), fmt, ap);
	va_end(ap);
}

void ops_plan_init(struct ops_plan *pl, struct e1npu_ops *ops,
		   struct e1npu_ops_report *rep, uint32_t kind)
{
	memset(pl, 0, sizeof(*pl));
	pl->ops = ops;
	pl->rep = rep;
	pl->t0 = ops_now_ns();
	if (rep && !rep->kind) {
		memset(rep, 0, sizeof(*rep));
		rep->kind = kind;
	}
}

void ops_plan_fini(struct ops_plan *pl)
{
	free(pl->d);
	pl->d = NULL;
	pl->n = pl->cap = 0;
}

size_t ops_plan_alloc(struct ops_plan *pl, size_t bytes)
{
	size_t off = ops_align_up(pl->arena_bytes, OPS_ALIGN);

	/* an impossible layout sticks at SIZE_MAX: ops_plan_arena refuses it */
	if (pl->arena_bytes > PTRDIFF_MAX || bytes > PTRDIFF_MAX ||
	    ops_align_up(bytes ? bytes : 1, OPS_ALIGN) > PTRDIFF_MAX - off) {
		pl->arena_bytes = SIZE_MAX;
		return 0;
	}
	pl->arena_bytes = off + ops_align_up(bytes ? bytes : 1, OPS_ALIGN);
	return off;
}

int ops_plan_arena(struct ops_plan *pl, uint8_t **arena)
{
	struct e1npu_ops *ops = pl->ops;
	size_t need = pl->arena_bytes ? pl->arena_bytes : OPS_ALIGN;
	int ret;

	if (need > PTRDIFF_MAX - (1u << 20))
		return ops_error(ops, -ENOMEM, "staging arena of %zu bytes: too large", need);

	if (need > ops->arena_size) {
		size_t sz = ops_align_up(need, 1u << 20);

		if (ops->dev) {
			struct e1npu_buffer *buf;
			void *map;

			/*
			 * The command buffer holds the old arena until reset:
			 * reset it first so the space is free for the new one.
			 */
			ret = e1npu_cmdbuf_reset(ops->cb);
			if (ret)
				return ops_device_error(ops, ret);
			e1npu_buffer_free(ops->buf);
			ops->buf = NULL;
			ops->arena = NULL;
			ops->arena_size = 0;
			ret = e1npu_buffer_alloc(ops->dev, sz, &buf);
			if (ret)
				return ops_device_error(ops, ret);
			ret = e1npu_buffer_map(buf, &map);
			if (ret) {
				ops_device_error(ops, ret);
				e1npu_buffer_free(buf);
				return ret;
			}
			ops->buf = buf;
			ops->arena = map;
		} else {
			uint8_t *p = realloc(ops->arena, sz);

			if (!p)
				return ops_error(ops, -ENOMEM,
						 "staging arena: out of memory for %zu bytes", sz);
			ops->arena = p;
		}
		ops->arena_size = sz;
	}
	*arena = ops->arena;
	return 0;
}

int ops_plan_add(struct ops_plan *pl, const struct e1npu_op_desc *d)
{
	if (pl->n == pl->cap) {
		size_t cap = pl->cap ? pl->cap * 2 : 64;
		struct e1npu_op_desc *nd = realloc(pl->d, cap * sizeof(*nd));

		if (!nd)
			return ops_error(pl->ops, -ENOMEM, "plan of %zu operations: out of memory", cap);
		pl->d = nd;
		pl->cap = cap;
	}
	pl->d[pl->n++] = *d;
	return 0;
}

static bool uses_tensor(uint32_t opcode, int which)
{
	switch (opcode) {
	case E1NPU_OP_MATMUL_S8:
	case E1NPU_OP_CONV2D_S8:
	case E1NPU_OP_DP_GEMM_S8:
	case E1NPU_OP_DP_GEMM_S4:
		return true;
	case E1NPU_OP_RELU_S8:
	case E1NPU_OP_MAXPOOL_S8:
	case E1NPU_OP_DP_SCALAR:
	case E1NPU_OP_DP_VRELU_S8:
		return which != 1;
	default:
		return false;
	}
}

int ops_plan_run(struct ops_plan *pl)
{
	struct e1npu_ops *ops = pl->ops;
	struct e1npu_ops_report *rep = pl->rep;
	struct e1npu_perf p0, p1;
	int64_t t1, t2, t3;
	size_t i;
	int ret = 0, r;

	t1 = ops_now_ns();
	if (rep) {
		rep->lower_ns += (uint64_t)(t1 - pl->t0);
		rep->hw_ops += (uint32_t)pl->n;
	}
	if (!pl->n)
		return 0;
	if (!ops->dev) {
		for (i = 0; i < pl->n; i++) {
			ret = ops_cpu_hw_exec(&pl->d[i], ops->arena);
			if (ret)
				return ops_error(ops, ret, "CPU executor: operation %zu (%s) rejected",
						 i, e1npu_opcode_name(pl->d[i].opcode));
		}
		pl->t0 = ops_now_ns();
		return 0;
	}

	ret = e1npu_cmdbuf_reset(ops->cb);
	for (i = 0; !ret && i < pl->n; i++) {
		struct e1npu_op_desc d = pl->d[i];

		if (uses_tensor(d.opcode, 0))
			d.a.buf = ops->buf;
		if (uses_tensor(d.opcode, 1))
			d.b.buf = ops->buf;
		if (uses_tensor(d.opcode, 2))
			d.c.buf = ops->buf;
		r = e1npu_cmdbuf_add_op(ops->cb, &d);
		if (r < 0)
			ret = r;
	}
	if (ret)
		return ops_device_error(ops, ret);
	if (rep)
		rep->lower_ns += (uint64_t)(ops_now_ns() - t1);
	memset(&p0, 0, sizeof(p0));
	memset(&p1, 0, sizeof(p1));
	t2 = ops_now_ns();
	e1npu_device_read_perf(ops->dev, &p0);
	/* e1npu_cmdbuf_run(), with the time between submit and wait */
	ret = e1npu_cmdbuf_submit(ops->cb);
	t3 = ops_now_ns();
	if (!ret)
		ret = e1npu_cmdbuf_wait(ops->cb, -1);
	if (ret)
		ops_device_error(ops, ret);
	e1npu_device_read_perf(ops->dev, &p1);
	if (e1npu_trace_on()) {	/* lib/trace.c: E1NPU_TRACE */
		struct e1npu_trace_run tr = {
			.kind = rep ? rep->kind : 0, .reason = rep ? rep->reason : 0,
			.t_lower = (uint64_t)pl->t0, .t_submit = (uint64_t)t2,
			.t_wait = (uint64_t)t3, .t_done = (uint64_t)ops_now_ns(),
			.p0 = p0, .p1 = p1,
		};

		e1npu_trace_hw(&tr, ops->cb, (unsigned int)pl->n);
	}
	if (rep) {
		rep->wrapper_cycles += p1.wrapper_cycles - p0.wrapper_cycles;
		rep->dp_cycles += p1.dp_cycles - p0.dp_cycles;
		rep->jobs += e1npu_cmdbuf_get_num_jobs(ops->cb);
		for (i = 0; i < pl->n; i++) {
			struct e1npu_op_outcome oc;

			if (e1npu_cmdbuf_get_outcome(ops->cb, (unsigned int)i, &oc))
				continue;
			if (oc.engine == E1NPU_ENGINE_WRAPPER)
				rep->hw_ops_wrapper++;
			else if (oc.engine == E1NPU_ENGINE_DATAPATH)
				rep->hw_ops_datapath++;
			else if (oc.engine == E1NPU_ENGINE_CPU)
				rep->hw_ops_fallback++;
		}
	}
	pl->t0 = ops_now_ns();
	return ret;
}

/* ---------------------------------------------------------------------- */

void ops_rep_begin(struct e1npu_ops_report *rep, uint32_t kind, uint64_t macs)
{
	memset(rep, 0, sizeof(*rep));
	rep->kind = kind;
	rep->macs = macs;
}

void ops_rep_fallback(struct e1npu_ops_report *rep)
{
	if (rep->hw_ops && rep->hw_ops_fallback == rep->hw_ops) {
		rep->engine = E1NPU_ENGINE_CPU;
		rep->reason = E1NPU_OPS_WHY_FALLBACK;
	}
}

int ops_dp_scalars(struct e1npu_ops *ops, struct e1npu_ops_report *rep,
		   uint32_t opcode, uint32_t flags, const uint32_t *rec,
		   size_t count, uint32_t *res)
{
	struct ops_plan pl;
	size_t io, oo;
	uint8_t *ar;
	int ret;

	ops_plan_init(&pl, ops, rep, rep->kind);
	io = ops_plan_alloc(&pl, count * 12);
	oo = ops_plan_alloc(&pl, count * 8);
	ret = ops_plan_arena(&pl, &ar);
	if (!ret)
		memcpy(ar + io, rec, count * 12);
	for (size_t i = 0; !ret && i < count; i += 4096) {
		struct e1npu_op_desc d;
		uint32_t n = count - i < 4096 ? (uint32_t)(count - i) : 4096;

		e1npu_op_desc_dp_scalar(&d, ops_t(io + i * 12, 0), ops_t(oo + i * 8, 0),
					opcode, n, flags);
		ret = ops_plan_add(&pl, &d);
	}
	if (!ret)
		ret = ops_plan_run(&pl);
	for (size_t i = 0; !ret && i < count; i++)
		memcpy(&res[i], ar + oo + i * 8, 4);
	ops_plan_fini(&pl);
	return ret;
}
