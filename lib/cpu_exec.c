// SPDX-License-Identifier: MIT
/*
 * CPU execution of validated operations over mapped buffers: the command
 * buffer's fallback and e1npu_op_desc_run_cpu() both come here, and from
 * here to the one executor (hw_exec.c). Returns the map's error, or -EDOM
 * for operands the hardware would fail closed.
 */
#include <errno.h>
#include <string.h>

#include "backend.h"
#include "hw_exec.h"

int e1npu_cpu_exec(const struct e1npu_hw_op *op,
		   struct e1npu_buffer *bufs[E1NPU_T_COUNT])
{
	const struct e1npu_hw_tensor *u[E1NPU_T_COUNT] = { &op->a, &op->b, &op->c };
	uint8_t *p[E1NPU_T_COUNT];
	unsigned int t;
	int ret;

	for (t = 0; t < E1NPU_T_COUNT; t++) {
		void *m = NULL;

		p[t] = NULL;
		if (!bufs[t])
			continue;
		ret = e1npu_buffer_map(bufs[t], &m);
		if (ret)
			return ret;
		p[t] = (uint8_t *)m + u[t]->offset;
	}
	return e1npu_hw_exec(op, p[0], p[1], p[2]) ? -EDOM : 0;
}

E1NPU_API int e1npu_op_desc_run_cpu(const struct e1npu_op_desc *d)
{
	struct e1npu_buffer *bufs[E1NPU_T_COUNT];
	struct e1npu_device *dev;
	struct e1npu_hw_op op;
	int ret;

	if (!d)
		return -EINVAL;
	dev = d->a.buf ? d->a.buf->dev : d->b.buf ? d->b.buf->dev :
	      d->c.buf ? d->c.buf->dev : NULL;
	if (!dev)	/* no tensors: NOP, BARRIER, FALLBACK */
		return e1npu_opcode_to_uapi(d->opcode, &op.opcode);
	ret = e1npu_op_validate(dev, 0, d, &op, bufs);
	if (ret)
		return ret;
	ret = e1npu_cpu_exec(&op, bufs);
	if (ret == -EDOM)
		return e1npu_set_error(dev, -EDOM,
				       "op 0 (%s): operands outside the opcode's domain",
				       e1npu_opcode_name(d->opcode));
	return ret;
}
