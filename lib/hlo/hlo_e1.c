// SPDX-License-Identifier: MIT
/*
 * The datapath document's records that are not StableHLO ops, written as
 * stablehlo.custom_call @e1.<name> (Documentation/hlo.md): attention QK
 * and AV, the 2:4 sparse int4 matmul and the group-scaled int4 matmul.
 * Each has a CPU reference with e1npu_ops.h's integer semantics and runs
 * on the NPU through its lowering-layer call.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hlo.h"
#include "hlo_ctx.h"
#include "hlo_e1.h"
#include "hlo_type.h"

enum { E1_QK = 1, E1_AV, E1_SPARSE, E1_GS };

static const struct {
	const char *target, *api;
	int id;
} recs[] = {
	{ "e1.attention_qk", "e1npu_ops_attention_qk_s8", E1_QK },
	{ "e1.attention_av", "e1npu_ops_attention_av_s8", E1_AV },
	{ "e1.matmul_sparse_s4", "e1npu_ops_matmul_lowp(SPARSE_S4)", E1_SPARSE },
	{ "e1.matmul_gs_s4", "e1npu_ops_matmul_gs_s4", E1_GS },
};

static int rec_id(const char *t)
{
	for (size_t i = 0; t && i < sizeof(recs) / sizeof(recs[0]); i++)
		if (!strcmp(t, recs[i].target))
			return recs[i].id;
	return 0;
}

int hlo_e1_known(const char *target)
{
	return rec_id(target) != 0;
}

const char *hlo_e1_api(const char *target)
{
	for (size_t i = 0; target && i < sizeof(recs) / sizeof(recs[0]); i++)
		if (!strcmp(target, recs[i].target))
			return recs[i].api;
	return "-";
}

static int is_int(const struct hlo_type *t, int ek, int bits)
{
	return t->ek == ek && t->bits == bits && !t->quant;
}

/*
 * Shapes: d[] = batch, heads, tq, tk, dim (attention); m, n, k, group
 * (matmuls).
 */
static int e1_shape(struct e1npu_hlo *h, const struct hlo_op *op, const struct hlo_tensor *in,
		    const struct hlo_type *ot, int64_t *d)
{
	int id = rec_id(op->callee);
	const struct hlo_type *a = &in[0].t, *b = &in[1].t;

	if (op->nres != 1 || op->nopnd != (id == E1_GS ? 3 : 2))
		return hlo_errf(h, -EINVAL, "@%s (line %d): %d operands and one result expected",
				op->callee, op->line, id == E1_GS ? 3 : 2);
	if (id == E1_QK || id == E1_AV) {
		int qk = id == E1_QK;

		if (a->rank != 4 || b->rank != 4 || ot->rank != 4)
			return hlo_errf(h, -EINVAL, "@%s (line %d): rank-4 operands expected",
					op->callee, op->line);
		d[0] = a->dims[0];
		d[1] = a->dims[1];
		d[2] = a->dims[2];
		d[3] = qk ? b->dims[2] : a->dims[3];
		d[4] = qk ? a->dims[3] : b->dims[3];
		if (b->dims[0] != d[0] || b->dims[1] != d[1] || ot->dims[0] != d[0] ||
		    ot->dims[1] != d[1] || ot->dims[2] != d[2] ||
		    (qk && (b->dims[3] != d[4] || ot->dims[3] != d[3])) ||
		    (!qk && (b->dims[2] != d[3] || ot->dims[3] != d[4])))
			return hlo_errf(h, -EINVAL, "@%s (line %d): shapes do not match",
					op->callee, op->line);
		if (qk ? !(is_int(a, EK_SINT, 8) && is_int(b, EK_SINT, 8) && is_int(ot, EK_SINT, 32)) :
			 !(is_int(a, EK_UINT, 8) && is_int(b, EK_SINT, 8) && is_int(ot, EK_SINT, 8)))
			return hlo_errf(h, -EINVAL, "@%s (line %d): %s expected", op->callee, op->line,
					qk ? "(i8, i8) -> i32" : "(ui8, i8) -> i8");
		for (int i = 0; i < 5; i++)
			if (d[i] < 1 || d[i] > 65535)
				return hlo_errf(h, -EINVAL, "@%s (line %d): empty or oversized dimension",
						op->callee, op->line);
		return 0;
	}
	if (a->rank != 2 || b->rank != 2 || ot->rank != 2 || a->dims[1] != b->dims[0] ||
	    ot->dims[0] != a->dims[0] || ot->dims[1] != b->dims[1])
		return hlo_errf(h, -EINVAL, "@%s (line %d): [m, k] x [k, n] -> [m, n] expected",
				op->callee, op->line);
	d[0] = a->dims[0];
	d[1] = b->dims[1];
	d[2] = a->dims[1];
	d[3] = 1;
	for (int i = 0; i < 3; i++)
		if (d[i] < 1 || d[i] > 65535)
			return hlo_errf(h, -EINVAL, "@%s (line %d): empty or oversized dimension",
					op->callee, op->line);
	if (!is_int(ot, EK_SINT, 32) || !is_int(b, EK_SINT, 4) ||
	    !is_int(a, EK_SINT, id == E1_SPARSE ? 4 : 8))
		return hlo_errf(h, -EINVAL, "@%s (line %d): %s expected", op->callee, op->line,
				id == E1_SPARSE ? "(i4, i4) -> i32" : "(i8, i4, i16) -> i32");
	if (id == E1_SPARSE) {
		for (int64_t j = 0; j < d[1]; j++)
			for (int64_t g = 0; g < d[2]; g += 4) {
				int nz = 0;

				for (int64_t l = g; l < g + 4 && l < d[2]; l++)
					nz += in[1].v[l * d[1] + j].i != 0;
				if (nz > 2)
					return hlo_errf(h, -EINVAL, "@%s (line %d): column %lld has %d non-zeros in k %lld..%lld (2:4 allows 2)",
							op->callee, op->line, (long long)j, nz,
							(long long)g, (long long)g + 3);
			}
		return 0;
	}
	{
		const struct hlo_attr *g = hlo_attr_get(op, "group");
		const struct hlo_type *st = &in[2].t;

		if (!g || g->kind != AV_INT || g->i < 1 || d[2] % g->i)
			return hlo_errf(h, -EINVAL, "@%s (line %d): {group = G} dividing k = %lld expected",
					op->callee, op->line, (long long)d[2]);
		d[3] = g->i;
		if (!is_int(st, EK_SINT, 16) || st->rank != 2 || st->dims[0] != d[2] / d[3] ||
		    st->dims[1] != d[1])
			return hlo_errf(h, -EINVAL, "@%s (line %d): scales tensor<%lldx%lldxi16> expected",
					op->callee, op->line, (long long)(d[2] / d[3]),
					(long long)d[1]);
	}
	return 0;
}

int hlo_e1_eval(struct e1npu_hlo *h, const struct hlo_op *op, struct hlo_tensor *in,
		struct hlo_tensor *o)
{
	int id = rec_id(op->callee);
	int64_t d[5];
	int ret = e1_shape(h, op, in, &o->t, d);

	if (ret)
		return ret;
	/* multiply-adds per result element: dim (QK), tk (AV), k (matmuls) */
	if (hlo_work(h, op, (uint64_t)o->n * (uint64_t)(id == E1_QK ? d[4] :
							 id == E1_AV ? d[3] : d[2])))
		return -E2BIG;
	if (id == E1_SPARSE || id == E1_GS) {
		for (int64_t i = 0; i < d[0]; i++)
			for (int64_t j = 0; j < d[1]; j++) {
				uint32_t acc = 0;

				for (int64_t g = 0; g < d[2]; g += d[3]) {
					uint32_t part = 0;

					for (int64_t k = g; k < g + d[3]; k++)
						part += (uint32_t)(in[0].v[i * d[2] + k].i *
								   in[1].v[k * d[1] + j].i);
					acc += id == E1_GS ? part *
						(uint32_t)in[2].v[(g / d[3]) * d[1] + j].i : part;
				}
				o->v[i * d[1] + j].i = (int32_t)acc;
			}
		return 0;
	}
	for (int64_t bh = 0; bh < d[0] * d[1]; bh++)
		for (int64_t i = 0; i < d[2]; i++) {
			int64_t nj = id == E1_QK ? d[3] : d[4];

			for (int64_t j = 0; j < nj; j++) {
				int64_t acc = 0;

				if (id == E1_QK) {
					for (int64_t x = 0; x < d[4]; x++)
						acc += in[0].v[(bh * d[2] + i) * d[4] + x].i *
						       in[1].v[(bh * d[3] + j) * d[4] + x].i;
					o->v[(bh * d[2] + i) * d[3] + j].i = hlo_wrap(&o->t, acc);
					continue;
				}
				for (int64_t k = 0; k < d[3]; k++) {
					int64_t p7 = (in[0].v[(bh * d[2] + i) * d[3] + k].i + 1) >> 1;

					acc += (p7 > 127 ? 127 : p7) * in[1].v[(bh * d[3] + k) * d[4] + j].i;
				}
				acc = (acc + 64) >> 7;
				o->v[(bh * d[2] + i) * d[4] + j].i = acc < -128 ? -128 :
								      acc > 127 ? 127 : acc;
			}
		}
	return 0;
}

int hlo_e1_npu(struct e1npu_hlo *h, struct hlo_op *op, struct hlo_tensor *in,
	       struct hlo_tensor *out)
{
	struct e1npu_ops_report rep;
	int id = rec_id(op->callee);
	int64_t d[5];
	void *a = NULL, *b = NULL, *c = NULL;
	int16_t *sc = NULL;
	int ret = e1_shape(h, op, in, &out->t, d);

	if (ret)
		return ret;
	a = malloc((size_t)in[0].n ? (size_t)in[0].n : 1);
	b = malloc((size_t)in[1].n ? (size_t)in[1].n : 1);
	c = malloc((id == E1_AV ? 1 : 4) * (size_t)(out->n ? out->n : 1));
	if (id == E1_GS)
		sc = malloc(sizeof(*sc) * (size_t)(in[2].n ? in[2].n : 1));
	if (!a || !b || !c || (id == E1_GS && !sc)) {
		ret = -ENOMEM;
		goto out;
	}
	for (int64_t i = 0; i < in[0].n; i++)
		((uint8_t *)a)[i] = (uint8_t)in[0].v[i].i;
	for (int64_t i = 0; i < in[1].n; i++)
		((int8_t *)b)[i] = (int8_t)in[1].v[i].i;
	for (int64_t i = 0; id == E1_GS && i < in[2].n; i++)
		sc[i] = (int16_t)in[2].v[i].i;
	memset(&rep, 0, sizeof(rep));
	switch (id) {
	case E1_QK:
		ret = e1npu_ops_attention_qk_s8(h->ops, (uint32_t)d[0], (uint32_t)d[1],
						(uint32_t)d[2], (uint32_t)d[3], (uint32_t)d[4],
						a, b, c, &rep);
		break;
	case E1_AV:
		ret = e1npu_ops_attention_av_s8(h->ops, (uint32_t)d[0], (uint32_t)d[1],
						(uint32_t)d[2], (uint32_t)d[3], (uint32_t)d[4],
						a, b, c, &rep);
		break;
	case E1_SPARSE:
		ret = e1npu_ops_matmul_lowp(h->ops, E1NPU_OPS_MATMUL_SPARSE_S4, (uint32_t)d[0],
					    (uint32_t)d[1], (uint32_t)d[2], a, b, c, &rep);
		break;
	default:
		ret = e1npu_ops_matmul_gs_s4(h->ops, (uint32_t)d[0], (uint32_t)d[1],
					     (uint32_t)d[2], (uint32_t)d[3], a, b, sc, c, &rep);
		break;
	}
	if (ret) {
		ret = hlo_errf(h, ret, "@%s (line %d): %s failed: %s", op->callee, op->line,
			       op->api, e1npu_strerror(ret));
		goto out;
	}
	for (int64_t i = 0; i < out->n; i++)
		out->v[i].i = id == E1_AV ? ((int8_t *)c)[i] : ((int32_t *)c)[i];
	op->ran_engine = rep.engine;
	op->hw_ops = rep.hw_ops;
	op->hw_wr = rep.hw_ops_wrapper;
	op->hw_dp = rep.hw_ops_datapath;
out:
	free(a);
	free(b);
	free(c);
	free(sc);
	return ret;
}
