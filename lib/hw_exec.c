// SPDX-License-Identifier: MIT
/*
 * libe1npu's one CPU executor of hardware operations: bit-exact, written
 * from Documentation/hardware-contract.md (sections 2.3, 2.7, 3.2-3.6),
 * not from the device model. It runs an operation the hardware rejects
 * under the fallback contract (so a fallen-back operation writes exactly
 * the bytes the engine would have written) and every operation of a
 * CPU-only lowering context. lib/ref/ is the tests' independent oracle,
 * not this.
 *
 * Tensors are addressed as in struct e1npu_hw_tensor: row r of a tensor
 * starts at the tensor's base pointer + r * stride. Multi-byte values are
 * little-endian, as the hardware writes them.
 */
#include <errno.h>
#include <string.h>

#include "hw_exec.h"
#include "internal.h"

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static uint32_t get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static int32_t relu32(int32_t v, bool relu)
{
	return relu && v < 0 ? 0 : v;
}

static void ref_matmul(const struct e1npu_hw_op *op, const uint8_t *a,
		       const uint8_t *b, uint8_t *c)
{
	bool relu = op->flags & E1NPU_HWOP_FLAG_RELU;
	uint32_t i, j, k;

	for (i = 0; i < op->m; i++) {
		const int8_t *ar = (const int8_t *)(a + (uint64_t)i * op->a.stride);
		uint8_t *cr = c + (uint64_t)i * op->c.stride;

		for (j = 0; j < op->n; j++) {
			uint32_t acc = 0;	/* wraps like two's complement */

			for (k = 0; k < op->k; k++) {
				int8_t bv = (int8_t)b[(uint64_t)k * op->b.stride + j];

				acc += (uint32_t)((int32_t)ar[k] * bv);
			}
			put_le32(cr + 4 * j, (uint32_t)relu32((int32_t)acc, relu));
		}
	}
}

static void ref_conv2d(const struct e1npu_hw_op *op, const uint8_t *a,
		       const uint8_t *b, uint8_t *c)
{
	bool relu = op->flags & E1NPU_HWOP_FLAG_RELU;
	uint32_t in_h = op->m, in_w = op->n, ks = op->k;
	uint32_t oh, ow, co, kh, kw, ci;

	for (oh = 0; oh < op->out_h; oh++) {
		uint8_t *crow = c + (uint64_t)oh * op->c.stride;

		for (ow = 0; ow < op->out_w; ow++) {
			for (co = 0; co < op->c_out; co++) {
				uint32_t acc = 0;

				for (kh = 0; kh < ks; kh++) {
					int64_t ih = (int64_t)oh * op->stride_h -
						     op->pad_top +
						     (int64_t)kh * op->dilation;

					if (ih < 0 || ih >= in_h)
						continue;
					for (kw = 0; kw < ks; kw++) {
						int64_t iw = (int64_t)ow * op->stride_w -
							     op->pad_left +
							     (int64_t)kw * op->dilation;
						const int8_t *px;

						if (iw < 0 || iw >= in_w)
							continue;
						px = (const int8_t *)(a + (uint64_t)ih * op->a.stride +
								      (uint64_t)iw * op->c_in);
						for (ci = 0; ci < op->c_in; ci++) {
							uint64_t row = ((uint64_t)kh * ks + kw) *
								       op->c_in + ci;
							int8_t w = (int8_t)b[row * op->b.stride + co];

							acc += (uint32_t)((int32_t)px[ci] * w);
						}
					}
				}
				put_le32(crow + ((uint64_t)ow * op->c_out + co) * 4,
					 (uint32_t)relu32((int32_t)acc, relu));
			}
		}
	}
}

static void ref_relu(const struct e1npu_hw_op *op, const uint8_t *a,
		     uint8_t *c)
{
	uint32_t i, j;

	for (i = 0; i < op->m; i++) {
		const int8_t *ar = (const int8_t *)(a + (uint64_t)i * op->a.stride);
		int8_t *cr = (int8_t *)(c + (uint64_t)i * op->c.stride);

		for (j = 0; j < op->n; j++)
			cr[j] = ar[j] < 0 ? 0 : ar[j];
	}
}

static void ref_maxpool(const struct e1npu_hw_op *op, const uint8_t *a,
			uint8_t *c)
{
	uint32_t win = op->k, s = op->stride_h, ch = op->c_in;
	uint32_t out_h = (op->m - win) / s + 1, out_w = (op->n - win) / s + 1;
	uint32_t oh, ow, x, y, ci;

	for (oh = 0; oh < out_h; oh++) {
		int8_t *cr = (int8_t *)(c + (uint64_t)oh * op->c.stride);

		for (ow = 0; ow < out_w; ow++) {
			for (ci = 0; ci < ch; ci++) {
				int8_t best = -128;

				for (y = 0; y < win; y++)
					for (x = 0; x < win; x++) {
						const int8_t *px = (const int8_t *)
							(a + (uint64_t)(oh * s + y) * op->a.stride +
							 (uint64_t)(ow * s + x) * ch);

						if (px[ci] > best)
							best = px[ci];
					}
				cr[(uint64_t)ow * ch + ci] = best;
			}
		}
	}
}

static int32_t sext(uint32_t v, unsigned int bits)
{
	uint32_t m = 1u << (bits - 1);

	v &= (bits == 32) ? 0xffffffffu : ((1u << bits) - 1);
	return (int32_t)((v ^ m) - m);
}

bool e1npu_fp8_e4m3_q88(uint8_t v, int32_t *q)
{
	uint32_t e = (v >> 3) & 0xf, mant = v & 7;
	int32_t mag;

	if (e == 15 && mant == 7)
		return false;
	if (e == 0)
		mag = (int32_t)(mant >> 1);
	else if (e == 1)
		mag = (int32_t)((8 + mant) >> 1);
	else
		mag = (int32_t)((8 + mant) << (e - 2));
	*q = (v & 0x80) ? -mag : mag;
	return true;
}

static bool s2_lane(uint32_t bits, bool ternary, int32_t *v)
{
	if (!ternary) {
		*v = sext(bits, 2);
		return true;
	}
	if (bits == 3)
		return false;
	*v = bits == 0 ? 0 : bits == 1 ? 1 : -1;
	return true;
}

static int64_t floor_div256(int64_t p)
{
	return p >= 0 ? p / 256 : -((-p + 255) / 256);
}

bool e1npu_dp_scalar_exec(uint32_t opcode, uint32_t a, uint32_t b,
			 uint32_t acc, bool ternary, uint32_t *result,
			 uint32_t *result_hi)
{
	uint32_t r = 0, hi = 0, sum;
	bool sign_hi = true;
	int i;

	switch (opcode) {
	case E1_DP_OP_ADD:
		r = a + b;
		sign_hi = false;
		break;
	case E1_DP_OP_SUB:
		r = a - b;
		sign_hi = false;
		break;
	case E1_DP_OP_MUL_LO: {
		uint64_t p = (uint64_t)a * b;

		r = (uint32_t)p;
		hi = (uint32_t)(p >> 32);
		sign_hi = false;
		break;
	}
	case E1_DP_OP_MAC_S16:
		r = (uint32_t)(sext(a, 16) * sext(b, 16)) + acc;
		break;
	case E1_DP_OP_DOT4_S8:
		sum = acc;
		for (i = 0; i < 4; i++)
			sum += (uint32_t)(sext(a >> (8 * i), 8) *
					  sext(b >> (8 * i), 8));
		r = sum;
		break;
	case E1_DP_OP_MAX_U32:
		r = a > b ? a : b;
		sign_hi = false;
		break;
	case E1_DP_OP_MIN_U32:
		r = a < b ? a : b;
		sign_hi = false;
		break;
	case E1_DP_OP_DOT8_S4:
		sum = acc;
		for (i = 0; i < 8; i++)
			sum += (uint32_t)(sext(a >> (4 * i), 4) *
					  sext(b >> (4 * i), 4));
		r = sum;
		break;
	case E1_DP_OP_RELU4_S8:
		for (i = 0; i < 4; i++) {
			int32_t v = sext(a >> (8 * i), 8);

			r |= (uint32_t)(v < 0 ? 0 : v) << (8 * i);
		}
		sign_hi = false;
		break;
	case E1_DP_OP_SDOT4_S4_2_4: {
		uint32_t p[4];
		int32_t w[4], act[8];

		if ((a >> 16) || (acc >> 8))
			return false;
		for (i = 0; i < 4; i++) {
			p[i] = (acc >> (2 * i)) & 3;
			w[i] = sext(a >> (4 * i), 4);
		}
		if (p[0] == p[1] || p[2] == p[3])
			return false;
		for (i = 0; i < 8; i++)
			act[i] = sext(b >> (4 * i), 4);
		r = (uint32_t)(w[0] * act[p[0]] + w[1] * act[p[1]] +
			       w[2] * act[4 + p[2]] + w[3] * act[4 + p[3]]);
		break;
	}
	case E1_DP_OP_DOT16_S2:
		sum = acc;
		for (i = 0; i < 16; i++) {
			int32_t x, y;

			if (!s2_lane((a >> (2 * i)) & 3, ternary, &x) ||
			    !s2_lane((b >> (2 * i)) & 3, ternary, &y))
				return false;
			sum += (uint32_t)(x * y);
		}
		r = sum;
		break;
	case E1_DP_OP_DOT4_FP8_E4M3: {
		int64_t s = 0;

		for (i = 0; i < 4; i++) {
			int32_t qa, qb;

			if (!e1npu_fp8_e4m3_q88((uint8_t)(a >> (8 * i)), &qa) ||
			    !e1npu_fp8_e4m3_q88((uint8_t)(b >> (8 * i)), &qb))
				return false;
			s += floor_div256((int64_t)qa * qb);
		}
		r = (uint32_t)s + acc;
		break;
	}
	case E1_DP_OP_EXP2_NEG_Q0_8: {
		int32_t delta = sext(a, 8);

		if (delta > 0)
			return false;
		r = -delta >= 32 ? 0 : 256u >> -delta;
		sign_hi = false;
		break;
	}
	default:
		return false;	/* GEMM/VRELU are not scalar commands */
	}
	if (sign_hi)
		hi = (r & 0x80000000u) ? 0xffffffffu : 0;
	*result = r;
	*result_hi = hi;
	return true;
}

static int ref_dp_scalar_op(const struct e1npu_hw_op *op, const uint8_t *a,
			    uint8_t *c)
{
	bool ternary = op->flags & E1NPU_HWOP_FLAG_TERNARY;
	uint32_t i;

	for (i = 0; i < op->m; i++) {
		const uint8_t *in = a + (uint64_t)i * E1NPU_DP_SCALAR_IN_BYTES;
		uint8_t *out = c + (uint64_t)i * E1NPU_DP_SCALAR_OUT_BYTES;
		uint32_t r, hi;

		if (!e1npu_dp_scalar_exec(op->k, get_le32(in), get_le32(in + 4),
					 get_le32(in + 8), ternary, &r, &hi))
			return -EINVAL;
		put_le32(out, r);
		put_le32(out + 4, hi);
	}
	return 0;
}

/* Element @idx of a packed int4 tensor (low nibble first). */
static int32_t s4_at(const uint8_t *base, uint64_t idx)
{
	uint8_t byte = base[idx / 2];

	return sext(idx & 1 ? byte >> 4 : byte & 0xf, 4);
}

static void ref_dp_gemm(const struct e1npu_hw_op *op, const uint8_t *a,
			const uint8_t *b, uint8_t *c, bool int4)
{
	uint32_t i, j, k;

	for (i = 0; i < op->m; i++)
		for (j = 0; j < op->n; j++) {
			uint32_t acc = 0;

			for (k = 0; k < op->k; k++) {
				int32_t x, y;

				if (int4) {
					x = s4_at(a, (uint64_t)i * op->a.stride + k);
					y = s4_at(b, (uint64_t)k * op->b.stride + j);
				} else {
					x = (int8_t)a[(uint64_t)i * op->a.stride + k];
					y = (int8_t)b[(uint64_t)k * op->b.stride + j];
				}
				acc += (uint32_t)(x * y);
			}
			put_le32(c + (uint64_t)i * op->c.stride + 4 * j, acc);
		}
}

int e1npu_hw_exec(const struct e1npu_hw_op *op, const uint8_t *a,
		      const uint8_t *b, uint8_t *c)
{
	uint8_t tmp[E1_DP_SCRATCH_BYTES];
	uint32_t i;

	switch (op->opcode) {
	case E1NPU_HWOP_NOP:
	case E1NPU_HWOP_BARRIER:
	case E1NPU_HWOP_FALLBACK:
		return 0;
	case E1NPU_HWOP_MATMUL_S8:
		ref_matmul(op, a, b, c);
		return 0;
	case E1NPU_HWOP_CONV2D_S8:
		ref_conv2d(op, a, b, c);
		return 0;
	case E1NPU_HWOP_RELU_S8:
		ref_relu(op, a, c);
		return 0;
	case E1NPU_HWOP_MAXPOOL_S8:
		ref_maxpool(op, a, c);
		return 0;
	case E1NPU_HWOP_DP_SCALAR:
		return ref_dp_scalar_op(op, a, c);
	case E1NPU_HWOP_DP_GEMM_S8:
	case E1NPU_HWOP_DP_GEMM_S4:
		ref_dp_gemm(op, a, b, c,
			    op->opcode == E1NPU_HWOP_DP_GEMM_S4);
		return 0;
	case E1NPU_HWOP_DP_VRELU_S8:
		/* Overlapping ranges see the pre-command values. */
		if (op->n > sizeof(tmp))
			return -EINVAL;
		for (i = 0; i < op->n; i++)
			tmp[i] = (int8_t)a[i] < 0 ? 0 : a[i];
		memcpy(c, tmp, op->n);
		return 0;
	default:
		return -EINVAL;
	}
}
