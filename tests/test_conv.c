/*
** test_conv.c: the convolution calls (forward, backward-data, backward-filter, backward-bias,
** the descriptor, workspace queries, Get_v7 and Find) against the double reference
** ref_conv_* (tests/ref/ref_conv.c) and against finite differences of that reference's forward.
**
** Black-box: public header and fixture only. The suites
**   conv_fwd::<algo>_<layout>, conv_bwd_data::<algo>_<layout>, conv_bwd_filter::<algo>_<layout>
**       Two tests per algorithm of each enum (the NCHW and the NHWC cases of the problem table
**       k_cases, so that the two layouts' program builds run in parallel). Per case:
**       cldnnGet<Dir>WorkspaceSize; NOT_SUPPORTED (any status of that category) means the
**       algorithm does not claim the problem, and then the run call must say NOT_SUPPORTED as
**       well and leave the output alone. Otherwise the run gets exactly that workspace (NULL
**       when 0) at a byte offset in a NaN-poisoned buffer; the output is poisoned (NaN when
**       beta == 0, random otherwise); every output element is compared with
**       alpha * ref + beta * prior, the inputs must come back unchanged, and so must every
**       output element outside the view and every workspace byte outside [offset, offset + size).
**   conv_select   every case is claimed by at least one algorithm per direction; the output
**                 dims agree with the reference; MaxCount; Get_v7 (every algorithm once,
**                 applicable ones first with SUCCESS and their exact workspace, the first one
**                 runs correctly, at most `requested` entries written); Find*Ex (SUCCESS entries
**                 sorted by finite positive time, the output holds a correct result afterwards,
**                 a too-small workspace turns the greedy algorithms into SIZE_INSUFFICIENT).
**   conv_grad     the library's backward-data and backward-filter (every applicable algorithm)
**                 against central differences of L = sum(dy * conv(x, w)) with the reference
**                 forward in double (L is linear, so h = 1e-2 is exact up to rounding).
**   conv_bias     cldnnConvolutionBackwardBias, db 1 x K x 1 x 1, NCHW / NHWC / padded dy, every
**                 (alpha, beta) pair of the fixture.
**   conv_half     HALF storage (x, w, y half, float arithmetic): a subset of the table through
**                 every algorithm that claims it, Get_v7 and Find, the bias, and bad data types
**                 (mixed types BAD_PARAM, others NOT_SUPPORTED_DATA_TYPE, odd byte offsets).
**                 The reference reads the half-rounded inputs; the tolerance adds the output's
**                 one rounding to half (2^-11 relative, 2^-25 absolute).
**   conv_wino     the Winograd algorithms per tile size (F(4x4) under DEFAULT_MATH, F(2x2) under
**                 FMA_MATH): fused (forward, backward-data) and non-fused (all three) on random
**                 3x3 stride-1 problems (batch 1, C and K not multiples of any block, partial
**                 tiles, both layouts, padded views, offsets, alpha/beta); the accuracy bound
**                 (relative error of the output's range over layer-like shapes, distribution
**                 logged; F(2x2) within 2x of the implicit GEMM's error, as FMA_MATH requires);
**                 Get_v7 and Find list fused WINOGRAD.
**   conv_desc     descriptor Set/Get round trips, cldnnGetConvolution2dForwardOutputDim, and
**                 every bad input: NULL pointers, negative pad, zero stride or dilation, zero
**                 groups, enums out of range, mismatched y / dx / dy / dw, channels that do not
**                 match filter C * groups, workspace 4 bytes short, misaligned offsets.
**
** The table: NCHW and NHWC (filter KCRS and KRSC), strides 1-3, pads 0..window-1 (larger than
** half the window included), dilation 1-2, unequal h/w values, 1x1 filters (stride 1 and 2),
** groups 2 and 3, depthwise (K = C and K = 2C), CONVOLUTION and CROSS_CORRELATION, N = 1, C = 1,
** 1x1 outputs, byte offsets on every buffer (0 on one case), padded 4dEx x and y for the forward
** (NCHW-ordered, and a padded channels-last y under an NHWC x), and two layer-like cases (ResNet 3x3
** stride 2 at C = 24, K = 20, 15x15, and a 1x1 at C = 36) large enough for a GEMM tile's interior
** (over 64 output pixels, over 16 channels, reduction depth over 32).
**
** Tolerance, per element: |got - want| <= 1e-6 + rtol * (|alpha| mag + |beta prior|), mag = the
** sum of |terms| of the element's sum (ref_conv_*'s *mag: the scale of a float sum's rounding
** error), rtol = 1e-5 for the direct, GEMM and implicit-GEMM algorithms and 1e-4 for FFT and
** Winograd ones, whose transforms add rounding beyond the terms themselves.
**
** Cost: sizes are small (C, K <= 36, H, W <= 15) so the references are instant; the time is
** PoCL building the program variants the table reaches (about 40, 2 to 8 s each), once, cached
** across suites by PoCL's own cache (POCL_CACHE_DIR; cldnn's disk cache on other devices). conv_select sorts last so that its calls, which
** reach the same variants, find them built. Failures print the seed:
** CLDNN_TEST_SEED=<seed> ./test_conv --filter 'conv_fwd/gemm_nchw'.
*/
#include "fixture.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

TestSuite(conv_fwd, .fini = fx_fini);
TestSuite(conv_bwd_data, .fini = fx_fini);
TestSuite(conv_bwd_filter, .fini = fx_fini);
TestSuite(conv_select, .fini = fx_fini);
TestSuite(conv_grad, .fini = fx_fini);
TestSuite(conv_bias, .fini = fx_fini);
TestSuite(conv_desc, .fini = fx_fini);
TestSuite(conv_half, .fini = fx_fini);
TestSuite(conv_bf16, .fini = fx_fini);
TestSuite(conv_wino, .fini = fx_fini);

#define ATOL 1e-6
#define RTOL 1e-5
#define RTOL_TRANSFORM 1e-4 /* FFT and Winograd */
#define WS_TAIL 64          /* bytes after a workspace that must stay untouched */
#define MAX_ALGOS 16
#define HALF_REL (1.0 / 2048.0)     /* a half output's rounding: 0.5 ulp, relative (2^-11) */
#define HALF_ABS (1.0 / 33554432.0) /* ... and absolute near 0 (half the subnormal spacing, 2^-25) */
#define BF16_REL (1.0 / 256.0)      /* a bfloat16 output's rounding: 0.5 ulp, relative (2^-8) */

/* The data type of this process's problems (x, w, y alike): FLOAT, or HALF for the conv_half
** suite, whose tests set it first (Criterion runs every test in its own process). The table's
** element offsets and the reference's inputs (the values the device holds) are the same for
** both; HALF outputs add their rounding to the tolerance (out_tolerance). */
static cldnnDataType_t g_dt = CLDNN_DATA_FLOAT;

/* The convolution descriptor's math type of this process's problems: DEFAULT_MATH, or what a
** test sets (conv_wino and conv_grad set FMA_MATH to reach Winograd F(2x2)). */
static cldnnMathType_t g_math = CLDNN_DEFAULT_MATH;

/* ----------------------------------------------------------------------------- directions */

typedef enum { DIR_FWD = 0, DIR_BWD_DATA = 1, DIR_BWD_FILTER = 2 } conv_dir;

static const char* const k_dir_name[3] = {"forward", "backward-data", "backward-filter"};
static const int k_algo_count[3] = {CLDNN_CONVOLUTION_FWD_ALGO_COUNT, CLDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT,
                                    CLDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT};
static const char* const k_fwd_algo_name[] = {"IMPLICIT_GEMM", "IMPLICIT_PRECOMP_GEMM", "GEMM", "DIRECT",
                                              "FFT", "FFT_TILING", "WINOGRAD", "WINOGRAD_NONFUSED"};
static const char* const k_bwd_data_algo_name[] = {"ALGO_0", "ALGO_1", "FFT", "FFT_TILING", "WINOGRAD",
                                                   "WINOGRAD_NONFUSED"};
static const char* const k_bwd_filter_algo_name[] = {"ALGO_0", "ALGO_1", "FFT", "ALGO_3", "WINOGRAD",
                                                     "WINOGRAD_NONFUSED", "FFT_TILING"};

/* The enum name of algorithm a of direction d ("?" outside the enum). */
static const char* algo_name(conv_dir d, int a) {
    if (a < 0 || a >= k_algo_count[d])
        return "?";
    return d == DIR_FWD ? k_fwd_algo_name[a] : d == DIR_BWD_DATA ? k_bwd_data_algo_name[a] : k_bwd_filter_algo_name[a];
}

/* FFT and Winograd algorithms transform their operands, so their error is not bounded by the
** terms of the sum alone. */
static double rtol_for(conv_dir d, int a) {
    int transform;
    if (d == DIR_FWD)
        transform = a >= CLDNN_CONVOLUTION_FWD_ALGO_FFT;
    else if (d == DIR_BWD_DATA)
        transform = a >= CLDNN_CONVOLUTION_BWD_DATA_ALGO_FFT;
    else
        transform = a == CLDNN_CONVOLUTION_BWD_FILTER_ALGO_FFT || a >= CLDNN_CONVOLUTION_BWD_FILTER_ALGO_WINOGRAD;
    return transform ? RTOL_TRANSFORM : RTOL;
}

static int is_not_supported(cldnnStatus_t s) { return CLDNN_STATUS_CATEGORY(s) == CLDNN_STATUS_NOT_SUPPORTED; }

/* Requires `call` to fail with a status of category `cat` (BAD_PARAM, NOT_SUPPORTED) and a
** non-empty last-error string. */
#define EXPECT_CATEGORY(cat, call)                                                                      \
    do {                                                                                                \
        cldnnStatus_t ec_got_ = (call);                                                                 \
        char ec_err_[2048];                                                                             \
        fx_last_error(ec_err_, sizeof ec_err_);                                                         \
        FX_ASSERT((int)CLDNN_STATUS_CATEGORY(ec_got_) == (int)(cat),                                   \
                  "%s:%d: %s\n  returned %s (%d), expected a %s status",                                \
                  __FILE__, __LINE__, #call, cldnnGetErrorString(ec_got_), (int)ec_got_,                \
                  cldnnGetErrorString(cat));                                                            \
        FX_ASSERT(ec_err_[0] != '\0', "%s:%d: %s\n  failed with %s but left an empty last-error string", \
                  __FILE__, __LINE__, #call, cldnnGetErrorString(ec_got_));                             \
    } while (0)

/* ----------------------------------------------------------------------------- the table */

typedef struct {
    const char* name;
    int n, c, h, w, k, r, s;
    int ph, pw, sh, sw, dh, dw, groups;
    cldnnConvolutionMode_t mode;
    int nhwc;         /* x/y NHWC and filter KRSC, else NCHW and KCRS */
    int ex;           /* forward only: 1 x and y padded NCHW-ordered 4dEx; 2 y padded channels-last */
    float alpha, beta;
    size_t off;       /* element offsets: x off, y off + 1, w off + 2, workspace off + 3 */
} conv_case;

#define XC CLDNN_CROSS_CORRELATION
#define CV CLDNN_CONVOLUTION

static const conv_case k_cases[] = {
    /* name                          n  c   h   w   k   r  s  ph pw sh sw dh dw g  mode nhwc ex alpha beta off */
    {"3x3 pad 1",                    2, 3,  7,  6,  4,  3, 3, 1, 1, 1, 1, 1, 1, 1, XC, 0, 0, 1.0f, 0.0f, 3},
    {"3x3 pad 1 nhwc",               2, 3,  7,  6,  4,  3, 3, 1, 1, 1, 1, 1, 1, 1, XC, 1, 0, 0.5f, 0.25f, 1},
    {"stride 2x3 asym pad",          2, 5,  9, 11,  6,  3, 3, 2, 0, 2, 3, 1, 1, 1, XC, 0, 0, 2.0f, -1.0f, 5},
    {"dilation 2 conv nhwc",         1, 4, 10,  9,  3,  3, 3, 2, 1, 1, 1, 2, 2, 1, CV, 1, 0, 1.0f, 0.0f, 2},
    {"dilation 2x1 2x3 conv",        2, 3,  8, 11,  5,  2, 3, 1, 2, 1, 2, 2, 1, 1, CV, 0, 0, 0.5f, 0.25f, 7},
    {"pad = window-1",               1, 2,  5,  6,  3,  3, 3, 2, 2, 1, 1, 1, 1, 1, XC, 0, 0, 1.0f, 0.0f, 1},
    {"5x4 pad 4x3 stride 3x2 conv",  2, 3,  7,  8,  2,  5, 4, 4, 3, 3, 2, 1, 1, 1, CV, 1, 0, 2.0f, -1.0f, 4},
    {"1x1",                          2, 12, 5,  7, 10,  1, 1, 0, 0, 1, 1, 1, 1, 1, XC, 0, 0, 1.0f, 0.0f, 6},
    /* one image: the NCHW weight gradient's GEMM writes dw itself (alpha, beta) */
    {"1x1 one image",                1, 12, 5,  7, 10,  1, 1, 0, 0, 1, 1, 1, 1, 1, XC, 0, 0, 0.5f, 0.25f, 3},
    {"1x1 stride 2 nhwc",            3, 6,  7,  6,  8,  1, 1, 0, 0, 2, 2, 1, 1, 1, XC, 1, 0, 0.5f, 0.25f, 2},
    {"groups 2",                     2, 6,  6,  7,  4,  3, 3, 1, 1, 1, 1, 1, 1, 2, XC, 0, 0, 1.0f, 0.0f, 3},
    {"groups 3 stride 2x1 conv nhwc",1, 9,  7,  5,  6,  3, 3, 1, 0, 2, 1, 1, 1, 3, CV, 1, 0, 2.0f, -1.0f, 1},
    {"depthwise K=C",                2, 8,  9,  9,  8,  3, 3, 1, 1, 1, 1, 1, 1, 8, XC, 0, 0, 1.0f, 0.0f, 5},
    {"depthwise K=2C stride 2 nhwc", 1, 6,  8,  9, 12,  3, 3, 1, 1, 2, 2, 1, 1, 6, XC, 1, 0, 0.5f, 0.25f, 2},
    {"N=1 C=1 K=1 2x2",              1, 1,  6,  5,  1,  2, 2, 0, 0, 1, 1, 1, 1, 1, CV, 0, 0, 1.0f, 0.0f, 0},
    {"output 1x1",                   2, 4,  3,  3,  5,  3, 3, 0, 0, 1, 1, 1, 1, 1, XC, 0, 0, 2.0f, -1.0f, 1},
    {"output 1x1 from padding nhwc", 1, 3,  2,  2,  2,  4, 4, 1, 1, 2, 3, 1, 1, 1, CV, 1, 0, 1.0f, 0.0f, 3},
    {"padded 4dEx x and y",          2, 3,  6,  7,  4,  3, 3, 1, 1, 1, 1, 1, 1, 1, XC, 0, 1, 0.5f, 0.25f, 2},
    {"nhwc x, channels-last padded y", 2, 5, 6, 5,  3,  3, 2, 1, 0, 1, 2, 1, 1, 1, XC, 1, 2, 1.0f, 0.0f, 1},
    {"resnet 3x3 stride 2",          2, 24, 15, 15, 20, 3, 3, 1, 1, 2, 2, 1, 1, 1, XC, 0, 0, 1.0f, 0.0f, 4},
    {"resnet 3x3 stride 2 nhwc",     2, 24, 15, 15, 20, 3, 3, 1, 1, 2, 2, 1, 1, 1, XC, 1, 0, 0.5f, 0.25f, 1},
    {"1x1 C=36 nhwc",                1, 36, 9,  9, 20,  1, 1, 0, 0, 1, 1, 1, 1, 1, XC, 1, 0, 2.0f, -1.0f, 3},
    /* Planes of 24+ columns take the tiled depthwise kernel (forward, and backward-data at unit
    ** stride with one output channel per input channel): tile edges, halo and dilation. */
    {"depthwise wide plane",         1, 3, 27, 35,  3,  3, 3, 1, 1, 1, 1, 1, 1, 3, XC, 0, 0, 1.0f, 0.0f, 2},
    {"depthwise wide 5x3 dil 2 conv",1, 2, 21, 40,  2,  5, 3, 3, 1, 1, 1, 2, 2, 2, CV, 0, 0, 0.5f, 0.25f, 1},
};
#define NCASES (sizeof k_cases / sizeof k_cases[0])

/* ------------------------------------------------------------------------------- problem */

/* One problem on the device. x, w, y hold the three tensors of every direction (y is dy for
** the backward ones, x is dx and w is dw for their outputs); w is the filter's data as a
** K x C/groups x R x S tensor in the filter's format, described to the library by wdesc. */
typedef struct {
    const conv_case* cs;
    conv_dir dir;
    ref_conv p;
    cldnnConvolutionDescriptor_t conv;
    cldnnFilterDescriptor_t wdesc;
    fx_tensor x, w, y;
} prob;

/* The tensor pb's direction writes: y, dx (in x) or dw (in w). */
static fx_tensor* prob_out(prob* pb) { return pb->dir == DIR_FWD ? &pb->y : pb->dir == DIR_BWD_DATA ? &pb->x : &pb->w; }

/* Fills an input: NaN everywhere (a read outside the view leaks), then uniform values in the view. */
static void fill_input(fx_tensor* t) {
    fx_tensor_poison_nan(t);
    fx_tensor_fill_uniform(t, -1.0, 1.0);
    fx_tensor_upload(t);
}

/* Sets up case c for direction dir (the padded layouts only for the forward). */
static void prob_init(prob* pb, const conv_case* c, conv_dir dir) {
    memset(pb, 0, sizeof *pb);
    pb->cs = c;
    pb->dir = dir;
    int rc = ref_conv_init(&pb->p, c->n, c->c, c->h, c->w, c->k, c->r, c->s, c->ph, c->pw, c->sh, c->sw, c->dh, c->dw,
                           c->groups, c->mode == CLDNN_CONVOLUTION, c->nhwc);
    FX_ASSERT(rc == 0, "case \"%s\" is not a valid convolution", c->name);
    int P = (int)pb->p.p, Q = (int)pb->p.q, cg = c->c / c->groups;
    cldnnTensorFormat_t fmt = c->nhwc ? CLDNN_TENSOR_NHWC : CLDNN_TENSOR_NCHW;
    const size_t es = fx_dtype_size(g_dt);
    size_t xo = c->off * es, yo = (c->off + 1) * es, wo = (c->off + 2) * es;
    int ex = dir == DIR_FWD ? c->ex : 0;
    if (ex == 1) {
        int hs = c->w + 2, cs = (c->h + 1) * hs, ns = c->c * cs + 3;
        fx_tensor_4d_ex(&pb->x, g_dt, c->n, c->c, c->h, c->w, ns, cs, hs, 1, xo);
        int yhs = Q + 1, ycs = P * yhs + 2, yns = c->k * ycs + 1;
        fx_tensor_4d_ex(&pb->y, g_dt, c->n, c->k, P, Q, yns, ycs, yhs, 1, yo);
    } else if (ex == 2) {
        fx_tensor_4d(&pb->x, fmt, g_dt, c->n, c->c, c->h, c->w, xo);
        int yws = c->k + 2, yhs = Q * yws + 1, yns = P * yhs + 3;
        fx_tensor_4d_ex(&pb->y, g_dt, c->n, c->k, P, Q, yns, 1, yhs, yws, yo);
    } else {
        fx_tensor_4d(&pb->x, fmt, g_dt, c->n, c->c, c->h, c->w, xo);
        fx_tensor_4d(&pb->y, fmt, g_dt, c->n, c->k, P, Q, yo);
    }
    fx_tensor_4d(&pb->w, fmt, g_dt, c->k, cg, c->r, c->s, wo);
    for (int d = 0; d < 4; d++) {
        pb->p.xs[d] = pb->x.view.strides[d];
        pb->p.ws[d] = pb->w.view.strides[d];
        pb->p.ys[d] = pb->y.view.strides[d];
    }
    FX_OK(cldnnCreateFilterDescriptor(&pb->wdesc));
    FX_OK(cldnnSetFilter4dDescriptor(pb->wdesc, g_dt, fmt, c->k, cg, c->r, c->s));
    FX_OK(cldnnCreateConvolutionDescriptor(&pb->conv));
    FX_OK(cldnnSetConvolution2dDescriptor(pb->conv, c->ph, c->pw, c->sh, c->sw, c->dh, c->dw, c->mode,
                                          CLDNN_DATA_FLOAT));
    FX_OK(cldnnSetConvolutionGroupCount(pb->conv, c->groups));
    if (g_math != CLDNN_DEFAULT_MATH)
        FX_OK(cldnnSetConvolutionMathType(pb->conv, g_math));
    fx_tensor* ins[3][2] = {{&pb->x, &pb->w}, {&pb->w, &pb->y}, {&pb->x, &pb->y}};
    fill_input(ins[dir][0]);
    fill_input(ins[dir][1]);
    fx_poison_out(prob_out(pb), c->beta);
    fx_tensor_upload(prob_out(pb));
}

/* Releases pb's tensors and descriptors; zeroes pb. */
static void prob_free(prob* pb) {
    fx_tensor_free(&pb->x);
    fx_tensor_free(&pb->w);
    fx_tensor_free(&pb->y);
    cldnnDestroyFilterDescriptor(pb->wdesc);
    cldnnDestroyConvolutionDescriptor(pb->conv);
    memset(pb, 0, sizeof *pb);
}

/* The view's first element in a host mirror as floats (the reference indexes it by stride): the
** mirror itself for FLOAT; for HALF and BFLOAT16 a widened copy of the whole buffer, left in
** *copy for the caller to free (NULL for FLOAT). */
static const float* view_floats(const fx_tensor* t, float** copy) {
    *copy = NULL;
    if (t->dtype == CLDNN_DATA_FLOAT)
        return (const float*)(const void*)t->host + t->offset / 4;
    *copy = malloc(t->nbuf * sizeof(float));
    FX_ASSERT(*copy != NULL, "out of memory");
    for (size_t i = 0; i < t->nbuf; i++) {
        uint16_t h;
        memcpy(&h, t->host + 2 * i, 2);
        (*copy)[i] = t->dtype == CLDNN_DATA_HALF ? fx_half_to_float(h) : fx_bf16_to_float(h);
    }
    return *copy + t->offset / 2;
}

/* Turns scale[i] (the magnitude a float result's rounding error scales with) into element i's
** tolerance: atol + rtol * scale, plus for HALF and BFLOAT16 outputs their one rounding. */
static void out_tolerance(const double* want, double* scale, int64_t n, double atol, double rtol) {
    for (int64_t i = 0; i < n; i++) {
        double acc = atol + rtol * scale[i];
        scale[i] = g_dt == CLDNN_DATA_HALF       ? acc + HALF_REL * (fabs(want[i]) + acc) + HALF_ABS
                   : g_dt == CLDNN_DATA_BFLOAT16 ? acc + BF16_REL * (fabs(want[i]) + acc)
                                                 : acc;
    }
}

/* want/scale over the output's view (logical row-major order), from the host mirrors. */
static void prob_reference(const prob* pb, float alpha, float beta, double* want, double* scale) {
    const ref_conv* p = &pb->p;
    float *cx, *cw, *cy;
    const float *x = view_floats(&pb->x, &cx), *w = view_floats(&pb->w, &cw), *y = view_floats(&pb->y, &cy);
    const fx_tensor* out = pb->dir == DIR_FWD ? &pb->y : pb->dir == DIR_BWD_DATA ? &pb->x : &pb->w;
    int64_t idx[4];
    for (int64_t i = 0; i < out->count; i++) {
        fx_unravel(&out->view, i, idx);
        double mag = 0, v;
        if (pb->dir == DIR_FWD)
            v = ref_conv_fwd_at(p, x, w, idx[0], idx[1], idx[2], idx[3], &mag);
        else if (pb->dir == DIR_BWD_DATA)
            v = ref_conv_bwd_data_at(p, w, y, idx[0], idx[1], idx[2], idx[3], &mag);
        else
            v = ref_conv_bwd_filter_at(p, x, y, idx[0], idx[1], idx[2], idx[3], &mag);
        double prior = beta != 0.0f ? beta * fx_tensor_host(out, i) : 0.0;
        want[i] = alpha * v + prior;
        scale[i] = fabs(alpha) * mag + fabs(prior);
    }
    free(cx);
    free(cw);
    free(cy);
}

/* "2x3x7x6 k4 3x3 pad 1,1 str 1,1 dil 1,1 g1 CROSS nchw" for messages. */
static const char* describe(const conv_case* c, char* buf, size_t size) {
    snprintf(buf, size, "\"%s\" (x %dx%dx%dx%d, w %dx%dx%dx%d, pad %d,%d stride %d,%d dil %d,%d groups %d, %s, %s%s)",
             c->name, c->n, c->c, c->h, c->w, c->k, c->c / c->groups, c->r, c->s, c->ph, c->pw, c->sh, c->sw, c->dh,
             c->dw, c->groups, c->mode == CLDNN_CONVOLUTION ? "CONVOLUTION" : "CROSS_CORRELATION",
             c->nhwc ? "NHWC/KRSC" : "NCHW/KCRS", c->ex == 1 ? ", padded x and y" : c->ex == 2 ? ", padded y" : "");
    return buf;
}

/* ----------------------------------------------------------------------- calls by direction */

/* cldnnGet<Dir>WorkspaceSize of algo for pb's direction. */
static cldnnStatus_t ws_query(const prob* pb, int algo, size_t* need) {
    cldnnHandle_t h = fx_handle();
    switch (pb->dir) {
    case DIR_FWD:
        return cldnnGetConvolutionForwardWorkspaceSize(h, pb->x.desc, pb->wdesc, pb->conv, pb->y.desc,
                                                       (cldnnConvolutionFwdAlgo_t)algo, need);
    case DIR_BWD_DATA:
        return cldnnGetConvolutionBackwardDataWorkspaceSize(h, pb->wdesc, pb->y.desc, pb->conv, pb->x.desc,
                                                            (cldnnConvolutionBwdDataAlgo_t)algo, need);
    default:
        return cldnnGetConvolutionBackwardFilterWorkspaceSize(h, pb->x.desc, pb->y.desc, pb->conv, pb->wdesc,
                                                              (cldnnConvolutionBwdFilterAlgo_t)algo, need);
    }
}

/* Runs pb's direction with algo: the output (y, dx or dw) = alpha * op + beta * output. */
static cldnnStatus_t run_algo(const prob* pb, int algo, cl_mem ws, size_t ws_off, size_t ws_size, float alpha,
                              float beta) {
    cldnnHandle_t h = fx_handle();
    const fx_tensor *x = &pb->x, *w = &pb->w, *y = &pb->y;
    switch (pb->dir) {
    case DIR_FWD:
        return cldnnConvolutionForward(h, &alpha, x->desc, x->mem, x->offset, pb->wdesc, w->mem, w->offset, pb->conv,
                                       (cldnnConvolutionFwdAlgo_t)algo, ws, ws_off, ws_size, &beta, y->desc, y->mem,
                                       y->offset);
    case DIR_BWD_DATA:
        return cldnnConvolutionBackwardData(h, &alpha, pb->wdesc, w->mem, w->offset, y->desc, y->mem, y->offset,
                                            pb->conv, (cldnnConvolutionBwdDataAlgo_t)algo, ws, ws_off, ws_size,
                                            &beta, x->desc, x->mem, x->offset);
    default:
        return cldnnConvolutionBackwardFilter(h, &alpha, x->desc, x->mem, x->offset, y->desc, y->mem, y->offset,
                                              pb->conv, (cldnnConvolutionBwdFilterAlgo_t)algo, ws, ws_off, ws_size,
                                              &beta, pb->wdesc, w->mem, w->offset);
    }
}

/* One Get_v7 or Find answer, whatever the direction. */
typedef struct {
    int algo;
    cldnnStatus_t status;
    float time;
    size_t memory;
} perf_entry;

#define PERF_SENTINEL (-77)

/* Copies n entries of a direction's perf array into out[]. */
#define COPY_PERF(out, src, n)                     \
    for (int cp_ = 0; cp_ < (n); cp_++) {          \
        (out)[cp_].algo = (int)(src)[cp_].algo;    \
        (out)[cp_].status = (src)[cp_].status;     \
        (out)[cp_].time = (src)[cp_].time;         \
        (out)[cp_].memory = (src)[cp_].memory;     \
    }

/* Get_v7 for pb's direction; all MAX_ALGOS entries are copied back (those not written keep
** algo == PERF_SENTINEL). */
static cldnnStatus_t get_v7(const prob* pb, int requested, int* returned, perf_entry* out) {
    cldnnHandle_t h = fx_handle();
    cldnnStatus_t s;
    if (pb->dir == DIR_FWD) {
        cldnnConvolutionFwdAlgoPerf_t pf[MAX_ALGOS];
        memset(pf, 0, sizeof pf);
        for (int i = 0; i < MAX_ALGOS; i++)
            pf[i].algo = (cldnnConvolutionFwdAlgo_t)PERF_SENTINEL;
        s = cldnnGetConvolutionForwardAlgorithm_v7(h, pb->x.desc, pb->wdesc, pb->conv, pb->y.desc, requested, returned,
                                                   pf);
        COPY_PERF(out, pf, MAX_ALGOS);
    } else if (pb->dir == DIR_BWD_DATA) {
        cldnnConvolutionBwdDataAlgoPerf_t pf[MAX_ALGOS];
        memset(pf, 0, sizeof pf);
        for (int i = 0; i < MAX_ALGOS; i++)
            pf[i].algo = (cldnnConvolutionBwdDataAlgo_t)PERF_SENTINEL;
        s = cldnnGetConvolutionBackwardDataAlgorithm_v7(h, pb->wdesc, pb->y.desc, pb->conv, pb->x.desc, requested,
                                                        returned, pf);
        COPY_PERF(out, pf, MAX_ALGOS);
    } else {
        cldnnConvolutionBwdFilterAlgoPerf_t pf[MAX_ALGOS];
        memset(pf, 0, sizeof pf);
        for (int i = 0; i < MAX_ALGOS; i++)
            pf[i].algo = (cldnnConvolutionBwdFilterAlgo_t)PERF_SENTINEL;
        s = cldnnGetConvolutionBackwardFilterAlgorithm_v7(h, pb->x.desc, pb->y.desc, pb->conv, pb->wdesc, requested,
                                                          returned, pf);
        COPY_PERF(out, pf, MAX_ALGOS);
    }
    return s;
}

/* Find*Ex for pb's direction (overwrites the output); all MAX_ALGOS entries copied back as get_v7. */
static cldnnStatus_t find_ex(const prob* pb, int requested, int* returned, perf_entry* out, cl_mem ws, size_t ws_off,
                             size_t ws_size) {
    cldnnHandle_t h = fx_handle();
    const fx_tensor *x = &pb->x, *w = &pb->w, *y = &pb->y;
    cldnnStatus_t s;
    if (pb->dir == DIR_FWD) {
        cldnnConvolutionFwdAlgoPerf_t pf[MAX_ALGOS];
        memset(pf, 0, sizeof pf);
        for (int i = 0; i < MAX_ALGOS; i++)
            pf[i].algo = (cldnnConvolutionFwdAlgo_t)PERF_SENTINEL;
        s = cldnnFindConvolutionForwardAlgorithmEx(h, x->desc, x->mem, x->offset, pb->wdesc, w->mem, w->offset,
                                                   pb->conv, y->desc, y->mem, y->offset, requested, returned, pf, ws,
                                                   ws_off, ws_size);
        COPY_PERF(out, pf, MAX_ALGOS);
    } else if (pb->dir == DIR_BWD_DATA) {
        cldnnConvolutionBwdDataAlgoPerf_t pf[MAX_ALGOS];
        memset(pf, 0, sizeof pf);
        for (int i = 0; i < MAX_ALGOS; i++)
            pf[i].algo = (cldnnConvolutionBwdDataAlgo_t)PERF_SENTINEL;
        s = cldnnFindConvolutionBackwardDataAlgorithmEx(h, pb->wdesc, w->mem, w->offset, y->desc, y->mem, y->offset,
                                                        pb->conv, x->desc, x->mem, x->offset, requested, returned, pf,
                                                        ws, ws_off, ws_size);
        COPY_PERF(out, pf, MAX_ALGOS);
    } else {
        cldnnConvolutionBwdFilterAlgoPerf_t pf[MAX_ALGOS];
        memset(pf, 0, sizeof pf);
        for (int i = 0; i < MAX_ALGOS; i++)
            pf[i].algo = (cldnnConvolutionBwdFilterAlgo_t)PERF_SENTINEL;
        s = cldnnFindConvolutionBackwardFilterAlgorithmEx(h, x->desc, x->mem, x->offset, y->desc, y->mem, y->offset,
                                                          pb->conv, pb->wdesc, w->mem, w->offset, requested, returned,
                                                          pf, ws, ws_off, ws_size);
        COPY_PERF(out, pf, MAX_ALGOS);
    }
    return s;
}

/* cldnnGetConvolution<Dir>AlgorithmMaxCount. */
static cldnnStatus_t max_count(conv_dir d, int* count) {
    if (d == DIR_FWD)
        return cldnnGetConvolutionForwardAlgorithmMaxCount(fx_handle(), count);
    if (d == DIR_BWD_DATA)
        return cldnnGetConvolutionBackwardDataAlgorithmMaxCount(fx_handle(), count);
    return cldnnGetConvolutionBackwardFilterAlgorithmMaxCount(fx_handle(), count);
}

/* ------------------------------------------------------------------------------ workspace */

/* A workspace of `size` bytes at byte offset `off` in a buffer poisoned with NaN (floats),
** WS_TAIL bytes after it. size 0: no buffer (mem NULL). */
typedef struct {
    cl_mem mem;
    size_t off, size, total;
    unsigned char *host, *got;
} workspace;

static void ws_make(workspace* ws, size_t off, size_t size) {
    memset(ws, 0, sizeof *ws);
    if (size == 0)
        return;
    ws->off = off;
    ws->size = size;
    ws->total = (off + size + WS_TAIL + 3) / 4 * 4;
    ws->host = malloc(ws->total);
    ws->got = malloc(ws->total);
    FX_ASSERT(ws->host && ws->got, "out of memory");
    ref_fill_nan((float*)(void*)ws->host, ws->total / 4);
    ws->mem = fx_buffer(ws->total);
    fx_write(ws->mem, 0, ws->host, ws->total);
}

/* Bytes outside [off, off + size) that changed. */
static size_t ws_outside_changed(workspace* ws) {
    if (ws->mem == NULL)
        return 0;
    fx_read(ws->mem, 0, ws->got, ws->total);
    size_t n = 0;
    for (size_t i = 0; i < ws->total; i++)
        if ((i < ws->off || i >= ws->off + ws->size) && ws->host[i] != ws->got[i])
            n++;
    return n;
}

/* Releases ws (a no-buffer workspace too); zeroes it. */
static void ws_free(workspace* ws) {
    fx_release(ws->mem);
    free(ws->host);
    free(ws->got);
    memset(ws, 0, sizeof *ws);
}

/* ------------------------------------------------------------------------------- checking */

/* Downloads pb's output and compares it with the reference for (alpha, beta); also requires the
** inputs and the output's gaps to be unchanged. Returns the worst error / tolerance ratio. */
static double check_output(prob* pb, int algo, float alpha, float beta, double rtol, const char* ctx) {
    fx_tensor* out = prob_out(pb);
    double* want = malloc((size_t)out->count * sizeof(double));
    double* scale = malloc((size_t)out->count * sizeof(double));
    FX_ASSERT(want && scale, "out of memory");
    prob_reference(pb, alpha, beta, want, scale);
    fx_tensor_download(out);
    char msg[512], d[320];
    double worst = 0;
    out_tolerance(want, scale, out->count, ATOL, rtol);
    int64_t bad = fx_compare(out, want, scale, 0.0, 1.0, msg, sizeof msg, &worst);
    FX_ASSERT(bad == 0, "%s %s %s %s, case %s, alpha %g beta %g: %lld of %lld wrong (rtol %g); first: %s",
              ctx, fx_dtype_name(g_dt), k_dir_name[pb->dir], algo_name(pb->dir, algo),
              describe(pb->cs, d, sizeof d), alpha, beta, (long long)bad, (long long)out->count, rtol, msg);
    int64_t gaps = fx_tensor_gaps_changed(out);
    FX_ASSERT(gaps == 0, "%s %s %s, case %s: %lld output elements outside the view changed", ctx,
              k_dir_name[pb->dir], algo_name(pb->dir, algo), describe(pb->cs, d, sizeof d), (long long)gaps);
    fx_tensor* ins[3][2] = {{&pb->x, &pb->w}, {&pb->w, &pb->y}, {&pb->x, &pb->y}};
    const char* in_names[3][2] = {{"x", "w"}, {"w", "dy"}, {"x", "dy"}};
    for (int k = 0; k < 2; k++)
        fx_expect_untouched(ins[pb->dir][k], in_names[pb->dir][k], describe(pb->cs, d, sizeof d));
    free(want);
    free(scale);
    return worst;
}

/* Runs algorithm `algo` of direction dir on case c. Returns 1 when the algorithm claimed the
** case (and its result was right), 0 when it said NOT_SUPPORTED (and the run said so too). */
static int check_case(const conv_case* c, conv_dir dir, int algo, double* worst) {
    prob pb;
    prob_init(&pb, c, dir);
    char d[320];
    size_t need = (size_t)-1;
    cldnnStatus_t s = ws_query(&pb, algo, &need);
    char err[2048];
    fx_last_error(err, sizeof err);
    if (is_not_supported(s)) {
        FX_ASSERT(err[0] != '\0', "%s %s workspace query said %s with no last-error detail", k_dir_name[dir],
                  algo_name(dir, algo), cldnnGetErrorString(s));
        cldnnStatus_t r = run_algo(&pb, algo, NULL, 0, 0, c->alpha, c->beta);
        fx_last_error(err, sizeof err);
        FX_ASSERT(is_not_supported(r) && err[0] != '\0',
                  "%s %s, case %s: the workspace query said %s but the run returned %s (detail \"%s\")",
                  k_dir_name[dir],
                  algo_name(dir, algo), describe(c, d, sizeof d), cldnnGetErrorString(s), cldnnGetErrorString(r), err);
        fx_expect_untouched(prob_out(&pb), "the output of a NOT_SUPPORTED run", describe(c, d, sizeof d));
        prob_free(&pb);
        return 0;
    }
    FX_ASSERT(s == CLDNN_STATUS_SUCCESS, "%s %s, case %s: workspace query returned %s (%s)", k_dir_name[dir],
              algo_name(dir, algo), describe(c, d, sizeof d), cldnnGetErrorString(s), err);
    FX_ASSERT(need < ((size_t)1 << 32), "%s %s, case %s: workspace %zu bytes", k_dir_name[dir], algo_name(dir, algo),
              describe(c, d, sizeof d), need);
    workspace ws;
    ws_make(&ws, need ? (c->off + 3) * 4 : 0, need);
    s = run_algo(&pb, algo, ws.mem, ws.off, ws.size, c->alpha, c->beta);
    fx_last_error(err, sizeof err);
    FX_ASSERT(s == CLDNN_STATUS_SUCCESS, "%s %s, case %s (workspace %zu bytes): run returned %s (%s)",
              k_dir_name[dir], algo_name(dir, algo), describe(c, d, sizeof d), need, cldnnGetErrorString(s), err);
    double wr = check_output(&pb, algo, c->alpha, c->beta, rtol_for(dir, algo), "table:");
    if (wr > *worst)
        *worst = wr;
    size_t changed = ws_outside_changed(&ws);
    FX_ASSERT(changed == 0, "%s %s, case %s: %zu workspace bytes outside [%zu, %zu) changed", k_dir_name[dir],
              algo_name(dir, algo), describe(c, d, sizeof d), changed, ws.off, ws.off + ws.size);
    ws_free(&ws);
    prob_free(&pb);
    return 1;
}

/* Every case of the table in one layout (nhwc 0: NCHW/KCRS cases, 1: NHWC/KRSC cases) through
** one algorithm. The two layouts are separate tests so that their program builds (disjoint
** kernel variants) run in parallel. */
static void check_algo(conv_dir dir, int algo, int nhwc) {
    double worst = 0;
    char claimed[512];
    size_t at = 0;
    int n = 0, of = 0;
    claimed[0] = '\0';
    for (size_t i = 0; i < NCASES; i++) {
        if (k_cases[i].nhwc != nhwc)
            continue;
        of++;
        if (check_case(&k_cases[i], dir, algo, &worst)) {
            n++;
            if (at < sizeof claimed)
                at += (size_t)snprintf(claimed + at, sizeof claimed - at, "%s%zu", n > 1 ? "," : "", i);
        }
    }
    cr_log_info("%s %s %s: claims %d of %d cases [%s]; largest error / tolerance = %.3f", k_dir_name[dir],
                algo_name(dir, algo), nhwc ? "NHWC" : "NCHW", n, of, claimed, worst);
}

/* Two tests (NCHW, NHWC) per algorithm. */
#define ALGO_TESTS(suite, id, dir, algo)                    \
    Test(suite, id##_nchw) { check_algo(dir, algo, 0); }    \
    Test(suite, id##_nhwc) { check_algo(dir, algo, 1); }

ALGO_TESTS(conv_fwd, implicit_gemm, DIR_FWD, CLDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM)
ALGO_TESTS(conv_fwd, implicit_precomp_gemm, DIR_FWD, CLDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM)
ALGO_TESTS(conv_fwd, gemm, DIR_FWD, CLDNN_CONVOLUTION_FWD_ALGO_GEMM)
ALGO_TESTS(conv_fwd, direct, DIR_FWD, CLDNN_CONVOLUTION_FWD_ALGO_DIRECT)
ALGO_TESTS(conv_fwd, fft, DIR_FWD, CLDNN_CONVOLUTION_FWD_ALGO_FFT)
ALGO_TESTS(conv_fwd, fft_tiling, DIR_FWD, CLDNN_CONVOLUTION_FWD_ALGO_FFT_TILING)
ALGO_TESTS(conv_fwd, winograd, DIR_FWD, CLDNN_CONVOLUTION_FWD_ALGO_WINOGRAD)
ALGO_TESTS(conv_fwd, winograd_nonfused, DIR_FWD, CLDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED)

ALGO_TESTS(conv_bwd_data, algo_0, DIR_BWD_DATA, CLDNN_CONVOLUTION_BWD_DATA_ALGO_0)
ALGO_TESTS(conv_bwd_data, algo_1, DIR_BWD_DATA, CLDNN_CONVOLUTION_BWD_DATA_ALGO_1)
ALGO_TESTS(conv_bwd_data, fft, DIR_BWD_DATA, CLDNN_CONVOLUTION_BWD_DATA_ALGO_FFT)
ALGO_TESTS(conv_bwd_data, fft_tiling, DIR_BWD_DATA, CLDNN_CONVOLUTION_BWD_DATA_ALGO_FFT_TILING)
ALGO_TESTS(conv_bwd_data, winograd, DIR_BWD_DATA, CLDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD)
ALGO_TESTS(conv_bwd_data, winograd_nonfused, DIR_BWD_DATA, CLDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD_NONFUSED)

ALGO_TESTS(conv_bwd_filter, algo_0, DIR_BWD_FILTER, CLDNN_CONVOLUTION_BWD_FILTER_ALGO_0)
ALGO_TESTS(conv_bwd_filter, algo_1, DIR_BWD_FILTER, CLDNN_CONVOLUTION_BWD_FILTER_ALGO_1)
ALGO_TESTS(conv_bwd_filter, fft, DIR_BWD_FILTER, CLDNN_CONVOLUTION_BWD_FILTER_ALGO_FFT)
ALGO_TESTS(conv_bwd_filter, algo_3, DIR_BWD_FILTER, CLDNN_CONVOLUTION_BWD_FILTER_ALGO_3)
ALGO_TESTS(conv_bwd_filter, winograd, DIR_BWD_FILTER, CLDNN_CONVOLUTION_BWD_FILTER_ALGO_WINOGRAD)
ALGO_TESTS(conv_bwd_filter, winograd_nonfused, DIR_BWD_FILTER, CLDNN_CONVOLUTION_BWD_FILTER_ALGO_WINOGRAD_NONFUSED)
ALGO_TESTS(conv_bwd_filter, fft_tiling, DIR_BWD_FILTER, CLDNN_CONVOLUTION_BWD_FILTER_ALGO_FFT_TILING)

/* ------------------------------------------------------------------------ algorithm choice */

/* Every case is claimed by some algorithm in every direction, and the library's output dims
** agree with the reference. Runs nothing. */
Test(conv_select, every_case_claimed) {
    char d[320];
    for (size_t i = 0; i < NCASES; i++) {
        const conv_case* c = &k_cases[i];
        for (int dir = 0; dir < 3; dir++) {
            prob pb;
            prob_init(&pb, c, (conv_dir)dir);
            if (dir == DIR_FWD) {
                int n = -1, k = -1, p = -1, q = -1;
                FX_OK(cldnnGetConvolution2dForwardOutputDim(pb.conv, pb.x.desc, pb.wdesc, &n, &k, &p, &q));
                FX_ASSERT(n == c->n && k == c->k && p == pb.p.p && q == pb.p.q,
                          "case %s: output dim %dx%dx%dx%d, want %dx%dx%lldx%lld", describe(c, d, sizeof d), n, k, p,
                          q, c->n, c->k, (long long)pb.p.p, (long long)pb.p.q);
            }
            int claimed = 0;
            for (int a = 0; a < k_algo_count[dir]; a++) {
                size_t need = 0;
                cldnnStatus_t s = ws_query(&pb, a, &need);
                FX_ASSERT(s == CLDNN_STATUS_SUCCESS || is_not_supported(s), "case %s, %s %s: workspace query said %s",
                          describe(c, d, sizeof d), k_dir_name[dir], algo_name((conv_dir)dir, a),
                          cldnnGetErrorString(s));
                claimed += s == CLDNN_STATUS_SUCCESS;
            }
            FX_ASSERT(claimed > 0, "case %s: no %s algorithm claims it", describe(c, d, sizeof d), k_dir_name[dir]);
            prob_free(&pb);
        }
    }
}

Test(conv_select, max_count) {
    for (int dir = 0; dir < 3; dir++) {
        int n = -1;
        FX_OK(max_count((conv_dir)dir, &n));
        FX_ASSERT(n == k_algo_count[dir], "%s MaxCount = %d, want %d", k_dir_name[dir], n, k_algo_count[dir]);
    }
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER,
                     cldnnGetConvolutionForwardAlgorithmMaxCount(fx_handle(), NULL));
    int n;
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, cldnnGetConvolutionBackwardDataAlgorithmMaxCount(NULL, &n));
}

/* Get_v7 on case c in direction dir: the full answer and a shorter one, then the first entry run. */
static void check_get_v7(const conv_case* c, conv_dir dir) {
    prob pb;
    prob_init(&pb, c, dir);
    char d[320];
    describe(c, d, sizeof d);
    int count = k_algo_count[dir], returned = -1;
    perf_entry pe[MAX_ALGOS];
    FX_OK(get_v7(&pb, count, &returned, pe));
    FX_ASSERT(returned == count, "%s Get_v7, case %s: returned %d of %d", k_dir_name[dir], d, returned, count);
    int seen[MAX_ALGOS] = {0}, n_ok = 0;
    for (int i = 0; i < count; i++) {
        FX_ASSERT(pe[i].algo >= 0 && pe[i].algo < count && !seen[pe[i].algo],
                  "%s Get_v7, case %s: entry %d has algo %d (missing, out of range or repeated)", k_dir_name[dir], d, i,
                  pe[i].algo);
        seen[pe[i].algo] = 1;
        size_t need = 0;
        cldnnStatus_t q = ws_query(&pb, pe[i].algo, &need);
        if (pe[i].status == CLDNN_STATUS_SUCCESS) {
            FX_ASSERT(i == n_ok, "%s Get_v7, case %s: SUCCESS entry %d (%s) after a failed one", k_dir_name[dir], d, i,
                      algo_name(dir, pe[i].algo));
            n_ok++;
            FX_ASSERT(q == CLDNN_STATUS_SUCCESS && need == pe[i].memory,
                      "%s Get_v7, case %s: %s memory %zu, workspace query %s %zu", k_dir_name[dir], d,
                      algo_name(dir, pe[i].algo), pe[i].memory, cldnnGetErrorString(q), need);
            FX_ASSERT(pe[i].time < 0.0f, "%s Get_v7, case %s: %s time %g (nothing runs: -1)", k_dir_name[dir], d,
                      algo_name(dir, pe[i].algo), (double)pe[i].time);
        } else {
            FX_ASSERT(is_not_supported(pe[i].status) && is_not_supported(q),
                      "%s Get_v7, case %s: %s status %s, workspace query %s", k_dir_name[dir], d,
                      algo_name(dir, pe[i].algo), cldnnGetErrorString(pe[i].status), cldnnGetErrorString(q));
        }
    }
    FX_ASSERT(n_ok > 0, "%s Get_v7, case %s: no algorithm applies", k_dir_name[dir], d);
    FX_ASSERT(pe[count].algo == PERF_SENTINEL, "%s Get_v7 wrote past its %d entries", k_dir_name[dir], count);

    /* a shorter request: the same ranking's prefix, nothing written after it */
    perf_entry p2[MAX_ALGOS];
    int r2 = -1;
    FX_OK(get_v7(&pb, 2, &r2, p2));
    FX_ASSERT(r2 == 2, "%s Get_v7(requested 2), case %s: returned %d", k_dir_name[dir], d, r2);
    for (int i = 0; i < 2; i++)
        FX_ASSERT(p2[i].algo == pe[i].algo && p2[i].status == pe[i].status,
                  "%s Get_v7(requested 2), case %s: entry %d is %s, the full answer has %s", k_dir_name[dir], d, i,
                  algo_name(dir, p2[i].algo), algo_name(dir, pe[i].algo));
    FX_ASSERT(p2[2].algo == PERF_SENTINEL, "%s Get_v7(requested 2) wrote a third entry", k_dir_name[dir]);

    /* the first choice runs correctly */
    workspace ws;
    ws_make(&ws, 12, pe[0].memory);
    FX_OK(run_algo(&pb, pe[0].algo, ws.mem, ws.off, ws.size, c->alpha, c->beta));
    check_output(&pb, pe[0].algo, c->alpha, c->beta, rtol_for(dir, pe[0].algo), "Get_v7's first");
    ws_free(&ws);
    prob_free(&pb);
}

Test(conv_select, get_v7) {
    const size_t cs[] = {0, 10, 12, 18};
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++)
        for (int dir = 0; dir < 3; dir++)
            check_get_v7(&k_cases[cs[i]], (conv_dir)dir);
}

/* Find on case c with a workspace of `ws_size` bytes: SUCCESS entries first, sorted by time,
** times finite and > 0, each within the workspace; SIZE_INSUFFICIENT exactly for the applicable
** algorithms that need more; the output then holds a correct (alpha 1, beta 0) result. */
static void check_find(const conv_case* c, conv_dir dir, int small_ws) {
    prob pb;
    prob_init(&pb, c, dir);
    char d[320];
    describe(c, d, sizeof d);
    int count = k_algo_count[dir];
    size_t need[MAX_ALGOS], most = 0;
    int applicable[MAX_ALGOS];
    for (int a = 0; a < count; a++) {
        cldnnStatus_t s = ws_query(&pb, a, &need[a]);
        applicable[a] = s == CLDNN_STATUS_SUCCESS;
        if (applicable[a] && need[a] > most)
            most = need[a];
    }
    size_t give = small_ws ? 0 : most;
    workspace ws;
    ws_make(&ws, 20, give);
    /* Find overwrites the output: poison it with NaN whatever the case's beta */
    fx_tensor_poison_nan(prob_out(&pb));
    fx_tensor_upload(prob_out(&pb));
    perf_entry pe[MAX_ALGOS];
    int returned = -1;
    FX_OK(find_ex(&pb, count, &returned, pe, ws.mem, ws.off, ws.size));
    FX_ASSERT(returned >= 1 && returned <= count, "%s Find, case %s: returned %d of %d", k_dir_name[dir], d, returned,
              count);
    int n_ok = 0, seen[MAX_ALGOS] = {0};
    for (int i = 0; i < returned; i++) {
        int a = pe[i].algo;
        FX_ASSERT(a >= 0 && a < count && !seen[a], "%s Find, case %s: entry %d has algo %d", k_dir_name[dir], d, i, a);
        seen[a] = 1;
        if (pe[i].status == CLDNN_STATUS_SUCCESS) {
            FX_ASSERT(i == n_ok, "%s Find, case %s: SUCCESS entry %d (%s) after a failed one", k_dir_name[dir], d, i,
                      algo_name(dir, a));
            n_ok++;
            FX_ASSERT(applicable[a], "%s Find, case %s: %s ran but its workspace query says it does not apply",
                      k_dir_name[dir], d, algo_name(dir, a));
            FX_ASSERT(isfinite(pe[i].time) && pe[i].time > 0.0f, "%s Find, case %s: %s time %g", k_dir_name[dir], d,
                      algo_name(dir, a), (double)pe[i].time);
            FX_ASSERT(i == 0 || pe[i].time >= pe[i - 1].time,
                      "%s Find, case %s: entry %d (%g ms) faster than %d (%g ms)",
                      k_dir_name[dir], d, i, (double)pe[i].time, i - 1, (double)pe[i - 1].time);
            FX_ASSERT(pe[i].memory == need[a] && need[a] <= give,
                      "%s Find, case %s: %s memory %zu (query %zu, given %zu)", k_dir_name[dir], d, algo_name(dir, a),
                      pe[i].memory, need[a], give);
        } else if (applicable[a]) {
            FX_ASSERT(need[a] > give && pe[i].status == CLDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT,
                      "%s Find, case %s: applicable %s (workspace %zu, given %zu) reported %s", k_dir_name[dir], d,
                      algo_name(dir, a), need[a], give, cldnnGetErrorString(pe[i].status));
        } else {
            FX_ASSERT(is_not_supported(pe[i].status), "%s Find, case %s: inapplicable %s reported %s",
                      k_dir_name[dir], d, algo_name(dir, a), cldnnGetErrorString(pe[i].status));
        }
    }
    /* every applicable algorithm that fits was timed */
    for (int a = 0; a < count; a++)
        if (applicable[a] && need[a] <= give) {
            int found = 0;
            for (int i = 0; i < n_ok; i++)
                found |= pe[i].algo == a;
            FX_ASSERT(found || returned < count, "%s Find, case %s: applicable %s (workspace %zu <= %zu) was not timed",
                      k_dir_name[dir], d, algo_name(dir, a), need[a], give);
        }
    FX_ASSERT(n_ok > 0, "%s Find, case %s, workspace %zu: nothing ran", k_dir_name[dir], d, give);
    /* the output holds a correct result (alpha 1, beta 0) */
    check_output(&pb, pe[0].algo, 1.0f, 0.0f, rtol_for(dir, pe[0].algo), "after Find (best)");
    size_t changed = ws_outside_changed(&ws);
    FX_ASSERT(changed == 0, "%s Find, case %s: %zu workspace bytes outside the given range changed", k_dir_name[dir],
              d, changed);
    cr_log_info("%s Find, case %s, workspace %zu: %d ran, best %s %.4f ms", k_dir_name[dir], d, give, n_ok,
                algo_name(dir, pe[0].algo), (double)pe[0].time);
    ws_free(&ws);
    prob_free(&pb);
}

Test(conv_select, find) {
    const size_t cs[] = {1, 18};
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++)
        for (int dir = 0; dir < 3; dir++) {
            check_find(&k_cases[cs[i]], (conv_dir)dir, 0);
            check_find(&k_cases[cs[i]], (conv_dir)dir, 1);
        }
}

/* --------------------------------------------------------------------- finite differences */

/* L(x, w) = sum over y of dy * conv(x, w), in double through the reference forward. */
static double loss(const ref_conv* p, const float* x, const float* w, const float* dy) {
    double l = 0;
    for (int64_t n = 0; n < p->n; n++)
        for (int64_t k = 0; k < p->k; k++)
            for (int64_t oh = 0; oh < p->p; oh++)
                for (int64_t ow = 0; ow < p->q; ow++)
                    l += (double)dy[n * p->ys[0] + k * p->ys[1] + oh * p->ys[2] + ow * p->ys[3]] *
                         ref_conv_fwd_at(p, x, w, n, k, oh, ow, NULL);
    return l;
}

/* Central difference of L in element `at` of arr (x or w), h = 1e-2 (rounded to float). */
static double central_diff(const ref_conv* p, float* x, float* w, const float* dy, float* arr, int64_t at) {
    const double h = 1e-2;
    float keep = arr[at], plus = (float)(keep + h), minus = (float)(keep - h);
    arr[at] = plus;
    double lp = loss(p, x, w, dy);
    arr[at] = minus;
    double lm = loss(p, x, w, dy);
    arr[at] = keep;
    return (lp - lm) / ((double)plus - (double)minus);
}

/* Every applicable backward-data and backward-filter algorithm on case c against central
** differences at 24 random elements of x and of w. */
static void check_gradients(const conv_case* c) {
    enum { SAMPLES = 24 };
    char d[320];
    describe(c, d, sizeof d);
    for (int dir = DIR_BWD_DATA; dir <= DIR_BWD_FILTER; dir++) {
        prob pb;
        prob_init(&pb, c, (conv_dir)dir);
        /* the variable: x for backward-data (on the host only: its device buffer is dx), w for
        ** backward-filter; the other two tensors are what the device was given */
        fx_tensor* var = dir == DIR_BWD_DATA ? &pb.x : &pb.w;
        float* vals = malloc(var->nbuf * sizeof(float));
        FX_ASSERT(vals != NULL, "out of memory");
        memcpy(vals, var->host, var->nbuf * sizeof(float));
        float* base = vals + var->offset / 4;
        for (int64_t i = 0; i < var->count; i++)
            base[ref_view_offset(&var->view, i)] = fx_uniform(-1.0, 1.0);
        float* xv = dir == DIR_BWD_DATA ? base : (float*)(void*)pb.x.host + pb.x.offset / 4;
        float* wv = dir == DIR_BWD_FILTER ? base : (float*)(void*)pb.w.host + pb.w.offset / 4;
        float* dy_copy;
        const float* dyv = view_floats(&pb.y, &dy_copy);
        int64_t picks[SAMPLES];
        double fd[SAMPLES], mag[SAMPLES];
        int64_t idx[4];
        for (int j = 0; j < SAMPLES; j++) {
            picks[j] = (int64_t)(ref_rng_next(fx_rng()) % (uint64_t)var->count);
            fx_unravel(&var->view, picks[j], idx);
            fd[j] = central_diff(&pb.p, xv, wv, dyv, base, ref_view_offset(&var->view, picks[j]));
            if (dir == DIR_BWD_DATA)
                ref_conv_bwd_data_at(&pb.p, wv, dyv, idx[0], idx[1], idx[2], idx[3], &mag[j]);
            else
                ref_conv_bwd_filter_at(&pb.p, xv, dyv, idx[0], idx[1], idx[2], idx[3], &mag[j]);
        }
        int ran = 0;
        for (int a = 0; a < k_algo_count[dir]; a++) {
            size_t need = 0;
            if (ws_query(&pb, a, &need) != CLDNN_STATUS_SUCCESS)
                continue;
            workspace ws;
            ws_make(&ws, 8, need);
            fx_tensor* out = prob_out(&pb);
            fx_tensor_poison_nan(out);
            fx_tensor_upload(out);
            FX_OK(run_algo(&pb, a, ws.mem, ws.off, ws.size, 1.0f, 0.0f));
            fx_tensor_download(out);
            ran++;
            double rtol = rtol_for((conv_dir)dir, a);
            for (int j = 0; j < SAMPLES; j++) {
                double g = fx_tensor_got(out, picks[j]);
                double tol = ATOL + rtol * mag[j];
                fx_unravel(&var->view, picks[j], idx);
                FX_ASSERT(fabs(g - fd[j]) <= tol,
                          "gradcheck %s %s, case %s, element [%lld,%lld,%lld,%lld]: library %.9g, central "
                          "difference %.9g (tol %.3g)",
                          k_dir_name[dir], algo_name((conv_dir)dir, a), d, (long long)idx[0], (long long)idx[1],
                          (long long)idx[2], (long long)idx[3], g, fd[j], tol);
            }
            ws_free(&ws);
        }
        FX_ASSERT(ran > 0, "gradcheck %s, case %s: no algorithm applies", k_dir_name[dir], d);
        free(vals);
        free(dy_copy);
        prob_free(&pb);
    }
}

Test(conv_grad, groups_stride_dilation_conv) {
    const conv_case c = {"gradcheck groups 2, stride 2x1, dilation 1x2, conv", 2, 4, 7, 8, 6, 3, 2, 1, 2, 2, 1, 1, 2,
                         2, CV, 0, 0, 1.0f, 0.0f, 3};
    check_gradients(&c);
}

Test(conv_grad, depthwise_nhwc) {
    const conv_case c = {"gradcheck depthwise K=2C, nhwc, pad 2", 1, 3, 6, 5, 6, 3, 3, 2, 2, 1, 2, 1, 1, 3, XC, 1, 0,
                         1.0f, 0.0f, 1};
    check_gradients(&c);
}

/* 3x3 stride 1: the Winograd algorithms (F(4x4); F(2x2) under FMA_MATH) with the others. */
Test(conv_grad, winograd_3x3) {
    const conv_case c = {"gradcheck 3x3 stride 1 pad 1", 2, 5, 7, 8, 6, 3, 3, 1, 1, 1, 1, 1, 1, 1, XC, 0, 0, 1.0f,
                         0.0f, 2};
    check_gradients(&c);
}

Test(conv_grad, winograd_3x3_fma_nhwc) {
    const conv_case c = {"gradcheck 3x3 stride 1 pad 2x0 conv, nhwc, FMA_MATH", 1, 4, 6, 9, 5, 3, 3, 2, 0, 1, 1, 1, 1,
                         1, CV, 1, 0, 1.0f, 0.0f, 1};
    g_math = CLDNN_FMA_MATH;
    check_gradients(&c);
}

Test(conv_grad, dense_nchw) {
    const conv_case c = {"gradcheck dense 3x3 stride 3", 2, 5, 8, 7, 4, 3, 3, 1, 0, 3, 3, 1, 1, 1, XC, 0, 0, 1.0f,
                         0.0f, 2};
    check_gradients(&c);
}

/* ------------------------------------------------------------------------------- Winograd */

/* The Winograd algorithms on random 3x3 stride-1 problems, per tile size. WINOGRAD (fused) and
** WINOGRAD_NONFUSED run F(4x4) first under DEFAULT_MATH on every device (the table lists F(4x4)
** before F(2x2), and its GPU-preferred entries are F(4x4) too) and F(2x2) under FMA_MATH, where
** F(4x4) does not apply: the math type picks the tile size from outside the library. */
static int rnd_int(int lo, int hi) { return lo + (int)(ref_rng_next(fx_rng()) % (uint64_t)(hi - lo + 1)); }

/* Problem i of a random set: 0 is batch 1 with C = 37 and K = 35 (no multiple of any block size,
** more than one block of either), 1 is a 1x2 input with padding 2 (outputs only from padding,
** partial tiles), the rest random: N 1-3, C and K 1-40, H and W up to 13 (padding 0-2 each),
** either mode and layout, padded 4dEx views for the forward, random offsets and alpha/beta. */
static conv_case wino_case(int i, cldnnMathType_t math, int fwd) {
    conv_case c;
    memset(&c, 0, sizeof c);
    c.name = i == 0 ? "winograd C=37 K=35 batch 1" : i == 1 ? "winograd 1x2 input pad 2" : "winograd random";
    c.r = c.s = 3;
    c.sh = c.sw = c.dh = c.dw = c.groups = 1;
    g_math = math;
    if (i == 0) {
        c.n = 1, c.c = 37, c.k = 35, c.h = 17, c.w = 15, c.ph = c.pw = 1;
    } else if (i == 1) {
        c.n = 3, c.c = 5, c.k = 3, c.h = 1, c.w = 2, c.ph = c.pw = 2;
    } else {
        c.n = rnd_int(1, 3), c.c = rnd_int(1, 40), c.k = rnd_int(1, 40);
        c.ph = rnd_int(0, 2), c.pw = rnd_int(0, 2);
        c.h = rnd_int(c.ph >= 1 ? 1 : 3, 13), c.w = rnd_int(c.pw >= 1 ? 1 : 3, 13);
    }
    c.mode = rnd_int(0, 1) ? CV : XC;
    c.nhwc = i == 0 ? 0 : rnd_int(0, 1);
    c.ex = fwd && i > 1 ? rnd_int(0, 2) : 0;
    const int ab = rnd_int(0, FX_NAB - 1);
    c.alpha = fx_alpha_beta[ab][0];
    c.beta = fx_alpha_beta[ab][1];
    c.off = (size_t)rnd_int(0, 7);
    return c;
}

/* `count` random problems per direction through WINOGRAD (fused: forward, backward-data) or
** WINOGRAD_NONFUSED (all three directions) under math; each must be claimed and right. */
static void wino_random(cldnnMathType_t math, int fused, int count) {
    static const int fused_algo[3] = {CLDNN_CONVOLUTION_FWD_ALGO_WINOGRAD, CLDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD, -1};
    static const int nonfused_algo[3] = {CLDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED,
                                         CLDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD_NONFUSED,
                                         CLDNN_CONVOLUTION_BWD_FILTER_ALGO_WINOGRAD_NONFUSED};
    const char* tile = math == CLDNN_FMA_MATH ? "F(2x2)" : "F(4x4)";
    for (int dir = 0; dir < 3; dir++) {
        const int algo = fused ? fused_algo[dir] : nonfused_algo[dir];
        if (algo < 0)
            continue;
        double worst = 0;
        for (int i = 0; i < count; i++) {
            conv_case c = wino_case(i, math, dir == DIR_FWD);
            char d[320];
            FX_ASSERT(check_case(&c, (conv_dir)dir, algo, &worst) == 1, "%s %s %s does not claim case %s",
                      k_dir_name[dir], algo_name((conv_dir)dir, algo), tile, describe(&c, d, sizeof d));
        }
        cr_log_info("%s %s %s: %d random problems, largest error / tolerance = %.3f", k_dir_name[dir],
                    algo_name((conv_dir)dir, algo), tile, count, worst);
    }
}

Test(conv_wino, fused_f4x4_random) { wino_random(CLDNN_DEFAULT_MATH, 1, 8); }
Test(conv_wino, fused_f2x2_random) { wino_random(CLDNN_FMA_MATH, 1, 8); }
Test(conv_wino, nonfused_f4x4_random) { wino_random(CLDNN_DEFAULT_MATH, 0, 5); }
Test(conv_wino, nonfused_f2x2_random) { wino_random(CLDNN_FMA_MATH, 0, 5); }

static int cmp_double(const void* a, const void* b) {
    double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

/* The relative errors |got - want| / (max want - min want) of algo on c (alpha 1, beta 0), sorted
** ascending into a new array (*n elements); the caller frees it. */
static double* rel_errors(const conv_case* c, conv_dir dir, int algo, int64_t* n) {
    prob pb;
    prob_init(&pb, c, dir);
    char d[320];
    size_t need = 0;
    FX_ASSERT(ws_query(&pb, algo, &need) == CLDNN_STATUS_SUCCESS, "accuracy: %s %s does not claim %s",
              k_dir_name[dir], algo_name(dir, algo), describe(c, d, sizeof d));
    workspace ws;
    ws_make(&ws, 0, need);
    FX_OK(run_algo(&pb, algo, ws.mem, ws.off, ws.size, 1.0f, 0.0f));
    fx_tensor* out = prob_out(&pb);
    fx_tensor_download(out);
    double* want = malloc((size_t)out->count * sizeof(double));
    double* scale = malloc((size_t)out->count * sizeof(double));
    FX_ASSERT(want && scale, "out of memory");
    prob_reference(&pb, 1.0f, 0.0f, want, scale);
    double lo = want[0], hi = want[0];
    for (int64_t i = 0; i < out->count; i++)
        lo = fmin(lo, want[i]), hi = fmax(hi, want[i]);
    FX_ASSERT(hi > lo, "accuracy: case %s has a constant output", describe(c, d, sizeof d));
    for (int64_t i = 0; i < out->count; i++) {
        double e = fabs(fx_tensor_got(out, i) - want[i]) / (hi - lo);
        scale[i] = e == e ? e : INFINITY;
    }
    qsort(scale, (size_t)out->count, sizeof *scale, cmp_double);
    *n = out->count;
    free(want);
    ws_free(&ws);
    prob_free(&pb);
    return scale;
}

/* The issue's accuracy bound, measured: relative error against the double reference (of the
** output's range) on random data over small layer-like 3x3 shapes, forward and backward-data,
** for each Winograd algorithm and tile size beside the implicit GEMM (the direct sum's error).
** The distribution (median, 99th percentile, max over every output of every shape) is logged;
** F(4x4)'s max must stay within 1e-4, F(2x2)'s within 1e-5, and F(2x2), which FMA_MATH still
** offers, within 2x of the implicit GEMM's max and root-mean-square error. */
Test(conv_wino, accuracy_bound) {
    static const int shapes[][5] = {{1, 64, 64, 14, 14}, {2, 32, 32, 28, 28}, {1, 128, 96, 7, 7}};
    enum { NS = sizeof shapes / sizeof shapes[0] };
    static const cldnnMathType_t maths[2] = {CLDNN_DEFAULT_MATH, CLDNN_FMA_MATH};
    for (int dir = DIR_FWD; dir <= DIR_BWD_DATA; dir++) {
        const int algos[3] = {dir == DIR_FWD ? CLDNN_CONVOLUTION_FWD_ALGO_WINOGRAD : CLDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD,
                              dir == DIR_FWD ? CLDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED
                                             : CLDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD_NONFUSED,
                              dir == DIR_FWD ? CLDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM
                                             : CLDNN_CONVOLUTION_BWD_DATA_ALGO_1};
        for (int m = 0; m < 2; m++) {
            double mx[3] = {0}, rms[3] = {0};
            for (int a = 0; a < 3; a++) {
                double* all = NULL;
                int64_t total = 0;
                for (int s = 0; s < NS; s++) {
                    conv_case c;
                    memset(&c, 0, sizeof c);
                    c.name = "accuracy";
                    c.n = shapes[s][0], c.c = shapes[s][1], c.k = shapes[s][2], c.h = shapes[s][3], c.w = shapes[s][4];
                    c.r = c.s = 3;
                    c.ph = c.pw = c.sh = c.sw = c.dh = c.dw = c.groups = 1;
                    c.mode = XC;
                    c.alpha = 1.0f;
                    g_math = maths[m];
                    int64_t n = 0;
                    double* e = rel_errors(&c, (conv_dir)dir, algos[a], &n);
                    all = realloc(all, (size_t)(total + n) * sizeof(double));
                    FX_ASSERT(all != NULL, "out of memory");
                    memcpy(all + total, e, (size_t)n * sizeof(double));
                    total += n;
                    free(e);
                }
                qsort(all, (size_t)total, sizeof *all, cmp_double);
                double ss = 0;
                for (int64_t i = 0; i < total; i++)
                    ss += all[i] * all[i];
                mx[a] = all[total - 1];
                rms[a] = sqrt(ss / (double)total);
                cr_log_info("accuracy %s %s %s%s: %lld outputs, relative error median %.2e, p99 %.2e, max %.2e, "
                            "rms %.2e",
                            k_dir_name[dir], algo_name((conv_dir)dir, algos[a]), m ? "FMA_MATH" : "DEFAULT_MATH",
                            a == 2 ? "" : m ? " F(2x2)" : " F(4x4)",
                            (long long)total, all[total / 2], all[total * 99 / 100], mx[a], rms[a]);
                free(all);
            }
            for (int a = 0; a < 2; a++) {
                const double bound = m ? 1e-5 : 1e-4;
                FX_ASSERT(mx[a] <= bound, "%s %s %s: max relative error %.3e over the bound %.0e", k_dir_name[dir],
                          algo_name((conv_dir)dir, algos[a]), m ? "F(2x2)" : "F(4x4)", mx[a], bound);
                if (m)
                    FX_ASSERT(mx[a] <= 2 * mx[2] && rms[a] <= 2 * rms[2],
                              "%s %s F(2x2) under FMA_MATH: error max %.3e rms %.3e, more than 2x the implicit "
                              "GEMM's (max %.3e rms %.3e)",
                              k_dir_name[dir], algo_name((conv_dir)dir, algos[a]), mx[a], rms[a], mx[2], rms[2]);
            }
        }
    }
}

/* Get_v7 and Find list WINOGRAD (fused) for 3x3 stride-1 problems in forward and backward-data,
** under DEFAULT_MATH and FMA_MATH, and Find times it; backward-filter's WINOGRAD is
** NOT_SUPPORTED. */
Test(conv_wino, get_and_find_list_it) {
    static const int wino[3] = {CLDNN_CONVOLUTION_FWD_ALGO_WINOGRAD, CLDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD,
                                CLDNN_CONVOLUTION_BWD_FILTER_ALGO_WINOGRAD};
    for (int m = 0; m < 2; m++)
        for (int dir = 0; dir < 3; dir++) {
            conv_case c = k_cases[0];
            g_math = m ? CLDNN_FMA_MATH : CLDNN_DEFAULT_MATH;
            prob pb;
            prob_init(&pb, &c, (conv_dir)dir);
            perf_entry pe[MAX_ALGOS];
            int returned = -1;
            FX_OK(get_v7(&pb, k_algo_count[dir], &returned, pe));
            cldnnStatus_t got = CLDNN_STATUS_INTERNAL_ERROR;
            for (int i = 0; i < returned; i++)
                if (pe[i].algo == wino[dir])
                    got = pe[i].status;
            FX_ASSERT(dir == DIR_BWD_FILTER ? is_not_supported(got) : got == CLDNN_STATUS_SUCCESS,
                      "%s Get_v7 (math %d): WINOGRAD has status %s", k_dir_name[dir], (int)g_math,
                      cldnnGetErrorString(got));
            size_t need = 0;
            if (dir != DIR_BWD_FILTER)
                FX_OK(ws_query(&pb, wino[dir], &need));
            workspace ws;
            ws_make(&ws, 4, need);
            FX_OK(find_ex(&pb, k_algo_count[dir], &returned, pe, ws.mem, ws.off, ws.size));
            got = CLDNN_STATUS_INTERNAL_ERROR;
            float t = -1.0f;
            for (int i = 0; i < returned; i++)
                if (pe[i].algo == wino[dir])
                    got = pe[i].status, t = pe[i].time;
            FX_ASSERT(dir == DIR_BWD_FILTER ? is_not_supported(got) : got == CLDNN_STATUS_SUCCESS && t > 0.0f,
                      "%s Find (math %d): WINOGRAD has status %s, time %g", k_dir_name[dir], (int)g_math,
                      cldnnGetErrorString(got), (double)t);
            ws_free(&ws);
            prob_free(&pb);
        }
}

/* ---------------------------------------------------------------------------- backward bias */

/* db = alpha * sum of dy over n, h, w + beta * db for one dy layout; dy strides given in d. */
static double check_bias_once(int n, int k, int h, int w, const fx_tdesc* dyd, int db_nhwc, float alpha, float beta) {
    const int64_t dims[4] = {n, k, h, w};
    fx_tensor dy, db;
    fx_tensor_from_desc(&dy, 4, dims, dyd, g_dt);
    fill_input(&dy);
    fx_tensor_4d(&db, db_nhwc ? CLDNN_TENSOR_NHWC : CLDNN_TENSOR_NCHW, g_dt, 1, k, 1, 1, 3 * fx_dtype_size(g_dt));
    fx_poison_out(&db, beta);
    fx_tensor_upload(&db);
    ref_conv p;
    memset(&p, 0, sizeof p);
    p.n = n;
    p.k = k;
    p.p = h;
    p.q = w;
    for (int d = 0; d < 4; d++)
        p.ys[d] = dy.view.strides[d];
    double* want = malloc((size_t)k * sizeof(double));
    double* scale = malloc((size_t)k * sizeof(double));
    FX_ASSERT(want && scale, "out of memory");
    float* dy_copy;
    const float* dyv = view_floats(&dy, &dy_copy);
    for (int j = 0; j < k; j++) {
        double mag, v = ref_conv_bwd_bias_at(&p, dyv, j, &mag);
        double prior = beta != 0.0f ? beta * fx_tensor_host(&db, j) : 0.0;
        want[j] = alpha * v + prior;
        scale[j] = fabs(alpha) * mag + fabs(prior);
    }
    FX_OK(cldnnConvolutionBackwardBias(fx_handle(), &alpha, dy.desc, dy.mem, dy.offset, &beta, db.desc, db.mem,
                                       db.offset));
    fx_tensor_download(&db);
    char msg[512];
    double worst = 0;
    free(dy_copy);
    out_tolerance(want, scale, k, ATOL, RTOL);
    int64_t bad = fx_compare(&db, want, scale, 0.0, 1.0, msg, sizeof msg, &worst);
    FX_ASSERT(bad == 0, "backward bias, dy %dx%dx%dx%d (form %d, strides %lld,%lld,%lld,%lld), alpha %g beta %g: "
                        "%lld of %d wrong; first: %s",
              n, k, h, w, (int)dyd->kind, (long long)dy.view.strides[0], (long long)dy.view.strides[1],
              (long long)dy.view.strides[2], (long long)dy.view.strides[3], alpha, beta, (long long)bad, k, msg);
    FX_ASSERT(fx_tensor_gaps_changed(&db) == 0, "backward bias: elements outside db changed");
    fx_expect_untouched(&dy, "dy", "backward bias");
    free(want);
    free(scale);
    fx_tensor_free(&dy);
    fx_tensor_free(&db);
    return worst;
}

/* Every dy layout of the table with every (alpha, beta) pair, in g_dt. */
static void bias_layouts(void) {
    typedef struct {
        int n, k, h, w;
        fx_tdesc dy;
        int db_nhwc;
    } bias_case;
    const bias_case cs[] = {
        {2, 5, 4, 3, {FX_NCHW, {0}, 3}, 0},
        {3, 7, 5, 6, {FX_NHWC, {0}, 1}, 1},
        {1, 1, 1, 1, {FX_NCHW, {0}, 0}, 0},
        {2, 20, 9, 9, {FX_NCHW, {0}, 2}, 0},
        {2, 20, 9, 9, {FX_NHWC, {0}, 5}, 0},
        {2, 6, 5, 7, {FX_EX, {260, 42, 8, 1}, 4}, 0},
        {4, 3, 1, 1, {FX_NCHW, {0}, 1}, 1},
        {1, 33, 17, 15, {FX_NHWC, {0}, 2}, 1},
    };
    double worst = 0;
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++)
        for (int ab = 0; ab < FX_NAB; ab++) {
            double r = check_bias_once(cs[i].n, cs[i].k, cs[i].h, cs[i].w, &cs[i].dy, cs[i].db_nhwc,
                                       fx_alpha_beta[ab][0], fx_alpha_beta[ab][1]);
            if (r > worst)
                worst = r;
        }
    cr_log_info("backward bias: largest error / tolerance = %.3f", worst);
}

Test(conv_bias, layouts) { bias_layouts(); }

Test(conv_bias, bad_input) {
    cldnnHandle_t h = fx_handle();
    float one = 1.0f, zero = 0.0f;
    fx_tensor dy, db, dbk;
    fx_tensor_4d(&dy, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 2, 5, 4, 3, 4);
    fx_tensor_4d(&db, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 1, 5, 1, 1, 4);
    fx_tensor_4d(&dbk, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 1, 6, 1, 1, 4);
    fill_input(&dy);
    fx_tensor_poison_random(&db);
    fx_tensor_upload(&db);
    const cldnnStatus_t NP = CLDNN_STATUS_BAD_PARAM_NULL_POINTER;
    FX_EXPECT_STATUS(NP, cldnnConvolutionBackwardBias(NULL, &one, dy.desc, dy.mem, 4, &zero, db.desc, db.mem, 4));
    FX_EXPECT_STATUS(NP, cldnnConvolutionBackwardBias(h, NULL, dy.desc, dy.mem, 4, &zero, db.desc, db.mem, 4));
    FX_EXPECT_STATUS(NP, cldnnConvolutionBackwardBias(h, &one, NULL, dy.mem, 4, &zero, db.desc, db.mem, 4));
    FX_EXPECT_STATUS(NP, cldnnConvolutionBackwardBias(h, &one, dy.desc, NULL, 4, &zero, db.desc, db.mem, 4));
    FX_EXPECT_STATUS(NP, cldnnConvolutionBackwardBias(h, &one, dy.desc, dy.mem, 4, NULL, db.desc, db.mem, 4));
    FX_EXPECT_STATUS(NP, cldnnConvolutionBackwardBias(h, &one, dy.desc, dy.mem, 4, &zero, NULL, db.mem, 4));
    FX_EXPECT_STATUS(NP, cldnnConvolutionBackwardBias(h, &one, dy.desc, dy.mem, 4, &zero, db.desc, NULL, 4));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH,
                     cldnnConvolutionBackwardBias(h, &one, dy.desc, dy.mem, 4, &zero, dbk.desc, dbk.mem, 4));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_MISALIGNED,
                     cldnnConvolutionBackwardBias(h, &one, dy.desc, dy.mem, 2, &zero, db.desc, db.mem, 4));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_MISALIGNED,
                     cldnnConvolutionBackwardBias(h, &one, dy.desc, dy.mem, 4, &zero, db.desc, db.mem, 6));
    fx_expect_untouched(&db, "db", "rejected backward bias");
    fx_tensor_free(&dy);
    fx_tensor_free(&db);
    fx_tensor_free(&dbk);
}

/* ------------------------------------------------------------------------------- HALF */

/* HALF storage through the same checks as FLOAT: cases of both layouts with odd element offsets,
** 3x3 stride 1 (Winograd), dilation with CONVOLUTION mode, 1x1 (the plain GEMM, and its NCHW
** backward-filter's per-image partial sums), stride 2, depthwise (per element, per row, tiled),
** groups, and padded 4dEx tensors (forward), through every algorithm that claims them. A few
** cases keep the PoCL builds of HALF kernel variants (about 60) modest. */
static const size_t k_half_cases[] = {0, 3, 7, 8, 10, 11, 12, 16, 21};

/* Every algorithm that claims them on cases[0..n) of k_cases, in storage type dt (named tn). */
static void check_storage(conv_dir dir, cldnnDataType_t dt, const char* tn, const size_t* cases, size_t n) {
    g_dt = dt;
    double worst = 0;
    for (size_t i = 0; i < n; i++) {
        const conv_case* c = &k_cases[cases[i]];
        char claimed[160] = "";
        size_t at = 0;
        for (int a = 0; a < k_algo_count[dir]; a++) {
            double w = 0;
            if (check_case(c, dir, a, &w) && at < sizeof claimed)
                at += (size_t)snprintf(claimed + at, sizeof claimed - at, "%s%d (%.2f)", at ? ", " : "", a, w);
            worst = w > worst ? w : worst;
        }
        char d[320];
        FX_ASSERT(at > 0, "%s %s, case %s: no algorithm claims it", tn, k_dir_name[dir], describe(c, d, sizeof d));
        cr_log_info("%s %s, case %s: algorithms (error / tolerance) %s", tn, k_dir_name[dir],
                    describe(c, d, sizeof d), claimed);
    }
    cr_log_info("%s %s: largest error / tolerance = %.3f", tn, k_dir_name[dir], worst);
}

#define CHECK_HALF(dir) check_storage(dir, CLDNN_DATA_HALF, "HALF", k_half_cases, sizeof k_half_cases / sizeof k_half_cases[0])
Test(conv_half, forward) { CHECK_HALF(DIR_FWD); }
Test(conv_half, backward_data) { CHECK_HALF(DIR_BWD_DATA); }
Test(conv_half, backward_filter) { CHECK_HALF(DIR_BWD_FILTER); }

/* BFLOAT16 storage: the kernels are HALF's with another load and store, so two cases reach every
** algorithm family (3x3 stride 1 NHWC with alpha and beta: implicit GEMM, im2col, direct,
** Winograd fused and not; 1x1 NCHW: the plain GEMM and its per-image backward-filter sums) and
** keep the extra PoCL builds few. */
static const size_t k_bf16_cases[] = {1, 7};
#define CHECK_BF16(dir) check_storage(dir, CLDNN_DATA_BFLOAT16, "BFLOAT16", k_bf16_cases, 2)
Test(conv_bf16, forward) { CHECK_BF16(DIR_FWD); }
Test(conv_bf16, backward_data) { CHECK_BF16(DIR_BWD_DATA); }
Test(conv_bf16, backward_filter) { CHECK_BF16(DIR_BWD_FILTER); }

Test(conv_bf16, bias_and_find) {
    g_dt = CLDNN_DATA_BFLOAT16;
    bias_layouts();
    check_find(&k_cases[0], DIR_FWD, 0);
}

/* Get_v7, the workspace queries and Find agree on HALF problems, and their choices run right. */
Test(conv_half, get_v7_and_find) {
    g_dt = CLDNN_DATA_HALF;
    const size_t cs[] = {0, 12};
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++)
        for (int dir = 0; dir < 3; dir++) {
            check_get_v7(&k_cases[cs[i]], (conv_dir)dir);
            check_find(&k_cases[cs[i]], (conv_dir)dir, 0);
        }
}

Test(conv_half, bias) {
    g_dt = CLDNN_DATA_HALF;
    bias_layouts();
}

/* Mixed data types in one call, types neither FLOAT nor HALF, and odd byte offsets of halves. */
Test(conv_half, bad_data_types) {
    cldnnHandle_t h = fx_handle();
    const float one = 1.0f, zero = 0.0f;
    const cldnnDataType_t HF = CLDNN_DATA_HALF, F = CLDNN_DATA_FLOAT, D = CLDNN_DATA_DOUBLE;
    fx_tensor x, y, yf, xd, yd, dbf;
    fx_tensor_4d(&x, CLDNN_TENSOR_NCHW, HF, 2, 4, 6, 6, 4);
    fx_tensor_4d(&y, CLDNN_TENSOR_NCHW, HF, 2, 3, 6, 6, 4);
    fx_tensor_4d(&yf, CLDNN_TENSOR_NCHW, F, 2, 3, 6, 6, 4);
    fx_tensor_4d(&xd, CLDNN_TENSOR_NCHW, D, 2, 4, 6, 6, 8);
    fx_tensor_4d(&yd, CLDNN_TENSOR_NCHW, D, 2, 3, 6, 6, 8);
    fx_tensor_4d(&dbf, CLDNN_TENSOR_NCHW, F, 1, 3, 1, 1, 0);
    fill_input(&y);
    cl_mem wm = fx_buffer(3 * 4 * 9 * 8 + 16);
    cldnnFilterDescriptor_t wh, wf, wd;
    FX_OK(cldnnCreateFilterDescriptor(&wh));
    FX_OK(cldnnCreateFilterDescriptor(&wf));
    FX_OK(cldnnCreateFilterDescriptor(&wd));
    FX_OK(cldnnSetFilter4dDescriptor(wh, HF, CLDNN_TENSOR_NCHW, 3, 4, 3, 3));
    FX_OK(cldnnSetFilter4dDescriptor(wf, F, CLDNN_TENSOR_NCHW, 3, 4, 3, 3));
    FX_OK(cldnnSetFilter4dDescriptor(wd, D, CLDNN_TENSOR_NCHW, 3, 4, 3, 3));
    cldnnConvolutionDescriptor_t cd;
    FX_OK(cldnnCreateConvolutionDescriptor(&cd));
    FX_OK(cldnnSetConvolution2dDescriptor(cd, 1, 1, 1, 1, 1, 1, XC, F));
    const cldnnConvolutionFwdAlgo_t IG = CLDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM;
    const cldnnStatus_t BP = CLDNN_STATUS_BAD_PARAM, DT = CLDNN_STATUS_NOT_SUPPORTED_DATA_TYPE,
                        MIS = CLDNN_STATUS_BAD_PARAM_MISALIGNED;
    size_t need = 0;
    FX_EXPECT_STATUS(BP, cldnnConvolutionForward(h, &one, x.desc, x.mem, 4, wf, wm, 0, cd, IG, NULL, 0, 0, &zero,
                                                 y.desc, y.mem, 4));
    FX_EXPECT_STATUS(BP, cldnnConvolutionForward(h, &one, x.desc, x.mem, 4, wh, wm, 0, cd, IG, NULL, 0, 0, &zero,
                                                 yf.desc, yf.mem, 4));
    FX_EXPECT_STATUS(BP, cldnnGetConvolutionForwardWorkspaceSize(h, x.desc, wf, cd, y.desc, IG, &need));
    FX_EXPECT_STATUS(BP, cldnnConvolutionBackwardData(h, &one, wh, wm, 0, yf.desc, yf.mem, 4, cd,
                                                      CLDNN_CONVOLUTION_BWD_DATA_ALGO_1, NULL, 0, 0, &zero, x.desc,
                                                      x.mem, 4));
    FX_EXPECT_STATUS(BP, cldnnConvolutionBackwardFilter(h, &one, x.desc, x.mem, 4, yf.desc, yf.mem, 4, cd,
                                                        CLDNN_CONVOLUTION_BWD_FILTER_ALGO_1, NULL, 0, 0, &zero, wh,
                                                        wm, 0));
    FX_EXPECT_STATUS(BP, cldnnConvolutionBackwardBias(h, &one, y.desc, y.mem, 4, &zero, dbf.desc, dbf.mem, 0));
    FX_EXPECT_STATUS(DT, cldnnGetConvolutionForwardWorkspaceSize(h, xd.desc, wd, cd, yd.desc, IG, &need));
    FX_EXPECT_STATUS(DT, cldnnConvolutionForward(h, &one, xd.desc, xd.mem, 8, wd, wm, 0, cd, IG, NULL, 0, 0, &zero,
                                                 yd.desc, yd.mem, 8));
    FX_EXPECT_STATUS(MIS, cldnnConvolutionForward(h, &one, x.desc, x.mem, 3, wh, wm, 0, cd, IG, NULL, 0, 0, &zero,
                                                  y.desc, y.mem, 4));
    FX_EXPECT_STATUS(MIS, cldnnConvolutionForward(h, &one, x.desc, x.mem, 4, wh, wm, 1, cd, IG, NULL, 0, 0, &zero,
                                                  y.desc, y.mem, 4));
    FX_EXPECT_STATUS(MIS, cldnnConvolutionForward(h, &one, x.desc, x.mem, 4, wh, wm, 0, cd, IG, NULL, 0, 0, &zero,
                                                  y.desc, y.mem, 5));
    fx_expect_untouched(&y, "y", "rejected HALF convolutions");
    cldnnDestroyConvolutionDescriptor(cd);
    cldnnDestroyFilterDescriptor(wh);
    cldnnDestroyFilterDescriptor(wf);
    cldnnDestroyFilterDescriptor(wd);
    fx_release(wm);
    fx_tensor_free(&x);
    fx_tensor_free(&y);
    fx_tensor_free(&yf);
    fx_tensor_free(&xd);
    fx_tensor_free(&yd);
    fx_tensor_free(&dbf);
}

/* ---------------------------------------------------------------------------- descriptors */

Test(conv_desc, round_trip) {
    cldnnConvolutionDescriptor_t cd;
    FX_OK(cldnnCreateConvolutionDescriptor(&cd));
    FX_OK(cldnnSetConvolution2dDescriptor(cd, 1, 2, 3, 1, 2, 1, CLDNN_CROSS_CORRELATION, CLDNN_DATA_FLOAT));
    int ph = -1, pw = -1, u = -1, v = -1, dh = -1, dw = -1, g = -1;
    cldnnConvolutionMode_t mode = (cldnnConvolutionMode_t)-1;
    cldnnDataType_t ct = (cldnnDataType_t)-1;
    cldnnMathType_t mt = (cldnnMathType_t)-1;
    FX_OK(cldnnGetConvolution2dDescriptor(cd, &ph, &pw, &u, &v, &dh, &dw, &mode, &ct));
    FX_ASSERT(ph == 1 && pw == 2 && u == 3 && v == 1 && dh == 2 && dw == 1 && mode == CLDNN_CROSS_CORRELATION &&
                  ct == CLDNN_DATA_FLOAT,
              "Get2d: pad %d,%d stride %d,%d dil %d,%d mode %d type %d", ph, pw, u, v, dh, dw, (int)mode, (int)ct);
    FX_OK(cldnnGetConvolutionGroupCount(cd, &g));
    FX_ASSERT(g == 1, "default group count %d, want 1", g);
    FX_OK(cldnnGetConvolutionMathType(cd, &mt));
    FX_ASSERT(mt == CLDNN_DEFAULT_MATH, "default math type %d, want DEFAULT_MATH", (int)mt);
    FX_OK(cldnnSetConvolutionGroupCount(cd, 4));
    FX_OK(cldnnGetConvolutionGroupCount(cd, &g));
    FX_ASSERT(g == 4, "group count %d, want 4", g);
    FX_OK(cldnnSetConvolutionMathType(cd, CLDNN_FMA_MATH));
    FX_OK(cldnnGetConvolutionMathType(cd, &mt));
    FX_ASSERT(mt == CLDNN_FMA_MATH, "math type %d, want FMA_MATH", (int)mt);
    FX_OK(cldnnSetConvolutionMathType(cd, CLDNN_TENSOR_OP_MATH));
    FX_OK(cldnnGetConvolutionMathType(cd, &mt));
    FX_ASSERT(mt == CLDNN_TENSOR_OP_MATH, "math type %d, want TENSOR_OP_MATH", (int)mt);
    /* Nd with two spatial dims reads back through Get2d */
    const int pad[2] = {0, 3}, str[2] = {2, 1}, dil[2] = {1, 2};
    FX_OK(cldnnSetConvolutionNdDescriptor(cd, 2, pad, str, dil, CLDNN_CONVOLUTION, CLDNN_DATA_FLOAT));
    FX_OK(cldnnGetConvolution2dDescriptor(cd, &ph, &pw, &u, &v, &dh, &dw, &mode, &ct));
    FX_ASSERT(ph == 0 && pw == 3 && u == 2 && v == 1 && dh == 1 && dw == 2 && mode == CLDNN_CONVOLUTION,
              "Get2d after SetNd: pad %d,%d stride %d,%d dil %d,%d mode %d", ph, pw, u, v, dh, dw, (int)mode);
    FX_OK(cldnnDestroyConvolutionDescriptor(cd));
    FX_OK(cldnnDestroyConvolutionDescriptor(NULL));
}

Test(conv_desc, bad_descriptor) {
    cldnnConvolutionDescriptor_t cd;
    FX_OK(cldnnCreateConvolutionDescriptor(&cd));
    const cldnnDataType_t F = CLDNN_DATA_FLOAT;
    const cldnnStatus_t BP = CLDNN_STATUS_BAD_PARAM, NP = CLDNN_STATUS_BAD_PARAM_NULL_POINTER;
    EXPECT_CATEGORY(BP, cldnnSetConvolution2dDescriptor(cd, -1, 0, 1, 1, 1, 1, XC, F));
    EXPECT_CATEGORY(BP, cldnnSetConvolution2dDescriptor(cd, 0, -2, 1, 1, 1, 1, XC, F));
    EXPECT_CATEGORY(BP, cldnnSetConvolution2dDescriptor(cd, 0, 0, 0, 1, 1, 1, XC, F));
    EXPECT_CATEGORY(BP, cldnnSetConvolution2dDescriptor(cd, 0, 0, 1, 0, 1, 1, XC, F));
    EXPECT_CATEGORY(BP, cldnnSetConvolution2dDescriptor(cd, 0, 0, 1, -1, 1, 1, XC, F));
    EXPECT_CATEGORY(BP, cldnnSetConvolution2dDescriptor(cd, 0, 0, 1, 1, 0, 1, XC, F));
    EXPECT_CATEGORY(BP, cldnnSetConvolution2dDescriptor(cd, 0, 0, 1, 1, 1, 0, XC, F));
    EXPECT_CATEGORY(BP, cldnnSetConvolution2dDescriptor(cd, 0, 0, 1, 1, 1, 1, (cldnnConvolutionMode_t)2, F));
    EXPECT_CATEGORY(BP, cldnnSetConvolution2dDescriptor(cd, 0, 0, 1, 1, 1, 1, (cldnnConvolutionMode_t)-1, F));
    EXPECT_CATEGORY(BP, cldnnSetConvolutionGroupCount(cd, 0));
    EXPECT_CATEGORY(BP, cldnnSetConvolutionGroupCount(cd, -3));
    EXPECT_CATEGORY(BP, cldnnSetConvolutionMathType(cd, (cldnnMathType_t)2));
    EXPECT_CATEGORY(BP, cldnnSetConvolutionMathType(cd, (cldnnMathType_t)77));
    const int pad[2] = {0, 0}, str[2] = {1, 1}, dil[2] = {1, 1}, neg[2] = {1, -1}, zero2[2] = {1, 0};
    EXPECT_CATEGORY(BP, cldnnSetConvolutionNdDescriptor(cd, 2, neg, str, dil, XC, F));
    EXPECT_CATEGORY(BP, cldnnSetConvolutionNdDescriptor(cd, 2, pad, zero2, dil, XC, F));
    EXPECT_CATEGORY(BP, cldnnSetConvolutionNdDescriptor(cd, 2, pad, str, zero2, XC, F));
    EXPECT_CATEGORY(BP, cldnnSetConvolutionNdDescriptor(cd, 0, pad, str, dil, XC, F));
    FX_EXPECT_STATUS(NP, cldnnCreateConvolutionDescriptor(NULL));
    FX_EXPECT_STATUS(NP, cldnnSetConvolution2dDescriptor(NULL, 0, 0, 1, 1, 1, 1, XC, F));
    FX_EXPECT_STATUS(NP, cldnnSetConvolutionNdDescriptor(cd, 2, NULL, str, dil, XC, F));
    FX_EXPECT_STATUS(NP, cldnnSetConvolutionNdDescriptor(cd, 2, pad, NULL, dil, XC, F));
    FX_EXPECT_STATUS(NP, cldnnSetConvolutionNdDescriptor(cd, 2, pad, str, NULL, XC, F));
    FX_EXPECT_STATUS(NP, cldnnSetConvolutionGroupCount(NULL, 2));
    FX_EXPECT_STATUS(NP, cldnnSetConvolutionMathType(NULL, CLDNN_DEFAULT_MATH));
    int a, b, c, d, e, f, g;
    cldnnConvolutionMode_t m;
    cldnnDataType_t t;
    cldnnMathType_t mt;
    FX_OK(cldnnSetConvolution2dDescriptor(cd, 0, 0, 1, 1, 1, 1, XC, F));
    FX_EXPECT_STATUS(NP, cldnnGetConvolution2dDescriptor(NULL, &a, &b, &c, &d, &e, &f, &m, &t));
    FX_EXPECT_STATUS(NP, cldnnGetConvolution2dDescriptor(cd, NULL, &b, &c, &d, &e, &f, &m, &t));
    FX_EXPECT_STATUS(NP, cldnnGetConvolution2dDescriptor(cd, &a, &b, &c, &d, &e, &f, NULL, &t));
    FX_EXPECT_STATUS(NP, cldnnGetConvolutionGroupCount(cd, NULL));
    FX_EXPECT_STATUS(NP, cldnnGetConvolutionGroupCount(NULL, &g));
    FX_EXPECT_STATUS(NP, cldnnGetConvolutionMathType(cd, NULL));
    FX_EXPECT_STATUS(NP, cldnnGetConvolutionMathType(NULL, &mt));
    FX_OK(cldnnDestroyConvolutionDescriptor(cd));
}

/* A 4-d float tensor descriptor (no buffer). */
static cldnnTensorDescriptor_t tdesc(cldnnTensorFormat_t f, int n, int c, int h, int w) {
    cldnnTensorDescriptor_t t;
    FX_OK(cldnnCreateTensorDescriptor(&t));
    FX_OK(cldnnSetTensor4dDescriptor(t, f, CLDNN_DATA_FLOAT, n, c, h, w));
    return t;
}

static cldnnFilterDescriptor_t fdesc(cldnnTensorFormat_t f, int k, int c, int r, int s) {
    cldnnFilterDescriptor_t t;
    FX_OK(cldnnCreateFilterDescriptor(&t));
    FX_OK(cldnnSetFilter4dDescriptor(t, CLDNN_DATA_FLOAT, f, k, c, r, s));
    return t;
}

Test(conv_desc, output_dim) {
    typedef struct {
        int n, c, h, w, k, cf, r, s, ph, pw, sh, sw, dh, dw, g, nhwc;
    } od_case;
    const od_case cs[] = {
        {2, 3, 7, 6, 4, 3, 3, 3, 1, 1, 1, 1, 1, 1, 1, 0},        /* same */
        {1, 8, 224, 224, 64, 8, 7, 7, 3, 3, 2, 2, 1, 1, 1, 0},   /* stem: 112 */
        {1, 16, 15, 15, 16, 16, 3, 3, 1, 1, 2, 2, 1, 1, 1, 1},   /* resnet stride 2: 8 */
        {3, 6, 9, 11, 6, 2, 3, 5, 0, 2, 2, 3, 2, 1, 3, 0},       /* groups, dilation, asymmetric */
        {1, 32, 10, 10, 32, 1, 3, 3, 1, 1, 1, 1, 1, 1, 32, 1},   /* depthwise */
        {2, 4, 3, 3, 5, 4, 3, 3, 0, 0, 1, 1, 1, 1, 1, 0},        /* 1x1 output */
        {1, 2, 5, 5, 2, 2, 2, 2, 0, 0, 4, 4, 1, 1, 1, 0},        /* stride skips the tail: 2 */
        {1, 3, 2, 2, 2, 3, 4, 4, 1, 1, 2, 3, 1, 1, 1, 1},        /* from padding: 1x1 */
    };
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
        const od_case* c = &cs[i];
        cldnnTensorFormat_t f = c->nhwc ? CLDNN_TENSOR_NHWC : CLDNN_TENSOR_NCHW;
        cldnnTensorDescriptor_t x = tdesc(f, c->n, c->c, c->h, c->w);
        cldnnFilterDescriptor_t w = fdesc(f, c->k, c->cf, c->r, c->s);
        cldnnConvolutionDescriptor_t cd;
        FX_OK(cldnnCreateConvolutionDescriptor(&cd));
        FX_OK(cldnnSetConvolution2dDescriptor(cd, c->ph, c->pw, c->sh, c->sw, c->dh, c->dw, XC, CLDNN_DATA_FLOAT));
        FX_OK(cldnnSetConvolutionGroupCount(cd, c->g));
        ref_conv p;
        FX_ASSERT(ref_conv_init(&p, c->n, c->c, c->h, c->w, c->k, c->r, c->s, c->ph, c->pw, c->sh, c->sw, c->dh, c->dw,
                                c->g, 0, c->nhwc) == 0,
                  "output_dim case %zu invalid", i);
        int n = -1, k = -1, h = -1, w_ = -1;
        FX_OK(cldnnGetConvolution2dForwardOutputDim(cd, x, w, &n, &k, &h, &w_));
        FX_ASSERT(n == c->n && k == c->k && h == p.p && w_ == p.q,
                  "output_dim case %zu: %dx%dx%dx%d, want %dx%dx%lldx%lld",
                  i, n, k, h, w_, c->n, c->k, (long long)p.p, (long long)p.q);
        cldnnDestroyTensorDescriptor(x);
        cldnnDestroyFilterDescriptor(w);
        cldnnDestroyConvolutionDescriptor(cd);
    }
    /* refusals */
    const cldnnStatus_t SM = CLDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, NP = CLDNN_STATUS_BAD_PARAM_NULL_POINTER;
    cldnnConvolutionDescriptor_t cd;
    FX_OK(cldnnCreateConvolutionDescriptor(&cd));
    FX_OK(cldnnSetConvolution2dDescriptor(cd, 0, 0, 1, 1, 1, 1, XC, CLDNN_DATA_FLOAT));
    cldnnTensorDescriptor_t x6 = tdesc(CLDNN_TENSOR_NCHW, 1, 6, 5, 5);
    cldnnFilterDescriptor_t w4 = fdesc(CLDNN_TENSOR_NCHW, 4, 4, 3, 3), w3 = fdesc(CLDNN_TENSOR_NCHW, 4, 3, 3, 3),
                            w5 = fdesc(CLDNN_TENSOR_NCHW, 5, 3, 3, 3), big = fdesc(CLDNN_TENSOR_NCHW, 4, 6, 6, 3);
    int n, k, h, w;
    FX_EXPECT_STATUS(SM, cldnnGetConvolution2dForwardOutputDim(cd, x6, w4, &n, &k, &h, &w)); /* 6 != 4 * 1 */
    FX_EXPECT_STATUS(SM, cldnnGetConvolution2dForwardOutputDim(cd, x6, w3, &n, &k, &h, &w)); /* 6 != 3 * 1 */
    FX_EXPECT_STATUS(SM, cldnnGetConvolution2dForwardOutputDim(cd, x6, big, &n, &k, &h, &w)); /* 6 rows > 5 */
    FX_OK(cldnnSetConvolutionGroupCount(cd, 2));
    FX_OK(cldnnGetConvolution2dForwardOutputDim(cd, x6, w3, &n, &k, &h, &w)); /* 6 == 3 * 2 */
    FX_ASSERT(n == 1 && k == 4 && h == 3 && w == 3, "groups 2: %dx%dx%dx%d", n, k, h, w);
    FX_EXPECT_STATUS(SM, cldnnGetConvolution2dForwardOutputDim(cd, x6, w5, &n, &k, &h, &w)); /* K 5 % 2 */
    FX_OK(cldnnSetConvolution2dDescriptor(cd, 0, 0, 1, 1, 3, 1, XC, CLDNN_DATA_FLOAT));
    FX_EXPECT_STATUS(SM, cldnnGetConvolution2dForwardOutputDim(cd, x6, w3, &n, &k, &h, &w)); /* dilated 7 > 5 */
    FX_EXPECT_STATUS(NP, cldnnGetConvolution2dForwardOutputDim(NULL, x6, w3, &n, &k, &h, &w));
    FX_EXPECT_STATUS(NP, cldnnGetConvolution2dForwardOutputDim(cd, NULL, w3, &n, &k, &h, &w));
    FX_EXPECT_STATUS(NP, cldnnGetConvolution2dForwardOutputDim(cd, x6, NULL, &n, &k, &h, &w));
    FX_EXPECT_STATUS(NP, cldnnGetConvolution2dForwardOutputDim(cd, x6, w3, &n, &k, &h, NULL));
    cldnnDestroyTensorDescriptor(x6);
    cldnnDestroyFilterDescriptor(w4);
    cldnnDestroyFilterDescriptor(w3);
    cldnnDestroyFilterDescriptor(w5);
    cldnnDestroyFilterDescriptor(big);
    cldnnDestroyConvolutionDescriptor(cd);
}

/* ------------------------------------------------------------------------------ bad input */

/* The problem every bad-input test starts from: 2x6x7x6, K 4, 3x3 pad 1, groups 2 (filter C 3). */
static const conv_case k_bad_case = {"bad-input base", 2, 6, 7, 6, 4, 3, 3, 1, 1, 1, 1, 1, 1, 2, XC, 0, 0, 1.0f, 0.0f,
                                     1};

#define F_ALGO CLDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM
#define D_ALGO CLDNN_CONVOLUTION_BWD_DATA_ALGO_0
#define W_ALGO CLDNN_CONVOLUTION_BWD_FILTER_ALGO_0

Test(conv_desc, null_pointers) {
    prob pb;
    prob_init(&pb, &k_bad_case, DIR_FWD);
    cldnnHandle_t h = fx_handle();
    float one = 1.0f, zero = 0.0f;
    const cldnnStatus_t NP = CLDNN_STATUS_BAD_PARAM_NULL_POINTER;
    fx_tensor *x = &pb.x, *w = &pb.w, *y = &pb.y;
    cldnnFilterDescriptor_t wd = pb.wdesc;
    cldnnConvolutionDescriptor_t cd = pb.conv;
    size_t o = 4, wo = 12, sz;
#define FWD(hh, al, xd, xm, wdd, wm, cdd, be, yd, ym) \
    cldnnConvolutionForward(hh, al, xd, xm, o, wdd, wm, wo, cdd, F_ALGO, NULL, 0, 0, be, yd, ym, 8)
    FX_EXPECT_STATUS(NP, FWD(NULL, &one, x->desc, x->mem, wd, w->mem, cd, &zero, y->desc, y->mem));
    FX_EXPECT_STATUS(NP, FWD(h, NULL, x->desc, x->mem, wd, w->mem, cd, &zero, y->desc, y->mem));
    FX_EXPECT_STATUS(NP, FWD(h, &one, NULL, x->mem, wd, w->mem, cd, &zero, y->desc, y->mem));
    FX_EXPECT_STATUS(NP, FWD(h, &one, x->desc, NULL, wd, w->mem, cd, &zero, y->desc, y->mem));
    FX_EXPECT_STATUS(NP, FWD(h, &one, x->desc, x->mem, NULL, w->mem, cd, &zero, y->desc, y->mem));
    FX_EXPECT_STATUS(NP, FWD(h, &one, x->desc, x->mem, wd, NULL, cd, &zero, y->desc, y->mem));
    FX_EXPECT_STATUS(NP, FWD(h, &one, x->desc, x->mem, wd, w->mem, NULL, &zero, y->desc, y->mem));
    FX_EXPECT_STATUS(NP, FWD(h, &one, x->desc, x->mem, wd, w->mem, cd, NULL, y->desc, y->mem));
    FX_EXPECT_STATUS(NP, FWD(h, &one, x->desc, x->mem, wd, w->mem, cd, &zero, NULL, y->mem));
    FX_EXPECT_STATUS(NP, FWD(h, &one, x->desc, x->mem, wd, w->mem, cd, &zero, y->desc, NULL));
#undef FWD
    /* backward data: dy is y, dx is x */
    FX_EXPECT_STATUS(NP, cldnnConvolutionBackwardData(NULL, &one, wd, w->mem, wo, y->desc, y->mem, 8, cd, D_ALGO, NULL,
                                                      0, 0, &zero, x->desc, x->mem, o));
    FX_EXPECT_STATUS(NP, cldnnConvolutionBackwardData(h, NULL, wd, w->mem, wo, y->desc, y->mem, 8, cd, D_ALGO, NULL, 0,
                                                      0, &zero, x->desc, x->mem, o));
    FX_EXPECT_STATUS(NP, cldnnConvolutionBackwardData(h, &one, NULL, w->mem, wo, y->desc, y->mem, 8, cd, D_ALGO, NULL,
                                                      0, 0, &zero, x->desc, x->mem, o));
    FX_EXPECT_STATUS(NP, cldnnConvolutionBackwardData(h, &one, wd, NULL, wo, y->desc, y->mem, 8, cd, D_ALGO, NULL, 0,
                                                      0, &zero, x->desc, x->mem, o));
    FX_EXPECT_STATUS(NP, cldnnConvolutionBackwardData(h, &one, wd, w->mem, wo, NULL, y->mem, 8, cd, D_ALGO, NULL, 0, 0,
                                                      &zero, x->desc, x->mem, o));
    FX_EXPECT_STATUS(NP, cldnnConvolutionBackwardData(h, &one, wd, w->mem, wo, y->desc, NULL, 8, cd, D_ALGO, NULL, 0,
                                                      0, &zero, x->desc, x->mem, o));
    FX_EXPECT_STATUS(NP, cldnnConvolutionBackwardData(h, &one, wd, w->mem, wo, y->desc, y->mem, 8, NULL, D_ALGO, NULL,
                                                      0, 0, &zero, x->desc, x->mem, o));
    FX_EXPECT_STATUS(NP, cldnnConvolutionBackwardData(h, &one, wd, w->mem, wo, y->desc, y->mem, 8, cd, D_ALGO, NULL, 0,
                                                      0, NULL, x->desc, x->mem, o));
    FX_EXPECT_STATUS(NP, cldnnConvolutionBackwardData(h, &one, wd, w->mem, wo, y->desc, y->mem, 8, cd, D_ALGO, NULL, 0,
                                                      0, &zero, NULL, x->mem, o));
    FX_EXPECT_STATUS(NP, cldnnConvolutionBackwardData(h, &one, wd, w->mem, wo, y->desc, y->mem, 8, cd, D_ALGO, NULL, 0,
                                                      0, &zero, x->desc, NULL, o));
    /* backward filter: dw is w */
    FX_EXPECT_STATUS(NP, cldnnConvolutionBackwardFilter(NULL, &one, x->desc, x->mem, o, y->desc, y->mem, 8, cd, W_ALGO,
                                                        NULL, 0, 0, &zero, wd, w->mem, wo));
    FX_EXPECT_STATUS(NP, cldnnConvolutionBackwardFilter(h, NULL, x->desc, x->mem, o, y->desc, y->mem, 8, cd, W_ALGO,
                                                        NULL, 0, 0, &zero, wd, w->mem, wo));
    FX_EXPECT_STATUS(NP, cldnnConvolutionBackwardFilter(h, &one, NULL, x->mem, o, y->desc, y->mem, 8, cd, W_ALGO, NULL,
                                                        0, 0, &zero, wd, w->mem, wo));
    FX_EXPECT_STATUS(NP, cldnnConvolutionBackwardFilter(h, &one, x->desc, NULL, o, y->desc, y->mem, 8, cd, W_ALGO, NULL,
                                                        0, 0, &zero, wd, w->mem, wo));
    FX_EXPECT_STATUS(NP, cldnnConvolutionBackwardFilter(h, &one, x->desc, x->mem, o, NULL, y->mem, 8, cd, W_ALGO, NULL,
                                                        0, 0, &zero, wd, w->mem, wo));
    FX_EXPECT_STATUS(NP, cldnnConvolutionBackwardFilter(h, &one, x->desc, x->mem, o, y->desc, NULL, 8, cd, W_ALGO, NULL,
                                                        0, 0, &zero, wd, w->mem, wo));
    FX_EXPECT_STATUS(NP, cldnnConvolutionBackwardFilter(h, &one, x->desc, x->mem, o, y->desc, y->mem, 8, NULL, W_ALGO,
                                                        NULL, 0, 0, &zero, wd, w->mem, wo));
    FX_EXPECT_STATUS(NP, cldnnConvolutionBackwardFilter(h, &one, x->desc, x->mem, o, y->desc, y->mem, 8, cd, W_ALGO,
                                                        NULL, 0, 0, NULL, wd, w->mem, wo));
    FX_EXPECT_STATUS(NP, cldnnConvolutionBackwardFilter(h, &one, x->desc, x->mem, o, y->desc, y->mem, 8, cd, W_ALGO,
                                                        NULL, 0, 0, &zero, NULL, w->mem, wo));
    FX_EXPECT_STATUS(NP, cldnnConvolutionBackwardFilter(h, &one, x->desc, x->mem, o, y->desc, y->mem, 8, cd, W_ALGO,
                                                        NULL, 0, 0, &zero, wd, NULL, wo));
    /* queries */
    FX_EXPECT_STATUS(NP, cldnnGetConvolutionForwardWorkspaceSize(h, x->desc, wd, cd, y->desc, F_ALGO, NULL));
    FX_EXPECT_STATUS(NP, cldnnGetConvolutionForwardWorkspaceSize(NULL, x->desc, wd, cd, y->desc, F_ALGO, &sz));
    FX_EXPECT_STATUS(NP, cldnnGetConvolutionForwardWorkspaceSize(h, NULL, wd, cd, y->desc, F_ALGO, &sz));
    FX_EXPECT_STATUS(NP, cldnnGetConvolutionBackwardDataWorkspaceSize(h, wd, y->desc, cd, x->desc, D_ALGO, NULL));
    FX_EXPECT_STATUS(NP, cldnnGetConvolutionBackwardDataWorkspaceSize(h, NULL, y->desc, cd, x->desc, D_ALGO, &sz));
    FX_EXPECT_STATUS(NP, cldnnGetConvolutionBackwardFilterWorkspaceSize(h, x->desc, y->desc, cd, wd, W_ALGO, NULL));
    FX_EXPECT_STATUS(NP, cldnnGetConvolutionBackwardFilterWorkspaceSize(h, x->desc, y->desc, NULL, wd, W_ALGO, &sz));
    int ret;
    cldnnConvolutionFwdAlgoPerf_t fp[CLDNN_CONVOLUTION_FWD_ALGO_COUNT];
    cldnnConvolutionBwdDataAlgoPerf_t dp[CLDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT];
    cldnnConvolutionBwdFilterAlgoPerf_t wp[CLDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT];
    FX_EXPECT_STATUS(NP, cldnnGetConvolutionForwardAlgorithm_v7(h, x->desc, wd, cd, y->desc, 8, NULL, fp));
    FX_EXPECT_STATUS(NP, cldnnGetConvolutionForwardAlgorithm_v7(h, x->desc, wd, cd, y->desc, 8, &ret, NULL));
    FX_EXPECT_STATUS(NP, cldnnGetConvolutionBackwardDataAlgorithm_v7(h, wd, y->desc, cd, x->desc, 6, &ret, NULL));
    FX_EXPECT_STATUS(NP, cldnnGetConvolutionBackwardFilterAlgorithm_v7(h, x->desc, y->desc, cd, NULL, 7, &ret, wp));
    FX_EXPECT_STATUS(NP, cldnnFindConvolutionForwardAlgorithmEx(h, x->desc, x->mem, o, wd, w->mem, wo, cd, y->desc,
                                                                y->mem, 8, 8, NULL, fp, NULL, 0, 0));
    FX_EXPECT_STATUS(NP, cldnnFindConvolutionForwardAlgorithmEx(h, x->desc, NULL, o, wd, w->mem, wo, cd, y->desc,
                                                                y->mem, 8, 8, &ret, fp, NULL, 0, 0));
    FX_EXPECT_STATUS(NP, cldnnFindConvolutionBackwardDataAlgorithmEx(h, wd, w->mem, wo, y->desc, y->mem, 8, cd,
                                                                     x->desc, x->mem, o, 6, &ret, NULL, NULL, 0, 0));
    FX_EXPECT_STATUS(NP, cldnnFindConvolutionBackwardFilterAlgorithmEx(h, x->desc, x->mem, o, y->desc, y->mem, 8, cd,
                                                                       wd, NULL, wo, 7, &ret, wp, NULL, 0, 0));
    (void)dp;
    fx_expect_untouched(y, "y", "rejected call");
    prob_free(&pb);
}

/* Mismatched shapes in every direction: y/dy with the wrong P, dx with the wrong H, dw with the
** wrong K, and x whose channels do not equal filter C * groups. */
Test(conv_desc, shape_mismatch) {
    cldnnHandle_t h = fx_handle();
    float one = 1.0f, zero = 0.0f;
    const cldnnStatus_t SM = CLDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH;
    prob pb;
    prob_init(&pb, &k_bad_case, DIR_FWD); /* x 2x6x7x6, w 4x3x3x3, y 2x4x7x6, groups 2 */
    fx_tensor *x = &pb.x, *w = &pb.w, *y = &pb.y;
    cldnnFilterDescriptor_t wd = pb.wdesc;
    cldnnConvolutionDescriptor_t cd = pb.conv;
    fx_tensor ybad, ykbad, xbad, xc;
    fx_tensor_4d(&ybad, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 2, 4, 6, 6, 8);  /* P 6 != 7 */
    fx_tensor_4d(&ykbad, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 2, 5, 7, 6, 8); /* K 5 != 4 */
    fx_tensor_4d(&xbad, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 2, 6, 7, 5, 4);  /* W 5 gives Q 5 != 6 */
    fx_tensor_4d(&xc, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 2, 4, 7, 6, 4);    /* C 4 != 3 * 2 */
    fx_tensor* all[] = {&ybad, &ykbad, &xbad, &xc};
    for (int i = 0; i < 4; i++) {
        fx_tensor_poison_random(all[i]);
        fx_tensor_upload(all[i]);
    }
    cldnnFilterDescriptor_t wk5 = fdesc(CLDNN_TENSOR_NCHW, 5, 3, 3, 3); /* dw with K 5 */
    cldnnFilterDescriptor_t wr2 = fdesc(CLDNN_TENSOR_NCHW, 4, 3, 2, 3); /* dw with R 2 */
    size_t sz;
    /* forward */
    FX_EXPECT_STATUS(SM, cldnnConvolutionForward(h, &one, x->desc, x->mem, 4, wd, w->mem, 12, cd, F_ALGO, NULL, 0, 0,
                                                 &zero, ybad.desc, ybad.mem, 8));
    FX_EXPECT_STATUS(SM, cldnnConvolutionForward(h, &one, x->desc, x->mem, 4, wd, w->mem, 12, cd, F_ALGO, NULL, 0, 0,
                                                 &zero, ykbad.desc, ykbad.mem, 8));
    FX_EXPECT_STATUS(SM, cldnnConvolutionForward(h, &one, xc.desc, xc.mem, 4, wd, w->mem, 12, cd, F_ALGO, NULL, 0, 0,
                                                 &zero, y->desc, y->mem, 8));
    FX_EXPECT_STATUS(SM, cldnnGetConvolutionForwardWorkspaceSize(h, x->desc, wd, cd, ybad.desc, F_ALGO, &sz));
    FX_EXPECT_STATUS(SM, cldnnGetConvolutionForwardWorkspaceSize(h, xc.desc, wd, cd, y->desc, F_ALGO, &sz));
    /* backward data: dy wrong, dx wrong, dx channels wrong */
    FX_EXPECT_STATUS(SM, cldnnConvolutionBackwardData(h, &one, wd, w->mem, 12, ybad.desc, ybad.mem, 8, cd, D_ALGO, NULL,
                                                      0, 0, &zero, x->desc, x->mem, 4));
    FX_EXPECT_STATUS(SM, cldnnConvolutionBackwardData(h, &one, wd, w->mem, 12, y->desc, y->mem, 8, cd, D_ALGO, NULL, 0,
                                                      0, &zero, xbad.desc, xbad.mem, 4));
    FX_EXPECT_STATUS(SM, cldnnConvolutionBackwardData(h, &one, wd, w->mem, 12, y->desc, y->mem, 8, cd, D_ALGO, NULL, 0,
                                                      0, &zero, xc.desc, xc.mem, 4));
    FX_EXPECT_STATUS(SM, cldnnGetConvolutionBackwardDataWorkspaceSize(h, wd, ybad.desc, cd, x->desc, D_ALGO, &sz));
    /* backward filter: dy wrong, x channels wrong, dw K or R wrong */
    FX_EXPECT_STATUS(SM, cldnnConvolutionBackwardFilter(h, &one, x->desc, x->mem, 4, ykbad.desc, ykbad.mem, 8, cd,
                                                        W_ALGO, NULL, 0, 0, &zero, wd, w->mem, 12));
    FX_EXPECT_STATUS(SM, cldnnConvolutionBackwardFilter(h, &one, xc.desc, xc.mem, 4, y->desc, y->mem, 8, cd, W_ALGO,
                                                        NULL, 0, 0, &zero, wd, w->mem, 12));
    FX_EXPECT_STATUS(SM, cldnnConvolutionBackwardFilter(h, &one, x->desc, x->mem, 4, y->desc, y->mem, 8, cd, W_ALGO,
                                                        NULL, 0, 0, &zero, wk5, w->mem, 12));
    FX_EXPECT_STATUS(SM, cldnnConvolutionBackwardFilter(h, &one, x->desc, x->mem, 4, y->desc, y->mem, 8, cd, W_ALGO,
                                                        NULL, 0, 0, &zero, wr2, w->mem, 12));
    FX_EXPECT_STATUS(SM, cldnnGetConvolutionBackwardFilterWorkspaceSize(h, x->desc, y->desc, cd, wk5, W_ALGO, &sz));
    /* nothing written */
    fx_expect_untouched(y, "y", "rejected call");
    fx_expect_untouched(x, "x", "rejected call");
    fx_expect_untouched(w, "w", "rejected call");
    fx_expect_untouched(&ybad, "y (wrong shape)", "rejected call");
    fx_expect_untouched(&xbad, "dx (wrong shape)", "rejected call");
    for (int i = 0; i < 4; i++)
        fx_tensor_free(all[i]);
    cldnnDestroyFilterDescriptor(wk5);
    cldnnDestroyFilterDescriptor(wr2);
    prob_free(&pb);
}

/* Algorithms and enum values out of range. */
Test(conv_desc, algo_out_of_range) {
    prob pb;
    prob_init(&pb, &k_bad_case, DIR_FWD);
    const int bad[] = {-1, 8, 100};
    const cldnnStatus_t BP = CLDNN_STATUS_BAD_PARAM;
    for (size_t i = 0; i < 3; i++)
        for (int dir = 0; dir < 3; dir++) {
            pb.dir = (conv_dir)dir;
            size_t sz;
            EXPECT_CATEGORY(BP, ws_query(&pb, bad[i], &sz));
            EXPECT_CATEGORY(BP, run_algo(&pb, bad[i], NULL, 0, 0, 1.0f, 0.0f));
        }
    pb.dir = DIR_FWD;
    fx_expect_untouched(&pb.y, "y", "rejected call");
    prob_free(&pb);
}

/* Misaligned offsets on each buffer, the workspace 4 bytes short for every algorithm that needs
** one, and buffers shorter than the view. */
Test(conv_desc, misaligned_and_short) {
    const cldnnStatus_t MA = CLDNN_STATUS_BAD_PARAM_MISALIGNED, SI = CLDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT;
    cldnnHandle_t h = fx_handle();
    float one = 1.0f, zero = 0.0f;
    prob pb;
    prob_init(&pb, &k_bad_case, DIR_FWD);
    fx_tensor *x = &pb.x, *w = &pb.w, *y = &pb.y;
    cldnnFilterDescriptor_t wd = pb.wdesc;
    cldnnConvolutionDescriptor_t cd = pb.conv;
    /* offsets: x 4, y 8, w 12 bytes; each shifted by 2 in turn */
    FX_EXPECT_STATUS(MA, cldnnConvolutionForward(h, &one, x->desc, x->mem, 2, wd, w->mem, 12, cd, F_ALGO, NULL, 0, 0,
                                                 &zero, y->desc, y->mem, 8));
    FX_EXPECT_STATUS(MA, cldnnConvolutionForward(h, &one, x->desc, x->mem, 4, wd, w->mem, 14, cd, F_ALGO, NULL, 0, 0,
                                                 &zero, y->desc, y->mem, 8));
    FX_EXPECT_STATUS(MA, cldnnConvolutionForward(h, &one, x->desc, x->mem, 4, wd, w->mem, 12, cd, F_ALGO, NULL, 0, 0,
                                                 &zero, y->desc, y->mem, 6));
    FX_EXPECT_STATUS(MA, cldnnConvolutionBackwardData(h, &one, wd, w->mem, 13, y->desc, y->mem, 8, cd, D_ALGO, NULL, 0,
                                                      0, &zero, x->desc, x->mem, 4));
    FX_EXPECT_STATUS(MA, cldnnConvolutionBackwardData(h, &one, wd, w->mem, 12, y->desc, y->mem, 9, cd, D_ALGO, NULL, 0,
                                                      0, &zero, x->desc, x->mem, 4));
    FX_EXPECT_STATUS(MA, cldnnConvolutionBackwardData(h, &one, wd, w->mem, 12, y->desc, y->mem, 8, cd, D_ALGO, NULL, 0,
                                                      0, &zero, x->desc, x->mem, 1));
    FX_EXPECT_STATUS(MA, cldnnConvolutionBackwardFilter(h, &one, x->desc, x->mem, 6, y->desc, y->mem, 8, cd, W_ALGO,
                                                        NULL, 0, 0, &zero, wd, w->mem, 12));
    FX_EXPECT_STATUS(MA, cldnnConvolutionBackwardFilter(h, &one, x->desc, x->mem, 4, y->desc, y->mem, 10, cd, W_ALGO,
                                                        NULL, 0, 0, &zero, wd, w->mem, 12));
    FX_EXPECT_STATUS(MA, cldnnConvolutionBackwardFilter(h, &one, x->desc, x->mem, 4, y->desc, y->mem, 8, cd, W_ALGO,
                                                        NULL, 0, 0, &zero, wd, w->mem, 15));
    /* a buffer shorter than its view at that offset: y is exactly offset + span + tail, so
    ** 8 + 4 * (FX_TAIL + 1) leaves one element out */
    size_t yshift = 8 + 4 * (FX_TAIL + 1);
    FX_EXPECT_STATUS(SI, cldnnConvolutionForward(h, &one, x->desc, x->mem, 4, wd, w->mem, 12, cd, F_ALGO, NULL, 0, 0,
                                                 &zero, y->desc, y->mem, yshift));
    FX_EXPECT_STATUS(SI, cldnnConvolutionBackwardFilter(h, &one, x->desc, x->mem, 4 + 4 * (FX_TAIL + 1), y->desc,
                                                        y->mem, 8, cd, W_ALGO, NULL, 0, 0, &zero, wd, w->mem, 12));
    fx_expect_untouched(y, "y", "rejected call");
    fx_expect_untouched(x, "x", "rejected call");
    fx_expect_untouched(w, "w", "rejected call");

    /* workspace 4 bytes short (and NULL) for every algorithm of every direction that needs one */
    int short_checked = 0;
    const size_t wsoff = 16;
    for (int dir = 0; dir < 3; dir++) {
        pb.dir = (conv_dir)dir;
        for (int a = 0; a < k_algo_count[dir]; a++) {
            size_t need = 0;
            if (ws_query(&pb, a, &need) != CLDNN_STATUS_SUCCESS || need < 8)
                continue;
            workspace ws;
            ws_make(&ws, wsoff, need);
            FX_EXPECT_STATUS(SI, run_algo(&pb, a, ws.mem, ws.off, need - 4, 1.0f, 0.0f));
            FX_EXPECT_STATUS(SI, run_algo(&pb, a, ws.mem, ws.off, 0, 1.0f, 0.0f));
            /* the size is right but the buffer ends 4 bytes early past the offset */
            cl_mem small = fx_buffer(wsoff + need - 4);
            FX_EXPECT_STATUS(SI, run_algo(&pb, a, small, wsoff, need, 1.0f, 0.0f));
            fx_release(small);
            fx_expect_untouched(prob_out(&pb), "the output", "workspace too small");
            short_checked++;
            ws_free(&ws);
        }
    }
    if (short_checked == 0)
        cr_log_info("skipped: no algorithm needs a workspace for \"%s\", so the short-workspace check did not run",
                    k_bad_case.name);
    else
        cr_log_info("short workspace refused by %d algorithms", short_checked);
    pb.dir = DIR_FWD;
    prob_free(&pb);
}
