#!/usr/bin/env bash
# run.sh: every kernel of cldnn under Oclgrind, the OpenCL device simulator (Debian: oclgrind), with
# its checks for out-of-bounds accesses (always on), uninitialized values (--uninitialized),
# work-group data races (--data-races) and API misuse (--check-api).
#
#   tests/oclgrind/run.sh [--build DIR] [--out DIR] [--only REGEX] [--cases FILE] [--jobs N] [--plant]
#
# Each line of tests/oclgrind/cases.txt is a small problem run by cldnn-bench (DIR/perf/cldnn-bench,
# -t 0: the one verified call, no timing) under Oclgrind, most with CLDNN_SOLVER / CLDNN_SOLVER_PARAMS
# forcing a solver and a parameter set, so that together they launch every kernel entry point of
# kernels/ and build every option value the host can choose. A case fails when cldnn-bench fails
# (a library error or a wrong element), when Oclgrind reports anything (its log must stay empty),
# when a solver the case forces did not run, or when a parameter set it forces was refused. The
# run then fails when a kernel entry point (`__kernel ... void name(` in kernels/**/*.cl, *.h) never
# runs with each of float, half and bfloat16 data, a solver (the `.name` of every cldnn_solver table
# in src/, read through the preprocessor) is never forced, or a build-option value that
# tests/oclgrind/coverage.txt requires is never built, unless coverage.txt excludes it with a
# reason; or when an exclusion is stale (the kernel or solver ran after all).
#
# --only runs the cases whose names match REGEX (and skips the coverage check), --cases runs another
# case file, --jobs runs N cases at a time (default: the CPU count; one Oclgrind thread each).
#
# Kernels are built at -O0 (-cl-opt-disable): Oclgrind 21.10's --uninitialized stops on the LLVM
# `freeze` instruction that the optimizer emits for a division and remainder pair (at -O1 too);
# unoptimized code has none.
#
# --plant builds every program with -DCLDNN_TEST_OOB_READ=1 (kernels/eltwise/eltwise.cl: work-item
# 0 of eltwise_contig reads one element past its input) and runs one case that launches it: the
# run must fail with an invalid read there, which .ci/run checks (the proof the stage can fail).
#
# Output in the --out folder (default DIR/oclgrind, or DIR/oclgrind-plant): cases/<name>.log (the
# case's cldnn-bench output with the library's level-3 log and the kernels Oclgrind ran),
# cases/<name>.oclgrind (Oclgrind's findings; empty when clean) and report.txt (what ran, per
# kernel, solver and build option, and what did not and why). Exit status: 0 clean, 1 a finding
# or a failed case, 2 a coverage gap or a setup error. CLDNN_TEST_SEED sets the data's seed (1).
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
build=$src/build out="" only="" plant=0 cases="" jobs=$(nproc)
while [ $# -gt 0 ]; do
  case $1 in
    --build) build=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --cases) cases=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --plant) plant=1; shift ;;
    -h|--help) sed -n '2,/^set /p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "run.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: --jobs $jobs: expected a positive count" >&2; exit 2; }
bench=$build/perf/cldnn-bench
[ -x "$bench" ] || { echo "run.sh: $bench not found (build with CLDNN_BUILD_PERF=ON)" >&2; exit 2; }
command -v oclgrind > /dev/null || { echo "run.sh: oclgrind not found (apt-get install oclgrind)" >&2; exit 2; }
# The oclgrind command preloads its runtime with the options as OCLGRIND_* variables; run.sh does
# the same with tests/oclgrind/keepbuf.c's library ahead of it (that file says why).
rt=$(dirname "$(readlink -f "$(command -v oclgrind)")")/../lib/oclgrind/liboclgrind-rt.so
keep=$build/tests/liboclgrind_keepbuf.so
[ -f "$rt" ] || { echo "run.sh: Oclgrind's runtime $rt not found" >&2; exit 2; }
[ -f "$keep" ] || { echo "run.sh: $keep not found (build the tests/ targets)" >&2; exit 2; }
[ -n "$out" ] || out=$build/oclgrind$([ $plant = 1 ] && echo -plant)
rm -rf "$out/cases"
mkdir -p "$out/cases" "$out/kernel-cache" "$out/db" || exit 2

build_options="-cl-opt-disable"
[ -n "$cases" ] || cases=$here/cases.txt
if [ $plant = 1 ]; then
  build_options="$build_options -DCLDNN_TEST_OOB_READ=1"
  cases=$out/plant-case.txt
  echo "planted_oob_read activ -m relu -F 1 -D 1x1x3x5" > "$cases"
fi
dups=$(sed 's/#.*//' "$cases" | awk 'NF { print $1 }' | sort | uniq -d)
[ -z "$dups" ] || { echo "run.sh: case names used twice in $cases: $dups" >&2; exit 2; }
# The library's program cache keys on its own build options only, never on Oclgrind's additions:
# this run's programs stay in their own folder, and the planted ones are never stored.
lib_env=(CLDNN_CACHE_DIR="$out/kernel-cache" CLDNN_DB_PATH="$out/db" CLDNN_SYSTEM_DB_PATH= CLDNN_LOG_LEVEL=3
         CLDNN_FIND_MODE=HEURISTIC)
[ $plant = 1 ] && lib_env+=(CLDNN_DISABLE_CACHE=1)
seed=${CLDNN_TEST_SEED:-1}

# One case: runs it, checks it and prints its line; leaves cases/<name>.fail when it failed and
# its CPU seconds in cases/<name>.time. Arguments: the case's tokens (name [VAR=value ...] mode ...).
run_case() {
  local name=$1 i=1 tok=("$@") envs=() args=() why=() forced=() s e rc wall user sys cpu names sets
  while [ $i -lt ${#tok[@]} ] && [[ ${tok[$i]} == *=* ]]; do envs+=("${tok[$i]}"); i=$((i + 1)); done
  args=("${tok[@]:$i}")
  local log=$out/cases/$name.log findings=$out/cases/$name.oclgrind
  # Oclgrind prints each kernel's instruction histogram (--inst-counts) to stdout: only the line
  # naming the kernel is kept, as the record of what ran.
  { time timeout 600 env "${lib_env[@]}" "${envs[@]}" OCLGRIND_CHECK_API=1 OCLGRIND_DATA_RACES=1 \
      OCLGRIND_UNINITIALIZED=1 OCLGRIND_INST_COUNTS=1 OCLGRIND_BUILD_OPTIONS="$build_options" \
      OCLGRIND_NUM_THREADS="$threads" OCLGRIND_LOG="$findings" LD_PRELOAD="$keep:$rt" \
      "$bench" "${args[@]:0:1}" --seed "$seed" "${args[@]:1}" -t 0 -V 1 2>&1 |
      grep -v -E '^ +[0-9]+ - ' > "$log"; } 2> "$out/cases/$name.time"
  rc=${PIPESTATUS[0]}
  read -r wall user sys < "$out/cases/$name.time"
  cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.1f", u + s }')
  echo "$cpu" > "$out/cases/$name.time"
  [ "$rc" = 0 ] || why+=("cldnn-bench exit status $rc")
  [ -s "$findings" ] && why+=("Oclgrind: $(grep -c '^[^[:space:]]' "$findings") report(s)")
  for e in "${envs[@]}"; do
    case $e in
      CLDNN_SOLVER=*)
        IFS=, read -ra names <<< "${e#CLDNN_SOLVER=}"
        for s in "${names[@]}"; do
          if grep -q -E "solver $s([ ,]|\$)" "$log"; then forced+=("$s"); else why+=("forced solver $s did not run"); fi
        done ;;
      CLDNN_SOLVER_PARAMS=*)
        IFS=';' read -ra sets <<< "${e#CLDNN_SOLVER_PARAMS=}"
        for s in "${sets[@]}"; do
          grep -F "solver ${s%%:*}, parameters ${s#*:}" "$log" | grep -q -F "(CLDNN_SOLVER_PARAMS)" ||
            why+=("forced parameters $s not taken")
        done ;;
    esac
  done
  if [ ${#why[@]} -eq 0 ]; then
    for s in "${forced[@]}"; do echo "# oclgrind case: forced solver $s" >> "$log"; done
    printf '%-40s ok   %6.1f s (cpu %5.1f s)\n' "$name" "$wall" "$cpu"
  else
    : > "$out/cases/$name.fail"
    # one write, so that the lines of cases running beside it do not interleave
    printf '%s\n' "$(printf '%-40s FAIL %6.1f s (cpu %5.1f s): %s\n' "$name" "$wall" "$cpu" "$(IFS=';'; echo "${why[*]}")"
                     sed -n '1,40p' "$findings" | sed 's/^/    /'
                     grep -E 'verify FAIL|cldnn error|not a valid parameter set' "$log" | head -5 | sed 's/^/    /')"
  fi
}

# Cases run --jobs at a time, each on one Oclgrind thread: most launch a few work-groups, which
# Oclgrind's own threads (it runs work-groups in parallel) cannot spread over the cores.
threads=1
[ "$jobs" -gt 1 ] || threads=$(nproc)
TIMEFORMAT='%R %U %S'
t_start=$(date +%s) ran=0
while read -r line; do
  line=${line%%#*}
  read -ra tok <<< "$line"
  [ ${#tok[@]} -gt 0 ] || continue
  if [ -n "$only" ] && ! [[ ${tok[0]} =~ $only ]]; then continue; fi
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
  run_case "${tok[@]}" < /dev/null &
  ran=$((ran + 1))
done < "$cases"
wait
failed=$(find "$out/cases" -name '*.fail' | wc -l)
cpu_total=$(cat "$out"/cases/*.time 2>/dev/null | awk '{ t += $1 } END { printf "%.0f", t }')
echo "oclgrind: $ran case(s) in $(( $(date +%s) - t_start )) s (cpu $cpu_total s), $failed failed"
[ $ran -gt 0 ] || { echo "run.sh: no case matched" >&2; exit 2; }
status=0
[ "$failed" = 0 ] || status=1
if [ $plant = 1 ] || [ -n "$only" ]; then exit $status; fi

# ---- coverage: what ran, against what exists and what coverage.txt excludes or requires
report=$out/report.txt
kernels=$(for f in $(cd "$src/kernels" && find . -name '*.cl' -o -name '*.h' | sort); do
            grep -Pzo '__kernel\b[^;{]*?\bvoid\s+\K\w+(?=\s*\()' "$src/kernels/$f" | tr '\0' '\n' |
              sed "s|^|${f#./} |"; done)
solvers=$(for f in $(grep -rlE 'cldnn_solver [a-z_0-9]+\[\] = \{' "$src/src"); do
            cc -E -P -I"$src/src" -I"$src/include" -DCL_TARGET_OPENCL_VERSION=120 "$f" |
              awk '/cldnn_solver [a-z_0-9]+\[\] = \{/ {t = 1} t {print} t && /^};/ {t = 0}'; done |
          sed 's/" *"//g' | grep -oE '\.name = "[^"]+"' | sed 's/.*"\(.*\)"/\1/')
if [ -z "$kernels" ] || [ -z "$solvers" ]; then echo "run.sh: no kernel or solver found in $src" >&2; exit 2; fi
awk -v kernels="$kernels" -v solvers="$solvers" -v expect="$here/coverage.txt" -v report="$report" \
    -f "$here/coverage.awk" "$out"/cases/*.log
rc=$?
echo "oclgrind: coverage in $report"
[ $status != 0 ] || status=$rc
exit $status
