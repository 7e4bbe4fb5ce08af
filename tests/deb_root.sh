#!/bin/sh
# make deb-check: the Debian packages in DIR in a clean Debian 12 root. The
# root is made once with debootstrap (minbase, build/deb-root-base) and
# copied afresh for every check; tests/deb.sh then runs inside it: apt
# installs the packages with only what they depend on, the program runs,
# the README's library example is compiled against them and run, and the
# purge leaves nothing behind. Needs root (or sudo): chroot and debootstrap.
# Usage (from the top of the tree): deb_root.sh DIR
set -eu
dir=$(cd "$1" && pwd)
top=$(pwd)
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null ||
        { echo "make deb-check needs root or sudo (it runs chroot and debootstrap)" >&2; exit 1; }
    exec sudo sh "$0" "$@"
fi
# The archive this machine uses (DEB_MIRROR=URL to choose another).
mirror=${DEB_MIRROR:-$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
    /etc/apt/sources.list.d/*.sources 2>/dev/null |
    sed -n -e 's/^URIs: *\([^ ]*\).*/\1/p' -e 's/^deb \(\[[^]]*\] \)\{0,1\}\([^ ]*\).*/\2/p' |
    grep -v security | head -n 1)}
mirror=${mirror:-http://deb.debian.org/debian}
base=$top/build/deb-root-base root=$top/build/deb-root
if [ ! -f "$base/.complete" ]; then
    rm -rf "$base"
    echo "making a clean Debian 12 root in $base (debootstrap, once)"
    debootstrap --variant=minbase bookworm "$base" "$mirror" >"$top/build/debootstrap.log" 2>&1 ||
        { tail -n 20 "$top/build/debootstrap.log"; exit 1; }
    printf 'deb %s bookworm main\ndeb %s bookworm-updates main\n' "$mirror" "$mirror" \
        >"$base/etc/apt/sources.list"
    touch "$base/.complete"
fi
rm -rf "$root"
cp -a "$base" "$root"
# /proc for the package scripts; a container that may not mount goes
# without (cutboard then finds its data by its installed prefix).
if mount -t proc proc "$root/proc" 2>/dev/null; then
    trap 'umount "$root/proc"; rm -rf "$root"' EXIT
else
    echo "note: /proc could not be mounted in the root; going on without it"
    trap 'rm -rf "$root"' EXIT
fi
cp /etc/resolv.conf "$root/etc/resolv.conf"
mkdir "$root/debs"
cp "$dir"/cutboard_*.deb "$dir"/libcutboard-dev_*.deb "$root/debs/"
cp tests/deb.sh "$root/deb.sh"
# The README's C example, as a reader would copy it.
awk '/^```c$/ {f = 1; next} /^```$/ {f = 0} f' README.md >"$root/example.c"
echo "in a clean Debian 12 root (debootstrap --variant=minbase bookworm, $mirror):"
chroot "$root" sh /deb.sh /debs /example.c
