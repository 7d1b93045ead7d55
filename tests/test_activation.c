/*
** test_activation.c: cldnnActivationForward / cldnnActivationBackward against the double
** reference (tests/ref) and against finite differences of the library's own forward.
**
** Per mode (every cldnnActivationMode_t value, SWISH also with a non-default beta):
**   act_forward::<mode>    y = alpha*act(x) + beta*y over a table of layouts: offsets on every
**                          buffer, padded strides (4dEx, Nd with gaps), NHWC x with NCHW y, odd
**                          sizes, 1-d and 5-d tensors, one larger tensor, in place; alpha/beta
**                          (1,0) (0.5,0.25) (2,-1). Outputs are poisoned first (NaN when beta==0,
**                          random otherwise) and every byte outside the view is checked unchanged.
**   act_backward::<mode>   dx = alpha*act'(x)*dy + beta*dx over the same layouts; SIGMOID and TANH
**                          read y (x is NaN-poisoned to prove it), the others read x (y poisoned).
**   act_gradcheck::<mode>  central differences of the library's forward vs its backward.
**   act_forward::mode_as_argument  every mode forward and backward over the layouts with the mode
**                          a kernel argument instead of a build constant (the elementwise solvers'
**                          parameter set "f0", CLDNN_SOLVER_PARAMS), a path the defaults never take.
** Plus NaN propagation, HALF storage, and every bad input the contract names.
**
** Inputs are uniform in [-3, 3], never 0, and kept 1e-2 away from kinks (0, and coef for
** CLIPPED_RELU); the gradient check keeps them 0.1 away, more than its step h <= 0.03.
** Tolerance: |got - want| <= atol + rtol * (|alpha*f| + |beta*prior|), i.e. relative to the size
** of the terms, so that cancellation in alpha*f + beta*y does not demand impossible accuracy.
*/
#include "fixture.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

TestSuite(act_forward, .fini = fx_fini);
TestSuite(act_backward, .fini = fx_fini);
TestSuite(act_gradcheck, .fini = fx_fini);
TestSuite(act_nan, .fini = fx_fini);
TestSuite(act_half, .fini = fx_fini);
TestSuite(act_bf16, .fini = fx_fini);
TestSuite(act_bad, .fini = fx_fini);

/* ------------------------------------------------------------------------------- cases */

typedef struct {
    const char* name;
    cldnnActivationMode_t mode;
    double coef;
    double swish_beta;
    double rtol; /* forward and backward */
} act_case;

#define RTOL 1e-5
#define ATOL 1e-6

static const act_case k_sigmoid = {"sigmoid", CLDNN_ACTIVATION_SIGMOID, 0.0, 1.0, RTOL};
static const act_case k_relu = {"relu", CLDNN_ACTIVATION_RELU, 0.0, 1.0, RTOL};
static const act_case k_tanh = {"tanh", CLDNN_ACTIVATION_TANH, 0.0, 1.0, RTOL};
static const act_case k_clipped = {"clipped_relu", CLDNN_ACTIVATION_CLIPPED_RELU, 1.5, 1.0, RTOL};
static const act_case k_elu = {"elu", CLDNN_ACTIVATION_ELU, 0.7, 1.0, RTOL};
static const act_case k_identity = {"identity", CLDNN_ACTIVATION_IDENTITY, 0.0, 1.0, RTOL};
static const act_case k_swish = {"swish", CLDNN_ACTIVATION_SWISH, 0.0, 1.0, RTOL};
static const act_case k_swish_b = {"swish_beta_1.7", CLDNN_ACTIVATION_SWISH, 0.0, 1.7, RTOL};
static const act_case k_leaky = {"leaky_relu", CLDNN_ACTIVATION_LEAKY_RELU, 0.1, 1.0, RTOL};
static const act_case k_softplus = {"softplus", CLDNN_ACTIVATION_SOFTPLUS, 0.0, 1.0, RTOL};
static const act_case k_abs = {"abs", CLDNN_ACTIVATION_ABS, 0.0, 1.0, RTOL};
static const act_case k_gelu = {"gelu", CLDNN_ACTIVATION_GELU, 0.0, 1.0, RTOL};

/* Modes whose backward reads y instead of x. */
static int reads_y(cldnnActivationMode_t m) { return m == CLDNN_ACTIVATION_SIGMOID || m == CLDNN_ACTIVATION_TANH; }

/* A set activation descriptor for c and nanOpt. */
static cldnnActivationDescriptor_t make_act(const act_case* c, cldnnNanPropagation_t nan) {
    cldnnActivationDescriptor_t a = NULL;
    FX_OK(cldnnCreateActivationDescriptor(&a));
    FX_OK(cldnnSetActivationDescriptor(a, c->mode, nan, c->coef));
    FX_OK(cldnnSetActivationDescriptorSwishBeta(a, c->swish_beta));
    return a;
}

static const char* dt_name(cldnnDataType_t dt) {
    return dt == CLDNN_DATA_HALF ? "half" : dt == CLDNN_DATA_BFLOAT16 ? "bfloat16" : "float";
}

/* A uniform input in [-3, 3] at least `margin` away from c's kinks. */
static float draw_x(const act_case* c, double margin) {
    for (;;) {
        float x = fx_uniform(-3.0, 3.0);
        if (fabs(x) <= margin)
            continue;
        if (c->mode == CLDNN_ACTIVATION_CLIPPED_RELU && fabs(x - c->coef) <= margin)
            continue;
        return x;
    }
}

/* Fills every element of t's view with draw_x. */
static void fill_x(fx_tensor* t, const act_case* c, double margin) {
    for (int64_t i = 0; i < t->count; i++) {
        float x = draw_x(c, margin);
        while (fabs(fx_round_dtype(t->dtype, x)) <= margin ||
               (c->mode == CLDNN_ACTIVATION_CLIPPED_RELU && fabs(fx_round_dtype(t->dtype, x) - c->coef) <= margin))
            x = draw_x(c, margin);
        fx_tensor_set(t, i, x);
    }
}

/* act'(x) in double, or for y-reading modes the derivative as a function of the y passed. */
static double ref_deriv(const act_case* c, double x, double y) {
    if (c->mode == CLDNN_ACTIVATION_SIGMOID)
        return y * (1.0 - y);
    if (c->mode == CLDNN_ACTIVATION_TANH)
        return 1.0 - y * y;
    return ref_act_derivative((int)c->mode, c->coef, c->swish_beta, x);
}

/* -------------------------------------------------------------------------------- layouts */

/* How one tensor of a case is described: fx_tdesc, the fixture's forms (common/fixture.h). */

typedef struct {
    const char* name;
    int nd;
    int64_t dims[8];
    fx_tdesc in, out; /* forward: x, y. backward: x and y use `in`, dy and dx use `out` */
} layout;

static const layout k_layouts[] = {
    {"3x5x7x11 nchw, offsets", 4, {3, 5, 7, 11}, {FX_NCHW, {0}, 7}, {FX_NCHW, {0}, 3}},
    {"2x3x17x19 nchw", 4, {2, 3, 17, 19}, {FX_NCHW, {0}, 5}, {FX_NCHW, {0}, 7}},
    {"1x1x1x1", 4, {1, 1, 1, 1}, {FX_NCHW, {0}, 1}, {FX_NCHW, {0}, 5}},
    {"2x3x5x7 padded 4dEx", 4, {2, 3, 5, 7}, {FX_EX, {256, 83, 16, 2}, 7}, {FX_EX, {160, 50, 9, 1}, 4}},
    {"2x5x3x7 nhwc -> nchw", 4, {2, 5, 3, 7}, {FX_NHWC, {0}, 7}, {FX_NCHW, {0}, 7}},
    {"2x5x3x7 nchw -> nhwc", 4, {2, 5, 3, 7}, {FX_NCHW, {0}, 2}, {FX_NHWC, {0}, 9}},
    {"37 1-d strided", 1, {37}, {FX_ND, {1}, 7}, {FX_ND, {3}, 1}},
    {"2x3x4x3x5 5-d gaps", 5, {2, 3, 4, 3, 5}, {FX_ND, {400, 120, 28, 8, 1}, 7}, {FX_ND, {0}, 3}},
    {"2x64x31x33 nchw", 4, {2, 64, 31, 33}, {FX_NCHW, {0}, 7}, {FX_NCHW, {0}, 1}},
};
#define NLAYOUTS (sizeof k_layouts / sizeof k_layouts[0])


/* Creates t for layout l's tensor description d (data type dt). */
static void make_tensor(fx_tensor* t, const layout* l, const fx_tdesc* d, cldnnDataType_t dt) {
    fx_tensor_from_desc(t, l->nd, l->dims, d, dt);
}


/* ------------------------------------------------------------------------------- forward */

/* Checks one forward run of case c on layout l with (alpha, beta); in place when inplace.
** Returns the largest error-to-tolerance ratio seen. */
static double forward_once(const act_case* c, const layout* l, float alpha, float beta, int inplace,
                           cldnnDataType_t dt, double rtol, double atol) {
    fx_tensor x, y;
    memset(&y, 0, sizeof y);
    make_tensor(&x, l, &l->in, dt);
    fx_tensor_poison_random(&x);
    fill_x(&x, c, 1e-2);
    fx_tensor* out = &x;
    if (!inplace) {
        make_tensor(&y, l, &l->out, dt);
        fx_poison_out(&y, beta);
        out = &y;
        fx_tensor_upload(&y);
    }
    fx_tensor_upload(&x);
    double* want = malloc((size_t)x.count * sizeof(double));
    double* scale = malloc((size_t)x.count * sizeof(double));
    FX_ASSERT(want && scale, "out of memory");
    for (int64_t i = 0; i < x.count; i++) {
        double f = alpha * ref_act_forward((int)c->mode, c->coef, c->swish_beta, fx_tensor_host(&x, i));
        double prior = beta != 0.0f ? beta * fx_tensor_host(out, i) : 0.0;
        want[i] = f + prior;
        scale[i] = fabs(f) + fabs(prior);
    }
    cldnnActivationDescriptor_t a = make_act(c, CLDNN_PROPAGATE_NAN);
    FX_OK(cldnnActivationForward(fx_handle(), a, &alpha, x.desc, x.mem, x.offset, &beta, out->desc, out->mem,
                                 out->offset));
    fx_tensor_download(out);
    char msg[512];
    double worst = 0;
    int64_t bad = fx_compare(out, want, scale, atol, rtol, msg, sizeof msg, &worst);
    FX_ASSERT(bad == 0, "forward %s, layout \"%s\"%s, %s, alpha %g beta %g: %lld of %lld wrong; first: %s", c->name,
              l->name, inplace ? " in place" : "", dt_name(dt), alpha, beta,
              (long long)bad, (long long)x.count, msg);
    int64_t gaps = fx_tensor_gaps_changed(out);
    FX_ASSERT(gaps == 0, "forward %s, layout \"%s\"%s, alpha %g beta %g: %lld elements outside the view changed",
              c->name, l->name, inplace ? " in place" : "", alpha, beta, (long long)gaps);
    if (!inplace) {
        fx_tensor_download(&x);
        FX_ASSERT(memcmp(x.host, x.got, x.nbuf * x.elem) == 0, "forward %s, layout \"%s\": x was modified", c->name,
                  l->name);
        fx_tensor_free(&y);
    }
    cldnnDestroyActivationDescriptor(a);
    free(want);
    free(scale);
    fx_tensor_free(&x);
    return worst;
}

/* Every layout with every (alpha, beta), plus in place. */
static void check_forward(const act_case* c) {
    double worst = 0;
    for (size_t l = 0; l < NLAYOUTS; l++)
        for (size_t ab = 0; ab < FX_NAB; ab++) {
            if (l == NLAYOUTS - 1 && ab > 0)
                continue; /* the large layout once */
            double w = forward_once(c, &k_layouts[l], fx_alpha_beta[ab][0], fx_alpha_beta[ab][1], 0, CLDNN_DATA_FLOAT, c->rtol, ATOL);
            worst = w > worst ? w : worst;
        }
    for (size_t ab = 0; ab < 2; ab++) {
        double w = forward_once(c, &k_layouts[0], fx_alpha_beta[ab][0], fx_alpha_beta[ab][1], 1, CLDNN_DATA_FLOAT, c->rtol, ATOL);
        worst = w > worst ? w : worst;
        w = forward_once(c, &k_layouts[3], fx_alpha_beta[ab][0], fx_alpha_beta[ab][1], 1, CLDNN_DATA_FLOAT, c->rtol, ATOL);
        worst = w > worst ? w : worst;
    }
    cr_log_info("forward %s: largest error / tolerance = %.3f (rtol %g, atol %g)", c->name, worst, c->rtol, ATOL);
}

/* ------------------------------------------------------------------------------ backward */

/* One backward run: x and y on l->in (y = float(act(x)), consistent), dy and dx on l->out.
** The input the mode must not read is NaN-poisoned. Returns the worst error ratio. */
static double backward_once(const act_case* c, const layout* l, float alpha, float beta, cldnnDataType_t dt,
                            double rtol, double atol) {
    fx_tensor x, y, dy, dx;
    layout ly = *l, ldy = *l;
    ly.in.offset += 3;
    ldy.out.offset += 5;
    make_tensor(&x, l, &l->in, dt);
    make_tensor(&y, &ly, &ly.in, dt);
    make_tensor(&dy, &ldy, &ldy.out, dt);
    make_tensor(&dx, l, &l->out, dt);
    fx_tensor_poison_random(&x);
    fx_tensor_poison_random(&y);
    fx_tensor_poison_random(&dy);
    fx_poison_out(&dx, beta);
    fill_x(&x, c, 1e-2);
    for (int64_t i = 0; i < x.count; i++)
        fx_tensor_set(&y, i, (float)ref_act_forward((int)c->mode, c->coef, c->swish_beta, fx_tensor_host(&x, i)));
    fx_tensor_fill_uniform(&dy, -2.0, 2.0);

    double* want = malloc((size_t)x.count * sizeof(double));
    double* scale = malloc((size_t)x.count * sizeof(double));
    FX_ASSERT(want && scale, "out of memory");
    for (int64_t i = 0; i < x.count; i++) {
        double d = ref_deriv(c, fx_tensor_host(&x, i), fx_tensor_host(&y, i));
        double g = alpha * d * fx_tensor_host(&dy, i);
        double prior = beta != 0.0f ? beta * fx_tensor_host(&dx, i) : 0.0;
        want[i] = g + prior;
        scale[i] = fabs(g) + fabs(prior);
    }
    /* the contract: SIGMOID/TANH read y and dy, the others x and dy */
    if (reads_y(c->mode))
        fx_tensor_poison_nan(&x);
    else
        fx_tensor_poison_nan(&y);
    fx_tensor_upload(&x);
    fx_tensor_upload(&y);
    fx_tensor_upload(&dy);
    fx_tensor_upload(&dx);

    cldnnActivationDescriptor_t a = make_act(c, CLDNN_PROPAGATE_NAN);
    FX_OK(cldnnActivationBackward(fx_handle(), a, &alpha, y.desc, y.mem, y.offset, dy.desc, dy.mem, dy.offset, x.desc,
                                  x.mem, x.offset, &beta, dx.desc, dx.mem, dx.offset));
    fx_tensor_download(&dx);
    char msg[512];
    double worst = 0;
    int64_t bad = fx_compare(&dx, want, scale, atol, rtol, msg, sizeof msg, &worst);
    FX_ASSERT(bad == 0, "backward %s, layout \"%s\", %s, alpha %g beta %g: %lld of %lld wrong; first: %s", c->name,
              l->name, dt_name(dt), alpha, beta, (long long)bad, (long long)dx.count, msg);
    int64_t gaps = fx_tensor_gaps_changed(&dx);
    FX_ASSERT(gaps == 0, "backward %s, layout \"%s\", alpha %g beta %g: %lld elements outside dx's view changed",
              c->name, l->name, alpha, beta, (long long)gaps);
    fx_tensor* ins[3] = {&x, &y, &dy};
    for (int k = 0; k < 3; k++) {
        fx_tensor_download(ins[k]);
        FX_ASSERT(memcmp(ins[k]->host, ins[k]->got, ins[k]->nbuf * ins[k]->elem) == 0,
                  "backward %s, layout \"%s\": input %d (x, y, dy) was modified", c->name, l->name, k);
    }
    cldnnDestroyActivationDescriptor(a);
    free(want);
    free(scale);
    fx_tensor_free(&x);
    fx_tensor_free(&y);
    fx_tensor_free(&dy);
    fx_tensor_free(&dx);
    return worst;
}

/* Every layout with every (alpha, beta) (the large layout once). */
static void check_backward(const act_case* c) {
    double worst = 0;
    for (size_t l = 0; l < NLAYOUTS; l++)
        for (size_t ab = 0; ab < FX_NAB; ab++) {
            if (l == NLAYOUTS - 1 && ab > 0)
                continue;
            double w = backward_once(c, &k_layouts[l], fx_alpha_beta[ab][0], fx_alpha_beta[ab][1], CLDNN_DATA_FLOAT, c->rtol, ATOL);
            worst = w > worst ? w : worst;
        }
    cr_log_info("backward %s: largest error / tolerance = %.3f (rtol %g, atol %g)", c->name, worst, c->rtol, ATOL);
}

/* ------------------------------------------------------------------------- gradient check */

/* The library's backward at x (dy = 1, alpha 1, beta 0) against the central difference
** (f(x+h) - f(x-h)) / ((x+h) - (x-h)) of the library's forward, h = 1e-2 * max(1, |x|). */
static void check_gradient(const act_case* c) {
    enum { N = 257 };
    const int64_t dims[1] = {N};
    fx_tensor x, xp, xm, y, yp, ym, dy, dx;
    fx_tensor* all[8] = {&x, &xp, &xm, &y, &yp, &ym, &dy, &dx};
    for (int k = 0; k < 8; k++) {
        fx_tensor_nd(all[k], CLDNN_DATA_FLOAT, 1, dims, NULL, 4 * (size_t)k);
        fx_tensor_poison_nan(all[k]);
    }
    double hh[N];
    for (int64_t i = 0; i < N; i++) {
        float v = draw_x(c, 0.1);
        double h = 1e-2 * fmax(1.0, fabs(v));
        float p = (float)(v + h), m = (float)(v - h);
        hh[i] = (double)p - (double)m;
        fx_tensor_set(&x, i, v);
        fx_tensor_set(&xp, i, p);
        fx_tensor_set(&xm, i, m);
        fx_tensor_set(&dy, i, 1.0);
    }
    for (int k = 0; k < 8; k++)
        fx_tensor_upload(all[k]);
    cldnnActivationDescriptor_t a = make_act(c, CLDNN_PROPAGATE_NAN);
    float one = 1.0f, zero = 0.0f;
    cldnnHandle_t h = fx_handle();
    FX_OK(cldnnActivationForward(h, a, &one, x.desc, x.mem, x.offset, &zero, y.desc, y.mem, y.offset));
    FX_OK(cldnnActivationForward(h, a, &one, xp.desc, xp.mem, xp.offset, &zero, yp.desc, yp.mem, yp.offset));
    FX_OK(cldnnActivationForward(h, a, &one, xm.desc, xm.mem, xm.offset, &zero, ym.desc, ym.mem, ym.offset));
    FX_OK(cldnnActivationBackward(h, a, &one, y.desc, y.mem, y.offset, dy.desc, dy.mem, dy.offset, x.desc, x.mem,
                                  x.offset, &zero, dx.desc, dx.mem, dx.offset));
    fx_tensor_download(&yp);
    fx_tensor_download(&ym);
    fx_tensor_download(&dx);
    double worst = 0;
    for (int64_t i = 0; i < N; i++) {
        double fd = (fx_tensor_got(&yp, i) - fx_tensor_got(&ym, i)) / hh[i];
        double g = fx_tensor_got(&dx, i);
        double tol = 1e-3 + 1e-2 * fabs(fd);
        double err = fabs(g - fd);
        worst = err / tol > worst ? err / tol : worst;
        FX_ASSERT(err <= tol, "gradcheck %s at x = %.9g: backward %.9g, finite difference %.9g (f(x+h) %.9g, "
                              "f(x-h) %.9g, 2h %.6g)",
                  c->name, fx_tensor_host(&x, i), g, fd, fx_tensor_got(&yp, i), fx_tensor_got(&ym, i), hh[i]);
    }
    cr_log_info("gradcheck %s: largest error / tolerance = %.3f", c->name, worst);
    cldnnDestroyActivationDescriptor(a);
    for (int k = 0; k < 8; k++)
        fx_tensor_free(all[k]);
}

/* One test per mode and concern. */
#define MODE_TESTS(id, c)                                     \
    Test(act_forward, id) { check_forward(&(c)); }            \
    Test(act_backward, id) { check_backward(&(c)); }          \
    Test(act_gradcheck, id) { check_gradient(&(c)); }

MODE_TESTS(sigmoid, k_sigmoid)
MODE_TESTS(relu, k_relu)
MODE_TESTS(tanh, k_tanh)
MODE_TESTS(clipped_relu, k_clipped)
MODE_TESTS(elu, k_elu)
MODE_TESTS(identity, k_identity)
MODE_TESTS(swish, k_swish)
MODE_TESTS(swish_beta, k_swish_b)
MODE_TESTS(leaky_relu, k_leaky)
MODE_TESTS(softplus, k_softplus)
MODE_TESTS(abs, k_abs)
MODE_TESTS(gelu, k_gelu)

/* The kernels' run-time mode switch, kept for comparisons with the folded programs: every
** elementwise solver's parameter set "f0". The table's layouts reach eltwise_contig and
** eltwise_strided; a transpose with both sides at least 8 long reaches eltwise_tiled. */
Test(act_forward, mode_as_argument) {
    static const act_case* const cs[] = {&k_sigmoid, &k_relu,  &k_tanh,  &k_clipped,  &k_elu, &k_identity,
                                         &k_swish,   &k_swish_b, &k_leaky, &k_softplus, &k_abs, &k_gelu};
    static const layout transpose = {"2x16x9x12 nhwc -> nchw", 4, {2, 16, 9, 12}, {FX_NHWC, {0}, 3},
                                     {FX_NCHW, {0}, 5}};
    setenv("CLDNN_SOLVER_PARAMS", "eltwise_contig:f0;eltwise_tiled:f0;eltwise_strided:f0", 1);
    for (size_t k = 0; k < sizeof cs / sizeof cs[0]; k++) {
        check_forward(cs[k]);
        check_backward(cs[k]);
        forward_once(cs[k], &transpose, 0.5f, 0.25f, 0, CLDNN_DATA_FLOAT, cs[k]->rtol, ATOL);
    }
    unsetenv("CLDNN_SOLVER_PARAMS");
}

/* ---------------------------------------------------------------------------------- NaN */

/* Forward of x = [NaN, 1.0, NaN, -1.0, ...] with alpha 1 beta 0; returns the outputs in out. */
static void forward_with_nans(const act_case* c, cldnnNanPropagation_t nan, float* out, int n) {
    fx_tensor x, y;
    const int64_t dims[1] = {n};
    fx_tensor_nd(&x, CLDNN_DATA_FLOAT, 1, dims, NULL, 4);
    fx_tensor_nd(&y, CLDNN_DATA_FLOAT, 1, dims, NULL, 8);
    fx_tensor_poison_random(&x);
    fx_tensor_poison_random(&y);
    for (int i = 0; i < n; i++)
        fx_tensor_set(&x, i, i % 2 == 0 ? NAN : (i % 4 == 1 ? 1.0 : -1.0));
    fx_tensor_upload(&x);
    fx_tensor_upload(&y);
    cldnnActivationDescriptor_t a = make_act(c, nan);
    float one = 1.0f, zero = 0.0f;
    FX_OK(cldnnActivationForward(fx_handle(), a, &one, x.desc, x.mem, x.offset, &zero, y.desc, y.mem, y.offset));
    fx_tensor_download(&y);
    for (int i = 0; i < n; i++)
        out[i] = (float)fx_tensor_got(&y, i);
    cldnnDestroyActivationDescriptor(a);
    fx_tensor_free(&x);
    fx_tensor_free(&y);
}

Test(act_nan, relu_and_clipped_relu) {
    const act_case* cs[2] = {&k_relu, &k_clipped};
    enum { N = 24 };
    float out[N];
    for (int k = 0; k < 2; k++) {
        forward_with_nans(cs[k], CLDNN_NOT_PROPAGATE_NAN, out, N);
        for (int i = 0; i < N; i++) {
            float want = i % 2 == 0 ? 0.0f : (i % 4 == 1 ? 1.0f : 0.0f);
            FX_ASSERT(out[i] == want, "%s NOT_PROPAGATE_NAN: element %d (x = %s) gave %g, want %g", cs[k]->name, i,
                      i % 2 == 0 ? "NaN" : "+-1", out[i], want);
        }
        forward_with_nans(cs[k], CLDNN_PROPAGATE_NAN, out, N);
        for (int i = 0; i < N; i++) {
            if (i % 2 == 0)
                FX_ASSERT(isnan(out[i]), "%s PROPAGATE_NAN: NaN input %d gave %g", cs[k]->name, i, out[i]);
            else
                FX_ASSERT(out[i] == (i % 4 == 1 ? 1.0f : 0.0f), "%s PROPAGATE_NAN: element %d gave %g", cs[k]->name, i,
                          out[i]);
        }
    }
}

Test(act_nan, other_modes_always_propagate) {
    const act_case* cs[] = {&k_sigmoid, &k_tanh, &k_elu, &k_identity, &k_swish, &k_leaky, &k_softplus, &k_abs, &k_gelu};
    enum { N = 16 };
    float out[N];
    for (size_t k = 0; k < sizeof cs / sizeof cs[0]; k++)
        for (int nan = 0; nan <= 1; nan++) {
            forward_with_nans(cs[k], (cldnnNanPropagation_t)nan, out, N);
            for (int i = 0; i < N; i++) {
                if (i % 2 == 0) {
                    FX_ASSERT(isnan(out[i]), "%s nanOpt %d: NaN input %d gave %g", cs[k]->name, nan, i, out[i]);
                } else {
                    double x = i % 4 == 1 ? 1.0 : -1.0;
                    double want = ref_act_forward((int)cs[k]->mode, cs[k]->coef, cs[k]->swish_beta, x);
                    FX_ASSERT(fabs(out[i] - want) <= 1e-6 + 1e-5 * fabs(want), "%s: element %d (x=%g) gave %g, want %g",
                              cs[k]->name, i, x, out[i], want);
                }
            }
        }
}

/* --------------------------------------------------------------------------------- HALF */

#define HALF_RTOL 2e-3
#define HALF_ATOL 1e-4

Test(act_half, forward) {
    const act_case* cs[] = {&k_relu, &k_sigmoid, &k_gelu};
    const size_t ls[] = {0, 3, 4}; /* offsets, padded 4dEx, NHWC -> NCHW */
    double worst = 0;
    for (size_t k = 0; k < sizeof cs / sizeof cs[0]; k++)
        for (size_t l = 0; l < sizeof ls / sizeof ls[0]; l++)
            for (size_t ab = 0; ab < FX_NAB; ab++) {
                double w = forward_once(cs[k], &k_layouts[ls[l]], fx_alpha_beta[ab][0], fx_alpha_beta[ab][1], 0, CLDNN_DATA_HALF,
                                        HALF_RTOL, HALF_ATOL);
                worst = w > worst ? w : worst;
            }
    cr_log_info("half forward: largest error / tolerance = %.3f", worst);
}

Test(act_half, backward) {
    const act_case* cs[] = {&k_relu, &k_tanh, &k_elu};
    const size_t ls[] = {0, 3, 5};
    double worst = 0;
    for (size_t k = 0; k < sizeof cs / sizeof cs[0]; k++)
        for (size_t l = 0; l < sizeof ls / sizeof ls[0]; l++)
            for (size_t ab = 0; ab < FX_NAB; ab++) {
                double w = backward_once(cs[k], &k_layouts[ls[l]], fx_alpha_beta[ab][0], fx_alpha_beta[ab][1], CLDNN_DATA_HALF,
                                         HALF_RTOL, HALF_ATOL);
                worst = w > worst ? w : worst;
            }
    cr_log_info("half backward: largest error / tolerance = %.3f", worst);
}

#define BF16_RTOL 8e-3
#define BF16_ATOL 1e-3

/* bfloat16 storage: the same math, one rounding per output; the vector (contig), strided and
** transposing paths. */
Test(act_bf16, forward_backward) {
    const act_case* cs[] = {&k_tanh, &k_gelu};
    /* 16-byte-aligned offsets: the 4-wide vector loads and stores */
    static const layout aligned = {"2x5x12x33 nchw, aligned", 4, {2, 5, 12, 33}, {FX_NCHW, {0}, 8}, {FX_NCHW, {0}, 4}};
    const layout* ls[] = {&k_layouts[0], &k_layouts[3], &k_layouts[4], &aligned};
    double worst = 0;
    for (size_t k = 0; k < sizeof cs / sizeof cs[0]; k++)
        for (size_t l = 0; l < sizeof ls / sizeof ls[0]; l++) {
            const float* ab = fx_alpha_beta[(k + l) % FX_NAB];
            double w = forward_once(cs[k], ls[l], ab[0], ab[1], 0, CLDNN_DATA_BFLOAT16, BF16_RTOL, BF16_ATOL);
            worst = w > worst ? w : worst;
            w = backward_once(cs[k], ls[l], ab[0], ab[1], CLDNN_DATA_BFLOAT16, BF16_RTOL, BF16_ATOL);
            worst = w > worst ? w : worst;
        }
    worst = fmax(worst, forward_once(&k_swish, &aligned, 0.5f, 0.25f, 1, CLDNN_DATA_BFLOAT16, BF16_RTOL, BF16_ATOL));
    cr_log_info("bfloat16: largest error / tolerance = %.3f", worst);
}

Test(act_half, in_place) {
    double w = forward_once(&k_swish, &k_layouts[0], 0.5f, 0.25f, 1, CLDNN_DATA_HALF, HALF_RTOL, HALF_ATOL);
    cr_log_info("half in place: largest error / tolerance = %.3f", w);
}

/* ---------------------------------------------------------------------------- bad input */

/* Tensors for the bad-input tests: float 2x3x4x5 packed. */
typedef struct {
    fx_tensor x, y, dy, dx;
    cldnnActivationDescriptor_t relu, sigmoid;
} bad_env;

/* Creates and uploads four random 2x3x4x5 tensors (offset 4 bytes) and the two descriptors. */
static void bad_env_init(bad_env* e) {
    fx_tensor* ts[4] = {&e->x, &e->y, &e->dy, &e->dx};
    for (int k = 0; k < 4; k++) {
        fx_tensor_4d(ts[k], CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 2, 3, 4, 5, 4);
        fx_tensor_poison_random(ts[k]);
        fx_tensor_upload(ts[k]);
    }
    e->relu = make_act(&k_relu, CLDNN_NOT_PROPAGATE_NAN);
    e->sigmoid = make_act(&k_sigmoid, CLDNN_NOT_PROPAGATE_NAN);
}

/* Releases everything bad_env_init made. */
static void bad_env_free(bad_env* e) {
    fx_tensor_free(&e->x);
    fx_tensor_free(&e->y);
    fx_tensor_free(&e->dy);
    fx_tensor_free(&e->dx);
    cldnnDestroyActivationDescriptor(e->relu);
    cldnnDestroyActivationDescriptor(e->sigmoid);
}

/* Requires that t's whole buffer still holds what was uploaded. */
static void expect_untouched(fx_tensor* t, const char* what) {
    fx_tensor_download(t);
    FX_ASSERT(memcmp(t->host, t->got, t->nbuf * t->elem) == 0, "a rejected call modified %s", what);
}

/* Short names, variadic so that the ARGS_* groups below expand into several arguments. */
#define FWD(...) cldnnActivationForward(__VA_ARGS__)
#define BWD(...) cldnnActivationBackward(__VA_ARGS__)

Test(act_bad, null_pointers_forward) {
    bad_env e;
    bad_env_init(&e);
    cldnnHandle_t h = fx_handle();
    float one = 1.0f, zero = 0.0f;
    fx_tensor *x = &e.x, *y = &e.y;
    const cldnnStatus_t NP = CLDNN_STATUS_BAD_PARAM_NULL_POINTER;
    FX_EXPECT_STATUS(NP, FWD(NULL, e.relu, &one, x->desc, x->mem, 4, &zero, y->desc, y->mem, 4));
    FX_EXPECT_STATUS(NP, FWD(h, NULL, &one, x->desc, x->mem, 4, &zero, y->desc, y->mem, 4));
    FX_EXPECT_STATUS(NP, FWD(h, e.relu, NULL, x->desc, x->mem, 4, &zero, y->desc, y->mem, 4));
    FX_EXPECT_STATUS(NP, FWD(h, e.relu, &one, NULL, x->mem, 4, &zero, y->desc, y->mem, 4));
    FX_EXPECT_STATUS(NP, FWD(h, e.relu, &one, x->desc, NULL, 4, &zero, y->desc, y->mem, 4));
    FX_EXPECT_STATUS(NP, FWD(h, e.relu, &one, x->desc, x->mem, 4, NULL, y->desc, y->mem, 4));
    FX_EXPECT_STATUS(NP, FWD(h, e.relu, &one, x->desc, x->mem, 4, &zero, NULL, y->mem, 4));
    FX_EXPECT_STATUS(NP, FWD(h, e.relu, &one, x->desc, x->mem, 4, &zero, y->desc, NULL, 4));
    expect_untouched(y, "y");
    bad_env_free(&e);
}

Test(act_bad, null_pointers_backward) {
    bad_env e;
    bad_env_init(&e);
    cldnnHandle_t h = fx_handle();
    float one = 1.0f, zero = 0.0f;
    fx_tensor *x = &e.x, *y = &e.y, *dy = &e.dy, *dx = &e.dx;
    const cldnnStatus_t NP = CLDNN_STATUS_BAD_PARAM_NULL_POINTER;
    cldnnActivationDescriptor_t r = e.relu, s = e.sigmoid;
#define ARGS_Y y->desc, y->mem, 4
#define ARGS_DY dy->desc, dy->mem, 4
#define ARGS_X x->desc, x->mem, 4
#define ARGS_DX dx->desc, dx->mem, 4
    FX_EXPECT_STATUS(NP, BWD(NULL, r, &one, ARGS_Y, ARGS_DY, ARGS_X, &zero, ARGS_DX));
    FX_EXPECT_STATUS(NP, BWD(h, NULL, &one, ARGS_Y, ARGS_DY, ARGS_X, &zero, ARGS_DX));
    FX_EXPECT_STATUS(NP, BWD(h, r, NULL, ARGS_Y, ARGS_DY, ARGS_X, &zero, ARGS_DX));
    FX_EXPECT_STATUS(NP, BWD(h, r, &one, ARGS_Y, ARGS_DY, ARGS_X, NULL, ARGS_DX));
    FX_EXPECT_STATUS(NP, BWD(h, r, &one, ARGS_Y, NULL, dy->mem, 4, ARGS_X, &zero, ARGS_DX));
    FX_EXPECT_STATUS(NP, BWD(h, r, &one, ARGS_Y, dy->desc, NULL, 4, ARGS_X, &zero, ARGS_DX));
    FX_EXPECT_STATUS(NP, BWD(h, r, &one, ARGS_Y, ARGS_DY, ARGS_X, &zero, NULL, dx->mem, 4));
    FX_EXPECT_STATUS(NP, BWD(h, r, &one, ARGS_Y, ARGS_DY, ARGS_X, &zero, dx->desc, NULL, 4));
    /* the input the mode reads: x for RELU, y for SIGMOID */
    FX_EXPECT_STATUS(NP, BWD(h, r, &one, ARGS_Y, ARGS_DY, NULL, x->mem, 4, &zero, ARGS_DX));
    FX_EXPECT_STATUS(NP, BWD(h, r, &one, ARGS_Y, ARGS_DY, x->desc, NULL, 4, &zero, ARGS_DX));
    FX_EXPECT_STATUS(NP, BWD(h, s, &one, NULL, y->mem, 4, ARGS_DY, ARGS_X, &zero, ARGS_DX));
    FX_EXPECT_STATUS(NP, BWD(h, s, &one, y->desc, NULL, 4, ARGS_DY, ARGS_X, &zero, ARGS_DX));
    expect_untouched(dx, "dx");
    bad_env_free(&e);
}

Test(act_bad, shape_mismatch) {
    bad_env e;
    bad_env_init(&e);
    cldnnHandle_t h = fx_handle();
    float one = 1.0f, zero = 0.0f;
    fx_tensor w, nd5;
    fx_tensor_4d(&w, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 2, 3, 4, 6, 4); /* w differs */
    /* same element count, different rank */
    fx_tensor_nd(&nd5, CLDNN_DATA_FLOAT, 5, (const int64_t[]){2, 3, 4, 5, 1}, NULL, 4);
    const cldnnStatus_t SM = CLDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH;
    FX_EXPECT_STATUS(SM, FWD(h, e.relu, &one, e.x.desc, e.x.mem, 4, &zero, w.desc, w.mem, 4));
    FX_EXPECT_STATUS(SM, FWD(h, e.relu, &one, w.desc, w.mem, 4, &zero, e.y.desc, e.y.mem, 4));
    FX_EXPECT_STATUS(SM, FWD(h, e.relu, &one, e.x.desc, e.x.mem, 4, &zero, nd5.desc, nd5.mem, 4));
    fx_tensor *x = &e.x, *y = &e.y, *dy = &e.dy, *dx = &e.dx;
    FX_EXPECT_STATUS(SM, BWD(h, e.relu, &one, ARGS_Y, w.desc, w.mem, 4, ARGS_X, &zero, ARGS_DX));
    FX_EXPECT_STATUS(SM, BWD(h, e.relu, &one, ARGS_Y, ARGS_DY, ARGS_X, &zero, w.desc, w.mem, 4));
    FX_EXPECT_STATUS(SM, BWD(h, e.relu, &one, ARGS_Y, ARGS_DY, w.desc, w.mem, 4, &zero, ARGS_DX));
    FX_EXPECT_STATUS(SM, BWD(h, e.sigmoid, &one, w.desc, w.mem, 4, ARGS_DY, ARGS_X, &zero, ARGS_DX));
    expect_untouched(&e.y, "y");
    expect_untouched(&e.dx, "dx");
    fx_tensor_free(&w);
    fx_tensor_free(&nd5);
    bad_env_free(&e);
}

Test(act_bad, data_types) {
    bad_env e;
    bad_env_init(&e);
    cldnnHandle_t h = fx_handle();
    float one = 1.0f, zero = 0.0f;
    double done = 1.0, dzero = 0.0;
    fx_tensor hy, d1, d2, i1, i2;
    fx_tensor_4d(&hy, CLDNN_TENSOR_NCHW, CLDNN_DATA_HALF, 2, 3, 4, 5, 4);
    fx_tensor_4d(&d1, CLDNN_TENSOR_NCHW, CLDNN_DATA_DOUBLE, 2, 3, 4, 5, 8);
    fx_tensor_4d(&d2, CLDNN_TENSOR_NCHW, CLDNN_DATA_DOUBLE, 2, 3, 4, 5, 8);
    fx_tensor_4d(&i1, CLDNN_TENSOR_NCHW, CLDNN_DATA_INT8, 2, 3, 4, 5, 4);
    fx_tensor_4d(&i2, CLDNN_TENSOR_NCHW, CLDNN_DATA_INT8, 2, 3, 4, 5, 4);
    /* x float, y half */
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM, FWD(h, e.relu, &one, e.x.desc, e.x.mem, 4, &zero, hy.desc, hy.mem, 4));
    fx_tensor *x = &e.x, *y = &e.y, *dy = &e.dy;
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM,
                     BWD(h, e.relu, &one, ARGS_Y, ARGS_DY, ARGS_X, &zero, hy.desc, hy.mem, 4));
    /* DOUBLE and INT8 are not computed */
    FX_EXPECT_STATUS(CLDNN_STATUS_NOT_SUPPORTED_DATA_TYPE,
                     FWD(h, e.relu, &done, d1.desc, d1.mem, 8, &dzero, d2.desc, d2.mem, 8));
    FX_EXPECT_STATUS(CLDNN_STATUS_NOT_SUPPORTED_DATA_TYPE,
                     FWD(h, e.relu, &one, i1.desc, i1.mem, 4, &zero, i2.desc, i2.mem, 4));
    FX_EXPECT_STATUS(CLDNN_STATUS_NOT_SUPPORTED_DATA_TYPE,
                     BWD(h, e.relu, &done, d1.desc, d1.mem, 8, d2.desc, d2.mem, 8, d1.desc, d1.mem, 8, &dzero, d2.desc,
                         d2.mem, 8));
    fx_tensor_free(&hy);
    fx_tensor_free(&d1);
    fx_tensor_free(&d2);
    fx_tensor_free(&i1);
    fx_tensor_free(&i2);
    bad_env_free(&e);
}

Test(act_bad, misaligned_offsets) {
    bad_env e;
    bad_env_init(&e);
    cldnnHandle_t h = fx_handle();
    float one = 1.0f, zero = 0.0f;
    const cldnnStatus_t MA = CLDNN_STATUS_BAD_PARAM_MISALIGNED;
    FX_EXPECT_STATUS(MA, FWD(h, e.relu, &one, e.x.desc, e.x.mem, 2, &zero, e.y.desc, e.y.mem, 4));
    FX_EXPECT_STATUS(MA, FWD(h, e.relu, &one, e.x.desc, e.x.mem, 4, &zero, e.y.desc, e.y.mem, 6));
    fx_tensor *x = &e.x, *y = &e.y, *dy = &e.dy, *dx = &e.dx;
    FX_EXPECT_STATUS(MA, BWD(h, e.relu, &one, ARGS_Y, dy->desc, dy->mem, 1, ARGS_X, &zero, ARGS_DX));
    FX_EXPECT_STATUS(MA, BWD(h, e.relu, &one, ARGS_Y, ARGS_DY, ARGS_X, &zero, dx->desc, dx->mem, 3));
    expect_untouched(&e.y, "y");
    /* half: 2-byte elements, so 2 is fine and 1 is not */
    fx_tensor hx, hy;
    fx_tensor_4d(&hx, CLDNN_TENSOR_NCHW, CLDNN_DATA_HALF, 2, 3, 4, 5, 4);
    fx_tensor_4d(&hy, CLDNN_TENSOR_NCHW, CLDNN_DATA_HALF, 2, 3, 4, 5, 4);
    FX_EXPECT_STATUS(MA, FWD(h, e.relu, &one, hx.desc, hx.mem, 1, &zero, hy.desc, hy.mem, 2));
    FX_OK(FWD(h, e.relu, &one, hx.desc, hx.mem, 2, &zero, hy.desc, hy.mem, 2));
    fx_finish();
    fx_tensor_free(&hx);
    fx_tensor_free(&hy);
    bad_env_free(&e);
}

Test(act_bad, buffer_too_small) {
    cldnnHandle_t h = fx_handle();
    float one = 1.0f, zero = 0.0f;
    cldnnActivationDescriptor_t a = make_act(&k_relu, CLDNN_NOT_PROPAGATE_NAN);
    cldnnTensorDescriptor_t d, dp;
    FX_OK(cldnnCreateTensorDescriptor(&d));
    FX_OK(cldnnSetTensor4dDescriptor(d, CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 2, 3, 4, 5));
    FX_OK(cldnnCreateTensorDescriptor(&dp)); /* padded: span 1 + 1*200 + 2*60 + 3*12 + 4*2 = 365 */
    FX_OK(cldnnSetTensor4dDescriptorEx(dp, CLDNN_DATA_FLOAT, 2, 3, 4, 5, 200, 60, 12, 2));
    const size_t bytes = 120 * 4;
    cl_mem exact = fx_buffer(bytes + 8), small = fx_buffer(bytes - 4), big = fx_buffer(365 * 4 + 16);
    const cldnnStatus_t SI = CLDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT;
    /* exactly enough: offset 8 + 480 bytes fits a 488-byte buffer */
    FX_OK(FWD(h, a, &one, d, exact, 8, &zero, d, exact, 8));
    FX_EXPECT_STATUS(SI, FWD(h, a, &one, d, exact, 12, &zero, d, big, 0));
    FX_EXPECT_STATUS(SI, FWD(h, a, &one, d, big, 0, &zero, d, exact, 12));
    FX_EXPECT_STATUS(SI, FWD(h, a, &one, d, small, 0, &zero, d, big, 0));
    /* the strided span counts, not the element count */
    FX_OK(FWD(h, a, &one, dp, big, 16, &zero, dp, big, 16));
    FX_EXPECT_STATUS(SI, FWD(h, a, &one, dp, big, 20, &zero, d, exact, 0));
    FX_EXPECT_STATUS(SI, FWD(h, a, &one, d, big, 0, &zero, dp, exact, 0));
    FX_EXPECT_STATUS(SI, cldnnActivationBackward(h, a, &one, d, big, 0, d, small, 0, d, big, 0, &zero, d, big, 0));
    FX_EXPECT_STATUS(SI, cldnnActivationBackward(h, a, &one, d, big, 0, d, big, 0, d, big, 0, &zero, d, small, 0));
    fx_finish();
    fx_release(exact);
    fx_release(small);
    fx_release(big);
    cldnnDestroyTensorDescriptor(d);
    cldnnDestroyTensorDescriptor(dp);
    cldnnDestroyActivationDescriptor(a);
}

Test(act_bad, never_set_descriptor) {
    bad_env e;
    bad_env_init(&e);
    cldnnHandle_t h = fx_handle();
    float one = 1.0f, zero = 0.0f;
    cldnnTensorDescriptor_t unset;
    FX_OK(cldnnCreateTensorDescriptor(&unset));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM, FWD(h, e.relu, &one, unset, e.x.mem, 4, &zero, e.y.desc, e.y.mem, 4));
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM, FWD(h, e.relu, &one, e.x.desc, e.x.mem, 4, &zero, unset, e.y.mem, 4));
    fx_tensor *x = &e.x, *y = &e.y, *dy = &e.dy;
    FX_EXPECT_STATUS(CLDNN_STATUS_BAD_PARAM,
                     BWD(h, e.relu, &one, ARGS_Y, unset, dy->mem, 4, ARGS_X, &zero, unset, e.dx.mem, 4));
    expect_untouched(&e.y, "y");
    cldnnDestroyTensorDescriptor(unset);
    bad_env_free(&e);
}
