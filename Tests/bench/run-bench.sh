#!/usr/bin/env bash
# Builds intercomd (release) and the raw C baselines, writes the test clips, and runs `intercomd bench`,
# which alternates raw libvpx/libopus with our pipeline and prints every command line and a final table.
# Usage: Tests/bench/run-bench.sh [extra `intercomd bench` options, e.g. --repeats 5]
# Environment: SCRATCH (SwiftPM scratch path, default .build-bench), WORK (clips and baselines, default
# /tmp/intercom-bench), BENCH_SOURCES (directory holding vp8bench.c/opusbench.c, default ../shared/bench).
set -euo pipefail

repo="$(cd "$(dirname "$0")/../.." && pwd)"
scratch="${SCRATCH:-$repo/.build-bench}"
work="${WORK:-/tmp/intercom-bench}"
sources="${BENCH_SOURCES:-$repo/../shared/bench}"
mkdir -p "$work"

run() { echo "+ $*" >&2; "$@"; }

# Release only: debug figures mean nothing.
run swift build -c release --package-path "$repo" --scratch-path "$scratch" --product intercomd
intercomd="$scratch/release/intercomd"

# The raw baselines, exactly as their headers say (gcc -O2).
run gcc -O2 -o "$work/vp8bench" "$sources/vp8bench.c" $(pkg-config --cflags --libs vpx) -lm
run gcc -O2 -o "$work/opusbench" "$sources/opusbench.c" $(pkg-config --cflags --libs opus) -lm

# The clips both sides encode (test pattern Y4M at each size, 60 s speech-like WAV).
run "$intercomd" bench --clip-directory "$work" --write-clips "$@"

run "$intercomd" bench --clip-directory "$work" --vp8bench "$work/vp8bench" --opusbench "$work/opusbench" "$@" \
    | tee "$work/bench-report.txt"
echo "report: $work/bench-report.txt" >&2
