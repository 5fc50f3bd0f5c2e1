// SPDX-License-Identifier: MIT
/*
 * e1npu-tflite compile's artifact (tools/e1npu-tflite/artifact.c) and its
 * SHA-256: the FIPS 180-4 test vectors; a round trip; every truncation and
 * every single changed byte of an artifact refused by the loader (run under
 * ASan too: no read outside the buffer); another format version, library
 * version or device capability refused with the reason.
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

#include "artifact.h"
#include "sha256.h"

static void hex(const uint8_t *d, char *s)
{
	for (int i = 0; i < 32; i++)
		snprintf(s + 2 * i, 3, "%02x", d[i]);
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
		sha256(msg[i], strlen(msg[i]), d);
		hex(d, s);
		assert_string_equal(s, want[i]);
	}
	assert_non_null(m);
	memset(m, 'a', 1000000);
	sha256(m, 1000000, d);
	hex(d, s);
	assert_string_equal(s, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	free(m);
}

static const struct art_caps caps = { 6, 0x10100f, 1, 16, 16 };

static void make(uint8_t **a, size_t *n)
{
	static uint8_t model[1000];
	struct art_op ops[3] = {
		{ 3, 0, 1, 1, 0, 884736, 13560 },
		{ 1, 2, 3, 4, 0, 0, 0 },
		{ 25, 3, 0, 0, -1, 0, 0 },
	};

	for (size_t i = 0; i < sizeof(model); i++)
		model[i] = (uint8_t)(i * 31 + 7);
	assert_int_equal(art_build(model, sizeof(model), "0.1.0", &caps, ops, 3, a, n), 0);
	assert_int_equal(*n, ART_HEADER_BYTES + 3 * ART_RECORD_BYTES + sizeof(model));
}

static void test_round_trip(void **state)
{
	struct art_view v;
	struct art_op op;
	uint8_t *a;
	size_t n;
	char err[256];

	(void)state;
	make(&a, &n);
	assert_true(art_is_artifact(a, n));
	assert_int_equal(art_parse(a, n, "0.1.0", &v, err, sizeof(err)), 0);
	assert_int_equal(v.format_version, 1);
	assert_string_equal(v.lib_version, "0.1.0");
	assert_int_equal(v.num_ops, 3);
	assert_int_equal(v.model_size, 1000);
	assert_ptr_equal(v.model, a + n - 1000);
	assert_int_equal(art_check_caps(&v, &caps, err, sizeof(err)), 0);
	art_get_op(&v, 0, &op);
	assert_int_equal(op.builtin, 3);
	assert_int_equal(op.macs, 884736);
	assert_int_equal(op.cycles, 13560);
	art_get_op(&v, 2, &op);
	assert_int_equal(op.place, 3);
	assert_int_equal(op.partition, -1);
	free(a);
}

static void test_every_truncation(void **state)
{
	struct art_view v;
	uint8_t *a;
	size_t n;
	char err[256];

	(void)state;
	make(&a, &n);
	for (size_t len = 0; len < n; len++) {
		/* a copy of exactly @len bytes: ASan sees any read past it */
		uint8_t *c = malloc(len ? len : 1);

		assert_non_null(c);
		memcpy(c, a, len);
		assert_int_not_equal(art_parse(c, len, "0.1.0", &v, err, sizeof(err)), 0);
		assert_true(err[0]);
		free(c);
	}
	free(a);
}

static void test_every_byte_changed(void **state)
{
	struct art_view v;
	uint8_t *a;
	size_t n;
	char err[256];

	(void)state;
	make(&a, &n);
	for (size_t i = 0; i < n; i++) {
		a[i] ^= 0x20;
		if (!art_parse(a, n, "0.1.0", &v, err, sizeof(err)))
			assert_int_not_equal(art_check_caps(&v, &caps, err, sizeof(err)), 0);
		a[i] ^= 0x20;
	}
	assert_int_equal(art_parse(a, n, "0.1.0", &v, err, sizeof(err)), 0);
	free(a);
}

static void test_mismatches(void **state)
{
	struct art_caps other = caps;
	struct art_view v;
	uint8_t *a;
	size_t n;
	char err[256];

	(void)state;
	make(&a, &n);
	assert_int_equal(art_parse(a, n, "0.2.0", &v, err, sizeof(err)), -ENOTSUP);
	assert_non_null(strstr(err, "compiled by libe1npu 0.1.0, this is libe1npu 0.2.0"));
	a[8] = 2;	/* format version 2 */
	assert_int_equal(art_parse(a, n, "0.1.0", &v, err, sizeof(err)), -ENOTSUP);
	assert_non_null(strstr(err, "format version 2, this loader reads version 1"));
	a[8] = 1;
	assert_int_equal(art_parse(a, n, "0.1.0", &v, err, sizeof(err)), 0);
	other.engines = 2;
	assert_int_equal(art_check_caps(&v, &other, err, sizeof(err)), -ENOTSUP);
	assert_non_null(strstr(err, "engines 0x6, this device has 0x2"));
	other = caps;
	other.array_rows = 8;
	assert_int_equal(art_check_caps(&v, &other, err, sizeof(err)), -ENOTSUP);
	assert_non_null(strstr(err, "array_rows"));
	a[n - 1] ^= 1;	/* the model */
	assert_int_equal(art_parse(a, n, "0.1.0", &v, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "SHA-256 differs"));
	free(a);
	assert_false(art_is_artifact("TFL3", 4));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sha256_vectors),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_every_truncation),
		cmocka_unit_test(test_every_byte_changed),
		cmocka_unit_test(test_mismatches),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
