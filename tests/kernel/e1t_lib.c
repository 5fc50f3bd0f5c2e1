// SPDX-License-Identifier: MIT
/*
 * e1npu system tests: reporting, device, buffer and job helpers.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/sync_file.h>

#include "e1t.h"

int e1t_failures;

static void e1t_record(const char *verdict, const char *name)
{
	const char *path = getenv("E1VM_RESULTS");
	char line[256];
	int fd, len;

	if (!path || !*path)
		return;
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	len = snprintf(line, sizeof(line), "%s %s\n", verdict, name);
	if (len > 0 && write(fd, line, (size_t)len) < 0)
		len = 0;
	close(fd);
}

void e1t_pass(const char *name)
{
	printf("E1VM: PASS %s\n", name);
	fflush(stdout);
	e1t_record("PASS", name);
}

void e1t_fail(const char *name, const char *fmt, ...)
{
	va_list ap;

	printf("E1VM: FAIL %s ", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	e1t_record("FAIL", name);
	e1t_failures++;
}

void e1t_skip(const char *name, const char *fmt, ...)
{
	va_list ap;

	printf("E1VM: SKIP %s ", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

void e1t_log(const char *fmt, ...)
{
	va_list ap;

	printf("E1VM-LOG: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

int e1t_ioctl(int fd, unsigned long req, void *arg)
{
	int ret;

	do {
		ret = ioctl(fd, req, arg);
	} while (ret < 0 && (errno == EINTR || errno == EAGAIN));
	return ret < 0 ? -errno : 0;
}

static bool e1t_is_e1npu(int fd)
{
	char name[32] = "";
	struct drm_version v;

	memset(&v, 0, sizeof(v));
	v.name = name;
	v.name_len = sizeof(name) - 1;
	if (e1t_ioctl(fd, DRM_IOCTL_VERSION, &v))
		return false;
	return strncmp(name, "e1npu", 5) == 0;
}

const char *e1t_dev_path(void)
{
	static char path[64];
	const char *env = getenv("E1T_DEV");
	int i, fd;

	if (env && *env)
		return env;
	for (i = 0; i < 16; i++) {
		snprintf(path, sizeof(path), "/dev/accel/accel%d", i);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (e1t_is_e1npu(fd)) {
			close(fd);
			return path;
		}
		close(fd);
	}
	return "/dev/accel/accel0";
}

int e1t_open(struct e1t_dev *d)
{
	struct drm_e1npu_dev_query q;
	int ret;

	memset(d, 0, sizeof(*d));
	d->fd = open(e1t_dev_path(), O_RDWR | O_CLOEXEC);
	if (d->fd < 0)
		return -errno;
	memset(&q, 0, sizeof(q));
	q.type = DRM_E1NPU_DEV_QUERY_INFO;
	q.size = sizeof(d->info);
	q.pointer = (uintptr_t)&d->info;
	ret = e1t_ioctl(d->fd, DRM_IOCTL_E1NPU_DEV_QUERY, &q);
	if (ret) {
		close(d->fd);
		d->fd = -1;
	}
	return ret;
}

void e1t_close(struct e1t_dev *d)
{
	/* closing the file drops the helper's buffer and syncobjs with it;
	 * the mapping would keep the buffer */
	if (d->status_map)
		munmap(d->status_map, E1T_STATUS_BO_SIZE);
	d->status_handle = 0;
	d->status_map = NULL;
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
}

int e1t_bo_new(struct e1t_dev *d, uint64_t size, struct e1t_bo *bo)
{
	return e1t_bo_new_flags(d, size, 0, bo);
}

int e1t_bo_new_flags(struct e1t_dev *d, uint64_t size, uint32_t flags,
		     struct e1t_bo *bo)
{
	struct drm_e1npu_bo_create c;
	struct drm_e1npu_bo_mmap_offset mo;
	struct drm_gem_close gc;
	void *p;
	int ret;

	memset(bo, 0, sizeof(*bo));
	memset(&c, 0, sizeof(c));
	c.size = size;
	c.flags = flags;
	ret = e1t_ioctl(d->fd, DRM_IOCTL_E1NPU_BO_CREATE, &c);
	if (ret)
		return ret;
	memset(&mo, 0, sizeof(mo));
	mo.handle = c.handle;
	ret = e1t_ioctl(d->fd, DRM_IOCTL_E1NPU_BO_MMAP_OFFSET, &mo);
	if (ret)
		goto err;
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, d->fd,
		 (off_t)mo.offset);
	if (p == MAP_FAILED) {
		ret = -errno;
		goto err;
	}
	bo->handle = c.handle;
	bo->size = size;
	bo->map = p;
	return 0;
err:
	memset(&gc, 0, sizeof(gc));
	gc.handle = c.handle;
	e1t_ioctl(d->fd, DRM_IOCTL_GEM_CLOSE, &gc);
	return ret;
}

int e1t_bo_free(struct e1t_dev *d, struct e1t_bo *bo)
{
	struct drm_gem_close gc;

	if (!bo->handle)
		return 0;
	if (bo->map)
		munmap(bo->map, bo->size);
	memset(&gc, 0, sizeof(gc));
	gc.handle = bo->handle;
	bo->handle = 0;
	bo->map = NULL;
	return e1t_ioctl(d->fd, DRM_IOCTL_GEM_CLOSE, &gc);
}

uint64_t e1t_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void e1t_sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

int e1t_bo_wait(struct e1t_dev *d, uint32_t handle, int64_t timeout_ns)
{
	struct drm_e1npu_bo_wait w;

	memset(&w, 0, sizeof(w));
	w.handle = handle;
	w.timeout_ns = (int64_t)e1t_now_ns() + timeout_ns;
	return e1t_ioctl(d->fd, DRM_IOCTL_E1NPU_BO_WAIT, &w);
}

/* ---- syncobjs ------------------------------------------------------------ */

int e1t_syncobj_create(struct e1t_dev *d, uint32_t *handle, bool signaled)
{
	struct drm_syncobj_create c;
	int ret;

	memset(&c, 0, sizeof(c));
	c.flags = signaled ? DRM_SYNCOBJ_CREATE_SIGNALED : 0;
	ret = e1t_ioctl(d->fd, DRM_IOCTL_SYNCOBJ_CREATE, &c);
	*handle = ret ? 0 : c.handle;
	return ret;
}

int e1t_syncobj_destroy(struct e1t_dev *d, uint32_t handle)
{
	struct drm_syncobj_destroy x;

	memset(&x, 0, sizeof(x));
	x.handle = handle;
	return e1t_ioctl(d->fd, DRM_IOCTL_SYNCOBJ_DESTROY, &x);
}

int e1t_timeline_wait(struct e1t_dev *d, const uint32_t *handles,
		      const uint64_t *points, uint32_t n, uint32_t flags,
		      int timeout_ms)
{
	struct drm_syncobj_timeline_wait w;

	memset(&w, 0, sizeof(w));
	w.handles = (uintptr_t)handles;
	w.points = (uintptr_t)points;
	w.count_handles = n;
	w.flags = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL | flags;
	w.timeout_nsec = (int64_t)(e1t_now_ns() +
				   (uint64_t)timeout_ms * 1000000ull);
	return e1t_ioctl(d->fd, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &w);
}

int e1t_timeline_signal(struct e1t_dev *d, uint32_t handle, uint64_t point)
{
	struct drm_syncobj_timeline_array a;

	memset(&a, 0, sizeof(a));
	a.handles = (uintptr_t)&handle;
	a.points = (uintptr_t)&point;
	a.count_handles = 1;
	return e1t_ioctl(d->fd, DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL, &a);
}

int e1t_timeline_query(struct e1t_dev *d, uint32_t handle, uint64_t *point)
{
	struct drm_syncobj_timeline_array a;

	*point = 0;
	memset(&a, 0, sizeof(a));
	a.handles = (uintptr_t)&handle;
	a.points = (uintptr_t)point;
	a.count_handles = 1;
	return e1t_ioctl(d->fd, DRM_IOCTL_SYNCOBJ_QUERY, &a);
}

int e1t_syncobj_fence_status(struct e1t_dev *d, uint32_t handle, int *status)
{
	struct drm_syncobj_handle h;
	struct sync_file_info info;
	int ret;

	*status = 0;
	memset(&h, 0, sizeof(h));
	h.handle = handle;
	h.flags = DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE;
	h.fd = -1;
	ret = e1t_ioctl(d->fd, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &h);
	if (ret)
		return ret;
	memset(&info, 0, sizeof(info));
	ret = e1t_ioctl(h.fd, SYNC_IOC_FILE_INFO, &info);
	close(h.fd);
	if (!ret)
		*status = info.status;
	return ret;
}

/* ---- jobs --------------------------------------------------------------- */

int e1t_jobs_init(struct e1t_dev *d)
{
	struct e1t_bo bo;
	uint32_t i;
	int ret;

	if (d->timeline)
		return 0;
	ret = e1t_syncobj_create(d, &d->timeline, false);
	for (i = 0; !ret && i < E1T_SLOTS; i++)
		ret = e1t_syncobj_create(d, &d->slot_sync[i], false);
	memset(&bo, 0, sizeof(bo));
	if (!ret && !d->fence_only)
		ret = e1t_bo_new(d, E1T_STATUS_BO_SIZE, &bo);
	if (ret) {
		e1t_jobs_release(d);
		return ret;
	}
	d->status_handle = bo.handle;
	d->status_map = bo.map;
	d->last_point = 0;
	memset(d->slot_point, 0, sizeof(d->slot_point));
	return 0;
}

void e1t_jobs_release(struct e1t_dev *d)
{
	struct e1t_bo bo;
	uint32_t i;

	if (d->status_handle) {
		bo.handle = d->status_handle;
		bo.size = E1T_STATUS_BO_SIZE;
		bo.map = d->status_map;
		e1t_bo_free(d, &bo);
	}
	d->status_handle = 0;
	d->status_map = NULL;
	if (d->timeline)
		e1t_syncobj_destroy(d, d->timeline);
	d->timeline = 0;
	for (i = 0; i < E1T_SLOTS; i++) {
		if (d->slot_sync[i])
			e1t_syncobj_destroy(d, d->slot_sync[i]);
		d->slot_sync[i] = 0;
	}
}

int e1t_encode(uint32_t engine, const struct e1npu_hw_op *ops, uint32_t n,
	       void **cmds, struct drm_e1npu_reloc **relocs, uint32_t *nrelocs)
{
	int size = e1npu_cmd_size(engine);
	uint32_t i, nr = 0, k;
	uint8_t *c;
	struct drm_e1npu_reloc *r;

	*cmds = NULL;
	*relocs = NULL;
	*nrelocs = 0;
	if (size <= 0)
		return -EINVAL;
	c = calloc(n ? n : 1, (size_t)size);
	r = calloc(n ? 3 * (size_t)n : 1, sizeof(*r));
	if (!c || !r) {
		free(c);
		free(r);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		if (e1npu_cmd_encode(engine, &ops[i], c + (size_t)i * size,
				     &r[nr], i, &k)) {
			free(c);
			free(r);
			return -EINVAL;
		}
		nr += k;
	}
	*cmds = c;
	*relocs = r;
	*nrelocs = nr;
	return 0;
}

int e1t_submit_jobs(struct e1t_dev *d, const void *jobs, uint32_t njobs,
		    uint32_t job_size, uint32_t reloc_size, uint32_t sync_size)
{
	struct drm_e1npu_submit s;

	memset(&s, 0, sizeof(s));
	s.jobs = (uintptr_t)jobs;
	s.job_count = njobs;
	s.job_size = job_size ? job_size : sizeof(struct drm_e1npu_job);
	s.reloc_size = reloc_size ? reloc_size : sizeof(struct drm_e1npu_reloc);
	s.sync_size = sync_size ? sync_size : sizeof(struct drm_e1npu_sync);
	return e1t_ioctl(d->fd, DRM_IOCTL_E1NPU_SUBMIT, &s);
}

int e1t_submit_ex(struct e1t_dev *d, const struct e1t_submit_args *a,
		  struct e1t_job *job)
{
	struct drm_e1npu_sync out[2 + 8];
	struct drm_e1npu_reloc *relocs = NULL;
	struct drm_e1npu_job j;
	void *cmds = NULL;
	uint32_t nrel = 0, slot;
	uint64_t point;
	int ret;

	memset(job, 0, sizeof(*job));
	if (a->out_sync_count > 8)
		return -E2BIG;
	ret = e1t_jobs_init(d);
	if (ret)
		return ret;
	if (a->ops) {
		ret = e1t_encode(a->engine, a->ops, a->nops, &cmds, &relocs,
				 &nrel);
		if (ret)
			return ret;
	}
	point = d->last_point + 1;
	slot = (uint32_t)(point % E1T_SLOTS);
	memset(out, 0, sizeof(out));
	out[0].handle = d->timeline;
	out[0].point = point;
	out[1].handle = d->slot_sync[slot];
	if (a->out_sync_count)
		memcpy(&out[2], a->out_syncs, a->out_sync_count * sizeof(out[0]));

	memset(&j, 0, sizeof(j));
	j.engine = a->engine;
	j.cmds = (uintptr_t)(a->ops ? cmds : a->cmds);
	j.cmd_count = a->ops ? a->nops : a->cmd_count;
	j.relocs = (uintptr_t)(a->ops ? relocs : a->relocs);
	j.reloc_count = a->ops ? nrel : a->reloc_count;
	j.in_syncs = (uintptr_t)a->in_syncs;
	j.in_sync_count = a->in_sync_count;
	j.out_syncs = (uintptr_t)out;
	j.out_sync_count = 2 + a->out_sync_count;
	if (d->status_handle) {
		j.status_handle = d->status_handle;
		j.status_offset = (uint64_t)slot * E1T_STATUS_STRIDE;
		/* a record that still says DONE from an earlier job must
		 * not pass */
		memset(d->status_map + j.status_offset, 0xee, E1T_STATUS_STRIDE);
	}
	j.perfmon_id = a->perfmon_id;
	ret = e1t_submit_jobs(d, &j, 1, 0, 0, 0);
	free(cmds);
	free(relocs);
	if (ret)
		return ret;
	d->last_point = point;
	d->slot_point[slot] = point;
	job->point = point;
	job->slot = slot;
	return 0;
}

int e1t_submit(struct e1t_dev *d, uint32_t engine,
	       const struct e1npu_hw_op *ops, uint32_t n, struct e1t_job *job)
{
	struct e1t_submit_args a;

	memset(&a, 0, sizeof(a));
	a.engine = engine;
	a.ops = ops;
	a.nops = n;
	return e1t_submit_ex(d, &a, job);
}

int e1t_submit_cmds(struct e1t_dev *d, uint32_t engine, const void *cmds,
		    uint32_t cmd_count, const struct drm_e1npu_reloc *relocs,
		    uint32_t reloc_count, struct e1t_job *job)
{
	struct e1t_submit_args a;

	memset(&a, 0, sizeof(a));
	a.engine = engine;
	a.cmds = cmds;
	a.cmd_count = cmd_count;
	a.relocs = relocs;
	a.reloc_count = reloc_count;
	return e1t_submit_ex(d, &a, job);
}

void e1t_job_status(const struct e1t_dev *d, const struct e1t_job *job,
		    struct drm_e1npu_job_status *st)
{
	const volatile uint8_t *p;
	uint8_t tmp[sizeof(*st)];
	size_t i;

	memset(st, 0, sizeof(*st));
	if (!d->status_map)
		return;
	p = d->status_map + (size_t)job->slot * E1T_STATUS_STRIDE;
	for (i = 0; i < sizeof(tmp); i++)
		tmp[i] = p[i];
	memcpy(st, tmp, sizeof(*st));
}

int e1t_job_wait(struct e1t_dev *d, const struct e1t_job *job, int timeout_ms,
		 struct e1t_result *r)
{
	struct drm_e1npu_job_status st;
	int ret, fs;

	memset(r, 0, sizeof(*r));
	r->state = DRM_E1NPU_JOB_STATE_QUEUED;
	if (!job->point || !d->timeline)
		return -EINVAL;
	if (d->slot_point[job->slot] != job->point)
		return -ESTALE;	/* more than E1T_SLOTS jobs in flight */
	ret = e1t_timeline_wait(d, &d->timeline, &job->point, 1,
				DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT,
				timeout_ms);
	if (ret == -ETIME)
		return -ETIMEDOUT;
	if (ret)
		return ret;
	if (!d->status_handle) {
		ret = e1t_syncobj_fence_status(d, d->slot_sync[job->slot], &fs);
		if (ret || fs == 0)
			return ret ? ret : -EBADMSG;
		r->fence_error = fs < 0 ? fs : 0;
		r->error = r->fence_error;
		r->state = fs < 0 ? DRM_E1NPU_JOB_STATE_FAILED :
				    DRM_E1NPU_JOB_STATE_DONE;
		r->cmds_done = r->fail_index = r->err_code = E1T_UNKNOWN;
		return 0;
	}
	e1t_job_status(d, job, &st);
	r->state = st.state;
	r->error = st.error;
	r->cmds_done = st.cmds_done;
	r->fail_index = st.fail_index;
	r->err_code = st.err_code;
	ret = e1t_syncobj_fence_status(d, d->slot_sync[job->slot], &fs);
	if (ret) {
		e1t_log("job %llu: sync_file of its fence: %s",
			(unsigned long long)job->point, strerror(-ret));
		return ret;
	}
	r->fence_error = fs < 0 ? fs : 0;
	if (fs == 0 || r->state > DRM_E1NPU_JOB_STATE_FAILED ||
	    r->state == DRM_E1NPU_JOB_STATE_QUEUED ||
	    r->error != r->fence_error ||
	    (r->state == DRM_E1NPU_JOB_STATE_DONE) != !r->error ||
	    st.pad != 0 ||
	    (r->state == DRM_E1NPU_JOB_STATE_FAILED &&
	     r->fail_index != r->cmds_done)) {
		e1t_log("job %llu: timeline point signalled, fence status %d, status record state %u error %d cmds_done %u fail_index %u err_code 0x%x pad 0x%x: they disagree",
			(unsigned long long)job->point, fs, r->state, r->error,
			r->cmds_done, r->fail_index, r->err_code, st.pad);
		return -EBADMSG;
	}
	return 0;
}

int e1t_run(struct e1t_dev *d, uint32_t engine, const struct e1npu_hw_op *ops,
	    uint32_t n, struct e1t_result *r)
{
	struct e1t_job job;
	int ret;

	memset(r, 0, sizeof(*r));
	ret = e1t_submit(d, engine, ops, n, &job);
	if (ret)
		return ret;
	ret = e1t_job_wait(d, &job, E1T_JOB_TIMEOUT_MS, r);
	if (ret)
		return ret;
	return r->state == DRM_E1NPU_JOB_STATE_DONE && r->error == 0 ? 0 : 1;
}

int e1t_write_file(const char *path, const char *val)
{
	ssize_t n;
	int fd;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, val, strlen(val));
	close(fd);
	return n < 0 ? -errno : 0;
}

int e1t_read_file(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = 0;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = 0;
	return 0;
}

static const char *e1t_qmp_path(void)
{
	const char *p = getenv("E1VM_QMP");

	return p && *p ? p : "/tests/e1vm-qmp";
}

/*
 * Run e1vm-qmp with @argv (argv[0] is replaced by the tool's path); its
 * standard output goes into @out (trailing newline and spaces dropped)
 * when @out is not NULL. 0 on exit status 0, -EIO on 1 (a QMP error),
 * -ENOENT when the tool cannot be run, -EINVAL otherwise.
 */
static int e1t_qmp(const char **argv, char *out, size_t len)
{
	int pfd[2] = { -1, -1 }, st;
	size_t got = 0;
	char drain[64];
	ssize_t n;
	pid_t pid;

	argv[0] = e1t_qmp_path();
	if (out && pipe(pfd))
		return -errno;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		int err = -errno;

		if (out) {
			close(pfd[0]);
			close(pfd[1]);
		}
		return err;
	}
	if (pid == 0) {
		if (out) {
			close(pfd[0]);
			if (pfd[1] != STDOUT_FILENO) {
				dup2(pfd[1], STDOUT_FILENO);
				close(pfd[1]);
			}
		}
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	if (out) {
		close(pfd[1]);
		for (;;) {
			if (got + 1 < len)
				n = read(pfd[0], out + got, len - 1 - got);
			else
				n = read(pfd[0], drain, sizeof(drain));
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				break;
			if (got + 1 < len)
				got += (size_t)n;
		}
		close(pfd[0]);
		out[got] = 0;
		while (got > 0 && (out[got - 1] == '\n' || out[got - 1] == ' '))
			out[--got] = 0;
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (!WIFEXITED(st))
		return -EINVAL;
	switch (WEXITSTATUS(st)) {
	case 0:
		return 0;
	case 1:
		return -EIO;
	case 127:
		return -ENOENT;
	default:
		return -EINVAL;
	}
}

int e1t_dev_set(const char *name, const char *val)
{
	const char *argv[] = { NULL, "set", name, val, NULL };

	return e1t_qmp(argv, NULL, 0);
}

int e1t_dev_get(const char *name, char *buf, size_t len)
{
	const char *argv[] = { NULL, "get", name, NULL };

	if (!len)
		return -EINVAL;
	buf[0] = 0;
	return e1t_qmp(argv, buf, len);
}

long long e1t_dev_get_ll(const char *name)
{
	char buf[32], *end;
	long long v;

	if (e1t_dev_get(name, buf, sizeof(buf)) || !buf[0])
		return -1;
	v = strtoll(buf, &end, 0);
	return *end ? -1 : v;
}

int e1t_dev_sysfs(const char *dev_path, char *buf, size_t len)
{
	const char *node = strrchr(dev_path, '/');

	node = node ? node + 1 : dev_path;
	if (strncmp(node, "accel", 5))
		return -EINVAL;
	snprintf(buf, len, "/sys/class/accel/%s/device", node);
	return access(buf, F_OK) ? -errno : 0;
}

bool e1t_expect_bytes(const char *name, const void *got, const void *want,
		      size_t len)
{
	const uint8_t *g = got, *w = want;
	size_t i;

	for (i = 0; i < len; i++) {
		if (g[i] != w[i]) {
			e1t_fail(name, "byte %zu: got 0x%02x want 0x%02x", i,
				 g[i], w[i]);
			return false;
		}
	}
	return true;
}

bool e1t_expect_i32(const char *name, const int32_t *got, const int32_t *want,
		    size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (got[i] != want[i]) {
			e1t_fail(name, "element %zu: got %d want %d", i,
				 got[i], want[i]);
			return false;
		}
	}
	return true;
}
