/* SPDX-License-Identifier: MIT */
/*
 * libe1npu StableHLO importer: loads the textual MLIR that
 * stablehlo-translate/stablehlo-opt print and JAX emits, runs its functions
 * with int8/int4 dot_general/dot/convolution on the NPU through the
 * lowering layer (include/e1npu/e1npu_ops.h) and every other op on exact
 * CPU references, executes the interpreter's check ops, and reports per op
 * its engine, reason, lowering API, command-buffer batch and arena slot.
 * Documentation/hlo.md.
 *
 * Conventions are those of e1npu.h: opaque handle, 0 or a negative errno,
 * never prints; errors are kept as text (e1npu_hlo_last_error() or the @err
 * buffer of the load functions). One thread at a time per module.
 */
#ifndef __E1NPU_PUBLIC_HLO_H__
#define __E1NPU_PUBLIC_HLO_H__

#include <stddef.h>
#include <stdint.h>

#include <e1npu/e1npu.h>

#ifdef __cplusplus
extern "C" {
#endif

struct e1npu_hlo;

/**
 * struct e1npu_hlo_options - how a module runs.
 * @quant_tolerance: largest difference, in output LSBs, accepted between
 *	the NPU's fixed-point requantization and StableHLO's float
 *	decomposition of a quantized op (0: results must be identical).
 * @cpu_only: 1 runs every op on the CPU references (no lowering context).
 * @max_elements: largest tensor type accepted at load, in elements
 *	(0: 2^24); a module with a larger one is -ENOTSUP.
 * @max_work_mi: the work cap: the most CPU work one e1npu_hlo_run() may
 *	take, in Mi steps (2^20 inner-loop steps each), 1 to 2^22. 0: the
 *	environment variable E1NPU_HLO_MAX_WORK (same unit; a bad value
 *	fails the load with -EINVAL naming it), else 256 steps per element
 *	of @max_elements (4096 Mi = 2^32 steps by default). Past the cap
 *	e1npu_hlo_run() is -E2BIG, the message naming the cap.
 * @reserved: must be zero (-EINVAL otherwise).
 */
struct e1npu_hlo_options {
	uint32_t quant_tolerance;
	uint32_t cpu_only;
	uint32_t max_elements;
	uint32_t max_work_mi;
	uint32_t reserved[4];
};

/**
 * e1npu_hlo_load_memory() - parse, validate and plan a module held in
 * memory (copied). A file split with "// -----" lines loads as sections.
 * @dev: device for the NPU ops, or NULL (the lowering layer's CPU-only
 *	context). The module holds @dev open: it may be closed first.
 * @text: the MLIR text.
 * @len: its length in bytes (no NUL needed; a NUL inside is -EINVAL).
 * @name: file name used in messages ("file:line:col: ..."), or NULL.
 * @opt: NULL for the defaults (tolerance 0).
 * @hp: out: the module, owned by the caller, to free with e1npu_hlo_free().
 * @err: NULL or a buffer for the failure message.
 * @errlen: its size in bytes.
 * Return: 0, -EINVAL (syntax or type error), -ENOTSUP (an op, type or form
 *	this importer does not run: named in the message), -ENOMEM, or an
 *	error of the lowering layer.
 */
int e1npu_hlo_load_memory(struct e1npu_device *dev, const char *text,
			  size_t len, const char *name,
			  const struct e1npu_hlo_options *opt,
			  struct e1npu_hlo **hp, char *err, size_t errlen);

/**
 * e1npu_hlo_load_file() - e1npu_hlo_load_memory() of a file's contents.
 * @dev: as e1npu_hlo_load_memory().
 * @path: the file; messages name it.
 * @opt: as e1npu_hlo_load_memory().
 * @hp: as e1npu_hlo_load_memory().
 * @err: as e1npu_hlo_load_memory().
 * @errlen: as e1npu_hlo_load_memory().
 * Return: as e1npu_hlo_load_memory(), or -errno of opening or reading
 *	@path, -EFBIG above 1 GiB.
 */
int e1npu_hlo_load_file(struct e1npu_device *dev, const char *path,
			const struct e1npu_hlo_options *opt,
			struct e1npu_hlo **hp, char *err, size_t errlen);

/**
 * e1npu_hlo_free() - free a module and its lowering context.
 * @h: the module, or NULL (no-op).
 */
void e1npu_hlo_free(struct e1npu_hlo *h);

/**
 * e1npu_hlo_last_error() - the message of the module's last failure.
 * @h: the module.
 * Return: the message, "" if none; valid until the next call on @h.
 */
const char *e1npu_hlo_last_error(const struct e1npu_hlo *h);

/**
 * e1npu_hlo_set_input() - bind an argument of the public @main function of
 * section 0 (e1npu_hlo_run() then runs main with it).
 * @h: the module.
 * @name: the argument's name without '%' ("arg0") or its index ("0").
 * @dtype: the element type in MLIR spelling ("i8", "f32", ...): must be
 *	the argument's element type (its storage type when quantized).
 * @rank: the rank, equal to the argument's.
 * @dims: @rank dimensions, equal to the argument's.
 * @data: the values, little-endian, row-major.
 * @size: bytes at @data: elements x storage bytes (one for i1..i8).
 * Return: 0, -ENOENT (no such argument), -EINVAL (type, shape or size).
 */
int e1npu_hlo_set_input(struct e1npu_hlo *h, const char *name,
			const char *dtype, uint32_t rank,
			const uint64_t *dims, const void *data, size_t size);

/**
 * struct e1npu_hlo_check - the outcome of one check op.
 * @section: the "// -----" section, from 0.
 * @line: the check's line in the file.
 * @passed: 1 or 0.
 * @reserved: zero.
 * @func: the function that ran it.
 * @kind: "check.expect_eq", ...
 * @msg: why it failed (first mismatching element), or what it compared.
 */
struct e1npu_hlo_check {
	uint32_t section;
	uint32_t line;
	uint32_t passed;
	uint32_t reserved;
	char func[64];
	char kind[40];
	char msg[216];
};

/**
 * typedef e1npu_hlo_check_fn - called once per check op as it runs.
 * @arg: the caller's pointer given to e1npu_hlo_run().
 * @check: the outcome, valid during the call only.
 */
typedef void (*e1npu_hlo_check_fn)(void *arg,
				   const struct e1npu_hlo_check *check);

/**
 * e1npu_hlo_run() - run every function that takes no arguments (and public
 * main, whose arguments must all be bound), in every section, in file
 * order. Functions only called by others (private, or called) are not run
 * on their own. What each function run returned is kept until the next
 * run (e1npu_hlo_get_output()).
 * @h: the module.
 * @fn: called for every check op, or NULL.
 * @arg: passed to @fn.
 * @passed: out (may be NULL): checks that passed.
 * @failed: out (may be NULL): checks that failed.
 * Return: 0 when the module ran (checks may have failed: see @failed),
 *	a negative errno when an op could not run (message in
 *	e1npu_hlo_last_error()), -EIO when a quantized op's NPU result
 *	differs from the specification by more than the tolerance, -E2BIG
 *	past the work cap (struct e1npu_hlo_options), -ENODATA when an
 *	argument of @main is not bound or nothing runs (an empty module,
 *	only functions with arguments): named in the message.
 */
int e1npu_hlo_run(struct e1npu_hlo *h, e1npu_hlo_check_fn fn, void *arg,
		  uint32_t *passed, uint32_t *failed);

/**
 * struct e1npu_hlo_output - one result of the last e1npu_hlo_run().
 * @func: the function (e1npu_hlo_get_func() index) that returned it.
 * @index: which of its results, from 0.
 * @rank: dimensions in @dims.
 * @reserved0: zero.
 * @dims: the shape.
 * @elements: the product of @dims.
 * @bytes: @elements x storage bytes (one for i1..i8): what
 *	e1npu_hlo_get_output() writes.
 * @name: "FUNC#INDEX", e.g. "main#0".
 * @dtype: the element type in MLIR spelling ("i32", "f32"; the storage
 *	type of a quantized tensor), as e1npu_hlo_set_input() takes it.
 * @type: the full type, "tensor<2x2xi32>".
 * @reserved: zero.
 */
struct e1npu_hlo_output {
	uint32_t func;
	uint32_t index;
	uint32_t rank;
	uint32_t reserved0;
	uint64_t dims[8];
	uint64_t elements;
	uint64_t bytes;
	char name[72];
	char dtype[16];
	char type[96];
	uint32_t reserved[4];
};

/**
 * e1npu_hlo_num_outputs() - results of the last run.
 * @h: the module.
 * Return: the results of every function e1npu_hlo_run() ran on its own,
 *	in file order (0 before a run, after a failed one, or for NULL).
 */
size_t e1npu_hlo_num_outputs(const struct e1npu_hlo *h);

/**
 * e1npu_hlo_get_output() - one result of the last run: its description and
 * optionally its values.
 * @h: the module.
 * @i: the result, below e1npu_hlo_num_outputs().
 * @info: out: name, type and shape.
 * @data: NULL (description only) or @size bytes for the values:
 *	little-endian, row-major, the layout of e1npu_hlo_set_input().
 * @size: @info->bytes exactly when @data is given.
 * Return: 0, -EINVAL (NULL argument, @i out of range, wrong @size).
 */
int e1npu_hlo_get_output(const struct e1npu_hlo *h, size_t i,
			 struct e1npu_hlo_output *info, void *data, size_t size);

/**
 * enum e1npu_hlo_engine - where the importer places an op.
 * @E1NPU_HLO_ENGINE_CPU: the CPU references (lib/hlo).
 * @E1NPU_HLO_ENGINE_NPU: the lowering layer (e1npu_ops_*).
 * @E1NPU_HLO_ENGINE_FUSED: folded into an NPU op (an int8 -> wider
 *	convert feeding it, a requantizing uniform_quantize after it).
 * @E1NPU_HLO_ENGINE_NONE: no compute (constant, call, return, check).
 */
enum e1npu_hlo_engine {
	E1NPU_HLO_ENGINE_NONE = 0,
	E1NPU_HLO_ENGINE_CPU = 1,
	E1NPU_HLO_ENGINE_NPU = 2,
	E1NPU_HLO_ENGINE_FUSED = 3,
};

/**
 * struct e1npu_hlo_op_info - one op of the partition report.
 * @section: the "// -----" section, from 0.
 * @line: the op's line in the file.
 * @engine: enum e1npu_hlo_engine.
 * @ran_engine: enum e1npu_engine that ran the MACs on the last run
 *	(E1NPU_ENGINE_NONE before a run or for CPU ops).
 * @batch: command-buffer batch index within the function, -1 for none.
 * @hw_ops: hardware operations of the last run (NPU ops).
 * @lsb_diff: largest difference from the specification, in LSBs, of the
 *	last run (quantized NPU ops).
 * @lsb_diff_count: elements that differed.
 * @arena_offset: the result's offset in the function's arena plan.
 * @arena_size: its slot's size (0: no slot).
 * @func: the function.
 * @op: "stablehlo.dot_general", ...
 * @result: "%3", "" for ops without results.
 * @api: the lowering API ("e1npu_ops_matmul_s8", "cpu", ...).
 * @why: the reason, with the numbers that decided it.
 * @reserved: zero.
 */
struct e1npu_hlo_op_info {
	uint32_t section;
	uint32_t line;
	uint32_t engine;
	uint32_t ran_engine;
	int32_t batch;
	uint32_t hw_ops;
	uint32_t lsb_diff;
	uint32_t lsb_diff_count;
	uint64_t arena_offset;
	uint64_t arena_size;
	char func[64];
	char op[48];
	char result[32];
	char api[48];
	char why[160];
	uint32_t reserved[4];
};

/**
 * e1npu_hlo_num_ops() - rows of the partition report.
 * @h: the module.
 * Return: the ops of every function, in file order (0 for NULL).
 */
size_t e1npu_hlo_num_ops(const struct e1npu_hlo *h);

/**
 * e1npu_hlo_get_op() - one row of the partition report.
 * @h: the module.
 * @i: the row, below e1npu_hlo_num_ops().
 * @info: out: the row (engine and figures of the last e1npu_hlo_run()).
 * Return: 0, -EINVAL (NULL argument or @i out of range).
 */
int e1npu_hlo_get_op(const struct e1npu_hlo *h, size_t i,
		     struct e1npu_hlo_op_info *info);

/**
 * struct e1npu_hlo_func_info - one function of the report.
 * @section: the "// -----" section, from 0.
 * @line: the line of its func.func.
 * @num_ops: ops in its body.
 * @num_batches: command-buffer batches of its NPU ops.
 * @arena_peak: bytes of its arena plan (slots reused after a value's last
 *	use, 16-byte aligned).
 * @arena_total: the sum of its slots' sizes.
 * @name: the function's name.
 * @reserved: zero.
 */
struct e1npu_hlo_func_info {
	uint32_t section;
	uint32_t line;
	uint32_t num_ops;
	uint32_t num_batches;
	uint64_t arena_peak;
	uint64_t arena_total;
	char name[64];
	uint32_t reserved[4];
};

/**
 * e1npu_hlo_num_funcs() - functions of the module, every section.
 * @h: the module.
 * Return: their count (0 for NULL); their ops are consecutive report rows.
 */
size_t e1npu_hlo_num_funcs(const struct e1npu_hlo *h);

/**
 * e1npu_hlo_get_func() - one function of the report.
 * @h: the module.
 * @i: the function, below e1npu_hlo_num_funcs().
 * @info: out: its batches and arena plan.
 * Return: 0, -EINVAL (NULL argument or @i out of range).
 */
int e1npu_hlo_get_func(const struct e1npu_hlo *h, size_t i,
		       struct e1npu_hlo_func_info *info);

/**
 * e1npu_hlo_engine_name() - the name of an enum e1npu_hlo_engine.
 * @engine: the engine.
 * Return: "cpu", "npu", "fused" or "none" (static storage).
 */
const char *e1npu_hlo_engine_name(uint32_t engine);

#ifdef __cplusplus
}
#endif

#endif /* __E1NPU_PUBLIC_HLO_H__ */
