// SPDX-License-Identifier: MIT
/*
 * Real TFLite 2.2 (libtensorflowlite_c.so from tools/devel/fetch-tflite.sh,
 * loaded with dlopen) as the reference:
 *   --delegate  TFLite alone vs TFLite + libe1npu_tflite_delegate.so
 *               (loaded with dlopen, as an application would): the
 *               delegate's summary line, byte-identical outputs, the
 *               same with nodes kept on TFLite (skip_ops: several
 *               partitions), and malformed options rejected;
 *   --interp    TFLite alone vs libe1npu's own interpreter
 *               (e1npu_tflite_*, device sim) on the same input tensor.
 * Inputs: each -i BMP image resized (nearest) to the model's input 0, and
 * -r N seeded random tensors (every input of the model is filled: random
 * bytes, or for float32 inputs random values in [-2, 2)). -p MODEL: a
 * model with an operator the delegate must leave to TFLite (delegate
 * checks only). Prints "  PASS  ..." / "  FAIL  ..." / "  XFAIL  ..." lines
 * and "N passed, N failed, N skipped[, N expected failures]".
 *
 * test-delegate --tflite LIB [--delegate SO] [--interp] [-d DEVICE] [-i BMP]...
 *               [-r N] [-p MODEL]... [--expect FILE] MODEL...
 * -d: the device of the delegate and of the interpreter (default sim; the
 * x86_64 guest passes its accel node, tests/delegate/t-delegate.sh).
 * --expect FILE (the model zoo, tests/zoo/zoo.mk): per model what is
 * expected instead of the built-in rules (delegate N > 0, interpreter
 * exact), one line "model | interpreter | N/M/K | delegate output":
 *   interpreter      "exact", or "refused: <substring of the load error>"
 *   N/M/K            the default run's "delegated N of M nodes in K partitions"
 *   delegate output  "exact", or "differs: <why>" (a known difference, an
 *                    XFAIL; the test fails once it is exact again)
 * A change either way fails with "update expect.txt"; every model gets a
 * "ZOO|..." line for tests/zoo/zoo_table.py. The second delegate run
 * skips DEPTHWISE_CONV_2D when the default run delegated one, else the
 * operator of the middle delegated node (fewer nodes must be delegated).
 * --no-skip-ops: no second delegate run with skip_ops=DEPTHWISE_CONV_2D
 * (models without that operator: tests/tflite/mkmodels.py's).
 * --skip OPS: the second run's skip_ops instead of DEPTHWISE_CONV_2D (a
 * hunt for the operator that differs).
 * --interp-ref: the interpreter's reference path (lib/ref's naive
 * kernels) against TFLite 2.2 too, beside its NPU path.
 * --ramp: one more input, "every value" (fill_ramp): exhaustive for the
 * 256-element 8-bit inputs of tests/tflite/mkmodels.py's unary models.
 * --hashes: a line "HASH|model|input|tflite or e1|FNV-1a 64 of the output"
 * for TFLite's own output and the delegate's (its first run) of every
 * input: the board compares its runs with the host's (tests/vm/debian/).
 * --cache: the delegate's option cache_dir on every model (check_cache():
 * first run compiles, second loads, a corrupted or stale file is
 * replaced, an unwritable directory is warned about; outputs identical).
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <e1npu/e1npu_tflite.h>

#include "image.h"

/* The TFLite C API functions used (c_api.h; handles are opaque). */
struct tfl_api {
	const char *(*Version)(void);
	void *(*ModelCreateFromFile)(const char *path);
	void (*ModelDelete)(void *model);
	void *(*OptionsCreate)(void);
	void (*OptionsDelete)(void *opt);
	void (*OptionsSetNumThreads)(void *opt, int32_t n);
	void (*OptionsAddDelegate)(void *opt, void *delegate);
	void (*OptionsSetErrorReporter)(void *opt,
					void (*rep)(void *user, const char *fmt, va_list ap),
					void *user);
	void *(*InterpreterCreate)(const void *model, const void *opt);
	void (*InterpreterDelete)(void *it);
	int32_t (*GetInputTensorCount)(const void *it);
	void *(*GetInputTensor)(const void *it, int32_t i);
	int (*AllocateTensors)(void *it);
	int (*Invoke)(void *it);
	int32_t (*GetOutputTensorCount)(const void *it);
	const void *(*GetOutputTensor)(const void *it, int32_t i);
	int (*TensorType)(const void *t);
	int32_t (*TensorNumDims)(const void *t);
	int32_t (*TensorDim)(const void *t, int32_t d);
	size_t (*TensorByteSize)(const void *t);
	int (*CopyFromBuffer)(void *t, const void *data, size_t size);
	int (*CopyToBuffer)(const void *t, void *data, size_t size);
};

#define MAX_IN 8	/* model inputs handled */

/* One model's input tensors: count, byte sizes, types (kTfLite*). */
struct in_layout {
	int n;
	size_t size[MAX_IN], total;
	int type[MAX_IN];
};

/* A model's line of --expect. */
struct expect {
	char model[128];
	char interp[512];	/* "exact" or "refused: ..." or "differs: ..." */
	int n, m, k;
	char deleg[512];	/* "exact" or "differs: ..." */
	bool seen;
};

typedef void *(*create_fn)(char **keys, char **values, size_t n,
			   void (*report)(const char *));
typedef void (*destroy_fn)(void *delegate);

static struct tfl_api api;
static create_fn dl_create;
static destroy_fn dl_destroy;
static const char *device = "sim";	/* -d: the delegate's and the interpreter's */
static bool interp_ref;			/* --interp-ref */
static bool ramp;			/* --ramp */
static bool print_hashes;		/* --hashes */
static int npass, nfail, nskip, nxfail;
static char last_report[512];

__attribute__((format(printf, 2, 3)))
static void result(bool ok, const char *fmt, ...)
{
	va_list ap;

	printf("  %s  ", ok ? "PASS" : "FAIL");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	if (ok)
		npass++;
	else
		nfail++;
}

__attribute__((format(printf, 1, 2)))
static void xfail(const char *fmt, ...)
{
	va_list ap;

	printf("  XFAIL  ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	nxfail++;
}

static void tfl_reporter(void *user, const char *fmt, va_list ap)
{
	(void)user;
	printf("    tflite: ");
	vprintf(fmt, ap);
	putchar('\n');
}

static void report_error(const char *msg)
{
	snprintf(last_report, sizeof(last_report), "%s", msg);
}

static int load_api(const char *lib)
{
	void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
	struct { const char *name; void **fn; } syms[] = {
#define S(f, n) { "TfLite" n, (void **)&api.f }
		S(Version, "Version"), S(ModelCreateFromFile, "ModelCreateFromFile"),
		S(ModelDelete, "ModelDelete"), S(OptionsCreate, "InterpreterOptionsCreate"),
		S(OptionsDelete, "InterpreterOptionsDelete"),
		S(OptionsSetNumThreads, "InterpreterOptionsSetNumThreads"),
		S(OptionsAddDelegate, "InterpreterOptionsAddDelegate"),
		S(OptionsSetErrorReporter, "InterpreterOptionsSetErrorReporter"),
		S(InterpreterCreate, "InterpreterCreate"), S(InterpreterDelete, "InterpreterDelete"),
		S(GetInputTensorCount, "InterpreterGetInputTensorCount"),
		S(GetInputTensor, "InterpreterGetInputTensor"),
		S(AllocateTensors, "InterpreterAllocateTensors"), S(Invoke, "InterpreterInvoke"),
		S(GetOutputTensorCount, "InterpreterGetOutputTensorCount"),
		S(GetOutputTensor, "InterpreterGetOutputTensor"), S(TensorType, "TensorType"),
		S(TensorNumDims, "TensorNumDims"), S(TensorDim, "TensorDim"),
		S(TensorByteSize, "TensorByteSize"), S(CopyFromBuffer, "TensorCopyFromBuffer"),
		S(CopyToBuffer, "TensorCopyToBuffer"),
#undef S
	};

	if (!h) {
		printf("test-delegate: dlopen %s: %s\n", lib, dlerror());
		return -1;
	}
	for (size_t i = 0; i < sizeof(syms) / sizeof(syms[0]); i++) {
		*syms[i].fn = dlsym(h, syms[i].name);
		if (!*syms[i].fn) {
			printf("test-delegate: %s: no symbol %s\n", lib, syms[i].name);
			return -1;
		}
	}
	return 0;
}

/* A TFLite interpreter on @model, with @delegate (or none), one thread. */
static void *tfl_new(void *model, void *delegate)
{
	void *opt = api.OptionsCreate();
	void *it;

	api.OptionsSetNumThreads(opt, 1);
	api.OptionsSetErrorReporter(opt, tfl_reporter, NULL);
	if (delegate)
		api.OptionsAddDelegate(opt, delegate);
	it = api.InterpreterCreate(model, opt);
	api.OptionsDelete(opt);
	if (it && api.AllocateTensors(it)) {
		api.InterpreterDelete(it);
		it = NULL;
	}
	return it;
}

/*
 * Run @it on @in (every input's bytes, concatenated as @lay says); all
 * outputs, concatenated, into @out (of @outlen bytes).
 */
static int tfl_run(void *it, const uint8_t *in, const struct in_layout *lay, uint8_t *out,
		   size_t outlen)
{
	size_t off = 0;

	if (api.GetInputTensorCount(it) != lay->n)
		return -1;
	for (int i = 0; i < lay->n; i++) {
		if (api.CopyFromBuffer(api.GetInputTensor(it, i), in + off, lay->size[i]))
			return -1;
		off += lay->size[i];
	}
	off = 0;
	if (api.Invoke(it))
		return -1;
	for (int32_t i = 0; i < api.GetOutputTensorCount(it); i++) {
		const void *t = api.GetOutputTensor(it, i);
		size_t n = api.TensorByteSize(t);

		if (off + n > outlen || api.CopyToBuffer(t, out + off, n))
			return -1;
		off += n;
	}
	return off == outlen ? 0 : -1;
}

static size_t tfl_out_bytes(void *it)
{
	size_t n = 0;

	for (int32_t i = 0; i < api.GetOutputTensorCount(it); i++)
		n += api.TensorByteSize(api.GetOutputTensor(it, i));
	return n;
}

struct input {
	char name[96];
	uint8_t *data;
};

/* xorshift64*: reproducible random tensors. */
static uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dull;
}

/*
 * The inputs for a model whose input 0 is @t: images resized (nearest
 * source pixel centre) to [1,H,W,3], int8 inputs shifted by -128 as
 * e1npu-classify does, then @nrand random tensors (seeds 1..@nrand).
 */
/* A BMP test image (bmp.c of e1npu-classify, without its other formats). */
static int read_bmp(const char *path, struct image *img, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	uint8_t *data = NULL;
	long size;
	int ret = -EIO;

	if (!f) {
		snprintf(err, errlen, "cannot open: %s", strerror(errno));
		return -errno;
	}
	if (!fseek(f, 0, SEEK_END) && (size = ftell(f)) > 0 && !fseek(f, 0, SEEK_SET) &&
	    (data = malloc((size_t)size)) && fread(data, 1, (size_t)size, f) == (size_t)size)
		ret = bmp_decode(data, (size_t)size, img, err, errlen);
	else
		snprintf(err, errlen, "cannot read");
	free(data);
	fclose(f);
	return ret;
}

/* Fill @n bytes at @p for a tensor of TFLite type @type from the seed @s. */
static void fill_random(uint8_t *p, size_t n, int type, uint64_t s)
{
	if (type == 1) {	/* kTfLiteFloat32: values in [-2, 2) */
		for (size_t i = 0; i + 4 <= n; i += 4) {
			float f = (float)((double)(rnd(&s) >> 40) / (double)(1ull << 24) * 4.0 - 2.0);

			memcpy(p + i, &f, 4);
		}
		return;
	}
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(rnd(&s) >> 56);
}

/*
 * --ramp: every byte value in turn (a 256-element 8-bit input sees each
 * once), float32 inputs (k mod 512 - 256) / 32: [-8, 8) in steps that
 * make quotient ties for power-of-two scales.
 */
static void fill_ramp(uint8_t *p, size_t n, int type)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)i;
	if (type != 1)	/* kTfLiteFloat32 */
		return;
	for (size_t i = 0; i + 4 <= n; i += 4) {
		float f = (float)((int)(i / 4 % 512) - 256) / 32.0f;

		memcpy(p + i, &f, 4);
	}
}

/* The layout of @it's inputs; -1 if there are more than MAX_IN. */
static int get_layout(void *it, struct in_layout *lay)
{
	lay->n = api.GetInputTensorCount(it);
	lay->total = 0;
	if (lay->n < 1 || lay->n > MAX_IN)
		return -1;
	for (int i = 0; i < lay->n; i++) {
		lay->size[i] = api.TensorByteSize(api.GetInputTensor(it, i));
		lay->type[i] = api.TensorType(api.GetInputTensor(it, i));
		lay->total += lay->size[i];
	}
	return 0;
}

static int make_inputs(const void *t, const struct in_layout *lay, char **images, int nimg,
		       int nrand, struct input *in, int max)
{
	size_t bytes = lay->size[0];
	int type = api.TensorType(t);
	bool int8 = type == 9;	/* kTfLiteInt8 */
	int n = 0;

	for (int i = 0; i < nimg && n < max; i++) {
		struct image img;
		char err[200];
		uint32_t h, w;

		if (api.TensorNumDims(t) != 4 || api.TensorDim(t, 3) != 3 || (type != 3 && !int8))
			break;
		h = (uint32_t)api.TensorDim(t, 1);
		w = (uint32_t)api.TensorDim(t, 2);
		if (read_bmp(images[i], &img, err, sizeof(err))) {
			printf("test-delegate: %s: %s\n", images[i], err);
			return -1;
		}
		in[n].data = malloc(lay->total);
		if (!in[n].data || bytes != (size_t)h * w * 3)
			return -1;
		/* Inputs after the image: as random seed 1's. */
		for (int k = 1, off = 0; k < lay->n; k++) {
			off += (int)lay->size[k - 1];
			fill_random(in[n].data + off, lay->size[k], lay->type[k],
				    0x9e3779b97f4a7c15ull ^ (0xd1b54a32d192ed03ull * (uint64_t)k));
		}
		for (uint32_t y = 0; y < h; y++)
			for (uint32_t x = 0; x < w; x++)
				for (uint32_t c = 0; c < 3; c++) {
					uint32_t sy = (uint32_t)(((uint64_t)y * 2 + 1) * img.h / (2 * h));
					uint32_t sx = (uint32_t)(((uint64_t)x * 2 + 1) * img.w / (2 * w));
					uint8_t v = img.rgb[((size_t)sy * img.w + sx) * 3 + c];

					in[n].data[((size_t)y * w + x) * 3 + c] = int8 ? (uint8_t)(v - 128) : v;
				}
		snprintf(in[n].name, sizeof(in[n].name), "%s", strrchr(images[i], '/') ?
			 strrchr(images[i], '/') + 1 : images[i]);
		free(img.rgb);
		n++;
	}
	for (int r = 1; r <= nrand && n < max; r++, n++) {
		uint64_t s = 0x9e3779b97f4a7c15ull * (uint64_t)r;
		size_t off = 0;

		in[n].data = malloc(lay->total);
		if (!in[n].data)
			return -1;
		/* Input 0 from the seed itself (as before inputs > 0 existed). */
		for (int k = 0; k < lay->n; off += lay->size[k], k++)
			fill_random(in[n].data + off, lay->size[k], lay->type[k],
				    k ? s ^ (0xd1b54a32d192ed03ull * (uint64_t)k) : s);
		snprintf(in[n].name, sizeof(in[n].name), "random seed %d", r);
	}
	if (ramp && n < max) {
		size_t off = 0;

		in[n].data = malloc(lay->total);
		if (!in[n].data)
			return -1;
		for (int k = 0; k < lay->n; off += lay->size[k], k++)
			fill_ramp(in[n].data + off, lay->size[k], lay->type[k]);
		snprintf(in[n].name, sizeof(in[n].name), "every value");
		n++;
	}
	return n;
}

static int last_maxabs;	/* of the last ndiff(): largest byte difference */

static size_t ndiff(const uint8_t *a, const uint8_t *b, size_t n)
{
	size_t d = 0;

	last_maxabs = 0;
	for (size_t i = 0; i < n; i++) {
		/* 8-bit outputs: the distance modulo 256 (int8 and uint8 alike) */
		int x = a[i] > b[i] ? a[i] - b[i] : b[i] - a[i];

		x = x > 128 ? 256 - x : x;
		last_maxabs = x > last_maxabs ? x : last_maxabs;
		d += a[i] != b[i];
	}
	return d;
}

/* The delegate's stderr (its debug output) during @it's creation, in @log. */
/* --hashes: FNV-1a 64 of an output (equality across machines, no more) */
static void print_hash(const char *mname, const char *iname, const char *who,
		       const uint8_t *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;

	if (!print_hashes)
		return;
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	printf("HASH|%s|%s|%s|%016llx\n", mname, iname, who, (unsigned long long)h);
}

static void *tfl_new_captured(void *model, void *delegate, char *log, size_t loglen)
{
	FILE *f = tmpfile();
	int saved;
	void *it;
	size_t n;

	log[0] = 0;
	if (!f)
		return NULL;
	fflush(stderr);
	saved = dup(2);
	dup2(fileno(f), 2);
	it = tfl_new(model, delegate);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(f);
	n = fread(log, 1, loglen - 1, f);
	log[n] = 0;
	fclose(f);
	return it;
}

/* "delegated N of M nodes in K partitions" from the debug output. */
static bool parse_summary(const char *log, int *n, int *m, int *k, char *line, size_t linelen)
{
	const char *p = strstr(log, "delegated ");
	size_t len;

	if (!p || sscanf(p, "delegated %d of %d nodes in %d partitions", n, m, k) != 3)
		return false;
	len = strcspn(p, "\n");
	snprintf(line, linelen, "%.*s", (int)len, p);
	return true;
}

static char log_buf[1 << 16];

/* What one delegate run found: its summary and its outputs. */
struct drun {
	bool built;		/* TFLite with the delegate built, summary parsed */
	int n, m, k;
	int ndiff, nsame;	/* inputs whose outputs differ / are identical */
	char skip_next[64];	/* the operator the second run should skip */
};

/*
 * The operator for the second run: DEPTHWISE_CONV_2D when a node of it
 * went to e1, else the operator of the middle node that went to e1
 * (from "node N OP -> e1" lines). Empty when nothing was delegated.
 */
static void pick_skip(const char *log, char *op, size_t oplen)
{
	const char *p = log;
	int count = 0, want, i = 0;

	op[0] = 0;
	if (strstr(log, " DEPTHWISE_CONV_2D -> e1\n")) {
		snprintf(op, oplen, "DEPTHWISE_CONV_2D");
		return;
	}
	while ((p = strstr(p, " -> e1\n"))) {
		count++;
		p++;
	}
	want = count / 2;
	for (p = log; count && (p = strstr(p, "e1npu-delegate: node ")); p++) {
		const char *eol = strchr(p, '\n');
		char name[64];

		if (!eol)
			break;
		if (eol - p > 7 && !strncmp(eol - 6, " -> e1", 6)) {
			if (i++ == want && sscanf(p, "e1npu-delegate: node %*d %63s", name) == 1) {
				snprintf(op, oplen, "%s", name);
				return;
			}
		}
	}
}

/*
 * TFLite + delegate (options @keys/@vals) vs TFLite alone (@ref outputs
 * per input). @more_parts: the run keeps nodes on TFLite: with
 * DEPTHWISE_CONV_2D skipped expect K > 1 and N < M, with another operator
 * N < @first->n. @exp: the model's --expect line (the default run's
 * summary and the outputs' expected state), or NULL.
 */
static void check_delegate(const char *mname, void *model, char **keys, char **vals,
			   size_t nopt, bool more_parts, bool partial, struct input *in, int nin,
			   const struct in_layout *lay, uint8_t **ref, size_t outlen, bool verbose,
			   const struct expect *exp, const struct drun *first, struct drun *res)
{
	char line[160], what[160];
	void *d = dl_create(keys, vals, nopt, report_error);
	void *it;
	uint8_t *out = malloc(outlen);
	bool xf = exp && strncmp(exp->deleg, "exact", 6);
	int n = 0, m = 0, k = 0;

	memset(res, 0, sizeof(*res));
	snprintf(what, sizeof(what), "%s [%s%s%s]", mname, nopt ? keys[nopt - 1] : "defaults",
		 nopt ? "=" : "", nopt ? vals[nopt - 1] : "");
	if (!d || !out) {
		result(false, "%s: create_delegate failed: %s", what, last_report);
		free(out);
		return;
	}
	it = tfl_new_captured(model, d, log_buf, sizeof(log_buf));
	if (verbose)
		fputs(log_buf, stdout);
	if (!it) {
		result(false, "%s: TFLite with the delegate did not build", what);
	} else if (!parse_summary(log_buf, &n, &m, &k, line, sizeof(line))) {
		result(false, "%s: no summary line in the debug output", what);
	} else {
		bool dw = more_parts && !strcmp(vals[nopt - 1], "DEPTHWISE_CONV_2D");
		bool ok = n > 0 && k > 0 && n <= m && (dw ? k > 1 && n < m : true);

		if (exp && !more_parts)
			ok = n == exp->n && m == exp->m && k == exp->k;
		else if (more_parts && !dw)
			ok = n < first->n && n <= m;
		/* A model with an operator e1 does not run: it stays on TFLite, said why. */
		/* tests/tflite/mkmodels.py's dynamic-*: their dynamic nodes too. */
		if (!strncmp(mname, "dynamic-", 8))
			ok = ok && n < m && strstr(log_buf, "may change shape at run time");
		if (partial)
			ok = ok && n < m && strstr(log_buf, "-> tflite: operator ") &&
			     strstr(log_buf, "not supported");
		res->built = true;
		res->n = n;
		res->m = m;
		res->k = k;
		pick_skip(log_buf, res->skip_next, sizeof(res->skip_next));
		if (exp && !more_parts && !ok)
			result(false, "%s: %s, expect.txt says %d/%d/%d: update expect.txt", what,
			       line, exp->n, exp->m, exp->k);
		else
			result(ok, "%s: %s%s", what, line,
			       partial ? " (one operator not supported)" : "");
	}
	for (int i = 0; it && i < nin; i++) {
		size_t dif;

		if (tfl_run(it, in[i].data, lay, out, outlen)) {
			result(false, "%s, %s: invoke with the delegate failed", what, in[i].name);
			continue;
		}
		if (!more_parts)
			print_hash(mname, in[i].name, "e1", out, outlen);
		dif = ndiff(out, ref[i], outlen);
		if (dif)
			res->ndiff++;
		else
			res->nsame++;
		if (dif && xf)
			xfail("%s, %s: TFLite+e1 delegate != TFLite 2.2 (%zu of %zu bytes differ): "
			      "known: %s", what, in[i].name, dif, outlen, exp->deleg);
		else
			result(!dif, "%s, %s: TFLite+e1 delegate %s TFLite 2.2 (%zu bytes%s)", what,
			       in[i].name, dif ? "!=" : "==", outlen,
			       dif ? ", differences below" : "");
		if (dif && !xf)
			printf("    %zu of %zu bytes differ (max abs %d)\n", dif, outlen, last_maxabs);
	}
	/* Expected to differ, and identical on every input: say so. */
	if (exp && xf && !more_parts && it && nin && !res->ndiff)
		result(false, "%s: now exact on all %d inputs: update expect.txt (was '%s')",
		       what, nin, exp->deleg);
	if (it)
		api.InterpreterDelete(it);
	dl_destroy(d);
	free(out);
}

/*
 * libe1npu's own interpreter on the in-process device vs TFLite 2.2.
 * Without @exp it must load and be exact; with it, as the line says.
 * @state: "exact", "refused: <error>", "differs" or "failed" for the table.
 */
static void check_interp(const char *path, const char *mname, struct input *in, int nin,
			 const struct in_layout *lay, uint8_t **ref, size_t outlen,
			 const struct expect *exp, char *state, size_t statelen, bool refpath)
{
	struct e1npu_device *dev = NULL;
	struct e1npu_tflite *t = NULL;
	struct e1npu_tflite_options opt = { .path = E1NPU_TFLITE_PATH_REFERENCE };
	const char *who = refpath ? "libe1npu interpreter (reference path)" :
			  "libe1npu interpreter";
	uint32_t nout = 0, ninp = 0;
	char err[256] = "";
	uint8_t *out = malloc(outlen);
	bool want_refused = exp && !strncmp(exp->interp, "refused: ", 9);
	bool want_differs = exp && !strncmp(exp->interp, "differs: ", 9);
	int ret = e1npu_device_open(device, &dev);
	int ndif = 0, nfailed = 0;

	if (!ret)
		ret = e1npu_tflite_load_file(dev, path, refpath ? &opt : NULL, &t, err,
					     sizeof(err));
	e1npu_device_close(dev);
	if (ret || !out) {
		snprintf(state, statelen, "refused: %s", err);
		if (!exp)
			result(false, "%s: e1npu_tflite_load_file: %s", mname, err);
		else if (want_refused && strstr(err, exp->interp + 9))
			result(true, "%s: libe1npu interpreter refuses it, as expected: %s", mname, err);
		else
			result(false, "%s: libe1npu interpreter refuses it: %s (expect.txt says '%s'%s)",
			       mname, err, exp->interp, want_refused ? ": update expect.txt" : "");
		free(out);
		return;
	}
	if (want_refused)
		result(false, "%s: libe1npu interpreter now loads it (expect.txt says '%s'): "
		       "update expect.txt after the results below", mname, exp->interp);
	e1npu_tflite_get_counts(t, &ninp, &nout, NULL);
	if ((int)ninp != lay->n) {
		result(false, "%s: libe1npu interpreter sees %u inputs, TFLite %d", mname, ninp, lay->n);
		nin = 0;
		nfailed = 1;
	}
	for (int i = 0; i < nin; i++) {
		size_t off = 0, dif;

		ret = 0;
		for (int j = 0; !ret && j < lay->n; off += lay->size[j], j++)
			ret = e1npu_tflite_set_input(t, (uint32_t)j, in[i].data + off, lay->size[j]);
		off = 0;
		if (!ret)
			ret = e1npu_tflite_invoke(t);
		for (uint32_t o = 0; !ret && o < nout; o++) {
			struct e1npu_tflite_tensor_info oi;

			ret = e1npu_tflite_output_info(t, o, &oi);
			if (!ret && off + oi.bytes > outlen)
				ret = -EINVAL;
			if (!ret)
				ret = e1npu_tflite_get_output(t, o, out + off, oi.bytes);
			off += oi.bytes;
		}
		if (ret || off != outlen) {
			result(false, "%s, %s: %s failed: %s", mname, in[i].name, who,
			       e1npu_tflite_last_error(t));
			nfailed++;
			continue;
		}
		dif = ndiff(out, ref[i], outlen);
		ndif += dif != 0;
		if (dif && want_differs)
			xfail("%s, %s: %s != TFLite 2.2 (%zu of %zu bytes differ): "
			      "known: %s", mname, in[i].name, who, dif, outlen, exp->interp);
		else
			result(!dif, "%s, %s: %s %s TFLite 2.2 (%zu bytes)", mname,
			       in[i].name, who, dif ? "!=" : "==", outlen);
		if (dif && !want_differs)
			printf("    %zu of %zu bytes differ (max abs %d)\n", dif, outlen, last_maxabs);
	}
	snprintf(state, statelen, "%s", nfailed ? "failed" : ndif ? "differs" : "exact");
	if (want_differs && nin && !ndif && !nfailed)
		result(false, "%s: libe1npu interpreter now exact on all %d inputs: update "
		       "expect.txt (was '%s')", mname, nin, exp->interp);
	e1npu_tflite_free(t);
	free(out);
}

/* --expect FILE: "model | interpreter | N/M/K | delegate output" lines. */
static int read_expect(const char *path, struct expect *e, int max)
{
	FILE *f = fopen(path, "r");
	char line[2048];
	int n = 0, ln = 0;

	if (!f) {
		printf("test-delegate: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char *fld[4], *p = line, *q;
		int nf = 0;

		ln++;
		if (!strchr(line, '\n') && !feof(f)) {
			printf("test-delegate: %s:%d: line longer than %zu bytes\n", path, ln,
			       sizeof(line) - 2);
			fclose(f);
			return -1;
		}
		line[strcspn(line, "\n")] = 0;
		if (!line[strspn(line, " \t")] || line[strspn(line, " \t")] == '#')
			continue;
		while (nf < 4 && p) {
			q = strchr(p, '|');
			if (q)
				*q = 0;
			while (*p == ' ' || *p == '\t')
				p++;
			for (char *z = p + strlen(p); z > p && (z[-1] == ' ' || z[-1] == '\t'); )
				*--z = 0;
			fld[nf++] = p;
			p = q ? q + 1 : NULL;
		}
		if (nf != 4 || p || n >= max || strlen(fld[0]) >= sizeof(e[n].model) ||
		    strlen(fld[1]) >= sizeof(e[n].interp) || strlen(fld[3]) >= sizeof(e[n].deleg) ||
		    sscanf(fld[2], "%d/%d/%d", &e[n].n, &e[n].m, &e[n].k) != 3 ||
		    (strcmp(fld[1], "exact") && strncmp(fld[1], "refused: ", 9) &&
		     strncmp(fld[1], "differs: ", 9)) ||
		    (strcmp(fld[3], "exact") && strncmp(fld[3], "differs: ", 9))) {
			printf("test-delegate: %s:%d: not 'model | exact|refused: ...|differs: ... | "
			       "N/M/K | exact|differs: ...'%s\n", path, ln, n >= max ? " (too many lines)" : "");
			fclose(f);
			return -1;
		}
		snprintf(e[n].model, sizeof(e[n].model), "%s", fld[0]);
		snprintf(e[n].interp, sizeof(e[n].interp), "%s", fld[1]);
		snprintf(e[n].deleg, sizeof(e[n].deleg), "%s", fld[3]);
		e[n].seen = false;
		n++;
	}
	fclose(f);
	return n;
}

/* Malformed options: create returns NULL and report_error names the culprit. */
static void check_options(void)
{
	static const struct { const char *key, *val, *expect; } bad[] = {
		{ "device", "bogus", "'bogus'" },
		{ "device", "", "device ''" },
		{ "device", "/nonexistent/accel9", "/nonexistent/accel9" },
		{ "log_level", "3", "log_level '3'" },
		{ "log_level", "x", "log_level 'x'" },
		{ "log_level", "1 ", "log_level '1 '" },
		{ "skip_ops", "CONV_2D,NOPE", "'NOPE'" },
		{ "skip_ops", "999", "'999'" },
		{ "colour", "blue", "'colour'" },
		{ "cache_dir", "/nonexistent/e1", "cache_dir '/nonexistent/e1': No such file" },
		{ "cache_dir", "/dev/null", "cache_dir '/dev/null': not a directory" },
		{ "cache_dir", "", "cache_dir '': empty" },
	};
	char *k[1], *v[1];
	void *d;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		k[0] = (char *)bad[i].key;
		v[0] = (char *)bad[i].val;
		last_report[0] = 0;
		d = dl_create(k, v, 1, report_error);
		result(!d && strstr(last_report, bad[i].expect),
		       "option %s='%s' rejected: %s", bad[i].key, bad[i].val, last_report);
		if (d)
			dl_destroy(d);
	}
	/* Environment variables: named with their accepted values. */
	{
		static const struct { const char *var, *val, *expect; } env[] = {
			{ "E1NPU_TFLITE_DEBUG", "junk", "E1NPU_TFLITE_DEBUG='junk': expected 0 or 1" },
			{ "E1NPU_SIM_ARENA_MB", "abc",
			  "E1NPU_SIM_ARENA_MB='abc': expected a whole number of MiB" },
			{ "E1NPU_OPS_LOWERING", "fast", "E1NPU_OPS_LOWERING='fast': expected" },
		};

		k[0] = (char *)"device";
		v[0] = (char *)"sim";
		for (size_t i = 0; i < sizeof(env) / sizeof(env[0]); i++) {
			setenv(env[i].var, env[i].val, 1);
			last_report[0] = 0;
			d = dl_create(k, v, 1, report_error);
			result(!d && strstr(last_report, env[i].expect), "%s='%s' rejected: %s",
			       env[i].var, env[i].val, last_report);
			if (d)
				dl_destroy(d);
			unsetenv(env[i].var);
		}
	}
	last_report[0] = 0;
	k[0] = NULL;
	v[0] = (char *)"sim";
	d = dl_create(k, v, 1, report_error);
	result(!d && strstr(last_report, "NULL key"), "NULL option key rejected: %s", last_report);
	if (d)
		dl_destroy(d);
	/* And good ones are accepted (no message). */
	{
		char *gk[] = { (char *)"device", (char *)"log_level", (char *)"skip_ops" };
		char *gv[] = { (char *)"sim", (char *)"0", (char *)"ADD,3" };

		last_report[0] = 0;
		d = dl_create(gk, gv, 3, report_error);
		result(d && !last_report[0], "options device=sim log_level=0 skip_ops=ADD,3 accepted%s%s",
		       last_report[0] ? ": " : "", last_report);
		if (d)
			dl_destroy(d);
	}
}

/* Lines of @log containing @what. */
static int count_lines(const char *log, const char *what)
{
	int n = 0;

	for (const char *p = log; (p = strstr(p, what)); p++)
		n++;
	return n;
}

/* Milliseconds the last cache_run() took to build its interpreter (numbers, not checked). */
static double cache_build_ms;

/*
 * TFLite + the delegate with options @keys/@vals on every input: the
 * outputs into @out[i] (outlen bytes each), the delegate's log into
 * log_buf. Return the partitions of its summary line, or -1.
 */
static int cache_run(void *model, char **keys, char **vals, size_t nopt, struct input *in,
		     int nin, const struct in_layout *lay, uint8_t **out, size_t outlen)
{
	void *d = dl_create(keys, vals, nopt, report_error);
	struct timespec t0, t1;
	void *it;
	int n, m, k = -1;
	char line[160];

	if (!d)
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	it = tfl_new_captured(model, d, log_buf, sizeof(log_buf));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	cache_build_ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
	if (it && !parse_summary(log_buf, &n, &m, &k, line, sizeof(line)))
		k = -1;
	for (int i = 0; it && k >= 0 && i < nin; i++)
		if (tfl_run(it, in[i].data, lay, out[i], outlen))
			k = -1;
	if (it)
		api.InterpreterDelete(it);
	dl_destroy(d);
	return it ? k : -1;
}

static bool same_outputs(uint8_t **a, uint8_t **b, int nin, size_t outlen)
{
	for (int i = 0; i < nin; i++)
		if (ndiff(a[i], b[i], outlen))
			return false;
	return true;
}

/* The cache's files (*.e1npu) in @dir: their count, the first's path. */
static int cache_files(const char *dir, char *first, size_t len, int *temps)
{
	DIR *dp = opendir(dir);
	struct dirent *e;
	int n = 0;

	*temps = 0;
	first[0] = 0;
	while (dp && (e = readdir(dp))) {
		size_t l = strlen(e->d_name);

		if (strstr(e->d_name, ".tmp."))
			(*temps)++;
		if (l > 6 && !strcmp(e->d_name + l - 6, ".e1npu")) {
			/* the smallest name: the same file on every call */
			char p[600];

			snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
			if (!first[0] || strcmp(p, first) < 0)
				snprintf(first, len, "%s", p);
			n++;
		}
	}
	if (dp)
		closedir(dp);
	return n;
}

static bool rewrite(const char *path, const void *buf, size_t n)
{
	FILE *f = fopen(path, "wb");
	bool ok = f && fwrite(buf, 1, n, f) == n;

	return f && !fclose(f) && ok;
}

/*
 * Option cache_dir on @mname (with DEPTHWISE_CONV_2D kept on TFLite, so a
 * MobileNet has many partitions): a run without it, then one that compiles
 * every partition into the cache (one file each, no temporary left),
 * one that loads every partition from it (files untouched), one after a
 * file was corrupted and one after it was marked by another library
 * version (each: that partition compiled again, the reason logged, the
 * file replaced by the same bytes), and a run on a directory it cannot
 * write (warned, still runs). Outputs byte-identical to the uncached run
 * every time.
 */
static void check_cache(const char *mname, void *model, struct input *in, int nin,
			const struct in_layout *lay, size_t outlen)
{
	static bool unwritable_done;
	char dir[] = "/tmp/e1npu-cache-test.XXXXXX", first[600], *orig = NULL;
	/* DEPTHWISE_CONV_2D kept on TFLite: a MobileNet in many partitions */
	char *k[] = { (char *)"device", (char *)"skip_ops", (char *)"cache_dir" };
	char *v[] = { (char *)device, (char *)"DEPTHWISE_CONV_2D", dir };
	uint8_t *base[16], *got[16];
	struct stat st0, st1;
	int parts, files, temps, r;
	size_t flen = 0;
	double build0;
	FILE *f;

	if (nin <= 0 || !mkdtemp(dir)) {
		result(false, "%s [cache_dir]: no inputs or no temporary directory", mname);
		return;
	}
	for (int i = 0; i < nin; i++) {
		base[i] = malloc(outlen);
		got[i] = malloc(outlen);
	}
	parts = cache_run(model, k, v, 2, in, nin, lay, base, outlen);
	if (parts <= 0) {
		result(parts == 0, "%s [cache_dir]: nothing delegated, nothing cached", mname);
		goto out;
	}
	build0 = cache_build_ms;
	r = cache_run(model, k, v, 3, in, nin, lay, got, outlen);
	files = cache_files(dir, first, sizeof(first), &temps);
	result(r == parts && files == parts && !temps &&
	       count_lines(log_buf, "compiled into cache") == parts &&
	       !count_lines(log_buf, "loaded from cache") && same_outputs(base, got, nin, outlen),
	       "%s [cache_dir, skip_ops=DEPTHWISE_CONV_2D]: first run compiled %d partitions into %d files, outputs %s (interpreter built in %.1f ms, %.1f without a cache)",
	       mname, parts, files, same_outputs(base, got, nin, outlen) ? "identical" : "DIFFER",
	       cache_build_ms, build0);
	if (stat(first, &st0) || !(f = fopen(first, "rb")))
		goto out;
	orig = malloc((size_t)st0.st_size + 1);
	flen = orig ? fread(orig, 1, (size_t)st0.st_size, f) : 0;
	fclose(f);
	r = cache_run(model, k, v, 3, in, nin, lay, got, outlen);
	result(r == parts && count_lines(log_buf, "loaded from cache") == parts &&
	       !count_lines(log_buf, "compiled into cache") && !stat(first, &st1) &&
	       st1.st_ino == st0.st_ino && st1.st_mtime == st0.st_mtime &&
	       same_outputs(base, got, nin, outlen),
	       "%s [cache_dir]: second run loaded %d of %d partitions from the cache, outputs %s (interpreter built in %.1f ms)",
	       mname, count_lines(log_buf, "loaded from cache"), parts,
	       same_outputs(base, got, nin, outlen) ? "identical" : "DIFFER", cache_build_ms);
	for (int damage = 0; orig && flen == (size_t)st0.st_size && damage < 2; damage++) {
		char *bad = malloc(flen + 1), *now;
		const char *why = damage ? "compiled by libe1npu 9.9.9" : "checksum differs";
		size_t nlen = 0;

		memcpy(bad, orig, flen);
		if (damage)
			memcpy(bad + 16, "9.9.9\0", 6);
		else
			bad[flen - 1] ^= 0x5a;
		rewrite(first, bad, flen);
		r = cache_run(model, k, v, 3, in, nin, lay, got, outlen);
		now = malloc(flen + 1);
		if ((f = fopen(first, "rb"))) {
			nlen = fread(now, 1, flen + 1, f);
			fclose(f);
		}
		result(r == parts && count_lines(log_buf, why) == 1 &&
		       count_lines(log_buf, "compiled into cache") == 1 &&
		       count_lines(log_buf, "loaded from cache") == parts - 1 &&
		       nlen == flen && !memcmp(now, orig, flen) && same_outputs(base, got, nin, outlen),
		       "%s [cache_dir]: a file %s: recompiled, replaced by the same %zu bytes, outputs %s",
		       mname, damage ? "of another library version" : "corrupted", flen,
		       same_outputs(base, got, nin, outlen) ? "identical" : "DIFFER");
		free(bad);
		free(now);
	}
	if (!unwritable_done) {
		unwritable_done = true;
		v[2] = (char *)"/proc";	/* a directory no one can create files in */
		r = cache_run(model, k, v, 3, in, nin, lay, got, outlen);
		result(r == parts && count_lines(log_buf, "not written") == parts &&
		       same_outputs(base, got, nin, outlen),
		       "%s [cache_dir=/proc]: not writable: %d warnings, still runs, outputs %s",
		       mname, count_lines(log_buf, "not written"),
		       same_outputs(base, got, nin, outlen) ? "identical" : "DIFFER");
		v[2] = dir;
	}
out:
	free(orig);
	{
		DIR *dp = opendir(dir);
		struct dirent *e;
		char p[600];

		while (dp && (e = readdir(dp)))
			if (e->d_name[0] != '.') {
				snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
				unlink(p);
			}
		if (dp)
			closedir(dp);
		rmdir(dir);
	}
	for (int i = 0; i < nin; i++) {
		free(base[i]);
		free(got[i]);
	}
}

/* "exact", "differs on N of M inputs" or "not run". */
static void drun_state(const struct drun *d, char *buf, size_t len)
{
	if (!d->built)
		snprintf(buf, len, "not run");
	else if (d->ndiff)
		snprintf(buf, len, "differs on %d of %d inputs", d->ndiff, d->ndiff + d->nsame);
	else
		snprintf(buf, len, "exact");
}

/* The --expect line of @mname, or NULL (a FAIL: every zoo model needs one). */
static struct expect *find_expect(struct expect *e, int ne, const char *mname)
{
	for (int i = 0; i < ne; i++)
		if (!strcmp(e[i].model, mname)) {
			e[i].seen = true;
			return &e[i];
		}
	result(false, "%s: no line in the expectations file: add one", mname);
	return NULL;
}

int main(int argc, char **argv)
{
	const char *lib = NULL, *dso = NULL, *expect_path = NULL;
	char *images[8], *partial[8];
	static struct expect expects[256];
	int nimg = 0, nrand = 0, npartial = 0, nexp = 0;
	bool interp = false, verbose = false, skip_run = true, cache = false;
	const char *skip_ops = "DEPTHWISE_CONV_2D";	/* --skip: the second run's */
	int a;

	for (a = 1; a < argc && argv[a][0] == '-'; a++) {
		if (!strcmp(argv[a], "--tflite") && a + 1 < argc)
			lib = argv[++a];
		else if (!strcmp(argv[a], "--delegate") && a + 1 < argc)
			dso = argv[++a];
		else if (!strcmp(argv[a], "--interp"))
			interp = true;
		else if (!strcmp(argv[a], "--expect") && a + 1 < argc)
			expect_path = argv[++a];
		else if (!strcmp(argv[a], "--cache"))
			cache = true;
		else if (!strcmp(argv[a], "--no-skip-ops"))
			skip_run = false;
		else if (!strcmp(argv[a], "--skip") && a + 1 < argc)
			skip_ops = argv[++a];
		else if (!strcmp(argv[a], "--ramp"))
			ramp = true;
		else if (!strcmp(argv[a], "--hashes"))
			print_hashes = true;
		else if (!strcmp(argv[a], "--interp-ref"))
			interp_ref = interp = true;
		else if (!strcmp(argv[a], "-v"))
			verbose = true;
		else if (!strcmp(argv[a], "-i") && a + 1 < argc && nimg < 8)
			images[nimg++] = argv[++a];
		else if (!strcmp(argv[a], "-d") && a + 1 < argc)
			device = argv[++a];
		else if (!strcmp(argv[a], "-p") && a + 1 < argc && npartial < 8)
			partial[npartial++] = argv[++a];
		else if (!strcmp(argv[a], "-r") && a + 1 < argc)
			nrand = atoi(argv[++a]);
		else {
			fprintf(stderr, "usage: %s --tflite LIB [--delegate SO] [--interp] [--interp-ref] [--no-skip-ops] [--ramp] [--cache] [--hashes] [-v] [-d DEVICE] [-i BMP]... [-r N] [-p MODEL]... [--expect FILE] MODEL...\n",
				argv[0]);
			return 2;
		}
	}
	if (expect_path && (nexp = read_expect(expect_path, expects, (int)(sizeof(expects) / sizeof(expects[0])))) < 0)
		return 1;
	if (!lib || load_api(lib))
		return 1;
	printf("test-delegate: reference %s, TFLite %s\n", lib, api.Version());
	if (dso) {
		void *h = dlopen(dso, RTLD_NOW | RTLD_LOCAL);

		dl_create = h ? (create_fn)dlsym(h, "tflite_plugin_create_delegate") : NULL;
		dl_destroy = h ? (destroy_fn)dlsym(h, "tflite_plugin_destroy_delegate") : NULL;
		if (!dl_create || !dl_destroy) {
			printf("test-delegate: %s: %s\n", dso, h ? "missing tflite_plugin_* symbols" : dlerror());
			return 1;
		}
		check_options();
		/* Per-node decisions and the summary line, parsed below. */
		setenv("E1NPU_TFLITE_DEBUG", "1", 1);
	}
	for (int pm = dso ? 0 : npartial; pm < npartial || a < argc; pm < npartial ? pm++ : a++) {
		bool part = pm < npartial;
		const char *path = part ? partial[pm] : argv[a];
		const char *mname = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
		struct expect *exp = expect_path && !part ? find_expect(expects, nexp, mname) : NULL;
		void *model = api.ModelCreateFromFile(path);
		void *ref = model ? tfl_new(model, NULL) : NULL;
		struct input in[16];
		uint8_t *refout[16];
		struct in_layout lay;
		struct drun d1 = { 0 }, d2 = { 0 };
		char istate[300] = "not run";
		size_t outlen;
		int nin, nmade;

		struct expect none = { .interp = "exact", .n = -1, .m = -1, .k = -1,
				       .deleg = "exact" };

		/* No line (already a FAIL): run it anyway, for what to write there. */
		if (expect_path && !part && !exp)
			exp = &none;
		if (!ref) {
			result(false, "%s: TFLite 2.2 cannot load it", path);
			if (model)
				api.ModelDelete(model);
			continue;
		}
		if (get_layout(ref, &lay)) {
			result(false, "%s: %d inputs (at most %d handled)", mname,
			       api.GetInputTensorCount(ref), MAX_IN);
			api.InterpreterDelete(ref);
			api.ModelDelete(model);
			continue;
		}
		outlen = tfl_out_bytes(ref);
		nin = nmade = make_inputs(api.GetInputTensor(ref, 0), &lay, images, nimg, nrand, in, 16);
		if (nin <= 0) {
			result(false, "%s: no inputs could be made for it", mname);
			nin = nmade = 0;
		}
		for (int i = 0; i < nmade; i++)
			refout[i] = malloc(outlen);
		for (int i = 0; i < nin; i++) {
			if (!refout[i] || tfl_run(ref, in[i].data, &lay, refout[i], outlen)) {
				result(false, "%s, %s: TFLite 2.2 invoke failed", mname, in[i].name);
				nin = i;
				break;
			}
			print_hash(mname, in[i].name, "tflite", refout[i], outlen);
		}
		if (dso) {
			char *k[] = { (char *)"device", (char *)"skip_ops" };
			char *v[] = { (char *)device, (char *)skip_ops };

			check_delegate(mname, model, k, v, 1, false, part, in, nin, &lay,
				       refout, outlen, verbose, exp, NULL, &d1);
			/* The zoo: skip an operator the model has (none delegated: no run). */
			if (exp)
				v[1] = d1.skip_next;
			if (skip_run && (!exp || d1.skip_next[0]))
				check_delegate(mname, model, k, v, 2, true, part, in, nin, &lay,
					       refout, outlen, verbose, exp, &d1, &d2);
			if (cache)
				check_cache(mname, model, in, nin, &lay, outlen);
		}
		if (interp && !part)
			check_interp(path, mname, in, nin, &lay, refout, outlen, exp,
				     istate, sizeof(istate), false);
		if (interp_ref && !part) {
			char rstate[300];

			check_interp(path, mname, in, nin, &lay, refout, outlen, exp,
				     rstate, sizeof(rstate), true);
		}
		if (exp) {
			/* One line per model for tests/zoo/zoo_table.py. */
			char s1[64], s2[64];

			drun_state(&d1, s1, sizeof(s1));
			drun_state(&d2, s2, sizeof(s2));
			printf("ZOO|%s|%d|%s|%d/%d/%d|%s|%s|%d/%d/%d|%s\n", mname, nin, istate,
			       d1.n, d1.m, d1.k, s1, d1.skip_next[0] ? d1.skip_next : "-",
			       d2.n, d2.m, d2.k, s2);
		}
		for (int i = 0; i < nmade; i++) {
			free(in[i].data);
			free(refout[i]);
		}
		api.InterpreterDelete(ref);
		api.ModelDelete(model);
	}
	for (int i = 0; i < nexp; i++)
		if (!expects[i].seen)
			result(false, "%s: in %s but not tested (model missing?)", expects[i].model,
			       expect_path);
	if (nxfail)
		printf("%d passed, %d failed, %d skipped, %d expected failures\n", npass, nfail, nskip,
		       nxfail);
	else
		printf("%d passed, %d failed, %d skipped\n", npass, nfail, nskip);
	return nfail ? 1 : 0;
}
