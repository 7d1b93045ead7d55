#!/usr/bin/env bash
# ptx-check.sh: a kernel file of kernels/ through clang's OpenCL front end to PTX for sm_90, then
# ptxas -v: whether its inline PTX (mma.sync, ldmatrix, cp.async, shuffles) assembles, and each
# kernel's registers, spills and static shared memory, on a machine without an NVIDIA GPU.
#
#   perf/ptx-check.sh kernels/attn/attn_mma.cl -DHEAD_D=128 -DHEAD_DV=128 -DBR=64 -DBC=64 -DDATA_BF16=1
#
# Needs clang (14+, with the nvptx back end) and the CUDA toolkit's ptxas. The PTX is clang's, not
# NVIDIA's OpenCL compiler's (the device returns that one from CL_PROGRAM_BINARIES), so registers
# are an estimate; the OpenCL built-ins the kernels use map to NVVM built-ins below, and the
# 16-bit vload/vstore built-ins, which clang's nvptx headers lack, read 0 (check those kernels in
# BFLOAT16). ptxas's 48 KiB limit on static shared memory does not hold for NVIDIA's OpenCL, which
# accepts up to the compute capability's maximum: that error is reported and ignored.
set -u -o pipefail
[ $# -ge 1 ] || { sed -n 2,13p "$0"; exit 2; }
cd "$(dirname "$0")/.." || exit 2
f=$1
shift
clang=$(command -v clang-14 || command -v clang) || { echo "ptx-check.sh: clang not found" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$clang" -x cl -cl-std=CL1.2 -target nvptx64-nvidia-nvcl -Xclang -finclude-default-header -O2 \
  -D__OPENCL_VERSION__=120 -Dasm=__asm__ -Ikernels \
  '-Dget_local_id(x)=__nvvm_read_ptx_sreg_tid_x()' '-Dget_group_id(x)=__nvvm_read_ptx_sreg_ctaid_x()' \
  '-Dget_global_id(x)=(__nvvm_read_ptx_sreg_ctaid_x() * __nvvm_read_ptx_sreg_ntid_x() + __nvvm_read_ptx_sreg_tid_x())' \
  '-Dbarrier(x)=__nvvm_bar_sync(0)' -Dexp2=__nvvm_ex2_approx_f -Dlog2=__nvvm_lg2_approx_f \
  -Dfmax=__builtin_fmaxf -Dfma=__builtin_fmaf '-Dmul_hi(a,b)=__nvvm_mulhi_ui(a,b)' \
  '-Dvload_half(i,p)=0.0f' '-Dvstore_half_rte(v,i,p)=((void)0)' \
  "$@" -S -o "$tmp/k.ptx" "$f" || exit 1
sed -i 's/^\.target.*/.target sm_90/; s/^\.version.*/.version 8.1/' "$tmp/k.ptx"
ptxas -arch=sm_90 -v "$tmp/k.ptx" -o "$tmp/k.cubin" 2>&1 |
  grep -E "Compiling entry|Used|spill|error|fatal" | sed 's/^ptxas info *: //' |
  sed 's/^\(ptxas error.*too much shared data.*\)$/\1 (ignored: NVIDIA OpenCL allows more)/'
grep -q "ptxas fatal" <(ptxas -arch=sm_90 "$tmp/k.ptx" -o "$tmp/k.cubin" 2>&1) && exit 1
exit 0
