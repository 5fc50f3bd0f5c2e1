/* SPDX-License-Identifier: MIT */
/* Reserved members of the public parameter structs (include/e1npu/e1npu_ops.h). */
#ifndef __E1NPU_OPS_RESERVED_H__
#define __E1NPU_OPS_RESERVED_H__

#include <stddef.h>
#include <stdint.h>

struct e1npu_ops;
struct e1npu_requant;

/*
 * ops_reserved_check() - 0 when the @n words at @r are zero, else -EINVAL
 * with "@what: field reserved[i] = v must be zero" as the last error of
 * @ops's device (a CPU-only context has no device to hold it).
 */
int ops_reserved_check(struct e1npu_ops *ops, const char *what,
		       const uint32_t *r, size_t n);

#define OPS_RESERVED(ops, what, arr) \
	ops_reserved_check(ops, what, arr, sizeof(arr) / sizeof((arr)[0]))

/* The same for the one reserved word of a struct e1npu_requant (NULL: 0). */
int ops_requant_reserved(struct e1npu_ops *ops, const char *what,
			 const struct e1npu_requant *rq);

#endif
