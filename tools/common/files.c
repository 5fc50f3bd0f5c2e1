// SPDX-License-Identifier: MIT
/*
 * The tools: reading and writing whole files. A write is checked up
 * to fclose(): stdio buffers, so /dev/full fails only there.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "files.h"

int cls_read_file(const char *path, void **data, size_t *size, char *err,
		  size_t errlen)
{
	FILE *f = fopen(path, "rb");
	long n;
	int ret;

	*data = NULL;
	*size = 0;
	if (!f) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return ret;
	}
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || n > (1L << 30) ||
	    fseek(f, 0, SEEK_SET)) {
		fclose(f);
		snprintf(err, errlen, "%s: not a regular file of at most 1 GiB", path);
		return -EINVAL;
	}
	*data = malloc(n ? (size_t)n : 1);
	if (!*data) {
		fclose(f);
		snprintf(err, errlen, "%s: out of memory for %ld bytes", path, n);
		return -ENOMEM;
	}
	if (fread(*data, 1, (size_t)n, f) != (size_t)n) {
		ret = ferror(f) ? -EIO : -EINVAL;
		fclose(f);
		free(*data);
		*data = NULL;
		snprintf(err, errlen, "%s: read error", path);
		return ret;
	}
	fclose(f);
	*size = (size_t)n;
	return 0;
}

int cls_write_file(const char *path, const void *data, size_t size, char *err,
		   size_t errlen)
{
	FILE *f = fopen(path, "wb");
	bool bad;
	int e;

	if (!f) {
		e = errno;
		snprintf(err, errlen, "%s: %s", path, strerror(e));
		return -e;
	}
	bad = fwrite(data, 1, size, f) != size;
	return cls_finish_write(f, bad, path, err, errlen);
}

int cls_finish_write(FILE *f, bool failed, const char *path, char *err, size_t errlen)
{
	int e = 0;

	if (failed || fflush(f))
		e = errno ? errno : EIO;
	if (fclose(f) && !e)
		e = errno ? errno : EIO;
	if (e) {
		snprintf(err, errlen, "%s: %s", path, strerror(e));
		return -e;
	}
	return 0;
}
