// SPDX-License-Identifier: MIT
/*
 * npu-smoke smoke, lowered part: one lowering context on the device, every
 * case of smoke-lowered*.c, and for each where it ran and why, straight
 * from the lowering's own report (struct e1npu_ops_report).
 */
#include <stdlib.h>

#include "smoke-cmd.h"

unsigned int smoke_run_lowered(struct e1npu_device *dev,
			       const struct common_opts *o, unsigned int done,
			       unsigned int total, struct lowered_result *res)
{
	struct e1npu_ops *ops;
	unsigned int i, n = (unsigned int)lowered_count(), fails = 0;
	int ret;

	ret = e1npu_ops_new(dev, &ops);
	if (ret)
		die("smoke: lowering context: %s", e1npu_ops_last_error(NULL));
	for (i = 0; i < n; i++) {
		progress(o, done + i + 1, total, lowered_case(i)->name);
		lowered_run(ops, i, &res[i], NULL);
		fails += !res[i].pass;
	}
	e1npu_ops_free(ops);
	return fails;
}

static void print_json(unsigned int i, const struct lowered_result *r, bool last)
{
	const struct e1npu_ops_report *p = &r->rep;

	/* One case per line: tests/lib/guest-smoke.sh compares lines. */
	printf("{\"name\":");
	json_str(stdout, lowered_case(i)->name);
	printf(",\"part\":\"lowered\",\"op\":\"%s\",\"engine\":\"%s\",\"result\":\"%s\","
	       "\"error\":%d,\"reason\":\"%s\",\"hw_ops\":%u,\"wrapper\":%u,\"datapath\":%u,"
	       "\"fallback\":%u,\"jobs\":%u,\"macs\":%llu,\"cycles\":%llu,"
	       "\"checksum\":\"%016llx\",\"why\":",
	       e1npu_ops_kind_name(p->kind), e1npu_engine_name(p->engine),
	       r->pass ? "pass" : "FAIL", r->error, smoke_reason_name(p->reason), p->hw_ops,
	       p->hw_ops_wrapper, p->hw_ops_datapath, p->hw_ops_fallback, p->jobs,
	       (unsigned long long)p->macs,
	       (unsigned long long)(p->wrapper_cycles + p->dp_cycles),
	       (unsigned long long)r->checksum);
	json_str(stdout, p->why);
	printf(",\"note\":");
	json_str(stdout, r->note);
	printf("}%s\n", last ? "" : ",");
}

void smoke_print_lowered(const struct common_opts *o, unsigned int i,
			 const struct lowered_result *r, bool last)
{
	const struct e1npu_ops_report *p = &r->rep;
	char ops[40];

	if (o->json) {
		print_json(i, r, last);
		return;
	}
	if (!i)
		printf("%-34s %-22s %-9s %-6s %-16s %-9s %s\n", "LOWERED OPERATION", "KIND",
		       "RAN ON", "RESULT", "CHECKSUM", "HW W/D/F", "WHY");
	/* hardware operations: wrapper / datapath / rejected to the CPU */
	snprintf(ops, sizeof(ops), "%u/%u/%u", p->hw_ops_wrapper, p->hw_ops_datapath,
		 p->hw_ops_fallback);
	printf("%-34s %-22s %-9s %-6s %016llx %-9s %s: %s%s%s\n", lowered_case(i)->name,
	       e1npu_ops_kind_name(p->kind), e1npu_engine_name(p->engine),
	       r->pass ? "pass" : "FAIL", (unsigned long long)r->checksum, ops,
	       smoke_reason_name(p->reason), p->why, r->note[0] ? "; " : "", r->note);
}
