#!/usr/bin/env bash
# run-device.sh: every measurement of perf/ on one device, by stage, from the repository root.
#
#   perf/run-device.sh STAGE...        runs the stages in order (each one even when an earlier failed)
#   perf/run-device.sh [-h]            lists the stages, what each writes and the environment
#
# On the lent GPU machine (the device tool, kind nvidia-h100-x1; carry [".carry/baselines",
# ".carry/clblast"] for the stages with baselines, [".carry"] for tests) it registers NVIDIA's OpenCL
# ICD first (the image lists only PoCL), builds what the stages need (Release, no tests) into BUILD_DIR
# and writes each table into $OUT; copy them into perf/results/ (one file per device and date). Here
# (DEVICE=cpu: PoCL) the same stages run with smaller defaults. The helpers shared by the stages (ICD,
# build, CUDA / CLBlast libraries, baseline lookup, time budgets, header fields) are below, once; the
# tables are written by perf/merge.py. Exit status 0, or 1 when a stage failed (its table is still
# written where it can be), 2 for a usage error.
set -u -o pipefail
cd "$(dirname "$0")/.." || exit 2
root=$PWD

# ------------------------------------------------------------------------------------------ settings
device=${DEVICE:-gpu}
case $device in cpu|CPU) on_cpu=1 ;; *) on_cpu=0 ;; esac
if [ $on_cpu = 1 ]; then build=${BUILD_DIR:-build}; else build=${BUILD_DIR:-build-h100}; fi
out=${OUT:-.}
bench=$build/perf/cldnn-bench
# the GPU runs keep cldnn's program cache out of the home folder (the tree is a fresh copy each call)
[ $on_cpu = 1 ] || export CLDNN_CACHE_DIR=${CLDNN_CACHE_DIR:-/tmp/cldnn-kc}
conv_default=perf/shapes/conv-nets.csv,perf/shapes/conv-depthwise.csv,perf/shapes/conv-deepbench.csv

usage() {
  cat <<'EOF'
usage: perf/run-device.sh STAGE...      (from anywhere; it works in the repository root)

Stages (TAG: h100 or h200 after nvidia-smi's card name, pocl for DEVICE=cpu, gpu otherwise; files in $OUT):
  prepare        here: builds the baselines (cublas_gemm, clblast_gemm, cudnn_conv, cudnn_ops; those whose
                 library is found) into .carry/baselines/, downloads libclblast1's .deb into .carry/clblast/
  prepare-tests  here: TEST_BUILD's (build) test binaries and libcldnn into .carry/bin/, Criterion's
                 runtime .debs into .carry/debs/ (then the device tool with carry [".carry"])
  build          cldnn-bench and the other perf tools into BUILD_DIR; lists the OpenCL devices
  tests          the Criterion suites of .carry/bin on DEVICE                    -> stdout only
  sweep          activation, tensor-op and softmax bandwidth (SIZE_MIB, ITERS)   -> activ-tensor-TAG.md
  gemm           FP32 GEMM vs cuBLAS + CLBlast (cpu: OpenBLAS + CLBlast)         -> gemm-TAG.md
  gemm-tf32      TF32 tensor-core GEMM (--math tensor) vs cuBLAS TF32            -> gemm-tf32-TAG.md
  gemm-fp16      FP16 tensor-core GEMM (-d half --math tensor) vs cuBLAS FP16    -> gemm-fp16-TAG.md
  gemm-bf16      BF16 tensor-core GEMM (-d bfloat16 --math tensor) vs cuBLAS BF16 -> gemm-bf16-TAG.md
  mma-check      tensor-core GEMM correctness: edge shapes, transposes, ld's, batch, split-k -> mma-TAG.txt
  mma-sweep      GEMM_SHAPES per CLDNN_SOLVER_PARAMS set of MMA_SETS, cuBLAS TF32 + FP32 -> mma-TAG.txt
  fp16-check     the FP16 GEMM verified: edge shapes, then DeepBench and the squares -> mma-TAG.txt
  mma-peak       cldnn-mma-peak 4096 8 16 64, the mma.sync ceiling               -> mma-peak-TAG.txt
  conv           convolution (FP32), Find's best, vs cuDNN (cpu: oneDNN)         -> conv-TAG.md (+ .<tool>.log)
  conv-1x1       ResNet-50's 1x1 layers verified, TENSOR_OP_MATH then FMA_MATH, vs cuDNN
                                                  -> conv-tf32-1x1-TAG.md, conv-fp32-1x1-TAG.md
  conv-tf32      every conv-nets layer verified under TENSOR_OP_MATH vs cuDNN    -> conv-tf32-TAG.md
  conv-fp16      every conv-nets layer verified, HALF data, TENSOR_OP_MATH, vs cuDNN FP16 -> conv-fp16-TAG.md
  conv-bf16      every conv-nets layer verified, BFLOAT16 data, TENSOR_OP_MATH, vs cuDNN BF16 -> conv-bf16-TAG.md
  ops            pooling, batch norm, LRN, softmax (ops-nets.csv) vs cudnn_ops   -> pool-norm-TAG.md (+ logs)
  ops-v11        op tensor, reduce, dropout, layer / RMS / group norm (ops-v11.csv) vs cudnn_ops and
                 PyTorch (perf/baselines/torch_ops.py), verified            -> ops-v11-TAG.md (+ logs)
  attn           scaled dot-product attention over issue 22's grid (perf/baselines/torch_attn.py --commands)
                 vs PyTorch's F.scaled_dot_product_attention (flash for FP16 / BF16)  -> attention-TAG.md (+ logs)
  convbiasact    fused conv + bias + ReLU on ResNet-50 (batch 32) vs the plain conv of the same algorithm,
                 the three separate calls and cuDNN's fused call           -> convbiasact-TAG.md (+ logs)
  train          examples/train_digits cold and warm, PyTorch on CUDA           -> train-digits-TAG.md (+ logs)
  first-iter     a network's first training iteration, cold / warm / prepare    -> first-iter-TAG.md
  get-vs-find    Get_v7's heuristic vs Find's fastest, the find-db hit rate     -> get-vs-find-TAG.md
  tune           cldnn-tune db over ResNet-50 (TUNE_BUDGET s), tuned vs heuristic -> tune-TAG.md
  sysdb          the system find-db (MODE=TUNE: and tuning) tables into OUTDIR (db/)
  host-cost      host cost of one tiny conv / GEMM / ReLU call (HOST_COST_ARGS)  -> host-cost-TAG.md
  pytorch        the PyTorch backend on this machine's torch: its extension built in place, its pytest suite
                 on DEVICE, then perf/pytorch_bench.py (ResNet-50, MobileNetV2 training and inference, the
                 tiny-op loop; ocl against cuda)                          -> pytorch-TAG.md (+ logs)

Every stage also writes its stdout and stderr to $OUT/run-STAGE.log. Environment (defaults):
  DEVICE (gpu; cpu = PoCL)  OUT (.)  BUILD_DIR (build-h100; cpu: build; an existing build tree is not
  reconfigured)  NO_BUILD=1 (use the binaries as they are)  TAG (see above)  CLDNN_COMMIT (the commit
  to record; the device tool sends no .git)  CLDNN_CACHE_DIR (/tmp/cldnn-kc)
  BASELINE_DIR (first .carry/baselines, then BUILD_DIR/perf)  MS (per stage: gemm 50, mma 30,
  conv 10 (cpu 200), ops 20)
  sweep: SIZE_MIB (256; cpu 64), ITERS (20; cpu 5)
  gemm*: GEMM_SHAPES (gemm-square.csv,deepbench-gemm-training.csv; cpu gemm-smoke.csv),
         BASELINES (cublas clblast; cpu openblas clblast; tf32/fp16 cublas), VERIFY (1)
  mma-*: GEMM_SHAPES (gemm-square.csv), MMA_SETS (default), CLDNN_LOG_LEVEL (1)
  conv*: CONV_SHAPES (conv-nets, conv-depthwise, conv-deepbench; cpu conv-smoke.csv),
         BASELINES (cudnn; cpu onednn; set but empty: none), BUDGET (s per stage: 540, conv-1x1 200 each),
         CLDNN_WEIGHT (1: cldnn-bench's share of the budget against 1 per baseline), CLDNN=0 (baselines
         alone), BENCH_FLAGS / BASE_FLAGS (the flags after --shapes FILE)
  ops:   CASES (perf/shapes/ops-nets.csv), ONLY (a regular expression on NAME:DIR), CUDNN (1; cpu 0),
         CASE_TIMEOUT (120 s per cldnn-bench case)
  ops-v11: as ops (CASES perf/shapes/ops-v11.csv), VERIFY (1: cldnn-bench -V), ITERS (50: -i), TORCH (1; cpu 0)
  attn:  ONLY (a regular expression on attn-DTYPE-dD-sS-cC:DIR), MS (50: PyTorch's), ITERS (20: -i), VERIFY_MAX
         (1024: cldnn-bench -V 1 up to that length), TORCH (1; cpu 0), CASE_TIMEOUT (120 s per case)
  convbiasact: CONV_SHAPES (conv-nets.csv), PREFIX (resnet50/), ACT (relu), MS (10; cpu 200), BUDGET (540 s),
         CUDNN (1; cpu 0), FUSED_FLAGS (-a find -V 1 --ms MS: the fused run's flags after --shapes and --act)
  train: EPOCHS (10), TORCH (1; cpu 0), DATA (scikit-learn's digits.csv.gz)
  first-iter: FIRST_ITER_SHAPES (conv-nets.csv), PREFIX (resnet50/), BATCH (the list's; cpu 1), LAYERS,
         STEADY (3), THREADS (the library's default)
  get-vs-find: CONV_SHAPES (cpu: conv-smoke.csv,conv-pocl.csv), SYSDB (the library's tables)
  tune:  TUNE_SHAPES (conv-nets.csv), PREFIX (resnet50/), TUNE_BUDGET (100), PER_PROBLEM (4)
  sysdb: CONV_SHAPES, MODE (BENCHMARK), OUTDIR (db), REPLACE (0), SYSDB_FLAGS (extra cldnn-bench flags)
  host-cost: HOST_COST_ARGS (-n 2000 -r 5)
  pytorch: PYTORCH_ARGS (perf/pytorch_bench.py's flags; cpu: --devices ocl --models resnet18 --size 32
         --train-batches 4 --infer-batches 1 --steps 2 --warmup 1 --tiny 200), TESTS (1: run the pytest suite),
         TORCH_CXX (the extension's compiler: /usr/bin/g++ where it exists, else CXX);
         ninja from .carry/wheels/ninja-*.whl when there, pytest from its wheels there when python3 has none
         (pip download ninja pytest -d .carry/wheels; carry .carry/wheels)
Examples:
  ./perf/run-device.sh sweep gemm conv                  # the device tool, carry [".carry/baselines", ".carry/clblast"]
  DEVICE=cpu OUT=/tmp/r perf/run-device.sh host-cost    # PoCL here
EOF
}

# ----------------------------------------------------------------------------------- shared helpers
status=0
fail() { echo "run-device.sh: $*" >&2; status=1; }
commit() { echo "${CLDNN_COMMIT:-$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)}"; }
host_desc() { echo "$(uname -srm), $(nproc) cores"; }
ok_word() { [ "$1" = 0 ] && echo OK || echo FAILED; }
csv_list() { local IFS=,; read -r -a "$1" <<< "$2"; }  # csv_list ARRAY "a,b,c"

# NVIDIA's OpenCL ICD: the GPU machine ships libnvidia-opencl but registers only PoCL (runs as root).
register_icd() {
  local icd=/usr/lib/libnvidia-opencl.so.1
  if [ -e "$icd" ] && [ -w /etc/OpenCL/vendors ] && [ ! -e /etc/OpenCL/vendors/nvidia.icd ]; then
    echo "$icd" > /etc/OpenCL/vendors/nvidia.icd
  fi
}

# need TARGET...: builds the targets into BUILD_DIR (configured Release without tests when it has no
# CMakeCache.txt yet; an existing tree keeps its configuration). NO_BUILD=1 only checks they are there.
built=" "
need() {
  local t missing=()
  for t in "$@"; do case $built in *" $t "*) ;; *) missing+=("$t") ;; esac; done
  [ ${#missing[@]} -gt 0 ] || return 0
  if [ "${NO_BUILD:-0}" = 1 ]; then built="$built${missing[*]} "; return 0; fi
  mkdir -p "$build"
  if [ ! -e "$build/CMakeCache.txt" ]; then
    cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCLDNN_BUILD_TESTS=OFF > "$build/build.log" 2>&1 ||
      { tail -n 40 "$build/build.log"; fail "configuring $build failed"; return 1; }
  fi
  echo "+ cmake --build $build --target ${missing[*]}" >&2
  cmake --build "$build" -j"$(nproc)" --target "${missing[@]}" >> "$build/build.log" 2>&1 ||
    { tail -n 60 "$build/build.log"; fail "building ${missing[*]} failed"; return 1; }
  built="$built${missing[*]} "
}

# The card's short name for the file names: h100 / h200 (nvidia-smi), pocl on cpu, else gpu.
smi_line() {
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader 2>/dev/null | head -n 1
}
if [ -z "${TAG:-}" ]; then
  if [ $on_cpu = 1 ]; then TAG=pocl
  else
    case $(smi_line) in *H100*) TAG=h100 ;; *H200*) TAG=h200 ;; *) TAG=gpu ;; esac
  fi
fi

# cuda_libs: cuDNN 9, cuBLAS(Lt), NVRTC and the CUDA 13 runtime onto LD_LIBRARY_PATH, /usr/local/cuda first,
# then PyTorch's nvidia.* pip packages (cuDNN loads its sublibraries from its own folder). Sets
# cudnn_dir ("" if none); returns 1 when libcudnn.so.9 was not found. Once per run.
cudnn_dir=""
cuda_done=""
cuda_libs() {
  [ -n "$cuda_done" ] && { [ -n "$cudnn_dir" ]; return; }
  cuda_done=1
  local libpath="" pydirs=() sysdirs=(/usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib
                                      /usr/lib/x86_64-linux-gnu) name d f
  mapfile -t pydirs < <(python3 -c "import nvidia; print('\n'.join(nvidia.__path__))" 2>/dev/null || true)
  for name in libcudnn.so.9 libcudart.so.13 libcublas.so.13 libcublasLt.so.13 libnvrtc.so.13; do
    f=""
    for d in "${sysdirs[@]}" "${pydirs[@]+"${pydirs[@]}"}"; do
      [ -d "$d" ] || continue
      f=$(find "$d/" -maxdepth 4 -name "$name" 2>/dev/null | head -n 1)
      [ -n "$f" ] && break
    done
    if [ -z "$f" ]; then echo "warning: $name not found" >&2; continue; fi
    echo "$name: $f"
    case ":$libpath:" in *":$(dirname "$f"):"*) ;; *) libpath="$libpath:$(dirname "$f")" ;; esac
    [ "$name" = libcudnn.so.9 ] && cudnn_dir=$(dirname "$f")
  done
  [ -n "$cudnn_dir" ] && echo "cuDNN sublibraries in $cudnn_dir: $(cd "$cudnn_dir" && echo libcudnn_*.so.9)"
  export LD_LIBRARY_PATH="${libpath#:}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  echo "LD_LIBRARY_PATH=$LD_LIBRARY_PATH"
  [ -n "$cudnn_dir" ]
}

# clblast_libs: CLBlast unpacked from the carried .deb (.carry/clblast) onto LD_LIBRARY_PATH. Once per run.
clblast_done=""
clblast_libs() {
  [ -n "$clblast_done" ] && return 0
  clblast_done=1
  local f n=0
  mkdir -p /tmp/x
  for f in .carry/clblast/*.deb; do [ -e "$f" ] && dpkg -x "$f" /tmp/x && n=$((n + 1)); done
  [ $n -gt 0 ] && export LD_LIBRARY_PATH="/tmp/x/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  return 0
}

# baseline NAME: the path of a baseline binary (BASELINE_DIR, else .carry/baselines, else BUILD_DIR/perf),
# made executable; empty when there is none. Warns about libraries it misses.
baseline() {
  local d f
  for d in ${BASELINE_DIR:-.carry/baselines $build/perf}; do
    f=$d/$1
    [ -e "$f" ] || continue
    chmod +x "$f" 2>/dev/null
    [ -x "$f" ] || continue
    if ldd "$f" 2>/dev/null | grep -q 'not found'; then
      echo "warning: $f misses libraries:" >&2
      ldd "$f" | grep 'not found' >&2
    fi
    echo "$f"
    return 0
  done
}

# Time budget: budget_start SECONDS starts a stage's clock (build included), b_left is the sum of the weights;
# capped LOG SET WEIGHT CMD... runs CMD with WEIGHT's share of the seconds left, under timeout, appending
# `# set: SET` and its output to LOG (echoed). It records the command in cmds, and a cut, a failure or a
# skipped command in notes, so that every tool gets its share and the table is written in time.
budget_start() { b_start=$(date +%s); b_total=$1; b_left=0; cmds=(); notes=(); b_status=0; }
capped() {
  local log=$1 set=$2 w=$3 rc cap
  shift 3
  cap=$(( (b_total - ($(date +%s) - b_start)) * w / (b_left > 0 ? b_left : 1) ))
  b_left=$(( b_left - w ))
  if [ $cap -lt 5 ]; then
    notes+=("not run (time budget of ${b_total} s spent): $*")
    echo "run-device.sh: out of time, skipping: $*" >&2
    b_status=1
    return
  fi
  echo "+ $* (at most ${cap} s)" >&2
  cmds+=("$*")
  echo "# set: $set" >> "$log"
  timeout -k 10 "$cap" "$@" | tee -a "$log"
  rc=${PIPESTATUS[0]}
  if [ "$rc" = 124 ]; then notes+=("cut after its ${cap} s share of the budget: $*"); b_status=1
  elif [ "$rc" != 0 ]; then notes+=("exit status $rc: $*"); b_status=1
  fi
}

# merge_args: --cmd/--note for perf/merge.py from cmds and notes
merge_args() {
  margs=()
  local c
  for c in "${cmds[@]+"${cmds[@]}"}"; do margs+=(--cmd "$c"); done
  for c in "${notes[@]+"${notes[@]}"}"; do margs+=(--note "$c"); done
}

# ------------------------------------------------------------------------------------- stage bodies

stage_prepare() {
  local b=${PREP_BUILD:-/tmp/build-baselines} t got=()
  cmake -S . -B "$b" -DCMAKE_BUILD_TYPE=Release -DCLDNN_BUILD_TESTS=OFF > /dev/null || return 1
  mkdir -p .carry/baselines .carry/clblast
  for t in cublas_gemm clblast_gemm cudnn_conv cudnn_ops; do
    if cmake --build "$b" -j"$(nproc)" --target "$t" > /dev/null 2>&1; then
      cp "$b/perf/$t" .carry/baselines/ && got+=("$t")
    else
      echo "warning: $t not built (its library is not found here)" >&2
    fi
  done
  rm -f .carry/clblast/*.deb
  (cd .carry/clblast && apt-get download libclblast1) || echo "warning: libclblast1 not downloaded" >&2
  echo "libraries the baselines need (cuDNN, cuBLAS, the CUDA runtime: on the GPU machine; CLBlast: the .deb):"
  (cd .carry/baselines && ldd "${got[@]}" 2>/dev/null) | grep '=>' | awk '{print "  " $1}' | sort -u
  du -sh .carry/baselines .carry/clblast
}

stage_prepare_tests() {
  local b=${TEST_BUILD:-build}
  mkdir -p .carry/bin .carry/debs
  cp "$b"/tests/test_* .carry/bin/ && cp -P "$b"/libcldnn.so* .carry/bin/ || return 1
  (cd .carry/debs && apt-get download libcriterion3 libnanomsg5 libgit2-1.5 libhttp-parser2.9 \
     libmbedtls14 libmbedx509-1 libmbedcrypto7 libssh2-1 libprotobuf-c1 libffi8) || return 1
  du -sh .carry
}

stage_build() {
  need cldnn-bench cldnn-mma-peak cldnn-first-iter cldnn-tune cldnn-host-cost || return 1
  echo "OpenCL devices:"
  "$bench" --devices
}

stage_tests() {
  local t rc=0
  mkdir -p /tmp/x
  for t in .carry/debs/*.deb; do [ -e "$t" ] && dpkg -x "$t" /tmp/x; done
  for t in .carry/bin/test_*; do
    [ -e "$t" ] || { echo "no .carry/bin/test_* (run the prepare-tests stage here, carry .carry)" >&2; return 1; }
    echo "== $t"
    LD_LIBRARY_PATH=/tmp/x/usr/lib/x86_64-linux-gnu:$PWD/.carry/bin${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
      CLDNN_DEVICE=$device CLDNN_CACHE_DIR=/tmp/cldnn-kc "$t" --jobs 8 || rc=1
  done
  return $rc
}

stage_sweep() {
  need cldnn-bench || return 1
  local size=${SIZE_MIB:-$([ $on_cpu = 1 ] && echo 64 || echo 256)}
  local iters=${ITERS:-$([ $on_cpu = 1 ] && echo 5 || echo 20)}
  local c rc=0 start log
  local sweep=(
    "activ -m all -F 0 -S $size -V 1 -t 1 -i $iters --md --md-header"
    "tensor -o all -S $size -V 1 -t 1 -i $iters --md"
    "tensor -o add -D 32x256x56x56 -b 1 -B 1 -V 1 -t 1 -i $iters --md"
    "tensor -o transform -D 32x256x56x56 -V 1 -t 1 -i $iters --md"
    "softmax -F 0 -a 1 -M 1 -D 32x1000x1x1 -V 1 -t 1 -i $iters --md"
    "softmax -F 0 -a 1 -M 1 -D 32x21x128x128 -V 1 -t 1 -i $iters --md"
    "softmax -F 0 -a 1 -M 0 -D 128x131072x1x1 -V 1 -t 1 -i $iters --md"
  )
  log=$(mktemp)
  start=$(date +%s)
  for c in "${sweep[@]}"; do
    echo "+ CLDNN_DEVICE=$device cldnn-bench $c" >&2
    # shellcheck disable=SC2086  # the flags are words
    CLDNN_DEVICE=$device "$bench" $c | tee -a "$log" || { echo "FAILED: cldnn-bench $c" >&2; rc=1; }
  done
  local margs=() ; for c in "${sweep[@]}"; do margs+=(--cmd "$c"); done
  python3 perf/merge.py sweep --log "$log" --device "$device" "${margs[@]}" --meta "commit=$(commit)" \
    --meta "host=$(host_desc)" --meta "wall=$(( $(date +%s) - start )) s" --meta "status=$(ok_word $rc)" \
    --meta "iters=$iters" --out "$out/activ-tensor-$TAG.md" || rc=1
  rm -f "$log"
  echo "wrote $out/activ-tensor-$TAG.md" >&2
  return $rc
}

# gemm_sweep OUTNAME MATH DTYPE DEFAULT_BASELINES: cldnn-bench gemm over GEMM_SHAPES and the baselines over
# the same files, merged into $out/OUTNAME. MATH: "" or tensor; DTYPE: "", half or bfloat16.
gemm_sweep() {
  local outname=$1 mth=$2 dt=$3 defbase=$4 f t bin tms start log rc=0 math_desc
  local ms=${MS:-50} verify=${VERIFY:-1} shapes=() tools=() logs
  need cldnn-bench || return 1
  if [ $on_cpu = 1 ]; then csv_list shapes "${GEMM_SHAPES:-perf/shapes/gemm-smoke.csv}"
  else csv_list shapes "${GEMM_SHAPES:-perf/shapes/gemm-square.csv,perf/shapes/deepbench-gemm-training.csv}"; fi
  for f in "${shapes[@]}"; do [ -r "$f" ] || { echo "no shape file $f" >&2; return 1; }; done
  [ $on_cpu = 1 ] || cuda_libs > /dev/null 2>&1  # cuBLAS and the CUDA runtime; cuDNN is optional here
  clblast_libs
  smi_line
  logs=$(mktemp -d)
  start=$(date +%s)
  cmds=(); notes=()
  # run_tool LOG CMD...: appends CMD's output to LOG (echoed), records the command and a failure
  run_tool() {
    local log=$1
    shift
    echo "+ $*" >&2
    cmds+=("$*")
    "$@" | tee -a "$log" || { echo "FAILED: $*" >&2; rc=1; }
  }
  for f in "${shapes[@]}"; do
    echo "# set: $(basename "$f" .csv)" >> "$logs/cldnn.log"
    run_tool "$logs/cldnn.log" env CLDNN_DEVICE="$device" "$bench" gemm --shapes "$f" --ms "$ms" -V "$verify" --md-header ${mth:+--math "$mth"} ${dt:+-d "$dt"}
  done
  for t in ${BASELINES-$defbase}; do
    bin=$(baseline "${t}_gemm")
    if [ -z "$bin" ]; then
      notes+=("$t: no binary ${t}_gemm, not run"); echo "no ${t}_gemm binary, skipping $t" >&2; continue
    fi
    tms=$ms
    [ "$t" = openblas ] && tms=$(( ms * 4 > 200 ? ms * 4 : 200 ))
    tools+=("$t")
    for f in "${shapes[@]}"; do
      echo "# set: $(basename "$f" .csv)" >> "$logs/$t.log"
      local bargs=()
      if [ "$mth" = tensor ] && [ "$dt" = half ]; then
        case $t in cublas) bargs=(--fp16 --verify 200) ;; *) notes+=("$t has no FP16 mode here: its figures are FP32") ;; esac
      elif [ "$mth" = tensor ] && [ "$dt" = bfloat16 ]; then
        case $t in cublas) bargs=(--bf16 --verify 200) ;; *) notes+=("$t has no BF16 mode here: its figures are FP32") ;; esac
      elif [ "$mth" = tensor ]; then
        case $t in cublas) bargs=(--tf32 --verify 200) ;; *) notes+=("$t has no TF32 mode: its figures are FP32") ;; esac
      elif [ -n "$dt" ]; then
        notes+=("$t runs FP32 data: $dt storage without --math tensor has no 16-bit baseline here")
      fi
      run_tool "$logs/$t.log" env CLDNN_DEVICE="$device" "$bin" "$f" --ms "$tms" "${bargs[@]+"${bargs[@]}"}"
    done
  done
  case "$mth/$dt" in
    tensor/half) math_desc="FP16 tensor cores (FP32 accumulation), TENSOR_OP_MATH" ;;
    tensor/bfloat16) math_desc="BF16 tensor cores (FP32 accumulation), TENSOR_OP_MATH" ;;
    tensor/*) math_desc="TF32 tensor cores, TENSOR_OP_MATH" ;;
    */half) math_desc="FP32 arithmetic on HALF storage" ;;
    */bfloat16) math_desc="FP32 arithmetic on BFLOAT16 storage" ;;
    *) math_desc=FP32 ;;
  esac
  merge_args
  for t in "${tools[@]+"${tools[@]}"}"; do margs+=(--baseline "$t=$logs/$t.log"); done
  python3 perf/merge.py gemm --cldnn "$logs/cldnn.log" "${margs[@]}" --meta "commit=$(commit)" \
    --meta "host=$(host_desc)" --meta "wall=$(( $(date +%s) - start )) s" --meta "status=$(ok_word $rc)" \
    --meta "ms=$ms" --meta "math=$math_desc" --out "$out/$outname" || rc=1
  rm -rf "$logs"
  echo "wrote $out/$outname" >&2
  return $rc
}

stage_gemm() { gemm_sweep "gemm-$TAG.md" "" "" "$([ $on_cpu = 1 ] && echo openblas clblast || echo cublas clblast)"; }
stage_gemm_tf32() { gemm_sweep "gemm-tf32-$TAG.md" tensor "" cublas; }
stage_gemm_fp16() { gemm_sweep "gemm-fp16-$TAG.md" tensor half cublas; }
stage_gemm_bf16() { gemm_sweep "gemm-bf16-$TAG.md" tensor bfloat16 cublas; }

# The tensor-core GEMM checks and sweeps append to one log, $out/mma-TAG.txt (its tail is printed at the end).
mma_log=""
mma() {  # mma CMD...: appends the command and its output to the log; counts a failure
  echo "+ $*" >> "$mma_log"
  "$@" >> "$mma_log" 2>&1 || { echo "  (exit $?)" >> "$mma_log"; mma_fails=$((mma_fails + 1)); }
}
mma_begin() {
  need cldnn-bench || return 1
  [ -n "$mma_log" ] || { mma_log="$out/mma-$TAG.txt"; : > "$mma_log"; }
  mma_fails=0
  export CLDNN_DEVICE=$device CLDNN_LOG_LEVEL=${CLDNN_LOG_LEVEL:-1}
}
# mma_edges FLAGS...: the edge shapes in every transpose, row-major with alpha / beta, unaligned ld's,
# batch and a deep reduction (split-k), each verified
mma_edges() {
  local s ta tb
  for s in "1 1 1" "1 300 70" "300 1 70" "129 67 33" "1000 1000 1000" "64 64 4096" "2049 130 517" "96 2000 8"; do
    set -- $s "$@"
    for ta in 0 1; do for tb in 0 1; do
      mma "$bench" gemm -m "$1" -n "$2" -k "$3" --transA $ta --transB $tb "${@:4}" -V 1 -t 0
    done; done
    shift 3
  done
  mma "$bench" gemm -m 333 -n 257 -k 129 --layout row --transA 1 "$@" -V 1 -t 0 -A 0.5 -B 0.25
  mma "$bench" gemm -m 256 -n 256 -k 256 --lda 257 --ldb 259 --ldc 300 "$@" -V 1 -t 0
}
stage_mma_check() {
  mma_begin || return 1
  mma_edges --math tensor
  mma "$bench" gemm -m 200 -n 100 -k 300 --batch 3 --math tensor -V 1 -t 0 -B 1
  mma "$bench" gemm -m 128 -n 128 -k 20000 --math tensor -V 1 -t 0
  echo "mma-check failures: $mma_fails" >> "$mma_log"
  [ $mma_fails = 0 ]
}
stage_fp16_check() {
  mma_begin || return 1
  local f
  mma_edges --math tensor -d half
  mma "$bench" gemm -m 256 -n 256 -k 256 --lda 258 --ldb 262 --math tensor -d half -V 1 -t 0
  mma "$bench" gemm -m 200 -n 100 -k 300 --batch 3 --math tensor -d half -V 1 -t 0 -B 1
  mma "$bench" gemm -m 128 -n 128 -k 20000 --math tensor -d half -V 1 -t 0
  for f in perf/shapes/deepbench-gemm-training.csv perf/shapes/gemm-square.csv; do
    mma "$bench" gemm --shapes "$f" --math tensor -d half -V 1 -t 0
  done
  echo "fp16-check failures: $mma_fails" >> "$mma_log"
  [ $mma_fails = 0 ]
}
stage_mma_sweep() {
  mma_begin || return 1
  local p ms=${MS:-30} mshapes=${GEMM_SHAPES:-perf/shapes/gemm-square.csv} cub
  for p in ${MMA_SETS:-default}; do
    echo "## params $p" >> "$mma_log"
    if [ "$p" = default ]; then mma "$bench" gemm --shapes "$mshapes" --math tensor -V 1 --ms "$ms"
    else CLDNN_SOLVER_PARAMS="gemm_mma_tf32:$p;gemm_mma_f16:$p" mma "$bench" gemm --shapes "$mshapes" --math tensor -V 1 --ms "$ms"; fi
  done
  cuda_libs > /dev/null 2>&1
  cub=$(baseline cublas_gemm)
  if [ -n "$cub" ]; then
    mma "$cub" "$mshapes" --ms "$ms" --tf32
    mma "$cub" "$mshapes" --ms "$ms"
  else
    echo "no cublas_gemm: no baseline" >> "$mma_log"
  fi
  echo "mma-sweep failures: $mma_fails" >> "$mma_log"
  [ $mma_fails = 0 ]
}
stage_mma_peak() {
  need cldnn-mma-peak || return 1
  "$build"/perf/cldnn-mma-peak 4096 8 16 64 > "$out/mma-peak-$TAG.txt" 2>&1
  local rc=$?
  cat "$out/mma-peak-$TAG.txt"
  return $rc
}

# conv_run OUTNAME BUDGET BENCH_FLAGS BASE_FLAGS [SHAPES]: cldnn-bench conv --shapes FILE BENCH_FLAGS and each
# baseline's <tool>_conv --shapes FILE BASE_FLAGS per shape file, within BUDGET seconds from the stage's
# start, merged into $out/OUTNAME with the raw logs beside it (OUTNAME minus .md, .cldnn.log, .<tool>.log).
conv_run() {
  local outname=$1 budget=$2 bflags=$3 tflags=$4 f t bin set_name rc=0 run_cldnn=1 start cw smi
  local shapes=() tools=() mlogs=() logs base=${1%.md}
  local defshapes=$conv_default defbase=cudnn
  [ $on_cpu = 1 ] && { defshapes=perf/shapes/conv-smoke.csv; defbase=onednn; }
  csv_list shapes "${5:-${CONV_SHAPES:-$defshapes}}"
  for f in "${shapes[@]}"; do [ -r "$f" ] || { echo "no shape file $f" >&2; return 1; }; done
  start=$(date +%s)
  budget_start "$budget"
  [ "${CLDNN:-1}" = 0 ] && { run_cldnn=0; notes+=("cldnn-bench not run (CLDNN=0)"); }
  if [ $run_cldnn = 1 ] && ! need cldnn-bench; then
    notes+=("building cldnn-bench failed (see the run's log); cldnn not run")
    run_cldnn=0
    rc=1
  fi
  local baselines=${BASELINES-$defbase}
  if [ -n "$baselines" ] && [ $on_cpu = 0 ]; then cuda_libs && notes+=("cuDNN from $cudnn_dir"); fi
  for t in $baselines; do
    bin=$(baseline "${t}_conv")
    if [ -z "$bin" ]; then
      echo "no ${t}_conv (the prepare stage here, then carry .carry/baselines), skipping $t" >&2
      notes+=("$t: no binary ${t}_conv, not run")
      rc=1
      continue
    fi
    tools+=("$t")
    eval "bin_$t=\$bin"
  done
  smi=$(smi_line)
  [ -n "$smi" ] && { echo "nvidia-smi: $smi"; notes+=("nvidia-smi (name, driver, max SM clock, power limit): $smi"); }
  logs=$(mktemp -d)
  : > "$logs/cldnn.log"
  cw=${CLDNN_WEIGHT:-1}
  b_left=$(( ${#shapes[@]} * (run_cldnn * cw + ${#tools[@]}) ))
  for f in "${shapes[@]}"; do
    set_name=$(basename "$f" .csv)
    if [ $run_cldnn = 1 ]; then
      # shellcheck disable=SC2086  # the flags are words
      capped "$logs/cldnn.log" "$set_name" "$cw" env CLDNN_DEVICE="$device" \
        ${CLDNN_CACHE_DIR:+CLDNN_CACHE_DIR="$CLDNN_CACHE_DIR"} "$bench" conv --shapes "$f" $bflags
    fi
    for t in "${tools[@]+"${tools[@]}"}"; do
      eval "bin=\$bin_$t"
      # shellcheck disable=SC2086
      capped "$logs/$t.log" "$set_name" 1 "$bin" --shapes "$f" $tflags
    done
  done
  [ $b_status = 0 ] || rc=1
  cp "$logs/cldnn.log" "$out/$base.cldnn.log"
  mlogs=("$logs/cldnn.log")
  for t in "${tools[@]+"${tools[@]}"}"; do cp "$logs/$t.log" "$out/$base.$t.log"; mlogs+=("$logs/$t.log"); done
  merge_args
  python3 perf/merge.py conv "${mlogs[@]}" "${margs[@]+"${margs[@]}"}" --base "${tools[0]:-$defbase}" \
    --meta "commit=$(commit)" --meta "host=$(host_desc)" --meta "wall=$(( $(date +%s) - start )) s" \
    --meta "status=$(ok_word $rc)" --meta "ms=$conv_ms" --out "$out/$outname" || rc=1
  rm -rf "$logs"
  echo "wrote $out/$outname ($(( $(date +%s) - start )) s)" >&2
  return $rc
}
conv_ms=10
stage_conv() {
  conv_ms=${MS:-$([ $on_cpu = 1 ] && echo 200 || echo 10)}
  conv_run "conv-$TAG.md" "${BUDGET:-540}" "${BENCH_FLAGS:--F 7 -a find -V 0 --ms $conv_ms}" \
    "${BASE_FLAGS:--F 7 --ms $conv_ms}"
}
stage_conv_1x1() {
  conv_ms=${MS:-10}
  local rc=0
  conv_run "conv-tf32-1x1-$TAG.md" "${BUDGET:-200}" "-F 7 -a find -V 1 --ms $conv_ms --math tensor" \
    "-F 7 --ms $conv_ms --math tensor" perf/shapes/conv-nets-1x1.csv || rc=1
  conv_run "conv-fp32-1x1-$TAG.md" "${BUDGET:-200}" "-F 7 -a find -V 1 --ms $conv_ms --math fma" \
    "-F 7 --ms $conv_ms --math fma" perf/shapes/conv-nets-1x1.csv || rc=1
  return $rc
}
stage_conv_tf32() {
  conv_ms=${MS:-10}
  conv_run "conv-tf32-$TAG.md" "${BUDGET:-540}" "-F 7 -a find -V 1 --ms $conv_ms --math tensor" \
    "-F 7 --ms $conv_ms --math tensor" perf/shapes/conv-nets.csv
}
stage_conv_fp16() {
  conv_ms=${MS:-10}
  conv_run "conv-fp16-$TAG.md" "${BUDGET:-540}" "-F 7 -a find -V 1 --ms $conv_ms -d half --math tensor" \
    "-F 7 --ms $conv_ms --half --math tensor" "${CONV_SHAPES:-perf/shapes/conv-nets.csv}"
}
stage_conv_bf16() {
  conv_ms=${MS:-10}
  conv_run "conv-bf16-$TAG.md" "${BUDGET:-540}" "-F 7 -a find -V 1 --ms $conv_ms -d bfloat16 --math tensor" \
    "-F 7 --ms $conv_ms --bf16 --math tensor" "${CONV_SHAPES:-perf/shapes/conv-nets.csv}"
}

# bench_cases LOG ONLY: the `NAME:DIR<TAB>ARGS` lines on stdin (merge.py ops-commands, ops-v11-commands) whose
# NAME:DIR matches the regular expression ONLY, each through cldnn-bench under `timeout CASE_TIMEOUT` (120 s),
# appending `CASE NAME:DIR ARGS`, its output and, for a non-zero exit, `FAILED (exit N): ...` to LOG. Every case
# runs whatever an earlier one did (a mode that fails is a FAIL row, not the end of the stage); 1 when any failed.
bench_cases() {
  local log=$1 only=$2 name args crc rc=0
  while IFS=$'\t' read -r name args; do
    [[ $name =~ $only ]] || continue
    echo "CASE $name $args" >> "$log"
    # shellcheck disable=SC2086  # the arguments are words
    CLDNN_DEVICE=$device timeout "${CASE_TIMEOUT:-120}" "$bench" $args < /dev/null >> "$log" 2>&1
    crc=$?
    [ $crc = 0 ] || { echo "FAILED (exit $crc): cldnn-bench $args" | tee -a "$log" >&2; rc=1; }
  done
  return $rc
}

# cudnn_ops_cases CASES ONLY LOG MS: cudnn_ops over the rows of CASES whose NAME:DIR matches ONLY, appended to LOG.
# A case the baseline cannot express (`FAIL unsupported`: LRN within a channel, the norms) is no failure; 1 on
# another FAIL line, an exit with no FAIL line to explain it, or no binary.
cudnn_ops_cases() {
  local cases=$1 only=$2 log=$3 ms=$4 bin sub crc unsupported other
  cuda_libs >> "$log" 2>&1
  bin=$(baseline cudnn_ops)
  [ -n "$bin" ] || { echo "FAILED: no cudnn_ops (the prepare stage here, carry .carry/baselines)" >&2; return 1; }
  sub=$(mktemp)
  grep -v '^#' "$cases" | while IFS=, read -r n o d rest; do
    [ -n "$n" ] && [[ "$n:$d" =~ $only ]] && echo "$n,$o,$d,$rest"
  done > "$sub"
  "$bin" --cases "$sub" --ms "$ms" >> "$log" 2>&1
  crc=$?
  rm -f "$sub"
  unsupported=$(grep -c '^RESULT cudnn .* FAIL unsupported$' "$log")
  other=$(grep '^RESULT cudnn .* FAIL ' "$log" | grep -vc ' FAIL unsupported$')
  [ "$unsupported" -gt 0 ] && echo "cudnn_ops: $unsupported case(s) unsupported by cuDNN (no baseline, not a failure)" >&2
  if [ "$other" -gt 0 ] || { [ "$crc" -ne 0 ] && [ "$unsupported" -eq 0 ]; }; then
    echo "FAILED: cudnn_ops (exit $crc, $other failed case(s))" >&2
    return 1
  fi
}

# ops: every case of CASES through cldnn-bench (merge.py ops-commands) and through cudnn_ops.
stage_ops() {
  need cldnn-bench || return 1
  local cases=${CASES:-perf/shapes/ops-nets.csv} ms=${MS:-20} only=${ONLY:-.} rc=0
  local cudnn=${CUDNN:-$([ $on_cpu = 1 ] && echo 0 || echo 1)}
  local cl_log="$out/pool-norm-$TAG.cldnn.log" cu_log="$out/pool-norm-$TAG.cudnn.log"
  : > "$cl_log"
  : > "$cu_log"
  CLDNN_DEVICE=$device "$bench" --devices >> "$cl_log" 2>&1
  bench_cases "$cl_log" "$only" < <(python3 perf/merge.py ops-commands "$cases") || rc=1
  if [ "$cudnn" != 0 ]; then cudnn_ops_cases "$cases" "$only" "$cu_log" "$ms" || rc=1; fi
  python3 perf/merge.py ops "$cases" "$cl_log" "$cu_log" --versions \
    --title "Pooling, batch norm, LRN, softmax: cldnn vs cuDNN, $(date -u +%Y-%m-%d), commit $(commit)" \
    --command "ONLY='$only' MS=$ms DEVICE=$device ./perf/run-device.sh ops" > "$out/pool-norm-$TAG.md" || rc=1
  cat "$out/pool-norm-$TAG.md"
  return $rc
}

# ops-v11: the v1.1 primitives (op tensor, reduce, dropout, layer / RMS / group norm) of CASES through cldnn-bench
# (merge.py ops-v11-commands, verified with -V VERIFY), cudnn_ops (no norms: n/a) and perf/baselines/torch_ops.py
# on the same cases; cldnn-bench modes that are missing or fail give FAIL rows and the stage goes on.
stage_ops_v11() {
  need cldnn-bench || return 1
  local cases=${CASES:-perf/shapes/ops-v11.csv} ms=${MS:-20} only=${ONLY:-.} rc=0 start tcmd
  local verify=${VERIFY:-1} iters=${ITERS:-50}
  local cudnn=${CUDNN:-$([ $on_cpu = 1 ] && echo 0 || echo 1)} torch=${TORCH:-$([ $on_cpu = 1 ] && echo 0 || echo 1)}
  local base="$out/ops-v11-$TAG"
  local cl_log="$base.cldnn.log" cu_log="$base.cudnn.log" to_log="$base.torch.log"
  start=$(date +%s)
  : > "$cl_log"
  : > "$cu_log"
  : > "$to_log"
  CLDNN_DEVICE=$device "$bench" --devices >> "$cl_log" 2>&1
  bench_cases "$cl_log" "$only" < <(python3 perf/merge.py ops-v11-commands "$cases" --verify "$verify" \
    --iters "$iters") || rc=1
  if [ "$cudnn" != 0 ]; then cudnn_ops_cases "$cases" "$only" "$cu_log" "$ms" || rc=1; fi
  tcmd="python3 perf/baselines/torch_ops.py --cases $cases --ms $ms --only='$only' --device $([ $on_cpu = 1 ] &&
    echo cpu || echo cuda)"
  if [ "$torch" != 0 ]; then
    echo "+ $tcmd" >&2
    eval "$tcmd" >> "$to_log" 2>&1 || { echo "FAILED: torch_ops.py (see $to_log)" >&2; rc=1; }
  fi
  python3 perf/merge.py ops-v11 "$cases" "$cl_log" "$cu_log" "$to_log" \
    --title "v1.1 primitives: cldnn vs cuDNN and PyTorch, $(date -u +%Y-%m-%d), commit $(commit)" \
    --command "ONLY='$only' MS=$ms VERIFY=$verify ITERS=$iters CUDNN=$cudnn TORCH=$torch DEVICE=$device ./perf/run-device.sh ops-v11" \
    --cmd "cudnn_ops --cases $cases --ms $ms   # the rows matching ONLY$([ "$cudnn" = 0 ] && echo '; not run')" \
    --cmd "$tcmd$([ "$torch" = 0 ] && echo '   # not run')" \
    --meta "commit=$(commit)" --meta "host=$(host_desc)" --meta "wall=$(( $(date +%s) - start )) s" \
    --meta "status=$(ok_word $rc)" --out "$base.md" || rc=1
  cat "$base.md"
  return $rc
}

# attn: cldnn-bench attn over the grid of perf/baselines/torch_attn.py --commands (verified up to VERIFY_MAX), the
# same script timing PyTorch's F.scaled_dot_product_attention on the same grid, and its --merge into one table
# with the issue's targets; cldnn-bench cases that fail give FAIL rows and the stage goes on.
stage_attn() {
  need cldnn-bench || return 1
  local ms=${MS:-50} only=${ONLY:-.} iters=${ITERS:-20} vmax=${VERIFY_MAX:-1024} rc=0 start tcmd
  local torch=${TORCH:-$([ $on_cpu = 1 ] && echo 0 || echo 1)}
  local base="$out/attention-$TAG"
  local cl_log="$base.cldnn.log" to_log="$base.torch.log"
  start=$(date +%s)
  : > "$cl_log"
  : > "$to_log"
  CLDNN_DEVICE=$device "$bench" --devices >> "$cl_log" 2>&1
  bench_cases "$cl_log" "$only" < <(python3 perf/baselines/torch_attn.py --commands --verify-max "$vmax" \
    --iters "$iters") || rc=1
  tcmd="python3 perf/baselines/torch_attn.py --ms $ms --only='$only' --device $([ $on_cpu = 1 ] && echo cpu || echo cuda)"
  if [ "$torch" != 0 ]; then
    echo "+ $tcmd" >&2
    eval "$tcmd" >> "$to_log" 2>&1 || { echo "FAILED: torch_attn.py (see $to_log)" >&2; rc=1; }
  fi
  python3 perf/baselines/torch_attn.py --merge "$cl_log" "$to_log" \
    --title "Scaled dot-product attention: cldnn vs PyTorch SDPA, $(date -u +%Y-%m-%d), commit $(commit)" \
    --cmd "ONLY='$only' MS=$ms ITERS=$iters VERIFY_MAX=$vmax TORCH=$torch DEVICE=$device ./perf/run-device.sh attn" \
    --cmd "$tcmd$([ "$torch" = 0 ] && echo '   # not run')" \
    --meta "commit=$(commit)" --meta "host=$(host_desc)" --meta "wall=$(( $(date +%s) - start )) s" \
    --meta "status=$(ok_word $rc)" > "$base.md" || rc=1
  cat "$base.md"
  return $rc
}

# convbiasact: the fused convolution + bias + activation (ACT) on the layers of CONV_SHAPES named PREFIX*, forward:
# cldnn-bench convbiasact (FUSED_FLAGS), then per fused algorithm (merge.py convbiasact-plan) the plain
# cldnn-bench conv and convbiasact --separate 1 with that algorithm (-a N; layers without a fused time: -a find),
# and cudnn_conv --fused ACT (cuDNN takes relu and identity only). A mode that fails leaves FAIL cells.
stage_convbiasact() {
  need cldnn-bench || return 1
  local ms=${MS:-$([ $on_cpu = 1 ] && echo 200 || echo 10)} act=${ACT:-relu} prefix=${PREFIX:-resnet50/}
  local src=${CONV_SHAPES:-perf/shapes/conv-nets.csv} cudnn=${CUDNN:-$([ $on_cpu = 1 ] && echo 0 || echo 1)}
  local fflags=${FUSED_FLAGS:--a find -V 1 --ms $ms} tmp layers algo sub n bin f rc=0 start
  local base="$out/convbiasact-$TAG" envs=(env CLDNN_DEVICE="$device")
  [ -n "${CLDNN_CACHE_DIR:-}" ] && envs+=(CLDNN_CACHE_DIR="$CLDNN_CACHE_DIR")
  start=$(date +%s)
  tmp=$base.shapes  # the layer lists the commands read, kept beside the table
  rm -rf "$tmp" && mkdir -p "$tmp"
  layers=$tmp/layers.csv
  awk -F, -v p="$prefix" '/^#/ || !NF {next} !h {print; h=1; next} index($1, p) == 1' "$src" > "$layers"
  n=$(( $(wc -l < "$layers") - 1 ))
  [ "$n" -gt 0 ] || { echo "no layer of $src starts with $prefix" >&2; return 1; }
  for f in fused plain separate cudnn; do : > "$base.$f.log"; done
  budget_start "${BUDGET:-540}"
  b_left=5  # the fused run (Find and verification included) weighs 2, plain, separate and cuDNN 1 each
  # shellcheck disable=SC2086  # the flags are words
  capped "$base.fused.log" fused 2 "${envs[@]}" "$bench" convbiasact --shapes "$layers" --act "$act" $fflags
  python3 perf/merge.py convbiasact-plan "$base.fused.log" "$layers" "$tmp/plan" > "$tmp/plan.txt" || rc=1
  b_left=$(( 2 * $(wc -l < "$tmp/plan.txt") + 1 ))
  while read -r algo sub; do
    capped "$base.plain.log" "plain-$algo" 1 "${envs[@]}" "$bench" conv --shapes "$sub" -F 1 -a "$algo" -V 0 \
      --ms "$ms"
    capped "$base.separate.log" "separate-$algo" 1 "${envs[@]}" "$bench" convbiasact --shapes "$sub" --act "$act" \
      -a "$algo" --separate 1 -V 0 --ms "$ms"
  done < "$tmp/plan.txt"
  if [ "$cudnn" != 0 ]; then
    bin=$(baseline cudnn_conv)
    case $act in relu|identity) ;; *) bin=""; notes+=("cuDNN's fused call takes relu and identity only, not $act") ;; esac
    if [ -n "$bin" ]; then
      cuda_libs > /dev/null 2>&1 && notes+=("cuDNN from $cudnn_dir")
      capped "$base.cudnn.log" cudnn 1 "$bin" --shapes "$layers" -F 1 --ms "$ms" --fused "$act"
    else
      notes+=("cudnn_conv not run (no binary: the prepare stage here, then carry .carry/baselines)")
      b_status=1
    fi
  fi
  [ $b_status = 0 ] || rc=1
  local smi
  smi=$(smi_line)
  [ -n "$smi" ] && notes+=("nvidia-smi (name, driver, max SM clock, power limit): $smi")
  notes+=("layers: the $n rows of $src named $prefix* (convbiasact-$TAG.shapes/layers.csv, beside the table); \
plan/algo-N.csv: those whose fused row chose algorithm N, plan/find.csv: those without a fused time (merge.py \
convbiasact-plan)")
  cmds=("${cmds[@]/#"$out/"/}")  # the shape files relative to OUT, where they are kept
  cmds=("${cmds[@]// "$out/"/ }")
  merge_args
  python3 perf/merge.py convbiasact --fused "$base.fused.log" --plain "$base.plain.log" \
    --separate "$base.separate.log" --cudnn "$base.cudnn.log" "${margs[@]+"${margs[@]}"}" \
    --cmd "# MS=$ms ACT=$act PREFIX=$prefix CONV_SHAPES=$src DEVICE=$device ./perf/run-device.sh convbiasact" \
    --meta "commit=$(commit)" --meta "host=$(host_desc)" --meta "act=$act" --meta "ms=$ms" \
    --meta "wall=$(( $(date +%s) - start )) s" --meta "status=$(ok_word $rc)" --out "$base.md" || rc=1
  cat "$base.md"
  return $rc
}

# train: train_digits with an empty program cache, then on the warm cache (--no-cpu), then the same
# network in PyTorch (perf/baselines/train_digits_torch.py: same data, split, order, initial weights).
stage_train() {
  need train_digits || return 1
  local epochs=${EPOCHS:-10} torch=${TORCH:-$([ $on_cpu = 1 ] && echo 0 || echo 1)} rc=0 data cache
  local name=train-digits-$TAG data_args=()
  data=${DATA:-$(python3 -c 'import importlib.util, os
s = importlib.util.find_spec("sklearn")
print(os.path.join(list(s.submodule_search_locations)[0], "datasets", "data", "digits.csv.gz") if s else "")' \
    2>/dev/null)}
  if [ -n "$data" ] && [ -e "$data" ]; then  # decompressed here, so that zlib is not needed
    python3 -c 'import gzip, shutil, sys
src = gzip.open(sys.argv[1], "rb") if sys.argv[1].endswith(".gz") else open(sys.argv[1], "rb")
shutil.copyfileobj(src, open(sys.argv[2], "wb"))' "$data" "$build/digits.csv" && data_args=(--data "$build/digits.csv")
  else
    echo "warning: no digits data file found; train_digits picks its own (Debian's, else GENERATED)" >&2
  fi
  cache=$(mktemp -d)
  local cold="$out/$name.cldnn-cold.log" warm="$out/$name.cldnn-warm.log" tlog="$out/$name.torch.log"
  CLDNN_DEVICE=$device CLDNN_CACHE_DIR=$cache "$build"/examples/train_digits "${data_args[@]}" --epochs "$epochs" \
    2>&1 | tee "$cold" || rc=1
  CLDNN_DEVICE=$device CLDNN_CACHE_DIR=$cache "$build"/examples/train_digits "${data_args[@]}" --epochs "$epochs" \
    --no-cpu 2>&1 | tee "$warm" || rc=1
  rm -rf "$cache"
  : > "$tlog"
  if [ "$torch" != 0 ]; then
    python3 perf/baselines/train_digits_torch.py "${data_args[@]}" --epochs "$epochs" 2>&1 | tee "$tlog" || rc=1
  fi
  python3 perf/merge.py train --cold "$cold" --warm "$warm" --torch "$tlog" --meta "commit=$(commit)" \
    --meta "command=DEVICE=$device EPOCHS=$epochs TORCH=$torch ./perf/run-device.sh train" --out "$out/$name.md" || rc=1
  cat "$out/$name.md"
  return $rc
}

# first-iter: cldnn-first-iter in fresh processes: cold (empty CLDNN_CACHE_DIR and driver caches: POCL_CACHE_DIR,
# CUDA_CACHE_PATH), warm (what cold stored), warm+prepare (--prepare), then cold+prepare twice with caches of
# their own: CLDNN_BUILD_THREADS=1, then THREADS or the library's default (the prepare column: the cold
# compile time, serial against parallel). CLDNN_DB_PATH is empty in every run.
stage_first_iter() {
  need cldnn-first-iter || return 1
  local bin=$build/perf/cldnn-first-iter tmp run n cache rc=0 extra env_extra runs=()
  local args=(--shapes "${FIRST_ITER_SHAPES:-perf/shapes/conv-nets.csv}" --prefix "${PREFIX:-resnet50/}"
              --steady "${STEADY:-3}")
  local batch=${BATCH:-$([ $on_cpu = 1 ] && echo 1)}
  [ -n "$batch" ] && args+=(--batch "$batch")
  [ -n "${LAYERS:-}" ] && args+=(--layers "$LAYERS")
  tmp=$(mktemp -d)
  mkdir -p "$tmp/cache" "$tmp/pocl" "$tmp/cuda"
  for run in cold warm warm+prepare cold+prepare:1 "cold+prepare:${THREADS:-}"; do
    extra=()
    env_extra=("POCL_CACHE_DIR=$tmp/pocl" "CUDA_CACHE_PATH=$tmp/cuda")
    cache=$tmp/cache
    case $run in
      warm+prepare) extra=(--prepare) ;;
      cold+prepare:*)
        extra=(--prepare)
        n=${run#cold+prepare:}
        cache=$tmp/cache-$run
        mkdir -p "$cache" "$tmp/pocl-$run" "$tmp/cuda-$run"
        env_extra=("POCL_CACHE_DIR=$tmp/pocl-$run" "CUDA_CACHE_PATH=$tmp/cuda-$run")
        [ -n "$n" ] && env_extra+=("CLDNN_BUILD_THREADS=$n") ;;
    esac
    rm -rf "$tmp/db" && mkdir -p "$tmp/db"
    echo "+ CLDNN_DEVICE=$device CLDNN_CACHE_DIR=<$run cache> CLDNN_DB_PATH=<empty> $bin ${args[*]} ${extra[*]}" >&2
    env "${env_extra[@]}" CLDNN_DEVICE="$device" CLDNN_CACHE_DIR="$cache" CLDNN_DB_PATH="$tmp/db" "$bin" \
      "${args[@]}" "${extra[@]+"${extra[@]}"}" > "$tmp/$run.log" || { echo "the $run run failed" >&2; rc=1; }
    cat "$tmp/$run.log" >&2
    runs+=(--run "${run%%:*}=$tmp/$run.log")
  done
  python3 perf/merge.py first-iter "${runs[@]}" --meta "commit=$(commit)" --meta "host=$(host_desc)" \
    --meta "prefix=${PREFIX:-resnet50/}" --meta "steady=${STEADY:-3}" \
    --meta "command=${STEADY:+STEADY=$STEADY }${THREADS:+THREADS=$THREADS }${batch:+BATCH=$batch }${PREFIX:+PREFIX=$PREFIX }${LAYERS:+LAYERS=$LAYERS }DEVICE=$device perf/run-device.sh first-iter" \
    --out "$out/first-iter-$TAG.md" || rc=1
  rm -rf "$tmp"
  cat "$out/first-iter-$TAG.md"
  return $rc
}

stage_get_vs_find() {
  need cldnn-bench || return 1
  local gshapes=${CONV_SHAPES:-$([ $on_cpu = 1 ] && echo perf/shapes/conv-smoke.csv,perf/shapes/conv-pocl.csv ||
                                echo perf/shapes/conv-nets.csv,perf/shapes/conv-depthwise.csv)}
  python3 perf/merge.py get-vs-find --bench "$bench" --device "$device" --shapes "$gshapes" \
    ${SYSDB:+--sysdb "$SYSDB"} --meta "date=$(date -u '+%Y-%m-%d %H:%M UTC')" --meta "commit=$(commit)" \
    --meta "host=$(host_desc)" --meta "device=CLDNN_DEVICE=$device" --out "$out/get-vs-find-$TAG.md"
}

# tune: cldnn-tune db (Find in the TUNE mode) over the layers of TUNE_SHAPES starting with PREFIX into a fresh
# tuning db; exit status 3 (the budget ended first) is no failure, the rows are the problems it finished.
stage_tune() {
  need cldnn-tune || return 1
  local db rc
  db=$(mktemp -d)
  local cmd=(env CLDNN_DEVICE="$device" CLDNN_DB_PATH="$db" "$build"/perf/cldnn-tune db
             --shapes "${TUNE_SHAPES:-perf/shapes/conv-nets.csv}" --prefix "${PREFIX:-resnet50/}"
             --budget "${TUNE_BUDGET:-100}" --per-problem "${PER_PROBLEM:-4}" --md "$out/tune-$TAG.md")
  echo "+ ${cmd[*]}" >&2
  "${cmd[@]}"
  rc=$?
  rm -rf "$db"
  [ $rc = 3 ] && { echo "cldnn-tune: budget spent (exit 3), the table has the problems it finished" >&2; rc=0; }
  return $rc
}

# sysdb: Find (CLDNN_FIND_MODE=MODE) over every direction of the shape files with a fresh CLDNN_DB_PATH and no
# system tables, then the find-v1-*.txt (and tune-v1-*.txt) merged after the records of a file of the same
# name in OUTDIR (the last record of a key wins) or replacing it (REPLACE=1).
stage_sysdb() {
  need cldnn-bench || return 1
  local mode=${MODE:-BENCHMARK} outdir=${OUTDIR:-db} tmp f src dst n=0 rc=0 shapes=()
  csv_list shapes "${CONV_SHAPES:-$conv_default}"
  tmp=$(mktemp -d)
  for f in "${shapes[@]}"; do
    [ -r "$f" ] || { echo "no shape file $f" >&2; rm -rf "$tmp"; return 1; }
    echo "+ CLDNN_FIND_MODE=$mode $bench conv --shapes $f -F 7 -a find -V 0 -t 0 ${SYSDB_FLAGS:-}" >&2
    # shellcheck disable=SC2086  # SYSDB_FLAGS are words
    if ! CLDNN_DEVICE=$device CLDNN_FIND_MODE=$mode CLDNN_DB_PATH=$tmp CLDNN_SYSTEM_DB_PATH='' \
        "$bench" conv --shapes "$f" -F 7 -a find -V 0 -t 0 ${SYSDB_FLAGS:-} > "$tmp/bench.log"; then
      echo "cldnn-bench reported failures on $f (the records it made are kept):" >&2
      grep -E 'FAIL' "$tmp/bench.log" | head -n 20 >&2
      rc=1
    fi
  done
  mkdir -p "$outdir"
  for src in "$tmp"/find-v*.txt "$tmp"/tune-v*.txt; do
    [ -e "$src" ] || continue
    dst=$outdir/$(basename "$src")
    if [ -e "$dst" ] && [ "${REPLACE:-0}" != 1 ]; then
      if [ "$(head -n 1 "$dst")" != "$(head -n 1 "$src")" ]; then
        echo "$dst has another header; not merging (REPLACE=1 overwrites)" >&2
        rc=1
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
  rm -rf "$tmp"
  [ $n -gt 0 ] || { echo "Find recorded nothing" >&2; rc=1; }
  return $rc
}

stage_host_cost() {
  need cldnn-host-cost || return 1
  local log rc
  log=$(mktemp)
  # shellcheck disable=SC2086  # HOST_COST_ARGS are words
  CLDNN_DEVICE=$device "$build"/perf/cldnn-host-cost ${HOST_COST_ARGS:-} | tee "$log"
  rc=${PIPESTATUS[0]}
  python3 perf/merge.py host-cost --log "$log" --meta "commit=$(commit)" --meta "host=$(host_desc)" \
    --cmd "${HOST_COST_ARGS:+HOST_COST_ARGS='$HOST_COST_ARGS' }DEVICE=$device perf/run-device.sh host-cost" \
    --out "$out/host-cost-$TAG.md" || rc=1
  rm -f "$log"
  return $rc
}

# pytorch: integrations/pytorch's extension built in place against BUILD_DIR's libcldnn (through a prefix of
# links, setup.py's CLDNN_ROOT), its pytest suite on DEVICE, then perf/pytorch_bench.py with the fallback
# lines (CLDNN_TORCH_FALLBACK=warn) kept in its log.
stage_pytorch() {
  need cldnn || return 1
  local rc=0 whl prefix=/tmp/cldnn-prefix name=pytorch-$TAG
  local args=${PYTORCH_ARGS:-$([ $on_cpu = 1 ] && echo "--devices ocl --models resnet18 --size 32 --train-batches 4 \
--infer-batches 1 --steps 2 --warmup 1 --tiny 200")}
  for whl in .carry/wheels/ninja-*.whl; do  # unpacked, not installed: the binary is all torch's build needs
    [ -e "$whl" ] && python3 -m zipfile -e "$whl" /tmp/pyninja && mkdir -p /tmp/pyninja/bin &&
      install -m 755 /tmp/pyninja/ninja-*.data/scripts/ninja /tmp/pyninja/bin/ && export PATH=/tmp/pyninja/bin:$PATH
  done
  mkdir -p "$prefix/lib" && ln -sfn "$root/include" "$prefix/include" && cp -P "$build"/libcldnn.so* "$prefix/lib/"
  # the system compiler: the GPU machine's CXX (/opt/gcc/bin/g++) links libstdc++ statically, which
  # crashes inside torch's process (integrations/pytorch/setup.py refuses such a build)
  local cxx=${TORCH_CXX:-$([ -x /usr/bin/g++ ] && echo /usr/bin/g++ || echo "${CXX:-c++}")}
  (cd integrations/pytorch && CXX=$cxx CLDNN_ROOT=$prefix MAX_JOBS=$(nproc) python3 setup.py build_ext --inplace) \
    > "$out/$name.build.log" 2>&1 || { tail -n 40 "$out/$name.build.log"; fail "building cldnn_torch failed"; return 1; }
  if [ "${TESTS:-1}" != 0 ]; then
    local pypath=$root/integrations/pytorch
    if ! python3 -c 'import pytest' 2> /dev/null; then  # pure-Python wheels from .carry/wheels (pip download pytest)
      for whl in .carry/wheels/*-none-any.whl; do [ -e "$whl" ] && python3 -m zipfile -e "$whl" /tmp/pywheels; done
      pypath=$pypath:/tmp/pywheels
    fi
    PYTHONPATH=$pypath CLDNN_DEVICE=$device python3 -m pytest -q -p no:cacheprovider \
      integrations/pytorch/tests > "$out/$name.tests.log" 2>&1 || rc=1
    tail -n 25 "$out/$name.tests.log"
  fi
  # shellcheck disable=SC2086  # PYTORCH_ARGS are words
  PYTHONPATH=$root/integrations/pytorch CLDNN_DEVICE=$device python3 perf/pytorch_bench.py $args --out "$out/$name.md" \
    --meta "commit=$(commit)" --meta "host=$(host_desc)" --meta "card=$(smi_line)" \
    --meta "stage=${PYTORCH_ARGS:+PYTORCH_ARGS='$PYTORCH_ARGS' }DEVICE=$device perf/run-device.sh pytorch" \
    2>&1 | tee "$out/$name.log" | grep -E '^RESULT|falls back|Error'
  [ "${PIPESTATUS[0]}" = 0 ] || rc=1
  cat "$out/$name.md"
  return $rc
}

# --------------------------------------------------------------------------------------------- main
stages="prepare prepare-tests build tests sweep gemm gemm-tf32 gemm-fp16 gemm-bf16 mma-check mma-sweep fp16-check mma-peak
        conv conv-1x1 conv-tf32 conv-fp16 conv-bf16 ops ops-v11 attn convbiasact train first-iter get-vs-find tune sysdb host-cost
        pytorch"
if [ $# = 0 ] || [ "$1" = -h ] || [ "$1" = --help ]; then usage; exit 0; fi
for s in "$@"; do
  case " $(echo $stages) " in *" $s "*) ;; *) echo "run-device.sh: no stage '$s'" >&2; usage >&2; exit 2 ;; esac
done
[ -n "${SHAPES:-}" ] && echo "run-device.sh: SHAPES is not read; use GEMM_SHAPES or CONV_SHAPES" >&2
mkdir -p "$out"
case " $* " in *" prepare "*|*" prepare-tests "*) ;; *)
  register_icd
  echo "device $device, tag $TAG, build $build, out $out, commit $(commit)" ;;
esac
for s in "$@"; do
  t0=$(date +%s)
  echo "=== stage $s" >&2
  : > "$out/run-$s.log"
  "stage_${s//-/_}" > >(tee -a "$out/run-$s.log") 2> >(tee -a "$out/run-$s.log" >&2)
  rc=$?
  wait  # the tee processes
  echo "=== stage $s: $(ok_word $rc) ($(( $(date +%s) - t0 )) s)" >&2
  [ $rc = 0 ] || status=1
done
if [ -n "$mma_log" ]; then tail -c 11000 "$mma_log"; fi
exit $status
