/* SPDX-License-Identifier: MIT */
/* 24-bit uncompressed BMP reader and bilinear resize for e1npu-classify. */
#ifndef __E1NPU_CLASSIFY_BMP_H__
#define __E1NPU_CLASSIFY_BMP_H__

#include <stddef.h>
#include <stdint.h>

struct image {
	uint32_t w, h;
	uint8_t *rgb;		/* h rows of w RGB pixels, top row first */
};

/*
 * bmp_decode() - decode a 24-bit BI_RGB BMP (BITMAPINFOHEADER or a
 * V4/V5 header; bottom-up or top-down rows; BGR; rows padded to 4 bytes).
 * Every header field and the pixel array are checked against @size.
 * Return: 0, -EINVAL (message in @err), -ENOTSUP (other formats), -ENOMEM.
 */
int bmp_decode(const uint8_t *data, size_t size, struct image *img,
	       char *err, size_t errlen);
int bmp_load(const char *path, struct image *img, char *err, size_t errlen);
void image_free(struct image *img);

/*
 * image_resize_bilinear() - resize to @w x @h RGB with half-pixel centres
 * (source x = (dst x + 0.5) * in_w / w - 0.5, clamped at the edges; as
 * tf.image.resize bilinear / TFLite RESIZE_BILINEAR half_pixel_centers),
 * rounded to nearest.
 */
int image_resize_bilinear(const struct image *in, uint32_t w, uint32_t h,
			  struct image *out);

/* image_center_crop() - keep the central @fraction of each dimension (in place). */
int image_center_crop(struct image *img, double fraction);

#endif
