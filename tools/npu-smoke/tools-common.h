/* SPDX-License-Identifier: MIT */
/*
 * Helpers shared by npu-smoke's subcommands: diagnostics prefixed with the
 * program name, the common options, JSON strings. Not a stable interface;
 * uses only the public <e1npu/e1npu.h>.
 */
#ifndef __NPU_SMOKE_COMMON_H__
#define __NPU_SMOKE_COMMON_H__

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <e1npu/e1npu.h>

#define PRINTF(a, b)	__attribute__((format(printf, a, b)))
#define NORETURN	__attribute__((noreturn))

#define NPU_SMOKE_VERSION	E1NPU_VERSION	/* the top Makefile's */

/* Options every subcommand accepts (also before the subcommand). */
struct common_opts {
	const char *device;	/* --device, NULL: E1NPU_DEVICE / auto */
	bool json;		/* --json */
	bool progress;		/* --progress (default: stderr is a tty) */
	const char *trace;	/* --trace FILE, NULL: $E1NPU_TRACE or none */
};

extern const char *prog_name;

/* Exit status, the same in e1npu-classify and e1npu-hlo. */
enum { EXIT_RUN = 1, EXIT_USAGE = 2 };

void print_error(const char *fmt, ...) PRINTF(1, 2);
/* Fatal: message on stderr (and {"error": ...} on stdout after --json), exit 1. */
void die(const char *fmt, ...) PRINTF(1, 2) NORETURN;
/* The same for bad usage or input (options, operands, environment): exit 2. */
void die_usage(const char *fmt, ...) PRINTF(1, 2) NORETURN;
/*
 * At startup: make a failed write to stdout exit 1 (checked at exit); a
 * --json anywhere in @argv makes fatal errors JSON from the start.
 */
void tools_init(int argc, char **argv);
/* Die when a subcommand got operands (@first: parse_common's result). */
void no_operands(int argc, char **argv, int first);
/* A whole number in [@min, @max] for option @opt, else die_usage naming both. */
unsigned long parse_uint_or_die(const char *opt, const char *s, unsigned long min,
				unsigned long max);

/*
 * Open the device or die with the library's message. Auto-detection that
 * found no NPU says so on stderr (the results are the model's).
 */
struct e1npu_device *open_device_or_die(const struct common_opts *o);
/* The device's name for the output: "sim" or its node. */
const char *device_name(struct e1npu_device *dev);

/* Print @s as a JSON string (quoted, escaped). */
void json_str(FILE *f, const char *s);

/*
 * "\r[i/n] what" on stderr when progress is on (erased on SIGINT/SIGTERM
 * too); progress_done() ends it.
 */
void progress(const struct common_opts *o, unsigned int i, unsigned int n,
	      const char *what);
void progress_done(const struct common_opts *o);
bool progress_enabled(const struct common_opts *o);

double now_us(void);

/*
 * trace-opt.c: trace into @path from now on (NULL: nothing), over
 * $E1NPU_TRACE; closed and checked at exit. Dies with exit 2 when @path
 * cannot be opened, or was another file before.
 */
void trace_opt_start(const char *path);

/*
 * @fn runs before die_usage() exits (NULL: nothing): whoever opened an
 * output (the trace) registers how to drop it, so bad input leaves files
 * as they were without this file knowing about them.
 */
void on_usage_error(void (*fn)(void));

/* Subcommands: argc/argv start at the subcommand name. */
int cmd_info(int argc, char **argv, struct common_opts *o);
int cmd_ping(int argc, char **argv, struct common_opts *o);
int cmd_smoke(int argc, char **argv, struct common_opts *o);
int cmd_bench(int argc, char **argv, struct common_opts *o);
int cmd_perf(int argc, char **argv, struct common_opts *o);
int cmd_ops(int argc, char **argv, struct common_opts *o);

/*
 * getopt_long over the common options plus @extra (may be NULL); calls
 * @handle for options not common. Returns the index of the first operand.
 */
struct option;
int parse_common(int argc, char **argv, struct common_opts *o,
		 const char *extra_short, const struct option *extra,
		 int (*handle)(int c, const char *arg, void *ctx), void *ctx,
		 void (*help)(void));

#endif
