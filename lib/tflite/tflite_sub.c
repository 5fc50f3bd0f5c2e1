// SPDX-License-Identifier: MIT
/* TFLite 2.2's quantized SUB (tflite_sub.h), reference SubElementwise. */
#include <errno.h>

#include "tflite_sub.h"

int tfl_sub_prepare(struct tfl_sub *s, bool uint8, uint32_t act,
		    struct e1npu_qparams qa, struct e1npu_qparams qb,
		    struct e1npu_qparams qo)
{
	if (!(qo.scale > 0) || !(qa.scale > 0) || !(qb.scale > 0) ||
	    e1q_add_rescale(qa.scale, qb.scale, qo.scale, &s->rs))
		return -EINVAL;
	s->uint8 = uint8;
	s->sign = -1;
	s->za = qa.zero_point;
	s->zb = qb.zero_point;
	s->zo = qo.zero_point;
	e1q_activation_range((enum e1q_act)act, qo.scale, qo.zero_point,
			     uint8 ? 0 : -128, uint8 ? 255 : 127, &s->lo, &s->hi);
	return 0;
}

int tfl_add_prepare(struct tfl_sub *s, bool uint8, uint32_t act,
		    struct e1npu_qparams qa, struct e1npu_qparams qb,
		    struct e1npu_qparams qo)
{
	int ret = tfl_sub_prepare(s, uint8, act, qa, qb, qo);

	s->sign = 1;
	return ret;
}

static int32_t ld(const struct tfl_sub *s, const void *p, size_t i)
{
	return s->uint8 ? ((const uint8_t *)p)[i] : ((const int8_t *)p)[i];
}

struct walk {
	const struct tfl_sub *s;
	const void *a, *b;
	void *out;
};

static void one(void *ctx, size_t ia, size_t ib, size_t io)
{
	const struct walk *w = ctx;
	const struct tfl_sub *s = w->s;
	const int shl = 1 << E1Q_ADD_LEFT_SHIFT;
	/* |x| <= 255, times 2^20: inside int32 */
	int32_t x = e1q_mul_by_qm_smaller_than_one((ld(s, w->a, ia) - s->za) * shl,
						   s->rs.ma, s->rs.sa);
	int32_t y = e1q_mul_by_qm_smaller_than_one((ld(s, w->b, ib) - s->zb) * shl,
						   s->rs.mb, s->rs.sb);
	int32_t v = e1q_mul_by_qm_smaller_than_one(x + s->sign * y, s->rs.mo, s->rs.so) + s->zo;

	v = v < s->lo ? s->lo : v > s->hi ? s->hi : v;
	if (s->uint8)
		((uint8_t *)w->out)[io] = (uint8_t)v;
	else
		((int8_t *)w->out)[io] = (int8_t)v;
}

void tfl_sub_run(const struct tfl_sub *s, const struct tfl_bcast *bc, const void *a,
		 const void *b, void *out)
{
	struct walk w = { s, a, b, out };

	tfl_bcast_for_each(bc, one, &w);
}
