/* SPDX-License-Identifier: MIT */
/* e1npu-tflite diff: comparing one layer's output on two paths. */
#ifndef __E1NPU_TFLITE_TOOL_COMPARE_H__
#define __E1NPU_TFLITE_TOOL_COMPARE_H__

#include <stddef.h>
#include <stdint.h>

/* Histogram of |a - b| in quantized steps: 0, 1, 2, 3-4, 5-8, 9-16, 17+. */
#define CMP_BUCKETS 7

struct cmp_result {
	size_t count;		/* elements compared */
	size_t differ;		/* bytes (elements) that differ */
	int32_t max_abs;	/* largest |a - b| */
	size_t first;		/* index of the first difference (count: none) */
	size_t hist[CMP_BUCKETS];
};

/* The bucket labels, "0", "1", "2", "3-4", "5-8", "9-16", "17+" (static). */
const char *cmp_bucket_name(unsigned int b);

/*
 * cmp_tensors() - compare @n one-byte elements of @a and @b, int8 when
 * @is_signed, else uint8.
 */
void cmp_tensors(const void *a, const void *b, size_t n, int is_signed,
		 struct cmp_result *r);

#endif
