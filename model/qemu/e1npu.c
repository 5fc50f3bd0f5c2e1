// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The e1 NPU as a QEMU device: the project's device model (model/) behind
 * two MMIO windows, three level interrupt lines and bus-master DMA on the
 * system address space. tests/vm/qemu-build.sh compiles it, with model/,
 * into Debian's qemu-system-riscv64; hw/riscv/virt.c places it at the
 * board's addresses (model/qemu/virt-e1npu.patch). Documentation/board.md,
 * "Before silicon", says how to use it.
 *
 * Execution follows QEMU's virtual clock: a doorbell starts the wrapper
 * ring; each descriptor is fetched and checked under the BQL
 * (e1_model_step_begin()), computed on a worker thread with no lock held
 * (register accesses go on meanwhile and STATUS.busy reads 1), and
 * retired (e1_model_step_end(): COMPLETION_TAG, IRQ_STATUS, the interrupt)
 * no earlier than its modelled cycles at clock-mhz after it began.
 * Datapath commands are bounded and tiny: they complete inside the MMIO
 * write that starts them, as in every other host of the model.
 *
 * Faults and knobs are QOM properties a test sets at run time through the
 * QEMU monitor (qom-set /machine/e1npu inject-hang true); the device also
 * counts every memory range it touches against a window a test sets
 * (dma-window), so a test can prove no job reached outside its buffers.
 */
#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qemu/main-loop.h"
#include "qemu/timer.h"
#include "qemu/rcu.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "exec/address-spaces.h"
#include "exec/memory.h"
#include "block/aio.h"
#include "block/thread-pool.h"
#include "hw/irq.h"
#include "hw/qdev-properties.h"
#include "hw/sysbus.h"
#include "migration/vmstate.h"

#include "e1_model.h"

#define TYPE_E1NPU "e1npu"
OBJECT_DECLARE_SIMPLE_TYPE(E1NpuState, E1NPU)

#define E1NPU_MAX_WINDOWS 8

/* Where the wrapper ring's executing descriptor is. */
enum e1npu_run {
    E1NPU_IDLE,         /* nothing begun */
    E1NPU_COMPUTE,      /* the worker thread computes it */
    E1NPU_WAIT,         /* computed; retires when the timer fires */
    E1NPU_STUCK,        /* flushed, inject-stuck-busy holds STATUS.busy */
    E1NPU_DRAIN,        /* flushed, finishing its writes (flush-drain-ms) */
};

struct e1npu_range {
    uint64_t lo;
    uint64_t len;
};

struct E1NpuState {
    SysBusDevice parent_obj;

    MemoryRegion win[2];
    qemu_irq irq[E1_IRQ_COUNT];
    struct e1_model *model;
    ThreadPool *pool;
    QEMUTimer *timer;
    enum e1npu_run run;
    int64_t end_ns;             /* virtual time the descriptor retires */
    bool reset_pending;         /* a reset came while the worker ran */

    /* Instance (boot time). */
    bool wrapper;
    bool datapath;
    bool gemmini;
    uint8_t rows;
    uint8_t cols;
    uint32_t clock_mhz;

    /* Faults and timing knobs (run time). */
    bool hang_armed;            /* inject-hang: hang at the next descriptor */
    bool bus_error;
    bool bad_id;
    bool bad_id_armed;          /* CTRL.flush written since inject-bad-id */
    bool stuck_busy;
    uint32_t overflow_after;
    uint32_t exec_delay_ms;
    uint32_t flush_drain_ms;

    /* Isolation counters (dma-window). */
    struct e1npu_range window[E1NPU_MAX_WINDOWS];
    unsigned int nwindow;
    char *window_str;
    uint64_t accesses;
    uint64_t misses;
    char last_miss[48];
};

static void e1npu_kick(E1NpuState *s);

/* ---- memory: the model's bus master ------------------------------------ */

static bool e1npu_in(const struct e1npu_range *r, uint64_t addr, uint64_t len)
{
    return addr >= r->lo && len <= r->len && addr - r->lo <= r->len - len;
}

/* Count the access and check it against dma-window and the ring. */
static void e1npu_dma_note(E1NpuState *s, uint64_t addr, uint64_t len)
{
    const struct e1_v0 *v = &s->model->v0;
    struct e1npu_range ring = {
        v->desc_base, (uint64_t)v->ring_len * E1_V0_DESC_SIZE
    };
    unsigned int i;

    if (!s->nwindow) {
        return;
    }
    s->accesses++;
    if (e1npu_in(&ring, addr, len)) {
        return;
    }
    for (i = 0; i < s->nwindow; i++) {
        if (e1npu_in(&s->window[i], addr, len)) {
            return;
        }
    }
    s->misses++;
    snprintf(s->last_miss, sizeof(s->last_miss), "0x%" PRIx64 "+0x%" PRIx64,
             addr, len);
}

/*
 * The model asks for [addr, addr + len) once per contiguous range, while
 * it fetches and checks a descriptor (BQL held); the computation later
 * uses the pointer without a lock. Only guest RAM is DMA-able: anything
 * else (MMIO, a hole, a range crossing the end of RAM) is the model's bus
 * error. RAM is never unplugged on this machine, so the pointer stays
 * valid; pages the device writes are marked dirty here, before the write,
 * which is enough for TCG's code invalidation of tensor memory.
 */
static void *e1npu_map(void *ctx, u64 addr, u64 len, bool write)
{
    E1NpuState *s = ctx;
    MemoryRegion *mr;
    hwaddr xlat, plen = len;

    e1npu_dma_note(s, addr, len);
    if (!len || addr + len < addr) {
        return NULL;
    }
    RCU_READ_LOCK_GUARD();
    mr = address_space_translate(&address_space_memory, addr, &xlat, &plen,
                                 write, MEMTXATTRS_UNSPECIFIED);
    if (plen < len || !memory_region_is_ram(mr) ||
        memory_region_is_ram_device(mr) ||
        (write && memory_region_is_rom(mr))) {
        return NULL;
    }
    if (write) {
        memory_region_set_dirty(mr, xlat, len);
    }
    return (uint8_t *)memory_region_get_ram_ptr(mr) + xlat;
}

/* The model drives a line (BQL held: MMIO, timer or completion). */
static void e1npu_set_irq(void *ctx, unsigned int line, bool level)
{
    E1NpuState *s = ctx;

    if (line < E1_IRQ_COUNT) {
        qemu_set_irq(s->irq[line], level);
    }
}

/* ---- execution on the virtual clock ------------------------------------ */

static bool e1npu_flushed(const E1NpuState *s)
{
    return s->model->v0.exec_gen != s->model->v0.flush_gen;
}

static void e1npu_model_init(E1NpuState *s)
{
    struct e1_model_config cfg;
    struct e1_model_host host = {
        .map = e1npu_map,
        .irq = e1npu_set_irq,
        .ctx = s,
    };

    e1_model_default_config(&cfg);
    cfg.wrapper_present = s->wrapper;
    cfg.datapath_present = s->datapath;
    cfg.gemmini_present = s->gemmini;
    cfg.rows = s->rows;
    cfg.cols = s->cols;
    e1_model_init(s->model, &cfg, &host);
    if (s->bus_error) {
        e1_model_inject_fault(s->model, 0, UINT64_MAX, E1_MEM_ERROR);
    }
    s->run = E1NPU_IDLE;
    s->bad_id_armed = false;
    s->hang_armed = false;
}

/* The descriptor leaves the engine: retired, or dropped after a flush. */
static void e1npu_finish(E1NpuState *s)
{
    bool retired = e1_model_step_end(s->model);

    if (retired && s->overflow_after > 1) {
        s->overflow_after--;
    }
    s->run = E1NPU_IDLE;
    e1npu_kick(s);
}

static int e1npu_compute(void *opaque)
{
    E1NpuState *s = opaque;

    e1_model_step_compute(s->model);
    return 0;
}

static void e1npu_compute_done(void *opaque, int ret);

static void e1npu_start_compute(E1NpuState *s)
{
    s->run = E1NPU_COMPUTE;
    thread_pool_submit_aio(s->pool, e1npu_compute, s, e1npu_compute_done, s);
}

/*
 * A flush reached the executing descriptor and no computation runs: it
 * stops at once, or finishes its writes flush-drain-ms later (STATUS.busy
 * reads 1 meanwhile), or never while inject-stuck-busy holds it.
 */
static void e1npu_flush_executing(E1NpuState *s)
{
    if (s->stuck_busy) {
        s->run = E1NPU_STUCK;
        return;
    }
    if (s->flush_drain_ms) {
        s->run = E1NPU_DRAIN;
        timer_mod(s->timer, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) +
                  (int64_t)s->flush_drain_ms * SCALE_MS);
        return;
    }
    e1npu_finish(s);
}

static void e1npu_compute_done(void *opaque, int ret)
{
    E1NpuState *s = opaque;
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);

    if (s->reset_pending) {
        s->reset_pending = false;
        e1npu_model_init(s);
        return;
    }
    if (s->run == E1NPU_DRAIN) {
        /* the drained descriptor wrote everything: drop it now */
        e1npu_finish(s);
        return;
    }
    if (e1npu_flushed(s)) {
        e1npu_flush_executing(s);
        return;
    }
    s->run = E1NPU_WAIT;
    timer_mod(s->timer, MAX(s->end_ns, now));
}

static void e1npu_timer(void *opaque)
{
    E1NpuState *s = opaque;

    switch (s->run) {
    case E1NPU_WAIT:
        e1npu_finish(s);
        break;
    case E1NPU_DRAIN:
        /* the engine completes the flushed descriptor's writes */
        E1_WRITE_ONCE(s->model->v0.abort, false);
        thread_pool_submit_aio(s->pool, e1npu_compute, s,
                               e1npu_compute_done, s);
        break;
    default:
        break;
    }
}

/* A doorbell with a bad index: the queue overflow inject-overflow-after asks. */
static void e1npu_inject_overflow(E1NpuState *s)
{
    e1_model_write(s->model, E1_WIN_WRAPPER * E1_WIN_SIZE +
                   E1_V0_DESC_DOORBELL, E1_V0_RING_LEN_MAX);
}

/* Begin the next descriptor if the engine is free and has work. */
static void e1npu_kick(E1NpuState *s)
{
    uint32_t mhz = s->clock_mhz ? s->clock_mhz : 1;
    enum e1_step st;
    int64_t now;
    uint64_t ns;
    unsigned int n;

    /* descriptors that fail their checks retire at once: bounded loop */
    for (n = 0; n < E1_V0_RING_LEN_MAX && s->run == E1NPU_IDLE; n++) {
        if (s->hang_armed && e1_model_pending(s->model)) {
            s->hang_armed = false;
            e1_model_inject_hang(s->model, true);
        }
        if (!e1_model_pending(s->model)) {
            return;
        }
        if (s->overflow_after == 1) {
            s->overflow_after = 0;
            e1npu_inject_overflow(s);
            return;
        }
        st = e1_model_step_begin(s->model);
        if (st == E1_STEP_IDLE) {
            return;
        }
        if (st == E1_STEP_DONE) {
            continue;
        }
        now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
        ns = muldiv64(e1_model_step_cycles(s->model), 1000, mhz);
        ns = MAX(ns, (uint64_t)s->exec_delay_ms * SCALE_MS);
        s->end_ns = now + (int64_t)MIN(ns, (uint64_t)INT64_MAX / 2);
        e1npu_start_compute(s);
    }
}

/* ---- registers ---------------------------------------------------------- */

static uint64_t e1npu_read(E1NpuState *s, unsigned int win, hwaddr off)
{
    if (win == E1_WIN_WRAPPER && off == E1_V0_ID && s->bad_id &&
        s->bad_id_armed) {
        return 0;
    }
    return e1_model_read(s->model, win * E1_WIN_SIZE + (uint32_t)off);
}

static void e1npu_write(E1NpuState *s, unsigned int win, hwaddr off,
                        uint64_t val)
{
    uint32_t gen = s->model->v0.flush_gen;

    if (win == E1_WIN_WRAPPER && off == E1_V0_CTRL &&
        (val & E1_V0_CTRL_FLUSH)) {
        s->bad_id_armed = s->bad_id;
    }
    e1_model_write(s->model, win * E1_WIN_SIZE + (uint32_t)off,
                   (uint32_t)val);
    /* a flush stopped a computed descriptor that waits to retire */
    if (gen != s->model->v0.flush_gen && s->run == E1NPU_WAIT) {
        timer_del(s->timer);
        e1npu_flush_executing(s);
    }
    e1npu_kick(s);
}

static uint64_t e1npu_wrapper_read(void *opaque, hwaddr off, unsigned size)
{
    return e1npu_read(opaque, E1_WIN_WRAPPER, off);
}

static void e1npu_wrapper_write(void *opaque, hwaddr off, uint64_t val,
                                unsigned size)
{
    e1npu_write(opaque, E1_WIN_WRAPPER, off, val);
}

static uint64_t e1npu_datapath_read(void *opaque, hwaddr off, unsigned size)
{
    return e1npu_read(opaque, E1_WIN_DATAPATH, off);
}

static void e1npu_datapath_write(void *opaque, hwaddr off, uint64_t val,
                                 unsigned size)
{
    e1npu_write(opaque, E1_WIN_DATAPATH, off, val);
}

static const MemoryRegionOps e1npu_ops[2] = {
    [E1_WIN_WRAPPER] = {
        .read = e1npu_wrapper_read,
        .write = e1npu_wrapper_write,
        .endianness = DEVICE_LITTLE_ENDIAN,
        .valid = { .min_access_size = 4, .max_access_size = 4 },
        .impl = { .min_access_size = 4, .max_access_size = 4 },
    },
    [E1_WIN_DATAPATH] = {
        .read = e1npu_datapath_read,
        .write = e1npu_datapath_write,
        .endianness = DEVICE_LITTLE_ENDIAN,
        .valid = { .min_access_size = 4, .max_access_size = 4 },
        .impl = { .min_access_size = 4, .max_access_size = 4 },
    },
};

/* ---- run-time properties ------------------------------------------------ */

enum e1npu_knob {
    KNOB_HANG, KNOB_BUS_ERROR, KNOB_BAD_ID, KNOB_STUCK_BUSY, KNOB_GEMMINI,
    KNOB_DROP_IRQ, KNOB_OVERFLOW_AFTER, KNOB_EXEC_DELAY, KNOB_FLUSH_DRAIN,
};

static const struct {
    const char *name;
    bool is_bool;
    const char *desc;
} e1npu_knobs[] = {
    [KNOB_HANG] = { "inject-hang", true,
        "the wrapper engine hangs when it next has work, until a flush (reads 0 once a flush recovered it)" },
    [KNOB_BUS_ERROR] = { "inject-bus-error", true,
        "every device memory access gets a bus error response" },
    [KNOB_BAD_ID] = { "inject-bad-id", true,
        "the wrapper ID reads 0 after a CTRL.flush (a block that stays in reset)" },
    [KNOB_STUCK_BUSY] = { "inject-stuck-busy", true,
        "a flush that reaches an executing descriptor never completes while set" },
    [KNOB_GEMMINI] = { "gemmini-present", true,
        "CAPS.gemmini_present; changing it power-cycles the model (no driver bound)" },
    [KNOB_DROP_IRQ] = { "inject-drop-irq", false,
        "the next N interrupt rises are lost (reads back what is left)" },
    [KNOB_OVERFLOW_AFTER] = { "inject-overflow-after", false,
        "a queue overflow when N - 1 more descriptors have retired (0: off)" },
    [KNOB_EXEC_DELAY] = { "exec-delay-ms", false,
        "each wrapper descriptor takes at least this long (virtual ms)" },
    [KNOB_FLUSH_DRAIN] = { "flush-drain-ms", false,
        "a flushed descriptor finishes its writes this long after the flush" },
};

static uint32_t e1npu_knob_get(E1NpuState *s, enum e1npu_knob k)
{
    if (!s->model) {
        return k == KNOB_GEMMINI ? s->gemmini : 0;
    }
    switch (k) {
    case KNOB_HANG:
        return s->hang_armed || s->model->hang;
    case KNOB_BUS_ERROR:
        return s->bus_error;
    case KNOB_BAD_ID:
        return s->bad_id;
    case KNOB_STUCK_BUSY:
        return s->stuck_busy;
    case KNOB_GEMMINI:
        return s->gemmini;
    case KNOB_DROP_IRQ:
        return s->model->drop_irqs;
    case KNOB_OVERFLOW_AFTER:
        return s->overflow_after;
    case KNOB_EXEC_DELAY:
        return s->exec_delay_ms;
    case KNOB_FLUSH_DRAIN:
        return s->flush_drain_ms;
    }
    return 0;
}

static void e1npu_knob_set(E1NpuState *s, enum e1npu_knob k, uint32_t v,
                           Error **errp)
{
    switch (k) {
    case KNOB_HANG:
        /*
         * The engine hangs when it next has work, so a flush before that
         * (the driver's runtime resume resets the NPU) does not undo the
         * fault; a flush after it recovers the engine, as the contract
         * says.
         */
        s->hang_armed = v;
        if (!v) {
            e1_model_inject_hang(s->model, false);
        }
        break;
    case KNOB_BUS_ERROR:
        s->bus_error = v;
        e1_model_clear_faults(s->model);
        if (v) {
            e1_model_inject_fault(s->model, 0, UINT64_MAX, E1_MEM_ERROR);
        }
        break;
    case KNOB_BAD_ID:
        s->bad_id = v;
        s->bad_id_armed = false;
        break;
    case KNOB_STUCK_BUSY:
        s->stuck_busy = v;
        if (!v && s->run == E1NPU_STUCK) {
            e1npu_flush_executing(s);
        }
        break;
    case KNOB_GEMMINI:
        if (s->run != E1NPU_IDLE) {
            error_setg(errp, "gemmini-present: the engine is busy");
            return;
        }
        s->gemmini = v;
        e1npu_model_init(s);
        break;
    case KNOB_DROP_IRQ:
        e1_model_inject_drop_irq(s->model, v);
        break;
    case KNOB_OVERFLOW_AFTER:
        s->overflow_after = v;
        break;
    case KNOB_EXEC_DELAY:
        s->exec_delay_ms = v;
        break;
    case KNOB_FLUSH_DRAIN:
        s->flush_drain_ms = v;
        break;
    }
    /* a cleared fault may let committed work run again */
    e1npu_kick(s);
}

static void e1npu_prop_get(Object *obj, Visitor *v, const char *name,
                           void *opaque, Error **errp)
{
    E1NpuState *s = E1NPU(obj);
    enum e1npu_knob k = (uintptr_t)opaque;
    uint32_t val = e1npu_knob_get(s, k);
    bool b = val;

    if (e1npu_knobs[k].is_bool) {
        visit_type_bool(v, name, &b, errp);
    } else {
        visit_type_uint32(v, name, &val, errp);
    }
}

static void e1npu_prop_set(Object *obj, Visitor *v, const char *name,
                           void *opaque, Error **errp)
{
    E1NpuState *s = E1NPU(obj);
    enum e1npu_knob k = (uintptr_t)opaque;
    uint32_t val = 0;
    bool b = false;

    if (e1npu_knobs[k].is_bool) {
        if (!visit_type_bool(v, name, &b, errp)) {
            return;
        }
        val = b;
    } else if (!visit_type_uint32(v, name, &val, errp)) {
        return;
    }
    if (!DEVICE(obj)->realized) {
        /* -global: only the boot value of the plain settings */
        switch (k) {
        case KNOB_GEMMINI:
            s->gemmini = val;
            return;
        case KNOB_BUS_ERROR:
            s->bus_error = val;
            return;
        default:
            error_setg(errp, "%s can only be set at run time", name);
            return;
        }
    }
    e1npu_knob_set(s, k, val, errp);
}

/* "BASE+LEN[,BASE+LEN...]", numbers in C notation; "" switches it off. */
static bool e1npu_parse_window(E1NpuState *s, const char *str, Error **errp)
{
    struct e1npu_range r[E1NPU_MAX_WINDOWS];
    unsigned int n = 0;
    const char *p = str;
    char *end;

    while (*p) {
        if (n == E1NPU_MAX_WINDOWS) {
            error_setg(errp, "dma-window: more than %d ranges in '%s'",
                       E1NPU_MAX_WINDOWS, str);
            return false;
        }
        errno = 0;
        r[n].lo = strtoull(p, &end, 0);
        if (errno || end == p || *end != '+') {
            error_setg(errp, "dma-window: '%s' is not BASE+LEN[,BASE+LEN...]",
                       str);
            return false;
        }
        p = end + 1;
        r[n].len = strtoull(p, &end, 0);
        if (errno || end == p || (*end && *end != ',')) {
            error_setg(errp, "dma-window: '%s' is not BASE+LEN[,BASE+LEN...]",
                       str);
            return false;
        }
        p = *end ? end + 1 : end;
        n++;
    }
    memcpy(s->window, r, n * sizeof(r[0]));
    s->nwindow = n;
    return true;
}

static char *e1npu_get_window(Object *obj, Error **errp)
{
    return g_strdup(E1NPU(obj)->window_str ? E1NPU(obj)->window_str : "");
}

static void e1npu_set_window(Object *obj, const char *str, Error **errp)
{
    E1NpuState *s = E1NPU(obj);

    if (!e1npu_parse_window(s, str, errp)) {
        return;
    }
    g_free(s->window_str);
    s->window_str = g_strdup(str);
    s->accesses = 0;
    s->misses = 0;
    s->last_miss[0] = '\0';
}

static void e1npu_get_counter(Object *obj, Visitor *v, const char *name,
                              void *opaque, Error **errp)
{
    E1NpuState *s = E1NPU(obj);
    uint64_t val = opaque ? s->misses : s->accesses;

    visit_type_uint64(v, name, &val, errp);
}

static char *e1npu_get_last_miss(Object *obj, Error **errp)
{
    return g_strdup(E1NPU(obj)->last_miss);
}

/* ---- device ------------------------------------------------------------- */

static void e1npu_realize(DeviceState *dev, Error **errp)
{
    E1NpuState *s = E1NPU(dev);
    SysBusDevice *sbd = SYS_BUS_DEVICE(dev);
    static const char *const names[2] = { "e1npu.wrapper", "e1npu.datapath" };
    unsigned int i;

    if (!s->wrapper && !s->datapath) {
        error_setg(errp, "e1npu: wrapper and datapath are both off");
        return;
    }
    if (!s->rows || !s->cols) {
        error_setg(errp, "e1npu: rows %u and cols %u must be 1..255",
                   s->rows, s->cols);
        return;
    }
    if (!s->clock_mhz) {
        error_setg(errp, "e1npu: clock-mhz must be at least 1");
        return;
    }
    for (i = 0; i < 2; i++) {
        memory_region_init_io(&s->win[i], OBJECT(s), &e1npu_ops[i], s,
                              names[i], E1_WIN_SIZE);
        sysbus_init_mmio(sbd, &s->win[i]);
    }
    for (i = 0; i < E1_IRQ_COUNT; i++) {
        sysbus_init_irq(sbd, &s->irq[i]);
    }
    s->model = g_new0(struct e1_model, 1);
    s->pool = aio_get_thread_pool(qemu_get_aio_context());
    s->timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, e1npu_timer, s);
    e1npu_model_init(s);
}

static void e1npu_reset(DeviceState *dev)
{
    E1NpuState *s = E1NPU(dev);
    /* a draining descriptor either waits for its timer or computes */
    bool computing = s->run == E1NPU_COMPUTE ||
                     (s->run == E1NPU_DRAIN && !timer_pending(s->timer));

    timer_del(s->timer);
    if (computing) {
        /* the worker still uses the model: start again when it is done */
        E1_WRITE_ONCE(s->model->v0.abort, true);
        s->reset_pending = true;
        return;
    }
    e1npu_model_init(s);
}

static Property e1npu_properties[] = {
    DEFINE_PROP_BOOL("wrapper", E1NpuState, wrapper, true),
    DEFINE_PROP_BOOL("datapath", E1NpuState, datapath, true),
    DEFINE_PROP_UINT8("rows", E1NpuState, rows, 16),
    DEFINE_PROP_UINT8("cols", E1NpuState, cols, 16),
    /* the clock e1npu.ko assumes by default (its clock_mhz parameter) */
    DEFINE_PROP_UINT32("clock-mhz", E1NpuState, clock_mhz, 100),
    DEFINE_PROP_END_OF_LIST(),
};

/* Guest memory pointers and a worker thread: not migratable. */
static const VMStateDescription e1npu_vmstate = {
    .name = TYPE_E1NPU,
    .unmigratable = 1,
};

static void e1npu_instance_init(Object *obj)
{
    E1NPU(obj)->gemmini = true;
}

static void e1npu_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    uintptr_t k;

    dc->realize = e1npu_realize;
    dc->reset = e1npu_reset;
    dc->vmsd = &e1npu_vmstate;
    dc->desc = "e1 NPU (v0 wrapper + datapath, the project's device model)";
    dc->user_creatable = false;
    device_class_set_props(dc, e1npu_properties);
    for (k = 0; k < ARRAY_SIZE(e1npu_knobs); k++) {
        object_class_property_add(oc, e1npu_knobs[k].name,
                                  e1npu_knobs[k].is_bool ? "bool" : "uint32",
                                  e1npu_prop_get, e1npu_prop_set, NULL,
                                  (void *)k);
        object_class_property_set_description(oc, e1npu_knobs[k].name,
                                              e1npu_knobs[k].desc);
    }
    object_class_property_add_str(oc, "dma-window", e1npu_get_window,
                                  e1npu_set_window);
    object_class_property_set_description(oc, "dma-window",
        "BASE+LEN[,BASE+LEN...]: device memory accesses outside these "
        "ranges and the ring count as dma-window-misses; writing zeroes "
        "the counters");
    object_class_property_add(oc, "dma-accesses", "uint64",
                              e1npu_get_counter, NULL, NULL, NULL);
    object_class_property_add(oc, "dma-window-misses", "uint64",
                              e1npu_get_counter, NULL, NULL, (void *)1);
    object_class_property_add_str(oc, "dma-last-miss", e1npu_get_last_miss,
                                  NULL);
}

static const TypeInfo e1npu_info = {
    .name = TYPE_E1NPU,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(E1NpuState),
    .instance_init = e1npu_instance_init,
    .class_init = e1npu_class_init,
};

static void e1npu_register_types(void)
{
    type_register_static(&e1npu_info);
}

type_init(e1npu_register_types)
