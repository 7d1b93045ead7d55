/*
** selftest.c: crshim's own tests (ctest crshim_selftest runs them through selftest.sh). Suite
** crshim_pass uses every macro of the shim in its passing form and must pass; every test of suite
** crshim_fail fails in one way (each assertion macro, a failing fini, a crash, exit() in the body, a
** timeout, an assertion on another thread) and must be reported as failed, so the shim is proven
** able to fail; crshim_warn passes but logs a warning, which must make the exit status 1.
*/
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <criterion/logging.h>

/* ---------------------------------------------------------------------------- must pass */

static int g_inits, g_body_ran;

static void count_init(void) { ++g_inits; }
/* Runs after every crshim_pass test: the suite's and the test's init ran once each, and the body. */
static void check_fini(void) {
    cr_assert_eq(g_inits, 2, "suite and test init: %d calls", g_inits);
    cr_assert(g_body_ran, "fini ran without the body");
}

TestSuite(crshim_pass, .init = count_init, .fini = check_fini);

Test(crshim_pass, every_macro_true, .init = count_init) {
    const char* s = "abc";
    int x = 3;
    cr_assert(x == 3);
    cr_assert(x == 3, "x is %d", x);
    cr_assert_eq(x, 3);
    cr_assert_eq(x, 3, "x is %d", x);
    cr_assert_gt(x, 2);
    cr_assert_geq(x, 3);
    cr_assert_lt(x, 4, "x is %d", x);
    cr_assert_null(NULL);
    cr_assert_not_null(s);
    cr_assert_str_eq(s, "abc");
    cr_assert_str_empty(s + 3);
    cr_log_info("an info line (shown with --verbose) %d", x);
    g_body_ran = 1;
}

Test(crshim_pass, skipped_counts_as_no_failure, .init = count_init) {
    g_body_ran = 1;
    cr_skip_test("skipped on purpose %d", 1);
    cr_assert_fail("a skip must end the test");
}

Test(crshim_pass, disabled_is_not_run, .init = count_init, .disabled = 1) { cr_assert_fail("a disabled test ran"); }

/* Each test runs in its own process: a global changed here is unchanged in the next test. */
static int g_isolated;
Test(crshim_pass, process_per_test_a, .init = count_init) {
    cr_assert_eq(g_isolated, 0);
    g_isolated = 1;
    setenv("CRSHIM_SELFTEST_LEAK", "1", 1);
    g_body_ran = 1;
}
Test(crshim_pass, process_per_test_b, .init = count_init) {
    cr_assert_eq(g_isolated, 0);
    cr_assert_null(getenv("CRSHIM_SELFTEST_LEAK"));
    g_isolated = 1;
    g_body_ran = 1;
}

/* ---------------------------------------------------------------------------- must fail */

static void fini_marker(void) { fprintf(stderr, "crshim-selftest: fini ran\n"); }

TestSuite(crshim_fail, .fini = fini_marker);

Test(crshim_fail, assert) { cr_assert(1 + 1 == 3); }
Test(crshim_fail, assert_message) { cr_assert(0, "message %d", 42); }
Test(crshim_fail, assert_eq) { cr_assert_eq(2, 3); }
Test(crshim_fail, assert_gt) { cr_assert_gt(2, 2); }
Test(crshim_fail, assert_geq) { cr_assert_geq(1, 2); }
Test(crshim_fail, assert_lt) { cr_assert_lt(2, 2); }
Test(crshim_fail, assert_null) { cr_assert_null("x"); }
Test(crshim_fail, assert_not_null) { cr_assert_not_null(NULL); }
Test(crshim_fail, assert_str_eq) { cr_assert_str_eq("abc", "abd"); }
Test(crshim_fail, assert_str_eq_null) { cr_assert_str_eq(NULL, "abd"); }
Test(crshim_fail, assert_str_empty) { cr_assert_str_empty("x"); }
Test(crshim_fail, assert_fail) { cr_assert_fail("failed on purpose"); }
Test(crshim_fail, skip_after_failure_still_fails) {
    if (getpid() > 0)
        cr_assert_fail("first a failure");
    cr_skip_test("never reached");
}

static void failing_fini(void) { cr_assert_fail("fini failed"); }
Test(crshim_fail, fini_fails, .fini = failing_fini) {}

Test(crshim_fail, crash) { abort(); }
Test(crshim_fail, exit_in_body) { exit(0); }
Test(crshim_fail, timeout, .timeout = 0.5) {
    for (;;)
        sleep(1);
}

static void* failing_thread(void* arg) {
    (void)arg;
    cr_assert_fail("failed on another thread");
    return NULL;
}
Test(crshim_fail, assert_on_another_thread) {
    pthread_t th;
    cr_assert_eq(pthread_create(&th, NULL, failing_thread, NULL), 0);
    pthread_join(th, NULL);
}

/* ------------------------------------------------------- passes, but the warning fails the run */

Test(crshim_warn, warning) { cr_log_warn("a warning %d", 7); }
