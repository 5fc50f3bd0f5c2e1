// SPDX-License-Identifier: MIT
/*
 * e1npu-classify's images and preprocessing (tools/e1npu-classify/image.h,
 * resize.h): the resize against pixels worked out by hand and against
 * tests/tools/classify-image-ref.py's float32 emulation of TensorFlow's
 * ResizeBilinear; PNG files written by that script with zlib; JPEG files
 * written here with libjpeg; format detection and error messages.
 * CLASSIFY_FIXTURES names the script's output directory.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "image.h"
#include "resize.h"

#if E1NPU_WITH_JPEG
#include <jpeglib.h>
#endif

static const char *fixtures(void)
{
	const char *d = getenv("CLASSIFY_FIXTURES");

	if (!d)
		fail_msg("CLASSIFY_FIXTURES is not set (run through make check-tools)");
	return d;
}

static uint8_t *slurp(const char *name, size_t *size)
{
	char path[512];
	FILE *f;
	uint8_t *buf;
	long n;

	snprintf(path, sizeof(path), "%s/%s", fixtures(), name);
	f = fopen(path, "rb");
	if (!f)
		fail_msg("cannot open %s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*size = (size_t)n;
	return buf;
}

static void resize_bytes(const struct image *in, uint32_t w, uint32_t h, int is_int8,
			 uint8_t *out)
{
	float *v = calloc((size_t)w * h * 3, sizeof(*v));

	assert_non_null(v);
	assert_int_equal(resize_bilinear_f32(in, w, h, v), 0);
	resize_to_input(v, (size_t)w * h * 3, is_int8, out);
	free(v);
}

/*
 * 2x1 gray [0, 100] to 4x1: scale 0.5, src = -0.25, 0.25, 0.75, 1.25 ->
 * (0,0,t .75), (0,1,.25), (0,1,.75), (1,1,.25) -> 0, 25, 75, 100.
 * 2x1 [0, 255] to 3x1: scale 2/3 = 0x3f2aaaab; x=1: 1.5f * scale =
 * 1 + 2^-25 rounds to 1.0f, src 0.5, 127.5 -> uint8 127 (round-to-nearest
 * would give 128), int8 (int8_t)-0.5f = 0; x=2: src 1.1666667 -> 255.
 */
static void test_resize_by_hand(void **state)
{
	uint8_t px4[6] = { 0, 0, 0, 100, 100, 100 }, px3[6] = { 0, 0, 0, 255, 255, 255 };
	struct image a = { 2, 1, px4 }, b = { 2, 1, px3 };
	uint8_t out[12];

	(void)state;
	resize_bytes(&a, 4, 1, 0, out);
	for (int c = 0; c < 3; c++) {
		assert_int_equal(out[0 + c], 0);
		assert_int_equal(out[3 + c], 25);
		assert_int_equal(out[6 + c], 75);
		assert_int_equal(out[9 + c], 100);
	}
	resize_bytes(&b, 3, 1, 0, out);
	assert_int_equal(out[0], 0);
	assert_int_equal(out[3], 127);
	assert_int_equal(out[6], 255);
	resize_bytes(&b, 3, 1, 1, out);
	assert_int_equal((int8_t)out[0], -128);
	assert_int_equal((int8_t)out[3], 0);
	assert_int_equal((int8_t)out[6], 127);
}

/* The same size is the identity (TensorFlow special-cases it; the
 * formula gives it too: src = x, t = 0). */
static void test_resize_identity(void **state)
{
	uint8_t px[5 * 4 * 3], out[sizeof(px)];
	struct image a = { 5, 4, px };

	(void)state;
	for (size_t i = 0; i < sizeof(px); i++)
		px[i] = (uint8_t)(i * 37 + 11);
	resize_bytes(&a, 5, 4, 0, out);
	assert_memory_equal(out, px, sizeof(px));
}

static void test_resize_bad_args(void **state)
{
	uint8_t px[3] = { 1, 2, 3 };
	struct image a = { 1, 1, px }, empty = { 0, 0, NULL };
	float v[3];

	(void)state;
	assert_int_equal(resize_bilinear_f32(&a, 0, 1, v), -EINVAL);
	assert_int_equal(resize_bilinear_f32(&empty, 1, 1, v), -EINVAL);
}

/* Every byte of the Python float32 reference, uint8 and int8. */
static void test_resize_reference(void **state)
{
	size_t n;
	char *idx = (char *)slurp("index.txt", &n), *line, *save = NULL;
	int cases = 0;

	(void)state;
	idx[n] = 0;
	for (line = strtok_r(idx, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned int iw, ih, ow, oh;
		char name[128], file[160];
		size_t sz, nu8, ns8;
		uint8_t *in, *u8, *s8, *got;
		struct image img;

		if (sscanf(line, "resize %u %u %u %u %127s", &iw, &ih, &ow, &oh, name) != 5)
			continue;
		snprintf(file, sizeof(file), "%s.in", name);
		in = slurp(file, &sz);
		assert_int_equal(sz, (size_t)iw * ih * 3);
		snprintf(file, sizeof(file), "%s.u8", name);
		u8 = slurp(file, &nu8);
		snprintf(file, sizeof(file), "%s.s8", name);
		s8 = slurp(file, &ns8);
		assert_int_equal(nu8, (size_t)ow * oh * 3);
		assert_int_equal(ns8, nu8);
		img = (struct image){ iw, ih, in };
		got = malloc(nu8);
		assert_non_null(got);
		for (int is_int8 = 0; is_int8 < 2; is_int8++) {
			const uint8_t *want = is_int8 ? s8 : u8;
			size_t bad = 0, first = 0;

			resize_bytes(&img, ow, oh, is_int8, got);
			for (size_t i = 0; i < nu8; i++)
				if (got[i] != want[i] && !bad++)
					first = i;
			if (bad)
				fail_msg("%s %s: %zu of %zu bytes differ, first at %zu: %u, want %u",
					 name, is_int8 ? "int8" : "uint8", bad, nu8, first,
					 got[first], want[first]);
		}
		free(got);
		free(in);
		free(u8);
		free(s8);
		cases++;
	}
	free(idx);
	assert_true(cases >= 4);
}

static void test_png_reference(void **state)
{
	size_t n;
	char *idx = (char *)slurp("index.txt", &n), *line, *save = NULL;
	int cases = 0;

	(void)state;
	idx[n] = 0;
	for (line = strtok_r(idx, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned int w, h;
		char name[128], path[600], err[512] = "";
		size_t sz;
		uint8_t *want;
		struct image img;
		int ret;

		if (sscanf(line, "png %u %u %127s", &w, &h, name) != 3)
			continue;
		snprintf(path, sizeof(path), "%s.rgb", name);
		want = slurp(path, &sz);
		snprintf(path, sizeof(path), "%s/%s.png", fixtures(), name);
		ret = image_load(path, &img, err, sizeof(err));
#if E1NPU_WITH_PNG
		if (ret)
			fail_msg("%s: %d %s", name, ret, err);
		assert_int_equal(img.w, w);
		assert_int_equal(img.h, h);
		assert_int_equal(sz, (size_t)w * h * 3);
		if (memcmp(img.rgb, want, sz))
			fail_msg("%s: pixels differ from the expected ones", name);
		image_free(&img);
#else
		assert_int_equal(ret, -ENOTSUP);
		assert_non_null(strstr(err, "E1NPU_WITH_PNG=0"));
#endif
		free(want);
		cases++;
	}
	free(idx);
	assert_true(cases >= 7);
}

/* Errors name the file and the problem. */
static void test_png_errors(void **state)
{
	char path[600], err[512];
	struct image img;

	(void)state;
	snprintf(path, sizeof(path), "%s/bad-crc.png", fixtures());
	assert_int_equal(image_load(path, &img, err, sizeof(err)), E1NPU_WITH_PNG ? -EINVAL : -ENOTSUP);
	assert_memory_equal(err, path, strlen(path));
	if (E1NPU_WITH_PNG)
		assert_non_null(strstr(err, ": PNG: IHDR: CRC error"));
	snprintf(path, sizeof(path), "%s/trunc.png", fixtures());
	assert_int_not_equal(image_load(path, &img, err, sizeof(err)), 0);
	assert_memory_equal(err, path, strlen(path));
	if (E1NPU_WITH_PNG)
		assert_non_null(strstr(err, "PNG: truncated: "));
	assert_null(img.rgb);
}

static void test_unknown_and_missing(void **state)
{
	static const uint8_t gif[] = "GIF89a\1\0\1\0";
	char err[512];
	struct image img;

	(void)state;
	assert_int_equal(image_decode(gif, sizeof(gif), &img, err, sizeof(err)), -ENOTSUP);
	assert_string_equal(err, "unknown image format (first bytes 47 49 46 38): "
			    "BMP, PNG or JPEG expected");
	assert_int_equal(image_decode(gif, 2, &img, err, sizeof(err)), -ENOTSUP);
	assert_string_equal(err, "unknown image format (2 bytes): BMP, PNG or JPEG expected");
	assert_int_equal(image_load("/nonexistent/x.png", &img, err, sizeof(err)), -ENOENT);
	assert_string_equal(err, "/nonexistent/x.png: No such file or directory");
}

/* A 2x2 24-bit bottom-up BMP still goes to the BMP reader. */
static void test_bmp_detected(void **state)
{
	uint8_t f[54 + 16] = { 'B', 'M' };
	char err[256];
	struct image img;

	(void)state;
	f[10] = 54;
	f[14] = 40;
	f[18] = 2;
	f[22] = 2;
	f[26] = 1;
	f[28] = 24;
	/* bottom row first: blue, green; top row: red, white (BGR order) */
	memcpy(f + 54, "\xff\x00\x00\x00\xff\x00\x00\x00\x00\x00\xff\xff\xff\xff\x00\x00", 16);
	assert_int_equal(image_decode(f, sizeof(f), &img, err, sizeof(err)), 0);
	assert_int_equal(img.w, 2);
	assert_memory_equal(img.rgb, "\xff\x00\x00\xff\xff\xff\x00\x00\xff\x00\xff\x00", 12);
	image_free(&img);
}

#if E1NPU_WITH_JPEG
/* A JPEG of @w x @h pixels (@comps 1 gray or 3 RGB, or 4 CMYK) at quality
 * 100 without chroma subsampling, written by libjpeg. */
static uint8_t *make_jpeg(const uint8_t *px, unsigned int w, unsigned int h, int comps,
			  unsigned long *size)
{
	struct jpeg_compress_struct c;
	struct jpeg_error_mgr e;
	unsigned char *buf = NULL;

	c.err = jpeg_std_error(&e);
	jpeg_create_compress(&c);
	jpeg_mem_dest(&c, &buf, size);
	c.image_width = w;
	c.image_height = h;
	c.input_components = comps;
	c.in_color_space = comps == 1 ? JCS_GRAYSCALE : comps == 3 ? JCS_RGB : JCS_CMYK;
	jpeg_set_defaults(&c);
	if (comps == 4)
		jpeg_set_colorspace(&c, JCS_CMYK);
	jpeg_set_quality(&c, 100, TRUE);
	for (int i = 0; i < c.num_components; i++)
		c.comp_info[i].h_samp_factor = c.comp_info[i].v_samp_factor = 1;
	jpeg_start_compress(&c, TRUE);
	while (c.next_scanline < h) {
		JSAMPROW row = (JSAMPROW)(px + (size_t)c.next_scanline * w * (unsigned int)comps);

		jpeg_write_scanlines(&c, &row, 1);
	}
	jpeg_finish_compress(&c);
	jpeg_destroy_compress(&c);
	return buf;
}

/* Four flat 8x8 gray blocks: DC only, quantizer 1 at quality 100, so the
 * decode is exact; gray becomes R = G = B. */
static void test_jpeg_gray_exact(void **state)
{
	static const uint8_t level[4] = { 0, 85, 170, 255 };
	uint8_t px[16 * 16];
	unsigned long size;
	uint8_t *jpg;
	char err[256];
	struct image img;

	(void)state;
	for (int y = 0; y < 16; y++)
		for (int x = 0; x < 16; x++)
			px[y * 16 + x] = level[(y / 8) * 2 + x / 8];
	jpg = make_jpeg(px, 16, 16, 1, &size);
	assert_int_equal(image_decode(jpg, size, &img, err, sizeof(err)), 0);
	assert_int_equal(img.w, 16);
	assert_int_equal(img.h, 16);
	for (int i = 0; i < 16 * 16; i++)
		for (int c = 0; c < 3; c++)
			assert_int_equal(img.rgb[i * 3 + c], px[i]);
	image_free(&img);
	free(jpg);
}

/* Flat colour blocks through YCbCr: within 2 of the input, in RGB order. */
static void test_jpeg_colour(void **state)
{
	static const uint8_t col[2][3] = { { 250, 10, 20 }, { 30, 40, 240 } };
	uint8_t px[8 * 16 * 3];
	unsigned long size;
	uint8_t *jpg;
	char err[256];
	struct image img;

	(void)state;
	for (int y = 0; y < 8; y++)
		for (int x = 0; x < 16; x++)
			memcpy(px + (y * 16 + x) * 3, col[x / 8], 3);
	jpg = make_jpeg(px, 16, 8, 3, &size);
	assert_int_equal(image_decode(jpg, size, &img, err, sizeof(err)), 0);
	for (int i = 0; i < 16 * 8 * 3; i++) {
		int d = img.rgb[i] - px[i];

		if (d < -2 || d > 2)
			fail_msg("byte %d: %u, want %u +- 2", i, img.rgb[i], px[i]);
	}
	image_free(&img);
	/* cut in the middle of the scan: an error, not gray pixels */
	assert_int_equal(image_decode(jpg, size / 2, &img, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "JPEG: "));
	assert_null(img.rgb);
	free(jpg);
}

/* @jpg decoded by libjpeg here with @dct, RGB out, everything else default. */
static uint8_t *plain_decode(const uint8_t *jpg, unsigned long size, J_DCT_METHOD dct)
{
	struct jpeg_decompress_struct d;
	struct jpeg_error_mgr e;
	uint8_t *px;

	d.err = jpeg_std_error(&e);
	jpeg_create_decompress(&d);
	jpeg_mem_src(&d, jpg, size);
	jpeg_read_header(&d, TRUE);
	d.out_color_space = JCS_RGB;
	d.dct_method = dct;
	jpeg_start_decompress(&d);
	px = malloc((size_t)d.output_width * d.output_height * 3);
	assert_non_null(px);
	while (d.output_scanline < d.output_height) {
		JSAMPROW row = px + (size_t)d.output_scanline * d.output_width * 3;

		jpeg_read_scanlines(&d, &row, 1);
	}
	jpeg_finish_decompress(&d);
	jpeg_destroy_decompress(&d);
	return px;
}

/* A noisy 32x24 photo-like JPEG decodes exactly as libjpeg with
 * tf.io.decode_jpeg's settings (JDCT_IFAST), which differ from the
 * accurate IDCT on this image: the setting is really in use. */
static void test_jpeg_tf_settings(void **state)
{
	uint8_t px[32 * 24 * 3], *jpg, *fast, *slow;
	unsigned long size;
	uint64_t s = 12345;
	char err[256];
	struct image img;

	(void)state;
	for (size_t i = 0; i < sizeof(px); i++) {
		s = s * 6364136223846793005ULL + 1442695040888963407ULL;
		px[i] = (uint8_t)((i * 5) % 256 / 2 + (s >> 58));
	}
	jpg = make_jpeg(px, 32, 24, 3, &size);
	fast = plain_decode(jpg, size, JDCT_IFAST);
	slow = plain_decode(jpg, size, JDCT_ISLOW);
	assert_int_equal(image_decode(jpg, size, &img, err, sizeof(err)), 0);
	assert_memory_equal(img.rgb, fast, sizeof(px));
	assert_memory_not_equal(fast, slow, sizeof(px));
	image_free(&img);
	free(fast);
	free(slow);
	free(jpg);
}

static void test_jpeg_cmyk_rejected(void **state)
{
	uint8_t px[8 * 8 * 4];
	unsigned long size;
	uint8_t *jpg;
	char err[256];
	struct image img;

	(void)state;
	memset(px, 100, sizeof(px));
	jpg = make_jpeg(px, 8, 8, 4, &size);
	assert_int_equal(image_decode(jpg, size, &img, err, sizeof(err)), -ENOTSUP);
	assert_string_equal(err, "JPEG: CMYK colour space not supported (gray or YCbCr only)");
	free(jpg);
}
#else
static void test_jpeg_left_out(void **state)
{
	static const uint8_t soi[] = { 0xff, 0xd8, 0xff, 0xe0 };
	char err[256];
	struct image img;

	(void)state;
	assert_int_equal(image_decode(soi, sizeof(soi), &img, err, sizeof(err)), -ENOTSUP);
	assert_non_null(strstr(err, "E1NPU_WITH_JPEG=0"));
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_resize_by_hand),
		cmocka_unit_test(test_resize_identity),
		cmocka_unit_test(test_resize_bad_args),
		cmocka_unit_test(test_resize_reference),
		cmocka_unit_test(test_png_reference),
		cmocka_unit_test(test_png_errors),
		cmocka_unit_test(test_unknown_and_missing),
		cmocka_unit_test(test_bmp_detected),
#if E1NPU_WITH_JPEG
		cmocka_unit_test(test_jpeg_gray_exact),
		cmocka_unit_test(test_jpeg_colour),
		cmocka_unit_test(test_jpeg_tf_settings),
		cmocka_unit_test(test_jpeg_cmyk_rejected),
#else
		cmocka_unit_test(test_jpeg_left_out),
#endif
	};

	return cmocka_run_group_tests_name("classify-image", tests, NULL, NULL);
}
