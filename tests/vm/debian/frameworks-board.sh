# SPDX-License-Identifier: MIT
#
# The frameworks on the Debian board (sourced by run-board.sh while
# e1npu.ko is bound): TFLite 2.14.1 and ONNX Runtime 1.23.2 from Debian
# sid, which trixie lacks and whose libraries need sid's C library, in a
# chroot into the sid riscv64 root (tests/vm/frameworks-rootfs.sh, the
# disk labelled e1frameworks, a QEMU snapshot). The stack's packages go
# into the chroot with dpkg, the ONNX Runtime EP's among them:
#   - test-delegate: TFLite 2.14.1's own kernels vs TFLite 2.14.1 + the
#     delegate on /dev/accel/accel0, byte for byte, on the board; and the
#     delegate's outputs equal the host's (sid amd64, in-process device,
#     with the arithmetic of TFLite's riscv64 build);
#   - Python: onnxruntime with the EP (frameworks-ort.py): the board's CPU
#     EP and the host's bytes;
#   - C: tests/ort/ort-c-run, the host's bytes;
#   - purging the packages leaves the chroot as it was.
# $P/frameworks/SKIP: why there are none (debian-board.sh wrote it).
F=$P/frameworks
S=$W/sid	# under /var/tmp: outside the purge check's snapshot
fw_sh() { chroot "$S" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"; }
fw_snapshot() {
	fw_sh find / -xdev \( -path /var/log -o -path /var/cache -o -path /var/lib/dpkg \
		-o -path /var/tmp -o -path /tmp -o -path /root -o -path /payload \) -prune -o -print |
		LC_ALL=C sort >"$1"
}

fw_run() {
	fwdisk=
	for d in /dev/vd?; do
		[ "$(blkid -s LABEL -o value "$d" 2>/dev/null)" = e1frameworks ] && fwdisk=$d
	done
	if [ -z "$fwdisk" ]; then
		t_fail frameworks-disk "no disk labelled e1frameworks"
		return
	fi
	mkdir -p "$S"
	mount "$fwdisk" "$S" || { t_fail frameworks-mount "mount $fwdisk $S"; return; }
	for m in dev proc sys; do mount --bind "/$m" "$S/$m"; done
	mount -t tmpfs tmpfs "$S/tmp"
	mkdir -p "$S/payload"
	mount --bind "$P" "$S/payload"
	echo "E1VM-LOG: frameworks: $(tr '\n' ' ' <"$S/E1NPU-VERSIONS")"
	fw_snapshot "$W/fw-before"

	mkdir -p "$S/var/tmp/e1"
	cp "$P"/debs/npu/libe1npu0_*.deb "$P"/debs/npu/libe1npu-tflite-delegate_*.deb \
		"$P"/debs/frameworks/e1npu-onnxruntime-ep_*.deb "$S/var/tmp/e1/"
	t_run fw-dpkg-install secs fw_sh sh -c 'dpkg -i /var/tmp/e1/*.deb'
	rm -rf "$S/var/tmp/e1"
	multi=/usr/lib/riscv64-linux-gnu
	ep=$multi/e1npu/libe1npu_ort_ep.so
	want fw-ep-installed "$(fw_sh dpkg -L e1npu-onnxruntime-ep | grep -c "^$ep\$")" 1

	# TFLite 2.14.1
	if [ -f "$F/tflite/SKIP" ]; then
		t_skip fw-tflite "$(cat "$F/tflite/SKIP")"
	else
		tfl=$(ls "$S$multi"/libtensorflow-lite.so.2.* | head -n 1)
		tfl=${tfl#"$S"}
		_t0=$(date +%s)
		fw_sh /payload/frameworks/test-delegate --tflite "$tfl" --delegate "$multi/e1npu/libe1npu_tflite_delegate.so" \
			-d /dev/accel/accel0 --hashes --no-skip-ops -i /payload/frameworks/tflite/grace_hopper_128.bmp \
			-r 2 $(sed 's|^|/payload/frameworks/tflite/|' "$F/tflite/models") >"$W/fw-tflite.log" 2>&1
		rc=$?
		echo "E1VM-LOG: fw-tflite: $(grep -E '^test-delegate: reference|passed,' "$W/fw-tflite.log" | tr '\n' ' ')$(($(date +%s) - _t0)) s"
		if [ "$rc" = 0 ]; then
			t_pass fw-tflite-delegate-equals-tflite-2.14
		else
			grep -E '^  (FAIL|XFAIL)|differ' "$W/fw-tflite.log" | head -n 20 | sed 's/^/E1VM-LOG: fw-tflite: /'
			t_fail fw-tflite-delegate-equals-tflite-2.14 "test-delegate exit status $rc"
		fi
		grep '^HASH|.*|e1|' "$W/fw-tflite.log" | LC_ALL=C sort >"$W/fw-tflite.hash"
		grep '^HASH|.*|e1|' "$F/tflite/host.txt" | LC_ALL=C sort >"$W/fw-tflite-host.hash"
		if [ -s "$W/fw-tflite.hash" ] && cmp -s "$W/fw-tflite.hash" "$W/fw-tflite-host.hash"; then
			t_pass "fw-tflite-delegate-equals-host ($(wc -l <"$W/fw-tflite.hash") outputs)"
		else
			diff "$W/fw-tflite-host.hash" "$W/fw-tflite.hash" | head -n 10 | sed 's/^/E1VM-LOG: fw-tflite-host: /'
			t_fail fw-tflite-delegate-equals-host "the delegate's outputs on the board differ from the host's"
		fi
		# TFLite's own kernels: riscv64's build against x86-64's (a note:
		# they differ on 8-bit GEMMs, Documentation/tflite.md)
		grep '^HASH|.*|tflite|' "$W/fw-tflite.log" | LC_ALL=C sort >"$W/fw-tflite-ref.hash"
		echo "E1VM-LOG: fw-tflite: TFLite 2.14.1's own outputs: $(grep '^HASH|.*|tflite|' "$F/tflite/host.txt" |
			LC_ALL=C sort | comm -12 - "$W/fw-tflite-ref.hash" | wc -l) of $(wc -l <"$W/fw-tflite-ref.hash") equal on riscv64 and x86-64"
	fi

	# ONNX Runtime 1.23.2: Python, then the C API
	_t0=$(date +%s)
	fw_sh python3 /payload/frameworks/frameworks-ort.py /payload/frameworks/ort "$ep" \
		>"$W/fw-ort.log" 2>"$W/fw-ort.err"
	rc=$?
	echo "E1VM-LOG: fw-ort-python: $(($(date +%s) - _t0)) s"
	[ "$rc" = 0 ] || { tail -n 10 "$W/fw-ort.err" | sed 's/^/E1VM-LOG: fw-ort-python: /'; t_fail fw-ort-python "exit status $rc"; }
	while IFS='|' read -r st name detail; do
		case "$st" in
		PASS) t_pass "fw-ort-$name"; echo "E1VM-LOG: fw-ort-$name: $detail" ;;
		FAIL) t_fail "fw-ort-$name" "$detail" ;;
		esac
	done <"$W/fw-ort.log"
	while read -r name scope _sha _claim; do
		[ "$scope" = host ] || continue
		t_run "fw-ort-c-$name-equals-host" fw_sh /payload/frameworks/ort-c-run \
			-e "/payload/frameworks/ort/$name.cpu" "$ep" "/payload/frameworks/ort/$name.onnx" \
			/payload/frameworks/ort/"$name".in0.bin /payload/frameworks/ort/"$name".in1.bin \
			/payload/frameworks/ort/"$name".in2.bin
	done <"$F/ort/ort-host.txt"

	t_run fw-dpkg-purge fw_sh dpkg --purge e1npu-onnxruntime-ep libe1npu-tflite-delegate libe1npu0
	fw_snapshot "$W/fw-after"
	if cmp -s "$W/fw-before" "$W/fw-after"; then
		t_pass fw-purge-leaves-nothing
	else
		diff "$W/fw-before" "$W/fw-after" | head -n 20 | sed 's/^/E1VM-LOG: fw-purge: /'
		t_fail fw-purge-leaves-nothing "the sid root differs from before the packages"
	fi
	umount "$S/payload" "$S/tmp" "$S/sys" "$S/proc" "$S/dev"
	umount "$S"
}

if [ -f "$F/SKIP" ]; then
	t_skip frameworks "$(cat "$F/SKIP")"
else
	fw_run
fi
