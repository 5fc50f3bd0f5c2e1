// SPDX-License-Identifier: MIT
/* PNG through libpng's classic API (see image.h). E1NPU_WITH_PNG=0 leaves it out. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image.h"

#ifndef E1NPU_WITH_PNG
#define E1NPU_WITH_PNG 1
#endif

#if E1NPU_WITH_PNG
#include <png.h>

/* Heap state: libpng reports errors by longjmp, after which automatic
 * variables changed since setjmp would be indeterminate. */
struct png_state {
	const uint8_t *data;
	size_t size, pos;
	char *err;
	size_t errlen;
	uint8_t *rgb;
	png_bytep *rows;
};

static void png_state_error(png_structp png, png_const_charp msg)
{
	struct png_state *s = png_get_error_ptr(png);

	snprintf(s->err, s->errlen, "PNG: %s", msg);
	png_longjmp(png, 1);
}

/* Warnings (bad ancillary chunks, which libpng skips) do not stop a decode. */
static void png_state_warning(png_structp png, png_const_charp msg)
{
	(void)png;
	(void)msg;
}

static void png_state_read(png_structp png, png_bytep out, size_t n)
{
	struct png_state *s = png_get_io_ptr(png);

	if (n > s->size - s->pos) {
		char msg[96];

		snprintf(msg, sizeof(msg), "truncated: %zu bytes needed at offset %zu of %zu",
			 n, s->pos, s->size);
		png_error(png, msg);
	}
	memcpy(out, s->data + s->pos, n);
	s->pos += n;
}

int png_decode(const uint8_t *data, size_t size, struct image *img, char *err,
	       size_t errlen)
{
	struct png_state *s = calloc(1, sizeof(*s));
	png_structp png = NULL;
	png_infop info = NULL;
	uint32_t w, h;
	int ret = -ENOMEM;

	memset(img, 0, sizeof(*img));
	if (!s)
		goto oom;
	*s = (struct png_state){ .data = data, .size = size, .err = err, .errlen = errlen };
	png = png_create_read_struct(PNG_LIBPNG_VER_STRING, s, png_state_error,
				     png_state_warning);
	if (!png)
		goto oom;
	info = png_create_info_struct(png);
	if (!info)
		goto oom;
	if (setjmp(png_jmpbuf(png))) {
		ret = -EINVAL;	/* message written by png_state_error() */
		goto out;
	}
	png_set_read_fn(png, s, png_state_read);
	png_set_user_limits(png, IMAGE_MAX_DIM, IMAGE_MAX_DIM);
	png_read_info(png, info);
	w = png_get_image_width(png, info);
	h = png_get_image_height(png, info);
	/* To 8-bit RGB: palette/low-depth gray/tRNS expanded, 16-bit samples
	 * cut to their high byte, gray copied to R, G, B, alpha dropped. */
	png_set_expand(png);
	png_set_strip_16(png);
	png_set_strip_alpha(png);
	png_set_gray_to_rgb(png);
	png_set_interlace_handling(png);
	png_read_update_info(png, info);
	if (png_get_rowbytes(png, info) != (size_t)w * 3)
		png_error(png, "rows are not 8-bit RGB after conversion");
	s->rgb = malloc((size_t)w * h * 3);
	s->rows = malloc(h * sizeof(*s->rows));
	if (!s->rgb || !s->rows)
		png_error(png, "out of memory for the pixels");
	for (uint32_t y = 0; y < h; y++)
		s->rows[y] = s->rgb + (size_t)y * w * 3;
	png_read_image(png, s->rows);
	png_read_end(png, NULL);
	img->w = w;
	img->h = h;
	img->rgb = s->rgb;
	s->rgb = NULL;
	ret = 0;
	goto out;
oom:
	snprintf(err, errlen, "PNG: out of memory");
out:
	png_destroy_read_struct(png ? &png : NULL, info ? &info : NULL, NULL);
	if (s) {
		free(s->rows);
		free(s->rgb);
	}
	free(s);
	return ret;
}

#else

int png_decode(const uint8_t *data, size_t size, struct image *img, char *err,
	       size_t errlen)
{
	(void)data;
	(void)size;
	memset(img, 0, sizeof(*img));
	snprintf(err, errlen, "PNG image, but e1npu-classify was built without libpng (E1NPU_WITH_PNG=0)");
	return -ENOTSUP;
}

#endif
