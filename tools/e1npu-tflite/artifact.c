// SPDX-License-Identifier: MIT
/* e1npu-tflite compile's artifact: writer and bounds-checked loader (artifact.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <e1npu/e1npu.h>

#include "artifact.h"
#include "sha256.h"

static const char magic[8] = { 'E', '1', 'N', 'P', 'U', 'C', 'M', '\n' };

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get64(const uint8_t *p)
{
	return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
}

void art_caps_of(const struct e1npu_device_info *info, struct art_caps *c)
{
	c->engines = info->engines;
	c->wrapper_caps = info->wrapper_caps;
	c->gemmini_present = info->gemmini_present;
	c->array_rows = info->array_rows;
	c->array_cols = info->array_cols;
}

bool art_is_artifact(const void *buf, size_t size)
{
	return size >= sizeof(magic) && !memcmp(buf, magic, sizeof(magic));
}

/* The first 16 bytes of SHA-256 over header bytes 0..111 and the plan records. */
static int meta_digest(const uint8_t *b, uint32_t nops, uint8_t out[16])
{
	size_t plan = (size_t)nops * ART_RECORD_BYTES;
	uint8_t *tmp = malloc(112 + plan), sum[32];

	if (!tmp)
		return -ENOMEM;
	memcpy(tmp, b, 112);
	memcpy(tmp + 112, b + ART_HEADER_BYTES, plan);
	sha256(tmp, 112 + plan, sum);
	free(tmp);
	memcpy(out, sum, 16);
	return 0;
}

int art_build(const void *model, size_t msize, const char *lib,
	      const struct art_caps *caps, const struct art_op *ops, uint32_t nops,
	      uint8_t **out, size_t *outsize)
{
	size_t plan = (size_t)nops * ART_RECORD_BYTES, total;
	uint8_t *b, *r;

	*out = NULL;
	if (!lib || strlen(lib) > 16 || nops > (1u << 20) ||
	    msize > SIZE_MAX - ART_HEADER_BYTES - plan)
		return -EINVAL;
	total = ART_HEADER_BYTES + plan + msize;
	b = calloc(1, total);
	if (!b)
		return -ENOMEM;
	memcpy(b, magic, sizeof(magic));
	put32(b + 8, ART_FORMAT_VERSION);
	put32(b + 12, ART_HEADER_BYTES);
	memcpy(b + 16, lib, strlen(lib));
	sha256(model, msize, b + 32);
	put64(b + 64, msize);
	put64(b + 72, ART_HEADER_BYTES + plan);
	put32(b + 80, caps->engines);
	put32(b + 84, caps->wrapper_caps);
	put32(b + 88, caps->gemmini_present);
	put32(b + 92, caps->array_rows);
	put32(b + 96, caps->array_cols);
	put32(b + 100, nops);
	put32(b + 104, ART_HEADER_BYTES);
	put32(b + 108, ART_RECORD_BYTES);
	for (uint32_t i = 0; i < nops; i++) {
		r = b + ART_HEADER_BYTES + (size_t)i * ART_RECORD_BYTES;
		put32(r, ops[i].builtin);
		r[4] = ops[i].place;
		r[5] = ops[i].engine;
		r[6] = ops[i].reason;
		put32(r + 8, (uint32_t)ops[i].partition);
		put64(r + 12, ops[i].macs);
		put64(r + 20, ops[i].cycles);
	}
	if (msize)
		memcpy(b + ART_HEADER_BYTES + plan, model, msize);
	if (meta_digest(b, nops, b + 112)) {
		free(b);
		return -ENOMEM;
	}
	*out = b;
	*outsize = total;
	return 0;
}

#define BAD(ret, ...) do { if (err && errlen) snprintf(err, errlen, __VA_ARGS__); return (ret); } while (0)

int art_parse(const void *buf, size_t size, const char *lib, struct art_view *v,
	      char *err, size_t errlen)
{
	const uint8_t *b = buf;
	uint64_t msize, moff;
	uint32_t hdr, nops, poff, rec;
	uint8_t sum[32];

	memset(v, 0, sizeof(*v));
	if (size < ART_HEADER_BYTES)
		BAD(-EINVAL, "truncated: %zu bytes, the header alone is %u", size, ART_HEADER_BYTES);
	if (memcmp(b, magic, sizeof(magic)))
		BAD(-EINVAL, "not an e1npu-tflite artifact (magic)");
	v->format_version = get32(b + 8);
	if (v->format_version != ART_FORMAT_VERSION)
		BAD(-ENOTSUP, "format version %u, this loader reads version %u",
		    v->format_version, ART_FORMAT_VERSION);
	hdr = get32(b + 12);
	if (hdr != ART_HEADER_BYTES)
		BAD(-EINVAL, "header of %u bytes, version %u has %u", hdr, ART_FORMAT_VERSION,
		    ART_HEADER_BYTES);
	memcpy(v->lib_version, b + 16, 16);
	v->lib_version[16] = 0;
	for (size_t i = strlen(v->lib_version); i < 16; i++)
		if (b[16 + i])
			BAD(-EINVAL, "library version field is not NUL-padded");
	if (strcmp(v->lib_version, lib))
		BAD(-ENOTSUP, "compiled by libe1npu %s, this is libe1npu %s: compile it again",
		    v->lib_version, lib);
	msize = get64(b + 64);
	moff = get64(b + 72);
	nops = get32(b + 100);
	poff = get32(b + 104);
	rec = get32(b + 108);
	if (poff != ART_HEADER_BYTES || rec != ART_RECORD_BYTES)
		BAD(-EINVAL, "plan at %u in records of %u bytes, version %u has %u and %u",
		    poff, rec, ART_FORMAT_VERSION, ART_HEADER_BYTES, ART_RECORD_BYTES);
	if (nops > (size - ART_HEADER_BYTES) / ART_RECORD_BYTES)
		BAD(-EINVAL, "%u plan records do not fit in %zu bytes", nops, size);
	if (moff != ART_HEADER_BYTES + (uint64_t)nops * ART_RECORD_BYTES)
		BAD(-EINVAL, "model at offset %llu, the plan ends at %llu",
		    (unsigned long long)moff,
		    (unsigned long long)(ART_HEADER_BYTES + (uint64_t)nops * ART_RECORD_BYTES));
	if (moff > size || msize != size - moff)
		BAD(-EINVAL, "truncated or padded: a model of %llu bytes at %llu, the file is %zu bytes",
		    (unsigned long long)msize, (unsigned long long)moff, size);
	v->caps.engines = get32(b + 80);
	v->caps.wrapper_caps = get32(b + 84);
	v->caps.gemmini_present = get32(b + 88);
	v->caps.array_rows = get32(b + 92);
	v->caps.array_cols = get32(b + 96);
	v->num_ops = nops;
	v->records = b + ART_HEADER_BYTES;
	v->model = b + moff;
	v->model_size = (size_t)msize;
	for (uint32_t i = 0; i < nops; i++) {
		const uint8_t *r = v->records + (size_t)i * ART_RECORD_BYTES;

		if (r[4] > 3 || r[5] > 3 || r[7] || get32(r + 28))
			BAD(-EINVAL, "plan record %u: place %u, engine %u out of range, or padding not 0",
			    i, r[4], r[5]);
	}
	{
		uint8_t md[16];

		if (meta_digest(b, nops, md))
			BAD(-ENOMEM, "out of memory");
		if (memcmp(md, b + 112, 16))
			BAD(-EINVAL, "the header's or plan's digest differs from the one recorded: the file is corrupted");
	}
	memcpy(v->sha256, b + 32, 32);
	sha256(v->model, v->model_size, sum);
	if (memcmp(sum, v->sha256, 32))
		BAD(-EINVAL, "the model's SHA-256 differs from the one recorded: the file is corrupted");
	return 0;
}

int art_check_caps(const struct art_view *v, const struct art_caps *d, char *err, size_t errlen)
{
	static const char *const names[] = {
		"engines", "wrapper_caps", "gemmini_present", "array_rows", "array_cols"
	};
	const uint32_t a[] = { v->caps.engines, v->caps.wrapper_caps, v->caps.gemmini_present,
			       v->caps.array_rows, v->caps.array_cols };
	const uint32_t b[] = { d->engines, d->wrapper_caps, d->gemmini_present, d->array_rows,
			       d->array_cols };

	for (size_t i = 0; i < sizeof(a) / sizeof(a[0]); i++)
		if (a[i] != b[i])
			BAD(-ENOTSUP, "compiled for a device with %s 0x%x, this device has 0x%x: compile it for this device",
			    names[i], a[i], b[i]);
	return 0;
}

void art_get_op(const struct art_view *v, uint32_t i, struct art_op *op)
{
	const uint8_t *r = v->records + (size_t)i * ART_RECORD_BYTES;

	op->builtin = get32(r);
	op->place = r[4];
	op->engine = r[5];
	op->reason = r[6];
	op->partition = (int32_t)get32(r + 8);
	op->macs = get64(r + 12);
	op->cycles = get64(r + 20);
}
