// SPDX-License-Identifier: MIT
/*
 * The importer's public API (include/e1npu/e1npu_hlo.h): load, run with
 * checks, partition report.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hlo.h"
#include "hlo_ctx.h"
#include "hlo_eval.h"
#include "hlo_npu.h"
#include "hlo_output.h"
#include "hlo_parse.h"
#include "hlo_plan.h"
#include "hlo_type.h"
#include "internal.h"
#include "readfile.h"

#define MAX_CALL_DEPTH	64

/* The cap: the option, else the environment, else 256 steps per element. */
static int work_cap(struct e1npu_hlo *h)
{
	const char *v = getenv("E1NPU_HLO_MAX_WORK");
	char *end;
	unsigned long long x;

	h->work_cap = (uint64_t)(h->opt.max_elements ? h->opt.max_elements : HLO_MAX_ELEMS) *
		      HLO_RUN_WORK_PER_ELEM;
	if (h->opt.max_work_mi) {
		h->work_cap = (uint64_t)h->opt.max_work_mi << 20;
		return 0;
	}
	if (!v || !*v)
		return 0;
	errno = 0;
	x = strtoull(v, &end, 10);
	if (errno || *end || *v < '0' || *v > '9' || x < 1 || x > HLO_MAX_WORK_MI)
		return hlo_errf(h, -EINVAL, "environment variable E1NPU_HLO_MAX_WORK='%s': expected Mi steps (2^20 each) from 1 to %u",
				v, HLO_MAX_WORK_MI);
	h->work_cap = (uint64_t)x << 20;
	return 0;
}

struct runctx {
	e1npu_hlo_check_fn fn;
	void *arg;
	uint32_t passed, failed;
};

/* ---------------------------------------------------------------------- */
/* Checks                                                                   */
/* ---------------------------------------------------------------------- */

enum cmp_mode { CMP_EXACT, CMP_ALMOST, CMP_ULP };

/* |a - b| without overflow (an i64 check of INT64_MIN against 1). */
static uint64_t abs_diff(int64_t a, int64_t b)
{
	return a >= b ? (uint64_t)a - (uint64_t)b : (uint64_t)b - (uint64_t)a;
}

static double ulp_of(const struct hlo_type *t, double x)
{
	int e;
	int mant = t->ek == EK_F16 ? 11 : t->ek == EK_BF16 ? 8 : t->ek == EK_F32 ? 24 : 53;
	int emin = t->ek == EK_F16 ? -24 : t->ek == EK_BF16 ? -133 : t->ek == EK_F32 ? -149 :
		   -1074;

	if (x == 0)
		return ldexp(1.0, emin);
	frexp(x, &e);
	e -= mant;
	return ldexp(1.0, e < emin ? emin : e);
}

/*
 * Floats within a check's tolerance @tol (CMP_ALMOST: absolute, or 0 for
 * 1e-4 relative above 1; CMP_ULP: units in the last place), or @qtol apart
 * (a dequantized value: --quant-tolerance steps of its scale). Special
 * values as the StableHLO reference interpreter's areApproximatelyEqual:
 * equal values pass (inf == inf, -0 == +0), NaN matches only NaN, an
 * infinity nothing else (inf - inf is NaN, which no bound accepts).
 */
static int float_ok(const struct hlo_type *t, double x, double y, enum cmp_mode mode,
		    double tol, double qtol)
{
	if (x == y)
		return 1;
	if (x != x || y != y)
		return (x != x) && (y != y);
	if (mode == CMP_EXACT || isinf(x) || isinf(y))
		return 0;
	if (fabs(x - y) <= qtol)
		return 1;
	if (mode == CMP_ALMOST)
		return fabs(x - y) <= (tol > 0 ? tol : 1e-4 * (fabs(y) > 1 ? fabs(y) : 1));
	return fabs(x - y) <= tol * ulp_of(t, y);
}

static int compare(struct e1npu_hlo *h, const struct hlo_tensor *a,
		   const struct hlo_tensor *b, enum cmp_mode mode, double ulps, double qtol,
		   char *msg, size_t len)
{
	if (!hlo_same_shape(&a->t, &b->t) || hlo_is_float(&a->t) != hlo_is_float(&b->t)) {
		char ta[96], tb[96];

		hlo_type_str(&a->t, ta, sizeof(ta));
		hlo_type_str(&b->t, tb, sizeof(tb));
		snprintf(msg, len, "type %s vs expected %s", ta, tb);
		return 0;
	}
	for (int64_t i = 0; i < a->n; i++) {
		if (hlo_is_float(&a->t)) {
			double x = a->v[i].f, y = b->v[i].f;

			if (!float_ok(&b->t, x, y, mode, ulps, qtol)) {
				snprintf(msg, len, "element %lld: got %.9g, expected %.9g",
					 (long long)i, x, y);
				return 0;
			}
		} else {
			uint64_t tol = a->t.quant ? h->opt.quant_tolerance : 0;

			if (abs_diff(a->v[i].i, b->v[i].i) > tol) {
				snprintf(msg, len, "element %lld: got %lld, expected %lld",
					 (long long)i, (long long)a->v[i].i, (long long)b->v[i].i);
				return 0;
			}
		}
	}
	snprintf(msg, len, "%lld element%s %s", (long long)a->n, a->n == 1 ? "" : "s",
		 mode == CMP_EXACT ? "equal" : "close");
	return 1;
}

/*
 * --quant-tolerance covers a check of a dequantized result too: a compared
 * operand made by uniform_dequantize may be that many steps of its
 * quantized operand's (largest) scale off, as the quantized value may. The
 * dequantized value is followed back through the operations that only move
 * or copy elements (reshape, transpose, broadcast_in_dim, slice,
 * concatenate): a transpose between the uniform_dequantize and the
 * check moves the off-by-one-step element, it does not make it exact.
 */
#define DEQ_WALK_DEPTH 32

static int moves_elements(enum hlo_opk k)
{
	return k == HOP_RESHAPE || k == HOP_TRANSPOSE || k == HOP_BROADCAST ||
	       k == HOP_SLICE || k == HOP_CONCAT;
}

static double dequant_origin_tol(const struct e1npu_hlo *h, const struct hlo_func *f,
				 int v, int depth)
{
	int d = v >= 0 ? f->vdef[v] : -1;
	const struct hlo_op *q = d >= 0 ? &f->ops[d] : NULL;
	double tol = 0;

	if (!q || depth > DEQ_WALK_DEPTH)
		return 0;
	if (q->kind == HOP_UDEQUANT && q->nopnd == 1) {
		const struct hlo_type *qt = &f->vt[q->opnd[0]];

		for (uint32_t k = 0; qt->quant && k < qt->nq; k++)
			if (h->opt.quant_tolerance * qt->scale[k] > tol)
				tol = h->opt.quant_tolerance * qt->scale[k];
		return tol;
	}
	if (!moves_elements(q->kind) || hlo_is_float(&f->vt[v]) == 0)
		return 0;
	/* concatenate: any of its operands; the others: the moved operand */
	for (int i = 0; i < (q->kind == HOP_CONCAT ? q->nopnd : 1) && i < q->nopnd; i++) {
		double t = dequant_origin_tol(h, f, q->opnd[i], depth + 1);

		if (t > tol)
			tol = t;
	}
	return tol;
}

static double dequant_tolerance(const struct e1npu_hlo *h, const struct hlo_func *f,
				const struct hlo_op *op)
{
	double tol = 0;

	for (int i = 0; i < op->nopnd && i < 2; i++) {
		double t = dequant_origin_tol(h, f, op->opnd[i], 0);

		if (t > tol)
			tol = t;
	}
	return tol;
}

static int run_check(struct e1npu_hlo *h, struct hlo_func *f, const struct hlo_op *op,
		     struct hlo_tensor *in, struct hlo_tensor *out, struct runctx *rc)
{
	struct e1npu_hlo_check c;
	struct hlo_tensor lit = { 0 };
	const struct hlo_tensor *exp = NULL;
	enum cmp_mode mode = CMP_EXACT;
	double ulps = 0;
	const char *kind = op->name;

	memset(&c, 0, sizeof(c));
	if (op->kind == HOP_CUSTOM_CALL) {
		kind = op->callee;
		if (!strcmp(op->callee, "check.expect_almost_eq"))
			mode = CMP_ALMOST;
		else if (!strcmp(op->callee, "check.expect_close"))
			mode = CMP_ULP;
	} else if (op->kind == HOP_CHECK_ALMOST || op->kind == HOP_CHECK_ALMOST_CONST) {
		mode = CMP_ALMOST;
	} else if (op->kind == HOP_CHECK_CLOSE) {
		mode = CMP_ULP;
	}
	if (mode == CMP_ULP) {
		const struct hlo_attr *a = hlo_attr_get(op, "max_ulp_difference");

		ulps = a && a->kind == AV_INT ? (double)a->i : 0;
	} else if (mode == CMP_ALMOST) {
		/* tolerance = X: absolute; default 1e-4 relative above 1 */
		const struct hlo_attr *a = hlo_attr_get(op, "tolerance");

		ulps = !a ? 0 : a->kind == AV_FLOAT ? a->f : a->kind == AV_INT ? (double)a->i : 0;
	}
	if (op->kind == HOP_CHECK_EQ_CONST || op->kind == HOP_CHECK_ALMOST_CONST) {
		const struct hlo_type *t;
		int ret;

		if (op->nopnd != 1 || !op->lit)
			return hlo_errf(h, -EINVAL, "%s (line %d): one operand and a literal expected",
					op->name, op->line);
		t = op->lit->has_type ? &op->lit->type : &in[0].t;
		ret = hlo_tensor_from_lit(op->lit, t, &lit, c.msg, sizeof(c.msg));
		if (ret)
			return hlo_errf(h, ret, "%s (line %d): %s", op->name, op->line, c.msg);
		exp = &lit;
	} else {
		if (op->nopnd != 2)
			return hlo_errf(h, -EINVAL, "%s (line %d): two operands expected", kind,
					op->line);
		exp = &in[1];
	}
	c.passed = (uint32_t)compare(h, &in[0], exp, mode, ulps,
				     dequant_tolerance(h, f, op), c.msg, sizeof(c.msg));
	hlo_tensor_free(&lit);
	c.section = (uint32_t)f->section;
	c.line = (uint32_t)op->line;
	snprintf(c.func, sizeof(c.func), "%s", f->name);
	snprintf(c.kind, sizeof(c.kind), "%s", kind);
	if (c.passed)
		rc->passed++;
	else
		rc->failed++;
	if (rc->fn)
		rc->fn(rc->arg, &c);
	/* @check.eq returns its verdict as tensor<i1> */
	if (op->nres == 1 && out[0].n >= 1)
		for (int64_t i = 0; i < out[0].n; i++)
			out[0].v[i].i = c.passed;
	return 0;
}

/* ---------------------------------------------------------------------- */
/* Execution                                                                */
/* ---------------------------------------------------------------------- */

static int tensor_copy(const struct hlo_tensor *a, struct hlo_tensor *o)
{
	int ret = hlo_tensor_new(&a->t, o);

	if (!ret)
		memcpy(o->v, a->v, sizeof(*a->v) * (size_t)(a->n ? a->n : 1));
	return ret;
}

/* Compare the NPU result with the CPU reference: exact, or within the
 * quantization tolerance for quantized types. */
static int cross_check(struct e1npu_hlo *h, struct hlo_op *op, const struct hlo_tensor *npu,
		       const struct hlo_tensor *cpu)
{
	uint32_t maxd = 0, cnt = 0;
	int64_t first = -1;

	for (int64_t i = 0; i < npu->n; i++) {
		uint64_t ad = abs_diff(npu->v[i].i, cpu->v[i].i);

		if (ad) {
			if (first < 0)
				first = i;
			cnt++;
			if (ad > maxd)
				maxd = ad > UINT32_MAX ? UINT32_MAX : (uint32_t)ad;
		}
	}
	if (maxd > op->lsb_diff)
		op->lsb_diff = maxd;
	op->lsb_diff_count += cnt;
	if (!cnt)
		return 0;
	if (!npu->t.quant)
		return hlo_errf(h, -EIO, "%s (line %d): NPU result differs from the CPU reference at element %lld: %lld vs %lld",
				op->name, op->line, (long long)first,
				(long long)npu->v[first].i, (long long)cpu->v[first].i);
	if (maxd > h->opt.quant_tolerance)
		return hlo_errf(h, -EIO, "%s (line %d): NPU fixed-point requantization differs from StableHLO's float decomposition by %u LSB at %u element%s (first: element %lld, %lld vs %lld); accepted only with --quant-tolerance=%u",
				op->name, op->line, maxd, cnt, cnt == 1 ? "" : "s",
				(long long)first, (long long)npu->v[first].i,
				(long long)cpu->v[first].i, maxd);
	return 0;
}

static int run_func(struct e1npu_hlo *h, struct hlo_func *f, struct hlo_tensor *args,
		    struct hlo_tensor *res, int depth, struct runctx *rc);

static int run_op(struct e1npu_hlo *h, struct hlo_func *f, int oi, struct hlo_tensor *vals,
		  int depth, struct runctx *rc)
{
	struct hlo_op *op = &f->ops[oi];
	struct hlo_tensor in[64], *out = &vals[op->res < 0 ? 0 : op->res];
	int ret = 0;

	if (op->nopnd > 64)
		return hlo_errf(h, -ENOTSUP, "%s (line %d): more than 64 operands", op->name,
				op->line);
	/* a fixed cost per op (an empty function called 2^40 times), a step per result element */
	ret = hlo_work(h, op, HLO_OP_WORK);
	for (int i = 0; i < op->nres && !ret; i++)
		ret = hlo_work(h, op, (uint64_t)hlo_nelems(&op->rt[i]));
	if (ret)
		return ret;
	for (int i = 0; i < op->nopnd; i++) {
		in[i] = vals[op->opnd[i]];
		if (!in[i].v && !(f->vdef[op->opnd[i]] >= 0 &&
				  f->ops[f->vdef[op->opnd[i]]].fused_into >= 0))
			return hlo_errf(h, -EINVAL, "%s (line %d): operand %d not computed",
					op->name, op->line, i);
	}
	if (op->engine == E1NPU_HLO_ENGINE_FUSED && op->kind == HOP_UQUANT)
		return 0; /* produced by its NPU op */
	if (op->kind == HOP_CALL) {
		struct hlo_tensor *r = calloc((size_t)op->nres + 1, sizeof(*r));

		if (!r)
			return -ENOMEM;
		ret = run_func(h, op->callee_fn, in, r, depth + 1, rc);
		for (int i = 0; i < op->nres; i++) {
			/* later ops were placed for the declared type */
			if (!ret && !hlo_same_type(&r[i].t, &op->rt[i]))
				ret = hlo_errf(h, -EINVAL, "%s (line %d): result %d type does not match @%s",
					       op->name, op->line, i, op->callee);
			if (ret)
				hlo_tensor_free(&r[i]);
			else
				vals[op->res + i] = r[i];
		}
		free(r);
		return ret;
	}
	for (int i = 0; i < op->nres; i++) {
		ret = hlo_tensor_new(&op->rt[i], &vals[op->res + i]);
		if (ret)
			return ret;
	}
	switch (op->kind) {
	case HOP_CONSTANT: {
		char msg[160];

		hlo_tensor_free(out);
		ret = hlo_tensor_from_lit(op->lit, &op->rt[0], out, msg, sizeof(msg));
		if (ret)
			return hlo_errf(h, ret, "%s (line %d): %s", op->name, op->line, msg);
		return 0;
	}
	case HOP_CHECK_EQ: case HOP_CHECK_EQ_CONST: case HOP_CHECK_ALMOST:
	case HOP_CHECK_ALMOST_CONST: case HOP_CHECK_CLOSE: case HOP_CUSTOM_CALL:
		return run_check(h, f, op, in, out, rc);
	default:
		break;
	}
	if (op->engine != E1NPU_HLO_ENGINE_NPU)
		return hlo_eval_op(h, op, in, out);
	/* NPU, then the CPU reference of the same op for the cross-check */
	{
		struct hlo_tensor cpu = { 0 };

		ret = hlo_npu_run(h, f, oi, vals, out);
		if (ret)
			return ret;
		ret = hlo_tensor_new(&op->rt[0], &cpu);
		if (ret)
			return ret;
		ret = hlo_eval_op(h, op, in, &cpu);
		if (!ret && op->fuse_requant >= 0) {
			struct hlo_op *q = &f->ops[op->fuse_requant];
			struct hlo_tensor *qo = &vals[q->res], qcpu = { 0 };

			ret = hlo_tensor_new(&q->rt[0], qo);
			if (!ret)
				ret = hlo_tensor_new(&q->rt[0], &qcpu);
			if (!ret)
				ret = hlo_npu_requant_fused(h, q, out, qo);
			if (!ret)
				ret = hlo_eval_op(h, q, &cpu, &qcpu);
			if (!ret)
				ret = cross_check(h, op, qo, &qcpu);
			q->lsb_diff = op->lsb_diff;
			q->lsb_diff_count = op->lsb_diff_count;
			hlo_tensor_free(&qcpu);
		}
		if (!ret)
			ret = cross_check(h, op, out, &cpu);
		hlo_tensor_free(&cpu);
	}
	return ret;
}

static int run_func(struct e1npu_hlo *h, struct hlo_func *f, struct hlo_tensor *args,
		    struct hlo_tensor *res, int depth, struct runctx *rc)
{
	struct hlo_tensor *vals;
	int ret = 0;

	if (depth > MAX_CALL_DEPTH)
		return hlo_errf(h, -ELOOP, "@%s: calls nested deeper than %d", f->name,
				MAX_CALL_DEPTH);
	vals = calloc((size_t)f->nvals + 1, sizeof(*vals));
	if (!vals)
		return -ENOMEM;
	for (int i = 0; i < f->nargs && !ret; i++) {
		/* the callee's ops were placed for its declared argument types */
		if (!hlo_same_type(&args[i].t, &f->vt[i])) {
			const struct hlo_type *a = &args[i].t, *d = &f->vt[i];
			char ta[96], td[96];

			hlo_type_str(a, ta, sizeof(ta));
			hlo_type_str(d, td, sizeof(td));
			ret = hlo_errf(h, -EINVAL, "@%s: argument %d of type %s, declared %s (%s differ)",
				       f->name, i, ta, td, !hlo_same_shape(a, d) ? "shapes" :
				       a->ek != d->ek || a->bits != d->bits || a->quant != d->quant ?
				       "element types" : "quantization parameters");
		} else {
			ret = tensor_copy(&args[i], &vals[i]);
		}
	}
	for (int oi = 0; oi < f->nops && !ret; oi++) {
		struct hlo_op *op = &f->ops[oi];

		if (op->kind == HOP_RETURN) {
			if (op->nopnd != f->nres) {
				ret = hlo_errf(h, -EINVAL, "@%s (line %d): returns %d values, declared %d",
					       f->name, op->line, op->nopnd, f->nres);
				break;
			}
			for (int i = 0; i < op->nopnd && !ret; i++) {
				if (!vals[op->opnd[i]].v)
					ret = hlo_errf(h, -EINVAL, "@%s: return of an uncomputed value",
						       f->name);
				else
					ret = tensor_copy(&vals[op->opnd[i]], &res[i]);
			}
			break;
		}
		ret = run_op(h, f, oi, vals, depth, rc);
	}
	for (int i = 0; i < f->nvals; i++)
		hlo_tensor_free(&vals[i]);
	free(vals);
	return ret;
}

/* ---------------------------------------------------------------------- */
/* API                                                                      */
/* ---------------------------------------------------------------------- */

static void build_rows(struct e1npu_hlo *h)
{
	int n = 0;

	for (int i = 0; i < h->nfuncs; i++)
		n += h->funcs[i]->nops;
	h->row_func = hlo_alloc(h, sizeof(int) * (size_t)(n + 1));
	h->row_op = hlo_alloc(h, sizeof(int) * (size_t)(n + 1));
	if (!h->row_func || !h->row_op)
		return;
	for (int i = 0; i < h->nfuncs; i++)
		for (int o = 0; o < h->funcs[i]->nops; o++) {
			h->row_func[h->nrows] = i;
			h->row_op[h->nrows++] = o;
		}
}

static void set_err(char *err, size_t errlen, const char *msg)
{
	if (err && errlen)
		snprintf(err, errlen, "%s", msg);
}

E1NPU_API int e1npu_hlo_load_memory(struct e1npu_device *dev, const char *text, size_t len,
				    const char *name, const struct e1npu_hlo_options *opt,
				    struct e1npu_hlo **hp, char *err, size_t errlen)
{
	struct e1npu_hlo *h;
	int ret;

	if (hp)
		*hp = NULL;
	if (!hp || (!text && len)) {
		set_err(err, errlen, "NULL argument");
		return -EINVAL;
	}
	if (opt)
		for (size_t i = 0; i < sizeof(opt->reserved) / sizeof(opt->reserved[0]); i++)
			if (opt->reserved[i]) {
				char m[96];

				snprintf(m, sizeof(m), "options: reserved[%zu] = %u must be zero", i,
					 opt->reserved[i]);
				set_err(err, errlen, m);
				return -EINVAL;
			}
	if (opt && opt->cpu_only > 1) {
		set_err(err, errlen, "options: cpu_only must be 0 or 1");
		return -EINVAL;
	}
	h = calloc(1, sizeof(*h));
	if (!h)
		return -ENOMEM;
	if (opt)
		h->opt = *opt;
	h->text = malloc(len + 1);
	h->file = name ? name : "<memory>";
	if (!h->text) {
		free(h);
		return -ENOMEM;
	}
	if (len)
		memcpy(h->text, text, len);
	h->text[len] = 0;
	if (memchr(h->text, 0, len)) {
		snprintf(h->err, sizeof(h->err), "%s: NUL byte in the text", h->file);
		ret = -EINVAL;
		goto fail;
	}
	ret = work_cap(h);
	if (ret)
		goto fail;
	ret = hlo_parse(h, h->text, len);
	if (ret)
		goto fail;
	for (int i = 0; i < h->nfuncs; i++) {
		hlo_place(h, h->funcs[i]);
		hlo_plan_batches(h->funcs[i]);
		hlo_plan_arena(h->funcs[i]);
	}
	build_rows(h);
	if (!h->opt.cpu_only) {
		ret = e1npu_ops_new(dev, &h->ops);
		if (ret) {
			snprintf(h->err, sizeof(h->err), "lowering context: %s", e1npu_strerror(ret));
			goto fail;
		}
	}
	*hp = h;
	return 0;
fail:
	set_err(err, errlen, h->err);
	e1npu_hlo_free(h);
	return ret;
}

E1NPU_API int e1npu_hlo_load_file(struct e1npu_device *dev, const char *path,
				  const struct e1npu_hlo_options *opt, struct e1npu_hlo **hp,
				  char *err, size_t errlen)
{
	char *buf = NULL;
	void *data;
	size_t len = 0;
	int ret;

	if (hp)
		*hp = NULL;
	if (!path || !hp) {
		set_err(err, errlen, "NULL argument");
		return -EINVAL;
	}
	/* a directory, FIFO, device, unreadable or empty file: the cause */
	ret = e1npu_read_file(path, (size_t)1 << 30, &data, &len, err, errlen);
	if (ret)
		return ret;
	buf = data;
	ret = e1npu_hlo_load_memory(dev, buf, len, path, opt, hp, err, errlen);
	if (!ret) {
		/* the file name outlives the caller's string */
		char *n = hlo_alloc(*hp, strlen(path) + 1);

		if (n) {
			strcpy(n, path);
			(*hp)->file = n;
		}
	}
	free(buf);
	return ret;
}

E1NPU_API void e1npu_hlo_free(struct e1npu_hlo *h)
{
	if (!h)
		return;
	hlo_outputs_clear(h);
	for (int i = 0; i < h->nfuncs; i++) {
		struct hlo_func *f = h->funcs[i];

		if (f->input) {
			for (int a = 0; a < f->nargs; a++)
				free(f->input[a]);
			free(f->input);
		}
	}
	e1npu_ops_free(h->ops);
	hlo_pool_free(h);
	free(h->text);
	free(h);
}

E1NPU_API const char *e1npu_hlo_last_error(const struct e1npu_hlo *h)
{
	return h ? h->err : "";
}

static struct hlo_func *main_func(struct e1npu_hlo *h)
{
	for (int i = 0; i < h->nfuncs; i++)
		if (h->funcs[i]->section == 0 && !strcmp(h->funcs[i]->name, "main"))
			return h->funcs[i];
	return NULL;
}

E1NPU_API int e1npu_hlo_set_input(struct e1npu_hlo *h, const char *name, const char *dtype,
				  uint32_t rank, const uint64_t *dims, const void *data,
				  size_t size)
{
	struct hlo_func *f;
	struct hlo_type want;
	const struct hlo_type *t;
	int a = -1;
	size_t eb;
	int64_t n;
	const uint8_t *p = data;

	if (!h || !name || !dtype || (rank && !dims) || (size && !data))
		return -EINVAL;
	f = main_func(h);
	if (!f)
		return hlo_errf(h, -ENOENT, "no @main function in section 0");
	for (int i = 0; i < f->nargs; i++) {
		char idx[16];

		snprintf(idx, sizeof(idx), "%d", i);
		if (!strcmp(f->vname[i] + 1, name) || !strcmp(idx, name))
			a = i;
	}
	if (a < 0)
		return hlo_errf(h, -ENOENT, "@main has no argument '%s'", name);
	t = &f->vt[a];
	memset(&want, 0, sizeof(want));
	if (hlo_parse_elem_type(dtype, &want) || want.ek != t->ek || want.bits != t->bits)
		return hlo_errf(h, -EINVAL, "argument '%s': element type %s does not match", name,
				dtype);
	if (rank != t->rank)
		return hlo_errf(h, -EINVAL, "argument '%s': rank %u, expected %u", name, rank,
				t->rank);
	for (uint32_t i = 0; i < rank; i++)
		if (dims[i] != (uint64_t)t->dims[i])
			return hlo_errf(h, -EINVAL, "argument '%s': dimension %u is %llu, expected %lld",
					name, i, (unsigned long long)dims[i], (long long)t->dims[i]);
	n = hlo_nelems(t);
	eb = hlo_elem_bytes(t);
	if (n < 0 || size != (size_t)n * eb)
		return hlo_errf(h, -EINVAL, "argument '%s': %zu bytes, expected %lld", name, size,
				(long long)n * (long long)eb);
	if (!f->input) {
		f->input = calloc((size_t)f->nargs, sizeof(*f->input));
		if (!f->input)
			return -ENOMEM;
	}
	free(f->input[a]);
	f->input[a] = calloc((size_t)(n ? n : 1), sizeof(union hv));
	if (!f->input[a])
		return -ENOMEM;
	for (int64_t i = 0; i < n; i++) {
		uint64_t u = 0;

		for (size_t k = 0; k < eb; k++)
			u |= (uint64_t)p[(size_t)i * eb + k] << (8 * k);
		if (hlo_is_float(t)) {
			if (t->ek == EK_F16)
				f->input[a][i].f = hlo_half_to_double((uint16_t)u);
			else if (t->ek == EK_BF16)
				f->input[a][i].f = hlo_bf16_to_double((uint16_t)u);
			else if (t->ek == EK_F32) {
				uint32_t w = (uint32_t)u;
				float x;

				memcpy(&x, &w, sizeof(x));
				f->input[a][i].f = x;
			} else {
				memcpy(&f->input[a][i].f, &u, sizeof(u));
			}
		} else {
			f->input[a][i].i = hlo_wrap(t, (int64_t)u);
		}
	}
	return 0;
}

E1NPU_API int e1npu_hlo_run(struct e1npu_hlo *h, e1npu_hlo_check_fn fn, void *arg,
			    uint32_t *passed, uint32_t *failed)
{
	struct runctx rc = { fn, arg, 0, 0 };
	struct hlo_func *mf;
	int ret = 0, ran = 0;

	if (!h)
		return -EINVAL;
	h->err[0] = 0;
	h->work = 0;
	hlo_outputs_clear(h);
	/* @main's arguments all bound, or none run: never silently skipped */
	mf = main_func(h);
	for (int a = 0; mf && !mf->called && a < mf->nargs; a++)
		if (!mf->input || !mf->input[a])
			return hlo_errf(h, -ENODATA, "@main (line %d): argument %s (%d of %d) is not bound (e1npu_hlo_set_input)",
					mf->line, mf->vname[a], a, mf->nargs);
	/* the last run's figures of every op, called functions included */
	for (int i = 0; i < h->nfuncs; i++)
		for (int o = 0; o < h->funcs[i]->nops; o++) {
			struct hlo_op *op = &h->funcs[i]->ops[o];

			op->lsb_diff = op->lsb_diff_count = 0;
			op->hw_ops = op->hw_wr = op->hw_dp = 0;
			op->ran_engine = 0;
		}
	for (int i = 0; i < h->nfuncs && !ret; i++) {
		struct hlo_func *f = h->funcs[i];
		struct hlo_tensor *args = NULL, *res;
		int bound = f->nargs > 0 && f->input;

		for (int a = 0; bound && a < f->nargs; a++)
			bound = f->input[a] != NULL;
		if (f->called || (f->nargs && !bound))
			continue;
		res = calloc((size_t)f->nres + 1, sizeof(*res));
		if (f->nargs)
			args = calloc((size_t)f->nargs, sizeof(*args));
		if (!res || (f->nargs && !args)) {
			free(res);
			free(args);
			return -ENOMEM;
		}
		for (int a = 0; a < f->nargs; a++) {
			args[a].t = f->vt[a];
			args[a].n = hlo_nelems(&f->vt[a]);
			args[a].v = f->input[a];
		}
		ret = run_func(h, f, args, res, 0, &rc);
		ran++;
		f->out = res;	/* e1npu_hlo_get_output() */
		free(args);
		hlo_plan_batches(f);
		/* ops of called functions ran too: plan them again */
		for (int k = 0; k < h->nfuncs; k++)
			if (h->funcs[k]->called && h->funcs[k]->section == f->section)
				hlo_plan_batches(h->funcs[k]);
	}
	if (passed)
		*passed = rc.passed;
	if (failed)
		*failed = rc.failed;
	if (ret)
		hlo_outputs_clear(h);	/* partial results are not results */
	if (!ret && !ran)
		ret = hlo_errf(h, -ENODATA, "nothing to run: %s", h->nfuncs ?
			       "every function takes arguments or is called by another" :
			       "the module has no function");
	return ret;
}

E1NPU_API size_t e1npu_hlo_num_ops(const struct e1npu_hlo *h)
{
	return h ? (size_t)h->nrows : 0;
}

E1NPU_API int e1npu_hlo_get_op(const struct e1npu_hlo *h, size_t i,
			       struct e1npu_hlo_op_info *info)
{
	const struct hlo_func *f;
	const struct hlo_op *op;

	if (!h || !info || i >= (size_t)h->nrows)
		return -EINVAL;
	f = h->funcs[h->row_func[i]];
	op = &f->ops[h->row_op[i]];
	memset(info, 0, sizeof(*info));
	info->section = (uint32_t)f->section;
	info->line = (uint32_t)op->line;
	info->engine = (uint32_t)op->engine;
	info->ran_engine = op->ran_engine;
	info->batch = op->batch;
	info->hw_ops = op->hw_ops;
	info->lsb_diff = op->lsb_diff;
	info->lsb_diff_count = op->lsb_diff_count;
	info->arena_offset = op->arena_off;
	info->arena_size = op->arena_size;
	snprintf(info->func, sizeof(info->func), "%s", f->name);
	snprintf(info->op, sizeof(info->op), "%s", op->name);
	if (op->nres >= 1)
		snprintf(info->result, sizeof(info->result), "%s", f->vname[op->res]);
	snprintf(info->api, sizeof(info->api), "%s", op->api ? op->api : "-");
	snprintf(info->why, sizeof(info->why), "%s", op->why);
	return 0;
}

E1NPU_API size_t e1npu_hlo_num_funcs(const struct e1npu_hlo *h)
{
	return h ? (size_t)h->nfuncs : 0;
}

E1NPU_API int e1npu_hlo_get_func(const struct e1npu_hlo *h, size_t i,
				 struct e1npu_hlo_func_info *info)
{
	const struct hlo_func *f;

	if (!h || !info || i >= (size_t)h->nfuncs)
		return -EINVAL;
	f = h->funcs[i];
	memset(info, 0, sizeof(*info));
	info->section = (uint32_t)f->section;
	info->line = (uint32_t)f->line;
	info->num_ops = (uint32_t)f->nops;
	info->num_batches = (uint32_t)f->nbatches;
	info->arena_peak = f->arena_peak;
	info->arena_total = f->arena_total;
	snprintf(info->name, sizeof(info->name), "%s", f->name);
	return 0;
}

E1NPU_API const char *e1npu_hlo_engine_name(uint32_t engine)
{
	switch (engine) {
	case E1NPU_HLO_ENGINE_CPU: return "cpu";
	case E1NPU_HLO_ENGINE_NPU: return "npu";
	case E1NPU_HLO_ENGINE_FUSED: return "fused";
	default: return "none";
	}
}
