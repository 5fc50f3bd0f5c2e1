/* SPDX-License-Identifier: MIT */
/*
 * e1npu-proof (guest side): the ioctl fuzzer, the multi-process stress run,
 * the NOP-submit latency figure, the self-test of the device's DMA
 * isolation counters and the canary victim. Shares e1t_lib.c (device, buffers,
 * reporting) and e1t_ref.c (CPU references) with e1npu-systest.
 */
#ifndef E1P_H
#define E1P_H

#include <stdint.h>

#include "e1t.h"

/* syncobj helpers: 0 or -errno */
int e1p_syncobj_create(int fd, uint32_t *handle);
int e1p_syncobj_destroy(int fd, uint32_t handle);
/* wait for all @n syncobjs, at most @timeout_ms */
int e1p_syncobj_wait(int fd, const uint32_t *handles, uint32_t n,
		     int timeout_ms);

/* fuzz SEED PROCS CALLS SECONDS */
int e1p_fuzz(int argc, char **argv);
/* stress PROCS JOBS SEED */
int e1p_stress(int argc, char **argv);
/* perf ITERATIONS */
int e1p_perf(int argc, char **argv);
/* the median of V[0..N) (N > 0; V is sorted in place) */
uint64_t e1p_median(uint64_t *v, unsigned int n);
/* e1p_trace.c: the job path's breakdown from trace events (perf-breakdown) */
struct e1t_dev;
void e1p_trace_breakdown(struct e1t_dev *d, unsigned int n);
/* dma-selftest BASE SIZE: a dma-window of the arena's first page sees the
 * accesses of a job whose buffers lie past it */
int e1p_dma_selftest(int argc, char **argv);
/* victim READY-FILE: canary buffers checked byte for byte on SIGUSR1 */
int e1p_victim(int argc, char **argv);

#endif /* E1P_H */
