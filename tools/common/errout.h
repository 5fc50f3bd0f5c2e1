/* SPDX-License-Identifier: MIT */
/* The tools' diagnostics: stderr, and JSON on stdout with --json. */
#ifndef __E1NPU_TOOL_COMMON_ERROUT_H__
#define __E1NPU_TOOL_COMMON_ERROUT_H__

#include <stdbool.h>

/*
 * cls_set_prog() - the tool's name that starts every message ("e1npu-tflite"),
 * set first thing in main(): one library, several tools.
 */
void cls_set_prog(const char *name);
/* The name cls_set_prog() set. */
const char *cls_prog(void);

/* "PROG: MSG" on stderr; {"error": "MSG"} on stdout when @json. */
void cls_error(bool json, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * "PATH: MSG" where the library's @msg does not already start with @path
 * (load messages name the file themselves: say it once).
 */
void cls_file_error(bool json, const char *path, const char *msg);

/* @s as a JSON string literal on stdout. */
void cls_json_str(const char *s);

/*
 * --json anywhere before "--": errors found while parsing the options that
 * precede it are JSON too.
 */
bool cls_json_requested(int argc, char **argv);

/* Flush and close stdout: 0, or 1 after a message when a write failed. */
int cls_close_stdout(void);

#endif
