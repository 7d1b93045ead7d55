/*
** demo.c: the main demo. Trains a small CNN for a few SGD steps on cldnn's embedded default
** device (cldnnCreateDefault: CLDNN_DEVICE, else the first GPU, else PoCL on the CPU) and checks
** every step against a plain double-precision C implementation of the same network on the host.
**
**     x 8x3x16x16 -> conv 3x3 16 (pad 1) + bias -> ReLU -> max pool 2x2
**                 -> conv 3x3 32 (pad 1) + bias -> ReLU -> average pool 2x2
**                 -> fully connected 512 -> 10 + bias (cldnnGemm) -> log-softmax + cross-entropy
**
** One fixed batch of seeded random images and labels is learned by plain SGD (w -= lr * dw, one
** cldnnAddTensor over all parameters, which share one buffer). Each convolution's algorithms come
** from cldnnGet*Algorithm_v7 (the find-db's answer, else the heuristic), or with --find from
** cldnnFind*AlgorithmEx, which times every applicable algorithm (and so builds all their programs).
** Printed: each algorithm by name, a progress line per step (loss, host's loss, ms), each layer's
** time over steps 2-N (host clock around the call and clFinish), and the comparison with the host:
** every step's loss, the first step's gradients and the last step's weights, as relative L2 errors
** against 1e-3, then PASS or FAIL.
**
** Workload: 16 OpenCL programs. Step 1 builds them (or loads them from cldnn's program cache): on
** PoCL with a cold cache about 52 s of CPU time, so a second thread builds the convolutions'
** programs (cldnn*Prepare) while the first step runs; with warm caches the whole run takes about
** half a second, a step about 25 ms. Run:
**     ./build/examples/cldnn-demo [--steps N] [--seed N] [--lr X] [--find]
**     CLDNN_CACHE_DIR=$(mktemp -d) POCL_CACHE_DIR=$(mktemp -d) ./build/examples/cldnn-demo   # cold
** Exit status: 0 PASS, 1 FAIL (a mismatch with the host), 2 a usage, cldnn or OpenCL error.
*/
#define _POSIX_C_SOURCE 200809L
#include <cldnn.h>

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Checks a cldnn call: on failure prints the call, the status name and the detail, exits 2. */
#define CHECK(call)                                                                          \
    do {                                                                                     \
        cldnnStatus_t s_ = (call);                                                           \
        if (s_ != CLDNN_STATUS_SUCCESS) {                                                    \
            char msg_[2048];                                                                 \
            cldnnGetLastErrorString(msg_, sizeof msg_);                                      \
            fprintf(stderr, "%s:%d: %s failed: %s\n  %s\n", __FILE__, __LINE__, #call,       \
                    cldnnGetErrorString(s_), msg_);                                          \
            exit(2);                                                                         \
        }                                                                                    \
    } while (0)

/* Checks an OpenCL call's cl_int result: on failure prints the call and the code, exits 2. */
#define CLCHECK(call)                                                                        \
    do {                                                                                     \
        cl_int e_ = (call);                                                                  \
        if (e_ != CL_SUCCESS) {                                                              \
            fprintf(stderr, "%s:%d: %s failed: OpenCL error %d\n", __FILE__, __LINE__, #call, \
                    (int)e_);                                                                \
            exit(2);                                                                         \
        }                                                                                    \
    } while (0)

/* ---- the network's shape. Every tensor is packed NCHW FLOAT. */
enum {
    N = 8, C0 = 3, H0 = 16, W0 = 16,  /* input batch */
    C1 = 16, H1 = 16, W1 = 16,        /* conv1 output (3x3, pad 1) */
    H2 = 8, W2 = 8,                   /* max pool 2x2 output */
    C3 = 32,                          /* conv2 output: N x C3 x H2 x W2 */
    H4 = 4, W4 = 4,                   /* average pool 2x2 output */
    FEAT = C3 * H4 * W4,              /* 512 features into the fully connected layer */
    CLASSES = 10
};

/* All parameters live in one buffer (the gradients in another of the same layout), each tensor
** at a float offset that is a multiple of 16 (64 bytes), so that one cldnnAddTensor over the
** whole buffer is the SGD step; the gaps stay zero. */
#define ALIGN16(n) (((n) + 15) / 16 * 16)
enum {
    OFF_W1 = 0,                                      /* C1 x C0 x 3 x 3 */
    OFF_B1 = ALIGN16(OFF_W1 + C1 * C0 * 9),          /* C1 */
    OFF_W2 = ALIGN16(OFF_B1 + C1),                   /* C3 x C1 x 3 x 3 */
    OFF_B2 = ALIGN16(OFF_W2 + C3 * C1 * 9),          /* C3 */
    OFF_W3 = ALIGN16(OFF_B2 + C3),                   /* CLASSES x FEAT, row-major */
    OFF_B3 = ALIGN16(OFF_W3 + CLASSES * FEAT),       /* CLASSES */
    NPARAM = ALIGN16(OFF_B3 + CLASSES)
};
static const struct { const char* name; int off, count; } PARAMS[] = {
    {"conv1 filter", OFF_W1, C1 * C0 * 9}, {"conv1 bias", OFF_B1, C1},
    {"conv2 filter", OFF_W2, C3 * C1 * 9}, {"conv2 bias", OFF_B2, C3},
    {"fc weights", OFF_W3, CLASSES * FEAT}, {"fc bias", OFF_B3, CLASSES}};
#define NPARAMS ((int)(sizeof PARAMS / sizeof PARAMS[0]))

/* The timed operations, in the order a step runs them; their names and, for the convolutions,
** the index of the chosen algorithm's name in algo_name[] below. */
enum {
    OP_CONV1_FWD, OP_BIAS1, OP_RELU1, OP_MAXPOOL, OP_CONV2_FWD, OP_BIAS2, OP_RELU2, OP_AVGPOOL,
    OP_FC_FWD, OP_SOFTMAX_FWD, OP_SOFTMAX_BWD, OP_FC_BWD, OP_AVGPOOL_BWD, OP_RELU2_BWD,
    OP_BIAS2_BWD, OP_CONV2_BWD_FILTER, OP_CONV2_BWD_DATA, OP_MAXPOOL_BWD, OP_RELU1_BWD,
    OP_BIAS1_BWD, OP_CONV1_BWD_FILTER, OP_SGD, NOPS
};
static const char* const OP_NAME[NOPS] = {
    "conv1 forward", "conv1 bias", "relu1 forward", "max pool forward", "conv2 forward",
    "conv2 bias", "relu2 forward", "avg pool forward", "fc forward (GEMM + bias)",
    "log-softmax forward", "log-softmax backward", "fc backward (2 GEMM + bias)",
    "avg pool backward", "relu2 backward", "conv2 backward bias", "conv2 backward filter",
    "conv2 backward data", "max pool backward", "relu1 backward", "conv1 backward bias",
    "conv1 backward filter", "SGD update (AddTensor)"};

/* cuDNN's names of the public algorithm enums, with what cldnn runs behind each (src/conv/solvers.c). */
static const char* fwd_algo_name(cldnnConvolutionFwdAlgo_t a) {
    static const char* const names[CLDNN_CONVOLUTION_FWD_ALGO_COUNT] = {
        "IMPLICIT_GEMM", "IMPLICIT_PRECOMP_GEMM", "GEMM (im2col + GEMM)", "DIRECT", "FFT",
        "FFT_TILING", "WINOGRAD (fused)", "WINOGRAD_NONFUSED"};
    return (unsigned)a < CLDNN_CONVOLUTION_FWD_ALGO_COUNT ? names[a] : "?";
}
static const char* bwd_data_algo_name(cldnnConvolutionBwdDataAlgo_t a) {
    static const char* const names[CLDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT] = {
        "ALGO_0 (GEMM + col2im)", "ALGO_1 (direct / implicit GEMM)", "FFT", "FFT_TILING",
        "WINOGRAD (fused)", "WINOGRAD_NONFUSED"};
    return (unsigned)a < CLDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT ? names[a] : "?";
}
static const char* bwd_filter_algo_name(cldnnConvolutionBwdFilterAlgo_t a) {
    static const char* const names[CLDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT] = {
        "ALGO_0 (im2col + GEMM)", "ALGO_1 (direct / implicit GEMM)", "FFT", "ALGO_3",
        "WINOGRAD", "WINOGRAD_NONFUSED", "FFT_TILING"};
    return (unsigned)a < CLDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT ? names[a] : "?";
}

/* Milliseconds of the monotonic clock. */
static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* A uniform double in [lo, hi) from splitmix64: the demo's only random source, so that a seed
** reproduces a run on any machine. */
static uint64_t rng_state;
static double rng_uniform(double lo, double hi) {
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return lo + (hi - lo) * (double)(z >> 11) / 9007199254740992.0;
}

/* ======================================================== the host reference, in double */

/* y = conv3x3(x, w) + b with pad 1, stride 1 (cross-correlation): x n x c x h x w, w k x c x 3 x 3. */
static void ref_conv_fwd(const double* x, int n, int c, int h, int w, const double* wt,
                         const double* b, int k, double* y) {
    for (int in = 0; in < n; ++in)
        for (int ik = 0; ik < k; ++ik)
            for (int oh = 0; oh < h; ++oh)
                for (int ow = 0; ow < w; ++ow) {
                    double s = b[ik];
                    for (int ic = 0; ic < c; ++ic)
                        for (int r = 0; r < 3; ++r)
                            for (int q = 0; q < 3; ++q) {
                                int ih = oh + r - 1, iw = ow + q - 1;
                                if (ih >= 0 && ih < h && iw >= 0 && iw < w)
                                    s += wt[((ik * c + ic) * 3 + r) * 3 + q] *
                                         x[((in * c + ic) * h + ih) * w + iw];
                            }
                    y[((in * k + ik) * h + oh) * w + ow] = s;
                }
}

/* The gradients of ref_conv_fwd from dy: dw and db overwritten; dx overwritten unless NULL. */
static void ref_conv_bwd(const double* x, int n, int c, int h, int w, const double* wt, int k,
                         const double* dy, double* dw, double* db, double* dx) {
    memset(dw, 0, sizeof(double) * k * c * 9);
    memset(db, 0, sizeof(double) * k);
    if (dx) memset(dx, 0, sizeof(double) * n * c * h * w);
    for (int in = 0; in < n; ++in)
        for (int ik = 0; ik < k; ++ik)
            for (int oh = 0; oh < h; ++oh)
                for (int ow = 0; ow < w; ++ow) {
                    double g = dy[((in * k + ik) * h + oh) * w + ow];
                    db[ik] += g;
                    for (int ic = 0; ic < c; ++ic)
                        for (int r = 0; r < 3; ++r)
                            for (int q = 0; q < 3; ++q) {
                                int ih = oh + r - 1, iw = ow + q - 1;
                                if (ih < 0 || ih >= h || iw < 0 || iw >= w) continue;
                                int xi = ((in * c + ic) * h + ih) * w + iw, wi = ((ik * c + ic) * 3 + r) * 3 + q;
                                dw[wi] += g * x[xi];
                                if (dx) dx[xi] += g * wt[wi];
                            }
                }
}

/* 2x2 stride-2 pooling of nc planes h x w: the forward (max: the first largest tap in row-major
** window order, as cldnn's MAX; else the mean) and, with dy given, the backward into dx. */
static void ref_pool(int is_max, const double* x, int nc, int h, int w, double* y, const double* dy,
                     double* dx) {
    if (dx) memset(dx, 0, sizeof(double) * nc * h * w);
    for (int p = 0; p < nc; ++p)
        for (int oh = 0; oh < h / 2; ++oh)
            for (int ow = 0; ow < w / 2; ++ow) {
                int o = (p * (h / 2) + oh) * (w / 2) + ow, best = -1;
                double s = 0;
                for (int t = 0; t < 4; ++t) {
                    int i = (p * h + 2 * oh + t / 2) * w + 2 * ow + t % 2;
                    if (is_max ? best < 0 || x[i] > x[best] : 0) best = i;
                    s += x[i];
                    if (dx && !is_max) dx[i] = dy[o] / 4;
                }
                if (y) y[o] = is_max ? x[best] : s / 4;
                if (dx && is_max) dx[best] = dy[o];
            }
}

/* The host's copy of the network: parameters p (NPARAM, the device's layout) and every activation. */
typedef struct {
    double p[NPARAM], g[NPARAM];
    double x[N * C0 * H0 * W0], c1[N * C1 * H1 * W1], a1[N * C1 * H1 * W1], p1[N * C1 * H2 * W2];
    double c2[N * C3 * H2 * W2], a2[N * C3 * H2 * W2], p2[N * FEAT], z[N * CLASSES];
    double dz[N * CLASSES], dp2[N * FEAT], da2[N * C3 * H2 * W2], dp1[N * C1 * H2 * W2];
    double da1[N * C1 * H1 * W1];
} ref_net;

/* One training step of the reference: forward, the mean cross-entropy (returned), every gradient
** into r->g, then p -= lr * g. The ReLU and softmax steps are written inline. */
static double ref_step(ref_net* r, const int* label, double lr) {
    const double* p = r->p;
    double* g = r->g;
    ref_conv_fwd(r->x, N, C0, H0, W0, p + OFF_W1, p + OFF_B1, C1, r->c1);
    for (int i = 0; i < N * C1 * H1 * W1; ++i) r->a1[i] = r->c1[i] > 0 ? r->c1[i] : 0;
    ref_pool(1, r->a1, N * C1, H1, W1, r->p1, NULL, NULL);
    ref_conv_fwd(r->p1, N, C1, H2, W2, p + OFF_W2, p + OFF_B2, C3, r->c2);
    for (int i = 0; i < N * C3 * H2 * W2; ++i) r->a2[i] = r->c2[i] > 0 ? r->c2[i] : 0;
    ref_pool(0, r->a2, N * C3, H2, W2, r->p2, NULL, NULL);
    double loss = 0;
    for (int n = 0; n < N; ++n) {
        double* z = r->z + n * CLASSES;
        double m = -INFINITY, sum = 0;
        for (int o = 0; o < CLASSES; ++o) {
            z[o] = p[OFF_B3 + o];
            for (int k = 0; k < FEAT; ++k) z[o] += p[OFF_W3 + o * FEAT + k] * r->p2[n * FEAT + k];
            m = fmax(m, z[o]);
        }
        for (int o = 0; o < CLASSES; ++o) sum += exp(z[o] - m);
        loss -= (z[label[n]] - m - log(sum)) / N;
        for (int o = 0; o < CLASSES; ++o)   /* d loss / d z = (softmax - one-hot) / N */
            r->dz[n * CLASSES + o] = (exp(z[o] - m) / sum - (o == label[n])) / N;
    }
    memset(g, 0, sizeof r->g);
    for (int o = 0; o < CLASSES; ++o)
        for (int n = 0; n < N; ++n) {
            g[OFF_B3 + o] += r->dz[n * CLASSES + o];
            for (int k = 0; k < FEAT; ++k) g[OFF_W3 + o * FEAT + k] += r->dz[n * CLASSES + o] * r->p2[n * FEAT + k];
        }
    for (int n = 0; n < N; ++n)
        for (int k = 0; k < FEAT; ++k) {
            double s = 0;
            for (int o = 0; o < CLASSES; ++o) s += r->dz[n * CLASSES + o] * p[OFF_W3 + o * FEAT + k];
            r->dp2[n * FEAT + k] = s;
        }
    ref_pool(0, r->a2, N * C3, H2, W2, NULL, r->dp2, r->da2);
    for (int i = 0; i < N * C3 * H2 * W2; ++i) r->da2[i] = r->c2[i] > 0 ? r->da2[i] : 0;
    ref_conv_bwd(r->p1, N, C1, H2, W2, p + OFF_W2, C3, r->da2, g + OFF_W2, g + OFF_B2, r->dp1);
    ref_pool(1, r->a1, N * C1, H1, W1, NULL, r->dp1, r->da1);
    for (int i = 0; i < N * C1 * H1 * W1; ++i) r->da1[i] = r->c1[i] > 0 ? r->da1[i] : 0;
    ref_conv_bwd(r->x, N, C0, H0, W0, p + OFF_W1, C1, r->da1, g + OFF_W1, g + OFF_B1, NULL);
    for (int i = 0; i < NPARAM; ++i) r->p[i] -= lr * g[i];
    return loss;
}

/* sqrt(sum (a - b)^2) / sqrt(sum b^2): the relative L2 error of a against the reference b. */
static double rel_l2(const float* a, const double* b, int count) {
    double d = 0, s = 0;
    for (int i = 0; i < count; ++i) {
        d += (a[i] - b[i]) * (a[i] - b[i]);
        s += b[i] * b[i];
    }
    return s > 0 ? sqrt(d / s) : sqrt(d);
}

/* ================================================================= the network on cldnn */

/* A convolution layer's descriptors, algorithms and their workspace. */
typedef struct {
    cldnnTensorDescriptor_t x, y, bias;
    cldnnFilterDescriptor_t w;
    cldnnConvolutionFwdAlgo_t fwd;
    cldnnConvolutionBwdDataAlgo_t bwd_data;
    cldnnConvolutionBwdFilterAlgo_t bwd_filter;
    size_t ws_fwd, ws_data, ws_filter;
} conv_layer;

/* Everything the device side of the demo holds: the handle, descriptors, buffers, algorithms. */
typedef struct {
    cldnnHandle_t h;
    cl_command_queue q;
    cl_context ctx;
    conv_layer conv1, conv2;
    cldnnConvolutionDescriptor_t conv;
    cldnnPoolingDescriptor_t maxpool, avgpool;
    cldnnActivationDescriptor_t relu;
    cldnnTensorDescriptor_t t_p2, t_z, t_b3, t_all;
    cl_mem params, grads, x, onehot, c1, a1, p1, c2, a2, p2, z, logp;
    cl_mem dz, dp2, da2, dc2, dp1, da1, dc1, ws;
    size_t ws_bytes;
} gpu_net;

/* A read-write buffer of `floats` floats in g's context, a copy of host unless host is NULL. */
static cl_mem new_buffer(gpu_net* g, size_t floats, const void* host) {
    cl_int err;
    cl_mem m = clCreateBuffer(g->ctx, CL_MEM_READ_WRITE | (host ? CL_MEM_COPY_HOST_PTR : 0),
                              floats * sizeof(float), (void*)host, &err);
    CLCHECK(err);
    return m;
}

/* A packed NCHW FLOAT tensor descriptor of n x c x h x w (destroyed by the caller). */
static cldnnTensorDescriptor_t new_tensor(int n, int c, int h, int w) {
    cldnnTensorDescriptor_t t;
    CHECK(cldnnCreateTensorDescriptor(&t));
    CHECK(cldnnSetTensor4dDescriptor(t, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, n, c, h, w));
    return t;
}

/* Chooses l's three algorithms (backward data only when want_data) with Get_v7 or, when find, with
** Find*Ex on the net's buffers x, dy (written) and dx, w, dw, and prints them. */
static void choose_algorithms(gpu_net* g, conv_layer* l, const char* name, int find, int want_data,
                              cl_mem x, size_t w_off, cl_mem y, cl_mem dy, cl_mem dx) {
    enum { MAXALGO = 8 };
    cldnnConvolutionFwdAlgoPerf_t fp[MAXALGO];
    cldnnConvolutionBwdDataAlgoPerf_t dp[MAXALGO];
    cldnnConvolutionBwdFilterAlgoPerf_t wp[MAXALGO];
    int nf = 0, nd = 0, nw = 0;
    size_t wb = w_off * sizeof(float);
    double t0 = now_ms();
    if (find) {
        CHECK(cldnnFindConvolutionForwardAlgorithmEx(g->h, l->x, x, 0, l->w, g->params, wb, g->conv, l->y, y, 0,
                                                     MAXALGO, &nf, fp, g->ws, 0, g->ws_bytes));
        if (want_data)
            CHECK(cldnnFindConvolutionBackwardDataAlgorithmEx(g->h, l->w, g->params, wb, l->y, dy, 0, g->conv, l->x,
                                                              dx, 0, MAXALGO, &nd, dp, g->ws, 0, g->ws_bytes));
        CHECK(cldnnFindConvolutionBackwardFilterAlgorithmEx(g->h, l->x, x, 0, l->y, dy, 0, g->conv, l->w, g->grads,
                                                            wb, MAXALGO, &nw, wp, g->ws, 0, g->ws_bytes));
    } else {
        CHECK(cldnnGetConvolutionForwardAlgorithm_v7(g->h, l->x, l->w, g->conv, l->y, MAXALGO, &nf, fp));
        if (want_data)
            CHECK(cldnnGetConvolutionBackwardDataAlgorithm_v7(g->h, l->w, l->y, g->conv, l->x, MAXALGO, &nd, dp));
        CHECK(cldnnGetConvolutionBackwardFilterAlgorithm_v7(g->h, l->x, l->y, g->conv, l->w, MAXALGO, &nw, wp));
    }
    double t1 = now_ms();
    /* Both answers list the algorithms that run the problem first, best first. */
    if (nf < 1 || fp[0].status != CLDNN_STATUS_SUCCESS || (want_data && (nd < 1 || dp[0].status)) ||
        nw < 1 || wp[0].status != CLDNN_STATUS_SUCCESS) {
        fprintf(stderr, "%s: no convolution algorithm runs this layer\n", name);
        exit(2);
    }
    l->fwd = fp[0].algo;
    l->ws_fwd = fp[0].memory;
    l->bwd_filter = wp[0].algo;
    l->ws_filter = wp[0].memory;
    if (want_data) {
        l->bwd_data = dp[0].algo;
        l->ws_data = dp[0].memory;
    }
    printf("  %s forward          %-32s workspace %7zu B%s", name, fwd_algo_name(l->fwd), l->ws_fwd,
           find ? "" : "\n");
    if (find) printf(", %.3f ms\n", fp[0].time);
    if (want_data) {
        printf("  %s backward data    %-32s workspace %7zu B%s", name, bwd_data_algo_name(l->bwd_data),
               l->ws_data, find ? "" : "\n");
        if (find) printf(", %.3f ms\n", dp[0].time);
    }
    printf("  %s backward filter  %-32s workspace %7zu B%s", name, bwd_filter_algo_name(l->bwd_filter),
           l->ws_filter, find ? "" : "\n");
    if (find) printf(", %.3f ms\n", wp[0].time);
    printf("  (%s: %.1f ms to choose)\n", name, t1 - t0);
}

/* The body of the builder thread: on a second handle of g's queue, builds the programs of the
** convolutions' later calls (cldnn*Prepare: programs only, nothing enqueued) while the main
** thread runs the first step. Programs are cached per OpenCL context and shared by its handles,
** so the main thread finds them built; on a CPU device with 2 cores that halves much of a cold
** program cache's cost. PoCL still compiles each kernel at its first launch. Returns NULL. */
static void* prepare_convolutions(void* arg) {
    gpu_net* g = (gpu_net*)arg;
    conv_layer* l1 = &g->conv1;
    conv_layer* l2 = &g->conv2;
    cldnnHandle_t h;
    CHECK(cldnnCreate(&h, g->q));
    CHECK(cldnnConvolutionForwardPrepare(h, l2->x, l2->w, g->conv, l2->fwd, l2->y));
    CHECK(cldnnConvolutionBackwardFilterPrepare(h, l2->x, l2->y, g->conv, l2->bwd_filter, l2->w));
    CHECK(cldnnConvolutionBackwardDataPrepare(h, l2->w, l2->y, g->conv, l2->bwd_data, l2->x));
    CHECK(cldnnConvolutionBackwardFilterPrepare(h, l1->x, l1->y, g->conv, l1->bwd_filter, l1->w));
    CHECK(cldnnDestroy(h));
    return NULL;
}

/* Runs call; unless ms is NULL, waits for the queue and adds the time to ms[op]. The first step
** passes NULL: waiting there would keep PoCL from compiling one kernel (on its own threads) while
** the host builds the next program. */
#define TIMED(op, call)                           \
    do {                                          \
        double t_ = now_ms();                     \
        CHECK(call);                              \
        if (ms) {                                 \
            CLCHECK(clFinish(g->q));              \
            ms[op] += now_ms() - t_;              \
        }                                         \
    } while (0)

/* The forward and backward pass of one training step on the device: the log-probabilities are
** read back into logp, every gradient goes into g->grads. Each call's time is added to ms[] unless
** ms is NULL. */
static void gpu_forward_backward(gpu_net* g, float* logp, double* ms) {
    const float one = 1.0f, zero = 0.0f, inv_n = -1.0f / N;
    conv_layer* l1 = &g->conv1;
    conv_layer* l2 = &g->conv2;
    size_t B = sizeof(float);
    /* forward */
    TIMED(OP_CONV1_FWD, cldnnConvolutionForward(g->h, &one, l1->x, g->x, 0, l1->w, g->params, OFF_W1 * B, g->conv,
                                                l1->fwd, g->ws, 0, g->ws_bytes, &zero, l1->y, g->c1, 0));
    TIMED(OP_BIAS1, cldnnAddTensor(g->h, &one, l1->bias, g->params, OFF_B1 * B, &one, l1->y, g->c1, 0));
    TIMED(OP_RELU1, cldnnActivationForward(g->h, g->relu, &one, l1->y, g->c1, 0, &zero, l1->y, g->a1, 0));
    TIMED(OP_MAXPOOL, cldnnPoolingForward(g->h, g->maxpool, &one, l1->y, g->a1, 0, &zero, l2->x, g->p1, 0));
    TIMED(OP_CONV2_FWD, cldnnConvolutionForward(g->h, &one, l2->x, g->p1, 0, l2->w, g->params, OFF_W2 * B, g->conv,
                                                l2->fwd, g->ws, 0, g->ws_bytes, &zero, l2->y, g->c2, 0));
    TIMED(OP_BIAS2, cldnnAddTensor(g->h, &one, l2->bias, g->params, OFF_B2 * B, &one, l2->y, g->c2, 0));
    TIMED(OP_RELU2, cldnnActivationForward(g->h, g->relu, &one, l2->y, g->c2, 0, &zero, l2->y, g->a2, 0));
    TIMED(OP_AVGPOOL, cldnnPoolingForward(g->h, g->avgpool, &one, l2->y, g->a2, 0, &zero, g->t_p2, g->p2, 0));
    /* z (N x CLASSES) = p2 (N x FEAT) * W3^T, W3 stored CLASSES x FEAT; then + b3 */
    TIMED(OP_FC_FWD, cldnnGemm(g->h, CLDNN_ROW_MAJOR, CLDNN_OP_N, CLDNN_OP_T, N, CLASSES, FEAT, &one, g->p2, 0, FEAT,
                               g->params, OFF_W3 * B, FEAT, &zero, g->z, 0, CLASSES, CLDNN_DATA_FLOAT));
    TIMED(OP_FC_FWD, cldnnAddTensor(g->h, &one, g->t_b3, g->params, OFF_B3 * B, &one, g->t_z, g->z, 0));
    TIMED(OP_SOFTMAX_FWD, cldnnSoftmaxForward(g->h, CLDNN_SOFTMAX_LOG, CLDNN_SOFTMAX_MODE_INSTANCE, &one, g->t_z,
                                              g->z, 0, &zero, g->t_z, g->logp, 0));
    CLCHECK(clEnqueueReadBuffer(g->q, g->logp, CL_TRUE, 0, N * CLASSES * B, logp, 0, NULL, NULL));
    /* backward. LOG softmax: dz = alpha (dy - exp(logp) sum(dy)); with dy the one-hot labels and
    ** alpha = -1/N that is (softmax - one-hot) / N, the gradient of the mean cross-entropy. */
    TIMED(OP_SOFTMAX_BWD, cldnnSoftmaxBackward(g->h, CLDNN_SOFTMAX_LOG, CLDNN_SOFTMAX_MODE_INSTANCE, &inv_n, g->t_z,
                                               g->logp, 0, g->t_z, g->onehot, 0, &zero, g->t_z, g->dz, 0));
    /* dW3 (CLASSES x FEAT) = dz^T p2; db3 = sum over n of dz; dp2 (N x FEAT) = dz W3 */
    TIMED(OP_FC_BWD, cldnnGemm(g->h, CLDNN_ROW_MAJOR, CLDNN_OP_T, CLDNN_OP_N, CLASSES, FEAT, N, &one, g->dz, 0,
                               CLASSES, g->p2, 0, FEAT, &zero, g->grads, OFF_W3 * B, FEAT, CLDNN_DATA_FLOAT));
    TIMED(OP_FC_BWD, cldnnConvolutionBackwardBias(g->h, &one, g->t_z, g->dz, 0, &zero, g->t_b3, g->grads, OFF_B3 * B));
    TIMED(OP_FC_BWD, cldnnGemm(g->h, CLDNN_ROW_MAJOR, CLDNN_OP_N, CLDNN_OP_N, N, FEAT, CLASSES, &one, g->dz, 0,
                               CLASSES, g->params, OFF_W3 * B, FEAT, &zero, g->dp2, 0, FEAT, CLDNN_DATA_FLOAT));
    TIMED(OP_AVGPOOL_BWD, cldnnPoolingBackward(g->h, g->avgpool, &one, g->t_p2, g->p2, 0, g->t_p2, g->dp2, 0,
                                               l2->y, g->a2, 0, &zero, l2->y, g->da2, 0));
    TIMED(OP_RELU2_BWD, cldnnActivationBackward(g->h, g->relu, &one, l2->y, g->a2, 0, l2->y, g->da2, 0, l2->y,
                                                g->c2, 0, &zero, l2->y, g->dc2, 0));
    TIMED(OP_BIAS2_BWD, cldnnConvolutionBackwardBias(g->h, &one, l2->y, g->dc2, 0, &zero, l2->bias, g->grads,
                                                     OFF_B2 * B));
    TIMED(OP_CONV2_BWD_FILTER, cldnnConvolutionBackwardFilter(g->h, &one, l2->x, g->p1, 0, l2->y, g->dc2, 0, g->conv,
                                                              l2->bwd_filter, g->ws, 0, g->ws_bytes, &zero, l2->w,
                                                              g->grads, OFF_W2 * B));
    TIMED(OP_CONV2_BWD_DATA, cldnnConvolutionBackwardData(g->h, &one, l2->w, g->params, OFF_W2 * B, l2->y, g->dc2, 0,
                                                          g->conv, l2->bwd_data, g->ws, 0, g->ws_bytes, &zero, l2->x,
                                                          g->dp1, 0));
    TIMED(OP_MAXPOOL_BWD, cldnnPoolingBackward(g->h, g->maxpool, &one, l2->x, g->p1, 0, l2->x, g->dp1, 0,
                                               l1->y, g->a1, 0, &zero, l1->y, g->da1, 0));
    TIMED(OP_RELU1_BWD, cldnnActivationBackward(g->h, g->relu, &one, l1->y, g->a1, 0, l1->y, g->da1, 0, l1->y,
                                                g->c1, 0, &zero, l1->y, g->dc1, 0));
    TIMED(OP_BIAS1_BWD, cldnnConvolutionBackwardBias(g->h, &one, l1->y, g->dc1, 0, &zero, l1->bias, g->grads,
                                                     OFF_B1 * B));
    TIMED(OP_CONV1_BWD_FILTER, cldnnConvolutionBackwardFilter(g->h, &one, l1->x, g->x, 0, l1->y, g->dc1, 0, g->conv,
                                                              l1->bwd_filter, g->ws, 0, g->ws_bytes, &zero, l1->w,
                                                              g->grads, OFF_W1 * B));
    /* The input's gradient (conv1 backward data) is not needed: nothing learns below conv1. */
}

/* The mean cross-entropy of log-probabilities logp (N x CLASSES) for the labels, in double. */
static double loss_of(const float* logp, const int* label) {
    double l = 0;
    for (int n = 0; n < N; ++n) l -= logp[n * CLASSES + label[n]];
    return l / N;
}

static void usage(void) {
    fprintf(stderr, "usage: cldnn-demo [--steps N (2-1000)] [--seed N] [--lr X] [--find]\n");
    exit(2);
}

int main(int argc, char** argv) {
    int steps = 8, find = 0;
    unsigned long long seed = 1;
    double lr = 0.05;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--find")) find = 1;
        else if (i + 1 >= argc) usage();
        else if (!strcmp(argv[i], "--steps")) steps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--seed")) seed = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--lr")) lr = strtod(argv[++i], NULL);
        else usage();
    }
    if (steps < 2 || steps > 1000 || !(lr > 0)) usage();
    const double tol = 1e-3;

    /* Seeded inputs, labels and parameters (He-uniform weights, small biases), in float for the
    ** device; the reference starts from the same float values. */
    static ref_net ref;
    static float params[NPARAM], x[N * C0 * H0 * W0], onehot[N * CLASSES];
    int label[N];
    rng_state = seed;
    for (int i = 0; i < N * C0 * H0 * W0; ++i) x[i] = (float)rng_uniform(-1, 1);
    for (int n = 0; n < N; ++n) {
        label[n] = (int)rng_uniform(0, CLASSES);
        onehot[n * CLASSES + label[n]] = 1.0f;
    }
    const int fan_in[NPARAMS] = {C0 * 9, 0, C1 * 9, 0, FEAT, 0};
    for (int t = 0; t < NPARAMS; ++t) {
        double a = fan_in[t] ? sqrt(6.0 / fan_in[t]) : 0.1;
        for (int i = 0; i < PARAMS[t].count; ++i) params[PARAMS[t].off + i] = (float)rng_uniform(-a, a);
    }
    for (int i = 0; i < NPARAM; ++i) ref.p[i] = params[i];
    for (int i = 0; i < N * C0 * H0 * W0; ++i) ref.x[i] = x[i];

    /* The handle on the default device. */
    double t_start = now_ms();
    gpu_net gn = {0}, *g = &gn;
    CHECK(cldnnCreateDefault(&g->h));
    double t_handle = now_ms() - t_start;
    CHECK(cldnnGetQueue(g->h, &g->q));
    cl_device_id dev;
    CLCHECK(clGetCommandQueueInfo(g->q, CL_QUEUE_CONTEXT, sizeof g->ctx, &g->ctx, NULL));
    CLCHECK(clGetCommandQueueInfo(g->q, CL_QUEUE_DEVICE, sizeof dev, &dev, NULL));
    char devname[256] = "";
    CLCHECK(clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof devname, devname, NULL));
    printf("cldnn %zu on %s (handle %.1f ms; CLDNN_DEVICE chooses another device)\n", cldnnGetVersion(), devname,
           t_handle);
    printf("network: %dx%dx%dx%d -> conv3x3 %d + bias + ReLU -> max pool 2x2 -> conv3x3 %d + bias + ReLU\n"
           "         -> avg pool 2x2 -> fc %d->%d + bias -> log-softmax + cross-entropy\n",
           N, C0, H0, W0, C1, C3, FEAT, CLASSES);
    printf("seed %llu, %d SGD steps at lr %g on one batch (--seed, --steps, --lr)\n", seed, steps, lr);

    /* Descriptors. */
    CHECK(cldnnCreateConvolutionDescriptor(&g->conv));
    CHECK(cldnnSetConvolution2dDescriptor(g->conv, 1, 1, 1, 1, 1, 1, CLDNN_CROSS_CORRELATION, CLDNN_DATA_FLOAT));
    CHECK(cldnnCreatePoolingDescriptor(&g->maxpool));
    CHECK(cldnnSetPooling2dDescriptor(g->maxpool, CLDNN_POOLING_MAX, CLDNN_NOT_PROPAGATE_NAN, 2, 2, 0, 0, 2, 2));
    CHECK(cldnnCreatePoolingDescriptor(&g->avgpool));
    CHECK(cldnnSetPooling2dDescriptor(g->avgpool, CLDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING,
                                      CLDNN_NOT_PROPAGATE_NAN, 2, 2, 0, 0, 2, 2));
    CHECK(cldnnCreateActivationDescriptor(&g->relu));
    CHECK(cldnnSetActivationDescriptor(g->relu, CLDNN_ACTIVATION_RELU, CLDNN_NOT_PROPAGATE_NAN, 0.0));
    conv_layer* l1 = &g->conv1;
    conv_layer* l2 = &g->conv2;
    l1->x = new_tensor(N, C0, H0, W0);
    l1->y = new_tensor(N, C1, H1, W1);
    l1->bias = new_tensor(1, C1, 1, 1);
    l2->x = new_tensor(N, C1, H2, W2);
    l2->y = new_tensor(N, C3, H2, W2);
    l2->bias = new_tensor(1, C3, 1, 1);
    CHECK(cldnnCreateFilterDescriptor(&l1->w));
    CHECK(cldnnSetFilter4dDescriptor(l1->w, CLDNN_DATA_FLOAT, CLDNN_TENSOR_NCHW, C1, C0, 3, 3));
    CHECK(cldnnCreateFilterDescriptor(&l2->w));
    CHECK(cldnnSetFilter4dDescriptor(l2->w, CLDNN_DATA_FLOAT, CLDNN_TENSOR_NCHW, C3, C1, 3, 3));
    g->t_p2 = new_tensor(N, C3, H4, W4);
    g->t_z = new_tensor(N, CLASSES, 1, 1);
    g->t_b3 = new_tensor(1, CLASSES, 1, 1);
    g->t_all = new_tensor(1, 1, 1, NPARAM);
    int d[4][4];   /* the library's output shapes agree with the enum above */
    CHECK(cldnnGetConvolution2dForwardOutputDim(g->conv, l1->x, l1->w, &d[0][0], &d[0][1], &d[0][2], &d[0][3]));
    CHECK(cldnnGetPooling2dForwardOutputDim(g->maxpool, l1->y, &d[1][0], &d[1][1], &d[1][2], &d[1][3]));
    CHECK(cldnnGetConvolution2dForwardOutputDim(g->conv, l2->x, l2->w, &d[2][0], &d[2][1], &d[2][2], &d[2][3]));
    CHECK(cldnnGetPooling2dForwardOutputDim(g->avgpool, l2->y, &d[3][0], &d[3][1], &d[3][2], &d[3][3]));
    const int want[4][4] = {{N, C1, H1, W1}, {N, C1, H2, W2}, {N, C3, H2, W2}, {N, C3, H4, W4}};
    if (memcmp(d, want, sizeof d)) {
        fprintf(stderr, "the library's output shapes differ from the demo's\n");
        return 2;
    }

    /* Buffers: parameters and inputs from the host, gradients zeroed (their gaps stay zero). */
    static const float zeros[NPARAM];
    g->params = new_buffer(g, NPARAM, params);
    g->grads = new_buffer(g, NPARAM, zeros);
    g->x = new_buffer(g, N * C0 * H0 * W0, x);
    g->onehot = new_buffer(g, N * CLASSES, onehot);
    g->c1 = new_buffer(g, N * C1 * H1 * W1, NULL);
    g->a1 = new_buffer(g, N * C1 * H1 * W1, NULL);
    g->p1 = new_buffer(g, N * C1 * H2 * W2, NULL);
    g->c2 = new_buffer(g, N * C3 * H2 * W2, NULL);
    g->a2 = new_buffer(g, N * C3 * H2 * W2, NULL);
    g->p2 = new_buffer(g, N * FEAT, NULL);
    g->z = new_buffer(g, N * CLASSES, NULL);
    g->logp = new_buffer(g, N * CLASSES, NULL);
    g->dz = new_buffer(g, N * CLASSES, NULL);
    g->dp2 = new_buffer(g, N * FEAT, NULL);
    g->da2 = new_buffer(g, N * C3 * H2 * W2, NULL);
    g->dc2 = new_buffer(g, N * C3 * H2 * W2, NULL);
    g->dp1 = new_buffer(g, N * C1 * H2 * W2, NULL);
    g->da1 = new_buffer(g, N * C1 * H1 * W1, NULL);
    g->dc1 = new_buffer(g, N * C1 * H1 * W1, NULL);

    /* Algorithms. Find runs the candidates within a workspace it is given: 4 MiB, far more than
    ** this network's algorithms ask for; afterwards the workspace the chosen ones need is kept. */
    double t_choose = now_ms();
    if (find) {
        g->ws_bytes = (size_t)4 << 20;
        g->ws = new_buffer(g, g->ws_bytes / sizeof(float), NULL);
    }
    printf("convolution algorithms (%s):\n", find ? "cldnnFind*AlgorithmEx, fastest measured"
                                                : "cldnnGet*Algorithm_v7: the find-db's, else the heuristic's");
    choose_algorithms(g, l1, "conv1", find, 0, g->x, OFF_W1, g->c1, g->dc1, NULL);
    choose_algorithms(g, l2, "conv2", find, 1, g->p1, OFF_W2, g->c2, g->dc2, g->dp1);
    t_choose = now_ms() - t_choose;
    size_t need = l1->ws_fwd;
    size_t more[4] = {l1->ws_filter, l2->ws_fwd, l2->ws_data, l2->ws_filter};
    for (int i = 0; i < 4; ++i) if (more[i] > need) need = more[i];
    if (g->ws) CLCHECK(clReleaseMemObject(g->ws));
    g->ws = NULL;
    g->ws_bytes = need;
    if (need) g->ws = new_buffer(g, (need + sizeof(float) - 1) / sizeof(float), NULL);

    /* Training: each step on the device, then the same step on the host. The first step's
    ** gradients are read back before its update and compared with the host's. */
    static float logp[N * CLASSES], gpu_grads[NPARAM], gpu_params[NPARAM];
    double ms_sum[NOPS] = {0}, grad_err[NPARAMS] = {0};
    double worst_loss = 0, gpu_total = 0, gpu_first = 0, ref_total = 0, loss0 = 0, loss_last = 0;
    const float one = 1.0f, neg_lr = (float)-lr;
    printf("training:\n");
    pthread_t builder;
    if (pthread_create(&builder, NULL, prepare_convolutions, g)) {
        fprintf(stderr, "pthread_create failed\n");
        return 2;
    }
    for (int s = 0; s < steps; ++s) {
        double* ms = s == 0 ? NULL : ms_sum;
        double t0 = now_ms();
        gpu_forward_backward(g, logp, ms);
        CLCHECK(clFinish(g->q));
        if (s == 0) {
            if (pthread_join(builder, NULL)) {   /* done by now: the backward needed its programs */
                fprintf(stderr, "pthread_join failed\n");
                return 2;
            }
            double t_ = now_ms();   /* reading the gradients is not part of the step */
            CLCHECK(clEnqueueReadBuffer(g->q, g->grads, CL_TRUE, 0, sizeof gpu_grads, gpu_grads, 0, NULL, NULL));
            t0 += now_ms() - t_;
        }
        TIMED(OP_SGD, cldnnAddTensor(g->h, &neg_lr, g->t_all, g->grads, 0, &one, g->t_all, g->params, 0));
        CLCHECK(clFinish(g->q));
        double step_ms = now_ms() - t0;
        gpu_total += step_ms;
        double loss = loss_of(logp, label);

        double t1 = now_ms();
        double rloss = ref_step(&ref, label, lr);
        ref_total += now_ms() - t1;
        double d = fabs(loss - rloss) / fabs(rloss);
        if (!(d <= worst_loss)) worst_loss = d;   /* a NaN loss stays */
        if (s == 0) {
            gpu_first = step_ms;
            loss0 = loss;
            for (int t = 0; t < NPARAMS; ++t)   /* ref.g holds the first step's gradients now */
                grad_err[t] = rel_l2(gpu_grads + PARAMS[t].off, ref.g + PARAMS[t].off, PARAMS[t].count);
        }
        loss_last = loss;
        printf("  step %d/%d: loss %.6f (host %.6f), %.1f ms%s\n", s + 1, steps, loss, rloss, step_ms,
               s == 0 ? " (builds or loads every program)" : "");
        fflush(stdout);
    }
    CLCHECK(clEnqueueReadBuffer(g->q, g->params, CL_TRUE, 0, sizeof gpu_params, gpu_params, 0, NULL, NULL));

    /* Per-layer times: the mean over steps 2 to N (step 1 builds or loads the programs). */
    printf("time per layer, mean of steps 2-%d (host clock around each call and clFinish):\n", steps);
    double total = 0;
    for (int op = 0; op < NOPS; ++op) {
        const char* algo = "";
        if (op == OP_CONV1_FWD) algo = fwd_algo_name(l1->fwd);
        if (op == OP_CONV2_FWD) algo = fwd_algo_name(l2->fwd);
        if (op == OP_CONV1_BWD_FILTER) algo = bwd_filter_algo_name(l1->bwd_filter);
        if (op == OP_CONV2_BWD_FILTER) algo = bwd_filter_algo_name(l2->bwd_filter);
        if (op == OP_CONV2_BWD_DATA) algo = bwd_data_algo_name(l2->bwd_data);
        printf("  %-28s %-32s %8.3f ms\n", OP_NAME[op], algo, ms_sum[op] / (steps - 1));
        total += ms_sum[op] / (steps - 1);
    }
    printf("  %-61s %8.3f ms\n", "all layers", total);

    /* The comparison with the host. */
    printf("check against the host (double, same start): relative L2 error, tolerance %.0e\n", tol);
    int fail = !(worst_loss <= tol);
    printf("  %-36s %.2e %s\n", "loss, worst of the steps", worst_loss, worst_loss <= tol ? "ok" : "MISMATCH");
    for (int pass = 0; pass < 2; ++pass)
        for (int t = 0; t < NPARAMS; ++t) {
            double e = pass ? rel_l2(gpu_params + PARAMS[t].off, ref.p + PARAMS[t].off, PARAMS[t].count) : grad_err[t];
            char what[64];
            if (pass) snprintf(what, sizeof what, "%s after step %d", PARAMS[t].name, steps);
            else snprintf(what, sizeof what, "step 1 gradient, %s", PARAMS[t].name);
            printf("  %-36s %.2e %s\n", what, e, e <= tol ? "ok" : "MISMATCH");
            fail |= !(e <= tol);
        }
    printf("loss %.4f -> %.4f in %d steps; device %.1f ms (step 1: %.1f ms), host reference %.1f ms, "
           "choosing algorithms %.1f ms\n",
           loss0, loss_last, steps, gpu_total, gpu_first, ref_total, t_choose);
    printf("%s\n", fail ? "FAIL" : "PASS");

    /* Release everything. */
    cl_mem* bufs[] = {&g->params, &g->grads, &g->x, &g->onehot, &g->c1, &g->a1, &g->p1, &g->c2, &g->a2, &g->p2,
                      &g->z, &g->logp, &g->dz, &g->dp2, &g->da2, &g->dc2, &g->dp1, &g->da1, &g->dc1, &g->ws};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; ++i)
        if (*bufs[i]) CLCHECK(clReleaseMemObject(*bufs[i]));
    cldnnTensorDescriptor_t ts[] = {l1->x, l1->y, l1->bias, l2->x, l2->y, l2->bias, g->t_p2, g->t_z, g->t_b3,
                                    g->t_all};
    for (size_t i = 0; i < sizeof ts / sizeof ts[0]; ++i) CHECK(cldnnDestroyTensorDescriptor(ts[i]));
    CHECK(cldnnDestroyFilterDescriptor(l1->w));
    CHECK(cldnnDestroyFilterDescriptor(l2->w));
    CHECK(cldnnDestroyConvolutionDescriptor(g->conv));
    CHECK(cldnnDestroyPoolingDescriptor(g->maxpool));
    CHECK(cldnnDestroyPoolingDescriptor(g->avgpool));
    CHECK(cldnnDestroyActivationDescriptor(g->relu));
    CHECK(cldnnDestroy(g->h));
    return fail ? 1 : 0;
}
