#!/bin/sh
# The Debian packages in DIR install, run and purge cleanly: dpkg -i both,
# the installed cutboard makes a game from /tmp with an empty environment
# (its data, man pages and pkg-config file where they belong), then
# dpkg --purge leaves none of their files behind.
set -u
dir=$1
SUDO=; [ "$(id -u)" -eq 0 ] || SUDO=sudo
failed=0
check() { # what, then a command that must succeed
    what=$1; shift
    if "$@" >/dev/null 2>&1; then echo "ok   $what"; else echo "FAIL $what"; failed=1; fi
}
dir=$(cd "$dir" && pwd) # apt-get takes files by path: ./x.deb or /x.deb
debs=$(ls "$dir"/cutboard_*.deb "$dir"/libcutboard-dev_*.deb)
check "the packages install" $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $debs
files=$(dpkg -L cutboard libcutboard-dev 2>/dev/null | sort)
check "their files are in place" test -x /usr/bin/cutboard -a -n "$files"
w=$(mktemp -d /tmp/cutboard-deb.XXXXXX)
check "cutboard --seed x -o x.pdf from /tmp, no environment" \
    sh -c "cd $w && env -i /usr/bin/cutboard --seed x -o x.pdf && pdfinfo x.pdf | grep -q 'Pages: *5'"
check "the font is Debian's" test "$(readlink -f /usr/share/cutboard/fonts/DejaVuSans.ttf)" = \
    "$(readlink -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf)"
check "man pages" sh -c "man -w cutboard && man -w 5 cutboard-theme && man -w 5 cutboard-board"
check "pkg-config" sh -c "pkg-config --cflags --libs cutboard | grep -q lcutboard"
rm -rf "$w"
check "the packages purge" $SUDO dpkg --purge cutboard libcutboard-dev
left=""
for f in $files; do
    # folders other packages share stay; cutboard's own must go
    case $f in /usr/share/cutboard*|/usr/share/doc/cutboard*|/usr/share/doc/libcutboard*) ;;
        *) [ -d "$f" ] && [ ! -L "$f" ] && continue;; esac
    [ -e "$f" ] || [ -L "$f" ] && left="$left $f"
done
check "nothing left behind" test -z "$left"
[ -z "$left" ] || echo "  left:$left"
exit $failed
