/* SPDX-License-Identifier: MIT */
/*
 * StableHLO importer internals: the module model the parser builds, the CPU
 * evaluator and the NPU placement work on. Documentation/hlo.md.
 * Data only: each file's functions are declared in its own header
 * (hlo_ctx.h, hlo_type.h, ...), which the files that call it include, so
 * the include graph is the call graph; tests/hlo/check-includes.sh keeps
 * it free of cycles (the layers: ctx, type, conv/dot/e1/parse/plan,
 * eval/npu, run).
 */
#ifndef __E1NPU_HLO_H__
#define __E1NPU_HLO_H__

#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>

#include <e1npu/e1npu.h>
#include <e1npu/e1npu_ops.h>
#include <e1npu/e1npu_hlo.h>

#define HLO_MAX_RANK	8
/* Largest tensor the importer materializes (elements). */
#define HLO_MAX_ELEMS	(1u << 24)
/* Largest number of inner-loop steps one CPU op may take. */
#define HLO_MAX_WORK	((int64_t)1 << 32)
/* Steps a whole run may take, per element of max_elements (hlo_work):
 * 2^32 by default, what one op may take. */
#define HLO_RUN_WORK_PER_ELEM	256u
/* Largest work cap (max_work_mi, E1NPU_HLO_MAX_WORK), in 2^20 steps: 2^42. */
#define HLO_MAX_WORK_MI	(1u << 22)
/* Steps charged per op run, beside its elements (allocation, dispatch). */
#define HLO_OP_WORK		256u

/* Element kinds (the storage kind for quantized types). */
enum hlo_ek {
	EK_BOOL = 1,	/* i1 */
	EK_SINT,	/* i2..i64 */
	EK_UINT,	/* ui2..ui64 */
	EK_F16,
	EK_BF16,
	EK_F32,
	EK_F64,
};

struct hlo_type {
	uint8_t ek;		/* enum hlo_ek */
	uint8_t bits;		/* storage bits */
	uint8_t rank;
	uint8_t quant;		/* 1: !quant.uniform */
	int32_t qaxis;		/* -1 per tensor */
	uint32_t nq;		/* scales / zero points */
	int64_t dims[HLO_MAX_RANK];
	double *scale;		/* [nq] */
	int64_t *zp;		/* [nq] */
	int64_t qmin, qmax;	/* storage range */
};

union hv {
	int64_t i;	/* integers (ui64 as its bits), booleans 0/1 */
	double f;	/* floats, already rounded to their type */
};

struct hlo_tensor {
	struct hlo_type t;
	int64_t n;
	union hv *v;
};

/* Attribute values. */
enum hlo_av {
	AV_INT = 1, AV_FLOAT, AV_STR, AV_IDENT, AV_SYM, AV_LIST, AV_DICT,
	AV_DENSE, AV_PAIR, AV_ARROW, AV_RANGE, AV_OPAQUE,
};

struct hlo_lit {
	int64_t i;
	double f;
	uint64_t bits;
	uint8_t is_float, is_hex, is_bool;
};

struct hlo_attr {
	int kind;
	int64_t i;
	double f;
	const char *s;			/* string, ident, symbol, dict key */
	const char *key;		/* dict entries */
	struct hlo_attr **items;	/* list, dict, pair/arrow parts */
	int n;
	/* dense<...> */
	struct hlo_lit *lit;
	int64_t nlit;
	const uint8_t *blob;
	size_t bloblen;
	int has_type;
	struct hlo_type type;
};

enum hlo_opk {
	HOP_CONSTANT = 1, HOP_ADD, HOP_SUB, HOP_MUL, HOP_DIV, HOP_MAX, HOP_MIN,
	HOP_AND, HOP_OR, HOP_NEG, HOP_EXP, HOP_CONVERT, HOP_CLAMP, HOP_RESHAPE,
	HOP_TRANSPOSE, HOP_BROADCAST, HOP_SLICE, HOP_CONCAT, HOP_PAD,
	HOP_REDUCE, HOP_REDUCE_WINDOW, HOP_COMPARE, HOP_SELECT, HOP_IOTA,
	HOP_DOT_GENERAL, HOP_DOT, HOP_CONV, HOP_UQUANT, HOP_UDEQUANT,
	HOP_CALL, HOP_RETURN, HOP_CUSTOM_CALL,
	HOP_CHECK_EQ, HOP_CHECK_EQ_CONST, HOP_CHECK_ALMOST, HOP_CHECK_ALMOST_CONST,
	HOP_CHECK_CLOSE, HOP_E1,
};

struct hlo_func;

struct hlo_op {
	int kind;			/* enum hlo_opk */
	const char *name;		/* "stablehlo.add" */
	int line, col;
	int nres;
	int res;			/* first result value id */
	int nopnd;
	int *opnd;			/* value ids */
	int nsig;			/* operand types of the signature */
	struct hlo_type *sig;
	struct hlo_type *rt;		/* [nres] result types */
	struct hlo_attr *attrs;		/* merged dictionary */
	const char **flags;		/* bare words: EQ, SIGNED, ... */
	int nflags;
	const char *callee;		/* call, custom_call */
	struct hlo_func *callee_fn;
	struct hlo_attr *lit;		/* constant / *_const literal */
	int reducer;			/* reduce bodies: HOP_ADD, HOP_MAX, ... */
	/* placement (hlo_npu.c, hlo_plan.c) */
	int engine;			/* enum e1npu_hlo_engine */
	int npu_kind;			/* E1NPU_OPS_MATMUL_S8 / _S4 */
	int fused_into;			/* op index of the NPU op, or -1 */
	int fuse_requant;		/* op index of a fused uniform_quantize */
	const char *api;
	char why[160];
	int batch;
	uint32_t ran_engine, hw_ops, hw_wr, hw_dp;
	uint32_t lsb_diff, lsb_diff_count;
	uint64_t arena_off, arena_size;
};

struct hlo_func {
	const char *name;
	int line;
	int section;
	int is_public;
	int called;			/* some op calls it */
	int nargs;
	int nres;
	struct hlo_type *res_t;
	int nvals;
	const char **vname;		/* [nvals] "%0", "%0#1" */
	struct hlo_type *vt;		/* [nvals] */
	int *vdef;			/* defining op or -1 (argument) */
	struct hlo_op *ops;
	int nops;
	int nbatches;
	uint64_t arena_peak, arena_total;
	union hv **input;		/* bound arguments (main) */
	struct hlo_tensor *out;		/* [nres] results of the last run (hlo_output.c) */
};

struct e1npu_hlo {
	char *text;
	const char *file;
	struct hlo_func **funcs;
	int nfuncs;
	int nsections;
	struct hlo_pool *pool;
	struct e1npu_device *dev;
	struct e1npu_ops *ops;
	struct e1npu_hlo_options opt;
	char err[512];
	uint64_t work;		/* CPU steps of the current run (hlo_work) */
	uint64_t work_cap;	/* its cap: max_work_mi, E1NPU_HLO_MAX_WORK or the default */
	/* report index: (func, op) of every report row */
	int nrows;
	int *row_func, *row_op;
};

#endif /* __E1NPU_HLO_H__ */
