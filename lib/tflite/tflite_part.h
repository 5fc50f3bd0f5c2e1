/* SPDX-License-Identifier: MIT */
/*
 * Partial interpreters: a subset of a model's operators, on a model view
 * built by the caller (the TFLite delegate, delegate/, builds it from
 * TFLite's TfLiteContext). Same per-operator validation, weight
 * preparation and arithmetic as e1npu_tflite_load_memory() and
 * e1npu_tflite_invoke(). Internal to the build: not in libe1npu.sym.
 */
#ifndef __E1NPU_TFLITE_PART_H__
#define __E1NPU_TFLITE_PART_H__

#include <stddef.h>
#include <stdint.h>

#include <e1npu/e1npu_tflite.h>

#include "tflite_reader.h"

/*
 * e1npu_tflite_part_check() - would the interpreter run operator @op of
 * @m? Return: 0, or -ENOTSUP/-EINVAL with the reason in @err (e.g.
 * "operator 3 (GATHER): index 6 (position 1) out of [0, 6)").
 */
int e1npu_tflite_part_check(const struct tfl_model *m, uint32_t op,
			    char *err, size_t errlen);

/*
 * e1npu_tflite_part_new() - an interpreter for operators @ops[0..@n) of
 * @m, run in that order, on the lowering context @ctx (the NPU path; NULL:
 * the reference path). @m and @ctx are borrowed: @m (and the constant
 * data it points at) must outlive the interpreter; one @ctx serves any
 * number of them (each context keeps its own staging arena on the
 * device, so one per partition would multiply the device memory used).
 * Free with e1npu_tflite_free(); e1npu_tflite_get_layer() reports its
 * layers.
 */
int e1npu_tflite_part_new(struct e1npu_ops *ctx, const struct tfl_model *m,
			  const uint32_t *ops, uint32_t n,
			  struct e1npu_tflite **tp, char *err, size_t errlen);

/*
 * e1npu_tflite_part_invoke() - run the layers once; @bufs holds the
 * storage of every tensor (m->num_tensors pointers, NULL where unused).
 * Return: 0, or the failing layer's error (message:
 * e1npu_tflite_last_error()).
 */
int e1npu_tflite_part_invoke(struct e1npu_tflite *t, void *const *bufs);

#endif /* __E1NPU_TFLITE_PART_H__ */
