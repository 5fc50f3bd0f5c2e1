// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite of the shared submission rules (e1npu_opcheck.c): device limits,
 * opcode to engine, the envelope, unused fields, flags, alignment, handle
 * lookup, tensor extents with their overflow checks and the end of the
 * buffer, descriptor helpers, the datapath runner against a fake
 * register file, and the UAPI's commands: encode/decode round trips, every
 * kernel-owned word and reserved bit refused, relocation rules. Expected
 * values are written out from the UAPI and the hardware contract, not
 * computed by the code under test.
 */
#include <kunit/test.h>
#include <linux/limits.h>
#include <linux/module.h>

#include "e1npu_opcheck.h"

#define BUF_SIZE	4096
#define H_A		1
#define H_B		2
#define H_C		3

/* The file of the test: handles 1..3 are 4 KiB buffers. */
static int kt_lookup(void *ctx, u32 handle, u64 *size)
{
	if (handle < H_A || handle > H_C)
		return -ENOENT;
	*size = ctx ? *(u64 *)ctx : BUF_SIZE;
	return 0;
}

static void kt_limits(struct e1npu_limits *lim)
{
	e1npu_limits_init(lim, true, E1_V0_ID_VALUE, E1_V0_CAPS_GEMMINI, true,
			  E1_DP_ID_VALUE, 256, 1 << 20);
}

/*
 * MATMUL_S8 3x4x5: a [3][5] stride 16 at 32, b [5][4] stride 16, c int32
 * [3][4] stride 16 at 64.
 */
static void kt_matmul(struct e1npu_hw_op *op)
{
	memset(op, 0, sizeof(*op));
	op->opcode = E1NPU_HWOP_MATMUL_S8;
	op->m = 3;
	op->n = 4;
	op->k = 5;
	op->a = (struct e1npu_hw_tensor){ H_A, 16, 32 };
	op->b = (struct e1npu_hw_tensor){ H_B, 16, 0 };
	op->c = (struct e1npu_hw_tensor){ H_C, 16, 64 };
}

static int kt_check(const struct e1npu_hw_op *op, u32 engine)
{
	struct e1npu_limits lim;
	struct e1npu_op_err err;

	kt_limits(&lim);
	return e1npu_op_check(op, engine, &lim, kt_lookup, NULL, &err);
}

static void e1npu_kt_limits(struct kunit *test)
{
	struct e1npu_limits lim;

	kt_limits(&lim);
	KUNIT_EXPECT_EQ(test, lim.engines, 3u);
	KUNIT_EXPECT_EQ(test, lim.max_ops_per_job, 255u);
	KUNIT_EXPECT_TRUE(test, lim.gemmini);
	/* a job fits in the ring's usable slots: one stays empty */
	e1npu_limits_init(&lim, true, 0, 0, false, 0, 16, 1 << 20);
	KUNIT_EXPECT_EQ(test, lim.max_ops_per_job, 15u);
	KUNIT_EXPECT_EQ(test, lim.engines, 1u);
	KUNIT_EXPECT_FALSE(test, lim.gemmini);
	e1npu_limits_init(&lim, false, 0, 0, true, 0, 0, 1 << 20);
	KUNIT_EXPECT_EQ(test, lim.engines, 2u);
	KUNIT_EXPECT_EQ(test, lim.max_ops_per_job, 255u);
	KUNIT_EXPECT_EQ(test, lim.ring_len, 0u);
}

static void e1npu_kt_op_engine(struct kunit *test)
{
	static const u32 wrapper_ops[] = {
		E1NPU_HWOP_NOP, E1NPU_HWOP_BARRIER, E1NPU_HWOP_MATMUL_S8,
		E1NPU_HWOP_CONV2D_S8, E1NPU_HWOP_RELU_S8,
		E1NPU_HWOP_MAXPOOL_S8, E1NPU_HWOP_FALLBACK,
	};
	static const u32 dp_ops[] = {
		E1NPU_HWOP_DP_SCALAR, E1NPU_HWOP_DP_GEMM_S8,
		E1NPU_HWOP_DP_GEMM_S4, E1NPU_HWOP_DP_VRELU_S8,
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(wrapper_ops); i++)
		KUNIT_EXPECT_EQ(test, e1npu_op_engine(wrapper_ops[i]),
				DRM_E1NPU_ENGINE_WRAPPER);
	for (i = 0; i < ARRAY_SIZE(dp_ops); i++)
		KUNIT_EXPECT_EQ(test, e1npu_op_engine(dp_ops[i]),
				DRM_E1NPU_ENGINE_DATAPATH);
	KUNIT_EXPECT_EQ(test, e1npu_op_engine(7), -EINVAL);
	KUNIT_EXPECT_EQ(test, e1npu_op_engine(0x104), -EINVAL);
	KUNIT_EXPECT_EQ(test, e1npu_op_engine(U32_MAX), -EINVAL);
}

static void e1npu_kt_valid(struct kunit *test)
{
	struct e1npu_hw_op op;

	kt_matmul(&op);
	KUNIT_EXPECT_EQ(test, kt_check(&op, DRM_E1NPU_ENGINE_WRAPPER), 0);
	op.flags = E1NPU_HWOP_FLAG_RELU;
	KUNIT_EXPECT_EQ(test, kt_check(&op, DRM_E1NPU_ENGINE_WRAPPER), 0);
	memset(&op, 0, sizeof(op));
	KUNIT_EXPECT_EQ(test, kt_check(&op, DRM_E1NPU_ENGINE_WRAPPER), 0);
}

static void e1npu_kt_engine(struct kunit *test)
{
	struct e1npu_limits lim;
	struct e1npu_hw_op op;

	kt_matmul(&op);
	/* a wrapper op in a datapath job */
	KUNIT_EXPECT_EQ(test, kt_check(&op, DRM_E1NPU_ENGINE_DATAPATH), -EINVAL);
	/* the engine is absent */
	e1npu_limits_init(&lim, false, 0, 0, true, 0, 0, 1 << 20);
	KUNIT_EXPECT_EQ(test, e1npu_op_check(&op, DRM_E1NPU_ENGINE_WRAPPER, &lim,
					     kt_lookup, NULL, NULL), -ENODEV);
}

static void e1npu_kt_fields_flags(struct kunit *test)
{
	struct e1npu_hw_op op;

	kt_matmul(&op);
	op.c_in = 1;		/* not a matmul field */
	KUNIT_EXPECT_EQ(test, kt_check(&op, DRM_E1NPU_ENGINE_WRAPPER), -EINVAL);
	kt_matmul(&op);
	op.flags = 1u << 7;	/* unknown flag */
	KUNIT_EXPECT_EQ(test, kt_check(&op, DRM_E1NPU_ENGINE_WRAPPER), -EINVAL);
	kt_matmul(&op);
	op.flags = E1NPU_HWOP_FLAG_TERNARY;	/* known, not for matmul */
	KUNIT_EXPECT_EQ(test, kt_check(&op, DRM_E1NPU_ENGINE_WRAPPER), -EINVAL);
	/* RELU takes no b: its handle, offset and stride must be zero */
	memset(&op, 0, sizeof(op));
	op.opcode = E1NPU_HWOP_RELU_S8;
	op.m = 2;
	op.n = 16;
	op.a = (struct e1npu_hw_tensor){ H_A, 16, 0 };
	op.c = (struct e1npu_hw_tensor){ H_C, 16, 0 };
	KUNIT_EXPECT_EQ(test, kt_check(&op, DRM_E1NPU_ENGINE_WRAPPER), 0);
	op.b.handle = H_B;
	KUNIT_EXPECT_EQ(test, kt_check(&op, DRM_E1NPU_ENGINE_WRAPPER), -EINVAL);
	op.b.handle = 0;
	op.b.offset = 16;
	KUNIT_EXPECT_EQ(test, kt_check(&op, DRM_E1NPU_ENGINE_WRAPPER), -EINVAL);
	/* DP_VRELU packs its bytes: a stride is an error */
	memset(&op, 0, sizeof(op));
	op.opcode = E1NPU_HWOP_DP_VRELU_S8;
	op.n = 64;
	op.a = (struct e1npu_hw_tensor){ H_A, 0, 3 };
	op.c = (struct e1npu_hw_tensor){ H_C, 0, 8 };
	KUNIT_EXPECT_EQ(test, kt_check(&op, DRM_E1NPU_ENGINE_DATAPATH), 0);
	op.a.stride = 64;
	KUNIT_EXPECT_EQ(test, kt_check(&op, DRM_E1NPU_ENGINE_DATAPATH), -EINVAL);
}

static void e1npu_kt_envelope(struct kunit *test)
{
	struct e1npu_limits lim;
	struct e1npu_hw_op op;

	kt_limits(&lim);
	kt_matmul(&op);
	op.m = 0;
	KUNIT_EXPECT_LT(test, kt_check(&op, DRM_E1NPU_ENGINE_WRAPPER), 0);
	kt_matmul(&op);
	op.m = lim.max_matmul_mn + 1;
	KUNIT_EXPECT_EQ(test, kt_check(&op, DRM_E1NPU_ENGINE_WRAPPER), -ERANGE);
	kt_matmul(&op);
	op.k = lim.max_matmul_k + 1;
	KUNIT_EXPECT_EQ(test, kt_check(&op, DRM_E1NPU_ENGINE_WRAPPER), -ERANGE);
	/* maxpool: window 4 is not in pool_windows (2, 3) */
	memset(&op, 0, sizeof(op));
	op.opcode = E1NPU_HWOP_MAXPOOL_S8;
	op.m = 8;
	op.n = 8;
	op.c_in = 2;
	op.k = 4;
	op.stride_h = 2;
	op.a = (struct e1npu_hw_tensor){ H_A, 16, 0 };
	op.c = (struct e1npu_hw_tensor){ H_C, 16, 0 };
	KUNIT_EXPECT_EQ(test, kt_check(&op, DRM_E1NPU_ENGINE_WRAPPER), -ERANGE);
	op.k = 2;
	KUNIT_EXPECT_EQ(test, kt_check(&op, DRM_E1NPU_ENGINE_WRAPPER), 0);
	/* datapath GEMM tile: m <= 3, n <= 3, k <= 7 */
	memset(&op, 0, sizeof(op));
	op.opcode = E1NPU_HWOP_DP_GEMM_S8;
	op.m = 3;
	op.n = 3;
	op.k = 7;
	op.a = (struct e1npu_hw_tensor){ H_A, 8, 0 };
	op.b = (struct e1npu_hw_tensor){ H_B, 4, 0 };
	op.c = (struct e1npu_hw_tensor){ H_C, 16, 0 };
	KUNIT_EXPECT_EQ(test, kt_check(&op, DRM_E1NPU_ENGINE_DATAPATH), 0);
	op.k = 8;
	KUNIT_EXPECT_EQ(test, kt_check(&op, DRM_E1NPU_ENGINE_DATAPATH), -ERANGE);
}

static void e1npu_kt_align_stride(struct kunit *test)
{
	struct e1npu_limits lim;
	struct e1npu_hw_op op;

	kt_limits(&lim);
	kt_matmul(&op);
	op.a.offset = 32 + 1;
	KUNIT_EXPECT_EQ(test, kt_check(&op, DRM_E1NPU_ENGINE_WRAPPER), -EINVAL);
	kt_matmul(&op);
	op.c.stride = 16 + lim.align / 2;
	KUNIT_EXPECT_EQ(test, kt_check(&op, DRM_E1NPU_ENGINE_WRAPPER), -EINVAL);
	/* c rows are 4 * n = 16 bytes: a shorter stride overlaps rows */
	kt_matmul(&op);
	op.n = 5;
	op.b.stride = 16;
	KUNIT_EXPECT_EQ(test, kt_check(&op, DRM_E1NPU_ENGINE_WRAPPER), -EINVAL);
}

static void e1npu_kt_handles(struct kunit *test)
{
	struct e1npu_hw_op op;

	kt_matmul(&op);
	op.b.handle = 0;	/* used tensor without a buffer */
	KUNIT_EXPECT_EQ(test, kt_check(&op, DRM_E1NPU_ENGINE_WRAPPER), -ENOENT);
	kt_matmul(&op);
	op.c.handle = 4;	/* not the file's */
	KUNIT_EXPECT_EQ(test, kt_check(&op, DRM_E1NPU_ENGINE_WRAPPER), -ENOENT);
}

static void e1npu_kt_extents(struct kunit *test)
{
	struct e1npu_extent ext[E1NPU_T_COUNT];
	struct e1npu_hw_op op;

	kt_matmul(&op);
	KUNIT_ASSERT_EQ(test, e1npu_op_extents(&op, ext, NULL), 0);
	/* a: rows 0..2 of 5 bytes, stride 16, from 32: [32, 32 + 2*16 + 5) */
	KUNIT_EXPECT_TRUE(test, ext[E1NPU_T_A].used);
	KUNIT_EXPECT_FALSE(test, ext[E1NPU_T_A].write);
	KUNIT_EXPECT_EQ(test, ext[E1NPU_T_A].start, 32ull);
	KUNIT_EXPECT_EQ(test, ext[E1NPU_T_A].end, 69ull);
	/* b: 5 rows of 4 bytes: [0, 4*16 + 4) */
	KUNIT_EXPECT_EQ(test, ext[E1NPU_T_B].end, 68ull);
	/* c: 3 rows of 16 bytes from 64: [64, 64 + 2*16 + 16) */
	KUNIT_EXPECT_TRUE(test, ext[E1NPU_T_C].write);
	KUNIT_EXPECT_EQ(test, ext[E1NPU_T_C].start, 64ull);
	KUNIT_EXPECT_EQ(test, ext[E1NPU_T_C].end, 112ull);
	/* DP_GEMM_S4 counts int4: 3 rows of 5 nibbles, stride 8 nibbles */
	memset(&op, 0, sizeof(op));
	op.opcode = E1NPU_HWOP_DP_GEMM_S4;
	op.m = 3;
	op.n = 1;
	op.k = 5;
	op.a = (struct e1npu_hw_tensor){ H_A, 8, 0 };
	op.b = (struct e1npu_hw_tensor){ H_B, 2, 0 };
	op.c = (struct e1npu_hw_tensor){ H_C, 4, 0 };
	KUNIT_ASSERT_EQ(test, e1npu_op_extents(&op, ext, NULL), 0);
	/* (2 * 8 + 5) nibbles = 21 -> 11 bytes */
	KUNIT_EXPECT_EQ(test, ext[E1NPU_T_A].end, 11ull);
}

static void e1npu_kt_overflow(struct kunit *test)
{
	struct e1npu_extent ext[E1NPU_T_COUNT];
	struct e1npu_limits lim;
	struct e1npu_hw_op op;
	u64 huge = U64_MAX;

	/* offset + span wraps 64 bits */
	kt_matmul(&op);
	op.a.offset = U64_MAX - 15;
	KUNIT_EXPECT_EQ(test, e1npu_op_extents(&op, ext, NULL), -EOVERFLOW);
	/* with buffers as large as can be, the wrap is still caught */
	kt_limits(&lim);
	KUNIT_EXPECT_EQ(test, e1npu_op_check(&op, DRM_E1NPU_ENGINE_WRAPPER, &lim,
					     kt_lookup, &huge, NULL), -EOVERFLOW);
	/* DP_SCALAR: m records of 12 bytes at an offset near the top */
	memset(&op, 0, sizeof(op));
	op.opcode = E1NPU_HWOP_DP_SCALAR;
	op.m = E1NPU_DP_MAX_SCALARS;
	op.k = E1_DP_OP_ADD;
	op.a = (struct e1npu_hw_tensor){ H_A, 0, U64_MAX - 4 * 12 + 1 };
	op.c = (struct e1npu_hw_tensor){ H_C, 0, 0 };
	KUNIT_EXPECT_EQ(test, e1npu_op_extents(&op, ext, NULL), -EOVERFLOW);
}

static void e1npu_kt_buffer_end(struct kunit *test)
{
	struct e1npu_hw_op op;

	/* c ends exactly at the end of its 4 KiB buffer: accepted */
	kt_matmul(&op);
	op.c.offset = BUF_SIZE - 2 * 16 - 16;
	KUNIT_EXPECT_EQ(test, kt_check(&op, DRM_E1NPU_ENGINE_WRAPPER), 0);
	/* one stride unit further: past the end */
	op.c.offset += 16;
	KUNIT_EXPECT_EQ(test, kt_check(&op, DRM_E1NPU_ENGINE_WRAPPER), -EOVERFLOW);
	/* huge stride: the last row starts far outside */
	kt_matmul(&op);
	op.a.stride = 0xfffffff0;
	KUNIT_EXPECT_EQ(test, kt_check(&op, DRM_E1NPU_ENGINE_WRAPPER), -EOVERFLOW);
}

static void e1npu_kt_desc(struct kunit *test)
{
	u64 addr[E1NPU_T_COUNT] = { 0x1000, 0x2000, 0x3000 };
	u32 desc[E1_V0_DESC_WORDS];
	struct e1npu_hw_op op;

	kt_matmul(&op);
	KUNIT_ASSERT_EQ(test, e1npu_op_encode(&op, addr, 0x55, desc), 0);
	KUNIT_EXPECT_NE(test, E1_FIELD_GET(E1_V0_DESC_OP, desc[0]), (u32)E1_V0_OP_NOP);
	KUNIT_EXPECT_EQ(test, desc[E1_V0_DW_TAG], 0x55u);
	KUNIT_EXPECT_EQ(test, desc[E1_V0_DW_SHAPE_M], 3u);
	KUNIT_EXPECT_EQ(test, desc[E1_V0_DW_SHAPE_N], 4u);
	KUNIT_EXPECT_EQ(test, desc[E1_V0_DW_SHAPE_K], 5u);
	KUNIT_EXPECT_FALSE(test, desc[0] & E1_V0_FLAG_IRQ_ON_COMPLETE);
	e1npu_desc_set_irq(desc);
	KUNIT_EXPECT_TRUE(test, desc[0] & E1_V0_FLAG_IRQ_ON_COMPLETE);
	/* a NOP keeps the tag and, when asked, the completion interrupt */
	e1npu_desc_make_nop(desc, true);
	KUNIT_EXPECT_EQ(test, E1_FIELD_GET(E1_V0_DESC_OP, desc[0]), (u32)E1_V0_OP_NOP);
	KUNIT_EXPECT_TRUE(test, desc[0] & E1_V0_FLAG_IRQ_ON_COMPLETE);
	e1npu_desc_make_nop(desc, false);
	KUNIT_EXPECT_FALSE(test, desc[0] & E1_V0_FLAG_IRQ_ON_COMPLETE);
}

/* A datapath register file that never finishes, or fails at once. */
struct kt_dp {
	u32 status;
	unsigned int reads;
};

static u32 kt_dp_read(void *ctx, u32 off)
{
	struct kt_dp *d = ctx;

	d->reads++;
	return off == E1_DP_CTRL_STATUS ? d->status : 0;
}

static void kt_dp_write(void *ctx, u32 off, u32 v)
{
}

static void e1npu_kt_dp_exec(struct kunit *test)
{
	struct kt_dp d = { .status = 0 };
	const struct e1npu_dp_io io = { kt_dp_read, kt_dp_write, &d };
	u8 a[64] = { 0 }, c[64] = { 0 };
	struct e1npu_hw_op op;
	u32 st = 0;

	memset(&op, 0, sizeof(op));
	op.opcode = E1NPU_HWOP_DP_VRELU_S8;
	op.n = 16;
	/* never done: bounded polling, then -ETIMEDOUT */
	KUNIT_EXPECT_EQ(test, e1npu_dp_exec(&io, &op, a, NULL, c, &st), -ETIMEDOUT);
	KUNIT_EXPECT_LE(test, d.reads, 4u * E1NPU_DP_POLL_MAX);
	/* an error: -EIO, the status reported */
	d.status = E1_DP_STATUS_DONE | E1_DP_STATUS_ERROR;
	KUNIT_EXPECT_EQ(test, e1npu_dp_exec(&io, &op, a, NULL, c, &st), -EIO);
	KUNIT_EXPECT_TRUE(test, st & E1_DP_STATUS_ERROR);
}

/* ---- UAPI commands: e1npu_cmd_encode/decode/reloc ------------------------ */

/* decode @cmd of @engine and apply @n relocations; 0 or the first error */
static int kt_decode(u32 engine, const void *cmd,
		     const struct drm_e1npu_reloc *rel, u32 n,
		     struct e1npu_hw_op *op)
{
	struct e1npu_op_err err;
	u32 seen = 0, i;
	int ret;

	ret = e1npu_cmd_decode(engine, cmd, op, &err);
	for (i = 0; !ret && i < n; i++)
		ret = e1npu_cmd_reloc(op, &seen, &rel[i], 1, &err);
	return ret;
}

static void e1npu_kt_cmd_wrapper_roundtrip(struct kunit *test)
{
	struct drm_e1npu_reloc rel[E1NPU_T_COUNT];
	u32 desc[E1_V0_DESC_WORDS];
	struct e1npu_hw_op op, dec;
	u32 n = 0;

	KUNIT_EXPECT_EQ(test, e1npu_cmd_size(DRM_E1NPU_ENGINE_WRAPPER), 64);
	KUNIT_EXPECT_EQ(test, e1npu_cmd_size(DRM_E1NPU_ENGINE_DATAPATH), 32);
	KUNIT_EXPECT_EQ(test, e1npu_cmd_size(2), -EINVAL);
	kt_matmul(&op);
	op.flags = E1NPU_HWOP_FLAG_RELU;
	memset(desc, 0xa5, sizeof(desc));
	KUNIT_ASSERT_EQ(test, e1npu_cmd_encode(DRM_E1NPU_ENGINE_WRAPPER, &op,
					       desc, rel, 2, &n), 0);
	/*
	 * The contract's words: opcode 0x11 (ReLU fused), signed input,
	 * M N K, strides; addresses and tag zero, no irq_on_complete.
	 */
	KUNIT_EXPECT_EQ(test, desc[0], 0x11u | (1u << 17));
	KUNIT_EXPECT_EQ(test, desc[1], 3u);
	KUNIT_EXPECT_EQ(test, desc[2], 4u);
	KUNIT_EXPECT_EQ(test, desc[3], 5u);
	KUNIT_EXPECT_EQ(test, desc[4] | desc[5] | desc[6] | desc[7] |
			desc[8] | desc[9], 0u);
	KUNIT_EXPECT_EQ(test, desc[10], 16u);
	KUNIT_EXPECT_EQ(test, desc[11], 16u);
	KUNIT_EXPECT_EQ(test, desc[12], 16u);
	KUNIT_EXPECT_EQ(test, desc[13] | desc[14] | desc[15], 0u);
	/* one relocation per tensor, for command 2 */
	KUNIT_ASSERT_EQ(test, n, 3u);
	KUNIT_EXPECT_EQ(test, rel[0].cmd, 2u);
	KUNIT_EXPECT_EQ(test, rel[0].field, (u32)DRM_E1NPU_RELOC_A);
	KUNIT_EXPECT_EQ(test, rel[0].handle, (u32)H_A);
	KUNIT_EXPECT_EQ(test, rel[0].offset, 32ull);
	KUNIT_EXPECT_EQ(test, rel[1].field, (u32)DRM_E1NPU_RELOC_B);
	KUNIT_EXPECT_EQ(test, rel[1].handle, (u32)H_B);
	KUNIT_EXPECT_EQ(test, rel[2].field, (u32)DRM_E1NPU_RELOC_C);
	KUNIT_EXPECT_EQ(test, rel[2].offset, 64ull);
	KUNIT_EXPECT_EQ(test, rel[0].pad | rel[1].pad | rel[2].pad, 0u);
	/* decoded, the tensors have no buffer until relocated */
	KUNIT_ASSERT_EQ(test, kt_decode(DRM_E1NPU_ENGINE_WRAPPER, desc, rel, 0,
					&dec), 0);
	KUNIT_EXPECT_EQ(test, dec.a.handle | dec.b.handle | dec.c.handle, 0u);
	/* with the relocations (their cmd set to 0, a one-command job) */
	rel[0].cmd = 0;
	rel[1].cmd = 0;
	rel[2].cmd = 0;
	KUNIT_ASSERT_EQ(test, kt_decode(DRM_E1NPU_ENGINE_WRAPPER, desc, rel, 3,
					&dec), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&dec, &op, sizeof(op)), 0);
	KUNIT_EXPECT_EQ(test, kt_check(&dec, DRM_E1NPU_ENGINE_WRAPPER), 0);

	/* a NOP is one word; the 0xFF FALLBACK descriptor one word too */
	memset(&op, 0, sizeof(op));
	op.opcode = E1NPU_HWOP_FALLBACK;
	KUNIT_ASSERT_EQ(test, e1npu_cmd_encode(DRM_E1NPU_ENGINE_WRAPPER, &op,
					       desc, rel, 0, &n), 0);
	KUNIT_EXPECT_EQ(test, n, 0u);
	KUNIT_EXPECT_EQ(test, desc[0], 0xffu);
	KUNIT_ASSERT_EQ(test, kt_decode(DRM_E1NPU_ENGINE_WRAPPER, desc, NULL, 0,
					&dec), 0);
	KUNIT_EXPECT_EQ(test, dec.opcode, (u32)E1NPU_HWOP_FALLBACK);
	/* an op of the other engine is not encoded */
	KUNIT_EXPECT_EQ(test, e1npu_cmd_encode(DRM_E1NPU_ENGINE_DATAPATH, &op,
					       desc, rel, 0, &n), -EINVAL);
}

static void e1npu_kt_cmd_dp_roundtrip(struct kunit *test)
{
	struct drm_e1npu_reloc rel[E1NPU_T_COUNT];
	struct drm_e1npu_dp_cmd c;
	struct e1npu_hw_op op, dec;
	u32 n = 0;

	memset(&op, 0, sizeof(op));
	op.opcode = E1NPU_HWOP_DP_GEMM_S8;
	op.m = 3;
	op.n = 2;
	op.k = 7;
	op.a = (struct e1npu_hw_tensor){ H_A, 8, 4 };
	op.b = (struct e1npu_hw_tensor){ H_B, 4, 0 };
	op.c = (struct e1npu_hw_tensor){ H_C, 16, 8 };
	KUNIT_ASSERT_EQ(test, e1npu_cmd_encode(DRM_E1NPU_ENGINE_DATAPATH, &op,
					       &c, rel, 0, &n), 0);
	/* GEMM_CFG: M bits 1:0, N 9:8, K 18:16 */
	KUNIT_EXPECT_EQ(test, c.opcode, (u32)E1_DP_OP_GEMM_S8);
	KUNIT_EXPECT_EQ(test, c.cfg, 3u | (2u << 8) | (7u << 16));
	KUNIT_EXPECT_EQ(test, c.count, 1u);
	KUNIT_EXPECT_EQ(test, c.param | c.pad, 0u);
	KUNIT_EXPECT_EQ(test, c.stride[0], 8u);
	KUNIT_EXPECT_EQ(test, c.stride[2], 16u);
	KUNIT_ASSERT_EQ(test, n, 3u);
	KUNIT_ASSERT_EQ(test, kt_decode(DRM_E1NPU_ENGINE_DATAPATH, &c, rel, 3,
					&dec), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&dec, &op, sizeof(op)), 0);

	/* a scalar DOT16_S2, ternary: count and param carry m and the flag */
	memset(&op, 0, sizeof(op));
	op.opcode = E1NPU_HWOP_DP_SCALAR;
	op.flags = E1NPU_HWOP_FLAG_TERNARY;
	op.m = 9;
	op.k = E1_DP_OP_DOT16_S2;
	op.a = (struct e1npu_hw_tensor){ H_A, 0, 0 };
	op.c = (struct e1npu_hw_tensor){ H_C, 0, 4 };
	KUNIT_ASSERT_EQ(test, e1npu_cmd_encode(DRM_E1NPU_ENGINE_DATAPATH, &op,
					       &c, rel, 0, &n), 0);
	KUNIT_EXPECT_EQ(test, c.opcode, (u32)E1_DP_OP_DOT16_S2);
	KUNIT_EXPECT_EQ(test, c.count, 9u);
	KUNIT_EXPECT_EQ(test, c.param, (u32)E1_DP_CMD_TERNARY);
	KUNIT_EXPECT_EQ(test, c.cfg, 0u);
	KUNIT_ASSERT_EQ(test, n, 2u);
	KUNIT_ASSERT_EQ(test, kt_decode(DRM_E1NPU_ENGINE_DATAPATH, &c, rel, 2,
					&dec), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&dec, &op, sizeof(op)), 0);

	/* VRELU of 64 bytes: the length field 0 encodes 64 */
	memset(&op, 0, sizeof(op));
	op.opcode = E1NPU_HWOP_DP_VRELU_S8;
	op.n = 64;
	op.a = (struct e1npu_hw_tensor){ H_A, 0, 3 };
	op.c = (struct e1npu_hw_tensor){ H_C, 0, 8 };
	KUNIT_ASSERT_EQ(test, e1npu_cmd_encode(DRM_E1NPU_ENGINE_DATAPATH, &op,
					       &c, rel, 0, &n), 0);
	KUNIT_EXPECT_EQ(test, c.cfg, 0u);
	KUNIT_ASSERT_EQ(test, kt_decode(DRM_E1NPU_ENGINE_DATAPATH, &c, rel, 2,
					&dec), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&dec, &op, sizeof(op)), 0);
}

/* Every word the kernel owns, and reserved bits, refuse a wrapper command. */
static void e1npu_kt_cmd_wrapper_refused(struct kunit *test)
{
	struct drm_e1npu_reloc rel[E1NPU_T_COUNT];
	u32 desc[E1_V0_DESC_WORDS], bad[E1_V0_DESC_WORDS];
	struct e1npu_hw_op op, dec;
	unsigned int w;
	u32 n;

	kt_matmul(&op);
	KUNIT_ASSERT_EQ(test, e1npu_cmd_encode(DRM_E1NPU_ENGINE_WRAPPER, &op,
					       desc, rel, 0, &n), 0);
	KUNIT_ASSERT_EQ(test, kt_decode(DRM_E1NPU_ENGINE_WRAPPER, desc, NULL, 0,
					&dec), 0);
	/* the address words 4-9 and the tag, word 15 */
	for (w = 4; w <= 15; w = w == 9 ? 15 : w + 1) {
		memcpy(bad, desc, sizeof(bad));
		bad[w] = w == 15 ? 0x1234 : 0x1000;
		KUNIT_EXPECT_EQ_MSG(test, kt_decode(DRM_E1NPU_ENGINE_WRAPPER, bad,
						    NULL, 0, &dec), -EINVAL,
				    "word %u", w);
	}
	/* irq_on_complete, a flag bit the contract does not define */
	memcpy(bad, desc, sizeof(bad));
	bad[0] |= E1_V0_FLAG_IRQ_ON_COMPLETE;
	KUNIT_EXPECT_EQ(test, kt_decode(DRM_E1NPU_ENGINE_WRAPPER, bad, NULL, 0,
					&dec), -EINVAL);
	memcpy(bad, desc, sizeof(bad));
	bad[0] |= 1u << 24;
	KUNIT_EXPECT_EQ(test, kt_decode(DRM_E1NPU_ENGINE_WRAPPER, bad, NULL, 0,
					&dec), -EINVAL);
	/* a word a matmul does not use */
	memcpy(bad, desc, sizeof(bad));
	bad[E1_V0_DW_CONV_PARAMS] = 1;
	KUNIT_EXPECT_EQ(test, kt_decode(DRM_E1NPU_ENGINE_WRAPPER, bad, NULL, 0,
					&dec), -EINVAL);
	/* opcodes the contract does not define */
	memcpy(bad, desc, sizeof(bad));
	bad[0] = (bad[0] & ~0xffffu) | 0x12;
	KUNIT_EXPECT_EQ(test, kt_decode(DRM_E1NPU_ENGINE_WRAPPER, bad, NULL, 0,
					&dec), -EINVAL);
	/* a NOP with irq_on_complete or an address */
	memset(bad, 0, sizeof(bad));
	KUNIT_EXPECT_EQ(test, kt_decode(DRM_E1NPU_ENGINE_WRAPPER, bad, NULL, 0,
					&dec), 0);
	bad[0] = E1_V0_FLAG_IRQ_ON_COMPLETE;
	KUNIT_EXPECT_EQ(test, kt_decode(DRM_E1NPU_ENGINE_WRAPPER, bad, NULL, 0,
					&dec), -EINVAL);
	bad[0] = 0;
	bad[8] = 0x80000000u;
	KUNIT_EXPECT_EQ(test, kt_decode(DRM_E1NPU_ENGINE_WRAPPER, bad, NULL, 0,
					&dec), -EINVAL);
	/* CONV_PARAMS bits 31:20 are reserved */
	memset(&op, 0, sizeof(op));
	op.opcode = E1NPU_HWOP_CONV2D_S8;
	op.m = 8;
	op.n = 8;
	op.c_in = 1;
	op.c_out = 1;
	op.k = 3;
	op.out_h = 6;
	op.out_w = 6;
	op.stride_h = 1;
	op.stride_w = 1;
	op.dilation = 1;
	op.a = (struct e1npu_hw_tensor){ H_A, 16, 0 };
	op.b = (struct e1npu_hw_tensor){ H_B, 16, 0 };
	op.c = (struct e1npu_hw_tensor){ H_C, 32, 0 };
	KUNIT_ASSERT_EQ(test, e1npu_cmd_encode(DRM_E1NPU_ENGINE_WRAPPER, &op,
					       desc, rel, 0, &n), 0);
	KUNIT_EXPECT_EQ(test, kt_decode(DRM_E1NPU_ENGINE_WRAPPER, desc, NULL, 0,
					&dec), 0);
	for (w = 20; w < 32; w++) {
		memcpy(bad, desc, sizeof(bad));
		bad[E1_V0_DW_CONV_PARAMS] |= 1u << w;
		KUNIT_EXPECT_EQ_MSG(test, kt_decode(DRM_E1NPU_ENGINE_WRAPPER, bad,
						    NULL, 0, &dec), -EINVAL,
				    "CONV_PARAMS bit %u", w);
	}
	/* POOL_PARAMS bits 31:12 of a maxpool */
	memset(&op, 0, sizeof(op));
	op.opcode = E1NPU_HWOP_MAXPOOL_S8;
	op.m = 8;
	op.n = 8;
	op.c_in = 2;
	op.k = 2;
	op.stride_h = 2;
	op.a = (struct e1npu_hw_tensor){ H_A, 16, 0 };
	op.c = (struct e1npu_hw_tensor){ H_C, 16, 0 };
	KUNIT_ASSERT_EQ(test, e1npu_cmd_encode(DRM_E1NPU_ENGINE_WRAPPER, &op,
					       desc, rel, 0, &n), 0);
	memcpy(bad, desc, sizeof(bad));
	bad[E1_V0_DW_POOL_PARAMS] |= 1u << 12;
	KUNIT_EXPECT_EQ(test, kt_decode(DRM_E1NPU_ENGINE_WRAPPER, bad, NULL, 0,
					&dec), -EINVAL);
}

/* datapath commands: pad, param, cfg and count outside the contract */
static void e1npu_kt_cmd_dp_refused(struct kunit *test)
{
	struct drm_e1npu_reloc rel[E1NPU_T_COUNT];
	struct drm_e1npu_dp_cmd c, bad;
	struct e1npu_hw_op op, dec;
	unsigned int b;
	u32 n;

	memset(&op, 0, sizeof(op));
	op.opcode = E1NPU_HWOP_DP_GEMM_S8;
	op.m = 3;
	op.n = 3;
	op.k = 7;
	op.a = (struct e1npu_hw_tensor){ H_A, 8, 0 };
	op.b = (struct e1npu_hw_tensor){ H_B, 4, 0 };
	op.c = (struct e1npu_hw_tensor){ H_C, 16, 0 };
	KUNIT_ASSERT_EQ(test, e1npu_cmd_encode(DRM_E1NPU_ENGINE_DATAPATH, &op,
					       &c, rel, 0, &n), 0);
	bad = c;
	bad.pad = 1;
	KUNIT_EXPECT_EQ(test, kt_decode(DRM_E1NPU_ENGINE_DATAPATH, &bad, NULL,
					0, &dec), -EINVAL);
	bad = c;
	bad.param = E1_DP_CMD_DESC_MODE;
	KUNIT_EXPECT_EQ(test, kt_decode(DRM_E1NPU_ENGINE_DATAPATH, &bad, NULL,
					0, &dec), -EINVAL);
	bad = c;
	bad.param = E1_DP_CMD_TERNARY;	/* only for scalar commands */
	KUNIT_EXPECT_EQ(test, kt_decode(DRM_E1NPU_ENGINE_DATAPATH, &bad, NULL,
					0, &dec), -EINVAL);
	bad = c;
	bad.count = 2;
	KUNIT_EXPECT_EQ(test, kt_decode(DRM_E1NPU_ENGINE_DATAPATH, &bad, NULL,
					0, &dec), -EINVAL);
	bad = c;
	bad.opcode = E1_DP_OP_COUNT;
	KUNIT_EXPECT_EQ(test, kt_decode(DRM_E1NPU_ENGINE_DATAPATH, &bad, NULL,
					0, &dec), -EINVAL);
	/* every GEMM_CFG bit outside M (1:0), N (9:8), K (18:16) */
	for (b = 0; b < 32; b++) {
		if (b < 2 || (b >= 8 && b < 10) || (b >= 16 && b < 19))
			continue;
		bad = c;
		bad.cfg |= 1u << b;
		KUNIT_EXPECT_EQ_MSG(test, kt_decode(DRM_E1NPU_ENGINE_DATAPATH, &bad,
						    NULL, 0, &dec), -EINVAL,
				    "GEMM_CFG bit %u", b);
	}
	/* VRELU: every cfg bit outside the length field (5:0) */
	memset(&op, 0, sizeof(op));
	op.opcode = E1NPU_HWOP_DP_VRELU_S8;
	op.n = 16;
	op.a = (struct e1npu_hw_tensor){ H_A, 0, 0 };
	op.c = (struct e1npu_hw_tensor){ H_C, 0, 0 };
	KUNIT_ASSERT_EQ(test, e1npu_cmd_encode(DRM_E1NPU_ENGINE_DATAPATH, &op,
					       &c, rel, 0, &n), 0);
	for (b = 6; b < 32; b++) {
		bad = c;
		bad.cfg |= 1u << b;
		KUNIT_EXPECT_EQ_MSG(test, kt_decode(DRM_E1NPU_ENGINE_DATAPATH, &bad,
						    NULL, 0, &dec), -EINVAL,
				    "VRELU cfg bit %u", b);
	}
	/* a scalar command: cfg must be 0 */
	memset(&op, 0, sizeof(op));
	op.opcode = E1NPU_HWOP_DP_SCALAR;
	op.m = 4;
	op.k = E1_DP_OP_ADD;
	op.a = (struct e1npu_hw_tensor){ H_A, 0, 0 };
	op.c = (struct e1npu_hw_tensor){ H_C, 0, 0 };
	KUNIT_ASSERT_EQ(test, e1npu_cmd_encode(DRM_E1NPU_ENGINE_DATAPATH, &op,
					       &c, rel, 0, &n), 0);
	bad = c;
	bad.cfg = 1;
	KUNIT_EXPECT_EQ(test, kt_decode(DRM_E1NPU_ENGINE_DATAPATH, &bad, NULL,
					0, &dec), -EINVAL);
	KUNIT_EXPECT_EQ(test, e1npu_cmd_decode(7, &c, &dec, NULL), -EINVAL);
}

/* e1npu_cmd_reloc(): one relocation per used field, in range, pad zero */
static void e1npu_kt_cmd_reloc(struct kunit *test)
{
	struct drm_e1npu_reloc r;
	struct e1npu_hw_op op;
	u32 seen;

	memset(&op, 0, sizeof(op));
	op.opcode = E1NPU_HWOP_RELU_S8;
	memset(&r, 0, sizeof(r));
	r.field = DRM_E1NPU_RELOC_A;
	r.handle = H_A;
	r.offset = 48;
	seen = 0;
	KUNIT_EXPECT_EQ(test, e1npu_cmd_reloc(&op, &seen, &r, 1, NULL), 0);
	KUNIT_EXPECT_EQ(test, op.a.handle, (u32)H_A);
	KUNIT_EXPECT_EQ(test, op.a.offset, 48ull);
	KUNIT_EXPECT_EQ(test, seen, 1u);
	/* the same field again */
	KUNIT_EXPECT_EQ(test, e1npu_cmd_reloc(&op, &seen, &r, 1, NULL), -EINVAL);
	/* a command index past the job */
	seen = 0;
	r.cmd = 1;
	KUNIT_EXPECT_EQ(test, e1npu_cmd_reloc(&op, &seen, &r, 1, NULL), -EINVAL);
	r.cmd = 0;
	/* field 3, and B, which RELU does not use */
	r.field = 3;
	KUNIT_EXPECT_EQ(test, e1npu_cmd_reloc(&op, &seen, &r, 1, NULL), -EINVAL);
	r.field = DRM_E1NPU_RELOC_B;
	KUNIT_EXPECT_EQ(test, e1npu_cmd_reloc(&op, &seen, &r, 1, NULL), -EINVAL);
	/* pad */
	r.field = DRM_E1NPU_RELOC_C;
	r.pad = 1;
	KUNIT_EXPECT_EQ(test, e1npu_cmd_reloc(&op, &seen, &r, 1, NULL), -EINVAL);
	r.pad = 0;
	/* handle 0 names no buffer */
	r.handle = 0;
	KUNIT_EXPECT_EQ(test, e1npu_cmd_reloc(&op, &seen, &r, 1, NULL), -ENOENT);
	KUNIT_EXPECT_EQ(test, seen, 0u);
	r.handle = H_C;
	KUNIT_EXPECT_EQ(test, e1npu_cmd_reloc(&op, &seen, &r, 1, NULL), 0);
	KUNIT_EXPECT_EQ(test, op.c.handle, (u32)H_C);
	/* a NOP takes no relocation at all */
	memset(&op, 0, sizeof(op));
	seen = 0;
	r.field = DRM_E1NPU_RELOC_A;
	KUNIT_EXPECT_EQ(test, e1npu_cmd_reloc(&op, &seen, &r, 1, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, e1npu_op_tensors(E1NPU_HWOP_NOP), 0u);
	KUNIT_EXPECT_EQ(test, e1npu_op_tensors(E1NPU_HWOP_MATMUL_S8), 7u);
	KUNIT_EXPECT_EQ(test, e1npu_op_tensors(E1NPU_HWOP_RELU_S8), 5u);
	KUNIT_EXPECT_EQ(test, e1npu_op_tensors(0x7777), 0u);
}

static struct kunit_case e1npu_ops_cases[] = {
	KUNIT_CASE(e1npu_kt_limits),
	KUNIT_CASE(e1npu_kt_op_engine),
	KUNIT_CASE(e1npu_kt_valid),
	KUNIT_CASE(e1npu_kt_engine),
	KUNIT_CASE(e1npu_kt_fields_flags),
	KUNIT_CASE(e1npu_kt_envelope),
	KUNIT_CASE(e1npu_kt_align_stride),
	KUNIT_CASE(e1npu_kt_handles),
	KUNIT_CASE(e1npu_kt_extents),
	KUNIT_CASE(e1npu_kt_overflow),
	KUNIT_CASE(e1npu_kt_buffer_end),
	KUNIT_CASE(e1npu_kt_desc),
	KUNIT_CASE(e1npu_kt_dp_exec),
	KUNIT_CASE(e1npu_kt_cmd_wrapper_roundtrip),
	KUNIT_CASE(e1npu_kt_cmd_dp_roundtrip),
	KUNIT_CASE(e1npu_kt_cmd_wrapper_refused),
	KUNIT_CASE(e1npu_kt_cmd_dp_refused),
	KUNIT_CASE(e1npu_kt_cmd_reloc),
	{}
};

static struct kunit_suite e1npu_ops_suite = {
	.name = "e1npu_opcheck",
	.test_cases = e1npu_ops_cases,
};

kunit_test_suite(e1npu_ops_suite);

MODULE_DESCRIPTION("KUnit tests of the e1 NPU submission rules");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");
