/*
** cudnn_ops.c: the cuDNN baseline of the bandwidth-bound families (pooling, batch normalization,
** LRN, softmax; op tensor, reduce tensor, dropout) and the device-to-device copy they are measured
** against. It reads the same case files as `perf/run-device.sh ops` and `ops-v11` hand to cldnn-bench
** (`perf/merge.py ops-commands` / `ops-v11-commands` turn each row into a cldnn-bench command) and
** times cuDNN 9's legacy ops API on each row. FP32.
**
**   cudnn_ops --cases FILE [--ms T] [--warmup W] [--device D] [-v]
**
** Case file: CSV, '#' comments, one case per line:
**   name,op,dir,n,c,h,w,layout,params
** op/dir/params:
**   pool     fwd|bwd        MODE:RxS:sUxV:pPxQ   MODE max | maxdet | avg (count includes padding)
**                                                | avgx (excludes padding)
**   bnorm    train|infer|bwd  spatial|peract     training forward with running and saved outputs,
**                                                inference, backward from the saved statistics
**   lrn      fwd|bwd        cross|within:nN:aALPHA:bBETA:kK   (cuDNN has cross-channel only)
**   softmax  fwd|bwd        fast|accurate|log:instance|channel
**   copy     fwd            -                    cudaMemcpy of n*c*h*w floats, device to device
**   optensor fwd            OP[:bNxCxHxW]        cudnnOpTensor C = OP(A, B), OP add|mul|min|max, C of A's
**                                                dims, B's dims (default A's) broadcast over its 1s
**   reduce   fwd            OP:cNxCxHxW          cudnnReduceTensor to C's dims, OP add|mul|min|max|amax|
**                                                avg|norm1|norm2, no indices, the workspace it asks for
**   dropout  fwd|bwd        P                    cudnnDropoutForward / Backward with probability P; the
**                                                states (cudnnSetDropoutDescriptor) and the reserve are
**                                                set up before the timed calls, bwd reads the reserve a
**                                                forward call wrote
**   norm     fwd|bwd        any                  no legacy cuDNN op (layer / RMS / group): FAIL unsupported
** layout: NCHW or NHWC (packed). alpha 1, beta 0 everywhere.
**
** Timing: cuda_timing.h's protocol with W warm-up calls (3), a first batch of at least T / 10 ms
** and 5 repetitions of about T / 5 ms each (--ms T, 20); the time is the median per call.
** Backward calls read a y (and saved statistics) that a forward call of the same case wrote first.
**
** Output: '#' header lines (device, cuDNN version), then per case
**   RESULT cudnn NAME OP DIR US
** with US the median microseconds per call, or FAIL and a reason token (setup, alloc, unsupported,
** exec) in its place; the detail goes to stderr. Exit status: 0, 1 if any case failed (a case cuDNN
** cannot express, FAIL unsupported, is not a failure: LRN within a channel, norm), 2 on a usage or
** case-file error.
** Build: target cudnn_ops of perf/CMakeLists.txt (with cudnn_conv); `perf/run-device.sh prepare`.
*/
#include <cuda_runtime.h>
#include <cudnn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_timing.h"
#include "gemm_shapes.h"

#define REPS 5
#define LINE_MAX_LEN 512

typedef struct {
    char name[96], op[16], dir[16], layout[8], params[128];
    int n, c, h, w;
} ops_case;

/* Everything one case's calls use: descriptors, buffers and the parsed parameters. */
typedef struct {
    cudnnHandle_t h;
    const ops_case* k;
    cudnnTensorDescriptor_t x, y, bn, b; /* b: op tensor's B */
    cudnnPoolingDescriptor_t pool;
    cudnnLRNDescriptor_t lrn;
    cudnnOpTensorDescriptor_t opt;
    cudnnReduceTensorDescriptor_t red;
    cudnnDropoutDescriptor_t drop;
    float *bx, *by, *bdy, *bdx, *p[8]; /* p: scale, bias, run mean, run var, save mean, save inv var, dscale, dbias */
    float* bb;                         /* op tensor's B */
    void *ws, *states, *reserve;       /* reduce workspace, dropout states and reserve */
    size_t count, ycount, ws_size, reserve_size;
    int bn_mode;
    cudnnSoftmaxAlgorithm_t sm_algo;
    cudnnSoftmaxMode_t sm_mode;
    int bwd;
} ops_call;

static int fail_cudnn(const ops_case* k, const char* what, cudnnStatus_t st) {
    fprintf(stderr, "cudnn_ops: %s: %s: %s\n", k->name, what, cudnnGetErrorString(st));
    return 1;
}

/* One timed call of the case: the forward or backward of its op. */
static cudnnStatus_t call_once(ops_call* c, int fwd_only) {
    const float one = 1.0f, zero = 0.0f;
    const ops_case* k = c->k;
    int bwd = c->bwd && !fwd_only;
    if (!strcmp(k->op, "copy"))
        return cudaMemcpyAsync(c->by, c->bx, c->count * sizeof(float), cudaMemcpyDeviceToDevice, 0) == cudaSuccess
                   ? CUDNN_STATUS_SUCCESS
                   : CUDNN_STATUS_EXECUTION_FAILED;
    if (!strcmp(k->op, "pool"))
        return bwd ? cudnnPoolingBackward(c->h, c->pool, &one, c->y, c->by, c->y, c->bdy, c->x, c->bx, &zero, c->x,
                                          c->bdx)
                   : cudnnPoolingForward(c->h, c->pool, &one, c->x, c->bx, &zero, c->y, c->by);
    if (!strcmp(k->op, "lrn"))
        return bwd ? cudnnLRNCrossChannelBackward(c->h, c->lrn, CUDNN_LRN_CROSS_CHANNEL_DIM1, &one, c->y, c->by, c->y,
                                                  c->bdy, c->x, c->bx, &zero, c->x, c->bdx)
                   : cudnnLRNCrossChannelForward(c->h, c->lrn, CUDNN_LRN_CROSS_CHANNEL_DIM1, &one, c->x, c->bx, &zero,
                                                 c->y, c->by);
    if (!strcmp(k->op, "optensor"))
        return cudnnOpTensor(c->h, c->opt, &one, c->x, c->bx, &one, c->b, c->bb, &zero, c->y, c->by);
    if (!strcmp(k->op, "reduce"))
        return cudnnReduceTensor(c->h, c->red, NULL, 0, c->ws, c->ws_size, &one, c->x, c->bx, &zero, c->y, c->by);
    if (!strcmp(k->op, "dropout"))
        return bwd ? cudnnDropoutBackward(c->h, c->drop, c->y, c->bdy, c->x, c->bdx, c->reserve, c->reserve_size)
                   : cudnnDropoutForward(c->h, c->drop, c->x, c->bx, c->y, c->by, c->reserve, c->reserve_size);
    if (!strcmp(k->op, "softmax"))
        return bwd ? cudnnSoftmaxBackward(c->h, c->sm_algo, c->sm_mode, &one, c->y, c->by, c->y, c->bdy, &zero, c->x,
                                          c->bdx)
                   : cudnnSoftmaxForward(c->h, c->sm_algo, c->sm_mode, &one, c->x, c->bx, &zero, c->y, c->by);
    /* bnorm */
    cudnnBatchNormMode_t m = (cudnnBatchNormMode_t)c->bn_mode;
    if (bwd)
        return cudnnBatchNormalizationBackward(c->h, m, &one, &zero, &one, &zero, c->x, c->bx, c->y, c->bdy, c->x,
                                               c->bdx, c->bn, c->p[0], c->p[6], c->p[7], 1e-5, c->p[4], c->p[5]);
    if (!strcmp(k->dir, "infer"))
        return cudnnBatchNormalizationForwardInference(c->h, m, &one, &zero, c->x, c->bx, c->y, c->by, c->bn, c->p[0],
                                                       c->p[1], c->p[2], c->p[3], 1e-5);
    return cudnnBatchNormalizationForwardTraining(c->h, m, &one, &zero, c->x, c->bx, c->y, c->by, c->bn, c->p[0],
                                                  c->p[1], 0.1, c->p[2], c->p[3], 1e-5, c->p[4], c->p[5]);
}

/* cuda_call_fn of the timing protocol: one timed call. */
static int timed_call(void* ctx) {
    ops_call* c = ctx;
    cudnnStatus_t st = call_once(c, 0);
    return st == CUDNN_STATUS_SUCCESS ? 0 : fail_cudnn(c->k, c->k->op, st);
}

/* Device buffer of n floats uniform in [lo, hi) (a random block repeated, as the GEMM baselines). */
static float* make_buffer(size_t n, const float* blk, float lo, float hi) {
    float* d = NULL;
    if (cudaMalloc((void**)&d, n * sizeof(float) + 256) != cudaSuccess) return NULL;
    size_t chunk = GEMM_BLOCK;
    float* tmp = malloc(chunk * sizeof(float));
    if (!tmp) {
        cudaFree(d);
        return NULL;
    }
    for (size_t i = 0; i < chunk; i++) tmp[i] = lo + (hi - lo) * 0.5f * (blk[i] + 1.0f);
    for (size_t o = 0; o < n; o += chunk) {
        size_t m = n - o < chunk ? n - o : chunk;
        cudaMemcpy(d + o, tmp, m * sizeof(float), cudaMemcpyHostToDevice);
    }
    free(tmp);
    return d;
}

/* "NxCxHxW" of a params field into d; returns 1 when it parsed. */
static int parse_dims4(const char* s, int d[4]) {
    char end;
    return sscanf(s, "%dx%dx%dx%d%c", &d[0], &d[1], &d[2], &d[3], &end) == 4 && d[0] > 0 && d[1] > 0 && d[2] > 0 &&
           d[3] > 0;
}

/* The op tensor of case k (params OP[:bNxCxHxW]): its descriptor, B's descriptor and buffer. */
static const char* setup_optensor(ops_call* c, const ops_case* k, const float* blk) {
    char op[16] = "";
    int bd[4] = {k->n, k->c, k->h, k->w};
    const char* colon = strchr(k->params, ':');
    if (sscanf(k->params, "%15[a-z]", op) != 1 || (colon && (colon[1] != 'b' || !parse_dims4(colon + 2, bd))))
        return "setup";
    cudnnOpTensorOp_t o = !strcmp(op, "add")   ? CUDNN_OP_TENSOR_ADD
                          : !strcmp(op, "mul") ? CUDNN_OP_TENSOR_MUL
                          : !strcmp(op, "min") ? CUDNN_OP_TENSOR_MIN
                          : !strcmp(op, "max") ? CUDNN_OP_TENSOR_MAX
                                               : (cudnnOpTensorOp_t)-1;
    if ((int)o < 0) return "unsupported";
    cudnnTensorFormat_t fmt = strcmp(k->layout, "NHWC") ? CUDNN_TENSOR_NCHW : CUDNN_TENSOR_NHWC;
    if (cudnnSetOpTensorDescriptor(c->opt, o, CUDNN_DATA_FLOAT, CUDNN_NOT_PROPAGATE_NAN) ||
        cudnnSetTensor4dDescriptor(c->b, fmt, CUDNN_DATA_FLOAT, bd[0], bd[1], bd[2], bd[3]))
        return "setup";
    return (c->bb = make_buffer((size_t)bd[0] * bd[1] * bd[2] * bd[3], blk, -1.0f, 1.0f)) ? NULL : "alloc";
}

/* The reduction of case k (params OP:cNxCxHxW): its descriptor and C's dims into cd. */
static const char* setup_reduce(ops_call* c, const ops_case* k, int cd[4]) {
    static const char* const names[] = {"add", "mul", "min", "max", "amax", "avg", "norm1", "norm2"};
    static const cudnnReduceTensorOp_t ops[] = {CUDNN_REDUCE_TENSOR_ADD,   CUDNN_REDUCE_TENSOR_MUL,
                                                CUDNN_REDUCE_TENSOR_MIN,   CUDNN_REDUCE_TENSOR_MAX,
                                                CUDNN_REDUCE_TENSOR_AMAX,  CUDNN_REDUCE_TENSOR_AVG,
                                                CUDNN_REDUCE_TENSOR_NORM1, CUDNN_REDUCE_TENSOR_NORM2};
    char op[16] = "";
    const char* colon = strchr(k->params, ':');
    if (sscanf(k->params, "%15[a-z0-9]", op) != 1 || !colon || colon[1] != 'c' || !parse_dims4(colon + 2, cd))
        return "setup";
    int i = 0;
    while (i < (int)(sizeof names / sizeof names[0]) && strcmp(op, names[i])) i++;
    if (i == (int)(sizeof names / sizeof names[0])) return "unsupported";
    return cudnnSetReduceTensorDescriptor(c->red, ops[i], CUDNN_DATA_FLOAT, CUDNN_NOT_PROPAGATE_NAN,
                                          CUDNN_REDUCE_TENSOR_NO_INDICES, CUDNN_32BIT_INDICES)
               ? "setup"
               : NULL;
}

/* The dropout of case k (params P): states initialized here, outside the timed calls, and the reserve. */
static const char* setup_dropout(ops_call* c, const ops_case* k) {
    char* end;
    double p = strtod(k->params, &end);
    size_t states = 0;
    if (end == k->params || *end || !(p >= 0 && p < 1)) return "setup";
    if (cudnnDropoutGetStatesSize(c->h, &states) || cudnnDropoutGetReserveSpaceSize(c->x, &c->reserve_size))
        return "setup";
    if (cudaMalloc(&c->states, states) != cudaSuccess || cudaMalloc(&c->reserve, c->reserve_size) != cudaSuccess)
        return "alloc";
    if (cudnnSetDropoutDescriptor(c->drop, c->h, (float)p, c->states, states, 12345ULL)) return "setup";
    return NULL;
}

/* Sets the descriptors and buffers of case k; returns NULL or the reason token. */
static const char* setup(ops_call* c, const ops_case* k, const float* blk) {
    cudnnTensorFormat_t fmt = strcmp(k->layout, "NHWC") ? CUDNN_TENSOR_NCHW : CUDNN_TENSOR_NHWC;
    c->k = k;
    c->bwd = !strcmp(k->dir, "bwd");
    c->count = (size_t)k->n * k->c * k->h * k->w;
    c->ycount = c->count;
    if (cudnnCreateTensorDescriptor(&c->x) || cudnnCreateTensorDescriptor(&c->y) ||
        cudnnCreateTensorDescriptor(&c->bn) || cudnnCreateTensorDescriptor(&c->b) ||
        cudnnCreatePoolingDescriptor(&c->pool) || cudnnCreateLRNDescriptor(&c->lrn) ||
        cudnnCreateOpTensorDescriptor(&c->opt) || cudnnCreateReduceTensorDescriptor(&c->red) ||
        cudnnCreateDropoutDescriptor(&c->drop))
        return "setup";
    if (cudnnSetTensor4dDescriptor(c->x, fmt, CUDNN_DATA_FLOAT, k->n, k->c, k->h, k->w)) return "setup";
    int yn = k->n, yc = k->c, yh = k->h, yw = k->w;
    char a[32] = "", b[32] = "";
    if (!strcmp(k->op, "pool")) {
        int r, s, u, v, ph, pw;
        char mode[16];
        if (sscanf(k->params, "%15[a-z]:%dx%d:s%dx%d:p%dx%d", mode, &r, &s, &u, &v, &ph, &pw) != 7) return "setup";
        cudnnPoolingMode_t pm = !strcmp(mode, "max")      ? CUDNN_POOLING_MAX
                                : !strcmp(mode, "maxdet") ? CUDNN_POOLING_MAX_DETERMINISTIC
                                : !strcmp(mode, "avg")    ? CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING
                                                          : CUDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING;
        if (cudnnSetPooling2dDescriptor(c->pool, pm, CUDNN_NOT_PROPAGATE_NAN, r, s, ph, pw, u, v) ||
            cudnnGetPooling2dForwardOutputDim(c->pool, c->x, &yn, &yc, &yh, &yw))
            return "setup";
        c->ycount = (size_t)yn * yc * yh * yw;
    } else if (!strcmp(k->op, "lrn")) {
        unsigned n;
        double al, be, kk;
        if (sscanf(k->params, "%31[a-z]:n%u:a%lf:b%lf:k%lf", a, &n, &al, &be, &kk) != 5) return "setup";
        if (strcmp(a, "cross")) return "unsupported";
        if (cudnnSetLRNDescriptor(c->lrn, n, al, be, kk)) return "setup";
    } else if (!strcmp(k->op, "softmax")) {
        if (sscanf(k->params, "%31[a-z]:%31[a-z]", a, b) != 2) return "setup";
        c->sm_algo = !strcmp(a, "fast") ? CUDNN_SOFTMAX_FAST : !strcmp(a, "log") ? CUDNN_SOFTMAX_LOG : CUDNN_SOFTMAX_ACCURATE;
        c->sm_mode = !strcmp(b, "instance") ? CUDNN_SOFTMAX_MODE_INSTANCE : CUDNN_SOFTMAX_MODE_CHANNEL;
    } else if (!strcmp(k->op, "bnorm")) {
        c->bn_mode = !strcmp(k->params, "peract") ? CUDNN_BATCHNORM_PER_ACTIVATION : CUDNN_BATCHNORM_SPATIAL;
        if (cudnnDeriveBNTensorDescriptor(c->bn, c->x, (cudnnBatchNormMode_t)c->bn_mode)) return "setup";
        size_t pc = c->bn_mode == CUDNN_BATCHNORM_SPATIAL ? (size_t)k->c : (size_t)k->c * k->h * k->w;
        for (int i = 0; i < 8; i++)
            if (!(c->p[i] = make_buffer(pc, blk, i == 3 || i == 5 ? 0.5f : -1.0f, 1.0f))) return "alloc";
    } else if (!strcmp(k->op, "optensor")) {
        const char* why = setup_optensor(c, k, blk);
        if (why) return why;
    } else if (!strcmp(k->op, "reduce")) {
        int cd[4];
        const char* why = setup_reduce(c, k, cd);
        if (why) return why;
        yn = cd[0], yc = cd[1], yh = cd[2], yw = cd[3];
        c->ycount = (size_t)yn * yc * yh * yw;
    } else if (!strcmp(k->op, "dropout")) {
        const char* why = setup_dropout(c, k);
        if (why) return why;
    } else if (!strcmp(k->op, "norm")) {
        return "unsupported";
    } else if (strcmp(k->op, "copy")) {
        return "setup";
    }
    if (!strcmp(k->op, "reduce")) {
        /* the workspace is asked for once C's descriptor is set */
        if (cudnnSetTensor4dDescriptor(c->y, fmt, CUDNN_DATA_FLOAT, yn, yc, yh, yw) ||
            cudnnGetReductionWorkspaceSize(c->h, c->red, c->x, c->y, &c->ws_size))
            return "setup";
        if (c->ws_size && cudaMalloc(&c->ws, c->ws_size) != cudaSuccess) return "alloc";
    }
    if (cudnnSetTensor4dDescriptor(c->y, fmt, CUDNN_DATA_FLOAT, yn, yc, yh, yw)) return "setup";
    if (!(c->bx = make_buffer(c->count, blk, -4.0f, 4.0f)) || !(c->by = make_buffer(c->ycount, blk, -1.0f, 1.0f)))
        return "alloc";
    if (c->bwd && (!(c->bdy = make_buffer(c->ycount, blk, -1.0f, 1.0f)) ||
                   !(c->bdx = make_buffer(c->count, blk, -1.0f, 1.0f))))
        return "alloc";
    /* The backward's inputs: y (and the saved statistics) from one forward call. */
    if (c->bwd) {
        cudnnStatus_t st = call_once(c, 1);
        if (st != CUDNN_STATUS_SUCCESS) {
            fail_cudnn(k, "forward before the timed calls", st);
            return "exec";
        }
    }
    return NULL;
}

static void teardown(ops_call* c) {
    cudaFree(c->bx);
    cudaFree(c->by);
    cudaFree(c->bdy);
    cudaFree(c->bdx);
    cudaFree(c->bb);
    cudaFree(c->ws);
    cudaFree(c->states);
    cudaFree(c->reserve);
    for (int i = 0; i < 8; i++) cudaFree(c->p[i]);
    cudnnDestroyTensorDescriptor(c->x);
    cudnnDestroyTensorDescriptor(c->y);
    cudnnDestroyTensorDescriptor(c->bn);
    cudnnDestroyTensorDescriptor(c->b);
    cudnnDestroyOpTensorDescriptor(c->opt);
    cudnnDestroyReduceTensorDescriptor(c->red);
    cudnnDestroyDropoutDescriptor(c->drop);
    cudnnDestroyPoolingDescriptor(c->pool);
    cudnnDestroyLRNDescriptor(c->lrn);
    cudaDeviceSynchronize();
    cudaGetLastError(); /* clears a non-sticky error so that the next case starts clean */
}

/* Times case k and prints its RESULT line. Returns 0, or 1 when it failed (not when cuDNN has no
** such operation: that case's line says FAIL unsupported and the table shows no baseline). */
static int measure(cudnnHandle_t h, const ops_case* k, const float* blk, double target_ms, int warmup, int verbose,
                   cudaEvent_t e0, cudaEvent_t e1) {
    ops_call c;
    memset(&c, 0, sizeof c);
    c.h = h;
    const char* why = setup(&c, k, blk);
    double per = -1;
    long long iters = 0;
    if (why) goto done;
    cuda_timing t = {warmup, target_ms / 10, 4096, target_ms, REPS};
    per = cuda_measure("cudnn_ops", timed_call, &c, &t, e0, e1, &iters);
    why = per < 0 ? "exec" : NULL;
done:
    teardown(&c);
    if (why) {
        printf("RESULT cudnn %s %s %s FAIL %s\n", k->name, k->op, k->dir, why);
        return strcmp(why, "unsupported") != 0;
    }
    if (verbose) fprintf(stderr, "cudnn_ops: %s: %lld iterations x %d\n", k->name, iters, REPS);
    printf("RESULT cudnn %s %s %s %.3f\n", k->name, k->op, k->dir, per * 1e3); /* ms -> us */
    return 0;
}

/* Reads the case file; returns the count, or -1 after printing the bad line. */
static int read_cases(const char* path, ops_case** out) {
    FILE* f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "cudnn_ops: cannot open %s\n", path);
        return -1;
    }
    char line[LINE_MAX_LEN];
    int n = 0, cap = 0, lineno = 0;
    ops_case* v = NULL;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        char* s = line;
        while (*s == ' ' || *s == '\t') s++;
        if (*s == '#' || *s == '\n' || *s == '\0') continue;
        ops_case k;
        memset(&k, 0, sizeof k);
        if (sscanf(s, "%95[^,],%15[^,],%15[^,],%d,%d,%d,%d,%7[^,],%127[^,\n]", k.name, k.op, k.dir, &k.n, &k.c, &k.h,
                   &k.w, k.layout, k.params) != 9 ||
            k.n < 1 || k.c < 1 || k.h < 1 || k.w < 1) {
            fprintf(stderr, "cudnn_ops: %s:%d: expected name,op,dir,n,c,h,w,layout,params: %s", path, lineno, line);
            free(v);
            fclose(f);
            return -1;
        }
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            ops_case* nv = realloc(v, (size_t)cap * sizeof *v);
            if (!nv) {
                free(v);
                fclose(f);
                return -1;
            }
            v = nv;
        }
        v[n++] = k;
    }
    fclose(f);
    *out = v;
    return n;
}

static int usage(void) {
    fprintf(stderr, "usage: cudnn_ops --cases FILE [--ms T] [--warmup W] [--device D] [-v]\n");
    return 2;
}

int main(int argc, char** argv) {
    const char* path = NULL;
    double ms = 20;
    int warmup = 3, device = 0, verbose = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-v")) verbose = 1;
        else if (i + 1 >= argc) return usage();
        else if (!strcmp(argv[i], "--cases")) path = argv[++i];
        else if (!strcmp(argv[i], "--ms")) ms = atof(argv[++i]);
        else if (!strcmp(argv[i], "--warmup")) warmup = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--device")) device = atoi(argv[++i]);
        else return usage();
    }
    if (!path || ms <= 0) return usage();
    ops_case* cases = NULL;
    int n = read_cases(path, &cases);
    if (n < 0) return 2;
    cudnnHandle_t h;
    struct cudaDeviceProp prop;
    if (cudaSetDevice(device) != cudaSuccess || cudaGetDeviceProperties(&prop, device) != cudaSuccess ||
        cudnnCreate(&h) != CUDNN_STATUS_SUCCESS) {
        fprintf(stderr, "cudnn_ops: no CUDA device %d or no cuDNN\n", device);
        free(cases);
        return 1;
    }
    printf("# cudnn_ops: %s, cuDNN %zu, %s\n", prop.name, cudnnGetVersion(), path);
    float* blk = malloc(GEMM_BLOCK * sizeof(float));
    if (!blk) return 1;
    gemm_fill_block(blk, GEMM_BLOCK, 12345);
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    int status = 0;
    for (int i = 0; i < n; i++) status |= measure(h, &cases[i], blk, ms, warmup, verbose, e0, e1);
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    cudnnDestroy(h);
    free(blk);
    free(cases);
    return status;
}
