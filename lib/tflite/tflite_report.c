// SPDX-License-Identifier: MIT
/*
 * Per-operator placement of a model without running it (tflite_report.h,
 * e1npu-tflite report): which operators the interpreter accepts (the
 * delegate's e1npu_tflite_part_check), the partitions they form, and for
 * each accepted one the engine, reason, MACs and modelled cycles the
 * lowering layer will choose (lib/ops/ops_plan.c), read from a partial
 * interpreter prepared on the caller's lowering context.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <e1npu/e1npu_tflite.h>

#include "ops_plan.h"
#include "tflite_part.h"
#include "tflite_report.h"
#include "tflite_why.h"

const char *tflite_place_name(uint32_t place)
{
	static const char *const names[] = { "wrapper", "datapath", "host", "refused" };

	return place < sizeof(names) / sizeof(names[0]) ? names[place] : "unknown";
}

static void plan_layer(struct e1npu_ops *ctx, const struct tflite_layer_view *v,
		       struct tflite_op_plan *p)
{
	struct e1npu_ops_report *r = &p->rep;
	uint32_t oh, ow;
	bool hw;

	switch (v->op->builtin) {
	case TFL_OP_CONV_2D:
	case TFL_OP_DEPTHWISE_CONV_2D:
		ops_conv_plan(v->conv, r);
		p->cycles_known = 1;
		break;
	case TFL_OP_TRANSPOSE_CONV:	/* lowered: a convolution of the stuffed input */
		if (!v->conv)
			goto host;
		ops_conv_plan(v->conv, r);
		p->cycles_known = 1;
		break;
	case TFL_OP_FULLY_CONNECTED:
		ops_plan_choice(ctx, E1NPU_OPS_FULLY_CONNECTED, v->fc_rows, v->fp.n,
				v->fp.k, false, r);
		snprintf(r->why + strlen(r->why), sizeof(r->why) - strlen(r->why),
			 ": %ux%ux%u GEMM", v->fc_rows, v->fp.n, v->fp.k);
		break;
	case TFL_OP_MAX_POOL_2D:
		/* e1npu_ops_maxpool's test: the padded VALID window fits MAXPOOL_S8 */
		hw = !e1npu_ops_pool_output_size(&v->pp, &oh, &ow) &&
		     v->pp.filter_h == v->pp.filter_w &&
		     (v->pp.filter_h == 2 || v->pp.filter_h == 3) &&
		     v->pp.stride_h == v->pp.stride_w && v->pp.stride_h <= 2 &&
		     (uint64_t)(oh - 1) * v->pp.stride_h + v->pp.filter_h <= 256 &&
		     (uint64_t)(ow - 1) * v->pp.stride_w + v->pp.filter_w <= 256;
		ops_plan_choice(ctx, E1NPU_OPS_MAXPOOL, 0, 0, 0, hw, r);
		break;
	case TFL_OP_AVERAGE_POOL_2D:
		ops_plan_choice(ctx, E1NPU_OPS_AVGPOOL, 0, 0, 0, false, r);
		strncat(r->why, ": " OPS_WHY_AVGPOOL,
			sizeof(r->why) - strlen(r->why) - 1);
		break;
	case TFL_OP_ADD:
		if (v->add_bcast)
			goto host;
		ops_plan_choice(ctx, E1NPU_OPS_ADD, 0, 0, 0, false, r);
		strncat(r->why, ": " OPS_WHY_ADD,
			sizeof(r->why) - strlen(r->why) - 1);
		break;
	case TFL_OP_SOFTMAX:
		ops_plan_choice(ctx, E1NPU_OPS_SOFTMAX, 0, 0, 0, false, r);
		strncat(r->why, ": " OPS_WHY_SOFTMAX,
			sizeof(r->why) - strlen(r->why) - 1);
		break;
	default:	/* every other operator: on the host, tflite_why.c says why */
host:
		memset(r, 0, sizeof(*r));
		r->engine = E1NPU_ENGINE_CPU;
		r->reason = E1NPU_OPS_WHY_NO_HW_OP;
		snprintf(r->why, sizeof(r->why), "%s", v->host_why ? v->host_why :
			 tfl_host_why(v->op->builtin, v->add_bcast) ?
			 tfl_host_why(v->op->builtin, v->add_bcast) : "on the host");
		break;
	}
	p->place = r->engine == E1NPU_ENGINE_WRAPPER ? TFLITE_PLACE_WRAPPER :
		   r->engine == E1NPU_ENGINE_DATAPATH ? TFLITE_PLACE_DATAPATH :
		   TFLITE_PLACE_HOST;
}

int tflite_plan_ops(struct e1npu_ops *ctx, const struct tfl_model *m,
		    struct tflite_op_plan *plan, uint32_t *partitions,
		    char *err, size_t errlen)
{
	struct e1npu_ops *own = NULL;
	struct e1npu_tflite *tp = NULL;
	uint32_t *acc, nacc = 0, nparts = 0;
	int ret = 0;

	if (err && errlen)
		err[0] = 0;
	*partitions = 0;
	acc = calloc(m->num_operators ? m->num_operators : 1, sizeof(*acc));
	if (!acc)
		return -ENOMEM;
	if (!ctx) {
		ret = e1npu_ops_new(NULL, &own);
		if (ret) {
			free(acc);
			return ret;
		}
		ctx = own;
	}
	for (uint32_t i = 0; i < m->num_operators; i++) {
		const struct tfl_operator *op = &m->operators[i];
		struct tflite_op_plan *p = &plan[i];
		const struct tfl_tensor *o = op->num_outputs && op->outputs[0] >= 0 &&
			(uint32_t)op->outputs[0] < m->num_tensors ?
			&m->tensors[op->outputs[0]] : NULL;

		memset(p, 0, sizeof(*p));
		p->index = i;
		p->builtin = op->builtin;
		snprintf(p->name, sizeof(p->name), "%s", tfl_builtin_name(op->builtin));
		if (o) {
			p->out_ndims = o->ndims;
			memcpy(p->out_dims, o->dims, sizeof(p->out_dims));
		}
		if (e1npu_tflite_part_check(m, i, p->rep.why, sizeof(p->rep.why))) {
			p->place = TFLITE_PLACE_REFUSED;
			p->partition = -1;
			continue;
		}
		/* a new partition after a refused operator (or at the start) */
		if (!nacc || acc[nacc - 1] != i - 1)
			nparts++;
		p->partition = (int32_t)nparts - 1;
		acc[nacc++] = i;
	}
	if (nacc)
		ret = e1npu_tflite_part_new(ctx, m, acc, nacc, &tp, err, errlen);
	for (uint32_t k = 0; !ret && k < nacc; k++) {
		struct tflite_layer_view v;

		ret = tflite_layer_view(tp, k, &v);
		if (!ret)
			plan_layer(ctx, &v, &plan[v.index]);
	}
	*partitions = nparts;
	e1npu_tflite_free(tp);
	e1npu_ops_free(own);
	free(acc);
	return ret;
}
