// SPDX-License-Identifier: MIT
/* TFLite 2.2's and 2.14's uint8 PRELU (tflite_prelu.h). */
#include <errno.h>

#include "quant.h"
#include "tflite_prelu.h"

int tfl_prelu_prepare(struct tfl_prelu *p, bool tfl214, struct e1npu_qparams qi,
		      struct e1npu_qparams qa, struct e1npu_qparams qo)
{
	/* float * float / float, as 2.2 and 2.14 write it, then widened */
	float real = qi.scale * qa.scale / qo.scale, real1 = qi.scale / qo.scale;

	p->tfl214 = tfl214;
	if (tfl214) {
		if (e1q_quantize_multiplier((double)real, &p->mult, &p->shift) ||
		    e1q_quantize_multiplier((double)real1, &p->mult1, &p->shift1))
			return -ERANGE;
	} else if (!(real > 0.0f) || !(real < 1.0f) ||
		   e1q_quantize_multiplier_smaller_than_one((double)real, &p->mult, &p->shift)) {
		return -ERANGE;
	}
	p->zp_in = qi.zero_point;
	p->zp_alpha = qa.zero_point;
	p->zp_out = qo.zero_point;
	return 0;
}

struct prelu_walk {
	const struct tfl_prelu *p;
	const uint8_t *in, *alpha;
	uint8_t *out;
};

static void prelu_one(void *ctx, size_t ia, size_t ib, size_t io)
{
	const struct prelu_walk *w = ctx;
	int32_t x = (int32_t)w->in[ia] - w->p->zp_in, v;

	if (w->p->tfl214) {
		v = x >= 0 ? e1q_mul_by_qm(x, w->p->mult1, w->p->shift1) :
			     e1q_mul_by_qm(x * ((int32_t)w->alpha[ib] - w->p->zp_alpha),
					   w->p->mult, w->p->shift);
		w->out[io] = (uint8_t)e1q_clamp((int64_t)v + w->p->zp_out, 0, 255);
		return;
	}
	if (x >= 0) {
		w->out[io] = w->in[ia];
		return;
	}
	v = w->p->zp_out + e1q_mul_by_qm_smaller_than_one(x * ((int32_t)w->alpha[ib] -
							      w->p->zp_alpha),
							  w->p->mult, w->p->shift);
	w->out[io] = (uint8_t)e1q_clamp(v, 0, 255);
}

void tfl_prelu_run(const struct tfl_prelu *p, const struct tfl_bcast *bc, const uint8_t *in,
		   const uint8_t *alpha, uint8_t *out)
{
	struct prelu_walk w = { p, in, alpha, out };

	tfl_bcast_for_each(bc, prelu_one, &w);
}
