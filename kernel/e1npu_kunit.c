// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite of the shared submission rules (e1npu_opcheck.c): device limits,
 * opcode to engine, the envelope, unused fields, flags, alignment, handle
 * lookup, tensor extents with their overflow checks and the end of the
 * buffer, descriptor helpers, and the datapath runner against a fake
 * register file. Expected values are written out from the UAPI and the
 * hardware contract, not computed by the code under test.
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
	{}
};

static struct kunit_suite e1npu_ops_suite = {
	.name = "e1npu_opcheck",
	.test_cases = e1npu_ops_cases,
};

kunit_test_suite(e1npu_ops_suite);

MODULE_DESCRIPTION("KUnit tests of the e1 NPU submission rules");
MODULE_LICENSE("GPL");
