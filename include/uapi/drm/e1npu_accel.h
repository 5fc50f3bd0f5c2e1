/* SPDX-License-Identifier: (GPL-2.0-only WITH Linux-syscall-note) OR MIT */
/*
 * UAPI of the e1 NPU DRM accel driver (e1npu.ko).
 *
 * Userspace never sees a device address: tensors are named as a buffer
 * object handle plus a byte offset and a row stride, and the kernel checks
 * every byte an operation touches against the buffers the calling file owns
 * before it writes a hardware descriptor.
 */
#ifndef _UAPI_E1NPU_ACCEL_H_
#define _UAPI_E1NPU_ACCEL_H_

#include "drm.h"

#if defined(__cplusplus)
extern "C" {
#endif

/**
 * DOC: e1npu ioctls
 *
 * Place new ioctls at the end, don't re-order, don't renumber.
 * Every struct has explicit padding; padding and reserved fields must be
 * zero (-EINVAL otherwise), unknown flags are rejected with -EINVAL.
 */

/**
 * DOC: e1npu submission errors
 *
 * DRM_IOCTL_E1NPU_SUBMIT copies every job and operation, then validates
 * each operation before anything is queued (kernel/e1npu_opcheck.c, shared
 * with libe1npu). The first failure is returned:
 *
 * - -EINVAL: unknown opcode or flag, a field the opcode does not use is
 *   non-zero, a zero dimension, a stride shorter than its row, an offset
 *   or stride not a multiple of the alignment (dev_info.align for wrapper
 *   ops; 4 bytes for datapath records and int32 outputs), an operation not
 *   of the job's engine, a bad job/submit header (@op_count 0 or above
 *   max_ops_per_job, non-zero flags or pad, @job_size or @op_size smaller
 *   than the structs or larger than the page size);
 * - -ERANGE: a shape outside the validated envelope reported by
 *   DRM_E1NPU_DEV_QUERY_INFO (or the datapath tile limits);
 * - -ENOENT: a buffer handle unknown to the submitting file (handles of
 *   other files are unknown), or handle 0 for a tensor the op uses;
 * - -EOVERFLOW: a tensor extent that overflows 64 bits or passes the end of
 *   its buffer;
 * - -ENODEV: the job's engine is not present;
 * - -EBUSY: the file already holds as many unread job results as the
 *   driver keeps per file (module parameter max_results, default 1024):
 *   read finished jobs with DRM_IOCTL_E1NPU_JOB_RESULT first; nothing of
 *   the SUBMIT was queued;
 * - -EFAULT: copying from userspace failed;
 * - -EIO: the device is wedged: after a reset the engine never went idle
 *   (it may still be writing memory), so it takes no more work until the
 *   driver is rebound.
 *
 * Datapath operations use no tensor stride for DP_SCALAR and DP_VRELU_S8
 * (records and bytes are packed; the stride must be 0).
 */
#define DRM_E1NPU_DEV_QUERY		0x00
#define DRM_E1NPU_BO_CREATE		0x01
#define DRM_E1NPU_BO_MMAP_OFFSET	0x02
#define DRM_E1NPU_BO_WAIT		0x03
#define DRM_E1NPU_SUBMIT		0x04
#define DRM_E1NPU_JOB_RESULT		0x05

/**
 * enum drm_e1npu_dev_query_type - what DRM_IOCTL_E1NPU_DEV_QUERY returns
 * @DRM_E1NPU_DEV_QUERY_INFO: struct drm_e1npu_dev_info
 */
enum drm_e1npu_dev_query_type {
	DRM_E1NPU_DEV_QUERY_INFO = 0,
};

/**
 * struct drm_e1npu_dev_query - extensible device query
 *
 * With @pointer zero the kernel only writes the size of the structure it
 * knows into @size. Otherwise it copies min(@size, its size) bytes to
 * @pointer, zero-filling what userspace knows beyond that, and writes the
 * size it copied into @size. A @size above the page size is -EINVAL.
 */
struct drm_e1npu_dev_query {
	/** @type: one of enum drm_e1npu_dev_query_type */
	__u32 type;
	/** @size: in: size of the buffer at @pointer; out: bytes written */
	__u32 size;
	/** @pointer: user pointer to the result, or 0 to ask the size */
	__u64 pointer;
};

/**
 * enum drm_e1npu_engine - the engines a job can run on
 * @DRM_E1NPU_ENGINE_WRAPPER: the v0 descriptor ring (Gemmini systolic
 *	array when CAPS.gemmini_present)
 * @DRM_E1NPU_ENGINE_DATAPATH: the e1 datapath small-op engine
 */
enum drm_e1npu_engine {
	DRM_E1NPU_ENGINE_WRAPPER = 0,
	DRM_E1NPU_ENGINE_DATAPATH = 1,
};

/**
 * struct drm_e1npu_dev_info - device identity, capabilities and envelope
 *
 * Fields are append-only.
 */
struct drm_e1npu_dev_info {
	/** @engines: bitmask of BIT(enum drm_e1npu_engine) present */
	__u32 engines;
	/** @wrapper_id: wrapper ID register, 0 when absent */
	__u32 wrapper_id;
	/** @wrapper_caps: wrapper CAPS register, 0 when absent */
	__u32 wrapper_caps;
	/** @datapath_id: datapath ID register, 0 when absent */
	__u32 datapath_id;
	/** @ring_len: wrapper descriptor ring length used by the driver */
	__u32 ring_len;
	/** @datapath_slots: usable datapath descriptor slots per batch */
	__u32 datapath_slots;
	/** @arena_size: bytes of tensor memory all buffers come from */
	__u64 arena_size;
	/** @max_ops_per_job: most operations one job may hold */
	__u32 max_ops_per_job;
	/** @align: required alignment of tensor offsets and strides, bytes */
	__u32 align;
	/** @max_matmul_mn: largest matmul M and N one operation may use */
	__u32 max_matmul_mn;
	/** @max_matmul_k: largest matmul K */
	__u32 max_matmul_k;
	/** @max_conv_hw: largest conv/pool input and output height/width */
	__u32 max_conv_hw;
	/** @max_conv_c: largest conv/pool channel count */
	__u32 max_conv_c;
	/** @conv_kernels: bitmask, BIT(k) set when a k x k kernel is valid */
	__u32 conv_kernels;
	/** @conv_strides: bitmask, BIT(s) set when stride s is valid */
	__u32 conv_strides;
	/** @max_conv_dilation: largest conv dilation */
	__u32 max_conv_dilation;
	/** @pool_windows: bitmask, BIT(w) set when a w x w window is valid */
	__u32 pool_windows;
	/** @pool_strides: bitmask, BIT(s) set when pool stride s is valid */
	__u32 pool_strides;
	/** @max_relu_mn: largest RELU rows and row length */
	__u32 max_relu_mn;
	/** @driver_major: driver version, major */
	__u32 driver_major;
	/** @driver_minor: driver version, minor */
	__u32 driver_minor;
};

/**
 * struct drm_e1npu_bo_create - allocate a buffer object from the arena
 *
 * Buffers are physically contiguous sub-allocations of the device's tensor
 * arena (the NPU has no IOMMU) and start zeroed. -ENOMEM when the arena
 * has no free range of the size, after waiting up to two seconds for jobs
 * that already finished to be freed (a job holds its buffers until then,
 * which trails its completion slightly); -ENOSPC when the buffers created through
 * this file would exceed the per-file quota (module parameter file_quota,
 * bytes, 0 = no limit below the arena size); freeing a buffer (once no job
 * uses it) gives its pages back to the quota.
 */
struct drm_e1npu_bo_create {
	/** @size: in: bytes, > 0; the kernel rounds up to a page */
	__u64 size;
	/** @flags: in: must be 0 */
	__u32 flags;
	/** @handle: out: GEM handle */
	__u32 handle;
};

/**
 * struct drm_e1npu_bo_mmap_offset - fake offset to mmap() a buffer
 */
struct drm_e1npu_bo_mmap_offset {
	/** @handle: in: GEM handle */
	__u32 handle;
	/** @pad: must be 0 */
	__u32 pad;
	/** @offset: out: offset to pass to mmap() on the device file */
	__u64 offset;
};

/**
 * struct drm_e1npu_bo_wait - wait until no job uses a buffer
 *
 * Returns 0 when idle, -ETIME when @timeout_ns passed first.
 */
struct drm_e1npu_bo_wait {
	/** @handle: in: GEM handle */
	__u32 handle;
	/** @pad: must be 0 */
	__u32 pad;
	/** @timeout_ns: absolute CLOCK_MONOTONIC deadline, nanoseconds */
	__s64 timeout_ns;
};

/**
 * struct drm_e1npu_tensor - where an operation's tensor lives
 *
 * The tensor occupies rows of bytes inside one buffer the calling file
 * owns: row r starts at @offset + r * @stride. Handle 0 means "no tensor"
 * and is only valid where the operation takes none.
 */
struct drm_e1npu_tensor {
	/** @handle: GEM handle of the buffer */
	__u32 handle;
	/** @stride: bytes between consecutive rows */
	__u32 stride;
	/** @offset: byte offset of row 0 in the buffer */
	__u64 offset;
};

/**
 * enum drm_e1npu_opcode - operations a job can hold
 * @DRM_E1NPU_OP_NOP: no operation (wrapper)
 * @DRM_E1NPU_OP_BARRIER: drain earlier operations (wrapper)
 * @DRM_E1NPU_OP_MATMUL_S8: C[m][n] int32 = A[m][k] int8 x B[k][n] int8
 *	(wrapper); @m, @n, @k
 * @DRM_E1NPU_OP_CONV2D_S8: NHWC convolution, int32 out (wrapper); @m = in
 *	height, @n = in width, @c_in, @c_out, @k = kernel size, @out_h,
 *	@out_w, @stride_h, @stride_w, @pad_top, @pad_left, @dilation; b is the
 *	[k*k*c_in][c_out] weight matrix
 * @DRM_E1NPU_OP_RELU_S8: int8 ReLU of @m rows of @n bytes (wrapper)
 * @DRM_E1NPU_OP_MAXPOOL_S8: NHWC int8 max pool, VALID (wrapper); @m, @n in
 *	height/width, @c_in channels, @k window, @stride_h stride
 * @DRM_E1NPU_OP_FALLBACK: always rejected by the hardware: a test hook for
 *	the CPU-fallback path (wrapper)
 * @DRM_E1NPU_OP_DP_SCALAR: @m scalar datapath commands of opcode @k
 *	(E1_DP_OP_*, not GEMM/VRELU); a holds @m records of three __u32
 *	{op_a, op_b, acc}, c receives @m records of two __u32
 *	{result, result_hi} (datapath)
 * @DRM_E1NPU_OP_DP_GEMM_S8: datapath GEMM tile, @m <= 3, @n <= 3, @k <= 7;
 *	a int8 [m][k], b int8 [k][n], c int32 [m][n] (datapath)
 * @DRM_E1NPU_OP_DP_GEMM_S4: as DP_GEMM_S8 with packed int4 a and b, low
 *	nibble first; their strides count int4 elements (datapath)
 * @DRM_E1NPU_OP_DP_VRELU_S8: int8 ReLU of @n <= 64 bytes from a to c
 *	(datapath)
 */
enum drm_e1npu_opcode {
	DRM_E1NPU_OP_NOP = 0,
	DRM_E1NPU_OP_BARRIER = 1,
	DRM_E1NPU_OP_MATMUL_S8 = 2,
	DRM_E1NPU_OP_CONV2D_S8 = 3,
	DRM_E1NPU_OP_RELU_S8 = 4,
	DRM_E1NPU_OP_MAXPOOL_S8 = 5,
	DRM_E1NPU_OP_FALLBACK = 6,
	DRM_E1NPU_OP_DP_SCALAR = 0x100,
	DRM_E1NPU_OP_DP_GEMM_S8 = 0x101,
	DRM_E1NPU_OP_DP_GEMM_S4 = 0x102,
	DRM_E1NPU_OP_DP_VRELU_S8 = 0x103,
};

/* Fuse a ReLU into MATMUL_S8 or CONV2D_S8. */
#define DRM_E1NPU_OP_FLAG_RELU		(1u << 0)
/* DP_SCALAR DOT16_S2: ternary lanes instead of two's-complement INT2. */
#define DRM_E1NPU_OP_FLAG_TERNARY	(1u << 1)
#define DRM_E1NPU_OP_FLAGS_ALL		(DRM_E1NPU_OP_FLAG_RELU | \
					 DRM_E1NPU_OP_FLAG_TERNARY)

/**
 * struct drm_e1npu_op - one operation of a job
 *
 * Fields an opcode does not use must be zero (see enum drm_e1npu_opcode).
 */
struct drm_e1npu_op {
	/** @opcode: enum drm_e1npu_opcode */
	__u32 opcode;
	/** @flags: DRM_E1NPU_OP_FLAG_* */
	__u32 flags;
	/** @m: matmul M, rows, conv/pool input height, scalar count */
	__u32 m;
	/** @n: matmul N, row bytes, conv/pool input width */
	__u32 n;
	/** @k: matmul K, kernel size, pool window, datapath scalar opcode */
	__u32 k;
	/** @c_in: conv input channels, pool channels */
	__u32 c_in;
	/** @c_out: conv output channels */
	__u32 c_out;
	/** @out_h: conv output height */
	__u32 out_h;
	/** @out_w: conv output width */
	__u32 out_w;
	/** @stride_h: conv vertical stride, pool stride */
	__u32 stride_h;
	/** @stride_w: conv horizontal stride */
	__u32 stride_w;
	/** @pad_top: conv top padding (bottom follows from @out_h) */
	__u32 pad_top;
	/** @pad_left: conv left padding (right follows from @out_w) */
	__u32 pad_left;
	/** @dilation: conv dilation, >= 1 */
	__u32 dilation;
	/** @a: input, activations */
	struct drm_e1npu_tensor a;
	/** @b: weights */
	struct drm_e1npu_tensor b;
	/** @c: output */
	struct drm_e1npu_tensor c;
};

/**
 * struct drm_e1npu_job - a list of operations for one engine
 *
 * Operations run in order; a job completes when all have, or at the first
 * that fails (see struct drm_e1npu_job_result).
 */
struct drm_e1npu_job {
	/** @ops: user pointer to @op_count operations of the submit's op_size */
	__u64 ops;
	/** @op_count: number of operations, 1..max_ops_per_job */
	__u32 op_count;
	/** @engine: enum drm_e1npu_engine; every op must belong to it */
	__u32 engine;
	/** @in_syncs: user pointer to @in_sync_count __u32 syncobj handles */
	__u64 in_syncs;
	/** @in_sync_count: syncobjs to wait for before the job runs */
	__u32 in_sync_count;
	/** @out_sync: syncobj handle to signal on completion, or 0 */
	__u32 out_sync;
	/** @flags: must be 0 */
	__u32 flags;
	/** @job_id: out: id for DRM_IOCTL_E1NPU_JOB_RESULT */
	__u32 job_id;
};

/**
 * struct drm_e1npu_submit - queue jobs
 *
 * @job_size and @op_size are the sizes of struct drm_e1npu_job and struct
 * drm_e1npu_op as userspace was built with, so both can grow (at most to
 * the page size). Jobs are validated before any is queued: on error nothing
 * runs.
 */
struct drm_e1npu_submit {
	/** @jobs: user pointer to @job_count jobs of @job_size bytes */
	__u64 jobs;
	/** @job_count: number of jobs, >= 1 */
	__u32 job_count;
	/** @job_size: sizeof(struct drm_e1npu_job) */
	__u32 job_size;
	/** @op_size: sizeof(struct drm_e1npu_op) */
	__u32 op_size;
	/** @pad: must be 0 */
	__u32 pad;
};

/**
 * enum drm_e1npu_job_state - where a job is
 * @DRM_E1NPU_JOB_PENDING: queued or running
 * @DRM_E1NPU_JOB_DONE: every operation completed
 * @DRM_E1NPU_JOB_FAILED: stopped at @fail_index, see @error
 */
enum drm_e1npu_job_state {
	DRM_E1NPU_JOB_PENDING = 0,
	DRM_E1NPU_JOB_DONE = 1,
	DRM_E1NPU_JOB_FAILED = 2,
};

/**
 * struct drm_e1npu_job_result - the outcome of a job
 *
 * @error is 0 or a negative errno:
 *
 * - -EOPNOTSUPP: the hardware rejected operation @fail_index under the
 *   CPU-fallback contract (run it on the CPU, then the rest of the job);
 * - -EFAULT: a bus error or a tensor outside the tensor window;
 * - -EIO: a wrapper queue overflow, a datapath command error, or the
 *   device wedged (the engine never went idle after a reset) while the
 *   job was queued or running;
 * - -ETIMEDOUT: the job ran past the scheduler timeout; the engine was
 *   flushed and reset (or a datapath command never completed);
 * - -ECANCELED: the job never started: it was queued on the engine behind
 *   a job that timed out, and the reset dropped it (nothing of it ran, its
 *   buffers are as before). Submit it again; libe1npu does so itself;
 * - -ENODEV: the device was removed.
 *
 * On failure @ops_done == @fail_index: operations before it completed,
 * none after it ran.
 * Outcomes of the jobs of each file (pending ones too) are kept until read
 * or until the file closes, at most max_results of them (SUBMIT fails with
 * -EBUSY beyond); a job id that is unknown or was already read gives
 * -ENOENT.
 */
struct drm_e1npu_job_result {
	/** @job_id: in: from struct drm_e1npu_job */
	__u32 job_id;
	/** @state: out: enum drm_e1npu_job_state */
	__u32 state;
	/** @error: out: 0 or negative errno */
	__s32 error;
	/**
	 * @err_code: out: wrapper STATUS.err_code (0x01-0x07), or for the
	 * datapath the CTRL_STATUS of the failing command (direct mode)
	 */
	__u32 err_code;
	/** @fail_index: out: index of the first failing operation */
	__u32 fail_index;
	/** @ops_done: out: operations that completed */
	__u32 ops_done;
};

#define DRM_IOCTL_E1NPU_DEV_QUERY \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_E1NPU_DEV_QUERY, struct drm_e1npu_dev_query)
#define DRM_IOCTL_E1NPU_BO_CREATE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_E1NPU_BO_CREATE, struct drm_e1npu_bo_create)
#define DRM_IOCTL_E1NPU_BO_MMAP_OFFSET \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_E1NPU_BO_MMAP_OFFSET, \
		 struct drm_e1npu_bo_mmap_offset)
#define DRM_IOCTL_E1NPU_BO_WAIT \
	DRM_IOW(DRM_COMMAND_BASE + DRM_E1NPU_BO_WAIT, struct drm_e1npu_bo_wait)
#define DRM_IOCTL_E1NPU_SUBMIT \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_E1NPU_SUBMIT, struct drm_e1npu_submit)
#define DRM_IOCTL_E1NPU_JOB_RESULT \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_E1NPU_JOB_RESULT, \
		 struct drm_e1npu_job_result)

#if defined(__cplusplus)
}
#endif

#endif /* _UAPI_E1NPU_ACCEL_H_ */
