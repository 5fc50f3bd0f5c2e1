# SPDX-License-Identifier: MIT
#
# e1npu-llm (tools/e1npu-llm/): text generation with a llama2.c checkpoint
# on libe1npu's language-model API (include/e1npu/e1npu_llm.h). Its tests,
# the library's LLM suites, the loader fuzzer and the benchmark:
# tests/llm/llm.mk.

LLM_TOOL_SRCS := $(sort $(wildcard tools/e1npu-llm/*.c))
LLM_TOOL      := $(O)/tools/e1npu-llm/e1npu-llm
LLM_TOOL_SAN  := $(SAN_O)/tools/e1npu-llm/e1npu-llm

$(call objs,$(LLM_TOOL_SRCS)) $(call sanobjs,$(LLM_TOOL_SRCS)): \
	CPPFLAGS += $(TOOL_COMMON_CPPFLAGS)

$(LLM_TOOL): $(call objs,$(LLM_TOOL_SRCS)) $(TOOL_COMMON_A) $(LIB_A)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ $(LIB_LIBS)

$(LLM_TOOL_SAN): $(call sanobjs,$(LLM_TOOL_SRCS)) $(TOOL_COMMON_SAN_A) $(LIB_SAN_A)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SANFLAGS) -o $@ $^ $(LIB_LIBS)

.PHONY: e1npu-llm install-llm-tool uninstall-llm-tool
e1npu-llm: $(LLM_TOOL)

install-llm-tool: $(LLM_TOOL)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	install -m 0755 $(LLM_TOOL) $(DESTDIR)$(BINDIR)/e1npu-llm
	install -m 0644 tools/e1npu-llm/e1npu-llm.1 $(DESTDIR)$(MANDIR)/man1/

uninstall-llm-tool:
	rm -f $(DESTDIR)$(BINDIR)/e1npu-llm $(DESTDIR)$(MANDIR)/man1/e1npu-llm.1

ALL_TARGETS     += $(LLM_TOOL)
INSTALL_TARGETS += install-llm-tool
UNINSTALL_TARGETS += uninstall-llm-tool
