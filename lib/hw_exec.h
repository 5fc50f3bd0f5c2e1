/* SPDX-License-Identifier: MIT */
/*
 * libe1npu's one CPU executor of hardware operations (hw_exec.c): used by
 * the CPU fallback of a command buffer (cpu_exec.c) and by CPU-only
 * lowering contexts (lib/ops/cpu_hw.c). Bit-exact with the hardware.
 */
#ifndef __E1NPU_HW_EXEC_H__
#define __E1NPU_HW_EXEC_H__

#include <stdbool.h>
#include <stdint.h>

#include "e1npu_opcheck.h"

/*
 * Run @op over host memory: @a, @b and @c point at the first byte of each
 * tensor (the tensor's offset already applied); rows follow at the
 * tensor's stride. Returns 0, or -EINVAL for an unknown opcode or operands
 * outside the opcode's domain (the hardware fails such an op closed).
 */
int e1npu_hw_exec(const struct e1npu_hw_op *op, const uint8_t *a,
		  const uint8_t *b, uint8_t *c);

/* One datapath scalar command; false when the hardware would fail closed. */
bool e1npu_dp_scalar_exec(uint32_t opcode, uint32_t op_a, uint32_t op_b,
			  uint32_t acc, bool ternary, uint32_t *result,
			  uint32_t *result_hi);

/* FP8 E4M3 byte -> signed Q8.8 (the datapath's decode); false for NaN. */
bool e1npu_fp8_e4m3_q88(uint8_t v, int32_t *q);

#endif /* __E1NPU_HW_EXEC_H__ */
