// SPDX-License-Identifier: MIT
/*
 * OPS_BAD()'s condition, a C expression ("!ops_mat_span(&sa, m, k, lda,
 * 1)"), in words for e1npu_ops_last_error(): a user reads "matrix a: lda
 * is shorter than its row, or it spans more than PTRDIFF_MAX bytes", not
 * the library's source. Conditions no rule knows keep their text.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "ops_internal.h"

/* Arguments and parameters that are sizes or counts ("is 0"), not pointers. */
static const char *const counts[] = {
	"m", "n", "rows", "count", "batch", "heads", "tq", "tk", "dim", "d", "dm", "dh",
	"t", "group", "groups", "depth_multiplier", "stride_h", "stride_w", "dil_h",
	"dil_w", "kh", "kw", "in_h", "in_w", "c_in", "c_out", "window", "depth", "cap", "tnew",
};

/* Whole conditions no pattern says well (after simplify()). */
static const struct {
	const char *cond, *words;
} exact[] = {
	{ "nz > 2", "a group of four weights along K has more than 2 non-zeros (2:4 sparsity)" },
	{ "(softmax == E1NPU_SOFTMAX_EXACT && (!(logit_scale > 0) || !(beta > 0)))",
	  "softmax E1NPU_SOFTMAX_EXACT needs logit_scale and beta above 0" },
};

/* Helper predicates: what their failure means. */
static const struct {
	const char *call, *words;
} helpers[] = {
	{ "!ops_mm_dims_ok(", "m, n or k is too large (the matrices' sizes overflow)" },
	{ "!ops_size_mul", "the tensors are too large (their sizes overflow)" },
	{ "!fits(", "the tensors are too large (their sizes overflow)" },
	{ "!qc_dtype_ok(", "dtype is not E1NPU_DTYPE_INT8 or E1NPU_DTYPE_UINT8" },
	{ "!qc_reserved_zero(", "the reserved fields of the parameters must be zero" },
	{ "e1npu_ops_pool_output_size(", "the pooling window and padding leave no output" },
	{ "e1q_softmax_prepare(", "beta and input_scale give no usable softmax multiplier" },
	{ "!e1npu_fp8_e4m3_q88(", "an FP8 value is NaN" },
};

/* @s without "p->" (the parameters) and integer casts, in @out. */
static void simplify(const char *s, char *out, size_t len)
{
	static const char *const drop[] = { "p->", "(uint64_t)", "(size_t)", "(unsigned int)",
					    "(double)", "(enum e1npu_ops_force)" };
	size_t o = 0;

	while (*s && o + 1 < len) {
		size_t i, n = 0;

		for (i = 0; i < sizeof(drop) / sizeof(drop[0]); i++)
			if (!strncmp(s, drop[i], strlen(drop[i])))
				n = strlen(drop[i]);
		if (n) {
			s += n;
			continue;
		}
		out[o++] = *s++;
	}
	out[o] = 0;
}

static bool is_name(const char *s)
{
	if (!*s || !(isalpha((unsigned char)*s) || *s == '_'))
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '.')
			return false;
	return true;
}

/* "!name" */
static bool words_missing(const char *c, char *buf, size_t len)
{
	if (c[0] != '!' || !is_name(c + 1))
		return false;
	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
		if (!strcmp(c + 1, counts[i])) {
			snprintf(buf, len, "%s is 0", c + 1);
			return true;
		}
	/* k is the inner dimension of matmuls and the keys of attention */
	snprintf(buf, len, "%s is %s", c + 1, !strcmp(c + 1, "k") ? "0 or NULL" : "NULL");
	return true;
}

/* "!(x > 0)": a scale that is 0, negative or NaN */
static bool words_positive(const char *c, char *buf, size_t len)
{
	size_t n = strlen(c);

	if (strncmp(c, "!(", 2) || n < 8 || strcmp(c + n - 5, " > 0)"))
		return false;
	snprintf(buf, len, "%.*s is not above 0 (0, negative or NaN)", (int)(n - 7), c + 2);
	return true;
}

/* "!ops_mat_span(&sa, m, k, lda, 1)": matrix a's rows and stride */
static bool words_span(const char *c, char *buf, size_t len)
{
	char mat, ld[16] = "";
	const char *p;

	if (strncmp(c, "!ops_mat_span(&s", 16))
		return false;
	mat = c[16];
	p = strchr(c, ',');
	for (int i = 0; p && i < 2; i++)
		p = strchr(p + 1, ',');
	if (p)
		sscanf(p + 1, " %15[a-z_]", ld);
	snprintf(buf, len, "matrix %c: %s is shorter than its row, or the matrix spans more "
		 "than PTRDIFF_MAX bytes", mat, ld[0] ? ld : "its stride");
	return true;
}

/* "!qc_zp_ok(dtype, qa->zero_point)", "!rq_ok(rq_q)" */
static bool words_helper_arg(const char *c, char *buf, size_t len)
{
	const char *a = strchr(c, '(');
	char arg[48];

	if (!strncmp(c, "!qc_zp_ok(", 10) && (a = strchr(c, ','))) {
		if (sscanf(a + 1, " %47[a-z_.>-]", arg) == 1)
			snprintf(buf, len, "%s is outside the data type's range", arg);
		else
			snprintf(buf, len, "a zero point is outside the data type's range");
		return true;
	}
	if (!strncmp(c, "!rq_ok(", 7) && sscanf(a + 1, "%47[a-z_.>&-]", arg) == 1) {
		snprintf(buf, len, "requantization %s is not usable (its scale gives no multiplier "
			 "and shift)", arg[0] == '&' ? arg + 1 : arg);
		return true;
	}
	for (size_t i = 0; i < sizeof(helpers) / sizeof(helpers[0]); i++)
		if (!strncmp(c, helpers[i].call, strlen(helpers[i].call))) {
			snprintf(buf, len, "%s", helpers[i].words);
			return true;
		}
	return false;
}

/* "(kind != A && kind != B)": kind is none of them */
static bool words_none_of(const char *c, char *buf, size_t len)
{
	char lhs[48], list[256] = "", cur[256];
	const char *p;
	size_t o = 0;

	if (c[0] != '(' || sscanf(c + 1, "%47s != ", lhs) != 1 || !strstr(c, " && "))
		return false;
	snprintf(cur, sizeof(cur), "%.*s", (int)strlen(c) - 2, c + 1);
	for (p = cur; p;) {
		char l[48], r[80];
		const char *next = strstr(p, " && ");

		if (sscanf(p, "%47s != %79[^ )&]", l, r) != 2 || strcmp(l, lhs))
			return false;
		o += (size_t)snprintf(list + o, sizeof(list) - o, "%s%s", o ? ", " : "", r);
		if (o >= sizeof(list))
			return false;
		p = next ? next + 4 : NULL;
	}
	snprintf(buf, len, "%s is none of %s", lhs, list);
	return true;
}

/* "x % y", "x > y", "x != y" */
static bool words_binary(const char *c, char *buf, size_t len)
{
	static const struct { const char *op, *words; } ops[] = {
		{ " % ", "is not a multiple of" }, { " > ", "is above" },
		{ " != ", "is not" }, { " < ", "is below" },
	};

	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		const char *p = strstr(c, ops[i].op);

		if (!p || strstr(c, "&&") || strstr(c, "||"))
			continue;
		/* "act > E1NPU_ACT_RELU_N1_TO_1": past the enum's last value */
		if (!strcmp(ops[i].op, " > ") && !strncmp(p + 3, "E1NPU_", 6))
			snprintf(buf, len, "%.*s is not one of its values (the last is %s)",
				 (int)(p - c), c, p + 3);
		else
			snprintf(buf, len, "%.*s %s %s", (int)(p - c), c, ops[i].words,
				 p + strlen(ops[i].op));
		return true;
	}
	return false;
}

/* "(mask == E1NPU_MASK_SLIDING && !window)": a value needs another */
static bool words_needs(const char *c, char *buf, size_t len)
{
	char l[48], r[64], need[48];

	if (sscanf(c, "(%47s == %63s && !%47[a-z_])", l, r, need) != 3)
		return false;
	snprintf(buf, len, "%s is 0, and %s %s needs it", need, l, r);
	return true;
}

void ops_cond_words(const char *cond, char *buf, size_t len)
{
	char c[320];

	simplify(cond, c, sizeof(c));
	for (size_t i = 0; i < sizeof(exact) / sizeof(exact[0]); i++)
		if (!strcmp(c, exact[i].cond)) {
			snprintf(buf, len, "%s", exact[i].words);
			return;
		}
	if (words_missing(c, buf, len) || words_positive(c, buf, len) ||
	    words_span(c, buf, len) || words_helper_arg(c, buf, len) ||
	    words_none_of(c, buf, len) || words_needs(c, buf, len) ||
	    words_binary(c, buf, len))
		return;
	snprintf(buf, len, "the arguments break the rule '%s'", c);
}
