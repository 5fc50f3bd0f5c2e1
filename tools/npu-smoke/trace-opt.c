// SPDX-License-Identifier: MIT
/*
 * npu-smoke --trace FILE: the library's timeline trace (lib/trace.c) on
 * FILE, opened when the options are parsed and checked through fclose at
 * exit (every subcommand ends in exit(), die() included); die_usage()
 * discards it first, so bad input leaves FILE as it was. The messages and
 * exit status are the other tools' (tools/common/trace-opt.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools-common.h"
#include "trace.h"

static const char *trace_path;

/* die_usage(): bad input leaves FILE as it was */
static void trace_opt_discard(void)
{
	if (trace_path)
		e1npu_trace_discard();
}

/* atexit: a trace that did not reach its file whole fails the run. */
static void trace_finish(void)
{
	char err[4200];

	if (!e1npu_trace_close(err, sizeof(err)))
		return;
	fflush(stdout);
	fprintf(stderr, "%s: --trace %s\n", prog_name, err);
	_exit(EXIT_RUN);
}

void trace_opt_start(const char *path)
{
	char err[4200];

	if (!path || (trace_path && !strcmp(trace_path, path)))
		return;
	if (trace_path)
		die_usage("--trace given twice ('%s' and '%s')", trace_path, path);
	if (e1npu_trace_open(path, err, sizeof(err)))
		die_usage("--trace %s", err);
	trace_path = path;
	on_usage_error(trace_opt_discard);
	atexit(trace_finish);
}
