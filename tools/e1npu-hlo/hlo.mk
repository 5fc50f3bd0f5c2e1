# SPDX-License-Identifier: MIT
#
# e1npu-hlo (tools/e1npu-hlo/): the StableHLO runner, linked with
# libe1npu.a (the importer is lib/hlo/, built into the library by
# lib/lib.mk's lib/*/*.c). Its tests: tests/hlo/hlo.mk.


HLO_TOOL_SRCS := $(sort $(wildcard tools/e1npu-hlo/*.c))
HLO_TOOL      := $(O)/tools/e1npu-hlo/e1npu-hlo
HLO_TOOL_SAN  := $(SAN_O)/tools/e1npu-hlo/e1npu-hlo

$(call objs,$(HLO_TOOL_SRCS)) $(call sanobjs,$(HLO_TOOL_SRCS)): \
	CPPFLAGS += -Itools/e1npu-hlo $(TOOL_COMMON_CPPFLAGS)

$(HLO_TOOL): $(call objs,$(HLO_TOOL_SRCS)) $(TOOL_COMMON_A) $(LIB_A)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ $(LIB_LIBS)

$(HLO_TOOL_SAN): $(call sanobjs,$(HLO_TOOL_SRCS)) $(TOOL_COMMON_SAN_A) $(LIB_SAN_A)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SANFLAGS) -o $@ $^ $(LIB_LIBS)

.PHONY: e1npu-hlo install-hlo
e1npu-hlo: $(HLO_TOOL)

install-hlo: $(HLO_TOOL)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	install -m 0755 $(HLO_TOOL) $(DESTDIR)$(BINDIR)/e1npu-hlo
	install -m 0644 tools/e1npu-hlo/e1npu-hlo.1 $(DESTDIR)$(MANDIR)/man1/

.PHONY: uninstall-hlo
uninstall-hlo:
	rm -f $(DESTDIR)$(BINDIR)/e1npu-hlo $(DESTDIR)$(MANDIR)/man1/e1npu-hlo.1

ALL_TARGETS     += $(HLO_TOOL)
INSTALL_TARGETS += install-hlo
UNINSTALL_TARGETS += uninstall-hlo
