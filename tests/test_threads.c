/*
** test_threads.c: handles used from several threads at once (issue 9's stress test), as Criterion
** tests on the fixture's context. The scenarios themselves live in tests/common/thread_jobs.c,
** shared with tests/tsan_threads.c (the same jobs under ThreadSanitizer and Valgrind):
**   - mixed_primitives_match_single_thread: THREADS threads run ROUNDS rounds of GEMM, ReLU,
**     softmax, convolution, pooling, add and transform, first each with its own queue and handle
**     (created at one barrier), then all on one handle shared under a mutex; every result must be
**     bitwise equal to the same seed's single-threaded run on the fixture's handle.
**   - handle_churn: handles created and destroyed in a loop on every thread while the fixture's
**     handle keeps the context's program set alive.
*/
#include "fixture.h"
#include "thread_jobs.h"

#define THREADS 8
#define ROUNDS 6

TestSuite(threads, .fini = fx_fini);

static tj_env fixture_env(void) { return (tj_env){.context = fx_context(), .device = fx_device(), .handle = fx_handle()}; }

Test(threads, mixed_primitives_match_single_thread, .timeout = 600) {
    tj_env env = fixture_env();
    char msg[1024];
    FX_ASSERT(tj_mixed(&env, fx_seed(), THREADS, ROUNDS, msg, sizeof msg) == 0, "%s", msg);
    cr_log_info("%d threads x %d rounds of 8 primitives (own handles, then one shared handle) matched the "
                "single-threaded results bitwise",
                THREADS, ROUNDS);
}

Test(threads, handle_churn, .timeout = 300) {
    tj_env env = fixture_env();
    char msg[1024];
    FX_ASSERT(tj_churn(&env, THREADS, 20, msg, sizeof msg) == 0, "%s", msg);
}
