// SPDX-License-Identifier: MIT
/*
 * libFuzzer harness of the StableHLO importer (include/e1npu/e1npu_hlo.h):
 * each input is MLIR text, loaded with tensors capped at 4096 elements,
 * on a CPU-only context or (one input in two) on the in-process device,
 * where int8 contractions take the NPU path (im2col, zero-point folding,
 * fixed-point requantization, cross-check); when it loads, the partition
 * report is read in full and the module is run.
 *
 * Properties: H1 load and run return 0 or a negative errno, with a
 * message on failure; H2 no crash, no ASan/UBSan report, no leak; H3 every
 * report row is readable and names an op, and an index past the end is
 * -EINVAL.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <e1npu/e1npu.h>
#include <e1npu/e1npu_hlo.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* the in-process device, opened once and kept for the whole run */
static struct e1npu_device *dev;

static void on_check(void *arg, const struct e1npu_hlo_check *c)
{
	unsigned *n = arg;

	if (c->passed > 1 || !c->kind[0])
		abort();
	(*n)++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct e1npu_hlo_options opt;
	struct e1npu_hlo *h = NULL;
	char err[256];
	uint32_t passed = 0, failed = 0;
	unsigned calls = 0;
	int ret;

	if (size > 16384)
		return 0;
	if (!dev && e1npu_device_open("sim", &dev))
		abort();
	memset(&opt, 0, sizeof(opt));
	opt.cpu_only = !(size & 2);
	opt.max_elements = 4096;
	opt.quant_tolerance = size & 1;
	err[0] = 0;
	ret = e1npu_hlo_load_memory(opt.cpu_only ? NULL : dev, (const char *)data, size,
				    "fuzz.mlir", &opt, &h,
				    err, sizeof(err));
	if (ret) {
		if (ret > 0 || h || !err[0]) /* H1 */
			abort();
		return 0;
	}
	for (size_t i = 0; i < e1npu_hlo_num_ops(h); i++) {
		struct e1npu_hlo_op_info o;

		if (e1npu_hlo_get_op(h, i, &o) || !o.op[0]) /* H3 */
			abort();
	}
	{
		struct e1npu_hlo_op_info o;
		struct e1npu_hlo_func_info f;

		if (e1npu_hlo_get_op(h, e1npu_hlo_num_ops(h), &o) != -EINVAL ||
		    e1npu_hlo_get_func(h, e1npu_hlo_num_funcs(h), &f) != -EINVAL)
			abort();
	}
	ret = e1npu_hlo_run(h, on_check, &calls, &passed, &failed);
	if (ret > 0 || (ret && !e1npu_hlo_last_error(h)[0]) || calls != passed + failed)
		abort();
	e1npu_hlo_free(h);
	return 0;
}
