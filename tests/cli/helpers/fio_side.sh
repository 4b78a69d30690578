# Running real fio and `nodemark fio` side by side on the same job (sourced after lib.sh).
#
#   json_like_fio WHAT MODE DIR ARGS...   both tools' JSON compared by fio_compare.py MODE
#   strace_fio TOOL LOG STRACE_OPTS... -- ARGS...   TOOL (nm or fio) on ARGS under strace

# json_like_fio WHAT MODE DIR ARGS...: real fio, then nodemark fio, on ARGS, each after DIR (where
# ARGS put their files) is made afresh; their JSON (fio.json, nm.json) compared by
# tests/cli/fio_compare.py MODE (--sizes, --bytes or --loose). PASS WHAT when they agree; FAIL when
# either tool fails, when they differ, or when nodemark leaves a .nodemark-* directory in DIR.
json_like_fio() {
    local what=$1 mode=$2 dir=$3 frc why
    shift 3
    rm -rf "$dir" && mkdir -p "$dir"
    fio --output-format=json "$@" >fio.out 2>fio.err
    frc=$?
    sed -n '/^{/,$p' fio.out >fio.json # the JSON, after any note fio prints first
    if [ $frc -ne 0 ]; then
        not_ok "$what: fio ran" "exit $frc: $(head -c 300 fio.err)"
        return
    fi
    rm -rf "$dir" && mkdir -p "$dir"
    run_nm fio --no-save --output-format=json "$@"
    if [ "$rc" -ne 0 ]; then
        not_ok "$what: nodemark fio ran" "exit $rc: ${err:0:300}"
        return
    fi
    printf '%s\n' "$out" >nm.json
    if why=$(python3 "$TESTS_DIR/cli/fio_compare.py" fio.json nm.json "$mode" 2>&1); then
        ok "$what"
    else
        not_ok "$what" "$why"
    fi
    if [ -n "$(find "$dir" -mindepth 1 -maxdepth 1 -name '.nodemark-*')" ]; then
        not_ok "$what: nodemark removed its files"
    fi
}

# strace_fio TOOL LOG STRACE_OPTS... -- ARGS...: TOOL's fio (nm: nodemark fio, saving nothing;
# fio: real fio) on ARGS under strace -f -qq STRACE_OPTS, the calls in LOG; the exit status in rc.
# LeakSanitizer cannot run under ptrace: nodemark's leaks are not checked here (the rest of the
# suite checks them).
strace_fio() {
    local tool=$1 log=$2 opts=() cmd=(fio)
    shift 2
    while [ $# -gt 0 ] && [ "$1" != -- ]; do
        opts+=("$1")
        shift
    done
    shift
    [ "$tool" = nm ] && cmd=("$NM" fio --no-save)
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -qq "${opts[@]}" -o "$log" "${cmd[@]}" "$@"
    rc=$?
}
