/* SPDX-License-Identifier: MIT */
/*
 * Shared helpers of the libFuzzer harnesses (tests/fuzz/): a byte reader
 * over the fuzzer input and a loud failure that libFuzzer records as a
 * crash (abort, so the input is saved as crash-<sha1>).
 */
#ifndef __FUZZ_COMMON_H__
#define __FUZZ_COMMON_H__

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fz {
	const uint8_t *p;
	size_t n;
};

static inline uint8_t fz_u8(struct fz *f)
{
	uint8_t v;

	if (!f->n)
		return 0;
	v = *f->p++;
	f->n--;
	return v;
}

static inline uint16_t fz_u16(struct fz *f)
{
	return (uint16_t)(fz_u8(f) | (uint16_t)fz_u8(f) << 8);
}

static inline uint32_t fz_u32(struct fz *f)
{
	return (uint32_t)fz_u16(f) | (uint32_t)fz_u16(f) << 16;
}

static inline uint64_t fz_u64(struct fz *f)
{
	return (uint64_t)fz_u32(f) | (uint64_t)fz_u32(f) << 32;
}

__attribute__((noreturn, format(printf, 1, 2)))
static inline void fz_fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "\n*** FUZZ PROPERTY VIOLATED: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	abort();
}

#endif /* __FUZZ_COMMON_H__ */
