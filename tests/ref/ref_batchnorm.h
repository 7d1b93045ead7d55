/*
** ref_batchnorm.h: double-precision batch-normalization references (cuDNN semantics), shared by
** tests/test_batchnorm.c and `cldnn-bench bnorm -V 1`.
**
** x is a view of 2 or more dims (N, C, spatial...). mode uses cldnnBatchNormMode_t's values:
** 1 SPATIAL, one statistic per channel over (n, spatial); 0 PER_ACTIVATION, one per (c, spatial)
** over n. Statistic k is c (spatial) or c * S + s (per-activation, s the linear spatial index),
** i.e. parameters are packed arrays in the derived descriptor's NCHW order. Outputs over x's dims
** are packed (row-major over v's dims). No alpha/beta: callers apply them.
*/
#ifndef CLDNN_REF_BATCHNORM_H_
#define CLDNN_REF_BATCHNORM_H_

#include "ref.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Number of statistics (K) and values per statistic (M) of mode on v. */
int64_t ref_bn_stats_count(int mode, const ref_view* v);
int64_t ref_bn_stat_size(int mode, const ref_view* v);
/* The statistic of packed element i. */
int64_t ref_bn_stat_of(int mode, const ref_view* v, int64_t i);
/* Batch mean and biased variance per statistic (two passes in double). */
void ref_bn_stats(int mode, const ref_view* v, const float* x, double* mean, double* var);
/* y = scale * (x - mean) / sqrt(var + eps) + bias, y packed. */
void ref_bn_forward(int mode, const ref_view* v, const float* x, const double* scale, const double* bias,
                    const double* mean, const double* var, double eps, double* y);
/* Backward of the training forward given the mean and inverse std it normalized with (dx packed,
** dscale and dbias per statistic): dbias = sum dy, dscale = sum dy xhat,
** dx = scale invstd / M (M dy - dbias - xhat dscale), xhat = (x - mean) invstd. */
void ref_bn_backward(int mode, const ref_view* vx, const float* x, const ref_view* vdy, const float* dy,
                     const double* scale, const double* mean, const double* invstd, double* dx, double* dscale,
                     double* dbias);

#ifdef __cplusplus
}
#endif

#endif /* CLDNN_REF_BATCHNORM_H_ */
