// SPDX-License-Identifier: MIT
/*
 * The lowered part of npu-smoke smoke: runs one case of the tables in
 * smoke-lowered-{mm,nn,xf}.c with deterministic inputs (a per-case seed
 * from its name, so adding a case changes no other's inputs), compares
 * every output with its reference and keeps the lowering's report.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smoke-lowered.h"

static void oom(size_t bytes)
{
	fprintf(stderr, "npu-smoke: out of memory (%zu bytes)\n", bytes);
	exit(EXIT_FAILURE);
}

void *lc_alloc(struct lcase *c, size_t bytes)
{
	void *p;

	if (c->nmem == sizeof(c->mem) / sizeof(c->mem[0])) {
		/* a case table bug, not a run-time condition */
		fprintf(stderr, "npu-smoke: a lowered case needs more than %zu buffers\n",
			sizeof(c->mem) / sizeof(c->mem[0]));
		exit(EXIT_FAILURE);
	}
	p = calloc(1, bytes ? bytes : 1);
	if (!p)
		oom(bytes);
	c->mem[c->nmem++] = p;
	return p;
}

void *lc_out(struct lcase *c, size_t bytes)
{
	void *p = lc_alloc(c, bytes);

	/* an output the lowering leaves unwritten then shows as a mismatch */
	memset(p, 0x5a, bytes);
	return p;
}

uint32_t lc_rand(struct lcase *c)
{
	c->seed = c->seed * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(c->seed >> 33);
}

int8_t *lc_s8(struct lcase *c, size_t n, int lo, int hi)
{
	int8_t *p = lc_alloc(c, n);
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (int8_t)(lo + (int)(lc_rand(c) % (uint32_t)(hi - lo + 1)));
	return p;
}

uint8_t *lc_u8(struct lcase *c, size_t n)
{
	uint8_t *p = lc_alloc(c, n);
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)lc_rand(c);
	return p;
}

void lc_check(struct lcase *c, const void *out, void *ref, size_t n,
	      enum smoke_elem type, const char *what)
{
	size_t bytes = n * (type == SMOKE_S32 ? 4 : 1);
	char msg[96];

	c->res->checksum = smoke_fnv1a(c->res->checksum, out, bytes);
	if (c->tamper)
		c->tamper(ref, bytes);
	c->checks++;
	if (smoke_compare(out, ref, n, type, msg, sizeof(msg)))
		return;
	if (!c->mismatch)
		snprintf(c->res->note, sizeof(c->res->note),
			 "%s differs from the CPU reference: %s", what, msg);
	c->mismatch = true;
}

int lc_ref_failed(struct lcase *c, const char *what, int ret)
{
	snprintf(c->res->note, sizeof(c->res->note), "CPU reference %s failed: %s",
		 what, e1npu_strerror(ret));
	c->mismatch = true;
	return 0;
}

struct e1npu_requant lc_requant(double scale)
{
	struct e1npu_requant rq;

	if (e1npu_requant_from_scale(scale, 0, &rq)) {
		fprintf(stderr, "npu-smoke: bad requantization scale %g in a case\n", scale);
		exit(EXIT_FAILURE);
	}
	return rq;
}

size_t lowered_count(void)
{
	return lowered_mm_count + lowered_nn_count + lowered_xf_count;
}

const struct lcase_def *lowered_case(size_t i)
{
	if (i < lowered_mm_count)
		return &lowered_mm[i];
	i -= lowered_mm_count;
	if (i < lowered_nn_count)
		return &lowered_nn[i];
	i -= lowered_nn_count;
	return i < lowered_xf_count ? &lowered_xf[i] : NULL;
}

void lowered_run(struct e1npu_ops *ops, size_t i, struct lowered_result *r,
		 void (*tamper)(void *ref, size_t bytes))
{
	const struct lcase_def *d = lowered_case(i);
	struct lcase c;
	int ret;

	memset(r, 0, sizeof(*r));
	memset(&c, 0, sizeof(c));
	r->checksum = SMOKE_FNV_INIT;
	c.ops = ops;
	c.rep = &r->rep;
	c.res = r;
	c.tamper = tamper;
	c.seed = smoke_fnv1a(SMOKE_FNV_INIT, d->name, strlen(d->name));
	ret = d->run(&c, d->p);
	r->error = ret;
	if (ret && !r->note[0])
		snprintf(r->note, sizeof(r->note), "the lowering failed: %s",
			 e1npu_strerror(ret));
	else if (!ret && !c.checks)
		snprintf(r->note, sizeof(r->note), "no output was compared");
	r->pass = !ret && c.checks && !c.mismatch;
	while (c.nmem)
		free(c.mem[--c.nmem]);
}
