/* SPDX-License-Identifier: MIT */
/* SHA-256 (FIPS 180-4) for the compiled-model artifact (tflite_artifact.c). */
#ifndef __E1NPU_TFLITE_SHA256_H__
#define __E1NPU_TFLITE_SHA256_H__

#include <stddef.h>
#include <stdint.h>

void tfl_sha256(const void *data, size_t size, uint8_t out[32]);

#endif
