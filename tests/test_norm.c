/*
** test_norm.c: cldnnNormalizationForward / Backward (layer, group, instance, RMS) against a double
** reference, and the backward against central differences of the double forward.
**
**   nm_fwd::<mode>      y over a table of layouts per mode (2-d to 5-d, LAYER param 1..3, GROUP
**                       with 1 < groups < C and groups == C (instance), NCHW, NHWC, padded and
**                       permuted strides, byte offsets on every buffer), with and without affine,
**                       with and without saved statistics, every (alpha, beta) of the fixture
**                       (y NaN-filled when beta == 0); the saved mean / invStd against the
**                       reference; nothing outside the views changes, x stays as it was.
**   nm_bwd::<mode>      dx, dScale, dBias on the same layouts from the reference's statistics,
**                       affine or not, dScale / dBias given or NULL, (alpha, beta) pairs for both.
**   nm_fd::<mode>       dx, dScale, dBias of loss = sum(y * r) (r random) against central
**                       differences of the double forward.
**   nm_bwd::in_place    y == x and dx == dy, fused and split.
**   nm_bwd::teams_and_row_loops  several rows per work-group and groups looping over rows
**                       (norm.c's CLDNN_NORM_TR / CLDNN_NORM_NG hooks), and on NVIDIA the backward
**                       loop's cp.async stages (CLDNN_NORM_ASYNC 2 to 4).
**   nm_split::*         the split solver forced (CLDNN_SOLVER=norm_split), forward and backward.
**   nm_types::*         HALF and BFLOAT16 storage (x, y, dy, dx and parameters), on the
**                       vectorized layouts.
**   nm_bad::*           every entry's bad inputs.
** Tolerance: |got - want| <= atol + rtol * scale, scale the size of the terms (|alpha| times the
** normalized value's magnitude plus |beta * prior|); float rtol 1e-4 (a row's float sums), half
** 4e-3, bfloat16 2e-2.
*/
#include "fixture.h"
#include "ref_norm.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

TestSuite(nm_fwd, .fini = fx_fini);
TestSuite(nm_bwd, .fini = fx_fini);
TestSuite(nm_fd, .fini = fx_fini);
TestSuite(nm_split, .fini = fx_fini);
TestSuite(nm_types, .fini = fx_fini);
TestSuite(nm_bad, .fini = fx_fini);

#define EPS 1e-5

/* One layout: x on a, y / dx on b, dy on c. */
typedef struct {
    const char* name;
    cldnnNormMode_t mode;
    int param;
    int nd;
    int64_t dims[8];
    fx_tdesc a, b, c;
} nm_layout;

static const nm_layout k_layer[] = {
    {"6x768 param 1", CLDNN_NORM_LAYER, 1, 2, {6, 768}, {FX_ND, {0}, 4}, {FX_ND, {0}, 8}, {FX_ND, {0}, 0}},
    {"3x5x7 param 2 padded", CLDNN_NORM_LAYER, 2, 3, {3, 5, 7}, {FX_ND, {50, 9, 1}, 3}, {FX_ND, {0}, 1},
     {FX_ND, {1, 3, 15}, 2}},
    {"2x3x4x5 param 3 nhwc -> nchw", CLDNN_NORM_LAYER, 3, 4, {2, 3, 4, 5}, {FX_NHWC, {0}, 1}, {FX_NCHW, {0}, 0},
     {FX_NHWC, {0}, 3}},
    {"4x6 param 2 (one row)", CLDNN_NORM_LAYER, 2, 2, {4, 6}, {FX_ND, {0}, 0}, {FX_ND, {1, 4}, 0}, {FX_ND, {0}, 1}},
    /* one row of two: the backward's column partials fill one float4 of scratch */
    {"1x2 one short row", CLDNN_NORM_LAYER, 1, 2, {1, 2}, {FX_ND, {0}, 0}, {FX_ND, {0}, 0}, {FX_ND, {0}, 0}},
    {"2x3x2x5x8 param 1 5-d", CLDNN_NORM_LAYER, 1, 5, {2, 3, 2, 5, 8}, {FX_ND, {0}, 0}, {FX_ND, {0}, 4},
     {FX_ND, {0}, 0}},
};
static const nm_layout k_group[] = {
    {"2x6x5x7 g3 nchw", CLDNN_NORM_GROUP, 3, 4, {2, 6, 5, 7}, {FX_NCHW, {0}, 2}, {FX_NCHW, {0}, 0}, {FX_NCHW, {0}, 1}},
    {"2x8x3x4 g2 nhwc", CLDNN_NORM_GROUP, 2, 4, {2, 8, 3, 4}, {FX_NHWC, {0}, 0}, {FX_NHWC, {0}, 4}, {FX_NHWC, {0}, 0}},
    {"2x6x5x7 instance nhwc -> padded", CLDNN_NORM_GROUP, 6, 4, {2, 6, 5, 7}, {FX_NHWC, {0}, 1},
     {FX_EX, {300, 48, 9, 1}, 3}, {FX_NCHW, {0}, 0}},
    {"3x4x4x4 instance nchw", CLDNN_NORM_GROUP, 4, 4, {3, 4, 4, 4}, {FX_NCHW, {0}, 0}, {FX_NCHW, {0}, 4},
     {FX_NCHW, {0}, 0}},
    {"2x8x12 g2 3-d", CLDNN_NORM_GROUP, 2, 3, {2, 8, 12}, {FX_ND, {0}, 0}, {FX_ND, {0}, 0}, {FX_ND, {0}, 4}},
    /* one sample, no spatial dims: the rows collapse to one dim, the parameters' view does not */
    {"1x8 g2 2-d", CLDNN_NORM_GROUP, 2, 2, {1, 8}, {FX_ND, {0}, 0}, {FX_ND, {0}, 1}, {FX_ND, {0}, 0}},
    /* one group on NHWC: contiguous rows whose inner dims are (channel, plane), not flattened */
    {"2x8x4x4 g1 nhwc", CLDNN_NORM_GROUP, 1, 4, {2, 8, 4, 4}, {FX_NHWC, {0}, 0}, {FX_NHWC, {0}, 0},
     {FX_NHWC, {0}, 0}},
    /* the forward's flattened rows (NM_PFLAT) in vectors, some spanning two channels (7 x 7) */
    {"2x8x7x7 g2 nchw", CLDNN_NORM_GROUP, 2, 4, {2, 8, 7, 7}, {FX_NCHW, {0}, 0}, {FX_NCHW, {0}, 4},
     {FX_NCHW, {0}, 0}},
};
static const nm_layout k_rms[] = {
    {"5x64 param 1", CLDNN_NORM_RMS, 1, 2, {5, 64}, {FX_ND, {0}, 4}, {FX_ND, {0}, 0}, {FX_ND, {0}, 0}},
    {"3x5x7 param 2 strided", CLDNN_NORM_RMS, 2, 3, {3, 5, 7}, {FX_ND, {1, 3, 15}, 1}, {FX_ND, {40, 8, 1}, 2},
     {FX_ND, {0}, 0}},
    {"2x3x4x5 param 3 nhwc", CLDNN_NORM_RMS, 3, 4, {2, 3, 4, 5}, {FX_NHWC, {0}, 0}, {FX_NHWC, {0}, 2},
     {FX_NCHW, {0}, 1}},
};
#define COUNT(a) ((int)(sizeof a / sizeof a[0]))

/* ------------------------------------------------------------------------ reference */

static ref_norm ref_of(const nm_layout* l) {
    ref_norm r = {(int)l->mode, l->param, l->nd, {0}, EPS};
    memcpy(r.dims, l->dims, sizeof r.dims);
    return r;
}
static void ref_index(const nm_layout* l, int64_t i, int64_t* row, int64_t* par) {
    ref_norm r = ref_of(l);
    ref_norm_index(&r, i, row, par);
}
static int64_t ref_count(const nm_layout* l) {
    ref_norm r = ref_of(l);
    return ref_norm_count(&r);
}
static int64_t ref_rows(const nm_layout* l) {
    ref_norm r = ref_of(l);
    return ref_norm_rows(&r);
}
static int64_t ref_params(const nm_layout* l) {
    ref_norm r = ref_of(l);
    return ref_norm_params(&r);
}
static void ref_forward(const nm_layout* l, const double* x, const double* sc, const double* bi, double* mean,
                        double* istd, double* y) {
    ref_norm r = ref_of(l);
    ref_norm_forward(&r, x, sc, bi, mean, istd, y);
}
static void ref_backward(const nm_layout* l, const double* x, const double* dy, const double* sc, const double* mean,
                         const double* istd, double* dx, double* ds, double* db) {
    ref_norm r = ref_of(l);
    ref_norm_backward(&r, x, dy, sc, mean, istd, dx, ds, db);
}

/* ------------------------------------------------------------------------ harness */

typedef struct {
    fx_tensor x, y, dy, dx, scale, bias, ds, db, mean, istd;
    cldnnTensorDescriptor_t pdesc, sdesc;
    cldnnNormDescriptor_t nd;
    double *hx, *hdy, *hs, *hb, *mean_r, *istd_r, *y_r, *dx_r, *ds_r, *db_r;
    int64_t n, R, P;
} nm_ctx;

static double* host_doubles(const fx_tensor* t) {
    double* p = malloc((size_t)t->count * sizeof(double) + 8);
    for (int64_t i = 0; i < t->count; i++)
        p[i] = fx_tensor_host(t, i);
    return p;
}

static void aux_tensor(fx_tensor* t, cldnnTensorDescriptor_t like, cldnnDataType_t dt, size_t off_elems) {
    cldnnDataType_t got;
    int nd;
    int64_t dims[8], strides[8];
    FX_OK(cldnnGetTensorNdDescriptor(like, 8, &got, &nd, dims, strides));
    fx_tensor_nd(t, dt, nd, dims, NULL, off_elems * fx_dtype_size(dt));
}

/* Builds every tensor of layout l (data type dt), random inputs, and the double reference. */
static void ctx_init(nm_ctx* c, const nm_layout* l, cldnnDataType_t dt) {
    memset(c, 0, sizeof *c);
    FX_OK(cldnnCreateNormDescriptor(&c->nd));
    FX_OK(cldnnSetNormDescriptor(c->nd, l->mode, l->param, EPS));
    fx_tensor_from_desc(&c->x, l->nd, l->dims, &l->a, dt);
    fx_tensor_from_desc(&c->y, l->nd, l->dims, &l->b, dt);
    fx_tensor_from_desc(&c->dy, l->nd, l->dims, &l->c, dt);
    fx_tensor_from_desc(&c->dx, l->nd, l->dims, &l->b, dt);
    FX_OK(cldnnCreateTensorDescriptor(&c->pdesc));
    FX_OK(cldnnCreateTensorDescriptor(&c->sdesc));
    FX_OK(cldnnDeriveNormTensorDescriptors(c->nd, c->x.desc, c->pdesc, c->sdesc));
    aux_tensor(&c->scale, c->pdesc, dt, 4);
    aux_tensor(&c->bias, c->pdesc, dt, 0);
    aux_tensor(&c->ds, c->pdesc, dt, 8);
    aux_tensor(&c->db, c->pdesc, dt, 2);
    aux_tensor(&c->mean, c->sdesc, CLDNN_DATA_FLOAT, 3);
    aux_tensor(&c->istd, c->sdesc, CLDNN_DATA_FLOAT, 1);
    fx_tensor_poison_random(&c->x);
    fx_tensor_fill_uniform(&c->x, -2.0, 3.0);
    fx_tensor_poison_random(&c->dy);
    fx_tensor_fill_uniform(&c->dy, -1.0, 1.0);
    fx_tensor_poison_random(&c->scale);
    fx_tensor_fill_uniform(&c->scale, 0.5, 1.5);
    fx_tensor_poison_random(&c->bias);
    fx_tensor_fill_uniform(&c->bias, -1.0, 1.0);
    fx_tensor_upload(&c->x);
    fx_tensor_upload(&c->dy);
    fx_tensor_upload(&c->scale);
    fx_tensor_upload(&c->bias);
    c->n = ref_count(l);
    c->R = ref_rows(l);
    c->P = ref_params(l);
    c->hx = host_doubles(&c->x);
    c->hdy = host_doubles(&c->dy);
    c->hs = host_doubles(&c->scale);
    c->hb = host_doubles(&c->bias);
    c->mean_r = malloc((size_t)c->R * sizeof(double));
    c->istd_r = malloc((size_t)c->R * sizeof(double));
    c->y_r = malloc((size_t)c->n * sizeof(double));
    c->dx_r = malloc((size_t)c->n * sizeof(double));
    c->ds_r = malloc((size_t)c->P * sizeof(double));
    c->db_r = malloc((size_t)c->P * sizeof(double));
}

static void ctx_free(nm_ctx* c) {
    fx_tensor* t[] = {&c->x, &c->y, &c->dy, &c->dx, &c->scale, &c->bias, &c->ds, &c->db, &c->mean, &c->istd};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        fx_tensor_free(t[i]);
    cldnnDestroyTensorDescriptor(c->pdesc);
    cldnnDestroyTensorDescriptor(c->sdesc);
    cldnnDestroyNormDescriptor(c->nd);
    double* d[] = {c->hx, c->hdy, c->hs, c->hb, c->mean_r, c->istd_r, c->y_r, c->dx_r, c->ds_r, c->db_r};
    for (size_t i = 0; i < sizeof d / sizeof d[0]; i++)
        free(d[i]);
}

static double rtol_of(cldnnDataType_t dt) {
    return dt == CLDNN_DATA_HALF ? 4e-3 : dt == CLDNN_DATA_BFLOAT16 ? 2e-2 : 1e-4;
}

/* Compares t with want (blended with the prior by alpha / beta; mag the unblended magnitude). */
static void expect_out(const fx_tensor* t, const double* want, const double* mag, float alpha, float beta,
                       double atol, const char* what, const nm_layout* l, const char* ctx) {
    int64_t n = t->count;
    double* w = malloc((size_t)n * sizeof(double));
    double* s = malloc((size_t)n * sizeof(double));
    for (int64_t i = 0; i < n; i++) {
        double prior = beta != 0.0f ? beta * fx_tensor_host(t, i) : 0.0;
        w[i] = alpha * want[i] + prior;
        s[i] = fabs(alpha) * (mag ? mag[i] : fabs(want[i])) + fabs(prior);
    }
    char msg[512];
    double rtol = rtol_of(t->dtype);
    int64_t bad = fx_compare(t, w, s, atol, rtol, msg, sizeof msg, NULL);
    FX_ASSERT(bad == 0, "%s \"%s\" %s, alpha %g beta %g: %lld of %lld wrong; first: %s", what, l->name, ctx, alpha,
              beta, (long long)bad, (long long)n, msg);
    int64_t gaps = fx_tensor_gaps_changed(t);
    FX_ASSERT(gaps == 0, "%s \"%s\" %s: %lld elements outside the view changed", what, l->name, ctx, (long long)gaps);
    free(w);
    free(s);
}

/* Forward of layout l with (alpha, beta); affine, save as named. */
static void run_fwd(nm_ctx* c, const nm_layout* l, float alpha, float beta, int affine, int save) {
    char ctx[96];
    snprintf(ctx, sizeof ctx, "affine %d save %d", affine, save);
    fx_poison_out(&c->y, beta);
    fx_tensor_upload(&c->y);
    fx_tensor_poison_nan(&c->mean);
    fx_tensor_poison_nan(&c->istd);
    fx_tensor_upload(&c->mean);
    fx_tensor_upload(&c->istd);
    int rms = l->mode == CLDNN_NORM_RMS;
    FX_OK(cldnnNormalizationForward(fx_handle(), c->nd, &alpha, &beta, c->x.desc, c->x.mem, c->x.offset, c->pdesc,
                                    affine ? c->scale.mem : NULL, c->scale.offset, affine ? c->bias.mem : NULL,
                                    c->bias.offset, c->sdesc, save && !rms ? c->mean.mem : NULL, c->mean.offset,
                                    save ? c->istd.mem : NULL, c->istd.offset, c->y.desc, c->y.mem, c->y.offset));
    ref_forward(l, c->hx, affine ? c->hs : NULL, c->hb, c->mean_r, c->istd_r, c->y_r);
    double* mag = malloc((size_t)c->n * sizeof(double));
    int64_t row, par;
    for (int64_t i = 0; i < c->n; i++) {
        ref_index(l, i, &row, &par);
        double v = fabs(c->hx[i] - c->mean_r[row]) * c->istd_r[row] + 1.0;
        mag[i] = affine ? v * fabs(c->hs[par]) + fabs(c->hb[par]) : v;
    }
    fx_tensor_download(&c->y);
    expect_out(&c->y, c->y_r, mag, alpha, beta, 1e-6, "forward y", l, ctx);
    fx_expect_untouched(&c->x, "x", l->name);
    if (save) {
        fx_tensor_download(&c->istd);
        expect_out(&c->istd, c->istd_r, NULL, 1.0f, 0.0f, 1e-6, "forward invStd", l, ctx);
        fx_tensor_download(&c->mean);
        if (!rms)
            expect_out(&c->mean, c->mean_r, NULL, 1.0f, 0.0f, 1e-5,
                       "forward mean", l, ctx);
        else
            FX_ASSERT(fx_tensor_gaps_changed(&c->mean) == 0 && isnan(fx_tensor_got(&c->mean, 0)),
                      "RMS wrote mean (\"%s\")", l->name);
    }
    free(mag);
}

/* Uploads the reference statistics (from x) as the saved ones. */
static void upload_stats(nm_ctx* c, const nm_layout* l) {
    ref_forward(l, c->hx, NULL, NULL, c->mean_r, c->istd_r, c->y_r);
    fx_tensor_poison_nan(&c->mean);
    fx_tensor_poison_nan(&c->istd);
    for (int64_t r = 0; r < c->R; r++) {
        fx_tensor_set(&c->mean, r, c->mean_r[r]);
        fx_tensor_set(&c->istd, r, c->istd_r[r]);
    }
    fx_tensor_upload(&c->mean);
    fx_tensor_upload(&c->istd);
    /* the kernels use the float statistics: the reference takes the same */
    for (int64_t r = 0; r < c->R; r++) {
        c->mean_r[r] = fx_tensor_host(&c->mean, r);
        c->istd_r[r] = fx_tensor_host(&c->istd, r);
    }
}

static void run_bwd(nm_ctx* c, const nm_layout* l, float alpha, float beta, float a2, float b2, int affine,
                    int grads) {
    char ctx[96];
    snprintf(ctx, sizeof ctx, "affine %d grads %d a2 %g b2 %g", affine, grads, a2, b2);
    upload_stats(c, l);
    fx_poison_out(&c->dx, beta);
    fx_tensor_upload(&c->dx);
    fx_poison_out(&c->ds, b2);
    fx_poison_out(&c->db, b2);
    fx_tensor_upload(&c->ds);
    fx_tensor_upload(&c->db);
    int rms = l->mode == CLDNN_NORM_RMS;
    FX_OK(cldnnNormalizationBackward(fx_handle(), c->nd, &alpha, &beta, &a2, &b2, c->x.desc, c->x.mem, c->x.offset,
                                     c->dy.desc, c->dy.mem, c->dy.offset, c->pdesc, affine ? c->scale.mem : NULL,
                                     c->scale.offset, grads ? c->ds.mem : NULL, c->ds.offset,
                                     grads ? c->db.mem : NULL, c->db.offset, c->sdesc, rms ? NULL : c->mean.mem,
                                     c->mean.offset, c->istd.mem, c->istd.offset, c->dx.desc, c->dx.mem,
                                     c->dx.offset));
    ref_backward(l, c->hx, c->hdy, affine ? c->hs : NULL, c->mean_r, c->istd_r, c->dx_r, c->ds_r, c->db_r);
    /* magnitudes: the terms dx is made of */
    double* mag = malloc((size_t)(c->n > c->P ? c->n : c->P) * sizeof(double));
    int64_t row, par;
    for (int64_t i = 0; i < c->n; i++) {
        ref_index(l, i, &row, &par);
        double g = fabs(c->hdy[i]) * (affine ? fabs(c->hs[par]) : 1.0) + 1.0;
        mag[i] = c->istd_r[row] * g * 3.0;
    }
    fx_tensor_download(&c->dx);
    expect_out(&c->dx, c->dx_r, mag, alpha, beta, 1e-6, "backward dx", l, ctx);
    if (grads) {
        double* m2 = malloc((size_t)c->P * sizeof(double));
        for (int64_t p = 0; p < c->P; p++)
            m2[p] = (double)c->n / (double)c->P * 3.0;
        fx_tensor_download(&c->ds);
        expect_out(&c->ds, c->ds_r, m2, a2, b2, 1e-5, "backward dScale", l, ctx);
        fx_tensor_download(&c->db);
        expect_out(&c->db, c->db_r, m2, a2, b2, 1e-5, "backward dBias", l, ctx);
        free(m2);
    } else {
        fx_expect_untouched(&c->ds, "dScale (NULL)", l->name);
    }
    fx_expect_untouched(&c->x, "x", l->name);
    fx_expect_untouched(&c->dy, "dy", l->name);
    free(mag);
}

/* Every layout of a table through forward and backward, every flag combination. */
static void run_table(const nm_layout* t, int n, cldnnDataType_t dt, int nab) {
    for (int i = 0; i < n; i++) {
        nm_ctx c;
        ctx_init(&c, &t[i], dt);
        for (int ab = 0; ab < nab; ab++) {
            float al = fx_alpha_beta[ab][0], be = fx_alpha_beta[ab][1];
            int affine = (ab + i) % 2, save = (ab + i / 2) % 2;
            run_fwd(&c, &t[i], al, be, affine, save);
            run_fwd(&c, &t[i], al, be, !affine, !save);
            run_bwd(&c, &t[i], al, be, fx_alpha_beta[(ab + 1) % FX_NAB][0], fx_alpha_beta[(ab + 1) % FX_NAB][1],
                    affine, 1);
            run_bwd(&c, &t[i], al, be, 1.0f, 0.0f, !affine, ab == 0 ? 0 : 1);
        }
        ctx_free(&c);
    }
}

Test(nm_fwd, layer) { run_table(k_layer, COUNT(k_layer), CLDNN_DATA_FLOAT, FX_NAB); }
Test(nm_fwd, group) { run_table(k_group, COUNT(k_group), CLDNN_DATA_FLOAT, FX_NAB); }
Test(nm_fwd, rms) { run_table(k_rms, COUNT(k_rms), CLDNN_DATA_FLOAT, FX_NAB); }

Test(nm_split, all_modes) {
    setenv("CLDNN_SOLVER", "norm_split", 1);
    run_table(k_layer, 2, CLDNN_DATA_FLOAT, 2);
    run_table(k_group, 3, CLDNN_DATA_FLOAT, 2);
    run_table(k_rms, 2, CLDNN_DATA_FLOAT, 2);
    /* a row long enough for several chunks per row */
    static const nm_layout big = {"2x3x64x64 g3 split", CLDNN_NORM_GROUP, 3, 4, {2, 3, 64, 64}, {FX_NCHW, {0}, 0},
                                  {FX_NCHW, {0}, 0}, {FX_NCHW, {0}, 0}};
    run_table(&big, 1, CLDNN_DATA_FLOAT, 1);
    unsetenv("CLDNN_SOLVER");
}

/* HALF and BFLOAT16 on the vectorized path only (layouts of VEC = 4: 6x768, NHWC groups, 5x64):
** their scalar loads and stores are helpers.h's (the VEC = 1 kernels are float-tested), the vector
** ones norm.cl's; each scalar build would add ~20 s of PoCL compile to the cold run. */
Test(nm_types, half) {
    run_table(&k_layer[0], 1, CLDNN_DATA_HALF, FX_NAB);
    run_table(&k_group[1], 1, CLDNN_DATA_HALF, FX_NAB);
    run_table(&k_rms[0], 1, CLDNN_DATA_HALF, 2);
}

Test(nm_types, bfloat16) {
    run_table(&k_layer[0], 1, CLDNN_DATA_BFLOAT16, 2);
    run_table(&k_group[1], 1, CLDNN_DATA_BFLOAT16, 2);
    run_table(&k_rms[0], 1, CLDNN_DATA_BFLOAT16, 2);
}

/* Larger rows: the GPU-sized paths on a CPU too (register cache overflow, vectors). */
Test(nm_bwd, long_rows) {
    static const nm_layout t[] = {
        {"3x4096 layer", CLDNN_NORM_LAYER, 1, 2, {3, 4096}, {FX_ND, {0}, 0}, {FX_ND, {0}, 0}, {FX_ND, {0}, 0}},
        {"2x4x40x40 g2", CLDNN_NORM_GROUP, 2, 4, {2, 4, 40, 40}, {FX_NHWC, {0}, 0}, {FX_NCHW, {0}, 0},
         {FX_NCHW, {0}, 0}},
        {"2x1000 rms", CLDNN_NORM_RMS, 1, 2, {2, 1000}, {FX_ND, {0}, 0}, {FX_ND, {0}, 0}, {FX_ND, {0}, 0}},
        /* more than a work-group keeps in registers (256 x 32): the streaming path, or with dScale /
        ** dBias the split a chunk per channel (several samples and groups in the second) */
        {"1x2x96x96 g1", CLDNN_NORM_GROUP, 1, 4, {1, 2, 96, 96}, {FX_NCHW, {0}, 0}, {FX_NCHW, {0}, 0},
         {FX_NCHW, {0}, 0}},
        {"2x4x64x80 g2", CLDNN_NORM_GROUP, 2, 4, {2, 4, 64, 80}, {FX_NCHW, {0}, 0}, {FX_NCHW, {0}, 0},
         {FX_NCHW, {0}, 0}},
    };
    run_table(t, COUNT(t), CLDNN_DATA_FLOAT, 1);
}

/* Several rows per work-group (teams, as GPUs run short rows) and groups looping over rows (as
** the backward does when it takes dScale / dBias along), through norm.c's test hooks: 3 teams,
** 2 groups, so the last pass holds inactive teams. */
Test(nm_bwd, teams_and_row_loops) {
    static const nm_layout t[] = {
        {"37x96 layer", CLDNN_NORM_LAYER, 1, 2, {37, 96}, {FX_ND, {0}, 0}, {FX_ND, {0}, 1}, {FX_ND, {0}, 0}},
        {"3x5x24 rms", CLDNN_NORM_RMS, 1, 3, {3, 5, 24}, {FX_ND, {0}, 0}, {FX_ND, {0}, 0}, {FX_ND, {0}, 0}},
    };
    setenv("CLDNN_NORM_TR", "3", 1);
    setenv("CLDNN_NORM_NG", "2", 1);
    run_table(t, COUNT(t), CLDNN_DATA_FLOAT, 2);
    run_table(k_layer, COUNT(k_layer), CLDNN_DATA_FLOAT, 1);
    unsetenv("CLDNN_NORM_TR");
    /* NVIDIA: the backward loop's cp.async stages (NM_ASYNC), 2 to 4 of them, on vectorized rows
    ** (every offset a multiple of 4) of which the 2 groups' last passes hold inactive ones */
    static const nm_layout tv[] = {
        {"37x96 layer vec", CLDNN_NORM_LAYER, 1, 2, {37, 96}, {FX_ND, {0}, 4}, {FX_ND, {0}, 0}, {FX_ND, {0}, 8}},
        {"3x5x24 rms", CLDNN_NORM_RMS, 1, 3, {3, 5, 24}, {FX_ND, {0}, 0}, {FX_ND, {0}, 0}, {FX_ND, {0}, 0}},
    };
    for (int st = 2; st <= 4; ++st) {
        char v[8];
        snprintf(v, sizeof v, "%d", st);
        setenv("CLDNN_NORM_ASYNC", v, 1);
        run_table(tv, COUNT(tv), CLDNN_DATA_FLOAT, 1);
        run_table(tv, 1, st == 3 ? CLDNN_DATA_BFLOAT16 : CLDNN_DATA_HALF, 1);
    }
    unsetenv("CLDNN_NORM_ASYNC");
    unsetenv("CLDNN_NORM_NG");
}

/* y == x and dx == dy (same buffer, offset and strides), fused and split: the parameter gradients
** must read dy before dx overwrites it. */
Test(nm_bwd, in_place) {
    static const nm_layout t[] = {
        {"4x2x96 g2 in place", CLDNN_NORM_GROUP, 2, 3, {4, 2, 96}, {FX_ND, {0}, 2}, {FX_ND, {0}, 2}, {FX_ND, {0}, 2}},
        {"5x40 layer in place", CLDNN_NORM_LAYER, 1, 2, {5, 40}, {FX_ND, {0}, 1}, {FX_ND, {0}, 1}, {FX_ND, {0}, 1}},
    };
    float one = 1.0f, zero = 0.0f;
    for (int split = 0; split < 2; split++) {
        if (split)
            setenv("CLDNN_SOLVER", "norm_split", 1);
        for (int i = 0; i < COUNT(t); i++) {
            nm_ctx c;
            ctx_init(&c, &t[i], CLDNN_DATA_FLOAT);
            upload_stats(&c, &t[i]);
            fx_tensor_poison_nan(&c.ds);
            fx_tensor_poison_nan(&c.db);
            fx_tensor_upload(&c.ds);
            fx_tensor_upload(&c.db);
            FX_OK(cldnnNormalizationBackward(fx_handle(), c.nd, &one, &zero, &one, &zero, c.x.desc, c.x.mem, c.x.offset,
                                             c.dy.desc, c.dy.mem, c.dy.offset, c.pdesc, c.scale.mem, c.scale.offset,
                                             c.ds.mem, c.ds.offset, c.db.mem, c.db.offset, c.sdesc, c.mean.mem,
                                             c.mean.offset, c.istd.mem, c.istd.offset, c.dy.desc, c.dy.mem,
                                             c.dy.offset));
            ref_backward(&t[i], c.hx, c.hdy, c.hs, c.mean_r, c.istd_r, c.dx_r, c.ds_r, c.db_r);
            fx_tensor_download(&c.dy);
            expect_out(&c.dy, c.dx_r, NULL, 1.0f, 0.0f, 1e-5, "in-place dx", &t[i], split ? "split" : "fused");
            fx_tensor_download(&c.ds);
            expect_out(&c.ds, c.ds_r, NULL, 1.0f, 0.0f, 1e-4, "in-place dScale", &t[i], split ? "split" : "fused");
            FX_OK(cldnnNormalizationForward(fx_handle(), c.nd, &one, &zero, c.x.desc, c.x.mem, c.x.offset, c.pdesc,
                                            c.scale.mem, c.scale.offset, c.bias.mem, c.bias.offset, c.sdesc, NULL, 0,
                                            NULL, 0, c.x.desc, c.x.mem, c.x.offset));
            ref_forward(&t[i], c.hx, c.hs, c.hb, c.mean_r, c.istd_r, c.y_r);
            fx_tensor_download(&c.x);
            expect_out(&c.x, c.y_r, NULL, 1.0f, 0.0f, 1e-5, "in-place y", &t[i], split ? "split" : "fused");
            ctx_free(&c);
        }
    }
    unsetenv("CLDNN_SOLVER");
}

/* ------------------------------------------------------------------ finite differences */

static double loss_of(const nm_layout* l, const double* x, const double* s, const double* b, const double* r,
                      int64_t n, int64_t R) {
    double* m = malloc((size_t)R * sizeof(double));
    double* is = malloc((size_t)R * sizeof(double));
    double* y = malloc((size_t)n * sizeof(double));
    ref_forward(l, x, s, b, m, is, y);
    double L = 0;
    for (int64_t i = 0; i < n; i++)
        L += y[i] * r[i];
    free(m);
    free(is);
    free(y);
    return L;
}

/* The library's backward (dy = r) against central differences of loss = sum(y * r). */
static void fd_check(const nm_layout* l) {
    nm_ctx c;
    ctx_init(&c, l, CLDNN_DATA_FLOAT);
    run_bwd(&c, l, 1.0f, 0.0f, 1.0f, 0.0f, 1, 1);
    const double h = 1e-4;
    double* xs = malloc((size_t)c.n * sizeof(double));
    double* ps = malloc((size_t)c.P * sizeof(double));
    memcpy(xs, c.hx, (size_t)c.n * sizeof(double));
    for (int64_t i = 0; i < c.n; i++) {
        xs[i] = c.hx[i] + h;
        double lp = loss_of(l, xs, c.hs, c.hb, c.hdy, c.n, c.R);
        xs[i] = c.hx[i] - h;
        double lm = loss_of(l, xs, c.hs, c.hb, c.hdy, c.n, c.R);
        xs[i] = c.hx[i];
        double fd = (lp - lm) / (2 * h), got = fx_tensor_got(&c.dx, i);
        FX_ASSERT(fabs(got - fd) <= 2e-3 * (1.0 + fabs(fd)), "fd \"%s\": dx[%lld] %g, finite difference %g", l->name,
                  (long long)i, got, fd);
    }
    for (int which = 0; which < 2; which++) {
        const double* base = which ? c.hb : c.hs;
        memcpy(ps, base, (size_t)c.P * sizeof(double));
        for (int64_t p = 0; p < c.P; p++) {
            ps[p] = base[p] + h;
            double lp = loss_of(l, c.hx, which ? c.hs : ps, which ? ps : c.hb, c.hdy, c.n, c.R);
            ps[p] = base[p] - h;
            double lm = loss_of(l, c.hx, which ? c.hs : ps, which ? ps : c.hb, c.hdy, c.n, c.R);
            ps[p] = base[p];
            double fd = (lp - lm) / (2 * h), got = fx_tensor_got(which ? &c.db : &c.ds, p);
            FX_ASSERT(fabs(got - fd) <= 2e-3 * (1.0 + fabs(fd)), "fd \"%s\": %s[%lld] %g, finite difference %g",
                      l->name, which ? "dBias" : "dScale", (long long)p, got, fd);
        }
    }
    free(xs);
    free(ps);
    ctx_free(&c);
}

Test(nm_fd, layer) { fd_check(&k_layer[1]); fd_check(&k_layer[2]); }
Test(nm_fd, group) { fd_check(&k_group[0]); fd_check(&k_group[2]); }
Test(nm_fd, rms) { fd_check(&k_rms[1]); }

/* ------------------------------------------------------------------------ bad inputs */

Test(nm_bad, descriptor) {
    cldnnNormDescriptor_t d;
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, cldnnCreateNormDescriptor(NULL));
    FX_OK(cldnnCreateNormDescriptor(&d));
    cldnnNormMode_t m;
    int p;
    double e;
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM, cldnnGetNormDescriptor(d, &m, &p, &e));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, cldnnSetNormDescriptor(NULL, CLDNN_NORM_LAYER, 1, EPS));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, cldnnSetNormDescriptor(d, (cldnnNormMode_t)7, 1, EPS));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, cldnnSetNormDescriptor(d, CLDNN_NORM_LAYER, 0, EPS));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, cldnnSetNormDescriptor(d, CLDNN_NORM_RMS, 9, EPS));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, cldnnSetNormDescriptor(d, CLDNN_NORM_GROUP, 2, 0.0));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, cldnnSetNormDescriptor(d, CLDNN_NORM_GROUP, 2, NAN));
    FX_OK(cldnnSetNormDescriptor(d, CLDNN_NORM_GROUP, 32, 1e-6));
    FX_OK(cldnnGetNormDescriptor(d, &m, &p, &e));
    FX_ASSERT(m == CLDNN_NORM_GROUP && p == 32 && e == 1e-6, "get %d %d %g", (int)m, p, e);
    FX_OK(cldnnGetNormDescriptor(d, NULL, NULL, NULL));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, cldnnGetNormDescriptor(NULL, &m, &p, &e));
    /* derive */
    cldnnTensorDescriptor_t x, pd, sd;
    FX_OK(cldnnCreateTensorDescriptor(&x));
    FX_OK(cldnnCreateTensorDescriptor(&pd));
    FX_OK(cldnnCreateTensorDescriptor(&sd));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM, cldnnDeriveNormTensorDescriptors(d, x, pd, sd)); /* x never set */
    FX_OK(cldnnSetTensor4dDescriptor(x, CLDNN_TENSOR_NCHW, CLDNN_DATA_HALF, 2, 64, 3, 3));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, cldnnDeriveNormTensorDescriptors(NULL, x, pd, sd));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, cldnnDeriveNormTensorDescriptors(d, NULL, pd, sd));
    FX_OK(cldnnDeriveNormTensorDescriptors(d, x, pd, sd));
    cldnnDataType_t dt;
    int n, nd;
    int64_t dims[8], st[8];
    FX_OK(cldnnGetTensorNdDescriptor(pd, 8, &dt, &nd, dims, st));
    FX_ASSERT(dt == CLDNN_DATA_HALF && nd == 4 && dims[1] == 64 && dims[0] == 1 && dims[2] == 1, "group params");
    FX_OK(cldnnGetTensorNdDescriptor(sd, 8, &dt, &nd, dims, st));
    FX_ASSERT(dt == CLDNN_DATA_FLOAT && nd == 4 && dims[0] == 2 && dims[1] == 32 && dims[2] == 1, "group stats");
    FX_OK(cldnnSetNormDescriptor(d, CLDNN_NORM_GROUP, 5, 1e-6));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM, cldnnDeriveNormTensorDescriptors(d, x, pd, NULL));
    FX_OK(cldnnSetNormDescriptor(d, CLDNN_NORM_LAYER, 3, 1e-6));
    FX_OK(cldnnDeriveNormTensorDescriptors(d, x, pd, sd));
    FX_OK(cldnnGetTensorNdDescriptor(pd, 8, &dt, &nd, dims, st));
    FX_ASSERT(nd == 3 && dims[0] == 64 && dims[2] == 3 && st[0] == 9, "layer params");
    FX_OK(cldnnGetTensorNdDescriptor(sd, 8, &dt, &n, dims, st));
    FX_ASSERT(n == 4 && dims[0] == 2 && dims[1] == 1 && dims[3] == 1, "layer stats");
    FX_OK(cldnnSetNormDescriptor(d, CLDNN_NORM_LAYER, 5, 1e-6));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM, cldnnDeriveNormTensorDescriptors(d, x, NULL, sd));
    FX_OK(cldnnDestroyNormDescriptor(NULL));
    FX_OK(cldnnDestroyNormDescriptor(d));
    cldnnDestroyTensorDescriptor(x);
    cldnnDestroyTensorDescriptor(pd);
    cldnnDestroyTensorDescriptor(sd);
}

#define FWD(c, P_h, P_a, P_b, P_xd, P_sc, P_bi, P_pdsc, P_mn, P_is, P_sdsc, P_yd)                                                    \
    cldnnNormalizationForward((P_h), (c).nd, (P_a), (P_b), (P_xd), (c).x.mem, (c).x.offset, (P_pdsc), (P_sc), (c).scale.offset, \
                              (P_bi), (c).bias.offset, (P_sdsc), (P_mn), (c).mean.offset, (P_is), (c).istd.offset, (P_yd), \
                              (c).y.mem, (c).y.offset)
#define BWD(c, P_a, P_xd, P_sc, P_ds, P_db, P_mn, P_is, P_sdsc, P_dxd)                                                           \
    cldnnNormalizationBackward(fx_handle(), (c).nd, (P_a), (P_a), (P_a), (P_a), (P_xd), (c).x.mem, (c).x.offset, (c).dy.desc, \
                               (c).dy.mem, (c).dy.offset, (c).pdesc, (P_sc), (c).scale.offset, (P_ds), (c).ds.offset, \
                               (P_db), (c).db.offset, (P_sdsc), (P_mn), (c).mean.offset, (P_is), (c).istd.offset, (P_dxd), \
                               (c).dx.mem, (c).dx.offset)

Test(nm_bad, forward_backward) {
    nm_ctx c;
    ctx_init(&c, &k_group[0], CLDNN_DATA_FLOAT);
    float one = 1.0f;
    cldnnHandle_t h = fx_handle();
    cl_mem S = c.scale.mem, B = c.bias.mem, M = c.mean.mem, I = c.istd.mem;
    FX_OK(FWD(c, h, &one, &one, c.x.desc, S, B, c.pdesc, M, I, c.sdesc, c.y.desc));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER,
                     FWD(c, NULL, &one, &one, c.x.desc, S, B, c.pdesc, M, I, c.sdesc, c.y.desc));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER,
                     FWD(c, h, NULL, &one, c.x.desc, S, B, c.pdesc, M, I, c.sdesc, c.y.desc));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER,
                     FWD(c, h, &one, &one, NULL, S, B, c.pdesc, M, I, c.sdesc, c.y.desc));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM, FWD(c, h, &one, &one, c.x.desc, S, NULL, c.pdesc, M, I, c.sdesc,
                                                 c.y.desc)); /* one of scale / bias */
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM, FWD(c, h, &one, &one, c.x.desc, S, B, c.pdesc, NULL, I, c.sdesc,
                                                 c.y.desc)); /* one of mean / invStd */
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH,
                     FWD(c, h, &one, &one, c.x.desc, S, B, c.sdesc, M, I, c.sdesc, c.y.desc));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH,
                     FWD(c, h, &one, &one, c.x.desc, S, B, c.pdesc, M, I, c.pdesc, c.y.desc));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH,
                     FWD(c, h, &one, &one, c.x.desc, S, B, c.pdesc, M, I, c.sdesc, c.pdesc));
    /* a buffer too small for its descriptor */
    cl_mem small = fx_buffer(8);
    FX_ASSERT(cldnnNormalizationForward(h, c.nd, &one, &one, c.x.desc, small, 0, c.pdesc, S, 0, B, 0, c.sdesc, M, 0,
                                        I, 0, c.y.desc, c.y.mem, c.y.offset) != CLDNN_STATUS_SUCCESS,
              "small x accepted");
    FX_ASSERT(cldnnNormalizationForward(h, c.nd, &one, &one, c.x.desc, c.x.mem, c.x.offset, c.pdesc, small, 0, B, 0,
                                        c.sdesc, M, 0, I, 0, c.y.desc, c.y.mem, c.y.offset) != CLDNN_STATUS_SUCCESS,
              "small scale accepted");
    fx_release(small);
    /* misaligned byte offset */
    FX_ASSERT(cldnnNormalizationForward(h, c.nd, &one, &one, c.x.desc, c.x.mem, 2, c.pdesc, S, 0, B, 0, c.sdesc, M, 0,
                                        I, 0, c.y.desc, c.y.mem, c.y.offset) != CLDNN_STATUS_SUCCESS,
              "misaligned x accepted");
    /* a never-set descriptor, and C not a multiple of the groups */
    cldnnNormDescriptor_t unset;
    FX_OK(cldnnCreateNormDescriptor(&unset));
    cldnnNormDescriptor_t keep = c.nd;
    c.nd = unset;
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM, FWD(c, h, &one, &one, c.x.desc, S, B, c.pdesc, M, I, c.sdesc, c.y.desc));
    FX_OK(cldnnSetNormDescriptor(unset, CLDNN_NORM_GROUP, 4, EPS));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM, FWD(c, h, &one, &one, c.x.desc, S, B, c.pdesc, M, I, c.sdesc, c.y.desc));
    /* RMS with a mean */
    FX_OK(cldnnSetNormDescriptor(unset, CLDNN_NORM_RMS, 2, EPS));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM, FWD(c, h, &one, &one, c.x.desc, NULL, NULL, c.pdesc, M, I, c.sdesc,
                                                 c.y.desc));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM, BWD(c, &one, c.x.desc, NULL, NULL, NULL, M, I, c.sdesc, c.dx.desc));
    c.nd = keep;
    cldnnDestroyNormDescriptor(unset);
    /* an unsupported data type and mixed types */
    cldnnTensorDescriptor_t dd;
    FX_OK(cldnnCreateTensorDescriptor(&dd));
    FX_OK(cldnnSetTensor4dDescriptor(dd, CLDNN_TENSOR_NCHW, CLDNN_DATA_DOUBLE, 2, 6, 5, 7));
    FX_EXPECT_STATUS(CLDNN_STATUS_NOT_SUPPORTED_DATA_TYPE,
                     FWD(c, h, &one, &one, dd, NULL, NULL, c.pdesc, NULL, NULL, c.sdesc, c.y.desc));
    FX_OK(cldnnSetTensor4dDescriptor(dd, CLDNN_TENSOR_NCHW, CLDNN_DATA_HALF, 2, 6, 5, 7));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM,
                     FWD(c, h, &one, &one, c.x.desc, NULL, NULL, c.pdesc, NULL, NULL, c.sdesc, dd));
    cldnnDestroyTensorDescriptor(dd);
    /* backward: the statistics are required */
    FX_OK(BWD(c, &one, c.x.desc, S, c.ds.mem, c.db.mem, M, I, c.sdesc, c.dx.desc));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER,
                     BWD(c, &one, c.x.desc, S, c.ds.mem, c.db.mem, NULL, I, c.sdesc, c.dx.desc));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER,
                     BWD(c, &one, c.x.desc, S, c.ds.mem, c.db.mem, M, NULL, c.sdesc, c.dx.desc));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER,
                     BWD(c, NULL, c.x.desc, S, c.ds.mem, c.db.mem, M, I, c.sdesc, c.dx.desc));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH,
                     BWD(c, &one, c.x.desc, S, c.ds.mem, c.db.mem, M, I, c.sdesc, c.pdesc));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH,
                     BWD(c, &one, c.x.desc, S, c.ds.mem, c.db.mem, M, I, c.pdesc, c.dx.desc));
    /* dx over x with other strides */
    FX_EXPECT_STATUS(CLDNN_STATUS_NOT_SUPPORTED,
                     cldnnNormalizationBackward(h, c.nd, &one, &one, &one, &one, c.x.desc, c.x.mem, c.x.offset,
                                                c.dy.desc, c.dy.mem, c.dy.offset, c.pdesc, S, c.scale.offset, NULL, 0,
                                                NULL, 0, c.sdesc, M, c.mean.offset, I, c.istd.offset, c.dx.desc,
                                                c.x.mem, c.x.offset + 4));
    ctx_free(&c);
}
