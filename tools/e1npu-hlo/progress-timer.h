/* SPDX-License-Identifier: MIT */
/*
 * e1npu-hlo's progress line for long runs: on stderr, only when stderr is
 * a terminal, from half a second on, erased at the end and on Ctrl-C.
 * The library runs a module in one call: a timer draws the elapsed time
 * and the checks done so far.
 */
#ifndef __E1NPU_HLO_PROGRESS_TIMER_H__
#define __E1NPU_HLO_PROGRESS_TIMER_H__

/* progress_timer_start() - arm the timer and the SIGINT/SIGTERM eraser. */
void progress_timer_start(void);
/* progress_timer_check() - one more check ran (from the check callback). */
void progress_timer_check(void);
/* progress_timer_end() - stop the timer, erase the line. */
void progress_timer_end(void);

#endif
