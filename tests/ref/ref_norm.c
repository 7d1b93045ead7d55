/*
** ref_norm.c: double-precision reference of layer, group and RMS normalization (ref_norm.h).
*/
#include "ref_norm.h"

#include <math.h>
#include <stdlib.h>

/* Row and parameter index of packed element i. */
void ref_norm_index(const ref_norm* l, int64_t i, int64_t* row, int64_t* par) {
    if (l->mode == 1) {
        int64_t C = l->dims[1], S = 1;
        for (int d = 2; d < l->nd; d++)
            S *= l->dims[d];
        int64_t n = i / (C * S), c = (i / S) % C;
        *row = n * l->param + c / (C / l->param);
        *par = c;
        return;
    }
    int64_t L = 1;
    for (int d = l->nd - l->param; d < l->nd; d++)
        L *= l->dims[d];
    *row = i / L;
    *par = i % L;
}

int64_t ref_norm_count(const ref_norm* l) {
    int64_t n = 1;
    for (int d = 0; d < l->nd; d++)
        n *= l->dims[d];
    return n;
}
int64_t ref_norm_rows(const ref_norm* l) {
    if (l->mode == 1)
        return l->dims[0] * l->param;
    int64_t r = 1;
    for (int d = 0; d < l->nd - l->param; d++)
        r *= l->dims[d];
    return r;
}
int64_t ref_norm_params(const ref_norm* l) {
    return l->mode == 1 ? l->dims[1] : ref_norm_count(l) / ref_norm_rows(l);
}

/* Statistics and y (normalized and affine, no alpha / beta) in double. */
void ref_norm_forward(const ref_norm* l, const double* x, const double* sc, const double* bi, double* mean,
                        double* istd, double* y) {
    int64_t n = ref_norm_count(l), R = ref_norm_rows(l), row, par;
    double* s1 = calloc((size_t)R, sizeof(double));
    double* cnt = calloc((size_t)R, sizeof(double));
    for (int64_t i = 0; i < n; i++) {
        ref_norm_index(l, i, &row, &par);
        s1[row] += x[i];
        cnt[row] += 1;
    }
    for (int64_t r = 0; r < R; r++) {
        mean[r] = l->mode == 2 ? 0.0 : s1[r] / cnt[r];
        s1[r] = 0;
    }
    for (int64_t i = 0; i < n; i++) {
        ref_norm_index(l, i, &row, &par);
        s1[row] += (x[i] - mean[row]) * (x[i] - mean[row]);
    }
    for (int64_t r = 0; r < R; r++)
        istd[r] = 1.0 / sqrt(s1[r] / cnt[r] + l->eps);
    for (int64_t i = 0; i < n; i++) {
        ref_norm_index(l, i, &row, &par);
        double v = (x[i] - mean[row]) * istd[row];
        y[i] = sc ? v * sc[par] + bi[par] : v;
    }
    free(s1);
    free(cnt);
}

/* dx, dScale, dBias from the statistics (double). */
void ref_norm_backward(const ref_norm* l, const double* x, const double* dy, const double* sc, const double* mean,
                         const double* istd, double* dx, double* ds, double* db) {
    int64_t n = ref_norm_count(l), R = ref_norm_rows(l), P = ref_norm_params(l), row, par;
    double* A = calloc((size_t)R, sizeof(double));
    double* B = calloc((size_t)R, sizeof(double));
    double* cnt = calloc((size_t)R, sizeof(double));
    for (int64_t p = 0; p < P; p++)
        ds[p] = db[p] = 0;
    for (int64_t i = 0; i < n; i++) {
        ref_norm_index(l, i, &row, &par);
        double xh = (x[i] - mean[row]) * istd[row], g = dy[i] * (sc ? sc[par] : 1.0);
        A[row] += g;
        B[row] += g * xh;
        cnt[row] += 1;
        ds[par] += dy[i] * xh;
        db[par] += dy[i];
    }
    for (int64_t i = 0; i < n; i++) {
        ref_norm_index(l, i, &row, &par);
        double xh = (x[i] - mean[row]) * istd[row], g = dy[i] * (sc ? sc[par] : 1.0);
        double a = l->mode == 2 ? 0.0 : A[row] / cnt[row];
        dx[i] = istd[row] * (g - a - xh * B[row] / cnt[row]);
    }
    free(A);
    free(B);
    free(cnt);
}
