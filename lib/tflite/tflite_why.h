/* SPDX-License-Identifier: MIT */
/*
 * Why the structural and index operators (SPLIT, SPLIT_V, UNPACK, PACK,
 * GATHER, SPACE_TO_BATCH_ND, BATCH_TO_SPACE_ND, ARG_MAX, ARG_MIN,
 * RESIZE_BILINEAR) and a broadcasting ADD run on the host: one text for
 * the run report (tflite_run.c) and the plan (tflite_report.c).
 */
#ifndef E1NPU_TFLITE_WHY_H
#define E1NPU_TFLITE_WHY_H

#include <stdbool.h>
#include <stdint.h>

/* The reason for @builtin (ADD: only when @add_bcast), or NULL. */
const char *tfl_struct_why(int32_t builtin, bool add_bcast);

#endif
