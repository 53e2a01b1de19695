#!/bin/sh
# What the device binary links: `intercomd` runs on the device and must carry none of the backend — no
# IntercomServer, GRDB, JWTKit or HummingbirdTLS (the server's TLS listener) code and no libsqlite3 of its own
# (issue #15). NIOSSL itself is in both: the agent's async-http-client and WebSocket client are TLS clients.
# Reads the binaries' symbol tables (nm) and the libraries they link directly (readelf -d: NEEDED). `ldd` also lists what system
# libraries load in turn: on Debian 12 libnice → libgupnp-igd → libsoup-3.0 loads libsqlite3 into intercomd,
# which is the system libnice's business, not a link of ours; the check says so when it sees it.
# The same checks run on `intercom-server`, where every one of them must find what it looks for: a check that
# cannot find GRDB in the server proves nothing about intercomd, so that is a failure too.
# Usage: Tests/binary-contents/run.sh [--intercomd BIN] [--server BIN]
# Binaries: Tests/support/binary-flags.sh (the options, else $INTERCOMD_BIN / $INTERCOM_SERVER_BIN, else
# .build/debug/{intercomd,intercom-server}). Needs nm and readelf (binutils) and ldd (libc-bin).
# Prints one PASS/FAIL line per check and a final `N passed, M failed`; exits non-zero on any failure.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
. "$here/../support/binary-flags.sh"

passed=0
failed=0
check() {  # check NAME COMMAND...: PASS when COMMAND succeeds
    name=$1
    shift
    if "$@"; then echo "PASS $name"; passed=$((passed + 1)); else echo "FAIL $name"; failed=$((failed + 1)); fi
}

# Swift symbols name their module length-prefixed in the mangling: `$s4GRDB8DatabaseC…`, `…6JWTKit…`,
# `…14IntercomServer…`. A digit before the count would make it another name (`14GRDB…` is not `4GRDB`).
modules="GRDB JWTKit IntercomServer HummingbirdTLS"
module_pattern() { printf '(^|[^0-9])%s%s' "${#1}" "$1"; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
inspect() {  # inspect LABEL BINARY: writes LABEL.symbols, LABEL.needed (direct) and LABEL.libraries (ldd)
    if [ ! -x "$2" ]; then
        echo "FAIL $1: $2 is not an executable file (build: swift build)"
        failed=$((failed + 1))
        return 1
    fi
    nm "$2" > "$work/$1.symbols" 2> "$work/$1.nm-errors" || true
    nm -D "$2" >> "$work/$1.symbols" 2>/dev/null || true
    readelf -d "$2" 2>/dev/null | grep '(NEEDED)' > "$work/$1.needed" || true
    ldd "$2" > "$work/$1.libraries" 2>&1 || true
    echo "$1: $2 ($(wc -l < "$work/$1.symbols") symbols; links $(wc -l < "$work/$1.needed") libraries directly," \
        "$(grep -c '=>' "$work/$1.libraries") in all)"
}
has_module() { grep -Eq "$(module_pattern "$2")" "$work/$1.symbols"; }
lacks_module() { ! has_module "$@"; }
links_sqlite() { grep -q 'libsqlite3' "$work/$1.needed" || grep -Eq ' [UTW] sqlite3_open' "$work/$1.symbols"; }
lacks_sqlite() { ! links_sqlite "$1"; }
has_swift_symbols() { grep -q ' \$s' "$work/$1.symbols"; }

if inspect intercom-server "$server"; then
    check "intercom-server: its symbol table has Swift symbols (not stripped)" has_swift_symbols intercom-server
    for module in $modules; do
        check "intercom-server: the check finds $module symbols (the check can fail)" has_module intercom-server "$module"
    done
    check "intercom-server: the check finds libsqlite3 (the check can fail)" links_sqlite intercom-server
fi
if inspect intercomd "$intercomd"; then
    check "intercomd: its symbol table has Swift symbols (not stripped)" has_swift_symbols intercomd
    for module in $modules; do
        check "intercomd: no $module symbols" lacks_module intercomd "$module"
        if has_module intercomd "$module"; then
            grep -E "$(module_pattern "$module")" "$work/intercomd.symbols" | head -n 3 | sed 's/^/    e.g. /'
        fi
    done
    check "intercomd: no libsqlite3 (not linked, no sqlite3_* symbols)" lacks_sqlite intercomd
    if grep -q libsqlite3 "$work/intercomd.libraries"; then
        for library in $(awk '/=>/ { print $3 }' "$work/intercomd.libraries"); do
            if readelf -d "$library" 2>/dev/null | grep '(NEEDED)' | grep -q libsqlite3; then
                echo "    note: libsqlite3 is loaded in turn by the system's $(basename "$library"), not linked by intercomd"
            fi
        done
    fi
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
