# SPDX-License-Identifier: MIT
#
# e1npu-hlo (tools/e1npu-hlo/): the StableHLO runner, linked with
# libe1npu.a (the importer is lib/hlo/, built into the library by
# lib/lib.mk's lib/*/*.c). Its tests: tests/hlo/hlo.mk.


HLO_TOOL_SRCS := $(sort $(wildcard tools/e1npu-hlo/*.c))
HLO_TOOL      := $(O)/tools/e1npu-hlo/e1npu-hlo
HLO_TOOL_SAN  := $(SAN_O)/tools/e1npu-hlo/e1npu-hlo

$(HLO_TOOL): $(call objs,$(HLO_TOOL_SRCS)) $(LIB_A)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ $(LIB_LIBS)

$(HLO_TOOL_SAN): $(call sanobjs,$(HLO_TOOL_SRCS)) $(LIB_SAN_A)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SANFLAGS) -o $@ $^ $(LIB_LIBS)

.PHONY: e1npu-hlo install-hlo
e1npu-hlo: $(HLO_TOOL)

install-hlo: $(HLO_TOOL)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	install -m 0755 $(HLO_TOOL) $(DESTDIR)$(BINDIR)/e1npu-hlo
	install -m 0644 tools/e1npu-hlo/e1npu-hlo.1 $(DESTDIR)$(MANDIR)/man1/

ALL_TARGETS     += $(HLO_TOOL)
INSTALL_TARGETS += install-hlo


# Static build for the x86_64 QEMU guest (tests/hlo/t-hlo.sh): the
# library's objects with tools.mk's udev-less kernel backend.
ifeq ($(CROSS_COMPILE)$(TARGET_MACHINE),x86_64)
HLO_TOOL_STATIC := $(O)/tools/e1npu-hlo/e1npu-hlo-static
$(HLO_TOOL_STATIC): $(call objs,$(HLO_TOOL_SRCS)) $(LIB_STATIC_DRM_O) \
		$(filter-out $(O)/lib/backend-drm.o,$(LIB_OBJS))
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -static -o $@ $^ $(shell $(PKG_CONFIG) --static --libs libdrm 2>/dev/null || echo -ldrm) -lm

# the NPU modules, renamed hlo-*.mlir in the guest's flat /tests/
HLO_GUEST_TESTS := gen-dot gen-conv gen-quant gen-quant-tolerance gen-jax-dot gen-e1-records
HLO_GUEST_MLIR  := $(addprefix $(O)/tests/hlo/guest/hlo-,$(addsuffix .mlir,$(HLO_GUEST_TESTS)))
$(O)/tests/hlo/guest/hlo-%.mlir: tests/hlo/%.mlir
	@mkdir -p $(@D)
	cp $< $@

VM_X86_GUEST_FILES += $(HLO_TOOL_STATIC) tests/hlo/t-hlo.sh $(HLO_GUEST_MLIR)
ALL_TARGETS        += $(HLO_TOOL_STATIC) $(HLO_GUEST_MLIR)
endif
