// SPDX-License-Identifier: MIT
/*
 * e1npu system tests: submits the kernel must reject, each with the errno
 * the UAPI header documents ("e1npu submission errors",
 * include/uapi/drm/e1npu_accel.h: EINVAL malformed, ERANGE outside the
 * envelope, ENOENT unknown handle, syncobj or perfmon, EOVERFLOW extent or
 * status record past the end of its buffer, EFAULT bad user pointer), and
 * with nothing executed: every bad job is submitted after a valid job in
 * the same SUBMIT, and the valid job's output must still hold its sentinel.
 *
 * Each bad job starts from commands the shared encoder made of a valid
 * operation (e1t_encode()) and changes exactly one thing: a command word,
 * a relocation, a sync, the status record, the perfmon or a header field.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "e1t.h"
#include "e1npu_hw.h"

#define SENTINEL 0x3c
#define BAD_CMDS 4

struct neg_ctx {
	struct e1t_dev d, other;
	struct e1t_bo a, b, c;		/* valid 16x16x16 matmul buffers */
	struct e1t_bo guard;		/* output of the valid companion job */
	struct e1t_bo foreign;		/* owned by the other file */
	uint32_t sync;			/* a syncobj of this file */
	bool dp;			/* the device has the datapath */
};

/* One bad job and the storage it points into. */
struct bad {
	struct drm_e1npu_job j;
	uint32_t cmds[BAD_CMDS * E1_V0_DESC_WORDS];
	struct drm_e1npu_reloc relocs[3 * BAD_CMDS + 2];
	struct drm_e1npu_sync in[2], out[2];
};

static void good_matmul(const struct neg_ctx *x, struct e1npu_hw_op *op,
			const struct e1t_bo *out)
{
	memset(op, 0, sizeof(*op));
	op->opcode = E1NPU_HWOP_MATMUL_S8;
	op->m = 16;
	op->n = 16;
	op->k = 16;
	op->a = e1t_t(&x->a, 0, 16);
	op->b = e1t_t(&x->b, 0, 16);
	op->c = e1t_t(out, 0, 64);
}

/* A datapath GEMM tile 3x3x7 of a, b into c. */
static void good_dp_gemm(const struct neg_ctx *x, struct e1npu_hw_op *op)
{
	memset(op, 0, sizeof(*op));
	op->opcode = E1NPU_HWOP_DP_GEMM_S8;
	op->m = 3;
	op->n = 3;
	op->k = 7;
	op->a = e1t_t(&x->a, 0, 8);
	op->b = e1t_t(&x->b, 0, 4);
	op->c = e1t_t(&x->c, 0, 16);
}

/* @b: the job of @n operations on @engine, encoded; false if it cannot be */
static bool bad_init(struct bad *b, uint32_t engine,
		     const struct e1npu_hw_op *ops, uint32_t n)
{
	struct drm_e1npu_reloc *relocs;
	uint32_t nrel;
	void *cmds;
	int size = e1npu_cmd_size(engine);

	memset(b, 0, sizeof(*b));
	if (size <= 0 || n > BAD_CMDS ||
	    e1t_encode(engine, ops, n, &cmds, &relocs, &nrel))
		return false;
	memcpy(b->cmds, cmds, (size_t)n * size);
	memcpy(b->relocs, relocs, nrel * sizeof(*relocs));
	free(cmds);
	free(relocs);
	b->j.engine = engine;
	b->j.cmds = (uintptr_t)b->cmds;
	b->j.cmd_count = n;
	b->j.relocs = (uintptr_t)b->relocs;
	b->j.reloc_count = nrel;
	b->j.in_syncs = (uintptr_t)b->in;
	b->j.out_syncs = (uintptr_t)b->out;
	return true;
}

/* the bad job: one matmul (@patch may change the op before encoding) */
static bool bad_matmul(const struct neg_ctx *x, struct bad *b,
		       struct e1npu_hw_op *op)
{
	struct e1npu_hw_op tmp;

	if (!op) {
		good_matmul(x, &tmp, &x->c);
		op = &tmp;
	}
	return bad_init(b, DRM_E1NPU_ENGINE_WRAPPER, op, 1);
}

/* the descriptor of wrapper command @i */
static uint32_t *desc(struct bad *b, uint32_t i)
{
	return b->cmds + (size_t)i * E1_V0_DESC_WORDS;
}

static struct drm_e1npu_dp_cmd *dpc(struct bad *b, uint32_t i)
{
	return (struct drm_e1npu_dp_cmd *)b->cmds + i;
}

/* the relocation of command @cmd's field @field, or NULL */
static struct drm_e1npu_reloc *reloc(struct bad *b, uint32_t cmd,
				     uint32_t field)
{
	uint32_t i;

	for (i = 0; i < b->j.reloc_count; i++)
		if (b->relocs[i].cmd == cmd && b->relocs[i].field == field)
			return &b->relocs[i];
	return NULL;
}

/*
 * Submit [valid job into guard] + [@bad]; expect -@want with the struct
 * sizes of this build (0) or those given.
 */
static void expect_reject_sizes(struct neg_ctx *x, const char *name,
				const struct drm_e1npu_job *bad, int want,
				uint32_t job_size, uint32_t reloc_size,
				uint32_t sync_size)
{
	struct drm_e1npu_reloc *relocs;
	struct drm_e1npu_job jobs[2];
	struct e1npu_hw_op good;
	uint32_t nrel;
	void *cmds;
	int ret;

	good_matmul(x, &good, &x->guard);
	if (e1t_encode(DRM_E1NPU_ENGINE_WRAPPER, &good, 1, &cmds, &relocs,
		       &nrel)) {
		e1t_fail(name, "cannot encode the valid job");
		return;
	}
	memset(jobs, 0, sizeof(jobs));
	jobs[0].engine = DRM_E1NPU_ENGINE_WRAPPER;
	jobs[0].cmds = (uintptr_t)cmds;
	jobs[0].cmd_count = 1;
	jobs[0].relocs = (uintptr_t)relocs;
	jobs[0].reloc_count = nrel;
	jobs[1] = *bad;
	ret = e1t_submit_jobs(&x->d, jobs, 2, job_size, reloc_size, sync_size);
	free(cmds);
	free(relocs);
	if (ret != -want)
		e1t_fail(name, "submit returned %d (%s), want -%d (%s)", ret,
			 ret ? strerror(-ret) : "success", want, strerror(want));
	else
		e1t_pass(name);
}

static void expect_reject(struct neg_ctx *x, const char *name,
			  const struct bad *b, int want)
{
	expect_reject_sizes(x, name, &b->j, want, 0, 0, 0);
}

/* ---- operations: handles, extents, shapes (through the encoder) --------- */

static void op_cases(struct neg_ctx *x)
{
	uint64_t csz = x->c.size;
	struct e1npu_hw_op op, two[2];
	struct bad b;

	/* bad handle */
	good_matmul(x, &op, &x->c);
	op.a.handle = 0x7fffff;
	if (bad_matmul(x, &b, &op))
		expect_reject(x, "neg-bad-handle", &b, ENOENT);
	good_matmul(x, &op, &x->c);
	op.c.handle = 0;
	if (bad_matmul(x, &b, &op))
		expect_reject(x, "neg-handle-zero", &b, ENOENT);
	/* another file's buffer: a handle number this file does not have */
	good_matmul(x, &op, &x->c);
	op.b.handle = x->foreign.handle;
	if (bad_matmul(x, &b, &op))
		expect_reject(x, "neg-foreign-buffer", &b, ENOENT);

	/* offset and size overflow */
	good_matmul(x, &op, &x->c);
	op.a.offset = UINT64_MAX - 15;
	if (bad_matmul(x, &b, &op))
		expect_reject(x, "neg-offset-overflow", &b, EOVERFLOW);
	good_matmul(x, &op, &x->c);
	op.c.offset = 0xffffff0000000000ull;
	op.c.stride = 0x7ffffff0u;
	op.m = 1024;	/* 1023 rows * 2 GiB passes 2^64 */
	if (bad_matmul(x, &b, &op))
		expect_reject(x, "neg-size-overflow", &b, EOVERFLOW);

	/* a tensor past the end of its buffer */
	good_matmul(x, &op, &x->c);
	op.c.offset = csz - 16 * 64 + 16;
	if (bad_matmul(x, &b, &op))
		expect_reject(x, "neg-past-end-offset", &b, EOVERFLOW);
	good_matmul(x, &op, &x->c);
	op.m = (uint32_t)(csz / 64) + 1;
	op.a.handle = x->c.handle;	/* big enough for A */
	if (bad_matmul(x, &b, &op))
		expect_reject(x, "neg-past-end-rows", &b, EOVERFLOW);
	good_matmul(x, &op, &x->c);
	op.b.offset = x->b.size;
	if (bad_matmul(x, &b, &op))
		expect_reject(x, "neg-offset-at-end", &b, EOVERFLOW);

	/* shapes outside the envelope */
	good_matmul(x, &op, &x->c);
	op.m = 0;
	if (bad_matmul(x, &b, &op))
		expect_reject(x, "neg-shape-zero", &b, EINVAL);
	good_matmul(x, &op, &x->c);
	op.k = 1025;
	op.a.stride = 1040;
	op.a.handle = x->c.handle;
	if (bad_matmul(x, &b, &op))
		expect_reject(x, "neg-shape-k-1025", &b, ERANGE);
	memset(&op, 0, sizeof(op));
	op.opcode = E1NPU_HWOP_CONV2D_S8;
	op.m = 8;
	op.n = 8;
	op.c_in = 1;
	op.c_out = 1;
	op.k = 2;	/* kernels are 1, 3, 5 */
	op.out_h = 7;
	op.out_w = 7;
	op.stride_h = 1;
	op.stride_w = 1;
	op.dilation = 1;
	op.a = e1t_t(&x->a, 0, 16);
	op.b = e1t_t(&x->b, 0, 16);
	op.c = e1t_t(&x->c, 0, 32);
	if (bad_init(&b, DRM_E1NPU_ENGINE_WRAPPER, &op, 1))
		expect_reject(x, "neg-conv-kernel-2", &b, ERANGE);
	op.k = 3;
	op.out_h = 6;
	op.out_w = 6;
	op.stride_h = 3;
	if (bad_init(&b, DRM_E1NPU_ENGINE_WRAPPER, &op, 1))
		expect_reject(x, "neg-conv-stride-3", &b, ERANGE);
	memset(&op, 0, sizeof(op));
	op.opcode = E1NPU_HWOP_MAXPOOL_S8;
	op.m = 8;
	op.n = 8;
	op.c_in = 1;
	op.k = 4;	/* windows are 2, 3 */
	op.stride_h = 1;
	op.a = e1t_t(&x->a, 0, 16);
	op.c = e1t_t(&x->c, 0, 16);
	if (bad_init(&b, DRM_E1NPU_ENGINE_WRAPPER, &op, 1))
		expect_reject(x, "neg-pool-window-4", &b, ERANGE);

	/* alignment */
	good_matmul(x, &op, &x->c);
	op.a.stride = 24;
	if (bad_matmul(x, &b, &op))
		expect_reject(x, "neg-misaligned-stride", &b, EINVAL);
	good_matmul(x, &op, &x->c);
	op.c.stride = 48;	/* shorter than the 64-byte row */
	if (bad_matmul(x, &b, &op))
		expect_reject(x, "neg-short-stride", &b, EINVAL);
	good_matmul(x, &op, &x->c);
	op.b.offset = 8;
	if (bad_matmul(x, &b, &op))
		expect_reject(x, "neg-misaligned-offset", &b, EINVAL);

	/* the bad command second in its job: the first must not run either */
	good_matmul(x, &two[0], &x->c);
	good_matmul(x, &two[1], &x->c);
	two[1].c.offset = csz;
	if (bad_init(&b, DRM_E1NPU_ENGINE_WRAPPER, two, 2))
		expect_reject(x, "neg-second-cmd", &b, EOVERFLOW);
}

/* ---- relocations ---------------------------------------------------------- */

static void reloc_cases(struct neg_ctx *x)
{
	struct e1npu_hw_op op[2];
	struct drm_e1npu_reloc *r;
	struct bad b;

	/* a command index past the job's last command */
	if (bad_matmul(x, &b, NULL)) {
		r = reloc(&b, 0, DRM_E1NPU_RELOC_B);
		b.relocs[b.j.reloc_count] = *r;
		b.relocs[b.j.reloc_count++].cmd = 1;
		expect_reject(x, "neg-reloc-cmd-past-end", &b, EINVAL);
	}
	if (bad_matmul(x, &b, NULL)) {
		reloc(&b, 0, DRM_E1NPU_RELOC_B)->cmd = 0xffffffffu;
		expect_reject(x, "neg-reloc-cmd-huge", &b, EINVAL);
	}
	/* a field that is no field */
	if (bad_matmul(x, &b, NULL)) {
		reloc(&b, 0, DRM_E1NPU_RELOC_C)->field = 3;
		expect_reject(x, "neg-reloc-field-3", &b, EINVAL);
	}
	/* a field the command does not use: RELU has no B, NOP nothing */
	memset(op, 0, sizeof(op));
	op[0].opcode = E1NPU_HWOP_RELU_S8;
	op[0].m = 4;
	op[0].n = 16;
	op[0].a = e1t_t(&x->a, 0, 16);
	op[0].c = e1t_t(&x->c, 0, 16);
	if (bad_init(&b, DRM_E1NPU_ENGINE_WRAPPER, op, 1)) {
		r = &b.relocs[b.j.reloc_count++];
		memset(r, 0, sizeof(*r));
		r->field = DRM_E1NPU_RELOC_B;
		r->handle = x->b.handle;
		expect_reject(x, "neg-reloc-field-unused", &b, EINVAL);
	}
	memset(op, 0, sizeof(op));
	op[0].opcode = E1NPU_HWOP_NOP;
	if (bad_init(&b, DRM_E1NPU_ENGINE_WRAPPER, op, 1)) {
		r = &b.relocs[b.j.reloc_count++];
		memset(r, 0, sizeof(*r));
		r->field = DRM_E1NPU_RELOC_A;
		r->handle = x->a.handle;
		expect_reject(x, "neg-reloc-on-nop", &b, EINVAL);
	}
	/* the same field twice (the same buffer and offset both times) */
	if (bad_matmul(x, &b, NULL)) {
		b.relocs[b.j.reloc_count] = *reloc(&b, 0, DRM_E1NPU_RELOC_A);
		b.j.reloc_count++;
		expect_reject(x, "neg-reloc-twice", &b, EINVAL);
	}
	/* a used tensor without its relocation: drop B's */
	if (bad_matmul(x, &b, NULL)) {
		r = reloc(&b, 0, DRM_E1NPU_RELOC_B);
		*r = b.relocs[--b.j.reloc_count];
		expect_reject(x, "neg-reloc-missing", &b, EINVAL);
	}
	/* two commands, the second one's relocations all missing */
	good_matmul(x, &op[0], &x->c);
	good_matmul(x, &op[1], &x->c);
	if (bad_init(&b, DRM_E1NPU_ENGINE_WRAPPER, op, 2)) {
		b.j.reloc_count = 3;
		expect_reject(x, "neg-reloc-missing-second-cmd", &b, EINVAL);
	}
	/* non-zero pad */
	if (bad_matmul(x, &b, NULL)) {
		reloc(&b, 0, DRM_E1NPU_RELOC_A)->pad = 1;
		expect_reject(x, "neg-reloc-pad", &b, EINVAL);
	}
	/* handles: 0, unknown, another file's */
	if (bad_matmul(x, &b, NULL)) {
		reloc(&b, 0, DRM_E1NPU_RELOC_A)->handle = 0;
		expect_reject(x, "neg-reloc-handle-zero", &b, ENOENT);
	}
	if (bad_matmul(x, &b, NULL)) {
		reloc(&b, 0, DRM_E1NPU_RELOC_C)->handle = 0x7ffffff0u;
		expect_reject(x, "neg-reloc-handle-unknown", &b, ENOENT);
	}
	/* offsets: the extent passes the end, or overflows 64 bits */
	if (bad_matmul(x, &b, NULL)) {
		/* c: 16 rows, stride 64: [off, off + 1024) */
		reloc(&b, 0, DRM_E1NPU_RELOC_C)->offset = x->c.size - 1024 + 16;
		expect_reject(x, "neg-reloc-offset-past-end", &b, EOVERFLOW);
	}
	if (bad_matmul(x, &b, NULL)) {
		reloc(&b, 0, DRM_E1NPU_RELOC_A)->offset = UINT64_MAX - 15;
		expect_reject(x, "neg-reloc-offset-overflow", &b, EOVERFLOW);
	}
	/* a reloc count with no relocation array behind it */
	if (bad_matmul(x, &b, NULL)) {
		b.j.relocs = 16;	/* unmapped user address */
		expect_reject(x, "neg-bad-relocs-pointer", &b, EFAULT);
	}
}

/* ---- wrapper descriptors: kernel-owned and reserved bits ------------------ */

static void wrapper_cmd_cases(struct neg_ctx *x)
{
	struct e1npu_hw_op op;
	struct bad b;
	char name[48];
	unsigned int w;

	/* the address words 4-9 belong to the kernel */
	for (w = E1_V0_DW_A_LO; w <= E1_V0_DW_C_HI; w++) {
		if (!bad_matmul(x, &b, NULL))
			break;
		desc(&b, 0)[w] = w & 1 ? 0x1 : 0x1000;
		snprintf(name, sizeof(name), "neg-kernel-word-%u", w);
		expect_reject(x, name, &b, EINVAL);
	}
	/* so does the tag, word 15, and irq_on_complete */
	if (bad_matmul(x, &b, NULL)) {
		desc(&b, 0)[E1_V0_DW_TAG] = 0x1234;
		expect_reject(x, "neg-tag-word-15", &b, EINVAL);
	}
	if (bad_matmul(x, &b, NULL)) {
		desc(&b, 0)[E1_V0_DW_OP] |= E1_V0_FLAG_IRQ_ON_COMPLETE;
		expect_reject(x, "neg-irq-on-complete", &b, EINVAL);
	}
	/* a NOP with irq_on_complete, or an address word */
	memset(&op, 0, sizeof(op));
	op.opcode = E1NPU_HWOP_NOP;
	if (bad_init(&b, DRM_E1NPU_ENGINE_WRAPPER, &op, 1)) {
		desc(&b, 0)[E1_V0_DW_OP] |= E1_V0_FLAG_IRQ_ON_COMPLETE;
		expect_reject(x, "neg-nop-irq-on-complete", &b, EINVAL);
	}
	if (bad_init(&b, DRM_E1NPU_ENGINE_WRAPPER, &op, 1)) {
		desc(&b, 0)[E1_V0_DW_C_LO] = 0x80000000u;
		expect_reject(x, "neg-nop-address", &b, EINVAL);
	}
	/* a flag bit the contract does not define (flags are 19:16) */
	if (bad_matmul(x, &b, NULL)) {
		desc(&b, 0)[E1_V0_DW_OP] |= 1u << 24;
		expect_reject(x, "neg-reserved-op-flag", &b, EINVAL);
	}
	/* a word the opcode does not use: conv params on a matmul */
	if (bad_matmul(x, &b, NULL)) {
		desc(&b, 0)[E1_V0_DW_CONV_PARAMS] = 1;
		expect_reject(x, "neg-unused-word", &b, EINVAL);
	}
	/* the B stride of a RELU, which has no B */
	memset(&op, 0, sizeof(op));
	op.opcode = E1NPU_HWOP_RELU_S8;
	op.m = 4;
	op.n = 16;
	op.a = e1t_t(&x->a, 0, 16);
	op.c = e1t_t(&x->c, 0, 16);
	if (bad_init(&b, DRM_E1NPU_ENGINE_WRAPPER, &op, 1)) {
		desc(&b, 0)[E1_V0_DW_B_STRIDE] = 16;
		expect_reject(x, "neg-unused-stride", &b, EINVAL);
	}
	/* reserved bits: CONV_PARAMS 31:20, POOL_PARAMS 31:12 */
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
	op.a = e1t_t(&x->a, 0, 16);
	op.b = e1t_t(&x->b, 0, 16);
	op.c = e1t_t(&x->c, 0, 32);
	if (bad_init(&b, DRM_E1NPU_ENGINE_WRAPPER, &op, 1)) {
		desc(&b, 0)[E1_V0_DW_CONV_PARAMS] |= 1u << 20;
		expect_reject(x, "neg-conv-params-reserved-20", &b, EINVAL);
	}
	if (bad_init(&b, DRM_E1NPU_ENGINE_WRAPPER, &op, 1)) {
		desc(&b, 0)[E1_V0_DW_CONV_PARAMS] |= 1u << 31;
		expect_reject(x, "neg-conv-params-reserved-31", &b, EINVAL);
	}
	memset(&op, 0, sizeof(op));
	op.opcode = E1NPU_HWOP_MAXPOOL_S8;
	op.m = 8;
	op.n = 8;
	op.c_in = 1;
	op.k = 2;
	op.stride_h = 2;
	op.a = e1t_t(&x->a, 0, 16);
	op.c = e1t_t(&x->c, 0, 16);
	if (bad_init(&b, DRM_E1NPU_ENGINE_WRAPPER, &op, 1)) {
		desc(&b, 0)[E1_V0_DW_POOL_PARAMS] |= 1u << 12;
		expect_reject(x, "neg-pool-params-reserved", &b, EINVAL);
	}
	/* a window that is not square: the pool has one window field */
	if (bad_init(&b, DRM_E1NPU_ENGINE_WRAPPER, &op, 1)) {
		desc(&b, 0)[E1_V0_DW_POOL_PARAMS] &= ~(uint32_t)E1_V0_POOL_WIN_W;
		desc(&b, 0)[E1_V0_DW_POOL_PARAMS] |= 3u << 4;
		expect_reject(x, "neg-pool-window-not-square", &b, EINVAL);
	}
	/* opcodes the contract does not define */
	if (bad_matmul(x, &b, NULL)) {
		desc(&b, 0)[E1_V0_DW_OP] = (desc(&b, 0)[E1_V0_DW_OP] &
					    ~(uint32_t)E1_V0_DESC_OP) | 0x12;
		expect_reject(x, "neg-unknown-v0-opcode", &b, EINVAL);
	}
	memset(&op, 0, sizeof(op));
	op.opcode = E1NPU_HWOP_NOP;
	if (bad_init(&b, DRM_E1NPU_ENGINE_WRAPPER, &op, 1)) {
		desc(&b, 0)[E1_V0_DW_OP] = 0x7777;
		expect_reject(x, "neg-unknown-v0-opcode-7777", &b, EINVAL);
	}
}

/* ---- datapath commands ---------------------------------------------------- */

static void dp_cmd_cases(struct neg_ctx *x)
{
	struct e1npu_hw_op op;
	struct bad b;

	if (!x->dp) {
		e1t_skip("neg-dp", "no datapath engine");
		return;
	}
	good_dp_gemm(x, &op);
	if (bad_init(&b, DRM_E1NPU_ENGINE_DATAPATH, &op, 1)) {
		dpc(&b, 0)->pad = 1;
		expect_reject(x, "neg-dp-pad", &b, EINVAL);
	}
	if (bad_init(&b, DRM_E1NPU_ENGINE_DATAPATH, &op, 1)) {
		dpc(&b, 0)->param = E1_DP_CMD_DESC_MODE;
		expect_reject(x, "neg-dp-param-desc-mode", &b, EINVAL);
	}
	if (bad_init(&b, DRM_E1NPU_ENGINE_DATAPATH, &op, 1)) {
		dpc(&b, 0)->param = 1u << 5;
		expect_reject(x, "neg-dp-param-reserved", &b, EINVAL);
	}
	/* ternary on a GEMM: only scalar commands take it */
	if (bad_init(&b, DRM_E1NPU_ENGINE_DATAPATH, &op, 1)) {
		dpc(&b, 0)->param = E1_DP_CMD_TERNARY;
		expect_reject(x, "neg-dp-gemm-ternary", &b, EINVAL);
	}
	/* GEMM_CFG: bits between and above the M, N, K fields */
	if (bad_init(&b, DRM_E1NPU_ENGINE_DATAPATH, &op, 1)) {
		dpc(&b, 0)->cfg |= 1u << 4;
		expect_reject(x, "neg-dp-cfg-bit-4", &b, EINVAL);
	}
	if (bad_init(&b, DRM_E1NPU_ENGINE_DATAPATH, &op, 1)) {
		dpc(&b, 0)->cfg |= 1u << 31;
		expect_reject(x, "neg-dp-cfg-bit-31", &b, EINVAL);
	}
	if (bad_init(&b, DRM_E1NPU_ENGINE_DATAPATH, &op, 1)) {
		dpc(&b, 0)->count = 2;
		expect_reject(x, "neg-dp-gemm-count-2", &b, EINVAL);
	}
	if (bad_init(&b, DRM_E1NPU_ENGINE_DATAPATH, &op, 1)) {
		dpc(&b, 0)->count = 0;
		expect_reject(x, "neg-dp-gemm-count-0", &b, EINVAL);
	}
	if (bad_init(&b, DRM_E1NPU_ENGINE_DATAPATH, &op, 1)) {
		dpc(&b, 0)->opcode = E1_DP_OP_COUNT;
		expect_reject(x, "neg-dp-unknown-opcode", &b, EINVAL);
	}
	/* the tile's envelope: K = 0 */
	if (bad_init(&b, DRM_E1NPU_ENGINE_DATAPATH, &op, 1)) {
		dpc(&b, 0)->cfg &= ~(uint32_t)E1_DP_GEMM_CFG_K;
		expect_reject(x, "neg-dp-gemm-k-0", &b, EINVAL);
	}
	/* VRELU: only the length field */
	memset(&op, 0, sizeof(op));
	op.opcode = E1NPU_HWOP_DP_VRELU_S8;
	op.n = 16;
	op.a = e1t_t(&x->a, 0, 0);
	op.c = e1t_t(&x->c, 0, 0);
	if (bad_init(&b, DRM_E1NPU_ENGINE_DATAPATH, &op, 1)) {
		dpc(&b, 0)->cfg |= 1u << 8;
		expect_reject(x, "neg-dp-vrelu-cfg-reserved", &b, EINVAL);
	}
	/* VRELU packs its bytes: a stride is refused */
	if (bad_init(&b, DRM_E1NPU_ENGINE_DATAPATH, &op, 1)) {
		dpc(&b, 0)->stride[0] = 16;
		expect_reject(x, "neg-dp-vrelu-stride", &b, EINVAL);
	}
	/* a scalar command: cfg must be 0, ternary only with DOT16_S2 */
	memset(&op, 0, sizeof(op));
	op.opcode = E1NPU_HWOP_DP_SCALAR;
	op.m = 4;
	op.k = E1_DP_OP_ADD;
	op.a = e1t_t(&x->a, 0, 0);
	op.c = e1t_t(&x->c, 0, 0);
	if (bad_init(&b, DRM_E1NPU_ENGINE_DATAPATH, &op, 1)) {
		dpc(&b, 0)->cfg = 1;
		expect_reject(x, "neg-dp-scalar-cfg", &b, EINVAL);
	}
	if (bad_init(&b, DRM_E1NPU_ENGINE_DATAPATH, &op, 1)) {
		dpc(&b, 0)->param = E1_DP_CMD_TERNARY;
		expect_reject(x, "neg-dp-scalar-ternary-add", &b, EINVAL);
	}
	if (bad_init(&b, DRM_E1NPU_ENGINE_DATAPATH, &op, 1)) {
		dpc(&b, 0)->count = 0;
		expect_reject(x, "neg-dp-scalar-count-0", &b, EINVAL);
	}
	/* records past the end of the input buffer */
	if (bad_init(&b, DRM_E1NPU_ENGINE_DATAPATH, &op, 1)) {
		dpc(&b, 0)->count = (uint32_t)(x->a.size / 12) + 1;
		expect_reject(x, "neg-dp-scalar-past-end", &b, EOVERFLOW);
	}
}

/* ---- job fields: engine, flags, counts, syncs, status, perfmon ------------ */

static void job_cases(struct neg_ctx *x)
{
	struct drm_e1npu_reloc *r;
	struct bad b;
	uint32_t nmax, i;

	if (bad_matmul(x, &b, NULL)) {
		b.j.flags = 1;
		expect_reject(x, "neg-job-flags", &b, EINVAL);
	}
	if (bad_matmul(x, &b, NULL)) {
		b.j.engine = 7;
		expect_reject(x, "neg-unknown-engine", &b, EINVAL);
	}
	if (bad_matmul(x, &b, NULL)) {
		b.j.cmd_count = 0;
		b.j.reloc_count = 0;
		expect_reject(x, "neg-zero-cmds", &b, EINVAL);
	}
	if (bad_matmul(x, &b, NULL)) {
		b.j.cmds = 16;	/* unmapped user address */
		expect_reject(x, "neg-bad-cmds-pointer", &b, EFAULT);
	}
	/* more commands than a job may hold */
	nmax = x->d.info.max_cmds_per_job + 1;
	{
		uint32_t *many = calloc(nmax, E1_V0_DESC_SIZE);

		if (many && bad_matmul(x, &b, NULL)) {
			for (i = 0; i < nmax; i++)
				many[i * E1_V0_DESC_WORDS] = E1_V0_OP_NOP;
			b.j.cmds = (uintptr_t)many;
			b.j.cmd_count = nmax;
			b.j.reloc_count = 0;
			expect_reject(x, "neg-too-many-cmds", &b, EINVAL);
		}
		free(many);
	}
	/* more relocations than three per command */
	if (bad_matmul(x, &b, NULL)) {
		r = reloc(&b, 0, DRM_E1NPU_RELOC_A);
		b.relocs[b.j.reloc_count++] = *r;
		expect_reject(x, "neg-reloc-count-4", &b, EINVAL);
	}

	/* in and out syncs */
	if (bad_matmul(x, &b, NULL)) {
		b.in[0].handle = x->sync;
		b.in[0].flags = 1;
		b.j.in_sync_count = 1;
		expect_reject(x, "neg-in-sync-flags", &b, EINVAL);
	}
	if (bad_matmul(x, &b, NULL)) {
		b.out[0].handle = x->sync;
		b.out[0].flags = 1u << 31;
		b.j.out_sync_count = 1;
		expect_reject(x, "neg-out-sync-flags", &b, EINVAL);
	}
	if (bad_matmul(x, &b, NULL)) {
		b.in[0].handle = 0x7fffff;
		b.j.in_sync_count = 1;
		expect_reject(x, "neg-in-sync-unknown", &b, ENOENT);
	}
	if (bad_matmul(x, &b, NULL)) {
		b.out[0].handle = 0x7fffff;
		b.j.out_sync_count = 1;
		expect_reject(x, "neg-out-sync-unknown", &b, ENOENT);
	}
	if (bad_matmul(x, &b, NULL)) {
		b.in[0].handle = x->sync;
		b.out[0].handle = 0;
		b.j.in_sync_count = 1;
		b.j.out_sync_count = 1;
		expect_reject(x, "neg-out-sync-zero", &b, ENOENT);
	}
	if (bad_matmul(x, &b, NULL)) {
		b.j.in_syncs = 8;	/* unmapped user address */
		b.j.in_sync_count = 1;
		expect_reject(x, "neg-bad-in-syncs-pointer", &b, EFAULT);
	}
	if (bad_matmul(x, &b, NULL)) {
		b.j.out_sync_count = 65;	/* at most 64 */
		expect_reject(x, "neg-out-sync-count-65", &b, EINVAL);
	}

	/* the status record */
	if (bad_matmul(x, &b, NULL)) {
		b.j.status_handle = x->guard.handle;
		b.j.status_offset = 4;
		expect_reject(x, "neg-status-misaligned", &b, EINVAL);
	}
	if (bad_matmul(x, &b, NULL)) {
		b.j.status_handle = x->guard.handle;
		b.j.status_offset = x->guard.size - 16;	/* 24-byte record */
		expect_reject(x, "neg-status-past-end", &b, EOVERFLOW);
	}
	if (bad_matmul(x, &b, NULL)) {
		b.j.status_handle = x->guard.handle;
		b.j.status_offset = UINT64_MAX - 7;
		expect_reject(x, "neg-status-offset-overflow", &b, EOVERFLOW);
	}
	if (bad_matmul(x, &b, NULL)) {
		b.j.status_handle = 0x7fffff;
		expect_reject(x, "neg-status-handle-unknown", &b, ENOENT);
	}
	if (bad_matmul(x, &b, NULL)) {
		b.j.status_handle = x->foreign.handle;
		expect_reject(x, "neg-status-handle-foreign", &b, ENOENT);
	}

	/* the perfmon */
	if (bad_matmul(x, &b, NULL)) {
		b.j.perfmon_id = 0x7777;
		expect_reject(x, "neg-perfmon-unknown", &b, ENOENT);
	}
}

/* ---- the SUBMIT header ---------------------------------------------------- */

static void submit_header_cases(struct neg_ctx *x)
{
	long pg = sysconf(_SC_PAGESIZE);
	struct drm_e1npu_job jobs[65];
	struct bad b;
	int ret;

	if (!bad_matmul(x, &b, NULL))
		return;
	b.j.relocs = (uintptr_t)b.relocs;
	ret = e1t_submit_jobs(&x->d, &b.j, 0, 0, 0, 0);
	if (ret != -EINVAL)
		e1t_fail("neg-submit-zero-jobs", "returned %d, want -EINVAL", ret);
	else
		e1t_pass("neg-submit-zero-jobs");
	/* 65 jobs: at most 64 (the last one never gets looked at) */
	memset(jobs, 0, sizeof(jobs));
	for (ret = 0; ret < 65; ret++)
		jobs[ret] = b.j;
	ret = e1t_submit_jobs(&x->d, jobs, 65, 0, 0, 0);
	if (ret != -EINVAL)
		e1t_fail("neg-submit-65-jobs", "returned %d, want -EINVAL", ret);
	else
		e1t_pass("neg-submit-65-jobs");
	/* struct sizes smaller than v2's, or above a page */
	expect_reject_sizes(x, "neg-submit-job-size-small", &b.j, EINVAL,
			    sizeof(struct drm_e1npu_job) - 8, 0, 0);
	expect_reject_sizes(x, "neg-submit-reloc-size-small", &b.j, EINVAL, 0,
			    sizeof(struct drm_e1npu_reloc) - 8, 0);
	expect_reject_sizes(x, "neg-submit-sync-size-small", &b.j, EINVAL, 0, 0,
			    sizeof(struct drm_e1npu_sync) - 8);
	expect_reject_sizes(x, "neg-submit-job-size-above-page", &b.j, EINVAL,
			    pg + 8, 0, 0);
	expect_reject_sizes(x, "neg-submit-reloc-size-above-page", &b.j, EINVAL,
			    0, pg + 8, 0);
	expect_reject_sizes(x, "neg-submit-sync-size-above-page", &b.j, EINVAL,
			    0, 0, pg + 8);
}

static void pad_cases(struct neg_ctx *x)
{
	struct drm_e1npu_bo_mmap_offset mo;
	struct drm_e1npu_bo_wait w;
	int ret;

	memset(&mo, 0, sizeof(mo));
	mo.handle = x->a.handle;
	mo.pad = 1;
	ret = e1t_ioctl(x->d.fd, DRM_IOCTL_E1NPU_BO_MMAP_OFFSET, &mo);
	if (ret != -EINVAL)
		e1t_fail("neg-mmap-offset-pad", "returned %d, want -EINVAL", ret);
	else
		e1t_pass("neg-mmap-offset-pad");
	memset(&w, 0, sizeof(w));
	w.handle = x->a.handle;
	w.pad = 1;
	ret = e1t_ioctl(x->d.fd, DRM_IOCTL_E1NPU_BO_WAIT, &w);
	if (ret != -EINVAL)
		e1t_fail("neg-bo-wait-pad", "returned %d, want -EINVAL", ret);
	else
		e1t_pass("neg-bo-wait-pad");
}

int e1t_group_neg(void)
{
	struct e1t_result r;
	struct e1npu_hw_op op;
	struct neg_ctx x;
	struct e1t_bo extra[8];
	uint32_t seed = 99, i;
	uint8_t junk[24];
	uint8_t *want;
	int ret;

	memset(&x, 0, sizeof(x));
	memset(extra, 0, sizeof(extra));
	ret = e1t_open(&x.d);
	if (!ret)
		ret = e1t_open(&x.other);
	if (ret) {
		e1t_fail("neg-setup", "open: %s", strerror(-ret));
		return 1;
	}
	x.dp = x.d.info.engines & (1u << DRM_E1NPU_ENGINE_DATAPATH);
	if (!ret)
		ret = e1t_bo_new(&x.d, 4096, &x.a);
	if (!ret)
		ret = e1t_bo_new(&x.d, 4096, &x.b);
	if (!ret)
		ret = e1t_bo_new(&x.d, 4096, &x.c);
	if (!ret)
		ret = e1t_bo_new(&x.d, 4096, &x.guard);
	if (!ret)
		ret = e1t_syncobj_create(&x.d, &x.sync, true);
	/* the other file gets more handles than we have, so its last handle
	 * number does not exist in our file */
	for (i = 0; !ret && i < E1T_ARRAY_SIZE(extra); i++)
		ret = e1t_bo_new(&x.other, 4096, &extra[i]);
	if (!ret)
		ret = e1t_bo_new(&x.other, 4096, &x.foreign);
	want = malloc(4096);
	if (ret || !want) {
		e1t_fail("neg-setup", "buffers: %s", strerror(-ret));
		goto out;
	}
	e1t_fill_s8(x.a.map, 4096, &seed);
	e1t_fill_s8(x.b.map, 4096, &seed);
	memset(x.guard.map, SENTINEL, 4096);
	memset(x.c.map, SENTINEL, 4096);

	op_cases(&x);
	reloc_cases(&x);
	wrapper_cmd_cases(&x);
	dp_cmd_cases(&x);
	job_cases(&x);
	submit_header_cases(&x);
	pad_cases(&x);

	/* nothing ran: give a wrongly queued job time to land, then look */
	e1t_sleep_ms(300);
	memset(want, SENTINEL, 4096);
	if (e1t_expect_bytes("neg-nothing-executed", x.guard.map, want, 4096) &&
	    e1t_expect_bytes("neg-nothing-executed", x.c.map, want, 4096))
		e1t_pass("neg-nothing-executed");

	/* and the device still works for this file */
	good_matmul(&x, &op, &x.guard);
	ret = e1t_run(&x.d, DRM_E1NPU_ENGINE_WRAPPER, &op, 1, &r);
	if (ret)
		e1t_fail("neg-then-valid-job", "ret %d state %u error %d", ret,
			 r.state, r.error);
	else
		e1t_pass("neg-then-valid-job");

	/* the first driver ioctl number past the table is -EINVAL */
	memset(junk, 0, sizeof(junk));
	ret = e1t_ioctl(x.d.fd, DRM_IOWR(DRM_COMMAND_BASE + DRM_E1NPU_PERFMON_GET_VALUES + 1,
					 uint8_t[24]), junk);
	if (ret != -EINVAL)
		e1t_fail("neg-ioctl-past-table", "returned %d, want -EINVAL", ret);
	else
		e1t_pass("neg-ioctl-past-table");
	free(want);
out:
	for (i = 0; i < E1T_ARRAY_SIZE(extra); i++)
		e1t_bo_free(&x.other, &extra[i]);
	e1t_bo_free(&x.other, &x.foreign);
	e1t_bo_free(&x.d, &x.a);
	e1t_bo_free(&x.d, &x.b);
	e1t_bo_free(&x.d, &x.c);
	e1t_bo_free(&x.d, &x.guard);
	e1t_close(&x.other);
	e1t_close(&x.d);
	return e1t_failures;
}
