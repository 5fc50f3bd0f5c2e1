#!/bin/bash
# SPDX-License-Identifier: MIT
#
# fresh-check.sh: prove the README's claim that a fresh Debian 12 machine
# runs CI from a clone with nothing prepared. Bootstraps a Debian 12
# (bookworm) minbase root file system plus git (cached as a tarball), binds
# /proc, /sys, /dev, /dev/pts, binfmt_misc and a tmpfs /tmp into it, clones
# the repository's commit into it (a fresh clone), lays a read-only copy of
# the shared data beside the clone (as CI does), and runs `bash .ci/run`
# there as root, CI=true, stdin from /dev/null, with an empty E1NPU_CACHE.
# Prints the elapsed time and the final "N passed, M failed" line. Every
# mount is undone on exit, on failure too. The host's apt configuration and
# dpkg database are never touched. Run as root. See --help.
set -euo pipefail

prog=fresh-check.sh
usage() {
	cat <<EOF
Usage: $prog [OPTIONS]
Runs CI (bash .ci/run) from a fresh clone in a fresh Debian 12 chroot.

  --repo DIR      the repository to clone (default: this script's checkout)
  --commit REV    the commit to check out (default: HEAD of --repo; only
                  committed work is cloned)
  --shared DIR    the shared data laid beside the clone read-only
                  (default: REPO/../shared; absent: the tests skip it)
  --root DIR      where to build the chroot (default: \$E1NPU_CACHE/fresh-check/root)
  --cache DIR     where the bootstrapped root's tarball is kept
                  (default: \$E1NPU_CACHE/fresh-check, E1NPU_CACHE=/var/cache/e1npu)
  --keep          keep the root after the run (default: removed)
  --cmd 'CMD'     run CMD (bash -c, in the clone) instead of 'bash .ci/run',
                  e.g. --cmd 'make smoke'
  -h, --help      this text

Environment: E1NPU_DEBIAN_MIRROR, E1NPU_DEBIAN_SECURITY (default: the
mirror and the security archive the host's apt uses).
Exit status: the command's, or 2 for bad arguments, 1 for a setup failure.
EOF
}

die() { echo "$prog: $*" >&2; exit 1; }
bad() { echo "$prog: $*" >&2; echo "Try '$prog --help'." >&2; exit 2; }

here=$(cd "$(dirname "$0")/../.." && pwd)
repo=$here commit=HEAD shared="" root="" cache="" keep=0 cmd="bash .ci/run"
need() { [ $# -ge 2 ] && [ -n "$2" ] || bad "option '$1' needs an argument"; }
while [ $# -gt 0 ]; do
	case "$1" in
	--repo) need "$@"; repo=$2; shift 2 ;;
	--commit) need "$@"; commit=$2; shift 2 ;;
	--shared) need "$@"; shared=$2; shift 2 ;;
	--root) need "$@"; root=$2; shift 2 ;;
	--cache) need "$@"; cache=$2; shift 2 ;;
	--keep) keep=1; shift ;;
	--cmd) need "$@"; cmd=$2; shift 2 ;;
	-h|--help) usage; exit 0 ;;
	*) bad "unknown argument '$1'" ;;
	esac
done

[ -d "$repo" ] || bad "--repo: '$repo' is not a directory"
git -C "$repo" rev-parse --git-dir >/dev/null 2>&1 || bad "--repo: '$repo' is not a git repository"
rev=$(git -C "$repo" rev-parse --verify -q "$commit^{commit}") ||
	bad "--commit: '$commit' is not a commit of $repo"
repo=$(cd "$repo" && pwd)
[ -n "$shared" ] || shared="$repo/../shared"
if [ ! -d "$shared" ]; then
	[ "$shared" = "$repo/../shared" ] || bad "--shared: '$shared' is not a directory"
	shared=""
fi
[ "$(id -u)" = 0 ] || die "must run as root (debootstrap, chroot, mount)"
for t in debootstrap chroot mount umount tar git; do
	command -v "$t" >/dev/null || die "'$t' is not installed (apt-get install debootstrap)"
done

E1NPU_CACHE=${E1NPU_CACHE:-/var/cache/e1npu}
[ -n "$cache" ] || cache="$E1NPU_CACHE/fresh-check"
[ -n "$root" ] || root="$cache/root"
mkdir -p "$cache" || die "cannot create $cache"
cache=$(cd "$cache" && pwd)
case "$root" in /*) ;; *) root="$PWD/$root" ;; esac
[ "$root" != / ] || bad "--root: refusing /"

# the mirror the host's apt uses (as tests/vm/debian-apt.sh finds it)
mirror=${E1NPU_DEBIAN_MIRROR:-$(apt-get indextargets --format '$(REPO_URI)' 'Created-By: Packages' 2>/dev/null |
	grep -v -E 'security|updates' | sort -u | head -n 1 || true)}
mirror=${mirror:-http://deb.debian.org/debian/}
security=${E1NPU_DEBIAN_SECURITY:-$(apt-get indextargets --format '$(REPO_URI)' 'Created-By: Packages' 2>/dev/null |
	grep -E 'security' | sort -u | head -n 1 || true)}
security=${security:-http://deb.debian.org/debian-security/}

t0=$(date +%s)
msg() { printf '[fresh-check %s] %s\n' "$(date +%H:%M:%S)" "$*"; }

# The bootstrapped root, once: debootstrap into a temporary directory,
# packed as a tarball (a new root is unpacked from it for every run).
tarball="$cache/bookworm-minbase-git.tar"
if [ ! -f "$tarball" ]; then
	w="$cache/bootstrap.tmp"
	rm -rf "$w"
	mkdir -p "$w"
	msg "debootstrap bookworm minbase + git from $mirror (one time; log $cache/debootstrap.log)"
	debootstrap --variant=minbase --include=git,ca-certificates bookworm "$w" "$mirror" \
		>"$cache/debootstrap.log" 2>&1 ||
		{ tail -n 20 "$cache/debootstrap.log" >&2; rm -rf "$w"; die "debootstrap failed (log $cache/debootstrap.log)"; }
	chroot "$w" apt-get clean
	tar -C "$w" -cf "$tarball.tmp" . && mv "$tarball.tmp" "$tarball"
	rm -rf "$w"
fi

# Undo every mount under the root (deepest first), then the root itself
mounted=0
cleanup() {
	local rc=$? m
	if [ "$mounted" = 1 ]; then
		# the mounts under $root, deepest first
		for m in $(awk -v r="$root" '$2 == r || index($2, r "/") == 1 { print $2 }' /proc/self/mounts | sort -r); do
			umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null ||
				echo "$prog: cannot unmount $m" >&2
		done
	fi
	if awk -v r="$root" '$2 == r || index($2, r "/") == 1 { f = 1 } END { exit !f }' /proc/self/mounts; then
		echo "$prog: mounts remain under $root; not removing it" >&2
	elif [ "$keep" = 0 ] && [ -d "$root" ]; then
		rm -rf "$root"
	elif [ "$keep" = 1 ]; then
		echo "$prog: root kept in $root"
	fi
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

if awk -v r="$root" '$2 == r || index($2, r "/") == 1 { f = 1 } END { exit !f }' /proc/self/mounts; then
	die "something is mounted under $root (an earlier run?); unmount it first"
fi
rm -rf "$root"
mkdir -p "$root"
tar -C "$root" -xf "$tarball" || die "cannot unpack $tarball into $root"

# what a chroot lacks: name resolution, a sources list like a fresh
# install's (the installer's three: main, updates and security; Debian
# 12's linux-source-6.12 is in bookworm-security), and the host's
# settings for reaching its mirror
cp -L /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
cat >"$root/etc/apt/sources.list" <<EOF
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb $security bookworm-security main
EOF
apt-config dump 2>/dev/null |
	grep -E '^Acquire::(Check-Valid-Until|Check-Date|https?::Proxy) ' \
	>"$root/etc/apt/apt.conf.d/99fresh-check-host" || true
# the host's local CAs (a TLS proxy's, /usr/local/share/ca-certificates)
# are part of the machine, like its apt proxy settings: npm and git
# reach HTTPS registries through them
if ls /usr/local/share/ca-certificates/*.crt >/dev/null 2>&1; then
	mkdir -p "$root/usr/local/share/ca-certificates"
	cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
	chroot "$root" update-ca-certificates >/dev/null 2>&1 ||
		msg "warning: update-ca-certificates failed in the root"
fi
# no daemons started by package scripts (they would outlive the run and
# keep its mounts busy)
printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
chmod 0755 "$root/usr/sbin/policy-rc.d"

mounted=1
# the root a mount point, as / is on a machine (unshare --propagation,
# tests/vm/sid-root.sh, needs one)
mount --bind "$root" "$root"
mount -t proc proc "$root/proc"
mount --rbind /sys "$root/sys" && mount --make-rslave "$root/sys"
mount --rbind /dev "$root/dev" && mount --make-rslave "$root/dev"
mkdir -p "$root/dev/pts"
mountpoint -q "$root/dev/pts" || mount -t devpts devpts "$root/dev/pts"
mount -t tmpfs -o mode=1777 tmpfs "$root/tmp"
# binfmt_misc (qemu-user-static registers there; the Debian board's
# second stage runs riscv64 programs through it): the kernel's one table,
# mounted in the chroot's /proc
if [ -d "$root/proc/sys/fs/binfmt_misc" ]; then
	mount -t binfmt_misc binfmt_misc "$root/proc/sys/fs/binfmt_misc" 2>/dev/null ||
		msg "warning: cannot mount binfmt_misc in the chroot (the Debian board's build needs it)"
fi

# a fresh clone of the commit, and the shared data beside it, read-only
src=/work/src
git clone -q --no-hardlinks "$repo" "$root$src" || die "git clone of $repo failed"
git -C "$root$src" checkout -q --detach "$rev" || die "cannot check out $rev"
if [ -n "$shared" ]; then
	cp -a "$shared" "$root/work/shared"
	chmod -R a-w "$root/work/shared"
fi
msg "root $root, clone of $rev in $src${shared:+, shared data from $shared}"
msg "running: $cmd"

log="$cache/run.log"
rc=0
t1=$(date +%s)
chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb CI=true \
	PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
	E1NPU_CACHE=/var/cache/e1npu \
	/bin/bash -c 'cd "$1" && shift && eval "$1"' fresh-check "$src" "$cmd" \
	</dev/null 2>&1 | tee "$log" || rc=${PIPESTATUS[0]}
t2=$(date +%s)

e=$((t2 - t1))
msg "command exit status $rc; elapsed $((e / 60)) min $((e % 60)) s (total with setup $(( (t2 - t0) / 60 )) min $(( (t2 - t0) % 60 )) s); log $log"
total=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1 || true)
echo "${total:-(no 'N passed, M failed' line in the output)}"
exit "$rc"
