/* SPDX-License-Identifier: MIT */
/*
 * Helpers shared by the libe1npu tests: a sim device per test, buffers,
 * a deterministic generator. Expected values are computed by the tests
 * themselves, never by the library.
 */
#ifndef __E1NPU_LIB_TEST_H__
#define __E1NPU_LIB_TEST_H__

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <e1npu/e1npu.h>

static inline struct e1npu_device *t_open(void)
{
	struct e1npu_device *dev = NULL;

	assert_int_equal(e1npu_device_open("sim", &dev), 0);
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
