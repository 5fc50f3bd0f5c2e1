// SPDX-License-Identifier: MIT
/*
 * The kernel backend: e1npu.ko through /dev/accel/accelN and libdrm.
 *
 * Buffers are GEM objects (BO_CREATE, mmap through BO_MMAP_OFFSET). A job
 * is one DRM_IOCTL_E1NPU_SUBMIT of hardware commands with relocations
 * (e1npu_cmd_encode(), shared with the kernel's decoder), signalling the
 * next point of the handle's one timeline syncobj, waited for with
 * drmSyncobjTimelineWait(): two ioctls per job. Its outcome (which
 * command failed, the hardware's code) is read from the job's status
 * record in a buffer the handle keeps mapped; the kernel writes it before
 * the fence signals. Perf counters come from the device's sysfs attributes
 * (Documentation/ABI/testing/sysfs-driver-e1npu).
 *
 * Discovery: libudev when built with E1NPU_WITH_UDEV=1 (the default),
 * otherwise a scan of /dev/accel/accel* checking the driver name with
 * drmGetVersion() (the static guest build: libudev has no static library).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <xf86drm.h>

#if E1NPU_WITH_UDEV
#include <libudev.h>
#endif

#include "backend.h"

#define KDRV_NAME		"e1npu"
#define KDRV_JOBS		64	/* jobs in flight per device handle */

struct kjob {
	bool used;
	bool have_res;
	uint64_t point;
	struct e1npu_hw_result res;
};

struct kdev {
	int fd;
	char sysfs[128];	/* /sys/dev/char/M:m/device, "" if unknown */
	uint32_t timeline;	/* syncobj: point n = the handle's job n */
	uint64_t last_point;
	uint32_t status_bo;	/* KDRV_JOBS struct drm_e1npu_job_status */
	uint64_t status_size;
	struct drm_e1npu_job_status *status;
	struct kjob jobs[KDRV_JOBS];
	/* SUBMIT staging, reused: commands and relocations of one job. */
	uint8_t *cmds;
	struct drm_e1npu_reloc *relocs;
	uint32_t staged_max;
};

static struct kdev *to_kdev(struct e1npu_device *dev)
{
	return dev->priv;
}

static int kioctl(int fd, unsigned long req, void *arg)
{
	if (drmIoctl(fd, req, arg))
		return errno ? -errno : -EIO;
	return 0;
}

/* Is @fd an e1npu device? */
/* Whether @fd is e1npu's node; its DRM_IOCTL_VERSION into @ver (may be NULL). */
static bool is_e1npu_ver(int fd, int ver[2])
{
	drmVersionPtr v = drmGetVersion(fd);
	bool ok;

	if (!v)
		return false;
	ok = v->name && !strcmp(v->name, KDRV_NAME);
	if (ver) {
		ver[0] = v->version_major;
		ver[1] = v->version_minor;
	}
	drmFreeVersion(v);
	return ok;
}


#if !E1NPU_WITH_UDEV
static bool node_is_e1npu(const char *path)
{
	int fd = open(path, O_RDWR | O_CLOEXEC);
	bool ok;

	if (fd < 0)
		return false;
	ok = is_e1npu_ver(fd, NULL);
	close(fd);
	return ok;
}
#endif

#if E1NPU_WITH_UDEV
int e1npu_kernel_find_node(char *path, size_t len)
{
	struct udev_list_entry *e;
	struct udev_enumerate *en;
	struct udev *udev;
	int ret = -ENODEV;

	udev = udev_new();
	if (!udev)
		return -ENODEV;
	en = udev_enumerate_new(udev);
	if (!en) {
		udev_unref(udev);
		return -ENODEV;
	}
	udev_enumerate_add_match_subsystem(en, "accel");
	udev_enumerate_scan_devices(en);
	udev_list_entry_foreach(e, udev_enumerate_get_list_entry(en)) {
		struct udev_device *d, *parent;
		const char *node, *drv = NULL;

		d = udev_device_new_from_syspath(udev, udev_list_entry_get_name(e));
		if (!d)
			continue;
		node = udev_device_get_devnode(d);
		parent = udev_device_get_parent(d);
		if (parent)
			drv = udev_device_get_driver(parent);
		if (node && drv && !strcmp(drv, KDRV_NAME) &&
		    strlen(node) < len) {
			snprintf(path, len, "%s", node);
			ret = 0;
		}
		udev_device_unref(d);
		if (!ret)
			break;
	}
	udev_enumerate_unref(en);
	udev_unref(udev);
	return ret;
}
#else
int e1npu_kernel_find_node(char *path, size_t len)
{
	struct dirent *de;
	DIR *dir;
	unsigned int best = ~0u;
	char cand[300];

	dir = opendir("/dev/accel");
	if (!dir)
		return -ENODEV;
	/* The lowest-numbered accelN whose driver is e1npu. */
	while ((de = readdir(dir))) {
		unsigned int n;
		char tail;

		if (sscanf(de->d_name, "accel%u%c", &n, &tail) != 1 || n >= best)
			continue;
		snprintf(cand, sizeof(cand), "/dev/accel/%s", de->d_name);
		if (node_is_e1npu(cand))
			best = n;
	}
	closedir(dir);
	if (best == ~0u)
		return -ENODEV;
	snprintf(path, len, "/dev/accel/accel%u", best);
	return 0;
}
#endif

static int kdev_jobs_init(struct e1npu_device *dev);

static int kdrv_query_info(int fd, struct drm_e1npu_dev_info *info)
{
	struct drm_e1npu_dev_query q;

	memset(info, 0, sizeof(*info));
	memset(&q, 0, sizeof(q));
	q.type = DRM_E1NPU_DEV_QUERY_INFO;
	q.size = sizeof(*info);
	q.pointer = (uintptr_t)info;
	return kioctl(fd, DRM_IOCTL_E1NPU_DEV_QUERY, &q);
}

static int kdrv_open(struct e1npu_device *dev, const char *path)
{
	struct drm_e1npu_dev_info info;
	struct kdev *k;
	struct stat st;
	int fd, ret, ver[2];
	bool wr, dp;

	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (!is_e1npu_ver(fd, ver)) {
		close(fd);
		return -ENODEV;
	}
	/* This library speaks the driver's UAPI 1.x (DRM_IOCTL_VERSION). */
	ret = ver[0] != E1NPU_DRIVER_MAJOR ? -EPROTONOSUPPORT : kdrv_query_info(fd, &info);
	if (ret) {
		close(fd);
		return ret;
	}
	k = calloc(1, sizeof(*k));
	if (!k) {
		close(fd);
		return -ENOMEM;
	}
	k->fd = fd;
	if (!fstat(fd, &st) && S_ISCHR(st.st_mode))
		snprintf(k->sysfs, sizeof(k->sysfs), "/sys/dev/char/%u:%u/device",
			 major(st.st_rdev), minor(st.st_rdev));
	dev->priv = k;

	/* Same limits as the kernel derives, then what it says it uses. */
	wr = info.engines & (1u << DRM_E1NPU_ENGINE_WRAPPER);
	dp = info.engines & (1u << DRM_E1NPU_ENGINE_DATAPATH);
	e1npu_limits_init(&dev->lim, wr, info.wrapper_id, info.wrapper_caps, dp,
			  info.datapath_id, info.ring_len, info.arena_size);
	if (info.max_cmds_per_job && info.max_cmds_per_job < dev->lim.max_ops_per_job)
		dev->lim.max_ops_per_job = info.max_cmds_per_job;
	if (info.datapath_slots)
		dev->lim.datapath_slots = info.datapath_slots;
	snprintf(dev->info.path, sizeof(dev->info.path), "%s", path);
	snprintf(dev->info.driver, sizeof(dev->info.driver), KDRV_NAME);
	dev->info.driver_major = (uint32_t)ver[0];
	dev->info.driver_minor = (uint32_t)ver[1];
	ret = kdev_jobs_init(dev);
	if (ret) {
		close(fd);
		free(k);
		dev->priv = NULL;
	}
	return ret;
}

static void kdrv_close(struct e1npu_device *dev)
{
	struct kdev *k = to_kdev(dev);
	struct drm_gem_close c;

	if (k->status) {
		munmap(k->status, k->status_size);
		memset(&c, 0, sizeof(c));
		c.handle = k->status_bo;
		kioctl(k->fd, DRM_IOCTL_GEM_CLOSE, &c);
		drmSyncobjDestroy(k->fd, k->timeline);
	}
	free(k->cmds);
	free(k->relocs);
	close(k->fd);
	free(k);
	dev->priv = NULL;
}

static int kdrv_bo_create(struct e1npu_device *dev, uint64_t size,
			  uint32_t *handle, uint64_t *bo_size)
{
	struct drm_e1npu_bo_create c;
	long page = sysconf(_SC_PAGESIZE);
	int ret;

	if (page <= 0)
		page = E1NPU_PAGE_SIZE;
	memset(&c, 0, sizeof(c));
	c.size = size;
	ret = kioctl(to_kdev(dev)->fd, DRM_IOCTL_E1NPU_BO_CREATE, &c);
	if (ret)
		return ret;
	*handle = c.handle;
	*bo_size = (size + (uint64_t)page - 1) & ~((uint64_t)page - 1);
	return 0;
}

static void kdrv_bo_free(struct e1npu_device *dev, uint32_t handle, void *map,
			 uint64_t bo_size)
{
	struct drm_gem_close c;

	if (map)
		munmap(map, bo_size);
	memset(&c, 0, sizeof(c));
	c.handle = handle;
	kioctl(to_kdev(dev)->fd, DRM_IOCTL_GEM_CLOSE, &c);
}

static int kdrv_bo_map(struct e1npu_device *dev, uint32_t handle,
		       uint64_t bo_size, void **ptr)
{
	struct drm_e1npu_bo_mmap_offset mo;
	struct kdev *k = to_kdev(dev);
	void *p;
	int ret;

	memset(&mo, 0, sizeof(mo));
	mo.handle = handle;
	ret = kioctl(k->fd, DRM_IOCTL_E1NPU_BO_MMAP_OFFSET, &mo);
	if (ret)
		return ret;
	p = mmap(NULL, bo_size, PROT_READ | PROT_WRITE, MAP_SHARED, k->fd,
		 (off_t)mo.offset);
	if (p == MAP_FAILED)
		return -errno;
	*ptr = p;
	return 0;
}

static struct kjob *kjob_find(struct kdev *k, uint32_t job_id)
{
	unsigned int i;

	for (i = 0; i < KDRV_JOBS; i++)
		if (k->jobs[i].used && (uint32_t)k->jobs[i].point == job_id)
			return &k->jobs[i];
	return NULL;
}

/* First submit of a handle: the timeline and the mapped status records. */
static int kdev_jobs_init(struct e1npu_device *dev)
{
	struct kdev *k = to_kdev(dev);
	long page = sysconf(_SC_PAGESIZE);
	struct drm_e1npu_bo_create c;
	void *map = NULL;
	int ret;

	if (page <= 0)
		page = E1NPU_PAGE_SIZE;
	ret = drmSyncobjCreate(k->fd, 0, &k->timeline);
	if (ret)
		return ret;
	/* Host memory: the records take none of the device's tensor arena. */
	memset(&c, 0, sizeof(c));
	c.size = KDRV_JOBS * sizeof(*k->status);
	c.flags = DRM_E1NPU_BO_HOST;
	ret = kioctl(k->fd, DRM_IOCTL_E1NPU_BO_CREATE, &c);
	if (!ret) {
		k->status_bo = c.handle;
		k->status_size = (c.size + (uint64_t)page - 1) & ~((uint64_t)page - 1);
	}
	if (!ret) {
		ret = kdrv_bo_map(dev, k->status_bo, k->status_size, &map);
		if (ret)
			kdrv_bo_free(dev, k->status_bo, NULL, k->status_size);
	}
	if (ret) {
		drmSyncobjDestroy(k->fd, k->timeline);
		k->timeline = 0;
		return ret;
	}
	k->status = map;
	return 0;
}

/* Staging arrays for @count commands: the largest job so far. */
static int kdev_stage(struct kdev *k, uint32_t count)
{
	uint8_t *cmds;
	struct drm_e1npu_reloc *relocs;

	if (count <= k->staged_max)
		return 0;
	cmds = realloc(k->cmds, (size_t)count * E1NPU_CMD_MAX_SIZE);
	if (!cmds)
		return -ENOMEM;
	k->cmds = cmds;
	relocs = realloc(k->relocs, (size_t)count * E1NPU_T_COUNT *
				    sizeof(*relocs));
	if (!relocs)
		return -ENOMEM;
	k->relocs = relocs;
	k->staged_max = count;
	return 0;
}

static int kdrv_submit(struct e1npu_device *dev, const struct e1npu_hw_op *ops,
		       uint32_t count, uint32_t engine, const uint32_t *deps,
		       uint32_t ndeps, uint32_t *job_id)
{
	struct kdev *k = to_kdev(dev);
	struct drm_e1npu_sync in[KDRV_JOBS], out;
	struct drm_e1npu_submit s;
	struct drm_e1npu_job job;
	uint32_t nin = 0, nrel = 0, n, i;
	struct kjob *j = NULL, *d;
	int size = e1npu_cmd_size(engine), ret;

	if (ndeps > KDRV_JOBS || size < 0 || !count)
		return -EINVAL;
	for (i = 0; i < KDRV_JOBS && !j; i++)
		if (!k->jobs[i].used)
			j = &k->jobs[i];
	if (!j)
		return -EBUSY;
	ret = kdev_stage(k, count);
	if (ret)
		return ret;
	for (i = 0; i < count; i++) {
		ret = e1npu_cmd_encode(engine, &ops[i], k->cmds + (size_t)i * size,
				       &k->relocs[nrel], i, &n);
		if (ret)
			return ret;
		nrel += n;
	}
	/* Dependencies still tracked wait on their points; others are done. */
	memset(in, 0, sizeof(in));
	for (i = 0; i < ndeps; i++) {
		d = kjob_find(k, deps[i]);
		if (d && !d->have_res) {
			in[nin].handle = k->timeline;
			in[nin++].point = d->point;
		}
	}
	memset(&out, 0, sizeof(out));
	out.handle = k->timeline;
	out.point = k->last_point + 1;

	memset(&job, 0, sizeof(job));
	job.cmds = (uintptr_t)k->cmds;
	job.cmd_count = count;
	job.relocs = (uintptr_t)k->relocs;
	job.reloc_count = nrel;
	job.in_syncs = (uintptr_t)in;
	job.in_sync_count = nin;
	job.out_syncs = (uintptr_t)&out;
	job.out_sync_count = 1;
	job.engine = engine;
	job.status_handle = k->status_bo;
	job.status_offset = (uint64_t)(j - k->jobs) * sizeof(*k->status);
	memset(&s, 0, sizeof(s));
	s.jobs = (uintptr_t)&job;
	s.job_count = 1;
	s.job_size = sizeof(job);
	s.reloc_size = sizeof(struct drm_e1npu_reloc);
	s.sync_size = sizeof(struct drm_e1npu_sync);
	ret = kioctl(k->fd, DRM_IOCTL_E1NPU_SUBMIT, &s);
	if (ret)
		return ret;
	k->last_point = out.point;
	memset(j, 0, sizeof(*j));
	j->used = true;
	j->point = out.point;
	*job_id = (uint32_t)out.point;
	return 0;
}

/* The job's fence signalled: its status record is final. */
static int kjob_settle(struct kdev *k, struct kjob *j)
{
	const volatile struct drm_e1npu_job_status *st =
		&k->status[j - k->jobs];

	memset(&j->res, 0, sizeof(j->res));
	j->res.job_id = (uint32_t)j->point;
	switch (st->state) {
	case DRM_E1NPU_JOB_STATE_DONE:
		j->res.state = E1NPU_HWJOB_DONE;
		j->res.ops_done = st->cmds_done;
		break;
	case DRM_E1NPU_JOB_STATE_FAILED:
		j->res.state = E1NPU_HWJOB_FAILED;
		j->res.error = st->error ? st->error : -EIO;
		j->res.err_code = st->err_code;
		j->res.fail_index = st->fail_index;
		j->res.ops_done = st->cmds_done;
		break;
	default:
		/* Signalled without an outcome: the kernel broke its word. */
		j->res.state = E1NPU_HWJOB_FAILED;
		j->res.error = -EIO;
		break;
	}
	j->have_res = true;
	return 0;
}

static int kdrv_wait(struct e1npu_device *dev, uint32_t job_id,
		     int64_t deadline_ns)
{
	struct kdev *k = to_kdev(dev);
	struct kjob *j = kjob_find(k, job_id);
	int ret;

	if (!j)
		return -ENOENT;
	if (j->have_res)
		return 0;
	ret = drmSyncobjTimelineWait(k->fd, &k->timeline, &j->point, 1,
				     deadline_ns < 0 ? INT64_MAX : deadline_ns,
				     DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT,
				     NULL);
	if (ret)
		ret = errno ? -errno : -EIO;
	if (ret == -ETIME || ret == -ETIMEDOUT)
		return -ETIME;
	if (ret)
		return ret;
	return kjob_settle(k, j);
}

static int kdrv_job_result(struct e1npu_device *dev, uint32_t job_id,
			   struct e1npu_hw_result *res)
{
	struct kdev *k = to_kdev(dev);
	struct kjob *j = kjob_find(k, job_id);

	memset(res, 0, sizeof(*res));
	res->job_id = job_id;
	if (!j)
		return -ENOENT;
	if (!j->have_res) {
		uint64_t point = j->point;

		/* Not waited for: done only if its point has signalled. */
		if (drmSyncobjTimelineWait(k->fd, &k->timeline, &point, 1, 0,
					   0, NULL)) {
			res->state = E1NPU_HWJOB_PENDING;
			return 0;
		}
		kjob_settle(k, j);
	}
	*res = j->res;
	j->used = false;
	return 0;
}

/* One sysfs counter; missing attributes read as 0. */
static uint64_t sysfs_u64(const struct kdev *k, const char *name)
{
	char path[192], buf[64];
	unsigned long long v = 0;
	FILE *f;

	if (!k->sysfs[0])
		return 0;
	snprintf(path, sizeof(path), "%s/%s", k->sysfs, name);
	f = fopen(path, "re");
	if (!f)
		return 0;
	if (fgets(buf, sizeof(buf), f))
		v = strtoull(buf, NULL, 0);
	fclose(f);
	return v;
}

static int kdrv_read_perf(struct e1npu_device *dev, struct e1npu_perf *p)
{
	struct kdev *k = to_kdev(dev);

	/* Documentation/ABI/testing/sysfs-driver-e1npu: <device>/perf/<name> */
	p->wrapper_cycles = sysfs_u64(k, "perf/cycles");
	p->wrapper_macs = sysfs_u64(k, "perf/macs");
	p->wrapper_fallbacks = sysfs_u64(k, "perf/fallbacks");
	p->dp_cycles = sysfs_u64(k, "perf/dp_cycles");
	p->dp_macs = sysfs_u64(k, "perf/dp_macs");
	p->dp_ops = sysfs_u64(k, "perf/dp_ops");
	p->dp_errors = sysfs_u64(k, "perf/dp_errors");
	p->dp_unsupported_ops = sysfs_u64(k, "perf/dp_unsupported_ops");
	p->dp_scratch_bytes = sysfs_u64(k, "perf/dp_scratch_bytes");
	return 0;
}

const struct e1npu_backend_funcs e1npu_backend_kernel = {
	.name = "kernel",
	.open = kdrv_open,
	.close = kdrv_close,
	.bo_create = kdrv_bo_create,
	.bo_free = kdrv_bo_free,
	.bo_map = kdrv_bo_map,
	.submit = kdrv_submit,
	.wait = kdrv_wait,
	.job_result = kdrv_job_result,
	.read_perf = kdrv_read_perf,
};
