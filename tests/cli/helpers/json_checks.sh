# json_checks EXPR WHAT [EXPR WHAT]...: evaluate every Python expression on the JSON in $out
# (j is the parsed object) in ONE interpreter, and PASS/FAIL each WHAT on its truth.
# One python start per JSON document keeps CLI tests fast on a loaded machine.
json_checks() {
    local results i=0 line
    results=$(python3 -c '
import json, sys
j = json.loads(open(sys.argv[1]).read())
for e in sys.argv[2::2]:
    try:
        print("1" if eval(e) else "0 " + repr(eval(e))[:200])
    except Exception as x:
        print("0 " + type(x).__name__ + ": " + str(x)[:200])
' <(printf '%s' "$out") "$@" 2>&1)
    local args=("$@")
    while IFS= read -r line; do
        local what=${args[$((2 * i + 1))]:-?}
        if [ "${line:0:1}" = 1 ]; then ok "$what"; else not_ok "$what" "${args[$((2 * i))]} -> ${line:2}"; fi
        i=$((i + 1))
    done <<<"$results"
    [ $i -eq $(($# / 2)) ] || not_ok "json_checks evaluated every check" "$results"
}
