#!/bin/sh
# SPDX-License-Identifier: MIT
#
# CHECK= wrapper for sparse on riscv64: Debian 12's sparse 0.6.4 rejects
# the kernel's -march=rv64imac_zicsr_zifencei ("invalid argument to
# '-march'"). Sparse only uses -march to predefine __riscv_* macros, and
# Zicsr/Zifencei define none it knows, so the multi-letter extensions are
# dropped (-march=rv64imac) and everything else is passed unchanged.
n=$#
while [ "$n" -gt 0 ]; do
	a=$1
	shift
	case "$a" in
	-march=rv*_*) a=${a%%_*} ;;
	esac
	set -- "$@" "$a"
	n=$((n - 1))
done
exec sparse "$@"
