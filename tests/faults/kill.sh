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
# The runs: a deck to one PDF with its manifest, a deck --out-dir with the
# manifest beside it or inside it, a game with a board file and OBJ
# sheets, and (where /dev/shm is another file system) --out-dir there with
# the manifest here. Last, one kill is followed by a real next run: it
# must leave only its own outputs.
# Usage: kill.sh CUTBOARD RECOVER (from the top of the tree).
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
recover=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
command -v strace >/dev/null || { echo "kill.sh: strace is needed"; exit 1; }
w=$(mktemp -d) shm=
trap 'rm -rf "$w" $shm' EXIT
cd "$w" || exit 1
count=20

# one mode: $1 a name, then the run's output options (relative paths).
# $cmd is the command before them (a deck, or a game), $folders the
# folders the outputs are in, $far a folder on another file system or "":
# then each of old/, ref/ and run/ has far -> its own folder there.
total=0 bad=0
fresh() { # $1: old, ref or run (emptied and made again)
    rm -rf "$1" && mkdir "$1"
    if [ -n "$far" ]; then rm -rf "${far:?}/$1" && mkdir "$far/$1" && ln -s "$far/$1" "$1/far"; fi
}
copy_old() { # run/ as old/ is
    fresh run
    (cd old && find . -mindepth 1 -maxdepth 1 ! -name far -exec cp -r {} ../run/ \;)
    [ -z "$far" ] || cp -r "$far/old/." "$far/run/"
}
mode() {
    name=$1; shift
    fresh old && fresh ref
    (cd old && "$bin" $cmd --seed old "$@" 2>/dev/null) || exit 1
    (cd ref && "$bin" $cmd --seed k "$@" 2>/dev/null) || exit 1
    # how many calls of each kind the main thread makes in a whole run
    copy_old
    (cd run && strace -o ../trace -e trace=linkat,fsync,renameat2,rename,unlink,write \
        "$bin" $cmd --seed k "$@" 2>/dev/null) || exit 1
    tried=0 nold=0 nnew=0 nbad=0
    for call in linkat fsync renameat2 rename unlink write; do
        calls=$(grep -c "^$call(" trace)
        step=1
        [ "$call" = write ] && step=$(( calls / 12 + 1 ))
        n=1
        while [ "$n" -le "$calls" ]; do
            copy_old
            (cd run && strace -f -o /dev/null -e trace="$call" -e inject="$call":signal=KILL:when=$n \
                "$bin" $cmd --seed k "$@" >/dev/null 2>&1) 2>/dev/null
            if [ $((tried % 5)) -eq 4 ]; then
                # kill the recovery too, at its first rename (a rollback) or unlink
                kc=rename; [ $((tried % 10)) -eq 9 ] && kc=unlink
                (cd run && strace -f -o /dev/null -e trace=$kc -e inject=$kc:signal=KILL:when=1 \
                    "$recover" $folders >/dev/null 2>&1) 2>/dev/null
            fi
            (cd run && "$recover" $folders) || { echo "FAIL $name: recover failed"; nbad=$((nbad + 1)); }
            left=$(cd run && find -L . -name '.cutboard-*')
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

far= folders=". dd" cmd="deck --count $count"
mode "one PDF and a manifest" -o deck.pdf --manifest deck.jsonl
mode "--out-dir and a manifest" --out-dir dd --manifest m.jsonl
mode "--out-dir, the manifest inside" --out-dir dd --manifest dd/m.jsonl
folders=. cmd="--players 3"
mode "a game: PDF, board file, 3 OBJ sheets" -o g.pdf --json g.json --obj g.obj
# --out-dir on another file system than the manifest (/dev/shm, a tmpfs)
shm=$(mktemp -d /dev/shm/cutboard-kill-XXXXXX 2>/dev/null)
if [ -n "$shm" ] && [ "$(stat -c %d "$shm")" != "$(stat -c %d .)" ]; then
    far=$shm folders=". far/dd" cmd="deck --count $count"
    mode "--out-dir on another file system" --out-dir far/dd --manifest m.jsonl
    far=
fi

# A real next run after a kill in mid-commit: it finishes the dead run's
# work first, then commits its own; nothing else is left.
fresh old && fresh ref && (cd old && "$bin" deck --count $count --seed old --out-dir dd --manifest dd/m.jsonl 2>/dev/null) &&
    (cd ref && "$bin" deck --count $count --seed k --out-dir dd --manifest dd/m.jsonl 2>/dev/null) || exit 1
copy_old
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
