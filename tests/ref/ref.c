/*
** ref.c: double-precision host references for cldnn's primitives (see ref.h).
**
** Everything here is deliberately naive: one loop per element, math in double, no blocking or
** vectorization, so that a wrong answer can only come from the device side. Used by the
** Criterion suites (tests/) and by `cldnn-bench -V 1` (perf/).
**
** Invariants
**   - ref_view dims are >= 1 and nd is in [1, REF_DIM_MAX] for every routine that walks a view;
**     a view with a dimension <= 0 has count 0 and span 0.
**   - Activation modes use the numeric values of cldnnActivationMode_t, softmax algorithms and
**     modes those of cldnnSoftmaxAlgorithm_t / cldnnSoftmaxMode_t (this file does not include
**     cldnn.h, so the reference does not depend on the library's header compiling).
**   - The random generator is xorshift64* seeded through splitmix64, so any 64-bit seed
**     (including 0) gives a usable, reproducible stream.
*/
#include "ref.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* cldnnActivationMode_t values (include/cldnn.h; fixed by the ABI). */
enum {
    REF_ACT_SIGMOID = 0,
    REF_ACT_RELU = 1,
    REF_ACT_TANH = 2,
    REF_ACT_CLIPPED_RELU = 3,
    REF_ACT_ELU = 4,
    REF_ACT_IDENTITY = 5,
    REF_ACT_SWISH = 6,
    REF_ACT_LEAKY_RELU = 100,
    REF_ACT_SOFTPLUS = 101,
    REF_ACT_ABS = 102,
    REF_ACT_GELU = 103
};

/* ------------------------------------------------------------------------------- views */

/* Packed row-major strides over dims (last dimension fastest). nd is clamped to [0, REF_DIM_MAX]. */
ref_view ref_view_packed(int nd, const int64_t* dims) {
    ref_view v;
    memset(&v, 0, sizeof v);
    if (nd < 0)
        nd = 0;
    if (nd > REF_DIM_MAX)
        nd = REF_DIM_MAX;
    v.nd = nd;
    int64_t s = 1;
    for (int d = nd - 1; d >= 0; d--) {
        v.dims[d] = dims[d];
        v.strides[d] = s;
        s *= dims[d] > 0 ? dims[d] : 1;
    }
    return v;
}

/* Product of the dims; 0 when any dim is <= 0 or the view has no dims. */
int64_t ref_view_count(const ref_view* v) {
    if (v->nd <= 0)
        return 0;
    int64_t n = 1;
    for (int d = 0; d < v->nd; d++) {
        if (v->dims[d] <= 0)
            return 0;
        n *= v->dims[d];
    }
    return n;
}

/* 1 + sum (dims-1)*strides; 0 for an empty view. */
int64_t ref_view_span(const ref_view* v) {
    if (ref_view_count(v) == 0)
        return 0;
    int64_t s = 1;
    for (int d = 0; d < v->nd; d++)
        s += (v->dims[d] - 1) * v->strides[d];
    return s;
}

/* Element offset of row-major linear index i (0 <= i < count). */
int64_t ref_view_offset(const ref_view* v, int64_t i) {
    int64_t off = 0;
    for (int d = v->nd - 1; d >= 0; d--) {
        int64_t idx = i % v->dims[d];
        i /= v->dims[d];
        off += idx * v->strides[d];
    }
    return off;
}

/* -------------------------------------------------------------------------- activation */

/* 1 / (1 + e^-x) without overflow for large |x|. */
static double sigmoid(double x) {
    if (x >= 0)
        return 1.0 / (1.0 + exp(-x));
    double e = exp(x);
    return e / (1.0 + e);
}

/* act(x) for mode (cldnnActivationMode_t value); NaN for an unknown mode. NaN inputs give NaN
** (the NOT_PROPAGATE_NAN behaviour of RELU / CLIPPED_RELU is the caller's concern). */
double ref_act_forward(int mode, double coef, double swish_beta, double x) {
    if (isnan(x))
        return x;
    switch (mode) {
    case REF_ACT_SIGMOID:
        return sigmoid(x);
    case REF_ACT_RELU:
        return x > 0 ? x : 0.0;
    case REF_ACT_TANH:
        return tanh(x);
    case REF_ACT_CLIPPED_RELU:
        return x <= 0 ? 0.0 : (x < coef ? x : coef);
    case REF_ACT_ELU:
        return x > 0 ? x : coef * expm1(x);
    case REF_ACT_IDENTITY:
        return x;
    case REF_ACT_SWISH:
        return x * sigmoid(swish_beta * x);
    case REF_ACT_LEAKY_RELU:
        return x > 0 ? x : coef * x;
    case REF_ACT_SOFTPLUS: /* log(1 + e^x) = max(x, 0) + log1p(e^-|x|) */
        return (x > 0 ? x : 0.0) + log1p(exp(-fabs(x)));
    case REF_ACT_ABS:
        return fabs(x);
    case REF_ACT_GELU:
        return 0.5 * x * (1.0 + erf(x / sqrt(2.0)));
    default:
        return NAN;
    }
}

/* d act / dx at x; at kinks the subgradient the library uses (RELU 0 at 0, ABS 0 at 0,
** CLIPPED_RELU 0 at 0 and at coef). NaN for an unknown mode. */
double ref_act_derivative(int mode, double coef, double swish_beta, double x) {
    if (isnan(x))
        return x;
    switch (mode) {
    case REF_ACT_SIGMOID: {
        double s = sigmoid(x);
        return s * (1.0 - s);
    }
    case REF_ACT_RELU:
        return x > 0 ? 1.0 : 0.0;
    case REF_ACT_TANH: {
        double t = tanh(x);
        return 1.0 - t * t;
    }
    case REF_ACT_CLIPPED_RELU:
        return (x > 0 && x < coef) ? 1.0 : 0.0;
    case REF_ACT_ELU:
        return x > 0 ? 1.0 : coef * exp(x);
    case REF_ACT_IDENTITY:
        return 1.0;
    case REF_ACT_SWISH: {
        double s = sigmoid(swish_beta * x);
        return s + swish_beta * x * s * (1.0 - s);
    }
    case REF_ACT_LEAKY_RELU:
        return x > 0 ? 1.0 : coef;
    case REF_ACT_SOFTPLUS:
        return sigmoid(x);
    case REF_ACT_ABS:
        return x > 0 ? 1.0 : (x < 0 ? -1.0 : 0.0);
    case REF_ACT_GELU: {
        const double inv_sqrt2 = 0.70710678118654752440;
        const double inv_sqrt2pi = 0.39894228040143267794;
        return 0.5 * (1.0 + erf(x * inv_sqrt2)) + x * exp(-0.5 * x * x) * inv_sqrt2pi;
    }
    default:
        return NAN;
    }
}

/* -------------------------------------------------------------------------------- GEMM */

int64_t ref_mat_index(int row_major, int64_t row, int64_t col, int64_t ld) {
    return row_major ? row * ld + col : row + col * ld;
}

/* op(X)(r, c) of a matrix stored in the layout with leading dimension ld (transposed when t). */
static double gemm_elem(int row_major, int t, const float* X, int64_t ld, int64_t r, int64_t c) {
    return (double)X[t ? ref_mat_index(row_major, c, r, ld) : ref_mat_index(row_major, r, c, ld)];
}

/* Shared loop of ref_gemm and ref_gemm_abs: the dot product of row i of op(A) and column j of
** op(B) over k, of absolute values when absolute != 0. */
static double gemm_dot(int row_major, int trans_a, int trans_b, int64_t k, const float* A, int64_t lda,
                       const float* B, int64_t ldb, int64_t i, int64_t j, int absolute) {
    double s = 0.0;
    for (int64_t p = 0; p < k; p++) {
        double a = gemm_elem(row_major, trans_a, A, lda, i, p);
        double b = gemm_elem(row_major, trans_b, B, ldb, p, j);
        s += absolute ? fabs(a) * fabs(b) : a * b;
    }
    return s;
}

void ref_gemm(int row_major, int trans_a, int trans_b, int64_t m, int64_t n, int64_t k, double alpha,
              const float* A, int64_t lda, const float* B, int64_t ldb, double beta, const float* C_in,
              double* C_out, int64_t ldc) {
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            int64_t at = ref_mat_index(row_major, i, j, ldc);
            double v = alpha * gemm_dot(row_major, trans_a, trans_b, k, A, lda, B, ldb, i, j, 0);
            if (beta != 0.0)
                v += beta * (double)C_in[at];
            C_out[at] = v;
        }
}

void ref_gemm_abs(int row_major, int trans_a, int trans_b, int64_t m, int64_t n, int64_t k, const float* A,
                  int64_t lda, const float* B, int64_t ldb, double* S, int64_t ldc) {
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++)
            S[ref_mat_index(row_major, i, j, ldc)] = gemm_dot(row_major, trans_a, trans_b, k, A, lda, B, ldb, i, j, 1);
}

/* ----------------------------------------------------------------------------- softmax */

/* cldnnSoftmaxAlgorithm_t / cldnnSoftmaxMode_t values (include/cldnn.h; fixed by the ABI). */
enum { REF_SOFTMAX_FAST = 0, REF_SOFTMAX_ACCURATE = 1, REF_SOFTMAX_LOG = 2 };
enum { REF_SOFTMAX_MODE_INSTANCE = 0, REF_SOFTMAX_MODE_CHANNEL = 1 };

/* The softmax sets of mode on v: `groups` sets of `size` elements; member k of set g has the
** row-major linear index base + k * step (see softmax_index). v->nd >= 2. */
typedef struct {
    int64_t groups, size, spatial, channels;
    int channel;
} softmax_sets;

static softmax_sets softmax_split(int mode, const ref_view* v) {
    softmax_sets s;
    s.channels = v->nd >= 2 ? v->dims[1] : 1;
    s.spatial = 1;
    for (int d = 2; d < v->nd; d++)
        s.spatial *= v->dims[d];
    s.channel = mode == REF_SOFTMAX_MODE_CHANNEL;
    if (s.channel) {
        s.groups = v->dims[0] * s.spatial;
        s.size = s.channels;
    } else {
        s.groups = v->dims[0];
        s.size = s.channels * s.spatial;
    }
    return s;
}

/* Row-major linear index of member k of set g. INSTANCE: set g is image g, members contiguous
** in linear order. CHANNEL: set g is (n, s) = (g / spatial, g % spatial), member k is channel k. */
static int64_t softmax_index(const softmax_sets* s, int64_t g, int64_t k) {
    if (!s->channel)
        return g * s->size + k;
    int64_t n = g / s->spatial, sp = g % s->spatial;
    return (n * s->channels + k) * s->spatial + sp;
}

int64_t ref_softmax_group_size(int mode, const ref_view* v) {
    if (v->nd < 2)
        return 0;
    return softmax_split(mode, v).size;
}

void ref_softmax_forward(int algo, int mode, const ref_view* v, const float* x, double* y) {
    if (v->nd < 2 || ref_view_count(v) == 0)
        return;
    softmax_sets s = softmax_split(mode, v);
    for (int64_t g = 0; g < s.groups; g++) {
        double mx = -INFINITY;
        for (int64_t k = 0; k < s.size; k++) {
            double xv = (double)x[ref_view_offset(v, softmax_index(&s, g, k))];
            mx = xv > mx ? xv : mx;
        }
        double shift = algo == REF_SOFTMAX_FAST ? 0.0 : mx, sum = 0.0;
        for (int64_t k = 0; k < s.size; k++)
            sum += exp((double)x[ref_view_offset(v, softmax_index(&s, g, k))] - shift);
        double lse = log(sum);
        for (int64_t k = 0; k < s.size; k++) {
            int64_t i = softmax_index(&s, g, k);
            double d = (double)x[ref_view_offset(v, i)] - shift;
            y[i] = algo == REF_SOFTMAX_LOG ? d - lse : exp(d) / sum;
        }
    }
}

/* Shared loop of the backward and its absolute-value scale. */
static void softmax_backward(int algo, int mode, const ref_view* v, const float* y, const float* dy, double* out,
                             int absolute) {
    if (v->nd < 2 || ref_view_count(v) == 0)
        return;
    softmax_sets s = softmax_split(mode, v);
    int log_algo = algo == REF_SOFTMAX_LOG;
    for (int64_t g = 0; g < s.groups; g++) {
        double sum = 0.0;
        for (int64_t k = 0; k < s.size; k++) {
            int64_t off = ref_view_offset(v, softmax_index(&s, g, k));
            double t = log_algo ? (double)dy[off] : (double)dy[off] * (double)y[off];
            sum += absolute ? fabs(t) : t;
        }
        for (int64_t k = 0; k < s.size; k++) {
            int64_t i = softmax_index(&s, g, k), off = ref_view_offset(v, i);
            double yv = (double)y[off], dyv = (double)dy[off];
            if (log_algo)
                out[i] = absolute ? fabs(dyv) + exp(yv) * sum : dyv - exp(yv) * sum;
            else
                out[i] = absolute ? fabs(yv) * (fabs(dyv) + sum) : yv * (dyv - sum);
        }
    }
}

void ref_softmax_backward(int algo, int mode, const ref_view* v, const float* y, const float* dy, double* dx) {
    softmax_backward(algo, mode, v, y, dy, dx, 0);
}

void ref_softmax_backward_abs(int algo, int mode, const ref_view* v, const float* y, const float* dy, double* s) {
    softmax_backward(algo, mode, v, y, dy, s, 1);
}

/* ------------------------------------------------------------------------------ random */

/* splitmix64 step: spreads a user seed over all 64 bits. */
static uint64_t splitmix64(uint64_t x) {
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

/* Seeds r; every seed value (0 included) gives a non-zero xorshift state. */
void ref_rng_seed(ref_rng* r, uint64_t seed) {
    r->s = splitmix64(seed);
    if (r->s == 0)
        r->s = 0x9E3779B97F4A7C15ULL;
}

/* xorshift64*: the next 64-bit value. */
uint64_t ref_rng_next(ref_rng* r) {
    uint64_t x = r->s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    r->s = x;
    return x * 0x2545F4914F6CDD1DULL;
}

/* Uniform double in [lo, hi) from the top 53 bits. */
double ref_rng_uniform(ref_rng* r, double lo, double hi) {
    double u = (double)(ref_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
    double v = lo + (hi - lo) * u;
    return v < hi ? v : lo; /* rounding can reach hi when the range is wide */
}

/* n floats uniform in [lo, hi). A draw that rounds to 0.0f is redrawn (tests want non-zero
** data so that a kernel writing zeros is never accidentally right), unless the range holds
** nothing but zero. */
void ref_fill_uniform(ref_rng* r, float* p, size_t n, double lo, double hi) {
    for (size_t i = 0; i < n; i++) {
        float f = (float)ref_rng_uniform(r, lo, hi);
        for (int tries = 0; f == 0.0f && tries < 64; tries++)
            f = (float)ref_rng_uniform(r, lo, hi);
        if (!(f < (float)hi)) /* float rounding of a value just below hi */
            f = nextafterf((float)hi, (float)lo);
        p[i] = f;
    }
}

/* n quiet NaNs. */
void ref_fill_nan(float* p, size_t n) {
    for (size_t i = 0; i < n; i++)
        p[i] = NAN;
}

/* CLDNN_TEST_SEED (decimal) when set and well-formed, else a value from the real-time clock. */
uint64_t ref_seed_from_env(void) {
    const char* s = getenv("CLDNN_TEST_SEED");
    if (s != NULL && *s != '\0') {
        char* end = NULL;
        unsigned long long v = strtoull(s, &end, 10);
        if (end != NULL && *end == '\0')
            return (uint64_t)v;
    }
    struct timespec ts;
    if (timespec_get(&ts, TIME_UTC) == 0)
        return (uint64_t)time(NULL);
    uint64_t t = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
    /* Keep it printable and short enough to retype: the low 40 bits of the mixed clock. */
    return splitmix64(t) & 0xFFFFFFFFFFULL;
}

/* -------------------------------------------------------------------------- comparison */

int ref_close(double got, double want, double tol, double* err) {
    *err = 0.0;
    if (isnan(want) || isnan(got))
        return isnan(want) && isnan(got);
    if (isinf(want) || isinf(got))
        return got == want;
    *err = fabs(got - want);
    return *err <= tol;
}

/* See ref.h. The relative error of an element is |got - want| / |want| (the absolute error
** when want == 0). */
int64_t ref_compare(const ref_view* v, const float* got, const double* want, double atol, double rtol,
                    int64_t* first_bad, double* max_rel) {
    int64_t n = ref_view_count(v), bad = 0;
    double worst = 0.0;
    if (first_bad != NULL)
        *first_bad = -1;
    for (int64_t i = 0; i < n; i++) {
        double g = (double)got[ref_view_offset(v, i)];
        double w = want[i], err;
        int ok = ref_close(g, w, atol + rtol * fabs(w), &err);
        double rel = w != 0.0 ? err / fabs(w) : err;
        if (rel > worst)
            worst = rel;
        if (!ok) {
            if (bad == 0 && first_bad != NULL)
                *first_bad = i;
            bad++;
        }
    }
    if (max_rel != NULL)
        *max_rel = worst;
    return bad;
}
