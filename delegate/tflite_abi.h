/* SPDX-License-Identifier: MIT */
/*
 * The parts of TensorFlow Lite's C ABI the e1npu delegate touches,
 * declared here (our own text) so the delegate builds without TFLite's
 * headers. Only fields whose position has not changed from TFLite 2.2
 * (tensorflow/lite/c/common.h, builtin_op_data.h) through the 2.x
 * releases are named; what a newer release appends after them is either
 * never read (context, node, tensor: we only follow pointers TFLite gives
 * us) or zero-filled by us (structures we create: delegate, registration).
 * Documentation/tflite.md, "The delegate".
 */
#ifndef __E1NPU_TFLITE_ABI_H__
#define __E1NPU_TFLITE_ABI_H__

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef int tfl_status;			/* TfLiteStatus */
#define TFL_OK		0
#define TFL_ERROR	1

/* TfLiteType values (stable, new ones are appended). */
enum {
	TFLC_FLOAT32 = 1, TFLC_INT32 = 2, TFLC_UINT8 = 3, TFLC_INT64 = 4,
	TFLC_STRING = 5, TFLC_BOOL = 6, TFLC_INT16 = 7, TFLC_COMPLEX64 = 8,
	TFLC_INT8 = 9, TFLC_FLOAT16 = 10,
};

/*
 * TfLiteAllocationType: constant data mapped from the model file; a tensor
 * (re)allocated while the graph runs, whose shape is known only then.
 */
#define TFLC_MMAP_RO		1
#define TFLC_DYNAMIC		4
/* TfLiteDelegateFlags: the delegate copes with a graph that has dynamic
 * tensors (it never takes their nodes); in 2.2's common.h already. */
#define TFLC_DELEGATE_ALLOW_DYNAMIC	1
/* TfLiteQuantizationType: TfLiteAffineQuantization in params. */
#define TFLC_AFFINE_QUANT	1
/* BuiltinOperator: CUSTOM and DELEGATE (the code of a delegate kernel). */
#define TFLC_BUILTIN_CUSTOM	32
#define TFLC_BUILTIN_DELEGATE	51

/* TfLiteIntArray / TfLiteFloatArray: a count then the values. */
struct tflc_int_array {
	int size;
	int data[];
};

struct tflc_float_array {
	int size;
	float data[];
};

/* TfLiteAffineQuantization */
struct tflc_affine_quant {
	struct tflc_float_array *scale;
	struct tflc_int_array *zero_point;
	int32_t quantized_dimension;
};

/*
 * TfLiteTensor. Indexed as an array (context->tensors), so its size must
 * match: these are all of its fields in 2.2 and in later 2.x releases.
 */
struct tflc_tensor {
	int type;			/* TfLiteType */
	void *data;			/* TfLitePtrUnion */
	struct tflc_int_array *dims;
	float params_scale;		/* TfLiteQuantizationParams */
	int32_t params_zero_point;
	int allocation_type;		/* TfLiteAllocationType */
	size_t bytes;
	const void *allocation;
	const char *name;
	void *delegate;
	int buffer_handle;
	bool data_is_stale;
	bool is_variable;
	int quantization_type;		/* TfLiteQuantization */
	void *quantization_params;
	void *sparsity;
	const struct tflc_int_array *dims_signature;
};

/* TfLiteNode: the leading fields (later releases append). */
struct tflc_node {
	struct tflc_int_array *inputs;
	struct tflc_int_array *outputs;
	struct tflc_int_array *intermediates;
	struct tflc_int_array *temporaries;
	void *user_data;
	void *builtin_data;
	const void *custom_initial_data;
	int custom_initial_data_size;
	void *delegate;
};

struct tflc_context;
struct tflc_delegate;

/*
 * TfLiteRegistration. Passed BY VALUE to
 * ReplaceNodeSubsetsWithDelegateKernels, so we declare room for what
 * later releases appended (registration_external, async_kernel,
 * inplace_operator) and keep it zero, which is their "absent" value. The
 * structure is larger than 16 bytes: x86-64 passes it in memory and
 * AArch64/RISC-V by reference, so an older callee reading fewer bytes is
 * unaffected.
 */
struct tflc_registration {
	void *(*init)(struct tflc_context *ctx, const char *buffer, size_t length);
	void (*free)(struct tflc_context *ctx, void *buffer);
	tfl_status (*prepare)(struct tflc_context *ctx, struct tflc_node *node);
	tfl_status (*invoke)(struct tflc_context *ctx, struct tflc_node *node);
	const char *(*profiling_string)(const struct tflc_context *ctx,
					const struct tflc_node *node);
	int32_t builtin_code;
	const char *custom_name;
	int version;
	void *appended[6];		/* later releases' fields: zero */
};

/* TfLiteDelegateParams: what init() receives for a delegate kernel. */
struct tflc_delegate_params {
	struct tflc_delegate *delegate;
	struct tflc_int_array *nodes_to_replace;
	struct tflc_int_array *input_tensors;
	struct tflc_int_array *output_tensors;
};

/*
 * TfLiteContext: the leading fields, unchanged since TFLite 1.x. Later
 * fields moved between releases (AllocateBufferForEval went away in 2.3,
 * shifting PreviewDelegatePartitioning), so none of them is declared.
 */
struct tflc_context {
	size_t tensors_size;
	tfl_status (*GetExecutionPlan)(struct tflc_context *ctx,
				       struct tflc_int_array **plan);
	struct tflc_tensor *tensors;
	void *impl_;
	tfl_status (*ResizeTensor)(struct tflc_context *ctx, struct tflc_tensor *t,
				   struct tflc_int_array *new_size);
	void (*ReportError)(struct tflc_context *ctx, const char *fmt, ...);
	tfl_status (*AddTensors)(struct tflc_context *ctx, int n, int *first);
	tfl_status (*GetNodeAndRegistration)(struct tflc_context *ctx, int node_index,
					     struct tflc_node **node,
					     struct tflc_registration **reg);
	tfl_status (*ReplaceNodeSubsetsWithDelegateKernels)(
		struct tflc_context *ctx, struct tflc_registration reg,
		const struct tflc_int_array *nodes, struct tflc_delegate *delegate);
};

/*
 * TfLiteDelegate: allocated by us. opaque_delegate_builder (appended in
 * 2.13) must be NULL for newer releases to call Prepare.
 */
struct tflc_delegate {
	void *data_;
	tfl_status (*Prepare)(struct tflc_context *ctx, struct tflc_delegate *d);
	void *CopyFromBufferHandle;
	void *CopyToBufferHandle;
	void *FreeBufferHandle;
	int64_t flags;
	void *opaque_delegate_builder;
};

/* builtin_op_data.h: TfLitePadding and the options we read (leading fields). */
enum { TFLC_PAD_UNKNOWN = 0, TFLC_PAD_SAME = 1, TFLC_PAD_VALID = 2 };

struct tflc_conv_params {		/* TfLiteConvParams */
	int padding, stride_width, stride_height, activation;
	int dilation_width_factor, dilation_height_factor;
};

struct tflc_depthwise_params {		/* TfLiteDepthwiseConvParams */
	int padding, stride_width, stride_height, depth_multiplier, activation;
	int dilation_width_factor, dilation_height_factor;
};

struct tflc_pool_params {		/* TfLitePoolParams */
	int padding, stride_width, stride_height, filter_width, filter_height;
	int activation;
};

struct tflc_act_params {		/* TfLiteAdd/Mul/SubParams, TfLiteFullyConnectedParams */
	int activation;
};

struct tflc_concat_params {		/* TfLiteConcatenationParams */
	int axis;
	int activation;
};

struct tflc_strided_slice_params {	/* TfLiteStridedSliceParams (leading fields) */
	int begin_mask, end_mask, ellipsis_mask, new_axis_mask, shrink_axis_mask;
};

struct tflc_softmax_params {		/* TfLiteSoftmaxParams */
	float beta;
};

struct tflc_leaky_relu_params {		/* TfLiteLeakyReluParams */
	float alpha;
};

struct tflc_reducer_params {		/* TfLiteReducerParams */
	bool keep_dims;
};

struct tflc_gather_params {		/* TfLiteGatherParams (leading field) */
	int axis;
};

struct tflc_split_params {		/* TfLiteSplitParams, TfLiteSplitVParams */
	int num_splits;
};

struct tflc_pack_params {		/* TfLitePackParams, TfLiteUnpackParams */
	int num, axis;
};

struct tflc_resize_bilinear_params {	/* TfLiteResizeBilinearParams */
	bool align_corners, half_pixel_centers;
};

/*
 * TfLiteResizeNearestNeighborParams: align_corners alone in 2.2 (1 byte,
 * allocated so), half_pixel_centers after it in later releases.
 */
struct tflc_resize_nn_params {
	bool align_corners, half_pixel_centers;
};

struct tflc_block_params {		/* TfLiteDepthToSpaceParams, TfLiteSpaceToDepthParams */
	int block_size;
};

struct tflc_transpose_conv_params {	/* TfLiteTransposeConvParams */
	int padding, stride_width, stride_height;
};

#endif /* __E1NPU_TFLITE_ABI_H__ */
