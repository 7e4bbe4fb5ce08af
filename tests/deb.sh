#!/bin/sh
# The Debian packages in DIR install, run and purge cleanly on a clean
# system (tests/deb_root.sh runs this inside a fresh debootstrap root, as
# root): apt installs both with what they depend on and nothing else, the
# installed cutboard makes a game from /tmp with an empty environment (its
# data, man pages and pkg-config file where they belong, a theme by name,
# the server program that cutboard serve runs),
# the README's library example (EXAMPLE) is compiled with pkg-config
# against the installed library and writes its PDF, then dpkg --purge
# leaves none of their files behind. Usage: deb.sh DIR EXAMPLE.c
set -u
dir=$1 example=$2
failed=0
check() { # what, then a command that must succeed
    what=$1; shift
    if "$@" >/tmp/check.log 2>&1; then echo "ok   $what"; else echo "FAIL $what"; sed 's/^/  /' /tmp/check.log | tail -n 15; failed=1; fi
}
is_pdf() { [ "$(head -c 5 "$1")" = "%PDF-" ] && [ "$(grep -a -c '/Type /Page$' "$1")" -eq "$2" ]; }
export DEBIAN_FRONTEND=noninteractive
check "apt-get update" apt-get update -qq
# A compiler and pkg-config, as the README's example asks; the libraries
# must come from libcutboard-dev's Depends.
check "the packages install (no Recommends)" apt-get install -y -qq --no-install-recommends \
    "$dir"/cutboard_*.deb "$dir"/libcutboard-dev_*.deb gcc libc6-dev pkg-config
files=$(dpkg -L cutboard libcutboard-dev 2>/dev/null | sort)
check "their files are in place" test -x /usr/bin/cutboard -a -n "$files"
w=$(mktemp -d /tmp/cutboard-deb.XXXXXX)
cp "$example" "$w/example.c"
check "cutboard --seed x -o x.pdf from /tmp, no environment" \
    sh -c "cd $w && env -i /usr/bin/cutboard --seed x -o x.pdf"
check "  ... a 4-player game: 5 pages" is_pdf "$w/x.pdf" 5
check "cutboard --theme default (a name) from /tmp" \
    sh -c "cd $w && env -i /usr/bin/cutboard --theme default --seed x -o y.pdf && cmp x.pdf y.pdf"
check "cutboard serve runs its server program (/usr/libexec/cutboard/cutboard-serve)" \
    sh -c "test -x /usr/libexec/cutboard/cutboard-serve && env -i /usr/bin/cutboard serve --version | grep -q '^cutboard '"
check "  ... which alone links libmicrohttpd" \
    sh -c "! ldd /usr/bin/cutboard | grep -q microhttpd && ldd /usr/libexec/cutboard/cutboard-serve | grep -q microhttpd"
check "the font is Debian's" test "$(readlink -f /usr/share/cutboard/fonts/DejaVuSans.ttf)" = \
    "$(readlink -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf)"
check "man pages" test -f /usr/share/man/man1/cutboard.1.gz -a -f /usr/share/man/man5/cutboard-theme.5.gz \
    -a -f /usr/share/man/man5/cutboard-board.5.gz
check "the README's library example builds: cc example.c \$(pkg-config --cflags --libs cutboard)" \
    sh -c "cd $w && cc example.c \$(pkg-config --cflags --libs cutboard) -o example"
check "  ... and runs from /tmp with no environment, writing library.pdf" \
    sh -c "cd $w && env -i ./example"
check "  ... a 4-player game: 5 pages" is_pdf "$w/library.pdf" 5
rm -rf "$w"
check "the packages purge" dpkg --purge cutboard libcutboard-dev
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
