// SPDX-License-Identifier: MIT
/*
 * Which ruy kernels TFLite 2.14's 8-bit GEMMs ran on (Documentation/
 * tflite.md, "TFLite 2.2 and 2.14"): the same TFLite release rounds
 * otherwise on x86-64 (ruy's AVX2/AVX-512 kernels: a rounding doubling
 * high multiply, then a rounding shift) than on riscv64 (ruy's portable
 * kernel: the 64-bit product rounded once), and libe1npu runs in the
 * process of the TFLite it reproduces.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tflite_reader.h"

int tfl_ruy_flavour(uint32_t *single, char *err, size_t errlen)
{
	const char *env = getenv("E1NPU_TFLITE_RUY");

#if defined(__x86_64__)
	*single = 0;
#else
	*single = 1;
#endif
	if (!env || !env[0])
		return 0;
	if (!strcmp(env, "x86-64") || !strcmp(env, "portable")) {
		*single = !strcmp(env, "portable");
		return 0;
	}
	if (err && errlen)
		snprintf(err, errlen,
			 "environment variable E1NPU_TFLITE_RUY='%.40s': expected x86-64 or portable", env);
	return -EINVAL;
}
