/* SPDX-License-Identifier: MIT */
/*
 * e1npu-proof (guest side): the ioctl fuzzer, the multi-process stress run
 * and the NOP-submit latency figure. Shares e1t_lib.c (device, buffers,
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
/* guard-selftest: guard=1 and guard_trim make the sim see an escape */
int e1p_guard_selftest(int argc, char **argv);

#endif /* E1P_H */
