// SPDX-License-Identifier: MIT
/*
 * e1npu-hlo: progress line (progress-timer.h). Drawn from SIGALRM with
 * write() only (async-signal-safe), so a run inside the library can be
 * watched. (The other tools' "[i/n]" line is tools/common/progress.c.)
 */
#include <signal.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "progress-timer.h"

static volatile sig_atomic_t drawn, ticks, checks;
static int on;

/* @v in decimal at @p: the digits written. */
static size_t put_num(char *p, unsigned long v)
{
	char d[24];
	size_t n = 0, i;

	do {
		d[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (i = 0; i < n; i++)
		p[i] = d[n - 1 - i];
	return n;
}

static void put(const char *s, size_t n)
{
	ssize_t r = write(STDERR_FILENO, s, n);

	(void)r;
}

static void on_alarm(int sig)
{
	char line[96];
	size_t o = 0;
	unsigned long t = (unsigned long)++ticks;

#define LIT(s) (memcpy(line + o, s, sizeof(s) - 1), o += sizeof(s) - 1)
	(void)sig;
	LIT("\r\033[Krunning: ");
	o += put_num(line + o, t / 2);
	if (t & 1)
		LIT(".5 s, ");
	else
		LIT(".0 s, ");
	o += put_num(line + o, (unsigned long)checks);
	LIT(" checks");
#undef LIT
	drawn = 1;
	put(line, o);
}

static void on_signal(int sig)
{
	if (drawn)
		put("\r\033[K", 4);
	signal(sig, SIG_DFL);
	raise(sig);
}

void progress_timer_start(void)
{
	struct itimerval it = { { 0, 500000 }, { 0, 500000 } };
	struct sigaction sa;

	on = isatty(STDERR_FILENO);
	if (!on)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sa.sa_flags = SA_RESTART;	/* the library's reads and ioctls go on */
	sigaction(SIGALRM, &sa, NULL);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	setitimer(ITIMER_REAL, &it, NULL);
}

void progress_timer_check(void)
{
	checks++;
	/* the check's line goes where the progress line was */
	if (drawn) {
		drawn = 0;
		put("\r\033[K", 4);
	}
}

void progress_timer_end(void)
{
	struct itimerval off = { { 0, 0 }, { 0, 0 } };

	if (!on)
		return;
	setitimer(ITIMER_REAL, &off, NULL);
	signal(SIGALRM, SIG_IGN);
	if (drawn)
		put("\r\033[K", 4);
	drawn = 0;
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	on = 0;
}
