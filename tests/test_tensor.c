/*
** test_tensor.c: cldnnAddTensor, cldnnSetTensor, cldnnScaleTensor and cldnnTransformTensor
** against host references computed in double from the same float (or half) inputs.
**
** Every case runs on poisoned buffers (NaN when the output's prior content must not be read,
** random otherwise), with non-zero byte offsets, and checks that nothing outside the output view
** changed and that inputs are untouched. Every function also gets bad inputs, each of which must
** leave a non-empty last-error string.
*/
#include "fixture.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

TestSuite(add_tensor, .fini = fx_fini);
TestSuite(set_tensor, .fini = fx_fini);
TestSuite(scale_tensor, .fini = fx_fini);
TestSuite(transform_tensor, .fini = fx_fini);

#define RTOL 1e-6
#define ATOL 1e-7
#define HALF_RTOL 2e-3
#define HALF_ATOL 1e-4
#define BF16_RTOL 8e-3
#define BF16_ATOL 1e-3

static double rtol_of(cldnnDataType_t dt) {
    return dt == CLDNN_DATA_HALF ? HALF_RTOL : dt == CLDNN_DATA_BFLOAT16 ? BF16_RTOL : RTOL;
}
static double atol_of(cldnnDataType_t dt) {
    return dt == CLDNN_DATA_HALF ? HALF_ATOL : dt == CLDNN_DATA_BFLOAT16 ? BF16_ATOL : ATOL;
}
static const char* dt_name(cldnnDataType_t dt) {
    return dt == CLDNN_DATA_HALF ? "half" : dt == CLDNN_DATA_BFLOAT16 ? "bfloat16" : "float";
}

/* How a tensor of a case is described. */
typedef enum { S_NCHW, S_NHWC, S_EX, S_ND } skind;

typedef struct {
    skind kind;
    int64_t strides[8]; /* S_EX, S_ND (all zero: packed) */
    size_t off;         /* elements */
} tspec;

/* Creates t with dims and spec s (nd must be 4 for S_NCHW, S_NHWC, S_EX). */
static void make(fx_tensor* t, cldnnDataType_t dt, int nd, const int64_t* dims, const tspec* s) {
    size_t off = s->off * fx_dtype_size(dt);
    switch (s->kind) {
    case S_NCHW:
    case S_NHWC:
        fx_tensor_4d(t, s->kind == S_NCHW ? CLDNN_TENSOR_NCHW : CLDNN_TENSOR_NHWC, dt, (int)dims[0], (int)dims[1],
                     (int)dims[2], (int)dims[3], off);
        break;
    case S_EX:
        fx_tensor_4d_ex(t, dt, (int)dims[0], (int)dims[1], (int)dims[2], (int)dims[3], (int)s->strides[0],
                        (int)s->strides[1], (int)s->strides[2], (int)s->strides[3], off);
        break;
    case S_ND:
        fx_tensor_nd(t, dt, nd, dims, s->strides[0] ? s->strides : NULL, off);
        break;
    }
}

/* Poisons per beta: NaN when beta == 0, random otherwise. */
static void poison_out(fx_tensor* t, float beta) {
    if (beta == 0.0f)
        fx_tensor_poison_nan(t);
    else
        fx_tensor_poison_random(t);
}

/* Requires t's whole buffer to equal what was uploaded. */
static void expect_untouched(fx_tensor* t, const char* what) {
    fx_tensor_download(t);
    FX_ASSERT(memcmp(t->host, t->got, t->nbuf * t->elem) == 0, "%s was modified", what);
}

/* Compares t (downloaded) with want/scale and checks its gaps; `what` names the case. */
static void expect_result(fx_tensor* t, const double* want, const double* scale, double atol, double rtol,
                          const char* what) {
    char msg[512];
    double worst = 0;
    int64_t bad = fx_compare(t, want, scale, atol, rtol, msg, sizeof msg, &worst);
    FX_ASSERT(bad == 0, "%s: %lld of %lld wrong; first: %s", what, (long long)bad, (long long)t->count, msg);
    int64_t gaps = fx_tensor_gaps_changed(t);
    FX_ASSERT(gaps == 0, "%s: %lld elements outside the output view changed", what, (long long)gaps);
}

static const float k_ab[][2] = {{1.0f, 0.0f}, {0.5f, 0.25f}, {2.0f, -1.0f}, {1.0f, 1.0f}};
#define NAB (sizeof k_ab / sizeof k_ab[0])

/* ------------------------------------------------------------------------------- AddTensor */

typedef struct {
    const char* name;
    int nd;
    int64_t cdims[8], adims[8];
    tspec c, a;
} add_case;

static const add_case k_add[] = {
    {"same shape", 4, {2, 3, 5, 7}, {2, 3, 5, 7}, {S_NCHW, {0}, 7}, {S_NCHW, {0}, 3}},
    {"bias 1xCx1x1", 4, {2, 3, 5, 7}, {1, 3, 1, 1}, {S_NCHW, {0}, 1}, {S_NCHW, {0}, 7}},
    {"1x1xHxW", 4, {2, 3, 5, 7}, {1, 1, 5, 7}, {S_NCHW, {0}, 2}, {S_NCHW, {0}, 1}},
    {"Nx1x1x1", 4, {2, 3, 5, 7}, {2, 1, 1, 1}, {S_NCHW, {0}, 0}, {S_NCHW, {0}, 5}},
    {"scalar 1x1x1x1", 4, {2, 3, 5, 7}, {1, 1, 1, 1}, {S_NCHW, {0}, 3}, {S_NCHW, {0}, 1}},
    {"1xCxHx1", 4, {2, 3, 5, 7}, {1, 3, 5, 1}, {S_NCHW, {0}, 7}, {S_NCHW, {0}, 7}},
    {"C nhwc, A nchw", 4, {2, 3, 5, 7}, {2, 3, 5, 7}, {S_NHWC, {0}, 7}, {S_NCHW, {0}, 2}},
    {"C nhwc, bias", 4, {2, 5, 3, 4}, {1, 5, 1, 1}, {S_NHWC, {0}, 4}, {S_NCHW, {0}, 3}},
    {"C padded 4dEx, bias", 4, {2, 3, 5, 7}, {1, 3, 1, 1}, {S_EX, {256, 83, 16, 2}, 7}, {S_NCHW, {0}, 1}},
    {"A padded 4dEx", 4, {2, 3, 5, 7}, {2, 3, 5, 7}, {S_NCHW, {0}, 1}, {S_EX, {160, 50, 9, 1}, 7}},
    {"5-d gaps", 5, {2, 3, 4, 5, 3}, {1, 3, 1, 5, 1}, {S_ND, {400, 120, 28, 5, 1}, 7}, {S_ND, {0}, 1}},
    {"1-d", 1, {41}, {41}, {S_ND, {2}, 1}, {S_ND, {1}, 7}},
    {"larger, bias", 4, {4, 64, 17, 19}, {1, 64, 1, 1}, {S_NCHW, {0}, 7}, {S_NCHW, {0}, 0}},
};

/* One AddTensor run; ab selects alpha/beta. */
static void add_once(const add_case* k, float alpha, float beta, cldnnDataType_t dt) {
    fx_tensor A, C;
    make(&A, dt, k->nd, k->adims, &k->a);
    make(&C, dt, k->nd, k->cdims, &k->c);
    fx_tensor_poison_random(&A);
    fx_tensor_fill_uniform(&A, -3.0, 3.0);
    poison_out(&C, beta);
    if (beta != 0.0f)
        fx_tensor_fill_uniform(&C, -3.0, 3.0);
    fx_tensor_upload(&A);
    fx_tensor_upload(&C);
    double* want = malloc((size_t)C.count * sizeof(double));
    double* scale = malloc((size_t)C.count * sizeof(double));
    FX_ASSERT(want && scale, "out of memory");
    for (int64_t i = 0; i < C.count; i++) {
        int64_t idx[8], ai = 0;
        fx_unravel(&C.view, i, idx);
        for (int d = 0; d < k->nd; d++)
            ai = ai * k->adims[d] + (k->adims[d] == 1 ? 0 : idx[d]);
        double a = alpha * fx_tensor_host(&A, ai);
        double c = beta != 0.0f ? beta * fx_tensor_host(&C, i) : 0.0;
        want[i] = a + c;
        scale[i] = fabs(a) + fabs(c);
    }
    FX_OK(cldnnAddTensor(fx_handle(), &alpha, A.desc, A.mem, A.offset, &beta, C.desc, C.mem, C.offset));
    fx_tensor_download(&C);
    char what[256];
    snprintf(what, sizeof what, "AddTensor \"%s\" %s alpha %g beta %g", k->name, dt_name(dt), alpha, beta);
    expect_result(&C, want, scale, atol_of(dt), rtol_of(dt), what);
    expect_untouched(&A, "A");
    free(want);
    free(scale);
    fx_tensor_free(&A);
    fx_tensor_free(&C);
}

Test(add_tensor, float_cases) {
    for (size_t k = 0; k < sizeof k_add / sizeof k_add[0]; k++)
        for (size_t ab = 0; ab < NAB; ab++)
            add_once(&k_add[k], k_ab[ab][0], k_ab[ab][1], CLDNN_DATA_FLOAT);
}

Test(add_tensor, half_cases) {
    const size_t ks[] = {0, 1, 6, 8};
    for (size_t k = 0; k < sizeof ks / sizeof ks[0]; k++)
        for (size_t ab = 0; ab < NAB; ab++)
            add_once(&k_add[ks[k]], k_ab[ab][0], k_ab[ab][1], CLDNN_DATA_HALF);
}

Test(add_tensor, bfloat16_cases) {
    const size_t ks[] = {0, 1, 8, 12};
    for (size_t k = 0; k < sizeof ks / sizeof ks[0]; k++)
        for (size_t ab = 0; ab < NAB; ab++)
            add_once(&k_add[ks[k]], k_ab[ab][0], k_ab[ab][1], CLDNN_DATA_BFLOAT16);
}

Test(add_tensor, bad_inputs) {
    cldnnHandle_t h = fx_handle();
    float one = 1.0f, zero = 0.0f;
    const tspec p = {S_NCHW, {0}, 1};
    fx_tensor C, Ab, A2, A3, Aw;
    make(&C, CLDNN_DATA_FLOAT, 4, (const int64_t[]){2, 3, 5, 7}, &p);
    make(&Ab, CLDNN_DATA_FLOAT, 4, (const int64_t[]){1, 3, 1, 1}, &p); /* a valid bias */
    make(&A2, CLDNN_DATA_FLOAT, 4, (const int64_t[]){1, 2, 1, 1}, &p); /* 2 is neither 1 nor 3 */
    make(&Aw, CLDNN_DATA_FLOAT, 4, (const int64_t[]){2, 3, 5, 8}, &p); /* bigger than C */
    const tspec nd3 = {S_ND, {0}, 1};
    make(&A3, CLDNN_DATA_FLOAT, 3, (const int64_t[]){3, 5, 7}, &nd3); /* C's trailing dims, one rank less */
    fx_tensor_poison_random(&C);
    fx_tensor_upload(&C);
    const cldnnStatus_t SM = CLDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, NP = CLDNN_STATUS_BAD_PARAM_NULL_POINTER;
    FX_EXPECT_STATUS(SM, cldnnAddTensor(h, &one, A2.desc, A2.mem, 4, &one, C.desc, C.mem, 4));
    FX_EXPECT_STATUS(SM, cldnnAddTensor(h, &one, Aw.desc, Aw.mem, 4, &one, C.desc, C.mem, 4));
    FX_EXPECT_STATUS(SM, cldnnAddTensor(h, &one, A3.desc, A3.mem, 4, &one, C.desc, C.mem, 4));
    FX_EXPECT_STATUS(NP, cldnnAddTensor(NULL, &one, Ab.desc, Ab.mem, 4, &one, C.desc, C.mem, 4));
    FX_EXPECT_STATUS(NP, cldnnAddTensor(h, NULL, Ab.desc, Ab.mem, 4, &one, C.desc, C.mem, 4));
    FX_EXPECT_STATUS(NP, cldnnAddTensor(h, &one, Ab.desc, Ab.mem, 4, NULL, C.desc, C.mem, 4));
    FX_EXPECT_STATUS(NP, cldnnAddTensor(h, &one, NULL, Ab.mem, 4, &zero, C.desc, C.mem, 4));
    FX_EXPECT_STATUS(NP, cldnnAddTensor(h, &one, Ab.desc, NULL, 4, &zero, C.desc, C.mem, 4));
    FX_EXPECT_STATUS(NP, cldnnAddTensor(h, &one, Ab.desc, Ab.mem, 4, &zero, NULL, C.mem, 4));
    FX_EXPECT_STATUS(NP, cldnnAddTensor(h, &one, Ab.desc, Ab.mem, 4, &zero, C.desc, NULL, 4));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_MISALIGNED,
                     cldnnAddTensor(h, &one, Ab.desc, Ab.mem, 6, &zero, C.desc, C.mem, 4));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_MISALIGNED,
                     cldnnAddTensor(h, &one, Ab.desc, Ab.mem, 4, &zero, C.desc, C.mem, 3));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT,
                     cldnnAddTensor(h, &one, Ab.desc, Ab.mem, 4, &zero, C.desc, Ab.mem, 4));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT,
                     cldnnAddTensor(h, &one, Ab.desc, Ab.mem, 4 * (2 + FX_TAIL), &zero, C.desc, C.mem, 4));
    expect_untouched(&C, "C");
    fx_tensor_free(&C);
    fx_tensor_free(&Ab);
    fx_tensor_free(&A2);
    fx_tensor_free(&A3);
    fx_tensor_free(&Aw);
}

/* ------------------------------------------------------------------------------- SetTensor */

typedef struct {
    const char* name;
    int nd;
    int64_t dims[8];
    tspec y;
} one_case;

static const one_case k_views[] = {
    {"packed nchw", 4, {2, 3, 5, 7}, {S_NCHW, {0}, 7}},
    {"nhwc", 4, {2, 3, 5, 7}, {S_NHWC, {0}, 1}},
    {"padded 4dEx", 4, {2, 3, 5, 7}, {S_EX, {256, 83, 16, 2}, 3}},
    {"1x1x1x1", 4, {1, 1, 1, 1}, {S_NCHW, {0}, 5}},
    {"5-d gaps", 5, {2, 3, 4, 3, 5}, {S_ND, {400, 120, 28, 8, 1}, 7}},
    {"1-d strided", 1, {37}, {S_ND, {3}, 2}},
    {"larger", 4, {3, 32, 29, 31}, {S_NCHW, {0}, 1}},
};
#define NVIEWS (sizeof k_views / sizeof k_views[0])

/* One SetTensor on view v (NaN-poisoned: SetTensor must not read y), checked exactly. */
static void set_once(const one_case* v, float value, cldnnDataType_t dt) {
    fx_tensor y;
    make(&y, dt, v->nd, v->dims, &v->y);
    fx_tensor_poison_nan(&y);
    fx_tensor_upload(&y);
    FX_OK(cldnnSetTensor(fx_handle(), y.desc, y.mem, y.offset, &value));
    fx_tensor_download(&y);
    double* want = malloc((size_t)y.count * sizeof(double));
    for (int64_t i = 0; i < y.count; i++)
        want[i] = fx_round_dtype(dt, value);
    char what[128];
    snprintf(what, sizeof what, "SetTensor \"%s\" %s value %g", v->name, dt_name(dt), value);
    expect_result(&y, want, NULL, 0.0, 0.0, what);
    free(want);
    fx_tensor_free(&y);
}

Test(set_tensor, every_element_of_a_view) {
    const float values[] = {3.25f, -0.0078125f, 1.0e30f};
    for (size_t v = 0; v < NVIEWS; v++)
        for (size_t k = 0; k < sizeof values / sizeof values[0]; k++)
            set_once(&k_views[v], values[k], CLDNN_DATA_FLOAT);
}

Test(set_tensor, bfloat16) {
    for (size_t v = 0; v < NVIEWS; v++)
        set_once(&k_views[v], v % 2 ? -3.25f : 1.0e30f, CLDNN_DATA_BFLOAT16);
}

Test(set_tensor, bad_inputs) {
    cldnnHandle_t h = fx_handle();
    float v = 1.0f;
    fx_tensor y;
    make(&y, CLDNN_DATA_FLOAT, 4, (const int64_t[]){2, 3, 5, 7}, &(tspec){S_NCHW, {0}, 1});
    fx_tensor_poison_random(&y);
    fx_tensor_upload(&y);
    cldnnTensorDescriptor_t unset;
    FX_OK(cldnnCreateTensorDescriptor(&unset));
    const cldnnStatus_t NP = CLDNN_STATUS_BAD_PARAM_NULL_POINTER;
    FX_EXPECT_STATUS(NP, cldnnSetTensor(NULL, y.desc, y.mem, 4, &v));
    FX_EXPECT_STATUS(NP, cldnnSetTensor(h, NULL, y.mem, 4, &v));
    FX_EXPECT_STATUS(NP, cldnnSetTensor(h, y.desc, NULL, 4, &v));
    FX_EXPECT_STATUS(NP, cldnnSetTensor(h, y.desc, y.mem, 4, NULL));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM, cldnnSetTensor(h, unset, y.mem, 4, &v));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_MISALIGNED, cldnnSetTensor(h, y.desc, y.mem, 5, &v));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT, cldnnSetTensor(h, y.desc, y.mem, 4 * (1 + FX_TAIL) + 4, &v));
    expect_untouched(&y, "y");
    cldnnDestroyTensorDescriptor(unset);
    fx_tensor_free(&y);
}

/* ----------------------------------------------------------------------------- ScaleTensor */

Test(scale_tensor, views_and_alphas) {
    const float alphas[] = {0.5f, 1.7f, -3.0f, 0.0f};
    for (size_t v = 0; v < NVIEWS; v++)
        for (size_t k = 0; k < sizeof alphas / sizeof alphas[0]; k++) {
            fx_tensor y;
            make(&y, CLDNN_DATA_FLOAT, k_views[v].nd, k_views[v].dims, &k_views[v].y);
            fx_tensor_poison_random(&y);
            fx_tensor_fill_uniform(&y, -5.0, 5.0);
            fx_tensor_upload(&y);
            float alpha = alphas[k];
            double* want = malloc((size_t)y.count * sizeof(double));
            for (int64_t i = 0; i < y.count; i++)
                want[i] = alpha * fx_tensor_host(&y, i);
            FX_OK(cldnnScaleTensor(fx_handle(), y.desc, y.mem, y.offset, &alpha));
            fx_tensor_download(&y);
            char what[128];
            snprintf(what, sizeof what, "ScaleTensor \"%s\" alpha %g", k_views[v].name, alpha);
            /* 0.5 and 0 are exact in float; the others round once */
            int exact = alpha == 0.5f || alpha == 0.0f;
            expect_result(&y, want, NULL, 0.0, exact ? 0.0 : 1e-7, what);
            free(want);
            fx_tensor_free(&y);
        }
}

/* 16-bit storage: halving a value of magnitude >= 0.01 is exact in half and bfloat16. */
static void scale_16(cldnnDataType_t dt) {
    fx_tensor y;
    make(&y, dt, 4, (const int64_t[]){2, 3, 5, 7}, &(tspec){S_EX, {256, 83, 16, 2}, 3});
    fx_tensor_poison_random(&y);
    for (int64_t i = 0; i < y.count; i++)
        fx_tensor_set(&y, i, (i % 2 ? -1 : 1) * fx_uniform(0.01, 5.0));
    fx_tensor_upload(&y);
    float alpha = 0.5f;
    double* want = malloc((size_t)y.count * sizeof(double));
    for (int64_t i = 0; i < y.count; i++)
        want[i] = 0.5 * fx_tensor_host(&y, i);
    FX_OK(cldnnScaleTensor(fx_handle(), y.desc, y.mem, y.offset, &alpha));
    fx_tensor_download(&y);
    char what[64];
    snprintf(what, sizeof what, "ScaleTensor %s alpha 0.5", dt_name(dt));
    expect_result(&y, want, NULL, 0.0, 0.0, what);
    free(want);
    fx_tensor_free(&y);
}

Test(scale_tensor, half) { scale_16(CLDNN_DATA_HALF); }

Test(scale_tensor, bfloat16) { scale_16(CLDNN_DATA_BFLOAT16); }

Test(scale_tensor, bad_inputs) {
    cldnnHandle_t h = fx_handle();
    float a = 2.0f;
    fx_tensor y;
    make(&y, CLDNN_DATA_FLOAT, 4, (const int64_t[]){2, 3, 5, 7}, &(tspec){S_NCHW, {0}, 1});
    fx_tensor_poison_random(&y);
    fx_tensor_upload(&y);
    const cldnnStatus_t NP = CLDNN_STATUS_BAD_PARAM_NULL_POINTER;
    FX_EXPECT_STATUS(NP, cldnnScaleTensor(NULL, y.desc, y.mem, 4, &a));
    FX_EXPECT_STATUS(NP, cldnnScaleTensor(h, NULL, y.mem, 4, &a));
    FX_EXPECT_STATUS(NP, cldnnScaleTensor(h, y.desc, NULL, 4, &a));
    FX_EXPECT_STATUS(NP, cldnnScaleTensor(h, y.desc, y.mem, 4, NULL));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_MISALIGNED, cldnnScaleTensor(h, y.desc, y.mem, 1, &a));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT, cldnnScaleTensor(h, y.desc, y.mem, 4 * (1 + FX_TAIL) + 4, &a));
    fx_tensor d;
    make(&d, CLDNN_DATA_DOUBLE, 4, (const int64_t[]){2, 3, 5, 7}, &(tspec){S_NCHW, {0}, 1});
    double da = 2.0;
    FX_EXPECT_STATUS(CLDNN_STATUS_NOT_SUPPORTED_DATA_TYPE, cldnnScaleTensor(h, d.desc, d.mem, 8, &da));
    expect_untouched(&y, "y");
    fx_tensor_free(&d);
    fx_tensor_free(&y);
}

/* ------------------------------------------------------------------------- TransformTensor */

typedef struct {
    const char* name;
    int nd;
    int64_t dims[8];
    tspec x, y;
} xf_case;

static const xf_case k_xf[] = {
    {"nchw -> nhwc", 4, {2, 3, 5, 7}, {S_NCHW, {0}, 7}, {S_NHWC, {0}, 3}},
    {"nhwc -> nchw", 4, {2, 3, 5, 7}, {S_NHWC, {0}, 1}, {S_NCHW, {0}, 7}},
    {"padded -> packed", 4, {2, 3, 5, 7}, {S_EX, {256, 83, 16, 2}, 3}, {S_NCHW, {0}, 1}},
    {"packed -> padded nhwc-like", 4, {2, 3, 5, 7}, {S_NCHW, {0}, 2}, {S_EX, {130, 1, 24, 3}, 5}},
    /* 5-d: y packs the dims in the order 1, 3, 0, 4, 2 (slowest first) */
    {"5-d permutation", 5, {2, 3, 4, 5, 6}, {S_ND, {0}, 1}, {S_ND, {24, 240, 1, 48, 4}, 7}},
    {"5-d gaps -> permutation", 5, {2, 3, 4, 5, 6}, {S_ND, {1000, 300, 70, 13, 2}, 2}, {S_ND, {24, 240, 1, 48, 4}, 0}},
    {"1-d", 1, {29}, {S_ND, {3}, 1}, {S_ND, {1}, 1}},
    {"larger nchw -> nhwc", 4, {2, 64, 28, 30}, {S_NCHW, {0}, 7}, {S_NHWC, {0}, 1}},
};
#define NXF (sizeof k_xf / sizeof k_xf[0])

/* One TransformTensor run; exact (atol = rtol = 0) when alpha 1 beta 0. */
static void transform_once(const xf_case* k, float alpha, float beta, cldnnDataType_t dt) {
    fx_tensor x, y;
    make(&x, dt, k->nd, k->dims, &k->x);
    make(&y, dt, k->nd, k->dims, &k->y);
    fx_tensor_poison_random(&x);
    fx_tensor_fill_uniform(&x, -100.0, 100.0);
    poison_out(&y, beta);
    fx_tensor_upload(&x);
    fx_tensor_upload(&y);
    double* want = malloc((size_t)x.count * sizeof(double));
    double* scale = malloc((size_t)x.count * sizeof(double));
    for (int64_t i = 0; i < x.count; i++) {
        double a = alpha * fx_tensor_host(&x, i);
        double b = beta != 0.0f ? beta * fx_tensor_host(&y, i) : 0.0;
        want[i] = a + b;
        scale[i] = fabs(a) + fabs(b);
    }
    FX_OK(cldnnTransformTensor(fx_handle(), &alpha, x.desc, x.mem, x.offset, &beta, y.desc, y.mem, y.offset));
    fx_tensor_download(&y);
    int exact = alpha == 1.0f && beta == 0.0f;
    char what[256];
    snprintf(what, sizeof what, "TransformTensor \"%s\" %s alpha %g beta %g", k->name, dt_name(dt), alpha, beta);
    if (exact)
        expect_result(&y, want, scale, 0.0, 0.0, what);
    else
        expect_result(&y, want, scale, atol_of(dt), rtol_of(dt), what);
    expect_untouched(&x, "x");
    free(want);
    free(scale);
    fx_tensor_free(&x);
    fx_tensor_free(&y);
}

Test(transform_tensor, exact_copies) {
    for (size_t k = 0; k < NXF; k++)
        transform_once(&k_xf[k], 1.0f, 0.0f, CLDNN_DATA_FLOAT);
}

Test(transform_tensor, alpha_beta) {
    for (size_t k = 0; k < NXF - 1; k++)
        for (size_t ab = 1; ab < NAB; ab++)
            transform_once(&k_xf[k], k_ab[ab][0], k_ab[ab][1], CLDNN_DATA_FLOAT);
    transform_once(&k_xf[0], 0.5f, 0.0f, CLDNN_DATA_FLOAT);
}

Test(transform_tensor, half) {
    for (size_t k = 0; k < NXF; k++)
        transform_once(&k_xf[k], 1.0f, 0.0f, CLDNN_DATA_HALF);
    transform_once(&k_xf[0], 0.5f, 0.25f, CLDNN_DATA_HALF);
}

Test(transform_tensor, bfloat16) {
    for (size_t k = 0; k < NXF; k++)
        transform_once(&k_xf[k], 1.0f, 0.0f, CLDNN_DATA_BFLOAT16);
    transform_once(&k_xf[0], 0.5f, 0.25f, CLDNN_DATA_BFLOAT16);
}

Test(transform_tensor, bad_inputs) {
    cldnnHandle_t h = fx_handle();
    float one = 1.0f, zero = 0.0f;
    const tspec p = {S_NCHW, {0}, 1}, nd = {S_ND, {0}, 1};
    fx_tensor x, y, yw, y3;
    make(&x, CLDNN_DATA_FLOAT, 4, (const int64_t[]){2, 3, 5, 7}, &p);
    make(&y, CLDNN_DATA_FLOAT, 4, (const int64_t[]){2, 3, 5, 7}, &p);
    make(&yw, CLDNN_DATA_FLOAT, 4, (const int64_t[]){2, 3, 7, 5}, &p); /* same count, other dims */
    make(&y3, CLDNN_DATA_FLOAT, 3, (const int64_t[]){6, 5, 7}, &nd);
    fx_tensor_poison_random(&y);
    fx_tensor_upload(&y);
    const cldnnStatus_t SM = CLDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, NP = CLDNN_STATUS_BAD_PARAM_NULL_POINTER;
    FX_EXPECT_STATUS(SM, cldnnTransformTensor(h, &one, x.desc, x.mem, 4, &zero, yw.desc, yw.mem, 4));
    FX_EXPECT_STATUS(SM, cldnnTransformTensor(h, &one, x.desc, x.mem, 4, &zero, y3.desc, y3.mem, 4));
    FX_EXPECT_STATUS(NP, cldnnTransformTensor(h, NULL, x.desc, x.mem, 4, &zero, y.desc, y.mem, 4));
    FX_EXPECT_STATUS(NP, cldnnTransformTensor(h, &one, x.desc, x.mem, 4, NULL, y.desc, y.mem, 4));
    FX_EXPECT_STATUS(NP, cldnnTransformTensor(NULL, &one, x.desc, x.mem, 4, &zero, y.desc, y.mem, 4));
    FX_EXPECT_STATUS(NP, cldnnTransformTensor(h, &one, NULL, x.mem, 4, &zero, y.desc, y.mem, 4));
    FX_EXPECT_STATUS(NP, cldnnTransformTensor(h, &one, x.desc, NULL, 4, &zero, y.desc, y.mem, 4));
    FX_EXPECT_STATUS(NP, cldnnTransformTensor(h, &one, x.desc, x.mem, 4, &zero, y.desc, NULL, 4));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_MISALIGNED,
                     cldnnTransformTensor(h, &one, x.desc, x.mem, 4, &zero, y.desc, y.mem, 2));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT,
                     cldnnTransformTensor(h, &one, x.desc, x.mem, 4 * (2 + FX_TAIL), &zero, y.desc, y.mem, 4));
    expect_untouched(&y, "y");
    fx_tensor_free(&x);
    fx_tensor_free(&y);
    fx_tensor_free(&yw);
    fx_tensor_free(&y3);
}
