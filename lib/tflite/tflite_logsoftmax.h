/* SPDX-License-Identifier: MIT */
/*
 * LOG_SOFTMAX of uint8/int8 rows (the last dimension), as TFLite 2.2's
 * fixed-point kernels (reference_ops / reference_integer_ops LogSoftmax):
 * exps of the scaled differences to the row's maximum summed in Q12, their
 * log in Q5 (log_x_for_x_greater_than_or_equal_to_1), each output
 * RoundingDivideByPOT(diff_q5 - log_sum_q5, 22) + top, clamped; top is
 * the output zero point 2.2 requires (uint8 255, int8 127) at scale 16/256
 * (Documentation/quantization.md, "LOG_SOFTMAX").
 */
#ifndef E1NPU_TFLITE_LOGSOFTMAX_H
#define E1NPU_TFLITE_LOGSOFTMAX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tfl_logsoftmax {
	bool is_int8;
	size_t rows, depth;
	int32_t in_mult, diff_min;
	int in_shift;
	int32_t rev_mult;
	int rev_shift;			/* <= 0: a right shift */
};

/*
 * The multipliers from the input scale (beta 1, 5 integer bits, as 2.2's
 * PreprocessLogSoftmaxScalingExp). 0, or -EINVAL where 2.2's
 * QuantizeMultiplierGreaterThanOne / SmallerThanOneExp have no form.
 */
int tfl_logsoftmax_prepare(struct tfl_logsoftmax *s, bool is_int8, size_t rows, size_t depth,
			   float in_scale);

/* TFLite's log_x_for_x_greater_than_or_equal_to_1<5> of a Q12 value (exposed for tests). */
int32_t tfl_log_x_q12_to_q5(int32_t x_q12);

void tfl_logsoftmax_run(const struct tfl_logsoftmax *s, const uint8_t *in, uint8_t *out);

#endif
