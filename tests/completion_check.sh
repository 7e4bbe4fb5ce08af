#!/bin/bash
# The bash completion (completion/cutboard.bash) offers what each place on
# the command line takes: option values for --rules, --format, --paper,
# --theme; board files (*.json, *.obj) for check, render and cut; the
# command's own options after "-". Usage: completion_check.sh CUTBOARD
cb=$(cd "$(dirname "${1:-./cutboard}")" && pwd)/$(basename "${1:-./cutboard}")
top=$(pwd)
source "$top/completion/cutboard.bash"
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
mkdir "$w/bin" "$w/here" && ln -s "$cb" "$w/bin/cutboard"
export PATH="$w/bin:$PATH" CUTBOARD_DATA=${CUTBOARD_DATA:-$top}
cd "$w/here" && touch a.json b.obj notes.txt game.pdf && mkdir boards
pass=0 fail=0
# expect "LINE" "WANTED WORDS": completes the last word of LINE (a trailing
# space: an empty word); the offers, sorted, must be WANTED.
expect() {
    read -r -a COMP_WORDS <<<"$1"
    [[ $1 == *" " ]] && COMP_WORDS+=("")
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    COMPREPLY=()
    _cutboard
    got=$(printf '%s\n' "${COMPREPLY[@]}" | sort -u | tr '\n' ' ' | sed 's/ $//')
    if [[ $got == "$2" ]]; then pass=$((pass + 1)); echo "ok   '$1' -> $got"
    else fail=$((fail + 1)); echo "FAIL '$1' -> '$got', wanted '$2'"; fi
}
expect "cutboard --rules " "first last none"
expect "cutboard deck --rules " "each none once"
expect "cutboard render x.json --format " "pdf svg"
expect "cutboard --paper a" "a0 a1 a2 a3 a4 a5"
expect "cutboard --theme " "boards default"
expect "cutboard check " "a.json b.obj boards"
expect "cutboard render " "a.json b.obj boards"
expect "cutboard cut " "a.json b.obj boards"
expect "cutboard cut a.json --sheet " ""
expect "cutboard -o " "a.json b.obj boards game.pdf notes.txt"
expect "cutboard ch" "check"
expect "cutboard playtest " "a.json b.obj boards"
expect "cutboard playtest --agents " "greedy random thinking"
opts=$(COMP_WORDS=(cutboard check --); COMP_CWORD=2; _cutboard; printf '%s\n' "${COMPREPLY[@]}")
grep -qx -- "--theme" <<<"$opts" && ! grep -qx -- "--format" <<<"$opts" && pass=$((pass + 1)) &&
    echo "ok   'cutboard check --' offers check's options" ||
    { fail=$((fail + 1)); echo "FAIL 'cutboard check --': $opts"; }
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
