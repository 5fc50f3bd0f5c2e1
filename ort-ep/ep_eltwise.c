// SPDX-License-Identifier: MIT
/* DQ -> Add/Mul -> Q: not yet */
#include "ep.h"
#include "ep_graph.h"

void ew_match(const OrtNode *n, struct match *m, enum xk_op op)
{
	(void)n;
	(void)op;
	m->why = "not yet";
}

OrtStatus *ew_run(struct kern *k, OrtKernelContext *ctx)
{
	(void)ctx;
	return st(ORT_FAIL, "e1npu: %s: not yet", k->name);
}
