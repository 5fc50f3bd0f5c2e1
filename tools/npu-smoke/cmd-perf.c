// SPDX-License-Identifier: MIT
/*
 * npu-smoke perf: the performance counters (sysfs on the kernel backend,
 * the model's registers in process).
 */
#include <stdlib.h>

#include "tools-common.h"

static void print_help(void)
{
	printf("Usage: %s [OPTIONS] perf\n\nPrint the performance counters.\n",
	       prog_name);
}

int cmd_perf(int argc, char **argv, struct common_opts *o)
{
	struct e1npu_device *dev;
	struct e1npu_perf p;
	int ret;

	no_operands(argc, argv,
		    parse_common(argc, argv, o, NULL, NULL, NULL, NULL, print_help));
	dev = open_device_or_die(o);
	ret = e1npu_device_read_perf(dev, &p);
	if (ret)
		die("perf: %s", e1npu_device_last_error(dev));
#define CNT(name) { #name, p.name }
	{
		const struct { const char *name; uint64_t v; } c[] = {
			CNT(wrapper_cycles), CNT(wrapper_macs), CNT(wrapper_fallbacks),
			CNT(dp_cycles), CNT(dp_macs), CNT(dp_ops), CNT(dp_errors),
			CNT(dp_unsupported_ops), CNT(dp_stall_cycles),
			CNT(dp_scratch_bytes),
		};
		size_t i;

		if (o->json)
			printf("{\"device\":\"%s\"", device_name(dev));
		else
			printf("%-20s %s\n", "device", device_name(dev));
		for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
			if (o->json)
				printf(",\"%s\":%llu", c[i].name,
				       (unsigned long long)c[i].v);
			else
				printf("%-20s %llu\n", c[i].name,
				       (unsigned long long)c[i].v);
		}
		if (o->json)
			printf("}\n");
	}
#undef CNT
	e1npu_device_close(dev);
	return EXIT_SUCCESS;
}
