# SPDX-License-Identifier: MIT
#
# Debian source packages through a private deb-src list (sourced after
# common.sh). Debian 12 has no riscv64 port, so whatever the riscv64 guest
# needs beyond the kernel (busybox, libdrm, cmocka) is cross-built from
# Debian's own sources; the host's apt configuration is never touched.
#   apt_src ARGS...                 apt-get with the private lists
#   apt_src_fetch PKG VER DIR       apt-get source --download-only into DIR,
#                                   unpack into DIR/src, Debian patches applied
#   src_version BINPKG              source version of a binary package

APT_SRC_DIR="$E1NPU_CACHE/apt-src"

apt_src() {
	apt-get -q -o Dir::Etc::SourceList="$APT_SRC_DIR/sources.list" \
		-o Dir::Etc::SourceParts="$APT_SRC_DIR/parts" \
		-o Dir::State::Lists="$APT_SRC_DIR/lists" \
		-o Dir::Cache="$APT_SRC_DIR/cache" "$@"
}

# the deb-src twins of the host's deb lines, updated once per run (locked:
# several builds may want sources at the same time)
APT_SRC_UPDATED=0
_apt_src_update() {
	mkdir -p "$APT_SRC_DIR/parts" "$APT_SRC_DIR/lists/partial" \
		"$APT_SRC_DIR/cache/archives/partial"
	apt-get indextargets --format '$(REPO_URI) $(RELEASE)' 'Created-By: Packages' |
		sort -u | while read -r uri rel; do
			echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $uri $rel main"
		done >"$APT_SRC_DIR/sources.list"
	[ -s "$APT_SRC_DIR/sources.list" ] || die "no apt sources to derive a deb-src line from"
	apt_src update >"$APT_SRC_DIR/update.log" 2>&1 ||
		{ cat "$APT_SRC_DIR/update.log" >&2; die "apt-get update (deb-src) failed"; }
}
apt_src_update() {
	[ "$APT_SRC_UPDATED" = 1 ] && return 0
	with_lock apt-src _apt_src_update
	APT_SRC_UPDATED=1
}

apt_src_fetch() {
	local pkg=$1 ver=$2 dir=$3 b p
	apt_src_update
	rm -rf "$dir"
	mkdir -p "$dir"
	chown _apt "$dir" 2>/dev/null || true
	(cd "$dir" && apt_src source --download-only "$pkg=$ver" >fetch.log 2>&1) ||
		{ cat "$dir/fetch.log" >&2; die "apt-get source $pkg=$ver failed"; }
	b="$dir/src"
	mkdir -p "$b"
	for p in "$dir/${pkg}_"*.orig.tar.* "$dir/${pkg}_"*.debian.tar.*; do
		case "$p" in
		*.asc) ;;
		*.orig.*) tar -xf "$p" -C "$b" --strip-components=1 ;;
		*) tar -xf "$p" -C "$b" ;;
		esac
	done
	[ -d "$b/debian" ] || die "$pkg: no Debian source in $dir"
	if [ -f "$b/debian/patches/series" ]; then
		grep -v -E '^\s*(#|$)' "$b/debian/patches/series" | while read -r p _; do
			patch -d "$b" -p1 -s --forward <"$b/debian/patches/$p" ||
				die "$pkg: Debian patch $p does not apply"
		done
	fi
}

# src_version BINPKG: "Source: name (version)" of the candidate, else its version
src_version() {
	local v
	v=$(apt-cache show --no-all-versions "$1" 2>/dev/null |
		sed -n 's/^Source: [^ ]* (\(.*\))$/\1/p' | head -n 1)
	[ -n "$v" ] || v=$(apt_version "$1")
	echo "$v"
}
