#!/bin/sh
# SPDX-License-Identifier: MIT
#
# check-zoo's expectations must catch changes both ways: test-delegate
# --expect on two small zoo models with deliberately wrong lines must fail
# with the message that names the change ("update expect.txt").
#
# expect-selftest.sh TEST-DELEGATE LIBTFLITE DELEGATE-SO ZOO-DIR OUT-DIR
set -u
[ $# -eq 5 ] || { echo "usage: $0 TEST-DELEGATE LIBTFLITE DELEGATE-SO ZOO-DIR OUT-DIR" >&2; exit 2; }
td=$1 lib=$2 so=$3 zoo=$4 out=$5
pass=0 fail=0

# case NAME MODEL 'EXPECT LINE' 'MESSAGE THE RUN MUST PRINT'
case_() {
	name=$1 model=$2 line=$3 want=$4
	[ -f "$model" ] || { echo "  FAIL  $name: $model missing"; fail=$((fail + 1)); return; }
	printf '%s\n' "$line" > "$out/selftest-$name.txt"
	if "$td" --tflite "$lib" --delegate "$so" --interp --expect "$out/selftest-$name.txt" \
		-r 1 "$model" > "$out/selftest-$name.log" 2>&1; then
		echo "  FAIL  $name: test-delegate passed with the wrong line '$line'"
		fail=$((fail + 1))
	elif grep -q -- "$want" "$out/selftest-$name.log"; then
		echo "  PASS  $name: fails with '$want'"
		pass=$((pass + 1))
	else
		echo "  FAIL  $name: failed, but without '$want' (log: $out/selftest-$name.log)"
		fail=$((fail + 1))
	fi
}

m=tfm_hello_world_int8.tflite
case_ interp-improved $zoo/$m "$m | refused: whatever | 3/3/1 | exact" 'now loads it'
case_ missing-line $zoo/$m "other.tflite | exact | 3/3/1 | exact" 'no line in the expectations file'
case_ delegate-count $zoo/$m "$m | exact | 2/3/1 | exact" 'says 2/3/1: update expect.txt'
case_ delegate-improved $zoo/$m "$m | exact | 3/3/1 | differs: was wrong" 'now exact on all'
# a model the interpreter refuses (the zoo's become loadable as operators are added)
m2=unsupported-reverse-v2.tflite
python3 "$(dirname "$0")/mk_unsupported.py" "$out/$m2"
case_ interp-regressed $out/$m2 "$m2 | exact | 0/1/0 | exact" 'expect.txt says .exact.'
case_ refusal-reason $out/$m2 "$m2 | refused: MUL | 0/1/0 | exact" "expect.txt says 'refused: MUL'"
echo "$pass passed, $fail failed (check-zoo: expectations self-test)"
[ "$fail" -eq 0 ]
