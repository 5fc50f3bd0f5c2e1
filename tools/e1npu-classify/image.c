// SPDX-License-Identifier: MIT
/* Image files for e1npu-classify: read, detect the format, crop (image.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image.h"
#include "readfile.h"

int image_decode(const uint8_t *d, size_t size, struct image *img, char *err,
		 size_t errlen)
{
	static const uint8_t png_magic[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };

	memset(img, 0, sizeof(*img));
	if (size >= 2 && d[0] == 'B' && d[1] == 'M')
		return bmp_decode(d, size, img, err, errlen);
	if (size >= 8 && !memcmp(d, png_magic, 8))
		return png_decode(d, size, img, err, errlen);
	if (size >= 3 && d[0] == 0xff && d[1] == 0xd8 && d[2] == 0xff)
		return jpeg_decode(d, size, img, err, errlen);
	if (size < 4)
		snprintf(err, errlen, "unknown image format (%zu bytes): BMP, PNG or JPEG expected", size);
	else
		snprintf(err, errlen, "unknown image format (first bytes %02x %02x %02x %02x): "
			 "BMP, PNG or JPEG expected", d[0], d[1], d[2], d[3]);
	return -ENOTSUP;
}

int image_load(const char *path, struct image *img, char *err, size_t errlen)
{
	char msg[384];
	void *data;
	size_t n;
	int ret;

	memset(img, 0, sizeof(*img));
	/* 1 GiB: larger than any image of IMAGE_MAX_DIM^2 RGB pixels needs;
	 * a directory, FIFO, device, unreadable or empty file: the cause */
	ret = e1npu_read_file(path, (size_t)1 << 30, &data, &n, err, errlen);
	if (ret)
		return ret;
	msg[0] = 0;
	ret = image_decode(data, n, img, msg, sizeof(msg));
	free(data);
	if (ret)
		snprintf(err, errlen, "%s: %s", path, msg[0] ? msg : "cannot decode");
	return ret;
}

void image_free(struct image *img)
{
	free(img->rgb);
	img->rgb = NULL;
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
