// SPDX-License-Identifier: MIT
/*
 * Timeline trace (trace.h): Chrome trace-event JSON, streamed to the file
 * as the events come ({"traceEvents":[...], "otherData":{...}}, "X"
 * complete events, ts/dur in microseconds).
 *
 *   pid 1 "host": CLOCK_MONOTONIC, microseconds since the trace opened
 *     tid 1 layers          one span per TFLite layer (op, engine, reason,
 *                           MACs, cycles, why)
 *     tid 2 lowering        planning, staging, building the command buffer
 *     tid 3 submit          e1npu_cmdbuf_submit() of that command buffer
 *     tid 4 wait            e1npu_cmdbuf_wait() for it
 *     tid 5 host ops        layers computed on the host (no hardware form,
 *                           CPU-only context, or CPU fallback)
 *   pid 2 "device": the model's global clock (e1npu_perf.global_cycles,
 *     the makespan of both engines), cycles / clock_mhz microseconds; a
 *     device without one (the kernel backend) lays the runs end to end
 *     from 0 in submission order
 *     tid 1 wrapper, tid 2 datapath: each run's perf-counter deltas on
 *     that engine (cycles, MACs), its DMA bytes, the operation and reason
 *     counters "utilization (% busy)" and "MACs per cycle" per engine
 *
 * A span never starts before the previous one on its track ends (clamped),
 * so no track overlaps itself. One mutex: any thread may trace. A tool's
 * file (e1npu_trace_open) is written beside it and renamed at the end, so
 * a run that ends on bad input (e1npu_trace_discard) changes nothing.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <e1npu/e1npu.h>

#include "e1_timing.h"
#include "internal.h"
#include "trace.h"

enum { T_LAYERS = 1, T_LOWER, T_SUBMIT, T_WAIT, T_HOSTOPS, T_NTRACKS };
enum { D_WRAPPER = 1, D_DATAPATH, D_NTRACKS };

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int state;		/* 0: $E1NPU_TRACE not looked at, 1 on, -1 off */
static FILE *fp;
static char path[4096];
static char tmp_path[4096 + 8];	/* a tool's trace until it ends well, else "" */
static int write_err;		/* first errno of a write */
static uint64_t base_ns;	/* host clock at open */
static uint64_t host_end[T_NTRACKS];	/* ns since base */
static uint64_t dev_end[D_NTRACKS];	/* cycles */
static uint64_t dev_cursor;
static uint64_t events;
static uint64_t sum_cycles[D_NTRACKS];
static char layer_name[48];
static int32_t layer_index = -1;

uint64_t e1npu_trace_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void out(const char *fmt, ...)
{
	va_list ap;

	if (!fp)
		return;
	va_start(ap, fmt);
	if (vfprintf(fp, fmt, ap) < 0 && !write_err)
		write_err = errno ? errno : EIO;
	va_end(ap);
}

/* @s as a JSON string (control characters escaped). */
static void out_str(const char *s)
{
	out("\"");
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			out("\\%c", c);
		else if (c < 0x20)
			out("\\u%04x", c);
		else
			out("%c", c);
	}
	out("\"");
}

static void meta(int pid, int tid, const char *what, const char *name)
{
	out("%s{\"name\":\"%s\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"args\":{\"name\":",
	    events++ ? ",\n" : "", what, pid, tid);
	out_str(name);
	out("}}");
}

/*
 * Open @p, or with @staged a temporary file beside it that close renames
 * to @p (discard removes it): a run that ends on bad input leaves @p as it
 * was. Only a regular file (or none yet) is staged: /dev/full, a pipe or a
 * symbolic link is written directly.
 */
static int open_locked(const char *p, bool staged, char *err, size_t errlen)
{
	struct stat st;

	snprintf(path, sizeof(path), "%s", p);
	tmp_path[0] = 0;
	if (staged && (lstat(p, &st) ? errno == ENOENT : S_ISREG(st.st_mode))) {
		int fd;

		snprintf(tmp_path, sizeof(tmp_path), "%s.XXXXXX", p);
		fd = mkstemp(tmp_path);
		if (fd >= 0) {
			mode_t um = umask(0);	/* mkstemp's 0600: the mode fopen gives */

			umask(um);
			fchmod(fd, (stat(p, &st) ? 0666 & ~um : st.st_mode) & 07777);
		}
		fp = fd < 0 ? NULL : fdopen(fd, "w");
		if (fd >= 0 && !fp) {
			close(fd);
			unlink(tmp_path);
		}
		if (!fp)
			tmp_path[0] = 0;
	} else {
		fp = fopen(p, "w");
	}
	if (!fp) {
		int e = errno;

		if (err && errlen)
			snprintf(err, errlen, "%s: %s", p, strerror(e));
		state = -1;
		return -e;
	}
	state = 1;
	write_err = 0;
	events = 0;
	base_ns = e1npu_trace_now_ns();
	memset(host_end, 0, sizeof(host_end));
	memset(dev_end, 0, sizeof(dev_end));
	memset(sum_cycles, 0, sizeof(sum_cycles));
	dev_cursor = 0;
	out("{\"traceEvents\":[\n");
	meta(1, 0, "process_name", "host (CLOCK_MONOTONIC, us since the trace opened)");
	meta(1, T_LAYERS, "thread_name", "layers");
	meta(1, T_LOWER, "thread_name", "lowering");
	meta(1, T_SUBMIT, "thread_name", "submit");
	meta(1, T_WAIT, "thread_name", "wait");
	meta(1, T_HOSTOPS, "thread_name", "host ops (host-computed, CPU fallback)");
	meta(2, 0, "process_name", "device (modelled clock, cycles / clock_mhz)");
	meta(2, D_WRAPPER, "thread_name", "wrapper");
	meta(2, D_DATAPATH, "thread_name", "datapath");
	return 0;
}

static int close_locked(char *err, size_t errlen)
{
	int e;

	if (!fp)
		return 0;
	out("\n],\"displayTimeUnit\":\"ns\",\"otherData\":{"
	    "\"producer\":\"libe1npu " E1NPU_VERSION "\","
	    "\"host_clock\":\"pid 1: CLOCK_MONOTONIC, microseconds since the trace opened\","
	    "\"device_clock\":\"pid 2: the model's global clock: ts and dur are cycles / "
	    "device_clock_mhz; a command-buffer run's spans start at the global clock "
	    "(perf global_cycles, the makespan of both engines) when it was submitted, "
	    "each engine's span as long as its perf-counter cycles (when the run's "
	    "makespan shows the engines did not overlap, the second engine's span follows "
	    "the first's); on a device without a global clock the runs are laid end to "
	    "end from 0\",\"clock_relation\":\"a device span's args.host_submit_us is the "
	    "host clock (pid 1) at the submit of its run, and its ts the device clock at "
	    "that moment: the two clocks meet there; between runs the device clock stands "
	    "still while the host works\","
	    "\"device_clock_mhz\":%u,\"wrapper_cycles\":%" PRIu64 ",\"dp_cycles\":%" PRIu64 "}}\n",
	    (unsigned int)E1_TIMING_CLOCK_MHZ, sum_cycles[D_WRAPPER], sum_cycles[D_DATAPATH]);
	e = write_err;
	if (fflush(fp) && !e)
		e = errno ? errno : EIO;
	if (fclose(fp) && !e)
		e = errno ? errno : EIO;
	fp = NULL;
	state = -1;
	if (!e && tmp_path[0] && rename(tmp_path, path))
		e = errno ? errno : EIO;
	if (e && tmp_path[0])
		unlink(tmp_path);
	tmp_path[0] = 0;
	if (e && err && errlen)
		snprintf(err, errlen, "%s: %s", path, strerror(e));
	return -e;
}

static void at_exit(void)
{
	char err[4200];

	pthread_mutex_lock(&lock);
	/* the library never prints, but at exit nobody else can say it */
	if (close_locked(err, sizeof(err)))
		fprintf(stderr, "libe1npu: E1NPU_TRACE=%s\n", err);
	pthread_mutex_unlock(&lock);
}

int e1npu_trace_open(const char *p, char *err, size_t errlen)
{
	int ret;

	pthread_mutex_lock(&lock);
	close_locked(NULL, 0);
	ret = open_locked(p, true, err, errlen);
	pthread_mutex_unlock(&lock);
	return ret;
}

void e1npu_trace_discard(void)
{
	pthread_mutex_lock(&lock);
	if (fp && tmp_path[0]) {
		fclose(fp);
		fp = NULL;
		state = -1;
		unlink(tmp_path);
		tmp_path[0] = 0;
	}
	pthread_mutex_unlock(&lock);
	e1npu_trace_close(NULL, 0);
}

int e1npu_trace_close(char *err, size_t errlen)
{
	int ret;

	pthread_mutex_lock(&lock);
	ret = close_locked(err, errlen);
	pthread_mutex_unlock(&lock);
	return ret;
}

static int on_locked(void)
{
	if (!state) {
		const char *p = getenv("E1NPU_TRACE");

		state = -1;
		if (p && *p && !open_locked(p, false, NULL, 0))
			atexit(at_exit);
	}
	return state > 0 && fp;
}

int e1npu_trace_on(void)
{
	int on;

	if (state < 0)
		return 0;
	pthread_mutex_lock(&lock);
	on = on_locked();
	pthread_mutex_unlock(&lock);
	return on;
}

/* An "X" span on host track @tid from @t0 to @t1 (absolute ns), clamped. */
static void host_span(int tid, const char *name, uint64_t t0, uint64_t t1)
{
	uint64_t s = t0 > base_ns ? t0 - base_ns : 0, e = t1 > base_ns ? t1 - base_ns : 0;

	if (s < host_end[tid])
		s = host_end[tid];
	if (e < s)
		e = s;
	host_end[tid] = e;
	out(",\n{\"ph\":\"X\",\"pid\":1,\"tid\":%d,\"ts\":%" PRIu64 ".%03u,\"dur\":%" PRIu64
	    ".%03u,\"name\":", tid, s / 1000, (unsigned int)(s % 1000), (e - s) / 1000,
	    (unsigned int)((e - s) % 1000));
	out_str(name);
	events++;
}

/* An "X" span on device track @tid from cycle @start (clamped); its start. */
static uint64_t dev_span(int tid, const char *name, uint64_t start, uint64_t cycles)
{
	uint64_t mhz = E1_TIMING_CLOCK_MHZ;

	if (start < dev_end[tid])
		start = dev_end[tid];
	dev_end[tid] = start + cycles;
	sum_cycles[tid] += cycles;
	/* cycles / mhz microseconds, to the nanosecond (mhz 1000: exact) */
	out(",\n{\"ph\":\"X\",\"pid\":2,\"tid\":%d,\"ts\":%.3f,\"dur\":%.3f,\"name\":", tid,
	    (double)start / (double)mhz, (double)cycles / (double)mhz);
	out_str(name);
	events++;
	return start;
}

/* A counter event on the device clock: @name's wrapper and datapath values. */
static void dev_counter(const char *name, uint64_t at, double w, double d)
{
	out(",\n{\"ph\":\"C\",\"pid\":2,\"ts\":%.3f,\"name\":\"%s\",\"args\":{\"wrapper\":%.3f,"
	    "\"datapath\":%.3f}}", (double)at / (double)E1_TIMING_CLOCK_MHZ, name, w, d);
	events++;
}

void e1npu_trace_layer_begin(uint32_t index, const char *op)
{
	if (!e1npu_trace_on())
		return;
	pthread_mutex_lock(&lock);
	layer_index = (int32_t)index;
	snprintf(layer_name, sizeof(layer_name), "%s", op ? op : "");
	pthread_mutex_unlock(&lock);
}

static void report_args(const struct e1npu_ops_report *rep)
{
	out(",\"engine\":\"%s\",\"reason\":\"%s\",\"kind\":\"%s\",\"macs\":%" PRIu64
	    ",\"wrapper_cycles\":%" PRIu64 ",\"dp_cycles\":%" PRIu64 ",\"hw_ops\":%u"
	    ",\"fallbacks\":%u,\"why\":",
	    e1npu_engine_name((enum e1npu_engine)rep->engine),
	    e1npu_ops_reason_name(rep->reason), e1npu_ops_kind_name(rep->kind), rep->macs,
	    rep->wrapper_cycles, rep->dp_cycles, rep->hw_ops, rep->hw_ops_fallback);
	out_str(rep->why);
}

void e1npu_trace_layer(uint32_t index, const char *op, const char *shape,
		       const struct e1npu_ops_report *rep, uint64_t t0, uint64_t t1)
{
	if (!e1npu_trace_on())
		return;
	pthread_mutex_lock(&lock);
	if (fp) {
		host_span(T_LAYERS, op, t0, t1);
		out(",\"cat\":\"layer\",\"args\":{\"layer\":%u,\"op\":", index);
		out_str(op);
		out(",\"shape\":");
		out_str(shape);
		report_args(rep);
		out("}}");
		if (rep->engine == E1NPU_ENGINE_CPU || rep->hw_ops_fallback) {
			char name[64];

			snprintf(name, sizeof(name), "%s%s",
				 rep->reason == E1NPU_OPS_WHY_FALLBACK || rep->hw_ops_fallback ?
				 "CPU fallback: " : "host: ", op);
			host_span(T_HOSTOPS, name, t0, t1);
			out(",\"cat\":\"host\",\"args\":{\"layer\":%u,\"op\":", index);
			out_str(op);
			report_args(rep);
			out("}}");
		}
		layer_index = -1;
	}
	pthread_mutex_unlock(&lock);
}

/* A device span's args: the run's share on @engine. */
static void dev_args(const char *engine, const char *op, const struct e1npu_trace_run *r,
		     uint64_t cycles, uint64_t macs, uint64_t bytes)
{
	out(",\"cat\":\"device\",\"args\":{\"engine\":\"%s\",\"op\":", engine);
	out_str(op);
	out(",\"kind\":\"%s\",\"reason\":\"%s\",\"cycles\":%" PRIu64 ",\"macs\":%" PRIu64
	    ",\"dma_bytes\":%" PRIu64 ",\"host_submit_us\":%.3f}}", e1npu_ops_kind_name(r->kind),
	    e1npu_ops_reason_name(r->reason), cycles, macs, bytes,
	    (double)(r->t_submit > base_ns ? r->t_submit - base_ns : 0) / 1000.0);
}

void e1npu_trace_hw(const struct e1npu_trace_run *r, const struct e1npu_cmdbuf *cb,
		    unsigned int n)
{
	const struct e1npu_perf *p0 = &r->p0, *p1 = &r->p1;
	uint64_t w = p1->wrapper_cycles - p0->wrapper_cycles, d = p1->dp_cycles - p0->dp_cycles;
	uint64_t bytes[3] = { 0 }, start, ws = 0, ds = 0, end;
	int first = -1;
	uint32_t fallbacks = 0;
	char name[96], op[64];

	if (!e1npu_trace_on())
		return;
	/* which engine ran each operation: its DMA bytes count there */
	for (unsigned int i = 0; i < n; i++) {
		struct e1npu_op_outcome oc;
		uint64_t in, o;

		if (e1npu_cmdbuf_get_outcome(cb, i, &oc) || e1npu_cmdbuf_op_bytes(cb, i, &in, &o))
			continue;
		if (oc.engine == E1NPU_ENGINE_CPU) {
			fallbacks++;
			bytes[2] += in + o;
		} else if (oc.engine == E1NPU_ENGINE_WRAPPER || oc.engine == E1NPU_ENGINE_DATAPATH) {
			bytes[oc.engine == E1NPU_ENGINE_WRAPPER ? 0 : 1] += in + o;
			if (first < 0)
				first = (int)oc.engine;
		}
	}
	pthread_mutex_lock(&lock);
	if (!fp)
		goto out;
	if (layer_index >= 0) {
		snprintf(name, sizeof(name), "%s (layer %d)", layer_name, layer_index);
		snprintf(op, sizeof(op), "%s", layer_name);
	} else {
		snprintf(name, sizeof(name), "%s", e1npu_ops_kind_name(r->kind));
		snprintf(op, sizeof(op), "%s", e1npu_ops_kind_name(r->kind));
	}
	host_span(T_LOWER, name, r->t_lower, r->t_submit);
	out(",\"cat\":\"lowering\",\"args\":{\"layer\":%d,\"kind\":\"%s\",\"hw_ops\":%u}}",
	    layer_index, e1npu_ops_kind_name(r->kind), n);
	host_span(T_SUBMIT, name, r->t_submit, r->t_wait);
	out(",\"cat\":\"submit\",\"args\":{\"layer\":%d,\"kind\":\"%s\",\"hw_ops\":%u}}",
	    layer_index, e1npu_ops_kind_name(r->kind), n);
	host_span(T_WAIT, name, r->t_wait, r->t_done);
	out(",\"cat\":\"wait\",\"args\":{\"layer\":%d,\"kind\":\"%s\",\"hw_ops\":%u,\"fallbacks\":%u,"
	    "\"cpu_bytes\":%" PRIu64 ",\"wrapper_cycles\":%" PRIu64 ",\"dp_cycles\":%" PRIu64 "}}",
	    layer_index, e1npu_ops_kind_name(r->kind), n, fallbacks, bytes[2], w, d);
	/* on the global clock when the device has one, else end to end */
	start = p1->global_cycles ? p0->global_cycles : dev_cursor;
	ws = ds = start;
	if (p1->global_cycles && w && d && p1->global_cycles - p0->global_cycles >= w + d) {
		/* the engines took turns: the one that ran first, then the other */
		if (first == (int)E1NPU_ENGINE_DATAPATH)
			ws += d;
		else
			ds += w;
	}
	end = start;
	if (w) {
		ws = dev_span(D_WRAPPER, name, ws, w);
		dev_args("wrapper", op, r, w, p1->wrapper_macs - p0->wrapper_macs, bytes[0]);
		end = dev_end[D_WRAPPER];
	}
	if (d) {
		ds = dev_span(D_DATAPATH, name, ds, d);
		dev_args("datapath", op, r, d, p1->dp_macs - p0->dp_macs, bytes[1]);
		if (dev_end[D_DATAPATH] > end)
			end = dev_end[D_DATAPATH];
	}
	if (w || d) {
		uint64_t s0 = w && d ? (ws < ds ? ws : ds) : w ? ws : ds;
		double len = (double)(end - s0);

		dev_counter("utilization (% busy)", s0, 100.0 * (double)w / len,
			    100.0 * (double)d / len);
		dev_counter("MACs per cycle", s0,
			    w ? (double)(p1->wrapper_macs - p0->wrapper_macs) / (double)w : 0,
			    d ? (double)(p1->dp_macs - p0->dp_macs) / (double)d : 0);
		dev_counter("utilization (% busy)", end, 0, 0);
		dev_counter("MACs per cycle", end, 0, 0);
	}
	dev_cursor = end;
out:
	pthread_mutex_unlock(&lock);
}
