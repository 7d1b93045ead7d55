/*
** ref_lrn.h: double-precision reference of local response normalization (cldnnLRN*).
**
** Semantics as include/cldnn.h and src/norm/lrn.c: window [i - lo, i + hi] along C (across
** channels, mode 0) or along H and W (within a channel, mode 1: the last two dims), with
** lo = (n - 1) / 2, hi = n - 1 - lo, zero padded; s = k + alpha / n^d * sum x^2 (d = 1 across,
** 2 within); y = x s^-beta; dx = dy s^-beta - 2 alpha beta / n^d x sum_{j: i in window(j)}
** dy_j y_j / s_j. Every array is laid out by the view v (its strides); at least 3 dims.
*/
#ifndef CLDNN_REF_LRN_H_
#define CLDNN_REF_LRN_H_

#include "ref.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int mode;   /* 0 across channels, 1 within a channel (cldnnLRNMode_t) */
    int n;
    double alpha, beta, k;
} ref_lrn_params;

/* y = LRN(x). */
void ref_lrn_forward(const ref_lrn_params* p, const ref_view* v, const float* x, double* y);
/* dx from x, y and dy (y as given; s recomputed from x). */
void ref_lrn_backward(const ref_lrn_params* p, const ref_view* v, const float* x, const float* y, const float* dy,
                      double* dx);
/* The backward formula on absolute values (|dy| s^-beta + |coef x| sum |dy_j y_j| / s_j): the
** natural scale of the backward's rounding error, since its two terms cancel. */
void ref_lrn_backward_abs(const ref_lrn_params* p, const ref_view* v, const float* x, const float* y,
                          const float* dy, double* scale);

#ifdef __cplusplus
}
#endif

#endif /* CLDNN_REF_LRN_H_ */
