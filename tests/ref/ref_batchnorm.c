/*
** ref_batchnorm.c: the double-precision batch-normalization references (ref_batchnorm.h).
**
** Straight from the definitions: statistics by two passes (mean, then centred squares), so the
** reference has no cancellation of its own on inputs with a large mean.
*/
#include "ref_batchnorm.h"

#include <math.h>
#include <stdlib.h>

static int64_t spatial_size(const ref_view* v) {
    int64_t s = 1;
    for (int d = 2; d < v->nd; ++d)
        s *= v->dims[d];
    return s;
}

int64_t ref_bn_stats_count(int mode, const ref_view* v) {
    return mode == 1 ? v->dims[1] : v->dims[1] * spatial_size(v);
}

int64_t ref_bn_stat_size(int mode, const ref_view* v) {
    return mode == 1 ? v->dims[0] * spatial_size(v) : v->dims[0];
}

int64_t ref_bn_stat_of(int mode, const ref_view* v, int64_t i) {
    int64_t s = spatial_size(v), c = (i / s) % v->dims[1];
    return mode == 1 ? c : c * s + i % s;
}

void ref_bn_stats(int mode, const ref_view* v, const float* x, double* mean, double* var) {
    int64_t K = ref_bn_stats_count(mode, v), M = ref_bn_stat_size(mode, v), n = ref_view_count(v);
    for (int64_t k = 0; k < K; ++k)
        mean[k] = var[k] = 0.0;
    for (int64_t i = 0; i < n; ++i)
        mean[ref_bn_stat_of(mode, v, i)] += x[ref_view_offset(v, i)];
    for (int64_t k = 0; k < K; ++k)
        mean[k] /= (double)M;
    for (int64_t i = 0; i < n; ++i) {
        int64_t k = ref_bn_stat_of(mode, v, i);
        double d = x[ref_view_offset(v, i)] - mean[k];
        var[k] += d * d;
    }
    for (int64_t k = 0; k < K; ++k)
        var[k] /= (double)M;
}

void ref_bn_forward(int mode, const ref_view* v, const float* x, const double* scale, const double* bias,
                    const double* mean, const double* var, double eps, double* y) {
    int64_t n = ref_view_count(v);
    for (int64_t i = 0; i < n; ++i) {
        int64_t k = ref_bn_stat_of(mode, v, i);
        y[i] = scale[k] * (x[ref_view_offset(v, i)] - mean[k]) / sqrt(var[k] + eps) + bias[k];
    }
}

void ref_bn_backward(int mode, const ref_view* vx, const float* x, const ref_view* vdy, const float* dy,
                     const double* scale, const double* mean, const double* invstd, double* dx, double* dscale,
                     double* dbias) {
    int64_t K = ref_bn_stats_count(mode, vx), M = ref_bn_stat_size(mode, vx), n = ref_view_count(vx);
    for (int64_t k = 0; k < K; ++k)
        dscale[k] = dbias[k] = 0.0;
    for (int64_t i = 0; i < n; ++i) {
        int64_t k = ref_bn_stat_of(mode, vx, i);
        double g = dy[ref_view_offset(vdy, i)];
        dbias[k] += g;
        dscale[k] += g * (x[ref_view_offset(vx, i)] - mean[k]) * invstd[k];
    }
    for (int64_t i = 0; i < n; ++i) {
        int64_t k = ref_bn_stat_of(mode, vx, i);
        double xhat = (x[ref_view_offset(vx, i)] - mean[k]) * invstd[k];
        dx[i] = scale[k] * invstd[k] / (double)M *
                ((double)M * dy[ref_view_offset(vdy, i)] - dbias[k] - xhat * dscale[k]);
    }
}
