// SPDX-License-Identifier: MIT
/*
 * Tensor arena planner (arena_plan.h). Items are placed largest first; each
 * goes into the smallest gap, between the already placed items whose
 * lifetimes overlap its own, that holds it, else above the highest of
 * them. Placing the large tensors first leaves the small ones to fill the
 * holes, which is what keeps the peak near the lower bound on chains of
 * layers. O(n^2 log n), fine for the hundreds of tensors of a model.
 */
#include <errno.h>
#include <stdlib.h>

#include "arena_plan.h"

struct span {
	size_t lo, hi;		/* [lo, hi) */
};

/* Order of placement: larger first. */
static int before(const struct arena_item *it, size_t x, size_t y)
{

	if (it[x].size != it[y].size)
		return it[x].size > it[y].size;
	/* ties: earlier first, then index, so plans are deterministic */
	if (it[x].first != it[y].first)
		return it[x].first < it[y].first;
	return x < y;
}

static int by_lo(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Insertion sort (qsort has no context argument in C11). */
static void sort_order(size_t *ord, size_t n, const struct arena_item *items)
{
	for (size_t i = 1; i < n; i++) {
		size_t v = ord[i], j = i;

		while (j && before(items, v, ord[j - 1])) {
			ord[j] = ord[j - 1];
			j--;
		}
		ord[j] = v;
	}
}

int arena_plan(struct arena_item *items, size_t n, size_t align, size_t *total)
{
	size_t *ord, *asz, placed = 0, top = 0, sum = 0;
	struct span *sp;
	int ret = 0;

	if (!align || (align & (align - 1)) || (n && !items) || !total)
		return -EINVAL;
	*total = 0;
	/* every offset stays below the sum of the aligned sizes */
	for (size_t i = 0; i < n; i++) {
		if (items[i].first > items[i].last ||
		    items[i].size > SIZE_MAX / 4 - align)
			return -EINVAL;
		sum += (items[i].size + align - 1) & ~(align - 1);
		if (sum > SIZE_MAX / 4)
			return -EINVAL;
	}
	ord = calloc(n ? n : 1, sizeof(*ord));
	asz = calloc(n ? n : 1, sizeof(*asz));
	sp = calloc(n ? n : 1, sizeof(*sp));
	if (!ord || !asz || !sp) {
		ret = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		ord[i] = i;
		asz[i] = (items[i].size + align - 1) & ~(align - 1);
		items[i].offset = 0;
	}
	sort_order(ord, n, items);
	for (size_t k = 0; k < n; k++) {
		struct arena_item *it = &items[ord[k]];
		size_t ns = 0, at = SIZE_MAX, best = SIZE_MAX, lo = 0;

		if (!it->size)
			continue;
		/* the placed items live at some step of it->first..last */
		for (size_t j = 0; j < placed; j++) {
			const struct arena_item *o = &items[ord[j]];

			if (o->size && o->first <= it->last && it->first <= o->last)
				sp[ns++] = (struct span){ o->offset, o->offset + asz[ord[j]] };
		}
		qsort(sp, ns, sizeof(*sp), by_lo);
		/* smallest gap that holds it; lo walks the top of the spans so far */
		for (size_t j = 0; j < ns; j++) {
			if (sp[j].lo >= lo + asz[ord[k]] && sp[j].lo - lo < best) {
				best = sp[j].lo - lo;
				at = lo;
			}
			if (sp[j].hi > lo)
				lo = sp[j].hi;
		}
		it->offset = at != SIZE_MAX ? at : lo;
		if (it->offset + asz[ord[k]] > top)
			top = it->offset + asz[ord[k]];
		placed = k + 1;
	}
	*total = top;
out:
	free(ord);
	free(asz);
	free(sp);
	return ret;
}

size_t arena_lower_bound(const struct arena_item *items, size_t n)
{
	size_t best = 0;

	/* the sum only changes where some item starts: check those steps */
	for (size_t i = 0; i < n; i++) {
		size_t sum = 0;

		for (size_t j = 0; j < n; j++)
			if (items[j].first <= items[i].first &&
			    items[i].first <= items[j].last)
				sum += items[j].size;
		if (sum > best)
			best = sum;
	}
	return best;
}
