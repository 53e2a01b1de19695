# vimc for the hardware harness, sourced by harness.sh: the out-of-tree build and the guest modules it needs.
# vimc is what libcamera's vimc pipeline handler (and ipa_vimc.so) drive, so the libcamera video source runs
# against a real media-controller camera in the guest.

# Modules vimc.ko needs (modinfo -F depends), loaded before it; their own dependencies come from
# modprobe --show-depends like every other guest module.
VIMC_DEPENDENCIES=(videobuf2-v4l2 v4l2-tpg videodev mc videobuf2-dma-contig videobuf2-common videobuf2-vmalloc)

# Builds $dir/vimc/vimc.ko from linux-source-6.1 against linux-headers-$kver.
build_vimc() {
    local kver=$1 dir=$2 src=$2/vimc tarball=/usr/src/linux-source-6.1.tar.xz
    [ -f "$tarball" ] || die $EXIT_BUILD "$tarball missing (apt-get install linux-source-6.1)"
    rm -rf "$src" && mkdir -p "$src"
    tar -xJf "$tarball" -C "$src" --strip-components=5 --wildcards \
        'linux-source-6.1/drivers/media/test-drivers/vimc/*.[ch]'
    cp "$HERE/vimc/Kbuild" "$src/Kbuild"
    make -s -C "/usr/src/linux-headers-$kver" M="$src" modules >&2 || die $EXIT_BUILD "vimc module build failed"
    [ -f "$src/vimc.ko" ] || die $EXIT_BUILD "vimc.ko not produced"
    local missing
    missing=$(modinfo -F depends "$src/vimc.ko" | tr ',' '\n' | grep -vxF -f <(printf '%s\n' "${VIMC_DEPENDENCIES[@]}") || true)
    [ -z "$missing" ] || die $EXIT_BUILD "vimc.ko depends on modules VIMC_DEPENDENCIES lacks: $missing"
}

# Adds vimc's dependencies and then vimc.ko itself to the initramfs module list.
add_vimc_modules() {
    local dir=$1 initramfs=$2 name
    for name in "${VIMC_DEPENDENCIES[@]}"; do add_module_closure "$name"; done
    cp "$dir/vimc/vimc.ko" "$initramfs/lib/modules/"
    echo "vimc.ko" >> "$initramfs/etc/harness/modules"
}
