# SPDX-License-Identifier: MIT
#
# libe1npu: lib/*.c and lib/*/*.c (the runtime, and the lowering layer in
# lib/ops/ and lib/ref/), hw/e1npu_opcheck.c (the command formats and
# submission rules the kernel driver compiles too), hw/e1npu_cmd_encode.c
# (their encoder, in the kernel only for KUnit) and the device model
# (model/*.c, the in-process backend), as
#   $(O)/lib/libe1npu.so.0.1.0 (soname libe1npu.so.0, version script
#   lib/libe1npu.sym, only E1NPU_API symbols exported),
#   $(O)/lib/libe1npu.a (installed: one relocatable object whose only
#   globals are the symbols of lib/libe1npu.sym, the rest made local),
#   $(O)/lib/libe1npu-internal.a, $(SAN_O)/lib/libe1npu.a (every object
#   with its globals, ASan+UBSan for the latter: in-tree tools and tests
#   that call internal functions, e.g. lib/ref, link these as $(LIB_A)
#   and $(LIB_SAN_A)),
#   $(O)/lib/libe1npu.pc (for the build tree; install writes its own).
#
# E1NPU_WITH_UDEV=0 builds device discovery without libudev (scan of
# /dev/accel + drmGetVersion); the static guest npu-smoke always uses it.

LIB_VERSION      := $(E1NPU_VERSION)
LIB_SOVERSION    := 0
E1NPU_WITH_UDEV  ?= 1



LIB_SRCS := $(sort $(wildcard lib/*.c lib/*/*.c)) hw/e1npu_opcheck.c hw/e1npu_cmd_encode.c
# The model's sources: model.mk's list when it is included, else ours.
LIB_MODEL_SRCS := $(MODEL_SRCS)

# libdrm through pkg-config (a cross build's SYSROOT, see the Makefile)
LIB_DRM_CFLAGS := $(shell $(PKG_CONFIG) --cflags libdrm 2>/dev/null || echo -I/usr/include/libdrm)
LIB_DRM_LIBS   := $(shell $(PKG_CONFIG) --libs libdrm 2>/dev/null || echo -ldrm)
LIB_CPPFLAGS   := -Ilib -Ilib/ops -Ilib/ref -Ihw -Iinclude/uapi/drm $(LIB_DRM_CFLAGS)
LIB_LIBS       := $(LIB_DRM_LIBS) $(if $(filter 1,$(E1NPU_WITH_UDEV)),-ludev) -lm

LIB_OBJS     := $(call objs,$(LIB_SRCS) $(LIB_MODEL_SRCS))
LIB_SAN_OBJS := $(call sanobjs,$(LIB_SRCS) $(LIB_MODEL_SRCS))

$(call objs,$(LIB_SRCS)) $(call sanobjs,$(LIB_SRCS)): \
	CPPFLAGS += $(LIB_CPPFLAGS) -DE1NPU_WITH_UDEV=$(E1NPU_WITH_UDEV)

LIB_SO      := $(O)/lib/libe1npu.so.$(LIB_VERSION)
LIB_SONAME  := libe1npu.so.$(LIB_SOVERSION)
LIB_A       := $(O)/lib/libe1npu-internal.a
LIB_SAN_A   := $(SAN_O)/lib/libe1npu.a
LIB_PUB_A   := $(O)/lib/libe1npu.a
LIB_PUB_SYMS := $(O)/lib/libe1npu.syms
OBJCOPY     ?= $(CROSS_COMPILE)objcopy
LIB_PC      := $(O)/lib/libe1npu.pc

$(LIB_SO): $(LIB_OBJS) lib/libe1npu.sym
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -shared -Wl,-soname,$(LIB_SONAME) \
		-Wl,--version-script=lib/libe1npu.sym -Wl,--no-undefined \
		-o $@ $(LIB_OBJS) $(LIB_LIBS)
	ln -sf $(notdir $@) $(O)/lib/$(LIB_SONAME)
	ln -sf $(LIB_SONAME) $(O)/lib/libe1npu.so

$(LIB_A): $(LIB_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

# The public symbol names, one per line, from the version script.
$(LIB_PUB_SYMS): lib/libe1npu.sym
	@mkdir -p $(@D)
	sed -n 's/^[[:space:]]*\(e1npu_[A-Za-z0-9_]*\);.*/\1/p' $< > $@

# The installed archive: one partial link of every object, then every
# global but the public ones made local, so an application linking it
# statically sees only e1npu_* API names (no ref_*, e1_model_*, ...).
$(LIB_PUB_A): $(LIB_OBJS) $(LIB_PUB_SYMS)
	@mkdir -p $(@D)
	rm -f $@ $(@D)/libe1npu-pub.o
	$(CC) -r -nostdlib -o $(@D)/libe1npu-r.o $(LIB_OBJS)
	$(OBJCOPY) --keep-global-symbols=$(LIB_PUB_SYMS) $(@D)/libe1npu-r.o $(@D)/libe1npu-pub.o
	$(AR) rcs $@ $(@D)/libe1npu-pub.o
	rm -f $(@D)/libe1npu-r.o

$(LIB_SAN_A): $(LIB_SAN_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

# pkg-config file: lib_pc_gen(prefix, libdir, includedir) > $@
# libdir/includedir under the prefix are written relative to ${prefix}, so
# pkg-config --define-variable=prefix= can relocate a DESTDIR install.
lib_pc_rel = $(patsubst $(1)%,$${prefix}%,$(2))
lib_pc_gen = sed -e 's|@PREFIX@|$(1)|' -e 's|@LIBDIR@|$(call lib_pc_rel,$(1),$(2))|' \
	-e 's|@INCLUDEDIR@|$(call lib_pc_rel,$(1),$(3))|' -e 's|@VERSION@|$(LIB_VERSION)|' \
	-e 's|@UDEV_REQ@|$(if $(filter 1,$(E1NPU_WITH_UDEV)),libudev)|' \
	lib/libe1npu.pc.in

$(LIB_PC): lib/libe1npu.pc.in
	@mkdir -p $(@D)
	$(call lib_pc_gen,$(PREFIX),$(LIBDIR),$(INCLUDEDIR)) > $@

.PHONY: lib install-lib
lib: $(LIB_SO) $(LIB_A) $(LIB_PUB_A) $(LIB_SAN_A) $(LIB_PC)

install-lib: $(LIB_SO) $(LIB_PUB_A)
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR)/e1npu \
		$(DESTDIR)$(PKGCONFIGDIR)
	install -m 0755 $(LIB_SO) $(DESTDIR)$(LIBDIR)/
	ln -sf $(notdir $(LIB_SO)) $(DESTDIR)$(LIBDIR)/$(LIB_SONAME)
	ln -sf $(LIB_SONAME) $(DESTDIR)$(LIBDIR)/libe1npu.so
	install -m 0644 $(LIB_PUB_A) $(DESTDIR)$(LIBDIR)/
	install -m 0644 $(wildcard include/e1npu/*.h) $(DESTDIR)$(INCLUDEDIR)/e1npu/
	$(call lib_pc_gen,$(PREFIX),$(LIBDIR),$(INCLUDEDIR)) > \
		$(DESTDIR)$(PKGCONFIGDIR)/libe1npu.pc

# What install-lib wrote, nothing else (the directories stay: shared).
LIB_HEADERS := $(notdir $(wildcard include/e1npu/*.h))
.PHONY: uninstall-lib
uninstall-lib:
	rm -f $(DESTDIR)$(LIBDIR)/$(notdir $(LIB_SO)) $(DESTDIR)$(LIBDIR)/$(LIB_SONAME) \
		$(DESTDIR)$(LIBDIR)/libe1npu.so $(DESTDIR)$(LIBDIR)/libe1npu.a \
		$(DESTDIR)$(PKGCONFIGDIR)/libe1npu.pc \
		$(addprefix $(DESTDIR)$(INCLUDEDIR)/e1npu/,$(LIB_HEADERS))
	-rmdir $(DESTDIR)$(INCLUDEDIR)/e1npu 2>/dev/null

# The ASan+UBSan archive is built by the checks that link it, not by `make`.
ALL_TARGETS     += $(LIB_SO) $(LIB_A) $(LIB_PUB_A) $(LIB_PC)
INSTALL_TARGETS += install-lib
UNINSTALL_TARGETS += uninstall-lib

