/* SPDX-License-Identifier: MIT */
/* e1npu-tflite's input and output files, every error naming the file. */
#ifndef __E1NPU_TFLITE_TOOL_FILES_H__
#define __E1NPU_TFLITE_TOOL_FILES_H__

#include <stddef.h>

/* cls_read_file() - the whole of @path (1 GiB at most) in *@data (free()). */
int cls_read_file(const char *path, void **data, size_t *size, char *err,
		  size_t errlen);

/*
 * cls_write_file() - @size bytes to @path, checked through fwrite, fflush
 * and fclose: a full disk is an error ("PATH: No space left on device").
 */
int cls_write_file(const char *path, const void *data, size_t size, char *err,
		   size_t errlen);

#endif
