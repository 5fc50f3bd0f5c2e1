// SPDX-License-Identifier: MIT
/*
 * Reserved members must be zero (include/e1npu/e1npu.h, "Public structs
 * are append-only"): a caller that sets one is using a later version's
 * meaning this library does not know.
 */
#include <errno.h>
#include <inttypes.h>

#include "internal.h"
#include "ops_internal.h"
#include "reserved.h"

int ops_reserved_check(struct e1npu_ops *ops, const char *what,
		       const uint32_t *r, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (!r[i])
			continue;
		if (n == 1)
			return ops_error(ops, -EINVAL,
					 "%s: field reserved = %" PRIu32 " must be zero",
					 what, r[i]);
		return ops_error(ops, -EINVAL,
				 "%s: field reserved[%zu] = %" PRIu32 " must be zero",
				 what, i, r[i]);
	}
	return 0;
}

int ops_requant_reserved(struct e1npu_ops *ops, const char *what,
			 const struct e1npu_requant *rq)
{
	return rq ? ops_reserved_check(ops, what, &rq->reserved, 1) : 0;
}
