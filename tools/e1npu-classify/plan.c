// SPDX-License-Identifier: MIT
/*
 * e1npu-classify --plan: the interpreter's tensor arena plan
 * (e1npu_tflite_get_arena, Documentation/tflite.md "Tensor arena"), in
 * the seed's tensor_arena_plan terms: per tensor its offset, role, shape,
 * logical and storage dtype and bytes, and the arena's total bytes.
 */
#include <stdio.h>

#include <e1npu/e1npu.h>
#include <e1npu/e1npu_tflite.h>

#include "device.h"
#include "errout.h"
#include "plan.h"

static const char *role_name(uint32_t r)
{
	if ((r & E1NPU_TFLITE_ROLE_INPUT) && (r & E1NPU_TFLITE_ROLE_OUTPUT))
		return "input+output";
	if (r & E1NPU_TFLITE_ROLE_INPUT)
		return "input";
	if (r & E1NPU_TFLITE_ROLE_OUTPUT)
		return "output";
	return "intermediate";
}

static void print_entry(const struct e1npu_tflite_arena_tensor *e, bool json,
			bool first)
{
	char shape[96];
	size_t o = 0;

	shape[0] = 0;
	for (uint32_t d = 0; d < e->ndims && o < sizeof(shape) - 12; d++)
		o += (size_t)snprintf(shape + o, sizeof(shape) - o, "%s%u",
				      d ? (json ? "," : "x") : "", e->dims[d]);
	if (!json) {
		printf("%6d %-12s %-18s %-6s %10llu %10llu %5u..%-5u %s\n", e->tensor,
		       role_name(e->role), shape, e->type_name,
		       (unsigned long long)e->offset, (unsigned long long)e->bytes,
		       e->first_layer, e->last_layer, e->name);
		return;
	}
	printf("%s{\"tensor\":%d,\"name\":", first ? "" : ",", e->tensor);
	cls_json_str(e->name);
	printf(",\"role\":\"%s\",\"shape\":[%s],\"dtype\":\"%s\",\"storage_dtype\":\"%s\","
	       "\"offset\":%llu,\"bytes\":%llu,\"first_layer\":%u,\"last_layer\":%u}",
	       role_name(e->role), shape, e->type_name, e->type_name,
	       (unsigned long long)e->offset, (unsigned long long)e->bytes,
	       e->first_layer, e->last_layer);
}

int cls_print_plan(const char *model, const char *device, bool cpu, bool json)
{
	struct e1npu_tflite_options topt = { 0 };
	struct e1npu_device *dev = NULL;
	struct e1npu_tflite *t = NULL;
	struct e1npu_tflite_arena a;
	char err[512], devname[64] = "cpu";
	int ret;

	if (cpu)
		topt.path = E1NPU_TFLITE_PATH_REFERENCE;
	else if (cls_open_device(device, json, &dev, devname, sizeof(devname)))
		return 1;
	ret = e1npu_tflite_load_file(dev, model, &topt, &t, err, sizeof(err));
	e1npu_device_close(dev);
	if (ret) {
		cls_file_error(json, model, err);
		return 2;	/* the model: an input error */
	}
	e1npu_tflite_get_arena(t, &a);
	if (json) {
		printf("{\"model\":");
		cls_json_str(model);
		printf(",\"device\":");
		cls_json_str(devname);
		printf(",\"tensor_arena_plan\":{\"alignment_bytes\":%u,\"total_bytes\":%llu,"
		       "\"lower_bound_bytes\":%llu,\"unplanned_bytes\":%llu,\"tensors\":[",
		       a.alignment, (unsigned long long)a.total_bytes,
		       (unsigned long long)a.lower_bound,
		       (unsigned long long)a.unplanned_bytes);
	} else {
		printf("tensor arena plan of %s on device %s: %llu bytes (lower bound %llu, one buffer per tensor %llu), %u tensors, offsets aligned to %u\n",
		       model, devname, (unsigned long long)a.total_bytes,
		       (unsigned long long)a.lower_bound,
		       (unsigned long long)a.unplanned_bytes, a.num_tensors, a.alignment);
		printf("%6s %-12s %-18s %-6s %10s %10s %12s %s\n", "tensor", "role", "shape",
		       "dtype", "offset", "bytes", "layers", "name");
	}
	for (uint32_t i = 0; i < a.num_tensors; i++) {
		struct e1npu_tflite_arena_tensor e;

		if (!e1npu_tflite_get_arena_tensor(t, i, &e))
			print_entry(&e, json, i == 0);
	}
	if (json)
		printf("]}}\n");
	e1npu_tflite_free(t);
	return 0;
}
