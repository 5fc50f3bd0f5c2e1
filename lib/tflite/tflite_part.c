// SPDX-License-Identifier: MIT
/*
 * Partial interpreters for the TFLite delegate (tflite_part.h): the same
 * layer preparation and the same tf_run_layer() as the whole-model
 * interpreter, on a model view the caller built and owns; no arena of
 * their own, each invoke is given every tensor's buffer.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tflite_artifact.h"
#include "tflite_internal.h"
#include "tflite_part.h"
#include "trace.h"

static int part_new(struct e1npu_ops *ctx, const struct tfl_model *m,
		    const uint32_t *ops, uint32_t n, const struct ops_conv_choice *choices,
		    struct e1npu_tflite **tp)
{
	struct e1npu_tflite *t = calloc(1, sizeof(*t));
	int ret = 0;

	*tp = t;
	if (!t)
		return -ENOMEM;
	t->part = true;
	t->m = *m;
	/* The caller's context, shared by all its partitions (borrowed). */
	t->ops = ctx;
	t->path = ctx ? E1NPU_TFLITE_PATH_NPU : E1NPU_TFLITE_PATH_REFERENCE;
	t->buf = calloc(m->num_tensors ? m->num_tensors : 1, sizeof(void *));
	t->layers = calloc(n ? n : 1, sizeof(*t->layers));
	if (!t->buf || !t->layers)
		return tf_fail(t, -ENOMEM, "out of memory");
	for (uint32_t k = 0; k < n; k++) {
		if (ops[k] >= m->num_operators)
			return tf_fail(t, -EINVAL, "operator %u of %u", ops[k], m->num_operators);
		t->nlayers = k + 1;	/* what e1npu_tflite_free() releases */
		t->choices = ctx ? choices : NULL;
		ret = tf_prepare_layer(t, ops[k], &t->layers[k]);
		t->choices = NULL;
		if (ret)
			return ret;
	}
	return 0;
}

int e1npu_tflite_part_check(const struct tfl_model *m, uint32_t op,
			    char *err, size_t errlen)
{
	struct e1npu_tflite *t;
	int ret = part_new(NULL, m, &op, 1, NULL, &t);

	if (err && errlen)
		snprintf(err, errlen, "%s", ret && t ? t->err : ret ? "out of memory" : "");
	e1npu_tflite_free(t);
	return ret;
}

int e1npu_tflite_part_new(struct e1npu_ops *ctx, const struct tfl_model *m,
			  const uint32_t *ops, uint32_t n,
			  struct e1npu_tflite **tp, char *err, size_t errlen)
{
	return tflite_part_new_chosen(ctx, m, ops, n, NULL, tp, err, errlen);
}

int tflite_part_new_chosen(struct e1npu_ops *ctx, const struct tfl_model *m,
			   const uint32_t *ops, uint32_t n,
			   const struct ops_conv_choice *choices,
			   struct e1npu_tflite **tp, char *err, size_t errlen)
{
	int ret = part_new(ctx, m, ops, n, choices, tp);

	if (ret) {
		if (err && errlen)
			snprintf(err, errlen, "%s", *tp ? (*tp)->err : "out of memory");
		e1npu_tflite_free(*tp);
		*tp = NULL;
	}
	return ret;
}

int e1npu_tflite_part_invoke(struct e1npu_tflite *t, void *const *bufs)
{
	int ret = 0;

	memcpy(t->buf, bufs, t->m.num_tensors * sizeof(void *));
	t->err[0] = 0;
	for (uint32_t i = 0; i < t->nlayers && !ret; i++) {
		struct layer *l = &t->layers[i];
		uint64_t t0 = now_ns();

		e1npu_trace_layer_begin(l->rep.index, l->rep.op);	/* lib/trace.c */
		if (!tf_layer_bufs(t, l))
			ret = LFAIL(t, l->rep.index, l, -EINVAL, "activation tensor without storage");
		else
			ret = tf_run_layer(t, l->rep.index, l);
		l->rep.wall_ns = now_ns() - t0;
		e1npu_trace_layer(l->rep.index, l->rep.op, l->rep.shape, &l->rep.report, t0,
				  t0 + l->rep.wall_ns);
	}
	memset(t->buf, 0, t->m.num_tensors * sizeof(void *));
	return ret;
}
