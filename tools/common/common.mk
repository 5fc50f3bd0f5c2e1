# SPDX-License-Identifier: MIT
#
# tools/common/: the helpers the tools share (error output, files, .npy
# files, progress line, device opening, latency), one static library so
# each lives in one place. Built for the tools only: nothing installed.
# Included by the top-level Makefile before the tools' fragments.
#   $(TOOL_COMMON_A)      linked by every tool (and cross built with them)
#   $(TOOL_COMMON_SAN_A)  the sanitizer twin, for the tools' ASan+UBSan
#                         builds (made only when one of those is)
# A tool adds $(TOOL_COMMON_CPPFLAGS) to its objects' CPPFLAGS.

TOOL_COMMON_SRCS := $(sort $(wildcard tools/common/*.c))
TOOL_COMMON_A     := $(O)/tools/common/libtoolcommon.a
TOOL_COMMON_SAN_A := $(SAN_O)/tools/common/libtoolcommon.a
TOOL_COMMON_CPPFLAGS := -Itools/common

$(call objs,$(TOOL_COMMON_SRCS)) $(call sanobjs,$(TOOL_COMMON_SRCS)): \
	CPPFLAGS += $(TOOL_COMMON_CPPFLAGS)
# --trace: the library's internal trace.h; files.c, npy.c: its input file
# reader, readfile.h (the tools link libe1npu.a)
TOOL_COMMON_LIB_USERS := tools/common/trace-opt.c tools/common/files.c tools/common/npy.c
$(call objs,$(TOOL_COMMON_LIB_USERS)) $(call sanobjs,$(TOOL_COMMON_LIB_USERS)): \
	CPPFLAGS += -Ilib

$(TOOL_COMMON_A): $(call objs,$(TOOL_COMMON_SRCS))
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

$(TOOL_COMMON_SAN_A): $(call sanobjs,$(TOOL_COMMON_SRCS))
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^
