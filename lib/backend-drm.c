// SPDX-License-Identifier: MIT
/*
 * The kernel backend: e1npu.ko through /dev/accel/accelN and libdrm.
 *
 * Buffers are GEM objects (BO_CREATE, mmap through BO_MMAP_OFFSET), a job
 * is one DRM_IOCTL_E1NPU_SUBMIT with an out syncobj waited for with
 * drmSyncobjWait(), its outcome comes from JOB_RESULT, perf counters from
 * the device's sysfs attributes (Documentation/ABI/testing/sysfs-driver-e1npu).
 * A job the driver cancels with -ECANCELED (it was queued behind a job
 * that hung; it never started) is resubmitted here, up to KDRV_RETRIES
 * times, under the caller's job id.
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
#define KDRV_SYNCS		64	/* jobs in flight per device handle */
#define KDRV_RETRIES		3	/* resubmissions of a cancelled job */

/*
 * One submitted job. @job_id is the id the caller knows (the first
 * submission's); @kid the kernel's id of the latest submission. The ops are
 * kept to resubmit a cancelled job; its final outcome waits in @res.
 */
struct kjob {
	uint32_t job_id;
	uint32_t kid;
	uint32_t syncobj;
	bool used;
	bool have_res;
	uint32_t engine;
	uint32_t count;
	unsigned int retries;
	struct drm_e1npu_op *ops;
	struct drm_e1npu_job_result res;
};

struct kdev {
	int fd;
	char sysfs[128];	/* /sys/dev/char/M:m/device, "" if unknown */
	struct kjob jobs[KDRV_SYNCS];
	uint32_t free_sync[KDRV_SYNCS];
	unsigned int nfree;
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
static bool is_e1npu(int fd)
{
	drmVersionPtr v = drmGetVersion(fd);
	bool ok;

	if (!v)
		return false;
	ok = v->name && !strcmp(v->name, KDRV_NAME);
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
	ok = is_e1npu(fd);
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
	bool wr, dp;
	int fd, ret;

	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (!is_e1npu(fd)) {
		close(fd);
		return -ENODEV;
	}
	ret = kdrv_query_info(fd, &info);
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
	if (info.max_ops_per_job && info.max_ops_per_job < dev->lim.max_ops_per_job)
		dev->lim.max_ops_per_job = info.max_ops_per_job;
	if (info.datapath_slots)
		dev->lim.datapath_slots = info.datapath_slots;
	snprintf(dev->info.path, sizeof(dev->info.path), "%s", path);
	snprintf(dev->info.driver, sizeof(dev->info.driver), KDRV_NAME);
	dev->info.driver_major = info.driver_major;
	dev->info.driver_minor = info.driver_minor;
	return 0;
}

static void kdrv_close(struct e1npu_device *dev)
{
	struct kdev *k = to_kdev(dev);
	unsigned int i;

	for (i = 0; i < KDRV_SYNCS; i++)
		if (k->jobs[i].used) {
			drmSyncobjDestroy(k->fd, k->jobs[i].syncobj);
			free(k->jobs[i].ops);
		}
	for (i = 0; i < k->nfree; i++)
		drmSyncobjDestroy(k->fd, k->free_sync[i]);
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

	for (i = 0; i < KDRV_SYNCS; i++)
		if (k->jobs[i].used && k->jobs[i].job_id == job_id)
			return &k->jobs[i];
	return NULL;
}

static void kjob_put(struct kdev *k, struct kjob *j)
{
	if (k->nfree < KDRV_SYNCS)
		k->free_sync[k->nfree++] = j->syncobj;
	else
		drmSyncobjDestroy(k->fd, j->syncobj);
	free(j->ops);
	j->ops = NULL;
	j->used = false;
}

/*
 * SUBMIT of one job waiting for the @nin syncobjs @in and signalling
 * @sync; the kernel's job id in *@kid.
 */
static int kjob_submit(struct kdev *k, const struct drm_e1npu_op *ops,
		       uint32_t count, uint32_t engine, const uint32_t *in,
		       uint32_t nin, uint32_t sync, uint32_t *kid)
{
	struct drm_e1npu_submit s;
	struct drm_e1npu_job job;
	int ret;

	memset(&job, 0, sizeof(job));
	job.ops = (uintptr_t)ops;
	job.op_count = count;
	job.engine = engine;
	job.in_syncs = (uintptr_t)in;
	job.in_sync_count = nin;
	job.out_sync = sync;
	memset(&s, 0, sizeof(s));
	s.jobs = (uintptr_t)&job;
	s.job_count = 1;
	s.job_size = sizeof(job);
	s.op_size = sizeof(*ops);
	ret = kioctl(k->fd, DRM_IOCTL_E1NPU_SUBMIT, &s);
	if (!ret)
		*kid = job.job_id;
	return ret;
}

static int kdrv_submit(struct e1npu_device *dev, const struct drm_e1npu_op *ops,
		       uint32_t count, uint32_t engine, const uint32_t *deps,
		       uint32_t ndeps, uint32_t *job_id)
{
	struct kdev *k = to_kdev(dev);
	struct drm_e1npu_op *copy;
	struct kjob *j = NULL, *d;
	uint32_t sync, kid, in[KDRV_SYNCS], nin = 0;
	unsigned int i;
	int ret;

	if (ndeps > KDRV_SYNCS)
		return -EINVAL;
	/* Dependencies still tracked wait on their syncobjs; others are done. */
	for (i = 0; i < ndeps; i++) {
		d = kjob_find(k, deps[i]);
		if (d && !d->have_res)
			in[nin++] = d->syncobj;
	}

	for (i = 0; i < KDRV_SYNCS && !j; i++)
		if (!k->jobs[i].used)
			j = &k->jobs[i];
	if (!j)
		return -EBUSY;
	copy = malloc((size_t)count * sizeof(*ops));
	if (!copy)
		return -ENOMEM;
	memcpy(copy, ops, (size_t)count * sizeof(*ops));
	if (k->nfree) {
		sync = k->free_sync[--k->nfree];
		ret = drmSyncobjReset(k->fd, &sync, 1);
		if (ret) {
			drmSyncobjDestroy(k->fd, sync);
			free(copy);
			return ret;
		}
	} else {
		ret = drmSyncobjCreate(k->fd, 0, &sync);
		if (ret) {
			free(copy);
			return ret;
		}
	}

	ret = kjob_submit(k, copy, count, engine, in, nin, sync, &kid);
	if (ret) {
		if (k->nfree < KDRV_SYNCS)
			k->free_sync[k->nfree++] = sync;
		else
			drmSyncobjDestroy(k->fd, sync);
		free(copy);
		return ret;
	}
	memset(j, 0, sizeof(*j));
	j->used = true;
	j->job_id = kid;
	j->kid = kid;
	j->syncobj = sync;
	j->engine = engine;
	j->count = count;
	j->ops = copy;
	*job_id = kid;
	return 0;
}

/*
 * The job's fence signalled: fetch its outcome. Cancelled (-ECANCELED: it
 * sat behind a job that hung and never started): submit it again and
 * report 1 (wait again); otherwise keep the outcome for job_result.
 */
static int kjob_settle(struct kdev *k, struct kjob *j)
{
	int ret;

	memset(&j->res, 0, sizeof(j->res));
	j->res.job_id = j->kid;
	ret = kioctl(k->fd, DRM_IOCTL_E1NPU_JOB_RESULT, &j->res);
	if (ret)
		return ret;
	if (j->res.state == DRM_E1NPU_JOB_PENDING)
		return 1;
	if (j->res.state == DRM_E1NPU_JOB_FAILED &&
	    j->res.error == -ECANCELED && j->retries < KDRV_RETRIES) {
		j->retries++;
		ret = drmSyncobjReset(k->fd, &j->syncobj, 1);
		if (!ret)
			/*
			 * Without its dependencies: they completed before it
			 * was cancelled (it was queued on its engine, past them).
			 */
			ret = kjob_submit(k, j->ops, j->count, j->engine,
					  NULL, 0, j->syncobj, &j->kid);
		if (!ret)
			return 1;
		/* Resubmission refused (device wedged, ...): report it. */
		j->res.error = ret;
	}
	j->res.job_id = j->job_id;
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
	while (!j->have_res) {
		ret = drmSyncobjWait(k->fd, &j->syncobj, 1,
				     deadline_ns < 0 ? INT64_MAX : deadline_ns,
				     DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT, NULL);
		if (ret == -ETIME || ret == -ETIMEDOUT)
			return -ETIME;
		if (ret)
			return ret;
		ret = kjob_settle(k, j);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static int kdrv_job_result(struct e1npu_device *dev, uint32_t job_id,
			   struct drm_e1npu_job_result *res)
{
	struct kdev *k = to_kdev(dev);
	struct kjob *j = kjob_find(k, job_id);
	int ret;

	if (j && j->have_res) {
		*res = j->res;
		kjob_put(k, j);
		return 0;
	}
	memset(res, 0, sizeof(*res));
	res->job_id = j ? j->kid : job_id;
	ret = kioctl(k->fd, DRM_IOCTL_E1NPU_JOB_RESULT, res);
	res->job_id = job_id;
	if (j && (ret || res->state != DRM_E1NPU_JOB_PENDING))
		kjob_put(k, j);
	return ret;
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
