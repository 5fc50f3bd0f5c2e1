// SPDX-License-Identifier: MIT
/* TFLite 2.2's quantized MUL (tflite_mul.h). */
#include <errno.h>

#include "quant.h"
#include "tflite_mul.h"

int tfl_mul_prepare(struct tfl_mul *m, bool uint8, uint32_t act,
		    struct e1npu_qparams qa, struct e1npu_qparams qb,
		    struct e1npu_qparams qo)
{
	/* mul.cc: double real_multiplier = s1 * s2 / s_out, all three float */
	float real = qa.scale * qb.scale / qo.scale;

	if (!(qo.scale > 0) || e1q_quantize_multiplier((double)real, &m->mult, &m->shift))
		return -EINVAL;
	m->uint8 = uint8;
	m->za = qa.zero_point;
	m->zb = qb.zero_point;
	m->zo = qo.zero_point;
	e1q_activation_range((enum e1q_act)act, qo.scale, qo.zero_point,
			     uint8 ? 0 : -128, uint8 ? 255 : 127, &m->lo, &m->hi);
	return 0;
}

static int32_t ld(const struct tfl_mul *m, const void *p, size_t i)
{
	return m->uint8 ? ((const uint8_t *)p)[i] : ((const int8_t *)p)[i];
}

struct walk {
	const struct tfl_mul *m;
	const void *a, *b;
	void *out;
};

static void one(void *ctx, size_t ia, size_t ib, size_t io)
{
	const struct walk *w = ctx;
	const struct tfl_mul *m = w->m;
	/* |product| <= 255 * 255: no int32 overflow */
	int32_t p = (ld(m, w->a, ia) - m->za) * (ld(m, w->b, ib) - m->zb);
	int32_t v = m->zo + e1q_mul_by_qm(p, m->mult, m->shift);

	v = v < m->lo ? m->lo : v > m->hi ? m->hi : v;
	if (m->uint8)
		((uint8_t *)w->out)[io] = (uint8_t)v;
	else
		((int8_t *)w->out)[io] = (int8_t)v;
}

void tfl_mul_run(const struct tfl_mul *m, const struct tfl_bcast *bc, const void *a,
		 const void *b, void *out)
{
	struct walk w = { m, a, b, out };

	tfl_bcast_for_each(bc, one, &w);
}
