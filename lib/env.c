// SPDX-License-Identifier: MIT
/*
 * The E1NPU_* environment variables: one table (Documentation/libe1npu.md
 * "Environment" is its copy), one check. A bad value is refused with the
 * variable's name and what it accepts, never taken as the default.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "e1_timing.h"

struct env_var {
	const char *name;
	unsigned int min, max, def;	/* numbers; words: max == 0 */
	const char *const *words;	/* NULL-terminated, or NULL */
	const char *accepts;		/* for the message */
};

static const char *const device_words[] = { "auto", "sim", NULL };
static const char *const lowering_words[] = { "auto", "conv2d", "matmul", "first", NULL };
static const char *const path_words[] = { NULL };	/* any file name */
static const char *const ort_log_words[] = { "quiet", "summary", "verbose", "0", "1", "2", NULL };
static const char *const tflite_ref_words[] = { "2.2", "2.14", NULL };

static const struct env_var vars[] = {
	{ "E1NPU_DEVICE", 0, 0, 0, device_words,
	  "'auto', 'sim' or an accel node path such as /dev/accel/accel0" },
	{ "E1NPU_SIM_ARENA_MB", 1, 3072, 256, NULL, "a whole number of MiB from 1 to 3072" },
	{ "E1NPU_SIM_HANG_MS", 1, 600000, 2000, NULL, "milliseconds from 1 to 600000" },
	{ "E1NPU_SIM_ENGINES", 1, 3, 3, NULL,
	  "1 (wrapper), 2 (datapath) or 3 (both)" },
	{ "E1NPU_SIM_GEMMINI", 0, 1, 1, NULL, "0 or 1" },
	{ "E1NPU_SIM_TIMING", 0, E1_TIMING_G_ANY, E1_TIMING_GEMMINI, NULL,
	  "a bit mask from 0 to 0x1ff" },
	{ "E1NPU_OPS_LOWERING", 0, 0, 0, lowering_words,
	  "'auto', 'conv2d', 'matmul' or 'first'" },
	{ "E1NPU_TFLITE_DEBUG", 0, 1, 0, NULL, "0 or 1" },
	/* the ONNX Runtime EP (ort-ep/): its log_level option's default */
	{ "E1NPU_ORT_LOG", 0, 0, 0, ort_log_words,
	  "'quiet', 'summary', 'verbose', 0, 1 or 2" },
	/* lib/tflite/tflite_load.c: whose arithmetic the interpreter follows */
	{ "E1NPU_TFLITE_REF", 0, 0, 0, tflite_ref_words, "'2.2' or '2.14'" },
	/* lib/trace.c: the timeline trace's file (opened at the first event) */
	{ "E1NPU_TRACE", 0, 0, 0, path_words, "a file name" },
	/* e1npu-tflite diff's test hook: perturb that layer's NPU output */
	{ "E1NPU_TFLITE_DIFF_PERTURB", 0, 65535, 0, NULL, "a layer index from 0 to 65535" },
	/* lib/hlo reads it itself (the module's message): the same range */
	{ "E1NPU_HLO_MAX_WORK", 1, 1u << 22, 4096, NULL,
	  "Mi steps (2^20 each) from 1 to 4194304" },
};

static const struct env_var *find(const char *name)
{
	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
		if (!strcmp(vars[i].name, name))
			return &vars[i];
	return NULL;
}

static int parse(const struct env_var *e, const char *v, unsigned int *out)
{
	char *end;
	unsigned long x;

	*out = e->def;
	if (!v || !*v)
		return 0;
	if (e->words == path_words)
		return 0;
	if (e->words) {
		for (unsigned int i = 0; e->words[i]; i++)
			if (!strcmp(v, e->words[i])) {
				*out = i;
				return 0;
			}
		/* E1NPU_DEVICE: a path is checked when it is opened */
		return e->words == device_words && v[0] == '/' ? 0 : -EINVAL;
	}
	errno = 0;
	x = strtoul(v, &end, 0);
	if (errno || *end || *v == '-' || *v == '+' || x < e->min || x > e->max)
		return -EINVAL;
	*out = (unsigned int)x;
	return 0;
}

static int say(const struct env_var *e, const char *v, char *err, size_t errlen)
{
	if (err && errlen)
		snprintf(err, errlen, "environment variable %s='%s': expected %s", e->name,
			 v, e->accepts);
	return -EINVAL;
}

int e1npu_env_get(const char *name, unsigned int *out, char *err, size_t errlen)
{
	const struct env_var *e = find(name);
	const char *v = getenv(name);

	if (!e)
		return -ENOENT;
	if (parse(e, v, out))
		return say(e, v, err, errlen);
	return 0;
}

E1NPU_API int e1npu_env_check(char *err, size_t errlen)
{
	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		const char *v = getenv(vars[i].name);
		unsigned int x;

		if (parse(&vars[i], v, &x))
			return say(&vars[i], v, err, errlen);
	}
	if (err && errlen)
		err[0] = 0;
	return 0;
}
