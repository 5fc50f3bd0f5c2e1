// SPDX-License-Identifier: MIT
/*
 * e1npu system tests: DEV_QUERY, buffer objects, and operations whose
 * outputs must equal the CPU reference, byte for byte, with every byte of
 * the output buffer outside the tensor left untouched.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "e1t.h"
#include "e1npu_hw.h"

#define SENTINEL 0xA5

/* ---- basic: DEV_QUERY and BO lifecycle ---------------------------------- */

static void t_dev_query(void)
{
	struct drm_e1npu_dev_query q;
	struct drm_e1npu_dev_info info;
	struct drm_version ver;
	struct e1t_dev d;
	const char *n = "dev-query";
	int ret;

	ret = e1t_open(&d);
	if (ret) {
		e1t_fail(n, "open/DEV_QUERY of %s: %s", e1t_dev_path(), strerror(-ret));
		return;
	}
	/* size probe */
	memset(&q, 0, sizeof(q));
	q.type = DRM_E1NPU_DEV_QUERY_INFO;
	ret = e1t_ioctl(d.fd, DRM_IOCTL_E1NPU_DEV_QUERY, &q);
	if (ret || q.size < sizeof(info)) {
		e1t_fail(n, "size probe: ret %d size %u (want >= %zu)", ret, q.size,
			 sizeof(info));
		goto out;
	}
	/* a short buffer gets a prefix */
	memset(&info, 0xff, sizeof(info));
	memset(&q, 0, sizeof(q));
	q.type = DRM_E1NPU_DEV_QUERY_INFO;
	q.size = 8;
	q.pointer = (uintptr_t)&info;
	ret = e1t_ioctl(d.fd, DRM_IOCTL_E1NPU_DEV_QUERY, &q);
	if (ret || q.size != 8 || info.engines != d.info.engines ||
	    info.wrapper_id != d.info.wrapper_id || info.wrapper_caps != 0xffffffffu) {
		e1t_fail(n, "short query: ret %d size %u", ret, q.size);
		goto out;
	}
	/* an unknown query type */
	memset(&q, 0, sizeof(q));
	q.type = 0x7fff;
	q.size = sizeof(info);
	q.pointer = (uintptr_t)&info;
	ret = e1t_ioctl(d.fd, DRM_IOCTL_E1NPU_DEV_QUERY, &q);
	if (ret != -EINVAL) {
		e1t_fail(n, "unknown query type: ret %d, want -EINVAL", ret);
		goto out;
	}
	info = d.info;
	memset(&ver, 0, sizeof(ver));
	ret = e1t_ioctl(d.fd, DRM_IOCTL_VERSION, &ver);
	e1t_log("dev-query: engines 0x%x wrapper id 0x%08x caps 0x%08x datapath id 0x%08x ring %u slots %u arena %llu cmds/job %u align %u driver %d.%d",
		info.engines, info.wrapper_id, info.wrapper_caps,
		info.datapath_id, info.ring_len, info.datapath_slots,
		(unsigned long long)info.arena_size, info.max_cmds_per_job,
		info.align, ver.version_major, ver.version_minor);
	/* the UAPI's first posting: 1.0, from DRM_IOCTL_VERSION only */
	if (ret || ver.version_major != 1 || ver.version_minor != 0) {
		e1t_fail(n, "DRM_IOCTL_VERSION: ret %d, version %d.%d, want 1.0",
			 ret, ver.version_major, ver.version_minor);
		goto out;
	}
	if (!(info.engines & (1u << DRM_E1NPU_ENGINE_WRAPPER)) ||
	    info.wrapper_id != E1_V0_ID_VALUE) {
		e1t_fail(n, "wrapper missing or wrong ID 0x%08x", info.wrapper_id);
		goto out;
	}
	if ((info.engines & (1u << DRM_E1NPU_ENGINE_DATAPATH)) &&
	    info.datapath_id != E1_DP_ID_VALUE) {
		e1t_fail(n, "datapath ID 0x%08x", info.datapath_id);
		goto out;
	}
	if (info.ring_len < 2 || info.ring_len > 256 ||
	    (info.ring_len & (info.ring_len - 1)) || !info.max_cmds_per_job ||
	    info.align != E1_V0_ALIGN || info.max_matmul_mn != E1_V0_MAX_MATMUL_MN ||
	    info.max_matmul_k != E1_V0_MAX_MATMUL_K ||
	    info.max_conv_hw != E1_V0_MAX_CONV_HW ||
	    info.max_conv_c != E1_V0_MAX_CONV_C || !info.arena_size ||
	    info.conv_kernels != ((1u << 1) | (1u << 3) | (1u << 5)) ||
	    info.pool_windows != ((1u << 2) | (1u << 3))) {
		e1t_fail(n, "implausible limits");
		goto out;
	}
	e1t_pass(n);
out:
	e1t_close(&d);
}

static void t_bo(void)
{
	struct drm_e1npu_bo_create c;
	struct drm_e1npu_bo_mmap_offset mo;
	struct drm_gem_close gc;
	struct e1t_bo bo, bo2;
	struct e1t_dev d;
	const char *n = "bo-lifecycle";
	uint8_t *p;
	size_t i;
	int ret;

	ret = e1t_open(&d);
	if (ret) {
		e1t_fail(n, "open: %s", strerror(-ret));
		return;
	}
	ret = e1t_bo_new(&d, 10000, &bo);
	if (ret) {
		e1t_fail(n, "create+mmap 10000 bytes: %s", strerror(-ret));
		goto out;
	}
	/* buffers start zeroed */
	for (i = 0; i < bo.size; i++)
		if (bo.map[i]) {
			e1t_fail(n, "new buffer not zeroed at %zu", i);
			goto out_bo;
		}
	memset(bo.map, 0x5a, bo.size);
	/* a second mapping of the same object sees the same bytes */
	memset(&mo, 0, sizeof(mo));
	mo.handle = bo.handle;
	ret = e1t_ioctl(d.fd, DRM_IOCTL_E1NPU_BO_MMAP_OFFSET, &mo);
	if (ret) {
		e1t_fail(n, "MMAP_OFFSET: %s", strerror(-ret));
		goto out_bo;
	}
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, d.fd, (off_t)mo.offset);
	if (p == MAP_FAILED || p[4095] != 0x5a) {
		e1t_fail(n, "second mapping");
		goto out_bo;
	}
	munmap(p, 4096);
	/* an idle buffer waits for nothing */
	ret = e1t_bo_wait(&d, bo.handle, 1000000000);
	if (ret) {
		e1t_fail(n, "BO_WAIT idle: %s", strerror(-ret));
		goto out_bo;
	}
	/* bad arguments */
	memset(&c, 0, sizeof(c));
	ret = e1t_ioctl(d.fd, DRM_IOCTL_E1NPU_BO_CREATE, &c);
	if (ret != -EINVAL) {
		e1t_fail(n, "BO_CREATE size 0: %d, want -EINVAL", ret);
		goto out_bo;
	}
	c.size = 4096;
	c.flags = DRM_E1NPU_BO_HOST << 1;
	ret = e1t_ioctl(d.fd, DRM_IOCTL_E1NPU_BO_CREATE, &c);
	if (ret != -EINVAL) {
		e1t_fail(n, "BO_CREATE flags 0x%x: %d, want -EINVAL", c.flags,
			 ret);
		goto out_bo;
	}
	c.flags = 0;
	c.size = d.info.arena_size + 4096;
	ret = e1t_ioctl(d.fd, DRM_IOCTL_E1NPU_BO_CREATE, &c);
	if (!ret || (ret != -ENOMEM && ret != -EINVAL && ret != -ENOSPC)) {
		e1t_fail(n, "BO_CREATE bigger than the arena: %d", ret);
		goto out_bo;
	}
	mo.handle = 0x7fffffff;
	ret = e1t_ioctl(d.fd, DRM_IOCTL_E1NPU_BO_MMAP_OFFSET, &mo);
	if (ret != -ENOENT) {
		e1t_fail(n, "MMAP_OFFSET bad handle: %d, want -ENOENT", ret);
		goto out_bo;
	}
	/* close: the handle is gone, a second close fails */
	ret = e1t_bo_new(&d, 4096, &bo2);
	if (ret) {
		e1t_fail(n, "second buffer: %s", strerror(-ret));
		goto out_bo;
	}
	mo.handle = bo2.handle;
	ret = e1t_bo_free(&d, &bo2);
	if (ret) {
		e1t_fail(n, "GEM_CLOSE: %s", strerror(-ret));
		goto out_bo;
	}
	ret = e1t_ioctl(d.fd, DRM_IOCTL_E1NPU_BO_MMAP_OFFSET, &mo);
	if (ret != -ENOENT) {
		e1t_fail(n, "MMAP_OFFSET after close: %d, want -ENOENT", ret);
		goto out_bo;
	}
	memset(&gc, 0, sizeof(gc));
	gc.handle = mo.handle;
	ret = e1t_ioctl(d.fd, DRM_IOCTL_GEM_CLOSE, &gc);
	if (ret != -EINVAL) {
		e1t_fail(n, "second GEM_CLOSE: %d, want -EINVAL", ret);
		goto out_bo;
	}
	ret = e1t_bo_wait(&d, mo.handle, 1000000);
	if (ret != -ENOENT) {
		e1t_fail(n, "BO_WAIT closed handle: %d, want -ENOENT", ret);
		goto out_bo;
	}
	e1t_pass(n);
out_bo:
	e1t_bo_free(&d, &bo);
out:
	e1t_close(&d);
}

/*
 * DRM_E1NPU_BO_HOST: CPU memory for status records. It takes none of the
 * arena (a host buffer and an arena-sized buffer coexist), maps and starts
 * zeroed, is refused in a relocation (-EINVAL) and above
 * DRM_E1NPU_BO_HOST_MAX, and holds a job's status record.
 */
static void t_bo_host(void)
{
	const char *n = "bo-host";
	struct e1t_bo host = { 0 }, arena = { 0 }, buf = { 0 };
	struct drm_e1npu_bo_create c;
	struct drm_e1npu_job_status st;
	struct drm_e1npu_submit s;
	struct drm_e1npu_job j;
	struct drm_e1npu_sync out;
	struct e1npu_hw_op op;
	struct e1t_dev d;
	uint32_t nop[E1_V0_DESC_WORDS], sync = 0;
	uint64_t point = 0;
	size_t i;
	int ret;

	if (e1t_open(&d)) {
		e1t_fail(n, "open %s", e1t_dev_path());
		return;
	}
	memset(&c, 0, sizeof(c));
	c.size = (uint64_t)DRM_E1NPU_BO_HOST_MAX + 1;
	c.flags = DRM_E1NPU_BO_HOST;
	ret = e1t_ioctl(d.fd, DRM_IOCTL_E1NPU_BO_CREATE, &c);
	if (ret != -EINVAL) {
		e1t_fail(n, "host buffer of %llu bytes: %d, want -EINVAL",
			 (unsigned long long)c.size, ret);
		goto out;
	}
	ret = e1t_bo_new_flags(&d, DRM_E1NPU_BO_HOST_MAX, DRM_E1NPU_BO_HOST,
			       &host);
	if (ret) {
		e1t_fail(n, "host buffer of %u bytes: %s", DRM_E1NPU_BO_HOST_MAX,
			 strerror(-ret));
		goto out;
	}
	for (i = 0; i < host.size; i++)
		if (host.map[i]) {
			e1t_fail(n, "host buffer not zeroed at %zu", i);
			goto out;
		}
	/* the whole arena is still free for a tensor buffer */
	ret = e1t_bo_new(&d, d.info.arena_size, &arena);
	if (ret) {
		e1t_fail(n, "arena-sized buffer beside a host buffer: %s",
			 strerror(-ret));
		goto out;
	}
	e1t_bo_free(&d, &arena);

	/* a relocation naming the host buffer */
	memset(&op, 0, sizeof(op));
	op.opcode = E1NPU_HWOP_RELU_S8;
	op.m = 1;
	op.n = 64;
	op.a.handle = host.handle;
	op.a.stride = 64;
	ret = e1t_bo_new(&d, 4096, &buf);
	if (ret) {
		e1t_fail(n, "tensor buffer: %s", strerror(-ret));
		goto out;
	}
	op.c.handle = buf.handle;
	op.c.stride = 64;
	{
		struct e1t_submit_args a = {
			.engine = DRM_E1NPU_ENGINE_WRAPPER, .ops = &op, .nops = 1,
		};
		struct e1t_job job;

		ret = e1t_submit_ex(&d, &a, &job);
	}
	if (ret != -EINVAL) {
		e1t_fail(n, "RELU reading a host buffer: %d, want -EINVAL", ret);
		goto out;
	}

	/* a status record at offset 4096 of the host buffer */
	ret = e1t_syncobj_create(&d, &sync, false);
	if (ret) {
		e1t_fail(n, "syncobj: %s", strerror(-ret));
		goto out;
	}
	memset(nop, 0, sizeof(nop));
	nop[E1_V0_DW_OP] = E1_V0_OP_NOP;
	memset(&out, 0, sizeof(out));
	out.handle = sync;
	memset(&j, 0, sizeof(j));
	j.cmds = (uintptr_t)nop;
	j.cmd_count = 1;
	j.out_syncs = (uintptr_t)&out;
	j.out_sync_count = 1;
	j.engine = DRM_E1NPU_ENGINE_WRAPPER;
	j.status_handle = host.handle;
	j.status_offset = 4096;
	memset(&s, 0, sizeof(s));
	s.jobs = (uintptr_t)&j;
	s.job_count = 1;
	s.job_size = sizeof(j);
	s.reloc_size = sizeof(struct drm_e1npu_reloc);
	s.sync_size = sizeof(struct drm_e1npu_sync);
	ret = e1t_ioctl(d.fd, DRM_IOCTL_E1NPU_SUBMIT, &s);
	if (!ret)
		ret = e1t_timeline_wait(&d, &sync, &point, 1, 0,
					E1T_JOB_TIMEOUT_MS);
	if (ret) {
		e1t_fail(n, "NOP job with its status in a host buffer: %s",
			 strerror(-ret));
		goto out;
	}
	memcpy(&st, host.map + 4096, sizeof(st));
	if (st.state != DRM_E1NPU_JOB_STATE_DONE || st.error ||
	    st.cmds_done != 1) {
		e1t_fail(n, "status record: state %u error %d cmds_done %u, want DONE 0 1",
			 st.state, st.error, st.cmds_done);
		goto out;
	}
	e1t_pass(n);
out:
	if (sync)
		e1t_syncobj_destroy(&d, sync);
	e1t_bo_free(&d, &buf);
	e1t_bo_free(&d, &arena);
	e1t_bo_free(&d, &host);
	e1t_close(&d);
}

#define HOST_PARAMS "/sys/module/e1npu/parameters/"
#define HOST_MIB (1u << 20)
/* the per-file cap when the driver has no parameter for it */
#define HOST_FILE_MAX_DEFAULT (16ull << 20)

/* a mapped host buffer of 1 MiB whose every page is written and read */
static int host_mib(struct e1t_dev *d, struct e1t_bo *bo)
{
	size_t i;
	int ret = e1t_bo_new_flags(d, HOST_MIB, DRM_E1NPU_BO_HOST, bo);

	if (ret)
		return ret;
	for (i = 0; i < HOST_MIB; i += 4096) {
		if (bo->map[i])
			return -EBADMSG;
		bo->map[i] = 0x5a;
	}
	return 0;
}

/*
 * DRM_E1NPU_BO_HOST memory is bounded: one file holds at most
 * host_file_max bytes of it (BO_CREATE then fails with -ENOSPC and
 * creates nothing: after freeing one buffer exactly one more fits), and
 * all files of the device host_dev_max (lowered for the test, so that a
 * second file is refused before its own cap).
 */
static void t_bo_host_caps(void)
{
	const char *n = "bo-host-caps";
	struct e1t_bo *bos = NULL, extra = { 0 }, b2[3] = { 0 };
	struct e1t_dev d, d2;
	char old_dev[32] = "", val[32];
	unsigned long long file_max = HOST_FILE_MAX_DEFAULT;
	uint32_t count, i, got = 0, got2 = 0;
	bool d2_open = false;
	int ret = 0;

	if (e1t_read_file(HOST_PARAMS "host_file_max", val, sizeof(val)))
		e1t_log("%s: no host_file_max parameter: the cap is taken as %llu",
			n, file_max);
	else
		file_max = strtoull(val, NULL, 0);
	count = (uint32_t)(file_max / HOST_MIB);
	if (!count || count > 256) {
		e1t_fail(n, "host_file_max %llu: the test wants 1..256 MiB",
			 file_max);
		return;
	}
	if (e1t_open(&d)) {
		e1t_fail(n, "open %s", e1t_dev_path());
		return;
	}
	bos = calloc(count + 1, sizeof(*bos));
	if (!bos) {
		e1t_fail(n, "calloc");
		goto out;
	}
	/* up to the cap, and one past it (bounded: never more) */
	for (got = 0; got <= count; got++) {
		ret = host_mib(&d, &bos[got]);
		if (ret)
			break;
	}
	if (got != count || ret != -ENOSPC) {
		e1t_fail(n, "%u host buffers of 1 MiB, then %d; want %u, then -ENOSPC (host_file_max %llu)",
			 got, got == count + 1 ? 0 : ret, count, file_max);
		goto out;
	}
	/* the refused BO_CREATE charged nothing: one freed, one fits */
	e1t_bo_free(&d, &bos[0]);
	ret = host_mib(&d, &bos[0]);
	if (ret) {
		e1t_fail(n, "after freeing one buffer at the cap: %s",
			 strerror(-ret));
		goto out;
	}
	ret = host_mib(&d, &extra);
	if (ret != -ENOSPC) {
		e1t_fail(n, "past the cap again: %d, want -ENOSPC", ret);
		goto out;
	}

	/* the device cap: file_max + 2 MiB for every file together */
	if (e1t_read_file(HOST_PARAMS "host_dev_max", old_dev,
			  sizeof(old_dev))) {
		e1t_fail(n, "no host_dev_max parameter");
		goto out;
	}
	snprintf(val, sizeof(val), "%llu", file_max + 2ull * HOST_MIB);
	if (e1t_write_file(HOST_PARAMS "host_dev_max", val)) {
		e1t_fail(n, "cannot set host_dev_max");
		goto out;
	}
	if (e1t_open(&d2)) {
		e1t_fail(n, "open a second file");
		goto out_dev;
	}
	d2_open = true;
	for (got2 = 0; got2 < 3; got2++) {
		ret = host_mib(&d2, &b2[got2]);
		if (ret)
			break;
	}
	if (got2 != 2 || ret != -ENOSPC)
		e1t_fail(n, "second file under host_dev_max %s: %u buffers, then %d; want 2, then -ENOSPC",
			 val, got2, ret);
	else
		e1t_pass(n);
out_dev:
	e1t_write_file(HOST_PARAMS "host_dev_max", old_dev);
out:
	for (i = 0; i < 3; i++)
		if (b2[i].map)
			e1t_bo_free(&d2, &b2[i]);
	if (d2_open)
		e1t_close(&d2);
	if (bos)
		for (i = 0; i <= count; i++)
			if (bos[i].map)
				e1t_bo_free(&d, &bos[i]);
	free(bos);
	e1t_close(&d);
}

int e1t_group_basic(void)
{
	t_dev_query();
	t_bo();
	t_bo_host();
	t_bo_host_caps();
	return e1t_failures;
}

/* ---- operations --------------------------------------------------------- */

/* Buffers of one test: inputs A, B, output C (pre-filled with SENTINEL). */
struct bufs {
	struct e1t_bo a, b, c;
	uint8_t *want;		/* expected image of all of C */
};

static int bufs_new(struct e1t_dev *d, struct bufs *s, uint64_t asz,
		    uint64_t bsz, uint64_t csz)
{
	int ret;

	memset(s, 0, sizeof(*s));
	ret = e1t_bo_new(d, asz, &s->a);
	if (!ret && bsz)
		ret = e1t_bo_new(d, bsz, &s->b);
	if (!ret)
		ret = e1t_bo_new(d, csz, &s->c);
	if (!ret) {
		s->want = malloc(csz);
		if (!s->want)
			ret = -ENOMEM;
	}
	if (!ret) {
		memset(s->c.map, SENTINEL, csz);
		memset(s->want, SENTINEL, csz);
	}
	return ret;
}

static void bufs_free(struct e1t_dev *d, struct bufs *s)
{
	e1t_bo_free(d, &s->a);
	e1t_bo_free(d, &s->b);
	e1t_bo_free(d, &s->c);
	free(s->want);
	s->want = NULL;
}

/* run @op, compare all of C with the expected image */
static void run_and_check(struct e1t_dev *d, const char *name,
			  const struct e1npu_hw_op *op, struct bufs *s)
{
	struct e1t_result r;
	int ret;

	ret = e1t_run(d, DRM_E1NPU_ENGINE_WRAPPER, op, 1, &r);
	if (ret < 0) {
		e1t_fail(name, "submit/wait: %s", strerror(-ret));
		return;
	}
	if (ret > 0) {
		e1t_fail(name, "job state %u error %d err_code 0x%x fail_index %u",
			 r.state, r.error, r.err_code, r.fail_index);
		return;
	}
	if (r.cmds_done != 1) {
		e1t_fail(name, "cmds_done %u, want 1", r.cmds_done);
		return;
	}
	if (e1t_expect_bytes(name, s->c.map, s->want, s->c.size))
		e1t_pass(name);
}

static void t_matmul(struct e1t_dev *d, uint32_t m, uint32_t n, uint32_t k,
		     bool relu, uint32_t seed)
{
	uint32_t as = e1t_align(k, 16) + 16, bs = e1t_align(n, 16);
	uint32_t cs = e1t_align(n * 4, 16) + 16;
	uint64_t ao = 32, bo = 16, co = 48;
	struct e1npu_hw_op op;
	struct bufs s;
	char name[64];
	int ret;

	snprintf(name, sizeof(name), "matmul-%ux%ux%u%s", m, n, k,
		 relu ? "-relu" : "");
	ret = bufs_new(d, &s, ao + (uint64_t)as * m, bo + (uint64_t)bs * k,
		       co + (uint64_t)cs * m + 64);
	if (ret) {
		e1t_fail(name, "buffers: %s", strerror(-ret));
		bufs_free(d, &s);
		return;
	}
	e1t_fill_s8(s.a.map, s.a.size, &seed);
	e1t_fill_s8(s.b.map, s.b.size, &seed);
	e1t_ref_matmul((int8_t *)s.a.map + ao, as, (int8_t *)s.b.map + bo, bs,
		       (int32_t *)(s.want + co), cs / 4, m, n, k, relu);
	memset(&op, 0, sizeof(op));
	op.opcode = E1NPU_HWOP_MATMUL_S8;
	op.flags = relu ? E1NPU_HWOP_FLAG_RELU : 0;
	op.m = m;
	op.n = n;
	op.k = k;
	op.a = e1t_t(&s.a, ao, as);
	op.b = e1t_t(&s.b, bo, bs);
	op.c = e1t_t(&s.c, co, cs);
	run_and_check(d, name, &op, &s);
	bufs_free(d, &s);
}

static void t_conv2d(struct e1t_dev *d, const struct e1t_conv *p, uint32_t seed)
{
	uint32_t as = e1t_align(p->in_w * p->c_in, 16);
	uint32_t ws = e1t_align(p->c_out, 16);
	uint32_t cs = e1t_align(p->out_w * p->c_out * 4, 16);
	uint32_t wrows = p->k * p->k * p->c_in;
	struct e1npu_hw_op op;
	struct bufs s;
	char name[96];
	int ret;

	snprintf(name, sizeof(name), "conv2d-%ux%ux%u-k%u-s%u-p%u-d%u-co%u%s",
		 p->in_h, p->in_w, p->c_in, p->k, p->stride_h, p->pad_top,
		 p->dilation, p->c_out, p->relu ? "-relu" : "");
	ret = bufs_new(d, &s, (uint64_t)as * p->in_h, (uint64_t)ws * wrows,
		       (uint64_t)cs * p->out_h + 16);
	if (ret) {
		e1t_fail(name, "buffers: %s", strerror(-ret));
		bufs_free(d, &s);
		return;
	}
	e1t_fill_s8(s.a.map, s.a.size, &seed);
	e1t_fill_s8(s.b.map, s.b.size, &seed);
	e1t_ref_conv2d(p, (int8_t *)s.a.map, as, (int8_t *)s.b.map, ws, s.want, cs);
	memset(&op, 0, sizeof(op));
	op.opcode = E1NPU_HWOP_CONV2D_S8;
	op.flags = p->relu ? E1NPU_HWOP_FLAG_RELU : 0;
	op.m = p->in_h;
	op.n = p->in_w;
	op.c_in = p->c_in;
	op.c_out = p->c_out;
	op.k = p->k;
	op.out_h = p->out_h;
	op.out_w = p->out_w;
	op.stride_h = p->stride_h;
	op.stride_w = p->stride_w;
	op.pad_top = p->pad_top;
	op.pad_left = p->pad_left;
	op.dilation = p->dilation;
	op.a = e1t_t(&s.a, 0, as);
	op.b = e1t_t(&s.b, 0, ws);
	op.c = e1t_t(&s.c, 0, cs);
	run_and_check(d, name, &op, &s);
	bufs_free(d, &s);
}

static void t_maxpool(struct e1t_dev *d, uint32_t in_h, uint32_t in_w,
		      uint32_t ch, uint32_t win, uint32_t stride, uint32_t seed)
{
	uint32_t out_h = (in_h - win) / stride + 1;
	uint32_t out_w = (in_w - win) / stride + 1;
	uint32_t as = e1t_align(in_w * ch, 16) + 16;
	uint32_t cs = e1t_align(out_w * ch, 16);
	struct e1npu_hw_op op;
	struct bufs s;
	char name[64];
	int ret;

	snprintf(name, sizeof(name), "maxpool-%ux%ux%u-w%u-s%u", in_h, in_w, ch,
		 win, stride);
	ret = bufs_new(d, &s, (uint64_t)as * in_h, 0, (uint64_t)cs * out_h + 32);
	if (ret) {
		e1t_fail(name, "buffers: %s", strerror(-ret));
		bufs_free(d, &s);
		return;
	}
	e1t_fill_s8(s.a.map, s.a.size, &seed);
	e1t_ref_maxpool((int8_t *)s.a.map, as, in_h, in_w, ch, win, stride,
			(int8_t *)s.want + 16, cs);
	memset(&op, 0, sizeof(op));
	op.opcode = E1NPU_HWOP_MAXPOOL_S8;
	op.m = in_h;
	op.n = in_w;
	op.c_in = ch;
	op.k = win;
	op.stride_h = stride;
	op.a = e1t_t(&s.a, 0, as);
	op.c = e1t_t(&s.c, 16, cs);
	run_and_check(d, name, &op, &s);
	bufs_free(d, &s);
}

static void t_relu(struct e1t_dev *d, uint32_t m, uint32_t n, uint32_t seed)
{
	uint32_t as = e1t_align(n, 16) + 32, cs = e1t_align(n, 16);
	struct e1npu_hw_op op;
	struct bufs s;
	char name[64];
	int ret;

	snprintf(name, sizeof(name), "relu-%ux%u", m, n);
	ret = bufs_new(d, &s, 16 + (uint64_t)as * m, 0, (uint64_t)cs * m + 32);
	if (ret) {
		e1t_fail(name, "buffers: %s", strerror(-ret));
		bufs_free(d, &s);
		return;
	}
	e1t_fill_s8(s.a.map, s.a.size, &seed);
	e1t_ref_relu((int8_t *)s.a.map + 16, as, (int8_t *)s.want + 32, cs, m, n);
	memset(&op, 0, sizeof(op));
	op.opcode = E1NPU_HWOP_RELU_S8;
	op.m = m;
	op.n = n;
	op.a = e1t_t(&s.a, 16, as);
	op.c = e1t_t(&s.c, 32, cs);
	run_and_check(d, name, &op, &s);
	bufs_free(d, &s);
}

/* Several operations in one job, the second consuming the first's output. */
static void t_chain(struct e1t_dev *d, uint32_t seed)
{
	const char *name = "job-chain-relu-maxpool-barrier";
	struct e1npu_hw_op ops[4];
	struct e1t_result r;
	uint32_t in = 8, ch = 16, as = in * ch, out = 4, cs = out * ch;
	int8_t *mid;
	struct bufs s;
	int ret;

	ret = bufs_new(d, &s, (uint64_t)as * in, (uint64_t)as * in, (uint64_t)cs * out);
	if (ret) {
		e1t_fail(name, "buffers: %s", strerror(-ret));
		bufs_free(d, &s);
		return;
	}
	mid = malloc((size_t)as * in);
	if (!mid) {
		e1t_fail(name, "malloc");
		bufs_free(d, &s);
		return;
	}
	e1t_fill_s8(s.a.map, s.a.size, &seed);
	e1t_ref_relu((int8_t *)s.a.map, as, mid, as, in, as);
	e1t_ref_maxpool(mid, as, in, in, ch, 2, 2, (int8_t *)s.want, cs);
	memset(ops, 0, sizeof(ops));
	ops[0].opcode = E1NPU_HWOP_RELU_S8;
	ops[0].m = in;
	ops[0].n = as;
	ops[0].a = e1t_t(&s.a, 0, as);
	ops[0].c = e1t_t(&s.b, 0, as);
	ops[1].opcode = E1NPU_HWOP_BARRIER;
	ops[2].opcode = E1NPU_HWOP_MAXPOOL_S8;
	ops[2].m = in;
	ops[2].n = in;
	ops[2].c_in = ch;
	ops[2].k = 2;
	ops[2].stride_h = 2;
	ops[2].a = e1t_t(&s.b, 0, as);
	ops[2].c = e1t_t(&s.c, 0, cs);
	ops[3].opcode = E1NPU_HWOP_NOP;
	ret = e1t_run(d, DRM_E1NPU_ENGINE_WRAPPER, ops, 4, &r);
	if (ret)
		e1t_fail(name, "ret %d state %u error %d err_code 0x%x", ret,
			 r.state, r.error, r.err_code);
	else if (r.cmds_done != 4)
		e1t_fail(name, "cmds_done %u", r.cmds_done);
	else if (e1t_expect_bytes(name, s.c.map, s.want, s.c.size))
		e1t_pass(name);
	free(mid);
	bufs_free(d, &s);
}

int e1t_group_ops(void)
{
	static const struct e1t_conv convs[] = {
		/* in_h in_w c_in c_out k out_h out_w sh sw pt pl dil relu */
		{ 8, 8, 3, 4, 3, 8, 8, 1, 1, 1, 1, 1, false },
		{ 9, 7, 5, 6, 5, 5, 4, 2, 2, 2, 2, 1, false },
		{ 10, 10, 2, 8, 3, 6, 6, 1, 1, 0, 0, 2, true },
		{ 6, 6, 16, 16, 1, 6, 6, 1, 1, 0, 0, 1, false },
		{ 16, 16, 8, 4, 3, 8, 8, 2, 2, 0, 0, 1, true },
	};
	struct e1t_dev d;
	unsigned int i;
	int ret;

	ret = e1t_open(&d);
	if (ret) {
		e1t_fail("ops-open", "%s: %s", e1t_dev_path(), strerror(-ret));
		return 1;
	}
	t_matmul(&d, 1, 1, 1, false, 1);
	t_matmul(&d, 16, 16, 16, false, 2);
	t_matmul(&d, 17, 33, 7, false, 3);
	t_matmul(&d, 5, 12, 40, true, 4);
	t_matmul(&d, 64, 64, 64, false, 5);
	for (i = 0; i < E1T_ARRAY_SIZE(convs); i++)
		t_conv2d(&d, &convs[i], 10 + i);
	t_maxpool(&d, 8, 8, 16, 2, 2, 20);
	t_maxpool(&d, 9, 7, 3, 3, 1, 21);
	t_maxpool(&d, 11, 11, 5, 3, 2, 22);
	t_relu(&d, 5, 37, 30);
	t_relu(&d, 64, 64, 31);
	t_relu(&d, 1, 1, 32);
	t_chain(&d, 40);
	e1t_close(&d);
	return e1t_failures;
}

/* ---- ring wrap-around --------------------------------------------------- */

int e1t_group_ring(void)
{
	const char *name = "ring-wrap-256";
	struct e1t_result r;
	struct e1npu_hw_op *ops;
	uint32_t per_job, njobs, total, i, j, seed = 77;
	struct e1t_job ids[16];
	struct e1t_dev d;
	struct bufs s;
	int ret;

	ret = e1t_open(&d);
	if (ret) {
		e1t_fail(name, "open: %s", strerror(-ret));
		return 1;
	}
	per_job = d.info.max_cmds_per_job;
	if (per_job > d.info.ring_len - 1)
		per_job = d.info.ring_len - 1;
	/* at least two and a half trips around the ring */
	njobs = (5 * d.info.ring_len / 2 + per_job - 1) / per_job;
	if (njobs > E1T_ARRAY_SIZE(ids))
		njobs = E1T_ARRAY_SIZE(ids);
	total = njobs * per_job;
	e1t_log("%s: ring_len %u, %u jobs of %u RELU ops", name,
		d.info.ring_len, njobs, per_job);
	ops = calloc(total, sizeof(*ops));
	ret = ops ? bufs_new(&d, &s, 16ull * total, 0, 16ull * total) : -ENOMEM;
	if (ret) {
		e1t_fail(name, "buffers: %s", strerror(-ret));
		goto out;
	}
	e1t_fill_s8(s.a.map, s.a.size, &seed);
	e1t_ref_relu((int8_t *)s.a.map, 16, (int8_t *)s.want, 16, total, 16);
	for (i = 0; i < total; i++) {
		ops[i].opcode = E1NPU_HWOP_RELU_S8;
		ops[i].m = 1;
		ops[i].n = 16;
		ops[i].a = e1t_t(&s.a, 16ull * i, 16);
		ops[i].c = e1t_t(&s.c, 16ull * i, 16);
	}
	/* submitted back to back, without waiting in between */
	for (j = 0; j < njobs; j++) {
		ret = e1t_submit(&d, DRM_E1NPU_ENGINE_WRAPPER, ops + j * per_job,
				 per_job, &ids[j]);
		if (ret) {
			e1t_fail(name, "submit of job %u: %s", j, strerror(-ret));
			goto out_bufs;
		}
	}
	for (j = 0; j < njobs; j++) {
		ret = e1t_job_wait(&d, &ids[j], E1T_JOB_TIMEOUT_MS, &r);
		if (ret || r.state != DRM_E1NPU_JOB_STATE_DONE || r.cmds_done != per_job) {
			e1t_fail(name, "job %u: ret %d state %u error %d cmds_done %u",
				 j, ret, r.state, r.error, r.cmds_done);
			goto out_bufs;
		}
	}
	if (e1t_expect_bytes(name, s.c.map, s.want, s.c.size))
		e1t_pass(name);
out_bufs:
	bufs_free(&d, &s);
out:
	free(ops);
	e1t_close(&d);
	return e1t_failures;
}

/* ---- datapath engine ---------------------------------------------------- */

static int32_t sx(uint32_t v, unsigned int bits)
{
	uint32_t m = 1u << (bits - 1);

	v &= (bits == 32) ? 0xffffffffu : ((1u << bits) - 1);
	return (int32_t)((v ^ m) - m);
}

/* hardware contract 3.2, for the scalar opcodes the test uses */
static void ref_scalar(uint32_t op, uint32_t a, uint32_t b, uint32_t acc,
		       uint32_t *res, uint32_t *hi)
{
	uint64_t p;
	int64_t s = 0;
	unsigned int i;

	*hi = 0;
	switch (op) {
	case E1_DP_OP_ADD:
		*res = a + b;
		return;
	case E1_DP_OP_SUB:
		*res = a - b;
		return;
	case E1_DP_OP_MUL_LO:
		p = (uint64_t)a * b;
		*res = (uint32_t)p;
		*hi = (uint32_t)(p >> 32);
		return;
	case E1_DP_OP_MAC_S16:
		s = (int64_t)sx(a, 16) * sx(b, 16) + (int32_t)acc;
		break;
	case E1_DP_OP_DOT4_S8:
		for (i = 0; i < 4; i++)
			s += (int64_t)sx(a >> (8 * i), 8) * sx(b >> (8 * i), 8);
		s += (int32_t)acc;
		break;
	case E1_DP_OP_MAX_U32:
		*res = a > b ? a : b;
		return;
	case E1_DP_OP_MIN_U32:
		*res = a < b ? a : b;
		return;
	case E1_DP_OP_DOT8_S4:
		for (i = 0; i < 8; i++)
			s += (int64_t)sx(a >> (4 * i), 4) * sx(b >> (4 * i), 4);
		s += (int32_t)acc;
		break;
	case E1_DP_OP_RELU4_S8:
		*res = 0;
		for (i = 0; i < 4; i++) {
			int32_t l = sx(a >> (8 * i), 8);

			*res |= (uint32_t)(l < 0 ? 0 : l) << (8 * i);
		}
		return;
	default:
		*res = 0xdeadbeef;
		return;
	}
	*res = (uint32_t)s;	/* wraps mod 2^32 */
	*hi = (int32_t)*res < 0 ? 0xffffffffu : 0;
}

static void t_dp_scalar(struct e1t_dev *d, uint32_t opcode, uint32_t seed)
{
	enum { N = 32 };
	struct e1t_result r;
	struct e1npu_hw_op op;
	uint32_t in[N * 3], i;
	struct bufs s;
	char name[48];
	int ret;

	snprintf(name, sizeof(name), "dp-scalar-op%u", opcode);
	ret = bufs_new(d, &s, sizeof(in) + 4, 0, N * 8 + 8);
	if (ret) {
		e1t_fail(name, "buffers: %s", strerror(-ret));
		bufs_free(d, &s);
		return;
	}
	for (i = 0; i < N * 3; i++)
		in[i] = e1t_rand(&seed);
	memcpy(s.a.map + 4, in, sizeof(in));
	for (i = 0; i < N; i++) {
		uint32_t out[2];

		ref_scalar(opcode, in[3 * i], in[3 * i + 1], in[3 * i + 2],
			   &out[0], &out[1]);
		memcpy(s.want + 8 + 8 * i, out, 8);
	}
	memset(&op, 0, sizeof(op));
	op.opcode = E1NPU_HWOP_DP_SCALAR;
	op.m = N;
	op.k = opcode;
	op.a = e1t_t(&s.a, 4, 0);
	op.c = e1t_t(&s.c, 8, 0);
	ret = e1t_run(d, DRM_E1NPU_ENGINE_DATAPATH, &op, 1, &r);
	if (ret)
		e1t_fail(name, "ret %d state %u error %d err_code 0x%x", ret,
			 r.state, r.error, r.err_code);
	else if (e1t_expect_bytes(name, s.c.map, s.want, s.c.size))
		e1t_pass(name);
	bufs_free(d, &s);
}

static int8_t nib(const uint8_t *p, uint64_t idx)
{
	uint8_t byte = p[idx / 2];

	return (int8_t)sx(idx & 1 ? byte >> 4 : byte, 4);
}

static void t_dp_gemm(struct e1t_dev *d, bool s4, uint32_t m, uint32_t n,
		      uint32_t k, uint32_t seed)
{
	uint32_t as = k + 1, bs = n + 2, cs = 4 * n + 4, i, j, l;
	struct e1t_result r;
	struct e1npu_hw_op op;
	struct bufs s;
	char name[48];
	int ret;

	snprintf(name, sizeof(name), "dp-gemm-%s-%ux%ux%u", s4 ? "s4" : "s8", m,
		 n, k);
	ret = bufs_new(d, &s, 64, 64, 64);
	if (ret) {
		e1t_fail(name, "buffers: %s", strerror(-ret));
		bufs_free(d, &s);
		return;
	}
	e1t_fill_s8(s.a.map, 64, &seed);
	e1t_fill_s8(s.b.map, 64, &seed);
	for (i = 0; i < m; i++) {
		for (j = 0; j < n; j++) {
			int32_t acc = 0;

			for (l = 0; l < k; l++) {
				if (s4)
					acc += nib(s.a.map, (uint64_t)i * as + l) *
					       nib(s.b.map, (uint64_t)l * bs + j);
				else
					acc += (int8_t)s.a.map[i * as + l] *
					       (int8_t)s.b.map[l * bs + j];
			}
			memcpy(s.want + 4 + i * cs + 4 * j, &acc, 4);
		}
	}
	memset(&op, 0, sizeof(op));
	op.opcode = s4 ? E1NPU_HWOP_DP_GEMM_S4 : E1NPU_HWOP_DP_GEMM_S8;
	op.m = m;
	op.n = n;
	op.k = k;
	op.a = e1t_t(&s.a, 0, as);
	op.b = e1t_t(&s.b, 0, bs);
	op.c = e1t_t(&s.c, 4, cs);
	ret = e1t_run(d, DRM_E1NPU_ENGINE_DATAPATH, &op, 1, &r);
	if (ret)
		e1t_fail(name, "ret %d state %u error %d err_code 0x%x", ret,
			 r.state, r.error, r.err_code);
	else if (e1t_expect_bytes(name, s.c.map, s.want, s.c.size))
		e1t_pass(name);
	bufs_free(d, &s);
}

static void t_dp_vrelu(struct e1t_dev *d, uint32_t n, uint32_t seed)
{
	struct e1t_result r;
	struct e1npu_hw_op op;
	struct bufs s;
	char name[48];
	int ret;

	snprintf(name, sizeof(name), "dp-vrelu-%u", n);
	ret = bufs_new(d, &s, 128, 0, 128);
	if (ret) {
		e1t_fail(name, "buffers: %s", strerror(-ret));
		bufs_free(d, &s);
		return;
	}
	e1t_fill_s8(s.a.map, 128, &seed);
	/* a may be byte aligned; the driver wants every datapath output 4-byte
	 * aligned (hw/e1npu_opcheck.c), although the UAPI only says so for
	 * int32 outputs */
	e1t_ref_relu((int8_t *)s.a.map + 3, 0, (int8_t *)s.want + 8, 0, 1, n);
	memset(&op, 0, sizeof(op));
	op.opcode = E1NPU_HWOP_DP_VRELU_S8;
	op.n = n;
	op.a = e1t_t(&s.a, 3, 0);
	op.c = e1t_t(&s.c, 8, 0);
	ret = e1t_run(d, DRM_E1NPU_ENGINE_DATAPATH, &op, 1, &r);
	if (ret)
		e1t_fail(name, "ret %d state %u error %d err_code 0x%x", ret,
			 r.state, r.error, r.err_code);
	else if (e1t_expect_bytes(name, s.c.map, s.want, s.c.size))
		e1t_pass(name);
	bufs_free(d, &s);
}

int e1t_group_dp(void)
{
	static const uint32_t scalar_ops[] = {
		E1_DP_OP_ADD, E1_DP_OP_SUB, E1_DP_OP_MUL_LO, E1_DP_OP_MAC_S16,
		E1_DP_OP_DOT4_S8, E1_DP_OP_MAX_U32, E1_DP_OP_MIN_U32,
		E1_DP_OP_DOT8_S4, E1_DP_OP_RELU4_S8,
	};
	struct e1t_dev d;
	unsigned int i;
	int ret;

	ret = e1t_open(&d);
	if (ret) {
		e1t_fail("dp-open", "%s: %s", e1t_dev_path(), strerror(-ret));
		return 1;
	}
	if (!(d.info.engines & (1u << DRM_E1NPU_ENGINE_DATAPATH))) {
		e1t_skip("dp", "no datapath engine");
		e1t_close(&d);
		return 0;
	}
	for (i = 0; i < E1T_ARRAY_SIZE(scalar_ops); i++)
		t_dp_scalar(&d, scalar_ops[i], 50 + i);
	t_dp_gemm(&d, false, 3, 3, 7, 60);
	t_dp_gemm(&d, false, 2, 1, 4, 61);
	t_dp_gemm(&d, true, 3, 2, 5, 62);
	t_dp_vrelu(&d, 64, 70);
	t_dp_vrelu(&d, 13, 71);
	e1t_close(&d);
	return e1t_failures;
}
