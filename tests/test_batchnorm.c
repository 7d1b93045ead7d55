/*
** test_batchnorm.c: cldnnDeriveBNTensorDescriptor and the batch-normalization calls against the
** double reference (tests/ref/ref_batchnorm.c) and against central differences of that
** reference's training forward.
**
** Per mode (SPATIAL, PER_ACTIVATION), over a table of layouts: NCHW with byte offsets, NHWC,
** batch 1, one channel, padded 4dEx (x, y, dy all strided differently), NHWC -> NCHW, 5-d with
** gaps, 2-d N x C, shapes large enough to take the split (multi-work-group) path in each work
** split: NCHW spatial (lanes along W), NHWC spatial and per-activation (lanes across stats), and
** aligned NCHW layouts (packed and with gaps) that take the 4-element vector path (VEC=4):
**   bn_train::<mode>       y, saved mean and inverse std, running mean and variance updated from
**                          random prior values (factor 0.3, and 1 with NaN priors that must not
**                          be read), with (alpha, beta) (1, 0) (0.5, 0.25) (2, -1), NaN-poisoned
**                          outputs, in place (y == x), running and/or saved pairs NULL
**   bn_infer::<mode>       y from estimated statistics, same layouts and scalars, in place
**   bn_backward::<mode>_*  dx, dScale, dBias with saved statistics and with NULL ones (recomputed),
**                          alpha/beta pairs on both the data and the parameter gradients (betaParam
**                          0 with NaN-poisoned dScale / dBias)
**   bn_gradcheck::<mode>   the library's backward (both saved and recomputed) against central
**                          differences of loss = sum(y * r) through the reference training
**                          forward, for every x element, scale and bias
**   bn_stable              mean 1e4 and unit variance: inverse std and running variance within
**                          1e-4 relative (E[x^2] - E[x]^2 in float would be off by orders of
**                          magnitude), y within the rounding of x - mean
**   bn_misc                determinism (bitwise-equal repeats), backward in place (dx == dy,
**                          dx == x) bitwise equal to out of place, HALF storage, derive
**   bn_bad                 every bad input the contract names, each with its status and a message
** Every element outside each output's view must stay unchanged, and inputs unmodified.
**
** Tolerances: |got - want| <= atol + rtol * scale, scale the sizes of the terms the result is made
** of (so cancellation is not asked to be exact); rtol grows with sqrt(M) / 32 for long sums.
*/
#include "fixture.h"
#include "ref_batchnorm.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

TestSuite(bn_train, .fini = fx_fini);
TestSuite(bn_infer, .fini = fx_fini);
TestSuite(bn_backward, .fini = fx_fini);
TestSuite(bn_gradcheck, .fini = fx_fini);
TestSuite(bn_stable, .fini = fx_fini);
TestSuite(bn_misc, .fini = fx_fini);
TestSuite(bn_bf16, .fini = fx_fini);
TestSuite(bn_bad, .fini = fx_fini);

#define SPATIAL CLDNN_BATCHNORM_SPATIAL
#define PERACT CLDNN_BATCHNORM_PER_ACTIVATION
#define EPS 1e-4

/* ------------------------------------------------------------------------------ layouts */

/* x on a, y on b (dx on b in the backward), dy on c. */
typedef struct {
    const char* name;
    int nd;
    int64_t dims[5];
    fx_tdesc a, b, c;
} layout;

static const layout k_layouts[] = {
    /* 0 */ {"2x3x4x5 offsets", 4, {2, 3, 4, 5}, {FX_NCHW, {0}, 3}, {FX_NCHW, {0}, 1}, {FX_NHWC, {0}, 2}},
    /* 1 */ {"3x5x7x9 nhwc", 4, {3, 5, 7, 9}, {FX_NHWC, {0}, 0}, {FX_NHWC, {0}, 2}, {FX_NCHW, {0}, 1}},
    /* 2 */ {"1x4x6x5 batch 1", 4, {1, 4, 6, 5}, {FX_NCHW, {0}, 1}, {FX_NCHW, {0}, 0}, {FX_NCHW, {0}, 3}},
    /* 3 */ {"5x1x3x7 one channel", 4, {5, 1, 3, 7}, {FX_NCHW, {0}, 0}, {FX_NHWC, {0}, 1}, {FX_NCHW, {0}, 0}},
    /* 4 */ {"2x6x5x7 padded 4dEx", 4, {2, 6, 5, 7}, {FX_EX, {300, 48, 9, 1}, 7}, {FX_EX, {299, 1, 59, 8}, 4},
             {FX_EX, {256, 42, 8, 1}, 5}},
    /* 5 */ {"3x7x5x3 nhwc -> nchw", 4, {3, 7, 5, 3}, {FX_NHWC, {0}, 2}, {FX_NCHW, {0}, 3}, {FX_NHWC, {0}, 0}},
    /* 6 */ {"2x3x2x4x3 5-d gaps", 5, {2, 3, 2, 4, 3}, {FX_ND, {170, 50, 24, 5, 1}, 2}, {FX_ND, {0}, 1},
             {FX_ND, {72, 1, 36, 9, 3}, 4}},
    /* 7 */ {"9x13 2-d", 2, {9, 13}, {FX_ND, {0}, 1}, {FX_ND, {1, 9}, 2}, {FX_ND, {15, 1}, 0}},
    /* 8 */ {"2x2x64x70 split nchw", 4, {2, 2, 64, 70}, {FX_NCHW, {0}, 4}, {FX_NCHW, {0}, 8}, {FX_NCHW, {0}, 0}},
    /* 9 */ {"2x3x40x60 split nhwc", 4, {2, 3, 40, 60}, {FX_NHWC, {0}, 0}, {FX_NHWC, {0}, 1}, {FX_NHWC, {0}, 2}},
    /* 10 */ {"4100x3x1x1 split per-activation", 4, {4100, 3, 1, 1}, {FX_NCHW, {0}, 2}, {FX_NCHW, {0}, 0},
              {FX_NCHW, {0}, 1}},
    /* 11 */ {"3x4x6x6 aligned nchw", 4, {3, 4, 6, 6}, {FX_NCHW, {0}, 4}, {FX_NCHW, {0}, 0}, {FX_NCHW, {0}, 8}},
    /* 12 */ {"2x3x4x8 aligned gaps", 4, {2, 3, 4, 8}, {FX_EX, {112, 36, 8, 1}, 0}, {FX_NCHW, {0}, 4},
              {FX_EX, {100, 32, 8, 1}, 4}},
};
#define NLAYOUTS (sizeof k_layouts / sizeof k_layouts[0])
#define L_FIRST_BIG 8 /* the big layouts (8 to 10) run with one (alpha, beta) pair */
#define L_IS_BIG(l) ((l) >= L_FIRST_BIG && (l) <= 10)

static const char* mode_name(int m) { return m == SPATIAL ? "SPATIAL" : "PER_ACTIVATION"; }

static void make_tensor(fx_tensor* t, const layout* l, const fx_tdesc* d, cldnnDataType_t dt) {
    fx_tensor_from_desc(t, l->nd, l->dims, d, dt);
}

/* A parameter tensor (float, the derived shape, packed) at element offset off. */
static void make_param(fx_tensor* t, const layout* l, int mode, size_t off) {
    int64_t dims[5];
    for (int d = 0; d < l->nd; d++)
        dims[d] = d == 0 ? 1 : d == 1 ? l->dims[1] : mode == SPATIAL ? 1 : l->dims[d];
    fx_tensor_nd(t, CLDNN_DATA_FLOAT, l->nd, dims, NULL, off * sizeof(float));
}

static double* host_doubles(const fx_tensor* t) {
    double* p = malloc((size_t)t->count * sizeof(double));
    FX_ASSERT(p != NULL, "out of memory");
    for (int64_t i = 0; i < t->count; i++)
        p[i] = fx_tensor_host(t, i);
    return p;
}

static double* dalloc(int64_t n) {
    double* p = calloc((size_t)(n > 0 ? n : 1), sizeof(double));
    FX_ASSERT(p != NULL, "out of memory");
    return p;
}

/* Downloads t and compares it with want / scale; checks t's gaps. Returns the worst ratio. */
static double check_out(fx_tensor* t, const double* want, const double* scale, double atol, double rtol,
                        const char* what, const char* ctx) {
    fx_tensor_download(t);
    char msg[512];
    double worst = 0;
    int64_t bad = fx_compare(t, want, scale, atol, rtol, msg, sizeof msg, &worst);
    FX_ASSERT(bad == 0, "%s: %s: %lld of %lld wrong (rtol %g atol %g); first: %s", ctx, what, (long long)bad,
              (long long)t->count, rtol, atol, msg);
    int64_t gaps = fx_tensor_gaps_changed(t);
    FX_ASSERT(gaps == 0, "%s: %s: %lld elements outside the view changed", ctx, what, (long long)gaps);
    return worst;
}

static double growth(int64_t m) { return fmax(1.0, sqrt((double)m) / 32.0); }
static double dmax(double a, double b) { return a > b ? a : b; }

/* ------------------------------------------------------------------------ training forward */

typedef struct {
    int mode;
    float alpha, beta;
    int running, saved;  /* pairs given */
    double factor;
    int inplace;
    cldnnDataType_t dt;
    double lo, hi;       /* x uniform in [lo, hi) */
    double rtol_fix;     /* > 0: this rtol for the statistics instead of the default */
} train_case;

/* The tolerance of one output rounding to a 16-bit storage type (scaled by the output's
** magnitude bound): about four half-ulps of half, two of bfloat16; 0 for FLOAT. */
static double store_rtol(cldnnDataType_t dt) {
    return dt == CLDNN_DATA_HALF ? 2e-3 : dt == CLDNN_DATA_BFLOAT16 ? 8e-3 : 0.0;
}

static double train_once(const train_case* c, const layout* l) {
    const double rt = store_rtol(c->dt);
    fx_tensor x, y, sc, bi, rm, rv, sm, si;
    memset(&y, 0, sizeof y);
    make_tensor(&x, l, &l->a, c->dt);
    fx_tensor_poison_random(&x);
    fx_tensor_fill_uniform(&x, c->lo, c->hi);
    fx_tensor* out = &x;
    if (!c->inplace) {
        make_tensor(&y, l, &l->b, c->dt);
        fx_poison_out(&y, c->beta);
        out = &y;
    }
    make_param(&sc, l, c->mode, 1);
    make_param(&bi, l, c->mode, 2);
    make_param(&rm, l, c->mode, 3);
    make_param(&rv, l, c->mode, 0);
    make_param(&sm, l, c->mode, 5);
    make_param(&si, l, c->mode, 1);
    fx_tensor_poison_random(&sc);
    fx_tensor_poison_random(&bi);
    fx_tensor_fill_uniform(&sc, -2.0, 2.0);
    fx_tensor_fill_uniform(&bi, -1.0, 1.0);
    if (c->factor == 1.0) {
        fx_tensor_poison_nan(&rm); /* not read when the factor is 1 */
        fx_tensor_poison_nan(&rv);
    } else {
        fx_tensor_poison_random(&rm);
        fx_tensor_poison_random(&rv);
        fx_tensor_fill_uniform(&rv, 0.1, 3.0);
    }
    fx_tensor_poison_nan(&sm);
    fx_tensor_poison_nan(&si);
    fx_tensor* all[] = {&x, &y, &sc, &bi, &rm, &rv, &sm, &si};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (all[i]->mem)
            fx_tensor_upload(all[i]);

    ref_view pv = ref_view_packed(l->nd, l->dims);
    int64_t n = x.count, K = ref_bn_stats_count(c->mode, &pv), M = ref_bn_stat_size(c->mode, &pv);
    float* xf = fx_tensor_host_floats(&x);
    double *s = host_doubles(&sc), *b = host_doubles(&bi);
    double *mean = dalloc(K), *var = dalloc(K), *yr = dalloc(n), *want = dalloc(n), *scale = dalloc(n);
    double *kw = dalloc(K), *ks = dalloc(K);
    ref_bn_stats(c->mode, &pv, xf, mean, var);
    ref_bn_forward(c->mode, &pv, xf, s, b, mean, var, EPS, yr);
    const double g = growth(M);
    const double rtol = rt > 0 ? rt : 4e-6 * g, srtol = c->rtol_fix > 0 ? c->rtol_fix : rtol;
    for (int64_t i = 0; i < n; i++) {
        int64_t k = ref_bn_stat_of(c->mode, &pv, i);
        double inv = 1.0 / sqrt(var[k] + EPS), xh = (xf[i] - mean[k]) * inv;
        double prior = c->beta != 0.0f ? c->beta * fx_tensor_host(out, i) : 0.0;
        want[i] = c->alpha * yr[i] + prior;
        scale[i] = fabs(c->alpha) * (fabs(s[k]) * (fabs(xh) + 1.0 + fabs(xf[i]) * inv) + fabs(b[k])) + fabs(prior);
    }
    float a = c->alpha, be = c->beta;
    FX_OK(cldnnBatchNormalizationForwardTraining(
        fx_handle(), (cldnnBatchNormMode_t)c->mode, &a, &be, x.desc, x.mem, x.offset, out->desc, out->mem,
        out->offset, sc.desc, sc.mem, sc.offset, bi.mem, bi.offset, c->factor, c->running ? rm.mem : NULL,
        rm.offset, c->running ? rv.mem : NULL, rv.offset, EPS, c->saved ? sm.mem : NULL, sm.offset,
        c->saved ? si.mem : NULL, si.offset));
    char ctx[256];
    snprintf(ctx, sizeof ctx, "train %s, layout \"%s\"%s%s, alpha %g beta %g, running %d saved %d factor %g",
             mode_name(c->mode), l->name, c->inplace ? " in place" : "", c->dt == CLDNN_DATA_FLOAT ? "" : c->dt == CLDNN_DATA_HALF ? " half" : " bfloat16",
             c->alpha, c->beta, c->running, c->saved, c->factor);
    double worst = check_out(out, want, scale, 1e-6, rtol, "y", ctx);
    if (c->saved) {
        for (int64_t k = 0; k < K; k++) {
            kw[k] = mean[k];
            ks[k] = fabs(mean[k]) + sqrt(var[k]);
        }
        worst = dmax(worst, check_out(&sm, kw, ks, 1e-6, rtol, "saved mean", ctx));
        for (int64_t k = 0; k < K; k++) {
            kw[k] = 1.0 / sqrt(var[k] + EPS);
            ks[k] = kw[k];
        }
        worst = dmax(worst, check_out(&si, kw, ks, 0, srtol, "saved inverse std", ctx));
    } else {
        fx_expect_untouched(&sm, "resultSaveMean (NULL passed)", ctx);
    }
    if (c->running) {
        double f = c->factor;
        for (int64_t k = 0; k < K; k++) {
            double prior = f == 1.0 ? 0.0 : (1.0 - f) * fx_tensor_host(&rm, k);
            kw[k] = prior + f * mean[k];
            ks[k] = fabs(prior) + f * (fabs(mean[k]) + sqrt(var[k]));
        }
        worst = dmax(worst, check_out(&rm, kw, ks, 1e-6, rtol, "running mean", ctx));
        for (int64_t k = 0; k < K; k++) {
            double prior = f == 1.0 ? 0.0 : (1.0 - f) * fx_tensor_host(&rv, k);
            double uv = var[k] * (double)M / (double)(M - 1);
            kw[k] = prior + f * uv;
            ks[k] = fabs(prior) + f * uv;
        }
        worst = dmax(worst, check_out(&rv, kw, ks, 1e-6, srtol, "running variance", ctx));
    } else {
        fx_expect_untouched(&rm, "resultRunningMean (NULL passed)", ctx);
    }
    if (!c->inplace)
        fx_expect_untouched(&x, "x", ctx);
    fx_expect_untouched(&sc, "bnScale", ctx);
    fx_expect_untouched(&bi, "bnBias", ctx);
    free(xf);
    free(s);
    free(b);
    free(mean);
    free(var);
    free(yr);
    free(want);
    free(scale);
    free(kw);
    free(ks);
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (all[i]->mem && all[i] != &x)
            fx_tensor_free(all[i]);
    fx_tensor_free(&x);
    return worst;
}

static void check_train(int mode) {
    double worst = 0;
    for (size_t l = 0; l < NLAYOUTS; l++)
        for (size_t ab = 0; ab < FX_NAB; ab++) {
            if (L_IS_BIG(l) && ab > 0)
                continue;
            if (mode == PERACT && k_layouts[l].dims[0] == 1)
                continue; /* one value per statistic: BAD_PARAM (bn_bad) */
            train_case c = {mode, fx_alpha_beta[ab][0], fx_alpha_beta[ab][1], 1, 1, 0.3, 0, CLDNN_DATA_FLOAT,
                            -3.0, 5.0, 0};
            /* the pairs' optionality and factor 1 rotate over the cases */
            size_t r = (l + ab) % 4;
            c.running = r != 1;
            c.saved = r != 2;
            if (r == 3)
                c.factor = 1.0;
            worst = dmax(worst, train_once(&c, &k_layouts[l]));
        }
    const size_t inplace[] = {0, 4, 6, 8, 9, 10, 11}; /* 8 to 10: the split path; 8, 11: vectors */
    for (size_t k = 0; k < sizeof inplace / sizeof inplace[0]; k++) {
        train_case c = {mode, 0.5f, 0.25f, 1, 1, 0.1, 1, CLDNN_DATA_FLOAT, -1.0, 2.0, 0};
        worst = dmax(worst, train_once(&c, &k_layouts[inplace[k]]));
    }
    train_case none = {mode, 1.0f, 0.0f, 0, 0, 0.5, 0, CLDNN_DATA_FLOAT, -1.0, 1.0, 0};
    worst = dmax(worst, train_once(&none, &k_layouts[5]));
    cr_log_info("train %s: largest error / tolerance = %.3f", mode_name(mode), worst);
}

Test(bn_train, spatial) { check_train(SPATIAL); }
Test(bn_train, per_activation) { check_train(PERACT); }

/* ---------------------------------------------------------------------------- inference */

static double infer_once(int mode, const layout* l, float alpha, float beta, int inplace, cldnnDataType_t dt) {
    fx_tensor x, y, sc, bi, em, ev;
    memset(&y, 0, sizeof y);
    make_tensor(&x, l, &l->a, dt);
    fx_tensor_poison_random(&x);
    fx_tensor_fill_uniform(&x, -3.0, 3.0);
    fx_tensor* out = &x;
    if (!inplace) {
        make_tensor(&y, l, &l->b, dt);
        fx_poison_out(&y, beta);
        fx_tensor_upload(&y);
        out = &y;
    }
    make_param(&sc, l, mode, 2);
    make_param(&bi, l, mode, 0);
    make_param(&em, l, mode, 1);
    make_param(&ev, l, mode, 3);
    fx_tensor* ps[] = {&sc, &bi, &em, &ev};
    for (int i = 0; i < 4; i++)
        fx_tensor_poison_random(ps[i]);
    fx_tensor_fill_uniform(&ev, 0.05, 4.0);
    for (int i = 0; i < 4; i++)
        fx_tensor_upload(ps[i]);
    fx_tensor_upload(&x);
    ref_view pv = ref_view_packed(l->nd, l->dims);
    int64_t n = x.count;
    float* xf = fx_tensor_host_floats(&x);
    double *s = host_doubles(&sc), *b = host_doubles(&bi), *m = host_doubles(&em), *v = host_doubles(&ev);
    double *yr = dalloc(n), *want = dalloc(n), *scale = dalloc(n);
    ref_bn_forward(mode, &pv, xf, s, b, m, v, EPS, yr);
    for (int64_t i = 0; i < n; i++) {
        int64_t k = ref_bn_stat_of(mode, &pv, i);
        double inv = 1.0 / sqrt(v[k] + EPS);
        double prior = beta != 0.0f ? beta * fx_tensor_host(out, i) : 0.0;
        want[i] = alpha * yr[i] + prior;
        scale[i] = fabs(alpha) * (fabs(s[k]) * inv * (fabs(xf[i]) + fabs(m[k])) + fabs(b[k])) + fabs(prior);
    }
    FX_OK(cldnnBatchNormalizationForwardInference(fx_handle(), (cldnnBatchNormMode_t)mode, &alpha, &beta, x.desc,
                                                  x.mem, x.offset, out->desc, out->mem, out->offset, sc.desc, sc.mem,
                                                  sc.offset, bi.mem, bi.offset, em.mem, em.offset, ev.mem, ev.offset,
                                                  EPS));
    char ctx[200];
    snprintf(ctx, sizeof ctx, "inference %s, layout \"%s\"%s, alpha %g beta %g", mode_name(mode), l->name,
             inplace ? " in place" : "", alpha, beta);
    double rtol = dt == CLDNN_DATA_FLOAT ? 1e-5 : store_rtol(dt);
    double worst = check_out(out, want, scale, 1e-6, rtol, "y", ctx);
    if (!inplace) {
        fx_expect_untouched(&x, "x", ctx);
        fx_tensor_free(&y);
    }
    for (int i = 0; i < 4; i++) {
        fx_expect_untouched(ps[i], "a parameter", ctx);
        fx_tensor_free(ps[i]);
    }
    fx_tensor_free(&x);
    free(xf);
    free(s);
    free(b);
    free(m);
    free(v);
    free(yr);
    free(want);
    free(scale);
    return worst;
}

static void check_infer(int mode) {
    double worst = 0;
    for (size_t l = 0; l < NLAYOUTS; l++)
        for (size_t ab = 0; ab < FX_NAB; ab++)
            if (!L_IS_BIG(l) || ab == 0)
                worst = dmax(worst, infer_once(mode, &k_layouts[l], fx_alpha_beta[ab][0], fx_alpha_beta[ab][1], 0,
                                               CLDNN_DATA_FLOAT));
    worst = dmax(worst, infer_once(mode, &k_layouts[4], 0.5f, 0.25f, 1, CLDNN_DATA_FLOAT));
    worst = dmax(worst, infer_once(mode, &k_layouts[1], 1.0f, 0.0f, 1, CLDNN_DATA_FLOAT));
    cr_log_info("inference %s: largest error / tolerance = %.3f", mode_name(mode), worst);
}

Test(bn_infer, spatial) { check_infer(SPATIAL); }
Test(bn_infer, per_activation) { check_infer(PERACT); }

/* ----------------------------------------------------------------------------- backward */

typedef struct {
    int mode;
    float ad, bd, ap, bp;  /* alpha / beta of dx and of dScale, dBias */
    int saved;
    cldnnDataType_t dt;
} bwd_case;

static double backward_once(const bwd_case* c, const layout* l) {
    fx_tensor x, dy, dx, sc, ds, db, sm, si;
    make_tensor(&x, l, &l->a, c->dt);
    make_tensor(&dy, l, &l->c, c->dt);
    make_tensor(&dx, l, &l->b, c->dt);
    make_param(&sc, l, c->mode, 1);
    make_param(&ds, l, c->mode, 2);
    make_param(&db, l, c->mode, 3);
    make_param(&sm, l, c->mode, 0);
    make_param(&si, l, c->mode, 4);
    fx_tensor_poison_random(&x);
    fx_tensor_poison_random(&dy);
    fx_tensor_fill_uniform(&x, -2.0, 4.0);
    fx_tensor_fill_uniform(&dy, -1.0, 1.0);
    fx_poison_out(&dx, c->bd);
    fx_tensor_poison_random(&sc);
    fx_tensor_fill_uniform(&sc, -2.0, 2.0);
    fx_poison_out(&ds, c->bp);
    fx_poison_out(&db, c->bp);
    fx_tensor_poison_random(&sm);
    fx_tensor_poison_random(&si);

    ref_view pv = ref_view_packed(l->nd, l->dims);
    int64_t n = x.count, K = ref_bn_stats_count(c->mode, &pv), M = ref_bn_stat_size(c->mode, &pv);
    float *xf = fx_tensor_host_floats(&x), *dyf = fx_tensor_host_floats(&dy);
    double* s = host_doubles(&sc);
    double *mean = dalloc(K), *var = dalloc(K), *inv = dalloc(K);
    ref_bn_stats(c->mode, &pv, xf, mean, var);
    for (int64_t k = 0; k < K; k++) {
        inv[k] = 1.0 / sqrt(var[k] + EPS);
        if (c->saved) { /* what the training forward would have saved, as floats */
            fx_tensor_set(&sm, k, mean[k]);
            fx_tensor_set(&si, k, inv[k]);
            mean[k] = fx_tensor_host(&sm, k);
            inv[k] = fx_tensor_host(&si, k);
        }
    }
    fx_tensor* all[] = {&x, &dy, &dx, &sc, &ds, &db, &sm, &si};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        fx_tensor_upload(all[i]);
    double *dxr = dalloc(n), *dsr = dalloc(K), *dbr = dalloc(K), *want = dalloc(n), *scale = dalloc(n);
    double *asum = dalloc(K), *xsum = dalloc(K), *kw = dalloc(K), *ks = dalloc(K);
    ref_bn_backward(c->mode, &pv, xf, &pv, dyf, s, mean, inv, dxr, dsr, dbr);
    for (int64_t i = 0; i < n; i++) {
        int64_t k = ref_bn_stat_of(c->mode, &pv, i);
        asum[k] += fabs(dyf[i]);
        xsum[k] += fabs(dyf[i] * (xf[i] - mean[k]) * inv[k]);
    }
    for (int64_t i = 0; i < n; i++) {
        int64_t k = ref_bn_stat_of(c->mode, &pv, i);
        double xh = fabs(xf[i] - mean[k]) * inv[k] + fabs(xf[i]) * inv[k] * 1e-2;
        double prior = c->bd != 0.0f ? c->bd * fx_tensor_host(&dx, i) : 0.0;
        want[i] = c->ad * dxr[i] + prior;
        scale[i] = fabs(c->ad * s[k]) * inv[k] * (fabs(dyf[i]) + (asum[k] + xh * xsum[k]) / (double)M) + fabs(prior);
    }
    FX_OK(cldnnBatchNormalizationBackward(fx_handle(), (cldnnBatchNormMode_t)c->mode, &c->ad, &c->bd, &c->ap, &c->bp,
                                          x.desc, x.mem, x.offset, dy.desc, dy.mem, dy.offset, dx.desc, dx.mem,
                                          dx.offset, sc.desc, sc.mem, sc.offset, ds.mem, ds.offset, db.mem, db.offset,
                                          EPS, c->saved ? sm.mem : NULL, sm.offset, c->saved ? si.mem : NULL,
                                          si.offset));
    char ctx[256];
    snprintf(ctx, sizeof ctx, "backward %s, layout \"%s\"%s, saved %d, data alpha %g beta %g, param alpha %g beta %g",
             mode_name(c->mode), l->name, c->dt == CLDNN_DATA_FLOAT ? "" : c->dt == CLDNN_DATA_HALF ? " half" : " bfloat16", c->saved, c->ad, c->bd, c->ap,
             c->bp);
    const double rtol = c->dt == CLDNN_DATA_FLOAT ? 1e-5 * growth(M) : 1.5 * store_rtol(c->dt);
    double worst = check_out(&dx, want, scale, 1e-6, rtol, "dx", ctx);
    for (int64_t k = 0; k < K; k++) {
        double prior = c->bp != 0.0f ? c->bp * fx_tensor_host(&ds, k) : 0.0;
        kw[k] = c->ap * dsr[k] + prior;
        ks[k] = fabs(c->ap) * (xsum[k] + 1e-2 * asum[k] * fabs(mean[k]) * inv[k]) + fabs(prior);
    }
    worst = dmax(worst, check_out(&ds, kw, ks, 1e-6, rtol, "dScale", ctx));
    for (int64_t k = 0; k < K; k++) {
        double prior = c->bp != 0.0f ? c->bp * fx_tensor_host(&db, k) : 0.0;
        kw[k] = c->ap * dbr[k] + prior;
        ks[k] = fabs(c->ap) * asum[k] + fabs(prior);
    }
    worst = dmax(worst, check_out(&db, kw, ks, 1e-6, rtol, "dBias", ctx));
    fx_expect_untouched(&x, "x", ctx);
    fx_expect_untouched(&dy, "dy", ctx);
    fx_expect_untouched(&sm, "savedMean", ctx);
    fx_expect_untouched(&si, "savedInvVariance", ctx);
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        fx_tensor_free(all[i]);
    free(xf);
    free(dyf);
    free(s);
    free(mean);
    free(var);
    free(inv);
    free(dxr);
    free(dsr);
    free(dbr);
    free(want);
    free(scale);
    free(asum);
    free(xsum);
    free(kw);
    free(ks);
    return worst;
}

static void check_backward(int mode, int saved) {
    double worst = 0;
    for (size_t l = 0; l < NLAYOUTS; l++)
        for (size_t ab = 0; ab < FX_NAB; ab++) {
            if (L_IS_BIG(l) && ab > 0)
                continue;
            size_t ab2 = (ab + l) % FX_NAB;
            bwd_case c = {mode,   fx_alpha_beta[ab][0], fx_alpha_beta[ab][1], fx_alpha_beta[ab2][0],
                          fx_alpha_beta[ab2][1], saved, CLDNN_DATA_FLOAT};
            worst = dmax(worst, backward_once(&c, &k_layouts[l]));
        }
    cr_log_info("backward %s saved %d: largest error / tolerance = %.3f", mode_name(mode), saved, worst);
}

Test(bn_backward, spatial_saved) { check_backward(SPATIAL, 1); }
Test(bn_backward, spatial_recomputed) { check_backward(SPATIAL, 0); }
Test(bn_backward, per_activation_saved) { check_backward(PERACT, 1); }
Test(bn_backward, per_activation_recomputed) { check_backward(PERACT, 0); }

/* ------------------------------------------------------------------------ gradient check */

/* loss(x, scale, bias) = sum(r * y) with y the reference training forward (batch statistics) in
** double. Central differences over every x element (perturbed as floats, the step being the
** difference of the rounded values), every scale and bias, against the library's backward with
** dy = r: once with the statistics the library's training forward saved, once recomputed. */
static double ref_loss(int mode, const ref_view* v, const float* x, const double* s, const double* b,
                       const float* r, double* mean, double* var, double* y) {
    ref_bn_stats(mode, v, x, mean, var);
    ref_bn_forward(mode, v, x, s, b, mean, var, EPS, y);
    double l = 0;
    for (int64_t i = 0; i < ref_view_count(v); i++)
        l += r[i] * y[i];
    return l;
}

static void check_gradient(int mode, const layout* l) {
    fx_tensor x, y, dy, dx, sc, bi, sm, si, ds, db;
    make_tensor(&x, l, &l->a, CLDNN_DATA_FLOAT);
    make_tensor(&y, l, &l->b, CLDNN_DATA_FLOAT);
    make_tensor(&dy, l, &l->c, CLDNN_DATA_FLOAT);
    make_tensor(&dx, l, &l->b, CLDNN_DATA_FLOAT);
    make_param(&sc, l, mode, 0);
    make_param(&bi, l, mode, 1);
    make_param(&sm, l, mode, 2);
    make_param(&si, l, mode, 3);
    make_param(&ds, l, mode, 4);
    make_param(&db, l, mode, 5);
    fx_tensor* all[] = {&x, &y, &dy, &dx, &sc, &bi, &sm, &si, &ds, &db};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        fx_tensor_poison_nan(all[i]);
    fx_tensor_fill_uniform(&x, -2.0, 2.0);
    fx_tensor_fill_uniform(&dy, -1.0, 1.0);
    fx_tensor_fill_uniform(&sc, -2.0, 2.0);
    fx_tensor_fill_uniform(&bi, -1.0, 1.0);
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        fx_tensor_upload(all[i]);
    ref_view pv = ref_view_packed(l->nd, l->dims);
    int64_t n = x.count, K = ref_bn_stats_count(mode, &pv);
    float *xf = fx_tensor_host_floats(&x), *r = fx_tensor_host_floats(&dy);
    double *s = host_doubles(&sc), *b = host_doubles(&bi);
    double *mean = dalloc(K), *var = dalloc(K), *yy = dalloc(n);
    float one = 1.0f, zero = 0.0f;
    cldnnHandle_t h = fx_handle();
    FX_OK(cldnnBatchNormalizationForwardTraining(h, (cldnnBatchNormMode_t)mode, &one, &zero, x.desc, x.mem, x.offset,
                                                 y.desc, y.mem, y.offset, sc.desc, sc.mem, sc.offset, bi.mem,
                                                 bi.offset, 0.1, NULL, 0, NULL, 0, EPS, sm.mem, sm.offset, si.mem,
                                                 si.offset));
    const double hx = 5e-4;
    double worst = 0;
    for (int pass = 0; pass < 2; pass++) {
        FX_OK(cldnnBatchNormalizationBackward(h, (cldnnBatchNormMode_t)mode, &one, &zero, &one, &zero, x.desc, x.mem,
                                              x.offset, dy.desc, dy.mem, dy.offset, dx.desc, dx.mem, dx.offset,
                                              sc.desc, sc.mem, sc.offset, ds.mem, ds.offset, db.mem, db.offset, EPS,
                                              pass ? sm.mem : NULL, sm.offset, pass ? si.mem : NULL, si.offset));
        fx_tensor_download(&dx);
        fx_tensor_download(&ds);
        fx_tensor_download(&db);
        for (int64_t i = 0; i < n; i++) {
            /* Richardson's extrapolation of two central differences (steps hx and hx / 2): the
            ** truncation error falls from O(hx^2) to O(hx^4). PER_ACTIVATION normalizes over as few
            ** as 3 values, whose spread can be small enough for the plain difference to miss by 1 %
            ** (seed 353807496376). */
            double d[2];
            const float x0 = xf[i];
            for (int half = 0; half < 2; half++) {
                const double step = half ? hx / 2 : hx;
                const float xp = (float)(x0 + step), xm = (float)(x0 - step);
                xf[i] = xp;
                double lp = ref_loss(mode, &pv, xf, s, b, r, mean, var, yy);
                xf[i] = xm;
                double lm = ref_loss(mode, &pv, xf, s, b, r, mean, var, yy);
                d[half] = (lp - lm) / ((double)xp - (double)xm);
            }
            xf[i] = x0;
            double fd = (4 * d[1] - d[0]) / 3, got = fx_tensor_got(&dx, i);
            double tol = 2e-4 + 1e-3 * fabs(fd), err = fabs(got - fd);
            worst = dmax(worst, err / tol);
            FX_ASSERT(err <= tol, "gradcheck %s \"%s\" saved %d: dx[%lld] = %.9g, finite difference %.9g",
                      mode_name(mode), l->name, pass, (long long)i, got, fd);
        }
        for (int64_t k = 0; k < K; k++)
            for (int which = 0; which < 2; which++) {
                double* p = which ? b : s;
                double p0 = p[k];
                p[k] = p0 + hx;
                double lp = ref_loss(mode, &pv, xf, s, b, r, mean, var, yy);
                p[k] = p0 - hx;
                double lm = ref_loss(mode, &pv, xf, s, b, r, mean, var, yy);
                p[k] = p0;
                double fd = (lp - lm) / (2 * hx), got = fx_tensor_got(which ? &db : &ds, k);
                double tol = 2e-4 + 1e-3 * fabs(fd), err = fabs(got - fd);
                worst = dmax(worst, err / tol);
                FX_ASSERT(err <= tol, "gradcheck %s \"%s\" saved %d: %s[%lld] = %.9g, finite difference %.9g",
                          mode_name(mode), l->name, pass, which ? "dBias" : "dScale", (long long)k, got, fd);
            }
    }
    cr_log_info("gradcheck %s \"%s\": largest error / tolerance = %.3f", mode_name(mode), l->name, worst);
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        fx_tensor_free(all[i]);
    free(xf);
    free(r);
    free(s);
    free(b);
    free(mean);
    free(var);
    free(yy);
}

Test(bn_gradcheck, spatial) {
    check_gradient(SPATIAL, &k_layouts[0]);
    check_gradient(SPATIAL, &k_layouts[5]);
    check_gradient(SPATIAL, &k_layouts[11]); /* 4-element vectors */
}

Test(bn_gradcheck, per_activation) {
    /* N >= 3: with 2 values per statistic the normalization is nearly degenerate (xhat = +-1) and
    ** finite differences of it ill-conditioned */
    check_gradient(PERACT, &k_layouts[3]);
    check_gradient(PERACT, &k_layouts[5]);
}

/* ------------------------------------------------------------------------------ stability */

/* x = 1e4 + uniform [-2, 2): variance 4/3 against a mean squared of 1e8. */
Test(bn_stable, mean_1e4) {
    const size_t ls[] = {0, 1, 8, 9, 10};
    double worst = 0;
    for (int m = 0; m < 2; m++)
        for (size_t i = 0; i < sizeof ls / sizeof ls[0]; i++) {
            train_case c = {m == 0 ? SPATIAL : PERACT, 1.0f, 0.0f, 1, 1, 0.5, 0, CLDNN_DATA_FLOAT, 1e4 - 2.0,
                            1e4 + 2.0, 1e-4};
            worst = dmax(worst, train_once(&c, &k_layouts[ls[i]]));
        }
    cr_log_info("mean 1e4: largest error / tolerance = %.3f", worst);
}

/* ----------------------------------------------------------------------------------- misc */

/* Two training forwards and backwards on the split-path shapes give bitwise-equal results. */
Test(bn_misc, deterministic) {
    const size_t ls[] = {8, 9};
    for (size_t i = 0; i < 2; i++) {
        const layout* l = &k_layouts[ls[i]];
        fx_tensor x, y, dx, sc, bi, sm, si, ds, db;
        make_tensor(&x, l, &l->a, CLDNN_DATA_FLOAT);
        make_tensor(&y, l, &l->b, CLDNN_DATA_FLOAT);
        make_tensor(&dx, l, &l->b, CLDNN_DATA_FLOAT);
        make_param(&sc, l, SPATIAL, 0);
        make_param(&bi, l, SPATIAL, 0);
        make_param(&sm, l, SPATIAL, 0);
        make_param(&si, l, SPATIAL, 0);
        make_param(&ds, l, SPATIAL, 0);
        make_param(&db, l, SPATIAL, 0);
        fx_tensor* all[] = {&x, &y, &dx, &sc, &bi, &sm, &si, &ds, &db};
        for (size_t t = 0; t < sizeof all / sizeof all[0]; t++) {
            fx_tensor_poison_random(all[t]);
            fx_tensor_upload(all[t]);
        }
        float one = 1.0f, zero = 0.0f;
        cldnnHandle_t h = fx_handle();
        unsigned char* first[9];
        for (int rep = 0; rep < 2; rep++) {
            FX_OK(cldnnBatchNormalizationForwardTraining(h, SPATIAL, &one, &zero, x.desc, x.mem, x.offset, y.desc,
                                                         y.mem, y.offset, sc.desc, sc.mem, sc.offset, bi.mem,
                                                         bi.offset, 1.0, NULL, 0, NULL, 0, EPS, sm.mem, sm.offset,
                                                         si.mem, si.offset));
            FX_OK(cldnnBatchNormalizationBackward(h, SPATIAL, &one, &zero, &one, &zero, x.desc, x.mem, x.offset,
                                                  y.desc, y.mem, y.offset, dx.desc, dx.mem, dx.offset, sc.desc,
                                                  sc.mem, sc.offset, ds.mem, ds.offset, db.mem, db.offset, EPS,
                                                  NULL, 0, NULL, 0));
            for (size_t t = 0; t < sizeof all / sizeof all[0]; t++) {
                fx_tensor_download(all[t]);
                if (rep == 0) {
                    first[t] = malloc(all[t]->nbuf * all[t]->elem);
                    FX_ASSERT(first[t] != NULL, "out of memory");
                    memcpy(first[t], all[t]->got, all[t]->nbuf * all[t]->elem);
                } else {
                    FX_ASSERT(memcmp(first[t], all[t]->got, all[t]->nbuf * all[t]->elem) == 0,
                              "layout \"%s\": output %zu differs between two identical calls", l->name, t);
                    free(first[t]);
                }
            }
        }
        for (size_t t = 0; t < sizeof all / sizeof all[0]; t++)
            fx_tensor_free(all[t]);
    }
}

/* Backward in place (dx == dy, and dx == x) gives bitwise what it gives out of place. */
Test(bn_misc, backward_in_place) {
    const size_t ls[] = {0, 9};
    for (size_t i = 0; i < 2; i++)
        for (int m = 0; m < 2; m++) {
            const layout* l = &k_layouts[ls[i]];
            int mode = m ? SPATIAL : PERACT;
            fx_tensor x, dy, dx, io, sc, ds, db;
            make_tensor(&x, l, &l->a, CLDNN_DATA_FLOAT);
            make_tensor(&dy, l, &l->a, CLDNN_DATA_FLOAT);
            make_tensor(&dx, l, &l->a, CLDNN_DATA_FLOAT);
            make_tensor(&io, l, &l->a, CLDNN_DATA_FLOAT);
            make_param(&sc, l, mode, 1);
            make_param(&ds, l, mode, 2);
            make_param(&db, l, mode, 3);
            fx_tensor* all[] = {&x, &dy, &dx, &io, &sc, &ds, &db};
            for (size_t t = 0; t < sizeof all / sizeof all[0]; t++)
                fx_tensor_poison_random(all[t]);
            memcpy(io.host, dy.host, dy.nbuf * dy.elem);
            for (size_t t = 0; t < sizeof all / sizeof all[0]; t++)
                fx_tensor_upload(all[t]);
            float one = 1.0f, zero = 0.0f;
            cldnnHandle_t h = fx_handle();
            FX_OK(cldnnBatchNormalizationBackward(h, (cldnnBatchNormMode_t)mode, &one, &zero, &one, &zero, x.desc,
                                                  x.mem, x.offset, dy.desc, dy.mem, dy.offset, dx.desc, dx.mem,
                                                  dx.offset, sc.desc, sc.mem, sc.offset, ds.mem, ds.offset, db.mem,
                                                  db.offset, EPS, NULL, 0, NULL, 0));
            FX_OK(cldnnBatchNormalizationBackward(h, (cldnnBatchNormMode_t)mode, &one, &zero, &one, &zero, x.desc,
                                                  x.mem, x.offset, io.desc, io.mem, io.offset, io.desc, io.mem,
                                                  io.offset, sc.desc, sc.mem, sc.offset, ds.mem, ds.offset, db.mem,
                                                  db.offset, EPS, NULL, 0, NULL, 0));
            fx_tensor_download(&dx);
            fx_tensor_download(&io);
            for (int64_t e = 0; e < dx.count; e++)
                FX_ASSERT(fx_tensor_got(&dx, e) == fx_tensor_got(&io, e),
                          "%s \"%s\": dx == dy in place differs at %lld: %.9g, out of place %.9g", mode_name(mode),
                          l->name, (long long)e, fx_tensor_got(&io, e), fx_tensor_got(&dx, e));
            /* dx == x: x's values are its own, so compare with the out-of-place result again */
            FX_OK(cldnnBatchNormalizationBackward(h, (cldnnBatchNormMode_t)mode, &one, &zero, &one, &zero, x.desc,
                                                  x.mem, x.offset, dy.desc, dy.mem, dy.offset, x.desc, x.mem,
                                                  x.offset, sc.desc, sc.mem, sc.offset, ds.mem, ds.offset, db.mem,
                                                  db.offset, EPS, NULL, 0, NULL, 0));
            fx_tensor_download(&x);
            for (int64_t e = 0; e < dx.count; e++)
                FX_ASSERT(fx_tensor_got(&dx, e) == fx_tensor_got(&x, e),
                          "%s \"%s\": dx == x in place differs at %lld: %.9g, out of place %.9g", mode_name(mode),
                          l->name, (long long)e, fx_tensor_got(&x, e), fx_tensor_got(&dx, e));
            for (size_t t = 0; t < sizeof all / sizeof all[0]; t++)
                fx_tensor_free(all[t]);
        }
}

/* Every direction in both modes on layouts ls[0..n) of k_layouts, in storage type dt. */
static double storage_cases(cldnnDataType_t dt, const size_t* ls, size_t n) {
    double worst = 0;
    for (size_t i = 0; i < n; i++)
        for (int m = 0; m < 2; m++) {
            int mode = m ? SPATIAL : PERACT;
            train_case c = {mode, 0.5f, 0.25f, 1, 1, 0.3, 0, dt, -2.0, 3.0, 0};
            worst = dmax(worst, train_once(&c, &k_layouts[ls[i]]));
            worst = dmax(worst, infer_once(mode, &k_layouts[ls[i]], 1.0f, 0.0f, 0, dt));
            bwd_case b = {mode, 1.0f, 0.0f, 1.0f, 0.0f, i % 2 == 0, dt};
            worst = dmax(worst, backward_once(&b, &k_layouts[ls[i]]));
        }
    return worst;
}

Test(bn_misc, half_storage) {
    const size_t ls[] = {0, 4, 9, 11}; /* 11: vload_half4 / vstore_half4_rte */
    cr_log_info("half: largest error / tolerance = %.3f", storage_cases(CLDNN_DATA_HALF, ls, 4));
}

/* BFLOAT16 storage: a plain, an NHWC and the 4-vector layout. */
Test(bn_bf16, storage) {
    const size_t ls[] = {0, 4, 11}; /* 11: the 4-vector loads and stores */
    cr_log_info("bfloat16: largest error / tolerance = %.3f", storage_cases(CLDNN_DATA_BFLOAT16, ls, 3));
}

/* ------------------------------------------------------------------------------ derive */

Test(bn_misc, derive) {
    cldnnTensorDescriptor_t x, d;
    FX_OK(cldnnCreateTensorDescriptor(&x));
    FX_OK(cldnnCreateTensorDescriptor(&d));
    FX_OK(cldnnSetTensor4dDescriptor(x, CLDNN_TENSOR_NHWC, CLDNN_DATA_HALF, 3, 5, 7, 9));
    cldnnDataType_t dt;
    int nd;
    int64_t dims[8], strides[8];
    FX_OK(cldnnDeriveBNTensorDescriptor(d, x, SPATIAL));
    FX_OK(cldnnGetTensorNdDescriptor(d, 8, &dt, &nd, dims, strides));
    FX_ASSERT(dt == CLDNN_DATA_FLOAT && nd == 4 && dims[0] == 1 && dims[1] == 5 && dims[2] == 1 && dims[3] == 1 &&
                  strides[1] == 1,
              "spatial derive: dtype %d nd %d dims %lldx%lldx%lldx%lld", (int)dt, nd, (long long)dims[0],
              (long long)dims[1], (long long)dims[2], (long long)dims[3]);
    FX_OK(cldnnDeriveBNTensorDescriptor(d, x, PERACT));
    FX_OK(cldnnGetTensorNdDescriptor(d, 8, &dt, &nd, dims, strides));
    FX_ASSERT(dt == CLDNN_DATA_FLOAT && nd == 4 && dims[0] == 1 && dims[1] == 5 && dims[2] == 7 && dims[3] == 9 &&
                  strides[1] == 63 && strides[2] == 9 && strides[3] == 1,
              "per-activation derive: dims %lldx%lldx%lldx%lld strides %lld,%lld,%lld", (long long)dims[0],
              (long long)dims[1], (long long)dims[2], (long long)dims[3], (long long)strides[1],
              (long long)strides[2], (long long)strides[3]);
    const int64_t d5[5] = {2, 3, 4, 5, 6}, s5[5] = {360, 120, 30, 6, 1};
    FX_OK(cldnnSetTensorNdDescriptor(x, CLDNN_DATA_FLOAT, 5, d5, s5));
    FX_OK(cldnnDeriveBNTensorDescriptor(d, x, SPATIAL));
    FX_OK(cldnnGetTensorNdDescriptor(d, 8, &dt, &nd, dims, strides));
    FX_ASSERT(nd == 5 && dims[1] == 3 && dims[4] == 1, "5-d spatial derive: nd %d", nd);
    cldnnTensorDescriptor_t unset;
    FX_OK(cldnnCreateTensorDescriptor(&unset));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, cldnnDeriveBNTensorDescriptor(NULL, x, SPATIAL));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, cldnnDeriveBNTensorDescriptor(d, NULL, SPATIAL));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM, cldnnDeriveBNTensorDescriptor(d, unset, SPATIAL));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
                     cldnnDeriveBNTensorDescriptor(d, x, (cldnnBatchNormMode_t)2));
    const int64_t d1[1] = {7}, s1[1] = {1};
    FX_OK(cldnnSetTensorNdDescriptor(x, CLDNN_DATA_FLOAT, 1, d1, s1));
    FX_EXPECT_STATUS(CLDNN_STATUS_NOT_SUPPORTED_SHAPE, cldnnDeriveBNTensorDescriptor(d, x, SPATIAL));
    cldnnDestroyTensorDescriptor(unset);
    cldnnDestroyTensorDescriptor(x);
    cldnnDestroyTensorDescriptor(d);
}

/* ---------------------------------------------------------------------------- bad input */

/* Float 2x3x4x5 NCHW data at byte offset 4 and spatial parameters (1x3x1x1) at offset 4. */
typedef struct {
    fx_tensor x, y, dx, p[6], pa;  /* pa: per-activation parameters */
} bad_env;

static void bad_env_init(bad_env* e) {
    fx_tensor* ts[3] = {&e->x, &e->y, &e->dx};
    for (int k = 0; k < 3; k++) {
        fx_tensor_4d(ts[k], CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 2, 3, 4, 5, 4);
        fx_tensor_poison_random(ts[k]);
        fx_tensor_upload(ts[k]);
    }
    for (int k = 0; k < 6; k++) {
        fx_tensor_4d(&e->p[k], CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 1, 3, 1, 1, 4);
        fx_tensor_poison_random(&e->p[k]);
        fx_tensor_fill_uniform(&e->p[k], 0.5, 1.0);
        fx_tensor_upload(&e->p[k]);
    }
    fx_tensor_4d(&e->pa, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 1, 3, 4, 5, 4);
}

static void bad_env_free(bad_env* e) {
    fx_tensor_free(&e->x);
    fx_tensor_free(&e->y);
    fx_tensor_free(&e->dx);
    for (int k = 0; k < 6; k++)
        fx_tensor_free(&e->p[k]);
    fx_tensor_free(&e->pa);
}

/* Short names: TRAIN(h, mode, alpha, beta, X, Y, PD, scale, bias, factor, rm, rv, eps, sm, sv) with
** each data tensor as (desc, mem, offset) and each parameter buffer as (mem, offset). */
#define TRAIN(...) cldnnBatchNormalizationForwardTraining(__VA_ARGS__)
#define INFER(...) cldnnBatchNormalizationForwardInference(__VA_ARGS__)
#define BWD(...) cldnnBatchNormalizationBackward(__VA_ARGS__)
#define T3(t) (t)->desc, (t)->mem, (t)->offset
#define P2(t) (t)->mem, (t)->offset
#define PD(e) (e)->p[0].desc

Test(bn_bad, all_calls) {
    bad_env env, *e = &env;
    bad_env_init(e);
    cldnnHandle_t h = fx_handle();
    float one = 1.0f, zero = 0.0f;
    fx_tensor *x = &e->x, *y = &e->y, *dx = &e->dx, *p = e->p;
    const cldnnStatus_t NP = CLDNN_STATUS_BAD_PARAM_NULL_POINTER, BP = CLDNN_STATUS_BAD_PARAM,
                        SM = CLDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, MA = CLDNN_STATUS_BAD_PARAM_MISALIGNED,
                        OB = CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, SI = CLDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT;
    /* the valid calls first */
    FX_OK(TRAIN(h, SPATIAL, &one, &zero, T3(x), T3(y), PD(e), P2(&p[0]), P2(&p[1]), 0.1, P2(&p[2]), P2(&p[3]), 1e-5,
                P2(&p[4]), P2(&p[5])));
    FX_OK(INFER(h, SPATIAL, &one, &zero, T3(x), T3(y), PD(e), P2(&p[0]), P2(&p[1]), P2(&p[2]), P2(&p[3]), 1e-5));
    FX_OK(BWD(h, SPATIAL, &one, &zero, &one, &zero, T3(x), T3(y), T3(dx), PD(e), P2(&p[0]), P2(&p[1]), P2(&p[2]),
              1e-5, P2(&p[4]), P2(&p[5])));
    fx_finish();
    fx_tensor* outs[] = {y, dx};
    for (int i = 0; i < 2; i++) { /* what the rejected calls below must leave as it is */
        fx_tensor_download(outs[i]);
        memcpy(outs[i]->host, outs[i]->got, outs[i]->nbuf * outs[i]->elem);
    }
    /* NULL pointers */
    FX_EXPECT_STATUS(NP, TRAIN(NULL, SPATIAL, &one, &zero, T3(x), T3(y), PD(e), P2(&p[0]), P2(&p[1]), 0.1, P2(&p[2]),
                               P2(&p[3]), 1e-5, P2(&p[4]), P2(&p[5])));
    FX_EXPECT_STATUS(NP, TRAIN(h, SPATIAL, NULL, &zero, T3(x), T3(y), PD(e), P2(&p[0]), P2(&p[1]), 0.1, P2(&p[2]),
                               P2(&p[3]), 1e-5, P2(&p[4]), P2(&p[5])));
    FX_EXPECT_STATUS(NP, TRAIN(h, SPATIAL, &one, NULL, T3(x), T3(y), PD(e), P2(&p[0]), P2(&p[1]), 0.1, P2(&p[2]),
                               P2(&p[3]), 1e-5, P2(&p[4]), P2(&p[5])));
    FX_EXPECT_STATUS(NP, TRAIN(h, SPATIAL, &one, &zero, NULL, x->mem, 4, T3(y), PD(e), P2(&p[0]), P2(&p[1]), 0.1,
                               P2(&p[2]), P2(&p[3]), 1e-5, P2(&p[4]), P2(&p[5])));
    FX_EXPECT_STATUS(NP, TRAIN(h, SPATIAL, &one, &zero, x->desc, NULL, 4, T3(y), PD(e), P2(&p[0]), P2(&p[1]), 0.1,
                               P2(&p[2]), P2(&p[3]), 1e-5, P2(&p[4]), P2(&p[5])));
    FX_EXPECT_STATUS(NP, TRAIN(h, SPATIAL, &one, &zero, T3(x), y->desc, NULL, 4, PD(e), P2(&p[0]), P2(&p[1]), 0.1,
                               P2(&p[2]), P2(&p[3]), 1e-5, P2(&p[4]), P2(&p[5])));
    FX_EXPECT_STATUS(NP, TRAIN(h, SPATIAL, &one, &zero, T3(x), T3(y), NULL, P2(&p[0]), P2(&p[1]), 0.1, P2(&p[2]),
                               P2(&p[3]), 1e-5, P2(&p[4]), P2(&p[5])));
    FX_EXPECT_STATUS(NP, TRAIN(h, SPATIAL, &one, &zero, T3(x), T3(y), PD(e), NULL, 4, P2(&p[1]), 0.1, P2(&p[2]),
                               P2(&p[3]), 1e-5, P2(&p[4]), P2(&p[5])));
    FX_EXPECT_STATUS(NP, TRAIN(h, SPATIAL, &one, &zero, T3(x), T3(y), PD(e), P2(&p[0]), NULL, 4, 0.1, P2(&p[2]),
                               P2(&p[3]), 1e-5, P2(&p[4]), P2(&p[5])));
    FX_EXPECT_STATUS(NP, INFER(h, SPATIAL, &one, &zero, T3(x), T3(y), PD(e), P2(&p[0]), P2(&p[1]), NULL, 4,
                               P2(&p[3]), 1e-5));
    FX_EXPECT_STATUS(NP, INFER(h, SPATIAL, &one, &zero, T3(x), T3(y), PD(e), P2(&p[0]), P2(&p[1]), P2(&p[2]), NULL,
                               4, 1e-5));
    FX_EXPECT_STATUS(NP, BWD(h, SPATIAL, &one, &zero, NULL, &zero, T3(x), T3(y), T3(dx), PD(e), P2(&p[0]), P2(&p[1]),
                             P2(&p[2]), 1e-5, P2(&p[4]), P2(&p[5])));
    FX_EXPECT_STATUS(NP, BWD(h, SPATIAL, &one, &zero, &one, &zero, T3(x), T3(y), dx->desc, NULL, 4, PD(e), P2(&p[0]),
                             P2(&p[1]), P2(&p[2]), 1e-5, P2(&p[4]), P2(&p[5])));
    FX_EXPECT_STATUS(NP, BWD(h, SPATIAL, &one, &zero, &one, &zero, T3(x), T3(y), T3(dx), PD(e), P2(&p[0]), NULL, 4,
                             P2(&p[2]), 1e-5, P2(&p[4]), P2(&p[5])));
    /* half-NULL pairs */
    FX_EXPECT_STATUS(BP, TRAIN(h, SPATIAL, &one, &zero, T3(x), T3(y), PD(e), P2(&p[0]), P2(&p[1]), 0.1, P2(&p[2]),
                               NULL, 0, 1e-5, P2(&p[4]), P2(&p[5])));
    FX_EXPECT_STATUS(BP, TRAIN(h, SPATIAL, &one, &zero, T3(x), T3(y), PD(e), P2(&p[0]), P2(&p[1]), 0.1, P2(&p[2]),
                               P2(&p[3]), 1e-5, NULL, 0, P2(&p[5])));
    FX_EXPECT_STATUS(BP, BWD(h, SPATIAL, &one, &zero, &one, &zero, T3(x), T3(y), T3(dx), PD(e), P2(&p[0]), P2(&p[1]),
                             P2(&p[2]), 1e-5, P2(&p[4]), NULL, 0));
    /* epsilon and factor */
    FX_EXPECT_STATUS(BP, TRAIN(h, SPATIAL, &one, &zero, T3(x), T3(y), PD(e), P2(&p[0]), P2(&p[1]), 0.1, P2(&p[2]),
                               P2(&p[3]), 1e-6, P2(&p[4]), P2(&p[5])));
    FX_EXPECT_STATUS(BP, INFER(h, SPATIAL, &one, &zero, T3(x), T3(y), PD(e), P2(&p[0]), P2(&p[1]), P2(&p[2]),
                               P2(&p[3]), 0.0));
    FX_EXPECT_STATUS(BP, BWD(h, SPATIAL, &one, &zero, &one, &zero, T3(x), T3(y), T3(dx), PD(e), P2(&p[0]), P2(&p[1]),
                             P2(&p[2]), NAN, P2(&p[4]), P2(&p[5])));
    FX_EXPECT_STATUS(BP, TRAIN(h, SPATIAL, &one, &zero, T3(x), T3(y), PD(e), P2(&p[0]), P2(&p[1]), -0.5, P2(&p[2]),
                               P2(&p[3]), 1e-5, P2(&p[4]), P2(&p[5])));
    /* mode */
    FX_EXPECT_STATUS(OB, TRAIN(h, (cldnnBatchNormMode_t)7, &one, &zero, T3(x), T3(y), PD(e), P2(&p[0]), P2(&p[1]),
                               0.1, P2(&p[2]), P2(&p[3]), 1e-5, P2(&p[4]), P2(&p[5])));
    FX_EXPECT_STATUS(OB, BWD(h, (cldnnBatchNormMode_t)-1, &one, &zero, &one, &zero, T3(x), T3(y), T3(dx), PD(e),
                             P2(&p[0]), P2(&p[1]), P2(&p[2]), 1e-5, P2(&p[4]), P2(&p[5])));
    /* parameter descriptor of the other mode */
    FX_EXPECT_STATUS(SM, TRAIN(h, SPATIAL, &one, &zero, T3(x), T3(y), e->pa.desc, P2(&p[0]), P2(&p[1]), 0.1,
                               P2(&p[2]), P2(&p[3]), 1e-5, P2(&p[4]), P2(&p[5])));
    FX_EXPECT_STATUS(SM, INFER(h, PERACT, &one, &zero, T3(x), T3(y), PD(e), P2(&p[0]), P2(&p[1]), P2(&p[2]),
                               P2(&p[3]), 1e-5));
    FX_EXPECT_STATUS(SM, BWD(h, PERACT, &one, &zero, &one, &zero, T3(x), T3(y), T3(dx), PD(e), P2(&p[0]), P2(&p[1]),
                             P2(&p[2]), 1e-5, P2(&p[4]), P2(&p[5])));
    /* data shapes that differ */
    fx_tensor w;
    fx_tensor_4d(&w, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 2, 3, 4, 6, 4);
    FX_EXPECT_STATUS(SM, TRAIN(h, SPATIAL, &one, &zero, T3(x), T3(&w), PD(e), P2(&p[0]), P2(&p[1]), 0.1, P2(&p[2]),
                               P2(&p[3]), 1e-5, P2(&p[4]), P2(&p[5])));
    FX_EXPECT_STATUS(SM, BWD(h, SPATIAL, &one, &zero, &one, &zero, T3(x), T3(&w), T3(dx), PD(e), P2(&p[0]),
                             P2(&p[1]), P2(&p[2]), 1e-5, P2(&p[4]), P2(&p[5])));
    FX_EXPECT_STATUS(SM, BWD(h, SPATIAL, &one, &zero, &one, &zero, T3(x), T3(y), T3(&w), PD(e), P2(&p[0]), P2(&p[1]),
                             P2(&p[2]), 1e-5, P2(&p[4]), P2(&p[5])));
    /* misaligned offsets */
    FX_EXPECT_STATUS(MA, TRAIN(h, SPATIAL, &one, &zero, x->desc, x->mem, 2, T3(y), PD(e), P2(&p[0]), P2(&p[1]), 0.1,
                               P2(&p[2]), P2(&p[3]), 1e-5, P2(&p[4]), P2(&p[5])));
    FX_EXPECT_STATUS(MA, TRAIN(h, SPATIAL, &one, &zero, T3(x), T3(y), PD(e), P2(&p[0]), P2(&p[1]), 0.1, P2(&p[2]),
                               P2(&p[3]), 1e-5, p[4].mem, 6, P2(&p[5])));
    FX_EXPECT_STATUS(MA, BWD(h, SPATIAL, &one, &zero, &one, &zero, T3(x), T3(y), T3(dx), PD(e), P2(&p[0]), p[1].mem,
                             1, P2(&p[2]), 1e-5, P2(&p[4]), P2(&p[5])));
    /* buffers too small: a parameter offset past the end */
    FX_EXPECT_STATUS(SI, INFER(h, SPATIAL, &one, &zero, T3(x), T3(y), PD(e), P2(&p[0]), P2(&p[1]), P2(&p[2]),
                               p[3].mem, 64, 1e-5));
    FX_EXPECT_STATUS(SI, TRAIN(h, SPATIAL, &one, &zero, T3(x), y->desc, y->mem, 4096, PD(e), P2(&p[0]), P2(&p[1]),
                               0.1, P2(&p[2]), P2(&p[3]), 1e-5, P2(&p[4]), P2(&p[5])));
    /* one value per statistic in training: per-activation with N = 1 */
    fx_tensor x1, y1, q1, q2;
    fx_tensor_4d(&x1, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 1, 3, 2, 2, 0);
    fx_tensor_4d(&y1, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 1, 3, 2, 2, 0);
    fx_tensor_4d(&q1, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 1, 3, 2, 2, 0);
    fx_tensor_4d(&q2, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 1, 3, 2, 2, 0);
    FX_EXPECT_STATUS(BP, TRAIN(h, PERACT, &one, &zero, T3(&x1), T3(&y1), q1.desc, P2(&q1), P2(&q2), 0.1, NULL, 0,
                               NULL, 0, 1e-5, NULL, 0, NULL, 0));
    /* data types: half x with float y; half parameters; double data */
    fx_tensor hx, hp, d1, d2;
    fx_tensor_4d(&hx, CLDNN_TENSOR_NCHW, CLDNN_DATA_HALF, 2, 3, 4, 5, 4);
    fx_tensor_4d(&hp, CLDNN_TENSOR_NCHW, CLDNN_DATA_HALF, 1, 3, 1, 1, 4);
    fx_tensor_4d(&d1, CLDNN_TENSOR_NCHW, CLDNN_DATA_DOUBLE, 2, 3, 4, 5, 8);
    fx_tensor_4d(&d2, CLDNN_TENSOR_NCHW, CLDNN_DATA_DOUBLE, 2, 3, 4, 5, 8);
    FX_EXPECT_STATUS(BP, TRAIN(h, SPATIAL, &one, &zero, T3(&hx), T3(y), PD(e), P2(&p[0]), P2(&p[1]), 0.1, P2(&p[2]),
                               P2(&p[3]), 1e-5, P2(&p[4]), P2(&p[5])));
    FX_EXPECT_STATUS(BP, INFER(h, SPATIAL, &one, &zero, T3(x), T3(y), hp.desc, P2(&p[0]), P2(&p[1]), P2(&p[2]),
                               P2(&p[3]), 1e-5));
    double done = 1.0, dzero = 0.0;
    FX_EXPECT_STATUS(CLDNN_STATUS_NOT_SUPPORTED_DATA_TYPE,
                     INFER(h, SPATIAL, &done, &dzero, T3(&d1), T3(&d2), PD(e), P2(&p[0]), P2(&p[1]), P2(&p[2]),
                           P2(&p[3]), 1e-5));
    /* an output that overlaps x without being x */
    FX_EXPECT_STATUS(CLDNN_STATUS_NOT_SUPPORTED, TRAIN(h, SPATIAL, &one, &zero, T3(x), y->desc, x->mem, 8, PD(e),
                                                       P2(&p[0]), P2(&p[1]), 0.1, P2(&p[2]), P2(&p[3]), 1e-5,
                                                       P2(&p[4]), P2(&p[5])));
    /* never-set descriptors */
    cldnnTensorDescriptor_t unset;
    FX_OK(cldnnCreateTensorDescriptor(&unset));
    FX_EXPECT_STATUS(BP, TRAIN(h, SPATIAL, &one, &zero, unset, x->mem, 4, T3(y), PD(e), P2(&p[0]), P2(&p[1]), 0.1,
                               P2(&p[2]), P2(&p[3]), 1e-5, P2(&p[4]), P2(&p[5])));
    FX_EXPECT_STATUS(BP, BWD(h, SPATIAL, &one, &zero, &one, &zero, T3(x), T3(y), T3(dx), unset, P2(&p[0]), P2(&p[1]),
                             P2(&p[2]), 1e-5, P2(&p[4]), P2(&p[5])));
    cldnnDestroyTensorDescriptor(unset);
    fx_finish();
    fx_expect_untouched(y, "y", "rejected calls");
    fx_expect_untouched(dx, "dx", "rejected calls");
    fx_tensor* extra[] = {&w, &x1, &y1, &q1, &q2, &hx, &hp, &d1, &d2};
    for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++)
        fx_tensor_free(extra[i]);
    bad_env_free(e);
}
