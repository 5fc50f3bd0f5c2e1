/* SPDX-License-Identifier: MIT */
/*
 * The compiled-model artifact (e1npu_tflite_compile(), format version 2),
 * all little-endian:
 *
 *   0   8  magic "E1NPUCM\n"
 *   8   4  format version (2)
 *   12  4  header bytes (128)
 *   16  16 libe1npu version that compiled it, NUL-padded ("0.1.0")
 *   32  32 SHA-256 of the source: the .tflite file (kind 1), or the
 *          delegate partition's fingerprint (kind 2)
 *   64  4  kind: 1 a whole model, 2 a delegate partition (cache_dir),
 *          3 an ONNX Runtime EP partition (ort-ep/ep_context.c: an
 *          EPContext node's blob; no layer or arena records, the EP's
 *          record in the model section, the SHA-256 field its SHA-256)
 *   68  4  layers (layer records)
 *   72  20 device capabilities: engines, wrapper_caps, gemmini_present,
 *          array_rows, array_cols (struct e1npu_device_info's)
 *   92  4  arena records
 *   96  8  model bytes (kind 2: 0)
 *   104 8  arena bytes (the plan's total)
 *   112 8  checksum (tflite_art_sum) of the whole file but these 8 bytes
 *   120 8  packed weight bytes
 *   128    per layer, 32 bytes: builtin i32, place u8, engine u8, reason
 *          u8, form u8 (enum ops_conv_form), partition i32, block height
 *          u8, width u8, groups stacked u8, 0 u8, MACs u64, modelled
 *          cycles u64
 *   ...    per arena tensor, 32 bytes: tensor u32, role u32, first layer
 *          u32, last layer u32, offset u64, bytes u64
 *   ...    per layer, 16 bytes: its packed weights' offset in the packed
 *          section u64 and bytes u64 (0: none, built from the weights)
 *   ...    the packed section: each convolution's CONV2D_S8 blocks or
 *          MATMUL B matrices as ops_conv_packed() wrote them
 *   ...    the model (kind 1), to the end of the file
 *
 * Loading reads nothing it has not bounds-checked; the lowering forms and
 * packed weights are handed to ops_conv_new_chosen(), which takes a form
 * only if the convolution could have chosen it and packed weights only of
 * exactly the form's size; the arena plan is planned again and must
 * equal the stored one. Internal to the build: not in libe1npu.sym.
 */
#ifndef __E1NPU_TFLITE_ARTIFACT_H__
#define __E1NPU_TFLITE_ARTIFACT_H__

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <e1npu/e1npu_tflite.h>

#include "tflite_reader.h"

struct ops_conv_choice;		/* lib/ops/conv_choice.h */

#define TFLITE_ART_FORMAT	2u
#define TFLITE_ART_HEADER	128u
#define TFLITE_ART_RECORD	32u
#define TFLITE_ART_PACKED_ENTRY	16u
#define TFLITE_ART_KIND_MODEL	1u
#define TFLITE_ART_KIND_PART	2u
#define TFLITE_ART_KIND_ORT	3u
/* Most layer or arena records a loader accepts (a model has fewer). */
#define TFLITE_ART_MAX_RECORDS	(1u << 20)

struct tflite_art_caps {
	uint32_t engines, wrapper_caps, gemmini_present, array_rows, array_cols;
};

/* A checked artifact: pointers into the caller's buffer. */
struct tflite_art {
	uint32_t kind;
	char lib_version[17];
	uint8_t sha256[32];
	struct tflite_art_caps caps;
	uint32_t nlayers, narena;
	uint64_t arena_bytes;
	const uint8_t *layers, *arena;
	const uint8_t *packed_table, *packed;
	size_t packed_size;
	const uint8_t *model;
	size_t model_size;
};

/* Write the checksum of artifact @buf (@size >= the header; tests, fuzzing). */
void tflite_art_seal(void *buf, size_t size);

/*
 * tflite_art_wrap() - a record-less artifact of @kind for @dev's
 * capabilities holding @payload (@size bytes) as its model section, the
 * SHA-256 field the payload's, sealed, in *@out (free()): the container of
 * the ONNX Runtime EP's EPContext blobs. Return 0, -EINVAL or -ENOMEM.
 */
int tflite_art_wrap(uint32_t kind, struct e1npu_device *dev, const void *payload,
		    size_t size, void **out, size_t *outsize);

/* Does @buf start with the artifact's magic? */
bool tflite_art_is(const void *buf, size_t size);

/* The capabilities of @dev (NULL: all 0, the CPU-only context). */
void tflite_art_caps_of(struct e1npu_device *dev, struct tflite_art_caps *caps);

/*
 * tflite_art_parse() - check @buf (@size bytes) of @kind, made by library
 * version @lib, and point @a into it. Return 0, -EINVAL (malformed,
 * truncated, corrupted) or -ENOTSUP (another format, kind or library
 * version) with the reason in @err.
 */
int tflite_art_parse(const void *buf, size_t size, uint32_t kind, const char *lib,
		     struct tflite_art *a, char *err, size_t errlen);

/* 0, or -ENOTSUP naming the first capability of @a that @dev lacks. */
int tflite_art_check_caps(const struct tflite_art *a, const struct tflite_art_caps *dev,
			  char *err, size_t errlen);

/*
 * tflite_art_choices() - layer @a's lowering forms as an array of
 * a->nlayers (free()), or NULL (-ENOMEM, or a record out of range: @err).
 */
struct ops_conv_choice *tflite_art_choices(const struct tflite_art *a, char *err,
					   size_t errlen);

/*
 * tflite_art_load() - e1npu_tflite_load_memory() of an artifact: checked,
 * refused with the reason (another format or library version, another
 * device), or loaded with its stored lowering forms.
 */
int tflite_art_load(struct e1npu_device *dev, const void *data, size_t size,
		    const struct e1npu_tflite_options *opt, struct e1npu_tflite **tp,
		    char *err, size_t errlen);

/*
 * tflite_part_fingerprint() - SHA-256 identifying operators @ops[0..@n)
 * of @m: their codes, options, tensors (type, shape, quantization) and
 * constant data. The delegate's cache key (with device and library).
 */
int tflite_part_fingerprint(const struct tfl_model *m, const uint32_t *ops, uint32_t n,
			    uint8_t out[32]);

/*
 * tflite_part_compile() - the kind-2 artifact of partition @t, whose
 * fingerprint is @fp, in *@out (free()). Return 0, -EINVAL or -ENOMEM.
 */
int tflite_part_compile(const struct e1npu_tflite *t, const uint8_t fp[32], void **out,
			size_t *outsize);

/* tflite_load.c, tflite_part.c: the load with stored forms (NULL: searched), and partitions'. */
int tflite_load_chosen(struct e1npu_device *dev, const void *data, size_t size,
		       const struct e1npu_tflite_options *opt,
		       const struct ops_conv_choice *choices, uint32_t nchoices,
		       struct e1npu_tflite **tp, char *err, size_t errlen);
int tflite_part_new_chosen(struct e1npu_ops *ctx, const struct tfl_model *m,
			   const uint32_t *ops, uint32_t n,
			   const struct ops_conv_choice *choices,
			   struct e1npu_tflite **tp, char *err, size_t errlen);
/* tflite_api.c: the file @t was loaded from (NULL for a partition), its model, context. */
int tflite_source(const struct e1npu_tflite *t, const void **file, size_t *size,
		  const struct tfl_model **m, struct e1npu_ops **ops);

#endif /* __E1NPU_TFLITE_ARTIFACT_H__ */
