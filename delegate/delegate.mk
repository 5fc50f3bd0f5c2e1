# SPDX-License-Identifier: MIT
#
# libe1npu_tflite_delegate.so: the TFLite external delegate (delegate/,
# Documentation/tflite.md "The delegate"). Built against our own
# declarations of TFLite's C ABI (delegate/tflite_abi.h): no TFLite
# download needed to build it. libe1npu is linked in statically (hidden
# symbols), so the .so exports the two tflite_plugin_* functions only.
#   $(O)/delegate/libe1npu_tflite_delegate.so
#   $(SAN_O)/delegate/libe1npu_tflite_delegate.so (ASan+UBSan, tests)


DELEGATE_SRCS := $(sort $(wildcard delegate/*.c))
DELEGATE_SO     := $(O)/delegate/libe1npu_tflite_delegate.so
DELEGATE_SAN_SO := $(SAN_O)/delegate/libe1npu_tflite_delegate.so

$(call objs,$(DELEGATE_SRCS)) $(call sanobjs,$(DELEGATE_SRCS)): \
	CPPFLAGS += -Idelegate -Ilib -Ilib/tflite

$(DELEGATE_SO): $(call objs,$(DELEGATE_SRCS)) $(LIB_A) delegate/delegate.sym
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -shared -Wl,--version-script=delegate/delegate.sym \
		-Wl,--no-undefined -o $@ $(call objs,$(DELEGATE_SRCS)) $(LIB_A) $(LIB_LIBS)

# For the sanitizer test: left undefined, the ASan runtime comes from the
# test program that loads it.
$(DELEGATE_SAN_SO): $(call sanobjs,$(DELEGATE_SRCS)) $(LIB_SAN_A) delegate/delegate.sym
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SANFLAGS) -shared -Wl,--version-script=delegate/delegate.sym \
		-o $@ $(call sanobjs,$(DELEGATE_SRCS)) $(LIB_SAN_A) $(LIB_LIBS)

# DELEGATEDIR: where install puts it; the Debian package uses a private
# plugin directory, $(LIBDIR)/e1npu (tools/deb/mkdeb.sh): it is dlopen()ed
# by path, not a library to link with.
DELEGATEDIR ?= $(LIBDIR)

.PHONY: install-delegate
install-delegate: $(DELEGATE_SO)
	install -d $(DESTDIR)$(DELEGATEDIR)
	install -m 0755 $(DELEGATE_SO) $(DESTDIR)$(DELEGATEDIR)/

.PHONY: uninstall-delegate
uninstall-delegate:
	rm -f $(DESTDIR)$(LIBDIR)/$(notdir $(DELEGATE_SO))

ALL_TARGETS     += $(DELEGATE_SO)
INSTALL_TARGETS += install-delegate
UNINSTALL_TARGETS += uninstall-delegate

