#!/usr/bin/env bash
# run-h100.sh: the activation and tensor-op sweep on the lent H100, in one call of the device
# tool, from the repository root:  ./perf/run-h100.sh [gpu|pocl|both]  (default gpu).
#
# Registers NVIDIA's OpenCL ICD (the machine lists only PoCL), configures a Release build
# without tests into build-h100/, builds cldnn-bench with every core, lists the OpenCL devices,
# then runs perf/run-sweep.sh on the GPU (and/or PoCL) writing ${OUT:-.}/activ-tensor-h100.md
# (PoCL: ${OUT:-.}/activ-tensor-h100-pocl.md). Copy the files to perf/results/ afterwards.
# SIZE_MIB and ITERS pass through to run-sweep.sh for the GPU; PoCL runs at POCL_SIZE_MIB
# (default 64) and POCL_ITERS (default 5), since its erf/exp kernels are slow at 256 MiB.
# About 2 minutes for gpu (build included), 2 to 3 more for pocl.
set -eu
cd "$(dirname "$0")/.."
which=${1:-gpu}
out=${OUT:-.}
case $which in
  gpu|pocl|both) ;;
  *) echo "usage: $0 [gpu|pocl|both]" >&2; exit 2 ;;
esac

icd=/usr/lib/libnvidia-opencl.so.1
if [ -e "$icd" ] && [ -w /etc/OpenCL/vendors ]; then
  echo "$icd" > /etc/OpenCL/vendors/nvidia.icd
fi
mkdir -p build-h100
cmake -S . -B build-h100 -DCMAKE_BUILD_TYPE=Release -DCLDNN_BUILD_TESTS=OFF > build-h100/build.log 2>&1 ||
  { tail -n 40 build-h100/build.log; exit 1; }
cmake --build build-h100 -j"$(nproc)" --target cldnn-bench >> build-h100/build.log 2>&1 ||
  { tail -n 60 build-h100/build.log; exit 1; }
echo "OpenCL devices:"
build-h100/perf/cldnn-bench --devices

status=0
case $which in
  gpu|both) ./perf/run-sweep.sh -b build-h100 gpu "$out/activ-tensor-h100.md" || status=1 ;;
esac
case $which in
  pocl|both) SIZE_MIB=${POCL_SIZE_MIB:-64} ITERS=${POCL_ITERS:-5} \
               ./perf/run-sweep.sh -b build-h100 cpu "$out/activ-tensor-h100-pocl.md" || status=1 ;;
esac
exit $status
