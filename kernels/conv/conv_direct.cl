/*
 * conv_direct.cl: the convolution kernels that are not a GEMM tile:
 *   conv_dw_fwd, conv_dw_bwd_data   direct depthwise-style convolution (one input channel per
 *                                   group, any channel multiplier): one work-item per output
 *                                   element, bandwidth-bound, where a GEMM of width 1 wastes work
 *   conv_im2col, conv_col2im        the explicit GEMM algorithm's unfold and (gathering, hence
 *                                   deterministic) fold of the column matrix
 *   conv_bwd_bias                   db = alpha * sum of dy over N, P, Q + beta * db
 *
 * Shapes, tensor strides (long4, elements, logical n, c, h, w order) and offsets are arguments;
 * divisions by runtime sizes go through common/fastdiv.h. CONVOLUTION mode flips the filter
 * (r' = R-1-r) on the activation side, as conv_igemm.cl does.
 *
 * Build options
 *   CHLAST   1: work-items walk the channel fastest (NHWC tensors), 0: the column (NCHW)
 *   KORD     tap order of the column matrix (0: c, r, s as KCRS; 1: r, s, c as KRSC)
 *   WG       work-group size of conv_bwd_bias (a power of two; default 256)
 */
#include "common/helpers.h"
#include "common/fastdiv.h"

#ifndef CHLAST
#define CHLAST 0
#endif
#ifndef KORD
#define KORD 0
#endif
#ifndef WG
#define WG 256
#endif

/* Splits linear index i into (a, b, c, d), d fastest, with divisors dv_d, dv_c, dv_b. */
#define SPLIT4(i, a, b, c, d, dvd, dvc, dvb)                                                        \
    do {                                                                                            \
        int t_ = fdiv((i), dvd);                                                                    \
        d = (i) - t_ * (int)(dvd).x;                                                                \
        int u_ = fdiv(t_, dvc);                                                                     \
        c = t_ - u_ * (int)(dvc).x;                                                                 \
        a = fdiv(u_, dvb);                                                                          \
        b = u_ - a * (int)(dvb).x;                                                                  \
    } while (0)

/* y(n, k, oh, ow) = alpha * sum_{r,s} w[k, 0, r, s] x(n, k / Kg, ih, iw) + beta * y. Filter
 * K x 1 x R x S (the same bytes in KCRS and KRSC). Work-items walk y in its memory order:
 * (n, oh, ow, k) with CHLAST, else (n, k, oh, ow); dv0..dv2 divide by the three fastest extents. */
__kernel void conv_dw_fwd(int total, float alpha, float beta, __global const float* X, ulong x_off, long4 xs,
                          __global const float* Wt, ulong w_off, __global float* Y, ulong y_off, long4 ys,
                          int H, int Wd, int R, int S, int Kg, int pad_h, int pad_w, int su, int sv, int dil_h,
                          int dil_w, int flip, uint4 dv0, uint4 dv1, uint4 dv2) {
    const int i = (int)get_global_id(0);
    if (i >= total)
        return;
    int n, k, oh, ow;
#if CHLAST
    SPLIT4(i, n, oh, ow, k, dv0, dv1, dv2);
#else
    SPLIT4(i, n, k, oh, ow, dv0, dv1, dv2);
#endif
    const int c = k / Kg;
    __global const float* xp = X + x_off + (long)n * xs.s0 + (long)c * xs.s1;
    __global const float* wp = Wt + w_off + (long)k * R * S;
    const int ih0 = oh * su - pad_h, iw0 = ow * sv - pad_w;
    float acc = 0.0f;
    for (int r = 0; r < R; ++r) {
        const int ih = ih0 + (flip ? R - 1 - r : r) * dil_h;
        if ((uint)ih >= (uint)H)
            continue;
        for (int s = 0; s < S; ++s) {
            const int iw = iw0 + (flip ? S - 1 - s : s) * dil_w;
            if ((uint)iw < (uint)Wd)
                acc = fma(wp[r * S + s], xp[(long)ih * xs.s2 + (long)iw * xs.s3], acc);
        }
    }
    __global float* yp = Y + y_off + (long)n * ys.s0 + (long)k * ys.s1 + (long)oh * ys.s2 + (long)ow * ys.s3;
    float out = alpha * acc;
    if (beta != 0.0f)
        out = fma(beta, *yp, out);
    *yp = out;
}

/* dx(n, c, ih, iw) = alpha * sum_{m < Kg, r, s} w[c * Kg + m, 0, r, s] dy(n, c * Kg + m, oh, ow)
 * over the (oh, ow) with oh * u = ih + pad_h - r' dil_h (likewise ow) inside dy, + beta * dx. */
__kernel void conv_dw_bwd_data(int total, float alpha, float beta, __global float* DX, ulong x_off, long4 xs,
                               __global const float* Wt, ulong w_off, __global const float* DY, ulong y_off,
                               long4 ys, int P, int Q, int R, int S, int Kg, int pad_h, int pad_w, int su, int sv,
                               int dil_h, int dil_w, int flip, uint4 dv0, uint4 dv1, uint4 dv2, uint4 dv_u,
                               uint4 dv_v) {
    const int i = (int)get_global_id(0);
    if (i >= total)
        return;
    int n, c, ih, iw;
#if CHLAST
    SPLIT4(i, n, ih, iw, c, dv0, dv1, dv2);
#else
    SPLIT4(i, n, c, ih, iw, dv0, dv1, dv2);
#endif
    float acc = 0.0f;
    for (int m = 0; m < Kg; ++m) {
        const int k = c * Kg + m;
        __global const float* dyp = DY + y_off + (long)n * ys.s0 + (long)k * ys.s1;
        __global const float* wp = Wt + w_off + (long)k * R * S;
        for (int r = 0; r < R; ++r) {
            const int th = ih + pad_h - (flip ? R - 1 - r : r) * dil_h;
            if (th < 0)
                continue;
            const int oh = fdiv(th, dv_u);
            if (oh * su != th || oh >= P)
                continue;
            for (int s = 0; s < S; ++s) {
                const int tw = iw + pad_w - (flip ? S - 1 - s : s) * dil_w;
                if (tw < 0)
                    continue;
                const int ow = fdiv(tw, dv_v);
                if (ow * sv == tw && ow < Q)
                    acc = fma(wp[r * S + s], dyp[(long)oh * ys.s2 + (long)ow * ys.s3], acc);
            }
        }
    }
    __global float* dxp = DX + x_off + (long)n * xs.s0 + (long)c * xs.s1 + (long)ih * xs.s2 + (long)iw * xs.s3;
    float out = alpha * acc;
    if (beta != 0.0f)
        out = fma(beta, *dxp, out);
    *dxp = out;
}

/* Tap t (KORD order over Cg x R x S) -> (c, r, s); dv_tap divides by R*S (KORD 0) or Cg (1). */
#define TAP_SPLIT(t, c, r, s)                                                                       \
    do {                                                                                            \
        int rs_;                                                                                    \
        if (KORD == 0) {                                                                            \
            c = fdiv((t), dv_tap);                                                                  \
            rs_ = (t) - c * (int)dv_tap.x;                                                          \
        } else {                                                                                    \
            rs_ = fdiv((t), dv_tap);                                                                \
            c = (t) - rs_ * (int)dv_tap.x;                                                          \
        }                                                                                           \
        r = fdiv(rs_, dv_s);                                                                        \
        s = rs_ - r * S;                                                                            \
    } while (0)

/* col[l * cs_img + t * cs_t + pix * cs_p] = x(img0 + l, g * Cg + c, ih, iw) (0 outside) for the nb
 * images from img0, the taps t of group g and the output pixels pix = oh * Q + ow. Work-items walk
 * (l, pix, t) with CHLAST (cs_t == 1), else (l, t, pix). */
__kernel void conv_im2col(int total, __global const float* X, ulong x_off, long4 xs, __global float* Col,
                          ulong col_off, long cs_img, long cs_t, long cs_p, int img0, int g, int Cg, int H, int Wd,
                          int Q, int S, int pad_h, int pad_w, int su, int sv, int dil_h, int dil_w, int R, int flip,
                          uint4 dv_fast, uint4 dv_mid, uint4 dv_q, uint4 dv_tap, uint4 dv_s) {
    const int i = (int)get_global_id(0);
    if (i >= total)
        return;
    int t_ = fdiv(i, dv_fast);
    const int fast = i - t_ * (int)dv_fast.x;
    const int l = fdiv(t_, dv_mid);
    const int mid = t_ - l * (int)dv_mid.x;
#if CHLAST
    const int t = fast, pix = mid;
#else
    const int t = mid, pix = fast;
#endif
    int c, r, s;
    TAP_SPLIT(t, c, r, s);
    const int oh = fdiv(pix, dv_q), ow = pix - oh * Q;
    const int ih = oh * su - pad_h + (flip ? R - 1 - r : r) * dil_h;
    const int iw = ow * sv - pad_w + (flip ? S - 1 - s : s) * dil_w;
    float v = 0.0f;
    if ((uint)ih < (uint)H && (uint)iw < (uint)Wd)
        v = X[x_off + (long)(img0 + l) * xs.s0 + (long)(g * Cg + c) * xs.s1 + (long)ih * xs.s2 + (long)iw * xs.s3];
    Col[col_off + (long)l * cs_img + (long)t * cs_t + (long)pix * cs_p] = v;
}

/* dx(img0 + l, g * Cg + c, ih, iw) = alpha * sum over taps (r, s) whose output pixel (oh, ow)
 * exists of col[l * cs_img + t(c, r, s) * cs_t + (oh * Q + ow) * cs_p] + beta * dx. Work-items walk
 * (l, ih, iw, c) with CHLAST, else (l, c, ih, iw): dv0..dv2 divide by the three fastest extents. */
__kernel void conv_col2im(int total, float alpha, float beta, __global float* DX, ulong x_off, long4 xs,
                          __global const float* Col, ulong col_off, long cs_img, long cs_t, long cs_p, int img0,
                          int g, int Cg, int P, int Q, int R, int S, int pad_h, int pad_w, int su, int sv, int dil_h,
                          int dil_w, int flip, uint4 dv0, uint4 dv1, uint4 dv2, uint4 dv_u, uint4 dv_v) {
    const int i = (int)get_global_id(0);
    if (i >= total)
        return;
    int l, c, ih, iw;
#if CHLAST
    SPLIT4(i, l, ih, iw, c, dv0, dv1, dv2);
#else
    SPLIT4(i, l, c, ih, iw, dv0, dv1, dv2);
#endif
    __global const float* cp = Col + col_off + (long)l * cs_img;
    float acc = 0.0f;
    for (int r = 0; r < R; ++r) {
        const int th = ih + pad_h - (flip ? R - 1 - r : r) * dil_h;
        if (th < 0)
            continue;
        const int oh = fdiv(th, dv_u);
        if (oh * su != th || oh >= P)
            continue;
        for (int s = 0; s < S; ++s) {
            const int tw = iw + pad_w - (flip ? S - 1 - s : s) * dil_w;
            if (tw < 0)
                continue;
            const int ow = fdiv(tw, dv_v);
            if (ow * sv != tw || ow >= Q)
                continue;
            const int t = KORD == 0 ? (c * R + r) * S + s : (r * S + s) * Cg + c;
            acc += cp[(long)t * cs_t + (long)(oh * Q + ow) * cs_p];
        }
    }
    __global float* dxp = DX + x_off + (long)(img0 + l) * xs.s0 + (long)(g * Cg + c) * xs.s1 + (long)ih * xs.s2 +
                          (long)iw * xs.s3;
    float out = alpha * acc;
    if (beta != 0.0f)
        out = fma(beta, *dxp, out);
    *dxp = out;
}

/* One work-group of WG per output channel k: db[k * db_stride] = alpha * sum_{n, oh, ow} dy + beta
 * * db, summed in a fixed order (deterministic). dv_pq divides by P*Q, dv_q by Q. */
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void conv_bwd_bias(int N, int P, int Q, float alpha, float beta, __global const float* DY, ulong y_off, long4 ys,
                   __global float* DB, ulong db_off, long db_stride, uint4 dv_pq, uint4 dv_q) {
    __local float part[WG];
    const int k = (int)get_group_id(0), lid = (int)get_local_id(0);
    const int total = N * P * Q;
    __global const float* dyp = DY + y_off + (long)k * ys.s1;
    float acc = 0.0f;
    for (int i = lid; i < total; i += WG) {
        const int n = fdiv(i, dv_pq), pix = i - n * P * Q;
        const int oh = fdiv(pix, dv_q), ow = pix - oh * Q;
        acc += dyp[(long)n * ys.s0 + (long)oh * ys.s2 + (long)ow * ys.s3];
    }
    part[lid] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int w = WG / 2; w > 0; w >>= 1) {
        if (lid < w)
            part[lid] += part[lid + w];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) {
        __global float* o = DB + db_off + (long)k * db_stride;
        float out = alpha * part[0];
        if (beta != 0.0f)
            out = fma(beta, *o, out);
        *o = out;
    }
}
