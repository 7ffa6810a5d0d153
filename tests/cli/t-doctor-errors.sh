# pmustat doctor's usage and input errors: one 'error:' line, a 'hint:'
# naming what to type, and the DESIGN.md exit codes (2 usage, 1 runtime).
. "$TESTLIB"

PMUSTAT_CPU=bogus run_pm 2 doctor
expect_eq "$(head -1 err)" "error: invalid PMUSTAT_CPU 'bogus': expected vendor-family-model[-stepping] in decimal, or an arm64 MIDR in hex" "bad PMUSTAT_CPU"
expect_in err "hint: e.g. PMUSTAT_CPU=AuthenticAMD-25-17-1"
[ ! -s out ] || fail "stdout not empty on error"

PMUSTAT_CPU=AuthenticAMD-25-0x11 run_pm 2 doctor
expect_in err "error: invalid PMUSTAT_CPU 'AuthenticAMD-25-0x11'"

run_pm 2 doctor --uarch zen44
expect_eq "$(cat err)" "error: unknown uarch 'zen44' (from --uarch)
hint: did you mean 'zen4'?" "bad --uarch"

PMUSTAT_UARCH=sapphirerapid run_pm 2 doctor
expect_in err "error: unknown uarch 'sapphirerapid' (from PMUSTAT_UARCH)"
expect_in err "hint: did you mean 'sapphirerapids'?"

run_pm 2 doctor --jsn
expect_in err "error: unknown option '--jsn'"
expect_in err "hint:"

run_pm 2 doctor now
expect_eq "$(head -1 err)" "error: unexpected argument 'now'" "extra argument"

run_pm 0 doctor -h
expect_in out "pmustat doctor [--json] [--uarch U]"
expect_in out "--json"

PMUSTAT_SYSFS_ROOT=/nonexistent/sys run_pm 1 doctor
grep -q "^error: .*/nonexistent/sys" err || fail "bad sysfs root not named: $(cat err)"

# A failed write of the report is an error, not a silent truncation.
expect_stdout_full doctor
expect_stdout_full doctor --json
expect_stdout_full doctor -h
