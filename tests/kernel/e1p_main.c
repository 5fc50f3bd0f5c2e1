// SPDX-License-Identifier: MIT
/*
 * e1npu-proof MODE ARGS: the driver's proof runs in the QEMU guest
 * (tests/kernel/run-proof.sh): "fuzz", "stress", "perf", "dma-selftest",
 * "victim".
 * Prints "E1VM: PASS/FAIL name" lines like e1npu-systest. Exit status: 0
 * all passed, 1 some failed, 2 usage.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "e1p.h"

int e1p_syncobj_create(int fd, uint32_t *handle)
{
	struct drm_syncobj_create c;
	int ret;

	memset(&c, 0, sizeof(c));
	ret = e1t_ioctl(fd, DRM_IOCTL_SYNCOBJ_CREATE, &c);
	*handle = ret ? 0 : c.handle;
	return ret;
}

int e1p_syncobj_destroy(int fd, uint32_t handle)
{
	struct drm_syncobj_destroy d;

	memset(&d, 0, sizeof(d));
	d.handle = handle;
	return e1t_ioctl(fd, DRM_IOCTL_SYNCOBJ_DESTROY, &d);
}

int e1p_syncobj_wait(int fd, const uint32_t *handles, uint32_t n,
		     int timeout_ms)
{
	struct drm_syncobj_wait w;
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	memset(&w, 0, sizeof(w));
	w.handles = (uintptr_t)handles;
	w.count_handles = n;
	w.flags = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL;
	w.timeout_nsec = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec +
			 (int64_t)timeout_ms * 1000000;
	return e1t_ioctl(fd, DRM_IOCTL_SYNCOBJ_WAIT, &w);
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc >= 2 && !strcmp(argv[1], "fuzz"))
		return e1p_fuzz(argc - 2, argv + 2);
	if (argc >= 2 && !strcmp(argv[1], "stress"))
		return e1p_stress(argc - 2, argv + 2);
	if (argc >= 2 && !strcmp(argv[1], "perf"))
		return e1p_perf(argc - 2, argv + 2);
	if (argc >= 2 && !strcmp(argv[1], "dma-selftest"))
		return e1p_dma_selftest(argc - 2, argv + 2);
	if (argc >= 2 && !strcmp(argv[1], "victim"))
		return e1p_victim(argc - 2, argv + 2);
	fprintf(stderr, "usage: %s fuzz SEED PROCS CALLS SECONDS\n"
		"       %s stress PROCS JOBS SEED\n"
		"       %s perf ITERATIONS\n"
		"       %s dma-selftest ARENA-BASE ARENA-SIZE\n"
		"       %s victim READY-FILE\n",
		argv[0], argv[0], argv[0], argv[0], argv[0]);
	return 2;
}
