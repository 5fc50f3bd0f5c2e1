/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The pure arithmetic of SUBMIT and the ring: SUBMIT header bounds, handle and
 * buffer de-duplication, the order buffers are locked in, and ring slot
 * ownership. Here, not in e1npu_submit.c or e1npu_ring.c, so the KUnit suite
 * (e1npu_kunit_job.c) tests the driver's own code without a device.
 */
#ifndef E1NPU_JOB_HELPERS_H
#define E1NPU_JOB_HELPERS_H

#include <linux/errno.h>
#include <linux/types.h>
#include <asm/page.h>

#include <drm/e1npu_accel.h>

struct drm_gem_object;

/* Most jobs one SUBMIT may hold. */
#define E1NPU_MAX_JOBS_PER_SUBMIT	64
/* Largest job_size, reloc_size and sync_size SUBMIT accepts. */
#define E1NPU_MAX_STRUCT_SIZE		PAGE_SIZE

/**
 * struct e1npu_job_handle - a handle a job names, resolved once
 * @handle: the GEM handle
 * @index: its buffer in the job's buffer list
 */
struct e1npu_job_handle {
	u32 handle;
	u32 index;
};

/**
 * e1npu_submit_header_ok() - the SUBMIT header is within the driver's limits
 * @args: the copied header
 *
 * Return: true for 1..E1NPU_MAX_JOBS_PER_SUBMIT jobs, and job_size,
 * reloc_size and sync_size at least the structures this kernel knows and
 * at most E1NPU_MAX_STRUCT_SIZE.
 */
static inline bool e1npu_submit_header_ok(const struct drm_e1npu_submit *args)
{
	return args->job_count &&
	       args->job_count <= E1NPU_MAX_JOBS_PER_SUBMIT &&
	       args->job_size >= sizeof(struct drm_e1npu_job) &&
	       args->job_size <= E1NPU_MAX_STRUCT_SIZE &&
	       args->reloc_size >= sizeof(struct drm_e1npu_reloc) &&
	       args->reloc_size <= E1NPU_MAX_STRUCT_SIZE &&
	       args->sync_size >= sizeof(struct drm_e1npu_sync) &&
	       args->sync_size <= E1NPU_MAX_STRUCT_SIZE;
}

/**
 * e1npu_job_handle_find() - the buffer index a job already resolved a handle to
 * @h: the job's resolved handles
 * @n: entries of @h
 * @handle: the handle
 *
 * Return: the index, or -ENOENT when @handle is not among the first @n.
 */
static inline int e1npu_job_handle_find(const struct e1npu_job_handle *h,
					u32 n, u32 handle)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (h[i].handle == handle)
			return h[i].index;
	return -ENOENT;
}

/**
 * e1npu_bo_find() - where a job's buffer list holds an object
 * @bos: the job's buffers
 * @n: entries of @bos
 * @obj: the object
 *
 * Return: its index, or @n when it is not there (it goes at the end).
 */
static inline u32 e1npu_bo_find(struct drm_gem_object *const *bos, u32 n,
				const struct drm_gem_object *obj)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (bos[i] == obj)
			return i;
	return n;
}

/**
 * e1npu_obj_cmp() - sort() order of buffers: by address
 * @a: a struct drm_gem_object * in the array
 * @b: another
 *
 * Every SUBMIT locks its buffers in this one order, so two SUBMITs sharing
 * buffers cannot each hold one the other waits for.
 *
 * Return: -1, 0 or 1 as *@a is below, equal to or above *@b.
 */
static inline int e1npu_obj_cmp(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)*(struct drm_gem_object * const *)a;
	uintptr_t y = (uintptr_t)*(struct drm_gem_object * const *)b;

	return x < y ? -1 : x > y;
}

/**
 * struct e1npu_bo_last - the jobs of one SUBMIT that used one of its buffers
 * @use: per engine (enum drm_e1npu_engine), the index of the latest job
 *	that read or wrote the buffer, -1 for none
 * @write: per engine, the index of the latest job that wrote it, -1 for none
 *
 * Job indices are below E1NPU_MAX_JOBS_PER_SUBMIT (64): an s8 holds them.
 */
struct e1npu_bo_last {
	s8 use[2];
	s8 write[2];
};

/**
 * e1npu_bo_last_init() - no job of the SUBMIT used the buffer yet
 * @l: the record
 */
static inline void e1npu_bo_last_init(struct e1npu_bo_last *l)
{
	l->use[0] = -1;
	l->use[1] = -1;
	l->write[0] = -1;
	l->write[1] = -1;
}

/**
 * e1npu_bo_last_deps() - the earlier jobs of a SUBMIT a job waits for
 * @l: the buffer's record, before the job
 * @write: the job writes the buffer
 * @dep: out: per engine, the job to wait for, -1 for none
 *
 * Implicit sync between the jobs of one SUBMIT, as dma_resv gives it
 * between SUBMITs: a write waits for every earlier use, a read for the
 * earlier writes. Jobs of one engine finish in order, so the latest job
 * per engine stands for the ones before it on that engine.
 */
static inline void e1npu_bo_last_deps(const struct e1npu_bo_last *l,
				      bool write, s8 dep[2])
{
	dep[0] = write ? l->use[0] : l->write[0];
	dep[1] = write ? l->use[1] : l->write[1];
}

/**
 * e1npu_bo_last_update() - record that a job used the buffer
 * @l: the buffer's record
 * @engine: the job's engine (enum drm_e1npu_engine, 0 or 1)
 * @job: the job's index in the SUBMIT
 * @write: the job writes the buffer
 */
static inline void e1npu_bo_last_update(struct e1npu_bo_last *l, u32 engine,
					u32 job, bool write)
{
	l->use[engine] = job;
	if (write)
		l->write[engine] = job;
}

/**
 * e1npu_ring_dist() - slots from one ring index forward to another
 * @from: the first index
 * @to: the second
 * @mask: ring length - 1 (the length is a power of two)
 *
 * Return: 0..@mask, wrapping past the end of the ring.
 */
static inline u32 e1npu_ring_dist(u32 from, u32 to, u32 mask)
{
	return (to - from) & mask;
}

/**
 * e1npu_ring_holds() - whether a job's descriptors include ring slot @idx
 * @first: the job's first slot
 * @count: its descriptors
 * @idx: the slot
 * @mask: ring length - 1
 * @pos: set to @idx's operation within the job (meaningful on true)
 *
 * Return: true when @idx is one of the @count slots from @first on.
 */
static inline bool e1npu_ring_holds(u32 first, u32 count, u32 idx, u32 mask,
				    u32 *pos)
{
	*pos = e1npu_ring_dist(first, idx, mask);
	return *pos < count;
}

#endif /* E1NPU_JOB_HELPERS_H */
