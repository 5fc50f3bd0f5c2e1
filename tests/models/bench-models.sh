#!/bin/sh
# SPDX-License-Identifier: MIT
#
# bench-models (tests/models/models.mk): bench-models.c with real TFLite
# 2.2 (tools/devel/fetch-tflite.sh) and TFLite 2.14.1 (Debian sid's
# libtensorflow-lite, tests/vm/sid-root.sh) dlopen'ed beside ours in one
# process. 2.14.1 needs sid's C library, so the bench (built here, on the
# host) runs inside the sid root, which sees the repository at /src and
# ../shared at /shared; 2.2's library is copied into
# $O/tests/models/tflite-2.2/ for it. Where the root cannot be used (not
# built and offline, not root, not x86_64, BENCH_MODELS_SID=0, a model or
# O outside the repository and ../shared) the bench runs here as before
# and its 2.14 columns say n/a, with the reason.
#
#   bench-models.sh BENCH MODEL...
# Environment: O (the build directory), BENCH_MODELS_ARGS (more options
# for BENCH, after ours), BENCH_MODELS_SID (0: never the sid root).
set -u
bench=$1
shift
out=$O/tests/models
mkdir -p "$out"
top=$(pwd -P)
shared=$(realpath -e ../shared 2>/dev/null || true)

# inroot PATH: PATH as the sid root sees it, or fail
inroot() {
	p=$(realpath -e "$1" 2>/dev/null) || return 1
	case "$p" in
	"$top"/*) echo "/src/${p#"$top"/}" ;;
	"$shared"/*) [ -n "$shared" ] && echo "/shared/${p#"$shared"/}" ;;
	*) return 1 ;;
	esac
}

# TFLite 2.2: the library, or why there is none
if d=$(sh tools/devel/fetch-tflite.sh 2>"$out/fetch-tflite.err"); then
	o22=--tflite v22=$d/lib/libtensorflowlite_c.so
else
	o22=--no-tflite v22=$(tail -n 1 "$out/fetch-tflite.err")
fi

# TFLite 2.14.1: sid_use sets root and so14 (as the root sees it), or why14
why14=
sid_use() {
	[ "${BENCH_MODELS_SID:-1}" != 0 ] || { why14="BENCH_MODELS_SID=0"; return; }
	[ "$(uname -m)" = x86_64 ] ||
		{ why14="the Debian sid root is amd64, this is $(uname -m)"; return; }
	[ "$(id -u)" = 0 ] ||
		{ why14="not root: tests/vm/sid-root.sh enters the root with unshare -m and chroot"; return; }
	for f in "$bench" "$@"; do
		inroot "$f" >/dev/null || {
			why14="$f is outside the repository and ../shared (all the sid root sees)"
			return; }
	done
	root=$(bash tests/vm/sid-root.sh --print 2>"$out/sid-root.log") || {
		why14="the Debian sid root cannot be built: $(tail -n 1 "$out/sid-root.log" | sed "s/^\[vm [0-9:]*\] //")"
		return; }
	for so14 in "$root"/usr/lib/*/libtensorflow-lite.so.2.*; do break; done
	[ -f "$so14" ] || { why14="no libtensorflow-lite.so.2.* in the sid root $root"; return; }
	so14=${so14#"$root"}
	# the bench's shared libraries are there and it starts
	bash tests/vm/sid-root.sh --run "$(inroot "$bench")" --help >/dev/null 2>"$out/sid-probe.err" ||
		why14="$bench does not start in the sid root: $(tail -n 1 "$out/sid-probe.err")"
}
sid_use "$@"

if [ -n "$why14" ]; then
	echo "bench-models: TFLite 2.14.1 n/a: $why14"
	# shellcheck disable=SC2086
	exec "$bench" "$o22" "$v22" --no-tflite14 "$why14" ${BENCH_MODELS_ARGS:-} "$@"
fi

if [ "$o22" = --tflite ]; then
	mkdir -p "$out/tflite-2.2"
	cmp -s "$v22" "$out/tflite-2.2/libtensorflowlite_c.so" ||
		cp "$v22" "$out/tflite-2.2/libtensorflowlite_c.so"
	v22=$(inroot "$out/tflite-2.2/libtensorflowlite_c.so")
fi
n=$#
for m do
	set -- "$@" "$(inroot "$m")"
done
shift "$n"
echo "bench-models: in the Debian sid root $root ($(grep tensorflow "$root/E1NPU-VERSIONS")), the repository at /src"
# the library's E1NPU_* settings (E1NPU_SIM_TIMING, ...) into the root
E1NPU_SID_ENV="${E1NPU_SID_ENV:-} $(env | grep -E '^E1NPU_[A-Z0-9_]*=[^ ]*$' | grep -v '^E1NPU_SID_ENV=' | tr '\n' ' ')"
export E1NPU_SID_ENV
# shellcheck disable=SC2086
exec bash tests/vm/sid-root.sh --run "$(inroot "$bench")" "$o22" "$v22" --tflite14 "$so14" \
	${BENCH_MODELS_ARGS:-} "$@"
