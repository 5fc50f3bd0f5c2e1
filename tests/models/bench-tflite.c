// SPDX-License-Identifier: MIT
/*
 * bench-tflite: TFLite's C API (2.2 and later) through dlopen (bench-tflite.h). The
 * C API's object types are opaque, so void pointers stand for them;
 * TfLiteStatus is an int-sized enum with kTfLiteOk == 0.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench-tflite.h"

struct btfl {
	void *so;
	void *(*model_create_from_file)(const char *path);
	void (*model_delete)(void *model);
	void *(*options_create)(void);
	void (*options_delete)(void *opt);
	void (*options_set_num_threads)(void *opt, int32_t n);
	void *(*interp_create)(const void *model, const void *opt);
	void (*interp_delete)(void *interp);
	int (*allocate)(void *interp);
	int (*invoke)(void *interp);
	void *(*input)(const void *interp, int32_t i);
	const void *(*output)(const void *interp, int32_t i);
	size_t (*byte_size)(const void *tensor);
	int (*copy_from)(void *tensor, const void *data, size_t n);
	int (*copy_to)(const void *tensor, void *data, size_t n);
	void *model, *interp;
};

struct btfl *btfl_open(const char *so, char *why, size_t whylen)
{
	struct btfl *b = calloc(1, sizeof(*b));
	struct { void **fn; const char *name; } syms[] = {
		{ (void **)&b->model_create_from_file, "TfLiteModelCreateFromFile" },
		{ (void **)&b->model_delete, "TfLiteModelDelete" },
		{ (void **)&b->options_create, "TfLiteInterpreterOptionsCreate" },
		{ (void **)&b->options_delete, "TfLiteInterpreterOptionsDelete" },
		{ (void **)&b->options_set_num_threads, "TfLiteInterpreterOptionsSetNumThreads" },
		{ (void **)&b->interp_create, "TfLiteInterpreterCreate" },
		{ (void **)&b->interp_delete, "TfLiteInterpreterDelete" },
		{ (void **)&b->allocate, "TfLiteInterpreterAllocateTensors" },
		{ (void **)&b->invoke, "TfLiteInterpreterInvoke" },
		{ (void **)&b->input, "TfLiteInterpreterGetInputTensor" },
		{ (void **)&b->output, "TfLiteInterpreterGetOutputTensor" },
		{ (void **)&b->byte_size, "TfLiteTensorByteSize" },
		{ (void **)&b->copy_from, "TfLiteTensorCopyFromBuffer" },
		{ (void **)&b->copy_to, "TfLiteTensorCopyToBuffer" },
	};

	if (!b) {
		snprintf(why, whylen, "out of memory");
		return NULL;
	}
	b->so = dlopen(so, RTLD_NOW | RTLD_LOCAL);
	if (!b->so) {
		snprintf(why, whylen, "dlopen: %s", dlerror());
		free(b);
		return NULL;
	}
	for (size_t i = 0; i < sizeof(syms) / sizeof(syms[0]); i++) {
		/* POSIX: a function pointer may be stored through a void * */
		*syms[i].fn = dlsym(b->so, syms[i].name);
		if (!*syms[i].fn) {
			snprintf(why, whylen, "%s: symbol %s missing", so, syms[i].name);
			dlclose(b->so);
			free(b);
			return NULL;
		}
	}
	return b;
}

void btfl_unload(struct btfl *b)
{
	if (b->interp)
		b->interp_delete(b->interp);
	if (b->model)
		b->model_delete(b->model);
	b->interp = b->model = NULL;
}

void btfl_close(struct btfl *b)
{
	if (!b)
		return;
	btfl_unload(b);
	dlclose(b->so);
	free(b);
}

int btfl_load(struct btfl *b, const char *model, const void *in, size_t n,
	      char *why, size_t whylen)
{
	void *opt, *ti;

	btfl_unload(b);
	b->model = b->model_create_from_file(model);
	if (!b->model) {
		snprintf(why, whylen, "TfLiteModelCreateFromFile(%s) failed", model);
		return -1;
	}
	opt = b->options_create();
	if (!opt) {
		snprintf(why, whylen, "TfLiteInterpreterOptionsCreate failed");
		return -1;
	}
	b->options_set_num_threads(opt, 1);
	b->interp = b->interp_create(b->model, opt);
	b->options_delete(opt);
	if (!b->interp || b->allocate(b->interp)) {
		snprintf(why, whylen, "TfLiteInterpreterCreate/AllocateTensors failed");
		return -1;
	}
	ti = b->input(b->interp, 0);
	if (!ti || b->byte_size(ti) != n) {
		snprintf(why, whylen, "input 0 is %zu bytes, have %zu",
			 ti ? b->byte_size(ti) : 0, n);
		return -1;
	}
	if (b->copy_from(ti, in, n)) {
		snprintf(why, whylen, "TfLiteTensorCopyFromBuffer failed");
		return -1;
	}
	return 0;
}

int btfl_invoke(struct btfl *b)
{
	return b->interp && !b->invoke(b->interp) ? 0 : -1;
}

int btfl_output(struct btfl *b, void *out, size_t n)
{
	const void *to = b->interp ? b->output(b->interp, 0) : NULL;

	if (!to || b->byte_size(to) != n)
		return -1;
	return b->copy_to(to, out, n) ? -1 : 0;
}
