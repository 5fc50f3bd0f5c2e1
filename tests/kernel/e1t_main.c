// SPDX-License-Identifier: MIT
/*
 * e1npu-systest GROUP [ARGS]: the e1npu system tests that run inside the
 * QEMU guest through real ioctls on /dev/accel/accelN (tests/kernel/
 * run-guest.sh runs every group). Prints "E1VM: PASS name" / "E1VM: FAIL
 * name reason" per test and appends to $E1VM_RESULTS like the harness's
 * lib.sh. Exit status: 0 all passed, 1 some failed, 2 usage.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e1t.h"

/* engines MASK: DEV_QUERY reports exactly these engines */
static int group_engines(int argc, char **argv)
{
	struct e1t_dev d;
	unsigned long want;
	char name[32];
	int ret;

	if (argc < 1)
		return 2;
	want = strtoul(argv[0], NULL, 0);
	snprintf(name, sizeof(name), "engines-0x%lx", want);
	ret = e1t_open(&d);
	if (ret) {
		e1t_fail(name, "open/DEV_QUERY: %d", ret);
		return 1;
	}
	if (d.info.engines != want) {
		e1t_fail(name, "DEV_QUERY engines 0x%x", d.info.engines);
	} else if (want != 0x3) {
		/* a job for the absent engine: -ENODEV */
		struct e1npu_hw_op op;
		struct e1t_job job;

		memset(&op, 0, sizeof(op));
		op.opcode = want & 1 ? E1NPU_HWOP_DP_VRELU_S8 :
				       E1NPU_HWOP_NOP;
		ret = e1t_submit(&d, want & 1 ? DRM_E1NPU_ENGINE_DATAPATH :
				 DRM_E1NPU_ENGINE_WRAPPER, &op, 1, &job);
		if (ret != -ENODEV)
			e1t_fail(name, "job for the absent engine: %d, want -ENODEV",
				 ret);
		else
			e1t_pass(name);
	} else {
		e1t_pass(name);
	}
	e1t_close(&d);
	return e1t_failures;
}

static const struct {
	const char *name;
	int (*fn)(void);
} groups[] = {
	{ "basic", e1t_group_basic },
	{ "ops", e1t_group_ops },
	{ "ring", e1t_group_ring },
	{ "dp", e1t_group_dp },
	{ "neg", e1t_group_neg },
	{ "sync", e1t_group_sync },
	{ "perfmon", e1t_group_perfmon },
	{ "unpriv", e1t_group_unpriv },
	{ "multi", e1t_group_multi },
	{ "fallback", e1t_group_fallback },
	{ "fault-bus", e1t_group_fault_bus },
	{ "fault-hang", e1t_group_fault_hang },
	{ "fault-irq", e1t_group_fault_irq },
	{ "nogemmini", e1t_group_nogemmini },
	{ "recover", e1t_group_recover },
};

static void usage(const char *prog)
{
	size_t i;

	fprintf(stderr, "usage: %s GROUP\n       %s engines MASK\n"
		"       %s inflight busy|hang|hangq READY-FILE [hold]\n"
		"       %s harden sizes|mmap|quota|fdinfo|rpm|reuse|arena BYTES\n"
		"       %s job NAME\ngroups:",
		prog, prog, prog, prog, prog);
	for (i = 0; i < E1T_ARRAY_SIZE(groups); i++)
		fprintf(stderr, " %s", groups[i].name);
	fprintf(stderr, "\n");
}

int main(int argc, char **argv)
{
	size_t i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 2) {
		usage(argv[0]);
		return 2;
	}
	if (!strcmp(argv[1], "inflight"))
		return e1t_group_inflight(argc - 2, argv + 2);
	if (!strcmp(argv[1], "engines"))
		return group_engines(argc - 2, argv + 2);
	if (!strcmp(argv[1], "harden"))
		return e1t_group_harden(argc - 2, argv + 2);
	if (!strcmp(argv[1], "job"))
		return e1t_group_job(argc - 2, argv + 2);
	for (i = 0; i < E1T_ARRAY_SIZE(groups); i++)
		if (!strcmp(argv[1], groups[i].name))
			return groups[i].fn() ? 1 : 0;
	usage(argv[0]);
	return 2;
}
