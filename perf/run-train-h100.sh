#!/usr/bin/env bash
# run-train-h100.sh: the training example (examples/train_digits) on the lent H100 through NVIDIA's
# OpenCL, and the same network in PyTorch on CUDA (cuDNN, strict FP32) as the anchor, in one call of
# the device tool. Nothing to prepare or carry: the device image has PyTorch and scikit-learn (whose
# digits.csv.gz is the data set).
#
# Through the device tool (kind nvidia-h100-x1), from the repository root, no carry:
#   ./perf/run-train-h100.sh
#     registers NVIDIA's OpenCL ICD, builds train_digits (Release, no tests, no perf) into BUILD_DIR,
#     decompresses scikit-learn's digits.csv.gz into it (so zlib is not needed there), then runs
#       1. train_digits with an empty program cache (epoch 1 includes building every program; the
#          CPU reference path runs after it in the same process),
#       2. train_digits again on the now warm cache (--no-cpu),
#       3. perf/baselines/train_digits_torch.py (same data, split, order, initial weights),
#     and writes ${OUT:-.}/${NAME}.md (a table of the RESULT lines) with the logs beside it.
#   Environment (defaults): EPOCHS (10), DEVICE (gpu: CLDNN_DEVICE), BUILD_DIR (build-h100-train),
#     NAME (train-digits-h100), DATA (a digits.csv(.gz); default scikit-learn's from python3),
#     TORCH=0 skips PyTorch, CLDNN_COMMIT (the commit to record where the tree has no .git).
#   The PoCL measurement, here (perf/results/train-digits-pocl.md):
#     DEVICE=cpu TORCH=0 NAME=train-digits-pocl BUILD_DIR=/tmp/b OUT=/tmp ./perf/run-train-h100.sh
# Exit status 0, or 1 if the build or a run failed (train_digits fails when cldnn's accuracy is below
# the CPU path's minus 3 points or below 85%); the table is written either way.
set -u -o pipefail
cd "$(dirname "$0")/.."
out=${OUT:-.}
build=${BUILD_DIR:-build-h100-train}
device=${DEVICE:-gpu}
epochs=${EPOCHS:-10}
name=${NAME:-train-digits-h100}
mkdir -p "$out" "$build"
status=0
icd=/usr/lib/libnvidia-opencl.so.1
if [ -e "$icd" ] && [ -w /etc/OpenCL/vendors ]; then
  echo "$icd" > /etc/OpenCL/vendors/nvidia.icd
fi
if ! { cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCLDNN_BUILD_TESTS=OFF -DCLDNN_BUILD_PERF=OFF \
         > "$build/build.log" 2>&1 &&
       cmake --build "$build" -j"$(nproc)" --target train_digits >> "$build/build.log" 2>&1; }; then
  tail -n 40 "$build/build.log"
  exit 1
fi

data=${DATA:-$(python3 -c 'import importlib.util, os
s = importlib.util.find_spec("sklearn")
print(os.path.join(list(s.submodule_search_locations)[0], "datasets", "data", "digits.csv.gz") if s else "")' \
  2>/dev/null)}
data_args=()
if [ -n "$data" ] && [ -e "$data" ]; then
  python3 -c 'import gzip, shutil, sys
src = gzip.open(sys.argv[1], "rb") if sys.argv[1].endswith(".gz") else open(sys.argv[1], "rb")
shutil.copyfileobj(src, open(sys.argv[2], "wb"))' "$data" "$build/digits.csv" && data_args=(--data "$build/digits.csv")
else
  echo "warning: no digits data file found; train_digits picks its own (Debian's, else GENERATED)" >&2
fi

cache=$(mktemp -d)
cold="$out/$name.cldnn-cold.log"
warm="$out/$name.cldnn-warm.log"
tlog="$out/$name.torch.log"
CLDNN_DEVICE=$device CLDNN_CACHE_DIR=$cache "$build"/examples/train_digits "${data_args[@]}" --epochs "$epochs" \
  2>&1 | tee "$cold" || status=1
CLDNN_DEVICE=$device CLDNN_CACHE_DIR=$cache "$build"/examples/train_digits "${data_args[@]}" --epochs "$epochs" \
  --no-cpu 2>&1 | tee "$warm" || status=1
rm -rf "$cache"
: > "$tlog"
if [ "${TORCH:-1}" != 0 ]; then
  python3 perf/baselines/train_digits_torch.py "${data_args[@]}" --epochs "$epochs" 2>&1 | tee "$tlog" || status=1
fi

commit=${CLDNN_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}
# row LOG LABEL PATH [DEVICE]: one table row from the RESULT line of PATH in LOG (DEVICE: default the
# log's own "[...] device:" line)
row() {
  local dev=${4:-}
  [ -n "$dev" ] || dev=$(grep -m1 -o '^\[[a-z]*\] device: .*' "$1" | sed 's/^\[[a-z]*\] device: //')
  grep "^RESULT path=$3 " "$1" | sed 's/^RESULT //' | tr ' ' '\n' | awk -F= -v label="$2" -v dev="$dev" \
    '{v[$1] = $2} END {if (v["test_acc"] != "") printf "| %s | %s | %s | %s | %.1f | %.1f |\n", label, dev,
      v["test_acc"], v["train_loss"], v["epoch1_s"] * 1000, v["epoch_s"] * 1000}'
}
{
  echo "# train_digits: cldnn, the CPU reference path$([ -s "$tlog" ] && echo " and PyTorch"), $(date -u +%Y-%m-%d), commit $commit"
  echo
  echo "Command: \`DEVICE=$device EPOCHS=$epochs NAME=$name TORCH=${TORCH:-1} ./perf/run-train-h100.sh\` (build: Release)."
  echo "Data: $(grep -m1 '^data: ' "$cold" | sed 's/^data: //'); $(grep -m1 '^samples: ' "$cold" | sed 's/^samples: //')."
  echo "Training time per epoch: host side from the epoch's data upload to its loss read back (test"
  echo "evaluation not included); epoch 1 includes program builds (cold cache) or loads (warm)."
  echo
  echo "| path | device | final test accuracy % | final train loss | epoch 1 ms | mean epoch 2..N ms |"
  echo "|---|---|---:|---:|---:|---:|"
  row "$cold" "cldnn, cold program cache" cldnn
  row "$warm" "cldnn, warm program cache" cldnn
  row "$cold" "CPU reference (double, 1 thread)" cpu "host: $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')"
  [ -s "$tlog" ] && row "$tlog" "PyTorch (cuDNN, FP32 strict)" torch
  echo
  grep -h '^first batch loss' "$cold"
  grep -h '^\[torch\] device' "$tlog" 2>/dev/null
} > "$out/$name.md"
cat "$out/$name.md"
exit $status
