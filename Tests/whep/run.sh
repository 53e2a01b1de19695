#!/bin/sh
# WHEP end to end: aiortc (Debian's python3-aiortc) plays intercomd run's camera and microphone through
# POST /whep; see whep_test.py. Needs python3 with aiortc (scripts/debian-packages.txt): a missing one is a
# failed check that says so, never a skip.
# Usage: Tests/whep/run.sh [--server BIN] [--intercomd BIN]
# Binaries: Tests/support/binary-flags.sh.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
. "$here/../support/require-python3.sh"
. "$here/../support/binary-flags.sh"
# Debian's python3-aiortc lives in the system python3's dist-packages: a python3 earlier in PATH (a pyenv, a
# venv) may not see it, so the system one is tried too.
python=''
for candidate in python3 /usr/bin/python3; do
    if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -c 'import aiortc' >/dev/null 2>&1; then
        python=$candidate
        break
    fi
done
if [ -z "$python" ]; then
    echo "FAIL prerequisites — aiortc is not importable by python3 or /usr/bin/python3 (apt-get install python3-aiortc)"
    echo "0 passed, 1 failed"
    exit 1
fi
exec "$python" "$here/whep_test.py" --server "$server" --intercomd "$intercomd" "$@"
