#!/bin/sh
# Viewers: one intercomd run streams a call to the caller and up to `call.max_viewers` view-only watchers
# (viewerToken), all headless Chromium clients, from one encoder; BENCH lines for the device's CPU with 1, 2
# and 4 Chromium receivers. See viewers_test.py for the checks and the environment (VIEWERS_KEEP…).
# Stays on the host, not on Tests/support/topology.py: its BENCH lines measure the device's CPU per receiver, which
# a namespace's forwarding would add to; the path to each viewer is the same as the caller's (networks).
# Usage: Tests/viewers/run.sh [--server BIN] [--intercomd BIN]
# Binaries: Tests/support/binary-flags.sh (the options, else $INTERCOM_SERVER_BIN / $INTERCOMD_BIN,
# else .build/debug/{intercom-server,intercomd}).
# Needs python3, /usr/bin/chromium and /usr/bin/chromedriver; a missing one is a failure, never a skip.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
. "$here/../support/require-python3.sh"
. "$here/../support/binary-flags.sh"
exec python3 "$here/viewers_test.py" --server "$server" --intercomd "$intercomd" "$@"
