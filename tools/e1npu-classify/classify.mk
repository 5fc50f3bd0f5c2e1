# SPDX-License-Identifier: MIT
#
# e1npu-classify: the TFLite image classifier CLI (normal and ASan+UBSan
# builds), installed into $(BINDIR). Included by tools/tools.mk.

CLASSIFY_SRCS := $(sort $(wildcard tools/e1npu-classify/*.c))
# The image files and preprocessing, without main (tests/tools/ tests them).
CLASSIFY_IMG_SRCS := $(addprefix tools/e1npu-classify/,image.c bmp.c png.c jpeg.c resize.c)
CLASSIFY      := $(O)/tools/e1npu-classify/e1npu-classify
CLASSIFY_SAN  := $(SAN_O)/tools/e1npu-classify/e1npu-classify

# PNG and JPEG through Debian's libpng and libjpeg-turbo. A cross build
# has them when its SYSROOT does (a Debian sysroot: Documentation/board.md),
# else goes without them (BMP only). E1NPU_WITH_PNG / E1NPU_WITH_JPEG
# override.
ifneq ($(CROSS_COMPILE),)
E1NPU_WITH_PNG  ?= $(call sysroot_has,libpng)
E1NPU_WITH_JPEG ?= $(call sysroot_has,libjpeg)
endif
E1NPU_WITH_PNG  ?= 1
E1NPU_WITH_JPEG ?= 1
CLASSIFY_CPPFLAGS := -Itools/e1npu-classify $(TOOL_COMMON_CPPFLAGS) -DE1NPU_WITH_PNG=$(E1NPU_WITH_PNG) \
	-DE1NPU_WITH_JPEG=$(E1NPU_WITH_JPEG) \
	$(if $(filter 1,$(E1NPU_WITH_PNG)),$(shell $(PKG_CONFIG) --cflags libpng 2>/dev/null))
CLASSIFY_LIBS := \
	$(if $(filter 1,$(E1NPU_WITH_PNG)),$(shell $(PKG_CONFIG) --libs libpng 2>/dev/null || echo -lpng)) \
	$(if $(filter 1,$(E1NPU_WITH_JPEG)),$(shell $(PKG_CONFIG) --libs libjpeg 2>/dev/null || echo -ljpeg))

$(call objs,$(CLASSIFY_SRCS)) $(call sanobjs,$(CLASSIFY_SRCS)): CPPFLAGS += $(CLASSIFY_CPPFLAGS)
# image.c, labels.c: the library's input file reader (lib/readfile.h)
$(call objs,$(CLASSIFY_SRCS)) $(call sanobjs,$(CLASSIFY_SRCS)): CPPFLAGS += -Ilib
# float32 steps as TensorFlow rounds them: no fused multiply-add (riscv64)
$(call objs,tools/e1npu-classify/resize.c) $(call sanobjs,tools/e1npu-classify/resize.c): \
	CFLAGS += -ffp-contract=off

$(CLASSIFY): $(call objs,$(CLASSIFY_SRCS)) $(TOOL_COMMON_A) $(LIB_A)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ $(CLASSIFY_LIBS) $(LIB_LIBS)

$(CLASSIFY_SAN): $(call sanobjs,$(CLASSIFY_SRCS)) $(TOOL_COMMON_SAN_A) $(LIB_SAN_A)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SANFLAGS) -o $@ $^ $(CLASSIFY_LIBS) $(LIB_LIBS)

install-classify: $(CLASSIFY)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	install -m 0755 $(CLASSIFY) $(DESTDIR)$(BINDIR)/e1npu-classify
	install -m 0644 tools/e1npu-classify/e1npu-classify.1 $(DESTDIR)$(MANDIR)/man1/

uninstall-classify:
	rm -f $(DESTDIR)$(BINDIR)/e1npu-classify $(DESTDIR)$(MANDIR)/man1/e1npu-classify.1

.PHONY: install-classify uninstall-classify
ALL_TARGETS     += $(CLASSIFY)
INSTALL_TARGETS += install-classify
UNINSTALL_TARGETS += uninstall-classify
