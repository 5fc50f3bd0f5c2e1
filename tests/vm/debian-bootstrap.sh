# SPDX-License-Identifier: MIT
#
# A Debian riscv64 root file system on this machine (sourced after
# common.sh and debian-apt.sh): debootstrap --foreign, then the second
# stage in a chroot under qemu-user-static through binfmt_misc.
#   deb_bootstrap ROOT LOGDIR PKG...   minbase of $DEB_SUITE plus PKG...
#   deb_pack_ext4 ROOT IMG LABEL       an ext4 image of ROOT with 1 GiB room
#                                      (sparse: only what is written counts)

# binfmt_misc: riscv64 ELF files run through qemu-user-static, with the
# interpreter opened at registration (F: it works inside the chroot)
_deb_binfmt() {
	local f=/proc/sys/fs/binfmt_misc/qemu-riscv64
	[ -e /proc/sys/fs/binfmt_misc/register ] ||
		mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc 2>/dev/null ||
		die "debootstrap: binfmt_misc is not mounted and cannot be (needed to run riscv64 programs in the chroot)"
	[ -e "$f" ] || update-binfmts --enable qemu-riscv64 >/dev/null 2>&1 ||
		die "debootstrap: cannot register qemu-riscv64 with binfmt_misc (qemu-user-static, binfmt-support)"
	grep -q '^enabled' "$f" || echo 1 >"$f"
	grep -q '^flags:.*F' "$f" ||
		die "debootstrap: the qemu-riscv64 binfmt entry lacks the F flag ($f): the chroot cannot find its interpreter"
}

deb_bootstrap() {
	local r=$1 logs=$2
	shift 2
	_deb_binfmt
	msg "debootstrap: $DEB_SUITE $DEB_ARCH minbase + $* (log $logs/debootstrap.log)" >&2
	run_logged "$logs/debootstrap.log" debootstrap --foreign --arch="$DEB_ARCH" --variant=minbase \
		--keyring="$DEB_KEYRING" --include="$(IFS=,; echo "$*")" "$DEB_SUITE" "$r" "$DEB_MIRROR" ||
		die "debootstrap: first stage of $DEB_SUITE failed (log $logs/debootstrap.log)"
	run_logged "$logs/second-stage.log" chroot "$r" /debootstrap/debootstrap --second-stage ||
		die "debootstrap: --second-stage of $DEB_SUITE failed (log $logs/second-stage.log)"
}

deb_pack_ext4() {
	local r=$1 img=$2 label=$3 size
	size=$(( $(du -sm "$r" | cut -f1) + 1024 ))
	run_logged "$img.mke2fs.log" mke2fs -q -t ext4 -L "$label" -d "$r" "$img" "${size}M" ||
		die "mke2fs -d of $r failed (log $img.mke2fs.log)"
	rm -f "$img.mke2fs.log"
	echo "$size"
}
