/* SPDX-License-Identifier: MIT */
/*
 * The e1 ONNX Runtime plugin EP's shared state: a claimed partition's
 * kernel (struct kern), the EP and its factory, and the graph helpers
 * that ep.c (matching, compute) and ep_context.c (EPContext models) both
 * use.
 */
#ifndef E1NPU_ORT_EP_H
#define E1NPU_ORT_EP_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <onnxruntime_c_api.h>

#include <e1npu/e1npu.h>
#include <e1npu/e1npu_ops.h>

#define EP_NAME "e1npu"
#define EP_VENDOR "e1"
#define EP_VERSION E1NPU_VERSION
#define EXPORT __attribute__((visibility("default")))

enum { LOG_QUIET = 0, LOG_SUMMARY = 1, LOG_VERBOSE = 2 };

struct e1_factory {
	OrtEpFactory base;
	char devdesc[128];	/* what libe1npu found */
	char devpath[64];
	int backend;
};

struct e1_ep;

/* One claimed group's kernel: a quantized product with its DQ/Q, or
 * another QDQ group (K_XK); a partition chains several (ep_part.c). */
/* K_XK: a QDQ group of ep_move.c / ep_eltwise.c (struct xk) */
enum kkind { K_MATMUL, K_CONV, K_MAXPOOL, K_XK };
struct xk;

struct operand {		/* a tensor: constant (copied) or run-time */
	int runtime_idx;	/* fused-node input index, -1 when constant */
	int dtype;		/* ONNXTensorElementDataType */
	void *data;		/* constant data */
	size_t count;
	int64_t dims[8];
	size_t rank;
};

struct kern {
	OrtNodeComputeInfo info;
	struct e1_ep *ep;
	char name[96];
	char op[40];
	enum kkind kind;
	bool requant;		/* else int32 output (MatMulInteger, ConvInteger) */
	struct operand x, w, bias;
	int xdt, wdt, ydt;
	int32_t xzp, yzp;
	int32_t *wzp;		/* [n] */
	float xs, ys;
	float *ws;		/* [n] */
	size_t nw;		/* entries in ws/wzp (1 or n) */
	/* run-time scales / zero points: fused-node input index, -1 none;
	 * xs xz ws wz ys yz */
	int rt[6];
	const OrtValueInfo *rtv[6];
	/* conv */
	int autopad;		/* 0 pads, 1 SAME_UPPER, 2 SAME_LOWER */
	int64_t group, kh, kw, sh, sw, dh, dw, pt, pl, pb, pr;
	uint64_t runs;		/* e1 calls made */
	uint64_t computes;	/* Compute calls */
	char why[200];
	struct xk *xk;		/* K_XK's own state */
	/*
	 * A partition of several groups (ep_part.c): the kernels in order,
	 * chained from the one ORT holds; each writes its output to the
	 * fused node's output out_idx (unless out_internal) and, when a later
	 * kernel reads it, to its slot (out_slot1 - 1; 0: none). An operand
	 * with runtime_idx <= -3 is slot -3 - runtime_idx.
	 */
	struct kern *next;
	int out_idx;
	bool out_internal;
	int out_slot1;
	size_t nslots;		/* the first kernel's: slots of the partition */
};

struct slot {			/* a tensor passed between a partition's kernels */
	void *data;
	int64_t dims[8];
	size_t rank;
	bool owned;		/* allocated here (else the fused node's output) */
};

struct e1_ep {
	OrtEp base;
	struct e1_factory *f;
	struct e1npu_device *dev;
	struct e1npu_ops *ops;
	pthread_mutex_t lock;	/* one Compute at a time on @ops */
	int log;
	char devname[96];
	char cache_dir[256];
	bool ctx_enable;	/* session option ep.context_enable=1: save EPContext nodes */
};

extern const OrtApi *ort;
extern const OrtEpApi *epapi;

/* An ORT status with a printf message. */
OrtStatus *st(OrtErrorCode code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* true when @s is success; releases a failure */
bool ok(OrtStatus *s);
const char *node_op(const OrtNode *n);
const char *node_name(const OrtNode *n);
size_t node_inputs(const OrtNode *n, const OrtValueInfo **in, size_t max);
const char *vi_name(const OrtValueInfo *v);
size_t dt_size(int dt);
void kern_free(struct kern *k);
/* a partition's kernels, each freed */
void kern_chain_free(struct kern *k);
void xk_free(struct xk *x);
/* NULL, or why ORT's CPU EP would not compute @k's product exactly here */
const char *sat_guard(const struct kern *k);
/* index of the fused node's input named @name, -1 when absent */
int fused_input(const OrtNode *fused, const char *name);

/* ep_io.c, ep_part.c: partitions of several groups */
/* @k's output (dims, rank): the fused node's output, a slot, or both */
OrtStatus *kout(struct kern *k, OrtKernelContext *ctx, const int64_t *dims, size_t rank, void **y);
/* slot @i of the partition being run (ep_io.c) */
const struct slot *slot_get(int i);
/* the calling thread's @n slots, for one partition's run; freed */
bool slots_open(size_t n);
void slots_close(void);
/* every kernel of a partition, in order, each by @run_fn */
OrtStatus *part_run(struct kern *head, OrtKernelContext *ctx,
		    OrtStatus *(*run_fn)(struct kern *, OrtKernelContext *));

/* ep_context.c: EPContext models */
bool ctx_is_ep_context(const OrtNode *n);
/* an EPContext node whose source attribute is this EP's name */
bool ctx_is_ours(const OrtNode *n);
/* NULL when @n's blob loads on @ep's device, else the refusal */
OrtStatus *ctx_check(struct e1_ep *ep, const OrtNode *n);
/* @k from @n's blob, its run-time operands mapped onto @fused's inputs */
OrtStatus *ctx_load(struct e1_ep *ep, const OrtNode *n, const OrtNode *fused, struct kern *k);
/* the EPContext node saving kernel @k of @fused, in *@out */
OrtStatus *ctx_save(struct e1_ep *ep, const struct kern *k, const OrtNode *fused,
		    OrtNode **out);
/* what a compiled model needs of this EP: "e1npu;artifact=F;libe1npu=V" */
const char *ctx_compat_info(void);

#endif
