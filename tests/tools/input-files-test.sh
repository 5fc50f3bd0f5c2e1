#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Every input file of the tools, given something that is not a readable,
# non-empty regular file: the tool fails (status 1 or 2) within seconds and
# its message names the file and the cause -- a directory ("is a
# directory"), a FIFO (refused by kind, never blocking on the open), a
# socket, a character device, a missing or unreadable file (the system's
# reason), an empty file ("empty file"). The expected texts are written
# here, not taken from the tools. Inputs: e1npu-hlo's module and its
# --input .npy files, e1npu-tflite's model and its raw and .npy input
# tensors, e1npu-classify's model, image, labels and raw tensor.
# Usage: input-files-test.sh E1NPU-HLO E1NPU-TFLITE E1NPU-CLASSIFY
set -u
hlo=$1
tfl=$2
cls=$3
. "$(dirname "$0")/lib.sh"
test_init input_files
export E1NPU_DEVICE=sim
# the model, photo and labels from shared/ (tests/tools/lib.sh): without
# them the checks that need a valid model are skipped, named once
have_data=1
test_data || have_data=0
model=$data/mobilenet_v1_0.25_128_quant.tflite
img=$data/grace_hopper_128.bmp
labels=$data/imagenet_labels.txt
mod=$top/tests/hlo/inputs/main-args.mlir

# each kind as NAME and NAME.npy (the tools pick .npy readers by the name)
for x in "" .npy; do
	mkdir "$tmp/dir$x"
	mkfifo "$tmp/fifo$x"
	: >"$tmp/empty$x"
	ln -s /dev/null "$tmp/chr$x"
	python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$tmp/sock$x"
	[ -S "$tmp/sock$x" ] || { echo "input-files-test: cannot make a socket file" >&2; exit 1; }
done
# a FIFO with a writer-less open never returns: 20 s means the tool blocked
to="timeout 20"

# expect_fail WANT CMD...: CMD fails with status 1 or 2 (not a timeout or
# a crash) and stderr contains WANT
expect_fail() {
	want=$1
	shift
	$to "$@" >"$out" 2>"$err"
	rc=$?
	if [ "$rc" != 1 ] && [ "$rc" != 2 ]; then
		echo "  status $rc (124: blocked, killed by timeout)" >>"$err"
		return 1
	fi
	grep -qF -- "$want" "$err" || { echo "  expected: $want" >>"$err"; return 1; }
}

# kinds ROLE CMD-TEMPLATE [SUFFIX]: the template's @ replaced by each
# kind's path (NAME SUFFIX)
kinds() {
	role=$1
	tmpl=$2
	x=${3:-}
	for k in dir fifo sock chr empty missing; do
		p=$tmp/$k$x
		case $k in
		dir) want="$p: is a directory" ;;
		fifo) want="$p: is a FIFO, not a regular file" ;;
		sock) want="$p: is a socket, not a regular file" ;;
		chr) want="$p: is a character device, not a regular file" ;;
		empty) want="$p: empty file" ;;
		missing) want="$p: No such file or directory" ;;
		esac
		[ "$role" = cls_labels ] && [ "$k" = empty ] && want="labels file $p is empty"
		# shellcheck disable=SC2046 # the template's words are the command
		check "${role}_$k" expect_fail "$want" $(echo "$tmpl" | sed "s|@|$p|")
	done
}

kinds hlo_module "$hlo run @"
kinds hlo_input_npy "$hlo run --input arg0=@ $mod" .npy
kinds tflite_model "$tfl report @"
if [ "$have_data" = 1 ]; then
	kinds tflite_input_raw "$tfl run $model -i @"
	kinds tflite_input_npy "$tfl run $model -i @" .npy
	kinds cls_model "$cls -m @ -i $img -l $labels"
	kinds cls_image "$cls -m $model -i @ -l $labels"
	kinds cls_labels "$cls -m $model -i $img -l @"
	kinds cls_tensor "$cls -m $model --input-tensor @"
fi

# an unreadable file: the system's reason (root reads any file: the check
# runs as nobody through setpriv, where it can)
t_unreadable() {
	echo x >"$tmp/unreadable"
	chmod 000 "$tmp/unreadable"
	if [ "$(id -u)" != 0 ]; then
		expect_fail "$tmp/unreadable: Permission denied" "$hlo" run "$tmp/unreadable"
	else
		chmod 0755 "$tmp"
		setpriv --reuid=65534 --regid=65534 --clear-groups -- "$hlo" --version >/dev/null 2>&1 ||
			{ echo "SKIPPED input_files_unreadable: nobody cannot run $hlo"; return 0; }
		expect_fail "$tmp/unreadable: Permission denied" \
			setpriv --reuid=65534 --regid=65534 --clear-groups -- "$hlo" run "$tmp/unreadable"
	fi
}
check unreadable t_unreadable
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
