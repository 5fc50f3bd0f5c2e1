/* SPDX-License-Identifier: MIT */
/* The tools: opening the device and naming it in the output. */
#ifndef __E1NPU_TOOL_COMMON_DEVICE_H__
#define __E1NPU_TOOL_COMMON_DEVICE_H__

#include <stdbool.h>
#include <stddef.h>

struct e1npu_device;

/*
 * cls_open_device() - open @spec (NULL: $E1NPU_DEVICE, else auto). Its
 * name goes to @name ("sim", "/dev/accel/accel0"). Auto-detection that
 * found no NPU says so on stderr: the results are the model's, not a
 * board's. Return: 0, or nonzero after a message.
 */
int cls_open_device(const char *spec, bool json, struct e1npu_device **dev,
		    char *name, size_t len);

#endif
