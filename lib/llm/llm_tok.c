// SPDX-License-Identifier: MIT
/*
 * libe1npu language models: llama2.c's tokenizer file (int32
 * max_token_length, then per token float score, int32 length, bytes) and
 * its byte-pair encoding: a dummy-prefix space before non-empty text, one
 * token per UTF-8 code point found in the vocabulary (else one byte token,
 * id byte + 3, per byte), then repeated merges of the adjacent pair whose
 * concatenation is the best-scoring token.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "llm_internal.h"

void llm_tokenizer_free(struct llm_tokenizer *t)
{
	if (!t)
		return;
	if (t->str)
		for (uint32_t i = 0; i < t->n; i++)
			free(t->str[i]);
	free(t->str);
	free(t->len);
	free(t->score);
	free(t->sorted);
	free(t->buf);
	free(t);
}

/* Stable merge sort of t->sorted by piece (ties keep the lower id first). */
static void sort_pieces(const struct llm_tokenizer *t, uint32_t *v,
			uint32_t *tmp, size_t n)
{
	size_t h = n / 2, i = 0, j = h, o = 0;

	if (n < 2)
		return;
	sort_pieces(t, v, tmp, h);
	sort_pieces(t, v + h, tmp, n - h);
	while (i < h && j < n)
		tmp[o++] = strcmp(t->str[v[j]], t->str[v[i]]) < 0 ? v[j++] : v[i++];
	while (i < h)
		tmp[o++] = v[i++];
	while (j < n)
		tmp[o++] = v[j++];
	memcpy(v, tmp, n * sizeof(*v));
}

/* Lowest id whose piece is @s, or -1. */
static int32_t lookup(const struct llm_tokenizer *t, const char *s)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(t->str[t->sorted[mid]], s) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < t->n && !strcmp(t->str[t->sorted[lo]], s))
		return (int32_t)t->sorted[lo];
	return -1;
}

int llm_tokenizer_parse(struct llm_tokenizer **tp, uint32_t vocab,
			const void *data, size_t size, char *err, size_t errlen)
{
	const unsigned char *p = data;
	struct llm_tokenizer *t;
	size_t off = 4;
	int32_t mtl;
	int ret;

	*tp = NULL;
	if (size < 4)
		return llm_errf(err, errlen, -EINVAL,
				"tokenizer: file size %zu bytes is shorter than the 4-byte header", size);
	memcpy(&mtl, p, 4);
	if (mtl <= 0 || (uint32_t)mtl > LLM_MAX_TOKEN_LEN)
		return llm_errf(err, errlen, -EINVAL,
				"tokenizer: header field max_token_length = %d: must be 1 to %u (file size %zu bytes)",
				mtl, LLM_MAX_TOKEN_LEN, size);
	t = calloc(1, sizeof(*t));
	if (!t)
		return llm_errf(err, errlen, -ENOMEM, "tokenizer: out of memory");
	t->n = vocab;
	t->max_len = (uint32_t)mtl;
	t->str = calloc(vocab, sizeof(*t->str));
	t->len = calloc(vocab, sizeof(*t->len));
	t->score = calloc(vocab, sizeof(*t->score));
	t->sorted = calloc(vocab, sizeof(*t->sorted));
	t->buf = malloc(2 * (size_t)t->max_len + 8);
	if (!t->str || !t->len || !t->score || !t->sorted || !t->buf) {
		ret = llm_errf(err, errlen, -ENOMEM, "tokenizer: out of memory for %u tokens", vocab);
		goto err_free;
	}
	for (uint32_t i = 0; i < vocab; i++) {
		float score;
		int32_t len;

		if (size - off < 8) {
			ret = llm_errf(err, errlen, -EINVAL,
				       "tokenizer: token %u: truncated at byte %zu (file size %zu bytes, the model's vocab_size is %u)",
				       i, off, size, vocab);
			goto err_free;
		}
		memcpy(&score, p + off, 4);
		memcpy(&len, p + off + 4, 4);
		off += 8;
		if (isnan(score)) {
			ret = llm_errf(err, errlen, -EINVAL,
				       "tokenizer: token %u: field score is NaN (file size %zu bytes)", i, size);
			goto err_free;
		}
		if (len < 0 || (uint32_t)len > t->max_len) {
			ret = llm_errf(err, errlen, -EINVAL,
				       "tokenizer: token %u: field len = %d: must be 0 to max_token_length %u (file size %zu bytes)",
				       i, len, t->max_len, size);
			goto err_free;
		}
		if (size - off < (size_t)len) {
			ret = llm_errf(err, errlen, -EINVAL,
				       "tokenizer: token %u: field len = %d runs past the end (byte %zu, file size %zu bytes)",
				       i, len, off, size);
			goto err_free;
		}
		t->str[i] = malloc((size_t)len + 1);
		if (!t->str[i]) {
			ret = llm_errf(err, errlen, -ENOMEM, "tokenizer: out of memory");
			goto err_free;
		}
		memcpy(t->str[i], p + off, (size_t)len);
		t->str[i][len] = '\0';
		t->len[i] = (uint32_t)len;
		t->score[i] = score;
		t->sorted[i] = i;
		off += (size_t)len;
	}
	if (off != size) {
		ret = llm_errf(err, errlen, -EINVAL,
			       "tokenizer: %zu trailing bytes after the model's vocab_size %u tokens (file size %zu bytes)",
			       size - off, vocab, size);
		goto err_free;
	}
	{
		uint32_t *tmp = malloc((size_t)vocab * sizeof(*tmp));

		if (!tmp) {
			ret = llm_errf(err, errlen, -ENOMEM, "tokenizer: out of memory");
			goto err_free;
		}
		sort_pieces(t, t->sorted, tmp, vocab);
		free(tmp);
	}
	*tp = t;
	return 0;
err_free:
	llm_tokenizer_free(t);
	return ret;
}

/* Appends the byte tokens of @s (@n bytes); -EINVAL when the vocabulary has none. */
static int push_bytes(const struct llm_tokenizer *t, int32_t *out, size_t *n,
		      const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		uint32_t id = (unsigned char)s[i] + 3u;

		if (id >= t->n)
			return -EINVAL;
		out[(*n)++] = (int32_t)id;
	}
	return 0;
}

int llm_tokenizer_encode(struct llm_tokenizer *t, const char *text, int bos,
			 int eos, int32_t *ids, size_t max, size_t *count)
{
	size_t tl = strlen(text), n = 0, cap;
	char cp[8];
	size_t cpl = 0;
	int32_t *tk;
	int ret = 0;

	if (tl > SIZE_MAX / sizeof(int32_t) - 4 || (bos && t->n <= LLM_BOS) ||
	    (eos && t->n <= LLM_EOS))
		return -EINVAL;
	cap = tl + 4;
	tk = malloc(cap * sizeof(*tk));
	if (!tk)
		return -ENOMEM;
	if (bos)
		tk[n++] = LLM_BOS;
	if (tl) {
		int32_t sp = lookup(t, " ");

		if (sp >= 0)
			tk[n++] = sp;
		else if ((ret = push_bytes(t, tk, &n, " ", 1)))
			goto out;
	}
	for (const char *c = text; *c; c++) {
		int32_t id;

		if (((unsigned char)*c & 0xC0) != 0x80)
			cpl = 0;
		cp[cpl++] = *c;
		cp[cpl] = '\0';
		if (((unsigned char)c[1] & 0xC0) == 0x80 && cpl < 4)
			continue;
		id = lookup(t, cp);
		if (id >= 0)
			tk[n++] = id;
		else if ((ret = push_bytes(t, tk, &n, cp, cpl)))
			goto out;
		cpl = 0;
	}
	for (;;) {
		float best = -1e10f;
		size_t best_i = SIZE_MAX;
		int32_t best_id = -1;

		for (size_t i = 0; i + 1 < n; i++) {
			const char *a = t->str[tk[i]], *b = t->str[tk[i + 1]];
			uint32_t la = t->len[tk[i]], lb = t->len[tk[i + 1]];
			int32_t id;

			if (la + lb > t->max_len)
				continue;	/* no token is that long */
			memcpy(t->buf, a, la);
			memcpy(t->buf + la, b, lb);
			t->buf[la + lb] = '\0';
			id = lookup(t, t->buf);
			if (id >= 0 && t->score[id] > best) {
				best = t->score[id];
				best_i = i;
				best_id = id;
			}
		}
		if (best_i == SIZE_MAX)
			break;
		tk[best_i] = best_id;
		memmove(tk + best_i + 1, tk + best_i + 2, (n - best_i - 2) * sizeof(*tk));
		n--;
	}
	if (eos)
		tk[n++] = LLM_EOS;
	*count = n;
	if (n > max) {
		ret = -ENOSPC;
		goto out;
	}
	memcpy(ids, tk, n * sizeof(*tk));
out:
	free(tk);
	return ret;
}
