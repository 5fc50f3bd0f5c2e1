// SPDX-License-Identifier: MIT
/*
 * The compiled-model artifact (lib/tflite/tflite_artifact.c) on the
 * shipped MobileNet v1 0.25 128 and the simulator: SHA-256 against the
 * FIPS 180-4 vectors; the artifact loads with outputs, layer reports and
 * arena plan identical to the .tflite's; each header field is where the
 * format says (model hash by an independent SHA-256 computation); another
 * format version, library version, kind or device capability, a changed
 * arena record or operator code, stored lowering forms the convolution
 * could not have chosen, packed weights outside their section or not of
 * the form's size are refused with the reason; another valid form (packed
 * from the weights) loads with identical outputs (every lowering is
 * exact); every
 * truncation and a changed byte anywhere are refused (checksum); every
 * header byte changed and the checksum made good again never crashes
 * (run under ASan too); each further model (the zoo, the MobileNets)
 * compiled, its artifact's outputs byte-identical to the .tflite's.
 * Usage: test-tflite-artifact MODEL.tflite [MODEL.tflite...]
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <e1npu/e1npu.h>
#include <e1npu/e1npu_tflite.h>

#include "conv_choice.h"
#include "tflite_artifact.h"
#include "tflite_sha256.h"

static const char *model_path;
static uint8_t *model, *art;
static size_t model_size, art_size;
static struct e1npu_device *dev;
static uint8_t *want_out;
static size_t out_bytes;

static void hex(const uint8_t *d, char *s)
{
	for (int i = 0; i < 32; i++)
		snprintf(s + 2 * i, 3, "%02x", d[i]);
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get64(const uint8_t *p)
{
	return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

/* Layer @k's packed-weight table entry in artifact @b. */
static size_t packed_entry(const uint8_t *b, uint32_t k)
{
	return 128 + (size_t)(get32(b + 68) + get32(b + 92)) * 32 + (size_t)k * 16;
}

static void test_sha256_vectors(void **state)
{
	static const char *const msg[] = {
		"", "abc", "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
	};
	static const char *const want[] = {
		"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
		"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
		"248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
	};
	uint8_t d[32];
	char s[65];
	char *m = malloc(1000000);

	(void)state;
	for (int i = 0; i < 3; i++) {
		tfl_sha256(msg[i], strlen(msg[i]), d);
		hex(d, s);
		assert_string_equal(s, want[i]);
	}
	assert_non_null(m);
	memset(m, 'a', 1000000);
	tfl_sha256(m, 1000000, d);
	hex(d, s);
	assert_string_equal(s, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	free(m);
}

static uint8_t *read_all(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	uint8_t *b;
	long len;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	len = ftell(f);
	assert_true(len > 0);
	rewind(f);
	b = malloc((size_t)len);
	assert_non_null(b);
	assert_int_equal(fread(b, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	*n = (size_t)len;
	return b;
}

/* Load @buf, run it on a fixed input, return its output (free) or NULL with @err. */
static uint8_t *run(const uint8_t *buf, size_t n, char *err, size_t errlen,
		    struct e1npu_tflite **keep)
{
	struct e1npu_tflite_tensor_info in, out;
	struct e1npu_tflite *t;
	uint8_t *x, *y;

	if (e1npu_tflite_load_memory(dev, buf, n, NULL, &t, err, errlen))
		return NULL;
	assert_int_equal(e1npu_tflite_input_info(t, 0, &in), 0);
	assert_int_equal(e1npu_tflite_output_info(t, 0, &out), 0);
	x = malloc(in.bytes);
	y = malloc(out.bytes);
	assert_true(x && y);
	for (size_t i = 0; i < in.bytes; i++)
		x[i] = (uint8_t)(i * 7 + i / 97);
	assert_int_equal(e1npu_tflite_set_input(t, 0, x, in.bytes), 0);
	assert_int_equal(e1npu_tflite_invoke(t), 0);
	assert_int_equal(e1npu_tflite_get_output(t, 0, y, out.bytes), 0);
	out_bytes = out.bytes;
	free(x);
	if (keep)
		*keep = t;
	else
		e1npu_tflite_free(t);
	return y;
}

static int setup(void **state)
{
	struct e1npu_tflite *t;
	void *a;
	char err[256];

	(void)state;
	model = read_all(model_path, &model_size);
	if (e1npu_device_open("sim", &dev))
		return -1;
	want_out = run(model, model_size, err, sizeof(err), &t);
	if (!want_out || e1npu_tflite_compile(t, &a, &art_size, err, sizeof(err)))
		return -1;
	art = a;
	e1npu_tflite_free(t);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	free(want_out);
	free(art);
	free(model);
	e1npu_device_close(dev);
	return 0;
}

/* The header as documented, the model's hash computed here. */
static void test_layout(void **state)
{
	uint8_t sha[32];
	uint32_t nl = get32(art + 68), na = get32(art + 92);

	(void)state;
	assert_memory_equal(art, "E1NPUCM\n", 8);
	assert_int_equal(get32(art + 8), 2);
	assert_int_equal(get32(art + 12), 128);
	assert_string_equal((const char *)art + 16, e1npu_api_version());
	tfl_sha256(model, model_size, sha);
	assert_memory_equal(art + 32, sha, 32);
	assert_int_equal(get32(art + 64), 1);
	assert_int_equal(nl, 31);	/* the model's operators */
	assert_int_equal(get32(art + 72), 6);	/* sim: wrapper + datapath */
	assert_int_equal(get32(art + 96), model_size);
	assert_int_equal(art_size, 128 + (size_t)(nl + na) * 32 + (size_t)nl * 16 +
			 get64(art + 120) + model_size);
	/* packed weights: one run per convolution, end to end, the others none */
	{
		uint64_t off = 0;

		for (uint32_t k = 0; k < nl; k++) {
			const uint8_t *e = art + packed_entry(art, k);
			uint32_t op = get32(art + 128 + k * 32);

			if (op == 3 || op == 4) {
				assert_true(get64(e + 8) > 0);
				assert_int_equal(get64(e), off);
				off += get64(e + 8);
			} else {
				assert_int_equal(get64(e + 8), 0);
			}
		}
		assert_int_equal(off, get64(art + 120));
	}
	assert_memory_equal(art + art_size - model_size, model, model_size);
	/* operator 0 is CONV_2D (3), a 3x3 stride 2: on the systolic engine */
	assert_int_equal(get32(art + 128), 3);
	assert_int_equal(art[128 + 4], 0);
}

static void test_round_trip(void **state)
{
	struct e1npu_tflite *a, *m;
	struct e1npu_tflite_arena x, y;
	char err[256];
	uint8_t *got;
	uint32_t n;

	(void)state;
	got = run(art, art_size, err, sizeof(err), &a);
	assert_non_null(got);
	assert_memory_equal(got, want_out, out_bytes);
	free(got);
	got = run(model, model_size, err, sizeof(err), &m);
	free(got);
	assert_int_equal(e1npu_tflite_get_counts(a, NULL, NULL, &n), 0);
	for (uint32_t k = 0; k < n; k++) {
		struct e1npu_tflite_layer la, lm;

		assert_int_equal(e1npu_tflite_get_layer(a, k, &la), 0);
		assert_int_equal(e1npu_tflite_get_layer(m, k, &lm), 0);
		assert_int_equal(la.report.engine, lm.report.engine);
		assert_int_equal(la.report.wrapper_cycles, lm.report.wrapper_cycles);
		assert_int_equal(la.report.dp_cycles, lm.report.dp_cycles);
		assert_string_equal(la.report.why, lm.report.why);
	}
	assert_int_equal(e1npu_tflite_get_arena(a, &x), 0);
	assert_int_equal(e1npu_tflite_get_arena(m, &y), 0);
	assert_int_equal(x.total_bytes, y.total_bytes);
	e1npu_tflite_free(a);
	e1npu_tflite_free(m);
}

/* @b (a copy of the artifact, resealed) is refused with @want in the message. */
static void refused(uint8_t *b, const char *want)
{
	struct e1npu_tflite *t = NULL;
	char err[512];
	int ret;

	tflite_art_seal(b, art_size);
	ret = e1npu_tflite_load_memory(dev, b, art_size, NULL, &t, err, sizeof(err));
	if (!ret || !strstr(err, want))
		fail_msg("expected a refusal with \"%s\", got %d \"%s\"", want, ret, err);
	assert_null(t);
}

static uint8_t *copy(void)
{
	uint8_t *b = malloc(art_size);

	assert_non_null(b);
	memcpy(b, art, art_size);
	return b;
}

/* First layer record of a convolution in form @form, or -1. */
static int conv_record(unsigned int form)
{
	for (uint32_t k = 0; k < get32(art + 68); k++) {
		const uint8_t *r = art + 128 + (size_t)k * 32;
		uint32_t op = get32(r);

		if ((op == 3 || op == 4) && r[7] == form)
			return (int)k;
	}
	return -1;
}

/* The last CONV_2D record (the MobileNets' 1x1 classifier), or -1. */
static int last_conv2d_record(void)
{
	int last = -1;

	for (uint32_t k = 0; k < get32(art + 68); k++)
		if (get32(art + 128 + (size_t)k * 32) == 3)
			last = (int)k;
	return last;
}

/*
 * @b: the artifact with layer @k stored as @form, @bh x @bw, @gs, its
 * weights packed again from the model's (a packed run of 0 bytes).
 */
static void set_form(uint8_t *b, int k, unsigned int form, uint8_t bh, uint8_t bw, uint8_t gs)
{
	b[128 + k * 32 + 7] = (uint8_t)form;
	b[128 + k * 32 + 12] = bh;
	b[128 + k * 32 + 13] = bw;
	b[128 + k * 32 + 14] = gs;
	put64(b + packed_entry(b, (uint32_t)k) + 8, 0);
}

static void test_refusals(void **state)
{
	uint8_t *b = copy();
	size_t arena = 128 + (size_t)get32(art + 68) * 32;
	int k;

	(void)state;
	put32(b + 8, 3);
	refused(b, "format version 3, this libe1npu reads version 2");
	memcpy(b, art, art_size);
	memcpy(b + 16, "9.9.9", 6);
	refused(b, "compiled by libe1npu 9.9.9, this is libe1npu ");
	memcpy(b, art, art_size);
	put32(b + 64, 2);
	refused(b, "an artifact of kind 2 (a delegate partition), expected kind 1");
	memcpy(b, art, art_size);
	put32(b + 72, 7);
	refused(b, "compiled for a device with engines 0x7, this device has 0x6");
	memcpy(b, art, art_size);
	put32(b + 88, 32);
	refused(b, "compiled for a device with array_cols 0x20, this device has 0x10");
	memcpy(b, art, art_size);
	put32(b + 68, 0xffffffffu);
	refused(b, "4294967295 layer and");
	memcpy(b, art, art_size);
	put32(b + 68, get32(art + 68) - 1);
	refused(b, "truncated or padded: 30 layer and");
	memcpy(b, art, art_size);
	put32(b + 128, 4);	/* operator 0 recorded as DEPTHWISE_CONV_2D */
	refused(b, "layer record 0 is builtin 4, the model's operator 0 is CONV_2D");
	memcpy(b, art, art_size);
	b[arena + 16] ^= 0x40;	/* the first arena tensor's offset */
	refused(b, "stored arena plan differs from the model's at entry 0");
	memcpy(b, art, art_size);
	b[111] = 0x55;	/* arena bytes */
	refused(b, "stored arena plan");
	/* stored lowering forms this convolution could not have chosen */
	/* the classifier 1x1 as a MATMUL record (1x1 blocks, one group: valid) */
	k = last_conv2d_record();
	assert_true(k >= 0);
	memcpy(b, art, art_size);
	set_form(b, k, OPS_CONV_FORM_MATMUL, 200, 1, 1);	/* 200-row blocks */
	refused(b, "does not fit this convolution");
	memcpy(b, art, art_size);
	set_form(b, k, OPS_CONV_FORM_MATMUL, 1, 1, 0);	/* no group stacked */
	refused(b, "does not fit this convolution");
	memcpy(b, art, art_size);
	set_form(b, k, OPS_CONV_FORM_CPU, 0, 0, 0);
	refused(b, "stored lowering: host CPU, but the hardware can run this convolution");
	memcpy(b, art, art_size);
	set_form(b, k, OPS_CONV_FORM_PACKED, 1, 1, 1);	/* a 1x1: the packed variant cannot run it */
	refused(b, "packed CONV2D form of 1x1-output blocks");
	memcpy(b, art, art_size);
	b[128 + k * 32 + 7] = OPS_CONV_FORM_PACKED + 1;
	refused(b, "layer record");
	/* CONV2D_S8 tilings and channel splits the search could not have tried */
	memcpy(b, art, art_size);
	set_form(b, k, OPS_CONV_FORM_CONV2D, 2, 0, 0);	/* 2 rows of tiles, 1 output row */
	refused(b, "output tiles, this 1x1 output takes");
	memcpy(b, art, art_size);
	set_form(b, k, OPS_CONV_FORM_CONV2D, 0, 0, 40);
	refused(b, "halved 40 times");
	k = conv_record(OPS_CONV_FORM_PACKED);
	assert_true(k >= 0);
	memcpy(b, art, art_size);
	b[128 + k * 32 + 7] = OPS_CONV_FORM_CONV2D;	/* with the packed form's bytes */
	memset(b + 128 + k * 32 + 12, 0, 3);
	refused(b, "bytes of CONV2D_S8 weights, its");
	/* packed weights: past the section, or not the form's size */
	memcpy(b, art, art_size);
	put64(b + packed_entry(b, (uint32_t)k), get64(art + 120));
	refused(b, "packed weights at");
	memcpy(b, art, art_size);
	put64(b + packed_entry(b, (uint32_t)k) + 8, get64(art + packed_entry(art, (uint32_t)k) + 8) - 1);
	refused(b, "bytes of MATMUL weights, the form takes");
	free(b);
}

/* @b (resealed here) loads and gives the model's output. */
static void loads_same(uint8_t *b, const char *what)
{
	char err[256];
	uint8_t *got;

	tflite_art_seal(b, art_size);
	got = run(b, art_size, err, sizeof(err), NULL);
	if (!got)
		fail_msg("%s: %s", what, err);
	assert_memory_equal(got, want_out, out_bytes);
	free(got);
}

/* Other forms the search could have chosen: they load, outputs identical. */
static void test_other_valid_form(void **state)
{
	uint8_t *b = copy();
	int k = last_conv2d_record();

	(void)state;
	assert_true(k >= 0);
	set_form(b, k, OPS_CONV_FORM_MATMUL, 1, 1, 1);
	loads_same(b, "the classifier as 1x1-output MATMULs");
	memcpy(b, art, art_size);
	set_form(b, k, OPS_CONV_FORM_CONV2D, 0, 0, 0);
	loads_same(b, "the classifier as CONV2D_S8 in blocks of 512 channels");
	memcpy(b, art, art_size);
	set_form(b, k, OPS_CONV_FORM_CONV2D, 1, 1, 2);
	loads_same(b, "the classifier as CONV2D_S8, its channels halved twice");
	k = conv_record(OPS_CONV_FORM_PACKED);
	assert_true(k >= 0);
	memcpy(b, art, art_size);
	set_form(b, k, OPS_CONV_FORM_CONV2D, 0, 0, 0);
	loads_same(b, "a depthwise layer as block-diagonal CONV2D_S8");
	free(b);
}

/* Truncations and changed bytes (checksum not made good): all refused. */
static void test_damage(void **state)
{
	struct e1npu_tflite *t = NULL;
	uint8_t *b = copy();
	char err[256];
	size_t steps[] = { 1, 7, 31, 129, 4093 };

	(void)state;
	for (size_t n = 0; n < art_size; n += steps[n % 5]) {
		assert_int_not_equal(e1npu_tflite_load_memory(dev, art, n, NULL, &t, err, sizeof(err)), 0);
		assert_null(t);
	}
	for (size_t i = 0; i < art_size; i += 1 + i / 4) {
		if (i < 8)
			continue;	/* the magic: then it is read as a .tflite */
		b[i] ^= 0x11;
		assert_int_not_equal(e1npu_tflite_load_memory(dev, b, art_size, NULL, &t, err,
							      sizeof(err)), 0);
		assert_null(t);
		b[i] ^= 0x11;
	}
	free(b);
}

/* Each header byte changed, checksum made good: refused or loaded, never a crash. */
static void test_header_bytes(void **state)
{
	uint8_t *b = copy();
	char err[256];

	(void)state;
	for (size_t i = 8; i < 128; i++) {
		struct e1npu_tflite *t = NULL;

		if (i >= 112 && i < 120)
			continue;	/* the checksum itself */
		for (int v = 0; v < 2; v++) {
			b[i] = v ? 0xff : (uint8_t)(art[i] + 1);
			tflite_art_seal(b, art_size);
			if (!e1npu_tflite_load_memory(dev, b, art_size, NULL, &t, err, sizeof(err)))
				e1npu_tflite_free(t);
			memcpy(b, art, art_size);
		}
	}
	free(b);
}

static char **extra;
static int nextra;

/* Fill every input of @t with a pattern of @seed. */
static void fill_inputs(struct e1npu_tflite *t, unsigned int seed)
{
	uint32_t nin;

	assert_int_equal(e1npu_tflite_get_counts(t, &nin, NULL, NULL), 0);
	for (uint32_t k = 0; k < nin; k++) {
		struct e1npu_tflite_tensor_info in;
		uint8_t *x;

		assert_int_equal(e1npu_tflite_input_info(t, k, &in), 0);
		x = malloc(in.bytes ? in.bytes : 1);
		assert_non_null(x);
		for (size_t i = 0; i < in.bytes; i++)
			x[i] = (uint8_t)((i * 131 + seed * 17 + k) ^ (i >> 5));
		assert_int_equal(e1npu_tflite_set_input(t, k, x, in.bytes), 0);
		free(x);
	}
}

/* Every output of @t, concatenated (free). */
static uint8_t *outputs(struct e1npu_tflite *t, size_t *n)
{
	uint32_t nout;
	uint8_t *all = NULL;

	*n = 0;
	assert_int_equal(e1npu_tflite_get_counts(t, NULL, &nout, NULL), 0);
	for (uint32_t k = 0; k < nout; k++) {
		struct e1npu_tflite_tensor_info o;

		assert_int_equal(e1npu_tflite_output_info(t, k, &o), 0);
		all = realloc(all, *n + o.bytes + 1);
		assert_non_null(all);
		assert_int_equal(e1npu_tflite_get_output(t, k, all + *n, o.bytes), 0);
		*n += o.bytes;
	}
	return all;
}

/*
 * Each model given after the first: compiled, its artifact's outputs on
 * two inputs byte-identical to the .tflite's. A model the interpreter
 * refuses cannot be compiled: the compile is not attempted, and it says so.
 */
static void test_models_round_trip(void **state)
{
	(void)state;
	for (int i = 0; i < nextra; i++) {
		struct e1npu_tflite *m, *a;
		size_t n, an, mo, ao;
		uint8_t *buf = read_all(extra[i], &n), *x, *y;
		void *ab;
		char err[512];

		if (e1npu_tflite_load_memory(dev, buf, n, NULL, &m, err, sizeof(err))) {
			printf("%s: refused by the interpreter (%s): no artifact\n", extra[i], err);
			free(buf);
			continue;
		}
		if (e1npu_tflite_compile(m, &ab, &an, err, sizeof(err)))
			fail_msg("%s: compile: %s", extra[i], err);
		if (e1npu_tflite_load_memory(dev, ab, an, NULL, &a, err, sizeof(err)))
			fail_msg("%s: its artifact: %s", extra[i], err);
		for (unsigned int seed = 0; seed < 2; seed++) {
			fill_inputs(m, seed);
			fill_inputs(a, seed);
			assert_int_equal(e1npu_tflite_invoke(m), 0);
			assert_int_equal(e1npu_tflite_invoke(a), 0);
			x = outputs(m, &mo);
			y = outputs(a, &ao);
			assert_int_equal(mo, ao);
			assert_memory_equal(x, y, mo);
			free(x);
			free(y);
		}
		printf("%s: artifact of %zu bytes (model %zu), outputs identical\n", extra[i], an, n);
		e1npu_tflite_free(a);
		e1npu_tflite_free(m);
		free(ab);
		free(buf);
	}
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sha256_vectors),
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_other_valid_form),
		cmocka_unit_test(test_damage),
		cmocka_unit_test(test_header_bytes),
		cmocka_unit_test(test_models_round_trip),
	};

	if (argc < 2) {
		fprintf(stderr, "usage: %s MODEL.tflite [MODEL.tflite...]\n", argv[0]);
		return 2;
	}
	model_path = argv[1];
	extra = argv + 2;
	nextra = argc - 2;
	return cmocka_run_group_tests(tests, setup, teardown);
}
