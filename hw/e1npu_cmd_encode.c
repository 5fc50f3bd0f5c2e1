// SPDX-License-Identifier: (GPL-2.0-only OR MIT)
/*
 * The inverse of e1npu_cmd_decode(): an operation as the command and
 * relocations userspace submits. libe1npu encodes its jobs with it; in the
 * kernel only the KUnit suite needs it (its round trips through the
 * decoder), so e1npu.ko does not contain it.
 */
#include "e1npu_opcheck.h"

/**
 * e1npu_cmd_encode() - the command and relocations of an operation
 * @engine: enum drm_e1npu_engine of @op
 * @op: the operation (libe1npu's side of e1npu_cmd_decode())
 * @cmd: receives e1npu_cmd_size(@engine) bytes
 * @relocs: receives up to E1NPU_T_COUNT relocations for @op's tensors
 * @index: the command's index in its job
 * @nrelocs: receives the number of relocations written
 *
 * Return: 0, or -EINVAL when @op is not an operation of @engine.
 */
int e1npu_cmd_encode(u32 engine, const struct e1npu_hw_op *op, void *cmd,
		     struct drm_e1npu_reloc *relocs, u32 index, u32 *nrelocs)
{
	const u64 zero[E1NPU_T_COUNT] = { 0 };
	u32 used = e1npu_op_tensors(op->opcode), t, n = 0;
	int ret = 0;

	if (e1npu_op_engine(op->opcode) != (int)engine)
		return -EINVAL;
	if (engine == DRM_E1NPU_ENGINE_WRAPPER)
		ret = e1npu_op_encode(op, zero, 0, cmd);
	else
		e1npu_dp_cmd_encode(op, cmd);
	if (ret)
		return ret;
	for (t = 0; t < E1NPU_T_COUNT; t++) {
		const struct e1npu_hw_tensor *tn = e1npu_op_tensor(op, t);

		if (!(used & E1_BIT(t)))
			continue;
		memset(&relocs[n], 0, sizeof(relocs[n]));
		relocs[n].cmd = index;
		relocs[n].field = t;
		relocs[n].handle = tn->handle;
		relocs[n].offset = tn->offset;
		n++;
	}
	*nrelocs = n;
	return 0;
}
