#!/usr/bin/env bash
# make-system-db.sh: produces the system find-db (and, with MODE=TUNE, tuning) tables of one device,
# the files the library ships in db/ and installs into share/cldnn/db (src/handle/db.c).
#
#   perf/make-system-db.sh [-b BUILD_DIR] DEVICE [SHAPES_FILE...]
#
# For each shape file (default perf/shapes/conv-nets.csv perf/shapes/conv-depthwise.csv
# perf/shapes/conv-deepbench.csv), every direction:
#   CLDNN_DEVICE=DEVICE CLDNN_FIND_MODE=$MODE CLDNN_DB_PATH=<fresh temp> CLDNN_SYSTEM_DB_PATH= \
#     BUILD_DIR/perf/cldnn-bench conv --shapes FILE -F 7 -a find -V 0 -t 0
# Find benchmarks every applicable algorithm (BENCHMARK; TUNE also searches the implicit GEMM's
# parameters for CLDNN_TUNE_BUDGET seconds per problem, default 60, and records them) and records
# the ranking in the temporary folder's find-db; the system tables already shipped are turned off
# (CLDNN_SYSTEM_DB_PATH=) so that nothing measured depends on them. Then the temp folder's
# find-v1-<device>-<hash>.txt (and tune-v1-...) are copied into OUTDIR (default db/): merged after
# the records of a file of the same name already there (the last record of a key wins, so one
# device's table can be built over several runs), or replacing it with REPLACE=1.
# When BUILD_DIR/perf/cldnn-bench is missing it is built (Release, no tests; BUILD_DIR default
# build-sysdb). Environment: MODE (BENCHMARK), OUTDIR (db), REPLACE (0), BENCH_FLAGS (extra
# cldnn-bench flags, e.g. --ws-max 256).
# PoCL here (a subset):  perf/make-system-db.sh -b /tmp/build cpu perf/shapes/conv-pocl.csv
# The H100 (device tool):
#   echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd; OUTDIR=$OUT/db \
#     ./perf/make-system-db.sh -b build-h100 gpu
# then copy $OUT/db/*.txt into db/ and commit them.
set -u -o pipefail
cd "$(dirname "$0")/.."
build=build-sysdb
if [ "${1:-}" = -b ]; then build=$2; shift 2; fi
[ $# -ge 1 ] || { echo "usage: $0 [-b BUILD_DIR] DEVICE [SHAPES_FILE...]" >&2; exit 2; }
device=$1
shift
shapes=("$@")
[ ${#shapes[@]} -gt 0 ] || shapes=(perf/shapes/conv-nets.csv perf/shapes/conv-depthwise.csv perf/shapes/conv-deepbench.csv)
mode=${MODE:-BENCHMARK}
outdir=${OUTDIR:-db}
bench=$build/perf/cldnn-bench
if [ ! -x "$bench" ]; then
  mkdir -p "$build"
  { cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCLDNN_BUILD_TESTS=OFF &&
    cmake --build "$build" -j"$(nproc)" --target cldnn-bench; } > "$build/build.log" 2>&1 ||
    { tail -n 40 "$build/build.log"; echo "$0: building cldnn-bench failed" >&2; exit 1; }
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
start=$(date +%s)
for f in "${shapes[@]}"; do
  [ -r "$f" ] || { echo "$0: no shape file $f" >&2; exit 2; }
  echo "+ CLDNN_FIND_MODE=$mode $bench conv --shapes $f -F 7 -a find -V 0 -t 0 ${BENCH_FLAGS:-}" >&2
  # shellcheck disable=SC2086  # BENCH_FLAGS are words
  if ! CLDNN_DEVICE=$device CLDNN_FIND_MODE=$mode CLDNN_DB_PATH=$tmp CLDNN_SYSTEM_DB_PATH= \
      "$bench" conv --shapes "$f" -F 7 -a find -V 0 -t 0 ${BENCH_FLAGS:-} > "$tmp/bench.log"; then
    echo "$0: cldnn-bench reported failures on $f (the records it made are kept):" >&2
    grep -E 'FAIL' "$tmp/bench.log" | head -n 20 >&2
    status=1
  fi
done
mkdir -p "$outdir"
n=0
for src in "$tmp"/find-v*.txt "$tmp"/tune-v*.txt; do
  [ -e "$src" ] || continue
  dst=$outdir/$(basename "$src")
  if [ -e "$dst" ] && [ "${REPLACE:-0}" != 1 ]; then
    if [ "$(head -n 1 "$dst")" != "$(head -n 1 "$src")" ]; then
      echo "$0: $dst has another header; not merging (REPLACE=1 overwrites)" >&2
      status=1
      continue
    fi
    { cat "$dst"; tail -n +2 "$src"; } > "$tmp/merged" && cp "$tmp/merged" "$dst"
  else
    cp "$src" "$dst"
  fi
  chmod 0644 "$dst"
  echo "$dst: $(( $(wc -l < "$dst") - 1 )) records ($(head -n 1 "$dst" | cut -d' ' -f3-))"
  n=$((n + 1))
done
[ $n -gt 0 ] || { echo "$0: Find recorded nothing" >&2; status=1; }
echo "$0: $(( $(date +%s) - start )) s, mode $mode, into $outdir" >&2
exit $status
