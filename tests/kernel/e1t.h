/* SPDX-License-Identifier: MIT */
/*
 * e1npu system tests (guest side): helpers shared by the test groups.
 *
 * Everything goes through raw ioctl() on the accel node with the project's
 * UAPI header; nothing here links libdrm or libe1npu. Expected values come
 * from the naive CPU references in e1t_ref.c, never from the driver or the
 * device model.
 */
#ifndef E1T_H
#define E1T_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "e1npu_accel.h"

#define E1T_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

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

struct e1t_dev {
	int fd;
	struct drm_e1npu_dev_info info;
};

/* The accel node: $E1T_DEV, else the first /dev/accel/accel* of "e1npu". */
const char *e1t_dev_path(void);
int e1t_open(struct e1t_dev *d);
void e1t_close(struct e1t_dev *d);

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
int e1t_bo_free(struct e1t_dev *d, struct e1t_bo *bo);
/* BO_WAIT with a relative timeout; returns 0 or -errno */
int e1t_bo_wait(struct e1t_dev *d, uint32_t handle, int64_t timeout_ns);

/* ---- jobs --------------------------------------------------------------- */

/* Submit one job of @n ops on @engine; job id in *@job_id. 0 or -errno. */
int e1t_submit(struct e1t_dev *d, uint32_t engine,
	       const struct e1npu_hw_op *ops, uint32_t n, uint32_t *job_id);
/* Submit @njobs jobs at once (ids written back into jobs[].job_id). */
int e1t_submit_jobs(struct e1t_dev *d, struct drm_e1npu_job *jobs,
		    uint32_t njobs);
/* Poll JOB_RESULT until the job is no longer pending or @timeout_ms passed.
 * Returns 0 (result in *r) or -errno (-ETIMEDOUT: still pending). */
int e1t_job_wait(struct e1t_dev *d, uint32_t job_id, int timeout_ms,
		 struct e1npu_hw_result *r);
/* submit + wait; 0 when the job completed with state DONE; otherwise a
 * negative errno of the submit, or a positive value (see *r) */
int e1t_run(struct e1t_dev *d, uint32_t engine, const struct e1npu_hw_op *ops,
	    uint32_t n, struct e1npu_hw_result *r);

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

#endif /* E1T_H */
