// SPDX-License-Identifier: GPL-2.0-only
/*
 * e1 NPU buffer objects. The NPU has no IOMMU and addresses contiguous
 * tensors, so every buffer is a drm_mm sub-allocation of one contiguous
 * arena allocated at probe (or a reserved-memory region), which is also
 * the hardware's TENSOR_MEM window.
 */
#include <linux/dma-mapping.h>
#include <linux/dma-resv.h>
#include <linux/mm.h>
#include <linux/of.h>
#include <linux/of_reserved_mem.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_managed.h>
#include <drm/drm_print.h>
#include <drm/drm_utils.h>

#include "e1npu_device.h"
#include "e1npu_gem.h"

static void e1npu_gem_arena_release(struct drm_device *ddev, void *data)
{
	struct e1npu_device *edev = to_e1npu_device(ddev);

	drm_mm_takedown(&edev->mm);
	dma_free_coherent(ddev->dev, edev->arena_size, edev->arena_vaddr,
			  edev->arena_dma);
	if (edev->arena_rmem)
		of_reserved_mem_device_release(ddev->dev);
}

/**
 * e1npu_gem_arena_init() - allocate the tensor arena and its allocator
 * @edev: the device
 *
 * The arena lives as long as the DRM device (drmm), so buffers still
 * mapped by a process after unbind keep valid memory behind them.
 *
 * Return: 0 or a negative errno.
 */
int e1npu_gem_arena_init(struct e1npu_device *edev)
{
	struct device *dev = edev->drm.dev;
	u64 size = e1npu_arena_size_param;
	int ret;

	if (IS_ENABLED(CONFIG_OF_RESERVED_MEM) && dev->of_node &&
	    of_property_present(dev->of_node, "memory-region")) {
		struct device_node *np = of_parse_phandle(dev->of_node,
							  "memory-region", 0);
		struct reserved_mem *rmem = np ? of_reserved_mem_lookup(np) : NULL;

		of_node_put(np);
		if (!rmem)
			return -ENODEV;
		ret = of_reserved_mem_device_init(dev);
		if (ret)
			return ret;
		edev->arena_rmem = true;
		size = rmem->size;
	}
	size = min_t(u64, PAGE_ALIGN(size), U32_MAX & PAGE_MASK);
	if (!size)
		return -EINVAL;

	edev->arena_vaddr = dma_alloc_coherent(dev, size, &edev->arena_dma,
					       GFP_KERNEL);
	if (!edev->arena_vaddr) {
		if (edev->arena_rmem)
			of_reserved_mem_device_release(dev);
		return -ENOMEM;
	}
	edev->arena_size = size;
	drm_mm_init(&edev->mm, 0, size);
	return drmm_add_action_or_reset(&edev->drm, e1npu_gem_arena_release,
					NULL);
}

static void e1npu_gem_free(struct drm_gem_object *obj)
{
	struct e1npu_device *edev = to_e1npu_device(obj->dev);
	struct e1npu_bo *bo = to_e1npu_bo(obj);

	mutex_lock(&edev->mm_lock);
	drm_mm_remove_node(&bo->node);
	mutex_unlock(&edev->mm_lock);
	drm_gem_object_release(obj);
	kfree(bo);
}

static int e1npu_gem_mmap(struct drm_gem_object *obj,
			  struct vm_area_struct *vma)
{
	struct e1npu_bo *bo = to_e1npu_bo(obj);

	/* drm_gem_mmap() leaves the fake offset in vm_pgoff. */
	vma->vm_pgoff -= drm_vma_node_start(&obj->vma_node);
	vm_flags_set(vma, VM_DONTEXPAND | VM_DONTDUMP);
	/*
	 * On error drm_gem_mmap_obj() drops the reference it took for the
	 * vma, and the mm does not call vm_ops->close for a vma whose mmap
	 * failed: putting it here too would free the BO under its handle.
	 */
	return dma_mmap_coherent(obj->dev->dev, vma, bo->vaddr, bo->dma,
				 obj->size);
}

static const struct vm_operations_struct e1npu_gem_vm_ops = {
	.open = drm_gem_vm_open,
	.close = drm_gem_vm_close,
};

static const struct drm_gem_object_funcs e1npu_gem_funcs = {
	.free = e1npu_gem_free,
	.mmap = e1npu_gem_mmap,
	.vm_ops = &e1npu_gem_vm_ops,
};

static struct e1npu_bo *e1npu_gem_create(struct e1npu_device *edev, u64 size)
{
	struct e1npu_bo *bo;
	int ret;

	bo = kzalloc(sizeof(*bo), GFP_KERNEL);
	if (!bo)
		return ERR_PTR(-ENOMEM);

	mutex_lock(&edev->mm_lock);
	ret = drm_mm_insert_node_generic(&edev->mm, &bo->node, size, PAGE_SIZE,
					 0, DRM_MM_INSERT_BEST);
	mutex_unlock(&edev->mm_lock);
	if (ret) {
		kfree(bo);
		return ERR_PTR(ret == -ENOSPC ? -ENOMEM : ret);
	}

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

/**
 * e1npu_ioctl_bo_create() - DRM_IOCTL_E1NPU_BO_CREATE
 * @ddev: DRM device
 * @data: struct drm_e1npu_bo_create
 * @file: the caller
 *
 * Return: 0, -EINVAL for flags or size 0, -ENOMEM when the arena is full.
 */
int e1npu_ioctl_bo_create(struct drm_device *ddev, void *data,
			  struct drm_file *file)
{
	struct e1npu_device *edev = to_e1npu_device(ddev);
	struct drm_e1npu_bo_create *args = data;
	struct e1npu_bo *bo;
	u64 size;
	int ret, idx;

	if (args->flags) {
		drm_dbg(ddev, "bo_create: flags 0x%x\n", args->flags);
		return -EINVAL;
	}
	if (!args->size || args->size > edev->arena_size)
		return args->size ? -ENOMEM : -EINVAL;
	size = PAGE_ALIGN(args->size);

	if (!drm_dev_enter(ddev, &idx))
		return -ENODEV;

	bo = e1npu_gem_create(edev, size);
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
