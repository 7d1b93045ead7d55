#!/usr/bin/env bash
# run-gemm-sweep.sh: the GEMM benchmark on one device: cldnn-bench gemm over one or more shape files,
# the vendor baselines over the same files, and one merged markdown results file (date, device,
# driver, commit, the exact commands, one table with every shape, summary ratios).
#
#   perf/run-gemm-sweep.sh [-b BUILD_DIR] DEVICE SHAPES[,SHAPES...] OUTFILE
#
# DEVICE is a CLDNN_DEVICE value (gpu, cpu, P:D or a name substring); SHAPES are CSV files of
# perf/shapes/ (m,n,k,a_t,b_t[,batch], column-major semantics), each one a "set" of the table,
# named after the file. cldnn-bench is BUILD_DIR/perf/cldnn-bench (default BUILD_DIR: build).
# Environment:
#   BASELINES     baselines to run (default: "openblas clblast" when DEVICE is cpu, else
#                 "cublas clblast"); each is BASELINE_DIR/<name>_gemm, skipped with a note when absent
#   BASELINE_DIR  where the baseline binaries are (default: BUILD_DIR/perf)
#   MS            timed work per shape and tool in ms, over the 5 repetitions (default 50;
#                 OpenBLAS gets 4x, at least 200)
#   VERIFY        -V of cldnn-bench (default 1: sampled check above 2^27 multiply-adds)
#   CLDNN_COMMIT  the commit to record where the tree has no .git (the device tool sends none)
#   MATH          tensor: cldnn-bench --math tensor and the baselines' TF32 mode (cuBLAS --tf32
#                 --verify 200: its own error on the same check); default FP32
#   DTYPE         half: cldnn-bench -d half; with MATH=tensor the baselines' FP16 mode (cuBLAS
#                 --fp16 --verify 200, FP32 accumulation on tensor cores); default float
# Every command runs even when an earlier one fails; the exit status is 1 if any failed.
set -u -o pipefail
build=build
if [ "${1:-}" = "-b" ]; then build=$2; shift 2; fi
if [ $# -ne 3 ]; then
  echo "usage: $0 [-b BUILD_DIR] DEVICE SHAPES[,SHAPES...] OUTFILE" >&2
  exit 2
fi
device=$1
IFS=, read -r -a shapes <<< "$2"
outfile=$3
here=$(cd "$(dirname "$0")" && pwd)
bench=$build/perf/cldnn-bench
bdir=${BASELINE_DIR:-$build/perf}
ms=${MS:-50}
verify=${VERIFY:-1}
case $device in
  cpu|CPU) baselines=${BASELINES:-openblas clblast} ;;
  *) baselines=${BASELINES:-cublas clblast} ;;
esac
if [ ! -x "$bench" ]; then
  echo "$0: $bench not found (build first)" >&2
  exit 2
fi
for f in "${shapes[@]}"; do
  [ -r "$f" ] || { echo "$0: no shape file $f" >&2; exit 2; }
done

logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
status=0
cmds=()
notes=()
start=$(date +%s)

# run_tool LOG CMD...: appends CMD's output to LOG, echoes it, records the command and a failure.
run_tool() {
  local log=$1
  shift
  echo "+ $*" >&2
  cmds+=("$*")
  if ! "$@" | tee -a "$log"; then
    echo "$0: FAILED: $*" >&2
    status=1
  fi
}

for f in "${shapes[@]}"; do
  set_name=$(basename "$f" .csv)
  echo "# set: $set_name" >> "$logs/cldnn.log"
  run_tool "$logs/cldnn.log" env CLDNN_DEVICE="$device" "$bench" gemm --shapes "$f" --ms "$ms" -V "$verify" --md-header \
    ${MATH:+--math "$MATH"} ${DTYPE:+-d "$DTYPE"}
done
tools=()
for t in $baselines; do
  bin=$bdir/${t}_gemm
  if [ ! -x "$bin" ]; then
    notes+=("$t: no binary $bin, not run")
    echo "$0: $bin not found, skipping $t" >&2
    continue
  fi
  tms=$ms
  if [ "$t" = openblas ]; then tms=$(( ms * 4 > 200 ? ms * 4 : 200 )); fi
  tools+=("$t")
  for f in "${shapes[@]}"; do
    echo "# set: $(basename "$f" .csv)" >> "$logs/$t.log"
    bargs=()
    if [ "${MATH:-}" = tensor ] && [ "${DTYPE:-float}" = half ]; then
      case $t in
        cublas) bargs=(--fp16 --verify 200) ;;
        *) notes+=("$t has no FP16 mode here: its figures are FP32"); ;;
      esac
    elif [ "${MATH:-}" = tensor ]; then
      case $t in
        cublas) bargs=(--tf32 --verify 200) ;;
        *) notes+=("$t has no TF32 mode: its figures are FP32"); ;;
      esac
    elif [ "${DTYPE:-float}" = half ]; then
      notes+=("$t runs FP32 data: HALF storage without --math tensor has no FP16 baseline here")
    fi
    run_tool "$logs/$t.log" env CLDNN_DEVICE="$device" "$bin" "$f" --ms "$tms" "${bargs[@]+"${bargs[@]}"}"
  done
done
elapsed=$(( $(date +%s) - start ))

commit=${CLDNN_COMMIT:-$(git -C "$here/.." rev-parse --short HEAD 2>/dev/null || echo unknown)}
case "${MATH:-}/${DTYPE:-float}" in
  tensor/half) math_desc="FP16 tensor cores (FP32 accumulation), TENSOR_OP_MATH" ;;
  tensor/*) math_desc="TF32 tensor cores, TENSOR_OP_MATH" ;;
  */half) math_desc="FP32 arithmetic on HALF storage" ;;
  *) math_desc=FP32 ;;
esac
margs=()
for c in "${cmds[@]}"; do margs+=(--cmd "$c"); done
for n in "${notes[@]+"${notes[@]}"}"; do margs+=(--note "$n"); done
for t in "${tools[@]+"${tools[@]}"}"; do margs+=(--baseline "$t=$logs/$t.log"); done
mkdir -p "$(dirname "$outfile")"
python3 "$here/gemm_merge.py" --cldnn "$logs/cldnn.log" "${margs[@]}" \
  --meta "commit=$commit" --meta "host=$(uname -srm), $(nproc) cores" \
  --meta "wall=${elapsed} s" --meta "status=$([ $status -eq 0 ] && echo OK || echo FAILED)" \
  --meta "ms=$ms" --meta "math=$math_desc" \
  --out "$outfile" || status=1
echo "wrote $outfile (${elapsed} s)" >&2
exit $status
