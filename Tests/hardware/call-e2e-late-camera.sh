# Sourced by call-e2e.sh for `--camera vivid` once the call is answered: the device started with
# `video.source = "auto"` and vivid's driver unbound, so it answers with the test pattern; binding vivid now
# is a camera enumerating late (a slow USB hub, a driver loaded after the agent). The device must film it
# within 5 s of /dev/video0 appearing, in the same call. Uses check, wait_for, progress_field,
# caller_decoding and $work from call-e2e.sh; the caller hangs up by itself (call_seconds).

check "the caller decodes the test pattern while the board has no camera" caller_decoding 5 60
check "the device is not filming a camera yet" sh -c "! grep -q 'camera found' '$work/device.log'"
echo "before the camera: $(grep '^progress:' "$work/call.out" | tail -n 1)"

echo vivid.0 > /sys/bus/platform/drivers/vivid/bind
node_seen() { n=0; while [ ! -e /dev/video0 ] && [ "$n" -lt 50 ]; do sleep 0.1; n=$((n + 1)); done; [ -e /dev/video0 ]; }
check "vivid's /dev/video0 appears when its driver is bound" node_seen
check "the device films the camera within 5 s of it appearing" \
    wait_for 5 "$work/device.log" "camera found at /dev/video0"
frames_found=$(progress_field frames)
sleep 4
echo "with the camera: $(grep '^progress:' "$work/call.out" | tail -n 1)"
check "the caller's decoded frames keep growing with the camera ($frames_found → $(progress_field frames) in 4 s)" \
    test "$(progress_field frames)" -ge $((frames_found + 8))
check "the call went on through the switch: the caller is still in it" kill -0 "$caller"
