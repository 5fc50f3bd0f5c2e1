/* SPDX-License-Identifier: MIT */
/*
 * A minimal, bounds-checked reader of TensorFlow Lite FlatBuffer models
 * (Documentation/tflite.md): subgraph 0's tensors, operators, opcodes and
 * the builtin options the interpreter needs. Every offset, vtable and
 * vector length is validated against the buffer size at parse time; a
 * malformed file gives -EINVAL (or -ENOTSUP for a valid but unsupported
 * one) and a message naming what is wrong. Nothing is printed.
 *
 * The parsed model points into the caller's buffer (tensor data, names):
 * keep the buffer alive as long as the model.
 */
#ifndef __E1NPU_TFLITE_READER_H__
#define __E1NPU_TFLITE_READER_H__

#include <stddef.h>
#include <stdint.h>

#define TFL_MAX_DIMS	8

/*
 * What a model may hold: far above any real model (MobileNets have ~100
 * tensors and ~30 operators; large models some thousands), low enough that
 * a small file cannot make load allocate gigabytes. A vector of N table
 * offsets costs 4 N bytes of file however large the tables it points at
 * (entries may share one table), so counts alone do not bound memory: the
 * parsed model's structures (tensors, operators, their input and output
 * lists, the buffer and operator-code tables) and the loader's per-tensor
 * and per-layer state are also held to TFL_MEM_PER_FILE_BYTE times the
 * file's size plus TFL_MEM_BASE (tfl_mem_budget()). Each
 * refusal names its limit; tfl_parse() returns -ENOTSUP for them.
 */
#define TFL_MAX_TENSORS		(1u << 16)
#define TFL_MAX_OPERATORS	(1u << 16)
#define TFL_MAX_SUBGRAPHS	(1u << 10)
#define TFL_MAX_BUFFERS		(1u << 17)
#define TFL_MAX_OPCODES		(1u << 12)
#define TFL_MEM_PER_FILE_BYTE	64u
#define TFL_MEM_BASE		((size_t)4 << 20)

/* schema.fbs TensorType (the ones we name). */
enum tfl_type {
	TFL_TYPE_FLOAT32 = 0,
	TFL_TYPE_FLOAT16 = 1,
	TFL_TYPE_INT32 = 2,
	TFL_TYPE_UINT8 = 3,
	TFL_TYPE_INT64 = 4,
	TFL_TYPE_INT16 = 7,
	TFL_TYPE_INT8 = 9,
};

/* schema.fbs BuiltinOperator (the ones we name). */
enum tfl_builtin {
	TFL_OP_ADD = 0,
	TFL_OP_AVERAGE_POOL_2D = 1,
	TFL_OP_CONCATENATION = 2,
	TFL_OP_CONV_2D = 3,
	TFL_OP_DEPTHWISE_CONV_2D = 4,
	TFL_OP_DEQUANTIZE = 6,
	TFL_OP_FULLY_CONNECTED = 9,
	TFL_OP_LOGISTIC = 14,
	TFL_OP_MAX_POOL_2D = 17,
	TFL_OP_MUL = 18,
	TFL_OP_RELU = 19,
	TFL_OP_RELU_N1_TO_1 = 20,
	TFL_OP_RELU6 = 21,
	TFL_OP_RESHAPE = 22,
	TFL_OP_SOFTMAX = 25,
	TFL_OP_PAD = 34,
	TFL_OP_TRANSPOSE = 39,
	TFL_OP_MEAN = 40,
	TFL_OP_SUB = 41,
	TFL_OP_MAXIMUM = 55,
	TFL_OP_MINIMUM = 57,
	TFL_OP_SLICE = 65,
	TFL_OP_RESIZE_NEAREST_NEIGHBOR = 97,
	TFL_OP_SQUEEZE = 43,
	TFL_OP_STRIDED_SLICE = 45,
	TFL_OP_QUANTIZE = 114,
	TFL_OP_HARD_SWISH = 117,
	TFL_OP_L2_NORMALIZATION = 11,
	TFL_OP_TANH = 28,
	TFL_OP_LEAKY_RELU = 98,
	TFL_OP_ABS = 101,
	TFL_OP_RESIZE_BILINEAR = 23,
	TFL_OP_GATHER = 36,
	TFL_OP_BATCH_TO_SPACE_ND = 37,
	TFL_OP_SPACE_TO_BATCH_ND = 38,
	TFL_OP_SPLIT = 49,
	TFL_OP_ARG_MAX = 56,
	TFL_OP_ARG_MIN = 79,
	TFL_OP_PACK = 83,
	TFL_OP_UNPACK = 88,
	TFL_OP_SPLIT_V = 102,
	TFL_OP_DEPTH_TO_SPACE = 5,
	TFL_OP_SPACE_TO_DEPTH = 26,
	TFL_OP_TRANSPOSE_CONV = 67,
	TFL_OP_PRELU = 54,
	TFL_OP_SUM = 74,
	TFL_OP_REDUCE_MAX = 82,
	TFL_OP_REDUCE_MIN = 89,
	TFL_OP_LOG_SOFTMAX = 50,
};

/* schema.fbs BuiltinOptions union members (the ones we read). */
enum tfl_options_type {
	TFL_OPT_NONE = 0,
	TFL_OPT_CONV2D = 1,
	TFL_OPT_DEPTHWISE_CONV2D = 2,
	TFL_OPT_POOL2D = 5,
	TFL_OPT_FULLY_CONNECTED = 8,
	TFL_OPT_SOFTMAX = 9,
	TFL_OPT_CONCATENATION = 10,
	TFL_OPT_ADD = 11,
	TFL_OPT_MUL = 21,
	TFL_OPT_SUB = 28,
	TFL_OPT_RESHAPE = 17,
	TFL_OPT_REDUCER = 27,
	TFL_OPT_STRIDED_SLICE = 32,
	TFL_OPT_L2NORM = 12,
	TFL_OPT_LEAKY_RELU = 75,
	TFL_OPT_RESIZE_BILINEAR = 15,
	TFL_OPT_RESIZE_NEAREST_NEIGHBOR = 74,
	TFL_OPT_GATHER = 23,
	TFL_OPT_SPLIT = 35,
	TFL_OPT_PACK = 59,
	TFL_OPT_UNPACK = 64,
	TFL_OPT_SPLIT_V = 79,
	TFL_OPT_SPACE_TO_DEPTH = 19,
	TFL_OPT_TRANSPOSE_CONV = 49,
	TFL_OPT_DEPTH_TO_SPACE = 94,
};

/* schema.fbs ActivationFunctionType and Padding. */
enum tfl_act {
	TFL_ACT_NONE = 0,
	TFL_ACT_RELU = 1,
	TFL_ACT_RELU_N1_TO_1 = 2,
	TFL_ACT_RELU6 = 3,
	TFL_ACT_TANH = 4,
	TFL_ACT_SIGN_BIT = 5,
};
enum tfl_padding {
	TFL_PAD_SAME = 0,
	TFL_PAD_VALID = 1,
};

struct tfl_tensor {
	const char *name;	/* NUL-terminated inside the buffer, or "" */
	uint32_t type;		/* enum tfl_type */
	uint32_t ndims;
	int32_t dims[TFL_MAX_DIMS];
	uint32_t buffer;	/* index into the model's buffers */
	const uint8_t *data;	/* constant data, or NULL */
	size_t data_size;
	/* Quantization (num_scales == 0: none). */
	uint32_t num_scales;
	const uint8_t *scales;	/* num_scales little-endian floats (unaligned) */
	uint32_t num_zero_points;
	const uint8_t *zero_points; /* little-endian int64 (unaligned) */
	int32_t quantized_dimension;
};

/* Builtin options, decoded with the schema's defaults for absent fields. */
struct tfl_options {
	uint32_t type;		/* enum tfl_options_type, 0 = none */
	int32_t padding;	/* enum tfl_padding */
	int32_t stride_w, stride_h;
	int32_t dilation_w, dilation_h;
	int32_t depth_multiplier;
	int32_t filter_w, filter_h;
	int32_t act;		/* enum tfl_act */
	float beta;		/* softmax */
	int32_t keep_dims;	/* reducer */
	int32_t axis;		/* concatenation */
	int32_t begin_mask, end_mask, ellipsis_mask, new_axis_mask,
		shrink_axis_mask;	/* strided slice */
	uint32_t num_new_shape;	/* reshape */
	int32_t new_shape[TFL_MAX_DIMS];
	int32_t num;		/* split/split_v num_splits, pack values_count, unpack num
				 * (their axis: @axis) */
	int32_t align_corners, half_pixel_centers;	/* resize bilinear, nearest neighbor */
	float alpha;		/* leaky relu */
	int32_t block_size;	/* depth to space, space to depth */
};

struct tfl_operator {
	uint32_t opcode_index;
	int32_t builtin;	/* enum tfl_builtin (max of the two code fields) */
	int32_t version;
	const char *custom_code; /* or NULL */
	uint32_t num_inputs, num_outputs;
	int32_t *inputs;	/* tensor indices (-1 = optional absent) */
	int32_t *outputs;
	struct tfl_options opt;
};

struct tfl_model {
	uint32_t version;
	const char *description;
	uint32_t num_opcodes;
	uint32_t num_buffers;
	uint32_t num_subgraphs;
	uint32_t num_tensors;
	struct tfl_tensor *tensors;
	uint32_t num_inputs, num_outputs;
	int32_t *inputs, *outputs;
	uint32_t num_operators;
	struct tfl_operator *operators;
	size_t mem;		/* bytes of the structures above (the budget's) */
	/* not from the file: the TFLite release whose arithmetic the
	 * interpreter follows, enum e1npu_tflite_ref (0: 2.2) */
	uint32_t ref;
	/* with ref 2.14: its 8-bit GEMMs as ruy's portable kernel computes
	 * them (one rounding; TFLite built for riscv64), not as ruy's x86-64
	 * kernels do (tfl_ruy_flavour) */
	uint32_t ruy_single;
};

/*
 * tfl_ruy_flavour() - how TFLite 2.14's ruy GEMMs round where libe1npu
 * runs: *single = 1 for ruy's portable C++ kernel (every 8-bit CONV_2D
 * and FULLY_CONNECTED of TFLite built for riscv64, measured), 0 for its
 * x86-64 kernels (measured). The environment variable E1NPU_TFLITE_RUY
 * ("x86-64" or "portable") overrides the build's architecture; another
 * value is -EINVAL with the message in @err.
 */
int tfl_ruy_flavour(uint32_t *single, char *err, size_t errlen);

/* The memory a model of @file_size bytes may take once parsed and loaded:
 * TFL_MEM_PER_FILE_BYTE x @file_size + TFL_MEM_BASE (saturating). */
size_t tfl_mem_budget(size_t file_size);

/**
 * tfl_parse() - parse @size bytes at @buf into @m (zeroed by the call).
 * @err: message buffer of @errlen bytes (may be NULL), e.g.
 *	"tensor 12: shape vector at 0x1234 (len 4) past end of file (4100 bytes)".
 * Return: 0, -EINVAL (malformed), -ENOTSUP (valid but not handled, e.g.
 *	more than TFL_MAX_DIMS dimensions), -ENOMEM.
 */
int tfl_parse(const void *buf, size_t size, struct tfl_model *m, char *err,
	      size_t errlen);
void tfl_model_free(struct tfl_model *m);

/*
 * Every builtin of the schema by name, supported or not ("CONV_2D", ...,
 * tflite_opnames.c); "UNKNOWN" past the last code it knows.
 */
const char *tfl_builtin_name(int32_t code);
/* How many codes tfl_builtin_name names (0 .. count - 1). */
int32_t tfl_builtin_count(void);
/* "uint8", ...; "unknown". */
const char *tfl_type_name(uint32_t type);

/* Element size of a type (0 for unknown). */
size_t tfl_type_size(uint32_t type);

/* Little-endian accessors for the unaligned quantization arrays. */
float tfl_scale(const struct tfl_tensor *t, uint32_t i);
int64_t tfl_zero_point(const struct tfl_tensor *t, uint32_t i);

/* Number of elements (product of dims; 1 for a scalar); 0 on overflow. */
size_t tfl_tensor_count(const struct tfl_tensor *t);

#endif /* __E1NPU_TFLITE_READER_H__ */
