// SPDX-License-Identifier: GPL-2.0-only
/*
 * e1 NPU buffer objects. The NPU has no IOMMU and addresses contiguous
 * tensors, so every buffer is a drm_mm sub-allocation of one contiguous
 * arena allocated at probe (or a reserved-memory region), which is also
 * the hardware's TENSOR_MEM window.
 */
#include <linux/dma-mapping.h>
#include <linux/jiffies.h>
#include <linux/dma-resv.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/vmalloc.h>
#include <linux/of.h>
#include <linux/of_reserved_mem.h>
#include <linux/wait_bit.h>
#include <linux/xarray.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_managed.h>
#include <drm/drm_print.h>
#include <drm/drm_utils.h>
#include <drm/e1npu_accel.h>

#include "e1npu_device.h"
#include "e1npu_gem.h"
#include "e1npu_job.h"

static void e1npu_gem_arena_release(struct drm_device *ddev, void *data)
{
	struct e1npu_device *edev = to_e1npu_device(ddev);

	drm_mm_takedown(&edev->mm);
	dma_free_coherent(ddev->dev, edev->arena_size, edev->arena_vaddr,
			  edev->arena_dma);
}

/*
 * Devices whose memory-region holds an arena, from probe until the DRM
 * device is released, which may be long after unbind (open files). A
 * rebind meanwhile must not attach the region again: the new binding's
 * failure would detach it (of_reserved_mem_device_release() drops every
 * assignment of the device) under the old arena, whose free would then
 * miss the region's pool or CMA area.
 */
static DEFINE_XARRAY(e1npu_regions);

/*
 * The memory-region is given back after the arena was freed from it
 * (drmm actions run in reverse order of registration). Not at unbind: the
 * arena lives as long as the DRM device, which open files keep after
 * unbind, and dma_free_coherent() must still find the region's pool then.
 */
static void e1npu_gem_region_release(struct drm_device *ddev, void *data)
{
	of_reserved_mem_device_release(ddev->dev);
	xa_erase(&e1npu_regions, (unsigned long)ddev->dev);
}

/*
 * Make the node's memory-region, if any, the device's DMA memory: a
 * "shared-dma-pool" with no-map becomes its coherent pool, a reusable one
 * its CMA area, and dma_alloc_coherent() allocates from it from now on.
 * Returns the arena size to allocate (0 when there is no region), or a
 * negative errno.
 */
static s64 e1npu_gem_arena_region(struct e1npu_device *edev)
{
	struct device *dev = edev->drm.dev;
	struct reserved_mem *rmem;
	struct device_node *np;
	bool cma;
	u64 size;
	int ret;

	if (!IS_ENABLED(CONFIG_OF_RESERVED_MEM) || !dev->of_node)
		return 0;
	np = of_parse_phandle(dev->of_node, "memory-region", 0);
	if (!np)
		return 0;
	rmem = of_reserved_mem_lookup(np);
	cma = of_property_read_bool(np, "reusable");
	of_node_put(np);
	if (!rmem) {
		dev_err(dev, "memory-region is not a reserved-memory region\n");
		return -ENODEV;
	}
	ret = xa_insert(&e1npu_regions, (unsigned long)dev, dev, GFP_KERNEL);
	if (ret == -EBUSY)
		dev_err(dev, "memory-region %pa still holds the arena of an earlier binding (a file of it is open)\n",
			&rmem->base);
	if (ret)
		return ret;
	ret = of_reserved_mem_device_init(dev);
	if (ret) {
		xa_erase(&e1npu_regions, (unsigned long)dev);
		dev_err(dev, "memory-region %pa: not usable for DMA (%d)\n",
			&rmem->base, ret);
		return ret;
	}
	ret = drmm_add_action_or_reset(&edev->drm, e1npu_gem_region_release,
				       NULL);
	if (ret)
		return ret;

	size = min_t(u64, rmem->size, U32_MAX) & PAGE_MASK;
	/*
	 * A CMA area allocates any page count. A coherent pool hands out
	 * power-of-two page counts only (its allocation of N pages takes
	 * the next power of two), so the largest arena a pool can give is
	 * the largest power of two it holds.
	 */
	if (!cma && size) {
		size = PAGE_SIZE << ilog2(size >> PAGE_SHIFT);
		if (size != rmem->size)
			dev_warn(dev, "memory-region of %llu KiB: the arena is its first %llu KiB (a no-map pool allocates powers of two)\n",
				 (u64)rmem->size >> 10, size >> 10);
	}
	return size ? size : -EINVAL;
}

/**
 * e1npu_gem_arena_init() - allocate the tensor arena and its allocator
 * @edev: the device, DMA mask set
 *
 * The arena is one dma_alloc_coherent() allocation: from the node's
 * memory-region when it has one (e1npu_gem_arena_region()), else
 * arena_size bytes from the default (CMA or the page allocator). It is a
 * coherent allocation whatever the device's coherence: the CPU reads what
 * the engine wrote (and the reverse) without cache maintenance. It lives
 * as long as the DRM device (drmm), so buffers still mapped by a process
 * after unbind keep valid memory behind them.
 *
 * Return: 0 or a negative errno.
 */
int e1npu_gem_arena_init(struct e1npu_device *edev)
{
	struct device *dev = edev->drm.dev;
	s64 region;
	u64 size;
	int ret;

	region = e1npu_gem_arena_region(edev);
	if (region < 0)
		return region;
	size = region ? region : min_t(u64, PAGE_ALIGN((u64)e1npu_arena_size_param),
				       U32_MAX & PAGE_MASK);
	if (!size)
		return -EINVAL;

	edev->arena_vaddr = dma_alloc_coherent(dev, size, &edev->arena_dma,
					       GFP_KERNEL);
	if (!edev->arena_vaddr)
		return -ENOMEM;
	edev->arena_size = size;
	drm_mm_init(&edev->mm, 0, size);
	ret = drmm_add_action_or_reset(&edev->drm, e1npu_gem_arena_release,
				       NULL);
	if (ret)
		return ret;
	/*
	 * dma-direct and CMA honour the coherent mask; a no-map region's
	 * pool is used where the device tree put it, so check it here: the
	 * NPU cannot reach an arena beyond its address width.
	 */
	if (edev->arena_dma + size - 1 > dev->coherent_dma_mask) {
		dev_err(dev, "arena at %pad + 0x%llx beyond the NPU's %u address bits\n",
			&edev->arena_dma, size, E1NPU_DMA_BITS);
		return -ERANGE;
	}
	return 0;
}

static void e1npu_gem_free(struct drm_gem_object *obj)
{
	struct e1npu_device *edev = to_e1npu_device(obj->dev);
	struct e1npu_bo *bo = to_e1npu_bo(obj);

	if (bo->host) {
		vfree(bo->vaddr);
		mutex_lock(&edev->mm_lock);
		bo->client->host_used -= obj->size;
		edev->host_used -= obj->size;
		mutex_unlock(&edev->mm_lock);
		e1npu_client_put(bo->client);
		drm_gem_object_release(obj);
		kfree(bo);
		return;
	}
	mutex_lock(&edev->mm_lock);
	drm_mm_remove_node(&bo->node);
	bo->client->mem_used -= obj->size;
	mutex_unlock(&edev->mm_lock);
	e1npu_client_put(bo->client);
	drm_gem_object_release(obj);
	kfree(bo);
}

/*
 * A host buffer's pages, as remap_vmalloc_range() would map them: that
 * needs a VM_USERMAP area, which only vmalloc_user() (not charged to the
 * memory cgroup) makes; __vmalloc_node_range() is not exported.
 */
static int e1npu_gem_mmap_host(struct e1npu_bo *bo, struct vm_area_struct *vma,
			       unsigned long pgoff)
{
	unsigned long i;
	int ret;

	vma->vm_pgoff = 0;
	for (i = 0; i < vma_pages(vma); i++) {
		ret = vm_insert_page(vma, vma->vm_start + (i << PAGE_SHIFT),
				     vmalloc_to_page(bo->vaddr +
						     ((pgoff + i) << PAGE_SHIFT)));
		if (ret)
			return ret;
	}
	return 0;
}

static int e1npu_gem_mmap(struct drm_gem_object *obj,
			  struct vm_area_struct *vma)
{
	struct e1npu_device *edev = to_e1npu_device(obj->dev);
	struct e1npu_bo *bo = to_e1npu_bo(obj);
	unsigned long pgoff;

	/*
	 * drm_gem_mmap() leaves the fake offset in vm_pgoff. The buffer's
	 * pages are found from the whole arena plus the buffer's page offset
	 * in it: the DMA API then maps the buffer's own pages whatever backs
	 * the arena (dma-direct, an IOMMU remap, a coherent pool), where the
	 * CPU address of a sub-range would resolve to the arena's first
	 * pages behind an IOMMU.
	 */
	pgoff = vma->vm_pgoff - drm_vma_node_start(&obj->vma_node);
	/*
	 * drm_gem_mmap() allows only the whole object; the arena-wide call
	 * below bounds by the arena, so keep the buffer's bound here too.
	 */
	if (pgoff + vma_pages(vma) > obj->size >> PAGE_SHIFT)
		return -EINVAL;
	vm_flags_set(vma, VM_DONTEXPAND | VM_DONTDUMP);
	if (bo->host)
		return e1npu_gem_mmap_host(bo, vma, pgoff);
	pgoff += bo->node.start >> PAGE_SHIFT;
	/*
	 * On error drm_gem_mmap_obj() drops the reference it took for the
	 * vma, and the mm does not call vm_ops->close for a vma whose mmap
	 * failed: putting it here too would free the BO under its handle.
	 */
	vma->vm_pgoff = pgoff;
	return dma_mmap_coherent(obj->dev->dev, vma, edev->arena_vaddr,
				 edev->arena_dma, edev->arena_size);
}

/* The arena is pinned: every buffer is resident (fdinfo memory stats). */
static enum drm_gem_object_status e1npu_gem_status(struct drm_gem_object *obj)
{
	return DRM_GEM_OBJECT_RESIDENT;
}

static const struct vm_operations_struct e1npu_gem_vm_ops = {
	.open = drm_gem_vm_open,
	.close = drm_gem_vm_close,
};

static const struct drm_gem_object_funcs e1npu_gem_funcs = {
	.free = e1npu_gem_free,
	.mmap = e1npu_gem_mmap,
	.vm_ops = &e1npu_gem_vm_ops,
	.status = e1npu_gem_status,
};

/*
 * How long BO_CREATE waits for finished jobs to give their buffers back
 * before it reports a full arena.
 */
#define E1NPU_ARENA_WAIT_MS	2000

/*
 * Reserve @size bytes of the arena for @bo, charged to @client: 0,
 * -ENOSPC past the client's file_quota, -ENOMEM when no free range is
 * large enough.
 */
static int e1npu_gem_reserve(struct e1npu_device *edev,
			     struct e1npu_client *client, struct e1npu_bo *bo,
			     u64 size)
{
	u64 quota = READ_ONCE(e1npu_file_quota);
	int ret;

	mutex_lock(&edev->mm_lock);
	if (quota && client->mem_used + size > quota) {
		drm_dbg(&edev->drm, "bo_create: size %llu with %llu in use passes file_quota %llu (-ENOSPC)\n",
			size, client->mem_used, quota);
		ret = -ENOSPC;
	} else {
		ret = drm_mm_insert_node_generic(&edev->mm, &bo->node, size,
						 PAGE_SIZE, 0,
						 DRM_MM_INSERT_BEST);
		ret = ret == -ENOSPC ? -ENOMEM : ret;
	}
	if (!ret)
		client->mem_used += size;
	mutex_unlock(&edev->mm_lock);
	return ret;
}

/*
 * A job keeps its buffers until the scheduler frees it (free_job work),
 * which trails its fence: a client that saw its job finish and closed the
 * buffer may ask for the space again first. Wait, until @deadline, for one
 * of the finished jobs to be freed; false when none is pending or time is
 * up (the arena is really full).
 */
/*
 * Wait until the count of finished-but-unfreed jobs differs from @seen,
 * the count read before the failed reservation: a job freed after that
 * read (its buffers back) makes the wait return at once, so the caller
 * retries instead of reporting a full arena it would have found free.
 */
static bool e1npu_gem_wait_retired(struct e1npu_device *edev, int seen,
				   unsigned long deadline)
{
	long left = (long)(deadline - jiffies);

	if (left <= 0)
		return false;
	if (atomic_read(&edev->jobs_retired) != seen)
		return true;
	if (!seen)
		return false;
	return wait_var_event_timeout(&edev->jobs_retired,
				      atomic_read(&edev->jobs_retired) != seen,
				      left) > 0;
}

/*
 * A buffer of @size bytes charged to @client: -ENOSPC when the client's
 * buffers would pass the file_quota parameter, -ENOMEM when the arena has
 * no free range that large, also once finished jobs were given up to
 * E1NPU_ARENA_WAIT_MS to release their buffers.
 */
static struct e1npu_bo *e1npu_gem_create(struct e1npu_device *edev,
					 struct e1npu_client *client, u64 size)
{
	unsigned long deadline = jiffies +
				 msecs_to_jiffies(E1NPU_ARENA_WAIT_MS);
	struct e1npu_bo *bo;
	int ret, seen;

	bo = kzalloc_obj(*bo, GFP_KERNEL_ACCOUNT);
	if (!bo)
		return ERR_PTR(-ENOMEM);

	do {
		seen = atomic_read(&edev->jobs_retired);
		ret = e1npu_gem_reserve(edev, client, bo, size);
	} while (ret == -ENOMEM && e1npu_gem_wait_retired(edev, seen, deadline));
	if (ret) {
		kfree(bo);
		return ERR_PTR(ret);
	}
	bo->client = e1npu_client_get(client);

	bo->base.funcs = &e1npu_gem_funcs;
	drm_gem_private_object_init(&edev->drm, &bo->base, size);
	bo->vaddr = edev->arena_vaddr + bo->node.start;
	bo->dma = edev->arena_dma + bo->node.start;
	memset(bo->vaddr, 0, size);

	ret = drm_gem_create_mmap_offset(&bo->base);
	if (ret) {
		drm_gem_object_put(&bo->base);
		return ERR_PTR(ret);
	}
	return bo;
}

/*
 * Charge @size bytes of host buffers to @client and the device: -ENOSPC
 * past the host_file_max or host_dev_max parameter.
 */
static int e1npu_gem_host_charge(struct e1npu_device *edev,
				 struct e1npu_client *client, u64 size)
{
	u64 file_max = READ_ONCE(e1npu_host_file_max);
	u64 dev_max = READ_ONCE(e1npu_host_dev_max);
	int ret = 0;

	mutex_lock(&edev->mm_lock);
	if (client->host_used + size > file_max ||
	    edev->host_used + size > dev_max) {
		drm_dbg(&edev->drm, "bo_create: host size %llu with %llu (file) %llu (device) in use passes host_file_max %llu or host_dev_max %llu (-ENOSPC)\n",
			size, client->host_used, edev->host_used, file_max,
			dev_max);
		ret = -ENOSPC;
	} else {
		client->host_used += size;
		edev->host_used += size;
	}
	mutex_unlock(&edev->mm_lock);
	return ret;
}

/*
 * A DRM_E1NPU_BO_HOST buffer: zeroed vmalloc memory charged to the
 * caller's memory cgroup (vmalloc_user() is not), within the per-file and
 * per-device caps. -ENOSPC past a cap, -ENOMEM when the allocation (or the
 * cgroup's limit) refuses it; nothing is charged then.
 */
static struct e1npu_bo *e1npu_gem_create_host(struct e1npu_device *edev,
					      struct e1npu_client *client,
					      u64 size)
{
	struct e1npu_bo *bo;
	int ret;

	ret = e1npu_gem_host_charge(edev, client, size);
	if (ret)
		return ERR_PTR(ret);
	bo = kzalloc_obj(*bo, GFP_KERNEL_ACCOUNT);
	if (bo)
		bo->vaddr = __vmalloc(size, GFP_KERNEL_ACCOUNT | __GFP_ZERO);
	if (!bo || !bo->vaddr) {
		kfree(bo);
		mutex_lock(&edev->mm_lock);
		client->host_used -= size;
		edev->host_used -= size;
		mutex_unlock(&edev->mm_lock);
		return ERR_PTR(-ENOMEM);
	}
	bo->host = true;
	bo->client = e1npu_client_get(client);
	bo->base.funcs = &e1npu_gem_funcs;
	drm_gem_private_object_init(&edev->drm, &bo->base, size);
	ret = drm_gem_create_mmap_offset(&bo->base);
	if (ret) {
		drm_gem_object_put(&bo->base);
		return ERR_PTR(ret);
	}
	return bo;
}

/**
 * e1npu_ioctl_bo_create() - DRM_IOCTL_E1NPU_BO_CREATE
 * @ddev: DRM device
 * @data: struct drm_e1npu_bo_create
 * @file: the caller
 *
 * Return: 0, -EINVAL for unknown flags, size 0 or a host buffer above
 * DRM_E1NPU_BO_HOST_MAX, -ENOSPC when the file's buffers
 * would pass the file_quota parameter, or its host buffers the
 * host_file_max parameter, or the device's host buffers host_dev_max,
 * -ENOMEM when the arena is full or the host memory cannot be allocated
 * (the memory cgroup's limit).
 */
int e1npu_ioctl_bo_create(struct drm_device *ddev, void *data,
			  struct drm_file *file)
{
	struct e1npu_device *edev = to_e1npu_device(ddev);
	struct e1npu_file *efile = file->driver_priv;
	struct drm_e1npu_bo_create *args = data;
	struct e1npu_bo *bo;
	u64 size;
	int ret, idx;

	if (args->flags & ~DRM_E1NPU_BO_HOST) {
		drm_dbg(ddev, "bo_create: flags 0x%x\n", args->flags);
		return -EINVAL;
	}
	if (!args->size)
		return -EINVAL;
	if (args->flags & DRM_E1NPU_BO_HOST) {
		if (args->size > DRM_E1NPU_BO_HOST_MAX) {
			drm_dbg(ddev, "bo_create: host size %llu above %u\n",
				args->size, DRM_E1NPU_BO_HOST_MAX);
			return -EINVAL;
		}
	} else if (args->size > edev->arena_size) {
		return -ENOMEM;
	}
	size = PAGE_ALIGN(args->size);

	if (!drm_dev_enter(ddev, &idx))
		return -ENODEV;

	if (args->flags & DRM_E1NPU_BO_HOST)
		bo = e1npu_gem_create_host(edev, efile->client, size);
	else
		bo = e1npu_gem_create(edev, efile->client, size);
	if (IS_ERR(bo)) {
		ret = PTR_ERR(bo);
		goto out_dev_exit;
	}
	ret = drm_gem_handle_create(file, &bo->base, &args->handle);
	drm_gem_object_put(&bo->base);

out_dev_exit:
	drm_dev_exit(idx);
	return ret;
}

/**
 * e1npu_ioctl_bo_mmap_offset() - DRM_IOCTL_E1NPU_BO_MMAP_OFFSET
 * @ddev: DRM device
 * @data: struct drm_e1npu_bo_mmap_offset
 * @file: the caller
 *
 * Return: 0, -EINVAL for a non-zero pad, -ENOENT for an unknown handle.
 */
int e1npu_ioctl_bo_mmap_offset(struct drm_device *ddev, void *data,
			       struct drm_file *file)
{
	struct drm_e1npu_bo_mmap_offset *args = data;
	struct drm_gem_object *obj;

	if (args->pad) {
		drm_dbg(ddev, "bo_mmap_offset: pad 0x%x\n", args->pad);
		return -EINVAL;
	}
	obj = drm_gem_object_lookup(file, args->handle);
	if (!obj)
		return -ENOENT;
	args->offset = drm_vma_node_offset_addr(&obj->vma_node);
	drm_gem_object_put(obj);
	return 0;
}

/**
 * e1npu_ioctl_bo_wait() - DRM_IOCTL_E1NPU_BO_WAIT
 * @ddev: DRM device
 * @data: struct drm_e1npu_bo_wait
 * @file: the caller
 *
 * Waits on every fence of the buffer's reservation object (all jobs that
 * read or write it) until the absolute CLOCK_MONOTONIC @timeout_ns.
 *
 * Return: 0 when idle, -ETIME on timeout, -EINVAL, -ENOENT, -ERESTARTSYS.
 */
int e1npu_ioctl_bo_wait(struct drm_device *ddev, void *data,
			struct drm_file *file)
{
	struct drm_e1npu_bo_wait *args = data;
	struct drm_gem_object *obj;
	long ret;

	if (args->pad) {
		drm_dbg(ddev, "bo_wait: pad 0x%x\n", args->pad);
		return -EINVAL;
	}
	obj = drm_gem_object_lookup(file, args->handle);
	if (!obj)
		return -ENOENT;
	ret = dma_resv_wait_timeout(obj->resv, DMA_RESV_USAGE_READ, true,
				    drm_timeout_abs_to_jiffies(args->timeout_ns));
	drm_gem_object_put(obj);
	if (!ret)
		return -ETIME;
	return ret < 0 ? ret : 0;
}
