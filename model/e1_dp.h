/* SPDX-License-Identifier: (GPL-2.0-only OR MIT) */
/*
 * e1 NPU device model: the datapath engine (e1_npu.sv small-op block), its
 * state and its interface to the core. Semantics:
 * Documentation/hardware-contract.md section 3 and
 * Documentation/device-model.md, "Datapath". Only e1_dp.c touches the state
 * and only the core (e1_model.c) calls the engine; hosts go through
 * e1_model_read()/e1_model_write().
 */
#ifndef __E1_DP_H__
#define __E1_DP_H__

#include "e1_model_shim.h"
#include "e1npu_hw.h"
#include "e1_bus.h"

/**
 * struct e1_dp_perf - the datapath performance counters (all 32-bit, wrap).
 * @unsupported_ops: 0x2c, commands rejected for their opcode/operands/config.
 * @cycles: 0x50, active cycles.
 * @macs: 0x54, signed INT8 MACs issued (DOT4_S8, GEMM_S8).
 * @ops: 0x58, accepted commands (direct and descriptor).
 * @errors: 0x5c, failed starts (direct command or descriptor batch).
 * @desc_timeout_count: 0x60, cycles spent in the active descriptor engine.
 * @desc_bytes_read: 0x64, descriptor and stream bytes accepted.
 * @desc_bytes_written: 0x68, writeback bytes accepted.
 * @desc_read_beats: 0x6c, descriptor and stream read beats accepted.
 * @desc_write_beats: 0x70, writeback beats accepted.
 * @stall_cycles: 0x74, cycles spent waiting for memory.
 * @scratch_bytes: 0x78, scratchpad bytes read plus written.
 * @thermal_throttle: 0x7c, incremented by every MMIO write to it.
 */
struct e1_dp_perf {
	u32 unsupported_ops;
	u32 cycles;
	u32 macs;
	u32 ops;
	u32 errors;
	u32 desc_timeout_count;
	u32 desc_bytes_read;
	u32 desc_bytes_written;
	u32 desc_read_beats;
	u32 desc_write_beats;
	u32 stall_cycles;
	u32 scratch_bytes;
	u32 thermal_throttle;
};

/**
 * struct e1_dp - datapath register file and internal state.
 * @bus: memory, interrupts and timing (set by e1_dp_reset()).
 * @status: CTRL_STATUS as read (busy, done, error).
 * @opcode: OPCODE, low 4 bits.
 * @op_a: OP_A.
 * @op_b: OP_B.
 * @acc: ACC.
 * @result: RESULT.
 * @result_hi: RESULT_HI.
 * @gemm_cfg: GEMM_CFG, implemented fields only.
 * @gemm_base: GEMM_BASE, implemented fields only.
 * @gemm_stride: GEMM_STRIDE, implemented fields only.
 * @cmd_param: CMD_PARAM, implemented bits only.
 * @desc_base: DESC_BASE.
 * @desc_head: DESC_HEAD, 3 bits.
 * @desc_tail: DESC_TAIL, 3 bits.
 * @desc_status: DESC_STATUS.
 * @perf: performance counters.
 * @scratch: the 64-byte scratchpad; SCRATCH[i] is bytes 4i..4i+3, LE.
 * @cycles: PERF_CYCLES in 64 bits, not cleared by the counters' clear
 *	(the global clock's measure of the engine's work).
 */
struct e1_dp {
	const struct e1_bus *bus;
	u32 status;
	u32 opcode;
	u32 op_a;
	u32 op_b;
	u32 acc;
	u32 result;
	u32 result_hi;
	u32 gemm_cfg;
	u32 gemm_base;
	u32 gemm_stride;
	u32 cmd_param;
	u32 desc_base;
	u32 desc_head;
	u32 desc_tail;
	u32 desc_status;
	struct e1_dp_perf perf;
	u8 scratch[E1_DP_SCRATCH_BYTES];
	u64 cycles;
};

/*
 * The engine, called by the core only (e1_model.c). Reset wires it to @bus,
 * which must outlive it.
 */
void e1_dp_reset(struct e1_dp *dp, const struct e1_bus *bus);
u32 e1_dp_read(const struct e1_dp *dp, u32 off);
void e1_dp_write(struct e1_dp *dp, u32 off, u32 val);
bool e1_dp_irq(const struct e1_dp *dp);

#endif /* __E1_DP_H__ */
