// SPDX-License-Identifier: MIT
/*
 * libe1npu language models: the error channel, overflow-checked sizes and
 * the per-operation placement rows.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "llm_internal.h"

int llm_errf(char *buf, size_t len, int ret, const char *fmt, ...)
{
	va_list ap;

	if (buf && len) {
		va_start(ap, fmt);
		vsnprintf(buf, len, fmt, ap);
		va_end(ap);
	}
	return ret;
}

int llm_seterr(struct e1npu_llm *l, int ret, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(l->err, sizeof(l->err), fmt, ap);
	va_end(ap);
	return ret;
}

/* *out = a * b; 0 when it overflows size_t. */
int llm_size_mul(size_t *out, size_t a, size_t b)
{
	if (a && b > SIZE_MAX / a)
		return 0;
	*out = a * b;
	return 1;
}

void llm_op_note(struct e1npu_llm *l, enum llm_op_id id, uint32_t engine,
		 uint32_t reason, const char *why, uint64_t macs)
{
	struct e1npu_llm_op *op = &l->ops[id];

	op->engine = engine;
	op->reason = reason;
	op->calls++;
	op->macs += macs;
	if (why && strcmp(op->why, why))
		snprintf(op->why, sizeof(op->why), "%s", why);
}
