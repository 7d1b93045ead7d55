/*
** thread_jobs.c: the multi-threaded scenarios of issue 9 (see thread_jobs.h), without Criterion.
**
** Shapes: the GEMM is C (M x N) = A (M x K) B (K x N), column-major; C and A are then viewed as a
** CN x CC x CH x CW tensor (the same 3072 floats); the convolution maps CC -> CK channels with a
** 3x3 filter, pad 1, and the 3x3 max pooling (pad 1, stride 1) keeps the shape. Small enough that
** a run under ThreadSanitizer or Valgrind stays within seconds per round once programs are cached.
*/
#include "thread_jobs.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { M = 64, N = 48, K = 48 };          /* GEMM */
enum { CN = 2, CC = 4, CH = 16, CW = 24 }; /* the rest: C viewed as 2 x 4 x 16 x 24 (= 64 * 48) */
enum { CK = 4 };                           /* convolution: 4 -> 4 channels */
enum { OUT = CN * CK * CH * CW, MAX_THREADS = 64 };

typedef struct {
    int id;
    uint64_t seed;
    int rounds;
    cl_context context;
    cl_command_queue queue;    /* the queue for uploads and the read-back */
    cldnnHandle_t handle;      /* NULL: the job creates its own on `queue` (after the barrier) */
    pthread_mutex_t* lock;     /* non-NULL: held around every library call (a shared handle) */
    pthread_barrier_t* barrier;
    float out[OUT];
    cldnnStatus_t status;
    char where[320];
} job;

/* Runs one call under the job's lock; on a failure records status and call text and leaves. */
#define STEP(call)                                                            \
    do {                                                                      \
        if (j->lock) pthread_mutex_lock(j->lock);                             \
        cldnnStatus_t s_ = (call);                                            \
        if (j->lock) pthread_mutex_unlock(j->lock);                           \
        if (s_ != CLDNN_STATUS_SUCCESS) {                                     \
            j->status = s_;                                                   \
            snprintf(j->where, sizeof j->where, "%s", #call);                 \
            goto out;                                                         \
        }                                                                     \
    } while (0)

/* Uniform values in [-1, 1) from a 64-bit LCG (the seed fully determines a job's inputs). */
static void fill(float* v, size_t n, uint64_t* state) {
    for (size_t i = 0; i < n; ++i) {
        *state = *state * 6364136223846793005ull + 1442695040888963407ull;
        v[i] = (float)((double)(*state >> 40) / (double)(1ull << 24) * 2.0 - 1.0);
    }
}

/* A buffer holding n floats from v; NULL on any OpenCL failure. */
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

static cldnnStatus_t ok_if(int cond, cldnnStatus_t otherwise) { return cond ? CLDNN_STATUS_SUCCESS : otherwise; }

/* The mixed sequence for one job (a thread or a reference run); sets j->status and j->out. */
static void run_job(job* j) {
    cldnnHandle_t h = j->handle;
    cl_context ctx = j->context;
    cl_command_queue q = j->queue;
    cldnnTensorDescriptor_t t4 = NULL, y4 = NULL, nhwc = NULL;
    cldnnFilterDescriptor_t wd = NULL;
    cldnnConvolutionDescriptor_t cd = NULL;
    cldnnActivationDescriptor_t relu = NULL;
    cldnnPoolingDescriptor_t pd = NULL;
    cl_mem a = NULL, b = NULL, c = NULL, w = NULL, y = NULL, p = NULL, z = NULL, ws = NULL;
    float va[M * K], vb[K * N], vw[CK * CC * 9];
    uint64_t st = j->seed;
    fill(va, M * K, &st);
    fill(vb, K * N, &st);
    fill(vw, CK * CC * 9, &st);
    const float one = 1.0f, zero = 0.0f, half = 0.5f;
    const cldnnStatus_t nomem = CLDNN_STATUS_INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED;
    if (j->barrier) pthread_barrier_wait(j->barrier);
    if (h == NULL) STEP(cldnnCreate(&h, q));
    STEP(ok_if((a = upload(ctx, q, va, M * K)) != NULL, nomem));
    STEP(ok_if((b = upload(ctx, q, vb, K * N)) != NULL, nomem));
    STEP(ok_if((w = upload(ctx, q, vw, CK * CC * 9)) != NULL, nomem));
    STEP(ok_if((c = upload(ctx, q, va, M * N)) != NULL, nomem));
    STEP(ok_if((y = upload(ctx, q, va, OUT)) != NULL, nomem));
    STEP(ok_if((p = upload(ctx, q, va, OUT)) != NULL, nomem));
    STEP(ok_if((z = upload(ctx, q, va, OUT)) != NULL, nomem));
    STEP(cldnnCreateTensorDescriptor(&t4));
    STEP(cldnnCreateTensorDescriptor(&y4));
    STEP(cldnnCreateTensorDescriptor(&nhwc));
    STEP(cldnnCreateFilterDescriptor(&wd));
    STEP(cldnnCreateConvolutionDescriptor(&cd));
    STEP(cldnnCreateActivationDescriptor(&relu));
    STEP(cldnnCreatePoolingDescriptor(&pd));
    STEP(cldnnSetTensor4dDescriptor(t4, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, CN, CC, CH, CW));
    STEP(cldnnSetTensor4dDescriptor(y4, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, CN, CK, CH, CW));
    STEP(cldnnSetTensor4dDescriptor(nhwc, CLDNN_TENSOR_NHWC, CLDNN_DATA_FLOAT, CN, CK, CH, CW));
    STEP(cldnnSetFilter4dDescriptor(wd, CLDNN_DATA_FLOAT, CLDNN_TENSOR_NCHW, CK, CC, 3, 3));
    STEP(cldnnSetConvolution2dDescriptor(cd, 1, 1, 1, 1, 1, 1, CLDNN_CROSS_CORRELATION, CLDNN_DATA_FLOAT));
    STEP(cldnnSetActivationDescriptor(relu, CLDNN_ACTIVATION_RELU, CLDNN_NOT_PROPAGATE_NAN, 0.0));
    STEP(cldnnSetPooling2dDescriptor(pd, CLDNN_POOLING_MAX, CLDNN_NOT_PROPAGATE_NAN, 3, 3, 1, 1, 1, 1));
    size_t wsz = 0;
    const cldnnConvolutionFwdAlgo_t algo = CLDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM;
    STEP(cldnnGetConvolutionForwardWorkspaceSize(h, t4, wd, cd, y4, algo, &wsz));
    if (wsz) {
        cl_int err;
        ws = clCreateBuffer(ctx, CL_MEM_READ_WRITE, wsz, NULL, &err);
        STEP(ok_if(err == CL_SUCCESS, nomem));
    }
    for (int r = 0; r < j->rounds; ++r) {
        STEP(cldnnGemm(h, CLDNN_COL_MAJOR, CLDNN_OP_N, CLDNN_OP_N, M, N, K, &one, a, 0, M, b, 0, K, &zero, c, 0, M,
                       CLDNN_DATA_FLOAT));
        STEP(cldnnActivationForward(h, relu, &one, t4, c, 0, &zero, t4, c, 0));
        STEP(cldnnSoftmaxForward(h, CLDNN_SOFTMAX_ACCURATE, CLDNN_SOFTMAX_MODE_CHANNEL, &one, t4, c, 0, &zero, t4, c,
                                 0));
        STEP(cldnnConvolutionForward(h, &one, t4, c, 0, wd, w, 0, cd, algo, ws, 0, wsz, &zero, y4, y, 0));
        STEP(cldnnPoolingForward(h, pd, &one, y4, y, 0, &zero, y4, p, 0));
        STEP(cldnnAddTensor(h, &half, y4, y, 0, &one, y4, p, 0));
        STEP(cldnnTransformTensor(h, &one, y4, p, 0, &zero, nhwc, z, 0));
        /* feed the result back into A so that rounds depend on each other */
        STEP(cldnnTransformTensor(h, &one, nhwc, z, 0, &half, t4, a, 0));
    }
    STEP(ok_if(clEnqueueReadBuffer(q, z, CL_TRUE, 0, sizeof j->out, j->out, 0, NULL, NULL) == CL_SUCCESS,
               CLDNN_STATUS_EXECUTION_FAILED_OPENCL));
    j->status = CLDNN_STATUS_SUCCESS;
out:
    if (j->status != CLDNN_STATUS_SUCCESS) {
        char detail[256];
        cldnnGetLastErrorString(detail, sizeof detail); /* thread-local: this thread's detail */
        size_t l = strlen(j->where);
        snprintf(j->where + l, sizeof j->where - l, ": %s: %s", cldnnGetErrorString(j->status), detail);
    }
    cl_mem bufs[] = {a, b, c, w, y, p, z, ws};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; ++i)
        if (bufs[i]) clReleaseMemObject(bufs[i]);
    cldnnDestroyTensorDescriptor(t4);
    cldnnDestroyTensorDescriptor(y4);
    cldnnDestroyTensorDescriptor(nhwc);
    cldnnDestroyFilterDescriptor(wd);
    cldnnDestroyConvolutionDescriptor(cd);
    cldnnDestroyActivationDescriptor(relu);
    cldnnDestroyPoolingDescriptor(pd);
    if (j->handle == NULL && h != NULL) cldnnDestroy(h);
}

static void* job_main(void* arg) {
    run_job(arg);
    return NULL;
}

/* Runs run_job on every job, each on its own thread, and joins them. Returns 0, or 1 (msg set). */
static int run_threads(job* par, int threads, const char* pass, char* msg, size_t msg_size) {
    pthread_t th[MAX_THREADS];
    int started = 0;
    for (; started < threads; ++started)
        if (pthread_create(&th[started], NULL, job_main, &par[started]) != 0) break;
    for (int i = 0; i < started; ++i) pthread_join(th[i], NULL);
    if (started < threads) {
        snprintf(msg, msg_size, "%s: pthread_create failed for thread %d", pass, started);
        return 1;
    }
    return 0;
}

/* Requires every job of a pass to have succeeded with its reference's result. Returns 0 or 1. */
static int compare(const job* par, const job* ref, int threads, const char* pass, uint64_t seed, char* msg,
                   size_t msg_size) {
    for (int i = 0; i < threads; ++i) {
        if (par[i].status != CLDNN_STATUS_SUCCESS) {
            snprintf(msg, msg_size, "%s: thread %d (seed %llu) failed at %s", pass, i, (unsigned long long)seed,
                     par[i].where);
            return 1;
        }
        int64_t diff = 0, first = -1;
        for (int e = 0; e < OUT; ++e)
            if (memcmp(&par[i].out[e], &ref[i].out[e], sizeof(float)) != 0) {
                if (first < 0) first = e;
                diff++;
            }
        if (diff) {
            snprintf(msg, msg_size,
                     "%s: thread %d (seed %llu): %lld of %d results differ from the single-threaded run "
                     "(first at %lld: %.9g vs %.9g)",
                     pass, i, (unsigned long long)seed, (long long)diff, OUT, (long long)first,
                     (double)par[i].out[first], (double)ref[i].out[first]);
            return 1;
        }
    }
    return 0;
}

int tj_mixed(const tj_env* env, uint64_t seed, int threads, int rounds, char* msg, size_t msg_size) {
    if (threads < 1 || threads > MAX_THREADS || rounds < 1) {
        snprintf(msg, msg_size, "tj_mixed: %d threads (1..%d), %d rounds", threads, MAX_THREADS, rounds);
        return 1;
    }
    cl_command_queue hq = NULL;
    if (cldnnGetQueue(env->handle, &hq) != CLDNN_STATUS_SUCCESS) {
        snprintf(msg, msg_size, "cldnnGetQueue on the reference handle failed");
        return 1;
    }
    job* ref = calloc((size_t)threads, sizeof *ref);
    job* par = calloc((size_t)threads, sizeof *par);
    cl_command_queue queues[MAX_THREADS] = {0};
    int bad = 0;
    if (!ref || !par) {
        snprintf(msg, msg_size, "out of host memory");
        bad = 1;
        goto done;
    }

    /* pass 1, first of all (the context's program set is still empty, so the threads' lookups,
    ** loads and builds race on it): a queue and a handle per thread, all created at one barrier */
    pthread_barrier_t barrier;
    pthread_barrier_init(&barrier, NULL, (unsigned)threads);
    for (int i = 0; i < threads && !bad; ++i) {
        cl_int err;
        queues[i] = clCreateCommandQueue(env->context, env->device, 0, &err);
        if (err != CL_SUCCESS) {
            snprintf(msg, msg_size, "clCreateCommandQueue: %d", (int)err);
            bad = 1;
        }
        par[i] = (job){.id = i, .seed = seed + 7919u * (uint64_t)i, .rounds = rounds, .context = env->context,
                       .queue = queues[i], .barrier = &barrier, .status = CLDNN_STATUS_INTERNAL_ERROR};
    }
    if (!bad) bad = run_threads(par, threads, "own handles", msg, msg_size);
    pthread_barrier_destroy(&barrier);
    if (bad) goto done;

    /* the references: every seed alone on the caller's handle */
    for (int i = 0; i < threads && !bad; ++i) {
        ref[i] = (job){.id = i, .seed = par[i].seed, .rounds = rounds, .context = env->context, .queue = hq,
                       .handle = env->handle, .status = CLDNN_STATUS_INTERNAL_ERROR};
        run_job(&ref[i]);
        if (ref[i].status != CLDNN_STATUS_SUCCESS) {
            snprintf(msg, msg_size, "single-threaded job %d (seed %llu) failed at %s", i, (unsigned long long)seed,
                     ref[i].where);
            bad = 1;
        }
    }
    if (bad || (bad = compare(par, ref, threads, "own handles", seed, msg, msg_size)) != 0) goto done;

    /* pass 2: one handle shared by every thread, one library call at a time */
    pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    for (int i = 0; i < threads; ++i)
        par[i] = (job){.id = i, .seed = ref[i].seed, .rounds = rounds, .context = env->context, .queue = hq,
                       .handle = env->handle, .lock = &lock, .status = CLDNN_STATUS_INTERNAL_ERROR};
    bad = run_threads(par, threads, "shared handle", msg, msg_size);
    if (!bad) bad = compare(par, ref, threads, "shared handle", seed, msg, msg_size);
    pthread_mutex_destroy(&lock);
done:
    for (int i = 0; i < threads; ++i)
        if (queues[i]) clReleaseCommandQueue(queues[i]);
    free(ref);
    free(par);
    return bad;
}

/* ---------------------------------------------------------------------------- handle churn */

typedef struct {
    cl_context context;
    cl_command_queue q;
    int iterations;
    int failures;
    char msg[256];
} churn_job;

static void* churn_main(void* arg) {
    churn_job* j = arg;
    cldnnTensorDescriptor_t t = NULL;
    cl_int err;
    cl_mem m = clCreateBuffer(j->context, CL_MEM_READ_WRITE, 64 * sizeof(float), NULL, &err);
    if (err != CL_SUCCESS || cldnnCreateTensorDescriptor(&t) ||
        cldnnSetTensor4dDescriptor(t, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 1, 4, 4, 4)) {
        j->failures++;
        snprintf(j->msg, sizeof j->msg, "buffer or descriptor setup failed");
        goto out;
    }
    for (int i = 0; i < j->iterations; ++i) {
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

int tj_churn(const tj_env* env, int threads, int iterations, char* msg, size_t msg_size) {
    if (threads < 1 || threads > MAX_THREADS) {
        snprintf(msg, msg_size, "tj_churn: %d threads (1..%d)", threads, MAX_THREADS);
        return 1;
    }
    churn_job jobs[MAX_THREADS];
    pthread_t th[MAX_THREADS];
    int started = 0, bad = 0;
    for (int i = 0; i < threads; ++i) jobs[i] = (churn_job){.context = env->context, .iterations = iterations};
    for (int i = 0; i < threads; ++i) {
        cl_int err;
        jobs[i].q = clCreateCommandQueue(env->context, env->device, 0, &err);
        if (err != CL_SUCCESS) {
            snprintf(msg, msg_size, "clCreateCommandQueue: %d", (int)err);
            bad = 1;
            break;
        }
    }
    if (!bad)
        for (; started < threads; ++started)
            if (pthread_create(&th[started], NULL, churn_main, &jobs[started]) != 0) break;
    for (int i = 0; i < started; ++i) pthread_join(th[i], NULL);
    if (!bad && started < threads) {
        snprintf(msg, msg_size, "pthread_create failed for thread %d", started);
        bad = 1;
    }
    for (int i = 0; i < threads; ++i) {
        if (jobs[i].q) clReleaseCommandQueue(jobs[i].q);
        if (!bad && jobs[i].failures) {
            snprintf(msg, msg_size, "thread %d: %d failures, last: %s", i, jobs[i].failures, jobs[i].msg);
            bad = 1;
        }
    }
    return bad;
}
