# Sourced by Tests/hardware/harness.sh: the USB webcam (a UVC gadget on dummy_hcd, driven by uvcvideo).
# See Tests/hardware/uvc-gadget/uvc-gadget.sh and docs/hardware-harness.md.
UVC_DIR=$HERE/uvc-gadget

# f_uvc in 6.1 streams only over isochronous endpoints, and Debian's dummy_hcd fails every isochronous
# transfer, so the guest gets a dummy_hcd rebuilt from linux-source-6.1 with dummy_hcd-iso-in.patch.
UVC_GUEST_MODULES=("dummy_hcd" "libcomposite" "usb_f_uvc" "uvcvideo")
UVC_HOST_PACKAGES=(patch libturbojpeg0-dev)

# Everything that shapes the UVC artefacts, for build_fingerprint.
uvc_build_inputs() {
    cat "$UVC_DIR/dummy_hcd-iso-in.patch" "$UVC_DIR/Kbuild" "$UVC_DIR/uvc-feeder.c"
    declare -f build_uvc_gadget
}

# build_uvc_gadget KVER DIR INITRAMFS: the patched dummy_hcd.ko replaces Debian's in INITRAMFS (the module
# closure put it there), and the feeder is built into DIR/uvc-gadget/uvc-feeder (the guest runs it from the
# host root).
build_uvc_gadget() {
    local kver=$1 dir=$2 initramfs=$3 src=$2/uvc-gadget tarball=/usr/src/linux-source-6.1.tar.xz
    [ -f "$initramfs/lib/modules/dummy_hcd.ko" ] || die $EXIT_BUILD "dummy_hcd.ko is not in the module closure"
    rm -rf "$src" && mkdir -p "$src/drivers/usb/gadget/udc"
    tar -xJf "$tarball" -C "$src" --strip-components=1 linux-source-6.1/drivers/usb/gadget/udc/dummy_hcd.c
    patch -s -d "$src" -p1 < "$UVC_DIR/dummy_hcd-iso-in.patch" \
        || die $EXIT_BUILD "dummy_hcd-iso-in.patch does not apply to linux-source-6.1"
    mv "$src/drivers/usb/gadget/udc/dummy_hcd.c" "$src/dummy_hcd.c"
    cp "$UVC_DIR/Kbuild" "$src/Kbuild"
    make -s -C "/usr/src/linux-headers-$kver" M="$src" modules >&2 \
        || die $EXIT_BUILD "dummy_hcd module build failed"
    cp "$src/dummy_hcd.ko" "$initramfs/lib/modules/dummy_hcd.ko"
    gcc -O2 -Wall -Wextra -Werror -o "$src/uvc-feeder" "$UVC_DIR/uvc-feeder.c" -lturbojpeg \
        || die $EXIT_BUILD "uvc-feeder build failed"
}
