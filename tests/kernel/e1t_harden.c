// SPDX-License-Identifier: MIT
/*
 * e1npu-systest harden CHECK [ARGS]: the driver-hardening checks (issue 9)
 * through real ioctls, sysfs and /proc/self/fdinfo:
 *
 *   sizes    SUBMIT job_size/reloc_size/sync_size and DEV_QUERY size
 *            bounded by a page, and no smaller than the v2 structs
 *   mmap     two buffers at non-zero arena offsets map their own pages
 *   quota    per-file arena quota (file_quota) with -ENOSPC
 *   fdinfo   drm-driver, drm-client-id, engine busy ns, memory stats
 *   rpm      runtime PM: suspended when idle, active while a job exists
 *   arena B  the arena is B bytes and all of it is allocatable and
 *            reachable by the device (the wrapper, or the datapath when
 *            the device has no wrapper); "arena-not-pow2" when B is not a
 *            power of two in pages, else "arena-whole"
 *   reuse    a buffer of more than half the arena, used by a job, closed
 *            once the job is done, can be allocated again at once
 *
 * Expected values come from the test's own bookkeeping (sizes it
 * allocated, the wall time around a job, a CPU ReLU), not the driver.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "e1t.h"

#define E1T_MOD_PARAMS "/sys/module/e1npu/parameters/"

static long pagesz(void)
{
	return sysconf(_SC_PAGESIZE);
}

/* A one-NOP wrapper job (the command in @cmd) signalling @out. */
static void nop_job(struct drm_e1npu_job *j, uint32_t cmd[E1_V0_DESC_WORDS],
		    struct drm_e1npu_sync *out)
{
	memset(cmd, 0, E1_V0_DESC_SIZE);
	cmd[E1_V0_DW_OP] = E1_V0_OP_NOP;
	memset(j, 0, sizeof(*j));
	j->cmds = (uintptr_t)cmd;
	j->cmd_count = 1;
	j->engine = DRM_E1NPU_ENGINE_WRAPPER;
	j->out_syncs = (uintptr_t)out;
	j->out_sync_count = 1;
}

/* ---- sizes --------------------------------------------------------------- */

static void expect_einval(const char *name, int ret)
{
	if (ret == -EINVAL)
		e1t_pass(name);
	else
		e1t_fail(name, "got %d (%s), want -EINVAL", ret, strerror(-ret));
}

static void check_sizes(struct e1t_dev *d)
{
	long pg = pagesz();
	struct drm_e1npu_dev_query q;
	struct drm_e1npu_job *j;
	struct drm_e1npu_sync *out;
	uint32_t *cmd, sync = 0;
	uint64_t pt = 0;
	uint8_t *buf;
	size_t i;
	int ret;

	/* 3 zeroed pages: structs with zero tails up to 2 pages long */
	buf = mmap(NULL, 3 * pg, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED) {
		e1t_fail("harden-sizes", "mmap: %s", strerror(errno));
		return;
	}
	if (e1t_syncobj_create(d, &sync, false)) {
		e1t_fail("harden-sizes", "syncobj");
		munmap(buf, 3 * pg);
		return;
	}
	j = (struct drm_e1npu_job *)buf;
	/* the out sync: a page-long struct, the v2 fields first */
	out = (struct drm_e1npu_sync *)(buf + pg);
	cmd = (uint32_t *)(buf + 2 * pg);
	nop_job(j, cmd, out);
	out->handle = sync;

	/* a page is the largest struct size accepted, the tail read as 0 */
	ret = e1t_submit_jobs(d, j, 1, pg, 0, pg);
	if (!ret)
		ret = e1t_timeline_wait(d, &sync, &pt, 1, 0, E1T_JOB_TIMEOUT_MS);
	if (ret)
		e1t_fail("submit-sizes-page", "job_size and sync_size %ld: %d", pg,
			 ret);
	else
		e1t_pass("submit-sizes-page");
	expect_einval("submit-job_size-above-page",
		      e1t_submit_jobs(d, j, 1, pg + 8, 0, 0));
	expect_einval("submit-reloc_size-above-page",
		      e1t_submit_jobs(d, j, 1, 0, pg + 8, 0));
	expect_einval("submit-sync_size-above-page",
		      e1t_submit_jobs(d, j, 1, 0, 0, pg + 8));
	expect_einval("submit-job_size-4g",
		      e1t_submit_jobs(d, j, 1, 0xffffffffu, 0, 0));
	expect_einval("submit-reloc_size-4g",
		      e1t_submit_jobs(d, j, 1, 0, 0xffffffffu, 0));
	expect_einval("submit-sync_size-4g",
		      e1t_submit_jobs(d, j, 1, 0, 0, 0xffffffffu));
	/* smaller than the v2 structs */
	expect_einval("submit-job_size-small",
		      e1t_submit_jobs(d, j, 1, sizeof(*j) - 8, 0, 0));
	expect_einval("submit-reloc_size-small",
		      e1t_submit_jobs(d, j, 1, 0, sizeof(struct drm_e1npu_reloc) - 8, 0));
	expect_einval("submit-sync_size-small",
		      e1t_submit_jobs(d, j, 1, 0, 0, sizeof(struct drm_e1npu_sync) - 8));

	/* DEV_QUERY: a size above a page is refused, nothing written */
	memset(buf, 0xaa, 3 * pg);
	memset(&q, 0, sizeof(q));
	q.type = DRM_E1NPU_DEV_QUERY_INFO;
	q.size = 2 * pg;
	q.pointer = (uintptr_t)buf;
	ret = e1t_ioctl(d->fd, DRM_IOCTL_E1NPU_DEV_QUERY, &q);
	for (i = 0; i < (size_t)(3 * pg) && buf[i] == 0xaa; i++)
		;
	if (ret != -EINVAL)
		e1t_fail("dev_query-size-above-page", "size %ld: %d, want -EINVAL",
			 2 * pg, ret);
	else if (i != (size_t)(3 * pg))
		e1t_fail("dev_query-size-above-page", "byte %zu written", i);
	else
		e1t_pass("dev_query-size-above-page");
	q.size = 0xffffffffu;
	expect_einval("dev_query-size-4g",
		      e1t_ioctl(d->fd, DRM_IOCTL_E1NPU_DEV_QUERY, &q));
	/* a page: the info, then zeros up to the page */
	q.size = pg;
	ret = e1t_ioctl(d->fd, DRM_IOCTL_E1NPU_DEV_QUERY, &q);
	for (i = sizeof(d->info); i < (size_t)pg && !buf[i]; i++)
		;
	if (ret || q.size != sizeof(d->info))
		e1t_fail("dev_query-size-page", "ret %d size %u", ret, q.size);
	else if (memcmp(buf, &d->info, sizeof(d->info)) || i != (size_t)pg)
		e1t_fail("dev_query-size-page", "info differs or tail byte %zu not zero",
			 i);
	else
		e1t_pass("dev_query-size-page");
	e1t_syncobj_destroy(d, sync);
	munmap(buf, 3 * pg);
}

/* ---- mmap ---------------------------------------------------------------- */

static int map_again(struct e1t_dev *d, const struct e1t_bo *bo, uint8_t **p)
{
	struct drm_e1npu_bo_mmap_offset mo;
	int ret;

	memset(&mo, 0, sizeof(mo));
	mo.handle = bo->handle;
	ret = e1t_ioctl(d->fd, DRM_IOCTL_E1NPU_BO_MMAP_OFFSET, &mo);
	if (ret)
		return ret;
	*p = mmap(NULL, bo->size, PROT_READ | PROT_WRITE, MAP_SHARED, d->fd,
		  (off_t)mo.offset);
	return *p == MAP_FAILED ? -errno : 0;
}

static bool all_zero(const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

static void check_mmap(struct e1t_dev *d)
{
	const char *name = "mmap-own-pages";
	long pg = pagesz();
	struct e1t_bo a = { 0 }, b = { 0 }, c = { 0 };
	struct e1t_result r;
	struct e1npu_hw_op op;
	uint8_t *b2 = MAP_FAILED, *want = NULL;
	uint32_t seed = 9, m = 4, n = 64;
	int ret;

	/* a first: b and c lie at non-zero arena offsets */
	ret = e1t_bo_new(d, pg, &a);
	if (!ret)
		ret = e1t_bo_new(d, 2 * pg, &b);
	if (!ret)
		ret = e1t_bo_new(d, pg, &c);
	if (!ret)
		ret = map_again(d, &b, &b2);
	if (ret) {
		e1t_fail(name, "buffers: %s", strerror(-ret));
		goto out;
	}
	/* a pattern in b's second page, written through its first mapping */
	e1t_fill_s8(b.map + pg, m * n, &seed);
	if (!all_zero(a.map, a.size) || !all_zero(c.map, c.size) ||
	    !all_zero(b.map, pg)) {
		e1t_fail(name, "a write to b's mapping shows in another buffer");
		goto out;
	}
	if (memcmp(b2, b.map, b.size)) {
		e1t_fail(name, "two mappings of b differ");
		goto out;
	}
	/* the device reads b at its offset and writes c: c's mapping sees it */
	want = calloc(1, m * n);
	if (!want)
		goto out;
	e1t_ref_relu((int8_t *)b.map + pg, n, (int8_t *)want, n, m, n);
	memset(&op, 0, sizeof(op));
	op.opcode = E1NPU_HWOP_RELU_S8;
	op.m = m;
	op.n = n;
	op.a = e1t_t(&b, pg, n);
	op.c = e1t_t(&c, 0, n);
	ret = e1t_run(d, DRM_E1NPU_ENGINE_WRAPPER, &op, 1, &r);
	if (ret) {
		e1t_fail(name, "relu b->c: ret %d state %u error %d", ret,
			 r.state, r.error);
		goto out;
	}
	if (!e1t_expect_bytes(name, c.map, want, m * n))
		goto out;
	if (!all_zero(a.map, a.size) || !all_zero(c.map + m * n, pg - m * n)) {
		e1t_fail(name, "bytes outside c's output changed");
		goto out;
	}
	e1t_pass(name);

	/* a mapping longer than the buffer would reach its neighbour */
	{
		struct drm_e1npu_bo_mmap_offset mo = { .handle = a.handle };
		void *p = MAP_FAILED;

		ret = e1t_ioctl(d->fd, DRM_IOCTL_E1NPU_BO_MMAP_OFFSET, &mo);
		if (!ret)
			p = mmap(NULL, 2 * pg, PROT_READ, MAP_SHARED, d->fd,
				 (off_t)mo.offset);
		if (ret || p != MAP_FAILED) {
			e1t_fail("mmap-past-buffer", "2 pages of a 1-page buffer mapped");
			if (p != MAP_FAILED)
				munmap(p, 2 * pg);
		} else {
			e1t_pass("mmap-past-buffer");
		}
	}
out:
	free(want);
	if (b2 != MAP_FAILED)
		munmap(b2, b.size);
	e1t_bo_free(d, &c);
	e1t_bo_free(d, &b);
	e1t_bo_free(d, &a);
}

/* ---- quota --------------------------------------------------------------- */

static void check_quota(void)
{
	const char *name = "file-quota";
	long pg = pagesz();
	struct e1t_bo x[3] = { 0 }, y = { 0 }, z = { 0 };
	struct e1t_dev d1 = { .fd = -1 }, d2 = { .fd = -1 };
	char old[32], q[32];
	int ret;

	if (e1t_read_file(E1T_MOD_PARAMS "file_quota", old, sizeof(old))) {
		e1t_fail(name, "no file_quota parameter");
		return;
	}
	snprintf(q, sizeof(q), "%ld", 4 * pg);
	if (e1t_write_file(E1T_MOD_PARAMS "file_quota", q)) {
		e1t_fail(name, "cannot set file_quota");
		return;
	}
	if (e1t_open(&d1) || e1t_open(&d2)) {
		e1t_fail(name, "open");
		goto out;
	}
	ret = e1t_bo_new(&d1, 2 * pg, &x[0]);
	if (!ret)
		ret = e1t_bo_new(&d1, 2 * pg - 100, &x[1]);
	if (ret) {
		e1t_fail(name, "4 pages under a 4-page quota: %d", ret);
		goto out;
	}
	/* one byte more is a page more: over the quota */
	ret = e1t_bo_new(&d1, 1, &x[2]);
	if (ret != -ENOSPC) {
		e1t_fail(name, "past the quota: %d, want -ENOSPC", ret);
		goto out;
	}
	/* another file has a quota of its own */
	ret = e1t_bo_new(&d2, 4 * pg, &y);
	if (ret) {
		e1t_fail(name, "second file, 4 pages: %d", ret);
		goto out;
	}
	e1t_pass(name);

	/* freeing gives the quota back */
	e1t_bo_free(&d1, &x[0]);
	ret = e1t_bo_new(&d1, 2 * pg, &x[0]);
	if (ret)
		e1t_fail("file-quota-freed", "2 pages after freeing 2: %d", ret);
	else
		e1t_pass("file-quota-freed");
	/* closing gives everything back */
	e1t_bo_free(&d1, &x[0]);
	e1t_bo_free(&d1, &x[1]);
	e1t_close(&d1);
	if (e1t_open(&d1) || e1t_bo_new(&d1, 4 * pg, &z))
		e1t_fail("file-quota-closed", "4 pages in a new file");
	else
		e1t_pass("file-quota-closed");
out:
	e1t_bo_free(&d1, &z);
	e1t_bo_free(&d1, &x[0]);
	e1t_bo_free(&d1, &x[1]);
	e1t_bo_free(&d2, &y);
	e1t_close(&d1);
	e1t_close(&d2);
	e1t_write_file(E1T_MOD_PARAMS "file_quota", old);
}

/* ---- fdinfo -------------------------------------------------------------- */

/* Value of "KEY:\tVALUE" in /proc/self/fdinfo/FD into @val; 0 or -errno. */
static int fdinfo_get(int fd, const char *key, char *val, size_t len)
{
	char path[64], buf[4096], *line, *save = NULL;
	size_t kl = strlen(key);
	int ret;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	ret = e1t_read_file(path, buf, sizeof(buf));
	if (ret)
		return ret;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, key, kl) && line[kl] == ':') {
			line += kl + 1;
			while (*line == ' ' || *line == '\t')
				line++;
			snprintf(val, len, "%s", line);
			return 0;
		}
	}
	return -ENOENT;
}

/* "N ns" of an engine key, or -1 */
static int64_t fdinfo_ns(int fd, const char *key)
{
	char v[64], *end;
	long long n;

	if (fdinfo_get(fd, key, v, sizeof(v)))
		return -1;
	n = strtoll(v, &end, 10);
	return strcmp(end, " ns") ? -1 : n;
}

/* "N", "N KiB" or "N MiB" in bytes, or -1 */
static int64_t fdinfo_bytes(int fd, const char *key)
{
	char v[64], *end;
	long long n;

	if (fdinfo_get(fd, key, v, sizeof(v)))
		return -1;
	n = strtoll(v, &end, 10);
	if (!*end)
		return n;
	if (!strcmp(end, " KiB"))
		return n << 10;
	if (!strcmp(end, " MiB"))
		return n << 20;
	return -1;
}

/* Run @op on @engine; check that only that engine's busy time grew, by at
 * most the wall time around the job. */
static void check_busy(struct e1t_dev *d, uint32_t engine,
		       const struct e1npu_hw_op *op, const char *name)
{
	const char *keys[2] = { "drm-engine-wrapper", "drm-engine-datapath" };
	struct e1t_result r;
	int64_t before[2], after[2];
	uint64_t t0, t1;
	int e, ret;

	for (e = 0; e < 2; e++)
		before[e] = fdinfo_ns(d->fd, keys[e]);
	t0 = e1t_now_ns();
	ret = e1t_run(d, engine, op, 1, &r);
	t1 = e1t_now_ns();
	for (e = 0; e < 2; e++)
		after[e] = fdinfo_ns(d->fd, keys[e]);
	if (ret) {
		e1t_fail(name, "job: ret %d state %u error %d", ret, r.state,
			 r.error);
		return;
	}
	if (before[engine] < 0 || after[engine] < 0) {
		e1t_fail(name, "no %s key", keys[engine]);
		return;
	}
	e1t_log("%s: %s %" PRId64 " -> %" PRId64 " ns, wall %" PRIu64 " ns",
		name, keys[engine], before[engine], after[engine], t1 - t0);
	if (after[engine] <= before[engine] ||
	    (uint64_t)(after[engine] - before[engine]) > t1 - t0)
		e1t_fail(name, "%s grew by %" PRId64 " ns in a %" PRIu64 " ns job",
			 keys[engine], after[engine] - before[engine], t1 - t0);
	else if (after[!engine] != before[!engine])
		e1t_fail(name, "%s changed too", keys[!engine]);
	else
		e1t_pass(name);
}

static void check_fdinfo(struct e1t_dev *d)
{
	long pg = pagesz();
	struct e1t_dev d2 = { .fd = -1 };
	struct e1t_bo a = { 0 }, b = { 0 };
	struct e1npu_hw_op op;
	char v1[64], v2[64];
	int64_t total, res;
	int ret;

	ret = fdinfo_get(d->fd, "drm-driver", v1, sizeof(v1));
	if (ret || strcmp(v1, "e1npu"))
		e1t_fail("fdinfo-driver", "drm-driver: %s", ret ? "absent" : v1);
	else
		e1t_pass("fdinfo-driver");
	if (e1t_open(&d2) || fdinfo_get(d->fd, "drm-client-id", v1, sizeof(v1)) ||
	    fdinfo_get(d2.fd, "drm-client-id", v2, sizeof(v2)) || !strcmp(v1, v2))
		e1t_fail("fdinfo-client-id", "absent or equal for two files");
	else
		e1t_pass("fdinfo-client-id");
	e1t_close(&d2);

	/* memory: exactly the buffers of this file, page-rounded */
	if (fdinfo_bytes(d->fd, "drm-total-memory") != 0) {
		e1t_fail("fdinfo-memory", "drm-total-memory %" PRId64 " before any buffer",
			 fdinfo_bytes(d->fd, "drm-total-memory"));
		return;
	}
	if (e1t_bo_new(d, pg, &a) || e1t_bo_new(d, 3 * pg - 5, &b)) {
		e1t_fail("fdinfo-memory", "buffers");
		goto out;
	}
	total = fdinfo_bytes(d->fd, "drm-total-memory");
	res = fdinfo_bytes(d->fd, "drm-resident-memory");
	if (total != 4 * pg || res != 4 * pg)
		e1t_fail("fdinfo-memory", "total %" PRId64 " resident %" PRId64 ", want %ld",
			 total, res, 4 * pg);
	else
		e1t_pass("fdinfo-memory");

	if (d->info.engines & (1u << DRM_E1NPU_ENGINE_WRAPPER)) {
		uint32_t seed = 5;

		e1t_fill_s8(a.map, 64 * 32, &seed);
		memset(&op, 0, sizeof(op));
		op.opcode = E1NPU_HWOP_RELU_S8;
		op.m = 32;
		op.n = 64;
		op.a = e1t_t(&a, 0, 64);
		op.c = e1t_t(&b, 0, 64);
		check_busy(d, DRM_E1NPU_ENGINE_WRAPPER, &op, "fdinfo-busy-wrapper");
	}
	if (d->info.engines & (1u << DRM_E1NPU_ENGINE_DATAPATH)) {
		memset(&op, 0, sizeof(op));
		op.opcode = E1NPU_HWOP_DP_VRELU_S8;
		op.n = 64;
		op.a = e1t_t(&a, 0, 0);
		op.c = e1t_t(&b, 0, 0);
		check_busy(d, DRM_E1NPU_ENGINE_DATAPATH, &op, "fdinfo-busy-datapath");
	}

	/* the helper's status buffer of the jobs above goes too */
	e1t_jobs_release(d);
	e1t_bo_free(d, &b);
	total = fdinfo_bytes(d->fd, "drm-total-memory");
	if (total != pg)
		e1t_fail("fdinfo-memory-freed", "total %" PRId64 ", want %ld",
			 total, pg);
	else
		e1t_pass("fdinfo-memory-freed");
out:
	e1t_bo_free(d, &b);
	e1t_bo_free(d, &a);
}

/* ---- runtime PM ---------------------------------------------------------- */

/* power/runtime_status of the platform device behind the accel node */
static char rpm_status[160];

/* Poll runtime_status until it reads @want (5 s); the last value read. */
static bool rpm_wait(const char *want, char *got, size_t len)
{
	int i;

	for (i = 0; i < 100; i++) {
		if (e1t_read_file(rpm_status, got, len))
			snprintf(got, len, "(unreadable)");
		if (!strcmp(got, want))
			return true;
		e1t_sleep_ms(50);
	}
	return false;
}

static void check_rpm(struct e1t_dev *d)
{
	struct e1t_result r;
	struct e1t_job job;
	struct e1npu_hw_op op;
	char st[32], sys[128];
	int ret;

	ret = e1t_dev_sysfs(e1t_dev_path(), sys, sizeof(sys));
	if (ret) {
		e1t_fail("rpm-idle-suspended", "no sysfs device for %s: %d",
			 e1t_dev_path(), ret);
		return;
	}
	snprintf(rpm_status, sizeof(rpm_status), "%s/power/runtime_status", sys);
	/* a kernel without CONFIG_PM has no power/ directory on devices */
	if (access(rpm_status, F_OK)) {
		e1t_skip("rpm-idle-suspended", "no %s: kernel without CONFIG_PM",
			 rpm_status);
		return;
	}
	if (!rpm_wait("suspended", st, sizeof(st))) {
		e1t_fail("rpm-idle-suspended", "runtime_status %s when idle", st);
		return;
	}
	e1t_pass("rpm-idle-suspended");
	/* a job the hung engine never finishes holds the device resumed */
	ret = e1t_dev_set("inject-hang", "1");
	if (ret) {
		e1t_fail("rpm-job-active", "set inject-hang: %d", ret);
		return;
	}
	memset(&op, 0, sizeof(op));
	op.opcode = E1NPU_HWOP_NOP;
	ret = e1t_submit(d, DRM_E1NPU_ENGINE_WRAPPER, &op, 1, &job);
	if (ret) {
		e1t_fail("rpm-job-active", "submit: %d", ret);
		e1t_dev_set("inject-hang", "0");
		return;
	}
	/* past the autosuspend delay, before the job times out */
	e1t_sleep_ms(300);
	if (e1t_read_file(rpm_status, st, sizeof(st)) || strcmp(st, "active"))
		e1t_fail("rpm-job-active", "runtime_status %s with a job running", st);
	else
		e1t_pass("rpm-job-active");
	/* the timeout ends the job; the device suspends after it */
	ret = e1t_job_wait(d, &job, E1T_JOB_TIMEOUT_MS, &r);
	e1t_dev_set("inject-hang", "0");
	if (ret || r.state != DRM_E1NPU_JOB_STATE_FAILED ||
	    r.error != -ETIMEDOUT) {
		e1t_fail("rpm-done-suspended", "hung job: wait %d state %u error %d, want FAILED/-ETIMEDOUT",
			 ret, r.state, r.error);
		return;
	}
	if (!rpm_wait("suspended", st, sizeof(st)))
		e1t_fail("rpm-done-suspended", "runtime_status %s after the job", st);
	else
		e1t_pass("rpm-done-suspended");
}

/* ---- arena --------------------------------------------------------------- */

static void check_arena(struct e1t_dev *d, uint64_t want)
{
	long pg = pagesz();
	uint64_t pages = want / pg;
	/* the case issue 9 is about, or the same check on an ordinary arena */
	const char *name = pages & (pages - 1) ? "arena-not-pow2" : "arena-whole";
	struct e1t_bo x[3] = { 0 }, extra = { 0 };
	struct e1t_result r;
	struct e1npu_hw_op op;
	uint64_t size[3], last, stsz;
	uint8_t ref[64];
	uint32_t seed = 77, engine;
	int i, ret = 0;

	if (d->info.arena_size != want) {
		e1t_fail(name, "DEV_QUERY arena_size %llu, want %llu",
			 (unsigned long long)d->info.arena_size,
			 (unsigned long long)want);
		return;
	}
	if (want % pg || want < 4ull * pg) {
		e1t_fail(name, "arena %llu is not 4 pages or more",
			 (unsigned long long)want);
		return;
	}
	/* all of it: the helper's status buffer for the job below, three
	 * buffers, and not a page more */
	ret = e1t_jobs_init(d);
	if (ret) {
		e1t_fail(name, "status buffer: %d", ret);
		return;
	}
	stsz = e1t_align(E1T_STATUS_BO_SIZE, pg);
	size[0] = size[1] = (want - stsz) / 3 / pg * pg;
	size[2] = want - stsz - 2 * size[0];
	for (i = 0; i < 3 && !ret; i++)
		ret = e1t_bo_new(d, size[i], &x[i]);
	if (ret) {
		e1t_fail(name, "buffer %d of %llu bytes: %d", i - 1,
			 (unsigned long long)size[i - 1], ret);
		goto out;
	}
	ret = e1t_bo_new(d, pg, &extra);
	if (ret != -ENOMEM) {
		e1t_fail(name, "a page past the arena: %d, want -ENOMEM", ret);
		goto out;
	}
	/* the device reaches the arena's last bytes (the wrapper, or the
	 * datapath on a device without one) */
	last = size[2] - 64;
	e1t_fill_s8(x[2].map + last, 64, &seed);
	e1t_ref_relu((int8_t *)x[2].map + last, 64, (int8_t *)ref, 64, 1, 64);
	memset(&op, 0, sizeof(op));
	if (d->info.engines & (1u << DRM_E1NPU_ENGINE_WRAPPER)) {
		engine = DRM_E1NPU_ENGINE_WRAPPER;
		op.opcode = E1NPU_HWOP_RELU_S8;
		op.m = 1;
		op.n = 64;
		op.a = e1t_t(&x[2], last, 64);
		op.c = e1t_t(&x[0], 0, 64);
	} else {
		engine = DRM_E1NPU_ENGINE_DATAPATH;
		op.opcode = E1NPU_HWOP_DP_VRELU_S8;
		op.n = 64;
		op.a = e1t_t(&x[2], last, 0);
		op.c = e1t_t(&x[0], 0, 0);
	}
	ret = e1t_run(d, engine, &op, 1, &r);
	if (ret)
		e1t_fail(name, "relu from the arena's end on engine %u: ret %d error %d",
			 engine, ret, r.error);
	else if (e1t_expect_bytes(name, x[0].map, ref, 64))
		e1t_pass(name);
out:
	e1t_bo_free(d, &extra);
	for (i = 0; i < 3; i++)
		e1t_bo_free(d, &x[i]);
}

/* ---- reuse --------------------------------------------------------------- */

/*
 * A job holds its buffers until the scheduler frees it, which trails the
 * job's completion: BO_CREATE must wait for finished jobs to give their
 * buffers back rather than report a full arena to a client that saw its
 * job finish and closed the buffer.
 */
static void check_reuse(struct e1t_dev *d)
{
	const char *name = "arena-reuse-after-job";
	uint64_t size = (d->info.arena_size / 2 + pagesz()) & ~(uint64_t)(pagesz() - 1);
	struct e1t_result r;
	struct e1npu_hw_op op;
	struct e1t_bo b = { 0 };
	int i, ret;

	if (!(d->info.engines & (1u << DRM_E1NPU_ENGINE_WRAPPER))) {
		e1t_skip(name, "no wrapper engine");
		return;
	}
	for (i = 0; i < 64; i++) {
		ret = e1t_bo_new(d, size, &b);
		if (ret) {
			e1t_fail(name, "round %d: BO_CREATE of %" PRIu64 " bytes (arena %" PRIu64 "): %d",
				 i, size, (uint64_t)d->info.arena_size, ret);
			return;
		}
		memset(&op, 0, sizeof(op));
		op.opcode = E1NPU_HWOP_RELU_S8;
		op.m = 1;
		op.n = 64;
		op.a = e1t_t(&b, 0, 64);
		op.c = e1t_t(&b, 64, 64);
		ret = e1t_run(d, DRM_E1NPU_ENGINE_WRAPPER, &op, 1, &r);
		e1t_bo_free(d, &b);
		if (ret) {
			e1t_fail(name, "round %d: relu: ret %d state %u error %d",
				 i, ret, r.state, r.error);
			return;
		}
	}
	e1t_pass(name);
}

int e1t_group_harden(int argc, char **argv)
{
	struct e1t_dev d;
	int ret;

	if (argc < 1)
		return 2;
	if (!strcmp(argv[0], "quota")) {
		check_quota();
		return e1t_failures ? 1 : 0;
	}
	ret = e1t_open(&d);
	if (ret) {
		e1t_fail("harden-open", "open/DEV_QUERY: %d", ret);
		return 1;
	}
	if (!strcmp(argv[0], "sizes"))
		check_sizes(&d);
	else if (!strcmp(argv[0], "mmap"))
		check_mmap(&d);
	else if (!strcmp(argv[0], "fdinfo"))
		check_fdinfo(&d);
	else if (!strcmp(argv[0], "rpm"))
		check_rpm(&d);
	else if (!strcmp(argv[0], "reuse"))
		check_reuse(&d);
	else if (!strcmp(argv[0], "arena") && argc > 1)
		check_arena(&d, strtoull(argv[1], NULL, 0));
	else
		ret = 2;
	e1t_close(&d);
	if (ret)
		return ret;
	return e1t_failures ? 1 : 0;
}
