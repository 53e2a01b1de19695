#!/bin/sh
# MJPEG decode cost (issue 16): `intercomd bench --only mjpeg` decodes a webcam-like 4:2:2 MJPEG clip at
# 640x480 and 1280x720 with our JPEGDecoder, alternating with the raw TurboJPEG baseline
# (Tests/bench/mjpegbench.c, cc -O2) doing the same work in C. Passes when ours costs at most 1.10x the raw
# figure, best pass against best pass (interference only adds CPU time). Run it with the release binary: a
# debug build's Swift loops are several times slower.
# Usage: Tests/efficiency/mjpeg-decode.sh INTERCOMD [WORK_DIR]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
intercomd=$1
work=${2:-$(mktemp -d "${TMPDIR:-/tmp}/mjpeg-bench.XXXXXX")}
limit=1.10
command -v cc >/dev/null || { echo "FAIL missing tool: cc (gcc) builds the raw TurboJPEG baseline"; exit 1; }
pkg-config --exists libturbojpeg || { echo "FAIL missing package: libturbojpeg0-dev (pkg-config libturbojpeg)"; exit 1; }
mkdir -p "$work"
# shellcheck disable=SC2046 # pkg-config flags are separate words
cc -O2 -o "$work/mjpegbench" "$here/../bench/mjpegbench.c" $(pkg-config --cflags --libs libturbojpeg)
"$intercomd" bench --only mjpeg --mjpegbench "$work/mjpegbench" --clip-directory "$work" --repeats 7 > "$work/report.txt" 2>&1 \
    || { cat "$work/report.txt"; echo "FAIL intercomd bench --only mjpeg"; exit 1; }
cat "$work/report.txt"
failed=0
for size in 640x480 1280x720; do
    line=$(grep "^MJPEG decode $size:" "$work/report.txt" || true)
    ratio=$(echo "$line" | sed -n 's/.*raw tjDecompressToYUVPlanes+4:2:0 [0-9.]* (ratio \([0-9.]*\)).*/\1/p')
    echo "EFFICIENCY mjpeg_decode_$size ${line#MJPEG decode $size: } — $intercomd bench --only mjpeg --mjpegbench $work/mjpegbench"
    if [ -n "$ratio" ] && awk -v r="$ratio" -v l="$limit" 'BEGIN { exit !(r <= l) }'; then
        echo "PASS MJPEG decode at $size costs ${ratio}x raw TurboJPEG (limit ${limit}x)"
    else
        echo "FAIL MJPEG decode at $size costs ${ratio:-?}x raw TurboJPEG (limit ${limit}x): ${line:-no summary line}"
        failed=$((failed + 1))
    fi
done
echo "$((2 - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
