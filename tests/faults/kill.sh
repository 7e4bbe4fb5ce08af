#!/bin/sh
# SIGKILL mid-deck, 20 times: a deck of 200 games writing over an existing
# good deck and manifest is killed at points spread over its run (no
# handler sees SIGKILL). Each time the outputs must be the old files, byte
# for byte, or complete new ones, and no other file may be left in the
# folder (no staged or temporary file piles up). Then the same for a deck
# with --out-dir.
# Usage: kill.sh CUTBOARD (from the top of the tree).
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
cd "$w" || exit 1
"$bin" deck --seed old --count 3 -o deck.pdf --manifest deck.jsonl 2>/dev/null || exit 1
mkdir keep && cp deck.pdf deck.jsonl keep/
# how long a whole run takes, to spread the kills over it
start=$(date +%s%N)
"$bin" deck --seed k --count 200 -o full.pdf --manifest full.jsonl 2>/dev/null || exit 1
run_ms=$(( ($(date +%s%N) - start) / 1000000 ))
rm -f full.pdf full.jsonl
bad=0 old=0 new=0
for i in $(seq 1 20); do
    # kill point i of 20, spread over 5 % .. 130 % of a run (the last ones
    # may come after it ended: the new files must then be whole)
    delay=$(awk -v r="$run_ms" -v i="$i" 'BEGIN { printf "%.3f", r * (0.05 + 1.25 * (i - 1) / 19) / 1000 }')
    "$bin" deck --seed "k" --count 200 -o deck.pdf --manifest deck.jsonl 2>/dev/null &
    pid=$!
    sleep "$delay"
    kill -9 "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    others=$(ls -A | grep -v -x -e deck.pdf -e deck.jsonl -e keep)
    if cmp -s deck.pdf keep/deck.pdf && cmp -s deck.jsonl keep/deck.jsonl; then
        old=$((old + 1)); state=old
    elif tail -c 7 deck.pdf | grep -q '%%EOF' && [ "$(wc -l < deck.jsonl)" -ge 200 ]; then
        new=$((new + 1)); state=new
        cp keep/deck.pdf keep/deck.jsonl .  # the next kill starts from the old files again
    else
        state=torn
    fi
    if [ "$state" = torn ] || [ -n "$others" ]; then
        echo "FAIL kill $i after ${delay}s: outputs $state, left: $others"
        bad=$((bad + 1))
    else
        echo "ok   kill $i after ${delay}s: outputs $state"
    fi
done
echo "$((20 - bad)) passed, $bad failed (a whole run: ${run_ms} ms; $old kills left the old files, $new a complete new deck)"

# The same for --out-dir: 40 games' files and the manifest, all committed
# together at the end; a kill must leave all of them old or all new, and
# nothing else (no hidden stage or backup).
rm -rf ./* ./.[!.]*
"$bin" deck --seed k --count 40 --out-dir new --manifest new.jsonl 2>/dev/null || exit 1
"$bin" deck --seed old --count 40 --out-dir dd --manifest m.jsonl 2>/dev/null || exit 1
mkdir keep && cp -r dd m.jsonl keep/
start=$(date +%s%N)
"$bin" deck --seed k --count 40 --out-dir full --manifest full.jsonl 2>/dev/null || exit 1
run_ms=$(( ($(date +%s%N) - start) / 1000000 ))
rm -rf full full.jsonl
bad2=0 old=0 new=0
for i in $(seq 1 20); do
    delay=$(awk -v r="$run_ms" -v i="$i" 'BEGIN { printf "%.3f", r * (0.05 + 1.25 * (i - 1) / 19) / 1000 }')
    "$bin" deck --seed k --count 40 --out-dir dd --manifest m.jsonl 2>/dev/null &
    pid=$!
    sleep "$delay"
    kill -9 "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    others=$(find . -mindepth 1 -name '.*')
    if diff -r dd keep/dd >/dev/null && cmp -s m.jsonl keep/m.jsonl; then
        old=$((old + 1)); state=old
    elif diff -r dd new >/dev/null && [ "$(wc -l < m.jsonl)" -eq 41 ]; then
        new=$((new + 1)); state=new
        rm -rf dd m.jsonl && cp -r keep/dd keep/m.jsonl .
    else
        state=torn
    fi
    if [ "$state" = torn ] || [ -n "$others" ]; then
        echo "FAIL --out-dir kill $i after ${delay}s: outputs $state, left: $others"
        bad2=$((bad2 + 1))
    fi
done
echo "$((20 - bad2)) passed, $bad2 failed (--out-dir, 40 games and a manifest; a whole run: ${run_ms} ms; $old kills left the old files, $new the new ones)"
[ "$bad" -eq 0 ] && [ "$bad2" -eq 0 ]
