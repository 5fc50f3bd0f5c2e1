/* SPDX-License-Identifier: (GPL-2.0-only OR MIT) */
/*
 * Userspace half of e1_model_shim.h: the kernel's type names and overflow
 * helpers over the C library. Never compiled in the kernel, so it is not
 * part of the kernel lint.
 */
#ifndef __E1_MODEL_SHIM_USER_H__
#define __E1_MODEL_SHIM_USER_H__

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

#ifndef noinline
#define noinline __attribute__((noinline))
#endif

#define check_add_overflow(a, b, d) __builtin_add_overflow(a, b, d)
#define check_mul_overflow(a, b, d) __builtin_mul_overflow(a, b, d)

/* A flag another thread may set while the model computes (the kernel's
 * READ_ONCE/WRITE_ONCE; single-threaded hosts never race on it). */
#define E1_READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define E1_WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))

#endif /* __E1_MODEL_SHIM_USER_H__ */
