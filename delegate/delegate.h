/* SPDX-License-Identifier: MIT */
/* The e1npu TFLite delegate's state, shared by delegate.c and kernel.c. */
#ifndef __E1NPU_DELEGATE_H__
#define __E1NPU_DELEGATE_H__

#include <stdbool.h>

#include <e1npu/e1npu.h>
#include <e1npu/e1npu_ops.h>

#include "tflite_abi.h"
#include "view.h"

#define E1D_MAX_BUILTIN	256

struct e1d {
	struct tflc_delegate base;	/* handed to TFLite; data_ points here */
	struct e1npu_device *dev;
	struct e1npu_ops *ops;		/* one lowering context for every partition */
	char device[256];		/* option device: sim, auto or a path */
	int log_level;			/* 0 errors, 1 summary, 2 per node */
	bool skip[E1D_MAX_BUILTIN];	/* option skip_ops: builtin codes kept on TFLite */
	unsigned int partitions;	/* kernels created by the last Prepare */
	char cache_dir[4096];		/* option cache_dir: compiled partitions (cache.c), "" none */
};

__attribute__((format(printf, 3, 4)))
void e1d_log(const struct e1d *d, int level, const char *fmt, ...);

/* The delegate kernel: one per partition (kernel.c). */
void *e1d_kernel_init(struct tflc_context *ctx, const char *buffer, size_t length);
void e1d_kernel_free(struct tflc_context *ctx, void *buffer);
tfl_status e1d_kernel_prepare(struct tflc_context *ctx, struct tflc_node *node);
tfl_status e1d_kernel_invoke(struct tflc_context *ctx, struct tflc_node *node);

#endif /* __E1NPU_DELEGATE_H__ */
