# SPDX-License-Identifier: MIT
#
# Debian's 6.12 amd64 kernel, unpacked into the cache (never installed).
# Sourced by run-vm.sh / lint-kernel.sh after common.sh. x86_64_kernel
# sets: KVER KDIR (headers, for M= builds) KIMAGE MODROOT (dir holding
# lib/modules/$KVER with modules.dep).

_x86_unpack() {
	local root=$1 abi=$2 kb=$3 ver=$4 t0 pkg deb
	[ -f "$root/.e1npu-unpacked" ] && return 0
	t0=$(now)
	rm -rf "$root" "$root.tmp"
	mkdir -p "$root.tmp"
	for pkg in "linux-image-$abi-unsigned" "linux-headers-$abi" \
		   "linux-headers-$kb-common" "linux-kbuild-$kb"; do
		deb=$(deb_file "$pkg" "$ver")
		dpkg-deb -x "$deb" "$root.tmp"
	done
	# The headers' Makefile includes the common tree by absolute path.
	sed -i "s#^include /usr/src/#include $root/usr/src/#" \
		"$root.tmp/usr/src/linux-headers-$abi/Makefile"
	depmod -b "$root.tmp" "$abi"
	mv "$root.tmp" "$root"
	touch "$root/.e1npu-unpacked"
	msg "x86_64 kernel $abi ($ver) fetched+unpacked in $(elapsed "$t0") s"
}

x86_64_kernel() {
	local name abi kb ver root
	cache_init
	if [ "${E1NPU_OFFLINE:-0}" = 1 ]; then
		root=$(ls -d "$E1NPU_CACHE"/x86_64/6.12.*/ 2>/dev/null | sort -V | tail -n 1 || true)
		[ -n "$root" ] || die "offline and no x86_64 kernel in $E1NPU_CACHE/x86_64"
		root=${root%/}
		abi=$(ls "$root/lib/modules" | head -n 1)
	else
		name=$(apt_newest 'linux-image-6\.12\.[0-9]+\+deb12-amd64-unsigned' linux-image-6.12.)
		[ -n "$name" ] || die "apt knows no linux-image-6.12.*+deb12-amd64-unsigned (is bookworm-security in sources.list?)"
		abi=${name#linux-image-}
		abi=${abi%-unsigned}
		ver=$(apt_version "$name")
		kb=${abi%-amd64}
		root="$E1NPU_CACHE/x86_64/$abi"
		mkdir -p "$E1NPU_CACHE/x86_64"
		if [ ! -f "$root/.e1npu-unpacked" ] || [ "$(cat "$root/.e1npu-version" 2>/dev/null)" != "$ver" ]; then
			rm -f "$root/.e1npu-unpacked"
			with_lock x86_64 _x86_unpack "$root" "$abi" "$kb" "$ver"
			echo "$ver" >"$root/.e1npu-version"
		fi
	fi
	KVER=$abi
	KDIR="$root/usr/src/linux-headers-$abi"
	KIMAGE="$root/boot/vmlinuz-$abi"
	MODROOT=$root
	[ -f "$KIMAGE" ] && [ -f "$KDIR/Makefile" ] && [ -f "$MODROOT/lib/modules/$KVER/modules.dep" ] ||
		die "x86_64 kernel cache $root is incomplete; remove it and retry"
	# Debian's config has BTF for modules, which needs pahole (dwarves);
	# the guest loads BTF-less modules fine, so skip that step.
	KMAKE_ARGS=(CONFIG_DEBUG_INFO_BTF_MODULES=)
	msg "x86_64 kernel: $KVER (headers $KDIR)"
}
