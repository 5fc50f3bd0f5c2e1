// SPDX-License-Identifier: MIT
/*
 * The public load entry points: a model from memory or from a file, either
 * a .tflite (tflite_load.c) or the compiled-model artifact that
 * e1npu_tflite_compile() writes (tflite_artifact.c, which in turn loads
 * its embedded model through tflite_load.c with the stored lowerings).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "readfile.h"
#include "tflite_artifact.h"
#include "tflite_internal.h"

E1NPU_API int e1npu_tflite_load_memory(struct e1npu_device *dev, const void *data,
				       size_t size,
				       const struct e1npu_tflite_options *opt,
				       struct e1npu_tflite **tp, char *err,
				       size_t errlen)
{
	if (err && errlen)
		err[0] = 0;
	if (!tp || (!data && size))
		return -EINVAL;
	*tp = NULL;
	if (tflite_art_is(data, size))	/* e1npu_tflite_compile()'s output */
		return tflite_art_load(dev, data, size, opt, tp, err, errlen);
	return tflite_load_chosen(dev, data, size, opt, NULL, 0, tp, err, errlen);
}

E1NPU_API int e1npu_tflite_load_file(struct e1npu_device *dev, const char *path,
				     const struct e1npu_tflite_options *opt,
				     struct e1npu_tflite **tp, char *err,
				     size_t errlen)
{
	size_t done = 0;
	void *buf;
	int ret;

	if (err && errlen)
		err[0] = 0;
	if (!path || !tp)
		return -EINVAL;
	/* a directory, FIFO, device, unreadable or empty file: the cause */
	ret = e1npu_read_file(path, (size_t)1 << 30, &buf, &done, err, errlen);
	if (ret)
		return ret;
	ret = e1npu_tflite_load_memory(dev, buf, done, opt, tp, err, errlen);
	free(buf);
	return ret;
}
