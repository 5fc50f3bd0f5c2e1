// SPDX-License-Identifier: MIT
/*
 * Loading a whole model: parse (tflite_reader.c), plan one arena for every
 * activation (arena_plan.c), check the data flow of subgraph 0, prepare
 * every layer (tf_prepare_layer()), and free it all again
 * (tflite_load_chosen(), with the lowerings an artifact stored or none).
 * The public entry points that tell a .tflite from an artifact are in
 * tflite_open.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tflite_artifact.h"
#include "tflite_internal.h"

/* Arena offsets: cache lines (also the 4 bytes the seed's plan asks). */
#define E1NPU_TFLITE_ARENA_ALIGN 64
/*
 * Largest arena (as one tensor, act_bytes(), and a model file): a 700-byte
 * model of three 768 MiB tensors must not make load allocate 2.4 GiB.
 */
#define E1NPU_TFLITE_ARENA_MAX ((size_t)1 << 30)

/* Bytes of a non-constant tensor, 0 if it cannot hold activations. */
static size_t act_bytes(const struct tfl_tensor *x)
{
	size_t cnt = tfl_tensor_count(x), es = tfl_type_size(x->type);

	/* Invalid ones are only an error if a layer uses them (prepare). */
	if (x->data || !es || !cnt || cnt > ((size_t)1 << 30) / es)
		return 0;
	return cnt * es;
}

static void live_at(struct e1npu_tflite *t, int32_t ti, uint32_t step,
		    uint8_t role)
{
	struct arena_item *it;

	if (ti < 0 || (uint32_t)ti >= t->m.num_tensors || !act_bytes(T(t, ti)))
		return;
	it = &t->plan[ti];
	if (!it->size) {
		it->size = act_bytes(T(t, ti));
		it->first = it->last = step;
	}
	if (step < it->first)
		it->first = step;
	if (step > it->last)
		it->last = step;
	t->role[ti] |= role;
}

/*
 * One arena for every activation: lifetimes in layer steps, offsets from
 * arena_plan(). Model inputs live throughout (set_input's data must
 * survive every invoke), outputs from their layer to the end.
 */
static int plan_arena(struct e1npu_tflite *t)
{
	const struct tfl_model *m = &t->m;
	uint32_t end = m->num_operators ? m->num_operators - 1 : 0;
	struct e1npu_tflite_arena *a = &t->arena_info;
	size_t total;
	int ret;

	for (uint32_t i = 0; i < m->num_operators; i++) {
		const struct tfl_operator *op = &m->operators[i];

		for (uint32_t k = 0; k < op->num_inputs; k++)
			live_at(t, op->inputs[k], i, E1NPU_TFLITE_ROLE_INTERMEDIATE);
		for (uint32_t k = 0; k < op->num_outputs; k++)
			live_at(t, op->outputs[k], i, E1NPU_TFLITE_ROLE_INTERMEDIATE);
	}
	for (uint32_t i = 0; i < m->num_inputs; i++) {
		live_at(t, m->inputs[i], 0, E1NPU_TFLITE_ROLE_INPUT);
		live_at(t, m->inputs[i], end, E1NPU_TFLITE_ROLE_INPUT);
	}
	for (uint32_t i = 0; i < m->num_outputs; i++)
		live_at(t, m->outputs[i], end, E1NPU_TFLITE_ROLE_OUTPUT);
	ret = arena_plan(t->plan, m->num_tensors, E1NPU_TFLITE_ARENA_ALIGN, &total);
	if (ret)
		return tf_fail(t, ret, "arena plan of %u tensors failed", m->num_tensors);
	if (total > E1NPU_TFLITE_ARENA_MAX)
		return tf_fail(t, -ENOTSUP,
			       "tensor arena of %zu bytes: more than the interpreter's %zu",
			       total, E1NPU_TFLITE_ARENA_MAX);
	t->arena = calloc(total ? total : 1, 1);
	if (!t->arena)
		return tf_fail(t, -ENOMEM, "arena of %zu bytes: out of memory", total);
	memset(a, 0, sizeof(*a));
	a->total_bytes = total;
	a->lower_bound = arena_lower_bound(t->plan, m->num_tensors);
	a->alignment = E1NPU_TFLITE_ARENA_ALIGN;
	for (uint32_t i = 0; i < m->num_tensors; i++) {
		if (!t->plan[i].size)
			continue;
		/* a role is what it is for the model, else intermediate */
		if (t->role[i] & (E1NPU_TFLITE_ROLE_INPUT | E1NPU_TFLITE_ROLE_OUTPUT))
			t->role[i] &= (uint8_t)~E1NPU_TFLITE_ROLE_INTERMEDIATE;
		t->buf[i] = t->arena + t->plan[i].offset;
		a->unplanned_bytes += t->plan[i].size;
		a->num_tensors++;
	}
	return 0;
}

/*
 * The data flow of subgraph 0, in operator order (after plan_arena):
 * every non-constant tensor an operator uses has storage in the arena,
 * every one it reads is a model input or written by an earlier
 * operator, every tensor is written by at most one operator and never a
 * model input, and every model output is written (or is an input).
 * Otherwise an invoke would read arena bytes another tensor left there
 * (two invokes on the same inputs could differ) or overwrite an input.
 */
static int check_data_flow(struct e1npu_tflite *t)
{
	const struct tfl_model *m = &t->m;
	int32_t *writer = malloc((m->num_tensors ? m->num_tensors : 1) * sizeof(*writer));
	int ret = 0;

	if (!writer)
		return tf_fail(t, -ENOMEM, "out of memory");
	for (uint32_t i = 0; i < m->num_tensors; i++)
		writer[i] = -1;
	for (uint32_t i = 0; i < m->num_inputs; i++)
		writer[m->inputs[i]] = INT32_MAX;	/* written before layer 0 */
	for (uint32_t i = 0; i < m->num_operators && !ret; i++) {
		const struct tfl_operator *op = &m->operators[i];
		const char *name = tfl_builtin_name(op->builtin);

		for (uint32_t k = 0; k < op->num_inputs + op->num_outputs && !ret; k++) {
			int32_t x = k < op->num_inputs ? op->inputs[k] :
				    op->outputs[k - op->num_inputs];

			/* before tf_prepare_layer sizes a lowering object on it */
			if (x >= 0 && !T(t, x)->data && !t->buf[x])
				ret = tf_fail(t, -EINVAL,
					      "operator %u (%s): tensor %d (%s) cannot hold activations (empty, of unknown type, or over 1 GiB)",
					      i, name, x, T(t, x)->name);
		}
		for (uint32_t k = 0; k < op->num_inputs && !ret; k++) {
			int32_t x = op->inputs[k];

			if (x >= 0 && !T(t, x)->data && writer[x] < 0)
				ret = tf_fail(t, -EINVAL,
					      "operator %u (%s): input %u is tensor %d (%s), which is neither constant, a model input nor written by an earlier operator",
					      i, name, k, x, T(t, x)->name);
		}
		for (uint32_t k = 0; k < op->num_outputs && !ret; k++) {
			int32_t x = op->outputs[k];

			if (x < 0)
				continue;	/* absent: tf_prepare_layer says so */
			if (writer[x] < 0)
				writer[x] = (int32_t)i;
			else if (writer[x] == INT32_MAX)
				ret = tf_fail(t, -EINVAL,
					      "operator %u (%s): output %u is tensor %d (%s), a model input",
					      i, name, k, x, T(t, x)->name);
			else
				ret = tf_fail(t, -EINVAL,
					      "operator %u (%s): output %u is tensor %d (%s), already written by operator %d",
					      i, name, k, x, T(t, x)->name, writer[x]);
		}
	}
	for (uint32_t i = 0; i < m->num_outputs && !ret; i++)
		if (writer[m->outputs[i]] < 0)
			ret = tf_fail(t, -EINVAL,
				      "model output %u (tensor %d, %s) is written by no operator",
				      i, m->outputs[i], T(t, m->outputs[i])->name);
	free(writer);
	return ret;
}

static int prepare(struct e1npu_tflite *t)
{
	struct tfl_model *m = &t->m;
	size_t need;
	int ret;

	if (!m->num_inputs || !m->num_outputs)
		return tf_fail(t, -EINVAL, "subgraph 0 has no inputs or outputs");
	/* the parsed model and the loader's per-tensor and per-layer state
	 * within the reader's budget (tflite_reader.h: operators sharing one
	 * table cost 4 bytes of file each, a layer some kilobytes) */
	need = m->mem + (size_t)m->num_tensors * (sizeof(void *) + sizeof(*t->plan) + 1) +
	       (size_t)m->num_operators * sizeof(*t->layers);
	if (need > tfl_mem_budget(t->size))
		return tf_fail(t, -ENOTSUP, "%u operators and %u tensors would take %zu bytes, more than "
			       "the limit TFL_MEM_PER_FILE_BYTE (%u) x the file (%zu bytes) + TFL_MEM_BASE (%zu)",
			       m->num_operators, m->num_tensors, need, TFL_MEM_PER_FILE_BYTE, t->size,
			       TFL_MEM_BASE);
	t->buf = calloc(m->num_tensors ? m->num_tensors : 1, sizeof(void *));
	t->plan = calloc(m->num_tensors ? m->num_tensors : 1, sizeof(*t->plan));
	t->role = calloc(m->num_tensors ? m->num_tensors : 1, 1);
	t->layers = calloc(m->num_operators ? m->num_operators : 1, sizeof(*t->layers));
	if (!t->buf || !t->plan || !t->role || !t->layers)
		return -ENOMEM;
	t->nlayers = m->num_operators;
	ret = plan_arena(t);
	if (!ret)
		ret = check_data_flow(t);
	if (ret)
		return ret;
	for (uint32_t i = 0; i < m->num_inputs; i++)
		if (!t->buf[m->inputs[i]] || !io_dtype(m->tensors[m->inputs[i]].type) ||
		    io_dtype(m->tensors[m->inputs[i]].type) >= E1NPU_DTYPE_INT32)
			return tf_fail(t, -ENOTSUP, "model input %u (tensor %d, %s) must be a non-empty uint8/int8/float32 tensor",
				       i, m->inputs[i], tfl_type_name(m->tensors[m->inputs[i]].type));
	for (uint32_t i = 0; i < m->num_outputs; i++)
		if (!t->buf[m->outputs[i]] || !io_dtype(m->tensors[m->outputs[i]].type))
			return tf_fail(t, -ENOTSUP, "model output %u (tensor %d, %s) must be a non-empty uint8/int8/float32/int32/int64 tensor",
				       i, m->outputs[i], tfl_type_name(m->tensors[m->outputs[i]].type));
	for (uint32_t i = 0; i < m->num_operators; i++) {
		struct layer *l = &t->layers[i];

		ret = tf_prepare_layer(t, i, l);
		if (ret)
			return ret;
		/* Every tensor the layer touches has storage (non-constant). */
		if (!tf_layer_bufs(t, l))
			return LFAIL(t, i, l, -EINVAL, "activation tensor without storage");
	}
	return 0;
}

E1NPU_API void e1npu_tflite_free(struct e1npu_tflite *t)
{
	if (!t)
		return;
	for (uint32_t i = 0; t->layers && i < t->nlayers; i++) {
		struct layer *l = &t->layers[i];

		e1npu_conv_free(l->conv);
		e1npu_fc_free(l->fc);
		free(l->w);
		free(l->bias);
		tfl_resize_free(&l->resize);
		tfl_tconv_free(&l->tconv);
		tfl_tconv_lower_free(&l->tconv_lw);
		tfl_reduce_free(&l->reduce);
		free(l->wscales);
	}
	free(t->arena);
	free(t->plan);
	free(t->role);
	free(t->buf);
	free(t->layers);
	if (!t->part) {
		tfl_model_free(&t->m);
		e1npu_ops_free(t->ops);
	}
	free(t->file);
	free(t);
}

int tflite_ref_resolve(uint32_t ref, uint32_t *out, char *err, size_t errlen)
{
	const char *env = getenv("E1NPU_TFLITE_REF");

	if (ref > E1NPU_TFLITE_REF_2_14) {
		if (err && errlen)
			snprintf(err, errlen, "e1npu_tflite_options: ref %" PRIu32
				 " is not 0 (default), 1 (TFLite 2.2) or 2 (TFLite 2.14)", ref);
		return -EINVAL;
	}
	if (ref != E1NPU_TFLITE_REF_DEFAULT) {
		*out = ref;
		return 0;
	}
	*out = E1NPU_TFLITE_REF_2_2;
	if (!env || !env[0] || !strcmp(env, "2.2"))
		return 0;
	if (!strcmp(env, "2.14")) {
		*out = E1NPU_TFLITE_REF_2_14;
		return 0;
	}
	if (err && errlen)
		snprintf(err, errlen, "environment variable E1NPU_TFLITE_REF='%.40s': expected 2.2 or 2.14",
			 env);
	return -EINVAL;
}

int tflite_load_chosen(struct e1npu_device *dev, const void *data, size_t size,
		       const struct e1npu_tflite_options *opt,
		       const struct ops_conv_choice *choices, uint32_t nchoices,
		       struct e1npu_tflite **tp, char *err, size_t errlen)
{
	struct e1npu_tflite *t;
	uint32_t ref;
	int ret;

	if (opt && (opt->path > E1NPU_TFLITE_PATH_REFERENCE))
		return -EINVAL;
	for (size_t i = 0; opt && i < sizeof(opt->reserved) / sizeof(opt->reserved[0]); i++) {
		if (opt->reserved[i]) {
			if (err && errlen)
				snprintf(err, errlen,
					 "e1npu_tflite_options: field reserved[%zu] = %" PRIu32
					 " must be zero", i, opt->reserved[i]);
			return -EINVAL;
		}
	}
	ret = tflite_ref_resolve(opt ? opt->ref : 0, &ref, err, errlen);
	if (ret)
		return ret;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->path = opt ? opt->path : E1NPU_TFLITE_PATH_NPU;
	t->file = malloc(size ? size : 1);
	if (!t->file) {
		free(t);
		return -ENOMEM;
	}
	if (size)
		memcpy(t->file, data, size);
	t->size = size;
	ret = tfl_parse(t->file, size, &t->m, t->err, sizeof(t->err));
	t->m.ref = ref;
	if (!ret && ref == E1NPU_TFLITE_REF_2_14)
		ret = tfl_ruy_flavour(&t->m.ruy_single, t->err, sizeof(t->err));
	if (!ret && t->path == E1NPU_TFLITE_PATH_NPU) {
		ret = e1npu_ops_new(dev, &t->ops);
		if (ret)
			tf_fail(t, ret, "e1npu_ops_new: %s", e1npu_strerror(ret));
	}
	if (!ret && choices && nchoices != t->m.num_operators)
		ret = tf_fail(t, -EINVAL, "the artifact has %u layer records, its model %u operators",
			      nchoices, t->m.num_operators);
	if (!ret) {
		t->choices = t->path == E1NPU_TFLITE_PATH_NPU ? choices : NULL;
		ret = prepare(t);
		t->choices = NULL;
	}
	if (ret) {
		if (!t->err[0])
			snprintf(t->err, sizeof(t->err), "%s", e1npu_strerror(ret));
		if (err && errlen)
			snprintf(err, errlen, "%s", t->err);
		e1npu_tflite_free(t);
		return ret;
	}
	*tp = t;
	return 0;
}
