/* SPDX-License-Identifier: MIT */
/*
 * The tools' step-by-step progress line: on stderr, only when stderr is a
 * terminal, erased when done and on Ctrl-C.
 */
#ifndef __E1NPU_TOOL_COMMON_PROGRESS_H__
#define __E1NPU_TOOL_COMMON_PROGRESS_H__

/* progress_start() - decide (isatty) and arm the SIGINT/SIGTERM eraser. */
void progress_start(void);
/* progress_step() - "[i/n] what" over the previous line. */
void progress_step(unsigned int i, unsigned int n, const char *what);
/* progress_end() - erase the line, disarm. */
void progress_end(void);

#endif
