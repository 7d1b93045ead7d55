/*
** test_threads.c: handles used from several threads at once (issue 9's stress test).
**
** THREADS threads share one OpenCL context (the fixture's) and so the library's per-context
** program cache and its on-disk cache; each has its own in-order queue, its own handle
** (cldnnCreate on that queue) and its own buffers. Each runs ROUNDS rounds of a mixed sequence:
**   GEMM (64 x 48 x 48) -> ReLU -> softmax (channel) -> convolution forward
**   (implicit GEMM, 3x3, pad 1) -> add tensor -> transform NCHW -> NHWC
** on inputs drawn from a per-thread seed, then reads the final tensor back. The main thread first
** runs the same sequence for every seed alone on the fixture's handle; every threaded result must
** be bitwise equal to its single-threaded twin (every solver sums in a fixed order). Handles are
** created inside the threads at the same moment (a barrier) so that handle creation, the program
** cache and program builds race too. A second test creates and destroys handles in a loop from
** every thread while others run primitives.
*/
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <string.h>

#include "fixture.h"

#define THREADS 8
#define ROUNDS 6

enum { M = 64, N = 48, K = 48 };              /* GEMM: C (M x N) = A (M x K) B (K x N), column-major */
enum { CN = 2, CC = 4, CH = 16, CW = 24 };     /* the rest: C (and A) viewed as 2 x 4 x 16 x 24 (= 64 * 48) */
enum { CK = 4 };                                /* convolution: 4 -> 4 channels, 3x3, pad 1 */

typedef struct {
    int id;
    uint64_t seed;
    cl_command_queue queue; /* NULL: use the fixture's handle */
    float out[CN * CK * CH * CW];
    cldnnStatus_t status;
    char where[160];
    pthread_barrier_t* barrier;
} job;

#define STEP(call)                                                            \
    do {                                                                      \
        cldnnStatus_t s_ = (call);                                            \
        if (s_ != CLDNN_STATUS_SUCCESS) {                                     \
            j->status = s_;                                                   \
            snprintf(j->where, sizeof j->where, "%s", #call);                 \
            goto out;                                                         \
        }                                                                     \
    } while (0)

static void fill(float* v, size_t n, uint64_t* state) {
    for (size_t i = 0; i < n; ++i) {
        *state = *state * 6364136223846793005ull + 1442695040888963407ull;
        v[i] = (float)((double)(*state >> 40) / (double)(1ull << 24) * 2.0 - 1.0);
    }
}

static cl_mem upload(cl_context ctx, cl_command_queue q, const float* v, size_t n) {
    cl_int err;
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n * sizeof(float), NULL, &err);
    if (err != CL_SUCCESS) return NULL;
    if (clEnqueueWriteBuffer(q, m, CL_TRUE, 0, n * sizeof(float), v, 0, NULL, NULL) != CL_SUCCESS) {
        clReleaseMemObject(m);
        return NULL;
    }
    return m;
}

/* The mixed sequence for one job (thread or reference run). */
static void run_job(job* j) {
    cldnnHandle_t h = NULL;
    cl_context ctx = fx_context();
    cl_command_queue q = j->queue ? j->queue : fx_queue();
    cldnnTensorDescriptor_t t4 = NULL, y4 = NULL, nhwc = NULL;
    cldnnFilterDescriptor_t wd = NULL;
    cldnnConvolutionDescriptor_t cd = NULL;
    cldnnActivationDescriptor_t relu = NULL;
    cl_mem a = NULL, b = NULL, c = NULL, w = NULL, y = NULL, z = NULL, ws = NULL;
    float va[M * K], vb[K * N], vw[CK * CC * 9];
    uint64_t st = j->seed;
    fill(va, M * K, &st);
    fill(vb, K * N, &st);
    fill(vw, CK * CC * 9, &st);
    const float one = 1.0f, zero = 0.0f, half = 0.5f;
    if (j->barrier) pthread_barrier_wait(j->barrier);
    if (j->queue) {
        STEP(cldnnCreate(&h, q));
    } else {
        h = fx_handle();
    }
    STEP((a = upload(ctx, q, va, M * K)) ? CLDNN_STATUS_SUCCESS : CLDNN_STATUS_INTERNAL_ERROR);
    STEP((b = upload(ctx, q, vb, K * N)) ? CLDNN_STATUS_SUCCESS : CLDNN_STATUS_INTERNAL_ERROR);
    STEP((w = upload(ctx, q, vw, CK * CC * 9)) ? CLDNN_STATUS_SUCCESS : CLDNN_STATUS_INTERNAL_ERROR);
    STEP((c = upload(ctx, q, va, M * N)) ? CLDNN_STATUS_SUCCESS : CLDNN_STATUS_INTERNAL_ERROR);
    STEP((y = upload(ctx, q, va, CN * CK * CH * CW)) ? CLDNN_STATUS_SUCCESS : CLDNN_STATUS_INTERNAL_ERROR);
    STEP((z = upload(ctx, q, va, CN * CK * CH * CW)) ? CLDNN_STATUS_SUCCESS : CLDNN_STATUS_INTERNAL_ERROR);
    STEP(cldnnCreateTensorDescriptor(&t4));
    STEP(cldnnCreateTensorDescriptor(&y4));
    STEP(cldnnCreateTensorDescriptor(&nhwc));
    STEP(cldnnCreateFilterDescriptor(&wd));
    STEP(cldnnCreateConvolutionDescriptor(&cd));
    STEP(cldnnCreateActivationDescriptor(&relu));
    STEP(cldnnSetTensor4dDescriptor(t4, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, CN, CC, CH, CW));
    STEP(cldnnSetTensor4dDescriptor(y4, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, CN, CK, CH, CW));
    STEP(cldnnSetTensor4dDescriptor(nhwc, CLDNN_TENSOR_NHWC, CLDNN_DATA_FLOAT, CN, CK, CH, CW));
    STEP(cldnnSetFilter4dDescriptor(wd, CLDNN_DATA_FLOAT, CLDNN_TENSOR_NCHW, CK, CC, 3, 3));
    STEP(cldnnSetConvolution2dDescriptor(cd, 1, 1, 1, 1, 1, 1, CLDNN_CROSS_CORRELATION, CLDNN_DATA_FLOAT));
    STEP(cldnnSetActivationDescriptor(relu, CLDNN_ACTIVATION_RELU, CLDNN_NOT_PROPAGATE_NAN, 0.0));
    size_t wsz = 0;
    const cldnnConvolutionFwdAlgo_t algo = CLDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM;
    STEP(cldnnGetConvolutionForwardWorkspaceSize(h, t4, wd, cd, y4, algo, &wsz));
    if (wsz) {
        cl_int err;
        ws = clCreateBuffer(ctx, CL_MEM_READ_WRITE, wsz, NULL, &err);
        STEP(err == CL_SUCCESS ? CLDNN_STATUS_SUCCESS : CLDNN_STATUS_INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED);
    }
    for (int r = 0; r < ROUNDS; ++r) {
        STEP(cldnnGemm(h, CLDNN_COL_MAJOR, CLDNN_OP_N, CLDNN_OP_N, M, N, K, &one, a, 0, M, b, 0, K, &zero, c, 0, M,
                       CLDNN_DATA_FLOAT));
        STEP(cldnnActivationForward(h, relu, &one, t4, c, 0, &zero, t4, c, 0));
        STEP(cldnnSoftmaxForward(h, CLDNN_SOFTMAX_ACCURATE, CLDNN_SOFTMAX_MODE_CHANNEL, &one, t4, c, 0, &zero, t4, c,
                                 0));
        STEP(cldnnConvolutionForward(h, &one, t4, c, 0, wd, w, 0, cd, algo, ws, 0, wsz, &zero, y4, y, 0));
        STEP(cldnnAddTensor(h, &half, y4, y, 0, &one, y4, y, 0));
        STEP(cldnnTransformTensor(h, &one, y4, y, 0, &zero, nhwc, z, 0));
        /* feed the result back into A so that rounds depend on each other */
        STEP(cldnnTransformTensor(h, &one, nhwc, z, 0, &half, t4, a, 0));
    }
    STEP(clEnqueueReadBuffer(q, z, CL_TRUE, 0, sizeof j->out, j->out, 0, NULL, NULL) == CL_SUCCESS
             ? CLDNN_STATUS_SUCCESS
             : CLDNN_STATUS_EXECUTION_FAILED_OPENCL);
    j->status = CLDNN_STATUS_SUCCESS;
out:
    if (j->status != CLDNN_STATUS_SUCCESS) {
        char msg[256];
        cldnnGetLastErrorString(msg, sizeof msg); /* thread-local: this thread's detail */
        size_t l = strlen(j->where);
        snprintf(j->where + l, sizeof j->where - l, ": %s", msg);
    }
    cl_mem bufs[] = {a, b, c, w, y, z, ws};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; ++i)
        if (bufs[i]) clReleaseMemObject(bufs[i]);
    cldnnDestroyTensorDescriptor(t4);
    cldnnDestroyTensorDescriptor(y4);
    cldnnDestroyTensorDescriptor(nhwc);
    cldnnDestroyFilterDescriptor(wd);
    cldnnDestroyConvolutionDescriptor(cd);
    cldnnDestroyActivationDescriptor(relu);
    if (j->queue && h) cldnnDestroy(h);
}

static void* thread_main(void* arg) {
    run_job(arg);
    return NULL;
}

static cl_command_queue new_queue(void) {
    cl_int err;
    cl_command_queue q = clCreateCommandQueue(fx_context(), fx_device(), 0, &err);
    FX_ASSERT(err == CL_SUCCESS, "clCreateCommandQueue: %d", (int)err);
    return q;
}

Test(threads, mixed_primitives_match_single_thread, .timeout = 600) {
    static job ref[THREADS], par[THREADS];
    uint64_t base = fx_seed();
    for (int i = 0; i < THREADS; ++i) {
        ref[i] = (job){.id = i, .seed = base + 7919u * (uint64_t)i, .status = CLDNN_STATUS_INTERNAL_ERROR};
        run_job(&ref[i]);
        FX_ASSERT(ref[i].status == CLDNN_STATUS_SUCCESS, "single-threaded job %d failed at %s", i, ref[i].where);
    }
    pthread_barrier_t barrier;
    pthread_barrier_init(&barrier, NULL, THREADS);
    pthread_t th[THREADS];
    for (int i = 0; i < THREADS; ++i) {
        par[i] = (job){.id = i, .seed = ref[i].seed, .queue = new_queue(), .status = CLDNN_STATUS_INTERNAL_ERROR,
                       .barrier = &barrier};
        FX_ASSERT(pthread_create(&th[i], NULL, thread_main, &par[i]) == 0, "pthread_create %d", i);
    }
    for (int i = 0; i < THREADS; ++i) pthread_join(th[i], NULL);
    pthread_barrier_destroy(&barrier);
    for (int i = 0; i < THREADS; ++i) {
        clReleaseCommandQueue(par[i].queue);
        FX_ASSERT(par[i].status == CLDNN_STATUS_SUCCESS, "thread %d failed at %s", i, par[i].where);
        int64_t diff = 0, first = -1;
        for (size_t e = 0; e < sizeof par[i].out / sizeof(float); ++e)
            if (memcmp(&par[i].out[e], &ref[i].out[e], sizeof(float)) != 0) {
                if (first < 0) first = (int64_t)e;
                diff++;
            }
        FX_ASSERT(diff == 0, "thread %d: %lld of %zu results differ from the single-threaded run (first at %lld: %.9g vs %.9g)",
                  i, (long long)diff, sizeof par[i].out / sizeof(float), (long long)first,
                  first >= 0 ? par[i].out[first] : 0.0, first >= 0 ? ref[i].out[first] : 0.0);
    }
    cr_log_info("%d threads x %d rounds of 7 primitives matched the single-threaded results bitwise", THREADS,
                ROUNDS);
}

/* Handles created and destroyed in a loop on every thread at once (the context's program set
** is shared and reference-counted), each running one small primitive per handle. */
typedef struct {
    cl_command_queue q;
    int failures;
    char msg[256];
} churn_job;

static void* churn_main(void* arg) {
    churn_job* j = arg;
    cldnnTensorDescriptor_t t = NULL;
    cl_int err;
    cl_mem m = clCreateBuffer(fx_context(), CL_MEM_READ_WRITE, 64 * sizeof(float), NULL, &err);
    if (err != CL_SUCCESS || cldnnCreateTensorDescriptor(&t) ||
        cldnnSetTensor4dDescriptor(t, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 1, 4, 4, 4)) {
        j->failures++;
        goto out;
    }
    for (int i = 0; i < 20; ++i) {
        cldnnHandle_t h;
        const float v = (float)i;
        if (cldnnCreate(&h, j->q) != CLDNN_STATUS_SUCCESS) {
            j->failures++;
            cldnnGetLastErrorString(j->msg, sizeof j->msg);
            continue;
        }
        float got[64];
        if (cldnnSetTensor(h, t, m, 0, &v) != CLDNN_STATUS_SUCCESS ||
            clEnqueueReadBuffer(j->q, m, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL) != CL_SUCCESS || got[63] != v) {
            j->failures++;
            cldnnGetLastErrorString(j->msg, sizeof j->msg);
        }
        cldnnDestroy(h);
    }
out:
    cldnnDestroyTensorDescriptor(t);
    if (m) clReleaseMemObject(m);
    return NULL;
}

Test(threads, handle_churn, .timeout = 300) {
    (void)fx_handle(); /* keeps one handle alive so the context's program set outlives the churn */
    static churn_job jobs[THREADS];
    pthread_t th[THREADS];
    for (int i = 0; i < THREADS; ++i) {
        jobs[i] = (churn_job){.q = new_queue()};
        FX_ASSERT(pthread_create(&th[i], NULL, churn_main, &jobs[i]) == 0, "pthread_create %d", i);
    }
    for (int i = 0; i < THREADS; ++i) pthread_join(th[i], NULL);
    for (int i = 0; i < THREADS; ++i) {
        clReleaseCommandQueue(jobs[i].q);
        FX_ASSERT(jobs[i].failures == 0, "thread %d: %d failures, last: %s", i, jobs[i].failures, jobs[i].msg);
    }
}
