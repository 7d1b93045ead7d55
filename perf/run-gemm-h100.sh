#!/usr/bin/env bash
# run-gemm-h100.sh: the GEMM benchmark on the lent H100 (cldnn vs cuBLAS vs CLBlast, FP32), in one
# call of the device tool.
#
# Here (the dev machine, Debian 12 with the CUDA 13 toolkit and libclblast-dev), from the
# repository root, once per change of perf/baselines/:
#   perf/run-gemm-h100.sh prepare [BUILD_DIR]
#     builds cublas_gemm and clblast_gemm (Release, into BUILD_DIR, default /tmp/build-gemm-baselines),
#     copies them into .carry/baselines/ and downloads Debian's libclblast1 .deb into .carry/clblast/
#     (git-ignored; CLBlast's other needs, libOpenCL.so.1, libstdc++6, libgcc-s1 and libc6, are on
#     the H100 image).
# Then through the device tool (kind nvidia-h100-x1), with carry [".carry/baselines", ".carry/clblast"]:
#   ./perf/run-gemm-h100.sh run
#     registers NVIDIA's OpenCL ICD, builds cldnn-bench (Release, no tests) into build-h100/, puts
#     cuBLAS 13 / the CUDA 13 runtime (PyTorch's pip packages or /usr/local/cuda) and the unpacked
#     CLBlast on LD_LIBRARY_PATH, and runs perf/run-gemm-sweep.sh on the GPU over
#     perf/shapes/gemm-square.csv and perf/shapes/deepbench-gemm-training.csv, writing
#     ${OUT:-.}/gemm-h100.md. MS (default 50) passes through. About 3 to 4 minutes, build included.
#     DEVICE (gpu), SHAPES (the two files, comma-separated), BASELINES ("cublas clblast"), OUTNAME
#     (gemm-h100.md) and BUILD_DIR (build-h100) override the defaults, e.g. for a dry run on PoCL:
#     DEVICE=cpu SHAPES=perf/shapes/gemm-smoke.csv BASELINES=clblast BUILD_DIR=/tmp/b OUT=/tmp \
#       ./perf/run-gemm-h100.sh run
# Copy the returned file into perf/results/ (one file per device and date).
set -eu
cd "$(dirname "$0")/.."
case ${1:-} in
  prepare)
    build=${2:-/tmp/build-gemm-baselines}
    cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCLDNN_BUILD_TESTS=OFF > /dev/null
    cmake --build "$build" -j"$(nproc)" --target cublas_gemm clblast_gemm
    mkdir -p .carry/baselines .carry/clblast
    cp "$build"/perf/cublas_gemm "$build"/perf/clblast_gemm .carry/baselines/
    rm -f .carry/clblast/*.deb
    (cd .carry/clblast && apt-get download libclblast1)
    echo "libraries the baselines need (cuBLAS/cudart come from the H100 machine, CLBlast from the .deb):"
    ldd .carry/baselines/cublas_gemm .carry/baselines/clblast_gemm | grep '=>' | awk '{print "  " $1}' | sort -u
    du -sh .carry/baselines .carry/clblast ;;
  run)
    out=${OUT:-.}
    icd=/usr/lib/libnvidia-opencl.so.1
    if [ -e "$icd" ] && [ -w /etc/OpenCL/vendors ]; then
      echo "$icd" > /etc/OpenCL/vendors/nvidia.icd
    fi
    build=${BUILD_DIR:-build-h100}
    mkdir -p "$build"
    cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCLDNN_BUILD_TESTS=OFF > "$build/build.log" 2>&1 ||
      { tail -n 40 "$build/build.log"; exit 1; }
    cmake --build "$build" -j"$(nproc)" --target cldnn-bench >> "$build/build.log" 2>&1 ||
      { tail -n 60 "$build/build.log"; exit 1; }

    # cuBLAS 13 and the CUDA 13 runtime (perf/cuda-libs.sh), then CLBlast unpacked from the carried .deb
    # shellcheck source=perf/cuda-libs.sh
    . perf/cuda-libs.sh
    cuda_libs_export > /dev/null 2>&1 || true  # cuDNN is optional here
    mkdir -p /tmp/x
    for f in .carry/clblast/*.deb; do [ -e "$f" ] && dpkg -x "$f" /tmp/x; done
    export LD_LIBRARY_PATH="/tmp/x/usr/lib/x86_64-linux-gnu:$LD_LIBRARY_PATH"
    echo "LD_LIBRARY_PATH=$LD_LIBRARY_PATH"
    chmod +x .carry/baselines/*_gemm 2>/dev/null || true
    for b in .carry/baselines/*_gemm; do
      [ -x "$b" ] || continue
      if ldd "$b" | grep -q 'not found'; then
        echo "warning: $b misses libraries:"; ldd "$b" | grep 'not found'
      fi
    done
    echo "OpenCL devices:"
    "$build"/perf/cldnn-bench --devices
    nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv 2>/dev/null || true

    BASELINE_DIR=.carry/baselines BASELINES=${BASELINES:-cublas clblast} \
      CLDNN_CACHE_DIR=${CLDNN_CACHE_DIR:-/tmp/cldnn-kc} bash ./perf/run-gemm-sweep.sh -b "$build" "${DEVICE:-gpu}" \
      "${SHAPES:-perf/shapes/gemm-square.csv,perf/shapes/deepbench-gemm-training.csv}" "$out/${OUTNAME:-gemm-h100.md}" ;;
  *) echo "usage: $0 prepare [BUILD_DIR] | run" >&2; exit 2 ;;
esac
