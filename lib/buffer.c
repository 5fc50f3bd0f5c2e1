// SPDX-License-Identifier: MIT
/*
 * Buffers: tensor memory from the device's arena, mapped for the CPU.
 * Reference counted: the caller's reference and one per operation of a
 * command buffer that names the buffer; each buffer holds its device.
 */
#include <errno.h>
#include <stdlib.h>

#include "backend.h"

E1NPU_API int e1npu_buffer_alloc(struct e1npu_device *dev, size_t size,
				 struct e1npu_buffer **bufp)
{
	struct e1npu_buffer *buf;
	int ret;

	if (!dev)
		return -EINVAL;
	if (!bufp)
		return e1npu_set_error(dev, -EINVAL, "buffer_alloc: NULL bufp");
	*bufp = NULL;
	if (!size || size > dev->lim.arena_size)
		return e1npu_set_error(dev, size ? -ENOMEM : -EINVAL,
				       "buffer_alloc: size %zu outside 1..%llu",
				       size,
				       (unsigned long long)dev->lim.arena_size);
	buf = calloc(1, sizeof(*buf));
	if (!buf)
		return e1npu_set_error(dev, -ENOMEM, "buffer_alloc: out of memory");
	buf->dev = dev;
	buf->size = size;
	ret = dev->be->bo_create(dev, size, &buf->handle, &buf->bo_size);
	if (ret) {
		free(buf);
		return e1npu_set_error(dev, ret, "buffer_alloc: %zu bytes: %s",
				       size, e1npu_strerror(ret));
	}
	buf->refs = 1;		/* the caller's */
	e1npu_device_get(dev);
	*bufp = buf;
	return 0;
}

void e1npu_buffer_get(struct e1npu_buffer *buf)
{
	buf->refs++;
}

void e1npu_buffer_put(struct e1npu_buffer *buf)
{
	struct e1npu_device *dev = buf->dev;

	if (--buf->refs)
		return;
	dev->be->bo_free(dev, buf->handle, buf->map, buf->bo_size);
	free(buf);
	e1npu_device_put(dev);
}

/* Drops the caller's reference; command buffers naming it keep it. */
E1NPU_API void e1npu_buffer_free(struct e1npu_buffer *buf)
{
	if (buf)
		e1npu_buffer_put(buf);
}

E1NPU_API int e1npu_buffer_map(struct e1npu_buffer *buf, void **ptrp)
{
	int ret;

	if (!buf)
		return -EINVAL;
	if (!ptrp)
		return e1npu_set_error(buf->dev, -EINVAL, "buffer_map: NULL ptrp");
	if (!buf->map) {
		ret = buf->dev->be->bo_map(buf->dev, buf->handle, buf->bo_size,
					    &buf->map);
		if (ret) {
			buf->map = NULL;
			return e1npu_set_error(buf->dev, ret, "buffer_map: %s",
					       e1npu_strerror(ret));
		}
	}
	*ptrp = buf->map;
	return 0;
}

E1NPU_API size_t e1npu_buffer_get_size(const struct e1npu_buffer *buf)
{
	return buf ? buf->size : 0;
}

E1NPU_API struct e1npu_device *
e1npu_buffer_get_device(const struct e1npu_buffer *buf)
{
	return buf ? buf->dev : NULL;
}
