// SPDX-License-Identifier: MIT
/*
 * npu-smoke info: device, backend, engines, CAPS decoded, envelope, driver.
 */
#include <stdlib.h>

#include "tools-common.h"

static void print_help(void)
{
	printf("Usage: %s [OPTIONS] info\n\nDescribe the device.\n", prog_name);
}

static void list_bits(FILE *f, uint32_t mask, bool json)
{
	bool first = true;
	unsigned int b;

	for (b = 0; b < 32; b++)
		if (mask & (1u << b)) {
			fprintf(f, "%s%u", json ? (first ? "" : ",") : " ", b);
			first = false;
		}
}

int cmd_info(int argc, char **argv, struct common_opts *o)
{
	struct e1npu_device_info i;
	struct e1npu_device *dev;
	const char *backend;
	int ret;

	no_operands(argc, argv,
		    parse_common(argc, argv, o, NULL, NULL, NULL, NULL, print_help));
	dev = open_device_or_die(o);
	ret = e1npu_device_get_info(dev, &i);
	if (ret)
		die("info: %s", e1npu_strerror(ret));
	backend = i.backend == E1NPU_BACKEND_SIM ? "sim" : "kernel";
	if (o->json) {
		printf("{\"device\":");
		json_str(stdout, i.path);
		printf(",\"backend\":\"%s\",\"driver\":", backend);
		json_str(stdout, i.driver);
		printf(",\"driver_version\":\"%u.%u\",\"engines\":[%s%s%s]",
		       i.driver_major, i.driver_minor,
		       i.engines & E1NPU_ENGINE_BIT(E1NPU_ENGINE_WRAPPER) ? "\"wrapper\"" : "",
		       (i.engines & E1NPU_ENGINE_BIT(E1NPU_ENGINE_WRAPPER)) &&
		       (i.engines & E1NPU_ENGINE_BIT(E1NPU_ENGINE_DATAPATH)) ? "," : "",
		       i.engines & E1NPU_ENGINE_BIT(E1NPU_ENGINE_DATAPATH) ? "\"datapath\"" : "");
		printf(",\"wrapper_id\":\"0x%08x\",\"caps\":\"0x%08x\",\"gemmini\":%s,"
		       "\"array\":[%u,%u],\"datapath_id\":\"0x%08x\",\"ring_len\":%u,"
		       "\"datapath_slots\":%u,\"max_ops_per_job\":%u,\"align\":%u,"
		       "\"arena_size\":%llu,\"max_matmul_mn\":%u,\"max_matmul_k\":%u,"
		       "\"max_conv_hw\":%u,\"max_conv_c\":%u,\"conv_kernels\":[",
		       i.wrapper_id, i.wrapper_caps, i.gemmini_present ? "true" : "false",
		       i.array_rows, i.array_cols, i.datapath_id, i.ring_len,
		       i.datapath_slots, i.max_ops_per_job, i.align,
		       (unsigned long long)i.arena_size, i.max_matmul_mn,
		       i.max_matmul_k, i.max_conv_hw, i.max_conv_c);
		list_bits(stdout, i.conv_kernels, true);
		printf("],\"conv_strides\":[");
		list_bits(stdout, i.conv_strides, true);
		printf("],\"max_conv_dilation\":%u,\"pool_windows\":[", i.max_conv_dilation);
		list_bits(stdout, i.pool_windows, true);
		printf("],\"pool_strides\":[");
		list_bits(stdout, i.pool_strides, true);
		printf("],\"max_relu_mn\":%u}\n", i.max_relu_mn);
	} else {
		printf("device:          %s\n", i.path);
		printf("backend:         %s (%s)\n", backend,
		       i.backend == E1NPU_BACKEND_SIM ? "in-process device model" :
		       "e1npu.ko");
		printf("driver:          %s %u.%u\n", i.driver, i.driver_major, i.driver_minor);
		printf("engines:        %s%s\n",
		       i.engines & E1NPU_ENGINE_BIT(E1NPU_ENGINE_WRAPPER) ? " wrapper" : "",
		       i.engines & E1NPU_ENGINE_BIT(E1NPU_ENGINE_DATAPATH) ? " datapath" : "");
		if (i.engines & E1NPU_ENGINE_BIT(E1NPU_ENGINE_WRAPPER)) {
			printf("wrapper ID:      0x%08x\n", i.wrapper_id);
			printf("CAPS:            0x%08x (gemmini_present=%u int8=%u int32_accum=%u relu=%u rows=%u cols=%u)\n",
			       i.wrapper_caps, i.gemmini_present,
			       (i.wrapper_caps >> 1) & 1, (i.wrapper_caps >> 2) & 1,
			       (i.wrapper_caps >> 3) & 1, i.array_rows, i.array_cols);
			printf("ring:            %u descriptors, %u ops per job\n",
			       i.ring_len, i.max_ops_per_job);
		}
		if (i.engines & E1NPU_ENGINE_BIT(E1NPU_ENGINE_DATAPATH))
			printf("datapath ID:     0x%08x, %u descriptor slots\n",
			       i.datapath_id, i.datapath_slots);
		printf("tensor arena:    %llu MiB, %u-byte alignment\n",
		       (unsigned long long)(i.arena_size >> 20), i.align);
		printf("envelope:        matmul M,N <= %u, K <= %u; conv H,W <= %u, C <= %u, kernels",
		       i.max_matmul_mn, i.max_matmul_k, i.max_conv_hw, i.max_conv_c);
		list_bits(stdout, i.conv_kernels, false);
		printf(", strides");
		list_bits(stdout, i.conv_strides, false);
		printf(", dilation <= %u; pool windows", i.max_conv_dilation);
		list_bits(stdout, i.pool_windows, false);
		printf(", strides");
		list_bits(stdout, i.pool_strides, false);
		printf("; relu M,N <= %u\n", i.max_relu_mn);
	}
	e1npu_device_close(dev);
	return EXIT_SUCCESS;
}
