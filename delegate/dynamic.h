/* SPDX-License-Identifier: MIT */
/* Tensors whose shape is known only at run time (dynamic.c). */
#ifndef __E1NPU_DELEGATE_DYNAMIC_H__
#define __E1NPU_DELEGATE_DYNAMIC_H__

#include <stdbool.h>

#include "tflite_abi.h"

/* One flag per tensor of @ctx for the @n @nodes in execution order; NULL on error. */
bool *e1d_dynamic_tensors(struct tflc_context *ctx, const int *nodes, int n);

/* The first dynamic tensor node @node_index reads or writes, or -1. */
int e1d_node_dynamic(struct tflc_context *ctx, int node_index, const bool *dyn);

#endif /* __E1NPU_DELEGATE_DYNAMIC_H__ */
