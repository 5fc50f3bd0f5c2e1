# SPDX-License-Identifier: MIT
#
# The payload of the board's framework checks (sourced by debian-board.sh;
# the board's half is frameworks-board.sh): $P/frameworks holds
#   test-delegate, ort-c-run   cross-built for riscv64 like the packages
#                              (both dlopen the framework: no sid library
#                              is needed to build them)
#   frameworks-ort.py          the board's Python session
#   tflite/                    the models, the photo, models (their names),
#                              host.txt: test-delegate --hashes of the same
#                              run on the host (TFLite 2.14.1 in the sid
#                              amd64 root, the in-process device, with the
#                              arithmetic of TFLite's riscv64 build)
#   ort/                       frameworks-host.py's models, inputs, outputs
#   SKIP, tflite/SKIP          why those checks cannot run
# and $P/debs/frameworks the ONNX Runtime EP's package. fw_payload prints
# why it failed on stdout, its progress on stderr.
FWP=$P/frameworks
mkdir -p "$FWP/tflite" "$FWP/ort"
install -m 0755 "$VM_DIR/debian/frameworks-board.sh" "$P/frameworks-board.sh"

fw_payload() {
	local sid_o=${SID_O:-build-sid} fw_log=$W/frameworks-host.log m tfl
	[ -f "$P/debs/frameworks/e1npu-onnxruntime-ep_"*_riscv64.deb ] ||
		{ echo "make deb built no e1npu-onnxruntime-ep (ORT_INCDIR=$ORT_INCDIR)"; return 1; }
	# the board's programs
	run_logged "$W/frameworks-cross.log" make -C "$TOP" CROSS_COMPILE=riscv64-linux-gnu- SYSROOT="$SYSROOT" \
		O="$B" ORT_INCDIR="$ORT_INCDIR" -j2 "$B/tests/delegate/test-delegate" "$B/tests/ort/ort-c-run" ||
		{ echo "cannot cross-build test-delegate and ort-c-run (log $W/frameworks-cross.log)"; return 1; }
	install -m 0755 "$B/tests/delegate/test-delegate" "$B/tests/ort/ort-c-run" "$FWP/"
	install -m 0644 "$VM_DIR/debian/frameworks-ort.py" "$FWP/"
	# the host's half, in the sid amd64 root
	run_logged "$W/frameworks-sid-build.log" "$VM_DIR/sid-root.sh" --run make -s O="$sid_o" -j2 \
		"$sid_o/tests/delegate/test-delegate" "$sid_o/delegate/libe1npu_tflite_delegate.so" \
		"$sid_o/ort-ep/libe1npu_ort_ep.so" "$sid_o/tests/ort/ort-c-run" ||
		{ echo "cannot build the host's programs in the sid root (log $W/frameworks-sid-build.log)"; return 1; }
	run_logged "$fw_log" "$VM_DIR/sid-root.sh" --run python3 tests/vm/debian/frameworks-host.py \
		"/src/$P_REL/frameworks/ort" "/src/$sid_o/ort-ep/libe1npu_ort_ep.so" "/src/$sid_o/tests/ort/ort-c-run" ||
		{ echo "the host's ONNX Runtime runs failed (log $fw_log)"; return 1; }
	grep '^frameworks-host:' "$fw_log" | sed 's/^/    /' >&2
	# TFLite: the shared MobileNet (uint8) and an int8 zoo model (2.14's
	# ruy rounding), on the photo and 2 random inputs
	: >"$FWP/tflite/models"
	for m in "$SHARED_MODELS/mobilenet_v1_0.25_128_quant.tflite" \
		"${SHARED_DIR:-$TOP/../shared}/zoo/tiny_ic_resnet_quant.tflite"; do
		if [ ! -f "$m" ] || [ ! -f "$D/grace_hopper_128.bmp" ]; then
			echo "$m or the photo absent on the build machine (CI lays shared/ beside the checkout)" >"$FWP/tflite/SKIP"
			return 0
		fi
		install -m 0644 "$m" "$FWP/tflite/"
		basename "$m" >>"$FWP/tflite/models"
	done
	install -m 0644 "$D/grace_hopper_128.bmp" "$FWP/tflite/"
	# the delegate on the in-process device with the arithmetic of the
	# board's TFLite (riscv64's ruy kernel: E1NPU_TFLITE_RUY=portable,
	# Documentation/tflite.md): the board's outputs through e1npu.ko must be
	# these. Against x86-64's own TFLite this run differs where the two
	# builds do, so only its hashes are used.
	tfl=$("$VM_DIR/sid-root.sh" --run sh -c 'ls /usr/lib/*/libtensorflow-lite.so.2.* | head -n 1')
	"$VM_DIR/sid-root.sh" --run env E1NPU_TFLITE_RUY=portable "$sid_o/tests/delegate/test-delegate" \
		--tflite "$tfl" --delegate "$sid_o/delegate/libe1npu_tflite_delegate.so" -d sim --hashes \
		--no-skip-ops -i "$P_REL/frameworks/tflite/grace_hopper_128.bmp" -r 2 \
		$(sed "s|^|$P_REL/frameworks/tflite/|" "$FWP/tflite/models") >"$FWP/tflite/host.txt" 2>&1
	n=$(grep -c '^HASH|.*|e1|' "$FWP/tflite/host.txt")
	if [ "$n" != $(( 3 * $(wc -l <"$FWP/tflite/models") )) ]; then
		tail -n 10 "$FWP/tflite/host.txt" >&2
		echo "the host's TFLite 2.14.1 run gave $n delegate outputs ($FWP/tflite/host.txt)"
		return 1
	fi
	echo "    frameworks-host: TFLite: $(grep -E '^test-delegate: reference' "$FWP/tflite/host.txt") $n delegate outputs (E1NPU_TFLITE_RUY=portable)" >&2
}

if [ -z "$FW_SKIP" ] && ! FW_SKIP=$(fw_payload); then
	[ -n "$FW_SKIP" ] || FW_SKIP="the frameworks' payload failed"
	die "debian board: frameworks: $FW_SKIP"
fi
if [ -n "$FW_SKIP" ]; then
	msg "debian board: SKIP the frameworks: $FW_SKIP"
	echo "$FW_SKIP" >"$FWP/SKIP"
fi
