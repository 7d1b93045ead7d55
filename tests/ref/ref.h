/*
** ref.h: double-precision host references for cldnn's primitives.
**
** Used by the Criterion suites in tests/ and by `cldnn-bench -V 1` in perf/, so that a kernel is
** always checked against one reference. Every routine works on host arrays described by a
** strided view (dims and strides in elements, up to 8 dims) and computes in double; inputs and
** outputs are float arrays (what the device holds), the result is returned as double where the
** caller wants to compare with a tolerance.
**
** Also here: a seeded random generator (xorshift64*) so failures can be reproduced from the
** printed seed, and the comparison helper that the tests and the bench share.
*/
#ifndef CLDNN_REF_H_
#define CLDNN_REF_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define REF_DIM_MAX 8

/* A strided view: element i (multi-index) lives at sum idx[d] * strides[d]. */
typedef struct {
    int nd;
    int64_t dims[REF_DIM_MAX];
    int64_t strides[REF_DIM_MAX];
} ref_view;

/* Packed NCHW-order view of dims (row-major: last dim fastest). */
ref_view ref_view_packed(int nd, const int64_t* dims);
/* Number of elements (product of dims). */
int64_t ref_view_count(const ref_view* v);
/* Number of elements a buffer must hold: 1 + sum (dims-1)*strides. */
int64_t ref_view_span(const ref_view* v);
/* Offset (elements) of the linear index i (row-major over dims). */
int64_t ref_view_offset(const ref_view* v, int64_t i);

/* Activation modes use cldnn's enum values (cldnnActivationMode_t). */
double ref_act_forward(int mode, double coef, double swish_beta, double x);
/* d act / dx at x (a subgradient at kinks: 0 for x == 0 in RELU, as the library). */
double ref_act_derivative(int mode, double coef, double swish_beta, double x);

/* GEMM with BLAS semantics, computed in double: C_out = alpha * op(A) op(B) + beta * C_in, where
** C is m x n, op(A) m x k, op(B) k x n, every matrix stored row-major (row_major != 0) or
** column-major with its leading dimension, and op transposes when trans_x != 0. C_out is written
** in C's layout with ldc, only the m x n elements (the ld padding is left as it was). When
** beta == 0, C_in is not read and may be NULL. */
void ref_gemm(int row_major, int trans_a, int trans_b, int64_t m, int64_t n, int64_t k, double alpha,
              const float* A, int64_t lda, const float* B, int64_t ldb, double beta, const float* C_in,
              double* C_out, int64_t ldc);
/* The absolute product sum of the same product: S(i, j) = sum_p |op(A)(i, p)| |op(B)(p, j)|,
** written like ref_gemm's C_out (C's layout, ldc, only the m x n elements). The natural scale
** of the rounding error of a float dot product of length k. */
void ref_gemm_abs(int row_major, int trans_a, int trans_b, int64_t m, int64_t n, int64_t k, const float* A,
                  int64_t lda, const float* B, int64_t ldb, double* S, int64_t ldc);
/* Element offset of (row, col) in a matrix stored row-major (row_major != 0) or column-major
** with leading dimension ld. */
int64_t ref_mat_index(int row_major, int64_t row, int64_t col, int64_t ld);

/* Softmax over a view of 2 or more dims (N first, C second, then spatial), cuDNN semantics.
** algo and mode use the values of cldnnSoftmaxAlgorithm_t (FAST 0, ACCURATE 1, LOG 2) and
** cldnnSoftmaxMode_t (INSTANCE 0: one softmax per n over C and every spatial dim; CHANNEL 1: one
** per (n, spatial position) over C). Forward: y (packed over v's dims) = softmax of x (strided by
** v): FAST exp(x) / sum exp(x) as written (no shift; double overflows only past x ~ 709),
** ACCURATE exp(x - max) / sum exp(x - max), LOG x - max - log sum exp(x - max). No alpha/beta. */
void ref_softmax_forward(int algo, int mode, const ref_view* v, const float* x, double* y);
/* Backward from the forward output y and dy (both strided by v), dx packed over v's dims:
** FAST, ACCURATE dx = y * (dy - sum(dy * y)); LOG dx = dy - exp(y) * sum(dy), sums over the
** forward's softmax set. No alpha/beta. */
void ref_softmax_backward(int algo, int mode, const ref_view* v, const float* y, const float* dy, double* dx);
/* The natural scale of the rounding error of the backward, the same formula on absolute values:
** FAST, ACCURATE |y| * (|dy| + sum |dy * y|); LOG |dy| + exp(y) * sum |dy| (s packed). */
void ref_softmax_backward_abs(int algo, int mode, const ref_view* v, const float* y, const float* dy, double* s);
/* Number of elements in one softmax (the set each sum runs over) for mode on v. */
int64_t ref_softmax_group_size(int mode, const ref_view* v);

/* A 2-d convolution for the references (cuDNN semantics): x is N x C x H x W, w is
** K x C/groups x R x S, y is N x K x P x Q; output channel k belongs to group k / (K / groups)
** and reads input channels g * C/groups .. (g + 1) * C/groups - 1. Input row of output row oh
** and filter row r: oh * stride_h - pad_h + r' * dil_h, with r' = R - 1 - r when flip (CONVOLUTION
** mode) and r' = r otherwise (CROSS_CORRELATION); columns alike. Strides of each tensor are in
** elements, in logical order: x and y (n, c, h, w), w (k, c, r, s). */
typedef struct {
    int64_t n, c, h, w, k, r, s, p, q;
    int pad_h, pad_w, stride_h, stride_w, dil_h, dil_w, groups;
    int flip;
    int64_t xs[4], ws[4], ys[4];
} ref_conv;
/* Fills p with sizes, P and Q, and packed strides: NCHW x/y with a KCRS w (nhwc == 0) or NHWC
** x/y with a KRSC w (nhwc == 1). Returns 0, or -1 when the dilated window does not fit the padded
** input or the channels do not divide by groups. */
int ref_conv_init(ref_conv* p, int64_t n, int64_t c, int64_t h, int64_t w, int64_t k, int64_t r, int64_t s,
                  int pad_h, int pad_w, int stride_h, int stride_w, int dil_h, int dil_w, int groups, int flip,
                  int nhwc);
/* Elements a buffer must hold for each tensor (the strided span). */
int64_t ref_conv_x_span(const ref_conv* p);
int64_t ref_conv_w_span(const ref_conv* p);
int64_t ref_conv_y_span(const ref_conv* p);
/* One element of each direction, in double, with *mag (when non-NULL) = the sum of the absolute
** values of the terms (the scale of a float sum's rounding error; 0 when there are no terms).
** Forward y(n, k, oh, ow) from x and w; backward-data dx(n, c, ih, iw) from w and dy;
** backward-filter dw(k, c, r, s) (c within the group) from x and dy; bias db(k) from dy.
** No alpha/beta: the caller applies them. */
double ref_conv_fwd_at(const ref_conv* p, const float* x, const float* w, int64_t n, int64_t k, int64_t oh,
                       int64_t ow, double* mag);
double ref_conv_bwd_data_at(const ref_conv* p, const float* w, const float* dy, int64_t n, int64_t c, int64_t ih,
                            int64_t iw, double* mag);
double ref_conv_bwd_filter_at(const ref_conv* p, const float* x, const float* dy, int64_t k, int64_t c, int64_t r,
                              int64_t s, double* mag);
double ref_conv_bwd_bias_at(const ref_conv* p, const float* dy, int64_t k, double* mag);

/* Seeded generator. */
typedef struct { uint64_t s; } ref_rng;
void ref_rng_seed(ref_rng* r, uint64_t seed);
uint64_t ref_rng_next(ref_rng* r);
/* Uniform in [lo, hi). */
double ref_rng_uniform(ref_rng* r, double lo, double hi);
/* Fills n floats uniformly in [lo, hi). */
void ref_fill_uniform(ref_rng* r, float* p, size_t n, double lo, double hi);
/* Fills n floats with NaN (for outputs whose prior content must not be read). */
void ref_fill_nan(float* p, size_t n);
/* A seed from CLDNN_TEST_SEED if set, else from the clock; the caller prints it. */
uint64_t ref_seed_from_env(void);

/* One element: 1 when got matches want within tol (a NaN want accepts only a NaN got, an
** infinite want only the same infinity). *err gets |got - want| for finite pairs, else 0. */
int ref_close(double got, double want, double tol, double* err);

/* Compares got (float, strided by v) against want (double, packed over v's dims):
** |got - want| <= atol + rtol * |want| for every element. Returns the number of failures and
** writes the first failing linear index, and the largest relative error seen, when non-NULL. */
int64_t ref_compare(const ref_view* v, const float* got, const double* want, double atol, double rtol,
                    int64_t* first_bad, double* max_rel);

#ifdef __cplusplus
}
#endif

#endif /* CLDNN_REF_H_ */
