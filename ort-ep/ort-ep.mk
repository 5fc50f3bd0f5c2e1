# SPDX-License-Identifier: MIT
#
# libe1npu_ort_ep.so: the ONNX Runtime plugin execution provider (ort-ep/,
# Documentation/onnxruntime.md). Built against ONNX Runtime's own C headers
# (onnxruntime_c_api.h, onnxruntime_ep_c_api.h, 1.23) where they are
# installed: Debian sid's libonnxruntime-dev, i.e. inside the sid root
# (tests/vm/sid-root.sh; `make ort-ep` builds it there). libe1npu is linked
# in statically (hidden symbols): the .so exports CreateEpFactories and
# ReleaseEpFactory only.
#   $(O)/ort-ep/libe1npu_ort_ep.so

ORT_EP_SRCS := $(sort $(wildcard ort-ep/*.c))
ORT_EP_SO   := $(O)/ort-ep/libe1npu_ort_ep.so
ORT_INCDIR  ?= $(firstword $(wildcard /usr/include/onnxruntime /usr/local/include/onnxruntime))

$(call objs,$(ORT_EP_SRCS)) $(call sanobjs,$(ORT_EP_SRCS)): CPPFLAGS += -isystem $(ORT_INCDIR) -Ilib -Ilib/tflite

# ASan+UBSan (check-ort-san): the EP and libe1npu instrumented, ORT not;
# the sanitizer runtimes are LD_PRELOADed into the (uninstrumented) python3.
ORT_EP_SAN_SO := $(SAN_O)/ort-ep/libe1npu_ort_ep.so
$(ORT_EP_SAN_SO): $(call sanobjs,$(ORT_EP_SRCS)) $(LIB_SAN_A) ort-ep/ort-ep.sym
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SANFLAGS) -shared -Wl,--version-script=ort-ep/ort-ep.sym \
		-o $@ $(call sanobjs,$(ORT_EP_SRCS)) $(LIB_SAN_A) $(LIB_LIBS) -lm

$(ORT_EP_SO): $(call objs,$(ORT_EP_SRCS)) $(LIB_A) ort-ep/ort-ep.sym
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -shared -Wl,--version-script=ort-ep/ort-ep.sym \
		-Wl,--no-undefined -o $@ $(call objs,$(ORT_EP_SRCS)) $(LIB_A) $(LIB_LIBS) -lm

# ORTEPDIR: where install puts it; the Debian package
# (e1npu-onnxruntime-ep) uses the private plugin directory $(LIBDIR)/e1npu:
# ONNX Runtime loads it by path (RegisterExecutionProviderLibrary).
ORTEPDIR ?= $(LIBDIR)

.PHONY: install-ort-ep uninstall-ort-ep
install-ort-ep: $(ORT_EP_SO)
	install -d $(DESTDIR)$(ORTEPDIR)
	install -m 0755 $(ORT_EP_SO) $(DESTDIR)$(ORTEPDIR)/

uninstall-ort-ep:
	rm -f $(DESTDIR)$(ORTEPDIR)/$(notdir $(ORT_EP_SO))

# only where ONNX Runtime's headers are (the sid root, or ORT_INCDIR=its
# /usr/include/onnxruntime from outside: the headers alone build it, the
# EP does not link ONNX Runtime): not on a bare Debian 12
ifneq ($(ORT_INCDIR),)
ALL_TARGETS += $(ORT_EP_SO)
INSTALL_TARGETS += install-ort-ep
UNINSTALL_TARGETS += uninstall-ort-ep
endif

# From the host: build it inside the sid root (its own build trees).
SID_O ?= build-sid
SID_SAN_O ?= build-sid-san
.PHONY: ort-ep
ort-ep:
	tests/vm/sid-root.sh --run $(MAKE) O=$(SID_O) $(SID_O)/ort-ep/libe1npu_ort_ep.so

CLEAN_DIRS += $(SID_O) $(SID_SAN_O)
