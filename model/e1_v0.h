/* SPDX-License-Identifier: (GPL-2.0-only OR MIT) */
/*
 * e1 NPU device model: the v0 wrapper engine (the Gemmini command-queue
 * front door), its state and its interface to the core. Semantics:
 * Documentation/hardware-contract.md section 2 and
 * Documentation/device-model.md. Only e1_v0.c touches the state and only
 * the core (e1_model.c) calls the engine; hosts go through
 * e1_model_read()/e1_model_write()/e1_model_run().
 */
#ifndef __E1_V0_H__
#define __E1_V0_H__

#include "e1_model_shim.h"
#include "e1npu_hw.h"
#include "e1_bus.h"
#include "e1_matmul.h"

/* Most rows any tensor of the validated envelope has (CONV2D weights). */
#define E1_V0_MAX_ROWS_A	E1_V0_MAX_MATMUL_MN
#define E1_V0_MAX_ROWS_B	(5 * 5 * E1_V0_MAX_CONV_C)
#define E1_V0_MAX_ROWS_C	E1_V0_MAX_MATMUL_MN

/* Tensors of a descriptor: A, B, C. */
#define E1_V0_NTENSORS 3

/* A strided 2-D tensor in bus memory: rows of row_bytes, stride apart. */
struct v0_tensor {
	u64 addr;
	u32 rows;
	u32 row_bytes;
	u32 stride;
	bool used;
	bool write;
};

/* A decoded, validated descriptor. */
struct v0_op {
	u32 w[E1_V0_DESC_WORDS];
	u32 op;
	u32 flags;
	bool relu;
	struct v0_tensor t[E1_V0_NTENSORS];	/* A, B, C */
	/* MATMUL, RELU */
	u32 m, n, k;
	/* CONV2D, MAXPOOL */
	u32 in_h, in_w, c_in, c_out, ksz, sh, sw, ph, pw, dil, out_h, out_w;
	u32 win, pstride;
};

/*
 * Why the ring is not moving. FALLBACK: an unsupported descriptor with
 * CTRL.cpu_fallback_select set, which the CPU retires with a DESC_TAIL
 * write. HARD: window, bus, overflow or ring configuration errors, and
 * unsupported descriptors without cpu_fallback_select: only CTRL.flush
 * recovers.
 */
enum e1_v0_stall {
	E1_V0_RUNNING = 0,
	E1_V0_STALL_FALLBACK,
	E1_V0_STALL_HARD,
};

/**
 * struct e1_v0 - wrapper registers, ring state and execution workspace.
 * @bus: memory, interrupts, yield and timing (set by e1_v0_reset()).
 * @rows: systolic array rows (0: 16 for the timing model).
 * @cols: systolic array columns (0: 16 for the timing model).
 * @gemmini: the Gemmini ops are present (CAPS.gemmini_present).
 * @caps: CAPS as configured.
 * @ctrl: CTRL without the self-clearing flush bit.
 * @irq_status: IRQ_STATUS (RW1C).
 * @irq_mask: IRQ_MASK.
 * @status_done: STATUS.done; set with IRQ_STATUS.done, cleared by W1C of
 *	IRQ_STATUS.done and by CTRL.flush.
 * @error: STATUS.error.
 * @err_code: STATUS.err_code.
 * @desc_base: DESC_BASE_HI:LO.
 * @ring_len: DESC_RING_LEN as written.
 * @head: DESC_HEAD.
 * @tail: DESC_TAIL.
 * @armed: a doorbell started the engine; it runs until the ring drains.
 * @stall: why the engine stopped, if it did.
 * @fb_pending: the descriptor at ERR_DESC_INDEX fell back and the CPU may
 *	retire it with a DESC_TAIL write.
 * @fb_tag: COMPLETION_TAG of that descriptor.
 * @tmem_base: TENSOR_MEM_BASE_HI:LO.
 * @tmem_len: TENSOR_MEM_LEN.
 * @perf_cycles: cycles with busy == 1 (PERF_CYCLES reads the low word).
 * @perf_macs: PERF_MACS_HI:LO.
 * @perf_fallbacks: PERF_FALLBACKS.
 * @err_desc_index: ERR_DESC_INDEX.
 * @err_fault_addr: ERR_FAULT_ADDR_HI:LO.
 * @completion_tag: COMPLETION_TAG.
 * @cycles: modelled time of the engine (only advances while busy).
 * @rows_a: host pointers of the input rows of the executing descriptor.
 * @rows_b: host pointers of the weight rows.
 * @rows_c: host pointers of the output rows.
 * @mm: GEMM packing workspace.
 * @portable: compute with the portable C paths only, never the x86 fast
 *	ones (set from struct e1_model_config; tests compare the two).
 * @executing: a descriptor is between e1_model_step_begin() and
 *	e1_model_step_end(): STATUS.busy reads 1 even after a flush.
 * @abort: a flush came while @executing: the computation stops early.
 * @flush_gen: counts flushes.
 * @exec_gen: @flush_gen when the executing descriptor began; a different
 *	value at its end means it was flushed and must not retire.
 * @cur: the executing descriptor.
 * @ov_idle: load-DMA idle cycles of the last retired MATMUL/CONV2D, which
 *	the next descriptor's first load may use (G_OVERLAP); 0 when the
 *	ring drained, after anything else, an error or a flush.
 * @ov_store: that op's exposed last store (cycles), which may run under
 *	the next descriptor's idle DMA cycles (G_STORE_OV); 0 as @ov_idle.
 * @ov_lo: first byte of that op's output.
 * @ov_hi: one past its last byte.
 */
struct e1_v0 {
	const struct e1_bus *bus;
	u8 rows;
	u8 cols;
	bool gemmini;
	u32 caps;
	u32 ctrl;
	u32 irq_status;
	u32 irq_mask;
	bool status_done;
	bool error;
	u32 err_code;
	u64 desc_base;
	u32 ring_len;
	u32 head;
	u32 tail;
	bool armed;
	enum e1_v0_stall stall;
	bool fb_pending;
	u32 fb_tag;
	u64 tmem_base;
	u32 tmem_len;
	u64 perf_cycles;
	u64 perf_macs;
	u32 perf_fallbacks;
	u32 err_desc_index;
	u64 err_fault_addr;
	u32 completion_tag;
	u64 cycles;
	const s8 *rows_a[E1_V0_MAX_ROWS_A];
	const s8 *rows_b[E1_V0_MAX_ROWS_B];
	u8 *rows_c[E1_V0_MAX_ROWS_C];
	struct e1_mm_ws mm;
	bool portable;
	bool executing;
	bool abort;
	u32 flush_gen;
	u32 exec_gen;
	struct v0_op cur;
	u64 ov_idle;
	u64 ov_store;
	u64 ov_lo;
	u64 ov_hi;
};

/* Outcome of e1_v0_step_begin() (and of e1_model_step_begin()). */
enum e1_step {
	E1_STEP_IDLE = 0,
	E1_STEP_DONE,
	E1_STEP_COMPUTE,
};

/*
 * The engine, called by the core only (e1_model.c, which keeps the window,
 * hang and clock bookkeeping). Reset wires it to @bus, which must outlive
 * it.
 */
void e1_v0_reset(struct e1_v0 *v, const struct e1_bus *bus, u8 rows, u8 cols,
		 bool gemmini);
u32 e1_v0_read(const struct e1_v0 *v, u32 off);
void e1_v0_write(struct e1_v0 *v, u32 off, u32 val);
unsigned int e1_v0_run(struct e1_v0 *v, unsigned int max);
bool e1_v0_pending(const struct e1_v0 *v);
enum e1_step e1_v0_step_begin(struct e1_v0 *v);
void e1_v0_step_compute(struct e1_v0 *v);
bool e1_v0_step_end(struct e1_v0 *v);
u64 e1_v0_step_cycles(const struct e1_v0 *v);
bool e1_v0_irq_npu(const struct e1_v0 *v);
bool e1_v0_irq_fallback(const struct e1_v0 *v);

#endif /* __E1_V0_H__ */
