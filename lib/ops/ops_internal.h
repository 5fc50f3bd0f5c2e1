/* SPDX-License-Identifier: MIT */
/*
 * Internals of the lowering layer (lib/ops): the context, lowered plans
 * (lists of hardware operations over one staging arena) and their
 * execution on the device (through the public e1npu.h API) or, for a
 * CPU-only context, on the CPU.
 */
#ifndef __E1NPU_OPS_INTERNAL_H__
#define __E1NPU_OPS_INTERNAL_H__

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <e1npu/e1npu.h>
#include <e1npu/e1npu_ops.h>

#ifndef E1NPU_API
#define E1NPU_API	__attribute__((visibility("default")))
#endif

#define OPS_ALIGN	16u	/* wrapper tensor offset/stride alignment */

static inline size_t ops_align_up(size_t v, size_t a)
{
	return (v + a - 1) / a * a;
}

/*
 * Overflow-checked sizes of caller memory: *r = a * b (bytes or elements);
 * false when it does not fit an object (PTRDIFF_MAX), so the caller
 * returns -EINVAL instead of walking a wrapped size.
 */
static inline bool ops_size_mul(size_t *r, size_t a, size_t b)
{
	return !__builtin_mul_overflow(a, b, r) && *r <= (size_t)PTRDIFF_MAX;
}

static inline bool ops_size_mul3(size_t *r, size_t a, size_t b, size_t c)
{
	return ops_size_mul(r, a, b) && ops_size_mul(r, *r, c);
}

/*
 * Bytes spanned by a strided matrix of @rows x @cols elements of @esize
 * bytes, @ld elements between rows: ((rows - 1) * ld + cols) * esize.
 * False when ld < cols or the span does not fit an object.
 */
static inline bool ops_mat_span(size_t *r, size_t rows, size_t cols,
				size_t ld, size_t esize)
{
	size_t e;

	if (!rows || ld < cols || __builtin_mul_overflow(rows - 1, ld, &e) ||
	    __builtin_add_overflow(e, cols, &e))
		return false;
	return ops_size_mul(r, e, esize);
}

/* Contiguous a [m][k], b [k][n] of @esize bytes and int32 c [m][n] fit. */
static inline bool ops_mm_dims_ok(uint32_t m, uint32_t n, uint32_t k,
				  size_t esize)
{
	size_t r;

	return ops_size_mul3(&r, m, k, esize) && ops_size_mul3(&r, k, n, esize) &&
	       ops_size_mul3(&r, m, n, sizeof(int32_t));
}

struct e1npu_ops {
	struct e1npu_device *dev;		/* NULL: CPU only */
	struct e1npu_device_info info;
	bool wrapper_gemm;			/* systolic engine present */
	bool wrapper;				/* wrapper window present */
	bool datapath;				/* datapath present */
	enum e1npu_ops_force force;
	unsigned int lowering;			/* enum ops_lowering (cost.h) */
	/* ops_conv_new_chosen(): the stored form of the conv being made */
	const struct ops_conv_choice *conv_choice;
	/* staging arena: one device buffer (or host memory), grown on demand */
	struct e1npu_buffer *buf;
	uint8_t *arena;
	size_t arena_size;
	struct e1npu_cmdbuf *cb;		/* holds dev open */
	/* host scratch of the operations (conv accumulators), grown on demand:
	 * reused, so large layers do not fault in fresh pages every call */
	void *scratch;
	size_t scratch_size;
	/* the caller's (until e1npu_ops_free) + one per e1npu_fc/e1npu_conv */
	unsigned int refs;
	/* the context's one error channel: e1npu_ops_last_error() */
	char errmsg[256];
};

/*
 * error.c: record why a call on @ops (NULL: nothing recorded) failed;
 * returns @err for tail calls.
 */
int ops_error(struct e1npu_ops *ops, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Record "@fn: invalid argument: @cond" and return true. */
bool ops_bad(struct e1npu_ops *ops, const char *fn, const char *cond);
/* error_words.c: an OPS_BAD() condition in words. */
void ops_cond_words(const char *cond, char *buf, size_t len);
/* The failure of e1npu_ops_new(), read through e1npu_ops_last_error(NULL). */
void ops_new_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* True, with the failed condition recorded, when @cond holds. */
#define OPS_BAD(ops, cond) ((cond) && ops_bad((ops), __func__, #cond))
/* After a failed command buffer run: the device's words, on @ops. */
int ops_device_error(struct e1npu_ops *ops, int err);

/*
 * The context's host scratch, at least @bytes (64-byte aligned, contents
 * undefined); valid until the next call. NULL on allocation failure.
 */
void *ops_scratch(struct e1npu_ops *ops, size_t bytes);

/* Take / drop a reference on a context; the last put frees it. */
void ops_get(struct e1npu_ops *ops);
void ops_put(struct e1npu_ops *ops);

/*
 * A lowered plan: hardware operations whose tensors are offsets into the
 * context's arena (tensor.buf is set at execution).
 */
struct ops_plan {
	struct e1npu_ops *ops;
	struct e1npu_op_desc *d;
	size_t n, cap;
	size_t arena_bytes;			/* layout cursor */
	int64_t t0;				/* lowering start */
	struct e1npu_ops_report *rep;
};

int64_t ops_now_ns(void);

/* Start a plan; @rep may be NULL (a local one is used). */
void ops_plan_init(struct ops_plan *pl, struct e1npu_ops *ops,
		   struct e1npu_ops_report *rep, uint32_t kind);
void ops_plan_fini(struct ops_plan *pl);
/* Reserve @bytes in the arena, aligned: returns the offset. */
size_t ops_plan_alloc(struct ops_plan *pl, size_t bytes);
/* Make the arena at least pl->arena_bytes big; returns its host pointer. */
int ops_plan_arena(struct ops_plan *pl, uint8_t **arena);
/* Append an operation (tensors hold arena offsets, buf NULL). */
int ops_plan_add(struct ops_plan *pl, const struct e1npu_op_desc *d);
/* Execute all operations; fills the report's engine counts and cycles. */
int ops_plan_run(struct ops_plan *pl);

/* Tensor helper: arena offset + stride. */
static inline struct e1npu_tensor ops_t(size_t off, uint32_t stride)
{
	struct e1npu_tensor t = { NULL, off, stride, 0 };

	return t;
}

/*
 * geometry.c: output size and leading padding of one spatial axis under
 * E1NPU_PAD_SAME or E1NPU_PAD_VALID (TFLite's rules).
 */
void ops_axis_geometry(uint32_t padding, uint32_t in, uint32_t filter,
		       uint32_t stride, uint32_t dil, uint32_t *out,
		       uint32_t *pad_before);

/* CPU execution of one hardware operation over host memory (cpu_hw.c). */
int ops_cpu_hw_exec(const struct e1npu_op_desc *d, uint8_t *arena);

/* Report helpers. */
void ops_report_set(struct e1npu_ops_report *rep, uint32_t engine,
		    uint32_t reason, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* A fresh report of one call: @kind, its ideal @macs, everything else 0. */
void ops_rep_begin(struct e1npu_ops_report *rep, uint32_t kind, uint64_t macs);
/* Every hardware op was rejected and run on the CPU: say so. */
void ops_rep_fallback(struct e1npu_ops_report *rep);

/*
 * Run @count datapath scalar records {op_a, op_b, acc} of @opcode (with
 * DRM-level @flags such as ternary) as DP_SCALAR batches; RESULT words
 * into @res.
 */
int ops_dp_scalars(struct e1npu_ops *ops, struct e1npu_ops_report *rep,
		   uint32_t opcode, uint32_t flags, const uint32_t *rec,
		   size_t count, uint32_t *res);

/* Internal raw matmul over arena-resident or host operands (matmul.c). */
int ops_matmul_s8_engine(struct e1npu_ops *ops, uint32_t engine, uint32_t m,
			 uint32_t n, uint32_t k, const int8_t *a, size_t lda,
			 const int8_t *b, size_t ldb, int32_t *c, size_t ldc,
			 struct e1npu_ops_report *rep);

#endif /* __E1NPU_OPS_INTERNAL_H__ */
