#!/bin/sh
# selftest.sh: ctest crshim_selftest. Runs the shim's selftest binary ($1, from selftest.c) and
# checks that crshim passes what must pass and fails what must fail:
#   - crshim_pass/*: exit 0, every test passing or skipped, none failing;
#   - each crshim_fail test alone: exit 1 and a [FAIL] or [CRASH] line naming it, with the
#     messages and the suite's fini marker where the test leads to them;
#   - crshim_fail/* together on 2 jobs: every test counted as failing or crashing;
#   - crshim_warn/*: the test passes, the warning is printed, the exit status is 1.
set -u
bin=$1
out=$(mktemp)
trap 'rm -f "$out"' EXIT
bad=0
fail() { echo "crshim_selftest: $*"; cat "$out"; bad=1; }

"$bin" --filter 'crshim_pass/*' --jobs 2 --verbose >"$out" 2>&1
rc=$?
[ $rc -eq 0 ] || fail "crshim_pass exited $rc, want 0"
grep -q 'Tested: 3 | Passing: 3 | Failing: 0 | Crashing: 0 | Skipped: 2' "$out" ||
  fail "crshim_pass: want 3 passing and 2 skipped"
grep -q 'an info line (shown with --verbose) 3' "$out" || fail "crshim_pass: the info line is missing"

n=0
for t in $("$bin" --list --filter 'crshim_fail/*'); do
  n=$((n + 1))
  "$bin" --filter "$t" >"$out" 2>&1
  rc=$?
  name=$(echo "$t" | sed 's|/|::|')
  [ $rc -eq 1 ] || fail "$t exited $rc, want 1"
  grep -Eq "^\[(FAIL|CRASH)\] $name:" "$out" || fail "$t: no [FAIL]/[CRASH] line"
  case $t in
    */assert_message) grep -q 'message 42' "$out" || fail "$t: message missing" ;;
    */assert_str_eq) grep -q 'actual=`abc` expected=`abd`' "$out" || fail "$t: values missing" ;;
    */assert) grep -q 'The expression 1 + 1 == 3 is false' "$out" || fail "$t: expression missing" ;;
  esac
  case $t in
    */crash|*/exit_in_body|*/timeout|*/assert_on_another_thread) ;;
    *) grep -q 'crshim-selftest: fini ran' "$out" || fail "$t: the suite's fini did not run" ;;
  esac
done
[ $n -eq 18 ] || fail "only $n crshim_fail tests listed"

"$bin" --filter 'crshim_fail/*' --jobs 2 >"$out" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "crshim_fail/* exited $rc, want 1"
grep -Eq "Tested: $n \| Passing: 0 \| Failing: [0-9]+ \| Crashing: [0-9]+" "$out" || fail "crshim_fail/*: not all $n failed"

"$bin" --filter 'crshim_warn/*' >"$out" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "crshim_warn exited $rc, want 1"
grep -q '^\[WARN\] a warning 7' "$out" || fail "crshim_warn: warning not printed"
grep -q 'Passing: 1 ' "$out" || fail "crshim_warn: the test itself must pass"

[ $bad -eq 0 ] && echo "crshim_selftest: $n failing tests failed, the passing ones passed"
exit $bad
