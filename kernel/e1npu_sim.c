// SPDX-License-Identifier: GPL-2.0-only
/*
 * e1npu_sim: a platform device backed by the e1 NPU device model.
 *
 * The module builds the freestanding device model (model/) in and registers
 * an "e1npu-sim" platform device that e1npu.ko binds to unmodified:
 *
 * - registers: two regmaps (wrapper and datapath window) whose reg_read and
 *   reg_write callbacks call e1_model_read()/e1_model_write() on the model's
 *   flat offset, under one spinlock (the driver reads registers from its
 *   hard interrupt handler); it is only ever held for a register access or
 *   a descriptor's fetch/retire, never for a computation;
 * - execution: datapath commands run inside the register write that starts
 *   them (bounded, tiny); the wrapper ring runs one descriptor at a time
 *   from an ordered work item queued after a doorbell: fetch and checks
 *   under the spinlock (e1_model_step_begin()), the arithmetic in process
 *   context without it, rescheduling between blocks and stopping early on a
 *   flush (e1_model_step_compute()), the retire under it again;
 * - interrupts: a three-line irq_chip with a linear irq_domain. The model
 *   reports levels with its lock held, so lines are fired later from an
 *   irq_work; a line unmasked while still high fires again (level
 *   semantics);
 * - memory: device addresses are the physical addresses dma_alloc_coherent()
 *   hands the driver (dma-direct, no IOMMU), mapped through the direct map.
 *
 * Module parameters select the instance (wrapper, datapath, gemmini_present,
 * rows, cols), inject faults at run time (inject_hang, inject_bus_error,
 * inject_drop_irq, inject_overflow_after) and model a slow engine and a slow
 * or stuck flush (exec_delay_ms, flush_drain_ms, inject_stuck_busy); see
 * Documentation/simulator.md.
 */

#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/sched.h>
#include <linux/dma-mapping.h>
#include <linux/err.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/ioport.h>
#include <linux/irq.h>
#include <linux/irq_work.h>
#include <linux/irqdomain.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/of.h>
#include <linux/platform_device.h>
#include <linux/regmap.h>
#include <linux/spinlock.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>

#include "e1npu_pdata.h"
#include "e1npu_sim_mem.h"
#include "e1npu_sim_guard.h"
#include "../model/e1_model.h"

#define E1SIM_NAME	"e1npu_sim"

struct e1sim {
	struct e1_model *model;
	/*
	 * Serialises every access to @model, except the computation between
	 * e1_model_step_begin() and e1_model_step_end() (it touches only the
	 * executing descriptor's tensors and workspace); taken from hard IRQ
	 * context, so never held for longer than one register access or one
	 * descriptor's fetch, checks and retire.
	 */
	spinlock_t lock;

	struct regmap *wrapper;
	struct regmap *datapath;

	struct workqueue_struct *wq;
	struct work_struct run_work;

	struct fwnode_handle *fwnode;
	struct irq_domain *domain;
	unsigned int virq[E1_IRQ_COUNT];
	unsigned long level;	/* E1_IRQ_* lines the model drives high */
	unsigned long masked;	/* E1_IRQ_* lines masked by the irq core */
	struct irq_work irq_work;

	struct platform_device *pdev;
	bool dying;
	bool flushed;	/* CTRL.flush written: inject_bad_id applies */
	struct device_node *np;	/* of_node: the device's DT node */

	/* Test only: the buffers each job may touch (e1npu_sim_guard.c). */
	struct e1sim_guard *guard;
	bool guard_dp;		/* a datapath register write is running */
};

/* The one instance; module parameters reach it under e1sim_param_lock. */
static struct e1sim *e1sim;
static DEFINE_MUTEX(e1sim_param_lock);

/* Instance configuration, read at load time. */
static bool wrapper = true;
module_param(wrapper, bool, 0444);
MODULE_PARM_DESC(wrapper, "Instantiate the v0 wrapper window (default 1)");

static bool datapath = true;
module_param(datapath, bool, 0444);
MODULE_PARM_DESC(datapath, "Instantiate the datapath window (default 1)");

static bool gemmini_present = true;
module_param(gemmini_present, bool, 0444);
MODULE_PARM_DESC(gemmini_present, "CAPS.gemmini_present of the wrapper (default 1)");

static uint rows = 16;
module_param(rows, uint, 0444);
MODULE_PARM_DESC(rows, "CAPS rows of the systolic array, 1..255 (default 16)");

static uint cols = 16;
module_param(cols, uint, 0444);
MODULE_PARM_DESC(cols, "CAPS columns of the systolic array, 1..255 (default 16)");

static bool fake_iommu;
module_param(fake_iommu, bool, 0444);
MODULE_PARM_DESC(fake_iommu,
		 "Put the device behind a toy IOMMU: scattered pages at I/O virtual addresses, mmap like iommu-dma (x86 only; default 0)");

static char *of_node;
module_param(of_node, charp, 0444);
MODULE_PARM_DESC(of_node,
		 "Full path of a DT node to give the device (its memory-region, interrupts); default none");

/* Probe-time fault: the wrapper ID reads 0 once CTRL.flush was written. */
static bool inject_bad_id;
module_param(inject_bad_id, bool, 0644);
MODULE_PARM_DESC(inject_bad_id,
		 "Wrapper ID reads 0 after a CTRL.flush (a block that does not come back from reset)");

/* Fault injection, writable at run time. */
static bool inject_hang;
static bool inject_bus_error;
static uint inject_drop_irq;
static uint inject_overflow_after;

/* Timing of the engine and of its flush, writable at run time. */
static uint exec_delay_ms;
module_param(exec_delay_ms, uint, 0644);
MODULE_PARM_DESC(exec_delay_ms,
		 "Each wrapper descriptor takes at least this long; a flush cuts it short (default 0)");

static uint flush_drain_ms;
module_param(flush_drain_ms, uint, 0644);
MODULE_PARM_DESC(flush_drain_ms,
		 "A flush lets the descriptor being executed finish writing its outputs, this long after the flush; STATUS.busy stays 1 meanwhile (default 0: it stops at once)");

static bool inject_stuck_busy;
module_param(inject_stuck_busy, bool, 0644);
MODULE_PARM_DESC(inject_stuck_busy,
		 "A flush that reaches an executing descriptor never completes: STATUS.busy stays 1 until this is cleared (default 0)");

/* ---------------------------------------------------------------------- */
/* Interrupts                                                             */
/* ---------------------------------------------------------------------- */

/*
 * Fire every line that is high and unmasked. Runs from the irq_work, in
 * hard interrupt context with the model lock not held, so the driver's
 * handler may use the regmaps.
 */
static void e1sim_irq_work(struct irq_work *work)
{
	struct e1sim *sim = container_of(work, struct e1sim, irq_work);
	unsigned int line;

	for (line = 0; line < E1_IRQ_COUNT; line++) {
		if (!test_bit(line, &sim->level) || test_bit(line, &sim->masked))
			continue;
		generic_handle_domain_irq_safe(sim->domain, line);
	}
}

/* Model callback, called with sim->lock held: record, fire later. */
static void e1sim_model_irq(void *ctx, unsigned int line, bool level)
{
	struct e1sim *sim = ctx;

	if (line >= E1_IRQ_COUNT)
		return;
	if (level) {
		set_bit(line, &sim->level);
		irq_work_queue(&sim->irq_work);
	} else {
		clear_bit(line, &sim->level);
	}
}

static void e1sim_irq_mask(struct irq_data *d)
{
	struct e1sim *sim = irq_data_get_irq_chip_data(d);

	set_bit(irqd_to_hwirq(d), &sim->masked);
}

static void e1sim_irq_unmask(struct irq_data *d)
{
	struct e1sim *sim = irq_data_get_irq_chip_data(d);
	irq_hw_number_t hwirq = irqd_to_hwirq(d);

	clear_bit(hwirq, &sim->masked);
	/* Level triggered: a line still high fires again once unmasked. */
	if (test_bit(hwirq, &sim->level))
		irq_work_queue(&sim->irq_work);
}

static int e1sim_irq_set_type(struct irq_data *d, unsigned int type)
{
	type &= IRQ_TYPE_SENSE_MASK;
	if (type != IRQ_TYPE_NONE && type != IRQ_TYPE_LEVEL_HIGH)
		return -EINVAL;
	return 0;
}

static struct irq_chip e1sim_irq_chip = {
	.name		= "e1npu-sim",
	.irq_mask	= e1sim_irq_mask,
	.irq_unmask	= e1sim_irq_unmask,
	.irq_set_type	= e1sim_irq_set_type,
	.flags		= IRQCHIP_SKIP_SET_WAKE,
};

static int e1sim_irq_domain_map(struct irq_domain *domain, unsigned int virq,
				irq_hw_number_t hwirq)
{
	struct e1sim *sim = domain->host_data;

	irq_set_chip_data(virq, sim);
	irq_set_chip_and_handler(virq, &e1sim_irq_chip, handle_level_irq);
	irq_set_status_flags(virq, IRQ_LEVEL);
	irq_set_noprobe(virq);
	return 0;
}

static void e1sim_irq_domain_unmap(struct irq_domain *domain,
				   unsigned int virq)
{
	irq_set_chip_and_handler(virq, NULL, NULL);
	irq_set_chip_data(virq, NULL);
}

static const struct irq_domain_ops e1sim_irq_domain_ops = {
	.map	= e1sim_irq_domain_map,
	.unmap	= e1sim_irq_domain_unmap,
	.xlate	= irq_domain_xlate_onecell,
};

static int e1sim_irq_init(struct e1sim *sim)
{
	unsigned int line;

	sim->masked = BIT(E1_IRQ_COUNT) - 1;
	init_irq_work(&sim->irq_work, e1sim_irq_work);

	sim->fwnode = irq_domain_alloc_named_fwnode(E1SIM_NAME);
	if (!sim->fwnode)
		return -ENOMEM;
	sim->domain = irq_domain_create_linear(sim->fwnode, E1_IRQ_COUNT,
					       &e1sim_irq_domain_ops, sim);
	if (!sim->domain) {
		irq_domain_free_fwnode(sim->fwnode);
		sim->fwnode = NULL;
		return -ENOMEM;
	}
	for (line = 0; line < E1_IRQ_COUNT; line++) {
		sim->virq[line] = irq_create_mapping(sim->domain, line);
		if (!sim->virq[line])
			return -ENOMEM;
	}
	return 0;
}

static void e1sim_irq_fini(struct e1sim *sim)
{
	unsigned int line;

	if (!sim->domain)
		return;
	irq_work_sync(&sim->irq_work);
	for (line = 0; line < E1_IRQ_COUNT; line++)
		if (sim->virq[line])
			irq_dispose_mapping(sim->virq[line]);
	irq_domain_remove(sim->domain);
	irq_domain_free_fwnode(sim->fwnode);
	sim->domain = NULL;
}

/* ---------------------------------------------------------------------- */
/* Memory                                                                 */
/* ---------------------------------------------------------------------- */

/*
 * System RAM as at load time. page_is_ram() takes resource_lock, a lock
 * taken with interrupts on, which must not nest inside the model lock
 * (interrupts off, also taken from the driver's hard IRQ handler through
 * the regmap): lockdep reports that as an irq lock inversion. Memory
 * hotplug is not supported.
 */
#define E1SIM_RAM_MAX	32
static struct {
	u64 start;
	u64 end;
} e1sim_ram[E1SIM_RAM_MAX];
static unsigned int e1sim_ram_count;

static int e1sim_ram_add(struct resource *res, void *arg)
{
	if (e1sim_ram_count == E1SIM_RAM_MAX)
		return 1;
	e1sim_ram[e1sim_ram_count].start = res->start;
	e1sim_ram[e1sim_ram_count].end = res->end;
	e1sim_ram_count++;
	return 0;
}

static bool e1sim_is_ram(u64 addr, u64 last)
{
	unsigned int i;

	for (i = 0; i < e1sim_ram_count; i++)
		if (addr >= e1sim_ram[i].start && last <= e1sim_ram[i].end)
			return true;
	return false;
}

/*
 * Bus addresses are physical addresses (dma-direct without an IOMMU or
 * memory encryption): RAM is reached through the direct map. Anything else
 * answers with a bus error.
 */
static void *e1sim_model_map(void *ctx, u64 addr, u64 len, bool write)
{
	struct e1sim *sim = ctx;
	bool handled;
	void *va;
	u64 last;

	e1sim_guard_check(sim->guard, sim->model, sim->guard_dp, addr, len,
			  write);
	if (!len || check_add_overflow(addr, len - 1, &last))
		return NULL;
	/* toy IOMMU or a DT region (e1npu_sim_mem.c) */
	va = e1sim_mem_map(addr, last, &handled);
	if (handled)
		return va;
	if ((phys_addr_t)last != last)
		return NULL;
	if (!pfn_valid(PHYS_PFN(addr)) || !pfn_valid(PHYS_PFN(last)))
		return NULL;
	if (!e1sim_is_ram(addr, last))
		return NULL;
	return phys_to_virt((phys_addr_t)addr);
}

/* ---------------------------------------------------------------------- */
/* Registers and execution                                                */
/* ---------------------------------------------------------------------- */

/* Model callback between blocks of a computation (process context). */
static void e1sim_model_yield(void *ctx)
{
	cond_resched();
}

/* The executing descriptor was flushed since it began; sim->lock held. */
static bool e1sim_flushed(struct e1sim *sim)
{
	return sim->model->v0.exec_gen != sim->model->v0.flush_gen;
}

/* Sleep @ms in small steps, ending early on a flush or unload. */
static void e1sim_sleep(struct e1sim *sim, unsigned int ms)
{
	unsigned long end = jiffies + msecs_to_jiffies(ms);

	while (time_before(jiffies, end) && !READ_ONCE(sim->dying) &&
	       !READ_ONCE(sim->model->v0.abort))
		msleep(20);
}

/*
 * After the computation: model what a flush that reached it does. With
 * flush_drain_ms the descriptor is finished (outputs written) that long
 * after the flush; with inject_stuck_busy the engine stays busy until the
 * parameter is cleared. It is retired by neither (step_end sees the flush).
 */
static void e1sim_drain(struct e1sim *sim)
{
	unsigned long flags;
	bool flushed;

	spin_lock_irqsave(&sim->lock, flags);
	flushed = e1sim_flushed(sim);
	if (flushed && flush_drain_ms)
		WRITE_ONCE(sim->model->v0.abort, false);
	spin_unlock_irqrestore(&sim->lock, flags);
	if (!flushed)
		return;
	while (READ_ONCE(inject_stuck_busy) && !READ_ONCE(sim->dying))
		msleep(20);
	if (flush_drain_ms && !READ_ONCE(sim->dying)) {
		msleep(flush_drain_ms);
		e1_model_step_compute(sim->model);
	}
}

/* A doorbell with a bad index latches a queue overflow at DESC_HEAD. */
static void e1sim_inject_overflow(struct e1sim *sim)
{
	e1_model_write(sim->model, E1_WIN_WRAPPER * E1_WIN_SIZE +
		       E1_V0_DESC_DOORBELL, E1_V0_RING_LEN_MAX);
}

static void e1sim_run_work(struct work_struct *work)
{
	struct e1sim *sim = container_of(work, struct e1sim, run_work);
	unsigned long flags;
	enum e1_step st;

	for (;;) {
		spin_lock_irqsave(&sim->lock, flags);
		st = E1_STEP_IDLE;
		if (!sim->dying && e1_model_pending(sim->model)) {
			if (inject_overflow_after == 1) {
				inject_overflow_after = 0;
				e1sim_inject_overflow(sim);
			} else {
				st = e1_model_step_begin(sim->model);
			}
		}
		spin_unlock_irqrestore(&sim->lock, flags);
		if (st == E1_STEP_IDLE)
			return;
		if (st == E1_STEP_COMPUTE) {
			/* No lock: registers and interrupts go on meanwhile. */
			e1sim_sleep(sim, READ_ONCE(exec_delay_ms));
			e1_model_step_compute(sim->model);
			e1sim_drain(sim);
			spin_lock_irqsave(&sim->lock, flags);
			if (e1_model_step_end(sim->model) &&
			    inject_overflow_after > 1)
				inject_overflow_after--;
			spin_unlock_irqrestore(&sim->lock, flags);
		}
		cond_resched();
	}
}

/* Called with sim->lock held after anything that may start the ring. */
static void e1sim_kick(struct e1sim *sim)
{
	if (!sim->dying && e1_model_pending(sim->model))
		queue_work(sim->wq, &sim->run_work);
}

static int e1sim_reg_read(struct e1sim *sim, u32 win, unsigned int reg,
			  unsigned int *val)
{
	unsigned long flags;

	spin_lock_irqsave(&sim->lock, flags);
	*val = e1_model_read(sim->model, win * E1_WIN_SIZE + reg);
	spin_unlock_irqrestore(&sim->lock, flags);
	return 0;
}

static int e1sim_reg_write(struct e1sim *sim, u32 win, unsigned int reg,
			   unsigned int val)
{
	unsigned long flags;

	spin_lock_irqsave(&sim->lock, flags);
	sim->guard_dp = win == E1_WIN_DATAPATH;
	e1_model_write(sim->model, win * E1_WIN_SIZE + reg, val);
	sim->guard_dp = false;
	e1sim_kick(sim);
	spin_unlock_irqrestore(&sim->lock, flags);
	return 0;
}

/*
 * inject_bad_id on wrapper register @off (probe is single-threaded: no
 * lock). Only a flush written while the parameter is set counts: the ID
 * reads right before the probe's reset and wrong after it.
 */
static void e1sim_bad_id(struct e1sim *sim, u32 off, bool write, u32 val,
			 unsigned int *rval)
{
	if (!READ_ONCE(inject_bad_id)) {
		WRITE_ONCE(sim->flushed, false);
		return;
	}
	if (write && off == E1_V0_CTRL && (val & E1_V0_CTRL_FLUSH))
		WRITE_ONCE(sim->flushed, true);
	if (!write && off == E1_V0_ID && READ_ONCE(sim->flushed))
		*rval = 0;
}

static int e1sim_wrapper_read(void *ctx, unsigned int reg, unsigned int *val)
{
	int ret = e1sim_reg_read(ctx, E1_WIN_WRAPPER, reg, val);

	e1sim_bad_id(ctx, reg, false, 0, val);
	return ret;
}

static int e1sim_wrapper_write(void *ctx, unsigned int reg, unsigned int val)
{
	e1sim_bad_id(ctx, reg, true, val, NULL);
	return e1sim_reg_write(ctx, E1_WIN_WRAPPER, reg, val);
}

static int e1sim_datapath_read(void *ctx, unsigned int reg, unsigned int *val)
{
	return e1sim_reg_read(ctx, E1_WIN_DATAPATH, reg, val);
}

static int e1sim_datapath_write(void *ctx, unsigned int reg, unsigned int val)
{
	return e1sim_reg_write(ctx, E1_WIN_DATAPATH, reg, val);
}

static const struct regmap_config e1sim_wrapper_regmap_config = {
	.name		= "wrapper",
	.reg_bits	= 32,
	.val_bits	= 32,
	.reg_stride	= 4,
	.max_register	= E1_WIN_SIZE - 4,
	.reg_read	= e1sim_wrapper_read,
	.reg_write	= e1sim_wrapper_write,
	.cache_type	= REGCACHE_NONE,
	.fast_io	= true,
};

static const struct regmap_config e1sim_datapath_regmap_config = {
	.name		= "datapath",
	.reg_bits	= 32,
	.val_bits	= 32,
	.reg_stride	= 4,
	.max_register	= E1_WIN_SIZE - 4,
	.reg_read	= e1sim_datapath_read,
	.reg_write	= e1sim_datapath_write,
	.cache_type	= REGCACHE_NONE,
	.fast_io	= true,
};

/* ---------------------------------------------------------------------- */
/* Fault injection parameters                                             */
/* ---------------------------------------------------------------------- */

/* Fault the whole bus address space, or nothing; sim->lock held. */
static void e1sim_apply_bus_error(struct e1sim *sim)
{
	e1_model_clear_faults(sim->model);
	if (inject_bus_error)
		e1_model_inject_fault(sim->model, 0, U64_MAX, E1_MEM_ERROR);
}

static int e1sim_param_set(const char *val, const struct kernel_param *kp)
{
	unsigned long flags;
	int ret;

	mutex_lock(&e1sim_param_lock);
	if (kp->arg == &inject_overflow_after) {
		unsigned int v;

		/* Counted down by the work item under the model lock. */
		ret = kstrtouint(val, 0, &v);
		if (!ret && e1sim) {
			spin_lock_irqsave(&e1sim->lock, flags);
			inject_overflow_after = v;
			spin_unlock_irqrestore(&e1sim->lock, flags);
		} else if (!ret) {
			inject_overflow_after = v;
		}
		mutex_unlock(&e1sim_param_lock);
		return ret;
	}
	if (kp->arg == &inject_drop_irq)
		ret = param_set_uint(val, kp);
	else
		ret = param_set_bool(val, kp);
	if (!ret && e1sim) {
		spin_lock_irqsave(&e1sim->lock, flags);
		if (kp->arg == &inject_hang)
			e1_model_inject_hang(e1sim->model, inject_hang);
		else if (kp->arg == &inject_drop_irq)
			e1_model_inject_drop_irq(e1sim->model, inject_drop_irq);
		else
			e1sim_apply_bus_error(e1sim);
		/* A cleared fault may let committed work run again. */
		e1sim_kick(e1sim);
		spin_unlock_irqrestore(&e1sim->lock, flags);
	}
	mutex_unlock(&e1sim_param_lock);
	return ret;
}

/* Report the model's state: a flush ends a hang, interrupts get dropped. */
static int e1sim_param_get(char *buffer, const struct kernel_param *kp)
{
	unsigned long flags;
	int ret;

	mutex_lock(&e1sim_param_lock);
	if (e1sim) {
		spin_lock_irqsave(&e1sim->lock, flags);
		if (kp->arg == &inject_hang)
			inject_hang = e1sim->model->hang;
		else if (kp->arg == &inject_drop_irq)
			inject_drop_irq = e1sim->model->drop_irqs;
		spin_unlock_irqrestore(&e1sim->lock, flags);
	}
	if (kp->arg == &inject_drop_irq || kp->arg == &inject_overflow_after)
		ret = param_get_uint(buffer, kp);
	else
		ret = param_get_bool(buffer, kp);
	mutex_unlock(&e1sim_param_lock);
	return ret;
}

static const struct kernel_param_ops e1sim_fault_ops = {
	.set = e1sim_param_set,
	.get = e1sim_param_get,
};

module_param_cb(inject_hang, &e1sim_fault_ops, &inject_hang, 0644);
MODULE_PARM_DESC(inject_hang,
		 "Hang the wrapper engine until the driver flushes it (bool; reads 0 after the flush)");
module_param_cb(inject_bus_error, &e1sim_fault_ops, &inject_bus_error, 0644);
MODULE_PARM_DESC(inject_bus_error,
		 "Answer every bus access of the device with a bus error (bool)");
module_param_cb(inject_drop_irq, &e1sim_fault_ops, &inject_drop_irq, 0644);
MODULE_PARM_DESC(inject_drop_irq,
		 "Lose the next N rising interrupt edges (reads the count left)");
module_param_cb(inject_overflow_after, &e1sim_fault_ops, &inject_overflow_after,
		0644);
MODULE_PARM_DESC(inject_overflow_after,
		 "N > 0: after N - 1 more descriptors retire, latch a queue overflow at DESC_HEAD, a slot no job owns (reads the count left; 0 off)");

/* ---------------------------------------------------------------------- */
/* Module                                                                 */
/* ---------------------------------------------------------------------- */

static int e1sim_register_pdev(struct e1sim *sim)
{
	static const char * const names[E1_IRQ_COUNT] = {
		[E1_IRQ_NPU] = E1NPU_IRQ_NAME_NPU,
		[E1_IRQ_FALLBACK] = E1NPU_IRQ_NAME_FALLBACK,
		[E1_IRQ_DATAPATH] = E1NPU_IRQ_NAME_DATAPATH,
	};
	struct e1npu_platform_data pdata = {
		.wrapper = sim->wrapper,
		.datapath = sim->datapath,
		.guard_job = e1sim_guard_set,
		.guard_ctx = sim->guard,
	};
	struct resource res[E1_IRQ_COUNT] = {};
	struct platform_device_info info = {
		.name		= E1NPU_SIM_DEVICE_NAME,
		.id		= PLATFORM_DEVID_NONE,
		.res		= res,
		.data		= &pdata,
		.size_data	= sizeof(pdata),
		.dma_mask	= DMA_BIT_MASK(64),
	};
	unsigned int line, n = 0;

	if (sim->np) {
		info.fwnode = of_fwnode_handle(sim->np);
		info.of_node_reused = true;
	}
	for (line = 0; line < E1_IRQ_COUNT; line++) {
		bool present = line == E1_IRQ_DATAPATH ? datapath : wrapper;

		if (!present)
			continue;
		res[n] = DEFINE_RES_NAMED(sim->virq[line], 1, names[line],
					  IORESOURCE_IRQ);
		n++;
	}
	info.num_res = n;

	sim->pdev = platform_device_register_full(&info);
	if (IS_ERR(sim->pdev)) {
		int ret = PTR_ERR(sim->pdev);

		sim->pdev = NULL;
		return ret;
	}
	/* before e1npu.ko binds (the tests load it after this module) */
	e1sim_mem_attach(&sim->pdev->dev);
	return 0;
}

static void e1sim_destroy(struct e1sim *sim)
{
	unsigned long flags;

	/* Unbind e1npu.ko first: it may still use the registers. */
	if (sim->pdev)
		platform_device_unregister(sim->pdev);
	if (sim->wq) {
		spin_lock_irqsave(&sim->lock, flags);
		WRITE_ONCE(sim->dying, true);
		/* A computation in progress stops at its next block. */
		WRITE_ONCE(sim->model->v0.abort, true);
		spin_unlock_irqrestore(&sim->lock, flags);
		cancel_work_sync(&sim->run_work);
		destroy_workqueue(sim->wq);
	}
	e1sim_irq_fini(sim);
	e1sim_mem_fini();
	of_node_put(sim->np);
	if (sim->datapath)
		regmap_exit(sim->datapath);
	if (sim->wrapper)
		regmap_exit(sim->wrapper);
	e1sim_guard_destroy(sim->guard);
	vfree(sim->model);
	kfree(sim);
}

static int __init e1sim_init(void)
{
	struct e1_model_config cfg;
	struct e1_model_host host;
	struct e1sim *sim;
	unsigned long flags;
	int ret;

	if (!wrapper && !datapath) {
		pr_err(E1SIM_NAME ": wrapper=0 and datapath=0: nothing to simulate\n");
		return -EINVAL;
	}
	if (!rows || rows > 255 || !cols || cols > 255) {
		pr_err(E1SIM_NAME ": rows and cols must be 1..255\n");
		return -EINVAL;
	}

	e1sim_ram_count = 0;
	walk_iomem_res_desc(IORES_DESC_NONE,
			    IORESOURCE_SYSTEM_RAM | IORESOURCE_BUSY, 0, U64_MAX,
			    NULL, e1sim_ram_add);
	if (!e1sim_ram_count)
		pr_warn(E1SIM_NAME ": no System RAM resource: every device access is a bus error\n");

	sim = kzalloc(sizeof(*sim), GFP_KERNEL);
	if (!sim)
		return -ENOMEM;
	spin_lock_init(&sim->lock);
	INIT_WORK(&sim->run_work, e1sim_run_work);

	sim->guard = e1sim_guard_create();
	sim->model = vzalloc(sizeof(*sim->model));
	if (!sim->guard || !sim->model) {
		ret = -ENOMEM;
		goto err;
	}
	e1_model_default_config(&cfg);
	cfg.wrapper_present = wrapper;
	cfg.datapath_present = datapath;
	cfg.gemmini_present = gemmini_present;
	cfg.rows = rows;
	cfg.cols = cols;
	host.map = e1sim_model_map;
	host.irq = e1sim_model_irq;
	host.ctx = sim;
	e1_model_init(sim->model, &cfg, &host);
	e1_model_set_yield(sim->model, e1sim_model_yield);

	sim->wq = alloc_ordered_workqueue(E1SIM_NAME, 0);
	if (!sim->wq) {
		ret = -ENOMEM;
		goto err;
	}

	ret = e1sim_irq_init(sim);
	if (ret)
		goto err;

	if (wrapper) {
		sim->wrapper = regmap_init(NULL, NULL, sim,
					   &e1sim_wrapper_regmap_config);
		if (IS_ERR(sim->wrapper)) {
			ret = PTR_ERR(sim->wrapper);
			sim->wrapper = NULL;
			goto err;
		}
	}
	if (datapath) {
		sim->datapath = regmap_init(NULL, NULL, sim,
					    &e1sim_datapath_regmap_config);
		if (IS_ERR(sim->datapath)) {
			ret = PTR_ERR(sim->datapath);
			sim->datapath = NULL;
			goto err;
		}
	}

	mutex_lock(&e1sim_param_lock);
	spin_lock_irqsave(&sim->lock, flags);
	e1_model_inject_hang(sim->model, inject_hang);
	e1_model_inject_drop_irq(sim->model, inject_drop_irq);
	e1sim_apply_bus_error(sim);
	spin_unlock_irqrestore(&sim->lock, flags);
	e1sim = sim;
	mutex_unlock(&e1sim_param_lock);

	ret = e1sim_mem_init(of_node, fake_iommu, &sim->np);
	if (ret)
		goto err_unpublish;
	ret = e1sim_register_pdev(sim);
	if (ret)
		goto err_unpublish;

	pr_info(E1SIM_NAME ": %s%s%s, gemmini_present=%d, %ux%u\n",
		wrapper ? "wrapper" : "", wrapper && datapath ? "+" : "",
		datapath ? "datapath" : "", gemmini_present, rows, cols);
	return 0;

err_unpublish:
	mutex_lock(&e1sim_param_lock);
	e1sim = NULL;
	mutex_unlock(&e1sim_param_lock);
err:
	e1sim_destroy(sim);
	return ret;
}

static void __exit e1sim_exit(void)
{
	struct e1sim *sim;

	mutex_lock(&e1sim_param_lock);
	sim = e1sim;
	mutex_unlock(&e1sim_param_lock);

	/* Keep e1sim published while the driver unbinds; then unpublish. */
	if (sim->pdev) {
		platform_device_unregister(sim->pdev);
		sim->pdev = NULL;
	}
	mutex_lock(&e1sim_param_lock);
	e1sim = NULL;
	mutex_unlock(&e1sim_param_lock);
	e1sim_destroy(sim);
}

module_init(e1sim_init);
module_exit(e1sim_exit);

MODULE_DESCRIPTION("e1 NPU simulator: platform device backed by the device model");
MODULE_AUTHOR("e1 NPU stack developers");
MODULE_LICENSE("GPL");

/*
 * The device model. kernel/Kbuild.sim compiles each model source as an
 * object of its own (kernel/e1npu_sim_model_*.c) and defines
 * E1NPU_SIM_MODEL_OBJS; when e1npu_sim.c is built as a single-object module
 * instead (a Kbuild with only "obj-m += e1npu_sim.o"), the model sources
 * and e1npu_sim_mem.c are part of this translation unit.
 */
#ifndef E1NPU_SIM_MODEL_OBJS
#include "e1npu_sim_mem.c"
#include "e1npu_sim_guard.c"
#include "../model/e1_model.c"
#include "../model/e1_v0.c"
#include "../model/e1_dp.c"
#include "../model/e1_timing.c"
#if __has_include("../model/e1_matmul.c")
#include "../model/e1_matmul.c"
#endif
#endif
