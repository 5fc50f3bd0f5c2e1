// SPDX-License-Identifier: MIT
/*
 * npu-smoke: check an e1 NPU end to end. Dispatches subcommands, each in
 * its own file (cmd-*.c).
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "tools-common.h"

struct npu_cmd {
	const char *name;
	int (*run)(int argc, char **argv, struct common_opts *o);
	const char *help;
};

static const struct npu_cmd cmds[] = {
	{ "info", cmd_info, "device, backend, engines, CAPS, envelope, driver" },
	{ "ping", cmd_ping, "a NOP job round trip" },
	{ "smoke", cmd_smoke, "every hardware and lowered operation against the CPU reference" },
	{ "bench", cmd_bench, "submit+wait latency, MACs, cycles, utilization" },
	{ "perf", cmd_perf, "the device's performance counters" },
	{ "ops", cmd_ops, "per operation: which engine can run it, and why" },
};

static void print_help(void)
{
	size_t i;

	printf("Usage: %s [OPTIONS] COMMAND [COMMAND OPTIONS]\n\n", prog_name);
	printf("Check an e1 NPU end to end.\n\nCommands:\n");
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		printf("  %-8s %s\n", cmds[i].name, cmds[i].help);
	printf("\nOptions (also accepted after COMMAND):\n"
	       "  -d, --device=DEV  'sim', or an accel node such as /dev/accel/accel0\n"
	       "                    (default: $E1NPU_DEVICE, else auto-detect)\n"
	       "  -j, --json        machine-readable output\n"
	       "  -P, --progress    progress line on stderr even when not a tty\n"
	       "      --trace=FILE  a timeline trace of the run (Chrome trace-event JSON:\n"
	       "                    host spans, device spans per engine) to FILE; takes\n"
	       "                    precedence over $E1NPU_TRACE\n"
	       "  -h, --help        this help\n"
	       "  -V, --version     version\n\n"
	       "Exit status: 0 success, 1 a run failed (a mismatch, the device), 2 bad\n"
	       "usage or input (options, operands, an E1NPU_* environment variable).\n");
}

int main(int argc, char **argv)
{
	struct common_opts o = { 0 };
	size_t i;
	int first;

	tools_init(argc, argv);
	first = parse_common(argc, argv, &o, NULL, NULL, NULL, NULL, print_help);
	if (first >= argc) {
		print_error("missing command");
		die_usage("try '%s --help'", prog_name);
	}
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[first], cmds[i].name))
			return cmds[i].run(argc - first, argv + first, &o);
	die_usage("unknown command '%s'; try '%s --help'", argv[first], prog_name);
}
