/* SPDX-License-Identifier: MIT */
/* The tools' input and output files, every error naming the file. */
#ifndef __E1NPU_TOOL_COMMON_FILES_H__
#define __E1NPU_TOOL_COMMON_FILES_H__

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * cls_read_file() - the whole of @path (1 GiB at most) in *@data (free()).
 * A directory, FIFO, socket or device, an unreadable or an empty file is
 * an error naming the cause ("PATH: is a directory", "PATH: empty file").
 */
int cls_read_file(const char *path, void **data, size_t *size, char *err,
		  size_t errlen);

/*
 * cls_write_file() - @size bytes to @path, checked through fwrite, fflush
 * and fclose: a full disk is an error ("PATH: No space left on device").
 */
int cls_write_file(const char *path, const void *data, size_t size, char *err,
		   size_t errlen);

/*
 * cls_finish_write() - fflush and fclose @f after writing @path (@failed: a
 * write already failed), so a full disk shows: 0, or -errno with
 * "PATH: why" in @err. @f is closed either way.
 */
int cls_finish_write(FILE *f, bool failed, const char *path, char *err, size_t errlen);

#endif
