/* SPDX-License-Identifier: (GPL-2.0-only OR MIT) */
/*
 * e1 NPU submission rules, shared verbatim by e1npu.ko and libe1npu's
 * in-process backend: device limits, per-operation validation, tensor
 * extents, wrapper descriptor encoding and the datapath execution of one
 * operation.
 *
 * Freestanding: builds in the kernel and in userspace (-std=c11). No
 * allocation, no printing, no global state.
 */
#ifndef __E1NPU_OPCHECK_H__
#define __E1NPU_OPCHECK_H__

#ifdef __KERNEL__
#include <linux/errno.h>
#include <linux/overflow.h>
#include <linux/string.h>
#include <linux/types.h>
#include <drm/e1npu_accel.h>
#include <kunit/visibility.h>
#else
/* Userspace: the kernel's type names and helpers, from the model's shim. */
#include <errno.h>
#include "e1_model_shim.h"
#include "e1npu_accel.h"
/*
 * The kernel exports these to its KUnit suite only. A declaration here:
 * the macro is followed by a semicolon at file scope.
 */
#define EXPORT_SYMBOL_IF_KUNIT(sym) extern int e1npu_kunit_export_##sym
#endif
#include "e1npu_hw.h"

/*
 * The operations the shared rules know, decoded from a command of either
 * engine (e1npu_cmd_decode()). Not UAPI: userspace submits hardware
 * commands (include/uapi/drm/e1npu_accel.h); libe1npu builds these and
 * encodes them with e1npu_cmd_encode().
 */

/**
 * enum e1npu_hw_opcode - operations a command can hold
 * @E1NPU_HWOP_NOP: no operation (wrapper)
 * @E1NPU_HWOP_BARRIER: drain earlier operations (wrapper)
 * @E1NPU_HWOP_MATMUL_S8: C[m][n] int32 = A[m][k] int8 x B[k][n] int8
 * @E1NPU_HWOP_CONV2D_S8: NHWC convolution, int32 out; @m, @n input height
 *	and width, @k kernel size, b the [k*k*c_in][c_out] weights
 * @E1NPU_HWOP_RELU_S8: int8 ReLU of @m rows of @n bytes
 * @E1NPU_HWOP_MAXPOOL_S8: NHWC int8 max pool, VALID; @k window
 * @E1NPU_HWOP_FALLBACK: the contract's opcode 0xFF, which the hardware
 *	always hands to the CPU-fallback path (wrapper)
 * @E1NPU_HWOP_DP_SCALAR: @m scalar datapath commands of opcode @k; a holds
 *	@m records {op_a, op_b, acc}, c receives @m records {result, hi}
 * @E1NPU_HWOP_DP_GEMM_S8: datapath GEMM tile, @m <= 3, @n <= 3, @k <= 7
 * @E1NPU_HWOP_DP_GEMM_S4: as DP_GEMM_S8 with packed int4 a and b
 * @E1NPU_HWOP_DP_VRELU_S8: int8 ReLU of @n <= 64 bytes from a to c
 */
enum e1npu_hw_opcode {
	E1NPU_HWOP_NOP = 0,
	E1NPU_HWOP_BARRIER = 1,
	E1NPU_HWOP_MATMUL_S8 = 2,
	E1NPU_HWOP_CONV2D_S8 = 3,
	E1NPU_HWOP_RELU_S8 = 4,
	E1NPU_HWOP_MAXPOOL_S8 = 5,
	E1NPU_HWOP_FALLBACK = 6,
	E1NPU_HWOP_DP_SCALAR = 0x100,
	E1NPU_HWOP_DP_GEMM_S8 = 0x101,
	E1NPU_HWOP_DP_GEMM_S4 = 0x102,
	E1NPU_HWOP_DP_VRELU_S8 = 0x103,
};

/* Fuse a ReLU into MATMUL_S8 or CONV2D_S8. */
#define E1NPU_HWOP_FLAG_RELU		E1_BIT(0)
/* DP_SCALAR DOT16_S2: ternary lanes instead of two's-complement INT2. */
#define E1NPU_HWOP_FLAG_TERNARY		E1_BIT(1)
#define E1NPU_HWOP_FLAGS_ALL		(E1NPU_HWOP_FLAG_RELU | \
					 E1NPU_HWOP_FLAG_TERNARY)

/**
 * struct e1npu_hw_tensor - where an operation's tensor lives
 * @handle: buffer handle (0: none)
 * @stride: bytes between consecutive rows
 * @offset: byte offset of row 0 in the buffer
 */
struct e1npu_hw_tensor {
	u32 handle;
	u32 stride;
	u64 offset;
};

/**
 * struct e1npu_hw_op - one decoded command
 * @opcode: enum e1npu_hw_opcode
 * @flags: E1NPU_HWOP_FLAG_*
 * @m: matmul M, rows, conv/pool input height, scalar count
 * @n: matmul N, row bytes, conv/pool input width
 * @k: matmul K, kernel size, pool window, datapath scalar opcode
 * @c_in: conv input channels, pool channels
 * @c_out: conv output channels
 * @out_h: conv output height
 * @out_w: conv output width
 * @stride_h: conv vertical stride, pool stride
 * @stride_w: conv horizontal stride
 * @pad_top: conv top padding
 * @pad_left: conv left padding
 * @dilation: conv dilation, >= 1
 * @a: input
 * @b: weights
 * @c: output
 */
struct e1npu_hw_op {
	u32 opcode;
	u32 flags;
	u32 m;
	u32 n;
	u32 k;
	u32 c_in;
	u32 c_out;
	u32 out_h;
	u32 out_w;
	u32 stride_h;
	u32 stride_w;
	u32 pad_top;
	u32 pad_left;
	u32 dilation;
	struct e1npu_hw_tensor a;
	struct e1npu_hw_tensor b;
	struct e1npu_hw_tensor c;
};

/* Largest command of either engine, bytes. */
#define E1NPU_CMD_MAX_SIZE		E1_V0_DESC_SIZE

/* Driver (UAPI) version DRM_IOCTL_VERSION reports. */
#define E1NPU_DRIVER_MAJOR		1
#define E1NPU_DRIVER_MINOR		0

/* Most operations one job may hold (also bounded by the ring, see below). */
#define E1NPU_MAX_OPS_PER_JOB		255
/* Most scalar commands one DP_SCALAR operation may hold. */
#define E1NPU_DP_MAX_SCALARS		4096
/* Bytes of one DP_SCALAR input record {op_a, op_b, acc} and output record. */
#define E1NPU_DP_SCALAR_IN_BYTES	12
#define E1NPU_DP_SCALAR_OUT_BYTES	8
/* Alignment of datapath record and int32 tensors in their buffers. */
#define E1NPU_DP_ALIGN			4
/* Largest datapath VRELU length. */
#define E1NPU_DP_VRELU_MAX		E1_DP_SCRATCH_BYTES

/* Tensor slots of an operation. */
#define E1NPU_T_A			0
#define E1NPU_T_B			1
#define E1NPU_T_C			2
#define E1NPU_T_COUNT			3

/**
 * struct e1npu_limits - what a device instance accepts
 * @engines: BIT(enum drm_e1npu_engine) of the engines present
 * @wrapper_id: wrapper ID register, 0 when absent
 * @wrapper_caps: wrapper CAPS register, 0 when absent
 * @datapath_id: datapath ID register, 0 when absent
 * @gemmini: CAPS.gemmini_present (informational: without it the hardware
 *	sends every Gemmini op down the CPU-fallback path)
 * @ring_len: wrapper descriptor ring length the driver uses
 * @datapath_slots: usable datapath descriptor slots
 * @arena_size: tensor arena bytes
 * @max_ops_per_job: most operations per job
 * @align: wrapper tensor offset and stride alignment, bytes
 * @max_matmul_mn: matmul M, N bound
 * @max_matmul_k: matmul K bound
 * @max_conv_hw: conv/pool H, W bound (input and output)
 * @max_conv_c: conv/pool channel bound
 * @conv_kernels: BIT(k) for each valid conv kernel size
 * @conv_strides: BIT(s) for each valid conv stride
 * @max_conv_dilation: largest conv dilation
 * @max_conv_pad: largest conv top/left pad (4-bit descriptor field)
 * @pool_windows: BIT(w) for each valid pool window
 * @pool_strides: BIT(s) for each valid pool stride
 * @max_relu_mn: RELU rows and row length bound
 */
struct e1npu_limits {
	u32 engines;
	u32 wrapper_id;
	u32 wrapper_caps;
	u32 datapath_id;
	bool gemmini;
	u32 ring_len;
	u32 datapath_slots;
	u64 arena_size;
	u32 max_ops_per_job;
	u32 align;
	u32 max_matmul_mn;
	u32 max_matmul_k;
	u32 max_conv_hw;
	u32 max_conv_c;
	u32 conv_kernels;
	u32 conv_strides;
	u32 max_conv_dilation;
	u32 max_conv_pad;
	u32 pool_windows;
	u32 pool_strides;
	u32 max_relu_mn;
};

/**
 * struct e1npu_op_err - why an operation was rejected
 * @field: static name of the offending field ("a.stride", "m", ...)
 * @value: its value
 * @reason: static, human-readable reason
 */
struct e1npu_op_err {
	const char *field;
	u64 value;
	const char *reason;
};

/**
 * struct e1npu_extent - bytes of a buffer a tensor touches
 * @used: the operation uses this tensor
 * @write: the operation writes it
 * @start: first byte, offset in the buffer
 * @end: one past the last byte
 */
struct e1npu_extent {
	bool used;
	bool write;
	u64 start;
	u64 end;
};

/*
 * Look up @handle in the submitter's file: 0 and the buffer size in @size,
 * -ENOENT for an unknown handle, -EINVAL for a buffer the NPU cannot
 * address.
 */
typedef int (*e1npu_lookup_fn)(void *ctx, u32 handle, u64 *size);

void e1npu_limits_init(struct e1npu_limits *lim, bool wrapper_present,
		       u32 wrapper_id, u32 wrapper_caps, bool datapath_present,
		       u32 datapath_id, u32 ring_len, u64 arena_size);
void e1npu_limits_to_dev_info(const struct e1npu_limits *lim,
			      struct drm_e1npu_dev_info *info);

int e1npu_op_engine(u32 opcode);
int e1npu_op_extents(const struct e1npu_hw_op *op,
		     struct e1npu_extent ext[E1NPU_T_COUNT],
		     struct e1npu_op_err *err);
int e1npu_op_check(const struct e1npu_hw_op *op, u32 engine,
		   const struct e1npu_limits *lim, e1npu_lookup_fn lookup,
		   void *ctx, struct e1npu_op_err *err);

int e1npu_cmd_size(u32 engine);
u32 e1npu_op_tensors(u32 opcode);
int e1npu_cmd_decode(u32 engine, const void *cmd, struct e1npu_hw_op *op,
		     struct e1npu_op_err *err);
int e1npu_cmd_reloc(struct e1npu_hw_op *ops, u32 *seen,
		    const struct drm_e1npu_reloc *r, u32 cmd_count,
		    struct e1npu_op_err *err);
int e1npu_cmd_encode(u32 engine, const struct e1npu_hw_op *op, void *cmd,
		     struct drm_e1npu_reloc *relocs, u32 index, u32 *nrelocs);
void e1npu_dp_cmd_encode(const struct e1npu_hw_op *op,
			 struct drm_e1npu_dp_cmd *c);
const struct e1npu_hw_tensor *
e1npu_op_tensor(const struct e1npu_hw_op *op, unsigned int t);

int e1npu_op_encode(const struct e1npu_hw_op *op, const u64 dev_addr[E1NPU_T_COUNT],
		    u32 tag, u32 desc[E1_V0_DESC_WORDS]);
void e1npu_desc_set_irq(u32 desc[E1_V0_DESC_WORDS]);
void e1npu_desc_make_nop(u32 desc[E1_V0_DESC_WORDS], bool irq_on_complete);

/**
 * struct e1npu_dp_io - register access to the datapath window
 * @read: read the 32-bit register at offset @off
 * @write: write @v to the register at offset @off
 * @wait: optional: wait for a started command to be done or fail, with a
 *	time bound (the kernel: readl_relaxed_poll_timeout()); CTRL_STATUS in
 *	*@status; 0 or -ETIMEDOUT. Without it CTRL_STATUS is polled
 *	E1NPU_DP_POLL_MAX times.
 * @yield: optional: called every E1NPU_DP_YIELD_RECORDS DP_SCALAR records
 *	(the kernel reschedules there)
 * @ctx: passed back to all of them
 */
struct e1npu_dp_io {
	u32 (*read)(void *ctx, u32 off);
	void (*write)(void *ctx, u32 off, u32 v);
	void *ctx;
	int (*wait)(void *ctx, u32 *status);
	void (*yield)(void *ctx);
};

/* DP_SCALAR records between two calls of &e1npu_dp_io.yield. */
#define E1NPU_DP_YIELD_RECORDS		256

/* Polls of CTRL_STATUS before a datapath command counts as hung. */
#define E1NPU_DP_POLL_MAX		100000

int e1npu_dp_exec(const struct e1npu_dp_io *io, const struct e1npu_hw_op *op,
		  const u8 *a, const u8 *b, u8 *c, u32 *hw_status);

#endif /* __E1NPU_OPCHECK_H__ */
