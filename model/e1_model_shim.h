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
#include <linux/compiler.h>
#define E1_READ_ONCE(x)		READ_ONCE(x)
#define E1_WRITE_ONCE(x, v)	WRITE_ONCE(x, v)
#else
/* Userspace: the same names from the C library (not built in the kernel). */
#include "e1_model_shim_user.h"
#endif

#endif /* __E1_MODEL_SHIM_H__ */
