/* SPDX-License-Identifier: MIT */
/*
 * e1npu system tests (guest side): helpers shared by the test groups.
 *
 * Everything goes through raw ioctl() on the accel node with the project's
 * UAPI header; nothing here links libdrm or libe1npu. Operations become
 * hardware commands through the shared encoder (e1npu_cmd_encode() of
 * hw/e1npu_opcheck.c, what libe1npu uses); expected values come from
 * the naive CPU references in e1t_ref.c, never from the driver or the
 * device model.
 */
#ifndef E1T_H
#define E1T_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "e1npu_accel.h"
#include "e1npu_opcheck.h"

#define E1T_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
/* perf counters the UAPI defines (enum drm_e1npu_perf_counter, from 0) */
#define E1T_PERF_NUM (DRM_E1NPU_PERF_DP_SCRATCH_BYTES + 1)

/* Upper bound for any job to finish (TCG is slow; the hang test waits out
 * the driver's timeout). */
#define E1T_JOB_TIMEOUT_MS 60000

/* ---- reporting ---------------------------------------------------------- */

/* "E1VM: PASS name", also appended to $E1VM_RESULTS (see tests/vm lib.sh) */
void e1t_pass(const char *name);
/* "E1VM: FAIL name reason" */
void e1t_fail(const char *name, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void e1t_skip(const char *name, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* diagnostics: "E1VM-LOG: ..." */
void e1t_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* number of failures reported by this process */
extern int e1t_failures;

/* ---- device ------------------------------------------------------------- */

/*
 * Jobs submitted through e1t_submit*() get a status record in a buffer of
 * the helper (E1T_SLOTS records of E1T_STATUS_STRIDE bytes, one page,
 * created at the first such submit), signal a point of the helper's
 * timeline syncobj, and signal the binary syncobj of their record's slot,
 * whose fence gives the job's fence error (sync_file status). At most
 * E1T_SLOTS such jobs may be waiting to be waited for at once.
 */
#define E1T_SLOTS		128
#define E1T_STATUS_STRIDE	32
#define E1T_STATUS_BO_SIZE	4096

struct e1t_dev {
	int fd;
	struct drm_e1npu_dev_info info;
	/* job tracking (e1t_submit*()), set up at the first tracked submit */
	uint32_t timeline;
	uint64_t last_point;
	uint32_t status_handle;
	uint8_t *status_map;
	uint32_t slot_sync[E1T_SLOTS];
	uint64_t slot_point[E1T_SLOTS];
	/* set before the first tracked submit: no status buffer, jobs name
	 * none, the outcome comes from the fence alone (cmds_done,
	 * fail_index, err_code read as E1T_UNKNOWN) */
	bool fence_only;
};

#define E1T_UNKNOWN	0xffffffffu

/* The accel node: $E1T_DEV, else the first /dev/accel/accel* of "e1npu". */
const char *e1t_dev_path(void);
int e1t_open(struct e1t_dev *d);
/* closes the file (and with it everything the helper created) */
void e1t_close(struct e1t_dev *d);
/* Set up job tracking now (status buffer, syncobjs); 0 or -errno. */
int e1t_jobs_init(struct e1t_dev *d);
/* Give the status buffer and syncobjs back (jobs in flight keep their
 * references); the next tracked submit sets them up again. */
void e1t_jobs_release(struct e1t_dev *d);

/* ioctl() retried on EINTR; returns 0 or -errno */
int e1t_ioctl(int fd, unsigned long req, void *arg);

/* ---- buffers ------------------------------------------------------------ */

struct e1t_bo {
	uint32_t handle;
	uint64_t size;
	uint8_t *map;
};

/* create + mmap; returns 0 or -errno */
int e1t_bo_new(struct e1t_dev *d, uint64_t size, struct e1t_bo *bo);
/* the same with BO_CREATE flags (DRM_E1NPU_BO_HOST) */
int e1t_bo_new_flags(struct e1t_dev *d, uint64_t size, uint32_t flags,
		     struct e1t_bo *bo);
int e1t_bo_free(struct e1t_dev *d, struct e1t_bo *bo);
/* BO_WAIT with a relative timeout; returns 0 or -errno */
int e1t_bo_wait(struct e1t_dev *d, uint32_t handle, int64_t timeout_ns);

/* ---- syncobjs ----------------------------------------------------------- */

/* 0 or -errno; @signaled: created signalled */
int e1t_syncobj_create(struct e1t_dev *d, uint32_t *handle, bool signaled);
int e1t_syncobj_destroy(struct e1t_dev *d, uint32_t handle);
/* DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT for all points (flags WAIT_ALL plus
 * @flags); relative timeout; 0, -ETIME or -errno */
int e1t_timeline_wait(struct e1t_dev *d, const uint32_t *handles,
		      const uint64_t *points, uint32_t n, uint32_t flags,
		      int timeout_ms);
/* signal @point of timeline @handle from the CPU */
int e1t_timeline_signal(struct e1t_dev *d, uint32_t handle, uint64_t point);
/* the timeline's last signalled point into *@point */
int e1t_timeline_query(struct e1t_dev *d, uint32_t handle, uint64_t *point);
/*
 * The status of the fence in binary syncobj @handle, from a sync_file
 * exported from it: 1 signalled, 0 not yet, < 0 signalled with that
 * error; -errno of the export otherwise (in *@status, return 0 or -errno).
 */
int e1t_syncobj_fence_status(struct e1t_dev *d, uint32_t handle,
			     int *status);

/* ---- jobs --------------------------------------------------------------- */

/*
 * Operations to commands: e1npu_cmd_encode() of each op into *@cmds
 * (malloc'ed, e1npu_cmd_size(@engine) bytes each) and its relocations into
 * *@relocs (malloc'ed, *@nrelocs of them). 0 or -EINVAL/-ENOMEM.
 */
int e1t_encode(uint32_t engine, const struct e1npu_hw_op *ops, uint32_t n,
	       void **cmds, struct drm_e1npu_reloc **relocs, uint32_t *nrelocs);

/* What one tracked job is. */
struct e1t_submit_args {
	uint32_t engine;
	/* either operations, encoded by the helper (e1t_encode()) ... */
	const struct e1npu_hw_op *ops;
	uint32_t nops;
	/* ... or commands and relocations as the caller built them */
	const void *cmds;
	uint32_t cmd_count;
	const struct drm_e1npu_reloc *relocs;
	uint32_t reloc_count;
	/* points to wait for, and more to signal besides the helper's */
	const struct drm_e1npu_sync *in_syncs;
	uint32_t in_sync_count;
	const struct drm_e1npu_sync *out_syncs;
	uint32_t out_sync_count;
	uint32_t perfmon_id;
};

/* A tracked job: its timeline point and status slot. */
struct e1t_job {
	uint64_t point;
	uint32_t slot;
};

/* The outcome of a tracked job. */
struct e1t_result {
	uint32_t state;		/* status record: DRM_E1NPU_JOB_STATE_* */
	int32_t error;		/* status record: 0 or -errno */
	uint32_t cmds_done;
	uint32_t fail_index;
	uint32_t err_code;
	int32_t fence_error;	/* the fence's: 0 or -errno */
};

/* One tracked job; 0 or the SUBMIT's -errno. */
int e1t_submit_ex(struct e1t_dev *d, const struct e1t_submit_args *a,
		  struct e1t_job *job);
/* One tracked job of @n ops on @engine. 0 or -errno. */
int e1t_submit(struct e1t_dev *d, uint32_t engine,
	       const struct e1npu_hw_op *ops, uint32_t n, struct e1t_job *job);
/* One tracked job of caller-built commands and relocations. */
int e1t_submit_cmds(struct e1t_dev *d, uint32_t engine, const void *cmds,
		    uint32_t cmd_count, const struct drm_e1npu_reloc *relocs,
		    uint32_t reloc_count, struct e1t_job *job);
/*
 * Untracked: DRM_IOCTL_E1NPU_SUBMIT of @njobs jobs exactly as given, with
 * the given struct sizes (0: the sizes of this build). 0 or -errno.
 */
int e1t_submit_jobs(struct e1t_dev *d, const void *jobs, uint32_t njobs,
		    uint32_t job_size, uint32_t reloc_size, uint32_t sync_size);
/* A copy of a tracked job's status record as it is now. */
void e1t_job_status(const struct e1t_dev *d, const struct e1t_job *job,
		    struct drm_e1npu_job_status *st);
/*
 * Wait for the job's timeline point (at most @timeout_ms), then read its
 * status record and its fence's error into *@r. 0; -ETIMEDOUT (not
 * signalled); -EBADMSG when the record and the fence disagree (a record
 * still QUEUED, errors that differ, DONE with an error or FAILED without
 * one: logged); -errno.
 */
int e1t_job_wait(struct e1t_dev *d, const struct e1t_job *job, int timeout_ms,
		 struct e1t_result *r);
/* submit + wait; 0 when the job completed with state DONE and no error;
 * otherwise a negative errno of the submit or the wait, or 1 (see *r) */
int e1t_run(struct e1t_dev *d, uint32_t engine, const struct e1npu_hw_op *ops,
	    uint32_t n, struct e1t_result *r);

static inline struct e1npu_hw_tensor e1t_t(const struct e1t_bo *bo,
					    uint64_t offset, uint32_t stride)
{
	struct e1npu_hw_tensor t = { bo->handle, stride, offset };

	return t;
}

/* ---- files and device properties ---------------------------------------- */

/* Write @val to a sysfs/proc file, or read one into @buf (trailing newline
 * and spaces dropped); 0 or -errno. */
int e1t_write_file(const char *path, const char *val);
int e1t_read_file(const char *path, char *buf, size_t len);
/*
 * The e1 NPU of the QEMU board is a QEMU device; its fault injection and
 * DMA isolation counters are QOM properties of /machine/e1npu, set and read
 * at run time through QEMU's QMP monitor by the guest tool
 * $E1VM_QMP (default /tests/e1vm-qmp): "e1vm-qmp set NAME VALUE",
 * "e1vm-qmp get NAME" (tests/vm/guest/e1vm-qmp.c).
 */
/* set property @name to @val; 0, -EIO (QMP refused it: message on stderr),
 * -EINVAL (usage or channel error) or -errno of the spawn */
int e1t_dev_set(const char *name, const char *val);
/* read property @name into @buf (bools read 1/0); 0 or as e1t_dev_set */
int e1t_dev_get(const char *name, char *buf, size_t len);
/* an integer property, or -1 when it cannot be read */
long long e1t_dev_get_ll(const char *name);
/* The platform device (sysfs) behind the accel node @dev_path, e.g.
 * /sys/class/accel/accel0/device; 0 or -errno. */
int e1t_dev_sysfs(const char *dev_path, char *buf, size_t len);

/* ---- data and CPU references (e1t_ref.c) -------------------------------- */

uint32_t e1t_rand(uint32_t *state);
void e1t_fill_s8(uint8_t *p, size_t n, uint32_t *state);
/* round @v up to a multiple of @a (a power of two) */
static inline uint64_t e1t_align(uint64_t v, uint64_t a)
{
	return (v + a - 1) & ~(a - 1);
}
uint64_t e1t_now_ns(void);
/* uevents (e1t_uevent.c): a NETLINK_KOBJECT_UEVENT socket, fd or -errno */
int e1t_uevent_open(void);
/* the next uevent with the fields KV1 and KV2 (KEY=VALUE; KV2 may be NULL)
 * and a field starting with PREFIX (may be NULL) within TIMEOUT_MS: 0 (its
 * header, "ACTION@DEVPATH", copied to FOUND) or -ETIME */
int e1t_uevent_wait(int fd, const char *kv1, const char *kv2,
		    const char *prefix, int timeout_ms, char *found,
		    size_t found_len);
void e1t_sleep_ms(int ms);

void e1t_ref_matmul(const int8_t *a, uint32_t as, const int8_t *b, uint32_t bs,
		    int32_t *c, uint32_t cs_elems, uint32_t m, uint32_t n,
		    uint32_t k, bool relu);
struct e1t_conv {
	uint32_t in_h, in_w, c_in, c_out, k, out_h, out_w;
	uint32_t stride_h, stride_w, pad_top, pad_left, dilation;
	bool relu;
};
/* a: row (h) stride @as bytes; w: @ws bytes per weight row; c: int32,
 * @cs bytes per output row */
void e1t_ref_conv2d(const struct e1t_conv *p, const int8_t *a, uint32_t as,
		    const int8_t *w, uint32_t ws, uint8_t *c, uint32_t cs);
void e1t_ref_maxpool(const int8_t *a, uint32_t as, uint32_t in_h,
		     uint32_t in_w, uint32_t ch, uint32_t win, uint32_t stride,
		     int8_t *c, uint32_t cs);
void e1t_ref_relu(const int8_t *a, uint32_t as, int8_t *c, uint32_t cs,
		  uint32_t m, uint32_t n);

/* Compare @len bytes; on mismatch report the first one. Returns true if
 * equal. */
bool e1t_expect_bytes(const char *name, const void *got, const void *want,
		      size_t len);
bool e1t_expect_i32(const char *name, const int32_t *got, const int32_t *want,
		    size_t n);

/* ---- test groups -------------------------------------------------------- */

int e1t_group_basic(void);	/* DEV_QUERY, BO lifecycle */
int e1t_group_ops(void);	/* matmul, conv2d, maxpool, relu, datapath */
int e1t_group_ring(void);	/* ring wrap-around */
int e1t_group_dp(void);		/* datapath scalar, GEMM tile, VRELU */
int e1t_group_multi(void);	/* two processes */
int e1t_group_neg(void);	/* rejected submits */
int e1t_group_fault_bus(void);
int e1t_group_fault_hang(void);
int e1t_group_fault_irq(void);
int e1t_group_fallback(void);
int e1t_group_nogemmini(void);
int e1t_group_inflight(int argc, char **argv);
int e1t_group_job(int argc, char **argv);	/* one job after a rebind */
int e1t_group_harden(int argc, char **argv);	/* issue 9 checks */
int e1t_group_recover(void);	/* timeout, flush, wedge, long jobs */
int e1t_group_sync(void);	/* timeline syncs, status records */
int e1t_group_perfmon(void);	/* perfmon counters */
int e1t_group_unpriv(void);	/* an unprivileged client's isolation */

#endif /* E1T_H */
