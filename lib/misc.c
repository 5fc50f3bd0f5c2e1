// SPDX-License-Identifier: MIT
/*
 * Library-wide helpers: version, error texts, the per-device error message
 * and the clock.
 */
#define _GNU_SOURCE	/* strerrordesc_np(): glibc's constant, reentrant texts */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "internal.h"

E1NPU_API const char *e1npu_api_version(void)
{
	return E1NPU_VERSION_STR;
}

struct err_text {
	int err;
	const char *text;
};

/*
 * Texts in the library's words (strerror() is neither ours nor reentrant);
 * other errnos use strerrordesc_np(), which is.
 */
static const struct err_text err_texts[] = {
	{ 0, "success" },
	{ EPERM, "operation not permitted" },
	{ ENOENT, "no such device node or buffer" },
	{ EIO, "an operation failed on the device" },
	{ E2BIG, "too many operations" },
	{ ENOMEM, "out of memory (host or tensor arena)" },
	{ EACCES, "permission denied" },
	{ EFAULT, "bus error or tensor outside the tensor window" },
	{ EBUSY, "object in use by a submitted command buffer" },
	{ EXDEV, "buffer belongs to another device" },
	{ ENODEV, "not an e1 NPU device" },
	{ EINVAL, "invalid argument" },
	{ ERANGE, "value out of range" },
	{ ENOSPC, "no space left" },
	{ ENOSYS, "not implemented" },
	{ ENODATA, "command buffer is empty" },
	{ ETIME, "timed out waiting" },
	{ EOVERFLOW, "tensor outside its buffer" },
	{ EOPNOTSUPP, "operation not supported" },
	{ EDOM, "argument outside the operation's domain" },
	{ ETIMEDOUT, "engine hung and was reset" },
	{ ECANCELED, "canceled by an earlier failure" },
	{ EALREADY, "already submitted" },
	{ ENOTTY, "not a DRM device" },
};

E1NPU_API const char *e1npu_strerror(int err)
{
	const char *t;
	size_t i;

	if (err == INT_MIN)	/* has no positive counterpart */
		return "unknown error";
	if (err < 0)
		err = -err;
	for (i = 0; i < sizeof(err_texts) / sizeof(err_texts[0]); i++)
		if (err_texts[i].err == err)
			return err_texts[i].text;
	/* any other errno (EISDIR from open(), ...): the C library's text */
	t = strerrordesc_np(err);
	return t ? t : "unknown error";
}

int e1npu_set_error(struct e1npu_device *dev, int err, const char *fmt, ...)
{
	va_list ap;

	if (!dev)
		return err;
	va_start(ap, fmt);
	vsnprintf(dev->errmsg, sizeof(dev->errmsg), fmt, ap);
	va_end(ap);
	return err;
}

void e1npu_clear_error(struct e1npu_device *dev)
{
	if (dev)
		dev->errmsg[0] = '\0';
}

int64_t e1npu_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}
