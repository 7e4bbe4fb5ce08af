#!/bin/sh
# I/O fault injection: a game writing a PDF and a board file over existing
# ones, a deck writing its PDF and manifest, and a deck merge writing its
# manifest, each run once to count its
# output-file system calls (open for writing, write, fsync, close, linkat,
# rename), then again failing each in turn. Every run must end with exit 0
# (a fault the writer worked around), or 73/74 with one line naming an
# output; each output must be either as it was or a complete new file, and
# no temporary file may be left.
# Usage: io.sh CUTBOARD LIBFAILIO (from the top of the tree).
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") shim=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
w=$(mktemp -d) shards=$(mktemp -d)
trap 'rm -rf "$w" "$shards"' EXIT
for k in 0 1; do  # the merge's inputs, outside the folder each run empties
    "$bin" deck --count 4 --seed io --shard $k/2 --manifest "$shards/m$k.jsonl" \
        -o "$shards/s$k.pdf" 2>/dev/null || exit 1
done
cd "$w" || exit 1
bad=0 total=0

# whole FILE: an old file as written below, or a complete new one
whole() {
    case $(head -c 4 "$1") in
    old*) return 0 ;;
    %PDF) tail -c 7 "$1" | grep -q '%%EOF' ;;
    *) python3 -c 'import json, sys
for line in open(sys.argv[1]).read().splitlines() or [open(sys.argv[1]).read()]:
    json.loads(line)' "$1" 2>/dev/null ||
       python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$1" 2>/dev/null ;;
    esac
}

# workload NAME "OUT1 OUT2" -- ARGS...
workload() {
    name=$1 outs=$2
    shift 3
    rm -f ./*
    CB_COUNT_IO="$w/.count" LD_PRELOAD="$shim" "$bin" "$@" >/dev/null 2>&1 ||
        { echo "FAIL $name: does not run without injection"; bad=$((bad + 1)); return; }
    n=$(cat "$w/.count") k=1 clean=0 absorbed=0
    while [ "$k" -le "$n" ]; do
        rm -f ./*
        for f in $outs; do echo old > "$f"; done
        CB_FAIL_IO=$k LD_PRELOAD="$shim" "$bin" "$@" >/dev/null 2>"$w/.err"
        rc=$?
        problem=
        if [ $rc -eq 0 ]; then
            absorbed=$((absorbed + 1))
            for f in $outs; do [ "$(head -c 3 "$f")" = old ] && problem="$f not written"; done
        elif [ $rc -eq 73 ] || [ $rc -eq 74 ]; then
            clean=$((clean + 1))
            [ "$(wc -l <"$w/.err")" -eq 1 ] || problem="not one line"
            named=0
            for f in $outs; do grep -q "$f" "$w/.err" && named=1; done
            [ $named -eq 1 ] || problem="no output named"
        else
            problem="exit $rc"
        fi
        for f in $outs; do whole "$f" || problem="$f is partial"; done
        extra=$(ls | grep -v -x -F "$(printf '%s\n' $outs)")
        [ -z "$extra" ] || problem="left $extra"
        if [ -n "$problem" ]; then
            echo "FAIL $name: call $k of $n: $problem ($(head -c 120 "$w/.err"))"
            bad=$((bad + 1))
        fi
        k=$((k + 1))
    done
    total=$((total + n))
    echo "ok   $name: $n calls failed in turn: $clean exit 73/74, $absorbed worked around"
}

workload "game -o --json" "o.pdf o.json" -- --seed io --players 2 -o o.pdf --json o.json
workload "deck -o --manifest" "d.pdf m.jsonl" -- deck --count 3 --seed io -o d.pdf --manifest m.jsonl
workload "deck merge" "d.jsonl" -- deck merge "$shards/m1.jsonl" "$shards/m0.jsonl" -o d.jsonl
echo "$((3 - (bad > 0))) passed, $((bad > 0)) failed ($total runs, $bad bad)"
[ $bad -eq 0 ]
