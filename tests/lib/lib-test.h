/* SPDX-License-Identifier: MIT */
/*
 * Helpers shared by the libe1npu tests: a device per test, buffers, a
 * deterministic generator. Expected values are computed by the tests
 * themselves, never by the library.
 *
 * The device under test is E1NPU_DEVICE when set (a /dev/accel node: the
 * kernel backend, as in the QEMU guest), else the in-process model. Tests
 * that need a hook of the in-process backend (lib/sim.h, E1NPU_SIM_*)
 * call t_skip_unless_sim(), which skips with the reason on the kernel.
 */
#ifndef __E1NPU_LIB_TEST_H__
#define __E1NPU_LIB_TEST_H__

#include <errno.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <e1npu/e1npu.h>

/* "sim" or the E1NPU_DEVICE the suite was started with (read once). */
static inline const char *t_spec(void)
{
	static char spec[64];

	if (!spec[0]) {
		const char *e = getenv("E1NPU_DEVICE");

		snprintf(spec, sizeof(spec), "%s", e && *e ? e : "sim");
	}
	return spec;
}

static inline bool t_on_sim(void)
{
	return !strcmp(t_spec(), "sim");
}

/* Skip the current test, saying why, unless it runs on the in-process model. */
#define t_skip_unless_sim(why) do {						\
	if (!t_on_sim()) {							\
		print_message("[  SKIP    ] %s: %s on %s: %s\n", __func__,	\
			      "needs the in-process backend", t_spec(), why);	\
		skip();								\
	}									\
} while (0)

static inline struct e1npu_device *t_open(void)
{
	struct e1npu_device *dev = NULL;

	if (e1npu_device_open(t_spec(), &dev))
		fail_msg("opening %s failed", t_spec());
	assert_non_null(dev);
	return dev;
}

static inline void *t_buf(struct e1npu_device *dev, size_t size,
			  struct e1npu_buffer **bufp)
{
	void *p = NULL;

	assert_int_equal(e1npu_buffer_alloc(dev, size, bufp), 0);
	assert_int_equal(e1npu_buffer_map(*bufp, &p), 0);
	return p;
}

static inline struct e1npu_tensor t_tensor(struct e1npu_buffer *buf,
					   uint64_t offset, uint32_t stride)
{
	struct e1npu_tensor t;

	memset(&t, 0, sizeof(t));
	t.buf = buf;
	t.offset = offset;
	t.stride = stride;
	return t;
}

/* xorshift32: deterministic test data. */
static inline uint32_t t_rand(uint32_t *s)
{
	uint32_t x = *s;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*s = x;
	return x;
}

static inline void t_fill(void *p, size_t n, uint32_t seed)
{
	uint8_t *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		b[i] = (uint8_t)t_rand(&seed);
}

static inline int32_t t_rd32(const void *p)
{
	int32_t v;

	memcpy(&v, p, 4);
	return v;
}

static inline uint32_t t_align16(uint32_t v)
{
	return (v + 15u) & ~15u;
}

#endif
