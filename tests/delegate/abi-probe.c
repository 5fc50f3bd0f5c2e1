// SPDX-License-Identifier: MIT
/*
 * Print the offsets and sizes (LP64) of the TFLite C structure fields the
 * e1npu delegate relies on, from a TFLite common.h: the source of the
 * numbers in abi-layout.c. Not built by make (it needs a TFLite header
 * tree). Usage, against a tree holding tensorflow/lite/{,core/}c/*.h:
 *
 *   cc -std=c11 -w -I TREE tests/delegate/abi-probe.c -o probe && ./probe
 *
 * (TFLite's common.h of 2024-12 .. 2025-04 only compiles as C++ or C23:
 * g++ -x c++ -w -I TREE ...). Documentation/tflite.md, "Newer TFLite".
 */
#include <stddef.h>
#include <stdio.h>
#if __has_include("tensorflow/lite/core/c/common.h")
#include "tensorflow/lite/core/c/common.h"
#else
#include "tensorflow/lite/c/common.h"
#endif
#define O(T, f) printf(#T "." #f "=%zu\n", offsetof(T, f))
#define S(T) printf("sizeof(" #T ")=%zu\n", sizeof(T))
int main(void)
{
	O(TfLiteTensor, type); O(TfLiteTensor, data); O(TfLiteTensor, dims);
	O(TfLiteTensor, params.scale); O(TfLiteTensor, params.zero_point);
	O(TfLiteTensor, allocation_type); O(TfLiteTensor, bytes); O(TfLiteTensor, allocation);
	O(TfLiteTensor, name); O(TfLiteTensor, delegate); O(TfLiteTensor, buffer_handle);
	O(TfLiteTensor, data_is_stale); O(TfLiteTensor, is_variable);
	O(TfLiteTensor, quantization.type); O(TfLiteTensor, quantization.params);
	O(TfLiteTensor, sparsity); O(TfLiteTensor, dims_signature); S(TfLiteTensor);
	O(TfLiteAffineQuantization, scale); O(TfLiteAffineQuantization, zero_point);
	O(TfLiteAffineQuantization, quantized_dimension);
	O(TfLiteIntArray, data); O(TfLiteFloatArray, data);
	O(TfLiteNode, inputs); O(TfLiteNode, outputs); O(TfLiteNode, intermediates);
	O(TfLiteNode, temporaries); O(TfLiteNode, user_data); O(TfLiteNode, builtin_data);
	O(TfLiteNode, custom_initial_data); O(TfLiteNode, custom_initial_data_size);
	O(TfLiteNode, delegate); S(TfLiteNode);
	O(TfLiteDelegateParams, delegate); O(TfLiteDelegateParams, nodes_to_replace);
	O(TfLiteDelegateParams, input_tensors); O(TfLiteDelegateParams, output_tensors);
	O(TfLiteContext, tensors_size); O(TfLiteContext, GetExecutionPlan); O(TfLiteContext, tensors);
	O(TfLiteContext, impl_); O(TfLiteContext, ResizeTensor); O(TfLiteContext, ReportError);
	O(TfLiteContext, AddTensors); O(TfLiteContext, GetNodeAndRegistration);
	O(TfLiteContext, ReplaceNodeSubsetsWithDelegateKernels);
	O(TfLiteContext, PreviewDelegatePartitioning); S(TfLiteContext);
	O(TfLiteRegistration, init); O(TfLiteRegistration, free); O(TfLiteRegistration, prepare);
	O(TfLiteRegistration, invoke); O(TfLiteRegistration, profiling_string);
	O(TfLiteRegistration, builtin_code); O(TfLiteRegistration, custom_name);
	O(TfLiteRegistration, version); S(TfLiteRegistration);
	O(TfLiteDelegate, data_); O(TfLiteDelegate, Prepare); O(TfLiteDelegate, CopyFromBufferHandle);
	O(TfLiteDelegate, CopyToBufferHandle); O(TfLiteDelegate, FreeBufferHandle);
	O(TfLiteDelegate, flags); S(TfLiteDelegate);
	printf("kTfLiteUInt8=%d\nkTfLiteInt8=%d\nkTfLiteMmapRo=%d\nkTfLiteAffineQuantization=%d\n",
	       kTfLiteUInt8, kTfLiteInt8, kTfLiteMmapRo, kTfLiteAffineQuantization);
	return 0;
}
