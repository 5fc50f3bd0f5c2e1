// SPDX-License-Identifier: (GPL-2.0-only OR MIT)
/*
 * The shared validator compiled into the KUnit module as well (Kbuild
 * wants every object of a module to be its own file; its symbols stay
 * local to each module).
 */
#include "e1npu_opcheck.c"
