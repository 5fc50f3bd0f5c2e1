// SPDX-License-Identifier: MIT
/*
 * libFuzzer harness of the driver's submission rules (hw/e1npu_opcheck.c).
 *
 * The input is decoded into: device configuration and limits (only ever
 * tightened from the real envelope, so the hardware must accept whatever
 * the validator accepts), three buffers (sizes; small ones are backed by
 * host memory, huge ones only exist for the arithmetic), one struct
 * e1npu_hw_op and the job's engine, then, when the input goes on, a
 * command tail: mutations of the op's encoded command and relocations.
 *
 * Properties, see Documentation/fuzzing.md:
 *  P1 e1npu_op_extents() agrees with an independent 128-bit computation of
 *     the hardware-contract geometry (or reports the overflow/zero dim);
 *  P2 an op e1npu_op_check() accepts touches, row by row, only bytes
 *     inside its buffers (128-bit arithmetic, no validator code);
 *  P3 an accepted wrapper op, encoded with e1npu_op_encode() and run on the
 *     device model, retires (or falls back with 0x01 for FALLBACK or a
 *     Gemmini op without Gemmini), never 0x02-0x07;
 *  P4 every range the model maps is the descriptor or lies inside the
 *     validator's extent of a tensor of the op (writes: the output only);
 *  P5 an accepted datapath op runs through e1npu_dp_exec() without touching
 *     host bytes outside its buffers (exact-size heap copies under ASan)
 *     and without a datapath error, except the data-dependent fail-closed
 *     scalar opcodes;
 *  P6 an accepted op, encoded with e1npu_cmd_encode() (the command and its
 *     relocations, what libe1npu submits), decodes with e1npu_cmd_decode()
 *     and e1npu_cmd_reloc() back to the same op, field for field;
 *  P7 (command tail) a command decode accepts is canonical: re-encoding
 *     the decoded op gives the same bytes, so no reserved bit, kernel-owned
 *     word (addresses, tag, irq_on_complete) or unused field survives a
 *     decode; a rejection is -EINVAL with a field and a reason; each
 *     relocation applied to it fails exactly when an independent reading of
 *     the UAPI's rules says it must (command or field out of range, a
 *     field the command does not use or already has, non-zero pad: -EINVAL;
 *     handle 0: -ENOENT), and an accepted one lands in its tensor.
 */
#include "fuzz-common.h"

#include "e1npu_opcheck.h"
#include "e1_model.h"

typedef unsigned __int128 u128;

#define NBUF		3
#define HOST_MAX	(1u << 20)	/* largest host-backed buffer */
#define MAC_MAX		(1u << 18)	/* larger ops skip the model run */
#define RING_BASE	0x1000ULL
#define TMEM_BASE	0x4000000000ULL

struct ctx {
	u64 size[NBUF];
	bool backed[NBUF];
	u8 *host[NBUF];
	u64 base[NBUF];
	u8 ring[2 * E1_V0_DESC_SIZE];
	const struct e1npu_hw_op *op;
	struct e1npu_extent ext[E1NPU_T_COUNT];
	bool in_dp;
	unsigned int maps;
};

static struct e1_model *model;
static int verbose = -1;

static int lookup(void *p, u32 handle, u64 *size)
{
	struct ctx *c = p;

	if (handle < 1 || handle > NBUF)
		return -ENOENT;
	*size = c->size[handle - 1];
	return 0;
}

static const struct e1npu_hw_tensor *tensor(const struct e1npu_hw_op *op,
					     int t)
{
	return t == 0 ? &op->a : t == 1 ? &op->b : &op->c;
}

/* ------------------------------------------------------------------ */
/* Independent geometry (Documentation/hardware-contract.md 2.3, 3.6) */
/* ------------------------------------------------------------------ */

struct rgeom {
	bool used[3];
	bool strided[3];
	bool nib[3];
	u128 rows[3];
	u128 len[3];
	int err;	/* expected error from the geometry alone, 0 if none */
};

static void ref_geom(const struct e1npu_hw_op *op, struct rgeom *g)
{
	memset(g, 0, sizeof(*g));
	switch (op->opcode) {
	case E1NPU_HWOP_NOP:
	case E1NPU_HWOP_BARRIER:
	case E1NPU_HWOP_FALLBACK:
		break;
	case E1NPU_HWOP_MATMUL_S8:
	case E1NPU_HWOP_DP_GEMM_S8:
	case E1NPU_HWOP_DP_GEMM_S4:
		g->used[0] = g->used[1] = g->used[2] = true;
		g->rows[0] = op->m;
		g->len[0] = op->k;
		g->rows[1] = op->k;
		g->len[1] = op->n;
		g->rows[2] = op->m;
		g->len[2] = (u128)4 * op->n;
		g->nib[0] = g->nib[1] = op->opcode == E1NPU_HWOP_DP_GEMM_S4;
		g->strided[0] = g->strided[1] = g->strided[2] = true;
		break;
	case E1NPU_HWOP_CONV2D_S8:
		g->used[0] = g->used[1] = g->used[2] = true;
		g->strided[0] = g->strided[1] = g->strided[2] = true;
		g->rows[0] = op->m;
		g->len[0] = (u128)op->n * op->c_in;
		g->rows[1] = (u128)op->k * op->k * op->c_in;
		g->len[1] = op->c_out;
		g->rows[2] = op->out_h;
		g->len[2] = (u128)4 * op->out_w * op->c_out;
		break;
	case E1NPU_HWOP_RELU_S8:
		g->used[0] = g->used[2] = true;
		g->strided[0] = g->strided[2] = true;
		g->rows[0] = g->rows[2] = op->m;
		g->len[0] = g->len[2] = op->n;
		break;
	case E1NPU_HWOP_MAXPOOL_S8:
		g->used[0] = g->used[2] = true;
		g->strided[0] = g->strided[2] = true;
		if (!op->k || !op->stride_h) {
			g->err = -EINVAL;
			break;
		}
		if (op->m < op->k || op->n < op->k) {
			g->err = -ERANGE;
			break;
		}
		g->rows[0] = op->m;
		g->len[0] = (u128)op->n * op->c_in;
		g->rows[2] = (op->m - op->k) / op->stride_h + 1;
		g->len[2] = (u128)((op->n - op->k) / op->stride_h + 1) * op->c_in;
		break;
	case E1NPU_HWOP_DP_SCALAR:
		g->used[0] = g->used[2] = true;
		g->rows[0] = g->rows[2] = 1;
		g->len[0] = (u128)12 * op->m;
		g->len[2] = (u128)8 * op->m;
		break;
	case E1NPU_HWOP_DP_VRELU_S8:
		g->used[0] = g->used[2] = true;
		g->rows[0] = g->rows[2] = 1;
		g->len[0] = g->len[2] = op->n;
		break;
	default:
		g->err = -EINVAL;
		break;
	}
}

/* Byte range [*lo, *hi) of row r of tensor t, in 128 bits. */
static void ref_row(const struct rgeom *g, const struct e1npu_hw_tensor *tn,
		    int t, u128 r, u128 *lo, u128 *hi)
{
	u128 stride = g->strided[t] ? tn->stride : 0;

	if (g->nib[t]) {
		/* Nibble n of the tensor lives in byte offset + n / 2. */
		u128 n0 = r * stride, n1 = n0 + g->len[t];

		*lo = (u128)tn->offset + n0 / 2;
		*hi = (u128)tn->offset + (n1 + 1) / 2;
	} else {
		*lo = (u128)tn->offset + r * stride;
		*hi = *lo + g->len[t];
	}
}

static const char *u128s(u128 v, char *buf)
{
	snprintf(buf, 40, "0x%016llx%016llx", (unsigned long long)(v >> 64),
		 (unsigned long long)v);
	return buf;
}

/* P1: e1npu_op_extents() against the reference, on any op. */
static void check_extents(const struct e1npu_hw_op *op, const struct rgeom *g)
{
	struct e1npu_extent ext[E1NPU_T_COUNT];
	struct e1npu_op_err err = { 0 };
	int ret = e1npu_op_extents(op, ext, &err), t;
	bool zero = false, ovf = false;
	char b1[40];

	for (t = 0; t < 3 && !g->err; t++) {
		u128 lo, hi;

		if (!g->used[t])
			continue;
		/* The factors of a geometry may pass 64 bits on their own. */
		if (g->rows[t] > UINT64_MAX || g->len[t] > UINT64_MAX)
			ovf = true;
		if (!g->rows[t] || !g->len[t]) {
			zero = true;
			continue;
		}
		ref_row(g, tensor(op, t), t, g->rows[t] - 1, &lo, &hi);
		if (hi > UINT64_MAX)
			ovf = true;
	}
	if (g->err || zero || ovf) {
		/* Any of the reasons that apply, in whatever order. */
		if (!((g->err && ret == g->err) || (zero && ret == -EINVAL) ||
		      (ovf && ret == -EOVERFLOW)))
			fz_fail("extents: opcode 0x%x returned %d (%s), expected %d/%s%s",
				op->opcode, ret, ret ? err.field : "-", g->err,
				zero ? "EINVAL " : "", ovf ? "EOVERFLOW" : "");
		return;
	}
	if (ret)
		fz_fail("extents: opcode 0x%x rejected with %d (%s: %s), reference fits",
			op->opcode, ret, err.field, err.reason);
	for (t = 0; t < 3; t++) {
		u128 lo, hi;

		if (ext[t].used != g->used[t])
			fz_fail("extents: tensor %d used %d, reference %d", t,
				ext[t].used, g->used[t]);
		if (ext[t].write != (g->used[t] && t == 2))
			fz_fail("extents: tensor %d write %d", t, ext[t].write);
		if (!g->used[t])
			continue;
		ref_row(g, tensor(op, t), t, g->rows[t] - 1, &lo, &hi);
		if (ext[t].start != tensor(op, t)->offset || ext[t].end != (u64)hi)
			fz_fail("extents: opcode 0x%x tensor %d [0x%llx, 0x%llx), reference end %s",
				op->opcode, t, (unsigned long long)ext[t].start,
				(unsigned long long)ext[t].end, u128s(hi, b1));
	}
}

/* P2: every row of every used tensor inside its buffer. */
static void check_accepted(const struct e1npu_hw_op *op, const struct rgeom *g,
			   const struct ctx *c)
{
	char b1[40], b2[40];
	int t;

	if (g->err)
		fz_fail("check accepted opcode 0x%x the reference rejects (%d)",
			op->opcode, g->err);
	for (t = 0; t < 3; t++) {
		const struct e1npu_hw_tensor *tn = tensor(op, t);
		u128 r, lo, hi, size;

		if (!g->used[t])
			continue;
		if (tn->handle < 1 || tn->handle > NBUF)
			fz_fail("accepted tensor %d with unknown handle %u", t, tn->handle);
		if (!g->rows[t] || !g->len[t])
			fz_fail("accepted tensor %d with a zero dimension", t);
		if (g->strided[t] && tn->stride < g->len[t])
			fz_fail("accepted tensor %d with stride %u < row %s", t,
				tn->stride, u128s(g->len[t], b1));
		size = c->size[tn->handle - 1];
		/* Rows are increasing: checking every row also checks the last. */
		for (r = 0; r < g->rows[t]; r++) {
			ref_row(g, tn, t, r, &lo, &hi);
			if (hi > size)
				fz_fail("opcode 0x%x accepted but tensor %d row %llu bytes [%s, %s) pass buffer %u of %llu bytes",
					op->opcode, t, (unsigned long long)r,
					u128s(lo, b1), u128s(hi, b2), tn->handle,
					(unsigned long long)c->size[tn->handle - 1]);
		}
	}
}

/* ------------------------------------------------------------------ */
/* Device model host                                                  */
/* ------------------------------------------------------------------ */

static void *host_map(void *p, u64 addr, u64 len, bool write)
{
	struct ctx *c = p;
	int t;

	c->maps++;
	if (c->in_dp)
		fz_fail("datapath direct mode mapped bus memory 0x%llx+%llu",
			(unsigned long long)addr, (unsigned long long)len);
	if (addr >= RING_BASE && len <= sizeof(c->ring) &&
	    addr + len <= RING_BASE + sizeof(c->ring)) {
		if (write)
			fz_fail("model wrote the descriptor ring");
		return c->ring + (addr - RING_BASE);
	}
	/* P4: inside the extent of a tensor of the op (write: c only). */
	for (t = 0; t < 3; t++) {
		const struct e1npu_hw_tensor *tn = tensor(c->op, t);
		u64 b, lo, hi;

		if (!c->ext[t].used || (write && t != 2))
			continue;
		b = c->base[tn->handle - 1];
		lo = b + c->ext[t].start;
		hi = b + c->ext[t].end;
		if (addr >= lo && len <= hi - lo && addr - lo <= hi - lo - len)
			return c->host[tn->handle - 1] + (addr - b);
	}
	fz_fail("model mapped [0x%llx, +%llu) %s outside the op's tensors (opcode 0x%x)",
		(unsigned long long)addr, (unsigned long long)len,
		write ? "for write" : "for read", c->op->opcode);
}

static void run_wrapper(struct ctx *c, const struct e1npu_hw_op *op,
			bool gemmini)
{
	u64 dev_addr[E1NPU_T_COUNT] = { 0 };
	u32 desc[E1_V0_DESC_WORDS];
	struct e1_model_config cfg;
	struct e1_model_host host = { .map = host_map, .ctx = c };
	u64 tend;
	u32 st, code, want = 0;
	int t, i;

	for (t = 0; t < 3; t++)
		if (c->ext[t].used)
			dev_addr[t] = c->base[tensor(op, t)->handle - 1] +
				      tensor(op, t)->offset;
	if (e1npu_op_encode(op, dev_addr, 0xC0DE, desc))
		fz_fail("encode refused an accepted wrapper op 0x%x", op->opcode);
	e1npu_desc_set_irq(desc);
	for (i = 0; i < E1_V0_DESC_WORDS; i++) {
		c->ring[4 * i] = (u8)desc[i];
		c->ring[4 * i + 1] = (u8)(desc[i] >> 8);
		c->ring[4 * i + 2] = (u8)(desc[i] >> 16);
		c->ring[4 * i + 3] = (u8)(desc[i] >> 24);
	}
	e1_model_default_config(&cfg);
	cfg.gemmini_present = gemmini;
	e1_model_init(model, &cfg, &host);
	tend = c->base[NBUF - 1] + c->size[NBUF - 1];
	e1_model_write(model, E1_V0_DESC_BASE_LO, (u32)RING_BASE);
	e1_model_write(model, E1_V0_DESC_BASE_HI, (u32)(RING_BASE >> 32));
	e1_model_write(model, E1_V0_DESC_RING_LEN, 2);
	e1_model_write(model, E1_V0_TENSOR_MEM_BASE_LO, (u32)TMEM_BASE);
	e1_model_write(model, E1_V0_TENSOR_MEM_BASE_HI, (u32)(TMEM_BASE >> 32));
	e1_model_write(model, E1_V0_TENSOR_MEM_LEN, (u32)(tend - TMEM_BASE));
	e1_model_write(model, E1_V0_IRQ_MASK, E1_V0_IRQ_ALL);
	e1_model_write(model, E1_V0_CTRL, E1_V0_CTRL_ENABLE | E1_V0_CTRL_IRQ_ENABLE);
	e1_model_write(model, E1_V0_DESC_DOORBELL, 1);
	e1_model_run(model);
	st = e1_model_read(model, E1_V0_STATUS);
	code = E1_FIELD_GET(E1_V0_STATUS_ERR_CODE, st);
	if (op->opcode == E1NPU_HWOP_FALLBACK ||
	    (!gemmini && op->opcode != E1NPU_HWOP_NOP &&
	     op->opcode != E1NPU_HWOP_BARRIER))
		want = E1_V0_ERR_UNKNOWN_OP;
	if (code != want || (!want && (e1_model_read(model, E1_V0_DESC_TAIL) != 1 ||
				       e1_model_read(model, E1_V0_COMPLETION_TAG) != 0xC0DE)))
		fz_fail("validator accepted opcode 0x%x, the model answered err_code 0x%02x (want 0x%02x), STATUS 0x%08x, fault 0x%08x%08x",
			op->opcode, code, want, st,
			e1_model_read(model, E1_V0_ERR_FAULT_ADDR_HI),
			e1_model_read(model, E1_V0_ERR_FAULT_ADDR_LO));
}

static u32 dp_rd(void *p, u32 off)
{
	(void)p;
	return e1_model_read(model, E1_WIN_DATAPATH * E1_WIN_SIZE + off);
}

static void dp_wr(void *p, u32 off, u32 v)
{
	(void)p;
	e1_model_write(model, E1_WIN_DATAPATH * E1_WIN_SIZE + off, v);
}

static void run_datapath(struct ctx *c, const struct e1npu_hw_op *op)
{
	struct e1_model_host host = { .map = host_map, .ctx = c };
	struct e1npu_dp_io io = { .read = dp_rd, .write = dp_wr };
	const u8 *a = NULL, *b = NULL;
	u8 *out = NULL;
	u32 hw = 0;
	int ret;

	e1_model_init(model, NULL, &host);
	if (c->ext[0].used)
		a = c->host[op->a.handle - 1] + op->a.offset;
	if (c->ext[1].used)
		b = c->host[op->b.handle - 1] + op->b.offset;
	if (c->ext[2].used)
		out = c->host[op->c.handle - 1] + op->c.offset;
	c->in_dp = true;
	ret = e1npu_dp_exec(&io, op, a, b, out, &hw);
	c->in_dp = false;
	if (!ret)
		return;
	/* Data-dependent fail-closed scalar opcodes (contract 3.2 - 3.5). */
	if (ret == -EIO && op->opcode == E1NPU_HWOP_DP_SCALAR &&
	    (op->k == E1_DP_OP_SDOT4_S4_2_4 || op->k == E1_DP_OP_DOT16_S2 ||
	     op->k == E1_DP_OP_DOT4_FP8_E4M3 || op->k == E1_DP_OP_EXP2_NEG_Q0_8))
		return;
	fz_fail("validator accepted datapath opcode 0x%x (k %u), dp_exec returned %d, CTRL_STATUS 0x%x",
		op->opcode, op->k, ret, hw);
}

/* ------------------------------------------------------------------ */
/* Input decoding                                                      */
/* ------------------------------------------------------------------ */

static u32 fz_val(struct fz *f)
{
	u8 t = fz_u8(f);

	switch (t >> 6) {
	case 0:
		return t & 63;
	case 1:
		return (t & 63) * 16u;
	case 2:
		return fz_u16(f);
	default:
		return fz_u32(f);
	}
}

static u64 fz_off(struct fz *f)
{
	u8 t = fz_u8(f);

	switch (t >> 6) {
	case 0:
		return 0;
	case 1:
		return (t & 63) * 16u;
	case 2:
		return fz_u32(f);
	default:
		return fz_u64(f);
	}
}

static u32 tighten(struct fz *f, u32 v)
{
	u32 t = fz_u16(f);

	return t && t < v ? t : v;
}

/* ------------------------------------------------------------------ */
/* Commands: encode, decode, relocations (P6, P7)                      */
/* ------------------------------------------------------------------ */

static const char *op_diff(const struct e1npu_hw_op *x,
			   const struct e1npu_hw_op *y)
{
#define D(f) if (x->f != y->f) return #f
	D(opcode); D(flags); D(m); D(n); D(k); D(c_in); D(c_out); D(out_h);
	D(out_w); D(stride_h); D(stride_w); D(pad_top); D(pad_left);
	D(dilation); D(a.handle); D(a.stride); D(a.offset); D(b.handle);
	D(b.stride); D(b.offset); D(c.handle); D(c.stride); D(c.offset);
#undef D
	return NULL;
}

/* the tensors an opcode uses, from the reference geometry */
static u32 ref_used(u32 opcode)
{
	struct e1npu_hw_op o;
	struct rgeom g;
	u32 t, used = 0;

	memset(&o, 0, sizeof(o));
	o.opcode = opcode;
	o.k = o.stride_h = 1;	/* MAXPOOL: no geometry error */
	o.m = o.n = 1;
	ref_geom(&o, &g);
	for (t = 0; t < 3; t++)
		if (g.used[t])
			used |= 1u << t;
	return used;
}

/* P6 */
static void check_roundtrip(const struct e1npu_hw_op *op, u32 engine)
{
	struct drm_e1npu_reloc rel[E1NPU_T_COUNT + 1];
	struct e1npu_op_err err = { 0 };
	u8 cmd[E1NPU_CMD_MAX_SIZE];
	/* the command is the job's sixth: relocations index the job */
	struct e1npu_hw_op decs[6], *dec = &decs[5];
	u32 n = 0, seens[6] = { 0 }, i, used = ref_used(op->opcode);
	const char *d;
	int ret;

	memset(cmd, 0xa5, sizeof(cmd));
	memset(rel, 0xa5, sizeof(rel));
	if (e1npu_cmd_encode(engine, op, cmd, rel, 5, &n))
		fz_fail("cmd_encode refused accepted opcode 0x%x on engine %u",
			op->opcode, engine);
	if (n != (u32)__builtin_popcount(used))
		fz_fail("cmd_encode: opcode 0x%x gave %u relocations, it uses tensors 0x%x",
			op->opcode, n, used);
	ret = e1npu_cmd_decode(engine, cmd, dec, &err);
	if (ret)
		fz_fail("cmd_decode refused the encoding of accepted opcode 0x%x: %d (%s: %s)",
			op->opcode, ret, err.field, err.reason);
	for (i = 0; i < n; i++) {
		if (rel[i].cmd != 5 || rel[i].pad)
			fz_fail("cmd_encode: relocation %u cmd %u pad %u", i,
				rel[i].cmd, rel[i].pad);
		ret = e1npu_cmd_reloc(decs, seens, &rel[i], 6, &err);
		if (ret)
			fz_fail("cmd_reloc refused relocation %u (field %u) of accepted opcode 0x%x: %d (%s: %s)",
				i, rel[i].field, op->opcode, ret, err.field,
				err.reason);
	}
	if (seens[5] != used)
		fz_fail("relocations of opcode 0x%x set fields 0x%x, it uses 0x%x",
			op->opcode, seens[5], used);
	for (i = 0; i < 5; i++)
		if (seens[i])
			fz_fail("relocations of command 5 set fields 0x%x of command %u",
				seens[i], i);
	d = op_diff(op, dec);
	if (d)
		fz_fail("decode(encode(op)) differs from accepted opcode 0x%x in %s",
			op->opcode, d);
}

/* P7: the command tail of the input */
static void check_cmd_tail(struct fz *f, const struct e1npu_hw_op *op)
{
	u8 cmd[E1NPU_CMD_MAX_SIZE], re[E1NPU_CMD_MAX_SIZE];
	struct drm_e1npu_reloc rel[E1NPU_T_COUNT];
	struct e1npu_op_err err = { 0 };
	struct e1npu_hw_op dec;
	u32 sel, engine, nmut, i, n, seen = 0, used;
	int size, eng, ret;

	if (!f->n)
		return;
	sel = fz_u8(f);
	eng = e1npu_op_engine(op->opcode);
	engine = eng < 0 || (sel & 0x80) ? (sel & 1) : (u32)eng;
	size = e1npu_cmd_size(engine);
	memset(cmd, 0, sizeof(cmd));
	/* the op's command, or raw bytes when it has none on this engine */
	if (e1npu_cmd_encode(engine, op, cmd, rel, 0, &n))
		for (i = 0; i < (u32)size; i++)
			cmd[i] = fz_u8(f);
	/* 0-3 words xor-ed with a mask (a bit, a byte, any value) */
	nmut = (sel >> 1) & 3;
	for (i = 0; i < nmut; i++) {
		u32 at = fz_u8(f) % ((u32)size / 4), m = fz_u8(f), w;

		if (m < 0x40)
			m = 1u << (m & 31);
		else if (m < 0x80)
			m = (m & 0xff) << (8 * (m & 3));
		else
			m = fz_u32(f);
		memcpy(&w, cmd + 4 * at, 4);
		w ^= m;
		memcpy(cmd + 4 * at, &w, 4);
	}
	ret = e1npu_cmd_decode(engine, cmd, &dec, &err);
	if (ret) {
		if (ret != -EINVAL || !err.field || !err.reason)
			fz_fail("cmd_decode rejected with %d without -EINVAL, a field and a reason",
				ret);
		return;
	}
	/* canonical: what decode accepted encodes to the same bytes */
	memset(re, 0x5a, sizeof(re));
	if (e1npu_cmd_encode(engine, &dec, re, rel, 0, &n))
		fz_fail("cmd_encode refused what cmd_decode accepted (opcode 0x%x, engine %u)",
			dec.opcode, engine);
	for (i = 0; i < (u32)size; i++)
		if (re[i] != cmd[i])
			fz_fail("cmd_decode accepted a non-canonical command: engine %u opcode 0x%x, byte %u (word %u) 0x%02x, re-encoded 0x%02x",
				engine, dec.opcode, i, i / 4, cmd[i], re[i]);
	/* relocations against the reference reading of the rules */
	used = ref_used(dec.opcode);
	n = fz_u8(f) % 6;
	for (i = 0; i < n; i++) {
		struct drm_e1npu_reloc r;
		struct e1npu_hw_op before = dec;
		u8 b = fz_u8(f);
		bool e_inval = false, e_noent = false;
		const struct e1npu_hw_tensor *tn;

		memset(&r, 0, sizeof(r));
		r.cmd = b & 0x80 ? fz_u32(f) : (b >> 5) & 1;
		r.field = b & 0x10 ? fz_u32(f) : b & 3;
		r.handle = b & 4 ? 0 : 1 + ((b >> 3) & 1);
		r.pad = b & 0x40 ? fz_u32(f) : 0;
		r.offset = fz_off(f);
		if (r.cmd >= 1 || r.pad || r.field >= 3 ||
		    !(used & (1u << r.field)) || (seen & (1u << r.field)))
			e_inval = true;
		if (!r.handle)
			e_noent = true;
		ret = e1npu_cmd_reloc(&dec, &seen, &r, 1, &err);
		if (!ret && (e_inval || e_noent))
			fz_fail("cmd_reloc accepted cmd %u field %u handle %u pad %u (opcode 0x%x, fields set 0x%x)",
				r.cmd, r.field, r.handle, r.pad, dec.opcode, seen);
		if (ret && !((ret == -EINVAL && e_inval) ||
			     (ret == -ENOENT && e_noent)))
			fz_fail("cmd_reloc returned %d for cmd %u field %u handle %u pad %u (opcode 0x%x): expected %s%s",
				ret, r.cmd, r.field, r.handle, r.pad, dec.opcode,
				e_inval ? "-EINVAL " : "", e_noent ? "-ENOENT" : "0");
		if (ret) {
			if (op_diff(&before, &dec))
				fz_fail("a refused relocation changed the op (%s)",
					op_diff(&before, &dec));
			continue;
		}
		tn = tensor(&dec, (int)r.field);
		if (tn->handle != r.handle || tn->offset != r.offset)
			fz_fail("relocation of field %u: tensor handle %u offset 0x%llx",
				r.field, tn->handle, (unsigned long long)tn->offset);
	}
}

static const u32 opcodes[] = {
	E1NPU_HWOP_NOP, E1NPU_HWOP_BARRIER, E1NPU_HWOP_MATMUL_S8,
	E1NPU_HWOP_CONV2D_S8, E1NPU_HWOP_RELU_S8, E1NPU_HWOP_MAXPOOL_S8,
	E1NPU_HWOP_FALLBACK, E1NPU_HWOP_DP_SCALAR, E1NPU_HWOP_DP_GEMM_S8,
	E1NPU_HWOP_DP_GEMM_S4, E1NPU_HWOP_DP_VRELU_S8,
};

#define ARRAY_LEN_OPS	(sizeof(opcodes) / sizeof(opcodes[0]))

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz f = { data, size };
	struct e1npu_hw_op op;
	struct e1npu_limits lim;
	struct e1npu_op_err err = { 0 };
	struct ctx c;
	struct rgeom g;
	u8 cfgb, ob;
	u32 engine;
	u64 macs = 0, base;
	bool gemmini, can_run = true;
	int t, ret, eng;

	if (verbose < 0)
		verbose = getenv("FUZZ_VERBOSE") != NULL;
	if (!model) {
		model = malloc(sizeof(*model));
		if (!model)
			abort();
	}
	memset(&c, 0, sizeof(c));
	memset(&op, 0, sizeof(op));

	cfgb = fz_u8(&f);
	gemmini = !(cfgb & 0x04);
	e1npu_limits_init(&lim, !(cfgb & 0x08), E1_V0_ID_VALUE,
			  gemmini ? E1_V0_CAPS_GEMMINI : 0, !(cfgb & 0x10),
			  E1_DP_ID_VALUE, 64, 1ULL << 28);
	if (cfgb & 0x20) {
		lim.max_matmul_mn = tighten(&f, lim.max_matmul_mn);
		lim.max_matmul_k = tighten(&f, lim.max_matmul_k);
		lim.max_conv_hw = tighten(&f, lim.max_conv_hw);
		lim.max_conv_c = tighten(&f, lim.max_conv_c);
		lim.max_relu_mn = tighten(&f, lim.max_relu_mn);
		lim.max_conv_dilation = tighten(&f, lim.max_conv_dilation);
		lim.max_conv_pad = tighten(&f, lim.max_conv_pad + 1) - 1;
		lim.conv_kernels &= fz_u8(&f) | 0x2;
		lim.conv_strides &= fz_u8(&f) | 0x2;
		lim.pool_windows &= fz_u8(&f) | 0x4;
		lim.pool_strides &= fz_u8(&f) | 0x2;
		if (cfgb & 0x40)
			lim.align = 64;	/* a stricter platform alignment */
	}
	for (t = 0; t < NBUF; t++) {
		u32 s = fz_u32(&f);

		if (s & 0x80000000u) {
			/* A huge buffer: arithmetic only, nothing runs. */
			c.size[t] = fz_u64(&f);
			can_run = false;
		} else {
			c.size[t] = (s & 0x40000000u) ? (s & (HOST_MAX - 1)) : (s & 0x3fff);
			if (!c.size[t])
				c.size[t] = 1;
		}
	}

	ob = fz_u8(&f);
	op.opcode = ob < 2 * ARRAY_LEN_OPS ? opcodes[ob % ARRAY_LEN_OPS] : fz_u32(&f);
	op.flags = fz_u8(&f) & 7;
	if (op.flags & 4)
		op.flags = fz_u32(&f);
	op.m = fz_val(&f);
	op.n = fz_val(&f);
	op.k = fz_val(&f);
	op.c_in = fz_val(&f);
	op.c_out = fz_val(&f);
	op.out_h = fz_val(&f);
	op.out_w = fz_val(&f);
	op.stride_h = fz_val(&f);
	op.stride_w = fz_val(&f);
	op.pad_top = fz_val(&f);
	op.pad_left = fz_val(&f);
	op.dilation = fz_val(&f);
	for (t = 0; t < 3; t++) {
		struct e1npu_hw_tensor *tn = (struct e1npu_hw_tensor *)tensor(&op, t);
		u8 h = fz_u8(&f);

		tn->handle = h < 0xf0 ? h % 4 : fz_u32(&f);
		tn->stride = fz_val(&f);
		tn->offset = fz_off(&f);
	}
	eng = e1npu_op_engine(op.opcode);
	engine = eng < 0 ? 0 : (u32)eng;
	if (cfgb & 0x80)
		engine = fz_u32(&f) & 3;

	ref_geom(&op, &g);
	check_extents(&op, &g);
	check_cmd_tail(&f, &op);

	ret = e1npu_op_check(&op, engine, &lim, lookup, &c, &err);
	if (verbose)
		fprintf(stderr, "opcode 0x%x engine %u: %d %s %s\n", op.opcode,
			engine, ret, ret ? err.field : "", ret ? err.reason : "");
	if (ret) {
		if (!err.field || !err.reason)
			fz_fail("rejected (%d) without a field or reason", ret);
		return 0;
	}
	check_accepted(&op, &g, &c);
	check_roundtrip(&op, engine);

	/* Run it, when small enough and every buffer is host backed. */
	if (!can_run)
		return 0;
	if (op.opcode == E1NPU_HWOP_MATMUL_S8)
		macs = (u64)op.m * op.n * op.k;
	else if (op.opcode == E1NPU_HWOP_CONV2D_S8)
		macs = (u64)op.out_h * op.out_w * op.c_out * op.k * op.k * op.c_in;
	if (macs > MAC_MAX)
		return 0;
	if (e1npu_op_extents(&op, c.ext, NULL))
		fz_fail("extents failed on an accepted op");
	c.op = &op;
	base = TMEM_BASE;
	for (t = 0; t < NBUF; t++) {
		c.base[t] = base;
		base += (c.size[t] + 4095) & ~4095ULL;
		/* Exact-size heap copies: ASan sees any byte past the end. */
		c.host[t] = malloc(c.size[t]);
		if (!c.host[t])
			abort();
		memset(c.host[t], (int)(0x5a + t * 0x31), c.size[t]);
	}
	if (engine == DRM_E1NPU_ENGINE_WRAPPER)
		run_wrapper(&c, &op, gemmini);
	else
		run_datapath(&c, &op);
	for (t = 0; t < NBUF; t++)
		free(c.host[t]);
	return 0;
}
