// SPDX-License-Identifier: MIT
/*
 * The public enum e1npu_dp_opcode (include/e1npu/e1npu.h, installed) must
 * keep the hardware's values (include/hw/e1npu_hw.h, not installed).
 */
#include <e1npu/e1npu.h>

#include "e1npu_hw.h"

#define DP_SAME(x) _Static_assert(E1NPU_DP_OP_##x == E1_DP_OP_##x, \
				  "E1NPU_DP_OP_" #x " differs from the hardware's value")
DP_SAME(ADD);
DP_SAME(SUB);
DP_SAME(MUL_LO);
DP_SAME(MAC_S16);
DP_SAME(DOT4_S8);
DP_SAME(MAX_U32);
DP_SAME(MIN_U32);
DP_SAME(DOT8_S4);
DP_SAME(GEMM_S8);
DP_SAME(GEMM_S4);
DP_SAME(RELU4_S8);
DP_SAME(VRELU_S8);
DP_SAME(SDOT4_S4_2_4);
DP_SAME(DOT16_S2);
DP_SAME(DOT4_FP8_E4M3);
DP_SAME(EXP2_NEG_Q0_8);
_Static_assert(E1_DP_OP_COUNT == 16, "a datapath opcode without a public name");
