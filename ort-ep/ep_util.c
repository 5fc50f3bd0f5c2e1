// SPDX-License-Identifier: MIT
/*
 * The e1 ONNX Runtime EP's helpers that matching and compute (ep.c) and
 * compiled models (ep_context.c) share: ORT statuses, node and value
 * names, element sizes, a kernel's release, and the saturation guard
 * (where ORT's CPU EP's u8 x s8 product is not the exact one).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ep.h"
#include "ep_graph.h"

const OrtApi *ort;
const OrtEpApi *epapi;

OrtStatus *st(OrtErrorCode code, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return ort->CreateStatus(code, buf);
}

/* ok(): true when @s is success; releases a failure. */
bool ok(OrtStatus *s)
{
	if (!s)
		return true;
	ort->ReleaseStatus(s);
	return false;
}

const char *node_op(const OrtNode *n)
{
	const char *t = NULL;

	return ok(ort->Node_GetOperatorType(n, &t)) && t ? t : "?";
}

const char *node_name(const OrtNode *n)
{
	const char *t = NULL;

	return ok(ort->Node_GetName(n, &t)) && t ? t : "";
}

size_t node_inputs(const OrtNode *n, const OrtValueInfo **in, size_t max)
{
	size_t k = 0;

	if (!ok(ort->Node_GetNumInputs(n, &k)) || k > max)
		return 0;
	for (size_t i = 0; i < max; i++)
		in[i] = NULL;
	if (k && !ok(ort->Node_GetInputs(n, in, k)))
		return 0;
	return k;
}

const char *vi_name(const OrtValueInfo *v)
{
	const char *s = NULL;

	return v && ok(ort->GetValueInfoName(v, &s)) && s ? s : "";
}

size_t dt_size(int dt)
{
	switch (dt) {
	case ONNX_TENSOR_ELEMENT_DATA_TYPE_INT8:
	case ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT8:
		return 1;
	case ONNX_TENSOR_ELEMENT_DATA_TYPE_INT32:
	case ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT:
		return 4;
	default:
		return 0;
	}
}

void kern_free(struct kern *k)
{
	if (!k)
		return;
	free(k->x.data);
	free(k->w.data);
	free(k->bias.data);
	free(k->ws);
	free(k->wzp);
	xk_free(k->xk);
	k->xk = NULL;
}

/* a partition's kernels (kern_free, then free, each) */
void kern_chain_free(struct kern *k)
{
	while (k) {
		struct kern *next = k->next;

		kern_free(k);
		free(k);
		k = next;
	}
}

/* index of the fused node's input named @name, -1 when absent */
int fused_input(const OrtNode *fused, const char *name)
{
	const OrtValueInfo *in[64];
	size_t n = node_inputs(fused, in, 64);

	for (size_t i = 0; i < n; i++)
		if (in[i] && !strcmp(vi_name(in[i]), name))
			return (int)i;
	return -1;
}

/*
 * ORT's CPU EP multiplies 8-bit matrices with MLAS. Its u8 x s8 kernels
 * on x86-64 without VNNI (AVX2: vpmaddubsw) add each pair of u8 x s8
 * products in int16 with saturation, so ORT's result is not the exact
 * integer product when a pair exceeds 32767 (s8 activations are shifted
 * to u8 first). e1 computes the exact product: a node with int8 weights
 * is claimed there only when no pair can saturate whatever the
 * activations: 255 * (the two largest weights of one sign of an output
 * channel) <= 32767. With VNNI (vpdpbusd, exact) there is no limit, nor
 * on riscv64 (the board's test compares e1 with ORT's CPU EP there).
 */
static bool mlas_exact_u8s8(void)
{
#if defined(__x86_64__)
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx512vnni") || __builtin_cpu_supports("avxvnni");
#elif defined(__riscv)
	/* MLAS has no riscv64 kernels: its portable one sums in int32 */
	return true;
#else
	return false;
#endif
}

const char *sat_guard(const struct kern *k)
{
	const int8_t *w;
	size_t nch, klen, stride_k, stride_n;

	if (k->wdt != ONNX_TENSOR_ELEMENT_DATA_TYPE_INT8 || mlas_exact_u8s8())
		return NULL;
	if (k->w.runtime_idx != -1 || !k->w.data)
		return "int8 weights not constant: ORT's MLAS u8s8 kernel (AVX2, no VNNI) may saturate int16 pairs";
	w = k->w.data;
	if (k->kind == K_CONV) {
		nch = (size_t)k->w.dims[0];
		klen = nch ? k->w.count / nch : 0;
		stride_k = 1;
		stride_n = klen;
	} else {
		size_t N = (size_t)k->w.dims[k->w.rank - 1];

		nch = k->w.count / (N ? N : 1) / (size_t)k->w.dims[k->w.rank - 2] * N;
		klen = (size_t)k->w.dims[k->w.rank - 2];
		stride_k = N;
		stride_n = 0;	/* (batch, n) below */
	}
	for (size_t c = 0; c < nch; c++) {
		int p1 = 0, p2 = 0, n1 = 0, n2 = 0;
		size_t base;

		if (k->kind == K_CONV) {
			base = c * stride_n;
		} else {
			size_t N = stride_k, b = c / N, n = c % N;

			base = b * klen * N + n;
		}
		for (size_t i = 0; i < klen; i++) {
			int v = w[base + i * stride_k];

			if (v > 0) {
				if (v > p1)
					p2 = p1, p1 = v;
				else if (v > p2)
					p2 = v;
			} else {
				v = -v;
				if (v > n1)
					n2 = n1, n1 = v;
				else if (v > n2)
					n2 = v;
			}
		}
		if (255 * (p1 + p2) > 32767 || 255 * (n1 + n2) > 32767)
			return "int8 weights that can saturate ORT's MLAS u8s8 int16 pairs (AVX2, no VNNI): ORT's result is not the exact product";
	}
	return NULL;
}

void xk_free(struct xk *x)
{
	if (!x)
		return;
	for (size_t i = 0; i < XK_MAXIN; i++) {
		free(x->in[i].data);
		free(x->names[i]);
		free(x->lut[i]);
	}
	free(x);
}

bool ew_cpu_ok(void)
{
#if defined(__x86_64__)
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
	return false;
#endif
}

const char *xk_cpu_why(enum xk_op op)
{
	if (op == XK_ADD && !ew_cpu_ok())
		return "QLinearAdd: only MLAS's AVX2+FMA kernel is reproduced (this CPU has not both)";
#if !defined(__x86_64__)
	/* measured under qemu-user in the sid riscv64 root: MLAS's portable
	 * QLinearSoftmax differs from the table ep_softmax.c builds */
	if (op == XK_SOFTMAX)
		return "QLinearSoftmax: only x86-64's MLAS is reproduced";
#endif
	return NULL;
}
