#!/usr/bin/env bash
# Builds the libFuzzer targets in FuzzTesting/ (debug, -sanitize=fuzzer,address) and runs each for a fixed
# budget, after replaying its committed reproducers (FuzzTesting/Regressions/<Target>/). Exits non-zero when
# a fuzzer finds a crash, leak, timeout or OOM, or a reproducer fails again (reliability-test-matrix §(c)).
#
# Usage: Tests/fuzz/run-fuzzers.sh [Target ...]     (default: every target below)
# Env:   FUZZ_SECONDS      budget per target in seconds (default 15)
#        FUZZ_ARTIFACTS    where failing inputs are kept (default FuzzTesting/.build/fuzz-artifacts)
#        FUZZ_SKIP_BUILD=1 reuse the binaries of an earlier build
#        FUZZ_JOBS         targets fuzzed at once (default: the number of cores)
# The repo is never written to outside FuzzTesting/.build: each run fuzzes a temporary copy of the seeds.
set -euo pipefail

readonly ALL_TARGETS=(FuzzTOML FuzzConfig FuzzSDP FuzzRTP FuzzRTCP FuzzVP8 FuzzOpus FuzzParseWire FuzzJPEG FuzzSIP FuzzMQTT FuzzTelephoneEvent FuzzMDNS)
REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
readonly REPO_ROOT
readonly FUZZ_DIR="$REPO_ROOT/FuzzTesting"
readonly SCRATCH="$FUZZ_DIR/.build"
readonly BIN_DIR="$SCRATCH/debug"
readonly SECONDS_PER_TARGET="${FUZZ_SECONDS:-15}"
readonly ARTIFACTS="${FUZZ_ARTIFACTS:-$SCRATCH/fuzz-artifacts}"
# Per input: 2 s is a hang, 512 MB an OOM; 64 KiB is the SDP parser's (and the SIP parser's) own input limit.
readonly LIBFUZZER_LIMITS=(-rss_limit_mb=512 -timeout=2 -max_len=65536)
# swift-backtrace can hang for minutes after a crash and hold the output pipe (reliability-test-matrix §0).
export SWIFT_BACKTRACE=enable=no
# ASan's default 256 MB free-quarantine alone plateaus a fuzzer at ~500 MB RSS (measured: FuzzOpus, 498 MB), so
# -rss_limit_mb=512 would report false OOMs; 64 MB keeps use-after-free detection and plateaus near 170 MB.
# Options the caller sets come later and win.
export ASAN_OPTIONS="quarantine_size_mb=64${ASAN_OPTIONS:+:$ASAN_OPTIONS}"

die() {
    echo "run-fuzzers: $*" >&2
    exit 2
}

# ── Toolchain: swift, and clang's fuzzer and address-sanitizer runtimes ──────────────────────────────
check_toolchain() {
    local swift clang resource arch runtime found
    swift="$(command -v swift)" || die "missing tool: 'swift' is not on PATH (Swift 6 toolchain, e.g. /opt/swift/usr/bin)"
    # swiftc links through the clang beside it; its resource directory holds the sanitizer runtimes.
    clang="$(dirname "$(readlink -f "$swift")")/clang"
    [[ -x "$clang" ]] || clang="$(command -v clang)" ||
        die "missing tool: 'clang' (the Swift toolchain's clang links libFuzzer and ASan)"
    resource="$("$clang" -print-resource-dir)" || die "missing tool: '$clang -print-resource-dir' failed"
    arch="$(uname -m)"
    for runtime in fuzzer asan; do
        found="$(find "$resource/lib" \( -name "libclang_rt.$runtime-$arch.a" -o -name "libclang_rt.$runtime.a" \) \
            -print -quit 2>/dev/null)"
        [[ -n "$found" ]] || die "missing sanitizer runtime: libclang_rt.$runtime for $arch under $resource/lib" \
            "(a Swift toolchain from swift.org ships it; Xcode's does not)"
    done
    command -v timeout >/dev/null || die "missing tool: 'timeout' (coreutils)"
}

# ── Build ────────────────────────────────────────────────────────────────────────────────────────────
build() {
    local log="$SCRATCH/fuzz-build.log" started=$SECONDS
    mkdir -p "$SCRATCH"
    echo "== building fuzzers (debug, -sanitize=fuzzer,address) in ${SCRATCH#"$REPO_ROOT"/}"
    if ! (cd "$FUZZ_DIR" && swift build -c debug --scratch-path "$SCRATCH" \
        -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library) >"$log" 2>&1; then
        # gold's "Cannot export local symbol '__asan_…'" warnings are harmless noise.
        grep -v "Cannot export local symbol" "$log" | tail -n 40 >&2
        die "build failed (full log: $log)"
    fi
    BUILD_TIME=$((SECONDS - started))
    echo "   built in ${BUILD_TIME}s"
}

# ── One target ───────────────────────────────────────────────────────────────────────────────────────
# Prints where a failing run's report starts and the lines after it.
print_report() {
    local log="$1" first
    first="$(grep -n -m1 -E "^==[0-9]+==|Fatal error:|fuzz property violated|ERROR: libFuzzer|ALARM: working on" \
        "$log" | cut -d: -f1 || true)"
    sed -n "${first:-1},$((${first:-1} + 24))p" "$log" | sed 's/^/   | /'
}

# Copies libFuzzer's crash-/leak-/timeout-/oom- files out of the temporary directory and names them.
keep_artifacts() {
    local target="$1" work="$2" file kept=0
    mkdir -p "$ARTIFACTS/$target"
    for file in "$work"/artifacts/{crash,leak,timeout,oom}-*; do
        [[ -e "$file" ]] || continue
        cp "$file" "$ARTIFACTS/$target/"
        echo "   reproducer: $ARTIFACTS/$target/$(basename "$file")"
        echo "   reproduce:  SWIFT_BACKTRACE=enable=no $BIN_DIR/$target $ARTIFACTS/$target/$(basename "$file")"
        kept=$((kept + 1))
    done
    ((kept > 0)) || echo "   (libFuzzer wrote no reproducer; see the report)"
}

# The value of `stat::<name>` from -print_final_stats=1, or "?".
final_stat() {
    local value
    value="$(grep -m1 "^stat::$2:" "$1" | awk '{print $2}' || true)"
    echo "${value:-?}"
}

# "cov: N ft: M corp: K" of the last status line libFuzzer printed.
coverage_line() {
    local line
    line="$(grep -E "^#[0-9]+.*cov: [0-9]+" "$1" | tail -n1 || true)"
    [[ -n "$line" ]] || { echo "cov=? ft=? corpus=?"; return; }
    echo "$line" | sed -E 's/.* cov: ([0-9]+) ft: ([0-9]+) corp: ([0-9]+\/[^ ]+).*/cov=\1 ft=\2 corpus=\3/'
}

# Replays committed reproducers: each must now run clean.
replay_regressions() {
    local target="$1" work="$2" files=()
    mapfile -t files < <(find "$FUZZ_DIR/Regressions/$target" -type f ! -name .gitkeep 2>/dev/null | sort)
    ((${#files[@]} > 0)) || return 0
    if timeout --kill-after=10 120 "$BIN_DIR/$target" "${LIBFUZZER_LIMITS[@]}" "${files[@]}" >"$work/regressions.log" 2>&1; then
        echo "   ${#files[@]} reproducer(s) in Regressions/$target run clean"
        return 0
    fi
    echo "   FAIL: a committed reproducer in Regressions/$target fails again:" \
        "$(grep "^Running: " "$work/regressions.log" | tail -n1 | cut -d' ' -f2-)"
    print_report "$work/regressions.log"
    mkdir -p "$ARTIFACTS/$target"
    cp "$work/regressions.log" "$ARTIFACTS/$target/regressions.log"
    echo "   full log: $ARTIFACTS/$target/regressions.log"
    return 1
}

# Fuzzes a temporary copy of the seeds for the budget; adds a summary line to RESULTS.
fuzz_target() {
    local target="$1" work status=0 seeds
    work="$(mktemp -d "${TMPDIR:-/tmp}/fuzz-$target.XXXXXX")"
    WORK_DIRS+=("$work")
    mkdir -p "$work/corpus" "$work/artifacts"
    seeds=0
    if [[ -d "$FUZZ_DIR/Corpus/$target" ]]; then
        cp -R "$FUZZ_DIR/Corpus/$target/." "$work/corpus/"
        seeds="$(find "$work/corpus" -type f | wc -l)"
    fi
    [[ -x "$BIN_DIR/$target" ]] || die "no binary $BIN_DIR/$target (build failed or unknown target)"
    rm -rf "${ARTIFACTS:?}/$target"  # only this target's reproducers from an earlier run

    echo "== $target: ${SECONDS_PER_TARGET}s from $seeds seed(s)"
    if ! replay_regressions "$target" "$work"; then
        RESULTS+=("$(printf '%-11s FAIL  committed reproducer fails' "$target")")
        FAILED=1
        return
    fi
    # cd: libFuzzer may write files into the working directory; keep them out of the repo.
    (cd "$work" && timeout --kill-after=10 $((SECONDS_PER_TARGET + 60)) "$BIN_DIR/$target" \
        -max_total_time="$SECONDS_PER_TARGET" "${LIBFUZZER_LIMITS[@]}" -print_final_stats=1 \
        -artifact_prefix="$work/artifacts/" "$work/corpus") >"$work/fuzz.log" 2>&1 || status=$?

    local execs rate rss cov verdict
    execs="$(final_stat "$work/fuzz.log" number_of_executed_units)"
    rate="$(final_stat "$work/fuzz.log" average_exec_per_sec)"
    rss="$(final_stat "$work/fuzz.log" peak_rss_mb)"
    cov="$(coverage_line "$work/fuzz.log")"
    if ((status == 0)) && ! compgen -G "$work/artifacts/*-*" >/dev/null; then
        verdict=PASS
    else
        verdict=FAIL
        FAILED=1
        ((status == 124 || status == 137)) && echo "   FAIL: the fuzzer did not stop after its budget (killed)"
        echo "   FAIL: exit status $status; report:"
        print_report "$work/fuzz.log"
        keep_artifacts "$target" "$work"
        cp "$work/fuzz.log" "$ARTIFACTS/$target/fuzz.log"
        echo "   full log: $ARTIFACTS/$target/fuzz.log"
    fi
    RESULTS+=("$(printf '%-11s %s  execs=%s (%s/s)  %s  peak_rss=%sMB' "$target" "$verdict" "$execs" "$rate" "$cov" "$rss")")
    echo "   ${RESULTS[-1]}"
}

# shellcheck disable=SC2317  # called by the EXIT trap
cleanup() {
    local dir
    for dir in "${WORK_DIRS[@]}"; do rm -rf "$dir"; done
}

# Runs fuzz_target for each target, FUZZ_JOBS at a time (default: one per core); a line when each starts,
# then every report whole, in the targets' order.
run_targets() {
    local jobs="${FUZZ_JOBS:-$(nproc)}" out target i
    local targets=("$@")
    [[ "$jobs" =~ ^[1-9][0-9]*$ ]] || die "FUZZ_JOBS must be a positive whole number, got '$jobs'"
    out="$(mktemp -d "${TMPDIR:-/tmp}/fuzz-reports.XXXXXX")"
    WORK_DIRS+=("$out")
    echo "== fuzzing ${#targets[@]} target(s), $jobs at a time"
    for i in "${!targets[@]}"; do
        target="${targets[$i]}"
        while (($(jobs -rp | wc -l) >= jobs)); do wait -n || true; done
        echo "   started $target ($((SECONDS - started))s)"
        # A subshell per target: its RESULTS, FAILED and work directories are its own (and the EXIT trap is
        # reset there, so it cleans up itself).
        (
            RESULTS=()
            FAILED=0
            WORK_DIRS=()
            fuzz_target "$target" >"$out/$i.log" 2>&1 || FAILED=1
            printf '%s\n' "${RESULTS[@]}" >"$out/$i.result"
            echo "$FAILED" >"$out/$i.failed"
            cleanup
        ) &
    done
    wait
    for i in "${!targets[@]}"; do
        cat "$out/$i.log"
        if [[ -s "$out/$i.result" ]]; then
            RESULTS+=("$(cat "$out/$i.result")")
        else
            RESULTS+=("$(printf '%-11s FAIL  no result (the run stopped early; its report is above)' "${targets[$i]}")")
        fi
        [[ "$(cat "$out/$i.failed" 2>/dev/null)" == 0 ]] || FAILED=1
    done
}

main() {
    local targets=("$@") target started
    ((${#targets[@]} > 0)) || targets=("${ALL_TARGETS[@]}")
    [[ "$SECONDS_PER_TARGET" =~ ^[1-9][0-9]*$ ]] || die "FUZZ_SECONDS must be a positive whole number, got '$SECONDS_PER_TARGET'"
    WORK_DIRS=()
    RESULTS=()
    FAILED=0
    BUILD_TIME=0
    trap cleanup EXIT

    check_toolchain
    if [[ "${FUZZ_SKIP_BUILD:-0}" == 1 ]]; then echo "== build skipped (FUZZ_SKIP_BUILD=1)"; else build; fi
    started=$SECONDS
    run_targets "${targets[@]}"

    echo
    echo "== summary (build ${BUILD_TIME}s, fuzzing $((SECONDS - started))s, ${SECONDS_PER_TARGET}s per target)"
    printf '   %s\n' "${RESULTS[@]}"
    if ((FAILED)); then
        echo "== FAIL: reproducers and logs are in $ARTIFACTS" >&2
        exit 1
    fi
    echo "== PASS"
}

# `; exit` on the same line: bash reads a script while running it, so an edit mid-run cannot add commands.
main "$@"; exit
