// SPDX-License-Identifier: MIT
/*
 * Public operation descriptions: builders, names, and the mapping to the
 * kernel's struct e1npu_hw_op opcodes.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

struct opmap {
	uint32_t pub;
	uint32_t uapi;
	const char *name;
	enum e1npu_engine engine;
};

static const struct opmap opmap[] = {
	{ E1NPU_OP_NOP, E1NPU_HWOP_NOP, "nop", E1NPU_ENGINE_WRAPPER },
	{ E1NPU_OP_BARRIER, E1NPU_HWOP_BARRIER, "barrier", E1NPU_ENGINE_WRAPPER },
	{ E1NPU_OP_MATMUL_S8, E1NPU_HWOP_MATMUL_S8, "matmul_s8", E1NPU_ENGINE_WRAPPER },
	{ E1NPU_OP_CONV2D_S8, E1NPU_HWOP_CONV2D_S8, "conv2d_s8", E1NPU_ENGINE_WRAPPER },
	{ E1NPU_OP_RELU_S8, E1NPU_HWOP_RELU_S8, "relu_s8", E1NPU_ENGINE_WRAPPER },
	{ E1NPU_OP_MAXPOOL_S8, E1NPU_HWOP_MAXPOOL_S8, "maxpool_s8", E1NPU_ENGINE_WRAPPER },
	{ E1NPU_OP_FALLBACK, E1NPU_HWOP_FALLBACK, "fallback", E1NPU_ENGINE_WRAPPER },
	{ E1NPU_OP_DP_SCALAR, E1NPU_HWOP_DP_SCALAR, "dp_scalar", E1NPU_ENGINE_DATAPATH },
	{ E1NPU_OP_DP_GEMM_S8, E1NPU_HWOP_DP_GEMM_S8, "dp_gemm_s8", E1NPU_ENGINE_DATAPATH },
	{ E1NPU_OP_DP_GEMM_S4, E1NPU_HWOP_DP_GEMM_S4, "dp_gemm_s4", E1NPU_ENGINE_DATAPATH },
	{ E1NPU_OP_DP_VRELU_S8, E1NPU_HWOP_DP_VRELU_S8, "dp_vrelu_s8", E1NPU_ENGINE_DATAPATH },
};

#define N_OPMAP (sizeof(opmap) / sizeof(opmap[0]))

static const struct opmap *find_pub(uint32_t opcode)
{
	size_t i;

	for (i = 0; i < N_OPMAP; i++)
		if (opmap[i].pub == opcode)
			return &opmap[i];
	return NULL;
}

int e1npu_opcode_to_uapi(uint32_t opcode, uint32_t *uapi)
{
	const struct opmap *m = find_pub(opcode);

	if (!m)
		return -EINVAL;
	*uapi = m->uapi;
	return 0;
}

uint32_t e1npu_opcode_from_uapi(uint32_t uapi)
{
	size_t i;

	for (i = 0; i < N_OPMAP; i++)
		if (opmap[i].uapi == uapi)
			return opmap[i].pub;
	return 0;
}

static void tensor_to_uapi(const struct e1npu_tensor *t,
			   struct e1npu_hw_tensor *u)
{
	u->handle = t->buf ? t->buf->handle : 0;
	u->stride = t->stride;
	u->offset = t->offset;
}

int e1npu_op_desc_to_uapi(const struct e1npu_op_desc *d,
			  struct e1npu_hw_op *op)
{
	memset(op, 0, sizeof(*op));
	if (e1npu_opcode_to_uapi(d->opcode, &op->opcode))
		return -EINVAL;
	op->flags = d->flags;
	op->m = d->m;
	op->n = d->n;
	op->k = d->k;
	op->c_in = d->c_in;
	op->c_out = d->c_out;
	op->out_h = d->out_h;
	op->out_w = d->out_w;
	op->stride_h = d->stride_h;
	op->stride_w = d->stride_w;
	op->pad_top = d->pad_top;
	op->pad_left = d->pad_left;
	op->dilation = d->dilation;
	tensor_to_uapi(&d->a, &op->a);
	tensor_to_uapi(&d->b, &op->b);
	tensor_to_uapi(&d->c, &op->c);
	return 0;
}

const char *e1npu_uapi_op_name(uint32_t uapi)
{
	return e1npu_opcode_name(e1npu_opcode_from_uapi(uapi));
}

E1NPU_API const char *e1npu_opcode_name(uint32_t opcode)
{
	const struct opmap *m = find_pub(opcode);

	return m ? m->name : "unknown";
}

E1NPU_API enum e1npu_engine e1npu_opcode_engine(uint32_t opcode)
{
	const struct opmap *m = find_pub(opcode);

	return m ? m->engine : E1NPU_ENGINE_NONE;
}

E1NPU_API const char *e1npu_engine_name(enum e1npu_engine engine)
{
	switch (engine) {
	case E1NPU_ENGINE_WRAPPER:
		return "wrapper";
	case E1NPU_ENGINE_DATAPATH:
		return "datapath";
	case E1NPU_ENGINE_CPU:
		return "cpu";
	default:
		return "none";
	}
}

static void desc_init(struct e1npu_op_desc *d, uint32_t opcode)
{
	memset(d, 0, sizeof(*d));
	d->opcode = opcode;
}

E1NPU_API void e1npu_op_desc_nop(struct e1npu_op_desc *d)
{
	if (d)
		desc_init(d, E1NPU_OP_NOP);
}

E1NPU_API void e1npu_op_desc_barrier(struct e1npu_op_desc *d)
{
	if (d)
		desc_init(d, E1NPU_OP_BARRIER);
}

E1NPU_API void e1npu_op_desc_fallback(struct e1npu_op_desc *d)
{
	if (d)
		desc_init(d, E1NPU_OP_FALLBACK);
}

E1NPU_API void e1npu_op_desc_matmul(struct e1npu_op_desc *d,
				    struct e1npu_tensor a,
				    struct e1npu_tensor b,
				    struct e1npu_tensor c, uint32_t m,
				    uint32_t n, uint32_t k, uint32_t flags)
{
	if (!d)
		return;
	desc_init(d, E1NPU_OP_MATMUL_S8);
	d->flags = flags;
	d->m = m;
	d->n = n;
	d->k = k;
	d->a = a;
	d->b = b;
	d->c = c;
}

E1NPU_API void e1npu_op_desc_conv2d(struct e1npu_op_desc *d,
				    struct e1npu_tensor in,
				    struct e1npu_tensor weights,
				    struct e1npu_tensor out, uint32_t in_h,
				    uint32_t in_w, uint32_t c_in,
				    uint32_t c_out, uint32_t ksize,
				    uint32_t out_h, uint32_t out_w,
				    uint32_t stride_h, uint32_t stride_w,
				    uint32_t pad_top, uint32_t pad_left,
				    uint32_t dilation, uint32_t flags)
{
	if (!d)
		return;
	desc_init(d, E1NPU_OP_CONV2D_S8);
	d->flags = flags;
	d->m = in_h;
	d->n = in_w;
	d->c_in = c_in;
	d->c_out = c_out;
	d->k = ksize;
	d->out_h = out_h;
	d->out_w = out_w;
	d->stride_h = stride_h;
	d->stride_w = stride_w;
	d->pad_top = pad_top;
	d->pad_left = pad_left;
	d->dilation = dilation;
	d->a = in;
	d->b = weights;
	d->c = out;
}

E1NPU_API void e1npu_op_desc_relu(struct e1npu_op_desc *d,
				  struct e1npu_tensor in,
				  struct e1npu_tensor out, uint32_t rows,
				  uint32_t row_bytes)
{
	if (!d)
		return;
	desc_init(d, E1NPU_OP_RELU_S8);
	d->m = rows;
	d->n = row_bytes;
	d->a = in;
	d->c = out;
}

E1NPU_API void e1npu_op_desc_maxpool(struct e1npu_op_desc *d,
				     struct e1npu_tensor in,
				     struct e1npu_tensor out, uint32_t in_h,
				     uint32_t in_w, uint32_t channels,
				     uint32_t window, uint32_t stride)
{
	if (!d)
		return;
	desc_init(d, E1NPU_OP_MAXPOOL_S8);
	d->m = in_h;
	d->n = in_w;
	d->c_in = channels;
	d->k = window;
	d->stride_h = stride;
	d->a = in;
	d->c = out;
}

E1NPU_API void e1npu_op_desc_dp_scalar(struct e1npu_op_desc *d,
				       struct e1npu_tensor in,
				       struct e1npu_tensor out,
				       uint32_t dp_opcode, uint32_t count,
				       uint32_t flags)
{
	if (!d)
		return;
	desc_init(d, E1NPU_OP_DP_SCALAR);
	d->flags = flags;
	d->m = count;
	d->k = dp_opcode;
	d->a = in;
	d->c = out;
}

E1NPU_API void e1npu_op_desc_dp_gemm(struct e1npu_op_desc *d, int int4,
				     struct e1npu_tensor a,
				     struct e1npu_tensor b,
				     struct e1npu_tensor c, uint32_t m,
				     uint32_t n, uint32_t k)
{
	if (!d)
		return;
	desc_init(d, int4 ? E1NPU_OP_DP_GEMM_S4 : E1NPU_OP_DP_GEMM_S8);
	d->m = m;
	d->n = n;
	d->k = k;
	d->a = a;
	d->b = b;
	d->c = c;
}

E1NPU_API void e1npu_op_desc_dp_vrelu(struct e1npu_op_desc *d,
				      struct e1npu_tensor in,
				      struct e1npu_tensor out, uint32_t len)
{
	if (!d)
		return;
	desc_init(d, E1NPU_OP_DP_VRELU_S8);
	d->n = len;
	d->a = in;
	d->c = out;
}

static const char *const v0_err_names[] = {
	[E1_V0_ERR_NONE] = "none",
	[E1_V0_ERR_UNKNOWN_OP] = "unknown opcode",
	[E1_V0_ERR_SHAPE] = "shape outside the envelope",
	[E1_V0_ERR_FLAGS] = "reserved bits or flags",
	[E1_V0_ERR_ALIGN] = "misaligned tensor",
	[E1_V0_ERR_WINDOW] = "tensor outside the tensor window",
	[E1_V0_ERR_BUS] = "bus error",
	[E1_V0_ERR_OVERFLOW] = "queue overflow",
};

void e1npu_hw_reason(char *buf, size_t len, uint32_t engine, int error,
		     uint32_t err_code)
{
	const char *what = error == -EOPNOTSUPP ? "hardware rejected" :
			   "hardware failed";

	if (engine == DRM_E1NPU_ENGINE_WRAPPER) {
		const char *name = err_code < sizeof(v0_err_names) /
					      sizeof(v0_err_names[0]) ?
				   v0_err_names[err_code] : "unknown";

		snprintf(buf, len, "%s: err_code 0x%02x %s (%s)", what,
			 (unsigned int)err_code, name, e1npu_strerror(error));
	} else {
		snprintf(buf, len, "%s: datapath status 0x%03x (%s)", what,
			 (unsigned int)err_code, e1npu_strerror(error));
	}
}
