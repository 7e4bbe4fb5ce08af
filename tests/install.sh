#!/bin/sh
# make install into a temporary DESTDIR, the installed binary run from
# another folder with an empty environment (and again after the tree is
# moved), then make uninstall, which must leave no file behind.
# Usage: install.sh MAKE BUILD BIN (from the top of the tree).
make=${1:-make} build=${2:-build} bin=${3:-cutboard}
top=$(pwd)
d=$(mktemp -d) w=$(mktemp -d)
trap 'rm -rf "$d" "$w"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
no() { fail=$((fail + 1)); echo "FAIL $1"; }

$make --no-print-directory -s install DESTDIR="$d" PREFIX=/usr BUILD="$build" BIN="$bin" \
    >"$w/log" 2>&1 && ok "make install DESTDIR=... PREFIX=/usr" || { no "make install"; cat "$w/log"; }
for f in usr/bin/cutboard usr/lib/libcutboard.a usr/include/cutboard.h \
         usr/share/cutboard/icons/default/theme.json usr/share/cutboard/fonts/DejaVuSans.ttf; do
    [ -f "$d/$f" ] && ok "installed $f" || no "installed $f"
done
cd "$w"
env -i "$d/usr/bin/cutboard" --seed installed -o a.pdf --json a.json 2>err &&
    head -c 5 a.pdf | grep -q '%PDF-' && ok "installed binary, empty environment, another folder" ||
    { no "installed binary runs"; cat err; }
env -i "$d/usr/bin/cutboard" render a.json -o b.pdf 2>err && ok "installed render" ||
    { no "installed render"; cat err; }
mkdir "$d/opt" && mv "$d/usr" "$d/opt/moved"
env -i "$d/opt/moved/bin/cutboard" --seed installed -o c.pdf 2>err && cmp -s a.pdf c.pdf &&
    ok "a moved tree finds its data (same PDF)" || { no "moved tree"; cat err; }
mv "$d/opt/moved" "$d/usr" && rmdir "$d/opt"
env -i CUTBOARD_DATA="$w/none" "$d/usr/bin/cutboard" --seed x -o x.pdf 2>err
rc=$?
[ $rc -eq 66 ] && [ "$(wc -l <err)" -eq 1 ] && grep -q 'CUTBOARD_DATA' err && [ ! -e x.pdf ] &&
    ok "a missing data folder: one line naming it, exit 66" || { no "missing data ($rc)"; cat err; }
cd "$top"
$make --no-print-directory -s uninstall DESTDIR="$d" PREFIX=/usr BUILD="$build" BIN="$bin" \
    >"$w/log" 2>&1 && ok "make uninstall" || { no "make uninstall"; cat "$w/log"; }
left=$(find "$d" -type f | wc -l)
[ "$left" -eq 0 ] && ok "uninstall leaves no file" || { no "uninstall left $left files"; find "$d" -type f; }
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
