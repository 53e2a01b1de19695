#!/usr/bin/env bash
# The project's test command (README): one build, then every test stage. Fails on any compiler warning in
# our own sources, any failed test, a systemd unit check or a fuzzer finding.
set -uo pipefail
cd "$(dirname "$0")/.."
export SWIFT_BACKTRACE=${SWIFT_BACKTRACE:-enable=no}
logs=${TEST_LOG_DIR:-.build/test-logs}
mkdir -p "$logs"
failed=()
passed=0

stage() { echo; echo "=== $1"; }

stage "build (swift build --build-tests)"
start=$(date +%s)
echo "building everything once (a first build takes several minutes; full log: $logs/build.log)"
swift build --build-tests > "$logs/build.log" 2>&1
build_status=$?
grep -E "error:|warning:|Build complete" "$logs/build.log" | grep -v "^\[" | sort -u | head -n 40
if [ "$build_status" -ne 0 ]; then
    echo "test.sh: the build failed (see $logs/build.log)"
    exit 1
fi
echo "build took $(( $(date +%s) - start )) s"
# Our code has zero warnings. Two SwiftPM notes are about other people's files and are not ours to fix:
# '-pthread' in libnice's pkg-config file, and unhandled files inside dependency checkouts.
warnings=$(grep -E "^$(pwd)/(Sources|Tests)/.*warning:" "$logs/build.log" | sort -u)
if [ -n "$warnings" ]; then
    echo "$warnings"
    echo "test.sh: compiler warnings in our sources (see above)"
    exit 1
fi

stage "swift test (host; the gpio-sim, vivid and snd-aloop tests run in the hardware harness stage)"
swift test --skip-build --skip GPIOSimTests --skip V4L2VividTests --skip V4L2VividMultiPlanarTests --skip ALSALoopbackTests \
    --skip DeviceAudioTests --skip ICEAgentHeapTests \
    > "$logs/swift-test.log" 2>&1
swift_status=$?
# The agent's real-alsa-lib audio tests (file and null PCMs, real-time paced threads) run on their own:
# next to 750 parallel tests on 2 cores they starve, and alsa-lib's global configuration is shared with the
# Media tests that enumerate and open PCMs at the same time.
# The ICE heap test measures the whole process's malloc heap, so it also runs alone.
swift test --skip-build --no-parallel --filter "DeviceAudioTests|ICEAgentHeapTests" > "$logs/swift-test-audio.log" 2>&1 || swift_status=1
grep -hE "✘|error:" "$logs/swift-test.log" "$logs/swift-test-audio.log" | head -n 40
grep -hE "Test run with|Executed [0-9]+ tests" "$logs/swift-test.log" "$logs/swift-test-audio.log" | sort -u | tail -n 4
if [ "$swift_status" -ne 0 ]; then failed+=("swift test"); fi
swift_tests=$(grep -Eo "Test run with [0-9]+ tests" "$logs/swift-test.log" | grep -Eo "[0-9]+" | tail -1)
audio_tests=$(grep -Eo "Test run with [0-9]+ tests" "$logs/swift-test-audio.log" | grep -Eo "[0-9]+" | tail -1)
xctests=$(grep -Eo "Executed [0-9]+ tests" "$logs/swift-test.log" | grep -Eo "[0-9]+" | tail -1)
passed=$(( passed + ${swift_tests:-0} + ${audio_tests:-0} + ${xctests:-0} ))

bin=$(swift build --show-bin-path)
# Real-browser stages: headless Chromium (Debian's chromium + chromium-driver) drives the web caller and
# plays the device's WebRTC stream. Each script prints one line per check and "N passed, M failed".
browser_stage() {
    local name=$1 script=$2 log=$3
    shift 3
    if bash "$script" "$@" > "$logs/$log" 2>&1; then
        grep -E "^(PASS|FAIL|ok|not ok)|passed, [0-9]+ failed" "$logs/$log" | tail -n 30
        local count
        count=$(grep -Eo "^[0-9]+ passed, 0 failed" "$logs/$log" | grep -Eo "^[0-9]+" | tail -1)
        passed=$(( passed + ${count:-1} ))
    else
        tail -n 40 "$logs/$log"
        failed+=("$name")
    fi
}

stage "web caller in headless Chromium (two browsers call each other through intercom-server)"
browser_stage "web caller (Chromium)" Tests/browser/run.sh browser.log "$bin/intercom-server"

stage "WebRTC interop: headless Chromium plays intercomd's VP8 + Opus (ICE, DTLS-SRTP) and sends its microphone"
INTERCOM_SERVER_BIN="$bin/intercom-server" INTERCOMD_BIN="$bin/intercomd" \
    browser_stage "WebRTC interop (Chromium)" Tests/webrtc-interop/run.sh interop.log

stage "end to end: the web caller in headless Chromium calls intercomd demo (auto answer, door, metrics, 10-call first-frame benchmark; accept, hangup and call buttons)"
browser_stage "end-to-end demo call (Chromium)" Tests/e2e/run.sh e2e.log "$bin/intercomd"

stage "soak: 200 calls from the web caller in headless Chromium to intercomd run (row created → first frame p50/p95, agent RSS and fds)"
INTERCOM_SERVER_BIN="$bin/intercom-server" INTERCOMD_BIN="$bin/intercomd" \
    browser_stage "soak: 200 calls (Chromium)" Tests/soak/run.sh soak.log

stage "two devices: intercomd call and intercomd run call each other through intercom-server (our WebRTC stack on both ends, both roles)"
INTERCOM_SERVER_BIN="$bin/intercom-server" INTERCOMD_BIN="$bin/intercomd" \
    browser_stage "two intercomd devices" Tests/two-devices/run.sh two-devices.log

stage "viewers: the caller and up to call.max_viewers view-only watchers in headless Chromium from one encoder (keyframe on join, refusal beyond the limit, CPU with 1, 2 and 4 receivers)"
INTERCOM_SERVER_BIN="$bin/intercom-server" INTERCOMD_BIN="$bin/intercomd" \
    browser_stage "viewers (Chromium)" Tests/viewers/run.sh viewers.log

stage "WebRTC under 10 % loss for 120 s (nftables on lo) and glass-to-glass latency, the web caller in headless Chromium calling intercomd demo"
browser_stage "loss and latency (Chromium)" Tests/loss/run.sh loss.log "$bin/intercomd"

stage "TURN: the web caller in headless Chromium calls intercomd run through coturn (TURN REST secret) while nftables blocks direct UDP between them"
browser_stage "TURN through coturn (Chromium)" Tests/turn/run.sh turn.log --server "$bin/intercom-server" --intercomd "$bin/intercomd"

stage "systemd units (systemd-analyze verify + security)"
if bash Tests/systemd/check-units.sh "$bin/intercomd" "$bin/intercom-server" 2>&1 | tee "$logs/units.log"; then
    passed=$(( passed + 1 ))
else
    failed+=("systemd units")
fi

stage "systemd boot smoke (the real units and intercomd under systemd in a container)"
if bash Tests/systemd/boot-smoke.sh "$bin/intercomd" 2>&1 | tee "$logs/boot-smoke.log"; then
    passed=$(( passed + 1 ))
else
    failed+=("systemd boot smoke")
fi

stage "hardware harness (QEMU TCG: vivid, snd-aloop, gpio-sim) smoke with intercomd probe"
if bash Tests/hardware/harness.sh build 2>&1 | tail -n 5 && bash Tests/hardware/harness.sh smoke "$bin/intercomd" 2>&1 | tee "$logs/harness.log"; then
    passed=$(( passed + 1 ))
else
    failed+=("hardware harness smoke")
fi

stage "hardware harness: Swift tests against the kernel's gpio-sim, vivid and snd-aloop (GPIOSimTests, the accept-button call GPIOSimCallTests, V4L2VividTests, V4L2VividMultiPlanarTests, ALSALoopbackTests)"
# One suite at a time: in the 2-vCPU TCG guest the call test's in-process server would starve vivid's frame-rate test.
bash Tests/hardware/harness.sh run -t 420 -- "$bin/intercomPackageTests.xctest" --testing-library swift-testing \
    --no-parallel --filter "GPIOSimTests|GPIOSimCallTests|V4L2VividTests|V4L2VividMultiPlanarTests|ALSALoopbackTests" \
    > "$logs/harness-gpio.log" 2>&1
gpio_status=$?
grep -E "✘|✔ Test |Test run|error" "$logs/harness-gpio.log" || true
if [ "$gpio_status" -eq 0 ] && grep -q "Test run with [1-9][0-9]* tests.* passed" "$logs/harness-gpio.log"; then
    gpio_tests=$(grep -Eo "Test run with [0-9]+ tests" "$logs/harness-gpio.log" | grep -Eo "[0-9]+" | tail -1)
    passed=$(( passed + ${gpio_tests:-0} ))
else
    failed+=("gpio-sim and vivid tests")
fi

stage "hardware harness: one call end to end with all three real drivers (vivid camera, snd-aloop audio, gpio-sim accept button)"
if bash Tests/hardware/harness.sh call-e2e "$bin" > "$logs/harness-call.log" 2>&1; then
    grep -E "^(PASS|FAIL)|^received" "$logs/harness-call.log"
    passed=$(( passed + $(grep -c "^PASS" "$logs/harness-call.log") ))
else
    tail -n 40 "$logs/harness-call.log"
    failed+=("harness end-to-end call")
fi

stage "fuzzing (fixed budget per target)"
if bash Tests/fuzz/run-fuzzers.sh 2>&1 | tee "$logs/fuzz.log"; then
    passed=$(( passed + 1 ))
else
    failed+=("fuzzing")
fi

echo
if [ ${#failed[@]} -ne 0 ]; then
    echo "test.sh: FAILED: ${failed[*]} (logs in $logs)"
    echo "tests: $passed passed, ${#failed[@]} failed"
    exit 1
fi
echo "test.sh: all stages passed (logs in $logs)"
echo "tests: $passed passed, 0 failed"
