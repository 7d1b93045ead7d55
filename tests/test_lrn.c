/*
** test_lrn.c: cldnnLRN* against the double reference (tests/ref/ref_lrn.c) and against finite
** differences of the library's own forward.
**
**   lrn_forward::<mode>     y = alpha*LRN(x) + beta*y for n 1, 2, 5, 16 (odd, even, the limits)
**                           over a table of layouts: batch 1, one channel, C smaller than n,
**                           odd sizes, NCHW, NHWC, padded 4dEx, 5-d, mixed layouts between the
**                           operands, byte offsets on every buffer; (alpha, beta) (1,0)
**                           (0.5,0.25) (2,-1) in turn. Outputs are poisoned first (NaN when
**                           beta == 0); nothing outside the output's view may change, and the
**                           inputs must be left as they were.
**   lrn_backward::<mode>    dx = alpha*dLRN + beta*dx on the same table, y a real forward output.
**   lrn_gradcheck::<mode>   the library's backward (dy = w) against central differences of
**                           sum(w * y) through the library's forward, n 2 and 5.
**   lrn_solvers::*          each across-channel solver forced (CLDNN_SOLVER=lrn_cross_<solver>), NHWC and NCHW,
**                           the channel-chunked walk (few pixels, many channels), the walk's
**                           load blocking of 1 besides the default 4 (CLDNN_SOLVER_PARAMS=
**                           lrn_cross_walk:b1), and local-memory lines up to their 2048-element
**                           limit.
**   lrn_half::*             HALF storage.
**   lrn_desc::*, lrn_bad::* descriptor defaults, limits and every bad input of the contract.
**
** The window parameters make the normalization term matter (alpha 1..3 against k 1..2), so a
** wrong window edge or tap count fails the comparison. Tolerances: |got - want| <= atol + rtol *
** scale with scale |alpha f| + |beta prior| (backward: the formula on absolute values),
** rtol 2e-5 * max(1, sqrt(taps) / 2), atol 1e-6; HALF rtol 3e-3, atol 1e-4.
*/
#include "fixture.h"
#include "ref_lrn.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

TestSuite(lrn_forward, .fini = fx_fini);
TestSuite(lrn_backward, .fini = fx_fini);
TestSuite(lrn_gradcheck, .fini = fx_fini);
TestSuite(lrn_solvers, .fini = fx_fini);
TestSuite(lrn_half, .fini = fx_fini);
TestSuite(lrn_bf16, .fini = fx_fini);
TestSuite(lrn_desc, .fini = fx_fini);
TestSuite(lrn_bad, .fini = fx_fini);

#define RTOL 2e-5
#define ATOL 1e-6
#define HALF_RTOL 3e-3
#define HALF_ATOL 1e-4
#define BF16_RTOL (HALF_RTOL * 8) /* bfloat16 keeps 3 fewer mantissa bits than half */

/* Window parameters per n: alpha, beta, k (alpha large enough that the sum matters). */
typedef struct {
    unsigned n;
    double alpha, beta, k;
} win;

static const win k_wins[] = {{1, 1.5, 1.0, 1.0}, {2, 2.0, 0.5, 2.0}, {5, 3.0, 0.75, 1.0}, {16, 2.5, 1.25, 1.5}};
#define NWINS (sizeof k_wins / sizeof k_wins[0])

/* Forward: x on a, y on b. Backward: x on a, y on d, dy on c, dx on b. */
typedef struct {
    const char* name;
    int nd;
    int64_t dims[8];
    fx_tdesc a, b, c, d;
} layout;

static const layout k_layouts[] = {
    {"1x1x1x1", 4, {1, 1, 1, 1}, {FX_NCHW, {0}, 1}, {FX_NCHW, {0}, 5}, {FX_NCHW, {0}, 2}, {FX_NCHW, {0}, 0}},
    {"2x3x4x5 C < n", 4, {2, 3, 4, 5}, {FX_NCHW, {0}, 7}, {FX_NCHW, {0}, 3}, {FX_NHWC, {0}, 1}, {FX_NCHW, {0}, 2}},
    {"1x17x7x9", 4, {1, 17, 7, 9}, {FX_NCHW, {0}, 0}, {FX_NCHW, {0}, 2}, {FX_NCHW, {0}, 9}, {FX_NCHW, {0}, 1}},
    {"3x20x5x7 nhwc", 4, {3, 20, 5, 7}, {FX_NHWC, {0}, 3}, {FX_NHWC, {0}, 1}, {FX_NHWC, {0}, 0}, {FX_NHWC, {0}, 2}},
    {"2x9x6x5 nhwc -> nchw", 4, {2, 9, 6, 5}, {FX_NHWC, {0}, 7}, {FX_NCHW, {0}, 7}, {FX_NHWC, {0}, 3}, {FX_NCHW, {0}, 1}},
    {"2x6x5x7 padded 4dEx", 4, {2, 6, 5, 7}, {FX_EX, {300, 48, 9, 1}, 7}, {FX_EX, {299, 1, 59, 8}, 4},
     {FX_EX, {256, 42, 8, 1}, 5}, {FX_NHWC, {0}, 6}},
    {"1x1x11x13 one channel", 4, {1, 1, 11, 13}, {FX_NCHW, {0}, 2}, {FX_NCHW, {0}, 0}, {FX_NCHW, {0}, 1},
     {FX_NCHW, {0}, 3}},
    {"2x70x1x3 chunked", 4, {2, 70, 1, 3}, {FX_NCHW, {0}, 0}, {FX_NCHW, {0}, 1}, {FX_NCHW, {0}, 2}, {FX_NCHW, {0}, 3}},
    {"2x7x3x4x5 5-d gaps", 5, {2, 7, 3, 4, 5}, {FX_ND, {461, 64, 21, 5, 1}, 7}, {FX_ND, {0}, 3},
     {FX_ND, {420, 1, 140, 35, 7}, 1}, {FX_ND, {0}, 0}},
};
#define NLAYOUTS (sizeof k_layouts / sizeof k_layouts[0])

static const char* mode_name(cldnnLRNMode_t m) { return m == CLDNN_LRN_CROSS_CHANNEL ? "cross" : "within"; }

static cldnnLRNDescriptor_t make_desc(const win* w) {
    cldnnLRNDescriptor_t d;
    FX_OK(cldnnCreateLRNDescriptor(&d));
    FX_OK(cldnnSetLRNDescriptor(d, w->n, w->alpha, w->beta, w->k));
    return d;
}

static ref_lrn_params ref_params(cldnnLRNMode_t m, const win* w) {
    ref_lrn_params p = {(int)m, (int)w->n, w->alpha, w->beta, w->k};
    return p;
}

static double rtol_for(cldnnLRNMode_t m, const win* w, cldnnDataType_t dt) {
    if (dt != CLDNN_DATA_FLOAT)
        return dt == CLDNN_DATA_HALF ? HALF_RTOL : BF16_RTOL;
    double taps = m == CLDNN_LRN_CROSS_CHANNEL ? w->n : (double)w->n * w->n;
    return RTOL * fmax(1.0, sqrt(taps) / 2.0);
}

/* ------------------------------------------------------------------------------- forward */

static void forward_once(cldnnLRNMode_t m, const win* w, const layout* l, float alpha, float beta, cldnnDataType_t dt) {
    fx_tensor x, y;
    fx_tensor_from_desc(&x, l->nd, l->dims, &l->a, dt);
    fx_tensor_from_desc(&y, l->nd, l->dims, &l->b, dt);
    fx_tensor_poison_random(&x);
    fx_tensor_fill_uniform(&x, -2, 2);
    fx_poison_out(&y, beta);
    fx_tensor_upload(&x);
    fx_tensor_upload(&y);

    ref_view pv = ref_view_packed(l->nd, l->dims);
    int64_t n = x.count;
    float* xf = fx_tensor_host_floats(&x);
    double* f = malloc((size_t)n * sizeof(double));
    double* want = malloc((size_t)n * sizeof(double));
    double* scale = malloc((size_t)n * sizeof(double));
    FX_ASSERT(f && want && scale, "out of memory");
    ref_lrn_params rp = ref_params(m, w);
    ref_lrn_forward(&rp, &pv, xf, f);
    for (int64_t i = 0; i < n; i++) {
        double prior = beta != 0.0f ? beta * fx_tensor_host(&y, i) : 0.0;
        want[i] = alpha * f[i] + prior;
        scale[i] = fabs(alpha * f[i]) + fabs(prior);
    }
    cldnnLRNDescriptor_t d = make_desc(w);
    FX_OK(cldnnLRNForward(fx_handle(), d, m, &alpha, x.desc, x.mem, x.offset, &beta, y.desc, y.mem, y.offset));
    fx_tensor_download(&y);
    char msg[512];
    double rtol = rtol_for(m, w, dt), atol = dt != CLDNN_DATA_FLOAT ? HALF_ATOL : ATOL;
    int64_t bad = fx_compare(&y, want, scale, atol, rtol, msg, sizeof msg, NULL);
    FX_ASSERT(bad == 0, "forward %s n %u, layout \"%s\", %s, alpha %g beta %g: %lld of %lld wrong; first: %s",
              mode_name(m), w->n, l->name, fx_dtype_name(dt), alpha, beta, (long long)bad,
              (long long)n, msg);
    int64_t gaps = fx_tensor_gaps_changed(&y);
    FX_ASSERT(gaps == 0, "forward %s n %u, layout \"%s\": %lld elements outside y's view changed", mode_name(m), w->n,
              l->name, (long long)gaps);
    fx_expect_untouched(&x, "x", l->name);
    FX_OK(cldnnDestroyLRNDescriptor(d));
    free(xf);
    free(f);
    free(want);
    free(scale);
    fx_tensor_free(&x);
    fx_tensor_free(&y);
}

/* Within-channel LRN takes 4-d tensors only: the 5-d layout is skipped there. */
static int layout_ok(cldnnLRNMode_t m, const layout* l) { return m == CLDNN_LRN_CROSS_CHANNEL || l->nd == 4; }

static void check_forward(cldnnLRNMode_t m) {
    int ab = 0;
    for (size_t wi = 0; wi < NWINS; wi++)
        for (size_t l = 0; l < NLAYOUTS; l++, ab = (ab + 1) % FX_NAB)
            if (layout_ok(m, &k_layouts[l]))
                forward_once(m, &k_wins[wi], &k_layouts[l], fx_alpha_beta[ab][0], fx_alpha_beta[ab][1],
                             CLDNN_DATA_FLOAT);
}

Test(lrn_forward, cross) { check_forward(CLDNN_LRN_CROSS_CHANNEL); }
Test(lrn_forward, within) { check_forward(CLDNN_LRN_WITHIN_CHANNEL); }

/* ------------------------------------------------------------------------------ backward */

static void backward_once(cldnnLRNMode_t m, const win* w, const layout* l, float alpha, float beta,
                          cldnnDataType_t dt) {
    fx_tensor x, y, dy, dx;
    fx_tensor_from_desc(&x, l->nd, l->dims, &l->a, dt);
    fx_tensor_from_desc(&y, l->nd, l->dims, &l->d, dt);
    fx_tensor_from_desc(&dy, l->nd, l->dims, &l->c, dt);
    fx_tensor_from_desc(&dx, l->nd, l->dims, &l->b, dt);
    fx_tensor_poison_random(&x);
    fx_tensor_poison_random(&y);
    fx_tensor_poison_random(&dy);
    fx_poison_out(&dx, beta);
    fx_tensor_fill_uniform(&x, -2, 2);
    fx_tensor_fill_uniform(&dy, -1, 1);

    ref_view pv = ref_view_packed(l->nd, l->dims);
    int64_t n = x.count;
    ref_lrn_params rp = ref_params(m, w);
    float* xf = fx_tensor_host_floats(&x);
    double* f = malloc((size_t)n * sizeof(double));
    double* want = malloc((size_t)n * sizeof(double));
    double* scale = malloc((size_t)n * sizeof(double));
    FX_ASSERT(f && want && scale, "out of memory");
    ref_lrn_forward(&rp, &pv, xf, f);
    for (int64_t i = 0; i < n; i++)
        fx_tensor_set(&y, i, f[i]);
    float* yf = fx_tensor_host_floats(&y);
    float* dyf = fx_tensor_host_floats(&dy);
    ref_lrn_backward(&rp, &pv, xf, yf, dyf, f);
    ref_lrn_backward_abs(&rp, &pv, xf, yf, dyf, scale);
    for (int64_t i = 0; i < n; i++) {
        double prior = beta != 0.0f ? beta * fx_tensor_host(&dx, i) : 0.0;
        want[i] = alpha * f[i] + prior;
        scale[i] = fabs(alpha) * scale[i] + fabs(prior);
    }
    fx_tensor_upload(&x);
    fx_tensor_upload(&y);
    fx_tensor_upload(&dy);
    fx_tensor_upload(&dx);
    cldnnLRNDescriptor_t d = make_desc(w);
    FX_OK(cldnnLRNBackward(fx_handle(), d, m, &alpha, y.desc, y.mem, y.offset, dy.desc, dy.mem, dy.offset, x.desc,
                           x.mem, x.offset, &beta, dx.desc, dx.mem, dx.offset));
    fx_tensor_download(&dx);
    char msg[512];
    double rtol = rtol_for(m, w, dt), atol = dt != CLDNN_DATA_FLOAT ? HALF_ATOL : ATOL;
    int64_t bad = fx_compare(&dx, want, scale, atol, rtol, msg, sizeof msg, NULL);
    FX_ASSERT(bad == 0, "backward %s n %u, layout \"%s\", %s, alpha %g beta %g: %lld of %lld wrong; first: %s",
              mode_name(m), w->n, l->name, fx_dtype_name(dt), alpha, beta, (long long)bad,
              (long long)n, msg);
    int64_t gaps = fx_tensor_gaps_changed(&dx);
    FX_ASSERT(gaps == 0, "backward %s n %u, layout \"%s\": %lld elements outside dx's view changed", mode_name(m),
              w->n, l->name, (long long)gaps);
    fx_expect_untouched(&x, "x", l->name);
    fx_expect_untouched(&y, "y", l->name);
    fx_expect_untouched(&dy, "dy", l->name);
    FX_OK(cldnnDestroyLRNDescriptor(d));
    free(xf);
    free(yf);
    free(dyf);
    free(f);
    free(want);
    free(scale);
    fx_tensor_free(&x);
    fx_tensor_free(&y);
    fx_tensor_free(&dy);
    fx_tensor_free(&dx);
}

static void check_backward(cldnnLRNMode_t m) {
    int ab = 0;
    for (size_t wi = 0; wi < NWINS; wi++)
        for (size_t l = 0; l < NLAYOUTS; l++, ab = (ab + 1) % FX_NAB)
            if (layout_ok(m, &k_layouts[l]))
                backward_once(m, &k_wins[wi], &k_layouts[l], fx_alpha_beta[ab][0], fx_alpha_beta[ab][1],
                              CLDNN_DATA_FLOAT);
}

Test(lrn_backward, cross) { check_backward(CLDNN_LRN_CROSS_CHANNEL); }
Test(lrn_backward, within) { check_backward(CLDNN_LRN_WITHIN_CHANNEL); }

/* ------------------------------------------------------------------------- gradient check */

/* loss(x) = sum(w * LRN(x)) over one 1xCxHxW image; sample 0 of a batch of 1 + 2K images is the
** base x, samples 2k+1 and 2k+2 move element j_k by +h and -h (LRN never crosses n, so one
** forward gives every perturbed loss). The backward at the base with dy = w and the library's
** own y must match (loss+ - loss-) / ((x+h) - (x-h)). */
static void check_gradient(cldnnLRNMode_t m, const win* wn) {
    enum { K = 10, C = 7, H = 5, W = 4, IMG = C * H * W, NB = 1 + 2 * K };
    const int64_t dims[4] = {NB, C, H, W};
    const double h = 1e-2;
    fx_tensor x, y, dy, dx;
    fx_tensor_nd(&x, CLDNN_DATA_FLOAT, 4, dims, NULL, 4);
    fx_tensor_nd(&y, CLDNN_DATA_FLOAT, 4, dims, NULL, 8);
    fx_tensor_nd(&dy, CLDNN_DATA_FLOAT, 4, dims, NULL, 12);
    fx_tensor_nd(&dx, CLDNN_DATA_FLOAT, 4, dims, NULL, 16);
    fx_tensor_poison_nan(&x);
    fx_tensor_poison_nan(&y);
    fx_tensor_poison_nan(&dy);
    fx_tensor_poison_nan(&dx);
    float base[IMG], w[IMG];
    int j[K];
    double hh[K];
    for (int e = 0; e < IMG; e++) {
        base[e] = fx_uniform(-2.0, 2.0);
        w[e] = fx_uniform(-1.0, 1.0);
    }
    for (int s = 0; s < NB; s++)
        for (int e = 0; e < IMG; e++) {
            fx_tensor_set(&x, (int64_t)s * IMG + e, base[e]);
            fx_tensor_set(&dy, (int64_t)s * IMG + e, w[e]);
        }
    for (int k = 0; k < K; k++) {
        j[k] = (int)(ref_rng_next(fx_rng()) % IMG);
        float p = (float)(base[j[k]] + h), q = (float)(base[j[k]] - h);
        hh[k] = (double)p - (double)q;
        fx_tensor_set(&x, (int64_t)(2 * k + 1) * IMG + j[k], p);
        fx_tensor_set(&x, (int64_t)(2 * k + 2) * IMG + j[k], q);
    }
    fx_tensor_upload(&x);
    fx_tensor_upload(&y);
    fx_tensor_upload(&dy);
    fx_tensor_upload(&dx);
    float one = 1.0f, zero = 0.0f;
    cldnnHandle_t hd = fx_handle();
    cldnnLRNDescriptor_t d = make_desc(wn);
    FX_OK(cldnnLRNForward(hd, d, m, &one, x.desc, x.mem, x.offset, &zero, y.desc, y.mem, y.offset));
    FX_OK(cldnnLRNBackward(hd, d, m, &one, y.desc, y.mem, y.offset, dy.desc, dy.mem, dy.offset, x.desc, x.mem,
                           x.offset, &zero, dx.desc, dx.mem, dx.offset));
    fx_tensor_download(&y);
    fx_tensor_download(&dx);
    for (int k = 0; k < K; k++) {
        double lp = 0, lm = 0;
        for (int e = 0; e < IMG; e++) {
            lp += w[e] * fx_tensor_got(&y, (int64_t)(2 * k + 1) * IMG + e);
            lm += w[e] * fx_tensor_got(&y, (int64_t)(2 * k + 2) * IMG + e);
        }
        double fd = (lp - lm) / hh[k], gr = fx_tensor_got(&dx, j[k]);
        double tol = 2e-3 + 1e-2 * fabs(fd), err = fabs(gr - fd);
        FX_ASSERT(err <= tol,
                  "gradcheck %s n %u, 1x%dx%dx%d, element %d (x = %.9g): backward %.9g, finite difference %.9g",
                  mode_name(m), wn->n, C, H, W, j[k], base[j[k]], gr, fd);
    }
    FX_OK(cldnnDestroyLRNDescriptor(d));
    fx_tensor_free(&x);
    fx_tensor_free(&y);
    fx_tensor_free(&dy);
    fx_tensor_free(&dx);
}

Test(lrn_gradcheck, cross) {
    check_gradient(CLDNN_LRN_CROSS_CHANNEL, &k_wins[1]);
    check_gradient(CLDNN_LRN_CROSS_CHANNEL, &k_wins[2]);
}
Test(lrn_gradcheck, within) {
    check_gradient(CLDNN_LRN_WITHIN_CHANNEL, &k_wins[1]);
    check_gradient(CLDNN_LRN_WITHIN_CHANNEL, &k_wins[2]);
}

/* ------------------------------------------------------------------------------ solvers */

/* Layouts 1 (C < n), 3 (NHWC), 4 (mixed), 5 (padded), 7 (chunked) with n 2, 5 and 16. */
static void check_forced(const char* solver) {
    char only[64];
    snprintf(only, sizeof only, "lrn_cross_%s,lrn_within", solver);
    setenv("CLDNN_SOLVER", only, 1);
    const size_t ls[] = {1, 3, 4, 5, 7};
    int ab = 0;
    for (size_t wi = 1; wi < NWINS; wi++)
        for (size_t i = 0; i < sizeof ls / sizeof ls[0]; i++, ab = (ab + 1) % FX_NAB) {
            forward_once(CLDNN_LRN_CROSS_CHANNEL, &k_wins[wi], &k_layouts[ls[i]], fx_alpha_beta[ab][0],
                         fx_alpha_beta[ab][1], CLDNN_DATA_FLOAT);
            backward_once(CLDNN_LRN_CROSS_CHANNEL, &k_wins[wi], &k_layouts[ls[i]], fx_alpha_beta[ab][0],
                          fx_alpha_beta[ab][1], CLDNN_DATA_FLOAT);
        }
    unsetenv("CLDNN_SOLVER");
}

Test(lrn_solvers, direct) { check_forced("direct"); }
Test(lrn_solvers, lines) { check_forced("lines"); }
Test(lrn_solvers, walk) { check_forced("walk"); }

/* The walk with one channel per load block (the default issues 4 at once): the block loop and
** the remainder loop split differently. */
Test(lrn_solvers, walk_block) {
    setenv("CLDNN_SOLVER_PARAMS", "lrn_cross_walk:b1", 1);
    const size_t ls[] = {1, 5, 7};
    for (size_t wi = 0; wi < NWINS; wi++)
        for (size_t i = 0; i < sizeof ls / sizeof ls[0]; i++) {
            forward_once(CLDNN_LRN_CROSS_CHANNEL, &k_wins[wi], &k_layouts[ls[i]], fx_alpha_beta[i][0],
                         fx_alpha_beta[i][1], CLDNN_DATA_FLOAT);
            backward_once(CLDNN_LRN_CROSS_CHANNEL, &k_wins[wi], &k_layouts[ls[i]], fx_alpha_beta[i][0],
                          fx_alpha_beta[i][1], CLDNN_DATA_FLOAT);
        }
    unsetenv("CLDNN_SOLVER_PARAMS");
}

/* Many channels and one pixel: the walk splits C into chunks, whose halos must be exact. */
Test(lrn_solvers, walk_chunks) {
    static const layout l = {"1x203x1x1", 4, {1, 203, 1, 1}, {FX_NCHW, {0}, 1}, {FX_NCHW, {0}, 2},
                             {FX_NCHW, {0}, 3}, {FX_NCHW, {0}, 4}};
    setenv("CLDNN_SOLVER", "lrn_cross_walk,lrn_within", 1);
    for (size_t wi = 0; wi < NWINS; wi++) {
        forward_once(CLDNN_LRN_CROSS_CHANNEL, &k_wins[wi], &l, 1.0f, 0.0f, CLDNN_DATA_FLOAT);
        backward_once(CLDNN_LRN_CROSS_CHANNEL, &k_wins[wi], &l, 0.5f, 0.25f, CLDNN_DATA_FLOAT);
    }
    unsetenv("CLDNN_SOLVER");
}

/* Long lines through local memory: several work-items' elements per line, and one line of
** exactly LINES_MAX (2048) elements. */
Test(lrn_solvers, lines_long) {
    static const layout ls[] = {
        {"3x700x1x2 nhwc", 4, {3, 700, 1, 2}, {FX_NHWC, {0}, 1}, {FX_NHWC, {0}, 2}, {FX_NHWC, {0}, 3}, {FX_NHWC, {0}, 0}},
        {"1x2048x1x1", 4, {1, 2048, 1, 1}, {FX_NCHW, {0}, 0}, {FX_NCHW, {0}, 1}, {FX_NCHW, {0}, 2}, {FX_NCHW, {0}, 3}},
    };
    setenv("CLDNN_SOLVER", "lrn_cross_lines,lrn_within", 1);
    for (size_t wi = 0; wi < NWINS; wi++)
        for (size_t i = 0; i < 2; i++) {
            forward_once(CLDNN_LRN_CROSS_CHANNEL, &k_wins[wi], &ls[i], fx_alpha_beta[i][0], fx_alpha_beta[i][1],
                         CLDNN_DATA_FLOAT);
            backward_once(CLDNN_LRN_CROSS_CHANNEL, &k_wins[wi], &ls[i], fx_alpha_beta[i + 1][0],
                          fx_alpha_beta[i + 1][1], CLDNN_DATA_FLOAT);
        }
    unsetenv("CLDNN_SOLVER");
}

/* ------------------------------------------------------------------------------ half */

Test(lrn_half, both_modes) {
    const size_t ls[] = {2, 3, 5};
    for (size_t i = 0; i < sizeof ls / sizeof ls[0]; i++)
        for (int m = 0; m < 2; m++) {
            forward_once((cldnnLRNMode_t)m, &k_wins[2], &k_layouts[ls[i]], fx_alpha_beta[i][0], fx_alpha_beta[i][1],
                         CLDNN_DATA_HALF);
            backward_once((cldnnLRNMode_t)m, &k_wins[2], &k_layouts[ls[i]], fx_alpha_beta[i][0],
                          fx_alpha_beta[i][1], CLDNN_DATA_HALF);
        }
    /* the GPUs' NHWC solver, forced */
    setenv("CLDNN_SOLVER", "lrn_cross_lines,lrn_within", 1);
    forward_once(CLDNN_LRN_CROSS_CHANNEL, &k_wins[2], &k_layouts[3], 0.5f, 0.25f, CLDNN_DATA_HALF);
    backward_once(CLDNN_LRN_CROSS_CHANNEL, &k_wins[2], &k_layouts[3], 1.0f, 0.0f, CLDNN_DATA_HALF);
    unsetenv("CLDNN_SOLVER");
}

/* BFLOAT16 storage: both modes, both directions, the GPUs' NHWC solver forced once. */
Test(lrn_bf16, both_modes) {
    for (int m = 0; m < 2; m++) {
        forward_once((cldnnLRNMode_t)m, &k_wins[2], &k_layouts[2], 0.5f, 0.25f, CLDNN_DATA_BFLOAT16);
        backward_once((cldnnLRNMode_t)m, &k_wins[2], &k_layouts[5], 1.0f, 0.0f, CLDNN_DATA_BFLOAT16);
    }
    setenv("CLDNN_SOLVER", "lrn_cross_lines,lrn_within", 1);
    forward_once(CLDNN_LRN_CROSS_CHANNEL, &k_wins[2], &k_layouts[3], 1.0f, 0.0f, CLDNN_DATA_BFLOAT16);
    backward_once(CLDNN_LRN_CROSS_CHANNEL, &k_wins[2], &k_layouts[3], 0.5f, 0.25f, CLDNN_DATA_BFLOAT16);
    unsetenv("CLDNN_SOLVER");
}

/* ------------------------------------------------------------------------- descriptors */

Test(lrn_desc, defaults_set_get) {
    cldnnLRNDescriptor_t d;
    FX_OK(cldnnCreateLRNDescriptor(&d));
    unsigned n;
    double a, b, k;
    FX_OK(cldnnGetLRNDescriptor(d, &n, &a, &b, &k));
    FX_ASSERT(n == 5 && a == 1e-4 && b == 0.75 && k == 2.0, "defaults %u %g %g %g, want 5 1e-4 0.75 2", n, a, b, k);
    FX_OK(cldnnSetLRNDescriptor(d, 16, -0.5, CLDNN_LRN_MIN_BETA, CLDNN_LRN_MIN_K));
    FX_OK(cldnnGetLRNDescriptor(d, &n, &a, &b, &k));
    FX_ASSERT(n == 16 && a == -0.5 && b == CLDNN_LRN_MIN_BETA && k == CLDNN_LRN_MIN_K, "got %u %g %g %g", n, a, b, k);
    FX_OK(cldnnSetLRNDescriptor(d, 1, 3.0, 2.0, 1.0));
    FX_OK(cldnnGetLRNDescriptor(d, &n, &a, &b, &k));
    FX_ASSERT(n == 1 && a == 3.0 && b == 2.0 && k == 1.0, "got %u %g %g %g", n, a, b, k);
    FX_OK(cldnnDestroyLRNDescriptor(d));
    FX_OK(cldnnDestroyLRNDescriptor(NULL));
}

Test(lrn_desc, limits) {
    cldnnLRNDescriptor_t d;
    FX_OK(cldnnCreateLRNDescriptor(&d));
    const cldnnStatus_t BP = CLDNN_STATUS_BAD_PARAM;
    FX_EXPECT_STATUS(BP, cldnnSetLRNDescriptor(d, 0, 1e-4, 0.75, 2.0));
    FX_EXPECT_STATUS(BP, cldnnSetLRNDescriptor(d, 17, 1e-4, 0.75, 2.0));
    FX_EXPECT_STATUS(BP, cldnnSetLRNDescriptor(d, 5, 1e-4, 0.0099, 2.0));
    FX_EXPECT_STATUS(BP, cldnnSetLRNDescriptor(d, 5, 1e-4, -1.0, 2.0));
    FX_EXPECT_STATUS(BP, cldnnSetLRNDescriptor(d, 5, 1e-4, 0.75, 0.99e-5));
    FX_EXPECT_STATUS(BP, cldnnSetLRNDescriptor(d, 5, 1e-4, 0.75, 0.0));
    FX_EXPECT_STATUS(BP, cldnnSetLRNDescriptor(d, 5, NAN, 0.75, 2.0));
    FX_EXPECT_STATUS(BP, cldnnSetLRNDescriptor(d, 5, 1e-4, NAN, 2.0));
    FX_EXPECT_STATUS(BP, cldnnSetLRNDescriptor(d, 5, 1e-4, 0.75, INFINITY));
    /* a rejected Set leaves the descriptor as it was */
    unsigned n;
    double a, b, k;
    FX_OK(cldnnGetLRNDescriptor(d, &n, &a, &b, &k));
    FX_ASSERT(n == 5 && a == 1e-4 && b == 0.75 && k == 2.0, "after rejected sets: %u %g %g %g", n, a, b, k);
    const cldnnStatus_t NP = CLDNN_STATUS_BAD_PARAM_NULL_POINTER;
    FX_EXPECT_STATUS(NP, cldnnCreateLRNDescriptor(NULL));
    FX_EXPECT_STATUS(NP, cldnnSetLRNDescriptor(NULL, 5, 1e-4, 0.75, 2.0));
    FX_EXPECT_STATUS(NP, cldnnGetLRNDescriptor(NULL, &n, &a, &b, &k));
    FX_EXPECT_STATUS(NP, cldnnGetLRNDescriptor(d, NULL, &a, &b, &k));
    FX_EXPECT_STATUS(NP, cldnnGetLRNDescriptor(d, &n, &a, &b, NULL));
    FX_OK(cldnnDestroyLRNDescriptor(d));
}

/* ---------------------------------------------------------------------------- bad inputs */

typedef struct {
    fx_tensor x, y, dy, dx;
    cldnnLRNDescriptor_t d;
} bad_env;

static void bad_env_init(bad_env* e) {
    fx_tensor* ts[4] = {&e->x, &e->y, &e->dy, &e->dx};
    for (int k = 0; k < 4; k++) {
        fx_tensor_4d(ts[k], CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 2, 3, 4, 5, 4);
        fx_tensor_poison_random(ts[k]);
        fx_tensor_upload(ts[k]);
    }
    FX_OK(cldnnCreateLRNDescriptor(&e->d));
}

static void bad_env_free(bad_env* e) {
    fx_expect_untouched(&e->y, "y", "rejected call");
    fx_expect_untouched(&e->dx, "dx", "rejected call");
    fx_tensor_free(&e->x);
    fx_tensor_free(&e->y);
    fx_tensor_free(&e->dy);
    fx_tensor_free(&e->dx);
    FX_OK(cldnnDestroyLRNDescriptor(e->d));
}

#define FWD(...) cldnnLRNForward(__VA_ARGS__)
#define BWD(...) cldnnLRNBackward(__VA_ARGS__)
#define CROSS CLDNN_LRN_CROSS_CHANNEL
#define T(t) (t)->desc, (t)->mem, 4

Test(lrn_bad, null_pointers) {
    bad_env e;
    bad_env_init(&e);
    cldnnHandle_t h = fx_handle();
    float one = 1.0f, zero = 0.0f;
    fx_tensor *x = &e.x, *y = &e.y, *dy = &e.dy, *dx = &e.dx;
    const cldnnStatus_t NP = CLDNN_STATUS_BAD_PARAM_NULL_POINTER;
    FX_EXPECT_STATUS(NP, FWD(NULL, e.d, CROSS, &one, T(x), &zero, T(y)));
    FX_EXPECT_STATUS(NP, FWD(h, NULL, CROSS, &one, T(x), &zero, T(y)));
    FX_EXPECT_STATUS(NP, FWD(h, e.d, CROSS, NULL, T(x), &zero, T(y)));
    FX_EXPECT_STATUS(NP, FWD(h, e.d, CROSS, &one, NULL, x->mem, 4, &zero, T(y)));
    FX_EXPECT_STATUS(NP, FWD(h, e.d, CROSS, &one, x->desc, NULL, 4, &zero, T(y)));
    FX_EXPECT_STATUS(NP, FWD(h, e.d, CROSS, &one, T(x), NULL, T(y)));
    FX_EXPECT_STATUS(NP, FWD(h, e.d, CROSS, &one, T(x), &zero, NULL, y->mem, 4));
    FX_EXPECT_STATUS(NP, FWD(h, e.d, CROSS, &one, T(x), &zero, y->desc, NULL, 4));
    FX_EXPECT_STATUS(NP, BWD(NULL, e.d, CROSS, &one, T(y), T(dy), T(x), &zero, T(dx)));
    FX_EXPECT_STATUS(NP, BWD(h, NULL, CROSS, &one, T(y), T(dy), T(x), &zero, T(dx)));
    FX_EXPECT_STATUS(NP, BWD(h, e.d, CROSS, NULL, T(y), T(dy), T(x), &zero, T(dx)));
    FX_EXPECT_STATUS(NP, BWD(h, e.d, CROSS, &one, NULL, y->mem, 4, T(dy), T(x), &zero, T(dx)));
    FX_EXPECT_STATUS(NP, BWD(h, e.d, CROSS, &one, y->desc, NULL, 4, T(dy), T(x), &zero, T(dx)));
    FX_EXPECT_STATUS(NP, BWD(h, e.d, CROSS, &one, T(y), NULL, dy->mem, 4, T(x), &zero, T(dx)));
    FX_EXPECT_STATUS(NP, BWD(h, e.d, CROSS, &one, T(y), dy->desc, NULL, 4, T(x), &zero, T(dx)));
    FX_EXPECT_STATUS(NP, BWD(h, e.d, CROSS, &one, T(y), T(dy), NULL, x->mem, 4, &zero, T(dx)));
    FX_EXPECT_STATUS(NP, BWD(h, e.d, CROSS, &one, T(y), T(dy), x->desc, NULL, 4, &zero, T(dx)));
    FX_EXPECT_STATUS(NP, BWD(h, e.d, CROSS, &one, T(y), T(dy), T(x), NULL, T(dx)));
    FX_EXPECT_STATUS(NP, BWD(h, e.d, CROSS, &one, T(y), T(dy), T(x), &zero, NULL, dx->mem, 4));
    FX_EXPECT_STATUS(NP, BWD(h, e.d, CROSS, &one, T(y), T(dy), T(x), &zero, dx->desc, NULL, 4));
    bad_env_free(&e);
}

Test(lrn_bad, mode_out_of_range) {
    bad_env e;
    bad_env_init(&e);
    cldnnHandle_t h = fx_handle();
    float one = 1.0f, zero = 0.0f;
    fx_tensor *x = &e.x, *y = &e.y, *dy = &e.dy, *dx = &e.dx;
    const int modes[] = {2, -1, 100};
    for (int k = 0; k < 3; k++) {
        cldnnLRNMode_t m = (cldnnLRNMode_t)modes[k];
        FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, FWD(h, e.d, m, &one, T(x), &zero, T(y)));
        FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, BWD(h, e.d, m, &one, T(y), T(dy), T(x), &zero, T(dx)));
    }
    bad_env_free(&e);
}

Test(lrn_bad, mismatched_descriptors) {
    bad_env e;
    bad_env_init(&e);
    cldnnHandle_t h = fx_handle();
    float one = 1.0f, zero = 0.0f;
    fx_tensor w, hf, nd5;
    fx_tensor_4d(&w, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 2, 3, 4, 6, 4);
    fx_tensor_4d(&hf, CLDNN_TENSOR_NCHW, CLDNN_DATA_HALF, 2, 3, 4, 5, 4);
    fx_tensor_nd(&nd5, CLDNN_DATA_FLOAT, 5, (const int64_t[]){2, 3, 4, 5, 1}, NULL, 4);
    fx_tensor *x = &e.x, *y = &e.y, *dy = &e.dy, *dx = &e.dx;
    const cldnnStatus_t SM = CLDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, BP = CLDNN_STATUS_BAD_PARAM;
    FX_EXPECT_STATUS(SM, FWD(h, e.d, CROSS, &one, T(x), &zero, T(&w)));
    FX_EXPECT_STATUS(SM, FWD(h, e.d, CROSS, &one, T(&w), &zero, T(y)));
    FX_EXPECT_STATUS(SM, FWD(h, e.d, CROSS, &one, T(x), &zero, T(&nd5)));
    FX_EXPECT_STATUS(SM, BWD(h, e.d, CROSS, &one, T(&w), T(dy), T(x), &zero, T(dx)));
    FX_EXPECT_STATUS(SM, BWD(h, e.d, CROSS, &one, T(y), T(&w), T(x), &zero, T(dx)));
    FX_EXPECT_STATUS(SM, BWD(h, e.d, CROSS, &one, T(y), T(dy), T(&w), &zero, T(dx)));
    FX_EXPECT_STATUS(SM, BWD(h, e.d, CROSS, &one, T(y), T(dy), T(x), &zero, T(&w)));
    FX_EXPECT_STATUS(BP, FWD(h, e.d, CROSS, &one, T(x), &zero, T(&hf)));
    FX_EXPECT_STATUS(BP, FWD(h, e.d, CROSS, &one, T(&hf), &zero, T(y)));
    FX_EXPECT_STATUS(BP, BWD(h, e.d, CROSS, &one, T(&hf), T(dy), T(x), &zero, T(dx)));
    FX_EXPECT_STATUS(BP, BWD(h, e.d, CROSS, &one, T(y), T(dy), T(&hf), &zero, T(dx)));
    fx_tensor_free(&w);
    fx_tensor_free(&hf);
    fx_tensor_free(&nd5);
    bad_env_free(&e);
}

Test(lrn_bad, unset_descriptor_and_types) {
    bad_env e;
    bad_env_init(&e);
    cldnnHandle_t h = fx_handle();
    float one = 1.0f, zero = 0.0f;
    fx_tensor *x = &e.x, *y = &e.y, *dy = &e.dy, *dx = &e.dx;
    cldnnTensorDescriptor_t unset;
    FX_OK(cldnnCreateTensorDescriptor(&unset));
    const cldnnStatus_t BP = CLDNN_STATUS_BAD_PARAM;
    FX_EXPECT_STATUS(BP, FWD(h, e.d, CROSS, &one, unset, x->mem, 4, &zero, T(y)));
    FX_EXPECT_STATUS(BP, FWD(h, e.d, CROSS, &one, T(x), &zero, unset, y->mem, 4));
    FX_EXPECT_STATUS(BP, BWD(h, e.d, CROSS, &one, T(y), unset, dy->mem, 4, T(x), &zero, T(dx)));
    FX_EXPECT_STATUS(BP, BWD(h, e.d, CROSS, &one, T(y), T(dy), T(x), &zero, unset, dx->mem, 4));
    FX_OK(cldnnDestroyTensorDescriptor(unset));
    fx_tensor i1, i2;
    fx_tensor_4d(&i1, CLDNN_TENSOR_NCHW, CLDNN_DATA_INT8, 2, 3, 4, 5, 4);
    fx_tensor_4d(&i2, CLDNN_TENSOR_NCHW, CLDNN_DATA_INT8, 2, 3, 4, 5, 4);
    FX_EXPECT_STATUS(CLDNN_STATUS_NOT_SUPPORTED_DATA_TYPE, FWD(h, e.d, CROSS, &one, T(&i1), &zero, T(&i2)));
    fx_tensor_free(&i1);
    fx_tensor_free(&i2);
    bad_env_free(&e);
}

/* Fewer than 3 dims: BAD_PARAM; within a channel on 5-d: NOT_SUPPORTED_SHAPE. */
Test(lrn_bad, ranks) {
    cldnnHandle_t h = fx_handle();
    float one = 1.0f, zero = 0.0f;
    cldnnLRNDescriptor_t d;
    FX_OK(cldnnCreateLRNDescriptor(&d));
    fx_tensor a, b, c5, d5;
    fx_tensor_nd(&a, CLDNN_DATA_FLOAT, 2, (const int64_t[]){6, 20}, NULL, 4);
    fx_tensor_nd(&b, CLDNN_DATA_FLOAT, 2, (const int64_t[]){6, 20}, NULL, 4);
    fx_tensor_nd(&c5, CLDNN_DATA_FLOAT, 5, (const int64_t[]){2, 3, 2, 4, 5}, NULL, 4);
    fx_tensor_nd(&d5, CLDNN_DATA_FLOAT, 5, (const int64_t[]){2, 3, 2, 4, 5}, NULL, 4);
    fx_tensor_poison_random(&b);
    fx_tensor_upload(&b);
    fx_tensor_poison_random(&d5);
    fx_tensor_upload(&d5);
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM, FWD(h, d, CROSS, &one, T(&a), &zero, T(&b)));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM, BWD(h, d, CROSS, &one, T(&a), T(&a), T(&a), &zero, T(&b)));
    FX_EXPECT_STATUS(CLDNN_STATUS_NOT_SUPPORTED_SHAPE,
                     FWD(h, d, CLDNN_LRN_WITHIN_CHANNEL, &one, T(&c5), &zero, T(&d5)));
    FX_EXPECT_STATUS(CLDNN_STATUS_NOT_SUPPORTED_SHAPE,
                     BWD(h, d, CLDNN_LRN_WITHIN_CHANNEL, &one, T(&c5), T(&c5), T(&c5), &zero, T(&d5)));
    fx_expect_untouched(&b, "y", "rejected rank");
    fx_expect_untouched(&d5, "y", "rejected rank");
    fx_tensor_free(&a);
    fx_tensor_free(&b);
    fx_tensor_free(&c5);
    fx_tensor_free(&d5);
    FX_OK(cldnnDestroyLRNDescriptor(d));
}

Test(lrn_bad, offsets_and_sizes) {
    bad_env e;
    bad_env_init(&e);
    cldnnHandle_t h = fx_handle();
    float one = 1.0f, zero = 0.0f;
    fx_tensor *x = &e.x, *y = &e.y, *dy = &e.dy, *dx = &e.dx;
    const cldnnStatus_t MA = CLDNN_STATUS_BAD_PARAM_MISALIGNED, SZ = CLDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT;
    FX_EXPECT_STATUS(MA, FWD(h, e.d, CROSS, &one, x->desc, x->mem, 2, &zero, T(y)));
    FX_EXPECT_STATUS(MA, FWD(h, e.d, CROSS, &one, T(x), &zero, y->desc, y->mem, 3));
    FX_EXPECT_STATUS(MA, BWD(h, e.d, CROSS, &one, y->desc, y->mem, 1, T(dy), T(x), &zero, T(dx)));
    FX_EXPECT_STATUS(MA, BWD(h, e.d, CROSS, &one, T(y), dy->desc, dy->mem, 6, T(x), &zero, T(dx)));
    FX_EXPECT_STATUS(MA, BWD(h, e.d, CROSS, &one, T(y), T(dy), x->desc, x->mem, 7, &zero, T(dx)));
    FX_EXPECT_STATUS(MA, BWD(h, e.d, CROSS, &one, T(y), T(dy), T(x), &zero, dx->desc, dx->mem, 5));
    /* the view past the end of the buffer */
    size_t past = x->nbuf * x->elem;
    FX_EXPECT_STATUS(SZ, FWD(h, e.d, CROSS, &one, x->desc, x->mem, past, &zero, T(y)));
    FX_EXPECT_STATUS(SZ, FWD(h, e.d, CROSS, &one, T(x), &zero, y->desc, y->mem, past));
    FX_EXPECT_STATUS(SZ, BWD(h, e.d, CROSS, &one, T(y), T(dy), T(x), &zero, dx->desc, dx->mem, past));
    FX_EXPECT_STATUS(SZ, BWD(h, e.d, CROSS, &one, T(y), T(dy), x->desc, x->mem, past, &zero, T(dx)));
    bad_env_free(&e);
}

/* LRN has no in-place form: an output sharing bytes with an input is BAD_PARAM (disjoint views
** of one buffer are fine). */
Test(lrn_bad, in_place) {
    bad_env e;
    bad_env_init(&e);
    cldnnHandle_t h = fx_handle();
    float one = 1.0f, zero = 0.0f;
    fx_tensor *x = &e.x, *y = &e.y, *dy = &e.dy;
    const cldnnStatus_t BP = CLDNN_STATUS_BAD_PARAM;
    FX_EXPECT_STATUS(BP, FWD(h, e.d, CROSS, &one, T(x), &zero, x->desc, x->mem, 8));
    FX_EXPECT_STATUS(BP, BWD(h, e.d, CROSS, &one, T(y), T(dy), T(x), &zero, T(y)));
    FX_EXPECT_STATUS(BP, BWD(h, e.d, CROSS, &one, T(y), T(dy), T(x), &zero, T(dy)));
    FX_EXPECT_STATUS(BP, BWD(h, e.d, CROSS, &one, T(y), T(dy), T(x), &zero, T(x)));
    fx_expect_untouched(x, "x", "rejected in-place call");
    fx_expect_untouched(dy, "dy", "rejected in-place call");
    /* two halves of one buffer: y in the upper half of x's buffer is fine */
    int64_t dims[4] = {2, 3, 4, 5};
    fx_tensor big;
    fx_tensor_nd(&big, CLDNN_DATA_FLOAT, 4, (const int64_t[]){4, 3, 4, 5}, NULL, 0);
    fx_tensor_poison_random(&big);
    fx_tensor_upload(&big);
    cldnnTensorDescriptor_t half_desc;
    FX_OK(cldnnCreateTensorDescriptor(&half_desc));
    FX_OK(cldnnSetTensorNdDescriptor(half_desc, CLDNN_DATA_FLOAT, 4, dims, (const int64_t[]){60, 20, 5, 1}));
    FX_OK(FWD(h, e.d, CROSS, &one, half_desc, big.mem, 0, &zero, half_desc, big.mem, 120 * sizeof(float)));
    FX_OK(cldnnDestroyTensorDescriptor(half_desc));
    fx_tensor_free(&big);
    bad_env_free(&e);
}
