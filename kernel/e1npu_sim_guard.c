// SPDX-License-Identifier: GPL-2.0-only
/*
 * e1npu_sim buffer-ownership guard (test only).
 *
 * Before e1npu.ko hands a job to an engine it reports, through the
 * platform data's guard hook, the buffers the job holds (the ones its
 * handles named in the submitting file). The wrapper's jobs are keyed by
 * ring slot, the datapath's by engine. Every range the device model maps
 * is then checked: a wrapper access belongs to the descriptor at
 * DESC_TAIL (the one executing), a datapath access to the datapath job.
 * Descriptor fetches from the programmed ring are the driver's own memory.
 * An access outside panics the kernel (guard=2, default): the test run
 * fails with the evidence in the log instead of corrupting memory. guard=1
 * only counts in guard_violations, guard=0 turns the check off.
 */
#include <linux/atomic.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/sysfs.h>

#include "e1npu_accel.h"
#include "e1npu_hw.h"
#include "e1npu_pdata.h"
#include "e1npu_sim_guard.h"
#include "../model/e1_model.h"

static uint e1sim_guard_mode = 2;
module_param_named(guard, e1sim_guard_mode, uint, 0644);
MODULE_PARM_DESC(guard,
		 "Device accesses outside the job's buffers: 0 ignore, 1 count, 2 panic (default 2)");

static uint e1sim_guard_trim;
module_param_named(guard_trim, e1sim_guard_trim, uint, 0644);
MODULE_PARM_DESC(guard_trim,
		 "Test the guard: shrink every reported buffer by this many bytes at its end (default 0)");

static atomic64_t guard_checked = ATOMIC64_INIT(0);
static atomic64_t guard_violations = ATOMIC64_INIT(0);

static int e1sim_guard_count_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%lld\n", atomic64_read(kp->arg));
}

static const struct kernel_param_ops e1sim_guard_count_ops = {
	.get = e1sim_guard_count_get,
};

module_param_cb(guard_checked, &e1sim_guard_count_ops, &guard_checked, 0444);
MODULE_PARM_DESC(guard_checked, "Device memory accesses the guard checked");
module_param_cb(guard_violations, &e1sim_guard_count_ops, &guard_violations, 0444);
MODULE_PARM_DESC(guard_violations, "Accesses outside the job's buffers (guard=1)");

/* A device address range [start, start + len). */
struct e1sim_range {
	u64 start;
	u64 len;
};

/* The buffers of one job; @users slots point at it. */
struct e1sim_guard_set {
	unsigned int users;
	u32 nr;
	struct e1sim_range r[] __counted_by(nr);
};

/* Stands for a job whose buffers are unknown (allocation failed). */
static struct e1sim_guard_set e1sim_guard_unknown;

struct e1sim_guard {
	/* Guards the sets; taken under the model's lock, irqs off. */
	spinlock_t lock;
	struct e1sim_guard_set *slot[E1_V0_RING_LEN_MAX];
	struct e1sim_guard_set *dp;
};

struct e1sim_guard *e1sim_guard_create(void)
{
	struct e1sim_guard *g = kzalloc(sizeof(*g), GFP_KERNEL);

	if (g)
		spin_lock_init(&g->lock);
	return g;
}

/* Drop one user of *@pp; lock held. */
static void e1sim_guard_put(struct e1sim_guard_set **pp)
{
	struct e1sim_guard_set *s = *pp;

	*pp = NULL;
	if (!s || s == &e1sim_guard_unknown)
		return;
	if (!--s->users)
		kfree(s);
}

void e1sim_guard_destroy(struct e1sim_guard *g)
{
	unsigned int i;

	if (!g)
		return;
	for (i = 0; i < E1_V0_RING_LEN_MAX; i++)
		e1sim_guard_put(&g->slot[i]);
	e1sim_guard_put(&g->dp);
	kfree(g);
}

/*
 * The platform data's guard hook; @ctx is the struct e1sim_guard. Called
 * from the driver's run_job (a fence signalling path): no reclaim. A job
 * whose set cannot be allocated is not checked.
 */
void e1sim_guard_set(void *ctx, u32 engine, u32 first, u32 count, u32 nr,
		     e1npu_guard_range_fn range, const void *job)
{
	struct e1sim_guard *g = ctx;
	struct e1sim_guard_set *s;
	unsigned long flags;
	u32 i;

	s = kmalloc(struct_size(s, r, nr), GFP_NOWAIT | __GFP_NOWARN);
	if (s) {
		s->nr = nr;
		s->users = 0;
		for (i = 0; i < nr; i++) {
			range(job, i, &s->r[i].start, &s->r[i].len);
			s->r[i].len -= min_t(u64, e1sim_guard_trim, s->r[i].len);
		}
	} else {
		s = &e1sim_guard_unknown;
	}
	spin_lock_irqsave(&g->lock, flags);
	if (engine == DRM_E1NPU_ENGINE_DATAPATH) {
		e1sim_guard_put(&g->dp);
		g->dp = s;
		s->users++;
	} else {
		for (i = 0; i < count; i++) {
			u32 slot = (first + i) % E1_V0_RING_LEN_MAX;

			e1sim_guard_put(&g->slot[slot]);
			g->slot[slot] = s;
			s->users++;
		}
	}
	if (s != &e1sim_guard_unknown && !s->users)
		kfree(s);
	spin_unlock_irqrestore(&g->lock, flags);
}

static bool e1sim_guard_inside(const struct e1sim_guard_set *s, u64 addr,
			       u64 last)
{
	u32 i;

	if (s == &e1sim_guard_unknown)
		return true;
	for (i = 0; s && i < s->nr; i++)
		if (s->r[i].len && addr >= s->r[i].start &&
		    last - s->r[i].start < s->r[i].len)
			return true;
	return false;
}

/*
 * Check [@addr, @addr + @len) of an access the model is about to make;
 * called from the model's map callback with its lock held.
 */
void e1sim_guard_check(struct e1sim_guard *g, const struct e1_model *m,
		       bool datapath, u64 addr, u64 len, bool write)
{
	const struct e1_v0 *v = &m->v0;
	struct e1sim_guard_set *s;
	unsigned long flags;
	u32 slot = v->tail;
	bool ok;
	u64 last;

	if (!e1sim_guard_mode || !g || !len || check_add_overflow(addr, len - 1, &last))
		return;
	/* the wrapper fetching the descriptor at DESC_TAIL */
	if (!datapath && !write && len == E1_V0_DESC_SIZE &&
	    addr == v->desc_base + (u64)slot * E1_V0_DESC_SIZE)
		return;
	atomic64_inc(&guard_checked);
	spin_lock_irqsave(&g->lock, flags);
	s = datapath ? g->dp : g->slot[slot % E1_V0_RING_LEN_MAX];
	ok = e1sim_guard_inside(s, addr, last);
	spin_unlock_irqrestore(&g->lock, flags);
	if (ok)
		return;
	atomic64_inc(&guard_violations);
	if (e1sim_guard_mode >= 2)
		panic("e1npu_sim: device %s of [%#llx, %#llx] by the %s (slot %u) lies outside the buffers of the job's file\n",
		      write ? "write" : "read", addr, last,
		      datapath ? "datapath" : "wrapper", slot);
	pr_err_ratelimited("e1npu_sim: guard: %s of [%#llx, %#llx] by the %s (slot %u) outside the job's buffers\n",
			   write ? "write" : "read", addr, last,
			   datapath ? "datapath" : "wrapper", slot);
}
