#!/usr/bin/env bash
# run-sweep.sh: runs the activation, tensor-op and softmax bandwidth sweep of cldnn-bench on one device
# and writes a markdown results file (date, device, driver, the exact commands, one table).
#
#   perf/run-sweep.sh [-b BUILD_DIR] DEVICE OUTFILE
#
# DEVICE is a CLDNN_DEVICE value (gpu, cpu, P:D or a name substring). The binary is
# BUILD_DIR/perf/cldnn-bench (default BUILD_DIR: build). Environment: SIZE_MIB (default 256) is
# the 1-d tensor size of the sweeps, ITERS (default 20) the timed iterations per repetition,
# CLDNN_COMMIT the commit to record where the tree has no .git (the device tool sends none).
# Every command runs even when an earlier one fails; the exit status is 1 if any failed.
set -u -o pipefail
build=build
if [ "${1:-}" = "-b" ]; then build=$2; shift 2; fi
if [ $# -ne 2 ]; then
  echo "usage: $0 [-b BUILD_DIR] DEVICE OUTFILE" >&2
  exit 2
fi
device=$1
outfile=$2
bench=$build/perf/cldnn-bench
size=${SIZE_MIB:-256}
iters=${ITERS:-20}
if [ ! -x "$bench" ]; then
  echo "$0: $bench not found (build first)" >&2
  exit 2
fi

cmds=(
  "activ -m all -F 0 -S $size -V 1 -t 1 -i $iters --md --md-header"
  "tensor -o all -S $size -V 1 -t 1 -i $iters --md"
  "tensor -o add -D 32x256x56x56 -b 1 -B 1 -V 1 -t 1 -i $iters --md"
  "tensor -o transform -D 32x256x56x56 -V 1 -t 1 -i $iters --md"
  "softmax -F 0 -a 1 -M 1 -D 32x1000x1x1 -V 1 -t 1 -i $iters --md"
  "softmax -F 0 -a 1 -M 1 -D 32x21x128x128 -V 1 -t 1 -i $iters --md"
  "softmax -F 0 -a 1 -M 0 -D 128x131072x1x1 -V 1 -t 1 -i $iters --md"
)

log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
start=$(date +%s)
for c in "${cmds[@]}"; do
  echo "+ CLDNN_DEVICE=$device cldnn-bench $c" >&2
  # shellcheck disable=SC2086
  if ! CLDNN_DEVICE=$device "$bench" $c | tee -a "$log"; then
    echo "$0: FAILED: CLDNN_DEVICE=$device cldnn-bench $c" >&2
    status=1
  fi
done
elapsed=$(( $(date +%s) - start ))

field() { grep -m1 "^# $1:" "$log" | sed "s/^# $1: //"; }
mkdir -p "$(dirname "$outfile")"
{
  echo "# cldnn activation, tensor-op and softmax bandwidth: $(field device)"
  echo
  echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "- device: $(field device)"
  echo "- driver: $(field driver)"
  echo "- platform: $(field platform)"
  echo "- cldnn: $(field cldnn) at commit ${CLDNN_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}; host: $(uname -srm), $(nproc) cores"
  echo "- seed of each command: $(grep '^# seed:' "$log" | sed 's/^# seed: \([0-9]*\).*/\1/' | tr '\n' ' ')"
  echo "- sweep wall time: ${elapsed} s; status: $([ $status -eq 0 ] && echo OK || echo FAILED)"
  echo
  echo "## Commands"
  echo
  echo '```'
  for c in "${cmds[@]}"; do echo "CLDNN_DEVICE=$device cldnn-bench $c"; done
  echo '```'
  echo
  echo "## Results"
  echo
  echo "MB moved: the bytes the operation must move (each needed input read once, each output"
  echo "written once; prior output read only when beta != 0), 1e6 bytes. GB/s = MB moved / time."
  echo "copy GB/s: clEnqueueCopyBuffer of the tensor's size in the same run (read + write counted)."
  echo "ratio = GB/s / copy GB/s. Time: median of 5 repetitions of (${iters} calls, clFinish)."
  echo "verify: against the double reference (float: 1e-6 abs + 1e-5 rel; half: 2e-3 + 2e-3; softmax:"
  echo "rel of |want| + 1 for log forward, of the same formula on absolute values for backward)."
  echo
  grep '^|' "$log"
} > "$outfile"
echo "wrote $outfile (${elapsed} s)" >&2
exit $status
