/* SPDX-License-Identifier: MIT */
/*
 * libe1npu TFLite interpreter: loads a quantized TensorFlow Lite model
 * (uint8 or int8 activations, subgraph 0; float32 model inputs and outputs
 * through QUANTIZE / DEQUANTIZE) with the library's own FlatBuffer reader and
 * runs it layer by layer on the lowering layer (include/e1npu/e1npu_ops.h),
 * or on the naive CPU reference kernels. Documentation/tflite.md.
 *
 * Conventions are those of e1npu.h: opaque handle, 0 or a negative errno,
 * never prints; e1npu_tflite_last_error() (or the @err buffer of the load
 * functions) holds the message of the last failure. One thread at a time
 * per interpreter.
 */
#ifndef __E1NPU_PUBLIC_TFLITE_H__
#define __E1NPU_PUBLIC_TFLITE_H__

#include <stddef.h>
#include <stdint.h>

#include <e1npu/e1npu.h>
#include <e1npu/e1npu_ops.h>

#ifdef __cplusplus
extern "C" {
#endif

struct e1npu_tflite;

/**
 * enum e1npu_tflite_path - which implementation runs the layers.
 * @E1NPU_TFLITE_PATH_NPU: the lowering layer (e1npu_ops) on @dev; with
 *	@dev == NULL its CPU-only context (the same tiled plans on the CPU).
 * @E1NPU_TFLITE_PATH_REFERENCE: the library's naive CPU reference kernels
 *	(straight loops from the TFLite reference definitions, no tiling, no
 *	zero-point folding); @dev is ignored. Slow; for cross-checks.
 */
enum e1npu_tflite_path {
	E1NPU_TFLITE_PATH_NPU = 0,
	E1NPU_TFLITE_PATH_REFERENCE = 1,
};

/**
 * enum e1npu_tflite_ref - which TFLite release's arithmetic the layers
 * reproduce byte for byte (Documentation/tflite.md, "TFLite 2.2 and 2.14").
 * @E1NPU_TFLITE_REF_DEFAULT: the environment variable E1NPU_TFLITE_REF
 *	("2.2" or "2.14"; another value fails the load, naming it), else 2.2.
 * @E1NPU_TFLITE_REF_2_2: TFLite 2.2's built-in kernels.
 * @E1NPU_TFLITE_REF_2_14: TFLite 2.14's built-in kernels (ruy GEMMs for
 *	1x1 CONV_2D and FULLY_CONNECTED, ...).
 */
enum e1npu_tflite_ref {
	E1NPU_TFLITE_REF_DEFAULT = 0,
	E1NPU_TFLITE_REF_2_2 = 1,
	E1NPU_TFLITE_REF_2_14 = 2,
};

struct e1npu_tflite_options {
	uint32_t path;		/* enum e1npu_tflite_path */
	uint32_t ref;		/* enum e1npu_tflite_ref */
	uint32_t reserved[6];	/* zero */
};

/**
 * e1npu_tflite_load_memory() - parse and prepare a model held in memory
 * (copied; the caller's buffer may be freed afterwards): a .tflite file,
 * or an artifact of e1npu_tflite_compile() (told apart by its magic).
 * Weights are converted once here (conv OHWI -> HWIO, requantization
 * multipliers).
 * @dev: device for the NPU path, or NULL (CPU-only lowering context).
 * @opt: NULL for the defaults (NPU path).
 * @tp: out: the interpreter, owned by the caller, to free with
 *	e1npu_tflite_free(). On the NPU path it holds a lowering context on
 *	@dev, which holds @dev open: @dev may be closed first.
 * @err: NULL or a buffer of @errlen bytes for the failure message, e.g.
 *	"operator 3 (MUL): operator not supported".
 * Return: 0, -EINVAL (malformed or inconsistent model or artifact),
 *	-ENOTSUP (an operator or tensor type this interpreter does not run;
 *	an artifact of another format or library version, or for a device
 *	with other capabilities), -ENOMEM, or an error of the lowering layer.
 */
int e1npu_tflite_load_memory(struct e1npu_device *dev, const void *data,
			     size_t size,
			     const struct e1npu_tflite_options *opt,
			     struct e1npu_tflite **tp, char *err,
			     size_t errlen);

/* e1npu_tflite_load_file() - as load_memory, from a file (-errno of open/read). */
int e1npu_tflite_load_file(struct e1npu_device *dev, const char *path,
			   const struct e1npu_tflite_options *opt,
			   struct e1npu_tflite **tp, char *err, size_t errlen);

/**
 * e1npu_tflite_compile() - the compiled-model artifact of @t: what loading
 * its model computed (each convolution's lowering form, the arena plan,
 * every operator's placement, reason, MACs and modelled cycles), the
 * model itself, the library version, the model's SHA-256 and the
 * capabilities of @t's device. Loading it with e1npu_tflite_load_memory()
 * or _load_file() (which tell it from a .tflite by its magic) skips the
 * lowering search, and refuses, with the reason in @err, another format
 * or library version, a device whose capabilities differ, or a corrupted
 * file. Documentation/tflite.md describes the format.
 * @t: a whole-model interpreter on the NPU path (not a reference path one).
 * @out: out: the artifact, @outsize bytes, to free with free().
 * @err: NULL or a buffer of @errlen bytes for the failure message.
 * Return: 0, -EINVAL or -ENOMEM.
 */
int e1npu_tflite_compile(const struct e1npu_tflite *t, void **out, size_t *outsize,
			 char *err, size_t errlen);

/* e1npu_tflite_free() - free an interpreter and what it holds (NULL: no-op). */
void e1npu_tflite_free(struct e1npu_tflite *t);

/*
 * Message of the last failure on @t ("" if none): owned by @t, valid until
 * the next call on @t.
 */
const char *e1npu_tflite_last_error(const struct e1npu_tflite *t);

/**
 * struct e1npu_tflite_tensor_info - a model input or output.
 * @dtype: enum e1npu_dtype: E1NPU_DTYPE_UINT8, E1NPU_DTYPE_INT8 or
 *	E1NPU_DTYPE_FLOAT32 (host-order IEEE single floats, 4 bytes each) for
 *	inputs and outputs; E1NPU_DTYPE_INT32 or E1NPU_DTYPE_INT64 (outputs
 *	only, e.g. ARG_MAX's indices: host-order integers, @scale 0). A model
 *	with another input or output type is refused at load.
 * @dims: @ndims dimensions (at most 8).
 * @bytes: size of the tensor's data (element count x 1, or x 4 for float32).
 * @scale, @zero_point: its (per-tensor) quantization; 0, 0 for a float32
 *	tensor without one.
 */
struct e1npu_tflite_tensor_info {
	char name[64];
	uint32_t dtype;
	uint32_t ndims;
	uint32_t dims[8];
	size_t bytes;
	float scale;
	int32_t zero_point;
	uint32_t reserved[8];
};

/* Counts of model inputs, outputs and layers (operators). Any may be NULL. */
int e1npu_tflite_get_counts(const struct e1npu_tflite *t, uint32_t *inputs,
			    uint32_t *outputs, uint32_t *layers);
int e1npu_tflite_input_info(const struct e1npu_tflite *t, uint32_t index,
			    struct e1npu_tflite_tensor_info *info);
int e1npu_tflite_output_info(const struct e1npu_tflite *t, uint32_t index,
			     struct e1npu_tflite_tensor_info *info);

/*
 * Copy @size bytes (must equal the tensor's size, info.bytes) into input
 * @index: stored values of its dtype (float32: floats, not quantized).
 */
int e1npu_tflite_set_input(struct e1npu_tflite *t, uint32_t index,
			   const void *data, size_t size);

/* Run every layer once. Return: 0, or the failing layer's error. */
int e1npu_tflite_invoke(struct e1npu_tflite *t);

/*
 * Copy output @index out: @size must equal info.bytes (e.g. 4 bytes per
 * float32 element, 8 per int64 element).
 */
int e1npu_tflite_get_output(const struct e1npu_tflite *t, uint32_t index,
			    void *data, size_t size);

/**
 * struct e1npu_tflite_layer - one layer of the last invoke.
 * @builtin: TFLite BuiltinOperator code; @op its name ("CONV_2D").
 * @shape: "HxWxC->HxWxC" (input -> output).
 * @report: the lowering layer's report (engine, reason, why, hardware
 *	operations, MACs, modelled cycles); layers run by the interpreter
 *	itself (RESHAPE, QUANTIZE, MEAN) and the reference path report
 *	engine cpu with the reason in @report.why.
 * @wall_ns: host wall time of the layer.
 */
struct e1npu_tflite_layer {
	uint32_t index;
	int32_t builtin;
	char op[24];
	char shape[64];
	struct e1npu_ops_report report;
	uint64_t wall_ns;
	uint32_t reserved[8];
};

int e1npu_tflite_get_layer(const struct e1npu_tflite *t, uint32_t index,
			   struct e1npu_tflite_layer *layer);

/**
 * enum e1npu_tflite_role - why a tensor is in the arena (flags).
 * @E1NPU_TFLITE_ROLE_INPUT: a model input (live for the whole invoke, so
 *	set_input's data survives repeated invokes).
 * @E1NPU_TFLITE_ROLE_OUTPUT: a model output (live from the layer that
 *	writes it to the end).
 * @E1NPU_TFLITE_ROLE_INTERMEDIATE: written by one layer, read by later ones.
 */
enum e1npu_tflite_role {
	E1NPU_TFLITE_ROLE_INPUT = 1,
	E1NPU_TFLITE_ROLE_OUTPUT = 2,
	E1NPU_TFLITE_ROLE_INTERMEDIATE = 4,
};

/**
 * struct e1npu_tflite_arena - the tensor arena plan of an interpreter.
 * Every activation tensor (non-constant, read or written by a layer, or a
 * model input/output) lives at an offset in one arena; tensors whose
 * lifetimes (in layers) overlap never overlap in memory.
 * @total_bytes: the arena's size (the planned peak).
 * @lower_bound: the largest sum of the sizes of tensors live at one layer:
 *	no plan can be smaller.
 * @unplanned_bytes: the sum of all their sizes (one buffer per tensor).
 * @alignment: every offset is a multiple of it.
 * @num_tensors: entries for e1npu_tflite_get_arena_tensor().
 */
struct e1npu_tflite_arena {
	uint64_t total_bytes;
	uint64_t lower_bound;
	uint64_t unplanned_bytes;
	uint32_t alignment;
	uint32_t num_tensors;
	uint32_t reserved[8];
};

/**
 * struct e1npu_tflite_arena_tensor - one tensor of the arena plan.
 * @tensor: its index in the model's subgraph 0; @name its name.
 * @role: enum e1npu_tflite_role flags.
 * @dtype: enum e1npu_dtype (0 if it has none); @type_name the TFLite type
 *	("uint8"), which is also the storage type: the arena holds tensors
 *	as TFLite lays them out.
 * @dims: @ndims dimensions (at most 8).
 * @offset, @bytes: where it lives in the arena and its size.
 * @first_layer, @last_layer: the layers (inclusive) during which it holds
 *	data.
 */
struct e1npu_tflite_arena_tensor {
	int32_t tensor;
	uint32_t role;
	char name[64];
	uint32_t dtype;
	char type_name[12];
	uint32_t ndims;
	uint32_t dims[8];
	uint64_t offset;
	uint64_t bytes;
	uint32_t first_layer;
	uint32_t last_layer;
	uint32_t reserved[8];
};

/* The arena plan (fixed at load). Return 0 or -EINVAL. */
int e1npu_tflite_get_arena(const struct e1npu_tflite *t,
			   struct e1npu_tflite_arena *arena);

/* Arena entry @index (< num_tensors; ordered by tensor index). */
int e1npu_tflite_get_arena_tensor(const struct e1npu_tflite *t, uint32_t index,
				  struct e1npu_tflite_arena_tensor *entry);

#ifdef __cplusplus
}
#endif

#endif /* __E1NPU_PUBLIC_TFLITE_H__ */
