#!/bin/sh
# Security (issue #14): a real intercom-server attacked over real sockets — viewer roles in the signaling relay,
# LiveQuery after logout, signalURL vs. Host, malformed HTTP and timeouts, descriptor exhaustion and the
# connection cap, query cost limits, the master key and rate limits behind a proxy. See security_test.py.
# Usage: Tests/security/run.sh [--server BIN] [--intercomd BIN]   (binaries: Tests/support/binary-flags.sh;
# only the server is attacked)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
. "$here/../support/require-python3.sh"
. "$here/../support/binary-flags.sh"
exec python3 "$here/security_test.py" --server "$server" "$@"
