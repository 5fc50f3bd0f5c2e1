// SPDX-License-Identifier: (GPL-2.0-only OR MIT)
/*
 * e1 NPU device model: the core. It owns the two engines (e1_v0.c,
 * e1_dp.c) and is their bus (e1_bus.h): the host memory path with injected
 * faults, the interrupt lines (edges reported to the host, with the
 * dropped-interrupt fault), the yield hook and the timing parameters. Also
 * flat MMIO dispatch by register window, reset, the injected hang, the
 * shared clock and the fault-injection API.
 */
#include "e1_model.h"

/* ---- the engines' bus ---- */

/*
 * The bus's memory path: injected faults first, then the host's map. The
 * fault is the first byte inside an injected range, or @addr when the host
 * cannot map the range.
 */
static enum e1_mem_status bus_map(void *ctx, u64 addr, u64 len, bool write,
				  void **ptr, u64 *fault)
{
	struct e1_model *m = ctx;
	u64 last;
	int i;

	*ptr = NULL;
	*fault = addr;
	if (!len || check_add_overflow(addr, len - 1, &last))
		return E1_MEM_ERROR;
	for (i = 0; i < E1_MODEL_MAX_FAULTS; i++) {
		const struct e1_fault_range *f = &m->faults[i];

		if (!f->active || f->hi < addr || f->lo > last)
			continue;
		*fault = f->lo > addr ? f->lo : addr;
		return f->status;
	}
	if (!m->host.map)
		return E1_MEM_ERROR;
	*ptr = m->host.map(m->host.ctx, addr, len, write);
	return *ptr ? E1_MEM_OK : E1_MEM_ERROR;
}

/* Recompute every interrupt line and tell the host about changes. */
static void irq_update(struct e1_model *m)
{
	bool level[E1_IRQ_COUNT];
	unsigned int line;

	level[E1_IRQ_NPU] = m->cfg.wrapper_present && e1_v0_irq_npu(&m->v0);
	level[E1_IRQ_FALLBACK] = m->cfg.wrapper_present &&
				 e1_v0_irq_fallback(&m->v0);
	level[E1_IRQ_DATAPATH] = m->cfg.datapath_present && e1_dp_irq(&m->dp);

	for (line = 0; line < E1_IRQ_COUNT; line++) {
		u32 bit = 1U << line;

		if (level[line] == m->irq_level[line])
			continue;
		m->irq_level[line] = level[line];
		if (level[line] && m->drop_irqs) {
			/* Lost on the wire: the host never sees this pulse. */
			m->drop_irqs--;
			m->irq_dropped |= bit;
			continue;
		}
		if (!level[line] && (m->irq_dropped & bit)) {
			m->irq_dropped &= ~bit;
			continue;
		}
		if (m->host.irq)
			m->host.irq(m->host.ctx, line, level[line]);
	}
}

static void bus_irq_update(void *ctx)
{
	irq_update(ctx);
}

static void bus_yield(void *ctx)
{
	struct e1_model *m = ctx;

	if (m->yield)
		m->yield(m->host.ctx);
}

/* ---- the host interface ---- */

void e1_model_default_config(struct e1_model_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->wrapper_present = true;
	cfg->datapath_present = true;
	cfg->gemmini_present = true;
	cfg->rows = 16;
	cfg->cols = 16;
	e1_timing_default(&cfg->timing);
}

void e1_model_init(struct e1_model *m, const struct e1_model_config *cfg,
		   const struct e1_model_host *host)
{
	memset(m, 0, sizeof(*m));
	if (cfg)
		m->cfg = *cfg;
	else
		e1_model_default_config(&m->cfg);
	if (host)
		m->host = *host;
	m->bus.map = bus_map;
	m->bus.irq_update = bus_irq_update;
	m->bus.yield = bus_yield;
	m->bus.timing = &m->cfg.timing;
	m->bus.ctx = m;
	e1_v0_reset(&m->v0, &m->bus, m->cfg.rows, m->cfg.cols,
		    m->cfg.gemmini_present);
	m->v0.portable = m->cfg.portable;
	e1_dp_reset(&m->dp, &m->bus);
}

static bool window_present(const struct e1_model *m, u32 win)
{
	if (win == E1_WIN_WRAPPER)
		return m->cfg.wrapper_present;
	if (win == E1_WIN_DATAPATH)
		return m->cfg.datapath_present;
	return false;
}

/* @engine worked @cycles more: from its busy end, or its gate when idle. */
static void clock_advance(struct e1_model *m, unsigned int engine, u64 cycles)
{
	struct e1_clock *c = &m->clock;

	if (!cycles)
		return;
	if (c->busy_until[engine] < c->not_before[engine])
		c->busy_until[engine] = c->not_before[engine];
	c->busy_until[engine] += cycles;
	c->busy[engine] += cycles;
}

u32 e1_model_read(struct e1_model *m, u32 offset)
{
	u32 win = offset / E1_WIN_SIZE, reg = offset % E1_WIN_SIZE;

	if ((offset & 3) || !window_present(m, win))
		return 0;
	if (win == E1_WIN_WRAPPER)
		return e1_v0_read(&m->v0, reg);
	return e1_dp_read(&m->dp, reg);
}

void e1_model_write(struct e1_model *m, u32 offset, u32 value)
{
	u32 win = offset / E1_WIN_SIZE, reg = offset % E1_WIN_SIZE;

	if ((offset & 3) || !window_present(m, win))
		return;
	if (win == E1_WIN_WRAPPER) {
		u32 gen = m->v0.flush_gen;

		e1_v0_write(&m->v0, reg, value);
		/* A flush recovers an injected hang. */
		if (m->v0.flush_gen != gen)
			m->hang = false;
	} else {
		u64 c0 = m->dp.cycles;

		e1_dp_write(&m->dp, reg, value);
		clock_advance(m, E1_ENGINE_DATAPATH, m->dp.cycles - c0);
	}
	irq_update(m);
}

unsigned int e1_model_run_budget(struct e1_model *m, unsigned int max)
{
	unsigned int n;
	u64 c0 = m->v0.cycles;

	if (!m->cfg.wrapper_present || !max)
		return 0;
	n = m->hang ? 0 : e1_v0_run(&m->v0, max);
	clock_advance(m, E1_ENGINE_WRAPPER, m->v0.cycles - c0);
	irq_update(m);
	return n;
}

unsigned int e1_model_run(struct e1_model *m)
{
	return e1_model_run_budget(m, ~0U);
}

bool e1_model_pending(const struct e1_model *m)
{
	return m->cfg.wrapper_present && !m->hang && e1_v0_pending(&m->v0);
}

enum e1_step e1_model_step_begin(struct e1_model *m)
{
	enum e1_step st;
	u64 c0 = m->v0.cycles;

	if (!m->cfg.wrapper_present || m->hang)
		return E1_STEP_IDLE;
	st = e1_v0_step_begin(&m->v0);
	clock_advance(m, E1_ENGINE_WRAPPER, m->v0.cycles - c0);
	if (st == E1_STEP_DONE)
		irq_update(m);
	return st;
}

void e1_model_step_compute(struct e1_model *m)
{
	if (m->cfg.wrapper_present)
		e1_v0_step_compute(&m->v0);
}

bool e1_model_step_end(struct e1_model *m)
{
	bool retired;
	u64 c0 = m->v0.cycles;

	if (!m->cfg.wrapper_present)
		return false;
	retired = e1_v0_step_end(&m->v0);
	clock_advance(m, E1_ENGINE_WRAPPER, m->v0.cycles - c0);
	irq_update(m);
	return retired;
}

u64 e1_model_step_cycles(const struct e1_model *m)
{
	return m->cfg.wrapper_present ? e1_v0_step_cycles(&m->v0) : 0;
}

void e1_model_set_yield(struct e1_model *m, void (*yield)(void *ctx))
{
	m->yield = yield;
}

u64 e1_model_cycles(const struct e1_model *m)
{
	return m->v0.cycles;
}

void e1_model_clock_gate(struct e1_model *m, unsigned int engine, u64 t)
{
	if (engine < E1_ENGINE_COUNT)
		m->clock.not_before[engine] = t;
}

u64 e1_model_clock_busy_until(const struct e1_model *m, unsigned int engine)
{
	return engine < E1_ENGINE_COUNT ? m->clock.busy_until[engine] : 0;
}

u64 e1_model_clock_busy(const struct e1_model *m, unsigned int engine)
{
	return engine < E1_ENGINE_COUNT ? m->clock.busy[engine] : 0;
}

u64 e1_model_makespan(const struct e1_model *m)
{
	u64 end = 0;
	unsigned int e;

	for (e = 0; e < E1_ENGINE_COUNT; e++)
		if (m->clock.busy_until[e] > end)
			end = m->clock.busy_until[e];
	return end;
}

int e1_model_inject_fault(struct e1_model *m, u64 lo, u64 hi,
			  enum e1_mem_status status)
{
	int i;

	if (lo > hi || status == E1_MEM_OK)
		return -1;
	for (i = 0; i < E1_MODEL_MAX_FAULTS; i++) {
		struct e1_fault_range *f = &m->faults[i];

		if (f->active)
			continue;
		f->lo = lo;
		f->hi = hi;
		f->status = status;
		f->active = true;
		return 0;
	}
	return -1;
}

void e1_model_clear_faults(struct e1_model *m)
{
	memset(m->faults, 0, sizeof(m->faults));
}

void e1_model_inject_hang(struct e1_model *m, bool hang)
{
	m->hang = hang;
}

void e1_model_inject_drop_irq(struct e1_model *m, unsigned int count)
{
	m->drop_irqs = count;
}
