/* SPDX-License-Identifier: MIT */
/*
 * e1npu-tflite compile's artifact (format version 1), all little-endian:
 *
 *   0   8  magic "E1NPUCM\n"
 *   8   4  format version (1)
 *   12  4  header bytes (128)
 *   16  16 libe1npu version that compiled it, NUL-padded ("0.1.0")
 *   32  32 SHA-256 of the model (the .tflite file's bytes)
 *   64  8  model bytes
 *   72  8  model offset (the end of the plan records)
 *   80  20 device capabilities: engines, wrapper_caps, gemmini_present,
 *          array_rows, array_cols (struct e1npu_device_info's)
 *   100 4  operators (plan records)
 *   104 4  plan offset (128)
 *   108 4  plan record bytes (32)
 *   112 16 the first 16 bytes of SHA-256 over bytes 0..111 and the plan
 *          records (the model has its own hash): any changed byte is seen
 *   128    per operator: builtin u32, place u8, engine u8, reason u8, 0 u8,
 *          partition i32, MACs u64, modelled cycles u64, 0 u32
 *   ...    the model, to the end of the file
 *
 * The loader checks every field and bound before it uses one and refuses,
 * with the reason, another format version, another library version, a
 * model whose hash differs, and a device whose capabilities differ.
 */
#ifndef __E1NPU_TFLITE_TOOL_ARTIFACT_H__
#define __E1NPU_TFLITE_TOOL_ARTIFACT_H__

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ART_FORMAT_VERSION 1u
#define ART_HEADER_BYTES 128u
#define ART_RECORD_BYTES 32u

struct e1npu_device_info;

struct art_caps {
	uint32_t engines, wrapper_caps, gemmini_present, array_rows, array_cols;
};

struct art_op {
	uint32_t builtin;
	uint8_t place, engine, reason;
	int32_t partition;
	uint64_t macs, cycles;
};

/* A parsed artifact: points into the caller's buffer. */
struct art_view {
	uint32_t format_version;
	char lib_version[17];
	uint8_t sha256[32];
	struct art_caps caps;
	uint32_t num_ops;
	const uint8_t *records;
	const uint8_t *model;
	size_t model_size;
};

void art_caps_of(const struct e1npu_device_info *info, struct art_caps *caps);

/* Does @buf start with the artifact magic (at least 8 bytes)? */
bool art_is_artifact(const void *buf, size_t size);

/*
 * art_build() - the artifact of @model (@msize bytes) compiled by library
 * version @lib for @caps with the plan @ops[0..@nops), in *@out (free()).
 * Return 0, -EINVAL or -ENOMEM.
 */
int art_build(const void *model, size_t msize, const char *lib,
	      const struct art_caps *caps, const struct art_op *ops, uint32_t nops,
	      uint8_t **out, size_t *outsize);

/*
 * art_parse() - check and parse @buf (@size bytes), made by library
 * version @lib. Return 0, or -EINVAL (malformed, truncated, corrupted) /
 * -ENOTSUP (another format or library version) with the reason in @err.
 */
int art_parse(const void *buf, size_t size, const char *lib, struct art_view *v,
	      char *err, size_t errlen);

/* art_check_caps() - 0, or -ENOTSUP naming the first capability that differs. */
int art_check_caps(const struct art_view *v, const struct art_caps *dev, char *err,
		   size_t errlen);

void art_get_op(const struct art_view *v, uint32_t i, struct art_op *op);

#endif
