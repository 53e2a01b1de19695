#!/bin/sh
# A device whose clock runs 90 s ahead and a backend whose clock runs 90 s behind (libfaketime): calls still
# ring and are answered, and the device reports the skew. See clock_skew_test.py.
# Usage: Tests/clock-skew/run.sh [--server BIN] [--intercomd BIN]
# Binaries: Tests/support/binary-flags.sh.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
. "$here/../support/require-python3.sh"
. "$here/../support/binary-flags.sh"
exec python3 "$here/clock_skew_test.py" --server "$server" --intercomd "$intercomd" "$@"
