// SPDX-License-Identifier: MIT
/*
 * e1npu-proof fuzz SEED PROCS CALLS SECONDS: PROCS processes issue random
 * sequences of every e1npu ioctl (DEV_QUERY, BO_CREATE, BO_MMAP_OFFSET,
 * BO_WAIT, SUBMIT, JOB_RESULT), GEM_CLOSE, the syncobj ioctls, VERSION and
 * unknown driver ioctls, plus mmap/munmap, close/reopen of the device, fork
 * (the child keeps calling on the inherited file) and SIGKILL of children
 * with work in flight, until CALLS calls in total or SECONDS passed.
 * SUBMIT carries valid operations (which run on the engines), operations
 * with 1-3 fields replaced by edge values, and mutated jobs and headers.
 *
 * Process i draws from its own xorshift stream seeded from SEED and i, and
 * draws the same number of values whatever a call returns, so a seed
 * replays the same calls (the kernel's answers may differ with timing).
 * A victim process holds canary buffers, filled with a pattern and never
 * submitted; they must be intact at the end. Meanwhile the QEMU device
 * counts every memory access outside its dma-window (the arena; set and
 * checked by run-proof.sh, whose own victim, e1npu-proof victim, holds
 * canaries in another file through the stress run as well).
 *
 * Results: "fuzz-pN" (the process ran to the end), "fuzz-calls" (CALLS
 * reached within SECONDS, and some submits ran), "fuzz-canary".
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "e1p.h"
#include "e1npu_hw.h"

#define FZ_BOS		12
#define FZ_SYNCS	6
#define FZ_IDS		32
#define FZ_CANARY_BOS	4
#define FZ_CANARY_SIZE	(16 * 1024)

/* Counters shared by every process (MAP_SHARED). */
struct fz_shared {
	uint64_t calls;
	uint64_t submits;
	uint64_t submits_ok;
	uint64_t done;
	uint64_t forks;
	uint64_t kills;
	uint64_t reopens;
	uint64_t mmaps;
	int stop;
};

struct fz_bo {
	uint32_t handle;
	uint64_t size;
	uint8_t *map;
	size_t maplen;
};

struct fz {
	struct fz_shared *sh;
	uint64_t end_ns;
	uint64_t target;
	uint32_t rng;
	int fd;
	struct drm_e1npu_dev_info info;
	struct fz_bo bo[FZ_BOS];
	uint32_t sync[FZ_SYNCS];
	uint32_t ids[FZ_IDS];
	unsigned int nid;
};

static uint32_t rnd(struct fz *f, uint32_t n)
{
	return n ? e1t_rand(&f->rng) % n : e1t_rand(&f->rng);
}

static int fz_ioctl(struct fz *f, unsigned long req, void *arg)
{
	__atomic_add_fetch(&f->sh->calls, 1, __ATOMIC_RELAXED);
	return e1t_ioctl(f->fd, req, arg);
}

static bool fz_over(struct fz *f)
{
	if (__atomic_load_n(&f->sh->stop, __ATOMIC_RELAXED))
		return true;
	if (__atomic_load_n(&f->sh->calls, __ATOMIC_RELAXED) >= f->target ||
	    e1t_now_ns() > f->end_ns) {
		__atomic_store_n(&f->sh->stop, 1, __ATOMIC_RELAXED);
		return true;
	}
	return false;
}

/* An edge value for a u32 field; @size: a buffer size near which to aim. */
static uint32_t edge32(struct fz *f, uint64_t size)
{
	static const uint32_t v[] = {
		0, 1, 2, 3, 4, 7, 8, 15, 16, 17, 63, 64, 65, 255, 256, 4095,
		4096, 65535, 65536, 0x7fffffff, 0x80000000, 0xfffffffe,
		0xffffffff,
	};
	uint32_t r = rnd(f, 0), pick = rnd(f, 4);

	if (pick == 0)
		return r;
	if (pick == 1)
		return (uint32_t)size + (r % 5) - 2;
	return v[r % E1T_ARRAY_SIZE(v)];
}

/* A handle: mostly one of ours (maybe closed), sometimes any number. */
static uint32_t pick_handle(struct fz *f)
{
	uint32_t r = rnd(f, 0);

	if (r % 8 == 0)
		return r >> 8 & 0x3f;
	return f->bo[(r >> 8) % FZ_BOS].handle;
}

static struct fz_bo *pick_bo(struct fz *f)
{
	return &f->bo[rnd(f, FZ_BOS)];
}

static void bo_drop(struct fz *f, struct fz_bo *b)
{
	if (b->map) {
		munmap(b->map, b->maplen);
		__atomic_add_fetch(&f->sh->calls, 1, __ATOMIC_RELAXED);
	}
	memset(b, 0, sizeof(*b));
}

static void act_bo_create(struct fz *f)
{
	struct fz_bo *b = pick_bo(f);
	struct drm_e1npu_bo_create c;
	uint32_t r = rnd(f, 0), sel = rnd(f, 32);

	memset(&c, 0, sizeof(c));
	c.size = (r & 1 ? 4096 : 1) + r % (64 * 1024);
	if (sel == 0)
		c.size = 0;
	else if (sel == 1)
		c.size = (uint64_t)1 << (20 + r % 44);
	else if (sel == 2)
		c.size = f->info.arena_size + (r % 3) - 1;
	else if (sel == 3)
		c.flags = 1u << (r % 32);
	if (fz_ioctl(f, DRM_IOCTL_E1NPU_BO_CREATE, &c) == 0) {
		if (c.size > (1u << 20)) {	/* do not hold big ones */
			struct drm_gem_close gc = { .handle = c.handle };

			fz_ioctl(f, DRM_IOCTL_GEM_CLOSE, &gc);
			return;
		}
		if (b->handle) {
			struct drm_gem_close gc = { .handle = b->handle };

			fz_ioctl(f, DRM_IOCTL_GEM_CLOSE, &gc);
			bo_drop(f, b);
		}
		b->handle = c.handle;
		b->size = (c.size + 4095) & ~4095ull;
	}
}

static void act_gem_close(struct fz *f)
{
	struct fz_bo *b = pick_bo(f);
	struct drm_gem_close gc;
	uint32_t other = rnd(f, 8) == 0;

	memset(&gc, 0, sizeof(gc));
	gc.handle = other ? pick_handle(f) : b->handle;
	if (fz_ioctl(f, DRM_IOCTL_GEM_CLOSE, &gc) == 0 && !other)
		bo_drop(f, b);
}

static void act_mmap(struct fz *f)
{
	struct fz_bo *b = pick_bo(f);
	struct drm_e1npu_bo_mmap_offset mo;
	uint32_t sel = rnd(f, 8), r = rnd(f, 0);
	size_t len;
	void *p;

	memset(&mo, 0, sizeof(mo));
	mo.handle = sel == 0 ? pick_handle(f) : b->handle;
	if (sel == 1)
		mo.pad = r | 1;
	if (fz_ioctl(f, DRM_IOCTL_E1NPU_BO_MMAP_OFFSET, &mo) || sel <= 1 || !b->handle)
		return;
	if (b->map) {
		munmap(b->map, b->maplen);
		__atomic_add_fetch(&f->sh->calls, 1, __ATOMIC_RELAXED);
		b->map = NULL;
		if (sel == 2)
			return;
	}
	len = sel == 3 ? b->size + 4096 : b->size;	/* too long: EINVAL */
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, f->fd,
		 (off_t)mo.offset + (sel == 4 ? 4096 : 0));
	__atomic_add_fetch(&f->sh->calls, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&f->sh->mmaps, 1, __ATOMIC_RELAXED);
	if (p == MAP_FAILED)
		return;
	memset(p, (int)(r & 0xff), len < 256 ? len : 256);
	if (sel >= 3 && sel <= 5) {	/* map, touch, unmap at once */
		munmap(p, len);
		__atomic_add_fetch(&f->sh->calls, 1, __ATOMIC_RELAXED);
		return;
	}
	b->map = p;
	b->maplen = len;
}

static void act_bo_wait(struct fz *f)
{
	struct drm_e1npu_bo_wait w;
	uint32_t sel = rnd(f, 4), r = rnd(f, 0);

	memset(&w, 0, sizeof(w));
	w.handle = pick_handle(f);
	if (sel == 0)
		w.timeout_ns = 0;
	else if (sel == 1)
		w.timeout_ns = -(int64_t)r;
	else
		w.timeout_ns = (int64_t)e1t_now_ns() + r % 2000000;
	if (rnd(f, 16) == 0)
		w.pad = 1;
	fz_ioctl(f, DRM_IOCTL_E1NPU_BO_WAIT, &w);
}

/* A tensor in buffer @b at a small aligned offset. */
static struct e1npu_hw_tensor tensor(struct fz *f, struct fz_bo *b,
				      uint32_t stride, uint32_t align)
{
	struct e1npu_hw_tensor t;

	t.handle = b->handle;
	t.stride = stride;
	t.offset = (uint64_t)rnd(f, 4) * align;
	return t;
}

/* A plausible operation of @engine, often valid. */
static void gen_op(struct fz *f, uint32_t engine, struct e1npu_hw_op *op)
{
	uint32_t al = f->info.align ? f->info.align : 16, kind = rnd(f, 8);
	uint32_t m = 1 + rnd(f, 16), n = 1 + rnd(f, 16), k = 1 + rnd(f, 16);
	struct fz_bo *a = pick_bo(f), *b = pick_bo(f), *c = pick_bo(f);

	memset(op, 0, sizeof(*op));
	if (engine == DRM_E1NPU_ENGINE_DATAPATH) {
		switch (kind % 4) {
		case 0:
			op->opcode = E1NPU_HWOP_DP_GEMM_S8 + (kind & 4 ? 1 : 0);
			op->m = 1 + m % 3;
			op->n = 1 + n % 3;
			op->k = 1 + k % 7;
			op->a = tensor(f, a, 8, 4);
			op->b = tensor(f, b, 4, 4);
			op->c = tensor(f, c, 16, 4);
			break;
		case 1:
			op->opcode = E1NPU_HWOP_DP_VRELU_S8;
			op->n = 1 + (m * n) % 64;
			op->a = tensor(f, a, 0, 1);
			op->c = tensor(f, c, 0, 4);
			break;
		default:
			op->opcode = E1NPU_HWOP_DP_SCALAR;
			op->m = m;
			op->k = k % 12;
			op->a = tensor(f, a, 0, 4);
			op->c = tensor(f, c, 0, 4);
			break;
		}
		return;
	}
	switch (kind) {
	case 0:
		op->opcode = E1NPU_HWOP_NOP;
		break;
	case 1:
		op->opcode = E1NPU_HWOP_BARRIER;
		break;
	case 2:
	case 3:
		op->opcode = E1NPU_HWOP_MATMUL_S8;
		op->flags = kind == 3 ? E1NPU_HWOP_FLAG_RELU : 0;
		op->m = m;
		op->n = n;
		op->k = k;
		op->a = tensor(f, a, (k + al - 1) / al * al, al);
		op->b = tensor(f, b, (n + al - 1) / al * al, al);
		op->c = tensor(f, c, (4 * n + al - 1) / al * al, al);
		break;
	case 4:
		op->opcode = E1NPU_HWOP_RELU_S8;
		op->m = m;
		op->n = n;
		op->a = tensor(f, a, (n + al - 1) / al * al, al);
		op->c = tensor(f, c, (n + al - 1) / al * al, al);
		break;
	case 5:
		op->opcode = E1NPU_HWOP_MAXPOOL_S8;
		op->m = 2 + m % 6;
		op->n = 2 + n % 6;
		op->c_in = 1 + k % 4;
		op->k = 2 + (kind & 1);
		op->stride_h = 1 + (m & 1);
		op->a = tensor(f, a, (op->n * op->c_in + al - 1) / al * al, al);
		op->c = tensor(f, c, (op->n * op->c_in + al - 1) / al * al, al);
		break;
	case 6:
		op->opcode = E1NPU_HWOP_CONV2D_S8;
		op->m = 3 + m % 4;
		op->n = 3 + n % 4;
		op->c_in = 1 + k % 3;
		op->c_out = 1 + n % 4;
		op->k = 3;
		op->out_h = op->m - 2;
		op->out_w = op->n - 2;
		op->stride_h = 1;
		op->stride_w = 1;
		op->dilation = 1;
		op->a = tensor(f, a, (op->n * op->c_in + al - 1) / al * al, al);
		op->b = tensor(f, b, (op->c_out + al - 1) / al * al, al);
		op->c = tensor(f, c, (op->out_w * op->c_out * 4 + al - 1) / al * al, al);
		break;
	default:
		op->opcode = E1NPU_HWOP_FALLBACK;
		break;
	}
}

/* Replace 1-3 words of @op with edge values. */
static void mutate_op(struct fz *f, struct e1npu_hw_op *op)
{
	uint32_t w[sizeof(*op) / 4], i, n = 1 + rnd(f, 3);

	memcpy(w, op, sizeof(w));
	for (i = 0; i < n; i++) {
		uint32_t at = rnd(f, E1T_ARRAY_SIZE(w));

		w[at] = edge32(f, f->bo[at % FZ_BOS].size);
	}
	memcpy(op, w, sizeof(w));
}

static void act_submit(struct fz *f)
{
	struct e1npu_hw_op ops[3][6];
	struct drm_e1npu_job jobs[3];
	struct drm_e1npu_submit s;
	uint32_t in[3][3], nj = 1 + rnd(f, 2) + !rnd(f, 4), j, i, sel = rnd(f, 32);
	/* about half the submits carry one mutated operation */
	uint32_t mut = rnd(f, 2) ? rnd(f, 3 * 6) : UINT32_MAX;
	bool dp = f->info.engines & (1u << DRM_E1NPU_ENGINE_DATAPATH);
	int ret;

	memset(jobs, 0, sizeof(jobs));
	for (j = 0; j < nj; j++) {
		struct drm_e1npu_job *jb = &jobs[j];
		uint32_t nops = 1 + rnd(f, 4) + 2 * !rnd(f, 8), jsel = rnd(f, 64);

		jb->engine = dp && rnd(f, 2) ? DRM_E1NPU_ENGINE_DATAPATH :
					       DRM_E1NPU_ENGINE_WRAPPER;
		for (i = 0; i < nops; i++) {
			gen_op(f, jb->engine, &ops[j][i]);
			if (j * 6 + i == mut)
				mutate_op(f, &ops[j][i]);
		}
		jb->ops = (uintptr_t)ops[j];
		jb->op_count = nops;
		for (i = 0; i < 3; i++)
			in[j][i] = rnd(f, 4) ? f->sync[rnd(f, FZ_SYNCS)] : rnd(f, 64);
		jb->in_syncs = (uintptr_t)in[j];
		jb->in_sync_count = rnd(f, 8) == 0 ? 1 + rnd(f, 3) : 0;
		jb->out_sync = rnd(f, 2) ? f->sync[rnd(f, FZ_SYNCS)] : 0;
		switch (jsel) {
		case 0: jb->engine = rnd(f, 0); break;
		case 1: jb->flags = 1u << rnd(f, 32); break;
		case 2: jb->op_count = edge32(f, 0); break;
		case 3: jb->ops = rnd(f, 2) ? 0 : 4096; break;
		case 4: jb->in_sync_count = edge32(f, 0); break;
		case 5: jb->in_syncs = 8; break;
		case 6: jb->out_sync = rnd(f, 0); break;
		default: break;
		}
	}
	memset(&s, 0, sizeof(s));
	s.jobs = (uintptr_t)jobs;
	s.job_count = nj;
	s.job_size = sizeof(jobs[0]);
	s.op_size = sizeof(ops[0][0]);
	switch (sel) {
	case 0: s.job_size = edge32(f, sizeof(jobs[0])); break;
	case 1: s.op_size = edge32(f, sizeof(ops[0][0])); break;
	case 2: s.job_count = edge32(f, 3); break;
	case 3: s.pad = 1 + rnd(f, 0) % 7; break;
	case 4: s.jobs = rnd(f, 2) ? 0 : 0x1000; break;
	default: break;
	}
	__atomic_add_fetch(&f->sh->submits, 1, __ATOMIC_RELAXED);
	ret = fz_ioctl(f, DRM_IOCTL_E1NPU_SUBMIT, &s);
	if (ret)
		return;
	__atomic_add_fetch(&f->sh->submits_ok, 1, __ATOMIC_RELAXED);
	for (j = 0; j < nj && j < s.job_count; j++)
		f->ids[f->nid++ % FZ_IDS] = jobs[j].job_id;
}

static void act_job_result(struct fz *f)
{
	struct e1npu_hw_result r;
	uint32_t sel = rnd(f, 8), at = rnd(f, FZ_IDS);

	memset(&r, 0, sizeof(r));
	r.job_id = sel == 0 ? edge32(f, 0) : f->ids[at];
	if (sel == 1)
		r.state = 1;
	if (fz_ioctl(f, DRM_IOCTL_E1NPU_JOB_RESULT, &r) == 0 &&
	    r.state != E1NPU_HWJOB_PENDING)
		__atomic_add_fetch(&f->sh->done, 1, __ATOMIC_RELAXED);
}

static void act_dev_query(struct fz *f)
{
	static uint8_t buf[8192];
	struct drm_e1npu_dev_query q;
	uint32_t sel = rnd(f, 6);

	memset(&q, 0, sizeof(q));
	q.type = rnd(f, 4) ? 0 : edge32(f, 0);
	q.size = edge32(f, sizeof(f->info));
	if (q.size > sizeof(buf) && sel < 4)
		q.size = sizeof(buf);
	if (sel == 0)
		q.pointer = 0;
	else if (sel == 5)
		q.pointer = rnd(f, 2) ? 8 : (uintptr_t)-4096;
	else
		q.pointer = (uintptr_t)buf;
	fz_ioctl(f, DRM_IOCTL_E1NPU_DEV_QUERY, &q);
}

static void act_syncobj(struct fz *f)
{
	uint32_t sel = rnd(f, 6), at = rnd(f, FZ_SYNCS), h[2];
	struct drm_syncobj_array arr;
	struct drm_syncobj_wait w;

	h[0] = f->sync[at];
	h[1] = rnd(f, 4) ? f->sync[rnd(f, FZ_SYNCS)] : rnd(f, 64);
	switch (sel) {
	case 0:
		if (f->sync[at]) {
			__atomic_add_fetch(&f->sh->calls, 1, __ATOMIC_RELAXED);
			e1p_syncobj_destroy(f->fd, f->sync[at]);
		}
		__atomic_add_fetch(&f->sh->calls, 1, __ATOMIC_RELAXED);
		e1p_syncobj_create(f->fd, &f->sync[at]);
		break;
	case 1:
	case 2:
		memset(&w, 0, sizeof(w));
		w.handles = (uintptr_t)h;
		w.count_handles = 1 + (sel == 2);
		w.timeout_nsec = (int64_t)e1t_now_ns() + rnd(f, 1000000);
		w.flags = rnd(f, 2) ? DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL : 0;
		fz_ioctl(f, DRM_IOCTL_SYNCOBJ_WAIT, &w);
		break;
	case 3:
	case 4:
		memset(&arr, 0, sizeof(arr));
		arr.handles = (uintptr_t)h;
		arr.count_handles = 1 + rnd(f, 2);
		fz_ioctl(f, sel == 3 ? DRM_IOCTL_SYNCOBJ_RESET :
				       DRM_IOCTL_SYNCOBJ_SIGNAL, &arr);
		break;
	default: {
		struct drm_syncobj_destroy d = { .handle = h[1] };

		fz_ioctl(f, DRM_IOCTL_SYNCOBJ_DESTROY, &d);
		break;
	}
	}
}

/* VERSION, or a driver ioctl number beyond the table, or a bad size. */
static void act_misc(struct fz *f)
{
	static uint8_t junk[256];
	struct drm_version v;
	uint32_t sel = rnd(f, 3), nr = 6 + rnd(f, 10), i;

	for (i = 0; i < sizeof(junk); i += 4)
		memcpy(junk + i, &(uint32_t){ rnd(f, 0) }, 4);
	if (sel == 0) {
		memset(&v, 0, sizeof(v));
		fz_ioctl(f, DRM_IOCTL_VERSION, &v);
	} else if (sel == 1) {
		fz_ioctl(f, DRM_IOWR(DRM_COMMAND_BASE + nr, struct e1npu_hw_op), junk);
	} else {
		/* a known command with a short or long argument */
		fz_ioctl(f, DRM_IOWR(DRM_COMMAND_BASE + DRM_E1NPU_SUBMIT, uint32_t) +
			 ((rnd(f, 2) * 64) << _IOC_SIZESHIFT), junk);
	}
}

/* Let the queued work drain a little: wait on our syncobjs. */
static void act_drain(struct fz *f)
{
	uint32_t at = rnd(f, FZ_SYNCS), ms = 1 + rnd(f, 20);

	__atomic_add_fetch(&f->sh->calls, 1, __ATOMIC_RELAXED);
	e1p_syncobj_wait(f->fd, &f->sync[at], 1, (int)ms);
}

static void fz_open(struct fz *f)
{
	struct e1t_dev d;
	unsigned int i;

	__atomic_add_fetch(&f->sh->calls, 2, __ATOMIC_RELAXED);
	if (e1t_open(&d)) {
		fprintf(stderr, "fuzz: cannot open %s\n", e1t_dev_path());
		exit(3);
	}
	f->fd = d.fd;
	f->info = d.info;
	for (i = 0; i < FZ_SYNCS; i++)
		e1p_syncobj_create(f->fd, &f->sync[i]);
	/* start with buffers, so most operations name live ones */
	for (i = 0; i < FZ_BOS; i++) {
		struct drm_e1npu_bo_create c = { .size = 16384 };

		if (fz_ioctl(f, DRM_IOCTL_E1NPU_BO_CREATE, &c) == 0) {
			f->bo[i].handle = c.handle;
			f->bo[i].size = c.size;
		}
	}
}

static void fz_close_all(struct fz *f)
{
	unsigned int i;

	for (i = 0; i < FZ_BOS; i++)
		bo_drop(f, &f->bo[i]);
	memset(f->sync, 0, sizeof(f->sync));
	close(f->fd);
	__atomic_add_fetch(&f->sh->calls, 1, __ATOMIC_RELAXED);
}

static void fz_step(struct fz *f, bool child);

/* fork: the child calls on the inherited file; it exits or is killed */
static void act_fork(struct fz *f)
{
	uint32_t steps = 10 + rnd(f, 40), kill_it = rnd(f, 2), delay = rnd(f, 3000);
	uint32_t seed = rnd(f, 0);
	pid_t pid;

	__atomic_add_fetch(&f->sh->calls, 1, __ATOMIC_RELAXED);
	/*
	 * The raw syscall: static glibc's fork() crashes in the child of a
	 * process that is itself a fork child on riscv64 (reclaim_stacks
	 * walks a NULL list), and the child needs none of its bookkeeping.
	 */
	pid = (pid_t)syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0);
	if (pid < 0)
		return;
	if (pid == 0) {
		f->rng = seed | 1;
		while (steps-- && !fz_over(f))
			fz_step(f, true);
		_exit(0);
	}
	__atomic_add_fetch(&f->sh->forks, 1, __ATOMIC_RELAXED);
	if (kill_it) {
		usleep(delay);
		kill(pid, SIGKILL);
		__atomic_add_fetch(&f->sh->kills, 1, __ATOMIC_RELAXED);
		__atomic_add_fetch(&f->sh->calls, 1, __ATOMIC_RELAXED);
	}
	waitpid(pid, NULL, 0);
}

static void fz_step(struct fz *f, bool child)
{
	uint32_t a = rnd(f, 100);

	if (a < 10)
		act_bo_create(f);
	else if (a < 14)
		act_gem_close(f);
	else if (a < 22)
		act_mmap(f);
	else if (a < 26)
		act_bo_wait(f);
	else if (a < 56)
		act_submit(f);
	else if (a < 66)
		act_job_result(f);
	else if (a < 71)
		act_dev_query(f);
	else if (a < 82)
		act_syncobj(f);
	else if (a < 88)
		act_misc(f);
	else if (a < 97)
		act_drain(f);
	else if (a < 98 && !child)
		act_fork(f);
	else if (a < 99 && !child && rnd(f, 4) == 0) {
		fz_close_all(f);
		__atomic_add_fetch(&f->sh->reopens, 1, __ATOMIC_RELAXED);
		fz_open(f);
	}
}

static int fz_worker(struct fz_shared *sh, unsigned int p, uint32_t seed,
		     uint64_t target, uint64_t end_ns)
{
	uint64_t t0 = e1t_now_ns(), next = t0 + 10000000000ull;
	struct fz f;

	memset(&f, 0, sizeof(f));
	f.sh = sh;
	f.target = target;
	f.end_ns = end_ns;
	f.rng = (seed ^ (0x9e3779b9u * (p + 1))) | 1;
	signal(SIGPIPE, SIG_IGN);
	fz_open(&f);
	while (!fz_over(&f)) {
		fz_step(&f, false);
		/* progress, from one worker, every 10 s */
		if (p == 0 && e1t_now_ns() > next) {
			next += 10000000000ull;
			printf("E1VM-LOG: fuzz: %llu calls after %.0f s\n",
			       (unsigned long long)__atomic_load_n(&sh->calls, __ATOMIC_RELAXED),
			       (e1t_now_ns() - t0) / 1e9);
		}
	}
	fz_close_all(&f);
	return 0;
}

static uint8_t canary_byte(unsigned int b, size_t i)
{
	return (uint8_t)((i * 131 + b * 29) ^ 0xa5);
}

/* The victim: canaries filled, then wait for the end (read on @rfd). */
static int fz_victim(int ready, int rfd)
{
	struct e1t_bo bo[FZ_CANARY_BOS];
	struct e1t_dev d;
	unsigned int b;
	size_t i;
	char c;

	if (e1t_open(&d))
		return 3;
	for (b = 0; b < FZ_CANARY_BOS; b++) {
		if (e1t_bo_new(&d, FZ_CANARY_SIZE, &bo[b]))
			return 3;
		for (i = 0; i < FZ_CANARY_SIZE; i++)
			bo[b].map[i] = canary_byte(b, i);
	}
	if (write(ready, "r", 1) != 1)
		return 3;
	while (read(rfd, &c, 1) < 0 && errno == EINTR)
		;
	for (b = 0; b < FZ_CANARY_BOS; b++)
		for (i = 0; i < FZ_CANARY_SIZE; i++)
			if (bo[b].map[i] != canary_byte(b, i)) {
				printf("E1VM-LOG: fuzz-canary: buffer %u byte %zu is 0x%02x, want 0x%02x\n",
				       b, i, bo[b].map[i], canary_byte(b, i));
				return 1;
			}
	e1t_close(&d);
	return 0;
}

int e1p_fuzz(int argc, char **argv)
{
	unsigned int procs, p, bad = 0;
	uint64_t target, secs, t0;
	int go[2], ready[2], st, vst = -1;
	struct fz_shared *sh;
	pid_t victim, pid;
	uint32_t seed;
	char name[32], c;

	if (argc < 4)
		return 2;
	seed = strtoul(argv[0], NULL, 0);
	procs = strtoul(argv[1], NULL, 0);
	target = strtoull(argv[2], NULL, 0);
	secs = strtoull(argv[3], NULL, 0);
	printf("E1VM-LOG: fuzz: seed %u, %u processes, %llu calls, at most %llu s (replay: e1npu-proof fuzz %u %u %llu %llu)\n",
	       seed, procs, (unsigned long long)target, (unsigned long long)secs,
	       seed, procs, (unsigned long long)target, (unsigned long long)secs);
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED || pipe(go) || pipe(ready))
		return 3;
	memset(sh, 0, sizeof(*sh));
	victim = fork();
	if (victim == 0) {
		close(go[1]);
		_exit(fz_victim(ready[1], go[0]));
	}
	close(go[0]);
	if (victim < 0 || read(ready[0], &c, 1) != 1) {
		e1t_fail("fuzz-canary", "the victim did not start");
		return 1;
	}
	t0 = e1t_now_ns();
	for (p = 0; p < procs; p++) {
		pid = fork();
		if (pid == 0) {
			close(go[1]);
			_exit(fz_worker(sh, p, seed, target,
					t0 + secs * 1000000000ull));
		}
	}
	for (p = 0; p < procs; p++) {
		pid = wait(&st);
		if (pid == victim) {
			vst = st;
			p--;
			continue;
		}
		if (pid < 0)
			break;
		if (!WIFEXITED(st) || WEXITSTATUS(st)) {
			bad++;
			printf("E1VM-LOG: fuzz: a worker ended with status 0x%x\n", st);
		}
	}
	t0 = e1t_now_ns() - t0;
	close(go[1]);	/* the victim checks now */
	if (vst < 0)
		waitpid(victim, &vst, 0);
	printf("E1VM-LOG: fuzz: seed %u: %llu calls from %u processes in %.1f s: %llu submits (%llu accepted), %llu results read, %llu forks (%llu killed), %llu reopens, %llu mmaps\n",
	       seed, (unsigned long long)sh->calls, procs, t0 / 1e9,
	       (unsigned long long)sh->submits, (unsigned long long)sh->submits_ok,
	       (unsigned long long)sh->done, (unsigned long long)sh->forks,
	       (unsigned long long)sh->kills, (unsigned long long)sh->reopens,
	       (unsigned long long)sh->mmaps);
	snprintf(name, sizeof(name), "fuzz-%u-procs", procs);
	if (bad)
		e1t_fail(name, "%u of %u workers failed", bad, procs);
	else
		e1t_pass(name);
	if (sh->calls < target)
		e1t_fail("fuzz-calls", "%llu calls in %llu s, want %llu",
			 (unsigned long long)sh->calls, (unsigned long long)secs,
			 (unsigned long long)target);
	else if (sh->submits_ok < sh->submits / 50 || !sh->done)
		e1t_fail("fuzz-calls", "only %llu of %llu submits accepted, %llu results",
			 (unsigned long long)sh->submits_ok,
			 (unsigned long long)sh->submits, (unsigned long long)sh->done);
	else
		e1t_pass("fuzz-calls");
	if (!WIFEXITED(vst) || WEXITSTATUS(vst))
		e1t_fail("fuzz-canary", "victim status 0x%x", vst);
	else
		e1t_pass("fuzz-canary");
	return e1t_failures ? 1 : 0;
}
