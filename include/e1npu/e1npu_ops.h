/* SPDX-License-Identifier: MIT */
/*
 * libe1npu operations: high-level neural-network operations lowered onto the
 * e1 NPU's hardware operations (include/e1npu/e1npu.h), with per-operation
 * engine selection, CPU fallback and a report of where each ran and why.
 *
 * Conventions are those of e1npu.h: opaque handles (struct e1npu_ops,
 * struct e1npu_fc, struct e1npu_conv), e1npu_<object>_<verb> names, 0 or a
 * negative errno, never prints. A context (and the fc/conv objects made
 * from it) is used by one thread at a time; it owns one staging buffer and
 * one command buffer on its device. Parameter structs are plain data the
 * caller fills (memset first: reserved members must be zero).
 *
 * Quantization is TensorFlow Lite's integer-only scheme, bit-exact with
 * TFLite's reference kernels (Documentation/quantization.md). How every
 * operation lowers, on which engine and why: Documentation/lowering.md.
 *
 * Layouts: matrices row-major; images NHWC with N = 1 per call (loop over
 * the batch); conv weights HWIO [kh][kw][c_in/groups][c_out]; depthwise
 * weights [kh][kw][c_in * depth_multiplier] (TFLite's [1][kh][kw][c_out]);
 * fully-connected weights TFLite's [n][k] (output-major).
 */
#ifndef __E1NPU_PUBLIC_OPS_H__
#define __E1NPU_PUBLIC_OPS_H__

#include <stddef.h>
#include <stdint.h>

#include <e1npu/e1npu.h>

#ifdef __cplusplus
extern "C" {
#endif

struct e1npu_ops;
struct e1npu_fc;
struct e1npu_conv;

/* ---------------------------------------------------------------------- */
/* Context, engine selection and reports                                   */
/* ---------------------------------------------------------------------- */

/**
 * e1npu_ops_new() - a lowering context on @dev.
 * @dev: the device, or NULL for a CPU-only context (every operation then
 *	runs the library's CPU kernels and reports E1NPU_ENGINE_CPU).
 * @opsp: out: owned by the caller (one reference), to free with
 *	e1npu_ops_free(). The context holds @dev open (it owns a command
 *	buffer and a staging buffer of it): @dev may be closed first.
 * Return: 0, -EINVAL, -ENOMEM.
 */
int e1npu_ops_new(struct e1npu_device *dev, struct e1npu_ops **opsp);

/*
 * e1npu_ops_free() - drop the caller's reference (NULL: no-op). The
 * context, its buffers and its device go with the last reference: the
 * e1npu_fc and e1npu_conv objects made from it hold one each.
 */
void e1npu_ops_free(struct e1npu_ops *ops);

/**
 * e1npu_ops_last_error() - why the last failing call on @ops failed.
 * @ops: the context. Calls on an e1npu_fc or e1npu_conv made from it
 *	report here too; a failure of the device underneath is copied in
 *	with the device's own message ("device: ...").
 *
 * The context's one error channel: a failing call returns a negative
 * errno and leaves its reason here, naming the function and the argument
 * or condition (e.g. "e1npu_conv_new: invalid argument: !p->stride_h").
 * A successful call leaves it as it was. A call that fails before it has
 * a context (NULL @ops) has nowhere to write: only its errno tells.
 *
 * Return: a string owned by @ops, valid until the next call on it; ""
 *	when nothing failed yet. For a NULL @ops: why this thread's last
 *	e1npu_ops_new() failed (e.g. a bad E1NPU_OPS_LOWERING, named with
 *	its accepted values), else a static string.
 */
const char *e1npu_ops_last_error(const struct e1npu_ops *ops);

/**
 * enum e1npu_ops_kind - the high-level operations of this API.
 */
enum e1npu_ops_kind {
	E1NPU_OPS_MATMUL_S8 = 1,	/* raw int8 x int8 -> int32 */
	E1NPU_OPS_MATMUL_S4,		/* raw int4 x int4 -> int32 */
	E1NPU_OPS_MATMUL_S2,		/* raw int2 x int2 -> int32 */
	E1NPU_OPS_MATMUL_TERNARY,	/* raw ternary x ternary -> int32 */
	E1NPU_OPS_MATMUL_SPARSE_S4,	/* 2:4 sparse int4 weights */
	E1NPU_OPS_MATMUL_FP8,		/* FP8 E4M3 -> Q8.8 */
	E1NPU_OPS_MATMUL_FP16,		/* FP16 via Q8.8 */
	E1NPU_OPS_MATMUL_BF16,		/* BF16 via Q8.8 */
	E1NPU_OPS_MATMUL_GS_S4,		/* group-scaled int4 weights */
	E1NPU_OPS_BATCH_MATMUL,		/* [B,H,M,K] x [B,H,K,N] */
	E1NPU_OPS_FULLY_CONNECTED,	/* TFLite quantized */
	E1NPU_OPS_CONV2D,		/* TFLite quantized */
	E1NPU_OPS_DEPTHWISE_CONV2D,	/* TFLite quantized */
	E1NPU_OPS_GROUPED_CONV2D,	/* quantized, groups > 1 */
	E1NPU_OPS_MAXPOOL,
	E1NPU_OPS_AVGPOOL,		/* TFLite quantized */
	E1NPU_OPS_RELU,
	E1NPU_OPS_ADD,			/* TFLite quantized add */
	E1NPU_OPS_BIAS_ADD,
	E1NPU_OPS_SOFTMAX,		/* TFLite quantized (exact) */
	E1NPU_OPS_SOFTMAX_EXP2,		/* exp2 Q0.8 approximation */
	E1NPU_OPS_RESIDUAL_ADD,
	E1NPU_OPS_SILU,			/* exp2 piecewise approximation */
	E1NPU_OPS_QUICK_GELU,		/* exp2 piecewise approximation */
	E1NPU_OPS_RMSNORM,
	E1NPU_OPS_ROPE,
	E1NPU_OPS_ATTENTION_QK,
	E1NPU_OPS_ATTENTION_AV,
	E1NPU_OPS_ATTENTION,		/* multi-head, masks */
	E1NPU_OPS_QKV_PROJECTION,
	E1NPU_OPS_KV_CACHE_APPEND,
	E1NPU_OPS_DECODE_ATTENTION,
	E1NPU_OPS_MLP_RELU,
	E1NPU_OPS_SWIGLU,
	E1NPU_OPS_TRANSFORMER_BLOCK,
	E1NPU_OPS_DECODER_BLOCK,
	E1NPU_OPS_KIND_COUNT
};

/**
 * enum e1npu_ops_reason - why an operation went where it went.
 */
enum e1npu_ops_reason {
	E1NPU_OPS_WHY_BIG_GEMM = 1,	/* large GEMM/conv: systolic */
	E1NPU_OPS_WHY_SMALL_GEMM,	/* below the systolic threshold */
	E1NPU_OPS_WHY_ELEMENTWISE,	/* element-wise work the datapath has */
	E1NPU_OPS_WHY_NO_HW_OP,		/* no hardware operation computes it */
	E1NPU_OPS_WHY_NO_ENGINE,	/* the engine it needs is absent */
	E1NPU_OPS_WHY_NO_DEVICE,	/* CPU-only context */
	E1NPU_OPS_WHY_TOO_SMALL,	/* cheaper on the CPU than a job */
	E1NPU_OPS_WHY_FALLBACK,		/* hardware rejected it, CPU ran it */
	E1NPU_OPS_WHY_UNSUPPORTED,	/* parameters no engine supports */
};

/**
 * struct e1npu_ops_report - where one call ran and what it cost.
 * @kind: enum e1npu_ops_kind.
 * @engine: enum e1npu_engine that ran the MACs (or the bulk of the work).
 * @reason: enum e1npu_ops_reason.
 * @why: the reason in words, with the numbers that decided it.
 * @hw_ops: hardware operations submitted (descriptors / datapath jobs).
 * @hw_ops_wrapper, @hw_ops_datapath: of those, per engine.
 * @hw_ops_fallback: of those, rejected by the hardware and run on the CPU.
 * @jobs: jobs (descriptor batches) the submissions were split into.
 * @macs: multiply-accumulates the operation needs (ideal, no padding).
 * @wrapper_cycles, @dp_cycles: modelled cycles (perf counter deltas).
 * @lower_ns: host time spent lowering: planning, staging operands,
 *	building command buffers.
 * @host_ns: host time spent in CPU work: zero-point folding,
 *	requantization, CPU kernels.
 */
struct e1npu_ops_report {
	uint32_t kind;
	uint32_t engine;
	uint32_t reason;
	uint32_t hw_ops;
	uint32_t hw_ops_wrapper;
	uint32_t hw_ops_datapath;
	uint32_t hw_ops_fallback;
	uint32_t jobs;
	uint64_t macs;
	uint64_t wrapper_cycles;
	uint64_t dp_cycles;
	uint64_t lower_ns;
	uint64_t host_ns;
	char why[160];
	uint32_t reserved[8];
};

/**
 * struct e1npu_ops_support - one row of the support table: can @engine run
 * @kind on this device, and why (not).
 */
struct e1npu_ops_support {
	uint32_t kind;		/* enum e1npu_ops_kind */
	uint32_t engine;	/* enum e1npu_engine */
	uint32_t supported;	/* 1 or 0 */
	uint32_t reserved;
	char name[32];		/* "matmul_s8", ... */
	char why[128];
};

/**
 * e1npu_ops_support_table() - every operation x engine (wrapper,
 * datapath, cpu) with supported / not and the reason, for this context's
 * device. Prints nothing.
 * @rows: array of @max rows, or NULL to ask the count.
 * @count: out: rows needed (all are written when @max is large enough).
 * Return: 0, -EINVAL, -ENOSPC (@max too small; @count says how many).
 */
int e1npu_ops_support_table(struct e1npu_ops *ops,
			    struct e1npu_ops_support *rows, size_t max,
			    size_t *count);

/* e1npu_ops_kind_name() - "matmul_s8", ...; "unknown" otherwise (static). */
const char *e1npu_ops_kind_name(uint32_t kind);

/*
 * e1npu_ops_reason_name() - an enum e1npu_ops_reason as a word:
 * "big_gemm", "small_gemm", "elementwise", "no_hw_op", "no_engine",
 * "no_device", "too_small", "fallback", "unsupported"; "unknown"
 * otherwise (static).
 */
const char *e1npu_ops_reason_name(uint32_t reason);

/**
 * enum e1npu_ops_force - override the selection (tests, benchmarks).
 * @E1NPU_OPS_FORCE_AUTO: the policy of lib/ops/select.h.
 * @E1NPU_OPS_FORCE_WRAPPER / _DATAPATH / _CPU: that engine when it has a
 *	form of the operation, else the policy. Forcing the wrapper only
 *	needs the wrapper window: without the systolic engine the hardware
 *	rejects the operations and libe1npu runs them on the CPU (the
 *	fallback contract; the report then says engine cpu, reason fallback).
 */
enum e1npu_ops_force {
	E1NPU_OPS_FORCE_AUTO = 0,
	E1NPU_OPS_FORCE_WRAPPER = 1,
	E1NPU_OPS_FORCE_DATAPATH = 2,
	E1NPU_OPS_FORCE_CPU = 3,
};
int e1npu_ops_set_force(struct e1npu_ops *ops, enum e1npu_ops_force force);

/* ---------------------------------------------------------------------- */
/* Raw integer matmuls (int32 accumulators, no quantization)               */
/* ---------------------------------------------------------------------- */

/**
 * e1npu_ops_matmul_s8() - c[m][n] = sum_k a[m][k] * b[k][n], int32.
 * Any size: tiled past the validated envelope (split-K accumulated in
 * int32, which wraps like the hardware only when the true sum overflows).
 * @lda, @ldb, @ldc: elements between rows, at least the row (@k, @n, @n);
 *	a matrix spanning more than PTRDIFF_MAX bytes is -EINVAL.
 * @rep: NULL or filled.
 * Return: 0, -EINVAL, -ENOMEM, -EIO (an operation failed on the device).
 */
int e1npu_ops_matmul_s8(struct e1npu_ops *ops, uint32_t m, uint32_t n,
			uint32_t k, const int8_t *a, size_t lda,
			const int8_t *b, size_t ldb, int32_t *c, size_t ldc,
			struct e1npu_ops_report *rep);

/**
 * e1npu_ops_matmul_lowp() - raw matmul of low-precision integers held one
 * per int8 (values must lie in the type's range, -ERANGE otherwise):
 * @kind E1NPU_OPS_MATMUL_S4 ([-8, 7]), _S2 ([-2, 1]), _TERNARY ({-1,0,1}).
 */
int e1npu_ops_matmul_lowp(struct e1npu_ops *ops, uint32_t kind, uint32_t m,
			  uint32_t n, uint32_t k, const int8_t *a,
			  const int8_t *b, int32_t *c,
			  struct e1npu_ops_report *rep);

/**
 * e1npu_ops_matmul_lowp() also takes @kind E1NPU_OPS_MATMUL_SPARSE_S4: @b
 * holds int4 weights [k][n] with at most two non-zeros in every group of
 * four consecutive k of a column (2:4 along K; -EINVAL otherwise).
 */

/**
 * e1npu_ops_matmul_fp8() - raw FP8 E4M3 bytes a [m][k] x b [k][n] -> c
 * signed Q8.8 [m][n], the datapath's arithmetic (hardware-contract.md
 * 3.4): each lane decoded to Q8.8, each product floor((qa * qb) / 256),
 * summed with int32 wrap. NaN lanes give -EINVAL.
 */
int e1npu_ops_matmul_fp8(struct e1npu_ops *ops, uint32_t m, uint32_t n,
			 uint32_t k, const uint8_t *a, const uint8_t *b,
			 int32_t *c, struct e1npu_ops_report *rep);

/**
 * e1npu_ops_matmul_f16() - IEEE FP16 (@kind E1NPU_OPS_MATMUL_FP16) or BF16
 * (E1NPU_OPS_MATMUL_BF16) bits a [m][k] x b [k][n] through signed Q8.8:
 * every value is converted to q = round(x * 256) (half away from zero),
 * c = (sum qa * qb + 128) >> 8 computed exactly (int64) then saturated to
 * int32: Q8.8 out. NaN, Inf, subnormal or |x| >= 127.5: -ERANGE.
 */
int e1npu_ops_matmul_f16(struct e1npu_ops *ops, uint32_t kind, uint32_t m,
			 uint32_t n, uint32_t k, const uint16_t *a,
			 const uint16_t *b, int32_t *c,
			 struct e1npu_ops_report *rep);

/**
 * e1npu_ops_matmul_gs_s4() - W4A8 group-scaled matmul: int8 activations
 * a [m][k], int4 weights w [k][n] (one per int8, [-8, 7]), signed Q8.8
 * scales [k / @group][n]: c[i][j] = sum_g scale[g][j] * sum_{k in g}
 * a[i][k] w[k][j] (Q8.8, int32 wrap). @k must be a multiple of @group.
 */
int e1npu_ops_matmul_gs_s4(struct e1npu_ops *ops, uint32_t m, uint32_t n,
			   uint32_t k, uint32_t group, const int8_t *a,
			   const int8_t *w, const int16_t *scales, int32_t *c,
			   struct e1npu_ops_report *rep);

/**
 * e1npu_ops_batch_matmul_s8() - [B,H,M,K] x [B,H,K,N] -> [B,H,M,N] int32,
 * contiguous tensors.
 */
int e1npu_ops_batch_matmul_s8(struct e1npu_ops *ops, uint32_t batch,
			      uint32_t heads, uint32_t m, uint32_t n,
			      uint32_t k, const int8_t *a, const int8_t *b,
			      int32_t *c, struct e1npu_ops_report *rep);

/* ---------------------------------------------------------------------- */
/* TFLite quantized operations                                             */
/* ---------------------------------------------------------------------- */

/* Element types of quantized tensors. */
enum e1npu_dtype {
	E1NPU_DTYPE_INT8 = 1,
	E1NPU_DTYPE_UINT8 = 2,
	E1NPU_DTYPE_FLOAT32 = 3,	/* TFLite model inputs/outputs only */
	/* TFLite model outputs only (ARG_MAX's indices): e1npu_tflite_output_info */
	E1NPU_DTYPE_INT32 = 4,
	E1NPU_DTYPE_INT64 = 5,
};

/* Fused activations (TFLite's). */
enum e1npu_act {
	E1NPU_ACT_NONE = 0,
	E1NPU_ACT_RELU = 1,
	E1NPU_ACT_RELU6 = 2,
	E1NPU_ACT_RELU_N1_TO_1 = 3,
};

/* Padding (TFLite's). */
enum e1npu_padding {
	E1NPU_PAD_VALID = 1,
	E1NPU_PAD_SAME = 2,
};

/* Per-tensor quantization: real = scale * (q - zero_point). */
struct e1npu_qparams {
	float scale;
	int32_t zero_point;
};

/**
 * struct e1npu_fc_params - a TFLite FULLY_CONNECTED (also a quantized
 * matmul with constant weights).
 * @dtype: enum e1npu_dtype of input, weights and output.
 * @k: input depth; @n: output depth.
 * @input, @output: quantization of input and output.
 * @weight_zero_point: per-tensor (uint8 weights; 0 for int8).
 * @weight_scales: 1 (per-tensor) or @n (per-channel, int8 only) floats.
 * @num_weight_scales: 1 or @n.
 * @act: enum e1npu_act.
 * @rounding: enum e1npu_rounding, how the accumulators are requantized.
 * Accumulators are int32 and wrap (two's complement) when the true sum
 * overflows (k large), on every engine.
 */
enum e1npu_rounding {
	/* gemmlowp's: a rounding doubling high multiply, then a rounding
	 * right shift, ties away from zero (TFLite 2.2's kernels) */
	E1NPU_ROUNDING_GEMMLOWP = 0,
	/* ruy's (TFLite 2.14's int8 GEMMs): the same high multiply, then
	 * a right shift rounding ties toward +infinity */
	E1NPU_ROUNDING_RUY = 1,
	/* ruy's portable C++ kernel (TFLite 2.14 built for riscv64: every
	 * 8-bit GEMM): one rounding of the 64-bit product,
	 * (x * m + 2^(30 - shift)) >> (31 - shift), saturated to int32 */
	E1NPU_ROUNDING_RUY_SINGLE = 2,
};

struct e1npu_fc_params {
	uint32_t dtype;
	uint32_t k, n;
	struct e1npu_qparams input, output;
	int32_t weight_zero_point;
	const float *weight_scales;
	uint32_t num_weight_scales;
	uint32_t act;
	uint32_t rounding;	/* enum e1npu_rounding */
	uint32_t reserved[7];
};

/**
 * e1npu_fc_new() - prepare weights [n][k] (int8 or uint8 per @p->dtype)
 * and an optional int32 bias [n]: transposes and converts the weights once,
 * computes the zero-point corrections and requantization multipliers once.
 * @fcp: out: owned by the caller, to free with e1npu_fc_free() (in any
 *	order with e1npu_ops_free(): it holds a reference on @ops).
 * Return: 0, -EINVAL, -ENOMEM.
 */
int e1npu_fc_new(struct e1npu_ops *ops, const struct e1npu_fc_params *p,
		 const void *weights, const int32_t *bias,
		 struct e1npu_fc **fcp);
void e1npu_fc_free(struct e1npu_fc *fc);

/* e1npu_fc_run() - @rows input rows [rows][k] -> output [rows][n]. */
int e1npu_fc_run(struct e1npu_fc *fc, uint32_t rows, const void *in,
		 void *out, struct e1npu_ops_report *rep);

/**
 * struct e1npu_conv_params - TFLite CONV_2D / DEPTHWISE_CONV_2D, or a
 * grouped convolution.
 * @kind: E1NPU_OPS_CONV2D, E1NPU_OPS_DEPTHWISE_CONV2D or
 *	E1NPU_OPS_GROUPED_CONV2D.
 * @dtype: enum e1npu_dtype.
 * @in_h, @in_w, @c_in: input; @c_out output channels (depthwise: c_in *
 *	@depth_multiplier).
 * @kh, @kw: kernel, kh * kw <= 256; @stride_h, @stride_w; @dil_h, @dil_w
 *	(>= 1; the dilated kernel, (k - 1) * dil + 1, at most INT32_MAX
 *	along each axis, as TFLite's int geometry holds it).
 * @padding: enum e1npu_padding.
 * @groups: grouped conv: c_in and c_out divisible by it.
 * @depth_multiplier: depthwise.
 * @input, @output, @weight_zero_point, @weight_scales,
 * @num_weight_scales, @act, @rounding: as struct e1npu_fc_params (scales
 *	per output channel).
 * @reserved: must be zero.
 * Zero points must be values of @dtype; every effective scale must have a
 * multiplier below 2^31 (Documentation/quantization.md): -EINVAL otherwise.
 * Accumulators are int32 and wrap (two's complement) when the true sum
 * of a window overflows, on every engine, as for struct e1npu_fc_params.
 */
struct e1npu_conv_params {
	uint32_t kind;
	uint32_t dtype;
	uint32_t in_h, in_w, c_in, c_out;
	uint32_t kh, kw;
	uint32_t stride_h, stride_w;
	uint32_t dil_h, dil_w;
	uint32_t padding;
	uint32_t groups;
	uint32_t depth_multiplier;
	struct e1npu_qparams input, output;
	int32_t weight_zero_point;
	const float *weight_scales;
	uint32_t num_weight_scales;
	uint32_t act;
	uint32_t rounding;	/* enum e1npu_rounding */
	uint32_t reserved[7];
};

/*
 * e1npu_conv_new() - prepare a convolution. *@convp is owned by the
 * caller, to free with e1npu_conv_free() (in any order with
 * e1npu_ops_free(): it holds a reference on @ops).
 * Return: 0, -EINVAL, -ENOMEM.
 */
int e1npu_conv_new(struct e1npu_ops *ops, const struct e1npu_conv_params *p,
		   const void *weights, const int32_t *bias,
		   struct e1npu_conv **convp);
void e1npu_conv_free(struct e1npu_conv *conv);

/* e1npu_conv_get_output_size() - TFLite's output height and width. */
int e1npu_conv_get_output_size(const struct e1npu_conv *conv,
			       uint32_t *out_h, uint32_t *out_w);

/* e1npu_conv_run() - one NHWC image [in_h][in_w][c_in] -> [out_h][out_w][c_out]. */
int e1npu_conv_run(struct e1npu_conv *conv, const void *in, void *out,
		   struct e1npu_ops_report *rep);

/**
 * struct e1npu_pool_params - TFLite MAX_POOL_2D / AVERAGE_POOL_2D
 * (input and output share the quantization, as TFLite requires).
 * The filter is not limited; the average is of the exact (64-bit) sum of
 * the window's in-image values. The CPU work is out_h * out_w * channels
 * times the window clipped to the image.
 */
struct e1npu_pool_params {
	uint32_t dtype;
	uint32_t in_h, in_w, channels;
	uint32_t filter_h, filter_w;
	uint32_t stride_h, stride_w;
	uint32_t padding;
	struct e1npu_qparams q;
	uint32_t act;
	uint32_t reserved[8];
};

int e1npu_ops_pool_output_size(const struct e1npu_pool_params *p,
			       uint32_t *out_h, uint32_t *out_w);
int e1npu_ops_maxpool(struct e1npu_ops *ops, const struct e1npu_pool_params *p,
		      const void *in, void *out, struct e1npu_ops_report *rep);
int e1npu_ops_avgpool(struct e1npu_ops *ops, const struct e1npu_pool_params *p,
		      const void *in, void *out, struct e1npu_ops_report *rep);

/* e1npu_ops_relu_s8() - int8 max(x, 0) of @count values (in == out allowed). */
int e1npu_ops_relu_s8(struct e1npu_ops *ops, size_t count, const int8_t *in,
		      int8_t *out, struct e1npu_ops_report *rep);

/**
 * e1npu_ops_add() - TFLite quantized ADD of two tensors of @count values
 * of @dtype, with their own quantization (no broadcast).
 */
int e1npu_ops_add(struct e1npu_ops *ops, uint32_t dtype, size_t count,
		  const void *a, const struct e1npu_qparams *qa,
		  const void *b, const struct e1npu_qparams *qb, void *out,
		  const struct e1npu_qparams *qout, uint32_t act,
		  struct e1npu_ops_report *rep);

/**
 * e1npu_ops_softmax() - TFLite quantized SOFTMAX over the last dimension
 * (@rows x @depth), beta, input quantization; the output is TFLite's fixed
 * quantization (scale 1/256, zero point 0 for uint8, -128 for int8).
 * -EINVAL unless beta * input_scale * 2^26 > 1 and @depth <= 4095 (the
 * limits of TFLite's fixed-point scheme, Documentation/quantization.md).
 */
int e1npu_ops_softmax(struct e1npu_ops *ops, uint32_t dtype, uint32_t rows,
		      uint32_t depth, const void *in, float input_scale,
		      float beta, void *out, struct e1npu_ops_report *rep);

/**
 * e1npu_ops_softmax_exp2_s8() - the datapath's softmax approximation over
 * int8 logits (the datapath's lower_attention_softmax_smoke lowering): per row,
 * max, delta = x - max (>= -8 contributes, below gives 0), e = 2^delta in
 * Q0.8 (EXP2_NEG_Q0_8), out = (256 * e + sum / 2) / sum in Q0.8 (uint8,
 * saturated to 255, so a lone 1.0 reads 255). @mask (NULL or
 * rows x depth bytes, nonzero = keep) excludes logits (output 0).
 */
int e1npu_ops_softmax_exp2_s8(struct e1npu_ops *ops, uint32_t rows,
			      uint32_t depth, const int8_t *in,
			      const uint8_t *mask, uint8_t *out,
			      struct e1npu_ops_report *rep);

/* ---------------------------------------------------------------------- */
/* Transformer pieces (symmetric int8, integer semantics stated per call)  */
/* ---------------------------------------------------------------------- */

/*
 * A requantization int32 -> int8: clamp(MultiplyByQuantizedMultiplier(acc,
 * multiplier, shift) + zero_point, -128, 127), TFLite rounding.
 */
struct e1npu_requant {
	int32_t multiplier;
	int32_t shift;
	int32_t zero_point;
	uint32_t reserved;
};

/* e1npu_requant_from_scale() - TFLite QuantizeMultiplier of @scale (> 0). */
int e1npu_requant_from_scale(double scale, int32_t zero_point,
			     struct e1npu_requant *rq);

/* bias_add: out[r][j] = sat8(x[r][j] + bias[j]). */
int e1npu_ops_bias_add_s8(struct e1npu_ops *ops, uint32_t rows, uint32_t n,
			  const int8_t *x, const int8_t *bias, int8_t *out,
			  struct e1npu_ops_report *rep);

/* residual_add: out[i] = sat8(a[i] + b[i]). */
int e1npu_ops_residual_add_s8(struct e1npu_ops *ops, size_t count,
			      const int8_t *a, const int8_t *b, int8_t *out,
			      struct e1npu_ops_report *rep);

/*
 * SiLU and QuickGELU, the datapath's exp2 piecewise approximations on the
 * integer values: sig(t) (Q0.8) = EXP2(t) >> 1 for t <= 0 and
 * 256 - (EXP2(-t) >> 1) for t > 0, EXP2(d) = 256 >> -d (0 below -8);
 * silu(x) = sat8((x * sig(x) + 128) >> 8);
 * quick_gelu(x) = sat8((x * sig((x * 109) >> 6) + 128) >> 8)
 * (109/64 = 1.703125). EXP2 runs on the datapath (EXP2_NEG_Q0_8).
 */
int e1npu_ops_silu_s8(struct e1npu_ops *ops, size_t count, const int8_t *in,
		      int8_t *out, struct e1npu_ops_report *rep);
int e1npu_ops_quick_gelu_s8(struct e1npu_ops *ops, size_t count,
			    const int8_t *in, int8_t *out,
			    struct e1npu_ops_report *rep);

/*
 * RMSNorm over rows of @d int8 values with int8 weights gamma (Q@gamma_frac):
 * ss = sum x^2, r = max(1, isqrt(ss / d)), inv = 2^16 / r (floor),
 * out = sat8(round_half_up(x * gamma * inv * 2^out_frac / 2^(16 + gamma_frac))).
 * The sums of squares run on the datapath (DOT4_S8).
 */
int e1npu_ops_rmsnorm_s8(struct e1npu_ops *ops, uint32_t rows, uint32_t d,
			 const int8_t *x, const int8_t *gamma,
			 uint32_t gamma_frac, uint32_t out_frac, int8_t *out,
			 struct e1npu_ops_report *rep);

/*
 * RoPE on interleaved pairs: cos, sin [rows][d/2] in Q7 within [-127, 127];
 * y0 = sat8((x0 c - x1 s + 64) >> 7), y1 = sat8((x0 s + x1 c + 64) >> 7).
 * Each output is one DOT4_S8 on the datapath.
 */
int e1npu_ops_rope_s8(struct e1npu_ops *ops, uint32_t rows, uint32_t d,
		      const int8_t *x, const int8_t *cos, const int8_t *sin,
		      int8_t *out, struct e1npu_ops_report *rep);

/* QK scores: s[b][h][i][j] = sum_d q[b][h][i][d] k[b][h][j][d], int32. */
int e1npu_ops_attention_qk_s8(struct e1npu_ops *ops, uint32_t batch,
			      uint32_t heads, uint32_t tq, uint32_t tk,
			      uint32_t dim, const int8_t *q, const int8_t *k,
			      int32_t *scores, struct e1npu_ops_report *rep);

/*
 * AV: probabilities p [b][h][tq][tk] in Q0.8 (uint8, as the softmaxes
 * produce) become Q0.7 int8 p7 = min((p + 1) >> 1, 127); context
 * out = sat8((sum_j p7 v[j][d] + 64) >> 7).
 */
int e1npu_ops_attention_av_s8(struct e1npu_ops *ops, uint32_t batch,
			      uint32_t heads, uint32_t tq, uint32_t tk,
			      uint32_t dim, const uint8_t *p, const int8_t *v,
			      int8_t *out, struct e1npu_ops_report *rep);

enum e1npu_mask {
	E1NPU_MASK_NONE = 0,
	E1NPU_MASK_CAUSAL = 1,		/* query i sees keys <= tk - tq + i */
	E1NPU_MASK_SLIDING = 2,		/* ... and the last @window of them */
};

enum e1npu_softmax_mode {
	E1NPU_SOFTMAX_EXP2 = 0,		/* e1npu_ops_softmax_exp2_s8 */
	E1NPU_SOFTMAX_EXACT = 1,	/* TFLite int8 softmax, output +128 */
};

/*
 * Multi-head attention: QK (int32), logits = requant(qk) to int8, mask,
 * softmax over the visible keys (masked ones give 0), AV as above.
 * q [b][h][tq][dim], k, v [b][h][tk][dim], out [b][h][tq][dim].
 * EXACT: TFLite's int8 softmax with @logit_scale and @beta over the visible
 * (contiguous) keys, its int8 output + 128 taken as Q0.8.
 */
struct e1npu_attention_params {
	uint32_t batch, heads, tq, tk, dim;
	uint32_t mask;			/* enum e1npu_mask */
	uint32_t window;		/* sliding window, keys */
	uint32_t softmax;		/* enum e1npu_softmax_mode */
	struct e1npu_requant qk;	/* int32 scores -> int8 logits */
	float logit_scale, beta;	/* EXACT only */
	uint32_t reserved[8];
};

int e1npu_ops_attention_s8(struct e1npu_ops *ops,
			   const struct e1npu_attention_params *p,
			   const int8_t *q, const int8_t *k, const int8_t *v,
			   int8_t *out, struct e1npu_ops_report *rep);

/*
 * Packed QKV projection: x [t][dm] x w [dm][3 dm] (one GEMM), then Q, K, V
 * [t][dm] requantized with their own parameters.
 */
int e1npu_ops_qkv_projection_s8(struct e1npu_ops *ops, uint32_t t,
				uint32_t dm, const int8_t *x, const int8_t *w,
				const struct e1npu_requant *rq_q,
				const struct e1npu_requant *rq_k,
				const struct e1npu_requant *rq_v, int8_t *q,
				int8_t *k, int8_t *v,
				struct e1npu_ops_report *rep);

/*
 * KV cache append: caches [b][h][cap][dim], @lens [b*h] tokens held; the
 * @tnew tokens of knew/vnew [b][h][tnew][dim] go to positions lens.., lens
 * advance. -ENOSPC (nothing changed) when a head would pass @cap.
 */
int e1npu_ops_kv_cache_append_s8(struct e1npu_ops *ops, uint32_t batch,
				 uint32_t heads, uint32_t cap, uint32_t dim,
				 int8_t *kcache, int8_t *vcache, uint32_t *lens,
				 uint32_t tnew, const int8_t *knew,
				 const int8_t *vnew,
				 struct e1npu_ops_report *rep);

/*
 * Decode attention: append knew/vnew, then attention of q [b][h][tnew][dim]
 * over each head's cache[0 .. lens) with a causal mask (sliding with
 * p->window when p->mask is SLIDING). p->tq, p->tk are ignored (tnew and
 * the lengths are used); p->batch, heads, dim must match.
 */
int e1npu_ops_decode_attention_s8(struct e1npu_ops *ops,
				  const struct e1npu_attention_params *p,
				  uint32_t cap, int8_t *kcache, int8_t *vcache,
				  uint32_t *lens, uint32_t tnew, const int8_t *q,
				  const int8_t *knew, const int8_t *vnew,
				  int8_t *out, struct e1npu_ops_report *rep);

/* MLP: out = requant_out(relu(requant_hidden(x w1)) w2); x [t][dm],
 * w1 [dm][dh], w2 [dh][dm]. */
int e1npu_ops_mlp_relu_s8(struct e1npu_ops *ops, uint32_t t, uint32_t dm,
			  uint32_t dh, const int8_t *x, const int8_t *w1,
			  const int8_t *w2, const struct e1npu_requant *rq_hidden,
			  const struct e1npu_requant *rq_out, int8_t *out,
			  struct e1npu_ops_report *rep);

/* SwiGLU: up = rq_hidden(x wu), g = silu(rq_hidden(x wg)) (the exp2 SiLU),
 * h = sat8((up * g + 2^(gate_shift-1)) >> gate_shift), out = rq_out(h wd). */
int e1npu_ops_swiglu_s8(struct e1npu_ops *ops, uint32_t t, uint32_t dm,
			uint32_t dh, const int8_t *x, const int8_t *wu,
			const int8_t *wg, const int8_t *wd,
			const struct e1npu_requant *rq_hidden,
			uint32_t gate_shift, const struct e1npu_requant *rq_out,
			int8_t *out, struct e1npu_ops_report *rep);

/*
 * The reference transformer block: ctx = AV(p, v) (p Q0.8 [t][t], v [t][d]),
 * a = bias_add(ctx, bias), r = residual_add(x, a),
 * out = residual_add(r, mlp_relu(r)).
 */
int e1npu_ops_transformer_block_s8(struct e1npu_ops *ops, uint32_t t,
				   uint32_t d, uint32_t dh, const int8_t *x,
				   const uint8_t *p, const int8_t *v,
				   const int8_t *bias, const int8_t *w1,
				   const int8_t *w2,
				   const struct e1npu_requant *rq_hidden,
				   const struct e1npu_requant *rq_out,
				   int8_t *out, struct e1npu_ops_report *rep);

/*
 * Modern decoder block (batch 1, @heads heads of d / heads):
 * n1 = rmsnorm(x, g1); q, k, v = qkv_projection(n1); q, k = rope(q, k);
 * ctx = attention(q, k, v) (exp2 softmax, mask); a = bias_add(ctx, bias);
 * r = residual_add(x, a); n2 = rmsnorm(r, g2);
 * out = residual_add(r, swiglu(n2)).
 */
struct e1npu_decoder_params {
	uint32_t t, d, dh, heads;
	uint32_t gamma_frac, norm_frac;	/* rmsnorm */
	const int8_t *g1, *g2;		/* [d] */
	const int8_t *wqkv;		/* [d][3 d] */
	struct e1npu_requant rq_q, rq_k, rq_v;
	const int8_t *cos, *sin;	/* [t][d / heads / 2] Q7 */
	uint32_t mask, window;		/* enum e1npu_mask */
	struct e1npu_requant rq_qk;
	const int8_t *bias;		/* [d] */
	const int8_t *wu, *wg, *wd;	/* [d][dh], [d][dh], [dh][d] */
	struct e1npu_requant rq_hidden, rq_out;
	uint32_t gate_shift;
	uint32_t reserved[8];
};

int e1npu_ops_decoder_block_s8(struct e1npu_ops *ops,
			       const struct e1npu_decoder_params *p,
			       const int8_t *x, int8_t *out,
			       struct e1npu_ops_report *rep);

#ifdef __cplusplus
}
#endif

#endif /* __E1NPU_PUBLIC_OPS_H__ */
