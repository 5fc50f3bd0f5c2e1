// SPDX-License-Identifier: GPL-2.0-only
/*
 * Builds model/e1_timing.c into e1npu_sim.ko: Kbuild wants the module's objects in
 * the module directory, so each device model source gets a one-line wrapper.
 */
#include "../model/e1_timing.c"
