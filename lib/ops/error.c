// SPDX-License-Identifier: MIT
/*
 * The lowering context's one error channel (e1npu_ops_last_error()): every
 * failing call on a context, or on an fc/conv object made from it, leaves
 * its reason here, naming the argument or the failed condition. Failures
 * of the device underneath are copied in with the device's own words.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "ops_internal.h"

int ops_error(struct e1npu_ops *ops, int err, const char *fmt, ...)
{
	va_list ap;

	if (!ops)
		return err;
	va_start(ap, fmt);
	vsnprintf(ops->errmsg, sizeof(ops->errmsg), fmt, ap);
	va_end(ap);
	return err;
}

bool ops_bad(struct e1npu_ops *ops, const char *fn, const char *cond)
{
	ops_error(ops, -EINVAL, "%s: invalid argument: %s", fn, cond);
	return true;
}

int ops_device_error(struct e1npu_ops *ops, int err)
{
	const char *msg = e1npu_device_last_error(ops->dev);

	return ops_error(ops, err, "device: %s", msg[0] ? msg : e1npu_strerror(err));
}

E1NPU_API const char *e1npu_ops_last_error(const struct e1npu_ops *ops)
{
	return ops ? ops->errmsg : "invalid argument: NULL context";
}
