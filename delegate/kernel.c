// SPDX-License-Identifier: MIT
/*
 * The e1npu delegate kernel: one per partition TFLite hands us. It runs
 * the partition's nodes as a partial libe1npu interpreter
 * (lib/tflite/tflite_part.h: the same layers as e1npu_tflite_invoke) on
 * the delegate's lowering context, which all its kernels share. Tensors entering or leaving the partition are
 * TFLite's, bound at every invoke; tensors only used inside it are not
 * allocated by TFLite (no remaining node names them), so the kernel keeps
 * its own storage for them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "delegate.h"
#include "tflite_part.h"

struct e1d_kernel {
	struct e1d *d;
	struct e1d_view v;
	struct e1npu_tflite *t;
	uint8_t *external;	/* per tensor: 1 = TFLite's storage */
	void **bufs;		/* per tensor: storage for this invoke */
	char err[300];		/* init failure, reported by prepare */
};

static bool in_array(const struct tflc_int_array *a, int x)
{
	for (int i = 0; a && i < a->size; i++)
		if (a->data[i] == x)
			return true;
	return false;
}

/* Storage for the tensors the partition's layers use. */
static int kernel_storage(struct e1d_kernel *k, const struct tflc_delegate_params *p)
{
	const struct tfl_model *m = &k->v.m;

	k->external = calloc(m->num_tensors ? m->num_tensors : 1, 1);
	k->bufs = calloc(m->num_tensors ? m->num_tensors : 1, sizeof(void *));
	if (!k->external || !k->bufs)
		return -ENOMEM;
	for (uint32_t o = 0; o < m->num_operators; o++) {
		const struct tfl_operator *op = &m->operators[o];

		for (uint32_t j = 0; j < op->num_inputs + op->num_outputs; j++) {
			int32_t ti = j < op->num_inputs ? op->inputs[j] :
				     op->outputs[j - op->num_inputs];
			const struct tfl_tensor *x = &m->tensors[ti < 0 ? 0 : ti];
			size_t cnt = tfl_tensor_count(x), es = tfl_type_size(x->type);

			if (ti < 0 || x->data || k->external[ti] || k->bufs[ti])
				continue;
			if (in_array(p->input_tensors, ti) || in_array(p->output_tensors, ti)) {
				k->external[ti] = 1;
				continue;
			}
			if (!es || !cnt || cnt > ((size_t)1 << 30) / es)
				return -EINVAL;
			k->bufs[ti] = calloc(cnt, es);
			if (!k->bufs[ti])
				return -ENOMEM;
		}
	}
	return 0;
}

void *e1d_kernel_init(struct tflc_context *ctx, const char *buffer, size_t length)
{
	const struct tflc_delegate_params *p = (const void *)buffer;
	struct e1d_kernel *k = calloc(1, sizeof(*k));
	uint32_t *ops;
	int ret;

	(void)length;
	if (!k)
		return NULL;
	k->d = p->delegate->data_;
	k->d->partitions++;
	ret = e1d_view_build(ctx, p->nodes_to_replace->data, p->nodes_to_replace->size,
			     k->d->nn_half_field, &k->v, k->err, sizeof(k->err));
	if (ret)
		return k;
	k->v.m.ref = k->d->ref;		/* set by Prepare (version.c) */
	k->v.m.ruy_single = k->d->ruy_single;
	ret = kernel_storage(k, p);
	if (ret) {
		snprintf(k->err, sizeof(k->err), "partition storage: %s", e1npu_strerror(ret));
		return k;
	}
	ops = calloc(k->v.m.num_operators ? k->v.m.num_operators : 1, sizeof(*ops));
	if (!ops) {
		snprintf(k->err, sizeof(k->err), "out of memory");
		return k;
	}
	for (uint32_t i = 0; i < k->v.m.num_operators; i++)
		ops[i] = i;
	/* through the cache when there is one (option cache_dir, cache.c) */
	ret = e1d_cache_part_new(k->d, k->d->partitions, &k->v.m, ops, k->v.m.num_operators,
				 &k->t, k->err, sizeof(k->err));
	free(ops);
	if (!ret)
		e1d_log(k->d, 2, "partition %u: nodes %d..%d (%u), %d inputs, %d outputs",
			k->d->partitions, k->v.node[0], k->v.node[k->v.m.num_operators - 1],
			k->v.m.num_operators, p->input_tensors->size, p->output_tensors->size);
	return k;
}

void e1d_kernel_free(struct tflc_context *ctx, void *buffer)
{
	struct e1d_kernel *k = buffer;

	(void)ctx;
	if (!k)
		return;
	e1npu_tflite_free(k->t);
	for (uint32_t i = 0; k->bufs && i < k->v.m.num_tensors; i++)
		if (!k->external[i])
			free(k->bufs[i]);
	free(k->bufs);
	free(k->external);
	e1d_view_free(&k->v);
	free(k);
}

static bool same_dims(const struct tflc_tensor *t, const struct tfl_tensor *x)
{
	if (!t->dims || t->dims->size != (int)x->ndims)
		return false;
	for (uint32_t d = 0; d < x->ndims; d++)
		if (t->dims->data[d] != x->dims[d])
			return false;
	return true;
}

/*
 * TFLite's tensors must still have the shapes the layers were built for:
 * with dynamic tensors allowed, an application may resize an input after
 * delegation, and TFLite then prepares this node again.
 */
tfl_status e1d_kernel_prepare(struct tflc_context *ctx, struct tflc_node *node)
{
	struct e1d_kernel *k = node->user_data;

	if (!k || !k->t) {
		ctx->ReportError(ctx, "e1npu delegate: %s", k ? k->err : "out of memory");
		return TFL_ERROR;
	}
	for (uint32_t i = 0; i < k->v.m.num_tensors; i++) {
		const struct tfl_tensor *x = &k->v.m.tensors[i];
		size_t want = tfl_tensor_count(x) * tfl_type_size(x->type);

		if (k->external[i] && (ctx->tensors[i].bytes != want ||
				       !same_dims(&ctx->tensors[i], x))) {
			ctx->ReportError(ctx, "e1npu delegate: tensor %u (%s) is %zu bytes, the partition was built for %zu (resized after delegation: build the interpreter again)",
					 i, x->name, ctx->tensors[i].bytes, want);
			return TFL_ERROR;
		}
	}
	return TFL_OK;
}

tfl_status e1d_kernel_invoke(struct tflc_context *ctx, struct tflc_node *node)
{
	struct e1d_kernel *k = node->user_data;
	int ret;

	for (uint32_t i = 0; i < k->v.m.num_tensors; i++)
		if (k->external[i])
			k->bufs[i] = ctx->tensors[i].data;
	ret = e1npu_tflite_part_invoke(k->t, k->bufs);
	if (ret) {
		ctx->ReportError(ctx, "e1npu delegate: %s", e1npu_tflite_last_error(k->t));
		return TFL_ERROR;
	}
	return TFL_OK;
}
