/* SPDX-License-Identifier: MIT */
/*
 * libe1npu language models: the model object and the interfaces between
 * lib/llm's files (checkpoint loader, tokenizer, float forward, int8
 * forward, sampler, API).
 */
#ifndef __E1NPU_LLM_INTERNAL_H__
#define __E1NPU_LLM_INTERNAL_H__

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <e1npu/e1npu_llm.h>

#define LLM_BOS		1
#define LLM_EOS		2
#define LLM_ERR_LEN	320

/* Header fields' upper bounds: beyond them a file is refused by name. */
#define LLM_MAX_DIM		65536u
#define LLM_MAX_HIDDEN		(1u << 20)
#define LLM_MAX_LAYERS		1024u
#define LLM_MAX_HEADS		1024u
#define LLM_MAX_VOCAB		(1u << 20)
#define LLM_MAX_SEQ		(1u << 20)
#define LLM_MAX_TOKEN_LEN	4096u

/* Most rows (groups x tokens) of one block-diagonal matmul. */
#define LLM_ROWS_MAX		64u

/* The float32 tensors of a checkpoint, pointers into llm->wdata. */
struct llm_weights {
	const float *emb;	/* [vocab][dim] */
	const float *rms_att;	/* [L][dim] */
	const float *wq;	/* [L][dim][dim] (out, in) */
	const float *wk;	/* [L][kv_dim][dim] */
	const float *wv;	/* [L][kv_dim][dim] */
	const float *wo;	/* [L][dim][dim] */
	const float *rms_ffn;	/* [L][dim] */
	const float *w1;	/* [L][hidden][dim] */
	const float *w2;	/* [L][dim][hidden] */
	const float *w3;	/* [L][hidden][dim] */
	const float *rms_final;	/* [dim] */
	const float *wcls;	/* [vocab][dim] */
};

struct llm_tokenizer {
	uint32_t n;		/* = vocab_size */
	uint32_t max_len;
	char **str;		/* n NUL-terminated pieces */
	uint32_t *len;
	float *score;
	uint32_t *sorted;	/* indices sorted by piece, for lookup */
	char *buf;		/* merge scratch: 2 * max_len + 3 */
};

/* The operations of the forward pass, rows of e1npu_llm_get_op(). */
enum llm_op_id {
	LLM_OP_QKV, LLM_OP_WO, LLM_OP_W1W3, LLM_OP_W2, LLM_OP_CLS,
	LLM_OP_RMSNORM, LLM_OP_ROPE, LLM_OP_ATTENTION, LLM_OP_SOFTMAX,
	LLM_OP_SWIGLU, LLM_OP_QUANT, LLM_OP_DEQUANT, LLM_OP_COUNT
};

/* An int8 weight matrix of n outputs, k inputs, g groups of gs inputs:
 * w [g][gs][n] (rows past k in the last group are zero), s [g][n]. */
struct llm_qmat {
	uint32_t n, k, g, gs;
	int8_t *w;
	float *s;
};

struct llm_int8 {
	struct e1npu_ops *ops;
	struct e1npu_device *dev;
	uint32_t gs, chunk;
	struct llm_qmat *qkv, *wo, *w13, *w2;	/* [L] */
	struct llm_qmat cls;
	/* scratch for M = chunk rows */
	float *x, *xb, *xb2, *hb, *qkvout, *h13, *att, *logits;
	float *kc, *vc;		/* [L][seq_len][kv_dim] float */
	int8_t *aq;
	int8_t *arows;		/* LLM_ROWS_MAX x (max K + gs): block-diagonal rows */
	uint32_t mode;		/* enum e1npu_llm_mm_mode */
	float *as;
	int32_t *acc;
	uint32_t on_e1;		/* enum e1npu_llm_ops: the non-matmul ops on e1 */
	struct llm_e1ops *e1;	/* their state and scratch (llm_int8_e1ops.c) */
};

struct llm_f32;
struct llm_e1ops;
struct llm_f64;

struct e1npu_llm {
	struct e1npu_llm_config cfg;
	uint32_t kv_dim, head_size, path;
	float *wdata;
	size_t wcount;
	struct llm_weights w;
	struct llm_tokenizer *tok;
	struct llm_f32 *f32;
	struct llm_f64 *f64;
	float *logits;		/* the last token's, of the path that ran */
	struct llm_int8 *q8;
	uint32_t pos;
	uint64_t rng;
	float temperature, top_p;
	void *probs;		/* sampler scratch: vocab (probability, index) */
	struct e1npu_llm_stats st;
	struct e1npu_llm_op ops[LLM_OP_COUNT];
	char piece[8];
	char err[LLM_ERR_LEN];
};

/* llm_err.c */
int llm_errf(char *buf, size_t len, int ret, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
int llm_seterr(struct e1npu_llm *l, int ret, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int llm_size_mul(size_t *out, size_t a, size_t b);
void llm_op_note(struct e1npu_llm *l, enum llm_op_id id, uint32_t engine,
		 uint32_t reason, const char *why, uint64_t macs);

/* llm_load.c: header + tensors of a checkpoint into l->cfg, l->w. */
int llm_checkpoint_parse(struct e1npu_llm *l, const void *data, size_t size,
			 char *err, size_t errlen);

/* llm_tok.c */
int llm_tokenizer_parse(struct llm_tokenizer **tp, uint32_t vocab,
			const void *data, size_t size, char *err, size_t errlen);
void llm_tokenizer_free(struct llm_tokenizer *t);
int llm_tokenizer_encode(struct llm_tokenizer *t, const char *text, int bos,
			 int eos, int32_t *ids, size_t max, size_t *count);

/* llm_fwd_f32.c / llm_fwd_f64.c: one token at l->pos. */
int llm_f32_alloc(struct e1npu_llm *l);
void llm_f32_free(struct e1npu_llm *l);
void llm_f32_forward(struct e1npu_llm *l, int32_t tok, uint32_t pos);
int llm_f64_alloc(struct e1npu_llm *l);
void llm_f64_free(struct e1npu_llm *l);
void llm_f64_forward(struct e1npu_llm *l, int32_t tok, uint32_t pos);

/* llm_int8.c: quantize at load; forward of @n tokens from @pos. */
int llm_int8_init(struct e1npu_llm *l, struct e1npu_device *dev,
		  uint32_t group, uint32_t chunk, uint32_t force,
		  uint32_t mode, uint32_t on_e1);
void llm_int8_free(struct e1npu_llm *l);
int llm_int8_forward(struct e1npu_llm *l, const int32_t *ids, uint32_t n,
		     uint32_t pos);
int llm_quantize_rows(struct llm_qmat *q, const float *const *parts,
		      const uint32_t *rows, uint32_t nparts, uint32_t k,
		      uint32_t gs);

/* llm_int8_host.c: the non-matmul ops on the host in float32. */
void llm_host_rmsnorm(struct e1npu_llm *l, float *o, const float *x,
		      const float *w, uint32_t m, uint32_t n);
void llm_host_rope(struct e1npu_llm *l, uint32_t m, uint32_t pos);
void llm_host_attention(struct e1npu_llm *l, uint32_t li, uint32_t m,
			uint32_t pos);
void llm_host_swiglu(struct e1npu_llm *l, uint32_t m);
void llm_kv_store(struct e1npu_llm *l, uint32_t li, uint32_t m, uint32_t pos);

/* llm_int8_e1ops.c: the same ops through the e1 lowerings. @site of an
 * RMSNorm: 2 * layer (attention), 2 * layer + 1 (FFN), 2 * n_layers (final). */
int llm_e1ops_init(struct e1npu_llm *l);
void llm_e1ops_free(struct e1npu_llm *l);
int llm_e1_rmsnorm(struct e1npu_llm *l, uint32_t site, float *o,
		   const float *x, const float *w, uint32_t m, uint32_t n);
int llm_e1_rope(struct e1npu_llm *l, uint32_t m, uint32_t pos);
int llm_e1_attention(struct e1npu_llm *l, uint32_t li, uint32_t m,
		     uint32_t pos);
int llm_e1_swiglu(struct e1npu_llm *l, uint32_t m);

/* llm_sample.c */
int llm_sample(struct e1npu_llm *l, const float *logits, int32_t *tok);

#endif /* __E1NPU_LLM_INTERNAL_H__ */
