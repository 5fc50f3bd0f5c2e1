// SPDX-License-Identifier: MIT
/*
 * libe1npu language models: the llama2.c checkpoint (legacy format):
 * 7 int32 header fields (dim, hidden_dim, n_layers, n_heads, n_kv_heads,
 * vocab_size, negative for a classifier of its own, seq_len), then float32
 * tensors: token_embedding, rms_att, wq, wk, wv, wo, rms_ffn, w1, w2, w3,
 * rms_final, freq_cis_real and freq_cis_imag (seq_len * head_size / 2
 * each, unused: RoPE is computed), then wcls when unshared. Every field is
 * checked and the file must hold exactly the tensors the header promises.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "llm_internal.h"

static const char *const field_names[7] = {
	"dim", "hidden_dim", "n_layers", "n_heads", "n_kv_heads",
	"vocab_size", "seq_len",
};

static const uint32_t field_max[7] = {
	LLM_MAX_DIM, LLM_MAX_HIDDEN, LLM_MAX_LAYERS, LLM_MAX_HEADS,
	LLM_MAX_HEADS, LLM_MAX_VOCAB, LLM_MAX_SEQ,
};

/* Adds count floats to *total; 0 on overflow. */
static int add_floats(size_t *total, size_t a, size_t b, size_t c)
{
	size_t ab, abc;

	if (!llm_size_mul(&ab, a, b) || !llm_size_mul(&abc, ab, c) ||
	    abc > SIZE_MAX - *total)
		return 0;
	*total += abc;
	return 1;
}

int llm_checkpoint_parse(struct e1npu_llm *l, const void *data, size_t size,
			 char *err, size_t errlen)
{
	struct e1npu_llm_config *c = &l->cfg;
	int32_t h[7];
	uint32_t u[7];
	size_t total = 0, L, dim, hid, kv, voc, seq, hs, bytes;
	const float *p;

	if (size < sizeof(h))
		return llm_errf(err, errlen, -EINVAL,
				"checkpoint: file size %zu bytes is shorter than the 28-byte header",
				size);
	memcpy(h, data, sizeof(h));
	for (int i = 0; i < 7; i++) {
		int64_t v = h[i];

		if (i == 5 && v < 0)
			v = -v;	/* negative vocab_size: unshared classifier */
		if (v <= 0 || v > field_max[i])
			return llm_errf(err, errlen, -EINVAL,
					"checkpoint: header field %s = %d: must be 1 to %u%s (file size %zu bytes)",
					field_names[i], h[i], field_max[i],
					i == 5 ? " (or -1 to -that)" : "", size);
		u[i] = (uint32_t)v;
	}
	c->dim = u[0];
	c->hidden_dim = u[1];
	c->n_layers = u[2];
	c->n_heads = u[3];
	c->n_kv_heads = u[4];
	c->vocab_size = u[5];
	c->seq_len = u[6];
	c->shared_classifier = h[5] > 0;
	if (c->dim % c->n_heads)
		return llm_errf(err, errlen, -EINVAL,
				"checkpoint: header field n_heads = %u does not divide dim = %u (file size %zu bytes)",
				c->n_heads, c->dim, size);
	if ((c->dim / c->n_heads) % 2)
		return llm_errf(err, errlen, -EINVAL,
				"checkpoint: header field n_heads = %u gives an odd head size %u (dim %u): RoPE rotates pairs (file size %zu bytes)",
				c->n_heads, c->dim / c->n_heads, c->dim, size);
	if (c->n_kv_heads > c->n_heads || c->n_heads % c->n_kv_heads)
		return llm_errf(err, errlen, -EINVAL,
				"checkpoint: header field n_kv_heads = %u does not divide n_heads = %u (file size %zu bytes)",
				c->n_kv_heads, c->n_heads, size);
	l->head_size = c->dim / c->n_heads;
	l->kv_dim = c->dim / c->n_heads * c->n_kv_heads;

	L = c->n_layers;
	dim = c->dim;
	hid = c->hidden_dim;
	kv = l->kv_dim;
	voc = c->vocab_size;
	seq = c->seq_len;
	hs = l->head_size;
	if (!add_floats(&total, voc, dim, 1) ||		/* token_embedding */
	    !add_floats(&total, L, dim, 1) ||		/* rms_att */
	    !add_floats(&total, L, dim, dim) ||		/* wq */
	    !add_floats(&total, L, kv, dim) ||		/* wk */
	    !add_floats(&total, L, kv, dim) ||		/* wv */
	    !add_floats(&total, L, dim, dim) ||		/* wo */
	    !add_floats(&total, L, dim, 1) ||		/* rms_ffn */
	    !add_floats(&total, L, hid, dim) ||		/* w1 */
	    !add_floats(&total, L, dim, hid) ||		/* w2 */
	    !add_floats(&total, L, hid, dim) ||		/* w3 */
	    !add_floats(&total, dim, 1, 1) ||		/* rms_final */
	    !add_floats(&total, seq, hs, 1) ||		/* freq_cis real + imag */
	    (!c->shared_classifier && !add_floats(&total, voc, dim, 1)) ||
	    !llm_size_mul(&bytes, total, sizeof(float)) || bytes > SIZE_MAX - 28)
		return llm_errf(err, errlen, -EINVAL,
				"checkpoint: header (dim %u, hidden_dim %u, n_layers %u, vocab_size %u, seq_len %u) needs more bytes than size_t holds (file size %zu bytes)",
				c->dim, c->hidden_dim, c->n_layers, c->vocab_size,
				c->seq_len, size);
	if (size - 28 != bytes)
		return llm_errf(err, errlen, -EINVAL,
				"checkpoint: file size %zu bytes, but the header (dim %u, hidden_dim %u, n_layers %u, n_heads %u, n_kv_heads %u, vocab_size %d, seq_len %u) needs %zu bytes: %s",
				size, c->dim, c->hidden_dim, c->n_layers,
				c->n_heads, c->n_kv_heads, h[5], c->seq_len,
				bytes + 28,
				size - 28 < bytes ? "truncated, or a header field (e.g. seq_len) too large"
						  : "trailing bytes, or a header field too small");
	l->wdata = malloc(bytes ? bytes : 1);
	if (!l->wdata)
		return llm_errf(err, errlen, -ENOMEM,
				"checkpoint: out of memory for %zu bytes of weights", bytes);
	memcpy(l->wdata, (const char *)data + 28, bytes);
	l->wcount = total;
	p = l->wdata;
	l->w.emb = p;		p += voc * dim;
	l->w.rms_att = p;	p += L * dim;
	l->w.wq = p;		p += L * dim * dim;
	l->w.wk = p;		p += L * kv * dim;
	l->w.wv = p;		p += L * kv * dim;
	l->w.wo = p;		p += L * dim * dim;
	l->w.rms_ffn = p;	p += L * dim;
	l->w.w1 = p;		p += L * hid * dim;
	l->w.w2 = p;		p += L * dim * hid;
	l->w.w3 = p;		p += L * hid * dim;
	l->w.rms_final = p;	p += dim;
	p += seq * hs;		/* freq_cis_real, freq_cis_imag */
	l->w.wcls = c->shared_classifier ? l->w.emb : p;
	return 0;
}
