# The layers of docs/design.md, checked on the source: a directory includes only the layers
# below it, and only cmd/, cli/ and mpi/ (the drivers) open the results store.
. "$TESTS_DIR/cli/lib.sh"

src=$(cd "$TESTS_DIR/../src" && pwd)

# Each layer and what it may include besides itself. The record type (results/record.h) flows
# everywhere; the store does not.
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
    export) echo "compare results stats inventory io disk proc util" ;;
    fio) echo "io results stats inventory export compare util" ;;
    suite) echo "disk hash pieces mem io proc results stats inventory export compare util" ;;
    cli) echo "results export compare stats inventory util" ;;
    cmd | mpi) echo "cli fio disk suite hash pieces mem io proc results stats inventory export compare util" ;;
    *) echo "?" ;;
    esac
}

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
        case " $ok_set " in *" $to "*) ;; *) bad="$bad ${file#$src/} -> $inc;" ;; esac
        if [ "$inc" = results/store.h ]; then
            case $layer in cmd | cli | mpi) ;; *) bad="$bad ${file#$src/} opens the store;" ;; esac
        fi
    done < <(grep -o '^#include "[a-z_]*/[a-z_0-9]*\.h"' "$dir"*.[ch] /dev/null | sed 's/#include "//; s/"$//' | awk -F: '{print $1 ":x:" $2}')
    if [ -z "$bad" ]; then ok "layers: src/$layer/ includes only ${ok_set:-nothing else}"; else not_ok "layers: src/$layer/ reaches up" "$bad"; fi
done
