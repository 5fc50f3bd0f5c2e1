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
	struct stat st;
	uint8_t *data;
	size_t done = 0;
	int fd, ret;

	if (err && errlen)
		err[0] = 0;
	if (!path || !tp)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		if (err && errlen)
			snprintf(err, errlen, "%s: %s", path, strerror(-ret));
		return ret;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size > (1 << 30)) {
		ret = -EINVAL;
		if (err && errlen)
			snprintf(err, errlen, "%s: not a regular file of at most 1 GiB", path);
		close(fd);
		return ret;
	}
	data = malloc(st.st_size ? (size_t)st.st_size : 1);
	if (!data) {
		close(fd);
		return -ENOMEM;
	}
	while (done < (size_t)st.st_size) {
		ssize_t n = read(fd, data + done, (size_t)st.st_size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			ret = n < 0 ? -errno : -EIO;
			if (err && errlen)
				snprintf(err, errlen, "%s: read failed", path);
			free(data);
			close(fd);
			return ret;
		}
		done += (size_t)n;
	}
	close(fd);
	ret = e1npu_tflite_load_memory(dev, data, done, opt, tp, err, errlen);
	free(data);
	return ret;
}
