# SPDX-License-Identifier: MIT
#
# End-to-end quantized networks (lib/tflite, tools/e1npu-classify):
#   $(O)/tools/e1npu-classify/e1npu-classify   the CLI (built and installed
#       from here: tools/tools.mk does not include tools/*/*.mk),
#   check-models   reader on the 4 real models vs an independent Python
#       walk, malformed-input fuzz loop (ASan+UBSan), end-to-end top-1 and
#       NPU vs CPU-reference byte equality (tests/models/run-models.sh),
#   bench-models   modelled cycles, utilization, descriptors, host time.
# The models live beside the repository: MODELS_DIR (default
# $(CURDIR)/../shared/models); without it the model tests are SKIPPED loudly.

MODELS_DIR ?= $(CURDIR)/../shared/models


CLASSIFY_SRCS := $(sort $(wildcard tools/e1npu-classify/*.c))
# The image files and preprocessing, without main (tests/tools/ tests them).
CLASSIFY_IMG_SRCS := $(addprefix tools/e1npu-classify/,image.c bmp.c png.c jpeg.c resize.c)
CLASSIFY      := $(O)/tools/e1npu-classify/e1npu-classify
CLASSIFY_SAN  := $(SAN_O)/tools/e1npu-classify/e1npu-classify

# PNG and JPEG through Debian's libpng and libjpeg-turbo. A cross build
# goes without them (BMP only; Documentation/board.md): tests/vm/cross-deps.sh
# does not build them for riscv64. E1NPU_WITH_PNG=1 / E1NPU_WITH_JPEG=1
# with a SYSROOT that has them turns them back on.
ifneq ($(CROSS_COMPILE),)
E1NPU_WITH_PNG  ?= 0
E1NPU_WITH_JPEG ?= 0
endif
E1NPU_WITH_PNG  ?= 1
E1NPU_WITH_JPEG ?= 1
CLASSIFY_CPPFLAGS := -Itools/e1npu-classify -DE1NPU_WITH_PNG=$(E1NPU_WITH_PNG) \
	-DE1NPU_WITH_JPEG=$(E1NPU_WITH_JPEG) \
	$(if $(filter 1,$(E1NPU_WITH_PNG)),$(shell $(PKG_CONFIG) --cflags libpng 2>/dev/null))
CLASSIFY_LIBS := \
	$(if $(filter 1,$(E1NPU_WITH_PNG)),$(shell $(PKG_CONFIG) --libs libpng 2>/dev/null || echo -lpng)) \
	$(if $(filter 1,$(E1NPU_WITH_JPEG)),$(shell $(PKG_CONFIG) --libs libjpeg 2>/dev/null || echo -ljpeg))

$(call objs,$(CLASSIFY_SRCS)) $(call sanobjs,$(CLASSIFY_SRCS)): CPPFLAGS += $(CLASSIFY_CPPFLAGS)
# float32 steps as TensorFlow rounds them: no fused multiply-add (riscv64)
$(call objs,tools/e1npu-classify/resize.c) $(call sanobjs,tools/e1npu-classify/resize.c): \
	CFLAGS += -ffp-contract=off

$(CLASSIFY): $(call objs,$(CLASSIFY_SRCS)) $(LIB_A)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ $(CLASSIFY_LIBS) $(LIB_LIBS)

$(CLASSIFY_SAN): $(call sanobjs,$(CLASSIFY_SRCS)) $(LIB_SAN_A)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SANFLAGS) -o $@ $^ $(CLASSIFY_LIBS) $(LIB_LIBS)

MODELS_TEST_SRCS := tests/models/test-tflite.c
MODELS_CPPFLAGS  := -Ilib -Ilib/tflite -Ilib/ops -Ilib/ref
MODELS_TEST      := $(O)/tests/models/test-tflite
MODELS_TEST_SAN  := $(SAN_O)/tests/models/test-tflite
MODELS_BENCH     := $(O)/tests/models/bench-models
MODELS_BENCH_SRCS := tests/models/bench-models.c tests/models/bench-tflite.c

$(call objs,$(MODELS_TEST_SRCS) $(MODELS_BENCH_SRCS)) \
$(call sanobjs,$(MODELS_TEST_SRCS)): CPPFLAGS += $(MODELS_CPPFLAGS)

$(MODELS_TEST): $(call objs,$(MODELS_TEST_SRCS)) $(LIB_A)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ $(LIB_LIBS)

$(MODELS_TEST_SAN): $(call sanobjs,$(MODELS_TEST_SRCS)) $(LIB_SAN_A)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SANFLAGS) -o $@ $^ $(LIB_LIBS)

$(MODELS_BENCH): $(call objs,$(MODELS_BENCH_SRCS)) $(LIB_A)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ $(LIB_LIBS) -ldl

.PHONY: check-models bench-models install-classify
check-models: $(CLASSIFY) $(CLASSIFY_SAN) $(MODELS_TEST) $(MODELS_TEST_SAN)
	MODELS_DIR='$(MODELS_DIR)' CLASSIFY='$(CLASSIFY)' CLASSIFY_SAN='$(CLASSIFY_SAN)' \
	TEST_TFLITE='$(MODELS_TEST)' TEST_TFLITE_SAN='$(MODELS_TEST_SAN)' \
		sh tests/models/run-models.sh

# The repository's model, then MODELS_DIR's; real TFLite 2.2 from
# tools/devel/fetch-tflite.sh (x86_64 only) as the speed reference.
bench-models: $(MODELS_BENCH)
	@[ -d '$(MODELS_DIR)' ] || echo "bench-models: model directory $(MODELS_DIR) not found: only tests/data"
	@set -e; if d=$$(sh tools/devel/fetch-tflite.sh 2>$(O)/tests/models/fetch-tflite.err); then \
		set -- --tflite "$$d/lib/libtensorflowlite_c.so"; \
	else set -- --no-tflite "$$(tail -n 1 $(O)/tests/models/fetch-tflite.err)"; fi; \
	$(MODELS_BENCH) $(BENCH_MODELS_ARGS) "$$@" tests/data/mobilenet_v1_0.25_128_quant.tflite \
		$(filter-out %/mobilenet_v1_0.25_128_quant.tflite,$(sort $(wildcard $(MODELS_DIR)/*.tflite)))

install-classify: $(CLASSIFY)
	install -d $(DESTDIR)$(BINDIR)
	install -m 0755 $(CLASSIFY) $(DESTDIR)$(BINDIR)/e1npu-classify

ALL_TARGETS     += $(CLASSIFY)
CHECK_TARGETS   += check-models
BENCH_TARGETS   += bench-models
INSTALL_TARGETS += install-classify

