// SPDX-License-Identifier: MIT
/*
 * libFuzzer harness of the TFLite interpreter (include/e1npu/e1npu_tflite.h):
 * each input is a model file, loaded with e1npu_tflite_load_memory() on
 * one of three paths picked by the input's size (size % 3: the lowering
 * layer on the in-process device, its CPU-only context, the reference
 * kernels), twice: following TFLite 2.2's kernels, then 2.14's
 * (e1npu_tflite_options.ref). When it loads, the counts, tensor infos, layer reports and
 * arena plan are read in full; when its arena is small (at most
 * ARENA_MAX bytes: a run stays well under a second), deterministic bytes
 * are set as inputs, the model is invoked twice and its outputs read.
 *
 * Properties: T1 load, set_input and invoke return 0 or a negative errno;
 * a failed load leaves no interpreter and a message, a failed invoke a
 * message in e1npu_tflite_last_error(); T2 no crash, no ASan/UBSan report,
 * no leak; T3 every index past the end (input, output, layer, arena
 * entry) is -EINVAL, every input/output info's bytes match its dims;
 * T4 the arena plan holds: every entry inside total_bytes, at an aligned
 * offset, entries live at the same layer never overlap in memory;
 * T5 two invokes on the same inputs give the same outputs (the inputs
 * survive an invoke); T6 a model the lowering layer (device or CPU-only)
 * loads and runs also loads on the reference path, and when that runs
 * too its outputs are byte for byte the same (as check-models requires of
 * the real models).
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <e1npu/e1npu.h>
#include <e1npu/e1npu_tflite.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Largest arena invoked; the file is at most MAX_FILE bytes. */
#define ARENA_MAX	(64u << 10)
#define MAX_FILE	16384
#define MAX_IO		16

/* the in-process device, opened once and kept for the whole run */
static struct e1npu_device *dev;

static int errno_ok(int ret)
{
	return ret <= 0 && ret > -4096;
}

static size_t info_bytes(const struct e1npu_tflite_tensor_info *ti)
{
	/* uint8 / int8: one byte an element; float32 and int32 four, int64 eight */
	size_t n = ti->dtype == E1NPU_DTYPE_INT64 ? 8 :
		   ti->dtype == E1NPU_DTYPE_INT32 || ti->dtype == E1NPU_DTYPE_FLOAT32 ? 4 : 1;

	for (uint32_t d = 0; d < ti->ndims; d++)
		n *= ti->dims[d];
	return n;
}

static void check_arena(const struct e1npu_tflite *t)
{
	struct e1npu_tflite_arena a;
	struct e1npu_tflite_arena_tensor *e;

	if (e1npu_tflite_get_arena(t, &a))
		abort();
	/* (not total <= unplanned: each offset is rounded up to the alignment) */
	if (!a.alignment || a.lower_bound > a.total_bytes)	/* T4 */
		abort();
	e = calloc(a.num_tensors ? a.num_tensors : 1, sizeof(*e));
	if (!e)
		abort();
	for (uint32_t i = 0; i < a.num_tensors; i++) {
		if (e1npu_tflite_get_arena_tensor(t, i, &e[i]) || !e[i].bytes ||
		    e[i].offset % a.alignment || e[i].offset > a.total_bytes ||
		    e[i].bytes > a.total_bytes - e[i].offset ||
		    e[i].first_layer > e[i].last_layer)	/* T4 */
			abort();
		for (uint32_t j = 0; j < i; j++) {
			bool live = e[i].first_layer <= e[j].last_layer &&
				    e[j].first_layer <= e[i].last_layer;
			bool mem = e[i].offset < e[j].offset + e[j].bytes &&
				   e[j].offset < e[i].offset + e[i].bytes;

			if (live && mem)
				abort();
		}
	}
	{
		struct e1npu_tflite_arena_tensor x;

		if (e1npu_tflite_get_arena_tensor(t, a.num_tensors, &x) != -EINVAL)
			abort();	/* T3 */
	}
	free(e);
}

/*
 * Deterministic bytes into every input of @t (the same on every path);
 * with @probe, first check that one byte too many is -EINVAL with a
 * message (T3).
 */
static void set_inputs(struct e1npu_tflite *t, uint32_t nin, bool probe)
{
	struct e1npu_tflite_tensor_info ii;

	for (uint32_t i = 0; i < nin; i++) {
		uint8_t *in;

		if (e1npu_tflite_input_info(t, i, &ii))
			abort();
		in = malloc(ii.bytes + 1);
		if (!in)
			abort();
		for (size_t k = 0; k <= ii.bytes; k++)
			in[k] = (uint8_t)(k * 37 + i * 101 + 7);
		if (probe && (e1npu_tflite_set_input(t, i, in, ii.bytes + 1) != -EINVAL ||
			      !e1npu_tflite_last_error(t)[0]))
			abort();
		if (e1npu_tflite_set_input(t, i, in, ii.bytes))
			abort();
		free(in);
	}
}

/* T6: the reference path on the same model, release and inputs, outputs @out. */
static void cross_check(const uint8_t *data, size_t size, uint32_t ref, uint32_t nin,
			uint32_t nout, uint8_t *const *out, const size_t *osize)
{
	struct e1npu_tflite_options opt = { .path = E1NPU_TFLITE_PATH_REFERENCE, .ref = ref };
	struct e1npu_tflite *r;
	char err[256];
	int ret;

	ret = e1npu_tflite_load_memory(NULL, data, size, &opt, &r, err, sizeof(err));
	if (ret) {
		if (getenv("FUZZ_TFLITE_VERBOSE"))
			fprintf(stderr, "reference load: %d %s\n", ret, err);
		abort();	/* the NPU path loaded it */
	}
	set_inputs(r, nin, false);
	ret = e1npu_tflite_invoke(r);
	if (getenv("FUZZ_TFLITE_VERBOSE"))
		fprintf(stderr, "reference invoke: %d %s\n", ret, e1npu_tflite_last_error(r));
	for (uint32_t i = 0; !ret && i < nout; i++) {
		uint8_t *o = malloc(osize[i] ? osize[i] : 1);

		if (!o || e1npu_tflite_get_output(r, i, o, osize[i]))
			abort();
		if (memcmp(o, out[i], osize[i])) {
			if (getenv("FUZZ_TFLITE_VERBOSE"))
				for (size_t k = 0; k < osize[i]; k++)
					if (o[k] != out[i][k])
						fprintf(stderr, "output %u byte %zu: npu %u ref %u\n",
							i, k, out[i][k], o[k]);
			abort();	/* T6 */
		}
		free(o);
	}
	e1npu_tflite_free(r);
}

static void run(struct e1npu_tflite *t, uint32_t nin, uint32_t nout,
		const uint8_t *data, size_t size, uint32_t ref, bool npu)
{
	uint8_t *out[MAX_IO] = { 0 };
	size_t osize[MAX_IO] = { 0 };
	int ret;

	set_inputs(t, nin, true);
	for (int pass = 0; pass < 2; pass++) {
		ret = e1npu_tflite_invoke(t);
		if (!errno_ok(ret) || (ret && !e1npu_tflite_last_error(t)[0]))	/* T1 */
			abort();
		if (ret)
			break;
		for (uint32_t i = 0; i < nout; i++) {
			struct e1npu_tflite_tensor_info oi;
			uint8_t *o;

			if (e1npu_tflite_output_info(t, i, &oi))
				abort();
			o = malloc(oi.bytes ? oi.bytes : 1);
			if (!o)
				abort();
			if (e1npu_tflite_get_output(t, i, o, oi.bytes) ||
			    e1npu_tflite_get_output(t, i, o, oi.bytes + 1) != -EINVAL)
				abort();
			if (!pass) {
				out[i] = o;
				osize[i] = oi.bytes;
			} else {
				if (osize[i] != oi.bytes || memcmp(out[i], o, oi.bytes))
					abort();	/* T5 */
				free(o);
			}
		}
	}
	if (!ret && npu)
		cross_check(data, size, ref, nin, nout, out, osize);
	for (uint32_t i = 0; i < nout; i++)
		free(out[i]);
}

/* One load of @data following TFLite release @ref (enum e1npu_tflite_ref). */
static void one(const uint8_t *data, size_t size, uint32_t ref)
{
	struct e1npu_tflite_options opt;
	struct e1npu_tflite_tensor_info ti;
	struct e1npu_tflite_layer layer;
	struct e1npu_tflite_arena a;
	struct e1npu_tflite *t = (void *)1;
	uint32_t nin, nout, nl;
	char err[256];
	int ret;

	memset(&opt, 0, sizeof(opt));
	opt.path = size % 3 == 2 ? E1NPU_TFLITE_PATH_REFERENCE : E1NPU_TFLITE_PATH_NPU;
	opt.ref = ref;
	err[0] = 0;
	ret = e1npu_tflite_load_memory(size % 3 == 0 ? dev : NULL, data, size, &opt,
				       &t, err, sizeof(err));
	if (getenv("FUZZ_TFLITE_VERBOSE"))	/* seed checks: why it loads or not */
		fprintf(stderr, "load (path %zu, ref %u): %d %s\n", size % 3, ref, ret, err);
	if (ret) {
		if (!errno_ok(ret) || t || !err[0])	/* T1 */
			abort();
		return;
	}
	if (e1npu_tflite_get_counts(t, &nin, &nout, &nl) || !nin || !nout)
		abort();
	for (uint32_t i = 0; i < nin; i++)
		if (e1npu_tflite_input_info(t, i, &ti) || !ti.bytes ||
		    ti.bytes != info_bytes(&ti))	/* T3 */
			abort();
	for (uint32_t i = 0; i < nout; i++)
		if (e1npu_tflite_output_info(t, i, &ti) || !ti.bytes ||
		    ti.bytes != info_bytes(&ti))
			abort();
	for (uint32_t i = 0; i < nl; i++)
		if (e1npu_tflite_get_layer(t, i, &layer) || !layer.op[0])
			abort();
	if (e1npu_tflite_input_info(t, nin, &ti) != -EINVAL ||
	    e1npu_tflite_output_info(t, nout, &ti) != -EINVAL ||
	    e1npu_tflite_get_layer(t, nl, &layer) != -EINVAL)
		abort();
	check_arena(t);
	if (e1npu_tflite_get_arena(t, &a))
		abort();
	if (a.total_bytes <= ARENA_MAX && nin <= MAX_IO && nout <= MAX_IO)
		run(t, nin, nout, data, size, ref, size % 3 != 2);
	e1npu_tflite_free(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > MAX_FILE)
		return 0;
	if (!dev && e1npu_device_open("sim", &dev))
		abort();
	one(data, size, E1NPU_TFLITE_REF_2_2);
	one(data, size, E1NPU_TFLITE_REF_2_14);
	return 0;
}
