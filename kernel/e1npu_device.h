/* SPDX-License-Identifier: GPL-2.0-only */
/* e1 NPU DRM accel driver: the device structure and register access. */
#ifndef __E1NPU_DEVICE_H__
#define __E1NPU_DEVICE_H__

#include <linux/atomic.h>
#include <linux/io.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>
#include <drm/drm_device.h>
#include <drm/drm_file.h>
#include <drm/drm_print.h>
#include <drm/drm_mm.h>
#include <drm/e1npu_accel.h>
#include <drm/gpu_scheduler.h>

#include "e1npu_opcheck.h"

struct clk_bulk_data;
struct reset_control;

#define E1NPU_DRIVER_NAME	"e1npu"

/*
 * Address bits the NPU drives as a bus master (descriptor fetch, tensors).
 * ASSUMPTION (Documentation/hardware-contract.md, 1.1): 32 on the
 * reference SoC, although every address register and descriptor field is
 * a LO/HI pair; the HI halves are written (0 under this mask). Widen here
 * once RTL confirms a wider master.
 */
#define E1NPU_DMA_BITS		32

/* Register windows (reg-names) and interrupt lines (interrupt-names). */
#define E1NPU_WIN_NAME_WRAPPER	"wrapper"
#define E1NPU_WIN_NAME_DATAPATH	"datapath"
#define E1NPU_IRQ_NAME_NPU	"npu"
#define E1NPU_IRQ_NAME_FALLBACK	"fallback"

/* Module parameters (e1npu_drv.c). */
extern unsigned int e1npu_arena_size_param;
extern unsigned int e1npu_timeout_ms;
extern unsigned int e1npu_ring_len_param;
extern unsigned long e1npu_file_quota;
extern unsigned long e1npu_host_file_max;
extern unsigned long e1npu_host_dev_max;
extern unsigned int e1npu_flush_timeout_ms;

/**
 * struct e1npu_engine - one drm_sched instance and its software counters
 * @sched: the scheduler feeding this engine
 * @wq: ordered workqueue the scheduler submits from
 * @exec_wq: datapath: ordered workqueue its jobs execute on
 * @present: the engine's register window exists
 * @jobs_completed: jobs that finished without error
 * @jobs_failed: jobs that finished with an error
 * @last_end_ns: ktime (ns) the engine last finished a job, for fdinfo busy
 *	time: a queued job's busy time starts when its predecessor ended
 */
struct e1npu_engine {
	struct drm_gpu_scheduler sched;
	struct workqueue_struct *wq;
	struct workqueue_struct *exec_wq;
	bool present;
	atomic64_t jobs_completed;
	atomic64_t jobs_failed;
	atomic64_t last_end_ns;
};

/**
 * struct e1npu_client - per-file accounting that may outlive the file
 * @ref: held by the file, each of its jobs and each buffer it created
 * @busy_ns: per engine (enum drm_e1npu_engine), ns spent on its jobs
 * @mem_used: arena bytes of the buffers it created; under the mm_lock
 * @host_used: bytes of the DRM_E1NPU_BO_HOST buffers it created; under the
 *	mm_lock
 */
struct e1npu_client {
	struct kref ref;
	atomic64_t busy_ns[2];
	u64 mem_used;
	u64 host_used;
};

struct e1npu_client *e1npu_client_alloc(void);
struct e1npu_client *e1npu_client_get(struct e1npu_client *client);
void e1npu_client_put(struct e1npu_client *client);
void e1npu_show_fdinfo(struct drm_printer *p, struct drm_file *file);

/*
 * Hardware perf counters (e1npu_perfmon.c, shown in sysfs perf/): the
 * UAPI's enum drm_e1npu_perf_counter values, 0 to E1NPU_PERF_NUM - 1.
 */
#define E1NPU_PERF_NUM	(DRM_E1NPU_PERF_DP_SCRATCH_BYTES + 1)

/**
 * struct e1npu_device - one e1 NPU
 * @drm: the DRM (accel) device
 * @wrap: the wrapper's register window, NULL when absent
 * @dp: the datapath's register window, NULL when absent
 * @lim: what submissions may use (shared rules, e1npu_opcheck.c)
 * @arena_vaddr: CPU address of the tensor arena
 * @arena_dma: device address of the tensor arena
 * @arena_size: bytes of the arena
 * @mm_lock: guards @mm, @host_used and the clients' mem_used and host_used
 * @mm: sub-allocator of the arena
 * @ring_vaddr: CPU address of the wrapper descriptor ring
 * @ring_dma: device address of the ring
 * @ring_len: descriptors in the ring (power of two)
 * @ring_lock: for the ring state below and the hardware ring registers;
 *	taken by run_job, the IRQ threads, recovery, suspend and resume
 * @retire_lock: for @ring_tail and @inflight, which the hard IRQ handler
 *	also uses (it retires jobs); inside @ring_lock where both are taken
 * @ring_head: next free slot (software producer index)
 * @ring_tail: first slot not yet seen retired
 * @inflight: wrapper jobs written to the ring, oldest first
 * @unplugged: set under @ring_lock at removal: run_job fails jobs at once
 * @wedged: set under @ring_lock when the wrapper stayed busy after a flush
 *	(it may still write memory): SUBMIT fails with -EIO, run_job fails
 *	jobs with -EIO, the registers are not programmed again
 * @pinned: &struct e1npu_pin records: buffers of the jobs in flight when the
 *	device wedged, kept allocated (never reused) until the device is
 *	released
 * @wedged_work: sends the WEDGED=rebind uevent, outside the fence paths
 * @irq_npu: the wrapper's main interrupt
 * @irq_fallback: the wrapper's fallback interrupt, or -ENXIO
 * @irq_mask: IRQ_MASK bits the driver enables
 * @clks: the clocks of the binding, if any (enabled while resumed)
 * @num_clks: entries of @clks
 * @clock_hz: rate of the NPU's core clock, 0 when unknown (no clock)
 * @rst: the reset line of the binding, or NULL
 * @dp_lock: held around each datapath operation, so that a reset-line
 *	pulse never falls inside one (its registers would read reset values)
 * @perf_lock: guards @perf_base and orders perf/ reads against a pulse
 * @perf_base: per enum e1npu_perf, what the counters held before the last
 *	reset-line pulses cleared them
 * @pm_probe_ref: probe still holds its runtime-PM usage reference
 * @clocks_on: the clocks are enabled (runtime PM's callbacks and probe
 *	change it; read at teardown, after runtime PM is disabled)
 * @wrapper: the wrapper engine's scheduler and counters
 * @datapath: the datapath engine's scheduler and counters
 * @timeout_wq: ordered queue of both schedulers' timeout handlers (the
 *	engines share the NPU's reset line)
 * @jobs_alive: jobs allocated and not yet freed; the DRM device's release
 *	waits for 0 (killed jobs are freed from the system workqueue)
 * @jobs_retired: jobs whose outcome is out (result, then hardware fence) and not
 *	yet freed (their buffers still hold arena space); BO_CREATE waits on
 *	it before reporting a full arena
 * @seqno: job sequence number, for fence seqnos and descriptor tags
 * @fence_context: dma_fence context of hardware fences
 * @fence_lock: lock of hardware fences
 * @resets: device resets (timeouts and hard errors)
 * @fallbacks: operations handed back under the CPU-fallback contract
 * @hard_errors: window, bus and overflow errors seen
 * @fail_submit_deps: fault injection (debugfs fail_submit_deps): 1 + the
 *	index of a SUBMIT's job whose dependencies then fail with -ENOMEM,
 *	once; 0 = off
 * @host_used: bytes of all DRM_E1NPU_BO_HOST buffers; under @mm_lock
 */
struct e1npu_device {
	struct drm_device drm;
	void __iomem *wrap;
	void __iomem *dp;
	struct e1npu_limits lim;

	void *arena_vaddr;
	dma_addr_t arena_dma;
	u64 arena_size;
	/* Guards mm: BO creation and destruction. */
	struct mutex mm_lock;
	struct drm_mm mm;

	void *ring_vaddr;
	dma_addr_t ring_dma;
	u32 ring_len;
	/* For ring_head, unplugged, wedged and the ring registers. */
	struct mutex ring_lock;
	/* For ring_tail and inflight; taken in hard IRQ context. */
	spinlock_t retire_lock;
	u32 ring_head;
	u32 ring_tail;
	struct list_head inflight;
	bool unplugged;
	bool wedged;
	struct list_head pinned;
	struct work_struct wedged_work;

	int irq_npu;
	int irq_fallback;
	u32 irq_mask;

	struct clk_bulk_data *clks;
	int num_clks;
	unsigned long clock_hz;
	struct reset_control *rst;
	bool pm_probe_ref;
	bool clocks_on;
	/* Around each datapath operation; before perf_lock. */
	struct mutex dp_lock;
	/* Guards perf_base. */
	struct mutex perf_lock;
	u64 perf_base[E1NPU_PERF_NUM];

	struct e1npu_engine wrapper;
	struct e1npu_engine datapath;
	struct workqueue_struct *timeout_wq;
	atomic_t jobs_alive;
	atomic_t jobs_retired;
	atomic64_t seqno;
	u64 fence_context;
	/* Lock of all hardware fences. */
	spinlock_t fence_lock;

	atomic64_t resets;
	atomic64_t fallbacks;
	atomic64_t hard_errors;
	u32 fail_submit_deps;
	u64 host_used;
};

#define to_e1npu_device(d)	container_of_const(d, struct e1npu_device, drm)

/*
 * Wrapper registers. e1npu_wr_read() and e1npu_wr_write() are the ordered
 * accessors (readl/writel): a write is ordered after the CPU's earlier
 * memory writes (descriptors, the fallback NOP rewrite), and memory reads
 * after a read are ordered after it (outputs the engine wrote before
 * DESC_TAIL passed them). The _relaxed forms are for registers that only
 * order against other accesses to the device itself (configuration,
 * interrupt acks, perf counters, status polls).
 */
static inline u32 e1npu_wr_read(struct e1npu_device *edev, u32 off)
{
	return readl(edev->wrap + off);
}

static inline void e1npu_wr_write(struct e1npu_device *edev, u32 off, u32 v)
{
	writel(v, edev->wrap + off);
}

static inline u32 e1npu_wr_read_relaxed(struct e1npu_device *edev, u32 off)
{
	return readl_relaxed(edev->wrap + off);
}

static inline void e1npu_wr_write_relaxed(struct e1npu_device *edev, u32 off,
					  u32 v)
{
	writel_relaxed(v, edev->wrap + off);
}

/*
 * Datapath registers: relaxed. The driver runs the datapath in direct
 * mode only, where it never masters the bus: operands go in and results
 * come out through its registers, so its accesses need no ordering against
 * memory, only against each other (which relaxed accessors to one device
 * keep). Descriptor mode (the datapath reading memory) would need an
 * ordered start write.
 */
static inline u32 e1npu_dp_read(struct e1npu_device *edev, u32 off)
{
	return readl_relaxed(edev->dp + off);
}

static inline void e1npu_dp_write(struct e1npu_device *edev, u32 off, u32 v)
{
	writel_relaxed(v, edev->dp + off);
}

int e1npu_pm_init(struct e1npu_device *edev);
void e1npu_pm_probe_done(struct e1npu_device *edev);
int e1npu_pm_get(struct e1npu_device *edev);
void e1npu_pm_put(struct e1npu_device *edev);
extern const struct dev_pm_ops e1npu_pm_ops;

extern const struct attribute_group *e1npu_sysfs_groups[];
void e1npu_debugfs_init(struct e1npu_device *edev);

#endif /* __E1NPU_DEVICE_H__ */
