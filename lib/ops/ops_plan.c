// SPDX-License-Identifier: MIT
/*
 * Placement and modelled cost of a layer before it runs (ops_plan.h): the
 * choices e1npu_conv_run(), e1npu_fc_run() and the pools make, read from
 * the prepared objects and lib/ops/select.h, with nothing submitted.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "conv_internal.h"
#include "ops_plan.h"
#include "select.h"

int ops_conv_plan(const struct e1npu_conv *cv, struct e1npu_ops_report *rep)
{
	const struct e1npu_conv_params *p;
	struct ops_choice ch;

	if (!cv || !rep)
		return -EINVAL;
	p = &cv->p;
	memset(rep, 0, sizeof(*rep));
	rep->kind = p->kind;
	rep->macs = (uint64_t)cv->out_h * cv->out_w * p->c_out * p->kh * p->kw * cv->cin_g;
	ch = sel_conv(cv->ops);
	if (cv->ksize == 0 && !cv->use_mm && ch.engine != E1NPU_ENGINE_CPU) {
		ch.engine = E1NPU_ENGINE_CPU;
		ch.reason = E1NPU_OPS_WHY_UNSUPPORTED;
	}
	rep->engine = ch.engine;
	rep->reason = ch.reason;
	if (ch.engine == E1NPU_ENGINE_CPU) {
		snprintf(rep->why, sizeof(rep->why), "%s%s%s", sel_reason_text(ch.reason),
			 cv->cpu_why ? ": " : "", cv->cpu_why ? cv->cpu_why : "");
	} else if (cv->use_mm) {
		rep->wrapper_cycles = cv->mm.cost;
		rep->hw_ops = rep->hw_ops_wrapper = cv->mm.n_desc;
		snprintf(rep->why, sizeof(rep->why),
			 "%s: %u %s, %llu modelled cycles (CONV2D form %s%llu)",
			 sel_reason_text(ch.reason), cv->mm.n_desc,
			 cv->mm.pk ? "pixel-packed patch-Toeplitz CONV2Ds" : "patch-Toeplitz MATMULs",
			 (unsigned long long)cv->mm.cost, cv->ksize ? "" : "cannot: ",
			 (unsigned long long)cv->conv2d_cost);
	} else {
		rep->wrapper_cycles = cv->conv2d_cost;
		snprintf(rep->why, sizeof(rep->why),
			 "%s: %u hardware conv blocks, %llu modelled cycles",
			 sel_reason_text(ch.reason), cv->nblk,
			 (unsigned long long)cv->conv2d_cost);
	}
	return 0;
}

void ops_plan_choice(const struct e1npu_ops *ops, uint32_t kind, uint32_t m,
		     uint32_t n, uint32_t k, bool hw, struct e1npu_ops_report *rep)
{
	struct ops_choice ch;

	memset(rep, 0, sizeof(*rep));
	rep->kind = kind;
	if (kind == E1NPU_OPS_FULLY_CONNECTED) {
		ch = sel_gemm(ops, m, n, k);
		rep->macs = (uint64_t)m * n * k;
	} else if (kind == E1NPU_OPS_MAXPOOL) {
		ch = sel_maxpool(ops, hw);
	} else {
		ch = sel_cpu(ops);
	}
	rep->engine = ch.engine;
	rep->reason = ch.reason;
	snprintf(rep->why, sizeof(rep->why), "%s", sel_reason_text(ch.reason));
}
