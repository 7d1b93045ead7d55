/*
** tsan_threads.c: the thread scenarios of tests/common/thread_jobs.c as a standalone program, free of
** any test runner: .ci/run runs it under Valgrind's memcheck and, for three more seeds beside the
** suites (built on tests/common/crshim there), in its CLDNN_SANITIZE=thread tree.
**
**   tsan_threads [--threads N] [--rounds R] [--churn I]
**
** Runs tj_mixed (N threads, R rounds; own handles, then one shared handle) and tj_churn (N threads,
** I handle lifetimes each; 0 skips it) on a handle from cldnnCreateDefault (CLDNN_DEVICE picks the
** device). The seed comes from CLDNN_TEST_SEED or the clock and is printed first. Exit status 0 when
** everything matched, 1 on a failure (printed with the seed), 2 on a usage or setup error.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref.h"
#include "thread_jobs.h"

/* Parses "--name value" at argv[*i] into *v (1..limit); returns 0 on a match, 1 on no match, 2 on an error. */
static int int_arg(int argc, char** argv, int* i, const char* name, int limit, int* v) {
    if (strcmp(argv[*i], name) != 0) return 1;
    if (*i + 1 >= argc) return 2;
    char* end = NULL;
    long x = strtol(argv[++*i], &end, 10);
    if (end == argv[*i] || *end != '\0' || x < 0 || x > limit) return 2;
    *v = (int)x;
    return 0;
}

int main(int argc, char** argv) {
    int threads = 8, rounds = 6, churn = 20;
    for (int i = 1; i < argc; ++i) {
        int r = int_arg(argc, argv, &i, "--threads", 64, &threads);
        if (r == 1) r = int_arg(argc, argv, &i, "--rounds", 1000, &rounds);
        if (r == 1) r = int_arg(argc, argv, &i, "--churn", 1000, &churn);
        if (r != 0 || threads < 1 || rounds < 1) {
            fprintf(stderr, "usage: %s [--threads 1..64] [--rounds 1..1000] [--churn 0..1000]\n", argv[0]);
            return 2;
        }
    }
    uint64_t seed = ref_seed_from_env();
    printf("tsan_threads: seed=%llu (rerun with CLDNN_TEST_SEED=%llu), %d threads, %d rounds, churn %d\n",
           (unsigned long long)seed, (unsigned long long)seed, threads, rounds, churn);
    fflush(stdout);

    tj_env env = {0};
    cl_command_queue q = NULL;
    char msg[1024];
    cldnnStatus_t s = cldnnCreateDefault(&env.handle);
    if (s == CLDNN_STATUS_SUCCESS) s = cldnnGetQueue(env.handle, &q);
    if (s != CLDNN_STATUS_SUCCESS) {
        cldnnGetLastErrorString(msg, sizeof msg);
        fprintf(stderr, "tsan_threads: no handle: %s: %s\n", cldnnGetErrorString(s), msg);
        return 2;
    }
    if (clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof env.context, &env.context, NULL) != CL_SUCCESS ||
        clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof env.device, &env.device, NULL) != CL_SUCCESS) {
        fprintf(stderr, "tsan_threads: clGetCommandQueueInfo failed\n");
        cldnnDestroy(env.handle);
        return 2;
    }
    int failed = 0;
    if (tj_mixed(&env, seed, threads, rounds, msg, sizeof msg) != 0) {
        fprintf(stderr, "tsan_threads: FAILED mixed primitives [seed=%llu]: %s\n", (unsigned long long)seed, msg);
        failed = 1;
    } else {
        printf("tsan_threads: mixed primitives: %d threads x %d rounds matched the single-threaded runs\n", threads,
               rounds);
    }
    if (churn > 0) {
        if (tj_churn(&env, threads, churn, msg, sizeof msg) != 0) {
            fprintf(stderr, "tsan_threads: FAILED handle churn [seed=%llu]: %s\n", (unsigned long long)seed, msg);
            failed = 1;
        } else {
            printf("tsan_threads: handle churn: %d threads x %d handles\n", threads, churn);
        }
    }
    cldnnDestroy(env.handle);
    return failed;
}
