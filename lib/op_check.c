// SPDX-License-Identifier: MIT
/*
 * Validation of one public operation description with the kernel's own
 * rules (hw/e1npu_opcheck.c, compiled into the library), so both backends
 * and the CPU executor accept exactly what the driver accepts.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "backend.h"

struct op_lookup {
	struct e1npu_buffer *buf[E1NPU_T_COUNT];
};

static int op_lookup_fn(void *ctx, uint32_t handle, uint64_t *size)
{
	struct op_lookup *l = ctx;
	unsigned int t;

	for (t = 0; t < E1NPU_T_COUNT; t++)
		if (l->buf[t] && l->buf[t]->handle == handle) {
			/* the size asked for: ops may not touch the page rounding */
			*size = l->buf[t]->size;
			return 0;
		}
	return -ENOENT;
}

int e1npu_op_validate(struct e1npu_device *dev, unsigned int idx,
		      const struct e1npu_op_desc *d, struct e1npu_hw_op *opp,
		      struct e1npu_buffer *bufs[E1NPU_T_COUNT])
{
	static const char *const tnames[E1NPU_T_COUNT] = { "a", "b", "c" };
	const struct e1npu_tensor *pt[E1NPU_T_COUNT];
	struct e1npu_op_err err = { 0 };
	struct e1npu_limits lim;
	struct e1npu_hw_op op;
	struct op_lookup lk;
	unsigned int t, i;
	uint32_t engine;
	int ret;

	if (e1npu_op_desc_to_uapi(d, &op))
		return e1npu_set_error(dev, -EINVAL,
				       "op %u: field opcode = %" PRIu32 ": unknown opcode",
				       idx, d->opcode);
	for (i = 0; i < sizeof(d->reserved) / sizeof(d->reserved[0]); i++)
		if (d->reserved[i])
			return e1npu_set_error(dev, -EINVAL,
					       "op %u (%s): field reserved[%u] must be zero",
					       idx, e1npu_opcode_name(d->opcode), i);
	pt[0] = &d->a;
	pt[1] = &d->b;
	pt[2] = &d->c;
	for (t = 0; t < E1NPU_T_COUNT; t++) {
		if (pt[t]->reserved)
			return e1npu_set_error(dev, -EINVAL,
					       "op %u (%s): field %s.reserved must be zero",
					       idx, e1npu_opcode_name(d->opcode), tnames[t]);
		if (pt[t]->buf && pt[t]->buf->dev != dev)
			return e1npu_set_error(dev, -EXDEV,
					       "op %u (%s): field %s.buf: buffer of another device",
					       idx, e1npu_opcode_name(d->opcode), tnames[t]);
		lk.buf[t] = pt[t]->buf;
	}
	/*
	 * The kernel's rules, verbatim. An op whose engine this device lacks
	 * is checked against the same rules and later runs on the CPU.
	 */
	engine = (uint32_t)e1npu_op_engine(op.opcode);
	lim = dev->lim;
	if (!(lim.engines & (1u << engine)))
		lim.engines |= 1u << engine;
	ret = e1npu_op_check(&op, engine, &lim, op_lookup_fn, &lk, &err);
	if (ret) {
		/* The kernel's errno, so both backends answer alike. */
		return e1npu_set_error(dev, ret,
				       "op %u (%s): field %s = %" PRIu64 ": %s",
				       idx, e1npu_opcode_name(d->opcode),
				       err.field ? err.field : "?", err.value,
				       err.reason ? err.reason : "invalid");
	}

	for (t = 0; t < E1NPU_T_COUNT; t++)
		bufs[t] = lk.buf[t];
	*opp = op;
	return 0;
}
