// SPDX-License-Identifier: MIT
/*
 * What a caller sees of a loaded interpreter (include/e1npu/e1npu_tflite.h):
 * counts, tensor info, inputs and outputs, invoke, the layer reports and
 * the arena; and the library's read-only views of it: a layer's lowering
 * objects (tflite_layer_view(), for tflite_report.c and
 * tflite_artifact.c) and the model it came from (tflite_source(), for
 * tflite_artifact.c).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "tflite_artifact.h"
#include "tflite_internal.h"
#include "tflite_report.h"
#include "trace.h"

E1NPU_API const char *e1npu_tflite_last_error(const struct e1npu_tflite *t)
{
	return t ? t->err : "";
}

E1NPU_API int e1npu_tflite_get_counts(const struct e1npu_tflite *t,
				      uint32_t *inputs, uint32_t *outputs,
				      uint32_t *layers)
{
	if (!t)
		return -EINVAL;
	if (inputs)
		*inputs = t->m.num_inputs;
	if (outputs)
		*outputs = t->m.num_outputs;
	if (layers)
		*layers = t->nlayers;
	return 0;
}

static void fill_info(const struct e1npu_tflite *t, int32_t ti,
		      struct e1npu_tflite_tensor_info *info)
{
	const struct tfl_tensor *x = T(t, ti);

	memset(info, 0, sizeof(*info));
	snprintf(info->name, sizeof(info->name), "%s", x->name);
	info->dtype = io_dtype(x->type);
	info->ndims = x->ndims;
	for (uint32_t d = 0; d < x->ndims; d++)
		info->dims[d] = (uint32_t)x->dims[d];
	info->bytes = tfl_tensor_count(x) * tfl_type_size(x->type);
	info->scale = x->num_scales ? tfl_scale(x, 0) : 0;
	info->zero_point = x->num_zero_points ? (int32_t)tfl_zero_point(x, 0) : 0;
}

E1NPU_API int e1npu_tflite_input_info(const struct e1npu_tflite *t, uint32_t index,
				      struct e1npu_tflite_tensor_info *info)
{
	if (!t || !info || index >= t->m.num_inputs)
		return -EINVAL;
	fill_info(t, t->m.inputs[index], info);
	return 0;
}

E1NPU_API int e1npu_tflite_output_info(const struct e1npu_tflite *t, uint32_t index,
				       struct e1npu_tflite_tensor_info *info)
{
	if (!t || !info || index >= t->m.num_outputs)
		return -EINVAL;
	fill_info(t, t->m.outputs[index], info);
	return 0;
}

static size_t tensor_bytes(const struct e1npu_tflite *t, int32_t ti)
{
	return tfl_tensor_count(T(t, ti)) * tfl_type_size(T(t, ti)->type);
}

E1NPU_API int e1npu_tflite_set_input(struct e1npu_tflite *t, uint32_t index,
				     const void *data, size_t size)
{
	if (!t || !data || index >= t->m.num_inputs)
		return -EINVAL;
	if (size != tensor_bytes(t, t->m.inputs[index]))
		return tf_fail(t, -EINVAL, "input %u is %zu bytes, got %zu", index,
			       tensor_bytes(t, t->m.inputs[index]), size);
	memcpy(t->buf[t->m.inputs[index]], data, size);
	return 0;
}

E1NPU_API int e1npu_tflite_get_output(const struct e1npu_tflite *t, uint32_t index,
				      void *data, size_t size)
{
	if (!t || !data || index >= t->m.num_outputs ||
	    size != tensor_bytes(t, t->m.outputs[index]))
		return -EINVAL;
	memcpy(data, t->buf[t->m.outputs[index]], size);
	return 0;
}

E1NPU_API int e1npu_tflite_invoke(struct e1npu_tflite *t)
{
	if (!t)
		return -EINVAL;
	t->err[0] = 0;
	for (uint32_t i = 0; i < t->nlayers; i++) {
		struct layer *l = &t->layers[i];
		uint64_t t0 = now_ns();
		int ret;

		e1npu_trace_layer_begin(i, l->rep.op);	/* lib/trace.c */
		ret = tf_run_layer(t, i, l);
		l->rep.wall_ns = now_ns() - t0;
		e1npu_trace_layer(i, l->rep.op, l->rep.shape, &l->rep.report, t0, t0 + l->rep.wall_ns);
		if (ret)
			return ret;
	}
	return 0;
}

E1NPU_API int e1npu_tflite_get_layer(const struct e1npu_tflite *t, uint32_t index,
				     struct e1npu_tflite_layer *layer)
{
	if (!t || !layer || index >= t->nlayers)
		return -EINVAL;
	*layer = t->layers[index].rep;
	return 0;
}

E1NPU_API int e1npu_tflite_get_arena(const struct e1npu_tflite *t,
				     struct e1npu_tflite_arena *arena)
{
	if (!t || !arena)
		return -EINVAL;
	*arena = t->arena_info;
	return 0;
}

E1NPU_API int e1npu_tflite_get_arena_tensor(const struct e1npu_tflite *t, uint32_t index,
					    struct e1npu_tflite_arena_tensor *e)
{
	uint32_t n = 0;

	if (!t || !e || index >= t->arena_info.num_tensors)
		return -EINVAL;
	for (uint32_t i = 0; i < t->m.num_tensors; i++) {
		const struct tfl_tensor *x = T(t, (int32_t)i);

		if (!t->plan[i].size || n++ != index)
			continue;
		memset(e, 0, sizeof(*e));
		e->tensor = (int32_t)i;
		e->role = t->role[i];
		snprintf(e->name, sizeof(e->name), "%s", x->name);
		e->dtype = dtype_of(x->type);
		snprintf(e->type_name, sizeof(e->type_name), "%s", tfl_type_name(x->type));
		e->ndims = x->ndims;
		for (uint32_t d = 0; d < x->ndims; d++)
			e->dims[d] = (uint32_t)x->dims[d];
		e->offset = t->plan[i].offset;
		e->bytes = t->plan[i].size;
		e->first_layer = t->plan[i].first;
		e->last_layer = t->plan[i].last;
		return 0;
	}
	return -EINVAL;
}

/* tflite_report.c's view of layer @k (tflite_report.h): a read-only hook. */
int tflite_layer_view(const struct e1npu_tflite *t, uint32_t k,
		      struct tflite_layer_view *v)
{
	const struct layer *l;

	if (!t || !v || k >= t->nlayers)
		return -EINVAL;
	l = &t->layers[k];
	memset(v, 0, sizeof(*v));
	v->index = l->rep.index;
	v->op = l->op;
	v->in = l->in;
	v->in2 = l->in2;
	v->out = l->out;
	v->ops = t->ops;
	v->conv = l->conv;
	v->fc = l->fc;
	v->fp = l->fp;
	v->fc_rows = l->fc_rows;
	v->pp = l->pp;
	v->add_bcast = l->add_bcast;
	v->host_why = l->host_why;
	return 0;
}

int tflite_source(const struct e1npu_tflite *t, const void **file, size_t *size,
		  const struct tfl_model **m, struct e1npu_ops **ops)
{
	if (!t)
		return -EINVAL;
	*file = t->part ? NULL : t->file;
	*size = t->part ? 0 : t->size;
	*m = &t->m;
	*ops = t->ops;
	return 0;
}
