#!/usr/bin/env bash
# Prints the URI apt on this machine uses for a Debian suite, read from apt's own sources at run time
# (deb822 /etc/apt/sources.list.d/*.sources, then one-line /etc/apt/sources.list and *.list), so no
# mirror is ever written into the repository.
#   Tests/packaging/debian-mirror.sh [SUITE]     (default bookworm; e.g. bookworm-security)
# Exit status 1, with a message, when no enabled "deb" source for SUITE with component main exists.
set -uo pipefail
suite=${1:-bookworm}

deb822_uri() {  # the first URI of an enabled deb stanza listing $suite and main
    awk -v suite="$suite" '
        BEGIN { RS = ""; FS = "\n" }
        {
            types = ""; uris = ""; suites = ""; components = ""; enabled = "yes"
            for (i = 1; i <= NF; i++) {
                if ($i ~ /^[ \t]*#/) continue
                split($i, kv, ":"); key = tolower(kv[1]); value = substr($i, length(kv[1]) + 2)
                gsub(/^[ \t]+|[ \t]+$/, "", value)
                if (key == "types") types = value
                else if (key == "uris") uris = value
                else if (key == "suites") suites = value
                else if (key == "components") components = value
                else if (key == "enabled") enabled = tolower(value)
            }
            if (enabled == "no" || (" " types " ") !~ / deb / || (" " suites " ") !~ (" " suite " ") || (" " components " ") !~ / main /) next
            split(uris, first, /[ \t]+/); print first[1]; exit
        }' "$@"
}

one_line_uri() {  # deb [options] URI SUITE COMPONENT...
    awk -v suite="$suite" '
        $1 == "deb" {
            i = 2
            if ($i ~ /^\[/) { while ($i !~ /\]$/) i++; i++ }
            if ($(i + 1) != suite) next
            for (j = i + 2; j <= NF; j++) if ($j == "main") { print $i; exit }
        }' "$@"
}

uri=''
shopt -s nullglob
sources=(/etc/apt/sources.list.d/*.sources)
lists=(/etc/apt/sources.list /etc/apt/sources.list.d/*.list)
[ ${#sources[@]} -gt 0 ] && uri=$(deb822_uri "${sources[@]}" | head -n 1)
if [ -z "$uri" ]; then
    existing=()
    for file in "${lists[@]}"; do [ -f "$file" ] && existing+=("$file"); done
    [ ${#existing[@]} -gt 0 ] && uri=$(one_line_uri "${existing[@]}" | head -n 1)
fi
if [ -z "$uri" ]; then
    echo "debian-mirror.sh: apt has no enabled 'deb' source for $suite main (looked in /etc/apt/sources.list and /etc/apt/sources.list.d/)" >&2
    exit 1
fi
printf '%s\n' "$uri"
