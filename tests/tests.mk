# SPDX-License-Identifier: MIT
# Every tests/<area>/*.mk fragment is picked up here, so a new test area
# needs no edit of the top-level Makefile. tests/vm and tests/bench are
# included by the top-level Makefile itself.
-include $(filter-out tests/vm/% tests/bench/%,$(wildcard tests/*/*.mk))
