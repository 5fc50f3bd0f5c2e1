/* SPDX-License-Identifier: MIT */
/*
 * Reading input files, for the library's *_load_file() and the tools
 * (which link libe1npu.a). Every error names the file and the cause: a
 * directory, a FIFO, socket or device (refused by kind, a FIFO without
 * blocking), the system's reason (strerror), an empty file, a file larger
 * than the caller's limit. Not installed, not exported.
 */
#ifndef __E1NPU_READFILE_H__
#define __E1NPU_READFILE_H__

#include <stddef.h>

/*
 * e1npu_open_regular() - open @path for reading if it is a regular file:
 * a file descriptor (O_CLOEXEC, blocking), or -errno with "PATH: why" in
 * @err (EISDIR: a directory; EINVAL: a FIFO, socket or device).
 */
int e1npu_open_regular(const char *path, char *err, size_t errlen);

/*
 * e1npu_read_file() - the whole of regular file @path, at most @max bytes,
 * in *@data (malloc'd, one zero byte past the end so text can be parsed in
 * place; free()) and *@size. 0, or -errno with "PATH: why" in @err
 * (-ENODATA: an empty file; -EFBIG: larger than @max).
 */
int e1npu_read_file(const char *path, size_t max, void **data, size_t *size,
		    char *err, size_t errlen);

#endif
