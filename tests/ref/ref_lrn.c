/*
** ref_lrn.c: the double reference of LRN (ref_lrn.h). Direct sums over each window: slow and
** obviously right.
*/
#include "ref_lrn.h"

#include <math.h>
#include <stdlib.h>

/* The axes the window runs along: {1} across channels, {nd - 2, nd - 1} within a channel. */
static int lrn_axes(const ref_lrn_params* p, const ref_view* v, int* axes) {
    if (p->mode == 0) {
        axes[0] = 1;
        return 1;
    }
    axes[0] = v->nd - 2;
    axes[1] = v->nd - 1;
    return 2;
}

/* s at multi-index idx: k + alpha / n^d * sum of x^2 over the window [i - lo, i + hi] on each axis. */
static double lrn_s(const ref_lrn_params* p, const ref_view* v, const float* x, const int64_t* idx) {
    int axes[2];
    int na = lrn_axes(p, v, axes);
    int lo = (p->n - 1) / 2, hi = p->n - 1 - lo;
    int64_t base = 0;
    for (int d = 0; d < v->nd; d++)
        base += idx[d] * v->strides[d];
    double sum = 0;
    int64_t a0 = axes[0], a1 = na == 2 ? axes[1] : -1;
    for (int64_t i = idx[a0] - lo; i <= idx[a0] + hi; i++) {
        if (i < 0 || i >= v->dims[a0])
            continue;
        int64_t o0 = base + (i - idx[a0]) * v->strides[a0];
        if (a1 < 0) {
            sum += (double)x[o0] * (double)x[o0];
            continue;
        }
        for (int64_t j = idx[a1] - lo; j <= idx[a1] + hi; j++) {
            if (j < 0 || j >= v->dims[a1])
                continue;
            double e = x[o0 + (j - idx[a1]) * v->strides[a1]];
            sum += e * e;
        }
    }
    double taps = na == 2 ? (double)p->n * p->n : (double)p->n;
    return p->k + p->alpha / taps * sum;
}

static int64_t offset_of(const ref_view* v, const int64_t* idx) {
    int64_t o = 0;
    for (int d = 0; d < v->nd; d++)
        o += idx[d] * v->strides[d];
    return o;
}

static void unravel(const ref_view* v, int64_t i, int64_t* idx) {
    for (int d = v->nd - 1; d >= 0; d--) {
        idx[d] = i % v->dims[d];
        i /= v->dims[d];
    }
}

void ref_lrn_forward(const ref_lrn_params* p, const ref_view* v, const float* x, double* y) {
    int64_t n = ref_view_count(v), idx[REF_DIM_MAX];
    for (int64_t i = 0; i < n; i++) {
        unravel(v, i, idx);
        int64_t o = offset_of(v, idx);
        y[o] = (double)x[o] * pow(lrn_s(p, v, x, idx), -p->beta);
    }
}

/* Both backward references: take absolute values of every term when `absolute`. */
static void lrn_backward(const ref_lrn_params* p, const ref_view* v, const float* x, const float* y, const float* dy,
                         double* dx, int absolute) {
    int axes[2];
    int na = lrn_axes(p, v, axes);
    int lo = (p->n - 1) / 2, hi = p->n - 1 - lo;
    double taps = na == 2 ? (double)p->n * p->n : (double)p->n;
    double coef = 2.0 * p->alpha * p->beta / taps;
    int64_t n = ref_view_count(v), idx[REF_DIM_MAX], jdx[REF_DIM_MAX];
    for (int64_t i = 0; i < n; i++) {
        unravel(v, i, idx);
        int64_t o = offset_of(v, idx);
        double s = lrn_s(p, v, x, idx);
        /* sum over j whose window holds i: j in [i - hi, i + lo] on each axis */
        double acc = 0;
        int64_t a0 = axes[0], a1 = na == 2 ? axes[1] : -1;
        for (int d = 0; d < v->nd; d++)
            jdx[d] = idx[d];
        for (int64_t j0 = idx[a0] - hi; j0 <= idx[a0] + lo; j0++) {
            if (j0 < 0 || j0 >= v->dims[a0])
                continue;
            jdx[a0] = j0;
            int64_t j1lo = a1 < 0 ? 0 : idx[a1] - hi, j1hi = a1 < 0 ? 0 : idx[a1] + lo;
            for (int64_t j1 = j1lo; j1 <= j1hi; j1++) {
                if (a1 >= 0) {
                    if (j1 < 0 || j1 >= v->dims[a1])
                        continue;
                    jdx[a1] = j1;
                }
                int64_t oj = offset_of(v, jdx);
                double t = (double)dy[oj] * (double)y[oj] / lrn_s(p, v, x, jdx);
                acc += absolute ? fabs(t) : t;
            }
        }
        double first = (double)dy[o] * pow(s, -p->beta), second = coef * (double)x[o] * acc;
        dx[o] = absolute ? fabs(first) + fabs(second) : first - second;
    }
}

void ref_lrn_backward(const ref_lrn_params* p, const ref_view* v, const float* x, const float* y, const float* dy,
                      double* dx) {
    lrn_backward(p, v, x, y, dy, dx, 0);
}

void ref_lrn_backward_abs(const ref_lrn_params* p, const ref_view* v, const float* x, const float* y,
                          const float* dy, double* scale) {
    lrn_backward(p, v, x, y, dy, scale, 1);
}
