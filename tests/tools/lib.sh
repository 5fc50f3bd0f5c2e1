# SPDX-License-Identifier: MIT
#
# Shell helpers of the tools' CLI tests (tests/tools/*-test.sh,
# tests/hlo/run-tests.sh), sourced: . "$(dirname "$0")/../tools/lib.sh".
# POSIX sh, like the scripts.

# test_init PREFIX: the counters, a temporary directory $tmp removed on
# exit, its files $out and $err and $top (the source tree); ok/ko/check
# below report as "PASS PREFIX_NAME".
test_init() {
	test_prefix=$1
	pass=0
	fail=0
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	out=$tmp/out
	err=$tmp/err
	top=$(dirname "$0")/../..
}

# test_data [FILE...]: $data, a directory in $tmp holding the test inputs
# from outside the tree: the small MobileNet and imagenet_labels.txt of
# $MODELS_DIR (default $SHARED_DIR/models, SHARED_DIR default $top/../shared:
# CI lays shared/ beside the checkout), zoo/ ($ZOO_DIR, default
# $SHARED_DIR/zoo) and grace_hopper_128.bmp ($TEST_IMAGE when the build
# made it, else tests/data/mkimage.py on the shared photograph). Where one
# of them (or a FILE the caller needs) is absent: one SKIP line naming it,
# and false (need_data: then the result line and exit 0).
# td_abs PATH: PATH from /, for the links test_data makes in $tmp
td_abs() { case $1 in /*) echo "$1" ;; *) echo "$(pwd)/$1" ;; esac; }
test_data() {
	data=$tmp/data
	td_shared=${SHARED_DIR:-$top/../shared}
	td_models=$(td_abs "${MODELS_DIR:-$td_shared/models}")
	td_zoo=$(td_abs "${ZOO_DIR:-$td_shared/zoo}")
	for f in "$td_models/mobilenet_v1_0.25_128_quant.tflite" "$td_models/imagenet_labels.txt" \
		"$td_models/grace_hopper.bmp" "$@"; do
		[ -e "$f" ] && continue
		echo "SKIP: $test_prefix: $f absent (CI lays shared/ beside the checkout: SHARED_DIR)"
		return 1
	done
	mkdir "$data"
	ln -s "$td_models/mobilenet_v1_0.25_128_quant.tflite" "$td_models/imagenet_labels.txt" "$data/"
	ln -s "$td_zoo" "$data/zoo"
	if [ -n "${TEST_IMAGE:-}" ] && [ -f "$TEST_IMAGE" ]; then
		cp "$TEST_IMAGE" "$data/grace_hopper_128.bmp"
	else
		python3 "$top/tests/data/mkimage.py" "$td_models/grace_hopper.bmp" "$data/grace_hopper_128.bmp"
	fi
}
need_data() { test_data "$@" || { echo "$pass passed, $fail failed, 1 skipped"; exit 0; }; }

ok() { pass=$((pass + 1)); echo "PASS ${test_prefix}_$1"; }
# a failure shows what the tool said (stdout too when it said something)
ko() {
	fail=$((fail + 1))
	echo "FAIL ${test_prefix}_$1"
	[ -f "$err" ] && sed 's/^/  stderr: /' "$err" >&2
	[ -s "$out" ] && sed 's/^/  stdout: /' "$out" >&2
	return 0
}
# check NAME CMD...: CMD with $out and $err emptied first, so a test never
# reads an earlier one's output.
check() { name=$1; shift; : >"$out"; : >"$err"; if "$@"; then ok "$name"; else ko "$name"; fi; }

# pty_sigint UNTIL TIMEOUT [EXPECT...] -- CMD [ARG...]: CMD on a pseudo-
# terminal (E1NPU_DEVICE=sim) until UNTIL shows on it (TIMEOUT seconds at
# most), then Ctrl-C. True when CMD died of SIGINT, its output contains
# every EXPECT and ends by erasing the line ("\r\033[K"): a progress line
# never leaves the shell prompt after it. UNTIL and EXPECT are Python
# string escapes ('\r\x1b[K...'); a failure says why on stderr.
pty_sigint() {
	python3 - "$@" <<'PY'
import codecs, os, pty, select, signal, sys, time

def raw(s):
    return codecs.decode(s, "unicode_escape").encode("latin-1")

args = sys.argv[1:]
sep = args.index("--")
until, timeout = raw(args[0]), float(args[1])
expects, cmd = [raw(s) for s in args[2:sep]], args[sep + 1:]
pid, fd = pty.fork()
if pid == 0:
    os.environ["E1NPU_DEVICE"] = "sim"
    os.execv(cmd[0], cmd)
buf = b""
t0 = time.time()
while until not in buf and time.time() - t0 < timeout:
    if select.select([fd], [], [], 1)[0]:
        try:
            buf += os.read(fd, 4096)
        except OSError:
            break
os.kill(pid, signal.SIGINT)
try:
    while True:
        d = os.read(fd, 4096)
        if not d:
            break
        buf += d
except OSError:
    pass
_, st = os.waitpid(pid, 0)
for e in expects:
    assert e in buf, buf[-200:]
assert buf.endswith(b"\r\x1b[K"), buf[-40:]
assert os.WIFSIGNALED(st) and os.WTERMSIG(st) == signal.SIGINT, st
PY
}
