/*
** ref_norm.h: double-precision reference of layer, group and RMS normalization
** (cldnnNormalizationForward / Backward).
**
** Arrays are packed in x's logical order (row-major over dims). A row is the last `param` dims
** (LAYER, RMS) or (n, group) with its C / groups channels and every spatial dim (GROUP); a
** parameter is the element's position in the trailing dims (LAYER, RMS) or its channel (GROUP).
** mean and istd hold one value per row (packed: the statistics tensor's order); RMS has mean 0.
** Variance is biased; istd = 1 / sqrt(var + eps) (RMS: 1 / sqrt(mean(x^2) + eps)).
*/
#ifndef CLDNN_REF_NORM_H_
#define CLDNN_REF_NORM_H_

#include "ref.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int mode;  /* cldnnNormMode_t: 0 layer, 1 group, 2 RMS */
    int param; /* trailing dims (layer, RMS) or groups */
    int nd;
    int64_t dims[REF_DIM_MAX];
    double eps;
} ref_norm;

int64_t ref_norm_count(const ref_norm* p);
int64_t ref_norm_rows(const ref_norm* p);
int64_t ref_norm_params(const ref_norm* p);
/* Row and parameter of packed element i. */
void ref_norm_index(const ref_norm* p, int64_t i, int64_t* row, int64_t* par);
/* Statistics and y = xhat * sc + bi (sc NULL: y = xhat); no alpha / beta. */
void ref_norm_forward(const ref_norm* p, const double* x, const double* sc, const double* bi, double* mean,
                      double* istd, double* y);
/* dx, dScale, dBias from x, dy and the given statistics (sc NULL: no affine). */
void ref_norm_backward(const ref_norm* p, const double* x, const double* dy, const double* sc, const double* mean,
                       const double* istd, double* dx, double* ds, double* db);

#ifdef __cplusplus
}
#endif

#endif /* CLDNN_REF_NORM_H_ */
