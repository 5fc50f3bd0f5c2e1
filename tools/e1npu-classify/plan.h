/* SPDX-License-Identifier: MIT */
/* e1npu-classify --plan: the model's tensor arena plan. */
#ifndef __E1NPU_CLASSIFY_PLAN_H__
#define __E1NPU_CLASSIFY_PLAN_H__

#include <stdbool.h>

/*
 * Load @model (on @device, or the reference path with @cpu) and print its
 * tensor arena plan (the seed's tensor_arena_plan: offsets, roles, shapes,
 * dtypes, total bytes) as a table or, with @json, one JSON object.
 * Return the exit status (0, or 1 after an error message).
 */
int cls_print_plan(const char *model, const char *device, bool cpu, bool json);

#endif
