// SPDX-License-Identifier: MIT
/*
 * The tensor arena planner (lib/tflite/arena_plan.c): hand-worked plans,
 * argument checks, and random lifetimes where every plan must keep live
 * tensors apart, keep offsets aligned, and stay at or above the lower
 * bound, which is computed here independently (a sweep over every step)
 * and compared with the library's.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "arena_plan.h"

static uint64_t rng = 0x2545f4914f6cdd1dull;

static uint32_t rnd(uint32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng % n);
}

/* Largest sum of sizes live at one step, step by step. */
static size_t sweep_bound(const struct arena_item *it, size_t n, uint32_t steps)
{
	size_t best = 0;

	for (uint32_t s = 0; s < steps; s++) {
		size_t sum = 0;

		for (size_t i = 0; i < n; i++)
			if (it[i].first <= s && s <= it[i].last)
				sum += it[i].size;
		if (sum > best)
			best = sum;
	}
	return best;
}

/* Live-together items are disjoint, aligned, inside the arena. */
static void check_plan(const struct arena_item *it, size_t n, size_t align,
		       size_t total)
{
	for (size_t i = 0; i < n; i++) {
		if (!it[i].size)
			continue;
		assert_int_equal(it[i].offset % align, 0);
		assert_true(it[i].offset + it[i].size <= total);
		for (size_t j = i + 1; j < n; j++) {
			if (!it[j].size || it[i].first > it[j].last || it[j].first > it[i].last)
				continue;
			if (it[i].offset < it[j].offset + it[j].size &&
			    it[j].offset < it[i].offset + it[i].size) {
				fprintf(stderr, "items %zu [%zu+%zu, steps %u..%u] and %zu [%zu+%zu, steps %u..%u] overlap\n",
					i, it[i].offset, it[i].size, it[i].first, it[i].last,
					j, it[j].offset, it[j].size, it[j].first, it[j].last);
				fail();
			}
		}
	}
}

/*
 * A chain a -> b -> c: a lives at steps 0-1, b 1-2, c 2-3; sizes 100, 200,
 * 300, aligned to 64: 128, 256, 320. Largest first: c at 0; b overlaps c,
 * goes above it at 320; a overlaps only b, and the gap [0, 320) below b
 * holds it: a at 0. Arena 320 + 256 = 576; lower bound max(100 + 200,
 * 200 + 300) = 500.
 */
static void test_chain(void **state)
{
	struct arena_item it[3] = {
		{ .size = 100, .first = 0, .last = 1 },
		{ .size = 200, .first = 1, .last = 2 },
		{ .size = 300, .first = 2, .last = 3 },
	};
	size_t total;

	(void)state;
	assert_int_equal(arena_plan(it, 3, 64, &total), 0);
	assert_int_equal(it[2].offset, 0);
	assert_int_equal(it[1].offset, 320);
	assert_int_equal(it[0].offset, 0);
	assert_int_equal(total, 576);
	assert_int_equal(arena_lower_bound(it, 3), 500);
}

/*
 * Best fit, not first fit. Largest first (alignment 2 keeps sizes):
 * A 2000 (step 0) at 0; B 600 (step 1) at 0; H 500 (steps 1-2) above B at
 * 600; J 450 (1-2) at 1100; K 300 (1) at 1550; L 250 (1-2) at 1850. At step
 * 2 only H [600,1100), J [1100,1550), L [1850,2100) are live: gaps
 * [0,600) and [1550,1850). M 200 (step 2) fits both; the smaller is
 * 1550 (first fit would say 0). Arena 2100 = the lower bound (step 1:
 * 600 + 500 + 450 + 300 + 250).
 */
static void test_best_fit(void **state)
{
	struct arena_item it[7] = {
		{ .size = 2000, .first = 0, .last = 0 },
		{ .size = 600, .first = 1, .last = 1 },
		{ .size = 500, .first = 1, .last = 2 },
		{ .size = 450, .first = 1, .last = 2 },
		{ .size = 300, .first = 1, .last = 1 },
		{ .size = 250, .first = 1, .last = 2 },
		{ .size = 200, .first = 2, .last = 2 },
	};
	static const size_t want[7] = { 0, 0, 600, 1100, 1550, 1850, 1550 };
	size_t total;

	(void)state;
	assert_int_equal(arena_plan(it, 7, 2, &total), 0);
	for (int i = 0; i < 7; i++)
		assert_int_equal(it[i].offset, want[i]);
	assert_int_equal(total, 2100);
	assert_int_equal(arena_lower_bound(it, 7), 2100);
}

/*
 * Sizes 400, 300, 250, 200, 100 are placed in that order (alignment 4:
 * 250 takes 252). a 400 (steps 0-1) at 0; b 300 (0-1) at 400; d 250 (2-3)
 * overlaps neither: 0; c 200 (0-1) above a, b: 700; e 100 (1-2) overlaps
 * a, b, c (step 1) and d (step 2), no hole: on top at 900. Arena 1000.
 */
static void test_on_top(void **state)
{
	struct arena_item it[5] = {
		{ .size = 400, .first = 0, .last = 1 },
		{ .size = 300, .first = 0, .last = 1 },
		{ .size = 250, .first = 2, .last = 3 },
		{ .size = 200, .first = 0, .last = 1 },
		{ .size = 100, .first = 1, .last = 2 },
	};
	size_t total;

	(void)state;
	assert_int_equal(arena_plan(it, 5, 4, &total), 0);
	assert_int_equal(it[0].offset, 0);
	assert_int_equal(it[1].offset, 400);
	assert_int_equal(it[2].offset, 0);
	assert_int_equal(it[3].offset, 700);
	assert_int_equal(it[4].offset, 900);
	assert_int_equal(total, 1000);
}

static void test_args(void **state)
{
	struct arena_item it[2] = {
		{ .size = 10, .first = 3, .last = 2 },
		{ .size = 0, .first = 0, .last = 9 },
	};
	size_t total = 123;

	(void)state;
	assert_int_equal(arena_plan(it, 2, 64, &total), -EINVAL);	/* first > last */
	it[0].first = 1;
	assert_int_equal(arena_plan(it, 2, 48, &total), -EINVAL);	/* not a power of 2 */
	assert_int_equal(arena_plan(it, 2, 0, &total), -EINVAL);
	assert_int_equal(arena_plan(it, 2, 64, NULL), -EINVAL);
	it[0].size = SIZE_MAX - 10;
	assert_int_equal(arena_plan(it, 2, 64, &total), -EINVAL);	/* too big */
	it[0].size = 10;
	assert_int_equal(arena_plan(it, 2, 64, &total), 0);
	assert_int_equal(total, 64);	/* the empty item takes no space */
	assert_int_equal(arena_plan(NULL, 0, 64, &total), 0);
	assert_int_equal(total, 0);
}

/* Random lifetimes: correctness always; the ratio to the bound is printed. */
static void test_random(void **state)
{
	static struct arena_item it[300];
	double worst = 1, sum = 0;
	const int rounds = 400;

	(void)state;
	for (int r = 0; r < rounds; r++) {
		size_t n = 1 + rnd(300), total, lb, align = (size_t)1 << rnd(8);
		uint32_t steps = 1 + rnd(120);

		for (size_t i = 0; i < n; i++) {
			uint32_t a = rnd(steps), b = rnd(steps);

			/* mostly short lives, as in a network; sizes over 5 decades */
			if (rnd(4))
				b = a + rnd(3) < steps ? a + rnd(3) : steps - 1;
			it[i].first = a < b ? a : b;
			it[i].last = a < b ? b : a;
			it[i].size = rnd(10) ? 1 + rnd(1u << (4 + rnd(16))) : 0;
		}
		assert_int_equal(arena_plan(it, n, align, &total), 0);
		check_plan(it, n, align, total);
		lb = sweep_bound(it, n, steps);
		assert_int_equal(arena_lower_bound(it, n), lb);
		assert_true(total >= lb);
		if (lb) {
			double q = (double)total / (double)lb;

			sum += q;
			if (q > worst)
				worst = q;
		}
	}
	print_message("random lifetimes: %d plans, planned/lower bound mean %.4f, worst %.4f\n",
		      rounds, sum / rounds, worst);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chain),
		cmocka_unit_test(test_best_fit),
		cmocka_unit_test(test_on_top),
		cmocka_unit_test(test_args),
		cmocka_unit_test(test_random),
	};

	return cmocka_run_group_tests_name("arena-plan", tests, NULL, NULL);
}
