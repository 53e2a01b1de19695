#!/bin/sh
# End-to-end: the web caller in headless Chromium calls `intercomd demo` (embedded server + device agent):
# auto answer with test-pattern video, hang up, a 10-call first-frame benchmark, and `--answer button` ringing.
# Usage: Tests/e2e/run.sh [path/to/intercomd]
# The binary comes from the argument, else $INTERCOMD_BIN, else .build/debug/intercomd (build: swift build).
# Needs python3, /usr/bin/chromium and /usr/bin/chromedriver (Debian: apt-get install chromium chromium-driver).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
. "$here/../support/require-python3.sh"
intercomd=${1:-${INTERCOMD_BIN:-$repo/.build/debug/intercomd}}
case $intercomd in /*) ;; *) intercomd=$(pwd)/$intercomd ;; esac
exec python3 "$here/demo_call_test.py" "$intercomd"
