/*
** host_cost.c: cldnn-host-cost, the host cost of one library call on a warm program cache.
**
**   cldnn-host-cost [-n N] [-r R] [-w W]
**
** Three tiny primitives whose device work is negligible, so that what the host clock sees is the
** library's own cost per call (argument checks, descriptor reads, solver choice, kernel argument
** setting, the enqueue):
**   conv_fwd  cldnnConvolutionForward, x 1x4x8x8, w 4x4x3x3, pad 1, stride 1, the first algorithm
**             that Get_v7 returns (fixed for the whole run), with its workspace
**   gemm      cldnnGemm, 8x8x8, column-major, NN, FLOAT
**   relu      cldnnActivationForward, RELU on 64 floats (1x64x1x1)
** For each: W warm-up calls (default 20; they build or load the programs) and clFinish, then R
** repetitions (default 5) of N calls (default 2000) enqueued back to back on the handle's queue and
** timed on the host clock without waiting per call; the clFinish after them is timed apart.
** Printed: a line naming the device, then one line per primitive with the median over the
** repetitions of the enqueue time per call in microseconds (and the min, max and the median
** clFinish time). Public API only (cldnn.h and OpenCL). The device is the library's default
** handle's (CLDNN_DEVICE). Exit status 0, or 1 after printing the failing call.
*/
#define _POSIX_C_SOURCE 200809L
#include "cldnn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_REPS 101

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec * 1e-3;
}

static int cmp_double(const void* a, const void* b) {
    double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

static double median(double* v, int n) {
    qsort(v, (size_t)n, sizeof v[0], cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Fails the program with the call's name, status and the library's detail. */
static int check(cldnnStatus_t s, const char* what) {
    if (s == CLDNN_STATUS_SUCCESS) return 0;
    char buf[512];
    cldnnGetLastErrorString(buf, sizeof buf);
    fprintf(stderr, "cldnn-host-cost: %s: %s (%s)\n", what, cldnnGetErrorString(s), buf);
    return 1;
}

static int check_cl(cl_int e, const char* what) {
    if (e == CL_SUCCESS) return 0;
    fprintf(stderr, "cldnn-host-cost: %s: OpenCL error %d\n", what, (int)e);
    return 1;
}

/* Everything the three primitives use. */
typedef struct {
    cldnnHandle_t h;
    cl_command_queue q;
    cldnnTensorDescriptor_t xd, yd, ad;
    cldnnFilterDescriptor_t wd;
    cldnnConvolutionDescriptor_t cd;
    cldnnActivationDescriptor_t act;
    cldnnConvolutionFwdAlgo_t algo;
    size_t ws_size;
    cl_mem x, w, y, ws, ga, gb, gc, ax, ay;
} state;

typedef cldnnStatus_t (*call_fn)(state* s);

static cldnnStatus_t call_conv(state* s) {
    const float one = 1.0f, zero = 0.0f;
    return cldnnConvolutionForward(s->h, &one, s->xd, s->x, 0, s->wd, s->w, 0, s->cd, s->algo, s->ws, 0, s->ws_size,
                                   &zero, s->yd, s->y, 0);
}

static cldnnStatus_t call_gemm(state* s) {
    const float one = 1.0f, zero = 0.0f;
    return cldnnGemm(s->h, CLDNN_COL_MAJOR, CLDNN_OP_N, CLDNN_OP_N, 8, 8, 8, &one, s->ga, 0, 8, s->gb, 0, 8, &zero,
                     s->gc, 0, 8, CLDNN_DATA_FLOAT);
}

static cldnnStatus_t call_relu(state* s) {
    const float one = 1.0f, zero = 0.0f;
    return cldnnActivationForward(s->h, s->act, &one, s->ad, s->ax, 0, &zero, s->ad, s->ay, 0);
}

static cl_mem buffer(cl_context ctx, size_t bytes, int* err) {
    cl_int e;
    float* host = calloc(bytes / sizeof(float) + 1, sizeof(float));
    if (!host) {
        *err = 1;
        return NULL;
    }
    for (size_t i = 0; i < bytes / sizeof(float); i++) host[i] = 0.25f * (float)(i % 7) - 0.5f;
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, host, &e);
    free(host);
    *err |= check_cl(e, "clCreateBuffer");
    return m;
}

static int setup(state* s) {
    int err = 0;
    cl_context ctx;
    if (check(cldnnCreateDefault(&s->h), "cldnnCreateDefault") || check(cldnnGetQueue(s->h, &s->q), "cldnnGetQueue") ||
        check_cl(clGetCommandQueueInfo(s->q, CL_QUEUE_CONTEXT, sizeof ctx, &ctx, NULL), "clGetCommandQueueInfo"))
        return 1;
    int n, k, p, q;
    if (check(cldnnCreateTensorDescriptor(&s->xd), "create x") ||
        check(cldnnSetTensor4dDescriptor(s->xd, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 1, 4, 8, 8), "set x") ||
        check(cldnnCreateFilterDescriptor(&s->wd), "create w") ||
        check(cldnnSetFilter4dDescriptor(s->wd, CLDNN_DATA_FLOAT, CLDNN_TENSOR_NCHW, 4, 4, 3, 3), "set w") ||
        check(cldnnCreateConvolutionDescriptor(&s->cd), "create conv") ||
        check(cldnnSetConvolution2dDescriptor(s->cd, 1, 1, 1, 1, 1, 1, CLDNN_CROSS_CORRELATION, CLDNN_DATA_FLOAT),
              "set conv") ||
        check(cldnnGetConvolution2dForwardOutputDim(s->cd, s->xd, s->wd, &n, &k, &p, &q), "output dim") ||
        check(cldnnCreateTensorDescriptor(&s->yd), "create y") ||
        check(cldnnSetTensor4dDescriptor(s->yd, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, n, k, p, q), "set y"))
        return 1;
    cldnnConvolutionFwdAlgoPerf_t perf[CLDNN_CONVOLUTION_FWD_ALGO_COUNT];
    int got = 0;
    if (check(cldnnGetConvolutionForwardAlgorithm_v7(s->h, s->xd, s->wd, s->cd, s->yd,
                                                      CLDNN_CONVOLUTION_FWD_ALGO_COUNT, &got, perf),
              "cldnnGetConvolutionForwardAlgorithm_v7"))
        return 1;
    if (got < 1 || perf[0].status != CLDNN_STATUS_SUCCESS) {
        fprintf(stderr, "cldnn-host-cost: Get_v7 returned no applicable algorithm\n");
        return 1;
    }
    s->algo = perf[0].algo;
    if (check(cldnnGetConvolutionForwardWorkspaceSize(s->h, s->xd, s->wd, s->cd, s->yd, s->algo, &s->ws_size),
              "workspace size"))
        return 1;
    if (check(cldnnCreateTensorDescriptor(&s->ad), "create act tensor") ||
        check(cldnnSetTensor4dDescriptor(s->ad, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 1, 64, 1, 1), "set act tensor") ||
        check(cldnnCreateActivationDescriptor(&s->act), "create act") ||
        check(cldnnSetActivationDescriptor(s->act, CLDNN_ACTIVATION_RELU, CLDNN_NOT_PROPAGATE_NAN, 0.0), "set act"))
        return 1;
    s->x = buffer(ctx, 4 * 8 * 8 * sizeof(float), &err);
    s->w = buffer(ctx, 4 * 4 * 3 * 3 * sizeof(float), &err);
    s->y = buffer(ctx, (size_t)n * k * p * q * sizeof(float), &err);
    s->ws = s->ws_size ? buffer(ctx, s->ws_size, &err) : NULL;
    s->ga = buffer(ctx, 64 * sizeof(float), &err);
    s->gb = buffer(ctx, 64 * sizeof(float), &err);
    s->gc = buffer(ctx, 64 * sizeof(float), &err);
    s->ax = buffer(ctx, 64 * sizeof(float), &err);
    s->ay = buffer(ctx, 64 * sizeof(float), &err);
    return err;
}

static void print_device(cl_command_queue q) {
    cl_device_id dev;
    cl_platform_id plat;
    char name[256] = "?", driver[128] = "?", pname[256] = "?";
    cl_uint cus = 0;
    if (clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof dev, &dev, NULL) != CL_SUCCESS) {
        printf("device: ?\n");
        return;
    }
    clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL);
    clGetDeviceInfo(dev, CL_DRIVER_VERSION, sizeof driver, driver, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cus, &cus, NULL);
    if (clGetDeviceInfo(dev, CL_DEVICE_PLATFORM, sizeof plat, &plat, NULL) == CL_SUCCESS)
        clGetPlatformInfo(plat, CL_PLATFORM_NAME, sizeof pname, pname, NULL);
    printf("device: %s (%s, driver %s, %u compute units)\n", name, pname, driver, cus);
}

/* Times one primitive; prints its line. */
static int measure(state* s, const char* name, const char* what, call_fn fn, int n, int reps, int warm) {
    double enq[MAX_REPS], fin[MAX_REPS];
    for (int i = 0; i < warm; i++)
        if (check(fn(s), name)) return 1;
    if (check_cl(clFinish(s->q), "clFinish")) return 1;
    for (int r = 0; r < reps; r++) {
        double t0 = now_us();
        for (int i = 0; i < n; i++)
            if (check(fn(s), name)) return 1;
        double t1 = now_us();
        if (check_cl(clFinish(s->q), "clFinish")) return 1;
        double t2 = now_us();
        enq[r] = (t1 - t0) / n;
        fin[r] = (t2 - t1) * 1e-3;
    }
    double lo = enq[0], hi = enq[0];
    for (int r = 1; r < reps; r++) {
        if (enq[r] < lo) lo = enq[r];
        if (enq[r] > hi) hi = enq[r];
    }
    double med = median(enq, reps), fmed = median(fin, reps);
    printf("%-8s %9.3f us/call  (min %.3f, max %.3f; median of %d x %d calls; clFinish after them %.3f ms)  %s\n",
           name, med, lo, hi, reps, n, fmed, what);
    fflush(stdout);
    return 0;
}

static void usage(FILE* f) {
    fprintf(f, "usage: cldnn-host-cost [-n N] [-r R] [-w W]\n"
               "  -n N  calls per repetition (2000)\n"
               "  -r R  repetitions, the median is printed (5; at most %d)\n"
               "  -w W  warm-up calls per primitive (20)\n"
               "The device: CLDNN_DEVICE (gpu, cpu, P:D or a name substring).\n",
            MAX_REPS);
}

int main(int argc, char** argv) {
    int n = 2000, reps = 5, warm = 20;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage(stdout);
            return 0;
        }
        if (i + 1 < argc && (!strcmp(argv[i], "-n") || !strcmp(argv[i], "-r") || !strcmp(argv[i], "-w"))) {
            int v = atoi(argv[i + 1]);
            if (argv[i][1] == 'n') n = v;
            else if (argv[i][1] == 'r') reps = v;
            else warm = v;
            i++;
            continue;
        }
        usage(stderr);
        return 2;
    }
    if (n < 1 || reps < 1 || reps > MAX_REPS || warm < 1) {
        usage(stderr);
        return 2;
    }
    state s;
    memset(&s, 0, sizeof s);
    if (setup(&s)) return 1;
    print_device(s.q);
    char conv_what[128];
    snprintf(conv_what, sizeof conv_what, "1x4x8x8, k4 3x3 pad 1, algo %d (Get_v7's first), workspace %zu B",
             (int)s.algo, s.ws_size);
    int rc = measure(&s, "conv_fwd", conv_what, call_conv, n, reps, warm) ||
             measure(&s, "gemm", "8x8x8 FLOAT col-major NN", call_gemm, n, reps, warm) ||
             measure(&s, "relu", "64 floats (1x64x1x1)", call_relu, n, reps, warm);
    cl_mem mems[] = {s.x, s.w, s.y, s.ws, s.ga, s.gb, s.gc, s.ax, s.ay};
    for (size_t i = 0; i < sizeof mems / sizeof mems[0]; i++)
        if (mems[i]) clReleaseMemObject(mems[i]);
    cldnnDestroyTensorDescriptor(s.xd);
    cldnnDestroyTensorDescriptor(s.yd);
    cldnnDestroyTensorDescriptor(s.ad);
    cldnnDestroyFilterDescriptor(s.wd);
    cldnnDestroyConvolutionDescriptor(s.cd);
    cldnnDestroyActivationDescriptor(s.act);
    cldnnDestroy(s.h);
    return rc ? 1 : 0;
}
