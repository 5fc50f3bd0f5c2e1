// SPDX-License-Identifier: MIT
/*
 * The CPU engine of a CPU-only context: executes the hardware operations of
 * a lowered plan over host memory with the hardware's arithmetic
 * (Documentation/hardware-contract.md 2.7 and 3.2-3.6), so the same tiled
 * plan runs whether or not a device is present. (On a device, operations
 * the hardware rejects are run on the CPU by libe1npu's fallback path.)
 */
#include <errno.h>
#include <string.h>

#include "e1npu_hw.h"
#include "ops_internal.h"
#include "lowp.h"

static int32_t rd32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return (int32_t)v;
}

static void wr32(uint8_t *p, int32_t v)
{
	memcpy(p, &v, 4);
}

static int8_t nib(const uint8_t *base, uint64_t idx)
{
	uint8_t b = base[idx / 2];
	int v = idx & 1 ? b >> 4 : b & 15;

	return (int8_t)(v >= 8 ? v - 16 : v);
}

static int exec_matmul(const struct e1npu_op_desc *d, uint8_t *ar, bool s4)
{
	for (uint32_t i = 0; i < d->m; i++)
		for (uint32_t j = 0; j < d->n; j++) {
			uint32_t acc = 0;

			for (uint32_t x = 0; x < d->k; x++) {
				int32_t a, b;

				if (s4) {
					a = nib(ar + d->a.offset, (uint64_t)i * d->a.stride + x);
					b = nib(ar + d->b.offset, (uint64_t)x * d->b.stride + j);
				} else {
					a = (int8_t)ar[d->a.offset + (uint64_t)i * d->a.stride + x];
					b = (int8_t)ar[d->b.offset + (uint64_t)x * d->b.stride + j];
				}
				acc += (uint32_t)(a * b);
			}
			if ((d->flags & E1NPU_OP_FLAG_RELU) && (int32_t)acc < 0)
				acc = 0;
			wr32(ar + d->c.offset + (uint64_t)i * d->c.stride + 4 * j, (int32_t)acc);
		}
	return 0;
}

static int exec_conv(const struct e1npu_op_desc *d, uint8_t *ar)
{
	uint32_t k = d->k, cin = d->c_in, cout = d->c_out;

	for (uint32_t oy = 0; oy < d->out_h; oy++)
	for (uint32_t ox = 0; ox < d->out_w; ox++)
	for (uint32_t oc = 0; oc < cout; oc++) {
		uint32_t acc = 0;

		for (uint32_t ky = 0; ky < k; ky++)
		for (uint32_t kx = 0; kx < k; kx++) {
			int64_t iy = (int64_t)oy * d->stride_h - d->pad_top + (int64_t)ky * d->dilation;
			int64_t ix = (int64_t)ox * d->stride_w - d->pad_left + (int64_t)kx * d->dilation;

			if (iy < 0 || ix < 0 || iy >= d->m || ix >= d->n)
				continue;
			for (uint32_t ci = 0; ci < cin; ci++) {
				int32_t a = (int8_t)ar[d->a.offset + (uint64_t)iy * d->a.stride +
						       (uint64_t)ix * cin + ci];
				int32_t b = (int8_t)ar[d->b.offset +
						       ((uint64_t)(ky * k + kx) * cin + ci) * d->b.stride + oc];

				acc += (uint32_t)(a * b);
			}
		}
		if ((d->flags & E1NPU_OP_FLAG_RELU) && (int32_t)acc < 0)
			acc = 0;
		wr32(ar + d->c.offset + (uint64_t)oy * d->c.stride +
		     ((uint64_t)ox * cout + oc) * 4, (int32_t)acc);
	}
	return 0;
}

static int exec_maxpool(const struct e1npu_op_desc *d, uint8_t *ar)
{
	uint32_t w = d->k, s = d->stride_h, ch = d->c_in;
	uint32_t oh = (d->m - w) / s + 1, ow = (d->n - w) / s + 1;

	for (uint32_t oy = 0; oy < oh; oy++)
	for (uint32_t ox = 0; ox < ow; ox++)
	for (uint32_t c = 0; c < ch; c++) {
		int8_t mx = -128;

		for (uint32_t ky = 0; ky < w; ky++)
		for (uint32_t kx = 0; kx < w; kx++) {
			int8_t v = (int8_t)ar[d->a.offset + (uint64_t)(oy * s + ky) * d->a.stride +
					      (uint64_t)(ox * s + kx) * ch + c];
			mx = v > mx ? v : mx;
		}
		ar[d->c.offset + (uint64_t)oy * d->c.stride + (uint64_t)ox * ch + c] = (uint8_t)mx;
	}
	return 0;
}

static int exec_dp_scalar(const struct e1npu_op_desc *d, uint8_t *ar)
{
	bool ternary = d->flags & E1NPU_OP_FLAG_TERNARY;

	for (uint32_t i = 0; i < d->m; i++) {
		const uint8_t *r = ar + d->a.offset + (uint64_t)i * 12;
		uint32_t res, hi;

		if (!lowp_dp_scalar(d->k, (uint32_t)rd32(r), (uint32_t)rd32(r + 4),
				    (uint32_t)rd32(r + 8), ternary, &res, &hi))
			return -EIO;
		wr32(ar + d->c.offset + (uint64_t)i * 8, (int32_t)res);
		wr32(ar + d->c.offset + (uint64_t)i * 8 + 4, (int32_t)hi);
	}
	return 0;
}

int ops_cpu_hw_exec(const struct e1npu_op_desc *d, uint8_t *ar)
{
	switch (d->opcode) {
	case E1NPU_OP_MATMUL_S8:
	case E1NPU_OP_DP_GEMM_S8:
		return exec_matmul(d, ar, false);
	case E1NPU_OP_DP_GEMM_S4:
		return exec_matmul(d, ar, true);
	case E1NPU_OP_CONV2D_S8:
		return exec_conv(d, ar);
	case E1NPU_OP_RELU_S8:
		for (uint32_t i = 0; i < d->m; i++)
			for (uint32_t j = 0; j < d->n; j++) {
				int8_t v = (int8_t)ar[d->a.offset + (uint64_t)i * d->a.stride + j];

				ar[d->c.offset + (uint64_t)i * d->c.stride + j] =
					(uint8_t)(v < 0 ? 0 : v);
			}
		return 0;
	case E1NPU_OP_DP_VRELU_S8:
		for (uint32_t j = 0; j < d->n; j++) {
			int8_t v = (int8_t)ar[d->a.offset + j];

			ar[d->c.offset + j] = (uint8_t)(v < 0 ? 0 : v);
		}
		return 0;
	case E1NPU_OP_MAXPOOL_S8:
		return exec_maxpool(d, ar);
	case E1NPU_OP_DP_SCALAR:
		return exec_dp_scalar(d, ar);
	case E1NPU_OP_NOP:
	case E1NPU_OP_BARRIER:
	case E1NPU_OP_FALLBACK:
		return 0;
	default:
		return -EINVAL;
	}
}
