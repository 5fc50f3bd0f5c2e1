# SPDX-License-Identifier: MIT
#
# The layout of the sources: no two files of a directory group call each
# other in a circle (tests/layout/call-cycles.py; issue 30 §4).
#   make check-layout

.PHONY: check-layout
check-layout:
	@python3 tests/layout/call-cycles.py .

CHECK_TARGETS += check-layout
