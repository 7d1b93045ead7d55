/*
** thread_jobs.h: the multi-threaded scenarios of issue 9, without Criterion.
**
** One copy of the job code, shared by the Criterion suite tests/test_threads.c and the standalone
** driver tests/tsan_threads.c (which runs under ThreadSanitizer and Valgrind, where Criterion's
** forking runner cannot). Nothing here asserts: every scenario returns 0 on success and 1 on a
** failure, with a message naming the thread, the failing call and the seed.
**
** A job runs a fixed mixed sequence of primitives on 2 x 4 x 16 x 24 floats (GEMM -> ReLU ->
** softmax -> convolution -> max pooling -> add tensor -> NCHW to NHWC -> fed back into the GEMM
** input) for a number of rounds, from inputs drawn from its seed, and keeps the final tensor. Every
** solver sums in a fixed order, so a job's result depends on its seed and round count only: the
** scenarios run each seed once alone first and require every concurrent result to equal it bitwise.
*/
#ifndef CLDNN_TEST_THREAD_JOBS_H_
#define CLDNN_TEST_THREAD_JOBS_H_

#include <stddef.h>
#include <stdint.h>

#include "cldnn.h"

/* What the scenarios run on: a context and device, and a handle on that context whose queue
** serves the single-threaded reference runs. */
typedef struct {
    cl_context context;
    cl_device_id device;
    cldnnHandle_t handle;
} tj_env;

/* Mixed primitives on `threads` threads (at most 64) for `rounds` rounds each, seeds derived from
** `seed`, in two passes: every thread with its own queue and its own handle (created in the
** threads at one barrier, and run before anything else on the context, so that handle creation
** and the program cache's lookups, loads and builds race too), then every thread on one shared
** handle, each call under a caller's mutex (the documented contract for a shared handle). The
** references run between the passes on env->handle. Returns 0 when every job succeeded and matched its single-threaded run bitwise, else 1
** with the first failure described in msg. */
int tj_mixed(const tj_env* env, uint64_t seed, int threads, int rounds, char* msg, size_t msg_size);

/* Handles created and destroyed `iterations` times on each of `threads` threads at once, each
** handle running one cldnnSetTensor that is read back; env->handle stays alive meanwhile. Returns
** 0 when every call succeeded with the right value, else 1 with a description in msg. */
int tj_churn(const tj_env* env, int threads, int iterations, char* msg, size_t msg_size);

#endif /* CLDNN_TEST_THREAD_JOBS_H_ */
