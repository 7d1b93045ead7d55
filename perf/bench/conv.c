/*
** conv.c: the `conv` mode of cldnn-bench: cldnnConvolutionForward, BackwardData, BackwardFilter
** and BackwardBias, with the algorithm from a number, the heuristic or Find.
**
**   cldnn-bench conv [-n -c -H -W -k -y -x -p -q -u -v -l -j -g | --shapes FILE] [-F mask]
**                    [-a N|heur|find] [--mode xcorr|conv] [--ws-max MiB] [--ms T] [--vsample S]
**                    [common flags]
**
** Flags follow MIOpenDriver: x is N x C x H x W (-n -c -H -W) in layout -L, the filter K x C/g x
** R x S (-k -y -x; KCRS with NCHW, KRSC with NHWC), padding -p -q, strides -u -v, dilations -l
** -j, groups -g. -F is a mask of directions: 1 forward, 2 backward data, 4 backward filter, 8
** backward bias (0 means 7). -a is the value of the direction's algorithm enum (the same number
** for every direction of the mask; a direction whose enum has no such value is skipped), `heur`
** (the first entry of cldnnGetConvolution*Algorithm_v7) or `find` (cldnnFindConvolution*
** AlgorithmEx within a workspace of the largest size the applicable algorithms need, capped at
** --ws-max MiB, then the fastest). The lines the library prints with CLDNN_LOG_CMD=1 (`cldnn-bench
** conv -n 32 -c 64 -H 56 -W 56 -k 64 -y 3 -x 3 -p 1 -q 1 -u 1 -v 1 -l 1 -j 1 -g 1 -F 1 -a 0 -L
** NCHW -A 1 -B 0 --mode xcorr`) run as they are.
**
** --shapes FILE runs every row of a conv_shapes CSV (perf/baselines/conv_shapes.h) instead of the
** single problem and prints one `RESULT cldnn <dir> ...` line per shape and direction (bias is
** not part of that format and is skipped), FAIL lines included, continuing with the next shape.
** There, -V is off unless given.
**
** Data: x, w and dy uniform in [-1, 1), drawn in that order from the seed (every shape of a
** --shapes run uses the same seed, so `--seed S` and the shape's flags reproduce a row); the prior
** output, when beta != 0, uniform in [-1, 1) from a stream of its own per direction. With
** beta == 0 the output is poisoned with NaN before the verified call.
**
** Verification (-V 1, one un-timed call after the algorithm is chosen): each checked element
** against ref_conv_*_at in double, |got - want| <= f eps_float (sqrt(T) + 1) (|alpha| mag +
** |beta prior|) + tiny, T the terms of one element (fwd C/g R S, bwd-data K/g R S, bwd-filter and
** bias N P Q), mag the sum of the absolute terms (the reference's), f = 2 for the algorithms that
** sum the products as they are and 32 for the transform algorithms (FFT and Winograd, whose
** error follows the transformed tile rather than one window); half data add 2^-10 |want| (the
** output's rounding). --math tensor: FLOAT adds 2 * 2^-11 of the magnitude (TF32 inputs), HALF
** doubles f (FP16 mma: exact products, truncated FP32 additions). Up to 2^27 multiply-adds and
** 2^24 output elements every element is checked;
** above, --vsample random elements plus the 16 corners of the output's index space.
**
** Timing (-t 1): bench_time_us (warm-up, 5 repetitions of -i calls between clFinish, median);
** with --ms T and no -i, the iterations per measurement are chosen from a first estimate (calls
** in batches growing 4x until one takes 20 ms) so that the 5 repetitions take about T ms.
** TFLOP/s use the direct convolution's count, 2 N K P Q C/g R S, for all three directions (bias:
** GB/s only). Bytes counted: input + filter + output of the direction (bias: dy + db). The chosen
** algorithm runs with a workspace of exactly the size cldnnGetConvolution*WorkspaceSize gives (a
** Get or Find answer whose memory field disagrees is reported on stderr).
**
** Output: per direction one bench_result line (--md: row), op `<dir> <algo>`, with the workspace,
** TFLOP/s and iterations in the note; heur and find print the library's whole answer first as a
** '#' line. In --shapes mode those lines name the shape, `# get <name> <dir>: <algo> (ws ..); ...`
** for Get_v7's answer (heur, and find before it calls Find) and `# find <name> <dir>: <algo> <t>
** ms (ws ..); ...` for Find's (perf/merge.py get-vs-find compares them). A failed library call puts the call, the status name and the library's last error
** into the note. NOT_SUPPORTED statuses (the algorithm or data type does not apply) are skips;
** any other failure and any wrong element make the exit status 1. In --shapes mode a failure
** prints FAIL with a reason token as the algorithm (NOT_SUPPORTED:direct, WRONG:gemm, SETUP, ...),
** preceded by '#' lines with the verification and the failure's detail.
*/
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "conv_shapes.h"
#include "gemm_shapes.h"

/* The conv mode's flags, which the convbiasact mode shares. */
#define CONV_FLAGS                                                                                               \
    {"-k", BENCH_FLAG_INT, "64", "output channels K"},                                                          \
        {"-y", BENCH_FLAG_INT, "3", "filter height R"}, {"-x", BENCH_FLAG_INT, "3", "filter width S"},             \
        {"-p", BENCH_FLAG_INT, "1", "padding of the height"}, {"-q", BENCH_FLAG_INT, "1", "padding of the width"},  \
        {"-u", BENCH_FLAG_INT, "1", "stride of the height"}, {"-v", BENCH_FLAG_INT, "1", "stride of the width"},    \
        {"-l", BENCH_FLAG_INT, "1", "dilation of the height"}, {"-j", BENCH_FLAG_INT, "1", "dilation of the width"}, \
        {"-g", BENCH_FLAG_INT, "1", "groups (C and K divisible by it; C for depthwise)"},                         \
        {"-F", BENCH_FLAG_INT, "1", "directions: mask of 1 fwd, 2 bwd-data, 4 bwd-filter, 8 bwd-bias (0 means 7)"}, \
        {"-a", BENCH_FLAG_STRING, "heur",                                                                          \
         "algorithm: the enum value, heur (first of Get*_v7) or find (fastest of Find*Ex)"},                     \
        {"--mode", BENCH_FLAG_STRING, "xcorr", "xcorr (CROSS_CORRELATION) | conv (CONVOLUTION: flipped filter)"},  \
        {"--ws-max", BENCH_FLAG_DOUBLE, "1024", "MiB: find's workspace cap (algorithms needing more are not tried)"}, \
        {"--shapes", BENCH_FLAG_STRING, NULL,                                                                      \
         "FILE: every row of a conv_shapes CSV, one RESULT line per shape and direction; excludes the shape flags"}, \
        {"--ms", BENCH_FLAG_DOUBLE, NULL,                                                                          \
         "without -i: iterations per measurement so that the 5 repetitions take ~T ms"},                         \
        {"--vsample", BENCH_FLAG_INT, "4000", "elements checked above 2^27 multiply-adds (0: check all)"},          \
        {"--math", BENCH_FLAG_STRING, "default",                                                                   \
         "default|tensor|fma: cldnnSetConvolutionMathType (tensor: TF32 / FP16 tensor cores for float / half data " \
         "where the device has them)"}

static const bench_flag k_flags[] = {CONV_FLAGS, {NULL, BENCH_FLAG_SWITCH, NULL, NULL}};

/* convbiasact: conv's flags (forward only) and the epilogue's. */
static const bench_flag k_cba_flags[] = {
    CONV_FLAGS,
    {"--act", BENCH_FLAG_STRING, "relu",
     "relu|identity|sigmoid|tanh|clipped_relu|elu|swish|leaky_relu|softplus|abs|gelu"},
    {"--z", BENCH_FLAG_INT, "0", "1: add alpha2 * z (a tensor of y's shape)"},
    {"--A2", BENCH_FLAG_DOUBLE, "1", "alpha2 (with --z 1)"},
    {"--coef", BENCH_FLAG_DOUBLE, "1", "the activation's coef (clipped_relu ceiling, elu alpha, leaky_relu slope)"},
    {"--swish-beta", BENCH_FLAG_DOUBLE, "1", "swish's beta"},
    {"--separate", BENCH_FLAG_INT, "0",
     "1: time ConvolutionForward (z through beta) + AddTensor(bias) + ActivationForward as three calls"},
    {NULL, BENCH_FLAG_SWITCH, NULL, NULL}};

/* The activation modes by --act name (the names the library's CLDNN_LOG_CMD lines use). */
static const struct {
    const char* name;
    cldnnActivationMode_t mode;
} k_acts[] = {{"relu", CLDNN_ACTIVATION_RELU},
              {"identity", CLDNN_ACTIVATION_IDENTITY},
              {"sigmoid", CLDNN_ACTIVATION_SIGMOID},
              {"tanh", CLDNN_ACTIVATION_TANH},
              {"clipped_relu", CLDNN_ACTIVATION_CLIPPED_RELU},
              {"elu", CLDNN_ACTIVATION_ELU},
              {"swish", CLDNN_ACTIVATION_SWISH},
              {"leaky_relu", CLDNN_ACTIVATION_LEAKY_RELU},
              {"softplus", CLDNN_ACTIVATION_SOFTPLUS},
              {"abs", CLDNN_ACTIVATION_ABS},
              {"gelu", CLDNN_ACTIVATION_GELU}};

/* Above this many multiply-adds (or 2^24 output elements) verification samples the output. */
#define FULL_CHECK_MACS (1LL << 27)
#define FULL_CHECK_OUT (1LL << 24)

/* Directions, in mask-bit order. */
enum { DIR_FWD = 0, DIR_BWD_DATA = 1, DIR_BWD_FILTER = 2, DIR_BWD_BIAS = 3, DIR_COUNT = 4 };
static const char* const k_dir_names[DIR_COUNT] = {"fwd", "bwd-data", "bwd-filter", "bwd-bias"};
static const char* const k_dir_calls[DIR_COUNT] = {"cldnnConvolutionForward", "cldnnConvolutionBackwardData",
                                                   "cldnnConvolutionBackwardFilter", "cldnnConvolutionBackwardBias"};

/* Algorithm names by enum value, per direction (bias has none). */
static const char* const k_fwd_algos[CLDNN_CONVOLUTION_FWD_ALGO_COUNT] = {
    "implicit_gemm", "implicit_precomp_gemm", "gemm", "direct", "fft", "fft_tiling", "winograd", "winograd_nonfused"};
static const char* const k_bwd_data_algos[CLDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT] = {
    "algo_0", "algo_1", "fft", "fft_tiling", "winograd", "winograd_nonfused"};
static const char* const k_bwd_filter_algos[CLDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT] = {
    "algo_0", "algo_1", "fft", "algo_3", "winograd", "winograd_nonfused", "fft_tiling"};
static const char* const* const k_algo_names[DIR_COUNT] = {k_fwd_algos, k_bwd_data_algos, k_bwd_filter_algos, NULL};
static const int k_algo_count[DIR_COUNT] = {CLDNN_CONVOLUTION_FWD_ALGO_COUNT, CLDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT,
                                            CLDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT, 0};

/* How -a picks the algorithm. */
enum { PICK_NUMBER = 0, PICK_HEUR = 1, PICK_FIND = 2 };

/* convbiasact's epilogue: y = act(alpha * conv + alpha2 * z + bias), fused or as three calls. */
typedef struct {
    cldnnActivationDescriptor_t act;
    const char* name;                   /* --act */
    int mode;
    double coef, swish;
    int use_z, separate;
    float alpha2;
} cba_epi;

/* What one bench run shares. */
typedef struct {
    bench_ctx* ctx;
    const bench_opts* opts;
    int verify;                         /* -V for this run (--shapes: off unless given) */
    int mask;                           /* DIR_* bits */
    int pick, algo_num;                 /* -a */
    int flip;                           /* --mode conv */
    cldnnMathType_t math;               /* --math */
    size_t ws_max;                      /* find's cap in bytes */
    double target_ms;                   /* > 0: iterations from --ms */
    int64_t vsample;
    int shapes;                         /* --shapes: RESULT lines */
    const cba_epi* epi;                 /* convbiasact, else NULL */
    int fails;
} conv_run;

/* One problem: its shape, reference description, descriptors, device buffers and host data (each
** host array laid out like its device buffer). Buffers exist for the directions of the mask. */
typedef struct {
    const conv_shape* s;
    char dims[96];                      /* "2x8x9x9 k8 3x3 p1x1 u1x1 d1x1 g1" */
    ref_conv rp;
    int64_t xspan, wspan, yspan;        /* elements */
    cldnnTensorDescriptor_t xd, yd, bd;
    cldnnFilterDescriptor_t wd;
    cldnnConvolutionDescriptor_t cd;
    cl_mem x, w, y, dy, dx, dw, db;
    cl_mem z, bias;                     /* convbiasact */
    float *hx, *hw, *hdy, *got, *prior;
    float *hz, *hbias;
} conv_prob;

/* One call's arguments, for the verified call and the timing loop. */
typedef struct {
    bench_ctx* ctx;
    const conv_prob* p;
    int dir, algo;
    cl_mem ws;
    size_t ws_size;
    float alpha, beta;
    const cba_epi* epi;                 /* convbiasact's forward, else NULL */
} conv_call;

/* One entry of a Get or Find answer, whatever the direction. */
typedef struct {
    int algo;
    cldnnStatus_t status;
    float time;
    size_t memory;
} conv_perf;

/* One measured direction. */
typedef struct {
    int algo;                           /* -1 before one is chosen (and for bias) */
    size_t ws;                          /* bytes used */
    long long iters;
    double us;                          /* per call, < 0 when not timed or failed */
    bench_check check;
    double tol_use;                     /* max |got - want| / tol over the checked elements */
    double max_rel;                     /* max |got - want| / |want| over those with want != 0 */
    int64_t checked, bad;
    int sampled;
    char note[160];
    char reason[40];                    /* --shapes FAIL token: the status name less CLDNN_STATUS_, ... */
} conv_result;

/* The name of algorithm a of direction dir ("-" for none or out of range). */
static const char* algo_name(int dir, int a) {
    if (!k_algo_names[dir] || a < 0 || a >= k_algo_count[dir]) return "-";
    return k_algo_names[dir][a];
}

/* Whether a is a transform algorithm (FFT or Winograd) of direction dir: a looser tolerance. */
static int algo_is_transform(int dir, int a) {
    const char* n = algo_name(dir, a);
    return strncmp(n, "fft", 3) == 0 || strncmp(n, "winograd", 8) == 0;
}

/* snprintf into buf of size bytes where truncating a long detail is intended. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static void text_set(char* buf, size_t size, const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, size, fmt, ap);
    va_end(ap);
}

/* Records a failed library call in res: prints it, keeps status name and detail in the note;
** NOT_SUPPORTED statuses are a skip, others a failure. */
static void note_status(conv_run* r, conv_result* res, const char* what, cldnnStatus_t st) {
    char detail[512];
    cldnnGetLastErrorString(detail, sizeof detail);
    bench_print_status(what, st);
    const char* name = cldnnGetErrorString(st);
    /* the detail usually repeats the status name first: keep the note's room for the rest */
    size_t nl = strlen(name);
    const char* rest = strncmp(detail, name, nl) == 0 ? detail + nl + strspn(detail + nl, ": ") : detail;
    text_set(res->note, sizeof res->note, "%s: %s%s%s", what, name, rest[0] ? ": " : "", rest);
    snprintf(res->reason, sizeof res->reason, "%s", strncmp(name, "CLDNN_STATUS_", 13) ? name : name + 13);
    if (CLDNN_STATUS_CATEGORY(st) != CLDNN_STATUS_NOT_SUPPORTED) r->fails++;
}

/* Records a failure that is not a library status, with its --shapes reason token. */
static void note_fail(conv_run* r, conv_result* res, const char* reason, const char* why) {
    snprintf(res->note, sizeof res->note, "%s", why);
    snprintf(res->reason, sizeof res->reason, "%s", reason);
    r->fails++;
}

/* ------------------------------------------------------------ the calls */

/* Enqueues one call of c's direction and algorithm. */
static cldnnStatus_t conv_once(void* user) {
    const conv_call* c = user;
    const conv_prob* p = c->p;
    cldnnHandle_t h = c->ctx->handle;
    const cba_epi* e = c->epi;
    const float one = 1.0f, zero = 0.0f, a2 = e && e->use_z ? e->alpha2 : 0.0f;
    cldnnStatus_t st;
    switch (c->dir) {
    case DIR_FWD:
        if (e && !e->separate)
            return cldnnConvolutionBiasActivationForward(
                h, &c->alpha, p->xd, p->x, 0, p->wd, p->w, 0, p->cd, (cldnnConvolutionFwdAlgo_t)c->algo, c->ws, 0,
                c->ws_size, &a2, p->yd, e->use_z ? p->z : p->y, 0, p->bd, p->bias, 0, e->act, p->yd, p->y, 0);
        if (e) { /* three calls: z through beta (y holds z), the bias, the activation in place */
            if ((st = cldnnConvolutionForward(h, &c->alpha, p->xd, p->x, 0, p->wd, p->w, 0, p->cd,
                                              (cldnnConvolutionFwdAlgo_t)c->algo, c->ws, 0, c->ws_size, &a2, p->yd,
                                              p->y, 0)) ||
                (st = cldnnAddTensor(h, &one, p->bd, p->bias, 0, &one, p->yd, p->y, 0)))
                return st;
            return cldnnActivationForward(h, e->act, &one, p->yd, p->y, 0, &zero, p->yd, p->y, 0);
        }
        return cldnnConvolutionForward(h, &c->alpha, p->xd, p->x, 0, p->wd, p->w, 0, p->cd,
                                       (cldnnConvolutionFwdAlgo_t)c->algo, c->ws, 0, c->ws_size, &c->beta, p->yd,
                                       p->y, 0);
    case DIR_BWD_DATA:
        return cldnnConvolutionBackwardData(h, &c->alpha, p->wd, p->w, 0, p->yd, p->dy, 0, p->cd,
                                            (cldnnConvolutionBwdDataAlgo_t)c->algo, c->ws, 0, c->ws_size, &c->beta,
                                            p->xd, p->dx, 0);
    case DIR_BWD_FILTER:
        return cldnnConvolutionBackwardFilter(h, &c->alpha, p->xd, p->x, 0, p->yd, p->dy, 0, p->cd,
                                              (cldnnConvolutionBwdFilterAlgo_t)c->algo, c->ws, 0, c->ws_size,
                                              &c->beta, p->wd, p->dw, 0);
    default:
        return cldnnConvolutionBackwardBias(h, &c->alpha, p->yd, p->dy, 0, &c->beta, p->bd, p->db, 0);
    }
}

/* The workspace algorithm a of direction dir needs, in *bytes (NOT_SUPPORTED when it does not apply). */
static cldnnStatus_t ws_size(bench_ctx* ctx, const conv_prob* p, int dir, int a, size_t* bytes) {
    *bytes = 0;
    switch (dir) {
    case DIR_FWD:
        return cldnnGetConvolutionForwardWorkspaceSize(ctx->handle, p->xd, p->wd, p->cd, p->yd,
                                                       (cldnnConvolutionFwdAlgo_t)a, bytes);
    case DIR_BWD_DATA:
        return cldnnGetConvolutionBackwardDataWorkspaceSize(ctx->handle, p->wd, p->yd, p->cd, p->xd,
                                                            (cldnnConvolutionBwdDataAlgo_t)a, bytes);
    case DIR_BWD_FILTER:
        return cldnnGetConvolutionBackwardFilterWorkspaceSize(ctx->handle, p->xd, p->yd, p->cd, p->wd,
                                                              (cldnnConvolutionBwdFilterAlgo_t)a, bytes);
    default:
        return CLDNN_STATUS_SUCCESS;
    }
}

/* Copies n Get/Find entries of any direction's perf type T from src into out. */
#define PERF_COPY(out, src, n)                \
    for (int i_ = 0; i_ < (n); i_++) {        \
        (out)[i_].algo = (int)(src)[i_].algo; \
        (out)[i_].status = (src)[i_].status;  \
        (out)[i_].time = (src)[i_].time;      \
        (out)[i_].memory = (src)[i_].memory;  \
    }

/* The heuristic's answer for direction dir: up to 16 entries into out, the count in *n. */
static cldnnStatus_t get_v7(bench_ctx* ctx, const conv_prob* p, int dir, conv_perf* out, int* n) {
    cldnnStatus_t st;
    *n = 0;
    if (dir == DIR_FWD) {
        cldnnConvolutionFwdAlgoPerf_t perf[16];
        st = cldnnGetConvolutionForwardAlgorithm_v7(ctx->handle, p->xd, p->wd, p->cd, p->yd, 16, n, perf);
        if (st == CLDNN_STATUS_SUCCESS) PERF_COPY(out, perf, *n);
    } else if (dir == DIR_BWD_DATA) {
        cldnnConvolutionBwdDataAlgoPerf_t perf[16];
        st = cldnnGetConvolutionBackwardDataAlgorithm_v7(ctx->handle, p->wd, p->yd, p->cd, p->xd, 16, n, perf);
        if (st == CLDNN_STATUS_SUCCESS) PERF_COPY(out, perf, *n);
    } else {
        cldnnConvolutionBwdFilterAlgoPerf_t perf[16];
        st = cldnnGetConvolutionBackwardFilterAlgorithm_v7(ctx->handle, p->xd, p->yd, p->cd, p->wd, 16, n, perf);
        if (st == CLDNN_STATUS_SUCCESS) PERF_COPY(out, perf, *n);
    }
    if (st != CLDNN_STATUS_SUCCESS || *n < 0 || *n > 16) *n = 0;
    return st;
}

/* Find's answer for direction dir within workspace ws of ws_bytes: up to 16 entries into out. */
static cldnnStatus_t find_ex(bench_ctx* ctx, const conv_prob* p, int dir, cl_mem ws, size_t ws_bytes, conv_perf* out,
                             int* n) {
    cldnnStatus_t st;
    *n = 0;
    if (dir == DIR_FWD) {
        cldnnConvolutionFwdAlgoPerf_t perf[16];
        st = cldnnFindConvolutionForwardAlgorithmEx(ctx->handle, p->xd, p->x, 0, p->wd, p->w, 0, p->cd, p->yd, p->y,
                                                    0, 16, n, perf, ws, 0, ws_bytes);
        if (st == CLDNN_STATUS_SUCCESS) PERF_COPY(out, perf, *n);
    } else if (dir == DIR_BWD_DATA) {
        cldnnConvolutionBwdDataAlgoPerf_t perf[16];
        st = cldnnFindConvolutionBackwardDataAlgorithmEx(ctx->handle, p->wd, p->w, 0, p->yd, p->dy, 0, p->cd, p->xd,
                                                         p->dx, 0, 16, n, perf, ws, 0, ws_bytes);
        if (st == CLDNN_STATUS_SUCCESS) PERF_COPY(out, perf, *n);
    } else {
        cldnnConvolutionBwdFilterAlgoPerf_t perf[16];
        st = cldnnFindConvolutionBackwardFilterAlgorithmEx(ctx->handle, p->xd, p->x, 0, p->yd, p->dy, 0, p->cd,
                                                           p->wd, p->dw, 0, 16, n, perf, ws, 0, ws_bytes);
        if (st == CLDNN_STATUS_SUCCESS) PERF_COPY(out, perf, *n);
    }
    if (st != CLDNN_STATUS_SUCCESS || *n < 0 || *n > 16) *n = 0;
    return st;
}

/* Writes bytes as "123 B", "1.5 KiB", "12.0 MiB" or "1.20 GiB" into buf. */
static void bytes_str(size_t bytes, char* buf, size_t size) {
    double b = (double)bytes;
    if (b < 1024) snprintf(buf, size, "%zu B", bytes);
    else if (b < 1024.0 * 1024) snprintf(buf, size, "%.1f KiB", b / 1024);
    else if (b < 1024.0 * 1024 * 1024) snprintf(buf, size, "%.1f MiB", b / (1024.0 * 1024));
    else snprintf(buf, size, "%.2f GiB", b / (1024.0 * 1024 * 1024));
}

/* Prints a Get or Find answer as one '#' line: `# <how> <dir>:` for a single problem, `# <how>
** <shape name> <dir>:` in --shapes mode (perf/merge.py get-vs-find reads those). */
static void print_perf(const char* how, const char* shape, int dir, const conv_perf* perf, int n) {
    printf("# %s%s%s %s:", how, shape ? " " : "", shape ? shape : "", k_dir_names[dir]);
    for (int i = 0; i < n; i++) {
        char b[32];
        bytes_str(perf[i].memory, b, sizeof b);
        if (perf[i].status == CLDNN_STATUS_SUCCESS && perf[i].time >= 0)
            printf("%s %s %.4g ms (ws %s)", i ? ";" : "", algo_name(dir, perf[i].algo), (double)perf[i].time, b);
        else if (perf[i].status == CLDNN_STATUS_SUCCESS)
            printf("%s %s (ws %s)", i ? ";" : "", algo_name(dir, perf[i].algo), b);
        else
            printf("%s %s %s", i ? ";" : "", algo_name(dir, perf[i].algo), cldnnGetErrorString(perf[i].status));
    }
    printf("\n");
}

/* Chooses the algorithm of direction dir by r->pick into res->algo, sets res->ws to the workspace
** it needs (cldnnGetConvolution*WorkspaceSize) and allocates exactly that into *ws (NULL for 0
** bytes). Returns 0, or 1 after recording why in res (NOT_SUPPORTED: the algorithm does not
** apply, a skip). */
static int choose_algo(conv_run* r, conv_prob* p, int dir, conv_result* res, cl_mem* ws) {
    bench_ctx* ctx = r->ctx;
    conv_perf perf[16];
    int n = 0;
    cldnnStatus_t st;
    *ws = NULL;
    res->algo = -1;
    if (r->pick == PICK_NUMBER) {
        res->algo = r->algo_num;
    } else if (r->pick == PICK_HEUR) {
        const char* what = dir == DIR_FWD        ? "cldnnGetConvolutionForwardAlgorithm_v7"
                           : dir == DIR_BWD_DATA ? "cldnnGetConvolutionBackwardDataAlgorithm_v7"
                                                 : "cldnnGetConvolutionBackwardFilterAlgorithm_v7";
        if ((st = get_v7(ctx, p, dir, perf, &n)) != CLDNN_STATUS_SUCCESS) {
            note_status(r, res, what, st);
            return 1;
        }
        if (r->shapes) print_perf("get", p->s->name, dir, perf, n);
        else if (!r->opts->md) print_perf("heur", NULL, dir, perf, n);
        if (n < 1 || perf[0].status != CLDNN_STATUS_SUCCESS) {
            snprintf(res->reason, sizeof res->reason, "NO_ALGO");
            snprintf(res->note, sizeof res->note, "%s: no algorithm applies (%s first)", what,
                     n ? cldnnGetErrorString(perf[0].status) : "no entries");
            fprintf(stderr, "cldnn-bench conv: %s\n", res->note);
            return 1;
        }
        res->algo = perf[0].algo;
    } else {
        /* --shapes: Get's answer first, before Find records anything (perf/merge.py get-vs-find) */
        if (r->shapes && get_v7(ctx, p, dir, perf, &n) == CLDNN_STATUS_SUCCESS) print_perf("get", p->s->name, dir, perf, n);
        /* the largest workspace among the applicable algorithms, within the cap */
        size_t need = 0;
        for (int a = 0; a < k_algo_count[dir]; a++) {
            size_t b = 0;
            if (ws_size(ctx, p, dir, a, &b) == CLDNN_STATUS_SUCCESS && b <= r->ws_max && b > need) need = b;
        }
        cl_mem fws = need ? bench_buffer(ctx, need) : NULL;
        if (need && !fws) {
            note_fail(r, res, "NO_MEMORY", "could not create find's workspace");
            return 1;
        }
        const char* what = dir == DIR_FWD        ? "cldnnFindConvolutionForwardAlgorithmEx"
                           : dir == DIR_BWD_DATA ? "cldnnFindConvolutionBackwardDataAlgorithmEx"
                                                 : "cldnnFindConvolutionBackwardFilterAlgorithmEx";
        if ((st = find_ex(ctx, p, dir, fws, need, perf, &n)) != CLDNN_STATUS_SUCCESS) {
            bench_release(fws);
            note_status(r, res, what, st);
            return 1;
        }
        if (r->shapes) print_perf("find", p->s->name, dir, perf, n);
        else if (!r->opts->md) print_perf("find", NULL, dir, perf, n);
        if (n < 1 || perf[0].status != CLDNN_STATUS_SUCCESS) {
            bench_release(fws);
            snprintf(res->reason, sizeof res->reason, "NO_ALGO");
            snprintf(res->note, sizeof res->note, "%s: no algorithm ran (%s first)", what,
                     n ? cldnnGetErrorString(perf[0].status) : "no entries");
            fprintf(stderr, "cldnn-bench conv: %s\n", res->note);
            return 1;
        }
        res->algo = perf[0].algo;
        bench_release(fws);             /* the chosen algorithm gets a buffer of its exact size below */
    }
    if (res->algo < 0 || res->algo >= k_algo_count[dir]) {
        if (r->pick == PICK_NUMBER) {
            snprintf(res->reason, sizeof res->reason, "NO_SUCH_ALGO");
            snprintf(res->note, sizeof res->note, "skipped: %s has no algorithm %d (0..%d)", k_dir_names[dir],
                     res->algo, k_algo_count[dir] - 1);
        } else {
            char why[96];
            snprintf(why, sizeof why, "the library chose algorithm %d, outside the enum", res->algo);
            note_fail(r, res, "BAD_ALGO", why);
        }
        return 1;
    }
    const char* what = dir == DIR_FWD        ? "cldnnGetConvolutionForwardWorkspaceSize"
                       : dir == DIR_BWD_DATA ? "cldnnGetConvolutionBackwardDataWorkspaceSize"
                                             : "cldnnGetConvolutionBackwardFilterWorkspaceSize";
    if ((st = ws_size(ctx, p, dir, res->algo, &res->ws)) != CLDNN_STATUS_SUCCESS) {
        note_status(r, res, what, st);
        return 1;
    }
    if (r->pick != PICK_NUMBER && perf[0].memory != res->ws)
        fprintf(stderr, "cldnn-bench conv: %s %s: the %s answer says %zu workspace bytes, %s %zu\n", k_dir_names[dir],
                algo_name(dir, res->algo), r->pick == PICK_HEUR ? "heuristic's" : "find", perf[0].memory, what,
                res->ws);
    if (res->ws && !(*ws = bench_buffer(ctx, res->ws))) {
        note_fail(r, res, "NO_MEMORY", "could not create the workspace");
        return 1;
    }
    return 0;
}

/* --------------------------------------------------------- verification */

/* The output of direction dir: its logical dims (4), strides, span and host reference
** element; T the largest number of terms of one element. */
typedef struct {
    int64_t dims[4], strides[4], span;
    int64_t terms;
    cl_mem mem;
    const char* name;                   /* "y", "dx", "dw", "db" */
    const char* idx_names[4];
} conv_out;

/* Describes the output of direction dir of p. */
static void out_of(const conv_prob* p, int dir, conv_out* o) {
    const ref_conv* c = &p->rp;
    int64_t cg = c->c / c->groups, kg = c->k / c->groups;
    memset(o, 0, sizeof *o);
    switch (dir) {
    case DIR_FWD: {
        int64_t d[4] = {c->n, c->k, c->p, c->q};
        memcpy(o->dims, d, sizeof d);
        memcpy(o->strides, c->ys, sizeof o->strides);
        o->span = p->yspan;
        o->terms = cg * c->r * c->s;
        o->mem = p->y;
        o->name = "y";
        o->idx_names[0] = "n", o->idx_names[1] = "k", o->idx_names[2] = "p", o->idx_names[3] = "q";
        break;
    }
    case DIR_BWD_DATA: {
        int64_t d[4] = {c->n, c->c, c->h, c->w};
        memcpy(o->dims, d, sizeof d);
        memcpy(o->strides, c->xs, sizeof o->strides);
        o->span = p->xspan;
        o->terms = kg * c->r * c->s;
        o->mem = p->dx;
        o->name = "dx";
        o->idx_names[0] = "n", o->idx_names[1] = "c", o->idx_names[2] = "h", o->idx_names[3] = "w";
        break;
    }
    case DIR_BWD_FILTER: {
        int64_t d[4] = {c->k, cg, c->r, c->s};
        memcpy(o->dims, d, sizeof d);
        memcpy(o->strides, c->ws, sizeof o->strides);
        o->span = p->wspan;
        o->terms = c->n * c->p * c->q;
        o->mem = p->dw;
        o->name = "dw";
        o->idx_names[0] = "k", o->idx_names[1] = "c", o->idx_names[2] = "r", o->idx_names[3] = "s";
        break;
    }
    default: {
        int64_t d[4] = {1, c->k, 1, 1}, s[4] = {c->k, 1, 1, 1};
        memcpy(o->dims, d, sizeof d);
        memcpy(o->strides, s, sizeof s);
        o->span = c->k;
        o->terms = c->n * c->p * c->q;
        o->mem = p->db;
        o->name = "db";
        o->idx_names[0] = "-", o->idx_names[1] = "k", o->idx_names[2] = "-", o->idx_names[3] = "-";
        break;
    }
    }
}

/* The reference of output element i (logical index) of direction dir, without alpha/beta, and
** its magnitude in *mag. */
static double ref_at(const conv_prob* p, int dir, const int64_t* i, double* mag) {
    const ref_conv* c = &p->rp;
    switch (dir) {
    case DIR_FWD: return ref_conv_fwd_at(c, p->hx, p->hw, i[0], i[1], i[2], i[3], mag);
    case DIR_BWD_DATA: return ref_conv_bwd_data_at(c, p->hw, p->hdy, i[0], i[1], i[2], i[3], mag);
    case DIR_BWD_FILTER: return ref_conv_bwd_filter_at(c, p->hx, p->hdy, i[0], i[1], i[2], i[3], mag);
    default: return ref_conv_bwd_bias_at(c, p->hdy, i[1], mag);
    }
}

/* Checks output element i (logical index) of direction dir against the reference; scores it into res and
** prints the first failure. */
static void check_elem(const conv_run* r, const conv_prob* p, int dir, const conv_out* o, const int64_t* i,
                       conv_result* res) {
    const bench_opts* opts = r->opts;
    int64_t off = i[0] * o->strides[0] + i[1] * o->strides[1] + i[2] * o->strides[2] + i[3] * o->strides[3];
    double mag = 0, want = opts->alpha * ref_at(p, dir, i, &mag), scale = fabs(opts->alpha) * mag;
    const cba_epi* e = r->epi;
    if (e) { /* y = act(alpha conv + alpha2 z + bias) */
        if (e->use_z) {
            want += e->alpha2 * (double)p->hz[off];
            scale += fabs(e->alpha2 * (double)p->hz[off]);
        }
        want += (double)p->hbias[i[1]];
        scale += fabs((double)p->hbias[i[1]]);
    } else if (opts->beta != 0) {
        want += opts->beta * (double)p->prior[off];
        scale += fabs(opts->beta * (double)p->prior[off]);
    }
    double f = algo_is_transform(dir, res->algo) ? 32.0 : 2.0;
    const int tensor = r->math == CLDNN_TENSOR_OP_MATH;
    if (tensor && opts->dtype == CLDNN_DATA_HALF) f *= 2.0; /* FP16 mma: exact products, truncated additions */
    double tol = f * FLT_EPSILON * (sqrt((double)o->terms) + 1.0) * scale + FLT_MIN;
    tol += bench_round_tol(opts->dtype, want);
    /* TF32 inputs: 2^-11 each; a transform algorithm rounds its transformed operands, whose sums of
    ** magnitudes exceed scale by the transforms' gains (the same factor f / 2 as its FP32 bound).
    ** HALF data on FP16 tensor cores multiplies its inputs exactly, but non-fused Winograd's
    ** operands are the float transforms, which its batched products round to TF32 as for FLOAT
    ** (src/conv/winograd/conv_winograd.c). */
    if (tensor && (opts->dtype != CLDNN_DATA_HALF || strcmp(algo_name(dir, res->algo), "winograd_nonfused") == 0))
        tol += f * ldexp(scale, -11);
    if (e) {
        /* the activation's slope (at most 1.2 for every mode at coef and swish beta up to 1); the
        ** three calls' two extra roundings of half intermediates */
        want = ref_act_forward(e->mode, e->coef, e->swish, want);
        tol *= 1.5 * fmax(1.0, fmax(fabs(e->coef), fabs(e->swish)));
        /* y is rounded to its type after the activation, so the rounding scales with act(v), which
        ** can exceed v many times (sigmoid near 0: 0.5) */
        tol += bench_round_tol(opts->dtype, want);
        if (e->separate && opts->dtype == CLDNN_DATA_HALF) tol += ldexp(scale, -9);
    }
    double got = (double)p->got[off], err = fabs(got - want);
    res->checked++;
    if (want != 0 && isfinite(err) && err / fabs(want) > res->max_rel) res->max_rel = err / fabs(want);
    if (err <= tol) {
        if (err / tol > res->tol_use) res->tol_use = err / tol;
        return;
    }
    if (res->bad++ == 0)
        fprintf(stderr,
                "cldnn-bench conv %s %s %s (seed %llu): %s(%s=%lld, %s=%lld, %s=%lld, %s=%lld) at offset %lld: got "
                "%.9g want %.9g (tol %.3g, mag %.3g)\n",
                k_dir_names[dir], algo_name(dir, res->algo), p->dims, (unsigned long long)opts->seed, o->name,
                o->idx_names[0], (long long)i[0], o->idx_names[1], (long long)i[1], o->idx_names[2], (long long)i[2],
                o->idx_names[3], (long long)i[3], (long long)off, got, want, tol, mag);
    res->tol_use = isfinite(err) ? fmax(res->tol_use, err / tol) : INFINITY;
}

/* Downloads the output of the verified call and checks it, every element or a sample (file
** comment). Returns 0, or 1 when the check could not run. */
static int check_out(conv_run* r, const conv_prob* p, int dir, conv_result* res) {
    conv_out o;
    out_of(p, dir, &o);
    if (bench_download(r->ctx, o.mem, r->opts->dtype, p->got, (size_t)o.span)) return 1;
    int64_t count = o.dims[0] * o.dims[1] * o.dims[2] * o.dims[3];
    int full = r->vsample == 0 || ((double)count * (double)o.terms <= (double)FULL_CHECK_MACS && count <= FULL_CHECK_OUT);
    int64_t i[4];
    if (full) {
        for (i[0] = 0; i[0] < o.dims[0]; i[0]++)
            for (i[1] = 0; i[1] < o.dims[1]; i[1]++)
                for (i[2] = 0; i[2] < o.dims[2]; i[2]++)
                    for (i[3] = 0; i[3] < o.dims[3]; i[3]++) check_elem(r, p, dir, &o, i, res);
        return 0;
    }
    ref_rng rng;
    ref_rng_seed(&rng, r->opts->seed ^ (0x9e3779b97f4a7c15ull * (uint64_t)(dir + 1)));
    for (int c = 0; c < 16; c++) {
        for (int d = 0; d < 4; d++) i[d] = (c >> d) & 1 ? o.dims[d] - 1 : 0;
        check_elem(r, p, dir, &o, i, res);
    }
    for (int64_t k = 0; k < r->vsample; k++) {
        for (int d = 0; d < 4; d++) i[d] = (int64_t)(ref_rng_next(&rng) % (uint64_t)o.dims[d]);
        check_elem(r, p, dir, &o, i, res);
    }
    res->sampled = 1;
    return 0;
}

/* Poisons (beta == 0) or sets the prior of direction dir's output, runs the call once and checks
** the result. Returns 0 when the call ran (whatever the comparison said), 1 after recording why. */
static int verify_dir(conv_run* r, conv_prob* p, conv_call* c, conv_result* res) {
    const bench_opts* opts = r->opts;
    conv_out o;
    out_of(p, c->dir, &o);
    size_t n = (size_t)o.span;
    if (c->epi) { /* y is z for the three calls (beta = alpha2 reads it), else written unread */
        if (c->epi->separate && c->epi->use_z) memcpy(p->prior, p->hz, n * sizeof(float));
        else ref_fill_nan(p->prior, n);
    } else if (opts->beta == 0) {
        ref_fill_nan(p->prior, n);
    } else {
        ref_rng rng;
        ref_rng_seed(&rng, opts->seed + 1000003ull * (uint64_t)(c->dir + 1));
        ref_fill_uniform(&rng, p->prior, n, -1.0, 1.0);
        bench_round(opts->dtype, p->prior, n);
    }
    if (bench_upload(r->ctx, o.mem, opts->dtype, p->prior, n)) {
        note_fail(r, res, "BENCH", "could not upload the prior output");
        return 1;
    }
    cldnnStatus_t st = conv_once(c);
    if (st != CLDNN_STATUS_SUCCESS) {
        note_status(r, res, k_dir_calls[c->dir], st);
        return 1;
    }
    if (check_out(r, p, c->dir, res)) {
        note_fail(r, res, "BENCH", "verification could not run");
        return 1;
    }
    res->check = res->bad ? BENCH_CHECK_FAIL : BENCH_CHECK_PASS;
    if (res->bad) r->fails++;
    return 0;
}

/* --------------------------------------------------------------- timing */

/* Times the call: fixed -i, or with --ms (and no -i) a first estimate that sets the iterations
** (as gemm.c). Fills res->us and res->iters; returns 0, or 1 after printing why. */
static int time_call(conv_run* r, conv_call* c, conv_result* res) {
    bench_opts o = *r->opts;
    if (r->target_ms > 0) {
        cldnnStatus_t st;
        for (int i = 0; i < o.warmup; i++)
            if ((st = conv_once(c)) != CLDNN_STATUS_SUCCESS) {
                bench_print_status("warm-up call", st);
                return 1;
            }
        clFinish(r->ctx->queue);
        double per = 0;
        for (long long n = 1;; n *= 4) {
            double t0 = gemm_now_s();
            for (long long i = 0; i < n; i++)
                if ((st = conv_once(c)) != CLDNN_STATUS_SUCCESS) {
                    bench_print_status("timed call", st);
                    return 1;
                }
            cl_int e = clFinish(r->ctx->queue);
            if (e != CL_SUCCESS) {
                bench_print_cl("clFinish", e);
                return 1;
            }
            per = (gemm_now_s() - t0) / (double)n;
            if (per * (double)n >= 20e-3 || n >= 16384) break;
        }
        o.iters = (int)gemm_iters_for(per, r->target_ms, BENCH_REPS);
        o.warmup = 0;
    }
    res->iters = o.iters;
    return bench_time_us(r->ctx, &o, conv_once, c, &res->us);
}

/* ------------------------------------------------------------ problems */

/* Releases everything p holds (a zeroed p is fine) and zeroes it. */
static void prob_free(conv_prob* p) {
    bench_release(p->x);
    bench_release(p->w);
    bench_release(p->y);
    bench_release(p->dy);
    bench_release(p->dx);
    bench_release(p->dw);
    bench_release(p->db);
    bench_release(p->z);
    bench_release(p->bias);
    cldnnDestroyTensorDescriptor(p->xd);
    cldnnDestroyTensorDescriptor(p->yd);
    cldnnDestroyTensorDescriptor(p->bd);
    cldnnDestroyFilterDescriptor(p->wd);
    cldnnDestroyConvolutionDescriptor(p->cd);
    free(p->hx);
    free(p->hw);
    free(p->hdy);
    free(p->got);
    free(p->prior);
    free(p->hz);
    free(p->hbias);
    memset(p, 0, sizeof *p);
}

/* Writes shape s as "NxCxHxW kK RxS pPHxPW uSHxSW dDHxDW gG" into buf. */
static void shape_str(const conv_shape* s, char* buf, size_t size) {
    snprintf(buf, size, "%dx%dx%dx%d k%d %dx%d p%dx%d u%dx%d d%dx%d g%d", s->n, s->c, s->h, s->w, s->k, s->r, s->s,
             s->pad_h, s->pad_w, s->stride_h, s->stride_w, s->dil_h, s->dil_w, s->groups);
}

/* A device buffer of span elements holding host array h, or zeros when h is NULL; NULL after
** printing why. */
static cl_mem make_buf(conv_run* r, int64_t span, const float* h) {
    size_t bytes = (size_t)span * r->opts->elem_size;
    cl_mem m = bench_buffer(r->ctx, bytes);
    if (!m) return NULL;
    if (h) {
        if (!bench_upload(r->ctx, m, r->opts->dtype, h, (size_t)span)) return m;
    } else {
        const unsigned char zero = 0;
        cl_int e = clEnqueueFillBuffer(r->ctx->queue, m, &zero, 1, 0, bytes, 0, NULL, NULL);
        if (e == CL_SUCCESS) return m;
        bench_print_cl("clEnqueueFillBuffer", e);
    }
    bench_release(m);
    return NULL;
}

/* Sets p up for shape s: checks it, builds descriptors, draws and uploads the inputs and creates
** the buffers the mask's directions need (outputs zeroed). Returns 0, or 1 after writing why
** into why (with the library's status and detail when a call failed); the caller frees p. */
static int prob_init(conv_run* r, conv_prob* p, const conv_shape* s, char* why, size_t whysize) {
    const bench_opts* o = r->opts;
    memset(p, 0, sizeof *p);
    p->s = s;
    shape_str(s, p->dims, sizeof p->dims);
    int nhwc = o->layout == CLDNN_TENSOR_NHWC;
    if (s->n < 1 || s->c < 1 || s->h < 1 || s->w < 1 || s->k < 1 || s->r < 1 || s->s < 1 || s->pad_h < 0 ||
        s->pad_w < 0 || s->stride_h < 1 || s->stride_w < 1 || s->dil_h < 1 || s->dil_w < 1 || s->groups < 1 ||
        ref_conv_init(&p->rp, s->n, s->c, s->h, s->w, s->k, s->r, s->s, s->pad_h, s->pad_w, s->stride_h, s->stride_w,
                      s->dil_h, s->dil_w, s->groups, r->flip, nhwc)) {
        snprintf(why, whysize,
                 "invalid shape %s: sizes >= 1, pads >= 0, C and K divisible by the groups, the dilated filter "
                 "within the padded input",
                 p->dims);
        return 1;
    }
    p->xspan = ref_conv_x_span(&p->rp);
    p->wspan = ref_conv_w_span(&p->rp);
    p->yspan = ref_conv_y_span(&p->rp);

    /* descriptors; the output dims come from the library and must agree with the reference */
    cldnnStatus_t st;
    const char* what = "cldnnCreate*Descriptor";
    if ((st = cldnnCreateTensorDescriptor(&p->xd)) || (st = cldnnCreateTensorDescriptor(&p->yd)) ||
        (st = cldnnCreateTensorDescriptor(&p->bd)) || (st = cldnnCreateFilterDescriptor(&p->wd)) ||
        (st = cldnnCreateConvolutionDescriptor(&p->cd)))
        goto lib_failed;
    what = "cldnnSetTensor4dDescriptor(x)";
    if ((st = cldnnSetTensor4dDescriptor(p->xd, o->layout, o->dtype, s->n, s->c, s->h, s->w))) goto lib_failed;
    what = "cldnnSetFilter4dDescriptor";
    if ((st = cldnnSetFilter4dDescriptor(p->wd, o->dtype, o->layout, s->k, s->c / s->groups, s->r, s->s)))
        goto lib_failed;
    what = "cldnnSetConvolution2dDescriptor";
    if ((st = cldnnSetConvolution2dDescriptor(p->cd, s->pad_h, s->pad_w, s->stride_h, s->stride_w, s->dil_h, s->dil_w,
                                              r->flip ? CLDNN_CONVOLUTION : CLDNN_CROSS_CORRELATION,
                                              CLDNN_DATA_FLOAT)))
        goto lib_failed;
    what = "cldnnSetConvolutionGroupCount";
    if ((st = cldnnSetConvolutionGroupCount(p->cd, s->groups))) goto lib_failed;
    what = "cldnnSetConvolutionMathType";
    if ((st = cldnnSetConvolutionMathType(p->cd, r->math))) goto lib_failed;
    int yn = 0, yc = 0, yh = 0, yw = 0;
    what = "cldnnGetConvolution2dForwardOutputDim";
    if ((st = cldnnGetConvolution2dForwardOutputDim(p->cd, p->xd, p->wd, &yn, &yc, &yh, &yw))) goto lib_failed;
    if (yn != s->n || yc != s->k || yh != p->rp.p || yw != p->rp.q) {
        snprintf(why, whysize, "cldnnGetConvolution2dForwardOutputDim says %dx%dx%dx%d, the reference %dx%dx%lldx%lld",
                 yn, yc, yh, yw, s->n, s->k, (long long)p->rp.p, (long long)p->rp.q);
        return 1;
    }
    what = "cldnnSetTensor4dDescriptor(y)";
    if ((st = cldnnSetTensor4dDescriptor(p->yd, o->layout, o->dtype, yn, yc, yh, yw))) goto lib_failed;
    what = "cldnnSetTensor4dDescriptor(db)";
    if ((st = cldnnSetTensor4dDescriptor(p->bd, CLDNN_TENSOR_NCHW, o->dtype, 1, s->k, 1, 1))) goto lib_failed;

    /* data: x, w, dy from the seed in that order (each only when a direction reads it) */
    int fwd = r->mask & 1, bd = r->mask & 2, bf = r->mask & 4, bb = r->mask & 8;
    int need_x = fwd || bf, need_dy = bd || bf || bb;
    ref_rng rng;
    ref_rng_seed(&rng, o->seed);
    snprintf(why, whysize, "out of host or device memory");
    if (!(p->hx = bench_alloc((size_t)p->xspan, sizeof(float))) ||
        !(p->hw = bench_alloc((size_t)p->wspan, sizeof(float))))
        return 1;
    ref_fill_uniform(&rng, p->hx, (size_t)p->xspan, -1.0, 1.0);
    ref_fill_uniform(&rng, p->hw, (size_t)p->wspan, -1.0, 1.0);
    bench_round(o->dtype, p->hx, (size_t)p->xspan);
    bench_round(o->dtype, p->hw, (size_t)p->wspan);
    if (need_dy) {
        if (!(p->hdy = bench_alloc((size_t)p->yspan, sizeof(float)))) return 1;
        ref_fill_uniform(&rng, p->hdy, (size_t)p->yspan, -1.0, 1.0);
        bench_round(o->dtype, p->hdy, (size_t)p->yspan);
    }
    if (r->epi) { /* then z (when used) and the bias, drawn after them */
        if (!(p->hz = bench_alloc((size_t)p->yspan, sizeof(float))) ||
            !(p->hbias = bench_alloc((size_t)s->k, sizeof(float))))
            return 1;
        if (r->epi->use_z) ref_fill_uniform(&rng, p->hz, (size_t)p->yspan, -1.0, 1.0);
        ref_fill_uniform(&rng, p->hbias, (size_t)s->k, -0.5, 0.5);
        bench_round(o->dtype, p->hz, (size_t)p->yspan);
        bench_round(o->dtype, p->hbias, (size_t)s->k);
        if ((r->epi->use_z && !(p->z = make_buf(r, p->yspan, p->hz))) || !(p->bias = make_buf(r, s->k, p->hbias)))
            return 1;
    }
    int64_t omax = 0;
    if (fwd && p->yspan > omax) omax = p->yspan;
    if (bd && p->xspan > omax) omax = p->xspan;
    if (bf && p->wspan > omax) omax = p->wspan;
    if (bb && s->k > omax) omax = s->k;
    if (r->verify && (!(p->got = bench_alloc((size_t)omax, sizeof(float))) ||
                      !(p->prior = bench_alloc((size_t)omax, sizeof(float)))))
        return 1;
    if ((need_x && !(p->x = make_buf(r, p->xspan, p->hx))) || ((fwd || bd) && !(p->w = make_buf(r, p->wspan, p->hw))) ||
        (need_dy && !(p->dy = make_buf(r, p->yspan, p->hdy))) || (fwd && !(p->y = make_buf(r, p->yspan, NULL))) ||
        (bd && !(p->dx = make_buf(r, p->xspan, NULL))) || (bf && !(p->dw = make_buf(r, p->wspan, NULL))) ||
        (bb && !(p->db = make_buf(r, s->k, NULL))))
        return 1;
    why[0] = '\0';
    return 0;
lib_failed:
    bench_print_status(what, st);
    {
        char detail[400];
        cldnnGetLastErrorString(detail, sizeof detail);
        snprintf(why, whysize, "%s: %s%s%s", what, cldnnGetErrorString(st), detail[0] ? ": " : "", detail);
    }
    return 1;
}

/* Bytes the direction moves: input + filter + output (bias: dy + db). */
static double dir_bytes(const conv_run* r, const conv_prob* p, int dir) {
    double e = (double)r->opts->elem_size, x = (double)p->xspan * e, w = (double)p->wspan * e,
           y = (double)p->yspan * e;
    if (r->epi) /* plus the bias and z */
        return x + w + y + (double)p->rp.k * e + (r->epi->use_z ? y : 0.0);
    return dir == DIR_BWD_BIAS ? y + (double)p->rp.k * e : x + w + y;
}

/* Prints one direction's result: a RESULT line (--shapes, with '#' lines for the verification and
** any failure), else a bench_result line or row with the workspace and TFLOP/s in the note. */
static void report(const conv_run* r, const conv_prob* p, int dir, const conv_result* res) {
    const bench_opts* o = r->opts;
    double flops = conv_shape_flops(p->s);
    char ws[32];
    bytes_str(res->ws, ws, sizeof ws);
    if (r->shapes) {
        const char* an = res->algo >= 0 ? algo_name(dir, res->algo)
                         : r->pick == PICK_HEUR ? "heur"
                         : r->pick == PICK_FIND ? "find"
                                                : "-";
        if (res->check != BENCH_CHECK_NONE)
            printf("# %s %s %s: verify %s (%.3g of tol; %lld %s)\n", p->s->name, k_dir_names[dir], an,
                   res->check == BENCH_CHECK_PASS ? "PASS" : "FAIL", res->tol_use, (long long)res->checked,
                   res->sampled ? "sampled" : "all");
        if (res->note[0]) printf("# %s %s %s: %s\n", p->s->name, k_dir_names[dir], an, res->note);
        /* a failure prints FAIL with a reason token as the algorithm: REASON or REASON:algo */
        char tok[96];
        if (res->check == BENCH_CHECK_FAIL) snprintf(tok, sizeof tok, "WRONG:%s", an);
        else if (res->note[0]) snprintf(tok, sizeof tok, "%s%s%s", res->reason[0] ? res->reason : "FAILED",
                                        res->algo >= 0 ? ":" : "", res->algo >= 0 ? an : "");
        else snprintf(tok, sizeof tok, "%s", an);
        int ok = res->check != BENCH_CHECK_FAIL && !res->note[0];
        /* convbiasact's lines name the library "cldnn-fused" or "cldnn-3calls" */
        const char* lib = !r->epi ? "cldnn" : r->epi->separate ? "cldnn-3calls" : "cldnn-fused";
        conv_result_print(stdout, lib, k_dir_names[dir], p->s, tok, ok && res->us > 0 ? res->us * 1e-3 : -1.0);
        return;
    }
    bench_result b;
    bench_result_init(&b, r->epi ? "convbiasact" : "conv", o);
    snprintf(b.dims, sizeof b.dims, "%s", p->dims);
    if (dir == DIR_BWD_BIAS) snprintf(b.op, sizeof b.op, "%s", k_dir_names[dir]);
    else snprintf(b.op, sizeof b.op, "%s %s", k_dir_names[dir], res->algo >= 0 ? algo_name(dir, res->algo) : "-");
    b.bytes = dir_bytes(r, p, dir);
    b.us = res->us;
    b.check = res->check;
    b.tol_use = res->tol_use;
    b.bad = res->bad;
    b.max_rel = res->max_rel;
    /* note: "(<checked> all|sampled)", then the failure, or "ws <bytes>  <x> TFLOP/s  i=<iters>" */
    char parts[5][96];
    int np = 0;
    if (res->check != BENCH_CHECK_NONE)
        snprintf(parts[np++], sizeof parts[0], "(%lld %s)", (long long)res->checked, res->sampled ? "sampled" : "all");
    if (!res->note[0]) {
        if (dir != DIR_BWD_BIAS) snprintf(parts[np++], sizeof parts[0], "ws %s", ws);
        if (dir != DIR_BWD_BIAS && res->us > 0)
            snprintf(parts[np++], sizeof parts[0], "%.4g TFLOP/s", flops / (res->us * 1e-6) / 1e12);
        if (res->us > 0) snprintf(parts[np++], sizeof parts[0], "i=%lld", res->iters);
        if (r->epi)
            snprintf(parts[np++], sizeof parts[0], "%s %s%s", r->epi->separate ? "3 calls" : "fused", r->epi->name,
                     r->epi->use_z ? "+z" : "");
    }
    size_t at = 0;
    b.note[0] = '\0';
    for (int i = 0; i < np && at < sizeof b.note; i++)
        at += (size_t)snprintf(b.note + at, sizeof b.note - at, "%s%s", i ? "  " : "", parts[i]);
    if (res->note[0] && at < sizeof b.note) text_set(b.note + at, sizeof b.note - at, "%s%s", at ? " " : "", res->note);
    bench_report(o, &b);
}

/* Runs (chooses, verifies, times, reports) direction dir of p. */
static void conv_dir(conv_run* r, conv_prob* p, int dir) {
    const bench_opts* o = r->opts;
    conv_result res;
    memset(&res, 0, sizeof res);
    res.us = -1;
    res.algo = -1;
    conv_call c = {r->ctx, p, dir, -1, NULL, 0, (float)o->alpha, r->epi ? 0.0f : (float)o->beta, r->epi};
    if (dir != DIR_BWD_BIAS && choose_algo(r, p, dir, &res, &c.ws)) goto out;
    c.algo = res.algo;
    c.ws_size = res.ws;
    if (r->verify && verify_dir(r, p, &c, &res)) goto out;
    if (o->time && time_call(r, &c, &res)) {
        res.us = -1;
        if (!res.note[0]) note_fail(r, &res, "TIMED_CALL", "timed call failed");
    }
out:
    report(r, p, dir, &res);
    bench_release(c.ws);
}

/* Runs every direction of the mask on shape s with its own buffers; a shape that cannot be set
** up reports a failure per direction. */
static void conv_one(conv_run* r, const conv_shape* s) {
    conv_prob p;
    char why[480];
    if (prob_init(r, &p, s, why, sizeof why)) {
        r->fails++;
        for (int d = 0; d < DIR_COUNT; d++) {
            if (!(r->mask & (1 << d))) continue;
            conv_result res;
            memset(&res, 0, sizeof res);
            res.us = -1;
            res.algo = -1;
            text_set(res.note, sizeof res.note, "%s", why);
            snprintf(res.reason, sizeof res.reason, "SETUP");
            report(r, &p, d, &res);
        }
        prob_free(&p);
        return;
    }
    if (!r->shapes && !r->opts->md)
        printf("# conv %s %s %s: x %lldx%lldx%lldx%lld, w %lldx%lldx%lldx%lld, y %lldx%lldx%lldx%lld, %.4g GFLOP\n",
               p.dims, bench_layout_name(r->opts->layout), r->flip ? "conv" : "xcorr", (long long)p.rp.n,
               (long long)p.rp.c, (long long)p.rp.h, (long long)p.rp.w, (long long)p.rp.k,
               (long long)(p.rp.c / p.rp.groups), (long long)p.rp.r, (long long)p.rp.s, (long long)p.rp.n,
               (long long)p.rp.k, (long long)p.rp.p, (long long)p.rp.q, conv_shape_flops(s) * 1e-9);
    for (int d = 0; d < DIR_COUNT; d++)
        if (r->mask & (1 << d)) conv_dir(r, &p, d);
    prob_free(&p);
}

/* The conv and convbiasact modes' body: epi is convbiasact's epilogue, else NULL. */
static int conv_main(bench_ctx* ctx, const bench_opts* opts, const bench_args* args, const cba_epi* epi) {
    conv_run r;
    memset(&r, 0, sizeof r);
    r.ctx = ctx;
    r.opts = opts;
    r.epi = epi;
    long long F = bench_arg_int(args, "-F", 1);
    if (epi && F != 1) {
        fprintf(stderr, "cldnn-bench convbiasact: forward only (-F 1)\n");
        return 2;
    }
    if (F < 0 || F > 15) {
        fprintf(stderr, "cldnn-bench conv: -F %lld: expected a mask of 1, 2, 4, 8 (0 means 7)\n", F);
        return 2;
    }
    r.mask = F == 0 ? 7 : (int)F;
    const char* a = bench_arg_str(args, "-a");
    if (!strcmp(a, "heur")) r.pick = PICK_HEUR;
    else if (!strcmp(a, "find")) r.pick = PICK_FIND;
    else {
        char* end = NULL;
        long v = strtol(a, &end, 10);
        if (!*a || *end || v < 0 || v > 63) {
            fprintf(stderr, "cldnn-bench conv: -a %s: expected an algorithm number, heur or find\n", a);
            return 2;
        }
        r.pick = PICK_NUMBER;
        r.algo_num = (int)v;
    }
    const char* m = bench_arg_str(args, "--mode");
    if (!strcmp(m, "xcorr") || !strcmp(m, "cross_correlation")) r.flip = 0;
    else if (!strcmp(m, "conv") || !strcmp(m, "convolution")) r.flip = 1;
    else {
        fprintf(stderr, "cldnn-bench conv: --mode %s: expected xcorr or conv\n", m);
        return 2;
    }
    if (bench_parse_math("conv", bench_arg_str(args, "--math"), &r.math)) return 2;
    double wsmax = bench_arg_double(args, "--ws-max", 1024);
    if (!(wsmax >= 0) || wsmax > 1048576.0) {
        fprintf(stderr, "cldnn-bench conv: --ws-max must be 0 .. 2^20 MiB\n");
        return 2;
    }
    r.ws_max = (size_t)(wsmax * 1048576.0);
    r.vsample = bench_arg_int(args, "--vsample", 4000);
    if (r.vsample < 0 || r.vsample > 100000000) {
        fprintf(stderr, "cldnn-bench conv: --vsample must be 0 .. 1e8\n");
        return 2;
    }
    if (bench_arg_given(args, "--ms") && !bench_arg_given(args, "-i")) {
        r.target_ms = bench_arg_double(args, "--ms", 0);
        if (!(r.target_ms > 0)) {
            fprintf(stderr, "cldnn-bench conv: --ms must be > 0\n");
            return 2;
        }
    }

    conv_shape one, *shapes = &one;
    int count = 1;
    const char* file = bench_arg_str(args, "--shapes");
    if (file) {
        static const char* const excl[] = {"-n", "-c", "-H", "-W", "-D", "-S", "-k", "-y", "-x",
                                           "-p", "-q", "-u", "-v", "-l", "-j", "-g"};
        for (size_t i = 0; i < sizeof excl / sizeof excl[0]; i++)
            if (bench_arg_given(args, excl[i])) {
                fprintf(stderr, "cldnn-bench conv: %s and --shapes exclude each other\n", excl[i]);
                return 2;
            }
        if (r.mask & 8) {
            fprintf(stderr, "cldnn-bench conv: --shapes: bwd-bias (-F 8) has no RESULT line; skipped\n");
            r.mask &= 7;
            if (!r.mask) return 2;
        }
        r.shapes = 1;
        r.verify = bench_arg_given(args, "-V") ? opts->verify : 0;
        if ((count = conv_shapes_read(file, &shapes)) < 0) return 2;
    } else {
        if (opts->nd != 4) {
            fprintf(stderr, "cldnn-bench conv: the input needs 4 dims N x C x H x W\n");
            return 2;
        }
        static const char* const f[10] = {"-k", "-y", "-x", "-p", "-q", "-u", "-v", "-l", "-j", "-g"};
        long long v[10];
        for (int i = 0; i < 10; i++) {
            v[i] = bench_arg_int(args, f[i], 1);
            if (v[i] < (i == 3 || i == 4 ? 0 : 1) || v[i] > 0x7fffffffLL) {
                fprintf(stderr, "cldnn-bench conv: %s %lld: must be %s\n", f[i], v[i],
                        i == 3 || i == 4 ? ">= 0" : ">= 1");
                return 2;
            }
        }
        for (int d = 0; d < 4; d++)
            if (opts->dims[d] > 0x7fffffffLL) {
                fprintf(stderr, "cldnn-bench conv: dims must be below 2^31\n");
                return 2;
            }
        memset(&one, 0, sizeof one);
        snprintf(one.name, sizeof one.name, "cli");
        one.n = (int)opts->dims[0];
        one.c = (int)opts->dims[1];
        one.h = (int)opts->dims[2];
        one.w = (int)opts->dims[3];
        one.k = (int)v[0];
        one.r = (int)v[1];
        one.s = (int)v[2];
        one.pad_h = (int)v[3];
        one.pad_w = (int)v[4];
        one.stride_h = (int)v[5];
        one.stride_w = (int)v[6];
        one.dil_h = (int)v[7];
        one.dil_w = (int)v[8];
        one.groups = (int)v[9];
        ref_conv chk;
        if (one.c % one.groups || one.k % one.groups) {
            fprintf(stderr, "cldnn-bench conv: C (%d) and K (%d) must divide by -g %d\n", one.c, one.k, one.groups);
            return 2;
        }
        if (ref_conv_init(&chk, one.n, one.c, one.h, one.w, one.k, one.r, one.s, one.pad_h, one.pad_w, one.stride_h,
                          one.stride_w, one.dil_h, one.dil_w, one.groups, 0, 0)) {
            fprintf(stderr, "cldnn-bench conv: the dilated %dx%d filter does not fit the padded %dx%d input\n", one.r,
                    one.s, one.h + 2 * one.pad_h, one.w + 2 * one.pad_w);
            return 2;
        }
        r.verify = opts->verify;
    }
    for (int s = 0; s < count; s++) conv_one(&r, &shapes[s]);
    if (shapes != &one) free(shapes);
    return r.fails ? 1 : 0;
}

/* The conv mode's run function (see bench_mode). */
static int conv_run_mode(bench_ctx* ctx, const bench_opts* opts, const bench_args* args) {
    return conv_main(ctx, opts, args, NULL);
}

/* convbiasact: cldnnConvolutionBiasActivationForward, or with --separate 1 the same result from
** ConvolutionForward (alpha2 z through beta) + AddTensor(bias) + ActivationForward in place; the
** conv mode's shapes, algorithm choice, verification (against act(alpha conv + alpha2 z + bias)
** in double) and rows. */
static int cba_run_mode(bench_ctx* ctx, const bench_opts* opts, const bench_args* args) {
    cba_epi e;
    memset(&e, 0, sizeof e);
    e.name = bench_arg_str(args, "--act");
    e.mode = -1;
    for (size_t i = 0; i < sizeof k_acts / sizeof k_acts[0]; i++)
        if (!strcmp(e.name, k_acts[i].name)) e.mode = (int)k_acts[i].mode;
    if (e.mode < 0) {
        fprintf(stderr, "cldnn-bench convbiasact: --act %s: not an activation (see -h)\n", e.name);
        return 2;
    }
    long long z = bench_arg_int(args, "--z", 0), sep = bench_arg_int(args, "--separate", 0);
    if ((z != 0 && z != 1) || (sep != 0 && sep != 1)) {
        fprintf(stderr, "cldnn-bench convbiasact: --z and --separate take 0 or 1\n");
        return 2;
    }
    e.use_z = (int)z;
    e.separate = (int)sep;
    e.alpha2 = (float)bench_arg_double(args, "--A2", 1.0);
    e.coef = bench_arg_double(args, "--coef", 1.0);
    e.swish = bench_arg_double(args, "--swish-beta", 1.0);
    cldnnStatus_t st;
    if ((st = cldnnCreateActivationDescriptor(&e.act)) ||
        (st = cldnnSetActivationDescriptor(e.act, (cldnnActivationMode_t)e.mode, CLDNN_NOT_PROPAGATE_NAN, e.coef)) ||
        (st = cldnnSetActivationDescriptorSwishBeta(e.act, e.swish))) {
        bench_print_status("cldnnSetActivationDescriptor", st);
        cldnnDestroyActivationDescriptor(e.act);
        return 2;
    }
    int rc = conv_main(ctx, opts, args, &e);
    cldnnDestroyActivationDescriptor(e.act);
    return rc;
}

const bench_mode bench_mode_convbiasact = {
    "convbiasact",
    "fused convolution + bias + activation (cldnnConvolutionBiasActivationForward; --separate 1: as three calls)",
    k_cba_flags, cba_run_mode, NULL};

const bench_mode bench_mode_conv = {
    "conv", "convolution forward, backward data, filter and bias (cldnnConvolution*), algorithm by number, heur or find",
    k_flags, conv_run_mode, NULL};
