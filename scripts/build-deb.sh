#!/usr/bin/env bash
# Builds the two Debian packages for this machine's architecture (amd64 here, arm64 on a Pi 4/5 or any
# arm64 Debian 12 box) into OUTDIR (default .build/debian):
#
#   intercomd_<version>_<arch>.deb        the device agent, its units, sysusers.d and udev files, an example
#                                         /etc/intercom/intercom.toml (conffile), board profiles, fleet sample
#   intercom-server_<version>_<arch>.deb  the backend, its unit, the web caller, /etc/intercom/server.toml
#
#   scripts/build-deb.sh [OUTDIR]
#   --skip-build    package the release binaries already in .build/release (the packaging test uses this
#                   after building once)
#
# The binaries are release builds with --static-swift-stdlib: the Swift runtime and Foundation are inside
# them, so a board needs no Swift toolchain, only Debian's C libraries. Depends: comes from dpkg-shlibdeps,
# which reads the binaries' real ELF NEEDED entries; Version: is what `intercomd --version` prints
# (Sources/IntercomBuildInfo: the release number plus the git revision stamped in at build time). The man
# pages are rendered from the argument parser (`--experimental-dump-help`) by swift-argument-parser's own
# generate-manual tool. Needs: swift, dpkg-dev (dpkg-shlibdeps), binutils (strip), gzip; no root.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

build=1
outdir=''
for argument in "$@"; do
    case $argument in
        --skip-build) build=0 ;;
        -h | --help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "build-deb.sh: unknown option $argument" >&2; exit 2 ;;
        *) outdir=$argument ;;
    esac
done
outdir=${outdir:-.build/debian}
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)

for tool in swift dpkg-deb dpkg-shlibdeps dpkg-architecture strip gzip; do
    command -v "$tool" >/dev/null || { echo "build-deb.sh: $tool not found (Debian packages: dpkg-dev binutils gzip; swift: the README)" >&2; exit 1; }
done

arch=$(dpkg --print-architecture)
maintainer=${DEB_MAINTAINER:-Intercom maintainers <intercom@example.org>}
release_flags=(-c release --static-swift-stdlib)
bin=$(swift build "${release_flags[@]}" --show-bin-path)
step() { echo "build-deb.sh: $*"; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ "$build" -eq 1 ]; then
    # One product at a time: the second reuses every module the first compiled. generate-manual is
    # swift-argument-parser's own tool (its plugin would first rebuild every product in another
    # configuration); from the same checkout it builds in seconds. (A single `swift build` of all products
    # would also link intercom-dev and failed once here linking a dependency's tool.)
    for product in intercomd intercom-server generate-manual; do
        start=$SECONDS
        step "swift build ${release_flags[*]} --product $product"
        if ! swift build "${release_flags[@]}" --product "$product" > "$work/build.log" 2>&1; then
            grep -E "error:" "$work/build.log" | head -n 20 >&2
            echo "build-deb.sh: the release build of $product failed" >&2
            exit 1
        fi
        grep -E "^/.*warning:" "$work/build.log" | sort -u || true
        step "$product took $((SECONDS - start)) s"
    done
fi
for product in intercomd intercom-server generate-manual; do
    [ -x "$bin/$product" ] || { echo "build-deb.sh: $bin/$product is missing (run without --skip-build)" >&2; exit 1; }
done

version=$("$bin/intercomd" --version)
# Debian's version syntax for a native package: digits first, then letters, digits and + . ~ only.
[[ $version =~ ^[0-9][A-Za-z0-9.+~]*$ ]] || { echo "build-deb.sh: intercomd --version printed \"$version\", not a Debian version" >&2; exit 1; }
server_version=$("$bin/intercom-server" --version)
[ "$server_version" = "$version" ] || { echo "build-deb.sh: intercomd is $version but intercom-server is $server_version (stale build?)" >&2; exit 1; }
step "version $version, architecture $arch"
# Dates inside the packages (changelog, man pages) are the commit's, so a rebuild of one commit is identical.
source_epoch=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}
source_date=$(date -u -d "@$source_epoch" +%F)

# ── Files ──────────────────────────────────────────────────────────────────────────────────────────────
# install_file MODE SOURCE DESTINATION (DESTINATION includes the package root)
install_file() { install -D -m "$1" "$2" "$3"; }

# The shipped unit with the packaged paths: /usr/bin instead of /usr/local/bin, the docs where Debian puts them.
packaged_unit() {  # packaged_unit UNIT DOC_PACKAGE > OUTPUT
    sed -e 's#/usr/local/bin/#/usr/bin/#g' \
        -e "s#^Documentation=file:/usr/local/share/doc/intercom/#Documentation=man:$2(1) file:/usr/share/doc/$2/#" \
        -e "s#^\(\# Install: \).*#\1shipped in the $2 package (scripts/build-deb.sh); see /usr/share/doc/$2/deployment.md.#" \
        "$1"
}

# The man page: one page per executable, every subcommand and option in it, from the binary's own argument
# parser (generate-manual runs it with --experimental-dump-help and writes mdoc).
man_page() {  # man_page BINARY ROOT
    local name
    name=$(basename "$1")
    "$bin/generate-manual" "$1" --output-directory "$work" --section 1 --authors "Intercom maintainers" --date "$source_date" >/dev/null
    install_file 0644 "$work/$name.1" "$2/usr/share/man/man1/$name.1"
    gzip -9n "$2/usr/share/man/man1/$name.1"
}

# Debian wants a copyright file and a changelog in every package's doc directory.
package_docs() {  # package_docs PACKAGE ROOT DOC...
    local package=$1 root=$2 doc
    shift 2
    install_file 0644 packaging/debian/copyright "$root/usr/share/doc/$package/copyright"
    {
        echo "$package ($version) unstable; urgency=medium"
        echo
        echo "  * Build of ${version#*+}."
        echo
        echo " -- $maintainer  $(LC_ALL=C date -u -R -d "@$source_epoch")"
    } > "$work/changelog"
    install_file 0644 "$work/changelog" "$root/usr/share/doc/$package/changelog"
    gzip -9n "$root/usr/share/doc/$package/changelog"
    for doc in "$@"; do install_file 0644 "$doc" "$root/usr/share/doc/$package/$(basename "$doc")"; done
}

intercomd_root="$work/intercomd"
install_file 0755 "$bin/intercomd" "$intercomd_root/usr/bin/intercomd"
for unit in intercomd.service intercomd-retry.service intercomd-retry.timer; do
    packaged_unit "systemd/$unit" intercomd > "$work/$unit"
    install_file 0644 "$work/$unit" "$intercomd_root/lib/systemd/system/$unit"
done
install_file 0644 systemd/sysusers.d/intercom.conf "$intercomd_root/usr/lib/sysusers.d/intercom.conf"
install_file 0644 systemd/udev/60-intercom-gpio.rules "$intercomd_root/lib/udev/rules.d/60-intercom-gpio.rules"
install_file 0644 packaging/intercom.toml "$intercomd_root/etc/intercom/intercom.toml"
for profile in board/*.toml; do install_file 0644 "$profile" "$intercomd_root/usr/share/intercom/board/$(basename "$profile")"; done
install_file 0644 board/fleet/base.toml "$intercomd_root/usr/share/intercom/fleet/base.toml"
install_file 0644 board/fleet/inventory.csv "$intercomd_root/usr/share/intercom/fleet/inventory.csv"
for device in board/fleet/devices/*.toml; do install_file 0644 "$device" "$intercomd_root/usr/share/intercom/fleet/devices/$(basename "$device")"; done
package_docs intercomd "$intercomd_root" README.md docs/deployment.md docs/configuration.md docs/wiring.md
install_file 0644 packaging/debian/intercomd.lintian-overrides "$intercomd_root/usr/share/lintian/overrides/intercomd"
man_page "$bin/intercomd" "$intercomd_root"

server_root="$work/intercom-server"
install_file 0755 "$bin/intercom-server" "$server_root/usr/bin/intercom-server"
# The packaged server reads /etc/intercom/server.toml (a conffile the operator edits) instead of the hand
# install's --listen/--database flags, which would override the file; the file sets the same two values.
packaged_unit systemd/intercom-server.service intercom-server |
    sed 's#^ExecStart=/usr/bin/intercom-server .*#ExecStart=/usr/bin/intercom-server --config /etc/intercom/server.toml#' \
    > "$work/intercom-server.service"
grep -qx 'ExecStart=/usr/bin/intercom-server --config /etc/intercom/server.toml' "$work/intercom-server.service" ||
    { echo "build-deb.sh: could not set the server unit's ExecStart" >&2; exit 1; }
install_file 0644 "$work/intercom-server.service" "$server_root/lib/systemd/system/intercom-server.service"
install_file 0644 packaging/server.toml "$server_root/etc/intercom/server.toml"
for page in Sources/IntercomServer/WebCaller/*; do install_file 0644 "$page" "$server_root/usr/share/intercom/web/$(basename "$page")"; done
package_docs intercom-server "$server_root" docs/backend.md docs/deployment.md
man_page "$bin/intercom-server" "$server_root"

# Symbols are not needed at run time (Swift's runtime metadata lives in its own sections); stripping
# takes the binaries from about 3x to 1x. No debug symbols package yet.
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$intercomd_root/usr/bin/intercomd" "$server_root/usr/bin/intercom-server"

# ── Control files ──────────────────────────────────────────────────────────────────────────────────────
# dpkg-shlibdeps wants a debian/control to sit in; it reads the ELF NEEDED entries and maps each library
# to the Debian package (and minimum version) that provides it.
mkdir -p "$work/source/debian"
printf 'Source: intercom\nMaintainer: %s\n\nPackage: intercomd\nArchitecture: any\n\nPackage: intercom-server\nArchitecture: any\n' "$maintainer" \
    > "$work/source/debian/control"
shlib_depends() {  # shlib_depends BINARY
    (cd "$work/source" && dpkg-shlibdeps -O --warnings=1 -e "$1" 2>"$work/shlibdeps.err") | sed -n 's/^shlibs:Depends=//p'
    if grep -q "error" "$work/shlibdeps.err"; then cat "$work/shlibdeps.err" >&2; exit 1; fi
}

write_control() {  # write_control PACKAGE ROOT SECTION SUMMARY DESCRIPTION
    local package=$1 root=$2 depends
    depends=$(shlib_depends "$root/usr/bin/$package")
    [ -n "$depends" ] || { echo "build-deb.sh: dpkg-shlibdeps found no dependencies for $package" >&2; exit 1; }
    mkdir -p "$root/DEBIAN"
    {
        echo "Package: $package"
        echo "Version: $version"
        echo "Architecture: $arch"
        echo "Maintainer: $maintainer"
        echo "Installed-Size: $(du -sk --apparent-size --exclude=DEBIAN "$root" | cut -f1)"
        echo "Depends: $depends"
        echo "Section: $3"
        echo "Priority: optional"
        echo "Description: $4"
        printf '%s\n' "$5" | fold -s -w 72 | sed 's/ *$//; s/^/ /'
    } > "$root/DEBIAN/control"
    (cd "$root" && find . -path ./DEBIAN -prune -o -path ./etc -prune -o -type f -printf '%P\0' | sort -z | xargs -0 md5sum) > "$root/DEBIAN/md5sums"
    (cd "$root" && find etc -type f -printf '/%p\n' | sort) > "$root/DEBIAN/conffiles"
    local script
    for script in postinst prerm postrm; do
        install -m 0755 "packaging/debian/$package.$script" "$root/DEBIAN/$script"
    done
}

write_control intercomd "$intercomd_root" video \
    "video intercom device agent for Raspberry Pi class boards" \
    "intercomd turns a Linux board with a camera, a microphone, a speaker, buttons and LEDs into an unattended video intercom. It registers with a Parse-compatible backend such as intercom-server, answers calls from the browser-based web caller by policy or at the press of a button, and streams VP8 video and Opus audio over WebRTC. It runs as a sandboxed systemd service with a dynamic user."
write_control intercom-server "$server_root" net \
    "self-hosted backend and web caller for the Intercom video intercom" \
    "intercom-server is the backend for intercomd devices: a Parse-compatible REST subset, LiveQuery, session signaling and TURN credentials, kept in SQLite. It also serves the web caller, the page browsers use to find devices nearby and call them."

# ── Packages ───────────────────────────────────────────────────────────────────────────────────────────
for package in intercomd intercom-server; do
    find "$work/$package" -type d -exec chmod 0755 {} +
    deb="$outdir/${package}_${version}_${arch}.deb"
    dpkg-deb --root-owner-group -Zxz --build "$work/$package" "$deb" >/dev/null
    step "$deb ($(du -k "$deb" | cut -f1) KiB; Depends: $(dpkg-deb -f "$deb" Depends))"
done
