/*
** test_pool.c: the pooling descriptor, cldnnPoolingForward and cldnnPoolingBackward against the
** double reference (tests/ref/ref_pool.c) and against finite differences of the library's own
** forward.
**
** Per mode (MAX / NOT_PROPAGATE, MAX_DETERMINISTIC / PROPAGATE, AVERAGE include and exclude
** padding):
**   pool_forward::<mode>   y = alpha*pool(x) + beta*y over a table of cases (k_cases): 1x1, ResNet's
**                          3x3 s2 p1 and VGG's 2x2 s2 at odd sizes, global 7x7 on NCHW (output-major
**                          lanes) and NHWC (lane-major lanes), a 20x40 global window (lanes, T = the
**                          work-group), 7x7 s2 p3 (lanes with padding, both arrangements), 3x3 s3
**                          exact tiles (pool_bwd_tile), asymmetric windows / strides / pads, stride >
**                          window (uncovered inputs), pads of 3 in a 4x4 window, NHWC <-> NCHW,
**                          padded 4dEx tensors with gaps, 64 channels NHWC; byte offsets on every
**                          buffer; alpha/beta (1,0) (0.5,0.25) (2,-1). Outputs are poisoned (NaN
**                          when beta == 0); bytes outside the view must stay unchanged, x unmodified.
**   pool_backward::<mode>  dx = alpha*dpool + beta*dx over the same cases, y the reference forward
**                          output; for max modes one pass in three uses x quantized to 5 levels,
**                          so windows tie and only the first tap may take the gradient.
**   pool_backward::random_geometries  24 random windows / pads / strides / sizes / layouts, forward
**                          and backward, every mode.
**   pool_backward::index64 the 64-bit index variant (parameter sets "i64", CLDNN_SOLVER_PARAMS) on
**                          five cases.
**   pool_backward::local   pool_bwd_local (the GPUs' backward; CLDNN_SOLVER=pool_bwd_local,...) over the case
**                          table and planes of several tiles, every mode, ties.
**   pool_backward::runs    one element per work-item (the GPU walk) and runs of 4 (pool_fwd and
**                          pool_bwd's parameter sets "i32-r<n>") over the case table;
**                          random_geometries mixes runs of 1, 3 and whole rows.
**   pool_gradcheck::<mode> central differences of loss = sum(w * y) through the library's forward
**                          (all perturbations batched along N in one call) vs its backward with dy = w.
** Plus: NaN propagation forward and backward (both nanOpt), all-equal inputs (ties), HALF storage,
** the descriptor's Set/Get/OutputDim, and every bad input the contract names.
**
** Tolerances: |got - want| <= atol + rtol * scale, scale = |alpha| * (the sum of |terms|, from the
** reference) + |beta * prior|; float rtol 1e-5 atol 1e-6 (max modes are exact but alpha*y + beta*prior
** rounds), half rtol 2e-3 atol 1e-5.
*/
#include "fixture.h"
#include "ref_pool.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

TestSuite(pool_forward, .fini = fx_fini);
TestSuite(pool_backward, .fini = fx_fini);
TestSuite(pool_gradcheck, .fini = fx_fini);
TestSuite(pool_nan, .fini = fx_fini);
TestSuite(pool_half, .fini = fx_fini);
TestSuite(pool_bf16, .fini = fx_fini);
TestSuite(pool_desc, .fini = fx_fini);
TestSuite(pool_bad, .fini = fx_fini);

#define RTOL 1e-5
#define ATOL 1e-6
#define HALF_RTOL 2e-3
#define HALF_ATOL 1e-5
#define BF16_RTOL 8e-3 /* two bfloat16 half-ulps, as HALF_RTOL is about two of half's */

/* A mode and its NaN option. */
typedef struct {
    cldnnPoolingMode_t mode;
    cldnnNanPropagation_t nan;
} pmode;

static const pmode M_MAX = {CLDNN_POOLING_MAX, CLDNN_NOT_PROPAGATE_NAN};
static const pmode M_MAXDET = {CLDNN_POOLING_MAX_DETERMINISTIC, CLDNN_PROPAGATE_NAN};
static const pmode M_AVG = {CLDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING, CLDNN_NOT_PROPAGATE_NAN};
static const pmode M_AVGX = {CLDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING, CLDNN_NOT_PROPAGATE_NAN};

static int is_max(pmode m) { return m.mode == CLDNN_POOLING_MAX || m.mode == CLDNN_POOLING_MAX_DETERMINISTIC; }

/* One case: x dims, window, pad, stride; forms of x, y, dy, dx (y and dy have the output dims). */
typedef struct {
    const char* name;
    int64_t dims[4];
    int wh, ww, ph, pw, sh, sw;
    fx_tdesc x, y, dy, dx;
} pcase;

#define NCHW(o) {FX_NCHW, {0}, o}
#define NHWC(o) {FX_NHWC, {0}, o}
static const pcase k_cases[] = {
    {"1x1x1x1 w1", {1, 1, 1, 1}, 1, 1, 0, 0, 1, 1, NCHW(1), NCHW(5), NCHW(2), NCHW(3)},
    {"2x3x9x11 3x3 s2 p1", {2, 3, 9, 11}, 3, 3, 1, 1, 2, 2, NCHW(7), NCHW(3), NHWC(1), NCHW(2)},
    {"1x1x8x8 2x2 s2", {1, 1, 8, 8}, 2, 2, 0, 0, 2, 2, NCHW(0), NCHW(0), NCHW(0), NCHW(0)},
    {"2x5x7x7 global nchw", {2, 5, 7, 7}, 7, 7, 0, 0, 1, 1, NCHW(3), NCHW(1), NCHW(2), NCHW(5)},
    {"2x5x7x7 global nhwc", {2, 5, 7, 7}, 7, 7, 0, 0, 7, 7, NHWC(1), NHWC(2), NHWC(0), NHWC(4)},
    {"3x4x10x9 3x2 s1x2 p2x1", {3, 4, 10, 9}, 3, 2, 2, 1, 1, 2, NCHW(0), NCHW(1), NCHW(2), NCHW(3)},
    {"2x3x9x8 nhwc->nchw 2x3 s3x1 p1x0", {2, 3, 9, 8}, 2, 3, 1, 0, 3, 1, NHWC(2), NCHW(1), NHWC(3), NCHW(1)},
    {"2x3x6x7 padded 4dEx 3x3 s1 p1", {2, 3, 6, 7}, 3, 3, 1, 1, 1, 1, {FX_EX, {300, 70, 11, 1}, 7},
     {FX_EX, {1, 2, 60, 8}, 2}, {FX_EX, {256, 42, 7, 1}, 5}, {FX_EX, {1, 2, 70, 9}, 4}},
    {"1x2x13x12 5x4 s3x2 p2x1", {1, 2, 13, 12}, 5, 4, 2, 1, 3, 2, NCHW(1), NHWC(0), NCHW(0), NHWC(2)},
    {"1x3x20x40 global 20x40", {1, 3, 20, 40}, 20, 40, 0, 0, 1, 1, NCHW(2), NCHW(0), NCHW(1), NCHW(0)},
    {"1x2x11x11 2x2 s3 (gaps)", {1, 2, 11, 11}, 2, 2, 0, 0, 3, 3, NCHW(0), NCHW(2), NCHW(0), NCHW(1)},
    {"2x3x5x5 4x4 s1 p3", {2, 3, 5, 5}, 4, 4, 3, 3, 1, 1, NCHW(1), NCHW(0), NCHW(0), NCHW(6)},
    {"1x64x4x4 nhwc 2x2 s2", {1, 64, 4, 4}, 2, 2, 0, 0, 2, 2, NHWC(0), NHWC(1), NHWC(0), NHWC(3)},
    {"2x3x6x9 3x3 s3 tiles, 4dEx", {2, 3, 6, 9}, 3, 3, 0, 0, 3, 3, {FX_EX, {200, 60, 10, 1}, 3}, NHWC(1), NCHW(2),
     {FX_EX, {1, 2, 80, 8}, 1}},
    {"2x40x6x6 global nhwc (lane-major)", {2, 40, 6, 6}, 6, 6, 0, 0, 1, 1, NHWC(1), NHWC(0), NHWC(0), NHWC(2)},
    {"1x4x9x9 nhwc 7x7 s2 p3 (lane-major, padding)", {1, 4, 9, 9}, 7, 7, 3, 3, 2, 2, NHWC(0), NCHW(1), NHWC(0),
     NHWC(1)},
    {"1x2x9x9 7x7 s2 p3 (lanes, padding)", {1, 2, 9, 9}, 7, 7, 3, 3, 2, 2, NCHW(0), NCHW(1), NCHW(0), NCHW(2)},
};
#define NCASES (sizeof k_cases / sizeof k_cases[0])

static cldnnPoolingDescriptor_t make_desc(pmode m, const pcase* c) {
    cldnnPoolingDescriptor_t d;
    FX_OK(cldnnCreatePoolingDescriptor(&d));
    FX_OK(cldnnSetPooling2dDescriptor(d, m.mode, m.nan, c->wh, c->ww, c->ph, c->pw, c->sh, c->sw));
    return d;
}

static void make_ref(ref_pool* r, pmode m, const pcase* c) {
    FX_ASSERT(ref_pool_init(r, (int)m.mode, (int)m.nan, c->dims[0], c->dims[1], c->dims[2], c->dims[3], c->wh, c->ww,
                            c->ph, c->pw, c->sh, c->sw),
              "case %s: invalid geometry", c->name);
}

/* want = alpha * r + beta * prior and its scale, for output tensor out (prior = its host view). */
static void blend(const fx_tensor* out, const double* r, const double* mag, float alpha, float beta, double* want,
                  double* scale) {
    for (int64_t i = 0; i < out->count; i++) {
        double prior = beta != 0.0f ? beta * fx_tensor_host(out, i) : 0.0;
        want[i] = alpha * r[i] + prior;
        scale[i] = fabs(alpha) * mag[i] + fabs(prior);
    }
}

static double* dalloc(int64_t n) {
    double* p = malloc((size_t)n * sizeof(double) + 1);
    FX_ASSERT(p != NULL, "out of memory");
    return p;
}

/* Checks out against want / scale and that nothing outside its view changed. */
/* The output tolerances of a storage type. */
static double out_rtol(cldnnDataType_t dt) {
    return dt == CLDNN_DATA_HALF ? HALF_RTOL : dt == CLDNN_DATA_BFLOAT16 ? BF16_RTOL : RTOL;
}
static double out_atol(cldnnDataType_t dt) { return dt == CLDNN_DATA_FLOAT ? ATOL : HALF_ATOL; }

static void check_out(fx_tensor* out, const double* want, const double* scale, double atol, double rtol,
                      const char* what, pmode m, const pcase* c, float alpha, float beta) {
    fx_tensor_download(out);
    char msg[512];
    int64_t bad = fx_compare(out, want, scale, atol, rtol, msg, sizeof msg, NULL);
    FX_ASSERT(bad == 0, "%s mode %d nan %d, case \"%s\", alpha %g beta %g: %lld of %lld wrong; first: %s", what,
              (int)m.mode, (int)m.nan, c->name, alpha, beta, (long long)bad, (long long)out->count, msg);
    int64_t gaps = fx_tensor_gaps_changed(out);
    FX_ASSERT(gaps == 0, "%s mode %d, case \"%s\": %lld elements outside the view changed", what, (int)m.mode,
              c->name, (long long)gaps);
}

/* Fills x: uniform in [-4, 4), or (quantized) integers in [-2, 2] so windows tie. */
static void fill_x(fx_tensor* x, int quantized) {
    fx_tensor_fill_uniform(x, -4.0, 4.0);
    if (quantized)
        for (int64_t i = 0; i < x->count; i++)
            fx_tensor_set(x, i, floor(ref_rng_uniform(fx_rng(), -2.0, 3.0)));
}

/* ------------------------------------------------------------------------------ forward */

static void forward_case(pmode m, const pcase* c, float alpha, float beta, cldnnDataType_t dt, int quantized) {
    ref_pool r;
    make_ref(&r, m, c);
    int64_t yd[4] = {r.n, r.c, r.oh, r.ow};
    fx_tensor x, y;
    fx_tensor_from_desc(&x, 4, c->dims, &c->x, dt);
    fx_tensor_from_desc(&y, 4, yd, &c->y, dt);
    fx_tensor_poison_random(&x);
    fill_x(&x, quantized);
    fx_poison_out(&y, beta);
    fx_tensor_upload(&x);
    fx_tensor_upload(&y);
    cldnnPoolingDescriptor_t d = make_desc(m, c);
    int n[4];
    FX_OK(cldnnGetPooling2dForwardOutputDim(d, x.desc, &n[0], &n[1], &n[2], &n[3]));
    for (int i = 0; i < 4; i++)
        FX_ASSERT(n[i] == yd[i], "case %s: output dim %d is %d, want %lld", c->name, i, n[i], (long long)yd[i]);

    float* xf = fx_tensor_host_floats(&x);
    ref_view xv = ref_view_packed(4, c->dims);
    double *res = dalloc(y.count), *mag = dalloc(y.count), *want = dalloc(y.count), *scale = dalloc(y.count);
    ref_pool_forward(&r, &xv, xf, res, mag);
    blend(&y, res, mag, alpha, beta, want, scale);
    FX_OK(cldnnPoolingForward(fx_handle(), d, &alpha, x.desc, x.mem, x.offset, &beta, y.desc, y.mem, y.offset));
    check_out(&y, want, scale, out_atol(dt), out_rtol(dt), "forward", m, c, alpha, beta);
    fx_expect_untouched(&x, "x", c->name);
    cldnnDestroyPoolingDescriptor(d);
    fx_tensor_free(&x);
    fx_tensor_free(&y);
    free(xf);
    free(res);
    free(mag);
    free(want);
    free(scale);
}

static void forward_all(pmode m) {
    for (size_t k = 0; k < NCASES; k++)
        for (int ab = 0; ab < FX_NAB; ab++)
            forward_case(m, &k_cases[k], fx_alpha_beta[ab][0], fx_alpha_beta[ab][1], CLDNN_DATA_FLOAT,
                         is_max(m) && ab == 1);
}

Test(pool_forward, max) { forward_all(M_MAX); }
Test(pool_forward, max_deterministic_propagate) { forward_all(M_MAXDET); }
Test(pool_forward, avg_include_padding) { forward_all(M_AVG); }
Test(pool_forward, avg_exclude_padding) { forward_all(M_AVGX); }

/* ----------------------------------------------------------------------------- backward */

static void backward_case(pmode m, const pcase* c, float alpha, float beta, cldnnDataType_t dt, int quantized) {
    ref_pool r;
    make_ref(&r, m, c);
    int64_t yd[4] = {r.n, r.c, r.oh, r.ow};
    fx_tensor x, y, dy, dx;
    fx_tensor_from_desc(&x, 4, c->dims, &c->x, dt);
    fx_tensor_from_desc(&dx, 4, c->dims, &c->dx, dt);
    fx_tensor_from_desc(&y, 4, yd, &c->y, dt);
    fx_tensor_from_desc(&dy, 4, yd, &c->dy, dt);
    fx_tensor_poison_random(&x);
    fx_tensor_poison_random(&y);
    fx_tensor_poison_random(&dy);
    fill_x(&x, quantized);
    fx_tensor_fill_uniform(&dy, -1.0, 1.0);
    /* y: the reference forward of x, in the storage type */
    float* xf = fx_tensor_host_floats(&x);
    ref_view xv = ref_view_packed(4, c->dims), yv = ref_view_packed(4, yd);
    int64_t nmax = dx.count > y.count ? dx.count : y.count; /* res holds y first */
    double *res = dalloc(nmax), *mag = dalloc(dx.count), *want = dalloc(dx.count), *scale = dalloc(dx.count);
    ref_pool_forward(&r, &xv, xf, res, NULL);
    for (int64_t i = 0; i < y.count; i++)
        fx_tensor_set(&y, i, res[i]);
    fx_poison_out(&dx, beta);
    fx_tensor_upload(&x);
    fx_tensor_upload(&y);
    fx_tensor_upload(&dy);
    fx_tensor_upload(&dx);
    float *yf = fx_tensor_host_floats(&y), *dyf = fx_tensor_host_floats(&dy);
    ref_pool_backward(&r, &xv, xf, &yv, yf, &yv, dyf, res, mag);
    blend(&dx, res, mag, alpha, beta, want, scale);
    cldnnPoolingDescriptor_t d = make_desc(m, c);
    FX_OK(cldnnPoolingBackward(fx_handle(), d, &alpha, y.desc, y.mem, y.offset, dy.desc, dy.mem, dy.offset, x.desc,
                               x.mem, x.offset, &beta, dx.desc, dx.mem, dx.offset));
    check_out(&dx, want, scale, out_atol(dt), out_rtol(dt),
              quantized ? "backward (tied x)" : "backward", m, c, alpha, beta);
    fx_expect_untouched(&x, "x", c->name);
    fx_expect_untouched(&y, "y", c->name);
    fx_expect_untouched(&dy, "dy", c->name);
    cldnnDestroyPoolingDescriptor(d);
    fx_tensor_free(&x);
    fx_tensor_free(&y);
    fx_tensor_free(&dy);
    fx_tensor_free(&dx);
    free(xf);
    free(yf);
    free(dyf);
    free(res);
    free(mag);
    free(want);
    free(scale);
}

static void backward_all(pmode m) {
    for (size_t k = 0; k < NCASES; k++)
        for (int ab = 0; ab < FX_NAB; ab++)
            backward_case(m, &k_cases[k], fx_alpha_beta[ab][0], fx_alpha_beta[ab][1], CLDNN_DATA_FLOAT,
                          is_max(m) && ab == 1);
}

Test(pool_backward, max) { backward_all(M_MAX); }
Test(pool_backward, max_deterministic_propagate) { backward_all(M_MAXDET); }
Test(pool_backward, avg_include_padding) { backward_all(M_AVG); }
Test(pool_backward, avg_exclude_padding) { backward_all(M_AVGX); }

/* Runs of `run` outputs per work-item in pool_fwd and pool_bwd (their parameter sets, 32-bit
** indices: every case here fits them), through CLDNN_SOLVER_PARAMS. */
static void set_runs(int run) {
    char v[64];
    snprintf(v, sizeof v, "pool_fwd:i32-r%d;pool_bwd:i32-r%d", run, run);
    setenv("CLDNN_SOLVER_PARAMS", v, 1);
}

/* Random geometries (window 1..6, pad below the window, stride 1..4, sizes 1..12, NCHW or NHWC
** per tensor, offsets 0..3), every mode, forward and backward; the seed reproduces them. */
Test(pool_backward, random_geometries) {
    const pmode modes[4] = {M_MAX, M_MAXDET, M_AVG, M_AVGX};
    for (int it = 0; it < 24; it++) {
        pcase c;
        memset(&c, 0, sizeof c);
        c.name = "random";
        int64_t r[4];
        do {
            for (int i = 0; i < 4; i++)
                r[i] = 1 + (int64_t)(ref_rng_next(fx_rng()) % (i < 2 ? 3u : 12u));
            c.wh = 1 + (int)(ref_rng_next(fx_rng()) % 6);
            c.ww = 1 + (int)(ref_rng_next(fx_rng()) % 6);
            c.ph = (int)(ref_rng_next(fx_rng()) % (uint64_t)c.wh);
            c.pw = (int)(ref_rng_next(fx_rng()) % (uint64_t)c.ww);
            c.sh = 1 + (int)(ref_rng_next(fx_rng()) % 4);
            c.sw = 1 + (int)(ref_rng_next(fx_rng()) % 4);
        } while (r[2] + 2 * c.ph < c.wh || r[3] + 2 * c.pw < c.ww);
        memcpy(c.dims, r, sizeof r);
        fx_tdesc* t[4] = {&c.x, &c.y, &c.dy, &c.dx};
        for (int i = 0; i < 4; i++) {
            t[i]->kind = ref_rng_next(fx_rng()) & 1 ? FX_NHWC : FX_NCHW;
            t[i]->offset = (size_t)(ref_rng_next(fx_rng()) % 4);
        }
        pmode m = modes[it % 4];
        int ab = (it / 4) % FX_NAB;
        /* work-items of one element (GPUs), whole rows (1000) and runs of 3 with remainders */
        set_runs(it % 3 == 0 ? 1 : it % 3 == 1 ? 1000 : 3);
        forward_case(m, &c, fx_alpha_beta[ab][0], fx_alpha_beta[ab][1], CLDNN_DATA_FLOAT, is_max(m) && it % 3 == 0);
        backward_case(m, &c, fx_alpha_beta[ab][0], fx_alpha_beta[ab][1], CLDNN_DATA_FLOAT, is_max(m) && it % 3 == 0);
    }
    unsetenv("CLDNN_SOLVER_PARAMS");
}

/* pool_fwd and pool_bwd with one element per work-item (the GPUs' walk; CPUs take runs of a row) and
** runs of 4 (remainders), through their parameter sets, over the case table. */
Test(pool_backward, runs) {
    const pmode modes[2] = {M_MAXDET, M_AVG};
    for (int r = 0; r < 2; r++) {
        set_runs(r ? 4 : 1);
        for (size_t k = 0; k < NCASES; k++) {
            forward_case(modes[r], &k_cases[k], 2.0f, -1.0f, CLDNN_DATA_FLOAT, r == 0);
            backward_case(modes[r], &k_cases[k], 0.5f, 0.25f, CLDNN_DATA_FLOAT, r == 0);
        }
    }
    unsetenv("CLDNN_SOLVER_PARAMS");
}

/* pool_bwd_local (CLDNN_SOLVER=pool_bwd_local,pool_bwd; GPUs take it on their own) over the case table, every mode
** with ties, and over planes spanning several of its tiles (tile edges through windows that
** overlap, stride > window, big padding, rows of 70 and 130); index64 runs it with 64-bit indices. */
static const pcase k_local_cases[] = {
    {"3x3 s2 p1 37x70 NCHW", {2, 3, 37, 70}, 3, 3, 1, 1, 2, 2, NCHW(1), NCHW(2), NCHW(0), NCHW(3)},
    {"3x3 s1 p1 40x33 NCHW", {1, 2, 40, 33}, 3, 3, 1, 1, 1, 1, NCHW(0), NCHW(0), NCHW(0), NCHW(0)},
    {"3x3 s2 p1 150x40 (three tiles down)", {1, 1, 150, 40}, 3, 3, 1, 1, 2, 2, NCHW(0), NCHW(1), NCHW(0), NCHW(1)},
    {"3x3 s1 p1 150x9 (rh shrunk)", {1, 2, 150, 9}, 3, 3, 1, 1, 1, 1, NCHW(2), NCHW(0), NCHW(1), NCHW(0)},
    {"5x5 s2 p2 21x130", {1, 1, 21, 130}, 5, 5, 2, 2, 2, 2, NCHW(0), NCHW(1), NCHW(1), NCHW(0)},
    {"2x2 s3 (gaps) 19x67", {1, 2, 19, 67}, 2, 2, 0, 0, 3, 3, NCHW(0), NCHW(0), NCHW(0), NCHW(2)},
    {"4x7 s3x2 p3x2 NHWC", {2, 3, 35, 41}, 4, 7, 3, 2, 3, 2, NHWC(0), NHWC(1), NHWC(0), NHWC(1)},
    {"3x3 s2 p1 NHWC C40 (two channel blocks) 30x37", {2, 40, 30, 37}, 3, 3, 1, 1, 2, 2, NHWC(1), NHWC(0), NCHW(2),
     NHWC(1)},
    {"3x3 s1 p1 NHWC C9 20x21", {1, 9, 20, 21}, 3, 3, 1, 1, 1, 1, NHWC(0), NHWC(0), NHWC(0), NHWC(0)},
};

Test(pool_backward, local) {
    setenv("CLDNN_SOLVER", "pool_bwd_local,pool_bwd,pool_fwd_lanes,pool_fwd", 1);
    const pmode modes[4] = {M_MAX, M_MAXDET, M_AVG, M_AVGX};
    for (int m = 0; m < 4; m++) {
        for (size_t k = 0; k < NCASES; k++)
            backward_case(modes[m], &k_cases[k], 0.5f, 0.25f, CLDNN_DATA_FLOAT, is_max(modes[m]));
        for (size_t k = 0; k < sizeof k_local_cases / sizeof k_local_cases[0]; k++)
            for (int ab = 0; ab < FX_NAB; ab++)
                backward_case(modes[m], &k_local_cases[k], fx_alpha_beta[ab][0], fx_alpha_beta[ab][1],
                              CLDNN_DATA_FLOAT, is_max(modes[m]) && ab != 1);
    }
    setenv("CLDNN_SOLVER_PARAMS", "pool_bwd_local:i64", 1);
    backward_case(M_MAX, &k_local_cases[0], 1.0f, 0.0f, CLDNN_DATA_FLOAT, 1);
    unsetenv("CLDNN_SOLVER_PARAMS");
    unsetenv("CLDNN_SOLVER");
}

/* The 64-bit index variant (IDX_T=ulong, plain division), which the library takes for views
** past 2^31 elements, forced through every solver's parameter set on cases that reach every
** kernel (r0: the CPUs' default run; GPUs default to runs of 2 forward, 1 backward, which runs
** already covers). */
Test(pool_backward, index64) {
    setenv("CLDNN_SOLVER_PARAMS",
           "pool_fwd_lanes:i64;pool_fwd:i64-r0;pool_bwd_tile:i64;pool_bwd_local:i64;pool_bwd:i64-r0", 1);
    const size_t cases[5] = {1, 3, 7, 12, 14};
    const pmode modes[2] = {M_MAX, M_AVGX};
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < 5; i++) {
            forward_case(modes[k], &k_cases[cases[i]], 0.5f, 0.25f, CLDNN_DATA_FLOAT, 0);
            backward_case(modes[k], &k_cases[cases[i]], 1.0f, 0.0f, CLDNN_DATA_FLOAT, k == 0);
        }
    unsetenv("CLDNN_SOLVER_PARAMS");
}

/* ---------------------------------------------------------------------------- gradcheck */

/* Central differences of loss(x) = sum w * pool(x) with the library's forward: x0 (1 x C x H x W)
** holds distinct values 0.05 apart (so no perturbation of eps = 0.01 reorders a window, and max
** pooling is linear around x0); every +-eps perturbation is one sample of a batch of 2 * C*H*W,
** run in one forward call. The library's backward (dy = w, y = its own forward of x0) must match. */
static void gradcheck(pmode m, const pcase* c) {
    const double eps = 0.01;
    int64_t C = c->dims[1], H = c->dims[2], W = c->dims[3], nx = C * H * W;
    ref_pool r;
    make_ref(&r, m, c);
    int64_t ny = C * r.oh * r.ow;
    /* x0: a random permutation of (k - nx / 2) * 0.05 */
    double* x0 = dalloc(nx);
    for (int64_t i = 0; i < nx; i++)
        x0[i] = ((double)i - (double)nx / 2) * 0.05;
    for (int64_t i = nx - 1; i > 0; i--) {
        int64_t j = (int64_t)(ref_rng_next(fx_rng()) % (uint64_t)(i + 1));
        double t = x0[i];
        x0[i] = x0[j];
        x0[j] = t;
    }
    int64_t bd[4] = {2 * nx, C, H, W}, byd[4] = {2 * nx, C, r.oh, r.ow};
    int64_t sd[4] = {1, C, H, W}, syd[4] = {1, C, r.oh, r.ow};
    fx_tensor xb, yb, x, y, dy, dx;
    fx_tensor_nd(&xb, CLDNN_DATA_FLOAT, 4, bd, NULL, 0);
    fx_tensor_nd(&yb, CLDNN_DATA_FLOAT, 4, byd, NULL, 0);
    fx_tensor_nd(&x, CLDNN_DATA_FLOAT, 4, sd, NULL, 0);
    fx_tensor_nd(&y, CLDNN_DATA_FLOAT, 4, syd, NULL, 0);
    fx_tensor_nd(&dy, CLDNN_DATA_FLOAT, 4, syd, NULL, 0);
    fx_tensor_nd(&dx, CLDNN_DATA_FLOAT, 4, sd, NULL, 0);
    for (int64_t s = 0; s < 2 * nx; s++)
        for (int64_t i = 0; i < nx; i++)
            fx_tensor_set(&xb, s * nx + i, x0[i] + (i == s / 2 ? (s % 2 ? -eps : eps) : 0.0));
    for (int64_t i = 0; i < nx; i++)
        fx_tensor_set(&x, i, x0[i]);
    double* wv = dalloc(ny);
    for (int64_t i = 0; i < ny; i++) {
        double a = ref_rng_uniform(fx_rng(), 0.5, 1.0);
        wv[i] = ref_rng_next(fx_rng()) & 1 ? a : -a;
        fx_tensor_set(&dy, i, wv[i]);
    }
    fx_tensor_poison_nan(&yb);
    fx_tensor_poison_nan(&y);
    fx_tensor_poison_nan(&dx);
    fx_tensor_upload(&xb);
    fx_tensor_upload(&yb);
    fx_tensor_upload(&x);
    fx_tensor_upload(&y);
    fx_tensor_upload(&dy);
    fx_tensor_upload(&dx);
    cldnnPoolingDescriptor_t d = make_desc(m, c);
    float one = 1.0f, zero = 0.0f;
    cldnnHandle_t h = fx_handle();
    FX_OK(cldnnPoolingForward(h, d, &one, xb.desc, xb.mem, 0, &zero, yb.desc, yb.mem, 0));
    FX_OK(cldnnPoolingForward(h, d, &one, x.desc, x.mem, 0, &zero, y.desc, y.mem, 0));
    FX_OK(cldnnPoolingBackward(h, d, &one, y.desc, y.mem, 0, dy.desc, dy.mem, 0, x.desc, x.mem, 0, &zero, dx.desc,
                               dx.mem, 0));
    fx_tensor_download(&yb);
    fx_tensor_download(&dx);
    for (int64_t i = 0; i < nx; i++) {
        double lp = 0, lm = 0;
        for (int64_t o = 0; o < ny; o++) {
            lp += wv[o] * fx_tensor_got(&yb, (2 * i) * ny + o);
            lm += wv[o] * fx_tensor_got(&yb, (2 * i + 1) * ny + o);
        }
        double fd = (lp - lm) / (2 * eps), got = fx_tensor_got(&dx, i);
        FX_ASSERT(fabs(got - fd) <= 2e-3 + 1e-3 * fabs(fd),
                  "gradcheck mode %d, case \"%s\": dx[%lld] = %.7g, central difference %.7g", (int)m.mode, c->name,
                  (long long)i, got, fd);
    }
    cldnnDestroyPoolingDescriptor(d);
    fx_tensor_free(&xb);
    fx_tensor_free(&yb);
    fx_tensor_free(&x);
    fx_tensor_free(&y);
    fx_tensor_free(&dy);
    fx_tensor_free(&dx);
    free(x0);
    free(wv);
}

static const pcase k_grad_cases[] = {
    {"1x2x7x6 3x3 s2 p1", {1, 2, 7, 6}, 3, 3, 1, 1, 2, 2, NCHW(0), NCHW(0), NCHW(0), NCHW(0)},
    {"1x2x5x7 2x3 s1x2 p1x1", {1, 2, 5, 7}, 2, 3, 1, 1, 1, 2, NCHW(0), NCHW(0), NCHW(0), NCHW(0)},
    {"1x1x6x6 global", {1, 1, 6, 6}, 6, 6, 0, 0, 1, 1, NCHW(0), NCHW(0), NCHW(0), NCHW(0)},
};

static void gradcheck_all(pmode m) {
    for (size_t k = 0; k < sizeof k_grad_cases / sizeof k_grad_cases[0]; k++)
        gradcheck(m, &k_grad_cases[k]);
}

Test(pool_gradcheck, max) { gradcheck_all(M_MAX); }
Test(pool_gradcheck, max_deterministic_propagate) { gradcheck_all(M_MAXDET); }
Test(pool_gradcheck, avg_include_padding) { gradcheck_all(M_AVG); }
Test(pool_gradcheck, avg_exclude_padding) { gradcheck_all(M_AVGX); }

/* ---------------------------------------------------------------------------------- NaN */

/* 1x1x4x4, 2x2 s2: window 0 holds one NaN among finite values, window 1 only NaNs, window 2 is
** finite, window 3 holds a NaN and +inf. Forward and backward against hand-written results. */
static void nan_case(cldnnNanPropagation_t nan) {
    const float N_ = NAN, I_ = INFINITY;
    const float xv[16] = {1, N_, N_, N_, 3, 2, N_, N_, -1, -5, 7, N_, -2, -1, I_, 0};
    const double y_skip[4] = {3, -INFINITY, -1, INFINITY}, y_prop[4] = {NAN, NAN, -1, NAN};
    /* backward, dy = 1, 2, 3, 4: the first tap matching y of each window */
    const double dx_skip[16] = {0, 0, 0, 0, 1, 0, 0, 0, 3, 0, 0, 0, 0, 0, 4, 0};
    const double dx_prop[16] = {0, 1, 2, 0, 0, 0, 0, 0, 3, 0, 0, 4, 0, 0, 0, 0};
    const pcase c = {"nan 4x4", {1, 1, 4, 4}, 2, 2, 0, 0, 2, 2, NCHW(1), NCHW(0), NCHW(0), NCHW(0)};
    int prop = nan == CLDNN_PROPAGATE_NAN;
    fx_tensor x, y, dy, dx;
    fx_tensor_4d(&x, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 1, 1, 4, 4, 4);
    fx_tensor_4d(&y, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 1, 1, 2, 2, 0);
    fx_tensor_4d(&dy, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 1, 1, 2, 2, 0);
    fx_tensor_4d(&dx, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 1, 1, 4, 4, 0);
    for (int i = 0; i < 16; i++)
        fx_tensor_set(&x, i, xv[i]);
    for (int i = 0; i < 4; i++)
        fx_tensor_set(&dy, i, i + 1);
    fx_tensor_poison_nan(&y);
    fx_tensor_poison_nan(&dx);
    fx_tensor_upload(&x);
    fx_tensor_upload(&y);
    fx_tensor_upload(&dy);
    fx_tensor_upload(&dx);
    pmode m = {CLDNN_POOLING_MAX, nan};
    cldnnPoolingDescriptor_t d = make_desc(m, &c);
    float one = 1.0f, zero = 0.0f;
    FX_OK(cldnnPoolingForward(fx_handle(), d, &one, x.desc, x.mem, x.offset, &zero, y.desc, y.mem, 0));
    check_out(&y, prop ? y_prop : y_skip, NULL, 0.0, 0.0, "nan forward", m, &c, 1, 0);
    /* the reference agrees */
    ref_pool r;
    make_ref(&r, m, &c);
    ref_view xv4 = ref_view_packed(4, c.dims);
    double ry[4];
    ref_pool_forward(&r, &xv4, xv, ry, NULL);
    for (int i = 0; i < 4; i++)
        FX_ASSERT(ref_close(ry[i], prop ? y_prop[i] : y_skip[i], 0.0, &(double){0}), "reference y[%d] = %g", i,
                  ry[i]);
    FX_OK(cldnnPoolingBackward(fx_handle(), d, &one, y.desc, y.mem, 0, dy.desc, dy.mem, 0, x.desc, x.mem, x.offset,
                               &zero, dx.desc, dx.mem, 0));
    check_out(&dx, prop ? dx_prop : dx_skip, NULL, 0.0, 0.0, "nan backward", m, &c, 1, 0);
    cldnnDestroyPoolingDescriptor(d);
    fx_tensor_free(&x);
    fx_tensor_free(&y);
    fx_tensor_free(&dy);
    fx_tensor_free(&dx);
}

Test(pool_nan, not_propagate) { nan_case(CLDNN_NOT_PROPAGATE_NAN); }
Test(pool_nan, propagate) { nan_case(CLDNN_PROPAGATE_NAN); }

/* All-equal x (a ReLU's zeros) under overlapping 3x3 s1 p1 windows on 5x5: each window's gradient
** goes to its first tap inside the input, (max(oh - 1, 0), max(ow - 1, 0)); dy = 1 everywhere. */
Test(pool_nan, ties_first_tap) {
    const pcase c = {"ties 5x5", {1, 1, 5, 5}, 3, 3, 1, 1, 1, 1, NCHW(0), NCHW(0), NCHW(0), NCHW(0)};
    fx_tensor x, y, dy, dx;
    fx_tensor_4d(&x, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 1, 1, 5, 5, 0);
    fx_tensor_4d(&y, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 1, 1, 5, 5, 0);
    fx_tensor_4d(&dy, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 1, 1, 5, 5, 0);
    fx_tensor_4d(&dx, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 1, 1, 5, 5, 0);
    double want[25] = {0};
    for (int i = 0; i < 25; i++) {
        fx_tensor_set(&x, i, 0.0);
        fx_tensor_set(&y, i, 0.0);
        fx_tensor_set(&dy, i, 1.0);
        int oh = i / 5, ow = i % 5;
        want[(oh > 0 ? oh - 1 : 0) * 5 + (ow > 0 ? ow - 1 : 0)] += 1.0;
    }
    fx_tensor_poison_nan(&dx);
    fx_tensor_upload(&x);
    fx_tensor_upload(&y);
    fx_tensor_upload(&dy);
    fx_tensor_upload(&dx);
    float one = 1.0f, zero = 0.0f;
    cldnnPoolingDescriptor_t d = make_desc(M_MAX, &c);
    FX_OK(cldnnPoolingBackward(fx_handle(), d, &one, y.desc, y.mem, 0, dy.desc, dy.mem, 0, x.desc, x.mem, 0, &zero,
                               dx.desc, dx.mem, 0));
    check_out(&dx, want, NULL, 0.0, 0.0, "ties backward", M_MAX, &c, 1, 0);
    cldnnDestroyPoolingDescriptor(d);
    fx_tensor_free(&x);
    fx_tensor_free(&y);
    fx_tensor_free(&dy);
    fx_tensor_free(&dx);
}

/* --------------------------------------------------------------------------------- half */

/* BFLOAT16 storage: each mode once per direction on two cases (padded, overlapping windows). */
Test(pool_bf16, forward_backward) {
    const pmode modes[3] = {M_MAX, M_AVG, M_AVGX};
    for (int k = 0; k < 3; k++) {
        forward_case(modes[k], &k_cases[k % 2 ? 3 : 6], 0.5f, 0.25f, CLDNN_DATA_BFLOAT16, 0);
        backward_case(modes[k], &k_cases[k % 2 ? 6 : 3], 1.0f, 0.0f, CLDNN_DATA_BFLOAT16, k == 0);
    }
}

Test(pool_half, forward_backward) {
    const pmode modes[3] = {M_MAX, M_AVG, M_AVGX};
    const size_t cases[4] = {1, 3, 6, 7};
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < 4; i++) {
            forward_case(modes[k], &k_cases[cases[i]], 0.5f, 0.25f, CLDNN_DATA_HALF, 0);
            backward_case(modes[k], &k_cases[cases[i]], 1.0f, 0.0f, CLDNN_DATA_HALF, k == 0);
        }
}

/* --------------------------------------------------------------------------- descriptor */

Test(pool_desc, set_get_output_dim) {
    cldnnPoolingDescriptor_t d;
    FX_OK(cldnnCreatePoolingDescriptor(&d));
    FX_OK(cldnnSetPooling2dDescriptor(d, CLDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING, CLDNN_PROPAGATE_NAN, 3, 5, 1, 2,
                                      2, 3));
    cldnnPoolingMode_t m;
    cldnnNanPropagation_t n;
    int v[6];
    FX_OK(cldnnGetPooling2dDescriptor(d, &m, &n, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5]));
    FX_ASSERT(m == CLDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING && n == CLDNN_PROPAGATE_NAN && v[0] == 3 &&
                  v[1] == 5 && v[2] == 1 && v[3] == 2 && v[4] == 2 && v[5] == 3,
              "Get does not mirror Set");
    fx_tensor x;
    fx_tensor_4d(&x, CLDNN_TENSOR_NHWC, CLDNN_DATA_FLOAT, 2, 3, 10, 11, 0);
    int o[4];
    FX_OK(cldnnGetPooling2dForwardOutputDim(d, x.desc, &o[0], &o[1], &o[2], &o[3]));
    /* 1 + (10 + 2 - 3) / 2 = 5, 1 + (11 + 4 - 5) / 3 = 4 */
    FX_ASSERT(o[0] == 2 && o[1] == 3 && o[2] == 5 && o[3] == 4, "output dims %dx%dx%dx%d", o[0], o[1], o[2], o[3]);
    /* the ResNet-50 stem pooling */
    FX_OK(cldnnSetPooling2dDescriptor(d, CLDNN_POOLING_MAX, CLDNN_NOT_PROPAGATE_NAN, 3, 3, 1, 1, 2, 2));
    fx_tensor r50;
    fx_tensor_4d(&r50, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 1, 64, 112, 112, 0);
    FX_OK(cldnnGetPooling2dForwardOutputDim(d, r50.desc, &o[0], &o[1], &o[2], &o[3]));
    FX_ASSERT(o[2] == 56 && o[3] == 56, "ResNet-50 pool: %dx%d, want 56x56", o[2], o[3]);
    FX_OK(cldnnDestroyPoolingDescriptor(d));
    FX_OK(cldnnDestroyPoolingDescriptor(NULL));
    fx_tensor_free(&x);
    fx_tensor_free(&r50);
}

Test(pool_desc, bad_descriptor) {
    const cldnnStatus_t BP = CLDNN_STATUS_BAD_PARAM, OB = CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
                        NP = CLDNN_STATUS_BAD_PARAM_NULL_POINTER;
    const cldnnPoolingMode_t MX = CLDNN_POOLING_MAX;
    const cldnnNanPropagation_t NN = CLDNN_NOT_PROPAGATE_NAN;
    FX_EXPECT_STATUS(NP, cldnnCreatePoolingDescriptor(NULL));
    cldnnPoolingDescriptor_t d;
    FX_OK(cldnnCreatePoolingDescriptor(&d));
    cldnnPoolingMode_t m;
    cldnnNanPropagation_t n;
    int v[6], o[4];
    fx_tensor x, x5, x3;
    fx_tensor_4d(&x, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 1, 2, 4, 4, 0);
    fx_tensor_nd(&x5, CLDNN_DATA_FLOAT, 5, (const int64_t[]){1, 2, 4, 4, 4}, NULL, 0);
    fx_tensor_nd(&x3, CLDNN_DATA_FLOAT, 3, (const int64_t[]){1, 2, 4}, NULL, 0);
    /* unset */
    FX_EXPECT_STATUS(BP, cldnnGetPooling2dDescriptor(d, &m, &n, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5]));
    FX_EXPECT_STATUS(BP, cldnnGetPooling2dForwardOutputDim(d, x.desc, &o[0], &o[1], &o[2], &o[3]));
    FX_EXPECT_STATUS(NP, cldnnSetPooling2dDescriptor(NULL, MX, NN, 2, 2, 0, 0, 2, 2));
    FX_EXPECT_STATUS(OB, cldnnSetPooling2dDescriptor(d, (cldnnPoolingMode_t)4, NN, 2, 2, 0, 0, 2, 2));
    FX_EXPECT_STATUS(OB, cldnnSetPooling2dDescriptor(d, (cldnnPoolingMode_t)-1, NN, 2, 2, 0, 0, 2, 2));
    FX_EXPECT_STATUS(OB, cldnnSetPooling2dDescriptor(d, MX, (cldnnNanPropagation_t)2, 2, 2, 0, 0, 2, 2));
    FX_EXPECT_STATUS(BP, cldnnSetPooling2dDescriptor(d, MX, NN, 0, 2, 0, 0, 2, 2));
    FX_EXPECT_STATUS(BP, cldnnSetPooling2dDescriptor(d, MX, NN, 2, -1, 0, 0, 2, 2));
    FX_EXPECT_STATUS(BP, cldnnSetPooling2dDescriptor(d, MX, NN, 2, 2, 0, 0, 0, 2));
    FX_EXPECT_STATUS(BP, cldnnSetPooling2dDescriptor(d, MX, NN, 2, 2, 0, 0, 2, -3));
    FX_EXPECT_STATUS(BP, cldnnSetPooling2dDescriptor(d, MX, NN, 2, 2, -1, 0, 2, 2));
    FX_EXPECT_STATUS(BP, cldnnSetPooling2dDescriptor(d, MX, NN, 2, 2, 0, 2, 2, 2));  /* pad == window */
    FX_EXPECT_STATUS(BP, cldnnSetPooling2dDescriptor(d, MX, NN, 3, 3, 4, 0, 1, 1));  /* pad > window */
    /* still unset after the failures */
    FX_EXPECT_STATUS(BP, cldnnGetPooling2dDescriptor(d, &m, &n, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5]));
    FX_OK(cldnnSetPooling2dDescriptor(d, MX, NN, 7, 3, 1, 1, 1, 1));
    FX_EXPECT_STATUS(NP, cldnnGetPooling2dDescriptor(d, NULL, &n, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5]));
    FX_EXPECT_STATUS(NP, cldnnGetPooling2dDescriptor(d, &m, &n, &v[0], &v[1], &v[2], &v[3], &v[4], NULL));
    FX_EXPECT_STATUS(NP, cldnnGetPooling2dDescriptor(NULL, &m, &n, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5]));
    /* a 7-row window over 4 + 2 padded rows */
    FX_EXPECT_STATUS(BP, cldnnGetPooling2dForwardOutputDim(d, x.desc, &o[0], &o[1], &o[2], &o[3]));
    FX_OK(cldnnSetPooling2dDescriptor(d, MX, NN, 3, 3, 1, 1, 1, 1));
    FX_EXPECT_STATUS(CLDNN_STATUS_NOT_SUPPORTED_SHAPE,
                     cldnnGetPooling2dForwardOutputDim(d, x5.desc, &o[0], &o[1], &o[2], &o[3]));
    FX_EXPECT_STATUS(BP, cldnnGetPooling2dForwardOutputDim(d, x3.desc, &o[0], &o[1], &o[2], &o[3]));
    FX_EXPECT_STATUS(NP, cldnnGetPooling2dForwardOutputDim(d, NULL, &o[0], &o[1], &o[2], &o[3]));
    FX_EXPECT_STATUS(NP, cldnnGetPooling2dForwardOutputDim(d, x.desc, &o[0], &o[1], &o[2], NULL));
    FX_EXPECT_STATUS(NP, cldnnGetPooling2dForwardOutputDim(NULL, x.desc, &o[0], &o[1], &o[2], &o[3]));
    cldnnTensorDescriptor_t unset;
    FX_OK(cldnnCreateTensorDescriptor(&unset));
    FX_EXPECT_STATUS(BP, cldnnGetPooling2dForwardOutputDim(d, unset, &o[0], &o[1], &o[2], &o[3]));
    cldnnDestroyTensorDescriptor(unset);
    cldnnDestroyPoolingDescriptor(d);
    fx_tensor_free(&x);
    fx_tensor_free(&x5);
    fx_tensor_free(&x3);
}

/* -------------------------------------------------------------------------------- bad */

/* 2x3x6x6 x / dx, 3x3 s2 p1 -> 2x3x3x3 y / dy, all at byte offset 4. */
typedef struct {
    cldnnPoolingDescriptor_t d;
    fx_tensor x, y, dy, dx;
} bad_env;

static void bad_env_init(bad_env* e) {
    FX_OK(cldnnCreatePoolingDescriptor(&e->d));
    FX_OK(cldnnSetPooling2dDescriptor(e->d, CLDNN_POOLING_MAX, CLDNN_NOT_PROPAGATE_NAN, 3, 3, 1, 1, 2, 2));
    fx_tensor_4d(&e->x, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 2, 3, 6, 6, 4);
    fx_tensor_4d(&e->dx, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 2, 3, 6, 6, 4);
    fx_tensor_4d(&e->y, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 2, 3, 3, 3, 4);
    fx_tensor_4d(&e->dy, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 2, 3, 3, 3, 4);
    fx_tensor* all[4] = {&e->x, &e->y, &e->dy, &e->dx};
    for (int i = 0; i < 4; i++) {
        fx_tensor_poison_random(all[i]);
        fx_tensor_upload(all[i]);
    }
}

static void bad_env_free(bad_env* e) {
    fx_expect_untouched(&e->y, "y", "rejected call");
    fx_expect_untouched(&e->dx, "dx", "rejected call");
    cldnnDestroyPoolingDescriptor(e->d);
    fx_tensor_free(&e->x);
    fx_tensor_free(&e->y);
    fx_tensor_free(&e->dy);
    fx_tensor_free(&e->dx);
}

#define T_(t) (t)->desc, (t)->mem, (t)->offset
#define FWD cldnnPoolingForward
#define BWD cldnnPoolingBackward

Test(pool_bad, null_and_unset) {
    bad_env e;
    bad_env_init(&e);
    cldnnHandle_t h = fx_handle();
    float one = 1.0f, zero = 0.0f;
    const cldnnStatus_t NP = CLDNN_STATUS_BAD_PARAM_NULL_POINTER;
    fx_tensor *x = &e.x, *y = &e.y, *dy = &e.dy, *dx = &e.dx;
    FX_EXPECT_STATUS(NP, FWD(NULL, e.d, &one, T_(x), &zero, T_(y)));
    FX_EXPECT_STATUS(NP, FWD(h, NULL, &one, T_(x), &zero, T_(y)));
    FX_EXPECT_STATUS(NP, FWD(h, e.d, NULL, T_(x), &zero, T_(y)));
    FX_EXPECT_STATUS(NP, FWD(h, e.d, &one, T_(x), NULL, T_(y)));
    FX_EXPECT_STATUS(NP, FWD(h, e.d, &one, NULL, x->mem, 4, &zero, T_(y)));
    FX_EXPECT_STATUS(NP, FWD(h, e.d, &one, x->desc, NULL, 4, &zero, T_(y)));
    FX_EXPECT_STATUS(NP, FWD(h, e.d, &one, T_(x), &zero, NULL, y->mem, 4));
    FX_EXPECT_STATUS(NP, FWD(h, e.d, &one, T_(x), &zero, y->desc, NULL, 4));
    FX_EXPECT_STATUS(NP, BWD(NULL, e.d, &one, T_(y), T_(dy), T_(x), &zero, T_(dx)));
    FX_EXPECT_STATUS(NP, BWD(h, NULL, &one, T_(y), T_(dy), T_(x), &zero, T_(dx)));
    FX_EXPECT_STATUS(NP, BWD(h, e.d, NULL, T_(y), T_(dy), T_(x), &zero, T_(dx)));
    FX_EXPECT_STATUS(NP, BWD(h, e.d, &one, T_(y), T_(dy), T_(x), NULL, T_(dx)));
    FX_EXPECT_STATUS(NP, BWD(h, e.d, &one, NULL, y->mem, 4, T_(dy), T_(x), &zero, T_(dx)));
    FX_EXPECT_STATUS(NP, BWD(h, e.d, &one, y->desc, NULL, 4, T_(dy), T_(x), &zero, T_(dx)));
    FX_EXPECT_STATUS(NP, BWD(h, e.d, &one, T_(y), NULL, dy->mem, 4, T_(x), &zero, T_(dx)));
    FX_EXPECT_STATUS(NP, BWD(h, e.d, &one, T_(y), dy->desc, NULL, 4, T_(x), &zero, T_(dx)));
    FX_EXPECT_STATUS(NP, BWD(h, e.d, &one, T_(y), T_(dy), NULL, x->mem, 4, &zero, T_(dx)));
    FX_EXPECT_STATUS(NP, BWD(h, e.d, &one, T_(y), T_(dy), x->desc, NULL, 4, &zero, T_(dx)));
    FX_EXPECT_STATUS(NP, BWD(h, e.d, &one, T_(y), T_(dy), T_(x), &zero, NULL, dx->mem, 4));
    FX_EXPECT_STATUS(NP, BWD(h, e.d, &one, T_(y), T_(dy), T_(x), &zero, dx->desc, NULL, 4));
    /* unset pooling and tensor descriptors */
    cldnnPoolingDescriptor_t pu;
    cldnnTensorDescriptor_t tu;
    FX_OK(cldnnCreatePoolingDescriptor(&pu));
    FX_OK(cldnnCreateTensorDescriptor(&tu));
    const cldnnStatus_t BP = CLDNN_STATUS_BAD_PARAM;
    FX_EXPECT_STATUS(BP, FWD(h, pu, &one, T_(x), &zero, T_(y)));
    FX_EXPECT_STATUS(BP, FWD(h, e.d, &one, tu, x->mem, 4, &zero, T_(y)));
    FX_EXPECT_STATUS(BP, FWD(h, e.d, &one, T_(x), &zero, tu, y->mem, 4));
    FX_EXPECT_STATUS(BP, BWD(h, pu, &one, T_(y), T_(dy), T_(x), &zero, T_(dx)));
    FX_EXPECT_STATUS(BP, BWD(h, e.d, &one, tu, y->mem, 4, T_(dy), T_(x), &zero, T_(dx)));
    FX_EXPECT_STATUS(BP, BWD(h, e.d, &one, T_(y), tu, dy->mem, 4, T_(x), &zero, T_(dx)));
    FX_EXPECT_STATUS(BP, BWD(h, e.d, &one, T_(y), T_(dy), tu, x->mem, 4, &zero, T_(dx)));
    FX_EXPECT_STATUS(BP, BWD(h, e.d, &one, T_(y), T_(dy), T_(x), &zero, tu, dx->mem, 4));
    cldnnDestroyPoolingDescriptor(pu);
    cldnnDestroyTensorDescriptor(tu);
    bad_env_free(&e);
}

Test(pool_bad, shapes) {
    bad_env e;
    bad_env_init(&e);
    cldnnHandle_t h = fx_handle();
    float one = 1.0f, zero = 0.0f;
    const cldnnStatus_t SM = CLDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH;
    fx_tensor *x = &e.x, *y = &e.y, *dy = &e.dy, *dx = &e.dx;
    fx_tensor y4, x7, c4, x5, y5, tiny;
    fx_tensor_4d(&y4, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 2, 3, 4, 3, 0); /* one row too many */
    fx_tensor_4d(&x7, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 2, 3, 7, 6, 0); /* dx / x differ */
    fx_tensor_4d(&c4, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 2, 4, 3, 3, 0); /* channels differ */
    fx_tensor_nd(&x5, CLDNN_DATA_FLOAT, 5, (const int64_t[]){2, 3, 6, 6, 2}, NULL, 0);
    fx_tensor_nd(&y5, CLDNN_DATA_FLOAT, 5, (const int64_t[]){2, 3, 3, 3, 1}, NULL, 0);
    fx_tensor_4d(&tiny, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 2, 3, 1, 1, 0); /* 3x3 window over 1 + 2 pads: fits */
    FX_EXPECT_STATUS(SM, FWD(h, e.d, &one, T_(x), &zero, T_(&y4)));
    FX_EXPECT_STATUS(SM, FWD(h, e.d, &one, T_(x), &zero, T_(&c4)));
    FX_EXPECT_STATUS(SM, FWD(h, e.d, &one, T_(x), &zero, T_(&y5)));
    FX_EXPECT_STATUS(SM, FWD(h, e.d, &one, T_(&tiny), &zero, T_(y)));
    FX_EXPECT_STATUS(CLDNN_STATUS_NOT_SUPPORTED_SHAPE, FWD(h, e.d, &one, T_(&x5), &zero, T_(y)));
    FX_EXPECT_STATUS(SM, BWD(h, e.d, &one, T_(y), T_(dy), T_(&x7), &zero, T_(dx)));
    FX_EXPECT_STATUS(SM, BWD(h, e.d, &one, T_(y), T_(dy), T_(x), &zero, T_(&x7)));
    FX_EXPECT_STATUS(SM, BWD(h, e.d, &one, T_(&y4), T_(dy), T_(x), &zero, T_(dx)));
    FX_EXPECT_STATUS(SM, BWD(h, e.d, &one, T_(y), T_(&c4), T_(x), &zero, T_(dx)));
    FX_EXPECT_STATUS(SM, BWD(h, e.d, &one, T_(&y4), T_(&y4), T_(x), &zero, T_(dx)));
    FX_EXPECT_STATUS(CLDNN_STATUS_NOT_SUPPORTED_SHAPE, BWD(h, e.d, &one, T_(y), T_(dy), T_(&x5), &zero, T_(&x5)));
    /* window larger than the padded input: 5x5 window, pad 0, over 3x3 */
    cldnnPoolingDescriptor_t big;
    FX_OK(cldnnCreatePoolingDescriptor(&big));
    FX_OK(cldnnSetPooling2dDescriptor(big, CLDNN_POOLING_MAX, CLDNN_NOT_PROPAGATE_NAN, 5, 5, 0, 0, 1, 1));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM, FWD(h, big, &one, T_(y), &zero, T_(y)));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM, BWD(h, big, &one, T_(y), T_(dy), T_(y), &zero, T_(dy)));
    cldnnDestroyPoolingDescriptor(big);
    fx_tensor_free(&y4);
    fx_tensor_free(&x7);
    fx_tensor_free(&c4);
    fx_tensor_free(&x5);
    fx_tensor_free(&y5);
    fx_tensor_free(&tiny);
    bad_env_free(&e);
}

Test(pool_bad, types_offsets_buffers) {
    bad_env e;
    bad_env_init(&e);
    cldnnHandle_t h = fx_handle();
    float one = 1.0f, zero = 0.0f;
    fx_tensor *x = &e.x, *y = &e.y, *dy = &e.dy, *dx = &e.dx;
    fx_tensor yh, xd, yd;
    fx_tensor_4d(&yh, CLDNN_TENSOR_NCHW, CLDNN_DATA_HALF, 2, 3, 3, 3, 0);
    fx_tensor_4d(&xd, CLDNN_TENSOR_NCHW, CLDNN_DATA_DOUBLE, 2, 3, 6, 6, 0);
    fx_tensor_4d(&yd, CLDNN_TENSOR_NCHW, CLDNN_DATA_DOUBLE, 2, 3, 3, 3, 0);
    double done = 1.0, dzero = 0.0;
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM, FWD(h, e.d, &one, T_(x), &zero, T_(&yh)));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM, BWD(h, e.d, &one, T_(y), T_(&yh), T_(x), &zero, T_(dx)));
    FX_EXPECT_STATUS(CLDNN_STATUS_NOT_SUPPORTED_DATA_TYPE, FWD(h, e.d, &done, T_(&xd), &dzero, T_(&yd)));
    const cldnnStatus_t MA = CLDNN_STATUS_BAD_PARAM_MISALIGNED, SI = CLDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT;
    FX_EXPECT_STATUS(MA, FWD(h, e.d, &one, x->desc, x->mem, 2, &zero, T_(y)));
    FX_EXPECT_STATUS(MA, FWD(h, e.d, &one, T_(x), &zero, y->desc, y->mem, 6));
    FX_EXPECT_STATUS(MA, BWD(h, e.d, &one, T_(y), dy->desc, dy->mem, 1, T_(x), &zero, T_(dx)));
    FX_EXPECT_STATUS(MA, BWD(h, e.d, &one, T_(y), T_(dy), T_(x), &zero, dx->desc, dx->mem, 3));
    /* the view does not fit past the offset */
    FX_EXPECT_STATUS(SI, FWD(h, e.d, &one, x->desc, x->mem, 64, &zero, T_(y)));
    FX_EXPECT_STATUS(SI, FWD(h, e.d, &one, T_(x), &zero, y->desc, y->mem, 64));
    FX_EXPECT_STATUS(SI, BWD(h, e.d, &one, y->desc, y->mem, 64, T_(dy), T_(x), &zero, T_(dx)));
    FX_EXPECT_STATUS(SI, BWD(h, e.d, &one, T_(y), T_(dy), T_(x), &zero, dx->desc, dx->mem, 64));
    /* x's buffer is too small for dx's view */
    FX_EXPECT_STATUS(SI, BWD(h, e.d, &one, T_(y), T_(dy), x->desc, y->mem, 4, &zero, T_(dx)));
    fx_tensor_free(&yh);
    fx_tensor_free(&xd);
    fx_tensor_free(&yd);
    bad_env_free(&e);
}
