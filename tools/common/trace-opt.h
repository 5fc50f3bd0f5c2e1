/* SPDX-License-Identifier: MIT */
/*
 * --trace FILE, the same in every tool: the library's timeline trace
 * (lib/trace.c) opened on FILE before the run and checked through fclose
 * after it. Given, it takes precedence over $E1NPU_TRACE (which the
 * library then never opens).
 */
#ifndef __E1NPU_TOOL_COMMON_TRACE_OPT_H__
#define __E1NPU_TOOL_COMMON_TRACE_OPT_H__

#include <stdbool.h>

/*
 * cli_trace_start() - trace into @path (NULL: nothing to do).
 * Return: 0, or EXIT_USAGE after "--trace PATH: why".
 */
int cli_trace_start(bool json, const char *path);

/*
 * cli_trace_finish() - end the trace started on @path (NULL: nothing to
 * do) for a run that ends with @status: EXIT_USAGE (bad input) leaves
 * @path as it was, else it is written. Return: @status, or EXIT_RUN after
 * "--trace PATH: why" when the file could not be written whole (a full
 * disk).
 */
int cli_trace_finish(bool json, const char *path, int status);

#endif
