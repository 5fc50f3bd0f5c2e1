// SPDX-License-Identifier: MIT
/*
 * libe1npu language models: the public API (include/e1npu/e1npu_llm.h):
 * load, the error channel, encode/decode, prefill/step with statistics,
 * sampling, the per-operation placement.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"
#include "llm_internal.h"

static const char *const op_names[LLM_OP_COUNT] = {
	[LLM_OP_QKV] = "qkv", [LLM_OP_WO] = "wo", [LLM_OP_W1W3] = "w1w3",
	[LLM_OP_W2] = "w2", [LLM_OP_CLS] = "classifier",
	[LLM_OP_RMSNORM] = "rmsnorm", [LLM_OP_ROPE] = "rope",
	[LLM_OP_ATTENTION] = "attention", [LLM_OP_SOFTMAX] = "softmax",
	[LLM_OP_SWIGLU] = "swiglu",
	[LLM_OP_QUANT] = "quantize", [LLM_OP_DEQUANT] = "dequantize",
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void ops_clear(struct e1npu_llm *l)
{
	memset(l->ops, 0, sizeof(l->ops));
	for (int i = 0; i < LLM_OP_COUNT; i++)
		snprintf(l->ops[i].name, sizeof(l->ops[i].name), "%s", op_names[i]);
}

E1NPU_API void e1npu_llm_free(struct e1npu_llm *l)
{
	if (!l)
		return;
	llm_f32_free(l);
	llm_f64_free(l);
	llm_int8_free(l);
	llm_tokenizer_free(l->tok);
	free(l->wdata);
	free(l->probs);
	free(l);
}

E1NPU_API int e1npu_llm_load_memory(struct e1npu_device *dev,
				    const void *model, size_t model_size,
				    const void *tok, size_t tok_size,
				    const struct e1npu_llm_options *opt,
				    struct e1npu_llm **lp, char *err,
				    size_t errlen)
{
	struct e1npu_llm_options o = { 0 };
	struct e1npu_llm *l;
	int ret;

	if (err && errlen)
		err[0] = '\0';
	if (!lp)
		return llm_errf(err, errlen, -EINVAL, "e1npu_llm_load_memory: lp is NULL");
	*lp = NULL;
	if (!model)
		return llm_errf(err, errlen, -EINVAL, "e1npu_llm_load_memory: model is NULL");
	if (!tok && tok_size)
		return llm_errf(err, errlen, -EINVAL, "e1npu_llm_load_memory: tok is NULL with tok_size %zu", tok_size);
	if (opt)
		o = *opt;
	for (size_t i = 0; i < sizeof(o.reserved) / sizeof(o.reserved[0]); i++)
		if (o.reserved[i])
			return llm_errf(err, errlen, -EINVAL, "e1npu_llm_load_memory: options reserved[%zu] = %u: must be 0",
					i, o.reserved[i]);
	if (o.path > E1NPU_LLM_PATH_INT8)
		return llm_errf(err, errlen, -EINVAL, "e1npu_llm_load_memory: options path = %u: expected 0 (float), 1 (double) or 2 (int8)",
				o.path);
	if (o.force > E1NPU_OPS_FORCE_CPU)
		return llm_errf(err, errlen, -EINVAL, "e1npu_llm_load_memory: options force = %u: expected 0 (auto) to 3 (cpu)",
				o.force);
	if (o.mm_mode > E1NPU_LLM_MM_BATCH)
		return llm_errf(err, errlen, -EINVAL, "e1npu_llm_load_memory: options mm_mode = %u: expected 0 (rows) or 1 (batch)",
				o.mm_mode);
	if ((o.ops_e1 | o.ops_host) & ~(uint32_t)E1NPU_LLM_OPS_ALL)
		return llm_errf(err, errlen, -EINVAL, "e1npu_llm_load_memory: options %s = 0x%x: bits outside E1NPU_LLM_OPS_ALL (0x%x)",
				o.ops_e1 & ~(uint32_t)E1NPU_LLM_OPS_ALL ? "ops_e1" : "ops_host",
				o.ops_e1 & ~(uint32_t)E1NPU_LLM_OPS_ALL ? o.ops_e1 : o.ops_host,
				(unsigned int)E1NPU_LLM_OPS_ALL);
	if (o.ops_e1 & o.ops_host)
		return llm_errf(err, errlen, -EINVAL, "e1npu_llm_load_memory: options ops_e1 = 0x%x and ops_host = 0x%x both hold 0x%x: an op goes to one place",
				o.ops_e1, o.ops_host, o.ops_e1 & o.ops_host);
	if (!o.group_size)
		o.group_size = 32;
	if (!o.prefill_chunk)
		o.prefill_chunk = 16;
	if (o.group_size > 4096)
		return llm_errf(err, errlen, -EINVAL, "e1npu_llm_load_memory: options group_size = %u: must be 1 to 4096",
				o.group_size);
	if (o.prefill_chunk > 1024)
		return llm_errf(err, errlen, -EINVAL, "e1npu_llm_load_memory: options prefill_chunk = %u: must be 1 to 1024",
				o.prefill_chunk);
	l = calloc(1, sizeof(*l));
	if (!l)
		return llm_errf(err, errlen, -ENOMEM, "out of memory");
	l->path = o.path;
	ops_clear(l);
	ret = llm_checkpoint_parse(l, model, model_size, err, errlen);
	if (ret)
		goto err_free;
	if (tok) {
		ret = llm_tokenizer_parse(&l->tok, l->cfg.vocab_size, tok, tok_size, err, errlen);
		if (ret)
			goto err_free;
	}
	if (o.path == E1NPU_LLM_PATH_FLOAT)
		ret = llm_f32_alloc(l);
	else if (o.path == E1NPU_LLM_PATH_DOUBLE)
		ret = llm_f64_alloc(l);
	else
		ret = llm_int8_init(l, dev, o.group_size, o.prefill_chunk, o.force, o.mm_mode,
				    o.ops_e1 | ((uint32_t)E1NPU_LLM_OPS_DEFAULT_E1 & ~o.ops_host));
	if (ret) {
		llm_errf(err, errlen, ret, "%s", l->err);
		goto err_free;
	}
	l->temperature = 0.0f;
	l->rng = 1;
	l->st.weight_bytes = o.path == E1NPU_LLM_PATH_INT8 ? 0 : l->wcount * sizeof(float);
	if (l->q8) {
		const struct llm_int8 *e = l->q8;
		uint64_t b = 0;

		for (uint32_t i = 0; i < l->cfg.n_layers; i++) {
			const struct llm_qmat *m[4] = { &e->qkv[i], &e->wo[i], &e->w13[i], &e->w2[i] };

			for (int j = 0; j < 4; j++)
				b += (uint64_t)m[j]->g * m[j]->gs * m[j]->n + (uint64_t)m[j]->g * m[j]->n * 4;
		}
		b += (uint64_t)e->cls.g * e->cls.gs * e->cls.n + (uint64_t)e->cls.g * e->cls.n * 4;
		l->st.weight_bytes = b;
	}
	*lp = l;
	return 0;
err_free:
	e1npu_llm_free(l);
	return ret;
}

/* Reads all of @path; *err names the file. */
static int read_file(const char *what, const char *path, void **data,
		     size_t *size, char *err, size_t errlen)
{
	struct stat st;
	size_t got = 0;
	char *buf;
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		return llm_errf(err, errlen, ret, "%s '%s': %s", what, path, strerror(-ret));
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return llm_errf(err, errlen, -EINVAL, "%s '%s': not a regular file", what, path);
	}
	buf = malloc(st.st_size ? (size_t)st.st_size : 1);
	if (!buf) {
		close(fd);
		return llm_errf(err, errlen, -ENOMEM, "%s '%s': out of memory for %lld bytes", what, path,
				(long long)st.st_size);
	}
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);

		if (n <= 0) {
			ret = n < 0 ? -errno : -EIO;
			free(buf);
			close(fd);
			return llm_errf(err, errlen, ret, "%s '%s': read: %s", what, path, strerror(-ret));
		}
		got += (size_t)n;
	}
	close(fd);
	*data = buf;
	*size = got;
	return 0;
}

E1NPU_API int e1npu_llm_load_file(struct e1npu_device *dev,
				  const char *model_path, const char *tok_path,
				  const struct e1npu_llm_options *opt,
				  struct e1npu_llm **lp, char *err, size_t errlen)
{
	void *m = NULL, *t = NULL;
	size_t ms = 0, ts = 0;
	char e2[LLM_ERR_LEN];
	int ret;

	if (!model_path || !lp)
		return llm_errf(err, errlen, -EINVAL, "e1npu_llm_load_file: %s is NULL",
				!lp ? "lp" : "model_path");
	ret = read_file("checkpoint", model_path, &m, &ms, err, errlen);
	if (ret)
		return ret;
	if (tok_path) {
		ret = read_file("tokenizer", tok_path, &t, &ts, err, errlen);
		if (ret) {
			free(m);
			return ret;
		}
	}
	ret = e1npu_llm_load_memory(dev, m, ms, t, ts, opt, lp, e2, sizeof(e2));
	if (ret)
		llm_errf(err, errlen, ret, "%s (%s)", e2,
			 !strncmp(e2, "tokenizer", 9) && tok_path ? tok_path : model_path);
	free(m);
	free(t);
	return ret;
}

E1NPU_API const char *e1npu_llm_last_error(const struct e1npu_llm *l)
{
	return l ? l->err : "";
}

E1NPU_API int e1npu_llm_get_config(const struct e1npu_llm *l,
				   struct e1npu_llm_config *cfg)
{
	if (!l || !cfg)
		return -EINVAL;
	*cfg = l->cfg;
	return 0;
}

E1NPU_API int e1npu_llm_encode(struct e1npu_llm *l, const char *text, int bos,
			       int eos, int32_t *ids, size_t max, size_t *count)
{
	int ret;

	if (!l)
		return -EINVAL;
	if (!text || !count || (!ids && max))
		return llm_seterr(l, -EINVAL, "e1npu_llm_encode: %s is NULL",
				  !text ? "text" : !count ? "count" : "ids");
	if (!l->tok)
		return llm_seterr(l, -ENOENT, "e1npu_llm_encode: no tokenizer was loaded");
	ret = llm_tokenizer_encode(l->tok, text, bos, eos, ids, max, count);
	if (ret == -ENOSPC)
		return llm_seterr(l, ret, "e1npu_llm_encode: %zu tokens do not fit in max %zu", *count, max);
	if (ret == -EINVAL)
		return llm_seterr(l, ret, "e1npu_llm_encode: the vocabulary (vocab_size %u) has no %s",
				  l->cfg.vocab_size,
				  (bos && l->cfg.vocab_size <= LLM_BOS) || (eos && l->cfg.vocab_size <= LLM_EOS) ?
				  "BOS (1) or EOS (2) token" : "<0xXX> token for a byte of the text");
	if (ret)
		return llm_seterr(l, ret, "e1npu_llm_encode: out of memory");
	return 0;
}

E1NPU_API int e1npu_llm_decode(struct e1npu_llm *l, int32_t prev, int32_t tok,
			       const char **piece)
{
	const char *s;
	unsigned int b;
	char tail;

	if (!l)
		return -EINVAL;
	if (!piece)
		return llm_seterr(l, -EINVAL, "e1npu_llm_decode: piece is NULL");
	if (!l->tok)
		return llm_seterr(l, -ENOENT, "e1npu_llm_decode: no tokenizer was loaded");
	if (tok < 0 || (uint32_t)tok >= l->cfg.vocab_size)
		return llm_seterr(l, -EINVAL, "e1npu_llm_decode: tok = %d: outside the vocabulary [0, %u)",
				  tok, l->cfg.vocab_size);
	s = l->tok->str[tok];
	if (prev == LLM_BOS && s[0] == ' ')
		s++;
	if (sscanf(s, "<0x%02X>%c", &b, &tail) == 1 && strlen(s) == 6) {
		l->piece[0] = (char)b;
		l->piece[1] = '\0';
		s = l->piece;
	}
	*piece = s;
	return 0;
}

static int run(struct e1npu_llm *l, const int32_t *ids, size_t n, int prefill)
{
	struct e1npu_device *dev = l->q8 ? l->q8->dev : NULL;
	struct e1npu_perf p0, p1;
	uint64_t t0 = now_ns();
	int have_perf = 0, ret = 0;

	if (dev)
		have_perf = !e1npu_device_read_perf(dev, &p0);
	if (l->q8) {
		for (size_t i = 0; !ret && i < n; i += l->q8->chunk) {
			uint32_t m = n - i < l->q8->chunk ? (uint32_t)(n - i) : l->q8->chunk;

			ret = llm_int8_forward(l, ids + i, m, l->pos);
			if (!ret)
				l->pos += m;
		}
	} else {
		for (size_t i = 0; i < n; i++, l->pos++) {
			if (l->f32)
				llm_f32_forward(l, ids[i], l->pos);
			else
				llm_f64_forward(l, ids[i], l->pos);
		}
		for (int i = 0; i < LLM_OP_CLS + 1; i++)
			llm_op_note(l, (enum llm_op_id)i, E1NPU_ENGINE_CPU, E1NPU_OPS_WHY_NO_DEVICE,
				    l->f32 ? "float32 reference path: CPU" : "float64 path: CPU", 0);
	}
	if (have_perf && !e1npu_device_read_perf(dev, &p1)) {
		l->st.jobs += p1.jobs - p0.jobs;
		l->st.wrapper_cycles += p1.wrapper_cycles - p0.wrapper_cycles;
		l->st.dp_cycles += p1.dp_cycles - p0.dp_cycles;
		l->st.global_cycles += p1.global_cycles - p0.global_cycles;
		if (prefill) {
			l->st.prefill_global_cycles += p1.global_cycles - p0.global_cycles;
			l->st.prefill_jobs += p1.jobs - p0.jobs;
		}
	}
	if (prefill) {
		l->st.prefill_tokens += n;
		l->st.prefill_ns += now_ns() - t0;
	} else {
		l->st.decode_tokens += n;
		l->st.decode_ns += now_ns() - t0;
	}
	return ret;
}

static int feed(struct e1npu_llm *l, const int32_t *ids, size_t n,
		const float **logits, int prefill)
{
	int ret;

	if (!l)
		return -EINVAL;
	if (!ids || !n)
		return llm_seterr(l, -EINVAL, "e1npu_llm_prefill: %s", !ids ? "ids is NULL" : "n is 0");
	for (size_t i = 0; i < n; i++)
		if (ids[i] < 0 || (uint32_t)ids[i] >= l->cfg.vocab_size)
			return llm_seterr(l, -EINVAL, "e1npu_llm_prefill: ids[%zu] = %d: outside the vocabulary [0, %u)",
					  i, ids[i], l->cfg.vocab_size);
	if (n > l->cfg.seq_len - l->pos)
		return llm_seterr(l, -ENOSPC, "e1npu_llm_prefill: %zu tokens at position %u overflow the context of seq_len %u tokens",
				  n, l->pos, l->cfg.seq_len);
	ret = run(l, ids, n, prefill);
	if (ret)
		return ret;	/* the message names the matmul that failed */
	if (logits)
		*logits = l->logits;
	return 0;
}

E1NPU_API int e1npu_llm_prefill(struct e1npu_llm *l, const int32_t *ids,
				size_t n, const float **logits)
{
	return feed(l, ids, n, logits, 1);
}

E1NPU_API int e1npu_llm_step(struct e1npu_llm *l, int32_t tok, const float **logits)
{
	return feed(l, &tok, 1, logits, 0);
}

E1NPU_API uint32_t e1npu_llm_position(const struct e1npu_llm *l)
{
	return l ? l->pos : 0;
}

E1NPU_API int e1npu_llm_reset(struct e1npu_llm *l)
{
	uint64_t wb;

	if (!l)
		return -EINVAL;
	l->pos = 0;
	wb = l->st.weight_bytes;
	memset(&l->st, 0, sizeof(l->st));
	l->st.weight_bytes = wb;
	ops_clear(l);
	return 0;
}

E1NPU_API int e1npu_llm_set_sampler(struct e1npu_llm *l, float temperature,
				    float top_p, uint64_t seed)
{
	if (!l)
		return -EINVAL;
	if (!(temperature >= 0.0f) || isinf(temperature))
		return llm_seterr(l, -EINVAL, "e1npu_llm_set_sampler: temperature = %g: must be finite and >= 0",
				  (double)temperature);
	if (!(top_p >= 0.0f && top_p <= 1.0f))
		return llm_seterr(l, -EINVAL, "e1npu_llm_set_sampler: top_p = %g: must be in [0, 1]", (double)top_p);
	l->temperature = temperature;
	l->top_p = top_p;
	l->rng = seed ? seed : 1;
	return 0;
}

E1NPU_API int e1npu_llm_sample(struct e1npu_llm *l, const float *logits, int32_t *tok)
{
	if (!l)
		return -EINVAL;
	if (!logits || !tok)
		return llm_seterr(l, -EINVAL, "e1npu_llm_sample: %s is NULL", !logits ? "logits" : "tok");
	return llm_sample(l, logits, tok);
}

E1NPU_API int e1npu_llm_get_stats(const struct e1npu_llm *l, struct e1npu_llm_stats *st)
{
	if (!l || !st)
		return -EINVAL;
	*st = l->st;
	return 0;
}

E1NPU_API uint32_t e1npu_llm_num_ops(const struct e1npu_llm *l)
{
	return l ? LLM_OP_COUNT : 0;
}

E1NPU_API int e1npu_llm_get_op(const struct e1npu_llm *l, uint32_t index,
			       struct e1npu_llm_op *op)
{
	if (!l || !op || index >= LLM_OP_COUNT)
		return -EINVAL;
	*op = l->ops[index];
	return 0;
}
