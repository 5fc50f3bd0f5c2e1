// SPDX-License-Identifier: MIT
/*
 * The compiled-model artifact (tflite_artifact.h): e1npu_tflite_compile()
 * writes what loading a model computes, e1npu_tflite_load_memory() checks
 * every field and bound of it before use and loads the model with the
 * stored lowering forms, skipping the cost-model search.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <e1npu/e1npu_tflite.h>

#include "internal.h"
#include "ops_internal.h"
#include "conv_choice.h"
#include "tflite_artifact.h"
#include "tflite_report.h"
#include "tflite_sha256.h"

static const char magic[8] = { 'E', '1', 'N', 'P', 'U', 'C', 'M', '\n' };

#define OFF_SUM 112u

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get64(const uint8_t *p)
{
	return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
}

/*
 * A 64-bit checksum of @n bytes continuing @h: 8 bytes a step, so that
 * checking a MobileNet's artifact costs a few milliseconds (SHA-256 of
 * its model alone costs more than the whole load). It finds corruption;
 * the loader's checks, not the checksum, keep a crafted file harmless.
 */
static uint64_t sum64(uint64_t h, const uint8_t *p, size_t n)
{
	const uint64_t m1 = 0x9e3779b97f4a7c15ull, m2 = 0xc2b2ae3d27d4eb4full;
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t w = get64(p + i);

		h ^= w * m2;
		h = ((h << 31) | (h >> 33)) * m1;
	}
	for (; i < n; i++) {
		h ^= p[i] * m2;
		h = ((h << 31) | (h >> 33)) * m1;
	}
	h ^= n;
	h ^= h >> 33;
	h *= m2;
	h ^= h >> 29;
	return h;
}

/* The checksum of a whole artifact but its own 8 bytes. */
static uint64_t art_sum(const uint8_t *b, size_t size)
{
	return sum64(sum64(0x6531, b, OFF_SUM), b + OFF_SUM + 8, size - OFF_SUM - 8);
}

void tflite_art_seal(void *buf, size_t size)
{
	if (size >= TFLITE_ART_HEADER)
		put64((uint8_t *)buf + OFF_SUM, art_sum(buf, size));
}

bool tflite_art_is(const void *buf, size_t size)
{
	return buf && size >= sizeof(magic) && !memcmp(buf, magic, sizeof(magic));
}

void tflite_art_caps_of(struct e1npu_device *dev, struct tflite_art_caps *c)
{
	struct e1npu_device_info di;

	memset(c, 0, sizeof(*c));
	if (!dev || e1npu_device_get_info(dev, &di))
		return;
	c->engines = di.engines;
	c->wrapper_caps = di.wrapper_caps;
	c->gemmini_present = di.gemmini_present;
	c->array_rows = di.array_rows;
	c->array_cols = di.array_cols;
}

struct art_out {
	uint32_t kind;
	const uint8_t *sha;
	struct tflite_art_caps caps;
	uint32_t nlayers, narena;
	uint64_t arena_bytes;
	size_t packed_bytes;		/* every layer's packed weights */
	const void *model;
	size_t model_size;
};

/* The header and an all-zero body of @o; records filled by the caller. */
static int art_alloc(const struct art_out *o, uint8_t **out, size_t *outsize)
{
	const char *lib = e1npu_api_version();
	size_t recs = ((size_t)o->nlayers + o->narena) * TFLITE_ART_RECORD +
		      (size_t)o->nlayers * TFLITE_ART_PACKED_ENTRY, total;
	uint8_t *b;

	if (strlen(lib) > 16 || o->nlayers > TFLITE_ART_MAX_RECORDS ||
	    o->narena > TFLITE_ART_MAX_RECORDS ||
	    o->packed_bytes > SIZE_MAX - TFLITE_ART_HEADER - recs ||
	    o->model_size > SIZE_MAX - TFLITE_ART_HEADER - recs - o->packed_bytes)
		return -EINVAL;
	total = TFLITE_ART_HEADER + recs + o->packed_bytes + o->model_size;
	b = calloc(1, total);
	if (!b)
		return -ENOMEM;
	memcpy(b, magic, sizeof(magic));
	put32(b + 8, TFLITE_ART_FORMAT);
	put32(b + 12, TFLITE_ART_HEADER);
	memcpy(b + 16, lib, strlen(lib));
	memcpy(b + 32, o->sha, 32);
	put32(b + 64, o->kind);
	put32(b + 68, o->nlayers);
	put32(b + 72, o->caps.engines);
	put32(b + 76, o->caps.wrapper_caps);
	put32(b + 80, o->caps.gemmini_present);
	put32(b + 84, o->caps.array_rows);
	put32(b + 88, o->caps.array_cols);
	put32(b + 92, o->narena);
	put64(b + 96, o->model_size);
	put64(b + 104, o->arena_bytes);
	put64(b + 120, o->packed_bytes);
	if (o->model_size)
		memcpy(b + TFLITE_ART_HEADER + recs + o->packed_bytes, o->model, o->model_size);
	*out = b;
	*outsize = total;
	return 0;
}

int tflite_art_wrap(uint32_t kind, struct e1npu_device *dev, const void *payload,
		    size_t size, void **out, size_t *outsize)
{
	uint8_t sha[32], *b = NULL;
	struct art_out o;
	size_t total = 0;
	int ret;

	memset(&o, 0, sizeof(o));
	tfl_sha256(payload, size, sha);
	o.kind = kind;
	o.sha = sha;
	tflite_art_caps_of(dev, &o.caps);
	o.model = payload;
	o.model_size = size;
	ret = art_alloc(&o, &b, &total);
	if (ret)
		return ret;
	tflite_art_seal(b, total);
	*out = b;
	*outsize = total;
	return 0;
}

static void put_layer(uint8_t *r, int32_t builtin, const struct ops_conv_choice *c,
		      const struct tflite_op_plan *p)
{
	put32(r, (uint32_t)builtin);
	r[7] = (uint8_t)c->form;
	r[12] = (uint8_t)c->bh;
	r[13] = (uint8_t)c->bw;
	r[14] = (uint8_t)c->gs;
	if (p) {
		r[4] = (uint8_t)p->place;
		r[5] = (uint8_t)p->rep.engine;
		r[6] = (uint8_t)p->rep.reason;
		put32(r + 8, (uint32_t)p->partition);
		put64(r + 16, p->rep.macs);
		put64(r + 24, p->rep.wrapper_cycles + p->rep.dp_cycles);
	}
}

/* Layer @k's convolution, or NULL. */
static const struct e1npu_conv *layer_conv(const struct e1npu_tflite *t, uint32_t k)
{
	struct tflite_layer_view v;

	return tflite_layer_view(t, k, &v) ? NULL : v.conv;
}

/* Layer @k's lowering form (conv layers; the others have none: 0). */
static void layer_choice(const struct e1npu_tflite *t, uint32_t k, struct ops_conv_choice *c)
{
	memset(c, 0, sizeof(*c));
	if (layer_conv(t, k))
		ops_conv_get_choice(layer_conv(t, k), c);
}

/* The bytes of @nlayers layers' packed weights. */
static size_t packed_total(const struct e1npu_tflite *t, uint32_t nlayers)
{
	size_t n = 0;

	for (uint32_t k = 0; k < nlayers; k++)
		if (layer_conv(t, k))
			n += ops_conv_packed(layer_conv(t, k), NULL);
	return n;
}

/* The packed-weight table at @tab and the weights after it (art_alloc's room). */
static void put_packed(const struct e1npu_tflite *t, uint32_t nlayers, uint8_t *tab)
{
	uint8_t *data = tab + (size_t)nlayers * TFLITE_ART_PACKED_ENTRY;
	size_t off = 0;

	for (uint32_t k = 0; k < nlayers; k++, tab += TFLITE_ART_PACKED_ENTRY) {
		size_t n = layer_conv(t, k) ? ops_conv_packed(layer_conv(t, k), data + off) : 0;

		put64(tab, n ? off : 0);
		put64(tab + 8, n);
		off += n;
	}
}

E1NPU_API int e1npu_tflite_compile(const struct e1npu_tflite *t, void **out, size_t *outsize,
				   char *err, size_t errlen)
{
	struct tflite_op_plan *plan = NULL;
	struct e1npu_tflite_arena ar;
	struct art_out o = { .kind = TFLITE_ART_KIND_MODEL };
	const struct tfl_model *m;
	struct e1npu_ops *ops;
	uint8_t sha[32], *b = NULL, *r;
	uint32_t nparts, nlayers;
	size_t size;
	int ret;

	if (err && errlen)
		err[0] = 0;
	if (!t || !out || !outsize)
		return -EINVAL;
	*out = NULL;
	*outsize = 0;
	tflite_source(t, &o.model, &o.model_size, &m, &ops);
	if (!o.model || !ops) {
		if (err && errlen)
			snprintf(err, errlen, "compile: %s", !o.model ?
				 "a delegate partition is not a model" :
				 "the interpreter is on the reference path (nothing to compile)");
		return -EINVAL;
	}
	e1npu_tflite_get_counts(t, NULL, NULL, &nlayers);
	if (e1npu_tflite_get_arena(t, &ar) || nlayers != m->num_operators)
		return -EINVAL;
	plan = calloc(nlayers ? nlayers : 1, sizeof(*plan));
	if (!plan)
		return -ENOMEM;
	/* where each operator runs and why: what e1npu-tflite report prints */
	ret = tflite_plan_ops(ops, m, plan, &nparts, err, errlen);
	if (ret)
		goto out;
	tfl_sha256(o.model, o.model_size, sha);
	o.sha = sha;
	tflite_art_caps_of(ops->dev, &o.caps);
	o.nlayers = nlayers;
	o.narena = ar.num_tensors;
	o.arena_bytes = ar.total_bytes;
	o.packed_bytes = packed_total(t, nlayers);
	ret = art_alloc(&o, &b, &size);
	if (ret)
		goto out;
	r = b + TFLITE_ART_HEADER;
	for (uint32_t k = 0; k < nlayers; k++, r += TFLITE_ART_RECORD) {
		struct ops_conv_choice c;

		layer_choice(t, k, &c);
		put_layer(r, m->operators[k].builtin, &c, &plan[k]);
	}
	for (uint32_t i = 0; i < ar.num_tensors; i++, r += TFLITE_ART_RECORD) {
		struct e1npu_tflite_arena_tensor e;

		e1npu_tflite_get_arena_tensor(t, i, &e);
		put32(r, (uint32_t)e.tensor);
		put32(r + 4, e.role);
		put32(r + 8, e.first_layer);
		put32(r + 12, e.last_layer);
		put64(r + 16, e.offset);
		put64(r + 24, e.bytes);
	}
	put_packed(t, nlayers, r);
	tflite_art_seal(b, size);
	*out = b;
	*outsize = size;
out:
	free(plan);
	if (ret && err && errlen && !err[0])
		snprintf(err, errlen, "compile: %s", e1npu_strerror(ret));
	return ret;
}

#define BAD(ret, ...) do { \
	if (err && errlen) \
		snprintf(err, errlen, __VA_ARGS__); \
	return (ret); \
} while (0)

int tflite_art_parse(const void *buf, size_t size, uint32_t kind, const char *lib,
		     struct tflite_art *a, char *err, size_t errlen)
{
	const uint8_t *b = buf;
	uint64_t recs, msize, packed;
	uint32_t v;

	memset(a, 0, sizeof(*a));
	if (!tflite_art_is(buf, size))
		BAD(-EINVAL, "not an e1npu compiled model (magic)");
	if (size < TFLITE_ART_HEADER)
		BAD(-EINVAL, "truncated: %zu bytes, the header alone is %u", size,
		    TFLITE_ART_HEADER);
	v = get32(b + 8);
	if (v != TFLITE_ART_FORMAT)
		BAD(-ENOTSUP, "format version %u, this libe1npu reads version %u: compile it again",
		    v, TFLITE_ART_FORMAT);
	if (get32(b + 12) != TFLITE_ART_HEADER)
		BAD(-EINVAL, "header of %u bytes, version %u has %u", get32(b + 12),
		    TFLITE_ART_FORMAT, TFLITE_ART_HEADER);
	memcpy(a->lib_version, b + 16, 16);
	a->lib_version[16] = 0;
	for (size_t i = strlen(a->lib_version); i < 16; i++)
		if (b[16 + i])
			BAD(-EINVAL, "library version field is not NUL-padded");
	if (strcmp(a->lib_version, lib))
		BAD(-ENOTSUP, "compiled by libe1npu %s, this is libe1npu %s: compile it again",
		    a->lib_version, lib);
	a->kind = get32(b + 64);
	if (a->kind != kind)
		BAD(-ENOTSUP, "an artifact of kind %u (%s), expected kind %u", a->kind,
		    a->kind == TFLITE_ART_KIND_MODEL ? "a model" :
		    a->kind == TFLITE_ART_KIND_PART ? "a delegate partition" :
		    a->kind == TFLITE_ART_KIND_ORT ? "an ONNX Runtime EP partition" : "unknown",
		    kind);
	a->nlayers = get32(b + 68);
	a->narena = get32(b + 92);
	msize = get64(b + 96);
	a->arena_bytes = get64(b + 104);
	if (a->nlayers > TFLITE_ART_MAX_RECORDS || a->narena > TFLITE_ART_MAX_RECORDS)
		BAD(-EINVAL, "%u layer and %u arena records: more than %u", a->nlayers,
		    a->narena, TFLITE_ART_MAX_RECORDS);
	packed = get64(b + 120);
	/* each count is below 2^20, each size at most the file's: no sum wraps 64 bits */
	recs = ((uint64_t)a->nlayers + a->narena) * TFLITE_ART_RECORD +
	       (uint64_t)a->nlayers * TFLITE_ART_PACKED_ENTRY;
	if (msize > size || packed > size || TFLITE_ART_HEADER + recs + packed + msize != size)
		BAD(-EINVAL, "truncated or padded: %u layer and %u arena records, %llu bytes of packed weights and a model of %llu bytes do not make the file's %zu bytes",
		    a->nlayers, a->narena, (unsigned long long)packed, (unsigned long long)msize,
		    size);
	if (kind == TFLITE_ART_KIND_PART && (msize || a->narena))
		BAD(-EINVAL, "a delegate partition with a model or an arena plan");
	if (kind == TFLITE_ART_KIND_ORT && (a->nlayers || a->narena || packed))
		BAD(-EINVAL, "an ONNX Runtime EP partition with layer or arena records");
	if (get64(b + OFF_SUM) != art_sum(b, size))
		BAD(-EINVAL, "checksum differs from the one recorded: the file is corrupted");
	memcpy(a->sha256, b + 32, 32);
	if (kind == TFLITE_ART_KIND_ORT) {
		uint8_t sha[32];

		tfl_sha256(b + size - msize, (size_t)msize, sha);
		if (memcmp(sha, a->sha256, 32))
			BAD(-EINVAL, "SHA-256 of the payload differs from the one recorded: the blob is corrupted");
	}
	a->caps.engines = get32(b + 72);
	a->caps.wrapper_caps = get32(b + 76);
	a->caps.gemmini_present = get32(b + 80);
	a->caps.array_rows = get32(b + 84);
	a->caps.array_cols = get32(b + 88);
	a->layers = b + TFLITE_ART_HEADER;
	a->arena = a->layers + (size_t)a->nlayers * TFLITE_ART_RECORD;
	a->packed_table = a->arena + (size_t)a->narena * TFLITE_ART_RECORD;
	a->packed = a->packed_table + (size_t)a->nlayers * TFLITE_ART_PACKED_ENTRY;
	a->packed_size = (size_t)packed;
	a->model = a->packed + a->packed_size;
	a->model_size = (size_t)msize;
	return 0;
}

int tflite_art_check_caps(const struct tflite_art *a, const struct tflite_art_caps *d,
			  char *err, size_t errlen)
{
	static const char *const names[] = {
		"engines", "wrapper_caps", "gemmini_present", "array_rows", "array_cols"
	};
	const uint32_t x[] = { a->caps.engines, a->caps.wrapper_caps, a->caps.gemmini_present,
			       a->caps.array_rows, a->caps.array_cols };
	const uint32_t y[] = { d->engines, d->wrapper_caps, d->gemmini_present, d->array_rows,
			       d->array_cols };

	for (size_t i = 0; i < sizeof(x) / sizeof(x[0]); i++)
		if (x[i] != y[i])
			BAD(-ENOTSUP, "compiled for a device with %s 0x%x, this device has 0x%x: compile it for this device",
			    names[i], x[i], y[i]);
	return 0;
}

struct ops_conv_choice *tflite_art_choices(const struct tflite_art *a, char *err,
					   size_t errlen)
{
	struct ops_conv_choice *c = calloc(a->nlayers ? a->nlayers : 1, sizeof(*c));

	if (!c) {
		if (err && errlen)
			snprintf(err, errlen, "out of memory");
		return NULL;
	}
	for (uint32_t k = 0; k < a->nlayers; k++) {
		const uint8_t *r = a->layers + (size_t)k * TFLITE_ART_RECORD;

		/* the rest is checked by ops_conv_new_chosen(), against the layer */
		if (r[7] > OPS_CONV_FORM_PACKED || r[15] || (r[4] > 3) || r[5] > 3) {
			if (err && errlen)
				snprintf(err, errlen,
					 "layer record %u: form %u, place %u or engine %u out of range, or padding not 0",
					 k, r[7], r[4], r[5]);
			free(c);
			return NULL;
		}
		c[k].form = r[7];
		c[k].bh = r[12];
		c[k].bw = r[13];
		c[k].gs = r[14];
		{
			const uint8_t *e = a->packed_table + (size_t)k * TFLITE_ART_PACKED_ENTRY;
			uint64_t off = get64(e), len = get64(e + 8);

			/* inside the packed section; ops_conv_new_chosen checks the length */
			if (off > a->packed_size || len > a->packed_size - off) {
				if (err && errlen)
					snprintf(err, errlen,
						 "layer %u: packed weights at %llu, %llu bytes, past the %zu of the section",
						 k, (unsigned long long)off, (unsigned long long)len,
						 a->packed_size);
				free(c);
				return NULL;
			}
			c[k].packed = len ? a->packed + off : NULL;
			c[k].packed_size = (size_t)len;
		}
	}
	return c;
}

/* The loaded interpreter is the one compiled: operators, arena plan. */
static int check_loaded(const struct e1npu_tflite *t, const struct tflite_art *a, char *err,
			size_t errlen)
{
	struct e1npu_tflite_arena ar;
	uint32_t nlayers;

	e1npu_tflite_get_counts(t, NULL, NULL, &nlayers);
	for (uint32_t k = 0; k < nlayers; k++) {
		struct e1npu_tflite_layer l;
		int32_t want = (int32_t)get32(a->layers + (size_t)k * TFLITE_ART_RECORD);

		if (e1npu_tflite_get_layer(t, k, &l) || l.builtin != want)
			BAD(-EINVAL, "layer record %u is builtin %d, the model's operator %u is %s: the file is corrupted",
			    k, want, k, l.op);
	}
	if (e1npu_tflite_get_arena(t, &ar) || ar.total_bytes != a->arena_bytes ||
	    ar.num_tensors != a->narena)
		BAD(-EINVAL, "stored arena plan (%llu bytes, %u tensors) differs from the model's (%llu bytes, %u tensors): the file is corrupted",
		    (unsigned long long)a->arena_bytes, a->narena,
		    (unsigned long long)ar.total_bytes, ar.num_tensors);
	for (uint32_t i = 0; i < a->narena; i++) {
		const uint8_t *r = a->arena + (size_t)i * TFLITE_ART_RECORD;
		struct e1npu_tflite_arena_tensor e;

		if (e1npu_tflite_get_arena_tensor(t, i, &e) || (uint32_t)e.tensor != get32(r) ||
		    e.role != get32(r + 4) || e.first_layer != get32(r + 8) ||
		    e.last_layer != get32(r + 12) || e.offset != get64(r + 16) ||
		    e.bytes != get64(r + 24))
			BAD(-EINVAL, "stored arena plan differs from the model's at entry %u (tensor %u): the file is corrupted",
			    i, get32(r));
	}
	return 0;
}

int tflite_art_load(struct e1npu_device *dev, const void *data, size_t size,
		    const struct e1npu_tflite_options *opt, struct e1npu_tflite **tp,
		    char *err, size_t errlen)
{
	struct ops_conv_choice *c;
	struct tflite_art a;
	struct tflite_art_caps caps;
	int ret;

	ret = tflite_art_parse(data, size, TFLITE_ART_KIND_MODEL, e1npu_api_version(), &a,
			       err, errlen);
	if (ret)
		return ret;
	/* the reference path has no device: the forms are not used */
	if (!opt || opt->path == E1NPU_TFLITE_PATH_NPU) {
		tflite_art_caps_of(dev, &caps);
		ret = tflite_art_check_caps(&a, &caps, err, errlen);
		if (ret)
			return ret;
	}
	c = tflite_art_choices(&a, err, errlen);
	if (!c)
		return -EINVAL;
	ret = tflite_load_chosen(dev, a.model, a.model_size, opt, c, a.nlayers, tp, err, errlen);
	free(c);
	if (!ret) {
		ret = check_loaded(*tp, &a, err, errlen);
		if (ret) {
			e1npu_tflite_free(*tp);
			*tp = NULL;
		}
	}
	return ret;
}

/* A growing byte string for the fingerprint. */
struct fp_buf {
	uint8_t *p;
	size_t n, cap;
	bool oom;
};

static void fp_add(struct fp_buf *f, const void *d, size_t n)
{
	if (f->oom || !n)	/* n == 0: d may be NULL (no scales) */
		return;
	if (f->cap - f->n < n) {
		size_t cap = f->cap ? f->cap * 2 : 4096;
		uint8_t *p;

		while (cap - f->n < n)
			cap *= 2;
		p = realloc(f->p, cap);
		if (!p) {
			f->oom = true;
			return;
		}
		f->p = p;
		f->cap = cap;
	}
	memcpy(f->p + f->n, d, n);
	f->n += n;
}

static void fp_u32(struct fp_buf *f, uint32_t v)
{
	uint8_t b[4];

	put32(b, v);
	fp_add(f, b, 4);
}

static void fp_tensor(struct fp_buf *f, const struct tfl_model *m, int32_t ti)
{
	const struct tfl_tensor *x;
	uint8_t b[8];

	fp_u32(f, (uint32_t)ti);
	if (ti < 0 || (uint32_t)ti >= m->num_tensors)
		return;
	x = &m->tensors[ti];
	fp_u32(f, x->type);
	fp_u32(f, x->ndims);
	for (uint32_t d = 0; d < x->ndims && d < TFL_MAX_DIMS; d++)
		fp_u32(f, (uint32_t)x->dims[d]);
	fp_u32(f, x->num_scales);
	fp_add(f, x->scales, (size_t)x->num_scales * 4);
	fp_u32(f, x->num_zero_points);
	fp_add(f, x->zero_points, (size_t)x->num_zero_points * 8);
	fp_u32(f, (uint32_t)x->quantized_dimension);
	fp_u32(f, x->data ? 1 : 0);
	put64(b, x->data ? sum64(0x6531, x->data, x->data_size) : 0);
	fp_add(f, b, 8);
	put64(b, x->data ? x->data_size : 0);
	fp_add(f, b, 8);
}

/*
 * Every field of struct tfl_options goes into the fingerprint below: a
 * field added there without being hashed here would let two partitions
 * that differ only in it share a cache entry.
 */
_Static_assert(sizeof(struct tfl_options) == (24 + TFL_MAX_DIMS) * 4,
	       "tflite_part_fingerprint() must hash every struct tfl_options field");

int tflite_part_fingerprint(const struct tfl_model *m, const uint32_t *ops, uint32_t n,
			    uint8_t out[32])
{
	struct fp_buf f = { 0 };

	fp_add(&f, "e1npu partition", 15);
	fp_u32(&f, n);
	for (uint32_t k = 0; k < n; k++) {
		const struct tfl_operator *op;
		const struct tfl_options *o;

		if (ops[k] >= m->num_operators) {
			free(f.p);
			return -EINVAL;
		}
		op = &m->operators[ops[k]];
		o = &op->opt;
		fp_u32(&f, (uint32_t)op->builtin);
		fp_u32(&f, (uint32_t)op->version);
		/* every option, field by field (no padding bytes hashed) */
		fp_u32(&f, o->type);
		{
			const int32_t v[] = { o->padding, o->stride_w, o->stride_h, o->dilation_w,
					      o->dilation_h, o->depth_multiplier, o->filter_w,
					      o->filter_h, o->act, o->keep_dims, o->axis,
					      o->begin_mask, o->end_mask, o->ellipsis_mask,
					      o->new_axis_mask, o->shrink_axis_mask };
			float beta = o->beta;
			uint32_t bb;

			const int32_t w[] = { o->num, o->align_corners, o->half_pixel_centers,
					      o->block_size };
			float alpha = o->alpha;
			uint32_t ab;

			for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
				fp_u32(&f, (uint32_t)v[i]);
			memcpy(&bb, &beta, 4);
			fp_u32(&f, bb);
			fp_u32(&f, o->num_new_shape);
			for (uint32_t i = 0; i < o->num_new_shape && i < TFL_MAX_DIMS; i++)
				fp_u32(&f, (uint32_t)o->new_shape[i]);
			for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++)
				fp_u32(&f, (uint32_t)w[i]);
			memcpy(&ab, &alpha, 4);
			fp_u32(&f, ab);
		}
		fp_u32(&f, op->num_inputs);
		for (uint32_t i = 0; i < op->num_inputs; i++)
			fp_tensor(&f, m, op->inputs[i]);
		fp_u32(&f, op->num_outputs);
		for (uint32_t i = 0; i < op->num_outputs; i++)
			fp_tensor(&f, m, op->outputs[i]);
	}
	if (f.oom) {
		free(f.p);
		return -ENOMEM;
	}
	tfl_sha256(f.p, f.n, out);
	free(f.p);
	return 0;
}

int tflite_part_compile(const struct e1npu_tflite *t, const uint8_t fp[32], void **out,
			size_t *outsize)
{
	struct art_out o = { .kind = TFLITE_ART_KIND_PART, .sha = fp };
	const struct tfl_model *m;
	struct e1npu_ops *ops;
	const void *file;
	size_t fsize, size;
	uint8_t *b, *r;
	int ret;

	*out = NULL;
	if (!t || tflite_source(t, &file, &fsize, &m, &ops) || !ops)
		return -EINVAL;
	e1npu_tflite_get_counts(t, NULL, NULL, &o.nlayers);
	tflite_art_caps_of(ops->dev, &o.caps);
	o.packed_bytes = packed_total(t, o.nlayers);
	ret = art_alloc(&o, &b, &size);
	if (ret)
		return ret;
	r = b + TFLITE_ART_HEADER;
	for (uint32_t k = 0; k < o.nlayers; k++, r += TFLITE_ART_RECORD) {
		struct e1npu_tflite_layer l;
		struct ops_conv_choice c;

		e1npu_tflite_get_layer(t, k, &l);
		layer_choice(t, k, &c);
		put_layer(r, l.builtin, &c, NULL);
	}
	put_packed(t, o.nlayers, r);
	tflite_art_seal(b, size);
	*out = b;
	*outsize = size;
	return 0;
}
