# SPDX-License-Identifier: MIT
#
# e1npu-tflite (tools/e1npu-tflite/): run, report and diff of TFLite
# models, linked with libe1npu.a (it uses the library's internal model
# reader, partial interpreters and placement query: lib/tflite/
# tflite_part.h, tflite_report.h). Its tests: tests/tools/tools-tests.mk
# (check-tflite-tool).

TFLITE_TOOL_SRCS := $(sort $(wildcard tools/e1npu-tflite/*.c))
TFLITE_TOOL      := $(O)/tools/e1npu-tflite/e1npu-tflite
TFLITE_TOOL_SAN  := $(SAN_O)/tools/e1npu-tflite/e1npu-tflite

$(call objs,$(TFLITE_TOOL_SRCS)) $(call sanobjs,$(TFLITE_TOOL_SRCS)): \
	CPPFLAGS += -Itools/e1npu-tflite $(TOOL_COMMON_CPPFLAGS) -Ilib/tflite $(LIB_CPPFLAGS)

$(TFLITE_TOOL): $(call objs,$(TFLITE_TOOL_SRCS)) $(TOOL_COMMON_A) $(LIB_A)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ $(LIB_LIBS)

$(TFLITE_TOOL_SAN): $(call sanobjs,$(TFLITE_TOOL_SRCS)) $(TOOL_COMMON_SAN_A) $(LIB_SAN_A)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SANFLAGS) -o $@ $^ $(LIB_LIBS)

.PHONY: e1npu-tflite install-tflite-tool uninstall-tflite-tool
e1npu-tflite: $(TFLITE_TOOL)

install-tflite-tool: $(TFLITE_TOOL)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	install -m 0755 $(TFLITE_TOOL) $(DESTDIR)$(BINDIR)/e1npu-tflite
	install -m 0644 tools/e1npu-tflite/e1npu-tflite.1 $(DESTDIR)$(MANDIR)/man1/

uninstall-tflite-tool:
	rm -f $(DESTDIR)$(BINDIR)/e1npu-tflite $(DESTDIR)$(MANDIR)/man1/e1npu-tflite.1

ALL_TARGETS     += $(TFLITE_TOOL)
INSTALL_TARGETS += install-tflite-tool
UNINSTALL_TARGETS += uninstall-tflite-tool
