/* SPDX-License-Identifier: MIT */
/*
 * bench-tflite: a real TFLite library (2.2's libtensorflowlite_c.so, or
 * Debian's libtensorflow-lite.so.2.14.1, which exports the same C API),
 * dlopen'ed RTLD_LOCAL, as a speed reference of bench-models; several may
 * be open at once. Only the stable C API functions are used, through
 * opaque pointers, so no TFLite header is needed to build.
 */
#ifndef BENCH_TFLITE_H
#define BENCH_TFLITE_H

#include <stddef.h>
#include <stdint.h>

struct btfl;

/*
 * Load @so (path of the library). Return NULL and a reason in
 * @why (dlopen error, missing symbol) when unavailable.
 */
struct btfl *btfl_open(const char *so, char *why, size_t whylen);
void btfl_close(struct btfl *b);

/*
 * One model on one thread: create, allocate, set input 0 to @in (@n bytes,
 * must equal the tensor's size). Return 0 or -1 with @why.
 */
int btfl_load(struct btfl *b, const char *model, const void *in, size_t n,
	      char *why, size_t whylen);
/* Invoke once; 0 or -1. */
int btfl_invoke(struct btfl *b);
/* Copy output 0 (@n must equal its size); 0 or -1. */
int btfl_output(struct btfl *b, void *out, size_t n);
/* Free the model and interpreter of the last btfl_load. */
void btfl_unload(struct btfl *b);

#endif
