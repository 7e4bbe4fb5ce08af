#!/bin/sh
# Allocation-failure injection: each workload runs once to count its heap
# allocations, then again failing the K-th allocation for K = 1 .. 32, then
# 32 + STEP, ... (every one with STEP=1). Every run must end cleanly: exit 0, or exit
# 70 with one line on stderr naming memory; never a crash, another exit
# code, or an output file left behind by a failed run.
# Usage: alloc.sh CUTBOARD LIBFAILALLOC [STEP] (from the top of the tree).
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") shim=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
step=${3:-37}
top=$(pwd)
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
cd "$w" || exit 1
"$bin" --seed fm --players 2 -o board.pdf --json board.json 2>/dev/null || exit 1
for k in 0 1; do
    "$bin" deck --count 4 --seed fs --shard $k/2 --manifest m$k.jsonl -o s$k.pdf 2>/dev/null || exit 1
done
bad=0 total=0 workloads=0 failed=0

# workload NAME OUTPUTS -- ARGS...: OUTPUTS are the files a run writes.
workload() {
    name=$1 outs=$2 bad_before=$bad
    shift 3
    workloads=$((workloads + 1))
    CB_COUNT_ALLOC="$w/count" LD_PRELOAD="$shim" "$bin" "$@" >/dev/null 2>&1 ||
        { echo "FAIL $name: does not run without injection"; bad=$((bad + 1))
          failed=$((failed + 1)); return; }
    n=$(cat "$w/count") k=1 tried=0 oom=0 done=0
    rm -rf $outs
    while [ "$k" -le "$n" ]; do
        CB_FAIL_ALLOC=$k LD_PRELOAD="$shim" "$bin" "$@" >/dev/null 2>"$w/err"
        rc=$?
        tried=$((tried + 1))
        if [ $rc -eq 0 ]; then
            done=$((done + 1))
        elif [ $rc -eq 70 ] && [ "$(wc -l <"$w/err")" -eq 1 ] && grep -q 'memory' "$w/err"; then
            oom=$((oom + 1))
            for f in $outs $(find . -name '.cutboard-*'); do
                [ -e "$f" ] && { echo "FAIL $name: K=$k left $f behind"; bad=$((bad + 1)); }
            done
        else
            echo "FAIL $name: K=$k of $n: exit $rc: $(head -c 200 "$w/err")"
            bad=$((bad + 1))
        fi
        rm -rf $outs
        # The first 32 one by one: start-up (options, theme, font) has a
        # branch of its own for nearly every allocation.
        if [ "$k" -lt 32 ]; then k=$((k + 1)); else k=$((k + step)); fi
    done
    total=$((total + tried))
    [ "$bad" -gt "$bad_before" ] && { failed=$((failed + 1)); return; }
    echo "ok   $name: $n allocations, $tried failed in turn: $oom exit 70, $done finished anyway"
}

workload "game --json" "out.pdf out.json" -- --seed fm --players 2 -o out.pdf --json out.json
workload "render" "out.pdf" -- render board.json -o out.pdf
workload "check" "" -- check board.json
workload "render of 2 files" "out.pdf" -- render board.json board.json -o out.pdf
workload "check of 2 files" "" -- check board.json board.json
workload "deck of 3, 2 jobs" "out.pdf m.jsonl" -- deck --count 3 --jobs 2 --seed fd -o out.pdf --manifest m.jsonl
# (its labels are written as the sheets' are: libharu 2.3.0's own
# HPDF_Page_TextOut used a buffer it failed to allocate)
# --out-dir: every game's file is kept staged until the manifest is done,
# so a run that fails leaves no game and not the folder it made
workload "deck --out-dir of 3, 2 jobs" "od m.jsonl" -- deck --count 3 --jobs 2 --seed fd --out-dir od --manifest m.jsonl
workload "deck merge of 2 shards" "merged.jsonl" -- deck merge m1.jsonl m0.jsonl -o merged.jsonl
workload "network with analysis" "out.pdf out.json" -- network --model small-world --nodes 40 --analyze --seed fn -o out.pdf --json out.json
workload "playtest, 2 jobs" "r.json" -- playtest --seed fp -p 2 -n 4 --skill 1 --rollouts 1 -j 2 --json r.json
cd "$top"
echo "$((workloads - failed)) passed, $failed failed ($total runs, $bad bad)"
[ $bad -eq 0 ]
