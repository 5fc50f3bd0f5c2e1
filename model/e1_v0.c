// SPDX-License-Identifier: (GPL-2.0-only OR MIT)
/*
 * e1 NPU device model: the v0 wrapper, the Gemmini command-queue front door.
 *
 * Registers, the 64-byte descriptor ring, validation in the order of the
 * hardware contract (section 2.4), every op of the v0 set executed
 * bit-exactly, the CPU-fallback contract (2.6), perf counters and the
 * timing model. The ring only executes inside e1_v0_run(); MMIO writes
 * just change registers and commit descriptors. Its only surroundings are
 * its bus (e1_bus.h): memory, the yield hook, the timing parameters.
 */
#include "e1_v0.h"
#include "e1_matmul.h"
#include "e1_diag_vnni.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the e1 device model writes int32 outputs in host order: little-endian hosts only"
#endif

#define NTENSORS E1_V0_NTENSORS

/* What the GEMM kernel's callbacks need. */
struct v0_exec {
	const struct e1_v0 *v;
	const struct v0_op *op;
};

static bool ring_len_valid(u32 len)
{
	return len >= E1_V0_RING_LEN_MIN && len <= E1_V0_RING_LEN_MAX &&
	       !(len & (len - 1));
}

static u32 q_level(const struct e1_v0 *v)
{
	if (!ring_len_valid(v->ring_len))
		return 0;
	return (v->head - v->tail) & (v->ring_len - 1);
}

/*
 * Runs only while nothing is latched: after a CPU retire the ring waits for
 * the IRQ_STATUS.error clear too, so it never runs (and latches a new
 * error) before software has dismissed the one it is handling.
 */
static bool v0_busy(const struct e1_v0 *v)
{
	return v->armed && v->stall == E1_V0_RUNNING && !v->error &&
	       q_level(v) > 0;
}

static void v0_add_cycles(struct e1_v0 *v, u64 cycles)
{
	v->cycles += cycles;
	v->perf_cycles += cycles;
}

/*
 * Latch an error: STATUS.error/err_code, ERR_DESC_INDEX, IRQ_STATUS.error
 * plus @irq, and stop the ring.
 */
static void v0_latch(struct e1_v0 *v, u32 code, u32 index, u32 irq,
		     enum e1_v0_stall stall)
{
	v->error = true;
	v->err_code = code;
	v->err_desc_index = index;
	v->irq_status |= E1_V0_IRQ_ERROR | irq;
	if (v->stall != E1_V0_STALL_HARD)
		v->stall = stall;
}

static void v0_latch_bus(struct e1_v0 *v, u32 code, u32 index, u64 addr)
{
	v->err_fault_addr = addr;
	v0_latch(v, code, index, E1_V0_IRQ_BUS_ERROR, E1_V0_STALL_HARD);
}

void e1_v0_reset(struct e1_v0 *v, const struct e1_bus *bus, u8 rows, u8 cols,
		 bool gemmini)
{
	memset(v, 0, sizeof(*v));
	v->bus = bus;
	v->rows = rows;
	v->cols = cols;
	v->gemmini = gemmini;
	v->caps = E1_V0_CAPS_INT8 | E1_V0_CAPS_INT32_ACCUM | E1_V0_CAPS_RELU |
		  E1_FIELD_PREP(E1_V0_CAPS_ROWS, (u32)rows) |
		  E1_FIELD_PREP(E1_V0_CAPS_COLS, (u32)cols);
	if (gemmini)
		v->caps |= E1_V0_CAPS_GEMMINI;
}

/* The core sees the flush in @flush_gen (it clears an injected hang). */
static void v0_flush(struct e1_v0 *v)
{
	v->head = 0;
	v->tail = 0;
	v->armed = false;
	v->ov_idle = 0;
	v->ov_store = 0;
	v->stall = E1_V0_RUNNING;
	v->fb_pending = false;
	v->error = false;
	v->err_code = 0;
	v->status_done = false;
	v->err_desc_index = 0;
	v->err_fault_addr = 0;
	/* A descriptor being computed stops at its next block, unretired. */
	v->flush_gen++;
	if (v->executing)
		E1_WRITE_ONCE(v->abort, true);
}

static u32 v0_status(const struct e1_v0 *v)
{
	u32 level = q_level(v), s = 0;

	if (v0_busy(v) || v->executing)
		s |= E1_V0_STATUS_BUSY;
	if (ring_len_valid(v->ring_len) && level == v->ring_len - 1)
		s |= E1_V0_STATUS_QUEUE_FULL;
	if (!level)
		s |= E1_V0_STATUS_QUEUE_EMPTY;
	if (v->status_done)
		s |= E1_V0_STATUS_DONE;
	if (v->error)
		s |= E1_V0_STATUS_ERROR;
	s |= E1_FIELD_PREP(E1_V0_STATUS_Q_LEVEL, level);
	s |= E1_FIELD_PREP(E1_V0_STATUS_ERR_CODE, v->err_code);
	return s;
}

u32 e1_v0_read(const struct e1_v0 *v, u32 off)
{
	switch (off) {
	case E1_V0_ID:
		return E1_V0_ID_VALUE;
	case E1_V0_CAPS:
		return v->caps;
	case E1_V0_CTRL:
		return v->ctrl;
	case E1_V0_STATUS:
		return v0_status(v);
	case E1_V0_IRQ_STATUS:
		return v->irq_status;
	case E1_V0_IRQ_MASK:
		return v->irq_mask;
	case E1_V0_DESC_BASE_LO:
		return (u32)v->desc_base;
	case E1_V0_DESC_BASE_HI:
		return (u32)(v->desc_base >> 32);
	case E1_V0_DESC_RING_LEN:
		return v->ring_len;
	case E1_V0_DESC_HEAD:
		return v->head;
	case E1_V0_DESC_TAIL:
		return v->tail;
	case E1_V0_TENSOR_MEM_BASE_LO:
		return (u32)v->tmem_base;
	case E1_V0_TENSOR_MEM_BASE_HI:
		return (u32)(v->tmem_base >> 32);
	case E1_V0_TENSOR_MEM_LEN:
		return v->tmem_len;
	case E1_V0_PERF_CYCLES:
		return (u32)v->perf_cycles;
	case E1_V0_PERF_MACS_LO:
		return (u32)v->perf_macs;
	case E1_V0_PERF_MACS_HI:
		return (u32)(v->perf_macs >> 32);
	case E1_V0_PERF_FALLBACKS:
		return v->perf_fallbacks;
	case E1_V0_ERR_DESC_INDEX:
		return v->err_desc_index;
	case E1_V0_ERR_FAULT_ADDR_LO:
		return (u32)v->err_fault_addr;
	case E1_V0_ERR_FAULT_ADDR_HI:
		return (u32)(v->err_fault_addr >> 32);
	case E1_V0_COMPLETION_TAG:
		return v->completion_tag;
	default:
		/* DOORBELL is write-only; reserved offsets read 0. */
		return 0;
	}
}

/* Doorbell: check the ring, then commit [head, val) or latch an overflow. */
static void v0_doorbell(struct e1_v0 *v, u32 val)
{
	u32 len = v->ring_len, count, free_slots;

	if (!ring_len_valid(len)) {
		v0_latch(v, E1_V0_ERR_OVERFLOW, v->tail,
			 E1_V0_IRQ_QUEUE_OVERFLOW, E1_V0_STALL_HARD);
		return;
	}
	if (v->desc_base & (E1_V0_DESC_SIZE - 1)) {
		v0_latch(v, E1_V0_ERR_ALIGN, v->tail, 0, E1_V0_STALL_HARD);
		return;
	}
	count = (val - v->head) & (len - 1);
	free_slots = len - 1 - q_level(v);
	if (val >= len || count > free_slots) {
		v0_latch(v, E1_V0_ERR_OVERFLOW, v->head,
			 E1_V0_IRQ_QUEUE_OVERFLOW, E1_V0_STALL_HARD);
		return;
	}
	v->head = val;
	if (q_level(v))
		v->armed = true;
}

static void v0_write_irq_status(struct e1_v0 *v, u32 val)
{
	u32 clr = val & E1_V0_IRQ_ALL;

	v->irq_status &= ~clr;
	if (clr & E1_V0_IRQ_DONE)
		v->status_done = false;
	/*
	 * Dismisses the error only: the ring stays stalled until the CPU
	 * retires the descriptor (DESC_TAIL) or software flushes (2.6).
	 */
	if (clr & E1_V0_IRQ_ERROR) {
		v->error = false;
		v->err_code = 0;
	}
}

/* The CPU retires the descriptor that fell back (contract 2.6). */
static void v0_write_tail(struct e1_v0 *v, u32 val)
{
	if (!(v->ctrl & E1_V0_CTRL_CPU_FALLBACK) || !v->fb_pending ||
	    !ring_len_valid(v->ring_len) ||
	    val != ((v->tail + 1) & (v->ring_len - 1)))
		return;
	v->tail = val;
	v->completion_tag = v->fb_tag;
	v->fb_pending = false;
	if (v->stall == E1_V0_STALL_FALLBACK)
		v->stall = E1_V0_RUNNING;
}

void e1_v0_write(struct e1_v0 *v, u32 off, u32 val)
{
	switch (off) {
	case E1_V0_CTRL:
		v->ctrl = val & E1_V0_CTRL_MASK & ~E1_V0_CTRL_FLUSH;
		if (val & E1_V0_CTRL_FLUSH)
			v0_flush(v);
		break;
	case E1_V0_IRQ_STATUS:
		v0_write_irq_status(v, val);
		break;
	case E1_V0_IRQ_MASK:
		v->irq_mask = val & E1_V0_IRQ_ALL;
		break;
	case E1_V0_DESC_BASE_LO:
		v->desc_base = (v->desc_base & ~(u64)0xffffffffU) | val;
		break;
	case E1_V0_DESC_BASE_HI:
		v->desc_base = (v->desc_base & 0xffffffffU) | ((u64)val << 32);
		break;
	case E1_V0_DESC_RING_LEN:
		v->ring_len = val;
		break;
	case E1_V0_DESC_HEAD:
		v->head = val & (E1_V0_RING_LEN_MAX - 1);
		break;
	case E1_V0_DESC_TAIL:
		v0_write_tail(v, val);
		break;
	case E1_V0_DESC_DOORBELL:
		v0_doorbell(v, val);
		break;
	case E1_V0_TENSOR_MEM_BASE_LO:
		v->tmem_base = (v->tmem_base & ~(u64)0xffffffffU) | val;
		break;
	case E1_V0_TENSOR_MEM_BASE_HI:
		v->tmem_base = (v->tmem_base & 0xffffffffU) | ((u64)val << 32);
		break;
	case E1_V0_TENSOR_MEM_LEN:
		v->tmem_len = val;
		break;
	default:
		/* RO registers and reserved offsets ignore writes. */
		break;
	}
}

/* An injected hang is the core's: it does not run a hung engine. */
bool e1_v0_pending(const struct e1_v0 *v)
{
	return (v->ctrl & E1_V0_CTRL_ENABLE) && v0_busy(v);
}

bool e1_v0_irq_npu(const struct e1_v0 *v)
{
	return (v->ctrl & E1_V0_CTRL_IRQ_ENABLE) &&
	       (v->irq_status & v->irq_mask & E1_V0_IRQ_ALL);
}

bool e1_v0_irq_fallback(const struct e1_v0 *v)
{
	return (v->ctrl & E1_V0_CTRL_CPU_FALLBACK) &&
	       (v->irq_status & E1_V0_IRQ_UNSUPPORTED_OP);
}

/* ---------------------------------------------------------------------- */
/* Validation (contract 2.3 - 2.5)                                         */
/* ---------------------------------------------------------------------- */

static u64 desc_addr(const struct v0_op *d, u32 lo)
{
	return ((u64)d->w[lo + 1] << 32) | d->w[lo];
}

static void set_tensor(struct v0_tensor *t, u64 addr, u32 rows, u32 row_bytes,
		       u32 stride, bool write)
{
	t->addr = addr;
	t->rows = rows;
	t->row_bytes = row_bytes;
	t->stride = stride;
	t->used = true;
	t->write = write;
}

static bool in_range(u32 v, u32 lo, u32 hi)
{
	return v >= lo && v <= hi;
}

/* Step 1: the op set. */
static u32 check_opcode(const struct e1_v0 *v, struct v0_op *d)
{
	switch (d->op) {
	case E1_V0_OP_NOP:
	case E1_V0_OP_BARRIER:
		return 0;
	case E1_V0_OP_MATMUL_S8:
	case E1_V0_OP_MATMUL_S8_RELU:
	case E1_V0_OP_CONV2D_S8:
	case E1_V0_OP_CONV2D_S8_RELU:
	case E1_V0_OP_RELU:
	case E1_V0_OP_MAXPOOL_S8:
		/* Gemmini-backed: without Gemmini, the CPU runs them. */
		return v->gemmini ? 0 : E1_V0_ERR_UNKNOWN_OP;
	default:
		/* FALLBACK and every opcode outside the v0 set. */
		return E1_V0_ERR_UNKNOWN_OP;
	}
}

static bool is_matmul(u32 op)
{
	return op == E1_V0_OP_MATMUL_S8 || op == E1_V0_OP_MATMUL_S8_RELU;
}

static bool is_conv(u32 op)
{
	return op == E1_V0_OP_CONV2D_S8 || op == E1_V0_OP_CONV2D_S8_RELU;
}

/* Step 2: reserved bits and flag combinations. */
static u32 check_flags(struct v0_op *d)
{
	u32 conv = d->w[E1_V0_DW_CONV_PARAMS], pool = d->w[E1_V0_DW_POOL_PARAMS];
	bool reads = d->op != E1_V0_OP_NOP && d->op != E1_V0_OP_BARRIER;

	if (d->flags & ~E1_V0_FLAG_ALL)
		return E1_V0_ERR_FLAGS;
	if ((d->flags & E1_V0_FLAG_RELU_FUSE) && !is_matmul(d->op) && !is_conv(d->op))
		return E1_V0_ERR_FLAGS;
	if (reads && !(d->flags & E1_V0_FLAG_SIGNED_INPUT))
		return E1_V0_ERR_FLAGS;
	if (is_matmul(d->op) || d->op == E1_V0_OP_RELU) {
		if (conv || pool)
			return E1_V0_ERR_FLAGS;
	} else if (is_conv(d->op)) {
		if (conv & E1_V0_CONV_RSVD)
			return E1_V0_ERR_FLAGS;
	} else if (d->op == E1_V0_OP_MAXPOOL_S8) {
		if (conv || (pool & E1_V0_POOL_RSVD))
			return E1_V0_ERR_FLAGS;
	}
	return 0;
}

static u32 check_shape_matmul(struct v0_op *d)
{
	u32 m = d->w[E1_V0_DW_SHAPE_M], n = d->w[E1_V0_DW_SHAPE_N];
	u32 k = d->w[E1_V0_DW_SHAPE_K];

	if (!in_range(m, 1, E1_V0_MAX_MATMUL_MN) || !in_range(n, 1, E1_V0_MAX_MATMUL_MN) ||
	    !in_range(k, 1, E1_V0_MAX_MATMUL_K))
		return E1_V0_ERR_SHAPE;
	d->m = m;
	d->n = n;
	d->k = k;
	set_tensor(&d->t[0], desc_addr(d, E1_V0_DW_A_LO), m, k,
		   d->w[E1_V0_DW_A_STRIDE], false);
	set_tensor(&d->t[1], desc_addr(d, E1_V0_DW_B_LO), k, n,
		   d->w[E1_V0_DW_B_STRIDE], false);
	set_tensor(&d->t[2], desc_addr(d, E1_V0_DW_C_LO), m, 4 * n,
		   d->w[E1_V0_DW_C_STRIDE], true);
	return 0;
}

static u32 check_shape_conv(struct v0_op *d)
{
	u32 cp = d->w[E1_V0_DW_CONV_PARAMS], pp = d->w[E1_V0_DW_POOL_PARAMS];

	d->in_h = E1_FIELD_GET(E1_V0_SHAPE_LO, d->w[E1_V0_DW_SHAPE_M]);
	d->in_w = E1_FIELD_GET(E1_V0_SHAPE_HI, d->w[E1_V0_DW_SHAPE_M]);
	d->c_in = E1_FIELD_GET(E1_V0_SHAPE_LO, d->w[E1_V0_DW_SHAPE_N]);
	d->c_out = E1_FIELD_GET(E1_V0_SHAPE_HI, d->w[E1_V0_DW_SHAPE_N]);
	d->ksz = d->w[E1_V0_DW_SHAPE_K];
	d->sh = E1_FIELD_GET(E1_V0_CONV_STRIDE_H, cp);
	d->sw = E1_FIELD_GET(E1_V0_CONV_STRIDE_W, cp);
	d->ph = E1_FIELD_GET(E1_V0_CONV_PAD_H, cp);
	d->pw = E1_FIELD_GET(E1_V0_CONV_PAD_W, cp);
	d->dil = E1_FIELD_GET(E1_V0_CONV_DILATION, cp);
	d->out_h = E1_FIELD_GET(E1_V0_SHAPE_LO, pp);
	d->out_w = E1_FIELD_GET(E1_V0_SHAPE_HI, pp);

	if (!in_range(d->in_h, 1, E1_V0_MAX_CONV_HW) ||
	    !in_range(d->in_w, 1, E1_V0_MAX_CONV_HW) ||
	    !in_range(d->out_h, 1, E1_V0_MAX_CONV_HW) ||
	    !in_range(d->out_w, 1, E1_V0_MAX_CONV_HW) ||
	    !in_range(d->c_in, 1, E1_V0_MAX_CONV_C) ||
	    !in_range(d->c_out, 1, E1_V0_MAX_CONV_C) ||
	    (d->ksz != 1 && d->ksz != 3 && d->ksz != 5) ||
	    !in_range(d->sh, 1, 2) || !in_range(d->sw, 1, 2) ||
	    !in_range(d->dil, 1, E1_V0_MAX_CONV_DILATION))
		return E1_V0_ERR_SHAPE;
	/* Every window starts on a real or top/left-padded row/column. */
	if ((d->out_h - 1) * d->sh > d->in_h - 1 + d->ph ||
	    (d->out_w - 1) * d->sw > d->in_w - 1 + d->pw)
		return E1_V0_ERR_SHAPE;
	set_tensor(&d->t[0], desc_addr(d, E1_V0_DW_A_LO), d->in_h, d->in_w * d->c_in,
		   d->w[E1_V0_DW_A_STRIDE], false);
	set_tensor(&d->t[1], desc_addr(d, E1_V0_DW_B_LO), d->ksz * d->ksz * d->c_in,
		   d->c_out, d->w[E1_V0_DW_B_STRIDE], false);
	set_tensor(&d->t[2], desc_addr(d, E1_V0_DW_C_LO), d->out_h,
		   d->out_w * d->c_out * 4, d->w[E1_V0_DW_C_STRIDE], true);
	return 0;
}

static u32 check_shape_relu(struct v0_op *d)
{
	u32 m = d->w[E1_V0_DW_SHAPE_M], n = d->w[E1_V0_DW_SHAPE_N];

	if (!in_range(m, 1, E1_V0_MAX_RELU_MN) || !in_range(n, 1, E1_V0_MAX_RELU_MN) ||
	    d->w[E1_V0_DW_SHAPE_K])
		return E1_V0_ERR_SHAPE;
	d->m = m;
	d->n = n;
	set_tensor(&d->t[0], desc_addr(d, E1_V0_DW_A_LO), m, n,
		   d->w[E1_V0_DW_A_STRIDE], false);
	set_tensor(&d->t[2], desc_addr(d, E1_V0_DW_C_LO), m, n,
		   d->w[E1_V0_DW_C_STRIDE], true);
	return 0;
}

static u32 check_shape_pool(struct v0_op *d)
{
	u32 pp = d->w[E1_V0_DW_POOL_PARAMS];
	u32 wh = E1_FIELD_GET(E1_V0_POOL_WIN_H, pp);
	u32 ww = E1_FIELD_GET(E1_V0_POOL_WIN_W, pp);

	d->in_h = E1_FIELD_GET(E1_V0_SHAPE_LO, d->w[E1_V0_DW_SHAPE_M]);
	d->in_w = E1_FIELD_GET(E1_V0_SHAPE_HI, d->w[E1_V0_DW_SHAPE_M]);
	d->c_in = E1_FIELD_GET(E1_V0_SHAPE_LO, d->w[E1_V0_DW_SHAPE_N]);
	d->pstride = E1_FIELD_GET(E1_V0_POOL_STRIDE, pp);
	d->win = wh;
	if (!in_range(d->in_h, 1, E1_V0_MAX_CONV_HW) ||
	    !in_range(d->in_w, 1, E1_V0_MAX_CONV_HW) ||
	    !in_range(d->c_in, 1, E1_V0_MAX_CONV_C) ||
	    E1_FIELD_GET(E1_V0_SHAPE_HI, d->w[E1_V0_DW_SHAPE_N]) ||
	    d->w[E1_V0_DW_SHAPE_K] || wh != ww || !in_range(wh, 2, 3) ||
	    !in_range(d->pstride, 1, 2) || d->in_h < wh || d->in_w < wh)
		return E1_V0_ERR_SHAPE;
	d->out_h = (d->in_h - wh) / d->pstride + 1;
	d->out_w = (d->in_w - wh) / d->pstride + 1;
	set_tensor(&d->t[0], desc_addr(d, E1_V0_DW_A_LO), d->in_h, d->in_w * d->c_in,
		   d->w[E1_V0_DW_A_STRIDE], false);
	set_tensor(&d->t[2], desc_addr(d, E1_V0_DW_C_LO), d->out_h, d->out_w * d->c_in,
		   d->w[E1_V0_DW_C_STRIDE], true);
	return 0;
}

/* Step 3: dimensions and envelope, then strides at least a row. */
static u32 check_shape(struct v0_op *d)
{
	u32 err = 0;
	int i;

	if (is_matmul(d->op))
		err = check_shape_matmul(d);
	else if (is_conv(d->op))
		err = check_shape_conv(d);
	else if (d->op == E1_V0_OP_RELU)
		err = check_shape_relu(d);
	else if (d->op == E1_V0_OP_MAXPOOL_S8)
		err = check_shape_pool(d);
	if (err)
		return err;
	for (i = 0; i < NTENSORS; i++)
		if (d->t[i].used && d->t[i].stride < d->t[i].row_bytes)
			return E1_V0_ERR_SHAPE;
	return 0;
}

/* Step 4: 16-byte aligned bases and strides. */
static u32 check_align(const struct v0_op *d)
{
	int i;

	for (i = 0; i < NTENSORS; i++) {
		const struct v0_tensor *t = &d->t[i];

		if (t->used && ((t->addr | t->stride) & (E1_V0_ALIGN - 1)))
			return E1_V0_ERR_ALIGN;
	}
	return 0;
}

/* Step 5: every touched byte inside TENSOR_MEM; *fault = the first not. */
/*
 * Whether every row of @t lies in [@wb, @we), from its first and last rows:
 * the rows' ranges only move up (stride >= 0), so if the last one neither
 * wraps nor passes @we and the first starts at @wb or after, all fit. When
 * not, check_window finds the first row that fails, for its fault address.
 */
static bool window_rows_fit(const struct v0_tensor *t, u64 wb, u64 we)
{
	u64 start, end;

	if (check_add_overflow(t->addr, (u64)(t->rows - 1) * t->stride, &start) ||
	    check_add_overflow(start, (u64)t->row_bytes, &end))
		return false;
	return t->addr >= wb && end <= we;
}

static u32 check_window(const struct e1_v0 *v, const struct v0_op *d, u64 *fault)
{
	u64 wb = v->tmem_base, we;
	int i;
	u32 r;

	if (check_add_overflow(wb, (u64)v->tmem_len, &we))
		we = ~(u64)0;
	for (i = 0; i < NTENSORS; i++) {
		const struct v0_tensor *t = &d->t[i];

		if (!t->used)
			continue;
		if (t->rows && window_rows_fit(t, wb, we))
			continue;
		for (r = 0; r < t->rows; r++) {
			u64 start, end;

			if (check_add_overflow(t->addr, (u64)r * t->stride, &start) ||
			    check_add_overflow(start, (u64)t->row_bytes, &end)) {
				*fault = t->addr + (u64)r * t->stride;
				return E1_V0_ERR_WINDOW;
			}
			if (start < wb) {
				*fault = start;
				return E1_V0_ERR_WINDOW;
			}
			if (end > we) {
				*fault = start > we ? start : we;
				return E1_V0_ERR_WINDOW;
			}
		}
	}
	return 0;
}

/* ---------------------------------------------------------------------- */
/* Execution                                                               */
/* ---------------------------------------------------------------------- */

/*
 * Map every row of @t, one contiguous range when the rows are packed, else
 * one range per row, so the host sees exactly the bytes the op touches.
 */
static enum e1_mem_status map_rows(const struct e1_v0 *v, const struct v0_tensor *t,
				   u8 **table, u64 *fault)
{
	enum e1_mem_status st;
	void *p;
	u32 r;

	if (t->stride == t->row_bytes) {
		st = e1_bus_map(v->bus, t->addr, (u64)t->rows * t->row_bytes,
				t->write, &p, fault);
		if (st != E1_MEM_OK)
			return st;
		for (r = 0; r < t->rows; r++)
			table[r] = (u8 *)p + (size_t)r * t->row_bytes;
		return E1_MEM_OK;
	}
	for (r = 0; r < t->rows; r++) {
		st = e1_bus_map(v->bus, t->addr + (u64)r * t->stride,
				t->row_bytes, t->write, &p, fault);
		if (st != E1_MEM_OK)
			return st;
		table[r] = p;
	}
	return E1_MEM_OK;
}

/* @n bytes of A from @src into @dst, XORed with @bias (e1_mm_load_a_fn). */
static inline void copy_a(s8 *dst, const s8 *src, u32 n, u8 bias)
{
	typedef u8 v16 __attribute__((vector_size(16)));
	u64 b8 = 0x0101010101010101ull * bias, v;
	v16 w, b16 = (v16){ 0 } + bias;
	u32 j = 0;

	if (!bias) {
		memcpy(dst, src, n);
		return;
	}
	/* 16, then 8 bytes at a time: these runs are a kernel row or a tap, often short */
	for (; j + 16 <= n; j += 16) {
		memcpy(&w, src + j, 16);
		w ^= b16;
		memcpy(dst + j, &w, 16);
	}
	for (; j + 8 <= n; j += 8) {
		memcpy(&v, src + j, 8);
		v ^= b8;
		memcpy(dst + j, &v, 8);
	}
	for (; j < n; j++)
		dst[j] = (s8)((u8)src[j] ^ bias);
}

/* @n bytes of padding (zero inputs, XORed with @bias) at @dst: short runs, inline. */
static inline void fill_a(s8 *dst, u32 n, u8 bias)
{
	u64 b8 = 0x0101010101010101ull * bias;
	u32 j = 0;

	for (; j + 8 <= n; j += 8)
		memcpy(dst + j, &b8, 8);
	for (; j < n; j++)
		dst[j] = (s8)bias;
}

static void load_a_matmul(const struct e1_mm_job *job, u32 i, u32 k0, u32 kb,
			  u8 bias, s8 *dst)
{
	const struct v0_exec *x = job->priv;

	copy_a(dst, x->v->rows_a[i] + k0, kb, bias);
}

/* Where a K slice starts: tap (kernel row, column) and channel. */
struct conv_k0 {
	u32 kh, kw, ci;
};

static struct conv_k0 conv_k0(const struct v0_op *d, u32 k0)
{
	u32 tap = k0 / d->c_in;

	return (struct conv_k0){ .kh = tap / d->ksz, .kw = tap % d->ksz, .ci = k0 % d->c_in };
}

/*
 * im2col: row (@oy, @ox) of A is that output pixel, column k is weight
 * row k, from @k (the slice start @kb long). A kernel row inside the
 * image is one contiguous copy.
 */
static inline void conv_row(const struct v0_exec *x, const struct v0_op *d, u32 oy, u32 ox,
			    struct conv_k0 k, u32 kb, u8 bias, s8 *dst)
{
	u32 kh = k.kh, kw = k.kw, ci = k.ci, done = 0;
	s32 iy0 = (s32)(oy * d->sh) - (s32)d->ph, ix0 = (s32)(ox * d->sw) - (s32)d->pw;
	/* undilated and the kernel row inside the image: its taps are contiguous */
	bool row_in = d->dil == 1 && ix0 >= 0 && ix0 + (s32)d->ksz <= (s32)d->in_w;

	while (done < kb) {
		u32 run = d->c_in - ci;
		s32 iy = iy0 + (s32)(kh * d->dil);
		s32 ix = ix0 + (s32)(kw * d->dil);

		if (row_in && kw == 0 && ci == 0) {
			/* a whole kernel row (or the slice's end) at once */
			run = d->ksz * d->c_in;
			if (run > kb - done)
				run = kb - done;
			if (iy < 0 || iy >= (s32)d->in_h)
				fill_a(dst + done, run, bias);
			else
				copy_a(dst + done, x->v->rows_a[iy] + (u32)ix0 * d->c_in, run,
				       bias);
			done += run;
			kh++;
			continue;
		}
		if (run > kb - done)
			run = kb - done;
		if (iy < 0 || iy >= (s32)d->in_h || ix < 0 || ix >= (s32)d->in_w)
			fill_a(dst + done, run, bias);
		else
			copy_a(dst + done, x->v->rows_a[iy] + (u32)ix * d->c_in + ci, run, bias);
		done += run;
		ci = 0;
		if (++kw == d->ksz) {
			kw = 0;
			kh++;
		}
	}
}

/* im2col of a 1x1 kernel: one input pixel (or padding) per row of A. */
static inline void conv1_row(const struct v0_exec *x, const struct v0_op *d, u32 oy, u32 ox,
			     u32 k0, u32 kb, u8 bias, s8 *dst)
{
	s32 iy = (s32)(oy * d->sh) - (s32)d->ph, ix = (s32)(ox * d->sw) - (s32)d->pw;

	if (iy < 0 || iy >= (s32)d->in_h || ix < 0 || ix >= (s32)d->in_w)
		fill_a(dst, kb, bias);
	else
		copy_a(dst, x->v->rows_a[iy] + (u32)ix * d->c_in + k0, kb, bias);
}

static void load_a_conv(const struct e1_mm_job *job, u32 i, u32 k0, u32 kb,
			u8 bias, s8 *dst)
{
	const struct v0_exec *x = job->priv;
	const struct v0_op *d = x->op;

	if (d->ksz == 1)
		conv1_row(x, d, i / d->out_w, i % d->out_w, k0, kb, bias, dst);
	else
		conv_row(x, d, i / d->out_w, i % d->out_w, conv_k0(d, k0), kb, bias, dst);
}

/* Rows [i0, i0 + n) at once: the pixel and the slice start found once. */
static void load_a_conv_rows(const struct e1_mm_job *job, u32 i0, u32 n, u32 k0, u32 kb,
			     u8 bias, s8 *dst, u32 ds)
{
	const struct v0_exec *x = job->priv;
	const struct v0_op *d = x->op;
	struct conv_k0 k = conv_k0(d, k0);
	u32 oy = i0 / d->out_w, ox = i0 % d->out_w, r;

	for (r = 0; r < n; r++, dst += ds) {
		if (d->ksz == 1)
			conv1_row(x, d, oy, ox, k0, kb, bias, dst);
		else
			conv_row(x, d, oy, ox, k, kb, bias, dst);
		if (++ox == d->out_w) {
			ox = 0;
			oy++;
		}
	}
}

static u8 *c_row_matmul(const struct e1_mm_job *job, u32 i)
{
	const struct v0_exec *x = job->priv;

	return x->v->rows_c[i];
}

static u8 *c_row_conv(const struct e1_mm_job *job, u32 i)
{
	const struct v0_exec *x = job->priv;
	const struct v0_op *d = x->op;

	return x->v->rows_c[i / d->out_w] + (size_t)(i % d->out_w) * d->c_out * 4;
}

static void c_rows_conv(const struct e1_mm_job *job, u32 i0, u32 n, u8 **out)
{
	const struct v0_exec *x = job->priv;
	const struct v0_op *d = x->op;
	u32 oy = i0 / d->out_w, ox = i0 % d->out_w, r;

	for (r = 0; r < n; r++) {
		out[r] = x->v->rows_c[oy] + (size_t)ox * d->c_out * 4;
		if (++ox == d->out_w) {
			ox = 0;
			oy++;
		}
	}
}

/*
 * Between blocks of a long computation: let the host run others and stop
 * when a flush came meanwhile (split execution, e1_v0_step_compute()).
 */
static bool v0_stop(const struct e1_v0 *v)
{
	e1_bus_yield(v->bus);
	return E1_READ_ONCE(v->abort);
}

static bool mm_stop(const struct e1_mm_job *job)
{
	const struct v0_exec *x = job->priv;

	return v0_stop(x->v);
}

/*
 * Provably-zero work skipped. The lowering packs depthwise and small-group
 * convolutions block-diagonally: every weight column then reads a single
 * input channel, and its other K - taps weights are zero. When B has that
 * shape (found by scanning it, nothing trusted), each output is computed
 * over its own channel's taps only. The skipped products all have a zero
 * weight, so C is the same bit for bit; the timing model does not look at
 * the data, so the modelled cycles are the same too.
 *
 * Columns are grouped in runs whose source channels are consecutive
 * (column j0 + i reads channel s + i). Each input row the kernel needs is
 * expanded once into per-column form, e[x][j] = input(x, source of j), in
 * a cache of kernel-height rows; then every output pixel is, per tap, one
 * contiguous multiply-add over the columns, which vectorizes. The runs,
 * weights, cache and one pixel's sums live in the workspace
 * (struct e1_mm_ws.diag). Fewer than 16 columns are padded to 16 (zero
 * weights) so the fixed-width loop takes them, and a tap whose weights
 * are all zero (a 5x5 window of the lowering's phase-packed depthwise
 * past its 4x4 patch) is skipped, its input row not even expanded when
 * the whole kernel row is.
 */
/* One bit per byte of @w8 (in memory order): set where the byte is nonzero. */
static inline u64 diag_nz_bits(u64 w8)
{
	u64 nz;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w8 = __builtin_bswap64(w8);	/* byte j in the low bits */
#endif
	/* bit 7 of each byte set where that byte is nonzero */
	nz = (((w8 & 0x7f7f7f7f7f7f7f7full) + 0x7f7f7f7f7f7f7f7full) | w8) &
	     0x8080808080808080ull;
	/* bit 8j moved to bit 56 + j (no two products meet: no carries) */
	return ((nz >> 7) * 0x0102040810204080ull) >> 56;
}

/* The 8 bytes at @p ORed with @w8 (in memory order). */
static inline void diag_or8(u8 *p, u64 w8)
{
	u64 v;

	memcpy(&v, p, 8);
	v |= w8;
	memcpy(p, &v, 8);
}

static bool conv_diag_plan(const struct v0_op *d, const s8 *const *b_rows,
			   struct e1_mm_ws *ws, u32 *nrun)
{
	u16 *run = ws->diag.run;	/* j0, len, src */
	s32 *col = ws->diag.acc;	/* free until diag_row: each column's channel */
	u32 taps = d->ksz * d->ksz, n = d->c_out, c = d->c_in, j, t, k, ci, r = 0;
	u32 ns = n < 16 ? 16 : n, nw = (n + 7) / 8;
	u64 seen[E1_MM_DIAG_N / 64];
	u8 *wt = (u8 *)ws->diag.w4;

	if (c < 2 || n > E1_MM_DIAG_N || d->ksz > E1_MM_DIAG_KMAX ||
	    (u64)d->ksz * d->in_w * ns > E1_MM_DIAG_E)
		return false;
	for (j = 0; j < n; j++)
		col[j] = -1;
	for (t = 0; t < taps; t++)
		ws->diag.tap_nz[t] = 0;
	for (k = 0; k < E1_MM_DIAG_N / 64; k++)
		seen[k] = 0;
	/*
	 * Channel by channel: the columns with a nonzero weight on any of its
	 * taps, as bits (8 bytes at a time); a column with nonzero weights on
	 * two input channels is not block-diagonal.
	 */
	/*
	 * Each tap's weights: the OR of its rows over the channels, as a
	 * column has nonzero weights on one channel only (checked below).
	 * Gathered in the VNNI weights' space, free until e1_diag4_plan.
	 */
	memset(wt, 0, (size_t)taps * nw * 8);
	for (ci = 0; ci < c; ci++) {
		u64 use[E1_MM_DIAG_N / 64] = { 0 };

		for (t = 0; t < taps; t++) {
			const s8 *b = b_rows[t * c + ci];
			u64 w8, any = 0;

			for (j = 0; j < n; j += 8) {
				if (n - j >= 8) {
					memcpy(&w8, b + j, 8);
				} else {
					w8 = 0;
					memcpy(&w8, b + j, n - j);
				}
				if (w8) {
					use[j / 64] |= diag_nz_bits(w8) << (j % 64);
					diag_or8(wt + (t * nw + j / 8) * 8, w8);
					any = 1;
				}
			}
			ws->diag.tap_nz[t] |= (u8)any;
		}
		for (k = 0; k < (n + 63) / 64; k++) {
			u64 bits = use[k];

			if (bits & seen[k])
				return false;
			seen[k] |= bits;
			for (; bits; bits &= bits - 1)
				col[64 * k + (u32)__builtin_ctzll(bits)] = (s32)ci;
		}
	}
	for (j = 0; j < n; j++) {
		u32 src = col[j] < 0 ? 0 : (u32)col[j];
		bool found = col[j] >= 0;

		/* an all-zero column may read any channel: extend the run */
		if (!found && r)
			src = run[3 * (r - 1) + 2] + run[3 * (r - 1) + 1];
		if (r && src < c && src == (u32)run[3 * (r - 1) + 2] + run[3 * (r - 1) + 1]) {
			run[3 * (r - 1) + 1]++;
		} else {
			run[3 * r] = (u16)j;
			run[3 * r + 1] = 1;
			run[3 * r + 2] = (u16)(src < c ? src : 0);
			r++;
		}
	}
	for (k = 0; k < r; k++)
		for (j = 0; j < run[3 * k + 1]; j++)
			ws->diag.src[run[3 * k] + j] = (u16)(run[3 * k + 2] + j);
	for (j = n; j < ns; j++)
		ws->diag.src[j] = 0;	/* padding: any defined byte, its weights are 0 */
	for (t = 0; t < taps; t++) {
		const s8 *w8 = (const s8 *)(wt + t * nw * 8);

		for (j = 0; j < n; j++)
			ws->diag.w[t * ns + j] = w8[j];
		for (j = n; j < ns; j++)
			ws->diag.w[t * ns + j] = 0;
	}
	for (t = 0; t < E1_MM_DIAG_KMAX; t++)
		ws->diag.tag[t] = -1;
	ws->diag.ns = ns;
	*nrun = r;
	return true;
}

/*
 * Expand input row @row into cache slot @slot: e[x][j] = row[x][src(j)],
 * run by run (each a contiguous widening copy per pixel; the run
 * description is read into locals so the stores cannot alias it), or,
 * for 16 columns in more than 4 runs (several columns on one channel),
 * column by column from each column's channel.
 */
E1_MM_CLONES
static void diag_expand(const struct v0_op *d, const s8 *row, struct e1_mm_ws *ws,
			u32 nrun, u32 slot)
{
	const u16 *run = ws->diag.run;
	size_t n = ws->diag.ns, c = d->c_in, w = d->in_w, x, i;
	s16 *e = ws->diag.e + slot * w * n;
	u32 r;

	if (n == 16 && nrun > 4) {
		u16 src[16];

		memcpy(src, ws->diag.src, sizeof(src));
		for (x = 0; x < w; x++)
			for (i = 0; i < 16; i++)
				e[x * 16 + i] = row[x * c + src[i]];
		return;
	}
	for (r = 0; r < nrun; r++) {
		size_t j0 = run[3 * r], len = run[3 * r + 1], src = run[3 * r + 2];

		for (x = 0; x < w; x++)
			for (i = 0; i < len; i++)
				e[x * n + j0 + i] = row[x * c + src + i];
	}
	/* the padding columns (zero weights) read zeros, not stale values */
	if (n > d->c_out)
		for (x = 0; x < w; x++)
			for (i = d->c_out; i < n; i++)
				e[x * n + i] = 0;
}

/* Whether kernel row @ky has a nonzero weight. */
static bool diag_row_used(const struct v0_op *d, const struct e1_mm_ws *ws, u32 ky)
{
	u32 kx;

	for (kx = 0; kx < d->ksz; kx++)
		if (ws->diag.tap_nz[ky * d->ksz + kx])
			return true;
	return false;
}

/* Expand @row into slot @s, for whichever row kernel runs. */
static void diag_expand_any(const struct v0_op *d, const s8 *row, struct e1_mm_ws *ws,
			    u32 nrun, u32 s)
{
#ifdef E1_MM_X86
	if (ws->diag.v4) {
		e1_diag4_expand(d, row, ws, nrun, s);
		return;
	}
#endif
	diag_expand(d, row, ws, nrun, s);
}

static const void *diag_slot(const struct v0_op *d, const struct e1_mm_ws *ws, u32 s)
{
#ifdef E1_MM_X86
	if (ws->diag.v4)
		return e1_diag4_slot(ws, s);
#endif
	return ws->diag.e + (size_t)s * d->in_w * ws->diag.ns;
}

/* Point @e[ky] at the expanded input rows of output row @oy (NULL: padding). */
static void diag_rows(const struct v0_op *d, const s8 *const *rows_a, u32 oy,
		      struct e1_mm_ws *ws, u32 nrun, const void **e)
{
	s32 need[E1_MM_DIAG_KMAX], *tag = ws->diag.tag;
	bool keep[E1_MM_DIAG_KMAX] = { false };
	u32 ky, s;

	for (ky = 0; ky < d->ksz; ky++) {
		s32 iy = (s32)(oy * d->sh + ky * d->dil) - (s32)d->ph;

		need[ky] = iy < 0 || iy >= (s32)d->in_h || !diag_row_used(d, ws, ky) ? -1 : iy;
		for (s = 0; s < d->ksz; s++)
			if (need[ky] >= 0 && tag[s] == need[ky])
				keep[s] = true;
	}
	for (ky = 0; ky < d->ksz; ky++) {
		e[ky] = NULL;
		if (need[ky] < 0)
			continue;
		for (s = 0; s < d->ksz && tag[s] != need[ky]; s++)
			;
		if (s == d->ksz) {
			/* a slot no row of this output row uses */
			for (s = 0; keep[s]; s++)
				;
			diag_expand_any(d, rows_a[need[ky]], ws, nrun, s);
			tag[s] = need[ky];
			keep[s] = true;
		}
		e[ky] = diag_slot(d, ws, s);
	}
}

/*
 * One output row: per pixel, per valid tap with a nonzero weight,
 * acc[j] += e[x][j] * w[tap][j] over all @n columns (the column stride,
 * c_out or its padding to 16), c_out of them stored. Inlined with a
 * constant @n for 16 columns (a fixed-length vector loop).
 */
static inline void diag_row_n(const struct v0_op *d, const void *const *e,
			      struct e1_mm_ws *ws, u8 *crow, u32 n)
{
	const u8 *nz = ws->diag.tap_nz;
	s32 *acc = ws->diag.acc;
	u32 ox, j, ky, kx;

	for (ox = 0; ox < d->out_w; ox++) {
		for (j = 0; j < n; j++)
			acc[j] = 0;
		for (ky = 0; ky < d->ksz; ky++) {
			if (!e[ky])
				continue;
			for (kx = 0; kx < d->ksz; kx++) {
				s32 ix = (s32)(ox * d->sw + kx * d->dil) - (s32)d->pw;
				const s16 *wt = ws->diag.w + (ky * d->ksz + kx) * n;
				const s16 *x;

				/* outside the image the hardware reads zeros */
				if (ix < 0 || ix >= (s32)d->in_w || !nz[ky * d->ksz + kx])
					continue;
				x = (const s16 *)e[ky] + (size_t)ix * n;
				for (j = 0; j < n; j++)
					acc[j] += x[j] * wt[j];
			}
		}
		if (d->relu)
			for (j = 0; j < n; j++)
				acc[j] = acc[j] < 0 ? 0 : acc[j];
		memcpy(crow + (size_t)ox * d->c_out * 4, acc, (size_t)d->c_out * 4);
	}
}

/* The clones pick AVX2/AVX-512 in user space. */
E1_MM_CLONES
static void diag_row(const struct v0_op *d, const void *const *e,
		     struct e1_mm_ws *ws, u8 *crow)
{
	if (ws->diag.ns == 16)
		diag_row_n(d, e, ws, crow, 16);
	else
		diag_row_n(d, e, ws, crow, ws->diag.ns);
}

static void exec_conv_diag(struct e1_v0 *v, const struct v0_op *d, u32 nrun)
{
	const void *e[E1_MM_DIAG_KMAX];
	u32 oy;

	v->mm.diag.v4 = false;
#ifdef E1_MM_X86
	if (!v->portable)
		e1_diag4_plan(d, &v->mm);
#endif
	for (oy = 0; oy < d->out_h; oy++) {
		if (v0_stop(v))
			return;
		diag_rows(d, v->rows_a, oy, &v->mm, nrun, e);
#ifdef E1_MM_X86
		if (v->mm.diag.v4) {
			e1_diag4_row(d, e, &v->mm, v->rows_c[oy]);
			continue;
		}
#endif
		diag_row(d, e, &v->mm, v->rows_c[oy]);
	}
}

static void exec_gemm(struct e1_v0 *v, const struct v0_op *d)
{
	struct v0_exec x = { .v = v, .op = d };
	struct e1_mm_job job = {
		.b_rows = v->rows_b,
		.relu = d->relu,
		.portable = v->portable,
		.stop = mm_stop,
		.priv = &x,
	};

	if (is_matmul(d->op)) {
		job.m = d->m;
		job.n = d->n;
		job.k = d->k;
		job.a_rows = v->rows_a;
		job.load_a = load_a_matmul;
		job.c_row = c_row_matmul;
	} else {
		u32 nrun;

		if (conv_diag_plan(d, v->rows_b, &v->mm, &nrun)) {
			exec_conv_diag(v, d, nrun);
			return;
		}
		job.m = d->out_h * d->out_w;
		job.n = d->c_out;
		job.k = d->ksz * d->ksz * d->c_in;
		job.load_a = load_a_conv;
		job.load_a_rows = load_a_conv_rows;
		job.c_row = c_row_conv;
		job.c_rows = c_rows_conv;
	}
	e1_mm_run(&job, &v->mm);
}

static void exec_relu(struct e1_v0 *v, const struct v0_op *d)
{
	u32 i, j;

	for (i = 0; i < d->m; i++) {
		if (!(i % 64) && v0_stop(v))
			return;
		const s8 *a = v->rows_a[i];
		s8 *c = (s8 *)v->rows_c[i];

		for (j = 0; j < d->n; j++)
			c[j] = a[j] < 0 ? 0 : a[j];
	}
}

/* Max over the window of output pixel (@oy, @ox), channel @ch. */
static s8 pool_window_max(const struct e1_v0 *v, const struct v0_op *d,
			  u32 oy, u32 ox, u32 ch)
{
	u32 wy, wx, c = d->c_in;
	s8 best = -128;

	for (wy = 0; wy < d->win; wy++) {
		const s8 *row = v->rows_a[oy * d->pstride + wy];

		for (wx = 0; wx < d->win; wx++) {
			s8 x = row[(ox * d->pstride + wx) * c + ch];

			if (x > best)
				best = x;
		}
	}
	return best;
}

static void exec_maxpool(struct e1_v0 *v, const struct v0_op *d)
{
	u32 oy, ox, ch, c = d->c_in;

	for (oy = 0; oy < d->out_h; oy++) {
		if (v0_stop(v))
			return;
		s8 *out = (s8 *)v->rows_c[oy];

		for (ox = 0; ox < d->out_w; ox++)
			for (ch = 0; ch < c; ch++)
				out[ox * c + ch] = pool_window_max(v, d, oy, ox, ch);
	}
}

/*
 * Modelled cycles of a validated descriptor, without the fetch; @gc gets
 * the parts of a MATMUL/CONV2D charge (all 0 for other ops).
 */
static u64 op_cycles(const struct e1_v0 *v, const struct v0_op *d, u64 *macs,
		     struct e1_timing_cost *gc)
{
	const struct e1_timing *t = v->bus->timing;
	u32 rows = v->rows ? v->rows : 16;
	u32 cols = v->cols ? v->cols : 16;
	u64 c = 0;

	*macs = 0;
	memset(gc, 0, sizeof(*gc));
	if (d->op == E1_V0_OP_BARRIER || (d->flags & E1_V0_FLAG_BARRIER))
		c += t->barrier_cycles;
	if (is_matmul(d->op)) {
		*macs = (u64)d->m * d->n * d->k;
		e1_timing_matmul_cost(t, rows, cols, d->m, d->n, d->k, gc);
	} else if (is_conv(d->op)) {
		u32 k = d->ksz * d->ksz * d->c_in;

		*macs = (u64)d->out_h * d->out_w * d->c_out * k;
		e1_timing_conv_cost(t, rows, cols, d->in_h, d->in_w, d->c_in,
				    d->c_out, d->ksz, d->out_h, d->out_w, gc);
	} else if (d->op == E1_V0_OP_RELU) {
		c += e1_timing_stream_cycles(t, 2 * d->m * d->n);
	} else if (d->op == E1_V0_OP_MAXPOOL_S8) {
		c += e1_timing_stream_cycles(t, d->in_h * d->in_w * d->c_in +
					     d->out_h * d->out_w * d->c_in);
	}
	return c + gc->total;
}

/* One past the last byte of a used tensor. */
static u64 tensor_end(const struct v0_tensor *t)
{
	return t->addr + (u64)(t->rows - 1) * t->stride + t->row_bytes;
}

/*
 * G_OVERLAP: Gemmini's load queue runs ahead of its execute queue, so a
 * descriptor's first load proceeds while the previous MATMUL/CONV2D
 * computes, in the cycles its load DMA waits for the array. Not across a
 * barrier, and never for an input that overlaps the previous output (not
 * written yet): those bytes stay exposed.
 */
static u64 v0_hidden(const struct e1_v0 *v, const struct v0_op *d,
		     const struct e1_timing_cost *gc)
{
	const struct e1_timing *t = v->bus->timing;
	u64 bytes = 0, all = gc->first_a + gc->first_b, lat, hid;
	u32 bw = t->dma_bytes_per_cycle ? t->dma_bytes_per_cycle : 1;
	int i;

	if (!(t->gemmini & E1_TIMING_G_OVERLAP) || !v->ov_idle || !gc->first ||
	    d->op == E1_V0_OP_BARRIER || (d->flags & E1_V0_FLAG_BARRIER))
		return 0;
	for (i = 0; i < 2; i++) {
		const struct v0_tensor *tt = &d->t[i];

		if (tt->used && (tt->addr >= v->ov_hi || tensor_end(tt) <= v->ov_lo))
			bytes += i ? gc->first_b : gc->first_a;
	}
	lat = gc->first - (all / bw + (all % bw ? 1 : 0));
	hid = bytes == all ? gc->first :
	      bytes / bw + (bytes % bw ? 1 : 0) + (bytes ? lat : 0);
	return hid < v->ov_idle ? hid : v->ov_idle;
}

/*
 * G_STORE_OV: the previous MATMUL/CONV2D's last store leaves while this
 * one computes (Gemmini's store controller runs beside the execute one,
 * and the accumulator is double-buffered, G_ACC), in the cycles this one's
 * DMA waits for the array (e1_timing_hidden_store). Not across a barrier,
 * and not when this descriptor reads or writes the previous output.
 */
static u64 v0_hidden_store(const struct e1_v0 *v, const struct v0_op *d,
			   const struct e1_timing_cost *gc)
{
	int i;

	if (d->op == E1_V0_OP_BARRIER || (d->flags & E1_V0_FLAG_BARRIER))
		return 0;
	for (i = 0; i < NTENSORS; i++) {
		const struct v0_tensor *tt = &d->t[i];

		if (tt->used && tt->addr < v->ov_hi && tensor_end(tt) > v->ov_lo)
			return 0;
	}
	return e1_timing_hidden_store(v->bus->timing, v->ov_store, gc);
}

/* Fetch descriptor @idx into @d; false after latching a bus error. */
static bool v0_fetch(struct e1_v0 *v, u32 idx, struct v0_op *d)
{
	u64 addr = v->desc_base + (u64)idx * E1_V0_DESC_SIZE, fault;
	enum e1_mem_status st;
	const u8 *p;
	void *ptr;
	int i;

	st = e1_bus_map(v->bus, addr, E1_V0_DESC_SIZE, false, &ptr, &fault);
	if (st != E1_MEM_OK) {
		if (st == E1_MEM_NORESP)
			v0_add_cycles(v, v->bus->timing->v0_bus_timeout);
		v0_latch_bus(v, E1_V0_ERR_BUS, idx, addr);
		return false;
	}
	p = ptr;
	for (i = 0; i < E1_V0_DESC_WORDS; i++)
		d->w[i] = (u32)p[4 * i] | (u32)p[4 * i + 1] << 8 |
			  (u32)p[4 * i + 2] << 16 | (u32)p[4 * i + 3] << 24;
	d->op = E1_FIELD_GET(E1_V0_DESC_OP, d->w[0]);
	d->flags = d->w[0] & E1_V0_DESC_FLAGS;
	d->relu = d->op == E1_V0_OP_MATMUL_S8_RELU || d->op == E1_V0_OP_CONV2D_S8_RELU ||
		  (d->flags & E1_V0_FLAG_RELU_FUSE);
	return true;
}

static void v0_retire(struct e1_v0 *v, const struct v0_op *d)
{
	v->tail = (v->tail + 1) & (v->ring_len - 1);
	v->completion_tag = d->w[E1_V0_DW_TAG];
	if ((d->flags & E1_V0_FLAG_IRQ_ON_COMPLETE) && (v->irq_mask & E1_V0_IRQ_DONE)) {
		v->irq_status |= E1_V0_IRQ_DONE;
		v->status_done = true;
	}
}

/*
 * Validate a fetched descriptor and map its tensors; true when it may
 * execute, false after latching its error.
 */
static bool v0_prepare(struct e1_v0 *v, u32 idx, struct v0_op *d)
{
	u8 **tables[NTENSORS] = {
		(u8 **)v->rows_a, (u8 **)v->rows_b, v->rows_c,
	};
	enum e1_mem_status st;
	u64 fault = 0;
	u32 err;
	int i;

	err = check_opcode(v, d);
	if (!err)
		err = check_flags(d);
	if (!err)
		err = check_shape(d);
	if (!err)
		err = check_align(d);
	if (err) {
		/*
		 * 0x01-0x04: the CPU-fallback contract. Without
		 * cpu_fallback_select it is a hard failure: flush only.
		 */
		bool cpu = v->ctrl & E1_V0_CTRL_CPU_FALLBACK;

		v->perf_fallbacks++;
		v->fb_pending = cpu;
		v->fb_tag = d->w[E1_V0_DW_TAG];
		v0_latch(v, err, idx, E1_V0_IRQ_UNSUPPORTED_OP,
			 cpu ? E1_V0_STALL_FALLBACK : E1_V0_STALL_HARD);
		return false;
	}
	if (check_window(v, d, &fault)) {
		v0_latch_bus(v, E1_V0_ERR_WINDOW, idx, fault);
		return false;
	}

	/* Inputs first, then outputs: nothing is written before all map. */
	for (i = 0; i < NTENSORS; i++) {
		if (!d->t[i].used)
			continue;
		st = map_rows(v, &d->t[i], tables[i], &fault);
		if (st != E1_MEM_OK) {
			if (st == E1_MEM_NORESP)
				v0_add_cycles(v, v->bus->timing->v0_bus_timeout);
			v0_latch_bus(v, E1_V0_ERR_BUS, idx, fault);
			return false;
		}
	}
	return true;
}

/* The computation: touches only the mapped tensors and the workspace. */
static void v0_compute(struct e1_v0 *v, const struct v0_op *d)
{
	if (is_matmul(d->op) || is_conv(d->op))
		exec_gemm(v, d);
	else if (d->op == E1_V0_OP_RELU)
		exec_relu(v, d);
	else if (d->op == E1_V0_OP_MAXPOOL_S8)
		exec_maxpool(v, d);
}

static void v0_complete(struct e1_v0 *v, const struct v0_op *d)
{
	struct e1_timing_cost gc;
	u64 macs, c, hid_store;

	c = op_cycles(v, d, &macs, &gc);
	c -= v0_hidden(v, d, &gc);
	hid_store = v0_hidden_store(v, d, &gc);
	c -= hid_store;
	v0_add_cycles(v, c);
	v->perf_macs += macs;
	/* What the previous store used is not there for the next load. */
	v->ov_idle = gc.idle - hid_store;
	v->ov_store = gc.store;
	if (gc.total) {
		v->ov_lo = d->t[2].addr;
		v->ov_hi = tensor_end(&d->t[2]);
	}
	v0_retire(v, d);
}

/*
 * The ring ran dry: the next descriptor finds an idle engine (G_XJOB, an
 * analysis: as if it had not).
 */
static void v0_drained(struct e1_v0 *v)
{
	v->armed = false;
	if (v->bus->timing->gemmini & E1_TIMING_G_XJOB)
		return;
	v->ov_idle = 0;
	v->ov_store = 0;
}

/* Fetch and prepare the descriptor at the tail; true when it may execute. */
static bool v0_begin(struct e1_v0 *v, struct v0_op *d)
{
	u32 idx = v->tail;

	/* Ring reprogrammed behind a doorbell: same checks as there. */
	if (v->desc_base & (E1_V0_DESC_SIZE - 1)) {
		v0_latch(v, E1_V0_ERR_ALIGN, idx, 0, E1_V0_STALL_HARD);
		return false;
	}
	/*
	 * DESC_RING_LEN shrunk below the tail: never fetch outside
	 * [DESC_BASE, DESC_BASE + 64 * len); a hard queue error, as
	 * at the doorbell.
	 */
	if (idx >= v->ring_len) {
		v0_latch(v, E1_V0_ERR_OVERFLOW, idx,
			 E1_V0_IRQ_QUEUE_OVERFLOW, E1_V0_STALL_HARD);
		return false;
	}
	memset(d, 0, sizeof(*d));
	v->fb_pending = false;
	v0_add_cycles(v, v->bus->timing->desc_fetch_cycles);
	if (v0_fetch(v, idx, d) && v0_prepare(v, idx, d))
		return true;
	v->ov_idle = 0;
	v->ov_store = 0;
	return false;
}

unsigned int e1_v0_run(struct e1_v0 *v, unsigned int max)
{
	unsigned int retired = 0;
	struct v0_op d;

	if (!(v->ctrl & E1_V0_CTRL_ENABLE) || v->executing)
		return 0;
	while (retired < max && v0_busy(v)) {
		if (!v0_begin(v, &d))
			break;
		v0_compute(v, &d);
		v0_complete(v, &d);
		retired++;
	}
	if (!q_level(v))
		v0_drained(v);
	return retired;
}

enum e1_step e1_v0_step_begin(struct e1_v0 *v)
{
	if (v->executing || !e1_v0_pending(v))
		return E1_STEP_IDLE;
	if (!v0_begin(v, &v->cur)) {
		if (!q_level(v))
			v0_drained(v);
		return E1_STEP_DONE;
	}
	v->executing = true;
	v->abort = false;
	v->exec_gen = v->flush_gen;
	return E1_STEP_COMPUTE;
}

void e1_v0_step_compute(struct e1_v0 *v)
{
	if (v->executing)
		v0_compute(v, &v->cur);
}

u64 e1_v0_step_cycles(const struct e1_v0 *v)
{
	struct e1_timing_cost gc;
	u64 macs, c;

	if (!v->executing)
		return 0;
	c = op_cycles(v, &v->cur, &macs, &gc);
	return c - v0_hidden(v, &v->cur, &gc);
}

bool e1_v0_step_end(struct e1_v0 *v)
{
	if (!v->executing)
		return false;
	v->executing = false;
	v->abort = false;
	/* Flushed meanwhile: the descriptor is dropped, not retired. */
	if (v->exec_gen != v->flush_gen)
		return false;
	v0_complete(v, &v->cur);
	if (!q_level(v))
		v0_drained(v);
	return true;
}
