// SPDX-License-Identifier: MIT
/*
 * The tools' progress line (progress.h). The signal handler erases a
 * half-drawn line so the shell prompt does not land after "[3/10]".
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "progress.h"

static volatile sig_atomic_t drawn;
static int on;

static void erase_and_reraise(int sig)
{
	static const char clr[] = "\r\033[K";

	if (drawn) {
		ssize_t r = write(STDERR_FILENO, clr, sizeof(clr) - 1);

		(void)r;
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

void progress_start(void)
{
	on = isatty(STDERR_FILENO);
	if (on) {
		signal(SIGINT, erase_and_reraise);
		signal(SIGTERM, erase_and_reraise);
	}
}

void progress_step(unsigned int i, unsigned int n, const char *what)
{
	if (!on)
		return;
	drawn = 1;	/* before: a signal during the write still erases it */
	fprintf(stderr, "\r\033[K[%u/%u] %s", i, n, what);
	fflush(stderr);
}

void progress_end(void)
{
	if (!on)
		return;
	if (drawn)
		fputs("\r\033[K", stderr);
	drawn = 0;
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	on = 0;
}
