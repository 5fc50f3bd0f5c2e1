/* SPDX-License-Identifier: MIT */
/*
 * TFLite interpreter on the lowering layer (include/e1npu/e1npu_tflite.h,
 * Documentation/tflite.md). At load: parse (tflite_reader.c), validate
 * every operator's tensors, convert weights once (conv OHWI -> HWIO) and
 * create the e1npu_conv / e1npu_fc objects. At invoke: one call per layer
 * into e1npu_ops (NPU path) or lib/ref (reference path); RESHAPE, QUANTIZE
 * and MEAN run in the interpreter on the CPU with TFLite's integer
 * arithmetic.
 *
 * Its files: tflite_load.c (load, arena, data flow, free), tflite_api.c
 * (the public getters, setters and invoke), tflite_part.c (the delegate's
 * partial interpreters), tflite_layer.c (per-layer prepare and run
 * dispatch), tflite_prep_conv.c, tflite_prep_elem.c and
 * tflite_prep_shape.c (each operator's preparation), tflite_check.c (the
 * checks those share). This header holds the state they share (struct
 * layer, struct e1npu_tflite) and their prototypes: internal to
 * lib/tflite, not installed.
 */
#ifndef __E1NPU_TFLITE_INTERNAL_H__
#define __E1NPU_TFLITE_INTERNAL_H__

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <e1npu/e1npu_tflite.h>

#include "internal.h"
#include "arena_plan.h"
#include "conv_choice.h"
#include "tflite_argmax.h"
#include "tflite_bcast.h"
#include "tflite_bilinear.h"
#include "tflite_concat.h"
#include "tflite_depth_space.h"
#include "tflite_float.h"
#include "tflite_gather.h"
#include "tflite_hswish.h"
#include "tflite_l2norm.h"
#include "tflite_layout.h"
#include "tflite_logsoftmax.h"
#include "tflite_lut.h"
#include "tflite_mean.h"
#include "tflite_mul.h"
#include "tflite_pad.h"
#include "tflite_prelu.h"
#include "tflite_reader.h"
#include "tflite_reduce.h"
#include "tflite_relu.h"
#include "tflite_resize.h"
#include "tflite_space_batch.h"
#include "tflite_split.h"
#include "tflite_sub.h"
#include "tflite_tconv.h"
#include "tflite_tconv_lower.h"

struct layer {
	const struct tfl_operator *op;
	int32_t in, in2, out;		/* tensor indices */
	/* conv / depthwise / fc */
	struct e1npu_conv_params cp;
	struct e1npu_fc_params fp;
	uint32_t fc_rows;
	void *w;			/* HWIO / depthwise / [n][k] weights */
	int32_t *bias;
	float *wscales;
	struct e1npu_conv *conv;
	struct e1npu_fc *fc;
	/* pools */
	struct e1npu_pool_params pp;
	/* add */
	struct e1npu_qparams qa, qb, qo;
	uint32_t act, dtype;
	size_t count;
	/* softmax */
	uint32_t rows, depth;
	float in_scale, beta;
	/* quantize / mean */
	int32_t mult, in_zp, out_zp, lo, hi;
	int shift;
	uint32_t in_type, out_type;
	struct tfl_mean mean;
	struct tfl_relu relu;
	struct tfl_mul mul;
	struct tfl_pad pad;
	struct tfl_sub sub;
	struct tfl_concat concat;
	struct tfl_layout layout;
	struct tfl_resize resize;
	struct tfl_hswish hswish;
	struct tfl_bcast bcast;		/* MUL, SUB, MAXIMUM, MINIMUM, ADD */
	/* structural / index ops (issue 21) */
	struct tfl_split split;		/* SPLIT, SPLIT_V, UNPACK, PACK */
	struct tfl_argmax argmax;
	struct tfl_gather gather;
	const void *gather_idx;		/* constant indices, or NULL: in2 */
	struct tfl_space_batch space_batch;
	struct tfl_depth_space depth_space;	/* DEPTH_TO_SPACE, SPACE_TO_DEPTH */
	struct tfl_tconv tconv;		/* TRANSPOSE_CONV */
	struct tfl_tconv_lower tconv_lw;	/* ... as an e1 convolution (conv != NULL) */
	struct tfl_reduce reduce;	/* REDUCE_MAX, REDUCE_MIN, SUM */
	struct tfl_prelu prelu;
	struct tfl_logsoftmax logsoftmax;
	const void *alpha;		/* PRELU's constant alpha, or NULL: in2 */
	struct tfl_bilinear bilinear;
	bool add_bcast;			/* ADD of different shapes: on the host */
	struct tfl_lut lut;		/* LOGISTIC, TANH, LEAKY_RELU */
	struct tfl_l2norm l2norm;
	struct tfl_float flt;		/* DEQUANTIZE, QUANTIZE from float32 */
	const char *host_why;		/* host-only layers that say why at load */
	struct e1npu_tflite_layer rep;
};

struct e1npu_tflite {
	uint8_t *file;
	size_t size;
	struct tfl_model m;
	uint32_t path;
	struct e1npu_ops *ops;
	void **buf;			/* per tensor: its place in the arena */
	uint8_t *arena;			/* every activation (arena_plan.c) */
	struct arena_item *plan;	/* per tensor; size 0: not in the arena */
	uint8_t *role;			/* per tensor: E1NPU_TFLITE_ROLE_* */
	struct e1npu_tflite_arena arena_info;
	struct layer *layers;
	uint32_t nlayers;
	bool part;			/* e1npu_tflite_part_*: model and buffers borrowed */
	/* during load from an artifact: per layer, its stored lowering */
	const struct ops_conv_choice *choices;
	char err[256];
};

/* tflite_check.c: @fmt into t->err; returns @ret. */
__attribute__((format(printf, 3, 4)))
int tf_fail(struct e1npu_tflite *t, int ret, const char *fmt, ...);

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static inline uint32_t dtype_of(uint32_t type)
{
	return type == TFL_TYPE_UINT8 ? E1NPU_DTYPE_UINT8 :
	       type == TFL_TYPE_INT8 ? E1NPU_DTYPE_INT8 : 0;
}

/*
 * The enum e1npu_dtype of a model input or output, 0 if not one the API
 * takes (int32/int64: outputs only, e.g. ARG_MAX's indices).
 */
static inline uint32_t io_dtype(uint32_t type)
{
	return type == TFL_TYPE_FLOAT32 ? E1NPU_DTYPE_FLOAT32 :
	       type == TFL_TYPE_INT32 ? E1NPU_DTYPE_INT32 :
	       type == TFL_TYPE_INT64 ? E1NPU_DTYPE_INT64 : dtype_of(type);
}

static inline void type_range(uint32_t type, int32_t *lo, int32_t *hi)
{
	if (type == TFL_TYPE_UINT8) {
		*lo = 0;
		*hi = 255;
	} else {
		*lo = -128;
		*hi = 127;
	}
}

/* Layer-scoped error: "operator 3 (CONV_2D): ...". */
#define LFAIL(t, i, l, ret, fmt, ...) \
	tf_fail(t, ret, "operator %u (%s): " fmt, i, \
		tfl_builtin_name((l)->op->builtin), ##__VA_ARGS__)

/* The TFLite release the layers follow (struct tfl_model's ref, 0: 2.2). */
static inline uint32_t tf_ref(const struct e1npu_tflite *t)
{
	return t->m.ref == E1NPU_TFLITE_REF_2_14 ? E1NPU_TFLITE_REF_2_14 : E1NPU_TFLITE_REF_2_2;
}

/*
 * enum e1npu_tflite_ref of options field @ref, E1NPU_TFLITE_REF_DEFAULT
 * resolved through the environment variable E1NPU_TFLITE_REF; -EINVAL
 * (message in @err) for a bad field or variable.
 */
int tflite_ref_resolve(uint32_t ref, uint32_t *out, char *err, size_t errlen);

static inline const struct tfl_tensor *T(const struct e1npu_tflite *t, int32_t i)
{
	return &t->m.tensors[i];
}

/* tflite_check.c: checks the operators' preparations share. */
int tf_qparams(struct e1npu_tflite *t, uint32_t li, struct layer *l, int32_t ti,
	       struct e1npu_qparams *q);
int tf_map_act(struct e1npu_tflite *t, uint32_t li, struct layer *l, int32_t act,
	       uint32_t *out);
int tf_want(struct e1npu_tflite *t, uint32_t li, struct layer *l, int32_t ti,
	    const char *role, int ndims, bool constant);
int tf_want_act_type(struct e1npu_tflite *t, uint32_t li, struct layer *l, int32_t ti,
		     uint32_t type);
int tf_const_ints(struct e1npu_tflite *t, uint32_t li, struct layer *l, int32_t ti,
		  const char *role, uint32_t n, int32_t *v);
void tf_set_shape(struct layer *l, const struct tfl_tensor *in, const struct tfl_tensor *out);
bool tf_layer_bufs(const struct e1npu_tflite *t, const struct layer *l);

/*
 * Each operator's preparation: validate operator @li's tensors and
 * options into @l. 0, or a negative errno with t->err set (-ENOMEM
 * without: tf_prepare_layer() words it).
 */
/* tflite_prep_conv.c */
int tf_prep_conv(struct e1npu_tflite *t, uint32_t li, struct layer *l);
int tf_prep_fc(struct e1npu_tflite *t, uint32_t li, struct layer *l);
int tf_prep_pool(struct e1npu_tflite *t, uint32_t li, struct layer *l);
int tf_prep_tconv(struct e1npu_tflite *t, uint32_t li, struct layer *l);
/* tflite_prep_elem.c */
int tf_prep_add(struct e1npu_tflite *t, uint32_t li, struct layer *l);
int tf_prep_mul_sub(struct e1npu_tflite *t, uint32_t li, struct layer *l);
int tf_prep_minmax(struct e1npu_tflite *t, uint32_t li, struct layer *l);
int tf_prep_relu(struct e1npu_tflite *t, uint32_t li, struct layer *l);
int tf_prep_lut(struct e1npu_tflite *t, uint32_t li, struct layer *l);
int tf_prep_prelu(struct e1npu_tflite *t, uint32_t li, struct layer *l);
int tf_prep_softmax(struct e1npu_tflite *t, uint32_t li, struct layer *l);
int tf_prep_logsoftmax(struct e1npu_tflite *t, uint32_t li, struct layer *l);
int tf_prep_l2norm(struct e1npu_tflite *t, uint32_t li, struct layer *l);
int tf_prep_quantize(struct e1npu_tflite *t, uint32_t li, struct layer *l);
int tf_prep_float(struct e1npu_tflite *t, uint32_t li, struct layer *l);
int tf_prep_mean(struct e1npu_tflite *t, uint32_t li, struct layer *l);
int tf_prep_reduce(struct e1npu_tflite *t, uint32_t li, struct layer *l);
/* tflite_prep_shape.c */
int tf_prep_reshape(struct e1npu_tflite *t, uint32_t li, struct layer *l);
int tf_prep_concat(struct e1npu_tflite *t, uint32_t li, struct layer *l);
int tf_prep_layout(struct e1npu_tflite *t, uint32_t li, struct layer *l);
int tf_prep_strided_slice(struct e1npu_tflite *t, uint32_t li, struct layer *l);
int tf_prep_pad(struct e1npu_tflite *t, uint32_t li, struct layer *l);
int tf_prep_split(struct e1npu_tflite *t, uint32_t li, struct layer *l);
int tf_prep_pack(struct e1npu_tflite *t, uint32_t li, struct layer *l);
int tf_prep_gather(struct e1npu_tflite *t, uint32_t li, struct layer *l);
int tf_prep_argmax(struct e1npu_tflite *t, uint32_t li, struct layer *l);
int tf_prep_space_batch(struct e1npu_tflite *t, uint32_t li, struct layer *l);
int tf_prep_depth_space(struct e1npu_tflite *t, uint32_t li, struct layer *l);
int tf_prep_resize(struct e1npu_tflite *t, uint32_t li, struct layer *l);
int tf_prep_bilinear(struct e1npu_tflite *t, uint32_t li, struct layer *l);

/* tflite_layer.c: prepare operator @i into @l; run prepared layer @l (operator @li). */
int tf_prepare_layer(struct e1npu_tflite *t, uint32_t i, struct layer *l);
int tf_run_layer(struct e1npu_tflite *t, uint32_t li, struct layer *l);

#endif /* __E1NPU_TFLITE_INTERNAL_H__ */
