// SPDX-License-Identifier: MIT
/*
 * Bounds-checked TFLite FlatBuffer reader (see tflite_reader.h and
 * Documentation/tflite.md). Written from the FlatBuffers binary format:
 *
 *   root:   uoffset32 at byte 0 to the root table; "TFL3" at bytes 4..7.
 *   table:  soffset32 at its start; vtable = table - soffset; the vtable is
 *           uint16 vtable_size, uint16 table_size, uint16 field offsets
 *           (0 = absent, else relative to the table start).
 *   refs:   a table/vector/string field holds a uoffset32 relative to the
 *           field's own position.
 *   vector: uint32 length, then the elements (tables: one uoffset32 each,
 *           relative to the element); string: a byte vector + NUL.
 *
 * Every read goes through rd_*() which checks it against the buffer size,
 * so a malformed file can only produce an error, never an out-of-bounds
 * access. Multi-byte values are assembled byte by byte (little endian,
 * unaligned-safe).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tflite_reader.h"

struct rd {
	const uint8_t *b;
	size_t n;
	char *err;
	size_t errlen;
	size_t mem;		/* bytes of parsed structures so far */
};

struct tbl {
	size_t pos;		/* table start */
	size_t vt;		/* vtable start */
	uint16_t vlen, tlen;
};

__attribute__((format(printf, 2, 3)))
static int fail(struct rd *r, const char *fmt, ...)
{
	va_list ap;

	if (r->err && r->errlen) {
		va_start(ap, fmt);
		vsnprintf(r->err, r->errlen, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* A count past its limit: refused, naming the limit. */
static int over(struct rd *r, const char *what, uint32_t n, uint32_t max,
		const char *name)
{
	fail(r, "%s: %u entries, more than the limit %s = %u", what, n, name, max);
	return -ENOTSUP;
}

/*
 * @n more bytes of parsed structures: refused past TFL_MEM_PER_FILE_BYTE
 * times the file plus TFL_MEM_BASE (many entries sharing one table).
 */
size_t tfl_mem_budget(size_t file_size)
{
	return file_size > (SIZE_MAX - TFL_MEM_BASE) / TFL_MEM_PER_FILE_BYTE ? SIZE_MAX :
	       file_size * TFL_MEM_PER_FILE_BYTE + TFL_MEM_BASE;
}

static int take(struct rd *r, size_t n, const char *what)
{
	size_t budget = tfl_mem_budget(r->n);

	if (n > budget || r->mem > budget - n) {
		fail(r, "%s: the parsed model would take more than %zu bytes, the limit "
		     "TFL_MEM_PER_FILE_BYTE (%u) x the file (%zu bytes) + TFL_MEM_BASE (%zu)",
		     what, budget, TFL_MEM_PER_FILE_BYTE, r->n, TFL_MEM_BASE);
		return -ENOTSUP;
	}
	r->mem += n;
	return 0;
}

static bool in_bounds(const struct rd *r, size_t pos, size_t len)
{
	return pos <= r->n && len <= r->n - pos;
}

static uint16_t ld16(const uint8_t *p)
{
	return (uint16_t)(p[0] | (p[1] << 8));
}

static uint32_t ld32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint64_t ld64(const uint8_t *p)
{
	return (uint64_t)ld32(p) | (uint64_t)ld32(p + 4) << 32;
}

/* Open the table at @pos: validate its soffset, vtable and table size. */
static int rd_table(struct rd *r, size_t pos, struct tbl *t, const char *what)
{
	int64_t vt;

	if (!in_bounds(r, pos, 4))
		return fail(r, "%s: table at 0x%zx past end of file (%zu bytes)",
			    what, pos, r->n);
	vt = (int64_t)pos - (int32_t)ld32(r->b + pos);
	if (vt < 0 || !in_bounds(r, (size_t)vt, 4))
		return fail(r, "%s: table at 0x%zx: vtable offset %d points outside the file",
			    what, pos, (int32_t)ld32(r->b + pos));
	t->pos = pos;
	t->vt = (size_t)vt;
	t->vlen = ld16(r->b + t->vt);
	t->tlen = ld16(r->b + t->vt + 2);
	if (t->vlen < 4 || (t->vlen & 1) || !in_bounds(r, t->vt, t->vlen))
		return fail(r, "%s: table at 0x%zx: bad vtable size %u at 0x%zx",
			    what, pos, t->vlen, t->vt);
	if (t->tlen < 4 || !in_bounds(r, pos, t->tlen))
		return fail(r, "%s: table at 0x%zx: table size %u past end of file",
			    what, pos, t->tlen);
	return 0;
}

/*
 * Position of field @idx of @size bytes, or 0 when absent (a field never
 * sits at offset 0: that is the soffset). Checks it lies inside the table.
 */
static int rd_field(struct rd *r, const struct tbl *t, unsigned int idx,
		    size_t size, size_t *posp, const char *what)
{
	uint16_t fo;

	*posp = 0;
	if (4 + 2 * (size_t)idx + 2 > t->vlen)
		return 0;
	fo = ld16(r->b + t->vt + 4 + 2 * idx);
	if (!fo)
		return 0;
	if (fo < 4 || (size_t)fo + size > t->tlen)
		return fail(r, "%s: field %u at offset %u outside its table (size %u)",
			    what, idx, fo, t->tlen);
	*posp = t->pos + fo;
	return 0;
}

static int rd_scalar(struct rd *r, const struct tbl *t, unsigned int idx,
		     size_t size, uint64_t def, uint64_t *v, const char *what)
{
	size_t p;
	int ret = rd_field(r, t, idx, size, &p, what);

	if (ret)
		return ret;
	if (!p) {
		*v = def;
		return 0;
	}
	*v = size == 1 ? r->b[p] : size == 2 ? ld16(r->b + p) :
	     size == 4 ? ld32(r->b + p) : ld64(r->b + p);
	return 0;
}

static int rd_i32(struct rd *r, const struct tbl *t, unsigned int idx,
		  int32_t def, int32_t *v, const char *what)
{
	uint64_t x;
	int ret = rd_scalar(r, t, idx, 4, (uint32_t)def, &x, what);

	*v = (int32_t)(uint32_t)x;
	return ret;
}

static int rd_i8(struct rd *r, const struct tbl *t, unsigned int idx,
		 int8_t def, int32_t *v, const char *what)
{
	uint64_t x;
	int ret = rd_scalar(r, t, idx, 1, (uint8_t)def, &x, what);

	*v = (int8_t)(uint8_t)x;
	return ret;
}

/* Follow a uoffset field: target position, or 0 when absent. */
static int rd_ref(struct rd *r, const struct tbl *t, unsigned int idx,
		  size_t *target, const char *what)
{
	size_t p;
	uint32_t off;
	int ret = rd_field(r, t, idx, 4, &p, what);

	*target = 0;
	if (ret || !p)
		return ret;
	off = ld32(r->b + p);
	if (!off || !in_bounds(r, p + off, 4) || p + off < p)
		return fail(r, "%s: field %u: offset 0x%x at 0x%zx points outside the file (%zu bytes)",
			    what, idx, off, p, r->n);
	*target = p + off;
	return 0;
}

/* A vector field of @esize-byte elements: count and first element. */
static int rd_vector(struct rd *r, const struct tbl *t, unsigned int idx,
		     size_t esize, uint32_t *count, size_t *start,
		     const char *what)
{
	size_t v;
	uint32_t len;
	int ret = rd_ref(r, t, idx, &v, what);

	*count = 0;
	*start = 0;
	if (ret || !v)
		return ret;
	len = ld32(r->b + v);
	if ((uint64_t)len * esize > r->n - (v + 4))
		return fail(r, "%s: field %u: vector at 0x%zx of %u x %zu bytes past end of file (%zu bytes)",
			    what, idx, v, len, esize, r->n);
	*count = len;
	*start = v + 4;
	return 0;
}

/* Element @i of a vector of tables. */
static int rd_vec_table(struct rd *r, size_t start, uint32_t i, struct tbl *t,
			const char *what)
{
	size_t e = start + 4 * (size_t)i;
	uint32_t off = ld32(r->b + e);

	if (!off || !in_bounds(r, e + off, 4) || e + off < e)
		return fail(r, "%s: element offset 0x%x at 0x%zx points outside the file",
			    what, off, e);
	return rd_table(r, e + off, t, what);
}

/* A string field: pointer to its NUL-terminated bytes, "" when absent. */
static int rd_string(struct rd *r, const struct tbl *t, unsigned int idx,
		     const char **s, const char *what)
{
	uint32_t len;
	size_t start;
	int ret = rd_vector(r, t, idx, 1, &len, &start, what);

	*s = "";
	if (ret || !start)
		return ret;
	if (!in_bounds(r, start + len, 1) || r->b[start + len] != 0)
		return fail(r, "%s: string at 0x%zx (%u bytes) not NUL-terminated inside the file",
			    what, start, len);
	if (memchr(r->b + start, 0, len))
		return fail(r, "%s: string at 0x%zx has an embedded NUL", what, start);
	*s = (const char *)r->b + start;
	return 0;
}

/* An int32 vector copied into a fresh array (validated to [lo, hi]). */
static int rd_int_vector(struct rd *r, const struct tbl *t, unsigned int idx,
			 int32_t lo, int32_t hi, uint32_t max, int32_t **out,
			 uint32_t *count, const char *what)
{
	size_t start;
	int ret = rd_vector(r, t, idx, 4, count, &start, what);

	*out = NULL;
	if (ret)
		return ret;
	if (*count > max)
		return fail(r, "%s: %u entries (at most %u)", what, *count, max);
	if ((ret = take(r, (size_t)*count * sizeof(int32_t), what)))
		return ret;
	*out = calloc(*count ? *count : 1, sizeof(int32_t));
	if (!*out)
		return -ENOMEM;
	for (uint32_t i = 0; i < *count; i++) {
		int32_t v = (int32_t)ld32(r->b + start + 4 * (size_t)i);

		if (v < lo || v > hi) {
			ret = fail(r, "%s: entry %u = %d out of range [%d, %d]",
				   what, i, v, lo, hi);
			free(*out);
			*out = NULL;
			return ret;
		}
		(*out)[i] = v;
	}
	return 0;
}

const char *tfl_type_name(uint32_t type)
{
	switch (type) {
	case TFL_TYPE_FLOAT32: return "float32";
	case TFL_TYPE_FLOAT16: return "float16";
	case TFL_TYPE_INT32: return "int32";
	case TFL_TYPE_UINT8: return "uint8";
	case TFL_TYPE_INT64: return "int64";
	case TFL_TYPE_INT16: return "int16";
	case TFL_TYPE_INT8: return "int8";
	default: return "unknown";
	}
}

size_t tfl_type_size(uint32_t type)
{
	switch (type) {
	case TFL_TYPE_UINT8: case TFL_TYPE_INT8: return 1;
	case TFL_TYPE_FLOAT16: case TFL_TYPE_INT16: return 2;
	case TFL_TYPE_FLOAT32: case TFL_TYPE_INT32: return 4;
	case TFL_TYPE_INT64: return 8;
	default: return 0;
	}
}

float tfl_scale(const struct tfl_tensor *t, uint32_t i)
{
	uint32_t bits = ld32(t->scales + 4 * (size_t)i);
	float f;

	memcpy(&f, &bits, sizeof(f));
	return f;
}

int64_t tfl_zero_point(const struct tfl_tensor *t, uint32_t i)
{
	return (int64_t)ld64(t->zero_points + 8 * (size_t)i);
}

size_t tfl_tensor_count(const struct tfl_tensor *t)
{
	size_t n = 1;

	for (uint32_t i = 0; i < t->ndims; i++) {
		if (t->dims[i] && n > SIZE_MAX / (size_t)t->dims[i])
			return 0;
		n *= (size_t)t->dims[i];
	}
	return n;
}

struct buf_ref {
	const uint8_t *data;
	size_t size;
};

static int parse_buffers(struct rd *r, const struct tbl *model,
			 struct buf_ref **bufs, uint32_t *count)
{
	size_t start;
	int ret = rd_vector(r, model, 4, 4, count, &start, "model.buffers");

	*bufs = NULL;
	if (ret)
		return ret;
	if (*count > TFL_MAX_BUFFERS)
		return over(r, "model.buffers", *count, TFL_MAX_BUFFERS, "TFL_MAX_BUFFERS");
	if ((ret = take(r, (size_t)*count * sizeof(**bufs), "model.buffers")))
		return ret;
	*bufs = calloc(*count ? *count : 1, sizeof(**bufs));
	if (!*bufs)
		return -ENOMEM;
	for (uint32_t i = 0; i < *count; i++) {
		struct tbl b;
		char what[48];
		uint32_t len;
		size_t dstart;
		uint64_t off, size;

		snprintf(what, sizeof(what), "buffer %u", i);
		ret = rd_vec_table(r, start, i, &b, what);
		if (!ret)
			ret = rd_vector(r, &b, 0, 1, &len, &dstart, what);
		if (!ret)
			ret = rd_scalar(r, &b, 1, 8, 0, &off, what);
		if (!ret)
			ret = rd_scalar(r, &b, 2, 8, 0, &size, what);
		if (ret)
			return ret;
		if (off > 1) {
			/* Large models keep data outside the FlatBuffer. */
			if (off > r->n || size > r->n - off)
				return fail(r, "%s: external data at offset %llu size %llu past end of file (%zu bytes)",
					    what, (unsigned long long)off,
					    (unsigned long long)size, r->n);
			(*bufs)[i].data = r->b + off;
			(*bufs)[i].size = (size_t)size;
		} else if (len) {
			(*bufs)[i].data = r->b + dstart;
			(*bufs)[i].size = len;
		}
	}
	return 0;
}

static int parse_quant(struct rd *r, const struct tbl *t, struct tfl_tensor *tt,
		       const char *what)
{
	size_t q, start;
	struct tbl qt;
	int ret;

	ret = rd_ref(r, t, 4, &q, what);
	if (ret || !q)
		return ret;
	ret = rd_table(r, q, &qt, what);
	if (ret)
		return ret;
	ret = rd_vector(r, &qt, 2, 4, &tt->num_scales, &start, what);
	if (ret)
		return ret;
	tt->scales = tt->num_scales ? r->b + start : NULL;
	ret = rd_vector(r, &qt, 3, 8, &tt->num_zero_points, &start, what);
	if (ret)
		return ret;
	tt->zero_points = tt->num_zero_points ? r->b + start : NULL;
	ret = rd_i32(r, &qt, 6, 0, &tt->quantized_dimension, what);
	if (ret)
		return ret;
	if (tt->num_zero_points && tt->num_zero_points != tt->num_scales)
		return fail(r, "%s: %u scales but %u zero points", what,
			    tt->num_scales, tt->num_zero_points);
	if (tt->num_scales > 1 &&
	    (tt->quantized_dimension < 0 ||
	     (uint32_t)tt->quantized_dimension >= tt->ndims ||
	     (uint32_t)tt->dims[tt->quantized_dimension] != tt->num_scales))
		return fail(r, "%s: %u per-channel scales do not match quantized_dimension %d of the shape",
			    what, tt->num_scales, tt->quantized_dimension);
	return 0;
}

static int parse_tensor(struct rd *r, size_t start, uint32_t i,
			const struct buf_ref *bufs, uint32_t nbufs,
			struct tfl_tensor *tt)
{
	char what[48];
	struct tbl t;
	uint32_t n;
	size_t s;
	int32_t v;
	int ret;

	snprintf(what, sizeof(what), "tensor %u", i);
	ret = rd_vec_table(r, start, i, &t, what);
	if (ret)
		return ret;
	ret = rd_vector(r, &t, 0, 4, &n, &s, what);
	if (ret)
		return ret;
	if (n > TFL_MAX_DIMS) {
		fail(r, "%s: %u dimensions (at most %d handled)", what, n,
		     TFL_MAX_DIMS);
		return -ENOTSUP;
	}
	tt->ndims = n;
	for (uint32_t d = 0; d < n; d++) {
		tt->dims[d] = (int32_t)ld32(r->b + s + 4 * (size_t)d);
		if (tt->dims[d] < 0)
			return fail(r, "%s: dimension %u is negative (%d)",
				    what, d, tt->dims[d]);
	}
	ret = rd_i8(r, &t, 1, 0, &v, what);
	if (ret)
		return ret;
	tt->type = (uint32_t)v;
	ret = rd_i32(r, &t, 2, 0, &v, what);
	if (ret)
		return ret;
	tt->buffer = (uint32_t)v;
	if (tt->buffer >= nbufs && (tt->buffer || nbufs))
		return fail(r, "%s: buffer index %u out of range (%u buffers)",
			    what, tt->buffer, nbufs);
	ret = rd_string(r, &t, 3, &tt->name, what);
	if (ret)
		return ret;
	ret = parse_quant(r, &t, tt, what);
	if (ret)
		return ret;
	if (tt->buffer < nbufs && bufs[tt->buffer].size) {
		size_t es = tfl_type_size(tt->type), cnt = tfl_tensor_count(tt);

		tt->data = bufs[tt->buffer].data;
		tt->data_size = bufs[tt->buffer].size;
		if (es && (!cnt || cnt > SIZE_MAX / es || cnt * es != tt->data_size))
			return fail(r, "%s (%s): constant data is %zu bytes, its shape needs %zu x %zu",
				    what, tt->name, tt->data_size, cnt, es);
	}
	return 0;
}

static int parse_options(struct rd *r, const struct tbl *op,
			 struct tfl_options *o, const char *what)
{
	uint64_t type;
	size_t p;
	struct tbl t;
	int ret;

	o->stride_w = o->stride_h = 1;
	o->dilation_w = o->dilation_h = 1;
	o->depth_multiplier = 1;
	o->beta = 1.0f;
	ret = rd_scalar(r, op, 3, 1, 0, &type, what);
	if (ret)
		return ret;
	o->type = (uint32_t)type;
	ret = rd_ref(r, op, 4, &p, what);
	if (ret)
		return ret;
	if (!p)
		return 0;
	ret = rd_table(r, p, &t, what);
	if (ret)
		return ret;
	switch (o->type) {
	case TFL_OPT_CONV2D:
		if ((ret = rd_i8(r, &t, 0, 0, &o->padding, what)) ||
		    (ret = rd_i32(r, &t, 1, 0, &o->stride_w, what)) ||
		    (ret = rd_i32(r, &t, 2, 0, &o->stride_h, what)) ||
		    (ret = rd_i8(r, &t, 3, 0, &o->act, what)) ||
		    (ret = rd_i32(r, &t, 4, 1, &o->dilation_w, what)) ||
		    (ret = rd_i32(r, &t, 5, 1, &o->dilation_h, what)))
			return ret;
		break;
	case TFL_OPT_DEPTHWISE_CONV2D:
		if ((ret = rd_i8(r, &t, 0, 0, &o->padding, what)) ||
		    (ret = rd_i32(r, &t, 1, 0, &o->stride_w, what)) ||
		    (ret = rd_i32(r, &t, 2, 0, &o->stride_h, what)) ||
		    (ret = rd_i32(r, &t, 3, 0, &o->depth_multiplier, what)) ||
		    (ret = rd_i8(r, &t, 4, 0, &o->act, what)) ||
		    (ret = rd_i32(r, &t, 5, 1, &o->dilation_w, what)) ||
		    (ret = rd_i32(r, &t, 6, 1, &o->dilation_h, what)))
			return ret;
		break;
	case TFL_OPT_POOL2D:
		if ((ret = rd_i8(r, &t, 0, 0, &o->padding, what)) ||
		    (ret = rd_i32(r, &t, 1, 0, &o->stride_w, what)) ||
		    (ret = rd_i32(r, &t, 2, 0, &o->stride_h, what)) ||
		    (ret = rd_i32(r, &t, 3, 0, &o->filter_w, what)) ||
		    (ret = rd_i32(r, &t, 4, 0, &o->filter_h, what)) ||
		    (ret = rd_i8(r, &t, 5, 0, &o->act, what)))
			return ret;
		break;
	case TFL_OPT_STRIDED_SLICE:
		if ((ret = rd_i32(r, &t, 0, 0, &o->begin_mask, what)) ||
		    (ret = rd_i32(r, &t, 1, 0, &o->end_mask, what)) ||
		    (ret = rd_i32(r, &t, 2, 0, &o->ellipsis_mask, what)) ||
		    (ret = rd_i32(r, &t, 3, 0, &o->new_axis_mask, what)) ||
		    (ret = rd_i32(r, &t, 4, 0, &o->shrink_axis_mask, what)))
			return ret;
		break;
	case TFL_OPT_CONCATENATION:
		if ((ret = rd_i32(r, &t, 0, 0, &o->axis, what)) ||
		    (ret = rd_i8(r, &t, 1, 0, &o->act, what)))
			return ret;
		break;
	case TFL_OPT_FULLY_CONNECTED:
	case TFL_OPT_ADD:
	case TFL_OPT_MUL:
	case TFL_OPT_SUB:
	case TFL_OPT_L2NORM:
		if ((ret = rd_i8(r, &t, 0, 0, &o->act, what)))
			return ret;
		break;
	case TFL_OPT_SOFTMAX: {
		uint64_t bits;
		uint32_t b32;

		if ((ret = rd_scalar(r, &t, 0, 4, 0x3f800000u, &bits, what)))
			return ret;
		b32 = (uint32_t)bits;
		memcpy(&o->beta, &b32, sizeof(o->beta));
		break;
	}
	case TFL_OPT_LEAKY_RELU: {
		uint64_t bits;
		uint32_t b32;

		if ((ret = rd_scalar(r, &t, 0, 4, 0, &bits, what)))
			return ret;
		b32 = (uint32_t)bits;
		memcpy(&o->alpha, &b32, sizeof(o->alpha));
		break;
	}
	case TFL_OPT_REDUCER: {
		uint64_t kd;

		if ((ret = rd_scalar(r, &t, 0, 1, 0, &kd, what)))
			return ret;
		o->keep_dims = kd != 0;
		break;
	}
	case TFL_OPT_RESHAPE: {
		int32_t *ns;
		uint32_t n;

		ret = rd_int_vector(r, &t, 0, -1, INT32_MAX, TFL_MAX_DIMS, &ns,
				    &n, what);
		if (ret)
			return ret;
		o->num_new_shape = n;
		memcpy(o->new_shape, ns, n * sizeof(*ns));
		free(ns);
		break;
	}
	case TFL_OPT_GATHER:
		if ((ret = rd_i32(r, &t, 0, 0, &o->axis, what)))
			return ret;
		break;
	case TFL_OPT_DEPTH_TO_SPACE:
	case TFL_OPT_SPACE_TO_DEPTH:
		if ((ret = rd_i32(r, &t, 0, 0, &o->block_size, what)))
			return ret;
		break;
	case TFL_OPT_TRANSPOSE_CONV:
		if ((ret = rd_i8(r, &t, 0, 0, &o->padding, what)) ||
		    (ret = rd_i32(r, &t, 1, 0, &o->stride_w, what)) ||
		    (ret = rd_i32(r, &t, 2, 0, &o->stride_h, what)))
			return ret;
		break;
	case TFL_OPT_SPLIT:
	case TFL_OPT_SPLIT_V:
		if ((ret = rd_i32(r, &t, 0, 0, &o->num, what)))
			return ret;
		break;
	case TFL_OPT_PACK:
	case TFL_OPT_UNPACK:
		if ((ret = rd_i32(r, &t, 0, 0, &o->num, what)) ||
		    (ret = rd_i32(r, &t, 1, 0, &o->axis, what)))
			return ret;
		break;
	case TFL_OPT_RESIZE_BILINEAR: {
		uint64_t ac, hp;

		if ((ret = rd_scalar(r, &t, 2, 1, 0, &ac, what)) ||
		    (ret = rd_scalar(r, &t, 3, 1, 0, &hp, what)))
			return ret;
		o->align_corners = ac != 0;
		o->half_pixel_centers = hp != 0;
		break;
	}
	case TFL_OPT_RESIZE_NEAREST_NEIGHBOR: {
		uint64_t ac, hp;

		if ((ret = rd_scalar(r, &t, 0, 1, 0, &ac, what)) ||
		    (ret = rd_scalar(r, &t, 1, 1, 0, &hp, what)))
			return ret;
		o->align_corners = ac != 0;
		o->half_pixel_centers = hp != 0;
		break;
	}
	default:
		break;	/* options we do not read */
	}
	return 0;
}

static int parse_opcodes(struct rd *r, const struct tbl *model,
			 int32_t **codes, int32_t **versions,
			 const char ***custom, uint32_t *count)
{
	size_t start;
	int ret = rd_vector(r, model, 1, 4, count, &start, "model.operator_codes");

	if (ret)
		return ret;
	if (*count > TFL_MAX_OPCODES)
		return over(r, "model.operator_codes", *count, TFL_MAX_OPCODES, "TFL_MAX_OPCODES");
	if ((ret = take(r, (size_t)*count * (sizeof(**codes) + sizeof(**versions) +
					    sizeof(**custom)), "model.operator_codes")))
		return ret;
	*codes = calloc(*count ? *count : 1, sizeof(**codes));
	*versions = calloc(*count ? *count : 1, sizeof(**versions));
	*custom = calloc(*count ? *count : 1, sizeof(**custom));
	if (!*codes || !*versions || !*custom)
		return -ENOMEM;
	for (uint32_t i = 0; i < *count; i++) {
		char what[48];
		struct tbl t;
		int32_t dep, code;

		snprintf(what, sizeof(what), "operator_code %u", i);
		if ((ret = rd_vec_table(r, start, i, &t, what)) ||
		    (ret = rd_i8(r, &t, 0, 0, &dep, what)) ||
		    (ret = rd_string(r, &t, 1, &(*custom)[i], what)) ||
		    (ret = rd_i32(r, &t, 2, 1, &(*versions)[i], what)) ||
		    (ret = rd_i32(r, &t, 3, 0, &code, what)))
			return ret;
		/* Old files only have the int8 field; new ones set both
		 * (deprecated = 127 past 127): take the larger, as TFLite. */
		(*codes)[i] = dep > code ? dep : code;
		if ((*codes)[i] < 0)
			return fail(r, "%s: negative builtin code %d", what,
				    (*codes)[i]);
	}
	return 0;
}

void tfl_model_free(struct tfl_model *m)
{
	if (!m)
		return;
	for (uint32_t i = 0; m->operators && i < m->num_operators; i++) {
		free(m->operators[i].inputs);
		free(m->operators[i].outputs);
	}
	free(m->operators);
	free(m->tensors);
	free(m->inputs);
	free(m->outputs);
	memset(m, 0, sizeof(*m));
}

int tfl_parse(const void *buf, size_t size, struct tfl_model *m, char *err,
	      size_t errlen)
{
	struct rd r = { .b = buf, .n = size, .err = err, .errlen = errlen };
	struct buf_ref *bufs = NULL;
	int32_t *codes = NULL, *versions = NULL;
	const char **custom = NULL;
	uint32_t ncodes = 0, nsub, ntens, nops;
	size_t sub_start, tstart, ostart;
	struct tbl model, sg;
	uint64_t v;
	int ret;

	if (err && errlen)
		err[0] = 0;
	if (!m)
		return -EINVAL;
	memset(m, 0, sizeof(*m));
	if (!buf || size < 8)
		return fail(&r, "file too small (%zu bytes) for a FlatBuffer", size);
	if (memcmp(r.b + 4, "TFL3", 4))
		return fail(&r, "not a TFLite model: file identifier is not \"TFL3\"");
	if ((ret = rd_table(&r, ld32(r.b), &model, "model")) ||
	    (ret = rd_scalar(&r, &model, 0, 4, 0, &v, "model.version")))
		goto out;
	m->version = (uint32_t)v;
	if ((ret = rd_string(&r, &model, 3, &m->description, "model.description")) ||
	    (ret = parse_buffers(&r, &model, &bufs, &m->num_buffers)) ||
	    (ret = parse_opcodes(&r, &model, &codes, &versions, &custom, &ncodes)))
		goto out;
	m->num_opcodes = ncodes;
	if ((ret = rd_vector(&r, &model, 2, 4, &nsub, &sub_start, "model.subgraphs")))
		goto out;
	m->num_subgraphs = nsub;
	if (nsub > TFL_MAX_SUBGRAPHS) {
		ret = over(&r, "model.subgraphs", nsub, TFL_MAX_SUBGRAPHS, "TFL_MAX_SUBGRAPHS");
		goto out;
	}
	if (!nsub) {
		ret = fail(&r, "model has no subgraph");
		goto out;
	}
	if ((ret = rd_vec_table(&r, sub_start, 0, &sg, "subgraph 0")) ||
	    (ret = rd_vector(&r, &sg, 0, 4, &ntens, &tstart, "subgraph 0 tensors")) ||
	    (ret = rd_vector(&r, &sg, 3, 4, &nops, &ostart, "subgraph 0 operators")))
		goto out;
	if (ntens > TFL_MAX_TENSORS) {
		ret = over(&r, "subgraph 0 tensors", ntens, TFL_MAX_TENSORS, "TFL_MAX_TENSORS");
		goto out;
	}
	if (nops > TFL_MAX_OPERATORS) {
		ret = over(&r, "subgraph 0 operators", nops, TFL_MAX_OPERATORS, "TFL_MAX_OPERATORS");
		goto out;
	}
	if ((ret = take(&r, (size_t)ntens * sizeof(*m->tensors), "subgraph 0 tensors")) ||
	    (ret = take(&r, (size_t)nops * sizeof(*m->operators), "subgraph 0 operators")))
		goto out;
	m->tensors = calloc(ntens ? ntens : 1, sizeof(*m->tensors));
	m->operators = calloc(nops ? nops : 1, sizeof(*m->operators));
	if (!m->tensors || !m->operators) {
		ret = -ENOMEM;
		goto out;
	}
	m->num_tensors = ntens;
	for (uint32_t i = 0; i < ntens; i++) {
		ret = parse_tensor(&r, tstart, i, bufs, m->num_buffers, &m->tensors[i]);
		if (ret)
			goto out;
	}
	if ((ret = rd_int_vector(&r, &sg, 1, 0, (int32_t)ntens - 1, ntens,
				 &m->inputs, &m->num_inputs, "subgraph 0 inputs")) ||
	    (ret = rd_int_vector(&r, &sg, 2, 0, (int32_t)ntens - 1, ntens,
				 &m->outputs, &m->num_outputs, "subgraph 0 outputs")))
		goto out;
	m->num_operators = nops;
	for (uint32_t i = 0; i < nops; i++) {
		struct tfl_operator *o = &m->operators[i];
		char what[48];
		struct tbl t;
		int32_t idx;

		snprintf(what, sizeof(what), "operator %u", i);
		if ((ret = rd_vec_table(&r, ostart, i, &t, what)) ||
		    (ret = rd_i32(&r, &t, 0, 0, &idx, what)))
			goto out;
		if (idx < 0 || (uint32_t)idx >= ncodes) {
			ret = fail(&r, "%s: opcode_index %u out of range (%u operator codes)",
				   what, (uint32_t)idx, ncodes);
			goto out;
		}
		o->opcode_index = (uint32_t)idx;
		o->builtin = codes[idx];
		o->version = versions[idx];
		o->custom_code = custom[idx][0] ? custom[idx] : NULL;
		snprintf(what, sizeof(what), "operator %u (%s) inputs", i,
			 tfl_builtin_name(o->builtin));
		if ((ret = rd_int_vector(&r, &t, 1, -1, (int32_t)ntens - 1, 64,
					 &o->inputs, &o->num_inputs, what)))
			goto out;
		snprintf(what, sizeof(what), "operator %u (%s) outputs", i,
			 tfl_builtin_name(o->builtin));
		if ((ret = rd_int_vector(&r, &t, 2, -1, (int32_t)ntens - 1, 64,
					 &o->outputs, &o->num_outputs, what)))
			goto out;
		snprintf(what, sizeof(what), "operator %u (%s) options", i,
			 tfl_builtin_name(o->builtin));
		if ((ret = parse_options(&r, &t, &o->opt, what)))
			goto out;
	}
	ret = 0;
	m->mem = r.mem;
out:
	free(bufs);
	free(codes);
	free(versions);
	free(custom);
	if (ret)
		tfl_model_free(m);
	return ret;
}
