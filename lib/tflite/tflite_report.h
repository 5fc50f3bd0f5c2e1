/* SPDX-License-Identifier: MIT */
/*
 * The interpreter as e1npu-tflite report and diff see it
 * (lib/tflite/tflite_report.c): per operator where it will run and what it
 * costs, without running anything. Internal to the build: not in
 * libe1npu.sym.
 */
#ifndef __E1NPU_TFLITE_REPORT_H__
#define __E1NPU_TFLITE_REPORT_H__

#include <stdint.h>

#include <e1npu/e1npu_tflite.h>

#include "tflite_reader.h"

/* A prepared layer's lowering objects (tflite_api.c's hook). */
struct tflite_layer_view {
	uint32_t index;			/* operator index in the model */
	const struct tfl_operator *op;
	int32_t in, in2, out;		/* tensor indices (in2 -1: none) */
	struct e1npu_ops *ops;		/* NULL: reference path */
	const struct e1npu_conv *conv;	/* conv / depthwise, else NULL */
	const struct e1npu_fc *fc;	/* fully connected, else NULL */
	struct e1npu_fc_params fp;
	uint32_t fc_rows;
	struct e1npu_pool_params pp;
	bool add_bcast;			/* ADD of different shapes (host) */
	const char *host_why;		/* set at load by host-only layers, else NULL */
};

/* tflite_api.c: layer @k of @t (a whole or partial interpreter). */
int tflite_layer_view(const struct e1npu_tflite *t, uint32_t k,
		      struct tflite_layer_view *v);

/* Placement of one operator, before anything runs. */
enum tflite_place {
	TFLITE_PLACE_WRAPPER = 0,	/* systolic engine */
	TFLITE_PLACE_DATAPATH,		/* datapath engine */
	TFLITE_PLACE_HOST,		/* host CPU: library kernel or interpreter */
	TFLITE_PLACE_REFUSED,		/* the interpreter does not run it */
};

const char *tflite_place_name(uint32_t place);

/**
 * struct tflite_op_plan - one operator of a model, planned.
 * @index, @builtin, @name: the operator.
 * @out_dims, @out_ndims: its (first) output's shape.
 * @place: enum tflite_place; @partition: the run of consecutive accepted
 *	operators it belongs to (-1 when refused).
 * @rep: kind, engine, reason, why, macs, wrapper_cycles/dp_cycles (the
 *	modelled cycles of the chosen lowering, 0 where there is none).
 * @cycles_known: whether the cost model gives the cycles of this lowering
 *	(conv forms: yes; elsewhere they are only known by running).
 */
struct tflite_op_plan {
	uint32_t index;
	int32_t builtin;
	char name[24];
	uint32_t out_ndims;
	int32_t out_dims[TFL_MAX_DIMS];
	uint32_t place;
	int32_t partition;
	int cycles_known;
	struct e1npu_ops_report rep;
};

/*
 * tflite_plan_ops() - plan every operator of @m on lowering context @ctx
 * (NULL: CPU-only). @plan has m->num_operators entries. *@partitions: the
 * count of partitions. Return 0, -ENOMEM, or an error of a partial
 * interpreter (message in @err).
 */
int tflite_plan_ops(struct e1npu_ops *ctx, const struct tfl_model *m,
		    struct tflite_op_plan *plan, uint32_t *partitions,
		    char *err, size_t errlen);

#endif /* __E1NPU_TFLITE_REPORT_H__ */
