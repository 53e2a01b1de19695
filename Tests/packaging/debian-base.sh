#!/usr/bin/env bash
# Makes (once) and reuses a minimal Debian 12 system for Tests/packaging/run.sh: debootstrap's minbase with
# systemd as init, so systemd-nspawn can boot it, and man-db, so `man intercomd` can be read inside it.
# The tree is never booted or changed itself: every test run boots it with --volatile=overlay, so each run
# starts from the same fresh system and leaves nothing behind.
#
#   Tests/packaging/debian-base.sh CACHE_DIR      prints the tree's path (CACHE_DIR/bookworm-minbase)
#
# The mirror is the one apt on this machine uses (Tests/packaging/debian-mirror.sh). A tree made with other
# settings (the stamp differs) is made again; a failed debootstrap leaves only CACHE_DIR/*.partial, which the
# next run deletes. Needs root and debootstrap.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache=${1:?usage: debian-base.sh CACHE_DIR}
suite=bookworm
include=systemd,systemd-sysv,dbus,man-db
tree="$cache/$suite-minbase"
stamp="debootstrap --variant=minbase --include=$include $suite"

if [ -f "$tree/.intercom-base" ] && [ "$(cat "$tree/.intercom-base")" = "$stamp" ]; then
    echo "$tree"
    exit 0
fi
command -v debootstrap >/dev/null || { echo "debian-base.sh: debootstrap not found (Debian package debootstrap)" >&2; exit 1; }
mirror=$("$here/debian-mirror.sh" "$suite")
mkdir -p "$cache"
rm -rf "$tree" "$tree.partial"
echo "debian-base.sh: $stamp from $mirror into $tree" >&2
debootstrap --variant=minbase --include="$include" "$suite" "$tree.partial" "$mirror" >&2

# apt inside the container uses the same mirror (and its security and updates suites when this machine has them).
security=$("$here/debian-mirror.sh" "$suite-security" 2>/dev/null || true)
updates=$("$here/debian-mirror.sh" "$suite-updates" 2>/dev/null || true)
{
    echo "deb $mirror $suite main"
    [ -n "$updates" ] && echo "deb $updates $suite-updates main"
    [ -n "$security" ] && echo "deb $security $suite-security main"
} > "$tree.partial/etc/apt/sources.list"
# A booted container asks for a root password and a machine id on its console without these.
: > "$tree.partial/etc/machine-id"
echo "intercom-packaging-test" > "$tree.partial/etc/hostname"
printf '%s\n' "$stamp" > "$tree.partial/.intercom-base"
mv "$tree.partial" "$tree"
echo "$tree"
