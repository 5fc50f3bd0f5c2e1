// SPDX-License-Identifier: MIT
/*
 * NumPy .npy writer (version 1.0) for --output: the inverse of npy.c's
 * reader, checked up to fclose() so a full disk is an error, not a
 * truncated file.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "files.h"
#include "npy.h"

/* MLIR element type -> .npy descr: i2/i4 are held one per byte, as i8. */
static const char *descr_of(const char *dtype)
{
	static const struct { const char *dtype, *descr; } map[] = {
		{ "i1", "|b1" }, { "i2", "|i1" }, { "i4", "|i1" }, { "i8", "|i1" },
		{ "i16", "<i2" }, { "i32", "<i4" }, { "i64", "<i8" }, { "ui2", "|u1" },
		{ "ui4", "|u1" }, { "ui8", "|u1" }, { "ui16", "<u2" }, { "ui32", "<u4" },
		{ "ui64", "<u8" }, { "f16", "<f2" }, { "f32", "<f4" }, { "f64", "<f8" },
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(map[i].dtype, dtype))
			return map[i].descr;
	return NULL;
}

int npy_write(const char *path, const char *dtype, uint32_t rank, const uint64_t *dims,
	      const void *data, size_t size, char *err, size_t errlen)
{
	const char *descr = descr_of(dtype);
	char hdr[512];
	size_t o, pad;
	FILE *f;
	bool bad;
	int e;

	if (!descr) {
		snprintf(err, errlen, "%s: element type %s has no .npy equivalent", path, dtype);
		return -EINVAL;
	}
	o = (size_t)snprintf(hdr, sizeof(hdr), "{'descr': '%s', 'fortran_order': False, 'shape': (",
			     descr);
	for (uint32_t i = 0; i < rank && o < sizeof(hdr) - 64; i++)
		o += (size_t)snprintf(hdr + o, sizeof(hdr) - o, "%llu,%s",
				      (unsigned long long)dims[i], i + 1 < rank ? " " : "");
	o += (size_t)snprintf(hdr + o, sizeof(hdr) - o, "), }");
	/* the header, with its 10 bytes of preamble, ends on 64 bytes with '\n' */
	pad = 63 - (10 + o) % 64;
	memset(hdr + o, ' ', pad);
	o += pad;
	hdr[o++] = '\n';
	f = fopen(path, "wb");
	if (!f) {
		e = errno;
		snprintf(err, errlen, "%s: %s", path, strerror(e));
		return -e;
	}
	bad = fwrite("\x93NUMPY\x01\x00", 1, 8, f) != 8 || fputc((int)(o & 0xff), f) == EOF ||
	      fputc((int)(o >> 8), f) == EOF || fwrite(hdr, 1, o, f) != o ||
	      fwrite(data, 1, size, f) != size;
	return cls_finish_write(f, bad, path, err, errlen);
}
