# SPDX-License-Identifier: MIT
# One total over the test output of `make check`: cmocka groups
# ("[  PASSED  ] N test(s)." / "[  FAILED  ] N test(s)"), and the shell
# suites' and the VM's "N passed, M failed" lines. Pass -v status=<make's
# exit status>: a failing make with no counted failure still reports one.
function add(   i) {
	for (i = 1; i < NF; i++) {
		if ($(i + 1) ~ /^passed/)
			p += $i
		else if ($(i + 1) ~ /^failed/)
			f += $i
	}
}
/^\[  PASSED  \] [0-9]+ test/ { p += $4; next }
/^\[  FAILED  \] [0-9]+ test/ { f += $4; next }
/E1VM-SUMMARY: [0-9]+ passed, [0-9]+ failed/ { add(); next }
/^(check-models: |  PASS  unit: )?[0-9]+ passed, [0-9]+ failed/ { add() }
END {
	if (f == 0 && status != 0)
		f = 1
	printf "%d passed, %d failed\n", p, f
}
