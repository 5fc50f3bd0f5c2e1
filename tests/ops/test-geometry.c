// SPDX-License-Identifier: MIT
/*
 * The lowering's window geometry (lib/ops/geometry.c) against hand-worked
 * TFLite values and against the oracle's own implementation (lib/ref) over
 * a grid of sizes, filters, strides and dilations.
 */
#include "ops-test.h"
#include "ops_internal.h"
#include "ref.h"

static void check(uint32_t pad, uint32_t in, uint32_t f, uint32_t s,
		  uint32_t d, uint32_t out, uint32_t before)
{
	uint32_t o = 99, p = 99;

	ops_axis_geometry(pad, in, f, s, d, &o, &p);
	assert_int_equal(o, out);
	assert_int_equal(p, before);
}

static void test_hand_worked(void **state)
{
	(void)state;
	/* SAME: ceil(in / stride); the overhang split smaller half first. */
	check(E1NPU_PAD_SAME, 7, 3, 2, 1, 4, 1);	/* 3*2+3-7 = 2 */
	check(E1NPU_PAD_SAME, 224, 3, 2, 1, 112, 0);	/* 111*2+3-224 = 1 */
	check(E1NPU_PAD_SAME, 112, 3, 1, 1, 112, 1);
	check(E1NPU_PAD_SAME, 5, 5, 1, 2, 5, 4);	/* span 9: 4+9-5 = 8 */
	check(E1NPU_PAD_SAME, 1, 7, 3, 1, 1, 3);
	/* VALID: windows that fit, no padding. */
	check(E1NPU_PAD_VALID, 7, 3, 2, 1, 3, 0);
	check(E1NPU_PAD_VALID, 10, 3, 1, 2, 6, 0);	/* span 5 */
	check(E1NPU_PAD_VALID, 4, 5, 1, 1, 0, 0);	/* filter larger */
	check(E1NPU_PAD_VALID, 8, 2, 2, 1, 4, 0);
}

static void test_matches_oracle(void **state)
{
	static const uint32_t pads[] = { E1NPU_PAD_VALID, E1NPU_PAD_SAME };
	unsigned int cases = 0;

	(void)state;
	for (uint32_t pi = 0; pi < 2; pi++)
		for (uint32_t in = 1; in <= 40; in++)
			for (uint32_t f = 1; f <= 7; f++)
				for (uint32_t s = 1; s <= 4; s++)
					for (uint32_t d = 1; d <= 3; d++) {
						uint32_t o1, p1, o2, p2;

						ops_axis_geometry(pads[pi], in, f, s, d, &o1, &p1);
						ref_conv_geometry(pads[pi], in, f, s, d, &o2, &p2);
						assert_int_equal(o1, o2);
						assert_int_equal(p1, p2);
						cases++;
					}
	assert_int_equal(cases, 2 * 40 * 7 * 4 * 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hand_worked),
		cmocka_unit_test(test_matches_oracle),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
