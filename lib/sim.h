/* SPDX-License-Identifier: MIT */
/*
 * Hooks into the in-process backend for the library's own tests and
 * benchmark (they link libe1npu.a). Not exported from libe1npu.so.
 */
#ifndef __E1NPU_SIM_H__
#define __E1NPU_SIM_H__

#include <stdint.h>

struct e1npu_device;
struct e1_model;

/* The device model behind a sim device (fault injection); NULL otherwise. */
struct e1_model *e1npu_sim_model(struct e1npu_device *dev);
/* Wall-clock nanoseconds spent inside the model so far. */
uint64_t e1npu_sim_model_ns(struct e1npu_device *dev);
/* Blocks on the arena's free list (1 when nothing is allocated). */
int e1npu_sim_free_blocks(struct e1npu_device *dev);
/*
 * Datapath register accesses the host made so far to run datapath jobs
 * (direct mode: scratchpad staging, configuration, start, status, result
 * read-back); the model charges none of them in the datapath's cycles.
 */
uint64_t e1npu_sim_dp_mmio(struct e1npu_device *dev);

#endif /* __E1NPU_SIM_H__ */
