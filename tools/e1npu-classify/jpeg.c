// SPDX-License-Identifier: MIT
/* JPEG through libjpeg-turbo (see image.h). E1NPU_WITH_JPEG=0 leaves it out. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image.h"

#ifndef E1NPU_WITH_JPEG
#define E1NPU_WITH_JPEG 1
#endif

#if E1NPU_WITH_JPEG
#include <limits.h>
#include <setjmp.h>

#include <jpeglib.h>

/* Heap state: libjpeg's errors end in longjmp (see png.c). */
struct jpeg_state {
	struct jpeg_decompress_struct cinfo;
	struct jpeg_error_mgr jerr;
	jmp_buf jb;
	char *err;
	size_t errlen;
	uint8_t *rgb;
};

static void jpeg_state_fail(j_common_ptr cinfo)
{
	struct jpeg_state *s = (struct jpeg_state *)cinfo->client_data;
	char msg[JMSG_LENGTH_MAX];

	cinfo->err->format_message(cinfo, msg);
	snprintf(s->err, s->errlen, "JPEG: %s", msg);
	longjmp(s->jb, 1);
}

/* Warnings (a truncated file, corrupt data libjpeg would paper over with
 * gray) fail the decode: a classifier must not see invented pixels. */
static void jpeg_state_message(j_common_ptr cinfo, int level)
{
	if (level < 0)
		jpeg_state_fail(cinfo);
}

int jpeg_decode(const uint8_t *data, size_t size, struct image *img, char *err,
		size_t errlen)
{
	struct jpeg_state *s = calloc(1, sizeof(*s));
	struct jpeg_decompress_struct *ci;
	uint32_t w, h;
	int ret;

	memset(img, 0, sizeof(*img));
	if (!s) {
		snprintf(err, errlen, "JPEG: out of memory");
		return -ENOMEM;
	}
	if (size > ULONG_MAX) {
		free(s);
		snprintf(err, errlen, "JPEG: %zu bytes is too large", size);
		return -EINVAL;
	}
	s->err = err;
	s->errlen = errlen;
	ci = &s->cinfo;
	ci->err = jpeg_std_error(&s->jerr);
	s->jerr.error_exit = jpeg_state_fail;
	s->jerr.emit_message = jpeg_state_message;
	ci->client_data = s;
	if (setjmp(s->jb)) {
		ret = -EINVAL;	/* message written by jpeg_state_fail() */
		goto out;
	}
	jpeg_create_decompress(ci);
	jpeg_mem_src(ci, data, (unsigned long)size);
	jpeg_read_header(ci, TRUE);
	if (ci->jpeg_color_space == JCS_CMYK || ci->jpeg_color_space == JCS_YCCK) {
		snprintf(err, errlen, "JPEG: %s colour space not supported (gray or YCbCr only)",
			 ci->jpeg_color_space == JCS_CMYK ? "CMYK" : "YCCK");
		ret = -ENOTSUP;
		goto out;
	}
	if (ci->image_width > IMAGE_MAX_DIM || ci->image_height > IMAGE_MAX_DIM) {
		snprintf(err, errlen, "JPEG: %ux%u is larger than %ux%u",
			 ci->image_width, ci->image_height, IMAGE_MAX_DIM, IMAGE_MAX_DIM);
		ret = -EINVAL;
		goto out;
	}
	ci->out_color_space = JCS_RGB;
	/* tf.io.decode_jpeg's defaults: dct_method "" = INTEGER_FAST,
	 * fancy_upscaling on (libjpeg's default) */
	ci->dct_method = JDCT_IFAST;
	jpeg_start_decompress(ci);
	w = ci->output_width;
	h = ci->output_height;
	if (ci->output_components != 3) {
		snprintf(err, errlen, "JPEG: %d output components, 3 expected",
			 ci->output_components);
		ret = -ENOTSUP;
		goto out;
	}
	s->rgb = malloc((size_t)w * h * 3);
	if (!s->rgb) {
		snprintf(err, errlen, "JPEG: out of memory for %ux%u pixels", w, h);
		ret = -ENOMEM;
		goto out;
	}
	while (ci->output_scanline < h) {
		JSAMPROW row = s->rgb + (size_t)ci->output_scanline * w * 3;

		jpeg_read_scanlines(ci, &row, 1);
	}
	jpeg_finish_decompress(ci);
	img->w = w;
	img->h = h;
	img->rgb = s->rgb;
	s->rgb = NULL;
	ret = 0;
out:
	jpeg_destroy_decompress(ci);
	free(s->rgb);
	free(s);
	return ret;
}

#else

int jpeg_decode(const uint8_t *data, size_t size, struct image *img, char *err,
		size_t errlen)
{
	(void)data;
	(void)size;
	memset(img, 0, sizeof(*img));
	snprintf(err, errlen, "JPEG image, but e1npu-classify was built without libjpeg (E1NPU_WITH_JPEG=0)");
	return -ENOTSUP;
}

#endif
