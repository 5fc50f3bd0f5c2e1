/* SPDX-License-Identifier: (GPL-2.0-only OR MIT) */
/*
 * e1 NPU device model: the bus an engine sits on, i.e. everything an
 * engine (e1_v0.c, e1_dp.c) needs from its surroundings. The core
 * (e1_model.c) implements it; the engines depend on this header and their
 * own, never on e1_model.h or e1_model.c.
 */
#ifndef __E1_BUS_H__
#define __E1_BUS_H__

#include "e1_model_shim.h"
#include "e1_timing.h"

/* Result of a memory access, as the bus would answer it. */
enum e1_mem_status {
	E1_MEM_OK = 0,
	E1_MEM_ERROR = 1,	/* bus error response (SLVERR/DECERR) */
	E1_MEM_NORESP = 2,	/* no response: the requester times out */
};

/**
 * struct e1_bus - an engine's view of the rest of the device.
 * @map: map bus range [addr, addr + len) for a read (@write false) or a
 *	write, with injected faults applied. Returns E1_MEM_OK with *@ptr
 *	set, or the bus's answer with *@ptr NULL and *@fault the first
 *	faulting bus address. Each call is one access the host can log.
 * @irq_update: the engine's interrupt outputs may have changed: recompute
 *	the lines now (the host hears of every level change).
 * @yield: between blocks of a long computation (the host may reschedule).
 * @timing: timing parameters of the instance (read only).
 * @ctx: passed back to every hook.
 */
struct e1_bus {
	enum e1_mem_status (*map)(void *ctx, u64 addr, u64 len, bool write,
				  void **ptr, u64 *fault);
	void (*irq_update)(void *ctx);
	void (*yield)(void *ctx);
	const struct e1_timing *timing;
	void *ctx;
};

static inline enum e1_mem_status e1_bus_map(const struct e1_bus *bus,
					    u64 addr, u64 len, bool write,
					    void **ptr, u64 *fault)
{
	return bus->map(bus->ctx, addr, len, write, ptr, fault);
}

static inline void e1_bus_irq_update(const struct e1_bus *bus)
{
	bus->irq_update(bus->ctx);
}

static inline void e1_bus_yield(const struct e1_bus *bus)
{
	bus->yield(bus->ctx);
}

#endif /* __E1_BUS_H__ */
