/* SPDX-License-Identifier: MIT */
/* Shared helpers of the quantized lowerings (fc.c, conv.c, elem.c). */
#ifndef __E1NPU_OPS_QCOMMON_H__
#define __E1NPU_OPS_QCOMMON_H__

#include "ops_internal.h"
#include "quant.h"

/* The int8 view of a uint8 or int8 tensor value and zero point. */
static inline int32_t qc_shift(uint32_t dtype)
{
	return dtype == E1NPU_DTYPE_UINT8 ? 128 : 0;
}

static inline void qc_range(uint32_t dtype, uint32_t act, float scale,
			    int32_t zp, int32_t *lo, int32_t *hi)
{
	int32_t qmin = dtype == E1NPU_DTYPE_UINT8 ? 0 : -128;
	int32_t qmax = dtype == E1NPU_DTYPE_UINT8 ? 255 : 127;

	e1q_activation_range((enum e1q_act)act, scale, zp, qmin, qmax, lo, hi);
}

/* Convert @n values of @dtype to int8 (uint8: x - 128, exact). */
static inline void qc_to_s8(uint32_t dtype, const void *src, int8_t *dst,
			    size_t n)
{
	if (dtype == E1NPU_DTYPE_UINT8) {
		const uint8_t *s = src;
		size_t i = 0;

		/* eight at a time: flipping the top bit of each byte */
		for (; i + 8 <= n; i += 8) {
			uint64_t w;

			memcpy(&w, s + i, 8);
			w ^= 0x8080808080808080ull;
			memcpy(dst + i, &w, 8);
		}
		for (; i < n; i++)
			dst[i] = (int8_t)(s[i] ^ 0x80);
	} else {
		memcpy(dst, src, n);
	}
}

static inline void qc_store(uint32_t dtype, void *p, size_t i, int32_t v)
{
	if (dtype == E1NPU_DTYPE_UINT8)
		((uint8_t *)p)[i] = (uint8_t)v;
	else
		((int8_t *)p)[i] = (int8_t)v;
}

static inline bool qc_dtype_ok(uint32_t dtype)
{
	return dtype == E1NPU_DTYPE_INT8 || dtype == E1NPU_DTYPE_UINT8;
}

/* A zero point must be a value of the tensor's type (TFLite's rule). */
static inline bool qc_zp_ok(uint32_t dtype, int32_t zp)
{
	return dtype == E1NPU_DTYPE_UINT8 ? zp >= 0 && zp <= 255 :
					    zp >= -128 && zp <= 127;
}

/* Reserved members of a parameter struct must be zero. */
static inline bool qc_reserved_zero(const uint32_t *r, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (r[i])
			return false;
	return true;
}

/*
 * Per-channel multipliers of a convolution (@fc false) or fully connected
 * layer (@fc) as TFLite 2.2 derives them (e1q_conv_scale).
 */
int qc_multipliers(bool fc, uint32_t dtype, struct e1npu_qparams in,
		   const float *wscales, uint32_t nscales,
		   struct e1npu_qparams out, uint32_t n, int32_t *mult, int *shift);

#endif
