/* SPDX-License-Identifier: MIT */
/*
 * The delegate's compiled-partition cache (option cache_dir; cache.c):
 * per partition, a kind-2 artifact (lib/tflite/tflite_artifact.h) named
 * by the partition's fingerprint, loaded instead of searching the
 * lowering forms again, compiled and written on first use or whenever it
 * does not fit (another library version or device, corrupted, stale).
 */
#ifndef __E1NPU_DELEGATE_CACHE_H__
#define __E1NPU_DELEGATE_CACHE_H__

#include <stddef.h>
#include <stdint.h>

#include "delegate.h"
#include "tflite_reader.h"

struct e1npu_tflite;

/*
 * e1d_cache_part_new() - e1npu_tflite_part_new() of operators
 * @ops[0..@n) of @m on @d's context, through @d's cache when it has one.
 * A cache that cannot be read or written is logged and skipped: the
 * partition is then built as without a cache. Return as part_new.
 */
int e1d_cache_part_new(struct e1d *d, unsigned int part, const struct tfl_model *m,
		       const uint32_t *ops, uint32_t n, struct e1npu_tflite **tp,
		       char *err, size_t errlen);

/* e1d_cache_dir_check() - 0, or -EINVAL with why @dir cannot be a cache in @err. */
int e1d_cache_dir_check(const char *dir, char *err, size_t errlen);

#endif /* __E1NPU_DELEGATE_CACHE_H__ */
