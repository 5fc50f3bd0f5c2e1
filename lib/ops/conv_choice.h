/* SPDX-License-Identifier: MIT */
/*
 * A convolution's lowering choice, as a compiled-model artifact stores it
 * (lib/tflite/tflite_artifact.c): which form e1npu_conv_new() picked and,
 * for the MATMUL form, its block and stacking. Giving it back skips the
 * cost-model search, the larger part of loading a model. Internal to the
 * build: not in libe1npu.sym.
 */
#ifndef __E1NPU_OPS_CONV_CHOICE_H__
#define __E1NPU_OPS_CONV_CHOICE_H__

#include <stdint.h>

#include <e1npu/e1npu_ops.h>

enum ops_conv_form {
	OPS_CONV_FORM_CPU = 0,		/* the hardware cannot run it */
	OPS_CONV_FORM_CONV2D = 1,	/* CONV2D_S8 blocks */
	OPS_CONV_FORM_MATMUL = 2,	/* patch-Toeplitz MATMUL_S8 */
	OPS_CONV_FORM_PACKED = 3,	/* its pixel-packed CONV2D_S8 variant */
};

struct ops_conv_choice {
	uint32_t form;			/* enum ops_conv_form */
	/*
	 * MATMUL and packed: outputs per block, groups stacked. CONV2D:
	 * bh x bw output tiles (0: the fewest); gs halvings of a group's
	 * output channels per block (0: up to 512 per block; each halving
	 * rounds up to whole array columns).
	 */
	uint32_t bh, bw, gs;
	/*
	 * The form's packed weights as ops_conv_packed() wrote them (the
	 * CONV2D_S8 blocks' or the MATMUL B matrices), or NULL: packed from
	 * the weights. Their size must be the form's exactly.
	 */
	const void *packed;
	size_t packed_size;
};

/*
 * ops_conv_new_chosen() - e1npu_conv_new() with the form given by @choice
 * instead of searched for (@choice NULL: searched, as e1npu_conv_new).
 * The choice is untrusted: it is used only if the convolution could have
 * chosen it (the form fits every limit the search applies) and only in
 * the default ("auto") lowering mode; otherwise -EINVAL naming it.
 */
int ops_conv_new_chosen(struct e1npu_ops *ops, const struct e1npu_conv_params *p,
			const void *weights, const int32_t *bias,
			const struct ops_conv_choice *choice, struct e1npu_conv **convp);

/* ops_conv_get_choice() - the form @cv runs in (packed: NULL). */
void ops_conv_get_choice(const struct e1npu_conv *cv, struct ops_conv_choice *choice);

/*
 * ops_conv_packed() - the bytes of @cv's packed weights (0 for the host
 * form), written to @dst when it is not NULL.
 */
size_t ops_conv_packed(const struct e1npu_conv *cv, void *dst);

#endif /* __E1NPU_OPS_CONV_CHOICE_H__ */
