/* SPDX-License-Identifier: GPL-2.0-only */
/* e1 NPU buffer objects: GEM objects over the contiguous tensor arena. */
#ifndef __E1NPU_GEM_H__
#define __E1NPU_GEM_H__

#include <drm/drm_gem.h>
#include <drm/drm_mm.h>

struct drm_device;
struct drm_file;
struct e1npu_device;

/**
 * struct e1npu_bo - a buffer object: a drm_mm node of the arena, or host
 *	memory (DRM_E1NPU_BO_HOST) the NPU cannot address
 * @base: the GEM object
 * @node: where in the arena the buffer lives (not @host)
 * @vaddr: CPU address of the buffer
 * @dma: device address of the buffer (0 for @host)
 * @client: the creating file's accounting, charged with the buffer's size
 *	(arena buffers, or host buffers)
 * @host: system memory from __vmalloc(), charged to the memory cgroup and
 *	to @client's host_used, for status records only
 */
struct e1npu_bo {
	struct drm_gem_object base;
	struct drm_mm_node node;
	void *vaddr;
	dma_addr_t dma;
	struct e1npu_client *client;
	bool host;
};

#define to_e1npu_bo(obj)	container_of_const(obj, struct e1npu_bo, base)

int e1npu_gem_arena_init(struct e1npu_device *edev);
int e1npu_ioctl_bo_create(struct drm_device *ddev, void *data,
			  struct drm_file *file);
int e1npu_ioctl_bo_mmap_offset(struct drm_device *ddev, void *data,
			       struct drm_file *file);
int e1npu_ioctl_bo_wait(struct drm_device *ddev, void *data,
			struct drm_file *file);

#endif /* __E1NPU_GEM_H__ */
