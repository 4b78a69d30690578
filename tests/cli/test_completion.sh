# nodemark completion bash|zsh|fish: the scripts are written from the option tables, so each
# shell, asked as a user's shell asks it, offers every option that `nodemark CMD --help` lists.
. "$TESTS_DIR/cli/lib.sh"
d=$(mktemp -d "$PWD/compl.XXXXXX")

# The commands with an option table (fio's options are fio's own: its words complete as files).
cmds=$("$NM" --help | sed -n 's/^  \([a-z]*\) .*/\1/p' | grep -vx fio)
[ "$(wc -w <<<"$cmds")" -ge 15 ] && ok "the command list is read from nodemark --help" ||
    not_ok "the command list is read from nodemark --help" "$cmds"

# The options a command's help lists: "  -o, --output FILE  ..." gives -o and --output.
help_options() {
    "$NM" "$1" --help | grep -E '^  -' | sed 's/^  //; s/  .*//' | sed -E 's/^(-[^ ,]+)(, (-[^ ,=[]+))?.*/\1 \3/; s/\[.*//'
}

# missing WANTED OFFERED: the words of WANTED that are not among OFFERED's
missing() {
    local w m=""
    for w in $1; do grep -qxF -- "$w" <<<"$2" || m="$m $w"; done
    echo "$m"
}

for sh in bash zsh fish; do
    run_nm completion "$sh"
    if [ "$rc" -eq 0 ] && [ -n "$out" ]; then ok "completion $sh prints a script"; else not_ok "completion $sh prints a script" "$err"; fi
    printf '%s\n' "$out" >"$d/nodemark.$sh"
done
run_nm completion tcsh
expect_refused "an unknown shell is refused" "unknown shell 'tcsh'"
run_nm completion
expect_refused "completion without a shell is refused" "expected one shell"

# bash: the completion function, called as bash calls it on TAB.
bash_offers() { # CMD WORD...: what TAB offers after "nodemark CMD WORD..."
    bash -c '. "$1"; shift; COMP_WORDS=(nodemark "$@"); COMP_CWORD=$(($# )); _nodemark; printf "%s\n" "${COMPREPLY[@]}"' \
        _ "$d/nodemark.bash" "$@"
}
bad=""
for c in $cmds; do
    want=$(help_options "$c")
    m=$(missing "$want" "$(bash_offers "$c" -)")
    [ -n "$m" ] && bad="$bad $c:$m"
done
if [ -z "$bad" ]; then ok "bash offers every option of every command's help"; else not_ok "bash offers every option of every command's help" "missing:$bad"; fi
m=$(missing "$cmds" "$(bash_offers '')")
[ -z "$m" ] && ok "bash offers every command" || not_ok "bash offers every command" "missing:$m"

# An enum's values: each one offered is one the parser takes.
vals=$(bash_offers time --sort '')
bad=""
for v in $vals; do "$NM" time --sort "$v" --runs 2 --no-save -N true >/dev/null 2>&1 || bad="$bad $v"; done
if [ -n "$vals" ] && [ -z "$bad" ]; then ok "bash offers time --sort's values, and time takes each ($(echo $vals))"; else
    not_ok "bash offers time --sort's values, and time takes each" "offered: $vals; refused:$bad"; fi

# fish: complete -C asks fish's own completion engine.
if command -v fish >/dev/null; then
    bad=""
    for c in $cmds; do
        offered=$(fish -N -c "source $d/nodemark.fish; complete -C 'nodemark $c -'" | cut -f1)
        m=$(missing "$(help_options "$c")" "$offered")
        [ -n "$m" ] && bad="$bad $c:$m"
    done
    if [ -z "$bad" ]; then ok "fish offers every option of every command's help"; else not_ok "fish offers every option of every command's help" "missing:$bad"; fi
    offered=$(fish -N -c "source $d/nodemark.fish; complete -C 'nodemark pieces --backend '" | cut -f1)
    m=$(missing "$(bash_offers pieces --backend '')" "$offered")
    [ -z "$m" ] && [ -n "$offered" ] && ok "fish offers an enum's values" || not_ok "fish offers an enum's values" "$offered"
else
    skip "fish completion" "fish is not installed"
fi

# zsh: the script's functions run with _arguments and _describe standing in for compsys, which
# print the specs they are given; the options are the specs' names.
if command -v zsh >/dev/null; then
    zsh_offers() { # CMD: the option names of CMD's _arguments specs
        zsh -f -c '_arguments() { print -l -- "$@" }; _describe() { print -l -- "${(P)${@[-1]}}" }
            _values() {}; _files() {}; compdef() {}
            words=(nodemark "$2" ""); CURRENT=3; . "$1"' _ "$d/nodemark.zsh" "$1" |
            sed -nE "s/^'?\*?(-[^=[]+).*/\1/p"
    }
    bad=""
    for c in $cmds; do
        m=$(missing "$(help_options "$c")" "$(zsh_offers "$c")")
        [ -n "$m" ] && bad="$bad $c:$m"
    done
    if [ -z "$bad" ]; then ok "zsh offers every option of every command's help"; else not_ok "zsh offers every option of every command's help" "missing:$bad"; fi
    if zsh -n "$d/nodemark.zsh"; then ok "the zsh script parses"; else not_ok "the zsh script parses"; fi
else
    skip "zsh completion" "zsh is not installed"
fi

rm -rf "$d"

# docs/options.md's table of each command's output and format options is what --help says.
docs="$TESTS_DIR/../docs/options.md"
bad=""
for c in $cmds; do
    want=$(help_options "$c" | tr ' ' '\n' | grep -xE -- '-o|--?output|--json|--?format|--export-[a-z]+|--style' | sort -u | xargs)
    row=$(grep -E "^\| $c \|" "$docs" | cut -d'|' -f3 | grep -oE -- '(^| |`)-{1,2}[a-z][-a-z]*' | tr -d ' `' | sort -u | xargs)
    [ "$want" = "$row" ] || bad="$bad $c: help [$want] docs [$row];"
done
if [ -z "$bad" ]; then ok "docs/options.md lists each command's output and format options as --help does"; else
    not_ok "docs/options.md lists each command's output and format options as --help does" "$bad"; fi
