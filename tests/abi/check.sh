#!/usr/bin/env bash
# check.sh LIBRARY: the ABI guard. Compares the built shared library (with its debug info) against the
# committed baseline tests/abi/libcldnn.abi with libabigail's abidiff (Debian: abigail-tools) and fails
# when the change is incompatible (abidiff's bit 8: a removed or changed function, type or enum value).
# Added functions and appended enum values pass; the report is printed either way. ctest runs it as
# abi_check, and skips it (exit 77) when abidiff is not installed.
# To move the baseline on purpose (a new ABI major, or to record additions), from the repository root:
#   abidw --no-corpus-path --out-file tests/abi/libcldnn.abi build/libcldnn.so
set -uo pipefail
lib=$1
base=$(dirname "$0")/libcldnn.abi
command -v abidiff > /dev/null || { echo "abi_check: abidiff not found (apt-get install abigail-tools): skipped"; exit 77; }
report=$(abidiff --no-added-syms "$base" "$lib" 2>&1)
rc=$?
echo "$report"
if (( rc & 8 )) || (( rc & 1 )) || (( rc & 2 )); then
  echo "abi_check: incompatible ABI change or tool error (abidiff exit $rc) against $base" >&2
  exit 1
fi
echo "abi_check: compatible with the baseline (abidiff exit $rc)"
