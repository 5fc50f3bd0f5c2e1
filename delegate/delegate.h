/* SPDX-License-Identifier: MIT */
/* The e1npu TFLite delegate's state, shared by delegate.c and kernel.c. */
#ifndef __E1NPU_DELEGATE_H__
#define __E1NPU_DELEGATE_H__

#include <stdbool.h>
#include <stdint.h>

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
	uint32_t ref_opt;		/* option tflite_ref: enum e1npu_tflite_ref, 0 auto */
	uint32_t ref;			/* what the kernels follow (version.c) */
	uint32_t ruy_single;		/* 2.14's ruy rounding here (tfl_ruy_flavour) */
	char tfl_version[32];		/* TfLiteVersion() of the TFLite that loaded us */
	/*
	 * its TfLiteResizeNearestNeighborParams has half_pixel_centers: read
	 * from 2.14 on (measured); 2.2's holds align_corners alone
	 */
	bool nn_half_field;
};

/*
 * version.c: which TFLite runs us (TfLiteVersion() of the library that
 * holds @ctx's functions) and so whose arithmetic the kernels follow:
 * sets d->ref (and d->tfl_version) unless option tflite_ref fixed it,
 * and d->nn_half_field from the version whatever the option says; and
 * d->ruy_single (tfl_ruy_flavour). -EINVAL with the message in @err for a
 * bad E1NPU_TFLITE_RUY.
 */
int e1d_version_detect(struct e1d *d, struct tflc_context *ctx, char *err, size_t errlen);

__attribute__((format(printf, 3, 4)))
void e1d_log(const struct e1d *d, int level, const char *fmt, ...);

/* The delegate kernel: one per partition (kernel.c). */
void *e1d_kernel_init(struct tflc_context *ctx, const char *buffer, size_t length);
void e1d_kernel_free(struct tflc_context *ctx, void *buffer);
tfl_status e1d_kernel_prepare(struct tflc_context *ctx, struct tflc_node *node);
tfl_status e1d_kernel_invoke(struct tflc_context *ctx, struct tflc_node *node);

#endif /* __E1NPU_DELEGATE_H__ */
