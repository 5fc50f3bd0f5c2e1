// SPDX-License-Identifier: MIT
/*
 * Parser of textual StableHLO (MLIR): module, func.func, the generic
 * ("stablehlo.add"(...) : (...) -> ...) and pretty op forms, attributes,
 * types and dense literals. A recursive descent over characters: MLIR's
 * lexing depends on context (1x2xi8 inside tensor<>), so there is no
 * separate token stream. Errors longjmp out with "file:line:col".
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hlo.h"
#include "hlo_e1.h"
#include "hlo_parse.h"
#include "hlo_type.h"

struct cur {
	struct e1npu_hlo *h;
	const char *s, *p, *end;
	int section;
	int line;		/* line of p */
	const char *bol;	/* start of p's line */
	const char *ctx;	/* construct being parsed */
	jmp_buf jb;
	int ret;
	/* the function being parsed */
	struct hlo_func *f;
	int cap_vals, cap_ops;
	int depth;		/* nesting of attribute values and regions */
};

/* Deeper nesting is refused: the recursion would exhaust the stack. */
#define MAX_NEST	64

static void perr(struct cur *c, int ret, const char *fmt, ...)
	__attribute__((format(printf, 3, 4), noreturn));

static void perr(struct cur *c, int ret, const char *fmt, ...)
{
	char msg[320];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(c->h->err, sizeof(c->h->err), "%s:%d:%d: %s: %s",
		 c->h->file, c->line, (int)(c->p - c->bol) + 1, c->ctx, msg);
	c->ret = ret;
	longjmp(c->jb, 1);
}

/* Report at a saved position (the start of an op or an operand). */
static void perr_at(struct cur *c, const char *pos, int line, const char *bol, int ret,
		    const char *what, const char *name)
	__attribute__((noreturn));

static void perr_at(struct cur *c, const char *pos, int line, const char *bol, int ret,
		    const char *what, const char *name)
{
	c->p = pos;
	c->line = line;
	c->bol = bol;
	perr(c, ret, "%s%s", what, name);
}

static int at_end(struct cur *c)
{
	return c->p >= c->end;
}

static int ch(struct cur *c)
{
	return c->p < c->end ? (unsigned char)*c->p : 0;
}

static int ch_at(struct cur *c, size_t k)
{
	return c->p + k < c->end ? (unsigned char)c->p[k] : 0;
}

static void adv(struct cur *c)
{
	if (c->p >= c->end)
		return;
	if (*c->p == '\n') {
		c->line++;
		c->bol = c->p + 1;
	}
	c->p++;
}

static void ws(struct cur *c)
{
	for (;;) {
		int k = ch(c);

		if (k == ' ' || k == '\t' || k == '\n' || k == '\r') {
			adv(c);
		} else if (k == '/' && ch_at(c, 1) == '/') {
			while (!at_end(c) && ch(c) != '\n')
				adv(c);
		} else {
			return;
		}
	}
}

/* accept() - consume @str (after blanks) when it is next. */
static int accept(struct cur *c, const char *str)
{
	size_t n = strlen(str);

	ws(c);
	if ((size_t)(c->end - c->p) < n || memcmp(c->p, str, n))
		return 0;
	for (size_t i = 0; i < n; i++)
		adv(c);
	return 1;
}

static void expect(struct cur *c, const char *str)
{
	if (!accept(c, str)) {
		if (at_end(c))
			perr(c, -EINVAL, "expected '%s', found end of input", str);
		perr(c, -EINVAL, "expected '%s', found '%c'", str, ch(c));
	}
}

static int is_id0(int k)
{
	return (k >= 'a' && k <= 'z') || (k >= 'A' && k <= 'Z') || k == '_';
}

static int is_digit(int k)
{
	return k >= '0' && k <= '9';
}

static int is_idc(int k)
{
	return is_id0(k) || is_digit(k) || k == '.' || k == '$' || k == '-';
}

static char *pstrndup(struct cur *c, const char *s, size_t n)
{
	char *d = hlo_alloc(c->h, n + 1);

	if (!d)
		perr(c, -ENOMEM, "out of memory");
	memcpy(d, s, n);
	d[n] = 0;
	return d;
}

static void *palloc(struct cur *c, size_t size)
{
	void *p = hlo_alloc(c->h, size ? size : 1);

	if (!p)
		perr(c, -ENOMEM, "out of memory");
	memset(p, 0, size ? size : 1);
	return p;
}

/* Grow an array held in the pool (old contents copied). */
static void *pgrow(struct cur *c, void *old, size_t elem, int n, int *cap)
{
	void *p;

	if (n < *cap)
		return old;
	if (*cap > (1 << 24))
		perr(c, -ENOMEM, "too many elements");
	*cap = *cap ? *cap * 2 : 8;
	p = palloc(c, elem * (size_t)*cap);
	if (old)
		memcpy(p, old, elem * (size_t)n);
	return p;
}

/* An identifier: [A-Za-z_][A-Za-z0-9_.$-]* (ops and dialect names). */
static const char *ident(struct cur *c)
{
	const char *b;

	ws(c);
	if (!is_id0(ch(c)))
		return NULL;
	b = c->p;
	while (is_idc(ch(c)) && !(ch(c) == '-' && ch_at(c, 1) == '>'))
		adv(c);
	return pstrndup(c, b, (size_t)(c->p - b));
}

/* An attribute key: [A-Za-z_][A-Za-z0-9_.$]* (mhlo.num_partitions). */
static const char *attr_key(struct cur *c)
{
	const char *b;

	ws(c);
	if (!is_id0(ch(c)))
		return NULL;
	b = c->p;
	while (is_id0(ch(c)) || is_digit(ch(c)) || ch(c) == '.' || ch(c) == '$')
		adv(c);
	return pstrndup(c, b, (size_t)(c->p - b));
}

/* A word without dots (attribute keys, enum values). */
static const char *word(struct cur *c)
{
	const char *b;

	ws(c);
	if (!is_id0(ch(c)))
		return NULL;
	b = c->p;
	while (is_id0(ch(c)) || is_digit(ch(c)))
		adv(c);
	return pstrndup(c, b, (size_t)(c->p - b));
}

static int peek_word(struct cur *c, const char *w)
{
	size_t n = strlen(w);

	ws(c);
	return (size_t)(c->end - c->p) >= n && !memcmp(c->p, w, n) &&
	       !is_idc(c->p + n < c->end ? (unsigned char)c->p[n] : 0);
}

static const char *string_lit(struct cur *c)
{
	const char *b;

	expect(c, "\"");
	b = c->p;
	while (!at_end(c) && ch(c) != '"') {
		if (ch(c) == '\\')
			adv(c);
		adv(c);
	}
	if (at_end(c))
		perr(c, -EINVAL, "unterminated string");
	{
		const char *s = pstrndup(c, b, (size_t)(c->p - b));

		adv(c);
		return s;
	}
}

/* %name: returns "%name" (suffix #N kept by the caller). */
static const char *value_name(struct cur *c)
{
	const char *b;

	ws(c);
	if (ch(c) != '%')
		perr(c, -EINVAL, "expected a value name (%%...)");
	b = c->p;
	adv(c);
	while (is_id0(ch(c)) || is_digit(ch(c)) || ch(c) == '.' || ch(c) == '$' ||
	       ch(c) == '-')
		adv(c);
	if (c->p - b < 2)
		perr(c, -EINVAL, "empty value name");
	return pstrndup(c, b, (size_t)(c->p - b));
}

static const char *symbol(struct cur *c)
{
	const char *b;

	expect(c, "@");
	if (ch(c) == '"')
		return string_lit(c);
	b = c->p;
	while (is_idc(ch(c)))
		adv(c);
	if (c->p == b)
		perr(c, -EINVAL, "expected a symbol name after '@'");
	return pstrndup(c, b, (size_t)(c->p - b));
}

static int64_t int_lit(struct cur *c)
{
	char *e;
	long long v;

	ws(c);
	errno = 0;
	v = strtoll(c->p, &e, 0);
	if (e == c->p || e > c->end)
		perr(c, -EINVAL, "expected an integer");
	if (errno)
		perr(c, -EINVAL, "integer out of range");
	while (c->p < e)
		adv(c);
	return v;
}

/* ---------------------------------------------------------------------- */
/* Types                                                                    */
/* ---------------------------------------------------------------------- */

static void parse_quant(struct cur *c, struct hlo_type *t)
{
	const char *save = c->ctx;
	const char *st;
	int is_u = 0, bits;
	int exp_ek;

	c->ctx = "!quant.uniform type";
	expect(c, "<");
	st = word(c);
	if (!st)
		perr(c, -EINVAL, "expected a storage type");
	if ((st[0] == 'u' || st[0] == 'i') && is_digit(st[1])) {
		is_u = st[0] == 'u';
		/* two digits at most: atoi of a longer run could overflow */
		bits = strlen(st + 1) <= 2 ? atoi(st + 1) : 0;
	} else {
		perr(c, -ENOTSUP, "storage type '%s' is not an integer", st);
	}
	if (bits < 2 || bits > 32)
		perr(c, -ENOTSUP, "storage type '%s': 2 to 32 bits supported", st);
	t->ek = is_u ? EK_UINT : EK_SINT;
	t->bits = (uint8_t)bits;
	t->quant = 1;
	t->qmin = is_u ? 0 : -(1ll << (bits - 1));
	t->qmax = is_u ? (1ll << bits) - 1 : (1ll << (bits - 1)) - 1;
	if (accept(c, "<")) {
		int64_t lo = t->qmin, hi = t->qmax;

		t->qmin = int_lit(c);
		expect(c, ":");
		t->qmax = int_lit(c);
		expect(c, ">");
		/* values and zero points live in the storage type */
		if (t->qmin < lo || t->qmax > hi || t->qmin > t->qmax)
			perr(c, -EINVAL, "storage range %lld:%lld outside %s's %lld:%lld",
			     (long long)t->qmin, (long long)t->qmax, st, (long long)lo,
			     (long long)hi);
	}
	expect(c, ":");
	st = word(c);
	if (!st || (strcmp(st, "f32") && strcmp(st, "f16") && strcmp(st, "bf16") &&
		    strcmp(st, "f64")))
		perr(c, -ENOTSUP, "expressed type '%s' (f16, bf16, f32, f64 supported)",
		     st ? st : "?");
	exp_ek = !strcmp(st, "f32") ? EK_F32 : !strcmp(st, "f64") ? EK_F64 :
		 !strcmp(st, "f16") ? EK_F16 : EK_BF16;
	(void)exp_ek;
	t->qaxis = -1;
	if (accept(c, ":")) {
		int64_t ax = int_lit(c);

		if (ax < 0 || ax >= HLO_MAX_RANK)
			perr(c, -EINVAL, "quantization axis %lld out of range", (long long)ax);
		t->qaxis = (int32_t)ax;
	}
	expect(c, ",");
	{
		int cap = 0, n = 0;
		double *sc = NULL;
		int64_t *zp = NULL;
		int capz = 0;
		int braces = accept(c, "{");

		do {
			char *e;
			double s;

			ws(c);
			s = strtod(c->p, &e);
			if (e == c->p || e > c->end)
				perr(c, -EINVAL, "expected a scale");
			while (c->p < e)
				adv(c);
			if (!(s > 0) || s != s || s > 1e300)
				perr(c, -EINVAL, "scale %g must be positive and finite", s);
			sc = pgrow(c, sc, sizeof(*sc), n, &cap);
			zp = pgrow(c, zp, sizeof(*zp), n, &capz);
			sc[n] = s;
			zp[n] = accept(c, ":") ? int_lit(c) : 0;
			if (zp[n] < t->qmin || zp[n] > t->qmax)
				perr(c, -EINVAL, "zero point %lld outside the storage range",
				     (long long)zp[n]);
			n++;
		} while (braces && accept(c, ","));
		if (braces)
			expect(c, "}");
		if ((t->qaxis < 0) != (n == 1 && !braces))
			perr(c, -EINVAL, "%s quantization needs %s", t->qaxis < 0 ?
			     "per-tensor" : "per-axis", t->qaxis < 0 ? "one scale" :
			     "a {scale:zp, ...} list");
		t->scale = sc;
		t->zp = zp;
		t->nq = (uint32_t)n;
	}
	expect(c, ">");
	c->ctx = save;
}

/* Element type into @t (bits, kind). */
static void parse_elem(struct cur *c, struct hlo_type *t)
{
	const char *w;

	ws(c);
	if (accept(c, "!quant.uniform")) {
		parse_quant(c, t);
		return;
	}
	if (ch(c) == '!')
		perr(c, -ENOTSUP, "type '%.24s' not supported", c->p);
	w = word(c);
	if (!w)
		perr(c, -EINVAL, "expected an element type");
	if (hlo_parse_elem_type(w, t) == 0)
		return;
	if (!strcmp(w, "complex"))
		perr(c, -ENOTSUP, "complex element types are not supported");
	if (!strncmp(w, "f8", 2) || !strncmp(w, "f4", 2) || !strncmp(w, "f6", 2))
		perr(c, -ENOTSUP, "FP8/FP6/FP4 element type '%s' is not supported", w);
	perr(c, -ENOTSUP, "element type '%s' is not supported", w);
}

int hlo_parse_elem_type(const char *w, struct hlo_type *t)
{
	int bits;

	if (!strcmp(w, "i1")) {
		t->ek = EK_BOOL;
		t->bits = 1;
		return 0;
	}
	if (!strcmp(w, "f16") || !strcmp(w, "bf16") || !strcmp(w, "f32") ||
	    !strcmp(w, "f64")) {
		t->ek = w[0] == 'b' ? EK_BF16 : w[1] == '1' ? EK_F16 :
			w[1] == '3' ? EK_F32 : EK_F64;
		t->bits = t->ek == EK_F32 ? 32 : t->ek == EK_F64 ? 64 : 16;
		return 0;
	}
	if ((w[0] == 'i' || (w[0] == 's' && w[1] == 'i') ||
	     (w[0] == 'u' && w[1] == 'i')) && w[1]) {
		const char *d = w[0] == 'i' ? w + 1 : w + 2;
		char *e;

		if (!is_digit(*d))
			return -1;
		bits = (int)strtol(d, &e, 10);
		if (*e || (bits != 2 && bits != 4 && bits != 8 && bits != 16 &&
			   bits != 32 && bits != 64))
			return -1;
		t->ek = w[0] == 'u' ? EK_UINT : EK_SINT;
		t->bits = (uint8_t)bits;
		return 0;
	}
	return -1;
}

/* A per-axis quantized type's axis is a dimension with one scale per index. */
static void check_qaxis(struct cur *c, const struct hlo_type *t)
{
	if (t->quant && t->qaxis >= t->rank)
		perr(c, -EINVAL, "quantization axis %d beyond rank %d", t->qaxis, t->rank);
	if (t->quant && t->qaxis >= 0 && (int64_t)t->nq != t->dims[t->qaxis])
		perr(c, -EINVAL, "%u scales for a dimension of %lld", t->nq,
		     (long long)t->dims[t->qaxis]);
}

/* tensor<2x3xi8>, or a bare element type (a rank-0 shape). */
static void parse_type(struct cur *c, struct hlo_type *t)
{
	const char *save = c->ctx;

	memset(t, 0, sizeof(*t));
	t->qaxis = -1;
	ws(c);
	if (!peek_word(c, "tensor")) {
		if (ch(c) == '(' )
			perr(c, -ENOTSUP, "tuple types are not supported");
		parse_elem(c, t);
		check_qaxis(c, t);
		return;
	}
	c->ctx = "tensor type";
	accept(c, "tensor");
	expect(c, "<");
	ws(c);
	for (;;) {
		if (ch(c) == '?' || ch(c) == '*')
			perr(c, -ENOTSUP, "dynamic shapes are not supported");
		if (!is_digit(ch(c)))
			break;
		{
			int64_t d = 0;

			while (is_digit(ch(c))) {
				d = d * 10 + (ch(c) - '0');
				if (d > HLO_MAX_ELEMS)
					perr(c, -ENOTSUP, "dimension too large (max %u)",
					     HLO_MAX_ELEMS);
				adv(c);
			}
			if (t->rank >= HLO_MAX_RANK)
				perr(c, -ENOTSUP, "rank above %d", HLO_MAX_RANK);
			t->dims[t->rank++] = d;
			if (ch(c) != 'x')
				perr(c, -EINVAL, "expected 'x' after a dimension");
			adv(c);
		}
	}
	parse_elem(c, t);
	if (accept(c, ",")) /* encoding attribute */
		perr(c, -ENOTSUP, "tensor encodings are not supported");
	expect(c, ">");
	check_qaxis(c, t);
	if (hlo_nelems(t) < 0 ||
	    (c->h->opt.max_elements && hlo_nelems(t) > c->h->opt.max_elements))
		perr(c, -ENOTSUP, "tensor larger than %u elements",
		     c->h->opt.max_elements ? c->h->opt.max_elements : HLO_MAX_ELEMS);
	c->ctx = save;
}

/* ---------------------------------------------------------------------- */
/* Attributes and literals                                                  */
/* ---------------------------------------------------------------------- */

static struct hlo_attr *parse_value(struct cur *c);

static struct hlo_attr *new_attr(struct cur *c, int kind)
{
	struct hlo_attr *a = palloc(c, sizeof(*a));

	a->kind = kind;
	return a;
}

static void attr_push(struct cur *c, struct hlo_attr *list, struct hlo_attr *it,
		      int *cap)
{
	list->items = pgrow(c, list->items, sizeof(*list->items), list->n, cap);
	list->items[list->n++] = it;
}

/* Skip a balanced <...> (opaque attributes such as algorithm = <...>). */
static void skip_angle(struct cur *c)
{
	int depth = 0;

	do {
		if (at_end(c))
			perr(c, -EINVAL, "unbalanced '<'");
		if (ch(c) == '<')
			depth++;
		else if (ch(c) == '>' && c->p > c->s && c->p[-1] != '-')
			depth--;
		else if (ch(c) == '"') {
			string_lit(c);
			continue;
		}
		adv(c);
	} while (depth > 0);
}

static void lit_push(struct cur *c, struct hlo_attr *a, struct hlo_lit *l, int *cap)
{
	if (a->nlit >= HLO_MAX_ELEMS)
		perr(c, -ENOTSUP, "literal larger than %u elements", HLO_MAX_ELEMS);
	a->lit = pgrow(c, a->lit, sizeof(*a->lit), (int)a->nlit, cap);
	a->lit[a->nlit++] = *l;
}

static void parse_lit_elems(struct cur *c, struct hlo_attr *a, int *cap, int depth)
{
	struct hlo_lit l;

	if (depth > HLO_MAX_RANK)
		perr(c, -EINVAL, "literal nested deeper than rank %d", HLO_MAX_RANK);
	ws(c);
	if (accept(c, "[")) {
		if (accept(c, "]"))
			return;
		do
			parse_lit_elems(c, a, cap, depth + 1);
		while (accept(c, ","));
		expect(c, "]");
		return;
	}
	memset(&l, 0, sizeof(l));
	if (ch(c) == '(')
		perr(c, -ENOTSUP, "complex literals are not supported");
	if (peek_word(c, "true") || peek_word(c, "false")) {
		l.is_bool = 1;
		l.i = ch(c) == 't';
		l.f = (double)l.i;
		word(c);
		lit_push(c, a, &l, cap);
		return;
	}
	{
		const char *b = c->p;
		char *e;
		int neg = ch(c) == '-';
		const char *q = b + (neg || ch(c) == '+');

		if (q + 1 < c->end && q[0] == '0' && (q[1] == 'x' || q[1] == 'X')) {
			unsigned long long u;

			errno = 0;
			u = strtoull(q, &e, 16);
			if (e == q + 2 || errno)
				perr(c, -EINVAL, "bad hexadecimal literal");
			l.is_hex = 1;
			l.bits = u;
			l.i = neg ? -(int64_t)u : (int64_t)u;
			l.f = (double)l.i;
		} else {
			const char *x = q;

			while (x < c->end && is_digit(*x))
				x++;
			if (x < c->end && (*x == '.' || *x == 'e' || *x == 'E' ||
					   *x == 'i' || *x == 'n' || *x == 'I' || *x == 'N')) {
				l.f = strtod(b, &e);
				l.is_float = 1;
			} else {
				errno = 0;
				if (neg) {
					l.i = strtoll(b, &e, 10);
				} else {
					unsigned long long u = strtoull(b, &e, 10);

					l.i = (int64_t)u;
				}
				if (errno)
					perr(c, -EINVAL, "integer literal out of range");
				l.f = neg ? (double)l.i : (double)(uint64_t)l.i;
			}
			if (e == b)
				perr(c, -EINVAL, "expected a number");
		}
		if (e > c->end)
			perr(c, -EINVAL, "number runs past the input");
		while (c->p < e)
			adv(c);
	}
	lit_push(c, a, &l, cap);
}

static int hexval(int k)
{
	if (k >= '0' && k <= '9')
		return k - '0';
	if (k >= 'a' && k <= 'f')
		return k - 'a' + 10;
	if (k >= 'A' && k <= 'F')
		return k - 'A' + 10;
	return -1;
}

/* dense<...> [: type] */
static struct hlo_attr *parse_dense(struct cur *c)
{
	const char *save = c->ctx;
	struct hlo_attr *a = new_attr(c, AV_DENSE);
	int cap = 0;

	c->ctx = "dense literal";
	expect(c, "<");
	ws(c);
	if (ch(c) == '"') {
		const char *s = string_lit(c);
		size_t n = strlen(s);
		uint8_t *b;

		if (n < 2 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X') || n % 2)
			perr(c, -EINVAL, "hex literal must be \"0x\" and an even number of digits");
		b = palloc(c, (n - 2) / 2);
		for (size_t i = 2; i < n; i += 2) {
			int hi = hexval(s[i]), lo = hexval(s[i + 1]);

			if (hi < 0 || lo < 0)
				perr(c, -EINVAL, "bad hex digit in literal");
			b[(i - 2) / 2] = (uint8_t)(hi * 16 + lo);
		}
		a->blob = b;
		a->bloblen = (n - 2) / 2;
	} else if (ch(c) != '>') {
		parse_lit_elems(c, a, &cap, 0);
	}
	expect(c, ">");
	c->ctx = save;
	if (accept(c, ":")) {
		a->has_type = 1;
		parse_type(c, &a->type);
	}
	return a;
}

/* key = value, ... up to @close. */
static void parse_dict_body(struct cur *c, struct hlo_attr *d, const char *close)
{
	int cap = 0;

	if (accept(c, close))
		return;
	do {
		const char *k;
		struct hlo_attr *v;

		ws(c);
		k = ch(c) == '"' ? string_lit(c) : attr_key(c);
		if (!k)
			perr(c, -EINVAL, "expected an attribute name");
		if (accept(c, "="))
			v = parse_value(c);
		else
			v = new_attr(c, AV_INT), v->i = 1; /* unit attribute */
		v->key = k;
		attr_push(c, d, v, &cap);
	} while (accept(c, ","));
	expect(c, close);
}

static struct hlo_attr *parse_list(struct cur *c)
{
	struct hlo_attr *a = new_attr(c, AV_LIST);
	int cap = 0;

	if (accept(c, "]"))
		return a;
	do {
		struct hlo_attr *v = parse_value(c);

		/* slice ranges [0:2:1] */
		if (v->kind == AV_INT && accept(c, ":")) {
			struct hlo_attr *r = new_attr(c, AV_RANGE);
			int rc = 0;

			attr_push(c, r, v, &rc);
			attr_push(c, r, parse_value(c), &rc);
			if (accept(c, ":"))
				attr_push(c, r, parse_value(c), &rc);
			v = r;
		}
		attr_push(c, a, v, &cap);
	} while (accept(c, ","));
	expect(c, "]");
	return a;
}

static struct hlo_attr *parse_value_nested(struct cur *c);

static struct hlo_attr *parse_value(struct cur *c)
{
	struct hlo_attr *a;

	if (++c->depth > MAX_NEST)
		perr(c, -EINVAL, "attribute nested deeper than %d", MAX_NEST);
	a = parse_value_nested(c);
	c->depth--;
	return a;
}

static struct hlo_attr *parse_value_nested(struct cur *c)
{
	struct hlo_attr *a;
	int k;

	ws(c);
	k = ch(c);
	if (k == '[') {
		adv(c);
		a = parse_list(c);
		/* [0] x [0] (dot dims), [b, 0, f]x[...]->[...] (conv dims) */
		ws(c);
		if (ch(c) == 'x' && !is_idc(ch_at(c, 1))) {
			struct hlo_attr *p = new_attr(c, AV_PAIR);
			int cap = 0;

			adv(c);
			expect(c, "[");
			attr_push(c, p, a, &cap);
			attr_push(c, p, parse_list(c), &cap);
			if (accept(c, "->")) {
				expect(c, "[");
				attr_push(c, p, parse_list(c), &cap);
				p->kind = AV_ARROW;
			}
			return p;
		}
		return a;
	}
	if (k == '{') {
		adv(c);
		a = new_attr(c, AV_DICT);
		parse_dict_body(c, a, "}");
		return a;
	}
	if (k == '"') {
		a = new_attr(c, AV_STR);
		a->s = string_lit(c);
		return a;
	}
	if (k == '@') {
		a = new_attr(c, AV_SYM);
		a->s = symbol(c);
		return a;
	}
	if (k == '<') {
		skip_angle(c);
		return new_attr(c, AV_OPAQUE);
	}
	if (k == '#') {
		const char *w;

		adv(c);
		w = ident(c);
		if (w && !strcmp(w, "stablehlo.conv")) {
			expect(c, "<");
			accept(c, "raw");
			ws(c);
			if (ch(c) == '[') {
				a = parse_value(c);
				expect(c, ">");
				return a;
			}
			a = new_attr(c, AV_DICT);
			parse_dict_body(c, a, ">");
			return a;
		}
		if (w && !strcmp(w, "stablehlo.dot")) {
			expect(c, "<");
			a = new_attr(c, AV_DICT);
			parse_dict_body(c, a, ">");
			return a;
		}
		if (w && !strcmp(w, "stablehlo") && accept(c, "<")) {
			/* #stablehlo<comparison_direction EQ> */
			const char *what = word(c);
			const char *val = word(c);

			if (what && val && accept(c, ">")) {
				a = new_attr(c, AV_IDENT);
				a->s = val;
				return a;
			}
			perr(c, -EINVAL, "bad #stablehlo<...> attribute");
		}
		ws(c);
		if (ch(c) == '<')
			skip_angle(c);
		return new_attr(c, AV_OPAQUE);
	}
	if (peek_word(c, "dense")) {
		word(c);
		return parse_dense(c);
	}
	if (peek_word(c, "dense_resource"))
		perr(c, -ENOTSUP, "dense_resource literals are not supported");
	if (peek_word(c, "array")) {
		word(c);
		a = new_attr(c, AV_LIST);
		expect(c, "<");
		{
			struct hlo_type t;
			int cap = 0;

			parse_elem(c, &t);
			if (accept(c, ":")) {
				do {
					struct hlo_attr *v = new_attr(c, AV_INT);

					ws(c);
					if (peek_word(c, "true") || peek_word(c, "false"))
						v->i = word(c)[0] == 't';
					else
						v->i = int_lit(c);
					attr_push(c, a, v, &cap);
				} while (accept(c, ","));
			}
		}
		expect(c, ">");
		return a;
	}
	if (peek_word(c, "true") || peek_word(c, "false")) {
		a = new_attr(c, AV_INT);
		a->i = word(c)[0] == 't';
		return a;
	}
	if (is_digit(k) || k == '-' || k == '+') {
		const char *b = c->p;
		char *e;
		const char *x = b + 1;

		while (x < c->end && (is_digit(*x) || *x == 'x' || hexval(*x) >= 0))
			x++;
		if (x < c->end && *x == '.' && !(b[0] == '0' && b[1] == 'x')) {
			a = new_attr(c, AV_FLOAT);
			a->f = strtod(b, &e);
		} else {
			a = new_attr(c, AV_INT);
			errno = 0;
			a->i = strtoll(b, &e, 0);
			if (errno)
				perr(c, -EINVAL, "integer out of range");
		}
		if (e == b || e > c->end)
			perr(c, -EINVAL, "expected a number");
		while (c->p < e)
			adv(c);
		ws(c);
		if (ch(c) == ':') { /* 1 : i64, not a slice range 1:3 */
			const char *q = c->p + 1;

			while (q < c->end && (*q == ' ' || *q == '\t'))
				q++;
			if (q < c->end && is_id0((unsigned char)*q) &&
			    (c->end - q < 6 || memcmp(q, "tensor", 6))) {
				struct hlo_type t;

				adv(c);
				parse_type(c, &t);
			}
		}
		return a;
	}
	if (is_id0(k)) {
		a = new_attr(c, AV_IDENT);
		a->s = word(c);
		return a;
	}
	perr(c, -EINVAL, "expected an attribute value");
}

/* ---------------------------------------------------------------------- */
/* Ops                                                                      */
/* ---------------------------------------------------------------------- */

static const struct {
	const char *name;
	int kind;
} op_names[] = {
	{ "constant", HOP_CONSTANT }, { "add", HOP_ADD }, { "subtract", HOP_SUB },
	{ "multiply", HOP_MUL }, { "divide", HOP_DIV }, { "maximum", HOP_MAX },
	{ "minimum", HOP_MIN }, { "and", HOP_AND }, { "or", HOP_OR },
	{ "negate", HOP_NEG }, { "exponential", HOP_EXP },
	{ "convert", HOP_CONVERT }, { "clamp", HOP_CLAMP },
	{ "reshape", HOP_RESHAPE }, { "transpose", HOP_TRANSPOSE },
	{ "broadcast_in_dim", HOP_BROADCAST }, { "slice", HOP_SLICE },
	{ "concatenate", HOP_CONCAT }, { "pad", HOP_PAD },
	{ "reduce", HOP_REDUCE }, { "reduce_window", HOP_REDUCE_WINDOW },
	{ "compare", HOP_COMPARE }, { "select", HOP_SELECT }, { "iota", HOP_IOTA },
	{ "dot_general", HOP_DOT_GENERAL }, { "dot", HOP_DOT },
	{ "convolution", HOP_CONV }, { "uniform_quantize", HOP_UQUANT },
	{ "uniform_dequantize", HOP_UDEQUANT }, { "custom_call", HOP_CUSTOM_CALL },
	{ "return", HOP_RETURN },
};

static int op_kind(const char *name)
{
	const char *n = NULL;

	if (!strcmp(name, "return") || !strcmp(name, "func.return"))
		return HOP_RETURN;
	if (!strcmp(name, "call") || !strcmp(name, "func.call"))
		return HOP_CALL;
	if (!strcmp(name, "check.expect_eq"))
		return HOP_CHECK_EQ;
	if (!strcmp(name, "check.expect_eq_const"))
		return HOP_CHECK_EQ_CONST;
	if (!strcmp(name, "check.expect_almost_eq"))
		return HOP_CHECK_ALMOST;
	if (!strcmp(name, "check.expect_almost_eq_const"))
		return HOP_CHECK_ALMOST_CONST;
	if (!strcmp(name, "check.expect_close"))
		return HOP_CHECK_CLOSE;
	if (!strncmp(name, "stablehlo.", 10))
		n = name + 10;
	else if (!strncmp(name, "mhlo.", 5))
		n = NULL;
	if (!n)
		return 0;
	for (size_t i = 0; i < sizeof(op_names) / sizeof(op_names[0]); i++)
		if (!strcmp(n, op_names[i].name))
			return op_names[i].kind;
	return 0;
}

static int find_value(struct hlo_func *f, const char *name)
{
	for (int i = f->nvals - 1; i >= 0; i--)
		if (!strcmp(f->vname[i], name))
			return i;
	return -1;
}

static int add_value(struct cur *c, const char *name, int def)
{
	struct hlo_func *f = c->f;
	int cap = c->cap_vals;

	if (find_value(f, name) >= 0)
		perr(c, -EINVAL, "value %s defined twice", name);
	f->vname = pgrow(c, f->vname, sizeof(*f->vname), f->nvals, &cap);
	cap = c->cap_vals;
	f->vt = pgrow(c, f->vt, sizeof(*f->vt), f->nvals, &cap);
	cap = c->cap_vals;
	f->vdef = pgrow(c, f->vdef, sizeof(*f->vdef), f->nvals, &cap);
	c->cap_vals = cap;
	f->vname[f->nvals] = name;
	f->vdef[f->nvals] = def;
	return f->nvals++;
}

/* An operand use: %x or %x#N. */
static int operand(struct cur *c)
{
	const char *n, *start;
	int v, line;
	const char *bol;

	ws(c);
	start = c->p;
	line = c->line;
	bol = c->bol;
	n = value_name(c);

	if (ch(c) == '#') {
		const char *b = c->p;

		adv(c);
		while (is_digit(ch(c)))
			adv(c);
		n = pstrndup(c, n, strlen(n));
		{
			size_t l = strlen(n), m = (size_t)(c->p - b);
			char *j = palloc(c, l + m + 1);

			memcpy(j, n, l);
			memcpy(j + l, b, m);
			n = j;
		}
	}
	v = find_value(c->f, n);
	if (v < 0)
		perr_at(c, start, line, bol, -EINVAL, "use of undefined value ", n);
	return v;
}

struct opbuild {
	int *opnd;
	int nopnd, cap_opnd;
	const char **flags;
	int nflags, cap_flags;
	int cap_attrs;
};

static void push_opnd(struct cur *c, struct hlo_op *op, struct opbuild *b, int v)
{
	b->opnd = pgrow(c, b->opnd, sizeof(int), b->nopnd, &b->cap_opnd);
	b->opnd[b->nopnd++] = v;
	op->opnd = b->opnd;
	op->nopnd = b->nopnd;
}

static void merge_dict(struct cur *c, struct hlo_op *op, struct opbuild *b,
		       struct hlo_attr *d)
{
	for (int i = 0; i < d->n; i++)
		attr_push(c, op->attrs, d->items[i], &b->cap_attrs);
}

/* Types list "(t, t)" or "t, t" into @out (pool). */
static int parse_type_list(struct cur *c, struct hlo_type **out, int paren)
{
	int n = 0, cap = 0;
	struct hlo_type *t = NULL;

	if (paren && accept(c, ")")) {
		*out = NULL;
		return 0;
	}
	do {
		t = pgrow(c, t, sizeof(*t), n, &cap);
		parse_type(c, &t[n++]);
		if (paren) { /* result attributes in func signatures */
			ws(c);
			if (ch(c) == '{') {
				struct hlo_attr d = { 0 };

				adv(c);
				parse_dict_body(c, &d, "}");
			}
		}
	} while (accept(c, ","));
	if (paren)
		expect(c, ")");
	*out = t;
	return n;
}

/* ": sig" of an op: operand types and result types. */
static void parse_sig(struct cur *c, struct hlo_op *op)
{
	struct hlo_type *ts;
	int n;

	expect(c, ":");
	ws(c);
	if (accept(c, "(")) {
		op->nsig = parse_type_list(c, &op->sig, 1);
		if (accept(c, "->")) {
			ws(c);
			if (accept(c, "("))
				n = parse_type_list(c, &ts, 1);
			else
				n = parse_type_list(c, &ts, 0);
			if (n != op->nres)
				perr(c, -EINVAL, "%d result types for %d results", n, op->nres);
			op->rt = ts;
		} else if (op->nres) {
			perr(c, -EINVAL, "expected '->' and result types");
		}
		return;
	}
	n = parse_type_list(c, &ts, 0);
	op->nsig = n;
	op->sig = ts;
	if (op->nres > 1) {
		if (n != op->nres)
			perr(c, -EINVAL, "%d types for %d results", n, op->nres);
		op->rt = ts;
	} else if (op->nres == 1) {
		op->rt = &ts[n - 1]; /* t, or select's "i1, t" */
	}
}

static struct hlo_func *new_func(struct cur *c, const char *name, int line)
{
	struct hlo_func *f = palloc(c, sizeof(*f));

	f->name = name;
	f->line = line;
	f->section = c->section;
	return f;
}

/* At '{': an attribute dictionary ({key = ...} or {}) rather than a body? */
static int at_attr_dict(struct cur *c)
{
	const char *q = c->p + 1;

	while (q < c->end && (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r'))
		q++;
	if (q < c->end && *q == '}')
		return 1;
	if (q < c->end && *q == '"')
		return 1;
	if (q >= c->end || !is_id0((unsigned char)*q))
		return 0;
	while (q < c->end && (is_id0((unsigned char)*q) || is_digit((unsigned char)*q) ||
			      *q == '.' || *q == '$'))
		q++;
	while (q < c->end && (*q == ' ' || *q == '\t'))
		q++;
	return q < c->end && (*q == '=' || *q == ',' || *q == '}');
}

/* Skip a location annotation: loc(...), nested parentheses and strings. */
static void skip_loc(struct cur *c)
{
	int depth = 0;

	if (!peek_word(c, "loc"))
		return;
	word(c);
	ws(c);
	if (ch(c) != '(')
		perr(c, -EINVAL, "expected '(' after loc");
	do {
		if (at_end(c))
			perr(c, -EINVAL, "unterminated loc(...)");
		if (ch(c) == '"') {
			string_lit(c);
			continue;
		}
		if (ch(c) == '(')
			depth++;
		else if (ch(c) == ')')
			depth--;
		adv(c);
	} while (depth > 0);
}

static void parse_block(struct cur *c, struct hlo_func *f);

/* A reduction body: its block args and ops; the reducer kind is derived. */
static int parse_region(struct cur *c, int has_header_args)
{
	struct hlo_func *outer = c->f;
	int outer_cap_v = c->cap_vals, outer_cap_o = c->cap_ops;
	struct hlo_func *r;
	int kind = 0;

	if (++c->depth > MAX_NEST)
		perr(c, -EINVAL, "regions nested deeper than %d", MAX_NEST);
	r = new_func(c, "region", c->line);

	c->f = r;
	c->cap_vals = 0;
	c->cap_ops = 0;
	if (has_header_args) {
		/* reducer(%a: t, %b: t) (%c: t, %d: t) */
		while (accept(c, "(")) {
			do {
				const char *n = value_name(c);
				int v;

				expect(c, ":");
				v = add_value(c, n, -1);
				parse_type(c, &r->vt[v]);
				r->nargs++;
			} while (accept(c, ","));
			expect(c, ")");
		}
	}
	expect(c, "{");
	ws(c);
	if (ch(c) == '^') {
		adv(c);
		while (is_idc(ch(c)))
			adv(c);
		if (accept(c, "(")) {
			do {
				const char *n = value_name(c);
				int v;

				expect(c, ":");
				v = add_value(c, n, -1);
				parse_type(c, &r->vt[v]);
				r->nargs++;
			} while (accept(c, ","));
			expect(c, ")");
		}
		expect(c, ":");
	}
	parse_block(c, r);
	/* one binary op of the two block arguments, then return it */
	if (r->nops == 2 && r->nargs == 2 && r->ops[0].nopnd == 2 &&
	    r->ops[1].kind == HOP_RETURN && r->ops[1].nopnd == 1 &&
	    r->ops[1].opnd[0] == r->ops[0].res &&
	    ((r->ops[0].opnd[0] == 0 && r->ops[0].opnd[1] == 1) ||
	     (r->ops[0].opnd[0] == 1 && r->ops[0].opnd[1] == 0))) {
		kind = r->ops[0].kind;
		if (kind != HOP_ADD && kind != HOP_MAX && kind != HOP_MIN &&
		    kind != HOP_MUL && kind != HOP_AND && kind != HOP_OR)
			kind = 0;
	}
	c->f = outer;
	c->cap_vals = outer_cap_v;
	c->cap_ops = outer_cap_o;
	c->depth--;
	if (!kind)
		perr(c, -ENOTSUP,
		     "reduction body must be one add/maximum/minimum/multiply/and/or of its two arguments");
	return kind;
}

static void parse_op(struct cur *c, struct hlo_func *f)
{
	struct hlo_op op;
	struct opbuild b;
	const char *rn[64];
	int rcount[64];
	int nr = 0;
	int generic = 0;
	const char *name;
	const char *save = c->ctx;

	const char *op_start, *op_bol;

	memset(&op, 0, sizeof(op));
	memset(&b, 0, sizeof(b));
	op.fused_into = -1;
	op.fuse_requant = -1;
	op.batch = -1;
	op.attrs = new_attr(c, AV_DICT);
	ws(c);
	op.line = c->line;
	op.col = (int)(c->p - c->bol) + 1;
	op_start = c->p;
	op_bol = c->bol;
	c->ctx = "operation";
	/* results */
	if (ch(c) == '%') {
		do {
			if (nr >= 64)
				perr(c, -ENOTSUP, "more than 64 result groups");
			rn[nr] = value_name(c);
			rcount[nr] = 1;
			if (ch(c) == ':') {
				adv(c);
				rcount[nr] = (int)int_lit(c);
				if (rcount[nr] < 1 || rcount[nr] > 64)
					perr(c, -EINVAL, "bad result count %d", rcount[nr]);
			}
			op.nres += rcount[nr];
			nr++;
		} while (accept(c, ","));
		expect(c, "=");
	}
	ws(c);
	if (ch(c) == '"') {
		name = string_lit(c);
		generic = 1;
	} else {
		name = ident(c);
		if (!name)
			perr(c, -EINVAL, "expected an operation name");
	}
	op.name = name;
	op.kind = op_kind(name);
	c->ctx = name;
	if (!op.kind) {
		char m[160];

		snprintf(m, sizeof(m), "unsupported op '%s'", name);
		perr_at(c, op_start, op.line, op_bol, -ENOTSUP, m, "");
	}

	if (op.kind == HOP_RETURN && !generic) {
		ws(c);
		if (ch(c) == '%') {
			do
				push_opnd(c, &op, &b, operand(c));
			while (accept(c, ","));
			parse_sig(c, &op);
		}
		goto done;
	}
	if (op.kind == HOP_CALL && !generic) {
		op.callee = symbol(c);
		expect(c, "(");
		if (!accept(c, ")")) {
			do
				push_opnd(c, &op, &b, operand(c));
			while (accept(c, ","));
			expect(c, ")");
		}
		parse_sig(c, &op);
		goto done;
	}
	if (op.kind == HOP_CUSTOM_CALL && !generic) {
		op.callee = symbol(c);
	}
	if (accept(c, "(")) {
		if (!accept(c, ")")) {
			do {
				/* reduce: (%a init: %b), (...) */
				int inner = accept(c, "(");

				push_opnd(c, &op, &b, operand(c));
				if (accept(c, "init")) {
					expect(c, ":");
					push_opnd(c, &op, &b, operand(c));
				}
				if (inner)
					expect(c, ")");
			} while (accept(c, ","));
			expect(c, ")");
		}
	}
	/* pretty items */
	for (;;) {
		ws(c);
		if (at_end(c))
			perr(c, -EINVAL, "expected ':' and the op's type");
		if (ch(c) == ':')
			break;
		if (ch(c) == ',') {
			adv(c);
			continue;
		}
		if (ch(c) == '%') {
			push_opnd(c, &op, &b, operand(c));
			continue;
		}
		if (ch(c) == '[') { /* slice %x [0:2, 1:3] */
			struct hlo_attr *v;

			adv(c);
			v = parse_list(c);
			v->key = "__slice";
			attr_push(c, op.attrs, v, &b.cap_attrs);
			continue;
		}
		if (ch(c) == '<' && ch_at(c, 1) == '{') {
			struct hlo_attr d = { 0 };

			adv(c);
			adv(c);
			parse_dict_body(c, &d, "}");
			expect(c, ">");
			merge_dict(c, &op, &b, &d);
			continue;
		}
		if (ch(c) == '(' && ch_at(c, 1) == '{') { /* generic regions */
			adv(c);
			op.reducer = parse_region(c, 0);
			expect(c, "}");
			expect(c, ")");
			continue;
		}
		if (ch(c) == '{') {
			struct hlo_attr d = { 0 };

			adv(c);
			parse_dict_body(c, &d, "}");
			merge_dict(c, &op, &b, &d);
			continue;
		}
		if (peek_word(c, "dense")) {
			word(c);
			op.lit = parse_dense(c);
			if (op.lit->has_type)
				goto typed_literal;
			continue;
		}
		if (peek_word(c, "applies")) {
			struct hlo_attr *v = new_attr(c, AV_IDENT);

			word(c);
			v->s = ident(c);
			if (!v->s)
				perr(c, -EINVAL, "expected an op after 'applies'");
			v->key = "applies";
			attr_push(c, op.attrs, v, &b.cap_attrs);
			continue;
		}
		if (is_id0(ch(c))) {
			const char *w = word(c);

			if (accept(c, "=")) {
				struct hlo_attr *v = parse_value(c);

				v->key = w;
				attr_push(c, op.attrs, v, &b.cap_attrs);
			} else {
				b.flags = pgrow(c, b.flags, sizeof(*b.flags), b.nflags,
						&b.cap_flags);
				b.flags[b.nflags++] = w;
				op.flags = b.flags;
				op.nflags = b.nflags;
			}
			continue;
		}
		perr(c, -EINVAL, "expected ':' and the op's type, found '%c'", ch(c));
	}
	parse_sig(c, &op);
	if (op.kind == HOP_REDUCE && !op.reducer) {
		const struct hlo_attr *ap = NULL;

		for (int i = 0; i < op.attrs->n; i++)
			if (!strcmp(op.attrs->items[i]->key, "applies"))
				ap = op.attrs->items[i];
		if (ap) {
			op.reducer = op_kind(ap->s);
			if (op.reducer != HOP_ADD && op.reducer != HOP_MAX &&
			    op.reducer != HOP_MIN && op.reducer != HOP_MUL &&
			    op.reducer != HOP_AND && op.reducer != HOP_OR)
				perr(c, -ENOTSUP, "reduce applies '%s': not supported", ap->s);
		} else if (peek_word(c, "reducer")) {
			word(c);
			op.reducer = parse_region(c, 1);
			expect(c, "}");
		} else {
			perr(c, -EINVAL, "reduce without a body");
		}
	}
	goto done;
typed_literal:
	/* "stablehlo.constant dense<..> : type" and "*_const %x, dense<..> : t",
	 * maybe followed by an attribute dictionary ({tolerance = 0.1 : f64}) */
	if (op.nres == 1)
		op.rt = &op.lit->type;
	op.sig = &op.lit->type;
	op.nsig = 1;
	ws(c);
	if (ch(c) == '{' && at_attr_dict(c)) {
		struct hlo_attr d = { 0 };

		adv(c);
		parse_dict_body(c, &d, "}");
		merge_dict(c, &op, &b, &d);
	}
done:
	skip_loc(c);
	if (op.kind == HOP_REDUCE_WINDOW && !op.reducer)
		perr(c, -EINVAL, "reduce_window without a body");
	if (op.kind == HOP_CONSTANT) {
		for (int i = 0; !op.lit && i < op.attrs->n; i++)
			if (!strcmp(op.attrs->items[i]->key, "value") &&
			    op.attrs->items[i]->kind == AV_DENSE)
				op.lit = op.attrs->items[i];
		if (!op.lit)
			perr(c, -EINVAL, "constant without a dense value");
	}
	if (op.nres && !op.rt)
		perr(c, -EINVAL, "no result type");
	switch (op.kind) {
	case HOP_RETURN: case HOP_CALL: case HOP_CUSTOM_CALL:
		break;
	case HOP_CHECK_EQ: case HOP_CHECK_EQ_CONST: case HOP_CHECK_ALMOST:
	case HOP_CHECK_ALMOST_CONST: case HOP_CHECK_CLOSE:
		if (op.nres)
			perr_at(c, op_start, op.line, op_bol, -EINVAL, "a check has no results", "");
		break;
	default:
		if (op.nres != 1)
			perr_at(c, op_start, op.line, op_bol, -ENOTSUP,
				"one result expected (multi-result forms are not supported)", "");
		break;
	}
	if (op.lit && (op.kind == HOP_CONSTANT || op.kind == HOP_CHECK_EQ_CONST ||
		       op.kind == HOP_CHECK_ALMOST_CONST)) {
		const struct hlo_type *lt = op.lit->has_type ? &op.lit->type :
					    op.nres ? &op.rt[0] : NULL;
		int64_t n = lt ? hlo_nelems(lt) : -1;
		char m[160];

		if (lt && op.lit->blob && op.lit->bloblen != hlo_elem_bytes(lt) &&
		    op.lit->bloblen != (size_t)n * hlo_elem_bytes(lt)) {
			snprintf(m, sizeof(m), "hex literal of %zu bytes for %lld elements of %zu bytes",
				 op.lit->bloblen, (long long)n, hlo_elem_bytes(lt));
			perr_at(c, op_start, op.line, op_bol, -EINVAL, m, "");
		}
		if (lt && !op.lit->blob && op.lit->nlit != 1 && op.lit->nlit != n) {
			snprintf(m, sizeof(m), "literal of %lld elements for a type of %lld",
				 (long long)op.lit->nlit, (long long)n);
			perr_at(c, op_start, op.line, op_bol, -EINVAL, m, "");
		}
	}
	/* custom_call: check.* targets and e1.* records */
	if (op.kind == HOP_CUSTOM_CALL) {
		if (!op.callee)
			for (int i = 0; i < op.attrs->n; i++)
				if (!strcmp(op.attrs->items[i]->key, "call_target_name"))
					op.callee = op.attrs->items[i]->s;
		if (!op.callee)
			perr(c, -EINVAL, "custom_call without a target");
		if (hlo_e1_known(op.callee))
			op.kind = HOP_E1; /* the seed's records (Documentation/hlo.md) */
		else if (strcmp(op.callee, "check.expect_eq") && strcmp(op.callee, "check.eq") &&
			 strcmp(op.callee, "check.expect_almost_eq") &&
			 strcmp(op.callee, "check.expect_close"))
		{
			char m[160];

			snprintf(m, sizeof(m), "unsupported custom_call target '@%.100s'", op.callee);
			perr_at(c, op_start, op.line, op_bol, -ENOTSUP, m, "");
		}
	}
	/* results become values */
	{
		int first = -1;

		for (int g = 0; g < nr; g++) {
			for (int k = 0; k < rcount[g]; k++) {
				char nm[96];
				int v;

				if (rcount[g] > 1)
					snprintf(nm, sizeof(nm), "%s#%d", rn[g], k);
				else
					snprintf(nm, sizeof(nm), "%s", rn[g]);
				v = add_value(c, pstrndup(c, nm, strlen(nm)), f->nops);
				if (first < 0)
					first = v;
				f->vt[v] = op.rt[v - first];
			}
		}
		op.res = first;
	}
	{
		int cap = c->cap_ops;

		f->ops = pgrow(c, f->ops, sizeof(*f->ops), f->nops, &cap);
		c->cap_ops = cap;
		f->ops[f->nops++] = op;
	}
	c->ctx = save;
}

static void parse_block(struct cur *c, struct hlo_func *f)
{
	for (;;) {
		ws(c);
		if (at_end(c))
			perr(c, -EINVAL, "expected '}' at the end of the body");
		if (ch(c) == '}')
			return;
		parse_op(c, f);
	}
}

static struct hlo_func *parse_func(struct cur *c)
{
	struct hlo_func *f;
	const char *name;
	int line = c->line;

	c->ctx = "func.func";
	if (accept(c, "public"))
		;
	else if (accept(c, "private") || accept(c, "nested"))
		line = -line; /* marks private below */
	name = symbol(c);
	f = new_func(c, name, line < 0 ? -line : line);
	f->is_public = line > 0;
	c->f = f;
	c->cap_vals = 0;
	c->cap_ops = 0;
	expect(c, "(");
	if (!accept(c, ")")) {
		do {
			const char *n = value_name(c);
			int v;

			expect(c, ":");
			v = add_value(c, n, -1);
			parse_type(c, &f->vt[v]);
			ws(c);
			if (ch(c) == '{') {
				struct hlo_attr d = { 0 };

				adv(c);
				parse_dict_body(c, &d, "}");
			}
			skip_loc(c);
			f->nargs++;
		} while (accept(c, ","));
		expect(c, ")");
	}
	if (accept(c, "->")) {
		ws(c);
		if (accept(c, "("))
			f->nres = parse_type_list(c, &f->res_t, 1);
		else {
			f->res_t = palloc(c, sizeof(*f->res_t));
			parse_type(c, f->res_t);
			f->nres = 1;
			ws(c);
			if (ch(c) == '{' && at_attr_dict(c)) {
				struct hlo_attr d = { 0 };

				adv(c);
				parse_dict_body(c, &d, "}");
			}
		}
	}
	if (accept(c, "attributes")) {
		struct hlo_attr d = { 0 };

		expect(c, "{");
		parse_dict_body(c, &d, "}");
	}
	ws(c);
	if (ch(c) != '{')
		perr(c, -ENOTSUP, "function declarations without a body are not supported");
	adv(c);
	parse_block(c, f);
	expect(c, "}");
	skip_loc(c);
	c->ctx = "func.func";
	if (!f->nops || f->ops[f->nops - 1].kind != HOP_RETURN)
		perr(c, -EINVAL, "function @%s does not end with a return", name);
	return f;
}

static void add_func(struct cur *c, struct hlo_func *f)
{
	struct e1npu_hlo *h = c->h;
	struct hlo_func **n = palloc(c, sizeof(*n) * (size_t)(h->nfuncs + 1));

	if (h->nfuncs)
		memcpy(n, h->funcs, sizeof(*n) * (size_t)h->nfuncs);
	n[h->nfuncs++] = f;
	h->funcs = n;
}

static void parse_section(struct cur *c)
{
	int in_module = 0;

	for (;;) {
		ws(c);
		c->ctx = "module";
		if (at_end(c))
			break;
		if (accept(c, "module")) {
			if (in_module)
				perr(c, -ENOTSUP, "nested modules are not supported");
			ws(c);
			if (ch(c) == '@')
				symbol(c);
			if (accept(c, "attributes")) {
				struct hlo_attr d = { 0 };

				expect(c, "{");
				parse_dict_body(c, &d, "}");
			}
			expect(c, "{");
			in_module = 1;
			continue;
		}
		if (in_module && accept(c, "}")) {
			in_module = 0;
			skip_loc(c);
			continue;
		}
		if (ch(c) == '#') { /* #loc1 = loc(...) aliases */
			while (!at_end(c) && ch(c) != '\n')
				adv(c);
			continue;
		}
		if (accept(c, "func.func")) {
			add_func(c, parse_func(c));
			continue;
		}
		if (ch(c) == '"')
			perr(c, -ENOTSUP, "generic-form modules/functions are not supported");
		perr(c, -EINVAL, "expected 'module' or 'func.func'");
	}
	if (in_module)
		perr(c, -EINVAL, "expected '}' closing the module");
}

/* Resolve calls within a section; check call and return types. */
static void link_section(struct cur *c, int section)
{
	struct e1npu_hlo *h = c->h;

	for (int i = 0; i < h->nfuncs; i++) {
		struct hlo_func *f = h->funcs[i];

		if (f->section != section)
			continue;
		for (int k = 0; k < h->nfuncs; k++)
			if (k != i && h->funcs[k]->section == section &&
			    !strcmp(h->funcs[k]->name, f->name)) {
				c->line = h->funcs[k]->line;
				c->bol = c->p;
				c->ctx = "func.func";
				perr(c, -EINVAL, "function @%s defined twice", f->name);
			}
		for (int o = 0; o < f->nops; o++) {
			struct hlo_op *op = &f->ops[o];

			if (op->kind != HOP_CALL)
				continue;
			for (int k = 0; k < h->nfuncs; k++)
				if (h->funcs[k]->section == section &&
				    !strcmp(h->funcs[k]->name, op->callee))
					op->callee_fn = h->funcs[k];
			c->line = op->line;
			c->bol = c->p - (op->col - 1);
			c->ctx = op->name;
			if (!op->callee_fn)
				perr(c, -EINVAL, "call of undefined function @%s", op->callee);
			if (op->callee_fn->nargs != op->nopnd ||
			    op->callee_fn->nres != op->nres)
				perr(c, -EINVAL, "call of @%s: %d arguments and %d results, it has %d and %d",
				     op->callee, op->nopnd, op->nres,
				     op->callee_fn->nargs, op->callee_fn->nres);
			op->callee_fn->called = 1;
		}
	}
}

static void parse_all(struct cur *c, const char *text, size_t len)
{
	struct e1npu_hlo *h = c->h;
	const char *sec_start = text, *end = text + len;
	int line = 1;

	/* sections split at lines "// -----" */
	while (sec_start <= end) {
		const char *p = sec_start, *sec_end = end;
		int lines = 0;

		while (p < end) {
			const char *eol = memchr(p, '\n', (size_t)(end - p));
			const char *q = p;

			if (!eol)
				eol = end;
			while (q < eol && (*q == ' ' || *q == '\t'))
				q++;
			if (eol - q >= 8 && !memcmp(q, "// -----", 8)) {
				sec_end = p;
				break;
			}
			lines++;
			p = eol < end ? eol + 1 : end;
			if (eol == end)
				break;
		}
		c->p = sec_start;
		c->end = sec_end;
		c->bol = sec_start;
		c->line = line;
		c->section = h->nsections;
		parse_section(c);
		c->p = sec_end;
		link_section(c, h->nsections);
		h->nsections++;
		if (sec_end == end)
			break;
		line += lines + 1;
		{
			const char *eol = memchr(sec_end, '\n', (size_t)(end - sec_end));

			sec_start = eol ? eol + 1 : end;
		}
	}
}

int hlo_parse(struct e1npu_hlo *h, const char *text, size_t len)
{
	struct cur *c = calloc(1, sizeof(*c));
	int ret;

	if (!c)
		return -ENOMEM;
	c->h = h;
	c->s = text;
	c->ret = 0;
	c->ctx = "module";
	if (setjmp(c->jb)) {
		ret = c->ret;
		free(c);
		return ret;
	}
	parse_all(c, text, len);
	free(c);
	return 0;
}
