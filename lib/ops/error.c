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
	char words[256];

	ops_cond_words(cond, words, sizeof(words));
	ops_error(ops, -EINVAL, "%s: invalid argument: %s", fn, words);
	return true;
}

int ops_device_error(struct e1npu_ops *ops, int err)
{
	const char *msg = e1npu_device_last_error(ops->dev);

	return ops_error(ops, err, "device: %s", msg[0] ? msg : e1npu_strerror(err));
}

/* Why this thread's last e1npu_ops_new() failed: it has no context yet. */
static _Thread_local char new_err[256];

void ops_new_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(new_err, sizeof(new_err), fmt, ap);
	va_end(ap);
}

E1NPU_API const char *e1npu_ops_last_error(const struct e1npu_ops *ops)
{
	if (!ops)
		return new_err[0] ? new_err : "invalid argument: NULL context";
	return ops->errmsg;
}
