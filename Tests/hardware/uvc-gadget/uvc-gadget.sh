#!/bin/sh
# The harness's USB webcam, run inside the QEMU guest (Tests/hardware/harness.sh loads dummy_hcd with the
# isochronous patch, libcomposite, usb_f_uvc and uvcvideo). It creates a configfs UVC gadget offering MJPEG
# and YUYV, binds it to dummy_hcd's UDC and starts uvc-feeder, which serves the gadget's V4L2 output node.
# The same guest's uvcvideo then drives the camera as a real USB webcam. See docs/hardware-harness.md.
#
#   uvc-gadget.sh up [FEEDER OPTIONS]  create (once) and bind the gadget, start the feeder;
#                                      prints the uvcvideo capture node (/dev/videoN)
#   uvc-gadget.sh unplug               unbind the gadget from the UDC: a real USB disconnect
#   uvc-gadget.sh replug               bind it again and restart the feeder (same options); prints the node
#   uvc-gadget.sh down                 unplug and forget the feeder options
#   uvc-gadget.sh node                 print the uvcvideo capture node, if any
#
# Feeder options: --corrupt-every N [--truncate] (every Nth MJPEG frame is garbage, or a truncated JPEG),
# --quality Q, --subsampling 422|420. The feeder log is /run/intercom-uvc/feeder.log; bound-at and
# unbound-at there hold the seconds since boot of the last bind and unbind.
#
# Formats (bFormatIndex, bFrameIndex): MJPEG 1: 640x480 (1) at 30, 15 or 5 fps, 1280x720 (2) at 30 or 15,
# 320x240 (3) at 30, 15 or 5 and 160x120 (4) at 30 or 15;
# YUYV 2: 640x480 (1) at 30 or 15 fps and 1280x720 (2) at 10 fps only (as USB 2.0 webcams limit YUYV).
set -eu

GADGET=/sys/kernel/config/usb_gadget/intercom-uvc
FUNCTION=$GADGET/functions/uvc.cam
STATE=/run/intercom-uvc
CACHE=${INTERCOM_HARNESS_CACHE:-/var/cache/intercom-harness}
FEEDER=${INTERCOM_UVC_FEEDER:-$CACHE/$(cat "$CACHE/current" 2>/dev/null)/uvc-gadget/uvc-feeder}

say() { echo "uvc-gadget: $*" >&2; }
die() { say "ERROR: $*"; exit 1; }

write() {  # write FILE VALUE
    printf '%s\n' "$2" > "$1" || die "cannot write '$2' to $1"
}

frame() {  # frame FORMAT_DIR NAME WIDTH HEIGHT BYTES_PER_PIXEL INTERVAL... (100 ns units, first = default)
    dir=$1/$2 width=$3 height=$4 bpp=$5
    shift 5
    mkdir "$dir" || die "mkdir $dir"
    write "$dir/wWidth" "$width"
    write "$dir/wHeight" "$height"
    write "$dir/dwMaxVideoFrameBufferSize" $((width * height * bpp))
    write "$dir/dwMinBitRate" $((width * height * bpp * 8 * 10))
    write "$dir/dwMaxBitRate" $((width * height * bpp * 8 * 30))
    write "$dir/dwDefaultFrameInterval" "$1"
    printf '%s\n' "$@" > "$dir/dwFrameInterval" || die "cannot write $dir/dwFrameInterval"
}

create_gadget() {
    [ -d "$GADGET" ] && return
    [ -d /sys/kernel/config/usb_gadget ] || die "no /sys/kernel/config/usb_gadget (libcomposite not loaded?)"
    mkdir "$GADGET" || die "mkdir $GADGET"
    write "$GADGET/idVendor" 0x1d6b    # Linux Foundation
    write "$GADGET/idProduct" 0x0104   # Multifunction Composite Gadget
    write "$GADGET/bcdDevice" 0x0100
    write "$GADGET/bcdUSB" 0x0200
    mkdir "$GADGET/strings/0x409"
    write "$GADGET/strings/0x409/serialnumber" "INTERCOM-UVC-0001"
    write "$GADGET/strings/0x409/manufacturer" "Intercom harness"
    write "$GADGET/strings/0x409/product" "Intercom test webcam"
    mkdir "$GADGET/configs/c.1" "$GADGET/configs/c.1/strings/0x409"
    write "$GADGET/configs/c.1/strings/0x409/configuration" "UVC"
    write "$GADGET/configs/c.1/MaxPower" 500

    mkdir "$FUNCTION" || die "mkdir $FUNCTION (usb_f_uvc not loaded?)"
    mkdir "$FUNCTION/control/header/h"
    ln -s "$FUNCTION/control/header/h" "$FUNCTION/control/class/fs/h"
    ln -s "$FUNCTION/control/header/h" "$FUNCTION/control/class/ss/h"
    mkdir "$FUNCTION/streaming/mjpeg/m"
    frame "$FUNCTION/streaming/mjpeg/m" 480p 640 480 2 333333 666666 2000000
    frame "$FUNCTION/streaming/mjpeg/m" 720p 1280 720 2 333333 666666
    # Small and slow for whole calls in the TCG guest (call-e2e.sh --camera uvc), where the emulated
    # isochronous transfers alone take a third of the guest's CPU at 640x480.
    frame "$FUNCTION/streaming/mjpeg/m" 240p 320 240 2 333333 666666 2000000
    # Like most webcams, no rate below 15 fps: the capture source's pacing is tested on it.
    frame "$FUNCTION/streaming/mjpeg/m" 120p 160 120 2 333333 666666
    mkdir "$FUNCTION/streaming/uncompressed/u"
    frame "$FUNCTION/streaming/uncompressed/u" 480p 640 480 2 333333 666666
    frame "$FUNCTION/streaming/uncompressed/u" 720p 1280 720 2 1000000
    mkdir "$FUNCTION/streaming/header/h"
    # Link order gives the format indexes: MJPEG 1, YUYV 2.
    ln -s "$FUNCTION/streaming/mjpeg/m" "$FUNCTION/streaming/header/h/m"
    ln -s "$FUNCTION/streaming/uncompressed/u" "$FUNCTION/streaming/header/h/u"
    for speed in fs hs ss; do
        ln -s "$FUNCTION/streaming/header/h" "$FUNCTION/streaming/class/$speed/h"
    done
    # High speed, 3 x 1024 bytes per microframe: ~24 MB/s, enough for 640x480 YUYV at 30 fps.
    write "$FUNCTION/streaming_maxpacket" 3072
    ln -s "$FUNCTION" "$GADGET/configs/c.1/uvc.cam"
}

capture_node() {  # the uvcvideo video-capture node (uvcvideo also creates a metadata node)
    for dev in /sys/class/video4linux/video*; do
        [ -e "$dev/device/driver" ] || continue
        [ "$(basename "$(readlink -f "$dev/device/driver")")" = uvcvideo ] || continue
        [ "$(cat "$dev/index" 2>/dev/null)" = 0 ] || continue
        echo "/dev/$(basename "$dev")"
        return 0
    done
    return 1
}

wait_for_capture_node() {
    i=0
    while [ $i -lt 200 ]; do   # 20 s: enumeration under TCG takes 1-3 s
        if capture_node; then return 0; fi
        feeder_running || { cat "$STATE/feeder.log" >&2; die "uvc-feeder exited"; }
        sleep 0.1; i=$((i + 1))
    done
    cat "$STATE/feeder.log" >&2
    die "no uvcvideo capture node 20 s after binding the gadget"
}

# When the gadget was last bound and unbound, for tests timing the host's reaction: seconds since boot
# (/proc/uptime), which in the guest (never suspended) is CLOCK_MONOTONIC.
seconds_since_boot() { cut -d' ' -f1 /proc/uptime; }

feeder_running() {
    [ -f "$STATE/feeder.pid" ] && kill -0 "$(cat "$STATE/feeder.pid")" 2>/dev/null
}

bind() {
    udc=$(ls /sys/class/udc 2>/dev/null | head -n 1)
    [ -n "$udc" ] || die "no UDC in /sys/class/udc (dummy_hcd not loaded?)"
    seconds_since_boot > "$STATE/bound-at"
    write "$GADGET/UDC" "$udc"
    [ -x "$FEEDER" ] || die "$FEEDER missing (harness.sh build builds it)"
    # shellcheck disable=SC2046 # the saved options are separate words
    setsid "$FEEDER" --gadget "$FUNCTION" $(cat "$STATE/feeder.args") \
        < /dev/null >> "$STATE/feeder.log" 2>&1 &
    echo $! > "$STATE/feeder.pid"
    wait_for_capture_node
}

unplug() {
    [ "$(cat "$GADGET/UDC" 2>/dev/null)" != "" ] || return 0
    # Unbinding waits until the feeder has closed the gadget node; it does so on the disconnect event.
    # If it did not within 3 s, stop it so that the unbind (and the guest) cannot hang.
    seconds_since_boot > "$STATE/unbound-at"
    (printf '\n' > "$GADGET/UDC") &
    unbinding=$!
    i=0
    while kill -0 $unbinding 2>/dev/null && [ $i -lt 30 ]; do sleep 0.1; i=$((i + 1)); done
    if kill -0 $unbinding 2>/dev/null; then
        say "unbind still waiting after 3 s: stopping uvc-feeder"
        feeder_running && kill "$(cat "$STATE/feeder.pid")"
    fi
    wait $unbinding || die "unbind failed"
    i=0
    while feeder_running && [ $i -lt 30 ]; do sleep 0.1; i=$((i + 1)); done
    if feeder_running; then kill -9 "$(cat "$STATE/feeder.pid")"; fi
    rm -f "$STATE/feeder.pid"
}

mkdir -p "$STATE"
command=${1:-}
[ $# -gt 0 ] && shift
case "$command" in
    up)
        unplug
        echo "$*" > "$STATE/feeder.args"
        create_gadget
        bind ;;
    unplug)
        unplug ;;
    replug)
        [ -f "$STATE/feeder.args" ] || die "replug before up"
        unplug
        bind ;;
    down)
        unplug
        rm -f "$STATE/feeder.args" ;;
    node)
        capture_node ;;
    *)
        sed -n '8,14p' "$0" >&2
        exit 2 ;;
esac
