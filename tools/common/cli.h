/* SPDX-License-Identifier: MIT */
/* The tools' command-line conventions: exit status, --help/--version, options. */
#ifndef __E1NPU_TOOL_COMMON_CLI_H__
#define __E1NPU_TOOL_COMMON_CLI_H__

#include <stdbool.h>
#include <stdio.h>

/* Exit status, the same in every tool (npu-smoke's tools-common.h too). */
enum { EXIT_OK = 0, EXIT_RUN = 1, EXIT_USAGE = 2 };

/*
 * cli_help_or_version() - @usage(stdout), or "PROG VERSION" (cls_set_prog's
 * name, E1NPU_VERSION) when @version; stdout checked up to fclose (a full
 * disk is not a success). Return: EXIT_OK or EXIT_RUN, for exit().
 */
int cli_help_or_version(bool version, void (*usage)(FILE *f));

/*
 * cli_set_once() - *@slot = @v for option @opt, unless it was given before:
 * then "OPT given twice ('A' and 'B')". Return: 0 or EXIT_USAGE.
 */
int cli_set_once(bool json, const char *opt, const char **slot, const char *v);

/*
 * cli_bad_option() - after getopt's own message on stderr: "Try 'PROG
 * --help'." (with @json, an {"error": ...} document saying so).
 * Return: EXIT_USAGE.
 */
int cli_bad_option(bool json);

#endif
