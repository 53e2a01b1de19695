#!/usr/bin/env bash
# The project's test command (README): one build, then every test stage. Fails on any compiler warning in
# our own sources, any failed test, a systemd unit check or a fuzzer finding.
#
#   scripts/test.sh                      every stage, in the order of the table below
#   scripts/test.sh STAGE...             only these stages (still in the table's order)
#   scripts/test.sh --list               the stage names, what each needs and what it runs
#   --intercomd PATH, --server PATH      the binaries every stage tests (default: the build's); intercom-dev
#                                        is taken from next to intercomd
#
# A stage that needs the binaries or the test bundle gets them from the build stage, which runs once, first,
# when it is named or when what a chosen stage needs is missing (existing binaries are used as they are:
# name `build` too after changing sources). The last line is `tests: N passed, M failed`; the exit status is
# non-zero on any failure. Full logs: $TEST_LOG_DIR (default .build/test-logs).
set -uo pipefail
cd "$(dirname "$0")/.."
export SWIFT_BACKTRACE=${SWIFT_BACKTRACE:-enable=no}

# ── The stages ─────────────────────────────────────────────────────────────────────────────────────────
# name|needs|what it runs. needs: bin (intercomd, intercom-server, intercom-dev), tests (the test bundle), bin+tests
# (both), or -.
# To add a stage: one line here (its place is its order) and a function stage_NAME below (dashes become
# underscores) that calls `passed_checks N` or `failed_stage LABEL`.
STAGES=(
    "build|-|swift build --build-tests (fails on any compiler warning in Sources/ or Tests/)"
    "binary-contents|bin|intercomd links no IntercomServer, GRDB, JWTKit, HummingbirdTLS or libsqlite3 (nm, readelf), and the same check finds them in intercom-server"
    "unit|tests|swift test on the host (the gpio-sim, vivid, vimc and snd-aloop tests run in the harness-tests stage)"
    "security|bin|security: a real intercom-server attacked over real sockets (viewer roles in the relay, LiveQuery after logout, signalURL vs Host, malformed HTTP, 1,500 idle connections, query cost limits, proxies and the master key)"
    "browser|bin|web caller in headless Chromium (two browsers call each other through intercom-server; the Visits view against intercomd run)"
    "https|bin|HTTPS served by intercom-server itself: a throwaway CA (openssl), the web caller in headless Chromium over https:// calls intercomd run (server_url https://, [backend] ca_file; the device hears the page's microphone), then the certificate replaced and reloaded with SIGHUP (new serial on new connections, a broken file keeps the old one)"
    "interop|bin|WebRTC interop: headless Chromium plays intercom-dev webrtc-send's VP8 + Opus (ICE, DTLS-SRTP) and sends its microphone"
    "e2e|bin|end to end: the web caller in headless Chromium calls intercomd demo (auto answer, door, metrics, 10-call first-frame benchmark; accept, hangup and call buttons)"
    "soak|bin|soak: 200 calls from the web caller in headless Chromium to intercomd run (row created → first frame p50/p95, agent RSS and fds)"
    "two-devices|bin|two devices: intercomd call and intercomd run call each other through intercom-server (our WebRTC stack on both ends, both roles)"
    "livequery-outage|bin|LiveQuery outage: nftables drops the agent's established LiveQuery flow both ways (half-open); the agent notices within 30 s, takes a call made meanwhile and subscribes again"
    "mqtt|bin|MQTT: intercomd demo --mqtt against a real mosquitto (Home Assistant discovery configs, the ring event with the caller, the door button pulses the simulated relay once, mosquitto killed for 10 s mid-call leaves the call alone and availability comes back online)"
    "postgres|bin+tests|PostgreSQL: two intercom-server instances on one throwaway PostgreSQL 15 cluster behind nginx (round robin, WebSocket upgrade): sign-up, ActiveUsers rows and \$nearSphere through nginx answered by both alike; a LiveQuery subscription on one instance gets the create, update and delete of a row written through the other exactly once; a session token from one works on the other and a logout through one ends it on the other; signaling across instances (the two parties of a call on different instances: a 7 KB offer and 20 candidates each way exactly once and in order, ping/pong, a viewer on the other instance, the role rule), the room's owner SIGKILLed mid-call (the other socket closed, both parties back in the room, relay both ways); intercomd run on one instance called by the web caller in headless Chromium on the other (video at >= 20 fps), the idle device on nginx resubscribing on the other instance within 10 s of a SIGKILL and taking the next call, media going on through a SIGKILL mid-call and the page rejoining so its hang-up reaches the device as a bye, Parse Files served by either instance, each call delivered once; one instance SIGKILLed: nginx fails over within 10 s and LiveQuery through nginx still works; /health of each. Then IntercomServerTests and ParseClientTests with INTERCOM_TEST_DATABASE_URL on the same cluster (CrashSafetyTests' SIGKILLs mid-write included)"
    "sip|bin|SIP registration: intercomd run with [sip] against a real kamailio (digest auth; registered on /health and in kamailio's location table, a wrong password is auth failed, kamailio killed and restarted: unreachable, then registered again; unregister on stop) and a SIPp OPTIONS ping answered 200; SIP calls from SIPp straight to the device: a PCMA offer answered with G.711 both ways, the door code typed as RFC 4733 keys opens the door once and a wrong one does not, 486 during a call, CANCEL → 487, 403 outside [sip] allow, 488 for an offer without audio; baresip (a real SIP phone) registered with kamailio calls the device's AOR through it: the device's 440 Hz tone decoded by baresip and baresip's 1000 Hz played on the device's speaker (ALSA file PCM; dominant frequency within 2 %), the door code 1234# as RFC 4733 events opens the door once, 486 for a second call, baresip's BYE through the route set; the device's call button (intercomd run --keys) calls baresip through kamailio: tones both ways, the door code from the callee, hangup → BYE, a refusal → 486, the ring timeout → CANCEL; baresip's audio + VP8 call gets the device's video (a snapshot of the test pattern); the device's address replaced mid-run (kamailio and the agent in two network namespaces): the new contact in kamailio's table within 5 s, the old one gone, an OPTIONS to it answered 200; behind an nftables NAT the registrar's view (Via received/rport) is registered as the Contact, once; then baresip with mediaenc=srtp-mand (RTP/SAVP, SDES-SRTP): the same tones both ways and the device's media line naming the suite, and 488 from the device restarted with [sip] srtp = off"
    "whep|bin|WHEP: aiortc (python3-aiortc) plays intercomd run through POST /whep (201 + Location, >= 25 fps of 640x480 VP8 and Opus decoded, also through a call to the device, 401/415/400/404, 503 over call.max_viewers, DELETE and an abandoned player free the slot, intercom_whep_viewers, media on and off)"
    "clock-skew|bin|clock skew: the device 90 s ahead and the server 90 s behind (libfaketime); the call still rings, connects and is answered, and the device reports the skew"
    "viewers|bin|viewers: the caller and up to call.max_viewers view-only watchers in headless Chromium from one encoder (keyframe on join, refusal beyond the limit, CPU with 1, 2 and 4 receivers)"
    "loss|bin|WebRTC under 10 % loss for 120 s (nftables on lo) and glass-to-glass latency, the web caller in headless Chromium calling intercomd demo"
    "turn|bin|TURN: the web caller in headless Chromium calls intercomd run through coturn (TURN REST secret) while nftables blocks direct UDP between them"
    "networks|bin|networks: network namespaces (Tests/support/topology.py): the web caller in headless Chromium behind a NAT router calls intercomd run behind another, through intercom-server and coturn on a public segment: direct through endpoint-independent NATs, blocked without TURN and relayed with it through symmetric NATs, over IPv6 only, on one LAN with mDNS candidates, through an impaired link (delay, jitter, burst loss), over HTTPS, across an address change mid-call (ICE restart), and through backend partitions (during a call, half-open LiveQuery while idle)"
    "units|bin|systemd units (systemd-analyze verify + security)"
    "boot-smoke|bin|systemd boot smoke (the real units and intercomd under systemd in a container)"
    "packaging|bin|Debian packages: scripts/build-deb.sh (release, static Swift runtime), lintian, then install, run, 12 KILLs (restart lockout), upgrade, remove and purge in a clean Debian 12 booted with systemd-nspawn"
    "efficiency|bin|efficiency: intercomd run idle (30 s), in a call per named thread against the codecs' own cost (codec_floor.c, same frames, same run) and after it; RSS, context switches, binary size; a SIP audio + VP8 call from baresip against the WebRTC call (ratio ≤ 2.0x); MJPEG decode against raw TurboJPEG (mjpegbench.c, ≤ 1.10x). Uses the packaging stage's release binary when it is newer than the sources, else the build's"
    "harness|bin|hardware harness (QEMU TCG: vivid, vimc, snd-aloop, gpio-sim) smoke with intercomd probe"
    "harness-tests|tests|hardware harness: Swift tests against the kernel's gpio-sim, vivid, vimc, uvcvideo (a UVC gadget on dummy_hcd: MJPEG, YUYV, corrupt frames, unplug) and snd-aloop (GPIOSimTests, the accept-button call GPIOSimCallTests, stuck/chattering buttons and a busy LED line GPIOSimUnattendedTests, V4L2VividTests, V4L2VividMultiPlanarTests, V4L2UVCGadgetTests, ALSALoopbackTests, libcamera capture LibcameraVimcTests)"
    "harness-call|bin|hardware harness: calls end to end with all three real drivers (vivid camera, snd-aloop audio, gpio-sim accept button), then the same call filming vimc through libcamera, then a USB webcam (UVC gadget, MJPEG) unplugged and replugged mid-call"
    "fuzz|-|fuzzing (fixed budget per target)"
)

stage_names() { local entry; for entry in "${STAGES[@]}"; do echo "${entry%%|*}"; done; }
stage_field() {  # stage_field NAME FIELD(2 = needs, 3 = description)
    local entry
    for entry in "${STAGES[@]}"; do
        [ "${entry%%|*}" = "$1" ] && { echo "$entry" | cut -d'|' -f"$2"-; return; }
    done
}

usage() {
    echo "usage: scripts/test.sh [--intercomd PATH] [--server PATH] [STAGE...] | --list" >&2
    echo "stages: $(stage_names | tr '\n' ' ')" >&2
}

# ── Arguments ──────────────────────────────────────────────────────────────────────────────────────────
requested=()
intercomd_option='' server_option=''
while [ $# -gt 0 ]; do
    case $1 in
        --list)
            for name in $(stage_names); do printf '%-16s %-6s %s\n' "$name" "$(stage_field "$name" 2 | cut -d'|' -f1)" "$(stage_field "$name" 3)"; done
            exit 0 ;;
        --intercomd|--server)
            [ $# -ge 2 ] || { echo "test.sh: $1 needs a path" >&2; exit 2; }
            if [ "$1" = --intercomd ]; then intercomd_option=$2; else server_option=$2; fi
            shift 2 ;;
        --intercomd=*) intercomd_option=${1#*=}; shift ;;
        --server=*) server_option=${1#*=}; shift ;;
        -h|--help) usage; exit 0 ;;
        -*) echo "test.sh: unknown option $1" >&2; usage; exit 2 ;;
        *)
            if [ -z "$(stage_field "$1" 2)" ]; then
                echo "test.sh: unknown stage \"$1\"" >&2
                usage
                exit 2
            fi
            requested+=("$1"); shift ;;
    esac
done
selected=()
for name in $(stage_names); do
    if [ ${#requested[@]} -eq 0 ] || printf '%s\n' "${requested[@]}" | grep -Fxq "$name"; then selected+=("$name"); fi
done

logs=${TEST_LOG_DIR:-.build/test-logs}
mkdir -p "$logs"
failed=()
passed=0
passed_checks() { passed=$(( passed + ${1:-0} )); }
failed_logs=()
# failed_stage LABEL [LOG]: the summary repeats LOG's failing lines last, where a truncated CI record still shows them.
failed_stage() { failed+=("$1"); [ -z "${2:-}" ] || failed_logs+=("$2"); }
stage_times=()
stage() { echo; echo "=== $1"; }
# Runs stage NAME and notes how long it took (the summary lists them: what CI's time goes to).
timed_stage() {
    local started=$SECONDS
    "stage_${1//-/_}"
    stage_times+=("$1 $((SECONDS - started))s")
}
absolute() { case $1 in /*) echo "$1" ;; *) echo "$(pwd)/$1" ;; esac; }

summary() {
    echo
    echo "test.sh: stage times: ${stage_times[*]:-none} (total ${SECONDS}s)"
    if [ ${#failed[@]} -ne 0 ]; then
        local log
        for log in "${failed_logs[@]}"; do
            echo "test.sh: failing lines of $log:"
            grep -E "^(FAIL|not ok)| FAIL |✘|error:|Traceback" "$log" | head -n 20 | cut -c1-600
        done
        echo "test.sh: FAILED: ${failed[*]} (logs in $logs)"
        echo "tests: $passed passed, ${#failed[@]} failed"
        exit 1
    fi
    echo "test.sh: all stages passed (${selected[*]}; logs in $logs)"
    echo "tests: $passed passed, 0 failed"
    exit 0
}

# ── Binaries ───────────────────────────────────────────────────────────────────────────────────────────
# $bin: the build's bin directory (the test bundle lives there); $intercomd, $server, $dev: what the stages run.
bin=''
locate_binaries() {
    bin=$(swift build --show-bin-path 2>/dev/null)
    intercomd=$(absolute "${intercomd_option:-$bin/intercomd}")
    server=$(absolute "${server_option:-$bin/intercom-server}")
    dev=$(dirname "$intercomd")/intercom-dev
    # Every stage that runs our binaries gets the same options (Tests/support/binary-flags.sh).
    binary_flags=(--intercomd "$intercomd" --server "$server")
}
binaries_missing() {
    local need path
    for need in ${1//+/ }; do
        if [ "$need" = bin ]; then
            for path in "$intercomd" "$server" "$dev"; do [ -x "$path" ] || { echo "$path"; return 0; }; done
        elif [ "$need" = tests ]; then
            [ -d "$bin/intercomPackageTests.xctest" ] || [ -x "$bin/intercomPackageTests.xctest" ] \
                || { echo "$bin/intercomPackageTests.xctest"; return 0; }
        fi
    done
    return 1
}

# ── Stage functions ────────────────────────────────────────────────────────────────────────────────────
stage_build() {
    local start build_status warnings
    start=$(date +%s)
    echo "building everything once (a first build takes several minutes; full log: $logs/build.log)"
    swift build --build-tests > "$logs/build.log" 2>&1
    build_status=$?
    grep -E "error:|warning:|Build complete" "$logs/build.log" | grep -v "^\[" | sort -u | head -n 40
    if [ "$build_status" -ne 0 ]; then
        echo "test.sh: the build failed (see $logs/build.log)"
        failed_stage "build" "$logs/build.log"
        summary
    fi
    echo "build took $(( $(date +%s) - start )) s"
    # Our code has zero warnings. Two SwiftPM notes are about other people's files and are not ours to fix:
    # '-pthread' in libnice's pkg-config file, and unhandled files inside dependency checkouts.
    warnings=$(grep -E "^$(pwd)/(Sources|Tests)/.*warning:" "$logs/build.log" | sort -u)
    if [ -n "$warnings" ]; then
        echo "$warnings"
        echo "test.sh: compiler warnings in our sources (see above)"
        failed_stage "build (warnings)"
        summary
    fi
}

# A stage script that prints one line per check and "N passed, M failed"; counts its checks.
checks_stage() {
    local label=$1 log=$2 count
    shift 2
    if "$@" > "$logs/$log" 2>&1; then
        grep -E "^(PASS|FAIL|ok|not ok)|passed, [0-9]+ failed" "$logs/$log" | tail -n 30
        # A stage may run several scripts (browser: the web caller, then the Visits view): each summary counts.
        count=$(grep -Eo "^[0-9]+ passed, 0 failed" "$logs/$log" | grep -Eo "^[0-9]+" | awk '{ sum += $1 } END { print sum }')
        passed_checks "${count:-1}"
    else
        tail -n 40 "$logs/$log"
        failed_stage "$label" "$logs/$log"
    fi
}

stage_binary_contents() {
    checks_stage "binary contents" binary-contents.log bash Tests/binary-contents/run.sh "${binary_flags[@]}"
    grep -E "^[a-z-]+: /" "$logs/binary-contents.log"
}

run_unit_tests() {
    swift test --skip-build --skip GPIOSimTests --skip V4L2VividTests --skip V4L2VividMultiPlanarTests --skip V4L2UVCGadgetTests --skip ALSALoopbackTests \
        --skip LibcameraVimcTests \
        --skip DeviceAudioTests --skip SpokenMessageTests --skip ICEAgentHeapTests --skip PeerConnectionHeapTests \
        > "$logs/swift-test.log" 2>&1
}

stage_unit() {
    local swift_status swift_tests audio_tests xctests
    run_unit_tests
    swift_status=$?
    # The whole test process killed by a signal (no test failed: it stopped mid-run). Seen once in about a dozen
    # runs, SIGSEGV in libdispatch's _dispatch_event_loop_drain on its manager thread, the crash reported upstream
    # around Foundation's Process on Linux (these tests start processes in parallel). It is said, its log kept,
    # and the suite run once more from the start; a second crash fails the stage.
    if [ "$swift_status" -ne 0 ] && grep -q "exited with unexpected signal code" "$logs/swift-test.log"; then
        cp "$logs/swift-test.log" "$logs/swift-test-crashed.log"
        echo "NOTE the test process crashed: $(grep -o "exited with unexpected signal code [0-9]*" "$logs/swift-test.log" | head -n 1)" \
            "($(dmesg 2>/dev/null | grep -E "intercomPackage|qos|segfault" | tail -n 1 | cut -c1-160)); log kept as" \
            "$logs/swift-test-crashed.log; running the suite once more"
        run_unit_tests
        swift_status=$?
    fi
    # The agent's real-alsa-lib audio tests (DeviceAudioTests, SpokenMessageTests: file and null PCMs, real-time paced threads) run on their own:
    # next to 750 parallel tests on 2 cores they starve, and alsa-lib's global configuration is shared with the
    # Media tests that enumerate and open PCMs at the same time.
    # The ICE agent and PeerConnection heap tests measure the whole process's malloc heap, so they also run alone.
    swift test --skip-build --no-parallel --filter "DeviceAudioTests|SpokenMessageTests|ICEAgentHeapTests|PeerConnectionHeapTests" > "$logs/swift-test-audio.log" 2>&1 || swift_status=1
    grep -hE "✘|error:" "$logs/swift-test.log" "$logs/swift-test-audio.log" | head -n 40
    grep -hE "Test run with|Executed [0-9]+ tests" "$logs/swift-test.log" "$logs/swift-test-audio.log" | sort -u | tail -n 4
    if [ "$swift_status" -ne 0 ]; then failed_stage "swift test" "$logs/swift-test.log"; failed_logs+=("$logs/swift-test-audio.log"); fi
    swift_tests=$(grep -Eo "Test run with [0-9]+ tests" "$logs/swift-test.log" | grep -Eo "[0-9]+" | tail -1)
    audio_tests=$(grep -Eo "Test run with [0-9]+ tests" "$logs/swift-test-audio.log" | grep -Eo "[0-9]+" | tail -1)
    xctests=$(grep -Eo "Executed [0-9]+ tests" "$logs/swift-test.log" | grep -Eo "[0-9]+" | tail -1)
    passed_checks $(( ${swift_tests:-0} + ${audio_tests:-0} + ${xctests:-0} ))
}

# Real-browser stages: headless Chromium (Debian's chromium + chromium-driver) drives the web caller and
# plays the device's WebRTC stream. Each script prints one line per check and "N passed, M failed".
stage_browser() { checks_stage "web caller (Chromium)" browser.log bash Tests/browser/run.sh "${binary_flags[@]}"; }
stage_https() { checks_stage "HTTPS and certificate reload (Chromium)" https.log bash Tests/https/run.sh "${binary_flags[@]}"; }
stage_interop() { checks_stage "WebRTC interop (Chromium)" interop.log bash Tests/webrtc-interop/run.sh "${binary_flags[@]}" --dev "$dev"; }
stage_e2e() { checks_stage "end-to-end demo call (Chromium)" e2e.log bash Tests/e2e/run.sh "${binary_flags[@]}"; }
stage_soak() { checks_stage "soak: 200 calls (Chromium)" soak.log bash Tests/soak/run.sh "${binary_flags[@]}"; }
stage_security() { checks_stage "security (intercom-server under attack)" security.log bash Tests/security/run.sh "${binary_flags[@]}"; }
stage_two_devices() { checks_stage "two intercomd devices" two-devices.log bash Tests/two-devices/run.sh "${binary_flags[@]}"; }
stage_livequery_outage() { checks_stage "LiveQuery outage (nftables)" livequery-outage.log bash Tests/livequery-outage/run.sh "${binary_flags[@]}"; }
stage_mqtt() { checks_stage "MQTT and Home Assistant discovery (mosquitto)" mqtt.log bash Tests/mqtt/run.sh "${binary_flags[@]}"; }
# The fleet, then IntercomServerTests from the build's test bundle on the same PostgreSQL cluster.
stage_postgres() {
    INTERCOM_TEST_BUNDLE="$bin/intercomPackageTests.xctest" TEST_LOG_DIR=$(absolute "$logs") \
        checks_stage "PostgreSQL fleet behind nginx, IntercomServerTests on PostgreSQL" postgres.log bash Tests/postgres/run.sh "${binary_flags[@]}"
}
stage_sip() { checks_stage "SIP registration and calls (kamailio, SIPp)" sip.log bash Tests/sip/run.sh "${binary_flags[@]}"; }
stage_whep() { checks_stage "WHEP (aiortc)" whep.log bash Tests/whep/run.sh "${binary_flags[@]}"; }
stage_clock_skew() { checks_stage "clock skew (libfaketime)" clock-skew.log bash Tests/clock-skew/run.sh "${binary_flags[@]}"; }
stage_viewers() { checks_stage "viewers (Chromium)" viewers.log bash Tests/viewers/run.sh "${binary_flags[@]}"; }
stage_loss() { checks_stage "loss and latency (Chromium)" loss.log bash Tests/loss/run.sh "${binary_flags[@]}"; }
stage_efficiency() {
    # Figures mean something for the binary that ships: the release build with the static Swift runtime that
    # the packaging stage (scripts/build-deb.sh) made in this run. Without one as new as the sources, the
    # build's binary is measured, and the figures say which.
    local release flags=("${binary_flags[@]}")
    release=$(swift build -c release --static-swift-stdlib --show-bin-path 2>/dev/null)/intercomd
    if [ -z "$intercomd_option" ] && [ -x "$release" ] && [ -z "$(find Sources Package.swift -newer "$release" -type f | head -n 1)" ]; then
        flags=(--intercomd "$release" --server "$server")
    fi
    checks_stage "efficiency (idle, in call, after)" efficiency.log bash Tests/efficiency/run.sh "${flags[@]}"
    grep -E "^EFFICIENCY " "$logs/efficiency.log"
    checks_stage "MJPEG decode against raw TurboJPEG" mjpeg-decode.log sh Tests/efficiency/mjpeg-decode.sh "${flags[1]}" .build/mjpeg-bench
    grep -E "^EFFICIENCY " "$logs/mjpeg-decode.log"
}
stage_turn() { checks_stage "TURN through coturn (Chromium)" turn.log bash Tests/turn/run.sh "${binary_flags[@]}"; }
stage_networks() { checks_stage "networks (namespaces, NAT, TURN, IPv6)" networks.log bash Tests/networks/run.sh "${binary_flags[@]}"; }

stage_units() {
    if bash Tests/systemd/check-units.sh "$intercomd" "$server" 2>&1 | tee "$logs/units.log"; then
        passed_checks 1
    else
        failed_stage "systemd units" "$logs/units.log"
    fi
}

stage_boot_smoke() {
    if bash Tests/systemd/boot-smoke.sh "$intercomd" 2>&1 | tee "$logs/boot-smoke.log"; then
        passed_checks 1
    else
        failed_stage "systemd boot smoke" "$logs/boot-smoke.log"
    fi
}

stage_packaging() {
    checks_stage "Debian packages" packaging.log bash Tests/packaging/run.sh "${binary_flags[@]}"
    grep -E "^(figure|---|build-deb.sh:|packaging test took)" "$logs/packaging.log"
}

stage_harness() {
    if bash Tests/hardware/harness.sh build 2>&1 | tail -n 5 && bash Tests/hardware/harness.sh smoke "$intercomd" 2>&1 | tee "$logs/harness.log"; then
        passed_checks 1
    else
        failed_stage "hardware harness smoke" "$logs/harness.log"
    fi
}

stage_harness_tests() {
    local gpio_status gpio_tests
    # One suite at a time: in the 2-vCPU TCG guest the call test's in-process server would starve vivid's frame-rate test.
    bash Tests/hardware/harness.sh run -t 720 -- "$bin/intercomPackageTests.xctest" --testing-library swift-testing \
        --no-parallel --filter "GPIOSimTests|GPIOSimCallTests|V4L2VividTests|V4L2VividMultiPlanarTests|V4L2UVCGadgetTests|ALSALoopbackTests|LibcameraVimcTests" \
        > "$logs/harness-gpio.log" 2>&1
    gpio_status=$?
    grep -E "✘|✔ Test |Test run|error" "$logs/harness-gpio.log" || true
    if [ "$gpio_status" -eq 0 ] && grep -q "Test run with [1-9][0-9]* tests.* passed" "$logs/harness-gpio.log"; then
        gpio_tests=$(grep -Eo "Test run with [0-9]+ tests" "$logs/harness-gpio.log" | grep -Eo "[0-9]+" | tail -1)
        passed_checks "${gpio_tests:-0}"
    else
        failed_stage "gpio-sim and vivid tests" "$logs/harness-gpio.log"
    fi
}

stage_harness_call() {
    # Three calls in one guest boot: vivid through V4L2, vimc through libcamera, and the UVC gadget in MJPEG unplugged and replugged mid-call.
    if INTERCOM_HARNESS_TIMEOUT=${INTERCOM_HARNESS_TIMEOUT:-720} bash Tests/hardware/harness.sh call-e2e --camera all "${binary_flags[@]}" > "$logs/harness-call.log" 2>&1; then
        grep -E "^(PASS|FAIL)|^received|^call-e2e: (camera|the)|^(before the unplug|unplugged|replugged|after the replug):" "$logs/harness-call.log"
        passed_checks "$(grep -c "^PASS" "$logs/harness-call.log")"
    else
        tail -n 40 "$logs/harness-call.log"
        failed_stage "harness end-to-end call" "$logs/harness-call.log"
    fi
}

stage_fuzz() {
    if bash Tests/fuzz/run-fuzzers.sh 2>&1 | tee "$logs/fuzz.log"; then
        passed_checks 1
    else
        failed_stage "fuzzing" "$logs/fuzz.log"
    fi
}

# ── Run ────────────────────────────────────────────────────────────────────────────────────────────────
needs_build=0
for name in "${selected[@]}"; do [ "$name" = build ] && needs_build=1; done
if [ "$needs_build" -eq 0 ]; then
    for name in "${selected[@]}"; do
        needs=$(stage_field "$name" 2 | cut -d'|' -f1)
        [ "$needs" = - ] && continue
        [ -n "$bin" ] || locate_binaries
        if missing=$(binaries_missing "$needs"); then
            echo "test.sh: stage $name needs $missing, which is missing: building first"
            needs_build=1
            break
        fi
    done
fi
if [ "$needs_build" -eq 1 ]; then
    stage "build: $(stage_field build 3)"
    timed_stage build
fi
[ -n "$bin" ] || locate_binaries
for name in "${selected[@]}"; do
    [ "$name" = build ] && continue
    stage "$name: $(stage_field "$name" 3)"
    timed_stage "$name"
done
summary
