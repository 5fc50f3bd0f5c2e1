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

#include <e1npu/e1npu.h>
#include <e1npu/e1npu_ops.h>

/*
 * e1npu_trace_open() - trace into @path from now on (instead of
 * $E1NPU_TRACE). A regular @path (or a new one) is written as a
 * temporary file beside it, renamed to @path by e1npu_trace_close() and
 * removed by e1npu_trace_discard(). Return 0, or -errno with "PATH: why"
 * in @err.
 */
int e1npu_trace_open(const char *path, char *err, size_t errlen);

/*
 * e1npu_trace_close() - end the trace and close the file, checked through
 * fclose (a full disk is an error). Return 0 (also when no trace was
 * open), or -errno with "PATH: why" in @err.
 */
int e1npu_trace_close(char *err, size_t errlen);

/*
 * e1npu_trace_discard() - end the trace of a run that ended on bad input:
 * @path of e1npu_trace_open() stays as it was (a file that is not regular
 * is closed as by e1npu_trace_close()).
 */
void e1npu_trace_discard(void);

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
 * struct e1npu_trace_run - one command-buffer run of the lowering layer:
 * operation @kind (enum e1npu_ops_kind) on the engine chosen for
 * @reason (enum e1npu_ops_reason), lowered from @t_lower to @t_submit,
 * submitted until @t_wait, waited for until @t_done (host ns), with the
 * device's perf counters read before (@p0) and after (@p1) it.
 */
struct e1npu_trace_run {
	uint32_t kind, reason;
	uint64_t t_lower, t_submit, t_wait, t_done;
	struct e1npu_perf p0, p1;
};

/*
 * e1npu_trace_hw() - trace run @r of the @n operations of @cb (their
 * outcomes say which engine ran each, and its DMA bytes count there).
 */
void e1npu_trace_hw(const struct e1npu_trace_run *r, const struct e1npu_cmdbuf *cb,
		    unsigned int n);

#endif /* __E1NPU_TRACE_H__ */
