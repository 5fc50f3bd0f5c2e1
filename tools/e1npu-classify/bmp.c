// SPDX-License-Identifier: MIT
/* 24-bit BMP reader (see image.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image.h"

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static int bad(char *err, size_t errlen, int ret, const char *msg)
{
	if (err && errlen)
		snprintf(err, errlen, "%s", msg);
	return ret;
}

int bmp_decode(const uint8_t *d, size_t size, struct image *img, char *err,
	       size_t errlen)
{
	uint32_t off, hsize, comp, w, h, stride;
	int32_t sw, sh;
	int top_down;

	memset(img, 0, sizeof(*img));
	if (size < 14 + 40)
		return bad(err, errlen, -EINVAL, "BMP: file too small for the headers");
	if (d[0] != 'B' || d[1] != 'M')
		return bad(err, errlen, -EINVAL, "BMP: missing \"BM\" signature");
	off = le32(d + 10);
	hsize = le32(d + 14);
	if (hsize != 40 && hsize != 52 && hsize != 56 && hsize != 108 && hsize != 124)
		return bad(err, errlen, -ENOTSUP, "BMP: info header is not BITMAPINFOHEADER/V4/V5");
	if (14 + (size_t)hsize > size)
		return bad(err, errlen, -EINVAL, "BMP: info header past end of file");
	sw = (int32_t)le32(d + 18);
	sh = (int32_t)le32(d + 22);
	if (le16(d + 26) != 1)
		return bad(err, errlen, -EINVAL, "BMP: planes is not 1");
	if (le16(d + 28) != 24)
		return bad(err, errlen, -ENOTSUP, "BMP: only 24 bits per pixel is supported");
	comp = le32(d + 30);
	if (comp != 0)
		return bad(err, errlen, -ENOTSUP, "BMP: compressed BMPs are not supported (BI_RGB only)");
	if (sw <= 0 || sh == 0 || sh == INT32_MIN || sw > IMAGE_MAX_DIM ||
	    (sh < 0 ? -sh : sh) > IMAGE_MAX_DIM)
		return bad(err, errlen, -EINVAL, "BMP: width/height out of range (1..16384)");
	top_down = sh < 0;
	w = (uint32_t)sw;
	h = (uint32_t)(sh < 0 ? -sh : sh);
	stride = (w * 3 + 3) & ~3u;
	if (off < 14 + hsize || off > size || (size_t)stride * h > size - off)
		return bad(err, errlen, -EINVAL, "BMP: pixel array offset/size past end of file");
	img->rgb = malloc((size_t)w * h * 3);
	if (!img->rgb)
		return bad(err, errlen, -ENOMEM, "BMP: out of memory");
	img->w = w;
	img->h = h;
	for (uint32_t y = 0; y < h; y++) {
		const uint8_t *row = d + off + (size_t)stride * (top_down ? y : h - 1 - y);
		uint8_t *o = img->rgb + (size_t)y * w * 3;

		for (uint32_t x = 0; x < w; x++) {
			o[3 * x + 0] = row[3 * x + 2];
			o[3 * x + 1] = row[3 * x + 1];
			o[3 * x + 2] = row[3 * x + 0];
		}
	}
	return 0;
}
