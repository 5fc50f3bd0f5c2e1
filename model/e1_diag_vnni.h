/* SPDX-License-Identifier: (GPL-2.0-only OR MIT) */
/*
 * e1 NPU device model: the AVX-512 VNNI block-diagonal CONV2D
 * (e1_diag_vnni.c), which e1_v0.c's exec_conv_diag takes when
 * e1_diag4_plan accepts the layer; x86-64 user space only.
 */
#ifndef __E1_DIAG_VNNI_H__
#define __E1_DIAG_VNNI_H__

#include "e1_v0.h"
#include "e1_matmul.h"

#ifdef E1_MM_X86
/* After conv_diag_plan: pack the weights for it, or false (not taken). */
bool e1_diag4_plan(const struct v0_op *d, struct e1_mm_ws *ws);
/* Expand input row @row into cache slot @slot. */
void e1_diag4_expand(const struct v0_op *d, const s8 *row, struct e1_mm_ws *ws,
		     u32 nrun, u32 slot);
/* The expanded row in slot @slot. */
const void *e1_diag4_slot(const struct e1_mm_ws *ws, u32 slot);
/* One output row into @crow from the expanded kernel rows @e. */
void e1_diag4_row(const struct v0_op *d, const void *const *e, const struct e1_mm_ws *ws,
		  u8 *crow);
#endif

#endif /* __E1_DIAG_VNNI_H__ */
