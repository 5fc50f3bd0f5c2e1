// SPDX-License-Identifier: MIT
/*
 * libe1npu language models: the float64 path (llm_fwd_tmpl.h in double),
 * on a double copy of the checkpoint's tensors; its logits are rounded to
 * float for the caller.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "llm_internal.h"

#define REAL	double
#define FN(n)	f64_##n
#define SQRT	sqrt
#define EXP	exp
#define POW	pow
#define COS	cos
#define SIN	sin
#include "llm_fwd_tmpl.h"

struct llm_f64 {
	struct f64_state s;
	double *w;
	float *logits;
};

static const double *rebase(const struct e1npu_llm *l, const double *w,
			    const float *p)
{
	return w + (p - l->wdata);
}

int llm_f64_alloc(struct e1npu_llm *l)
{
	struct llm_f64 *f = calloc(1, sizeof(*f));

	if (!f)
		return llm_seterr(l, -ENOMEM, "out of memory");
	l->f64 = f;
	f->w = malloc((l->wcount ? l->wcount : 1) * sizeof(double));
	f->logits = calloc(l->cfg.vocab_size, sizeof(float));
	if (!f->w || !f->logits)
		return llm_seterr(l, -ENOMEM, "out of memory for %zu float64 weights", l->wcount);
	for (size_t i = 0; i < l->wcount; i++)
		f->w[i] = l->wdata[i];
	f->s.emb = rebase(l, f->w, l->w.emb);
	f->s.rms_att = rebase(l, f->w, l->w.rms_att);
	f->s.wq = rebase(l, f->w, l->w.wq);
	f->s.wk = rebase(l, f->w, l->w.wk);
	f->s.wv = rebase(l, f->w, l->w.wv);
	f->s.wo = rebase(l, f->w, l->w.wo);
	f->s.rms_ffn = rebase(l, f->w, l->w.rms_ffn);
	f->s.w1 = rebase(l, f->w, l->w.w1);
	f->s.w2 = rebase(l, f->w, l->w.w2);
	f->s.w3 = rebase(l, f->w, l->w.w3);
	f->s.rms_final = rebase(l, f->w, l->w.rms_final);
	f->s.wcls = rebase(l, f->w, l->w.wcls);
	l->logits = f->logits;
	return f64_state_alloc(l, &f->s);
}

void llm_f64_free(struct e1npu_llm *l)
{
	if (!l->f64)
		return;
	f64_state_free(&l->f64->s);
	free(l->f64->w);
	free(l->f64->logits);
	free(l->f64);
	l->f64 = NULL;
}

void llm_f64_forward(struct e1npu_llm *l, int32_t tok, uint32_t pos)
{
	f64_forward(&l->cfg, l->head_size, l->kv_dim, &l->f64->s, tok, pos);
	for (uint32_t i = 0; i < l->cfg.vocab_size; i++)
		l->f64->logits[i] = (float)l->f64->s.logits[i];
}
