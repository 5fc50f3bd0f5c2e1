/* SPDX-License-Identifier: MIT */
/* npu-smoke smoke: the lowered part's runner and printer (cmd-smoke-lowered.c). */
#ifndef __NPU_SMOKE_CMD_H__
#define __NPU_SMOKE_CMD_H__

#include "tools-common.h"
#include "smoke-lowered.h"

/*
 * Run every lowered case on @dev into @res (lowered_count() entries);
 * progress counts from @done + 1 of @total. Returns the failures.
 */
unsigned int smoke_run_lowered(struct e1npu_device *dev,
			       const struct common_opts *o, unsigned int done,
			       unsigned int total, struct lowered_result *res);

/* One table row or JSON line of lowered case @i; @last: no JSON comma. */
void smoke_print_lowered(const struct common_opts *o, unsigned int i,
			 const struct lowered_result *r, bool last);

#endif
