// SPDX-License-Identifier: MIT
/*
 * The CPU engine of a CPU-only lowering context: each hardware operation
 * of a plan runs over host memory through libe1npu's one CPU executor
 * (lib/hw_exec.c, also the command buffer's fallback), so the same tiled
 * plan gives the same bytes whether or not a device is present.
 */
#include <errno.h>

#include "hw_exec.h"
#include "internal.h"
#include "ops_internal.h"

int ops_cpu_hw_exec(const struct e1npu_op_desc *d, uint8_t *ar)
{
	struct e1npu_hw_op op;

	/* Tensors are offsets into the context's host arena. */
	if (e1npu_op_desc_to_uapi(d, &op))
		return -EINVAL;
	return e1npu_hw_exec(&op, ar + d->a.offset, ar + d->b.offset,
			     ar + d->c.offset) ? -EIO : 0;
}
