/* SPDX-License-Identifier: (GPL-2.0-only WITH Linux-syscall-note) OR MIT */
/*
 * UAPI of the e1 NPU DRM accel driver (e1npu.ko), version 1.0.
 *
 * Userspace submits the hardware's own command formats: 64-byte wrapper
 * descriptors and datapath commands, with their address fields left zero
 * and a relocation list that names, for each address field, a buffer
 * object handle and a byte offset. The kernel copies the stream once,
 * resolves every relocation, checks every byte the command touches against
 * the buffers the calling file owns and writes the device addresses itself:
 * userspace never sees one.
 */
#ifndef _UAPI_E1NPU_ACCEL_H_
#define _UAPI_E1NPU_ACCEL_H_

#include "drm.h"

#if defined(__cplusplus)
extern "C" {
#endif

/**
 * DOC: e1npu UAPI versions
 *
 * DRM_IOCTL_VERSION reports 1.0. A backwards-compatible addition (a new
 * ioctl, a field appended to a struct, a new flag) raises the minor
 * number. Place new ioctls at the end, don't re-order, don't renumber.
 * Every struct has explicit padding; padding and reserved fields must be
 * zero (-EINVAL otherwise), unknown flags are rejected with -EINVAL.
 */

/**
 * DOC: e1npu submission errors
 *
 * DRM_IOCTL_E1NPU_SUBMIT copies every job, command and relocation, then
 * validates each command and adds every job's dependencies (in-syncs, the
 * fences on its buffers, the jobs of the same SUBMIT before it) before
 * anything is queued (the rules are shared with libe1npu). The first
 * failure is returned; nothing of the SUBMIT is queued then (all or
 * nothing, whichever step failed):
 *
 * - -EINVAL: a bad header (zero or too many commands, a size smaller than
 *   the struct or larger than the page size, non-zero flags or pad); a
 *   relocation naming a DRM_E1NPU_BO_HOST buffer; a
 *   command the hardware contract does not define, a reserved bit or a
 *   word the kernel owns (addresses, tag, irq_on_complete) set; a
 *   relocation naming a command or field out of range, a field the
 *   command does not use, or a field twice; a tensor the command uses
 *   without its relocation; a zero dimension, a stride shorter than its
 *   row, an offset or stride not a multiple of the alignment;
 * - -ERANGE: a shape outside the envelope of DRM_E1NPU_DEV_QUERY_INFO;
 * - -ENOENT: a buffer, syncobj or perfmon handle unknown to the file;
 * - -EOVERFLOW: a tensor extent that overflows 64 bits or passes the end
 *   of its buffer, or a status record past the end of its buffer;
 * - -ENODEV: the job's engine is not present;
 * - -EFAULT: copying from userspace failed;
 * - -EIO: the device is wedged (after a reset the engine never went idle,
 *   so it may still write memory): it takes no work until rebound;
 * - -ENOMEM: the kernel could not allocate a job or its dependencies.
 *
 * An in-sync's timeline point is the full 64-bit value of
 * &drm_e1npu_sync.point; the point must already have a fence (be
 * submitted or signalled), else -EINVAL.
 */

/**
 * DOC: e1npu job completion
 *
 * A job's outcome is the error of its fence (its out-syncobjs and the
 * implicit fences on its buffers), 0 on success:
 *
 * - -EOPNOTSUPP: the hardware rejected one command under the CPU-fallback
 *   contract; the commands before it completed, none after it ran;
 * - -EFAULT: a bus error or a tensor outside the tensor window;
 * - -EIO: a wrapper queue overflow, a datapath command error, or the
 *   device wedged while the job was queued or running;
 * - -ETIMEDOUT: the job ran past the scheduler timeout; the engine was
 *   reset. The jobs queued on the engine behind it had not started (an
 *   engine runs one job at a time); they run after the reset;
 * - -ENODEV: the device was removed.
 *
 * Which command failed and the hardware's code are written, when the job
 * names one, into its status record (struct drm_e1npu_job_status) before
 * the fence signals.
 */

#define DRM_E1NPU_DEV_QUERY		0x00
#define DRM_E1NPU_BO_CREATE		0x01
#define DRM_E1NPU_BO_MMAP_OFFSET	0x02
#define DRM_E1NPU_BO_WAIT		0x03
#define DRM_E1NPU_SUBMIT		0x04
#define DRM_E1NPU_PERFMON_CREATE	0x05
#define DRM_E1NPU_PERFMON_DESTROY	0x06
#define DRM_E1NPU_PERFMON_GET_VALUES	0x07

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
 *	array when CAPS.gemmini_present); commands are 64-byte descriptors
 * @DRM_E1NPU_ENGINE_DATAPATH: the e1 datapath small-op engine; commands
 *	are struct drm_e1npu_dp_cmd
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
	/** @datapath_slots: most datapath commands of one job */
	__u32 datapath_slots;
	/** @arena_size: bytes of tensor memory all buffers come from */
	__u64 arena_size;
	/** @max_cmds_per_job: most commands one job may hold */
	__u32 max_cmds_per_job;
	/** @align: required alignment of tensor offsets and strides, bytes */
	__u32 align;
	/** @max_matmul_mn: largest matmul M and N one descriptor may use */
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
};

/**
 * struct drm_e1npu_bo_create - allocate a buffer object from the arena
 *
 * Buffers are physically contiguous sub-allocations of the device's tensor
 * arena (the NPU has no IOMMU) and start zeroed. -ENOMEM when the arena
 * has no free range of the size, after waiting up to two seconds for jobs
 * that already finished to be freed; -ENOSPC when the buffers created
 * through this file would exceed the per-file quota (module parameter
 * file_quota, bytes, 0 = no limit below the arena size).
 *
 * With DRM_E1NPU_BO_HOST the buffer is system memory the NPU cannot
 * address (at most DRM_E1NPU_BO_HOST_MAX bytes, outside the arena and its
 * quota): a home for status records that takes no tensor memory. A
 * relocation naming it is -EINVAL. Host buffers are charged to the memory
 * cgroup of the creating process (-ENOMEM past its limit) and are bounded:
 * -ENOSPC when the host buffers created through this file would exceed
 * the module parameter host_file_max (bytes, default 16 MiB), or those of
 * every file of the device host_dev_max (bytes, default 256 MiB). A
 * refused BO_CREATE creates and charges nothing; freeing a buffer gives
 * its bytes back.
 */
struct drm_e1npu_bo_create {
	/** @size: in: bytes, > 0; the kernel rounds up to a page */
	__u64 size;
	/** @flags: in: 0 or DRM_E1NPU_BO_HOST */
	__u32 flags;
	/** @handle: out: GEM handle */
	__u32 handle;
};

/* Buffer of CPU memory for status records, not device-addressable. */
#define DRM_E1NPU_BO_HOST		(1u << 0)
/* Largest DRM_E1NPU_BO_HOST buffer, bytes. */
#define DRM_E1NPU_BO_HOST_MAX		(1u << 20)

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
 * DOC: e1npu wrapper commands
 *
 * A wrapper job's commands are v0 descriptors exactly as the hardware
 * fetches them: 16 32-bit words in CPU byte order (the hardware contract,
 * "Descriptor format"). The kernel owns words 4-9 (the A, B and C
 * addresses, filled from the relocations), word 15 (the completion tag)
 * and the irq_on_complete flag: userspace leaves them zero. Every other
 * bit is checked against the contract, CAPS and the envelope of
 * struct drm_e1npu_dev_info; a descriptor whose reserved bits are set is
 * rejected, so a feature of new hardware needs no new UAPI, only a new
 * rule. Relocation fields: DRM_E1NPU_RELOC_A, _B, _C for the descriptor's
 * A, B and C operands; the row strides are the descriptor's own words.
 */

/* Bytes of one wrapper command (a v0 descriptor). */
#define DRM_E1NPU_WRAPPER_CMD_SIZE	64

/**
 * struct drm_e1npu_dp_cmd - one datapath command
 *
 * The datapath has no DMA for its operands: the kernel programs its
 * registers from the buffers the relocations name and reads the results
 * back into them. The fields are the register values of the hardware
 * contract ("The e1 datapath"): a new opcode needs no new UAPI.
 *
 * - Scalar opcodes (not GEMM_S8, GEMM_S4, VRELU_S8): @count commands; the
 *   input (DRM_E1NPU_RELOC_A) holds @count records of three __u32
 *   {OP_A, OP_B, ACC}, the output (DRM_E1NPU_RELOC_C) receives @count
 *   records of two __u32 {RESULT, RESULT_HI}; strides are 0.
 * - GEMM_S8 / GEMM_S4: @cfg is the GEMM_CFG register (M <= 3, N <= 3,
 *   K <= 7); A int8 [M][K] (or packed int4, low nibble first, strides in
 *   int4 elements), B [K][N], C int32 [M][N]; @count is 1.
 * - VRELU_S8: @cfg is the VRELU length field (1..64 bytes, 0 encodes 64),
 *   from A to C; @count is 1, strides 0.
 */
struct drm_e1npu_dp_cmd {
	/** @opcode: the OPCODE register (E1_DP_OP_*) */
	__u32 opcode;
	/** @param: CMD_PARAM bits: only ternary (bit 1, DOT16_S2) */
	__u32 param;
	/** @cfg: GEMM_CFG (GEMM) or the VRELU length, 0 for scalar ops */
	__u32 cfg;
	/** @count: scalar commands in the input; 1 otherwise */
	__u32 count;
	/** @stride: row strides of A, B, C in their buffers, bytes */
	__u32 stride[3];
	/** @pad: must be 0 */
	__u32 pad;
};

/**
 * enum drm_e1npu_reloc_field - the address field a relocation fills
 * @DRM_E1NPU_RELOC_A: input (wrapper words 4-5)
 * @DRM_E1NPU_RELOC_B: weights (wrapper words 6-7)
 * @DRM_E1NPU_RELOC_C: output (wrapper words 8-9)
 */
enum drm_e1npu_reloc_field {
	DRM_E1NPU_RELOC_A = 0,
	DRM_E1NPU_RELOC_B = 1,
	DRM_E1NPU_RELOC_C = 2,
};

/**
 * struct drm_e1npu_reloc - where one address field of a command points
 *
 * Each tensor a command uses needs exactly one relocation; the command's
 * extent from @offset must lie inside the buffer.
 */
struct drm_e1npu_reloc {
	/** @cmd: index of the command in the job */
	__u32 cmd;
	/** @field: enum drm_e1npu_reloc_field */
	__u32 field;
	/** @handle: GEM handle of a buffer of the calling file */
	__u32 handle;
	/** @pad: must be 0 */
	__u32 pad;
	/** @offset: byte offset of the tensor in the buffer */
	__u64 offset;
};

/**
 * struct drm_e1npu_sync - a syncobj and, for a timeline, its point
 */
struct drm_e1npu_sync {
	/** @handle: syncobj handle */
	__u32 handle;
	/** @flags: must be 0 */
	__u32 flags;
	/** @point: timeline point, 0 for a binary syncobj */
	__u64 point;
};

/**
 * enum drm_e1npu_job_state - state word of struct drm_e1npu_job_status
 * @DRM_E1NPU_JOB_STATE_QUEUED: written at SUBMIT: not finished
 * @DRM_E1NPU_JOB_STATE_DONE: every command completed
 * @DRM_E1NPU_JOB_STATE_FAILED: stopped at @fail_index (see @error)
 */
enum drm_e1npu_job_state {
	DRM_E1NPU_JOB_STATE_QUEUED = 0,
	DRM_E1NPU_JOB_STATE_DONE = 1,
	DRM_E1NPU_JOB_STATE_FAILED = 2,
};

/**
 * struct drm_e1npu_job_status - per-command outcome, in a buffer
 *
 * Written by the kernel into the buffer struct drm_e1npu_job names, once
 * at SUBMIT (@state QUEUED) and once before the job's fence signals.
 */
struct drm_e1npu_job_status {
	/** @state: enum drm_e1npu_job_state */
	__u32 state;
	/** @error: 0 or the fence's negative errno */
	__s32 error;
	/** @cmds_done: commands that completed */
	__u32 cmds_done;
	/** @fail_index: the failing command when FAILED (== @cmds_done) */
	__u32 fail_index;
	/**
	 * @err_code: wrapper STATUS.err_code (0x01-0x07), or the datapath's
	 * CTRL_STATUS of the failing command
	 */
	__u32 err_code;
	/** @pad: written as 0 */
	__u32 pad;
};

/**
 * struct drm_e1npu_job - commands for one engine
 *
 * Commands run in order; a job completes when all have, or at the first
 * that fails (see "e1npu job completion").
 */
struct drm_e1npu_job {
	/** @cmds: user pointer to @cmd_count commands of the engine's format */
	__u64 cmds;
	/** @relocs: user pointer to @reloc_count struct drm_e1npu_reloc */
	__u64 relocs;
	/** @in_syncs: user pointer to @in_sync_count struct drm_e1npu_sync */
	__u64 in_syncs;
	/** @out_syncs: user pointer to @out_sync_count struct drm_e1npu_sync */
	__u64 out_syncs;
	/** @cmd_count: commands, 1..max_cmds_per_job */
	__u32 cmd_count;
	/** @reloc_count: relocations, at most 3 per command */
	__u32 reloc_count;
	/** @in_sync_count: syncobj points to wait for, at most 64 */
	__u32 in_sync_count;
	/** @out_sync_count: syncobj points to signal, at most 64 */
	__u32 out_sync_count;
	/** @engine: enum drm_e1npu_engine */
	__u32 engine;
	/** @flags: must be 0 */
	__u32 flags;
	/**
	 * @status_handle: buffer receiving a struct drm_e1npu_job_status at
	 * @status_offset (8-byte aligned), or 0 for none; typically a
	 * DRM_E1NPU_BO_HOST buffer
	 */
	__u32 status_handle;
	/** @perfmon_id: perfmon to count the job's work in, or 0 */
	__u32 perfmon_id;
	/** @status_offset: byte offset of the status record */
	__u64 status_offset;
};

/**
 * struct drm_e1npu_submit - queue jobs
 *
 * The sizes are those of the structs userspace was built with, so they
 * can grow (at most to the page size; a larger kernel struct reads the
 * missing tail as zero). Jobs are validated before any is queued.
 */
struct drm_e1npu_submit {
	/** @jobs: user pointer to @job_count jobs of @job_size bytes */
	__u64 jobs;
	/** @job_count: number of jobs, 1..64 */
	__u32 job_count;
	/** @job_size: sizeof(struct drm_e1npu_job) */
	__u32 job_size;
	/** @reloc_size: sizeof(struct drm_e1npu_reloc) */
	__u32 reloc_size;
	/** @sync_size: sizeof(struct drm_e1npu_sync) */
	__u32 sync_size;
};

/**
 * enum drm_e1npu_perf_counter - counters a perfmon can count
 * @DRM_E1NPU_PERF_WRAPPER_CYCLES: wrapper PERF_CYCLES
 * @DRM_E1NPU_PERF_WRAPPER_MACS: wrapper PERF_MACS
 * @DRM_E1NPU_PERF_WRAPPER_FALLBACKS: wrapper PERF_FALLBACKS
 * @DRM_E1NPU_PERF_DP_CYCLES: datapath PERF_CYCLES
 * @DRM_E1NPU_PERF_DP_MACS: datapath PERF_MACS
 * @DRM_E1NPU_PERF_DP_OPS: datapath PERF_OPS
 * @DRM_E1NPU_PERF_DP_ERRORS: datapath PERF_ERRORS
 * @DRM_E1NPU_PERF_DP_UNSUPPORTED_OPS: datapath PERF_UNSUPPORTED_OPS
 * @DRM_E1NPU_PERF_DP_SCRATCH_BYTES: datapath PERF_SCRATCH_BYTES
 *
 * Values are contiguous from 0; a value past the last one the kernel knows
 * is -EINVAL at DRM_IOCTL_E1NPU_PERFMON_CREATE.
 */
enum drm_e1npu_perf_counter {
	DRM_E1NPU_PERF_WRAPPER_CYCLES = 0,
	DRM_E1NPU_PERF_WRAPPER_MACS = 1,
	DRM_E1NPU_PERF_WRAPPER_FALLBACKS = 2,
	DRM_E1NPU_PERF_DP_CYCLES = 3,
	DRM_E1NPU_PERF_DP_MACS = 4,
	DRM_E1NPU_PERF_DP_OPS = 5,
	DRM_E1NPU_PERF_DP_ERRORS = 6,
	DRM_E1NPU_PERF_DP_UNSUPPORTED_OPS = 7,
	DRM_E1NPU_PERF_DP_SCRATCH_BYTES = 8,
};

/* Most counters one perfmon holds. */
#define DRM_E1NPU_MAX_PERF_COUNTERS	16

/**
 * struct drm_e1npu_perfmon_create - a set of counters to count jobs in
 *
 * A job naming the perfmon runs alone on its engine (no other job shares
 * the ring with it), and what its engine's counters advanced by while it
 * ran is added to the perfmon's values. Perfmons belong to the file.
 */
struct drm_e1npu_perfmon_create {
	/** @id: out: perfmon id, > 0 */
	__u32 id;
	/** @ncounters: counters in @counters, 1..DRM_E1NPU_MAX_PERF_COUNTERS */
	__u32 ncounters;
	/** @counters: enum drm_e1npu_perf_counter values, in order */
	__u8 counters[DRM_E1NPU_MAX_PERF_COUNTERS];
};

/**
 * struct drm_e1npu_perfmon_destroy - drop a perfmon
 *
 * Jobs already queued with it keep it until they finish.
 */
struct drm_e1npu_perfmon_destroy {
	/** @id: perfmon id */
	__u32 id;
	/** @pad: must be 0 */
	__u32 pad;
};

/**
 * struct drm_e1npu_perfmon_get_values - read (and optionally reset) values
 *
 * Values include only jobs whose fences have signalled.
 */
struct drm_e1npu_perfmon_get_values {
	/** @id: perfmon id */
	__u32 id;
	/** @flags: DRM_E1NPU_PERFMON_RESET: zero the values after reading */
	__u32 flags;
	/** @values_ptr: user pointer to ncounters __u64 values */
	__u64 values_ptr;
};

#define DRM_E1NPU_PERFMON_RESET		(1u << 0)

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
	DRM_IOW(DRM_COMMAND_BASE + DRM_E1NPU_SUBMIT, struct drm_e1npu_submit)
#define DRM_IOCTL_E1NPU_PERFMON_CREATE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_E1NPU_PERFMON_CREATE, \
		 struct drm_e1npu_perfmon_create)
#define DRM_IOCTL_E1NPU_PERFMON_DESTROY \
	DRM_IOW(DRM_COMMAND_BASE + DRM_E1NPU_PERFMON_DESTROY, \
		struct drm_e1npu_perfmon_destroy)
#define DRM_IOCTL_E1NPU_PERFMON_GET_VALUES \
	DRM_IOW(DRM_COMMAND_BASE + DRM_E1NPU_PERFMON_GET_VALUES, \
		struct drm_e1npu_perfmon_get_values)

#if defined(__cplusplus)
}
#endif

#endif /* _UAPI_E1NPU_ACCEL_H_ */
