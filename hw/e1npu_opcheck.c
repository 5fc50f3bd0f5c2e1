// SPDX-License-Identifier: (GPL-2.0-only OR MIT)
/*
 * e1 NPU submission rules shared by e1npu.ko and libe1npu: the one place
 * that decides whether an operation is valid, which bytes it touches, how
 * it is encoded for the wrapper, and how the datapath runs it.
 *
 * Errno convention of e1npu_op_check() (also in the UAPI header and
 * Documentation/driver.md):
 *   -EINVAL    unknown opcode or flag, a field the opcode does not use is
 *              non-zero, zero dimension, stride shorter than its row,
 *              misaligned offset or stride, op not of the job's engine
 *   -ERANGE    a shape outside the validated envelope / CAPS
 *   -ENOENT    unknown buffer handle (including 0 for a used tensor)
 *   -EOVERFLOW an extent overflows or passes the end of its buffer
 *   -ENODEV    the op's engine is absent
 */
#include "e1npu_opcheck.h"

#define E1NPU_BIT(n)	(1U << (n))

static int e1npu_fail(struct e1npu_op_err *err, int ret, const char *field,
		      u64 value, const char *reason)
{
	if (err) {
		err->field = field;
		err->value = value;
		err->reason = reason;
	}
	return ret;
}

/**
 * e1npu_limits_init() - derive the submission limits from the hardware
 * @lim: filled
 * @wrapper_present: the wrapper window exists
 * @wrapper_id: its ID register
 * @wrapper_caps: its CAPS register
 * @datapath_present: the datapath window exists
 * @datapath_id: its ID register
 * @ring_len: wrapper ring length the driver programs (power of two)
 * @arena_size: bytes of tensor memory
 */
void e1npu_limits_init(struct e1npu_limits *lim, bool wrapper_present,
		       u32 wrapper_id, u32 wrapper_caps, bool datapath_present,
		       u32 datapath_id, u32 ring_len, u64 arena_size)
{
	memset(lim, 0, sizeof(*lim));
	lim->max_ops_per_job = E1NPU_MAX_OPS_PER_JOB;
	if (wrapper_present) {
		lim->engines |= E1NPU_BIT(DRM_E1NPU_ENGINE_WRAPPER);
		lim->wrapper_id = wrapper_id;
		lim->wrapper_caps = wrapper_caps;
		lim->gemmini = (wrapper_caps & E1_V0_CAPS_GEMMINI) != 0;
		lim->ring_len = ring_len;
		/* A job must fit in the ring's usable slots (one stays empty). */
		if (ring_len >= E1_V0_RING_LEN_MIN &&
		    ring_len - 1 < lim->max_ops_per_job)
			lim->max_ops_per_job = ring_len - 1;
	}
	if (datapath_present) {
		lim->engines |= E1NPU_BIT(DRM_E1NPU_ENGINE_DATAPATH);
		lim->datapath_id = datapath_id;
		lim->datapath_slots = E1_DP_RING_USABLE;
	}
	lim->arena_size = arena_size;
	lim->align = E1_V0_ALIGN;
	lim->max_matmul_mn = E1_V0_MAX_MATMUL_MN;
	lim->max_matmul_k = E1_V0_MAX_MATMUL_K;
	lim->max_conv_hw = E1_V0_MAX_CONV_HW;
	lim->max_conv_c = E1_V0_MAX_CONV_C;
	lim->conv_kernels = E1NPU_BIT(1) | E1NPU_BIT(3) | E1NPU_BIT(5);
	lim->conv_strides = E1NPU_BIT(1) | E1NPU_BIT(2);
	lim->max_conv_dilation = E1_V0_MAX_CONV_DILATION;
	lim->max_conv_pad = E1_FIELD_GET(E1_V0_CONV_PAD_H, E1_V0_CONV_PAD_H);
	lim->pool_windows = E1NPU_BIT(2) | E1NPU_BIT(3);
	lim->pool_strides = E1NPU_BIT(1) | E1NPU_BIT(2);
	lim->max_relu_mn = E1_V0_MAX_RELU_MN;
}
EXPORT_SYMBOL_IF_KUNIT(e1npu_limits_init);

/**
 * e1npu_limits_to_dev_info() - fill the DEV_QUERY answer from the limits
 * @lim: device limits
 * @info: zeroed and filled
 */
void e1npu_limits_to_dev_info(const struct e1npu_limits *lim,
			      struct drm_e1npu_dev_info *info)
{
	memset(info, 0, sizeof(*info));
	info->engines = lim->engines;
	info->wrapper_id = lim->wrapper_id;
	info->wrapper_caps = lim->wrapper_caps;
	info->datapath_id = lim->datapath_id;
	info->ring_len = lim->ring_len;
	info->datapath_slots = lim->datapath_slots;
	info->arena_size = lim->arena_size;
	info->max_cmds_per_job = lim->max_ops_per_job;
	info->align = lim->align;
	info->max_matmul_mn = lim->max_matmul_mn;
	info->max_matmul_k = lim->max_matmul_k;
	info->max_conv_hw = lim->max_conv_hw;
	info->max_conv_c = lim->max_conv_c;
	info->conv_kernels = lim->conv_kernels;
	info->conv_strides = lim->conv_strides;
	info->max_conv_dilation = lim->max_conv_dilation;
	info->pool_windows = lim->pool_windows;
	info->pool_strides = lim->pool_strides;
	info->max_relu_mn = lim->max_relu_mn;
}

/**
 * e1npu_op_engine() - the engine an opcode runs on
 * @opcode: enum e1npu_hw_opcode
 *
 * Return: enum drm_e1npu_engine, or -EINVAL for an unknown opcode.
 */
int e1npu_op_engine(u32 opcode)
{
	switch (opcode) {
	case E1NPU_HWOP_NOP:
	case E1NPU_HWOP_BARRIER:
	case E1NPU_HWOP_MATMUL_S8:
	case E1NPU_HWOP_CONV2D_S8:
	case E1NPU_HWOP_RELU_S8:
	case E1NPU_HWOP_MAXPOOL_S8:
	case E1NPU_HWOP_FALLBACK:
		return DRM_E1NPU_ENGINE_WRAPPER;
	case E1NPU_HWOP_DP_SCALAR:
	case E1NPU_HWOP_DP_GEMM_S8:
	case E1NPU_HWOP_DP_GEMM_S4:
	case E1NPU_HWOP_DP_VRELU_S8:
		return DRM_E1NPU_ENGINE_DATAPATH;
	default:
		return -EINVAL;
	}
}
EXPORT_SYMBOL_IF_KUNIT(e1npu_op_engine);

/* Scalar fields of struct e1npu_hw_op, by bit in a "used" mask. */
enum {
	E1NPU_F_M, E1NPU_F_N, E1NPU_F_K, E1NPU_F_C_IN, E1NPU_F_C_OUT,
	E1NPU_F_OUT_H, E1NPU_F_OUT_W, E1NPU_F_STRIDE_H, E1NPU_F_STRIDE_W,
	E1NPU_F_PAD_TOP, E1NPU_F_PAD_LEFT, E1NPU_F_DILATION, E1NPU_F_COUNT
};

static const char * const e1npu_field_names[E1NPU_F_COUNT] = {
	"m", "n", "k", "c_in", "c_out", "out_h", "out_w", "stride_h",
	"stride_w", "pad_top", "pad_left", "dilation",
};

static const char * const e1npu_tensor_names[E1NPU_T_COUNT][4] = {
	{ "a", "a.handle", "a.stride", "a.offset" },
	{ "b", "b.handle", "b.stride", "b.offset" },
	{ "c", "c.handle", "c.stride", "c.offset" },
};

static void e1npu_op_fields(const struct e1npu_hw_op *op,
			    u32 v[E1NPU_F_COUNT])
{
	v[E1NPU_F_M] = op->m;
	v[E1NPU_F_N] = op->n;
	v[E1NPU_F_K] = op->k;
	v[E1NPU_F_C_IN] = op->c_in;
	v[E1NPU_F_C_OUT] = op->c_out;
	v[E1NPU_F_OUT_H] = op->out_h;
	v[E1NPU_F_OUT_W] = op->out_w;
	v[E1NPU_F_STRIDE_H] = op->stride_h;
	v[E1NPU_F_STRIDE_W] = op->stride_w;
	v[E1NPU_F_PAD_TOP] = op->pad_top;
	v[E1NPU_F_PAD_LEFT] = op->pad_left;
	v[E1NPU_F_DILATION] = op->dilation;
}

const struct e1npu_hw_tensor *
e1npu_op_tensor(const struct e1npu_hw_op *op, unsigned int t)
{
	return t == E1NPU_T_A ? &op->a : t == E1NPU_T_B ? &op->b : &op->c;
}
EXPORT_SYMBOL_IF_KUNIT(e1npu_op_tensor);

/* How an opcode uses the operation's fields. */
struct e1npu_op_shape {
	u32 fields;	/* E1NPU_F_* used */
	u32 tensors;	/* E1NPU_T_* used */
	u32 strided;	/* E1NPU_T_* whose stride is used */
	u32 written;	/* E1NPU_T_* written */
	u32 flags;	/* E1NPU_HWOP_FLAG_* accepted */
};

#define F(x)	E1NPU_BIT(E1NPU_F_##x)
#define T(x)	E1NPU_BIT(E1NPU_T_##x)

static int e1npu_op_shape(u32 opcode, struct e1npu_op_shape *s)
{
	memset(s, 0, sizeof(*s));
	switch (opcode) {
	case E1NPU_HWOP_NOP:
	case E1NPU_HWOP_BARRIER:
	case E1NPU_HWOP_FALLBACK:
		break;
	case E1NPU_HWOP_MATMUL_S8:
		s->fields = F(M) | F(N) | F(K);
		s->tensors = T(A) | T(B) | T(C);
		s->flags = E1NPU_HWOP_FLAG_RELU;
		break;
	case E1NPU_HWOP_CONV2D_S8:
		s->fields = E1NPU_BIT(E1NPU_F_COUNT) - 1;
		s->tensors = T(A) | T(B) | T(C);
		s->flags = E1NPU_HWOP_FLAG_RELU;
		break;
	case E1NPU_HWOP_RELU_S8:
		s->fields = F(M) | F(N);
		s->tensors = T(A) | T(C);
		break;
	case E1NPU_HWOP_MAXPOOL_S8:
		s->fields = F(M) | F(N) | F(K) | F(C_IN) | F(STRIDE_H);
		s->tensors = T(A) | T(C);
		break;
	case E1NPU_HWOP_DP_SCALAR:
		s->fields = F(M) | F(K);
		s->tensors = T(A) | T(C);
		s->flags = E1NPU_HWOP_FLAG_TERNARY;
		break;
	case E1NPU_HWOP_DP_GEMM_S8:
	case E1NPU_HWOP_DP_GEMM_S4:
		s->fields = F(M) | F(N) | F(K);
		s->tensors = T(A) | T(B) | T(C);
		break;
	case E1NPU_HWOP_DP_VRELU_S8:
		s->fields = F(N);
		s->tensors = T(A) | T(C);
		break;
	default:
		return -EINVAL;
	}
	s->strided = s->tensors;
	if (opcode == E1NPU_HWOP_DP_SCALAR ||
	    opcode == E1NPU_HWOP_DP_VRELU_S8)
		s->strided = 0;
	s->written = s->tensors & T(C);
	return 0;
}

#undef F
#undef T

/* Rows and bytes per row of each tensor; stride counted in @unit halves. */
struct e1npu_geom {
	u64 rows[E1NPU_T_COUNT];
	u64 row_len[E1NPU_T_COUNT];	/* in elements of the stride unit */
	bool nibbles[E1NPU_T_COUNT];	/* stride/row_len count int4 */
};

static int e1npu_op_geom(const struct e1npu_hw_op *op, struct e1npu_geom *g,
			 struct e1npu_op_err *err)
{
	u64 kk;

	memset(g, 0, sizeof(*g));
	switch (op->opcode) {
	case E1NPU_HWOP_MATMUL_S8:
	case E1NPU_HWOP_DP_GEMM_S8:
	case E1NPU_HWOP_DP_GEMM_S4:
		g->rows[E1NPU_T_A] = op->m;
		g->row_len[E1NPU_T_A] = op->k;
		g->rows[E1NPU_T_B] = op->k;
		g->row_len[E1NPU_T_B] = op->n;
		g->rows[E1NPU_T_C] = op->m;
		g->row_len[E1NPU_T_C] = 4ULL * op->n;
		if (op->opcode == E1NPU_HWOP_DP_GEMM_S4) {
			g->nibbles[E1NPU_T_A] = true;
			g->nibbles[E1NPU_T_B] = true;
		}
		break;
	case E1NPU_HWOP_CONV2D_S8:
		/*
		 * k * k * c_in and 4 * out_w * c_out can pass 64 bits when the
		 * shape is not validated yet (e1npu_op_extents() alone).
		 */
		kk = (u64)op->k * op->k;
		g->rows[E1NPU_T_A] = op->m;
		g->row_len[E1NPU_T_A] = (u64)op->n * op->c_in;
		if (check_mul_overflow(kk, (u64)op->c_in, &g->rows[E1NPU_T_B]))
			return e1npu_fail(err, -EOVERFLOW, "c_in", op->c_in,
					  "tensor extent overflows");
		g->row_len[E1NPU_T_B] = op->c_out;
		g->rows[E1NPU_T_C] = op->out_h;
		if (check_mul_overflow(4ULL * op->out_w, (u64)op->c_out,
				       &g->row_len[E1NPU_T_C]))
			return e1npu_fail(err, -EOVERFLOW, "c_out", op->c_out,
					  "tensor extent overflows");
		break;
	case E1NPU_HWOP_RELU_S8:
		g->rows[E1NPU_T_A] = op->m;
		g->row_len[E1NPU_T_A] = op->n;
		g->rows[E1NPU_T_C] = op->m;
		g->row_len[E1NPU_T_C] = op->n;
		break;
	case E1NPU_HWOP_MAXPOOL_S8:
		if (!op->stride_h || !op->k)
			return e1npu_fail(err, -EINVAL, !op->k ? "k" : "stride_h",
					  0, "zero dimension");
		if (op->m < op->k || op->n < op->k)
			return e1npu_fail(err, -ERANGE, op->m < op->k ? "m" : "n",
					  op->m < op->k ? op->m : op->n,
					  "input smaller than the pool window");
		g->rows[E1NPU_T_A] = op->m;
		g->row_len[E1NPU_T_A] = (u64)op->n * op->c_in;
		g->rows[E1NPU_T_C] = (op->m - op->k) / op->stride_h + 1;
		g->row_len[E1NPU_T_C] = (u64)((op->n - op->k) / op->stride_h + 1) *
					op->c_in;
		break;
	case E1NPU_HWOP_DP_SCALAR:
		g->rows[E1NPU_T_A] = 1;
		g->row_len[E1NPU_T_A] = (u64)op->m * E1NPU_DP_SCALAR_IN_BYTES;
		g->rows[E1NPU_T_C] = 1;
		g->row_len[E1NPU_T_C] = (u64)op->m * E1NPU_DP_SCALAR_OUT_BYTES;
		break;
	case E1NPU_HWOP_DP_VRELU_S8:
		g->rows[E1NPU_T_A] = 1;
		g->row_len[E1NPU_T_A] = op->n;
		g->rows[E1NPU_T_C] = 1;
		g->row_len[E1NPU_T_C] = op->n;
		break;
	default:
		break;
	}
	return 0;
}

/**
 * e1npu_op_extents() - the exact bytes each tensor of an operation touches
 * @op: the operation (its shape need not be validated yet)
 * @ext: per tensor slot (E1NPU_T_A/B/C): used, written, [start, end)
 * @err: filled on failure, may be NULL
 *
 * Row r of a tensor starts at offset + r * stride and holds the packed row
 * of the operation; for DP_GEMM_S4 a and b, stride and row length count
 * int4 elements (low nibble first) and the extent is rounded up to bytes.
 *
 * Return: 0, -EINVAL for an unknown opcode or zero dimension, or
 * -EOVERFLOW when an extent does not fit in 64 bits.
 */
int e1npu_op_extents(const struct e1npu_hw_op *op,
		     struct e1npu_extent ext[E1NPU_T_COUNT],
		     struct e1npu_op_err *err)
{
	struct e1npu_op_shape s;
	struct e1npu_geom g;
	unsigned int t;
	int ret;

	if (e1npu_op_shape(op->opcode, &s))
		return e1npu_fail(err, -EINVAL, "opcode", op->opcode,
				  "unknown opcode");
	ret = e1npu_op_geom(op, &g, err);
	if (ret)
		return ret;

	for (t = 0; t < E1NPU_T_COUNT; t++) {
		const struct e1npu_hw_tensor *tn = e1npu_op_tensor(op, t);
		u64 span, stride, end;

		ext[t].used = (s.tensors & E1NPU_BIT(t)) != 0;
		ext[t].write = (s.written & E1NPU_BIT(t)) != 0;
		ext[t].start = 0;
		ext[t].end = 0;
		if (!ext[t].used)
			continue;
		if (!g.rows[t] || !g.row_len[t])
			return e1npu_fail(err, -EINVAL, e1npu_tensor_names[t][0],
					  0, "zero dimension");
		stride = (s.strided & E1NPU_BIT(t)) ? tn->stride : 0;
		/* span = (rows - 1) * stride + row_len, in stride units */
		if (check_mul_overflow(g.rows[t] - 1, stride, &span) ||
		    check_add_overflow(span, g.row_len[t], &span))
			return e1npu_fail(err, -EOVERFLOW,
					  e1npu_tensor_names[t][2], tn->stride,
					  "tensor extent overflows");
		if (g.nibbles[t])
			span = span / 2 + (span & 1);
		if (check_add_overflow(tn->offset, span, &end))
			return e1npu_fail(err, -EOVERFLOW,
					  e1npu_tensor_names[t][3], tn->offset,
					  "tensor extent overflows");
		ext[t].start = tn->offset;
		ext[t].end = end;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(e1npu_op_extents);

static int e1npu_check_range(u32 v, u32 lo, u32 hi, const char *field,
			     struct e1npu_op_err *err)
{
	if (!v && lo)
		return e1npu_fail(err, -EINVAL, field, v, "zero dimension");
	if (v < lo || v > hi)
		return e1npu_fail(err, -ERANGE, field, v,
				  "outside the validated envelope");
	return 0;
}

static int e1npu_check_set(u32 v, u32 set, const char *field,
			   struct e1npu_op_err *err)
{
	if (!v)
		return e1npu_fail(err, -EINVAL, field, v, "zero dimension");
	if (v >= 32 || !(set & E1NPU_BIT(v)))
		return e1npu_fail(err, -ERANGE, field, v,
				  "not a value the hardware supports");
	return 0;
}

static int e1npu_check_wrapper_shape(const struct e1npu_hw_op *op,
				     const struct e1npu_limits *lim,
				     struct e1npu_op_err *err)
{
	int ret = 0;
	u64 reach;

	switch (op->opcode) {
	case E1NPU_HWOP_MATMUL_S8:
		ret = e1npu_check_range(op->m, 1, lim->max_matmul_mn, "m", err) ?:
		      e1npu_check_range(op->n, 1, lim->max_matmul_mn, "n", err) ?:
		      e1npu_check_range(op->k, 1, lim->max_matmul_k, "k", err);
		break;
	case E1NPU_HWOP_CONV2D_S8:
		ret = e1npu_check_range(op->m, 1, lim->max_conv_hw, "m", err) ?:
		      e1npu_check_range(op->n, 1, lim->max_conv_hw, "n", err) ?:
		      e1npu_check_range(op->c_in, 1, lim->max_conv_c, "c_in", err) ?:
		      e1npu_check_range(op->c_out, 1, lim->max_conv_c, "c_out", err) ?:
		      e1npu_check_set(op->k, lim->conv_kernels, "k", err) ?:
		      e1npu_check_range(op->out_h, 1, lim->max_conv_hw, "out_h", err) ?:
		      e1npu_check_range(op->out_w, 1, lim->max_conv_hw, "out_w", err) ?:
		      e1npu_check_set(op->stride_h, lim->conv_strides, "stride_h", err) ?:
		      e1npu_check_set(op->stride_w, lim->conv_strides, "stride_w", err) ?:
		      e1npu_check_range(op->pad_top, 0, lim->max_conv_pad, "pad_top", err) ?:
		      e1npu_check_range(op->pad_left, 0, lim->max_conv_pad, "pad_left", err) ?:
		      e1npu_check_range(op->dilation, 1, lim->max_conv_dilation,
					"dilation", err);
		if (ret)
			break;
		/* Every window starts on a real or top/left-padded pixel. */
		reach = (u64)(op->out_h - 1) * op->stride_h;
		if (reach > (u64)op->m - 1 + op->pad_top)
			return e1npu_fail(err, -ERANGE, "out_h", op->out_h,
					  "output rows start past the input");
		reach = (u64)(op->out_w - 1) * op->stride_w;
		if (reach > (u64)op->n - 1 + op->pad_left)
			return e1npu_fail(err, -ERANGE, "out_w", op->out_w,
					  "output columns start past the input");
		break;
	case E1NPU_HWOP_RELU_S8:
		ret = e1npu_check_range(op->m, 1, lim->max_relu_mn, "m", err) ?:
		      e1npu_check_range(op->n, 1, lim->max_relu_mn, "n", err);
		break;
	case E1NPU_HWOP_MAXPOOL_S8:
		ret = e1npu_check_range(op->m, 1, lim->max_conv_hw, "m", err) ?:
		      e1npu_check_range(op->n, 1, lim->max_conv_hw, "n", err) ?:
		      e1npu_check_range(op->c_in, 1, lim->max_conv_c, "c_in", err) ?:
		      e1npu_check_set(op->k, lim->pool_windows, "k", err) ?:
		      e1npu_check_set(op->stride_h, lim->pool_strides, "stride_h", err);
		if (ret)
			break;
		if (op->m < op->k || op->n < op->k)
			return e1npu_fail(err, -ERANGE, op->m < op->k ? "m" : "n",
					  op->m < op->k ? op->m : op->n,
					  "input smaller than the pool window");
		break;
	default:
		break;
	}
	return ret;
}

static int e1npu_check_dp_shape(const struct e1npu_hw_op *op,
				struct e1npu_op_err *err)
{
	int ret = 0;

	switch (op->opcode) {
	case E1NPU_HWOP_DP_SCALAR:
		ret = e1npu_check_range(op->m, 1, E1NPU_DP_MAX_SCALARS, "m", err);
		if (ret)
			break;
		if (op->k >= E1_DP_OP_COUNT || op->k == E1_DP_OP_GEMM_S8 ||
		    op->k == E1_DP_OP_GEMM_S4 || op->k == E1_DP_OP_VRELU_S8)
			return e1npu_fail(err, -EINVAL, "k", op->k,
					  "not a scalar datapath opcode");
		if ((op->flags & E1NPU_HWOP_FLAG_TERNARY) &&
		    op->k != E1_DP_OP_DOT16_S2)
			return e1npu_fail(err, -EINVAL, "flags", op->flags,
					  "ternary is only valid with DOT16_S2");
		break;
	case E1NPU_HWOP_DP_GEMM_S8:
	case E1NPU_HWOP_DP_GEMM_S4:
		ret = e1npu_check_range(op->m, 1, E1_DP_GEMM_MAX_M, "m", err) ?:
		      e1npu_check_range(op->n, 1, E1_DP_GEMM_MAX_N, "n", err) ?:
		      e1npu_check_range(op->k, 1, E1_DP_GEMM_MAX_K, "k", err);
		break;
	case E1NPU_HWOP_DP_VRELU_S8:
		ret = e1npu_check_range(op->n, 1, E1NPU_DP_VRELU_MAX, "n", err);
		break;
	default:
		break;
	}
	return ret;
}

/**
 * e1npu_op_check() - validate one operation of a job
 * @op: the operation, as copied from userspace
 * @engine: the job's engine (enum drm_e1npu_engine)
 * @lim: the device's limits
 * @lookup: resolves a handle of the submitting file to its size
 * @ctx: passed to @lookup
 * @err: filled with the offending field, value and reason; may be NULL
 *
 * Checks, in this order: opcode, engine, flags, unused fields zero, shape
 * (zero dimension, envelope), strides against their rows, alignment,
 * handles, and that every byte of every tensor lies inside its buffer.
 *
 * Return: 0 or a negative errno (see the top of this file).
 */
int e1npu_op_check(const struct e1npu_hw_op *op, u32 engine,
		   const struct e1npu_limits *lim, e1npu_lookup_fn lookup,
		   void *ctx, struct e1npu_op_err *err)
{
	struct e1npu_extent ext[E1NPU_T_COUNT];
	struct e1npu_op_shape s;
	struct e1npu_geom g;
	u32 v[E1NPU_F_COUNT];
	unsigned int i, t;
	int op_engine, ret, lret;

	op_engine = e1npu_op_engine(op->opcode);
	if (op_engine < 0 || e1npu_op_shape(op->opcode, &s))
		return e1npu_fail(err, -EINVAL, "opcode", op->opcode,
				  "unknown opcode");
	if ((u32)op_engine != engine)
		return e1npu_fail(err, -EINVAL, "opcode", op->opcode,
				  "opcode does not belong to the job's engine");
	if (engine >= 32 || !(lim->engines & E1NPU_BIT(engine)))
		return e1npu_fail(err, -ENODEV, "engine", engine,
				  "engine not present");
	if (op->flags & ~(u32)E1NPU_HWOP_FLAGS_ALL)
		return e1npu_fail(err, -EINVAL, "flags", op->flags,
				  "unknown flag");
	if (op->flags & ~s.flags)
		return e1npu_fail(err, -EINVAL, "flags", op->flags,
				  "flag not valid for this opcode");

	e1npu_op_fields(op, v);
	for (i = 0; i < E1NPU_F_COUNT; i++)
		if (!(s.fields & E1NPU_BIT(i)) && v[i])
			return e1npu_fail(err, -EINVAL, e1npu_field_names[i],
					  v[i], "must be zero for this opcode");
	for (t = 0; t < E1NPU_T_COUNT; t++) {
		const struct e1npu_hw_tensor *tn = e1npu_op_tensor(op, t);

		if (!(s.tensors & E1NPU_BIT(t))) {
			if (tn->handle)
				return e1npu_fail(err, -EINVAL,
						  e1npu_tensor_names[t][1],
						  tn->handle,
						  "must be zero for this opcode");
			if (tn->offset)
				return e1npu_fail(err, -EINVAL,
						  e1npu_tensor_names[t][3],
						  tn->offset,
						  "must be zero for this opcode");
		}
		if (!(s.strided & E1NPU_BIT(t)) && tn->stride)
			return e1npu_fail(err, -EINVAL, e1npu_tensor_names[t][2],
					  tn->stride,
					  "must be zero for this opcode");
	}

	if (engine == DRM_E1NPU_ENGINE_WRAPPER)
		ret = e1npu_check_wrapper_shape(op, lim, err);
	else
		ret = e1npu_check_dp_shape(op, err);
	if (ret)
		return ret;

	ret = e1npu_op_geom(op, &g, err);
	if (ret)
		return ret;

	/* Strides and alignment. */
	for (t = 0; t < E1NPU_T_COUNT; t++) {
		const struct e1npu_hw_tensor *tn = e1npu_op_tensor(op, t);
		u32 align;

		if (!(s.tensors & E1NPU_BIT(t)))
			continue;
		if ((s.strided & E1NPU_BIT(t)) && tn->stride < g.row_len[t])
			return e1npu_fail(err, -EINVAL, e1npu_tensor_names[t][2],
					  tn->stride, "stride shorter than its row");
		if (engine == DRM_E1NPU_ENGINE_WRAPPER) {
			align = lim->align;
			if (tn->stride % align)
				return e1npu_fail(err, -EINVAL,
						  e1npu_tensor_names[t][2],
						  tn->stride,
						  "stride not a multiple of the alignment");
		} else {
			/*
			 * Scalar records and the int32 output of a GEMM tile
			 * are read/written as words; int8 data (GEMM inputs,
			 * VRELU) is staged byte by byte.
			 */
			bool words = op->opcode == E1NPU_HWOP_DP_SCALAR ||
				     (t == E1NPU_T_C &&
				      op->opcode != E1NPU_HWOP_DP_VRELU_S8);

			align = words ? E1NPU_DP_ALIGN : 1;
			if ((s.strided & E1NPU_BIT(t)) && words &&
			    tn->stride % E1NPU_DP_ALIGN)
				return e1npu_fail(err, -EINVAL,
						  e1npu_tensor_names[t][2],
						  tn->stride,
						  "stride not a multiple of the alignment");
		}
		if (tn->offset % align)
			return e1npu_fail(err, -EINVAL, e1npu_tensor_names[t][3],
					  tn->offset,
					  "offset not a multiple of the alignment");
	}

	ret = e1npu_op_extents(op, ext, err);
	if (ret)
		return ret;

	for (t = 0; t < E1NPU_T_COUNT; t++) {
		const struct e1npu_hw_tensor *tn = e1npu_op_tensor(op, t);
		u64 size = 0;

		if (!ext[t].used)
			continue;
		lret = tn->handle && lookup ? lookup(ctx, tn->handle, &size) :
					      -ENOENT;
		if (lret == -EINVAL)
			return e1npu_fail(err, -EINVAL, e1npu_tensor_names[t][1],
					  tn->handle,
					  "a buffer the NPU cannot address (host memory)");
		if (lret)
			return e1npu_fail(err, -ENOENT, e1npu_tensor_names[t][1],
					  tn->handle, "unknown buffer handle");
		if (ext[t].end > size)
			return e1npu_fail(err, -EOVERFLOW,
					  e1npu_tensor_names[t][0], ext[t].end,
					  "tensor passes the end of its buffer");
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(e1npu_op_check);

static void e1npu_desc_tensor(u32 desc[E1_V0_DESC_WORDS], unsigned int lo,
			      unsigned int stride_word, u64 addr, u32 stride)
{
	desc[lo] = (u32)addr;
	desc[lo + 1] = (u32)(addr >> 32);
	desc[stride_word] = stride;
}

/**
 * e1npu_op_encode() - wrapper descriptor of one validated operation
 * @op: the operation, validated by e1npu_op_check()
 * @dev_addr: device address of tensors a, b, c (buffer base + offset);
 *	unused slots are ignored
 * @tag: word 15, reported back in COMPLETION_TAG
 * @desc: the 16 descriptor words
 *
 * irq_on_complete is never set here: the caller sets it on the last
 * descriptor of a job with e1npu_desc_set_irq().
 *
 * Return: 0, or -EINVAL when @op is not a wrapper operation.
 */
int e1npu_op_encode(const struct e1npu_hw_op *op, const u64 dev_addr[E1NPU_T_COUNT],
		    u32 tag, u32 desc[E1_V0_DESC_WORDS])
{
	bool relu = (op->flags & E1NPU_HWOP_FLAG_RELU) != 0;
	u32 opc, flags = E1_V0_FLAG_SIGNED_INPUT;

	memset(desc, 0, E1_V0_DESC_SIZE);
	switch (op->opcode) {
	case E1NPU_HWOP_NOP:
		opc = E1_V0_OP_NOP;
		flags = 0;
		break;
	case E1NPU_HWOP_BARRIER:
		opc = E1_V0_OP_BARRIER;
		flags = 0;
		break;
	case E1NPU_HWOP_FALLBACK:
		opc = E1_V0_OP_FALLBACK;
		flags = 0;
		break;
	case E1NPU_HWOP_MATMUL_S8:
		opc = relu ? E1_V0_OP_MATMUL_S8_RELU : E1_V0_OP_MATMUL_S8;
		desc[E1_V0_DW_SHAPE_M] = op->m;
		desc[E1_V0_DW_SHAPE_N] = op->n;
		desc[E1_V0_DW_SHAPE_K] = op->k;
		break;
	case E1NPU_HWOP_CONV2D_S8:
		opc = relu ? E1_V0_OP_CONV2D_S8_RELU : E1_V0_OP_CONV2D_S8;
		desc[E1_V0_DW_SHAPE_M] = E1_FIELD_PREP(E1_V0_SHAPE_LO, op->m) |
					 E1_FIELD_PREP(E1_V0_SHAPE_HI, op->n);
		desc[E1_V0_DW_SHAPE_N] = E1_FIELD_PREP(E1_V0_SHAPE_LO, op->c_in) |
					 E1_FIELD_PREP(E1_V0_SHAPE_HI, op->c_out);
		desc[E1_V0_DW_SHAPE_K] = op->k;
		desc[E1_V0_DW_CONV_PARAMS] =
			E1_FIELD_PREP(E1_V0_CONV_STRIDE_H, op->stride_h) |
			E1_FIELD_PREP(E1_V0_CONV_STRIDE_W, op->stride_w) |
			E1_FIELD_PREP(E1_V0_CONV_PAD_H, op->pad_top) |
			E1_FIELD_PREP(E1_V0_CONV_PAD_W, op->pad_left) |
			E1_FIELD_PREP(E1_V0_CONV_DILATION, op->dilation);
		desc[E1_V0_DW_POOL_PARAMS] =
			E1_FIELD_PREP(E1_V0_SHAPE_LO, op->out_h) |
			E1_FIELD_PREP(E1_V0_SHAPE_HI, op->out_w);
		break;
	case E1NPU_HWOP_RELU_S8:
		opc = E1_V0_OP_RELU;
		desc[E1_V0_DW_SHAPE_M] = op->m;
		desc[E1_V0_DW_SHAPE_N] = op->n;
		break;
	case E1NPU_HWOP_MAXPOOL_S8:
		opc = E1_V0_OP_MAXPOOL_S8;
		desc[E1_V0_DW_SHAPE_M] = E1_FIELD_PREP(E1_V0_SHAPE_LO, op->m) |
					 E1_FIELD_PREP(E1_V0_SHAPE_HI, op->n);
		desc[E1_V0_DW_SHAPE_N] = E1_FIELD_PREP(E1_V0_SHAPE_LO, op->c_in);
		desc[E1_V0_DW_POOL_PARAMS] =
			E1_FIELD_PREP(E1_V0_POOL_WIN_H, op->k) |
			E1_FIELD_PREP(E1_V0_POOL_WIN_W, op->k) |
			E1_FIELD_PREP(E1_V0_POOL_STRIDE, op->stride_h);
		break;
	default:
		return -EINVAL;
	}

	if (op->opcode == E1NPU_HWOP_MATMUL_S8 ||
	    op->opcode == E1NPU_HWOP_CONV2D_S8)
		e1npu_desc_tensor(desc, E1_V0_DW_B_LO, E1_V0_DW_B_STRIDE,
				  dev_addr[E1NPU_T_B], op->b.stride);
	if (flags) {
		e1npu_desc_tensor(desc, E1_V0_DW_A_LO, E1_V0_DW_A_STRIDE,
				  dev_addr[E1NPU_T_A], op->a.stride);
		e1npu_desc_tensor(desc, E1_V0_DW_C_LO, E1_V0_DW_C_STRIDE,
				  dev_addr[E1NPU_T_C], op->c.stride);
	}
	desc[E1_V0_DW_OP] = E1_FIELD_PREP(E1_V0_DESC_OP, opc) | flags;
	desc[E1_V0_DW_TAG] = tag;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(e1npu_op_encode);

/**
 * e1npu_desc_set_irq() - request the completion interrupt for a descriptor
 * @desc: descriptor words
 */
void e1npu_desc_set_irq(u32 desc[E1_V0_DESC_WORDS])
{
	desc[E1_V0_DW_OP] |= E1_V0_FLAG_IRQ_ON_COMPLETE;
}
EXPORT_SYMBOL_IF_KUNIT(e1npu_desc_set_irq);

/**
 * e1npu_desc_make_nop() - turn a descriptor into a NOP, keeping its tag
 * @desc: descriptor words
 * @irq_on_complete: keep (or set) the completion interrupt
 *
 * Used by the CPU-fallback path to skip the rest of a failed job.
 */
void e1npu_desc_make_nop(u32 desc[E1_V0_DESC_WORDS], bool irq_on_complete)
{
	u32 tag = desc[E1_V0_DW_TAG];

	memset(desc, 0, E1_V0_DESC_SIZE);
	desc[E1_V0_DW_OP] = E1_FIELD_PREP(E1_V0_DESC_OP, E1_V0_OP_NOP);
	if (irq_on_complete)
		e1npu_desc_set_irq(desc);
	desc[E1_V0_DW_TAG] = tag;
}
EXPORT_SYMBOL_IF_KUNIT(e1npu_desc_make_nop);

/* ---------------------------------------------------------------------- */
/* Datapath execution                                                     */
/* ---------------------------------------------------------------------- */

/* ---------------------------------------------------------------------- */
/* Commands: the hardware formats userspace submits                       */
/* ---------------------------------------------------------------------- */

/**
 * e1npu_cmd_size() - bytes of one command of an engine
 * @engine: enum drm_e1npu_engine
 *
 * Return: the size, or -EINVAL for an unknown engine.
 */
int e1npu_cmd_size(u32 engine)
{
	switch (engine) {
	case DRM_E1NPU_ENGINE_WRAPPER:
		return DRM_E1NPU_WRAPPER_CMD_SIZE;
	case DRM_E1NPU_ENGINE_DATAPATH:
		return sizeof(struct drm_e1npu_dp_cmd);
	default:
		return -EINVAL;
	}
}
EXPORT_SYMBOL_IF_KUNIT(e1npu_cmd_size);

/**
 * e1npu_op_tensors() - the tensors an opcode uses
 * @opcode: enum e1npu_hw_opcode
 *
 * Return: BIT(E1NPU_T_*) of each tensor used, 0 for none or an unknown
 * opcode.
 */
u32 e1npu_op_tensors(u32 opcode)
{
	struct e1npu_op_shape s;

	if (e1npu_op_shape(opcode, &s))
		return 0;
	return s.tensors;
}
EXPORT_SYMBOL_IF_KUNIT(e1npu_op_tensors);

/* The datapath command of a validated datapath operation. */
void e1npu_dp_cmd_encode(const struct e1npu_hw_op *op,
			 struct drm_e1npu_dp_cmd *c)
{
	memset(c, 0, sizeof(*c));
	c->count = 1;
	switch (op->opcode) {
	case E1NPU_HWOP_DP_SCALAR:
		c->opcode = op->k;
		c->count = op->m;
		if (op->flags & E1NPU_HWOP_FLAG_TERNARY)
			c->param = E1_DP_CMD_TERNARY;
		break;
	case E1NPU_HWOP_DP_GEMM_S8:
	case E1NPU_HWOP_DP_GEMM_S4:
		c->opcode = op->opcode == E1NPU_HWOP_DP_GEMM_S8 ?
			    E1_DP_OP_GEMM_S8 : E1_DP_OP_GEMM_S4;
		c->cfg = E1_FIELD_PREP(E1_DP_GEMM_CFG_M, op->m) |
			 E1_FIELD_PREP(E1_DP_GEMM_CFG_N, op->n) |
			 E1_FIELD_PREP(E1_DP_GEMM_CFG_K, op->k);
		break;
	case E1NPU_HWOP_DP_VRELU_S8:
		c->opcode = E1_DP_OP_VRELU_S8;
		c->cfg = E1_FIELD_PREP(E1_DP_VRELU_LEN, op->n);
		break;
	}
	c->stride[E1NPU_T_A] = op->a.stride;
	c->stride[E1NPU_T_B] = op->b.stride;
	c->stride[E1NPU_T_C] = op->c.stride;
}
EXPORT_SYMBOL_IF_KUNIT(e1npu_dp_cmd_encode);

static int e1npu_wrapper_decode(const u32 *w, struct e1npu_hw_op *op,
				struct e1npu_op_err *err)
{
	u32 desc[E1_V0_DESC_WORDS];
	const u64 zero[E1NPU_T_COUNT] = { 0 };
	unsigned int i;
	u32 opc = E1_FIELD_GET(E1_V0_DESC_OP, w[E1_V0_DW_OP]);

	memset(op, 0, sizeof(*op));
	switch (opc) {
	case E1_V0_OP_NOP:
		op->opcode = E1NPU_HWOP_NOP;
		break;
	case E1_V0_OP_BARRIER:
		op->opcode = E1NPU_HWOP_BARRIER;
		break;
	case E1_V0_OP_FALLBACK:
		op->opcode = E1NPU_HWOP_FALLBACK;
		break;
	case E1_V0_OP_MATMUL_S8:
	case E1_V0_OP_MATMUL_S8_RELU:
		if (opc == E1_V0_OP_MATMUL_S8_RELU)
			op->flags = E1NPU_HWOP_FLAG_RELU;
		op->opcode = E1NPU_HWOP_MATMUL_S8;
		op->m = w[E1_V0_DW_SHAPE_M];
		op->n = w[E1_V0_DW_SHAPE_N];
		op->k = w[E1_V0_DW_SHAPE_K];
		break;
	case E1_V0_OP_CONV2D_S8:
	case E1_V0_OP_CONV2D_S8_RELU:
		if (opc == E1_V0_OP_CONV2D_S8_RELU)
			op->flags = E1NPU_HWOP_FLAG_RELU;
		op->opcode = E1NPU_HWOP_CONV2D_S8;
		op->m = E1_FIELD_GET(E1_V0_SHAPE_LO, w[E1_V0_DW_SHAPE_M]);
		op->n = E1_FIELD_GET(E1_V0_SHAPE_HI, w[E1_V0_DW_SHAPE_M]);
		op->c_in = E1_FIELD_GET(E1_V0_SHAPE_LO, w[E1_V0_DW_SHAPE_N]);
		op->c_out = E1_FIELD_GET(E1_V0_SHAPE_HI, w[E1_V0_DW_SHAPE_N]);
		op->k = w[E1_V0_DW_SHAPE_K];
		op->stride_h = E1_FIELD_GET(E1_V0_CONV_STRIDE_H,
					    w[E1_V0_DW_CONV_PARAMS]);
		op->stride_w = E1_FIELD_GET(E1_V0_CONV_STRIDE_W,
					    w[E1_V0_DW_CONV_PARAMS]);
		op->pad_top = E1_FIELD_GET(E1_V0_CONV_PAD_H,
					   w[E1_V0_DW_CONV_PARAMS]);
		op->pad_left = E1_FIELD_GET(E1_V0_CONV_PAD_W,
					    w[E1_V0_DW_CONV_PARAMS]);
		op->dilation = E1_FIELD_GET(E1_V0_CONV_DILATION,
					    w[E1_V0_DW_CONV_PARAMS]);
		op->out_h = E1_FIELD_GET(E1_V0_SHAPE_LO, w[E1_V0_DW_POOL_PARAMS]);
		op->out_w = E1_FIELD_GET(E1_V0_SHAPE_HI, w[E1_V0_DW_POOL_PARAMS]);
		break;
	case E1_V0_OP_RELU:
		op->opcode = E1NPU_HWOP_RELU_S8;
		op->m = w[E1_V0_DW_SHAPE_M];
		op->n = w[E1_V0_DW_SHAPE_N];
		break;
	case E1_V0_OP_MAXPOOL_S8:
		op->opcode = E1NPU_HWOP_MAXPOOL_S8;
		op->m = E1_FIELD_GET(E1_V0_SHAPE_LO, w[E1_V0_DW_SHAPE_M]);
		op->n = E1_FIELD_GET(E1_V0_SHAPE_HI, w[E1_V0_DW_SHAPE_M]);
		op->c_in = E1_FIELD_GET(E1_V0_SHAPE_LO, w[E1_V0_DW_SHAPE_N]);
		op->k = E1_FIELD_GET(E1_V0_POOL_WIN_H, w[E1_V0_DW_POOL_PARAMS]);
		op->stride_h = E1_FIELD_GET(E1_V0_POOL_STRIDE,
					    w[E1_V0_DW_POOL_PARAMS]);
		break;
	default:
		return e1npu_fail(err, -EINVAL, "word 0 (op)", opc,
				  "not a v0 descriptor opcode");
	}
	if (e1npu_op_tensors(op->opcode) & E1NPU_BIT(E1NPU_T_A))
		op->a.stride = w[E1_V0_DW_A_STRIDE];
	if (e1npu_op_tensors(op->opcode) & E1NPU_BIT(E1NPU_T_B))
		op->b.stride = w[E1_V0_DW_B_STRIDE];
	if (e1npu_op_tensors(op->opcode) & E1NPU_BIT(E1NPU_T_C))
		op->c.stride = w[E1_V0_DW_C_STRIDE];

	/*
	 * Only the canonical encoding is accepted: a bit the rules do not
	 * know (reserved, a flag, an address, the tag, irq_on_complete) is
	 * refused rather than passed to the hardware.
	 */
	e1npu_op_encode(op, zero, 0, desc);
	for (i = 0; i < E1_V0_DESC_WORDS; i++) {
		static const char * const names[E1_V0_DESC_WORDS] = {
			"word 0 (op, flags)", "word 1 (shape m)",
			"word 2 (shape n)", "word 3 (shape k)",
			"word 4 (a address, kernel-owned)",
			"word 5 (a address, kernel-owned)",
			"word 6 (b address, kernel-owned)",
			"word 7 (b address, kernel-owned)",
			"word 8 (c address, kernel-owned)",
			"word 9 (c address, kernel-owned)",
			"word 10 (a stride)", "word 11 (b stride)",
			"word 12 (c stride)", "word 13 (conv params)",
			"word 14 (pool params)", "word 15 (tag, kernel-owned)",
		};

		if (w[i] != desc[i])
			return e1npu_fail(err, -EINVAL, names[i], w[i],
					  "bits the opcode does not define, or the kernel owns, are set");
	}
	return 0;
}

static int e1npu_dp_decode(const struct drm_e1npu_dp_cmd *c,
			   struct e1npu_hw_op *op, struct e1npu_op_err *err)
{
	struct drm_e1npu_dp_cmd canon;

	memset(op, 0, sizeof(*op));
	if (c->pad)
		return e1npu_fail(err, -EINVAL, "pad", c->pad, "must be zero");
	if (c->param & ~(u32)E1_DP_CMD_TERNARY)
		return e1npu_fail(err, -EINVAL, "param", c->param,
				  "only the ternary bit may be set");
	switch (c->opcode) {
	case E1_DP_OP_GEMM_S8:
	case E1_DP_OP_GEMM_S4:
		op->opcode = c->opcode == E1_DP_OP_GEMM_S8 ?
			     E1NPU_HWOP_DP_GEMM_S8 : E1NPU_HWOP_DP_GEMM_S4;
		op->m = E1_FIELD_GET(E1_DP_GEMM_CFG_M, c->cfg);
		op->n = E1_FIELD_GET(E1_DP_GEMM_CFG_N, c->cfg);
		op->k = E1_FIELD_GET(E1_DP_GEMM_CFG_K, c->cfg);
		break;
	case E1_DP_OP_VRELU_S8:
		op->opcode = E1NPU_HWOP_DP_VRELU_S8;
		op->n = E1_FIELD_GET(E1_DP_VRELU_LEN, c->cfg);
		if (!op->n)
			op->n = E1_DP_SCRATCH_BYTES;
		break;
	default:
		if (c->opcode >= E1_DP_OP_COUNT)
			return e1npu_fail(err, -EINVAL, "opcode", c->opcode,
					  "not a datapath opcode");
		op->opcode = E1NPU_HWOP_DP_SCALAR;
		op->k = c->opcode;
		op->m = c->count;
		if (c->param & E1_DP_CMD_TERNARY)
			op->flags = E1NPU_HWOP_FLAG_TERNARY;
		break;
	}
	op->a.stride = c->stride[E1NPU_T_A];
	op->b.stride = c->stride[E1NPU_T_B];
	op->c.stride = c->stride[E1NPU_T_C];
	e1npu_dp_cmd_encode(op, &canon);
	/* VRELU: a length field of 0 and of 64 are the same command. */
	if (op->opcode == E1NPU_HWOP_DP_VRELU_S8 &&
	    !(c->cfg & ~(u32)E1_DP_VRELU_LEN))
		canon.cfg = c->cfg;
	if (canon.cfg != c->cfg)
		return e1npu_fail(err, -EINVAL, "cfg", c->cfg,
				  "bits outside the opcode's GEMM_CFG fields are set");
	if (canon.count != c->count)
		return e1npu_fail(err, -EINVAL, "count", c->count,
				  "must be 1 for a GEMM or VRELU command");
	if (canon.param != c->param)
		return e1npu_fail(err, -EINVAL, "param", c->param,
				  "ternary is only valid for a scalar command");
	return 0;
}

/**
 * e1npu_cmd_decode() - the operation a command of @engine holds
 * @engine: enum drm_e1npu_engine
 * @cmd: the command: 16 u32 words (wrapper) or struct drm_e1npu_dp_cmd
 * @op: filled; tensor handles and offsets are 0 (see e1npu_cmd_reloc())
 * @err: why it was rejected
 *
 * Only what a command encodes is checked here (its format, reserved and
 * kernel-owned bits); e1npu_op_check() checks the operation once its
 * relocations are applied.
 *
 * Return: 0, or -EINVAL.
 */
int e1npu_cmd_decode(u32 engine, const void *cmd, struct e1npu_hw_op *op,
		     struct e1npu_op_err *err)
{
	if (engine == DRM_E1NPU_ENGINE_WRAPPER)
		return e1npu_wrapper_decode(cmd, op, err);
	if (engine == DRM_E1NPU_ENGINE_DATAPATH)
		return e1npu_dp_decode(cmd, op, err);
	return e1npu_fail(err, -EINVAL, "engine", engine, "unknown engine");
}
EXPORT_SYMBOL_IF_KUNIT(e1npu_cmd_decode);

/**
 * e1npu_cmd_reloc() - apply one relocation to the command it names
 * @ops: the job's commands, decoded
 * @seen: per command, BIT(field) of the relocations applied so far
 * @r: the relocation, copied from userspace
 * @cmd_count: entries of @ops and @seen; @r->cmd is checked against it
 *	before either is indexed
 * @err: why it was rejected
 *
 * Return: 0, or -EINVAL for a command or field out of range, a field the
 * command does not use, one given twice or a non-zero pad, -ENOENT for a
 * zero handle.
 */
int e1npu_cmd_reloc(struct e1npu_hw_op *ops, u32 *seen,
		    const struct drm_e1npu_reloc *r, u32 cmd_count,
		    struct e1npu_op_err *err)
{
	struct e1npu_hw_tensor *t;
	struct e1npu_hw_op *op;

	if (r->cmd >= cmd_count)
		return e1npu_fail(err, -EINVAL, "reloc.cmd", r->cmd,
				  "past the job's last command");
	op = &ops[r->cmd];
	seen += r->cmd;
	if (r->pad)
		return e1npu_fail(err, -EINVAL, "reloc.pad", r->pad,
				  "must be zero");
	if (r->field >= E1NPU_T_COUNT)
		return e1npu_fail(err, -EINVAL, "reloc.field", r->field,
				  "not a relocation field");
	if (!(e1npu_op_tensors(op->opcode) & E1NPU_BIT(r->field)))
		return e1npu_fail(err, -EINVAL, "reloc.field", r->field,
				  "the command has no such tensor");
	if (*seen & E1NPU_BIT(r->field))
		return e1npu_fail(err, -EINVAL, "reloc.field", r->field,
				  "relocated twice");
	if (!r->handle)
		return e1npu_fail(err, -ENOENT, "reloc.handle", 0,
				  "handle 0 names no buffer");
	*seen |= E1NPU_BIT(r->field);
	t = r->field == E1NPU_T_A ? &op->a :
	    r->field == E1NPU_T_B ? &op->b : &op->c;
	t->handle = r->handle;
	t->offset = r->offset;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(e1npu_cmd_reloc);

static u32 e1npu_get_le32(const u8 *p)
{
	return (u32)p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 | (u32)p[3] << 24;
}

static void e1npu_put_le32(u8 *p, u32 v)
{
	p[0] = (u8)v;
	p[1] = (u8)(v >> 8);
	p[2] = (u8)(v >> 16);
	p[3] = (u8)(v >> 24);
}

static u8 e1npu_get_nibble(const u8 *p, u64 n)
{
	return (n & 1) ? p[n / 2] >> 4 : p[n / 2] & 0xf;
}

static void e1npu_put_nibble(u8 *p, u64 n, u8 v)
{
	if (n & 1)
		p[n / 2] = (u8)((p[n / 2] & 0x0f) | (v << 4));
	else
		p[n / 2] = (u8)((p[n / 2] & 0xf0) | (v & 0xf));
}

/* Start the loaded command and wait for done or error. */
static int e1npu_dp_run(const struct e1npu_dp_io *io, u32 *hw_status)
{
	unsigned int i;
	u32 st = 0;

	bool hung;

	io->write(io->ctx, E1_DP_CTRL_STATUS, E1_DP_CTRL_START);
	if (io->wait) {
		hung = io->wait(io->ctx, &st) != 0;
	} else {
		for (i = 0; i < E1NPU_DP_POLL_MAX; i++) {
			st = io->read(io->ctx, E1_DP_CTRL_STATUS);
			if (!(st & E1_DP_STATUS_BUSY) &&
			    (st & (E1_DP_STATUS_DONE | E1_DP_STATUS_ERROR)))
				break;
		}
		hung = i == E1NPU_DP_POLL_MAX;
	}
	if (hw_status)
		*hw_status = st;
	/* Clear done and error: this also drops the datapath interrupt. */
	io->write(io->ctx, E1_DP_CTRL_STATUS, E1_DP_STATUS_DONE);
	if (hung)
		return -ETIMEDOUT;
	if (st & E1_DP_STATUS_ERROR)
		return -EIO;
	return 0;
}

static void e1npu_dp_load_scratch(const struct e1npu_dp_io *io,
				  const u8 scr[E1_DP_SCRATCH_BYTES])
{
	unsigned int i;

	for (i = 0; i < E1_DP_SCRATCH_WORDS; i++)
		io->write(io->ctx, E1_DP_SCRATCH(i), e1npu_get_le32(scr + 4 * i));
}

static void e1npu_dp_read_scratch(const struct e1npu_dp_io *io,
				  u8 scr[E1_DP_SCRATCH_BYTES])
{
	unsigned int i;

	for (i = 0; i < E1_DP_SCRATCH_WORDS; i++)
		e1npu_put_le32(scr + 4 * i, io->read(io->ctx, E1_DP_SCRATCH(i)));
}

static int e1npu_dp_scalar(const struct e1npu_dp_io *io,
			   const struct e1npu_hw_op *op, const u8 *a, u8 *c,
			   u32 *hw_status)
{
	u32 param = 0;
	u32 i;
	int ret;

	if (op->flags & E1NPU_HWOP_FLAG_TERNARY)
		param |= E1_DP_CMD_TERNARY;
	io->write(io->ctx, E1_DP_CMD_PARAM, param);
	io->write(io->ctx, E1_DP_OPCODE, op->k);
	for (i = 0; i < op->m; i++) {
		const u8 *in = a + (u64)i * E1NPU_DP_SCALAR_IN_BYTES;
		u8 *out = c + (u64)i * E1NPU_DP_SCALAR_OUT_BYTES;

		if (io->yield && i && !(i % E1NPU_DP_YIELD_RECORDS))
			io->yield(io->ctx);
		io->write(io->ctx, E1_DP_OP_A, e1npu_get_le32(in));
		io->write(io->ctx, E1_DP_OP_B, e1npu_get_le32(in + 4));
		io->write(io->ctx, E1_DP_ACC, e1npu_get_le32(in + 8));
		ret = e1npu_dp_run(io, hw_status);
		if (ret)
			return ret;
		e1npu_put_le32(out, io->read(io->ctx, E1_DP_RESULT));
		e1npu_put_le32(out + 4, io->read(io->ctx, E1_DP_RESULT_HI));
	}
	return 0;
}

/*
 * GEMM tile: A packed at scratch element 0 (stride k), B right after it
 * (stride n), C at byte 0 (stride 4n): the tile reads all inputs before it
 * writes (hardware contract 3.6), so C may overlap them and the largest
 * tile (3x3x7) fits in the 64-byte scratchpad.
 */
static int e1npu_dp_gemm(const struct e1npu_dp_io *io,
			 const struct e1npu_hw_op *op, const u8 *a,
			 const u8 *b, u8 *c, u32 *hw_status)
{
	bool s4 = op->opcode == E1NPU_HWOP_DP_GEMM_S4;
	u8 scr[E1_DP_SCRATCH_BYTES];
	u32 i, j, kk, boff = op->m * op->k;
	int ret;

	memset(scr, 0, sizeof(scr));
	for (i = 0; i < op->m; i++)
		for (kk = 0; kk < op->k; kk++) {
			u64 src = (u64)i * op->a.stride + kk;

			if (s4)
				e1npu_put_nibble(scr, i * op->k + kk,
						 e1npu_get_nibble(a, src));
			else
				scr[i * op->k + kk] = a[src];
		}
	for (kk = 0; kk < op->k; kk++)
		for (j = 0; j < op->n; j++) {
			u64 src = (u64)kk * op->b.stride + j;

			if (s4)
				e1npu_put_nibble(scr, boff + kk * op->n + j,
						 e1npu_get_nibble(b, src));
			else
				scr[boff + kk * op->n + j] = b[src];
		}
	e1npu_dp_load_scratch(io, scr);
	io->write(io->ctx, E1_DP_GEMM_CFG,
		  E1_FIELD_PREP(E1_DP_GEMM_CFG_M, op->m) |
		  E1_FIELD_PREP(E1_DP_GEMM_CFG_N, op->n) |
		  E1_FIELD_PREP(E1_DP_GEMM_CFG_K, op->k));
	io->write(io->ctx, E1_DP_GEMM_BASE,
		  E1_FIELD_PREP(E1_DP_GEMM_BASE_A, 0) |
		  E1_FIELD_PREP(E1_DP_GEMM_BASE_B, boff) |
		  E1_FIELD_PREP(E1_DP_GEMM_BASE_C, 0));
	io->write(io->ctx, E1_DP_GEMM_STRIDE,
		  E1_FIELD_PREP(E1_DP_GEMM_STRIDE_A, op->k) |
		  E1_FIELD_PREP(E1_DP_GEMM_STRIDE_B, op->n) |
		  E1_FIELD_PREP(E1_DP_GEMM_STRIDE_C, 4 * op->n));
	io->write(io->ctx, E1_DP_CMD_PARAM, 0);
	io->write(io->ctx, E1_DP_OPCODE,
		  s4 ? E1_DP_OP_GEMM_S4 : E1_DP_OP_GEMM_S8);
	ret = e1npu_dp_run(io, hw_status);
	if (ret)
		return ret;
	e1npu_dp_read_scratch(io, scr);
	for (i = 0; i < op->m; i++)
		for (j = 0; j < op->n; j++)
			memcpy(c + (u64)i * op->c.stride + 4 * j,
			       scr + 4 * (i * op->n + j), 4);
	return 0;
}

static int e1npu_dp_vrelu(const struct e1npu_dp_io *io,
			  const struct e1npu_hw_op *op, const u8 *a, u8 *c,
			  u32 *hw_status)
{
	u8 scr[E1_DP_SCRATCH_BYTES];
	int ret;

	memset(scr, 0, sizeof(scr));
	memcpy(scr, a, op->n);
	e1npu_dp_load_scratch(io, scr);
	io->write(io->ctx, E1_DP_GEMM_CFG,
		  E1_FIELD_PREP(E1_DP_VRELU_LEN, op->n & E1_DP_VRELU_LEN));
	io->write(io->ctx, E1_DP_GEMM_BASE,
		  E1_FIELD_PREP(E1_DP_VRELU_SRC, 0) |
		  E1_FIELD_PREP(E1_DP_VRELU_DST, 0));
	io->write(io->ctx, E1_DP_CMD_PARAM, 0);
	io->write(io->ctx, E1_DP_OPCODE, E1_DP_OP_VRELU_S8);
	ret = e1npu_dp_run(io, hw_status);
	if (ret)
		return ret;
	e1npu_dp_read_scratch(io, scr);
	memcpy(c, scr, op->n);
	return 0;
}

/**
 * e1npu_dp_exec() - run one validated datapath operation in direct mode
 * @io: register access to the datapath window
 * @op: the operation, validated by e1npu_op_check()
 * @a: host pointer to the first byte of tensor a (buffer + a.offset)
 * @b: host pointer to tensor b, NULL when unused
 * @c: host pointer to tensor c (written)
 * @hw_status: CTRL_STATUS of the last command, may be NULL
 *
 * Stages the scratchpad, programs GEMM_CFG/BASE/STRIDE, CMD_PARAM and
 * OPCODE, starts each command, waits for done or error and copies results
 * to @c. Leaves CTRL_STATUS done and error clear.
 *
 * Return: 0, -EIO when the datapath reported an error (status in
 * @hw_status; outputs of the failing command are not written),
 * -ETIMEDOUT when a command never completed, -EINVAL for a non-datapath op.
 */
int e1npu_dp_exec(const struct e1npu_dp_io *io, const struct e1npu_hw_op *op,
		  const u8 *a, const u8 *b, u8 *c, u32 *hw_status)
{
	if (hw_status)
		*hw_status = 0;
	switch (op->opcode) {
	case E1NPU_HWOP_DP_SCALAR:
		return e1npu_dp_scalar(io, op, a, c, hw_status);
	case E1NPU_HWOP_DP_GEMM_S8:
	case E1NPU_HWOP_DP_GEMM_S4:
		return e1npu_dp_gemm(io, op, a, b, c, hw_status);
	case E1NPU_HWOP_DP_VRELU_S8:
		return e1npu_dp_vrelu(io, op, a, c, hw_status);
	default:
		return -EINVAL;
	}
}
EXPORT_SYMBOL_IF_KUNIT(e1npu_dp_exec);
