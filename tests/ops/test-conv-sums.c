// SPDX-License-Identifier: MIT
/*
 * The input window sums of a convolution (conv_sums.c, cv_host_sums)
 * against a naive loop over every output pixel, group and tap (out-of-image
 * taps counted as the pad value): each of its paths, the separable ones
 * (depthwise, one group), the 1x1 one (AVX-512: 8, 16, 32 and multiples
 * of 64 channels, tails of a vector), and the per-tap one for everything
 * else (dilated, grouped), on random shapes and extreme values.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "conv_internal.h"

static uint32_t rnd(void)
{
	static uint32_t s = 0x2545f491;

	s ^= s << 13;
	s ^= s >> 17;
	s ^= s << 5;
	return s;
}

struct shape {
	uint32_t in_h, in_w, c, groups, kh, kw, sh, sw, dh, dw, pt, pl, out_h, out_w;
};

static void naive(const struct shape *s, const int8_t *x, int32_t pad, int32_t *want)
{
	uint32_t cg = s->c / s->groups;

	for (uint32_t oy = 0; oy < s->out_h; oy++)
		for (uint32_t ox = 0; ox < s->out_w; ox++)
			for (uint32_t g = 0; g < s->groups; g++) {
				int32_t v = 0;

				for (uint32_t ky = 0; ky < s->kh; ky++)
					for (uint32_t kx = 0; kx < s->kw; kx++) {
						int64_t iy = (int64_t)oy * s->sh - s->pt + ky * s->dh;
						int64_t ix = (int64_t)ox * s->sw - s->pl + kx * s->dw;
						bool in = iy >= 0 && iy < s->in_h && ix >= 0 &&
							  ix < s->in_w;

						for (uint32_t j = 0; j < cg; j++)
							v += in ? x[((size_t)iy * s->in_w + ix) * s->c +
								    g * cg + j] : pad;
					}
				want[((size_t)oy * s->out_w + ox) * s->groups + g] = v;
			}
}

static void check(const struct shape *s, int how, int32_t pad)
{
	size_t nx = (size_t)s->in_h * s->in_w * s->c;
	size_t ns = (size_t)s->out_h * s->out_w * s->groups;
	int8_t *x = malloc(nx);
	int32_t *got = malloc(ns * sizeof(*got)), *want = malloc(ns * sizeof(*want));
	struct e1npu_conv cv;

	assert_non_null(x);
	assert_non_null(got);
	assert_non_null(want);
	for (size_t i = 0; i < nx; i++)
		x[i] = how == 1 ? -128 : how == 2 ? 127 : (int8_t)rnd();
	memset(&cv, 0, sizeof(cv));
	cv.p.in_h = s->in_h;
	cv.p.in_w = s->in_w;
	cv.p.c_in = s->c;
	cv.p.c_out = s->c;
	cv.p.kh = s->kh;
	cv.p.kw = s->kw;
	cv.p.stride_h = s->sh;
	cv.p.stride_w = s->sw;
	cv.p.dil_h = s->dh;
	cv.p.dil_w = s->dw;
	cv.groups = s->groups;
	cv.cin_g = s->c / s->groups;
	cv.cout_g = 1;
	cv.out_h = s->out_h;
	cv.out_w = s->out_w;
	cv.pt = s->pt;
	cv.pl = s->pl;
	naive(s, x, pad, want);
	memset(got, 0x5a, ns * sizeof(*got));
	cv_host_sums(&cv, x, got, pad);
	for (size_t i = 0; i < ns; i++)
		if (got[i] != want[i])
			fail_msg("in %ux%ux%u g %u k %ux%u s %u/%u d %u/%u pad %u/%u: sum %zu = %d, want %d",
				 s->in_h, s->in_w, s->c, s->groups, s->kh, s->kw, s->sh, s->sw,
				 s->dh, s->dw, s->pt, s->pl, i, got[i], want[i]);
	free(x);
	free(got);
	free(want);
}

/* out = how many windows of the padded axis fit. */
static uint32_t axis_out(uint32_t in, uint32_t k, uint32_t st, uint32_t d, uint32_t lo,
			 uint32_t hi)
{
	uint32_t eff = (k - 1) * d + 1;

	return in + lo + hi < eff ? 0 : (in + lo + hi - eff) / st + 1;
}

/* @kind: 0 depthwise, 1 1x1, 2 one group, 3 groups of 2..4 channels */
static void random_shape(struct shape *s, int kind)
{
	static const uint32_t cs[] = { 1, 3, 8, 16, 24, 32, 64, 72, 128, 192 };
	bool onebyone = kind == 1;
	uint32_t ph, pw;

	memset(s, 0, sizeof(*s));
	s->c = cs[rnd() % 10];
	s->groups = kind == 0 ? s->c : 1;
	if (kind == 3) {
		s->c = 12 * (1 + rnd() % 4);
		s->groups = s->c / (2 + rnd() % 3);
	}
	s->kh = onebyone ? 1 : 1 + rnd() % 5;
	s->kw = onebyone ? 1 : 1 + rnd() % 5;
	s->sh = onebyone ? 1 : 1 + rnd() % 2;
	s->sw = onebyone ? 1 : 1 + rnd() % 2;
	s->dh = rnd() % 5 ? 1 : 2;
	s->dw = rnd() % 5 ? 1 : 2;
	s->in_h = 1 + rnd() % 13;
	s->in_w = 1 + rnd() % 19;
	s->pt = onebyone ? 0 : rnd() % (s->kh + 1);
	s->pl = onebyone ? 0 : rnd() % (s->kw + 1);
	ph = onebyone ? 0 : rnd() % (s->kh + 1);
	pw = onebyone ? 0 : rnd() % (s->kw + 1);
	s->out_h = axis_out(s->in_h, s->kh, s->sh, s->dh, s->pt, ph);
	s->out_w = axis_out(s->in_w, s->kw, s->sw, s->dw, s->pl, pw);
	if (!s->out_h || !s->out_w) {
		s->kh = s->kw = s->dh = s->dw = 1;
		s->pt = s->pl = 0;
		s->out_h = (s->in_h - 1) / s->sh + 1;
		s->out_w = (s->in_w - 1) / s->sw + 1;
	}
}

static void test_sums_random(void **state)
{
	struct shape s;

	(void)state;
	for (int t = 0; t < 800; t++) {
		int how = t % 17 == 0 ? 1 + t / 17 % 2 : 0;
		int32_t pad = t % 3 == 0 ? 0 : (int32_t)(rnd() % 256) - 128;

		random_shape(&s, t % 4);
		check(&s, how, pad);
	}
}

/* 1x1 over every channel count around the vector paths, pixel tails of each. */
static void test_sums_1x1(void **state)
{
	static const uint32_t cs[] = { 1, 7, 8, 9, 15, 16, 17, 24, 31, 32, 33, 48, 63, 64, 65,
				       128, 256, 320 };

	(void)state;
	for (size_t i = 0; i < sizeof(cs) / sizeof(cs[0]); i++)
		for (uint32_t n = 1; n <= 19; n += 3) {
			struct shape s = {
				.in_h = 1, .in_w = n, .c = cs[i], .groups = 1, .kh = 1, .kw = 1,
				.sh = 1, .sw = 1, .dh = 1, .dw = 1, .out_h = 1, .out_w = n,
			};

			check(&s, 0, 0);
			check(&s, 1, 0);
			check(&s, 2, 0);
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sums_random),
		cmocka_unit_test(test_sums_1x1),
	};

	return cmocka_run_group_tests_name("conv-sums", tests, NULL, NULL);
}
