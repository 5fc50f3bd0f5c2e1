// SPDX-License-Identifier: (GPL-2.0-only OR MIT)
/*
 * v0 wrapper: CONV2D (stride, padding incl. SAME-style asymmetric, dilation,
 * 1x1/3x3/5x5), MAXPOOL 2x2/3x3 stride 1/2, RELU, NOP, BARRIER, each
 * against a naive reference written here, with the exact bytes touched.
 */
#include <stdlib.h>

#include "model-tests-helpers.h"

static s32 rd_s32(const u8 *p)
{
	return (s32)((u32)p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 | (u32)p[3] << 24);
}

static void put_addr(u32 *w, int lo, u64 a)
{
	w[lo] = (u32)a;
	w[lo + 1] = (u32)(a >> 32);
}

struct conv {
	u32 in_h, in_w, c_in, c_out, k, sh, sw, ph, pw, dil, out_h, out_w;
	u32 pad;	/* extra bytes per row stride */
	bool relu;
	u32 diag;	/* weights: 0 dense, else one channel per column (diag_src) */
	bool portable;	/* the model's portable C paths only (no x86 fast path) */
};

/*
 * The input channel column @co reads in a block-diagonal weight matrix:
 * 1: runs as the depthwise packing makes them (outputs, then sums);
 * 2: scrambled, no two neighbours consecutive; 3: as 1 with every third
 * column all zero; 4: four neighbouring columns on one channel, the
 * kernel's last row and column all zero (the phase-packed depthwise).
 */
static u32 diag_src(const struct conv *p, u32 co)
{
	if (p->diag == 4)
		return co / 4 % p->c_in;
	return p->diag == 2 ? (co * 5 + 1) % p->c_in : co % p->c_in;
}

/* Whether weight row @r (tap-major, then channel) is a zero tap of mode 4. */
static bool diag_zero_tap(const struct conv *p, u32 r)
{
	u32 tap = r / p->c_in;

	return p->diag == 4 && p->k > 1 && (tap / p->k == p->k - 1 || tap % p->k == p->k - 1);
}

static void ref_conv(const struct conv *p, const s8 *in, u32 as, const s8 *wt,
		     u32 bs, s32 *out)
{
	u32 oy, ox, co, kh, kw, ci;

	for (oy = 0; oy < p->out_h; oy++)
		for (ox = 0; ox < p->out_w; ox++)
			for (co = 0; co < p->c_out; co++) {
				s32 s = 0;

				for (kh = 0; kh < p->k; kh++)
					for (kw = 0; kw < p->k; kw++) {
						int iy = (int)(oy * p->sh + kh * p->dil) - (int)p->ph;
						int ix = (int)(ox * p->sw + kw * p->dil) - (int)p->pw;

						if (iy < 0 || ix < 0 || iy >= (int)p->in_h ||
						    ix >= (int)p->in_w)
							continue;
						for (ci = 0; ci < p->c_in; ci++)
							s += in[iy * as + ix * p->c_in + ci] *
							     wt[((kh * p->k + kw) * p->c_in + ci) * bs + co];
					}
				if (p->relu && s < 0)
					s = 0;
				out[(oy * p->out_w + ox) * p->c_out + co] = s;
			}
}

/* Run one CONV2D, check it against ref_conv; return PERF_CYCLES. */
static u32 run_conv(const struct conv *p, u32 seed)
{
	struct e1_model_config cfg;
	struct th *h;
	u32 as = th_round16(p->in_w * p->c_in) + p->pad;
	u32 bs = th_round16(p->c_out) + p->pad;
	u32 cs = th_round16(p->out_w * p->c_out * 4) + p->pad;
	u32 krows = p->k * p->k * p->c_in, w[E1_V0_DESC_WORDS], oy, x, cycles;
	u64 a, b, c;
	s32 *ref = calloc((size_t)p->out_h * p->out_w * p->c_out, sizeof(*ref));

	e1_model_default_config(&cfg);
	cfg.portable = p->portable;
	h = th_new(&cfg, 8);
	a = th_alloc(h, (u64)p->in_h * as);
	b = th_alloc(h, (u64)krows * bs);
	c = th_alloc(h, (u64)p->out_h * cs);

	struct th_tensor t[3] = {
		{ a, p->in_h, p->in_w * p->c_in, as, false },
		{ b, krows, p->c_out, bs, false },
		{ c, p->out_h, p->out_w * p->c_out * 4, cs, true },
	};

	assert_non_null(ref);
	th_fill_rand(&seed, th_ptr(h, a), (size_t)p->in_h * as);
	th_fill_rand(&seed, th_ptr(h, b), (size_t)krows * bs);
	for (u32 r = 0; p->diag && r < krows; r++)
		for (u32 co = 0; co < p->c_out; co++)
			if (r % p->c_in != diag_src(p, co) || (p->diag == 3 && co % 3 == 2) ||
			    diag_zero_tap(p, r))
				((s8 *)th_ptr(h, b))[(size_t)r * bs + co] = 0;
	ref_conv(p, th_ptr(h, a), as, th_ptr(h, b), bs, ref);

	memset(w, 0, sizeof(w));
	w[E1_V0_DW_OP] = (p->relu ? E1_V0_OP_CONV2D_S8_RELU : E1_V0_OP_CONV2D_S8) |
			 E1_V0_FLAG_SIGNED_INPUT;
	w[E1_V0_DW_SHAPE_M] = E1_FIELD_PREP(E1_V0_SHAPE_LO, p->in_h) |
			      E1_FIELD_PREP(E1_V0_SHAPE_HI, p->in_w);
	w[E1_V0_DW_SHAPE_N] = E1_FIELD_PREP(E1_V0_SHAPE_LO, p->c_in) |
			      E1_FIELD_PREP(E1_V0_SHAPE_HI, p->c_out);
	w[E1_V0_DW_SHAPE_K] = p->k;
	put_addr(w, E1_V0_DW_A_LO, a);
	put_addr(w, E1_V0_DW_B_LO, b);
	put_addr(w, E1_V0_DW_C_LO, c);
	w[E1_V0_DW_A_STRIDE] = as;
	w[E1_V0_DW_B_STRIDE] = bs;
	w[E1_V0_DW_C_STRIDE] = cs;
	w[E1_V0_DW_CONV_PARAMS] = E1_FIELD_PREP(E1_V0_CONV_STRIDE_H, p->sh) |
				  E1_FIELD_PREP(E1_V0_CONV_STRIDE_W, p->sw) |
				  E1_FIELD_PREP(E1_V0_CONV_PAD_H, p->ph) |
				  E1_FIELD_PREP(E1_V0_CONV_PAD_W, p->pw) |
				  E1_FIELD_PREP(E1_V0_CONV_DILATION, p->dil);
	w[E1_V0_DW_POOL_PARAMS] = E1_FIELD_PREP(E1_V0_SHAPE_LO, p->out_h) |
				  E1_FIELD_PREP(E1_V0_SHAPE_HI, p->out_w);
	th_clear_log(h);
	th_submit(h, w);
	assert_int_equal(th_run(h), 1);
	assert_int_equal(th_err_code(h), 0);
	for (oy = 0; oy < p->out_h; oy++) {
		const u8 *row = (const u8 *)th_ptr(h, c) + (size_t)oy * cs;

		for (x = 0; x < p->out_w * p->c_out; x++) {
			s32 want = ref[oy * p->out_w * p->c_out + x];

			if (rd_s32(row + 4 * x) != want)
				fail_msg("conv out[%u][%u] = %d, want %d", oy, x,
					 rd_s32(row + 4 * x), want);
		}
	}
	th_assert_touched_exactly(h, t, 3);
	assert_int_equal(th_rd(h, E1_V0_PERF_MACS_LO),
			 p->out_h * p->out_w * p->c_out * krows);
	cycles = th_rd(h, E1_V0_PERF_CYCLES);
	free(ref);
	th_free(h);
	return cycles;
}

/* TFLite SAME: out = ceil(in / s), the total pad split top/left first. */
static void same(u32 in, u32 k, u32 s, u32 dil, u32 *out, u32 *pad_lo)
{
	u32 eff = (k - 1) * dil + 1, total;

	*out = (in + s - 1) / s;
	total = (*out - 1) * s + eff > in ? (*out - 1) * s + eff - in : 0;
	*pad_lo = total / 2;
}

static void test_conv_kernels(void **state)
{
	u32 k, seed = 1;

	(void)state;
	for (k = 1; k <= 5; k += 2) {
		struct conv p = {
			.in_h = 9, .in_w = 7, .c_in = 3, .c_out = 5, .k = k,
			.sh = 1, .sw = 1, .dil = 1,
			.out_h = 9 - k + 1, .out_w = 7 - k + 1,
		};

		run_conv(&p, seed++);
		p.relu = true;
		run_conv(&p, seed++);
	}
}

static void test_conv_stride_pad(void **state)
{
	static const u32 cases[][4] = {	/* k, stride_h, stride_w, in */
		{ 3, 2, 2, 8 }, { 3, 1, 2, 7 }, { 5, 2, 1, 9 }, { 5, 2, 2, 8 },
		{ 1, 2, 2, 7 }, { 3, 2, 1, 6 },
	};
	u32 i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct conv p = {
			.in_h = cases[i][3], .in_w = cases[i][3] + 1, .c_in = 4,
			.c_out = 6, .k = cases[i][0], .sh = cases[i][1],
			.sw = cases[i][2], .dil = 1,
		};

		/* SAME, asymmetric when the total pad is odd. */
		same(p.in_h, p.k, p.sh, 1, &p.out_h, &p.ph);
		same(p.in_w, p.k, p.sw, 1, &p.out_w, &p.pw);
		run_conv(&p, 200 + i);
		/* VALID. */
		p.ph = 0;
		p.pw = 0;
		p.out_h = (p.in_h - p.k) / p.sh + 1;
		p.out_w = (p.in_w - p.k) / p.sw + 1;
		run_conv(&p, 300 + i);
	}
}

/*
 * K longer than one packed slice (E1_MM_KB, 512): a slice that starts in
 * the middle of a kernel row or of a tap, and kernel rows wholly inside
 * the image beside clipped ones (the im2col's whole-row copy).
 */
static void test_conv_k_slices(void **state)
{
	static const u32 cases[][4] = {	/* k, stride, dil, c_in */
		{ 3, 1, 1, 61 }, { 3, 2, 1, 100 }, { 5, 1, 1, 23 }, { 3, 1, 2, 200 },
		{ 3, 1, 1, 200 },
	};
	u32 i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct conv p = {
			.in_h = 7, .in_w = 9, .c_in = cases[i][3], .c_out = 5,
			.k = cases[i][0], .sh = cases[i][1], .sw = cases[i][1],
			.dil = cases[i][2], .relu = i % 2,
		};

		same(p.in_h, p.k, p.sh, p.dil, &p.out_h, &p.ph);
		same(p.in_w, p.k, p.sw, p.dil, &p.out_w, &p.pw);
		run_conv(&p, 700 + i);
	}
}

static void test_conv_asymmetric_same(void **state)
{
	/* in 8, k 5, s 2: out 4, total pad 3 = 1 top + 2 bottom. */
	struct conv p = {
		.in_h = 8, .in_w = 8, .c_in = 2, .c_out = 3, .k = 5, .sh = 2,
		.sw = 2, .ph = 1, .pw = 1, .dil = 1, .out_h = 4, .out_w = 4,
	};

	(void)state;
	run_conv(&p, 17);
	/* Pads bigger than needed, whole windows in the padding. */
	p.ph = 4;
	p.pw = 3;
	p.out_h = 6;
	p.out_w = 5;
	run_conv(&p, 18);
}

static void test_conv_dilation(void **state)
{
	struct conv p = {
		.in_h = 12, .in_w = 11, .c_in = 3, .c_out = 4, .k = 3, .sh = 1,
		.sw = 1, .dil = 2,
	};

	(void)state;
	same(p.in_h, p.k, p.sh, p.dil, &p.out_h, &p.ph);
	same(p.in_w, p.k, p.sw, p.dil, &p.out_w, &p.pw);
	run_conv(&p, 21);
	p.k = 5;
	p.dil = 3;
	p.sh = 2;
	p.ph = 0;
	p.pw = 0;
	p.in_h = 16;
	p.in_w = 14;
	p.out_h = (16 - 13) / 2 + 1;
	p.out_w = 14 - 13 + 1;
	run_conv(&p, 22);
}

static void test_conv_channels_and_strides(void **state)
{
	struct conv p = {
		.in_h = 6, .in_w = 5, .c_in = 37, .c_out = 70, .k = 3, .sh = 1,
		.sw = 1, .ph = 1, .pw = 1, .dil = 1, .out_h = 6, .out_w = 5,
		.pad = 32,
	};

	(void)state;
	run_conv(&p, 31);
	/* K = 25 * 40 = 1000 and more: several K slices of the kernel. */
	p.c_in = 40;
	p.k = 5;
	p.ph = 2;
	p.pw = 2;
	run_conv(&p, 32);
}

/*
 * Block-diagonal weights (the depthwise packing of the lowering), which the
 * model computes per column over its own channel only (exec_conv_diag):
 * the same outputs as the naive reference, and the same modelled cycles
 * as dense weights of the same shape (the skipped work is all zero
 * weights; the timing does not depend on the data). Each case runs on
 * the host's fast path (AVX-512 VNNI where the CPU has it: undilated, 16,
 * 32 or 48 columns) and on the portable C path.
 */
static void test_conv_block_diagonal(void **state)
{
	static const u32 cases[][7] = {	/* k, stride, dil, in_h, in_w, c_in, c_out */
		{ 3, 1, 1, 9, 40, 8, 16 }, { 3, 2, 1, 10, 11, 8, 16 },
		{ 3, 1, 2, 12, 13, 16, 16 }, { 5, 2, 1, 11, 9, 4, 12 },
		{ 1, 1, 1, 5, 6, 8, 16 }, { 3, 1, 1, 6, 7, 3, 7 },
		{ 5, 2, 1, 17, 17, 3, 12 }, { 5, 2, 1, 9, 31, 2, 8 },
		{ 3, 2, 1, 9, 21, 32, 32 }, { 5, 1, 1, 8, 19, 16, 48 },
		{ 3, 1, 1, 1, 1, 16, 16 }, { 5, 1, 1, 3, 2, 16, 16 },
	};
	u32 i, mode;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct conv p = {
			.k = cases[i][0], .sh = cases[i][1], .sw = cases[i][1],
			.dil = cases[i][2], .in_h = cases[i][3], .in_w = cases[i][4],
			.c_in = cases[i][5], .c_out = cases[i][6], .relu = i % 2,
		};
		u32 dense;

		same(p.in_h, p.k, p.sh, p.dil, &p.out_h, &p.ph);
		same(p.in_w, p.k, p.sw, p.dil, &p.out_w, &p.pw);
		dense = run_conv(&p, 400 + i);
		for (mode = 1; mode <= 4; mode++) {
			p.diag = mode;
			p.portable = false;
			assert_int_equal(run_conv(&p, 500 + 10 * i + mode), dense);
			p.portable = true;
			assert_int_equal(run_conv(&p, 500 + 10 * i + mode), dense);
		}
	}
}

/* ---- MAXPOOL ---- */

static void run_pool(u32 in_h, u32 in_w, u32 c, u32 win, u32 s, u32 pad, u32 seed)
{
	struct th *h = th_new(NULL, 8);
	u32 out_h = (in_h - win) / s + 1, out_w = (in_w - win) / s + 1;
	u32 as = th_round16(in_w * c) + pad, cs = th_round16(out_w * c) + pad;
	u64 a = th_alloc(h, (u64)in_h * as), o = th_alloc(h, (u64)out_h * cs);
	struct th_tensor t[2] = {
		{ a, in_h, in_w * c, as, false }, { o, out_h, out_w * c, cs, true },
	};
	u32 w[E1_V0_DESC_WORDS], oy, ox, ch, y, x;
	const s8 *in = th_ptr(h, a), *out = th_ptr(h, o);

	th_fill_rand(&seed, th_ptr(h, a), (size_t)in_h * as);
	memset(w, 0, sizeof(w));
	w[E1_V0_DW_OP] = E1_V0_OP_MAXPOOL_S8 | E1_V0_FLAG_SIGNED_INPUT;
	w[E1_V0_DW_SHAPE_M] = E1_FIELD_PREP(E1_V0_SHAPE_LO, in_h) |
			      E1_FIELD_PREP(E1_V0_SHAPE_HI, in_w);
	w[E1_V0_DW_SHAPE_N] = c;
	put_addr(w, E1_V0_DW_A_LO, a);
	put_addr(w, E1_V0_DW_C_LO, o);
	w[E1_V0_DW_A_STRIDE] = as;
	w[E1_V0_DW_C_STRIDE] = cs;
	w[E1_V0_DW_POOL_PARAMS] = E1_FIELD_PREP(E1_V0_POOL_WIN_H, win) |
				  E1_FIELD_PREP(E1_V0_POOL_WIN_W, win) |
				  E1_FIELD_PREP(E1_V0_POOL_STRIDE, s);
	th_clear_log(h);
	th_submit(h, w);
	assert_int_equal(th_run(h), 1);
	assert_int_equal(th_err_code(h), 0);
	for (oy = 0; oy < out_h; oy++)
		for (ox = 0; ox < out_w; ox++)
			for (ch = 0; ch < c; ch++) {
				int best = -1000;

				for (y = 0; y < win; y++)
					for (x = 0; x < win; x++) {
						int v = in[(oy * s + y) * as + (ox * s + x) * c + ch];

						best = v > best ? v : best;
					}
				assert_int_equal(out[oy * cs + ox * c + ch], best);
			}
	th_assert_touched_exactly(h, t, 2);
	th_free(h);
}

static void test_maxpool(void **state)
{
	u32 win, s, seed = 40;

	(void)state;
	for (win = 2; win <= 3; win++)
		for (s = 1; s <= 2; s++) {
			run_pool(9, 8, 3, win, s, 0, seed++);
			run_pool(7, 10, 17, win, s, 16, seed++);
			run_pool(win, win, 1, win, s, 0, seed++);
		}
}

/* ---- RELU ---- */

static void test_relu(void **state)
{
	static const u32 shapes[][3] = { { 1, 1, 0 }, { 5, 33, 16 }, { 64, 100, 0 } };
	u32 i, r, j, seed = 50;

	(void)state;
	for (i = 0; i < 3; i++) {
		struct th *h = th_new(NULL, 4);
		u32 m = shapes[i][0], n = shapes[i][1], st = th_round16(n) + shapes[i][2];
		u64 a = th_alloc(h, (u64)m * st), c = th_alloc(h, (u64)m * st);
		struct th_tensor t[2] = { { a, m, n, st, false }, { c, m, n, st, true } };
		u32 w[E1_V0_DESC_WORDS];
		const s8 *in = th_ptr(h, a), *out = th_ptr(h, c);

		th_fill_rand(&seed, th_ptr(h, a), (size_t)m * st);
		memset(w, 0, sizeof(w));
		w[E1_V0_DW_OP] = E1_V0_OP_RELU | E1_V0_FLAG_SIGNED_INPUT;
		w[E1_V0_DW_SHAPE_M] = m;
		w[E1_V0_DW_SHAPE_N] = n;
		put_addr(w, E1_V0_DW_A_LO, a);
		put_addr(w, E1_V0_DW_C_LO, c);
		w[E1_V0_DW_A_STRIDE] = st;
		w[E1_V0_DW_C_STRIDE] = st;
		th_clear_log(h);
		th_submit(h, w);
		assert_int_equal(th_run(h), 1);
		for (r = 0; r < m; r++)
			for (j = 0; j < n; j++)
				assert_int_equal(out[r * st + j],
						 in[r * st + j] < 0 ? 0 : in[r * st + j]);
		th_assert_touched_exactly(h, t, 2);
		th_free(h);
	}
}

static void test_relu_in_place(void **state)
{
	struct th *h = th_new(NULL, 4);
	u64 a = th_alloc(h, 64);
	s8 *p = th_ptr(h, a);
	u32 w[E1_V0_DESC_WORDS], i;

	(void)state;
	for (i = 0; i < 64; i++)
		p[i] = (s8)(i * 37 - 100);
	memset(w, 0, sizeof(w));
	w[E1_V0_DW_OP] = E1_V0_OP_RELU | E1_V0_FLAG_SIGNED_INPUT;
	w[E1_V0_DW_SHAPE_M] = 4;
	w[E1_V0_DW_SHAPE_N] = 16;
	put_addr(w, E1_V0_DW_A_LO, a);
	put_addr(w, E1_V0_DW_C_LO, a);
	w[E1_V0_DW_A_STRIDE] = 16;
	w[E1_V0_DW_C_STRIDE] = 16;
	th_submit(h, w);
	assert_int_equal(th_run(h), 1);
	for (i = 0; i < 64; i++) {
		s8 v = (s8)(i * 37 - 100);

		assert_int_equal(p[i], v < 0 ? 0 : v);
	}
	th_free(h);
}

/* ---- NOP, BARRIER ---- */

static void test_nop_barrier(void **state)
{
	struct th *h = th_new(NULL, 8);
	u32 w[E1_V0_DESC_WORDS];
	u32 c0, c1, c2;

	(void)state;
	th_desc_nop(w, E1_V0_OP_NOP);
	w[E1_V0_DW_TAG] = 0x1111;
	/* Ignored fields really are ignored. */
	w[E1_V0_DW_SHAPE_M] = 0xffffffff;
	w[E1_V0_DW_CONV_PARAMS] = 0xffffffff;
	th_clear_log(h);
	th_submit(h, w);
	assert_int_equal(th_run(h), 1);
	assert_int_equal(th_rd(h, E1_V0_COMPLETION_TAG), 0x1111);
	th_assert_touched_exactly(h, NULL, 0);
	c0 = th_rd(h, E1_V0_PERF_CYCLES);
	assert_int_equal(c0, E1_TIMING_DESC_FETCH);

	th_desc_nop(w, E1_V0_OP_BARRIER);
	w[E1_V0_DW_TAG] = 0x2222;
	th_submit(h, w);
	assert_int_equal(th_run(h), 1);
	assert_int_equal(th_rd(h, E1_V0_COMPLETION_TAG), 0x2222);
	c1 = th_rd(h, E1_V0_PERF_CYCLES);
	assert_int_equal(c1 - c0, E1_TIMING_DESC_FETCH + E1_TIMING_BARRIER);

	/* The barrier flag costs the same drain on any descriptor. */
	th_desc_nop(w, E1_V0_OP_NOP);
	w[E1_V0_DW_OP] |= E1_V0_FLAG_BARRIER;
	th_submit(h, w);
	assert_int_equal(th_run(h), 1);
	c2 = th_rd(h, E1_V0_PERF_CYCLES);
	assert_int_equal(c2 - c1, E1_TIMING_DESC_FETCH + E1_TIMING_BARRIER);
	assert_int_equal(th_rd(h, E1_V0_PERF_MACS_LO), 0);
	assert_int_equal(e1_model_cycles(h->m), c2);
	th_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_conv_kernels),
		cmocka_unit_test(test_conv_stride_pad),
		cmocka_unit_test(test_conv_asymmetric_same),
		cmocka_unit_test(test_conv_k_slices),
		cmocka_unit_test(test_conv_dilation),
		cmocka_unit_test(test_conv_channels_and_strides),
		cmocka_unit_test(test_conv_block_diagonal),
		cmocka_unit_test(test_maxpool),
		cmocka_unit_test(test_relu),
		cmocka_unit_test(test_relu_in_place),
		cmocka_unit_test(test_nop_barrier),
	};

	return cmocka_run_group_tests_name("v0-ops", tests, NULL, NULL);
}
