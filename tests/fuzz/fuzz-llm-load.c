// SPDX-License-Identifier: MIT
/*
 * libFuzzer harness of the language-model loaders (include/e1npu/e1npu_llm.h):
 * each input is a 4-byte little-endian word (top bit: path; the rest: a
 * length L), then L bytes of llama2.c checkpoint (L taken modulo the
 * rest), then the tokenizer file. The pair is loaded with
 * e1npu_llm_load_memory() on the float32 path, or on the int8 path on the
 * in-process device when the top bit is set (group size and prefill
 * chunk from the last byte, the non-matmul ops placed on e1 from the bits
 * of the one before); when
 * it loads and is small, a text made of the input's bytes is encoded, its
 * tokens decoded, prefilled (at most 4 positions) and sampled.
 *
 * Properties: L1 load returns 0 or a negative errno, a failure leaves no
 * model and a non-empty message naming "checkpoint" or "tokenizer" (or
 * the options/allocation); L2 no crash, no ASan/UBSan report, no leak;
 * L3 encode/decode/prefill/sample return 0 or a negative errno, every
 * encoded id is inside the vocabulary, the sampled token too.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <e1npu/e1npu.h>
#include <e1npu/e1npu_llm.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_FILE	65536
#define MAX_WORK	(1u << 16)	/* dim * (dim + hidden) * layers to run */

static struct e1npu_device *dev;

static void check(int ok)
{
	if (!ok)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct e1npu_llm_options o = { 0 };
	struct e1npu_llm_config c;
	struct e1npu_llm *l = NULL;
	const float *lg;
	char err[512];
	uint32_t len;
	size_t ms;
	int ret;

	if (size < 4 || size > MAX_FILE)
		return 0;
	memcpy(&len, data, 4);
	ms = (size_t)(len & 0x7fffffffu) % (size - 4 + 1);
	if (len & 0x80000000u) {
		if (!dev && e1npu_device_open("sim", &dev))
			return 0;
		o.path = E1NPU_LLM_PATH_INT8;
		o.group_size = 1 + data[size - 1] % 40;
		o.prefill_chunk = 1 + data[size - 1] % 3;
		o.ops_e1 = data[size - 2] & E1NPU_LLM_OPS_ALL;
	}
	err[0] = 'x';
	err[1] = '\0';
	ret = e1npu_llm_load_memory(dev, data + 4, ms, size - 4 - ms ? data + 4 + ms : NULL,
				    size - 4 - ms, &o, &l, err, sizeof(err));
	check(ret <= 0 && ret > -4096);
	if (ret) {
		check(l == NULL && err[0] && strcmp(err, "x"));
		return 0;
	}
	check(e1npu_llm_get_config(l, &c) == 0);
	if ((uint64_t)c.dim * (c.dim + c.hidden_dim) * c.n_layers <= MAX_WORK &&
	    (uint64_t)c.dim * c.vocab_size <= MAX_WORK) {
		char text[17];
		int32_t ids[64], tok;
		size_t n = 0, tl = size - 4 - ms < 16 ? size - 4 - ms : 16;

		memcpy(text, data + size - tl, tl);
		text[tl] = '\0';
		ret = e1npu_llm_encode(l, text, 1, 1, ids, 64, &n);
		check(ret <= 0 && ret > -4096);
		if (ret == -ENOENT)
			n = 0;
		if (!ret) {
			for (size_t i = 0; i < n; i++) {
				const char *s;

				check(ids[i] >= 0 && (uint32_t)ids[i] < c.vocab_size);
				check(e1npu_llm_decode(l, i ? ids[i - 1] : 1, ids[i], &s) == 0);
				check(s != NULL);
			}
		}
		if (!n) {
			ids[0] = 1 % (int32_t)c.vocab_size;
			n = 1;
		}
		if (n > 4)
			n = 4;
		if (n > c.seq_len)
			n = c.seq_len;
		ret = e1npu_llm_prefill(l, ids, n, &lg);
		check(ret <= 0 && ret > -4096);
		if (!ret) {
			check(e1npu_llm_set_sampler(l, 0.8f, 0.9f, size) == 0);
			check(e1npu_llm_sample(l, lg, &tok) == 0);
			check(tok >= 0 && (uint32_t)tok < c.vocab_size);
		}
	}
	e1npu_llm_free(l);
	return 0;
}
