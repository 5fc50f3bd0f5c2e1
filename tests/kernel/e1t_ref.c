// SPDX-License-Identifier: MIT
/*
 * e1npu system tests: naive CPU references and test data. Written from the
 * hardware contract (Documentation/hardware-contract.md 2.3, 2.7), sharing
 * no code with the driver, the library or the device model.
 */
#include <string.h>

#include "e1t.h"

uint32_t e1t_rand(uint32_t *state)
{
	uint32_t x = *state ? *state : 0x9e3779b9u;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*state = x;
	return x;
}

void e1t_fill_s8(uint8_t *p, size_t n, uint32_t *state)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(e1t_rand(state) >> 24);
}

void e1t_ref_matmul(const int8_t *a, uint32_t as, const int8_t *b, uint32_t bs,
		    int32_t *c, uint32_t cs_elems, uint32_t m, uint32_t n,
		    uint32_t k, bool relu)
{
	uint32_t i, j, l;

	for (i = 0; i < m; i++) {
		for (j = 0; j < n; j++) {
			int64_t acc = 0;

			for (l = 0; l < k; l++)
				acc += (int64_t)a[(size_t)i * as + l] *
				       (int64_t)b[(size_t)l * bs + j];
			if (relu && acc < 0)
				acc = 0;
			c[(size_t)i * cs_elems + j] = (int32_t)acc;
		}
	}
}

void e1t_ref_conv2d(const struct e1t_conv *p, const int8_t *a, uint32_t as,
		    const int8_t *w, uint32_t ws, uint8_t *c, uint32_t cs)
{
	uint32_t oh, ow, co, kh, kw, ci;

	for (oh = 0; oh < p->out_h; oh++) {
		for (ow = 0; ow < p->out_w; ow++) {
			for (co = 0; co < p->c_out; co++) {
				int64_t acc = 0;
				int32_t v;

				for (kh = 0; kh < p->k; kh++) {
					for (kw = 0; kw < p->k; kw++) {
						int64_t ih = (int64_t)oh * p->stride_h -
							     p->pad_top + (int64_t)kh * p->dilation;
						int64_t iw = (int64_t)ow * p->stride_w -
							     p->pad_left + (int64_t)kw * p->dilation;

						if (ih < 0 || iw < 0 || ih >= p->in_h ||
						    iw >= p->in_w)
							continue;
						for (ci = 0; ci < p->c_in; ci++) {
							int8_t x = a[(size_t)ih * as +
								     (size_t)iw * p->c_in + ci];
							int8_t y = w[(size_t)((kh * p->k + kw) *
									       p->c_in + ci) * ws + co];

							acc += (int64_t)x * y;
						}
					}
				}
				if (p->relu && acc < 0)
					acc = 0;
				v = (int32_t)acc;
				memcpy(c + (size_t)oh * cs +
				       ((size_t)ow * p->c_out + co) * 4, &v, 4);
			}
		}
	}
}

void e1t_ref_maxpool(const int8_t *a, uint32_t as, uint32_t in_h,
		     uint32_t in_w, uint32_t ch, uint32_t win, uint32_t stride,
		     int8_t *c, uint32_t cs)
{
	uint32_t out_h = (in_h - win) / stride + 1;
	uint32_t out_w = (in_w - win) / stride + 1;
	uint32_t oh, ow, x, y, k;

	for (oh = 0; oh < out_h; oh++) {
		for (ow = 0; ow < out_w; ow++) {
			for (k = 0; k < ch; k++) {
				int8_t m = -128;

				for (y = 0; y < win; y++) {
					for (x = 0; x < win; x++) {
						int8_t v = a[(size_t)(oh * stride + y) * as +
							     (size_t)(ow * stride + x) * ch + k];

						if (v > m)
							m = v;
					}
				}
				c[(size_t)oh * cs + (size_t)ow * ch + k] = m;
			}
		}
	}
}

void e1t_ref_relu(const int8_t *a, uint32_t as, int8_t *c, uint32_t cs,
		  uint32_t m, uint32_t n)
{
	uint32_t i, j;

	for (i = 0; i < m; i++)
		for (j = 0; j < n; j++) {
			int8_t v = a[(size_t)i * as + j];

			c[(size_t)i * cs + j] = v < 0 ? 0 : v;
		}
}
