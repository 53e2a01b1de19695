# Sourced by the run.sh of every Python test stage: a machine without python3 is a failed stage that says why,
# never a skipped one.
if ! command -v python3 >/dev/null 2>&1; then
    echo "FAIL prerequisites — python3 is not installed" >&2
    echo "0 passed, 1 failed"
    exit 1
fi
