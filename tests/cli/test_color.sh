# Colour (util/color.c): --color=always puts escapes on the called rows only (a regression in
# red, an improvement in green); auto colours a terminal only (script(1) gives one), and
# NO_COLOR or a pipe give none; time's --style color colours, basic, nocolor and none do not.
. "$TESTS_DIR/cli/lib.sh"

scratch_dir
cd "$d" || exit 1
python3 - <<'PY'
import json
def record(rid, label, scale):
    def bench(name, samples):
        return {"name": name, "settings": {"phase": "hash"},
                "metrics": [{"name": "bytes_per_sec", "unit": "B/s", "direction": "higher", "samples": samples}],
                "series": [], "hists": []}
    quiet = {"busy": False, "other_busy_pct": 1.0, "steal_pct": 0.0}
    return {"format": "nodemark-record", "format_version": 1, "id": rid, "time_ms": 1796119242862, "host": "vm",
            "version": "0.1.0", "command": "run", "cmdline": "nodemark run", "label": label, "tags": {},
            "extra": {"run": {"dir": "/data", "mode": "default"}, "noise": {"hash": quiet}},
            "benches": [bench("hash/slower", [v * scale for v in [100e6, 101e6, 99e6, 100.5e6, 99.5e6, 100.2e6]]),
                        bench("hash/faster", [v / scale for v in [100e6, 101e6, 99e6, 100.5e6, 99.5e6, 100.2e6]]),
                        bench("hash/same", [100e6, 101e6, 99e6, 100.5e6, 99.5e6, 100.2e6]),
                        bench("hash/few", [100e6 * scale, 101e6])]}
json.dump(record("6b0e0000000000c1", "base", 1.0), open("base.json", "w"))
json.dump(record("6b0e0000000000c2", "new", 0.5), open("new.json", "w"))
PY
ESC=$'\033'

run_nm compare base.json new.json --color=always
expect_rc 0 "compare --color=always exits 0"
red=$(grep -F "${ESC}[31m" <<<"$out")
green=$(grep -F "${ESC}[32m" <<<"$out")
if [[ $red == "  ${ESC}[31mhash/slower"*"regression:"*"${ESC}[0m" ]] && [ "$(grep -c . <<<"$red")" -eq 1 ]; then
    ok "the called regression's line is red, and only it"
else not_ok "the called regression's line is red, and only it" "$(cat -v <<<"$out")"; fi
if [[ $green == "  ${ESC}[32mhash/faster"*"improvement:"*"${ESC}[0m" ]] && [ "$(grep -c . <<<"$green")" -eq 1 ]; then
    ok "the called improvement's line is green, and only it"
else not_ok "the called improvement's line is green, and only it" "$(cat -v <<<"$out")"; fi
if grep -F "$ESC" <<<"$out" | grep -qvE 'regression:|improvement:'; then
    not_ok "no other line has an escape (unchanged, not compared, the tables)" "$(cat -v <<<"$out")"
else ok "no other line has an escape (unchanged, not compared, the tables)"; fi

run_nm compare base.json new.json
plain=$out
if grep -qF "$ESC" <<<"$out"; then not_ok "a pipe gets no colour by default" "$(cat -v <<<"$out")"
else ok "a pipe gets no colour by default"; fi
run_nm compare base.json new.json --color=never
if [ "$out" = "$plain" ]; then ok "--color=never is the plain text"; else not_ok "--color=never is the plain text"; fi
run_nm compare base.json new.json --color=bogus
expect_refused "--color takes auto, always or never" "expected auto, always or never"

# a terminal: script(1) runs the command on a pseudo-terminal
if command -v script >/dev/null; then
    tty_out=$(script -qec "$NM compare base.json new.json" /dev/null </dev/null)
    if grep -qF "${ESC}[31m" <<<"$tty_out"; then ok "auto colours a terminal"
    else not_ok "auto colours a terminal" "$(cat -v <<<"$tty_out")"; fi
    tty_out=$(NO_COLOR=1 script -qec "$NM compare base.json new.json" /dev/null </dev/null)
    if grep -qF "$ESC" <<<"$tty_out"; then not_ok "NO_COLOR=1 turns it off on a terminal" "$(cat -v <<<"$tty_out")"
    else ok "NO_COLOR=1 turns it off on a terminal"; fi
    tty_out=$(NO_COLOR= script -qec "$NM compare base.json new.json" /dev/null </dev/null)
    if grep -qF "${ESC}[31m" <<<"$tty_out"; then ok "an empty NO_COLOR does not"
    else not_ok "an empty NO_COLOR does not" "$(cat -v <<<"$tty_out")"; fi
else
    skip "auto on a terminal" "no script(1)"
fi

# time: hyperfine's --style; the summary's significant 'faster' in green
for style in color full; do
    run_nm time --no-save --runs 6 --style $style 'sleep 0.01' 'sleep 0.1'
    if grep -qF "${ESC}[32m" <<<"$out"; then ok "time --style $style colours the summary"
    else not_ok "time --style $style colours the summary" "$(cat -v <<<"$out")"; fi
done
for style in basic nocolor none; do
    run_nm time --no-save --runs 6 --style $style 'sleep 0.01' 'sleep 0.1'
    if grep -qF "$ESC" <<<"$out$err"; then not_ok "time --style $style has no colour" "$(cat -v <<<"$out$err")"
    else ok "time --style $style has no colour"; fi
done
run_nm time --no-save --runs 6 --color=always 'sleep 0.01' 'sleep 0.1'
if grep -qF "${ESC}[32m" <<<"$out"; then ok "time --color=always colours too"
else not_ok "time --color=always colours too" "$(cat -v <<<"$out")"; fi
