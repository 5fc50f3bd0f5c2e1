// SPDX-License-Identifier: MIT
/* Host reasons of the structural and index operators (tflite_why.h). */
#include "tflite_reader.h"
#include "tflite_why.h"

const char *tfl_struct_why(int32_t builtin, bool add_bcast)
{
	switch (builtin) {
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
