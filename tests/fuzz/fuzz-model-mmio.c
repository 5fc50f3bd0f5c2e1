// SPDX-License-Identifier: MIT
/*
 * libFuzzer harness of the device model's register interfaces (model/).
 *
 * The input is a program of actions against one model instance: 32-bit
 * register writes and reads in both windows, descriptors and raw bytes
 * written to a small DRAM, ring set-up shortcuts, doorbells, e1_model_run()
 * and fault injection (bus error / no-response ranges, hang, dropped
 * interrupts).
 *
 * Properties, see Documentation/fuzzing.md:
 *  M1 no crash, no ASan/UBSan report (DRAM is an exact-size heap block);
 *  M2 every range the wrapper maps while it runs is either a descriptor
 *     fetch of its ring or lies inside [TENSOR_MEM_BASE, +TENSOR_MEM_LEN);
 *     the wrapper maps nothing outside e1_model_run() and the datapath
 *     nothing outside a write to its window;
 *  M3 interrupt levels: npu == CTRL.irq_enable && (IRQ_STATUS & IRQ_MASK),
 *     fallback == CTRL.cpu_fallback && IRQ_STATUS.unsupported_op,
 *     datapath == CTRL_STATUS.done, after every action; the host sees
 *     alternating edges and the same level unless a rise was dropped;
 *  M4 STATUS is self-consistent: q_level == (head - tail) mod len,
 *     queue_empty iff q_level == 0, busy only with q_level > 0.
 */
#include "fuzz-common.h"

#include "e1_model.h"

#define DRAM_BASE	0x80000000ULL
#define DRAM_SIZE	0x4000u
#define MAX_ACTIONS	96
#define MAC_MAX		(1u << 21)

#define WR(off)		(E1_WIN_WRAPPER * E1_WIN_SIZE + (off))
#define DPR(off)	(E1_WIN_DATAPATH * E1_WIN_SIZE + (off))

enum phase { PH_IDLE, PH_RUN, PH_DP_WRITE, PH_WR_WRITE };

struct host {
	u8 *dram;
	enum phase phase;
	/* Captured at the start of e1_model_run(). */
	u64 desc_base, tmem_base;
	u32 ring_len, tmem_len;
	bool level[E1_IRQ_COUNT];
	bool dropped;
};

static struct e1_model *model;
static struct host H;
static int verbose = -1;

static void *host_map(void *ctx, u64 addr, u64 len, bool write)
{
	struct host *h = ctx;

	switch (h->phase) {
	case PH_RUN: {
		u64 off = addr - h->desc_base;
		bool fetch = !write && len == E1_V0_DESC_SIZE && addr >= h->desc_base &&
			     !(off % E1_V0_DESC_SIZE) &&
			     off / E1_V0_DESC_SIZE < h->ring_len;
		u64 we = h->tmem_base + h->tmem_len;

		if (!fetch && (addr < h->tmem_base || len > we - addr ||
			       we < h->tmem_base || addr > we))
			fz_fail("wrapper mapped [0x%llx, +0x%llx) %s outside TENSOR_MEM [0x%llx, +0x%x)",
				(unsigned long long)addr, (unsigned long long)len,
				write ? "W" : "R", (unsigned long long)h->tmem_base,
				h->tmem_len);
		break;
	}
	case PH_DP_WRITE:
		break;
	default:
		fz_fail("memory mapped outside a run or a datapath write (phase %d)",
			h->phase);
	}
	if (addr < DRAM_BASE || addr - DRAM_BASE >= DRAM_SIZE ||
	    len > DRAM_SIZE - (addr - DRAM_BASE))
		return NULL;
	return h->dram + (addr - DRAM_BASE);
}

static void host_irq(void *ctx, unsigned int line, bool level)
{
	struct host *h = ctx;

	if (line >= E1_IRQ_COUNT)
		fz_fail("irq on unknown line %u", line);
	if (h->level[line] == level)
		fz_fail("irq line %u reported level %d twice", line, level);
	h->level[line] = level;
}

static u32 rd(u32 off)
{
	return e1_model_read(model, off);
}

static void wr(u32 off, u32 v)
{
	H.phase = off >= E1_WIN_SIZE ? PH_DP_WRITE : PH_WR_WRITE;
	e1_model_write(model, off, v);
	H.phase = PH_IDLE;
}

static u32 fz_val(struct fz *f)
{
	u8 t = fz_u8(f);

	switch (t >> 6) {
	case 0:
		return t & 63;
	case 1:
		return 1u << (t & 31);
	case 2:
		return fz_u16(f);
	default:
		return fz_u32(f);
	}
}

/* A bus address: mostly inside DRAM, sometimes anywhere. */
static u64 fz_addr(struct fz *f)
{
	u8 t = fz_u8(f);

	if (t < 0xf0)
		return DRAM_BASE + ((u64)fz_u16(f) % DRAM_SIZE);
	return fz_u64(f);
}

static void put32(u64 addr, u32 v)
{
	u64 off = addr - DRAM_BASE;

	if (addr < DRAM_BASE || off + 4 > DRAM_SIZE)
		return;
	memcpy(H.dram + off, &v, 4);
}

static u32 get32(u64 addr)
{
	u64 off = addr - DRAM_BASE;
	u32 v = 0;

	if (addr >= DRAM_BASE && off + 4 <= DRAM_SIZE)
		memcpy(&v, H.dram + off, 4);
	return v;
}

static const u8 v0_ops[] = {
	E1_V0_OP_NOP, E1_V0_OP_MATMUL_S8, E1_V0_OP_MATMUL_S8_RELU,
	E1_V0_OP_CONV2D_S8, E1_V0_OP_CONV2D_S8_RELU, E1_V0_OP_RELU,
	E1_V0_OP_MAXPOOL_S8, E1_V0_OP_BARRIER, E1_V0_OP_FALLBACK,
};

static void act_v0_desc(struct fz *f)
{
	u64 base = ((u64)rd(WR(E1_V0_DESC_BASE_HI)) << 32) | rd(WR(E1_V0_DESC_BASE_LO));
	u8 slot = fz_u8(f), sel = fz_u8(f);
	u64 at = (sel & 0x80) ? DRAM_BASE + (u64)(slot % (DRAM_SIZE / 64)) * 64 :
		 base + (u64)slot * E1_V0_DESC_SIZE;
	u32 w[E1_V0_DESC_WORDS];
	u64 a;
	int i;

	memset(w, 0, sizeof(w));
	w[0] = (sel & 0x40) ? fz_u32(f) :
	       v0_ops[sel % sizeof(v0_ops)] | E1_V0_FLAG_SIGNED_INPUT |
	       ((u32)(fz_u8(f) & 0xf) << 16);
	for (i = E1_V0_DW_SHAPE_M; i <= E1_V0_DW_SHAPE_K; i++)
		w[i] = fz_val(f);
	for (i = 0; i < 3; i++) {
		a = fz_addr(f) & ~15ULL;
		w[E1_V0_DW_A_LO + 2 * i] = (u32)a;
		w[E1_V0_DW_A_HI + 2 * i] = (u32)(a >> 32);
		w[E1_V0_DW_A_STRIDE + i] = fz_val(f);
	}
	w[E1_V0_DW_CONV_PARAMS] = fz_val(f);
	w[E1_V0_DW_POOL_PARAMS] = fz_val(f);
	w[E1_V0_DW_TAG] = fz_u8(f);
	for (i = 0; i < E1_V0_DESC_WORDS; i++)
		put32(at + 4 * i, w[i]);
}

static void act_dp_desc(struct fz *f)
{
	u64 base = rd(DPR(E1_DP_DESC_BASE));
	u8 slot = fz_u8(f) & 7;
	u32 w0 = fz_u32(f);
	int i;

	/* Owner usually set so the engine gets past the first check. */
	if (fz_u8(f) & 1)
		w0 |= E1_DP_DW0_OWNER;
	put32(base + 16 * slot, w0);
	for (i = 1; i < 4; i++)
		put32(base + 16 * slot + 4 * i, (fz_u8(f) & 1) ?
		      (u32)(DRAM_BASE + (fz_u16(f) % DRAM_SIZE)) : fz_u32(f));
}

/* Ring and window in DRAM, engine on: gets the fuzzer deep quickly. */
static void act_setup(struct fz *f)
{
	u8 b = fz_u8(f);
	u32 len = 1u << (1 + (b & 7));
	u16 toff = fz_u16(f) & ~15u, tlen = fz_u16(f);

	wr(WR(E1_V0_DESC_BASE_LO), (u32)DRAM_BASE);
	wr(WR(E1_V0_DESC_BASE_HI), (u32)(DRAM_BASE >> 32));
	wr(WR(E1_V0_DESC_RING_LEN), len);
	wr(WR(E1_V0_TENSOR_MEM_BASE_LO), (u32)DRAM_BASE + (toff % DRAM_SIZE));
	wr(WR(E1_V0_TENSOR_MEM_BASE_HI), 0);
	wr(WR(E1_V0_TENSOR_MEM_LEN), tlen);
	wr(WR(E1_V0_IRQ_MASK), E1_V0_IRQ_ALL);
	wr(WR(E1_V0_CTRL), E1_V0_CTRL_ENABLE | ((b >> 3) & 0xc));
	wr(DPR(E1_DP_DESC_BASE), (u32)DRAM_BASE + 0x3000);
}

/* MACs of the committed descriptors, to keep single runs fast. */
static u64 pending_macs(void)
{
	u64 base = ((u64)rd(WR(E1_V0_DESC_BASE_HI)) << 32) | rd(WR(E1_V0_DESC_BASE_LO));
	u32 len = rd(WR(E1_V0_DESC_RING_LEN)), t = rd(WR(E1_V0_DESC_TAIL));
	u32 h = rd(WR(E1_V0_DESC_HEAD)), i;
	u64 macs = 0;

	if (len < 2 || len > 256 || (len & (len - 1)))
		return 0;
	for (i = t; i != h; i = (i + 1) & (len - 1)) {
		u64 d = base + (u64)i * 64;
		u32 op = get32(d) & 0xff;
		u32 sm = get32(d + 4), sn = get32(d + 8), sk = get32(d + 12);

		if (op == E1_V0_OP_MATMUL_S8 || op == E1_V0_OP_MATMUL_S8_RELU) {
			macs += (u64)(sm & 0x7ff) * (sn & 0x7ff) * (sk & 0x7ff);
		} else if (op == E1_V0_OP_CONV2D_S8 || op == E1_V0_OP_CONV2D_S8_RELU) {
			u32 pp = get32(d + 56);

			macs += (u64)(pp & 0xffff) * (pp >> 16) * (sn >> 16) *
				(sk & 7) * (sk & 7) * (sn & 0xffff);
		}
		if (i == ((h - 1) & (len - 1)))
			break;
	}
	return macs;
}

static void act_run(void)
{
	unsigned int n;
	u32 ctrl;

	if (pending_macs() > MAC_MAX) {
		ctrl = rd(WR(E1_V0_CTRL));
		wr(WR(E1_V0_CTRL), ctrl | E1_V0_CTRL_FLUSH);
		return;
	}
	H.desc_base = ((u64)rd(WR(E1_V0_DESC_BASE_HI)) << 32) | rd(WR(E1_V0_DESC_BASE_LO));
	H.ring_len = rd(WR(E1_V0_DESC_RING_LEN));
	H.tmem_base = ((u64)rd(WR(E1_V0_TENSOR_MEM_BASE_HI)) << 32) |
		      rd(WR(E1_V0_TENSOR_MEM_BASE_LO));
	H.tmem_len = rd(WR(E1_V0_TENSOR_MEM_LEN));
	if (verbose)
		fprintf(stderr, "run: base 0x%llx len %u head %u tail %u window [0x%llx, +0x%x)\n",
			(unsigned long long)H.desc_base, H.ring_len,
			rd(WR(E1_V0_DESC_HEAD)), rd(WR(E1_V0_DESC_TAIL)),
			(unsigned long long)H.tmem_base, H.tmem_len);
	H.phase = PH_RUN;
	n = e1_model_run(model);
	H.phase = PH_IDLE;
	if (verbose)
		fprintf(stderr, "run: %u retired, STATUS 0x%08x\n", n,
			rd(WR(E1_V0_STATUS)));
}

static void check_state(void)
{
	u32 ctrl = rd(WR(E1_V0_CTRL)), irqs = rd(WR(E1_V0_IRQ_STATUS));
	u32 mask = rd(WR(E1_V0_IRQ_MASK)), st = rd(WR(E1_V0_STATUS));
	u32 len = rd(WR(E1_V0_DESC_RING_LEN));
	u32 head = rd(WR(E1_V0_DESC_HEAD)), tail = rd(WR(E1_V0_DESC_TAIL));
	u32 dst = rd(DPR(E1_DP_CTRL_STATUS)), q, l;
	bool want[E1_IRQ_COUNT];

	want[E1_IRQ_NPU] = (ctrl & E1_V0_CTRL_IRQ_ENABLE) && (irqs & mask);
	want[E1_IRQ_FALLBACK] = (ctrl & E1_V0_CTRL_CPU_FALLBACK) &&
				(irqs & E1_V0_IRQ_UNSUPPORTED_OP);
	want[E1_IRQ_DATAPATH] = dst & E1_DP_STATUS_DONE;
	for (l = 0; l < E1_IRQ_COUNT; l++) {
		bool dropped = model->irq_dropped & (1u << l);

		if (model->irq_level[l] != want[l])
			fz_fail("irq line %u level %d, registers say %d (CTRL 0x%x IRQ_STATUS 0x%x MASK 0x%x DP 0x%x)",
				l, model->irq_level[l], want[l], ctrl, irqs, mask, dst);
		if (H.level[l] != (want[l] && !dropped))
			fz_fail("irq line %u: host sees %d, level %d, dropped %d",
				l, H.level[l], want[l], dropped);
	}
	if (!model->cfg.wrapper_present)
		return;	/* its registers read 0 */
	if (irqs & ~E1_V0_IRQ_ALL)
		fz_fail("IRQ_STATUS 0x%x has undefined bits", irqs);
	q = E1_FIELD_GET(E1_V0_STATUS_Q_LEVEL, st);
	if (len >= 2 && len <= 256 && !(len & (len - 1))) {
		if (head < len && tail < len && q != ((head - tail) & (len - 1)))
			fz_fail("q_level %u, head %u tail %u len %u", q, head, tail, len);
	}
	if (!!(st & E1_V0_STATUS_QUEUE_EMPTY) != !q)
		fz_fail("STATUS 0x%x: queue_empty vs q_level %u", st, q);
	if ((st & E1_V0_STATUS_BUSY) && !q)
		fz_fail("STATUS 0x%x: busy with an empty queue", st);
	if (!(st & E1_V0_STATUS_ERROR) && E1_FIELD_GET(E1_V0_STATUS_ERR_CODE, st))
		fz_fail("STATUS 0x%x: err_code without error", st);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct e1_model_host host = { .map = host_map, .irq = host_irq, .ctx = &H };
	struct e1_model_config cfg;
	struct fz f = { data, size };
	u8 c0 = fz_u8(&f);
	int n;

	if (verbose < 0)
		verbose = getenv("FUZZ_VERBOSE") != NULL;
	if (!model) {
		model = malloc(sizeof(*model));
		H.dram = malloc(DRAM_SIZE);
		if (!model || !H.dram)
			abort();
	}
	memset(H.level, 0, sizeof(H.level));
	H.phase = PH_IDLE;
	memset(H.dram, 0, DRAM_SIZE);
	e1_model_default_config(&cfg);
	cfg.gemmini_present = !(c0 & 1);
	if ((c0 & 6) == 2)
		cfg.wrapper_present = false;
	else if ((c0 & 6) == 4)
		cfg.datapath_present = false;
	e1_model_init(model, &cfg, &host);
	check_state();

	for (n = 0; n < MAX_ACTIONS && f.n; n++) {
		u8 a = fz_u8(&f);
		u32 off;

		switch (a % 14) {
		case 0:
		case 1: {	/* register write, either window */
			u8 r = fz_u8(&f);

			off = (r & 0x80 ? E1_WIN_SIZE : 0) + (r & 0x7f) * 4;
			if (a & 0x80)
				off = fz_u16(&f);	/* anywhere, unaligned too */
			wr(off, fz_val(&f));
			break;
		}
		case 2: {	/* register read */
			u8 r = fz_u8(&f);

			off = (r & 0x80 ? E1_WIN_SIZE : 0) + (r & 0x7f) * 4;
			if (a & 0x80)
				off = fz_u32(&f);
			(void)rd(off);
			break;
		}
		case 3:
			act_v0_desc(&f);
			break;
		case 4:
			act_dp_desc(&f);
			break;
		case 5: {	/* raw DRAM bytes */
			u16 o = fz_u16(&f) % DRAM_SIZE;
			u8 cnt = fz_u8(&f) & 63, i;

			for (i = 0; i < cnt && o + i < DRAM_SIZE; i++)
				H.dram[o + i] = fz_u8(&f);
			break;
		}
		case 6:
			act_setup(&f);
			break;
		case 7:
			wr(WR(E1_V0_DESC_DOORBELL), fz_u8(&f));
			break;
		case 8:
			act_run();
			break;
		case 9: {
			u64 lo = fz_addr(&f);
			u64 len = fz_u16(&f);

			e1_model_inject_fault(model, lo, lo + len < lo ? ~0ULL : lo + len,
					      (fz_u8(&f) & 1) ? E1_MEM_NORESP : E1_MEM_ERROR);
			break;
		}
		case 10:
			e1_model_clear_faults(model);
			break;
		case 11:
			e1_model_inject_hang(model, fz_u8(&f) & 1);
			break;
		case 12:
			e1_model_inject_drop_irq(model, fz_u8(&f) & 3);
			break;
		case 13: {	/* datapath command: opcode, param, start */
			u8 b = fz_u8(&f);

			wr(DPR(E1_DP_OPCODE), b & 15);
			wr(DPR(E1_DP_CMD_PARAM), (b >> 4) & 3);
			wr(DPR(E1_DP_CTRL_STATUS), (b & 0x40) ? E1_DP_STATUS_DONE :
			   E1_DP_CTRL_START);
			break;
		}
		}
		check_state();
	}
	return 0;
}
