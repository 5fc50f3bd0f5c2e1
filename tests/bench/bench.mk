# SPDX-License-Identifier: MIT
#
# bench-model: the device model's INT8 GEMM against oneDNN (libdnnl-dev),
# single thread. Numbers printed, not a timed test.

BENCH_MODEL := $(O)/tests/bench/bench-model

$(BENCH_MODEL): $(O)/tests/bench/bench-model.o $(O)/libe1model.a
	$(CC) $(CFLAGS) -o $@ $^ -ldnnl $(LDLIBS)

.PHONY: bench-model
bench-model: $(BENCH_MODEL)
	OMP_NUM_THREADS=1 DNNL_VERBOSE=0 $(BENCH_MODEL)

BENCH_TARGETS += bench-model

# bench-hybrid: each MobileNet/transformer layer's best split between the
# wrapper and the datapath, from cycles measured on the in-process model
# (Documentation/device-model.md, "Engine concurrency").
BENCH_HYBRID := $(O)/tests/bench/bench-hybrid
$(call objs,tests/bench/bench-hybrid.c): CPPFLAGS += $(LIB_CPPFLAGS)
$(BENCH_HYBRID): $(O)/tests/bench/bench-hybrid.o $(LIB_A)
	$(CC) $(CFLAGS) -o $@ $^ $(LIB_LIBS)

.PHONY: bench-hybrid
bench-hybrid: $(BENCH_HYBRID)
	$(BENCH_HYBRID)

ALL_TARGETS   += $(BENCH_HYBRID)
BENCH_TARGETS += bench-hybrid

# bench-layer-chart: MobileNetV2's per-layer SVG chart (modelled cycles vs
# the MAC-bound ideal, coloured by engine) from e1npu-tflite report --json
# (tests/bench/layer-chart.sh); Documentation/lowering.md, "Per-layer
# chart". The model comes from MODELS_DIR (tests/models/models.mk).
LAYER_CHART_MODEL := $(MODELS_DIR)/mobilenet_v2_1.0_224_quant.tflite
LAYER_CHART_SVG   := $(O)/tests/bench/mobilenet_v2_layers.svg

.PHONY: bench-layer-chart
bench-layer-chart: $(TFLITE_TOOL) $(NPU_SMOKE)
	@mkdir -p $(dir $(LAYER_CHART_SVG))
	@if [ -f '$(LAYER_CHART_MODEL)' ]; then \
		tests/bench/layer-chart.sh $(TFLITE_TOOL) $(NPU_SMOKE) '$(LAYER_CHART_MODEL)' \
			$(LAYER_CHART_SVG) "MobileNetV2 1.0 224 (uint8): modelled cycles per layer vs the MAC-bound ideal"; \
	else echo "bench-layer-chart: SKIPPED: $(LAYER_CHART_MODEL) not found (MODELS_DIR=DIR)"; fi

BENCH_TARGETS += bench-layer-chart
