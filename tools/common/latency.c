// SPDX-License-Identifier: MIT
/* The tools' per-run latency statistics (latency.h). */
#include <stdlib.h>

#include "latency.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

void latency_of(uint64_t *ns, unsigned int n, struct latency *l)
{
	uint64_t *r = ns + 1;
	unsigned int m = n ? n - 1 : 0;
	double sum = 0;

	*l = (struct latency){ 0 };
	if (!n)
		return;
	l->first_ms = ns[0] / 1e6;
	l->runs = m;
	for (unsigned int i = 0; i < n; i++)
		sum += (double)ns[i];
	l->mean_ms = sum / n / 1e6;
	if (!m)
		return;
	qsort(r, m, sizeof(*r), cmp_u64);
	l->min_ms = r[0] / 1e6;
	l->max_ms = r[m - 1] / 1e6;
	l->median_ms = (m & 1 ? (double)r[m / 2] : ((double)r[m / 2 - 1] + (double)r[m / 2]) / 2) / 1e6;
}
