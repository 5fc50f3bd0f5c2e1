// SPDX-License-Identifier: MIT
/*
 * A kernel's tensors at Compute: its inputs (a constant, the fused node's
 * input, or an earlier kernel's output in the same partition) and its
 * output (the fused node's output, a slot a later kernel reads, or both).
 * The slots of the partition being run are the calling thread's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ep.h"
#include "ep_graph.h"

static _Thread_local struct slot *tl_slots;
static _Thread_local size_t tl_nslots;

bool slots_open(size_t n)
{
	tl_slots = calloc(n + 1, sizeof(*tl_slots));
	tl_nslots = tl_slots ? n : 0;
	return tl_slots != NULL;
}

void slots_close(void)
{
	for (size_t i = 0; i < tl_nslots; i++)
		if (tl_slots[i].owned)
			free(tl_slots[i].data);
	free(tl_slots);
	tl_slots = NULL;
	tl_nslots = 0;
}

const struct slot *slot_get(int i)
{
	return i >= 0 && (size_t)i < tl_nslots ? &tl_slots[i] : NULL;
}

OrtStatus *kout(struct kern *k, OrtKernelContext *ctx, const int64_t *dims, size_t rank, void **y)
{
	size_t es = k->kind == K_XK ? 1 : dt_size(k->ydt), n = 1;
	struct slot *sl;
	OrtStatus *s;

	*y = NULL;
	if (!k->out_internal) {
		OrtValue *yv = NULL;

		if ((s = ort->KernelContext_GetOutput(ctx, (size_t)k->out_idx, dims, rank, &yv)) ||
		    (s = ort->GetTensorMutableData(yv, y)))
			return s;
	}
	if (!k->out_slot1)
		return NULL;
	if ((size_t)(k->out_slot1 - 1) >= tl_nslots || rank > 8)
		return st(ORT_FAIL, "e1npu: %s: no slot for its output", k->name);
	sl = &tl_slots[k->out_slot1 - 1];
	for (size_t i = 0; i < rank; i++)
		n *= (size_t)dims[i];
	if (k->out_internal) {
		sl->data = malloc(n * (es ? es : 1) + 1);
		if (!sl->data)
			return st(ORT_FAIL, "e1npu: out of memory");
		sl->owned = true;
		*y = sl->data;
	} else {
		sl->data = *y;
	}
	memcpy(sl->dims, dims, rank * sizeof(*dims));
	sl->rank = rank;
	return NULL;
}

OrtStatus *get_in(OrtKernelContext *ctx, struct operand *o, const void **p,
			 int64_t *dims, size_t *rank)
{
	const OrtValue *v = NULL;
	OrtTensorTypeAndShapeInfo *tsi = NULL;
	OrtStatus *s;

	if (o->runtime_idx <= -3) {
		/* an earlier kernel's output in this partition */
		const struct slot *sl = slot_get(-3 - o->runtime_idx);

		if (!sl || !sl->data)
			return st(ORT_FAIL, "e1npu: partition slot %d empty", -3 - o->runtime_idx);
		*p = sl->data;
		*rank = sl->rank;
		memcpy(dims, sl->dims, sl->rank * sizeof(*dims));
		return NULL;
	}
	if (o->runtime_idx < 0) {
		*p = o->data;
		*rank = o->rank;
		memcpy(dims, o->dims, o->rank * sizeof(*dims));
		return NULL;
	}
	if ((s = ort->KernelContext_GetInput(ctx, (size_t)o->runtime_idx, &v)))
		return s;
	if (!v)
		return st(ORT_FAIL, "e1npu: input %d missing", o->runtime_idx);
	if ((s = ort->GetTensorTypeAndShape(v, &tsi)))
		return s;
	s = ort->GetDimensionsCount(tsi, rank);
	if (!s && *rank > 8)
		s = st(ORT_FAIL, "e1npu: rank %zu", *rank);
	if (!s)
		s = ort->GetDimensions(tsi, dims, *rank);
	ort->ReleaseTensorTypeAndShapeInfo(tsi);
	if (!s)
		s = ort->GetTensorData(v, p);
	return s;
}
