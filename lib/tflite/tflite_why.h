/* SPDX-License-Identifier: MIT */
/*
 * Why an operator the interpreter runs on the host runs there: one text
 * per operator for the run report (tflite_layer.c) and the plan
 * (tflite_report.c), so `e1npu-tflite report` says before a run what the
 * run's layer report says after it. Operators whose reason depends on
 * their parameters (LOGISTIC, TANH, LEAKY_RELU, L2_NORMALIZATION, the
 * float32 edges) set it at load instead (struct layer's host_why).
 */
#ifndef E1NPU_TFLITE_WHY_H
#define E1NPU_TFLITE_WHY_H

#include <stdbool.h>
#include <stdint.h>

/*
 * The host reason of @builtin (ADD: only when @add_bcast, an ADD of equal
 * shapes runs on the NPU), or NULL when it has none here.
 */
const char *tfl_host_why(int32_t builtin, bool add_bcast);

#endif
