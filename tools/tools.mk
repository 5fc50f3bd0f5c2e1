# SPDX-License-Identifier: MIT
#
# npu-smoke (tools/npu-smoke/): linked with libe1npu.a, plus
#   $(O)/tools/npu-smoke/npu-smoke-static  static build for the QEMU guests
#       (libdrm.a, no libudev: E1NPU_WITH_UDEV=0 discovery),
#   $(O)/tests/lib/smoke-host.json  `npu-smoke smoke --json` on the
#       in-process model, shipped to the guest with tests/lib/guest-smoke.sh,
#   `make smoke`  npu-smoke smoke on the embedded model (README),
#   install-tools  npu-smoke and its man page, and the udev rule
#       tools/udev/70-e1npu.rules (group render rw on /dev/accel/accel*)
#       in UDEVRULESDIR (default /etc/udev/rules.d).


NPU_SMOKE_SRCS := $(sort $(wildcard tools/npu-smoke/*.c))
NPU_SMOKE      := $(O)/tools/npu-smoke/npu-smoke
NPU_SMOKE_STATIC := $(O)/tools/npu-smoke/npu-smoke-static
SMOKE_HOST_JSON := $(O)/tests/lib/smoke-host.json

$(call objs,$(NPU_SMOKE_SRCS)): CPPFLAGS += -Itools/npu-smoke
# --trace: the library's internal trace.h (npu-smoke links libe1npu.a)
$(call objs,tools/npu-smoke/trace-opt.c): CPPFLAGS += -Ilib

$(NPU_SMOKE): $(call objs,$(NPU_SMOKE_SRCS)) $(LIB_A)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ $(LIB_LIBS)

# Static guest binary: the library's objects, except the kernel backend
# rebuilt without libudev.
LIB_STATIC_DRM_O := $(O)/lib-static/backend-drm.o
$(LIB_STATIC_DRM_O): lib/backend-drm.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(LIB_CPPFLAGS) -DE1NPU_WITH_UDEV=0 $(CFLAGS) -MMD -MP -c $< -o $@

$(NPU_SMOKE_STATIC): $(call objs,$(NPU_SMOKE_SRCS)) $(LIB_STATIC_DRM_O) \
		$(filter-out $(O)/lib/backend-drm.o,$(LIB_OBJS))
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -static -o $@ $^ $(shell $(PKG_CONFIG) --static --libs libdrm 2>/dev/null || echo -ldrm) -lm

$(SMOKE_HOST_JSON): $(NPU_SMOKE)
	@mkdir -p $(@D)
	E1NPU_DEVICE=sim $(NPU_SMOKE) smoke --json > $@.tmp || \
		{ cat $@.tmp; rm -f $@.tmp; exit 1; }
	mv $@.tmp $@

.PHONY: smoke npu-smoke install-tools
npu-smoke: $(NPU_SMOKE)

# README: on a fresh machine, auto-detect picks the in-process model.
smoke: deps-build
	@$(MAKE) --no-print-directory $(NPU_SMOKE)
	env -u E1NPU_DEVICE $(NPU_SMOKE) smoke

UDEVRULESDIR ?= /etc/udev/rules.d

install-tools: $(NPU_SMOKE)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(UDEVRULESDIR)
	install -m 0755 $(NPU_SMOKE) $(DESTDIR)$(BINDIR)/npu-smoke
	install -m 0644 tools/npu-smoke/npu-smoke.1 $(DESTDIR)$(MANDIR)/man1/
	install -m 0644 tools/udev/70-e1npu.rules $(DESTDIR)$(UDEVRULESDIR)/

.PHONY: uninstall-tools
uninstall-tools:
	rm -f $(DESTDIR)$(BINDIR)/npu-smoke $(DESTDIR)$(MANDIR)/man1/npu-smoke.1 \
		$(DESTDIR)$(UDEVRULESDIR)/70-e1npu.rules

ALL_TARGETS     += $(NPU_SMOKE)
INSTALL_TARGETS += install-tools
UNINSTALL_TARGETS += uninstall-tools

# The host's smoke run, which the virtual board's npu-smoke must match bit
# for bit (tests/lib/guest-lib.mk ships it with guest-smoke.sh).
ifeq ($(CROSS_COMPILE),)
ALL_TARGETS        += $(SMOKE_HOST_JSON)
endif


# Each further tool brings its own fragment.
include tools/e1npu-classify/classify.mk
