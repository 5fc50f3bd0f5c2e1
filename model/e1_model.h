/* SPDX-License-Identifier: (GPL-2.0-only OR MIT) */
/*
 * e1 NPU device model: public interface.
 *
 * One freestanding implementation of both e1 NPU register interfaces (the v0
 * wrapper and the datapath), compiled into libe1npu (in-process backend),
 * into the virtual board's QEMU device (model/qemu/e1npu.c), and into the
 * unit tests. It depends on nothing but e1_model_shim.h, uses no floating
 * point and never allocates: the host owns the struct e1_model (it is
 * large: allocate it, do not put it on a stack; do not copy it: its
 * engines point at its bus).
 *
 * Addressing: one flat MMIO space, window * E1_WIN_SIZE + register offset
 * (E1_WIN_WRAPPER, E1_WIN_DATAPATH from e1npu_hw.h). All accesses are 32-bit.
 *
 * Execution: datapath commands (direct and descriptor mode) run to
 * completion inside the e1_model_write() that starts them; they are bounded
 * and tiny. The wrapper ring only runs inside e1_model_run() or the split
 * e1_model_step_*() calls, so a host can execute big jobs outside its MMIO
 * path and outside its register lock (the QEMU device computes on a worker
 * thread while register accesses go on).
 */
#ifndef __E1_MODEL_H__
#define __E1_MODEL_H__

#include "e1_model_shim.h"
#include "e1npu_hw.h"
#include "e1_timing.h"
#include "e1_bus.h"	/* enum e1_mem_status */
#include "e1_v0.h"	/* enum e1_step */
#include "e1_dp.h"

/* Interrupt lines the model drives (level). */
enum e1_irq_line {
	E1_IRQ_NPU = 0,		/* wrapper irq_npu */
	E1_IRQ_FALLBACK = 1,	/* wrapper secondary irq_fallback */
	E1_IRQ_DATAPATH = 2,	/* datapath done */
	E1_IRQ_COUNT
};

/**
 * struct e1_model_host - what the host provides to the model.
 * @map: return a host pointer to bus addresses [addr, addr + len) for a
 *	read (@write false) or a write, or NULL when the range is not backed
 *	by memory (the model then answers with a bus error). Called once per
 *	contiguous range the model touches, so a host can log every access.
 * @irq: an interrupt line changed level.
 * @ctx: passed back to both callbacks.
 */
struct e1_model_host {
	void *(*map)(void *ctx, u64 addr, u64 len, bool write);
	void (*irq)(void *ctx, unsigned int line, bool level);
	void *ctx;
};

/**
 * struct e1_model_config - what the hardware instance looks like.
 * @wrapper_present: the v0 wrapper window exists.
 * @datapath_present: the datapath window exists.
 * @gemmini_present: CAPS.gemmini_present (wrapper only).
 * @rows: systolic array rows in CAPS (default 16).
 * @cols: systolic array columns in CAPS (default 16).
 * @timing: timing parameters; e1_timing_default() fills the defaults.
 * @portable: the host computes with the portable C paths only (tests
 *	compare the fast paths with them); same results, same cycles.
 */
struct e1_model_config {
	bool wrapper_present;
	bool datapath_present;
	bool gemmini_present;
	u8 rows;
	u8 cols;
	struct e1_timing timing;
	bool portable;
};

/* Fault injection: a bus address range that answers with @status. */
struct e1_fault_range {
	u64 lo;		/* first faulting address */
	u64 hi;		/* last faulting address (inclusive) */
	enum e1_mem_status status;
	bool active;
};

#define E1_MODEL_MAX_FAULTS 4

/* The engines on the model's shared timeline (struct e1_clock). */
enum e1_engine {
	E1_ENGINE_WRAPPER = 0,
	E1_ENGINE_DATAPATH = 1,
	E1_ENGINE_COUNT
};

/**
 * struct e1_clock - one timeline (global cycles) for both engines.
 * @busy_until: when each engine's last work ends.
 * @not_before: earliest start of work an idle engine takes next (the
 *	host's submission time and its dependencies' completion).
 * @busy: cycles each engine spent working (its own PERF_CYCLES, 64-bit).
 *
 * Work an engine does starts at the later of its @busy_until and its
 * @not_before; the makespan is the latest @busy_until.
 */
struct e1_clock {
	u64 busy_until[E1_ENGINE_COUNT];
	u64 not_before[E1_ENGINE_COUNT];
	u64 busy[E1_ENGINE_COUNT];
};

struct e1_model {
	struct e1_model_config cfg;
	struct e1_model_host host;
	struct e1_bus bus;		/* what the engines see (e1_model.c) */
	struct e1_v0 v0;
	struct e1_dp dp;
	struct e1_fault_range faults[E1_MODEL_MAX_FAULTS];
	bool hang;			/* wrapper engine hung until flush */
	unsigned int drop_irqs;		/* next N rising edges are lost */
	bool irq_level[E1_IRQ_COUNT];	/* level as seen by the host */
	u32 irq_dropped;		/* lines whose last rise was dropped */
	void (*yield)(void *ctx);	/* e1_model_set_yield() */
	struct e1_clock clock;		/* both engines' shared timeline */
};

/* Fill @cfg with the reference instance: both windows, Gemmini 16x16. */
void e1_model_default_config(struct e1_model_config *cfg);

/* Reset the instance to its power-on state (registers, counters, faults). */
void e1_model_init(struct e1_model *m, const struct e1_model_config *cfg,
		   const struct e1_model_host *host);

/* 32-bit MMIO in the flat space; unknown offsets read 0, ignore writes. */
u32 e1_model_read(struct e1_model *m, u32 offset);
void e1_model_write(struct e1_model *m, u32 offset, u32 value);

/*
 * Run the wrapper ring until it is empty, stalled on an error, disabled or
 * hung. Returns the number of descriptors retired.
 */
unsigned int e1_model_run(struct e1_model *m);

/*
 * As e1_model_run(), but retire at most @max descriptors, so a host that
 * serialises register access with a spinlock can release it between
 * descriptors.
 */
unsigned int e1_model_run_budget(struct e1_model *m, unsigned int max);

/* True when the wrapper holds committed work that e1_model_run() would do. */
bool e1_model_pending(const struct e1_model *m);

/*
 * Split execution of one wrapper descriptor, for a host that may not hold
 * its register lock for a whole descriptor (a 1024^3 MATMUL is ~1e9 MACs):
 *
 * - e1_model_step_begin(), lock held: fetch, validate and map the next
 *   descriptor. E1_STEP_IDLE: nothing to do; E1_STEP_DONE: it failed and
 *   its error is latched (interrupts updated); E1_STEP_COMPUTE: call
 *   e1_model_step_compute(), then e1_model_step_end().
 * - e1_model_step_compute(), lock NOT held: the arithmetic; register reads
 *   and writes may run meanwhile (STATUS.busy reads 1 until the end, even
 *   after a CTRL.flush, as the engine drains). A flush makes it stop at
 *   its next block (outputs partly written).
 * - e1_model_step_end(), lock held: retire the descriptor, unless a flush
 *   came since its begin. Returns true when it retired.
 *
 * enum e1_step (E1_STEP_IDLE, E1_STEP_DONE, E1_STEP_COMPUTE): e1_v0.h.
 */
enum e1_step e1_model_step_begin(struct e1_model *m);
void e1_model_step_compute(struct e1_model *m);
bool e1_model_step_end(struct e1_model *m);

/*
 * The cycles e1_model_step_end() will charge the executing descriptor when
 * it retires (its fetch was charged at the begin), 0 when none executes:
 * a host that runs the engine on a virtual clock retires it that long
 * after it began (the QEMU device, model/qemu/e1npu.c).
 */
u64 e1_model_step_cycles(const struct e1_model *m);

/*
 * Optional: called between blocks of a long computation (a few hundred
 * thousand MACs apart) with the host's ctx, e.g. to reschedule. Set after
 * e1_model_init().
 */
void e1_model_set_yield(struct e1_model *m, void (*yield)(void *ctx));

/* Fault injection. */
int e1_model_inject_fault(struct e1_model *m, u64 lo, u64 hi,
			  enum e1_mem_status status);
void e1_model_clear_faults(struct e1_model *m);
void e1_model_inject_hang(struct e1_model *m, bool hang);
void e1_model_inject_drop_irq(struct e1_model *m, unsigned int count);

/* Modelled time of the wrapper engine so far, in cycles (64-bit). */
u64 e1_model_cycles(const struct e1_model *m);

/*
 * The global clock (Documentation/device-model.md, "Engine concurrency").
 * e1_model_clock_gate(): work @engine starts from now on begins no earlier
 * than global cycle @t (a host calls it before handing the engine a job:
 * @t = when it submits, or when the job's inputs are ready). Nothing
 * moves the clock but engine work. @engine out of range: ignored, 0.
 */
void e1_model_clock_gate(struct e1_model *m, unsigned int engine, u64 t);
/* When @engine's last work ends, in global cycles. */
u64 e1_model_clock_busy_until(const struct e1_model *m, unsigned int engine);
/* Cycles @engine spent working (64-bit, never cleared by counter writes). */
u64 e1_model_clock_busy(const struct e1_model *m, unsigned int engine);
/* The latest end of any engine's work: the makespan so far. */
u64 e1_model_makespan(const struct e1_model *m);

#endif /* __E1_MODEL_H__ */
