// SPDX-License-Identifier: MIT
/*
 * delegate-load SO [DEVICE]: what TFLite does with an external delegate,
 * without TFLite (which has no riscv64 build here): dlopen the installed
 * libe1npu_tflite_delegate.so, create the delegate with device=DEVICE
 * (default auto: the board's NPU through the driver) and destroy it.
 * Exit 0 when both entry points resolve and creation succeeds.
 */
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>

typedef void *(*create_fn)(char **keys, char **values, size_t n,
			   void (*report_error)(const char *));
typedef void (*destroy_fn)(void *delegate);

static void report(const char *msg)
{
	fprintf(stderr, "delegate: %s\n", msg);
}

int main(int argc, char **argv)
{
	char *keys[] = { "device" };
	char *values[] = { argc > 2 ? argv[2] : "auto" };
	create_fn create;
	destroy_fn destroy;
	void *so, *d;

	if (argc < 2) {
		fprintf(stderr, "usage: delegate-load SO [DEVICE]\n");
		return 2;
	}
	so = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	if (!so) {
		fprintf(stderr, "delegate-load: %s\n", dlerror());
		return 1;
	}
	create = (create_fn)dlsym(so, "tflite_plugin_create_delegate");
	destroy = (destroy_fn)dlsym(so, "tflite_plugin_destroy_delegate");
	if (!create || !destroy) {
		fprintf(stderr, "delegate-load: %s: entry points missing\n", argv[1]);
		return 1;
	}
	d = create(keys, values, 1, report);
	if (!d) {
		fprintf(stderr, "delegate-load: device '%s': creation failed\n", values[0]);
		return 1;
	}
	destroy(d);
	printf("delegate-load: %s created and destroyed on device '%s'\n", argv[1], values[0]);
	dlclose(so);
	return 0;
}
