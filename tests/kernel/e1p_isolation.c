// SPDX-License-Identifier: MIT
/*
 * Evidence that the device touches no memory it was not given, for the
 * proof runs (tests/kernel/run-proof.sh):
 *
 * e1npu-proof dma-selftest BASE SIZE: the QEMU device counts every memory
 * access outside its dma-window property (dma-window-misses, the last one
 * in dma-last-miss; its own descriptor ring always counts as inside).
 * run-proof.sh sets the window to the arena [BASE, BASE + SIZE) and
 * requires no miss after the fuzzer and the stress run; this proves the
 * check can fail: with the window shrunk to the arena's first page, a
 * RELU job whose 8 KiB input and output cannot both lie in that page must
 * count misses, the last one inside the arena and past its first page.
 * Writing the window zeroes the counters (checked both ways). The window
 * is the whole arena again at the end. Result "dma-window-detects-escape".
 *
 * e1npu-proof victim READY-FILE: canary buffers in a file of its own,
 * with a freed 4 KiB hole after each one (so other files' buffers become
 * their neighbours), filled with a pattern and never submitted; creates
 * READY-FILE, waits for SIGUSR1 (or SIGTERM) and then checks every byte.
 * Result "proof-canary".
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "e1p.h"

static long long prop_ll(const char *name)
{
	return e1t_dev_get_ll(name);
}

int e1p_dma_selftest(int argc, char **argv)
{
	const char *n = "dma-window-detects-escape";
	enum { M = 128, N = 64 };
	struct e1t_bo pad = { 0 }, a = { 0 }, c = { 0 };
	long long acc0, miss0, acc1, miss1, miss2;
	unsigned long long base, size, maddr = 0, mlen = 0;
	struct e1t_result r;
	struct e1npu_hw_op op;
	char win[64], last[64], *end;
	uint8_t *want = NULL;
	uint32_t seed = 1234;
	struct e1t_dev d;
	int ret, job;

	if (argc < 2)
		return 2;
	base = strtoull(argv[0], NULL, 0);
	size = strtoull(argv[1], NULL, 0);
	if (!base || size < 64 * 1024) {
		e1t_fail(n, "arena 0x%llx + %llu: too small to test", base, size);
		return 1;
	}
	want = malloc(M * N);
	if (!want || e1t_open(&d)) {
		e1t_fail(n, "setup on %s", e1t_dev_path());
		free(want);
		return 1;
	}
	/* the first buffer of an empty arena takes its first page */
	ret = e1t_bo_new(&d, 4096, &pad);
	if (!ret)
		ret = e1t_bo_new(&d, M * N, &a);
	if (!ret)
		ret = e1t_bo_new(&d, M * N, &c);
	if (ret) {
		e1t_fail(n, "buffers: %s", strerror(-ret));
		goto out;
	}
	e1t_fill_s8(a.map, M * N, &seed);
	e1t_ref_relu((int8_t *)a.map, N, (int8_t *)want, N, M, N);
	memset(&op, 0, sizeof(op));
	op.opcode = E1NPU_HWOP_RELU_S8;
	op.m = M;
	op.n = N;
	op.a = e1t_t(&a, 0, N);
	op.c = e1t_t(&c, 0, N);

	snprintf(win, sizeof(win), "0x%llx+0x1000", base);
	ret = e1t_dev_set("dma-window", win);
	if (ret) {
		e1t_fail(n, "set dma-window %s: %d", win, ret);
		goto out;
	}
	acc0 = prop_ll("dma-accesses");
	miss0 = prop_ll("dma-window-misses");
	job = e1t_run(&d, DRM_E1NPU_ENGINE_WRAPPER, &op, 1, &r);
	acc1 = prop_ll("dma-accesses");
	miss1 = prop_ll("dma-window-misses");
	if (e1t_dev_get("dma-last-miss", last, sizeof(last)))
		snprintf(last, sizeof(last), "(unreadable)");
	/* the whole arena again; writing it zeroes the counters */
	snprintf(win, sizeof(win), "0x%llx+0x%llx", base, size);
	ret = e1t_dev_set("dma-window", win);
	miss2 = prop_ll("dma-window-misses");
	e1t_log("%s: window 0x%llx+0x1000: accesses %lld -> %lld, misses %lld -> %lld, last miss '%s'; job %d; window %s again: %d, misses %lld",
		n, base, acc0, acc1, miss0, miss1, last, job, win, ret, miss2);
	maddr = strtoull(last, &end, 0);
	if (*end == '+')
		mlen = strtoull(end + 1, &end, 0);
	if (ret)
		e1t_fail(n, "cannot set dma-window back to %s: %d", win, ret);
	else if (job)
		e1t_fail(n, "the RELU job: ret %d state %u error %d", job, r.state,
			 r.error);
	else if (!e1t_expect_bytes(n, c.map, want, M * N)) {
		/* reported */
	} else if (acc0 != 0 || miss0 != 0)
		e1t_fail(n, "writing dma-window left accesses %lld, misses %lld (want 0, 0)",
			 acc0, miss0);
	else if (acc1 < 2 || miss1 < 1)
		e1t_fail(n, "a job outside the window's page: %lld accesses, %lld misses counted",
			 acc1, miss1);
	else if (*end || !mlen || maddr < base + 4096 || maddr + mlen > base + size)
		e1t_fail(n, "dma-last-miss '%s' is not an access to the job's buffers past the arena's first page",
			 last);
	else if (miss2 != 0)
		e1t_fail(n, "writing dma-window left %lld misses", miss2);
	else
		e1t_pass(n);
out:
	e1t_bo_free(&d, &c);
	e1t_bo_free(&d, &a);
	e1t_bo_free(&d, &pad);
	e1t_close(&d);
	free(want);
	return e1t_failures ? 1 : 0;
}

static const uint32_t victim_sizes[] = {
	4096, 12288, 16384, 20480, 32768, 65536,
};
#define VICTIM_BOS E1T_ARRAY_SIZE(victim_sizes)

static uint8_t victim_byte(unsigned int b, size_t i)
{
	return (uint8_t)((i * 167 + b * 53) ^ 0x3c);
}

int e1p_victim(int argc, char **argv)
{
	const char *n = "proof-canary";
	struct e1t_bo bo[VICTIM_BOS], hole[VICTIM_BOS];
	size_t i, bad = 0, bad_bufs = 0;
	unsigned int b;
	struct e1t_dev d;
	sigset_t set;
	int ret, fd, sig = 0;

	if (argc < 1)
		return 2;
	memset(bo, 0, sizeof(bo));
	memset(hole, 0, sizeof(hole));
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, NULL);
	ret = e1t_open(&d);
	if (ret) {
		e1t_fail(n, "open %s: %s", e1t_dev_path(), strerror(-ret));
		return 1;
	}
	for (b = 0; b < VICTIM_BOS; b++) {
		ret = e1t_bo_new(&d, victim_sizes[b], &bo[b]);
		if (!ret)
			ret = e1t_bo_new(&d, 4096, &hole[b]);
		if (ret) {
			e1t_fail(n, "canary %u of %u bytes: %s", b, victim_sizes[b],
				 strerror(-ret));
			goto out;
		}
		for (i = 0; i < victim_sizes[b]; i++)
			bo[b].map[i] = victim_byte(b, i);
	}
	for (b = 0; b < VICTIM_BOS; b++)
		e1t_bo_free(&d, &hole[b]);
	fd = open(argv[0], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		e1t_fail(n, "ready file %s: %s", argv[0], strerror(errno));
		goto out;
	}
	close(fd);
	while (sigwait(&set, &sig))
		;
	for (b = 0; b < VICTIM_BOS; b++) {
		size_t first = 0, nb = 0;

		for (i = 0; i < victim_sizes[b]; i++) {
			if (bo[b].map[i] == victim_byte(b, i))
				continue;
			if (!nb++)
				first = i;
		}
		if (nb) {
			e1t_log("%s: buffer %u (%u bytes): %zu bytes changed, the first at %zu: 0x%02x, want 0x%02x",
				n, b, victim_sizes[b], nb, first, bo[b].map[first],
				victim_byte(b, first));
			bad += nb;
			bad_bufs++;
		}
	}
	if (bad)
		e1t_fail(n, "%zu bytes changed in %zu of %zu canary buffers", bad,
			 bad_bufs, (size_t)VICTIM_BOS);
	else
		e1t_pass(n);
out:
	for (b = 0; b < VICTIM_BOS; b++) {
		e1t_bo_free(&d, &hole[b]);
		e1t_bo_free(&d, &bo[b]);
	}
	e1t_close(&d);
	return e1t_failures ? 1 : 0;
}
