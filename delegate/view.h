/* SPDX-License-Identifier: MIT */
/*
 * A libe1npu model view (struct tfl_model, lib/tflite/tflite_reader.h) of
 * TFLite nodes, built from the TfLiteContext, so that the interpreter's
 * own per-operator checks and layers (lib/tflite/tflite_part.h) run on
 * what TFLite holds: tensors (type, shape, quantization, constant data)
 * and each node's builtin code, tensors and options.
 */
#ifndef __E1NPU_DELEGATE_VIEW_H__
#define __E1NPU_DELEGATE_VIEW_H__

#include "tflite_abi.h"
#include "tflite_reader.h"

struct e1d_view {
	struct tfl_model m;	/* every tensor of the context; one operator per node */
	int *node;		/* operator k is TFLite node node[k] */
};

/*
 * e1d_view_build() - @n nodes (TFLite node indices @nodes, in execution
 * order) as operators 0..@n-1 of @v. Constant tensors (mapped from the
 * model) keep pointing at TFLite's data. @nn_half: TFLite's
 * TfLiteResizeNearestNeighborParams has half_pixel_centers (struct e1d).
 * Return: 0, -ENOMEM or -EINVAL (TFLite gave an inconsistent node;
 * message in @err).
 */
int e1d_view_build(struct tflc_context *ctx, const int *nodes, int n, bool nn_half,
		   struct e1d_view *v, char *err, size_t errlen);
void e1d_view_free(struct e1d_view *v);

#endif /* __E1NPU_DELEGATE_VIEW_H__ */
