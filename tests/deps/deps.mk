# SPDX-License-Identifier: MIT
#
# Every external command the build and test scripts call is installed by a
# list of tools/devel/install-deps.sh (or is in a minbase Debian 12):
# tests/deps/check-commands.py, with its table of commands and their
# Debian packages, and its self-test (tests/deps/self-test.sh: it must
# fail on a script calling a tool no list installs). A few seconds, no
# package manager asked.
.PHONY: check-deps-commands
check-deps-commands:
	python3 tests/deps/check-commands.py
	tests/deps/self-test.sh
CHECK_TARGETS += check-deps-commands
