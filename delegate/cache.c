// SPDX-License-Identifier: MIT
/*
 * The delegate's compiled-partition cache (cache.h). A file is read with
 * a size bound and checked in full by the library before anything in it
 * is used; it is replaced by writing a temporary file beside it and
 * renaming it over (readers see the old file or the new one, never half).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <e1npu/e1npu_tflite.h>

#include "cache.h"
#include "tflite_artifact.h"
#include "tflite_part.h"

/* A partition's file: header, 48 bytes per layer and packed weights; past this, not ours. */
#define CACHE_MAX_BYTES	((size_t)1 << 30)

int e1d_cache_dir_check(const char *dir, char *err, size_t errlen)
{
	struct stat st;

	if (!dir[0] || strlen(dir) > PATH_MAX - 80) {
		snprintf(err, errlen, "cache_dir '%.64s': empty or longer than %d bytes", dir,
			 PATH_MAX - 80);
		return -EINVAL;
	}
	if (stat(dir, &st)) {
		snprintf(err, errlen, "cache_dir '%s': %s", dir, strerror(errno));
		return -EINVAL;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "cache_dir '%s': not a directory", dir);
		return -EINVAL;
	}
	return 0;
}

/* Read @path whole (at most CACHE_MAX_BYTES): 0, or -errno / -EFBIG. */
static int read_bounded(const char *path, uint8_t **buf, size_t *size)
{
	struct stat st;
	size_t done = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	*buf = NULL;
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size < 0 ||
	    (uint64_t)st.st_size > CACHE_MAX_BYTES) {
		close(fd);
		return -EFBIG;
	}
	*size = (size_t)st.st_size;
	*buf = malloc(*size ? *size : 1);
	if (!*buf) {
		close(fd);
		return -ENOMEM;
	}
	while (done < *size) {
		ssize_t r = read(fd, *buf + done, *size - done);

		if (r <= 0) {
			free(*buf);
			*buf = NULL;
			close(fd);
			return r ? -errno : -EIO;
		}
		done += (size_t)r;
	}
	close(fd);
	return 0;
}

/* Write @buf to @path through a temporary file and rename(): 0 or -errno. */
static int write_atomic(const char *path, const void *buf, size_t size)
{
	char tmp[PATH_MAX];
	size_t done = 0;
	int fd, ret = 0;

	/* a name of its own: another thread or process may write the same file */
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp.XXXXXX", path) >= sizeof(tmp))
		return -ENAMETOOLONG;
	fd = mkstemp(tmp);
	if (fd < 0)
		return -errno;
	if (fchmod(fd, 0644))
		ret = -errno;
	while (!ret && done < size) {
		ssize_t w = write(fd, (const uint8_t *)buf + done, size - done);

		if (w <= 0)
			ret = w ? -errno : -EIO;
		else
			done += (size_t)w;
	}
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret)
		unlink(tmp);
	return ret;
}

/*
 * The stored forms of @file for a partition of @n layers with
 * fingerprint @fp on @dev, or NULL with the reason in @why.
 */
static struct ops_conv_choice *cached_forms(const uint8_t *file, size_t size, uint32_t n,
					    const uint8_t fp[32], struct e1npu_device *dev,
					    char *why, size_t whylen)
{
	struct tflite_art a;
	struct tflite_art_caps caps;

	if (tflite_art_parse(file, size, TFLITE_ART_KIND_PART, e1npu_api_version(), &a, why,
			     whylen))
		return NULL;
	if (memcmp(a.sha256, fp, 32)) {
		snprintf(why, whylen, "another partition's (its fingerprint differs)");
		return NULL;
	}
	tflite_art_caps_of(dev, &caps);
	if (tflite_art_check_caps(&a, &caps, why, whylen))
		return NULL;
	if (a.nlayers != n) {
		snprintf(why, whylen, "%u layers recorded, the partition has %u", a.nlayers, n);
		return NULL;
	}
	return tflite_art_choices(&a, why, whylen);
}

int e1d_cache_part_new(struct e1d *d, unsigned int part, const struct tfl_model *m,
		       const uint32_t *ops, uint32_t n, struct e1npu_tflite **tp,
		       char *err, size_t errlen)
{
	struct ops_conv_choice *forms = NULL;
	char path[PATH_MAX], why[320] = "", hex[65];
	uint8_t fp[32], *file = NULL;
	void *out = NULL;
	size_t size = 0, osize = 0;
	int ret;

	if (!d->cache_dir[0])
		return e1npu_tflite_part_new(d->ops, m, ops, n, tp, err, errlen);
	ret = tflite_part_fingerprint(m, ops, n, fp);
	if (ret)
		return e1npu_tflite_part_new(d->ops, m, ops, n, tp, err, errlen);
	for (int i = 0; i < 32; i++)
		snprintf(hex + 2 * i, 3, "%02x", fp[i]);
	if ((size_t)snprintf(path, sizeof(path), "%s/%s.e1npu", d->cache_dir, hex) >= sizeof(path)) {
		e1d_log(d, 0, "warning: partition %u: cache_dir path too long: running without the cache",
			part);
		return e1npu_tflite_part_new(d->ops, m, ops, n, tp, err, errlen);
	}
	ret = read_bounded(path, &file, &size);
	if (!ret)
		forms = cached_forms(file, size, n, fp, d->dev, why, sizeof(why));
	else if (ret == -EFBIG)
		snprintf(why, sizeof(why), "not a regular file of at most %zu bytes",
			 CACHE_MAX_BYTES);
	else if (ret != -ENOENT)
		snprintf(why, sizeof(why), "cannot read it: %s", strerror(-ret));
	if (forms) {
		/* the forms point into @file (packed weights): free it after */
		ret = tflite_part_new_chosen(d->ops, m, ops, n, forms, tp, why, sizeof(why));
		free(forms);
		free(file);
		if (!ret) {
			e1d_log(d, 1, "partition %u: loaded from cache %s", part, path);
			return 0;
		}
	} else {
		free(file);
	}
	/* first use, or the file did not fit: compile, then replace it */
	ret = e1npu_tflite_part_new(d->ops, m, ops, n, tp, err, errlen);
	if (ret)
		return ret;
	if (why[0])
		e1d_log(d, 1, "partition %u: cache %s: %s: compiled again", part, path, why);
	ret = tflite_part_compile(*tp, fp, &out, &osize);
	if (!ret)
		ret = write_atomic(path, out, osize);
	free(out);
	if (ret)
		e1d_log(d, 0, "warning: partition %u: cache %s not written: %s (running without it)",
			part, path, strerror(-ret));
	else
		e1d_log(d, 1, "partition %u: compiled into cache %s (%zu bytes)", part, path, osize);
	return 0;
}
