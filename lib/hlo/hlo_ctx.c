// SPDX-License-Identifier: MIT
/*
 * The run context every layer reports to (hlo_ctx.h): the error message
 * and the run's CPU work budget. Its own file, below the parser, the
 * evaluator and the NPU code that call it, so that the files form layers
 * and hlo_run.c, which calls them all, is only their top.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "hlo_ctx.h"

int hlo_errf(struct e1npu_hlo *h, int ret, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(h->err, sizeof(h->err), fmt, ap);
	va_end(ap);
	return ret;
}

/*
 * A run's CPU work is bounded as a whole, not only per op: calls can
 * repeat a function exponentially (each calling the next twice) and every
 * op may take up to HLO_MAX_WORK steps. The budget (h->work_cap, set by
 * hlo_run.c from the max_work_mi option, E1NPU_HLO_MAX_WORK or the
 * caller's tensor cap) keeps a fuzzer's runs short too.
 */
int hlo_work(struct e1npu_hlo *h, const struct hlo_op *op, uint64_t steps)
{
	if (steps > h->work_cap - h->work)
		return hlo_errf(h, -E2BIG, "%s (line %d): the run's CPU work passes %llu steps, its cap (%llu Mi steps; the max_work_mi option or E1NPU_HLO_MAX_WORK raise it)",
				op->name, op->line, (unsigned long long)h->work_cap,
				(unsigned long long)(h->work_cap >> 20));
	h->work += steps;
	return 0;
}
