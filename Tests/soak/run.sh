#!/bin/sh
# Soak + first-frame benchmark: the web caller in headless Chromium places 200 calls back to back to one
# `intercomd run` (its own process, against its own intercom-server); BENCH lines for row created → first
# decoded frame over the first 50 calls, SOAK lines for the agent's RSS and open fds after a 20-call warm-up
# and after the last call. See soak_test.py for the checks and the environment (SOAK_CALLS, SOAK_KEEP…).
# Usage: Tests/soak/run.sh [--server BIN] [--intercomd BIN]
# Binaries: Tests/support/binary-flags.sh (the options, else $INTERCOM_SERVER_BIN / $INTERCOMD_BIN,
# else .build/debug/{intercom-server,intercomd})
# (build: swift build). Needs python3, /usr/bin/chromium and /usr/bin/chromedriver (Debian: apt-get install
# chromium chromium-driver); a missing one is a failure, never a skip.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
. "$here/../support/require-python3.sh"
. "$here/../support/binary-flags.sh"
exec python3 "$here/soak_test.py" --server "$server" --intercomd "$intercomd" "$@"
