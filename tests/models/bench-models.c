// SPDX-License-Identifier: MIT
/*
 * bench-models: whole quantized networks on the in-process NPU model.
 * Per model: modelled NPU cycles (wrapper + datapath perf deltas summed over
 * layers), ideal cycles (MACs / 256, the 16x16 array), utilization, hardware
 * operations (descriptors / datapath jobs), CPU fallbacks (hardware ops
 * rejected to the CPU) and layers run on the host, host time per inference.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <e1npu/e1npu.h>
#include <e1npu/e1npu_tflite.h>

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int main(int argc, char **argv)
{
	static const char *models[] = {
		"mobilenet_v1_0.25_128_quant", "mobilenet_v1_0.5_160_quant",
		"mobilenet_v2_1.0_224_quant", "tf2_mobilenet_v2_1.0_224_ptq",
	};
	struct e1npu_device *dev;
	int ret;

	if (argc != 2) {
		fprintf(stderr, "usage: bench-models MODELS_DIR\n");
		return 2;
	}
	ret = e1npu_device_open("sim", &dev);
	if (ret) {
		fprintf(stderr, "bench-models: device sim: %s\n", e1npu_strerror(ret));
		return 1;
	}
	printf("bench-models: whole networks on device sim (modelled cycles; ideal = MACs/256)\n\n");
	printf("%-30s %6s %11s %11s %10s %6s %6s %9s %6s %9s\n", "model", "layers", "MACs",
	       "cycles", "ideal", "util", "hwops", "fallback", "host", "ms/inf");
	for (size_t i = 0; i < sizeof(models) / sizeof(models[0]); i++) {
		struct e1npu_tflite_tensor_info ii;
		struct e1npu_tflite *t;
		char path[4096], err[256];
		uint64_t cyc = 0, macs = 0, hw = 0, fb = 0, t0, ns;
		uint32_t nl, host = 0;
		const int reps = 3;
		uint8_t *in;

		snprintf(path, sizeof(path), "%s/%s.tflite", argv[1], models[i]);
		ret = e1npu_tflite_load_file(dev, path, NULL, &t, err, sizeof(err));
		if (ret) {
			printf("%-30s load failed: %s\n", models[i], err);
			continue;
		}
		e1npu_tflite_input_info(t, 0, &ii);
		e1npu_tflite_get_counts(t, NULL, NULL, &nl);
		in = malloc(ii.bytes);
		for (size_t k = 0; k < ii.bytes; k++)
			in[k] = (uint8_t)(k * 2654435761u >> 24);
		e1npu_tflite_set_input(t, 0, in, ii.bytes);
		ret = e1npu_tflite_invoke(t);	/* warm-up */
		t0 = now_ns();
		for (int r = 0; r < reps && !ret; r++)
			ret = e1npu_tflite_invoke(t);
		ns = (now_ns() - t0) / reps;
		if (ret) {
			printf("%-30s invoke failed: %s\n", models[i], e1npu_tflite_last_error(t));
			free(in);
			e1npu_tflite_free(t);
			continue;
		}
		for (uint32_t l = 0; l < nl; l++) {
			struct e1npu_tflite_layer ly;

			e1npu_tflite_get_layer(t, l, &ly);
			cyc += ly.report.wrapper_cycles + ly.report.dp_cycles;
			macs += ly.report.macs;
			hw += ly.report.hw_ops;
			fb += ly.report.hw_ops_fallback;
			host += ly.report.engine == E1NPU_ENGINE_CPU;
		}
		printf("%-30s %6u %11llu %11llu %10llu %5.1f%% %6llu %9llu %6u %9.2f\n",
		       models[i], nl, (unsigned long long)macs, (unsigned long long)cyc,
		       (unsigned long long)(macs / 256),
		       cyc ? 100.0 * (double)(macs / 256) / (double)cyc : 0.0,
		       (unsigned long long)hw, (unsigned long long)fb, host, ns / 1e6);
		free(in);
		e1npu_tflite_free(t);
	}
	printf("\nhost = layers run on the host CPU (no hardware form: average pool, softmax,\n"
	       "add, reshape, quantize, mean); fallback = hardware ops rejected to the CPU.\n");
	e1npu_device_close(dev);
	return 0;
}
