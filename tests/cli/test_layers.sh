# The layers of docs/design.md, checked on the source: a directory includes only the layers
# below it, and only cmd/, cli/ and mpi/ (the drivers) open the results store.  The order is
# read from docs/design.md's src/ tree (top layer first), so the page and this test agree.
. "$TESTS_DIR/cli/lib.sh"

src=$(cd "$TESTS_DIR/../src" && pwd)
design="$TESTS_DIR/../docs/design.md"

# Each layer and what it may include besides itself (a subset of the layers below it). The
# record type (results/record.h) flows everywhere; the store does not.
allowed() {
    case $1 in
    util) echo "" ;;
    stats) echo "util" ;;
    inventory | hash) echo "util" ;;
    results) echo "stats util" ;;
    mem) echo "inventory util" ;;
    proc) echo "results inventory stats util" ;;
    io) echo "hash inventory stats util" ;;
    pieces) echo "hash stats util" ;;
    disk) echo "io results stats inventory util" ;;
    compare) echo "results stats inventory util" ;;
    export) echo "compare results stats inventory util" ;;
    fio) echo "io results stats inventory export compare util" ;;
    suite) echo "disk hash pieces mem io proc results stats inventory export compare util" ;;
    cli) echo "proc results export compare stats inventory util" ;;
    cmd | mpi) echo "cli fio disk suite hash pieces mem io proc results stats inventory export compare util" ;;
    *) echo "?" ;;
    esac
}

# The directories of design.md's tree, in its order.
order=$(awk '/^src\/$/ { in_tree = 1; next } in_tree && /^```/ { exit }
             in_tree && /^  [a-z]+\/ / { sub(/^  /, ""); sub(/\/.*/, ""); print }' "$design" | tr '\n' ' ' | sed 's/ $//')
if [ -z "$order" ]; then
    not_ok "layers: docs/design.md's src/ tree lists the layers" "none found in $design"
    exit 0
fi

# Position of a layer in that order (0: not listed).
pos() {
    local i=0 l
    for l in $order; do
        i=$((i + 1))
        [ "$l" = "$1" ] && { echo $i; return; }
    done
    echo 0
}

# The table above agrees with the page: every layer is listed, and includes only what is below it.
up=""
for dir in "$src"/*/; do
    layer=$(basename "$dir")
    me=$(pos "$layer")
    if [ "$me" = 0 ]; then
        up="$up src/$layer/ is not in docs/design.md's tree;"
        continue
    fi
    for to in $(allowed "$layer"); do
        [ "$(pos "$to")" -gt "$me" ] || up="$up $layer may include $to, listed above it;"
    done
done
if [ -z "$up" ]; then ok "layers: the allowed includes follow docs/design.md's order ($order)"; else not_ok "layers: the table and docs/design.md agree" "$up"; fi

for dir in "$src"/*/; do
    layer=$(basename "$dir")
    ok_set=$(allowed "$layer")
    if [ "$ok_set" = "?" ]; then
        not_ok "layers: src/$layer/ is in docs/design.md's table" "add it to allowed() in $0"
        continue
    fi
    bad=""
    while IFS=: read -r file _ inc; do
        to=${inc%%/*}
        [ "$to" = "$layer" ] && continue
        [ "$inc" = results/record.h ] && continue
        case " $ok_set " in *" $to "*) ;; *) bad="$bad ${file#$src/} -> $inc;" ;; esac
        if [ "$inc" = results/store.h ]; then
            case $layer in cmd | cli | mpi) ;; *) bad="$bad ${file#$src/} opens the store;" ;; esac
        fi
    done < <(grep -o '^#include "[a-z_]*/[a-z_0-9]*\.h"' "$dir"*.[ch] /dev/null | sed 's/#include "//; s/"$//' | awk -F: '{print $1 ":x:" $2}')
    if [ -z "$bad" ]; then ok "layers: src/$layer/ includes only ${ok_set:-nothing else}"; else not_ok "layers: src/$layer/ reaches up" "$bad"; fi
done

# struct io_job's core stays small (issue 33): what every engine and the loop need, at most 30
# members; a feature's settings go in its own struct, declared beside its code. A member is a
# declaration ending in ';' at the struct's top level (comment lines and their continuations
# are not members).
members=$(awk '/^struct io_job \{/ {in_s = 1; next} in_s && /^\};/ {exit}
    in_s && /^\t[a-z_]/ && /;/ {n++} END {print n + 0}' "$src/io/job.h")
if [ "$members" -ge 10 ] && [ "$members" -le 30 ]; then ok "struct io_job's core has $members members (at most 30)"
else not_ok "struct io_job's core has at most 30 members" "$members members in src/io/job.h"; fi
