/* SPDX-License-Identifier: GPL-2.0-only */
/* e1 NPU hardware control (e1npu_hwctl.c) and the wrapper ring (e1npu_ring.c). */
#ifndef __E1NPU_RING_H__
#define __E1NPU_RING_H__

#include <linux/types.h>

struct e1npu_device;
struct e1npu_job;
struct list_head;

/* e1npu_hwctl.c */
void e1npu_hw_init(struct e1npu_device *edev);
void e1npu_hw_ring_program(struct e1npu_device *edev);
int e1npu_hw_flush(struct e1npu_device *edev);
int e1npu_hw_reset(struct e1npu_device *edev);
void e1npu_wedge(struct e1npu_device *edev, struct list_head *jobs,
		 struct e1npu_job *extra);
int e1npu_hw_reset_line(struct e1npu_device *edev);
bool e1npu_hw_reset_pulse(struct e1npu_device *edev);
void e1npu_hw_resume(struct e1npu_device *edev);
int e1npu_hw_suspend(struct e1npu_device *edev);
void e1npu_dp_idle(struct e1npu_device *edev);
void e1npu_hw_pinned_release(struct e1npu_device *edev);

/* e1npu_ring.c */
void e1npu_ring_push(struct e1npu_device *edev, struct e1npu_job *job);
void e1npu_ring_retire_locked(struct e1npu_device *edev);
void e1npu_ring_retire(struct e1npu_device *edev);
void e1npu_ring_take_all(struct e1npu_device *edev, struct list_head *jobs);
void e1npu_ring_service(struct e1npu_device *edev);
void e1npu_ring_timeout(struct e1npu_device *edev, struct e1npu_job *bad);
void e1npu_ring_fini(struct e1npu_device *edev, bool powered);

#endif /* __E1NPU_RING_H__ */
