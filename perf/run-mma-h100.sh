#!/usr/bin/env bash
# run-mma-h100.sh: the tensor-core (TF32 and FP16) GEMM on the lent H100 in one device call. Stages:
#   check   correctness over edge shapes, transposes, layouts, unaligned leading dimensions, batch
#           and split-k (cldnn-bench -V 1 --math tensor)
#   sweep   the shapes of SHAPES (perf/shapes/gemm-square.csv) for each parameter set in MMA_SETS
#           (CLDNN_SOLVER_PARAMS=gemm_mma_tf32:SET; "default" = the library's choice), with cuBLAS TF32 and FP32
#   tables  the mma.sync ceiling (cldnn-mma-peak > $OUT/mma-peak-h100.txt) and the results table
#           $OUT/gemm-tf32-h100.md: perf/run-gemm-h100.sh run with MATH=tensor against cuBLAS TF32
#           (CUBLAS_TF32_TENSOR_OP_MATH, its error measured with --verify), squares + DeepBench
#   conv    ResNet-50's 1x1 layers (perf/shapes/conv-nets-1x1.csv), all three directions, Find's best,
#           verified (-V 1): cldnn and cuDNN under TENSOR_OP_MATH ($OUT/conv-tf32-1x1-h100.md), then
#           both strict FP32 ($OUT/conv-fp32-1x1-h100.md), through perf/run-conv-h100.sh
#   f16check  the FP16 kernel (HALF data, --math tensor): the edge shapes of check, then every shape
#           of perf/shapes/deepbench-gemm-training.csv and perf/shapes/gemm-square.csv, each
#           verified (cldnn-bench -d half -V 1; the sampled check above 2^27 multiply-adds)
#   f16tables the results table $OUT/gemm-fp16-h100.md: perf/run-gemm-h100.sh run with MATH=tensor
#           DTYPE=half against cuBLAS FP16 (cublas_gemm --fp16: cublasGemmEx, FP32 compute, tensor
#           ops, its error measured with --verify), squares + DeepBench
#   convnets every ResNet-50 / VGG-16 layer (perf/shapes/conv-nets.csv), all three directions, Find's
#           best, verified, cldnn and cuDNN under TENSOR_OP_MATH ($OUT/conv-tf32-h100.md): the
#           tensor-core implicit GEMM (kernels/conv/conv_igemm_mma.cl) beside the GEMM-based solvers
#   f16conv  the same layers in FP16 ($OUT/conv-fp16-h100.md): cldnn-bench conv -d half --math tensor
#           (HALF data: the tensor-core implicit GEMM on FP16 mma, and the FP16 tensor-core GEMM
#           behind the 1x1 and im2col solvers), Find's best,
#           verified, against cudnn_conv --half --math tensor (CUDNN_DATA_HALF tensors, FLOAT compute
#           type, CUDNN_TENSOR_OP_MATH), through perf/run-conv-h100.sh
#   device tool, carry [".carry/baselines"]:
#     ./perf/run-mma-h100.sh [check] [sweep] [tables] [conv] [convnets] [f16check] [f16tables] [f16conv]
# .carry/baselines/cublas_gemm must have --fp16 for f16tables (perf/run-gemm-h100.sh prepare), and
# .carry/baselines/cudnn_conv --half for f16conv (perf/run-conv-h100.sh prepare).
# check, sweep and f16check write $OUT/mma-h100.txt. MS (30), MMA_SETS and SHAPES override.
set -u
cd "$(dirname "$0")/.."
out=${OUT:-.}
icd=/usr/lib/libnvidia-opencl.so.1
[ -e "$icd" ] && [ -w /etc/OpenCL/vendors ] && echo "$icd" > /etc/OpenCL/vendors/nvidia.icd
build=${BUILD_DIR:-build-h100}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCLDNN_BUILD_TESTS=OFF > /tmp/mma-build.log 2>&1 &&
  cmake --build "$build" -j"$(nproc)" --target cldnn-bench cldnn-mma-peak >> /tmp/mma-build.log 2>&1 ||
  { tail -n 40 /tmp/mma-build.log; exit 1; }
# shellcheck source=perf/cuda-libs.sh
. perf/cuda-libs.sh
cuda_libs_export > /dev/null 2>&1 || true
B="$build/perf/cldnn-bench"
export CLDNN_DEVICE=gpu CLDNN_LOG_LEVEL=${CLDNN_LOG_LEVEL:-1}
ms=${MS:-30}
shapes=${SHAPES:-perf/shapes/gemm-square.csv}
log="$out/mma-h100.txt"
: > "$log"
fails=0
run() { echo "+ $*" >> "$log"; "$@" >> "$log" 2>&1 || { fails=$((fails + 1)); echo "  (exit $?)" >> "$log"; }; }
# conv_nets NAME BENCH_TYPE BASE_TYPE: every layer of perf/shapes/conv-nets.csv, three directions,
# Find's best, verified, through perf/run-conv-h100.sh: cldnn-bench conv with BENCH_TYPE's flags
# against cudnn_conv with BASE_TYPE's, into $OUT/conv-NAME-h100.md (its log conv-NAME-run.log).
conv_nets() {
  local cms=${MS:-10}
  SHAPES=perf/shapes/conv-nets.csv OUTNAME=conv-$1-h100.md BUDGET=${BUDGET:-540} MS="$cms" \
    BUILD_DIR="$build" OUT="$out" BENCH_FLAGS="-F 7 -a find -V 1 --ms $cms $2" BASE_FLAGS="-F 7 --ms $cms $3" \
    ./perf/run-conv-h100.sh run > "$out/conv-$1-run.log" 2>&1 || fails=$((fails + 1))
}
whats=${*:-check sweep}
for what in $whats; do
  case $what in
    check)
      for s in "1 1 1" "1 300 70" "300 1 70" "129 67 33" "1000 1000 1000" "64 64 4096" "2049 130 517" "96 2000 8"; do
        set -- $s
        for ta in 0 1; do for tb in 0 1; do
          run "$B" gemm -m "$1" -n "$2" -k "$3" --transA $ta --transB $tb --math tensor -V 1 -t 0
        done; done
      done
      run "$B" gemm -m 333 -n 257 -k 129 --layout row --transA 1 --math tensor -V 1 -t 0 -A 0.5 -B 0.25
      run "$B" gemm -m 256 -n 256 -k 256 --lda 257 --ldb 259 --ldc 300 --math tensor -V 1 -t 0
      run "$B" gemm -m 200 -n 100 -k 300 --batch 3 --math tensor -V 1 -t 0 -B 1
      run "$B" gemm -m 128 -n 128 -k 20000 --math tensor -V 1 -t 0
      ;;
    sweep)
      for p in ${MMA_SETS:-default}; do
        echo "## params $p" >> "$log"
        if [ "$p" = default ]; then
          run "$B" gemm --shapes "$shapes" --math tensor -V 1 --ms "$ms"
        else
          CLDNN_SOLVER_PARAMS="gemm_mma_tf32:$p;gemm_mma_f16:$p" run "$B" gemm --shapes "$shapes" --math tensor -V 1 --ms "$ms"
        fi
      done
      chmod +x .carry/baselines/cublas_gemm 2>/dev/null
      run .carry/baselines/cublas_gemm "$shapes" --ms "$ms" --tf32
      run .carry/baselines/cublas_gemm "$shapes" --ms "$ms"
      ;;
    f16check)
      for s in "1 1 1" "1 300 70" "300 1 70" "129 67 33" "1000 1000 1000" "64 64 4096" "2049 130 517" "96 2000 8"; do
        set -- $s
        for ta in 0 1; do for tb in 0 1; do
          run "$B" gemm -m "$1" -n "$2" -k "$3" --transA $ta --transB $tb --math tensor -d half -V 1 -t 0
        done; done
      done
      run "$B" gemm -m 333 -n 257 -k 129 --layout row --transA 1 --math tensor -d half -V 1 -t 0 -A 0.5 -B 0.25
      run "$B" gemm -m 256 -n 256 -k 256 --lda 257 --ldb 259 --ldc 300 --math tensor -d half -V 1 -t 0
      run "$B" gemm -m 256 -n 256 -k 256 --lda 258 --ldb 262 --math tensor -d half -V 1 -t 0
      run "$B" gemm -m 200 -n 100 -k 300 --batch 3 --math tensor -d half -V 1 -t 0 -B 1
      run "$B" gemm -m 128 -n 128 -k 20000 --math tensor -d half -V 1 -t 0
      for f in perf/shapes/deepbench-gemm-training.csv perf/shapes/gemm-square.csv; do
        run "$B" gemm --shapes "$f" --math tensor -d half -V 1 -t 0
      done
      ;;
    f16tables)
      MATH=tensor DTYPE=half BASELINES=cublas OUTNAME=gemm-fp16-h100.md MS="$ms" BUILD_DIR="$build" OUT="$out" \
        ./perf/run-gemm-h100.sh run > "$out/gemm-fp16-run.log" 2>&1 || fails=$((fails + 1))
      ;;
    tables)
      "$build"/perf/cldnn-mma-peak 4096 8 16 64 > "$out/mma-peak-h100.txt" 2>&1 || fails=$((fails + 1))
      MATH=tensor BASELINES=cublas OUTNAME=gemm-tf32-h100.md MS="$ms" BUILD_DIR="$build" OUT="$out" \
        ./perf/run-gemm-h100.sh run > "$out/gemm-tf32-run.log" 2>&1 || fails=$((fails + 1))
      ;;
    conv)
      cms=${MS:-10}
      for m in tensor fp32; do
        bm=$([ $m = tensor ] && echo "--math tensor" || echo "--math fma")
        SHAPES=perf/shapes/conv-nets-1x1.csv OUTNAME=conv-$([ $m = tensor ] && echo tf32 || echo fp32)-1x1-h100.md \
          BUDGET=${BUDGET:-200} MS="$cms" BUILD_DIR="$build" OUT="$out" \
          BENCH_FLAGS="-F 7 -a find -V 1 --ms $cms $bm" BASE_FLAGS="-F 7 --ms $cms $bm" \
          ./perf/run-conv-h100.sh run > "$out/conv-$m-run.log" 2>&1 || fails=$((fails + 1))
      done
      ;;
    convnets) conv_nets tf32 "--math tensor" "--math tensor" ;;
    f16conv) conv_nets fp16 "-d half --math tensor" "--half --math tensor" ;;
  esac
done
echo "failures: $fails" >> "$log"
tail -c 11000 "$log"
