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
#include "readfile.h"

int cls_read_file(const char *path, void **data, size_t *size, char *err,
		  size_t errlen)
{
	/* the library's reader: a directory, FIFO, device, unreadable or
	 * empty file is refused with the cause named (lib/readfile.h) */
	return e1npu_read_file(path, (size_t)1 << 30, data, size, err, errlen);
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
