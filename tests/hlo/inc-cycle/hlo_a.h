/* SPDX-License-Identifier: MIT */
/* check-includes.sh fixture: hlo_a calls hlo_b, which calls hlo_a back. */
#include "hlo_b.h"
