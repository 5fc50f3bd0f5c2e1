// SPDX-License-Identifier: MIT
/*
 * Which tensors may change shape while the graph runs. The delegate
 * declares kTfLiteDelegateFlagsAllowDynamicTensors, so TFLite calls its
 * Prepare before preparing any node: a RESHAPE fed a computed shape is not
 * yet marked kTfLiteDynamic then. So the walk is static, in execution
 * order and conservative: a tensor is dynamic when TFLite already says so,
 * when a node that makes it reads a dynamic tensor, or when that node
 * reads a non-constant integer tensor (a shape, size, index or axis
 * computed at run time: SHAPE -> STRIDED_SLICE -> PACK -> RESHAPE).
 */
#include <stdlib.h>

#include "dynamic.h"

static bool in_range(const struct tflc_context *ctx, int t)
{
	return t >= 0 && (size_t)t < ctx->tensors_size;
}

static bool runtime_int(const struct tflc_tensor *t)
{
	return (t->type == TFLC_INT32 || t->type == TFLC_INT64) &&
	       t->allocation_type != TFLC_MMAP_RO;
}

bool *e1d_dynamic_tensors(struct tflc_context *ctx, const int *nodes, int n)
{
	bool *dyn = calloc(ctx->tensors_size ? ctx->tensors_size : 1, sizeof(*dyn));

	if (!dyn)
		return NULL;
	for (size_t i = 0; i < ctx->tensors_size; i++)
		dyn[i] = ctx->tensors[i].allocation_type == TFLC_DYNAMIC;
	for (int k = 0; k < n; k++) {
		struct tflc_node *node;
		struct tflc_registration *reg;
		bool d = false;

		if (ctx->GetNodeAndRegistration(ctx, nodes[k], &node, &reg) != TFL_OK) {
			free(dyn);
			return NULL;
		}
		for (int i = 0; node->inputs && i < node->inputs->size; i++) {
			int t = node->inputs->data[i];

			if (in_range(ctx, t) && (dyn[t] || runtime_int(&ctx->tensors[t])))
				d = true;
		}
		for (int i = 0; d && node->outputs && i < node->outputs->size; i++)
			if (in_range(ctx, node->outputs->data[i]))
				dyn[node->outputs->data[i]] = true;
	}
	return dyn;
}

int e1d_node_dynamic(struct tflc_context *ctx, int node_index, const bool *dyn)
{
	struct tflc_node *node;
	struct tflc_registration *reg;
	const struct tflc_int_array *lists[2];

	if (ctx->GetNodeAndRegistration(ctx, node_index, &node, &reg) != TFL_OK)
		return -1;
	lists[0] = node->inputs;
	lists[1] = node->outputs;
	for (int l = 0; l < 2; l++)
		for (int i = 0; lists[l] && i < lists[l]->size; i++) {
			int t = lists[l]->data[i];

			if (in_range(ctx, t) && dyn[t])
				return t;
		}
	return -1;
}
