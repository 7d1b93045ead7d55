/*
** ref_pool.h: the double-precision 2-d pooling reference (tests/ref/ref_pool.c), for
** tests/test_pool.c and `cldnn-bench pool -V 1`.
**
** Semantics (cuDNN's, include/cldnn.h): x is N x C x H x W, y is N x C x OH x OW with
** OH = 1 + (H + 2 ph - wh) / sh (OW alike); output (oh, ow) covers input rows oh * sh - ph ..
** oh * sh - ph + wh - 1 and columns alike. Modes use cldnnPoolingMode_t values; nan uses
** cldnnNanPropagation_t. Max modes skip padding (NOT_PROPAGATE: NaNs skipped too, a window of
** NaNs gives -inf; PROPAGATE: a NaN in the window gives NaN); average modes divide the sum of
** the taps inside the input by wh * ww (INCLUDE_PADDING) or by their number (EXCLUDE_PADDING).
** Backward: average modes give each covered dx element dy / count of every covering window; max
** modes give dy to the first tap of the window, in row-major order, whose x matches y (equal, or
** both NaN). No alpha / beta here: callers apply them.
*/
#ifndef CLDNN_REF_POOL_H_
#define CLDNN_REF_POOL_H_

#include <stdint.h>

#include "ref.h"

typedef struct {
    int mode, nan;
    int64_t n, c, h, w, oh, ow;
    int64_t wh, ww, ph, pw, sh, sw;
} ref_pool;

/* Fills p; returns 0 when the geometry is invalid (window < 1, stride < 1, pad < 0 or >= window,
** window larger than the padded input), 1 otherwise. */
int ref_pool_init(ref_pool* p, int mode, int nan, int64_t n, int64_t c, int64_t h, int64_t w, int64_t wh,
                  int64_t ww, int64_t ph, int64_t pw, int64_t sh, int64_t sw);
/* y packed over (n, c, oh, ow) from x laid out by the 4-d view xv. mag (NULL: not written) gets
** the natural size of each output's rounding error: |y| for max, sum |x| / count for averages. */
void ref_pool_forward(const ref_pool* p, const ref_view* xv, const float* x, double* y, double* mag);
/* dx packed over (n, c, h, w) from x (xv), y (yv) and dy (dyv); x and y are not read by the
** average modes (may be NULL). mag (NULL: not written) gets the sum of the |terms| of each dx. */
void ref_pool_backward(const ref_pool* p, const ref_view* xv, const float* x, const ref_view* yv, const float* y,
                       const ref_view* dyv, const float* dy, double* dx, double* mag);

#endif /* CLDNN_REF_POOL_H_ */
