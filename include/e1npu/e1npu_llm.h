/* SPDX-License-Identifier: MIT */
/*
 * libe1npu language models: a Llama-architecture decoder (llama2.c's
 * checkpoint and tokenizer formats) run on the CPU in float32 (the
 * reference path), in float64 (the same code in double, for checks), or
 * with int8 weights and activations whose matmuls run on the e1 NPU
 * through the lowering layer (include/e1npu/e1npu_ops.h). Documentation/llm.md.
 *
 * Conventions are those of e1npu.h: opaque handle, 0 or a negative errno,
 * never prints; e1npu_llm_last_error() (or the @err buffer of the load
 * functions) holds the message of the last failure, naming the field,
 * its value and the file size where a file is at fault. One thread at a
 * time per model.
 */
#ifndef __E1NPU_PUBLIC_LLM_H__
#define __E1NPU_PUBLIC_LLM_H__

#include <stddef.h>
#include <stdint.h>

#include <e1npu/e1npu.h>
#include <e1npu/e1npu_ops.h>

#ifdef __cplusplus
extern "C" {
#endif

struct e1npu_llm;

/**
 * enum e1npu_llm_path - which implementation computes the forward pass.
 * @E1NPU_LLM_PATH_FLOAT: float32 on the CPU (llama2.c's arithmetic).
 * @E1NPU_LLM_PATH_DOUBLE: the same code in float64 (cross-checks).
 * @E1NPU_LLM_PATH_INT8: weights quantized at load to int8 with one
 *	symmetric scale per group of @group_size inputs (a short last group
 *	when the input size is not a multiple), activations quantized per
 *	group at each matmul; the matmuls run as int8 x int8 -> int32 on the
 *	device (enum e1npu_llm_mm_mode: one matmul, or one slice per group), the scaling
 *	on the host; RMSNorm, RoPE, attention, softmax and SwiGLU on the host
 *	in float32 or through the e1 lowerings, per op (enum e1npu_llm_ops).
 */
enum e1npu_llm_path {
	E1NPU_LLM_PATH_FLOAT = 0,
	E1NPU_LLM_PATH_DOUBLE = 1,
	E1NPU_LLM_PATH_INT8 = 2,
};

/**
 * struct e1npu_llm_options - load options (NULL: float32, defaults).
 * @path: enum e1npu_llm_path.
 * @group_size: int8 path: inputs per quantization group, 0 = 32.
 * @prefill_chunk: int8 path: tokens per prefill matmul (M), 0 = 16.
 * @force: int8 path: enum e1npu_ops_force for the matmuls; 0
 *	(E1NPU_OPS_FORCE_AUTO) is the lowering layer's choice.
 * @mm_mode: int8 path: enum e1npu_llm_mm_mode.
 * @ops_e1: int8 path: enum e1npu_llm_ops bits of the non-matmul ops to run
 *	through the e1 lowerings.
 * @ops_host: int8 path: bits of those to run on the host in float32. An op
 *	in neither mask takes the library's default (E1NPU_LLM_OPS_DEFAULT_E1);
 *	an op in both, or a bit outside E1NPU_LLM_OPS_ALL, is -EINVAL.
 * @reserved: zero.
 */
struct e1npu_llm_options {
	uint32_t path;
	uint32_t group_size;
	uint32_t prefill_chunk;
	uint32_t force;
	uint32_t mm_mode;
	uint32_t ops_e1;
	uint32_t ops_host;
	uint32_t reserved[1];
};

/**
 * enum e1npu_llm_ops - the int8 path's non-matmul ops, as placement bits.
 * On e1 each runs through its lowering (include/e1npu/e1npu_ops.h), its
 * float inputs quantized the way the lowering expects and its int8 output
 * scaled back (Documentation/llm.md, "Placement of the non-matmul ops"):
 * @E1NPU_LLM_OPS_RMSNORM: e1npu_ops_rmsnorm_s8 (sums of squares DOT4_S8).
 * @E1NPU_LLM_OPS_ROPE: e1npu_ops_rope_s8 (rotations DOT4_S8, Q7 cos/sin).
 * @E1NPU_LLM_OPS_ATTENTION: the QK^T and P x V products,
 *	e1npu_ops_attention_qk_s8 and e1npu_ops_attention_av_s8 (GEMMs).
 * @E1NPU_LLM_OPS_SOFTMAX: e1npu_ops_softmax_exp2_s8 (EXP2_NEG_Q0_8).
 * @E1NPU_LLM_OPS_SWIGLU: the SiLU of SwiGLU, e1npu_ops_silu_s8 (EXP2).
 * @E1NPU_LLM_OPS_DEFAULT_E1: those on e1 unless asked otherwise, chosen by
 *	the measured accuracy (Documentation/llm.md).
 */
enum e1npu_llm_ops {
	E1NPU_LLM_OPS_RMSNORM = 1u << 0,
	E1NPU_LLM_OPS_ROPE = 1u << 1,
	E1NPU_LLM_OPS_ATTENTION = 1u << 2,
	E1NPU_LLM_OPS_SOFTMAX = 1u << 3,
	E1NPU_LLM_OPS_SWIGLU = 1u << 4,
	E1NPU_LLM_OPS_ALL = 0x1f,
	E1NPU_LLM_OPS_DEFAULT_E1 = 0,
};

/**
 * enum e1npu_llm_mm_mode - how the int8 path maps the per-group partial
 * products of a matmul [M][K] x [K][N] with G groups to the device.
 * @E1NPU_LLM_MM_ROWS: (default) one e1npu_ops_matmul_s8 of G*M
 *	block-diagonal activation rows (row g*M + m holds group g of row m,
 *	zeros elsewhere) by the whole [G*gs][N] weights: the weights stream
 *	once, the extra rows ride in the systolic array's unused rows; used
 *	when G*M <= 64, else the batch form.
 * @E1NPU_LLM_MM_BATCH: e1npu_ops_batch_matmul_s8, one [M][gs] x [gs][N]
 *	slice per group.
 * Both give the same int32 partials, so the same logits.
 */
enum e1npu_llm_mm_mode {
	E1NPU_LLM_MM_ROWS = 0,
	E1NPU_LLM_MM_BATCH = 1,
};

/**
 * struct e1npu_llm_config - the checkpoint's header, validated.
 * @shared_classifier: 1 when the classifier is the token embedding
 *	(positive vocab_size in the file), 0 when the file has its own.
 */
struct e1npu_llm_config {
	uint32_t dim;
	uint32_t hidden_dim;
	uint32_t n_layers;
	uint32_t n_heads;
	uint32_t n_kv_heads;
	uint32_t vocab_size;
	uint32_t seq_len;
	uint32_t shared_classifier;
	uint32_t reserved[8];
};

/**
 * e1npu_llm_load_memory() - parse a llama2.c checkpoint (7 int32 header,
 * float32 tensors) and optionally its tokenizer (int32 max_token_length,
 * then per token float score, int32 length, bytes), both copied.
 * @dev: device for the int8 path (NULL: the lowering layer's CPU-only
 *	context); ignored by the float paths.
 * @tok: NULL (@tok_size 0) for no tokenizer: encode/decode then fail.
 * @lp: out: the model, freed with e1npu_llm_free(); holds @dev open.
 * @err: NULL or @errlen bytes for the failure message, e.g.
 *	"checkpoint: header field n_kv_heads = 3 does not divide n_heads = 8
 *	(file size 1056540 bytes)".
 * Return: 0, -EINVAL (malformed file or options), -ENOMEM, or an error
 *	of the lowering layer.
 */
int e1npu_llm_load_memory(struct e1npu_device *dev, const void *model,
			  size_t model_size, const void *tok, size_t tok_size,
			  const struct e1npu_llm_options *opt,
			  struct e1npu_llm **lp, char *err, size_t errlen);

/* e1npu_llm_load_file() - as load_memory, from files (@tok_path may be NULL). */
int e1npu_llm_load_file(struct e1npu_device *dev, const char *model_path,
			const char *tok_path,
			const struct e1npu_llm_options *opt,
			struct e1npu_llm **lp, char *err, size_t errlen);

/* e1npu_llm_free() - free the model (NULL: no-op). */
void e1npu_llm_free(struct e1npu_llm *l);

/* e1npu_llm_last_error() - message of the last failing call on @l ("" if none). */
const char *e1npu_llm_last_error(const struct e1npu_llm *l);

/* e1npu_llm_get_config() - the checkpoint's header. Return: 0, -EINVAL. */
int e1npu_llm_get_config(const struct e1npu_llm *l,
			 struct e1npu_llm_config *cfg);

/**
 * e1npu_llm_encode() - llama2.c's tokenization of @text: BOS (1) when
 * @bos, a dummy-prefix space token before non-empty text, one token per
 * UTF-8 code point in the vocabulary (else one <0xXX> byte token per
 * byte), then greedy merges of the best-scoring adjacent pair, EOS (2)
 * when @eos.
 * @ids: @max entries; @count: out: tokens written.
 * Return: 0, -EINVAL, -ENOENT (no tokenizer), -ENOSPC (@max too small).
 */
int e1npu_llm_encode(struct e1npu_llm *l, const char *text, int bos, int eos,
		     int32_t *ids, size_t max, size_t *count);

/**
 * e1npu_llm_decode() - the text of token @tok following @prev: the leading
 * space of a piece after BOS is dropped, <0xXX> byte tokens become the
 * byte. The string lives until the next call on @l.
 * Return: 0, -EINVAL (@tok outside the vocabulary), -ENOENT (no tokenizer).
 */
int e1npu_llm_decode(struct e1npu_llm *l, int32_t prev, int32_t tok,
		     const char **piece);

/**
 * e1npu_llm_prefill() - run @n tokens at the current position (the KV
 * cache keeps them) and point @logits (NULL allowed) at the last one's
 * vocab_size logits, valid until the next call on @l.
 * Return: 0, -EINVAL (a token outside the vocabulary), -ENOSPC (the
 *	context of seq_len tokens would overflow: nothing is run), or an
 *	error of the lowering layer.
 */
int e1npu_llm_prefill(struct e1npu_llm *l, const int32_t *ids, size_t n,
		      const float **logits);

/* e1npu_llm_step() - e1npu_llm_prefill() of one token (a decode step). */
int e1npu_llm_step(struct e1npu_llm *l, int32_t tok, const float **logits);

/* e1npu_llm_position() - tokens in the KV cache (0 after load/reset). */
uint32_t e1npu_llm_position(const struct e1npu_llm *l);

/* e1npu_llm_reset() - empty the KV cache and the statistics. */
int e1npu_llm_reset(struct e1npu_llm *l);

/**
 * e1npu_llm_set_sampler() - how e1npu_llm_sample() picks: @temperature 0
 * is greedy (argmax, the lowest index on ties); otherwise softmax of
 * logits / @temperature, restricted to the smallest set of most probable
 * tokens whose mass exceeds @top_p when 0 < @top_p < 1, drawn with the
 * library's own PRNG (xorshift64*) seeded by @seed (0 is taken as 1).
 * Return: 0, -EINVAL (negative or non-finite temperature, top_p outside
 *	[0, 1]).
 */
int e1npu_llm_set_sampler(struct e1npu_llm *l, float temperature,
			  float top_p, uint64_t seed);

/* e1npu_llm_sample() - the next token from @logits (vocab_size of them). */
int e1npu_llm_sample(struct e1npu_llm *l, const float *logits, int32_t *tok);

/**
 * struct e1npu_llm_stats - counts since load or reset.
 * @prefill_tokens, @decode_tokens: tokens run by e1npu_llm_prefill()
 *	and by e1npu_llm_step().
 * @prefill_ns, @decode_ns: host wall time in those calls.
 * @matmuls: device matmul calls (int8 path; 0 on the float paths).
 * @jobs: jobs submitted to the device (its perf counter's delta).
 * @wrapper_cycles, @dp_cycles, @global_cycles: modelled device cycles
 *	(perf counter deltas; global_cycles is the makespan, in-process model
 *	only).
 * @prefill_global_cycles, @prefill_jobs: of @global_cycles and @jobs,
 *	those of e1npu_llm_prefill().
 * @weight_bytes: bytes of weights one token streams (int8 + scales on the
 *	int8 path, float on the others).
 */
struct e1npu_llm_stats {
	uint64_t prefill_tokens;
	uint64_t decode_tokens;
	uint64_t prefill_ns;
	uint64_t decode_ns;
	uint64_t matmuls;
	uint64_t jobs;
	uint64_t wrapper_cycles;
	uint64_t dp_cycles;
	uint64_t global_cycles;
	uint64_t prefill_global_cycles;
	uint64_t prefill_jobs;
	uint64_t weight_bytes;
	uint64_t reserved[8];
};

int e1npu_llm_get_stats(const struct e1npu_llm *l, struct e1npu_llm_stats *st);

/**
 * struct e1npu_llm_op - one operation of the forward pass and where it ran:
 * @name: "qkv", "wo", "w1w3", "w2", "classifier" (matmuls), "rmsnorm",
 *	"rope", "attention", "softmax", "swiglu" (host or e1: enum
 *	e1npu_llm_ops), "quantize", "dequantize" (host).
 * @engine: enum e1npu_engine of the last call; @reason: enum
 *	e1npu_ops_reason; @why: in words (the lowering layer's report for
 *	the ops on e1, prefixed "e1:").
 * @calls, @jobs, @hw_ops, @macs, @wrapper_cycles, @dp_cycles: totals since
 *	load or reset.
 */
struct e1npu_llm_op {
	char name[16];
	uint32_t engine;
	uint32_t reason;
	uint64_t calls;
	uint64_t jobs;
	uint64_t hw_ops;
	uint64_t macs;
	uint64_t wrapper_cycles;
	uint64_t dp_cycles;
	char why[160];
	uint32_t reserved[4];
};

/* e1npu_llm_num_ops() - rows of e1npu_llm_get_op() (0 for NULL). */
uint32_t e1npu_llm_num_ops(const struct e1npu_llm *l);

/* e1npu_llm_get_op() - row @index. Return: 0, -EINVAL. */
int e1npu_llm_get_op(const struct e1npu_llm *l, uint32_t index,
		     struct e1npu_llm_op *op);

#ifdef __cplusplus
}
#endif

#endif /* __E1NPU_PUBLIC_LLM_H__ */
