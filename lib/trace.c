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
 *   pid 2 "device": the modelled clock, cycles / clock_mhz microseconds
 *     tid 1 wrapper, tid 2 datapath: each run's perf-counter cycle
 *     deltas, laid end to end from 0 in submission order
 *
 * A span never starts before the previous one on its track ends (clamped),
 * so no track overlaps itself. One mutex: any thread may trace.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <e1npu/e1npu.h>

#include "e1_timing.h"
#include "trace.h"

enum { T_LAYERS = 1, T_LOWER, T_SUBMIT, T_WAIT, T_HOSTOPS, T_NTRACKS };
enum { D_WRAPPER = 1, D_DATAPATH, D_NTRACKS };

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int state;		/* 0: $E1NPU_TRACE not looked at, 1 on, -1 off */
static FILE *fp;
static char path[4096];
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

static int open_locked(const char *p, char *err, size_t errlen)
{
	snprintf(path, sizeof(path), "%s", p);
	fp = fopen(p, "w");
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
	    "\"device_clock\":\"pid 2: the modelled clock: ts and dur are perf-counter cycles / "
	    "device_clock_mhz; each command-buffer run's spans start when the previous run's "
	    "end on both engines (end to end from 0), not at the host time of its submit: "
	    "args.host_submit_us gives that\","
	    "\"device_clock_mhz\":%u,\"wrapper_cycles\":%" PRIu64 ",\"dp_cycles\":%" PRIu64 "}}\n",
	    (unsigned int)E1_TIMING_CLOCK_MHZ, sum_cycles[D_WRAPPER], sum_cycles[D_DATAPATH]);
	e = write_err;
	if (fflush(fp) && !e)
		e = errno ? errno : EIO;
	if (fclose(fp) && !e)
		e = errno ? errno : EIO;
	fp = NULL;
	state = -1;
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
	ret = open_locked(p, err, errlen);
	pthread_mutex_unlock(&lock);
	return ret;
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
		if (p && *p && !open_locked(p, NULL, 0))
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

static void dev_span(int tid, const char *name, uint64_t start, uint64_t cycles)
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

void e1npu_trace_hw(uint32_t kind, uint64_t t_lower, uint64_t t_submit, uint64_t t_wait,
		    uint64_t t_done, uint64_t wrapper_cycles, uint64_t dp_cycles,
		    uint32_t hw_ops, uint32_t fallbacks)
{
	char name[96];
	uint64_t start, end;

	if (!e1npu_trace_on())
		return;
	pthread_mutex_lock(&lock);
	if (!fp)
		goto out;
	if (layer_index >= 0)
		snprintf(name, sizeof(name), "%s (layer %d)", layer_name, layer_index);
	else
		snprintf(name, sizeof(name), "%s", e1npu_ops_kind_name(kind));
	host_span(T_LOWER, name, t_lower, t_submit);
	out(",\"cat\":\"lowering\",\"args\":{\"kind\":\"%s\",\"hw_ops\":%u}}",
	    e1npu_ops_kind_name(kind), hw_ops);
	host_span(T_SUBMIT, name, t_submit, t_wait);
	out(",\"cat\":\"submit\",\"args\":{\"kind\":\"%s\",\"hw_ops\":%u}}",
	    e1npu_ops_kind_name(kind), hw_ops);
	host_span(T_WAIT, name, t_wait, t_done);
	out(",\"cat\":\"wait\",\"args\":{\"kind\":\"%s\",\"hw_ops\":%u,\"fallbacks\":%u,"
	    "\"wrapper_cycles\":%" PRIu64 ",\"dp_cycles\":%" PRIu64 "}}",
	    e1npu_ops_kind_name(kind), hw_ops, fallbacks, wrapper_cycles, dp_cycles);
	start = dev_cursor;
	end = start;
	if (wrapper_cycles) {
		dev_span(D_WRAPPER, name, start, wrapper_cycles);
		out(",\"cat\":\"device\",\"args\":{\"engine\":\"wrapper\",\"kind\":\"%s\","
		    "\"cycles\":%" PRIu64 ",\"host_submit_us\":%.3f}}", e1npu_ops_kind_name(kind),
		    wrapper_cycles, (double)(t_submit > base_ns ? t_submit - base_ns : 0) / 1000.0);
		end = dev_end[D_WRAPPER];
	}
	if (dp_cycles) {
		dev_span(D_DATAPATH, name, start, dp_cycles);
		out(",\"cat\":\"device\",\"args\":{\"engine\":\"datapath\",\"kind\":\"%s\","
		    "\"cycles\":%" PRIu64 ",\"host_submit_us\":%.3f}}", e1npu_ops_kind_name(kind),
		    dp_cycles, (double)(t_submit > base_ns ? t_submit - base_ns : 0) / 1000.0);
		if (dev_end[D_DATAPATH] > end)
			end = dev_end[D_DATAPATH];
	}
	dev_cursor = end;
out:
	pthread_mutex_unlock(&lock);
}
