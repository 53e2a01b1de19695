#!/bin/sh
# Smoke checks run inside the hardware harness guest (harness.sh smoke [INTERCOMD]): the vivid camera,
# the snd-aloop loopback card and the gpio-sim chip answer like real hardware, and intercomd's probe
# sees all three. Exit status = number of failed checks.
HERE=$(dirname "$0")
INTERCOMD=${1:-/work/main/.build/debug/intercomd}
failed=0

check() {
    name=$1; shift
    if "$@"; then echo "PASS $name"; else echo "FAIL $name"; failed=$((failed + 1)); fi
}
section() { echo; echo "=== $* ==="; }

section "V4L2 (vivid: a single-planar and a multi-planar instance)"
v4l2-ctl --list-devices 2>&1 | tee /tmp/v4l2-list
check "v4l2-ctl --list-devices shows vivid" grep -q vivid /tmp/v4l2-list
v4l2-ctl -d /dev/video0 --all > /tmp/v4l2-all 2>&1
sed -n '1,12p' /tmp/v4l2-all
check "/dev/video0 driver is vivid" grep -q 'Driver name *: vivid' /tmp/v4l2-all
v4l2-ctl -d /dev/video0 --list-formats > /tmp/v4l2-formats 2>&1
grep -E "^\s*\[[0-9]+\]" /tmp/v4l2-formats | head -n 8
check "vivid offers YUYV" grep -q "'YUYV'" /tmp/v4l2-formats
v4l2-ctl -d /dev/video0 --set-fmt-video=width=640,height=480,pixelformat=YUYV \
    --stream-mmap --stream-count=5 --stream-to=/tmp/frames.raw 2>/dev/null
frames_bytes=$(stat -c %s /tmp/frames.raw 2>/dev/null || echo 0)
echo "captured $frames_bytes bytes in 5 frames"
check "5 YUYV 640x480 frames captured" test "$frames_bytes" -eq $((640 * 480 * 2 * 5))
v4l2-ctl -d /dev/video1 --all > /tmp/v4l2-all-1 2>&1
check "/dev/video1 is vivid's multi-planar capture" grep -q 'Video Capture Multiplanar' /tmp/v4l2-all-1
v4l2-ctl -d /dev/video1 --list-formats-ext > /tmp/v4l2-formats-1 2>&1
check "the multi-planar vivid offers NM12" grep -q "'NM12'" /tmp/v4l2-formats-1

section "ALSA (snd-aloop)"
aplay -l 2>&1 | tee /tmp/aplay-l
arecord -l > /tmp/arecord-l 2>&1
check "aplay -l shows Loopback" grep -q 'card 0: Loopback' /tmp/aplay-l
check "arecord -l shows Loopback" grep -q 'card 0: Loopback' /tmp/arecord-l
check "1 kHz tone played to hw:Loopback,0 is recorded from hw:Loopback,1" python3 "$HERE/tone-check.py"

section "GPIO (gpio-sim)"
gpiodetect 2>&1 | tee /tmp/gpiodetect
gpioinfo 2>&1 | tee /tmp/gpioinfo
check "gpiodetect shows the gpio-sim chip" grep -q 'gpiochip0 \[intercom-gpio-sim\] (8 lines)' /tmp/gpiodetect
check "gpioinfo shows line names" grep -q '"GPIO17"' /tmp/gpioinfo
check "gpiofind GPIO27 is gpiochip0 1" test "$(gpiofind GPIO27)" = "gpiochip0 1"
pull=$(ls /sys/devices/platform/gpio-sim.0/gpiochip*/sim_gpio0/pull)
echo pull-down > "$pull"
timeout 10 gpiomon --num-events=1 --rising-edge gpiochip0 0 > /tmp/gpiomon 2>&1 &
monitor=$!
sleep 1
echo pull-up > "$pull"
wait $monitor
cat /tmp/gpiomon
check "pulling sim_gpio0 up is a rising edge seen by gpiomon" grep -q 'RISING EDGE offset: 0' /tmp/gpiomon
check "gpioget reads the pulled-up line as 1" test "$(gpioget gpiochip0 0)" = 1

section "intercomd probe ($INTERCOMD)"
if [ -x "$INTERCOMD" ]; then
    "$INTERCOMD" probe > /tmp/probe 2>&1
    probe_status=$?
    cat /tmp/probe
    check "intercomd probe exits 0" test "$probe_status" -eq 0
    check "intercomd probe lists vivid" grep -qi vivid /tmp/probe
    check "intercomd probe lists YUYV" grep -q YUYV /tmp/probe
    check "intercomd probe lists the single-planar vivid" grep -q 'vivid, .*, single-planar)' /tmp/probe
    check "intercomd probe lists the multi-planar vivid" grep -q 'vivid, .*, multi-planar)' /tmp/probe
    check "intercomd probe lists NM12 and YM12" sh -c 'grep -q "^    NM12 " /tmp/probe && grep -q "^    YM12 " /tmp/probe'
    check "intercomd probe lists the Loopback card" grep -q Loopback /tmp/probe
    check "intercomd probe lists the gpio-sim chip" grep -q intercom-gpio-sim /tmp/probe
    check "intercomd probe lists libcamera's vimc camera with BGR888" \
        sh -c 'grep -q "^  platform/vimc.0 Sensor B" /tmp/probe && grep -q "^    BGR888 " /tmp/probe'
    check "intercomd probe says vivid is captured in NV12 at 640x480, and why" \
        grep -q 'at 640x480 30 fps the agent captures NV12: ' /tmp/probe

    section "intercomd camera-test on vivid"
    INTERCOM_CONFIG=/nonexistent "$INTERCOMD" camera-test --source /dev/video0 --seconds 2 --fps 15 \
        --snapshot /tmp/vivid.jpg > /tmp/camera-test 2>&1
    camera_status=$?
    cat /tmp/camera-test
    check "intercomd camera-test exits 0" test "$camera_status" -eq 0
    check "camera-test names the driver format and why" grep -q 'source: V4L2 /dev/video0: NV12 640x480 at .* fps (NV12 ' /tmp/camera-test
    check "camera-test measured frames" grep -q '^measured: [1-9][0-9]* frames' /tmp/camera-test
    check "camera-test wrote a JPEG snapshot" sh -c 'head -c 3 /tmp/vivid.jpg | od -An -tx1 | grep -q "ff d8 ff"'
else
    echo "FAIL $INTERCOMD is not executable"; failed=$((failed + 1))
fi

echo; echo "$failed check(s) failed"
exit "$failed"
