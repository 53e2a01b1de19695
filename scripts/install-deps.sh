#!/usr/bin/env bash
# Installs every Debian package listed in scripts/debian-packages.txt (uses sudo when not run as root).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mapfile -t packages < <(grep -v '^\s*#' "$here/debian-packages.txt" | grep -v '^\s*$')
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -eq 0 ]; then
    echo "install-deps: all ${#packages[@]} Debian packages are installed"
    exit 0
fi
echo "install-deps: installing ${#missing[@]} package(s): ${missing[*]}"
as_root=()
[ "$(id -u)" -eq 0 ] || as_root=(sudo)
# nginx and postgresql start a system service from their postinst (nginx on port 80, PostgreSQL's `main` cluster on
# 5432). The tests start their own instances and need neither; the start fails the install where port 80 is taken,
# and leaves two daemons running in a container without an init system. When the system has no policy-rc.d (one
# that exists already decides), a temporary one denies starting those two for the length of the install; every
# other service keeps Debian's default.
policy=/usr/sbin/policy-rc.d
if [ ! -e "$policy" ]; then
    printf '%s\n' '#!/bin/sh' '# Temporary, from scripts/install-deps.sh: removed when it ends.' \
        'for unit in "$@"; do case $unit in nginx|nginx.service|postgresql|postgresql.service|postgresql@*) exit 101 ;; esac; done' \
        'exit 0' | "${as_root[@]}" tee "$policy" > /dev/null
    "${as_root[@]}" chmod 755 "$policy"
    trap 'grep -q "scripts/install-deps.sh" "$policy" 2>/dev/null && "${as_root[@]}" rm -f "$policy"' EXIT
fi
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
echo "install-deps: done"
