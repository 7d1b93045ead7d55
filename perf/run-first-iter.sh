#!/usr/bin/env bash
# run-first-iter.sh: the first training iteration of a network's convolutions in a fresh process,
# cold (empty program cache: the total compile time) and warm (the cache the cold run filled), with
# and without the Prepare calls, as one markdown table.
#
#   perf/run-first-iter.sh [-b BUILD_DIR] DEVICE [OUTFILE]
#
# Runs BUILD_DIR/perf/cldnn-first-iter (perf/first_iter.c; default BUILD_DIR build) three times, each
# a new process with CLDNN_DEVICE=DEVICE, CLDNN_CACHE_DIR a fresh temporary folder shared by the
# three runs, and CLDNN_DB_PATH a fresh empty folder (Get answers from its heuristic or the system
# tables, never from the caller's own find-db). The drivers' own caches start empty too, in the
# same temporary folder (POCL_CACHE_DIR for PoCL, CUDA_CACHE_PATH for NVIDIA's JIT cache), so that
# cold means nothing compiled before:
#   cold          the cache folder empty
#   warm          the binaries the cold run stored
#   warm+prepare  the same with --prepare (the Prepare calls before iteration 1, timed apart)
# then twice more, each with caches of its own, empty:
#   cold+prepare  --prepare with CLDNN_BUILD_THREADS=1 (each Prepare builds its programs one by
#                 one), then with the library's default thread count (min(CPUs, 8); THREADS=N
#                 sets it): the prepare column is the cold compile time, serial against parallel
# and prints (to stdout, and to OUTFILE when given) the header (command, date, commit, device) and
# a table: build threads, handle, setup, prepare, iteration 1, steady median, iteration 1 /
# steady, programs built and loaded in the whole run and in iteration 1.
# Environment (defaults): SHAPES (perf/shapes/conv-nets.csv), PREFIX (resnet50/), BATCH (as listed:
# 32), LAYERS (0: every matching row), STEADY (3), THREADS (the library's default: the second
# cold+prepare row's CLDNN_BUILD_THREADS). ResNet-50 at batch 32 on a GPU:
#   perf/run-first-iter.sh -b build-h100 gpu perf/results/first-iter-h100.md
# A small run on PoCL:
#   BATCH=1 PREFIX=resnet50/layer1 perf/run-first-iter.sh -b /tmp/build cpu
set -u -o pipefail
cd "$(dirname "$0")/.."
build=build
if [ "${1:-}" = -b ]; then build=$2; shift 2; fi
[ $# -ge 1 ] || { echo "usage: $0 [-b BUILD_DIR] DEVICE [OUTFILE]" >&2; exit 2; }
device=$1
outfile=${2:-}
bin=$build/perf/cldnn-first-iter
[ -x "$bin" ] || { echo "$0: no $bin (cmake --build $build --target cldnn-first-iter)" >&2; exit 2; }
args=(--shapes "${SHAPES:-perf/shapes/conv-nets.csv}" --prefix "${PREFIX:-resnet50/}" --steady "${STEADY:-3}")
[ -n "${BATCH:-}" ] && args+=(--batch "$BATCH")
[ -n "${LAYERS:-}" ] && args+=(--layers "$LAYERS")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/cache" "$tmp/pocl" "$tmp/cuda"
export POCL_CACHE_DIR=$tmp/pocl CUDA_CACHE_PATH=$tmp/cuda
status=0
rows=()
dev=""
for run in cold warm warm+prepare cold+prepare:1 "cold+prepare:${THREADS:-}"; do
  extra=()
  threads=()
  cache=$tmp/cache
  case $run in
    warm+prepare) extra=(--prepare) ;;
    cold+prepare:*)
      # caches of its own, empty (the driver's too); the serial row, then the default or THREADS
      extra=(--prepare)
      n=${run#cold+prepare:}
      [ -n "$n" ] && threads=("CLDNN_BUILD_THREADS=$n")
      cache=$tmp/cache-$run
      rm -rf "$cache" "$tmp/pocl-$run" "$tmp/cuda-$run"
      mkdir -p "$cache" "$tmp/pocl-$run" "$tmp/cuda-$run"
      threads+=("POCL_CACHE_DIR=$tmp/pocl-$run" "CUDA_CACHE_PATH=$tmp/cuda-$run") ;;
  esac
  rm -rf "$tmp/db" && mkdir -p "$tmp/db"
  echo "+ ${threads[*]:+${threads[0]} }CLDNN_DEVICE=$device CLDNN_CACHE_DIR=<$run cache> CLDNN_DB_PATH=<empty>" \
       "$bin ${args[*]} ${extra[*]}" >&2
  if ! env "${threads[@]}" CLDNN_DEVICE="$device" CLDNN_CACHE_DIR="$cache" CLDNN_DB_PATH="$tmp/db" "$bin" "${args[@]}" \
      "${extra[@]}" > "$tmp/$run.log"; then
    echo "$0: the $run run failed" >&2
    status=1
  fi
  cat "$tmp/$run.log" >&2
  [ -z "$dev" ] && dev=$(sed -n 's/^device *//p' "$tmp/$run.log")
  line=$(grep '^FIRSTITER' "$tmp/$run.log" || true)
  # field value from the FIRSTITER line
  f() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<< "$line"; }
  if [ -n "$line" ]; then
    rows+=("| ${run%%:*} | $(f threads) | $(f layers) | $(f batch) | $(f handle_ms) | $(f setup_ms) | $(f prepare_ms) | $(f first_ms) | \
$(f steady_ms) | $(f ratio) | $(f built) / $(f loaded) | $(f first_built) / $(f first_loaded) |")
  else
    rows+=("| ${run%%:*} | FAILED | | | | | | | | | | |")
  fi
done
commit=${CLDNN_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}
{
  echo "# First iteration vs steady state: ${PREFIX:-resnet50/} convolutions, fwd + bwd-data + bwd-filter"
  echo
  echo "- command: \`$(echo "${STEADY:+STEADY=$STEADY }${THREADS:+THREADS=$THREADS }${BATCH:+BATCH=$BATCH }${PREFIX:+PREFIX=$PREFIX }${LAYERS:+LAYERS=$LAYERS }perf/run-first-iter.sh -b $build $device")\`"
  echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'), commit $commit, host $(uname -srm), $(nproc) cores"
  echo "- device: $dev"
  echo "- each row a new process; cold: empty CLDNN_CACHE_DIR (and driver caches: POCL_CACHE_DIR,"
  echo "  CUDA_CACHE_PATH), warm: what the cold run stored in them;"
  echo "  CLDNN_DB_PATH empty (Get: heuristic or system tables). Times in ms, host clock to clFinish;"
  echo "  steady: median of ${STEADY:-3} iterations after the first. Programs: built from source / loaded"
  echo "  from the disk cache (library counters), in the whole run and in iteration 1."
  echo
  echo "  cold+prepare rows: caches of their own, empty; build threads: CLDNN_BUILD_THREADS (each"
  echo "  Prepare call builds the programs it needs on that many threads)."
  echo
  echo "| run | build threads | layers | batch | handle | setup | prepare | iteration 1 | steady | iter 1 / steady | programs built / loaded | in iteration 1 |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
  printf '%s\n' "${rows[@]}"
} > "$tmp/table.md"
cat "$tmp/table.md"
[ -n "$outfile" ] && cp "$tmp/table.md" "$outfile"
exit $status
