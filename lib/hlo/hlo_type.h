/* SPDX-License-Identifier: MIT */
/* Types, tensors, literals, attributes and the module's memory pool (hlo_type.c). */
#ifndef __E1NPU_HLO_TYPE_H__
#define __E1NPU_HLO_TYPE_H__

#include "hlo.h"

/* Memory of a module: freed all at once. */
struct hlo_pool;
void *hlo_alloc(struct e1npu_hlo *h, size_t size);
void hlo_pool_free(struct e1npu_hlo *h);

int64_t hlo_nelems(const struct hlo_type *t);
int hlo_is_float(const struct hlo_type *t);
size_t hlo_elem_bytes(const struct hlo_type *t);
double hlo_round(const struct hlo_type *t, double x);
int64_t hlo_wrap(const struct hlo_type *t, int64_t x);
int hlo_same_shape(const struct hlo_type *a, const struct hlo_type *b);
int hlo_same_type(const struct hlo_type *a, const struct hlo_type *b);
void hlo_type_str(const struct hlo_type *t, char *buf, size_t len);
double hlo_half_to_double(uint16_t h);
double hlo_bf16_to_double(uint16_t h);
int hlo_tensor_from_lit(const struct hlo_attr *lit, const struct hlo_type *t,
			struct hlo_tensor *out, char *err, size_t errlen);
int hlo_tensor_new(const struct hlo_type *t, struct hlo_tensor *out);
void hlo_tensor_free(struct hlo_tensor *t);

/* attributes */
const struct hlo_attr *hlo_attr_get(const struct hlo_op *op, const char *key);
int hlo_attr_ints(const struct hlo_attr *a, int64_t *out, int max);
int hlo_op_has_flag(const struct hlo_op *op, const char *flag);

#endif /* __E1NPU_HLO_TYPE_H__ */
