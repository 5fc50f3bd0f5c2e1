/* SPDX-License-Identifier: MIT */
/*
 * libe1npu: the userspace runtime of the e1 NPU.
 *
 * Conventions (stated once, they hold for every function below):
 *
 *  - Objects are opaque handles: struct e1npu_device, struct e1npu_buffer,
 *    struct e1npu_cmdbuf. Functions are named e1npu_<object>_<verb>.
 *  - Functions returning int return 0 (or a non-negative value where
 *    documented) on success and a negative errno on failure. The library
 *    never sets errno for its callers, never prints and never aborts.
 *    e1npu_strerror() turns a code into text; e1npu_device_last_error()
 *    gives the message of the last failure on a device, which names the
 *    operation index and field for invalid operations
 *    ("op 3 (matmul_s8): field m: 0 outside 1..1024").
 *  - A NULL object argument is an error (-EINVAL), not a crash.
 *  - Public structs are append-only: new members take the place of the
 *    reserved words, which must be zero.
 *  - Thread safety: a device and everything created from it may be used by
 *    one thread at a time (also after e1npu_device_close(): the objects
 *    still belong to the device). Different devices are independent.
 *  - Lifetime: objects are reference counted. A buffer and a command
 *    buffer hold their device; a command buffer holds every buffer its
 *    operations name, from e1npu_cmdbuf_add_op() until
 *    e1npu_cmdbuf_reset() or e1npu_cmdbuf_free(). The destructors
 *    (e1npu_device_close(), e1npu_buffer_free(), e1npu_cmdbuf_free())
 *    return nothing and may be called in any order: each drops the
 *    caller's reference, after which the caller must not use that handle;
 *    memory (and the device's backend) goes with the last reference.
 *
 * Backends: the kernel driver (/dev/accel/accelN through libdrm) and the
 * in-process device model ("sim"). Both enforce the same validation rules
 * and produce bit-identical results.
 *
 * Full documentation: Documentation/libe1npu.md.
 */
#ifndef __E1NPU_H__
#define __E1NPU_H__

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct e1npu_device;
struct e1npu_buffer;
struct e1npu_cmdbuf;

/* ---------------------------------------------------------------------- */
/* Library                                                                 */
/* ---------------------------------------------------------------------- */

/**
 * e1npu_api_version() - the library's version string, e.g. "0.1.0".
 * Return: a static string, never NULL.
 */
const char *e1npu_api_version(void);

/**
 * e1npu_strerror() - readable text for a code returned by the library.
 * @err: 0 or a negative errno (a positive errno is accepted too). Codes the
 *	library does not use itself (EISDIR from opening a directory, ...)
 *	get the C library's text; anything else (INT_MIN included) is
 *	"unknown error".
 * Return: a static string, never NULL.
 */
const char *e1npu_strerror(int err);

/**
 * e1npu_env_check() - check every E1NPU_* environment variable the library
 * and its tools read (Documentation/libe1npu.md, "Environment").
 * @err: NULL or a buffer for the message, which names the variable, its
 *	value and the accepted values.
 * @errlen: its size in bytes.
 * Return: 0, or -EINVAL for the first variable with a bad value (a bad
 *	value is refused, never taken as the default).
 */
int e1npu_env_check(char *err, size_t errlen);

/* ---------------------------------------------------------------------- */
/* Device                                                                  */
/* ---------------------------------------------------------------------- */

/**
 * enum e1npu_backend - what a device talks to.
 * @E1NPU_BACKEND_KERNEL: e1npu.ko through /dev/accel/accelN.
 * @E1NPU_BACKEND_SIM: the device model, in this process.
 */
enum e1npu_backend {
	E1NPU_BACKEND_KERNEL = 1,
	E1NPU_BACKEND_SIM = 2,
};

/**
 * enum e1npu_engine - where an operation runs (or ran).
 * @E1NPU_ENGINE_NONE: not run (yet).
 * @E1NPU_ENGINE_WRAPPER: the v0 wrapper ring (16x16 systolic array when
 *	present).
 * @E1NPU_ENGINE_DATAPATH: the e1 datapath small-op engine.
 * @E1NPU_ENGINE_CPU: the host CPU, under the fallback contract.
 */
enum e1npu_engine {
	E1NPU_ENGINE_NONE = 0,
	E1NPU_ENGINE_WRAPPER = 1,
	E1NPU_ENGINE_DATAPATH = 2,
	E1NPU_ENGINE_CPU = 3,
};

/* Bits of struct e1npu_device_info.engines. */
#define E1NPU_ENGINE_BIT(e)	(1u << (e))

/**
 * e1npu_device_open() - open an e1 NPU.
 * @spec: NULL or "" to auto-detect, "sim" for the in-process model, or the
 *	path of an accel node ("/dev/accel/accel0"). When @spec is NULL the
 *	environment variable E1NPU_DEVICE (same syntax) is used if set.
 *	"auto" is the same as NULL or "". Auto-detection picks the first
 *	accel node whose driver is e1npu (through libudev, or by scanning
 *	/dev/accel when built without it), else the model: compare
 *	e1npu_device_get_info()'s @backend to tell. E1NPU_SIM_ARENA_MB sizes the model's tensor memory.
 * @devp: out: the device, owned by the caller (one reference), to close
 *	with e1npu_device_close().
 * Return: 0, -EINVAL (bad spec or NULL @devp), -ENODEV (path is not an e1
 *	NPU), -ENOENT (no such node), -ENOMEM, -EACCES, ...
 */
int e1npu_device_open(const char *spec, struct e1npu_device **devp);

/**
 * e1npu_device_close() - drop the caller's reference on a device.
 * @dev: the device, or NULL (no-op). Not to be used by the caller after.
 *
 * Waits for nothing. Buffers, command buffers and lowering contexts made
 * from @dev keep working and keep the device open; it closes when the
 * last of them is freed.
 */
void e1npu_device_close(struct e1npu_device *dev);

/**
 * e1npu_device_last_error() - message of the last failure on @dev.
 * Return: a string owned by @dev, valid until the next call on @dev or
 *	on an object made from it; "" when none. For a NULL @dev, why this
 *	thread's last e1npu_device_open() failed (naming the device, or the
 *	environment variable and its accepted values), else "no device".
 */
const char *e1npu_device_last_error(const struct e1npu_device *dev);

/**
 * struct e1npu_device_info - identity, capabilities and envelope.
 * @backend: enum e1npu_backend.
 * @engines: E1NPU_ENGINE_BIT(E1NPU_ENGINE_WRAPPER) | ... present.
 * @wrapper_id: wrapper ID register (0 when absent).
 * @wrapper_caps: wrapper CAPS register (0 when absent).
 * @gemmini_present: CAPS.gemmini_present.
 * @array_rows: CAPS.rows; @array_cols: CAPS.cols.
 * @datapath_id: datapath ID register (0 when absent).
 * @ring_len: wrapper ring length the driver uses.
 * @datapath_slots: datapath descriptors per batch (7).
 * @max_ops_per_job: most operations one job may hold.
 * @align: required alignment of tensor offsets and strides, bytes.
 * @arena_size: bytes of tensor memory.
 * @max_matmul_mn, @max_matmul_k, @max_conv_hw, @max_conv_c,
 * @conv_kernels (BIT(k)), @conv_strides (BIT(s)), @max_conv_dilation,
 * @pool_windows (BIT(w)), @pool_strides (BIT(s)), @max_relu_mn: the
 *	validated envelope.
 * @driver_major, @driver_minor: driver (or model backend) version.
 * @path: device node, or "sim".
 * @driver: driver name ("e1npu", or "e1npu-sim" for the model).
 */
struct e1npu_device_info {
	uint32_t backend;
	uint32_t engines;
	uint32_t wrapper_id;
	uint32_t wrapper_caps;
	uint32_t gemmini_present;
	uint32_t array_rows;
	uint32_t array_cols;
	uint32_t datapath_id;
	uint32_t ring_len;
	uint32_t datapath_slots;
	uint32_t max_ops_per_job;
	uint32_t align;
	uint64_t arena_size;
	uint32_t max_matmul_mn;
	uint32_t max_matmul_k;
	uint32_t max_conv_hw;
	uint32_t max_conv_c;
	uint32_t conv_kernels;
	uint32_t conv_strides;
	uint32_t max_conv_dilation;
	uint32_t pool_windows;
	uint32_t pool_strides;
	uint32_t max_relu_mn;
	uint32_t driver_major;
	uint32_t driver_minor;
	char path[64];
	char driver[32];
	uint32_t reserved[16];
};

/**
 * e1npu_device_get_info() - fill @info.
 * Return: 0 or -EINVAL.
 */
int e1npu_device_get_info(struct e1npu_device *dev,
			  struct e1npu_device_info *info);

/**
 * struct e1npu_perf - performance counters of the device.
 *
 * Wrapper and datapath counters are the hardware's (sysfs on the kernel
 * backend, the model's registers on the sim backend); 32-bit hardware
 * counters wrap. The library counters count this device handle only.
 *
 * @wrapper_cycles: PERF_CYCLES, cycles with the wrapper busy.
 * @wrapper_macs: PERF_MACS.
 * @wrapper_fallbacks: PERF_FALLBACKS, descriptors rejected to the CPU.
 * @dp_cycles .. @dp_scratch_bytes: the datapath counters of the same name.
 * @jobs: jobs this handle submitted.
 * @ops_hw: operations this handle ran on an engine.
 * @ops_cpu: operations this handle ran on the CPU (fallback).
 * @bytes_in: tensor bytes read by operations (library estimate).
 * @bytes_out: tensor bytes written by operations (library estimate).
 * @global_cycles: the makespan: the end of the latest work of either
 *	engine on the device's one timeline, where jobs on different engines
 *	overlap unless one waits for the other (in-process device model
 *	only; 0 on the kernel backend). Documentation/libe1npu.md,
 *	"Engine concurrency".
 */
struct e1npu_perf {
	uint64_t wrapper_cycles;
	uint64_t wrapper_macs;
	uint64_t wrapper_fallbacks;
	uint64_t dp_cycles;
	uint64_t dp_macs;
	uint64_t dp_ops;
	uint64_t dp_errors;
	uint64_t dp_unsupported_ops;
	uint64_t dp_stall_cycles;
	uint64_t dp_scratch_bytes;
	uint64_t jobs;
	uint64_t ops_hw;
	uint64_t ops_cpu;
	uint64_t bytes_in;
	uint64_t bytes_out;
	uint64_t global_cycles;
	uint64_t reserved[7];
};

/**
 * e1npu_device_read_perf() - read the counters.
 * Return: 0, -EINVAL, or an I/O error reading sysfs.
 */
int e1npu_device_read_perf(struct e1npu_device *dev, struct e1npu_perf *perf);

/* ---------------------------------------------------------------------- */
/* Buffers                                                                 */
/* ---------------------------------------------------------------------- */

/**
 * e1npu_buffer_alloc() - allocate @size bytes of tensor memory, zeroed.
 * @dev: device.
 * @size: bytes, > 0. The backend may reserve a page-rounded block, but
 *	operations may only touch the @size bytes asked for (the size
 *	e1npu_buffer_get_size() reports; -EOVERFLOW past it).
 * @bufp: out: the buffer, owned by the caller (one reference), to free
 *	with e1npu_buffer_free(); it holds a reference on @dev.
 * Return: 0, -EINVAL (size 0, NULL), -ENOMEM (arena exhausted).
 */
int e1npu_buffer_alloc(struct e1npu_device *dev, size_t size,
		       struct e1npu_buffer **bufp);

/**
 * e1npu_buffer_free() - drop the caller's reference on a buffer.
 * @buf: the buffer, or NULL (no-op). Neither it nor its mapping may be
 *	used by the caller after.
 *
 * Never fails, never waits. While a command buffer names @buf in an
 * operation its memory stays allocated (so the command buffer can run and
 * be resubmitted); it returns to the arena with the last reference.
 */
void e1npu_buffer_free(struct e1npu_buffer *buf);

/**
 * e1npu_buffer_map() - CPU pointer to the buffer's bytes.
 * @ptrp: out: the mapping, owned by @buf: valid until the caller's
 *	e1npu_buffer_free() (the same pointer on every call).
 * Return: 0, -EINVAL, or the mmap error.
 */
int e1npu_buffer_map(struct e1npu_buffer *buf, void **ptrp);

/* e1npu_buffer_get_size() - the size asked for at allocation (0 for NULL). */
size_t e1npu_buffer_get_size(const struct e1npu_buffer *buf);

/*
 * e1npu_buffer_get_device() - the device a buffer belongs to: borrowed
 * (no reference taken), valid as long as @buf is.
 */
struct e1npu_device *e1npu_buffer_get_device(const struct e1npu_buffer *buf);

/* ---------------------------------------------------------------------- */
/* Operations                                                              */
/* ---------------------------------------------------------------------- */

/**
 * enum e1npu_opcode - hardware operations (Documentation/hardware-contract.md).
 * @E1NPU_OP_NOP: nothing (wrapper).
 * @E1NPU_OP_BARRIER: drain earlier operations (wrapper).
 * @E1NPU_OP_MATMUL_S8: c int32 [m][n] = a int8 [m][k] x b int8 [k][n].
 * @E1NPU_OP_CONV2D_S8: NHWC conv, int32 out: @m = in height, @n = in width,
 *	@c_in, @c_out, @k = kernel (1, 3, 5), @out_h, @out_w, @stride_h,
 *	@stride_w, @pad_top, @pad_left, @dilation; b is [k*k*c_in][c_out].
 * @E1NPU_OP_RELU_S8: int8 relu of @m rows of @n bytes, a -> c.
 * @E1NPU_OP_MAXPOOL_S8: NHWC int8 max pool, VALID: @m, @n input h, w,
 *	@c_in channels, @k window (2, 3), @stride_h stride (1, 2).
 * @E1NPU_OP_FALLBACK: always rejected by the hardware, runs on the CPU as
 *	a NOP: a test hook for the fallback path.
 * @E1NPU_OP_DP_SCALAR: @m scalar datapath commands of datapath opcode @k
 *	(enum e1npu_dp_opcode: ADD .. EXP2_NEG_Q0_8 except GEMM_S8/S4 and
 *	VRELU_S8); a holds @m records {u32 op_a, op_b, acc}, c receives @m
 *	records {u32 result, result_hi}. E1NPU_OP_FLAG_TERNARY selects the
 *	ternary DOT16_S2 encoding.
 * @E1NPU_OP_DP_GEMM_S8: datapath tile, @m, @n <= 3, @k <= 7, a int8
 *	[m][k], b int8 [k][n], c int32 [m][n].
 * @E1NPU_OP_DP_GEMM_S4: the same with packed int4 a, b (low nibble first);
 *	their strides count int4 elements.
 * @E1NPU_OP_DP_VRELU_S8: int8 relu of @n <= 64 bytes, a -> c.
 */
enum e1npu_opcode {
	E1NPU_OP_NOP = 1,
	E1NPU_OP_BARRIER,
	E1NPU_OP_MATMUL_S8,
	E1NPU_OP_CONV2D_S8,
	E1NPU_OP_RELU_S8,
	E1NPU_OP_MAXPOOL_S8,
	E1NPU_OP_FALLBACK,
	E1NPU_OP_DP_SCALAR,
	E1NPU_OP_DP_GEMM_S8,
	E1NPU_OP_DP_GEMM_S4,
	E1NPU_OP_DP_VRELU_S8,
};

/**
 * enum e1npu_dp_opcode - datapath command opcodes, the @k of
 * E1NPU_OP_DP_SCALAR (the hardware's values; Documentation/
 * hardware-contract.md has each one's arithmetic).
 */
enum e1npu_dp_opcode {
	E1NPU_DP_OP_ADD = 0,
	E1NPU_DP_OP_SUB = 1,
	E1NPU_DP_OP_MUL_LO = 2,
	E1NPU_DP_OP_MAC_S16 = 3,
	E1NPU_DP_OP_DOT4_S8 = 4,
	E1NPU_DP_OP_MAX_U32 = 5,
	E1NPU_DP_OP_MIN_U32 = 6,
	E1NPU_DP_OP_DOT8_S4 = 7,
	E1NPU_DP_OP_GEMM_S8 = 8,
	E1NPU_DP_OP_GEMM_S4 = 9,
	E1NPU_DP_OP_RELU4_S8 = 10,
	E1NPU_DP_OP_VRELU_S8 = 11,
	E1NPU_DP_OP_SDOT4_S4_2_4 = 12,
	E1NPU_DP_OP_DOT16_S2 = 13,
	E1NPU_DP_OP_DOT4_FP8_E4M3 = 14,
	E1NPU_DP_OP_EXP2_NEG_Q0_8 = 15,
};

/* Fuse a ReLU into MATMUL_S8 / CONV2D_S8. */
#define E1NPU_OP_FLAG_RELU	(1u << 0)
/* DP_SCALAR DOT16_S2: ternary lanes. */
#define E1NPU_OP_FLAG_TERNARY	(1u << 1)

/**
 * struct e1npu_tensor - where a tensor lives: row r starts at byte
 * @offset + r * @stride of @buf. @buf NULL means "no tensor".
 */
struct e1npu_tensor {
	struct e1npu_buffer *buf;
	uint64_t offset;
	uint32_t stride;
	uint32_t reserved;
};

/**
 * struct e1npu_op_desc - one operation, named fields for every opcode.
 * Fields an opcode does not use must be zero (memset the struct first,
 * or use the e1npu_op_desc_*() builders).
 */
struct e1npu_op_desc {
	uint32_t opcode;	/* enum e1npu_opcode */
	uint32_t flags;		/* E1NPU_OP_FLAG_* */
	uint32_t m, n, k;
	uint32_t c_in, c_out;
	uint32_t out_h, out_w;
	uint32_t stride_h, stride_w;
	uint32_t pad_top, pad_left;
	uint32_t dilation;
	struct e1npu_tensor a;	/* input */
	struct e1npu_tensor b;	/* weights */
	struct e1npu_tensor c;	/* output */
	uint32_t reserved[8];
};

/*
 * Builders: fill @d completely (zeroing what the opcode does not use).
 * Tensors are passed by value; strides are bytes per row (see the opcode).
 */
void e1npu_op_desc_nop(struct e1npu_op_desc *d);
void e1npu_op_desc_barrier(struct e1npu_op_desc *d);
void e1npu_op_desc_fallback(struct e1npu_op_desc *d);
void e1npu_op_desc_matmul(struct e1npu_op_desc *d, struct e1npu_tensor a,
			  struct e1npu_tensor b, struct e1npu_tensor c,
			  uint32_t m, uint32_t n, uint32_t k, uint32_t flags);
/*
 * e1npu_op_desc_conv2d() - @in_h, @in_w: input size; @ksize kernel;
 * output size, strides, top/left pads and dilation as in the contract.
 */
void e1npu_op_desc_conv2d(struct e1npu_op_desc *d, struct e1npu_tensor in,
			  struct e1npu_tensor weights, struct e1npu_tensor out,
			  uint32_t in_h, uint32_t in_w, uint32_t c_in,
			  uint32_t c_out, uint32_t ksize, uint32_t out_h,
			  uint32_t out_w, uint32_t stride_h, uint32_t stride_w,
			  uint32_t pad_top, uint32_t pad_left,
			  uint32_t dilation, uint32_t flags);
void e1npu_op_desc_relu(struct e1npu_op_desc *d, struct e1npu_tensor in,
			struct e1npu_tensor out, uint32_t rows,
			uint32_t row_bytes);
void e1npu_op_desc_maxpool(struct e1npu_op_desc *d, struct e1npu_tensor in,
			   struct e1npu_tensor out, uint32_t in_h,
			   uint32_t in_w, uint32_t channels, uint32_t window,
			   uint32_t stride);
void e1npu_op_desc_dp_scalar(struct e1npu_op_desc *d, struct e1npu_tensor in,
			     struct e1npu_tensor out, uint32_t dp_opcode,
			     uint32_t count, uint32_t flags);
void e1npu_op_desc_dp_gemm(struct e1npu_op_desc *d, int int4,
			   struct e1npu_tensor a, struct e1npu_tensor b,
			   struct e1npu_tensor c, uint32_t m, uint32_t n,
			   uint32_t k);
void e1npu_op_desc_dp_vrelu(struct e1npu_op_desc *d, struct e1npu_tensor in,
			    struct e1npu_tensor out, uint32_t len);

/**
 * e1npu_op_desc_run_cpu() - run one operation on the CPU, now.
 *
 * The bit-exact CPU reference of what the hardware computes (the same code
 * the fallback path runs), on the buffers the description names. The
 * description is validated like e1npu_cmdbuf_add_op() (errors name the
 * field in the buffers' device's e1npu_device_last_error()).
 * Return: 0, the errno of the failed rule as for e1npu_cmdbuf_add_op(),
 *	-EXDEV (buffers of different devices),
 *	or -EDOM when the operands are outside the opcode's domain (a
 *	datapath command the hardware fails closed on).
 */
int e1npu_op_desc_run_cpu(const struct e1npu_op_desc *d);

/* e1npu_opcode_name() - "matmul_s8", ...; "unknown" otherwise (static). */
const char *e1npu_opcode_name(uint32_t opcode);

/* e1npu_opcode_engine() - the engine an opcode is submitted to. */
enum e1npu_engine e1npu_opcode_engine(uint32_t opcode);

/* e1npu_engine_name() - "wrapper", "datapath", "cpu", "none" (static). */
const char *e1npu_engine_name(enum e1npu_engine engine);

/* ---------------------------------------------------------------------- */
/* Command buffers                                                         */
/* ---------------------------------------------------------------------- */

/**
 * e1npu_cmdbuf_new() - an empty command buffer.
 * @cbp: out: owned by the caller, to free with e1npu_cmdbuf_free(); it
 *	holds a reference on @dev.
 * Return: 0, -EINVAL, -ENOMEM.
 */
int e1npu_cmdbuf_new(struct e1npu_device *dev, struct e1npu_cmdbuf **cbp);

/**
 * e1npu_cmdbuf_free() - free a command buffer. NULL is a no-op.
 *
 * Drops its references on its buffers and device. If it was submitted
 * and not waited for, operations not started yet never run and the job
 * in flight is waited for, at most 10 s (the driver ends a job after its
 * timeout, 2 s by default); a job the driver still has after that keeps
 * its own references on the memory it uses.
 */
void e1npu_cmdbuf_free(struct e1npu_cmdbuf *cb);

/**
 * e1npu_cmdbuf_reset() - drop all operations and outcomes (and the
 * references they hold on buffers) so the command buffer can be filled
 * again.
 * Return: 0, -EINVAL, -EBUSY while submitted and not waited for.
 */
int e1npu_cmdbuf_reset(struct e1npu_cmdbuf *cb);

/**
 * e1npu_cmdbuf_add_op() - validate @desc and append it.
 *
 * The operation is checked with exactly the kernel's rules (envelope,
 * flags, alignment, every byte inside its buffer, overflow-checked) before
 * anything is submitted. On failure nothing is appended and
 * e1npu_device_last_error() names the operation index and the field.
 *
 * Return: the index of the operation in @cb (>= 0; @cb now holds a
 *	reference on each buffer @desc names), or the errno of the
 *	kernel's rule that failed: -EINVAL (invalid field, misalignment),
 *	-ERANGE (shape outside the device's envelope: tile it),
 *	-ENOENT (no buffer), -EOVERFLOW (tensor outside its buffer); or
 *	-EXDEV (buffer of another device), -EBUSY (submitted), -ENOMEM,
 *	-E2BIG (too many ops).
 */
int e1npu_cmdbuf_add_op(struct e1npu_cmdbuf *cb,
			const struct e1npu_op_desc *desc);

/* e1npu_cmdbuf_get_num_ops() - operations in @cb (0 for NULL). */
unsigned int e1npu_cmdbuf_get_num_ops(const struct e1npu_cmdbuf *cb);

/**
 * e1npu_cmdbuf_submit() - start running the operations, in order.
 *
 * Operations are split into jobs: consecutive operations of one engine, at
 * most max_ops_per_job (wrapper) or datapath_slots (datapath) per job.
 * Return: 0, -EINVAL, -ENODATA (empty), -EBUSY (already submitted), or the
 *	backend's submit error (nothing ran then).
 */
int e1npu_cmdbuf_submit(struct e1npu_cmdbuf *cb);

/**
 * e1npu_cmdbuf_wait() - wait until every operation has an outcome.
 *
 * Runs rejected operations on the CPU and resubmits the rest. Never
 * drops an operation: each ends DONE (on an engine or the CPU) or FAILED
 * (then every later one is CANCELED).
 * @timeout_ns: relative timeout; < 0 waits forever, 0 polls.
 * Return: 0 when all ran, -ETIME when the timeout expired first (call
 *	again to keep waiting), -EIO when an operation failed (see the
 *	outcomes), -EINVAL when not submitted.
 */
int e1npu_cmdbuf_wait(struct e1npu_cmdbuf *cb, int64_t timeout_ns);

/* e1npu_cmdbuf_run() - submit and wait forever; the same return codes. */
int e1npu_cmdbuf_run(struct e1npu_cmdbuf *cb);

/**
 * enum e1npu_op_status - the outcome of one operation.
 * @E1NPU_OP_STATUS_NOT_RUN: not submitted yet, or still running.
 * @E1NPU_OP_STATUS_DONE: completed, see engine.
 * @E1NPU_OP_STATUS_FAILED: failed, see error and reason.
 * @E1NPU_OP_STATUS_CANCELED: not run because an earlier one failed.
 */
enum e1npu_op_status {
	E1NPU_OP_STATUS_NOT_RUN = 0,
	E1NPU_OP_STATUS_DONE = 1,
	E1NPU_OP_STATUS_FAILED = 2,
	E1NPU_OP_STATUS_CANCELED = 3,
};

/**
 * struct e1npu_op_outcome - where an operation ran and why.
 * @status: enum e1npu_op_status.
 * @engine: enum e1npu_engine that completed it (CPU after a fallback).
 * @error: 0, or the job's negative errno (-EOPNOTSUPP when the hardware
 *	rejected it and the CPU ran it, -EFAULT, -ETIMEDOUT, ...).
 * @hw_err_code: the wrapper err_code or datapath DESC_STATUS bits reported
 *	for it, 0 when none.
 * @job: index of the job it was submitted in.
 * @reason: "" when it ran where it was sent; otherwise why not, e.g.
 *	"hardware rejected: err_code 0x01 unknown opcode".
 */
struct e1npu_op_outcome {
	uint32_t status;
	uint32_t engine;
	int32_t error;
	uint32_t hw_err_code;
	uint32_t job;
	uint32_t reserved[3];
	char reason[96];
};

/**
 * e1npu_cmdbuf_get_outcome() - the outcome of operation @index.
 * Return: 0, -EINVAL (NULL), -ERANGE (index).
 */
int e1npu_cmdbuf_get_outcome(const struct e1npu_cmdbuf *cb, unsigned int index,
			     struct e1npu_op_outcome *out);

/* e1npu_cmdbuf_get_num_jobs() - jobs the last submit was split into. */
unsigned int e1npu_cmdbuf_get_num_jobs(const struct e1npu_cmdbuf *cb);

#ifdef __cplusplus
}
#endif

#endif /* __E1NPU_H__ */
