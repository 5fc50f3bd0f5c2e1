/* SPDX-License-Identifier: MIT */
/*
 * Internals of the convolution lowerings: the prepared convolution, its
 * CONV2D_S8 blocks (conv.c) and its patch-Toeplitz MATMUL plan
 * (conv_mm.c), and the host-side helpers both share.
 */
#ifndef __E1NPU_OPS_CONV_INTERNAL_H__
#define __E1NPU_OPS_CONV_INTERNAL_H__

#include <stdbool.h>
#include <stdint.h>

#include "e1npu_hw.h"
#include "ops_internal.h"

/* The CONV2D_S8 envelope (hardware-contract.md) and the array's width. */
#define CV_HW_MAX	((uint32_t)E1_V0_MAX_CONV_HW)
#define CV_C_MAX	((uint32_t)E1_V0_MAX_CONV_C)
#define CV_COLS		16u	/* systolic array columns */

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
/* Per-pixel loops over channels: AVX2/AVX-512 builds, vectorized at -O2 */
#define CV_VEC __attribute__((target_clones("default", "avx2", "arch=x86-64-v4"), \
			      optimize("tree-vectorize", "vect-cost-model=dynamic")))
#else
#define CV_VEC
#endif

/* One block-diagonal CONV2D_S8 weight block: whole groups side by side. */
struct cv_block {
	uint32_t g0, gb;	/* groups g0 .. g0+gb-1 */
	uint32_t ci_lo, ci_n;	/* input channels of each group used */
	uint32_t oc_lo, oc_n;	/* output channels of each group (gb == 1 may split) */
	uint32_t cin_b, cols;	/* hardware c_in, c_out */
	bool sums;		/* "first" lowering: one all-ones column per group */
	int8_t *w;		/* [K*K*cin_b][cols] */
};

/*
 * The patch-Toeplitz MATMUL form: each A row holds the input patch of a
 * bh x bw block of outputs for gs stacked groups (K = gs * ph * pw *
 * cin_g bytes, out-of-image taps staged as the input zero point); B holds
 * each output's kernel shifted to its place in the patch (N = gs * bh *
 * bw * cout_g columns). One A/B pair per stack of groups; M = blocks.
 */
struct cv_mm {
	uint32_t bh, bw;	/* outputs per A row */
	uint32_t gs;		/* groups stacked per MATMUL */
	uint32_t ph, pw;	/* input patch of one block */
	uint32_t nby, nbx, m;	/* blocks: rows, columns, total (M) */
	uint32_t nstack;	/* stacks of gs groups (the last may be short) */
	uint32_t n_desc;	/* MATMUL descriptors per run */
	int8_t *b;		/* per stack [K][ldb], K and ldb of a full stack */
	uint64_t cost;		/* modelled wrapper cycles */
	/*
	 * Pixel-packed variant (conv_pk.c): each stack is one CONV2D_S8 over
	 * the input repacked as pq x pp pixels per channel, so the array does
	 * the patch expansion and only the raw input moves.
	 */
	bool pk;
	uint32_t pq, pp;	/* pk: input rows, columns per packed pixel */
	uint32_t pk_k;		/* pk: the window, 3 (or 5 where pq or pp is 1) */
};

struct e1npu_conv {
	struct e1npu_ops *ops;
	bool ops_held;		/* a reference on ops, taken on success */
	struct e1npu_conv_params p;
	uint32_t groups, cin_g, cout_g;
	uint32_t out_h, out_w, pt, pl;
	uint32_t ksize;		/* hardware kernel (embedding), 0: CPU only */
	const char *cpu_why;	/* why the hardware cannot run it */
	struct cv_block *blk;
	uint32_t nblk;
	uint64_t conv2d_cost;	/* modelled cycles of the CONV2D_S8 form */
	/*
	 * The CONV2D_S8 form's output tiles per axis (0: the fewest the
	 * 256-pixel limit allows); more tiles are more descriptors, whose
	 * loads and stores overlap each other's compute.
	 */
	uint32_t tiles_h, tiles_w;
	/* its output channels per block (0: up to 512), halvings of cout_g */
	uint32_t oc_split, oc_halvings;
	bool use_mm;		/* run as patch-Toeplitz MATMULs */
	struct cv_mm mm;
	int8_t *w;		/* int8 weights, [kh][kw][cin_g][c_out] */
	int32_t *tapsum;	/* [kh*kw][c_out]: a border pixel's taps by channel */
	int32_t *fold;		/* bias + full-window correction, per c_out */
	int32_t *total;		/* sum of all taps, per c_out */
	int32_t *mult;
	int *shift;
	int32_t zx, zw, lo, hi;
};

/*
 * conv_pk.c, the pixel-packed variant of the form (single-channel groups,
 * 3x3, stride and dilation 1, even blocks of at least 2x2): a bh x bw
 * block of outputs is one CONV2D_S8 output pixel of bh * bw columns. Its
 * input is packed (bh/2) x (bw/2) pixels per channel; a 3x3 window at
 * stride 2 of those (5x5 where a block is 2 high or wide) covers the
 * block's patch, so B is the MATMUL form's with its rows reordered (zero
 * rows where the window passes the patch).
 */
/* Whether @f (bh, bw, gs, nby, nbx set) fits; sets pq, pp and pk. */
bool cvpk_fits(const struct e1npu_conv *cv, struct cv_mm *f);
/* Cost, descriptors and staging bound of @f (cvpk_fits() true); false: too big. */
bool cvpk_cost(const struct e1npu_conv *cv, struct cv_mm *f);
/* Rows of one stack's B (K of a full stack). */
size_t cvpk_k(const struct cv_mm *f);
/* Bytes of one stack's packed input, and its row stride. */
size_t cvpk_a_bytes(const struct cv_mm *f, size_t *lda);
/* B of stack @s (@ng groups) from the MATMUL form's @bmm (K rows of @ldb). */
void cvpk_b_from_mm(const struct e1npu_conv *cv, const int8_t *bmm, int8_t *dst,
		    uint32_t ng, size_t ldb);
/*
 * Stage groups @g0 .. @g0 + @ng - 1 packed into @dst (cvpk_a_bytes()),
 * from their planes (@planes, or @x itself for one input channel).
 */
void cvpk_stage(const struct e1npu_conv *cv, const int8_t *x, const int8_t *planes,
		int8_t *dst, uint32_t g0, uint32_t ng);
/* The CONV2D_S8 of a stack of @ng groups, its C pixel by pixel (@ng * bh * bw int32). */
void cvpk_desc(const struct e1npu_conv *cv, struct e1npu_op_desc *d, size_t a_off,
	       size_t b_off, size_t c_off, uint32_t ng);

/* conv_mm.c: pick the cheapest MATMUL form (false: none fits the limits). */
bool cvmm_choose(struct e1npu_conv *cv);
/*
 * conv_mm.c: take the form of @bh x @bw-output blocks, @gs groups stacked,
 * if the search would have tried it (false: out of its limits).
 */
bool cvmm_set(struct e1npu_conv *cv, uint32_t bh, uint32_t bw, uint32_t gs, bool pk);
/* conv_mm.c: build the B matrices of the chosen form. */
int cvmm_prepare(struct e1npu_conv *cv);
/* conv_mm.c: the bytes of the chosen form's B matrices. */
size_t cvmm_b_bytes(const struct e1npu_conv *cv);
/* conv_mm.c: the B matrices copied from @src (exactly cvmm_b_bytes() bytes). */
int cvmm_prepare_from(struct e1npu_conv *cv, const void *src, size_t size);
void cvmm_free(struct e1npu_conv *cv);
/*
 * conv_mm.c: run on the wrapper: int8 input @x, raw accumulators into
 * @acc ([pixel][c_out], out-of-image taps counted at the zero point).
 * Where each C row is one pixel's accumulators in order (1x1 blocks, one
 * stack) they are instead finished in place into @out with the window
 * sums @sx, and *@finished is set.
 */
int cvmm_run(struct e1npu_conv *cv, const int8_t *x, int32_t *acc,
	     const int32_t *sx, void *out, bool *finished,
	     struct e1npu_ops_report *rep);
/*
 * conv_finish.c: fold + requantization into @out, with the window sums @sx
 * (groups per pixel): of every pixel's row of @ldc bytes in @c (the
 * MATMUL form, every window full) ...
 */
void cv_finish_rows(const struct e1npu_conv *cv, uint8_t *c, size_t ldc,
		    const int32_t *sx, void *out);
/* ... of the layer's accumulators @acc ([pixel][c_out]) ... */
void cv_finish(const struct e1npu_conv *cv, int32_t *acc, const int32_t *sx,
	       void *out);
/* ... and of the @th x @tw pixels from (@oy0, @ox0) of one patch in @src. */
void cv_finish_patch(const struct e1npu_conv *cv, uint8_t *src, uint32_t stride,
		     uint32_t oy0, uint32_t ox0, uint32_t th, uint32_t tw,
		     const int32_t *sx, void *out);

/*
 * conv_sums.c: window sums of @x per output pixel and group into @sx: the valid
 * taps' inputs plus @pad for each out-of-image tap and input channel.
 */
void cv_host_sums(const struct e1npu_conv *cv, const int8_t *x, int32_t *sx,
		  int32_t pad);

/*
 * conv_tiles.c, the CONV2D_S8 form's output tiles: tiles_h x tiles_w of
 * them (0: the fewest the 256-pixel input span allows, cv_min_tiles()),
 * balanced; one descriptor per block and tile.
 */
/* The input rows/columns one output tile reads, and its leading pads. */
struct cv_tile {
	uint32_t h, w;		/* output tile (clipped at the edges) */
	uint32_t r0, c0, ih, iw, ptop, pleft;
};

/* The tile of outputs from (@oy0, @ox0), at most @th x @tw, into @tl. */
void cv_tile_geo(const struct e1npu_conv *cv, uint32_t oy0, uint32_t ox0,
		 uint32_t th, uint32_t tw, struct cv_tile *tl);
/* The fewest tiles per axis. */
void cv_min_tiles(const struct e1npu_conv *cv, uint32_t *nh, uint32_t *nw);
/* The tile size of @cv's tiling. */
void cv_tiles(const struct e1npu_conv *cv, uint32_t *th, uint32_t *tw);
/* Modelled cycles of the form in @cv's blocks and tiling. */
uint64_t cv_conv2d_cost(const struct e1npu_conv *cv);
/* The cheapest tiling for @cv's blocks: sets tiles_h, tiles_w, conv2d_cost. */
void cv_choose_tiles(struct e1npu_conv *cv);
/*
 * Output channels per block after @halvings halvings of cout_g (0 for
 * none, or when it cannot be halved that often).
 */
uint32_t cv_oc_split_of(const struct e1npu_conv *cv, uint32_t halvings);
/* A stored tiling, checked as the search would have allowed it. */
int cv_take_tiles(struct e1npu_conv *cv, uint32_t nh, uint32_t nw);

#endif /* __E1NPU_OPS_CONV_INTERNAL_H__ */
