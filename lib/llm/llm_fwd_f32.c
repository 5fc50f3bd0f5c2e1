// SPDX-License-Identifier: MIT
/*
 * libe1npu language models: the float32 reference path (llm_fwd_tmpl.h
 * in float), on the checkpoint's own tensors.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "llm_internal.h"

#define REAL	float
#define FN(n)	f32_##n
#define SQRT	sqrtf
#define EXP	expf
#define POW	powf
#define COS	cosf
#define SIN	sinf
#include "llm_fwd_tmpl.h"

struct llm_f32 {
	struct f32_state s;
};

int llm_f32_alloc(struct e1npu_llm *l)
{
	struct llm_f32 *f = calloc(1, sizeof(*f));
	int ret;

	if (!f)
		return llm_seterr(l, -ENOMEM, "out of memory");
	l->f32 = f;
	f->s.emb = l->w.emb;
	f->s.rms_att = l->w.rms_att;
	f->s.wq = l->w.wq;
	f->s.wk = l->w.wk;
	f->s.wv = l->w.wv;
	f->s.wo = l->w.wo;
	f->s.rms_ffn = l->w.rms_ffn;
	f->s.w1 = l->w.w1;
	f->s.w2 = l->w.w2;
	f->s.w3 = l->w.w3;
	f->s.rms_final = l->w.rms_final;
	f->s.wcls = l->w.wcls;
	ret = f32_state_alloc(l, &f->s);
	if (!ret)
		l->logits = f->s.logits;
	return ret;
}

void llm_f32_free(struct e1npu_llm *l)
{
	if (!l->f32)
		return;
	f32_state_free(&l->f32->s);
	free(l->f32);
	l->f32 = NULL;
}

void llm_f32_forward(struct e1npu_llm *l, int32_t tok, uint32_t pos)
{
	f32_forward(&l->cfg, l->head_size, l->kv_dim, &l->f32->s, tok, pos);
}
