/* SPDX-License-Identifier: MIT */
/*
 * Tensor arena planner: one arena for every activation tensor, offsets
 * chosen from the tensors' lifetimes (in operator steps) so that tensors
 * live at the same step never overlap. Greedy by size, best fit.
 */
#ifndef E1NPU_ARENA_PLAN_H
#define E1NPU_ARENA_PLAN_H

#include <stddef.h>
#include <stdint.h>

/*
 * One tensor to place. @first..@last: the steps (inclusive) during which
 * it must hold its data; @size in bytes (0: not placed, offset 0).
 * @offset is the planner's output, a multiple of the alignment.
 */
struct arena_item {
	size_t size;
	uint32_t first, last;
	size_t offset;
};

/*
 * Place @n items; @align must be a power of two. Sets every offset and
 * *@total (the arena size: the largest offset + aligned size). Return 0,
 * -EINVAL (bad alignment, first > last, size overflow) or -ENOMEM.
 */
int arena_plan(struct arena_item *items, size_t n, size_t align, size_t *total);

/*
 * The lower bound of any plan: the largest sum of the (unaligned) sizes of
 * the items live at one step.
 */
size_t arena_lower_bound(const struct arena_item *items, size_t n);

#endif
