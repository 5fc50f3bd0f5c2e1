# SPDX-License-Identifier: MIT
#
# Debian trixie's riscv64 port through a private apt configuration (sourced
# after common.sh). Debian 12 has no riscv64 port; trixie is an official
# one, reachable from the same mirror. The host's apt configuration and
# dpkg database are never touched: lists, archives and an empty dpkg status
# live in $E1NPU_CACHE/debian/apt.
#   deb_apt ARGS...          apt-get for riscv64 trixie on the private lists
#   deb_apt_update           apt-get update on them (once per run, locked)
#   DEB_SUITE DEB_ARCH DEB_MIRROR DEB_TRIPLET

DEB_SUITE=${E1NPU_DEBIAN_SUITE:-trixie}
DEB_ARCH=riscv64
DEB_TRIPLET=riscv64-linux-gnu
DEB_KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
# trixie's lists where they always were; another suite's (the frameworks
# board's sid) beside them
DEB_APT="$E1NPU_CACHE/debian/apt"
DEB_APT_OPTS=()
if [ "$DEB_SUITE" != trixie ]; then
	DEB_APT="$E1NPU_CACHE/debian/apt-$DEB_SUITE"
	# sid's Release file is only valid a week; this machine's clock may be
	# ahead of it
	DEB_APT_OPTS=(-o Acquire::Check-Valid-Until=false)
fi

# the mirror the host's own apt uses (deb.debian.org unless configured)
deb_mirror() {
	local m
	m=$(apt-get indextargets --format '$(REPO_URI)' 'Created-By: Packages' 2>/dev/null |
		grep -v -E 'security|updates' | sort -u | head -n 1)
	echo "${m:-http://deb.debian.org/debian/}"
}
DEB_MIRROR=${E1NPU_DEBIAN_MIRROR:-$(deb_mirror)}

deb_apt() {
	apt-get -q -o APT::Architecture="$DEB_ARCH" -o APT::Architectures::="$DEB_ARCH" \
		-o Dir::Etc::SourceList="$DEB_APT/sources.list" \
		-o Dir::Etc::SourceParts="$DEB_APT/parts" \
		-o Dir::Etc::Preferences="$DEB_APT/preferences" \
		-o Dir::Etc::PreferencesParts="$DEB_APT/parts" \
		-o Dir::State::Lists="$DEB_APT/lists" \
		-o Dir::State::status="$DEB_APT/status" \
		-o Dir::Cache="$DEB_APT/cache" \
		-o APT::Install-Recommends=false "${DEB_APT_OPTS[@]}" "$@"
}

_deb_apt_update_locked() {
	mkdir -p "$DEB_APT/parts" "$DEB_APT/lists/partial" "$DEB_APT/cache/archives/partial"
	: >"$DEB_APT/status"
	: >"$DEB_APT/preferences"
	echo "deb [arch=$DEB_ARCH signed-by=$DEB_KEYRING] $DEB_MIRROR $DEB_SUITE main" \
		>"$DEB_APT/sources.list"
	deb_apt update >"$DEB_APT/update.log" 2>&1 ||
		{ cat "$DEB_APT/update.log" >&2; die "debian: apt-get update of $DEB_SUITE/$DEB_ARCH ($DEB_APT) failed"; }
}
DEB_APT_UPDATED=0
deb_apt_update() {
	[ "$DEB_APT_UPDATED" = 1 ] && return 0
	if [ "${E1NPU_OFFLINE:-0}" = 1 ]; then
		[ -f "$DEB_APT/sources.list" ] || die "debian: offline and no $DEB_SUITE lists in $DEB_APT"
	else
		with_lock "debian-apt-$DEB_SUITE" _deb_apt_update_locked
	fi
	DEB_APT_UPDATED=1
}

# deb_versions PKG...: "name=version" of each package and its whole
# dependency closure, as apt would install them into an empty system
# (sorted: a cache key)
deb_versions() {
	deb_apt_update
	deb_apt install --simulate "$@" 2>"$DEB_APT/simulate.err" |
		sed -n 's/^Inst \([^ ]*\) (\([^ ]*\) .*/\1=\2/p' | LC_ALL=C sort ||
		{ cat "$DEB_APT/simulate.err" >&2; return 1; }
}

# deb_download DIR PKG=VER...: the .debs into DIR (cached in the private
# archive directory)
deb_download() {
	local dir=$1
	shift
	mkdir -p "$dir"
	chown _apt "$dir" 2>/dev/null || true
	(cd "$dir" && deb_apt download "$@" >"$dir/download.log" 2>&1) ||
		{ tail -n 20 "$dir/download.log" >&2; die "debian: apt-get download failed (log $dir/download.log)"; }
}
