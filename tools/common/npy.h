/* SPDX-License-Identifier: MIT */
/* The tools' reader and writer of NumPy .npy files (version 1-3, C order). */
#ifndef __E1NPU_TOOL_COMMON_NPY_H__
#define __E1NPU_TOOL_COMMON_NPY_H__

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

/*
 * npy_write() - @data (@size bytes, little-endian, row-major, MLIR element
 * type @dtype) as a .npy file. 0, or -errno with "PATH: why" in @err (a
 * full disk included: checked through fclose).
 */
int npy_write(const char *path, const char *dtype, uint32_t rank, const uint64_t *dims,
	      const void *data, size_t size, char *err, size_t errlen);

#endif
