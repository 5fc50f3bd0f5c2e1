// SPDX-License-Identifier: MIT
/* Host reasons of the operators the interpreter runs on the host (tflite_why.h). */
#include "tflite_reader.h"
#include "tflite_why.h"

const char *tfl_host_why(int32_t builtin, bool add_bcast)
{
	switch (builtin) {
	case TFL_OP_RESHAPE:
	case TFL_OP_SQUEEZE:
		return "layout only: data copied on the host";
	case TFL_OP_QUANTIZE:
		return "requantization: no hardware form, TFLite Requantize on the host";
	case TFL_OP_MEAN:
		return "mean over H, W: no hardware form, TFLite integer Mean on the host";
	case TFL_OP_CONCATENATION:
		return "concatenation (uint8 inputs rescaled in float) on the host";
	case TFL_OP_RESIZE_NEAREST_NEIGHBOR:
		return "layout only: nearest-neighbour copy on the host";
	case TFL_OP_TRANSPOSE:
	case TFL_OP_SLICE:
	case TFL_OP_STRIDED_SLICE:
		return "layout only: strided copy on the host";
	case TFL_OP_PAD:
		return "layout only: padded copy on the host";
	case TFL_OP_HARD_SWISH:
		return "hard swish in 16-bit fixed point on the host";
	case TFL_OP_MUL:
		return "elementwise product with requantization on the host";
	case TFL_OP_SUB:
		return "elementwise difference with requantization on the host";
	case TFL_OP_MAXIMUM:
	case TFL_OP_MINIMUM:
		return "elementwise max/min of the stored values on the host";
	case TFL_OP_RELU:
	case TFL_OP_RELU6:
	case TFL_OP_RELU_N1_TO_1:
		return "clamp with requantization: no hardware form, TFLite ReluX on the host";
	case TFL_OP_SPLIT:
	case TFL_OP_SPLIT_V:
	case TFL_OP_UNPACK:
	case TFL_OP_PACK:
		return "layout only: block copies on the host, no hardware copy engine";
	case TFL_OP_GATHER:
		return "layout only: indexed block copies on the host, no hardware gather";
	case TFL_OP_SPACE_TO_BATCH_ND:
	case TFL_OP_BATCH_TO_SPACE_ND:
		return "layout only: block-strided copies on the host, no hardware copy engine";
	case TFL_OP_DEPTH_TO_SPACE:
	case TFL_OP_SPACE_TO_DEPTH:
		return "layout only: block-to-channel copies on the host, no hardware copy engine";
	case TFL_OP_REDUCE_MAX:
	case TFL_OP_REDUCE_MIN:
		return "max/min of the stored values over the axes: no hardware reduction, on the host";
	case TFL_OP_SUM:
		return "sum over the axes, TFLite 2.2's QuantizedMeanOrSum on the host: no hardware reduction";
	case TFL_OP_PRELU:
		return "parametric ReLU with broadcast alpha, TFLite 2.2's uint8 kernel on the host";
	case TFL_OP_LOG_SOFTMAX:
		return "log-softmax in TFLite 2.2's gemmlowp fixed point on the host: no hardware log";
	case TFL_OP_ARG_MAX:
	case TFL_OP_ARG_MIN:
		return "index of the largest/smallest stored value: no hardware arg-reduction, on the host";
	case TFL_OP_RESIZE_BILINEAR:
		return "bilinear interpolation in TFLite 2.2's single-precision float: no hardware form, on the host";
	case TFL_OP_ADD:
		return add_bcast ? "broadcasting add: the hardware add takes equal shapes; TFLite BroadcastAdd4DSlow on the host" :
				   NULL;
	default:
		return NULL;
	}
}
