// SPDX-License-Identifier: MIT
/*
 * Which TFLite loaded the delegate. Its arithmetic differs between
 * releases (Documentation/tflite.md, "TFLite 2.2 and 2.14"), so the
 * kernels follow the one they run in: TfLiteVersion() of the C API (in
 * 2.2's libtensorflowlite_c.so and in 2.14's libtensorflow-lite.so
 * alike). Looked up in the global scope first (an application linked
 * with TFLite), else in the library that holds the context's functions
 * (TFLite dlopen()ed with RTLD_LOCAL, as test-delegate does).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include <e1npu/e1npu_tflite.h>

#include "delegate.h"

static const char *(*version_fn(struct tflc_context *ctx))(void)
{
	const char *(*fn)(void);
	Dl_info info;
	void *h, *sym = dlsym(RTLD_DEFAULT, "TfLiteVersion");

	if (!sym && dladdr((void *)(uintptr_t)ctx->GetExecutionPlan, &info) && info.dli_fname) {
		h = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
		if (h) {
			sym = dlsym(h, "TfLiteVersion");
			dlclose(h);	/* NOLOAD: drops the reference it took */
		}
	}
	/* object to function pointer, as dlsym's users must */
	*(void **)&fn = sym;
	return fn;
}

int e1d_version_detect(struct e1d *d, struct tflc_context *ctx, char *err, size_t errlen)
{
	const char *(*fn)(void) = d->tfl_version[0] ? NULL : version_fn(ctx);
	const char *v = fn ? fn() : NULL;
	int major = 0, minor = 0;
	bool newer;

	if (fn)
		snprintf(d->tfl_version, sizeof(d->tfl_version), "%s", v ? v : "?");
	/* 2.14 and later compute like 2.14; before, like 2.2 (the two measured) */
	newer = d->tfl_version[0] && sscanf(d->tfl_version, "%d.%d", &major, &minor) == 2 &&
		(major > 2 || (major == 2 && minor >= 14));
	d->nn_half_field = newer;
	if (d->ref_opt)
		d->ref = d->ref_opt;
	else
		d->ref = newer ? E1NPU_TFLITE_REF_2_14 : E1NPU_TFLITE_REF_2_2;
	return tfl_ruy_flavour(&d->ruy_single, err, errlen);
}
