// SPDX-License-Identifier: MIT
/*
 * delegate/tflite_abi.h (our hand-written declarations of TFLite's C
 * structures) against the layout of TFLite 2.2's tensorflow/lite/c/common.h
 * on LP64 (x86-64, AArch64, RISC-V 64), as numbers: no TFLite header is
 * needed, so this runs everywhere (check-delegate; abi-check.c does the
 * same against the fetched 2.2 header itself). The expected values were
 * printed by tests/delegate/abi-probe.c compiled against 2.2's header.
 *
 * Later releases (abi-probe.c compiled against every version of
 * common.h in tensorflow/tflite-micro's history, which syncs TFLite's
 * tensorflow/lite/{,core/}c/common.h from TensorFlow: 65 versions,
 * 2021-04-09 .. 2026-07-01; TF release by date, approximate):
 *
 *   TF master    ~release  change (LP64 bytes)                     delegate
 *   2.2 (npm)    2.2       the layout below                         reference
 *   2021-04-09   2.5       TfLiteContext 160 -> 176 (appended)      unaffected
 *   2021-04-21   2.5/2.6   TfLiteNode 72 -> 80: might_have_side_effect
 *                          appended                                 unaffected (reads leading fields)
 *   2021-07-24   2.6/2.7   TfLiteContext -> 184: GetModelMetadata   unaffected
 *   2022-04-26   2.9/2.10  TfLiteRegistration 64 -> 72:
 *                          registration_external appended           ours is 112 bytes, zero: absent
 *   2022-09-10   2.11      TfLiteDelegate 48 -> 56:
 *                          opaque_delegate_builder appended         ours has it, NULL: Prepare used
 *   2023-03-11   2.13      TfLiteRegistration -> 80: async_kernel   zero: absent
 *   2023-06-14   2.14      TfLiteContext -> 200: Acquire/Release-
 *                          SubgraphContext appended                 unaffected
 *   2023-06-30   2.14      TfLiteRegistration -> 88:
 *                          inplace_operator                          zero: kTfLiteInplaceOpNone
 *   2024-12 .. 2025-04     common.h declares "enum TfLiteQuantizationType : int"
 *                          (C++/C23 only): a C11 file cannot include that
 *                          header; layout unchanged                 unaffected (no TFLite header used)
 *   2025-04-21 .. 2026-07-01  layout as in 2023-06-30
 *
 * In every version: each field offset checked below is unchanged,
 * TfLiteTensor stays 112 bytes (indexed as an array: its size matters),
 * TfLiteContext.PreviewDelegatePartitioning stays at 152 and
 * AllocateBufferForEval is still declared (it did not go away in 2.3), and
 * the enum values are unchanged. TFLite 2.3 and 2.4 (before tflite-micro's
 * first copy) were not seen; their neighbours on both sides agree.
 * So the delegate's declarations hold from 2.2 to 2026's TFLite; the
 * appended TfLiteRegistration/TfLiteDelegate fields are zero in ours.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tflite_abi.h"

static int npass, nfail;

static void eq(const char *what, size_t ours, size_t tfl)
{
	int ok = ours == tfl;

	printf("  %s  abi-layout: %s: ours %zu, TFLite 2.2 %zu\n", ok ? "PASS" : "FAIL", what,
	       ours, tfl);
	ok ? npass++ : nfail++;
}

static void ge(const char *what, size_t ours, size_t tfl, const char *which)
{
	int ok = ours >= tfl;

	printf("  %s  abi-layout: %s: ours %zu >= %s %zu\n", ok ? "PASS" : "FAIL", what, ours,
	       which, tfl);
	ok ? npass++ : nfail++;
}

#define OFF(s, f, v) eq(#s "." #f, offsetof(struct s, f), v)

int main(void)
{
	if (sizeof(void *) != 8 || sizeof(size_t) != 8 || sizeof(int) != 4) {
		printf("abi-layout: SKIPPED: the expected values are LP64's\n");
		printf("0 passed, 0 failed, 1 skipped\n");
		return 0;
	}
	/* TfLiteTensor: every field, and its size. */
	OFF(tflc_tensor, type, 0);
	OFF(tflc_tensor, data, 8);
	OFF(tflc_tensor, dims, 16);
	OFF(tflc_tensor, params_scale, 24);
	OFF(tflc_tensor, params_zero_point, 28);
	OFF(tflc_tensor, allocation_type, 32);
	OFF(tflc_tensor, bytes, 40);
	OFF(tflc_tensor, allocation, 48);
	OFF(tflc_tensor, name, 56);
	OFF(tflc_tensor, delegate, 64);
	OFF(tflc_tensor, buffer_handle, 72);
	OFF(tflc_tensor, data_is_stale, 76);
	OFF(tflc_tensor, is_variable, 77);
	OFF(tflc_tensor, quantization_type, 80);
	OFF(tflc_tensor, quantization_params, 88);
	OFF(tflc_tensor, sparsity, 96);
	OFF(tflc_tensor, dims_signature, 104);
	eq("sizeof(TfLiteTensor)", sizeof(struct tflc_tensor), 112);
	/* TfLiteAffineQuantization, TfLiteIntArray, TfLiteFloatArray. */
	OFF(tflc_affine_quant, scale, 0);
	OFF(tflc_affine_quant, zero_point, 8);
	OFF(tflc_affine_quant, quantized_dimension, 16);
	OFF(tflc_int_array, data, 4);
	OFF(tflc_float_array, data, 4);
	/* TfLiteNode: leading fields (2.2: 72 bytes; 80 from ~2.6). */
	OFF(tflc_node, inputs, 0);
	OFF(tflc_node, outputs, 8);
	OFF(tflc_node, intermediates, 16);
	OFF(tflc_node, temporaries, 24);
	OFF(tflc_node, user_data, 32);
	OFF(tflc_node, builtin_data, 40);
	OFF(tflc_node, custom_initial_data, 48);
	OFF(tflc_node, custom_initial_data_size, 56);
	OFF(tflc_node, delegate, 64);
	/* TfLiteDelegateParams: all of it. */
	OFF(tflc_delegate_params, delegate, 0);
	OFF(tflc_delegate_params, nodes_to_replace, 8);
	OFF(tflc_delegate_params, input_tensors, 16);
	OFF(tflc_delegate_params, output_tensors, 24);
	/* TfLiteContext: leading fields (2.2: 160 bytes, 200 in 2026). */
	OFF(tflc_context, tensors_size, 0);
	OFF(tflc_context, GetExecutionPlan, 8);
	OFF(tflc_context, tensors, 16);
	OFF(tflc_context, impl_, 24);
	OFF(tflc_context, ResizeTensor, 32);
	OFF(tflc_context, ReportError, 40);
	OFF(tflc_context, AddTensors, 48);
	OFF(tflc_context, GetNodeAndRegistration, 56);
	OFF(tflc_context, ReplaceNodeSubsetsWithDelegateKernels, 64);
	/* TfLiteRegistration: passed by value; room for 2.2's 64 and 2026's 88. */
	OFF(tflc_registration, init, 0);
	OFF(tflc_registration, free, 8);
	OFF(tflc_registration, prepare, 16);
	OFF(tflc_registration, invoke, 24);
	OFF(tflc_registration, profiling_string, 32);
	OFF(tflc_registration, builtin_code, 40);
	OFF(tflc_registration, custom_name, 48);
	OFF(tflc_registration, version, 56);
	ge("sizeof(TfLiteRegistration)", sizeof(struct tflc_registration), 64, "TFLite 2.2");
	ge("sizeof(TfLiteRegistration)", sizeof(struct tflc_registration), 88,
	   "TFLite 2.14..2026 (registration_external, async_kernel, inplace_operator)");
	/* TfLiteDelegate: ours, allocated by us; 56 bytes from ~2.11. */
	OFF(tflc_delegate, data_, 0);
	OFF(tflc_delegate, Prepare, 8);
	OFF(tflc_delegate, CopyFromBufferHandle, 16);
	OFF(tflc_delegate, CopyToBufferHandle, 24);
	OFF(tflc_delegate, FreeBufferHandle, 32);
	OFF(tflc_delegate, flags, 40);
	eq("TfLiteDelegate.opaque_delegate_builder (~2.11+)",
	   offsetof(struct tflc_delegate, opaque_delegate_builder), 48);
	ge("sizeof(TfLiteDelegate)", sizeof(struct tflc_delegate), 56, "TFLite 2.11..2026");
	/* builtin_data the structural operators read (builtin_op_data.h, 2.2) */
	OFF(tflc_gather_params, axis, 0);
	OFF(tflc_split_params, num_splits, 0);
	OFF(tflc_pack_params, num, 0);		/* values_count / num */
	OFF(tflc_pack_params, axis, 4);
	OFF(tflc_resize_bilinear_params, align_corners, 0);
	OFF(tflc_resize_bilinear_params, half_pixel_centers, 1);
	OFF(tflc_block_params, block_size, 0);	/* depth to space, space to depth */
	OFF(tflc_transpose_conv_params, padding, 0);
	OFF(tflc_transpose_conv_params, stride_width, 4);
	OFF(tflc_transpose_conv_params, stride_height, 8);
	/* Enum values the delegate compares with. */
	eq("kTfLiteFloat32", TFLC_FLOAT32, 1);
	eq("kTfLiteInt32", TFLC_INT32, 2);
	eq("kTfLiteUInt8", TFLC_UINT8, 3);
	eq("kTfLiteInt8", TFLC_INT8, 9);
	eq("kTfLiteMmapRo", TFLC_MMAP_RO, 1);
	eq("kTfLiteAffineQuantization", TFLC_AFFINE_QUANT, 1);
	eq("kTfLiteBuiltinCustom", TFLC_BUILTIN_CUSTOM, 32);
	eq("kTfLiteBuiltinDelegate", TFLC_BUILTIN_DELEGATE, 51);
	printf("%d passed, %d failed (abi-layout)\n", npass, nfail);
	return nfail ? 1 : 0;
}
