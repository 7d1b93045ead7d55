#!/usr/bin/env bash
# run-conv-h100.sh: the convolution benchmark on the lent H100 (cldnn vs cuDNN, FP32, forward, backward
# data and backward filter), in one call of the device tool.
#
# Here (the dev machine, with the CUDA 13 toolkit and cuDNN 9), from the repository root, once per
# change of perf/baselines/:
#   perf/run-conv-h100.sh prepare [BUILD_DIR]
#     builds cudnn_conv (Release, into BUILD_DIR, default /tmp/build-conv-baselines) and copies it into
#     .carry/baselines/ (git-ignored). cuDNN and the CUDA runtime are not carried: the H100 has them.
# Then through the device tool (kind nvidia-h100-x1), with carry [".carry/baselines"]:
#   ./perf/run-conv-h100.sh run
#     registers NVIDIA's OpenCL ICD, builds cldnn-bench (Release, no tests) into build-h100/, puts
#     cuDNN 9 (the folder of libcudnn.so.9, where it loads libcudnn_cnn/_ops/_graph/_engines_*.so.9
#     from), cuBLAS(Lt), NVRTC and the CUDA 13 runtime on LD_LIBRARY_PATH (/usr/local/cuda first, then
#     PyTorch's nvidia.* pip packages), then for each shape file, in order:
#       CLDNN_DEVICE=$DEVICE build-h100/perf/cldnn-bench conv --shapes FILE -F 7 -a find -V 0 --ms $MS
#       .carry/baselines/cudnn_conv --shapes FILE -F 7 --ms $MS
#     and merges their RESULT lines with perf/conv_merge.py into ${OUT:-.}/conv-h100.md, the raw
#     outputs beside it (conv-h100.cldnn.log, conv-h100.cudnn.log).
#   Environment (defaults):
#     SHAPES      comma-separated shape files (perf/shapes/conv-nets.csv, conv-depthwise.csv,
#                 conv-deepbench.csv)
#     DEVICE      CLDNN_DEVICE of cldnn-bench (gpu); cudnn_conv always uses CUDA device 0
#     OUTNAME     the merged file's name (conv-h100.md); BUILD_DIR (build-h100)
#     BASELINES   baselines to run (cudnn; set but empty: none), each BASELINE_DIR/<name>_conv
#     BASELINE_DIR (.carry/baselines)
#     MS          timed work per measurement over its 5 repetitions, in ms (10; the tools' own
#                 default is 50), passed to both tools as --ms
#     BUDGET      seconds from the start, build included (540). Each command may use the time left
#                 times its weight over the weights left (CLDNN_WEIGHT for cldnn-bench, default 1;
#                 1 for each baseline), so that every tool gets its share and the merged file
#                 is written before the device tool's 10 minutes; a command cut short keeps the lines
#                 it printed, and the cut is noted in the file.
#     CLDNN=0     skips cldnn-bench (no build, no run): refreshes the baseline alone
#     BENCH_FLAGS cldnn-bench conv's flags after --shapes FILE (-F 7 -a find -V 0 --ms $MS)
#     BASE_FLAGS  the baselines' flags after --shapes FILE (-F 7 --ms $MS)
#     CLDNN_COMMIT the commit to record where the tree has no .git (the device tool sends none)
#   A dry run on PoCL, here:
#     DEVICE=cpu SHAPES=perf/shapes/conv-smoke.csv BASELINES= BUILD_DIR=/tmp/b OUT=/tmp \
#       ./perf/run-conv-h100.sh run
#   Exit status 0, or 1 if any build or command failed (the merged file is written either way).
# Copy the returned file into perf/results/ (one file per device and date).
set -u -o pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
case ${1:-} in
  prepare)
    set -e
    build=${2:-/tmp/build-conv-baselines}
    cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCLDNN_BUILD_TESTS=OFF > /dev/null
    cmake --build "$build" -j"$(nproc)" --target cudnn_conv
    mkdir -p .carry/baselines
    cp "$build"/perf/cudnn_conv .carry/baselines/
    echo "libraries cudnn_conv needs (found on the H100 machine at run time):"
    ldd .carry/baselines/cudnn_conv | grep '=>' | awk '{print "  " $1}' | sort -u
    du -sh .carry/baselines ;;
  run)
    out=${OUT:-.}
    outname=${OUTNAME:-conv-h100.md}
    build=${BUILD_DIR:-build-h100}
    device=${DEVICE:-gpu}
    ms=${MS:-10}
    budget=${BUDGET:-540}
    bdir=${BASELINE_DIR:-.carry/baselines}
    baselines=${BASELINES-cudnn}
    bench_flags=${BENCH_FLAGS:--F 7 -a find -V 0 --ms $ms}
    base_flags=${BASE_FLAGS:--F 7 --ms $ms}
    default_shapes=perf/shapes/conv-nets.csv,perf/shapes/conv-depthwise.csv,perf/shapes/conv-deepbench.csv
    IFS=, read -r -a shapes <<< "${SHAPES:-$default_shapes}"
    for f in "${shapes[@]}"; do
      [ -r "$f" ] || { echo "$0: no shape file $f" >&2; exit 2; }
    done
    mkdir -p "$out"
    status=0
    notes=()
    run_cldnn=1
    [ "${CLDNN:-1}" = 0 ] && { run_cldnn=0; notes+=("cldnn-bench not run (CLDNN=0)"); }

    icd=/usr/lib/libnvidia-opencl.so.1
    if [ -e "$icd" ] && [ -w /etc/OpenCL/vendors ]; then
      echo "$icd" > /etc/OpenCL/vendors/nvidia.icd
    fi
    bench=$build/perf/cldnn-bench
    if [ $run_cldnn = 1 ]; then
      mkdir -p "$build"
      if ! { cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCLDNN_BUILD_TESTS=OFF > "$build/build.log" 2>&1 &&
             cmake --build "$build" -j"$(nproc)" --target cldnn-bench >> "$build/build.log" 2>&1; }; then
        tail -n 60 "$build/build.log"
        echo "$0: building cldnn-bench failed; running the baselines alone" >&2
        notes+=("building cldnn-bench failed (see the run's log); cldnn not run")
        run_cldnn=0
        status=1
      else
        echo "OpenCL devices:"
        "$bench" --devices
      fi
    fi

    # cuDNN 9, cuBLAS(Lt), NVRTC and the CUDA 13 runtime (perf/cuda-libs.sh).
    cudnn_dir=""
    if [ -n "$baselines" ]; then
      # shellcheck source=perf/cuda-libs.sh
      . perf/cuda-libs.sh
      cuda_libs_export && notes+=("cuDNN from $cudnn_dir")
    fi
    tools=()
    for t in $baselines; do
      bin=$bdir/${t}_conv
      [ -e "$bin" ] && chmod +x "$bin" 2>/dev/null
      if [ ! -x "$bin" ]; then
        echo "$0: $bin not found (perf/run-conv-h100.sh prepare, then carry .carry/baselines), skipping $t" >&2
        notes+=("$t: no binary $bin, not run")
        status=1
        continue
      fi
      if ldd "$bin" | grep -q 'not found'; then
        echo "warning: $bin misses libraries:"; ldd "$bin" | grep 'not found'
      fi
      tools+=("$t")
    done
    smi=$(nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader 2>/dev/null |
          head -n 1 || true)
    if [ -n "$smi" ]; then
      echo "nvidia-smi: $smi"
      notes+=("nvidia-smi (name, driver, max SM clock, power limit): $smi")
    fi

    logs=$(mktemp -d)
    trap 'rm -rf "$logs"' EXIT
    : > "$logs/cldnn.log"
    cmds=()
    # shares left to run, for the time split: cldnn (when run) weighs CLDNN_WEIGHT, each baseline 1,
    # per shape file
    cw=${CLDNN_WEIGHT:-1}
    left=$(( ${#shapes[@]} * (run_cldnn * cw + ${#tools[@]}) ))
    # run_tool LOG SET WEIGHT CMD...: runs CMD with its WEIGHT's share of the budget left, appending
    # `# set: SET` and its output to LOG (echoed); records the command, a failure or a cut.
    run_tool() {
      local log=$1 set=$2 w=$3 rc now cap
      shift 3
      now=$(date +%s)
      cap=$(( (budget - (now - start)) * w / (left > 0 ? left : 1) ))
      left=$(( left - w ))
      if [ $cap -lt 5 ]; then
        notes+=("not run (time budget of ${budget} s spent): $*")
        echo "$0: out of time, skipping: $*" >&2
        status=1
        return
      fi
      echo "+ $* (at most ${cap} s)" >&2
      cmds+=("$*")
      echo "# set: $set" >> "$log"
      timeout -k 10 "$cap" "$@" | tee -a "$log"
      rc=${PIPESTATUS[0]}
      if [ "$rc" = 124 ]; then
        notes+=("cut after its ${cap} s share of the budget: $*")
        status=1
      elif [ "$rc" != 0 ]; then
        notes+=("exit status $rc: $*")
        status=1
      fi
    }
    for f in "${shapes[@]}"; do
      set_name=$(basename "$f" .csv)
      if [ $run_cldnn = 1 ]; then
        # shellcheck disable=SC2086  # the flags are words
        run_tool "$logs/cldnn.log" "$set_name" "$cw" env CLDNN_DEVICE="$device" \
          CLDNN_CACHE_DIR="${CLDNN_CACHE_DIR:-/tmp/cldnn-kc}" "$bench" conv --shapes "$f" $bench_flags
      fi
      for t in "${tools[@]+"${tools[@]}"}"; do
        # shellcheck disable=SC2086
        run_tool "$logs/$t.log" "$set_name" 1 "$bdir/${t}_conv" --shapes "$f" $base_flags
      done
    done
    elapsed=$(( $(date +%s) - start ))

    base=${outname%.md}
    cp "$logs/cldnn.log" "$out/$base.cldnn.log"
    mlogs=("$logs/cldnn.log")
    for t in "${tools[@]+"${tools[@]}"}"; do
      cp "$logs/$t.log" "$out/$base.$t.log"
      mlogs+=("$logs/$t.log")
    done
    commit=${CLDNN_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}
    margs=()
    for c in "${cmds[@]+"${cmds[@]}"}"; do margs+=(--cmd "$c"); done
    for n in "${notes[@]+"${notes[@]}"}"; do margs+=(--note "$n"); done
    python3 perf/conv_merge.py "${mlogs[@]}" "${margs[@]+"${margs[@]}"}" --base "${tools[0]:-cudnn}" \
      --meta "commit=$commit" --meta "host=$(uname -srm), $(nproc) cores" --meta "wall=${elapsed} s" \
      --meta "status=$([ $status -eq 0 ] && echo OK || echo FAILED)" --meta "ms=$ms" \
      --out "$out/$outname" || status=1
    echo "wrote $out/$outname (${elapsed} s)" >&2
    exit $status ;;
  *) echo "usage: $0 prepare [BUILD_DIR] | run" >&2; exit 2 ;;
esac
