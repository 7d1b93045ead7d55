#!/usr/bin/env bash
# run-lrn-h100.sh: the LRN suite and the LRN benchmark on the lent H100, in one call of the device
# tool (kind nvidia-h100-x1, carry [".carry"]), from the repository root.
#
# Here, once per change: copy the suite and the library, and Criterion's runtime .debs, into .carry/
#   mkdir -p .carry/bin .carry/debs && cp BUILD/tests/test_lrn .carry/bin/ && cp -P BUILD/libcldnn.so* .carry/bin/
#   (cd .carry/debs && apt-get download libcriterion3 libnanomsg5 libgit2-1.5 libhttp-parser2.9 \
#      libmbedtls14 libmbedx509-1 libmbedcrypto7 libssh2-1 libprotobuf-c1 libffi8)
# There: ./perf/run-lrn-h100.sh [tests] [bench]   (default both)
# Registers NVIDIA's OpenCL ICD, runs test_lrn on the GPU, builds cldnn-bench (Release, no tests)
# into build-h100/ and times cldnn-bench lrn (AlexNet / GoogLeNet LRN layers and a 256 MiB
# tensor, NCHW and NHWC, forward and backward, n 5) as markdown rows into ${OUT:-.}/lrn-h100.md.
set -u
cd "$(dirname "$0")/.."
what=${*:-tests bench}
icd=/usr/lib/libnvidia-opencl.so.1
if [ -e "$icd" ] && [ -w /etc/OpenCL/vendors ]; then echo "$icd" > /etc/OpenCL/vendors/nvidia.icd; fi
export CLDNN_DEVICE=${CLDNN_DEVICE:-gpu} CLDNN_CACHE_DIR=/tmp/cldnn-kc
status=0
case " $what " in *" tests "*)
  mkdir -p /tmp/x
  for f in .carry/debs/*.deb; do dpkg -x "$f" /tmp/x; done
  LD_LIBRARY_PATH=/tmp/x/usr/lib/x86_64-linux-gnu:$PWD/.carry/bin .carry/bin/test_lrn --jobs 8 2>&1 | tail -n 40 ||
    status=1 ;;
esac
case " $what " in *" bench "*)
  cmake -S . -B build-h100 -DCMAKE_BUILD_TYPE=Release -DCLDNN_BUILD_TESTS=OFF > /tmp/lrn-build.log 2>&1 &&
    cmake --build build-h100 -j"$(nproc)" --target cldnn-bench >> /tmp/lrn-build.log 2>&1 ||
    { tail -n 40 /tmp/lrn-build.log; exit 1; }
  b=build-h100/perf/cldnn-bench
  out=${OUT:-.}/lrn-h100.md
  $b lrn -D 8x96x27x27 -N 5 -a 1 -K 1 -V 1 -t 0 -L NHWC | tail -n 2
  $b lrn -D 8x96x27x27 -N 4 -a 1 -K 1 -V 1 -t 0 -m 1 | tail -n 2
  first=--md-header
  for L in NCHW NHWC; do
    for D in 32x96x55x55 32x256x27x27 32x64x56x56 32x192x56x56 32x128x128x128; do
      $b lrn -D "$D" -L "$L" -N 5 -V 0 -i 20 $first | grep -v '^#' >> "$out" || status=1
      first=--md
    done
  done
  $b lrn -D 32x64x56x56 -m 1 -N 5 -V 0 -i 20 --md | grep -v '^#' >> "$out" || status=1
  cat "$out" ;;
esac
exit $status
