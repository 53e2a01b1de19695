#!/bin/bash
# QEMU hardware harness: boots Debian's own 6.1 kernel under TCG with real drivers (vivid V4L2 camera,
# snd-aloop ALSA loopback, an out-of-tree gpio-sim chip, an out-of-tree vimc media-controller camera for
# libcamera) and runs a host command inside it, against the host root mounted read-only over 9p. See docs/hardware-harness.md.
#
#   harness.sh build                 build (or reuse) the cached kernel, modules and initramfs
#   harness.sh run [-t SECS] -- CMD  run CMD in the guest; exit with CMD's status
#   harness.sh smoke [INTERCOMD]     run Tests/hardware/smoke.sh in the guest
#
# Environment: INTERCOM_HARNESS_CACHE (default /var/cache/intercom-harness), INTERCOM_HARNESS_TIMEOUT
# (default 300 s), INTERCOM_HARNESS_KVER (default: newest linux-image-6.1.0-N-amd64 in apt),
# INTERCOM_HARNESS_MEMORY (MiB, default 1024), INTERCOM_HARNESS_GPIO_LINES, INTERCOM_HARNESS_VERBOSE=1
# (kernel log on the console), INTERCOM_HARNESS_KEEP_CONSOLE=FILE (save the raw console log).
#
# Exit codes besides the command's own: 90 guest failed to boot or set up, 91 timeout,
# 92 harness build failed, 93 guest ended without reporting a status, 2 usage.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CACHE=${INTERCOM_HARNESS_CACHE:-/var/cache/intercom-harness}
TIMEOUT=${INTERCOM_HARNESS_TIMEOUT:-300}
MEMORY=${INTERCOM_HARNESS_MEMORY:-1024}
GPIO_LINES=${INTERCOM_HARNESS_GPIO_LINES:-"GPIO17 GPIO27 GPIO22 GPIO23 GPIO24 GPIO25 GPIO5 GPIO6"}
# Module name followed by its parameters; dependencies are added by modprobe --show-depends.
GUEST_MODULES=(
    "configfs"
    "virtio_pci"
    "9pnet_virtio"
    "9p"
    "vivid n_devs=2 node_types=0x1,0x1 multiplanar=1,2"
    "snd-aloop index=0 pcm_substreams=2"
    "dummy numdummies=1"
)
HOST_PACKAGES=(qemu-system-x86 busybox-static kmod cpio gzip xz-utils make gcc linux-source-6.1)
# shellcheck source=Tests/hardware/uvc-gadget/harness-uvc.sh
. "$HERE/uvc-gadget/harness-uvc.sh"
GUEST_MODULES+=("${UVC_GUEST_MODULES[@]}")
HOST_PACKAGES+=("${UVC_HOST_PACKAGES[@]}")

EXIT_BOOT=90 EXIT_TIMEOUT=91 EXIT_BUILD=92 EXIT_NO_STATUS=93

# shellcheck source=vimc/vimc.sh
. "$HERE/vimc/vimc.sh"

say() { printf '[harness %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { local code=$1; shift; say "ERROR: $*"; exit "$code"; }

# Newest linux-image-6.1.0-N-amd64 known to apt (the host kernel is not Debian's, so never uname -r).
newest_kernel_version() {
    apt-cache pkgnames linux-image-6.1.0- \
        | sed -n 's/^linux-image-\(6\.1\.0-[0-9]*-amd64\)$/\1/p' | sort -V | tail -n 1
}

package_installed() {
    dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}

install_packages() {
    local missing=() p
    for p in "$@"; do package_installed "$p" || missing+=("$p"); done
    if [ ${#missing[@]} -eq 0 ]; then say "host packages present"; return; fi
    say "apt-get install ${missing[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" >&2
}

# Everything that shapes the cached artefacts; a change rebuilds them.
build_fingerprint() {
    { cat "$HERE/guest-init.sh" "$HERE/gpio-sim/Kbuild" "$HERE/vimc/Kbuild" "$HERE/vimc/vimc.sh"
      declare -p GUEST_MODULES; declare -f do_build build_gpio_sim copy_module add_module_closure; uvc_build_inputs; } | sha256sum | cut -c1-16
}

do_build() {
    local kver=${INTERCOM_HARNESS_KVER:-$(newest_kernel_version)}
    [ -n "$kver" ] || die $EXIT_BUILD "apt knows no linux-image-6.1.0-*-amd64 package (apt-get update?)"
    local dir=$CACHE/$kver fingerprint
    fingerprint=$(build_fingerprint)
    if [ -f "$dir/stamp" ] && [ "$(cat "$dir/stamp")" = "$fingerprint" ] \
        && [ -f "$dir/vmlinuz" ] && [ -f "$dir/initramfs.cpio.gz" ]; then
        say "cached: $dir (kernel $kver)"
        echo "$kver" > "$CACHE/current"
        return
    fi
    local started=$SECONDS
    mkdir -p "$dir" && rm -f "$dir/stamp"
    say "step 1/6: host packages (kernel $kver)"
    install_packages "${HOST_PACKAGES[@]}" "linux-headers-$kver"

    say "step 2/6: linux-image-$kver (apt-get download, dpkg-deb -x)"
    local image_version headers_version
    image_version=$(apt-cache show --no-all-versions "linux-image-$kver" | sed -n 's/^Version: //p')
    headers_version=$(dpkg-query -W -f='${Version}' "linux-headers-$kver")
    [ "$image_version" = "$headers_version" ] \
        || die $EXIT_BUILD "linux-image-$kver $image_version != linux-headers-$kver $headers_version"
    mkdir -p "$dir/debs"
    id _apt >/dev/null 2>&1 && chown _apt "$dir/debs"   # lets apt download without the sandbox warning
    if ! ls "$dir/debs/linux-image-${kver}_"*.deb >/dev/null 2>&1; then
        (cd "$dir/debs" && apt-get download "linux-image-$kver" >&2)
    fi
    rm -rf "$dir/image" && mkdir -p "$dir/image"
    dpkg-deb -x "$dir/debs/linux-image-${kver}_"*.deb "$dir/image"
    cp "$dir/image/boot/vmlinuz-$kver" "$dir/vmlinuz"
    depmod -b "$dir/image" "$kver"

    say "step 3/6: gpio-sim and vimc out-of-tree modules (linux-source-6.1 + linux-headers-$kver)"
    build_gpio_sim "$kver" "$dir"
    build_vimc "$kver" "$dir"

    say "step 4/6: module closure"
    local initramfs=$dir/initramfs
    rm -rf "$initramfs" && mkdir -p "$initramfs"/{bin,sbin,etc/harness,lib/modules,proc,sys,dev,host,tmp}
    : > "$initramfs/etc/harness/modules"
    local spec
    for spec in "${GUEST_MODULES[@]}"; do add_module_closure "$spec"; done
    cp "$dir/gpio-sim/gpio-sim-oot.ko" "$initramfs/lib/modules/"
    echo "gpio-sim-oot.ko" >> "$initramfs/etc/harness/modules"
    add_vimc_modules "$dir" "$initramfs"
    say "  USB webcam: dummy_hcd with isochronous IN (linux-source-6.1 + patch), uvc-feeder"
    build_uvc_gadget "$kver" "$dir" "$initramfs"
    say "  $(wc -l < "$initramfs/etc/harness/modules") modules: $(cut -d' ' -f1 "$initramfs/etc/harness/modules" | tr '\n' ' ')"

    say "step 5/6: busybox initramfs"
    cp /bin/busybox "$initramfs/bin/busybox"
    file -b /bin/busybox 2>/dev/null | grep -q 'statically linked' \
        || ldd /bin/busybox 2>&1 | grep -q 'not a dynamic' \
        || die $EXIT_BUILD "/bin/busybox is not static (install busybox-static)"
    install -m 0755 "$HERE/guest-init.sh" "$initramfs/init"
    (cd "$initramfs" && find . | cpio -o -H newc --quiet | gzip -1) > "$dir/initramfs.cpio.gz"

    say "step 6/6: done in $((SECONDS - started)) s -> $dir"
    echo "$fingerprint" > "$dir/stamp"
    echo "$kver" > "$CACHE/current"
}

# "name params...": the module and what it depends on (modprobe --show-depends in the kernel image), copied
# into the initramfs and appended to its load list unless already there. Uses do_build's dir, kver, initramfs.
add_module_closure() {
    local spec=$1 name args ko deps
    name=${spec%% *}; args=""; [ "$name" = "$spec" ] || args=${spec#* }
    deps=$(modprobe -d "$dir/image" -S "$kver" --show-depends "$name") \
        || die $EXIT_BUILD "modprobe cannot resolve $name in linux-image-$kver"
    while read -r verb path _; do
        [ "$verb" = insmod ] || continue
        ko=$(basename "$path")
        cut -d' ' -f1 "$initramfs/etc/harness/modules" | grep -qxF "$ko" && continue
        copy_module "$path" "$initramfs/lib/modules/$ko"
        if [ "$(basename "$ko" .ko)" = "$name" ] || [ "$(basename "$ko" .ko | tr - _)" = "$(echo "$name" | tr - _)" ]; then
            echo "$ko $args" >> "$initramfs/etc/harness/modules"
        else
            echo "$ko" >> "$initramfs/etc/harness/modules"
        fi
    done <<< "$deps"
}

copy_module() {
    case "$1" in
        *.ko) cp "$1" "$2" ;;
        *.ko.xz) xz -dc "$1" > "${2%.xz}" ;;
        *.ko.zst) zstd -dcq "$1" > "${2%.zst}" ;;
        *) die $EXIT_BUILD "unknown module format: $1" ;;
    esac
}

build_gpio_sim() {
    local kver=$1 dir=$2 src=$2/gpio-sim tarball=/usr/src/linux-source-6.1.tar.xz
    [ -f "$tarball" ] || die $EXIT_BUILD "$tarball missing (apt-get install linux-source-6.1)"
    [ -d "/usr/src/linux-headers-$kver" ] || die $EXIT_BUILD "/usr/src/linux-headers-$kver missing"
    rm -rf "$src" && mkdir -p "$src"
    tar -xJf "$tarball" -C "$src" --strip-components=3 linux-source-6.1/drivers/gpio/gpio-sim.c \
        linux-source-6.1/drivers/gpio/gpiolib.h linux-source-6.1/kernel/irq/irq_sim.c
    # irq_to_desc() is not exported to modules; generic_handle_irq() does the same lookup and is.
    sed -i 's/handle_simple_irq(irq_to_desc(\([a-z_]*\)))/generic_handle_irq(\1)/' "$src/irq_sim.c"
    grep -q 'generic_handle_irq(' "$src/irq_sim.c" || die $EXIT_BUILD "irq_sim.c patch did not apply"
    cp "$HERE/gpio-sim/Kbuild" "$src/Kbuild"
    make -s -C "/usr/src/linux-headers-$kver" M="$src" modules >&2 \
        || die $EXIT_BUILD "gpio-sim module build failed"
    [ -f "$src/gpio-sim-oot.ko" ] || die $EXIT_BUILD "gpio-sim-oot.ko not produced"
}

# Single-quote one word for /bin/sh.
sh_quote() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }

do_run() {
    [ $# -gt 0 ] || die 2 "usage: harness.sh run [-t SECS] -- COMMAND ARGS..."
    ( do_build ) || exit $?
    local kver dir
    kver=$(cat "$CACHE/current"); dir=$CACHE/$kver
    [ "$(cat "$dir/stamp" 2>/dev/null)" = "$(build_fingerprint)" ] \
        || die $EXIT_BUILD "harness build failed (no valid $dir/stamp)"

    local work nonce
    work=$(mktemp -d /tmp/intercom-harness.XXXXXX)
    nonce=$(head -c 8 /dev/urandom | od -An -tx1 | tr -d ' \n')
    mkdir -p "$work/root/etc/harness"
    {
        echo "HARNESS_NONCE=$nonce"
        echo "HARNESS_GPIO_LINES='$GPIO_LINES'"
        echo "HARNESS_VERBOSE=${INTERCOM_HARNESS_VERBOSE:-0}"
    } > "$work/root/etc/harness/run.conf"
    {
        echo "cd $(sh_quote "$PWD") 2>/dev/null || cd /"
        echo "export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
        echo "export HOME=/tmp LANG=C.UTF-8 TERM=dumb SWIFT_BACKTRACE=enable=no"
        echo "export INTERCOM_HARNESS_CACHE=$(sh_quote "$CACHE")"   # uvc-gadget.sh finds its feeder there
        printf 'exec'
        local arg
        for arg in "$@"; do printf ' %s' "$(sh_quote "$arg")"; done
        echo
    } > "$work/root/etc/harness/command.sh"
    # The kernel unpacks concatenated cpio archives in order: the per-run files land on top.
    (cd "$work/root" && find . | cpio -o -H newc --quiet | gzip -1) > "$work/run.cpio.gz"
    cat "$dir/initramfs.cpio.gz" "$work/run.cpio.gz" > "$work/initrd"

    local console=$work/console.log qemu_pid status started=$SECONDS cmdline="console=ttyS0 quiet panic=-1"
    [ "${INTERCOM_HARNESS_VERBOSE:-0}" = 0 ] || cmdline="console=ttyS0 loglevel=7 panic=-1"
    timeout -k 5 "$TIMEOUT" qemu-system-x86_64 \
        -accel tcg -cpu max -smp 2 -m "$MEMORY" -nographic -no-reboot \
        -kernel "$dir/vmlinuz" -initrd "$work/initrd" \
        -append "$cmdline" \
        -virtfs local,path=/,mount_tag=hostroot,readonly=on,security_model=none,multidevs=remap \
        < /dev/null > "$console" 2>&1 &
    qemu_pid=$!
    trap 'kill -TERM $qemu_pid 2>/dev/null; wait $qemu_pid 2>/dev/null; rm -rf "$work"; exit 130' INT TERM
    status=0; wait $qemu_pid || status=$?
    trap - INT TERM
    local elapsed=$((SECONDS - started))
    # Firmware escape sequences can precede a marker on its line: cut them off.
    tr -d '\r' < "$console" \
        | sed "s/.*\(HARNESS-\(BEGIN\|EXIT\|SETUP-FAILED\)-$nonce \)/\1/" > "$console.clean"
    if [ -n "${INTERCOM_HARNESS_KEEP_CONSOLE:-}" ]; then cp "$console.clean" "$INTERCOM_HARNESS_KEEP_CONSOLE"; fi

    # What the guest reported about its devices before the command (guest-init.sh: "harness: ...").
    awk -v b="HARNESS-BEGIN-$nonce " 'index($0, b) == 1 { exit }
        { i = index($0, "harness: "); if (i) print "guest: " substr($0, i + 9) }' "$console.clean" \
        | while read -r line; do say "$line"; done
    local begin_line exit_line
    begin_line=$(grep -m1 "^HARNESS-BEGIN-$nonce " "$console.clean" || true)
    exit_line=$(grep -m1 "^HARNESS-EXIT-$nonce " "$console.clean" || true)
    # Command output: the lines between the markers (the newline printed before EXIT is dropped).
    awk -v b="HARNESS-BEGIN-$nonce " -v e="HARNESS-EXIT-$nonce " '
        index($0, e) == 1 { exit }
        on { if (have) print prev; prev = $0; have = 1 }
        index($0, b) == 1 { on = 1 }
        END { if (have && prev != "") print prev }' "$console.clean"

    if [ -n "$exit_line" ]; then
        local code=${exit_line##* }
        say "guest: boot-to-command ${begin_line##* } s (guest uptime), total ${elapsed} s, status $code"
        rm -rf "$work"
        exit "$code"
    fi
    if [ "$status" = 124 ] || [ "$status" = 137 ]; then
        say "timeout after ${TIMEOUT} s (INTERCOM_HARNESS_TIMEOUT or run -t SECS)"
        rm -rf "$work"; exit $EXIT_TIMEOUT
    fi
    local setup_failed
    setup_failed=$(grep -m1 "^HARNESS-SETUP-FAILED-$nonce " "$console.clean" || true)
    if [ -n "$setup_failed" ] || [ -z "$begin_line" ]; then
        say "guest failed to boot or set up (qemu status $status): ${setup_failed#* }"
        tail -n 30 "$console.clean" >&2
        say "for the kernel log, re-run with INTERCOM_HARNESS_VERBOSE=1"
        rm -rf "$work"; exit $EXIT_BOOT
    fi
    say "command started but the guest ended without a status (qemu status $status)"
    rm -rf "$work"; exit $EXIT_NO_STATUS
}

main() {
    [ "$(id -u)" = 0 ] || die 2 "run as root (apt, depmod and the cache need it)"
    local cmd=${1:-}; [ $# -gt 0 ] && shift
    case "$cmd" in
        build)
            do_build ;;
        run)
            while [ $# -gt 0 ]; do
                case "$1" in
                    -t|--timeout) TIMEOUT=$2; shift 2 ;;
                    --) shift; break ;;
                    *) break ;;
                esac
            done
            do_run "$@" ;;
        smoke)
            do_run /bin/sh "$HERE/smoke.sh" "$@" ;;
        call-e2e)
            do_run /bin/sh "$HERE/call-e2e.sh" "$@" ;;
        *)
            echo "usage: $0 build | run [-t SECS] -- COMMAND ARGS... | smoke [INTERCOMD] | call-e2e [--camera vivid|libcamera|uvc|all] [BIN_DIR | --intercomd BIN --server BIN]" >&2
            exit 2 ;;
    esac
}

main "$@"
