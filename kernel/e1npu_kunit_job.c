// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite of the job helpers (e1npu_job_helpers.h, used by
 * e1npu_submit.c): SUBMIT header bounds, handle and buffer de-duplication,
 * the buffer locking order, the order between the jobs of one SUBMIT
 * sharing a buffer, and which job owns a ring slot across the wrap.
 * Expected values are written out from the UAPI (struct drm_e1npu_job
 * is 72 bytes, struct drm_e1npu_reloc 24, struct drm_e1npu_sync 16) and
 * the ring contract.
 */
#include <kunit/test.h>
#include <linux/sort.h>

#include "e1npu_job_helpers.h"

static void kt_submit_ok(struct drm_e1npu_submit *s)
{
	memset(s, 0, sizeof(*s));
	s->job_count = 1;
	s->job_size = 72;
	s->reloc_size = 24;
	s->sync_size = 16;
}

static void e1npu_kt_submit_header(struct kunit *test)
{
	struct drm_e1npu_submit s;

	kt_submit_ok(&s);
	KUNIT_EXPECT_TRUE(test, e1npu_submit_header_ok(&s));

	/* job_count: 1..64 */
	kt_submit_ok(&s);
	s.job_count = 0;
	KUNIT_EXPECT_FALSE(test, e1npu_submit_header_ok(&s));
	s.job_count = 64;
	KUNIT_EXPECT_TRUE(test, e1npu_submit_header_ok(&s));
	s.job_count = 65;
	KUNIT_EXPECT_FALSE(test, e1npu_submit_header_ok(&s));
	s.job_count = U32_MAX;
	KUNIT_EXPECT_FALSE(test, e1npu_submit_header_ok(&s));

	/* job_size: 72..PAGE_SIZE (a newer userspace's larger job is fine) */
	kt_submit_ok(&s);
	s.job_size = 71;
	KUNIT_EXPECT_FALSE(test, e1npu_submit_header_ok(&s));
	s.job_size = 80;
	KUNIT_EXPECT_TRUE(test, e1npu_submit_header_ok(&s));
	s.job_size = PAGE_SIZE;
	KUNIT_EXPECT_TRUE(test, e1npu_submit_header_ok(&s));
	s.job_size = PAGE_SIZE + 1;
	KUNIT_EXPECT_FALSE(test, e1npu_submit_header_ok(&s));
	s.job_size = 0;
	KUNIT_EXPECT_FALSE(test, e1npu_submit_header_ok(&s));

	/* reloc_size: 24..PAGE_SIZE */
	kt_submit_ok(&s);
	s.reloc_size = 23;
	KUNIT_EXPECT_FALSE(test, e1npu_submit_header_ok(&s));
	s.reloc_size = 32;
	KUNIT_EXPECT_TRUE(test, e1npu_submit_header_ok(&s));
	s.reloc_size = PAGE_SIZE + 1;
	KUNIT_EXPECT_FALSE(test, e1npu_submit_header_ok(&s));

	/* sync_size: 16..PAGE_SIZE */
	kt_submit_ok(&s);
	s.sync_size = 15;
	KUNIT_EXPECT_FALSE(test, e1npu_submit_header_ok(&s));
	s.sync_size = PAGE_SIZE;
	KUNIT_EXPECT_TRUE(test, e1npu_submit_header_ok(&s));
	s.sync_size = U32_MAX;
	KUNIT_EXPECT_FALSE(test, e1npu_submit_header_ok(&s));
}

static void e1npu_kt_handle_find(struct kunit *test)
{
	/* handles 7 and 11 name one buffer (index 0), 9 another */
	static const struct e1npu_job_handle h[] = {
		{ .handle = 7, .index = 0 },
		{ .handle = 9, .index = 1 },
		{ .handle = 11, .index = 0 },
	};

	KUNIT_EXPECT_EQ(test, e1npu_job_handle_find(h, 3, 7), 0);
	KUNIT_EXPECT_EQ(test, e1npu_job_handle_find(h, 3, 9), 1);
	KUNIT_EXPECT_EQ(test, e1npu_job_handle_find(h, 3, 11), 0);
	KUNIT_EXPECT_EQ(test, e1npu_job_handle_find(h, 3, 8), -ENOENT);
	KUNIT_EXPECT_EQ(test, e1npu_job_handle_find(h, 3, 0), -ENOENT);
	/* only the first n entries count */
	KUNIT_EXPECT_EQ(test, e1npu_job_handle_find(h, 2, 11), -ENOENT);
	KUNIT_EXPECT_EQ(test, e1npu_job_handle_find(h, 0, 7), -ENOENT);
}

/* Stand-in objects: only their addresses are used, never dereferenced. */
static u8 kt_objs[4];
#define KT_OBJ(i)	((struct drm_gem_object *)&kt_objs[i])

static void e1npu_kt_bo_find(struct kunit *test)
{
	struct drm_gem_object *bos[] = { KT_OBJ(2), KT_OBJ(0), KT_OBJ(3) };

	KUNIT_EXPECT_EQ(test, e1npu_bo_find(bos, 3, KT_OBJ(2)), 0u);
	KUNIT_EXPECT_EQ(test, e1npu_bo_find(bos, 3, KT_OBJ(0)), 1u);
	KUNIT_EXPECT_EQ(test, e1npu_bo_find(bos, 3, KT_OBJ(3)), 2u);
	/* absent: the next free index */
	KUNIT_EXPECT_EQ(test, e1npu_bo_find(bos, 3, KT_OBJ(1)), 3u);
	KUNIT_EXPECT_EQ(test, e1npu_bo_find(bos, 2, KT_OBJ(3)), 2u);
	KUNIT_EXPECT_EQ(test, e1npu_bo_find(bos, 0, KT_OBJ(2)), 0u);
}

static void e1npu_kt_obj_order(struct kunit *test)
{
	struct drm_gem_object *lo = KT_OBJ(0), *hi = KT_OBJ(3);
	struct drm_gem_object *v[] = {
		KT_OBJ(3), KT_OBJ(1), KT_OBJ(3), KT_OBJ(0), KT_OBJ(2), KT_OBJ(1),
	};

	KUNIT_EXPECT_EQ(test, e1npu_obj_cmp(&lo, &hi), -1);
	KUNIT_EXPECT_EQ(test, e1npu_obj_cmp(&hi, &lo), 1);
	KUNIT_EXPECT_EQ(test, e1npu_obj_cmp(&lo, &lo), 0);

	/* by address, duplicates adjacent (the lock loop merges them) */
	sort(v, ARRAY_SIZE(v), sizeof(v[0]), e1npu_obj_cmp, NULL);
	KUNIT_EXPECT_PTR_EQ(test, v[0], KT_OBJ(0));
	KUNIT_EXPECT_PTR_EQ(test, v[1], KT_OBJ(1));
	KUNIT_EXPECT_PTR_EQ(test, v[2], KT_OBJ(1));
	KUNIT_EXPECT_PTR_EQ(test, v[3], KT_OBJ(2));
	KUNIT_EXPECT_PTR_EQ(test, v[4], KT_OBJ(3));
	KUNIT_EXPECT_PTR_EQ(test, v[5], KT_OBJ(3));
}

static void e1npu_kt_ring_dist(struct kunit *test)
{
	/* a 16-slot ring */
	KUNIT_EXPECT_EQ(test, e1npu_ring_dist(3, 3, 15), 0u);
	KUNIT_EXPECT_EQ(test, e1npu_ring_dist(3, 10, 15), 7u);
	/* across the wrap: 14, 15, 0, 1 */
	KUNIT_EXPECT_EQ(test, e1npu_ring_dist(14, 2, 15), 4u);
	KUNIT_EXPECT_EQ(test, e1npu_ring_dist(1, 0, 15), 15u);
	/* a 256-slot ring */
	KUNIT_EXPECT_EQ(test, e1npu_ring_dist(250, 4, 255), 10u);
}

static void e1npu_kt_ring_holds(struct kunit *test)
{
	u32 pos = 99;

	/* 4 descriptors from slot 14 of 16: slots 14, 15, 0, 1 */
	KUNIT_EXPECT_TRUE(test, e1npu_ring_holds(14, 4, 14, 15, &pos));
	KUNIT_EXPECT_EQ(test, pos, 0u);
	KUNIT_EXPECT_TRUE(test, e1npu_ring_holds(14, 4, 15, 15, &pos));
	KUNIT_EXPECT_EQ(test, pos, 1u);
	KUNIT_EXPECT_TRUE(test, e1npu_ring_holds(14, 4, 0, 15, &pos));
	KUNIT_EXPECT_EQ(test, pos, 2u);
	KUNIT_EXPECT_TRUE(test, e1npu_ring_holds(14, 4, 1, 15, &pos));
	KUNIT_EXPECT_EQ(test, pos, 3u);
	KUNIT_EXPECT_FALSE(test, e1npu_ring_holds(14, 4, 2, 15, &pos));
	KUNIT_EXPECT_FALSE(test, e1npu_ring_holds(14, 4, 13, 15, &pos));
	KUNIT_EXPECT_FALSE(test, e1npu_ring_holds(14, 4, 7, 15, &pos));

	/* a job filling the ring holds every slot */
	KUNIT_EXPECT_TRUE(test, e1npu_ring_holds(5, 16, 4, 15, &pos));
	KUNIT_EXPECT_EQ(test, pos, 15u);
	/* no descriptors, no slot */
	KUNIT_EXPECT_FALSE(test, e1npu_ring_holds(5, 0, 5, 15, &pos));
}

/*
 * The order between the jobs of one SUBMIT sharing a buffer, as implicit
 * sync orders SUBMITs: a write waits for every earlier use, a read for the
 * earlier writes; per engine the latest such job (W = wrapper 0,
 * D = datapath 1).
 */
static void e1npu_kt_bo_last(struct kunit *test)
{
	struct e1npu_bo_last l;
	s8 dep[2];

	e1npu_bo_last_init(&l);
	/* job 0 (W) reads: nothing before it */
	e1npu_bo_last_deps(&l, false, dep);
	KUNIT_EXPECT_EQ(test, dep[0], -1);
	KUNIT_EXPECT_EQ(test, dep[1], -1);
	e1npu_bo_last_update(&l, 0, 0, false);
	/* job 1 (D) reads after a read: no wait */
	e1npu_bo_last_deps(&l, false, dep);
	KUNIT_EXPECT_EQ(test, dep[0], -1);
	KUNIT_EXPECT_EQ(test, dep[1], -1);
	e1npu_bo_last_update(&l, 1, 1, false);
	/* job 2 (W) writes: waits for both readers */
	e1npu_bo_last_deps(&l, true, dep);
	KUNIT_EXPECT_EQ(test, dep[0], 0);
	KUNIT_EXPECT_EQ(test, dep[1], 1);
	e1npu_bo_last_update(&l, 0, 2, true);
	/* job 3 (D) reads: waits for the writer (2) only */
	e1npu_bo_last_deps(&l, false, dep);
	KUNIT_EXPECT_EQ(test, dep[0], 2);
	KUNIT_EXPECT_EQ(test, dep[1], -1);
	e1npu_bo_last_update(&l, 1, 3, false);
	/* job 4 (D) writes: the latest use per engine, 2 (W) and 3 (D) */
	e1npu_bo_last_deps(&l, true, dep);
	KUNIT_EXPECT_EQ(test, dep[0], 2);
	KUNIT_EXPECT_EQ(test, dep[1], 3);
	e1npu_bo_last_update(&l, 1, 4, true);
	/* job 5 (W) reads: the latest writer of each engine */
	e1npu_bo_last_deps(&l, false, dep);
	KUNIT_EXPECT_EQ(test, dep[0], 2);
	KUNIT_EXPECT_EQ(test, dep[1], 4);
	/* the last job index of a SUBMIT fits */
	e1npu_bo_last_update(&l, 0, E1NPU_MAX_JOBS_PER_SUBMIT - 1, true);
	e1npu_bo_last_deps(&l, true, dep);
	KUNIT_EXPECT_EQ(test, dep[0], E1NPU_MAX_JOBS_PER_SUBMIT - 1);
}

static struct kunit_case e1npu_job_cases[] = {
	KUNIT_CASE(e1npu_kt_submit_header),
	KUNIT_CASE(e1npu_kt_handle_find),
	KUNIT_CASE(e1npu_kt_bo_find),
	KUNIT_CASE(e1npu_kt_obj_order),
	KUNIT_CASE(e1npu_kt_ring_dist),
	KUNIT_CASE(e1npu_kt_ring_holds),
	KUNIT_CASE(e1npu_kt_bo_last),
	{}
};

static struct kunit_suite e1npu_job_suite = {
	.name = "e1npu_job",
	.test_cases = e1npu_job_cases,
};

kunit_test_suite(e1npu_job_suite);
