// SPDX-License-Identifier: MIT
/*
 * Reading input files with errors that say why (lib/readfile.h). The file
 * is opened O_NONBLOCK, so a FIFO with no writer does not hang the open,
 * then refused by its kind from fstat() before anything is read.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "readfile.h"

static void say(char *err, size_t errlen, const char *path, const char *why)
{
	if (err && errlen)
		snprintf(err, errlen, "%s: %s", path, why);
}

static const char *kind(mode_t m)
{
	if (S_ISDIR(m))
		return "is a directory";
	if (S_ISFIFO(m))
		return "is a FIFO, not a regular file";
	if (S_ISSOCK(m))
		return "is a socket, not a regular file";
	if (S_ISCHR(m))
		return "is a character device, not a regular file";
	if (S_ISBLK(m))
		return "is a block device, not a regular file";
	return "is not a regular file";
}

int e1npu_open_regular(const char *path, char *err, size_t errlen)
{
	struct stat st;
	int fd, fl, e;

	if (!path) {
		if (err && errlen)
			snprintf(err, errlen, "no file name");
		return -EINVAL;
	}
	/* by kind first: open() of a socket fails (ENXIO), of a FIFO with no
	 * writer would block without O_NONBLOCK */
	if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
		say(err, errlen, path, kind(st.st_mode));
		return S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		e = errno;
		say(err, errlen, path, e == EISDIR ? "is a directory" : strerror(e));
		return -e;
	}
	if (fstat(fd, &st)) {
		e = errno;
		say(err, errlen, path, strerror(e));
		close(fd);
		return -e;
	}
	if (!S_ISREG(st.st_mode)) {
		say(err, errlen, path, kind(st.st_mode));
		close(fd);
		return S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	}
	fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
		e = errno;
		say(err, errlen, path, strerror(e));
		close(fd);
		return -e;
	}
	return fd;
}

int e1npu_read_file(const char *path, size_t max, void **data, size_t *size,
		    char *err, size_t errlen)
{
	struct stat st;
	size_t want, done = 0;
	char big[64];
	uint8_t *buf;
	int fd, e;

	*data = NULL;
	*size = 0;
	fd = e1npu_open_regular(path, err, errlen);
	if (fd < 0)
		return fd;
	if (fstat(fd, &st)) {
		e = errno;
		say(err, errlen, path, strerror(e));
		close(fd);
		return -e;
	}
	if (st.st_size == 0) {
		say(err, errlen, path, "empty file");
		close(fd);
		return -ENODATA;
	}
	if ((unsigned long long)st.st_size > max) {
		snprintf(big, sizeof(big), "larger than %zu bytes (%lld)", max,
			 (long long)st.st_size);
		say(err, errlen, path, big);
		close(fd);
		return -EFBIG;
	}
	want = (size_t)st.st_size;
	buf = malloc(want + 1);
	if (!buf) {
		say(err, errlen, path, strerror(ENOMEM));
		close(fd);
		return -ENOMEM;
	}
	while (done < want) {
		ssize_t n = read(fd, buf + done, want - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			e = errno;
			say(err, errlen, path, strerror(e));
			free(buf);
			close(fd);
			return -e;
		}
		if (n == 0)	/* shrank while read: what is there */
			break;
		done += (size_t)n;
	}
	close(fd);
	if (!done) {
		free(buf);
		say(err, errlen, path, "empty file");
		return -ENODATA;
	}
	buf[done] = 0;
	*data = buf;
	*size = done;
	return 0;
}
