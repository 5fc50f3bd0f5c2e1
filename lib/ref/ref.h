/* SPDX-License-Identifier: MIT */
/*
 * Naive CPU references of the high-level operations: straightforward loops,
 * no tiling, no zero-point folding tricks, written from the TFLite reference
 * kernels' definitions. The tests compare every lowering against these.
 */
#ifndef __E1NPU_REF_H__
#define __E1NPU_REF_H__

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <e1npu/e1npu_ops.h>

void ref_matmul_s32(uint32_t m, uint32_t n, uint32_t k, const int8_t *a,
		    size_t lda, const int8_t *b, size_t ldb, int32_t *c,
		    size_t ldc);

/* TFLite FULLY_CONNECTED, weights [n][k]; -EINVAL if a channel's
 * requantization multiplier (in * w / out) is not representable. */
int ref_fc(const struct e1npu_fc_params *p, const void *weights,
	   const int32_t *bias, uint32_t rows, const void *in, void *out);

/* TFLite output size and top/left padding of one dimension. */
void ref_conv_geometry(uint32_t padding, uint32_t in, uint32_t filter,
		       uint32_t stride, uint32_t dil, uint32_t *out,
		       uint32_t *pad);

/* TFLite CONV_2D (groups == 1), grouped conv, DEPTHWISE_CONV_2D; -EINVAL
 * as ref_fc for a multiplier that is not representable. */
int ref_conv(const struct e1npu_conv_params *p, const void *weights,
	     const int32_t *bias, const void *in, void *out);

int ref_maxpool(const struct e1npu_pool_params *p, const void *in, void *out);
int ref_avgpool(const struct e1npu_pool_params *p, const void *in, void *out);

/* TFLite ADD (same shapes); -ERANGE as e1npu_ops_add for a rescale
 * multiplier out of range. */
int ref_add(uint32_t dtype, size_t count, const void *a,
	    const struct e1npu_qparams *qa, const void *b,
	    const struct e1npu_qparams *qb, void *out,
	    const struct e1npu_qparams *qout, uint32_t act);

int ref_softmax(uint32_t dtype, uint32_t rows, uint32_t depth,
		const void *in, float input_scale, float beta, void *out);

void ref_softmax_exp2_s8(uint32_t rows, uint32_t depth, const int8_t *in,
			 const uint8_t *mask, uint8_t *out);

/* Low-precision matmuls (semantics in e1npu_ops.h). */
int ref_matmul_fp8(uint32_t m, uint32_t n, uint32_t k, const uint8_t *a,
		   const uint8_t *b, int32_t *c);
int ref_matmul_f16(bool bf16, uint32_t m, uint32_t n, uint32_t k,
		   const uint16_t *a, const uint16_t *b, int32_t *c);
void ref_matmul_gs_s4(uint32_t m, uint32_t n, uint32_t k, uint32_t group,
		      const int8_t *a, const int8_t *w, const int16_t *scales,
		      int32_t *c);

/* Transformer pieces (semantics in e1npu_ops.h). */
int8_t ref_requant(int32_t acc, const struct e1npu_requant *rq);
void ref_bias_add(uint32_t rows, uint32_t n, const int8_t *x,
		  const int8_t *bias, int8_t *out);
void ref_residual_add(size_t count, const int8_t *a, const int8_t *b,
		      int8_t *out);
int32_t ref_sig_q8(int32_t t);
void ref_silu(size_t count, const int8_t *in, int8_t *out);
void ref_quick_gelu(size_t count, const int8_t *in, int8_t *out);
void ref_rmsnorm(uint32_t rows, uint32_t d, const int8_t *x, const int8_t *g,
		 uint32_t gf, uint32_t of, int8_t *out);
void ref_rope(uint32_t rows, uint32_t d, const int8_t *x, const int8_t *c,
	      const int8_t *s, int8_t *out);
int ref_attention(const struct e1npu_attention_params *p, const int8_t *q,
		  const int8_t *k, const int8_t *v, int8_t *out);
void ref_qkv(uint32_t t, uint32_t dm, const int8_t *x, const int8_t *w,
	     const struct e1npu_requant *rq[3], int8_t *out[3]);
void ref_mlp(uint32_t t, uint32_t dm, uint32_t dh, const int8_t *x,
	     const int8_t *w1, const int8_t *w2, const struct e1npu_requant *rqh,
	     const struct e1npu_requant *rqo, int8_t *out);
void ref_swiglu(uint32_t t, uint32_t dm, uint32_t dh, const int8_t *x,
		const int8_t *wu, const int8_t *wg, const int8_t *wd,
		const struct e1npu_requant *rqh, uint32_t gs,
		const struct e1npu_requant *rqo, int8_t *out);
void ref_transformer_block(uint32_t t, uint32_t d, uint32_t dh,
			   const int8_t *x, const uint8_t *p, const int8_t *v,
			   const int8_t *bias, const int8_t *w1, const int8_t *w2,
			   const struct e1npu_requant *rqh,
			   const struct e1npu_requant *rqo, int8_t *out);
int ref_decoder_block(const struct e1npu_decoder_params *p, const int8_t *x,
		      int8_t *out);

#endif /* __E1NPU_REF_H__ */
