// SPDX-License-Identifier: GPL-2.0-only
/*
 * DRM_IOCTL_E1NPU_SUBMIT: copy each job's command stream and relocations
 * once, decode every command, apply its relocations, validate it with the
 * rules shared with libe1npu (e1npu_opcheck.c) against the buffers of the
 * calling file, and only then write the device addresses into the
 * descriptors the ring will hold. Then syncobjs, status records,
 * perfmons, implicit fences, and the push to the engine's scheduler.
 */
#include <linux/bsearch.h>
#include <linux/dma-fence-chain.h>
#include <linux/dma-resv.h>
#include <linux/overflow.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/uaccess.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_print.h>
#include <drm/drm_syncobj.h>

#include "e1npu_device.h"
#include "e1npu_gem.h"
#include "e1npu_job.h"
#include "e1npu_job_helpers.h"
#include "e1npu_perfmon.h"

/* Most syncobj points one job may wait for, and signal. */
#define E1NPU_MAX_SYNCS			64
/* Jobs per submit whose bookkeeping array lives on the stack. */
#define E1NPU_SUBMIT_SMALL		4

/*
 * One allocation holds the job and its per-command arrays: a submit is on
 * the latency path, and every allocation there costs (more so under
 * slub_debug). @op_count is at most max_cmds_per_job (<= 255), @out_count
 * at most E1NPU_MAX_SYNCS; the sizes are still computed with
 * overflow-saturating helpers.
 */
static struct e1npu_job *e1npu_job_alloc(u32 engine, u32 op_count,
					 u32 out_count)
{
	size_t slots = size_mul(op_count, E1NPU_T_COUNT);
	size_t ops_off, bos_off, outs_off, eng_off, handles_off, write_off;
	size_t size;
	struct e1npu_job *job;
	size_t eng_size = engine == DRM_E1NPU_ENGINE_WRAPPER ?
			  sizeof(*job->desc) : sizeof(*job->dp_ptr);
	u8 *p;

	/* Arrays in decreasing alignment: no padding between them. */
	ops_off = ALIGN(sizeof(*job), __alignof__(struct e1npu_hw_op));
	bos_off = size_add(ops_off, size_mul(op_count, sizeof(*job->ops)));
	outs_off = size_add(bos_off, size_mul(slots, sizeof(*job->bos)));
	eng_off = size_add(outs_off, size_mul(out_count,
					      sizeof(*job->out_syncs) +
					      sizeof(*job->out_chains) +
					      sizeof(*job->out_points)));
	handles_off = size_add(eng_off, size_mul(op_count, eng_size));
	write_off = size_add(handles_off,
			     size_mul(slots, sizeof(struct e1npu_job_handle)));
	size = size_add(write_off, size_mul(slots, sizeof(*job->bo_write)));
	p = kvzalloc(size, GFP_KERNEL_ACCOUNT);
	if (!p)
		return NULL;
	job = (struct e1npu_job *)p;
	job->engine = engine;
	job->op_count = op_count;
	job->ops = (struct e1npu_hw_op *)(p + ops_off);
	job->bos = (struct drm_gem_object **)(p + bos_off);
	job->out_points = (u64 *)(p + outs_off);
	job->out_syncs = (struct drm_syncobj **)(job->out_points + out_count);
	job->out_chains = (struct dma_fence_chain **)(job->out_syncs +
						      out_count);
	if (engine == DRM_E1NPU_ENGINE_WRAPPER)
		job->desc = (u32 (*)[E1_V0_DESC_WORDS])(p + eng_off);
	else
		job->dp_ptr = (u8 *(*)[E1NPU_T_COUNT])(p + eng_off);
	job->bo_write = (bool *)(p + write_off);
	return job;
}

/* The status record: a buffer of the file, 8-byte aligned, inside it. */
static int e1npu_job_status(struct e1npu_job *job, struct drm_file *file,
			    const struct drm_e1npu_job *uj)
{
	u64 end;

	if (!uj->status_handle)
		return uj->status_offset ? -EINVAL : 0;
	if (!IS_ALIGNED(uj->status_offset, 8))
		return -EINVAL;
	job->status_bo = drm_gem_object_lookup(file, uj->status_handle);
	if (!job->status_bo)
		return -ENOENT;
	if (check_add_overflow(uj->status_offset,
			       (u64)sizeof(struct drm_e1npu_job_status), &end) ||
	    end > job->status_bo->size)
		return -EOVERFLOW;
	job->status = to_e1npu_bo(job->status_bo)->vaddr + uj->status_offset;
	return 0;
}

static int e1npu_job_copy_sync(const struct drm_e1npu_submit *args, u64 ptr,
			       u32 i, struct drm_e1npu_sync *s)
{
	int ret;

	ret = copy_struct_from_user(s, sizeof(*s),
				    u64_to_user_ptr(ptr + (u64)i * args->sync_size),
				    args->sync_size);
	if (ret)
		return ret == -E2BIG ? -EINVAL : ret;
	return s->flags ? -EINVAL : 0;
}

/*
 * In-syncs become scheduler dependencies; out-syncs are looked up. The
 * fence of an in-sync is found here, not through
 * drm_sched_job_add_syncobj_dependency(), whose point is a u32: it would
 * wait for point 1 where the job names 2^32 + 1.
 */
static int e1npu_job_syncs(struct e1npu_job *job, struct drm_file *file,
			   const struct drm_e1npu_submit *args,
			   const struct drm_e1npu_job *uj)
{
	struct drm_e1npu_sync s;
	struct dma_fence *fence;
	u32 i;
	int ret;

	for (i = 0; i < uj->in_sync_count; i++) {
		ret = e1npu_job_copy_sync(args, uj->in_syncs, i, &s);
		if (ret)
			return ret;
		ret = drm_syncobj_find_fence(file, s.handle, s.point, 0, &fence);
		if (ret)
			return ret;
		/* Takes the fence reference, also on error. */
		ret = drm_sched_job_add_dependency(&job->base, fence);
		if (ret)
			return ret;
	}
	for (i = 0; i < uj->out_sync_count; i++) {
		ret = e1npu_job_copy_sync(args, uj->out_syncs, i, &s);
		if (ret)
			return ret;
		job->out_syncs[i] = drm_syncobj_find(file, s.handle);
		job->out_count = i + 1;
		if (!job->out_syncs[i])
			return -ENOENT;
		job->out_points[i] = s.point;
		if (s.point) {
			job->out_chains[i] = dma_fence_chain_alloc();
			if (!job->out_chains[i])
				return -ENOMEM;
		}
	}
	return 0;
}

/* Copy one job, its commands and relocations from userspace; validate. */
static int e1npu_job_create(struct e1npu_file *efile, struct drm_file *file,
			    const struct drm_e1npu_submit *args, u32 index,
			    struct e1npu_job **out)
{
	struct e1npu_device *edev = efile->edev;
	struct drm_device *ddev = &edev->drm;
	struct e1npu_job_handle handles[E1NPU_T_COUNT * 8], *hp = handles;
	struct e1npu_job_ctx jc = { .file = file };
	struct drm_e1npu_job uj;
	struct e1npu_job *job;
	u32 max_cmds;
	int ret;

	ret = copy_struct_from_user(&uj, sizeof(uj),
				    u64_to_user_ptr(args->jobs +
						    (u64)index * args->job_size),
				    args->job_size);
	if (ret)
		return ret == -E2BIG ? -EINVAL : ret;
	if (uj.flags || uj.engine > DRM_E1NPU_ENGINE_DATAPATH) {
		drm_dbg(ddev, "job %u: flags 0x%x engine %u\n", index,
			uj.flags, uj.engine);
		return -EINVAL;
	}
	if (!(edev->lim.engines & BIT(uj.engine)))
		return -ENODEV;
	max_cmds = uj.engine == DRM_E1NPU_ENGINE_WRAPPER ?
		   edev->lim.max_ops_per_job : edev->lim.datapath_slots;
	if (!uj.cmd_count || uj.cmd_count > max_cmds ||
	    uj.reloc_count > uj.cmd_count * E1NPU_T_COUNT ||
	    uj.in_sync_count > E1NPU_MAX_SYNCS ||
	    uj.out_sync_count > E1NPU_MAX_SYNCS) {
		drm_dbg(ddev, "job %u: cmd_count %u (1..%u) reloc_count %u in %u out %u syncs\n",
			index, uj.cmd_count, max_cmds, uj.reloc_count,
			uj.in_sync_count, uj.out_sync_count);
		return -EINVAL;
	}

	job = e1npu_job_alloc(uj.engine, uj.cmd_count, uj.out_sync_count);
	if (!job)
		return -ENOMEM;
	job->edev = edev;
	atomic_inc(&edev->jobs_alive);
	job->client = e1npu_client_get(efile->client);
	job->client_id = file->client_id;
	job->pid = task_tgid_nr(current);
	INIT_LIST_HEAD(&job->node);
	/* The device stays resumed while the job exists (until free_job). */
	ret = e1npu_pm_get(edev);
	if (ret)
		goto err_cleanup;
	job->pm_ref = true;
	job->hw_fence = kzalloc_obj(*job->hw_fence, GFP_KERNEL_ACCOUNT);
	if (!job->hw_fence) {
		ret = -ENOMEM;
		goto err_cleanup;
	}

	/* Most jobs name a few handles: no allocation for them then. */
	if (uj.cmd_count > ARRAY_SIZE(handles) / E1NPU_T_COUNT) {
		hp = kvmalloc_array(uj.cmd_count * E1NPU_T_COUNT, sizeof(*hp),
				    GFP_KERNEL);
		if (!hp) {
			ret = -ENOMEM;
			goto err_cleanup;
		}
	}
	jc.job = job;
	jc.handles = hp;
	ret = e1npu_cmdstream_copy(&jc, args, &uj, index);
	if (hp != handles)
		kvfree(hp);
	if (ret)
		goto err_cleanup;
	ret = e1npu_job_status(job, file, &uj);
	if (ret) {
		drm_dbg(ddev, "job %u: status handle %u offset %llu (%d)\n",
			index, uj.status_handle, uj.status_offset, ret);
		goto err_cleanup;
	}
	if (uj.perfmon_id) {
		job->perfmon = e1npu_perfmon_find(efile, uj.perfmon_id);
		if (!job->perfmon) {
			ret = -ENOENT;
			goto err_cleanup;
		}
	}

	ret = drm_sched_job_init(&job->base, &efile->entity[job->engine], 1,
				 NULL, file->client_id);
	if (ret)
		goto err_cleanup;
	ret = e1npu_job_syncs(job, file, args, &uj);
	if (ret) {
		drm_dbg(ddev, "job %u: syncobjs (%d)\n", index, ret);
		goto err_sched_cleanup;
	}
	*out = job;
	return 0;

err_sched_cleanup:
	drm_sched_job_cleanup(&job->base);
err_cleanup:
	e1npu_job_cleanup(job);
	return ret;
}

static void e1npu_job_drop(struct e1npu_job *job)
{
	drm_sched_job_cleanup(&job->base);
	e1npu_job_cleanup(job);
}

/*
 * The buffers of every job of one SUBMIT, each once and referenced, with
 * the number of jobs using it and the latest jobs of the SUBMIT that used
 * and wrote it (the order between the SUBMIT's own jobs). They are locked
 * together and their fence slots reserved before the first job is queued,
 * so that nothing after a push can fail on a signal (-ERESTARTSYS would
 * restart the ioctl and queue the jobs before it twice) or on a
 * reservation.
 */
struct e1npu_submit_bos {
	struct drm_gem_object **objs;
	u32 *uses;
	struct e1npu_bo_last *last;
	u32 count;
	struct ww_acquire_ctx ctx;
};

static void e1npu_submit_bos_put(struct e1npu_submit_bos *sb)
{
	u32 i;

	for (i = 0; i < sb->count; i++)
		drm_gem_object_put(sb->objs[i]);
	kvfree(sb->objs);
}

/* Collect, lock and reserve; on error nothing is left locked. */
static int e1npu_submit_bos_lock(struct e1npu_submit_bos *sb,
				 struct e1npu_job **jobs, u32 n)
{
	u32 total = 0, i, b, k = 0;
	int ret;

	memset(sb, 0, sizeof(*sb));
	for (i = 0; i < n; i++)
		total += jobs[i]->bo_count;
	/* One allocation: the objects, their use counts, their last jobs. */
	sb->objs = kvcalloc(total, sizeof(*sb->objs) + sizeof(*sb->uses) +
			    sizeof(*sb->last), GFP_KERNEL);
	if (!sb->objs)
		return -ENOMEM;
	sb->uses = (u32 *)(sb->objs + total);
	sb->last = (struct e1npu_bo_last *)(sb->uses + total);
	for (i = 0; i < n; i++)
		for (b = 0; b < jobs[i]->bo_count; b++)
			sb->objs[k++] = jobs[i]->bos[b];
	/* A job names each object once: duplicates are other jobs. */
	sort(sb->objs, total, sizeof(*sb->objs), e1npu_obj_cmp, NULL);
	for (i = 0; i < total; i++) {
		if (sb->count && sb->objs[sb->count - 1] == sb->objs[i]) {
			sb->uses[sb->count - 1]++;
			continue;
		}
		drm_gem_object_get(sb->objs[i]);
		sb->objs[sb->count] = sb->objs[i];
		e1npu_bo_last_init(&sb->last[sb->count]);
		sb->uses[sb->count++] = 1;
	}

	ret = drm_gem_lock_reservations(sb->objs, sb->count, &sb->ctx);
	if (ret)
		goto err_put;
	for (i = 0; i < sb->count; i++) {
		ret = dma_resv_reserve_fences(sb->objs[i]->resv, sb->uses[i]);
		if (ret)
			goto err_unlock;
	}
	return 0;

err_unlock:
	drm_gem_unlock_reservations(sb->objs, sb->count, &sb->ctx);
err_put:
	e1npu_submit_bos_put(sb);
	return ret;
}

static void e1npu_submit_bos_unlock(struct e1npu_submit_bos *sb)
{
	drm_gem_unlock_reservations(sb->objs, sb->count, &sb->ctx);
	e1npu_submit_bos_put(sb);
}

/* The SUBMIT's record of one of its buffers (it is there: sorted). */
static struct e1npu_bo_last *e1npu_submit_bo_last(struct e1npu_submit_bos *sb,
						  struct drm_gem_object *obj)
{
	struct drm_gem_object **o;

	o = bsearch(&obj, sb->objs, sb->count, sizeof(*sb->objs),
		    e1npu_obj_cmp);
	return &sb->last[o - sb->objs];
}

/*
 * debugfs fail_submit_deps: 1 + the index of a job whose dependencies
 * fail with -ENOMEM, once (the submission test's fault injection).
 */
static bool e1npu_submit_fault(struct e1npu_device *edev, u32 index)
{
	u32 want = index + 1;

	return READ_ONCE(edev->fail_submit_deps) == want &&
	       cmpxchg(&edev->fail_submit_deps, want, 0) == want;
}

/*
 * The dependencies of job @i of a SUBMIT, the buffers locked, the jobs
 * before it armed: the fences on its buffers (implicit sync; no job of
 * this SUBMIT has put its fence there yet) and, through the same rule
 * (a write waits for every use, a read for the writes), the fences of
 * the jobs of this SUBMIT before it: the latest one per engine, as jobs
 * of one engine finish in order. -ENOMEM is the only error.
 */
static int e1npu_job_add_deps(struct e1npu_device *edev,
			      struct e1npu_submit_bos *sb,
			      struct e1npu_job **jobs, u32 i)
{
	struct e1npu_job *job = jobs[i];
	struct e1npu_bo_last *last;
	struct dma_fence *fence;
	s8 dep[2];
	u32 b, e;
	int ret;

	if (e1npu_submit_fault(edev, i))
		return -ENOMEM;
	for (b = 0; b < job->bo_count; b++) {
		ret = drm_sched_job_add_implicit_dependencies(&job->base,
							      job->bos[b],
							      job->bo_write[b]);
		if (ret)
			return ret;
		last = e1npu_submit_bo_last(sb, job->bos[b]);
		e1npu_bo_last_deps(last, job->bo_write[b], dep);
		for (e = 0; e < ARRAY_SIZE(dep); e++) {
			if (dep[e] < 0)
				continue;
			fence = &jobs[dep[e]]->base.s_fence->finished;
			ret = drm_sched_job_add_dependency(&job->base,
							   dma_fence_get(fence));
			if (ret)
				return ret;
		}
		e1npu_bo_last_update(last, job->engine, i, job->bo_write[b]);
	}
	return 0;
}

/*
 * Publish an armed job's fence on its buffers (locked, slots reserved)
 * and out-syncs, mark its status record queued, then push; the caller
 * holds the file's submit_lock (arm and push in one order). Once pushed
 * the job belongs to the scheduler: it may run, complete and be freed
 * (free_job) before drm_sched_entity_push_job() returns, so nothing of
 * @job is touched after the push.
 */
static void e1npu_job_push(struct e1npu_job *job)
{
	static const struct drm_e1npu_job_status queued = {
		.state = DRM_E1NPU_JOB_STATE_QUEUED,
	};
	struct dma_fence *fence = &job->base.s_fence->finished;
	u32 i;

	if (job->status)
		memcpy(job->status, &queued, sizeof(queued));
	for (i = 0; i < job->bo_count; i++)
		dma_resv_add_fence(job->bos[i]->resv, fence,
				   job->bo_write[i] ? DMA_RESV_USAGE_WRITE :
						      DMA_RESV_USAGE_READ);
	for (i = 0; i < job->out_count; i++) {
		if (job->out_chains[i]) {
			drm_syncobj_add_point(job->out_syncs[i],
					      job->out_chains[i], fence,
					      job->out_points[i]);
			job->out_chains[i] = NULL;	/* the syncobj's now */
		} else {
			drm_syncobj_replace_fence(job->out_syncs[i], fence);
		}
	}
	/* The job is the scheduler's (free_job) from here on. */
	drm_sched_entity_push_job(&job->base);
}

/*
 * Arm and queue the jobs of one SUBMIT, their buffers locked. Every step
 * that can fail (the dependencies) is done for every job before the first
 * one is published or pushed: on an error nothing is queued. A job armed
 * then is still dropped with drm_sched_job_cleanup(): its fence was given
 * to nobody but the later jobs of the SUBMIT, dropped with it.
 */
static int e1npu_submit_queue(struct e1npu_file *efile,
			      struct e1npu_submit_bos *sb,
			      struct e1npu_job **jobs, u32 n)
{
	u32 i;
	int ret = 0;

	mutex_lock(&efile->submit_lock);
	for (i = 0; i < n; i++) {
		ret = e1npu_job_add_deps(efile->edev, sb, jobs, i);
		if (ret)
			break;
		drm_sched_job_arm(&jobs[i]->base);
	}
	if (!ret)
		for (i = 0; i < n; i++)
			e1npu_job_push(jobs[i]);
	mutex_unlock(&efile->submit_lock);
	return ret;
}

/**
 * e1npu_ioctl_submit() - DRM_IOCTL_E1NPU_SUBMIT
 * @ddev: DRM device
 * @data: struct drm_e1npu_submit
 * @file: the caller
 *
 * Every job, command and relocation is copied and validated, and every
 * job's dependencies added, before any job is queued: on an error nothing
 * of the SUBMIT runs.
 *
 * Return: 0 or a negative errno (see the UAPI DOC "e1npu submission
 * errors").
 */
int e1npu_ioctl_submit(struct drm_device *ddev, void *data,
		       struct drm_file *file)
{
	struct e1npu_file *efile = file->driver_priv;
	struct drm_e1npu_submit *args = data;
	struct e1npu_job *jobs_small[E1NPU_SUBMIT_SMALL], **jobs = jobs_small;
	struct e1npu_submit_bos sb;
	u32 i, n = 0;
	int ret = 0, idx;

	/* Struct sizes may grow (zero tails), but not beyond a page. */
	if (!e1npu_submit_header_ok(args)) {
		drm_dbg(ddev, "submit: job_count %u job_size %u reloc_size %u sync_size %u: bad header (-EINVAL)\n",
			args->job_count, args->job_size, args->reloc_size,
			args->sync_size);
		return -EINVAL;
	}
	/* The engine may still write memory: no more work (until rebind). */
	if (READ_ONCE(efile->edev->wedged))
		return -EIO;
	if (!drm_dev_enter(ddev, &idx))
		return -ENODEV;

	/* Most submits carry one job: no allocation for the array then. */
	if (args->job_count > E1NPU_SUBMIT_SMALL) {
		jobs = kcalloc(args->job_count, sizeof(*jobs), GFP_KERNEL);
		if (!jobs) {
			ret = -ENOMEM;
			goto out_free;
		}
	}
	for (n = 0; n < args->job_count; n++) {
		ret = e1npu_job_create(efile, file, args, n, &jobs[n]);
		if (ret)
			goto out_drop;
	}
	ret = e1npu_submit_bos_lock(&sb, jobs, n);
	if (ret)
		goto out_drop;
	ret = e1npu_submit_queue(efile, &sb, jobs, n);
	e1npu_submit_bos_unlock(&sb);
	if (ret) {
		drm_dbg(ddev, "submit: dependencies (%d): nothing queued\n", ret);
		goto out_drop;
	}
	n = 0;
	goto out_free;

out_drop:
	for (i = 0; i < n; i++)
		e1npu_job_drop(jobs[i]);
out_free:
	if (jobs != jobs_small)
		kfree(jobs);
	drm_dev_exit(idx);
	return ret;
}
