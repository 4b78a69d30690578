# Measurements that are not finite numbers are refused wherever they are read, before any
# statistic runs: exit 2 and one line naming the file and line.  (A NaN in one of two benchstat
# inputs used to overflow a heap buffer in the Mann-Whitney tie grouping and die with SIGSEGV.)
. "$TESTS_DIR/cli/lib.sh"

printf 'BenchmarkX 1 1 ns/op\nBenchmarkX 1 2 ns/op\nBenchmarkX 1 NaN ns/op\nBenchmarkX 1 3 ns/op\n' >nan.txt
printf 'BenchmarkX 1 1 ns/op\nBenchmarkX 1 2 ns/op\nBenchmarkX 1 2 ns/op\n' >plain.txt
printf 'BenchmarkX 1 5 ns/op\nBenchmarkX 1 +Inf ns/op\n' >inf.txt
printf 'BenchmarkX 1 -Inf ns/op\n' >neginf.txt
printf 'BenchmarkX 1 1e305 MB/s\n' >overflow.txt # finite as written, infinite as B/s

run_nm benchstat nan.txt plain.txt
expect_refused "benchstat: a NaN in one of two inputs is refused (it crashed)" 'nan.txt:3: measurement "NaN ns/op" is not a finite number'
if [ -z "$out" ]; then ok "benchstat prints no table before the refusal"; else not_ok "benchstat prints no table before the refusal" "$out"; fi
for f in inf.txt neginf.txt overflow.txt; do
    run_nm benchstat plain.txt "$f"
    expect_refused "benchstat: $f is refused" "$f:"
    run_nm compare plain.txt "$f"
    expect_refused "compare: $f is refused" "$f"
done
run_nm compare nan.txt plain.txt
expect_refused "compare: NaN is refused" "nan.txt"

# The store: a sample that is infinite (only a hand-edited or foreign store holds one) is
# refused when the run is loaded, by every command that reads it.
STORE=$PWD/s.db
"$NM" hash --db "$STORE" --size 64k --algo sha256 --threads 1 --runs 1 --label a >/dev/null 2>&1
check "a run to damage" sqlite3 "$STORE" "update samples set value = 9e999 where seq = 0"
for cmd in "show a" "export a" "compare a a" "report a -o r.md"; do
    run_nm $cmd --db "$STORE"
    expect_refused "$cmd: an infinite sample in the store is refused" "not a finite number"
done
[ ! -e r.md ] && ok "report wrote nothing" || not_ok "report wrote r.md"

# JSON: jansson refuses numbers that overflow; JSON has no NaN or Inf literal.
sqlite3 "$STORE" "update samples set value = 1 where seq = 0"
"$NM" export --db "$STORE" a >a.json 2>/dev/null
python3 -c 'import sys; t=open("a.json").read(); open("big.json","w").write(t.replace("\"samples\": [", "\"samples\": [1e999, ", 1))'
for cmd in "import --db imp.db big.json" "compare big.json a.json"; do
    run_nm $cmd
    expect_refused "$cmd: an overflowing JSON sample is refused" "big.json"
done

# Inputs are regular files of bounded size, read through one helper (storecmd_read_file): a
# named pipe (no one writes it: this used to block for ever), a device (/dev/zero grew memory at
# 250 MB/s until the kernel killed it) or a directory is refused at once; a file over 1 GiB is
# refused from its size, before anything is read.
mkfifo fifo
mkdir adir
truncate -s 1025M huge.txt
for cmd in benchstat compare import "report -o r.html"; do
    for f in fifo /dev/zero adir huge.txt; do
        run_cmd timeout 20 "$NM" $cmd "$f"
        case $f in fifo) what="a named pipe" ;; /dev/zero) what="a device" ;; adir) what="a directory" ;; *) what="larger than 1024 MiB" ;; esac
        expect_refused "${cmd%% *} $f is refused" "$f: $what"
    done
done
[ ! -e r.html ] && ok "report wrote nothing" || not_ok "report wrote r.html"
# Standard input still works (it is read, up to the same limit).
run_cmd sh -c '"$0" benchstat - <plain.txt' "$NM"
expect_rc 0 "benchstat reads standard input"
expect_out_has "X" "and prints its table"

# Names from a record (labels, tags, hosts: an imported file holds anything) go into Markdown as
# text: raw HTML would run in the page a Markdown viewer renders.
"$NM" hash --db md.db --size 64k --algo sha256 --threads 1 --runs 1 --label '<script>alert(1)</script>' \
    --tag 'k=<b>x|y' >/dev/null 2>&1
run_nm report --db md.db last -o r.md
expect_rc 0 "report writes Markdown of a run with a hostile label"
if grep -q '<script>\|<b>' r.md; then not_ok "report's Markdown holds no raw HTML" "$(grep -m2 '<' r.md)"; else ok "report's Markdown holds no raw HTML"; fi
check "the label is there as text" grep -q '&lt;script&gt;alert(1)&lt;/script&gt;' r.md
check "a '|' in a tag does not split its table row" grep -q 'k=&lt;b&gt;x\\|y' r.md
run_nm compare --db md.db last --format markdown
[[ $out == *'&lt;script&gt;'* && $out != *'<script>'* ]] && ok "compare's Markdown escapes it too" || not_ok "compare's Markdown escapes it too" "${out:0:300}"

# A stored name with terminal escapes (an imported record's label) is shown without them: show
# and runs write each control character as '?', so the label cannot retitle the window or
# clear the screen.
"$NM" hash --db esc.db --size 64k --algo sha256 --threads 1 --runs 1 --label $'evil\e]0;pwned\a\e[2J\xc2\x9b' \
    --tag $'k=\e[31mred' >/dev/null 2>&1
for c in "show last" "runs"; do
    # shellcheck disable=SC2086
    run_nm $c --db esc.db
    if [ "$rc" -eq 0 ] && [[ $out == *'evil?]0;pwned??[2J?'* ]] && ! LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]\|\xc2[\x80-\x9f]' <<<"$out"; then
        ok "$c shows a stored label's escape sequences as '?'"
    else
        not_ok "$c shows a stored label's escape sequences as '?'" "$(cat -v <<<"$out" | head -3)"
    fi
done
# runs pads each cell as it is shown: a tab or a colour escape in a label is a '?' of one column
# (padded as the raw bytes, the tab widened the row and the escape's '[1m' pushed the next column)
"$NM" hash --db esc2.db --size 64k --algo sha256 --threads 1 --runs 1 --label $'a\tb\e[1mc' --tag k=v >/dev/null 2>&1
run_nm runs --db esc2.db
col=$(python3 -c 'import sys; h, r = sys.argv[1].split("\n")[:2]; print(h.index("TAGS"), r.index("k=v"))' "$out" 2>&1)
check "runs: a label with a tab and an escape keeps the next column in line (TAGS at, k=v at: $col)" \
    test "${col% *}" = "${col#* }"
# show's settings are aligned key/value lines, not a JSON blob.
run_nm show last --db esc.db
expect_out_matches '^    algo +sha256$' "show prints a bench's settings as aligned key/value lines"
