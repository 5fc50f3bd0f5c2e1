#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Fetch real TFLite 2.2.0 (C API, built-in kernels, no XNNPACK) as a test
# reference: npm's node-tflite@0.0.2 ships libtensorflowlite_c.so and its
# headers. `npm pack` downloads the tarball without running any of its
# scripts. The result is cached in $E1NPU_CACHE/tflite-2.2.0 and checked
# against pinned sha256 sums, so a changed upload cannot slip in.
#
# Usage: fetch-tflite.sh        prints the directory that holds
#                               lib/libtensorflowlite_c.so and include/
# Exit 0 and the path on success; exit 1 with a reason on stderr.
set -eu

cache="${E1NPU_CACHE:-/var/cache/e1npu}"
dir="$cache/tflite-2.2.0"
tgz_sha=80e040b24096cbe4365b4960c8a93ff71218765a815e1b5f90180e2868dc930a
so_sha=edb5236b8cbb497775fb36f4f134f89881b81c1cb7d32b897b66787e7040bd40

if [ "$(uname -m)" != x86_64 ]; then
	echo "fetch-tflite.sh: node-tflite ships linux x86_64 only (this is $(uname -m))" >&2
	exit 1
fi

if [ -f "$dir/.ok" ]; then
	echo "$dir"
	exit 0
fi

if ! command -v npm >/dev/null 2>&1; then
	if [ "$(id -u)" = 0 ] && [ "${E1NPU_NO_APT:-0}" != 1 ]; then
		echo "fetch-tflite.sh: installing npm" >&2
		DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 \
			install -y -q --no-install-recommends npm >/dev/null 2>&1 || {
			apt-get update -q >/dev/null &&
			DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 \
				install -y -q --no-install-recommends npm >/dev/null; }
	fi
	command -v npm >/dev/null 2>&1 || {
		echo "fetch-tflite.sh: npm not found (apt-get install npm)" >&2
		exit 1
	}
fi

mkdir -p "$cache"
exec 9>"$cache/tflite.lock"
flock 9
[ -f "$dir/.ok" ] && { echo "$dir"; exit 0; }

tmp=$(mktemp -d "$cache/tflite.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# the system's CA store (Debian's ca-certificates, with any local CA a
# proxy needs), as apt and curl use it: npm's own bundle lacks local CAs
ca=
[ ! -f /etc/ssl/certs/ca-certificates.crt ] || ca=--cafile=/etc/ssl/certs/ca-certificates.crt
# shellcheck disable=SC2086
(cd "$tmp" && npm pack --loglevel=error $ca node-tflite@0.0.2 >/dev/null 2>npm.log) || {
	echo "fetch-tflite.sh: npm pack node-tflite@0.0.2 failed:" >&2
	cat "$tmp/npm.log" >&2
	exit 1
}
echo "$tgz_sha  $tmp/node-tflite-0.0.2.tgz" | sha256sum -c --quiet - >&2 || {
	echo "fetch-tflite.sh: node-tflite-0.0.2.tgz sha256 mismatch" >&2
	exit 1
}
tar -xzf "$tmp/node-tflite-0.0.2.tgz" -C "$tmp"
mkdir -p "$tmp/out/lib" "$tmp/out/include"
cp "$tmp/package/tflite/linux_x86_64/libtensorflowlite_c.so" "$tmp/out/lib/"
cp -r "$tmp/package/tflite/include/tensorflow" "$tmp/out/include/"
cp "$tmp/package/LICENSE" "$tmp/out/LICENSE"
echo "$so_sha  $tmp/out/lib/libtensorflowlite_c.so" | sha256sum -c --quiet - >&2
touch "$tmp/out/.ok"
rm -rf "$dir"
mv "$tmp/out" "$dir"
echo "$dir"
