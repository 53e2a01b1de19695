# Sourced by call-e2e.sh for `--camera uvc` once the call is answered: the USB webcam is unplugged (the
# gadget unbound from dummy_hcd, a real USB disconnect for uvcvideo) and replugged mid-call. Uses check,
# wait_for, progress_field, caller_decoding, below, $work, $caller and $UVC_GADGET from call-e2e.sh, and
# hangs the call up at the end (SIGTERM to `intercomd call`, which says bye and reports as usual). The
# caller's mean luma tells the live camera from the device's placeholder (its last picture, a third as bright).

check "the caller decodes the USB camera's MJPEG picture before the unplug" caller_decoding 10 60
sleep 2
live_luma=$(progress_field luma)
echo "before the unplug: $(grep '^progress:' "$work/call.out" | tail -n 1)"

$UVC_GADGET unplug
check "the device reports the camera lost within 3 s of the USB disconnect" wait_for 3 "$work/device.log" "camera lost"
sleep 1
frames_lost=$(progress_field frames)
sleep 4
echo "unplugged: $(grep '^progress:' "$work/call.out" | tail -n 1)"
unplugged_luma=$(progress_field luma)
check "the call's video goes on while unplugged (the placeholder: $frames_lost → $(progress_field frames) frames)" \
    test "$(progress_field frames)" -gt "$frames_lost"
check "what arrives while unplugged is the last picture dimmed (luma $unplugged_luma, live $live_luma)" \
    below "$unplugged_luma" "$(awk -v l="$live_luma" 'BEGIN { print l * 0.6 }')"
check "the caller is still in the call while the camera is away" kill -0 "$caller"

node=$($UVC_GADGET replug)
echo "replugged: uvcvideo node $node"
check "the device finds the replugged camera within 5 s (the same identity, node $node)" \
    wait_for 5 "$work/device.log" "camera back"
frames_back=$(progress_field frames)
sleep 5
echo "after the replug: $(grep '^progress:' "$work/call.out" | tail -n 1)"
check "the caller's decoded frames keep growing after the replug ($frames_back → $(progress_field frames) in 5 s)" \
    test "$(progress_field frames)" -ge $((frames_back + 10))
check "the picture is live again after the replug (luma $(progress_field luma), live $live_luma)" \
    below "$(awk -v l="$live_luma" 'BEGIN { print l * 0.8 }')" "$(progress_field luma)"
check "the call never ended: the caller is still in it after the replug" kill -0 "$caller"
check "the device counted one camera loss and one recovery" python3 - <<'PY'
import re, sys, urllib.request
text = urllib.request.urlopen("http://127.0.0.1:9464/metrics", timeout=5).read().decode()
values = {name: float(value) for name, value in re.findall(r'^(intercom_camera_\w+_total)\S* ([0-9.e+]+)$', text, re.M)}
print(values)
sys.exit(0 if values.get("intercom_camera_losses_total") == 1 and values.get("intercom_camera_recoveries_total") == 1 else 1)
PY
kill -TERM "$caller"
call_limit=30  # call-e2e.sh waits this long for the caller to hang up and report
