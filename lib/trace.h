/* SPDX-License-Identifier: MIT */
/*
 * Timeline trace (lib/trace.c): Chrome trace-event JSON of the host's
 * spans (TFLite layers, lowering, submit, wait, host-computed operations and
 * CPU fallbacks) on the host clock and the device's spans per engine on
 * the model's modelled clock. Written to $E1NPU_TRACE for any
 * application (at exit), or to the file a tool opens with --trace.
 * Documentation/libe1npu.md, "Timeline trace". Internal to the build: not
 * in libe1npu.sym.
 */
#ifndef __E1NPU_TRACE_H__
#define __E1NPU_TRACE_H__

#include <stddef.h>
#include <stdint.h>

#include <e1npu/e1npu_ops.h>

/*
 * e1npu_trace_open() - trace into @path from now on (instead of
 * $E1NPU_TRACE). Return 0, or -errno with "PATH: why" in @err.
 */
int e1npu_trace_open(const char *path, char *err, size_t errlen);

/*
 * e1npu_trace_close() - end the trace and close the file, checked through
 * fclose (a full disk is an error). Return 0 (also when no trace was
 * open), or -errno with "PATH: why" in @err.
 */
int e1npu_trace_close(char *err, size_t errlen);

/* e1npu_trace_on() - is a trace being written (opens $E1NPU_TRACE once). */
int e1npu_trace_on(void);

/* Host clock of the trace: CLOCK_MONOTONIC in ns (ops_now_ns()'s). */
uint64_t e1npu_trace_now_ns(void);

/*
 * e1npu_trace_layer_begin() - the TFLite layer @index (@op) whose device
 * work follows (names the device spans).
 */
void e1npu_trace_layer_begin(uint32_t index, const char *op);

/*
 * e1npu_trace_layer() - layer @index (@op, @shape) ran from @t0 to @t1
 * (host ns); @rep says on which engine, why, MACs and cycles.
 */
void e1npu_trace_layer(uint32_t index, const char *op, const char *shape,
		       const struct e1npu_ops_report *rep, uint64_t t0, uint64_t t1);

/*
 * e1npu_trace_hw() - one command-buffer run of lowering-layer operation
 * @kind: lowered from @t_lower to @t_submit, submitted until @t_wait,
 * waited for until @t_done (host ns); @wrapper_cycles and @dp_cycles are
 * the perf counters' deltas over it; @hw_ops operations, @fallbacks of
 * them run on the CPU.
 */
void e1npu_trace_hw(uint32_t kind, uint64_t t_lower, uint64_t t_submit, uint64_t t_wait,
		    uint64_t t_done, uint64_t wrapper_cycles, uint64_t dp_cycles,
		    uint32_t hw_ops, uint32_t fallbacks);

#endif /* __E1NPU_TRACE_H__ */
