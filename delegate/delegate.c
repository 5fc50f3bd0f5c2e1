// SPDX-License-Identifier: MIT
/*
 * libe1npu_tflite_delegate.so: TFLite's external-delegate ABI
 * (tflite_plugin_create_delegate / tflite_plugin_destroy_delegate), the
 * options, and Prepare: which nodes go to e1 (the interpreter's own
 * per-operator checks, lib/tflite/tflite_part.h). kernel.c runs them.
 * Documentation/tflite.md, "The delegate".
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "delegate.h"
#include "dynamic.h"
#include "tflite_part.h"
#include <e1npu/e1npu_tflite.h>

#define E1D_EXPORT	__attribute__((visibility("default")))

/* "MUL" or "18" -> builtin code; -1 if neither. */
static int builtin_code(const char *s, size_t len)
{
	char *end;
	long v;

	if (!len || len > 31)
		return -1;
	for (int c = 0; c < E1D_MAX_BUILTIN; c++)
		if (strlen(tfl_builtin_name(c)) == len && !strncmp(tfl_builtin_name(c), s, len) &&
		    strcmp(tfl_builtin_name(c), "UNKNOWN"))
			return c;
	v = strtol(s, &end, 10);
	if (end != s + len || v < 0 || v >= E1D_MAX_BUILTIN)
		return -1;
	return (int)v;
}

__attribute__((format(printf, 2, 3)))
static void opt_error(void (*report)(const char *), const char *fmt, ...)
{
	char msg[320];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (report)
		report(msg);
	else
		fprintf(stderr, "%s\n", msg);
}

static int parse_option(struct e1d *d, const char *key, const char *val,
			void (*report)(const char *))
{
	if (!key || !val) {
		opt_error(report, "e1npu delegate: option %s with a NULL %s",
			  key ? key : "(null)", key ? "value" : "key");
		return -EINVAL;
	}
	if (!strcmp(key, "device")) {
		if (strcmp(val, "sim") && strcmp(val, "auto") && val[0] != '/') {
			opt_error(report, "e1npu delegate: device '%s' is not sim, auto or an accel node path (/dev/accel/accel0)",
				  val);
			return -EINVAL;
		}
		if (strlen(val) >= sizeof(d->device)) {
			opt_error(report, "e1npu delegate: device path of %zu bytes is too long",
				  strlen(val));
			return -EINVAL;
		}
		snprintf(d->device, sizeof(d->device), "%s", val);
		return 0;
	}
	if (!strcmp(key, "log_level")) {
		if (strlen(val) != 1 || val[0] < '0' || val[0] > '2') {
			opt_error(report, "e1npu delegate: log_level '%s' is not 0, 1 or 2", val);
			return -EINVAL;
		}
		d->log_level = val[0] - '0';
		return 0;
	}
	if (!strcmp(key, "skip_ops")) {
		for (const char *p = val; *p;) {
			size_t len = strcspn(p, ",");
			int c = builtin_code(p, len);

			if (c < 0) {
				opt_error(report, "e1npu delegate: skip_ops '%s': '%.*s' is not a TFLite builtin operator name or code",
					  val, (int)(len > 40 ? 40 : len), p);
				return -EINVAL;
			}
			d->skip[c] = true;
			p += len + (p[len] == ',');
		}
		return 0;
	}
	if (!strcmp(key, "cache_dir")) {
		char why[300];

		if (strlen(val) >= sizeof(d->cache_dir) || e1d_cache_dir_check(val, why, sizeof(why))) {
			opt_error(report, "e1npu delegate: %s", strlen(val) >= sizeof(d->cache_dir) ?
				  "cache_dir: path too long" : why);
			return -EINVAL;
		}
		snprintf(d->cache_dir, sizeof(d->cache_dir), "%s", val);
		return 0;
	}
	if (!strcmp(key, "tflite_ref")) {
		if (!strcmp(val, "auto") || !strcmp(val, "2.2") || !strcmp(val, "2.14")) {
			d->ref_opt = !strcmp(val, "2.2") ? E1NPU_TFLITE_REF_2_2 :
				     !strcmp(val, "2.14") ? E1NPU_TFLITE_REF_2_14 : 0;
			return 0;
		}
		opt_error(report, "e1npu delegate: tflite_ref '%s' is not auto, 2.2 or 2.14", val);
		return -EINVAL;
	}
	opt_error(report, "e1npu delegate: unknown option '%s' (value '%s'); known: device, log_level, skip_ops, cache_dir, tflite_ref",
		  key, val);
	return -EINVAL;
}

/* Which nodes e1 takes, then TFLite groups them into partitions (kernels). */
static tfl_status e1d_prepare(struct tflc_context *ctx, struct tflc_delegate *base)
{
	struct e1d *d = base->data_;
	struct tflc_registration reg;
	struct tflc_int_array *plan, *take;
	struct e1d_view v;
	char err[256];
	int n = 0;
	tfl_status st = TFL_OK;
	bool *dyn;

	if (ctx->GetExecutionPlan(ctx, &plan) != TFL_OK)
		return TFL_ERROR;
	dyn = e1d_dynamic_tensors(ctx, plan->data, plan->size);
	if (!dyn) {
		ctx->ReportError(ctx, "e1npu delegate: cannot walk the graph's tensors");
		return TFL_ERROR;
	}
	if (e1d_version_detect(d, ctx, err, sizeof(err))) {
		ctx->ReportError(ctx, "e1npu delegate: %s", err);
		free(dyn);
		return TFL_ERROR;
	}
	if (e1d_view_build(ctx, plan->data, plan->size, d->nn_half_field, &v, err, sizeof(err))) {
		ctx->ReportError(ctx, "e1npu delegate: %s", err);
		free(dyn);
		return TFL_ERROR;
	}
	v.m.ref = d->ref;
	v.m.ruy_single = d->ruy_single;
	e1d_log(d, 1, "TFLite %s: arithmetic of TFLite %s%s%s", d->tfl_version[0] ?
		d->tfl_version : "(no TfLiteVersion)",
		d->ref == E1NPU_TFLITE_REF_2_14 ? "2.14" : "2.2",
		d->ref == E1NPU_TFLITE_REF_2_14 ?
		(d->ruy_single ? " (ruy's portable kernel)" : " (ruy's x86-64 kernels)") : "",
		d->ref_opt ? " (option tflite_ref)" : "");
	take = malloc(sizeof(*take) + (size_t)(plan->size + 1) * sizeof(int));
	if (!take) {
		e1d_view_free(&v);
		free(dyn);
		return TFL_ERROR;
	}
	for (int k = 0; k < plan->size; k++) {
		int32_t code = v.m.operators[k].builtin;
		const char *name = tfl_builtin_name(code);

		if (code >= 0 && code < E1D_MAX_BUILTIN && d->skip[code]) {
			e1d_log(d, 2, "node %d %s -> tflite: kept on TFLite by option skip_ops",
				plan->data[k], name);
			continue;
		}
		int dt = e1d_node_dynamic(ctx, plan->data[k], dyn);

		if (dt >= 0) {
			e1d_log(d, 2, "node %d %s -> tflite: tensor %d (%s) may change shape at run time",
				plan->data[k], name, dt, ctx->tensors[dt].name ?
				ctx->tensors[dt].name : "");
			continue;
		}
		if (e1npu_tflite_part_check(&v.m, (uint32_t)k, err, sizeof(err))) {
			e1d_log(d, 2, "node %d %s (builtin %d) -> tflite: %s",
				plan->data[k], name, code, err);
			continue;
		}
		e1d_log(d, 2, "node %d %s -> e1", plan->data[k], name);
		take->data[n++] = plan->data[k];
	}
	take->size = n;
	d->partitions = 0;
	if (n) {
		memset(&reg, 0, sizeof(reg));
		reg.init = e1d_kernel_init;
		reg.free = e1d_kernel_free;
		reg.prepare = e1d_kernel_prepare;
		reg.invoke = e1d_kernel_invoke;
		reg.builtin_code = TFLC_BUILTIN_DELEGATE;
		reg.custom_name = "e1npu";
		reg.version = 1;
		/* TFLite calls init once per partition before returning. */
		st = ctx->ReplaceNodeSubsetsWithDelegateKernels(ctx, reg, take, base);
	}
	e1d_log(d, 1, "delegated %d of %d nodes in %u partitions", n, plan->size,
		d->partitions);
	free(take);
	free(dyn);
	e1d_view_free(&v);
	return st;
}

E1D_EXPORT struct tflc_delegate *
tflite_plugin_create_delegate(char **keys, char **values, size_t n,
			      void (*report_error)(const char *));
E1D_EXPORT void tflite_plugin_destroy_delegate(struct tflc_delegate *base);

E1D_EXPORT struct tflc_delegate *
tflite_plugin_create_delegate(char **keys, char **values, size_t n,
			      void (*report_error)(const char *))
{
	struct e1d *d = calloc(1, sizeof(*d));
	const char *dbg = getenv("E1NPU_TFLITE_DEBUG");
	int ret;

	if (!d) {
		opt_error(report_error, "e1npu delegate: out of memory");
		return NULL;
	}
	snprintf(d->device, sizeof(d->device), "sim");
	if (n && (!keys || !values)) {
		opt_error(report_error, "e1npu delegate: %zu options but NULL keys or values", n);
		free(d);
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		if (parse_option(d, keys[i], values[i], report_error)) {
			free(d);
			return NULL;
		}
	}
	/* junk is refused, not taken as "on" */
	if (dbg && dbg[0] && strcmp(dbg, "0") && strcmp(dbg, "1")) {
		opt_error(report_error, "e1npu delegate: environment variable "
			  "E1NPU_TFLITE_DEBUG='%s': expected 0 or 1", dbg);
		free(d);
		return NULL;
	}
	if (dbg && !strcmp(dbg, "1"))
		d->log_level = 2;
	ret = e1npu_device_open(strcmp(d->device, "auto") ? d->device : NULL, &d->dev);
	if (ret) {
		opt_error(report_error, "e1npu delegate: device '%s': cannot open: %s",
			  d->device, e1npu_device_last_error(NULL));
		free(d);
		return NULL;
	}
	ret = e1npu_ops_new(d->dev, &d->ops);
	if (ret) {
		opt_error(report_error, "e1npu delegate: device '%s': %s", d->device,
			  e1npu_ops_last_error(NULL));
		e1npu_device_close(d->dev);
		free(d);
		return NULL;
	}
	d->base.data_ = d;
	d->base.Prepare = e1d_prepare;
	/* dynamic graphs welcome: their dynamic nodes stay on TFLite (dynamic.c) */
	d->base.flags = TFLC_DELEGATE_ALLOW_DYNAMIC;
	e1d_log(d, 1, "device %s, log level %d%s%s", d->device, d->log_level,
		d->cache_dir[0] ? ", cache " : "", d->cache_dir);
	return &d->base;
}

E1D_EXPORT void tflite_plugin_destroy_delegate(struct tflc_delegate *base)
{
	struct e1d *d;

	if (!base)
		return;
	d = base->data_;
	/* Lowering objects still alive hold their own references. */
	e1npu_ops_free(d->ops);
	e1npu_device_close(d->dev);
	free(d);
}
