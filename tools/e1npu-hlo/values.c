// SPDX-License-Identifier: MIT
/*
 * e1npu-hlo: printing a result (values.h). The bytes are those of
 * e1npu_hlo_get_output(): little-endian storage values of the MLIR
 * element type in @dtype.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "values.h"

static double half_to_double(uint16_t h)
{
	int e = (h >> 10) & 0x1f, m = h & 0x3ff;
	double v;

	if (e == 0x1f)
		v = m ? NAN : INFINITY;
	else if (!e)
		v = ldexp(m, -24);
	else
		v = ldexp(m | 0x400, e - 25);
	return h & 0x8000 ? -v : v;
}

static void print_one(FILE *f, const char *dt, size_t eb, const uint8_t *p, bool json)
{
	uint64_t u = 0;
	double x;

	for (size_t b = 0; b < eb; b++)
		u |= (uint64_t)p[b] << (8 * b);
	if (dt[0] == 'u') {			/* ui2..ui64 */
		fprintf(f, "%llu", (unsigned long long)u);
		return;
	}
	if (dt[0] == 'i') {			/* i1..i64: sign-extend the bytes */
		int bits = atoi(dt + 1);
		int64_t v;

		if (bits == 1) {
			fputs(u ? "true" : "false", f);
			return;
		}
		if (eb < 8 && (u >> (8 * eb - 1)) & 1)
			u |= ~(uint64_t)0 << (8 * eb);
		memcpy(&v, &u, sizeof(v));
		fprintf(f, "%lld", (long long)v);
		return;
	}
	if (!strcmp(dt, "f16")) {
		x = half_to_double((uint16_t)u);
	} else if (!strcmp(dt, "bf16") || !strcmp(dt, "f32")) {
		uint32_t w = !strcmp(dt, "bf16") ? (uint32_t)u << 16 : (uint32_t)u;
		float fl;

		memcpy(&fl, &w, sizeof(fl));
		x = fl;
	} else {
		memcpy(&x, &u, sizeof(x));
	}
	if (isfinite(x))
		fprintf(f, "%.*g", !strcmp(dt, "f64") ? 17 : 9, x);
	else
		fprintf(f, json ? "\"%s\"" : "%s", isnan(x) ? "nan" : x > 0 ? "inf" : "-inf");
}

static void print_dim(FILE *f, const struct e1npu_hlo_output *o, uint32_t d,
		      const uint8_t **p, size_t eb, bool json)
{
	if (d == o->rank) {
		print_one(f, o->dtype, eb, *p, json);
		*p += eb;
		return;
	}
	fputc('[', f);
	for (uint64_t i = 0; i < o->dims[d]; i++) {
		if (i)
			fputs(", ", f);
		print_dim(f, o, d + 1, p, eb, json);
	}
	fputc(']', f);
}

void values_print(FILE *f, const struct e1npu_hlo_output *o, const uint8_t *data, bool json)
{
	size_t eb = o->elements ? (size_t)(o->bytes / o->elements) : 1;

	print_dim(f, o, 0, &data, eb, json);
}
