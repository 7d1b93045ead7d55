/*
** test_convbiasact.c: cldnnConvolutionBiasActivationForward, y = act(alpha1 * conv(x, w) +
** alpha2 * z + bias), against the same algorithm run as separate cldnn calls and against the
** double reference (tests/ref).
**
**   cba/algos     every forward algorithm cldnn implements, each on a shape where it is typical
**                 (few builds: PoCL compiles are slow): 1x1 NHWC GEMM (a plain GEMM, C's rows the
**                 channels), 3x3 stride 1 NCHW implicit GEMM and fused and non-fused Winograd, 3x3
**                 stride 2 NHWC GEMM (im2col's channels-last GEMM), grouped 3x3 NCHW direct and
**                 implicit GEMM; every algorithm answering NOT_SUPPORTED for a shape must answer
**                 so fused too. RELU with alpha1 = 0.75; z != y (alpha2 = -0.5) and z == y (in
**                 place, alpha2 = 1.25), and for GEMM and implicit GEMM z none (alpha2 = 0, z = y
**                 filled with NaN: must not be read); byte offsets on every tensor. Separate calls: z copied into y, ConvolutionForward(alpha1, beta =
**                 alpha2) of the same algorithm, AddTensor(bias), ActivationForward in place.
**   cba/modes     every activation mode (coef and swish beta not 1, NaN propagation on) against
**                 the double reference on the depthwise direct kernels (rows, tiled, channels-last;
**                 the modes share them out), z != y.
**   cba/half      HALF storage, implicit GEMM, the three z cases, against the separate calls
**                 (whose intermediate roundings to half set the tolerance).
**   cba/bad       bias shape, z shape and strides, NULL activation descriptor / bias / z /
**                 alpha, never-set descriptors, data types differing or not taken (bfloat16),
**                 workspace too small, an algorithm that does not apply: the status and y unchanged.
**
** Tolerances: FLOAT against the separate calls |got - want| <= 1e-5 |want| + 1e-5 max|want| (the
** same roundings in the same order, up to how the compiler contracts them); HALF 4e-3 max|want|
** (the separate calls round three times to 11 bits); the double reference 1e-5 of the terms'
** magnitude (|alpha1| sum|x w| + |alpha2 z| + |bias|), plus 1e-6.
*/
#include "fixture.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

TestSuite(cba, .fini = fx_fini);

typedef struct {
    const char* name;
    int n, c, h, w, k, r, s, pad, stride, groups;
    cldnnTensorFormat_t fmt;
} cba_shape;

#define NCHW CLDNN_TENSOR_NCHW
#define NHWC CLDNN_TENSOR_NHWC

static const cba_shape algo_shapes[] = {
    {"1x1", 2, 8, 5, 5, 12, 1, 1, 0, 1, 1, NHWC},
    {"3x3", 2, 8, 7, 7, 8, 3, 3, 1, 1, 1, NCHW},
    {"strided", 2, 6, 9, 9, 10, 3, 3, 1, 2, 1, NHWC},
    {"grouped", 2, 4, 6, 6, 8, 3, 3, 1, 1, 4, NCHW},
};
#define ALGO(a) (1u << CLDNN_CONVOLUTION_FWD_ALGO_##a)
/* The algorithms run on each shape (PoCL compiles are slow: each algorithm where it is typical,
** implicit GEMM on the two shapes that change its index maps); the others are asked for once to
** check that the fused call answers NOT_SUPPORTED as the plain one does. Z_NONE (its own build)
** runs where marked. */
static const struct {
    unsigned algos, z_none;
} algo_runs[] = {
    {ALGO(GEMM), ALGO(GEMM)},
    {ALGO(IMPLICIT_GEMM) | ALGO(WINOGRAD) | ALGO(WINOGRAD_NONFUSED), ALGO(IMPLICIT_GEMM)},
    {ALGO(GEMM), 0},
    {ALGO(DIRECT) | ALGO(IMPLICIT_GEMM), 0},
};

/* One problem's tensors and descriptors; w_host is the filter in logical KCRS order. */
typedef struct {
    cba_shape s;
    cldnnDataType_t dt;
    int p, q;
    fx_tensor x, y, yref, z, bias;
    cldnnFilterDescriptor_t wd;
    cl_mem w;
    float* w_host;
    cldnnConvolutionDescriptor_t cd;
    cldnnActivationDescriptor_t act;
    cl_mem ws;
    size_t ws_size;
} cba;

#define WS_MAX ((size_t)8 << 20)

static void cba_init(cba* t, const cba_shape* s, cldnnDataType_t dt) {
    memset(t, 0, sizeof *t);
    t->s = *s;
    t->dt = dt;
    t->p = (s->h + 2 * s->pad - s->r) / s->stride + 1;
    t->q = (s->w + 2 * s->pad - s->s) / s->stride + 1;
    const size_t es = fx_dtype_size(dt);
    fx_tensor_4d(&t->x, s->fmt, dt, s->n, s->c, s->h, s->w, 2 * es);
    fx_tensor_4d(&t->y, s->fmt, dt, s->n, s->k, t->p, t->q, 3 * es);
    fx_tensor_4d(&t->yref, s->fmt, dt, s->n, s->k, t->p, t->q, 3 * es);
    fx_tensor_4d(&t->z, s->fmt, dt, s->n, s->k, t->p, t->q, es);
    fx_tensor_4d(&t->bias, NCHW, dt, 1, s->k, 1, 1, 4 * es);
    fx_tensor_fill_uniform(&t->x, -1, 1);
    fx_tensor_fill_uniform(&t->z, -1, 1);
    fx_tensor_fill_uniform(&t->bias, -0.5, 0.5);
    fx_tensor_upload(&t->x);
    fx_tensor_upload(&t->z);
    fx_tensor_upload(&t->bias);
    const int cg = s->c / s->groups;
    const size_t nw = (size_t)s->k * cg * s->r * s->s;
    t->w_host = malloc(nw * sizeof(float));
    unsigned char* bytes = malloc(nw * es);
    for (size_t i = 0; i < nw; ++i) {
        float v = fx_uniform(-1, 1);
        if (dt == CLDNN_DATA_HALF)
            v = fx_round_half(v);
        t->w_host[i] = v;
    }
    /* stored KCRS, or KRSC for an NHWC filter */
    for (int k = 0; k < s->k; ++k)
        for (int c = 0; c < cg; ++c)
            for (int r = 0; r < s->r; ++r)
                for (int q = 0; q < s->s; ++q) {
                    const size_t li = (((size_t)k * cg + c) * s->r + r) * s->s + q;
                    const size_t si = s->fmt == NHWC ? (((size_t)k * s->r + r) * s->s + q) * cg + c : li;
                    if (dt == CLDNN_DATA_HALF) {
                        uint16_t hb = fx_float_to_half(t->w_host[li]);
                        memcpy(bytes + si * 2, &hb, 2);
                    } else {
                        memcpy(bytes + si * 4, &t->w_host[li], 4);
                    }
                }
    t->w = fx_buffer(nw * es);
    fx_write(t->w, 0, bytes, nw * es);
    free(bytes);
    FX_OK(cldnnCreateFilterDescriptor(&t->wd));
    FX_OK(cldnnSetFilter4dDescriptor(t->wd, dt, s->fmt, s->k, cg, s->r, s->s));
    FX_OK(cldnnCreateConvolutionDescriptor(&t->cd));
    FX_OK(cldnnSetConvolution2dDescriptor(t->cd, s->pad, s->pad, s->stride, s->stride, 1, 1,
                                          CLDNN_CROSS_CORRELATION, CLDNN_DATA_FLOAT));
    FX_OK(cldnnSetConvolutionGroupCount(t->cd, s->groups));
    FX_OK(cldnnCreateActivationDescriptor(&t->act));
    FX_OK(cldnnSetActivationDescriptor(t->act, CLDNN_ACTIVATION_RELU, CLDNN_PROPAGATE_NAN, 0.0));
    t->ws = fx_buffer(WS_MAX);
    t->ws_size = WS_MAX;
}

static void cba_free(cba* t) {
    fx_tensor_free(&t->x);
    fx_tensor_free(&t->y);
    fx_tensor_free(&t->yref);
    fx_tensor_free(&t->z);
    fx_tensor_free(&t->bias);
    fx_release(t->w);
    fx_release(t->ws);
    free(t->w_host);
    cldnnDestroyFilterDescriptor(t->wd);
    cldnnDestroyConvolutionDescriptor(t->cd);
    cldnnDestroyActivationDescriptor(t->act);
}

typedef enum { Z_NONE, Z_SEPARATE, Z_INPLACE } z_mode;
static const char* const z_names[] = {"z none", "z != y", "z == y"};

/* The fused call into t->y (poisoned first: NaN, or z's values for Z_INPLACE, NaN for Z_NONE
** whose z is y itself and must not be read). */
static cldnnStatus_t run_fused(cba* t, cldnnConvolutionFwdAlgo_t algo, float alpha1, float alpha2, z_mode zm) {
    fx_tensor_poison_nan(&t->y);
    if (zm == Z_INPLACE)
        for (int64_t i = 0; i < t->y.count; ++i)
            fx_tensor_set(&t->y, i, fx_tensor_host(&t->z, i));
    fx_tensor_upload(&t->y);
    const fx_tensor* z = zm == Z_SEPARATE ? &t->z : &t->y;
    return cldnnConvolutionBiasActivationForward(fx_handle(), &alpha1, t->x.desc, t->x.mem, t->x.offset, t->wd, t->w,
                                                 0, t->cd, algo, t->ws, 0, t->ws_size, &alpha2, z->desc, z->mem,
                                                 z->offset, t->bias.desc, t->bias.mem, t->bias.offset, t->act,
                                                 t->y.desc, t->y.mem, t->y.offset);
}

/* The same result from separate calls into t->yref: y = z, conv with beta = alpha2, + bias,
** activation in place. */
static void run_separate(cba* t, cldnnConvolutionFwdAlgo_t algo, float alpha1, float alpha2) {
    cldnnHandle_t h = fx_handle();
    fx_tensor_poison_nan(&t->yref);
    for (int64_t i = 0; i < t->yref.count; ++i)
        fx_tensor_set(&t->yref, i, fx_tensor_host(&t->z, i));
    fx_tensor_upload(&t->yref);
    const float one = 1.0f, zero = 0.0f;
    FX_OK(cldnnConvolutionForward(h, &alpha1, t->x.desc, t->x.mem, t->x.offset, t->wd, t->w, 0, t->cd, algo, t->ws,
                                  0, t->ws_size, &alpha2, t->yref.desc, t->yref.mem, t->yref.offset));
    FX_OK(cldnnAddTensor(h, &one, t->bias.desc, t->bias.mem, t->bias.offset, &one, t->yref.desc, t->yref.mem,
                         t->yref.offset));
    FX_OK(cldnnActivationForward(h, t->act, &one, t->yref.desc, t->yref.mem, t->yref.offset, &zero, t->yref.desc,
                                 t->yref.mem, t->yref.offset));
}

/* fused y against the separate calls' yref; atol_rel of the largest |want|. */
static void compare_separate(cba* t, double rtol, double atol_rel, const char* ctx) {
    fx_tensor_download(&t->y);
    fx_tensor_download(&t->yref);
    double* want = malloc((size_t)t->y.count * sizeof(double));
    double top = 0.0;
    for (int64_t i = 0; i < t->y.count; ++i) {
        want[i] = fx_tensor_got(&t->yref, i);
        top = fmax(top, fabs(want[i]));
    }
    char msg[512];
    int64_t bad = fx_compare(&t->y, want, NULL, atol_rel * top + 1e-7, rtol, msg, sizeof msg, NULL);
    free(want);
    FX_ASSERT(bad == 0, "%s: %lld elements differ from the separate calls: %s", ctx, (long long)bad, msg);
    FX_ASSERT(fx_tensor_gaps_changed(&t->y) == 0, "%s: the call wrote outside y's view", ctx);
}

static const char* const algo_names[CLDNN_CONVOLUTION_FWD_ALGO_COUNT] = {
    "IMPLICIT_GEMM", "IMPLICIT_PRECOMP_GEMM", "GEMM", "DIRECT", "FFT", "FFT_TILING", "WINOGRAD", "WINOGRAD_NONFUSED"};

/* Runs the algorithms of mask that apply to shape s (dtype dt) with z != y and z == y, and with
** z none where z_none says; an algorithm that does not apply must answer as the plain call.
** Sets ran[algo]. */
static void algos_on(const cba_shape* s, cldnnDataType_t dt, unsigned mask, unsigned z_none, double rtol,
                     double atol_rel, int ran[CLDNN_CONVOLUTION_FWD_ALGO_COUNT]) {
    cba t;
    cba_init(&t, s, dt);
    for (int a = 0; a < CLDNN_CONVOLUTION_FWD_ALGO_COUNT; ++a) {
        const cldnnConvolutionFwdAlgo_t algo = (cldnnConvolutionFwdAlgo_t)a;
        size_t need = 0;
        cldnnStatus_t st = cldnnGetConvolutionForwardWorkspaceSize(fx_handle(), t.x.desc, t.wd, t.cd, t.y.desc, algo,
                                                                   &need);
        if (st == CLDNN_STATUS_NOT_SUPPORTED || st == CLDNN_STATUS_NOT_SUPPORTED_DATA_TYPE) {
            FX_EXPECT_STATUS(st, run_fused(&t, algo, 1.0f, 0.0f, Z_NONE));
            continue;
        }
        if (!(mask & (1u << a)))
            continue;
        FX_ASSERT(st == CLDNN_STATUS_SUCCESS && need <= WS_MAX, "%s %s: workspace query %d, %zu bytes", s->name,
                  algo_names[a], (int)st, need);
        const float a1 = 0.75f, a2[3] = {0.0f, -0.5f, 1.25f};
        for (int zm = (z_none & (1u << a)) ? 0 : 1; zm < 3; ++zm) {
            char ctx[128];
            snprintf(ctx, sizeof ctx, "%s %s %s %s", s->name, algo_names[a], z_names[zm],
                     dt == CLDNN_DATA_HALF ? "half" : "float");
            FX_OK(run_fused(&t, algo, a1, a2[zm], (z_mode)zm));
            run_separate(&t, algo, a1, a2[zm]);
            compare_separate(&t, rtol, atol_rel, ctx);
        }
        ran[a] = 1;
    }
    cba_free(&t);
}

Test(cba, algos) {
    int ran[CLDNN_CONVOLUTION_FWD_ALGO_COUNT] = {0};
    for (size_t i = 0; i < sizeof algo_shapes / sizeof algo_shapes[0]; ++i)
        algos_on(&algo_shapes[i], CLDNN_DATA_FLOAT, algo_runs[i].algos, algo_runs[i].z_none, 1e-5, 1e-5, ran);
    /* the algorithms cldnn implements forward (FFT ones are not) */
    const int implemented[] = {CLDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM, CLDNN_CONVOLUTION_FWD_ALGO_GEMM,
                               CLDNN_CONVOLUTION_FWD_ALGO_DIRECT, CLDNN_CONVOLUTION_FWD_ALGO_WINOGRAD,
                               CLDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED};
    for (size_t i = 0; i < sizeof implemented / sizeof implemented[0]; ++i)
        FX_ASSERT(ran[implemented[i]], "algorithm %s ran on none of the shapes", algo_names[implemented[i]]);
}

Test(cba, half) {
    int ran[CLDNN_CONVOLUTION_FWD_ALGO_COUNT] = {0};
    algos_on(&algo_shapes[1], CLDNN_DATA_HALF, ALGO(IMPLICIT_GEMM), ALGO(IMPLICIT_GEMM), 0.0, 4e-3, ran);
    FX_ASSERT(ran[CLDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM], "HALF implicit GEMM did not run");
}

/* Every activation mode against the double reference, on the depthwise direct kernels. */
Test(cba, modes) {
    static const cba_shape dshapes[] = {
        {"direct rows", 2, 4, 6, 6, 8, 3, 3, 1, 1, 4, NCHW},
        {"direct tiled", 1, 2, 5, 34, 2, 3, 3, 1, 1, 2, NCHW},
        {"direct channels-last", 2, 4, 6, 6, 8, 3, 3, 1, 1, 4, NHWC},
    };
    static const cldnnActivationMode_t modes[] = {
        CLDNN_ACTIVATION_SIGMOID,    CLDNN_ACTIVATION_RELU,     CLDNN_ACTIVATION_TANH,
        CLDNN_ACTIVATION_CLIPPED_RELU, CLDNN_ACTIVATION_ELU,    CLDNN_ACTIVATION_IDENTITY,
        CLDNN_ACTIVATION_SWISH,      CLDNN_ACTIVATION_LEAKY_RELU, CLDNN_ACTIVATION_SOFTPLUS,
        CLDNN_ACTIVATION_ABS,        CLDNN_ACTIVATION_GELU};
    const int nmodes = (int)(sizeof modes / sizeof modes[0]);
    const double coef = 0.6, swish = 1.5;
    const float a1 = 1.25f, a2 = -0.75f;
    for (int sh = 0; sh < 3; ++sh) {
        cba t;
        cba_init(&t, &dshapes[sh], CLDNN_DATA_FLOAT);
        FX_OK(cldnnSetActivationDescriptorSwishBeta(t.act, swish));
        ref_conv rc;
        const cba_shape* s = &dshapes[sh];
        cr_assert(ref_conv_init(&rc, s->n, s->c, s->h, s->w, s->k, s->r, s->s, s->pad, s->pad, s->stride, s->stride,
                                1, 1, s->groups, 0, 0) == 0);
        float* xh = fx_tensor_host_floats(&t.x);
        double* want = malloc((size_t)t.y.count * sizeof(double));
        double* scale = malloc((size_t)t.y.count * sizeof(double));
        for (int mi = sh; mi < nmodes; mi += 3) {
            FX_OK(cldnnSetActivationDescriptor(t.act, modes[mi], CLDNN_PROPAGATE_NAN, coef));
            FX_OK(run_fused(&t, CLDNN_CONVOLUTION_FWD_ALGO_DIRECT, a1, a2, Z_SEPARATE));
            fx_tensor_download(&t.y);
            int64_t i = 0;
            for (int n = 0; n < s->n; ++n)
                for (int k = 0; k < s->k; ++k)
                    for (int oh = 0; oh < t.p; ++oh)
                        for (int ow = 0; ow < t.q; ++ow, ++i) {
                            double mag;
                            const double v = a1 * ref_conv_fwd_at(&rc, xh, t.w_host, n, k, oh, ow, &mag) +
                                             a2 * fx_tensor_host(&t.z, i) + fx_tensor_host(&t.bias, k);
                            want[i] = ref_act_forward((int)modes[mi], coef, swish, v);
                            scale[i] = fabs(a1) * mag + fabs(a2 * fx_tensor_host(&t.z, i)) +
                                       fabs(fx_tensor_host(&t.bias, k));
                        }
            char msg[512];
            const int64_t bad = fx_compare(&t.y, want, scale, 1e-6, 1e-5, msg, sizeof msg, NULL);
            FX_ASSERT(bad == 0, "%s, mode %d: %lld elements differ from the double reference: %s", s->name,
                      (int)modes[mi], (long long)bad, msg);
        }
        free(want);
        free(scale);
        free(xh);
        cba_free(&t);
    }
}

Test(cba, bad) {
    cldnnHandle_t h = fx_handle();
    cba t;
    cba_init(&t, &algo_shapes[1], CLDNN_DATA_FLOAT);
    const cldnnConvolutionFwdAlgo_t IG = CLDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM;
    const float one = 1.0f;
    fx_tensor wrongz, wrongb, stridedz, halfz, bfx, bfy, bfb;
    fx_tensor_4d(&wrongz, NCHW, CLDNN_DATA_FLOAT, t.s.n, t.s.k, t.p, t.q + 1, 0);
    fx_tensor_4d(&wrongb, NCHW, CLDNN_DATA_FLOAT, 1, t.s.k + 1, 1, 1, 0);
    fx_tensor_4d(&stridedz, NHWC, CLDNN_DATA_FLOAT, t.s.n, t.s.k, t.p, t.q, 0);
    fx_tensor_4d(&halfz, NCHW, CLDNN_DATA_HALF, t.s.n, t.s.k, t.p, t.q, 0);
    fx_tensor_4d(&bfx, NCHW, CLDNN_DATA_BFLOAT16, t.s.n, t.s.c, t.s.h, t.s.w, 0);
    fx_tensor_4d(&bfy, NCHW, CLDNN_DATA_BFLOAT16, t.s.n, t.s.k, t.p, t.q, 0);
    fx_tensor_4d(&bfb, NCHW, CLDNN_DATA_BFLOAT16, 1, t.s.k, 1, 1, 0);
    cldnnFilterDescriptor_t bfw;
    FX_OK(cldnnCreateFilterDescriptor(&bfw));
    FX_OK(cldnnSetFilter4dDescriptor(bfw, CLDNN_DATA_BFLOAT16, NCHW, t.s.k, t.s.c, t.s.r, t.s.s));
    cldnnActivationDescriptor_t unset;
    FX_OK(cldnnCreateActivationDescriptor(&unset));
    fx_tensor_poison_random(&t.y);
    fx_tensor_upload(&t.y);
#define CALL(a1, a2, zd, zm, bd, bm, act, algo, wss)                                                              \
    cldnnConvolutionBiasActivationForward(h, a1, t.x.desc, t.x.mem, t.x.offset, t.wd, t.w, 0, t.cd, algo, t.ws, 0, \
                                          wss, a2, zd, zm, 0, bd, bm, t.bias.offset, act, t.y.desc, t.y.mem,     \
                                          t.y.offset)
    const cldnnStatus_t SM = CLDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, NP = CLDNN_STATUS_BAD_PARAM_NULL_POINTER,
                        BP = CLDNN_STATUS_BAD_PARAM;
    FX_EXPECT_STATUS(SM, CALL(&one, &one, wrongz.desc, wrongz.mem, t.bias.desc, t.bias.mem, t.act, IG, t.ws_size));
    FX_EXPECT_STATUS(SM, CALL(&one, &one, t.z.desc, t.z.mem, wrongb.desc, wrongb.mem, t.act, IG, t.ws_size));
    FX_EXPECT_STATUS(SM, CALL(&one, &one, t.z.desc, t.z.mem, t.z.desc, t.bias.mem, t.act, IG, t.ws_size));
    FX_EXPECT_STATUS(CLDNN_STATUS_NOT_SUPPORTED_LAYOUT,
                     CALL(&one, &one, stridedz.desc, stridedz.mem, t.bias.desc, t.bias.mem, t.act, IG, t.ws_size));
    FX_EXPECT_STATUS(BP, CALL(&one, &one, halfz.desc, halfz.mem, t.bias.desc, t.bias.mem, t.act, IG, t.ws_size));
    FX_EXPECT_STATUS(BP, CALL(&one, &one, t.z.desc, t.z.mem, bfb.desc, bfb.mem, t.act, IG, t.ws_size));
    FX_EXPECT_STATUS(NP, CALL(&one, &one, t.z.desc, t.z.mem, t.bias.desc, t.bias.mem, NULL, IG, t.ws_size));
    FX_EXPECT_STATUS(BP, CALL(&one, &one, t.z.desc, t.z.mem, t.bias.desc, t.bias.mem, unset, IG, t.ws_size));
    FX_EXPECT_STATUS(NP, CALL(&one, &one, t.z.desc, t.z.mem, t.bias.desc, NULL, t.act, IG, t.ws_size));
    FX_EXPECT_STATUS(NP, CALL(&one, &one, t.z.desc, NULL, t.bias.desc, t.bias.mem, t.act, IG, t.ws_size));
    FX_EXPECT_STATUS(NP, CALL(NULL, &one, t.z.desc, t.z.mem, t.bias.desc, t.bias.mem, t.act, IG, t.ws_size));
    FX_EXPECT_STATUS(NP, CALL(&one, NULL, t.z.desc, t.z.mem, t.bias.desc, t.bias.mem, t.act, IG, t.ws_size));
    FX_EXPECT_STATUS(NP, CALL(&one, &one, NULL, t.z.mem, t.bias.desc, t.bias.mem, t.act, IG, t.ws_size));
    FX_EXPECT_STATUS(NP, CALL(&one, &one, t.z.desc, t.z.mem, NULL, t.bias.mem, t.act, IG, t.ws_size));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
                     CALL(&one, &one, t.z.desc, t.z.mem, t.bias.desc, t.bias.mem, t.act,
                          (cldnnConvolutionFwdAlgo_t)CLDNN_CONVOLUTION_FWD_ALGO_COUNT, t.ws_size));
    FX_EXPECT_STATUS(CLDNN_STATUS_NOT_SUPPORTED, CALL(&one, &one, t.z.desc, t.z.mem, t.bias.desc, t.bias.mem, t.act,
                                                      CLDNN_CONVOLUTION_FWD_ALGO_FFT, t.ws_size));
    /* non-fused Winograd needs its workspace */
    size_t need = 0;
    FX_OK(cldnnGetConvolutionForwardWorkspaceSize(h, t.x.desc, t.wd, t.cd, t.y.desc,
                                                  CLDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED, &need));
    cr_assert(need > 0);
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT,
                     CALL(&one, &one, t.z.desc, t.z.mem, t.bias.desc, t.bias.mem, t.act,
                          CLDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED, need - 1));
    /* bfloat16: only where the convolution kernels take it */
    const float zero = 0.0f;
    const cldnnStatus_t bst = cldnnConvolutionForward(h, &one, bfx.desc, bfx.mem, 0, bfw, t.w, 0, t.cd, IG, NULL, 0,
                                                      0, &zero, bfy.desc, bfy.mem, 0);
    if (bst != CLDNN_STATUS_SUCCESS)
        FX_EXPECT_STATUS(bst, cldnnConvolutionBiasActivationForward(
                                  h, &one, bfx.desc, bfx.mem, 0, bfw, t.w, 0, t.cd, IG, NULL, 0, 0, &one, bfy.desc,
                                  bfy.mem, 0, bfb.desc, bfb.mem, 0, t.act, bfy.desc, bfy.mem, 0));
#undef CALL
    fx_expect_untouched(&t.y, "y", "rejected fused calls");
    cldnnDestroyActivationDescriptor(unset);
    cldnnDestroyFilterDescriptor(bfw);
    fx_tensor_free(&wrongz);
    fx_tensor_free(&wrongb);
    fx_tensor_free(&stridedz);
    fx_tensor_free(&halfz);
    fx_tensor_free(&bfx);
    fx_tensor_free(&bfy);
    fx_tensor_free(&bfb);
    cba_free(&t);
}
