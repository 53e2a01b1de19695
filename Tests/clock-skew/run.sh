#!/bin/sh
# A device whose clock runs 90 s ahead and a backend whose clock runs 90 s behind (libfaketime): calls still
# ring and are answered, and the device reports the skew. See clock_skew_test.py.
# Usage: Tests/clock-skew/run.sh [--server BIN] [--intercomd BIN]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../support/require-python3.sh"
exec python3 "$here/clock_skew_test.py" "$@"
