// SPDX-License-Identifier: MIT
/*
 * The job path's breakdown, from the kernel's own trace events (tracefs;
 * the guest kernels have event tracing, no function tracer): ITERATIONS
 * rounds of DRM_IOCTL_VERSION, a one-NOP wrapper SUBMIT and the timeline
 * wait of its point, each round after a trace_marker line. Per round, in
 * kernel time stamps (trace_clock "global"):
 *
 *   version      VERSION's sys_enter -> sys_exit (the syscall floor)
 *   submit-arm   SUBMIT's sys_enter -> gpu_scheduler:drm_sched_job
 *                (copy, validation, canonical encode, job, dependencies,
 *                arm and push)
 *   submit-exit  drm_sched_job -> SUBMIT's sys_exit (out-syncs, return)
 *   sched-hop    drm_sched_job -> drm_run_job (the scheduler's worker)
 *   run-irq      drm_run_job -> irq_handler_entry of "e1npu-npu" (ring
 *                write, doorbell, the device, the interrupt)
 *   irq-done     irq_handler_entry -> drm_sched_process_job (hard IRQ,
 *                IRQ thread, the hardware fence)
 *   done-wake    drm_sched_process_job -> the wait's sys_exit (finished
 *                fence, timeline point, waking the waiter)
 *   total        SUBMIT's sys_enter -> the wait's sys_exit
 *
 * Medians of the rounds where every event was found. Each trace event
 * costs time of its own (a few microseconds under TCG), so the phases add
 * up to more than e1npu-proof perf's untraced figure; the shares are what
 * this is for. Skipped with a reason when tracefs or an event is absent.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "e1p.h"
#include "e1npu_hw.h"

#define TRACEFS "/sys/kernel/tracing"
#define NR_IOCTL 29	/* the generic syscall table's ioctl (riscv64, arm64) */

static const char *const e1p_events[] = {
	"raw_syscalls/sys_enter", "raw_syscalls/sys_exit",
	"gpu_scheduler/drm_sched_job", "gpu_scheduler/drm_run_job",
	"gpu_scheduler/drm_sched_process_job", "irq/irq_handler_entry",
};

enum e1p_stamp {
	S_VER_IN, S_VER_OUT, S_SUB_IN, S_JOB, S_SUB_OUT, S_RUN, S_IRQ, S_PROC,
	S_WAIT_OUT, S_NUM
};

enum e1p_phase {
	P_VERSION, P_ARM, P_SUB_EXIT, P_HOP, P_RUN_IRQ, P_IRQ_DONE, P_WAKE,
	P_TOTAL, P_NUM
};

static const char *const e1p_phase_name[P_NUM] = {
	"version", "submit-arm", "submit-exit", "sched-hop", "run-irq",
	"irq-done", "done-wake", "total",
};

static int tfs_write(const char *file, const char *val)
{
	char path[256];

	snprintf(path, sizeof(path), TRACEFS "/%s", file);
	return e1t_write_file(path, val);
}

static int tfs_ready(void)
{
	struct stat st;

	if (stat(TRACEFS "/trace_marker", &st) == 0)
		return 0;
	if (mount("tracefs", TRACEFS, "tracefs", 0, NULL) && errno != EBUSY)
		return -errno;
	return stat(TRACEFS "/trace_marker", &st) ? -errno : 0;
}

static int tfs_setup(pid_t pid)
{
	char path[128], filt[96];
	unsigned int i;
	int ret;

	ret = tfs_write("tracing_on", "0");
	ret = ret ?: tfs_write("trace_clock", "global");
	ret = ret ?: tfs_write("buffer_size_kb", "4096");
	ret = ret ?: tfs_write("trace", "");
	for (i = 0; !ret && i < E1T_ARRAY_SIZE(e1p_events); i++) {
		snprintf(path, sizeof(path), "events/%s/enable", e1p_events[i]);
		ret = tfs_write(path, "1");
	}
	/* E1P_TRACE_EXTRA="kmem/kmalloc ...": more events, for a closer
	 * look (with E1P_TRACE_KEEP=1 the trace stays in tracefs) */
	if (!ret && getenv("E1P_TRACE_EXTRA")) {
		char *list = strdup(getenv("E1P_TRACE_EXTRA")), *save = NULL, *ev;

		for (ev = list ? strtok_r(list, " ", &save) : NULL; ev && !ret;
		     ev = strtok_r(NULL, " ", &save)) {
			snprintf(path, sizeof(path), "events/%s/enable", ev);
			ret = tfs_write(path, "1");
		}
		free(list);
	}
	/* the syscalls of this process only, ioctl only */
	snprintf(filt, sizeof(filt), "common_pid == %d && id == %d", (int)pid,
		 NR_IOCTL);
	ret = ret ?: tfs_write("events/raw_syscalls/sys_enter/filter", filt);
	ret = ret ?: tfs_write("events/raw_syscalls/sys_exit/filter", filt);
	return ret;
}

static void tfs_teardown(void)
{
	char path[128];
	unsigned int i;

	tfs_write("tracing_on", "0");
	for (i = 0; i < E1T_ARRAY_SIZE(e1p_events); i++) {
		snprintf(path, sizeof(path), "events/%s/enable", e1p_events[i]);
		tfs_write(path, "0");
	}
	tfs_write("events/raw_syscalls/sys_enter/filter", "0");
	tfs_write("events/raw_syscalls/sys_exit/filter", "0");
	if (!getenv("E1P_TRACE_KEEP"))
		tfs_write("trace", "");
}

/*
 * The time stamp (ns) of a trace line "task-pid [cpu] flags ts: event: ..."
 * whose event is at EV: the token before it, "12.345678:".
 */
static uint64_t line_ts(const char *line, const char *ev)
{
	const char *p = ev;

	while (p > line && p[-1] == ' ')
		p--;
	while (p > line && p[-1] != ' ')
		p--;
	return (uint64_t)(strtod(p, NULL) * 1e9 + 0.5);
}

/* round state: which stamp comes next from the syscall events */
struct e1p_round {
	uint64_t s[S_NUM];
	unsigned int nsys;	/* sys_enter/sys_exit seen: 0..5 */
};

static void round_event(struct e1p_round *r, const char *line)
{
	static const enum e1p_stamp sys_order[] = {
		S_VER_IN, S_VER_OUT, S_SUB_IN, S_SUB_OUT, S_NUM, S_WAIT_OUT,
	};
	const char *ev;

	if ((ev = strstr(line, " sys_enter: ")) || (ev = strstr(line, " sys_exit: "))) {
		if (r->nsys < E1T_ARRAY_SIZE(sys_order) && sys_order[r->nsys] != S_NUM)
			r->s[sys_order[r->nsys]] = line_ts(line, ev + 1);
		r->nsys++;
	} else if ((ev = strstr(line, " drm_sched_job: ")) && !r->s[S_JOB]) {
		r->s[S_JOB] = line_ts(line, ev + 1);
	} else if ((ev = strstr(line, " drm_run_job: ")) && !r->s[S_RUN]) {
		r->s[S_RUN] = line_ts(line, ev + 1);
	} else if ((ev = strstr(line, " irq_handler_entry: ")) && r->s[S_RUN] &&
		   !r->s[S_IRQ] && strstr(ev, "name=e1npu-npu")) {
		r->s[S_IRQ] = line_ts(line, ev + 1);
	} else if ((ev = strstr(line, " drm_sched_process_job: ")) &&
		   r->s[S_IRQ] && !r->s[S_PROC]) {
		r->s[S_PROC] = line_ts(line, ev + 1);
	}
}

/* the phases of a complete round, in order; false if an event is missing */
static bool round_phases(const struct e1p_round *r, uint64_t *ph)
{
	const uint64_t *s = r->s;
	unsigned int i;

	for (i = 0; i < S_NUM; i++)
		if (!s[i])
			return false;
	if (r->nsys != 6 || s[S_JOB] < s[S_SUB_IN] || s[S_SUB_OUT] < s[S_JOB] ||
	    s[S_RUN] < s[S_JOB] || s[S_IRQ] < s[S_RUN] || s[S_PROC] < s[S_IRQ] ||
	    s[S_WAIT_OUT] < s[S_PROC])
		return false;
	ph[P_VERSION] = s[S_VER_OUT] - s[S_VER_IN];
	ph[P_ARM] = s[S_JOB] - s[S_SUB_IN];
	ph[P_SUB_EXIT] = s[S_SUB_OUT] - s[S_JOB];
	ph[P_HOP] = s[S_RUN] - s[S_JOB];
	ph[P_RUN_IRQ] = s[S_IRQ] - s[S_RUN];
	ph[P_IRQ_DONE] = s[S_PROC] - s[S_IRQ];
	ph[P_WAKE] = s[S_WAIT_OUT] - s[S_PROC];
	ph[P_TOTAL] = s[S_WAIT_OUT] - s[S_SUB_IN];
	return true;
}

/* parse the trace into per-round phases: the number of complete rounds */
static unsigned int parse_trace(FILE *f, uint64_t (*ph)[P_NUM], unsigned int n)
{
	struct e1p_round r;
	unsigned int done = 0;
	bool in_round = false;
	char line[512];

	memset(&r, 0, sizeof(r));
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#')
			continue;
		if (strstr(line, "tracing_mark_write: e1p-round")) {
			if (in_round && done < n && round_phases(&r, ph[done]))
				done++;
			memset(&r, 0, sizeof(r));
			in_round = true;
		} else if (in_round) {
			round_event(&r, line);
		}
	}
	if (in_round && done < n && round_phases(&r, ph[done]))
		done++;
	return done;
}

static int e1p_trace_rounds(struct e1t_dev *d, unsigned int n)
{
	uint32_t nop[E1_V0_DESC_WORDS];
	struct drm_version ver;
	struct e1t_result r;
	struct e1t_job job;
	unsigned int i;
	int mfd, ret = 0;

	mfd = open(TRACEFS "/trace_marker", O_WRONLY | O_CLOEXEC);
	if (mfd < 0)
		return -errno;
	memset(nop, 0, sizeof(nop));
	nop[E1_V0_DW_OP] = E1_V0_OP_NOP;
	ret = tfs_write("tracing_on", "1");
	for (i = 0; i < n && !ret; i++) {
		if (write(mfd, "e1p-round", 9) != 9) {
			ret = -errno;
			break;
		}
		memset(&ver, 0, sizeof(ver));
		ret = e1t_ioctl(d->fd, DRM_IOCTL_VERSION, &ver);
		ret = ret ?: e1t_submit_cmds(d, DRM_E1NPU_ENGINE_WRAPPER, nop, 1,
					     NULL, 0, &job);
		ret = ret ?: e1t_timeline_wait(d, &d->timeline, &job.point, 1, 0,
					       E1T_JOB_TIMEOUT_MS);
		/* the outcome (status record and fence), untraced: its
		 * ioctls would add to the round's six syscall events */
		if (!ret) {
			tfs_write("tracing_on", "0");
			ret = e1t_job_wait(d, &job, E1T_JOB_TIMEOUT_MS, &r);
			if (!ret && (r.state != DRM_E1NPU_JOB_STATE_DONE ||
				     r.cmds_done != 1))
				ret = -EIO;
			ret = ret ?: tfs_write("tracing_on", "1");
		}
	}
	tfs_write("tracing_on", "0");
	close(mfd);
	return ret;
}

static void print_breakdown(uint64_t (*ph)[P_NUM], unsigned int got,
			    unsigned int n)
{
	uint64_t *col = calloc(got, sizeof(*col)), med[P_NUM];
	unsigned int p, i;

	if (!col)
		return;
	for (p = 0; p < P_NUM; p++) {
		for (i = 0; i < got; i++)
			col[i] = ph[i][p];
		med[p] = e1p_median(col, got);
	}
	free(col);
	printf("E1VM-PERF: job-path breakdown (trace events, medians of %u/%u rounds, us):", got, n);
	for (p = 0; p < P_NUM; p++)
		printf(" %s %.1f", e1p_phase_name[p], med[p] / 1000.0);
	printf("; total/version %.1f\n",
	       med[P_VERSION] ? (double)med[P_TOTAL] / med[P_VERSION] : 0.0);
}

/**
 * e1p_trace_breakdown() - the "perf-breakdown" result: N traced rounds
 * @d: the open device, its job helper set up
 * @n: rounds
 *
 * Fails only when a job fails or no round had all its events while the
 * events exist; skipped without tracefs or the scheduler's events.
 */
void e1p_trace_breakdown(struct e1t_dev *d, unsigned int n)
{
	uint64_t (*ph)[P_NUM];
	unsigned int got;
	struct stat st;
	FILE *f;
	int ret;

	if (tfs_ready()) {
		e1t_skip("perf-breakdown", "no tracefs at " TRACEFS " (a kernel without CONFIG_FTRACE)");
		return;
	}
	if (stat(TRACEFS "/events/gpu_scheduler/drm_run_job", &st) ||
	    stat(TRACEFS "/events/raw_syscalls/sys_enter", &st)) {
		e1t_skip("perf-breakdown", "no gpu_scheduler or raw_syscalls events in " TRACEFS "/events");
		return;
	}
	ph = calloc(n, sizeof(*ph));
	if (!ph) {
		e1t_fail("perf-breakdown", "out of memory");
		return;
	}
	ret = tfs_setup(getpid());
	ret = ret ?: e1p_trace_rounds(d, n);
	f = ret ? NULL : fopen(TRACEFS "/trace", "r");
	if (!ret && !f)
		ret = -errno;
	got = f ? parse_trace(f, ph, n) : 0;
	if (f)
		fclose(f);
	tfs_teardown();
	if (ret)
		e1t_fail("perf-breakdown", "%s", strerror(-ret));
	else if (!got)
		e1t_fail("perf-breakdown", "none of %u rounds had all its trace events", n);
	else {
		print_breakdown(ph, got, n);
		e1t_pass("perf-breakdown");
	}
	free(ph);
}
