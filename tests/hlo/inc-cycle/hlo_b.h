/* SPDX-License-Identifier: MIT */
/* check-includes.sh fixture (see hlo_a.h). */
#include "hlo_a.h"
