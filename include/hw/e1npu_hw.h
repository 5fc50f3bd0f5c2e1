/* SPDX-License-Identifier: (GPL-2.0-only OR MIT) */
/*
 * e1 NPU hardware contract: register offsets, bit fields, descriptor layouts,
 * opcodes, error codes and the validated envelope of both register
 * interfaces of the e1 NPU.
 *
 * This is the only place in the project where a register offset or a field
 * position is written. The kernel driver, the device model and libe1npu all
 * include it. It is freestanding: macros and, outside the kernel, two
 * inline field helpers; no typedefs, no includes beyond the kernel's bit
 * and bitfield helpers in the kernel.
 *
 * Sources: e1-npu-v0-microarch.md (the "v0 wrapper", E1_V0_*) and
 * e1-npu-datapath.md (the "datapath", E1_DP_*). Everything marked
 * ASSUMPTION is a project decision where the documents are silent; see
 * Documentation/hardware-contract.md, to confirm against RTL.
 */
#ifndef __E1NPU_HW_H__
#define __E1NPU_HW_H__

/*
 * Bits and fields. In the kernel: <linux/bits.h> and <linux/bitfield.h>
 * (compile-time checked masks; every mask here is a constant). Elsewhere
 * (the device model, libe1npu): the same semantics for 32-bit registers,
 * field access for a contiguous, non-zero mask through functions so that
 * neither argument is evaluated twice.
 */
#ifdef __KERNEL__
#include <linux/bitfield.h>
#include <linux/bits.h>
#define E1_BIT(n)		BIT(n)
#define E1_GENMASK(h, l)	GENMASK(h, l)
#define E1_FIELD_GET(mask, reg)	FIELD_GET(mask, reg)
#define E1_FIELD_PREP(mask, v)	FIELD_PREP(mask, v)
#else
#define E1_BIT(n)		(1U << (n))
#define E1_GENMASK(h, l)	((~0U >> (31 - (h))) & ~((1U << (l)) - 1U))

static inline unsigned int e1_field_get(unsigned int mask, unsigned int reg)
{
	return (reg & mask) >> __builtin_ctz(mask);
}

static inline unsigned int e1_field_prep(unsigned int mask, unsigned int val)
{
	return (val << __builtin_ctz(mask)) & mask;
}

#define E1_FIELD_GET(mask, reg)	e1_field_get(mask, reg)
#define E1_FIELD_PREP(mask, v)	e1_field_prep(mask, v)
#endif

/*
 * Register windows. The device has up to two 4 KiB MMIO windows; either may
 * be absent but not both. ASSUMPTION: on the reference SoC the datapath
 * window follows the wrapper window. The device model addresses both through
 * one flat space: window index * E1_WIN_SIZE + offset.
 */
#define E1_WIN_SIZE			0x1000
#define E1_WIN_WRAPPER			0
#define E1_WIN_DATAPATH			1
#define E1_WRAPPER_PHYS_BASE		0x10020000UL
#define E1_DATAPATH_PHYS_BASE		0x10021000UL

/* ---------------------------------------------------------------------- */
/* v0 wrapper (Gemmini command-queue front door)                          */
/* ---------------------------------------------------------------------- */

#define E1_V0_ID			0x000	/* RO */
#define E1_V0_ID_VALUE			0x4E505530U	/* "NPU0" */

#define E1_V0_CAPS			0x004	/* RO */
#define E1_V0_CAPS_GEMMINI		E1_BIT(0)
#define E1_V0_CAPS_INT8			E1_BIT(1)
#define E1_V0_CAPS_INT32_ACCUM		E1_BIT(2)
#define E1_V0_CAPS_RELU			E1_BIT(3)
#define E1_V0_CAPS_ROWS			E1_GENMASK(15, 8)
#define E1_V0_CAPS_COLS			E1_GENMASK(23, 16)

#define E1_V0_CTRL			0x008	/* RW */
#define E1_V0_CTRL_ENABLE		E1_BIT(0)
#define E1_V0_CTRL_FLUSH		E1_BIT(1)	/* self-clearing */
#define E1_V0_CTRL_IRQ_ENABLE		E1_BIT(2)
#define E1_V0_CTRL_CPU_FALLBACK		E1_BIT(3)
#define E1_V0_CTRL_MASK			E1_GENMASK(3, 0)

#define E1_V0_STATUS			0x00C	/* RO */
#define E1_V0_STATUS_BUSY		E1_BIT(0)
#define E1_V0_STATUS_QUEUE_FULL		E1_BIT(1)
#define E1_V0_STATUS_QUEUE_EMPTY	E1_BIT(2)
#define E1_V0_STATUS_DONE		E1_BIT(3)
#define E1_V0_STATUS_ERROR		E1_BIT(4)
#define E1_V0_STATUS_Q_LEVEL		E1_GENMASK(15, 8)
#define E1_V0_STATUS_ERR_CODE		E1_GENMASK(23, 16)

#define E1_V0_IRQ_STATUS		0x010	/* RW1C */
#define E1_V0_IRQ_MASK			0x014	/* RW, same bits */
#define E1_V0_IRQ_DONE			E1_BIT(0)
#define E1_V0_IRQ_ERROR			E1_BIT(1)
#define E1_V0_IRQ_UNSUPPORTED_OP	E1_BIT(2)
#define E1_V0_IRQ_BUS_ERROR		E1_BIT(3)
#define E1_V0_IRQ_QUEUE_OVERFLOW	E1_BIT(4)
#define E1_V0_IRQ_ALL			E1_GENMASK(4, 0)

#define E1_V0_DESC_BASE_LO		0x018	/* RW */
#define E1_V0_DESC_BASE_HI		0x01C	/* RW */
#define E1_V0_DESC_RING_LEN		0x020	/* RW, power of two, 2..256 */
#define E1_V0_DESC_HEAD			0x024	/* RW, producer index */
#define E1_V0_DESC_TAIL			0x028	/* RO; RW when CTRL.cpu_fallback */
#define E1_V0_DESC_DOORBELL		0x02C	/* WO, value = new head */
#define E1_V0_TENSOR_MEM_BASE_LO	0x030	/* RW */
#define E1_V0_TENSOR_MEM_BASE_HI	0x034	/* RW */
#define E1_V0_TENSOR_MEM_LEN		0x038	/* RW, bytes */
#define E1_V0_PERF_CYCLES		0x040	/* RO */
#define E1_V0_PERF_MACS_LO		0x044	/* RO */
#define E1_V0_PERF_MACS_HI		0x048	/* RO */
#define E1_V0_PERF_FALLBACKS		0x04C	/* RO */
#define E1_V0_ERR_DESC_INDEX		0x050	/* RO */
#define E1_V0_ERR_FAULT_ADDR_LO		0x054	/* RO */
#define E1_V0_ERR_FAULT_ADDR_HI		0x058	/* RO */
#define E1_V0_COMPLETION_TAG		0x05C	/* RO, tag of last retired */
#define E1_V0_REG_LAST			E1_V0_COMPLETION_TAG

/* Error codes latched in STATUS.err_code. */
#define E1_V0_ERR_NONE			0x00
#define E1_V0_ERR_UNKNOWN_OP		0x01
#define E1_V0_ERR_SHAPE			0x02
#define E1_V0_ERR_FLAGS			0x03
#define E1_V0_ERR_ALIGN			0x04
#define E1_V0_ERR_WINDOW		0x05
#define E1_V0_ERR_BUS			0x06
#define E1_V0_ERR_OVERFLOW		0x07

/* Descriptor: 64 bytes, 16 little-endian words. */
#define E1_V0_DESC_SIZE			64
#define E1_V0_DESC_WORDS		16
#define E1_V0_RING_LEN_MIN		2
#define E1_V0_RING_LEN_MAX		256

#define E1_V0_DW_OP			0
#define E1_V0_DW_SHAPE_M		1
#define E1_V0_DW_SHAPE_N		2
#define E1_V0_DW_SHAPE_K		3
#define E1_V0_DW_A_LO			4
#define E1_V0_DW_A_HI			5
#define E1_V0_DW_B_LO			6
#define E1_V0_DW_B_HI			7
#define E1_V0_DW_C_LO			8
#define E1_V0_DW_C_HI			9
#define E1_V0_DW_A_STRIDE		10
#define E1_V0_DW_B_STRIDE		11
#define E1_V0_DW_C_STRIDE		12
#define E1_V0_DW_CONV_PARAMS		13
#define E1_V0_DW_POOL_PARAMS		14
#define E1_V0_DW_TAG			15

/*
 * Word 0: OP in [15:0] (the seed's "OP" word half; every value outside the
 * v0 op set, 0x0100-0xFFFF included, is err 0x01), FLAGS in [31:16].
 */
#define E1_V0_DESC_OP			E1_GENMASK(15, 0)
#define E1_V0_DESC_FLAGS		E1_GENMASK(31, 16)
#define E1_V0_FLAG_IRQ_ON_COMPLETE	E1_BIT(16)
#define E1_V0_FLAG_SIGNED_INPUT		E1_BIT(17)
#define E1_V0_FLAG_RELU_FUSE		E1_BIT(18)
#define E1_V0_FLAG_BARRIER		E1_BIT(19)
#define E1_V0_FLAG_ALL			E1_GENMASK(19, 16)

/* Word 13: CONV_PARAMS. */
#define E1_V0_CONV_STRIDE_H		E1_GENMASK(3, 0)
#define E1_V0_CONV_STRIDE_W		E1_GENMASK(7, 4)
#define E1_V0_CONV_PAD_H		E1_GENMASK(11, 8)	/* top pad */
#define E1_V0_CONV_PAD_W		E1_GENMASK(15, 12)	/* left pad */
#define E1_V0_CONV_DILATION		E1_GENMASK(19, 16)
#define E1_V0_CONV_RSVD			E1_GENMASK(31, 20)

/* Word 14: POOL_PARAMS (MAXPOOL). */
#define E1_V0_POOL_WIN_H		E1_GENMASK(3, 0)
#define E1_V0_POOL_WIN_W		E1_GENMASK(7, 4)
#define E1_V0_POOL_STRIDE		E1_GENMASK(11, 8)
#define E1_V0_POOL_RSVD			E1_GENMASK(31, 12)

/*
 * ASSUMPTION: shape packing of CONV2D and MAXPOOL descriptors.
 *   SHAPE_M = in_h[15:0] | in_w[31:16]
 *   SHAPE_N = c_in[15:0] | c_out[31:16]  (MAXPOOL: channels in c_in, c_out 0)
 *   SHAPE_K = kernel size (1, 3 or 5; square)  (MAXPOOL: 0)
 *   POOL_PARAMS of a CONV2D = out_h[15:0] | out_w[31:16]
 * CONV2D reads A as NHWC (N = 1) with A_STRIDE bytes between input rows,
 * B as the [kh][kw][c_in] x c_out weight matrix with B_STRIDE bytes per row,
 * and writes INT32 accumulators, C_STRIDE bytes between output rows.
 */
#define E1_V0_SHAPE_LO			E1_GENMASK(15, 0)
#define E1_V0_SHAPE_HI			E1_GENMASK(31, 16)

/* v0 op set. */
#define E1_V0_OP_NOP			0x00
#define E1_V0_OP_MATMUL_S8		0x10
#define E1_V0_OP_MATMUL_S8_RELU		0x11
#define E1_V0_OP_CONV2D_S8		0x20
#define E1_V0_OP_CONV2D_S8_RELU		0x21
#define E1_V0_OP_RELU			0x30
#define E1_V0_OP_MAXPOOL_S8		0x40
#define E1_V0_OP_BARRIER		0xFE
#define E1_V0_OP_FALLBACK		0xFF

/* Tensor memory ABI. */
#define E1_V0_ALIGN			16

/* v0 validated envelope. */
#define E1_V0_MAX_MATMUL_MN		1024
#define E1_V0_MAX_MATMUL_K		1024
#define E1_V0_MAX_CONV_HW		256
#define E1_V0_MAX_CONV_C		512
#define E1_V0_MAX_CONV_DILATION		15
#define E1_V0_MAX_RELU_MN		1024	/* ASSUMPTION: as matmul M, N */

/* ---------------------------------------------------------------------- */
/* e1 datapath (e1_npu.sv small-op engine)                                */
/* ---------------------------------------------------------------------- */

/* ASSUMPTION: the layout of 0x00-0x1c, which the document does not give. */
#define E1_DP_CTRL_STATUS		0x00
#define E1_DP_CTRL_START		E1_BIT(0)	/* write 1 */
#define E1_DP_STATUS_BUSY		E1_BIT(0)	/* read */
#define E1_DP_STATUS_DONE		E1_BIT(1)	/* write 1: clear done, error */
#define E1_DP_STATUS_ERROR		E1_BIT(2)
#define E1_DP_OPCODE			0x04	/* RW, low 4 bits */
#define E1_DP_OPCODE_MASK		E1_GENMASK(3, 0)
#define E1_DP_OP_A			0x08	/* RW */
#define E1_DP_OP_B			0x0C	/* RW */
#define E1_DP_ACC			0x10	/* RW */
#define E1_DP_RESULT			0x14	/* RO */
#define E1_DP_RESULT_HI			0x18	/* RO */
#define E1_DP_ID			0x1C	/* RO */
#define E1_DP_ID_VALUE			0x45314450U	/* "E1DP" */

#define E1_DP_GEMM_CFG			0x20
#define E1_DP_GEMM_CFG_M		E1_GENMASK(1, 0)
#define E1_DP_GEMM_CFG_N		E1_GENMASK(9, 8)
#define E1_DP_GEMM_CFG_K		E1_GENMASK(18, 16)
#define E1_DP_VRELU_LEN			E1_GENMASK(5, 0)	/* ASSUMPTION: 0 encodes 64 */
#define E1_DP_GEMM_BASE			0x24
#define E1_DP_GEMM_BASE_A		E1_GENMASK(5, 0)
#define E1_DP_GEMM_BASE_B		E1_GENMASK(13, 8)
#define E1_DP_GEMM_BASE_C		E1_GENMASK(21, 16)
#define E1_DP_VRELU_SRC			E1_GENMASK(5, 0)
#define E1_DP_VRELU_DST			E1_GENMASK(13, 8)
#define E1_DP_GEMM_STRIDE		0x28
#define E1_DP_GEMM_STRIDE_A		E1_GENMASK(3, 0)
#define E1_DP_GEMM_STRIDE_B		E1_GENMASK(11, 8)
#define E1_DP_GEMM_STRIDE_C		E1_GENMASK(19, 16)
#define E1_DP_PERF_UNSUPPORTED_OPS	0x2C
#define E1_DP_CMD_PARAM			0x30
#define E1_DP_CMD_DESC_MODE		E1_BIT(0)
#define E1_DP_CMD_TERNARY		E1_BIT(1)

#define E1_DP_DESC_BASE			0x40	/* 4-byte aligned */
#define E1_DP_DESC_HEAD			0x44	/* 3 bits */
#define E1_DP_DESC_TAIL			0x48	/* 3 bits */
#define E1_DP_DESC_IDX_MASK		E1_GENMASK(2, 0)
#define E1_DP_DESC_STATUS		0x4C
#define E1_DP_DS_EMPTY			E1_BIT(0)	/* live: head == tail */
#define E1_DP_DS_DONE			E1_BIT(1)
#define E1_DP_DS_ERROR			E1_BIT(2)
#define E1_DP_DS_TIMEOUT		E1_BIT(3)
#define E1_DP_DS_FETCH_ERR		E1_BIT(4)
#define E1_DP_DS_STREAM_ERR		E1_BIT(5)
#define E1_DP_DS_NO_OWNER		E1_BIT(6)
#define E1_DP_DS_BAD_WRITEBACK		E1_BIT(7)
#define E1_DP_DS_BUSY			E1_BIT(8)
#define E1_DP_DS_INDEX			E1_GENMASK(11, 9)

#define E1_DP_PERF_CYCLES		0x50
#define E1_DP_PERF_MACS			0x54	/* signed INT8 MACs only */
#define E1_DP_PERF_OPS			0x58
#define E1_DP_PERF_ERRORS		0x5C	/* write bit 0: clear all perf */
#define E1_DP_PERF_CLEAR		E1_BIT(0)
#define E1_DP_DESC_TIMEOUT_COUNT	0x60
#define E1_DP_DESC_BYTES_READ		0x64
#define E1_DP_DESC_BYTES_WRITTEN	0x68
#define E1_DP_DESC_READ_BEATS		0x6C
#define E1_DP_DESC_WRITE_BEATS		0x70
#define E1_DP_PERF_STALL_CYCLES		0x74
#define E1_DP_PERF_SCRATCH_BYTES	0x78
#define E1_DP_PERF_THERMAL_THROTTLE	0x7C	/* any write increments */
#define E1_DP_SCRATCH(i)		(0x80 + 4 * (i))
#define E1_DP_SCRATCH_WORDS		16
#define E1_DP_SCRATCH_BYTES		64
#define E1_DP_REG_LAST			E1_DP_SCRATCH(15)

/* Datapath opcodes (4 bits). */
#define E1_DP_OP_ADD			0
#define E1_DP_OP_SUB			1
#define E1_DP_OP_MUL_LO			2
#define E1_DP_OP_MAC_S16		3
#define E1_DP_OP_DOT4_S8		4
#define E1_DP_OP_MAX_U32		5
#define E1_DP_OP_MIN_U32		6
#define E1_DP_OP_DOT8_S4		7
#define E1_DP_OP_GEMM_S8		8
#define E1_DP_OP_GEMM_S4		9
#define E1_DP_OP_RELU4_S8		10
#define E1_DP_OP_VRELU_S8		11
#define E1_DP_OP_SDOT4_S4_2_4		12
#define E1_DP_OP_DOT16_S2		13
#define E1_DP_OP_DOT4_FP8_E4M3		14
#define E1_DP_OP_EXP2_NEG_Q0_8		15
#define E1_DP_OP_COUNT			16

/* Datapath GEMM tile bounds. */
#define E1_DP_GEMM_MAX_M		3
#define E1_DP_GEMM_MAX_N		3
#define E1_DP_GEMM_MAX_K		7

/* Datapath descriptor: 4 words, 16 bytes, 8 ring slots. */
#define E1_DP_DESC_SIZE			16
#define E1_DP_DESC_WORDS		4
#define E1_DP_RING_SLOTS		8
#define E1_DP_RING_USABLE		7	/* 3-bit head/tail: no full state */
#define E1_DP_DW0_OPCODE		E1_GENMASK(3, 0)
#define E1_DP_DW0_STREAM		E1_BIT(8)
#define E1_DP_DW0_SCRATCH_OFF		E1_GENMASK(21, 16)
#define E1_DP_DW0_BYTE_COUNT		E1_GENMASK(29, 24)
#define E1_DP_DW0_WRITEBACK		E1_BIT(30)	/* streamed GEMM only */
#define E1_DP_DW0_OWNER			E1_BIT(31)

#endif /* __E1NPU_HW_H__ */
