/*
** fault_inject.c: OpenCL failures injected under the library (issue 9), run by ctest as fault_inject
** with tests/faults/clshim.c preloaded.
**
** A workload on the program's own context and queue: cldnnCreate, GEMM 64^3, ReLU, a softmax of one
** 65536-element row (the split solver: handle scratch allocation), a 3x3 convolution (implicit GEMM),
** a read-back of every result, cldnnDestroy. It runs once clean, counting how often the library
** calls each wrapped entry point, then once per (entry point, call index, error) with that call
** failing. Every faulted run must
**   - return SUCCESS with results bitwise equal to the clean run (the library recovered, e.g. a
**     program binary that does not load is rebuilt from source), or return the status the error
**     maps to with a non-empty cldnnGetLastErrorString;
**   - leave no OpenCL object alive that it made (the shim's live count is back where it was);
**   - not crash.
** Then cldnnCreateDefault runs with its context and queue creation failing.
** Exit status 0 when all hold; the last line says how many faults were injected.
*/
#include <cldnn.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int (*arm_fn)(const char*, long, int);
typedef long (*count_fn)(const char*);
typedef long (*void_fn)(void);
static arm_fn shim_arm;
static count_fn shim_calls;
static void_fn shim_fired, shim_live;

enum { M = 64, SM = 65536, CN = 2, CC = 8, CH = 12, CW = 12 };
enum { R_GEMM, R_RELU, R_SOFTMAX, R_CONV, R_COUNT };
static const size_t k_len[R_COUNT] = {M * M, M * M, SM, CN * CC * CH * CW};

typedef struct {
    cl_context ctx;
    cl_command_queue q;
    cl_mem in[R_COUNT], out[R_COUNT], w;
} rig;

typedef struct {
    float* v[R_COUNT];
} results;

/* The failing call's last-error string, taken before the cleanup calls run. */
static char last_msg[512];

#define TRY(call)                                               \
    do {                                                        \
        st = (call);                                            \
        if (st != CLDNN_STATUS_SUCCESS) {                       \
            cldnnGetLastErrorString(last_msg, sizeof last_msg); \
            goto out;                                           \
        }                                                       \
    } while (0)

/* The workload; returns its first failing status (results filled on success). */
static cldnnStatus_t workload(const rig* r, results* res) {
    cldnnStatus_t st = CLDNN_STATUS_SUCCESS;
    last_msg[0] = '\0';
    cldnnHandle_t h = NULL;
    cldnnTensorDescriptor_t t = NULL, row = NULL, x4 = NULL;
    cldnnFilterDescriptor_t wd = NULL;
    cldnnConvolutionDescriptor_t cd = NULL;
    cldnnActivationDescriptor_t relu = NULL;
    const float one = 1.0f, zero = 0.0f;
    TRY(cldnnCreate(&h, r->q));
    TRY(cldnnCreateTensorDescriptor(&t));
    TRY(cldnnCreateTensorDescriptor(&row));
    TRY(cldnnCreateTensorDescriptor(&x4));
    TRY(cldnnCreateFilterDescriptor(&wd));
    TRY(cldnnCreateConvolutionDescriptor(&cd));
    TRY(cldnnCreateActivationDescriptor(&relu));
    TRY(cldnnSetTensor4dDescriptor(t, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 1, 1, M, M));
    TRY(cldnnSetTensor4dDescriptor(row, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 1, SM, 1, 1));
    TRY(cldnnSetTensor4dDescriptor(x4, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, CN, CC, CH, CW));
    TRY(cldnnSetFilter4dDescriptor(wd, CLDNN_DATA_FLOAT, CLDNN_TENSOR_NCHW, CC, CC, 3, 3));
    TRY(cldnnSetConvolution2dDescriptor(cd, 1, 1, 1, 1, 1, 1, CLDNN_CROSS_CORRELATION, CLDNN_DATA_FLOAT));
    TRY(cldnnSetActivationDescriptor(relu, CLDNN_ACTIVATION_RELU, CLDNN_NOT_PROPAGATE_NAN, 0.0));
    TRY(cldnnGemm(h, CLDNN_COL_MAJOR, CLDNN_OP_N, CLDNN_OP_T, M, M, M, &one, r->in[R_GEMM], 0, M, r->in[R_RELU], 0, M,
                  &zero, r->out[R_GEMM], 0, M, CLDNN_DATA_FLOAT));
    TRY(cldnnActivationForward(h, relu, &one, t, r->in[R_RELU], 0, &zero, t, r->out[R_RELU], 0));
    TRY(cldnnSoftmaxForward(h, CLDNN_SOFTMAX_ACCURATE, CLDNN_SOFTMAX_MODE_INSTANCE, &one, row, r->in[R_SOFTMAX], 0,
                            &zero, row, r->out[R_SOFTMAX], 0));
    TRY(cldnnConvolutionForward(h, &one, x4, r->in[R_CONV], 0, wd, r->w, 0, cd,
                                CLDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM, NULL, 0, 0, &zero, x4, r->out[R_CONV], 0));
    for (int i = 0; i < R_COUNT; ++i)
        if (clEnqueueReadBuffer(r->q, r->out[i], CL_TRUE, 0, k_len[i] * sizeof(float), res->v[i], 0, NULL, NULL) !=
            CL_SUCCESS) {
            st = CLDNN_STATUS_EXECUTION_FAILED_OPENCL;
            snprintf(last_msg, sizeof last_msg, "clEnqueueReadBuffer of result %d", i);
            goto out;
        }
out:
    cldnnDestroyTensorDescriptor(t);
    cldnnDestroyTensorDescriptor(row);
    cldnnDestroyTensorDescriptor(x4);
    cldnnDestroyFilterDescriptor(wd);
    cldnnDestroyConvolutionDescriptor(cd);
    cldnnDestroyActivationDescriptor(relu);
    cldnnDestroy(h);
    return st;
}

static cl_mem make(const rig* r, size_t n, unsigned seed) {
    float* v = malloc(n * sizeof(float));
    for (size_t i = 0; i < n; ++i) {
        seed = seed * 1103515245u + 12345u;
        v[i] = (float)((seed >> 8) & 0xffff) / 32768.0f - 1.0f;
    }
    cl_int err;
    cl_mem m = clCreateBuffer(r->ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(float), v, &err);
    free(v);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "fault_inject: clCreateBuffer: %d\n", (int)err);
        exit(1);
    }
    return m;
}

static void results_alloc(results* res) {
    for (int i = 0; i < R_COUNT; ++i) res->v[i] = malloc(k_len[i] * sizeof(float));
}

static int results_equal(const results* a, const results* b) {
    for (int i = 0; i < R_COUNT; ++i)
        if (memcmp(a->v[i], b->v[i], k_len[i] * sizeof(float)) != 0) return 0;
    return 1;
}

/* The status an injected error must surface as (cldnn_cl_fail_at's mapping). */
static cldnnStatus_t expected(cl_int err) {
    switch (err) {
    case CL_MEM_OBJECT_ALLOCATION_FAILURE:
    case CL_OUT_OF_RESOURCES:
        return CLDNN_STATUS_INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED;
    case CL_OUT_OF_HOST_MEMORY:
        return CLDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED;
    case CL_BUILD_PROGRAM_FAILURE:
        return CLDNN_STATUS_INTERNAL_ERROR_COMPILATION_FAILED;
    default:
        return CLDNN_STATUS_EXECUTION_FAILED_OPENCL;
    }
}

int main(void) {
    shim_arm = (arm_fn)dlsym(RTLD_DEFAULT, "clshim_arm");
    shim_calls = (count_fn)dlsym(RTLD_DEFAULT, "clshim_calls");
    shim_fired = (void_fn)dlsym(RTLD_DEFAULT, "clshim_fired");
    shim_live = (void_fn)dlsym(RTLD_DEFAULT, "clshim_live");
    if (!shim_arm || !shim_calls || !shim_fired || !shim_live) {
        fprintf(stderr, "fault_inject: run with LD_PRELOAD=libclshim.so\n");
        return 1;
    }
    /* The rig: the device of the default handle, our own context and queue. */
    cldnnHandle_t h0;
    cl_command_queue q0;
    cl_device_id dev;
    if (cldnnCreateDefault(&h0) || cldnnGetQueue(h0, &q0) ||
        clGetCommandQueueInfo(q0, CL_QUEUE_DEVICE, sizeof dev, &dev, NULL) != CL_SUCCESS) {
        fprintf(stderr, "fault_inject: no default device\n");
        return 1;
    }
    cldnnDestroy(h0);
    rig r;
    cl_int err;
    r.ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    r.q = clCreateCommandQueue(r.ctx, dev, 0, &err);
    for (int i = 0; i < R_COUNT; ++i) {
        r.in[i] = make(&r, k_len[i], 17u + (unsigned)i);
        r.out[i] = make(&r, k_len[i], 99u);
    }
    r.w = make(&r, CC * CC * 9, 5u);
    results clean, got;
    results_alloc(&clean);
    results_alloc(&got);

    shim_arm(NULL, 0, 0);
    long base = shim_live();
    cldnnStatus_t st = workload(&r, &clean);
    if (st != CLDNN_STATUS_SUCCESS) {
        fprintf(stderr, "fault_inject: the clean run failed: %s\n", last_msg);
        return 1;
    }
    if (shim_live() != base) {
        fprintf(stderr, "fault_inject: the clean run leaked %ld OpenCL objects\n", shim_live() - base);
        return 1;
    }
    static const struct {
        const char* fn;
        cl_int err;
    } k_faults[] = {{"clCreateBuffer", CL_MEM_OBJECT_ALLOCATION_FAILURE},
                    {"clCreateProgramWithBinary", CL_OUT_OF_HOST_MEMORY},
                    {"clCreateProgramWithSource", CL_OUT_OF_HOST_MEMORY},
                    {"clBuildProgram", CL_BUILD_PROGRAM_FAILURE},
                    {"clCreateKernel", CL_OUT_OF_HOST_MEMORY},
                    {"clEnqueueNDRangeKernel", CL_OUT_OF_RESOURCES},
                    {"clEnqueueNDRangeKernel", CL_INVALID_KERNEL_ARGS},
                    {"clFinish", CL_OUT_OF_RESOURCES}};
    long counts[sizeof k_faults / sizeof k_faults[0]];
    shim_arm(NULL, 0, 0);
    workload(&r, &got);
    for (size_t f = 0; f < sizeof k_faults / sizeof k_faults[0]; ++f) counts[f] = shim_calls(k_faults[f].fn);

    int failures = 0, injected = 0, recovered = 0;
    for (size_t f = 0; f < sizeof k_faults / sizeof k_faults[0]; ++f) {
        for (long n = 1; n <= counts[f]; ++n) {
            shim_arm(k_faults[f].fn, n, k_faults[f].err);
            for (int i = 0; i < R_COUNT; ++i) memset(got.v[i], 0xff, k_len[i] * sizeof(float));
            st = workload(&r, &got);
            long fired = shim_fired();
            shim_arm(NULL, 0, 0);
            clFinish(r.q);
            const char* msg = last_msg;
            long leaked = shim_live() - base;
            injected += fired > 0;
            const char* bad = NULL;
            if (leaked != 0)
                bad = "leaked OpenCL objects";
            else if (st == CLDNN_STATUS_SUCCESS && !results_equal(&got, &clean))
                bad = "returned SUCCESS with wrong results";
            else if (st != CLDNN_STATUS_SUCCESS && (msg[0] == '\0' || st != expected(k_faults[f].err)))
                bad = "returned an unexpected status or no message";
            if (st == CLDNN_STATUS_SUCCESS && fired) recovered++;
            if (bad) {
                failures++;
                fprintf(stderr, "FAIL %s call %ld (error %d): %s (status %s, %ld leaked): %s\n", k_faults[f].fn, n,
                        (int)k_faults[f].err, bad, cldnnGetErrorString(st), leaked, msg);
            }
        }
    }
    /* Handle creation on the default device with its context or queue failing. */
    static const char* const k_create[] = {"clCreateContext", "clCreateCommandQueue"};
    for (int i = 0; i < 2; ++i) {
        long before = shim_live();
        shim_arm(k_create[i], 1, CL_OUT_OF_HOST_MEMORY);
        cldnnHandle_t h = NULL;
        st = cldnnCreateDefault(&h);
        long fired = shim_fired();
        shim_arm(NULL, 0, 0);
        injected += fired > 0;
        if (st == CLDNN_STATUS_SUCCESS) cldnnDestroy(h);
        if (!fired || st == CLDNN_STATUS_SUCCESS || shim_live() != before) {
            failures++;
            fprintf(stderr, "FAIL cldnnCreateDefault with %s failing: fired %ld, status %s, %ld leaked\n", k_create[i],
                    fired, cldnnGetErrorString(st), shim_live() - before);
        }
    }
    for (int i = 0; i < R_COUNT; ++i) {
        clReleaseMemObject(r.in[i]);
        clReleaseMemObject(r.out[i]);
        free(clean.v[i]);
        free(got.v[i]);
    }
    clReleaseMemObject(r.w);
    clReleaseCommandQueue(r.q);
    clReleaseContext(r.ctx);
    printf("fault_inject: %d faults injected (", injected);
    for (size_t f = 0; f < sizeof k_faults / sizeof k_faults[0]; ++f)
        printf("%s%s x%ld", f ? ", " : "", k_faults[f].fn, counts[f]);
    printf(", and 2 in handle creation): %d recovered with correct results, %d failures\n", recovered, failures);
    return failures != 0;
}
