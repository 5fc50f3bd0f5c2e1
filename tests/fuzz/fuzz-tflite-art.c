// SPDX-License-Identifier: MIT
/*
 * libFuzzer harness of the compiled-model artifact loader
 * (lib/tflite/tflite_artifact.c): each input is an artifact, loaded with
 * e1npu_tflite_load_memory() on the in-process simulator. An input of
 * even size first has its checksum made good (tflite_art_seal), so the
 * mutations reach the header fields, the layer records (lowering forms),
 * the arena records and the embedded model; an odd one is loaded as it
 * is (the checksum path). Seeds: artifacts of the fuzz-tflite-load seed
 * models (tests/fuzz/mkseeds-tflite-art.sh).
 *
 * Properties: A1 load returns 0 or a negative errno, and a failed load
 * leaves no interpreter and a message; A2 no crash, no ASan/UBSan report,
 * no leak; A3 an artifact that loads carries a model that loads on its
 * own, with the same counts and arena size; A4 when its arena is small
 * and its packed weights are those the library packs for that model (the
 * model compiled again gives the same packed section), or it has none,
 * the artifact's outputs are byte for byte those of its model loaded
 * from the .tflite, whatever lowering forms it stores (each one the
 * loader accepts is exact). Packed weights changed by the fuzzer are
 * data, as a .tflite's weights are: they change outputs, nothing else.
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

#include "conv_choice.h"
#include "tflite_artifact.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define ARENA_MAX	(64u << 10)
#define MAX_FILE	32768
#define MAX_IO		16

static struct e1npu_device *dev;

static int errno_ok(int ret)
{
	return ret <= 0 && ret > -4096;
}

/* Run @t on fixed inputs; its outputs concatenated in *@out (free), or -1. */
static int run(struct e1npu_tflite *t, uint8_t **out, size_t *n)
{
	uint32_t nin, nout;
	int ret;

	*out = NULL;
	*n = 0;
	if (e1npu_tflite_get_counts(t, &nin, &nout, NULL) || nin > MAX_IO || nout > MAX_IO)
		return -1;
	for (uint32_t i = 0; i < nin; i++) {
		struct e1npu_tflite_tensor_info ii;
		uint8_t *in;

		if (e1npu_tflite_input_info(t, i, &ii))
			abort();
		in = malloc(ii.bytes ? ii.bytes : 1);
		if (!in)
			abort();
		for (size_t k = 0; k < ii.bytes; k++)
			in[k] = (uint8_t)(k * 37 + i * 101 + 7);
		if (e1npu_tflite_set_input(t, i, in, ii.bytes))
			abort();
		free(in);
	}
	ret = e1npu_tflite_invoke(t);
	if (!errno_ok(ret))	/* A1 */
		abort();
	if (ret)
		return -1;
	for (uint32_t i = 0; i < nout; i++) {
		struct e1npu_tflite_tensor_info oi;
		uint8_t *p;

		if (e1npu_tflite_output_info(t, i, &oi))
			abort();
		p = realloc(*out, *n + oi.bytes + 1);
		if (!p)
			abort();
		*out = p;
		if (e1npu_tflite_get_output(t, i, p + *n, oi.bytes))
			abort();
		*n += oi.bytes;
	}
	return 0;
}

/* Are @a's packed weights none, or those @m compiles to (table and section)? */
static bool packed_as_compiled(const struct e1npu_tflite *m, const struct tflite_art *a)
{
	struct tflite_art b;
	void *buf;
	size_t n;
	char err[256];
	bool same;

	if (!a->packed_size)
		return true;
	if (e1npu_tflite_compile(m, &buf, &n, err, sizeof(err)))
		return false;
	same = !tflite_art_parse(buf, n, TFLITE_ART_KIND_MODEL, e1npu_api_version(), &b, err,
				 sizeof(err)) &&
	       b.nlayers == a->nlayers && b.packed_size == a->packed_size &&
	       !memcmp(b.packed_table, a->packed_table,
		       (size_t)a->nlayers * TFLITE_ART_PACKED_ENTRY + a->packed_size);
	free(buf);
	return same;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct e1npu_tflite *t = (void *)1, *m = NULL;
	struct e1npu_tflite_arena at, am;
	struct tflite_art a;
	uint32_t c1[3], c2[3];
	uint8_t *buf, *o1, *o2;
	size_t n1, n2;
	char err[256];
	int ret;

	if (size > MAX_FILE)
		return 0;
	if (!dev && e1npu_device_open("sim", &dev))
		abort();
	buf = malloc(size ? size : 1);
	if (!buf)
		abort();
	if (size)
		memcpy(buf, data, size);
	if (size % 2 == 0)
		tflite_art_seal(buf, size);
	err[0] = 0;
	ret = e1npu_tflite_load_memory(dev, buf, size, NULL, &t, err, sizeof(err));
	if (getenv("FUZZ_TFLITE_VERBOSE"))
		fprintf(stderr, "artifact load: %d %s\n", ret, err);
	if (ret) {
		if (!errno_ok(ret) || t || !err[0])	/* A1 */
			abort();
		free(buf);
		return 0;
	}
	/* A3: it loaded, so it parses; its model loads alone */
	if (tflite_art_parse(buf, size, TFLITE_ART_KIND_MODEL, e1npu_api_version(), &a, err,
			     sizeof(err)) ||
	    e1npu_tflite_load_memory(dev, a.model, a.model_size, NULL, &m, err, sizeof(err)))
		abort();
	if (e1npu_tflite_get_counts(t, &c1[0], &c1[1], &c1[2]) ||
	    e1npu_tflite_get_counts(m, &c2[0], &c2[1], &c2[2]) || memcmp(c1, c2, sizeof(c1)) ||
	    e1npu_tflite_get_arena(t, &at) || e1npu_tflite_get_arena(m, &am) ||
	    at.total_bytes != am.total_bytes)
		abort();
	if (at.total_bytes <= ARENA_MAX && packed_as_compiled(m, &a)) {
		int r1 = run(t, &o1, &n1), r2 = run(m, &o2, &n2);

		if (r1 != r2 || (!r1 && (n1 != n2 || memcmp(o1, o2, n1))))	/* A4 */
			abort();
		free(o1);
		free(o2);
	}
	e1npu_tflite_free(m);
	e1npu_tflite_free(t);
	free(buf);
	return 0;
}
