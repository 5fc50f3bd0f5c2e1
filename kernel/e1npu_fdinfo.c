// SPDX-License-Identifier: GPL-2.0-only
/*
 * e1 NPU per-file accounting and DRM client usage stats (fdinfo, see
 * Documentation/gpu/drm-usage-stats.rst): engine busy time per file and
 * the memory of the file's buffers. The accounting lives in a refcounted
 * struct e1npu_client because jobs and buffers may outlive their file.
 */
#include <linux/ktime.h>
#include <linux/slab.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_print.h>
#include <drm/e1npu_accel.h>

#include "e1npu_device.h"
#include "e1npu_job.h"

/**
 * e1npu_client_alloc() - accounting for a new file
 *
 * Return: the client with one reference, or NULL.
 */
struct e1npu_client *e1npu_client_alloc(void)
{
	struct e1npu_client *client;

	client = kzalloc_obj(*client, GFP_KERNEL_ACCOUNT);
	if (client)
		kref_init(&client->ref);
	return client;
}

/**
 * e1npu_client_get() - take a reference
 * @client: the client
 *
 * Return: @client.
 */
struct e1npu_client *e1npu_client_get(struct e1npu_client *client)
{
	kref_get(&client->ref);
	return client;
}

static void e1npu_client_release(struct kref *ref)
{
	kfree(container_of(ref, struct e1npu_client, ref));
}

/**
 * e1npu_client_put() - drop a reference
 * @client: the client, or NULL
 */
void e1npu_client_put(struct e1npu_client *client)
{
	if (client)
		kref_put(&client->ref, e1npu_client_release);
}

/**
 * e1npu_show_fdinfo() - &drm_driver.show_fdinfo
 * @p: printer into /proc/PID/fdinfo/FD
 * @file: the DRM file
 *
 * drm_show_fdinfo() has printed drm-driver and drm-client-id. Adds the busy
 * time of each present engine and the memory of the file's buffers (every
 * buffer is resident: the arena is pinned).
 */
void e1npu_show_fdinfo(struct drm_printer *p, struct drm_file *file)
{
	struct e1npu_file *efile = file->driver_priv;
	struct e1npu_device *edev = efile->edev;
	struct e1npu_client *client = efile->client;

	if (edev->lim.engines & BIT(DRM_E1NPU_ENGINE_WRAPPER))
		drm_printf(p, "drm-engine-wrapper:\t%llu ns\n",
			   (u64)atomic64_read(&client->busy_ns[DRM_E1NPU_ENGINE_WRAPPER]));
	if (edev->lim.engines & BIT(DRM_E1NPU_ENGINE_DATAPATH))
		drm_printf(p, "drm-engine-datapath:\t%llu ns\n",
			   (u64)atomic64_read(&client->busy_ns[DRM_E1NPU_ENGINE_DATAPATH]));
	drm_show_memory_stats(p, file);
}
