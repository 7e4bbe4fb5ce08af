#!/bin/sh
# make install into a temporary DESTDIR, the installed binary run from
# another folder with an empty environment (and again after the tree is
# moved), a program built against the installed library with pkg-config,
# then make uninstall, which must leave no file behind.
# Usage: install.sh MAKE BUILD BIN [CC [SAN [OPT]]] (from the top of the
# tree; SAN and OPT as the library was built, since make install PREFIX=/usr
# links the binary again with that prefix baked in).
make=${1:-make} build=${2:-build} bin=${3:-cutboard} cc=${4:-cc} san=${5:-} opt=${6:--O2 -g}
top=$(pwd)
d=$(mktemp -d) w=$(mktemp -d)
trap 'rm -rf "$d" "$w"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
no() { fail=$((fail + 1)); echo "FAIL $1"; }

# A folder that was there before (with nothing in it) must stay.
mkdir -p "$d/usr/share/man"
$make --no-print-directory -s install DESTDIR="$d" PREFIX=/usr BUILD="$build" BIN="$bin" \
    CC="$cc" SAN="$san" OPT="$opt" \
    >"$w/log" 2>&1 && ok "make install DESTDIR=... PREFIX=/usr" || { no "make install"; cat "$w/log"; }
for f in usr/bin/cutboard usr/libexec/cutboard/cutboard-serve usr/lib/libcutboard.a usr/include/cutboard.h usr/lib/pkgconfig/cutboard.pc \
         usr/share/cutboard/icons/default/theme.json usr/share/cutboard/fonts/DejaVuSans.ttf \
         usr/share/man/man1/cutboard.1 usr/share/man/man5/cutboard-theme.5 \
         usr/share/man/man5/cutboard-board.5 usr/share/bash-completion/completions/cutboard; do
    [ -f "$d/$f" ] && ok "installed $f" || no "installed $f"
done
grep -q '/usr/share/cutboard/icons/default/theme' "$d/usr/share/man/man1/cutboard.1" &&
    grep -q '^\.TH "cutboard" "1"' "$d/usr/share/man/man1/cutboard.1" &&
    ok "cutboard(1) is roff and names the installed data folder" || no "cutboard(1) content"
cd "$w"
env -i "$d/usr/bin/cutboard" --seed installed -o a.pdf --json a.json 2>err &&
    head -c 5 a.pdf | grep -q '%PDF-' && ok "installed binary, empty environment, another folder" ||
    { no "installed binary runs"; cat err; }
env -i "$d/usr/bin/cutboard" render a.json -o b.pdf 2>err && ok "installed render" ||
    { no "installed render"; cat err; }
# cutboard serve runs the server program from libexec; it finds the data
# from there too (it serves once it has the themes and the font).
serves() {
    t0=$(date +%s)
    # emptied first: the server's redirect truncates it only once it runs,
    # and the loop below must not read the last server's 'serving' line
    : >serve.err
    env -i "$1" serve --listen 127.0.0.1:0 2>serve.err &
    pid=$!
    for _ in $(seq 300); do
        grep -q 'serving http' serve.err && break
        kill -0 $pid 2>/dev/null || break
        sleep 0.1
    done
    grep -q 'serving http' serve.err || echo "  no 'serving' line after $(($(date +%s) - t0)) s"
    kill -TERM $pid 2>/dev/null; wait $pid
    rc=$?
    [ $rc -eq 0 ] || echo "  exit $rc"
    [ $rc -eq 0 ] && grep -q 'serving http' serve.err
}
! ldd "$d/usr/bin/cutboard" | grep -q microhttpd && ldd "$d/usr/libexec/cutboard/cutboard-serve" | grep -q microhttpd &&
    ok "only the server program links libmicrohttpd" || no "libmicrohttpd links"
serves "$d/usr/bin/cutboard" && ok "installed cutboard serve runs the server program" ||
    { no "installed serve"; cat serve.err; }
mkdir "$d/opt" && mv "$d/usr" "$d/opt/moved"
env -i "$d/opt/moved/bin/cutboard" --seed installed -o c.pdf 2>err && cmp -s a.pdf c.pdf &&
    ok "a moved tree finds its data (same PDF)" || { no "moved tree"; cat err; }
serves "$d/opt/moved/bin/cutboard" && ok "a moved tree serves (server program and data found)" ||
    { no "moved tree serves"; cat serve.err; }
mv "$d/opt/moved" "$d/usr" && rmdir "$d/opt"
env -i CUTBOARD_DATA="$w/none" "$d/usr/bin/cutboard" --seed x -o x.pdf 2>err
rc=$?
[ $rc -eq 66 ] && [ "$(wc -l <err)" -eq 1 ] && grep -q 'CUTBOARD_DATA' err && [ ! -e x.pdf ] &&
    ok "a missing data folder: one line naming it, exit 66" || { no "missing data ($rc)"; cat err; }
# A program built against the installed library with pkg-config alone.
pc="env PKG_CONFIG_PATH=$d/usr/lib/pkgconfig pkg-config --define-variable=prefix=$d/usr"
if $cc $san -std=c11 -o example "$top/tests/data/pkgconfig_example.c" \
        $($pc --cflags --libs cutboard) 2>err &&
   ./example "$($pc --variable=datadir cutboard)" example.pdf >out 2>>err &&
   grep -q '4 sheets' out && head -c 5 example.pdf | grep -q '%PDF-'; then
    ok "pkg-config --cflags --libs cutboard builds a program that writes a game"
else
    no "pkg-config program"; cat err out
fi
[ "$($pc --modversion cutboard)" = "$(sed -n 's/^#define CB_VERSION "\(.*\)"/\1/p' "$top/include/cutboard.h")" ] &&
    ok "pkg-config --modversion" || no "pkg-config --modversion"
cd "$top"
$make --no-print-directory -s uninstall DESTDIR="$d" PREFIX=/usr BUILD="$build" BIN="$bin" \
    CC="$cc" SAN="$san" OPT="$opt" \
    >"$w/log" 2>&1 && ok "make uninstall" || { no "make uninstall"; cat "$w/log"; }
left=$(find "$d" -type f | wc -l)
[ "$left" -eq 0 ] && ok "uninstall leaves no file" || { no "uninstall left $left files"; find "$d" -type f; }
# Only what was there before: $d/usr/share/man and the folders above it.
left=$(cd "$d" && find . -mindepth 1 | sort | tr '\n' ' ')
[ "$left" = "./usr ./usr/share ./usr/share/man " ] && ok "uninstall removes the folders install made, only those" ||
    no "uninstall left folders: $left"
# A DESTDIR that is not there yet (a package build's): install makes it.
timeout 120 $make --no-print-directory -s install DESTDIR="$d/new" PREFIX=/usr BUILD="$build" BIN="$bin" \
    CC="$cc" SAN="$san" OPT="$opt" >"$w/log" 2>&1 && [ -x "$d/new/usr/bin/cutboard" ] &&
    ok "make install into a DESTDIR not made yet" || { no "make install DESTDIR=new"; cat "$w/log"; }
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
