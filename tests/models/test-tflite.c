// SPDX-License-Identifier: MIT
/*
 * lib/tflite tests (run by tests/models/run-models.sh):
 *   test-tflite summary MODEL...   one line per model, the format of
 *                                  tests/models/tflite_dump.py (compared)
 *   test-tflite unit MODEL         API and targeted malformed-model checks
 *   test-tflite fuzz MODEL [N]     every truncation step + N random
 *                                  corruptions: parse/load must fail cleanly
 *                                  with a message or succeed, never crash
 *                                  (run under ASan+UBSan)
 * Prints "N passed, N failed"; exit status 1 on any failure.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <e1npu/e1npu_tflite.h>

#include "tflite_reader.h"

static unsigned int passed, failed;

#define CHECK(cond, ...) do { \
	if (cond) { \
		passed++; \
	} else { \
		failed++; \
		printf("FAIL %s:%d: ", __FILE__, __LINE__); \
		printf(__VA_ARGS__); \
		printf("\n"); \
	} \
} while (0)

static uint8_t *slurp(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	uint8_t *b;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	b = malloc((size_t)n + 1);
	if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
		free(b);
		b = NULL;
	}
	fclose(f);
	*size = (size_t)n;
	return b;
}

static const char *op_name(int32_t c)
{
	static char buf[16];

	if (strcmp(tfl_builtin_name(c), "UNKNOWN"))
		return tfl_builtin_name(c);
	snprintf(buf, sizeof(buf), "OP%d", c);
	return buf;
}

static void print_tensor(const struct tfl_tensor *t)
{
	printf("[");
	for (uint32_t d = 0; d < t->ndims; d++)
		printf("%s%d", d ? "," : "", t->dims[d]);
	printf("]%s", tfl_type_name(t->type));
}

static int summary(const char *path)
{
	struct tfl_model m;
	char err[256];
	size_t size;
	uint8_t *b = slurp(path, &size);
	unsigned int count[256] = { 0 };
	int ret;

	if (!b) {
		printf("%s: cannot read\n", path);
		return 1;
	}
	ret = tfl_parse(b, size, &m, err, sizeof(err));
	if (ret) {
		printf("%s: %s\n", path, err);
		free(b);
		return 1;
	}
	for (uint32_t i = 0; i < m.num_operators; i++)
		count[m.operators[i].builtin & 255]++;
	printf("tensors=%u ops=%u codes=", m.num_tensors, m.num_operators);
	/* sorted by name, as the Python script */
	{
		const char *names[256];
		int codes[256], n = 0;

		for (int c = 0; c < 256; c++)
			if (count[c]) {
				names[n] = op_name(c);
				codes[n++] = c;
			}
		for (int i = 0; i < n; i++)
			for (int j = i + 1; j < n; j++)
				if (strcmp(names[j], names[i]) < 0) {
					const char *tn = names[i];
					int tc = codes[i];

					names[i] = names[j];
					codes[i] = codes[j];
					names[j] = tn;
					codes[j] = tc;
				}
		for (int i = 0; i < n; i++) {
			/* op_name() reuses a static buffer: print by code */
			printf("%s%s:%u", i ? "," : "", op_name(codes[i]), count[codes[i]]);
		}
	}
	printf(" in=");
	print_tensor(&m.tensors[m.inputs[0]]);
	printf(" out=");
	print_tensor(&m.tensors[m.outputs[0]]);
	printf("\n");
	tfl_model_free(&m);
	free(b);
	return 0;
}

/* ---- raw FlatBuffer navigation for the targeted corruptions ---------- */

static uint32_t rd32(const uint8_t *b, size_t p)
{
	return (uint32_t)b[p] | (uint32_t)b[p + 1] << 8 | (uint32_t)b[p + 2] << 16 |
	       (uint32_t)b[p + 3] << 24;
}

static void wr32(uint8_t *b, size_t p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		b[p + i] = (uint8_t)(v >> (8 * i));
}

/* Position of field @idx of the table at @t, 0 if absent. */
static size_t fpos(const uint8_t *b, size_t t, unsigned int idx)
{
	size_t vt = t - (int32_t)rd32(b, t);
	unsigned int vlen = b[vt] | b[vt + 1] << 8;
	unsigned int fo;

	if (4 + 2 * idx >= vlen)
		return 0;
	fo = b[vt + 4 + 2 * idx] | b[vt + 5 + 2 * idx] << 8;
	return fo ? t + fo : 0;
}

static size_t deref(const uint8_t *b, size_t p)
{
	return p + rd32(b, p);
}

/* Table element @i of the vector field @idx of table @t. */
static size_t elem(const uint8_t *b, size_t t, unsigned int idx, uint32_t i)
{
	size_t v = deref(b, fpos(b, t, idx));

	return deref(b, v + 4 + 4 * i);
}

static int try_load(const uint8_t *b, size_t size, char *err, size_t errlen)
{
	struct e1npu_tflite_options opt = { .path = E1NPU_TFLITE_PATH_REFERENCE };
	struct e1npu_tflite *t = NULL;
	int ret = e1npu_tflite_load_memory(NULL, b, size, &opt, &t, err, errlen);

	e1npu_tflite_free(t);
	return ret;
}

static void expect_fail(const uint8_t *orig, size_t size, const char *what,
			void (*mutate)(uint8_t *b, size_t size), int want,
			const char *needle)
{
	uint8_t *b = malloc(size);
	char err[256] = "";
	int ret;

	memcpy(b, orig, size);
	mutate(b, size);
	ret = try_load(b, size, err, sizeof(err));
	CHECK(ret == want && strstr(err, needle),
	      "%s: ret %d (want %d), message \"%s\" (want \"%s\")", what, ret,
	      want, err, needle);
	printf("  %-28s -> %d \"%s\"\n", what, ret, err);
	free(b);
}

static size_t root(const uint8_t *b)
{
	return rd32(b, 0);
}

static void m_ident(uint8_t *b, size_t n) { (void)n; memcpy(b + 4, "XXXX", 4); }
static void m_root(uint8_t *b, size_t n) { wr32(b, 0, (uint32_t)n + 100); }
static void m_vtable(uint8_t *b, size_t n) { (void)n; wr32(b, root(b), 0x7ffffff0u); }
static void m_subgraphs_len(uint8_t *b, size_t n)
{
	(void)n;
	wr32(b, deref(b, fpos(b, root(b), 2)), 0x3fffffffu);
}
/* an operator the interpreter does not run (MUL, TRANSPOSE were, until they ran) */
static void m_opcode_lstm(uint8_t *b, size_t n)
{
	size_t oc = elem(b, root(b), 1, 0), p;

	(void)n;
	if ((p = fpos(b, oc, 0)))
		b[p] = 16;	/* LSTM */
	if ((p = fpos(b, oc, 3)))
		wr32(b, p, 16);
}
static size_t op0(const uint8_t *b)
{
	size_t sg = elem(b, root(b), 2, 0);

	return elem(b, sg, 3, 0);
}
/* The first operator that stores its opcode_index (0 is the default). */
static void m_opcode_index(uint8_t *b, size_t n)
{
	size_t sg = elem(b, root(b), 2, 0);

	(void)n;
	for (uint32_t i = 0; i < rd32(b, deref(b, fpos(b, sg, 3))); i++) {
		size_t p = fpos(b, elem(b, sg, 3, i), 0);

		if (p) {
			wr32(b, p, 999);
			return;
		}
	}
}
static void m_op_input(uint8_t *b, size_t n)
{
	(void)n;
	wr32(b, deref(b, fpos(b, op0(b), 1)) + 4, 100000);
}
static void m_op_inputs_len(uint8_t *b, size_t n)
{
	(void)n;
	wr32(b, deref(b, fpos(b, op0(b), 1)), 0x40000000u);
}
static void m_field_off(uint8_t *b, size_t n)
{
	(void)n;
	/* operator 0's inputs offset pointing past the end */
	wr32(b, fpos(b, op0(b), 1), 0xfffffff0u);
}
static void m_shape(uint8_t *b, size_t n)
{
	size_t sg = elem(b, root(b), 2, 0);
	size_t t0 = elem(b, sg, 0, 0);

	(void)n;
	wr32(b, deref(b, fpos(b, t0, 0)) + 4, 0x80000000u);	/* dim -2^31 */
}

static int unit(const char *path)
{
	struct e1npu_tflite_options ref = { .path = E1NPU_TFLITE_PATH_REFERENCE };
	struct e1npu_tflite_tensor_info ii, oi;
	struct e1npu_tflite_layer layer;
	struct e1npu_tflite *t = NULL;
	uint32_t nin, nout, nl;
	char err[256];
	size_t size;
	uint8_t *b = slurp(path, &size), *in;
	int ret;

	if (!b) {
		printf("%s: cannot read\n", path);
		return 1;
	}
	/* API on the real model. */
	ret = e1npu_tflite_load_memory(NULL, b, size, NULL, &t, err, sizeof(err));
	CHECK(ret == 0, "load: %d %s", ret, err);
	if (ret)
		return 1;
	CHECK(!e1npu_tflite_get_counts(t, &nin, &nout, &nl) && nin == 1 && nout == 1 && nl > 0,
	      "counts");
	CHECK(!e1npu_tflite_input_info(t, 0, &ii) && ii.ndims == 4 && ii.dims[0] == 1 &&
	      ii.dims[3] == 3 && ii.bytes == (size_t)ii.dims[1] * ii.dims[2] * 3, "input info");
	CHECK(!e1npu_tflite_output_info(t, 0, &oi) && oi.bytes == 1001, "output info");
	CHECK(e1npu_tflite_input_info(t, 1, &ii) == -EINVAL, "input 1");
	CHECK(e1npu_tflite_get_layer(t, nl, &layer) == -EINVAL, "layer out of range");
	in = calloc(1, ii.bytes + 1);
	CHECK(e1npu_tflite_set_input(t, 0, in, ii.bytes + 1) == -EINVAL &&
	      strstr(e1npu_tflite_last_error(t), "bytes"), "set_input size");
	CHECK(e1npu_tflite_set_input(t, 0, in, ii.bytes) == 0, "set_input");
	CHECK(e1npu_tflite_invoke(t) == 0, "invoke (CPU-only context): %s",
	      e1npu_tflite_last_error(t));
	CHECK(!e1npu_tflite_get_layer(t, 0, &layer) && !strcmp(layer.op, "CONV_2D") &&
	      layer.report.macs > 0, "layer 0 report: %s %llu", layer.op,
	      (unsigned long long)layer.report.macs);
	{
		/*
		 * The arena: the input keeps its data through invokes (a second
		 * invoke without set_input gives the same output), the plan is
		 * at or above its bound, accessors check their arguments.
		 */
		struct e1npu_tflite_arena a;
		struct e1npu_tflite_arena_tensor e;
		uint8_t *o1 = malloc(oi.bytes), *o2 = malloc(oi.bytes);

		for (size_t k = 0; k < ii.bytes; k++)
			in[k] = (uint8_t)(k * 2654435761u >> 24);
		CHECK(o1 && o2 && !e1npu_tflite_set_input(t, 0, in, ii.bytes) &&
		      !e1npu_tflite_invoke(t) && !e1npu_tflite_get_output(t, 0, o1, oi.bytes) &&
		      !e1npu_tflite_invoke(t) && !e1npu_tflite_get_output(t, 0, o2, oi.bytes) &&
		      !memcmp(o1, o2, oi.bytes), "second invoke without set_input: same output");
		CHECK(!e1npu_tflite_get_arena(t, &a) && a.num_tensors > 2 &&
		      a.total_bytes >= a.lower_bound && a.lower_bound >= ii.bytes + oi.bytes &&
		      a.unplanned_bytes > a.total_bytes && a.alignment == 64,
		      "arena: %llu bytes, bound %llu, %u tensors", (unsigned long long)a.total_bytes,
		      (unsigned long long)a.lower_bound, a.num_tensors);
		CHECK(!e1npu_tflite_get_arena_tensor(t, 0, &e) && e.role == E1NPU_TFLITE_ROLE_INPUT &&
		      e.bytes == ii.bytes && e.first_layer == 0 && e.last_layer == nl - 1,
		      "arena entry 0 is the input, live throughout");
		CHECK(e1npu_tflite_get_arena_tensor(t, a.num_tensors, &e) == -EINVAL &&
		      e1npu_tflite_get_arena(NULL, &a) == -EINVAL &&
		      e1npu_tflite_get_arena(t, NULL) == -EINVAL, "arena accessors: bad arguments");
		free(o1);
		free(o2);
	}
	free(in);
	e1npu_tflite_free(t);
	t = NULL;
	{
		/* The interpreter holds its device: close it first (ASan, LSan). */
		struct e1npu_device *dev = NULL;

		CHECK(e1npu_device_open("sim", &dev) == 0, "open sim");
		ret = e1npu_tflite_load_memory(dev, b, size, NULL, &t, err, sizeof(err));
		CHECK(ret == 0, "load on a device: %d %s", ret, err);
		e1npu_device_close(dev);
		CHECK(ret || (!e1npu_tflite_get_counts(t, &nin, &nout, &nl) && nin == 1),
		      "counts after device close");
		e1npu_tflite_free(t);
		t = NULL;
	}
	ret = e1npu_tflite_load_file(NULL, "/nonexistent.tflite", &ref, &t, err, sizeof(err));
	CHECK(ret == -ENOENT && t == NULL && strstr(err, "nonexistent"), "load_file ENOENT: %d", ret);
	ref.reserved[0] = 1;
	CHECK(e1npu_tflite_load_memory(NULL, b, size, &ref, &t, err, sizeof(err)) == -EINVAL,
	      "reserved options");
	CHECK(try_load(b, 0, err, sizeof(err)) == -EINVAL && strstr(err, "too small"), "empty");

	/* Targeted corruptions: a clear error naming the problem. */
	expect_fail(b, size, "file identifier", m_ident, -EINVAL, "TFL3");
	expect_fail(b, size, "root offset past end", m_root, -EINVAL, "past end of file");
	expect_fail(b, size, "vtable offset", m_vtable, -EINVAL, "vtable");
	expect_fail(b, size, "subgraphs vector length", m_subgraphs_len, -EINVAL, "past end of file");
	expect_fail(b, size, "opcode -> LSTM", m_opcode_lstm, -ENOTSUP,
		    "LSTM (builtin code 16) not supported");
	expect_fail(b, size, "opcode_index", m_opcode_index, -EINVAL, "opcode_index 999");
	expect_fail(b, size, "operator input index", m_op_input, -EINVAL, "out of range");
	expect_fail(b, size, "operator inputs length", m_op_inputs_len, -EINVAL, "past end of file");
	expect_fail(b, size, "field offset", m_field_off, -EINVAL, "outside the file");
	expect_fail(b, size, "negative dimension", m_shape, -EINVAL, "negative");
	{
		char what[64];

		for (size_t cut = 1; cut <= 4; cut++) {
			size_t n = size * cut / 5;

			snprintf(what, sizeof(what), "truncated to %zu bytes", n);
			ret = try_load(b, n, err, sizeof(err));
			CHECK(ret == -EINVAL && err[0], "%s: %d \"%s\"", what, ret, err);
			printf("  %-28s -> %d \"%s\"\n", what, ret, err);
		}
	}
	free(b);
	return 0;
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static int fuzz(const char *path, unsigned int n)
{
	size_t size;
	uint8_t *b = slurp(path, &size), *m;
	unsigned int accepted = 0, rejected = 0, nomsg = 0, invoked = 0;
	char err[256];

	if (!b)
		return 1;
	m = malloc(size);
	/* Truncations: every length up to 4 KiB, then 512 steps. */
	for (size_t len = 0; len < size; len += len < 4096 ? 1 : size / 512 + 1) {
		struct tfl_model mod;
		int ret = tfl_parse(b, len, &mod, err, sizeof(err));

		if (ret) {
			rejected++;
			nomsg += !err[0];
		} else {
			accepted++;
			tfl_model_free(&mod);
		}
	}
	/* Corruptions: bit flips, random bytes, random 32-bit values; biased
	 * to the metadata (the weights are in the middle of the file). */
	for (unsigned int i = 0; i < n; i++) {
		struct e1npu_tflite *t = NULL;
		struct e1npu_tflite_options opt = { .path = E1NPU_TFLITE_PATH_NPU };
		unsigned int k = 1 + next() % 4;
		int ret;

		memcpy(m, b, size);
		while (k--) {
			uint64_t r = next();
			size_t pos = next() % 3 ? (r % 2 ? r % 8192 : size - 1 - r % 8192) : r % size;

			if (pos >= size)
				pos = r % size;
			switch (next() % 3) {
			case 0: m[pos] ^= (uint8_t)(1u << (next() % 8)); break;
			case 1: m[pos] = (uint8_t)next(); break;
			default:
				if (pos + 4 <= size)
					wr32(m, pos, (uint32_t)next());
			}
		}
		ret = e1npu_tflite_load_memory(NULL, m, size, &opt, &t, err, sizeof(err));
		if (ret) {
			rejected++;
			nomsg += !err[0];
			continue;
		}
		accepted++;
		/* A mutant that loads must also run (CPU-only lowering context). */
		if (invoked < 40) {
			invoked++;
			e1npu_tflite_invoke(t);
		}
		e1npu_tflite_free(t);
	}
	printf("fuzz %s: %u rejected, %u accepted (%u invoked), %u without a message\n",
	       path, rejected, accepted, invoked, nomsg);
	CHECK(nomsg == 0, "rejections without a message");
	CHECK(rejected > 0, "nothing rejected");
	free(m);
	free(b);
	return 0;
}

int main(int argc, char **argv)
{
	int ret = 0;

	if (argc >= 3 && !strcmp(argv[1], "summary")) {
		for (int i = 2; i < argc; i++)
			ret |= summary(argv[i]);
		return ret;
	}
	if (argc == 3 && !strcmp(argv[1], "unit"))
		ret = unit(argv[2]);
	else if ((argc == 3 || argc == 4) && !strcmp(argv[1], "fuzz"))
		ret = fuzz(argv[2], argc == 4 ? (unsigned int)atoi(argv[3]) : 2000);
	else {
		fprintf(stderr, "usage: test-tflite summary|unit|fuzz MODEL [N]\n");
		return 2;
	}
	printf("%u passed, %u failed\n", passed, failed);
	return ret || failed ? 1 : 0;
}
