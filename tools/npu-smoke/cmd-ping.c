// SPDX-License-Identifier: MIT
/*
 * npu-smoke ping: one NOP job round trip.
 */
#include <stdlib.h>

#include "tools-common.h"

static void print_help(void)
{
	printf("Usage: %s [OPTIONS] ping\n\nSubmit one NOP job and wait for it.\n",
	       prog_name);
}

int cmd_ping(int argc, char **argv, struct common_opts *o)
{
	struct e1npu_op_outcome out;
	struct e1npu_device *dev;
	struct e1npu_cmdbuf *cb;
	struct e1npu_op_desc d;
	double t0, us;
	int ret;

	no_operands(argc, argv,
		    parse_common(argc, argv, o, NULL, NULL, NULL, NULL, print_help));
	dev = open_device_or_die(o);
	e1npu_op_desc_nop(&d);
	if (e1npu_cmdbuf_new(dev, &cb) || e1npu_cmdbuf_add_op(cb, &d) < 0)
		die("ping: %s", e1npu_device_last_error(dev));
	t0 = now_us();
	ret = e1npu_cmdbuf_run(cb);
	us = now_us() - t0;
	e1npu_cmdbuf_get_outcome(cb, 0, &out);
	if (o->json)
		printf("{\"device\":\"%s\",\"ok\":%s,\"engine\":\"%s\",\"latency_us\":%.1f}\n",
		       device_name(dev), ret ? "false" : "true", e1npu_engine_name(out.engine), us);
	else if (!ret)
		printf("ping: NOP job completed on %s (device %s) in %.1f us\n",
		       e1npu_engine_name(out.engine), device_name(dev), us);
	if (ret)
		print_error("ping: %s", e1npu_device_last_error(dev));
	e1npu_cmdbuf_free(cb);	/* it holds the device open */
	e1npu_device_close(dev);
	return ret ? EXIT_FAILURE : EXIT_SUCCESS;
}
