// SPDX-License-Identifier: MIT
/*
 * --trace FILE (trace-opt.h): one wording of its errors for every tool,
 * "--trace FILE: why", and the exit status of the convention (2: a file
 * that cannot be opened is bad input; 1: the run's trace was lost).
 */
#include "cli.h"
#include "errout.h"
#include "trace-opt.h"
#include "trace.h"

int cli_trace_start(bool json, const char *path)
{
	char err[4200];

	if (!path)
		return 0;
	if (e1npu_trace_open(path, err, sizeof(err))) {
		cls_error(json, "--trace %s", err);
		return EXIT_USAGE;
	}
	return 0;
}

int cli_trace_finish(bool json, const char *path, int status)
{
	char err[4200];

	if (path && status == EXIT_USAGE) {
		e1npu_trace_discard();	/* bad input changes nothing */
		return status;
	}
	if (path && e1npu_trace_close(err, sizeof(err))) {
		cls_error(json, "--trace %s", err);
		return EXIT_RUN;
	}
	return status;
}
