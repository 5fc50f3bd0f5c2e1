/* SPDX-License-Identifier: MIT */
/*
 * npu-smoke smoke, lowered part: the operations of <e1npu/e1npu_ops.h>,
 * each run through the lowering layer and compared with the naive CPU
 * references of lib/ref (the project's independent oracle, linked from
 * libe1npu.a: hidden from the shared library, so npu-smoke links the
 * archive). Uses only the public API besides lib/ref/ref.h.
 */
#ifndef __NPU_SMOKE_LOWERED_H__
#define __NPU_SMOKE_LOWERED_H__

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <e1npu/e1npu_ops.h>

/* Element types the comparison prints values of. */
enum smoke_elem {
	SMOKE_S8,
	SMOKE_U8,
	SMOKE_S32,
};

/* FNV-1a 64 of @n bytes, continuing from @h (start: SMOKE_FNV_INIT). */
#define SMOKE_FNV_INIT	0xcbf29ce484222325ull
uint64_t smoke_fnv1a(uint64_t h, const void *p, size_t n);

/*
 * smoke_compare() - @n elements of @type: true when @got equals @want.
 * Otherwise writes to @msg the first differing element, both values and
 * how many elements differ.
 */
bool smoke_compare(const void *got, const void *want, size_t n,
		   enum smoke_elem type, char *msg, size_t len);

/* Short name of an enum e1npu_ops_reason ("big_gemm", ...). */
const char *smoke_reason_name(uint32_t reason);

/* The outcome of one lowered case. */
struct lowered_result {
	bool pass;
	int error;			/* the lowering's return value */
	uint64_t checksum;		/* FNV-1a 64 of every output */
	struct e1npu_ops_report rep;	/* the lowering's own report */
	char note[160];			/* why it failed; empty on pass */
};

/*
 * Run state of one case. @tamper (NULL in npu-smoke) lets the unit test
 * corrupt each reference before it is compared, to prove every case
 * compares what it computes.
 */
struct lcase {
	struct e1npu_ops *ops;
	struct e1npu_ops_report *rep;
	struct lowered_result *res;
	void (*tamper)(void *ref, size_t bytes);
	uint64_t seed;
	void *mem[24];
	unsigned int nmem;
	unsigned int checks;		/* outputs compared */
	bool mismatch;
};

/* A case: @run returns the lowering's error, or 0 after lc_check()s. */
struct lcase_def {
	const char *name;
	int (*run)(struct lcase *c, const uint32_t *p);
	uint32_t p[8];
};

/* Case-writing helpers (smoke-lowered.c); freed after the case. */
void *lc_alloc(struct lcase *c, size_t bytes);
void *lc_out(struct lcase *c, size_t bytes);	/* poisoned output */
int8_t *lc_s8(struct lcase *c, size_t n, int lo, int hi);
uint8_t *lc_u8(struct lcase *c, size_t n);
uint32_t lc_rand(struct lcase *c);
/* Compare one output with its reference; the first mismatch is kept. */
void lc_check(struct lcase *c, const void *out, void *ref, size_t n,
	      enum smoke_elem type, const char *what);
/* A reference that itself failed (bad parameters in the case table). */
int lc_ref_failed(struct lcase *c, const char *what, int ret);
struct e1npu_requant lc_requant(double scale);

/* The case tables, by family. */
extern const struct lcase_def lowered_mm[];
extern const size_t lowered_mm_count;
extern const struct lcase_def lowered_nn[];
extern const size_t lowered_nn_count;
extern const struct lcase_def lowered_xf[];
extern const size_t lowered_xf_count;

/* All cases in table order. */
size_t lowered_count(void);
const struct lcase_def *lowered_case(size_t i);

/*
 * lowered_run() - run case @i on @ops (a context on the device) into @r.
 * @tamper: NULL, or the unit test's reference corrupter.
 */
void lowered_run(struct e1npu_ops *ops, size_t i, struct lowered_result *r,
		 void (*tamper)(void *ref, size_t bytes));

#endif
