// SPDX-License-Identifier: MIT
/*
 * e1npu-proof fuzz SEED PROCS CALLS SECONDS: PROCS processes issue random
 * sequences of every e1npu ioctl (DEV_QUERY, BO_CREATE, BO_MMAP_OFFSET,
 * BO_WAIT, SUBMIT, PERFMON_CREATE/DESTROY/GET_VALUES), GEM_CLOSE, the
 * binary and timeline syncobj ioctls, VERSION and unknown driver ioctls
 * plus mmap/munmap, close/reopen of the device, fork (the child keeps
 * calling on the inherited file) and SIGKILL of children with work in
 * flight, until CALLS calls in total or SECONDS
 * passed. SUBMIT carries hardware commands made by the shared encoder
 * (e1npu_cmd_encode()) from plausible operations, often valid (they run on
 * the engines), with 1-3 command words replaced by edge values, random
 * relocations (changed, dropped, doubled, added), random binary and
 * timeline in/out syncs, status records and perfmons, and mutated jobs and
 * headers.
 *
 * Besides, each worker (not its fork children) submits jobs that are valid
 * by construction: operations the shared rules accept (e1npu_op_check()
 * against DEV_QUERY's limits) on buffers, a status buffer and syncobjs no
 * random call may close (the "good" set), chained now and then on an
 * earlier one's timeline point, some counted in a perfmon of the file.
 * Every one must be accepted and complete: status DONE, fence error 0.
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
 * Results: "fuzz-N-procs" (every process ran to the end), "fuzz-calls"
 * (CALLS reached within SECONDS, and some submits ran), "fuzz-valid-jobs"
 * (every valid-by-construction job accepted and DONE), "fuzz-canary".
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
#define FZ_TLS		2
#define FZ_PMS		3
#define FZ_GOOD		3
#define FZ_GOOD_SIZE	16384
#define FZ_VALID_DEPTH	16
#define FZ_CANARY_BOS	4
#define FZ_CANARY_SIZE	(16 * 1024)

/* Counters shared by every process (MAP_SHARED). */
struct fz_shared {
	uint64_t calls;
	uint64_t submits;
	uint64_t submits_ok;
	uint64_t done;
	uint64_t valid;
	uint64_t valid_bad;
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
	uint32_t tl[FZ_TLS];		/* timeline syncobjs */
	uint64_t tl_point[FZ_TLS];	/* the last point asked of each */
	uint32_t pm[FZ_PMS];		/* perfmon ids (0: none) */
	/* the good set: the helper's tracking (status buffer, timeline and
	 * slot syncobjs) and buffers no random call closes */
	struct e1t_dev dev;
	struct e1t_bo good[FZ_GOOD];
	struct e1npu_limits lim;
	struct e1t_job valid[FZ_VALID_DEPTH];
	char valid_what[FZ_VALID_DEPTH][48];
	unsigned int nvalid;
	bool child;
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

/* The good set's buffers: no random call may close or write into them
 * as a status record; the helper's status buffer not even as a tensor. */
static bool fz_protected_bo(const struct fz *f, uint32_t h)
{
	unsigned int i;

	if (!h)
		return false;
	if (h == f->dev.status_handle)
		return true;
	for (i = 0; i < FZ_GOOD; i++)
		if (h == f->good[i].handle)
			return true;
	return false;
}

/* The helper's syncobjs: no random call may reset, signal or destroy them
 * or name them in a job. */
static bool fz_protected_sync(const struct fz *f, uint32_t h)
{
	unsigned int i;

	if (!h)
		return false;
	if (h == f->dev.timeline)
		return true;
	for (i = 0; i < E1T_SLOTS; i++)
		if (h == f->dev.slot_sync[i])
			return true;
	return false;
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
	if (fz_protected_bo(f, gc.handle))
		return;
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

/* A tensor in buffer @handle at a small aligned offset. */
static struct e1npu_hw_tensor tensor(struct fz *f, uint32_t handle,
				      uint32_t stride, uint32_t align)
{
	struct e1npu_hw_tensor t;

	t.handle = handle;
	t.stride = stride;
	t.offset = (uint64_t)rnd(f, 4) * align;
	return t;
}

/* A plausible operation of @engine on buffers @h[0..2], often valid. */
static void gen_op(struct fz *f, uint32_t engine, struct e1npu_hw_op *op,
		   const uint32_t h[3])
{
	uint32_t al = f->info.align ? f->info.align : 16, kind = rnd(f, 8);
	uint32_t m = 1 + rnd(f, 16), n = 1 + rnd(f, 16), k = 1 + rnd(f, 16);
	uint32_t a = h[0], b = h[1], c = h[2];

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

/* Replace 1-3 words of a command of @size bytes: edge values, or one bit
 * flipped (a reserved bit, a kernel-owned word, a flag). */
static void mutate_cmd(struct fz *f, uint8_t *cmd, int size)
{
	uint32_t i, n = 1 + rnd(f, 3), w;

	for (i = 0; i < n; i++) {
		uint32_t at = rnd(f, (uint32_t)size / 4);

		memcpy(&w, cmd + 4 * at, 4);
		if (rnd(f, 2))
			w ^= 1u << rnd(f, 32);
		else
			w = edge32(f, 4096);
		memcpy(cmd + 4 * at, &w, 4);
	}
}

/* A syncobj handle for a random job: ours (binary or timeline), or any
 * number; never one of the helper's. */
static uint32_t fz_sync_handle(struct fz *f, int *tl)
{
	uint32_t r = rnd(f, 0), h;

	*tl = -1;
	if (r % 4 == 0) {
		h = (r >> 8) & 0x3f;
	} else if (r % 4 == 1) {
		*tl = (int)((r >> 8) % FZ_TLS);
		h = f->tl[*tl];
	} else {
		h = f->sync[(r >> 8) % FZ_SYNCS];
	}
	return fz_protected_sync(f, h) ? 0x7ff0 : h;
}

/* A buffer handle for a random job: never the helper's status buffer. */
static uint32_t fz_bo_handle(struct fz *f, uint32_t h)
{
	return h == f->dev.status_handle && h ? 0x7ff1 : h;
}

#define FZ_MAX_OPS	6

struct fz_job {
	uint8_t cmds[FZ_MAX_OPS * E1NPU_CMD_MAX_SIZE];
	struct drm_e1npu_reloc rel[FZ_MAX_OPS * 3 + 4];
	struct drm_e1npu_sync in[3], out[3];
};

static void fz_syncs(struct fz *f, struct drm_e1npu_sync *s, uint32_t n,
		     bool out)
{
	uint32_t i;
	int tl;

	for (i = 0; i < n; i++) {
		memset(&s[i], 0, sizeof(s[i]));
		s[i].handle = fz_sync_handle(f, &tl);
		if (tl >= 0) {
			if (out)
				s[i].point = rnd(f, 8) ? ++f->tl_point[tl] :
							 edge32(f, 0);
			else
				s[i].point = rnd(f, 8) ? rnd(f, (uint32_t)f->tl_point[tl] + 1) :
							 edge32(f, 0);
		} else if (!rnd(f, 16)) {
			s[i].point = 1 + rnd(f, 4);
		}
		if (!rnd(f, 32))
			s[i].flags = 1u << rnd(f, 32);
	}
}

static void act_submit(struct fz *f)
{
	struct fz_job fj[3];
	struct drm_e1npu_job jobs[3];
	struct drm_e1npu_submit s;
	uint32_t nj = 1 + rnd(f, 2) + !rnd(f, 4), j, i, sel = rnd(f, 32);
	/* about a third of the submits carry one mutated command, a quarter
	 * one mutated operation (before encoding) */
	uint32_t mut = !rnd(f, 3) ? rnd(f, 3 * FZ_MAX_OPS) : UINT32_MAX;
	uint32_t mop = rnd(f, 4) ? UINT32_MAX : rnd(f, 3 * FZ_MAX_OPS);
	bool dp = f->info.engines & (1u << DRM_E1NPU_ENGINE_DATAPATH);
	int ret;

	memset(jobs, 0, sizeof(jobs));
	for (j = 0; j < nj; j++) {
		struct drm_e1npu_job *jb = &jobs[j];
		struct fz_job *x = &fj[j];
		uint32_t nops = 1 + rnd(f, 4) + 2 * !rnd(f, 8), jsel = rnd(f, 64);
		uint32_t nrel = 0, rsel = rnd(f, 32), k;
		int size;

		memset(x, 0, sizeof(*x));
		jb->engine = dp && rnd(f, 2) ? DRM_E1NPU_ENGINE_DATAPATH :
					       DRM_E1NPU_ENGINE_WRAPPER;
		size = e1npu_cmd_size(jb->engine);
		for (i = 0; i < nops; i++) {
			struct e1npu_hw_op op;
			uint32_t h[3], t;

			/* mostly our live buffers, now and then any number */
			for (t = 0; t < 3; t++)
				h[t] = fz_bo_handle(f, rnd(f, 16) ? pick_bo(f)->handle :
							 pick_handle(f));
			gen_op(f, jb->engine, &op, h);
			if (j * FZ_MAX_OPS + i == mop)
				mutate_op(f, &op);
			if (e1npu_cmd_encode(jb->engine, &op, x->cmds + i * size,
					     &x->rel[nrel], i, &k)) {
				/* not encodable: raw words */
				for (t = 0; t < (uint32_t)size / 4; t++) {
					uint32_t w = rnd(f, 0);

					memcpy(x->cmds + i * size + 4 * t, &w, 4);
				}
				k = 0;
			}
			nrel += k;
			if (j * FZ_MAX_OPS + i == mut)
				mutate_cmd(f, x->cmds + i * size, size);
		}
		/* relocations: one changed, dropped, doubled or added */
		if (nrel) {
			struct drm_e1npu_reloc *r = &x->rel[rnd(f, nrel)];

			switch (rsel) {
			case 0: r->cmd = edge32(f, nops); break;
			case 1: r->field = edge32(f, 3); break;
			case 2: r->offset = rnd(f, 2) ? edge32(f, 16384) :
					    ((uint64_t)edge32(f, 0) << 32 | rnd(f, 0)); break;
			case 3: r->handle = edge32(f, 0); break;
			case 4: r->pad = 1u << rnd(f, 32); break;
			case 5: *r = x->rel[--nrel]; break;
			case 6: x->rel[nrel++] = *r; break;
			default: break;
			}
		}
		if (rsel == 7) {
			struct drm_e1npu_reloc *r = &x->rel[nrel++];

			r->cmd = rnd(f, nops + 1);
			r->field = rnd(f, 4);
			r->handle = pick_handle(f);
			r->pad = 0;
			r->offset = (uint64_t)rnd(f, 64) * 16;
		}
		for (i = 0; i < nrel; i++)
			x->rel[i].handle = fz_bo_handle(f, x->rel[i].handle);
		jb->cmds = (uintptr_t)x->cmds;
		jb->cmd_count = nops;
		jb->relocs = (uintptr_t)x->rel;
		jb->reloc_count = nrel;
		jb->in_sync_count = rnd(f, 8) == 0 ? 1 + rnd(f, 3) : 0;
		fz_syncs(f, x->in, jb->in_sync_count, false);
		jb->out_sync_count = rnd(f, 2) ? 1 + rnd(f, 2) : 0;
		fz_syncs(f, x->out, jb->out_sync_count, true);
		jb->in_syncs = (uintptr_t)x->in;
		jb->out_syncs = (uintptr_t)x->out;
		/* a status record: in one of our buffers, mostly valid */
		if (rnd(f, 4)) {
			struct fz_bo *b = pick_bo(f);

			jb->status_handle = fz_bo_handle(f, b->handle);
			jb->status_offset = rnd(f, 8) ? (uint64_t)rnd(f, 64) * 8 :
					    edge32(f, b->size);
		}
		if (!rnd(f, 8))
			jb->perfmon_id = rnd(f, 8) ? f->pm[rnd(f, FZ_PMS)] : rnd(f, 0);
		switch (jsel) {
		case 0: jb->engine = rnd(f, 0); break;
		case 1: jb->flags = 1u << rnd(f, 32); break;
		case 2: jb->cmd_count = edge32(f, 0); break;
		case 3: jb->cmds = rnd(f, 2) ? 0 : 4096; break;
		case 4: jb->in_sync_count = edge32(f, 0); break;
		case 5: jb->in_syncs = 8; jb->in_sync_count |= 1; break;
		case 6: jb->out_sync_count = edge32(f, 0); break;
		case 7: jb->out_syncs = 8; jb->out_sync_count |= 1; break;
		case 8: jb->reloc_count = edge32(f, 0); break;
		case 9: jb->relocs = rnd(f, 2) ? 0 : 4096; break;
		case 10: jb->status_offset = (uint64_t)edge32(f, 0) << rnd(f, 33); break;
		case 11: jb->status_handle = fz_bo_handle(f, edge32(f, 0)); break;
		default: break;
		}
	}
	memset(&s, 0, sizeof(s));
	s.jobs = (uintptr_t)jobs;
	s.job_count = nj;
	s.job_size = sizeof(jobs[0]);
	s.reloc_size = sizeof(struct drm_e1npu_reloc);
	s.sync_size = sizeof(struct drm_e1npu_sync);
	switch (sel) {
	case 0: s.job_size = edge32(f, sizeof(jobs[0])); break;
	case 1: s.reloc_size = edge32(f, sizeof(struct drm_e1npu_reloc)); break;
	case 2: s.sync_size = edge32(f, sizeof(struct drm_e1npu_sync)); break;
	case 3: s.job_count = edge32(f, 3); break;
	case 4: s.jobs = rnd(f, 2) ? 0 : 0x1000; break;
	default: break;
	}
	/* a job count past our array would have the kernel read our stack */
	if (s.job_count > nj && s.job_count <= 64 && s.job_size <= 4096)
		s.job_count = nj;
	__atomic_add_fetch(&f->sh->submits, 1, __ATOMIC_RELAXED);
	ret = fz_ioctl(f, DRM_IOCTL_E1NPU_SUBMIT, &s);
	if (ret)
		return;
	__atomic_add_fetch(&f->sh->submits_ok, 1, __ATOMIC_RELAXED);
}

/* ---- jobs valid by construction -------------------------------------------- */

static int fz_good_lookup(void *ctx, u32 handle, u64 *size)
{
	const struct fz *f = ctx;
	unsigned int i;

	for (i = 0; i < FZ_GOOD; i++) {
		if (handle && handle == f->good[i].handle) {
			*size = f->good[i].size;
			return 0;
		}
	}
	return -ENOENT;
}

/* an operation the shared rules accept and the hardware completes */
static bool fz_valid_op(struct fz *f, uint32_t engine,
			const struct e1npu_hw_op *op)
{
	struct e1npu_op_err err;
	bool gemmini = f->info.wrapper_caps & E1_V0_CAPS_GEMMINI;

	if (op->opcode == E1NPU_HWOP_FALLBACK)
		return false;
	/* data-dependent fail-closed scalar opcodes (contract 3.2-3.5) */
	if (op->opcode == E1NPU_HWOP_DP_SCALAR && op->k >= E1_DP_OP_SDOT4_S4_2_4)
		return false;
	if (!gemmini && (op->opcode == E1NPU_HWOP_MATMUL_S8 ||
			 op->opcode == E1NPU_HWOP_CONV2D_S8))
		return false;
	return e1npu_op_check(op, engine, &f->lim, fz_good_lookup, f, &err) == 0;
}

static void fz_valid_drain(struct fz *f)
{
	struct e1t_result r;
	unsigned int i;
	int ret;

	for (i = 0; i < f->nvalid; i++) {
		ret = e1t_job_wait(&f->dev, &f->valid[i], E1T_JOB_TIMEOUT_MS, &r);
		__atomic_add_fetch(&f->sh->calls, 2, __ATOMIC_RELAXED);
		if (ret || r.state != DRM_E1NPU_JOB_STATE_DONE || r.error ||
		    r.fence_error) {
			printf("E1VM-LOG: fuzz: valid job %s (point %llu): wait %d state %u error %d fence %d cmds_done %u fail_index %u err_code 0x%x\n",
			       f->valid_what[i], (unsigned long long)f->valid[i].point,
			       ret, r.state, r.error, r.fence_error, r.cmds_done,
			       r.fail_index, r.err_code);
			__atomic_add_fetch(&f->sh->valid_bad, 1, __ATOMIC_RELAXED);
		} else {
			__atomic_add_fetch(&f->sh->done, 1, __ATOMIC_RELAXED);
		}
	}
	f->nvalid = 0;
}

/* one job valid by construction on the good set; accepted, later DONE */
static void act_valid(struct fz *f)
{
	struct e1npu_hw_op ops[3];
	struct e1t_submit_args args;
	struct drm_e1npu_sync in;
	uint32_t h[3], i, t, n = 1 + rnd(f, 3), engine;
	bool dp = f->info.engines & (1u << DRM_E1NPU_ENGINE_DATAPATH);
	bool wr = f->info.engines & (1u << DRM_E1NPU_ENGINE_WRAPPER);
	char *what;
	int ret, tries;

	if (!f->dev.status_handle)
		return;
	engine = dp && (!wr || rnd(f, 2)) ? DRM_E1NPU_ENGINE_DATAPATH :
					    DRM_E1NPU_ENGINE_WRAPPER;
	for (i = 0; i < n; i++) {
		for (tries = 0; tries < 16; tries++) {
			for (t = 0; t < 3; t++)
				h[t] = f->good[rnd(f, FZ_GOOD)].handle;
			gen_op(f, engine, &ops[i], h);
			if (fz_valid_op(f, engine, &ops[i]))
				break;
		}
		if (tries == 16) {
			memset(&ops[i], 0, sizeof(ops[i]));
			ops[i].opcode = E1NPU_HWOP_NOP;
			if (engine == DRM_E1NPU_ENGINE_DATAPATH) {
				ops[i].opcode = E1NPU_HWOP_DP_VRELU_S8;
				ops[i].n = 16;
				ops[i].a = tensor(f, f->good[0].handle, 0, 4);
				ops[i].c = tensor(f, f->good[1].handle, 0, 4);
			}
		}
	}
	memset(&args, 0, sizeof(args));
	args.engine = engine;
	args.ops = ops;
	args.nops = n;
	/* now and then after the previous valid job (maybe the other engine) */
	if (f->nvalid && !rnd(f, 3)) {
		memset(&in, 0, sizeof(in));
		in.handle = f->dev.timeline;
		in.point = f->valid[f->nvalid - 1].point;
		args.in_syncs = &in;
		args.in_sync_count = 1;
	}
	if (!rnd(f, 8))
		args.perfmon_id = f->pm[0];
	what = f->valid_what[f->nvalid];
	snprintf(what, sizeof(f->valid_what[0]), "%s %u cmds opcode 0x%x%s%s",
		 engine ? "datapath" : "wrapper", n, ops[0].opcode,
		 args.in_sync_count ? " chained" : "",
		 args.perfmon_id ? " perfmon" : "");
	__atomic_add_fetch(&f->sh->calls, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&f->sh->valid, 1, __ATOMIC_RELAXED);
	ret = e1t_submit_ex(&f->dev, &args, &f->valid[f->nvalid]);
	if (ret) {
		printf("E1VM-LOG: fuzz: valid job %s rejected: %s\n", what,
		       strerror(-ret));
		__atomic_add_fetch(&f->sh->valid_bad, 1, __ATOMIC_RELAXED);
		return;
	}
	if (++f->nvalid == FZ_VALID_DEPTH)
		fz_valid_drain(f);
}

/* ---- perfmons and timelines ------------------------------------------------ */

static void act_perfmon(struct fz *f)
{
	uint32_t sel = rnd(f, 6), at = rnd(f, FZ_PMS), i;
	uint64_t vals[DRM_E1NPU_MAX_PERF_COUNTERS + 4];

	switch (sel) {
	case 0: {
		struct drm_e1npu_perfmon_create c;

		memset(&c, 0, sizeof(c));
		c.ncounters = rnd(f, 4) ? 1 + rnd(f, DRM_E1NPU_MAX_PERF_COUNTERS) :
					  edge32(f, 0);
		for (i = 0; i < DRM_E1NPU_MAX_PERF_COUNTERS; i++)
			c.counters[i] = rnd(f, 16) ? rnd(f, E1T_PERF_NUM) :
						     rnd(f, 256);
		if (fz_ioctl(f, DRM_IOCTL_E1NPU_PERFMON_CREATE, &c) == 0 && at) {
			/* slot 0 is the good one: never replaced */
			if (f->pm[at]) {
				struct drm_e1npu_perfmon_destroy x = { .id = f->pm[at] };

				fz_ioctl(f, DRM_IOCTL_E1NPU_PERFMON_DESTROY, &x);
			}
			f->pm[at] = c.id;
		}
		break;
	}
	case 1:
	case 4: {
		struct drm_e1npu_perfmon_destroy x;

		memset(&x, 0, sizeof(x));
		x.id = rnd(f, 4) ? f->pm[at] : rnd(f, 64);
		if (sel == 4)
			x.pad = 1u << rnd(f, 32);
		if (x.id == f->pm[0])
			break;
		if (fz_ioctl(f, DRM_IOCTL_E1NPU_PERFMON_DESTROY, &x) == 0 &&
		    x.id == f->pm[at])
			f->pm[at] = 0;
		break;
	}
	default: {
		struct drm_e1npu_perfmon_get_values g;

		memset(&g, 0, sizeof(g));
		g.id = rnd(f, 4) ? f->pm[at] : rnd(f, 64);
		g.flags = rnd(f, 4) ? 0 : rnd(f, 4) ? DRM_E1NPU_PERFMON_RESET :
						      1u << rnd(f, 32);
		g.values_ptr = rnd(f, 16) ? (uintptr_t)vals : rnd(f, 2) ? 0 : 8;
		fz_ioctl(f, DRM_IOCTL_E1NPU_PERFMON_GET_VALUES, &g);
		break;
	}
	}
}

static void act_timeline(struct fz *f)
{
	uint32_t sel = rnd(f, 4), at = rnd(f, FZ_TLS);
	uint64_t pt;

	switch (sel) {
	case 0:
		pt = rnd(f, 4) ? ++f->tl_point[at] : edge32(f, 0);
		__atomic_add_fetch(&f->sh->calls, 1, __ATOMIC_RELAXED);
		e1t_timeline_signal(&f->dev, f->tl[at], pt);
		break;
	case 1:
		pt = rnd(f, (uint32_t)f->tl_point[at] + 2);
		__atomic_add_fetch(&f->sh->calls, 1, __ATOMIC_RELAXED);
		e1t_timeline_wait(&f->dev, &f->tl[at], &pt, 1,
				  rnd(f, 2) ? DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT : 0,
				  (int)rnd(f, 3));
		break;
	case 2:
		__atomic_add_fetch(&f->sh->calls, 1, __ATOMIC_RELAXED);
		e1t_timeline_query(&f->dev, f->tl[at], &pt);
		break;
	default:
		/* a fresh timeline */
		__atomic_add_fetch(&f->sh->calls, 2, __ATOMIC_RELAXED);
		if (f->tl[at])
			e1t_syncobj_destroy(&f->dev, f->tl[at]);
		e1t_syncobj_create(&f->dev, &f->tl[at], false);
		f->tl_point[at] = 0;
		break;
	}
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
	if (fz_protected_sync(f, h[1]))
		h[1] = h[0];
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
	uint32_t sel = rnd(f, 3), nr = 5 + rnd(f, 11), i;

	for (i = 0; i < sizeof(junk); i += 4)
		memcpy(junk + i, &(uint32_t){ rnd(f, 0) }, 4);
	if (sel == 0) {
		memset(&v, 0, sizeof(v));
		fz_ioctl(f, DRM_IOCTL_VERSION, &v);
	} else if (sel == 1) {
		/* the perfmon ioctls with junk, numbers past the table */
		fz_ioctl(f, DRM_IOWR(DRM_COMMAND_BASE + nr, uint8_t[24]), junk);
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
	/* and the valid jobs: waited for, checked */
	if (!f->child && f->nvalid && !rnd(f, 4))
		fz_valid_drain(f);
}

static void fz_open(struct fz *f)
{
	static const uint8_t pmc[2] = {
		DRM_E1NPU_PERF_WRAPPER_MACS, DRM_E1NPU_PERF_DP_MACS,
	};
	struct drm_e1npu_perfmon_create pc;
	unsigned int i;

	__atomic_add_fetch(&f->sh->calls, 2, __ATOMIC_RELAXED);
	if (e1t_open(&f->dev)) {
		fprintf(stderr, "fuzz: cannot open %s\n", e1t_dev_path());
		exit(3);
	}
	f->fd = f->dev.fd;
	f->info = f->dev.info;
	e1npu_limits_init(&f->lim,
			  f->info.engines & (1u << DRM_E1NPU_ENGINE_WRAPPER),
			  f->info.wrapper_id, f->info.wrapper_caps,
			  f->info.engines & (1u << DRM_E1NPU_ENGINE_DATAPATH),
			  f->info.datapath_id, f->info.ring_len,
			  f->info.arena_size);
	for (i = 0; i < FZ_SYNCS; i++)
		e1p_syncobj_create(f->fd, &f->sync[i]);
	for (i = 0; i < FZ_TLS; i++) {
		e1t_syncobj_create(&f->dev, &f->tl[i], false);
		f->tl_point[i] = 0;
	}
	/* the good set: the helper's tracking, buffers, perfmon 0 */
	memset(f->good, 0, sizeof(f->good));
	memset(f->pm, 0, sizeof(f->pm));
	f->nvalid = 0;
	if (e1t_jobs_init(&f->dev))
		f->dev.status_handle = 0;
	for (i = 0; i < FZ_GOOD; i++)
		if (e1t_bo_new(&f->dev, FZ_GOOD_SIZE, &f->good[i]))
			f->dev.status_handle = 0;	/* no valid jobs then */
	memset(&pc, 0, sizeof(pc));
	pc.ncounters = 2;
	memcpy(pc.counters, pmc, sizeof(pmc));
	if (!e1t_ioctl(f->fd, DRM_IOCTL_E1NPU_PERFMON_CREATE, &pc))
		f->pm[0] = pc.id;
	__atomic_add_fetch(&f->sh->calls, 3 + FZ_TLS + FZ_GOOD, __ATOMIC_RELAXED);
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

	if (!f->child)
		fz_valid_drain(f);
	for (i = 0; i < FZ_BOS; i++)
		bo_drop(f, &f->bo[i]);
	for (i = 0; i < FZ_GOOD; i++)
		if (f->good[i].map)
			munmap(f->good[i].map, f->good[i].size);
	memset(f->good, 0, sizeof(f->good));
	memset(f->sync, 0, sizeof(f->sync));
	memset(f->tl, 0, sizeof(f->tl));
	memset(f->pm, 0, sizeof(f->pm));
	e1t_close(&f->dev);	/* the helper's mapping, and the file */
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
		f->child = true;
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
	else if (a < 52)
		act_submit(f);
	else if (a < 60 && !child)
		act_valid(f);
	else if (a < 60)
		act_submit(f);
	else if (a < 64)
		act_perfmon(f);
	else if (a < 68)
		act_timeline(f);
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
	printf("E1VM-LOG: fuzz: seed %u: %llu calls from %u processes in %.1f s: %llu random submits (%llu accepted), %llu valid jobs (%llu done, %llu not), %llu forks (%llu killed), %llu reopens, %llu mmaps\n",
	       seed, (unsigned long long)sh->calls, procs, t0 / 1e9,
	       (unsigned long long)sh->submits, (unsigned long long)sh->submits_ok,
	       (unsigned long long)sh->valid, (unsigned long long)sh->done,
	       (unsigned long long)sh->valid_bad, (unsigned long long)sh->forks,
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
		e1t_fail("fuzz-calls", "only %llu of %llu random submits accepted, %llu valid jobs done",
			 (unsigned long long)sh->submits_ok,
			 (unsigned long long)sh->submits, (unsigned long long)sh->done);
	else
		e1t_pass("fuzz-calls");
	if (sh->valid_bad || !sh->valid)
		e1t_fail("fuzz-valid-jobs", "%llu of %llu valid-by-construction jobs rejected or not DONE (E1VM-LOG lines above)",
			 (unsigned long long)sh->valid_bad,
			 (unsigned long long)sh->valid);
	else
		e1t_pass("fuzz-valid-jobs");
	if (!WIFEXITED(vst) || WEXITSTATUS(vst))
		e1t_fail("fuzz-canary", "victim status 0x%x", vst);
	else
		e1t_pass("fuzz-canary");
	return e1t_failures ? 1 : 0;
}
