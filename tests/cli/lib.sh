# Helpers for CLI tests; every tests/cli/*.sh sources this first.
#
#   run_nm ARGS...            run nodemark; sets $rc, $out (stdout), $err (stderr)
#   expect_rc N "what"        PASS when the last run exited N
#   expect_out_has TEXT "what" / expect_err_has TEXT "what" / expect_out_matches REGEX "what"
#   ok "what" / not_ok "what" / check "what" CMD...  (PASS when CMD succeeds)
#   skip "what" "why"         SKIP: a check this machine cannot make (counted apart, never a PASS)
#   one_line_error "what"     stderr is exactly one line starting "nodemark: "
set -u
T=$(basename "${BASH_SOURCE[1]:-$0}" .sh)
NM=${NODEMARK:?}
rc=0 out="" err=""

ok() { echo "PASS: $T: $1"; }
skip() { echo "SKIP: $T: $1 (${2:-not possible here})"; }
not_ok() { echo "FAIL: $T: $1"; [ -n "${2:-}" ] && echo "    $2"; return 0; }

run_nm() {
    local o e
    o=$(mktemp) e=$(mktemp)
    "$NM" "$@" >"$o" 2>"$e"
    rc=$?
    out=$(cat "$o") err=$(cat "$e")
    rm -f "$o" "$e"
}

expect_rc() {
    if [ "$rc" -eq "$1" ]; then ok "$2"; else not_ok "$2" "exit $rc, expected $1; stderr: ${err:0:400}"; fi
}
expect_out_has() {
    if grep -qF -- "$1" <<<"$out"; then ok "$2"; else not_ok "$2" "stdout lacks '$1': ${out:0:400}"; fi
}
expect_err_has() {
    if grep -qF -- "$1" <<<"$err"; then ok "$2"; else not_ok "$2" "stderr lacks '$1': ${err:0:400}"; fi
}
expect_out_matches() {
    if grep -qE -- "$1" <<<"$out"; then ok "$2"; else not_ok "$2" "stdout does not match /$1/: ${out:0:400}"; fi
}
check() {
    local what=$1
    shift
    if "$@" >/dev/null 2>&1; then ok "$what"; else not_ok "$what" "command failed: $*"; fi
}
one_line_error() {
    local n
    n=$(printf '%s\n' "$err" | grep -c .)
    if [ "$n" -eq 1 ] && [[ $err == nodemark:* ]]; then ok "$1"; else not_ok "$1" "stderr: ${err:0:400}"; fi
}
# json_get FILTER: evaluate a Python expression on the JSON in $out (j is the parsed object)
json_get() {
    python3 -c 'import json,sys; j=json.loads(sys.stdin.read()); print(eval(sys.argv[1]))' "$1" <<<"$out"
}
