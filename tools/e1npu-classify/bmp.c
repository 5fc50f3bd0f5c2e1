// SPDX-License-Identifier: MIT
/* 24-bit BMP reader and bilinear resize (see bmp.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bmp.h"

#define BMP_MAX_DIM	16384

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
	if (sw <= 0 || sh == 0 || sh == INT32_MIN || sw > BMP_MAX_DIM ||
	    (sh < 0 ? -sh : sh) > BMP_MAX_DIM)
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

int bmp_load(const char *path, struct image *img, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	uint8_t *data;
	long n;
	int ret;

	memset(img, 0, sizeof(*img));
	if (!f) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return ret;
	}
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || n > (1L << 30) ||
	    fseek(f, 0, SEEK_SET)) {
		fclose(f);
		snprintf(err, errlen, "%s: cannot size the file", path);
		return -EINVAL;
	}
	data = malloc(n ? (size_t)n : 1);
	if (!data) {
		fclose(f);
		return -ENOMEM;
	}
	if (fread(data, 1, (size_t)n, f) != (size_t)n) {
		free(data);
		fclose(f);
		snprintf(err, errlen, "%s: read error", path);
		return -EIO;
	}
	fclose(f);
	ret = bmp_decode(data, (size_t)n, img, err, errlen);
	free(data);
	return ret;
}

void image_free(struct image *img)
{
	free(img->rgb);
	img->rgb = NULL;
}

int image_resize_bilinear(const struct image *in, uint32_t w, uint32_t h,
			  struct image *out)
{
	double sx = (double)in->w / w, sy = (double)in->h / h;

	out->rgb = malloc((size_t)w * h * 3);
	if (!out->rgb)
		return -ENOMEM;
	out->w = w;
	out->h = h;
	for (uint32_t y = 0; y < h; y++) {
		double fy = (y + 0.5) * sy - 0.5;
		uint32_t y0, y1;
		double dy;

		if (fy < 0)
			fy = 0;
		y0 = (uint32_t)fy;
		if (y0 > in->h - 1)
			y0 = in->h - 1;
		y1 = y0 + 1 < in->h ? y0 + 1 : y0;
		dy = fy - y0;
		for (uint32_t x = 0; x < w; x++) {
			double fx = (x + 0.5) * sx - 0.5;
			uint32_t x0, x1;
			double dx;

			if (fx < 0)
				fx = 0;
			x0 = (uint32_t)fx;
			if (x0 > in->w - 1)
				x0 = in->w - 1;
			x1 = x0 + 1 < in->w ? x0 + 1 : x0;
			dx = fx - x0;
			for (int c = 0; c < 3; c++) {
				const uint8_t *p = in->rgb;
				double top = p[((size_t)y0 * in->w + x0) * 3 + c] * (1 - dx) +
					     p[((size_t)y0 * in->w + x1) * 3 + c] * dx;
				double bot = p[((size_t)y1 * in->w + x0) * 3 + c] * (1 - dx) +
					     p[((size_t)y1 * in->w + x1) * 3 + c] * dx;
				double v = top * (1 - dy) + bot * dy + 0.5;

				out->rgb[((size_t)y * w + x) * 3 + c] =
					(uint8_t)(v > 255 ? 255 : v);
			}
		}
	}
	return 0;
}

int image_center_crop(struct image *img, double fraction)
{
	uint32_t w = (uint32_t)(img->w * fraction + 0.5), h = (uint32_t)(img->h * fraction + 0.5);
	uint32_t x0, y0;
	uint8_t *o;

	if (!w)
		w = 1;
	if (!h)
		h = 1;
	x0 = (img->w - w) / 2;
	y0 = (img->h - h) / 2;
	o = malloc((size_t)w * h * 3);
	if (!o)
		return -ENOMEM;
	for (uint32_t y = 0; y < h; y++)
		memcpy(o + (size_t)y * w * 3, img->rgb + ((size_t)(y0 + y) * img->w + x0) * 3,
		       (size_t)w * 3);
	free(img->rgb);
	img->rgb = o;
	img->w = w;
	img->h = h;
	return 0;
}
