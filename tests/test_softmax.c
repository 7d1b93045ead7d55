/*
** test_softmax.c: cldnnSoftmaxForward / cldnnSoftmaxBackward against the double reference
** (tests/ref) and against finite differences of the library's own forward.
**
** Per algorithm (FAST, ACCURATE, LOG) and mode (INSTANCE, CHANNEL):
**   sm_forward::<algo>_<mode>    y = alpha*softmax(x) + beta*y over a table of layouts: 1x1x1x1,
**                                2x3x4x5, 3x17x7x9, 2x1000x1x1, 1x5x33x31, 4x64x1x1, 1x512x16x16,
**                                NHWC <-> NCHW, padded 4dEx (x, y and dy all strided differently),
**                                2x65x3x5 NHWC -> padded (sets just past 64 elements with strided
**                                rows), 2-d N x C (y stored column-major), 3-d, 5-d and 8-d Nd; byte
**                                offsets on every buffer; alpha/beta (1,0) (0.5,0.25) (2,-1); in
**                                place (x == y). Outputs are poisoned first (NaN when beta == 0,
**                                random otherwise); every element outside the view must stay
**                                unchanged and x must not be modified.
**   sm_backward::<algo>_<mode>   dx = alpha*dsoftmax(y, dy) + beta*dx over the same layouts, y a
**                                real forward output (probabilities, or log-probabilities for LOG).
**   sm_gradcheck::<algo>_<mode>  central differences of loss = sum(w * y) through the library's
**                                forward vs its backward with dy = w.
** Plus: large inputs (offsets +-100, +-1000, and a +-300 spread) for ACCURATE and LOG, which must
** stay finite and match the shifted reference; FAST with moderate offsets; softmax sets summing
** to 1; HALF storage; and every bad input the contract names.
** sm_solvers: each solver forced through CLDNN_SOLVER=softmax_<solver> (no other applies then) over
** layouts made for softmax_tile (CHANNEL rows adjacent in memory: partial last tiles, L not a multiple of
** the lanes, 256 to 8 rows per tile) and strided ones, both modes and directions, every
** (alpha, beta), a fifth of the inputs -inf; the tile on HALF and large offsets; and a forced tile
** too long for local memory giving NOT_SUPPORTED. On a device whose own limits cannot hold a forced
** solver for a case (OpenCL 1.2's 32 KiB: 8 backward rows of 700), the forced call must give
** NOT_SUPPORTED and the library's own choice must serve the case (logged).
**
** Tolerances: |got - want| <= atol + rtol * scale, where scale is the size of the terms the
** result is made of (so cancellation in alpha*f + beta*prior, or in dy - sum(dy*y), does not
** demand impossible accuracy):
**   probabilities   scale |alpha*p| + |beta*prior|, rtol 1e-5 (grown by sqrt(G)/64 for sets of
**                   G > 4096 elements: float sums of G terms lose ~sqrt(G) ulps), atol 1e-6 / G
**                   (1e-6 on probabilities of ~1/G).
**   LOG forward     scale |alpha|*(|y| + 1 + |x|/8) + |beta*prior|: a log-probability is a
**                   difference of values the size of x and max, so its error is absolute (a few
**                   ulps of x plus the relative error of the sum), not relative to |y|.
**   backward        scale |alpha|*(the backward formula on absolute values) + |beta*prior|.
**   HALF            rtol 2e-3, atol 1e-5 (the output is rounded to 11 bits).
*/
#include "fixture.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

TestSuite(sm_forward, .fini = fx_fini);
TestSuite(sm_backward, .fini = fx_fini);
TestSuite(sm_gradcheck, .fini = fx_fini);
TestSuite(sm_stable, .fini = fx_fini);
TestSuite(sm_invariant, .fini = fx_fini);
TestSuite(sm_half, .fini = fx_fini);
TestSuite(sm_bf16, .fini = fx_fini);
TestSuite(sm_solvers, .fini = fx_fini);
TestSuite(sm_bad, .fini = fx_fini);

/* ------------------------------------------------------------------------------- cases */

#define RTOL 1e-5
#define ATOL 1e-6
#define HALF_RTOL 2e-3
#define HALF_ATOL 1e-5
#define BF16_RTOL 8e-3 /* two bfloat16 half-ulps (2^-8 each), as HALF_RTOL is two of half's */

typedef struct {
    cldnnSoftmaxAlgorithm_t algo;
    cldnnSoftmaxMode_t mode;
} sm_case;

static const char* algo_name(cldnnSoftmaxAlgorithm_t a) {
    return a == CLDNN_SOFTMAX_FAST ? "FAST" : a == CLDNN_SOFTMAX_ACCURATE ? "ACCURATE" : "LOG";
}

static const char* mode_name(cldnnSoftmaxMode_t m) { return m == CLDNN_SOFTMAX_MODE_INSTANCE ? "INSTANCE" : "CHANNEL"; }

/* rtol for probabilities of a softmax over G elements (see the header comment). */
static double rtol_for(int64_t g) { return RTOL * fmax(1.0, sqrt((double)g) / 64.0); }

/* -------------------------------------------------------------------------------- layouts */

/* How one tensor of a case is described: fx_tdesc, the fixture's forms (common/fixture.h). */

/* Forward: x on a, y on b. Backward: y on a, dy on c, dx on b. */
typedef struct {
    const char* name;
    int nd;
    int64_t dims[8];
    fx_tdesc a, b, c;
} layout;

static const layout k_layouts[] = {
    /* 0 */ {"1x1x1x1", 4, {1, 1, 1, 1}, {FX_NCHW, {0}, 1}, {FX_NCHW, {0}, 5}, {FX_NCHW, {0}, 2}},
    /* 1 */ {"2x3x4x5 offsets", 4, {2, 3, 4, 5}, {FX_NCHW, {0}, 7}, {FX_NCHW, {0}, 3}, {FX_NHWC, {0}, 1}},
    /* 2 */ {"3x17x7x9", 4, {3, 17, 7, 9}, {FX_NCHW, {0}, 0}, {FX_NCHW, {0}, 2}, {FX_NCHW, {0}, 9}},
    /* 3 */ {"2x1000x1x1 classifier", 4, {2, 1000, 1, 1}, {FX_NCHW, {0}, 3}, {FX_NCHW, {0}, 0}, {FX_NCHW, {0}, 1}},
    /* 4 */ {"1x5x33x31", 4, {1, 5, 33, 31}, {FX_NCHW, {0}, 1}, {FX_NCHW, {0}, 4}, {FX_NCHW, {0}, 0}},
    /* 5 */ {"4x64x1x1 padded y", 4, {4, 64, 1, 1}, {FX_NCHW, {0}, 0}, {FX_EX, {70, 1, 1, 1}, 2}, {FX_NCHW, {0}, 5}},
    /* 6 */ {"1x512x16x16 long", 4, {1, 512, 16, 16}, {FX_NCHW, {0}, 0}, {FX_NCHW, {0}, 1}, {FX_NCHW, {0}, 2}},
    /* 7 */ {"2x5x3x7 nhwc -> nchw", 4, {2, 5, 3, 7}, {FX_NHWC, {0}, 7}, {FX_NCHW, {0}, 7}, {FX_NHWC, {0}, 3}},
    /* 8 */ {"2x5x3x7 nchw -> nhwc", 4, {2, 5, 3, 7}, {FX_NCHW, {0}, 2}, {FX_NHWC, {0}, 9}, {FX_NCHW, {0}, 4}},
    /* 9 */ {"2x6x5x7 padded 4dEx", 4, {2, 6, 5, 7}, {FX_EX, {300, 48, 9, 1}, 7}, {FX_EX, {299, 1, 59, 8}, 4},
             {FX_EX, {256, 42, 8, 1}, 5}},
    /* 10 */ {"7x300 2-d, y column-major", 2, {7, 300}, {FX_ND, {311, 1}, 3}, {FX_ND, {1, 7}, 1}, {FX_ND, {0}, 2}},
    /* 11 */ {"3x7x13 3-d", 3, {3, 7, 13}, {FX_ND, {100, 14, 1}, 2}, {FX_ND, {1, 3, 21}, 0}, {FX_ND, {0}, 4}},
    /* 12 */ {"2x3x4x5x6 5-d gaps", 5, {2, 3, 4, 5, 6}, {FX_ND, {461, 150, 37, 7, 1}, 7}, {FX_ND, {0}, 3},
              {FX_ND, {360, 1, 90, 18, 3}, 1}},
    /* 13 */ {"2x4x3x2x2x2x2x3 8-d", 8, {2, 4, 3, 2, 2, 2, 2, 3}, {FX_ND, {0}, 1}, {FX_ND, {0}, 2}, {FX_ND, {0}, 0}},
    /* 14 */ {"2x65x3x5 nhwc -> padded", 4, {2, 65, 3, 5}, {FX_NHWC, {0}, 3}, {FX_EX, {1242, 19, 6, 1}, 2},
              {FX_NCHW, {0}, 1}},
};
#define NLAYOUTS (sizeof k_layouts / sizeof k_layouts[0])
#define L_LONG 6 /* the large layout runs with fewer alpha/beta pairs */


/* Creates t for layout l's tensor description d (data type dt). */
static void make_tensor(fx_tensor* t, const layout* l, const fx_tdesc* d, cldnnDataType_t dt) {
    fx_tensor_from_desc(t, l->nd, l->dims, d, dt);
}

/* "strides a,b,c off N B" of t, for failure messages. */
static const char* describe(const fx_tensor* t, char* buf, size_t size) {
    size_t at = (size_t)snprintf(buf, size, "strides ");
    for (int d = 0; d < t->view.nd && at < size; d++)
        at += (size_t)snprintf(buf + at, size - at, "%s%lld", d ? "," : "", (long long)t->view.strides[d]);
    if (at < size)
        snprintf(buf + at, size - at, " off %zuB", t->offset);
    return buf;
}


static double dmax(double a, double b) { return a > b ? a : b; }

/* ------------------------------------------------------------------------------- forward */

/* Sets a fraction `ninf` (0: none) of t's elements, drawn at random, to -inf. */
static void sprinkle_ninf(fx_tensor* t, double ninf) {
    for (int64_t i = 0; ninf > 0 && i < t->count; i++)
        if (fx_uniform(0.0, 1.0) < ninf)
            fx_tensor_set(t, i, -INFINITY);
}

/* Checks one forward run of c on layout l with (alpha, beta), x uniform in [lo, hi) with a
** fraction ninf of its elements -inf; in place when inplace. Returns the largest
** error-to-tolerance ratio seen. */
static double forward_run(sm_case c, const layout* l, float alpha, float beta, int inplace, cldnnDataType_t dt,
                          double lo, double hi, double ninf) {
    fx_tensor x, y;
    memset(&y, 0, sizeof y);
    make_tensor(&x, l, &l->a, dt);
    fx_tensor_poison_random(&x);
    fx_tensor_fill_uniform(&x, lo, hi);
    sprinkle_ninf(&x, ninf);
    fx_tensor* out = &x;
    if (!inplace) {
        make_tensor(&y, l, &l->b, dt);
        fx_poison_out(&y, beta);
        fx_tensor_upload(&y);
        out = &y;
    }
    fx_tensor_upload(&x);

    ref_view pv = ref_view_packed(l->nd, l->dims);
    int64_t n = x.count, g = ref_softmax_group_size((int)c.mode, &pv);
    float* xf = fx_tensor_host_floats(&x);
    double* p = malloc((size_t)n * sizeof(double));
    double* want = malloc((size_t)n * sizeof(double));
    double* scale = malloc((size_t)n * sizeof(double));
    FX_ASSERT(p && want && scale, "out of memory");
    ref_softmax_forward((int)c.algo, (int)c.mode, &pv, xf, p);
    for (int64_t i = 0; i < n; i++) {
        double f = alpha * p[i];
        double prior = beta != 0.0f ? beta * fx_tensor_host(out, i) : 0.0;
        double mag = c.algo == CLDNN_SOFTMAX_LOG ? fabs(alpha) * (fabs(p[i]) + 1.0 + fabs(xf[i]) / 8.0) : fabs(f);
        want[i] = f + prior;
        scale[i] = mag + fabs(prior);
    }
    double rtol = dt == CLDNN_DATA_HALF ? HALF_RTOL : dt == CLDNN_DATA_BFLOAT16 ? BF16_RTOL : rtol_for(g);
    double atol = dt != CLDNN_DATA_FLOAT ? HALF_ATOL : ATOL / (double)g;

    FX_OK(cldnnSoftmaxForward(fx_handle(), c.algo, c.mode, &alpha, x.desc, x.mem, x.offset, &beta, out->desc,
                              out->mem, out->offset));
    fx_tensor_download(out);
    char msg[512], dx_[128], dy_[128];
    double worst = 0;
    int64_t bad = fx_compare(out, want, scale, atol, rtol, msg, sizeof msg, &worst);
    FX_ASSERT(bad == 0,
              "forward %s %s, layout \"%s\" (x %s, y %s)%s, %s, x in [%g, %g), alpha %g beta %g: %lld of %lld "
              "wrong (rtol %g atol %g); first: %s",
              algo_name(c.algo), mode_name(c.mode), l->name, describe(&x, dx_, sizeof dx_),
              describe(out, dy_, sizeof dy_), inplace ? " in place" : "", fx_dtype_name(dt),
              lo, hi, alpha, beta, (long long)bad, (long long)n, rtol, atol, msg);
    int64_t gaps = fx_tensor_gaps_changed(out);
    FX_ASSERT(gaps == 0, "forward %s %s, layout \"%s\"%s, alpha %g beta %g: %lld elements outside the view changed",
              algo_name(c.algo), mode_name(c.mode), l->name, inplace ? " in place" : "", alpha, beta,
              (long long)gaps);
    if (!inplace) {
        fx_expect_untouched(&x, "x", l->name);
        fx_tensor_free(&y);
    }
    free(xf);
    free(p);
    free(want);
    free(scale);
    fx_tensor_free(&x);
    return worst;
}

/* forward_run without -inf inputs. */
static double forward_once(sm_case c, const layout* l, float alpha, float beta, int inplace, cldnnDataType_t dt,
                           double lo, double hi) {
    return forward_run(c, l, alpha, beta, inplace, dt, lo, hi, 0.0);
}

/* Every layout with every (alpha, beta) (the large one with two), plus in place. */
static void check_forward(sm_case c) {
    double worst = 0;
    for (size_t l = 0; l < NLAYOUTS; l++)
        for (size_t ab = 0; ab < FX_NAB; ab++) {
            if (l == L_LONG && ab == 2)
                continue;
            worst = dmax(worst, forward_once(c, &k_layouts[l], fx_alpha_beta[ab][0], fx_alpha_beta[ab][1], 0, CLDNN_DATA_FLOAT, -4, 4));
        }
    const size_t inplace[] = {1, 9, 12};
    for (size_t k = 0; k < sizeof inplace / sizeof inplace[0]; k++)
        for (size_t ab = 0; ab < 2; ab++)
            worst = dmax(worst, forward_once(c, &k_layouts[inplace[k]], fx_alpha_beta[ab][0], fx_alpha_beta[ab][1], 1,
                                             CLDNN_DATA_FLOAT, -4, 4));
    cr_log_info("forward %s %s: largest error / tolerance = %.3f", algo_name(c.algo), mode_name(c.mode), worst);
}

/* ------------------------------------------------------------------------------ backward */

/* One backward run: y on l->a holds a real forward output (softmax of x uniform in [-4, 4) with
** a fraction ninf of -inf, rounded to the storage type), dy on l->c uniform in [-2, 2), dx on
** l->b. Returns the worst error ratio. */
static double backward_run(sm_case c, const layout* l, float alpha, float beta, cldnnDataType_t dt, double ninf) {
    fx_tensor y, dy, dx;
    make_tensor(&y, l, &l->a, dt);
    make_tensor(&dy, l, &l->c, dt);
    make_tensor(&dx, l, &l->b, dt);
    fx_tensor_poison_random(&y);
    fx_tensor_poison_random(&dy);
    fx_poison_out(&dx, beta);

    ref_view pv = ref_view_packed(l->nd, l->dims);
    int64_t n = y.count, g = ref_softmax_group_size((int)c.mode, &pv);
    float* xf = malloc((size_t)n * sizeof(float));
    double* p = malloc((size_t)n * sizeof(double));
    double* want = malloc((size_t)n * sizeof(double));
    double* scale = malloc((size_t)n * sizeof(double));
    FX_ASSERT(xf && p && want && scale, "out of memory");
    for (int64_t i = 0; i < n; i++) {
        xf[i] = fx_uniform(-4.0, 4.0);
        if (ninf > 0 && fx_uniform(0.0, 1.0) < ninf)
            xf[i] = -INFINITY;
    }
    ref_softmax_forward((int)c.algo, (int)c.mode, &pv, xf, p);
    for (int64_t i = 0; i < n; i++)
        fx_tensor_set(&y, i, p[i]);
    fx_tensor_fill_uniform(&dy, -2.0, 2.0);
    float* yf = fx_tensor_host_floats(&y);
    float* dyf = fx_tensor_host_floats(&dy);
    ref_softmax_backward((int)c.algo, (int)c.mode, &pv, yf, dyf, p);
    ref_softmax_backward_abs((int)c.algo, (int)c.mode, &pv, yf, dyf, scale);
    for (int64_t i = 0; i < n; i++) {
        double prior = beta != 0.0f ? beta * fx_tensor_host(&dx, i) : 0.0;
        want[i] = alpha * p[i] + prior;
        scale[i] = fabs(alpha) * scale[i] + fabs(prior);
    }
    double rtol = dt == CLDNN_DATA_HALF ? HALF_RTOL : dt == CLDNN_DATA_BFLOAT16 ? BF16_RTOL : rtol_for(g);
    double atol = dt != CLDNN_DATA_FLOAT ? HALF_ATOL : ATOL / (double)g;
    fx_tensor_upload(&y);
    fx_tensor_upload(&dy);
    fx_tensor_upload(&dx);

    FX_OK(cldnnSoftmaxBackward(fx_handle(), c.algo, c.mode, &alpha, y.desc, y.mem, y.offset, dy.desc, dy.mem,
                               dy.offset, &beta, dx.desc, dx.mem, dx.offset));
    fx_tensor_download(&dx);
    char msg[512], d1[128], d2[128], d3[128];
    double worst = 0;
    int64_t bad = fx_compare(&dx, want, scale, atol, rtol, msg, sizeof msg, &worst);
    FX_ASSERT(bad == 0,
              "backward %s %s, layout \"%s\" (y %s, dy %s, dx %s), %s, alpha %g beta %g: %lld of %lld wrong "
              "(rtol %g atol %g); first: %s",
              algo_name(c.algo), mode_name(c.mode), l->name, describe(&y, d1, sizeof d1),
              describe(&dy, d2, sizeof d2), describe(&dx, d3, sizeof d3), fx_dtype_name(dt),
              alpha, beta, (long long)bad, (long long)n, rtol, atol, msg);
    int64_t gaps = fx_tensor_gaps_changed(&dx);
    FX_ASSERT(gaps == 0, "backward %s %s, layout \"%s\", alpha %g beta %g: %lld elements outside dx's view changed",
              algo_name(c.algo), mode_name(c.mode), l->name, alpha, beta, (long long)gaps);
    fx_expect_untouched(&y, "y", l->name);
    fx_expect_untouched(&dy, "dy", l->name);
    free(xf);
    free(yf);
    free(dyf);
    free(p);
    free(want);
    free(scale);
    fx_tensor_free(&y);
    fx_tensor_free(&dy);
    fx_tensor_free(&dx);
    return worst;
}

/* backward_run without -inf inputs. */
static double backward_once(sm_case c, const layout* l, float alpha, float beta, cldnnDataType_t dt) {
    return backward_run(c, l, alpha, beta, dt, 0.0);
}

static void check_backward(sm_case c) {
    double worst = 0;
    for (size_t l = 0; l < NLAYOUTS; l++)
        for (size_t ab = 0; ab < FX_NAB; ab++) {
            if (l == L_LONG && ab == 2)
                continue;
            worst = dmax(worst, backward_once(c, &k_layouts[l], fx_alpha_beta[ab][0], fx_alpha_beta[ab][1], CLDNN_DATA_FLOAT));
        }
    cr_log_info("backward %s %s: largest error / tolerance = %.3f", algo_name(c.algo), mode_name(c.mode), worst);
}

/* ------------------------------------------------------------------------- gradient check */

/* loss(x) = sum(w * softmax(x)) over one 1xCxHxW image. Sample 0 of a batch of 1 + 2K images
** is the base x; samples 2k+1 and 2k+2 are x with element j_k moved by +h and -h (softmax sets
** never cross n, so one forward gives every perturbed loss). The library's backward with dy = w
** (on the library's own forward output) must match (loss+ - loss-) / ((x+h) - (x-h)). */
static void check_gradient(sm_case c) {
    enum { K = 8, C = 7, H = 3, W = 2, IMG = C * H * W, NB = 1 + 2 * K };
    const int64_t dims[4] = {NB, C, H, W};
    const double h = 3e-2;
    fx_tensor x, y, dy, dx;
    fx_tensor_nd(&x, CLDNN_DATA_FLOAT, 4, dims, NULL, 4);
    fx_tensor_nd(&y, CLDNN_DATA_FLOAT, 4, dims, NULL, 8);
    fx_tensor_nd(&dy, CLDNN_DATA_FLOAT, 4, dims, NULL, 12);
    fx_tensor_nd(&dx, CLDNN_DATA_FLOAT, 4, dims, NULL, 16);
    fx_tensor_poison_nan(&y);
    fx_tensor_poison_nan(&dx);
    fx_tensor_poison_nan(&x);
    fx_tensor_poison_nan(&dy);
    float base[IMG], w[IMG];
    int j[K];
    double hh[K];
    for (int e = 0; e < IMG; e++) {
        base[e] = fx_uniform(-3.0, 3.0);
        w[e] = fx_uniform(-1.0, 1.0);
    }
    for (int k = 0; k < K; k++) {
        j[k] = (int)(ref_rng_next(fx_rng()) % IMG);
        float p = (float)(base[j[k]] + h), m = (float)(base[j[k]] - h);
        hh[k] = (double)p - (double)m;
        for (int s = 0; s < NB; s++)
            for (int e = 0; e < IMG; e++) {
                float v = base[e];
                if (s == 2 * k + 1 && e == j[k])
                    v = p;
                else if (s == 2 * k + 2 && e == j[k])
                    v = m;
                if (s == 0 || s == 2 * k + 1 || s == 2 * k + 2)
                    fx_tensor_set(&x, (int64_t)s * IMG + e, v);
            }
    }
    for (int s = 0; s < NB; s++)
        for (int e = 0; e < IMG; e++)
            fx_tensor_set(&dy, (int64_t)s * IMG + e, w[e]);
    fx_tensor_upload(&x);
    fx_tensor_upload(&y);
    fx_tensor_upload(&dy);
    fx_tensor_upload(&dx);
    float one = 1.0f, zero = 0.0f;
    cldnnHandle_t hd = fx_handle();
    FX_OK(cldnnSoftmaxForward(hd, c.algo, c.mode, &one, x.desc, x.mem, x.offset, &zero, y.desc, y.mem, y.offset));
    FX_OK(cldnnSoftmaxBackward(hd, c.algo, c.mode, &one, y.desc, y.mem, y.offset, dy.desc, dy.mem, dy.offset, &zero,
                               dx.desc, dx.mem, dx.offset));
    fx_tensor_download(&y);
    fx_tensor_download(&dx);
    /* loss rounding: for LOG each y is ~4 in size, for the others ~1/G */
    const double atol = c.algo == CLDNN_SOFTMAX_LOG ? 1e-3 : 5e-5;
    double worst = 0;
    for (int k = 0; k < K; k++) {
        double lp = 0, lm = 0;
        for (int e = 0; e < IMG; e++) {
            lp += w[e] * fx_tensor_got(&y, (int64_t)(2 * k + 1) * IMG + e);
            lm += w[e] * fx_tensor_got(&y, (int64_t)(2 * k + 2) * IMG + e);
        }
        double fd = (lp - lm) / hh[k], gr = fx_tensor_got(&dx, j[k]);
        double tol = atol + 1e-2 * fabs(fd), err = fabs(gr - fd);
        worst = dmax(worst, err / tol);
        FX_ASSERT(err <= tol,
                  "gradcheck %s %s, 1x%dx%dx%d, element %d (x = %.9g): backward %.9g, finite difference %.9g "
                  "(loss+ %.9g, loss- %.9g, 2h %.6g)",
                  algo_name(c.algo), mode_name(c.mode), C, H, W, j[k], base[j[k]], gr, fd, lp, lm, hh[k]);
    }
    cr_log_info("gradcheck %s %s: largest error / tolerance = %.3f", algo_name(c.algo), mode_name(c.mode), worst);
    fx_tensor_free(&x);
    fx_tensor_free(&y);
    fx_tensor_free(&dy);
    fx_tensor_free(&dx);
}

/* One test per algorithm, mode and concern. */
#define CASE_TESTS(id, a, m)                                                       \
    Test(sm_forward, id) { check_forward((sm_case){a, m}); }                       \
    Test(sm_backward, id) { check_backward((sm_case){a, m}); }                     \
    Test(sm_gradcheck, id) { check_gradient((sm_case){a, m}); }

CASE_TESTS(fast_instance, CLDNN_SOFTMAX_FAST, CLDNN_SOFTMAX_MODE_INSTANCE)
CASE_TESTS(fast_channel, CLDNN_SOFTMAX_FAST, CLDNN_SOFTMAX_MODE_CHANNEL)
CASE_TESTS(accurate_instance, CLDNN_SOFTMAX_ACCURATE, CLDNN_SOFTMAX_MODE_INSTANCE)
CASE_TESTS(accurate_channel, CLDNN_SOFTMAX_ACCURATE, CLDNN_SOFTMAX_MODE_CHANNEL)
CASE_TESTS(log_instance, CLDNN_SOFTMAX_LOG, CLDNN_SOFTMAX_MODE_INSTANCE)
CASE_TESTS(log_channel, CLDNN_SOFTMAX_LOG, CLDNN_SOFTMAX_MODE_CHANNEL)

/* ------------------------------------------------------------------------- large inputs */

/* Layouts for the range tests: a classifier, a padded 4dEx and NHWC (INSTANCE and CHANNEL sets
** of several sizes). */
static const size_t k_range_layouts[] = {3, 9, 7};
#define NRANGE (sizeof k_range_layouts / sizeof k_range_layouts[0])

/* x = offset + uniform [-4, 4) for each offset, and a [-spread, spread) range, both modes; every
** output must be finite and equal to the shifted reference. */
static void check_large(cldnnSoftmaxAlgorithm_t algo) {
    const double offsets[] = {100.0, -100.0, 1000.0, -1000.0};
    double worst = 0;
    for (int m = 0; m < 2; m++) {
        sm_case c = {algo, (cldnnSoftmaxMode_t)m};
        for (size_t l = 0; l < NRANGE; l++) {
            const layout* lay = &k_layouts[k_range_layouts[l]];
            for (size_t o = 0; o < sizeof offsets / sizeof offsets[0]; o++)
                worst = dmax(worst, forward_once(c, lay, 1.0f, 0.0f, 0, CLDNN_DATA_FLOAT, offsets[o] - 4.0,
                                                 offsets[o] + 4.0));
            worst = dmax(worst, forward_once(c, lay, 1.0f, 0.0f, 0, CLDNN_DATA_FLOAT, -300.0, 300.0));
            worst = dmax(worst, forward_once(c, lay, 0.5f, 0.25f, 0, CLDNN_DATA_FLOAT, 996.0, 1004.0));
        }
    }
    cr_log_info("large inputs %s: largest error / tolerance = %.3f", algo_name(algo), worst);
}

Test(sm_stable, accurate_large_inputs) { check_large(CLDNN_SOFTMAX_ACCURATE); }

Test(sm_stable, log_large_inputs) { check_large(CLDNN_SOFTMAX_LOG); }

/* FAST takes no max, so only moderate magnitudes: exp(+-18) over 1000 elements fits float. */
Test(sm_stable, fast_moderate_inputs) {
    const double ranges[][2] = {{10.0, 18.0}, {-18.0, -10.0}, {-12.0, 12.0}};
    double worst = 0;
    for (int m = 0; m < 2; m++)
        for (size_t l = 0; l < NRANGE; l++)
            for (size_t r = 0; r < sizeof ranges / sizeof ranges[0]; r++)
                worst = dmax(worst, forward_once((sm_case){CLDNN_SOFTMAX_FAST, (cldnnSoftmaxMode_t)m},
                                                 &k_layouts[k_range_layouts[l]], 1.0f, 0.0f, 0, CLDNN_DATA_FLOAT,
                                                 ranges[r][0], ranges[r][1]));
    cr_log_info("moderate inputs FAST: largest error / tolerance = %.3f", worst);
}

/* Backward stays exact for extreme log-probabilities (LOG) and saturated probabilities: y from
** x in [-300, 300), where most probabilities underflow to 0 and log-probabilities reach -600. */
Test(sm_stable, backward_saturated) {
    const layout* lay = &k_layouts[3];
    for (int a = 1; a <= 2; a++)
        for (int m = 0; m < 2; m++) {
            sm_case c = {(cldnnSoftmaxAlgorithm_t)a, (cldnnSoftmaxMode_t)m};
            fx_tensor y, dy, dx;
            make_tensor(&y, lay, &lay->a, CLDNN_DATA_FLOAT);
            make_tensor(&dy, lay, &lay->c, CLDNN_DATA_FLOAT);
            make_tensor(&dx, lay, &lay->b, CLDNN_DATA_FLOAT);
            fx_tensor_poison_random(&y);
            fx_tensor_poison_random(&dy);
            fx_tensor_poison_nan(&dx);
            ref_view pv = ref_view_packed(lay->nd, lay->dims);
            int64_t n = y.count, g = ref_softmax_group_size(m, &pv);
            float* xf = malloc((size_t)n * sizeof(float));
            double* p = malloc((size_t)n * sizeof(double));
            double* s = malloc((size_t)n * sizeof(double));
            FX_ASSERT(xf && p && s, "out of memory");
            for (int64_t i = 0; i < n; i++)
                xf[i] = fx_uniform(-300.0, 300.0);
            ref_softmax_forward(a, m, &pv, xf, p);
            for (int64_t i = 0; i < n; i++)
                fx_tensor_set(&y, i, p[i]);
            fx_tensor_fill_uniform(&dy, -2.0, 2.0);
            float* yf = fx_tensor_host_floats(&y);
            float* dyf = fx_tensor_host_floats(&dy);
            ref_softmax_backward(a, m, &pv, yf, dyf, p);
            ref_softmax_backward_abs(a, m, &pv, yf, dyf, s);
            fx_tensor_upload(&y);
            fx_tensor_upload(&dy);
            fx_tensor_upload(&dx);
            float one = 1.0f, zero = 0.0f;
            FX_OK(cldnnSoftmaxBackward(fx_handle(), c.algo, c.mode, &one, y.desc, y.mem, y.offset, dy.desc, dy.mem,
                                       dy.offset, &zero, dx.desc, dx.mem, dx.offset));
            fx_tensor_download(&dx);
            char msg[512];
            int64_t bad = fx_compare(&dx, p, s, ATOL / (double)g, rtol_for(g), msg, sizeof msg, NULL);
            FX_ASSERT(bad == 0, "backward %s %s saturated, layout \"%s\": %lld of %lld wrong; first: %s",
                      algo_name(c.algo), mode_name(c.mode), lay->name, (long long)bad, (long long)n, msg);
            free(xf);
            free(yf);
            free(dyf);
            free(p);
            free(s);
            fx_tensor_free(&y);
            fx_tensor_free(&dy);
            fx_tensor_free(&dx);
        }
}

/* ---------------------------------------------------------------------------- invariants */

/* ACCURATE with alpha 1, beta 0: every softmax set sums to 1 (within the float sum's error). */
Test(sm_invariant, sets_sum_to_one) {
    const size_t ls[] = {3, 6, 9, 12};
    for (int m = 0; m < 2; m++)
        for (size_t k = 0; k < sizeof ls / sizeof ls[0]; k++) {
            const layout* l = &k_layouts[ls[k]];
            fx_tensor x, y;
            make_tensor(&x, l, &l->a, CLDNN_DATA_FLOAT);
            make_tensor(&y, l, &l->b, CLDNN_DATA_FLOAT);
            fx_tensor_poison_random(&x);
            fx_tensor_fill_uniform(&x, -4.0, 4.0);
            fx_tensor_poison_nan(&y);
            fx_tensor_upload(&x);
            fx_tensor_upload(&y);
            float one = 1.0f, zero = 0.0f;
            FX_OK(cldnnSoftmaxForward(fx_handle(), CLDNN_SOFTMAX_ACCURATE, (cldnnSoftmaxMode_t)m, &one, x.desc, x.mem,
                                      x.offset, &zero, y.desc, y.mem, y.offset));
            fx_tensor_download(&y);
            int64_t nimg = l->dims[0], ch = l->dims[1], sp = x.count / (nimg * ch);
            int64_t groups = m == 0 ? nimg : nimg * sp, g = m == 0 ? ch * sp : ch;
            double tol = 4 * rtol_for(g);
            for (int64_t q = 0; q < groups; q++) {
                double sum = 0;
                for (int64_t e = 0; e < g; e++) {
                    int64_t i = m == 0 ? q * g + e : ((q / sp) * ch + e) * sp + q % sp;
                    sum += fx_tensor_got(&y, i);
                }
                FX_ASSERT(fabs(sum - 1.0) <= tol, "ACCURATE %s, layout \"%s\": set %lld of %lld elements sums to %.9g",
                          mode_name((cldnnSoftmaxMode_t)m), l->name, (long long)q, (long long)g, sum);
            }
            fx_tensor_free(&x);
            fx_tensor_free(&y);
        }
}

/* --------------------------------------------------------------------------------- HALF */

Test(sm_half, forward) {
    const sm_case cs[] = {{CLDNN_SOFTMAX_ACCURATE, CLDNN_SOFTMAX_MODE_CHANNEL},
                          {CLDNN_SOFTMAX_LOG, CLDNN_SOFTMAX_MODE_INSTANCE},
                          {CLDNN_SOFTMAX_FAST, CLDNN_SOFTMAX_MODE_INSTANCE}};
    const size_t ls[] = {1, 7, 9}; /* offsets, NHWC -> NCHW, padded 4dEx */
    double worst = 0;
    for (size_t k = 0; k < sizeof cs / sizeof cs[0]; k++)
        for (size_t l = 0; l < sizeof ls / sizeof ls[0]; l++)
            for (size_t ab = 0; ab < FX_NAB; ab++)
                worst = dmax(worst, forward_once(cs[k], &k_layouts[ls[l]], fx_alpha_beta[ab][0], fx_alpha_beta[ab][1], 0,
                                                 CLDNN_DATA_HALF, -4.0, 4.0));
    worst = dmax(worst, forward_once(cs[0], &k_layouts[1], 0.5f, 0.25f, 1, CLDNN_DATA_HALF, -4.0, 4.0));
    cr_log_info("half forward: largest error / tolerance = %.3f", worst);
}

Test(sm_half, backward) {
    const sm_case cs[] = {{CLDNN_SOFTMAX_ACCURATE, CLDNN_SOFTMAX_MODE_INSTANCE},
                          {CLDNN_SOFTMAX_LOG, CLDNN_SOFTMAX_MODE_CHANNEL}};
    const size_t ls[] = {1, 8, 9};
    double worst = 0;
    for (size_t k = 0; k < sizeof cs / sizeof cs[0]; k++)
        for (size_t l = 0; l < sizeof ls / sizeof ls[0]; l++)
            for (size_t ab = 0; ab < FX_NAB; ab++)
                worst = dmax(worst, backward_once(cs[k], &k_layouts[ls[l]], fx_alpha_beta[ab][0], fx_alpha_beta[ab][1], CLDNN_DATA_HALF));
    cr_log_info("half backward: largest error / tolerance = %.3f", worst);
}

/* ------------------------------------------------------------------------ forced solvers */

/* CHANNEL layouts whose rows are adjacent in memory (NCHW), for softmax_tile (TP rows per
** work-group of 256, 256 / TP lanes per row; TP from 32 up while a work-item would hold fewer
** than 8 elements, down while the tile exceeds 48 KiB): 189 rows of 17 (TP 128: 1 tile + 61,
** tiles straddling n; 2 lanes, 17 = 8 x 2 + 1); 126 of 100 (TP 32: 3 tiles + 30; 8 lanes, 100 =
** 12 x 8 + 4); 70 of 700 (TP 16 forward, 8 backward; 700 = 43 x 16 + 12 = 21 x 32 + 28); 66 of
** 129 with a padded C stride (TP 32: 2 tiles + 2); 200 of 12 (TP 256, one lane: one partial tile). */
static const layout k_tile_layouts[] = {
    {"3x17x7x9", 4, {3, 17, 7, 9}, {FX_NCHW, {0}, 0}, {FX_NCHW, {0}, 2}, {FX_NCHW, {0}, 9}},
    {"2x100x9x7 offsets", 4, {2, 100, 9, 7}, {FX_NCHW, {0}, 3}, {FX_NCHW, {0}, 1}, {FX_NCHW, {0}, 2}},
    {"2x700x5x7", 4, {2, 700, 5, 7}, {FX_NCHW, {0}, 0}, {FX_NCHW, {0}, 5}, {FX_NCHW, {0}, 1}},
    {"2x129x1x33 padded C", 4, {2, 129, 1, 33}, {FX_EX, {5200, 40, 33, 1}, 1}, {FX_NCHW, {0}, 0},
     {FX_EX, {4300, 33, 33, 1}, 6}},
    {"2x12x10x10", 4, {2, 12, 10, 10}, {FX_NCHW, {0}, 2}, {FX_NCHW, {0}, 0}, {FX_NCHW, {0}, 4}},
};
#define NTILE (sizeof k_tile_layouts / sizeof k_tile_layouts[0])

/* Layouts of k_layouts that the tile serves when forced although its rows are not adjacent
** (NHWC, padded 4dEx, 3-d with y strided, dy NHWC with byte offsets): only speed depends on
** adjacency. INSTANCE mode on them has rows of 60 to 210 elements. */
static const size_t k_tile_other[] = {1, 7, 9, 11};
#define NTILE_OTHER (sizeof k_tile_other / sizeof k_tile_other[0])

/* 1 when the device's own limits (queried here, not the library's answer) leave no room for the
** forced solver on case c, layout l, direction dir (0 forward, 1 backward): softmax_tile needs at
** least its smallest tile, 8 rows of every row operand (x; y and dy) as floats, in local memory;
** softmax_tile, _split and _wg need work-groups of 64. A device of OpenCL 1.2's minimum 32 KiB
** cannot hold 8 backward rows of 700. */
static int forced_cannot_fit(const char* solver, sm_case c, const layout* l, int dir, char* why, size_t size) {
    cl_ulong local = 0;
    size_t wg = 0;
    cr_assert(clGetDeviceInfo(fx_device(), CL_DEVICE_LOCAL_MEM_SIZE, sizeof local, &local, NULL) == CL_SUCCESS);
    cr_assert(clGetDeviceInfo(fx_device(), CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof wg, &wg, NULL) == CL_SUCCESS);
    if (strcmp(solver, "wi") != 0 && wg < 64) {
        snprintf(why, size, "work-groups of at most %zu", wg);
        return 1;
    }
    ref_view pv = ref_view_packed(l->nd, l->dims);
    const uint64_t row = (uint64_t)ref_softmax_group_size((int)c.mode, &pv);
    const uint64_t tile = 8u * row * (uint64_t)(dir + 1) * sizeof(float);
    if (strcmp(solver, "tile") == 0 && tile > local) {
        snprintf(why, size, "its smallest tile is %llu bytes, local memory %llu", (unsigned long long)tile,
                 (unsigned long long)local);
        return 1;
    }
    return 0;
}

/* One forward (dir 0) or backward run of check_forced with CLDNN_SOLVER=softmax_<solver>. Where
** the solver cannot fit the device (forced_cannot_fit), the forced call must say NOT_SUPPORTED
** and leave its output alone, and the same case must then pass with the solvers the library picks
** itself: the problem stays served. Everywhere else the forced solver must run it. */
static double forced_run(const char* solver, int dir, sm_case c, const layout* l, float alpha, float beta, int inplace,
                         double ninf) {
    char why[128];
    if (!forced_cannot_fit(solver, c, l, dir, why, sizeof why))
        return dir ? backward_run(c, l, alpha, beta, CLDNN_DATA_FLOAT, ninf)
                   : forward_run(c, l, alpha, beta, inplace, CLDNN_DATA_FLOAT, -4.0, 4.0, ninf);
    fx_tensor a, b, d;
    make_tensor(&a, l, &l->a, CLDNN_DATA_FLOAT);
    make_tensor(&b, l, &l->b, CLDNN_DATA_FLOAT);
    make_tensor(&d, l, &l->c, CLDNN_DATA_FLOAT);
    fx_tensor_poison_random(&a);
    fx_tensor_poison_random(&b);
    fx_tensor_poison_random(&d);
    fx_tensor_upload(&a);
    fx_tensor_upload(&b);
    fx_tensor_upload(&d);
    if (dir)
        FX_EXPECT_STATUS(CLDNN_STATUS_NOT_SUPPORTED,
                         cldnnSoftmaxBackward(fx_handle(), c.algo, c.mode, &alpha, a.desc, a.mem, a.offset, d.desc,
                                              d.mem, d.offset, &beta, b.desc, b.mem, b.offset));
    else
        FX_EXPECT_STATUS(CLDNN_STATUS_NOT_SUPPORTED,
                         cldnnSoftmaxForward(fx_handle(), c.algo, c.mode, &alpha, a.desc, a.mem, a.offset, &beta,
                                             b.desc, b.mem, b.offset));
    fx_expect_untouched(&b, dir ? "dx" : "y", "a forced solver that cannot fit");
    fx_tensor_free(&a);
    fx_tensor_free(&b);
    fx_tensor_free(&d);
    cr_log_info("softmax_%s cannot run %s %s %s on layout \"%s\" here (%s): NOT_SUPPORTED; the library's own "
                "choice serves it", solver, dir ? "backward" : "forward", algo_name(c.algo), mode_name(c.mode),
                l->name, why);
    const char* only = getenv("CLDNN_SOLVER");
    char saved[64];
    snprintf(saved, sizeof saved, "%s", only ? only : "");
    unsetenv("CLDNN_SOLVER");
    const double worst = dir ? backward_run(c, l, alpha, beta, CLDNN_DATA_FLOAT, ninf)
                             : forward_run(c, l, alpha, beta, inplace, CLDNN_DATA_FLOAT, -4.0, 4.0, ninf);
    setenv("CLDNN_SOLVER", saved, 1);
    return worst;
}

/* Runs forward and backward of algo on every tile layout (CHANNEL; every (alpha, beta), once
** more with a fifth of the inputs -inf) and on k_tile_other in both modes with
** CLDNN_SOLVER=softmax_<solver>, which must then be the one that runs (no other solver applies),
** except where it cannot fit the device (forced_run). */
static void check_forced(const char* solver, cldnnSoftmaxAlgorithm_t algo) {
    char only[32];
    snprintf(only, sizeof only, "softmax_%s", solver);
    setenv("CLDNN_SOLVER", only, 1);
    double worst = 0;
    sm_case ch = {algo, CLDNN_SOFTMAX_MODE_CHANNEL};
    for (size_t l = 0; l < NTILE; l++) {
        for (size_t ab = 0; ab < FX_NAB; ab++) {
            const float a = fx_alpha_beta[ab][0], b = fx_alpha_beta[ab][1];
            worst = dmax(worst, forced_run(solver, 0, ch, &k_tile_layouts[l], a, b, 0, 0.0));
            worst = dmax(worst, forced_run(solver, 1, ch, &k_tile_layouts[l], a, b, 0, 0.0));
        }
        worst = dmax(worst, forced_run(solver, 0, ch, &k_tile_layouts[l], 0.5f, 0.25f, 0, 0.2));
        worst = dmax(worst, forced_run(solver, 1, ch, &k_tile_layouts[l], 2.0f, -1.0f, 0, 0.2));
    }
    for (size_t l = 0; l < NTILE_OTHER; l++)
        for (int m = 0; m < 2; m++) {
            sm_case c = {algo, (cldnnSoftmaxMode_t)m};
            const layout* lay = &k_layouts[k_tile_other[l]];
            size_t ab = (l + (size_t)m) % FX_NAB;
            worst = dmax(worst, forced_run(solver, 0, c, lay, fx_alpha_beta[ab][0], fx_alpha_beta[ab][1], 0,
                                           m ? 0.2 : 0.0));
            worst = dmax(worst, forced_run(solver, 1, c, lay, fx_alpha_beta[ab][0], fx_alpha_beta[ab][1], 0, 0.0));
        }
    worst = dmax(worst, forced_run(solver, 0, ch, &k_tile_layouts[1], 1.0f, 0.0f, 1, 0.0));
    unsetenv("CLDNN_SOLVER");
    cr_log_info("%s %s: largest error / tolerance = %.3f", solver, algo_name(algo), worst);
}

Test(sm_solvers, tile_fast) { check_forced("tile", CLDNN_SOFTMAX_FAST); }
Test(sm_solvers, tile_accurate) { check_forced("tile", CLDNN_SOFTMAX_ACCURATE); }
Test(sm_solvers, tile_log) { check_forced("tile", CLDNN_SOFTMAX_LOG); }
/* BFLOAT16 storage: one case per direction and solver family (inputs exact in bfloat16, outputs
** rounded once). */
Test(sm_bf16, forward_backward) {
    const cldnnDataType_t B = CLDNN_DATA_BFLOAT16;
    double worst = forward_once((sm_case){CLDNN_SOFTMAX_ACCURATE, CLDNN_SOFTMAX_MODE_CHANNEL}, &k_layouts[7], 0.5f,
                                0.25f, 0, B, -4.0, 4.0);
    worst = dmax(worst, forward_once((sm_case){CLDNN_SOFTMAX_LOG, CLDNN_SOFTMAX_MODE_INSTANCE}, &k_layouts[1], 1.0f,
                                     0.0f, 1, B, -4.0, 4.0));
    worst = dmax(worst, backward_once((sm_case){CLDNN_SOFTMAX_ACCURATE, CLDNN_SOFTMAX_MODE_INSTANCE}, &k_layouts[9],
                                      1.0f, 0.0f, B));
    worst = dmax(worst, backward_once((sm_case){CLDNN_SOFTMAX_LOG, CLDNN_SOFTMAX_MODE_CHANNEL}, &k_layouts[8], 0.5f,
                                      0.25f, B));
    setenv("CLDNN_SOLVER", "softmax_tile", 1);
    worst = dmax(worst, forward_run((sm_case){CLDNN_SOFTMAX_FAST, CLDNN_SOFTMAX_MODE_CHANNEL}, &k_tile_layouts[1], 0.5f,
                                    0.25f, 0, B, -4.0, 4.0, 0.1));
    worst = dmax(worst, backward_run((sm_case){CLDNN_SOFTMAX_LOG, CLDNN_SOFTMAX_MODE_CHANNEL}, &k_tile_layouts[3], 1.0f,
                                     0.0f, B, 0.0));
    unsetenv("CLDNN_SOLVER");
    cr_log_info("bfloat16: largest error / tolerance = %.3f", worst);
}

/* The other solvers on the tile's layouts (wi and wg serve them on CPUs and GPUs by default). */
Test(sm_solvers, wi_accurate) { check_forced("wi", CLDNN_SOFTMAX_ACCURATE); }
Test(sm_solvers, wg_log) { check_forced("wg", CLDNN_SOFTMAX_LOG); }
Test(sm_solvers, split_fast) { check_forced("split", CLDNN_SOFTMAX_FAST); }

/* The tile on HALF storage, both directions, large offsets for ACCURATE and LOG. */
Test(sm_solvers, tile_half_and_range) {
    setenv("CLDNN_SOLVER", "softmax_tile", 1);
    double worst = 0;
    for (int a = 0; a < 3; a++) {
        sm_case c = {(cldnnSoftmaxAlgorithm_t)a, CLDNN_SOFTMAX_MODE_CHANNEL};
        worst = dmax(worst, forward_run(c, &k_tile_layouts[1], 0.5f, 0.25f, 0, CLDNN_DATA_HALF, -4.0, 4.0, 0.1));
        worst = dmax(worst, backward_run(c, &k_tile_layouts[3], 1.0f, 0.0f, CLDNN_DATA_HALF, 0.0));
        if (a != CLDNN_SOFTMAX_FAST)
            worst = dmax(worst, forward_run(c, &k_tile_layouts[0], 1.0f, 0.0f, 0, CLDNN_DATA_FLOAT, 996.0, 1004.0, 0.0));
    }
    unsetenv("CLDNN_SOLVER");
    cr_log_info("tile half and range: largest error / tolerance = %.3f", worst);
}

/* A forced tile that does not fit in local memory (8 rows x 2 x 4096 floats backward) is not run
** by another solver in its place: the call reports NOT_SUPPORTED and leaves dx alone. */
Test(sm_solvers, tile_too_long) {
    static const layout l = {"1x4096x1x2", 4, {1, 4096, 1, 2}, {FX_NCHW, {0}, 0}, {FX_NCHW, {0}, 0}, {FX_NCHW, {0}, 0}};
    fx_tensor y, dy, dx;
    make_tensor(&y, &l, &l.a, CLDNN_DATA_FLOAT);
    make_tensor(&dy, &l, &l.c, CLDNN_DATA_FLOAT);
    make_tensor(&dx, &l, &l.b, CLDNN_DATA_FLOAT);
    fx_tensor_poison_random(&y);
    fx_tensor_poison_random(&dy);
    fx_tensor_poison_random(&dx);
    fx_tensor_upload(&y);
    fx_tensor_upload(&dy);
    fx_tensor_upload(&dx);
    float one = 1.0f, zero = 0.0f;
    setenv("CLDNN_SOLVER", "softmax_tile", 1);
    FX_EXPECT_STATUS(CLDNN_STATUS_NOT_SUPPORTED,
                     cldnnSoftmaxBackward(fx_handle(), CLDNN_SOFTMAX_ACCURATE, CLDNN_SOFTMAX_MODE_CHANNEL, &one, y.desc,
                                          y.mem, y.offset, dy.desc, dy.mem, dy.offset, &zero, dx.desc, dx.mem,
                                          dx.offset));
    unsetenv("CLDNN_SOLVER");
    fx_expect_untouched(&dx, "dx", "rejected call");
    fx_tensor_free(&y);
    fx_tensor_free(&dy);
    fx_tensor_free(&dx);
}

/* ---------------------------------------------------------------------------- bad input */

/* Tensors for the bad-input tests: float 2x3x4x5 packed at byte offset 4. */
typedef struct {
    fx_tensor x, y, dy, dx;
} bad_env;

static void bad_env_init(bad_env* e) {
    fx_tensor* ts[4] = {&e->x, &e->y, &e->dy, &e->dx};
    for (int k = 0; k < 4; k++) {
        fx_tensor_4d(ts[k], CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 2, 3, 4, 5, 4);
        fx_tensor_poison_random(ts[k]);
        fx_tensor_upload(ts[k]);
    }
}

static void bad_env_free(bad_env* e) {
    fx_tensor_free(&e->x);
    fx_tensor_free(&e->y);
    fx_tensor_free(&e->dy);
    fx_tensor_free(&e->dx);
}

/* Short names, variadic so that the ARGS_* groups below expand into several arguments. */
#define FWD(...) cldnnSoftmaxForward(__VA_ARGS__)
#define BWD(...) cldnnSoftmaxBackward(__VA_ARGS__)
#define ACC CLDNN_SOFTMAX_ACCURATE
#define INST CLDNN_SOFTMAX_MODE_INSTANCE
#define ARGS_X(t) (t)->desc, (t)->mem, 4
#define ARGS_Y ARGS_X

Test(sm_bad, null_pointers) {
    bad_env e;
    bad_env_init(&e);
    cldnnHandle_t h = fx_handle();
    float one = 1.0f, zero = 0.0f;
    fx_tensor *x = &e.x, *y = &e.y, *dy = &e.dy, *dx = &e.dx;
    const cldnnStatus_t NP = CLDNN_STATUS_BAD_PARAM_NULL_POINTER;
    FX_EXPECT_STATUS(NP, FWD(NULL, ACC, INST, &one, ARGS_X(x), &zero, ARGS_Y(y)));
    FX_EXPECT_STATUS(NP, FWD(h, ACC, INST, NULL, ARGS_X(x), &zero, ARGS_Y(y)));
    FX_EXPECT_STATUS(NP, FWD(h, ACC, INST, &one, NULL, x->mem, 4, &zero, ARGS_Y(y)));
    FX_EXPECT_STATUS(NP, FWD(h, ACC, INST, &one, x->desc, NULL, 4, &zero, ARGS_Y(y)));
    FX_EXPECT_STATUS(NP, FWD(h, ACC, INST, &one, ARGS_X(x), NULL, ARGS_Y(y)));
    FX_EXPECT_STATUS(NP, FWD(h, ACC, INST, &one, ARGS_X(x), &zero, NULL, y->mem, 4));
    FX_EXPECT_STATUS(NP, FWD(h, ACC, INST, &one, ARGS_X(x), &zero, y->desc, NULL, 4));
    FX_EXPECT_STATUS(NP, BWD(NULL, ACC, INST, &one, ARGS_Y(y), ARGS_Y(dy), &zero, ARGS_Y(dx)));
    FX_EXPECT_STATUS(NP, BWD(h, ACC, INST, NULL, ARGS_Y(y), ARGS_Y(dy), &zero, ARGS_Y(dx)));
    FX_EXPECT_STATUS(NP, BWD(h, ACC, INST, &one, NULL, y->mem, 4, ARGS_Y(dy), &zero, ARGS_Y(dx)));
    FX_EXPECT_STATUS(NP, BWD(h, ACC, INST, &one, y->desc, NULL, 4, ARGS_Y(dy), &zero, ARGS_Y(dx)));
    FX_EXPECT_STATUS(NP, BWD(h, ACC, INST, &one, ARGS_Y(y), NULL, dy->mem, 4, &zero, ARGS_Y(dx)));
    FX_EXPECT_STATUS(NP, BWD(h, ACC, INST, &one, ARGS_Y(y), dy->desc, NULL, 4, &zero, ARGS_Y(dx)));
    FX_EXPECT_STATUS(NP, BWD(h, ACC, INST, &one, ARGS_Y(y), ARGS_Y(dy), NULL, ARGS_Y(dx)));
    FX_EXPECT_STATUS(NP, BWD(h, ACC, INST, &one, ARGS_Y(y), ARGS_Y(dy), &zero, NULL, dx->mem, 4));
    FX_EXPECT_STATUS(NP, BWD(h, ACC, INST, &one, ARGS_Y(y), ARGS_Y(dy), &zero, dx->desc, NULL, 4));
    fx_expect_untouched(y, "y", "rejected call");
    fx_expect_untouched(dx, "dx", "rejected call");
    bad_env_free(&e);
}

Test(sm_bad, enums_out_of_range) {
    bad_env e;
    bad_env_init(&e);
    cldnnHandle_t h = fx_handle();
    float one = 1.0f, zero = 0.0f;
    fx_tensor *x = &e.x, *y = &e.y, *dy = &e.dy, *dx = &e.dx;
    const cldnnStatus_t OB = CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND;
    const int bad_algos[] = {3, -1, 100};
    const int bad_modes[] = {2, -1, 100};
    for (int k = 0; k < 3; k++) {
        cldnnSoftmaxAlgorithm_t a = (cldnnSoftmaxAlgorithm_t)bad_algos[k];
        cldnnSoftmaxMode_t m = (cldnnSoftmaxMode_t)bad_modes[k];
        FX_EXPECT_STATUS(OB, FWD(h, a, INST, &one, ARGS_X(x), &zero, ARGS_Y(y)));
        FX_EXPECT_STATUS(OB, FWD(h, ACC, m, &one, ARGS_X(x), &zero, ARGS_Y(y)));
        FX_EXPECT_STATUS(OB, BWD(h, a, INST, &one, ARGS_Y(y), ARGS_Y(dy), &zero, ARGS_Y(dx)));
        FX_EXPECT_STATUS(OB, BWD(h, ACC, m, &one, ARGS_Y(y), ARGS_Y(dy), &zero, ARGS_Y(dx)));
    }
    fx_expect_untouched(y, "y", "rejected call");
    fx_expect_untouched(dx, "dx", "rejected call");
    bad_env_free(&e);
}

Test(sm_bad, shape_mismatch) {
    bad_env e;
    bad_env_init(&e);
    cldnnHandle_t h = fx_handle();
    float one = 1.0f, zero = 0.0f;
    fx_tensor w, c, nd5;
    fx_tensor_4d(&w, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 2, 3, 4, 6, 4); /* w differs */
    fx_tensor_4d(&c, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 2, 4, 4, 5, 4); /* c differs */
    /* same element count, different rank */
    fx_tensor_nd(&nd5, CLDNN_DATA_FLOAT, 5, (const int64_t[]){2, 3, 4, 5, 1}, NULL, 4);
    fx_tensor *x = &e.x, *y = &e.y, *dy = &e.dy, *dx = &e.dx;
    const cldnnStatus_t SM = CLDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH;
    FX_EXPECT_STATUS(SM, FWD(h, ACC, INST, &one, ARGS_X(x), &zero, ARGS_Y(&w)));
    FX_EXPECT_STATUS(SM, FWD(h, ACC, INST, &one, ARGS_X(&w), &zero, ARGS_Y(y)));
    FX_EXPECT_STATUS(SM, FWD(h, ACC, CLDNN_SOFTMAX_MODE_CHANNEL, &one, ARGS_X(&c), &zero, ARGS_Y(y)));
    FX_EXPECT_STATUS(SM, FWD(h, ACC, INST, &one, ARGS_X(x), &zero, ARGS_Y(&nd5)));
    FX_EXPECT_STATUS(SM, BWD(h, ACC, INST, &one, ARGS_Y(&w), ARGS_Y(dy), &zero, ARGS_Y(dx)));
    FX_EXPECT_STATUS(SM, BWD(h, ACC, INST, &one, ARGS_Y(y), ARGS_Y(&w), &zero, ARGS_Y(dx)));
    FX_EXPECT_STATUS(SM, BWD(h, ACC, INST, &one, ARGS_Y(y), ARGS_Y(dy), &zero, ARGS_Y(&w)));
    FX_EXPECT_STATUS(SM, BWD(h, CLDNN_SOFTMAX_LOG, CLDNN_SOFTMAX_MODE_CHANNEL, &one, ARGS_Y(y), ARGS_Y(&c), &zero,
                             ARGS_Y(dx)));
    FX_EXPECT_STATUS(SM, BWD(h, ACC, INST, &one, ARGS_Y(y), ARGS_Y(dy), &zero, ARGS_Y(&nd5)));
    fx_expect_untouched(y, "y", "rejected call");
    fx_expect_untouched(dx, "dx", "rejected call");
    fx_tensor_free(&w);
    fx_tensor_free(&c);
    fx_tensor_free(&nd5);
    bad_env_free(&e);
}

Test(sm_bad, data_types) {
    bad_env e;
    bad_env_init(&e);
    cldnnHandle_t h = fx_handle();
    float one = 1.0f, zero = 0.0f;
    double done = 1.0, dzero = 0.0;
    fx_tensor hf, d1, d2, d3, i1, i2;
    fx_tensor_4d(&hf, CLDNN_TENSOR_NCHW, CLDNN_DATA_HALF, 2, 3, 4, 5, 4);
    fx_tensor_4d(&d1, CLDNN_TENSOR_NCHW, CLDNN_DATA_DOUBLE, 2, 3, 4, 5, 8);
    fx_tensor_4d(&d2, CLDNN_TENSOR_NCHW, CLDNN_DATA_DOUBLE, 2, 3, 4, 5, 8);
    fx_tensor_4d(&d3, CLDNN_TENSOR_NCHW, CLDNN_DATA_DOUBLE, 2, 3, 4, 5, 8);
    fx_tensor_4d(&i1, CLDNN_TENSOR_NCHW, CLDNN_DATA_INT8, 2, 3, 4, 5, 4);
    fx_tensor_4d(&i2, CLDNN_TENSOR_NCHW, CLDNN_DATA_INT8, 2, 3, 4, 5, 4);
    fx_tensor *x = &e.x, *y = &e.y, *dy = &e.dy, *dx = &e.dx;
    const cldnnStatus_t BP = CLDNN_STATUS_BAD_PARAM;
    /* one tensor half, the others float */
    FX_EXPECT_STATUS(BP, FWD(h, ACC, INST, &one, ARGS_X(x), &zero, ARGS_Y(&hf)));
    FX_EXPECT_STATUS(BP, FWD(h, ACC, INST, &one, ARGS_X(&hf), &zero, ARGS_Y(y)));
    FX_EXPECT_STATUS(BP, BWD(h, ACC, INST, &one, ARGS_Y(&hf), ARGS_Y(dy), &zero, ARGS_Y(dx)));
    FX_EXPECT_STATUS(BP, BWD(h, ACC, INST, &one, ARGS_Y(y), ARGS_Y(&hf), &zero, ARGS_Y(dx)));
    FX_EXPECT_STATUS(BP, BWD(h, ACC, INST, &one, ARGS_Y(y), ARGS_Y(dy), &zero, ARGS_Y(&hf)));
    /* DOUBLE (alpha and beta then point to double) and INT8 are not computed */
    const cldnnStatus_t NS = CLDNN_STATUS_NOT_SUPPORTED_DATA_TYPE;
    FX_EXPECT_STATUS(NS, FWD(h, ACC, INST, &done, d1.desc, d1.mem, 8, &dzero, d2.desc, d2.mem, 8));
    FX_EXPECT_STATUS(NS, FWD(h, CLDNN_SOFTMAX_LOG, CLDNN_SOFTMAX_MODE_CHANNEL, &done, d1.desc, d1.mem, 8, &dzero,
                             d2.desc, d2.mem, 8));
    FX_EXPECT_STATUS(NS, BWD(h, ACC, INST, &done, d1.desc, d1.mem, 8, d2.desc, d2.mem, 8, &dzero, d3.desc, d3.mem, 8));
    FX_EXPECT_STATUS(NS, FWD(h, ACC, INST, &one, ARGS_X(&i1), &zero, ARGS_Y(&i2)));
    fx_tensor_free(&hf);
    fx_tensor_free(&d1);
    fx_tensor_free(&d2);
    fx_tensor_free(&d3);
    fx_tensor_free(&i1);
    fx_tensor_free(&i2);
    bad_env_free(&e);
}

/* Softmax needs N and C: a 1-d tensor is BAD_PARAM. */
Test(sm_bad, one_dimensional) {
    cldnnHandle_t h = fx_handle();
    float one = 1.0f, zero = 0.0f;
    fx_tensor a, b, c;
    const int64_t dims[1] = {120};
    fx_tensor_nd(&a, CLDNN_DATA_FLOAT, 1, dims, NULL, 4);
    fx_tensor_nd(&b, CLDNN_DATA_FLOAT, 1, dims, NULL, 4);
    fx_tensor_nd(&c, CLDNN_DATA_FLOAT, 1, dims, NULL, 4);
    fx_tensor_poison_random(&b);
    fx_tensor_upload(&b);
    fx_tensor_poison_random(&c);
    fx_tensor_upload(&c);
    for (int m = 0; m < 2; m++) {
        FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM,
                         FWD(h, ACC, (cldnnSoftmaxMode_t)m, &one, ARGS_X(&a), &zero, ARGS_Y(&b)));
        FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM,
                         BWD(h, CLDNN_SOFTMAX_LOG, (cldnnSoftmaxMode_t)m, &one, ARGS_Y(&a), ARGS_Y(&b), &zero,
                             ARGS_Y(&c)));
    }
    fx_expect_untouched(&b, "y", "rejected 1-d call");
    fx_expect_untouched(&c, "dx", "rejected 1-d call");
    fx_tensor_free(&a);
    fx_tensor_free(&b);
    fx_tensor_free(&c);
}

Test(sm_bad, misaligned_offsets) {
    bad_env e;
    bad_env_init(&e);
    cldnnHandle_t h = fx_handle();
    float one = 1.0f, zero = 0.0f;
    fx_tensor *x = &e.x, *y = &e.y, *dy = &e.dy, *dx = &e.dx;
    const cldnnStatus_t MA = CLDNN_STATUS_BAD_PARAM_MISALIGNED;
    FX_EXPECT_STATUS(MA, FWD(h, ACC, INST, &one, x->desc, x->mem, 2, &zero, ARGS_Y(y)));
    FX_EXPECT_STATUS(MA, FWD(h, ACC, INST, &one, ARGS_X(x), &zero, y->desc, y->mem, 6));
    FX_EXPECT_STATUS(MA, BWD(h, ACC, INST, &one, y->desc, y->mem, 1, ARGS_Y(dy), &zero, ARGS_Y(dx)));
    FX_EXPECT_STATUS(MA, BWD(h, ACC, INST, &one, ARGS_Y(y), dy->desc, dy->mem, 3, &zero, ARGS_Y(dx)));
    FX_EXPECT_STATUS(MA, BWD(h, ACC, INST, &one, ARGS_Y(y), ARGS_Y(dy), &zero, dx->desc, dx->mem, 2));
    fx_expect_untouched(y, "y", "rejected call");
    fx_expect_untouched(dx, "dx", "rejected call");
    /* half: 2-byte elements, so 2 is fine and 1 is not */
    fx_tensor hx, hy;
    fx_tensor_4d(&hx, CLDNN_TENSOR_NCHW, CLDNN_DATA_HALF, 2, 3, 4, 5, 4);
    fx_tensor_4d(&hy, CLDNN_TENSOR_NCHW, CLDNN_DATA_HALF, 2, 3, 4, 5, 4);
    fx_tensor_poison_random(&hx);
    fx_tensor_upload(&hx);
    FX_EXPECT_STATUS(MA, FWD(h, ACC, INST, &one, hx.desc, hx.mem, 1, &zero, hy.desc, hy.mem, 2));
    FX_EXPECT_STATUS(MA, FWD(h, ACC, INST, &one, hx.desc, hx.mem, 2, &zero, hy.desc, hy.mem, 3));
    FX_OK(FWD(h, ACC, INST, &one, hx.desc, hx.mem, 2, &zero, hy.desc, hy.mem, 2));
    fx_finish();
    fx_tensor_free(&hx);
    fx_tensor_free(&hy);
    bad_env_free(&e);
}

Test(sm_bad, buffer_too_small) {
    cldnnHandle_t h = fx_handle();
    float one = 1.0f, zero = 0.0f;
    cldnnTensorDescriptor_t d, dp;
    FX_OK(cldnnCreateTensorDescriptor(&d));
    FX_OK(cldnnSetTensor4dDescriptor(d, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 2, 3, 4, 5));
    FX_OK(cldnnCreateTensorDescriptor(&dp)); /* padded: span 1 + 1*200 + 2*60 + 3*12 + 4*2 = 365 */
    FX_OK(cldnnSetTensor4dDescriptorEx(dp, CLDNN_DATA_FLOAT, 2, 3, 4, 5, 200, 60, 12, 2));
    const size_t bytes = 120 * 4;
    cl_mem exact = fx_buffer(bytes + 8), small = fx_buffer(bytes - 4), big = fx_buffer(365 * 4 + 16),
           big2 = fx_buffer(365 * 4 + 16);
    float init[365 + 4];
    for (size_t i = 0; i < sizeof init / sizeof init[0]; i++)
        init[i] = fx_uniform(-4.0, 4.0);
    fx_write_floats(exact, 0, init, 122);
    fx_write_floats(big, 0, init, 365 + 4);
    const cldnnStatus_t SI = CLDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT;
    /* exactly enough: offset 8 + 480 bytes fits a 488-byte buffer */
    FX_OK(FWD(h, ACC, INST, &one, d, exact, 8, &zero, d, exact, 8));
    FX_EXPECT_STATUS(SI, FWD(h, ACC, INST, &one, d, exact, 12, &zero, d, big, 0));
    FX_EXPECT_STATUS(SI, FWD(h, ACC, INST, &one, d, big, 0, &zero, d, exact, 12));
    FX_EXPECT_STATUS(SI, FWD(h, ACC, INST, &one, d, small, 0, &zero, d, big, 0));
    /* the strided span counts, not the element count */
    FX_OK(FWD(h, ACC, INST, &one, dp, big, 16, &zero, dp, big, 16));
    FX_EXPECT_STATUS(SI, FWD(h, ACC, INST, &one, dp, big, 20, &zero, d, exact, 0));
    FX_EXPECT_STATUS(SI, FWD(h, ACC, INST, &one, d, big, 0, &zero, dp, exact, 0));
    FX_OK(BWD(h, ACC, INST, &one, d, big, 0, d, exact, 8, &zero, d, big2, 0));
    FX_EXPECT_STATUS(SI, BWD(h, ACC, INST, &one, d, small, 0, d, big, 0, &zero, d, big, 0));
    FX_EXPECT_STATUS(SI, BWD(h, ACC, INST, &one, d, big, 0, d, small, 0, &zero, d, big, 0));
    FX_EXPECT_STATUS(SI, BWD(h, ACC, INST, &one, d, big, 0, d, big, 0, &zero, d, small, 0));
    FX_EXPECT_STATUS(SI, BWD(h, ACC, INST, &one, d, big, 0, d, exact, 12, &zero, d, big, 0));
    FX_EXPECT_STATUS(SI, BWD(h, ACC, INST, &one, dp, big, 0, dp, big, 0, &zero, dp, exact, 0));
    fx_finish();
    fx_release(exact);
    fx_release(small);
    fx_release(big);
    fx_release(big2);
    cldnnDestroyTensorDescriptor(d);
    cldnnDestroyTensorDescriptor(dp);
}

Test(sm_bad, never_set_descriptor) {
    bad_env e;
    bad_env_init(&e);
    cldnnHandle_t h = fx_handle();
    float one = 1.0f, zero = 0.0f;
    cldnnTensorDescriptor_t unset;
    FX_OK(cldnnCreateTensorDescriptor(&unset));
    fx_tensor *x = &e.x, *y = &e.y, *dy = &e.dy, *dx = &e.dx;
    const cldnnStatus_t BP = CLDNN_STATUS_BAD_PARAM;
    FX_EXPECT_STATUS(BP, FWD(h, ACC, INST, &one, unset, x->mem, 4, &zero, ARGS_Y(y)));
    FX_EXPECT_STATUS(BP, FWD(h, ACC, INST, &one, ARGS_X(x), &zero, unset, y->mem, 4));
    FX_EXPECT_STATUS(BP, BWD(h, ACC, INST, &one, unset, y->mem, 4, ARGS_Y(dy), &zero, ARGS_Y(dx)));
    FX_EXPECT_STATUS(BP, BWD(h, ACC, INST, &one, ARGS_Y(y), ARGS_Y(dy), &zero, unset, dx->mem, 4));
    fx_expect_untouched(y, "y", "rejected call");
    fx_expect_untouched(dx, "dx", "rejected call");
    cldnnDestroyTensorDescriptor(unset);
    bad_env_free(&e);
}
