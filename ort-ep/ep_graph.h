/* SPDX-License-Identifier: MIT */
/*
 * The e1 ONNX Runtime plugin EP's graph matching, shared by ep.c (the
 * products, MaxPool) and the matchers of the other QDQ groups
 * (ep_move.c: data movement; ep_eltwise.c: QLinearAdd/QLinearMul): graph
 * and attribute helpers, quantization parameters, the match result.
 */
#ifndef E1NPU_ORT_EP_GRAPH_H
#define E1NPU_ORT_EP_GRAPH_H

#include "ep.h"

#define MATCH_MAX_NODES 40

struct qp {			/* a scale and zero point pair */
	int dt;			/* the quantized type */
	size_t n;		/* 1 or per-channel count */
	float *s;
	int32_t *zp;
	const OrtValueInfo *sv, *zv;	/* run-time (not constant) ones, else NULL */
};

struct match {
	const OrtNode *nodes[MATCH_MAX_NODES];
	size_t nn;
	struct kern k;
	/* run-time operand value infos, by role */
	const OrtValueInfo *xv, *wv;
	const char *why;
};

bool node_onnx_domain(const OrtNode *n);
const OrtValueInfo *node_output0(const OrtNode *n);
/* element type, dims and rank ((size_t)-1 when unknown) of a value */
int vi_type(const OrtValueInfo *v, int64_t *dims, size_t *rank);
bool vi_const(const OrtValueInfo *v);
bool is8(int dt);
/* copy a constant initializer into @o */
bool load_const(const OrtValueInfo *v, struct operand *o);
int64_t attr_int(const OrtNode *n, const char *name, int64_t def);
float attr_float(const OrtNode *n, const char *name, float def);
/* ints attribute: count (0 when absent, -1 when malformed/too long) */
int attr_ints(const OrtNode *n, const char *name, int64_t *v, int max);
bool attr_str(const OrtNode *n, const char *name, char *buf, size_t len);
const OrtNode *producer(const OrtValueInfo *v);
bool single_use(const OrtValueInfo *v);
const OrtNode *only_consumer(const OrtValueInfo *v);
/* a run-time scalar of type @dt: rank 0 or [1] */
bool rt_scalar(const OrtValueInfo *v, int dt);
void qp_free(struct qp *q);
/* a scale and zero point (per-tensor unless @allow_n): NULL or the reason */
const char *qp_read(const OrtValueInfo *sv, const OrtValueInfo *zv, int dt, size_t allow_n,
		    struct qp *q);
/* the single-use DequantizeLinear producing @v, its input, scale, zero point */
const OrtNode *dq_of(const OrtValueInfo *v, const OrtValueInfo **src, const OrtValueInfo **sv,
		     const OrtValueInfo **zv);
const char *take_operand(const OrtValueInfo *v, struct operand *o, bool need_const);
/* @o's data and shape: constant, or the fused node's run-time input */
OrtStatus *get_in(OrtKernelContext *ctx, struct operand *o, const void **p, int64_t *dims,
		  size_t *rank);

/* ep_part.c: a claimed group; groups of one root are one partition */
struct grp {
	const OrtNode **nodes;
	size_t nn;
	int root;
	bool host;		/* computed on the host (no e1 operation matches ORT) */
};

int grp_root(struct grp *g, int i);
/* merge groups joined by a tensor when the result stays acyclic */
void part_merge(struct grp *g, size_t ng, const OrtNode *const *all, size_t nall);
/* the matcher part_compile() rebuilds each group with (ep.c's) */
struct part_ops {
	bool (*anchor)(const char *op);		/* an op a group is anchored at */
	void (*match)(const OrtNode *n, struct match *m);
};

/* the kernels of a partition graph, chained in order, in *@head */
OrtStatus *part_compile(struct e1_ep *ep, const OrtGraph *g, const OrtNode *fused,
			struct kern **head, const struct part_ops *po);

/* ep_groups.c, ep_xk.c, ep_move.c ... ep_pool.c: the K_XK kernels */
#define XK_MAXIN 16

enum xk_op {
	XK_RESHAPE, XK_FLATTEN, XK_SQUEEZE, XK_UNSQUEEZE, XK_TRANSPOSE,
	XK_CONCAT, XK_RELU, XK_ADD, XK_MUL, XK_SLICE, XK_RESIZE,
	XK_SOFTMAX, XK_AVGPOOL, XK_GLOBALAVGPOOL, XK_LEAKYRELU,
};

struct xk {
	enum xk_op op;
	int dt;			/* the 8-bit type of inputs and output */
	size_t nin;
	struct operand in[XK_MAXIN];	/* runtime_idx -2 until Compile binds it */
	char *names[XK_MAXIN];	/* run-time inputs' value names */
	uint8_t *lut[XK_MAXIN];	/* Concat, LeakyRelu: requantization table, NULL: copy */
	int64_t v[8];		/* Reshape's shape, Transpose's perm, (Un)Squeeze's axes */
	int nv;			/* -1: none given (Transpose: reversed; Squeeze: all 1s) */
	int64_t axis;		/* Flatten, Concat, Softmax (nv: Softmax's opset) */
	bool allowzero;		/* Reshape; AveragePool: count_include_pad */
	/* Slice: starts, ends, axes, steps; Resize: integer scales in sl[0],
	 * coordinate mode in sl[1][0], nearest mode in sl[1][1]; AveragePool:
	 * kernel, strides, pads */
	int64_t sl[4][8];
	int nsl;
	/* QLinearAdd/QLinearMul: per-tensor A, B, C */
	float s[2], ys;
	int32_t zp[2], yzp;
	bool fma;		/* the CPU has AVX2+FMA: MLAS runs its AVX2 QLinearAdd */
};

/* ep_groups.c: an op type a group is anchored at; its matcher, compute */
bool xk_anchor(const char *op);
void xk_match(const OrtNode *n, struct match *m);
OrtStatus *xk_run(struct kern *k, OrtKernelContext *ctx);
void xk_free(struct xk *x);
/* ep_xk.c: the QuantizeLinear alone consuming @v (constant per-tensor
 * parameters) */
const char *xk_q_after(const OrtValueInfo *v, const OrtNode **qn, int *dt, struct qp *q);
const char *xk_scale_guard(float s);
/* NULL when ORT's Relu/ClipQuantFusion removes @act before the Q @q */
const char *xk_act_dropped(const OrtNode *act, const OrtNode *q, int dt);
/* an operand: constant (copied) or run-time (bound at Compile, ep_part.c) */
const char *xk_input(struct xk *x, const OrtValueInfo *v);
/* DQ @v's run-time source of type @dt, its constant per-tensor parameters */
const char *xk_dq_params(const OrtValueInfo *v, const OrtValueInfo **src, int dt,
			 const OrtNode **dq, float *s, int32_t *zp);
/* DQ @v's source and parameters: constant per-tensor, equal to @y's */
const char *xk_dq_equal(const OrtValueInfo *v, const OrtValueInfo **src, int dt,
			const struct qp *y, const OrtNode **dq);
struct xk *xk_new(struct match *m, enum xk_op op, int dt);
/* the ends of a one-operand group DQ -> op -> Q */
struct xk_ends {
	const OrtNode *dq, *q;
	const OrtValueInfo *src;	/* the DQ's run-time source */
	struct qp y;			/* the Q's parameters (qp_free them) */
	int dt;
};
/* an equal-parameter group (data movement): the Q after @n within the
 * scale guard, the DQ of @in0 with the Q's parameters; its xk, or NULL
 * with m->why set */
struct xk *xk_head_equal(const OrtNode *n, const OrtValueInfo *in0, struct match *m, enum xk_op op,
			 struct xk_ends *e);
/* a one-operand group claimed: its operand @src bound, the nodes dq, @n,
 * q in @m, named "DQ-><op>->Q"; NULL, or why not */
const char *xk_claim_unary(struct match *m, struct xk *x, const OrtValueInfo *src,
			   const OrtNode *dq, const OrtNode *n, const OrtNode *q);
/* a constant int64 [n <= 8] input into @out, its count in *@n */
const char *xk_ints(const OrtValueInfo *v, int64_t *out, int *n);
/* ep_move.c: Reshape ... Transpose, Relu; Concat; LeakyRelu */
void mv_match(const OrtNode *n, struct match *m, enum xk_op op);
void mv_match_concat(const OrtNode *n, struct match *m);
void mv_match_leaky(const OrtNode *n, struct match *m);
OrtStatus *mv_run(struct kern *k, OrtKernelContext *ctx);
/* ep_select.c: DQ -> Slice / Resize (nearest) -> Q */
void sel_match(const OrtNode *n, struct match *m, enum xk_op op);
OrtStatus *sel_run(struct kern *k, OrtKernelContext *ctx);
/* ep_softmax.c: DQ -> Softmax -> Q as QLinearSoftmax */
void sm_match(const OrtNode *n, struct match *m);
OrtStatus *sm_run(struct kern *k, OrtKernelContext *ctx);
/* ep_pool.c: DQ -> AveragePool/GlobalAveragePool -> Q */
void pool_match(const OrtNode *n, struct match *m, enum xk_op op);
OrtStatus *pool_run(struct kern *k, OrtKernelContext *ctx);
/* ep_eltwise.c: DQ -> Add/Mul -> Q */
void ew_match(const OrtNode *n, struct match *m, enum xk_op op);
OrtStatus *ew_run(struct kern *k, OrtKernelContext *ctx);
/* ep_util.c: the CPU has AVX2 and FMA: MLAS's QLinearAdd kernel is the
 * verified one */
bool ew_cpu_ok(void);
/* why ORT's CPU EP on this CPU does not compute group @op as its kernel
 * here reproduces it (the matchers and the compiled-model loader ask),
 * or NULL */
const char *xk_cpu_why(enum xk_op op);
/* what runs where, for the verbose claim line */
const char *xk_desc(const struct kern *k);

#endif
