// SPDX-License-Identifier: GPL-2.0-only
/*
 * e1npu_sim.ko is a composite module (the simulator plus the device model
 * sources), and Kbuild does not allow a composite module to contain an
 * object of its own name: the simulator proper, e1npu_sim.c, is compiled
 * through this wrapper.
 */
#include "e1npu_sim.c"
