/* SPDX-License-Identifier: (GPL-2.0-only OR MIT) */
/*
 * The only environment the device model depends on: fixed-width integer
 * types, bool, size_t, memcpy/memset and overflow-checked addition. In the
 * kernel these come from the kernel's own headers.
 */
#ifndef __E1_MODEL_SHIM_H__
#define __E1_MODEL_SHIM_H__

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/string.h>
#include <linux/overflow.h>
#else
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

#define check_add_overflow(a, b, d) __builtin_add_overflow(a, b, d)
#define check_mul_overflow(a, b, d) __builtin_mul_overflow(a, b, d)
#endif

#endif /* __E1_MODEL_SHIM_H__ */
