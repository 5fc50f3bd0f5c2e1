// SPDX-License-Identifier: MIT
/*
 * libFuzzer harness of libe1npu's object lifetimes: random sequences of
 * device, buffer, command-buffer, lowering-context and fc calls (new, add,
 * free, submit, wait, run, reset, close, in any order) on the in-process
 * device with a 2 MiB arena, with hang and bus-error injection.
 *
 * The harness itself never uses a handle after its own destructor (that
 * is the caller's contract); anything else is allowed, in particular
 * using objects whose device, buffers or context were freed first.
 *
 * Properties, see Documentation/fuzzing.md:
 *  L1 every int call returns 0, a documented non-negative value, or a
 *     negative errno (-4095..-1); strings are NUL-terminated;
 *  L2 no crash and no ASan/UBSan report (use after free, overflow);
 *  L3 no leak: everything still owned is dropped at the end of the input
 *     in an input-chosen order, after which LeakSanitizer (libFuzzer's
 *     per-input leak check) must find nothing;
 *  L4 a matmul through a lowering context that returns 0 is right (naive
 *     int32 reference), whatever was freed or closed before.
 */
#include "fuzz-common.h"

#include <errno.h>
#include <stdbool.h>

#include <e1npu/e1npu.h>
#include <e1npu/e1npu_ops.h>

#include "sim.h"
#include "e1_model.h"

#define NDEV	2
#define NBUF	6
#define NCB	3
#define NOPS	2
#define NFC	2
#define MAX_ACTIONS	64

struct world {
	struct e1npu_device *dev[NDEV];
	struct e1npu_buffer *buf[NBUF];
	struct e1npu_cmdbuf *cb[NCB];
	struct e1npu_ops *ops[NOPS];
	struct e1npu_fc *fc[NFC];
};

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* A small arena: exhaustion is part of the game; hangs are short. */
	setenv("E1NPU_SIM_ARENA_MB", "2", 1);
	setenv("E1NPU_SIM_HANG_MS", "1", 1);
	return 0;
}

static int verbose = -1;	/* FUZZ_VERBOSE=1: every call and its result */

/* L1 */
static int chk(int ret, const char *what, bool index_ok)
{
	if (verbose < 0)
		verbose = getenv("FUZZ_VERBOSE") != NULL;
	if (verbose)
		fprintf(stderr, "  %-20s %d\n", what, ret);
	if (ret > 0 && !index_ok)
		fz_fail("%s returned %d (positive)", what, ret);
	if (ret < -4095)
		fz_fail("%s returned %d, not a negative errno", what, ret);
	return ret;
}

static void chk_str(const char *s, size_t max, const char *what)
{
	if (!s)
		fz_fail("%s: NULL string", what);
	if (strnlen(s, max) >= max)
		fz_fail("%s: not NUL-terminated within %zu bytes", what, max);
}

static uint64_t pick_size(struct fz *f)
{
	static const uint64_t sizes[] = { 16, 64, 100, 256, 4096, 8192,
					  65536, 1 << 20, 3 << 20, 0 };
	uint8_t s = fz_u8(f);

	if (s < 0xf0)
		return sizes[s % (sizeof(sizes) / sizeof(sizes[0]))];
	return fz_u64(f);
}

static uint32_t pick_dim(struct fz *f)
{
	uint8_t s = fz_u8(f);

	if (s < 0xe0)
		return 1 + s % 8;
	if (s < 0xf8)
		return 16u << (s & 3);
	return fz_u32(f);
}

static uint32_t pick_stride(struct fz *f)
{
	uint8_t s = fz_u8(f);

	if (s < 0xf0)
		return 16u * (s % 9);
	return fz_u32(f);
}

static uint64_t pick_off(struct fz *f)
{
	uint8_t s = fz_u8(f);

	if (s < 0xf0)
		return 16u * (s % 17);
	return fz_u64(f);
}

static struct e1npu_tensor pick_tensor(struct fz *f, struct world *w)
{
	struct e1npu_tensor t;
	uint8_t s = fz_u8(f);

	memset(&t, 0, sizeof(t));
	t.buf = s % (NBUF + 1) < NBUF ? w->buf[s % (NBUF + 1)] : NULL;
	t.offset = pick_off(f);
	t.stride = pick_stride(f);
	return t;
}

static void pick_desc(struct fz *f, struct world *w, struct e1npu_op_desc *d)
{
	struct e1npu_tensor a = pick_tensor(f, w), b = pick_tensor(f, w),
			    c = pick_tensor(f, w);
	uint32_t m = pick_dim(f), n = pick_dim(f), k = pick_dim(f);

	switch (fz_u8(f) % 9) {
	case 0:
		e1npu_op_desc_relu(d, a, c, m, n * 16);
		break;
	case 1:
		e1npu_op_desc_matmul(d, a, b, c, m, n, k, fz_u8(f) & 1);
		break;
	case 2:
		e1npu_op_desc_nop(d);
		break;
	case 3:
		e1npu_op_desc_fallback(d);
		break;
	case 4:
		e1npu_op_desc_dp_vrelu(d, a, c, n * 8);
		break;
	case 5:
		e1npu_op_desc_dp_gemm(d, fz_u8(f) & 1, a, b, c, m % 4, n % 4, k);
		break;
	case 6:
		e1npu_op_desc_maxpool(d, a, c, m + 2, n + 2, 16, 2 + (k & 1),
				      1 + (k >> 1 & 1));
		break;
	case 7:
		e1npu_op_desc_barrier(d);
		break;
	default:	/* anything, raw */
		memset(d, 0, sizeof(*d));
		d->opcode = fz_u8(f) % 13;
		d->m = m;
		d->n = n;
		d->k = k;
		d->a = a;
		d->b = b;
		d->c = c;
		break;
	}
}

/* L4: a small matmul through a context, checked against a naive loop. */
static void ops_matmul(struct fz *f, struct e1npu_ops *ops)
{
	int8_t a[8 * 8], b[8 * 8];
	int32_t c[8 * 8];
	uint32_t m = 1 + fz_u8(f) % 8, n = 1 + fz_u8(f) % 8, k = 1 + fz_u8(f) % 8;
	uint8_t seed = fz_u8(f);
	int ret;

	for (unsigned int i = 0; i < 64; i++) {
		a[i] = (int8_t)(seed + i * 29u);
		b[i] = (int8_t)(seed * 3u + i * 53u);
	}
	ret = chk(e1npu_ops_matmul_s8(ops, m, n, k, a, k, b, n, c, n, NULL),
		  "ops_matmul_s8", false);
	if (ret)
		return;
	for (uint32_t i = 0; i < m; i++)
		for (uint32_t j = 0; j < n; j++) {
			int32_t s = 0;

			for (uint32_t x = 0; x < k; x++)
				s += a[i * k + x] * b[x * n + j];
			if (c[i * n + j] != s)
				fz_fail("ops matmul %ux%ux%u: c[%u][%u] = %d, want %d",
					m, n, k, i, j, c[i * n + j], s);
		}
}

static void fc_new(struct fz *f, struct world *w, unsigned int slot)
{
	struct e1npu_fc_params p;
	float ws = 0.01f + (float)(fz_u8(f) % 16) / 64.0f;
	int8_t wt[16 * 16];
	unsigned int o = fz_u8(f) % NOPS;

	if (!w->ops[o])
		return;
	memset(&p, 0, sizeof(p));
	p.dtype = E1NPU_DTYPE_INT8;
	p.k = 1 + fz_u8(f) % 16;
	p.n = 1 + fz_u8(f) % 16;
	p.input.scale = 0.05f;
	p.output.scale = 0.1f;
	p.weight_scales = &ws;
	p.num_weight_scales = 1;
	for (unsigned int i = 0; i < sizeof(wt); i++)
		wt[i] = (int8_t)(i * 13u);
	chk(e1npu_fc_new(w->ops[o], &p, wt, NULL, &w->fc[slot]), "fc_new", false);
}

static void fc_run(struct fz *f, struct e1npu_fc *fc)
{
	int8_t in[4 * 16], out[4 * 16];
	uint32_t rows = 1 + fz_u8(f) % 4;

	for (unsigned int i = 0; i < sizeof(in); i++)
		in[i] = (int8_t)(i * 7u);
	chk(e1npu_fc_run(fc, rows, in, out, NULL), "fc_run", false);
}

static void inject(struct fz *f, struct e1npu_device *dev)
{
	struct e1_model *m = e1npu_sim_model(dev);
	uint8_t what = fz_u8(f);

	if (!m)
		fz_fail("sim device without a model");
	switch (what % 4) {
	case 0:
		e1_model_inject_hang(m, what & 4);
		break;
	case 1:
		e1_model_inject_fault(m, 0, ~0ull >> 1, E1_MEM_ERROR);
		break;
	default:
		e1_model_clear_faults(m);
		e1_model_inject_hang(m, false);
		break;
	}
}

static void buf_touch(struct fz *f, struct e1npu_buffer *buf)
{
	void *p = NULL;
	size_t size = e1npu_buffer_get_size(buf);

	if (chk(e1npu_buffer_map(buf, &p), "buffer_map", false))
		return;
	if (!p)
		fz_fail("buffer_map: 0 with a NULL pointer");
	/* Only the bytes asked for are the caller's. */
	memset(p, fz_u8(f), size);
	if (!e1npu_buffer_get_device(buf))
		fz_fail("buffer without a device");
}

/* One action; false at the end of the input. */
static bool step(struct fz *f, struct world *w)
{
	struct e1npu_op_outcome out;
	struct e1npu_op_desc d;
	struct e1npu_perf perf;
	uint8_t act, s;
	unsigned int i;

	if (!f->n)
		return false;
	act = fz_u8(f);
	s = fz_u8(f);
	switch (act % 24) {
	case 0:
		i = s % NDEV;
		if (!w->dev[i])
			chk(e1npu_device_open("sim", &w->dev[i]), "device_open", false);
		break;
	case 1:
		i = s % NDEV;
		e1npu_device_close(w->dev[i]);
		w->dev[i] = NULL;
		break;
	case 2:
	case 3:
		i = s % NBUF;
		if (!w->buf[i] && w->dev[s / NBUF % NDEV])
			chk(e1npu_buffer_alloc(w->dev[s / NBUF % NDEV],
					       (size_t)pick_size(f), &w->buf[i]),
			    "buffer_alloc", false);
		break;
	case 4:
		i = s % NBUF;
		e1npu_buffer_free(w->buf[i]);
		w->buf[i] = NULL;
		break;
	case 5:
		if (w->buf[s % NBUF])
			buf_touch(f, w->buf[s % NBUF]);
		break;
	case 6:
		i = s % NCB;
		if (!w->cb[i])
			chk(e1npu_cmdbuf_new(w->dev[s / NCB % NDEV], &w->cb[i]),
			    "cmdbuf_new", false);
		break;
	case 7:
		i = s % NCB;
		e1npu_cmdbuf_free(w->cb[i]);
		w->cb[i] = NULL;
		break;
	case 8:
	case 9:
	case 10:
		pick_desc(f, w, &d);
		chk(e1npu_cmdbuf_add_op(w->cb[s % NCB], &d), "cmdbuf_add_op", true);
		break;
	case 11:
		chk(e1npu_cmdbuf_submit(w->cb[s % NCB]), "cmdbuf_submit", false);
		break;
	case 12:
		chk(e1npu_cmdbuf_wait(w->cb[s % NCB], s & 0x80 ? -1 : 0),
		    "cmdbuf_wait", false);
		break;
	case 13:
		chk(e1npu_cmdbuf_run(w->cb[s % NCB]), "cmdbuf_run", false);
		break;
	case 14:
		chk(e1npu_cmdbuf_reset(w->cb[s % NCB]), "cmdbuf_reset", false);
		break;
	case 15:
		if (!chk(e1npu_cmdbuf_get_outcome(w->cb[s % NCB], fz_u8(f) % 8, &out),
			 "cmdbuf_get_outcome", false))
			chk_str(out.reason, sizeof(out.reason), "outcome reason");
		e1npu_cmdbuf_get_num_ops(w->cb[s % NCB]);
		e1npu_cmdbuf_get_num_jobs(w->cb[s % NCB]);
		break;
	case 16:
		i = s % NOPS;
		if (!w->ops[i])	/* an empty device slot: a CPU-only context */
			chk(e1npu_ops_new(w->dev[s / NOPS % NDEV], &w->ops[i]),
			    "ops_new", false);
		break;
	case 17:
		i = s % NOPS;
		e1npu_ops_free(w->ops[i]);
		w->ops[i] = NULL;
		break;
	case 18:
		if (w->ops[s % NOPS])
			ops_matmul(f, w->ops[s % NOPS]);
		break;
	case 19:
		i = s % NFC;
		if (!w->fc[i])
			fc_new(f, w, i);
		else if (s & 0x80)
			fc_run(f, w->fc[i]);
		else {
			e1npu_fc_free(w->fc[i]);
			w->fc[i] = NULL;
		}
		break;
	case 20:
		pick_desc(f, w, &d);
		chk(e1npu_op_desc_run_cpu(&d), "op_desc_run_cpu", false);
		break;
	case 21:
		if (w->dev[s % NDEV])
			inject(f, w->dev[s % NDEV]);
		break;
	case 22:
		i = s % NDEV;
		chk(e1npu_device_read_perf(w->dev[i], &perf), "read_perf", false);
		chk_str(e1npu_device_last_error(w->dev[i]), 256, "last_error");
		break;
	default:
		chk_str(e1npu_strerror(-(int)fz_u16(f)), 128, "strerror");
		break;
	}
	return true;
}

/* L3: drop everything still owned, the groups in an input-chosen order. */
static void teardown(struct world *w, unsigned int order)
{
	int perm[5] = { 0, 1, 2, 3, 4 };

	for (int i = 4; i > 0; i--) {	/* order in 0..119, one permutation */
		int j = (int)(order % (unsigned int)(i + 1)), t = perm[i];

		order /= (unsigned int)(i + 1);
		perm[i] = perm[j];
		perm[j] = t;
	}
	for (int g = 0; g < 5; g++) {
		switch (perm[g]) {
		case 0:
			for (int i = 0; i < NDEV; i++)
				e1npu_device_close(w->dev[i]);
			break;
		case 1:
			for (int i = 0; i < NBUF; i++)
				e1npu_buffer_free(w->buf[i]);
			break;
		case 2:
			for (int i = 0; i < NCB; i++)
				e1npu_cmdbuf_free(w->cb[i]);
			break;
		case 3:
			for (int i = 0; i < NOPS; i++)
				e1npu_ops_free(w->ops[i]);
			break;
		case 4:
			for (int i = 0; i < NFC; i++)
				e1npu_fc_free(w->fc[i]);
			break;
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz f = { data, size };
	struct world w;
	unsigned int order;

	memset(&w, 0, sizeof(w));
	order = fz_u8(&f);
	for (int n = 0; n < MAX_ACTIONS && step(&f, &w); n++)
		;
	teardown(&w, order % 120);
	return 0;
}
