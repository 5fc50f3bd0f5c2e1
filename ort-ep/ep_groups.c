// SPDX-License-Identifier: MIT
/*
 * The QDQ groups beyond the products (Documentation/onnxruntime.md): the
 * op types they are anchored at, and each one's matcher and compute in
 * its own file (ep_move.c, ep_select.c, ep_eltwise.c, ep_softmax.c,
 * ep_pool.c).
 */
#include <stdio.h>
#include <string.h>

#include "ep.h"
#include "ep_graph.h"

static const struct {
	const char *op;
	enum xk_op x;
} xk_ops[] = {
	{ "Reshape", XK_RESHAPE }, { "Flatten", XK_FLATTEN }, { "Squeeze", XK_SQUEEZE },
	{ "Unsqueeze", XK_UNSQUEEZE }, { "Transpose", XK_TRANSPOSE }, { "Concat", XK_CONCAT },
	{ "Relu", XK_RELU }, { "Add", XK_ADD }, { "Mul", XK_MUL }, { "Slice", XK_SLICE },
	{ "Resize", XK_RESIZE }, { "Softmax", XK_SOFTMAX }, { "AveragePool", XK_AVGPOOL },
	{ "GlobalAveragePool", XK_GLOBALAVGPOOL }, { "LeakyRelu", XK_LEAKYRELU },
};

bool xk_anchor(const char *op)
{
	for (size_t i = 0; i < sizeof(xk_ops) / sizeof(xk_ops[0]); i++)
		if (!strcmp(op, xk_ops[i].op))
			return true;
	return false;
}

void xk_match(const OrtNode *n, struct match *m)
{
	const char *op = node_op(n);

	for (size_t i = 0; i < sizeof(xk_ops) / sizeof(xk_ops[0]); i++) {
		if (strcmp(op, xk_ops[i].op))
			continue;
		if (xk_ops[i].x == XK_CONCAT)
			mv_match_concat(n, m);
		else if (xk_ops[i].x == XK_ADD || xk_ops[i].x == XK_MUL)
			ew_match(n, m, xk_ops[i].x);
		else if (xk_ops[i].x == XK_SLICE || xk_ops[i].x == XK_RESIZE)
			sel_match(n, m, xk_ops[i].x);
		else if (xk_ops[i].x == XK_SOFTMAX)
			sm_match(n, m);
		else if (xk_ops[i].x == XK_LEAKYRELU)
			mv_match_leaky(n, m);
		else if (xk_ops[i].x == XK_AVGPOOL || xk_ops[i].x == XK_GLOBALAVGPOOL)
			pool_match(n, m, xk_ops[i].x);
		else
			mv_match(n, m, xk_ops[i].x);
		return;
	}
	m->why = "no e1 kernel matching ORT's CPU EP byte for byte";
}

const char *xk_desc(const struct kern *k)
{
	if (k->xk && (k->xk->op == XK_ADD || k->xk->op == XK_MUL))
		return "on the host as MLAS's QLinearAdd/QLinearMul (float32, e1 has no such arithmetic)";
	if (k->xk && k->xk->op == XK_SOFTMAX)
		return "on the host as ORT's QLinearSoftmax (its exp table and float32 sums)";
	if (k->xk && (k->xk->op == XK_AVGPOOL || k->xk->op == XK_GLOBALAVGPOOL))
		return "on the host as ORT's QLinearAveragePool/QLinearGlobalAveragePool";
	if (k->xk && k->xk->op == XK_LEAKYRELU)
		return "QLinearLeakyRelu's table, on the host";
	if (k->xk && k->xk->op == XK_CONCAT)
		return "8-bit copies, or QLinearConcat's requantization table, on the host";
	return "8-bit data movement on the host, as ORT's CPU EP once it drops the Q/DQ";
}

OrtStatus *xk_run(struct kern *k, OrtKernelContext *ctx)
{
	enum xk_op op = k->xk->op;

	if (!k->runs++)
		snprintf(k->why, sizeof(k->why), "%s", xk_desc(k));
	if (op == XK_ADD || op == XK_MUL)
		return ew_run(k, ctx);
	if (op == XK_SLICE || op == XK_RESIZE)
		return sel_run(k, ctx);
	if (op == XK_SOFTMAX)
		return sm_run(k, ctx);
	if (op == XK_AVGPOOL || op == XK_GLOBALAVGPOOL)
		return pool_run(k, ctx);
	return mv_run(k, ctx);
}
