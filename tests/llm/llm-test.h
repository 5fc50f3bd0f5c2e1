/* SPDX-License-Identifier: MIT */
/*
 * Shared helpers of the language-model tests: the shared stories260K files
 * (skipped, naming the path, when absent) and tiny synthetic checkpoints
 * and tokenizers built in memory.
 */
#ifndef __LLM_TEST_H__
#define __LLM_TEST_H__

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <e1npu/e1npu.h>
#include <e1npu/e1npu_llm.h>

/* the six prompts the accuracy tests run (float32 vs float64, int8 vs float32) */
static const char *const prompts[6] = {
	"Once upon a time",
	"Tom had a red car",
	"The cat sat on the mat and",
	"One day, a little bird",
	"Sue and her mom went to the store",
	"The big dog was happy because",
};

/* $SHARED_DIR/llm/NAME into @buf; 0 when the file is absent. */
static inline int t_shared(char *buf, size_t len, const char *name)
{
	const char *d = getenv("SHARED_DIR");

	snprintf(buf, len, "%s/llm/%s", d && *d ? d : "../shared", name);
	return access(buf, R_OK) == 0;
}

/* Skips the test, naming the missing file, when the stories260K files are absent. */
#define t_need_stories(model, tok) do {						\
	if (!t_shared(model, sizeof(model), "stories260K.bin") ||		\
	    !t_shared(tok, sizeof(tok), "tok512.bin")) {			\
		print_message("[  SKIP    ] %s: %s or its tokenizer is absent (SHARED_DIR)\n", \
			      __func__, model);					\
		skip();								\
	}									\
} while (0)

static inline uint32_t t_rand(uint64_t *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)(*s >> 33);
}

/* A checkpoint of header @h (7 int32) with random weights in [-0.5, 0.5]:
 * malloc'ed, its size in *size (the size the header asks, + @extra bytes). */
static inline void *t_checkpoint(const int32_t h[7], long extra, size_t *size,
				 uint64_t seed)
{
	size_t dim = (size_t)h[0], hid = (size_t)h[1], L = (size_t)h[2];
	size_t heads = (size_t)h[3], kvh = (size_t)h[4];
	size_t voc = (size_t)(h[5] < 0 ? -h[5] : h[5]), seq = (size_t)h[6];
	size_t hs = dim / heads, kv = hs * kvh, n;
	unsigned char *b;
	float *w;

	*size = 0;
	n = voc * dim + L * dim * 2 + L * dim * dim * 2 + L * kv * dim * 2 +
	    L * hid * dim * 3 + dim + seq * hs + (h[5] < 0 ? voc * dim : 0);
	*size = 28 + n * 4 + (size_t)extra;
	b = calloc(1, 28 + n * 4 + (extra > 0 ? (size_t)extra : 0));
	if (!b)
		return NULL;
	memcpy(b, h, 28);
	w = (float *)(b + 28);
	for (size_t i = 0; i < n; i++)
		w[i] = (float)t_rand(&seed) / 4294967296.0f * 2.0f - 0.5f + 0.25f;
	return b;
}

/* A tokenizer of @n tokens: 0 "<unk>", 1 "\n<s>\n", 2 "\n</s>\n", 3..258
 * "<0xXX>", then the pieces of @extra (NULL-terminated) with score = -index,
 * then "t%u" fillers. */
static inline void *t_tokenizer(uint32_t n, const char *const *extra, size_t *size)
{
	size_t cap = 4 + (size_t)n * (8 + 16), off = 4;
	unsigned char *b = malloc(cap + 4096);
	int32_t mtl = 16;
	uint32_t e = 0;

	*size = 0;
	if (!b)
		return NULL;
	memcpy(b, &mtl, 4);
	for (uint32_t i = 0; i < n; i++) {
		char s[32];
		float score = -(float)i;
		int32_t len;

		if (i == 0)
			snprintf(s, sizeof(s), "<unk>");
		else if (i == 1)
			snprintf(s, sizeof(s), "\n<s>\n");
		else if (i == 2)
			snprintf(s, sizeof(s), "\n</s>\n");
		else if (i < 259)
			snprintf(s, sizeof(s), "<0x%02X>", i - 3);
		else if (extra && extra[e])
			snprintf(s, sizeof(s), "%s", extra[e++]);
		else
			snprintf(s, sizeof(s), "t%u", i);
		len = (int32_t)strlen(s);
		memcpy(b + off, &score, 4);
		memcpy(b + off + 4, &len, 4);
		memcpy(b + off + 8, s, (size_t)len);
		off += 8 + (size_t)len;
	}
	*size = off;
	return b;
}

#endif
