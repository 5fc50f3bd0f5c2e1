// SPDX-License-Identifier: MIT
/*
 * The delegate's log: one line per message on stderr, "e1npu-delegate: "
 * first, kept when @level is within the option log_level (0 errors, 1 the
 * summary, 2 each node). Its own file so that the partition kernels and the
 * cache log without depending on the delegate's entry points.
 */
#include <stdarg.h>
#include <stdio.h>

#include "delegate.h"

void e1d_log(const struct e1d *d, int level, const char *fmt, ...)
{
	va_list ap;

	if (level > d->log_level)
		return;
	fputs("e1npu-delegate: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}
