/* SPDX-License-Identifier: MIT */
/* SHA-256 (FIPS 180-4) for e1npu-tflite compile's model hash. */
#ifndef __E1NPU_TFLITE_TOOL_SHA256_H__
#define __E1NPU_TFLITE_TOOL_SHA256_H__

#include <stddef.h>
#include <stdint.h>

void sha256(const void *data, size_t size, uint8_t out[32]);

#endif
