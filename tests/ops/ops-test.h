/* SPDX-License-Identifier: MIT */
/* Shared helpers of the lowering tests. */
#ifndef __OPS_TEST_H__
#define __OPS_TEST_H__

#include <errno.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <e1npu/e1npu.h>
#include <e1npu/e1npu_ops.h>

struct ops_env {
	struct e1npu_device *dev;	/* NULL for the CPU-only context */
	struct e1npu_ops *ops;
	const char *skip;		/* set: the group's tests skip, why */
};

/*
 * The device of the "sim" groups: E1NPU_DEVICE when set (a /dev/accel
 * node: the kernel backend, as in the QEMU guest), else the in-process
 * model.
 */
static inline const char *t_spec(void)
{
	static char spec[64];

	if (!spec[0]) {
		const char *v = getenv("E1NPU_DEVICE");

		snprintf(spec, sizeof(spec), "%s", v && *v ? v : "sim");
	}
	return spec;
}

static inline bool t_on_sim(void)
{
	return !strcmp(t_spec(), "sim");
}

/* Skip the current test when its group's device does not fit (e->skip). */
#define t_skip_group(e) do {							\
	if ((e)->skip) {							\
		print_message("[  SKIP    ] %s on %s: %s\n", __func__,		\
			      t_spec(), (e)->skip);				\
		skip();								\
	}									\
} while (0)

static inline uint32_t t_rand(uint64_t *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)(*s >> 33);
}

static inline void t_fill_s8(int8_t *p, size_t n, int lo, int hi, uint64_t *s)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (int8_t)(lo + (int)(t_rand(s) % (uint32_t)(hi - lo + 1)));
}

static inline void t_fill_u8(uint8_t *p, size_t n, uint64_t *s)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)t_rand(s);
}

/* Group setup: the device under test (t_spec()) and the CPU context. */
static inline int t_setup_sim(void **state)
{
	struct ops_env *e = calloc(1, sizeof(*e));

	if (!e || e1npu_device_open(t_spec(), &e->dev) ||
	    e1npu_ops_new(e->dev, &e->ops))
		return -1;
	*state = e;
	return 0;
}

static inline int t_setup_cpu(void **state)
{
	struct ops_env *e = calloc(1, sizeof(*e));

	if (!e || e1npu_ops_new(NULL, &e->ops))
		return -1;
	*state = e;
	return 0;
}

static inline int t_teardown(void **state)
{
	struct ops_env *e = *state;

	e1npu_ops_free(e->ops);
	e1npu_device_close(e->dev);
	free(e);
	return 0;
}

#endif
