/* SPDX-License-Identifier: MIT */
/*
 * libe1npu internals shared by the library's .c files. Not installed, not a
 * stable interface. Kernel UAPI types are used here, never in
 * include/e1npu/.
 */
#ifndef __E1NPU_INTERNAL_H__
#define __E1NPU_INTERNAL_H__

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <e1npu/e1npu.h>

#include "e1npu_opcheck.h"		/* hw/: shared submission rules + UAPI */
#include "e1_timing.h"			/* model/: the cost model's parameters */

/* The outcome of one job, as every backend reports it. */
enum e1npu_hw_job_state {
	E1NPU_HWJOB_PENDING = 0,
	E1NPU_HWJOB_DONE = 1,
	E1NPU_HWJOB_FAILED = 2,
};

/**
 * struct e1npu_hw_result - the outcome of a job
 * @job_id: the backend's job id
 * @state: enum e1npu_hw_job_state
 * @error: 0 or a negative errno (-EOPNOTSUPP: CPU fallback at @fail_index)
 * @err_code: wrapper STATUS.err_code or datapath CTRL_STATUS
 * @fail_index: the first failing operation
 * @ops_done: operations that completed
 */
struct e1npu_hw_result {
	uint32_t job_id;
	uint32_t state;
	int32_t error;
	uint32_t err_code;
	uint32_t fail_index;
	uint32_t ops_done;
};

#define E1NPU_API	__attribute__((visibility("default")))
#define E1NPU_PRINTF(a, b)	__attribute__((format(printf, a, b)))

/* From the top Makefile (E1NPU_VERSION), the one place it is written. */
#ifndef E1NPU_VERSION
#error "E1NPU_VERSION is not defined: build with the top-level Makefile"
#endif
#define E1NPU_VERSION_STR	E1NPU_VERSION
#define E1NPU_PAGE_SIZE		4096u

struct e1npu_backend_funcs;

/* Library-side counters (struct e1npu_perf's software part). */
struct e1npu_lib_stats {
	uint64_t jobs;
	uint64_t ops_hw;
	uint64_t ops_cpu;
	uint64_t bytes_in;
	uint64_t bytes_out;
};

struct e1npu_device {
	const struct e1npu_backend_funcs *be;	/* the backend: sim or kernel */
	void *priv;			/* backend state */
	struct e1npu_device_info info;
	struct e1npu_limits lim;	/* what e1npu_op_check() enforces */
	struct e1npu_lib_stats stats;
	/*
	 * References: the caller's (until e1npu_device_close) plus one per
	 * live buffer and command buffer. The backend closes with the last.
	 * Not atomic: the threading rule (one thread at a time per device
	 * and everything made from it) already orders every change.
	 */
	unsigned int refs;
	char errmsg[256];
	/*
	 * The wrapper's timing parameters, for the lowering layer's cost
	 * model: the reference values, or the in-process model's own.
	 */
	struct e1_timing timing;
};

struct e1npu_buffer {
	struct e1npu_device *dev;
	uint32_t handle;		/* backend handle, never 0 */
	size_t size;			/* as asked */
	uint64_t bo_size;		/* as allocated (page-rounded) */
	void *map;			/* CPU mapping, NULL until mapped */
	/* the caller's (until e1npu_buffer_free) + one per op naming it */
	unsigned int refs;
};

/* Set the device's last error message; returns @err for tail calls. */
int e1npu_set_error(struct e1npu_device *dev, int err, const char *fmt, ...)
	E1NPU_PRINTF(3, 4);
void e1npu_clear_error(struct e1npu_device *dev);

/* Monotonic clock in nanoseconds. */
int64_t e1npu_now_ns(void);

/* op.c: public <-> UAPI opcode mapping. */
int e1npu_opcode_to_uapi(uint32_t opcode, uint32_t *uapi);
uint32_t e1npu_opcode_from_uapi(uint32_t uapi);
const char *e1npu_uapi_op_name(uint32_t uapi);

/* Readable reason for a hardware rejection (outcome reason text). */
void e1npu_hw_reason(char *buf, size_t len, uint32_t engine, int error,
		     uint32_t err_code);

/* op.c: the UAPI form of a public description (no checks). */
int e1npu_op_desc_to_uapi(const struct e1npu_op_desc *d,
			  struct e1npu_hw_op *op);

/*
 * op_check.c: check @d as the kernel would (its rules, verbatim); on
 * success *@op is its UAPI form and @bufs its buffers. Errors name op
 * @idx and the field, through the device's last error.
 */
int e1npu_op_validate(struct e1npu_device *dev, unsigned int idx,
		      const struct e1npu_op_desc *d, struct e1npu_hw_op *op,
		      struct e1npu_buffer *bufs[E1NPU_T_COUNT]);

/*
 * cpu_exec.c: map @bufs and run the validated @op with the one CPU
 * executor. 0; -ENOMEM when a buffer cannot be mapped; -EDOM when the
 * operands are outside the opcode's domain (the hardware fails it closed).
 */
int e1npu_cpu_exec(const struct e1npu_hw_op *op,
		   struct e1npu_buffer *bufs[E1NPU_T_COUNT]);

/* Bytes an operation reads and writes, for the library counters. */
void e1npu_op_bytes(const struct e1npu_hw_op *op, uint64_t *in,
		    uint64_t *out);

/* device.c */
void e1npu_device_fill_info(struct e1npu_device *dev);

/*
 * e1npu_env_get() - E1NPU_* variable @name (lib/env.c's table) as a
 * number (words: their index), its default when unset or empty; -EINVAL
 * with "environment variable NAME='v': expected ..." in @err otherwise.
 */
int e1npu_env_get(const char *name, unsigned int *out, char *err, size_t errlen);
/* The failure of e1npu_device_open() in this thread, for a NULL device. */
void e1npu_set_open_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Take / drop a reference; the last put closes the backend. */
void e1npu_device_get(struct e1npu_device *dev);
void e1npu_device_put(struct e1npu_device *dev);

/*
 * cmdbuf.c: the tensor bytes operation @index reads (@in) and writes
 * (@out), as the perf counters' bytes_in/bytes_out count them (the
 * timeline trace's DMA bytes per engine). Return 0 or -ERANGE.
 */
int e1npu_cmdbuf_op_bytes(const struct e1npu_cmdbuf *cb, unsigned int index,
			  uint64_t *in, uint64_t *out);

/* buffer.c: the last put frees the memory and drops the device's ref. */
void e1npu_buffer_get(struct e1npu_buffer *buf);
void e1npu_buffer_put(struct e1npu_buffer *buf);

#endif /* __E1NPU_INTERNAL_H__ */
