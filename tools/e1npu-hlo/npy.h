/* SPDX-License-Identifier: MIT */
/* e1npu-hlo's reader of NumPy .npy files (version 1-3, C order). */
#ifndef __E1NPU_HLO_NPY_H__
#define __E1NPU_HLO_NPY_H__

#include <stddef.h>
#include <stdint.h>

#define NPY_MAX_RANK 8

struct npy {
	char dtype[8];		/* MLIR spelling: "i8", "f32", ... */
	uint32_t rank;
	uint64_t dims[NPY_MAX_RANK];
	void *data;		/* little-endian, row-major */
	size_t size;
};

/* npy_read() - 0, or -errno with a message in @err. */
int npy_read(const char *path, struct npy *n, char *err, size_t errlen);
void npy_free(struct npy *n);

#endif
