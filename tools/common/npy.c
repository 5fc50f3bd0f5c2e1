// SPDX-License-Identifier: MIT
/*
 * NumPy .npy reader: the magic, a version, a header dict with 'descr',
 * 'fortran_order' and 'shape', then the raw array. Only little-endian (or
 * byte-sized) C-order arrays of the types StableHLO has.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "npy.h"
#include "readfile.h"

static const struct {
	const char *descr, *dtype;
	size_t size;
} types[] = {
	{ "|b1", "i1", 1 }, { "|i1", "i8", 1 }, { "<i2", "i16", 2 }, { "<i4", "i32", 4 },
	{ "<i8", "i64", 8 }, { "|u1", "ui8", 1 }, { "<u2", "ui16", 2 }, { "<u4", "ui32", 4 },
	{ "<u8", "ui64", 8 }, { "<f2", "f16", 2 }, { "<f4", "f32", 4 }, { "<f8", "f64", 8 },
};

static const char *dict_value(const char *h, const char *key)
{
	const char *p = strstr(h, key);

	if (!p)
		return NULL;
	p = strchr(p + strlen(key), ':');
	if (!p)
		return NULL;
	p++;
	while (*p == ' ')
		p++;
	return p;
}

int npy_read(const char *path, struct npy *n, char *err, size_t errlen)
{
	/* a directory, FIFO, device or unreadable file: the cause */
	int fd = e1npu_open_regular(path, err, errlen);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "rb");
	unsigned char pre[12];
	char *hdr = NULL;
	size_t hlen, esz = 0, count = 1;
	const char *v;
	int ret = -EINVAL;

	memset(n, 0, sizeof(*n));
	if (fd < 0)
		return fd;
	if (!f) {
		int e = errno;

		close(fd);
		snprintf(err, errlen, "%s: %s", path, strerror(e));
		return -e;
	}
	if (fgetc(f) == EOF) {
		int e = ferror(f) ? (errno ? errno : EIO) : 0;

		snprintf(err, errlen, "%s: %s", path, e ? strerror(e) : "empty file");
		fclose(f);
		return e ? -e : -ENODATA;
	}
	rewind(f);
	if (fread(pre, 1, 10, f) != 10 || memcmp(pre, "\x93NUMPY", 6)) {
		snprintf(err, errlen, "%s: not a .npy file", path);
		goto out;
	}
	if (pre[6] == 1) {
		hlen = pre[8] | (size_t)pre[9] << 8;
	} else if (pre[6] == 2 || pre[6] == 3) {
		if (fread(pre + 10, 1, 2, f) != 2)
			goto short_read;
		hlen = pre[8] | (size_t)pre[9] << 8 | (size_t)pre[10] << 16 |
		       (size_t)pre[11] << 24;
	} else {
		snprintf(err, errlen, "%s: .npy version %u not supported", path, pre[6]);
		goto out;
	}
	if (hlen > 65536) {
		snprintf(err, errlen, "%s: header of %zu bytes", path, hlen);
		goto out;
	}
	hdr = calloc(1, hlen + 1);
	if (!hdr) {
		ret = -ENOMEM;
		goto out;
	}
	if (fread(hdr, 1, hlen, f) != hlen)
		goto short_read;
	v = dict_value(hdr, "'descr'");
	for (size_t i = 0; v && i < sizeof(types) / sizeof(types[0]); i++)
		if (v[0] == '\'' && !strncmp(v + 1, types[i].descr, 3) && v[4] == '\'') {
			snprintf(n->dtype, sizeof(n->dtype), "%s", types[i].dtype);
			esz = types[i].size;
		}
	if (!esz) {
		snprintf(err, errlen, "%s: unsupported dtype %.12s", path, v ? v : "(none)");
		goto out;
	}
	v = dict_value(hdr, "'fortran_order'");
	if (!v || strncmp(v, "False", 5)) {
		snprintf(err, errlen, "%s: only C-order arrays are supported", path);
		goto out;
	}
	v = dict_value(hdr, "'shape'");
	if (!v || *v != '(') {
		snprintf(err, errlen, "%s: no shape", path);
		goto out;
	}
	for (v++; *v && *v != ')';) {
		char *e;
		unsigned long long d = strtoull(v, &e, 10);

		if (e == v) {
			if (*v == ',' || *v == ' ') {
				v++;
				continue;
			}
			break;
		}
		if (n->rank >= NPY_MAX_RANK || d > (1u << 24) || (d && count > (1u << 24) / d)) {
			snprintf(err, errlen, "%s: shape too large", path);
			goto out;
		}
		n->dims[n->rank++] = d;
		count *= d;
		v = e;
	}
	n->size = count * esz;
	n->data = malloc(n->size ? n->size : 1);
	if (!n->data) {
		ret = -ENOMEM;
		goto out;
	}
	if (fread(n->data, 1, n->size, f) != n->size)
		goto short_read;
	ret = 0;
	goto out;
short_read:
	snprintf(err, errlen, "%s: file too short", path);
out:
	free(hdr);
	fclose(f);
	if (ret)
		npy_free(n);
	return ret;
}

void npy_free(struct npy *n)
{
	free(n->data);
	n->data = NULL;
}
