#!/usr/bin/env bash
# run-ops-h100.sh: pooling, batch normalization, LRN and softmax on the lent H100, cldnn against cuDNN,
# in one call of the device tool.
#
# Here (the dev machine, with the CUDA toolkit and cuDNN 9), from the repository root, once per change
# of perf/baselines/cudnn_ops.c:
#   perf/run-ops-h100.sh prepare [BUILD_DIR]
#     builds cudnn_ops (Release, into BUILD_DIR, default /tmp/build-ops-baselines) into .carry/baselines/.
# Then through the device tool (kind nvidia-h100-x1), with carry [".carry/baselines"]:
#   ./perf/run-ops-h100.sh run
#     registers NVIDIA's OpenCL ICD, builds cldnn-bench (Release, no tests) into build-h100/, puts
#     cuDNN 9 and the CUDA runtime on LD_LIBRARY_PATH (as perf/run-conv-h100.sh does), runs every case
#     of CASES through cldnn-bench (perf/ops_cases.py commands) and through cudnn_ops, and merges both
#     into ${OUT:-.}/pool-norm-h100.md with the raw logs beside it (.cldnn.log, .cudnn.log).
#   Environment (defaults): CASES (perf/shapes/ops-nets.csv), DEVICE (gpu: cldnn-bench's CLDNN_DEVICE),
#     MS (20: cudnn_ops's timed work per measurement), BUILD_DIR (build-h100), CUDNN=0 skips cudnn_ops,
#     ONLY (a regular expression: only the cases whose NAME:DIR matches), CLDNN_COMMIT (the commit to
#     record where the tree has no .git).
#   A dry run on PoCL, here: DEVICE=cpu CUDNN=0 ONLY='^r50-softmax' BUILD_DIR=/tmp/b OUT=/tmp \
#     ./perf/run-ops-h100.sh run
# Exit status 0, or 1 if a build or any case failed (the merged file is written either way). A case
# the baseline cannot express (cudnn_ops' "FAIL unsupported": LRN within a channel) is no failure;
# any cldnn-bench failure and any other cudnn_ops failure is.
set -u -o pipefail
cd "$(dirname "$0")/.."
case ${1:-} in
  prepare)
    set -e
    build=${2:-/tmp/build-ops-baselines}
    cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCLDNN_BUILD_TESTS=OFF > /dev/null
    cmake --build "$build" -j"$(nproc)" --target cudnn_ops
    mkdir -p .carry/baselines
    cp "$build"/perf/cudnn_ops .carry/baselines/
    du -sh .carry/baselines ;;
  run)
    out=${OUT:-.}
    cases=${CASES:-perf/shapes/ops-nets.csv}
    build=${BUILD_DIR:-build-h100}
    device=${DEVICE:-gpu}
    ms=${MS:-20}
    only=${ONLY:-.}
    mkdir -p "$out"
    status=0
    icd=/usr/lib/libnvidia-opencl.so.1
    if [ -e "$icd" ] && [ -w /etc/OpenCL/vendors ]; then
      echo "$icd" > /etc/OpenCL/vendors/nvidia.icd
    fi
    mkdir -p "$build"
    if ! { cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCLDNN_BUILD_TESTS=OFF > "$build/build.log" 2>&1 &&
           cmake --build "$build" -j"$(nproc)" --target cldnn-bench >> "$build/build.log" 2>&1; }; then
      tail -n 40 "$build/build.log"
      exit 1
    fi
    cl_log="$out/pool-norm-h100.cldnn.log"
    cu_log="$out/pool-norm-h100.cudnn.log"
    : > "$cl_log"
    : > "$cu_log"
    CLDNN_DEVICE=$device "$build"/perf/cldnn-bench --devices >> "$cl_log" 2>&1
    while IFS=$'\t' read -r name args; do
      [[ $name =~ $only ]] || continue
      echo "CASE $name" >> "$cl_log"
      # shellcheck disable=SC2086
      if ! CLDNN_DEVICE=$device timeout 120 "$build"/perf/cldnn-bench $args >> "$cl_log" 2>&1; then
        echo "FAILED: cldnn-bench $args" | tee -a "$cl_log" >&2
        status=1
      fi
    done < <(python3 perf/ops_cases.py commands "$cases")
    if [ "${CUDNN:-1}" != 0 ]; then
      # shellcheck source=perf/cuda-libs.sh
      . perf/cuda-libs.sh
      cuda_libs_export >> "$cu_log" 2>&1
      chmod +x .carry/baselines/cudnn_ops 2>/dev/null
      sub=$(mktemp)
      grep -v '^#' "$cases" | while IFS=, read -r n o d rest; do
        [ -n "$n" ] && [[ "$n:$d" =~ $only ]] && echo "$n,$o,$d,$rest"
      done > "$sub"
      .carry/baselines/cudnn_ops --cases "$sub" --ms "$ms" >> "$cu_log" 2>&1
      rc=$?
      rm -f "$sub"
      # A baseline built before cudnn_ops stopped counting unsupported cases exits 1 for them too:
      # fail only on a FAIL line with another reason, or on an exit with no FAIL line to explain it.
      unsupported=$(grep -c '^RESULT cudnn .* FAIL unsupported$' "$cu_log")
      other=$(grep '^RESULT cudnn .* FAIL ' "$cu_log" | grep -vc ' FAIL unsupported$')
      [ "$unsupported" -gt 0 ] && echo "cudnn_ops: $unsupported case(s) unsupported by cuDNN (no baseline, not a failure)" >&2
      if [ "$other" -gt 0 ] || { [ "$rc" -ne 0 ] && [ "$unsupported" -eq 0 ]; }; then
        echo "FAILED: cudnn_ops (exit $rc, $other failed case(s))" >&2
        status=1
      fi
    fi
    commit=${CLDNN_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}
    {
      python3 perf/ops_cases.py merge "$cases" "$cl_log" "$cu_log" \
        --title "Pooling, batch norm, LRN, softmax: cldnn vs cuDNN, $(date -u +%Y-%m-%d), commit $commit" \
        --command "ONLY='$only' MS=$ms ./perf/run-ops-h100.sh run"
      echo
      echo "Devices and versions (from the logs):"
      echo
      grep -h '^# ' "$cl_log" "$cu_log" | grep -v '^# command' | sort -u | sed 's/^/    /'
    } > "$out/pool-norm-h100.md" || status=1
    cat "$out/pool-norm-h100.md"
    exit $status ;;
  *)
    echo "usage: $0 prepare [BUILD_DIR] | run" >&2
    exit 2 ;;
esac
