/*
** ref_conv.c: the double-precision 2-d convolution reference (see ref.h, "A 2-d convolution").
**
** One output element per call, straight from the definition, so that the tests and
** `cldnn-bench -V 1` can check any subset of a tensor without materializing the whole result,
** and so that a wrong answer can only come from the device side. Sizes in the suites are small
** (a forward element costs C/groups * R * S multiply-adds; a backward-filter element costs
** N * P * Q), which keeps whole-tensor checks cheap.
**
** Semantics (cuDNN's): x is N x C x H x W, w is K x C/groups x R x S, y is N x K x P x Q with
** P = 1 + (H + 2 pad_h - ((R - 1) dil_h + 1)) / stride_h (Q alike). Output channel k belongs to
** group g = k / (K / groups) and reads input channels g * C/groups .. (g + 1) * C/groups - 1.
** Output (oh, ow) and filter tap (r, s) read input (oh * stride_h - pad_h + r' * dil_h,
** ow * stride_w - pad_w + s' * dil_w), where r' = R - 1 - r, s' = S - 1 - s when flip (CONVOLUTION
** mode) and r' = r, s' = s otherwise (CROSS_CORRELATION); taps that land in the padding read 0.
**
** The backward directions are the exact adjoints of that forward:
**   dx(n, c, ih, iw) = sum over k of c's group, r, s of w(k, c % Cg, r, s) * dy(n, k, oh, ow)
**                      for every (oh, ow) whose tap (r, s) reads (ih, iw): oh * stride_h =
**                      ih + pad_h - r' * dil_h must be divisible by stride_h and oh in [0, P);
**   dw(k, c, r, s)   = sum over n, oh, ow of x(n, g * Cg + c, ih, iw) * dy(n, k, oh, ow) over the
**                      taps inside the input;
**   db(k)            = sum over n, oh, ow of dy(n, k, oh, ow).
**
** Invariants: a ref_conv from ref_conv_init has every size >= 1, strides and dilations >= 1,
** pads >= 0, groups dividing C and K, and P, Q >= 1. Tensor strides (xs, ws, ys) are in elements
** in logical order (n, c, h, w) and (k, c, r, s); callers may overwrite them for strided views.
*/
#include "ref.h"

#include <math.h>
#include <string.h>

/* Element offsets of the three tensors. */
static int64_t x_at(const ref_conv* p, int64_t n, int64_t c, int64_t h, int64_t w) {
    return n * p->xs[0] + c * p->xs[1] + h * p->xs[2] + w * p->xs[3];
}

static int64_t w_at(const ref_conv* p, int64_t k, int64_t c, int64_t r, int64_t s) {
    return k * p->ws[0] + c * p->ws[1] + r * p->ws[2] + s * p->ws[3];
}

static int64_t y_at(const ref_conv* p, int64_t n, int64_t k, int64_t h, int64_t w) {
    return n * p->ys[0] + k * p->ys[1] + h * p->ys[2] + w * p->ys[3];
}

/* The window position of filter row r (flipped in CONVOLUTION mode); columns alike. */
static int64_t tap_r(const ref_conv* p, int64_t r) { return p->flip ? p->r - 1 - r : r; }
static int64_t tap_s(const ref_conv* p, int64_t s) { return p->flip ? p->s - 1 - s : s; }

/* Packed strides of a 4-d tensor with logical dims (a, b, c, d) = (n|k, c, h|r, w|s):
** row-major when !last_c (NCHW, KCRS), channels last when last_c (NHWC, KRSC). */
static void packed_strides(int64_t* st, int64_t b, int64_t c, int64_t d, int last_c) {
    if (last_c) {
        st[0] = c * d * b;
        st[1] = 1;
        st[2] = d * b;
        st[3] = b;
    } else {
        st[0] = b * c * d;
        st[1] = c * d;
        st[2] = d;
        st[3] = 1;
    }
}

/* See ref.h. Returns -1 (p zeroed) for sizes < 1, strides or dilations < 1, negative pads,
** groups < 1 or not dividing C and K, or a dilated window larger than the padded input. */
int ref_conv_init(ref_conv* p, int64_t n, int64_t c, int64_t h, int64_t w, int64_t k, int64_t r, int64_t s,
                  int pad_h, int pad_w, int stride_h, int stride_w, int dil_h, int dil_w, int groups, int flip,
                  int nhwc) {
    memset(p, 0, sizeof *p);
    if (n < 1 || c < 1 || h < 1 || w < 1 || k < 1 || r < 1 || s < 1 || pad_h < 0 || pad_w < 0 || stride_h < 1 ||
        stride_w < 1 || dil_h < 1 || dil_w < 1 || groups < 1 || c % groups != 0 || k % groups != 0)
        return -1;
    int64_t eff_r = (r - 1) * dil_h + 1, eff_s = (s - 1) * dil_w + 1;
    if (h + 2 * (int64_t)pad_h < eff_r || w + 2 * (int64_t)pad_w < eff_s)
        return -1;
    p->n = n;
    p->c = c;
    p->h = h;
    p->w = w;
    p->k = k;
    p->r = r;
    p->s = s;
    p->p = 1 + (h + 2 * (int64_t)pad_h - eff_r) / stride_h;
    p->q = 1 + (w + 2 * (int64_t)pad_w - eff_s) / stride_w;
    p->pad_h = pad_h;
    p->pad_w = pad_w;
    p->stride_h = stride_h;
    p->stride_w = stride_w;
    p->dil_h = dil_h;
    p->dil_w = dil_w;
    p->groups = groups;
    p->flip = flip != 0;
    packed_strides(p->xs, c, h, w, nhwc);
    packed_strides(p->ws, c / groups, r, s, nhwc);
    packed_strides(p->ys, k, p->p, p->q, nhwc);
    return 0;
}

/* 1 + sum (dim - 1) * stride over the four dims. */
static int64_t span4(int64_t a, int64_t b, int64_t c, int64_t d, const int64_t* st) {
    return 1 + (a - 1) * st[0] + (b - 1) * st[1] + (c - 1) * st[2] + (d - 1) * st[3];
}

/* The strided spans (elements a buffer must hold past its offset) of x, w and y. */
int64_t ref_conv_x_span(const ref_conv* p) { return span4(p->n, p->c, p->h, p->w, p->xs); }
int64_t ref_conv_w_span(const ref_conv* p) { return span4(p->k, p->c / p->groups, p->r, p->s, p->ws); }
int64_t ref_conv_y_span(const ref_conv* p) { return span4(p->n, p->k, p->p, p->q, p->ys); }

/* y(n, k, oh, ow) = sum over c in k's group, r, s of x(n, c, ih, iw) * w(k, c, r, s). */
double ref_conv_fwd_at(const ref_conv* p, const float* x, const float* w, int64_t n, int64_t k, int64_t oh,
                       int64_t ow, double* mag) {
    int64_t cg = p->c / p->groups, kg = p->k / p->groups, g = k / kg;
    double sum = 0.0, abs_sum = 0.0;
    for (int64_t c = 0; c < cg; c++)
        for (int64_t r = 0; r < p->r; r++) {
            int64_t ih = oh * p->stride_h - p->pad_h + tap_r(p, r) * p->dil_h;
            if (ih < 0 || ih >= p->h)
                continue;
            for (int64_t s = 0; s < p->s; s++) {
                int64_t iw = ow * p->stride_w - p->pad_w + tap_s(p, s) * p->dil_w;
                if (iw < 0 || iw >= p->w)
                    continue;
                double t = (double)x[x_at(p, n, g * cg + c, ih, iw)] * (double)w[w_at(p, k, c, r, s)];
                sum += t;
                abs_sum += fabs(t);
            }
        }
    if (mag != NULL)
        *mag = abs_sum;
    return sum;
}

/* dx(n, c, ih, iw): every (k, r, s) of c's group and the one output position, if any, whose
** tap (r, s) reads (ih, iw): oh * stride_h = ih + pad_h - r' * dil_h (exactly divisible). */
double ref_conv_bwd_data_at(const ref_conv* p, const float* w, const float* dy, int64_t n, int64_t c, int64_t ih,
                            int64_t iw, double* mag) {
    int64_t cg = p->c / p->groups, kg = p->k / p->groups, g = c / cg, cw = c % cg;
    double sum = 0.0, abs_sum = 0.0;
    for (int64_t k = g * kg; k < (g + 1) * kg; k++)
        for (int64_t r = 0; r < p->r; r++) {
            int64_t th = ih + p->pad_h - tap_r(p, r) * p->dil_h;
            if (th < 0 || th % p->stride_h != 0)
                continue;
            int64_t oh = th / p->stride_h;
            if (oh >= p->p)
                continue;
            for (int64_t s = 0; s < p->s; s++) {
                int64_t tw = iw + p->pad_w - tap_s(p, s) * p->dil_w;
                if (tw < 0 || tw % p->stride_w != 0)
                    continue;
                int64_t ow = tw / p->stride_w;
                if (ow >= p->q)
                    continue;
                double t = (double)w[w_at(p, k, cw, r, s)] * (double)dy[y_at(p, n, k, oh, ow)];
                sum += t;
                abs_sum += fabs(t);
            }
        }
    if (mag != NULL)
        *mag = abs_sum;
    return sum;
}

/* dw(k, c, r, s), c within the group: sum over n, oh, ow of x * dy where the tap is inside x. */
double ref_conv_bwd_filter_at(const ref_conv* p, const float* x, const float* dy, int64_t k, int64_t c, int64_t r,
                              int64_t s, double* mag) {
    int64_t cg = p->c / p->groups, kg = p->k / p->groups, ci = (k / kg) * cg + c;
    double sum = 0.0, abs_sum = 0.0;
    for (int64_t n = 0; n < p->n; n++)
        for (int64_t oh = 0; oh < p->p; oh++) {
            int64_t ih = oh * p->stride_h - p->pad_h + tap_r(p, r) * p->dil_h;
            if (ih < 0 || ih >= p->h)
                continue;
            for (int64_t ow = 0; ow < p->q; ow++) {
                int64_t iw = ow * p->stride_w - p->pad_w + tap_s(p, s) * p->dil_w;
                if (iw < 0 || iw >= p->w)
                    continue;
                double t = (double)x[x_at(p, n, ci, ih, iw)] * (double)dy[y_at(p, n, k, oh, ow)];
                sum += t;
                abs_sum += fabs(t);
            }
        }
    if (mag != NULL)
        *mag = abs_sum;
    return sum;
}

/* db(k) = sum of dy over n, oh, ow. */
double ref_conv_bwd_bias_at(const ref_conv* p, const float* dy, int64_t k, double* mag) {
    double sum = 0.0, abs_sum = 0.0;
    for (int64_t n = 0; n < p->n; n++)
        for (int64_t oh = 0; oh < p->p; oh++)
            for (int64_t ow = 0; ow < p->q; ow++) {
                double t = dy[y_at(p, n, k, oh, ow)];
                sum += t;
                abs_sum += fabs(t);
            }
    if (mag != NULL)
        *mag = abs_sum;
    return sum;
}
