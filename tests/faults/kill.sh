#!/bin/sh
# SIGKILL at every step of a deck's commit, and at points spread over its
# staging: deterministic, whatever the machine's load. strace kills the run
# (-e inject=SYSCALL:signal=KILL:when=N) on entry to the Nth call of one
# system call, for every N up to the number of calls a whole run makes, for
# each call the commit makes (linkat, fsync, renameat2, rename, unlink) and
# for write (spread over the staging). After each kill, what the next run
# does first (cb_file_recover, through tests/faults/recover.c) runs on both
# folders; then the outputs must be the old ones byte for byte or the new
# ones byte for byte, and no hidden file may be left. Every few kills the
# recovery itself is killed at its Nth rename or unlink, and run again.
# Last, one kill is followed by a real next run: it must leave only its
# own outputs.
# Usage: kill.sh CUTBOARD RECOVER (from the top of the tree).
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
recover=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
command -v strace >/dev/null || { echo "kill.sh: strace is needed"; exit 1; }
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
cd "$w" || exit 1
count=20

# one mode: $1 a name, then the deck's output options (relative paths)
total=0 bad=0
mode() {
    name=$1; shift
    rm -rf ref old run && mkdir ref old run
    (cd old && "$bin" deck --seed old --count $count "$@" 2>/dev/null) || exit 1
    (cd ref && "$bin" deck --seed k --count $count "$@" 2>/dev/null) || exit 1
    # how many calls of each kind the main thread makes in a whole run
    (cd run && cp -r ../old/. . && strace -o ../trace -e trace=linkat,fsync,renameat2,rename,unlink,write \
        "$bin" deck --seed k --count $count "$@" 2>/dev/null) || exit 1
    tried=0 nold=0 nnew=0 nbad=0
    for call in linkat fsync renameat2 rename unlink write; do
        calls=$(grep -c "^$call(" trace)
        step=1
        [ "$call" = write ] && step=$(( calls / 12 + 1 ))
        n=1
        while [ "$n" -le "$calls" ]; do
            rm -rf run && mkdir run && cp -r old/. run/
            (cd run && strace -f -o /dev/null -e trace="$call" -e inject="$call":signal=KILL:when=$n \
                "$bin" deck --seed k --count $count "$@" >/dev/null 2>&1) 2>/dev/null
            if [ $((tried % 5)) -eq 4 ]; then
                # kill the recovery too, at its first rename (a rollback) or unlink
                kc=rename; [ $((tried % 10)) -eq 9 ] && kc=unlink
                (cd run && strace -f -o /dev/null -e trace=$kc -e inject=$kc:signal=KILL:when=1 \
                    "$recover" . dd >/dev/null 2>&1) 2>/dev/null
            fi
            (cd run && "$recover" . dd) || { echo "FAIL $name: recover failed"; nbad=$((nbad + 1)); }
            left=$(cd run && find . -name '.cutboard-*')
            if diff -r run old >/dev/null; then
                state=old; nold=$((nold + 1))
            elif diff -r run ref >/dev/null; then
                state=new; nnew=$((nnew + 1))
            else
                state=mixed
            fi
            if [ "$state" = mixed ] || [ -n "$left" ]; then
                echo "FAIL $name: killed at $call #$n: outputs $state, left: $left"
                diff -r run old | head -3
                nbad=$((nbad + 1))
            fi
            tried=$((tried + 1))
            n=$((n + step))
        done
    done
    echo "$name: $tried kills ($nold left the old outputs, $nnew the new), $nbad bad"
    total=$((total + tried)) bad=$((bad + nbad))
}

mode "one PDF and a manifest" -o deck.pdf --manifest deck.jsonl
mode "--out-dir and a manifest" --out-dir dd --manifest m.jsonl
mode "--out-dir, the manifest inside" --out-dir dd --manifest dd/m.jsonl

# A real next run after a kill in mid-commit: it finishes the dead run's
# work first, then commits its own; nothing else is left.
rm -rf run && mkdir run && cp -r old/. run/
(cd run && strace -f -o /dev/null -e trace=renameat2 -e inject=renameat2:signal=KILL:when=3 \
    "$bin" deck --seed k --count $count --out-dir dd --manifest dd/m.jsonl >/dev/null 2>&1) 2>/dev/null
(cd run && "$bin" deck --seed k --count $count --out-dir dd --manifest dd/m.jsonl 2>/dev/null)
left=$(cd run && find . -name '.cutboard-*')
if ! diff -r run ref >/dev/null || [ -n "$left" ]; then
    echo "FAIL the run after a kill: not the new outputs alone; left: $left"
    bad=$((bad + 1))
fi
echo "$total kills at system calls, $bad bad"
[ "$bad" -eq 0 ]
