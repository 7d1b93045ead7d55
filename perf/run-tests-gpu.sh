#!/usr/bin/env bash
# run-tests-gpu.sh: runs the Criterion suites on the lent H100, where Criterion is not installed.
#
# Here (the dev machine), from the repository root, once per change:
#   perf/run-tests-gpu.sh prepare BUILD_DIR   # copies BUILD_DIR's test binaries and libcldnn, and
#                                             # downloads Criterion's runtime .debs, into .carry/
# Then through the device tool, with carry [".carry"]:
#   echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd; ./perf/run-tests-gpu.sh run
# A binary built on Debian 12 runs on the H100 machine's newer glibc.
set -eu
cd "$(dirname "$0")/.."
case ${1:-} in
  prepare)
    build=${2:?usage: $0 prepare BUILD_DIR}
    mkdir -p .carry/bin .carry/debs
    cp "$build"/tests/test_* .carry/bin/
    cp -P "$build"/libcldnn.so* .carry/bin/
    (cd .carry/debs && apt-get download libcriterion3 libnanomsg5 libgit2-1.5 libhttp-parser2.9 \
       libmbedtls14 libmbedx509-1 libmbedcrypto7 libssh2-1 libprotobuf-c1 libffi8)
    du -sh .carry ;;
  run)
    mkdir -p /tmp/x
    for f in .carry/debs/*.deb; do dpkg -x "$f" /tmp/x; done
    export LD_LIBRARY_PATH=/tmp/x/usr/lib/x86_64-linux-gnu:$PWD/.carry/bin
    status=0
    for t in .carry/bin/test_*; do
      echo "== $t"
      CLDNN_DEVICE=${CLDNN_DEVICE:-gpu} CLDNN_CACHE_DIR=/tmp/cldnn-kc "$t" --jobs 8 || status=1
    done
    exit $status ;;
  *) echo "usage: $0 prepare BUILD_DIR | run" >&2; exit 2 ;;
esac
