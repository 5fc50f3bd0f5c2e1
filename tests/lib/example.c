// SPDX-License-Identifier: MIT
/*
 * The smallest libe1npu program: open the default device, run a 4x4x16
 * int8 matmul and check it. Built by tests/lib/install-test.sh against an
 * installed libe1npu through pkg-config.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <e1npu/e1npu.h>

int main(void)
{
	struct e1npu_buffer *a, *b, *c;
	struct e1npu_device *dev;
	struct e1npu_cmdbuf *cb;
	struct e1npu_op_desc d;
	struct e1npu_tensor ta = { 0 }, tb = { 0 }, tc = { 0 };
	int8_t *pa, *pb;
	int32_t *pc;
	int i, j, k, ret, bad = 0;

	ret = e1npu_device_open(NULL, &dev);
	if (ret) {
		fprintf(stderr, "example: open: %s\n", e1npu_strerror(ret));
		return 1;
	}
	if (e1npu_buffer_alloc(dev, 4096, &a) || e1npu_buffer_alloc(dev, 4096, &b) ||
	    e1npu_buffer_alloc(dev, 4096, &c) || e1npu_buffer_map(a, (void **)&pa) ||
	    e1npu_buffer_map(b, (void **)&pb) || e1npu_buffer_map(c, (void **)&pc) ||
	    e1npu_cmdbuf_new(dev, &cb)) {
		fprintf(stderr, "example: %s\n", e1npu_device_last_error(dev));
		return 1;
	}
	for (i = 0; i < 64; i++) {
		pa[i] = (int8_t)(i - 32);
		pb[i] = (int8_t)(3 * i - 90);
	}
	ta.buf = a; ta.stride = 16;
	tb.buf = b; tb.stride = 16;
	tc.buf = c; tc.stride = 16;
	e1npu_op_desc_matmul(&d, ta, tb, tc, 4, 4, 16, 0);
	if (e1npu_cmdbuf_add_op(cb, &d) < 0 || e1npu_cmdbuf_run(cb)) {
		fprintf(stderr, "example: %s\n", e1npu_device_last_error(dev));
		return 1;
	}
	for (i = 0; i < 4; i++)
		for (j = 0; j < 4; j++) {
			int32_t want = 0;

			for (k = 0; k < 16; k++)
				want += pa[i * 16 + k] * pb[k * 16 + j];
			bad += pc[i * 4 + j] != want;
		}
	printf("example: libe1npu %s, 4x4x16 matmul: %s\n", e1npu_api_version(),
	       bad ? "MISMATCH" : "ok");
	/* Each object holds the device: free them all, in any order. */
	e1npu_cmdbuf_free(cb);
	e1npu_buffer_free(a);
	e1npu_buffer_free(b);
	e1npu_buffer_free(c);
	e1npu_device_close(dev);
	return bad ? 1 : 0;
}
