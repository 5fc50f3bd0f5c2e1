// SPDX-License-Identifier: MIT
/*
 * Devices: opening (explicit, E1NPU_DEVICE, auto-detection), info, perf
 * counters, the last error message, closing. A device is reference
 * counted: buffers and command buffers hold it open (Documentation/
 * libe1npu.md, "Lifetime").
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"

static int device_open_backend(struct e1npu_device *dev,
			       const struct e1npu_backend_funcs *be,
			       const char *path)
{
	int ret;

	dev->be = be;
	e1_timing_default(&dev->timing);
	ret = be->open(dev, path);
	if (ret)
		return ret;
	e1npu_device_fill_info(dev);
	return 0;
}

/* Why the last e1npu_device_open() of this thread failed: no device holds it. */
static _Thread_local char open_err[256];

void e1npu_set_open_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(open_err, sizeof(open_err), fmt, ap);
	va_end(ap);
}

E1NPU_API int e1npu_device_open(const char *spec, struct e1npu_device **devp)
{
	char path[64];
	struct e1npu_device *dev;
	int ret;

	open_err[0] = 0;
	if (!devp) {
		e1npu_set_open_error("e1npu_device_open: NULL device pointer");
		return -EINVAL;
	}
	*devp = NULL;
	if (!spec) {
		unsigned int dummy;
		char err[200];

		if (e1npu_env_get("E1NPU_DEVICE", &dummy, err, sizeof(err))) {
			e1npu_set_open_error("%s", err);
			return -EINVAL;
		}
		spec = getenv("E1NPU_DEVICE");
	}
	if (spec && !strcmp(spec, "auto"))
		spec = NULL;

	dev = calloc(1, sizeof(*dev));
	if (!dev)
		return -ENOMEM;

	if (!spec || !*spec) {
		if (e1npu_kernel_find_node(path, sizeof(path)) == 0)
			ret = device_open_backend(dev, &e1npu_backend_kernel, path);
		else
			ret = device_open_backend(dev, &e1npu_backend_sim, NULL);
	} else if (!strcmp(spec, "sim")) {
		ret = device_open_backend(dev, &e1npu_backend_sim, NULL);
	} else if (spec[0] == '/') {
		if (strlen(spec) >= sizeof(dev->info.path))
			ret = -ENAMETOOLONG;
		else
			ret = device_open_backend(dev, &e1npu_backend_kernel,
						  spec);
	} else {
		e1npu_set_open_error("device '%s': expected 'auto', 'sim' or an accel node "
				     "path such as /dev/accel/accel0", spec);
		ret = -EINVAL;
	}
	if (ret) {
		if (!open_err[0])
			e1npu_set_open_error("device '%s': %s", spec && *spec ? spec : "auto",
					     e1npu_strerror(ret));
		free(dev);
		return ret;
	}
	dev->refs = 1;		/* the caller's */
	*devp = dev;
	return 0;
}

void e1npu_device_fill_info(struct e1npu_device *dev)
{
	const struct e1npu_limits *lim = &dev->lim;
	struct e1npu_device_info *info = &dev->info;

	/* path and driver are filled by the backend's open */
	info->backend = dev->be == &e1npu_backend_sim ? E1NPU_BACKEND_SIM :
			E1NPU_BACKEND_KERNEL;
	info->engines = 0;
	if (lim->engines & (1u << DRM_E1NPU_ENGINE_WRAPPER))
		info->engines |= E1NPU_ENGINE_BIT(E1NPU_ENGINE_WRAPPER);
	if (lim->engines & (1u << DRM_E1NPU_ENGINE_DATAPATH))
		info->engines |= E1NPU_ENGINE_BIT(E1NPU_ENGINE_DATAPATH);
	info->wrapper_id = lim->wrapper_id;
	info->wrapper_caps = lim->wrapper_caps;
	info->gemmini_present = !!(lim->wrapper_caps & E1_V0_CAPS_GEMMINI);
	info->array_rows = E1_FIELD_GET(E1_V0_CAPS_ROWS, lim->wrapper_caps);
	info->array_cols = E1_FIELD_GET(E1_V0_CAPS_COLS, lim->wrapper_caps);
	info->datapath_id = lim->datapath_id;
	info->ring_len = lim->ring_len;
	info->datapath_slots = lim->datapath_slots;
	info->max_ops_per_job = lim->max_ops_per_job;
	info->align = lim->align;
	info->arena_size = lim->arena_size;
	info->max_matmul_mn = lim->max_matmul_mn;
	info->max_matmul_k = lim->max_matmul_k;
	info->max_conv_hw = lim->max_conv_hw;
	info->max_conv_c = lim->max_conv_c;
	info->conv_kernels = lim->conv_kernels;
	info->conv_strides = lim->conv_strides;
	info->max_conv_dilation = lim->max_conv_dilation;
	info->pool_windows = lim->pool_windows;
	info->pool_strides = lim->pool_strides;
	info->max_relu_mn = lim->max_relu_mn;
}

void e1npu_device_get(struct e1npu_device *dev)
{
	dev->refs++;
}

void e1npu_device_put(struct e1npu_device *dev)
{
	if (--dev->refs)
		return;
	dev->be->close(dev);
	free(dev);
}

/* Drops the caller's reference; objects made from @dev keep it open. */
E1NPU_API void e1npu_device_close(struct e1npu_device *dev)
{
	if (dev)
		e1npu_device_put(dev);
}

E1NPU_API const char *e1npu_device_last_error(const struct e1npu_device *dev)
{
	if (!dev)
		return open_err[0] ? open_err : "no device";
	return dev->errmsg;
}

E1NPU_API int e1npu_device_get_info(struct e1npu_device *dev,
				    struct e1npu_device_info *info)
{
	if (!dev || !info)
		return -EINVAL;
	*info = dev->info;
	return 0;
}

E1NPU_API int e1npu_device_read_perf(struct e1npu_device *dev,
				     struct e1npu_perf *perf)
{
	int ret;

	if (!dev || !perf)
		return -EINVAL;
	memset(perf, 0, sizeof(*perf));
	ret = dev->be->read_perf(dev, perf);
	if (ret)
		return e1npu_set_error(dev, ret, "reading perf counters: %s",
				       e1npu_strerror(ret));
	perf->jobs = dev->stats.jobs;
	perf->ops_hw = dev->stats.ops_hw;
	perf->ops_cpu = dev->stats.ops_cpu;
	perf->bytes_in = dev->stats.bytes_in;
	perf->bytes_out = dev->stats.bytes_out;
	return 0;
}
