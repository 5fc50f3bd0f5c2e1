// SPDX-License-Identifier: MIT
/*
 * The in-process backend: the e1 NPU device model in this process, driven
 * the way e1npu.ko drives the hardware (Documentation/driver.md).
 *
 * - Simulated DRAM is one lazily-touched anonymous mapping: the wrapper's
 *   descriptor ring first, then the tensor arena (E1NPU_SIM_ARENA_MB MiB,
 *   1..3072, default 256; an invalid value fails the open with -EINVAL),
 *   which TENSOR_MEM_BASE/LEN fence off. The ring is outside
 *   the tensor window, exactly like the driver's.
 * - Buffers are first-fit sub-allocations of the arena, page-rounded,
 *   zeroed, named by small integer handles like GEM handles.
 * - Every submitted operation is validated by e1npu_op_check() (the
 *   kernel's own code, hw/e1npu_opcheck.c), wrapper operations are encoded
 *   by e1npu_op_encode() into the ring, the doorbell is rung and
 *   e1_model_run() executes them; datapath operations run through
 *   e1npu_dp_exec() over e1_model_read()/e1_model_write().
 * - Completion, CPU fallback (the rest of the job becomes NOPs, the stalled
 *   descriptor is retired by a DESC_TAIL write, the job reports
 *   -EOPNOTSUPP at fail_index), hard errors (flush, -EFAULT) and hangs
 *   (reset after the job timeout, -ETIMEDOUT) follow the driver.
 *
 * Jobs run synchronously inside submit (the model is in this process);
 * wait only has something to do for a hung engine.
 *
 * Modelled time (Documentation/device-model.md, "Engine concurrency"): a
 * job's engine is gated at the later of the host's time (the end of the
 * latest job the host waited for: it cannot submit before knowing that)
 * and its dependencies' ends, so jobs submitted without waiting overlap on
 * the model's global clock and the perf read reports the makespan.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "backend.h"
#include "sim.h"
#include "e1_model.h"

#define SIM_BUS_BASE		0x80000000ULL
#define SIM_RING_LEN		E1_V0_RING_LEN_MAX
#define SIM_RING_BYTES		(SIM_RING_LEN * E1_V0_DESC_SIZE)
#define SIM_RING_AREA		16384u	/* page-rounded ring area */
/* Arena size (E1NPU_SIM_ARENA_MB), hang timeout and the other knobs: lib/env.c. */
#define SIM_RESULTS		64u	/* job outcomes kept, like the driver */

struct sim_bo {
	uint64_t off;		/* in the tensor arena */
	uint64_t size;
	bool used;
};

struct sim_free {
	uint64_t off;
	uint64_t size;
};

struct sim_job {
	uint32_t job_id;
	bool valid;
	bool hung;
	int64_t hang_deadline;
	uint32_t engine;
	uint32_t start_idx;	/* ring index of its first descriptor */
	uint32_t count;
	uint64_t end;		/* global cycle its engine finished it */
	struct e1npu_hw_result res;
};

struct sim {
	struct e1_model *model;
	uint8_t *mem;		/* ring area + arena */
	uint64_t mem_size;
	uint64_t arena_size;
	uint32_t head;		/* wrapper ring producer index */
	struct sim_bo *bos;
	uint32_t nbos, capbos;
	struct sim_free *fl;	/* free list, sorted by offset */
	uint32_t nfl, capfl;
	uint32_t next_job_id;
	struct sim_job jobs[SIM_RESULTS];
	int64_t hang_ns;
	uint64_t model_ns;	/* wall time inside the model */
	uint64_t host_now;	/* global cycles: end of the latest waited job */
	uint64_t dp_mmio;	/* datapath register accesses of datapath jobs */
	uint64_t jobs_run;
};

static struct sim *to_sim(struct e1npu_device *dev)
{
	return dev->priv;
}

/* The model's bus: everything in [SIM_BUS_BASE, + mem_size) is DRAM. */
static void *sim_map(void *ctx, u64 addr, u64 len, bool write)
{
	struct sim *s = ctx;

	(void)write;
	if (addr < SIM_BUS_BASE || len > s->mem_size ||
	    addr - SIM_BUS_BASE > s->mem_size - len)
		return NULL;
	return s->mem + (addr - SIM_BUS_BASE);
}

static void sim_irq(void *ctx, unsigned int line, bool level)
{
	/* Everything runs synchronously: completion is read from STATUS. */
	(void)ctx;
	(void)line;
	(void)level;
}

static u32 wr_read(struct sim *s, u32 reg)
{
	return e1_model_read(s->model, E1_WIN_WRAPPER * E1_WIN_SIZE + reg);
}

static void wr_write(struct sim *s, u32 reg, u32 v)
{
	e1_model_write(s->model, E1_WIN_WRAPPER * E1_WIN_SIZE + reg, v);
}

static u32 dp_read(void *ctx, u32 reg)
{
	struct sim *s = ctx;

	return e1_model_read(s->model, E1_WIN_DATAPATH * E1_WIN_SIZE + reg);
}

static void dp_write(void *ctx, u32 reg, u32 v)
{
	struct sim *s = ctx;

	e1_model_write(s->model, E1_WIN_DATAPATH * E1_WIN_SIZE + reg, v);
}

/* A knob from the environment (lib/env.c): a bad value is never the default. */
static int env_uint(const char *name, unsigned int *out)
{
	char err[200];
	int ret = e1npu_env_get(name, out, err, sizeof(err));

	if (ret)
		e1npu_set_open_error("%s", err);
	return ret;
}

/* Program the wrapper as the driver's probe does. */
static void sim_hw_init(struct sim *s)
{
	uint64_t ring = SIM_BUS_BASE, tmem = SIM_BUS_BASE + SIM_RING_AREA;

	wr_write(s, E1_V0_CTRL, E1_V0_CTRL_FLUSH);
	wr_write(s, E1_V0_DESC_BASE_LO, (u32)ring);
	wr_write(s, E1_V0_DESC_BASE_HI, (u32)(ring >> 32));
	wr_write(s, E1_V0_DESC_RING_LEN, SIM_RING_LEN);
	wr_write(s, E1_V0_TENSOR_MEM_BASE_LO, (u32)tmem);
	wr_write(s, E1_V0_TENSOR_MEM_BASE_HI, (u32)(tmem >> 32));
	wr_write(s, E1_V0_TENSOR_MEM_LEN, (u32)s->arena_size);
	wr_write(s, E1_V0_IRQ_STATUS, E1_V0_IRQ_ALL);
	wr_write(s, E1_V0_IRQ_MASK, E1_V0_IRQ_ALL);
	wr_write(s, E1_V0_CTRL, E1_V0_CTRL_ENABLE | E1_V0_CTRL_IRQ_ENABLE |
				E1_V0_CTRL_CPU_FALLBACK);
	s->head = 0;
}

static int sim_open(struct e1npu_device *dev, const char *path)
{
	struct e1_model_config cfg;
	struct e1_model_host host;
	unsigned int mb, engines, hang_ms, gemmini, timing;
	struct sim *s;
	u32 wid = 0, caps = 0, did = 0;

	(void)path;
	if (env_uint("E1NPU_SIM_ARENA_MB", &mb) ||
	    env_uint("E1NPU_SIM_HANG_MS", &hang_ms) ||
	    env_uint("E1NPU_SIM_ENGINES", &engines) ||
	    env_uint("E1NPU_SIM_GEMMINI", &gemmini) ||
	    env_uint("E1NPU_SIM_TIMING", &timing))
		return -EINVAL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->model = calloc(1, sizeof(*s->model));
	if (!s->model) {
		free(s);
		return -ENOMEM;
	}
	s->arena_size = (uint64_t)mb << 20;
	s->mem_size = SIM_RING_AREA + s->arena_size;
	s->mem = mmap(NULL, s->mem_size, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (s->mem == MAP_FAILED) {
		free(s->model);
		free(s);
		return -ENOMEM;
	}
	s->hang_ns = (int64_t)hang_ms * 1000000LL;
	s->next_job_id = 1;

	/* Test knobs: which engines the simulated instance has. */
	e1_model_default_config(&cfg);
	cfg.wrapper_present = engines & 1;
	cfg.datapath_present = engines & 2;
	cfg.gemmini_present = gemmini;
	/* Which Gemmini-following charges apply (0: the first pin's). */
	cfg.timing.gemmini = timing;
	host.map = sim_map;
	host.irq = sim_irq;
	host.ctx = s;
	e1_model_init(s->model, &cfg, &host);

	s->fl = calloc(1, sizeof(*s->fl));
	if (!s->fl) {
		munmap(s->mem, s->mem_size);
		free(s->model);
		free(s);
		return -ENOMEM;
	}
	s->fl[0].off = 0;
	s->fl[0].size = s->arena_size;
	s->nfl = s->capfl = 1;
	dev->priv = s;
	dev->timing = cfg.timing;

	if (cfg.wrapper_present) {
		sim_hw_init(s);
		wid = wr_read(s, E1_V0_ID);
		caps = wr_read(s, E1_V0_CAPS);
	}
	if (cfg.datapath_present)
		did = dp_read(s, E1_DP_ID);
	e1npu_limits_init(&dev->lim, cfg.wrapper_present, wid, caps,
			  cfg.datapath_present, did, SIM_RING_LEN,
			  s->arena_size);
	snprintf(dev->info.path, sizeof(dev->info.path), "sim");
	snprintf(dev->info.driver, sizeof(dev->info.driver), "e1npu-sim");
	dev->info.driver_major = E1NPU_DRIVER_MAJOR;
	dev->info.driver_minor = E1NPU_DRIVER_MINOR;
	return 0;
}

static void sim_close(struct e1npu_device *dev)
{
	struct sim *s = to_sim(dev);

	munmap(s->mem, s->mem_size);
	free(s->bos);
	free(s->fl);
	free(s->model);
	free(s);
	dev->priv = NULL;
}

/* First fit. */
static int fl_alloc(struct sim *s, uint64_t size, uint64_t *off)
{
	uint32_t i;

	for (i = 0; i < s->nfl; i++) {
		if (s->fl[i].size < size)
			continue;
		*off = s->fl[i].off;
		s->fl[i].off += size;
		s->fl[i].size -= size;
		if (!s->fl[i].size) {
			memmove(&s->fl[i], &s->fl[i + 1],
				(s->nfl - i - 1) * sizeof(*s->fl));
			s->nfl--;
		}
		return 0;
	}
	return -ENOMEM;
}

static int fl_free(struct sim *s, uint64_t off, uint64_t size)
{
	uint32_t i;

	for (i = 0; i < s->nfl && s->fl[i].off < off; i++)
		;
	/* Merge with the previous and/or the next free block. */
	if (i > 0 && s->fl[i - 1].off + s->fl[i - 1].size == off) {
		s->fl[i - 1].size += size;
		if (i < s->nfl && off + size == s->fl[i].off) {
			s->fl[i - 1].size += s->fl[i].size;
			memmove(&s->fl[i], &s->fl[i + 1],
				(s->nfl - i - 1) * sizeof(*s->fl));
			s->nfl--;
		}
		return 0;
	}
	if (i < s->nfl && off + size == s->fl[i].off) {
		s->fl[i].off = off;
		s->fl[i].size += size;
		return 0;
	}
	if (s->nfl == s->capfl) {
		uint32_t cap = s->capfl * 2;
		void *p = realloc(s->fl, cap * sizeof(*s->fl));

		if (!p)
			return -ENOMEM;	/* leaks the block, never corrupts */
		s->fl = p;
		s->capfl = cap;
	}
	memmove(&s->fl[i + 1], &s->fl[i], (s->nfl - i) * sizeof(*s->fl));
	s->fl[i].off = off;
	s->fl[i].size = size;
	s->nfl++;
	return 0;
}

static int sim_bo_create(struct e1npu_device *dev, uint64_t size,
			 uint32_t *handle, uint64_t *bo_size)
{
	struct sim *s = to_sim(dev);
	uint64_t rsize, off;
	uint32_t i;

	if (!size)
		return -EINVAL;
	if (size > s->arena_size)
		return -ENOMEM;
	rsize = (size + E1NPU_PAGE_SIZE - 1) & ~(uint64_t)(E1NPU_PAGE_SIZE - 1);
	for (i = 0; i < s->nbos && s->bos[i].used; i++)
		;
	if (i == s->capbos) {
		uint32_t cap = s->capbos ? s->capbos * 2 : 16;
		void *p = realloc(s->bos, cap * sizeof(*s->bos));

		if (!p)
			return -ENOMEM;
		s->bos = p;
		s->capbos = cap;
	}
	if (fl_alloc(s, rsize, &off))
		return -ENOMEM;
	if (i == s->nbos)
		s->nbos++;
	s->bos[i].off = off;
	s->bos[i].size = rsize;
	s->bos[i].used = true;
	/* Buffers start zeroed, like the driver's. */
	memset(s->mem + SIM_RING_AREA + off, 0, rsize);
	*handle = i + 1;
	*bo_size = rsize;
	return 0;
}

static struct sim_bo *sim_bo_get(struct sim *s, uint32_t handle)
{
	if (!handle || handle > s->nbos || !s->bos[handle - 1].used)
		return NULL;
	return &s->bos[handle - 1];
}

static void sim_bo_free(struct e1npu_device *dev, uint32_t handle, void *map,
			uint64_t bo_size)
{
	struct sim *s = to_sim(dev);
	struct sim_bo *bo = sim_bo_get(s, handle);

	(void)map;
	(void)bo_size;
	if (!bo)
		return;
	/* Give big blocks' pages back to the host. */
	if (bo->size >= (1u << 20))
		madvise(s->mem + SIM_RING_AREA + bo->off, bo->size,
			MADV_DONTNEED);
	fl_free(s, bo->off, bo->size);
	bo->used = false;
	while (s->nbos && !s->bos[s->nbos - 1].used)
		s->nbos--;
}

static int sim_bo_map(struct e1npu_device *dev, uint32_t handle,
		      uint64_t bo_size, void **ptr)
{
	struct sim *s = to_sim(dev);
	struct sim_bo *bo = sim_bo_get(s, handle);

	(void)bo_size;
	if (!bo)
		return -ENOENT;
	*ptr = s->mem + SIM_RING_AREA + bo->off;
	return 0;
}

static int sim_lookup(void *ctx, u32 handle, u64 *size)
{
	struct sim_bo *bo = sim_bo_get(ctx, handle);

	if (!bo)
		return -ENOENT;
	*size = bo->size;
	return 0;
}

static uint64_t tensor_bus(struct sim *s, const struct e1npu_hw_tensor *t)
{
	struct sim_bo *bo = sim_bo_get(s, t->handle);

	if (!bo)
		return 0;
	return SIM_BUS_BASE + SIM_RING_AREA + bo->off + t->offset;
}

static uint8_t *tensor_host(struct sim *s, const struct e1npu_hw_tensor *t)
{
	struct sim_bo *bo = sim_bo_get(s, t->handle);

	if (!bo)
		return NULL;
	return s->mem + SIM_RING_AREA + bo->off + t->offset;
}

static uint32_t *ring_desc(struct sim *s, uint32_t idx)
{
	return (uint32_t *)(s->mem + (uint64_t)idx * E1_V0_DESC_SIZE);
}

static void sim_run_model(struct sim *s)
{
	int64_t t0 = e1npu_now_ns();

	e1_model_run(s->model);
	s->model_ns += (uint64_t)(e1npu_now_ns() - t0);
}

static void sim_flush(struct sim *s)
{
	wr_write(s, E1_V0_CTRL, E1_V0_CTRL_ENABLE | E1_V0_CTRL_IRQ_ENABLE |
				E1_V0_CTRL_CPU_FALLBACK | E1_V0_CTRL_FLUSH);
	wr_write(s, E1_V0_IRQ_STATUS, E1_V0_IRQ_ALL);
	s->head = 0;
}

/* Inspect the wrapper after a run, as the driver's IRQ thread does. */
static void sim_wrapper_complete(struct sim *s, struct sim_job *j)
{
	u32 st = wr_read(s, E1_V0_STATUS), len = SIM_RING_LEN;
	u32 code, idx, fail, i;

	j->res.state = E1NPU_HWJOB_DONE;
	j->res.ops_done = j->count;
	if (st & E1_V0_STATUS_ERROR) {
		code = E1_FIELD_GET(E1_V0_STATUS_ERR_CODE, st);
		idx = wr_read(s, E1_V0_ERR_DESC_INDEX);
		fail = (idx - j->start_idx) & (len - 1);
		if (fail >= j->count)
			fail = 0;
		j->res.state = E1NPU_HWJOB_FAILED;
		j->res.err_code = code;
		j->res.fail_index = fail;
		j->res.ops_done = fail;
		if (code >= E1_V0_ERR_UNKNOWN_OP && code <= E1_V0_ERR_ALIGN) {
			/*
			 * CPU-fallback contract: skip the rest of the job
			 * (userspace resubmits it after running this op), then
			 * the seed's steps c and d: clear, retire the stalled
			 * descriptor through DESC_TAIL; drain.
			 */
			for (i = fail + 1; i < j->count; i++)
				e1npu_desc_make_nop(ring_desc(s, (j->start_idx + i) & (len - 1)),
						    i == j->count - 1);
			wr_write(s, E1_V0_IRQ_STATUS, E1_V0_IRQ_UNSUPPORTED_OP |
						      E1_V0_IRQ_ERROR);
			wr_write(s, E1_V0_DESC_TAIL, (idx + 1) & (len - 1));
			sim_run_model(s);
			j->res.error = -EOPNOTSUPP;
			st = wr_read(s, E1_V0_STATUS);
			if (!(st & E1_V0_STATUS_ERROR) &&
			    !E1_FIELD_GET(E1_V0_STATUS_Q_LEVEL, st)) {
				wr_write(s, E1_V0_IRQ_STATUS, E1_V0_IRQ_DONE);
				return;
			}
			/* The NOP drain failed too: recover like a hard error. */
		} else {
			/* 0x05 window, 0x06 bus: -EFAULT; 0x07 overflow: -EIO */
			j->res.error = code == E1_V0_ERR_OVERFLOW ? -EIO : -EFAULT;
		}
		sim_flush(s);
		return;
	}
	if (E1_FIELD_GET(E1_V0_STATUS_Q_LEVEL, st)) {
		/* Not retiring: hung. Reset after the job timeout. */
		j->hung = true;
		j->hang_deadline = e1npu_now_ns() + s->hang_ns;
		j->res.state = E1NPU_HWJOB_PENDING;
		return;
	}
	wr_write(s, E1_V0_IRQ_STATUS, E1_V0_IRQ_DONE);
}

/* Reset a hung engine: the job fails with -ETIMEDOUT at the stuck op. */
static void sim_reset_hung(struct sim *s, struct sim_job *j)
{
	u32 tail = wr_read(s, E1_V0_DESC_TAIL);
	u32 fail = (tail - j->start_idx) & (SIM_RING_LEN - 1);

	if (fail >= j->count)
		fail = 0;
	sim_flush(s);
	j->hung = false;
	j->res.state = E1NPU_HWJOB_FAILED;
	j->res.error = -ETIMEDOUT;
	j->res.err_code = 0;
	j->res.fail_index = fail;
	j->res.ops_done = fail;
}

static struct sim_job *sim_find_job(struct sim *s, uint32_t job_id)
{
	struct sim_job *j = &s->jobs[job_id % SIM_RESULTS];

	return j->valid && j->job_id == job_id ? j : NULL;
}

/* A datapath job's register accesses, counted (e1npu_sim_dp_mmio()). */
static u32 dp_job_read(void *ctx, u32 reg)
{
	((struct sim *)ctx)->dp_mmio++;
	return dp_read(ctx, reg);
}

static void dp_job_write(void *ctx, u32 reg, u32 v)
{
	((struct sim *)ctx)->dp_mmio++;
	dp_write(ctx, reg, v);
}

static void sim_run_datapath(struct sim *s, struct sim_job *j,
			     const struct e1npu_hw_op *ops)
{
	struct e1npu_dp_io io = { .read = dp_job_read, .write = dp_job_write, .ctx = s };
	uint32_t i, hw = 0;
	int64_t t0;
	int ret = 0;

	j->res.state = E1NPU_HWJOB_DONE;
	j->res.ops_done = j->count;
	for (i = 0; i < j->count; i++) {
		const struct e1npu_hw_op *op = &ops[i];

		t0 = e1npu_now_ns();
		ret = e1npu_dp_exec(&io, op, tensor_host(s, &op->a),
				    op->b.handle ? tensor_host(s, &op->b) : NULL,
				    tensor_host(s, &op->c), &hw);
		s->model_ns += (uint64_t)(e1npu_now_ns() - t0);
		if (ret)
			break;
	}
	if (!ret)
		return;
	j->res.state = E1NPU_HWJOB_FAILED;
	j->res.error = ret == -EIO ? -EIO : ret;
	j->res.err_code = hw;
	j->res.fail_index = i;
	j->res.ops_done = i;
}

/*
 * When a job depending on @deps may start: the host's time, or a later
 * end of a dependency. Slots keep job_id and end after the result is read,
 * so a read dependency still counts until its slot is reused (by then it
 * ended long before anything the host submits now).
 */
static uint64_t sim_ready(const struct sim *s, const uint32_t *deps,
			  uint32_t ndeps)
{
	uint64_t t = s->host_now;
	uint32_t i;

	for (i = 0; i < ndeps; i++) {
		const struct sim_job *d = &s->jobs[deps[i] % SIM_RESULTS];

		if (d->job_id == deps[i] && d->end > t)
			t = d->end;
	}
	return t;
}

static int sim_submit(struct e1npu_device *dev, const struct e1npu_hw_op *ops,
		      uint32_t count, uint32_t engine, const uint32_t *deps,
		      uint32_t ndeps, uint32_t *job_id)
{
	struct sim *s = to_sim(dev);
	struct e1npu_op_err err;
	struct sim_job *j;
	uint64_t ready;
	unsigned int clk;	/* the engine on the model's clock */
	uint32_t i;
	int ret;

	if (!count || count > dev->lim.max_ops_per_job)
		return -EINVAL;
	if (engine > DRM_E1NPU_ENGINE_DATAPATH)
		return -EINVAL;
	/* The kernel's validation, before anything runs. */
	for (i = 0; i < count; i++) {
		ret = e1npu_op_check(&ops[i], engine, &dev->lim, sim_lookup, s,
				     &err);
		if (ret)
			return ret;
	}
	if (ndeps && !deps)
		return -EINVAL;
	/* A hung job still outstanding: its timeout handler runs first. */
	for (i = 0; i < SIM_RESULTS; i++)
		if (s->jobs[i].valid && s->jobs[i].hung)
			sim_reset_hung(s, &s->jobs[i]);

	ready = sim_ready(s, deps, ndeps);
	clk = engine == DRM_E1NPU_ENGINE_DATAPATH ? E1_ENGINE_DATAPATH : E1_ENGINE_WRAPPER;
	e1_model_clock_gate(s->model, clk, ready);
	j = &s->jobs[s->next_job_id % SIM_RESULTS];
	memset(j, 0, sizeof(*j));
	j->job_id = s->next_job_id++;
	if (!s->next_job_id)
		s->next_job_id = 1;
	j->valid = true;
	j->engine = engine;
	j->count = count;
	j->res.job_id = j->job_id;
	s->jobs_run++;

	if (engine == DRM_E1NPU_ENGINE_DATAPATH) {
		sim_run_datapath(s, j, ops);
	} else {
		u64 addr[E1NPU_T_COUNT];

		j->start_idx = s->head;
		for (i = 0; i < count; i++) {
			uint32_t *desc = ring_desc(s, (s->head + i) & (SIM_RING_LEN - 1));

			addr[E1NPU_T_A] = tensor_bus(s, &ops[i].a);
			addr[E1NPU_T_B] = tensor_bus(s, &ops[i].b);
			addr[E1NPU_T_C] = tensor_bus(s, &ops[i].c);
			ret = e1npu_op_encode(&ops[i], addr,
					      (j->job_id << 8) | (i & 0xff), desc);
			if (ret)
				return ret;
			if (i == count - 1)
				e1npu_desc_set_irq(desc);
		}
		s->head = (s->head + count) & (SIM_RING_LEN - 1);
		wr_write(s, E1_V0_DESC_DOORBELL, s->head);
		sim_run_model(s);
		sim_wrapper_complete(s, j);
	}
	j->end = e1_model_clock_busy_until(s->model, clk);
	if (j->end < ready)
		j->end = ready;	/* it did no modelled work */
	*job_id = j->job_id;
	return 0;
}

static void sleep_until(int64_t t)
{
	struct timespec ts;

	ts.tv_sec = t / 1000000000LL;
	ts.tv_nsec = t % 1000000000LL;
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static int sim_wait(struct e1npu_device *dev, uint32_t job_id,
		    int64_t deadline_ns)
{
	struct sim *s = to_sim(dev);
	struct sim_job *j = sim_find_job(s, job_id);

	if (!j)
		return -ENOENT;
	if (!j->hung) {
		/* The host knows it ended: what it submits next starts after. */
		if (j->end > s->host_now)
			s->host_now = j->end;
		return 0;
	}
	if (deadline_ns >= 0 && deadline_ns < j->hang_deadline) {
		if (deadline_ns > e1npu_now_ns())
			sleep_until(deadline_ns);
		return -ETIME;
	}
	sleep_until(j->hang_deadline);
	sim_reset_hung(s, j);
	if (j->end > s->host_now)
		s->host_now = j->end;
	return 0;
}

static int sim_job_result(struct e1npu_device *dev, uint32_t job_id,
			  struct e1npu_hw_result *res)
{
	struct sim *s = to_sim(dev);
	struct sim_job *j = sim_find_job(s, job_id);

	if (!j)
		return -ENOENT;
	*res = j->res;
	if (j->res.state != E1NPU_HWJOB_PENDING)
		j->valid = false;	/* read once */
	return 0;
}

static int sim_read_perf(struct e1npu_device *dev, struct e1npu_perf *p)
{
	struct sim *s = to_sim(dev);

	p->global_cycles = e1_model_makespan(s->model);
	if (s->model->cfg.wrapper_present) {
		p->wrapper_cycles = e1_model_cycles(s->model);
		p->wrapper_macs = (uint64_t)wr_read(s, E1_V0_PERF_MACS_HI) << 32 |
				  wr_read(s, E1_V0_PERF_MACS_LO);
		p->wrapper_fallbacks = wr_read(s, E1_V0_PERF_FALLBACKS);
	}
	if (s->model->cfg.datapath_present) {
		p->dp_cycles = dp_read(s, E1_DP_PERF_CYCLES);
		p->dp_macs = dp_read(s, E1_DP_PERF_MACS);
		p->dp_ops = dp_read(s, E1_DP_PERF_OPS);
		p->dp_errors = dp_read(s, E1_DP_PERF_ERRORS);
		p->dp_unsupported_ops = dp_read(s, E1_DP_PERF_UNSUPPORTED_OPS);
		p->dp_stall_cycles = dp_read(s, E1_DP_PERF_STALL_CYCLES);
		p->dp_scratch_bytes = dp_read(s, E1_DP_PERF_SCRATCH_BYTES);
	}
	return 0;
}

const struct e1npu_backend_funcs e1npu_backend_sim = {
	.name = "sim",
	.open = sim_open,
	.close = sim_close,
	.bo_create = sim_bo_create,
	.bo_free = sim_bo_free,
	.bo_map = sim_bo_map,
	.submit = sim_submit,
	.wait = sim_wait,
	.job_result = sim_job_result,
	.read_perf = sim_read_perf,
};

/* Test and benchmark hooks (lib/sim.h; not exported from the .so). */
struct e1_model *e1npu_sim_model(struct e1npu_device *dev)
{
	if (!dev || dev->be != &e1npu_backend_sim)
		return NULL;
	return to_sim(dev)->model;
}

uint64_t e1npu_sim_model_ns(struct e1npu_device *dev)
{
	if (!dev || dev->be != &e1npu_backend_sim)
		return 0;
	return to_sim(dev)->model_ns;
}

int e1npu_sim_free_blocks(struct e1npu_device *dev)
{
	if (!dev || dev->be != &e1npu_backend_sim)
		return -EINVAL;
	return (int)to_sim(dev)->nfl;
}

uint64_t e1npu_sim_dp_mmio(struct e1npu_device *dev)
{
	if (!dev || dev->be != &e1npu_backend_sim)
		return 0;
	return to_sim(dev)->dp_mmio;
}
