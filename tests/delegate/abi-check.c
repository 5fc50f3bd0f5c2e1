// SPDX-License-Identifier: MIT
/*
 * delegate/tflite_abi.h (our declarations) against TFLite 2.2's own
 * tensorflow/lite/c/common.h (fetch-tflite.sh): every field the delegate
 * declares at the same offset, and the structures TFLite indexes or reads
 * at least as large as TFLite's (offsets and sizes in bytes; "<=" lines
 * print 1 for true). Built and run by check-delegate.
 */
#include <stddef.h>
#include <stdio.h>

#include "tensorflow/lite/c/common.h"
#include "tflite_abi.h"

static int npass, nfail;

static void same(const char *what, size_t ours, size_t theirs)
{
	int ok = ours == theirs;

	printf("  %s  abi: %s: ours %zu, TFLite 2.2 %zu\n", ok ? "PASS" : "FAIL", what, ours, theirs);
	ok ? npass++ : nfail++;
}

#define OFF(ours, theirs, f1, f2) \
	same(#theirs "." #f2, offsetof(struct ours, f1), offsetof(theirs, f2))

int main(void)
{
	OFF(tflc_tensor, TfLiteTensor, type, type);
	OFF(tflc_tensor, TfLiteTensor, data, data);
	OFF(tflc_tensor, TfLiteTensor, dims, dims);
	OFF(tflc_tensor, TfLiteTensor, params_scale, params.scale);
	OFF(tflc_tensor, TfLiteTensor, params_zero_point, params.zero_point);
	OFF(tflc_tensor, TfLiteTensor, allocation_type, allocation_type);
	OFF(tflc_tensor, TfLiteTensor, bytes, bytes);
	OFF(tflc_tensor, TfLiteTensor, name, name);
	OFF(tflc_tensor, TfLiteTensor, quantization_type, quantization.type);
	OFF(tflc_tensor, TfLiteTensor, quantization_params, quantization.params);
	same("sizeof(TfLiteTensor)", sizeof(struct tflc_tensor), sizeof(TfLiteTensor));
	OFF(tflc_affine_quant, TfLiteAffineQuantization, scale, scale);
	OFF(tflc_affine_quant, TfLiteAffineQuantization, zero_point, zero_point);
	OFF(tflc_affine_quant, TfLiteAffineQuantization, quantized_dimension, quantized_dimension);
	OFF(tflc_int_array, TfLiteIntArray, data, data);
	OFF(tflc_float_array, TfLiteFloatArray, data, data);
	OFF(tflc_node, TfLiteNode, inputs, inputs);
	OFF(tflc_node, TfLiteNode, outputs, outputs);
	OFF(tflc_node, TfLiteNode, user_data, user_data);
	OFF(tflc_node, TfLiteNode, builtin_data, builtin_data);
	OFF(tflc_node, TfLiteNode, delegate, delegate);
	OFF(tflc_delegate_params, TfLiteDelegateParams, nodes_to_replace, nodes_to_replace);
	OFF(tflc_delegate_params, TfLiteDelegateParams, input_tensors, input_tensors);
	OFF(tflc_delegate_params, TfLiteDelegateParams, output_tensors, output_tensors);
	OFF(tflc_context, TfLiteContext, tensors_size, tensors_size);
	OFF(tflc_context, TfLiteContext, GetExecutionPlan, GetExecutionPlan);
	OFF(tflc_context, TfLiteContext, tensors, tensors);
	OFF(tflc_context, TfLiteContext, ReportError, ReportError);
	OFF(tflc_context, TfLiteContext, GetNodeAndRegistration, GetNodeAndRegistration);
	OFF(tflc_context, TfLiteContext, ReplaceNodeSubsetsWithDelegateKernels,
	    ReplaceNodeSubsetsWithDelegateKernels);
	OFF(tflc_registration, TfLiteRegistration, init, init);
	OFF(tflc_registration, TfLiteRegistration, free, free);
	OFF(tflc_registration, TfLiteRegistration, prepare, prepare);
	OFF(tflc_registration, TfLiteRegistration, invoke, invoke);
	OFF(tflc_registration, TfLiteRegistration, builtin_code, builtin_code);
	OFF(tflc_registration, TfLiteRegistration, custom_name, custom_name);
	OFF(tflc_registration, TfLiteRegistration, version, version);
	same("sizeof(TfLiteRegistration) <= ours", sizeof(TfLiteRegistration) <=
	     sizeof(struct tflc_registration) ? 1 : 0, 1);
	OFF(tflc_delegate, TfLiteDelegate, data_, data_);
	OFF(tflc_delegate, TfLiteDelegate, Prepare, Prepare);
	OFF(tflc_delegate, TfLiteDelegate, flags, flags);
	same("sizeof(TfLiteDelegate) <= ours", sizeof(TfLiteDelegate) <=
	     sizeof(struct tflc_delegate) ? 1 : 0, 1);
	same("kTfLiteUInt8", TFLC_UINT8, kTfLiteUInt8);
	same("kTfLiteInt8", TFLC_INT8, kTfLiteInt8);
	same("kTfLiteFloat32", TFLC_FLOAT32, kTfLiteFloat32);
	same("kTfLiteMmapRo", TFLC_MMAP_RO, kTfLiteMmapRo);
	same("kTfLiteDynamic", TFLC_DYNAMIC, kTfLiteDynamic);
	same("kTfLiteDelegateFlagsAllowDynamicTensors", TFLC_DELEGATE_ALLOW_DYNAMIC,
	     kTfLiteDelegateFlagsAllowDynamicTensors);
	same("kTfLiteAffineQuantization", TFLC_AFFINE_QUANT, kTfLiteAffineQuantization);
	printf("%d passed, %d failed\n", npass, nfail);
	return nfail ? 1 : 0;
}
