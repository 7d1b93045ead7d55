/*
** cudnn_conv.c: the cuDNN baseline of the convolution benchmark. For every row of one or more shape
** files (perf/baselines/conv_shapes.h) and every requested direction, it lets cuDNN pick its fastest
** algorithm (cudnnFindConvolution*AlgorithmEx) and times that algorithm. FP32, no TF32, unless
** --math tensor (TF32), --half (FP16 data) or --bf16 (BF16 data) say otherwise.
**
**   cudnn_conv --shapes FILE[,FILE...] [--shapes FILE ...] [-F MASK] [--layout NCHW|NHWC] [--ms T]
**              [--ws-mib M] [--warmup W] [--device D] [--math fma|tensor] [--half | --bf16]
**              [--fused relu|identity [--z]] [-v]
**
** Build: target cudnn_conv of perf/CMakeLists.txt, defined when the CUDA toolkit and cuDNN 9 (cudnn.h,
** libcudnn) are found:
**   cmake -S . -B /tmp/build-cudnn -DCMAKE_BUILD_TYPE=Release -DCLDNN_BUILD_TESTS=OFF
**   cmake --build /tmp/build-cudnn --target cudnn_conv
** `perf/run-device.sh prepare` does this and copies the binary into .carry/baselines/. At run
** time it needs libcudnn.so.9, whose sublibraries (libcudnn_cnn, _ops, _graph, _heuristic and
** _engines_*.so.9) are loaded from the same folder, and libcudart of the toolkit's major version:
**   LD_LIBRARY_PATH=CUDNN_LIB_DIR:CUDART_LIB_DIR cudnn_conv --shapes perf/shapes/conv-nets.csv -F 7
**
** Problem: -F is a mask of directions, 1 fwd (y from x, w), 2 bwd-data (dx from w, dy), 4 bwd-filter
** (dw from x, dy); default 7. Packed tensors, x/y/dx/dy NCHW with a KCRS filter, or NHWC with a KRSC
** filter under --layout NHWC. Cross-correlation (what the frameworks call convolution), alpha 1,
** beta 0, groups through cudnnSetConvolutionGroupCount, math type CUDNN_FMA_MATH on the convolution
** descriptor: FMA kernels only, so no TF32 (NVIDIA_TF32_OVERRIDE set to anything but 0 is refused).
** --math tensor: CUDNN_TENSOR_OP_MATH instead (TF32 tensor cores allowed; the baseline of cldnn's
** TENSOR_OP_MATH), and the fastest algorithm of any math type is kept.
** --half: x, w and y (dx, dw, dy) in CUDNN_DATA_HALF with the convolution's compute type
** CUDNN_DATA_FLOAT (FP16 storage, FP32 accumulation: cldnn's HALF convolution); with --math tensor
** the FP16 tensor cores are allowed (the baseline of cldnn-bench conv -d half --math tensor).
** --bf16: the same in CUDNN_DATA_BFLOAT16 (the baseline of cldnn-bench conv -d bfloat16).
** x, w and dy repeat a random block of GEMM_BLOCK floats in [-1, 1) (gemm_shapes.h; rounded to half
** under --half, as cldnn-bench -d half rounds its data), so the power draw is that of real data.
**
** Algorithm: one workspace of --ws-mib MiB (1024; halved until cudaMalloc succeeds) serves every
** shape. cudnnFind*AlgorithmEx runs every algorithm on the shape's own buffers with that workspace and
** sorts them by time; the first one that succeeded, fits the workspace and reports FMA (or default)
** math is kept. It is then timed: W warm-up calls (3), a first estimate (batches growing 4x until one
** takes T / 10 ms) that sets the iterations so that 5 repetitions take about T ms (--ms, 50), then 5
** repetitions of (event, iterations calls, event) on the default stream; the result is the median of
** elapsed / iterations.
**
** --fused ACT (forward only): after the plain convolution's line, the same shape is timed again with
** cudnnConvolutionBiasActivationForward, y = ACT(conv(x, w) + alpha2 z + bias), bias 1 x K x 1 x 1,
** the activation CUDNN_NOT_PROPAGATE_NAN, with the algorithm Find chose for the plain convolution
** (IDENTITY: IMPLICIT_PRECOMP_GEMM, the only algorithm cuDNN takes for it), the same workspace and
** the same timing; its RESULT line has the lib `cudnn-fused` (so merge.py tells it from the plain
** `cudnn` line of the same shape). alpha2 is 0 and z is y unless --z: z a buffer of its own, alpha2 1
** (a residual add). The baseline of cldnn-bench convbiasact.
**
** Output (stdout): '#' header lines, the first naming the device and the cuDNN version, the
** `# setup:` line the data type (FP32 or FP16), math type and layout; `# set: NAME`
** before each file's rows (NAME: the file name without .csv); one RESULT line per shape and direction
** (conv_result_print) with lib `cudnn` and the algorithm's name (the cuDNN enum's suffix in lower
** case, e.g. implicit_precomp_gemm, algo_1, as cldnn-bench names cldnn's). A failed measurement
** prints FAIL with a reason token as the algorithm (setup, outdim, alloc, find, no-algo, exec), the
** detail goes to stderr, and the next one runs. -v prints every candidate of each Find and the
** iteration counts on stderr.
** Exit status: 0, 1 if any measurement failed, 2 on a usage or shape-file error.
*/
#include <cuda_runtime.h>
#include <cudnn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conv_shapes.h"
#include "cuda_timing.h"
#include "gemm_shapes.h"

#define REPS 5
#define MAX_FILES 64
#define MAX_ALGOS 16

enum { DIR_FWD, DIR_BWD_DATA, DIR_BWD_FILTER, N_DIRS };
static const char* const k_dir_names[N_DIRS] = {"fwd", "bwd-data", "bwd-filter"};

/* Algorithm names, indexed by the cuDNN enum values (cudnn_ops.h): the enum's suffix in lower case, as
** cldnn-bench names cldnn's algorithms of the same enums. */
static const char* const k_fwd_algos[] = {"implicit_gemm", "implicit_precomp_gemm", "gemm",     "direct",
                                          "fft",           "fft_tiling",            "winograd", "winograd_nonfused"};
static const char* const k_bwd_data_algos[] = {"algo_0",     "algo_1",   "fft",
                                               "fft_tiling", "winograd", "winograd_nonfused"};
static const char* const k_bwd_filter_algos[] = {"algo_0",   "algo_1",            "fft",       "algo_3",
                                                 "winograd", "winograd_nonfused", "fft_tiling"};
#define COUNT_OF(a) ((int)(sizeof(a) / sizeof((a)[0])))
_Static_assert(COUNT_OF(k_fwd_algos) == CUDNN_CONVOLUTION_FWD_ALGO_COUNT, "forward algorithm names");
_Static_assert(COUNT_OF(k_bwd_data_algos) == CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT, "bwd-data algorithm names");
_Static_assert(COUNT_OF(k_bwd_filter_algos) == CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT, "bwd-filter algorithm names");

/* The name of algorithm a of direction dir ("unknown" out of range). */
static const char* algo_name(int dir, int a) {
    const char* const* t = dir == DIR_FWD ? k_fwd_algos : dir == DIR_BWD_DATA ? k_bwd_data_algos : k_bwd_filter_algos;
    int n = dir == DIR_FWD ? COUNT_OF(k_fwd_algos) : dir == DIR_BWD_DATA ? COUNT_OF(k_bwd_data_algos)
                                                                          : COUNT_OF(k_bwd_filter_algos);
    return a >= 0 && a < n ? t[a] : "unknown";
}

/* The name of a math type. */
static const char* math_name(cudnnMathType_t m) {
    switch (m) {
    case CUDNN_DEFAULT_MATH: return "DEFAULT";
    case CUDNN_TENSOR_OP_MATH: return "TENSOR_OP";
    case CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION: return "TENSOR_OP_ALLOW_CONVERSION";
    case CUDNN_FMA_MATH: return "FMA";
    }
    return "unknown";
}

/* The convolution descriptor's math type: CUDNN_FMA_MATH, or CUDNN_TENSOR_OP_MATH (--math tensor). */
static cudnnMathType_t g_math = CUDNN_FMA_MATH;

/* The tensors' and filter's data type: CUDNN_DATA_FLOAT, CUDNN_DATA_HALF (--half) or
** CUDNN_DATA_BFLOAT16 (--bf16); the
** convolution's compute type stays CUDNN_DATA_FLOAT. */
static cudnnDataType_t g_dtype = CUDNN_DATA_FLOAT;

/* --fused: the activation of the fused forward (-1: no fused measurement) and whether z is a buffer of
** its own (--z: alpha2 1) or y with alpha2 0. */
static int g_fused = -1;
static int g_fused_z = 0;

/* Bytes of one element of g_dtype. */
static size_t elem_size(void) {
    return g_dtype == CUDNN_DATA_FLOAT ? 4 : 2;
}

/* Prints a usage line and returns 2. */
static int usage(void) {
    fprintf(stderr, "usage: cudnn_conv --shapes FILE[,FILE...] [--shapes FILE ...] [-F 1..7] [--layout NCHW|NHWC]\n"
                    "                  [--ms T] [--ws-mib M] [--warmup W] [--device D] [--math fma|tensor] [--half | --bf16]\n"
                    "                  [--fused relu|identity [--z]] [-v]\n");
    return 2;
}

/* Prints "cudnn_conv: <name>[ <dir>]: <what>: <status name> (<cuDNN's last error>)" on stderr; dir < 0:
** none. */
static void report_cudnn(const char* name, int dir, const char* what, cudnnStatus_t st) {
    char detail[512] = "";
    cudnnGetLastErrorString(detail, sizeof detail);
    fprintf(stderr, "cudnn_conv: %s%s%s: %s: %s%s%s%s\n", name, dir >= 0 ? " " : "", dir >= 0 ? k_dir_names[dir] : "",
            what, cudnnGetErrorString(st), *detail ? " (" : "", detail, *detail ? ")" : "");
}

/* A device buffer of n elements of g_dtype filled from blk (GEMM_BLOCK elements as stored: floats,
** or half bits under --half; NULL: left unset), or NULL after printing why. The block is uploaded
** once, then doubled on the device. */
static void* make_buffer(size_t n, const void* blk) {
    const size_t es = elem_size();
    char* d = NULL;
    cudaError_t e = cudaMalloc((void**)&d, n * es);
    if (e != cudaSuccess) {
        fprintf(stderr, "cudnn_conv: cudaMalloc(%zu bytes): %s\n", n * es, cudaGetErrorString(e));
        cudaGetLastError();
        return NULL;
    }
    if (!blk) return d;
    size_t done = n < GEMM_BLOCK ? n : GEMM_BLOCK;
    e = cudaMemcpy(d, blk, done * es, cudaMemcpyHostToDevice);
    while (e == cudaSuccess && done < n) {
        size_t c = n - done < done ? n - done : done;
        e = cudaMemcpy(d + done * es, d, c * es, cudaMemcpyDeviceToDevice);
        done += c;
    }
    if (e != cudaSuccess) {
        fprintf(stderr, "cudnn_conv: filling a buffer: %s\n", cudaGetErrorString(e));
        cudaFree(d);
        return NULL;
    }
    return d;
}

/* One measurement: the handle, the shape's descriptors and buffers, the direction and the algorithm. */
typedef struct {
    cudnnHandle_t h;
    cudnnTensorDescriptor_t xd, yd;
    cudnnFilterDescriptor_t wd;
    cudnnConvolutionDescriptor_t cd;
    void *x, *w, *dy; /* inputs (random), those the requested directions read; elements of g_dtype */
    void *y, *dx, *dw; /* outputs, those the requested directions write */
    void* ws;           /* the shared workspace */
    size_t ws_size;
    cudnnTensorDescriptor_t bd;        /* --fused: the bias, 1 x K x 1 x 1 */
    cudnnActivationDescriptor_t act;   /* --fused: the activation */
    void *bias, *z;                    /* --fused: bias (K), z (y's size; NULL without --z) */
    int fused;                         /* 1 while the fused forward is timed */
    int dir, algo;
    const char* name; /* the shape's, for messages */
} conv_call;

/* Enqueues one call of c->dir with c->algo; returns the cuDNN status. */
static cudnnStatus_t call_once(const conv_call* c) {
    const float one = 1.0f, zero = 0.0f;
    switch (c->dir) {
    case DIR_FWD:
        if (c->fused) {
            const float alpha2 = c->z ? 1.0f : 0.0f;
            return cudnnConvolutionBiasActivationForward(c->h, &one, c->xd, c->x, c->wd, c->w, c->cd,
                                                         (cudnnConvolutionFwdAlgo_t)c->algo, c->ws, c->ws_size,
                                                         &alpha2, c->yd, c->z ? c->z : c->y, c->bd, c->bias, c->act,
                                                         c->yd, c->y);
        }
        return cudnnConvolutionForward(c->h, &one, c->xd, c->x, c->wd, c->w, c->cd, (cudnnConvolutionFwdAlgo_t)c->algo,
                                       c->ws, c->ws_size, &zero, c->yd, c->y);
    case DIR_BWD_DATA:
        return cudnnConvolutionBackwardData(c->h, &one, c->wd, c->w, c->yd, c->dy, c->cd,
                                            (cudnnConvolutionBwdDataAlgo_t)c->algo, c->ws, c->ws_size, &zero, c->xd,
                                            c->dx);
    default:
        return cudnnConvolutionBackwardFilter(c->h, &one, c->xd, c->x, c->yd, c->dy, c->cd,
                                              (cudnnConvolutionBwdFilterAlgo_t)c->algo, c->ws, c->ws_size, &zero, c->wd,
                                              c->dw);
    }
}

/* One Find result, whatever the direction. */
typedef struct {
    int algo;
    cudnnStatus_t status;
    float time;
    size_t memory;
    cudnnMathType_t math;
} algo_perf;

/* Copies the common fields of n Find results of any direction (the three perf structs share them). */
#define COPY_PERF(dst, src, n)                                                                                  \
    for (int i_ = 0; i_ < (n); i_++) {                                                                          \
        (dst)[i_].algo = (int)(src)[i_].algo;                                                                   \
        (dst)[i_].status = (src)[i_].status;                                                                    \
        (dst)[i_].time = (src)[i_].time;                                                                        \
        (dst)[i_].memory = (src)[i_].memory;                                                                    \
        (dst)[i_].math = (src)[i_].mathType;                                                                    \
    }

/* Runs cuDNN's Find for c->dir on c's buffers and workspace, keeps the fastest usable algorithm in
** c->algo (see the file comment) and returns 0; or returns 1 with *why set, after printing the detail. */
static int find_algo(conv_call* c, const char* name, int verbose, const char** why) {
    algo_perf p[MAX_ALGOS];
    int max = 0, got = 0;
    cudnnStatus_t st;
    if (c->dir == DIR_FWD) {
        cudnnConvolutionFwdAlgoPerf_t r[MAX_ALGOS];
        st = cudnnGetConvolutionForwardAlgorithmMaxCount(c->h, &max);
        if (max > MAX_ALGOS) max = MAX_ALGOS;
        if (st == CUDNN_STATUS_SUCCESS)
            st = cudnnFindConvolutionForwardAlgorithmEx(c->h, c->xd, c->x, c->wd, c->w, c->cd, c->yd, c->y, max, &got,
                                                        r, c->ws, c->ws_size);
        if (st == CUDNN_STATUS_SUCCESS) COPY_PERF(p, r, got);
    } else if (c->dir == DIR_BWD_DATA) {
        cudnnConvolutionBwdDataAlgoPerf_t r[MAX_ALGOS];
        st = cudnnGetConvolutionBackwardDataAlgorithmMaxCount(c->h, &max);
        if (max > MAX_ALGOS) max = MAX_ALGOS;
        if (st == CUDNN_STATUS_SUCCESS)
            st = cudnnFindConvolutionBackwardDataAlgorithmEx(c->h, c->wd, c->w, c->yd, c->dy, c->cd, c->xd, c->dx, max,
                                                             &got, r, c->ws, c->ws_size);
        if (st == CUDNN_STATUS_SUCCESS) COPY_PERF(p, r, got);
    } else {
        cudnnConvolutionBwdFilterAlgoPerf_t r[MAX_ALGOS];
        st = cudnnGetConvolutionBackwardFilterAlgorithmMaxCount(c->h, &max);
        if (max > MAX_ALGOS) max = MAX_ALGOS;
        if (st == CUDNN_STATUS_SUCCESS)
            st = cudnnFindConvolutionBackwardFilterAlgorithmEx(c->h, c->xd, c->x, c->yd, c->dy, c->cd, c->wd, c->dw,
                                                               max, &got, r, c->ws, c->ws_size);
        if (st == CUDNN_STATUS_SUCCESS) COPY_PERF(p, r, got);
    }
    if (st != CUDNN_STATUS_SUCCESS) {
        report_cudnn(name, c->dir, "cudnnFind*AlgorithmEx", st);
        *why = "find";
        return 1;
    }
    int pick = -1;
    for (int i = 0; i < got; i++) {
        int ok = p[i].status == CUDNN_STATUS_SUCCESS && p[i].memory <= c->ws_size &&
                 (g_math == CUDNN_TENSOR_OP_MATH || p[i].math == CUDNN_FMA_MATH || p[i].math == CUDNN_DEFAULT_MATH);
        if (ok && pick < 0) pick = i;
        if (verbose)
            fprintf(stderr, "cudnn_conv: %s %s: candidate %-21s %s, %.4f ms, workspace %.1f MiB, math %s%s\n", name,
                    k_dir_names[c->dir], algo_name(c->dir, p[i].algo), cudnnGetErrorString(p[i].status),
                    (double)p[i].time, (double)p[i].memory / 1048576.0, math_name(p[i].math),
                    pick == i ? "  <- kept" : "");
    }
    if (pick < 0) {
        fprintf(stderr, "cudnn_conv: %s %s: none of the %d algorithms found ran with FMA math in %.0f MiB"
                " of workspace\n", name, k_dir_names[c->dir], got, (double)c->ws_size / 1048576.0);
        *why = "no-algo";
        return 1;
    }
    c->algo = p[pick].algo;
    return 0;
}

/* Runs n calls between two events and returns the elapsed ms, or -1 after printing why. */
/* cuda_call_fn of the timing protocol: one call of c->dir with c->algo. */
static int timed_call(void* ctx) {
    const conv_call* c = ctx;
    cudnnStatus_t st = call_once(c);
    if (st == CUDNN_STATUS_SUCCESS) return 0;
    report_cudnn(c->name, c->dir, algo_name(c->dir, c->algo), st);
    return 1;
}

/* --fused: times cudnnConvolutionBiasActivationForward with c->algo (IMPLICIT_PRECOMP_GEMM for IDENTITY) by
** protocol t and prints its `cudnn-fused` RESULT line. Returns 0, or 1 when it failed. */
static int measure_fused(conv_call* c, const conv_shape* s, const cuda_timing* t, int verbose, cudaEvent_t e0,
                         cudaEvent_t e1) {
    if (g_fused == CUDNN_ACTIVATION_IDENTITY) c->algo = CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM;
    c->fused = 1;
    long long iters = 0;
    double per = cuda_measure("cudnn_conv", timed_call, c, t, e0, e1, &iters);
    c->fused = 0;
    if (per < 0) {
        cudaDeviceSynchronize();
        cudaGetLastError();
        conv_result_print(stdout, "cudnn-fused", "fwd", s, "exec", -1);
        return 1;
    }
    if (verbose)
        fprintf(stderr, "cudnn_conv: %s fused: %s, %lld iterations x %d\n", s->name, algo_name(DIR_FWD, c->algo),
                iters, REPS);
    conv_result_print(stdout, "cudnn-fused", "fwd", s, algo_name(DIR_FWD, c->algo), per);
    return 0;
}

/* Finds and times direction c->dir of shape s and prints its RESULT line. Returns 0, or 1 when it failed. */
static int measure(conv_call* c, const conv_shape* s, double target_ms, int warmup, int verbose, cudaEvent_t e0,
                   cudaEvent_t e1) {
    const char* why = "exec";
    if (find_algo(c, s->name, verbose, &why)) goto fail;
    c->name = s->name;
    cuda_timing t = {warmup, target_ms / 10, 4096, target_ms, REPS};
    long long iters = 0;
    double per = cuda_measure("cudnn_conv", timed_call, c, &t, e0, e1, &iters);
    if (per < 0) goto fail;
    if (verbose)
        fprintf(stderr, "cudnn_conv: %s %s: %s, %lld iterations x %d\n", s->name, k_dir_names[c->dir],
                algo_name(c->dir, c->algo), iters, REPS);
    conv_result_print(stdout, "cudnn", k_dir_names[c->dir], s, algo_name(c->dir, c->algo), per);
    if (c->dir == DIR_FWD && g_fused >= 0) return measure_fused(c, s, &t, verbose, e0, e1);
    return 0;
fail:
    cudaDeviceSynchronize();
    cudaGetLastError(); /* clears a non-sticky error so that the next measurement starts clean */
    conv_result_print(stdout, "cudnn", k_dir_names[c->dir], s, why, -1);
    if (c->dir == DIR_FWD && g_fused >= 0) conv_result_print(stdout, "cudnn-fused", "fwd", s, why, -1);
    return 1;
}

/* Sets c's descriptors to shape s in layout fmt (0 and the output dims in *p, *q) or returns the
** reason token after printing the detail. */
static const char* set_descriptors(conv_call* c, const conv_shape* s, cudnnTensorFormat_t fmt, int* p, int* q) {
    cudnnStatus_t st = cudnnSetTensor4dDescriptor(c->xd, fmt, g_dtype, s->n, s->c, s->h, s->w);
    if (st == CUDNN_STATUS_SUCCESS)
        st = cudnnSetFilter4dDescriptor(c->wd, g_dtype, fmt, s->k, s->c / s->groups, s->r, s->s);
    if (st == CUDNN_STATUS_SUCCESS)
        st = cudnnSetConvolution2dDescriptor(c->cd, s->pad_h, s->pad_w, s->stride_h, s->stride_w, s->dil_h, s->dil_w,
                                             CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT);
    if (st == CUDNN_STATUS_SUCCESS) st = cudnnSetConvolutionGroupCount(c->cd, s->groups);
    if (st == CUDNN_STATUS_SUCCESS) st = cudnnSetConvolutionMathType(c->cd, g_math);
    int on = 0, ok = 0, oh = 0, ow = 0;
    if (st == CUDNN_STATUS_SUCCESS) st = cudnnGetConvolution2dForwardOutputDim(c->cd, c->xd, c->wd, &on, &ok, &oh, &ow);
    if (st != CUDNN_STATUS_SUCCESS) {
        report_cudnn(s->name, -1, "descriptors", st);
        return "setup";
    }
    conv_shape_out(s, p, q);
    if (on != s->n || ok != s->k || oh != *p || ow != *q) {
        fprintf(stderr, "cudnn_conv: %s: cuDNN's output %dx%dx%dx%d differs from %dx%dx%dx%d\n", s->name, on, ok, oh,
                ow, s->n, s->k, *p, *q);
        return "outdim";
    }
    st = cudnnSetTensor4dDescriptor(c->yd, fmt, g_dtype, s->n, s->k, *p, *q);
    if (st != CUDNN_STATUS_SUCCESS) {
        report_cudnn(s->name, -1, "output descriptor", st);
        return "setup";
    }
    return NULL;
}

/* Measures every direction of mask on shape s. Returns the number of failed measurements. */
static int run_shape(conv_call* c, const conv_shape* s, int mask, cudnnTensorFormat_t fmt, const void* const blk[3],
                     double target_ms, int warmup, int verbose, cudaEvent_t e0, cudaEvent_t e1) {
    int p = 0, q = 0, fails = 0;
    const char* why = set_descriptors(c, s, fmt, &p, &q);
    if (!why) {
        size_t nx = (size_t)s->n * s->c * s->h * s->w, nw = (size_t)s->k * (s->c / s->groups) * s->r * s->s;
        size_t ny = (size_t)s->n * s->k * p * q;
        int fwd = mask & 1, bwd_data = mask & 2, bwd_filter = mask & 4;
        why = "alloc";
        if (((fwd || bwd_filter) && !(c->x = make_buffer(nx, blk[0]))) ||
            ((fwd || bwd_data) && !(c->w = make_buffer(nw, blk[1]))) ||
            ((bwd_data || bwd_filter) && !(c->dy = make_buffer(ny, blk[2]))) ||
            (fwd && !(c->y = make_buffer(ny, NULL))) || (bwd_data && !(c->dx = make_buffer(nx, NULL))) ||
            (bwd_filter && !(c->dw = make_buffer(nw, NULL))) ||
            (fwd && g_fused >= 0 && !(c->bias = make_buffer((size_t)s->k, blk[1]))) ||
            (fwd && g_fused >= 0 && g_fused_z && !(c->z = make_buffer(ny, blk[2]))))
            goto out;
        if (fwd && g_fused >= 0 &&
            cudnnSetTensor4dDescriptor(c->bd, fmt, g_dtype, 1, s->k, 1, 1) != CUDNN_STATUS_SUCCESS) {
            why = "setup";
            goto out;
        }
        why = NULL;
        for (int d = 0; d < N_DIRS; d++) {
            if (!(mask & (1 << d))) continue;
            c->dir = d;
            fails += measure(c, s, target_ms, warmup, verbose, e0, e1);
        }
    }
out:
    if (why)
        for (int d = 0; d < N_DIRS; d++)
            if (mask & (1 << d)) {
                conv_result_print(stdout, "cudnn", k_dir_names[d], s, why, -1);
                if (d == DIR_FWD && g_fused >= 0) conv_result_print(stdout, "cudnn-fused", "fwd", s, why, -1);
                fails++;
            }
    void** bufs[8] = {&c->x, &c->w, &c->dy, &c->y, &c->dx, &c->dw, &c->bias, &c->z};
    for (int i = 0; i < 8; i++) {
        cudaFree(*bufs[i]);
        *bufs[i] = NULL;
    }
    return fails;
}

/* The file name of path without its folder and a trailing .csv, into out (size n). */
static void set_name(const char* path, char* out, size_t n) {
    const char* b = strrchr(path, '/');
    b = b ? b + 1 : path;
    snprintf(out, n, "%s", b);
    size_t l = strlen(out);
    if (l > 4 && !strcmp(out + l - 4, ".csv")) out[l - 4] = '\0';
}

/* Parses the command line, reads the shape files, sets up the device and the handle, runs every shape. */
int main(int argc, char** argv) {
    char* files[MAX_FILES];
    int nfiles = 0, mask = 7, warmup = 3, dev = 0, verbose = 0;
    double target_ms = 50, ws_mib = 1024;
    cudnnTensorFormat_t fmt = CUDNN_TENSOR_NCHW;
    for (int i = 1; i < argc; i++) {
        const char* a = argv[i];
        int more = i + 1 < argc;
        if (!strcmp(a, "--shapes") && more) {
            for (char* t = strtok(argv[++i], ","); t; t = strtok(NULL, ",")) {
                if (nfiles == MAX_FILES) {
                    fprintf(stderr, "cudnn_conv: more than %d shape files\n", MAX_FILES);
                    return 2;
                }
                files[nfiles++] = t;
            }
        } else if (!strcmp(a, "-F") && more) mask = atoi(argv[++i]);
        else if (!strcmp(a, "--layout") && more) {
            const char* l = argv[++i];
            if (!strcmp(l, "NCHW") || !strcmp(l, "nchw")) fmt = CUDNN_TENSOR_NCHW;
            else if (!strcmp(l, "NHWC") || !strcmp(l, "nhwc")) fmt = CUDNN_TENSOR_NHWC;
            else return usage();
        } else if (!strcmp(a, "--ms") && more) target_ms = atof(argv[++i]);
        else if (!strcmp(a, "--ws-mib") && more) ws_mib = atof(argv[++i]);
        else if (!strcmp(a, "--warmup") && more) warmup = atoi(argv[++i]);
        else if (!strcmp(a, "--device") && more) dev = atoi(argv[++i]);
        else if (!strcmp(a, "--math") && more) {
            const char* m = argv[++i];
            if (!strcmp(m, "tensor")) g_math = CUDNN_TENSOR_OP_MATH;
            else if (!strcmp(m, "fma")) g_math = CUDNN_FMA_MATH;
            else return usage();
        } else if (!strcmp(a, "--half")) g_dtype = CUDNN_DATA_HALF;
        else if (!strcmp(a, "--bf16")) g_dtype = CUDNN_DATA_BFLOAT16;
        else if (!strcmp(a, "--fused") && more) {
            const char* m = argv[++i];
            if (!strcmp(m, "relu")) g_fused = CUDNN_ACTIVATION_RELU;
            else if (!strcmp(m, "identity")) g_fused = CUDNN_ACTIVATION_IDENTITY;
            else return usage();
        } else if (!strcmp(a, "--z")) g_fused_z = 1;
        else if (!strcmp(a, "-v")) verbose = 1;
        else return usage();
    }
    if (!nfiles || mask < 1 || mask > 7 || !(target_ms > 0) || !(ws_mib >= 0) || ws_mib > 1048576 || warmup < 0)
        return usage();
    const char* ovr = getenv("NVIDIA_TF32_OVERRIDE");
    if (ovr && strcmp(ovr, "0") != 0) {
        fprintf(stderr, "cudnn_conv: NVIDIA_TF32_OVERRIDE=%s would allow TF32; unset it\n", ovr);
        return 2;
    }
    conv_shape* shapes[MAX_FILES];
    int counts[MAX_FILES];
    for (int i = 0; i < nfiles; i++) {
        counts[i] = conv_shapes_read(files[i], &shapes[i]);
        if (counts[i] < 0) {
            while (i--) free(shapes[i]);
            return 2;
        }
    }

    int rc = 1;
    struct cudaDeviceProp prop;
    cudaError_t ce = cudaSetDevice(dev);
    if (ce == cudaSuccess) ce = cudaGetDeviceProperties(&prop, dev);
    if (ce != cudaSuccess) {
        fprintf(stderr, "cudnn_conv: device %d: %s\n", dev, cudaGetErrorString(ce));
        goto free_shapes;
    }
    conv_call c;
    memset(&c, 0, sizeof c);
    cudnnStatus_t st = cudnnCreate(&c.h);
    if (st == CUDNN_STATUS_SUCCESS) st = cudnnCreateTensorDescriptor(&c.xd);
    if (st == CUDNN_STATUS_SUCCESS) st = cudnnCreateTensorDescriptor(&c.yd);
    if (st == CUDNN_STATUS_SUCCESS) st = cudnnCreateFilterDescriptor(&c.wd);
    if (st == CUDNN_STATUS_SUCCESS) st = cudnnCreateConvolutionDescriptor(&c.cd);
    if (st == CUDNN_STATUS_SUCCESS) st = cudnnCreateTensorDescriptor(&c.bd);
    if (st == CUDNN_STATUS_SUCCESS) st = cudnnCreateActivationDescriptor(&c.act);
    if (st == CUDNN_STATUS_SUCCESS && g_fused >= 0)
        st = cudnnSetActivationDescriptor(c.act, (cudnnActivationMode_t)g_fused, CUDNN_NOT_PROPAGATE_NAN, 0.0);
    if (st != CUDNN_STATUS_SUCCESS) {
        report_cudnn("setup", -1, "cudnnCreate / descriptors", st);
        goto free_shapes;
    }
    c.ws_size = (size_t)(ws_mib * 1048576.0);
    while (c.ws_size && cudaMalloc(&c.ws, c.ws_size) != cudaSuccess) {
        cudaGetLastError();
        c.ws = NULL;
        c.ws_size /= 2;
    }

    size_t v = cudnnGetVersion();
    int drv = 0, rt = 0;
    cudaDriverGetVersion(&drv);
    cudaRuntimeGetVersion(&rt);
    printf("# device: %s (%d SMs, cc %d.%d); cuDNN %zu.%zu.%zu (built with %d.%d.%d), CUDA runtime %d, driver API %d\n",
           prop.name, prop.multiProcessorCount, prop.major, prop.minor, v / 10000, v % 10000 / 100, v % 100,
           CUDNN_MAJOR, CUDNN_MINOR, CUDNN_PATCHLEVEL, rt, drv);
    const int half = g_dtype != CUDNN_DATA_FLOAT, bf16 = g_dtype == CUDNN_DATA_BFLOAT16; /* 16-bit storage */
    printf("# setup: %s, math %s, %s, cross-correlation, alpha 1, beta 0; "
           "algorithm: fastest of cudnnFind*AlgorithmEx with a %.0f MiB workspace\n",
           bf16 ? "BF16 (x, w, y CUDNN_DATA_BFLOAT16, compute type CUDNN_DATA_FLOAT)"
           : half ? "FP16 (x, w, y CUDNN_DATA_HALF, compute type CUDNN_DATA_FLOAT)" : "FP32",
           g_math == CUDNN_TENSOR_OP_MATH ? (bf16 ? "CUDNN_TENSOR_OP_MATH (BF16 tensor cores allowed)"
                                             : half ? "CUDNN_TENSOR_OP_MATH (FP16 tensor cores allowed)"
                                                  : "CUDNN_TENSOR_OP_MATH (TF32 tensor cores allowed)")
                                          : (half ? "CUDNN_FMA_MATH (no tensor cores)" : "CUDNN_FMA_MATH (no TF32)"),
           fmt == CUDNN_TENSOR_NHWC ? "NHWC (filter KRSC)" : "NCHW (filter KCRS)", (double)c.ws_size / 1048576.0);
    if (g_fused >= 0)
        printf("# fused: cudnnConvolutionBiasActivationForward, %s, bias 1xKx1x1, %s; Find's algorithm of the plain "
               "convolution; RESULT lib cudnn-fused\n",
               g_fused == CUDNN_ACTIVATION_RELU ? "RELU" : "IDENTITY (IMPLICIT_PRECOMP_GEMM)",
               g_fused_z ? "z a buffer of its own, alpha2 1" : "alpha2 0 (z = y)");
    printf("# timing: CUDA events, %d warm-up, 5 repetitions of ~%g ms in all, median per call\n", warmup, target_ms);
    fflush(stdout);

    float* blk[3] = {malloc(GEMM_BLOCK * sizeof(float)), malloc(GEMM_BLOCK * sizeof(float)),
                     malloc(GEMM_BLOCK * sizeof(float))};
    uint16_t* hblk[3] = {NULL, NULL, NULL}; /* the blocks as half bits (--half) */
    for (int i = 0; i < 3 && half; i++) hblk[i] = malloc(GEMM_BLOCK * sizeof(uint16_t));
    cudaEvent_t e0, e1;
    if (!blk[0] || !blk[1] || !blk[2] || (half && (!hblk[0] || !hblk[1] || !hblk[2])) ||
        cudaEventCreate(&e0) != cudaSuccess || cudaEventCreate(&e1) != cudaSuccess) {
        fprintf(stderr, "cudnn_conv: out of host memory or CUDA events\n");
        goto free_all;
    }
    for (int i = 0; i < 3; i++) {
        gemm_fill_block(blk[i], GEMM_BLOCK, 2000 + (uint64_t)i);
        for (size_t e = 0; half && e < GEMM_BLOCK; e++)
            hblk[i][e] = bf16 ? gemm_float_to_bf16(blk[i][e]) : gemm_float_to_half(blk[i][e]);
    }
    const void* cblk[3] = {half ? (const void*)hblk[0] : blk[0], half ? (const void*)hblk[1] : blk[1],
                           half ? (const void*)hblk[2] : blk[2]};
    cudnnSetStream(c.h, 0);
    int fails = 0;
    for (int f = 0; f < nfiles; f++) {
        char set[256];
        set_name(files[f], set, sizeof set);
        printf("# set: %s\n", set);
        fflush(stdout);
        for (int i = 0; i < counts[f]; i++)
            fails += run_shape(&c, &shapes[f][i], mask, fmt, cblk, target_ms, warmup, verbose, e0, e1);
    }
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    rc = fails ? 1 : 0;
free_all:
    for (int i = 0; i < 3; i++) {
        free(blk[i]);
        free(hblk[i]);
    }
    cudaFree(c.ws);
    cudnnDestroyConvolutionDescriptor(c.cd);
    cudnnDestroyTensorDescriptor(c.bd);
    cudnnDestroyActivationDescriptor(c.act);
    cudnnDestroyFilterDescriptor(c.wd);
    cudnnDestroyTensorDescriptor(c.yd);
    cudnnDestroyTensorDescriptor(c.xd);
    cudnnDestroy(c.h);
free_shapes:
    for (int i = 0; i < nfiles; i++) free(shapes[i]);
    return rc;
}
