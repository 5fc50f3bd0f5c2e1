// SPDX-License-Identifier: MIT
/*
 * npu-smoke ops: which engine can run each operation of the lowering layer
 * on this device, and why not — the supported/unsupported table, in the
 * manner of Mesa Teflon's per-operation report.
 */
#include <errno.h>
#include <stdlib.h>

#include <e1npu/e1npu_ops.h>

#include "tools-common.h"

static void print_help(void)
{
	printf("Usage: %s [OPTIONS] ops\n\n"
	       "List every operation libe1npu lowers, per engine (wrapper,\n"
	       "datapath, cpu): supported or not on this device, and why.\n",
	       prog_name);
}

static void print_json(const char *dev, const struct e1npu_ops_support *rows, size_t n)
{
	size_t i;

	printf("{\"device\":");
	json_str(stdout, dev);
	printf(",\"ops\":[");
	for (i = 0; i < n; i++) {
		printf("%s{\"op\":", i ? "," : "");
		json_str(stdout, rows[i].name);
		printf(",\"engine\":");
		json_str(stdout, e1npu_engine_name(rows[i].engine));
		printf(",\"supported\":%s,\"why\":", rows[i].supported ? "true" : "false");
		json_str(stdout, rows[i].why);
		printf("}");
	}
	printf("]}\n");
}

static void print_table(const char *dev, const struct e1npu_ops_support *rows, size_t n)
{
	size_t i;

	printf("device %s\n", dev);
	printf("%-24s %-9s %-4s %s\n", "OPERATION", "ENGINE", "OK", "WHY");
	for (i = 0; i < n; i++)
		printf("%-24s %-9s %-4s %s\n",
		       i && rows[i].kind == rows[i - 1].kind ? "" : rows[i].name,
		       e1npu_engine_name(rows[i].engine),
		       rows[i].supported ? "yes" : "no", rows[i].why);
}

int cmd_ops(int argc, char **argv, struct common_opts *o)
{
	struct e1npu_ops_support *rows;
	struct e1npu_device *dev;
	struct e1npu_ops *ops;
	size_t n = 0;
	int ret;

	no_operands(argc, argv,
		    parse_common(argc, argv, o, NULL, NULL, NULL, NULL, print_help));
	dev = open_device_or_die(o);
	ret = e1npu_ops_new(dev, &ops);
	if (ret)
		die("ops: %s", e1npu_ops_last_error(NULL));
	ret = e1npu_ops_support_table(ops, NULL, 0, &n);
	if (ret && ret != -ENOSPC)
		die("ops: %s", e1npu_strerror(ret));
	rows = calloc(n ? n : 1, sizeof(*rows));
	if (!rows)
		die("ops: out of memory");
	ret = e1npu_ops_support_table(ops, rows, n, &n);
	if (ret)
		die("ops: %s", e1npu_strerror(ret));
	if (o->json)
		print_json(device_name(dev), rows, n);
	else
		print_table(device_name(dev), rows, n);
	free(rows);
	e1npu_ops_free(ops);
	e1npu_device_close(dev);
	return EXIT_SUCCESS;
}
