/* SPDX-License-Identifier: MIT */
/*
 * e1npu-classify's images: BMP (own reader), PNG (libpng) and JPEG
 * (libjpeg-turbo), told apart by their first bytes, decoded to 8-bit RGB.
 */
#ifndef __E1NPU_CLASSIFY_IMAGE_H__
#define __E1NPU_CLASSIFY_IMAGE_H__

#include <stddef.h>
#include <stdint.h>

/* The largest width or height accepted from any format. */
#define IMAGE_MAX_DIM	16384

struct image {
	uint32_t w, h;
	uint8_t *rgb;		/* h rows of w RGB pixels, top row first */
};

/*
 * image_load() - read @path and decode it by its magic bytes ("BM",
 * "\x89PNG\r\n\x1a\n", "\xff\xd8\xff").
 * Return: 0, or a negative errno with a message in @err naming the file
 * and the problem ("x.png: PNG: IHDR: CRC error").
 */
int image_load(const char *path, struct image *img, char *err, size_t errlen);

/* image_decode() - the same on a buffer; messages without the file name. */
int image_decode(const uint8_t *data, size_t size, struct image *img,
		 char *err, size_t errlen);

/*
 * The decoders: 0, -EINVAL (malformed; message in @err), -ENOTSUP (valid
 * but not handled, or the format was left out of the build), -ENOMEM.
 *
 * bmp_decode(): 24-bit BI_RGB (BITMAPINFOHEADER or a V4/V5 header;
 * bottom-up or top-down rows; BGR; rows padded to 4 bytes), every header
 * field and the pixel array checked against @size.
 * png_decode(): any PNG; palette and gray expanded to RGB, 16-bit samples
 * keep their high byte, alpha dropped (as tf.io.decode_png(channels=3)).
 * jpeg_decode(): baseline/progressive gray or YCbCr JPEG with
 * tf.io.decode_jpeg's settings (the fast integer IDCT, fancy upsampling);
 * CMYK is -ENOTSUP.
 */
int bmp_decode(const uint8_t *data, size_t size, struct image *img,
	       char *err, size_t errlen);
int png_decode(const uint8_t *data, size_t size, struct image *img,
	       char *err, size_t errlen);
int jpeg_decode(const uint8_t *data, size_t size, struct image *img,
		char *err, size_t errlen);

void image_free(struct image *img);

/* image_center_crop() - keep the central @fraction of each dimension (in place). */
int image_center_crop(struct image *img, double fraction);

#endif
